"""Independent rules audit of Tonk, Spit and Speed (2026-12-06).

Every expected number is worked out by hand from the seeds (``tonk.en.md``,
``spit.en.md``) and ``rules-decisions.md`` before looking at the engine; the
corners are those the audit of 2026-12-04 (``test_tonk_spit_worked_2026_12_04.py``)
did not cover. Only the public API is used: ``cardcore.new_game`` (``deck=`` or
``position=``), ``Game.act``/``apply``, ``legal_actions``, ``view``, ``history``,
``result``, ``cardcore.run_realtime`` and the printed rule text.
"""

from __future__ import annotations

import contextlib

import pytest

import cardcore

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL = [r + s for s in "SHDC" for r in RANKS]


# --------------------------------------------------------------------------- helpers


def tonk_deck(hands, up, stock=(), dealer=0):
    """A stacked Tonk deck, top first: five rounds of one card each from the dealer's
    left (TONK-DEAL-1), the upcard (TONK-DEAL-2), then the top of the stock."""
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    out = [hands[seat][r] for r in range(5) for seat in order]
    if up:
        out.append(up)
    out += list(stock)
    assert len(set(out)) == len(out)
    return out + [c for c in ALL if c not in out]


def tonk(dealt, up="8S", stock=(), dealer=0, stake=1, rules=(), without=(), **options):
    opts = {"first_dealer": dealer, "stake": stake, **options}
    deck = " ".join(tonk_deck(dealt, up, stock, dealer))
    return cardcore.new_game(
        "tonk",
        len(dealt),
        deck=deck,
        options=opts,
        seed=3,
        rules=list(rules),
        without=list(without),
    )


def tonk_position(hands, stock, discard_top, dealer, turn):
    """A Tonk position at the start of ``turn``'s turn; cards not named lie buried in the
    discard pile under ``discard_top``."""
    used = set(stock) | {discard_top} | {c for h in hands for c in h}
    buried = [c for c in ALL if c not in used]
    zeros = ",".join(["0"] * len(hands))
    return " | ".join(
        [
            f'tonk played=0 dealer={dealer} turn={turn} phase="start" balances=[{zeros}] chance=1',
            "stock: " + " ".join(stock),
            "discard: " + " ".join([*buried, discard_top + "!"]),
            *(f"hand.{i}: " + " ".join(h) for i, h in enumerate(hands)),
            "spreads:",
        ]
    )


def hands_of(game):
    return [h for h in game.history(None) if h.get("kind") == "hand"]


def play(game, seat, *texts):
    for text in texts:
        game.act(seat, text)


def legal(game, seat):
    return [str(a) for a in game.legal_actions(seat)]


def spit_position(
    lay0, lay1, spit0=(), spit1=(), left=(), right=(), rest="L", single=-1, phase="play"
):
    """A Spit position: layouts as piles bottom -> top (top face up), spit cards and
    centre piles bottom -> top; every card not named lies under ``rest``."""
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
        f'spit v=1 phase="{phase}" deal=1 single={single} ready=[true,true] '
        "requests=[false,false] stall=0 recycled=false emptier=-1"
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
    return cardcore.new_game(
        "spit",
        2,
        position=spit_position(*args, **kw),
        seed=seed,
        rules=list(rules),
        options=options or {},
    )


def spit_table(game):
    return game.view(None)["table"]


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
    zones[{"L": "pile.L", "R": "pile.R"}[rest]][:0] = unused
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


def speed(*args, jokers=0, seed=1, **kw):
    options = {"jokers": jokers} if jokers else {}
    return cardcore.new_game(
        "speed", 2, position=speed_position(*args, jokers=jokers, **kw), seed=seed, options=options
    )


# --------------------------------------------------------------------------- Tonk: a session


