"""Review by reading (2026-12-07) of the terminal play loops (``cli/play.py``,
``cli/realtime.py``), what they draw (``cli/render.py``, ``cli/screen.py``,
``cli/_markup.py``) and the library's runners (``agents.play``, ``run_realtime``).

Strict xfails are bugs found; the other tests pin claims that held. Everything runs
in-process: the turn-based loop reads from a scripted ``read``; the real-time loop
reads a pipe nobody writes to (the bots end the game, or an agent's sentinel stops
the loop), so no test waits on the wall clock.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import re
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("rich")

from rich.console import Console

import cardcore
from cardcore import CardcoreError, IllegalActionError, Plan, StalledGameError
from cardcore.actions import EndMatch, Resign
from cardcore.agents import lend_views
from cardcore.cli.play import make_agent, play_turn_based
from cardcore.cli.realtime import _Realtime, play_realtime
from cardcore.cli.screen import Screen

CARD = re.compile(r"(?<![\w])(?:(?:10|[2-9AJQK])[SHDC]|JK)(?![\w])")


class _Sentinel(Exception):
    """Raised by a test agent to stop a loop that would otherwise go on."""


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200, color_system=None, emoji=False), out


def _reader(lines: list[str]) -> Callable[[str], str]:
    it: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def _realtime(game: cardcore.Game, agents: list[Any]) -> tuple[str | BaseException, str]:
    """Run :func:`play_realtime` in line mode on a pipe nobody writes to; (outcome or the
    exception it raised, what was printed)."""
    console, out = _console()
    read, write = os.pipe()
    stdin = os.fdopen(read, encoding="utf-8")
    try:
        try:
            outcome: str | BaseException = play_realtime(
                console, game, 0, agents, stdin=stdin, live=False
            )
        except Exception as exc:  # what the loop let out
            outcome = exc
    finally:
        os.close(write)  # the input thread reads the end and stops
        for thread in threading.enumerate():
            if thread.name == "cardcore-input":
                thread.join(10)
        stdin.close()
    return outcome, out.getvalue()


# == bugs ======================================================================================


class _OtherSeat:
    """A turn-based bot whose first answer is an action of another seat, then plays legally."""

    def __init__(self, action: cardcore.Action) -> None:
        self.action: cardcore.Action | None = action

    def choose(self, view: object, legal: Any) -> Any:
        action, self.action = self.action, None
        return legal[0] if action is None else action


@pytest.mark.parametrize("evil", [Resign(seat=1), EndMatch()], ids=["resign-of-human", "endmatch"])
def test_cli_turn_based_bot_cannot_end_the_humans_game_with_another_seats_action(
    evil: cardcore.Action,
) -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    assert game.to_act == (0,)  # the bot moves first
    console, _ = _console()
    with contextlib.suppress(IllegalActionError):  # refused, as cardcore.play does: fine
        play_turn_based(console, game, 1, [_OtherSeat(evil), None], _reader(["quit"]))
    assert not game.is_over, game.result


def test_library_play_refuses_the_same_answers() -> None:
    """The contrast: cardcore.play refuses both, naming the agent's seat (agents.rst)."""
    for evil in (Resign(seat=1), EndMatch()):
        game = cardcore.new_game("golf", 2, seed=1)
        with pytest.raises(IllegalActionError, match=r"agent at seat 0 \(_OtherSeat\)"):
            cardcore.play(game, [_OtherSeat(evil), cardcore.RandomAgent(1)])
        assert game.version == 0 and not game.is_over


class _PlansOnce:
    """A real-time bot whose first plan is *plan*; asked again, it stops the loop."""

    def __init__(self, plan: Any) -> None:
        self.plan_ = plan
        self.calls = 0

    def plan(self, view: object, legal: Any, now: float) -> Any:
        self.calls += 1
        if self.calls > 1:
            raise _Sentinel
        return self.plan_


