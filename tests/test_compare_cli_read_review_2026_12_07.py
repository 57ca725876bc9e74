"""Read review of the house-rule lab (``cardcore.compare``) and the terminal real-time play
(``cardcore.cli.realtime``): argument checks, paired deals, statistics recomputed from the
per-game records, reports, worker failures; typed input, hidden cards, clean exits."""

from __future__ import annotations

import io
import json
import math
import re
import statistics
from collections.abc import Iterator
from concurrent.futures import BrokenExecutor
from typing import Any

import pytest

import cardcore

pytest.importorskip("rich")

from rich.console import Console

from cardcore.agents import lend_views
from cardcore.cli.realtime import _Realtime, play_realtime
from cardcore.compare._run import Config, run_chunk

Z = 1.959964


# -- independent statistics (textbook formulas) ----------------------------------------------


def wilson(p: float, n: int) -> tuple[float, float]:
    z2 = Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def normal(xs: list[float]) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    half = Z * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - half, m + half


def newcombe(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """MOVER for paired shares, the correlation taken with half a pair of each outcome."""
    n = len(a)
    pa, pb = sum(a) / n, sum(b) / n
    la, ua = wilson(pa, n)
    lb, ub = wilson(pb, n)
    xs = [*a, 0, 0, 1, 1]
    ys = [*b, 0, 1, 0, 1]
    w = [1.0] * n + [0.5] * 4
    mx = sum(wi * x for wi, x in zip(w, xs, strict=True)) / sum(w)
    my = sum(wi * y for wi, y in zip(w, ys, strict=True)) / sum(w)
    sxy = sum(wi * (x - mx) * (y - my) for wi, x, y in zip(w, xs, ys, strict=True))
    sxx = sum(wi * (x - mx) ** 2 for wi, x in zip(w, xs, strict=True))
    syy = sum(wi * (y - my) ** 2 for wi, y in zip(w, ys, strict=True))
    r = sxy / math.sqrt(sxx * syy)
    d = pb - pa
    below = math.sqrt(max(0.0, (pb - lb) ** 2 + (ua - pa) ** 2 - 2 * r * (pb - lb) * (ua - pa)))
    above = math.sqrt(max(0.0, (ub - pb) ** 2 + (pa - la) ** 2 - 2 * r * (ub - pb) * (pa - la)))
    return d, max(-1.0, d - below), min(1.0, d + above)


def close(est: Any, triple: tuple[float, float, float]) -> bool:
    return all(
        math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)
        for x, y in zip((est.mean, est.low, est.high), triple, strict=True)
    )


