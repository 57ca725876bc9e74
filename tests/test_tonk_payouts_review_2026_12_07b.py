"""Tonk payouts: worked rule examples by an independent tester (2026-12-07).

Every expected payout below is derived by hand from ``seeds/tonk.md`` (rule IDs cited
in each test), never read back from the engine.  Only public APIs are used:
``cardcore.new_game``/``act``/``legal_actions``/``view``/``history``/``position``/``save``,
``cardcore.load``/``replay`` and ``cardcore_tonk.position.stack_deals``.

Deals are stacked with ``deck=`` (top first): five rounds of one card a seat starting
left of the dealer (TONK-DEAL-1), then the upcard (TONK-DEAL-2), then the stock.
Card values (TONK-VAL-1): A 1, 2-10 face, J Q K 10.
"""

from __future__ import annotations

import copy
import random

import pytest

import cardcore
from cardcore_tonk.position import stack_deals

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL_CARDS = [r + s for s in "SHDC" for r in RANKS]


def value(card: str) -> int:
    rank = card[:-1]
    if rank == "A":
        return 1
    if rank in ("J", "Q", "K"):
        return 10
    return int(rank)


def total(cards: str | list[str]) -> int:
    if isinstance(cards, str):
        cards = cards.split()
    return sum(value(c) for c in cards)


def make_deck(hands, dealer, up, stock=(), fill=False, tail=()):
    """Deck text, top first: deal order from the dealer's left, upcard, stock.

    ``fill`` appends every other card (sorted) so the whole stock is known, then ``tail``
    (the last stock cards)."""
    n = len(hands)
    hands = [h.split() if isinstance(h, str) else list(h) for h in hands]
    order = [(dealer + 1 + i) % n for i in range(n)]
    cards = [hands[s][k] for k in range(5) for s in order] + [up] + list(stock)
    tail = list(tail)
    if fill:
        used = set(cards) | set(tail)
        cards += [c for c in ALL_CARDS if c not in used]
    cards += tail
    assert len(cards) == len(set(cards)), "a card is stacked twice"
    return " ".join(cards)


def start(
    hands,
    dealer,
    up,
    stock=(),
    *,
    stake=1,
    rules=(),
    without=(),
    hands_opt=1,
    fill=False,
    tail=(),
    seed=11,
):
    n = len(hands)
    options = {"first_dealer": dealer, "stake": stake, "hands": hands_opt}
    if n == 4:
        options["max_players"] = 4
    if n == 2:
        options["max_players"] = 2
    deck = make_deck(hands, dealer, up, stock, fill=fill, tail=tail)
    return cardcore.new_game(
        "tonk", n, deck=deck, options=options, rules=list(rules), without=list(without), seed=seed
    )


def play(game, moves):
    for seat, text in moves:
        game.act(seat, text)


def last_hand(game):
    return [h for h in game.history(None) if h.get("kind") == "hand"][-1]