def test_tonk_three_hand_session_ledger_out_natural_caught_drop():
    """Stake 2, three players, seat 0 deals first; the deal passes left (TONK-DEALER-2).

    Hand 1 (dealer 0): seat 1 draws 9H, lays 5H-9H and discards KC: out by discard,
    S = 2 from each (TONK-OUT-2): (-2, +4, -2).
    Hand 2 (dealer 1): seat 0 is dealt K K K K 9 = 49: natural, 2S = 4 from each
    (TONK-49-1): (+8, -4, -4); balances (6, 0, -6).
    Hand 3 (dealer 2): seat 0 drops with 20; seat 1 holds 20 (a tie, so caught), seat 2
    holds 6. Seat 0 pays 2S = 4 to both (TONK-DROP-3); seat 2, the lowest non-dropper,
    collects S = 2 from seat 1 (TONK-DROP-4): (-8, +2, +6); balances (-2, 2, 0).
    """
    opts = {"first_dealer": 0, "stake": 2, "hands": 3}
    h1 = [
        ["2S", "3D", "4C", "6C", "10D"],
        ["5H", "6H", "7H", "8H", "KC"],
        ["2H", "3S", "6S", "8S", "QD"],
    ]
    h2 = [
        ["KS", "KH", "KD", "KC", "9S"],
        ["2S", "3S", "4S", "5D", "6D"],
        ["2H", "3H", "4H", "5H", "7D"],
    ]
    h3 = [
        ["2H", "2D", "3S", "3H", "10C"],
        ["2C", "3D", "3C", "4S", "8D"],
        ["AS", "AH", "AD", "AC", "2S"],
    ]
    from cardcore_tonk.position import stack_deals

    first = cardcore.new_game(
        "tonk", 3, deck=" ".join(tonk_deck(h1, "JS", ["9H"], dealer=0)), options=opts, seed=3
    )
    pos = stack_deals(
        first.position(), [tonk_deck(h2, "QC", dealer=1), tonk_deck(h3, "KD", dealer=2)]
    )
    game = cardcore.new_game("tonk", 3, position=pos, options=opts, seed=3)
    assert game.to_act == (1,)
    play(game, 1, "draw", "spread 5H 6H 7H 8H 9H", "discard KC")
    assert game.view(None)["table"]["balances"] == [-2, 4, -2]
    assert game.to_act == (1,) and legal(game, 1) == ["deal"]
    game.act(1, "deal")  # hand 2 ends at once on the natural
    assert game.view(None)["table"]["balances"] == [6, 0, -6]
    assert game.to_act == (2,) and legal(game, 2) == ["deal"]
    game.act(2, "deal")
    assert game.to_act == (0,)  # left of dealer 2
    game.act(0, "drop")
    entries = hands_of(game)
    assert [e["hand"] for e in entries] == [1, 2, 3]
    assert [e["dealer"] for e in entries] == [0, 1, 2]
    assert [e["reason"] for e in entries] == ["out", "natural", "drop-caught"]
    assert [e["amounts"] for e in entries] == [[-2, 4, -2], [8, -4, -4], [-8, 2, 6]]
    assert [e["balances"] for e in entries] == [[-2, 4, -2], [6, 0, -6], [-2, 2, 0]]
    assert entries[2]["totals"] == [20, 20, 6]
    assert game.result.payouts == (-2, 2, 0)
    assert game.result.scores == (-1.0, 1.0, 0.0)
    assert game.result.winners == (1,)
    assert game.result.reason == "drop-caught"


def test_tonk_session_that_nets_to_zero_has_every_seat_as_winner():
    # Hand 1 (dealer 1): seat 0 drops 20 against 44 and wins S: (+1, -1).
    # Hand 2 (dealer 0, seat 1 first): seat 1 drops 15 against 21 and wins S: (-1, +1).
    # Balances (0, 0): both seats hold the highest total (TONK-SESSION-1).
    from cardcore_tonk.position import stack_deals

    start = tonk_position(
        [["2C", "3C", "4C", "5C", "6C"], ["7C", "8C", "9C", "10C", "JC"]],
        ["2D"],
        "3D",
        dealer=1,
        turn=0,
    )
    h2 = [["2H", "3H", "4H", "5H", "7D"], ["AS", "2S", "3S", "4D", "5D"]]
    pos = stack_deals(start, [tonk_deck(h2, "8S", stock=["9D"], dealer=0)])
    game = cardcore.new_game("tonk", 2, position=pos, options={"hands": 2}, seed=1)
    game.act(0, "drop")
    assert hands_of(game)[0]["totals"] == [20, 44]
    assert game.view(None)["table"]["balances"] == [1, -1]
    game.act(0, "deal")
    assert game.to_act == (1,)
    game.act(1, "drop")
    assert hands_of(game)[1]["totals"] == [21, 15]
    assert game.result.payouts == (0, 0)
    assert game.result.scores == (0.0, 0.0)
    assert game.result.winners == (0, 1)
    assert game.result.reason == "drop-won"


def test_tonk_var7_void_deal_counts_ends_a_one_hand_session_as_void():
    hands = [
        ["KS", "KH", "KD", "KC", "10S"],
        ["QS", "QH", "QD", "QC", "9S"],
        ["2H", "3H", "4H", "5H", "7D"],
    ]
    game = tonk(hands, dealer=0, stake=2, rules=["tonk.void-deal-counts"])
    assert game.is_over
    assert game.result.reason == "void"
    assert game.result.payouts == (0, 0, 0)
    assert game.result.winners == (0, 1, 2)
    (entry,) = hands_of(game)
    assert entry["totals"] == [50, 49, None]  # the naturals show, the third hand does not


# --------------------------------------------------------------------------- Tonk: payouts


def test_tonk_caught_drop_tied_with_a_player_who_is_not_the_lowest():
    # Dropper 20, seat 1 also 20, seat 2 lowest with 6 (stake 1): dropper pays 2 to each
    # player at or below 20 (both), seat 2 collects 1 from seat 1 only (not from the
    # dropper, TONK-DROP-4): (-4, +2 - 1, +2 + 1).
    hands = [
        ["2H", "2D", "3S", "3H", "10C"],
        ["2C", "3D", "3C", "4S", "8D"],
        ["AS", "AH", "AD", "AC", "2S"],
    ]
    game = tonk(hands, up="KD", dealer=2)
    game.act(0, "drop")
    assert hands_of(game)[0]["totals"] == [20, 20, 6]
    assert game.result.reason == "drop-caught"
    assert game.result.payouts == (-4, 1, 3)


