"""Pure Golf helpers: grid shapes, deck counts and cancelling for every layout.

Nothing here imports pluggy or keeps state; the engine (:mod:`cardcore_golf.logic`) and the
house rules build on it. Cards are seen through two parallel sequences, one
entry per layout position (row-major, far row first):

* ``keys``: the card's *pairing key*, its rank label as an int (``Rank`` values: joker 0, ace 1 ...
  king 13), or ``None`` for an empty position (a removed column or triple);
* ``points``: what the card scores (``0`` for an empty position).

A *scorer* is a callable ``(keys, points) -> int`` returning a layout's round score after
cancelling. The factories below build one scorer per cancelling rule; the game resolves the
scorer for its configuration once.

>>> score = column_scorer(3)
>>> score([5, 9, 13, 5, 2, 13], [5, 9, 0, 5, 2, 0])  # 5/5 and K/K cancel: 9 + 2
11
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from attrs import frozen

from cardcore import Card, GameLogic, OptionError, ScoreTable

__all__ = [
    "BASIC_POINTS",
    "LAYOUTS",
    "LAYOUT_ALIASES",
    "LAYOUT_CHOICES",
    "RANK_KEYS",
    "GridShape",
    "Keys",
    "Points",
    "Scorer",
    "anywhere_scorer",
    "awards_ok",
    "cancels_without_choice",
    "card_points",
    "check_dealer",
    "column_pairs",
    "column_scorer",
    "columns_of",
    "complete_groups",
    "deck_count",
    "default_scorer",
    "diagonal_pairs",
    "ender_pays",
    "four_grid_scorer",
    "grid_lines",
    "groups_of",
    "has_adjacent_quad",
    "layout_for",
    "line_scorer",
    "match_rounds",
    "no_cancel_scorer",
    "option_values",
    "pair_scorer",
    "rank_keys",
    "row_col_pairs",
    "shape_of",
]

Keys = Sequence[int | None]
"""Pairing keys per position (``None`` = empty position)."""
Points = Sequence[int]
"""Points per position (``0`` for an empty position)."""
Scorer = Callable[[Keys, Points], int]
"""Scores one layout after cancelling: ``scorer(keys, points) -> int``."""

#: Rank label -> pairing key (the ``Rank`` int value; joker 0).
RANK_KEYS: Final[dict[str, int]] = {
    "JK": 0, "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "10": 10, "J": 11, "Q": 12, "K": 13,
}  # fmt: skip

#: GOLF-SCORE-1: the BASIC table by rank key (A 1, 2-10 face value, J 10, Q 10, K 0).
BASIC_POINTS: Final[dict[int, int]] = {
    1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, 11: 10, 12: 10, 13: 0,
}  # fmt: skip


@frozen
class GridShape:
    """The static shape of one Golf layout.

    :param key: The option value as text: ``"6"``, ``"8"``, ``"9"``, ``"10"``, ``"4"``, ``"4h"``.
    :param name: The rule family name (``"GOLF6"`` ...).
    :param size: Cards per player.
    :param rows: Rows of the grid (1 for the GOLF4H hand).
    :param cols: Columns of the grid (4 for the GOLF4H hand).
    :param initial: Setup actions per player (flips or peeks).
    :param setup: ``"flip"``, ``"peek"`` or ``""`` (no setup phase).
    :param face_down: Whether layout cards stay face down all round (GOLF4, GOLF4H).
    :param hand: Whether the layout is a hand its owner always sees (GOLF4H).
    :param can_knock: Whether players may knock (GOLF4, GOLF4H).
    """

    key: str
    name: str
    size: int
    rows: int
    cols: int
    initial: int
    setup: str
    face_down: bool
    hand: bool
    can_knock: bool

    @property
    def is_four(self) -> bool:
        """Whether this is the 4-card family (GOLF4 or GOLF4H)."""
        return self.size == 4

    def column(self, pos: int) -> int:
        """Return the column of position *pos* (row-major numbering)."""
        return pos % self.cols

    def row(self, pos: int) -> int:
        """Return the row of position *pos* (0 = far row)."""
        return pos // self.cols


#: Every layout by its key (``"6"``, ``"8"``, ``"9"``, ``"10"``, ``"4"``, ``"4h"``).
LAYOUTS: Final[dict[str, GridShape]] = {
    "6": GridShape("6", "GOLF6", 6, 2, 3, 2, "flip", False, False, False),
    "8": GridShape("8", "GOLF8", 8, 2, 4, 2, "flip", False, False, False),
    "10": GridShape("10", "GOLF10", 10, 2, 5, 2, "flip", False, False, False),
    "9": GridShape("9", "GOLF9", 9, 3, 3, 3, "flip", False, False, False),
    "4": GridShape("4", "GOLF4", 4, 2, 2, 2, "peek", True, False, True),
    "4h": GridShape("4h", "GOLF4H", 4, 1, 4, 0, "", True, True, True),
}
"""Every layout by its option value as text."""

_LAYOUT_OF: dict[object, GridShape] = {key: value for key, value in LAYOUTS.items()}
_LAYOUT_OF.update({6: LAYOUTS["6"], 8: LAYOUTS["8"], 9: LAYOUTS["9"], 10: LAYOUTS["10"]})
_LAYOUT_OF.update({4: LAYOUTS["4"], "4H": LAYOUTS["4h"]})

LAYOUT_CHOICES: Final[tuple[int | str, ...]] = (6, 8, 9, 10, 4, "4h")
"""The ``layout`` option's values, one per layout: ``Game.options`` holds one of these."""