@pytest.mark.parametrize("evil", [Resign(seat=0), EndMatch()], ids=["resign-of-human", "endmatch"])
def test_cli_realtime_bot_cannot_end_the_humans_game_with_another_seats_action(
    evil: cardcore.Action,
) -> None:
    game = cardcore.new_game("speed", ["Me", "Bot"], seed=1)
    outcome, _ = _realtime(game, [None, _PlansOnce(Plan(evil, 0.0))])
    assert not isinstance(outcome, BaseException) or isinstance(
        outcome, IllegalActionError | _Sentinel
    ), outcome
    assert not game.is_over, game.result


def test_run_realtime_refuses_the_same_plans() -> None:
    for evil in (Resign(seat=0), EndMatch()):
        game = cardcore.new_game("speed", ["Me", "Bot"], seed=1)
        quiet = _PlansOnce(None)
        with pytest.raises(IllegalActionError, match=r"agent at seat 1 \(_PlansOnce\)"):
            cardcore.run_realtime(game, [quiet, _PlansOnce(Plan(evil, 0.0))])
        assert game.version == 0 and not game.is_over


class _Stubborn:
    """Plans the same refused action at once, every time; past *limit* plans it stops the loop."""

    def __init__(self, action: cardcore.Action, limit: int) -> None:
        self.action = action
        self.limit = limit
        self.calls = 0

    def plan(self, view: object, legal: Any, now: float) -> Plan:
        self.calls += 1
        if self.calls > self.limit:
            raise _Sentinel(f"asked {self.calls} times")
        return Plan(self.action, 0.0)


def _speed_with_a_spent_action() -> tuple[cardcore.Game, cardcore.Action, int]:
    """Speed after seat 1 played its first legal action: that action is never legal again."""
    game = cardcore.new_game("speed", ["Me", "Bot"], seed=1)
    spent = game.legal_actions(1)[0]
    game.apply(spent, at=0.0)
    assert spent not in game.legal_actions(1)
    return game, spent, game.logic.action_bound(2, game.options)


def test_cli_realtime_a_bot_whose_plans_are_always_refused_is_not_asked_forever() -> None:
    game, spent, bound = _speed_with_a_spent_action()
    bot = _Stubborn(spent, 2 * bound + 10)
    version = game.version
    outcome, _ = _realtime(game, [None, bot])
    assert game.version == version
    assert not isinstance(outcome, _Sentinel), f"the loop asked the bot {bot.calls} times"
    assert isinstance(outcome, StalledGameError), repr(outcome)  # as run_realtime stops it
    assert "seat 1 keeps planning rejected actions" in str(outcome)


def test_run_realtime_stops_an_agent_whose_plans_are_always_refused() -> None:
    """agents.rst: agents that keep planning rejected actions, more often than the action
    bound, raise StalledGameError quoting the last rejection; the game is unchanged."""
    game, spent, bound = _speed_with_a_spent_action()
    version = game.version

    class Idle:
        def plan(self, view: object, legal: Any, now: float) -> None:
            return None

    bot = _Stubborn(spent, 2 * bound + 10)
    with pytest.raises(StalledGameError, match=r"keep planning rejected actions.*seat 1"):
        cardcore.run_realtime(game, [Idle(), bot])
    assert game.version == version and bot.calls <= bound + 2


@pytest.mark.parametrize("kind", ["nan-delay", "not-a-plan"])
def test_cli_realtime_a_malformed_plan_is_refused_naming_the_seat(kind: str) -> None:
    game = cardcore.new_game("speed", ["Me", "Bot"], seed=1)
    action = game.legal_actions(1)[0]
    junk = Plan(action, math.nan) if kind == "nan-delay" else str(action)
    outcome, _ = _realtime(game, [None, _PlansOnce(junk)])
    assert game.version == 0, "the malformed plan was played"
    assert isinstance(outcome, CardcoreError) and "seat 1" in str(outcome), repr(outcome)


