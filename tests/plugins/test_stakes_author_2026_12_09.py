"""A third-party stakes game (Thirty-One / Scat) written from the docs only, used through
every generic layer: the testing kit, new_game/act/view/save/load/replay, positions, the
CLI, a session with a clock, the RL environments and the ISMCTS search agent.

The plugin lives in ``scat_2026_12_09.py`` next to this file; rule IDs are in its docstring.
"""

from __future__ import annotations

import json

import pytest

import cardcore
from cardcore import IllegalActionError, OptionError, PaymentsMade, PluginError
from cardcore.errors import CardcoreError
from cardcore.testing import check_game
from tests.plugins import scat_2026_12_09 as scat

# Seat 1 is dealt first (the seat after dealer 0), so with two players the deck's cards
# alternate seat 1, seat 0, ...; the seventh card turns up on the discard pile.
BLITZ_DEAL = "AS 2C KS 3D QS 4H 5D"  # seat 1: AS KS QS = 31 on the deal
QUIET_DEAL = "2S 3C 4S 5C 6S 7C 9D"  # seat 1: 12 in spades, seat 0: 15 in clubs


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", "scat", scat)
    cardcore.register("cardcore.rules", "scat.ties-all-pay", scat.ties_module)
    cardcore.register("cardcore.rules", "scat.no-early-knock", scat.early_module)
    yield
    cardcore.unregister("cardcore.rules", "scat.no-early-knock")
    cardcore.unregister("cardcore.rules", "scat.ties-all-pay")
    cardcore.unregister("cardcore.games", "scat")


# --- the testing kit ----------------------------------------------------------------


def test_conformance_kit_passes_for_a_third_party_stakes_game():
    report = check_game("scat", players=3, games=3)
    assert report.ok and report.skipped == {}
    assert report.scored > 0 and report.positions > 0


def test_conformance_kit_with_both_house_rules():
    """(With two hands the kit reports the game's view-built positions: see below.)"""
    report = check_game(
        "scat", players=2, rules=["scat.ties-all-pay", "scat.no-early-knock"], games=2
    )
    assert report.ok and report.vetoed > 0


# --- rules through new_game / act / view ----------------------------------------------


def test_scat_blitz_1_31_on_the_deal_ends_the_hand_at_once():
    game = cardcore.new_game("scat", 2, deck=BLITZ_DEAL, seed=1, options={"stake": 3})
    assert game.is_over
    assert game.result.payouts == (-3, 3) and game.result.winners == (1,)
    assert game.logic.payouts(game.state) == (-3, 3)


def test_scat_blitz_1_game_over_at_the_deal_saves_loads_and_replays():
    game = cardcore.new_game("scat", 2, deck=BLITZ_DEAL, seed=1)
    assert cardcore.load(game.save()).result == game.result
    assert cardcore.replay(game.record()).result == game.result


def test_scat_turn_1_and_2_draw_then_discard():
    game = cardcore.new_game("scat", 2, deck=QUIET_DEAL, seed=1)
    assert game.to_act == (1,)
    assert [str(a) for a in game.legal_actions(1)] == ["draw", "take", "knock"]
    game.act(1, "take")
    assert game.view(0)["table"]["taken"] == "9D"
    with pytest.raises(IllegalActionError, match="SCAT-TURN-3"):
        game.act(1, "discard 9D")
    with pytest.raises(IllegalActionError, match="SCAT-TURN-2"):
        game.act(1, "draw")
    game.act(1, "discard 2S")
    assert game.to_act == (0,)


