"""A third-party author's Blackjack (``tests/plugins/blackjack_2026_12_11.py``), tested as
the docs say a plugin is tested: registered in place, rule tests from stacked decks, the
conformance kit, whole games with the built-in agents, hidden-information checks,
save/load, positions, replay, sessions and the RL environments."""

from __future__ import annotations

import json
import re
import types
from pathlib import Path

import attrs
import pytest

import cardcore
from cardcore import Event, IllegalActionError, OptionError, PaymentsMade
from cardcore.testing import check_game, configurations
from tests.plugins import blackjack_2026_12_11 as bj

NAME = bj.NAME
DOCS = Path(__file__).resolve().parents[1] / "docs"
ONE = {"hands": 1}


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, bj)
    yield
    cardcore.unregister("cardcore.games", NAME)


def stacked(deck: str, players: int = 1, **options: int) -> cardcore.Game:
    return cardcore.new_game(NAME, players, options={**ONE, **options}, deck=deck, seed=1)


def hole_card(game: cardcore.Game) -> str:
    return str(game.state.zones.cards[bj.DEALER][1])


def dealer_cards(game: cardcore.Game) -> list[str]:
    return [str(c) for c in game.state.zones.cards[bj.DEALER]]


# -- registration and declaration ------------------------------------------------------------


def test_registered_without_installing_is_found_by_name():
    assert NAME in cardcore.available_games()
    info = cardcore.game_info(NAME)
    assert (info.min_players, info.max_players) == (1, 4)
    assert {o.name for o in info.options} == {"stake", "bank", "hands"}
    schema = cardcore.new_game(NAME, 2, seed=1).view_schema()
    assert "bank" in json.dumps(schema)


@pytest.mark.parametrize(
    "options", [{"stake": 0}, {"stake": 101}, {"bank": 0}, {"hands": 51}, {"stake": "ten"}]
)
def test_bj_bet_1_options_out_of_bounds_are_refused(options):
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, 2, options=options, seed=1)


def test_bj_seat_range_is_one_to_four():
    assert len(cardcore.new_game(NAME, 1, seed=1).players) == 1
    assert len(cardcore.new_game(NAME, 4, seed=1).players) == 4
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, 5, seed=1)


def test_unregister_removes_the_game():
    cardcore.unregister("cardcore.games", NAME)
    try:
        assert NAME not in cardcore.available_games()
        with pytest.raises(cardcore.UnknownPluginError):
            cardcore.new_game(NAME, 1, seed=1)
    finally:
        cardcore.register("cardcore.games", NAME, bj)


# -- rules, from stacked decks (deck= is top first: p0, dealer up, p0, dealer hole) -----------


def test_bj_pay_1_natural_pays_three_to_two():
    game = stacked("AS 9C KD 7H 5D")  # natural; dealer 9+7 draws the 5 to 21
    assert game.is_over
    assert dealer_cards(game) == ["9C", "7H", "5D"]
    assert game.result.payouts == (15,)
    assert game.result.winners == (0,)


def test_bj_pay_1_natural_three_to_two_rounds_down_for_an_odd_stake():
    game = stacked("AS 9C KD 7H 5D", stake=5)
    assert game.result.payouts == (7,)


def test_bj_pay_1_naturals_on_both_sides_push():
    game = stacked("AS AD KD QH")
    assert game.is_over and game.result.payouts == (0,)


def test_bj_pay_1_dealer_natural_beats_a_three_card_21():
    game = stacked("7H AS 4C KD 10S")
    assert game.view(0)["legal"] == ["hit", "stand", "double"]
    game.act(0, "hit")  # 21: done at once, the dealer shows a natural
    assert game.is_over and game.result.payouts == (-10,)


def test_bj_pay_1_equal_totals_push_and_bust_loses():
    push = stacked("KH KS QH QS")
    push.act(0, "stand")
    assert push.result.payouts == (0,)
    bust = stacked("KH 2C 6H 3C KC")
    bust.act(0, "hit")
    assert bust.result.payouts == (-10,)
    assert dealer_cards(bust) == ["2C", "3C"]  # BJ-DEALER-1: no live seat, no draw


def test_bj_double_1_doubles_the_stake_and_draws_one_card():
    game = stacked("5H 10C 6D 7S 10H")
    game.act(0, "double")
    assert game.is_over and game.result.payouts == (20,)
    assert [str(c) for c in game.state.zones.cards[bj.hand(0)]] == ["5H", "6D", "10H"]


def test_bj_double_1_refused_after_a_hit_with_its_rule_id():
    game = stacked("2H 10C 3D 7S 2S 9D")
    game.act(0, "hit")
    assert game.view(0)["legal"] == ["hit", "stand"]
    with pytest.raises(IllegalActionError, match="BJ-DOUBLE-1"):
        game.act(0, "double")


