"""Worked-examples audit of Tonk, Spit and Speed (2026-12-04).

Every expected number below was worked out by hand from the seeds
(``tonk.en.md``, ``spit.en.md``) and ``rules-decisions.md``, not read back from
the engine. Only the public API is used: ``cardcore.new_game`` (``deck=`` or
``position=``), ``Game.act``, ``legal_actions``, ``view``, ``history``,
``result`` and ``cardcore.run_realtime``.
"""

from __future__ import annotations

import itertools

import pytest

import cardcore

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL = [r + s for s in "SHDC" for r in RANKS]


# --------------------------------------------------------------------------- Tonk helpers


def tonk_deck(hands, up, stock=(), dealer=0):
    """Stack a Tonk deck (top first): five rounds of one card each, starting left of the
    dealer (TONK-DEAL-1), then the upcard (TONK-DEAL-2), then the top of the stock."""
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    out = [hands[seat][r] for r in range(5) for seat in order]
    if up:
        out.append(up)
    out += list(stock)
    assert len(set(out)) == len(out)
    return " ".join(out + [c for c in ALL if c not in out])


def tonk(dealt, up="8S", stock=(), dealer=0, stake=1, rules=(), **options):
    opts = {"first_dealer": dealer, "stake": stake, **options}
    deck = tonk_deck(dealt, up, stock, dealer)
    return cardcore.new_game("tonk", len(dealt), deck=deck, options=opts, seed=3, rules=list(rules))


def tonk_position(hands, stock, discard_top, dealer, turn, spreads=""):
    """A Tonk position at the start of ``turn``'s turn; cards not named lie buried in the
    discard pile under ``discard_top``."""
    used = set(stock) | {discard_top} | {c for h in hands for c in h}
    buried = [c for c in ALL if c not in used]
    n = len(hands)
    zeros = ",".join(["0"] * n)
    parts = [
        f'tonk played=0 dealer={dealer} turn={turn} phase="start" balances=[{zeros}] chance=1',
        "stock: " + " ".join(stock),
        "discard: " + " ".join([*buried, discard_top + "!"]),
        *(f"hand.{i}: " + " ".join(h) for i, h in enumerate(hands)),
        "spreads:" + spreads,
    ]
    return " | ".join(parts)


def hand_entries(game):
    return [h for h in game.history(None) if h.get("kind") == "hand"]


def play(game, seat, *texts):
    for text in texts:
        game.act(seat, text)


# --------------------------------------------------------------------------- Tonk: deal, turn order


def test_tonk_deal_one_at_a_time_from_dealers_left_then_upcard():
    # TONK-DEAL-1/2: dealer seat 1 of 3, so seat 2 gets the 1st, 4th, ... card of the deck.
    deck = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 9D 10D"
    game = cardcore.new_game("tonk", 3, deck=deck, options={"first_dealer": 1}, seed=1)
    assert sorted(game.view(2)["table"]["hand"]) == sorted(["AS", "4S", "7S", "10S", "KS"])
    assert sorted(game.view(0)["table"]["hand"]) == sorted(["2S", "5S", "8S", "JS", "AH"])
    assert sorted(game.view(1)["table"]["hand"]) == sorted(["3S", "6S", "9S", "QS", "2H"])
    table = game.view(None)["table"]
    assert table["discard_top"] == "9D" and table["discard_count"] == 1
    assert table["stock"] == 52 - 15 - 1
    assert game.to_act == (2,)  # TONK-TURN-1: left of the dealer plays first


def test_tonk_turns_go_clockwise_and_draw_gives_the_stock_top():
    hands = [
        ["AS", "2H", "3D", "5C", "9C"],
        ["2S", "3S", "4S", "5D", "6D"],
        ["AH", "4H", "6H", "8H", "JD"],
    ]
    game = tonk(hands, up="QS", stock=["KD", "KH", "KS", "QD"], dealer=1)
    order = []
    for card in ["KD", "KH", "KS"]:
        (seat,) = game.to_act
        order.append(seat)
        game.act(seat, "draw")
        assert card in game.view(seat)["table"]["hand"]
        game.act(seat, f"discard {card}")
        assert game.view(None)["table"]["discard_top"] == card
    assert order == [2, 0, 1]
    assert game.to_act == (2,)


def test_tonk_drop_only_at_start_of_turn():
    hands = [["AS", "2H", "3D", "5C", "9C"], ["2S", "3S", "4S", "5D", "6D"]]
    game = tonk(hands, up="QS", stock=["KD"], dealer=1)
    assert [str(a) for a in game.legal_actions(0)] == ["drop", "draw", "take"]
    game.act(0, "draw")
    version = game.version
    with pytest.raises(cardcore.IllegalActionError, match=r"\(TONK-TURN-2\)"):
        game.act(0, "drop")
    assert game.version == version and not game.is_over


# --------------------------------------------------------------------------- Tonk: natural 49/50


def test_tonk_natural_49_pays_double_from_each_two_players():
    # 10+10+10+10+9 = 49; stake 5: +2S = +10 from the single opponent.
    hands = [["KS", "KH", "KD", "KC", "9S"], ["2S", "3S", "4S", "5D", "6D"]]
    game = tonk(hands, dealer=1, stake=5)
    assert game.is_over
    assert game.result.reason == "natural"
    assert game.result.payouts == (10, -10)
    assert game.result.scores == (2.0, -2.0)


def test_tonk_natural_50_for_the_dealer_three_players():
    # The dealer (seat 0) holds 50; each of the two others pays 2S = 4 at stake 2.
    hands = [
        ["KS", "KH", "KD", "KC", "10S"],
        ["2S", "3S", "4S", "5D", "6D"],
        ["2H", "3H", "4H", "5H", "7D"],
    ]
    game = tonk(hands, dealer=0, stake=2)
    assert game.result.reason == "natural"
    assert game.result.payouts == (8, -4, -4)
    assert hand_entries(game)[0]["totals"] == [50, None, None]  # only the holder shows


def test_tonk_48_is_not_a_natural():
    hands = [["10S", "10H", "10D", "10C", "8S"], ["2S", "3S", "4S", "5D", "6D"]]
    game = tonk(hands, up="9D", dealer=1)
    assert not game.is_over and game.to_act == (0,)


def test_tonk_two_naturals_void_no_payment_and_next_dealer_redeals():
    hands = [
        ["KS", "KH", "KD", "KC", "10S"],
        ["QS", "QH", "QD", "QC", "9S"],
        ["2H", "3H", "4H", "5H", "7D"],
    ]
    game = tonk(hands, dealer=0, stake=2)
    (entry,) = hand_entries(game)
    assert entry["reason"] == "void" and entry["amounts"] == [0, 0, 0]
    assert not game.is_over
    assert game.to_act == (1,) and [str(a) for a in game.legal_actions(1)] == ["deal"]
    game.act(1, "deal")
    table = game.view(None)["table"]
    assert table["dealer"] == 1 and table["hand_number"] == 1 and table["balances"] == [0, 0, 0]
    assert game.to_act == (2,) and table["hand_sizes"] == [5, 5, 5]


# --------------------------------------------------------------------------- Tonk: drops


def dropped(hands, stake=1, **kw):
    """Seat 0 drops on its first turn (dealer = last seat)."""
    game = tonk(hands, up="KD", dealer=len(hands) - 1, stake=stake, **kw)
    game.act(0, "drop")
    return game


# Hands and their totals (none is a natural 49/50).
D8 = ["AS", "AH", "AD", "2S", "3S"]  # 1+1+1+2+3 = 8
O35 = ["4H", "5H", "7D", "9C", "KC"]  # 4+5+7+9+10 = 35
O29 = ["2H", "3D", "6C", "8S", "QD"]  # 2+3+6+8+10 = 29


def test_tonk_drop_won_two_players_pays_basic_stake():
    game = dropped([D8, O35], stake=3)
    assert game.result.reason == "drop-won"
    assert game.result.payouts == (3, -3)
    assert hand_entries(game)[0]["totals"] == [8, 35]


def test_tonk_drop_won_three_players():
    game = dropped([D8, O35, O29], stake=3)
    assert game.result.reason == "drop-won"
    assert game.result.payouts == (6, -3, -3)
    assert hand_entries(game)[0]["totals"] == [8, 35, 29]


def test_tonk_drop_tied_two_players_is_caught_and_pays_double():
    # 9 vs 9: a tie is not lowest (TONK-DROP-2/5); the dropper pays 2S, nobody else pays.
    game = dropped([["AS", "AH", "2S", "2H", "3S"], ["AD", "AC", "2D", "2C", "3D"]], stake=2)
    assert hand_entries(game)[0]["totals"] == [9, 9]
    assert game.result.reason == "drop-caught"
    assert game.result.payouts == (-4, 4)
    assert game.result.winners == (1,)


P6 = ["AS", "AH", "AD", "AC", "2S"]  # 6
D12 = ["2H", "2D", "2C", "3S", "3H"]  # 12
P25 = ["4S", "5S", "6S", "7H", "3D"]  # 25


