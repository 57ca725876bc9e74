"""A third-party author's partnership trick-taking game (``tests/plugins/partners_2026_12_12.py``)
and its house rule with a parameter of its own (PARTNERS-MARCH-1, ``march_bonus``), written from
the docs only and tried as a user would: rule tests from stacked decks, the conformance kit,
the built-in agents, records and saves, simulate/compare, a four-seat session and the RL
environments, looking at how the engine handles teams (seats 0+2 against 1+3)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import cardcore
from cardcore import IllegalActionError, OptionError
from cardcore.rl import aec_env, gym_env, win_rewards
from cardcore.session import Mirror, Session
from cardcore.testing import ALL_CHECKS, check_game, configurations
from tests.plugins import partners_2026_12_12 as pt

NAME = pt.NAME
MARCH = pt.MARCH_RULE.name
CARD = re.compile(r"^(9|10|J|Q|K|A)[CDHS]$")

# Seat 3 deals, seat 0 gets the first card. Seat 0: AS KS QS JS 10S AH; seat 1: hearts 9-K and
# AD; seat 2: clubs; seat 3: diamonds 9-K and 9S, the last card dealt: turned up, spades trump.
SEATS = [
    ["AS", "KS", "QS", "JS", "10S", "AH"],
    ["9H", "10H", "JH", "QH", "KH", "AD"],
    ["9C", "10C", "JC", "QC", "KC", "AC"],
    ["9D", "10D", "JD", "QD", "KD", "9S"],
]
MARCH_DECK = " ".join(SEATS[s][r] for r in range(6) for s in range(4))


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, pt)
    cardcore.register("cardcore.rules", MARCH, pt.march)
    yield
    cardcore.unregister("cardcore.rules", MARCH)
    cardcore.unregister("cardcore.games", NAME)


def stacked(deck: str = MARCH_DECK, rules: tuple[str, ...] = (), **options: int) -> cardcore.Game:
    return cardcore.new_game(NAME, 4, rules=rules, options=options, deck=deck, seed=1)


def play_march(game: cardcore.Game) -> None:
    """Seat 0 leads its five spades then AH; the others play their first legal card."""
    for card in ["AS", "KS", "QS", "JS", "10S", "AH"]:
        game.act(0, f"play {card}")
        for seat in (1, 2, 3):
            game.act(seat, game.view(seat)["legal"][0])


def randoms(n: int = 4) -> list[cardcore.RandomAgent]:
    return [cardcore.RandomAgent(seed=s) for s in range(n)]


# --- the game's rules -------------------------------------------------------------------


def test_partners_deal_1_and_trump_1_turnup_is_public_and_names_trump():
    game = stacked()
    assert game.view(0)["zones"][3]["cards"] == list(reversed(SEATS[0]))  # top first
    for seat in (None, 0, 1, 2):
        table = game.view(seat)["table"]
        assert (table["trump"], table["turnup"], table["dealer"]) == ("S", "9S", 3)
    assert game.to_act == (0,)  # left of the dealer leads


def test_partners_follow_1_must_follow_the_led_suit():
    game = stacked()
    game.act(0, "play AH")  # hearts led; seat 1 holds five hearts
    assert sorted(game.view(1)["legal"]) == sorted(f"play {c}" for c in SEATS[1][:5])
    with pytest.raises(IllegalActionError, match="PARTNERS-FOLLOW-1"):
        game.act(1, "play AD")
    game.act(1, "play 9H")
    assert game.view(2)["legal"] == [f"play {c}" for c in SEATS[2]]  # no heart: anything


def test_partners_trick_1_trump_beats_the_led_suit_and_winner_leads():
    game = stacked()
    game.act(0, "play AH")
    game.act(1, "play KH")
    game.act(2, "play 9C")
    game.act(3, "play 9S")  # seat 3 has no heart and trumps with the lowest spade
    assert game.to_act == (3,)
    assert game.view(0)["table"]["tricks"] == [0, 1, 0, 1]


def test_partners_score_1_and_end_1_march_scores_seven_and_both_partners_win():
    game = stacked(points=5)
    play_march(game)
    assert game.is_over
    assert game.result.winners == (0, 2)  # both partners (PARTNERS-END-1)
    assert game.result.scores == (7.0, 0.0, 7.0, 0.0)  # 6 tricks + 1 bonus (PARTNERS-SCORE-1)


def test_partners_end_1_match_goes_on_below_the_target():
    game = stacked(points=10)
    play_march(game)
    assert not game.is_over
    assert game.view(0)["table"]["points"] == [7, 0, 7, 0]
    assert game.view(0)["table"]["dealer"] == 0 and game.to_act == (1,)
    assert game.history()[0]["tricks"] == [6, 0]


def test_points_option_is_bounded():
    with pytest.raises(OptionError, match="at most 50"):
        cardcore.new_game(NAME, 4, options={"points": 51})
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, 4, options={"points": 0})
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, 3)


def test_resign_loses_for_the_partner_too():
    game = stacked()
    game.act(0, "play AH")
    game.act(1, "resign")  # seat 1 resigns out of turn: its partner, seat 3, loses too
    assert game.result.winners == (0, 2) and game.result.reason == "resigned"


# --- the house rule and its own parameter -------------------------------------------------


def test_partners_march_1_adds_the_rule_option_to_the_march():
    game = stacked(rules=(MARCH,), points=5, march_bonus=3)
    assert game.options["march_bonus"] == 3 and game.record()["options"]["march_bonus"] == 3
    play_march(game)
    assert game.result.scores == (10.0, 0.0, 10.0, 0.0)


def test_partners_march_1_default_and_no_march_no_bonus():
    game = stacked(rules=(MARCH,), points=5)
    assert game.options["march_bonus"] == 2  # the rule's default, filled in
    play_march(game)
    assert game.result.scores == (9.0, 0.0, 9.0, 0.0)
    plain = cardcore.new_game(NAME, 4, rules=[MARCH], seed=3, options={"points": 5})
    ref = cardcore.new_game(NAME, 4, seed=3, options={"points": 5})
    cardcore.play(plain, randoms())
    cardcore.play(ref, randoms())
    if 6 not in [h["tricks"][t] for h in ref.history() for t in (0, 1)]:
        assert plain.result == ref.result


def test_march_bonus_is_refused_out_of_bounds_and_without_the_rule():
    with pytest.raises(OptionError, match="at most 10"):
        cardcore.new_game(NAME, 4, rules=[MARCH], options={"march_bonus": 11})
    with pytest.raises(OptionError, match=re.escape(MARCH)):
        cardcore.new_game(NAME, 4, options={"march_bonus": 3})


# --- the conformance kit -------------------------------------------------------------------


@pytest.mark.parametrize("rules", [(), (MARCH,)])
def test_conformance_kit_every_check_but_scores(rules):
    report = check_game(NAME, players=4, rules=rules, games=2, checks=ALL_CHECKS - {"scores"})
    assert report.ok and report.games == 2 and report.leaks == 0 and report.cards_lost == 0


def test_configurations_include_the_rule():
    configs = list(configurations(NAME))
    assert {c.rules for c in configs} == {(), (MARCH,)}
    assert all(c.players == 4 for c in configs)


def test_conformance_kit_scores_check_fits_a_partnership_game():
    report = check_game(NAME, players=4, games=1, strict=False)
    assert report.ok, report.failures


def test_kit_scores_skip_reason_is_true():
    report = check_game(NAME, players=4, games=1, checks={"scores"}, strict=False)
    assert "never called" not in report.skipped.get("scores", "")


# --- agents, records, saves -----------------------------------------------------------------


def test_random_play_names_a_team_as_winners():
    for seed in range(3):
        game = cardcore.new_game(NAME, 4, seed=seed)
        result = cardcore.play(game, randoms())
        assert result.winners in ((0, 2), (1, 3))
        assert max(result.scores) >= 10
        assert result.scores[0] == result.scores[2] and result.scores[1] == result.scores[3]


def test_ismcts_plays_a_seat_of_the_new_game():
    ismcts = cardcore.load_agent("ismcts")
    game = cardcore.new_game(NAME, 4, seed=5, options={"points": 3})
    agents = [ismcts(seed=1, iterations=20), *randoms(3)]
    result = cardcore.play(game, agents)
    assert result.reason == "points" and result.winners in ((0, 2), (1, 3))


def test_record_replay_and_save_load_round_trip():
    game = cardcore.new_game(NAME, 4, rules=[MARCH], seed=9, options={"march_bonus": 4})
    cardcore.play(game, randoms())
    again = cardcore.replay(json.loads(json.dumps(game.record())))
    assert again.result == game.result and again.position() == game.position()
    assert again.options["march_bonus"] == 4 and again.rules == (MARCH,)
    mid = cardcore.new_game(NAME, 4, seed=9)
    for _ in range(30):
        seat = mid.to_act[0]
        mid.act(seat, mid.view(seat)["legal"][0])
    loaded = cardcore.load(mid.save())
    assert loaded.position() == mid.position()
    assert loaded.history() == mid.history()
    for seat in range(4):
        assert loaded.view(seat) == mid.view(seat)


def test_position_round_trip_keeps_the_turnup_public():
    game = stacked()
    text = game.position()
    assert "9S!" in text  # the turned-up card is known to every seat
    again = cardcore.new_game(NAME, 4, position=text, seed=2)
    assert again.view(1) == game.view(1)


# --- teams in simulate, compare and the lab ---------------------------------------------------


def test_simulate_splits_each_team_win_between_partners():
    summary = cardcore.simulate(NAME, games=6, players=4, seed=1, options={"points": 3})
    assert sum(summary.wins) == pytest.approx(6)
    assert summary.wins[0] == summary.wins[2] and summary.wins[1] == summary.wins[3]
    assert summary.wins[0] + summary.wins[1] == pytest.approx(3)  # "half the games"


def test_compare_march_bonus_duplicate_deals_and_team_shares():
    cmp = cardcore.compare(
        NAME, rules=[MARCH], options={"points": 5, "march_bonus": 10}, games=6, seed=1
    )
    assert cmp.same_deals and cmp.a.rules == (MARCH,) and cmp.b.rules == ()
    assert cmp.a.options["march_bonus"] == 10 and "march_bonus" not in cmp.b.options
    for side in (cmp.a, cmp.b):
        wins = [w.mean for w in side.seat_wins]
        assert wins[0] == wins[2] and wins[1] == wins[3]
        assert wins[0] + wins[1] == pytest.approx(0.5)
    assert "first-seat advantage" in cmp.table()


# --- a four-seat session -------------------------------------------------------------------


def cards_in(message: object) -> set[str]:
    found: set[str] = set()
    if isinstance(message, dict):
        for v in message.values():
            found |= cards_in(v)
    elif isinstance(message, list):
        for v in message:
            found |= cards_in(v)
    elif isinstance(message, str):
        found |= {w for w in message.split() if CARD.match(w)}
    return found


def test_session_never_sends_a_seat_another_seats_hidden_hand():
    session = Session.create(NAME, 4, now=0.0, seed=11, options={"points": 3})
    conns = "abcd"
    sent: list[tuple[int, dict]] = []
    mirrors = {c: Mirror() for c in conns}

    def deliver(out):
        for o in out:
            mirrors[o.conn].feed(o.message)
            sent.append((conns.index(o.conn), o.message))

    for seat, conn in enumerate(conns):
        deliver(session.handle(conn, json.dumps({"type": "join", "seat": seat}), now=1.0))
    now = 2.0
    while not mirrors["a"].view["is_over"]:
        seat = mirrors["a"].view["to_act"][0]
        view = mirrors[conns[seat]].view
        msg = {"type": "act", "action": view["legal"][0], "seen": view["version"]}
        deliver(session.handle(conns[seat], json.dumps(msg), now=now))
        now += 1.0
    # Rebuild the game from the session's record to know each hand at each version.
    record = session.record()
    final = cardcore.replay(record)
    twin = cardcore.new_game(NAME, 4, seed=final.seed, options=final.options)
    hidden: dict[int, list[set[str]]] = {s: [] for s in range(4)}

    def note() -> None:
        z = twin.state.zones
        for s in range(4):
            hidden[s].append(
                {
                    str(c)
                    for o in range(4)
                    if o != s
                    for i, c in enumerate(z.cards[3 + o])
                    if not z.knows(3 + o, i, s)
                }
            )

    note()
    for _seat, action, at in final.record_entries():
        twin.apply(action, at=at)
        note()
    assert twin.result == final.result
    checked = 0
    for seat, message in sent:
        version = message.get("version")
        if message.get("type") not in ("view", "update") or version is None:
            continue
        leaked = cards_in(message) & hidden[seat][version]
        assert not leaked, (seat, version, leaked)
        checked += 1
    assert checked > 4 * 24
    assert mirrors["c"].view["result"]["winners"] in ([0, 2], [1, 3])


# --- RL ----------------------------------------------------------------------------------


def test_win_rewards_pay_both_partners():
    assert win_rewards((0, 2), 4) == [1.0, -1.0, 1.0, -1.0]


def test_aec_env_pays_each_partner_the_team_result():
    env = aec_env(NAME, 4, options={"points": 3})
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    winners = env.match.game.result.winners
    assert winners in ((0, 2), (1, 3))
    for seat in range(4):
        assert total[f"player_{seat}"] == (1.0 if seat in winners else -1.0)


def test_gym_env_learner_shares_its_partners_win():
    rng = np.random.default_rng(1)
    for seed in range(3):
        env = gym_env(NAME, 4, seat=2, options={"points": 3})
        obs, _ = env.reset(seed=seed)
        total, done, info = 0.0, False, {}
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, term, trunc, info = env.step(action)
            total += reward
            done = term or trunc
        assert total == (1.0 if 2 in info["result"]["winners"] else -1.0)


def test_score_rewards_refused_for_a_game_without_stakes():
    with pytest.raises(OptionError):
        aec_env(NAME, 4, rewards="score").reset(seed=1)


def test_host_end_names_the_leading_team_and_a_tie_every_seat():
    game = stacked(points=10)
    play_march(game)  # team 0+2 leads 7-0
    game.act(cardcore.HOST, "end")
    assert game.result.winners == (0, 2) and game.result.reason == "ended"
    level = stacked()
    level.act(cardcore.HOST, "end")
    assert level.result.winners == (0, 1, 2, 3)
