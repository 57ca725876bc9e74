"""A plugin author's tests of ``spades-tricks`` (tests/plugins/spades_tricks_2026_12_19.py),
written from cardcore's docs: the rules by ID on stacked decks and positions, the house
rule ``spades-tricks.bag-limit``, the conformance kit, and claims of the docs that a
trick-taking partnership game leans on."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import cardcore
from cardcore import (
    ArgumentError,
    GameState,
    IllegalActionError,
    OptionError,
    PluginError,
    RuleInfo,
    Suit,
    hookimpl,
    parse_cards,
    standard_52,
    tricks,
)
from cardcore.testing import check_game, configurations
from tests.plugins import spades_tricks_2026_12_19 as spades
from tests.plugins import spades_tricks_rules_2026_12_19 as bag_rule

GAME = "spades-tricks"
RULE = "spades-tricks.bag-limit"


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    """Register the game and its house rule as the docs tell (plugin-guide/testing)."""
    cardcore.register("cardcore.games", GAME, spades)
    cardcore.register("cardcore.rules", RULE, bag_rule)
    yield
    cardcore.unregister("cardcore.rules", RULE)
    cardcore.unregister("cardcore.games", GAME)


# Four hands, seat by seat; the deal gives card i (top first) to seat i % 4 (dealer 3).
HANDS = (
    "AH KH QH 2H 3C 4C 5C 6C 7C 2S 3S 4S 5S",  # seat 0: hearts, clubs, low spades
    "2D 3D 4D 5D 6D 7D 8D 9D 10D 6S 7S 8S 9S",  # seat 1: no hearts, no clubs
    "3H 4H 5H 6H 7H 8H 9H 10H JH 8C 9C 10C JC",  # seat 2: no spades
    "QC KC AC JD QD KD AD 2C 10S JS QS KS AS",  # seat 3
)


def stacked() -> str:
    hands = [h.split() for h in HANDS]
    return " ".join(hands[i % 4][i // 4] for i in range(52))


def new(**kw: object) -> cardcore.Game:
    return cardcore.new_game(GAME, 4, deck=stacked(), seed=3, **kw)  # type: ignore[arg-type]


def bid_all(game: cardcore.Game, bids: tuple[int, int, int, int]) -> None:
    for seat, n in enumerate(bids):
        game.act(seat, f"bid {n}")


def test_spt_deal_1_stacked_deck_reaches_each_seat() -> None:
    game = new()
    for seat, text in enumerate(HANDS):
        assert sorted(game.view(seat)["zones"][2 + seat]["cards"]) == sorted(text.split())
    assert game.to_act == (0,) and game.view(0)["table"]["dealer"] == 3


def test_spt_bid_1_bids_zero_to_thirteen_in_turn() -> None:
    game = new()
    assert game.view(0)["legal"] == [f"bid {n}" for n in range(14)]
    with pytest.raises(IllegalActionError, match="SPT-BID-1"):
        game.act(0, "bid 14")
    with pytest.raises(IllegalActionError, match="SPT-BID-1"):
        game.act(0, "play AH")
    bid_all(game, (0, 4, 3, 5))
    assert game.view(2)["table"]["bids"] == [0, 4, 3, 5]
    assert game.view(2)["table"]["phase"] == "play" and game.to_act == (0,)


def test_spt_break_1_spades_cannot_be_led_until_broken() -> None:
    game = new()
    bid_all(game, (0, 4, 3, 5))
    legal = game.view(0)["legal"]
    assert "play 2S" not in legal and "play AH" in legal
    with pytest.raises(IllegalActionError, match="SPT-BREAK-1"):
        game.act(0, "play 2S")
    assert game.view(0)["table"]["broken"] is False


def test_spt_trick_1_a_void_seat_trumps_and_wins_then_spades_are_broken() -> None:
    game = new()
    bid_all(game, (0, 4, 3, 5))
    game.act(0, "play AH")
    assert game.view(1)["legal"] == [
        f"play {c}"
        for c in ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "6S", "7S", "8S", "9S"]
    ]
    game.act(1, "play 6S")  # void in hearts: trumps
    with pytest.raises(IllegalActionError, match="SPT-FOLLOW-1"):
        game.act(2, "play 8C")  # holds hearts: must follow
    game.act(2, "play JH")
    game.act(3, "play AS")  # overtrumps
    table = game.view(0)["table"]
    assert table["taken"] == [0, 0, 0, 1] and table["leader"] == 3 and table["broken"] is True
    assert game.to_act == (3,)
    assert "play KS" in game.view(3)["legal"]  # broken: a spade may be led now


def test_spt_trick_1_highest_of_suit_led_wins_without_trump() -> None:
    game = new()
    bid_all(game, (0, 4, 3, 5))
    for seat, card in enumerate(("3C", "2D", "8C", "QC")):  # seat 1 discards a diamond
        game.act(seat, f"play {card}")
    assert game.view(0)["table"]["taken"] == [0, 0, 0, 1]


def test_spt_follow_1_trick_pile_in_play_order() -> None:
    game = new()
    bid_all(game, (0, 4, 3, 5))
    game.act(0, "play KH")
    game.act(1, "play 2D")
    # The view lists a pile top first: the card played last first.
    assert game.view(3)["zones"][1]["cards"] == ["2D", "KH"]


# ---------------------------------------------------------------- scoring from positions


def last_trick_position(
    bids: list[int], won: list[int], last: list[str], leader: int, **fields: object
) -> str:
    """A position before the 13th trick: *won* tricks per seat (12 in all), *last* the
    card each seat still holds; every other card is in the won piles, face up."""
    assert sum(won) == 12
    rest = [c for c in map(str, standard_52()) if c not in last]
    piles = [rest[4 * sum(won[:s]) : 4 * sum(won[: s + 1])] for s in range(4)]
    values = {
        "to_act": [leader],
        "phase": '"play"',
        "dealer": (leader - 1) % 4,
        "leader": leader,
        "bids": bids,
        "points": [0, 0, 0, 0],
        "bags": [0, 0, 0, 0],
        "broken": "true",
        "hands": 0,
    }
    values.update(fields)  # type: ignore[arg-type]
    head = " ".join(f"{k}={str(v).replace(' ', '')}" for k, v in values.items())
    body = " | ".join(
        ["stock:", "trick:"]
        + [f"hand.{s}: {last[s]}@{s}" for s in range(4)]
        + [f"won.{s}: " + " ".join(c + "!" for c in piles[s]) for s in range(4)]
    )
    return f"{GAME} {head} | {body}"


def play_last(position: str, leader: int, cards: list[str], **kw: object) -> cardcore.Game:
    game = cardcore.new_game(GAME, 4, position=position, seed=5, **kw)  # type: ignore[arg-type]
    for i in range(4):
        seat = (leader + i) % 4
        game.act(seat, f"play {cards[seat]}")
    return game


def test_spt_nil_1_nil_made_and_contracts() -> None:
    # seat 0 nil with 0 tricks; seat 2 bid 4 and has 4; seats 1+3 bid 3+3 and have 3+5.
    last = ["2C", "3C", "AC", "4C"]
    pos = last_trick_position([0, 3, 4, 3], [0, 3, 4, 5], last, leader=2)
    game = play_last(pos, 2, last)  # AC wins: seat 2 takes its 5th trick
    hist = game.history()
    assert hist[-1]["taken"] == [0, 3, 5, 5]
    # team 0: nil +100, contract 4 made with 5: 40 + 1 bag = 141; team 1: 6 bid, 8 made: 62
    assert hist[-1]["scores"] == [141, 62, 141, 62]
    assert game.view(0)["table"]["points"] == [141, 62, 141, 62]
    assert game.view(0)["table"]["bags"] == [1, 2, 1, 2]


def test_spt_nil_2_failed_nil_pays_100_and_its_tricks_are_bags() -> None:
    # the nil bidder (seat 0) is forced to win the last trick with a trump
    last = ["2S", "3C", "AC", "4C"]
    pos = last_trick_position([0, 3, 4, 3], [0, 3, 4, 5], last, leader=1)
    game = play_last(pos, 1, last)
    assert game.history()[-1]["taken"] == [1, 3, 4, 5]
    # team 0: -100 + 1 (bag) + 40 (4 of 4) = -59, 1 bag; team 1: 62, 2 bags
    assert game.view(0)["table"]["points"] == [-59, 62, -59, 62]
    assert game.view(0)["table"]["bags"] == [1, 2, 1, 2]


def test_spt_score_1_set_contract_scores_minus_ten_per_trick() -> None:
    last = ["2C", "3C", "AC", "4C"]
    pos = last_trick_position([5, 3, 4, 3], [0, 3, 4, 5], last, leader=2)
    game = play_last(pos, 2, last)  # team 0 bid 9, took 5: -90
    assert game.view(0)["table"]["points"] == [-90, 62, -90, 62]


def test_spt_bag_1_tenth_bag_costs_100() -> None:
    last = ["2C", "3C", "AC", "4C"]
    pos = last_trick_position([0, 3, 4, 3], [0, 3, 4, 5], last, leader=2, bags=[9, 0, 9, 0])
    game = play_last(pos, 2, last)
    table = game.view(0)["table"]
    assert table["points"] == [41, 62, 41, 62] and table["bags"] == [0, 2, 0, 2]


def test_spt_bag_2_house_rule_lowers_the_bag_limit() -> None:
    last = ["2C", "3C", "AC", "4C"]
    pos = last_trick_position([0, 3, 4, 3], [0, 3, 4, 5], last, leader=2, bags=[2, 0, 2, 0])
    game = play_last(pos, 2, last, rules=[RULE], options={"bag_limit": 3})
    assert game.view(0)["table"]["points"] == [41, 62, 41, 62]
    assert game.view(0)["table"]["bags"] == [0, 2, 0, 2]
    plain = play_last(pos, 2, last)
    assert plain.view(0)["table"]["bags"] == [3, 2, 3, 2]


def test_spt_bag_2_option_is_bounded_and_belongs_to_the_rule() -> None:
    with pytest.raises(OptionError, match="SPT-BAG-2"):
        cardcore.new_game(GAME, 4, rules=[RULE], options={"bag_limit": 2}, seed=1)
    with pytest.raises(OptionError, match="SPT-BAG-2"):
        cardcore.new_game(GAME, 4, rules=[RULE], options={"bag_limit": 26}, seed=1)
    with pytest.raises(OptionError, match=re.escape(RULE)):
        cardcore.new_game(GAME, 4, options={"bag_limit": 5}, seed=1)
    assert cardcore.new_game(GAME, 4, rules=[RULE], seed=1).options["bag_limit"] == 5


def test_spt_end_1_target_reached_partners_win_together() -> None:
    last = ["2C", "3C", "AC", "4C"]
    pos = last_trick_position([0, 3, 4, 3], [0, 3, 4, 5], last, leader=2, points=[400, 0, 400, 0])
    game = play_last(pos, 2, last)
    assert game.is_over
    assert game.result.winners == (0, 2) and game.result.scores == (541.0, 62.0, 541.0, 62.0)
    assert game.result.reason == "target reached"


def test_spt_end_1_tie_above_target_plays_on() -> None:
    last = ["2C", "3C", "AC", "4C"]
    pos = last_trick_position(
        [0, 3, 4, 3], [0, 3, 4, 5], last, leader=2, points=[500, 579, 500, 579]
    )
    game = play_last(pos, 2, last)  # 641 each
    assert not game.is_over and game.view(0)["table"]["points"] == [641, 641, 641, 641]
    assert game.view(1)["table"]["phase"] == "bid" and game.view(1)["table"]["dealer"] == 2
    assert game.to_act == (3,)  # the new dealer's left bids first


def test_spt_end_2_hand_cap_ends_the_game() -> None:
    last = ["2C", "3C", "AC", "4C"]
    pos = last_trick_position([0, 3, 4, 3], [0, 3, 4, 5], last, leader=2)
    game = play_last(pos, 2, last, options={"max_hands": 1})
    assert (
        game.is_over and game.result.winners == (0, 2) and game.result.reason == "hand cap reached"
    )


def test_spt_end_1_target_option_is_bounded() -> None:
    with pytest.raises(OptionError, match="SPT-END-1"):
        cardcore.new_game(GAME, 4, options={"target": 50}, seed=1)


def test_spt_resign_1_partner_loses_with_the_resigner() -> None:
    game = new()
    game.act(1, "resign")
    assert game.result.winners == (0, 2)


# ---------------------------------------------------------------- the testing kit


def test_conformance_kit_every_configuration() -> None:
    for config in configurations(GAME):
        kwargs = config.kwargs()
        kwargs["options"] = {**kwargs["options"], "max_hands": 2}
        report = check_game(config.game, games=2, **kwargs)
        assert report.ok and report.skipped == {}, report.summary()


def test_conformance_kit_house_rule_small_limit() -> None:
    report = check_game(
        GAME, players=4, rules=[RULE], options={"max_hands": 2, "bag_limit": 3}, games=1
    )
    assert report.ok and report.cards_lost == 0 and report.leaks == 0


def test_kit_check_positions_sees_the_partnership_game() -> None:
    report = check_game(GAME, players=4, options={"max_hands": 1}, games=1, checks={"positions"})
    assert "positions" not in report.skipped


# ---------------------------------------------------------------- claims of the docs


def test_game_refuses_score_round_answer_that_splits_partners() -> None:
    """plugin-guide/game.rst, Partnerships: refused_answer 'names the rule that answered'."""
    import types

    @hookimpl
    def score_round(state: GameState, scores: tuple[int, ...]) -> tuple[int, ...]:
        return (scores[0] + 1, *scores[1:])

    module = types.ModuleType("spt_split")
    module.RULE = RuleInfo(id="SPT-TEST-1", name="spades-tricks.split", game=GAME, summary="split")  # type: ignore[attr-defined]
    module.score_round = score_round  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "spades-tricks.split", module)
    try:
        last = ["2C", "3C", "AC", "4C"]
        pos = last_trick_position([0, 3, 4, 3], [0, 3, 4, 5], last, leader=2)
        game = cardcore.new_game(GAME, 4, position=pos, seed=5, rules=["spades-tricks.split"])
        before = game.position()
        for seat, card in ((2, "AC"), (3, "4C"), (0, "2C")):
            game.act(seat, f"play {card}")
        mid = game.position()
        with pytest.raises(PluginError, match=re.escape("spades-tricks.split")):
            game.act(1, "play 3C")
        assert game.position() == mid and before != mid
    finally:
        cardcore.unregister("cardcore.rules", "spades-tricks.split")


def test_house_rule_bad_answer_is_refused_by_name() -> None:
    """plugin-guide/game.rst: checked_answer refuses a rule's '2.5' or 'no', naming it."""
    import types

    @hookimpl
    def spades_bag_limit(options: object) -> object:
        return "5"

    module = types.ModuleType("spt_bad")
    module.RULE = RuleInfo(id="SPT-TEST-2", name="spades-tricks.bad", game=GAME, summary="bad")  # type: ignore[attr-defined]
    module.spades_bag_limit = spades_bag_limit  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "spades-tricks.bad", module)
    try:
        with pytest.raises(PluginError, match=re.escape("spades-tricks.bad")):
            cardcore.new_game(GAME, 4, rules=["spades-tricks.bad"], seed=1)
    finally:
        cardcore.unregister("cardcore.rules", "spades-tricks.bad")