def test_tonk_out_by_discard_three_players_and_tonk_out_four_players():
    # TONK-OUT-2 at stake 3, three players: (+6, -3, -3).
    hands = [
        ["5H", "6H", "7H", "8H", "KC"],
        ["2S", "3D", "4C", "6C", "10D"],
        ["2H", "3S", "6S", "8S", "QD"],
    ]
    game = tonk(hands, up="JS", stock=["9H"], dealer=2, stake=3)
    play(game, 0, "draw", "spread 5H 6H 7H 8H 9H", "discard KC")
    assert game.result.reason == "out" and game.result.payouts == (6, -3, -3)
    # TONK-OUT-1 at stake 3, four players: 2S = 6 from each of three: (+18, -6, -6, -6).
    hands.append(["2C", "3C", "9D", "JD", "QC"])
    game = tonk(hands, up="JS", stock=["9H"], dealer=3, stake=3, max_players=4)
    play(game, 0, "draw", "spread 5H 6H 7H 8H 9H")
    assert not game.is_over and legal(game, 0) == ["discard KC"]
    hands[0] = ["5H", "6H", "7H", "8H", "10H"]
    game = tonk(hands, up="JS", stock=["9H"], dealer=3, stake=3, max_players=4)
    play(game, 0, "draw", "spread 5H 6H 7H 8H 9H 10H")
    assert game.result.reason == "tonk-out" and game.result.payouts == (18, -6, -6, -6)


def test_tonk_stock_out_four_players_three_tied_lowest():
    # Totals 30, 15, 15, 15: each tied seat collects S = 2 from seat 0 only.
    hands = [
        ["5H", "6H", "7H", "KC", "2D"],
        ["AS", "2S", "3C", "4D", "5C"],
        ["AH", "2H", "3D", "4C", "5D"],
        ["AD", "2C", "3S", "4S", "5S"],
    ]
    pos = tonk_position(hands, ["JC"], "8S", dealer=3, turn=0)
    game = cardcore.new_game(
        "tonk", 4, position=pos, options={"stake": 2, "max_players": 4}, seed=1
    )
    play(game, 0, "draw", "discard JC")
    assert game.result.reason == "stock-out"
    assert hands_of(game)[0]["totals"] == [30, 15, 15, 15]
    assert game.result.payouts == (-6, 2, 2, 2)
    assert game.result.winners == (1, 2, 3)


def test_tonk_natural_pays_double_even_under_double_needs_spread():
    hands = [["2S", "3S", "4S", "5D", "6D"], ["KS", "KH", "QD", "JC", "10S"]]
    game = tonk(hands, dealer=0, stake=3, rules=["tonk.double-needs-spread"])
    assert game.result.reason == "natural"
    assert game.result.payouts == (-6, 6)


def test_tonk_49_3_reaching_49_during_play_is_nothing():
    # Dealt K K K 9 8 = 47; draws 10C, discards 8S: K K K 9 10 = 49 in hand, play goes on.
    hands = [["KS", "KH", "KD", "9C", "8S"], ["2S", "3D", "4C", "6C", "10D"]]
    game = tonk(hands, up="QC", stock=["10C", "AD"], dealer=1, without=())
    play(game, 0, "draw", "discard 8S")
    assert game.view(0)["table"]["total"] == 49
    assert not game.is_over and game.to_act == (1,)
    assert hands_of(game) == []


def test_tonk_drop_with_a_dealt_spread_in_hand_counts_it_even_under_must_lay_down():
    # TONK-GAP-12: seat 0 holds 5H 6H 7H AS AC = 20 and drops at once against 25.
    hands = [["5H", "6H", "7H", "AS", "AC"], ["2S", "3D", "4C", "6C", "10D"]]
    for rules in ((), ("tonk.must-lay-down",)):
        game = tonk(hands, up="QC", dealer=1, rules=rules)
        assert legal(game, 0) == ["drop", "draw", "take"]
        game.act(0, "drop")
        assert hands_of(game)[0]["totals"] == [20, 25]
        assert game.result.reason == "drop-won" and game.result.payouts == (1, -1)


# --------------------------------------------------------------------------- Tonk: spreads and hits


def test_tonk_runs_do_not_wrap_past_the_king_and_need_one_suit():
    hands = [["JS", "QS", "KS", "9D", "9H"], ["5C", "2D", "3C", "6H", "7C"]]
    game = tonk(hands, up="4H", stock=["2H", "AS", "10S", "9S"], dealer=1)
    play(game, 0, "draw", "spread JS QS KS", "discard 2H")  # J-Q-K of spades
    game.act(1, "draw")  # AS: the ace may not follow the king (TONK-SPREAD-2)
    assert "hit 1 AS" not in legal(game, 1)
    version = game.version
    with pytest.raises(cardcore.IllegalActionError, match=r"\(TONK-HIT-1\)") as info:
        game.act(1, "hit 1 AS")
    assert "TONK-HIT-1" in str(info.value) and game.version == version
    game.act(1, "discard AS")
    game.act(0, "draw")  # 10S extends J-Q-K downwards
    assert "hit 1 10S" in legal(game, 0)
    play(game, 0, "hit 1 10S", "discard 9D")
    assert game.view(1)["table"]["spreads"][0]["cards"] == ["10S", "JS", "QS", "KS"]
    game.act(1, "draw")  # 9S
    assert not any(t.startswith("spread") for t in legal(game, 1))
    version = game.version
    with pytest.raises(cardcore.IllegalActionError, match=r"\(TONK-SPREAD-2\)") as info:
        game.act(1, "spread 5C 6H 7C")  # in sequence, but two suits
    assert "TONK-SPREAD-2" in str(info.value) and game.version == version


