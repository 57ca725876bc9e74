"""The README's embedding example runs and its set-up block holds two commands."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_example_runs() -> None:
    text = README.read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S)
    assert code is not None
    lines = code.group(1).strip().splitlines()
    assert len(lines) <= 15
    out = subprocess.run(
        [sys.executable, "-c", code.group(1)], capture_output=True, text=True, check=True
    )
    assert out.stdout.startswith("winners:")


def test_readme_setup_is_two_commands() -> None:
    block = README.read_text().split("<!-- ci:setup:start -->")[1].split("<!-- ci:setup:end -->")[0]
    commands = [line for line in block.splitlines() if line.strip() and not line.startswith("```")]
    assert len(commands) == 2
    assert "pip install" in commands[0] and "cardcore" in commands[0]
    assert "pip install -e " in commands[0], "the first command installs the checkout editable"
    assert "pytest" in commands[1]


def test_readme_says_what_the_extras_install() -> None:
    """The prose before the set-up block names what the set-up's extras pull in."""
    text = README.read_text()
    setup = text.split("## Set-up", 1)[1].split("<!-- ci:setup:start -->", 1)[0]
    for name in (
        "rich",
        "dask",
        "pytest",
        "hypothesis",
        "sphinx",
        "furo",
        "mypy",
        "ruff",
        "matplotlib",
        "mutmut",
        "`rl`",
        "`web`",
        "chromium",
    ):
        assert name in setup, name