@pytest.mark.parametrize(
    ("hands", "totals", "payouts"),
    [
        # caught by one: dropper pays 2 to P1; P1 (lowest) also takes 1 from P2.
        ([D12, P6, P25], [12, 6, 25], (-2, 3, -1)),
        # caught by both: pays 2 to each; P1 lowest takes 1 from P2.
        (
            [["2H", "2D", "4S", "5S", "6S"], P6, ["3S", "3H", "3D", "3C", "2C"]],
            [19, 6, 14],
            (-4, 3, 1),
        ),
        # dropper tied with P1 for lowest: P1 is the sole lowest (TONK-DROP-5).
        ([D12, ["AS", "AH", "AD", "AC", "8S"], P25], [12, 12, 25], (-2, 3, -1)),
        # P1 and P2 tied lowest: both paid double, pay each other nothing.
        (
            [
                ["5H", "5D", "4S", "5S", "6S"],
                ["AS", "AH", "2S", "2C", "3S"],
                ["AD", "AC", "2H", "2D", "3H"],
            ],
            [25, 9, 9],
            (-4, 2, 2),
        ),
    ],
)
def test_tonk_drop_caught_three_players(hands, totals, payouts):
    game = dropped(hands)
    assert hand_entries(game)[0]["totals"] == totals
    assert game.result.reason == "drop-caught"
    assert game.result.payouts == payouts


@pytest.mark.parametrize(
    ("hands", "totals", "payouts"),
    [
        # dropper 25 pays 2 to P1 (6) and P2 (14); P1 lowest takes 1 from P2 and from P3.
        (
            [
                ["5H", "5D", "4S", "5S", "6S"],
                P6,
                ["3S", "3H", "3D", "3C", "2C"],
                ["KS", "KH", "QS", "9D", "8D"],
            ],
            [25, 6, 14, 47],
            (-4, 4, 1, -1),
        ),
        # P1, P2 tied lowest at 9, P3 at 18 also under the dropper: dropper pays 2 x 3;
        # P1 and P2 each take 1 from P3 only.
        (
            [
                ["5H", "5D", "4S", "5S", "6S"],
                ["AS", "AH", "2S", "2C", "3S"],
                ["AD", "AC", "2H", "2D", "3H"],
                ["3D", "3C", "4H", "4D", "4C"],
            ],
            [25, 9, 9, 18],
            (-6, 3, 3, 0),
        ),
    ],
)
def test_tonk_drop_caught_four_players(hands, totals, payouts):
    game = dropped(hands, max_players=4)
    assert hand_entries(game)[0]["totals"] == totals
    assert game.result.reason == "drop-caught"
    assert game.result.payouts == payouts


def test_tonk_drop_counts_only_cards_left_in_hand():
    # TONK-SPREAD-3: seat 0 lays 5H 6H 7H, keeps 2D AC (3) and drops next turn.
    hands = [["5H", "6H", "7H", "2D", "AC"], ["4S", "4D", "9C", "9D", "QS"]]
    game = tonk(hands, up="8C", stock=["KS", "QC"], dealer=1)
    play(game, 0, "draw", "spread 5H 6H 7H", "discard KS")
    assert game.view(0)["table"]["total"] == 3
    play(game, 1, "draw", "discard QC")
    game.act(0, "drop")
    assert hand_entries(game)[0]["totals"] == [3, 36]
    assert game.result.payouts == (1, -1)
    assert game.result.reason == "drop-won"


# --------------------------------------------------------------------------- Tonk: going out


def test_tonk_tonk_out_by_spreads_pays_double_three_players():
    hands = [
        ["KS", "KH", "KD", "2C", "3C"],
        ["4S", "5S", "7H", "9D", "JH"],
        ["2H", "3D", "6C", "8S", "QD"],
    ]
    game = tonk(hands, up="10D", stock=["4C"], dealer=2, stake=2)
    play(game, 0, "draw", "spread KS KH KD", "spread 2C 3C 4C")
    assert game.is_over
    assert game.result.reason == "tonk-out"
    assert game.result.payouts == (8, -4, -4)


def two_turn_hitter(rules=()):
    # Seat 0 lays 5H 6H 7H and keeps 4H 8H; next turn draws 9H and hits all three.
    hands = [["5H", "6H", "7H", "4H", "8H"], ["2S", "3D", "4C", "6C", "10D"]]
    game = tonk(hands, up="KC", stock=["9S", "QC", "9H"], dealer=1, stake=4, rules=rules)
    play(game, 0, "draw", "spread 5H 6H 7H", "discard 9S")
    play(game, 1, "draw", "discard QC")
    play(game, 0, "draw", "hit 1 4H", "hit 1 8H", "hit 1 9H")
    return game


def test_tonk_tonk_out_by_hits_alone_pays_double_by_default():
    game = two_turn_hitter()
    assert game.result.reason == "tonk-out"
    assert game.result.payouts == (8, -8)


def test_tonk_var3_tonk_out_by_hits_alone_pays_single():
    game = two_turn_hitter(rules=["tonk.double-needs-spread"])
    assert game.is_over
    assert game.result.payouts == (4, -4)


def test_tonk_var3_tonk_out_with_a_new_spread_still_pays_double():
    hands = [["KS", "KH", "KD", "2C", "3C"], ["4S", "5S", "7H", "9D", "JH"]]
    game = tonk(
        hands, up="10D", stock=["4C"], dealer=1, stake=3, rules=["tonk.double-needs-spread"]
    )
    play(game, 0, "draw", "spread KS KH KD", "spread 2C 3C 4C")
    assert game.result.payouts == (6, -6)


def test_tonk_out_by_discarding_last_card_pays_single_and_hits_extend_both_ends():
    hands = [["5H", "6H", "7H", "4H", "JD"], ["2S", "3D", "4C", "6C", "10D"]]
    game = tonk(hands, up="KC", stock=["9S", "QC", "8H"], dealer=1, stake=4)
    play(game, 0, "draw", "spread 5H 6H 7H", "discard 9S")
    play(game, 1, "draw", "discard QC")
    play(game, 0, "draw", "hit 1 4H", "hit 1 8H")
    assert game.view(0)["table"]["spreads"][0]["cards"] == ["4H", "5H", "6H", "7H", "8H"]
    assert not game.is_over
    game.act(0, "discard JD")
    assert game.result.reason == "out"
    assert game.result.payouts == (4, -4)


def test_tonk_any_players_spread_may_be_hit():
    hands = [["5H", "6H", "7H", "2D", "JD"], ["8H", "3D", "4C", "6C", "10D"]]
    game = tonk(hands, up="KC", stock=["9S", "QC"], dealer=1)
    play(game, 0, "draw", "spread 5H 6H 7H", "discard 9S")
    play(game, 1, "draw", "hit 1 8H", "discard QC")
    assert game.view(0)["table"]["spreads"][0]["cards"] == ["5H", "6H", "7H", "8H"]
    assert game.view(1)["table"]["total"] == 3 + 4 + 6 + 10


def test_tonk_spread_shapes():
    # TONK-SPREAD-1/2, TONK-HIT-1: A-2-3 is a run; Q-K-A and K-A-2 are not; a 4th card
    # completes a book; a card not next to a run's end cannot hit it.
    hands = [["QS", "KS", "AS", "2S", "3S"], ["9C", "9D", "9H", "4C", "6C"]]
    game = tonk(hands, up="KC", stock=["10D", "9S", "JH"], dealer=1)
    game.act(0, "draw")  # 10D
    legal = {str(a) for a in game.legal_actions(0)}
    assert "spread AS 2S 3S" in legal
    assert not any(t.startswith("spread") and "QS" in t and "AS" in t for t in legal)
    for bad in ["spread QS KS AS", "spread KS AS 2S"]:
        with pytest.raises(cardcore.IllegalActionError, match=r"\(TONK-SPREAD-2\)"):
            game.act(0, bad)
    play(game, 0, "spread AS 2S 3S", "discard 10D")
    game.act(1, "draw")  # 9S
    with pytest.raises(cardcore.IllegalActionError, match=r"\(TONK-SPREAD-1\)"):
        game.act(1, "spread 9C 9D")  # two cards are no spread
    play(game, 1, "spread 9C 9D 9H", "hit 2 9S", "discard 4C")
    assert sorted(game.view(0)["table"]["spreads"][1]["cards"]) == ["9C", "9D", "9H", "9S"]
    game.act(0, "draw")  # JH
    version = game.version
    with pytest.raises(cardcore.IllegalActionError, match=r"\(TONK-HIT-1\)"):
        game.act(0, "hit 1 KS")  # K does not touch A-2-3 (ace low only)
    assert game.version == version


# --------------------------------------------------------------------------- Tonk: stock out


def test_tonk_stock_out_single_lowest_takes_stake_from_each():
    hands = [
        ["5H", "6H", "7H", "KC", "2D"],
        ["4H", "9S", "9D", "9C", "QD"],
        ["AS", "2S", "3C", "4D", "5C"],
    ]
    pos = tonk_position(hands, ["JC"], "8S", dealer=2, turn=0)
    game = cardcore.new_game("tonk", 3, position=pos, options={"stake": 2}, seed=1)
    play(game, 0, "draw", "discard JC")
    assert game.is_over and game.result.reason == "stock-out"
    assert hand_entries(game)[0]["totals"] == [30, 41, 15]
    assert game.result.payouts == (-2, -2, 4)


def test_tonk_stock_out_tied_lowest_each_take_from_the_others():
    hands = [
        ["5H", "6H", "7H", "KC", "2D"],
        ["4H", "9S", "9D", "9C", "QD"],
        ["10H", "6S", "7C", "3C", "4D"],
    ]
    pos = tonk_position(hands, ["JC"], "8S", dealer=2, turn=0)
    game = cardcore.new_game("tonk", 3, position=pos, seed=1)
    play(game, 0, "draw", "discard JC")
    assert hand_entries(game)[0]["totals"] == [30, 41, 30]
    assert game.result.payouts == (1, -2, 1)


