"""Fixes of 2026-12-27, each test failing on the code before its fix."""

from __future__ import annotations

import pytest

import cardcore
from cardcore import OptionError
from cardcore.positions import refused


def test_a_game_quoting_a_hostile_position_value_whole_is_cut_to_400_characters() -> None:
    """Tonk quoted a 5,000-seat ``hit`` list whole (15,000 characters) in its refusal."""
    text = cardcore.new_game("tonk", 2, seed=1).position()
    bad = text.replace("turn=", "hit=[" + ",".join(["0"] * 5000) + "] turn=", 1)
    with pytest.raises(OptionError) as caught:
        cardcore.new_game("tonk", 2, position=bad)
    message = str(caught.value)
    assert message.startswith("bad position: hit names a seat twice: [0, 0")
    assert len(message) <= len("bad position: ") + 400 + len(" (CORE-POSITION-1)")
    assert message.endswith(" ... (CORE-POSITION-1)")
    assert caught.value.rule_id == "CORE-POSITION-1"


def test_a_cut_refusal_keeps_the_rule_it_cites() -> None:
    error = refused("pile q is stuck: " + "x" * 1000 + " (SPEED-STUCK-1)")
    assert str(error).startswith("bad position: pile q is stuck: xxx")
    assert str(error).endswith("x ... (SPEED-STUCK-1)")
    assert len(str(error)) == len("bad position: ") + 400
    assert error.rule_id == "SPEED-STUCK-1"
    short = refused("hand.0 must hold 5 cards")  # short messages are untouched
    assert str(short) == "bad position: hand.0 must hold 5 cards (CORE-POSITION-1)"


def test_a_stock_out_position_refused_by_a_house_rule_does_not_cite_the_base_rule() -> None:
    """Under ``tonk.stock-out-discard-only`` (TONK-VAR-5) the base rule TONK-STOCK-1 (the hand
    ends when a turn begins with an empty stock) is off; the refusal cited it anyway."""
    from tests.games.test_house_mutants_2026_12_27 import _stock_out_position

    empty = _stock_out_position("", "QH QD QC JS JH")
    with pytest.raises(OptionError) as caught:
        cardcore.new_game("tonk", 2, rules=["tonk.stock-out-discard-only"], position=empty)
    assert "TONK-STOCK-1" not in str(caught.value)
    assert "a house rule of the game's (tonk_hand_ends_on_empty_stock)" in str(caught.value)
    with pytest.raises(OptionError) as caught:
        cardcore.new_game("tonk", 2, position=empty)
    assert caught.value.rule_id == "TONK-STOCK-1"


@pytest.mark.parametrize(
    ("to_act", "fault"),
    [
        ((2,), "to_act holds 2: not a seat from 0 to 1"),
        ((1.0,), "to_act holds 1.0: not a seat"),
        ([1], "state.to_act is [1]: it must be a tuple of seats"),
        ((1, 5), "to_act holds 5: not a seat"),
        ((5, 1), "to_act holds 5: not a seat"),
    ],
)
@pytest.mark.parametrize("path", ["apply", "act", "apply-seen"])
def test_every_path_of_apply_refuses_a_turn_naming_no_seat(
    to_act: object, fault: str, path: str
) -> None:
    """Game.apply's fast path (a listed action of the seat just asked) checked the game's
    turn only when nobody was to act: a game naming seat 2 of 2, a float or a list was
    accepted there, the game then waited for no seat and its record did not replay; the
    other path checked only the last seat named (``(5, 1)`` passed)."""
    import types

    from tests.plugins import drawgame

    from cardcore import GameInfo, PluginError, hookimpl

    class BadTurn(drawgame.DrawLogic):
        def apply(self, state: object, action: object, emit: object) -> None:
            super().apply(state, action, emit)  # type: ignore[arg-type]
            state.to_act = to_act  # type: ignore[attr-defined]

    mod = types.ModuleType("fix27_bad_turn")
    g = drawgame.GAME
    mod.GAME = GameInfo(  # type: ignore[attr-defined]
        "fix27-bad-turn", g.summary, g.min_players, g.max_players, options=g.options
    )
    mod.create_logic = hookimpl(lambda ruleset: BadTurn(ruleset))  # type: ignore[attr-defined]
    mod.card_points = drawgame.card_points  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "fix27-bad-turn", mod)
    try:
        game = cardcore.new_game("fix27-bad-turn", 2, seed=1)
        before = game.position() if hasattr(game.logic, "write_position") else None
        legal = game.legal_actions(0)
        with pytest.raises(PluginError, match=fault.replace("[", r"\[").replace(".", r"\.")):
            if path == "apply":
                game.apply(legal[0])
            elif path == "act":
                game.act(0, str(legal[0]))
            else:  # with the version seen: validated, then applied by the other path
                game.apply(legal[0], seen=game.version)
        assert game.version == 0 and game.to_act == (0,) and game.record()["actions"] == []
        assert before is None or game.position() == before
    finally:
        cardcore.unregister("cardcore.games", "fix27-bad-turn")


