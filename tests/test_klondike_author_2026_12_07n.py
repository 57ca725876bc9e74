"""A one-seat patience (Klondike, draw one) written from the docs alone
(``klondike_game_2026_12_07n.py``), registered with ``cardcore.register``; each test
checks a documented claim about a one-player game."""

from __future__ import annotations

import json
import random

import pytest

import cardcore
from cardcore import CardcoreError, EndMatch, IllegalActionError, NotationError, SeatError
from cardcore.testing import assert_conserved, assert_view_known, check_game

from . import klondike_game_2026_12_07n as kg

NAME = kg.NAME
SUITS = {
    s: [f"{r}{s}" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
    for s in "CDHS"
}


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, kg.build_module())
    try:
        yield
    finally:
        cardcore.unregister("cardcore.games", NAME)


def near_won() -> str:
    """Every card on the foundations but the KS, which lies on the waste."""
    found = " | ".join(
        f"f{s.lower()}: " + " ".join(c + "!" for c in SUITS[s][: 12 if s == "S" else 13])
        for s in "CDHS"
    )
    tabs = " | ".join(f"t{i}:" for i in range(7))
    return f"{NAME} to_act=[0] redeals=0 | stock: | w: KS! | {found} | {tabs}"


def face_down(game: cardcore.Game) -> set[str]:
    """The texts of the cards lying face down in the tableau (privileged: from the position)."""
    out = set()
    for part in game.position().split(" | ")[1:]:
        pile, _, cards = part.partition(":")
        if pile.startswith("t") or pile == "stock":
            out |= {c for c in cards.split() if "!" not in c and "@" not in c}
    return out


class Deep:
    """A random agent that never stops while it has a move (reaches deep positions)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view, legal):
        moves = [a for a in legal if str(a) != "stop"] or list(legal)
        return self.rng.choice(moves)


def test_new_game_one_player_view_hides_face_down_cards():
    game = cardcore.new_game(NAME, 1, seed=3)
    view = game.view(0)
    assert view["players"] == ["Player 1"] and view["to_act"] == [0]
    tabs = {z["name"]: z["cards"] for z in view["zones"]}
    assert [sum(c is not None for c in tabs[f"t{i}"]) for i in range(7)] == [1] * 7
    assert tabs["stock"] == [None] * 24
    hidden = face_down(game)
    assert len(hidden) == 45
    text = json.dumps([view, game.view(None)])
    assert not any(f'"{c}"' in text for c in hidden)


def test_two_players_refused_with_core_seat_rule():
    with pytest.raises(cardcore.OptionError, match="CORE-SEAT-2"):
        cardcore.new_game(NAME, 2, seed=1)


@pytest.mark.parametrize("passes", [0, 4])
def test_option_bounds_are_checked(passes):
    with pytest.raises(cardcore.OptionError, match="passes"):
        cardcore.new_game(NAME, 1, seed=1, options={"passes": passes})


def test_deep_random_play_never_shows_a_face_down_card():
    """Views, events (seat 0 and spectator), legal texts and refusals name no face-down card."""
    for seed in range(6):
        game = cardcore.new_game(NAME, 1, seed=seed)
        heard: list[str] = []
        game.events.subscribe(
            cardcore.Event, lambda e, heard=heard: heard.append(json.dumps(e.to_json())), seat=0
        )
        game.events.subscribe(
            cardcore.Event,
            lambda e, heard=heard: heard.append(json.dumps(e.to_json())),
            seat=cardcore.SPECTATOR,
        )
        agent = Deep(seed)
        for _ in range(150):
            if game.is_over:
                break
            hidden = face_down(game)
            assert_view_known(game, 0)
            assert_view_known(game, None)
            assert_conserved(game)
            for bad in ("move t6 t0 6", "move t5 fs 1", "redeal", "move w t0 1"):
                try:
                    game.clone().act(0, bad)
                except IllegalActionError as err:
                    assert not any(c in str(err).split() for c in hidden), err
            before = len(heard)
            game.apply(agent.choose(game.view(0), game.legal_actions(0)))
            assert not any(f'"{c}"' in h for h in heard[before:] for c in face_down(game))


def test_illegal_and_malformed_change_nothing():
    game = cardcore.new_game(NAME, 1, seed=9)
    before, version = game.save(), game.version
    cases = [
        ("move t6 t0 3", IllegalActionError, "KL-RUN-1"),
        ("move t0 t9 1", IllegalActionError, "KL-NOTE-1"),
        ("move t6", NotationError, "CORE-NOTATION-1"),
        ("fly", NotationError, "expected one of"),
    ]
    for text, error, match in cases:
        with pytest.raises(error, match=match):
            game.act(0, text)
    with pytest.raises(SeatError, match="CORE-SEAT-1"):
        game.act(1, "draw")
    assert game.save() == before and game.version == version


def test_win_from_a_position_names_the_lone_seat_and_reads_back():
    game = cardcore.new_game(NAME, 1, position=near_won(), seed=1)
    game.act(0, "MOVE W FS 1")  # verbs and pile names in any case
    assert game.result == cardcore.Result((0,), (52.0,), None, "won")
    again = cardcore.new_game(NAME, 1, position=game.position(), seed=2)
    assert again.result == game.result and again.is_over


def test_resign_one_seat_has_no_winner_and_keeps_score():
    """plugin-guide: a resignation has no other seat to win; scores() for early ends."""
    game = cardcore.new_game(NAME, 1, seed=3)
    game.act(0, "move t3 fs 1")
    game.act(0, "resign")
    assert game.result == cardcore.Result((), (1.0,), None, "resigned")


def test_host_end_uses_standings_override():
    game = cardcore.new_game(NAME, 1, seed=3)
    game.act(0, "move t3 fs 1")
    game.apply(EndMatch())
    assert game.result == cardcore.Result((), (1.0,), None, "ended")


def test_host_end_default_standings_make_lone_seat_winner():
    """The documented default: without a standings override the host's end wins the game."""

    class Plain(kg.KlondikeLogic):
        standings = cardcore.GameLogic.standings

    module = kg.build_module()
    module.create_logic = cardcore.hookimpl(lambda ruleset: Plain(ruleset))
    cardcore.unregister("cardcore.games", NAME)
    cardcore.register("cardcore.games", NAME, module)
    try:
        game = cardcore.new_game(NAME, 1, seed=3)
        game.apply(EndMatch())
    finally:
        cardcore.unregister("cardcore.games", NAME)
        cardcore.register("cardcore.games", NAME, kg.build_module())
    assert game.result.winners == (0,)