def test_tonk_var4_hitting_your_own_spread_does_not_block_your_drop():
    hands = [["5H", "6H", "7H", "2D", "JD"], ["9C", "3D", "4C", "6C", "10D"]]
    game = tonk(hands, up="KC", stock=["8H", "QC", "KS"], dealer=1, rules=["tonk.hit-blocks-drop"])
    play(game, 0, "draw", "spread 5H 6H 7H", "hit 1 8H", "discard JD")
    play(game, 1, "draw", "discard QC")
    assert legal(game, 0) == ["drop", "draw", "take"]


# --------------------------------------------------------------------------- Spit: progress


def test_spit_a_fill_that_uncovers_is_progress_one_that_does_not_is_not():
    # SPIT-STUCK-3 (b). L = 4S, R = 7D; nobody has a play. Seat 0's pile 2 holds 2C face
    # down under JH and positions 3-5 are empty: ``fill 2 3`` would uncover 2C, so no spit
    # is due yet. After it, the only moves left uncover nothing (single cards), so both
    # spit at once: 3C on L, 3D on R; then 2C plays on 3C or 3D.
    game = spit(
        [["9C"], ["2C", "JH"]],
        [["KC"], ["QC"]],
        spit0=["AC", "3C"],
        spit1=["AD", "3D"],
        left=["4S"],
        right=["7D"],
    )
    assert spit_table(game)["piles"]["R"] == ["7D"]
    assert "fill 2 3" in legal(game, 0)
    game.act(0, "fill 2 3")
    piles = spit_table(game)["piles"]
    assert piles["L"][:2] == ["3C", "4S"] and piles["R"] == ["3D", "7D"]
    assert [s["spit_cards"] for s in spit_table(game)["seats"]] == [1, 1]
    assert legal(game, 0)[:2] == ["play 2 L", "play 2 R"]


def test_spit_a_combine_that_uncovers_is_progress():
    # Seat 0: 9H alone, 9C over a face-down 5D; L = 6S, R = 6D; nobody can play. The
    # combine 2 -> 1 uncovers 5D (SPIT-MOVE-5/7), which fits both 6s: no spit at all.
    game = spit(
        [["9H"], ["5D", "9C"], ["JH"], ["2H"], ["KS"]],
        [["KC"], ["QC"], ["JC"], ["10C"], ["9S"]],
        spit0=["AC", "3C"],
        spit1=["AD", "3D"],
        left=["6S"],
        right=["6D"],
    )
    assert legal(game, 0) == ["combine 1 2", "combine 2 1", "spit"]
    assert legal(game, 1) == ["spit"]
    game.act(0, "combine 2 1")
    assert spit_table(game)["piles"]["R"] == ["6D"]
    assert spit_table(game)["seats"][0]["layout"][:2] == [["9C", "9H"], ["5D"]]
    assert legal(game, 0) == ["play 2 L", "play 2 R", "spit"]


def test_spit_single_pile_plays_only_onto_the_one_pile_and_recycles_it_to_its_starter():
    # Single-pile deal started by seat 1 (SPIT-START-2): there is no L. Seat 0 plays 5H on
    # 4S; nobody can play on 5H and nobody has spit cards, so R keeps 5H and the 48 cards
    # under it become seat 1's spit cards (SPIT-STUCK-5), who spits until someone can play.
    game = spit([["5H"], ["9C"]], [["KC"], ["QC"]], right=["2D", "4S"], rest="R", single=1)
    assert spit_table(game)["piles"]["L"] is None
    assert legal(game, 0)[0] == "play 1 R" and "play 1 L" not in legal(game, 0)
    with pytest.raises(cardcore.IllegalActionError, match=r"\(SPIT-START-2\)") as info:
        game.act(0, "play 1 L")
    assert "SPIT-START-2" in str(info.value)
    game.act(0, "play 1 R")
    table = spit_table(game)
    assert table["piles"]["L"] is None
    spat = len(table["piles"]["R"]) - 1  # the spat cards lie on 5H, now the bottom card
    assert table["piles"]["R"][-1] == "5H"
    assert spat >= 1
    assert [s["spit_cards"] for s in table["seats"]] == [0, 48 - spat]


# --------------------------------------------------------------------------- Spit: the documented deal