def test_of_several_vetoes_the_refusal_cites_the_rule_last_by_rule_id() -> None:
    """docs/plugin-guide/house-rule.rst: the refusal cites the veto of the rule last in
    ``game.rules`` (sorted by rule ID), whatever order ``rules=`` names them in."""
    import types

    from cardcore import IllegalActionError, RuleInfo, Veto, hookimpl

    names = []
    for tag, rule_id in (("b", "ZZZ-1"), ("a", "AAA-1"), ("c", "MMM-1")):
        module = types.ModuleType(f"fix27_veto_{tag}")
        module.RULE = RuleInfo(  # type: ignore[attr-defined]
            id=rule_id, name=f"tonk.fix27-veto-{tag}", game="tonk", summary="vetoes discards"
        )

        def forbid_action(
            state: object, action: object, _tag: str = tag, _id: str = rule_id
        ) -> Veto | None:
            return Veto(_id, f"vetoed by {_tag}") if str(action).startswith("discard") else None

        module.forbid_action = hookimpl(forbid_action)  # type: ignore[attr-defined]
        cardcore.register("cardcore.rules", module.RULE.name, module)
        names.append(module.RULE.name)
    try:
        for rules in (names, names[::-1]):
            game = cardcore.new_game("tonk", 2, rules=rules, seed=1)
            assert [r for r in game.rules if "fix27" in r] == [
                "tonk.fix27-veto-a",
                "tonk.fix27-veto-c",
                "tonk.fix27-veto-b",
            ]
            seat = game.to_act[0]
            game.act(seat, "draw")
            hand = game.view(seat)["table"]["hand"]
            with pytest.raises(IllegalActionError) as caught:
                game.act(seat, f"discard {hand[0]}")
            assert caught.value.rule_id == "ZZZ-1" and "vetoed by b" in str(caught.value)
    finally:
        for name in names:
            cardcore.unregister("cardcore.rules", name)


@pytest.mark.parametrize("path", ["apply", "act", "apply-seen"])
def test_a_turn_naming_a_seat_twice_is_refused(path: str) -> None:
    """A ``to_act`` of ``(0, 0)`` passed the core's turn check (the testing kit refused it):
    every seat must be named once."""
    import types

    from tests.plugins import drawgame

    from cardcore import GameInfo, PluginError, hookimpl

    class Twice(drawgame.DrawLogic):
        def apply(self, state: object, action: object, emit: object) -> None:
            super().apply(state, action, emit)  # type: ignore[arg-type]
            state.to_act = (1, 0, 1)  # type: ignore[attr-defined]

    mod = types.ModuleType("fix27_twice")
    g = drawgame.GAME
    mod.GAME = GameInfo(  # type: ignore[attr-defined]
        "fix27-twice", g.summary, g.min_players, g.max_players, options=g.options
    )
    mod.create_logic = hookimpl(lambda ruleset: Twice(ruleset))  # type: ignore[attr-defined]
    mod.card_points = drawgame.card_points  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "fix27-twice", mod)
    try:
        game = cardcore.new_game("fix27-twice", 2, seed=1)
        legal = game.legal_actions(0)
        with pytest.raises(PluginError, match=r"state\.to_act names seat 1 twice: \(1, 0, 1\)"):
            if path == "apply":
                game.apply(legal[0])
            elif path == "act":
                game.act(0, str(legal[0]))
            else:
                game.apply(legal[0], seen=game.version)
        assert game.version == 0 and game.to_act == (0,)
    finally:
        cardcore.unregister("cardcore.games", "fix27-twice")
