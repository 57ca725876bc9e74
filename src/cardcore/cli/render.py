"""Drawing views, results and summaries for the ``cardcore`` command (needs rich).

The renderer reads a view's declared structure, never the shape of its data (a list is
never taken for "one entry per seat" because of its length):

* the core's ``zones`` (every pile with its owner and who may see it): a pile owned by a
  seat is drawn in that seat's row, in a column named after the pile with the seat number
  left out (``hand.1`` -> ``hand``; ``layout.1.3`` -> ``layout``, stack ``3``, numbered as
  the pile's name numbers it); a shared pile gets a line of its own;
* the game's ``table`` fields as :meth:`cardcore.Game.view_schema` declares them (kind and
  label; for ``per-seat`` fields the kind of each entry): a ``per-seat`` field is a column
  of the seats' rows, any other a labelled line.

A declared field that can hold cards (kind ``card``, ``cards`` or ``json``; for a
``per-seat`` field, the kind of its entries) and is named after a pile (``P`` or ``Ps`` for
the piles ``P.N``) is the game's own presentation of it, and is drawn instead of it:

(a) a ``per-seat`` field replaces that pile's column (such as a grid of positions: a list
    of cards is drawn as a grid, its positions numbered from 0, when the table declares an
    ``int`` field ``cols`` dividing it);
(b) in a ``per-seat`` field of mappings, keys that name a pile drawn in its own column are
    left out: the pile's column shows them;
(c) any other field named after an owned pile is the viewer's own pile (a sorted hand): it
    is drawn in the viewer's row, in that pile's column;
(d) any other field named after a shared pile (``P``, ``Ps`` or ``P_...``, such as
    ``discard_top``) replaces the pile's line; so does an ``int`` field named ``P`` (its
    count) while the viewer sees none of its cards (a stock and its ``stock`` count: drawn
    once). A ``json`` field that holds no text (a ``tricks`` count beside a ``trick`` pile)
    replaces no pile whose cards the viewer sees.

Any other field named like a pile (a count such as a ``per-seat`` ``int`` field ``hands``
beside the piles ``hand.N``) hides nothing: the field and the pile are both drawn, and when
they would read alike the pile's heading says ``(cards)``.

``None`` in a card field is a card its viewer cannot see; ``None`` elsewhere is "nothing",
and a line with nothing to say is left out, so is a ``per-seat`` column with nothing
(``None`` but in a card column, ``""``, ``[]``, ``{}``) for every seat.
"""

from __future__ import annotations

import math
import re
from collections.abc import Container, Mapping, Sequence
from typing import Any

from attrs import frozen
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardcore._text import counted
from cardcore.cli._markup import escape
from cardcore.errors import CardcoreError
from cardcore.plugins import rule_info
from cardcore.simulate import Summary

__all__ = [
    "HIDDEN",
    "Arrangement",
    "arrange",
    "card_markup",
    "render_history",
    "render_result",
    "render_summary",
    "render_view",
    "value_markup",
]

_CARD = re.compile(r"^(10|[2-9AJQK])[SHDC]$|^JK$")
HIDDEN = "[dim]##[/]"
"""How a card the viewer cannot see is drawn."""
MAX_CARDS = 16
"""The most cards of one pile drawn one by one; the rest are counted."""
REMOVED = "--"
"""A grid position whose card has left the game (drawn blank)."""


def is_card(text: object) -> bool:
    """Whether *text* is a card in notation (``"10H"``, ``"JK"``)."""
    return isinstance(text, str) and _CARD.match(text) is not None


def card_markup(text: str) -> str:
    """Return rich markup for a card: hearts and diamonds red, jokers magenta."""
    if text == "JK":
        return "[bold magenta]JK[/]"
    if text.endswith(("H", "D")):
        return f"[bold red]{text}[/]"
    return f"[bold]{text}[/]"


def _words(name: str) -> str:
    return name.replace("_", " ").replace("-", " ")


def _card(value: Any) -> str:
    if value is None:
        return HIDDEN
    if value == REMOVED:
        return "[dim]  [/]"
    return card_markup(value) if is_card(value) else escape(str(value))


