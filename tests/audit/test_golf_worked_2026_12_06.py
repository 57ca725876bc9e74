"""Independent worked-examples audit of Golf (2026-12-06): the corners the 2026-12-04 audit left.

Every expectation is worked out by hand from the seed (``/work/shared/seeds/golf.en.md``, seed
file ``001_24cd4f87f60e63bc.txt``) and ``rules-decisions.md`` section 2, and written next to the
assertion. Positions are built through the public API only: ``cardcore.new_game`` with a stacked
``deck`` or a ``position``, ``Game.act``, ``legal_actions``, ``view``, ``history``, ``result``,
``save``/``load`` and the ``cardcore rules`` command.

Conventions: positions are row-major, far row first. GOLF6 column c = positions c, c+3; GOLF8
c, c+4; GOLF10 c, c+5; GOLF9 rows 0-2 / 3-5 / 6-8; GOLF4 TL 0 TR 1 / BL 2 BR 3.

Covered here (not in ``test_golf_worked_2026_12_04.py``): removals during the setup flips,
removals in GOLF8/GOLF10/GOLF9 that complete a layout, removal + pairs anywhere, four of a kind
with pairs anywhere / HARD kings / an award that saves the ender from a penalty, three-player
penalty ties, bonus cards and jokers in GOLF9 lines, GOLF4H knocks from the middle seat,
points limits reached by several players, a GOLF4 match's rotation, the final-stock-only rule
with an empty stock, the turn cap cutting a knock, the printed rule text against the seed, and
positions the house rules cannot produce.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

import cardcore
from cardcore import Game, IllegalActionError, cli

# ---------------------------------------------------------------------------- helpers


def deal(grids: Sequence[str], upcard: str, stock: str = "", first: int = 0) -> str:
    """A deck (top first) dealing *grids* (one per seat, position order) one card at a time
    clockwise from seat *first* (left of the dealer), then the upcard, then *stock*."""
    rows = [g.split() for g in grids]
    n = len(rows)
    order = [(first + i) % n for i in range(n)]
    out = [rows[seat][pos] for pos in range(len(rows[0])) for seat in order]
    return " ".join([*out, upcard, *stock.split()])


def _bare(token: str) -> str:
    return token.split("!")[0].split("@")[0]


def full_deck(players: int, options: dict[str, Any], rules: Iterable[str]) -> list[str]:
    """Every card of a game with this configuration (read from a fresh game's position)."""
    text = cardcore.new_game("golf", players, options=options, rules=list(rules), seed=1).position()
    cards: list[str] = []
    for segment in text.split(" | ")[1:]:
        cards += [_bare(t) for t in segment.partition(":")[2].split()]
    return cards


def start(
    players: int,
    grids: Sequence[str],
    discard: str,
    stock: str = "",
    *,
    options: dict[str, Any] | None = None,
    rules: Sequence[str] = (),
    turn: int = 0,
    dealer: int | None = None,
    phase: str = "draw",
    totals: Sequence[int] | None = None,
    rest_to_discards: bool = False,
    extra: str = "",
) -> Game:
    """A game started from a position (``5H!`` face up, ``5H@0`` known to seat 0, bare = face
    down, unknown). *discard*: bottom to top. *stock*: top first; every other card of the deck
    goes under it (or under the discard pile's top with *rest_to_discards*)."""
    options = {"rounds": 1, **(options or {})}
    deck = Counter(full_deck(players, options, rules))
    used = [_bare(t) for g in grids for t in g.split()]
    used += [_bare(t) for t in discard.split()] + stock.split()
    assert not Counter(used) - deck, Counter(used) - deck
    rest = sorted((deck - Counter(used)).elements())
    layout = options.get("layout", 6)
    fields = (
        f'golf layout="{layout}" round=1 dealer={players - 1 if dealer is None else dealer}'
        f' turn={turn} phase="{phase}" turns=0 ender=null final=null'
        f" totals={json.dumps(list(totals or [0] * players)).replace(' ', '')}{extra}"
    )
    if rest_to_discards:
        discard = " ".join([*(f"{c}!" for c in rest), discard])
        rest = []
    piles = [
        f"stock: {' '.join([*rest, *reversed(stock.split())])}",
        f"discard: {discard}",
        "held: ",
        *(f"grid.{seat}: {_owned(g, seat, layout)}" for seat, g in enumerate(grids)),
    ]
    return cardcore.new_game(
        "golf",
        players,
        options=options,
        rules=list(rules),
        position=" | ".join([fields, *piles]),
        seed=5,
    )


def _owned(grid: str, seat: int, layout: Any) -> str:
    """A GOLF4H hand is always known to its owner (GOLF4H-1): mark its bare cards so."""
    if str(layout).lower() != "4h":
        return grid
    return " ".join(t if "!" in t or "@" in t else f"{t}@{seat}" for t in grid.split())


def play(game: Game, *moves: tuple[int, str]) -> None:
    for seat, text in moves:
        game.act(seat, text)


def legal(game: Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def last_round(game: Game) -> dict[str, Any]:
    return game.history(None)[-1]


def table(game: Game, seat: int | None = 0) -> dict[str, Any]:
    return game.view(seat)["table"]


def card_count(game: Game) -> int:
    return sum(z["count"] for z in game.view(0)["zones"])


def end_round_scores(
    players: int,
    grids: Sequence[str],
    *,
    options: dict[str, Any] | None = None,
    rules: Sequence[str] = (),
) -> list[int]:
    """Score *grids* as dealt: seat 0 draws and discards, and ``max_turns=1`` ends the round
    with no ender (GOLF-CAP-1), so every layout is turned up and scored exactly as given."""
    options = {"max_turns": 1, **(options or {})}
    spare = Counter(full_deck(players, {"rounds": 1, **options}, rules))
    spare -= Counter(c for g in grids for c in g.split())
    upcard, top = sorted(c for c in spare.elements() if c != "JK")[:2]
    game = start(players, list(grids), f"{upcard}!", top, options=options, rules=rules)
    play(game, (0, "draw"), (0, "discard"))
    past = last_round(game)
    assert past["ender"] is None
    return past["scores"]


# ---------------------------------------------------------------------------- removals (GOLF6-SCORE-2, GOLF9-4)


def test_remove_columns_a_pair_flipped_in_setup_leaves_at_once_and_counts_as_face_up():
    # GOLF6-SCORE-2 during GOLF6-SETUP-2: Ann's initial flips 7H (0) and 7D (3) are a face-up
    # cancelled column: it goes under the 5D upcard at once, so she has 4 cards left, all face
    # down. Removed positions count as face up: her 4th replacement completes the layout.
    grids = ["7H 2S 3S 7D 5S 6S", "AH 2H 3H 9C 8C 10C"]
    deck = deal(grids, "5D", "QD 8S 9H 4D KS 6D JC 10S")
    game = cardcore.new_game(
        "golf", 2, deck=deck, options={"rounds": 1}, rules=["golf.remove-columns"], seed=1
    )
    play(game, (0, "flip 0"), (0, "flip 3"))
    assert table(game, 1)["grids"][0] == ["--", None, None, "--", None, None]
    assert (table(game)["discard"], table(game)["discards"]) == ("5D", 3)
    assert card_count(game) == 52
    assert game.to_act == (1,)
    play(game, (1, "flip 0"), (1, "flip 1"), (0, "draw"))
    assert legal(game, 0) == ["replace 1", "replace 2", "replace 4", "replace 5", "discard"]
    play(game, (0, "replace 1"), (1, "draw"), (1, "discard"))  # QD over 2S; 8S let go
    play(game, (0, "draw"), (0, "replace 2"), (1, "draw"), (1, "discard"))  # 9H over 3S
    play(game, (0, "draw"), (0, "replace 4"), (1, "draw"), (1, "discard"))  # KS over 5S
    assert table(game)["ender"] is None  # one face-down card (position 5) left
    play(game, (0, "draw"), (0, "replace 5"))  # JC over 6S: complete (GOLF6-END-1)
    assert (table(game)["ender"], table(game)["final_turns_left"]) == (0, 1)
    play(game, (1, "draw"), (1, "discard"))  # Bob's final turn: 10S let go
    past = last_round(game)
    assert past["grids"][0] == ["--", "QD", "9H", "--", "KS", "JC"]
    # Ann: Q|K 10 + 0, 9|J 9 + 10 -> 29. Bob: A+9, 2+8, 3+10 -> 33.
    assert past["scores"] == [29, 33]
    assert past["ender"] == 0


def test_remove_triples_with_same_column_reveal_removes_the_setup_column():
    # GOLF9-1/GOLF6-SETUP-3 (all three initial cards in one column) + GOLF9-4: 7H 7D 7C flipped
    # down column 0 form a face-up triple, removed under the upcard before seat 1 sets up.
    grids = ["7H 2S 3S 7D 5S 6S 7C 8S 9S", "AH 2H 3H 9C 8C 10C 4H 5H 6H"]
    deck = deal(grids, "5D", "QD 8D")
    game = cardcore.new_game(
        "golf",
        2,
        deck=deck,
        options={"rounds": 1, "layout": 9},
        rules=["golf.remove-triples", "golf.reveal-same-column"],
        seed=1,
    )
    play(game, (0, "flip 0"), (0, "flip 3"))
    assert legal(game, 0) == ["flip 6"]
    play(game, (0, "flip 6"))
    assert table(game, 1)["grids"][0] == ["--", None, None, "--", None, None, "--", None, None]
    assert (table(game)["discard"], table(game)["discards"]) == ("5D", 4)
    assert game.to_act == (1,)
    assert card_count(game) == 52


def test_remove_triples_last_face_down_card_completes_a_triple_and_the_layout():
    # GOLF9-4 + GOLF6-END-1 + GOLF-PEN-2. Seat 0: 7S 2S 3S / 7H 4S 5S / [6S] 8S 9S, only 6S
    # face down. 7D over 6S completes column 0 (7S 7H 7D), which is removed: every position is
    # face up or removed, so seat 0 is the ender; seat 1 has one final turn.
    grids = ["7S! 2S! 3S! 7H! 4S! 5S! 6S 8S! 9S!", "AH 2H 3H AC 2C 3C KH KD KC"]
    game = start(
        2,
        grids,
        "QD!",
        "7D 8C",
        options={"layout": 9},
        rules=["golf.remove-triples", "golf.ender-penalty-10"],
    )
    play(game, (0, "draw"), (0, "replace 6"))
    assert table(game, 1)["grids"][0] == ["--", "2S", "3S", "--", "4S", "5S", "--", "8S", "9S"]
    assert (table(game)["ender"], table(game)["final_turns_left"]) == (0, 1)
    assert (table(game)["discard"], table(game)["discards"]) == ("6S", 5)
    play(game, (1, "draw"), (1, "discard"))
    past = last_round(game)
    # seat 0: 2+3+4+5+8+9 = 31. seat 1: only the K row cancels (pairs never do in GOLF9):
    # 1+2+3 + 1+2+3 = 12. 31 > 12: penalty A, 41.
    assert past["scores"] == [41, 12]
    assert game.result.winners == (1,)


@pytest.mark.parametrize(
    ("layout", "grid", "pos", "gone", "left"),
    [
        # GOLF8: column 1 = positions 1 and 5
        (8, "AS! 9S! 3S! 4S! 6S 2S 7S 8S", 5, (1, 5), [0, 2, 3, 4, 6, 7]),
        # GOLF10: column 2 = positions 2 and 7
        (10, "AS! 2S! 9S! 4S! 5S! 6S 7S 3S 8S 10S", 7, (2, 7), [0, 1, 3, 4, 5, 6, 8, 9]),
    ],
)
def test_remove_columns_geometry_of_eight_and_ten(layout, grid, pos, gone, left):
    # GOLF8-1 + GOLF6-SCORE-2: 9H over the face-down card under the face-up 9S makes a
    # cancelled, face-up column; it is removed, and those positions can no longer be replaced.
    other = "AH 2H 3H 4H 5H 6H 7H 8H 10H JH"
    other = " ".join(other.split()[:layout])
    game = start(
        2,
        [grid, other],
        "QC!",
        "9H 8D KD",
        options={"layout": layout},
        rules=["golf.remove-columns"],
    )
    play(game, (0, "draw"), (0, f"replace {pos}"))
    shown = table(game, 1)["grids"][0]
    assert [p for p, c in enumerate(shown) if c == "--"] == list(gone)
    play(game, (1, "draw"), (1, "discard"), (0, "draw"))
    assert legal(game, 0) == [f"replace {p}" for p in left] + ["discard"]
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-SCORE-2\)"):
        game.act(0, f"replace {gone[0]}")


def test_remove_columns_with_pairs_anywhere_scores_what_is_left():
    # GOLF6-SCORE-2 + GOLF6-VAR-2. 5S over the face-down 7S (position 3) pairs 5H above it: the
    # column goes. Left: 9C 5D / 2C 9D -> the 9s pair anywhere, 5 + 2 = 7. The turn cap (1)
    # ends the round there with no ender. Seat 1: AH 2H 3H / 4C 6C 8C, no pairs: 24.
    game = start(
        2,
        ["5H! 9C! 5D! 7S 2C! 9D", "AH! 2H 3H 4C 6C 8C"],
        "KD!",
        "5S",
        options={"max_turns": 1},
        rules=["golf.pairs-anywhere", "golf.remove-columns"],
    )
    play(game, (0, "draw"), (0, "replace 3"))
    past = last_round(game)
    assert past["grids"][0] == ["--", "9C", "5D", "--", "2C", "9D"]
    assert past["scores"] == [7, 24]
    assert past["ender"] is None


# ---------------------------------------------------------------------------- four of a kind (GOLF6-VAR-3)

_FOAK = "golf.four-of-a-kind-columns"


def test_four_of_a_kind_in_a_row_is_not_two_columns_even_with_pairs_anywhere():
    # GOLF8 + GOLF6-VAR-2 + GOLF6-VAR-3. Seat 0's far row 7H 7D 7S 7C: pairs anywhere cancel
    # the four 7s (2+3+4+5 = 14) but they are not two adjacent columns: no award.
    # Seat 1: AD 2D 3D 4D 5D 6D 8D 9D = 38.
    rules = ["golf.pairs-anywhere", _FOAK]
    row = ["7H 7D 7S 7C 2S 3S 4S 5S", "AD 2D 3D 4D 5D 6D 8D 9D"]
    assert end_round_scores(2, row, options={"layout": 8}, rules=rules) == [14, 38]
    # The same sevens as columns 0 and 1 (7H|7S, 7D|7C): 14, and seat 1 gets +10.
    cols = ["7H 7D 2S 3S 7S 7C 4S 5S", "AD 2D 3D 4D 5D 6D 8D 9D"]
    assert end_round_scores(2, cols, options={"layout": 8}, rules=rules) == [14, 48]


def test_four_kings_in_adjacent_columns_under_hard():
    # GOLF-SCORE-2 + GOLF6-VAR-3: KS KH 5C / KD KC 4D -> two K pairs (0 even though a king
    # scores 13) + 9; seat 1 QS JS AS / QH 9S 2S under HARD: Q|Q 0, 11+9, 1+2 = 23, +10 = 33.
    grids = ["KS KH 5C KD KC 4D", "QS JS AS QH 9S 2S"]
    assert end_round_scores(2, grids, rules=["golf.hard", _FOAK]) == [9, 33]
    # BASIC: seat 1 = 0 + 19 + 3 = 22, +10 = 32.
    assert end_round_scores(2, grids, rules=[_FOAK]) == [9, 32]


@pytest.mark.parametrize(("rules", "scores"), [([_FOAK], [13, 19]), ([], [23, 9])])
def test_four_of_a_kind_award_can_save_the_ender_from_penalty(rules, scores):
    # GOLF-PEN-4: awards first, then the penalty compares. Seat 0 ends: 7H 7D 3C / 7S 7C QD ->
    # 3 + 10 = 13. Seat 1: AH 2H 3H / AC 2C 6C -> 0 + 0 + 9 = 9.
    # With the award seat 1 has 19, so seat 0 (13) is lowest: no penalty A.
    # Without it seat 0 (13 > 9) pays +10: 23.
    grids = ["7H! 7D! 3C! 7S! 7C! 9C", "AH! 2H 3H AC 2C 6C"]
    game = start(2, grids, "5D!", "QD 8S", rules=[*rules, "golf.ender-penalty-10"])
    play(game, (0, "draw"), (0, "replace 5"), (1, "draw"), (1, "discard"))
    assert last_round(game)["ender"] == 0
    assert last_round(game)["scores"] == scores


# ---------------------------------------------------------------------------- ender penalties, three players

_SCROOGE = "10C 4C 2D AD"  # GOLF4, no pairs: 17


@pytest.mark.parametrize(
    ("rule", "third", "scores"),
    [
        # Seat 1 ties the ender at 17 (Q row pair, 10 + 7); seat 2 has 8 (2s only diagonal):
        # the ender is not lowest -> B adds 8, A adds 10.
        ("golf.ender-penalty-lowest", "2S 3H AH 2C", [25, 17, 8]),
        ("golf.ender-penalty-10", "2S 3H AH 2C", [27, 17, 8]),
        # Seat 2 has 9 + 8 + 3 + 6 = 26: the ender shares the lowest score with seat 1 -> none.
        ("golf.ender-penalty-lowest", "9S 8H 3H 6H", [17, 17, 26]),
        ("golf.ender-penalty-10", "9S 8H 3H 6H", [17, 17, 26]),
    ],
)
def test_three_player_penalty_with_a_tie_beside_the_ender(rule, third, scores):
    game = start(
        3, [_SCROOGE, "QS QH 10H 7H", third], "9C!", "8S 8D", options={"layout": "4"}, rules=[rule]
    )
    play(game, (0, "knock"), (1, "draw"), (1, "discard"), (2, "draw"), (2, "discard"))
    assert last_round(game)["ender"] == 0
    assert last_round(game)["scores"] == scores


# ---------------------------------------------------------------------------- bonus cards and jokers in GOLF9


def test_nine_card_bonus_twos_triple_cancels_to_zero():
    # GOLF9-2 + GOLF-SCORE-8/5: a row of three 2s cancels like any triple: 0, not -6.
    # Seat 0: 2S 2H 2D / 5S 6S 7S / 8S 9S 10S -> 45. Seat 1: 2C AH 3H / 4H 5H 6H / 7H 8H 9H:
    # -2 + 1+3+4+5+6+7+8+9 = 41.
    grids = ["2S 2H 2D 5S 6S 7S 8S 9S 10S", "2C AH 3H 4H 5H 6H 7H 8H 9H"]
    assert end_round_scores(2, grids, options={"layout": 9}, rules=["golf.bonus-twos"]) == [45, 41]
    assert end_round_scores(2, grids, options={"layout": 9}) == [45, 45]


def test_nine_card_one_eyed_jacks_pair_does_not_cancel_but_a_triple_does():
    # GOLF9-2: pairs never cancel in 9-card Golf, so a column pair of bonus cards (JH over JS)
    # keeps -2 -2 (GOLF-SCORE-5 cancels bonus pairs "like normal pairs": here there are none).
    # Seat 0: JH 5S 6S / JS 7S 8S / 2C 9S 10S -> -4 + 5+6+7+8+2+9+10 = 43.
    # Seat 1: JC JD QC / AH 3H 4H / 5H 6H 7H -> 10+10+10+1+3+4+5+6+7 = 56.
    pair = ["JH 5S 6S JS 7S 8S 2C 9S 10S", "JC JD QC AH 3H 4H 5H 6H 7H"]
    assert end_round_scores(2, pair, options={"layout": 9}, rules=["golf.one-eyed-jacks"]) == [
        43,
        56,
    ]
    # A row JH JS JC is a triple: 0 (not -2 -2 +10). Seat 0: 0 + 5+6+7+8+9+10 = 45.
    # Seat 1: JD AH 3H / QD 4H 5H / KD 6H 7H -> 10+1+3+10+4+5+0+6+7 = 46; HARD 11+12+13: 62.
    triple = ["JH JS JC 5S 6S 7S 8S 9S 10S", "JD AH 3H QD 4H 5H KD 6H 7H"]
    rules = ["golf.one-eyed-jacks"]
    assert end_round_scores(2, triple, options={"layout": 9}, rules=rules) == [45, 46]
    assert end_round_scores(2, triple, options={"layout": 9}, rules=[*rules, "golf.hard"]) == [
        45,
        62,
    ]


def test_nine_card_joker_triple_needs_two_decks_and_cancels():
    # 4 players: 2 decks, 4 jokers (GOLF-DECK-1/4). Seat 0: JK JK JK / 2S 3S 4S / 5S 6S 8S ->
    # the joker row cancels: 28. Seat 1: JK AH 2H / 3H 4H 5H / 6H 8H 9H -> -2 + 38 = 36.
    grids = [
        "JK JK JK 2S 3S 4S 5S 6S 8S",
        "JK AH 2H 3H 4H 5H 6H 8H 9H",
        "AC 2C 3C 4C 5C 6C 8C 9C 10C",  # 48
        "AD 2D 3D 4D 5D 6D 8D 9D 10D",  # 48
    ]
    assert end_round_scores(4, grids, options={"layout": 9}, rules=["golf.jokers"]) == [
        28,
        36,
        48,
        48,
    ]


# ---------------------------------------------------------------------------- knocking (GOLF4 / GOLF4H)

# Three GOLF4H hands: seat 0 3C 3D 5C 6C -> 3s cancel: 11; seat 1 8H 2H 9D KS -> 19;
# seat 2 4D 9S AS 4S -> 4s cancel: 9 + 1 = 10.
_HANDS = ["3C 3D 5C 6C", "8H 2H 9D KS", "4D 9S AS 4S"]


def _middle_knock(rules: Sequence[str] = (), **kw: Any) -> Game:
    """Dealer 0, seat 1 to play: seat 1 knocks; seats 2 then 0 take their final turns."""
    game = start(
        3,
        _HANDS,
        "10H!",
        "QS JD",
        options={"layout": "4h", **kw.pop("options", {})},
        rules=rules,
        turn=1,
        dealer=0,
        **kw,
    )
    play(game, (1, "knock"))
    assert table(game)["ender"] == 1
    assert table(game)["final_turns_left"] == 2
    assert game.to_act == (2,)
    assert legal(game, 2) == ["draw", "take"]  # GOLF4-KNOCK-2
    play(game, (2, "draw"), (2, "discard"))
    assert game.to_act == (0,)
    assert legal(game, 0) == ["draw", "take"]
    play(game, (0, "draw"), (0, "discard"))
    return game


def test_golf4h_knock_from_the_middle_seat_wraps_round_and_pays_penalty():
    # GOLF4-KNOCK-1 via GOLF4H-1 + GOLF-PEN-2: 19 is not the lowest -> 29.
    game = _middle_knock(["golf.ender-penalty-10"])
    assert game.is_over
    assert last_round(game)["ender"] == 1
    assert last_round(game)["scores"] == [11, 29, 10]
    assert game.result.winners == (2,)


def test_points_limit_reached_by_everyone_in_one_round_all_tie():
    # GOLF-GAME-1/2: totals 95, 87, 96 + 11, 19, 10 = 106 each: the match ends, all three share.
    game = _middle_knock(options={"rounds": None, "points_limit": 100}, totals=[95, 87, 96])
    assert game.is_over
    assert game.result.scores == (106.0, 106.0, 106.0)
    assert game.result.winners == (0, 1, 2)


def test_points_limit_reached_by_two_the_lowest_total_wins():
    # 92 + 11 = 103 and 85 + 19 = 104 pass 100; seat 2 (88 + 10 = 98) did not, and wins.
    game = _middle_knock(options={"rounds": None, "points_limit": 100}, totals=[92, 85, 88])
    assert game.is_over
    assert game.result.scores == (103.0, 104.0, 98.0)
    assert game.result.winners == (2,)


def test_points_limit_not_reached_next_round_dealt_by_the_left_neighbour():
    # 80 + 11 = 91 < 100: round 2 is dealt by seat 1 (left of dealer 0); seat 2 plays first,
    # with no setup in GOLF4H and knocking allowed at once.
    game = _middle_knock(options={"rounds": None, "points_limit": 100}, totals=[80, 70, 85])
    assert not game.is_over
    t = table(game)
    assert (t["round"], t["dealer"], t["phase"], t["totals"]) == (2, 1, "draw", [91, 89, 95])
    assert game.to_act == (2,)
    assert legal(game, 2) == ["draw", "take", "knock"]
    assert card_count(game) == 52


def test_golf4_match_rotation_over_three_rounds():
    # GOLF-DEAL-3/4: 3 players, default dealer seat 2. Round r is dealt by seat (r + 1) % 3;
    # the seat left of the dealer peeks first, then the others clockwise; it also moves first.
    # Here it knocks at once, and the two others each take one final turn (GOLF4-KNOCK-1/3).
    game = cardcore.new_game("golf", 3, options={"layout": "4", "rounds": 3}, seed=17)
    for rnd in (1, 2, 3):
        dealer = (rnd + 1) % 3
        first = (dealer + 1) % 3
        assert (table(game)["round"], table(game)["dealer"]) == (rnd, dealer)
        for k in range(3):
            seat = (first + k) % 3
            assert game.to_act == (seat,)
            assert table(game, seat)["grids"][seat] == [None] * 4  # no memory of last round
            play(game, (seat, "peek 2"), (seat, "peek 3"))
        assert game.to_act == (first,)
        play(game, (first, "knock"))
        for k in (1, 2):
            seat = (first + k) % 3
            assert game.to_act == (seat,)
            play(game, (seat, "draw"), (seat, "discard"))
        assert last_round(game)["ender"] == first
    assert game.is_over
    rounds = game.history(None)
    totals = [sum(r["scores"][s] for r in rounds) for s in range(3)]
    assert list(game.result.scores) == [float(t) for t in totals]
    assert game.result.winners == tuple(s for s in range(3) if totals[s] == min(totals))


def test_turn_cap_reached_by_the_knock_itself_ends_the_round_with_no_ender():
    # GOLF-CAP-1 counts knocks: with max_turns=1 the knock is the round's last turn, so the
    # round ends at once, no final turns, no ender and so no penalty (GOLF-PEN-1).
    game = start(
        2,
        [_SCROOGE, "QS QH 5H 7H"],
        "9C!",
        "8S",
        options={"layout": "4", "max_turns": 1},
        rules=["golf.ender-penalty-10"],
    )
    play(game, (0, "knock"))
    assert game.is_over
    assert last_round(game)["ender"] is None
    assert last_round(game)["scores"] == [17, 12]  # Scrooge 17 would have paid +10


# ---------------------------------------------------------------------------- the last turns


def test_final_stock_only_with_an_empty_stock_reshuffles_for_the_final_turn():
    # GOLF6-VAR-1 + GOLF-STOCK-1. The stock is empty and 40 cards lie in the discard pile
    # (top 5D). Seat 0 takes 5D over its last face-down 9C: it is the ender. Seat 1's final
    # turn may only draw; the 39 discards under 9C become the stock.
    game = start(
        2,
        ["AS! 2S! KS! KH! KD! 9C", "AH! 2H 3H AC 2C 3C"],
        "5D!",
        rest_to_discards=True,
        rules=["golf.final-stock-only"],
    )
    play(game, (0, "take"), (0, "replace 5"))
    assert table(game)["ender"] == 0
    assert (table(game)["stock"], table(game)["discards"], table(game)["discard"]) == (0, 40, "9C")
    assert legal(game, 1) == ["draw"]
    play(game, (1, "draw"))
    assert (table(game)["stock"], table(game)["discards"], table(game)["discard"]) == (38, 1, "9C")
    assert card_count(game) == 52
    play(game, (1, "discard"))
    # seat 0: A|K 1, 2|K 2, K|5 5 -> 8; seat 1: every column pairs -> 0
    assert last_round(game)["scores"] == [8, 0]


def test_no_final_turns_in_nine_card_golf_with_penalty_b():
    # GOLF6-END-4 (GOLF9) + GOLF-PEN-3: KC over 8S completes seat 0's layout and the round ends
    # at once. Seat 0: row 7s cancel, 2+3+4+5+6+0 = 20. Seat 1 (all face down): column of 9s
    # cancels, 2+1 + 3+1 + 4+5 = 16. 20 > 16: + 16 -> 36.
    grids = ["7S! 7H! 7D! 2S! 3S! 4S! 5S! 6S! 8S", "9S 2H AH 9H 3H AD 9D 4H 5H"]
    game = start(
        2,
        grids,
        "QC!",
        "KC",
        options={"layout": 9},
        rules=["golf.no-final-turns", "golf.ender-penalty-lowest"],
    )
    play(game, (0, "draw"), (0, "replace 8"))
    assert game.is_over
    assert last_round(game)["ender"] == 0
    assert last_round(game)["scores"] == [36, 16]


# ---------------------------------------------------------------------------- hidden information


def test_golf4_peeks_and_placed_stock_cards_never_reach_another_seats_events():
    # GOLF4-SETUP-2 / GOLF4-TURN-1/3 in the per-seat event streams: seat 0's peeks (3C, 5C)
    # and its stock card QS placed face down reach seat 1 and the spectator as None; the card
    # it replaced (4C) goes face up to the discards, so everybody sees it.
    deck = deal(["3C 4C 5C 6C", "8H 2H 8D KS"], "10H", "QS JD 9S")
    streams: dict[Any, list[Any]] = {0: [], 1: [], cardcore.SPECTATOR: []}
    subs = [(cardcore.Event, streams[s].append, s) for s in streams]
    game = cardcore.new_game(
        "golf", 2, deck=deck, options={"layout": "4", "rounds": 1}, seed=3, subscribers=subs
    )
    play(game, (0, "peek 0"), (0, "peek 2"), (1, "peek 1"), (1, "peek 3"))
    play(game, (0, "draw"), (0, "replace 1"), (1, "knock"))
    secret = {"3C", "5C", "QS"}
    for who in (1, cardcore.SPECTATOR):
        text = json.dumps([e.to_json() for e in streams[who]])
        assert not [c for c in secret if f'"{c}"' in text], who
        assert '"4C"' in text
    own = json.dumps([e.to_json() for e in streams[0]])
    assert all(f'"{c}"' in own for c in secret)
    assert '"2H"' not in own and '"KS"' not in own  # seat 1's peeks


# ---------------------------------------------------------------------------- conflicts


@pytest.mark.parametrize(
    ("rules", "layout", "ids"),
    [
        (["golf.jokers", "GOLF-SCORE-8"], 6, ("GOLF-SCORE-4", "GOLF-SCORE-8")),
        (
            ["golf.remove-columns", "golf.four-of-a-kind-columns"],
            10,
            ("GOLF6-SCORE-2", "GOLF6-VAR-3"),
        ),
        (["golf.no-final-turns", "golf.final-stock-only"], 9, ("GOLF6-END-4", "GOLF6-VAR-1")),
        (["golf.one-eyed-jacks", "golf.bonus-twos"], "4h", ("GOLF-SCORE-9", "GOLF-SCORE-8")),
    ],
)
def test_conflicting_house_rules_are_refused_naming_both(rules, layout, ids):
    with pytest.raises(cardcore.RuleConflictError) as info:
        cardcore.new_game("golf", 2, options={"layout": layout}, rules=rules, seed=1)
    assert all(rid in str(info.value) for rid in ids)


def test_compatible_house_rules_all_at_once():
    # Every rule that serves GOLF6 and conflicts with none of the others: the game starts.
    rules = [
        "golf.hard",
        "golf.jokers",
        "golf.ender-penalty-lowest",
        "golf.final-stock-only",
        "golf.pairs-anywhere",
        "golf.four-of-a-kind-columns",
        "golf.reveal-different-columns",
    ]
    game = cardcore.new_game("golf", 4, rules=rules, seed=2)
    assert card_count(game) == 108  # 2 decks for 4 players + 2 jokers each
    assert sorted(r["name"] for r in game.record()["rules"]) == sorted(rules)


# ---------------------------------------------------------------------------- the printed rules


def _rules_text(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert cli.main(["rules", "golf", *args]) == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    ("rule", "seed_words"),
    [
        # seed Part 3 Step 1: the two tables
        ("GOLF-SCORE-1", "A 1; 2-10 face value; J 10; Q 10; K 0"),
        ("GOLF-SCORE-2", "J 11; Q 12; K 13"),
        # seed Part 1 Step 1 / Part 2 Step 1: decks
        ("GOLF-DECK-1", "1 deck for 2-3 players, 2 decks for 4-7, 3 decks for 8+"),
        ("GOLF-DECK-2", "1 deck for 2-7 players, 2 decks for 8+"),
        # seed Part 3 Step 2: jokers
        ("GOLF-DECK-4", "2 jokers per 52-card deck"),
        ("GOLF-SCORE-5", "the pair scores 0, not -4"),
        # seed Part 2 Step 8
        ("GOLF4-SCORE-2", "Three of a kind: two cancel, the third scores"),
        ("GOLF4-SCORE-3", "Four of a kind: the whole grid scores 0"),
        # seed Part 4 Step 3 and Step 4
        ("GOLF9-2", "Only three cards of one rank in one row or one column cancel; pairs do not"),
        ("GOLF6-VAR-3", "every other player gets +10"),
        # seed Part 2 Step 9
        ("GOLF4-KNOCK-2", "Nobody may knock once someone has knocked"),
        # seed Part 1 Step 11
        ("GOLF6-END-1", "each other player takes exactly one more turn"),
    ],
)
def test_printed_rule_states_the_seed(capsys, rule, seed_words):
    assert seed_words in _rules_text(capsys, rule)


def test_printed_rules_keep_every_rule_id_whole(capsys):
    text = _rules_text(capsys)
    assert "GOLF- " not in text
    assert "GOLF-DECK-3 keeps the stock" in _rules_text(capsys, "GOLF-GEN-3")


# ---------------------------------------------------------------------------- positions


def test_position_turns_field_says_what_it_counts_without_a_turn_cap():
    # Without max_turns the engine counts only the turns that could end the round (so saves
    # made by 0.3.0, which counted so, still load); the position field's doc says exactly that.
    import cardcore_golf.position as golf_position

    game = cardcore.new_game("golf", 2, options={"rounds": 1}, seed=3)
    play(game, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1"))
    for _ in range(3):
        play(game, (0, "draw"), (0, "discard"), (1, "draw"), (1, "discard"))
    assert " turns=0 " in game.position()
    assert "completed turns this round that could end it" in (golf_position.__doc__ or "")


def test_position_counts_completed_turns_with_a_turn_cap():
    game = cardcore.new_game("golf", 2, options={"rounds": 1, "max_turns": 50}, seed=3)
    play(game, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1"))
    for _ in range(3):
        play(game, (0, "draw"), (0, "discard"), (1, "draw"), (1, "discard"))
    assert " turns=6 " in game.position()


@pytest.mark.parametrize(
    ("grids", "options", "rule"),
    [
        # GOLF6-SETUP-3: seat 0's two initial cards (positions 0 and 1) lie in different columns
        (["7H! 2S! 3S 4S 5S 6S", "AH 2H 3H 9C 8C 10C"], {}, "golf.reveal-same-column"),
        # GOLF6-SETUP-4: seat 0's initial cards (0 and 3) share column 0
        (["7H! 2S 3S 4S! 5S 6S", "AH 2H 3H 9C 8C 10C"], {}, "golf.reveal-different-columns"),
        # GOLF4-VAR-4: seat 0 peeked at its far row (0 and 1)
        (["7H@0 2S@0 3S 4S", "AH 2H 3H 9C"], {"layout": "4"}, "golf.peek-nearest"),
    ],
)
def test_setup_position_breaking_a_house_rule_is_refused(grids, options, rule):
    with pytest.raises(cardcore.OptionError):
        start(2, grids, "5D!", "QD", options=options, rules=[rule], phase="setup", turn=1)


def test_remove_columns_position_with_an_unremoved_column():
    grids = ["7H! 2S! 3S 7D! 5S 6S", "AH! 2H 3H 9C 8C 10C"]
    try:
        game = start(2, grids, "5D!", "QD", rules=["golf.remove-columns"])
    except cardcore.OptionError:
        return
    play(game, (0, "draw"))
    assert "replace 0" not in legal(game, 0)


# ---------------------------------------------------------------------------- documentation


def _documented_text() -> str:
    from pathlib import Path

    root = Path(cardcore.__file__).resolve().parents[2] / "docs"
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.rst")))


def test_every_public_name_of_golf_grids_is_documented():
    import re

    from cardcore_golf import grids

    docs = _documented_text()
    block = re.search(r"automodule:: cardcore_golf\.grids\n((?:\s+:[^\n]*\n)*)", docs)
    whole = block is not None and ":members:" in block.group(1)
    missing = [n for n in grids.__all__ if not whole and not re.search(rf"\b{n}\b", docs)]
    assert not missing, missing


# ---------------------------------------------------------------------------- error messages


def test_an_overlong_position_number_is_refused_for_its_length():
    game = cardcore.new_game("golf", 2, options={"layout": "4h"}, seed=1)
    before = game.position()
    with pytest.raises(cardcore.NotationError) as info:
        game.act(0, "replace 99999999999999999999999")
    assert game.position() == before
    assert "at most" in str(info.value) or "no position" in str(info.value)


def test_a_huge_but_short_position_number_names_the_missing_position():
    game = cardcore.new_game("golf", 2, options={"layout": "4h"}, seed=1)
    play(game, (0, "draw"))
    with pytest.raises(IllegalActionError, match="no position 99 in GOLF4H"):
        game.act(0, "replace 99")
    assert legal(game, 0) == ["replace 0", "replace 1", "replace 2", "replace 3", "discard"]
