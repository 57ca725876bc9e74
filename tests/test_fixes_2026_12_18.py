"""Fixes of 2026-12-18, each from a finding, each test failing before its fix."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import cardcore
from tests.plugins import uno_2026_12_18 as uno


@pytest.fixture
def uno_registered() -> Iterator[None]:
    cardcore.register("cardcore.games", "uno", uno)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.games", "uno")


@pytest.mark.usefixtures("uno_registered")
def test_cardcore_rules_shows_angle_bracket_words_of_a_rules_text(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The Uno author wrote ``wild <colour>`` outside backticks and ``cardcore rules`` printed
    ``wild``: rich leaves HTML out of Markdown, and ``<colour>`` reads as a tag."""
    from cardcore.cli import main

    text = uno.RULES_MD.replace("`wild <colour>`", "wild <colour>").replace(
        "UNO-SKIP-1 | Skip:", "UNO-SKIP-1 | <b>Skip</b>:"
    )
    assert "wild <colour>," in text
    monkeypatch.setattr(uno, "RULES_MD", text)
    for args in (["rules", "uno"], ["rules", "uno", "UNO-NOTE-1"], ["rules", "uno", "UNO-SKIP-1"]):
        try:
            main(args)
        except SystemExit as stop:
            assert stop.code in (0, None)
    out = capsys.readouterr().out
    assert out.count("wild <colour>") == 2  # the whole text, then the one rule
    assert out.count("<b>Skip</b>") == 2  # written as it stands, not read as bold
