"""Read review of the session hosts: AsyncHost, the Mirror, diff/apply_patch, ``cardcore serve``."""

from __future__ import annotations

import asyncio
import copy
import json
import random
import socket
from typing import Any

import pytest

from cardcore.cli import main
from cardcore.cli.serve import bind
from cardcore.errors import ArgumentError, CorruptStateError
from cardcore.session import Mirror, Outbound, Session, SessionConfig, apply_patch, diff
from cardcore.session.aio import AsyncHost
from cardcore.session.client import StreamGapError

# ---------------------------------------------------------------- diff / apply_patch


def _canon(x: Any) -> str:
    return json.dumps(x, sort_keys=True)


def _val(rng: random.Random, depth: int = 0) -> Any:
    r = rng.random()
    if depth > 3 or r < 0.5:
        return rng.choice(
            [None, True, False, 0, 1, -1, 1.0, 0.0, -0.0, 2.5, "", "a", "é", "1", [], {}]
        )
    if r < 0.75:
        return [_val(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {
        rng.choice(["a", "b", "é", "", "1", "ü"]): _val(rng, depth + 1)
        for _ in range(rng.randrange(4))
    }


def _mutate(rng: random.Random, v: Any) -> Any:
    if rng.random() < 0.3:
        return _val(rng)
    if type(v) is list:
        v = list(v)
        if v and rng.random() < 0.7:
            i = rng.randrange(len(v))
            v[i] = _mutate(rng, v[i])
        elif rng.random() < 0.5:
            v.append(_val(rng))
        elif v:
            v.pop()
        return v
    if type(v) is dict:
        v = dict(v)
        k = rng.choice(["a", "b", "é", "", "1", "ü"])
        if k in v and rng.random() < 0.6:
            v[k] = _mutate(rng, v[k])
        elif k in v:
            del v[k]
        else:
            v[k] = _val(rng)
        return v
    return _val(rng)


def test_diff_then_apply_round_trips_random_json_pairs_type_exactly() -> None:
    rng = random.Random(20261207)
    for _ in range(3000):
        old = _val(rng)
        new = _mutate(rng, old)
        for _ in range(rng.randrange(3)):
            new = _mutate(rng, new)
        before = copy.deepcopy(old)
        ops = diff(old, new)
        assert _canon(old) == _canon(before)  # diff changes nothing
        assert _canon(apply_patch(old, ops)) == _canon(new)
        # through JSON, as a client gets it
        wire = json.loads(json.dumps(ops))
        assert _canon(apply_patch(json.loads(json.dumps(old)), wire)) == _canon(new)
        assert _canon(old) == _canon(before)  # apply_patch does not change doc


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"a": 1}, {"a": True}),
        ({"a": 1}, {"a": 1.0}),
        ({"a": [0.0]}, {"a": [-0.0]}),
        ([1, True], [True, 1]),
        ({"a": {"é": None}}, {"a": {"é": False}}),
        ([1, 2, 3], [1, 2]),
        (None, {"x": [1]}),
        ({"x": [1, {"y": 2}]}, {"x": [1, {"y": 2, "z": "ü"}]}),
    ],
)
def test_diff_tells_json_types_apart(old: Any, new: Any) -> None:
    got = apply_patch(old, diff(old, new))
    assert _canon(got) == _canon(new)
    assert json.dumps(got) == json.dumps(new)


def test_patch_module_docstring_example_and_list_rule() -> None:
    old = {"a": 1, "b": [1, 2], "c": 3}
    new = {"a": 1, "b": [1, 5], "d": 4}
    assert diff(old, new) == [["del", ["c"]], ["set", ["b", 1], 5], ["set", ["d"], 4]]
    # at most half the items changed: item by item; more: the list whole; another length: whole
    assert diff([1, 2, 3, 4], [9, 2, 3, 8]) == [["set", [0], 9], ["set", [3], 8]]
    assert diff([1, 2, 3, 4], [9, 7, 3, 8]) == [["set", [], [9, 7, 3, 8]]]
    assert diff({"l": [1]}, {"l": [1, 2]}) == [["set", ["l"], [1, 2]]]
    assert diff({"a": [1]}, {"a": [1]}) == []


@pytest.mark.parametrize(
    "ops",
    [
        "set",
        None,
        [["set"]],
        [["put", ["a"], 1]],
        [["set", "a", 1]],
        [["del", ["zz"]]],
        [["del", ["l", 0]]],
        [["set", ["l", 5], 1]],
        [["set", ["l", -1], 1]],
        [["set", ["l", True], 1]],
        [["set", ["a", "b"], 1]],
        [["set", [1], 1]],
        [["set", ["a"]]],
        [["del", []]],
        [["set", [["x"]], 1]],
    ],
)
def test_apply_patch_refuses_a_patch_that_does_not_fit_with_corrupt_state_error(ops: Any) -> None:
    doc = {"a": 1, "l": [1, 2]}
    with pytest.raises(CorruptStateError):
        apply_patch(doc, ops)
    assert doc == {"a": 1, "l": [1, 2]}


# ---------------------------------------------------------------- Mirror