def test_tricks_api_doc_examples() -> None:
    hand = parse_cards("KH 2S 9H")
    assert [str(c) for c in tricks.following(hand, Suit.HEARTS)] == ["KH", "9H"]
    assert (3 + tricks.trick_winner(parse_cards("10H AH 2S KH"), trump=Suit.SPADES)) % 4 == 1
    assert tricks.trick_winner(parse_cards("QD QD 3C")) == 0
    assert tricks.following(parse_cards("2S 3S"), None) == tuple(parse_cards("2S 3S"))


def test_tricks_joker_neither_follows_nor_trumps() -> None:
    assert tricks.trick_winner(parse_cards("2H JK AH")) == 2
    assert tricks.trick_winner(parse_cards("JK 2H 3S"), trump=Suit.SPADES) == 2
    assert tricks.trick_winner(parse_cards("JK 2H JK")) == 0


def test_tricks_bad_arguments_raise_argument_error() -> None:
    with pytest.raises(ArgumentError):
        tricks.trick_winner([])
    with pytest.raises(ArgumentError):
        tricks.following(parse_cards("2H"), "H")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        tricks.trick_winner(parse_cards("2H 3H"), order={})


def test_simulate_counts_partnership_win_as_half_each() -> None:
    """plugin-guide/game.rst: 'seats 0 and 1 (two teams) add up to half the games'."""
    summary = cardcore.simulate(GAME, games=4, players=4, options={"max_hands": 1}, seed=11)
    assert summary.wins[0] == summary.wins[2] and summary.wins[1] == summary.wins[3]
    assert summary.wins[0] + summary.wins[1] == pytest.approx(summary.games / 2)