def test_spit_docs_worked_deal_ann_plays_her_whole_layout_and_both_hold_26():
    # docs/games/spit.rst "Worked example": Ann's piles are 2H | 4H 3H | 7H 6H 5H |
    # JH 10H 9H 8H | 3S 2S AS KH QH (bottom -> top); AH starts L. She plays 2H, 3H ... KH,
    # AS, 2S, 3S onto L (16 cards with AH), Bob slaps R (6D alone): Ann 10 + 16 = 26,
    # Bob 25 + 1 = 26, deal 2 lays both out in full.
    deck = (
        "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
        "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
    )
    game = cardcore.new_game("spit", 2, deck=deck)
    game.act(0, "ready")
    game.act(1, "ready")
    for pile in [1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 5]:
        game.act(0, f"play {pile} L")
    table = spit_table(game)
    assert table["phase"] == "claim"
    assert len(table["piles"]["L"]) == 16 and table["piles"]["L"][:4] == ["3S", "2S", "AS", "KH"]
    assert table["piles"]["R"] == ["6D"]
    seen = game.version
    game.act(1, "slap R")
    with pytest.raises(cardcore.StaleActionError):
        game.act(0, "slap L", seen=seen)
    table = spit_table(game)
    assert table["deal"] == 2 and table["phase"] == "setup" and table["mode"] == "two-pile"
    assert [s["cards"] for s in table["seats"]] == [26, 26]
    assert [s["spit_cards"] for s in table["seats"]] == [11, 11]
    assert [[len(p) for p in s["layout"]] for s in table["seats"]] == [[1, 2, 3, 4, 5]] * 2


# --------------------------------------------------------------------------- real time


class Scripted:
    """A real-time agent: the first legal action it wants, after a fixed delay."""

    def __init__(self, wants, delay):
        self.wants, self.delay = list(wants), delay

    def plan(self, view, legal_now, now):
        from cardcore.agents import Plan

        texts = {str(a): a for a in legal_now}
        for want in self.wants:
            if want in texts:
                return Plan(texts[want], self.delay)
        return None


class _Either:
    """Plan what *first* wants, else what *then* wants."""

    def __init__(self, first, then):
        self.first, self.then = first, then

    def plan(self, view, legal_now, now):
        return self.first.plan(view, legal_now, now) or self.then.plan(view, legal_now, now)


def test_spit_two_plays_onto_one_pile_at_the_same_instant():
    # L shows 6S. Seat 0 plans 7H and seat 1 plans 5C onto L, both at t = 1. The seeded
    # tie-break (SPIT-RT-2) lets one of them land; the other is then not legal (5 on 7 or
    # 7 on 5) and is never applied. Over seeds both seats win the race.
    firsts = set()
    for seed in range(16):
        game = spit(
            [["7H"], ["9C"]],
            [["5C"], ["KC"]],
            spit0=["2C"],
            spit1=["3C"],
            left=["6S"],
            right=["JD"],
        )
        agents = [Scripted(["play 1 L"], 1.0), Scripted(["play 1 L"], 1.0)]
        agents += [Scripted(["spit"], 100.0)]
        agents = [_Either(agents[0], agents[2]), _Either(agents[1], agents[2])]
        cardcore.run_realtime(game, agents, seed=seed, max_actions=2)
        actions = game.record()["actions"]
        assert [(a[1], a[2]) for a in actions[:1]] == [("play 1 L", 1.0)]
        assert actions[1][1] == "spit" and actions[1][2] == 101.0  # nobody played again
        winner = actions[0][0]
        firsts.add(winner)
        layouts = [s["layout"][0] for s in spit_table(game)["seats"]]
        assert layouts[winner] == [] and layouts[1 - winner] == [["7H", "5C"][1 - winner]]
    assert firsts == {0, 1}


def test_spit_rt1_seen_is_only_what_the_action_carries():
    # design.md "Time and turns": reading a view or the legal actions never changes what
    # counts as seen (rules-decisions SPIT-RT-1 still says the default ``seen`` is the
    # version the seat last looked at; the contract replaced that). Without ``seen`` a play
    # that lost the race is judged now: illegal; with the version it looked at: stale.
    def start():
        return spit(
            [["7H"], ["9C"]],
            [["8C"], ["5C"], ["KC"]],
            spit0=["2C"],
            spit1=["3C"],
            left=["6S"],
            right=["JD"],
        )

    for carried in (False, True):
        game = start()
        assert "play 2 L" in legal(game, 1)  # seat 1 looks: 5C fits on 6S
        looked = game.view(1)["version"]
        game.act(0, "play 1 L")  # 7H lands first
        expected = cardcore.StaleActionError if carried else cardcore.IllegalActionError
        with pytest.raises(expected) as info:
            game.act(1, "play 2 L", seen=looked if carried else None)
        assert carried or not isinstance(info.value, cardcore.StaleActionError)
        assert spit_table(game)["piles"]["L"][:2] == ["7H", "6S"]


# --------------------------------------------------------------------------- Spit vs Speed


def test_spit_has_no_jokers_option_speed_does_and_a_joker_plays_on_a_joker():
    # SPEED-GEN-1 / SPIT-GEN-2: jokers are a Speed parameter only.
    with pytest.raises(cardcore.OptionError) as info:
        cardcore.new_game("spit", 2, options={"jokers": 2}, seed=1)
    assert "jokers" in str(info.value)
    game = cardcore.new_game("speed", 2, options={"jokers": 2}, seed=1)
    table = game.view(None)["table"]
    cards = sum(len(p) for p in table["piles"].values())
    cards += sum(s["stock"] + s["side"] + 5 for s in table["seats"])
    assert cards == 54
    # SPEED-PLAY-3: a joker may be played on any card, a joker included.
    game = speed(
        ["JK", "9C", "9D", "9H", "9S"],
        ["5C", "5D", "5H", "5S", "JC"],
        stock0=["KD", "6D"],
        stock1=["QD"],
        side0=["JD"],
        side1=["4D"],
        left=["AC"],
        right=["KH", "JK"],
        rest="R",
        jokers=2,
    )
    assert legal(game, 0) == [
        "play JK L",
        "play JK R",
        "play 9C R",
        "play 9D R",
        "play 9H R",
        "play 9S R",
        "stuck",
    ]
    game.act(0, "play JK R")
    assert spit_table(game)["piles"]["R"][:2] == ["JK", "JK"]


