"""A review of three fixes of 2026-12-06 (the web server's bots, simulate/compare, rl).

b7b7c6a9 (web bots), 5d24e5bf (simulate and compare), 843032a9 (rl environments). The six
bugs found are pinned by tests of the right behaviour (each failed on the code before its
fix); each claim that held is a passing test that fails if it breaks. No sleep synchronizes anything: a test joins the thread or
awaits the task it waits for (a bound, where there is one, only says "never").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from typing import Any

import pytest

import cardcore
from cardcore import cli
from cardcore.agents import RandomAgent
from cardcore.errors import ArgumentError, CardcoreError, IllegalActionError, PluginError
from cardcore.simulate import _seed_of

BOUND = 5.0
"""Seconds a test waits for what must happen at once (only a bug reaches it)."""

ONE = {"rounds": 1}


# -- web: the bots --------------------------------------------------------------------------


class FirstAgent:
    """Plays the first legal action, at once."""

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]

    def plan(self, view: Any, legal: Any, now: float) -> Any:
        return None


class AlwaysFails(FirstAgent):
    """Raises at every decision (a model that cannot load, say)."""

    calls = 0

    def choose(self, view: Any, legal: Any) -> Any:
        type(self).calls += 1
        msg = "always fails"
        raise RuntimeError(msg)


@pytest.fixture
def web_agents() -> Iterator[None]:
    pytest.importorskip("starlette")
    names = {"review-fix-first": FirstAgent, "review-fix-fails": AlwaysFails}
    for name, cls in names.items():
        cardcore.register("cardcore.agents", name, cls)
    AlwaysFails.calls = 0
    try:
        yield
    finally:
        for name in names:
            cardcore.unregister("cardcore.agents", name)


def _join_person(server: Any, sid: str, seat: int) -> None:
    """A person takes *seat* (as a socket's ``join`` does): the game is dealt."""
    host = server.host
    conn = host.connect(f"person-{seat}")
    host.deliver(
        server.hub.handle(conn.id, {"type": "join", "session": sid, "seat": seat}, host.clock())
    )


def _run_server(body: Callable[[Any], Any], db: str | None = None) -> Any:
    """Run *body(server)* (a coroutine function) on a started server, stopped after."""
    from cardcore.web import WebServer

    async def main() -> Any:
        server = WebServer(db, bot_delay=0.0, bot_pace=0.05)
        await server.start()
        try:
            return await body(server)
        finally:
            await server.stop()

    return asyncio.run(main())


async def _failing_bot_pokes(server: Any, times: int) -> tuple[Any, list[asyncio.TimerHandle]]:
    """A bot whose agent always fails, its reader stopped, poked *times* times (each decision
    failing and asking again later); the retry timers it set."""
    from cardcore.web._bots import Bot

    seats = [{"name": "Bot", "agent": "review-fix-fails"}, {"name": "Ann"}]
    sid = server.create({"game": "golf", "seats": seats})["session"]
    (bot,) = server.bots[sid]
    assert bot.task is not None
    bot.task.cancel()  # (before it ever ran: only the test pokes this bot)
    _join_person(server, sid, 1)
    game = server.hub.sessions[sid].game
    assert game is not None and 0 in game.to_act
    loop = asyncio.get_running_loop()
    real = loop.call_later
    retries: list[asyncio.TimerHandle] = []

    def spy(delay: float, callback: Any, *args: Any, **kw: Any) -> asyncio.TimerHandle:
        handle = real(delay, callback, *args, **kw)
        if getattr(callback, "__func__", None) is Bot.poke:
            retries.append(handle)
        return handle

    loop.call_later = spy  # type: ignore[method-assign]
    try:
        for _ in range(times):
            bot.poke()
            assert bot.thinking is not None
            await asyncio.wait({bot.thinking})
    finally:
        del loop.call_later
    assert AlwaysFails.calls == times
    assert len(retries) == times
    return bot, retries


def test_web_a_failed_decision_is_asked_again_and_stop_cancels_the_retry(web_agents: None) -> None:
    async def body(server: Any) -> list[bool]:
        bot, retries = await _failing_bot_pokes(server, 1)
        assert 0.4 <= retries[0].when() - asyncio.get_running_loop().time() <= 0.5
        bot.stop()
        return [h.cancelled() for h in retries]

    assert _run_server(body) == [True]


def test_web_stop_cancels_every_retry_of_a_bot_that_failed_twice(web_agents: None) -> None:
    async def body(server: Any) -> list[bool]:
        bot, retries = await _failing_bot_pokes(server, 2)
        bot.stop()
        return [h.cancelled() for h in retries]

    assert _run_server(body) == [True, True]


def test_web_finished_game_retires_its_bot_and_the_lobby_still_names_it(
    web_agents: None, tmp_path: Any
) -> None:
    db = str(tmp_path / "web.db")

    async def body(server: Any) -> str:
        seats = [{"name": "Ann"}, {"name": "Bot", "agent": "review-fix-first:"}]
        sid = server.create({"game": "golf", "seats": seats})["session"]
        _join_person(server, sid, 0)
        session = server.hub.sessions[sid]
        (bot,) = server.bots[sid]
        server.host.deliver(session.end(server.host.clock()))
        assert session.phase == "over"
        await asyncio.wait({bot.task}, timeout=BOUND)
        assert bot.task.done()
        assert sid not in server.bots and server.done_bots[sid] == {1: "review-fix-first:"}
        assert f"bot-{sid}-1" not in server.host.connections
        seat = server.describe(session)["seats"][1]
        assert (seat["bot"], seat["link"]) == ("review-fix-first", None)
        return str(sid)

    sid = _run_server(body, db)

    async def again(server: Any) -> dict[str, Any]:  # a restart: shown from the stored row
        assert sid not in server.bots
        described: dict[str, Any] = server.describe(server.hub.sessions[sid])
        return described

    seats = _run_server(again, db)["seats"]
    assert [(s["bot"], s["link"] is None) for s in seats] == [
        (None, False),
        ("review-fix-first", True),
    ]


def _new_threads(before: set[threading.Thread]) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t not in before]