LAYOUT_ALIASES: Final[Mapping[str, int | str]] = MappingProxyType(
    {"6": 6, "8": 8, "9": 9, "10": 10, "4": 4, "4H": "4h"}
)
"""Other texts the ``layout`` option takes, each read as the value it names (so ``"6"``
and ``6`` are one configuration)."""


def option_values(*keys: str) -> tuple[int | str, ...]:
    """Return the ``layout`` option values that select the layouts *keys*.

    House rules declare where they apply with it: ``RuleInfo(applies={"layout": ...})``.

    >>> option_values("9", "4h")
    (9, '4h')
    """
    return tuple(v for v in LAYOUT_CHOICES if _LAYOUT_OF[v].key in keys)


def layout_for(value: object) -> GridShape | None:
    """Return the layout for an option value (``6``, ``"6"``, ``"4h"`` ...), or ``None``.

    >>> layout_for(9).name
    'GOLF9'
    >>> layout_for("4H").name
    'GOLF4H'
    """
    try:
        return _LAYOUT_OF[value]
    except (KeyError, TypeError):
        pass
    if isinstance(value, bool):
        return None
    return LAYOUTS.get(str(value).strip().lower())


def match_rounds(options: Mapping[str, Any]) -> int | None:
    """GOLF-GAME-1: the rounds in a match: option ``rounds``; if unset, 9 without a
    ``points_limit`` and no cap with one (``None``)."""
    rounds = options.get("rounds")
    if rounds is not None:
        return int(rounds)
    return 9 if options.get("points_limit") is None else None


def shape_of(options: Mapping[str, Any]) -> GridShape:
    """Return the layout the resolved *options* choose (GOLF-GEN-2).

    :raises OptionError: Not a Golf layout.
    """
    layout = layout_for(options.get("layout", 6))
    if layout is None:
        msg = f"golf has no layout {options.get('layout')!r} (expected 6, 8, 9, 10, '4' or '4h')"
        raise OptionError(msg)
    return layout


def rank_keys(labels: str) -> list[int | None]:
    """Turn rank labels (``"5 9 K 5 2 K"``; ``-`` = empty position) into pairing keys.

    >>> rank_keys("A 10 JK -")
    [1, 10, 0, None]
    """
    return [None if word == "-" else RANK_KEYS[word.upper()] for word in labels.split()]


# --- deck counts ---------------------------------------------------------------------------


def deck_count(layout: GridShape, players: int, per_deck: int = 52) -> int:
    """Return the number of decks for *layout* and *players*.

    GOLF-DECK-1 (GOLF6/8/9/10: 1 deck for 2-3 players, 2 for 4-7, 3 for 8+), GOLF-DECK-2
    (GOLF4/4H: 1 deck for 2-7, 2 for 8+), then GOLF-DECK-3: add decks while the stock after the
    deal and the upcard would hold fewer cards than there are players. *per_deck* counts
    every card a deck brings (54 when a house rule adds two jokers to each).

    >>> deck_count(LAYOUTS["6"], 4), deck_count(LAYOUTS["4"], 7)
    (2, 1)
    """
    if layout.is_four:
        decks = 1 if players < 8 else 2
    else:
        decks = 1 if players < 4 else 2 if players < 8 else 3
    while per_deck * decks - layout.size * players - 1 < players:
        decks += 1
    return decks


