"""Independent worked-examples audit of Golf and Tonk (2026-12-09).

Every expected number below was worked out by hand from the seeds (``golf.en.md``,
``tonk.en.md``), the rule IDs of ``seeds/golf.md`` / ``seeds/tonk.md`` and the decisions of
``rules-decisions.md``, before the engine was run. The situations are combinations the
earlier audits (``test_golf_worked_2026_12_04/06``, ``test_tonk_spit_worked_2026_12_04/06``,
``tests/games/*/test_worked_*``) did not reach. Only the public API is used.

Golf positions are row-major, far row first: GOLF6 column c = positions c, c+3; GOLF8 c, c+4;
GOLF10 c, c+5.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import cardcore
from cardcore import Game, IllegalActionError

# =========================================================================== Golf helpers


def _bare(token: str) -> str:
    return token.split("!")[0].split("@")[0]


def full_deck(players: int, options: dict[str, Any], rules: Sequence[str]) -> list[str]:
    """Every card of a game with this configuration (read from a fresh game's position)."""
    text = cardcore.new_game("golf", players, options=options, rules=list(rules), seed=1).position()
    cards: list[str] = []
    for segment in text.split(" | ")[1:]:
        cards += [_bare(t) for t in segment.partition(":")[2].split()]
    return cards


def golf_start(
    players: int,
    grids: Sequence[str],
    discard: str,
    stock: str = "",
    *,
    options: dict[str, Any] | None = None,
    rules: Sequence[str] = (),
    turn: int = 0,
    dealer: int | None = None,
) -> Game:
    """A Golf game from a position in the draw phase of *turn*.

    *grids*: per seat, cards in position order (``5H!`` face up, bare = face down).
    *discard*: bottom to top, each marked ``!``. *stock*: top first; every other card of the
    deck lies under it.
    """
    options = {"rounds": 1, **(options or {})}
    deck = Counter(full_deck(players, options, rules))
    used = [_bare(t) for g in grids for t in g.split()]
    used += [_bare(t) for t in discard.split()] + stock.split()
    assert not Counter(used) - deck, Counter(used) - deck
    rest = sorted((deck - Counter(used)).elements())
    layout = options.get("layout", 6)
    fields = (
        f'golf layout="{layout}" round=1 dealer={players - 1 if dealer is None else dealer}'
        f' turn={turn} phase="draw" turns=0 ender=null final=null'
        f" totals={json.dumps([0] * players).replace(' ', '')}"
    )
    piles = [
        f"stock: {' '.join([*rest, *reversed(stock.split())])}",
        f"discard: {discard}",
        "held: ",
        *(f"grid.{seat}: {g}" for seat, g in enumerate(grids)),
    ]
    return cardcore.new_game(
        "golf",
        players,
        options=options,
        rules=list(rules),
        position=" | ".join([fields, *piles]),
        seed=5,
    )


def golf_scores(
    players: int,
    grids: Sequence[str],
    *,
    options: dict[str, Any] | None = None,
    rules: Sequence[str] = (),
) -> list[int]:
    """The round scores of *grids* (face down, position order, one per seat).

    ``max_turns=1``: seat 0 draws the stock top and discards it, which ends the round with no
    ender (GOLF-CAP-1), so every layout is turned up and scored as given (GOLF-ROUND-1).
    """
    options = {"max_turns": 1, **(options or {})}
    spare = Counter(full_deck(players, {"rounds": 1, **options}, rules))
    spare -= Counter(c for g in grids for c in g.split())
    upcard, top = sorted(c for c in spare.elements() if c != "JK")[:2]
    game = golf_start(players, grids, f"{upcard}!", top, options=options, rules=rules)
    game.act(0, "draw")
    game.act(0, "discard")
    past = game.history(None)[-1]
    assert past["ender"] is None
    assert past["grids"] == [g.split() for g in grids]
    return past["scores"]


# =========================================================================== Golf


def test_golf6_four_jokers_in_two_adjacent_columns_award_ten_to_each_other_player():
    """Four players, ``golf.jokers`` + ``golf.four-of-a-kind-columns``.

    GOLF-DECK-1: 4 players -> 2 decks; GOLF-DECK-4: 2 jokers per deck -> 4 jokers.
    Seat 0: far row JK JK 5H / near row JK JK 5D. Columns 0 and 1 are JK/JK pairs (GOLF-SCORE-5:
    a joker pair scores 0, not -4), column 2 is 5/5 (GOLF6-SCORE-1): 0.
    Columns 0 and 1 are adjacent and hold four of the same card (four jokers): seed Part 4
    Step 4, GOLF6-VAR-3 -> 0 for seat 0 and +10 for every other player.
    Seat 1: A/4, 2/6, 3/7 = 5 + 8 + 10 = 23 -> 33. Seat 2 (spades) the same: 33.
    Seat 3: 8H/QH, 9H/QS, 10H/8S = 18 + 19 + 18 = 55 -> 65.
    Without the four-of-a-kind rule: [0, 23, 23, 55].
    """
    grids = [
        "JK JK 5H JK JK 5D",
        "AH 2H 3H 4H 6H 7H",
        "AS 2S 3S 4S 6S 7S",
        "8H 9H 10H QH QS 8S",
    ]
    assert golf_scores(4, grids, rules=["golf.jokers"]) == [0, 23, 23, 55]
    assert golf_scores(4, grids, rules=["golf.jokers", "golf.four-of-a-kind-columns"]) == [
        0,
        33,
        33,
        65,
    ]


def test_golf6_pairs_anywhere_with_three_jokers_cancels_one_pair_and_the_third_scores():
    """Four players (2 decks, 4 jokers), ``golf.jokers`` with and without ``golf.pairs-anywhere``.

    Pairs anywhere (GOLF6-VAR-2): per rank floor(count/2) pairs cancel; jokers pair only with
    jokers (GOLF-SCORE-6) and a joker pair scores 0 (GOLF-SCORE-5: "raising your score from
    -4 to 0", so the pair must cancel even though keeping it would be lower).
    Seat 0 JK JK JK / 5H 6H 7H: one joker pair cancels, -2 + 5 + 6 + 7 = 16.
        Columns only: JK/5H, JK/6H, JK/7H = 3 + 4 + 5 = 12.
    Seat 1 JK 4C 4D / 8C 8D 2C: pairs 4-4 (a row) and 8-8 (a row), -2 + 2 = 0.
        Columns only: JK/8C 6, 4C/8D 12, 4D/2C 6 = 24.
    Seat 2 AH AD 2H / 3D 3H 2D: A, 2, 3 pairs: 0. Columns only: AH/3D 4, AD/3H 4, 2H/2D 0 = 8.
    Seat 3 KH KD KS / QC QD 10C (BASIC K = 0): K pair + K 0, Q pair, 10 -> 10.
        Columns only: K/Q 10 three times = 30.
    """
    grids = [
        "JK JK JK 5H 6H 7H",
        "JK 4C 4D 8C 8D 2C",
        "AH AD 2H 3D 3H 2D",
        "KH KD KS QC QD 10C",
    ]
    assert golf_scores(4, grids, rules=["golf.jokers"]) == [12, 24, 8, 30]
    assert golf_scores(4, grids, rules=["golf.jokers", "golf.pairs-anywhere"]) == [16, 0, 0, 10]


def test_golf10_hard_one_eyed_jacks_pairs_anywhere_keeps_a_one_eyed_jack():
    """Two players, GOLF10 (2 x 5, column c = c, c+5), ``golf.hard`` + ``golf.one-eyed-jacks``.

    HARD (GOLF-SCORE-2): J 11, Q 12, K 13; one-eyed jacks JH, JS score -2 (GOLF-SCORE-9).
    Seat 0 far row JH JC JS 2H 3H / near row KH KS QH 4H 5H.
    Pairs anywhere (GOLF6-VAR-2, GOLF-SCORE-7): three jacks -> one pair cancels; keeping a
    one-eyed jack (-2) is lowest; the K pair cancels; Q 12; 2 + 3 + 4 + 5 = 14:
    -2 + 12 + 14 = 24.
    Columns only: JH/KH -2 + 13 = 11, JC/KS 24, JS/QH 10, 2H/4H 6, 3H/5H 8 = 59.
    Seat 1 AC..10C, no pairs: 55 either way.
    """
    grids = ["JH JC JS 2H 3H KH KS QH 4H 5H", "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C"]
    opts = {"layout": 10}
    base = ["golf.hard", "golf.one-eyed-jacks"]
    assert golf_scores(2, grids, options=opts, rules=base) == [59, 55]
    assert golf_scores(2, grids, options=opts, rules=[*base, "golf.pairs-anywhere"]) == [24, 55]


def test_golf8_a_layout_completed_in_a_final_turn_makes_no_second_ender():
    """Three players, GOLF8 (column c = c, c+4), ``golf.ender-penalty-10``; seat 0 to move.

    Seat 0 replaces its last face-down card (pos 7) with the drawn AC: it is the ender
    (GOLF-PEN-1) and seats 1 and 2 take one last turn each (GOLF6-END-1).
    Seat 1 completes its layout too (KD for pos 7) during its final turn: no new trigger, no
    new turns, and it is not the ender (GOLF6-END-2).
    Seat 2 draws 4C and discards it; the round ends and 10C is turned up (GOLF6-END-3).
    Seat 0: 2H/6H 8, 3H/7H 10, 4H/8H 12, 5H/AC 6 = 36, not lowest -> +10 = 46 (GOLF-PEN-2).
    Seat 1: 2D/6D 8, 3D/7D 10, 4D/8D 12, 5D/KD 5 = 35 (no penalty: not the ender).
    Seat 2: AH/AD 0, AS/3S 4, 2S/3C 5, 2C/10C 12 = 21 (lowest).
    """
    grids = [
        "2H! 3H! 4H! 5H! 6H! 7H! 8H! 9H",
        "2D! 3D! 4D! 5D! 6D! 7D! 8D! 9D",
        "AH! AS! 2S! 2C! AD! 3S! 3C! 10C",
    ]
    game = golf_start(
        3,
        grids,
        "QC!",
        "AC KD 4C",
        options={"layout": 8},
        rules=["golf.ender-penalty-10"],
    )
    game.act(0, "draw")
    game.act(0, "replace 7")
    assert game.to_act == (1,)
    game.act(1, "draw")
    game.act(1, "replace 7")
    assert game.to_act == (2,)
    game.act(2, "draw")
    game.act(2, "discard")
    assert game.is_over
    past = game.history(None)[-1]
    assert past["ender"] == 0
    assert past["grids"][2][7] == "10C"
    assert past["scores"] == [46, 35, 21]
    assert game.result.winners == (2,)


def test_golf4_diagonal_joker_pair_cancels_to_zero_not_minus_four_under_hard():
    """Two players, GOLF4 (TL 0, TR 1 / BL 2, BR 3), ``golf.jokers`` + ``golf.hard``.

    Seat 0: JK 5C / 9D JK - the jokers lie on a diagonal. Without ``golf.diagonal-pairs``
    only row/column pairs cancel (GOLF4-SCORE-1): -2 + 5 + 9 - 2 = 10. With it (seed Part 4
    Step 5, GOLF4-VAR-1) the diagonal joker pair cancels like any pair, -4 -> 0
    (GOLF-SCORE-5): 5 + 9 = 14.
    Seat 1: KH 7S / 7D KS (HARD K 13): no row/column pair: 13 + 7 + 7 + 13 = 40; both pairs
    diagonal: 0.
    """
    grids = ["JK 5C 9D JK", "KH 7S 7D KS"]
    opts = {"layout": "4"}
    base = ["golf.jokers", "golf.hard"]
    assert golf_scores(2, grids, options=opts, rules=base) == [10, 40]
    assert golf_scores(2, grids, options=opts, rules=[*base, "golf.diagonal-pairs"]) == [14, 0]


def _score6(grid: list[str]) -> int:
    """GOLF6 BASIC by the seed alone: A 1, 2-10 face, J/Q 10, K 0; a column of equal rank
    labels scores 0 (Part 1 Step 10, Part 3 Step 1)."""

    def value(card: str) -> int:
        rank = card[:-1]
        faces = {"A": 1, "J": 10, "Q": 10, "K": 0}
        return faces[rank] if rank in faces else int(rank)

    total = 0
    for c in range(3):
        top, low = grid[c], grid[c + 3]
        if top[:-1] != low[:-1]:
            total += value(top) + value(low)
    return total


def test_golf6_four_players_dealer_option_rotates_three_rounds_and_totals_add_up():
    """Four players, ``dealer=1``, ``max_turns=1`` (each round ends after its first turn),
    ``rounds=3``.

    GOLF-DEAL-3 / seed Part 1 Step 13: the deal passes left each round -> dealers 1, 2, 3;
    the player left of the dealer acts first -> setup flips start with seats 2, 3, 0 and the
    single turn of each round is played by seats 2, 3, 0 (GOLF-DEAL-4).
    Every round is scored by the seed's column rule (computed here, not read back), the totals
    are the sums (Step 14), and the lowest total wins (ties share).
    """
    game = cardcore.new_game("golf", 4, options={"rounds": 3, "max_turns": 1, "dealer": 1}, seed=21)
    orders: list[list[int]] = []
    turn_seats: list[int] = []
    dealers: list[int] = []
    while not game.is_over:
        dealers.append(game.view(None)["table"]["dealer"])
        order: list[int] = []
        for _ in range(8):
            seat = game.to_act[0]
            order.append(seat)
            flips = [str(a) for a in game.legal_actions(seat) if str(a).startswith("flip")]
            game.act(seat, flips[0])
        orders.append(order)
        turn_seats.append(game.to_act[0])
        game.act(game.to_act[0], "draw")
        game.act(game.to_act[0], "discard")
    assert dealers == [1, 2, 3]
    assert orders == [
        [2, 2, 3, 3, 0, 0, 1, 1],
        [3, 3, 0, 0, 1, 1, 2, 2],
        [0, 0, 1, 1, 2, 2, 3, 3],
    ]
    assert turn_seats == [2, 3, 0]
    rounds = game.history(None)
    assert [r["round"] for r in rounds] == [1, 2, 3]
    for r in rounds:
        assert r["scores"] == [_score6(g) for g in r["grids"]]
    totals = [sum(r["scores"][s] for r in rounds) for s in range(4)]
    assert rounds[-1]["totals"] == totals
    assert game.result.scores == tuple(float(t) for t in totals)
    assert game.result.winners == tuple(s for s in range(4) if totals[s] == min(totals))


# =========================================================================== Tonk helpers

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL = [r + s for s in "SHDC" for r in RANKS]


def tonk_deck(hands, up, stock=(), dealer=0):
    """A stacked Tonk deck, top first: five rounds of one card each from the dealer's left
    (TONK-DEAL-1), the upcard if any (TONK-DEAL-2), then the top of the stock."""
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    out = [hands[seat][r] for r in range(5) for seat in order]
    if up:
        out.append(up)
    out += list(stock)
    assert len(set(out)) == len(out)
    return out + [c for c in ALL if c not in out]


def tonk(dealt, up="8S", stock=(), dealer=0, stake=1, rules=(), **options):
    opts = {"first_dealer": dealer, "stake": stake, **options}
    deck = " ".join(tonk_deck(dealt, up, stock, dealer))
    return cardcore.new_game("tonk", len(dealt), deck=deck, options=opts, seed=3, rules=list(rules))


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


def tplay(game, seat, *texts):
    for text in texts:
        game.act(seat, text)


def tlegal(game, seat):
    return [str(a) for a in game.legal_actions(seat)]


def balances(game):
    return game.view(None)["table"]["balances"]


# =========================================================================== Tonk


_TONK_FIRST_TURN = [
    ["7C", "7D", "3C", "3D", "3H"],  # 23
    ["2S", "5S", "9H", "JD", "QC"],  # 36
    ["4H", "6S", "8D", "10C", "KH"],  # 38
]


@pytest.mark.parametrize(
    ("rules", "up", "stock", "first"),
    [
        ((), "7S", (), "take"),
        (
            ("tonk.double-needs-spread", "tonk.must-lay-down", "tonk.hit-blocks-drop"),
            "7S",
            (),
            "take",
        ),
        (("tonk.no-upcard", "tonk.double-needs-spread"), None, ("7S",), "draw"),
    ],
)
def test_tonk_out_on_the_first_turn_with_the_first_card_three_players_stake_four(
    rules, up, stock, first
):
    """Three players, stake S = 4, dealer 2 -> seat 0 moves first (TONK-TURN-1).

    Seat 0 holds 7C 7D 3C 3D 3H (23; nobody holds 49/50). It takes the upcard 7S (or, with no
    upcard, TONK-VAR-1, must draw it from the stock), lays 7C 7D 7S and 3C 3D 3H and holds no
    card without discarding: tonked out, 2S = 8 from each other player (TONK-OUT-1):
    (+16, -8, -8). Under TONK-VAR-3 it laid new spreads, so it still gets 2S; holding the
    dealt book until then is no breach of TONK-VAR-2 (checked at a discard).
    """
    game = tonk(_TONK_FIRST_TURN, up=up, stock=stock, dealer=2, stake=4, rules=rules)
    assert game.to_act == (0,)
    if up is None:
        assert "take" not in tlegal(game, 0)
    tplay(game, 0, first, "spread 7C 7D 7S", "spread 3C 3D 3H")
    assert game.is_over
    assert game.result.reason == "tonk-out"
    assert game.result.payouts == (16, -8, -8)
    assert game.result.scores == (4.0, -2.0, -2.0)


def test_tonk_must_lay_down_four_card_run_only_a_middle_discard_is_legal():
    """``tonk.must-lay-down`` (TONK-VAR-2), two players, dealer 1 -> seat 0 first.

    Seat 0 holds 4H 5H 6H 7H KD and draws 9C. A discard may not leave a run in hand:
    discarding 9C, KD, 4H or 7H leaves 4-5-6-7, 5-6-7 or 4-5-6 (runs: TONK-SPREAD-2); only 5H
    or 6H breaks every run (4H + 6H 7H / 4H 5H + 7H). So the legal discards are 5H and 6H.
    Without the variant all six cards may be discarded (TONK-TURN-3).
    """
    hands = [["4H", "5H", "6H", "7H", "KD"], ["2C", "3S", "8D", "9S", "JC"]]
    found = {}
    for rules in ((), ("tonk.must-lay-down",)):
        game = tonk(hands, up="QC", stock=["9C"], dealer=1, rules=rules)
        game.act(0, "draw")
        found[rules] = sorted(t.split()[1] for t in tlegal(game, 0) if t.startswith("discard"))
    assert found[()] == sorted(["4H", "5H", "6H", "7H", "KD", "9C"])
    assert found[("tonk.must-lay-down",)] == ["5H", "6H"]
    game = tonk(hands, up="QC", stock=["9C"], dealer=1, rules=["tonk.must-lay-down"])
    game.act(0, "draw")
    with pytest.raises(IllegalActionError, match=r"\(TONK-VAR-2\)"):
        game.act(0, "discard 7H")  # 4-5-6 would stay in hand
    game.act(0, "discard 6H")
    assert game.to_act == (1,)


def test_tonk_a_high_run_takes_a_ten_below_but_no_ace_above_the_king():
    """Seat 0 lays JS QS KS; seat 1 may hit it with 10S (run extended at the low end,
    TONK-HIT-1, TONK-HIT-2: any player's spread) but not with AS: the ace is low only, so
    Q-K-A is no run (TONK-SPREAD-2). Seat 1 then discards 2C: hand AS 5D 8D 4C = 18.
    """
    hands = [["JS", "QS", "KS", "4D", "7C"], ["10S", "AS", "5D", "8D", "4C"]]
    game = tonk(hands, up="6H", stock=["9H", "2C"], dealer=1)
    tplay(game, 0, "draw", "spread JS QS KS", "discard 9H")
    game.act(1, "draw")
    hits = [t for t in tlegal(game, 1) if t.startswith("hit")]
    assert hits == ["hit 1 10S"]
    with pytest.raises(IllegalActionError, match=r"\(TONK-HIT-1\)"):
        game.act(1, "hit 1 AS")
    tplay(game, 1, "hit 1 10S", "discard 2C")
    assert sorted(game.view(0)["table"]["spreads"][0]["cards"]) == sorted(["10S", "JS", "QS", "KS"])


def test_tonk_caught_drop_by_the_third_seat_stake_five():
    """Three players, S = 5, dealer 1 -> seat 2 moves first and drops at once (TONK-TURN-2,
    allowed on the first turn).

    Totals (TONK-DROP-1, TONK-VAL-1): seat 0 3+3+4+4+6 = 20, seat 1 1+1+1+1+2 = 6, seat 2
    2+2+2+3+3 = 12 (a book held in hand still counts: only spreads on the table leave the
    total). Seat 2 is not lowest: caught; pays 2S = 10 to every player at or below 12: seat 1
    only (TONK-DROP-3). The lowest non-dropper, seat 1, also collects S = 5 from every player
    other than the dropper: seat 0 (TONK-DROP-4). Net (-5, +15, -10), scores in stakes
    (-1, 3, -2).
    """
    hands = [
        ["3H", "3C", "4C", "4D", "6H"],
        ["AD", "AS", "AC", "AH", "2S"],
        ["2D", "2H", "2C", "3S", "3D"],
    ]
    game = tonk(hands, up="9H", dealer=1, stake=5)
    assert game.to_act == (2,)
    game.act(2, "drop")
    assert hands_of(game)[0]["totals"] == [20, 6, 12]
    assert game.result.reason == "drop-caught"
    assert game.result.payouts == (-5, 15, -10)
    assert game.result.scores == (-1.0, 3.0, -2.0)
    assert game.result.winners == (1,)


def test_tonk_session_stake_three_stock_out_natural_then_tied_drop():
    """Two players, S = 3, ``hands=3``; hand 1 starts from a position (dealer 1, seat 0 to
    move, one stock card left).

    Hand 1: seat 0 draws the last stock card 5D and discards KS: it finishes that turn
    (TONK-STOCK-1); seat 1's turn begins with an empty stock, so the hand ends with no drop
    and no draw. Totals: seat 0 2+3+1+4+5 = 15, seat 1 1+2+9+9+10 = 31; the lowest, seat 0,
    collects S = 3 (TONK-STOCK-2): (+3, -3).
    Hand 2: the deal passes left to seat 0 (TONK-DEALER-2), who acts ``deal``; seat 1 is dealt
    K Q J 10 10 = 50: natural, 2S = 6 from seat 0 (TONK-49-1): (-6, +6); balances (-3, +3).
    Hand 3: seat 1 deals, seat 0 moves first and drops with 15 against 15: a tie is not
    lowest (TONK-DROP-2), so seat 0 is caught and pays 2S = 6 to seat 1 (TONK-DROP-3); no
    other player pays the lowest (TONK-DROP-4): (-6, +6); balances (-9, +9).
    Result: payouts (-9, 9), scores (-3, 3), winner seat 1, reason of the last hand.
    """
    from cardcore_tonk.position import stack_deals

    start = tonk_position(
        [["2C", "3C", "AD", "4S", "KS"], ["AH", "2H", "9S", "9H", "QD"]],
        ["5D"],
        "8H",
        dealer=1,
        turn=0,
    )
    h2 = [["2C", "3C", "4D", "5D", "7H"], ["KS", "KH", "QD", "JC", "10S"]]
    h3 = [["2H", "3H", "4S", "5S", "AC"], ["AD", "2D", "3S", "4C", "5C"]]
    pos = stack_deals(start, [tonk_deck(h2, "9C", dealer=0), tonk_deck(h3, "9C", dealer=1)])
    opts = {"hands": 3, "stake": 3}
    game = cardcore.new_game("tonk", 2, position=pos, options=opts, seed=1)
    tplay(game, 0, "draw", "discard KS")
    assert balances(game) == [3, -3]
    assert tlegal(game, 0) == ["deal"]
    game.act(0, "deal")
    assert balances(game) == [-3, 3]
    assert tlegal(game, 1) == ["deal"]
    game.act(1, "deal")
    assert game.to_act == (0,)
    game.act(0, "drop")
    entries = hands_of(game)
    assert [e["reason"] for e in entries] == ["stock-out", "natural", "drop-caught"]
    assert [e["dealer"] for e in entries] == [1, 0, 1]
    assert [e["amounts"] for e in entries] == [[3, -3], [-6, 6], [-6, 6]]
    assert entries[0]["totals"] == [15, 31]
    assert entries[2]["totals"] == [15, 15]
    assert game.result.payouts == (-9, 9)
    assert game.result.scores == (-3.0, 3.0)
    assert game.result.winners == (1,)
    assert game.result.reason == "drop-caught"


@pytest.mark.parametrize(
    ("rules", "reason", "payouts"),
    [
        ((), "stock-out", (4, -4)),
        (("tonk.stock-out-discard-only",), "drop-caught", (8, -8)),
    ],
)
def test_tonk_empty_stock_drop_only_under_discard_only_play(rules, reason, payouts):
    """Two players, S = 4, position: dealer 1, seat 0 to move, one stock card.

    Seat 0 draws the last stock card 5D and discards KS: 2+3+1+4+5 = 15. Seat 1 holds
    1+2+9+9+10 = 31.
    Default (TONK-STOCK-1/2): seat 1's turn begins with an empty stock, the hand ends; the
    lowest, seat 0, collects S: (+4, -4).
    ``tonk.stock-out-discard-only`` (TONK-VAR-5): the hand goes on; seat 1 may drop at the
    start of its turn (TONK-TURN-2). It drops with 31 against 15: caught, pays 2S = 8 to
    seat 0 (TONK-DROP-3); no one else pays: (+8, -8).
    """
    pos = tonk_position(
        [["2C", "3C", "AD", "4S", "KS"], ["AH", "2H", "9S", "9H", "QD"]],
        ["5D"],
        "8H",
        dealer=1,
        turn=0,
    )
    game = cardcore.new_game(
        "tonk", 2, position=pos, options={"stake": 4}, rules=list(rules), seed=1
    )
    tplay(game, 0, "draw", "discard KS")
    if rules:
        assert "drop" in tlegal(game, 1)
        game.act(1, "drop")
    assert game.is_over
    assert game.result.reason == reason
    assert game.result.payouts == payouts


@pytest.mark.parametrize(
    ("rules", "payouts"),
    [((), (4, -4)), (("tonk.double-needs-spread",), (2, -2))],
)
def test_tonk_out_by_hits_on_a_turn_after_laying_the_spread(rules, payouts):
    """Two players, S = 2, dealer 1 -> seat 0 first.

    Turn 1: seat 0 (5H 6H 7H 8H 9H) draws KC, lays 5H 6H 7H, discards KC; keeps 8H 9H.
    Seat 1 draws 3S and discards it. Turn 2: seat 0 draws 4H and hits 8H, 9H and 4H onto its
    run (4-5-6-7-8-9 hearts): the hand is empty without a discard, a tonk-out (TONK-OUT-1):
    2S = 4 from seat 1 -> (+4, -4).
    Under ``tonk.double-needs-spread`` (TONK-VAR-3, seed: "double ... if they make a new spread
    and get rid of all their cards without discarding"; "only the basic stake if they merely
    hit"): the spread was laid on an earlier turn, this turn only hit, so S = 2 -> (+2, -2).
    """
    hands = [["5H", "6H", "7H", "8H", "9H"], ["2S", "4D", "JC", "QC", "KD"]]
    game = tonk(hands, up="KS", stock=["KC", "3S", "4H"], dealer=1, stake=2, rules=rules)
    tplay(game, 0, "draw", "spread 5H 6H 7H", "discard KC")
    tplay(game, 1, "draw", "discard 3S")
    tplay(game, 0, "draw", "hit 1 8H", "hit 1 9H", "hit 1 4H")
    assert game.is_over
    assert game.result.reason == "tonk-out"
    assert game.result.payouts == payouts