def test_web_a_decision_runs_in_a_daemon_thread_of_its_own_and_its_error_comes_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("starlette")
    from cardcore.web._bots import _in_thread

    gate = threading.Event()

    def decide(x: int) -> int:
        gate.wait(BOUND)
        if x < 0:
            msg = "negative"
            raise ValueError(msg)
        return x * 2

    async def main() -> tuple[int, BaseException | None, list[tuple[bool, str]]]:
        loop = asyncio.get_running_loop()
        monkeypatch.setattr(loop, "run_in_executor", None)  # never the loop's pool
        before = set(threading.enumerate())
        good, bad = _in_thread(decide, 4), _in_thread(decide, -1)
        threads = [(t.daemon, t.name) for t in _new_threads(before)]
        gate.set()
        await asyncio.wait({good, bad})
        return good.result(), bad.exception(), threads

    answer, error, threads = asyncio.run(main())
    assert answer == 8
    assert isinstance(error, ValueError)
    assert threads == [(True, "cardcore-bot"), (True, "cardcore-bot")]


def test_web_a_decision_ending_after_its_loop_closed_raises_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("starlette")
    from cardcore.web._bots import _in_thread

    gate = threading.Event()
    hooked: list[Any] = []
    monkeypatch.setattr(threading, "excepthook", hooked.append)
    loop = asyncio.new_event_loop()
    before = set(threading.enumerate())

    async def start() -> asyncio.Future[Any]:
        return _in_thread(lambda: gate.wait(BOUND))

    loop.run_until_complete(start())
    (thread,) = _new_threads(before)
    loop.close()
    gate.set()
    thread.join(BOUND)
    assert not thread.is_alive()
    assert hooked == []


def test_web_an_agent_raising_stop_iteration_is_a_failed_decision() -> None:
    pytest.importorskip("starlette")
    from cardcore.web._bots import _in_thread

    def decide() -> Any:
        return next(iter(()))

    async def main() -> tuple[bool, Any]:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, _ctx: None)  # (the TypeError of the bug)
        before = set(threading.enumerate())
        future = _in_thread(decide)
        for thread in _new_threads(before):
            thread.join(BOUND)
        for _ in range(3):  # the thread's call_soon_threadsafe ran before these return
            await asyncio.sleep(0)
        return future.done(), future.done() and future.exception()

    done, error = asyncio.run(main())
    assert done
    assert isinstance(error, Exception)


