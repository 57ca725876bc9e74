"""Private helpers of :mod:`cardcore.testing`: fingerprints, knowledge sets and card scans.

Nothing here is public API; plugin authors call :mod:`cardcore.testing`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs

from cardcore._actionlog import actions as recorded
from cardcore.cards import Card
from cardcore.deck import derive_rng
from cardcore.errors import IllegalActionError, NotationError
from cardcore.zones import ALL, Visibility

if TYPE_CHECKING:
    from cardcore.actions import Action
    from cardcore.game import Game
    from cardcore.state import GameState

__all__ = [
    "CARD_TOKEN",
    "Fingerprint",
    "card_tokens",
    "conservation_problem",
    "contains_seed",
    "error_names",
    "fingerprint",
    "game_seed",
    "game_words",
    "known_by",
    "known_cards",
    "known_multiset",
    "legal_words",
    "message_problem",
    "multiset",
    "notation_words",
    "seed_in_text",
    "text_fields",
    "view_leaks",
]

CARD_TOKEN = re.compile(
    r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[SHDC](?![A-Za-z0-9])|(?<![A-Za-z0-9])JK(?![A-Za-z0-9])"
)
"""An exact, upper-case card text inside a longer string (``"discard 10H"`` holds ``10H``)."""

Fingerprint = tuple[str, int, tuple[tuple[int, str, float | None], ...], bool, tuple[int, ...]]
"""What must not change when an input is rejected: snapshot, version, record, over, to_act."""


def game_seed(seed: int, index: int) -> int:
    """Return the seed of game *index* of a check seeded *seed*: large, so a leak is recognisable.

    Small seeds such as ``3`` also occur as counts in views; a 61-bit seed does not.
    """
    return (1 << 60) | derive_rng(seed, 1_000_003 + index).getrandbits(59)


def fingerprint(game: Game) -> Fingerprint:
    """Return the parts of *game* that a rejected input must leave exactly as they were."""
    snap = json.dumps(game.state.snapshot(), sort_keys=True, default=str)
    record = tuple((seat, str(action), at) for seat, action, at in game.record_entries())
    return snap, game.version, record, game.is_over, tuple(game.to_act)


def known_cards(state: GameState, seat: int | None) -> set[str]:
    """Return the card texts *seat* knows where they lie now (``None``: a spectator).

    Derived from the zones' visibility and knowledge masks, exactly as
    :meth:`cardcore.Zones.knows` decides.
    """
    return known_by(state, [seat])[seat]


def known_by(state: GameState, seats: Iterable[int | None]) -> dict[int | None, set[str]]:
    """Return :func:`known_cards` for several seats at once (one pass over the table)."""
    zones = state.zones
    specs = zones.layout.specs
    who = list(seats)
    out: dict[int | None, set[str]] = {s: set() for s in who}
    for z, pile in enumerate(zones.cards):
        if not pile:
            continue
        vis = specs[z].visibility
        if vis is Visibility.EVERYONE:
            names = {str(c) for c in pile}
            for s in who:
                out[s] |= names
            continue
        masks = zones.seen[z]
        owner = specs[z].owner
        top = len(pile) - 1
        for s in who:
            got = out[s]
            if vis is Visibility.OWNER and s is not None and s == owner:
                got.update(str(c) for c in pile)
                continue
            bit = 0 if s is None else 1 << s
            for i, m in enumerate(masks):
                if m == ALL or m & bit or (vis is Visibility.TOP and i == top):
                    got.add(str(pile[i]))
    return out


def card_tokens(data: Any) -> set[str]:
    """Return every card text found anywhere in JSON-like *data* (keys, values, inside strings)."""
    if isinstance(data, str):
        return set(CARD_TOKEN.findall(data))
    return set(CARD_TOKEN.findall(json.dumps(data, default=str)))


def notation_words(action: Action) -> set[str]:
    """The card-like words of *action*'s notation that name none of its cards: Bridge's bid
    ``2H`` (an action holding a level and a strain, no :class:`~cardcore.Card`). Once a game
    has written such a word, the knowledge checks read it as the game's notation, not a card.

    A card counts as the action's where a field holds it (or a tuple or list of them), as
    a :class:`~cardcore.Card` or as its text (a field ``"7H"``: a card held as text); an
    action that is not an attrs class, or cannot write itself, names cards only.
    """
    try:
        words = card_tokens(str(action))
        if not words:
            return words
        values = [getattr(action, f.name) for f in attrs.fields(type(action))]
        values = [  # (a text no one passes in is the notation itself, cached: no card held)
            v for f, v in zip(attrs.fields(type(action)), values, strict=True)
            if not (not f.init and isinstance(v, str))
        ]  # fmt: skip
    except Exception:  # not an attrs class, or a notation that fails: no word of its own
        return set()
    while values and words:  # cards nested in melds, mappings or attrs values count too
        value = values.pop()
        if isinstance(value, Card):
            words.discard(str(value))
        elif isinstance(value, str) and CARD_TOKEN.fullmatch(value.strip()):
            words.discard(value.strip())  # a card's text held whole is that card (not "H")
        elif isinstance(value, tuple | list | frozenset | set):
            values.extend(value)
        elif isinstance(value, dict):
            values.extend(value.values())
        elif attrs.has(type(value)):
            values.extend(getattr(value, f.name) for f in attrs.fields(type(value)))
    return words


def game_words(game: Game) -> set[str]:
    """:func:`notation_words` of every action *game* has applied and of every action it lists
    now (a table may name the cheapest bid still open, ``2C``, before anyone bids it)."""
    return legal_words(game) | {w for action in recorded(game) for w in notation_words(action)}


def legal_words(game: Game) -> set[str]:
    """:func:`notation_words` of the actions *game* lists now, for every seat to act."""
    out: set[str] = set()
    for seat in game.to_act:
        for action in game.legal_actions(seat):
            out |= notation_words(action)
    return out


def text_fields(game: Game) -> frozenset[str]:
    """The table fields *game* declares to hold other things than cards: the only places a
    word of the game's notation is excused (never in the piles, a card field or an
    undeclared field)."""
    kinds = ("card", "cards")
    return frozenset(
        f.name
        for f in game.ruleset.game.fields
        if f.kind not in kinds and not (f.kind == "per-seat" and f.of in kinds)
    )


def view_leaks(game: Game, view: Any, allowed: set[str], words: set[str]) -> set[str]:
    """The card texts of *view*'s table and piles beyond *allowed*; *words* (the game's
    notation) are excused only in :func:`text_fields`."""
    table = view["table"]
    loose = text_fields(game) if words else frozenset()
    held = [view["zones"], {k: v for k, v in table.items() if k not in loose}]
    text = {k: v for k, v in table.items() if k in loose}
    return (card_tokens(held) - allowed) | (card_tokens(text) - allowed - words)


def seed_in_text(text: str, seed: int) -> str | None:
    """Return how JSON *text* shows *seed* (a ``"seed"`` key or the number itself), else ``None``."""
    if str(seed) in text:
        return f"the number {seed}"
    low = text.lower()
    for key in ('"seed"', '"_seed"', '"rng"'):
        if key + ":" in low:
            return f"the key {key}"
    return None


def contains_seed(data: Any, seed: int) -> str | None:
    """Return how *data* shows *seed* (a ``"seed"`` key or the number itself), else ``None``."""
    return seed_in_text(json.dumps(data, default=str), seed)


def multiset(cards: Iterable[object]) -> Counter[str]:
    """Count card texts."""
    return Counter(str(c) for c in cards)


def conservation_problem(game: Game, deck: Counter[int] | None) -> str | None:
    """Say how the cards on *game*'s table differ from its deck, or return ``None``.

    :param deck: The ids of the deck's (interned) cards, for a fast first test.
    """
    state = game.state
    cards = list(state.zones.all_cards())
    full = game.logic.deck(len(game.players), game.options)
    if deck is not None and Counter(map(id, cards)) == deck:
        return None
    have, want = multiset(cards), multiset(full)
    if have == want:
        return None
    missing = sorted((want - have).elements())
    extra = sorted((have - want).elements())
    return f"cards not conserved at version {game.version}: missing {missing!r}, extra {extra!r}"


def known_multiset(state: GameState, seat: int) -> Counter[str]:
    """Count the card texts *seat* knows where they lie now."""
    zones = state.zones
    out: Counter[str] = Counter()
    for z, pile in enumerate(zones.cards):
        for i in range(len(pile)):
            if zones.knows(z, i, seat):
                out[str(pile[i])] += 1
    return out


def error_names(kinds: tuple[type[BaseException], ...]) -> str:
    """``"NotationError or IllegalActionError"``."""
    return " or ".join(k.__name__ for k in kinds)


def message_problem(exc: BaseException) -> str | None:
    """Say what is wrong with an error's message (house style), or return ``None``."""
    msg = str(exc)
    if not msg:
        return f"{type(exc).__name__} has an empty message"
    if msg.endswith("."):
        return f"error message ends with a period: {msg!r}"
    rule_id = getattr(exc, "rule_id", None)
    if rule_id is None:  # a refused move cites its rule; a damaged record or save needs none
        if isinstance(exc, IllegalActionError | NotationError):
            return f"{type(exc).__name__} cites no rule ID (rule_id is None): {msg!r}"
        return None
    if not msg.endswith(f"({rule_id})"):
        return f"error message does not end with its rule ID ({rule_id}): {msg!r}"
    return None
