"""Private helpers of :mod:`cardcore.testing`: fingerprints, knowledge sets and card scans.

Nothing here is public API; plugin authors call :mod:`cardcore.testing`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from cardcore.deck import derive_rng

if TYPE_CHECKING:
    from cardcore.game import Game
    from cardcore.state import GameState

__all__ = [
    "CARD_TOKEN",
    "Fingerprint",
    "card_tokens",
    "contains_seed",
    "fingerprint",
    "game_seed",
    "known_cards",
    "scrub",
]

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[SHDC](?![A-Za-z0-9])|(?<![A-Za-z0-9])JK(?![A-Za-z0-9])")
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

    Derived from :meth:`cardcore.Zones.knows`, so it follows the game's own
    visibility and knowledge masks.
    """
    zones = state.zones
    knows = zones.knows
    out: set[str] = set()
    for z, pile in enumerate(zones.cards):
        for i in range(len(pile)):
            if knows(z, i, seat):
                out.add(str(pile[i]))
    return out


def card_tokens(data: Any) -> set[str]:
    """Return every card text found anywhere in JSON-like *data* (keys, values, inside strings)."""
    out: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if len(item) <= 3:
                if CARD_TOKEN.fullmatch(item):
                    out.add(item)
            else:
                out.update(CARD_TOKEN.findall(item))
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif item is not None and not isinstance(item, bool | int | float):
            stack.append(str(item))
    return out


def scrub(data: Any, hidden: Iterable[str]) -> Any:
    """Return *data* with every occurrence of the card texts in *hidden* replaced by ``"?"``."""
    names = set(hidden)
    if not names:
        return data
    pattern = re.compile("|".join(rf"(?<![A-Za-z0-9]){re.escape(n)}(?![A-Za-z0-9])" for n in sorted(names)))

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            return pattern.sub("?", item)
        if isinstance(item, Mapping):
            return {walk(k): walk(v) for k, v in item.items()}
        if isinstance(item, list | tuple):
            return [walk(v) for v in item]
        return item

    return walk(data)


def contains_seed(data: Any, seed: int) -> str | None:
    """Return where *data* shows *seed* (a ``"seed"`` key or the number itself), else ``None``."""
    text = str(seed)
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, Mapping):
            for k, v in item.items():
                if str(k).lower() in ("seed", "_seed", "rng"):
                    return f"{path}/{k}"
                stack.append((f"{path}/{k}", v))
        elif isinstance(item, list | tuple):
            stack.extend((f"{path}[{i}]", v) for i, v in enumerate(item))
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if item == seed:
                return path
        elif isinstance(item, str) and text in item:
            return path
    return None


def multiset(cards: Iterable[object]) -> Counter[str]:
    """Count card texts."""
    return Counter(str(c) for c in cards)
