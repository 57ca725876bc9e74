"""The declared structure of views: the envelope, the zones and the table's fields.

:func:`view_problems` compares one view with what the game declares
(``GameInfo.fields``) and with its piles (the layout and, privileged, the
cards really there), and says what differs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore._options import choice_key
from cardcore.cards import Card
from cardcore.errors import CardcoreError
from cardcore.info import ViewField
from cardcore.zones import ALL, Visibility

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = ["ENVELOPE", "kind_problem", "view_problems"]

ENVELOPE = frozenset(
    {
        "format",
        "game",
        "version",
        "seat",
        "players",
        "to_act",
        "is_over",
        "result",
        "rules",
        "options",
        "legal",
        "zones",
        "table",
    }
)
"""The keys of every view (see :meth:`cardcore.Game.view`)."""


def _is_card(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        return str(Card.parse(value)) == value
    except CardcoreError:
        return False


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def kind_problem(
    kind: str, of: str, value: Any, players: int, choices: tuple[Any, ...] = ()
) -> str | None:
    """Say how *value* fails to be of the declared *kind* (``of`` for per-seat entries; the
    *choices* of a ``"choice"``), or ``None``."""
    ok: bool
    if kind == "int":
        ok = _is_int(value)
    elif kind == "float":
        ok = (_is_int(value) or isinstance(value, float)) and not isinstance(value, bool)
    elif kind == "str":
        ok = isinstance(value, str)
    elif kind == "bool":
        ok = isinstance(value, bool)
    elif kind == "card":
        ok = value is None or _is_card(value)
    elif kind == "cards":
        ok = isinstance(value, list) and all(v is None or _is_card(v) for v in value)
    elif kind == "seat":
        ok = value is None or (_is_int(value) and 0 <= value < players)
    elif kind == "choice":  # as JSON tells them apart: True is no choice of 1, 1.0 is 1
        key = choice_key(value)
        if key is None or key not in {choice_key(c) for c in choices}:
            return f"must be one of the declared choices {list(choices)!r}, not {_short(value)}"
        return None
    elif kind == "per-seat":
        if not isinstance(value, list) or len(value) != players:
            return f"must be a list of one entry per seat ({players}), not {_short(value)}"
        if of:
            for seat, entry in enumerate(value):
                problem = kind_problem(of, "", entry, players, choices)
                if problem is not None:
                    return f"entry {seat}: {problem}"
        return None
    else:  # "json": anything JSON-ready (checked with the whole view)
        ok = True
    return None if ok else f"must be of kind {kind!r}, not {_short(value)}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def view_problems(game: Game, view: Mapping[str, Any], seat: int | None) -> list[str]:
    """Return what is wrong with *view* (of *seat*) against the game's declared structure.

    Checks the envelope's keys, that ``zones`` lists every pile of the layout
    in order with its owner, visibility and true count and shows only the cards
    really there (top first), and that ``table`` holds exactly the declared
    :class:`~cardcore.ViewField` names, each value of the declared kind.
    """
    problems: list[str] = []
    who = "the spectator" if seat is None else f"seat {seat}"
    keys = set(view)
    if keys != ENVELOPE:
        problems.append(
            f"view of {who} has keys {sorted(keys - ENVELOPE)!r} it should not"
            f" and lacks {sorted(ENVELOPE - keys)!r}"
        )
        return problems
    players = len(game.players)
    problems += _zone_problems(game, view["zones"], who, seat)
    fields: dict[str, ViewField] = {f.name: f for f in game.ruleset.game.fields}
    table = view["table"]
    if not isinstance(table, Mapping):
        return [*problems, f"table of {who} is not a mapping: {_short(table)}"]
    missing = [name for name in fields if name not in table]
    if missing:
        problems.append(
            f"table of {who} lacks the declared field(s) {missing!r} (every declared field is in"
            " every view: declare it ViewField(..., nullable=True) and give None when it means nothing)"
        )
    for key, value in table.items():
        declared = fields.get(key)
        if declared is None:
            problems.append(
                f"table key {key!r} in the view of {who} is not declared in GameInfo.fields"
                f" (declared: {sorted(fields)})"
            )
            continue
        if value is None and declared.nullable:
            continue
        problem = kind_problem(declared.kind, declared.of, value, players, declared.choices)
        if problem is not None:
            hint = " (declare it ViewField(..., nullable=True) if it may be None)" if value is None else ""
            problems.append(f"table field {key!r} in the view of {who} {problem}{hint}")
    return problems


def _zone_problems(game: Game, zones: Any, who: str, seat: int | None) -> list[str]:
    specs = game.state.zones.layout.specs
    piles = game.state.zones.cards
    if not isinstance(zones, Sequence) or len(zones) != len(specs):
        return [f"zones of {who} must list the {len(specs)} piles of the layout, in order"]
    problems: list[str] = []
    seen = game.state.zones.seen
    for entry, spec, pile, masks in zip(zones, specs, piles, seen, strict=True):
        want = {"name": spec.name, "owner": spec.owner, "visibility": spec.visibility.value}
        if not isinstance(entry, Mapping) or {k: entry.get(k) for k in want} != want:
            problems.append(
                f"zone entry {_short(entry)} of {who} does not match the layout's {want}"
            )
            continue
        cards = entry.get("cards")
        if (
            not isinstance(cards, list)
            or entry.get("count") != len(pile)
            or len(cards) != len(pile)
        ):
            problems.append(
                f"zone {spec.name!r} of {who} shows count {entry.get('count')!r} and"
                f" {_short(cards)}, but the pile holds {len(pile)} cards"
            )
            continue
        if (
            spec.visibility is Visibility.OWNER
            and not spec.ordered
            and pile
            and masks.count(ALL) == len(pile)
        ):
            if sorted(map(str, cards)) != sorted(map(str, pile)):  # face up: shown sorted
                problems.append(f"zone {spec.name!r} of {who} shows {_short(cards)}, not its cards")
            continue
        for shown, card in zip(cards, reversed(pile), strict=True):
            if shown is not None and shown != str(card):
                problems.append(
                    f"zone {spec.name!r} of {who} shows {shown!r} where {card} lies (top first)"
                )
                break
    return problems