def _cards(values: Sequence[Any], limit: int | None = MAX_CARDS) -> str:
    if not values:
        return "[dim]none[/]"
    if limit is None or len(values) <= limit:
        return " ".join(_card(v) for v in values)
    return " ".join(_card(v) for v in values[:limit]) + f" [dim]+{len(values) - limit} more[/]"


def _grid(cards: Sequence[Any], cols: int) -> str:
    rows = []
    for start in range(0, len(cards), cols):
        cells = [
            f"[dim]{i}:[/]{_card(cards[i])}" + " " * (3 - len(str(cards[i] or "##")))
            for i in range(start, min(start + cols, len(cards)))
        ]
        rows.append(" ".join(cells))
    return "\n".join(rows)


Fields = Mapping[str, Mapping[str, Any]]
"""Declared view fields by name (``view_schema()["fields"]``)."""


def value_markup(value: Any, players: Sequence[str] = (), fields: Fields | None = None) -> str:
    """Return rich markup for any JSON value of a view whose kind is not declared (``json``).

    Mappings read ``key: value`` with their keys in words; a key that names a
    declared field (*fields*) reads as that field does: its label, a ``seat``
    as the player's name, a ``per-seat`` list as each player's entry. A list
    of card lists is numbered from 1, as a player counts melds.
    """
    if value is None:
        return "[dim]-[/]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return card_markup(value) if is_card(value) else escape(value)
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        if not value:
            return "[dim]none[/]"
        return ", ".join(
            f"{escape(_label(str(k), fields))}: {_keyed(str(k), v, players, fields)}"
            for k, v in value.items()
        )
    if isinstance(value, Sequence):
        if not value:
            return "[dim]none[/]"
        if all(v is None or is_card(v) for v in value):
            return _cards(value)
        if all(isinstance(v, Mapping) for v in value):
            return "\n".join(value_markup(v, players, fields) for v in value)
        if all(isinstance(v, Sequence) and not isinstance(v, str) for v in value):
            return "  ".join(
                f"[dim]{i}:[/] {value_markup(v, players, fields)}" for i, v in enumerate(value, 1)
            )
        return ", ".join(value_markup(v, players, fields) for v in value)
    return escape(str(value))


def _label(key: str, fields: Fields | None) -> str:
    declared = (fields or {}).get(key)
    return str(declared.get("label") or _words(key)) if declared else _words(key)


def _keyed(key: str, value: Any, players: Sequence[str], fields: Fields | None = None) -> str:
    """A value inside a mapping, read as the field *key* names when one is declared.

    A ``seat`` or ``owner`` number (or a declared ``seat`` field) is the
    player's name; a declared ``per-seat`` list is each player's entry; a ``card``
    that is null is a card the viewer may not see (``##``).
    """
    declared = (fields or {}).get(key) or {}
    kind = declared.get("kind")
    if key == "card" or kind == "card":  # a card slot: null is a card not shown (##)
        return _card(value)
    if (
        (key in ("seat", "owner") or kind == "seat")
        and isinstance(value, int)
        and not isinstance(value, bool)
        and 0 <= value < len(players)
    ):
        return escape(players[value])
    if kind == "per-seat" and isinstance(value, list) and len(value) == len(players):
        return ", ".join(
            f"{escape(players[i])}: {value_markup(v, players, fields)}" for i, v in enumerate(value)
        )
    return value_markup(value, players, fields)


def _field_markup(kind: str, value: Any, players: Sequence[str], cols: int | None) -> str:
    """Markup for one declared field value of *kind*."""
    if kind == "card":
        return _card(value)
    if kind in ("cards", "json") and isinstance(value, list):
        cardish = all(v is None or v == REMOVED or is_card(v) for v in value)
        if cardish and cols and len(value) > cols and len(value) % cols == 0:
            return _grid(value, cols)
        if kind == "cards" or cardish:
            return _cards(value)
    if kind == "seat":
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(players):
            return escape(players[value])
        return value_markup(value, players)
    if kind == "bool":
        return "yes" if value else "no"
    if kind == "float" and isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:g}"
    return value_markup(value, players)


# -- zones ----------------------------------------------------------------------------------


