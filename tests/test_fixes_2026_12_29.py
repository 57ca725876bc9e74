"""Fixes of 2026-12-29 (outside the web server)."""

from __future__ import annotations

import pytest

import cardcore
from cardcore.search import ISMCTSAgent


def test_ismcts_repr_names_every_parameter_that_is_not_its_default() -> None:
    """Two agents configured differently printed alike (``depth``, ``reuse`` and the rest
    were left out), so a study's log could not tell them apart."""
    assert repr(ISMCTSAgent()) == "ISMCTSAgent(seed=0, iterations=200, c=0.7, rollout='game')"
    agent = ISMCTSAgent(
        depth=3, reuse=4, observe=False, max_rollout=9, prior=2.0, reaction=1.5, spread=0.0
    )
    assert repr(agent) == (
        "ISMCTSAgent(seed=0, iterations=200, c=0.7, rollout='game', max_rollout=9, observe=False,"
        " depth=3, prior=2.0, reuse=4, reaction=1.5, spread=0.0)"
    )
    assert repr(ISMCTSAgent(depth=3)) != repr(ISMCTSAgent(depth=4))
    assert repr(cardcore.load_agent("ismcts:depth=5,seed=1")).endswith("rollout='game', depth=5)")


def test_an_empty_piece_of_an_agent_spec_is_skipped_as_documented() -> None:
    from cardcore import parse_agent_spec

    assert parse_agent_spec("random:") == ("random", {})
    assert parse_agent_spec("ismcts:iterations=50,") == ("ismcts", {"iterations": 50})


def test_the_terminal_play_of_a_game_a_house_rule_leaves_stuck_says_so() -> None:
    """The store/CLI audit's survivor (cli/play.py): without the check, a seat to act with no
    legal action was prompted for a move it could never make (or handed to a bot's choose)."""
    import io
    import types

    import pytest
    from rich.console import Console

    from cardcore.cli.play import play_turn_based
    from cardcore.info import RuleInfo
    from cardcore.plugins import hookimpl

    def forbid_action(action: object) -> cardcore.Veto:
        return cardcore.Veto("T-STUCK-2", "no")

    module = types.ModuleType("drawgame_forbid_all_cli")
    vars(module).update(
        RULE=RuleInfo("T-STUCK-2", "drawgame.forbid-all-cli", "drawgame", "a test rule"),
        forbid_action=hookimpl(forbid_action),
    )

    def read(prompt: str) -> str:
        raise AssertionError(f"the player was prompted: {prompt!r}")

    cardcore.register("cardcore.rules", "drawgame.forbid-all-cli", module)
    try:
        game = cardcore.new_game("drawgame", 2, rules=["drawgame.forbid-all-cli"], seed=1)
        agents = [cardcore.RandomAgent(seed=s) for s in range(2)]
        for seat in (game.to_act[0], 1 - game.to_act[0]):  # the human to act, then a bot
            out = io.StringIO()
            with pytest.raises(cardcore.StalledGameError, match="no legal action"):
                play_turn_based(Console(file=out), game, seat, agents, read)
    finally:
        cardcore.unregister("cardcore.rules", "drawgame.forbid-all-cli")


def test_an_option_a_game_does_not_declare_is_an_option_error_and_still_a_key_error() -> None:
    info = cardcore.game_info("golf")
    for kind in (cardcore.OptionError, KeyError):
        try:
            info.option("nope")
        except kind as exc:
            assert str(exc) == (
                "game 'golf' has no option 'nope' (its options: layout, rounds, points_limit,"
                " max_turns, dealer)"
            )
        else:
            raise AssertionError("no error")


def test_apply_at_an_object_claiming_to_be_a_number_is_no_raw_error() -> None:
    """``isinstance`` reads an object's own ``__class__``: the time is judged by its real type."""
    from unittest import mock

    class FakeFloat:
        __class__ = float  # type: ignore[assignment]

        def __float__(self) -> float:
            return 3.5

    class FakeInt:
        __class__ = int  # type: ignore[assignment]

        def __index__(self) -> int:
            return 3

    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(cardcore.IllegalActionError, match="CORE-RECORD-1"):
        game.apply(game.legal_actions(game.to_act[0])[0], at=mock.Mock(spec=float))
    assert game.version == 0
    for at in (FakeInt(), FakeFloat()):  # real numbers by their value (numbers.Real)
        game.apply(game.legal_actions(game.to_act[0])[0], at=at)
    assert [type(a[2]) for a in game.record()["actions"]] == [int, float]
