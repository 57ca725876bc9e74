"""Second review of the fixes of 2026-12-06 (fa5da5a7: web bots, simulate, rl batch;
34333ff6: examples).

The ten bugs found are pinned by tests of the right behaviour (each failed on the code
before its fix; an OSError's filename, which would write its text, is carried in the text
and its cause); each claim that held is a passing test that fails if it breaks. Everything is seeded; no sleep synchronizes.
"""

from __future__ import annotations

import asyncio
import importlib
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import cardcore
from cardcore.agents import RandomAgent
from cardcore.errors import (
    CardcoreError,
    IllegalActionError,
    OptionError,
    SeatError,
)

ROOT = Path(__file__).resolve().parent.parent
ONE = {"rounds": 1}


# -- simulate: an agent's own CardcoreError, named -------------------------------------------


@pytest.fixture
def failing_agent() -> Iterator[Callable[[BaseException], str]]:
    """Register an agent raising the given error at its first decision; yield the registrar."""
    names: list[str] = []

    def register(error: BaseException) -> str:
        class Fails(RandomAgent):
            def choose(self, view: Any, legal: Any) -> Any:
                raise error

        name = f"review2-fails-{len(names)}"
        cardcore.register("cardcore.agents", name, Fails)
        names.append(name)
        return name

    yield register
    for name in names:
        cardcore.unregister("cardcore.agents", name)


def _simulate_error(agent: str) -> CardcoreError:
    with pytest.raises(CardcoreError) as info:
        cardcore.simulate("golf", games=1, players=2, agents=[agent, "random"], options=ONE)
    return info.value


class ModelMissing(CardcoreError):
    """An agent's own error whose constructor builds its message from its argument."""

    def __init__(self, path: str) -> None:
        super().__init__(f"no model at {path}")
        self.path = path


class Tagged(CardcoreError):
    """An agent's own error carrying data in a keyword argument (as PluginError does)."""

    def __init__(self, msg: str, *, code: int | None = None) -> None:
        super().__init__(msg)
        self.code = code


def test_simulate_names_an_agents_option_error_keeping_its_class_and_rule(
    failing_agent: Callable[[BaseException], str],
) -> None:
    original = OptionError("no such option (CORE-OPT-1)")
    error = _simulate_error(failing_agent(original))
    assert type(error) is OptionError
    assert re.fullmatch(r"in golf game 0 \(seed \d+\): no such option \(CORE-OPT-1\)", str(error))
    assert error.rule_id == "CORE-OPT-1"
    # the agent's own error, renamed (or a copy raised from it): the traceback reaches the agent
    assert error is original or error.__cause__ is original


def test_simulate_keeps_an_illegal_actions_data_and_cites_its_rule_once(
    failing_agent: Callable[[BaseException], str],
) -> None:
    original = IllegalActionError("bad move (GOLF-X-1)", action="flip 9", rule_id="GOLF-X-1")
    error = _simulate_error(failing_agent(original))
    assert isinstance(error, IllegalActionError)
    assert (error.action, error.rule_id) == ("flip 9", "GOLF-X-1")
    assert str(error).count("GOLF-X-1") == 1, str(error)


def test_simulate_names_an_agents_error_whose_constructor_writes_its_message(
    failing_agent: Callable[[BaseException], str],
) -> None:
    error = _simulate_error(failing_agent(ModelMissing("m.bin")))
    assert re.fullmatch(r"in golf game 0 \(seed \d+\): no model at m\.bin", str(error)), str(error)
    assert getattr(error, "path", "m.bin") == "m.bin"


def test_simulate_keeps_the_data_of_an_agents_own_cardcore_error(
    failing_agent: Callable[[BaseException], str],
) -> None:
    error = _simulate_error(failing_agent(Tagged("boom", code=7)))
    assert type(error) is Tagged
    assert error.code == 7


def test_simulate_keeps_the_class_of_an_agents_seat_error(
    failing_agent: Callable[[BaseException], str],
) -> None:
    original = SeatError("seat 9 is not a seat (CORE-SEAT-1)", action="x", rule_id="CORE-SEAT-1")
    error = _simulate_error(failing_agent(original))
    assert type(error) is SeatError, repr(error)
    assert error.rule_id == "CORE-SEAT-1"


# -- rl: BatchEnv._failed ----------------------------------------------------------------------


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


def _batch() -> Any:
    _rl()
    from cardcore.rl import vector_env

    envs = vector_env("golf", 2, options=ONE, opponents="golf-greedy")
    envs.reset(seed=1)
    return envs


def _batch_error(error: BaseException) -> BaseException:
    """The error a 2-game batch step raises when game 1's observation raises *error*."""
    envs = _batch()
    undo = _failing_once(envs.config.encoding, "observe", error, after=1)  # game 0's passes
    try:
        envs.step([10, 10])
    except BaseException as exc:
        return exc
    finally:
        undo()
    raise AssertionError("the step did not fail")  # pragma: no cover


