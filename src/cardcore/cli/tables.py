"""The tables of ``cardcore list`` and ``cardcore rules``: options, bounds and house rules
(needs rich)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table

from cardcore.cli._markup import escape
from cardcore.info import GameInfo, Option, RuleInfo
from cardcore.plugins import game_info, rule_info

__all__ = ["NARROW"]

NARROW = 100
"""Below this many columns the house rules are listed one under another: four columns
squeezed the summaries to nothing."""


def _rules_table(game: str, rules: tuple[str, ...], width: int) -> Table:
    info = game_info(game)
    rt = Table(title=f"{escape(game)} house rules (--rules NAME)", title_style="bold")
    if width < NARROW:
        rt.add_column("rule, ID, summary, and what it applies to", overflow="fold")
        for rule in rules:
            ri = rule_info(rule)
            notes = _notes(ri, info)
            rt.add_row(
                f"[bold]{escape(rule)}[/] {ri.id}\n{escape(ri.summary)}"
                + (f"\n[dim]{escape(notes)}[/]" if notes else ""),
                end_section=True,
            )
        return rt
    rt.add_column("rule", no_wrap=True)
    rt.add_column("ID", no_wrap=True)
    rt.add_column("summary", overflow="fold")  # a long word folds, never cut
    rt.add_column("applies / conflicts / requires / options", overflow="fold")
    for rule in rules:
        ri = rule_info(rule)
        rt.add_row(
            f"[bold]{escape(rule)}[/]", ri.id, escape(ri.summary), escape(_notes(ri, info) or "-")
        )
    return rt


def _values(values: Iterable[object]) -> str:
    """Option values as a player types them, each once: ``6`` and ``'6'`` read the same
    (``'4h'`` and ``'4H'`` are two choices: another option's may differ by case alone)."""
    return ", ".join(dict.fromkeys(str(value) for value in values))


def _notes(ri: RuleInfo, info: GameInfo) -> str:
    notes = []
    if ri.name in info.default_rules:
        notes.append("on by default (--without to switch off)")
    if ri.applies:
        where = (f"{name} {_values(values)}" for name, values in ri.applies.items())
        notes.append("only with " + "; ".join(where))
    if ri.conflicts:
        notes.append("conflicts: " + " ".join(ri.conflicts))
    if ri.requires:
        notes.append("requires: " + " ".join(ri.requires))
    for opt in ri.options:  # its own parameters, set with -o once the rule is chosen
        doc = f": {opt.doc}" if opt.doc else ""
        notes.append(f"-o {opt.name}={_default(opt)} ({_bounds(opt)}){doc}")
    return "\n".join(notes)


# -- rules ------------------------------------------------------------------------------------


def _default(opt: Option) -> str:
    """An option's default as a player types it (``none`` when unset: its doc says what that means)."""
    return "none" if opt.default is None else str(opt.default)


def _option_cell(opt: Option) -> str:
    """``name=default (accepted)``, then the option's doc, dimmed: a default of ``none`` often
    means more than "none" (Golf's ``rounds``: 9 rounds unless a ``points_limit`` is set)."""
    cell = escape(f"{opt.name}={_default(opt)} ({_bounds(opt)})")
    return cell + (f"\n  [dim]{escape(opt.doc)}[/]" if opt.doc else "")


def _number(x: float | None) -> str:
    """A bound as a player types it: ``1000000``, not ``1e+06`` (which an int option refuses)."""
    return "" if x is None else str(int(x)) if float(x).is_integer() else f"{x:g}"


def _bounds(opt: Option) -> str:
    either = opt.kind is object and (opt.minimum is not None or opt.maximum is not None)
    parts = []
    if opt.choices is not None:
        parts.append(("" if either else "one of ") + _values(opt.choices))
    low, high = _number(opt.minimum), _number(opt.maximum)
    if opt.choices is not None and not either:  # a typed option takes only its choices
        pass  # (its bounds, checked too, hold them all: "one of 5, 15; 5 to 15" misled)
    elif opt.minimum is not None and opt.maximum is not None:
        parts.append(f"{low} to {high}")
    elif opt.minimum is not None:
        parts.append(f"at least {low}")
    elif opt.maximum is not None:
        parts.append(f"at most {high}")
    # an untyped option takes a choice or a number within the bounds (Golf's dealer:
    # 'random' or a seat); with neither, it is checked by the game, not here ("any value"
    # would promise what the game refuses)
    sep = ", or " if either else "; "
    text = sep.join(parts) or (
        "checked by the game" if opt.kind is object else f"any {opt.kind.__name__}"
    )
    return f"{text}, or none" if opt.nullable else text