# -- compare: arguments ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"seed": -1}, cardcore.OptionError, "seed must be an int"),
        ({"seed": 2**128}, cardcore.OptionError, "seed must be an int"),
        ({"seed": "1"}, cardcore.OptionError, "seed must be an int"),
        ({"games": 10**8}, cardcore.OptionError, "at most 10,000,000"),
        ({"games": True}, cardcore.OptionError, "games must be"),
        ({"players": True}, cardcore.OptionError, "players must be"),
        ({"players": 2**100}, cardcore.OptionError, "CORE-SEAT-2"),
        ({"chunk": 0}, cardcore.OptionError, "chunk must be"),
        ({"rules": "golf.jokers"}, cardcore.ArgumentError, "rules takes a list of names"),
        ({"vs": b"x"}, cardcore.ArgumentError, "vs takes a list of names"),
        ({"vs_options": [1]}, cardcore.OptionError, "vs_options must be a mapping"),
        ({"vs_options": {"nope": 1}}, cardcore.OptionError, "configuration B: .*no option 'nope'"),
        ({"skill": ("random", 5)}, cardcore.OptionError, "skill must be"),
        ({"skill": ("nope", "random")}, cardcore.UnknownPluginError, "skill: no agent"),
        ({"agents": "random:seed=-1"}, cardcore.OptionError, "configuration A's agents"),
        ({"vs_agents": "nope"}, cardcore.UnknownPluginError, "configuration B's agents"),
        ({"executor": 5}, cardcore.OptionError, "executor must be"),
        ({"move_time": math.nan}, cardcore.OptionError, "move_time must be"),
    ],
)
def test_bad_arguments_are_named_cardcore_errors(
    kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        cardcore.compare("golf", **{"games": 2, **kwargs})


def test_rules_given_as_an_iterator_are_not_lost() -> None:
    result = cardcore.compare(
        "golf", rules=iter(["golf.jokers"]), options={"rounds": 1}, games=1, skill=None
    )
    assert result.a.rules == ("golf.jokers",)
    assert not result.same_deals  # 54 cards against 52


# -- compare: paired deals and statistics ------------------------------------------------------


def _records(config: Config, side: int, games: int, seed: int) -> list[Any]:
    task = ("golf", 2, config, side, False, seed, 0, None, None)
    return run_chunk((task, games))


def test_figures_recomputed_from_the_per_game_records() -> None:
    games, seed = 8, 11
    opts = {"rounds": 1}
    result = cardcore.compare(
        "golf",
        options=opts,
        agents="random",
        vs_agents="golf-greedy",
        games=games,
        seed=seed,
        skill=None,
        chunk=3,
    )
    ca = Config("A", (), (), opts, ("random", "random"))
    cb = Config("B", (), (), opts, ("golf-greedy", "golf-greedy"))
    ra, rb = _records(ca, 0, games, seed), _records(cb, 1, games, seed)
    assert [r.index for r in ra] == list(range(games))
    # the same seed per game on both sides, and the same cards dealt (duplicate deals)
    assert [r.seed for r in ra] == [r.seed for r in rb]
    for r in ra[:3]:
        g1 = cardcore.new_game("golf", 2, options=opts, seed=r.seed)
        g2 = cardcore.new_game("golf", 2, options=opts, seed=r.seed)
        assert g1.view(None)["zones"] == g2.view(None)["zones"]
    assert result.same_deals and "duplicate deals" in result.deals

    def share(r: Any, s: int) -> float:
        return 1.0 / len(r.winners) if s in r.winners else 0.0

    a, b = result.a, result.b
    assert a.games == b.games == games
    assert close(a.actions, normal([float(r.actions) for r in ra]))
    assert close(b.spread, normal([max(r.scores) - min(r.scores) for r in rb]))
    for s in range(2):
        p = statistics.fmean(share(r, s) for r in ra)
        assert close(a.seat_wins[s], (p, *wilson(p, games)))
    # first seat: its share less 1/2, Wilson's interval on the shifted scale [-1/2, 1/2]
    fs = [share(r, r.first) for r in rb]
    p = statistics.fmean(fs)
    lo, hi = wilson(p, games)
    assert close(b.first_seat, (p - 0.5, lo - 0.5, hi - 0.5))
    # paired differences B - A, game by game
    assert close(
        result.diff["actions"],
        normal([float(y.actions - x.actions) for x, y in zip(ra, rb, strict=True)]),
    )
    first_a = [share(r, r.first) for r in ra]
    assert close(result.diff["first_seat"], newcombe(first_a, fs))
    for reason in {r.reason for r in ra + rb}:
        hits = sum(r.reason == reason for r in ra)
        assert close(a.reasons[reason], (hits / games, *wilson(hits / games, games)))
        assert close(
            result.diff[f"reason:{reason}"],
            newcombe(
                [float(r.reason == reason) for r in ra], [float(r.reason == reason) for r in rb]
            ),
        )
    # significance is the interval excluding zero
    for est in result.diff.values():
        assert est.significant == (est.low > 0 or est.high < 0)


def test_wilson_interval_matches_the_textbook_closed_form() -> None:
    # every game ends by the rounds: n of n, whose Wilson lower end is n / (n + z^2)
    result = cardcore.compare("golf", options={"rounds": 1}, games=6, skill=None)
    est = result.a.reasons["rounds"]
    assert est.mean == 1.0 and est.high == 1.0
    assert math.isclose(est.low, 6 / (6 + Z * Z), rel_tol=1e-9)
    assert est.text(1, percent=True) == "100.0% [61.0, 100.0]"


def test_a_rule_that_changes_the_deck_is_reported_as_different_deals() -> None:
    result = cardcore.compare(
        "golf", vs=["golf.jokers"], options={"rounds": 1}, games=2, skill=None
    )
    assert not result.same_deals and "52 and 54 cards" in result.deals


# -- compare: reports ---------------------------------------------------------------------------


def test_one_game_reports_are_strict_json_and_an_aligned_table() -> None:
    result = cardcore.compare(
        "golf", vs=["golf.jokers"], options={"rounds": 1}, games=1, skill=None, agents="random"
    )
    text = json.dumps(result.to_json(), allow_nan=False)  # unbounded ends are null, not inf
    data = json.loads(text)
    assert data["a"]["actions"]["low"] is None and data["a"]["actions"]["n"] == 1
    assert data["diff"]["actions"]["high"] is None
    table = result.table().splitlines()
    at = [k for k, line in enumerate(table) if line.startswith("=")]
    assert len(at) == 3 and len({table[k] for k in at}) == 1
    body = table[at[1] + 1 : at[2]]
    assert len(body) == len(result.rows())
    assert table[0] == "golf, 2 players, 1 game per configuration, seed 0"


class _DyingExecutor:
    """An executor whose worker dies after the first task came back."""

    def map(self, fn: Any, items: Any) -> Iterator[Any]:
        items = list(items)
        yield fn(items[0])
        raise BrokenExecutor("worker killed")


def test_a_dead_worker_is_named_with_the_games_that_came_back() -> None:
    with pytest.raises(cardcore.CardcoreError) as info:
        cardcore.compare(
            "golf", options={"rounds": 1}, games=4, chunk=3, skill=None, executor=_DyingExecutor()
        )
    text = str(info.value)
    assert "after 3 of 8 games" in text and "BrokenExecutor: worker killed" in text


# -- the terminal real-time play ----------------------------------------------------------------


class _Idle:
    """A bot that never moves (deterministic sessions)."""

    def plan(self, view: Any, legal: Any, now: float) -> None:
        return None


def _console(out: io.StringIO) -> Console:
    return Console(file=out, width=120, force_terminal=False, color_system=None)


def _cards(view: Any) -> set[str]:
    return {c for z in view["zones"] for c in z["cards"] if c is not None}


def _hidden(game: cardcore.Game, seat: int) -> set[str]:
    every = {c.text for pile in game.state.zones.cards for c in pile}
    return every - _cards(game.view(seat))


HOSTILE = [
    "foo",
    "#99",
    "#0",
    "12",
    "play ZZ L",
    "play 6 L",
    "play 1 L 2",
    "\x1b[2J\x1b]0;pwned\x07",
    "[bold red]x[/]",
    "play １ L",
    "x" * 100_000,
    "resign 1",
    "\x00\x08\x7f",
]


def test_hostile_lines_are_refused_clearly_and_change_nothing() -> None:
    game = cardcore.new_game("spit", 2, seed=3)
    before = json.dumps(game.record())
    out = io.StringIO()
    outcome = play_realtime(
        _console(out), game, 0, [None, _Idle()], stdin=io.StringIO("\n".join(HOSTILE) + "\n")
    )
    assert outcome == "quit" and game.version == 0 and json.dumps(game.record()) == before
    text = out.getvalue()
    assert text.count("not understood:") == len(HOSTILE)
    assert "at most 200" in text and "Traceback" not in text
    assert "\x1b" not in text and "\x07" not in text and "\x00" not in text


def test_hidden_cards_never_reach_the_terminal() -> None:
    game = cardcore.new_game("spit", 2, seed=1)
    out = io.StringIO()
    with lend_views(game) as views:
        session = _Realtime(_console(out), game, 0, [None, _Idle()], views, 0.05)
        session.redraw()
        lines = ["ready", "view", "help", "#1", "#1", "#2", "play 2 L", "spit", "#1", "view"]
        for k, line in enumerate(lines):
            if k == 1:
                game.act(1, "ready")
            hidden = _hidden(game, 0)
            start = len(out.getvalue())
            session.handle(line)
            session.redraw()
            hidden &= _hidden(game, 0)
            said = out.getvalue()[start:]
            leaked = {c for c in hidden if re.search(rf"(?<![0-9A-Z]){c}(?![0-9A-Z])", said)}
            assert not leaked, (line, leaked)
    assert game.version > 2  # moves were made: the check saw a game in play
    assert _hidden(game, 0)  # there was something to hide
    shown = _cards(game.view(0))
    assert any(re.search(rf"(?<![0-9A-Z]){c}(?![0-9A-Z])", out.getvalue()) for c in shown)


def test_escape_sequences_are_skipped_and_ctrl_d_leaves() -> None:
    game = cardcore.new_game("spit", 2, seed=1)
    keys = iter(["\x1b[A\x1bOPre", "ady\t\r", "\x04"])
    with lend_views(game) as views:
        session = _Realtime(_console(io.StringIO()), game, 0, [None, _Idle()], views, 0.05)
        session.redraw()
        session.read_keys(lambda: next(keys))
    assert game.version == 1 and "ready" not in map(str, game.legal_actions(0))
    assert session.outcome == "quit"


def test_end_of_input_with_a_partly_typed_line_leaves() -> None:
    game = cardcore.new_game("spit", 2, seed=1)
    calls: list[str] = []

    def keys() -> str:
        calls.append("")
        if len(calls) == 1:
            return "rea"
        if len(calls) > 20:
            raise RuntimeError("still reading after the end of input")
        return ""

    with lend_views(game) as views:
        session = _Realtime(_console(io.StringIO()), game, 0, [None, _Idle()], views, 0.05)
        session.redraw()
        session.read_keys(keys)
    assert session.outcome == "quit" and len(calls) == 2


def test_an_undecodable_line_does_not_swallow_the_next() -> None:
    game = cardcore.new_game("spit", 2, seed=1)
    stdin = io.TextIOWrapper(io.BytesIO(b"\xff\xfe\nready\n"), encoding="utf-8")
    out = io.StringIO()
    play_realtime(_console(out), game, 0, [None, _Idle()], stdin=stdin)
    assert "not understood" in out.getvalue()
    assert game.version == 1