def test_tonk_stock_out_two_player_tie_pays_nothing():
    hands = [["5H", "6H", "7H", "KC", "2D"], ["10H", "6S", "7C", "3C", "4D"]]
    pos = tonk_position(hands, ["JC"], "8S", dealer=1, turn=0)
    game = cardcore.new_game("tonk", 2, position=pos, seed=1)
    play(game, 0, "draw", "discard JC")
    assert game.result.reason == "stock-out"
    assert game.result.payouts == (0, 0)


# --------------------------------------------------------------------------- Tonk: sessions


def test_tonk_session_deal_passes_left_and_balances_add_up():
    hands = [["KS", "KH", "KD", "KC", "9S"], ["2S", "3S", "4S", "5D", "6D"]]
    game = tonk(hands, dealer=1, stake=5, hands=2)
    assert not game.is_over and game.view(None)["table"]["balances"] == [10, -10]
    assert game.to_act == (0,)  # the next dealer is seat 0
    game.act(0, "deal")
    assert game.view(None)["table"]["dealer"] == 0
    assert game.to_act == (1,)  # left of seat 0
    game.act(1, "drop")
    entries = hand_entries(game)
    second = entries[1]
    a, b = second["totals"]
    assert second["reason"] in ("drop-won", "drop-caught")
    expected = (-5, 5) if b < a else (10, -10)  # seat 1 dropped: won S, or caught 2S
    assert tuple(second["amounts"]) == expected
    assert game.result.payouts == (10 + expected[0], -10 + expected[1])
    assert game.result.scores == tuple(p / 5 for p in game.result.payouts)


# --------------------------------------------------------------------------- Tonk: variants


def test_tonk_var1_no_upcard_first_player_must_draw_from_stock():
    hands = [["KS", "KH", "KD", "2C", "5D"], ["AS", "AH", "AD", "2S", "9C"]]
    game = tonk(hands, up="QC", stock=["9S"], dealer=1, rules=["tonk.no-upcard"])
    table = game.view(0)["table"]
    assert table["discard_count"] == 0 and table["stock"] == 52 - 10
    assert [str(a) for a in game.legal_actions(0)] == ["drop", "draw"]
    game.act(0, "draw")
    assert "QC" in game.view(0)["table"]["hand"]  # the would-be upcard is the stock top


def test_tonk_var2_spread_may_not_stay_in_hand_but_three_aces_may():
    hands = [["KS", "KH", "KD", "2C", "5D"], ["AS", "AH", "AD", "2S", "9C"]]
    game = tonk(hands, up="QC", stock=["9S", "JD"], dealer=1, rules=["tonk.must-lay-down"])
    game.act(0, "draw")
    with pytest.raises(cardcore.IllegalActionError, match=r"\(TONK-VAR-2\)"):
        game.act(0, "discard 9S")  # would keep K-K-K in hand
    play(game, 0, "spread KS KH KD", "discard 9S")
    game.act(1, "draw")
    game.act(1, "discard JD")  # keeping A-A-A is allowed
    assert game.to_act == (0,)


def test_tonk_var4_hit_player_may_not_drop_next_turn():
    hands = [["5H", "6H", "7H", "2D", "JD"], ["8H", "3D", "4C", "6C", "10D"]]
    legal = {}
    for rules in ((), ("tonk.hit-blocks-drop",)):
        game = tonk(hands, up="KC", stock=["9S", "QC"], dealer=1, rules=rules)
        play(game, 0, "draw", "spread 5H 6H 7H", "discard 9S")
        play(game, 1, "draw", "hit 1 8H", "discard QC")
        legal[rules] = [str(a) for a in game.legal_actions(0)]
    assert legal[()] == ["drop", "draw", "take"]
    assert legal[("tonk.hit-blocks-drop",)] == ["draw", "take"]


# --------------------------------------------------------------------------- Tonk: every hand of random play


def worked_payout(reason, seat, totals, n, stake):
    """The seed's payouts (with rules-decisions' readings), worked independently."""
    amounts = [0] * n

    def pay(payer, payee, units):
        amounts[payer] -= units * stake
        amounts[payee] += units * stake

    others = [j for j in range(n) if j != seat] if seat is not None else []
    if reason in ("natural", "tonk-out", "out"):
        for j in others:
            pay(j, seat, 1 if reason == "out" else 2)
    elif reason == "stock-out":
        low = [j for j in range(n) if totals[j] == min(totals)]
        for w in low:
            for j in range(n):
                if j not in low:
                    pay(j, w, 1)
    elif reason == "drop-won":
        assert all(totals[seat] < totals[j] for j in others)
        for j in others:
            pay(j, seat, 1)
    elif reason == "drop-caught":
        assert not all(totals[seat] < totals[j] for j in others)
        for j in others:
            if totals[j] <= totals[seat]:
                pay(seat, j, 2)
        low = [j for j in others if totals[j] == min(totals[k] for k in others)]
        for w in low:
            for j in others:
                if j not in low:
                    pay(j, w, 1)
    else:
        assert reason == "void"
    return amounts


@pytest.mark.parametrize("seed", range(0, 120, 3))
def test_tonk_random_sessions_every_hand_pays_as_worked(seed):
    import random

    rng = random.Random(seed)
    n, stake = rng.choice([2, 3, 4]), rng.choice([1, 2, 5])
    game = cardcore.new_game(
        "tonk", n, seed=seed, options={"stake": stake, "hands": 3, "max_players": 4}
    )
    while not game.is_over:
        legal = list(game.legal_actions(game.to_act[0]))
        if len(legal) > 1 and rng.random() < 0.85:
            legal = [a for a in legal if str(a) != "drop"]
        game.apply(rng.choice(legal))
    totals = [0] * n
    entries = hand_entries(game)
    for entry in entries:
        assert entry["amounts"] == worked_payout(
            entry["reason"], entry["seat"], entry["totals"], n, stake
        )
        totals = [t + a for t, a in zip(totals, entry["amounts"], strict=True)]
    assert list(game.result.payouts) == totals
    # TONK-DEALER-2: the deal passes left after every hand, void ones included; three
    # hands are played, void deals not counted.
    dealers = [e["dealer"] for e in entries]
    assert all(b == (a + 1) % n for a, b in itertools.pairwise(dealers))
    assert sum(e["reason"] != "void" for e in entries) == 3


# --------------------------------------------------------------------------- Spit helpers


def spit_position(
    lay0, lay1, spit0=(), spit1=(), left=(), right=(), rest="L", single=-1, phase="play"
):
    """A Spit position: layouts as five piles bottom -> top (the top is face up), spit cards
    and the centre piles bottom -> top; every card not named lies under ``rest``."""
    zones = {}
    for seat, lay in ((0, lay0), (1, lay1)):
        for k in range(5):
            zones[f"layout.{seat}.{k + 1}"] = list(lay[k]) if k < len(lay) else []
    zones |= {
        "spit.0": list(spit0),
        "spit.1": list(spit1),
        "pile.L": list(left),
        "pile.R": list(right),
    }
    used = [c for cards in zones.values() for c in cards]
    assert len(set(used)) == len(used)
    key = {"L": "pile.L", "R": "pile.R", "0": "spit.0", "1": "spit.1"}[rest]
    zones[key] = [c for c in ALL if c not in used] + zones[key]
    head = (
        f'spit v=1 phase="{phase}" deal=1 single={single} ready=[true,true] requests=[false,false] '
        "stall=0 recycled=false emptier=-1"
    )
    parts = [head]
    for name, cards in zones.items():
        if name.startswith("layout"):
            text = " ".join([*cards[:-1], cards[-1] + "!"]) if cards else ""
        elif name.startswith("pile"):
            text = " ".join(c + "!" for c in cards)
        else:
            text = " ".join(cards)
        parts.append(f"{name}: {text}".rstrip())
    return " | ".join(parts)


def spit(*args, rules=(), options=None, seed=1, **kw):
    pos = spit_position(*args, **kw)
    return cardcore.new_game(
        "spit", 2, position=pos, seed=seed, rules=list(rules), options=options or {}
    )


def legal(game, seat):
    return [str(a) for a in game.legal_actions(seat)]


def spit_table(game):
    return game.view(None)["table"]


def card_counts(game):
    """Cards per seat (layout + spit cards) and in the centre, from the public view."""
    table = spit_table(game)
    centre = sum(len(p or []) for p in table["piles"].values())
    return [s["cards"] for s in table["seats"]], centre


# --------------------------------------------------------------------------- Spit: the deal


def spit_received(piles, spit_top_first):
    """The order a player receives cards so that the layout is ``piles`` (bottom -> top):
    row r puts a card on each pile k >= r (SPIT-SETUP-4/7); then the spit cards, the 16th
    received card on top."""
    return [piles[k][r] for r in range(5) for k in range(r, 5)] + list(spit_top_first)


def spit_deck(piles0, spit0, piles1, spit1):
    a, b = spit_received(piles0, spit0), spit_received(piles1, spit1)
    return " ".join(c for pair in zip(a, b, strict=True) for c in pair)


PILES0 = [
    ["5H"],
    ["KC", "9H"],
    ["2C", "3C", "9S"],
    ["4C", "6C", "7C", "JD"],
    ["8C", "10C", "QC", "KD", "AH"],
]
SPIT0 = ["2H", "3H", "4H", "5S", "6H", "7H", "8H", "10H", "JH", "QH", "KH"]
PILES1 = [
    ["AS"],
    ["AC", "3S"],
    ["5C", "9C", "4S"],
    ["JC", "2D", "3D", "6S"],
    ["4D", "5D", "6D", "7D", "7S"],
]
SPIT1 = ["8S", "8D", "9D", "10S", "10D", "JS", "QS", "QD", "KS", "AD", "2S"]