def test_bj_double_1_needs_a_bank_of_twice_the_stake():
    game = stacked("5H 10C 6D 7S 10H", stake=10, bank=15)
    assert game.view(0)["legal"] == ["hit", "stand"]


def test_bj_dealer_1_draws_to_17_and_stands_on_soft_17():
    game = stacked("KH 2C QH 3C AD 2D 9S")  # dealer 2+3, an ace: soft 16, a 2: soft 18
    game.act(0, "stand")
    assert dealer_cards(game) == ["2C", "3C", "AD", "2D"]
    game = stacked("KH AC QH 6C 9S")  # dealer soft 17 stands at once
    game.act(0, "stand")
    assert dealer_cards(game) == ["AC", "6C"]
    assert game.result.payouts == (10,)


def test_bj_act_1_out_of_turn_is_refused_and_changes_nothing():
    game = cardcore.new_game(NAME, 2, options=ONE, deck="KH KS 2C 6H 6S 3C 5S 9H 2D", seed=1)
    before = game.position()
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(1, "hit")
    assert game.position() == before
    with pytest.raises(cardcore.NotationError):
        game.act(0, "hit me")
    assert game.position() == before


def test_bj_end_1_match_of_hands_and_bank_limits():
    game = cardcore.new_game(NAME, 3, options={"hands": 4, "stake": 10}, seed=11)
    result = cardcore.play(game, [cardcore.RandomAgent(s) for s in range(3)])
    assert result.reason == "hands played"
    assert game.view(0)["table"]["hand_no"] == 4
    assert result.payouts == tuple(int(x) for x in result.scores)
    banks = [100 + p for p in result.payouts]
    assert result.winners == tuple(s for s in range(3) if banks[s] == max(banks))


def test_bj_bet_1_a_seat_that_cannot_stake_sits_out():
    # p0 16 busts on the KC (-60, bank 40); p1 has a natural (+90, bank 190)
    game = cardcore.new_game(
        NAME, 2, options={"stake": 60, "bank": 100, "hands": 3}, deck="KH AS 2C 6H KS 3C KC", seed=1
    )
    assert game.to_act == (0,)
    game.act(0, "hit")
    table = game.view(None)["table"]
    assert table["bank"] == [40, 190] and table["last_net"] == [-60, 90]
    assert table["hand_no"] == 2 and table["bet"] == [0, 60]
    assert game.view(None)["zones"][bj.hand(0)]["count"] == 0


def test_bj_end_1_ends_early_when_no_seat_can_stake():
    game = stacked("KH 2C 6H 3C KC", stake=60, bank=100, hands=3)
    game.act(0, "hit")
    assert game.is_over and game.result.payouts == (-60,)
    assert game.view(0)["table"]["hand_no"] == 1


# -- payouts, events, ledger -----------------------------------------------------------------


def test_payouts_reach_result_payments_made_and_game_payouts():
    seen: list[PaymentsMade] = []
    game = cardcore.new_game(
        NAME, 2, options={"hands": 3}, seed=5, subscribers=[(PaymentsMade, seen.append)]
    )
    result = cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert len(seen) == 3
    assert tuple(seen[-1].totals) == result.payouts
    assert [sum(e.amounts[s] for e in seen) for s in range(2)] == list(result.payouts)
    assert game.logic.payouts(game.state) == result.payouts


def test_ledger_refuses_a_settlement_against_a_house_that_is_not_a_seat():
    ledger = cardcore.Ledger(2)
    with pytest.raises(ValueError):
        ledger.post([15, -10], "hand")  # the dealer took 10 and paid 15: not zero-sum


def test_docs_stakes_section_covers_a_game_against_the_house():
    text = (DOCS / "plugin-guide" / "game.rst").read_text()
    stakes = text.split("Stakes\n~~~~~~", 1)[1].split("\nViews\n", 1)[0]
    assert re.search(r"\b(house(?! rule)|dealer|banker|not a seat)\b", stakes)


# -- conformance kit -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 4])
def test_conformance_kit(players):
    report = check_game(NAME, players=players, options={"hands": 2}, games=3, seed=players)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0
    assert report.games == 3 and report.skipped == {}


def test_conformance_kit_over_its_configurations():
    configs = list(configurations(NAME))
    assert configs and all(c.game == NAME for c in configs)
    assert {len(c.kwargs()) > 0 for c in configs} == {True}
    for config in configs:
        assert check_game(config.game, games=1, **config.kwargs()).ok


