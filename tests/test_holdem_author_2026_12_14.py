"""Fixed-limit Texas Hold'em written from cardcore's docs by a first-time author (2026-12-14).

The game (``tests/plugins/holdem_2026_12_14.py``) and its house rule
(``tests/plugins/holdem_rules_2026_12_14.py``, an ante with its own option) are registered
in place with ``cardcore.register``. Worked examples of every rule, the conformance kit,
hidden information, records, clones and the ledger.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import cardcore
from cardcore import Card, Event, IllegalActionError, OptionError, PluginError
from cardcore.rl import observe
from cardcore.testing import check_game
from tests.plugins import holdem_2026_12_14 as hm
from tests.plugins import holdem_rules_2026_12_14 as house

NAME, ANTE = hm.NAME, house.NAME
ALL52 = [str(c) for c in cardcore.decks(1)]


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, hm)
    cardcore.register("cardcore.rules", ANTE, house)
    yield
    cardcore.unregister("cardcore.rules", ANTE)
    cardcore.unregister("cardcore.games", NAME)


def stacked(holes: dict[int, list[str]], board: list[str], players: int, button: int = 0) -> str:
    """A deck (top first) dealing *holes* (seat -> 2 cards) and then *board* (5 cards).

    Cards go one at a time from the seat left of the button (HOLDEM-DEAL-1); no burns.
    """
    order = [(button + 1 + i) % players for i in range(players)]
    top = [holes[s][k] for k in range(2) for s in order] + board
    rest = [c for c in ALL52 if c not in top]
    return " ".join(top + rest)


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def new(players: int, holes=None, board=None, **options: Any) -> cardcore.Game:
    deck = None
    if holes is not None:
        deck = stacked(holes, board, players)
    return cardcore.new_game(NAME, players, seed=3, deck=deck, options=options)


def legal(game: cardcore.Game) -> list[str]:
    return [str(a) for a in game.legal_actions(game.to_act[0])]


def act(game: cardcore.Game, *moves: str) -> None:
    for move in moves:
        game.act(game.to_act[0], move)


# --- the conformance kit -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 6])
def test_conformance_kit(players: int) -> None:
    report = check_game(NAME, players=players, games=3, seed=1, options={"hands": 6})
    assert report.cards_lost == 0 and report.leaks == 0 and report.games == 3
    assert "scores" not in report.skipped and "positions" not in report.skipped


def test_conformance_kit_with_the_ante_rule() -> None:
    report = check_game(
        NAME, players=3, rules=[ANTE], games=2, seed=2, options={"hands": 4, "ante": 5}
    )
    assert report.cards_lost == 0 and report.leaks == 0


# --- hand ranking (HOLDEM-SHOW-1) --------------------------------------------------------

CATEGORY_EXAMPLES = [
    ("2C 5D 7H 9S JC QD KH", 0),
    ("2C 2D 7H 9S JC QD KH", 1),
    ("2C 2D 7H 7S JC QD KH", 2),
    ("2C 2D 2H 9S JC QD KH", 3),
    ("AC 2D 3H 4S 5C QD KH", 4),
    ("2C 5C 7C 9C JC QD KH", 5),
    ("2C 2D 2H 9S 9C QD KH", 6),
    ("2C 2D 2H 2S JC QD KH", 7),
    ("9H 10H JH QH KH 2C 2D", 8),
]


@pytest.mark.parametrize(("text", "category"), CATEGORY_EXAMPLES)
def test_holdem_show_1_every_category(text: str, category: int) -> None:
    assert hm.best_hand(cards(text))[0] == category


def test_holdem_show_1_categories_rank_in_order() -> None:
    ranks = [hm.best_hand(cards(t)) for t, _ in CATEGORY_EXAMPLES]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)


def test_holdem_show_1_kickers() -> None:
    board = "KD 9C 7S 4H 2D"
    assert hm.best_hand(cards(f"KH QC {board}")) > hm.best_hand(
        cards(f"KS JC {board}")
    )  # pair, kicker
    assert hm.best_hand(cards(f"AH 3C {board}")) > hm.best_hand(
        cards(f"QH JC {board}")
    )  # high card
    # two pair: the fifth card decides
    assert hm.best_hand(cards("AH 5C 5D 8S 8H 3C 2C")) > hm.best_hand(cards("KH 5S 5H 8D 8C 3D 2H"))
    # the sixth and seventh cards do not count
    assert hm.best_hand(cards("AH KH QC JS 9D 3C 2C")) == hm.best_hand(
        cards("AH KH QC JS 9D 4C 3D")
    )


def test_holdem_show_1_wheel_is_the_lowest_straight() -> None:
    wheel = hm.best_hand(cards("AC 2D 3H 4S 5C 9D KH"))
    six_high = hm.best_hand(cards("2D 3H 4S 5C 6C 9D KH"))
    assert wheel == (4, 5) and six_high > wheel
    assert hm.best_hand(cards("AH 2H 3H 4H 5H 9D KC")) == (8, 5)  # steel wheel
    assert hm.best_hand(cards("QC KD AH 2S 3C 8D 9H"))[0] == 0  # no wrap-around straight


def test_holdem_show_1_board_plays_and_splits() -> None:
    game = new(
        3,
        {0: ["2C", "3D"], 1: ["2D", "3C"], 2: ["4S", "7D"]},
        ["10H", "JH", "QS", "KD", "AC"],
        hands=1,
        big_blind=2,
    )
    act(game, "call", "call", "check")  # pre-flop: button, small blind; big blind checks
    for _ in range(3):
        act(game, "check", "check", "check")
    assert game.is_over
    # everyone plays the board's straight: each put in 2, each gets 2 back
    assert game.result.payouts == (0, 0, 0)
    assert game.view(None)["table"]["chips"] == [100, 100, 100]


# --- blinds, turns, limits (HOLDEM-BLIND-1, HOLDEM-TURN-1, HOLDEM-BET-1..3) -----------------


def test_holdem_blind_1_heads_up_button_posts_small_blind_and_acts_first() -> None:
    game = new(2, big_blind=4)
    table = game.view(None)["table"]
    assert table["button"] == 0 and table["bets"] == [2, 4]
    assert game.to_act == (0,)  # the button acts first pre-flop
    assert legal(game) == ["fold", "call", "raise"]
    act(game, "call")
    assert game.to_act == (1,) and legal(game) == ["check", "raise"]  # big blind's option
    act(game, "check")
    assert game.view(None)["table"]["street"] == "flop"
    assert game.to_act == (1,)  # after the flop the big blind (left of the button) acts first


def test_holdem_blind_1_three_handed_blinds_and_first_to_act() -> None:
    game = new(4, big_blind=6)
    table = game.view(None)["table"]
    assert table["bets"] == [0, 3, 6, 0] and game.to_act == (3,)


def test_holdem_bet_2_fixed_sizes_per_street() -> None:
    game = new(2, big_blind=4, hands=1)
    act(game, "raise")  # button: 2 to call + 4
    assert game.view(None)["table"]["bets"] == [8, 4]
    act(game, "call", "check", "bet")  # flop: seat 1 checks, the button bets one big blind
    assert game.view(None)["table"]["bets"] == [4, 0]
    act(game, "call", "check", "bet")  # turn bet: two big blinds
    assert game.view(None)["table"]["bets"] == [8, 0]
    act(game, "raise")
    assert game.view(None)["table"]["bets"] == [8, 16]


def test_holdem_bet_3_four_bets_cap_a_round() -> None:
    game = new(3, big_blind=2)
    act(game, "raise", "raise", "raise")  # big blind + 3 raises = 4 bets
    assert game.view(None)["table"]["level"] == 4
    assert legal(game) == ["fold", "call"]
    with pytest.raises(IllegalActionError, match="HOLDEM-BET-3"):
        act(game, "raise")
    act(game, "call", "call")
    assert game.view(None)["table"]["street"] == "flop"
    act(game, "bet", "raise", "raise", "raise")
    assert legal(game) == ["fold", "call"]


def test_holdem_bet_1_check_refused_when_owing() -> None:
    game = new(2)
    before = game.position()
    with pytest.raises(IllegalActionError, match="HOLDEM-BET-1"):
        act(game, "check")
    assert game.position() == before


# --- pots (HOLDEM-POT-1) ---------------------------------------------------------------------


def with_stacks(game: cardcore.Game, stacks: list[int]) -> cardcore.Game:
    """The same deal, but with *stacks* chips behind (sum kept)."""
    pos = game.position()
    contrib = json.loads(re.search(r"contrib=(\[[^\]]*\])", pos).group(1))
    chips = [s - c for s, c in zip(stacks, contrib, strict=True)]
    pos = re.sub(r"chips=\[[^\]]*\]", "chips=" + json.dumps(chips, separators=(",", ":")), pos)
    pos = re.sub(r"start=\[[^\]]*\]", "start=" + json.dumps(stacks, separators=(",", ":")), pos)
    return cardcore.new_game(NAME, game.players, position=pos, seed=5, options=dict(game.options))


def test_holdem_pot_1_side_pots_with_three_all_ins() -> None:
    holes = {0: ["AS", "AH"], 1: ["KS", "KH"], 2: ["QS", "QH"], 3: ["7C", "2D"]}
    base = new(4, holes, ["3C", "8D", "9H", "JS", "4D"], big_blind=10, hands=1)
    game = with_stacks(base, [10, 25, 40, 325])
    act(game, "raise")  # seat 3 to 20
    act(game, "call")  # seat 0 all-in for 10
    act(game, "raise")  # seat 1 all-in: 25 in all
    act(game, "raise")  # seat 2 to 35: the cap
    assert legal(game) == ["fold", "call"]
    act(game, "call")  # seat 3
    assert game.view(None)["table"]["street"] == "flop" and game.to_act == (2,)
    act(game, "bet")  # seat 2 all-in for 5 more
    act(game, "call")  # seat 3: nobody left to bet against, the board runs out
    assert game.is_over
    # main pot 40 -> seat 0; side 45 (seats 1-3) -> seat 1; side 30 (seats 2, 3) -> seat 2
    assert game.result.payouts == (30, 20, -10, -40)
    assert game.view(None)["table"]["chips"] == [40, 45, 30, 285]


def test_holdem_pot_1_odd_chip_goes_left_of_the_button() -> None:
    holes = {0: ["2C", "3D"], 1: ["KS", "KH"], 2: ["2D", "3C"]}
    game = new(3, holes, ["10H", "JH", "QS", "KD", "AC"], big_blind=3, hands=1)
    act(game, "call")  # button puts 3
    act(game, "fold")  # small blind leaves 1 in the pot
    act(game, "check")
    for _ in range(3):
        act(game, "check", "check")
    # pot 7 split by seats 0 and 2: the odd chip to seat 2, first left of the button
    assert game.result.payouts == (0, -1, 1)


def test_holdem_pot_1_uncontested_pot_is_not_shown() -> None:
    game = new(2, {0: ["AS", "AH"], 1: ["KS", "KH"]}, ["2C", "3C", "4C", "5D", "9H"], hands=1)
    events: list[dict] = []
    game.events.subscribe(Event, lambda e: events.append(e.to_json()), seat=1)
    act(game, "fold")
    assert game.result.payouts == (-1, 1)
    assert game.view(1)["zones"][2]["cards"] == [None, None]  # the muck
    assert not any(c in json.dumps(events) for c in ("AS", "AH"))


# --- the match (HOLDEM-END-1, the ledger) -------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_holdem_end_1_chips_conserved_across_a_match(players: int) -> None:
    for seed in range(3):
        game = cardcore.new_game(NAME, players, seed=seed, options={"hands": 40, "stack": 20})
        result = cardcore.play(game, [cardcore.RandomAgent(seed + i) for i in range(players)])
        chips = game.view(None)["table"]["chips"]
        assert sum(chips) == 20 * players
        assert sum(result.payouts) == 0
        assert list(result.payouts) == [c - 20 for c in chips]
        assert result.scores == tuple(map(float, chips))
        assert result.reason in ("hands played", "one seat holds every chip")
        if result.reason == "hands played":
            assert game.state.hand_no == 40
        else:
            assert sorted(chips)[:-1] == [0] * (players - 1)


def test_holdem_end_1_busted_seat_is_out() -> None:
    game = cardcore.new_game(NAME, 3, seed=9, options={"hands": 200, "stack": 4})
    result = cardcore.play(game, [cardcore.RandomAgent(i) for i in range(3)])
    assert result.reason == "one seat holds every chip"
    assert game.view(None)["table"]["chips"] == [0, 0, 12] and result.winners == (2,)
    assert result.payouts == (-4, -4, 8)


def test_payments_made_each_hand() -> None:
    game = new(2, hands=2)
    paid: list[dict] = []
    game.events.subscribe(cardcore.PaymentsMade, lambda e: paid.append(e.to_json()))
    act(game, "fold")
    assert paid and paid[0]["amounts"] in ([-1, 1], (-1, 1))
    assert game.logic.payouts(game.state) == (-1, 1)


# --- hidden information (HOLDEM-DEAL-1, HOLDEM-MUCK-1) --------------------------------------


def test_hole_cards_hidden_until_showdown() -> None:
    holes = {0: ["AS", "AH"], 1: ["KS", "KH"]}
    game = new(2, holes, ["2C", "3C", "4C", "5D", "9H"], hands=1)
    seen: dict[Any, list] = {1: [], None: []}
    for who in seen:
        game.events.subscribe(Event, lambda e, who=who: seen[who].append(e.to_json()), seat=who)
    for who in (1, None):
        assert "AS" not in json.dumps(game.view(who))
    assert "AS" in json.dumps(game.view(0))
    act(game, "call", "check", "check", "check", "check", "check")
    assert "AS" not in json.dumps(seen[1]) and "AS" not in json.dumps(game.view(1))
    act(game, "check", "check")  # the river is checked through: showdown
    assert game.is_over and game.result.payouts == (2, -2)
    assert "AS" in json.dumps(seen[1]) and "AS" in json.dumps(seen[None])


def test_holdem_muck_1_folded_hand_never_revealed() -> None:
    holes = {0: ["7S", "2H"], 1: ["KS", "KH"], 2: ["QS", "QH"]}
    game = new(3, holes, ["2C", "3C", "4C", "5D", "9H"], hands=1)
    events: list[dict] = []
    for who in (1, 2, None):
        game.events.subscribe(Event, lambda e: events.append(e.to_json()), seat=who)
    act(game, "fold", "call", "check")
    for _ in range(3):
        act(game, "check", "check")
    assert game.is_over
    text = json.dumps(events) + json.dumps([game.view(s) for s in (1, 2, None)])
    assert "7S" not in text and "2H" not in text
    assert "KS" in text and "QS" in text  # the showdown hands are shown


def test_illegal_action_errors_name_no_hidden_card() -> None:
    game = new(2, {0: ["AS", "AH"], 1: ["KS", "KH"]}, ["2C", "3C", "4C", "5D", "9H"])
    for text in ("check", "bet"):
        with pytest.raises(IllegalActionError) as err:
            game.act(0, text)
        assert not re.search(r"\b(AS|AH|KS|KH)\b", str(err.value))


def test_rl_observation_does_not_see_other_hole_cards() -> None:
    board = ["2C", "3C", "4C", "5D", "9H"]
    one = new(2, {0: ["AS", "AH"], 1: ["KS", "KH"]}, board)
    two = new(2, {0: ["7D", "8D"], 1: ["KS", "KH"]}, board)
    a, b = observe(one, 1), observe(two, 1)
    assert (a["observation"] == b["observation"]).all()
    assert not (observe(one, 0)["observation"] == observe(two, 0)["observation"]).all()


# --- records, clones, positions ---------------------------------------------------------------


def test_record_replays_to_the_same_game() -> None:
    game = cardcore.new_game(NAME, 4, seed=11, options={"hands": 8})
    cardcore.play(game, [cardcore.RandomAgent(i) for i in range(4)])
    again = cardcore.replay(game.record())
    assert again.position() == game.position() and again.result == game.result


def test_clone_is_independent() -> None:
    game = new(3)
    twin = game.clone()
    act(twin, "raise")
    assert game.view(None)["table"]["bets"] == [0, 1, 2]
    assert twin.view(None)["table"]["bets"] == [4, 1, 2]


def test_position_refuses_chips_that_do_not_add_up() -> None:
    pos = new(2).position().replace("chips=[99,98]", "chips=[99,99]")
    with pytest.raises(OptionError, match="HOLDEM-SEAT-1"):
        cardcore.new_game(NAME, 2, position=pos)


# --- options and the house rule (HOLDEM-ANTE-1) ------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"), [("stack", 1), ("big_blind", 0), ("hands", 0), ("stack", "x")]
)
def test_game_options_refused_clearly(name: str, value: Any) -> None:
    with pytest.raises(OptionError, match=name):
        cardcore.new_game(NAME, 2, options={name: value})


def test_holdem_ante_1_every_seat_antes() -> None:
    game = cardcore.new_game(NAME, 3, seed=1, rules=[ANTE], options={"ante": 3})
    table = game.view(None)["table"]
    assert table["pot"] == 3 * 3 + 1 + 2 and table["chips"] == [97, 96, 95]
    assert game.record()["options"]["ante"] == 3


def test_holdem_ante_1_winner_takes_the_antes() -> None:
    game = cardcore.new_game(NAME, 2, seed=1, rules=[ANTE], options={"ante": 2, "hands": 1})
    act(game, "fold")
    assert game.result.payouts == (-3, 3)


@pytest.mark.parametrize("value", [0, 51, "two", 2.5])
def test_holdem_ante_1_bad_values_refused(value: Any) -> None:
    with pytest.raises(OptionError, match="ante"):
        cardcore.new_game(NAME, 2, rules=[ANTE], options={"ante": value})


def test_holdem_ante_1_option_needs_the_rule() -> None:
    with pytest.raises(OptionError, match=re.escape(ANTE)):
        cardcore.new_game(NAME, 2, options={"ante": 2})


def test_holdem_ante_1_refusal_cites_the_rule_id() -> None:
    with pytest.raises(OptionError) as err:
        cardcore.new_game(NAME, 2, rules=[ANTE], options={"ante": 99})
    assert err.value.rule_id == "HOLDEM-ANTE-1"


def test_hook_answer_checked() -> None:
    import types

    bad = types.ModuleType("bad_ante")
    bad.RULE = cardcore.RuleInfo(id="HOLDEM-BAD-1", name=f"{NAME}.bad", game=NAME, summary="bad")

    @cardcore.hookimpl
    def holdem_ante(options):
        return 2.5

    bad.holdem_ante = holdem_ante
    cardcore.register("cardcore.rules", f"{NAME}.bad", bad)
    try:
        with pytest.raises(PluginError, match="holdem_ante"):
            cardcore.new_game(NAME, 2, rules=[f"{NAME}.bad"])
    finally:
        cardcore.unregister("cardcore.rules", f"{NAME}.bad")


def rule_module(suffix: str, **info: Any) -> Any:
    import types

    module = types.ModuleType(suffix)
    module.RULE = cardcore.RuleInfo(
        id=f"HOLDEM-{suffix.upper()}-1", name=f"{NAME}.{suffix}", game=NAME, summary=suffix, **info
    )
    cardcore.register("cardcore.rules", module.RULE.name, module)
    return module


def test_hook_with_a_wrong_argument_name_refused() -> None:
    module = rule_module("wrongarg")

    @cardcore.hookimpl
    def holdem_ante(opts):
        return 1

    module.holdem_ante = holdem_ante
    try:
        with pytest.raises(PluginError, match="no argument 'opts'"):
            cardcore.new_game(NAME, 2, rules=[module.RULE.name])
    finally:
        cardcore.unregister("cardcore.rules", module.RULE.name)


def test_rule_option_may_not_reuse_a_game_option_name() -> None:
    module = rule_module("clash", options=(cardcore.Option("stack", 5, minimum=1, maximum=9),))
    try:
        with pytest.raises(PluginError, match="name of its own"):
            cardcore.new_game(NAME, 2, rules=[module.RULE.name])
    finally:
        cardcore.unregister("cardcore.rules", module.RULE.name)