def _zone_markup(zone: Mapping[str, Any], mine: bool = False) -> str:
    """One pile: its cards top first, hidden ones as ``##``, a hidden tail counted.

    :param mine: The viewer owns the pile: every card they see is drawn, however many.
    """
    cards: list[Any] = list(zone.get("cards") or [])
    count = int(zone.get("count", len(cards)))
    if count == 0:
        return "[dim]empty[/]"
    known = [i for i, c in enumerate(cards) if c is not None]
    if not known:
        return f"[dim]{count} face down[/]"
    last = known[-1] + 1
    shown = _cards(cards[:last], None if mine else MAX_CARDS)
    if count > last:
        where = "below" if zone.get("visibility") in ("everyone", "top") else "face down"
        shown += f" [dim]+{count - last} {where}[/]"
    return shown


def _split_name(name: str, owner: int | None) -> tuple[str, str]:
    """``("hand", "")`` for ``hand.1`` owned by seat 1; ``("layout", "3")`` for ``layout.1.3``."""
    parts = name.split(".")
    base, rest = parts[0], parts[1:]
    if owner is not None and str(owner) in rest:
        rest.remove(str(owner))
    return base, ".".join(rest)


Piles = list[tuple[str, Mapping[str, Any]]]
"""The piles of one group: ``[(sub-name, zone), ...]`` (sub-name ``""`` for a single pile)."""


@frozen
class Arrangement:
    """Where each pile and field of a view goes on screen (see the module docstring).

    :param columns: Per-seat columns, in order: ``(name, label, field)``; *field* is the
        declared per-seat field drawn there (if it says something), or ``None`` for piles.
    :param piles: ``(column, seat) -> piles`` of the owned piles drawn.
    :param own: ``column -> field name`` of a field showing the viewer's own pile.
    :param shared: The shared piles drawn, as ``[(name, piles), ...]``.
    :param lines: The declared fields drawn as labelled lines, in order.
    :param hidden_keys: Keys left out of per-seat mappings (their piles are drawn).
    """

    columns: tuple[tuple[str, str, Mapping[str, Any] | None], ...]
    piles: Mapping[tuple[str, int], Piles]
    own: Mapping[str, str]
    shared: tuple[tuple[str, Piles], ...]
    lines: tuple[Mapping[str, Any], ...]
    hidden_keys: frozenset[str]


def _presents(base: str, fields: Fields, table: Mapping[str, Any], zone: Mapping[str, Any]) -> bool:
    """Whether a field that can hold cards presents shared pile *base*: named ``base``,
    ``base + "s"`` or ``base_...``. A ``json`` field holding no text at all (counts, such
    as a ``tricks`` field beside a ``trick`` pile) presents no pile whose cards the viewer
    sees: they would be drawn nowhere."""
    named = [
        name
        for name, f in fields.items()
        if (name in (base, f"{base}s") and f.get("kind") in _CARDS and _holds_cards(f))
        or (name.startswith(f"{base}_") and _holds_cards(f))
    ]
    if not named:
        return False
    if not any(c is not None for c in zone.get("cards") or ()):
        return True
    return any(fields[n].get("kind") != "json" or _has_text(table.get(n)) for n in named)