def test_run_realtime_refuses_the_same_malformed_plans() -> None:
    for kind in ("nan-delay", "not-a-plan"):
        game = cardcore.new_game("speed", ["Me", "Bot"], seed=1)
        action = game.legal_actions(1)[0]
        junk = Plan(action, math.nan) if kind == "nan-delay" else str(action)
        with pytest.raises(CardcoreError, match=r"agent at seat 1 \(_PlansOnce\) planned"):
            cardcore.run_realtime(game, [_PlansOnce(None), _PlansOnce(junk)])
        assert game.version == 0


# == claims that held ==========================================================================

_CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    *[("golf", 3, {"layout": layout}) for layout in ("6", "8", "9", "10", "4", "4h")],
    ("tonk", 3, {}),
    ("spit", 2, {}),
    ("speed", 2, {"jokers": 2}),
    ("gofish", 3, {}),
]
_IDS = [f"{name}-{opts.get('layout', '')}".rstrip("-") for name, _, opts in _CONFIGS]

_MALFORMED = [
    "",
    "   ",
    "\x00",
    "\x04",
    "#",
    "#0",
    "#-1",
    "#١",
    "١",
    "0",
    "9" * 40,
    "#" + "9" * 40,
    "x" * 100_000,
    "flip ١",
    "flip -0",
    "replace " + "9" * 30,
    "play JK L R",
    "ask 9 7",
    "ask -1 A",
    "resign 1",
    "[bold]x[/]",
    "\u202e draw",
    "ｄｒａｗ",
    "draw\u200b",
    "\ud800",
]