# --- geometry -------------------------------------------------------------------------------


def column_pairs(layout: GridShape) -> tuple[tuple[int, int], ...]:
    """Return the column pairs of a two-row layout (GOLF6-SCORE-1, GOLF8-1).

    >>> column_pairs(LAYOUTS["6"])
    ((0, 3), (1, 4), (2, 5))
    """
    return tuple((c, c + layout.cols) for c in range(layout.cols))


def grid_lines(layout: GridShape) -> tuple[tuple[int, ...], ...]:
    """Return every row and then every column of *layout* as position tuples (GOLF9-2).

    >>> grid_lines(LAYOUTS["9"])[:2]
    ((0, 1, 2), (3, 4, 5))
    """
    rows = tuple(tuple(range(r * layout.cols, (r + 1) * layout.cols)) for r in range(layout.rows))
    cols = tuple(tuple(c + r * layout.cols for r in range(layout.rows)) for c in range(layout.cols))
    return rows + cols


def row_col_pairs(layout: GridShape) -> tuple[tuple[int, int], ...]:
    """Return the same-row and same-column position pairs of a 2 x 2 grid (GOLF4-SCORE-1)."""
    return tuple(
        (a, b)
        for a, b in itertools.combinations(range(layout.size), 2)
        if layout.row(a) == layout.row(b) or layout.column(a) == layout.column(b)
    )


def diagonal_pairs(layout: GridShape) -> tuple[tuple[int, int], ...]:
    """Return the diagonal position pairs of a 2 x 2 grid (for a house rule).

    >>> diagonal_pairs(LAYOUTS["4"])
    ((0, 3), (1, 2))
    """
    return tuple(
        (a, b)
        for a, b in itertools.combinations(range(layout.size), 2)
        if layout.row(a) != layout.row(b) and layout.column(a) != layout.column(b)
    )


# --- scorers --------------------------------------------------------------------------------


def no_cancel_scorer() -> Scorer:
    """Return a scorer that cancels nothing: the sum of the points."""

    def score(keys: Keys, points: Points) -> int:
        return sum(points)

    return score


def column_scorer(cols: int) -> Scorer:
    """Return the two-row column-pair scorer (GOLF6-SCORE-1, GOLF8-1, GOLF-SCORE-6).

    A column whose two cards have the same pairing key scores 0; every other card scores.
    """

    def score(keys: Keys, points: Points) -> int:
        total = 0
        for top in range(cols):
            bottom = top + cols
            key = keys[top]
            if key is None or key != keys[bottom]:
                total += points[top] + points[bottom]
        return total

    _COLUMNS[score] = cols
    return score


_COLUMNS: weakref.WeakKeyDictionary[Scorer, int] = weakref.WeakKeyDictionary()
_CHOOSES: weakref.WeakSet[Scorer] = weakref.WeakSet()


def cancels_without_choice(scorer: Scorer) -> bool:
    """Whether *scorer* cancels every complete group with no choice of which cards cancel.

    :func:`anywhere_scorer`, :func:`pair_scorer` and :func:`four_grid_scorer` choose
    (GOLF-SCORE-7); every other scorer, a plugin's own included, is taken not to.
    Removing a cancelled group (a house rule's ``golf_removable_groups``) must not change
    how the layout scores: under a scorer that chooses, a group whose rank's cards differ
    in points (bonus cards of one rank) stays in the layout.

    >>> cancels_without_choice(column_scorer(3)), cancels_without_choice(anywhere_scorer())
    (True, False)
    """
    for _ in range(8):  # a house rule's answer comes wrapped (its failures name the rule)
        try:
            if scorer in _CHOOSES:
                return False
            inner = getattr(scorer, "__wrapped__", None)
        except Exception:  # not weakly referenceable, or an odd object: not one of ours
            return True
        if inner is None:
            return True
        scorer = inner
    return True


def columns_of(scorer: Scorer) -> int:
    """Return *cols* if *scorer* was made by :func:`column_scorer` (*cols*), else 0.

    The engine scores such layouts straight from the cards (same result, no lists).

    >>> columns_of(column_scorer(3)), columns_of(no_cancel_scorer())
    (3, 0)
    """
    try:
        return _COLUMNS.get(scorer, 0)
    except TypeError:  # not weakly referenceable: not one of ours
        return 0