def _every_hand_shuffled() -> types.ModuleType:
    """The same game, but the shoe is shuffled again before every hand (BJ-SHOE-1 with an
    infinite threshold): the hand a natural ends at the deal is revealed and reshuffled
    inside ``new_state``."""

    class EveryHand(bj.BlackjackLogic):
        reshuffle_below = 10**6

    module = types.ModuleType("bj_every_hand")
    module.GAME = attrs.evolve(bj.GAME, name="bj-every-hand")

    @cardcore.hookimpl
    def create_logic(ruleset: cardcore.Ruleset) -> bj.BlackjackLogic:
        return EveryHand(ruleset)

    module.create_logic = create_logic
    return module


def test_conformance_kit_trusts_an_action_that_reveals_and_reshuffles():
    cardcore.register("cardcore.games", "bj-every-hand", _every_hand_shuffled())
    try:
        assert check_game("bj-every-hand", players=2, options={"hands": 3}, games=3, seed=2).ok
    finally:
        cardcore.unregister("cardcore.games", "bj-every-hand")


def test_conformance_kit_trusts_a_deal_that_reveals_and_reshuffles():
    cardcore.register("cardcore.games", "bj-every-hand", _every_hand_shuffled())
    try:
        report = check_game(
            "bj-every-hand", players=1, options={"hands": 2}, games=3, seed=1, strict=False
        )
        assert report.leaks == 0 and report.failures == []
    finally:
        cardcore.unregister("cardcore.games", "bj-every-hand")


# -- hidden information ----------------------------------------------------------------------


def _watch_leaks(players: int, seed: int) -> int:
    """Play a game with random agents; before the dealer plays, no view, legal list or
    per-seat event shows the hole card. Returns the number of checked points."""
    streams: dict[object, list[dict]] = {s: [] for s in [*range(players), cardcore.SPECTATOR]}
    subs = [(Event, (lambda e, s=s: streams[s].append(e.to_json())), s) for s in streams]
    game = cardcore.new_game(NAME, players, options={"hands": 3}, seed=seed, subscribers=subs)
    checked = 0

    def check(g: cardcore.Game, _action: object = None) -> None:
        nonlocal checked
        if g.is_over:
            return
        hole = hole_card(g)
        for seat in [*range(players), None]:
            view = g.view(seat)
            assert hole not in json.dumps(view), (seat, hole)
            assert view["zones"][bj.DEALER]["cards"][0] is None  # top first: the hole card
            assert all(c is None for c in view["zones"][bj.STOCK]["cards"])
        for stream in streams.values():
            # only this hand's events: the hole card of an earlier hand may be public now
            assert hole not in json.dumps(stream[-6:])
        checked += 1

    check(game)
    cardcore.play(game, [cardcore.RandomAgent(s) for s in range(players)], on_action=check)
    return checked


@pytest.mark.parametrize("players", [1, 3])
def test_hole_card_is_hidden_from_every_seat_and_spectator(players):
    assert _watch_leaks(players, seed=40 + players) > 0


def test_hole_card_is_shown_once_the_dealer_plays_and_deck_order_stays_hidden():
    game = stacked("KH 2C QH 3C 9S 10D")
    hole = hole_card(game)
    game.act(0, "stand")
    for seat in (0, None):
        view = game.view(seat)
        assert hole in view["zones"][bj.DEALER]["cards"]
        assert all(c is None for c in view["zones"][bj.STOCK]["cards"])  # end_game(reveal=False)


def test_hole_card_reveal_event_reaches_every_seat():
    got: list[dict] = []
    game = cardcore.new_game(
        NAME,
        2,
        options=ONE,
        deck="KH KS 2C QH QS 3C 9S 10D",
        seed=1,
        subscribers=[(bj.HoleRevealed, lambda e: got.append(e.to_json()), 1)],
    )
    game.act(0, "stand")
    game.act(1, "stand")
    assert got == [{"event": "bj-author-hole-revealed", "card": "3C"}]


def test_determinized_twin_shows_each_seat_the_same_view():
    game = cardcore.new_game(NAME, 2, seed=9)
    for seat in (0, 1):
        twin = game.determinize(seat, 123)
        assert twin.view(seat) == game.view(seat)
    differs = any(hole_card(game.determinize(0, s)) != hole_card(game) for s in range(5))
    assert differs  # the hole card is among the cards re-dealt


# -- persistence, positions, replay ----------------------------------------------------------