def test_spit_first_deal_layout_and_spit_cards():
    # SPIT-SETUP-1/2/3/7: 26 each; piles of 1..5 cards, each with one face-up top.
    game = cardcore.new_game("spit", 2, deck=spit_deck(PILES0, SPIT0, PILES1, SPIT1))
    table = game.view(0)["table"]
    for seat, piles in ((0, PILES0), (1, PILES1)):
        layout = table["seats"][seat]["layout"]
        assert [len(p) for p in layout] == [1, 2, 3, 4, 5]
        assert [p[0] for p in layout] == [p[-1] for p in piles]  # tops, view is top first
        assert all(c is None for p in layout for c in p[1:])  # face down: hidden from all
        assert table["seats"][seat]["spit_cards"] == 11 and table["seats"][seat]["cards"] == 26
    assert table["phase"] == "setup" and table["piles"] == {"L": None, "R": None}


def test_spit_setup_allows_only_combine_fill_ready_then_both_spit_cards_turn():
    game = cardcore.new_game("spit", 2, deck=spit_deck(PILES0, SPIT0, PILES1, SPIT1))
    # Seat 0's tops 5H 9H 9S JD AH: the two nines may be combined (SPIT-SETUP-6).
    assert sorted(legal(game, 0)) == ["combine 2 3", "combine 3 2", "ready"]
    with pytest.raises(cardcore.IllegalActionError, match=r"\(SPIT-SETUP-6\)"):
        game.act(0, "play 1 L")
    game.act(0, "combine 3 2")  # 9S onto 9H: 3C turns up under it
    layout = game.view(1)["table"]["seats"][0]["layout"]
    assert layout[2] == ["3C", None] and layout[1] == ["9S", "9H", None]
    game.act(0, "ready")
    assert spit_table(game)["piles"] == {"L": None, "R": None}
    game.act(1, "ready")
    # SPIT-START-1: each turns its top spit card: seat 0's starts L, seat 1's starts R.
    assert spit_table(game)["piles"] == {"L": ["2H"], "R": ["8S"]}
    assert [s["spit_cards"] for s in spit_table(game)["seats"]] == [10, 10]


# --------------------------------------------------------------------------- Spit: moves


def test_spit_play_adjacency_every_rank_pair():
    # SPIT-MOVE-2/3/4: a card goes on a pile iff its rank is one above or below, A next to
    # both 2 and K; same rank never; suits never matter. Worked independently for every pair.
    for top in range(13):
        for group in ([0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 0, 1]):
            lay0 = [[RANKS[r] + "H"] for r in group]
            r_top = (top + 6) % 13
            lay1 = [[RANKS[(r_top + 1) % 13] + "C"]]  # seat 1 always has a play on R
            game = spit(lay0, lay1, left=[RANKS[top] + "S"], right=[RANKS[r_top] + "D"])
            expected = [
                f"play {k + 1} {pile}"
                for k, r in enumerate(group)
                for pile, p in (("L", top), ("R", r_top))
                if (r - p) % 13 in (1, 12)
            ]
            assert [t for t in legal(game, 0) if t.startswith("play")] == expected, (top, group)


def test_spit_play_uncovers_the_card_below_which_may_then_be_played():
    game = spit(
        [["5H"], ["7C", "6H"]],
        [["KC"], ["QC"]],
        spit0=["2C"],
        spit1=["3C"],
        left=["4S"],
        right=["9D"],
    )
    version = game.version
    with pytest.raises(cardcore.IllegalActionError, match=r"\(SPIT-MOVE-2\)"):
        game.act(0, "play 2 L")  # 6H is not next to 4S
    assert game.version == version
    game.act(0, "play 1 L")  # 5H on 4S
    game.act(0, "play 2 L")  # 6H on 5H; 7C turns up (SPIT-MOVE-7)
    assert spit_table(game)["seats"][0]["layout"][1] == ["7C"]
    game.act(0, "play 2 L")  # 7C on 6H
    assert spit_table(game)["piles"]["L"][:4] == ["7C", "6H", "5H", "4S"]


def test_spit_combine_and_fill_in_play():
    # SPIT-MOVE-5: same rank only; SPIT-MOVE-6: any top into an empty position.
    game = spit(
        [["9H"], ["2C", "9S"], ["3C", "4C", "JD"]],
        [["KC"], ["QC"]],
        spit0=["5C"],
        spit1=["6C"],
        left=["5S"],
        right=["3D"],
    )
    with pytest.raises(cardcore.IllegalActionError, match=r"\(SPIT-MOVE-5\)"):
        game.act(0, "combine 3 1")  # JD is not a nine
    game.act(0, "combine 2 1")  # 9S onto 9H; 2C turns up
    layout = spit_table(game)["seats"][0]["layout"]
    assert layout[0] == ["9S", "9H"] and layout[1] == ["2C"]
    game.act(0, "fill 3 4")  # JD into empty position 4; 4C turns up
    layout = spit_table(game)["seats"][0]["layout"]
    assert layout[2] == ["4C", None] and layout[3] == ["JD"]
    assert card_counts(game)[0] == [1 + 2 + 3 + 1, 2 + 1]
    with pytest.raises(cardcore.IllegalActionError, match=r"\(SPIT-MOVE-6\)"):
        game.act(0, "fill 1 4")  # position 4 is no longer empty


def test_spit_both_request_spit_each_spits_onto_own_pile():
    # SPIT-STUCK-1/2: both could still play; both ask; each turns its top spit card onto
    # its own home pile.
    game = spit(
        [["5H"], ["9C"]],
        [["KC"], ["QC"]],
        spit0=["2C", "3C"],
        spit1=["AD", "3D", "4D"],
        left=["4S"],
        right=["7D"],
    )
    game.act(0, "spit")
    assert spit_table(game)["piles"]["L"][0] == "4S" and spit_table(game)["piles"]["R"] == ["7D"]
    assert "spit" not in legal(game, 0) and "play 1 L" in legal(game, 0)
    game.act(1, "spit")
    piles = spit_table(game)["piles"]
    assert piles["L"][:2] == ["3C", "4S"] and piles["R"] == ["4D", "7D"]
    assert [s["spit_cards"] for s in spit_table(game)["seats"]] == [1, 2]


def test_spit_a_play_clears_a_pending_spit_request():
    game = spit(
        [["5H"], ["6H"]],
        [["KC"], ["QC"]],
        spit0=["2C", "3C"],
        spit1=["AD", "3D", "4D"],
        left=["4S"],
        right=["7D"],
    )
    game.act(1, "spit")
    assert [s["requested"] for s in spit_table(game)["seats"]] == [False, True]
    game.act(0, "play 1 L")  # a card reaches a spit pile: requests are cleared (SPIT-STUCK-3)
    assert [s["requested"] for s in spit_table(game)["seats"]] == [False, False]
    assert spit_table(game)["piles"]["R"] == ["7D"]  # and no spit happened
    game.act(0, "spit")
    assert spit_table(game)["piles"]["R"] == ["7D"]  # one request alone spits nothing


def test_spit_automatic_spits_repeat_until_someone_can_play():
    # After 5H goes on 4S nobody can play: both spit (3C on L, 4D on R), still stuck, both
    # spit (2C, 3D); seat 0 is out of spit cards so only seat 1 spits AD; KC fits on AD.
    game = spit(
        [["5H"], ["9C"]],
        [["KC"], ["QC"]],
        spit0=["2C", "3C"],
        spit1=["AD", "3D", "4D"],
        left=["4S"],
        right=["7D"],
    )
    game.act(0, "play 1 L")
    piles = spit_table(game)["piles"]
    assert piles["L"][:4] == ["2C", "3C", "5H", "4S"]
    assert piles["R"] == ["AD", "3D", "4D", "7D"]
    assert "play 1 R" in legal(game, 1)


def test_spit_recycle_when_neither_has_spit_cards():
    # SPIT-STUCK-5: each centre pile keeps its top; the cards below become the starter's
    # spit cards; then the spit: seat 1's only recycled card (2D) goes back on R.
    game = spit([["5H"], ["9C"]], [["KC"], ["QC"]], left=["4S"], right=["2D", "7D"])
    under_l = 52 - 4 - 2  # every other card lies in L
    game.act(0, "play 1 L")
    table = spit_table(game)
    assert table["piles"]["R"] == ["2D", "7D"]
    assert table["piles"]["L"][1] == "5H"
    # seat 0 got the under_l cards below 5H and spat at least one of them
    spat = len(table["piles"]["L"]) - 1
    assert spat >= 1 and table["seats"][0]["spit_cards"] == under_l - spat
    assert table["seats"][1]["spit_cards"] == 0


# --------------------------------------------------------------------------- Spit: deal ends, slap, game end


def ending(**kw):
    # Seat 0 holds 5H + 2 spit cards; L = 2S 3S 4S, R = 8D 7D; seat 1 holds the rest.
    return spit(
        [["5H"]],
        [["KC"], ["9D", "QC"]],
        spit0=["2C", "3C"],
        spit1=["AD", "3D", "4D"],
        left=["2S", "3S", "4S"],
        right=["8D", "7D"],
        rest="1",
        **kw,
    )


def test_spit_deal_ends_on_empty_layout_only_slaps_then():
    game = ending()
    game.act(0, "play 1 L")
    assert spit_table(game)["phase"] == "claim"
    # Nobody could play now, but the deal is over: no automatic spit (SPIT-END-1).
    assert spit_table(game)["piles"] == {"L": ["5H", "4S", "3S", "2S"], "R": ["7D", "8D"]}
    assert [s["spit_cards"] for s in spit_table(game)["seats"]] == [2, 41]
    assert legal(game, 0) == ["slap L", "slap R"] and legal(game, 1) == ["slap L", "slap R"]
    with pytest.raises(cardcore.IllegalActionError, match=r"\(SPIT-END-1\)"):
        game.act(1, "play 1 R")