def _best_matching(keys: Keys, points: Points, edges: Sequence[tuple[int, int]]) -> int:
    """Score with a maximum set of disjoint equal-key *edges* cancelled, lowest score first."""
    live = [(a, b) for a, b in edges if keys[a] is not None and keys[a] == keys[b]]
    total = sum(points)
    if not live:
        return total
    best_size, best_score = 0, total

    def walk(start: int, used: int, size: int, score: int) -> None:
        nonlocal best_size, best_score
        if size > best_size or (size == best_size and score < best_score):
            best_size, best_score = size, score
        for index in range(start, len(live)):
            a, b = live[index]
            if used & (1 << a) or used & (1 << b):
                continue
            walk(index + 1, used | (1 << a) | (1 << b), size + 1, score - points[a] - points[b])

    walk(0, 0, 0, total)
    return best_score


def pair_scorer(edges: Sequence[tuple[int, int]]) -> Scorer:
    """Return a scorer cancelling equal-key pairs along *edges* (position pairs).

    As many disjoint pairs as possible cancel; among those choices the lowest score is used
    (GOLF-SCORE-7). Meant for small layouts (GOLF4 with or without diagonals).
    """
    frozen_edges = tuple(edges)

    def score(keys: Keys, points: Points) -> int:
        return _best_matching(keys, points, frozen_edges)

    _CHOOSES.add(score)
    return score


def four_grid_scorer(edges: Sequence[tuple[int, int]]) -> Scorer:
    """Return the GOLF4 scorer: four of a kind scores 0 (GOLF4-SCORE-3), else pairs cancel
    along *edges* (GOLF4-SCORE-1/2, GOLF-SCORE-7)."""
    frozen_edges = tuple(edges)

    def score(keys: Keys, points: Points) -> int:
        first = keys[0]
        if first is not None and all(key == first for key in keys):
            return 0
        return _best_matching(keys, points, frozen_edges)

    _CHOOSES.add(score)
    return score


def anywhere_scorer() -> Scorer:
    """Return the scorer where any two equal cards cancel (GOLF4H-2).

    Per key, floor(count / 2) pairs cancel; of an odd count the card with the fewest points
    scores (GOLF-SCORE-7).
    """

    def score(keys: Keys, points: Points) -> int:
        groups: dict[int, list[int]] = {}
        for key, pts in zip(keys, points, strict=True):
            if key is not None:
                groups.setdefault(key, []).append(pts)
        total = 0
        for group in groups.values():
            if len(group) % 2:
                total += min(group)
        return total

    _CHOOSES.add(score)
    return score


def line_scorer(lines: Sequence[Sequence[int]]) -> Scorer:
    """Return the GOLF9 scorer: every card in a complete same-key line scores 0 (GOLF9-2/3)."""
    frozen_lines = tuple(tuple(line) for line in lines)

    def score(keys: Keys, points: Points) -> int:
        zero = 0
        for line in frozen_lines:
            first = keys[line[0]]
            if first is not None and all(keys[pos] == first for pos in line):
                for pos in line:
                    zero |= 1 << pos
        return sum(pts for pos, pts in enumerate(points) if not zero & (1 << pos))

    return score


def complete_groups(
    keys: Keys, face_up: Sequence[bool], groups: Sequence[Sequence[int]]
) -> list[tuple[int, ...]]:
    """Return the *groups* whose cards are all present, face up and of one key.

    Used by house rules that remove cancelled columns or triples.

    >>> complete_groups([5, 7, 5, 7], [True, True, True, False], [(0, 2), (1, 3)])
    [(0, 2)]
    """
    found = []
    for group in groups:
        first = keys[group[0]]
        if first is None:
            continue
        if all(keys[pos] == first and face_up[pos] for pos in group):
            found.append(tuple(group))
    return found


def has_adjacent_quad(keys: Keys, cols: int) -> bool:
    """Whether two adjacent columns of a two-row layout hold four cards of one key.

    >>> has_adjacent_quad([8, 8, 3, 8, 8, 4], 3)
    True
    """
    for col in range(cols - 1):
        key = keys[col]
        if (
            key is not None
            and keys[col + cols] == key
            and keys[col + 1] == key
            and keys[col + 1 + cols] == key
        ):
            return True
    return False


