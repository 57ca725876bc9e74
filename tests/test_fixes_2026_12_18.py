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


def _units_rule(hook: object) -> str:
    import types

    from cardcore import Option, RuleInfo

    rule = RuleInfo(
        id="XTONK-UNITS-2",
        name="tonk.units-fix-test",
        game="tonk",
        summary="tonk_out_units read from an option",
        options=(Option("units", default=5, minimum=2, maximum=10),),
    )
    module = types.ModuleType("tonk_units_fix_test")
    module.RULE = rule  # type: ignore[attr-defined]
    module.tonk_out_units = hook  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", rule.name, module)
    return rule.name


# a two-seat hand seat 0 tonks out of: draw, then two spreads (from the house-rule author)
TONK_OUT_DECK = "5H 2S 6H 3S 7H 4D 8C 6D 9C 8S KD 10C QD AS"
TONK_OUT = ["draw", "spread 5H 6H 7H", "spread 8C 9C 10C"]


def test_tonk_out_units_reads_the_games_options_at_each_tonk_out() -> None:
    from cardcore import hookimpl

    asked: list[dict[str, object]] = []

    @hookimpl
    def tonk_out_units(new_spread: bool, options: dict[str, object]) -> int:
        asked.append({"new_spread": new_spread, "units": options["units"]})
        return int(str(options["units"]))

    name = _units_rule(tonk_out_units)
    try:
        for units, stake in ((7, 1), (3, 4)):
            asked.clear()
            game = cardcore.new_game(
                "tonk", 2, deck=TONK_OUT_DECK, seed=1, rules=[name],
                options={"first_dealer": 1, "units": units, "stake": stake},
            )  # fmt: skip
            for text in TONK_OUT:
                game.act(0, text)
            assert game.result is not None
            assert game.result.payouts == (units * stake, -units * stake)
            assert {"new_spread": True, "units": units} in asked  # asked with this game's
        assert cardcore.replay(game.record()).result == game.result
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_a_bad_tonk_out_units_answer_at_a_tonk_out_restores_the_game() -> None:
    from cardcore import hookimpl

    @hookimpl
    def tonk_out_units(new_spread: bool, options: dict[str, object]) -> object:
        return 2 if options["units"] == 5 else "lots"  # fine by default, refused in play

    name = _units_rule(tonk_out_units)
    try:
        game = cardcore.new_game(
            "tonk", 2, deck=TONK_OUT_DECK, seed=1, rules=[name],
            options={"first_dealer": 1, "units": 9},
        )  # fmt: skip
        game.act(0, TONK_OUT[0])
        game.act(0, TONK_OUT[1])
        before = game.position()
        with pytest.raises(cardcore.PluginError, match="tonk_out_units"):
            game.act(0, TONK_OUT[2])
        assert game.position() == before and game.version == 2 and not game.is_over
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_a_rule_without_options_in_tonk_out_units_is_asked_once_per_configuration() -> None:
    from cardcore import hookimpl

    calls = [0]

    @hookimpl
    def tonk_out_units(new_spread: bool) -> int:
        calls[0] += 1
        return 4

    name = _units_rule(tonk_out_units)
    try:
        game = cardcore.new_game(
            "tonk", 2, deck=TONK_OUT_DECK, seed=1, rules=[name], options={"first_dealer": 1}
        )
        assert game.logic.units_by_options is None  # type: ignore[attr-defined]
        seen = calls[0]
        for text in TONK_OUT:
            game.act(0, text)
        assert game.result is not None and game.result.payouts == (4, -4)
        assert calls[0] == seen  # not asked again at the tonk-out
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_a_tonk_position_may_not_show_a_hand_nobody_has_seen() -> None:
    """``shown`` (read between hands) names hands turned face up: each must be known to all."""
    game = cardcore.new_game(
        "tonk", 2, deck=TONK_OUT_DECK, seed=1, options={"first_dealer": 1, "hands": 2}
    )
    for text in TONK_OUT:  # seat 0 tonks out: no hand is shown
        game.act(0, text)
    assert game.view(0)["table"]["shown"] == [False, False]
    head, _, rest = game.position().partition("|")
    with pytest.raises(cardcore.OptionError, match="shown names seat 1, whose hand is not known"):
        cardcore.new_game(
            "tonk", 2, position=f"{head.rstrip()} shown=[1] |{rest}", seed=1, options={"hands": 2}
        )
    again = cardcore.new_game("tonk", 2, position=game.position(), seed=1, options={"hands": 2})
    assert again.view(0)["table"]["shown"] == [False, False]