def test_spit_slap_takes_pile_other_player_gets_the_other_and_second_slap_is_stale():
    # Seat 1 slaps R (2 cards): seat 1 = 44 + 2 = 46; seat 0 takes L (2S 3S 4S 5H) and
    # adds its 2 spit cards: 6 cards, so the next deal is single-pile with no spit cards
    # for seat 0 and 46 - 15 = 31 for seat 1; 6 cards lay out as [1, 2, 1, 1, 1].
    game = ending()
    assert card_counts(game) == ([3, 44], 5)
    game.act(0, "play 1 L")
    seen = game.version
    game.act(1, "slap R")
    with pytest.raises(cardcore.StaleActionError):
        game.act(0, "slap L", seen=seen)
    table = spit_table(game)
    assert table["deal"] == 2 and table["mode"] == "single-pile"
    assert [s["cards"] for s in table["seats"]] == [6, 46]
    assert [s["spit_cards"] for s in table["seats"]] == [0, 31]
    assert [len(p) for p in table["seats"][0]["layout"]] == [1, 2, 1, 1, 1]
    assert [len(p) for p in table["seats"][1]["layout"]] == [1, 2, 3, 4, 5]
    game.act(0, "ready")
    game.act(1, "ready")
    piles = spit_table(game)["piles"]
    assert piles["L"] is None and len(piles["R"]) == 1  # SPIT-START-2: only seat 1 turns


def test_spit_slapping_the_bigger_pile_still_takes_it():
    game = ending()
    game.act(0, "play 1 L")
    game.act(0, "slap L")  # 4 cards: seat 0 takes L, seat 1 gets R
    assert [s["cards"] for s in spit_table(game)["seats"]] == [2 + 4, 44 + 2]


def test_spit_chooser_rule_only_the_emptier_chooses():
    game = ending(rules=["spit.chooser"])
    game.act(0, "play 1 L")
    assert legal(game, 0) == ["choose L", "choose R"] and legal(game, 1) == []
    game.act(0, "choose R")
    assert [s["cards"] for s in spit_table(game)["seats"]] == [2 + 2, 44 + 4]


def test_spit_single_pile_player_without_spit_cards_empties_first_and_wins():
    game = spit(
        [["5H"]],
        [["KC"], ["9D", "QC"]],
        spit1=["AD", "3D", "4D"],
        right=["2S", "3S", "4S"],
        rest="1",
        single=1,
    )
    assert spit_table(game)["mode"] == "single-pile"
    game.act(0, "play 1 R")
    assert game.is_over
    assert game.result.winners == (0,)
    assert game.result.reason == "out of cards"


def test_spit_single_pile_opponent_empties_first_small_player_takes_pile_and_own_layout():
    # SPIT-END-6: seat 1 empties first and takes nothing, keeping its spit cards; seat 0 takes
    # R (2S 3S 4S + 3H 2H = 5) and its own layout (5H 7C): 7 cards; seat 1 keeps 45.
    game = spit(
        [["5H"], ["7C"]],
        [["3H"], ["2H"]],
        spit1=["AD", "3D", "4D"],
        right=["2S", "3S", "4S"],
        rest="1",
        single=1,
    )
    game.act(1, "play 1 R")
    game.act(1, "play 2 R")
    assert not game.is_over
    table = spit_table(game)
    assert table["deal"] == 2 and table["mode"] == "single-pile"
    assert [s["cards"] for s in table["seats"]] == [7, 45]
    assert [len(p) for p in table["seats"][0]["layout"]] == [1, 2, 2, 1, 1]


def test_spit_stale_versus_illegal_on_a_contested_pile():
    # SPIT-GAP-2: L shows 6S; seat 0 plays 7H first. Seat 1's 8C (seen before) is still
    # legal on 7H; its 5C was legal on 6S at the version it saw, so it is stale; its KC was
    # never legal there.
    game = spit(
        [["7H"], ["9C"]],
        [["8C"], ["5C"], ["KC"]],
        spit0=["2C"],
        spit1=["3C"],
        left=["6S"],
        right=["JD"],
    )
    seen = game.version
    game.act(0, "play 1 L")
    with pytest.raises(cardcore.StaleActionError):
        game.act(1, "play 2 L", seen=seen)
    with pytest.raises(cardcore.IllegalActionError, match=r"\(SPIT-MOVE-2\)") as info:
        game.act(1, "play 3 L", seen=seen)
    assert not isinstance(info.value, cardcore.StaleActionError)
    game.act(1, "play 1 L", seen=seen)
    assert spit_table(game)["piles"]["L"][:3] == ["8C", "7H", "6S"]


@pytest.mark.parametrize(
    ("spit_cards", "mode", "layout_spit"), [(11, "single-pile", 0), (12, "two-pile", 1)]
)
def test_spit_fifteen_cards_is_single_pile_sixteen_is_not(spit_cards, mode, layout_spit):
    # SPIT-END-5 / SPIT-GAP-13: seat 0 ends the deal with its spit cards + L (2S 3S 4S 5H).
    clubs = [c for c in ALL if c.endswith("C")][:spit_cards]
    game = spit(
        [["5H"]],
        [["KH"], ["9D", "QH"]],
        spit0=clubs,
        spit1=["AD", "3D", "4D"],
        left=["2S", "3S", "4S"],
        right=["8D", "7D"],
        rest="1",
    )
    game.act(0, "play 1 L")
    game.act(1, "slap R")
    table = spit_table(game)
    assert table["mode"] == mode
    assert table["seats"][0]["cards"] == spit_cards + 4
    assert table["seats"][0]["spit_cards"] == layout_spit
    assert [len(p) for p in table["seats"][0]["layout"]] == [1, 2, 3, 4, 5]


def test_spit_single_pile_starter_who_spat_everything_and_empties_first_holds_nothing_and_wins():
    # SPIT-WIN-4: seat 1 (the pile's starter) has no spit cards left and empties first.
    game = spit([["5H"], ["7C"]], [["3H"], ["2H"]], right=["2S", "3S", "4S"], rest="R", single=1)
    game.act(1, "play 1 R")
    game.act(1, "play 2 R")
    assert game.is_over and game.result.winners == (1,) and game.result.reason == "out of cards"


class Scripted:
    """A real-time agent that plays the first legal action whose text it wants, after a
    fixed delay."""

    def __init__(self, wants, delay):
        self.wants, self.delay = set(wants), delay

    def plan(self, view, legal_now, now):
        from cardcore.agents import Plan

        for action in legal_now:
            if str(action) in self.wants:
                return Plan(action, self.delay)
        return None


def test_spit_simultaneous_slaps_are_broken_by_the_seed_not_the_seat():
    # SPIT-RT-2: both slap R at the same virtual time; over 24 tie-break seeds each seat
    # must win some races, and the same seed always gives the same winner.
    first = []
    for seed in range(24):
        runs = []
        for _ in range(2):
            game = ending()
            agents = [Scripted({"play 1 L", "slap R"}, 1.0), Scripted({"slap R"}, 1.0)]
            result = cardcore.run_realtime(game, agents, seed=seed, max_actions=2)
            actions = game.record()["actions"]
            assert [a[1] for a in actions] == ["play 1 L", "slap R"]
            assert actions[1][2] == 2.0
            runs.append(actions[1][0])
            slapper = actions[1][0]
            # The slapper took R (2 cards), the other L (4 cards).
            counts = [s["cards"] for s in spit_table(game)["seats"]]
            assert counts == ([2 + 4, 44 + 2] if slapper == 1 else [2 + 2, 44 + 4])
            assert result.reason == "truncated"
        assert runs[0] == runs[1]
        first.append(runs[0])
    assert set(first) == {0, 1}


def test_spit_bots_keep_every_card_and_the_winner_holds_none():
    from cardcore_spit.agents import SpitGreedyAgent, SpitHumanAgent

    def check(game, action, at):
        seats, centre = card_counts(game)
        assert sum(seats) + centre == 52
        assert all(len(s["layout"]) == 5 for s in spit_table(game)["seats"])

    records = []
    for _ in range(2):
        game = cardcore.new_game("spit", 2, seed=11)
        result = cardcore.run_realtime(
            game, [SpitGreedyAgent(seed=3), SpitHumanAgent(seed=4)], seed=5, on_action=check
        )
        records.append(game.record()["actions"])
        assert result.reason == "out of cards"
        (winner,) = result.winners
        assert spit_table(game)["seats"][winner]["cards"] == 0
        assert spit_table(game)["seats"][1 - winner]["cards"] == 52
    assert records[0] == records[1]
    times = [a[2] for a in records[0]]
    assert times == sorted(times)


# --------------------------------------------------------------------------- Speed


def speed_position(
    hand0, hand1, stock0=(), stock1=(), side0=(), side1=(), left=(), right=(), rest="L", jokers=0
):
    """A Speed position; stocks, side piles and play piles bottom -> top."""
    zones = {
        "hand.0": list(hand0),
        "hand.1": list(hand1),
        "stock.0": list(stock0),
        "stock.1": list(stock1),
        "side.0": list(side0),
        "side.1": list(side1),
        "pile.L": list(left),
        "pile.R": list(right),
    }
    unused = ALL + ["JK"] * jokers
    for cards in zones.values():
        for c in cards:
            unused.remove(c)
    key = {"L": "pile.L", "R": "pile.R"}[rest]
    zones[key] = unused + zones[key]
    parts = ["speed v=1 requests=[false,false] recycled=false"]
    for name, cards in zones.items():
        if name.startswith("hand"):
            text = " ".join(f"{c}@{name[-1]}" for c in cards)
        elif name.startswith("pile"):
            text = " ".join(c + "!" for c in cards)
        else:
            text = " ".join(cards)
        parts.append(f"{name}: {text}".rstrip())
    return " | ".join(parts)