def _strings(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            _strings(k, out)
            _strings(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            _strings(v, out)
    return out


_TURN_BASED = [(c, i) for c, i in zip(_CONFIGS, _IDS, strict=True) if c[0] not in ("spit", "speed")]


@pytest.mark.parametrize(
    ("name", "n", "opts"), [c for c, _ in _TURN_BASED], ids=[i for _, i in _TURN_BASED]
)
def test_turn_based_prompt_answers_malformed_input_and_changes_nothing(
    name: str, n: int, opts: dict[str, Any]
) -> None:
    """cli.rst: anything else is answered with the library's error, and nothing changes
    (no raw exception, no move, no loop); the end of the input leaves."""
    game = cardcore.new_game(name, n, options=opts or None, seed=3)
    seat = game.to_act[0]
    before = (game.version, json.dumps(game.record()))
    console, out = _console()
    agents = [None if s == seat else cardcore.RandomAgent(s) for s in range(n)]
    assert play_turn_based(console, game, seat, agents, _reader(_MALFORMED)) == "quit"
    assert (game.version, json.dumps(game.record())) == before
    text = out.getvalue()
    assert text.count("not understood:") + text.count("illegal:") >= len(_MALFORMED) - 3


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_realtime_line_answers_malformed_input_and_changes_nothing(name: str) -> None:
    game = cardcore.new_game(name, ["Me", "Bot"], seed=3)
    console, out = _console()
    with lend_views(game) as views:
        session = _Realtime(console, game, 0, [None, None], views, 0.01)
        session.redraw()
        before = (game.version, json.dumps(game.record()))
        for line in _MALFORMED:
            assert session.send(line) is True
        assert (game.version, json.dumps(game.record())) == before
    assert "error: could not act" not in out.getvalue()


def _drawn(screen: Screen) -> str:
    console, out = _console()
    console.print(screen.draw())
    return out.getvalue()


@pytest.mark.parametrize(("name", "n", "opts"), _CONFIGS, ids=_IDS)
def test_the_screen_draws_no_card_its_seat_or_a_spectator_may_not_see(
    name: str, n: int, opts: dict[str, Any]
) -> None:
    """Every card the table shows a seat (or a spectator) is in that seat's view or its
    past rounds; other seats' private piles are drawn face down."""
    game = cardcore.new_game(name, n, options=opts or None, seed=5)
    seats: list[int | None] = [*range(n), None]
    screens = {s: Screen(game, s) for s in seats}
    rng = random.Random(5)
    for step in range(160):
        if step % 16 == 0 or game.is_over:
            for s in seats:
                allowed = _strings(game.view(s), set()) | _strings(game.history(s), set())
                drawn = set(CARD.findall(_drawn(screens[s])))
                assert drawn <= allowed, (s, step, drawn - allowed)
                for zone in game.view(s)["zones"]:  # (a hand is shown when the game ends)
                    if zone["name"].startswith("hand.") and zone["owner"] != s:
                        assert game.is_over or not any(zone["cards"]), (s, zone)
        if game.is_over:
            break
        able = [s for s in game.to_act if game.legal_actions(s)]
        if not able:
            break
        seat = rng.choice(able)
        choices = [a for a in game.legal_actions(seat) if type(a) is not Resign]
        game.apply(rng.choice(choices), at=float(step) if game.ruleset.game.realtime else None)


@pytest.mark.parametrize("name", ["[bold]x", "[/]", "x\\", "[red]R[/red]\\", "a[/b] :smile:"])
@pytest.mark.parametrize("game", ["tonk", "speed"])
def test_a_name_with_markup_prints_as_it_is(
    name: str, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    from cardcore import cli

    monkeypatch.setattr(sys, "stdin", io.StringIO("help\nview\nbogus\nresign\n"))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", out)
    status = cli.main(["play", game, "--seed", "3", "--no-record", "--name", name])
    text = out.getvalue()
    assert status == 0, text[-500:]
    assert text.count(name) >= 5 and "Traceback" not in text


def test_an_agent_specs_mean_wins_over_bot_speed_and_the_header_says_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """cli.rst: a mean= or reaction= in the --agent spec wins over --bot-speed, and the
    header says the one in use."""
    assert make_agent("spit-greedy:mean=0.2", 1, 0.8).mean == 0.2
    assert make_agent("spit-greedy", 1, 0.8).mean == 0.8
    assert make_agent("random:reaction=0.3", 1, 0.8).reaction == 0.3
    from cardcore import cli

    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", out)
    args = ["play", "speed", "--seed", "2", "--no-record", "--bot-speed", "0.8"]
    assert cli.main([*args, "--agent", "spit-greedy:mean=0.2"]) == 0
    assert "(reaction 0.2 s)" in out.getvalue()


def test_an_agents_own_exception_reaches_the_caller_with_the_game_unchanged() -> None:
    """agents.rst: an exception raised inside an agent's own code reaches the caller as it
    is, with the game unchanged."""

    class Breaks:
        def __init__(self) -> None:
            self.calls = 0

        def choose(self, view: Any, legal: Any) -> Any:
            self.calls += 1
            if self.calls == 3:
                raise ZeroDivisionError("the agent's own bug")
            return legal[0]

    game = cardcore.new_game("golf", 2, seed=4)
    seen: list[str] = []
    agent = Breaks()  # one agent for both seats: its third answer raises
    with pytest.raises(ZeroDivisionError, match="the agent's own bug"):
        cardcore.play(
            game,
            [agent, agent],
            on_action=lambda g, a: seen.append(json.dumps(g.record())),
        )
    assert len(seen) == 2 and json.dumps(game.record()) == seen[-1]  # as after the last action
    assert cardcore.replay(game.record()).view(None) == game.view(None)


def test_cli_agents_are_seeded_from_the_game_so_a_seeded_game_replays() -> None:
    """cardcore play --seed S: every bot is seeded from the game's seed, so the same moves
    of the human give the same game."""

    def run() -> list[Any]:
        game = cardcore.new_game("golf", 3, seed=9, options={"rounds": 1})
        agents = [None] + [make_agent("golf-greedy", game.seed * 7 + s + 1) for s in (1, 2)]
        moves = ["flip 0", "flip 1"] + ["draw", "discard"] * 40 + ["draw", "replace 2"] * 40

        def read(prompt: str) -> str:
            legal = game.view(0)["legal"]
            while moves:
                move = moves.pop(0)
                if move in legal:
                    return move
            return str(legal[0])

        console, _ = _console()
        play_turn_based(console, game, 0, agents, read)
        return list(game.record()["actions"])

    assert run() == run()