def test_action_texts_read_back() -> None:
    game = new()
    assert str(game.act(0, "bid 3")) == "bid 3"
    assert game.act(1, "BID 0") == spades.Bid(1, 0)  # verbs read in any case


def test_kit_catches_a_refusal_that_names_a_hidden_card() -> None:
    """plugin-guide/testing.rst: the ``rejections`` check reads each refusal's message
    for a card hidden from the refused seat. A variant whose ``rule_for`` names the next
    seat's first card must fail it."""
    import types

    class Leaky(spades.SpadesLogic):
        def rule_for(
            self, state: spades.SpadesState, action: spades.SpadesAction
        ) -> tuple[str, str]:
            rule, reason = super().rule_for(state, action)
            other = state.zones.cards[spades.hand((action.seat + 1) % 4)]
            return rule, f"{reason}; the next seat holds {other[0] if other else 'nothing'}"

    @hookimpl
    def create_logic(ruleset: cardcore.Ruleset) -> Leaky:
        return Leaky(ruleset)

    module = types.ModuleType("spades_leaky")
    module.GAME = spades.GameInfo(  # type: ignore[attr-defined]
        "spades-leaky",
        "leaky",
        4,
        4,
        hookspecs=spades.hookspecs,
        options=spades.GAME.options,
        fields=spades.GAME.fields,
    )
    module.create_logic = create_logic  # type: ignore[attr-defined]
    module.spades_bag_limit = spades.spades_bag_limit  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "spades-leaky", module)
    try:
        report = check_game(
            "spades-leaky", players=4, options={"max_hands": 1}, games=1, strict=False
        )
        assert not report.ok and report.leaks > 0
    finally:
        cardcore.unregister("cardcore.games", "spades-leaky")


def test_trick_winner_refuses_unordered_plays() -> None:
    with pytest.raises(ArgumentError):
        tricks.trick_winner(set(parse_cards("2H 3H AS")), trump=Suit.SPADES)
