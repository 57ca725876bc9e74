"""A new user's first day with cardcore (2026-12-17): the README's embedding example, a
seeded Golf and Tonk game with the built-in agents, ``cardcore serve`` with a turn clock
and the new per-client socket limit, the RL environment of docs/rl.rst, and
``cardcore play`` with piped input. Strict xfails mark what the docs promise and the
code does not do."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore

README = Path(__file__).resolve().parents[1] / "README.md"

websockets = pytest.importorskip("websockets")
pytest.importorskip("uvicorn")


# -- embedding (README, tutorial) --------------------------------------------------------------


def test_readme_embedding_example_runs_as_printed() -> None:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"## Embedding in 15 lines\n\n```python\n(.*?)```", text, re.S)
    assert block is not None
    out: list[str] = []
    exec(block.group(1), {"print": lambda *a: out.append(" ".join(map(str, a)))})
    assert out == ["winners: ['Ann'] scores: (19.0, 29.0)"]


@pytest.mark.parametrize(("game", "agent"), [("golf", "golf-greedy"), ("tonk", "tonk-heuristic")])
def test_built_in_agents_save_load_replay_and_seat_views(game: str, agent: str) -> None:
    options = {"rounds": 1} if game == "golf" else None
    g = cardcore.new_game(game, ["Ann", "Bob"], options=options, seed=3)
    result = cardcore.play(g, [cardcore.load_agent(agent)(seed=1), cardcore.RandomAgent(seed=2)])
    again = cardcore.load(json.dumps(g.save()))
    assert again.version == g.version and again.result == result
    assert cardcore.replay(g.record()).result == result
    assert g.view(1)["seat"] == 1 and g.view(1)["result"] == result.to_json()
    assert g.view(None)["legal"] == []


# -- research (docs/rl.rst) --------------------------------------------------------------------


def test_rl_spit_wait_index_as_documented() -> None:
    from cardcore.rl import gym_env

    env = gym_env("spit", 2, opponents="spit-greedy", wait=True)
    obs, _ = env.reset(seed=3)
    wait = env.action_space.n - 1
    assert env.unwrapped.runner.config.observer.names[wait] == "wait"
    assert int(obs["action_mask"][wait]) == 1
    obs, _, terminated, truncated, _ = env.step(wait)  # the opponent says ready
    names = env.unwrapped.runner.config.observer.names
    assert "ready" in [names[i] for i in obs["action_mask"].nonzero()[0]]
    assert not terminated and not truncated
    # docs: "in Spit, a learner that never says ready stalls the deal"
    _, _, terminated, truncated, info = env.step(wait)
    assert truncated and info["stalled"] is True


# -- cardcore play, piped ----------------------------------------------------------------------


def _play(args: list[str], stdin: str, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "cardcore.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env={**os.environ, "COLUMNS": "80"},
        check=True,
    )
    return done.stdout


def test_play_piped_moves_and_record(tmp_path: Path) -> None:
    out = _play(
        ["play", "golf", "--seed", "7", "-o", "rounds=1"], "flip 0\nflip 3\ndraw\n", tmp_path
    )
    assert "you: flip 0" in out and "held card: seat: Player 1, card: 3H" in out
    record = json.loads((tmp_path / "cardcore-golf-7.json").read_text())
    assert [a[1] for a in record["actions"]][:2] == ["flip 0", "flip 3"]


def test_play_record_hint_is_a_pasteable_command(tmp_path: Path) -> None:
    path = tmp_path / "my games" / "golf.json"
    path.parent.mkdir()
    out = _play(["play", "golf", "--seed", "7", "--record", str(path)], "quit\n", tmp_path)
    assert path.exists()
    assert f"cardcore replay {shlex.quote(str(path))})" in out


# -- cardcore serve ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``cardcore serve`` on a free loopback port, one socket and one game per client address."""
    db = tmp_path_factory.mktemp("serve") / "games.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARDCORE_", "FORWARDED"))}
    env |= {"CARDCORE_MAX_SOCKETS_PER_CLIENT": "1", "CARDCORE_MAX_SESSIONS_PER_CLIENT": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcore.cli", "serve", "--port", "0", "--db", str(db)],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line
        yield f"127.0.0.1:{found.group(1)}"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _post(
    base: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    req = urllib.request.Request(
        f"http://{base}/api/sessions",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"content-type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


GOLF = {
    "game": "golf",
    "seats": [{"name": "Ann"}, {"name": "Bot", "agent": "golf-greedy", "params": {"seed": 1}}],
    "options": {"rounds": 1},
    "time": {"turn": 30},
}


async def _open(
    base: str, sid: str, message: dict[str, Any], headers: dict[str, str]
) -> tuple[Any, Any]:
    """A socket and its first reply (a dict), or the close frame that refused it."""
    ws = await websockets.connect(f"ws://{base}/ws?session={sid}", additional_headers=headers)
    try:
        await ws.send(json.dumps({**message, "session": sid}))
        return ws, json.loads(await asyncio.wait_for(ws.recv(), 5))
    except websockets.ConnectionClosed as closed:
        return ws, closed.rcvd


async def _two_sockets(base: str, sid: str, second: dict[str, str]) -> tuple[Any, Any]:
    first, reply = await _open(base, sid, {"type": "watch"}, {})
    try:
        other, refused = await _open(base, sid, {"type": "watch"}, second)
        await other.close()
    finally:
        await first.close()
    await asyncio.sleep(0.2)  # the server counts the closes
    return reply, refused


@pytest.fixture(scope="module")
def golf_session(server: str) -> dict[str, Any]:
    status, session = _post(server, GOLF)
    assert status == 201, session
    return session


def test_turn_clock_countdown_in_welcome_and_view(
    server: str, golf_session: dict[str, Any]
) -> None:
    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        ws, welcome = await _open(server, golf_session["session"], {"type": "join", "seat": 0}, {})
        try:
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 5))
                if message["type"] == "view":
                    return welcome, message
        finally:
            await ws.close()
            await asyncio.sleep(0.2)

    welcome, view = asyncio.run(run())
    assert welcome["type"] == "welcome" and welcome["token"]
    assert welcome["config"]["time"]["turn"] == 30.0
    deadline = view["clocks"]["turn"]["0"]
    assert 25 < deadline - welcome["server_time"] <= 30.5


def test_second_socket_from_one_address_is_closed_with_1013(
    server: str, golf_session: dict[str, Any]
) -> None:
    reply, refused = asyncio.run(_two_sockets(server, golf_session["session"], {}))
    assert reply["type"] == "welcome"
    assert (
        refused.code == 1013 and refused.reason == "1 connection from your address is open already"
    )


def test_forged_forwarded_for_does_not_lift_the_socket_limit(
    server: str, golf_session: dict[str, Any]
) -> None:
    reply, refused = asyncio.run(
        _two_sockets(server, golf_session["session"], {"X-Forwarded-For": "203.0.113.9"})
    )
    assert reply["type"] == "welcome"
    assert not isinstance(refused, dict), f"second socket served: {refused['type']}"
    assert refused.code == 1013


def test_second_game_from_one_address_is_refused_with_429(
    server: str, golf_session: dict[str, Any]
) -> None:
    status, answer = _post(server, GOLF)  # the fixture's game is this address's one
    assert status == 429, answer
    assert "at most 1" in answer["error"]


def test_forged_forwarded_for_does_not_lift_the_session_limit(
    server: str, golf_session: dict[str, Any]
) -> None:
    status, answer = _post(server, GOLF, {"X-Forwarded-For": "203.0.113.10"})
    assert status == 429, answer


# -- the limits' environment variables ---------------------------------------------------------


def test_a_bad_socket_limit_variable_is_named_in_its_one_line() -> None:
    from cardcore.web.app import ServerLimits, WebError

    with pytest.raises(WebError, match=r"^CARDCORE_MAX_SOCKETS_PER_CLIENT must be a number"):
        ServerLimits.from_env({"CARDCORE_MAX_SOCKETS_PER_CLIENT": "-1"})
    assert (
        ServerLimits.from_env({"CARDCORE_MAX_SOCKETS_PER_CLIENT": "2"}).max_sockets_per_client == 2
    )


def test_a_too_small_idle_close_variable_is_named_in_its_one_line() -> None:
    from cardcore.web.app import ServerLimits, WebError

    with pytest.raises(WebError, match="CARDCORE_IDLE_CLOSE"):
        ServerLimits.from_env({"CARDCORE_IDLE_CLOSE": "0.5"})
