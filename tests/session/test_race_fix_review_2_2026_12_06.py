"""A second review, of the fix 036422fb to the race-review fix: ``Stream.version`` and the
whole ``resync`` view a seat gets when its stream's picture differs from the saved view,
``issue_token``'s held messages (a held ``closed`` dropped for a tab that joined again, the
lobby it now tells), and a timeout whose ``legal_actions`` fail starting the clock over.

Every test is deterministic: virtual clocks, seeded choices, a game method patched to fail at
one chosen moment; no sleeps. The tests under "bugs found" pin the two bugs the review found
(each failed on the code before its fix); the others pin claims of the fix that hold (each
would fail if it broke).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cardcore import Game
from cardcore.session import MemoryStore, Mirror, Outbound, Session, SessionConfig, TimeControl
from cardcore.session import fair as fairness
from cardcore.session.store import StoredSession, TokenRow

DATA = Path(__file__).resolve().parent / "data"

# -- helpers ----------------------------------------------------------------------------------


class _Clients:
    """A mirror per connection; records every whole ``view`` a seat's tab is sent outside a join."""

    def __init__(self) -> None:
        self.mirrors: dict[str, Mirror] = {}
        self.unexplained: list[tuple[str, str, Any, Any]] = []
        self.updates = 0
        self.causes: dict[str, int] = {}
        self.takebacks = 0
        self.closed: set[str] = set()

    def feed(self, out: list[Outbound], call: str) -> list[dict[str, Any]]:
        got = []
        for o in out:
            message = json.loads(o.text)
            got.append(message)
            self.mirrors.setdefault(o.conn, Mirror()).feed(message)
            if o.close:
                self.closed.add(o.conn)
            if o.conn == "w":
                continue
            kind = message["type"]
            if kind == "update":
                self.updates += 1
                cause = message["action"]["cause"]
                self.causes[cause] = self.causes.get(cause, 0) + 1
            elif kind == "view" and message["reason"] == "takeback":
                self.takebacks += 1
            elif kind == "view" and not (call == "join" or message["reason"] == "start"):
                self.unexplained.append((call, o.conn, message["reason"], message["version"]))
        return got


def _rejoin(
    session: Session, clients: _Clients, conns: list[str], gen: int, now: float
) -> list[str]:
    """Every seat's tab joins *session* again (a restart) with its token and last number."""
    fresh = []
    for seat, conn in enumerate(conns):
        mirror = clients.mirrors[conn]
        new = f"s{seat}r{gen}"
        clients.mirrors[new] = mirror
        join = {"type": "join", "seat": seat, "token": mirror.token, "last": mirror.last}
        clients.feed(session.handle(new, join, now), "join")
        fresh.append(new)
    return fresh


def _play(
    game: str,
    players: int,
    seed: int,
    *,
    fair: bool = False,
    options: dict[str, Any] | None = None,
    steps: int = 160,
) -> tuple[Session, _Clients, list[str], dict[str, int]]:
    """A whole session of *game*: random legal actions, timeouts, accepted takebacks (turn-based)
    and restarts (``restart="pause"``), every seat's tab and a spectator reading along."""
    rng = random.Random(seed)
    store = MemoryStore()
    config = SessionConfig(time=TimeControl(turn=5.0), fair=fair, spectator_delay=1)
    session = Session.create(
        game,
        players,
        now=0.0,
        seed=None if fair else seed,
        config=config,
        store=store,
        options=options,
    )
    clients = _Clients()
    conns = [f"s{seat}" for seat in range(players)]
    for seat, conn in enumerate(conns):
        clients.feed(session.handle(conn, {"type": "join", "seat": seat}, 0.0), "join")
    clients.feed(session.handle("w", {"type": "watch"}, 0.0), "join")
    done = {"restarts": 0, "timeouts": 0}
    now = 0.0
    for _ in range(steps):
        g = session.game
        if session.phase != "playing" or g is None:
            break
        now += 0.25
        r = rng.random()
        if r < 0.06:  # the server restarts
            done["restarts"] += 1
            session = Session.resume(store, session.id, now)
            conns = _rejoin(session, clients, conns, done["restarts"], now)
        elif r < 0.14:  # nobody moves in time
            now += 5.5
            clients.feed(session.tick(now), "tick")
        elif r < 0.22 and not session.realtime and g.version > 0:
            seat = rng.randrange(players)
            clients.feed(
                session.handle(conns[seat], {"type": "takeback", "op": "request"}, now), "takeback"
            )
            for other in range(players):
                if other != seat:
                    accept = {"type": "takeback", "op": "accept"}
                    clients.feed(session.handle(conns[other], accept, now), "takeback")
        else:
            seats = [s for s in g.to_act if g.legal_actions(s)]
            if not seats:
                clients.feed(session.tick(now), "tick")
                continue
            seat = rng.choice(seats)
            act = {
                "type": "act",
                "action": str(rng.choice(g.legal_actions(seat))),
                "seen": g.version,
            }
            clients.feed(session.handle(conns[seat], act, now), "act")
    done["timeouts"] = clients.causes.get("timeout", 0)
    return session, clients, conns, done


