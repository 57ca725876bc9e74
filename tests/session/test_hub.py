"""The hub (many sessions, one store) and the asyncio helper."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from cardcore.session import Hub, Limits, Mirror, Session, SessionConfig, SQLiteStore, TimeControl
from cardcore.session.aio import AsyncHost


def _kinds(out: list) -> list[tuple[str, str]]:
    return [(o.conn, o.message["type"]) for o in out]


def test_the_hub_routes_each_connection_to_the_session_it_joined(tmp_path: Path) -> None:
    hub = Hub(SQLiteStore(tmp_path / "s.db"))
    golf = hub.create("golf", 2, now=0.0, seed=1)
    tonk = hub.create("tonk", 2, now=0.0, seed=2)
    assert json.loads(hub.handle("x", '{"type": "act", "action": "draw", "seen": 0}', 1.0)[0].text)["code"] == "not-joined"
    assert hub.handle("x", '{"type": "join", "seat": 0}', 1.0)[0].message["code"] == "no-session"
    assert hub.handle("x", '{"type": "ping"}', 1.0)[0].message["type"] == "pong"
    for conn, session, seat in (("g0", golf, 0), ("g1", golf, 1), ("t0", tonk, 0), ("t1", tonk, 1)):
        out = hub.handle(conn, json.dumps({"type": "join", "seat": seat, "session": session.id}), 1.0)
        welcome = next(o.message for o in out if o.conn == conn)
        assert welcome["type"] == "welcome" and welcome["session"] == session.id
    assert golf.phase == tonk.phase == "playing"
    out = hub.handle("g0", json.dumps({"type": "act", "action": "flip 0", "seen": 0}), 2.0)
    assert {o.conn for o in out} <= {"g0", "g1"} and golf.game is not None and golf.game.version == 1
    assert tonk.game is not None and tonk.game.version == 0
    hub.handle("g1", '{"type": "leave"}', 3.0)
    assert hub.handle("g1", '{"type": "history"}', 3.0)[0].message["code"] == "not-joined"
    assert hub.disconnect("t0", 3.0)  # presence to t1
    assert hub.close(tonk.id, 4.0)[0].close
    assert set(hub.sessions) == {golf.id}


def test_the_hub_resumes_every_stored_session_and_ticks_them(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    hub = Hub(SQLiteStore(path))
    config = SessionConfig(time=TimeControl(turn=10.0))
    ids = []
    for seed in (1, 2, 3):
        session = hub.create("golf", 2, now=0.0, seed=seed, config=config)
        for seat in (0, 1):
            hub.handle(f"{seed}-{seat}", json.dumps({"type": "join", "seat": seat, "session": session.id}), 0.0)
        ids.append(session.id)
    again = Hub(SQLiteStore(path))
    assert again.resume_all(now=5.0) == []
    assert sorted(again.sessions) == sorted(ids)
    assert again.next_deadline() == 15.0  # 5 seconds left each, counted from the restart
    again.tick(16.0)
    assert all(s.game is not None and s.game.version == 2 for s in again.sessions.values())


def test_the_hub_limits_each_connection_before_routing() -> None:
    hub = Hub(limits=Limits(rate=1.0, burst=1, close_after=3))
    assert hub.handle("x", '{"type": "ping"}', 0.0)[0].message["type"] == "pong"
    assert hub.handle("x", '{"type": "ping"}', 0.0)[0].message["code"] == "rate-limited"
    assert hub.handle("x", '{"type": "ping"}', 0.0) == []
    assert hub.handle("x", '{"type": "ping"}', 0.0)[0].close


def test_the_asyncio_helper_gives_each_connection_its_messages() -> None:
    async def scenario() -> tuple[Mirror, Mirror, int]:
        session = Session.create("golf", 2, now=0.0, seed=4, config=SessionConfig(time=TimeControl(turn=0.05)))
        host = AsyncHost(session)
        runner = asyncio.create_task(host.run())
        a, b = host.connect("a"), host.connect("b")
        mirrors = (Mirror(), Mirror())

        async def read(conn: object, mirror: Mirror) -> None:
            async for text in conn:  # type: ignore[attr-defined]
                mirror.feed(json.loads(text))

        readers = [asyncio.create_task(read(c, m)) for c, m in zip((a, b), mirrors, strict=True)]
        await a.send({"type": "join", "seat": 0})
        await b.send(json.dumps({"type": "join", "seat": 1}))
        # nobody acts: the clocks play default actions on time (0.05 s each; 20 s at most)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        version = 0
        while version < 4 and loop.time() < deadline:
            await asyncio.sleep(0.05)
            version = session.game.version if session.game is not None else 0
        await a.close()
        await b.close()
        await asyncio.gather(*readers)
        host.stop()
        await runner
        return mirrors[0], mirrors[1], version

    first, second, version = asyncio.run(scenario())
    assert version >= 4  # both seats' setup flips, at least
    assert first.view is not None and first.version is not None and first.version >= 2
    assert second.view is not None and second.view["seat"] == 1
