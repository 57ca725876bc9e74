"""Drawing views, results and summaries for the ``cardcore`` command (needs rich).

The renderer is generic: it knows the view envelope (see :meth:`cardcore.Game.view`)
and draws any game's ``table`` from its shape. Lists as long as the number of
players become one row per seat; a flat list of ``rows * cols`` cards becomes a
grid; ``None`` inside a list is a card its viewer cannot see.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardcore.simulate import Summary

__all__ = ["card_markup", "render_result", "render_summary", "render_view", "value_markup"]

_CARD = re.compile(r"^(10|[2-9AJQK])[SHDC]$|^JK$")
HIDDEN = "[dim]##[/]"
"""How a card the viewer cannot see is drawn."""


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


def _is_cardish(value: object) -> bool:
    return value is None or is_card(value) or value == "--"


def value_markup(value: Any, *, in_list: bool = False) -> str:
    """Return rich markup for any JSON value of a view.

    :param value: The value.
    :param in_list: Inside a list ``None`` is a hidden card; elsewhere it is "nothing".
    """
    if value is None:
        return HIDDEN if in_list else "[dim]-[/]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        if is_card(value):
            return card_markup(value)
        if value == "--" and in_list:
            return "[dim]  [/]"
        return escape(value)
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        if not value:
            return "[dim]{}[/]"
        return ", ".join(f"{escape(str(k))}: {value_markup(v)}" for k, v in value.items())
    if isinstance(value, Sequence):
        if not value:
            return "[dim](none)[/]"
        if all(_is_cardish(v) for v in value):
            return " ".join(value_markup(v, in_list=True) for v in value)
        if all(isinstance(v, Sequence) and not isinstance(v, str) for v in value):
            return " [dim]|[/] ".join(value_markup(v, in_list=True) for v in value)
        return "[" + ", ".join(value_markup(v, in_list=True) for v in value) + "]"
    return escape(str(value))


def _grid(cards: Sequence[Any], cols: int) -> str:
    rows = []
    for start in range(0, len(cards), cols):
        cells = []
        for i in range(start, min(start + cols, len(cards))):
            cells.append(f"[dim]{i}:[/]{value_markup(cards[i], in_list=True):<4}")
        rows.append("  ".join(cells))
    return "\n".join(rows)


def _per_seat(value: Any, players: int) -> bool:
    if not isinstance(value, list) or len(value) != players or players < 2:
        return False
    if all(isinstance(v, Mapping) for v in value):
        return True
    if all(isinstance(v, list) and all(_is_cardish(c) for c in v) for v in value):
        return True
    return all(isinstance(v, int | float | str) and not isinstance(v, bool) for v in value)


def _seat_cell(value: Any, cols: int | None) -> str:
    if (
        isinstance(value, list)
        and cols
        and len(value) > cols
        and len(value) % cols == 0
        and all(_is_cardish(c) for c in value)
    ):
        return _grid(value, cols)
    if isinstance(value, Mapping):
        return "\n".join(f"{escape(str(k))}: {value_markup(v)}" for k, v in value.items())
    if (
        isinstance(value, list)
        and value
        and all(isinstance(v, list) and all(_is_cardish(c) for c in v) for v in value)
    ):
        return "\n".join(
            f"[dim]{i}:[/] {value_markup(v, in_list=True)}" for i, v in enumerate(value)
        )
    return value_markup(value, in_list=isinstance(value, list))


def render_view(view: Mapping[str, Any]) -> RenderableType:
    """Draw a view (the envelope of :meth:`cardcore.Game.view`) as a rich renderable."""
    players: list[str] = list(view.get("players", []))
    n = len(players)
    table: Mapping[str, Any] = view.get("table") or {}
    me = view.get("seat")
    to_act = set(view.get("to_act", []))
    cols = table.get("cols") if isinstance(table.get("cols"), int) else None

    seat_keys = [k for k, v in table.items() if _per_seat(v, n)]
    grid = Table(show_header=True, header_style="bold", box=None, pad_edge=False, padding=(0, 2))
    grid.add_column("seat")
    columns: list[tuple[str, str | None]] = []
    for key in seat_keys:
        sample = table[key]
        if all(isinstance(v, Mapping) for v in sample):
            for sub in sample[0]:
                columns.append((key, str(sub)))
                grid.add_column(escape(str(sub)))
        else:
            columns.append((key, None))
            grid.add_column(escape(key))
    for seat in range(n):
        mark = "[bold green]>[/] " if seat in to_act else "  "
        who = escape(players[seat]) + (" [cyan](you)[/]" if seat == me else "")
        cells = [f"{mark}{seat} {who}"]
        for key, sub in columns:
            value = table[key][seat]
            cells.append(_seat_cell(value if sub is None else value.get(sub), cols))
        grid.add_row(*cells)

    lines = []
    for key, value in table.items():
        if key in seat_keys:
            continue
        lines.append(f"[bold]{escape(str(key))}[/]: {value_markup(value)}")
    short = [ln for ln in lines if Text.from_markup(ln).cell_len <= 32]
    long = [ln for ln in lines if Text.from_markup(ln).cell_len > 32]
    shared = Group(Columns(short, padding=(0, 3)), *long)
    head = (
        f"[bold]{escape(str(view.get('game', '')))}[/]  version {view.get('version')}"
        f"  {'spectator' if me is None else f'seat {me}'}"
    )
    if view.get("rules"):
        head += "  rules: " + escape(", ".join(view["rules"]))
    parts: list[RenderableType] = [grid, shared] if seat_keys else [shared]
    if view.get("is_over") and view.get("result") is not None:
        parts.append(render_result(view["result"], players))
    return Panel(Group(*parts), title=head, title_align="left")


def render_result(result: Mapping[str, Any], players: Sequence[str]) -> str:
    """Describe a finished game's result (``Result.to_json()``) in one or two lines."""
    winners = [f"{escape(players[w])} (seat {w})" for w in result.get("winners", [])]
    scores = ", ".join(
        f"{escape(players[i])}: {value_markup(s)}" for i, s in enumerate(result.get("scores", []))
    )
    text = f"[bold]game over[/] ({escape(str(result.get('reason')))}); "
    text += ("winner: " + " and ".join(winners)) if winners else "no winner"
    text += f"\nscores: {scores}"
    payouts = result.get("payouts")
    if payouts is not None:
        text += "\npayouts: " + ", ".join(
            f"{escape(players[i])}: {p:+d}" for i, p in enumerate(payouts)
        )
    return text


def render_summary(summary: Summary, *, elapsed: float | None = None) -> Table:
    """Draw a :class:`~cardcore.Summary` as a table, one row per seat."""
    title = f"{summary.game}: {summary.games} games, {summary.players} players"
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
            f"{summary.wins[seat]:g}",
            f"[{style}]{rate:.1%}[/]" if style else f"{rate:.1%}",
            f"{summary.mean_scores[seat]:.2f}",
            f"{summary.sd_scores[seat]:.2f}",
        ]
        if summary.mean_payouts is not None and summary.sd_payouts is not None:
            row += [f"{summary.mean_payouts[seat]:+.2f}", f"{summary.sd_payouts[seat]:.2f}"]
        out.add_row(*row)
    reasons = ", ".join(f"{escape(k)}: {v}" for k, v in summary.reasons.items())
    out.caption = (
        f"mean game length {summary.mean_actions:.1f} actions; truncated {summary.truncated}; "
        f"endings: {reasons or 'none'}"
    )
    return out


def make_console(*, stderr: bool = False) -> Console:
    """Return the console the command prints on."""
    return Console(stderr=stderr, highlight=False)