class SlotError(Exception):
    """An error class keeping its data in a slot (not in __dict__)."""

    __slots__ = ("code",)

    def __init__(self, msg: str, code: int) -> None:
        super().__init__(msg)
        self.code = code


class OwnNew(Exception):
    """An error class with a __new__ of its own, taking two arguments."""

    def __new__(cls, path: str, why: str) -> OwnNew:
        return super().__new__(cls, path, why)

    def __init__(self, path: str, why: str) -> None:
        super().__init__(f"{path}: {why}")


def test_rl_batch_a_reset_clears_the_games_a_failed_step_marked() -> None:
    np = _rl()
    envs = _batch()
    undo = _failing_once(envs.runners[1].match, "act", cardcore.PluginError("hook failed"))
    with pytest.raises(cardcore.PluginError, match="game 0 had moved"):
        envs.step([10, 10])
    undo()
    assert envs.runners[0]._failed is not None and envs.runners[1]._failed is None
    with pytest.raises(IllegalActionError, match="lost when game 1 failed"):
        envs.step([11, 10])
    obs, _ = envs.reset(seed=1)
    assert [r._failed for r in envs.runners] == [None, None]
    envs.step([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
    assert [r.match.game.version > 0 for r in envs.runners] == [True, True]


def test_rl_batch_keeps_the_class_and_dict_attributes_of_a_two_argument_error() -> None:
    class WithPath(Exception):
        def __init__(self, path: str, why: str) -> None:
            super().__init__(f"{path}: {why}")
            self.path = path

    error = _batch_error(WithPath("model.bin", "missing"))
    assert type(error) is WithPath
    assert error.path == "model.bin"  # type: ignore[attr-defined]
    assert str(error).startswith("game 1 of 2: model.bin: missing [")


def test_rl_batch_keeps_an_os_errors_errno_and_filename() -> None:
    error = _batch_error(FileNotFoundError(2, "No such file", "model.bin"))
    assert isinstance(error, FileNotFoundError)
    # its errno kept; its filename would write the error's text itself (without the game),
    # so the text carries it instead, and the original (with it) is the error's cause
    assert error.errno == 2 and "model.bin" in str(error) and str(error).startswith("game 1 of 2")
    assert (
        isinstance(error.__cause__, FileNotFoundError) and error.__cause__.filename == "model.bin"
    )


def test_rl_batch_keeps_an_errors_slot_attributes() -> None:
    error = _batch_error(SlotError("bad", 7))
    assert type(error) is SlotError
    assert error.code == 7  # type: ignore[attr-defined]


def test_rl_batch_keeps_the_class_of_a_key_error() -> None:
    error = _batch_error(KeyError("card"))
    assert isinstance(error, KeyError), repr(error)
    assert "game 1 of 2" in str(error)


def test_rl_batch_keeps_the_class_of_an_error_with_its_own_new() -> None:
    error = _batch_error(OwnNew("model.bin", "missing"))
    assert isinstance(error, OwnNew), repr(error)
    assert str(error).startswith("game 1 of 2")


def test_rl_batch_an_interrupted_step_leaves_the_games_it_moved_needing_reset() -> None:
    envs = _batch()
    # Ctrl-C in game 1 before its action applied (game 1 unmoved, so not marked itself)
    undo = _failing_once(envs.runners[1].match, "act", KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        envs.step([10, 10])
    undo()
    moved = envs.runners[0].match.game.version
    assert moved > 0 and envs.runners[1].match.game.version == 0
    with pytest.raises(IllegalActionError, match="reset"):
        envs.step([11, 11])
    assert envs.runners[0].match.game.version == moved


# -- web bots --------------------------------------------------------------------------------


def _bots() -> Any:
    pytest.importorskip("starlette")
    from cardcore.web import _bots

    return _bots


def test_web_poke_cancels_a_pending_retry_and_thinks_once() -> None:
    bots = _bots()
    server = SimpleNamespace(hub=SimpleNamespace(sessions={}))  # no session: _decide returns

    async def main() -> tuple[bool, Any, bool]:
        bot = bots.Bot(server, "s", 0, "random", {}, RandomAgent())
        loop = asyncio.get_running_loop()
        fired: list[int] = []
        handle = bot._retry = loop.call_later(60, fired.append, 1)
        bot.poke()
        thinking = bot.thinking
        await thinking
        return handle.cancelled(), bot._retry, thinking.done() and not fired

    cancelled, retry, thought = asyncio.run(main())
    assert cancelled and retry is None and thought


def test_web_a_failed_decision_arms_one_retry_that_a_poke_replaces() -> None:
    bots = _bots()
    server = SimpleNamespace(hub=SimpleNamespace(sessions={}))

    async def main() -> list[Any]:
        bot = bots.Bot(server, "s", 0, "random", {}, RandomAgent())

        async def fail() -> None:
            raise ValueError("agent failed")

        bot._decide = fail
        bot.poke()
        await bot.thinking
        first = bot._retry
        bot.poke()  # the game changed: the retry is not needed
        await bot.thinking
        second = bot._retry
        bot.stop()
        return [first is not None, first.cancelled(), second is not first, second.cancelled()]

    logger = bots.LOG
    level, logger.disabled = logger.disabled, True
    try:
        assert asyncio.run(main()) == [True, True, True, True]
    finally:
        logger.disabled = level


def test_web_an_agents_stop_iteration_is_chained_to_its_runtime_error() -> None:
    bots = _bots()

    def decide() -> Any:
        return next(iter(()))

    async def main() -> BaseException | None:
        future = bots._in_thread(decide)
        await asyncio.wait([future])
        return future.exception()

    error = asyncio.run(main())
    assert isinstance(error, RuntimeError)
    assert isinstance(error.__cause__, StopIteration)


def test_web_an_agents_stop_iteration_settles_its_decision_as_a_runtime_error() -> None:
    bots = _bots()

    def decide() -> Any:
        raise StopIteration("empty")

    async def main() -> BaseException | None:
        future = bots._in_thread(decide)
        await asyncio.wait_for(asyncio.wait([future]), 30)  # (a bound: "never")
        return future.exception()

    error = asyncio.run(main())
    assert type(error) is RuntimeError and "StopIteration: empty" in str(error)


def test_web_an_agent_calling_sys_exit_does_not_stop_the_loop() -> None:
    bots = _bots()

    async def main() -> str:
        try:
            await bots._in_thread(sys.exit, 3)
        except Exception:  # as Bot._think catches
            return "failed decision"
        return "answered"  # pragma: no cover

    try:
        outcome = asyncio.run(main())
    except SystemExit:
        outcome = "the loop stopped"
    assert outcome == "failed decision"


# -- examples ---------------------------------------------------------------------------------


def _example(name: str) -> Any:
    where = str(ROOT / "examples")
    sys.path.insert(0, where)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(where)


@pytest.mark.parametrize("seat", [True, "0", 0.0, -1, -2])
def test_server_refuses_a_seat_that_is_no_players_and_changes_nothing(seat: Any) -> None:
    srv = _example("turn_based_server").TableServer()
    srv.open("g", "golf", ["Ann", "Bob"], options=ONE, seed=3)
    game = srv.tables["g"]
    text = game.view(0)["legal"][0]
    reply = srv.handle("g", seat, text, seen=game.version)
    assert reply == {"ok": False, "error": f"{seat!r} is not a player's seat"}
    assert game.version == 0
    assert srv.handle("g", 0, text, seen=0)["ok"] is True


def test_server_a_seat_past_the_players_is_a_reply_not_a_crash() -> None:
    srv = _example("turn_based_server").TableServer()
    srv.open("g", "golf", ["Ann", "Bob"], options=ONE, seed=3)
    reply = srv.handle("g", 2, "draw")
    assert reply["ok"] is False and reply["rule"] == "CORE-SEAT-1"
    assert srv.tables["g"].version == 0


def test_docs_literalincludes_of_the_examples_name_functions_that_exist() -> None:
    docs = (ROOT / "docs" / "examples.rst").read_text(encoding="utf-8")
    found = re.findall(
        r"literalinclude:: \.\./examples/(\w+)\.py\n(?:\s+:\w+:.*\n)*?\s+:pyobject: (\S+)", docs
    )
    assert ("turn_based_server", "TableServer.handle") in found
    assert ("realtime_threads", "player") in found
    for module, obj in found:
        target: Any = _example(module)
        for part in obj.split("."):
            target = getattr(target, part)
        assert callable(target)
    assert "refuses anything but a player's seat" in re.sub(r"\s+", " ", docs)


def test_realtime_demo_leaves_a_game_under_way_that_replays() -> None:
    rt = _example("realtime_threads")
    game = cardcore.new_game("spit", ["Ann", "Bob"], seed=2024)
    assert rt.demonstrate_stale(game) is True
    assert not game.is_over
    assert game.legal_actions(0) or game.legal_actions(1)
    replayed = cardcore.replay(game.record())
    assert replayed.version == game.version and replayed.view(0) == game.view(0)


def test_realtime_main_with_a_game_over_before_the_threads_start_still_reports(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rt = _example("realtime_threads")

    def ended(game: cardcore.Game) -> bool:
        game.apply(cardcore.EndMatch())
        return False

    monkeypatch.setattr(rt, "demonstrate_stale", ended)
    rt.main("spit")
    out = capsys.readouterr().out
    assert "applied: seat 0 0, seat 1 0; stale rejections handled: 0" in out
    assert out.rstrip().endswith("ok")