def _has_text(value: Any) -> bool:
    """Whether *value* (JSON data) holds a string anywhere: a card's notation, say."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            return True
        if isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return False


def _counts(base: str, fields: Mapping[str, Mapping[str, Any]], zone: Mapping[str, Any]) -> bool:
    """Whether an ``int`` field named ``base`` counts shared pile *base*, of which the viewer
    sees no card: the field says all the pile would (a stock and its ``stock`` count)."""
    field = fields.get(base)
    return (
        field is not None
        and field.get("kind") == "int"
        and not any(c is not None for c in zone.get("cards") or ())
    )


def _holds_cards(field: Mapping[str, Any]) -> bool:
    """Whether *field* can hold cards: a card kind, or a ``per-seat`` field of one."""
    kind = field.get("kind")
    if kind == "per-seat":
        kind = field.get("of") or "json"  # an undeclared entry kind is json (as drawn)
    return kind in _CARDS


def _named(base: str, fields: Mapping[str, Mapping[str, Any]], kinds: Container[str]) -> str | None:
    """The field among *fields* (of one of *kinds*, that can hold cards) that names pile *base*:
    ``base``, else ``base + "s"``."""
    for name in (base, f"{base}s"):
        f = fields.get(name)
        if f is not None and f.get("kind") in kinds and _holds_cards(f):
            return name
    return None


def _same(a: str, b: str) -> bool:
    """Whether two headings read alike (``books`` and ``Books``)."""
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


_CARDS = ("card", "cards", "json")
_PER_SEAT = ("per-seat",)


def arrange(view: Mapping[str, Any], schema: Mapping[str, Any]) -> Arrangement:
    """Decide where every pile and field of *view* goes, from its declared structure only."""
    table: Mapping[str, Any] = view.get("table") or {}
    fields = [f for f in schema.get("fields", []) if f.get("name") in table]
    per_seat = {str(f["name"]): f for f in fields if f.get("kind") == "per-seat"}
    other = {str(f["name"]): f for f in fields if f.get("kind") != "per-seat"}
    columns: list[tuple[str, str, Mapping[str, Any] | None]] = []
    piles: dict[tuple[str, int], Piles] = {}
    own: dict[str, str] = {}
    shared: dict[str, Piles] = {}
    owned_bases: set[str] = set()
    for zone in view.get("zones") or []:
        owner = zone.get("owner")
        base, sub = _split_name(str(zone.get("name", "")), owner)
        if not isinstance(owner, int):
            if not _presents(base, other, table, zone) and not _counts(base, other, zone):  # (d)
                shared.setdefault(base, []).append((sub, zone))
            continue
        if _named(base, per_seat, _PER_SEAT) is not None:
            continue  # a per-seat field draws this pile (rule a)
        owned_bases.add(base)
        if all(c[0] != base for c in columns):
            columns.append((base, _words(base), None))
        mine = _named(base, other, _CARDS)
        if mine is not None:
            own[base] = mine  # the viewer's own pile, as the game presents it (rule c)
        piles.setdefault((base, owner), []).append((sub, zone))
    drawn = [(n, f) for n, f in (*per_seat.items(), *other.items()) if n not in own.values()]
    labels = [str(f.get("label") or _words(name)) for name, f in drawn]
    # a pile whose heading would read like a field's says it shows the cards
    columns = [
        (name, f"{label} (cards)" if any(_same(label, t) for t in labels) else label, None)
        for name, label, _ in columns
    ]
    for name, f in per_seat.items():
        columns.append((name, str(f.get("label") or _words(name)), f))
    lines = tuple(f for name, f in other.items() if name not in own.values())
    hidden = frozenset(key for base in owned_bases for key in (base, f"{base}s"))
    return Arrangement(tuple(columns), piles, own, tuple(shared.items()), lines, hidden)


def _piles_markup(piles: Piles, sep: str, mine: bool = False) -> str:
    if len(piles) == 1 and not piles[0][0]:
        return _zone_markup(piles[0][1], mine)
    return sep.join(f"[dim]{escape(sub)}:[/] {_zone_markup(z, mine)}" for sub, z in piles)


# -- the view ---------------------------------------------------------------------------------


def render_view(
    view: Mapping[str, Any],
    schema: Mapping[str, Any],
    history: Sequence[Mapping[str, Any]] = (),
) -> RenderableType:
    """Draw a view as a rich renderable, from the game's declared structure.

    :param view: :meth:`cardcore.Game.view` of one seat (or a spectator).
    :param schema: :meth:`cardcore.Game.view_schema` of the same game.
    :param history: :meth:`cardcore.Game.history` of the same seat; the last
        entry is shown as the previous round.
    """
    players: list[str] = [str(p) for p in view.get("players", [])]
    table: Mapping[str, Any] = view.get("table") or {}
    me = view.get("seat")
    to_act = set(view.get("to_act", []))
    kinds = {str(f["name"]): str(f.get("kind")) for f in schema.get("fields", [])}
    cols = table.get("cols") if kinds.get("cols") == "int" else None
    where = arrange(view, schema)

    columns = [c for c in where.columns if c[2] is None or _says(c[2], table.get(c[0]))]
    grid = Table(show_header=True, header_style="bold", box=None, pad_edge=False, padding=(0, 2))
    grid.add_column("seat: player")
    for _, label, _ in columns:
        grid.add_column(escape(label))
    for seat, name in enumerate(players):
        mark = "[bold green]>[/] " if seat in to_act else "  "
        who = escape(name) + (" [cyan](you)[/]" if seat == me else "")
        cells = [f"{mark}[dim]{seat}:[/] {who}"]  # the number the notation calls the seat
        for column, _, declared in columns:
            if declared is not None:
                values = table[column]
                value = values[seat] if isinstance(values, list) and seat < len(values) else None
                of = str(declared.get("of") or "json")
                cells.append(_entry_markup(of, value, players, cols, where.hidden_keys))
            elif seat == me and column in where.own and table.get(where.own[column]) is not None:
                field = where.own[column]
                cells.append(_field_markup(kinds.get(field, "json"), table[field], players, cols))
            else:
                piles = where.piles.get((column, seat), [])
                cells.append(_piles_markup(piles, "\n", seat == me) if piles else "")
        grid.add_row(*cells)

    lines = []
    labels = [str(f.get("label") or _words(str(f["name"]))) for f in where.lines]
    for base, piles in where.shared:
        label = _words(base)
        label += " (cards)" if any(_same(label, t) for t in labels) else ""
        lines.append(f"[bold]{escape(label)}[/]: {_piles_markup(piles, '  ')}")
    for f in where.lines:
        kind = str(f.get("kind"))
        value = table[f["name"]]
        if value is None or (kind == "json" and value in ([], {})):
            continue
        label = escape(str(f.get("label") or _words(str(f["name"]))))
        text = _field_markup(kind, value, players, cols)
        lines.append(f"[bold]{label}[/]:" + ("\n" if "\n" in text else " ") + text)
    if view.get("rules"):  # in the body, where it wraps (a title is cut at the panel's width)
        lines.append(f"[bold]rules[/]: {escape(_rules_text(view))}")
    short = [ln for ln in lines if Text.from_markup(ln, emoji=False).cell_len <= 36 and "\n" not in ln]
    long = [ln for ln in lines if ln not in short]
    parts: list[RenderableType] = [grid]
    if lines:
        parts.append(Group(Columns(short, padding=(0, 3)), *long))
    if history:
        declared = {str(f["name"]): f for f in schema.get("fields", [])}
        parts.append(render_history(history, players, last=1, fields=declared))
    if view.get("is_over") and view.get("result") is not None:
        parts.append(render_result(view["result"], players))
    head = f"[bold]{escape(str(view.get('game', '')))}[/]  move {view.get('version')}  "
    head += "spectator" if me is None else f"you are {escape(players[me])} (seat {me})"
    return Panel(Group(*parts), title=Text.from_markup(head, emoji=False), title_align="left")


def _says(field: Mapping[str, Any], entries: Any) -> bool:
    """Whether a per-seat field has something to say for a seat (a hidden card does)."""
    nothing: tuple[Any, ...] = ("", [], {}) if field.get("of") == "card" else (None, "", [], {})
    return not isinstance(entries, list) or any(v not in nothing for v in entries)


def _rules_text(view: Mapping[str, Any]) -> str:
    """The view's house rules with their own options (``golf.bonus-card (bonus_card=Q)``)."""
    options = view.get("options") or {}
    named = []
    for name in view.get("rules") or ():
        try:
            own = [o.name for o in rule_info(str(name)).options]
        except CardcoreError:  # a rule not installed here (a record from elsewhere)
            own = []
        values = ", ".join(f"{k}={options[k]}" for k in own if k in options)
        named.append(f"{name} ({values})" if values else str(name))
    return ", ".join(named)