def _view(n: int, version: int, view: Any) -> dict[str, Any]:
    return {"type": "view", "n": n, "version": version, "view": view}


def _update(n: int, version: int, patch: Any) -> dict[str, Any]:
    return {
        "type": "update",
        "n": n,
        "version": version,
        "patch": patch,
        "events": [],
        "action": {},
    }


def _mirror() -> Mirror:
    m = Mirror()
    m.feed(_view(1, 1, {"a": 1, "l": [1, 2]}))
    return m


def _state(m: Mirror) -> Any:
    return (copy.deepcopy(m.view), m.version, m.last, list(m.events), list(m.actions), m.phase)


def test_mirror_applies_a_view_and_an_update_and_keeps_its_own_copy() -> None:
    message = _view(1, 1, {"a": [1]})
    m = Mirror()
    m.feed(message)
    message["view"]["a"].append(2)
    assert m.view == {"a": [1]}
    m.feed(_update(2, 3, [["set", ["b"], True]]))  # an update may skip versions
    assert m.view == {"a": [1], "b": True} and m.version == 3 and m.last == 2


def test_mirror_ignores_repeats_and_lower_views_and_refuses_gaps_changing_nothing() -> None:
    m = _mirror()
    m.feed(_update(2, 2, [["set", ["a"], 2]]))
    before = _state(m)
    m.feed(_update(2, 2, [["set", ["a"], 99]]))  # twice: already applied
    m.feed(_view(1, 9, {"other": 1}))  # a view numbered below its own: ignored
    assert _state(m) == before
    with pytest.raises(StreamGapError):
        m.feed(_update(4, 3, [["set", ["a"], 3]]))
    with pytest.raises(StreamGapError):
        m.feed(_update(3, 2, [["set", ["a"], 3]]))  # not a later version
    assert _state(m) == before


@pytest.mark.parametrize(
    "message",
    [
        "text",
        ["view"],
        _view(2, 2, [1]),
        _view(2, True, {}),
        _view(2.0, 2, {}),
        _update(2, 2, [["del", ["l", 0]]]),
        _update(2, 2, [["set", ["zz", "q"], 1]]),
        _update(2, 2, "patch"),
        {"type": "update", "n": 2, "version": 2, "patch": [], "events": {}, "action": {}},
        {"type": "welcome", "session": 5, "seat": None, "phase": "waiting"},
    ],
)
def test_mirror_refuses_a_malformed_message_with_corrupt_state_error_and_changes_nothing(
    message: Any,
) -> None:
    m = _mirror()
    before = _state(m)
    with pytest.raises(CorruptStateError):
        m.feed(message)
    assert _state(m) == before


@pytest.mark.parametrize("kind", [[], {}, ["view"]])
def test_mirror_refuses_an_unhashable_type_with_corrupt_state_error(kind: Any) -> None:
    m = _mirror()
    with pytest.raises(CorruptStateError):
        m.feed({"type": kind, "n": 2})


@pytest.mark.parametrize("value", [5, "text", [1, 2], True])
def test_mirror_refuses_an_update_that_makes_the_view_no_object(value: Any) -> None:
    m = _mirror()
    before = _state(m)
    with pytest.raises(CorruptStateError):
        m.feed(_update(2, 2, [["set", [], value]]))
    assert _state(m) == before


# ---------------------------------------------------------------- AsyncHost


def _session() -> Session:
    return Session.create("golf", 2, now=0.0, seed=4, config=SessionConfig())


def test_a_reader_dropped_as_too_slow_costs_another_connection_no_message() -> None:
    async def scenario() -> None:
        session = _session()
        host = AsyncHost(session)
        slow = host.connect("slow")
        fast = host.connect("fast")
        await slow.send({"type": "watch"})
        await fast.send({"type": "watch"})
        while fast.queued:
            await fast.__anext__()
        got = []
        for i in range(300):  # one batch per round: the slow one overflows mid-way
            host.deliver(
                [
                    Outbound("slow", {"type": "pong"}, "s" * 8000),
                    Outbound("fast", {"type": "pong"}, f"f{i}"),
                ]
            )
            while fast.queued:
                got.append(await fast.__anext__())
        got = [t for t in got if t.startswith("f")]
        assert got == [f"f{i}" for i in range(300)]
        assert slow.closed and slow.too_slow and "slow" not in session.conns
        assert not fast.closed and "fast" in session.conns
        await fast.close()
        assert fast.ended.is_set()

    asyncio.run(scenario())


def test_close_ends_the_iterator_after_what_was_queued_and_send_after_it_is_ignored() -> None:
    async def scenario() -> None:
        session = _session()
        host = AsyncHost(session)
        conn = host.connect("w")
        await conn.send({"type": "watch"})
        host.deliver(
            [Outbound("w", {"type": "pong"}, "one"), Outbound("w", {"type": "pong"}, "two")]
        )
        await conn.close()
        texts = [t async for t in conn]
        assert texts[-2:] == ["one", "two"]
        assert conn.closed and not conn.too_slow and "w" not in session.conns
        assert "w" not in host.connections
        await conn.send({"type": "watch"})  # closed: nothing
        assert "w" not in session.conns
        again = host.connect("w")  # the id is free again
        await again.close()

    asyncio.run(scenario())


