"""Fixes of 2026-12-11 to the command line and agent line-ups: repeated options, empty
names, the workers bound, commands without rich."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys

import pytest

import cardcore
from cardcore import OptionError, cli
from cardcore.cli.args import MAX_WORKERS


def _main(*argv: str) -> tuple[int, str]:
    """``cli.main(argv)`` here: its exit status and its one stderr line."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err.getvalue()
    return code, lines[0]


def test_an_option_given_twice_is_refused() -> None:
    code, line = _main("simulate", "golf", "-q", "--games", "1", "-o", "rounds=1", "-o", "rounds=2")
    assert code == 2 and "'rounds' is given twice" in line
    with pytest.raises(OptionError, match="given twice"):
        cli.parse_options("golf", ["rounds=1", " rounds =1"])


@pytest.mark.parametrize("value", ["golf.hard,", ",", "golf.hard,,golf.jokers", ""])
@pytest.mark.parametrize("flag", ["--rules", "--without"])
def test_an_empty_rule_name_is_refused(flag: str, value: str) -> None:
    code, line = _main("simulate", "golf", "-q", "--games", "1", flag, value)
    assert code == 2 and "empty rule name" in line


def test_compare_refuses_an_empty_rule_name_of_either_configuration() -> None:
    code, line = _main("compare", "golf", "--games", "1", "--vs", "golf.hard,")
    assert code == 2 and "--vs" in line and "empty rule name" in line


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_workers_above_the_bound_are_refused(command: str) -> None:
    code, line = _main(command, "golf", "--games", "1", "--workers", str(MAX_WORKERS + 1))
    assert code == 2 and f"at most {MAX_WORKERS}" in line


@pytest.mark.parametrize("text", ["random,,random", ",random", "random,", ",", "a:seed=1,,b"])
def test_split_agent_specs_refuses_an_empty_agent_name(text: str) -> None:
    with pytest.raises(OptionError, match="empty agent name"):
        cardcore.split_agent_specs(text)


def test_split_agent_specs_keeps_a_parameters_trailing_comma_and_blank_text() -> None:
    assert cardcore.split_agent_specs("random:seed=2,") == ["random:seed=2"]
    assert cardcore.split_agent_specs(" ") == []


def test_simulate_refuses_a_text_lineup_with_an_empty_piece() -> None:
    with pytest.raises(OptionError, match="empty agent name"):
        cardcore.simulate("golf", agents="random,,random", games=1, options={"rounds": 1})


def test_serve_needs_no_rich() -> None:
    code = (
        "import sys\nsys.modules['rich'] = None\n"
        "from cardcore.cli import main\nsys.exit(main(['serve', '--port', '99999']))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr  # the port, not rich
    assert "65535" in proc.stderr and "rich" not in proc.stderr