def speed(*args, jokers=0, rules=(), seed=1, **kw):
    pos = speed_position(*args, jokers=jokers, **kw)
    options = {"jokers": jokers} if jokers else {}
    return cardcore.new_game(
        "speed", 2, position=pos, seed=seed, rules=list(rules), options=options
    )


@pytest.mark.parametrize(
    ("options", "hand", "stock", "side"),
    [
        ({}, 5, 15, 5),
        ({"side_pile": 15}, 5, 5, 15),
        ({"jokers": 2}, 5, 16, 5),
        ({"jokers": 2, "side_pile": 15}, 5, 6, 15),
    ],
)
def test_speed_deal_sizes(options, hand, stock, side):
    # SPEED-SETUP-2/3: 2 + 2*5 + 2*20 = 52; 2 + 2*15 + 2*10 = 52; jokers add one stock card each.
    game = cardcore.new_game("speed", 2, seed=7, options=options)
    table = game.view(0)["table"]
    for seat in table["seats"]:
        assert (len(seat["hand"]), seat["stock"], seat["side"]) == (hand, stock, side)
    assert all(len(p) == 1 for p in table["piles"].values())  # both play piles turned up


SPEED_HANDS = (["2H", "9C", "9D", "9H", "9S"], ["5C", "5D", "5H", "5S", "JC"])


def test_speed_play_adjacency_and_refill_from_own_stock():
    game = speed(
        *SPEED_HANDS,
        stock0=["KD", "3D"],
        stock1=["QD"],
        side0=["JD"],
        side1=["4D"],
        left=["AC"],
        right=["KH"],
    )
    assert legal(game, 0) == ["play 2H L", "stuck"]  # 2 on A; nothing on K (needs Q or A)
    assert legal(game, 1) == ["stuck"]
    game.act(0, "play 2H L")
    seat0 = game.view(0)["table"]["seats"][0]
    assert (
        sorted(seat0["hand"]) == sorted(["3D", "9C", "9D", "9H", "9S"]) and seat0["stock"] == 1
    )  # 3D was on top


def test_speed_nobody_can_play_each_turns_own_side_card_onto_own_pile():
    game = speed(
        *SPEED_HANDS,
        stock0=["KD", "6D"],
        stock1=["QD"],
        side0=["3C", "JD"],
        side1=["8S", "4D"],
        left=["AC"],
        right=["KH"],
    )
    game.act(0, "play 2H L")  # refill 6D; nobody fits 2H or KH
    table = spit_table(game)
    assert table["piles"]["L"][:3] == ["JD", "2H", "AC"] and table["piles"]["R"][:2] == ["4D", "KH"]
    assert [s["side"] for s in table["seats"]] == [1, 1]


def test_speed_both_declare_stuck_turns_side_cards_even_with_a_play():
    game = speed(
        *SPEED_HANDS,
        stock0=["KD", "6D"],
        stock1=["QD"],
        side0=["3C", "JD"],
        side1=["8S", "4D"],
        left=["AC"],
        right=["KH"],
    )
    game.act(0, "stuck")
    assert spit_table(game)["piles"]["L"][0] == "AC"
    game.act(1, "stuck")
    assert spit_table(game)["piles"]["L"][0] == "JD" and spit_table(game)["piles"]["R"][0] == "4D"


def test_speed_recycle_when_side_piles_are_empty():
    # SPEED-STUCK-2: R keeps KH, 3D below it becomes seat 1's side pile and is turned.
    game = speed(*SPEED_HANDS, stock0=["KD", "6D"], stock1=["QD"], left=["AC"], right=["3D", "KH"])
    cards_in_l = 52 - 10 - 3 - 2 + 1  # every other card plus 2H
    game.act(0, "play 2H L")
    table = spit_table(game)
    assert table["piles"]["R"] == ["3D", "KH"]
    assert table["piles"]["L"][-1] == "2H"  # kept top, now under the turned side cards
    assert table["seats"][1]["side"] == 0
    assert table["seats"][0]["side"] + len(table["piles"]["L"]) == cards_in_l


def test_speed_jokers_are_wild_both_ways():
    game = speed(
        ["JK", "9C", "9D", "9H", "9S"],
        SPEED_HANDS[1],
        stock0=["KD", "6D"],
        stock1=["QD"],
        side0=["JD"],
        side1=["4D"],
        left=["AC"],
        right=["KH"],
        jokers=2,
    )
    assert legal(game, 0) == ["play JK L", "play JK R", "stuck"]
    game.act(0, "play JK R")
    assert legal(game, 1) == [
        "play 5C R",
        "play 5D R",
        "play 5H R",
        "play 5S R",
        "play JC R",
        "stuck",
    ]


def test_speed_empty_hand_and_stock_wins():
    game = speed(
        ["2H"],
        SPEED_HANDS[1],
        stock1=["QD"],
        side0=["3C", "JD"],
        side1=["8S", "4D"],
        left=["AC"],
        right=["KH"],
    )
    game.act(0, "play 2H L")
    assert game.is_over and game.result.winners == (0,)
    assert game.result.scores == (0.0, 6.0)


@pytest.mark.parametrize(("stock1_size", "winners"), [(13, (1,)), (14, (0, 1))])
def test_speed_stalemate_fewer_cards_wins_equal_is_a_draw(stock1_size, winners):
    # Every 7, J, K and the other 10s are in the stocks and every 8 in seat 1's hand, so
    # after 4S goes on 3S nothing in either hand can ever be played: the side piles are
    # turned, recycled, turned again; the second recycle ends it (SPEED-END-2).
    # Seat 0 holds 5 + 14 (QS refilled) = 19, seat 1 5 + stock1_size.
    fill = [c for c in ALL if c[:-1] in ("A", "2", "3", "5", "6") and c != "3S"] + [
        "4H",
        "4D",
        "4C",
        "QH",
        "QD",
        "QC",
    ]
    stock0 = ["7S", "7H", "7D", "7C", "JS", "JH", "JD", *fill[:7], "QS"]
    extra = stock1_size - 8
    stock1 = ["JC", "KS", "KH", "KD", "KC", "10H", "10D", "10C", *fill[7 : 7 + extra]]
    rest = fill[7 + extra :]
    game = speed(
        ["9C", "9D", "9H", "9S", "4S"],
        ["8S", "8H", "8D", "8C", "10S"],
        stock0=stock0,
        stock1=stock1,
        side0=rest[:5],
        side1=rest[5:10],
        left=["3S"],
        right=[rest[-1]],
    )
    game.act(0, "play 4S L")
    assert game.is_over
    assert game.result.winners == winners
    assert game.result.scores == (19.0, 5.0 + stock1_size)


# --------------------------------------------------------------------------- more Tonk and Spit corners


def test_tonk_last_stock_card_turn_is_finished_then_the_hand_ends():
    # TONK-STOCK-1: seat 0 draws the last stock card (8H), lays 5H-8H, discards KC and holds
    # 2D; seat 1's turn begins with an empty stock: stock-out, 2 against 41.
    hands = [["5H", "6H", "7H", "KC", "2D"], ["4H", "9S", "9D", "9C", "QD"]]
    game = cardcore.new_game(
        "tonk", 2, position=tonk_position(hands, ["8H"], "8S", dealer=1, turn=0), seed=1
    )
    play(game, 0, "draw", "spread 5H 6H 7H 8H")
    assert not game.is_over
    game.act(0, "discard KC")
    assert game.result.reason == "stock-out"
    assert hand_entries(game)[0]["totals"] == [2, 41]
    assert game.result.payouts == (1, -1)


def test_tonk_going_out_on_the_last_stock_card_is_out_not_stock_out():
    hands = [["5H", "6H", "7H", "8H", "KC"], ["4H", "9S", "9D", "9C", "QD"]]
    pos = tonk_position(hands, ["9H"], "8S", dealer=1, turn=0)
    game = cardcore.new_game("tonk", 2, position=pos, seed=1, options={"stake": 3})
    play(game, 0, "draw", "spread 5H 6H 7H 8H 9H", "discard KC")
    assert game.result.reason == "out"
    assert game.result.payouts == (3, -3)


def test_tonk_taken_discard_may_not_be_left_alone_in_hand():
    # TONK-TURN-4/5: after taking KD, laying 5H-9H (or hitting down to KD) would leave only
    # the card that may not be discarded.
    game = tonk(
        [["5H", "6H", "7H", "8H", "9H"], ["2S", "3D", "4C", "6C", "10D"]], up="KD", dealer=1
    )
    game.act(0, "take")
    assert "spread 5H 6H 7H 8H 9H" not in legal(game, 0)
    play(game, 0, "spread 5H 6H 7H", "hit 1 8H")
    with pytest.raises(cardcore.IllegalActionError, match=r"\(TONK-TURN-5\)"):
        game.act(0, "hit 1 9H")
    assert legal(game, 0) == ["discard 9H"]