def test_scat_knock_1_everyone_else_one_more_turn_then_lowest_pays_into_the_ledger():
    paid = []
    game = cardcore.new_game(
        "scat", 3, deck="2S 3C 4D 5S 6C 7D 9H", seed=1, subscribers=[(PaymentsMade, paid.append)]
    )
    # seat 1 holds 2S 5S (7), seat 2 3C 6C (9), seat 0 4D 7D (11): 9H on the discard pile
    game.act(1, "knock")
    with pytest.raises(IllegalActionError, match="SCAT-KNOCK-1"):
        game.act(2, "knock")
    for seat in (2, 0):
        game.act(seat, "draw")
        game.act(seat, str(game.legal_actions(seat)[0]))
    assert game.is_over
    assert sum(game.result.payouts) == 0 and len(paid) == 1
    loser = min(range(3), key=lambda s: game.result.payouts[s])
    assert game.result.payouts[loser] == -2


def test_scat_var_2_no_early_knock_is_a_veto():
    game = cardcore.new_game("scat", 2, rules=["scat.no-early-knock"], deck=QUIET_DEAL, seed=1)
    assert "knock" not in [str(a) for a in game.legal_actions(1)]
    with pytest.raises(IllegalActionError, match="SCAT-VAR-2"):
        game.act(1, "knock")


def test_option_bounds_refuse_a_zero_stake_citing_the_rule():
    with pytest.raises(OptionError, match="SCAT-PAY-1"):
        cardcore.new_game("scat", 2, options={"stake": 0})


def test_house_rule_breaking_zero_sum_is_refused_naming_the_rule():
    import types

    from cardcore import RuleInfo, hookimpl

    bad = types.ModuleType("scat_bad")
    bad.RULE = RuleInfo(id="SCAT-BAD-1", name="scat.bad", game="scat", summary="Pays too much")

    @hookimpl
    def score_round(state, scores):
        return [s + 1 for s in scores]

    bad.score_round = score_round
    cardcore.register("cardcore.rules", "scat.bad", bad)
    try:
        with pytest.raises(PluginError, match=r"scat\.bad|SCAT-BAD-1"):
            cardcore.new_game("scat", 2, rules=["scat.bad"], deck=BLITZ_DEAL, seed=1)
    finally:
        cardcore.unregister("cardcore.rules", "scat.bad")


# --- positions ------------------------------------------------------------------------


def test_position_round_trip_keeps_the_ledger_totals_of_a_match():
    game = cardcore.new_game("scat", 2, options={"hands": 3}, deck=BLITZ_DEAL, seed=4)
    assert game.view(0)["table"]["totals"] == [-1, 1] and not game.is_over
    again = cardcore.new_game("scat", 2, options={"hands": 3}, position=game.position(), seed=9)
    assert again.position() == game.position()
    assert again.logic.payouts(again.state) == (-1, 1)
    assert again.history(0) == game.history(0)


def test_position_with_a_nested_list_field_is_refused_with_option_error():
    game = cardcore.new_game("scat", 2, seed=4)
    text = game.position().replace("past=[]", "past=[[1,-1]]")
    with pytest.raises(OptionError):
        cardcore.new_game("scat", 2, position=text, seed=1)


# --- the CLI, in-process (a registered plugin is seen only there) -----------------------


def test_cli_simulate_and_rules_in_process(tmp_path, capsys):
    from cardcore import cli

    out = tmp_path / "sim.json"
    assert (
        cli.main(
            ["simulate", "scat", "--players", "3", "--games", "4", "--quiet", "--json", str(out)]
        )
        == 0
    )
    summary = json.loads(out.read_text())
    assert summary["mean_payouts"] is not None
    assert cli.main(["rules", "scat"]) == 0
    text = capsys.readouterr().out
    assert "stake" in text and "scat.ties-all-pay" in text


def test_simulate_reports_payouts():
    summary = cardcore.simulate("scat", games=6, players=2, seed=1)
    assert summary.mean_payouts is not None and abs(sum(summary.mean_payouts)) < 1e-9


# --- a session with two seats and a turn clock -------------------------------------------


