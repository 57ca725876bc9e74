"""Mutation-testing audit of Tonk settlement, Golf scoring and Spit legality (2026-12-13).

116 small mutants of the rule code (payouts, naturals, stakes, hit targets, stock-out,
Golf scorers and ender penalties, Spit adjacency, progress and spit rules, Speed) were run
against ``tests/games/<game>`` and ``tests/audit``. Each test below kills a mutant the suite
let survive, or killed only through a random property test (the mutant is named in the
docstring). Every Golf mutant was killed by a worked test already, so there is no Golf test
here. Expected outcomes come from the seeds (``../shared/seeds/*.en.md``) and
``rules-decisions.md``, worked by hand; only the public API is used (``cardcore.new_game``
with a stacked ``deck=`` or a ``position=``).
"""

from __future__ import annotations

import cardcore

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL = [r + s for s in "SHDC" for r in RANKS]


# --------------------------------------------------------------------------- Tonk helpers


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


def legal(game, seat):
    return [str(a) for a in game.legal_actions(seat)]


# --------------------------------------------------------------------------- Tonk


def test_TONK_HIT_1_a_run_up_to_the_queen_takes_the_king():
    """Kills ``melds.hit_targets``: ``meld.high < 13`` -> ``< 12`` (a run ending in Q could
    no longer be hit with the K).

    TONK-HIT-1: a run is extended at either end; TONK-SPREAD-2: the ace is low only, so the
    king is the top of a run (10-J-Q of hearts + K of hearts = 10-J-Q-K, valid).
    Two players, seat 1 deals, seat 0 moves first: seat 0 holds 10H JH QH KH 2C, draws 3C,
    lays 10H JH QH; hitting spread 1 with KH is legal and grows it to four cards.
    """
    game = tonk(
        [["10H", "JH", "QH", "KH", "2C"], ["4D", "5D", "6S", "9S", "9C"]], dealer=1, stock=["3C"]
    )
    game.act(0, "draw")
    game.act(0, "spread 10H JH QH")
    assert "hit 1 KH" in legal(game, 0)
    game.act(0, "hit 1 KH")
    table = game.view(0)["table"]
    assert sorted(table["hand"]) == ["2C", "3C"]


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


def last_hand(game):
    return [h for h in game.history(None) if h.get("kind") == "hand"][-1]


def test_TONK_STOCK_2_asking_for_the_empty_stock_pays_the_stake_under_discard_only():
    """Kills ``TonkLogic.apply`` (Draw): the stock-out settled by ``draw`` from the empty
    stock paying 1 instead of the stake S (only a random property test caught it).

    ``tonk.stock-out-discard-only`` (TONK-GAP-3): with the stock out the turn may still
    ``draw``, which asks for the empty stock and ends the hand as at stock exhaustion.
    TONK-STOCK-2 with stake S = 2 (TONK-STAKE-1: every payment is a multiple of S):
    totals seat 0 KH QS JD 9C 8H = 47, seat 1 AS 2D 3C 5H 7S = 18, seat 2 4D 6C 9D 10S JC
    = 39; seat 1 is lowest and collects 2 from each other player: (-2, +4, -2).
    """
    hands = [
        ["KH", "QS", "JD", "9C", "8H"],
        ["AS", "2D", "3C", "5H", "7S"],
        ["4D", "6C", "9D", "10S", "JC"],
    ]
    game = cardcore.new_game(
        "tonk",
        3,
        position=tonk_position(hands, [], "QC", dealer=2, turn=0),
        options={"stake": 2},
        rules=["tonk.stock-out-discard-only"],
        seed=1,
    )
    assert legal(game, 0) == ["drop", "draw", "take"]
    game.act(0, "draw")
    assert game.is_over
    hand = last_hand(game)
    assert hand["reason"] == "stock-out"
    assert hand["totals"] == [47, 18, 39]
    assert hand["amounts"] == [-2, 4, -2]


# --------------------------------------------------------------------------- Spit


def spit_position(lay0, lay1, spit0=(), spit1=(), left=(), right=(), up=()):
    """A two-pile Spit position in play: layouts as piles bottom -> top (the top face up,
    and any card named in *up*), spit cards and centre piles bottom -> top; every card not
    named lies under the left spit pile."""
    zones = {}
    for seat, lay in ((0, lay0), (1, lay1)):
        for k in range(5):
            zones[f"layout.{seat}.{k + 1}"] = list(lay[k]) if k < len(lay) else []
    zones |= {"spit.0": list(spit0), "spit.1": list(spit1), "pile.L": list(left)}
    zones["pile.R"] = list(right)
    used = [c for cards in zones.values() for c in cards]
    assert len(set(used)) == len(used)
    zones["pile.L"] = [c for c in ALL if c not in used] + zones["pile.L"]
    parts = [
        'spit v=1 phase="play" deal=1 single=-1 ready=[true,true] '
        "requests=[false,false] stall=0 recycled=false emptier=-1"
    ]
    for name, cards in zones.items():
        if name.startswith("layout"):
            words = [c + "!" if c in up or i == len(cards) - 1 else c for i, c in enumerate(cards)]
        elif name.startswith("pile"):
            words = [c + "!" for c in cards]
        else:
            words = list(cards)
        parts.append(f"{name}: {' '.join(words)}".rstrip())
    return " | ".join(parts)


def test_SPIT_STUCK_3_a_fill_that_uncovers_only_a_face_up_card_is_no_progress():
    """Kills ``legality.summary``: ``seen[z][-2] != ALL`` -> ``seen[z][0] != ALL`` (a pile
    whose bottom card is face down but whose card under the top is face up would count as
    one a fill could uncover; only a random property test caught it).

    Seat 0: pile 1 3H; pile 2 9C (face down) under 5H and 5D, both face up (5D was combined
    onto 5H); piles 3-5 QC JD 10S. Seat 1: 7C 8C 9D KC 6D. Centre L 2S, R 2D. Seat 0 plays
    3H on 2S (SPIT-MOVE-2). Now the reachable ranks are 2/4 (on 3H) and A/3 (on 2D): nobody
    has a play; seat 0 can fill the empty pile 1 with 5D, but that uncovers 5H, already face
    up, so it is no progress (SPIT-STUCK-3 b, SPIT-MOVE-7). Both players spit at once onto
    their own piles (SPIT-STUCK-1/2): 4C onto L, AC onto R, and no spit cards are left.
    """
    position = spit_position(
        [["3H"], ["9C", "5H", "5D"], ["QC"], ["JD"], ["10S"]],
        [["7C"], ["8C"], ["9D"], ["KC"], ["6D"]],
        spit0=["4C"],
        spit1=["AC"],
        left=["2S"],
        right=["2D"],
        up=["5H"],
    )
    game = cardcore.new_game("spit", 2, position=position, seed=1)
    game.act(0, "play 1 L")
    table = game.view(None)["table"]
    assert table["piles"]["L"][:3] == ["4C", "3H", "2S"]  # top first
    assert table["piles"]["R"] == ["AC", "2D"]
    assert [seat["spit_cards"] for seat in table["seats"]] == [0, 0]