def _entry_markup(
    kind: str,
    value: Any,
    players: Sequence[str],
    cols: int | None,
    hidden: frozenset[str] = frozenset(),
) -> str:
    if isinstance(value, Mapping):
        return "\n".join(
            f"[dim]{escape(_words(str(k)))}:[/] {_keyed(str(k), v, players)}"
            for k, v in value.items()
            if v is not None and k not in hidden
        )
    if value is None and kind != "card":
        return "[dim]-[/]"
    row = kind in ("cards", "json") and isinstance(value, list) and len(value) == cols
    if cols and row and all(v is None or v == REMOVED or is_card(v) for v in value):
        return _grid(value, cols)  # a grid of one row (a four-card hand): numbered too
    return _field_markup(kind, value, players, cols)


def render_history(
    history: Sequence[Mapping[str, Any]],
    players: Sequence[str],
    *,
    last: int | None = None,
    fields: Fields | None = None,
) -> str:
    """Describe past rounds (:meth:`cardcore.Game.history`), one line each, oldest first.

    :param last: Show only this many of the most recent rounds.
    :param fields: The view's declared fields by name: a key of a past round
        that names one reads as that field does (a dealer's name, not a seat number).
    """
    start = 0 if last is None else max(0, len(history) - last)
    out = []
    for number, entry in enumerate(history[start:], start + 1):
        text = (
            value_markup(entry, players, fields)
            if isinstance(entry, Mapping)
            else escape(str(entry))
        )
        out.append(f"[bold]earlier[/] [dim]({number} of {len(history)})[/]: {text}")
    return "\n".join(out)