def test_session_timeout_plays_the_games_default_action():
    from cardcore.session import Session, SessionConfig, TimeControl

    config = SessionConfig(time=TimeControl(turn=5.0))
    session = Session.create("scat", 2, now=0.0, seed=3, deck=QUIET_DEAL, config=config)
    session.handle("a", {"type": "join", "seat": 0}, now=0.0)
    out = session.handle("b", {"type": "join", "seat": 1}, now=0.0)
    assert [o.message["type"] for o in out if o.conn == "b"][-1] == "view"
    deadline = session.next_deadline()
    assert deadline is not None
    out = session.tick(deadline + 0.01)
    texts = [
        o.message["action"]["text"]
        for o in out
        if o.message.get("type") == "update" and o.conn == "a"
    ]
    assert texts[:2] == ["draw", "discard 2S"]  # scat's default: draw, then the cheapest card


# --- RL and search -------------------------------------------------------------------------


def test_rl_aec_env_with_the_generic_encoding():
    from cardcore.rl import aec_env

    env = aec_env("scat", 2)
    env.reset(seed=3)
    steps = 0
    while env.agents and steps < 300:
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(obs["action_mask"].nonzero()[0][-1]))  # knock as soon as allowed
        steps += 1
    assert not env.agents


def test_rl_score_rewards_from_payouts_of_a_stakes_game_without_an_encoding():
    """A stakes game declares its net payouts, which count up: ``rewards="score"`` pays
    their changes, so each seat's return is its final net payout."""
    from cardcore.rl import aec_env

    env = aec_env("scat", 2, rewards="score")
    env.reset(seed=3)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    while env.agents and steps < 5000:
        obs, reward, term, trunc, _ = env.last()  # the reward since this agent last acted
        returns[env.agent_selection] += reward
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
        steps += 1
    result = env.unwrapped.match.game.result
    assert result is not None and result.payouts is not None
    assert [returns[a] for a in env.possible_agents] == [float(p) for p in result.payouts]
    assert any(result.payouts)


def test_ismcts_plays_the_third_party_game():
    from cardcore.search import ISMCTSAgent

    game = cardcore.new_game("scat", 2, seed=5)
    result = cardcore.play(game, [ISMCTSAgent(seed=1, iterations=15), cardcore.RandomAgent(2)])
    assert result.payouts is not None and sum(result.payouts) == 0


def test_the_kit_reports_a_game_whose_view_built_positions_are_refused():
    """Past hands kept for history only are blank in a sample of the view; this game's own
    check_position refuses them, so a search agent stops mid-game. The kit's positions check
    samples the view of the seat to act as ismcts does and reports it, naming the remedy."""
    report = check_game("scat", players=3, options={"hands": 2}, games=2, strict=False)
    assert not report.ok
    assert any(
        "search agent cannot sample" in f and "position_from_view" in f for f in report.failures
    )


def test_ismcts_on_such_a_game_stops_with_a_clear_error():
    from cardcore.search import ISMCTSAgent

    game = cardcore.new_game("scat", 3, seed=5, options={"hands": 2})
    agents = [
        ISMCTSAgent(seed=1, iterations=10),
        cardcore.RandomAgent(2),
        ISMCTSAgent(seed=3, iterations=10),
    ]
    with pytest.raises(CardcoreError, match="ismcts cannot sample a position of 'scat'"):
        cardcore.play(game, agents)


def test_game_over_at_the_deal_events_session_and_finished_position():
    from cardcore.session import Session

    seen = []
    game = cardcore.new_game(
        "scat",
        2,
        deck=BLITZ_DEAL,
        seed=1,
        subscribers=[(cardcore.Event, lambda e: seen.append(e.to_json()["event"]))],
    )
    assert seen == ["game-started", "cards-dealt", "payments-made", "game-ended"]
    again = cardcore.new_game("scat", 2, position=game.position(), seed=2)
    assert again.result == game.result
    session = Session.create("scat", 2, now=0.0, seed=1, deck=BLITZ_DEAL)
    session.handle("a", {"type": "join", "seat": 0}, now=0.0)
    session.handle("b", {"type": "join", "seat": 1}, now=0.0)
    assert session.phase == "over" and session.next_deadline() is None