def test_tonk_cut_for_dealer_highest_deals_ties_redraw():
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    redraws = 0
    for seed in range(150):
        n = 2 + seed % 3
        game = cardcore.new_game("tonk", n, seed=seed, options={"max_players": 4, "hands": 2})
        cut = game.history(None)[0]
        assert cut["kind"] == "cut"
        contenders = list(range(n))
        for cards in cut["rounds"]:
            ranks = {s: order.index(cards[s]) for s in contenders}
            assert all(cards[s] is None for s in range(n) if s not in contenders)
            contenders = [s for s in contenders if ranks[s] == max(ranks.values())]
        redraws += len(cut["rounds"]) > 1
        assert contenders == [cut["dealer"]]
        if not hand_entries(game):  # no natural ended the first hand at once
            assert game.to_act == ((cut["dealer"] + 1) % n,)
    assert redraws > 0


def test_spit_void_deal_each_gathers_own_layout_spit_cards_and_home_pile():
    # SPIT-STUCK-6. Every 7..K lies in the layouts (tops 8 9 10 J / 8 9 10 J Q, the rest face
    # down), every A..6 in the spit cards and centre piles, so once 3H goes on 2S nothing can
    # ever be played: spits, a recycle, spits, and the second recycle voids the deal.
    # Seat 0 gathers 14 layout + 2 spit + L (6 + 3H) = 23; seat 1 15 + 8 + 6 = 29.
    high = [c for c in ALL if c[:-1] in ("7", "8", "9", "10", "J", "Q", "K")]
    tops = ["8H", "9H", "10H", "JH", "QH", "8S", "9S", "10S", "JS", "QS"]
    down = [c for c in high if c not in tops] + ["6C"]
    lay0 = [["8H"], ["QH", "3H"], [*down[0:2], "9H"], [*down[2:5], "10H"], [*down[5:9], "JH"]]
    lay1 = [
        ["8S"],
        [down[9], "9S"],
        [*down[10:12], "10S"],
        [*down[12:15], "JS"],
        [*down[15:19], "QS"],
    ]
    low = [
        c
        for c in ALL
        if c[:-1] in ("A", "2", "3", "4", "5", "6") and c not in ("3H", "6C", "2S", "5D")
    ]
    game = spit(
        lay0,
        lay1,
        spit0=low[0:2],
        spit1=low[2:10],
        left=[*low[10:15], "2S"],
        right=[*low[15:20], "5D"],
    )
    assert legal(game, 1) == ["spit"]
    game.act(0, "play 2 L")
    table = spit_table(game)
    assert table["phase"] == "setup" and table["piles"] == {"L": None, "R": None}
    assert [s["cards"] for s in table["seats"]] == [23, 29]
    assert [s["spit_cards"] for s in table["seats"]] == [8, 14]


@pytest.mark.parametrize("limit", [3, 20])
def test_spit_stall_limit_forces_a_spit(limit):
    # SPIT-STUCK-3 (c): fills that uncover nothing, ``stall_limit`` in a row, force a spit.
    game = spit(
        [["5H"], ["9C"]],
        [["KC"], ["QC"]],
        spit0=["2C", "3C"],
        spit1=["AD", "3D", "4D"],
        left=["4S"],
        right=["7D"],
        options={"stall_limit": limit},
    )
    for i in range(limit):
        assert spit_table(game)["piles"]["R"] == ["7D"], i
        game.act(0, ["fill 1 3", "fill 3 1"][i % 2])
    assert spit_table(game)["piles"]["R"][:2] == ["4D", "7D"]
    assert spit_table(game)["piles"]["L"][:2] == ["3C", "4S"]


def test_tonk_only_the_top_discard_is_shown_even_to_who_discarded():
    game = tonk(
        [["AS", "2H", "3D", "5C", "9C"], ["2S", "3S", "4S", "5D", "6D"]],
        up="QS",
        stock=["KD", "KH"],
        dealer=1,
    )
    play(game, 0, "draw", "discard KD")
    play(game, 1, "draw", "discard KH")
    for seat in (0, 1, None):
        view = game.view(seat)
        (discard,) = [z for z in view["zones"] if z["name"] == "discard"]
        assert discard["cards"] == ["KH", None, None] and discard["count"] == 3
        assert "KD" not in str(view) and "QS" not in str(view)


def test_tonk_var5_stock_out_play_goes_on_from_the_discards_until_a_quiet_round():
    hands = [["5H", "6H", "7H", "KC", "2D"], ["4H", "9S", "9D", "9C", "QD"]]
    pos = tonk_position(hands, ["JC"], "8S", dealer=1, turn=0)
    game = cardcore.new_game("tonk", 2, position=pos, seed=1, rules=["tonk.stock-out-discard-only"])
    play(game, 0, "draw", "discard JC")
    assert legal(game, 1) == ["drop", "draw", "take"]
    play(game, 1, "take", "discard QD")
    assert not game.is_over and legal(game, 0) == ["drop", "draw", "take"]
    play(game, 0, "take", "discard KC")  # two quiet turns from the discards: a full round
    assert game.result.reason == "stock-out"
    # seat 0: 2D 5H 6H 7H QD = 30; seat 1: 4H 9S 9D 9C JC = 41
    assert hand_entries(game)[0]["totals"] == [30, 41]
    assert game.result.payouts == (1, -1)


def test_tonk_natural_still_checked_without_upcard():
    hands = [["KS", "KH", "KD", "KC", "9S"], ["2S", "3S", "4S", "5D", "6D"]]
    game = tonk(hands, dealer=1, stake=2, rules=["tonk.no-upcard"])
    assert game.result.reason == "natural" and game.result.payouts == (4, -4)


def test_speed_stuck_at_the_deal_turns_side_cards_at_once():
    # Deck order (SPEED-SETUP-3): L, R, seat 0's side (top first), seat 1's side, then the
    # hands alternately. Nothing fits A or K, so 4S and 8S are turned before anyone acts.
    h0, h1 = ["9C", "9D", "9H", "9S", "5C"], ["5D", "5H", "5S", "JC", "7D"]
    side0, side1 = ["4S", "2C", "3C", "6C", "7C"], ["8S", "2D", "3D", "4D", "6D"]
    top = ["AC", "KH", *side0, *side1] + [c for pair in zip(h0, h1, strict=True) for c in pair]
    game = cardcore.new_game("speed", 2, deck=" ".join(top), seed=1)
    table = spit_table(game)
    assert table["piles"] == {"L": ["4S", "AC"], "R": ["8S", "KH"]}
    assert [(s["side"], s["stock"]) for s in table["seats"]] == [(4, 15), (4, 15)]
    assert sorted(game.view(0)["table"]["seats"][0]["hand"]) == sorted(h0)


def test_speed_one_empty_side_pile_only_the_other_turns_and_no_refill_from_empty_stock():
    game = speed(
        ["2H", "9C", "9D", "9H", "9S"],
        ["5C", "5D", "5H", "5S", "JC"],
        stock1=["QD"],
        side1=["3C", "4D"],
        left=["AC"],
        right=["KH"],
    )
    game.act(0, "play 2H L")
    table = spit_table(game)
    assert table["piles"]["L"][:2] == ["2H", "AC"] and table["piles"]["R"][:2] == ["4D", "KH"]
    assert [(s["stock"], s["side"]) for s in table["seats"]] == [(0, 0), (1, 1)]
    assert sorted(game.view(0)["table"]["seats"][0]["hand"]) == ["9C", "9D", "9H", "9S"]


def test_speed_stuck_on_request_needs_both_declarations():
    game = speed(
        ["2H", "9C", "9D", "9H", "9S"],
        ["5C", "5D", "5H", "5S", "JC"],
        stock0=["KD", "6D"],
        stock1=["QD"],
        side0=["3C", "JD"],
        side1=["8S", "4D"],
        left=["AC"],
        right=["KH"],
        rules=["speed.stuck-on-request"],
    )
    game.act(0, "play 2H L")  # nobody can play, but nothing turns by itself
    assert spit_table(game)["piles"]["L"][:1] == ["2H"] and spit_table(game)["piles"]["R"] == ["KH"]
    game.act(0, "stuck")
    assert spit_table(game)["piles"]["R"] == ["KH"]
    game.act(1, "stuck")
    assert spit_table(game)["piles"]["L"][0] == "JD" and spit_table(game)["piles"]["R"][0] == "4D"


def test_tonk_second_hand_is_dealt_from_the_new_dealers_left():
    from cardcore_tonk.position import stack_deals

    # Hand 1: seat 0 drops with 30 against 41 and 15: caught by seat 2 only (-2, -1, +3).
    hands = [
        ["5H", "6H", "7H", "KC", "2D"],
        ["4H", "9S", "9D", "9C", "QD"],
        ["AS", "2S", "3C", "4D", "5C"],
    ]
    pos = tonk_position(hands, ["JC"], "8S", dealer=2, turn=0)
    pos = stack_deals(pos, ["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 9D"])
    game = cardcore.new_game("tonk", 3, position=pos, seed=1, options={"hands": 2})
    game.act(0, "drop")
    assert hand_entries(game)[0]["amounts"] == [-2, -1, 3]
    assert game.to_act == (0,)  # the deal passed left from seat 2 to seat 0
    game.act(0, "deal")
    # Seat 1 (left of dealer 0) gets cards 1, 4, 7, ...; then seat 2; the dealer last.
    assert sorted(game.view(1)["table"]["hand"]) == sorted(["AS", "4S", "7S", "10S", "KS"])
    assert sorted(game.view(2)["table"]["hand"]) == sorted(["2S", "5S", "8S", "JS", "AH"])
    assert sorted(game.view(0)["table"]["hand"]) == sorted(["3S", "6S", "9S", "QS", "2H"])
    assert game.view(None)["table"]["discard_top"] == "9D" and game.to_act == (1,)


