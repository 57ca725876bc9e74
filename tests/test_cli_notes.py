"""``cardcore play`` says what the game did that no action names: Speed's side cards turning."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from io import StringIO

from rich.console import Console

import cardcore
from cardcore import Event
from cardcore.actions import Action
from cardcore.agents import lend_views
from cardcore.cli.realtime import _Realtime

SPEED = "speed"
LINE = re.compile(r"Nobody can play: the side cards turn \(L: (\w+), R: (\w+)\)")


def _spat(events: list[Event]) -> tuple[str, str]:
    spat = {e.fields()["pile"]: str(e.fields()["card"]) for e in events if e.slug == "card-spat"}
    return spat["L"], spat["R"]


def test_play_says_the_side_cards_turned_at_the_deal() -> None:
    for seed in range(1000):  # a deal that leaves nobody a play (SPEED-STUCK-1)
        heard: list[Event] = []
        cardcore.new_game(SPEED, 2, seed=seed, subscribers=[(Event, heard.append)])
        if any(e.slug == "card-spat" for e in heard):
            break
    proc = subprocess.run(
        [sys.executable, "-m", "cardcore.cli", "play", SPEED, "--seed", str(seed), "--no-record"],
        input="resign\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert proc.returncode == 0, proc.stderr
    match = LINE.search(proc.stdout)
    assert match, proc.stdout
    assert match.groups() == _spat(heard)
    assert proc.stdout.index("Nobody can play") < proc.stdout.index("you: resign")


def _turning_play() -> tuple[cardcore.Game, Action, list[Event]]:
    """A Speed game and a play of seat 0 after which nobody can play, with its events."""
    for seed in range(100):
        game = cardcore.new_game(SPEED, ["Me", "Bot"], seed=seed)
        while not game.is_over:
            for action in game.legal_actions(0):
                trial = game.clone()
                heard: list[Event] = []
                trial.events.subscribe(Event, heard.append, 0)
                trial.apply(action)
                if str(action) != "stuck" and any(e.slug == "card-spat" for e in heard):
                    return game, action, heard
            plays = [a for s in (0, 1) for a in game.legal_actions(s) if str(a) != "stuck"]
            if not plays:
                break
            game.apply(plays[0])
    raise AssertionError("no play left both players stuck")


def test_realtime_says_the_side_cards_turned_after_a_play() -> None:
    game, action, heard = _turning_play()
    out = StringIO()
    console = Console(file=out, width=200, color_system=None)
    with lend_views(game) as views:
        session = _Realtime(console, game, 0, [None, None], views, 0.01)
        session.redraw()
        assert session.handle(str(action))
    text = out.getvalue()
    match = LINE.search(text)
    assert match, text[-500:]
    assert match.groups() == _spat(heard)
    assert text.index(f"you: {action}") < match.start()


def test_a_failing_notes_function_costs_the_lines_not_the_game() -> None:
    """Sessions logged such a failure and went on; ``cardcore play`` ended with it."""
    import attrs

    from cardcore.cli.notes import Notes

    def broken(events: object, action: object) -> list[str]:
        raise KeyError("hand")

    game = cardcore.new_game(SPEED, 2, seed=1)
    info = attrs.evolve(game.ruleset.game, notes=broken)
    notes = Notes(info, 0)
    game.events.subscribe(Event, notes._keep, 0)
    game.act(0, str(game.legal_actions(0)[0]))
    said = notes.take()  # one line, once; the game goes on
    assert len(said) == 1 and "notes failed (KeyError)" in said[0] and "hand" not in said[0]
    assert notes.events == []
    game.act(1, str(game.legal_actions(1)[0]))
    assert notes.take() == []  # asked no more
