"""Fixes of 2026-12-06 found by a hunt for flaky tests: the command line's own behaviour under
an early Ctrl-C, and keys typed before a real-time table is set up."""

from __future__ import annotations

import os
import select
import sys

import pytest

from cardcore import cli


def test_ctrl_c_while_the_arguments_are_read_is_one_line_and_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Ctrl-C before the command runs (its arguments read, rich imported) was a traceback."""

    def interrupted() -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["simulate", "golf"]) == 130
    out, err = capsys.readouterr()
    assert err == "interrupted\n" and out == ""


@pytest.mark.skipif(sys.platform == "win32", reason="a pty")
def test_keys_typed_before_the_real_time_table_is_set_up_are_kept() -> None:
    """Switching the terminal to single keys kept what was typed already (it was flushed, so
    a key typed while ``cardcore play spit`` set up its table was lost)."""
    import pty

    from cardcore.cli import realtime

    master, slave = pty.openpty()
    try:
        os.write(master, b"q")  # typed before the game reads keys
        with os.fdopen(os.dup(slave), "r") as source, realtime._cbreak(source) as read:
            ready, _, _ = select.select([slave], [], [], 5.0)
            assert ready, "the key typed before was thrown away"
            assert read() == "q"
    finally:
        os.close(master)
        os.close(slave)
