"""``docs/cli.rst`` covers every command of ``cardcore --help``, and its examples parse."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from cardcore.cli import build_parser

PAGE = Path(__file__).resolve().parent.parent / "docs" / "cli.rst"


def _commands() -> dict[str, argparse.ArgumentParser]:
    """Each command of the parser by its name (aliases such as ``sim`` left out)."""
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    out: dict[str, argparse.ArgumentParser] = {}
    for name, parser in sub.choices.items():
        if parser not in out.values():
            out[name] = parser
    return out


def _examples() -> list[str]:
    """The ``$ cardcore ...`` lines of the page's console blocks, comments dropped."""
    lines = re.findall(r"^\s+\$ (cardcore\b.*)$", PAGE.read_text(encoding="utf-8"), re.M)
    return [" ".join(shlex.split(line, comments=True)) for line in lines]


def test_cli_page_has_a_section_for_every_command() -> None:
    text = PAGE.read_text(encoding="utf-8")
    missing = [
        name for name in _commands() if not re.search(rf"^``cardcore {name}``\n-+\n", text, re.M)
    ]
    assert not missing, f"docs/cli.rst has no section for: {missing}"
    for name, page in [("verify", "session"), ("compare", "house-rule-study"), ("serve", "web")]:
        section = text.split(f"``cardcore {name}``\n", 1)[1].split("\n``cardcore ", 1)[0]
        assert f":doc:`{page}`" in section, f"the {name} section does not link to {page}.rst"


@pytest.mark.parametrize("line", _examples())
def test_cli_page_examples_parse(line: str) -> None:
    """Every example names a command and options that exist (argparse exits on a bad one)."""
    try:
        args = build_parser().parse_args(shlex.split(line)[1:])
    except SystemExit as exc:  # pragma: no cover - the failure's message
        pytest.fail(f"{line!r} does not parse (exit {exc.code})")
    assert args.command in _commands() or args.command == "sim"


def test_every_command_has_an_example() -> None:
    shown = {line.split()[1] for line in _examples() if len(line.split()) > 1}
    assert set(_commands()) <= shown, set(_commands()) - shown