def test_web_bot_rows_logs_a_failing_write_and_raises_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pytest.importorskip("starlette")
    from cardcore.web._bots import bot_rows

    class Locked:
        def execute(self, sql: str, row: tuple[Any, ...]) -> None:
            msg = "database is locked"
            raise sqlite3.OperationalError(msg)

    bot_rows(None, "DELETE FROM web_bots WHERE session = ?", ("s",))  # no db: nothing
    with caplog.at_level(logging.ERROR, logger="cardcore.web"):
        bot_rows(Locked(), "DELETE FROM web_bots WHERE session = ?", ("s",))
    assert "bots table" in caplog.text and "database is locked" in caplog.text


# -- simulate and compare -------------------------------------------------------------------

FAIL_GAME = 3
FAIL_GAME_SEED = _seed_of(0, FAIL_GAME)
FAIL_AGENT_SEED = _seed_of(FAIL_GAME_SEED, 1000)  # seat 0 of game 3 of study seed 0


class RefusesAtGame3(RandomAgent):
    """A random agent that refuses (a CardcoreError, as built-in agents refuse an empty
    choice) in game 3 of study seed 0, seat 0."""

    def choose(self, view: Any, legal: Any) -> Any:
        if self.seed == FAIL_AGENT_SEED:
            msg = "no choice to make"
            raise ArgumentError(msg)
        return super().choose(view, legal)


@pytest.fixture
def refusing_agent() -> Iterator[str]:
    cardcore.register("cardcore.agents", "review-fix-refuses", RefusesAtGame3)
    yield "review-fix-refuses"
    cardcore.unregister("cardcore.agents", "review-fix-refuses")


def test_simulate_names_the_game_and_seed_of_an_agent_raising_a_cardcore_error(
    refusing_agent: str,
) -> None:
    with pytest.raises(CardcoreError) as info:
        cardcore.simulate(
            "golf", games=6, players=2, agents=[refusing_agent, "random"], options=ONE
        )
    assert f"game {FAIL_GAME} (seed {FAIL_GAME_SEED})" in str(info.value)


def test_compare_names_the_game_and_seed_of_an_agent_raising_a_cardcore_error(
    refusing_agent: str,
) -> None:
    with pytest.raises(CardcoreError) as info:
        cardcore.compare("golf", agents=[refusing_agent] * 2, games=6, options=ONE, skill=None)
    assert f"game {FAIL_GAME} (seed {FAIL_GAME_SEED})" in str(info.value)


class Recording(Executor):
    """Runs every task at once in order; its results come from a generator that records
    whether it was closed (and, with *fail_at*, raises there itself)."""

    def __init__(self, fail_at: int | None = None) -> None:
        self.given: list[type] = []
        self.closed = False
        self.fail_at = fail_at
        self.results: Iterator[Any] | None = None

    def map(self, fn: Callable[..., Any], *iterables: Any, **_: Any) -> Iterator[Any]:  # type: ignore[override]
        self.given = [type(it) for it in iterables]
        items = list(zip(*iterables, strict=True))

        def results() -> Iterator[Any]:
            try:
                for k, item in enumerate(items):
                    if k == self.fail_at:
                        msg = "the executor broke"
                        raise OSError(msg)
                    yield fn(*item)
            finally:
                self.closed = True

        self.results = results()  # (held here: only an explicit close() closes it)
        return self.results