def test_tonk_var3_new_spread_plus_hits_emptying_the_hand_pays_double():
    # TONK-GAP-7: seat 1 lays 2S 3S 4S; seat 0 draws AS, lays K-K-K and hits 5S, 6S, AS.
    for rules in ((), ("tonk.double-needs-spread",)):
        hands = [["KS", "KH", "KD", "5S", "6S"], ["2S", "3S", "4S", "9D", "10D"]]
        game = tonk(hands, up="QC", stock=["JC", "AS"], dealer=0, stake=4, rules=rules)
        play(game, 1, "draw", "spread 2S 3S 4S", "discard JC")
        play(game, 0, "draw", "spread KS KH KD", "hit 1 5S", "hit 1 6S", "hit 1 AS")
        assert game.result.reason == "tonk-out"
        assert game.result.payouts == (8, -8)


def test_speed_contested_play_pile_second_card_stale_or_still_legal():
    game = speed(
        ["3H", "9C", "9D", "9H", "9S"],
        ["3C", "4D", "5H", "5S", "JC"],
        stock0=["KD", "6D"],
        stock1=["QD"],
        side0=["JD"],
        side1=["8S"],
        left=["2C"],
        right=["KH"],
    )
    seen = game.version
    game.act(0, "play 3H L")
    with pytest.raises(cardcore.StaleActionError):
        game.act(1, "play 3C L", seen=seen)  # 3 on 2 was legal, 3 on 3 is not
    game.act(1, "play 4D L", seen=seen)  # 4 on 3 is legal now
    assert spit_table(game)["piles"]["L"][:3] == ["4D", "3H", "2C"]


@pytest.mark.parametrize("options", [{}, {"jokers": 2}, {"side_pile": 15}])
def test_speed_bots_keep_every_card_refill_while_stock_lasts_and_winner_is_empty(options):
    from cardcore_spit.agents import SpitGreedyAgent, SpitHumanAgent

    total = 54 if options.get("jokers") else 52

    def check(game, action, at):
        table = spit_table(game)
        cards = sum(len(p or []) for p in table["piles"].values())
        cards += sum(len(s["hand"]) + s["stock"] + s["side"] for s in table["seats"])
        assert cards == total
        assert all(len(s["hand"]) == 5 or s["stock"] == 0 for s in table["seats"])  # SPEED-PLAY-2

    for seed in range(4):
        game = cardcore.new_game("speed", 2, seed=seed, options=options)
        agents = [SpitGreedyAgent(seed=seed), SpitHumanAgent(seed=seed + 1)]
        result = cardcore.run_realtime(game, agents, seed=seed, on_action=check)
        assert result.reason == "out of cards"
        (winner,) = result.winners
        seat = spit_table(game)["seats"][winner]
        assert len(seat["hand"]) == 0 and seat["stock"] == 0


def test_spit_bots_slap_the_smaller_pile():
    from cardcore_spit.agents import SpitGreedyAgent

    slaps = []
    for seed in range(6):
        game = cardcore.new_game("spit", 2, seed=seed)
        before = {"piles": None}

        def check(game, action, at, before=before):
            text = str(action)
            if text.startswith("slap"):
                mine, other = text.split()[1], "R" if text.endswith("L") else "L"
                slaps.append(len(before["piles"][mine]) <= len(before["piles"][other]))
            before["piles"] = spit_table(game)["piles"]

        cardcore.run_realtime(
            game,
            [SpitGreedyAgent(seed=seed), SpitGreedyAgent(seed=seed + 9)],
            seed=seed,
            on_action=check,
        )
    assert slaps and all(slaps)


def test_tonk_var2_four_aces_or_an_ace_run_may_not_be_kept():
    game = tonk(
        [["AS", "AH", "AD", "9C", "KD"], ["2S", "3D", "4C", "6C", "10D"]],
        up="QC",
        stock=["AC"],
        dealer=1,
        rules=["tonk.must-lay-down"],
    )
    game.act(0, "draw")  # AC: four aces
    discards = [t for t in legal(game, 0) if t.startswith("discard")]
    assert discards == ["discard AS", "discard AH", "discard AD", "discard AC"]
    game = tonk(
        [["AS", "AH", "AD", "2H", "KD"], ["2S", "3D", "4C", "6C", "10D"]],
        up="QC",
        stock=["3H"],
        dealer=1,
        rules=["tonk.must-lay-down"],
    )
    game.act(0, "draw")  # 3H: AH 2H 3H is a run, not "three aces"
    discards = [t for t in legal(game, 0) if t.startswith("discard")]
    assert discards == ["discard AH", "discard 2H", "discard 3H"]


def test_tonk_var4_block_lasts_one_turn_three_players():
    hands = [
        ["5H", "6H", "7H", "2D", "JD"],
        ["8H", "3D", "4C", "6C", "10D"],
        ["2C", "3C", "9S", "9D", "KC"],
    ]
    stock = ["9H", "QC", "QD", "QH", "QS", "4S"]
    game = tonk(hands, up="KS", stock=stock, dealer=2, rules=["tonk.hit-blocks-drop"])
    play(game, 0, "draw", "spread 5H 6H 7H", "discard 9H")
    play(game, 1, "draw", "hit 1 8H", "discard QC")
    play(game, 2, "draw", "discard QD")
    assert legal(game, 0) == ["draw", "take"]
    play(game, 0, "draw", "discard QH")
    play(game, 1, "draw", "discard QS")
    play(game, 2, "draw", "discard 4S")
    assert legal(game, 0) == ["drop", "draw", "take"]


def test_spit_canfield_layout_sizes_full_and_short():
    game = cardcore.new_game("spit", 2, seed=3, rules=["spit.canfield"])
    table = spit_table(game)
    assert [[len(p) for p in s["layout"]] for s in table["seats"]] == [[1, 1, 1, 1, 11]] * 2
    assert [s["spit_cards"] for s in table["seats"]] == [11, 11]
    game = spit(
        [["5H"]],
        [["KC"], ["QC"], ["9D"]],
        spit0=["2C", "3C"],
        spit1=["AD", "3D", "4D"],
        left=["2S", "3S", "4S"],
        right=["8D", "7D"],
        rest="1",
        rules=["spit.canfield"],
    )
    game.act(0, "play 1 L")
    game.act(1, "slap R")  # seat 0: 2 spit cards + L (4) = 6 -> [1, 1, 1, 1, 2]
    table = spit_table(game)
    assert [len(p) for p in table["seats"][0]["layout"]] == [1, 1, 1, 1, 2]
    assert table["mode"] == "single-pile"


def test_spit_same_rank_house_rule_allows_equal_rank():
    game = spit(
        [["5H"], ["4H"]],
        [["KC"], ["QC"]],
        spit0=["2C"],
        spit1=["3C"],
        left=["4S"],
        right=["7D"],
        rules=["spit.same-rank"],
    )
    assert [t for t in legal(game, 0) if t.startswith("play")] == ["play 1 L", "play 2 L"]
    plain = spit(
        [["5H"], ["4H"]], [["KC"], ["QC"]], spit0=["2C"], spit1=["3C"], left=["4S"], right=["7D"]
    )
    assert [t for t in legal(plain, 0) if t.startswith("play")] == ["play 1 L"]


def test_run_realtime_replans_only_an_overtaken_plan_from_the_current_time():
    # CORE-RT-2: seat 1 plans 5C on 6S for t=2; seat 0's 7H lands at t=1 first, so seat 1
    # re-plans at t=1 and plays 8C on 7H at 1 + 2 = 3.
    from cardcore.agents import Plan

    class Prefer:
        def __init__(self, prefs, delay):
            self.prefs, self.delay, self.asked = prefs, delay, []

        def plan(self, view, legal_now, now):
            self.asked.append(now)
            texts = {str(a): a for a in legal_now}
            for text in self.prefs:
                if text in texts:
                    return Plan(texts[text], self.delay)
            return None

    game = spit(
        [["7H"], ["9C"]],
        [["5C"], ["8C"], ["KC"]],
        spit0=["2C"],
        spit1=["3C"],
        left=["6S"],
        right=["JD"],
    )
    fast, slow = Prefer(["play 1 L"], 1.0), Prefer(["play 1 L", "play 2 L"], 2.0)
    cardcore.run_realtime(game, [fast, slow], seed=0, max_actions=2)
    assert game.record()["actions"] == [[0, "play 1 L", 1.0], [1, "play 2 L", 3.0]]
    assert slow.asked[:2] == [0.0, 1.0]


def test_tonk_events_show_a_drawn_card_only_to_its_drawer():
    hands = [
        ["5H", "6H", "7H", "4H", "JD"],
        ["2S", "3D", "4C", "6C", "10D"],
        ["2C", "3C", "9S", "9D", "KC"],
    ]
    game = tonk(hands, up="KS", stock=["9H", "QC", "QD"], dealer=2)
    seen = {seat: [] for seat in (0, 1, 2, "spectator")}
    for seat, events in seen.items():
        game.events.subscribe(cardcore.Event, events.append, seat=seat)
    play(game, 0, "draw", "spread 5H 6H 7H", "discard JD")  # 9H stays in seat 0's hand
    play(game, 1, "draw", "discard QC")
    texts = {seat: repr(events) for seat, events in seen.items()}
    assert "9H" in texts[0]
    assert all("9H" not in texts[s] and "4H" not in texts[s] for s in (1, 2, "spectator"))
    assert all("QC" in t and "5H" in t for t in texts.values())  # discards and spreads are public