def default_scorer(layout: GridShape) -> Scorer:
    """Return the base game's scorer for *layout* (no house rules)."""
    if layout.hand:
        return anywhere_scorer()
    if layout.is_four:
        return four_grid_scorer(row_col_pairs(layout))
    if layout.rows == 3:
        return line_scorer(grid_lines(layout))
    return column_scorer(layout.cols)


def ender_pays(scores: Sequence[int], ender: int, ties_pay: bool) -> bool:
    """Whether *ender* pays an ender penalty (GOLF-PEN-4): another seat scored strictly
    lower, or, when *ties_pay*, another seat ties with the ender for the lowest score.

    >>> ender_pays([12, 12, 20], 0, False), ender_pays([12, 12, 20], 0, True)
    (False, True)
    """
    low = min(scores)
    return scores[ender] > low or (ties_pay and scores.count(low) > 1)


def awards_ok(extra: Any, players: int) -> bool:
    """Whether *extra*, one ``golf_round_awards`` answer, is one int per seat (at most 10**15)."""
    return (
        isinstance(extra, list | tuple)
        and len(extra) == players
        and all(type(x) is int and abs(x) <= 10**15 for x in extra)
    )


def check_dealer(dealer: Any, players: int) -> None:
    """Refuse a ``dealer`` option that is not ``None``, ``"random"`` or a seat (GOLF-DEAL-3)."""
    if not (
        dealer is None
        or dealer == "random"
        or (isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < players)
    ):
        msg = f"option 'dealer' must be a seat from 0 to {players - 1} or 'random', not {_shown(dealer)} (GOLF-DEAL-3)"
        raise OptionError(msg)


def groups_of(answers: Any, size: int) -> list[tuple[int, ...]] | None:
    """The groups of every ``golf_removable_groups`` answer, merged; ``None`` if one is not
    a sequence of groups of distinct positions from 0 below *size*."""
    groups: list[tuple[int, ...]] = []
    for answer in answers:
        if not isinstance(answer, list | tuple):
            return None
        for group in answer:
            if not isinstance(group, list | tuple) or not group:
                return None
            if not all(type(p) is int and 0 <= p < size for p in group):
                return None  # plain ints first: a subclass could fail to hash in set()
            if len(set(group)) != len(group):
                return None
            groups.append(tuple(group))
    return groups


def card_points(
    logic: GameLogic[Any, Any],
    table: ScoreTable,
    cards: Iterable[Card],
    override: Callable[..., Any] | None,
    layout: GridShape,
    options: Mapping[str, Any],
) -> dict[Card, int]:
    """Points per card of *cards* (the deck): the ``card_points`` hook's answer (*override*,
    when a rule answers it) or else *table*, the ``golf_score_table`` answer for *layout*.

    :raises PluginError: Naming the rule that answered, for a table that does not score a
        card of the deck (a rank left out without a default) or scores it otherwise than
        with a whole number, and for a ``card_points`` answer that is not one.
    """
    points: dict[Card, int] = {}
    unscored: list[Card] = []
    for card in dict.fromkeys(cards):  # in the deck's order: the same error in every process
        value = None if override is None else override(card=card)
        if value is not None:
            points[card] = logic.checked_answer("card_points", value, int, asked={"card": card})
            continue
        try:
            value = table[card]
        except Exception:  # KeyError: a rank the table leaves out
            value = None
        if type(value) is int and abs(value) <= 10**15:
            points[card] = value
        else:
            unscored.append(card)
    if unscored:
        ranks = [rank.label for rank in sorted({card.rank for card in unscored})]
        named = ", ".join(ranks[:6]) + (", ..." if len(ranks) > 6 else "")
        wanted = f"a ScoreTable that scores every card of the deck in whole points (not {named})"
        asked = {"layout": layout, "options": options}  # the hook's arguments: blame its answerer
        raise logic.refused_answer("golf_score_table", table, wanted, asked=asked)
    return points


def _shown(value: Any) -> str:
    """*value* for an error message: short, and never an error itself (Python will not
    print an int of more than 4,300 digits)."""
    if type(value) is int and value.bit_length() > 64:
        return f"<an int of {value.bit_length()} bits>"
    text = (
        repr(value) if isinstance(value, str | int | float | bool) else f"a {type(value).__name__}"
    )
    return text if len(text) <= 40 else text[:37] + "..."