def test_speed_has_no_layout_actions_and_spit_has_no_hand_plays():
    # The difference the seed names: Spit plays from a row of stacks (``play 1 L``), Speed
    # from a hand of five (``play 7H L``); neither reads the other's notation.
    sp = cardcore.new_game("speed", 2, seed=2)
    for text in ["play 1 L", "combine 1 2", "fill 1 2", "slap L", "ready", "spit"]:
        with pytest.raises(cardcore.NotationError):
            sp.act(0, text)
    sg = cardcore.new_game("spit", 2, seed=2)
    for text in ["play 7H L", "stuck"]:
        with pytest.raises(cardcore.NotationError):
            sg.act(0, text)
    assert len(sp.view(0)["table"]["seats"][0]["hand"]) == 5


# --------------------------------------------------------------------------- printed rule text


def rules_text(game, capsys):
    from cardcore.cli import main

    with contextlib.suppress(SystemExit):
        main(["rules", game])
    return capsys.readouterr().out


def test_printed_tag_legend_covers_the_tags_used(capsys):
    import re

    from cardcore.cli.rulebook import TAGS

    for game in ("tonk", "spit", "speed"):
        text = rules_text(game, capsys)
        used = set(re.findall(r"\[((?:S~?|D|V|ref)(?:/(?:S~?|D|V|ref))+)\]", text))
        assert used, game
        assert all(f"[{tag}]" in TAGS for tag in used), (game, used)
    assert "book" not in TAGS


# --------------------------------------------------------------------------- Tonk: what is shown


def hand_zones(game, seat):
    return {z["name"]: z["cards"] for z in game.view(seat)["zones"] if z["name"].startswith("hand")}


def test_tonk_hands_shown_by_a_drop_stay_face_up_in_the_views_until_the_next_deal():
    hands = [
        ["2S", "3S", "4S", "5D", "6D"],
        ["2H", "3H", "4H", "5H", "7D"],
        ["KS", "KH", "KD", "QC", "8D"],
    ]
    game = tonk(hands, dealer=0, hands=2)
    game.act(1, "drop")  # caught: 21 against 20 and 48
    assert game.result is None and game.to_act == (1,)  # between hands
    assert hands_of(game)[0]["shown"][1] == ["2H", "3H", "4H", "5H", "7D"]
    assert "hand.1: 2H! 3H! 4H! 5H! 7D!" in game.position()  # known to all
    shown_to_0 = hand_zones(game, 0)["hand.1"]
    shown_to_all = hand_zones(game, None)["hand.2"]
    assert None not in shown_to_0 and None not in shown_to_all
    assert sorted(shown_to_0) == sorted(hands[1]) and sorted(shown_to_all) == sorted(hands[2])


def test_tonk_natural_shows_only_the_naturals_hand():
    hands = [
        ["2S", "3S", "4S", "5D", "6D"],
        ["2H", "3H", "4H", "5H", "7D"],
        ["KS", "KH", "KD", "KC", "10S"],
    ]
    game = tonk(hands, dealer=0, hands=2)
    (entry,) = hands_of(game)
    assert entry["reason"] == "natural" and entry["seat"] == 2
    assert sorted(entry["shown"][2]) == sorted(hands[2])
    for seat in (None, 0):  # nobody but seat 1 may learn seat 1's cards
        history = repr(game.history(seat))
        assert "7D" not in history and "5H" not in history


# --------------------------------------------------------------------------- Tonk: stock out, house rules


def test_tonk_var5_three_players_a_hit_restarts_the_quiet_round():
    # TONK-VAR-5. Seat 0 draws the last card (JC), lays 5H 6H 7H, discards JC. Seat 1 takes
    # JC and hits 4H on the run (not quiet), seat 2, seat 0 and seat 1 then take and discard
    # quietly: the third quiet turn ends the hand at the start of seat 2's turn.
    # Totals 2D 5C = 7, 9S 9D 9C KC = 37, AS 2S 3C 4D QD = 20: seat 0 collects S from each.
    hands = [
        ["5H", "6H", "7H", "KC", "2D"],
        ["4H", "9S", "9D", "9C", "QD"],
        ["AS", "2S", "3C", "4D", "5C"],
    ]
    pos = tonk_position(hands, ["JC"], "8S", dealer=2, turn=0)
    game = cardcore.new_game("tonk", 3, position=pos, seed=1, rules=["tonk.stock-out-discard-only"])
    play(game, 0, "draw", "spread 5H 6H 7H", "discard JC")
    assert legal(game, 1) == ["drop", "draw", "take"]
    play(game, 1, "take", "hit 1 4H", "discard QD")
    play(game, 2, "take", "discard 5C")
    play(game, 0, "take", "discard KC")
    assert not game.is_over and legal(game, 1) == ["drop", "draw", "take"]
    play(game, 1, "take", "discard JC")
    assert game.result.reason == "stock-out"
    assert hands_of(game)[0]["totals"] == [7, 37, 20]
    assert game.result.payouts == (2, -1, -1)


