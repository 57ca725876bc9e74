"""Worked-examples audit of Golf (2026-12-04): every layout, both scoring tables, every house rule.

Each test builds a concrete situation through the public API only (``cardcore.new_game`` with a
stacked ``deck`` or a ``position``, ``Game.act``, ``legal_actions``, ``view``, ``history``,
``result``) and checks it against numbers worked out by hand from the seed
(``/work/shared/seeds/golf.en.md``) and the rule decisions (``rules-decisions.md``, section 2).
The hand computation is written next to each expectation.

Conventions: positions are row-major, far row first. GOLF6 column c = positions c, c+3;
GOLF8 c, c+4; GOLF10 c, c+5; GOLF9 rows 0-2 / 3-5 / 6-8; GOLF4 TL 0 TR 1 / BL 2 BR 3.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

import cardcore
from cardcore import Game, IllegalActionError

# ---------------------------------------------------------------------------- helpers


def deal(grids: Sequence[str], upcard: str, stock: str = "", first: int = 0) -> str:
    """A deck (top first) that deals *grids* (one per seat, position order) one card at a time
    clockwise starting with seat *first* (left of the dealer), then the upcard, then *stock*."""
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
    rnd: int = 1,
    totals: Sequence[int] | None = None,
    turns: int = 0,
    rest_to_discards: bool = False,
) -> Game:
    """A game started from a position.

    *grids*: per seat, cards in position order (``5H!`` face up, ``5H@0`` known to seat 0,
    bare = face down, unknown). *discard*: bottom to top, each marked ``!``. *stock*: top first;
    every other card of the deck goes under it.
    """
    options = {"rounds": 1, **(options or {})}
    deck = Counter(full_deck(players, options, rules))
    used: list[str] = []
    for g in grids:
        used += [_bare(t) for t in g.split()]
    used += [_bare(t) for t in discard.split()]
    used += stock.split()
    assert not Counter(used) - deck, Counter(used) - deck
    rest = sorted((deck - Counter(used)).elements())
    layout = options.get("layout", 6)
    fields = (
        f'golf layout="{layout}" round={rnd} dealer={players - 1 if dealer is None else dealer}'
        f' turn={turn} phase="{phase}" turns={turns} ender=null final=null'
        f" totals={json.dumps(list(totals or [0] * players)).replace(' ', '')}"
    )
    if rest_to_discards:  # an empty stock: every other card lies under the discard pile's top
        discard = " ".join([*(f"{c}!" for c in rest), discard])
        rest = []
    piles = [
        f"stock: {' '.join([*rest, *reversed(stock.split())])}",
        f"discard: {discard}",
        "held: ",
        *(f"grid.{seat}: {_owned(g, seat, layout)}" for seat, g in enumerate(grids)),
    ]
    text = " | ".join([fields, *piles])
    return cardcore.new_game(
        "golf", players, options=options, rules=list(rules), position=text, seed=5
    )


def _owned(grid: str, seat: int, layout: Any) -> str:
    """*grid* with each bare card of a GOLF4H hand marked known to its owner (GOLF4H-1)."""
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
    zones = game.view(0)["zones"]
    return sum(z["count"] for z in zones)


def end_round_scores(
    players: int,
    grids: Sequence[str],
    *,
    options: dict[str, Any] | None = None,
    rules: Sequence[str] = (),
) -> list[int]:
    """Score *grids* (position order, one per seat) by ending the round with the turn cap.

    ``max_turns=1``: seat 0 draws the stock top and discards it, which ends the round with no
    ender (GOLF-CAP-1), so the layouts are turned up and scored exactly as given.
    """
    options = {"max_turns": 1, **(options or {})}
    shown = list(grids)  # face down: every card is turned up and scored at the round's end
    spare = Counter(full_deck(players, {"rounds": 1, **options}, rules))
    spare -= Counter(c for g in grids for c in g.split())
    upcard, top = sorted(c for c in spare.elements() if c != "JK")[:2]
    game = start(players, shown, f"{upcard}!", top, options=options, rules=rules)
    play(game, (0, "draw"), (0, "discard"))
    past = last_round(game)
    assert past["ender"] is None
    return past["scores"]


# ---------------------------------------------------------------------------- deal and decks


def test_deal_starts_left_of_dealer_one_card_at_a_time_and_left_of_dealer_acts_first():
    # GOLF-DEAL-1/2/3, 3 players, dealer seat 0: seat 1 gets the 1st card, seat 2 the 2nd,
    # seat 0 the 3rd; card j of a player goes to position j; then the upcard; seat 1 acts first.
    grids = ["AC 2C 3C 4C 5C 6C", "AD 2D 3D 4D 5D 6D", "AH 2H 3H 4H 5H 6H"]
    deck = deal(grids, "KS", "QS", first=1)
    game = cardcore.new_game("golf", 3, deck=deck, options={"dealer": 0}, seed=2)
    assert game.to_act == (1,)
    assert table(game)["discard"] == "KS"
    assert table(game)["stock"] == 52 - 18 - 1
    play(game, (1, "flip 0"), (1, "flip 5"))
    assert game.to_act == (2,)
    play(game, (2, "flip 2"), (2, "flip 3"))
    assert game.to_act == (0,)
    play(game, (0, "flip 1"), (0, "flip 4"))
    grids_seen = table(game, None)["grids"]
    assert grids_seen[1] == ["AD", None, None, None, None, "6D"]
    assert grids_seen[2] == [None, None, "3H", "4H", None, None]
    assert grids_seen[0] == [None, "2C", None, None, "5C", None]
    assert game.to_act == (1,)  # the first turn: left of the dealer
    assert legal(game, 1) == ["draw", "take"]
    play(game, (1, "draw"))
    assert table(game, 1)["held"] == {"seat": 1, "card": "QS"}


@pytest.mark.parametrize(
    ("players", "layout", "rules", "cards"),
    [
        (2, 6, [], 52),
        (3, 6, [], 52),  # GOLF-DECK-1: 1 deck for 2-3
        (4, 6, [], 104),  # 2 decks from 4 players
        (7, 6, [], 104),
        (8, 6, [], 156),  # 3 decks from 8
        (3, 8, [], 52),
        (3, 10, [], 52),  # 52 - 30 - 1 = 21 >= 3: no extra deck
        (4, 9, [], 104),
        (7, "4", [], 52),  # GOLF-DECK-2: 1 deck for 2-7
        (8, "4", [], 104),  # 2 decks for 8+
        (7, "4h", [], 52),
        (8, "4h", [], 104),
        (2, 6, ["golf.jokers"], 54),  # GOLF-DECK-4: 2 jokers per deck
        (4, 6, ["golf.jokers"], 108),
        (8, "4", ["golf.jokers"], 108),
        # GOLF-DECK-3: 16 x 9 = 144 + upcard from 3 decks leaves 11 < 16: a 4th deck.
        (16, 9, [], 208),
        # ... but with jokers 162 - 145 = 17 >= 16: 3 decks are enough.
        (16, 9, ["golf.jokers"], 162),
        # 20 x 10 + 1 = 201: 4 decks leave 7 < 20, so 5 decks.
        (20, 10, [], 260),
        # 9 x 10 + 1 = 91 from 3 decks leaves 65 >= 9
        (9, 10, [], 156),
        # 25 x 6 + 1 = 151: 3 decks leave 5 < 25, 4 decks leave 57
        (25, 6, [], 208),
        # 64 x 4 + 1 = 257: need 52k - 257 >= 64 -> k = 7
        (64, "4", [], 364),
        # with jokers 54k - 257 >= 64 -> k = 6
        (64, "4h", ["golf.jokers"], 324),
        # 64 x 10 + 1 = 641: 52k >= 705 -> k = 14
        (64, 10, [], 728),
    ],
)
def test_deck_count(players, layout, rules, cards):
    game = cardcore.new_game("golf", players, options={"layout": layout}, rules=rules, seed=3)
    assert card_count(game) == cards
    size = {6: 6, 8: 8, 9: 9, 10: 10, "4": 4, "4h": 4}[layout]
    assert table(game)["stock"] == cards - players * size - 1
    assert table(game)["discards"] == 1


def test_jokers_are_in_the_deck_as_two_per_deck():
    deck = full_deck(4, {}, ["golf.jokers"])
    assert Counter(deck)["JK"] == 4
    assert Counter(full_deck(2, {}, []))["JK"] == 0


# ---------------------------------------------------------------------------- setup phases


@pytest.mark.parametrize(
    ("layout", "size", "flips", "rows", "cols"),
    [(6, 6, 2, 2, 3), (8, 8, 2, 2, 4), (10, 10, 2, 2, 5), (9, 9, 3, 3, 3)],
)
def test_initial_flips_per_layout(layout, size, flips, rows, cols):
    # GOLF6-SETUP-2, GOLF8-1, GOLF9-1: each player turns 2 (GOLF9: 3) cards, one at a time.
    game = cardcore.new_game("golf", 2, options={"layout": layout}, seed=4)
    assert (table(game)["rows"], table(game)["cols"]) == (rows, cols)
    assert legal(game, 0) == [f"flip {p}" for p in range(size)]
    assert legal(game, 1) == []
    for k in range(flips):
        game.act(0, f"flip {k}")
        if k < flips - 1:
            assert f"flip {k}" not in legal(game, 0)
            assert game.to_act == (0,)
    assert game.to_act == (1,)
    # seat 0's flipped cards are public; the others stay hidden to everyone, owner included
    shown = table(game, 1)["grids"][0]
    assert all(c is not None for c in shown[:flips])
    assert shown[flips:] == [None] * (size - flips)
    assert table(game, 0)["grids"][0] == shown
    for k in range(flips):
        game.act(1, f"flip {size - 1 - k}")
    assert game.to_act == (0,)
    assert legal(game, 0) == ["draw", "take"]  # GOLF6-KNOCK-1: no knock


def test_flip_twice_or_out_of_turn_is_refused_and_changes_nothing():
    game = cardcore.new_game("golf", 2, seed=4)
    game.act(0, "flip 2")
    before = game.position()
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-SETUP-2\)"):
        game.act(0, "flip 2")
    with pytest.raises(IllegalActionError, match=r"\(CORE-TURN-1\)"):
        game.act(1, "flip 0")
    assert game.position() == before


def test_golf4_peeks_are_private_and_two_each():
    # GOLF4-SETUP-2 / GOLF4-TURN-3: a player sees the two cards they peeked at, nobody else does.
    deck = deal(["AC 2C 3C 4C", "AD 2D 3D 4D"], "KS")
    game = cardcore.new_game("golf", 2, deck=deck, options={"layout": "4"}, seed=4)
    assert legal(game, 0) == ["peek 0", "peek 1", "peek 2", "peek 3"]
    play(game, (0, "peek 1"))
    assert legal(game, 0) == ["peek 0", "peek 2", "peek 3"]
    play(game, (0, "peek 3"))
    assert game.to_act == (1,)
    assert table(game, 0)["grids"][0] == [None, "2C", None, "4C"]
    assert table(game, 1)["grids"][0] == [None, None, None, None]
    play(game, (1, "peek 0"), (1, "peek 2"))
    assert table(game, 1)["grids"][1] == ["AD", None, "3D", None]
    assert table(game, 0)["grids"][1] == [None, None, None, None]
    assert legal(game, 0) == ["draw", "take", "knock"]  # GOLF4-KNOCK-3: even on the first turn


def test_golf4h_has_no_setup_and_owner_sees_the_hand():
    # GOLF4H-1: the owner sees the whole hand at any time; no setup; knocking allowed at once.
    deck = deal(["AC 2C 3C 4C", "AD 2D 3D 4D"], "KS")
    game = cardcore.new_game("golf", 2, deck=deck, options={"layout": "4h"}, seed=4)
    assert game.to_act == (0,)
    assert legal(game, 0) == ["draw", "take", "knock"]
    assert table(game, 0)["grids"][0] == ["AC", "2C", "3C", "4C"]
    assert table(game, 0)["grids"][1] == [None] * 4
    assert table(game, 1)["grids"][1] == ["AD", "2D", "3D", "4D"]


@pytest.mark.parametrize(
    ("layout", "first", "after_first", "second", "after_second"),
    [
        (6, 1, ["flip 4"], None, None),
        (8, 2, ["flip 6"], None, None),
        (10, 9, ["flip 4"], None, None),
        (9, 1, ["flip 4", "flip 7"], 7, ["flip 4"]),
    ],
)
def test_reveal_same_column(layout, first, after_first, second, after_second):
    # GOLF6-SETUP-3 (golf.reveal-same-column): the initial cards share one column.
    game = cardcore.new_game(
        "golf", 2, options={"layout": layout}, rules=["golf.reveal-same-column"], seed=4
    )
    game.act(0, f"flip {first}")
    assert legal(game, 0) == after_first
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-SETUP-3\)"):
        game.act(0, "flip 0")
    if second is not None:
        game.act(0, f"flip {second}")
        assert legal(game, 0) == after_second


@pytest.mark.parametrize(
    ("layout", "flips", "after"),
    [
        (6, [1], ["flip 0", "flip 2", "flip 3", "flip 5"]),
        (8, [5], ["flip 0", "flip 2", "flip 3", "flip 4", "flip 6", "flip 7"]),
        (9, [0, 4], ["flip 2", "flip 5", "flip 8"]),
    ],
)
def test_reveal_different_columns(layout, flips, after):
    # GOLF6-SETUP-4 (golf.reveal-different-columns); in GOLF9 for all three cards.
    game = cardcore.new_game(
        "golf", 2, options={"layout": layout}, rules=["golf.reveal-different-columns"], seed=4
    )
    for p in flips:
        game.act(0, f"flip {p}")
    assert legal(game, 0) == after


def test_peek_nearest_only_the_near_row():
    # GOLF4-VAR-4 (golf.peek-nearest): only BL (2) and BR (3).
    game = cardcore.new_game(
        "golf", 2, options={"layout": "4"}, rules=["golf.peek-nearest"], seed=4
    )
    assert legal(game, 0) == ["peek 2", "peek 3"]
    with pytest.raises(IllegalActionError, match=r"\(GOLF4-VAR-4\)"):
        game.act(0, "peek 0")


@pytest.mark.parametrize(
    ("rule", "layout"),
    [
        ("golf.peek-nearest", 6),
        ("golf.diagonal-pairs", "4h"),
        ("golf.diagonal-pairs", 6),
        ("golf.no-cancelling", 6),
        ("golf.knock-final-stock-only", 6),
        ("golf.final-stock-only", "4"),
        ("golf.no-final-turns", "4h"),
        ("golf.pairs-anywhere", 9),
        ("golf.four-of-a-kind-columns", 9),
        ("golf.four-of-a-kind-columns", "4"),
        ("golf.remove-triples", 6),
        ("golf.remove-columns", 9),
        ("golf.reveal-same-column", "4"),
    ],
)
def test_house_rule_refused_for_a_layout_it_does_not_serve(rule, layout):
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game("golf", 2, options={"layout": layout}, rules=[rule], seed=1)


@pytest.mark.parametrize(
    "pair",
    [
        ("golf.ender-penalty-10", "golf.ender-penalty-lowest"),
        ("golf.jokers", "golf.bonus-twos"),
        ("golf.jokers", "golf.one-eyed-jacks"),
        ("golf.bonus-twos", "golf.one-eyed-jacks"),
        ("golf.reveal-same-column", "golf.reveal-different-columns"),
        ("golf.final-stock-only", "golf.no-final-turns"),
        ("golf.four-of-a-kind-columns", "golf.remove-columns"),
    ],
)
def test_conflicting_house_rules(pair):
    with pytest.raises(cardcore.RuleConflictError):
        cardcore.new_game("golf", 2, rules=list(pair), seed=1)


def test_diagonal_and_no_cancelling_conflict_in_golf4():
    with pytest.raises(cardcore.RuleConflictError):
        cardcore.new_game(
            "golf",
            2,
            options={"layout": "4"},
            rules=["golf.diagonal-pairs", "golf.no-cancelling"],
            seed=1,
        )


# ---------------------------------------------------------------------------- turns


def _six_card_after_setup() -> Game:
    # Ann (0): 7H 9C KD / 4S 2D QH, Bob (1): 3C 8D JS / 3D 10H 6S; upcard 5C; stock 7D KS ...
    deck = deal(["7H 9C KD 4S 2D QH", "3C 8D JS 3D 10H 6S"], "5C", "7D KS 9H")
    game = cardcore.new_game("golf", 2, deck=deck, options={"rounds": 1}, seed=9)
    play(game, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 3"))
    return game


def test_draw_then_replace_a_face_down_card():
    # GOLF-TURN-1/2/4/5, GOLF6-TURN-1: the drawn card takes exactly the replaced card's
    # position, face up; the replaced card (never shown before) goes face up on the discards.
    game = _six_card_after_setup()
    play(game, (0, "draw"))
    assert legal(game, 0) == [f"replace {p}" for p in range(6)] + ["discard"]
    assert table(game, 0)["held"] == {"seat": 0, "card": "7D"}
    assert table(game, 1)["held"] == {"seat": 0, "card": None}  # only the drawer sees it
    play(game, (0, "replace 3"))
    assert table(game, 1)["grids"][0] == ["7H", "9C", None, "7D", None, None]
    assert table(game, 1)["discard"] == "4S"
    assert table(game, 1)["discards"] == 2
    assert table(game, 1)["stock"] == 52 - 12 - 1 - 1
    assert game.to_act == (1,)


def test_taken_discard_must_replace():
    # GOLF-TURN-3: a card taken from the discard pile cannot be discarded again.
    game = _six_card_after_setup()
    play(game, (0, "take"))
    assert legal(game, 0) == [f"replace {p}" for p in range(6)]
    assert table(game, 1)["held"] == {"seat": 0, "card": "5C"}  # a taken discard is public
    before = game.position()
    with pytest.raises(IllegalActionError, match=r"\(GOLF-TURN-3\)"):
        game.act(0, "discard")
    assert game.position() == before
    play(game, (0, "replace 0"))  # 5C replaces the face-up 7H
    assert table(game, 1)["grids"][0][0] == "5C"
    assert table(game, 1)["discard"] == "7H"


def test_discarding_a_drawn_card_ends_the_turn_with_no_flip():
    # GOLF6-TURN-1 / GOLF-GAP-5: no "flip after discard"; the layout is untouched.
    game = _six_card_after_setup()
    grid_before = table(game, None)["grids"][0]
    play(game, (0, "draw"), (0, "discard"))
    assert table(game, None)["grids"][0] == grid_before
    assert table(game, 1)["discard"] == "7D"
    assert game.to_act == (1,)
    assert legal(game, 1) == ["draw", "take"]
    assert legal(game, 0) == []


def test_no_knock_in_six_card_golf_and_out_of_turn_refused():
    game = _six_card_after_setup()
    before = game.position()
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-KNOCK-1\)"):
        game.act(0, "knock")
    with pytest.raises(IllegalActionError, match=r"\(CORE-TURN-1\)"):
        game.act(1, "draw")
    with pytest.raises(IllegalActionError, match=r"\(GOLF-TURN-1\)"):
        game.act(0, "replace 0")  # nothing held yet
    assert game.position() == before


# ---------------------------------------------------------------------------- end of a GOLF6 round

# Three players, dealer seat 2, seat 1 to play. Seat 1 has one face-down card (position 5).
_END_GRIDS = [
    "AS! 2S! 3S! 4S 5S 6S",  # seat 0: three face-down cards
    "KH! 7D! QH! KD! 7C! 8C",  # seat 1: one face-down card
    "9H! 9D! 2H! 3H! 4D 5H!",  # seat 2: one face-down card
]


def test_final_turns_three_players():
    # GOLF6-END-1/2/3. Seat 1 draws 4H over its last face-down 8C: it is the ender. Seats 2 and 0
    # each get exactly one final turn, clockwise; seat 1 never plays again.
    game = start(3, _END_GRIDS, "10S!", "4H 9S", turn=1)
    play(game, (1, "draw"), (1, "replace 5"))
    assert table(game)["ender"] == 1
    assert table(game)["final_turns_left"] == 2
    assert game.to_act == (2,)
    # seat 2 completes its own layout in its final turn (9S over 4D): no extra turns (END-2)
    play(game, (2, "draw"), (2, "replace 4"))
    assert game.to_act == (0,)
    assert table(game)["final_turns_left"] == 1
    # END-3: seat 0's face-down cards are still hidden during the final turns
    assert table(game, 0)["grids"][0] == ["AS", "2S", "3S", None, None, None]
    # seat 0 takes 4D and replaces its face-down 4S (allowed in a final turn)
    play(game, (0, "take"), (0, "replace 3"))
    assert game.is_over
    past = last_round(game)
    assert past["ender"] == 1
    assert past["grids"] == [
        ["AS", "2S", "3S", "4D", "5S", "6S"],
        ["KH", "7D", "QH", "KD", "7C", "4H"],
        ["9H", "9D", "2H", "3H", "9S", "5H"],
    ]
    # seat 0: (A+4) + (2+5) + (3+6) = 5 + 7 + 9 = 21
    # seat 1: K|K pair 0, 7|7 pair 0, Q 10 + 4 = 14
    # seat 2: 9+3 = 12, 9|9 pair 0, 2+5 = 7 -> 19
    assert past["scores"] == [21, 14, 19]
    assert game.result.scores == (21.0, 14.0, 19.0)
    assert game.result.winners == (1,)


def test_no_final_turns_rule_ends_at_once():
    # GOLF6-END-4 (golf.no-final-turns): the round ends as soon as a layout is complete.
    game = start(3, _END_GRIDS, "10S!", "4H 9S", turn=1, rules=["golf.no-final-turns"])
    play(game, (1, "draw"), (1, "replace 5"))
    assert game.is_over
    past = last_round(game)
    # seat 0: 21 as above (4S under A: 1+4); seat 2 unchanged: 9+3, 9+4, 2+5 = 12 + 13 + 7 = 32
    assert past["scores"] == [21, 14, 32]
    assert past["ender"] == 1


def test_final_stock_only_rule():
    # GOLF6-VAR-1 (golf.final-stock-only): during final turns only the stock may be drawn.
    game = start(3, _END_GRIDS, "10S!", "4H 9S", turn=1, rules=["golf.final-stock-only"])
    assert legal(game, 1) == ["draw", "take"]
    play(game, (1, "draw"), (1, "replace 5"))
    assert legal(game, 2) == ["draw"]
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-VAR-1\)"):
        game.act(2, "take")
    play(game, (2, "draw"), (2, "replace 4"))
    assert legal(game, 0) == ["draw"]


def test_a_replacement_of_a_face_up_card_does_not_end_the_round():
    # Seat 1 draws 4H and replaces its face-up QH: it still has a face-down card; no ender.
    game = start(3, _END_GRIDS, "10S!", "4H 9S", turn=1)
    play(game, (1, "draw"), (1, "replace 2"))
    assert table(game)["ender"] is None
    assert table(game)["final_turns_left"] is None
    assert game.to_act == (2,)


def test_discarding_never_completes_a_layout():
    # Only a replacement completes a layout: seat 1 discarding its drawn card leaves it incomplete.
    game = start(3, _END_GRIDS, "10S!", "4H 9S", turn=1)
    play(game, (1, "draw"), (1, "discard"))
    assert table(game)["ender"] is None
    assert table(game, 2)["grids"][1][5] is None


# ---------------------------------------------------------------------------- scoring: GOLF6/8/10


def test_basic_table_six_card():
    # GOLF-SCORE-1, GOLF6-SCORE-1. Seat 0: AS 10H JD / 2C 5D QS -> no column pairs:
    # (1+2) + (10+5) + (10+10) = 38. Seat 1: KS 10C JH / KD JC 9C -> K|K 0; 10|J is no pair
    # (GOLF-GAP-11) 10+10; J+9 = 19 -> 39.
    assert end_round_scores(2, ["AS 10H JD 2C 5D QS", "KS 10C JH KD JC 9C"]) == [38, 39]


def test_kings_score_zero_basic_and_thirteen_hard():
    # Seat 0: KS QH 7C / 3D JD 8H; seat 1: 4S 4H KC / 9S 9H KD.
    # BASIC: seat 0 = (0+3) + (10+10) + (7+8) = 38; seat 1 = 4|9 13, 4|9 13, K|K 0 = 26.
    # HARD:  seat 0 = (13+3) + (12+11) + (7+8) = 54; seat 1 = 13 + 13 + 0 (K pair cancels) = 26.
    grids = ["KS QH 7C 3D JD 8H", "4S 4H KC 9S 9H KD"]
    assert end_round_scores(2, grids) == [38, 26]
    assert end_round_scores(2, grids, rules=["golf.hard"]) == [54, 26]


def test_hard_table_every_rank():
    # GOLF-SCORE-2: A..10 face value, J 11, Q 12, K 13. No pairs anywhere in columns.
    # Seat 0: AS 2S 3S / JS QS KS = (1+11) + (2+12) + (3+13) = 42.
    # Seat 1: 4H 5H 6H / 7H 8H 9H = 11 + 13 + 15 = 39.
    assert end_round_scores(2, ["AS 2S 3S JS QS KS", "4H 5H 6H 7H 8H 9H"], rules=["golf.hard"]) == [
        42,
        39,
    ]
    # BASIC: seat 0 = (1+10) + (2+10) + (3+0) = 26.
    assert end_round_scores(2, ["AS 2S 3S JS QS KS", "4H 5H 6H 7H 8H 9H"]) == [26, 39]


def test_row_pairs_do_not_cancel_in_six_card():
    # Only columns cancel: 5H 5D 9C / 2S 3S 4S has a row pair of 5s: (5+2) + (5+3) + (9+4) = 28.
    # Seat 1: 5S 9D 8C / 5C 9S 8D: all three columns pair -> 0.
    assert end_round_scores(2, ["5H 5D 9C 2S 3S 4S", "5S 9D 8C 5C 9S 8D"]) == [28, 0]


def test_eight_card_columns():
    # GOLF8-1: column c = positions c and c+4. Seat 0: 3S 4S 5S 6S / 3H 7H 5H 8H:
    # 3|3 0, 4+7 11, 5|5 0, 6+8 14 -> 25. Seat 1: QS QH AS AH / KS KH 2D 2C (row pairs only):
    # (10+0) + (10+0) + (1+2) + (1+2) = 26.
    grids = ["3S 4S 5S 6S 3H 7H 5H 8H", "QS QH AS AH KS KH 2D 2C"]
    assert end_round_scores(2, grids, options={"layout": 8}) == [25, 26]
    # HARD: seat 1 = (12+13) + (12+13) + 3 + 3 = 56
    assert end_round_scores(2, grids, options={"layout": 8}, rules=["golf.hard"]) == [25, 56]


def test_ten_card_columns():
    # GOLF8-1: column c = positions c and c+5. Seat 0: AS 2S 3S 4S 5S / AH 9H 3H 8H 5H:
    # A|A 0, 2+9 11, 3|3 0, 4+8 12, 5|5 0 -> 23. Seat 1: 6S 7S 8S 9S 10S / 7D 6D 9D 8D JD:
    # 6+7 13, 7+6 13, 8+9 17, 9+8 17, 10+10 20 -> 80.
    grids = ["AS 2S 3S 4S 5S AH 9H 3H 8H 5H", "6S 7S 8S 9S 10S 7D 6D 9D 8D JD"]
    assert end_round_scores(2, grids, options={"layout": 10}) == [23, 80]


def test_ten_card_final_turns_and_deck():
    # GOLF10 round end works like GOLF6: seat 0 completes, seat 1 gets one final turn.
    grids = ["AS! 2S! 3S! 4S! 5S! AH! 9H! 3H! 8H! 5H", "6S 7S 8S 9S 10S 7D 6D 9D 8D JD"]
    game = start(2, grids, "QC!", "5C 2C", options={"layout": 10})
    play(game, (0, "draw"), (0, "replace 9"))  # 5C over 5H: still a 5 pair
    assert table(game)["ender"] == 0
    assert game.to_act == (1,)
    play(game, (1, "draw"), (1, "replace 0"))  # 2C over 6S: column 0 = 2+7 = 9
    past = last_round(game)
    # seat 1: 9 + 13 + 17 + 17 + 20 = 76
    assert past["scores"] == [23, 76]


# ---------------------------------------------------------------------------- scoring: GOLF9


def test_nine_card_triples_only():
    # GOLF9-2: only three of a rank in a row or column cancel; pairs never do.
    # Seat 0: 7S 7H 7D / 2S 3S 4S / 5S 6S 8S -> row 0 cancels: 2+3+4+5+6+8 = 28.
    # Seat 1: 9S 2H AH / 9H 3H AD / 9D 4H 5H -> column 0 cancels; A A pair in column 2 does
    # not: 2+1 + 3+1 + 4+5 = 16.
    grids = ["7S 7H 7D 2S 3S 4S 5S 6S 8S", "9S 2H AH 9H 3H AD 9D 4H 5H"]
    assert end_round_scores(2, grids, options={"layout": 9}) == [28, 16]


def test_nine_card_diagonal_triple_does_not_cancel():
    # Seat 0: QS 2S 3S / 4S QH 5S / 6S 7S QD: a diagonal of queens scores in full:
    # 10*3 + 2+3+4+5+6+7 = 57. Seat 1: KS KH KD / JS JH JD / AS AH AD: every row cancels: 0.
    grids = ["QS 2S 3S 4S QH 5S 6S 7S QD", "KS KH KD JS JH JD AC AH AD"]
    assert end_round_scores(2, grids, options={"layout": 9}) == [57, 0]
    # HARD: seat 0 = 12*3 + 27 = 63; seat 1 still 0
    assert end_round_scores(2, grids, options={"layout": 9}, rules=["golf.hard"]) == [63, 0]


def test_nine_card_overlapping_lines():
    # GOLF9-3 (needs two decks: 4 players). Seat 0: 7S 7H 7D / 7C 2S 3S / 7S 4S 5S: row 0 and
    # column 0 both complete; all five 7s score 0 -> 2+3+4+5 = 14.
    grids = [
        "7S 7H 7D 7C 2S 3S 7S 4S 5S",
        "AS 2H 3H 4H 5H 6H 8H 9H 10H",  # 1+2+3+4+5+6+8+9+10 = 48
        "AC 2C 3C 4C 5C 6C 8C 9C 10C",  # 48
        "AD 2D 3D 4D 5D 6D 8D 9D 10D",  # 48
    ]
    assert end_round_scores(4, grids, options={"layout": 9}) == [14, 48, 48, 48]


def test_nine_card_final_turns():
    # GOLF9 follows GOLF6 round end: seat 0 completes; seat 1 has one final turn.
    grids = ["7S! 7H! 7D! 2S! 3S! 4S! 5S! 6S! 8S", "9S 2H AH 9H 3H AD 9D 4H 5H"]
    game = start(2, grids, "QC!", "KC 9C", options={"layout": 9})
    play(game, (0, "draw"), (0, "replace 8"))  # KC (0) over 8S
    assert game.to_act == (1,)
    play(game, (1, "draw"), (1, "replace 2"))  # 9C over AH: column 0 still 9 9 9
    # seat 0: 2+3+4+5+6+0 = 20; seat 1: 2+9 + 3+1 + 4+5 = 24
    assert last_round(game)["scores"] == [20, 24]


# ---------------------------------------------------------------------------- GOLF4 / GOLF4H

_FOUR = {"layout": "4"}
_HAND = {"layout": "4h"}


def test_golf4_knock_on_the_first_turn_three_players():
    # GOLF4-KNOCK-1/2/3. Seat 0 knocks at once; seats 1 and 2 each take one final turn.
    grids = ["3C@0 3D 5C@0 6C", "8H@1 2H 8D@1 KS", "4D@2 9D 9S@2 4S"]
    game = start(3, grids, "10H!", "QS", options=_FOUR)
    assert legal(game, 0) == ["draw", "take", "knock"]
    play(game, (0, "knock"))
    assert table(game)["ender"] == 0
    assert game.to_act == (1,)
    assert legal(game, 1) == ["draw", "take"]  # KNOCK-2: nobody knocks after a knock
    with pytest.raises(IllegalActionError, match=r"\(GOLF4-KNOCK-2\)"):
        game.act(1, "knock")
    play(game, (1, "draw"), (1, "replace 3"))  # QS over KS (face down; KS shows on the discards)
    assert table(game, 2)["discard"] == "KS"
    assert table(game, 2)["grids"][1] == [None, None, None, None]  # GOLF4-TURN-2: face down
    assert table(game, 1)["grids"][1] == ["8H", None, "8D", "QS"]  # the placer remembers it
    play(game, (2, "take"), (2, "replace 1"))  # KS over 9D
    assert game.is_over
    assert table(game, 0)["grids"][2] == ["4D", "KS", "9S", "4S"]  # all revealed at the end
    past = last_round(game)
    assert past["ender"] == 0
    # seat 0: 3C 3D row pair cancels -> 5 + 6 = 11
    # seat 1: 8H 2H / 8D QS -> column 8|8 cancels -> 2 + 10 = 12
    # seat 2: 4D KS / 9S 4S -> 4s are diagonal (no cancel) -> 4 + 0 + 9 + 4 = 17
    assert past["scores"] == [11, 12, 17]
    assert game.result.winners == (0,)


def test_golf4_knock_final_stock_only():
    # GOLF4-VAR-3 (golf.knock-final-stock-only)
    grids = ["3C 3D 5C 6C", "8H 2H 8D KS"]
    game = start(2, grids, "10H!", "QS", options=_FOUR, rules=["golf.knock-final-stock-only"])
    assert legal(game, 0) == ["draw", "take", "knock"]
    play(game, (0, "knock"))
    assert legal(game, 1) == ["draw"]


def test_golf4h_knock_final_stock_only_and_take_before():
    game = start(
        2,
        ["3C 3D 5C 6C", "8H 2H 8D KS"],
        "10H!",
        "QS",
        options=_HAND,
        rules=["golf.knock-final-stock-only"],
    )
    play(game, (0, "take"), (0, "replace 0"))
    assert legal(game, 1) == ["draw", "take", "knock"]
    play(game, (1, "knock"))
    assert legal(game, 0) == ["draw"]


def test_golf4_knock_later_turn_and_round_end_two_players():
    # Seat 0 plays a turn, seat 1 knocks on its first turn, seat 0 has one final turn.
    game = start(2, ["3C 3D 5C 6C", "8H 2H 8D KS"], "10H!", "QS AS", options=_FOUR)
    play(game, (0, "draw"), (0, "replace 3"))  # QS over 6C
    play(game, (1, "knock"))
    assert game.to_act == (0,)
    play(game, (0, "draw"), (0, "replace 2"))  # AS over 5C
    # seat 0: 3C 3D / AS QS -> 3s cancel (row) -> 1 + 10 = 11; seat 1: 8|8 -> 2 + 0 = 2
    assert last_round(game)["scores"] == [11, 2]
    assert last_round(game)["ender"] == 1


@pytest.mark.parametrize(
    ("grid", "basic"),
    [
        ("7S 7H 2C 3C", 5),  # row pair (TL TR) cancels: 2 + 3
        ("2C 3C 7S 7H", 5),  # row pair (BL BR)
        ("7S 2C 7H 3C", 5),  # column pair (TL BL)
        ("2C 7S 3C 7H", 5),  # column pair (TR BR)
        ("7S 2C 3C 7H", 19),  # diagonal pair: no cancel, 7+2+3+7
        ("2C 7S 7H 3C", 19),  # anti-diagonal: no cancel
        ("7S 7H 7D 3C", 10),  # three of a kind: two cancel, the third scores 7, + 3
        ("7S 3C 7H 7D", 10),  # three of a kind, other geometry
        ("7S 7H 7D 7C", 0),  # four of a kind: whole grid 0
        ("QS QH 9C 9D", 0),  # two row pairs of different ranks both cancel
        ("QS 9C QH 9D", 0),  # two column pairs both cancel
        ("QS 9C 9D QH", 38),  # two diagonal pairs: nothing cancels, 10+9+9+10
        ("10S JS 4C 5C", 29),  # 10 and J never pair (GOLF-GAP-11)
    ],
)
def test_golf4_cancelling(grid, basic):
    # GOLF4-SCORE-1/2/3, GOLF-GAP-12.
    assert end_round_scores(2, [grid, "AD 2D 4D 5D"], options=_FOUR) == [basic, 12]


@pytest.mark.parametrize(
    ("grid", "score"),
    [
        ("7S 2C 3C 7H", 5),  # diagonal now cancels
        ("2C 7S 7H 3C", 5),
        ("QS 9C 9D QH", 0),  # both diagonals cancel
        ("7S 7H 7D 3C", 10),  # three: still only two cancel
        ("7S 7H 7D 7C", 0),
    ],
)
def test_golf4_diagonal_pairs_rule(grid, score):
    # GOLF4-VAR-1 (golf.diagonal-pairs)
    assert end_round_scores(
        2, [grid, "AD 2D 4D 5D"], options=_FOUR, rules=["golf.diagonal-pairs"]
    ) == [score, 12]


@pytest.mark.parametrize("layout", ["4", "4h"])
@pytest.mark.parametrize(
    ("grid", "score"),
    [
        ("7S 7H 2C 3C", 19),  # no cancel at all
        ("7S 7H 7D 7C", 28),  # four of a kind included
        ("KS KH QS QH", 20),  # BASIC K 0
    ],
)
def test_no_cancelling_rule(layout, grid, score):
    # GOLF4-VAR-2 (golf.no-cancelling)
    assert end_round_scores(
        2, [grid, "AD 2D 4D 5D"], options={"layout": layout}, rules=["golf.no-cancelling"]
    ) == [
        score,
        12,
    ]


@pytest.mark.parametrize(
    ("hand", "score"),
    [
        ("7S 2C 3C 7H", 5),  # any two equal ranks cancel, wherever they are
        ("7S 2C 7H 3C", 5),
        ("2C 7S 7H 3C", 5),  # the "diagonal" is no exception in a hand
        ("7S 7H 7D 3C", 10),  # three: two cancel, third 7 + 3
        ("7S 7H 7D 7C", 0),  # four: 0
        ("QS 9C 9D QH", 0),  # two pairs
        ("10S QS 4C 5C", 29),  # 10 and Q are equal in value under BASIC but never pair (GOLF4H-2)
        ("JS KS KH 2C", 12),  # K pair 0, J 10 + 2
    ],
)
def test_golf4h_cancelling(hand, score):
    # GOLF4H-2
    assert end_round_scores(2, [hand, "AD 2D 4D 5D"], options=_HAND) == [score, 12]


def test_golf4h_hard():
    # HARD with GOLF4H: JS QS KS 2C = 11 + 12 + 13 + 2 = 38; KS KH JS JH = 0 (two pairs)
    assert end_round_scores(
        2, ["JS QS KS 2C", "KD KH JD JH"], options=_HAND, rules=["golf.hard"]
    ) == [38, 0]


def test_golf4_hard_three_kings():
    # GOLF4 HARD: KS KH / KD 2C -> two kings cancel, the third scores 13, + 2 = 15
    assert end_round_scores(
        2, ["KS KH KD 2C", "AD 2D 4D 5D"], options=_FOUR, rules=["golf.hard"]
    ) == [15, 12]


def test_golf4_taken_discard_is_public_and_drawn_card_private():
    # GOLF4-TURN-1/3: a stock card placed face down is known to its placer only; a taken discard
    # placed in a grid is known to everybody; the replaced card shows on the discard pile.
    game = start(2, ["3C@0 3D 5C@0 6C", "8H@1 2H 8D@1 KS"], "10H!", "QS", options=_FOUR)
    play(game, (0, "take"), (0, "replace 1"))
    assert table(game, 1)["grids"][0] == [None, "10H", None, None]
    assert table(game, 1)["discard"] == "3D"
    assert table(game, 0)["grids"][0] == ["3C", "10H", "5C", None]
    play(game, (1, "draw"))
    assert table(game, 0)["held"] == {"seat": 1, "card": None}
    play(game, (1, "replace 0"))  # QS over 8H
    assert table(game, 0)["grids"][1] == [None, None, None, None]
    assert table(game, 1)["grids"][1] == ["QS", None, "8D", None]
    assert table(game, 0)["discard"] == "8H"


# ---------------------------------------------------------------------------- jokers and bonus cards


def test_jokers_six_card():
    # GOLF-SCORE-4/5/6. Seat 0: JK 4S 2C / JK 4H KC -> JK|JK column cancels (0, not -4);
    # 4|4 0; 2 + K 0 -> 2. Seat 1: AS 9S KS / 3C 9H 3D -> 1+3, 9|9 0, 0+3 -> 7.
    grids = ["JK 4S 2C JK 4H KC", "AS 9S KS 3C 9H 3D"]
    assert end_round_scores(2, grids, rules=["golf.jokers"]) == [2, 7]
    # HARD: seat 0 = 0 + 0 + 2+13 = 15; seat 1 = 4 + 0 + 13+3 = 20
    assert end_round_scores(2, grids, rules=["golf.jokers", "golf.hard"]) == [15, 20]


def test_joker_with_a_non_joker_column():
    # Seat 0: JK 5S 6S / AS 5H 6H -> JK + A = -2 + 1 = -1; 5|5 0; 6|6 0 -> -1 (a negative round)
    grids = ["JK 5S 6S AS 5H 6H", "AD 2D 3D 4D 7D 8D"]
    # seat 1: 1+4 + 2+7 + 3+8 = 25
    assert end_round_scores(2, grids, rules=["golf.jokers"]) == [-1, 25]


def test_joker_pair_in_a_row_does_not_cancel_in_six_card():
    # JK JK 5S / 2C 3C 4C: jokers share a row, not a column: (-2+2) + (-2+3) + (5+4) = 10
    assert end_round_scores(
        2, ["JK JK 5S 2C 3C 4C", "AD 2D 3D 4D 5D 6D"], rules=["golf.jokers"]
    ) == [10, 21]


def test_jokers_golf4h_and_golf4():
    # GOLF4H: JK JK 5S 6S -> jokers pair to 0: 11. Seat 1: 5H 6H 7H 8H = 26.
    assert end_round_scores(
        2, ["JK JK 5S 6S", "5H 6H 7H 8H"], options=_HAND, rules=["golf.jokers"]
    ) == [11, 26]
    # GOLF4H: JK 5S 6S 7S -> -2 + 18 = 16
    assert end_round_scores(
        2, ["JK 5S 6S 7S", "5H 6H 7H 8H"], options=_HAND, rules=["golf.jokers"]
    ) == [16, 26]
    # GOLF4: JK 5S / 6S JK -> diagonal jokers do not cancel: -4 + 11 = 7; JK JK / 5S 6S row: 11
    assert end_round_scores(
        2, ["JK 5S 6S JK", "AD 2D 4D 5D"], options=_FOUR, rules=["golf.jokers"]
    ) == [7, 12]
    assert end_round_scores(
        2, ["JK JK 5S 6S", "AD 2D 4D 5D"], options=_FOUR, rules=["golf.jokers"]
    ) == [11, 12]


def test_bonus_twos():
    # GOLF-SCORE-8 (golf.bonus-twos): every 2 scores -2; a column of two 2s cancels to 0.
    # Seat 0: 2S 2H 9S / 2D 5H 9D -> 2|2 0; -2 + 5 = 3; 9|9 0 -> 3.
    # Seat 1: 2C KS QS / AS 3S 4S -> -2+1, 0+3, 10+4 -> 16.
    grids = ["2S 2H 9S 2D 5H 9D", "2C KS QS AS 3S 4S"]
    assert end_round_scores(2, grids, rules=["golf.bonus-twos"]) == [3, 16]
    # without the rule: seat 0 = 0 + (2+5) + 0 = 7; seat 1 = 3 + 3 + 14 = 20
    assert end_round_scores(2, grids) == [7, 20]


def test_bonus_twos_hard_and_golf4():
    # HARD + bonus twos: 2S KS QS / JS 3S 4S -> (-2+11) + (13+3) + (12+4) = 41
    assert (
        end_round_scores(
            2, ["2S KS QS JS 3S 4S", "AD 3D 4D 5D 6D 7D"], rules=["golf.bonus-twos", "golf.hard"]
        )[0]
        == 41
    )
    # GOLF4: 2S 2H / 5C 6C -> row pair of 2s cancels: 11; 2S 5C / 6C 2H diagonal: -4 + 11 = 7
    assert end_round_scores(
        2, ["2S 2H 5C 6C", "2D 5D 6D 2C"], options=_FOUR, rules=["golf.bonus-twos"]
    ) == [11, 7]


def test_one_eyed_jacks():
    # GOLF-SCORE-9: JH and JS score -2, JC/JD keep 10 and still pair with them by rank.
    # Seat 0: JH 5S 6S / JC 7S 8S: J|J column cancels -> 5+7 + 6+8 = 26.
    # Seat 1: JS JD 3C / 4C 5C 6C: -2+4, 10+5, 3+6 -> 26.
    grids = ["JH 5S 6S JC 7S 8S", "JS JD 3C 4C 5C 6C"]
    assert end_round_scores(2, grids, rules=["golf.one-eyed-jacks"]) == [26, 26]
    # Seat 0: JH AS 2S / JS 3S 4S -> JH|JS cancel to 0 (not -4): 1+3 + 2+4 = 10.
    # Seat 1: JD JC 9C / AC 2C 3C: 10+1, 10+2, 9+3 = 35.
    grids = ["JH AS 2S JS 3S 4S", "JD JC 9C AC 2C 3C"]
    assert end_round_scores(2, grids, rules=["golf.one-eyed-jacks"]) == [10, 35]
    # HARD: JC = 11, one-eyed still -2: seat 1 = 11+1 + 11+2 + 9+3 = 37
    assert end_round_scores(2, grids, rules=["golf.one-eyed-jacks", "golf.hard"]) == [10, 37]


def test_one_eyed_jack_in_golf4h_three_jacks_lowest_choice():
    # GOLF-SCORE-7: JH JS JC 4C, three of a kind: two cancel; the engine keeps the choice that
    # scores lowest: cancel JC with a one-eyed jack, the other one-eyed jack scores -2 -> -2 + 4 = 2.
    assert end_round_scores(
        2, ["JH JS JC 4C", "AD 2D 4D 5D"], options=_HAND, rules=["golf.one-eyed-jacks"]
    ) == [2, 12]


def test_one_eyed_jacks_golf4_geometry_lowest_choice():
    # GOLF4: JH JC / JS 4C. Cancelling pairs: JH-JC (row) or JH-JS (column); JC-JS diagonal no.
    # Lowest: cancel JH-JC, JS scores -2 -> -2 + 4 = 2 (JH-JS would leave JC 10 -> 14).
    assert end_round_scores(
        2, ["JH JC JS 4C", "AD 2D 4D 5D"], options=_FOUR, rules=["golf.one-eyed-jacks"]
    ) == [2, 12]


# ---------------------------------------------------------------------------- pairs anywhere


def test_pairs_anywhere_six_card():
    # GOLF6-VAR-2: 5H 9C 2D / 9D 5S 5C has no column pair. Anywhere: the 9s pair (0), two of the
    # three 5s pair, one 5 scores, 2 scores -> 7. Without the rule: (5+9)+(9+5)+(2+5) = 35.
    grids = ["5H 9C 2D 9D 5S 5C", "AS 3S 4S 6S 7S 8S"]
    assert end_round_scores(2, grids, rules=["golf.pairs-anywhere"]) == [7, 29]
    assert end_round_scores(2, grids) == [35, 29]


def test_pairs_anywhere_eight_and_ten():
    # GOLF8: KS 3S 3H QS / 3D 3C QH 9S: 3s x4 = two pairs, Qs pair, K 0, 9 -> 9 (HARD: 13 + 9 = 22)
    grids8 = ["KS 3S 3H QS 3D 3C QH 9S", "AD 2D 4D 5D 6D 7D 8D 9D"]
    assert end_round_scores(2, grids8, options={"layout": 8}, rules=["golf.pairs-anywhere"]) == [
        9,
        42,
    ]
    assert end_round_scores(
        2, grids8, options={"layout": 8}, rules=["golf.pairs-anywhere", "golf.hard"]
    ) == [22, 42]
    # GOLF10: AS 2S 3S 4S 5S / 6S 7S AH 2H 3H -> A, 2, 3 pairs cancel; 4+5+6+7 = 22
    grids10 = ["AS 2S 3S 4S 5S 6S 7S AH 2H 3H", "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D"]
    assert (
        end_round_scores(2, grids10, options={"layout": 10}, rules=["golf.pairs-anywhere"])[0] == 22
    )


def test_pairs_anywhere_with_bonus_card_keeps_lowest():
    # GOLF-SCORE-7 with GOLF6-VAR-2: JH JS JC + 4C 5C 6C (no column pairs): one pair of jacks
    # cancels, the odd one should be a one-eyed jack: -2 + 15 = 13.
    grids = ["JH JS JC 4C 5C 6C", "AD 2D 3D 4D 5D 6D"]
    assert end_round_scores(2, grids, rules=["golf.pairs-anywhere", "golf.one-eyed-jacks"]) == [
        13,
        21,
    ]


# ---------------------------------------------------------------------------- four of a kind in columns

_FOAK = "golf.four-of-a-kind-columns"


def test_four_of_a_kind_adjacent_columns_two_players():
    # GOLF6-VAR-3: seat 0: 7H 7D 3C / 7S 7C 5D -> columns 0 and 1 are 7-pairs, adjacent -> 0, and
    # 3 + 5 = 8. Seat 1 (no such columns): AS 2S 4S / 6S 8S 9S = 7 + 10 + 13 = 30, +10 -> 40.
    grids = ["7H 7D 3C 7S 7C 5D", "AS 2S 4S 6S 8S 9S"]
    assert end_round_scores(2, grids, rules=[_FOAK]) == [8, 40]
    assert end_round_scores(2, grids) == [8, 30]


def test_four_of_a_kind_three_players_each_other_player_pays():
    grids = ["7H 7D 3C 7S 7C 5D", "AS 2S 4S 6S 8S 9S", "AH 2H 4H 6H 8H 9H"]
    assert end_round_scores(3, grids, rules=[_FOAK]) == [8, 40, 40]


def test_four_of_a_kind_not_adjacent_gives_nothing():
    # columns 0 and 2 are 7-pairs but not next to each other: just two cancelled columns.
    grids = ["7H 3C 7D 7S 5D 7C", "AS 2S 4S 6S 8S 9S"]
    assert end_round_scores(2, grids, rules=[_FOAK]) == [8, 30]


def test_four_of_a_kind_two_adjacent_pairs_of_different_ranks_gives_nothing():
    grids = ["7H 8D 3C 7S 8C 5D", "AS 2S 4S 6S 9S 10S"]
    assert end_round_scores(2, grids, rules=[_FOAK]) == [8, 7 + 11 + 14]


def test_four_of_a_kind_eight_card_columns_two_and_three():
    # GOLF8: columns 2 and 3 (positions 2,6 and 3,7) are Q pairs -> adjacent -> seat 1 +10.
    # Seat 0: AS 2S QH QD / 3S 4S QS QC -> 1+3 + 2+4 = 10. Seat 1: 8 columns sum:
    # AD 2D 4D 5D / 6D 7D 8D 9D -> 7 + 9 + 12 + 14 = 42 + 10 = 52
    grids = ["AS 2S QH QD 3S 4S QS QC", "AD 2D 4D 5D 6D 7D 8D 9D"]
    assert end_round_scores(2, grids, options={"layout": 8}, rules=[_FOAK]) == [10, 52]


def test_four_of_a_kind_both_players():
    # Both players hold adjacent four-of-a-kind: each gets +10 from the other.
    # Seat 0: 7H 7D 3C / 7S 7C 5D -> 8 + 10 = 18. Seat 1: 3D KS KH / 4D KD KC -> 7 + 10 = 17.
    grids = ["7H 7D 3C 7S 7C 5D", "3D KS KH 4D KD KC"]
    assert end_round_scores(2, grids, rules=[_FOAK]) == [18, 17]


# ---------------------------------------------------------------------------- ender penalties

_PEN_A = "golf.ender-penalty-10"
_PEN_B = "golf.ender-penalty-lowest"


def _knock_round(
    scrooge: str, marley: str, rules: Sequence[str], options: dict[str, Any] = _FOUR
) -> list[int]:
    """Seat 0 (Scrooge) knocks at once; seat 1 (Marley) draws 8S and discards it."""
    game = start(2, [scrooge, marley], "9C!", "8S", options=options, rules=rules)
    play(game, (0, "knock"), (1, "draw"), (1, "discard"))
    assert game.is_over
    assert last_round(game)["ender"] == 0
    return last_round(game)["scores"]


# Scrooge: 10C 4C / 2D AD -> no pairs: 17. Marley: QS QH / 5H 7H -> Q row pair: 12.
_SCROOGE, _MARLEY = "10C 4C 2D AD", "QS QH 5H 7H"


def test_seed_worked_example_penalty_b():
    # Seed Part 3 Step 3: Scrooge knocks, 17 vs Marley 12 -> Scrooge 17 + 12 = 29, Marley 12.
    assert _knock_round(_SCROOGE, _MARLEY, [_PEN_B]) == [29, 12]


def test_penalty_a_plus_ten():
    assert _knock_round(_SCROOGE, _MARLEY, [_PEN_A]) == [27, 12]
    assert _knock_round(_SCROOGE, _MARLEY, []) == [17, 12]


@pytest.mark.parametrize("rule", [_PEN_A, _PEN_B])
def test_penalty_not_applied_to_a_tie_or_a_lowest_ender(rule):
    # GOLF-PEN-4: tie for lowest is not penalised. Marley: QS QH / 10H 7H -> 17 = Scrooge.
    assert _knock_round(_SCROOGE, "QS QH 10H 7H", [rule]) == [17, 17]
    # Scrooge lowest: Marley 9S 8H / 3H 7H = 27 -> no penalty
    assert _knock_round(_SCROOGE, "9S 8H 3H 7H", [rule]) == [17, 27]


def test_penalty_b_adds_nothing_for_a_negative_lowest():
    # GOLF-PEN-3 [D]: + max(lowest, 0). GOLF4H with jokers: Scrooge 5C 2C AD 3D = 11;
    # Marley JK KS QH QD -> Q pair 0, K 0, JK -2 = -2. B: 11 + 0 = 11; A: 11 + 10 = 21.
    marley = "JK KS QH QD"
    assert _knock_round("5C 2C AD 3D", marley, [_PEN_B, "golf.jokers"], _HAND) == [11, -2]
    assert _knock_round("5C 2C AD 3D", marley, [_PEN_A, "golf.jokers"], _HAND) == [21, -2]


def test_penalty_b_three_players_adds_the_lowest_of_all():
    # Scrooge 17 knocks; Marley 12; seat 2 scores 8, the lowest: Scrooge adds 8.
    game = start(
        3, [_SCROOGE, _MARLEY, "2S 3H AH 2C"], "9C!", "8S 8D", options=_FOUR, rules=[_PEN_B]
    )
    play(game, (0, "knock"), (1, "draw"), (1, "discard"), (2, "draw"), (2, "discard"))
    # seat 2: 2S 3H / AH 2C -> 2s are diagonal (no cancel): 2 + 3 + 1 + 2 = 8
    assert last_round(game)["scores"] == [17 + 8, 12, 8]
    assert game.result.winners == (2,)


# Two players, GOLF6. Seat 0 draws QD over its last face-down card 9C and ends the round:
# (AS+KH) 1 + (2S+KD) 2 + (KS+QD) 10 = 13. Seat 1: AH 2H 3H / AC 2C 3C, every column pairs: 0;
# in its final turn it draws 8S and discards it.
_SIX_ENDER = ["AS! 2S! KS! KH! KD! 9C", "AH! 2H 3H AC 2C 3C"]


def _six_ender_round(rules: Sequence[str], **kw: Any) -> Game:
    game = start(2, _SIX_ENDER, "5D!", "QD 8S", rules=rules, **kw)
    play(game, (0, "draw"), (0, "replace 5"), (1, "draw"), (1, "discard"))
    return game


@pytest.mark.parametrize(
    ("rules", "scores"), [([], [13, 0]), ([_PEN_A], [23, 0]), ([_PEN_B], [13, 0])]
)
def test_six_card_ender_is_the_completer(rules, scores):
    game = _six_ender_round(rules)
    assert last_round(game)["ender"] == 0
    assert last_round(game)["scores"] == scores


def test_penalty_b_six_card_positive_lowest():
    # Seat 1 now scores 7: AH 2H 3H / AC 2C 4C -> 0 + 0 + 3+4 = 7. Seat 0 13 > 7 -> B: 13 + 7 = 20.
    game = start(
        2, ["AS! 2S! KS! KH! KD! 9C", "AH! 2H 3H AC 2C 4C"], "5D!", "QD 8S", rules=[_PEN_B]
    )
    play(game, (0, "draw"), (0, "replace 5"), (1, "draw"), (1, "discard"))
    assert last_round(game)["scores"] == [20, 7]


def test_penalty_compares_after_four_of_a_kind_awards():
    # GOLF-PEN-4: seat 0 ends with 5: AS 2S KS / KH KD 2D. Seat 1: 7H 7D 3C / 7S 7C 5D holds
    # adjacent four of a kind -> 8, and seat 0 gets +10 -> 15. 15 > 8: seat 0 is not lowest,
    # penalty A: 25.
    grids = ["AS! 2S! KS! KH! KD! 9C", "7H! 7D 3C 7S 7C 5D"]
    game = start(2, grids, "5C!", "2D 8S", rules=[_FOAK, _PEN_A])
    play(game, (0, "draw"), (0, "replace 5"), (1, "draw"), (1, "discard"))
    assert last_round(game)["scores"] == [25, 8]
    game = start(2, grids, "5C!", "2D 8S", rules=[_FOAK])
    play(game, (0, "draw"), (0, "replace 5"), (1, "draw"), (1, "discard"))
    assert last_round(game)["scores"] == [15, 8]


def test_turn_cap_round_has_no_ender_and_no_penalty():
    # GOLF-CAP-1 / GOLF-PEN-1: 3 players, max_turns 2. Seat 0 knocks (turn 1), seat 1 draws
    # and discards (turn 2): the cap ends the round before seat 2's final turn, with no ender.
    game = start(
        3,
        [_SCROOGE, _MARLEY, "2S 3H AH 2C"],
        "9C!",
        "8S 8D",
        options={"layout": "4", "max_turns": 2},
        rules=[_PEN_A],
    )
    play(game, (0, "knock"), (1, "draw"), (1, "discard"))
    assert game.is_over
    assert last_round(game)["ender"] is None
    assert last_round(game)["scores"] == [17, 12, 8]


def test_turn_cap_six_card():
    # max_turns 3: seat 0, seat 1, seat 0 discard their drawn cards; the round ends, nobody ended it.
    game = start(2, _SIX_ENDER, "5D!", "QD 8S 7S", options={"max_turns": 3}, rules=[_PEN_A])
    play(game, (0, "draw"), (0, "discard"), (1, "draw"), (1, "discard"))
    assert not game.is_over
    play(game, (0, "draw"), (0, "discard"))
    assert game.is_over
    # seat 0 with 9C: (A+K) 1 + (2+K) 2 + (K+9) 9 = 12
    assert last_round(game)["scores"] == [12, 0]
    assert last_round(game)["ender"] is None


# ---------------------------------------------------------------------------- removing cancelled groups


def test_remove_columns_six_card():
    # GOLF6-SCORE-2 (golf.remove-columns): seat 0 draws 7D over its face-up 4S at position 3:
    # column 0 = 7H|7D, both face up -> moved to the bottom of the discards; 0 and 3 are empty.
    game = start(
        2,
        ["7H! 2S! 3S! 4S! 5S 6S", "AH! 2H 3H 9C 8C 10C"],
        "5D!",
        "7D 8S",
        rules=["golf.remove-columns"],
    )
    play(game, (0, "draw"), (0, "replace 3"))
    assert table(game, 1)["grids"][0] == ["--", "2S", "3S", "--", None, None]
    assert table(game, 1)["discard"] == "4S"
    assert table(game, 1)["discards"] == 4  # 5D, the two sevens beneath, 4S on top
    play(game, (1, "draw"), (1, "discard"))
    play(game, (0, "draw"))
    assert legal(game, 0) == ["replace 1", "replace 2", "replace 4", "replace 5", "discard"]
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-SCORE-2\)"):
        game.act(0, "replace 0")


def test_remove_columns_completion_and_score():
    # Removed positions count as face up: seat 0 (7H 2S 3S / [4S] 5S 6S) replaces its only
    # face-down card (position 3) with 7D: column 0 goes, the layout is complete -> ender.
    game = start(
        2,
        ["7H! 2S! 3S! 4S 5S! 6S!", "AH! 2H 3H 9C 8C 10C"],
        "5D!",
        "7D 8S",
        rules=["golf.remove-columns"],
        options={},
    )
    play(game, (0, "draw"), (0, "replace 3"))
    assert table(game)["ender"] == 0
    play(game, (1, "draw"), (1, "discard"))
    # seat 0: 2+5 + 3+6 = 16; seat 1: 1+9 + 2+8 + 3+10 = 33
    assert last_round(game)["scores"] == [16, 33]


def test_remove_triples_nine_card():
    # GOLF9-4 (golf.remove-triples): 7D over 2S completes row 0 (7S 7H 7D) -> removed.
    grids = ["7S! 7H! 2S! 3S! 4S! 5S! 6S 8S 9S", "AH! 2H! 3H! 4H 5H 6H 8H 9H 10H"]
    game = start(2, grids, "5D!", "7D 8C", options={"layout": 9}, rules=["golf.remove-triples"])
    play(game, (0, "draw"), (0, "replace 2"))
    assert table(game, 1)["grids"][0][:3] == ["--", "--", "--"]
    assert table(game, 1)["discard"] == "2S"
    assert table(game, 1)["discards"] == 5
    play(game, (1, "draw"), (1, "discard"), (0, "draw"))
    assert legal(game, 0) == [f"replace {p}" for p in range(3, 9)] + ["discard"]


# ---------------------------------------------------------------------------- empty stock


def test_empty_stock_reshuffles_discards_except_the_top():
    # GOLF-STOCK-1: 2 players GOLF6, the stock is empty and 40 cards lie in the discard pile
    # (top 5D). Drawing turns the 39 under the top into a new stock and draws from it.
    game = start(2, ["AS! 2S! KS! KH! KD! 9C", "AH! 2H 3H AC 2C 3C"], "5D!", rest_to_discards=True)
    assert table(game)["stock"] == 0
    assert table(game)["discards"] == 40
    play(game, (0, "draw"))
    assert table(game)["discard"] == "5D"
    assert table(game)["discards"] == 1
    assert table(game)["stock"] == 38
    assert card_count(game) == 52
    play(game, (0, "discard"))
    assert table(game)["discards"] == 2
    assert not game.is_over


def test_empty_stock_take_is_still_possible():
    game = start(2, ["AS! 2S! KS! KH! KD! 9C", "AH! 2H 3H AC 2C 3C"], "5D!", rest_to_discards=True)
    play(game, (0, "take"), (0, "replace 5"))  # 5D over 9C completes seat 0's layout
    assert table(game)["discard"] == "9C"
    assert table(game)["ender"] == 0


# ---------------------------------------------------------------------------- match play


def test_match_totals_and_winner_after_last_round():
    # Round 2 of 2, totals so far 30 and 25; this round scores 13 and 0 (see _SIX_ENDER):
    # 43 and 25 -> seat 1 wins.
    game = _six_ender_round([], options={"rounds": 2}, rnd=2, totals=[30, 25], dealer=1)
    assert game.is_over
    assert last_round(game)["totals"] == [43, 25]
    assert game.result.scores == (43.0, 25.0)
    assert game.result.winners == (1,)


def test_match_tie_gives_co_winners():
    # GOLF-GAME-2: 12 + 13 = 25 = 25 + 0 -> both win.
    game = _six_ender_round([], options={"rounds": 2}, rnd=2, totals=[12, 25], dealer=1)
    assert game.result.scores == (25.0, 25.0)
    assert game.result.winners == (0, 1)


def test_round_tie_one_round_match_co_winners():
    # A one-round match where both score 17 (Scrooge/Marley tie): both win.
    game = start(2, [_SCROOGE, "QS QH 10H 7H"], "9C!", "8S", options=_FOUR)
    play(game, (0, "knock"), (1, "draw"), (1, "discard"))
    assert game.result.winners == (0, 1)


def test_points_limit_ends_the_match_at_the_end_of_the_round():
    # GOLF-GAME-1: points_limit 100; totals 95 and 10; this round adds 13 and 0 -> 108: over.
    game = _six_ender_round(
        [], options={"rounds": None, "points_limit": 100}, rnd=3, totals=[95, 10], dealer=1
    )
    assert game.is_over
    assert game.result.scores == (108.0, 10.0)
    assert game.result.winners == (1,)


def test_points_limit_reached_exactly():
    game = _six_ender_round(
        [], options={"rounds": None, "points_limit": 100}, rnd=3, totals=[87, 10], dealer=1
    )
    assert game.is_over
    assert game.result.scores == (100.0, 10.0)


def test_points_limit_not_reached_deals_next_round_dealer_passes_left():
    # 80 + 13 = 93 < 100: round 4 is dealt; dealer 1 -> 0; seat 1 (left of seat 0) starts.
    game = _six_ender_round(
        [], options={"rounds": None, "points_limit": 100}, rnd=3, totals=[80, 10], dealer=1
    )
    assert not game.is_over
    t = table(game)
    assert (t["round"], t["dealer"], t["totals"]) == (4, 0, [93, 10])
    assert t["phase"] == "setup"
    assert game.to_act == (1,)
    assert card_count(game) == 52
    assert t["stock"] == 52 - 12 - 1


def test_points_limit_with_rounds_cap():
    # rounds=3 and points_limit=100: round 3 ends the match even though nobody reached 100.
    game = _six_ender_round(
        [], options={"rounds": 3, "points_limit": 100}, rnd=3, totals=[20, 10], dealer=1
    )
    assert game.is_over
    assert game.result.scores == (33.0, 10.0)


def test_three_player_rounds_rotate_dealer_and_first_player():
    # GOLF-DEAL-3 over three rounds with 3 players: dealer 2 -> 0 -> 1; first to act 0 -> 1 -> 2.
    game = start(3, _END_GRIDS, "10S!", "4H 9S", turn=1, options={"rounds": 3})
    play(
        game,
        (1, "draw"),
        (1, "replace 5"),
        (2, "draw"),
        (2, "replace 4"),
        (0, "take"),
        (0, "replace 3"),
    )
    t = table(game)
    assert (t["round"], t["dealer"], t["totals"]) == (2, 0, [21, 14, 19])
    assert game.to_act == (1,)
    # play round 2 out: everyone flips, then each replaces face-down cards in order
    _play_out(game)
    t = table(game)
    assert (t["round"], t["dealer"]) == (3, 1)
    assert game.to_act == (2,)
    totals = [sum(r["scores"][s] for r in game.history(None)) for s in range(3)]
    assert t["totals"] == totals


def _play_out(game: Game) -> None:
    """Finish the current round: flip the first positions, then always draw and replace the
    first face-down card (or discard when there is none)."""
    start_round = table(game)["round"]
    while not game.is_over and table(game)["round"] == start_round:
        seat = game.to_act[0]
        options = legal(game, seat)
        if options[0].startswith(("flip", "peek")):
            game.act(seat, options[0])
        elif "draw" in options:
            game.act(seat, "draw")
        else:
            mine = table(game, seat)["grids"][seat]
            hidden = [p for p, c in enumerate(mine) if c is None]
            game.act(seat, f"replace {hidden[0]}" if hidden else "discard")


def test_full_match_totals_are_the_sum_of_round_scores():
    game = cardcore.new_game("golf", 3, options={"rounds": 3}, seed=11)
    for _ in range(3):
        _play_out(game)
    assert game.is_over
    rounds = game.history(None)
    assert [r["round"] for r in rounds] == [1, 2, 3]
    totals = [sum(r["scores"][s] for r in rounds) for s in range(3)]
    assert list(game.result.scores) == [float(t) for t in totals]
    low = min(totals)
    assert game.result.winners == tuple(s for s in range(3) if totals[s] == low)


def test_default_match_is_nine_rounds():
    game = cardcore.new_game("golf", 2, seed=12)
    for _ in range(8):
        _play_out(game)
    assert not game.is_over
    assert table(game)["round"] == 9
    _play_out(game)
    assert game.is_over
    assert len(game.history(None)) == 9


def test_resigning_player_cannot_win():
    # GOLF-GAME-4: seat 0 leads 5 to 50 but resigns: the match ends at once and seat 1 wins.
    game = _six_ender_round([], options={"rounds": 5}, rnd=2, totals=[5, 50], dealer=1)
    assert not game.is_over
    game.act(0, "resign")
    assert game.is_over
    assert game.result.winners == (1,)


# ---------------------------------------------------------------------------- more corner cases


def test_four_players_final_turns_wrap_around():
    # Two decks (4 players). Seat 3 (the dealer's seat is 3 by default, but play is at seat 3)
    # completes; seats 0, 1, 2 each take one final turn; then the round ends.
    grids = [
        "AS! 2S! 3S! 4S 5S 6S",
        "AH! 2H! 3H! 4H 5H 6H",
        "AC! 2C! 3C! 4C 5C 6C",
        "AD! 2D! 3D! 4D! 5D! 6D",
    ]
    game = start(4, grids, "9S!", "KS 8S 8H 8C", turn=3)
    play(game, (3, "draw"), (3, "replace 5"))  # KS over 6D
    order = []
    while not game.is_over:
        seat = game.to_act[0]
        order.append(seat)
        play(game, (seat, "draw"), (seat, "discard"))
    assert order == [0, 1, 2]
    # seat 3: (A+4) + (2+5) + (3+K 0) = 5 + 7 + 3 = 15; the others 5 + 7 + 9 = 21
    assert last_round(game)["scores"] == [21, 21, 21, 15]
    assert last_round(game)["ender"] == 3


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_dealer_option_seat(dealer):
    game = cardcore.new_game("golf", 3, options={"dealer": dealer}, seed=6)
    assert table(game)["dealer"] == dealer
    assert game.to_act == ((dealer + 1) % 3,)


def test_dealer_random_is_seeded_and_left_of_it_starts():
    a = cardcore.new_game("golf", 4, options={"dealer": "random"}, seed=21)
    b = cardcore.new_game("golf", 4, options={"dealer": "random"}, seed=21)
    assert table(a)["dealer"] == table(b)["dealer"]
    assert a.to_act == ((table(a)["dealer"] + 1) % 4,)


def test_golf4_taken_card_cannot_be_discarded():
    game = start(2, ["3C 3D 5C 6C", "8H 2H 8D KS"], "10H!", "QS", options=_FOUR)
    play(game, (0, "take"))
    assert legal(game, 0) == ["replace 0", "replace 1", "replace 2", "replace 3"]
    with pytest.raises(IllegalActionError, match=r"\(GOLF-TURN-3\)"):
        game.act(0, "discard")


def test_golf4h_draw_then_replace_or_discard():
    game = start(2, ["3C@0 3D@0 5C@0 6C@0", "8H@1 2H@1 8D@1 KS@1"], "10H!", "QS", options=_HAND)
    play(game, (0, "draw"))
    assert legal(game, 0) == ["replace 0", "replace 1", "replace 2", "replace 3", "discard"]
    play(game, (0, "replace 2"))  # QS over 5C
    assert table(game, 0)["grids"][0] == ["3C", "3D", "QS", "6C"]
    assert table(game, 1)["grids"][0] == [None, None, None, None]
    assert table(game, 1)["discard"] == "5C"


def test_no_final_turns_with_penalty():
    # GOLF6-END-4 + GOLF-PEN-2: seat 0 completes with 13 and the round ends at once; seat 1's
    # layout AH 2H 3H / AC 2C 3C scores 0 -> seat 0 is not lowest: 23.
    game = start(2, _SIX_ENDER, "5D!", "QD 8S", rules=["golf.no-final-turns", _PEN_A])
    play(game, (0, "draw"), (0, "replace 5"))
    assert game.is_over
    assert last_round(game)["scores"] == [23, 0]


@pytest.mark.parametrize("layout", [8, 9, 10])
def test_final_stock_only_other_layouts(layout):
    size = {8: 8, 9: 9, 10: 10}[layout]
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    seat0 = " ".join(f"{r}S!" for r in ranks[: size - 1]) + " KS"
    seat1 = " ".join(f"{r}H" for r in ranks[:size])
    game = start(
        2, [seat0, seat1], "QC!", "KD", options={"layout": layout}, rules=["golf.final-stock-only"]
    )
    play(game, (0, "take"), (0, f"replace {size - 1}"))  # QC over the face-down KS
    assert table(game)["ender"] == 0
    assert legal(game, 1) == ["draw"]


def test_four_of_a_kind_award_once_for_six_of_a_kind():
    # GOLF6-VAR-3 [D]: 4 players (2 decks); seat 0 holds three 7-columns: 0 for seat 0 and
    # +10 once to every other player. Others: A..6 of a suit -> 5 + 7 + 9 = 21 + 10 = 31.
    grids = ["7H 7D 7S 7C 7H 7D", "AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H", "AC 2C 3C 4C 5C 6C"]
    assert end_round_scores(4, grids, rules=[_FOAK]) == [0, 31, 31, 31]


def test_four_of_a_kind_award_once_for_two_blocks_in_ten_card():
    # GOLF10: seat 0 has 7-pairs in columns 0, 1 and 9-pairs in columns 3, 4; column 2 is 3+5.
    # Seat 0: 8. Seat 1: AS 2S 3S 4S 5S / 6S 8S 10S JS QS = 7 + 10 + 13 + 14 + 15 = 59, +10 once.
    grids = ["7H 7D 3C 9S 9H 7S 7C 5D 9D 9C", "AS 2S 3S 4S 5S 6S 8S 10S JS QS"]
    assert end_round_scores(2, grids, options={"layout": 10}, rules=[_FOAK]) == [8, 69]


def test_no_cancelling_golf4h_jokers_count_minus_four():
    assert end_round_scores(
        2,
        ["JK JK 5S 6S", "AD 2D 4D 5D"],
        options=_HAND,
        rules=["golf.no-cancelling", "golf.jokers"],
    ) == [7, 12]


def test_short_notation_and_case():
    game = _six_card_after_setup()
    play(game, (0, "D"), (0, "R 3"), (1, " T "), (1, "r 1"), (0, "d"), (0, "x"))
    assert table(game)["grids"][0][3] == "7D"
    assert table(game)["grids"][1][1] == "4S"
    assert table(game)["discard"] == "KS"
    with pytest.raises(cardcore.NotationError):
        game.act(1, "flop 1")


def test_golf4h_position_owner_always_knows_the_hand():
    # GOLF4H-1: the owner may look at the hand at any time. A position whose grid.0 cards carry no
    # "@0" mark describes a state that cannot arise: it should be refused with an OptionError
    # (as a GOLF6 face-down card marked known is), or read with the owner knowing the hand.
    text = cardcore.new_game("golf", 2, options={"layout": "4h"}, seed=1).position()
    head, _, grids = text.partition(" | grid.0")
    bad = head + " | grid.0" + grids.replace("@0", "").replace("@1", "")
    try:
        game = cardcore.new_game("golf", 2, options={"layout": "4h"}, position=bad, seed=1)
    except cardcore.OptionError:
        return
    assert None not in table(game, 0)["grids"][0]


def test_golf4_position_refuses_a_card_known_only_to_an_opponent():
    # GOLF4-TURN-3: a GOLF4 grid card is known to nobody, to its owner (peeked/placed) or to
    # everybody (a taken discard); never to another seat alone. "QC@1" in grid.0 cannot arise:
    # the position should be refused, or at least seat 1 must not be shown seat 0's card.
    text = cardcore.new_game("golf", 2, options={"layout": "4"}, seed=1).position()
    head, _, grids = text.partition(" | grid.0: ")
    first, rest = grids.split(" ", 1)
    bad = f"{head} | grid.0: {first}@1 {rest}"
    try:
        game = cardcore.new_game("golf", 2, options={"layout": "4"}, position=bad, seed=1)
    except cardcore.OptionError:
        return
    assert table(game, 1)["grids"][0] == [None, None, None, None]


def test_remove_triples_overlapping_row_and_column():
    # GOLF9-3/4 with two decks: 7S placed at position 0 completes row 0 (7S 7H 7D) and
    # column 0 (7S 7C 7S) at once: all five sevens go (1 upcard + 2S on top + 5 beneath = 7).
    grids = [
        "2S! 7H! 7D! 7C! 3S! 4S! 7S! 5S! 6S",
        "AH 2H 3H 4H 5H 6H 8H 9H 10H",  # 48
        "AC 2C 3C 4C 5C 6C 8C 9C 10C",
        "AD 2D 3D 4D 5D 6D 8D 9D 10D",
    ]
    game = start(
        4, grids, "KD!", "7S 9S KS 8S 8D", options={"layout": 9}, rules=["golf.remove-triples"]
    )
    play(game, (0, "draw"), (0, "replace 0"))
    assert table(game, 1)["grids"][0] == ["--", "--", "--", "--", "3S", "4S", "--", "5S", None]
    assert (table(game)["discard"], table(game)["discards"]) == ("2S", 7)
    for seat in (1, 2, 3):
        play(game, (seat, "draw"), (seat, "discard"))
    play(game, (0, "draw"), (0, "replace 8"))  # 8D over 6S completes the layout
    for seat in (1, 2, 3):
        play(game, (seat, "draw"), (seat, "discard"))
    # seat 0: 3 + 4 + 5 + 8 = 20
    assert last_round(game)["scores"] == [20, 48, 48, 48]


def test_remove_columns_waits_until_both_cards_are_face_up():
    # 7H (face up) over a face-down 7D: the column cancels but is not removed yet.
    game = start(
        2,
        ["7H! 2S! 3S! 7D 5S 6S", "AH! 2H 3H 9C 8C 10C"],
        "5D!",
        "QD 8S",
        rules=["golf.remove-columns"],
    )
    play(game, (0, "draw"), (0, "replace 4"), (1, "draw"), (1, "discard"))
    assert table(game, 1)["grids"][0] == ["7H", "2S", "3S", None, "QD", None]
    assert table(game)["discards"] == 3


def test_four_in_hand_next_round_rotates_and_starts_with_a_turn():
    # GOLF4H has no setup: after round 1 (dealer 1) round 2 is dealt by seat 0 and seat 1 draws.
    game = start(
        2,
        ["3C@0 3D@0 5C@0 6C@0", "8H@1 2H@1 8D@1 KS@1"],
        "10H!",
        "QS",
        options={**_HAND, "rounds": 2},
    )
    play(game, (0, "knock"), (1, "draw"), (1, "discard"))
    # seat 0: 3s cancel -> 11; seat 1: 8s cancel -> 2 + 0 = 2
    t = table(game)
    assert (t["round"], t["dealer"], t["totals"]) == (2, 0, [11, 2])
    assert game.to_act == (1,)
    assert legal(game, 1) == ["draw", "take", "knock"]
    assert None not in table(game, 1)["grids"][1]