def test_an_ended_iterator_stays_ended() -> None:
    async def scenario() -> None:
        host = AsyncHost(_session())
        conn = host.connect()
        await conn.close()
        assert [t async for t in conn] == []
        with pytest.raises(StopAsyncIteration):
            await asyncio.wait_for(conn.__anext__(), 0.5)

    asyncio.run(scenario())


def test_connect_refuses_an_open_id_or_a_non_text_id() -> None:
    async def scenario() -> None:
        host = AsyncHost(_session())
        conn = host.connect("x")
        with pytest.raises(ArgumentError):
            host.connect("x")
        with pytest.raises(ArgumentError):
            host.connect(5)  # type: ignore[arg-type]
        fresh = host.connect()
        assert fresh.id != "x" and fresh.id in host.connections
        await conn.close()
        await fresh.close()
        assert host.connections == {}

    asyncio.run(scenario())


def test_stop_called_before_the_run_task_starts_ends_it() -> None:
    async def scenario() -> None:
        host = AsyncHost(_session())
        task = asyncio.create_task(host.run())
        host.stop()
        await asyncio.wait_for(task, 5)
        assert task.done() and task.exception() is None

    asyncio.run(scenario())


# ---------------------------------------------------------------- cardcore serve


def _one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.mark.parametrize("port", ["x", "-1", "65536", "1_0", "８０", "", "99999999999999999999"])
def test_serve_refuses_a_bad_port_in_one_line_with_status_2(
    port: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--port", port]) == 2
    assert "port" in _one_error_line(capsys)


@pytest.mark.parametrize("delay", ["-1", "61", "nan", "inf", "x"])
def test_serve_refuses_a_bad_bot_delay_with_status_2(
    delay: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--bot-delay", delay]) == 2
    _one_error_line(capsys)


def test_serve_refuses_a_port_in_use_and_a_bad_host_with_status_2(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    taken = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        db = str(tmp_path / "a.db")
        assert main(["serve", "--db", db, "--host", "127.0.0.1", "--port", str(port)]) == 2
        assert "cannot listen" in _one_error_line(capsys)
    finally:
        taken.close()
    assert main(["serve", "--db", str(tmp_path / "b.db"), "--host", "no.such.host.invalid"]) == 2
    assert "cannot listen on host" in _one_error_line(capsys)


def test_serve_refuses_a_directory_as_db_and_a_second_server_on_one_db(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--db", str(tmp_path)]) == 2
    _one_error_line(capsys)
    from cardcore.cli.serve import _hold

    db = str(tmp_path / "held.db")
    fd = _hold(db)
    assert fd is not None
    try:
        # the lock is per open file description: a second one in this process is refused too
        assert main(["serve", "--db", db]) == 2
        assert "in use" in _one_error_line(capsys)
    finally:
        import os

        os.close(fd)


@pytest.mark.parametrize("host", ["a\x00b", "x" * 300, "\udcff"])
def test_bind_refuses_a_bad_host_as_usage_error(host: str) -> None:
    from cardcore.cli.args import UsageError

    with pytest.raises(UsageError):
        bind(host, 0).close()


def test_serve_refuses_a_db_path_with_nul_with_status_2(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["serve", "--db", str(tmp_path / "a\x00b.db")])
    _one_error_line(capsys)
    assert status == 2


def test_a_golf_game_played_through_async_host_adds_up_in_each_mirror() -> None:
    async def scenario() -> None:
        session = _session()
        host = AsyncHost(session, clock=lambda: 0.0)
        conns = [host.connect(f"p{i}") for i in range(2)]
        mirrors = [Mirror() for _ in conns]

        async def drain(i: int) -> None:
            while conns[i].queued:
                mirrors[i].feed(json.loads(await conns[i].__anext__()))

        for i, conn in enumerate(conns):
            await conn.send({"type": "join", "seat": i})
        for i in range(2):
            await drain(i)
        rng = random.Random(3)
        for _ in range(60):
            game = session.game
            assert game is not None
            if game.is_over:
                break
            seat = game.to_act[0]
            legal = mirrors[seat].view["legal"]  # type: ignore[index]
            await conns[seat].send(
                {"type": "act", "action": rng.choice(legal), "seen": mirrors[seat].version}
            )
            for i in range(2):
                await drain(i)
                assert not mirrors[i].errors
                assert mirrors[i].version == game.version
                assert mirrors[i].view == json.loads(json.dumps(game.view(i)))
        assert session.game is not None and session.game.version >= 10  # it was played
        for conn in conns:
            await conn.close()
        assert host.connections == {}

    asyncio.run(scenario())


class _BadPath:
    def __fspath__(self) -> Any:
        return 5


def test_webserver_refuses_a_path_object_that_is_no_path_with_store_error() -> None:
    from cardcore.session.sqlite import StoreError
    from cardcore.web.app import WebServer

    with pytest.raises(StoreError):
        WebServer(_BadPath())