@pytest.mark.parametrize(
    ("rules", "quiet_turns_from_discards"),
    [
        (["tonk.stock-out-discard-only"], 3),
        (["tonk.stock-out-discard-only", "tonk.quiet-round-any-turns"], 1),
    ],
)
def test_tonk_var6_quiet_turns_before_the_stock_ran_out_count(rules, quiet_turns_from_discards):
    # Two quiet turns from the stock (seat 1 draws the last card), then quiet turns from the
    # discards. Under VAR-5 alone only these count (three needed); under VAR-6 every quiet
    # turn counts, so seat 2's first take completes the round.
    hands = [
        ["5H", "6H", "8H", "KC", "2D"],
        ["4H", "9S", "9D", "10C", "QD"],
        ["AS", "2S", "3C", "4D", "5C"],
    ]
    pos = tonk_position(hands, ["JC", "JD"], "8S", dealer=2, turn=0)
    game = cardcore.new_game("tonk", 3, position=pos, seed=1, rules=rules)
    play(game, 0, "draw", "discard JD")
    play(game, 1, "draw", "discard JC")
    assert legal(game, 2) == ["drop", "draw", "take"]
    turns = [(2, "discard 5C"), (0, "discard KC"), (1, "discard QD")]
    for seat, discard in turns[:quiet_turns_from_discards]:
        assert not game.is_over
        play(game, seat, "take", discard)
    assert game.result.reason == "stock-out"
    # seat 2 holds AS 2S 3C 4D JC = 20, the lowest
    assert game.result.winners == (2,) and game.result.payouts == (-1, -1, 2)


def test_tonk_legal_actions_order_books_runs_hits_discards():
    # TONK-LEGAL-1 worked by hand: 5S 6S 7S 8S 7H + 7D drawn. Books by rank (7S 7H 7D), then
    # spade runs by lowest card then length (5-7, 5-8, 6-8), then discards by rank, suit.
    game = tonk(
        [["5S", "6S", "7S", "8S", "7H"], ["2C", "3D", "4C", "6C", "10D"]],
        up="QC",
        stock=["7D"],
        dealer=1,
    )
    game.act(0, "draw")
    assert legal(game, 0) == [
        "spread 7S 7H 7D",
        "spread 5S 6S 7S",
        "spread 5S 6S 7S 8S",
        "spread 6S 7S 8S",
        "discard 5S",
        "discard 6S",
        "discard 7S",
        "discard 7H",
        "discard 7D",
        "discard 8S",
    ]
    # hits by spread number (spread 2 is seat 0's 2D-4D, hit low by AD) among spreads
    hands = [
        ["2D", "3D", "4D", "KC", "2S"],
        ["2C", "3C", "4C", "6C", "10D"],
        ["2H", "3H", "4H", "9C", "QS"],
    ]
    game = tonk(hands, up="QC", stock=["9H", "9D", "5D", "AD"], dealer=2)
    play(game, 0, "draw", "discard 9H")
    play(game, 1, "draw", "discard 9D")
    play(game, 2, "take", "spread 2H 3H 4H", "discard 9C")
    play(game, 0, "draw", "spread 2D 3D 4D", "discard KC")
    game.act(1, "draw")
    assert [s["owner"] for s in game.view(1)["table"]["spreads"]] == [2, 0]
    assert legal(game, 1) == [
        "spread 2C 3C 4C",
        "hit 2 AD",
        "discard AD",
        "discard 2C",
        "discard 3C",
        "discard 4C",
        "discard 6C",
        "discard 10D",
    ]


def test_speed_side_piles_of_fifteen_deal_order_and_refill():
    # SPEED-SETUP-2/3 with side_pile=15: L, R, fifteen side cards each (first dealt on top),
    # then ten cards each alternately: five to the hand, five to the stock, the sixth
    # received on top. Seat 0 plays 6D on 5S and refills the sixth card it received.
    pool = [c for c in ALL if c not in ("5S", "JD")]
    side0, side1, rest = pool[:15], pool[15:30], pool[30:50]
    deck = " ".join(["5S", "JD", *side0, *side1, *rest])
    game = cardcore.new_game("speed", 2, deck=deck, options={"side_pile": 15}, seed=1)
    received0, received1 = rest[0::2], rest[1::2]
    assert sorted(game.view(0)["table"]["seats"][0]["hand"]) == sorted(received0[:5])
    assert sorted(game.view(1)["table"]["seats"][1]["hand"]) == sorted(received1[:5])
    seats = game.view(None)["table"]["seats"]
    assert [(s["stock"], s["side"]) for s in seats] == [(5, 15), (5, 15)]
    assert f"side.0: {' '.join(side0[::-1])} |" in game.position()  # side0[0] on top
    assert received0[0] == "6D"
    game.act(0, "play 6D L")
    assert received0[5] in game.view(0)["table"]["seats"][0]["hand"]
    assert game.view(None)["table"]["seats"][0]["stock"] == 4