def test_stop_and_record_save_clone_round_trips():
    game = cardcore.new_game(NAME, 1, seed=11)
    agent = Deep(2)
    for _ in range(40):
        game.apply(agent.choose(game.view(0), game.legal_actions(0)))
    twin = game.clone()
    twin.act(0, "stop")
    assert not game.is_over and twin.result.reason == "stopped"
    replayed = cardcore.replay(json.loads(json.dumps(game.record())))
    loaded = cardcore.load(game.save())
    for other in (replayed, loaded):
        assert other.view(0) == game.view(0) and other.position() == game.position()
    cardcore.unregister("cardcore.games", NAME)
    with pytest.raises(cardcore.CorruptStateError, match=NAME):
        cardcore.replay(game.record())
    cardcore.register("cardcore.games", NAME, kg.build_module())


@pytest.mark.parametrize("passes", [1, 3])
def test_conformance_kit(passes):
    report = check_game(NAME, players=1, games=25, seed=passes, options={"passes": passes})
    assert report.ok and report.games == 25 and report.skipped == {}


def test_simulate_random_one_seat():
    summary = cardcore.simulate(NAME, games=30, seed=4)
    assert summary.players == 1 and summary.agents == ("random",)
    assert len(summary.wins) == 1 and summary.truncated == 0
    assert sum(summary.reasons.values()) == 30
    one = cardcore.simulate(NAME, games=1, seed=4)
    assert one.sd_scores[0] != one.sd_scores[0]  # nan over one game, as documented


def test_compare_one_seat_has_no_first_seat_advantage():
    result = cardcore.compare(NAME, games=4, seed=1)
    assert result.a.first_seat is None and "first_seat" not in result.diff
    assert result.to_json()["players"] == 1


def test_rl_gym_one_seat_stop_pays_zero_and_win_rewards():
    from cardcore.rl import gym_env, observe, win_rewards

    assert win_rewards([0], 1) == [1.0] and win_rewards([], 1) == [0.0]
    env = gym_env(NAME, 1)
    obs, _ = env.reset(seed=1)
    stop = int(obs["action_mask"].nonzero()[0][-1])  # stop is listed last
    _, reward, terminated, truncated, info = env.step(stop)
    assert (reward, terminated, truncated) == (0.0, True, False)
    assert info["result"]["reason"] == "stopped" and info["result"]["winners"] == []
    with pytest.raises(cardcore.OptionError, match="score"):
        gym_env(NAME, 1, rewards="score")
    game = cardcore.new_game(NAME, 1, seed=9)
    for k in range(3):
        twin = game.determinize(0, k)
        assert (observe(game, 0)["observation"] == observe(twin, 0)["observation"]).all()


def test_pettingzoo_api_one_agent():
    from pettingzoo.test import api_test

    from cardcore.rl import aec_env

    env = aec_env(NAME, 1)
    env.reset(seed=2)
    assert env.agents == ["player_0"]
    with pytest.warns(UserWarning):
        api_test(aec_env(NAME, 1), num_cycles=30)


def test_ismcts_plays_a_patience_and_wins_the_near_won_deal():
    from cardcore.search import ISMCTSAgent

    bot = ISMCTSAgent(seed=1, iterations=10, max_rollout=15)
    game = cardcore.new_game(NAME, 1, seed=2)
    result = cardcore.play(game, [bot], max_actions=25)
    assert result.reason in {"truncated", "stopped", "no moves"} and len(result.scores) == 1
    assert result.scores[0] >= 1  # the search found foundation moves (a random stop scores 0 often)
    won = cardcore.new_game(NAME, 1, position=near_won(), seed=1)
    assert cardcore.play(
        won, [ISMCTSAgent(seed=3, iterations=100, max_rollout=5)], max_actions=5
    ).winners == (0,)


def test_agents_get_only_a_view():
    seen: list[object] = []

    class Spy:
        def choose(self, view, legal):
            seen.append(view)
            return legal[-1]

    game = cardcore.new_game(NAME, 1, seed=5)
    cardcore.play(game, [Spy()])
    assert seen and not any(isinstance(v, cardcore.Game) for v in seen)
    with pytest.raises(CardcoreError):
        seen[0]["table"]["stock_left"] = 0