def _fixed_fair_deal(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Fair deals draw their server seed and salt from *seed* (deterministic deals)."""
    rng = random.Random(seed)
    monkeypatch.setattr(fairness, "secrets", SimpleNamespace(token_bytes=rng.randbytes))


def _in_step(session: Session) -> None:
    """Every seat stream's picture (``Stream.version``) is its saved view's version."""
    assert [s.version for s in session.streams] == [v["version"] for v in session.views]


def _legacy(name: str) -> tuple[MemoryStore, dict[str, Any]]:
    data = json.loads((DATA / name).read_text())
    fields = {f.name for f in dataclasses.fields(StoredSession)}
    stored = StoredSession(**{k: v for k, v in data.items() if k in fields})
    stored.actions = [tuple(a) for a in stored.actions]  # type: ignore[misc]
    stored.tokens = [TokenRow(**t) if isinstance(t, dict) else TokenRow(*t) for t in stored.tokens]
    stored.messages = {k: [tuple(m) for m in v] for k, v in stored.messages.items()}  # type: ignore[misc]
    store = MemoryStore()
    store._data[stored.id] = stored
    return store, data


def _golf_with_bobs_view_failing(
    monkeypatch: pytest.MonkeyPatch, keep: int
) -> tuple[Session, MemoryStore, _Clients]:
    """Golf, Ann and Bob: the flips, Ann takes the discard and replaces her card 0, and Bob's view
    fails to build at that version (6); Ann asks to take it back and Bob declines."""
    store = MemoryStore()
    session = Session.create(
        "golf", ["Ann", "Bob"], now=0.0, seed=7, config=SessionConfig(resync_keep=keep), store=store
    )
    clients = _Clients()
    clients.feed(session.handle("a", {"type": "join", "seat": 0}, 0.0), "join")
    clients.feed(session.handle("b", {"type": "join", "seat": 1}, 0.0), "join")
    game = session.game
    assert game is not None
    for version, (conn, text) in enumerate(
        [("a", "flip 0"), ("a", "flip 1"), ("b", "flip 0"), ("b", "flip 1"), ("a", "take")]
    ):
        clients.feed(
            session.handle(conn, {"type": "act", "action": text, "seen": version}, 1.0), "act"
        )
    real = Game.view

    def view(self: Game, seat: int | None = None) -> Any:
        if self is game and seat == 1 and self.version == 6:
            raise RuntimeError("a plugin's view failed")
        return real(self, seat)

    monkeypatch.setattr(Game, "view", view)
    clients.feed(session.handle("a", {"type": "act", "action": "replace 0", "seen": 5}, 2.0), "act")
    monkeypatch.undo()
    assert game.version == 6 and clients.mirrors["b"].version == 5  # Bob was told nothing
    out = session.handle("a", {"type": "takeback", "op": "request"}, 3.0)
    assert [m["op"] for m in clients.feed(out, "takeback") if m["type"] == "takeback"] == [
        "requested"
    ] * 2
    clients.feed(session.handle("b", {"type": "takeback", "op": "decline"}, 3.0), "takeback")
    return session, store, clients


def _restart_and_bob_draws(session: Session, store: MemoryStore, clients: _Clients) -> Session:
    back = Session.resume(store, session.id, 4.0)
    _rejoin(back, clients, ["a", "b"], 1, 4.0)
    clients.feed(back.handle("s1r1", {"type": "act", "action": "draw", "seen": 6}, 5.0), "act")
    return back


# -- bugs found ---------------------------------------------------------------------------------


def test_a_seat_whose_view_failed_before_a_restart_is_caught_up_even_when_the_tail_holds_no_update(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session, store, clients = _golf_with_bobs_view_failing(monkeypatch, keep=2)
    back = _restart_and_bob_draws(session, store, clients)
    game = back.game
    assert game is not None and game.version == 7
    bob = clients.mirrors["s1r1"]
    assert bob.version == 7
    assert bob.view == game.view(1), "Bob's picture silently differs from his seat's view"


def test_replacing_a_token_before_the_deal_numbers_no_lobby_identical_to_the_last() -> None:
    session = Session.create("golf", ["Ann", "Bob", "Cy"], now=0.0, seed=7)
    clients = _Clients()
    clients.feed(session.handle("a", {"type": "join", "seat": 0}, 0.0), "join")
    clients.feed(session.handle("b", {"type": "join", "seat": 1}, 0.0), "join")
    last = clients.mirrors["a"].lobby
    session.issue_token(1, 1.0, replace=True)  # Bob's invitation link sent again
    got = clients.feed(session.tick(1.0), "tick")
    assert clients.closed == {"b"}
    lobbies = [m for m in got if m["type"] == "lobby"]
    assert all({**m, "n": 0} != {**(last or {}), "n": 0} for m in lobbies), (
        "an unchanged lobby, numbered again"
    )


# -- claims that hold ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players", "seed", "fair"),
    [
        ("golf", 2, 0, False),
        ("golf", 3, 0, True),
        ("tonk", 2, 4, False),
        ("tonk", 3, 2, True),
        ("spit", 2, 0, False),
        ("speed", 2, 1, True),
    ],
)
def test_whole_games_with_restarts_timeouts_and_takebacks_send_only_updates_after_the_start(
    game: str, players: int, seed: int, fair: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fixed_fair_deal(monkeypatch, seed)
    options = {"hands": 6} if game == "tonk" else None  # a match: hands end and deal again
    session, clients, conns, done = _play(game, players, seed, fair=fair, options=options)
    assert (
        done["restarts"] >= 2 and done["timeouts"] >= 1 and clients.updates > 20
    )  # it was exercised
    if not session.realtime:
        assert clients.takebacks >= 1
    assert clients.unexplained == [], "a seat got a whole view no takeback explains"
    _in_step(session)
    g = session.game
    assert g is not None
    for seat, conn in enumerate(conns):
        assert clients.mirrors[conn].view == g.view(seat)
    back = Session.resume(session.store, session.id, session.now + 1.0)  # type: ignore[arg-type]
    _in_step(back)


@pytest.mark.parametrize("how", ["end", "resign", "clock"])
def test_a_game_ended_by_the_host_a_resign_or_the_game_clock_sends_updates_and_resumes_in_step(
    how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fixed_fair_deal(monkeypatch, 5)
    store = MemoryStore()
    config = SessionConfig(
        fair=True, time=TimeControl(total=30.0) if how == "clock" else TimeControl()
    )
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, config=config, store=store)
    clients = _Clients()
    clients.feed(session.handle("a", {"type": "join", "seat": 0}, 0.0), "join")
    clients.feed(session.handle("b", {"type": "join", "seat": 1}, 0.0), "join")
    clients.feed(session.handle("a", {"type": "act", "action": "flip 0", "seen": 0}, 1.0), "act")
    if how == "end":
        clients.feed(session.end(2.0), "end")
    elif how == "resign":
        clients.feed(
            session.handle("b", {"type": "act", "action": "resign", "seen": 1}, 2.0), "act"
        )
    else:
        clients.feed(session.tick(31.0), "tick")
    assert session.phase == "over"
    assert clients.unexplained == []
    _in_step(session)
    assert clients.mirrors["b"].bundle is not None  # the fair deal revealed
    back = Session.resume(store, session.id, 40.0)
    _in_step(back)
    assert back.moved == set()
    again = back.handle(
        "b2",
        {
            "type": "join",
            "seat": 1,
            "token": clients.mirrors["b"].token,
            "last": clients.mirrors["b"].last,
        },
        41.0,
    )
    assert [o.message["type"] for o in again] == [
        "welcome",
        "presence",
    ]  # nothing missed, no fresh view


@pytest.mark.parametrize("name", ["golf_v1_session.json", "golf_v2_session.json"])
def test_sessions_stored_in_formats_1_and_2_resume_in_step(name: str) -> None:
    store, data = _legacy(name)
    session = Session.resume(store, data["id"], 100.0)
    assert session.phase == "playing"
    assert all(s.version is not None for s in session.streams)  # read from the stored tails
    _in_step(session)
    assert session.moved == set()
    if "plain_tokens" in data:  # format 2: its tokens are known, so a seat acts
        game = session.game
        assert game is not None
        seat = game.to_act[0]
        join = {"type": "join", "seat": seat, "token": data["plain_tokens"][str(seat)], "last": 0}
        session.handle("x", join, 101.0)
        out = session.handle(
            "x",
            {"type": "act", "action": str(game.legal_actions(seat)[0]), "seen": game.version},
            101.0,
        )
        assert [o.message["type"] for o in out] == ["update", "ok"]


def test_a_seat_whose_view_failed_before_a_restart_is_caught_up_with_the_default_tail(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session, store, clients = _golf_with_bobs_view_failing(monkeypatch, keep=256)
    back = _restart_and_bob_draws(session, store, clients)
    game = back.game
    assert game is not None
    bob = clients.mirrors["s1r1"]
    assert bob.version == game.version == 7 and bob.view == game.view(1)
    ann = clients.mirrors["s0r1"]
    assert ann.view == game.view(0)
    assert [u for u in clients.unexplained if u[1] == "s0r1"] == []  # Ann, in step, got updates


def test_a_view_that_failed_is_labelled_with_its_own_version_for_a_new_tab(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session, _, clients = _golf_with_bobs_view_failing(monkeypatch, keep=256)
    got = clients.feed(
        session.handle("b2", {"type": "join", "seat": 1, "token": clients.mirrors["b"].token}, 4.0),
        "join",
    )
    view = next(m for m in got if m["type"] == "view")
    assert view["version"] == view["view"]["version"] == 5  # the view it holds, not the game's 6
    clients.feed(session.handle("b", {"type": "act", "action": "draw", "seen": 6}, 5.0), "act")
    game = session.game
    assert game is not None
    for conn in ("b", "b2"):
        assert clients.mirrors[conn].version == 7 and clients.mirrors[conn].view == game.view(1)
    assert clients.unexplained == []  # no restart: a patch that skips a version, no whole view


def test_the_same_tab_rejoining_the_same_seat_with_the_new_token_is_not_closed() -> None:
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    clients = _Clients()
    clients.feed(session.handle("a", {"type": "join", "seat": 0}, 0.0), "join")
    token = session.issue_token(1, 1.0)  # the deal, held
    new = session.issue_token(0, 1.0, replace=True)  # Ann's tab told closed, held
    assert token and "a" not in session.conns
    got = clients.feed(
        session.handle("a", {"type": "join", "seat": 0, "token": new, "last": 0}, 2.0), "join"
    )
    assert "closed" not in [m["type"] for m in got] and "a" not in clients.closed
    assert session.conns["a"].seat == 0
    clients.feed(session.handle("a", {"type": "act", "action": "flip 0", "seen": 0}, 3.0), "act")
    game = session.game
    assert game is not None and clients.mirrors["a"].view == game.view(0)


def test_a_different_tab_taking_the_seat_with_the_new_token_leaves_the_old_tab_told_closed() -> (
    None
):
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    clients = _Clients()
    clients.feed(session.handle("a", {"type": "join", "seat": 0}, 0.0), "join")
    new = session.issue_token(0, 1.0, replace=True)
    out = session.handle("a-other", {"type": "join", "seat": 0, "token": new}, 2.0)
    closed = [o for o in out if o.conn == "a"]
    assert [(o.message["type"], o.close) for o in closed] == [("closed", True)]
    assert out.index(closed[0]) < next(
        i for i, o in enumerate(out) if o.conn == "a-other"
    )  # held: first


def test_an_invitation_tells_the_lobby_as_a_join_does_and_leaks_no_entropy_or_token() -> None:
    told = {}
    for how in ("join", "invite"):
        config = SessionConfig(fair=True, seat_entropy=True)
        session = Session.create("golf", ["Ann", "Bob"], now=0.0, config=config)
        session.handle("a", {"type": "join", "seat": 0, "entropy": "ab" * 16}, 0.0)
        if how == "join":
            out = session.handle("b", {"type": "join", "seat": 1}, 1.0)
        else:
            token = session.issue_token(1, 1.0)
            out = session.tick(1.0)
            assert all(token not in o.text for o in out)
        assert all("ab" * 16 not in o.text for o in out)
        told[how] = [
            {**o.message, "commitment": None}
            for o in out
            if o.conn == "a" and o.message["type"] == "lobby"
        ]
    assert told["invite"] == told["join"]
    assert [m["entropy_deadline"] for m in told["join"]] == [None, 61.0]  # claimed, then the wait


def test_a_timeout_whose_legal_actions_keep_failing_logs_once_per_turn_and_moves_the_deadline_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    config = SessionConfig(time=TimeControl(turn=5.0))
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7, config=config)
    session.handle("a", {"type": "join", "seat": 0}, 0.0)
    session.handle("b", {"type": "join", "seat": 1}, 0.0)
    game = session.game
    assert game is not None
    real = Game.legal_actions

    def legal_actions(self: Game, seat: int) -> Any:
        if self is game:
            raise RuntimeError("a plugin's legal_actions failed")
        return real(self, seat)

    monkeypatch.setattr(Game, "legal_actions", legal_actions)
    with caplog.at_level(logging.ERROR, logger="cardcore.session"):
        out = session.tick(1000.0)  # a host ticking very late: one timeout, not one per turn missed
        assert session.next_deadline() == 1005.0
        failures = [r for r in caplog.records if "legal actions of seat 0 failed" in r.getMessage()]
        assert len(failures) == 1
        assert {o.message["type"] for o in out} == {"clocks"}
        session.tick(1005.0)
        assert session.next_deadline() == 1010.0
    assert game.version == 0 and session.phase == "playing"
    replies = session.handle("b", {"type": "ping"}, 1006.0)
    assert [o.message["type"] for o in replies] == ["pong"]