def test_spit_rt3_the_losing_slap_is_refused_for_what_happened():
    game = spit(
        [["5H"]],
        [["KC"], ["9D", "QC"]],
        spit0=["2C", "3C"],
        spit1=["AD", "3D", "4D"],
        left=["2S", "3S", "4S"],
        right=["8D", "7D"],
        rest="1",
    )
    game.act(0, "play 1 L")  # seat 0's layout is empty: the deal ends, claims only
    assert legal(game, 0) == ["slap L", "slap R"] == legal(game, 1)
    game.act(1, "slap R")  # seat 1 is first
    with pytest.raises(cardcore.IllegalActionError, match=r"\(SPIT-RT-3\)") as info:
        game.act(0, "slap L")  # seat 0 slapped too, a moment later
    assert "no deal has ended" not in str(info.value)


def test_tonk_var5_a_player_who_wants_the_stock_ends_the_hand():
    hands = [["5H", "6H", "7H", "KC", "2D"], ["4H", "9S", "9D", "9C", "QD"]]
    pos = tonk_position(hands, ["JC"], "8S", dealer=1, turn=0)
    game = cardcore.new_game("tonk", 2, position=pos, seed=1, rules=["tonk.stock-out-discard-only"])
    play(game, 0, "draw", "discard JC")
    assert "draw" in legal(game, 1)  # seat 1 does not want JC: it asks for the stock
    game.act(1, "draw")
    assert game.result.reason == "stock-out"
    assert hands_of(game)[0]["totals"] == [30, 41]


def test_spit_a_play_that_lost_the_race_to_the_winning_play_is_stale():
    # Single-pile deal, seat 0 without spit cards holds only 5H: 5H on 4S empties its layout
    # and wins the game (SPIT-WIN-1). Seat 1's 3H on 4S was legal when it looked: stale
    # with ``seen`` (CORE-RT-1), the game-over error without it.
    def start():
        return spit(
            [["5H"]],
            [["KC"], ["9D", "3H"]],
            spit1=["AD", "3D", "4D"],
            right=["2S", "3S", "4S"],
            rest="1",
            single=1,
        )

    for seen in (True, False):
        game = start()
        assert "play 2 R" in legal(game, 1)
        version = game.version
        game.act(0, "play 1 R")
        assert game.is_over and game.result.winners == (0,)
        expected = cardcore.StaleActionError if seen else cardcore.IllegalActionError
        with pytest.raises(expected) as info:
            game.act(1, "play 2 R", seen=version if seen else None)
        assert seen or "CORE-OVER-1" in str(info.value)
        assert game.result.winners == (0,) and game.version == version + 1


def test_spit_notation_any_case_any_spacing():
    game = spit(
        [["5H"], ["6C"]],
        [["KC"], ["QC"]],
        spit0=["2C", "3C"],
        spit1=["AD", "3D", "4D"],
        left=["4S"],
        right=["7D"],
    )
    assert str(game.act(0, "  PLAY   1  l ")) == "play 1 L"
    assert spit_table(game)["piles"]["L"][0] == "5H"


@pytest.mark.parametrize(
    ("game", "players", "kwargs", "error", "named"),
    [
        ("tonk", 2, {"options": {"stake": 0}}, cardcore.OptionError, "stake"),
        ("tonk", 2, {"options": {"stake": True}}, cardcore.OptionError, "stake"),
        ("tonk", 2, {"options": {"hands": 0}}, cardcore.OptionError, "hands"),
        ("tonk", 2, {"options": {"max_players": 5}}, cardcore.OptionError, "max_players"),
        ("tonk", 3, {"options": {"max_players": 2}}, cardcore.OptionError, "max_players"),
        ("tonk", 4, {}, cardcore.OptionError, "max_players"),
        ("tonk", 2, {"options": {"first_dealer": 2}}, cardcore.OptionError, "first_dealer"),
        ("tonk", 2, {"options": {"stakes": 2}}, cardcore.OptionError, "stakes"),
        ("tonk", 2, {"rules": ["spit.chooser"]}, cardcore.CardcoreError, "spit.chooser"),
        ("tonk", 2, {"without": ["tonk.no-upcard"]}, cardcore.CardcoreError, "tonk.no-upcard"),
        ("speed", 2, {"options": {"side_pile": 10}}, cardcore.OptionError, "side_pile"),
        ("speed", 2, {"options": {"jokers": 1}}, cardcore.OptionError, "jokers"),
        ("spit", 2, {"options": {"stall_limit": 0}}, cardcore.OptionError, "stall_limit"),
        ("spit", 2, {"options": {"stall_limit": 1001}}, cardcore.OptionError, "stall_limit"),
        ("spit", 2, {"rules": ["speed.stuck-on-request"]}, cardcore.CardcoreError, "speed."),
        ("spit", 3, {}, cardcore.OptionError, "2 players"),
    ],
)
def test_options_and_house_rules_out_of_bounds_are_named_errors(
    game, players, kwargs, error, named
):
    with pytest.raises(error) as info:
        cardcore.new_game(game, players, seed=1, **kwargs)
    assert named in str(info.value)