def test_save_load_round_trip():
    game = cardcore.new_game(NAME, 2, options={"hands": 2}, seed=21)
    game.act(game.to_act[0], "hit")
    loaded = cardcore.load(json.dumps(game.save()))
    assert loaded.position() == game.position()
    assert all(loaded.view(s) == game.view(s) for s in (0, 1, None))
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    cardcore.play(loaded, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert loaded.result == game.result


def test_position_round_trip():
    game = cardcore.new_game(NAME, 3, options={"hands": 2}, seed=22)
    here = game.position()
    assert here.startswith(f"{NAME} to_act=")
    again = cardcore.new_game(NAME, 3, options={"hands": 2}, position=here, seed=7)
    assert again.position() == here
    assert all(again.view(s)["table"] == game.view(s)["table"] for s in (0, 1, 2, None))
    assert again.view(again.to_act[0])["legal"] == game.view(game.to_act[0])["legal"]


def test_position_refuses_what_the_rules_forbid():
    here = cardcore.new_game(NAME, 2, options=ONE, deck="KH KS 2C QH QS 3C", seed=1).position()
    with pytest.raises(OptionError, match="bets must be"):
        cardcore.new_game(
            NAME, 2, options=ONE, position=here.replace("bet=[10,10]", "bet=[10,7]"), seed=1
        )


def test_replay_of_a_record_rebuilds_the_game():
    game = cardcore.new_game(NAME, 2, options={"hands": 3}, seed=23)
    result = cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    record = json.loads(json.dumps(game.record()))
    again = cardcore.replay(record)
    assert again.result == result
    assert again.position() == game.position()
    assert record["game"] == NAME


# -- built-in agents, simulate, search ------------------------------------------------------


def test_simulate_with_random_agents():
    summary = cardcore.simulate(NAME, games=20, players=2, options={"hands": 2}, seed=3)
    assert summary.games == 20


def test_ismcts_plays_a_whole_game():
    agent = cardcore.load_agent("ismcts")
    game = cardcore.new_game(NAME, 2, options={"hands": 2}, seed=31)
    players = [agent(seed=1, iterations=20), cardcore.RandomAgent(2)]
    result = cardcore.play(game, players)
    assert game.is_over and result.reason == "hands played"


# -- sessions --------------------------------------------------------------------------------


def without_random_ids(message: dict[str, object]) -> dict[str, object]:
    """``message`` without the session id and token: both random, both shown to their owner."""
    return {k: v for k, v in message.items() if k not in ("session", "token")}


def test_session_streams_never_carry_the_hole_card():
    from cardcore.session import Session

    session = Session.create(NAME, ["Ann", "Bob"], now=0.0, seed=7, options=ONE)
    out = session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    out += session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    assert session.phase == "playing"
    game = session.game
    hole = hole_card(game)
    views = [o for o in out if o.message["type"] == "view"]
    # the session id and the seat tokens are random text, which may spell any card by chance
    said = json.dumps([without_random_ids(o.message) for o in out])
    assert views and hole not in said
    seat = game.to_act[0]
    conn = "ann" if seat == 0 else "bob"
    msg = json.dumps({"type": "act", "action": "stand", "seen": game.version})
    out = session.handle(conn, msg, now=3.0)
    assert any(o.message["type"] == "update" for o in out)


# -- reinforcement learning ------------------------------------------------------------------


def test_rl_gym_env_score_rewards_are_the_payouts():
    from cardcore.rl import gym_env

    env = gym_env(NAME, 2, seat=0, options={"hands": 3}, rewards="score")
    for seed in (1, 2, 3):
        obs, info = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            action = int(obs["action_mask"].nonzero()[0][0])
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
        assert info["result"]["payouts"][0] == pytest.approx(total)


def test_rl_aec_env_plays_with_the_generic_encoding():
    from cardcore.rl import aec_env

    env = aec_env(NAME, 2, options={"hands": 2}, rewards="score")
    env.reset(seed=4)
    returns = {a: 0.0 for a in env.agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        returns[agent] += reward
        action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][-1])
        env.step(action)
    payouts = env.match.game.result.payouts
    assert [returns[f"player_{s}"] for s in range(2)] == pytest.approx(list(payouts))
    assert (
        env.config.observer.names[:3] == ["hit", "stand", "double"]
        or len(env.config.observer.names) == 3
    )


# -- early ends ------------------------------------------------------------------------------


def test_finished_game_position_reads_back_with_its_result():
    game = cardcore.new_game(NAME, 2, options={"hands": 2}, seed=3)
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    again = cardcore.new_game(NAME, 2, options={"hands": 2}, position=game.position(), seed=1)
    assert again.is_over and again.result == game.result


def test_resign_and_host_end_report_the_settled_payouts():
    game = stacked("KH KS 2C 6H QS 3C KC 9D 9H", players=2, hands=2)
    game.act(0, "hit")  # p0 busts: -10, settled once the hand ends
    game.act(1, "stand")
    net = game.logic.payouts(game.state)
    if game.is_over:
        pytest.skip("the stacked hand ended the match")
    game.act(game.to_act[0], "resign")
    assert game.result.reason == "resigned" and game.result.payouts == net
    ended = stacked("KH KS 2C 6H QS 3C KC 9D 9H", players=2, hands=2)
    ended.act(cardcore.HOST, "end")
    assert ended.result.reason == "ended" and ended.result.payouts == (0, 0)
    assert ended.result.winners == (0, 1)  # standings: the biggest banks, tied