def test_simulate_gives_an_executor_a_list_and_closes_its_results_when_interrupted() -> None:
    pool = Recording()

    def interrupt(done: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        cardcore.simulate(
            "golf", games=4, players=2, options=ONE, chunk=1, executor=pool, progress=interrupt
        )
    assert pool.given == [list]
    assert pool.closed


def test_simulate_and_compare_keep_the_executors_own_error() -> None:
    pool = Recording(fail_at=1)
    with pytest.raises(OSError, match="the executor broke"):
        cardcore.simulate("golf", games=4, players=2, options=ONE, chunk=1, executor=pool)
    assert pool.closed
    pool = Recording(fail_at=1)
    with pytest.raises(OSError, match="the executor broke"):
        cardcore.compare("golf", games=2, options=ONE, chunk=1, skill=None, executor=pool)
    assert pool.closed


def test_cli_json_to_stdout_without_a_terminal_writes_no_bar(
    capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("rich")
    for name in ("TTY_COMPATIBLE", "FORCE_COLOR", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    code = cli.main(["simulate", "golf", "-n", "4", "-p", "2", "-o", "rounds=1", "--json", "-"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["games"] == 4
    assert "this process" not in err  # (the bar's caption; the table goes to stderr)


# -- rl -------------------------------------------------------------------------------------


def _rl() -> Any:
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")
    return np


def _failing_once(obj: Any, name: str, error: BaseException, after: int = 0) -> Callable[[], None]:
    """Make *obj*.*name* raise *error* once, on the call after *after* good ones; return undo."""
    real = getattr(obj, name)
    calls = [0]

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == after + 1:
            raise error
        return real(*args, **kwargs)

    setattr(obj, name, wrapper)
    return lambda: setattr(obj, name, real)


class ModelMissing(Exception):
    """An exception class whose constructor takes two arguments (as many do)."""

    def __init__(self, path: str, why: str) -> None:
        super().__init__(f"{path}: {why}")
        self.path = path


def _batch_failing_in_game_1(error: BaseException) -> BaseException:
    np = _rl()
    from cardcore.rl import vector_env

    envs = vector_env("golf", 2, options=ONE)
    obs, _ = envs.reset(seed=1)
    actions = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    undo = _failing_once(envs.config.encoding, "observe", error, after=1)  # game 0's passes
    try:
        envs.step(actions)
    except BaseException as exc:  # what the batch raised, whatever it is
        return exc
    finally:
        undo()
    raise AssertionError("the step did not fail")  # pragma: no cover


def test_rl_batch_names_the_game_of_a_failure_of_a_one_argument_class() -> None:
    error = _batch_failing_in_game_1(LookupError("no such card"))
    assert type(error) is LookupError
    assert str(error).startswith("game 1 of 2: no such card"), str(error)


def test_rl_batch_keeps_the_class_of_a_failure_with_a_two_argument_constructor() -> None:
    error = _batch_failing_in_game_1(ModelMissing("model.bin", "missing"))
    assert isinstance(error, ModelMissing), repr(error)
    assert str(error).startswith("game 1 of 2"), str(error)


def test_rl_batch_names_the_game_of_an_os_error() -> None:
    error = _batch_failing_in_game_1(FileNotFoundError(2, "No such file or directory"))
    assert isinstance(error, FileNotFoundError)
    assert str(error).startswith("game 1 of 2"), str(error)


def test_rl_batch_after_a_failed_step_that_moved_games_a_step_is_refused_until_reset() -> None:
    np = _rl()
    from cardcore.rl import vector_env

    envs = vector_env("golf", 2, options=ONE, opponents="golf-greedy")
    obs, _ = envs.reset(seed=1)
    assert [list(np.flatnonzero(m)) for m in obs["action_mask"]] == [[10, 11, 12, 13, 14, 15]] * 2
    undo = _failing_once(envs.runners[1].match, "act", PluginError("a rule's hook failed"))
    with pytest.raises(PluginError, match=r"game 1 of 2: .*game 0 had moved.*call reset"):
        envs.step([10, 10])
    undo()
    moved = envs.runners[0].match.game.version
    assert moved > 0 and envs.runners[1].match.game.version == 0
    with contextlib.suppress(IllegalActionError):
        envs.step([11, 10])  # flip 1 was in game 0's last mask the learner saw
    assert envs.runners[0].match.game.version == moved, "an action on a state never observed"


def test_rl_a_reset_after_a_failed_observation_plays_normally() -> None:
    np = _rl()
    from cardcore.rl import gym_env

    env = gym_env("golf", 2, options=ONE, opponents="golf-greedy")
    env.reset(seed=1)
    undo = _failing_once(env.runner.config.encoding, "observe", RuntimeError("observe failed"))
    with pytest.raises(RuntimeError, match="observe failed"):
        env.reset(seed=2)
    undo()
    with pytest.raises(IllegalActionError, match="observation failed"):
        env.step(10)
    obs, _ = env.reset(seed=2)
    assert list(np.flatnonzero(obs["action_mask"])) == [10, 11, 12, 13, 14, 15]
    env.step(10)
    assert env.runner.match.game.version == 1


def test_rl_an_interrupted_observation_leaves_the_game_needing_reset() -> None:
    _rl()
    from cardcore.rl import gym_env

    env = gym_env("golf", 2, options=ONE, opponents="golf-greedy")
    env.reset(seed=1)
    undo = _failing_once(env.runner.config.encoding, "observe", KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        env.step(10)
    undo()
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(11)
    assert env.runner.match.game.version == 1
