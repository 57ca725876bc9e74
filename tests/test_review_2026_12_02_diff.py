"""Findings of the review of the 2 December 2026 changes (19fd2f4..HEAD), as strict xfails.

Each test shows one confirmed bug; it passes (and so fails as an xfail) once fixed.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cardcore import new_game
from cardcore.errors import CardcoreError, PluginError
from cardcore.search import sample_position
from cardcore.session import Session, SQLiteStore
from cardcore.session.patch import card_words
from cardcore.session.protocol import dumps


def _token(out: list[Any]) -> str:
    token: str = next(o.message["token"] for o in out if "token" in o.message)
    return token


def test_swapped_stream_rows_stay_untrusted_after_the_next_commit(tmp_path: Path) -> None:
    """Two seats' stored rows swapped: the first resume notices (tails) and serves none, but
    anything that commits the meta (here the token a web server issues its bot on restart)
    digests the swapped rows as the tail, and after a second resume seat 0 is served seat 1's
    messages, its hidden hand included."""
    db = str(tmp_path / "s.db")
    store = SQLiteStore(db)
    session = Session.create("tonk", ["A", "B"], now=0.0, seed=3, store=store)
    token = _token(session.handle("a", '{"type": "join", "seat": 0}', 0.0))
    session.handle("b", '{"type": "join", "seat": 1}', 0.0)
    game = session.game
    assert game is not None
    rng = random.Random(2)
    hidden: set[str] = set()
    for i in range(200):  # until seat 1's last message shows its hand and is shorter than a view
        seat = game.to_act[0]
        legal = [str(x) for x in game.legal_actions(seat) if not str(x).startswith("drop")]
        act = {"type": "act", "action": rng.choice(legal), "seen": game.version}
        session.handle("ab"[seat], json.dumps(act), 1.0 + i)
        hidden = set(card_words(game.view(1))) - set(card_words(game.view(0)))
        last = session.streams[1].tail[-1][1]
        fresh = dumps(session._view_message(session.streams[0], "resync", session.streams[0].n))
        if set(card_words(json.loads(last))) & hidden and len(last) < len(fresh):
            break
    session.disconnect("a", 300.0)
    session.disconnect("b", 300.0)
    store.close()
    with sqlite3.connect(db) as conn:  # the rows of seat.0 and seat.1 swapped
        for old, new in (("seat.0", "tmp"), ("seat.1", "seat.0"), ("tmp", "seat.1")):
            conn.execute("UPDATE messages SET stream = ? WHERE stream = ?", (new, old))
    store = SQLiteStore(db)
    first = Session.resume(store, session.id, 400.0)
    assert all(s.untrusted for s in first.streams)  # noticed
    first.issue_token(1, 401.0, replace=True)  # as WebServer does for a stored bot's seat
    store.close()
    store = SQLiteStore(db)
    try:
        second = Session.resume(store, session.id, 500.0)
        join = {"type": "join", "seat": 0, "token": token, "last": second.streams[0].n - 1}
        out = second.handle("a", json.dumps(join), 501.0)
    finally:
        store.close()
    shown = set().union(*(set(card_words(o.message)) for o in out))
    assert not shown & hidden


@pytest.mark.parametrize("game", ["tonk", "spit"])
def test_a_malformed_view_is_not_blamed_on_the_game(game: str) -> None:
    view = new_game(game, players=2, seed=1).view(0)
    bad = {k: v for k, v in view.items() if k != "zones"}
    with pytest.raises(CardcoreError) as caught:
        sample_position(bad, random.Random(1))
    assert not isinstance(caught.value, PluginError), str(caught.value)