def render_result(result: Mapping[str, Any], players: Sequence[str]) -> str:
    """Describe a finished game's result (``Result.to_json()``) in one or two lines."""
    winners = [escape(players[w]) for w in result.get("winners", [])]
    scores = ", ".join(
        f"{escape(players[i])}: {value_markup(s)}" for i, s in enumerate(result.get("scores", []))
    )
    text = f"[bold]game over[/] ({escape(_words(str(result.get('reason'))))}); "
    label = "winner: " if len(winners) == 1 else "winners: "
    text += (label + " and ".join(winners)) if winners else "no winner"
    text += f"\nscores: {scores}"
    payouts = result.get("payouts")
    if payouts is not None:
        text += "\npayouts: " + ", ".join(
            f"{escape(players[i])}: {p:+d}" for i, p in enumerate(payouts)
        )
    return text


def _games(n: int) -> str:
    """``"1 game"``, ``"200 games"``."""
    return "1 game" if n == 1 else f"{n} games"


def _sd(value: float) -> str:
    """A standard deviation to two places; "–" where it is undefined (over one game)."""
    return "–" if math.isnan(value) else f"{value:.2f}"


def render_summary(summary: Summary, *, elapsed: float | None = None) -> Table:
    """Draw a :class:`~cardcore.Summary` as a table, one row per seat."""
    title = f"{escape(summary.game)}: {_games(summary.games)}, {counted(summary.players, 'player')}"
    if elapsed is not None and elapsed > 0:
        title += f" ({elapsed:.2f} s, {summary.games / elapsed:,.0f} games/s)"
    out = Table(title=title, title_style="bold")
    out.add_column("seat", justify="right")
    out.add_column("agent")
    out.add_column("wins", justify="right")
    out.add_column("win rate", justify="right")
    out.add_column("mean score", justify="right")
    out.add_column("sd score", justify="right")
    if summary.mean_payouts is not None:
        out.add_column("mean payout", justify="right")
        out.add_column("sd payout", justify="right")
    best = max(summary.win_rates) if summary.win_rates else 0.0
    for seat in range(summary.players):
        rate = summary.win_rates[seat]
        style = "bold green" if rate == best and summary.games else ""
        row = [
            str(seat),
            escape(summary.agents[seat]),
            f"{round(summary.wins[seat], 2):g}",  # a tie shares a win: 16.33, not 16.3333
            f"[{style}]{rate:.1%}[/]" if style else f"{rate:.1%}",
            f"{summary.mean_scores[seat]:.2f}",
            _sd(summary.sd_scores[seat]),
        ]
        if summary.mean_payouts is not None and summary.sd_payouts is not None:
            row += [f"{summary.mean_payouts[seat]:+.2f}", _sd(summary.sd_payouts[seat])]
        out.add_row(*row)
    reasons = ", ".join(f"{escape(k)}: {v}" for k, v in summary.reasons.items())
    out.caption = (
        f"mean game length {summary.mean_actions:.1f} actions; truncated {summary.truncated}; "
        f"endings: {reasons or 'none'}"
    )
    return out