def assert_settled(game, payouts, reason, stake=1):
    """The (one-hand) session ended with these payouts, zero-sum, in the ledger."""
    assert sum(payouts) == 0, "the expected payout itself must be zero-sum"
    assert game.is_over
    assert game.result.reason == reason
    assert tuple(game.result.payouts) == tuple(payouts)
    assert tuple(game.result.scores) == tuple(p // stake for p in payouts)
    assert all(p % stake == 0 for p in game.result.payouts)  # TONK-STAKE-1
    hand = last_hand(game)
    assert list(hand["amounts"]) == list(payouts)
    assert hand["reason"] == reason
    assert list(game.view(None)["table"]["balances"]) == list(payouts)
    best = max(payouts)
    assert tuple(game.result.winners) == tuple(i for i, p in enumerate(payouts) if p == best)


# Hands used below, with their totals checked here once.
H30 = "10S 9H 8D 2C AH"  # 30
H11 = "AS AD AC 2S 6D"  # 11
H20 = "3S 3C 4D 4C 6S"  # 20
HIGH = "10D JS QC KH 3H"  # 43


def test_hand_totals_as_stacked():
    assert total(H30) == 30 and total(H11) == 11 and total(H20) == 20 and total(HIGH) == 43


# ---------------------------------------------------------------- naturals (TONK-49-*)

N49 = "9S 10S JS QS KS"  # 49
N50 = "10H JH QH KH 10D"  # 50
N50B = "10C JC QC KC QD"  # 50


def test_natural_totals():
    assert total(N49) == 49 and total(N50) == 50 and total(N50B) == 50


@pytest.mark.parametrize("stake", [1, 3])
def test_natural_to_non_dealer_three_seats(stake):
    # TONK-49-1: seat 1 (not the dealer) holds 49 and collects 2S from each other seat.
    g = start(["2C 3C 4D 5D 7H", N49, "AH 2H 3D 6C 8C"], 2, "AD", stake=stake)
    assert_settled(g, (-2 * stake, 4 * stake, -2 * stake), "natural", stake)
    shown = last_hand(g)["shown"]
    assert shown[0] is None and shown[2] is None and shown[1] is not None


def test_natural_to_dealer_three_seats():
    # TONK-49-1: the dealer (seat 2) is checked too: 50 collects 2S from each.
    g = start(["2C 3C 4D 5D 7H", "AH 2H 3D 6C 8C", N50], 2, "AD")
    assert_settled(g, (-2, -2, 4), "natural")


def test_natural_to_dealer_two_seats():
    g = start(["2C 3C 4D 5D 7H", N50], 1, "AD", stake=5)
    assert_settled(g, (-10, 10), "natural", 5)


def test_natural_to_non_dealer_four_seats():
    # Seat 0 is left of dealer 3; collects 2S from three players: +6S.
    g = start([N49, "2C 3C 4D 5D 7H", "AH 2H 3D 6C 8C", "4S 5S 6S 8H 9H"], 3, "AD", stake=2)
    assert_settled(g, (12, -4, -4, -4), "natural", 2)


def test_two_naturals_void_no_payment_hand_keeps_number_and_deal_passes():
    # TONK-49-2: two naturals (seat 0 and the dealer, seat 2): void, nothing paid,
    # the next dealer (seat 0) deals again; the hand keeps its number.
    g = start([N49, "2C 3C 4D 5D 7H", N50], 2, "AD")
    assert not g.is_over
    t = g.view(None)["table"]
    assert t["balances"] == [0, 0, 0]
    assert t["hand_number"] == 1 and t["phase"] == "between" and t["dealer"] == 0
    assert [str(a) for a in g.legal_actions(0)] == ["deal"]
    hand = last_hand(g)
    assert hand["reason"] == "void" and list(hand["amounts"]) == [0, 0, 0]


def test_void_then_redealt_natural_pays_only_once():
    # A void deal is not a hand (TONK-49-2): with hands=1 the session is the re-deal.
    g = start([N49, "2C 3C 4D 5D 7H", N50], 2, "AD", stake=4)
    # Re-deal by dealer 0: deal order 1, 2, 0; seat 1 (non-dealer) holds 50.
    d2 = make_deck(["2C 3C 4D 5D 7H", N50B, "AH 2H 3D 6C 8C"], 0, "AD")
    pos = stack_deals(g.position(), [d2])
    g2 = cardcore.new_game(
        "tonk", 3, options={"first_dealer": 2, "stake": 4, "hands": 1}, position=pos, seed=11
    )
    g2.act(0, "deal")
    assert_settled(g2, (-8, 16, -8), "natural", 4)
    assert last_hand(g2)["dealer"] == 0


def test_three_naturals_of_four_seats_void():
    g = start([N49, N50, N50B, "2C 3C 4D 5D 7C"], 3, "AD")
    assert not g.is_over
    assert g.view(None)["table"]["balances"] == [0, 0, 0, 0]
    assert last_hand(g)["reason"] == "void"
    assert g.view(None)["table"]["dealer"] == 0


def test_natural_switched_off_is_a_normal_hand():
    g = start([N49, "2C 3C 4D 5D 7H", "AH 2H 3D 6C 8C"], 2, "AD", without=["tonk.natural-49-50"])
    assert not g.is_over
    assert [str(a) for a in g.legal_actions(0)] == ["drop", "draw", "take"]
    # 49 is then just a high total: seat 0 drops with 49 and is caught by both (TONK-DROP-3/4):
    # pays 2 to seat 1 (27) and seat 2 (20); lowest seat 2 collects 1 from seat 1.
    assert total("2C 3C 4D 5D 7H") == 21 and total("AH 2H 3D 6C 8C") == 20
    g.act(0, "drop")
    assert_settled(g, (-4, 1, 3), "drop-caught")


def test_reaching_fifty_later_is_no_natural():
    # TONK-49-3: seat 0 is dealt 40 and draws a ten (50 in hand): nothing happens.
    g = start(["10S JS QS 8D 2H", "2C 3C 4D 5D 7H", "AH 3H 3D 6C 8C"], 2, "AD", stock=["10C"])
    g.act(0, "draw")
    assert g.view(0)["table"]["total"] == 50
    assert not g.is_over and g.view(None)["table"]["balances"] == [0, 0, 0]


# ---------------------------------------------------------------- drops (TONK-DROP-*)

# Three seats, dealer 2: seat 0 drops on its first turn (TONK-TURN-2: first turn allowed).
DROP3 = [
    # (hands, expected payouts, reason) -- derivations in the comments
    # 11 < 35, 42: strictly lowest, collects S from each (DROP-2).
    (["AS AH 2D 3C 4S", "5S 6H 7D 8C 9S", "10S JH QD KC 2H"], (2, -1, -1), "drop-won"),
    # 20 vs 11, 42: caught; pays 2 to seat 1; lowest seat 1 takes 1 from seat 2 (DROP-3/4).
    (["5S 6H 2D 3C 4S", "AS AH AD AC 7D", "10S JH QD KC 2H"], (-2, 3, -1), "drop-caught"),
    # 30 vs 11, 20: caught by both; pays 2 each; seat 1 takes 1 from seat 2.
    ([H30, H11, H20], (-4, 3, 1), "drop-caught"),
    # 12 vs 12, 42: a tie is not lowest (DROP-2/5); pays 2 to seat 1, who takes 1 from seat 2.
    (["AS AH 2D 3C 5D", "AD AC 2H 3D 5S", "10S JH QD KC 2C"], (-2, 3, -1), "drop-caught"),
    # 30 vs 12, 12: pays 2 to each; tied lowest pay each other nothing (DROP-5).
    ([H30, "AD AC 2H 3D 5S", "AS 2D 3C 4H 2S"], (-4, 2, 2), "drop-caught"),
]


@pytest.mark.parametrize("hands,payouts,reason", DROP3)
@pytest.mark.parametrize("stake", [1, 7])
def test_drop_three_seats(hands, payouts, reason, stake):
    g = start(hands, 2, "9D" if "9D" not in " ".join(hands) else "9C", stake=stake)
    g.act(0, "drop")
    assert_settled(g, tuple(p * stake for p in payouts), reason, stake)
    hand = last_hand(g)
    assert list(hand["totals"]) == [total(h) for h in hands]  # TONK-DROP-1: all shown
    assert all(s is not None for s in hand["shown"])


@pytest.mark.parametrize(
    "hands,payouts,reason",
    [
        (["AS AH 2D 3C 4S", "5S 6H 7D 8C 9S"], (1, -1), "drop-won"),  # 11 < 35
        (["AS AH 2D 3C 5D", "AD AC 2H 3D 5S"], (-2, 2), "drop-caught"),  # 12 = 12: caught
        (["5S 6H 2D 3C 4S", "AS AH AD AC 7D"], (-2, 2), "drop-caught"),  # 20 > 11
    ],
)
def test_drop_two_seats(hands, payouts, reason):
    # TONK-GAP-5: with two seats a caught drop costs 2S (no DROP-4 payer remains).
    g = start(hands, 1, "9D")
    g.act(0, "drop")
    assert_settled(g, payouts, reason)


@pytest.mark.parametrize(
    "hands,payouts,reason",
    [
        # 11 < 35, 42, 43: +3S.
        (
            ["AS AH 2D 3C 4S", "5S 6H 7D 8C 9S", "10S JH QD KC 2H", "10D JS QC KH 3H"],
            (3, -1, -1, -1),
            "drop-won",
        ),
        # 30 vs 12, 12, 43: pays 2 to each tied-lowest; each takes 1 from seat 3.
        ([H30, "AD AC 2H 3D 5S", "AS 2D 3C 4H 2S", HIGH], (-4, 3, 3, -2), "drop-caught"),
        # 20 vs 11, 15, 20: pays 2 to all three (20 is "equal", DROP-3);
        # lowest seat 1 takes 1 from seats 2 and 3.
        (
            ["5S 6H 2D 3C 4S", "AS AH AD AC 7D", "2H 2C 3D 4C 4D", "5H 5C 3S 3H 4H"],
            (-6, 4, 1, 1),
            "drop-caught",
        ),
        # 12 vs 12, 17, 43: only seat 1 ties the dropper: caught, pays 2 to seat 1 only;
        # seat 1, the lowest non-dropper, takes 1 from seats 2 and 3.
        (
            ["AS AH 2D 3C 5D", "AD AC 2H 3D 5S", "6C 2S 3S 4S 2C", HIGH],
            (-2, 4, -1, -1),
            "drop-caught",
        ),
    ],
)
def test_drop_four_seats(hands, payouts, reason):
    g = start(hands, 3, "9C")
    g.act(0, "drop")
    assert_settled(g, payouts, reason)


def test_dealer_drops_on_own_first_turn():
    # Seats 0 and 1 draw and throw the drawn card back; the dealer (2) then drops with 11.
    g = start([H30, H20, H11], 2, "9C", stock=["KD", "QH"])
    play(g, [(0, "draw"), (0, "discard KD"), (1, "draw"), (1, "discard QH")])
    assert str(g.legal_actions(2)[0]) == "drop"
    g.act(2, "drop")
    assert_settled(g, (-1, -1, 2), "drop-won")


def test_drop_only_at_start_of_turn():
    # TONK-TURN-2: after drawing, a drop is illegal and changes nothing.
    g = start([H11, H30, H20], 2, "9C", stock=["KD"])
    g.act(0, "draw")
    before = g.position()
    with pytest.raises(cardcore.IllegalActionError):
        g.act(0, "drop")
    assert g.position() == before and not g.is_over


# ---------------------------------------------------------------- going out (TONK-OUT-*)


def test_tonk_out_by_spreading_three_seats():
    # TONK-OUT-1: two spreads empty the six cards: 2S from each.
    g = start(["5H 6H 7H 9C 9D", H30, H20], 2, "KD", stock=["9S"], stake=2)
    play(g, [(0, "draw"), (0, "spread 5H 6H 7H"), (0, "spread 9C 9D 9S")])
    assert_settled(g, (8, -4, -4), "tonk-out", 2)
    shown = last_hand(g)["shown"]  # TONK-VIEW-1: no hand is shown after a tonk-out
    assert shown is None or all(s is None for s in shown)


def test_tonk_out_with_taken_discard():
    g = start(["5H 6H 7H 9C 9D", H30, H20], 2, "9S", stock=["KD"])
    play(g, [(0, "take"), (0, "spread 5H 6H 7H"), (0, "spread 9C 9D 9S")])
    assert_settled(g, (4, -2, -2), "tonk-out")


def test_tonk_out_four_seats_by_non_first_seat():
    # Dealer 3; seat 0 draws/discards, seat 1 tonks out: 2S from each of three = +6.
    g = start([H30, "5H 6H 7H 9C 9D", H20, HIGH], 3, "KD", stock=["QH", "9S"])
    play(
        g,
        [
            (0, "draw"),
            (0, "discard QH"),
            (1, "draw"),
            (1, "spread 5H 6H 7H"),
            (1, "spread 9S 9C 9D"),
        ],
    )
    assert_settled(g, (-2, 6, -2, -2), "tonk-out")


def test_out_by_discarding_last_card():
    # TONK-OUT-2: five-card run leaves KC, discarded: S from each.
    g = start(["4H 5H 6H 7H KC", H30, H20], 2, "2D", stock=["8H"])
    play(g, [(0, "draw"), (0, "spread 4H 5H 6H 7H 8H"), (0, "discard KC")])
    assert_settled(g, (2, -1, -1), "out")


def test_out_by_discarding_last_card_four_seats():
    g = start(["4H 5H 6H 7H KC", H30, H20, HIGH], 3, "2D", stock=["8H"], stake=3)
    play(g, [(0, "draw"), (0, "spread 4H 5H 6H 7H 8H"), (0, "discard KC")])
    assert_settled(g, (9, -3, -3, -3), "out", 3)


def _hits_only_game(rules=()):
    # Two seats, dealer 1. Seat 0 lays 5H 6H 7H and keeps three cards; seat 1 then
    # empties six cards by hits alone onto that run (TONK-HIT-1/2).
    g = start(["5H 6H 7H QC 2D", "4H 3H 8H 9H 2H"], 1, "KS", stock=["JC", "10H"], rules=rules)
    play(g, [(0, "draw"), (0, "spread 5H 6H 7H"), (0, "discard QC"), (1, "draw")])
    for card in ["4H", "3H", "2H", "8H", "9H"]:
        g.act(1, f"hit 1 {card}")
    return g


def test_tonk_out_by_hits_alone_pays_double_in_base_game():
    g = _hits_only_game()
    g.act(1, "hit 1 10H")
    assert_settled(g, (-2, 2), "tonk-out")


def test_tonk_out_by_hits_alone_pays_single_under_double_needs_spread():
    # TONK-VAR-3: no new spread this turn -> S.
    g = _hits_only_game(rules=["tonk.double-needs-spread"])
    g.act(1, "hit 1 10H")
    assert_settled(g, (-1, 1), "tonk-out")


def test_tonk_out_with_new_spread_still_double_under_double_needs_spread():
    g = start(
        ["5H 6H 7H 9C 9D", H30, H20], 2, "KD", stock=["9S"], rules=["tonk.double-needs-spread"]
    )
    play(g, [(0, "draw"), (0, "spread 5H 6H 7H"), (0, "spread 9C 9D 9S")])
    assert_settled(g, (4, -2, -2), "tonk-out")


# ---------------------------------------------------------------- stock out (TONK-STOCK-*)


def _exhaust(g):
    """Every turn: draw and throw the drawn card back, until the hand ends."""
    turns = 0
    while not g.is_over:
        seat = g.to_act[0]
        before = list(g.view(seat)["table"]["hand"])
        g.act(seat, "draw")
        after = list(g.view(seat)["table"]["hand"])
        (drawn,) = [c for c in after if c not in before]
        g.act(seat, f"discard {drawn}")
        turns += 1
        assert turns < 60
    return turns


def test_stock_out_three_seats_two_tied_lowest():
    # 30, 14, 14: each tied lowest collects S from seat 0 only (TONK-STOCK-2).
    hands = [H30, "AS AD 2S 3D 7C", "AC 2H 2D 3C 6S"]
    assert [total(h) for h in hands] == [30, 14, 14]
    g = start(hands, 2, "KD", fill=True)
    assert _exhaust(g) == 52 - 15 - 1  # every stock card drawn once (TONK-STOCK-1)
    assert_settled(g, (-2, 1, 1), "stock-out")
    assert list(last_hand(g)["totals"]) == [30, 14, 14]


def test_stock_out_two_seats_single_lowest():
    g = start([H30, H11], 1, "KD", fill=True, stake=5)
    assert _exhaust(g) == 52 - 10 - 1
    assert_settled(g, (-5, 5), "stock-out", 5)


def test_stock_out_two_seats_tie_pays_nothing():
    hands = ["AS AD 2S 3D 7C", "AC 2H 2D 3C 6S"]
    g = start(hands, 1, "KD", fill=True)
    _exhaust(g)
    assert g.is_over and g.result.reason == "stock-out"
    assert tuple(g.result.payouts) == (0, 0)


def test_stock_out_four_seats_single_lowest():
    # 30, 11, 20, 43: seat 1 collects S from each of three.
    g = start([H30, H11, H20, HIGH], 3, "KD", fill=True)
    assert _exhaust(g) == 52 - 20 - 1
    assert_settled(g, (-1, 3, -1, -1), "stock-out")


def test_stock_out_four_seats_three_tied_lowest():
    # 14, 14, 14, 43: each tied player collects S from seat 3 only.
    hands = ["AS AD 2S 3D 7C", "AC 2H 2D 3C 6S", "AH 4S 3S 2C 4D", HIGH]
    assert [total(h) for h in hands][:3] == [14, 14, 14]
    g = start(hands, 3, "KD", fill=True)
    _exhaust(g)
    assert_settled(g, (1, 1, 1, -3), "stock-out")


def test_last_stock_card_drawer_finishes_turn_and_tonks_out():
    # TONK-STOCK-1: the player who draws the last stock card finishes that turn normally;
    # going out on it pays the tonk-out (2S), not the stock-out.
    # Two seats, dealer 1: 41 stock cards, seat 0 draws the 1st, 3rd, ..., 41st (the last).
    g = start(["5H 6H 7H 9C 9D", H30], 1, "KD", fill=True, tail=["9S"])
    for _ in range(40):
        seat = g.to_act[0]
        before = list(g.view(seat)["table"]["hand"])
        g.act(seat, "draw")
        (drawn,) = [c for c in g.view(seat)["table"]["hand"] if c not in before]
        g.act(seat, f"discard {drawn}")
    assert g.view(None)["table"]["stock"] == 1 and g.to_act[0] == 0
    play(g, [(0, "draw"), (0, "spread 5H 6H 7H"), (0, "spread 9C 9D 9S")])
    assert_settled(g, (2, -2), "tonk-out")


# ---------------------------------------------------------------- hit-blocks-drop (TONK-VAR-4)


def _hit_game(rules):
    # Two seats, dealer 1. Seat 0 draws AC, lays 5H 6H 7H, discards QC (keeps 2D AC = 3).
    # Seat 1 hits seat 0's run with 8H and discards. Seat 0 (total 2D + AC = 3) is lower
    # than seat 1 (KS KD QS 9C = 39).
    g = start(["5H 6H 7H QC 2D", "8H KS KD QS 9C"], 1, "4C", stock=["AC", "3D"], rules=rules)
    play(
        g,
        [
            (0, "draw"),
            (0, "spread 5H 6H 7H"),
            (0, "discard QC"),
            (1, "draw"),
            (1, "hit 1 8H"),
            (1, "discard 3D"),
        ],
    )
    return g


def test_hit_player_may_not_drop_under_hit_blocks_drop_and_payout_follows():
    g = _hit_game(["tonk.hit-blocks-drop"])
    assert "drop" not in [str(a) for a in g.legal_actions(0)]
    before = g.position()
    with pytest.raises(cardcore.IllegalActionError):
        g.act(0, "drop")
    assert g.position() == before  # the refused drop changes nothing
    assert g.view(None)["table"]["balances"] == [0, 0]
    # Seat 0 must draw instead (an unstacked card); it throws the drawn card back.
    before_hand = list(g.view(0)["table"]["hand"])
    g.act(0, "draw")
    (drawn,) = [c for c in g.view(0)["table"]["hand"] if c not in before_hand]
    g.act(0, f"discard {drawn}")
    # Seat 1 (39) drops and is caught by seat 0 (3): pays 2S (TONK-DROP-3, two seats).
    g.act(1, "drop")
    assert_settled(g, (2, -2), "drop-caught")


def test_hit_player_may_drop_in_base_game():
    g = _hit_game([])
    assert str(g.legal_actions(0)[0]) == "drop"
    g.act(0, "drop")  # 3 < 39: strictly lowest
    assert_settled(g, (1, -1), "drop-won")


# ---------------------------------------------------------------- sessions and the ledger


def test_stacked_three_hand_session_ledger():
    # TONK-SESSION-1/2/3, stake 2, dealer 2 then 0 then 1 (TONK-DEALER-2).
    opts = {"first_dealer": 2, "hands": 3, "stake": 2}
    # Hand 1 (dealer 2): seat 0 drops with 11 vs 35, 42: (+2, -1, -1) stakes.
    d1 = make_deck(["AS AH 2D 3C 4S", "5S 6H 7D 8C 9S", "10S JH QD KC 2H"], 2, "9D")
    # Hand 2 (dealer 0): the dealer holds a natural 50: (+4, -2, -2) stakes.
    d2 = make_deck([N50, "2C 3C 4D 5D 7H", "AH 2H 3D 6C 8C"], 0, "AD")
    # Hand 3 (dealer 1): seat 2 moves first and tonks out: (-2, -2, +4) stakes.
    d3 = make_deck([H30, H20, "5H 6H 7H 9C 9D"], 1, "KD", stock=["9S"])
    g0 = cardcore.new_game("tonk", 3, deck=d1, options=opts, seed=5)
    g = cardcore.new_game(
        "tonk", 3, options=opts, position=stack_deals(g0.position(), [d2, d3]), seed=5
    )
    g.act(0, "drop")
    assert not g.is_over
    assert g.view(None)["table"]["balances"] == [4, -2, -2]
    assert [str(a) for a in g.legal_actions(0)] == ["deal"]
    g.act(0, "deal")  # natural settles at once
    assert g.view(None)["table"]["balances"] == [12, -6, -6]
    assert last_hand(g)["reason"] == "natural" and last_hand(g)["dealer"] == 0
    g.act(1, "deal")
    assert g.to_act[0] == 2
    play(g, [(2, "draw"), (2, "spread 5H 6H 7H"), (2, "spread 9C 9D 9S")])
    assert g.is_over and g.result.reason == "tonk-out"
    assert tuple(g.result.payouts) == (8, -10, 2)
    assert tuple(g.result.scores) == (4, -5, 1)
    assert tuple(g.result.winners) == (0,)
    hands = [h for h in g.history(None) if h.get("kind") == "hand"]
    assert [list(h["amounts"]) for h in hands] == [[4, -2, -2], [8, -4, -4], [-4, -4, 8]]
    for h in hands:
        assert sum(h["amounts"]) == 0 and sum(h["balances"]) == 0


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("stake", [1, 3])
def test_random_sessions_zero_sum_every_hand(n, stake):
    rng = random.Random(1000 * n + stake)
    opts = {"hands": 6, "stake": stake, "max_players": n}
    g = cardcore.new_game("tonk", n, options=opts, seed=rng.randrange(10**6))
    steps = 0
    while not g.is_over:
        seat = g.to_act[0]
        g.apply(rng.choice(list(g.legal_actions(seat))))
        steps += 1
        assert steps < 20000
    hands = [h for h in g.history(None) if h.get("kind") == "hand"]
    played = [h for h in hands if h["reason"] != "void"]
    assert len(played) == 6
    running = [0] * n
    for h in hands:
        assert sum(h["amounts"]) == 0
        assert all(a % stake == 0 for a in h["amounts"])
        running = [r + a for r, a in zip(running, h["amounts"], strict=True)]
        assert list(h["balances"]) == running
    assert list(g.result.payouts) == running and sum(running) == 0
    assert list(g.result.scores) == [r // stake for r in running]


# ---------------------------------------------------------------- options and bounds


@pytest.mark.parametrize(
    "n,options,name",
    [
        (3, {"stake": 0}, "stake"),
        (3, {"stake": -1}, "stake"),
        (3, {"stake": 1_000_001}, "stake"),
        (3, {"stake": 1.5}, "stake"),
        (3, {"stake": True}, "stake"),
        (3, {"hands": 0}, "hands"),
        (3, {"hands": 100_001}, "hands"),
        (3, {"max_players": 5}, "max_players"),
        (3, {"max_players": 1}, "max_players"),
        (3, {"first_dealer": 3}, "first_dealer"),
        (3, {"first_dealer": -1}, "first_dealer"),
        (4, {}, "max_players"),
        (3, {"max_players": 2}, "max_players"),
    ],
)
def test_option_bounds_refused_by_name(n, options, name):
    with pytest.raises(cardcore.OptionError) as info:
        cardcore.new_game("tonk", n, options=options, seed=1)
    assert name in str(info.value)


@pytest.mark.parametrize("n", [1, 5])
def test_seat_counts_outside_every_option_refused(n):
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game("tonk", n, options={"max_players": 4}, seed=1)


@pytest.mark.parametrize(
    "options",
    [
        {"stake": 1},
        {"stake": 1_000_000},
        {"hands": 1},
        {"hands": 100_000},
        {"max_players": 4},
    ],
)
def test_option_bounds_inclusive(options):
    cardcore.new_game("tonk", 3, options=options, seed=1)


def test_top_stake_payout_is_exact():
    g = start(["AS AH 2D 3C 4S", "5S 6H 7D 8C 9S", "10S JH QD KC 2H"], 2, "9D", stake=1_000_000)
    g.act(0, "drop")
    assert_settled(g, (2_000_000, -1_000_000, -1_000_000), "drop-won", 1_000_000)


def test_tampered_options_refused_on_load_and_replay_original_untouched():
    g = start(["AS AH 2D 3C 4S", "5S 6H 7D 8C 9S", "10S JH QD KC 2H"], 2, "9D", stake=3)
    saved = g.save()
    record = g.record()
    for bad in (0, 1_000_001):
        s = copy.deepcopy(saved)
        s["config"]["options"]["stake"] = bad
        with pytest.raises(cardcore.CorruptStateError) as info:
            cardcore.load(s)
        assert "stake" in str(info.value)
        r = copy.deepcopy(record)
        r["options"]["stake"] = bad
        with pytest.raises(cardcore.CorruptStateError) as info:
            cardcore.replay(r)
        assert "stake" in str(info.value)
    # the original game is unchanged and settles at its own stake
    g.act(0, "drop")
    assert_settled(g, (6, -3, -3), "drop-won", 3)


def test_position_balances_must_be_multiples_of_stake():
    g = start([H11, H30, H20], 2, "9C", stake=3)
    pos = g.position()
    assert "balances=[0,0,0]" in pos
    with pytest.raises(cardcore.OptionError) as info:
        cardcore.new_game(
            "tonk",
            3,
            options={"first_dealer": 2, "stake": 3},
            position=pos.replace("balances=[0,0,0]", "balances=[1,-1,0]"),
            seed=1,
        )
    assert "stake" in str(info.value)
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game(
            "tonk",
            3,
            options={"first_dealer": 2, "stake": 3},
            position=pos.replace("balances=[0,0,0]", "balances=[3,-3,3]"),
            seed=1,
        )
    # balances carried in from a position: a won drop adds +2S, -S, -S to them
    ok = pos.replace("balances=[0,0,0]", "balances=[3,-6,3]")
    g2 = cardcore.new_game("tonk", 3, options={"first_dealer": 2, "stake": 3}, position=ok, seed=1)
    g2.act(0, "drop")  # 11 vs 30, 20
    assert g2.is_over and tuple(g2.result.payouts) == (9, -9, 0)
    assert list(last_hand(g2)["amounts"]) == [6, -3, -3]


# ---------------------------------------------------------------- stock-out-discard-only (TONK-VAR-5)


def _stock_empty_discard_only():
    # Two seats, dealer 1: seat 0 draws the 41st (last) stock card; seat 1 (30) then begins
    # a turn with an empty stock, which under TONK-VAR-5 does not end the hand.
    g = start([H11, H30], 1, "KD", fill=True, rules=["tonk.stock-out-discard-only"])
    for _ in range(41):
        seat = g.to_act[0]
        before = list(g.view(seat)["table"]["hand"])
        g.act(seat, "draw")
        (drawn,) = [c for c in g.view(seat)["table"]["hand"] if c not in before]
        g.act(seat, f"discard {drawn}")
    assert not g.is_over and g.view(None)["table"]["stock"] == 0 and g.to_act[0] == 1
    return g


def test_discard_only_drop_with_empty_stock_is_caught():
    g = _stock_empty_discard_only()
    g.act(1, "drop")  # 30 vs 11: caught, pays 2S (two seats)
    assert_settled(g, (2, -2), "drop-caught")


def test_discard_only_asking_for_stock_settles_as_stock_out():
    g = _stock_empty_discard_only()
    g.act(1, "draw")  # asks for the empty stock: TONK-STOCK-2, lowest (seat 0) takes S
    assert_settled(g, (1, -1), "stock-out")


def test_base_game_empty_stock_ends_hand_without_drop():
    # TONK-STOCK-1: same deal without the rule: the hand ends before seat 1 may drop.
    g = start([H11, H30], 1, "KD", fill=True)
    _exhaust(g)
    assert_settled(g, (1, -1), "stock-out")
