"""Review of the 38 commits 6ffafff..b5ec9aa (fixes of earlier reviews), 2026-12-09.

Each bug found is an ``xfail(strict=True)`` test of the right behaviour; each claim that
holds is a plain test. Areas: the session's handling of an action a plugin's failure let
stand (CORE-BOUND-1), the command line's argument checks and seat table, the tonk-heuristic
agent's memory reset, :func:`cardcore.rl.observe` and ``vector_env``, error ``id`` echo.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import cli, rl
from cardcore.cli.screen import resolve
from cardcore.session import Hub, Session, SessionConfig, TimeControl
from cardcore_tonk.agents import TonkHeuristicAgent, _idx
from tests.core.test_bound import BOUND, FailingScores, _module
from tests.plugins import drawgame

HUGE = "9" * 3000  # fewer digits than Python's int() limit: read as a number, then refused


# -- session: an action a plugin's failure let stand (CORE-BOUND-1) ------------------------------


@pytest.fixture
def failing_scores() -> Iterator[str]:
    """A draw game whose bound is BOUND and whose ``scores`` fails there: the action stands."""
    name = "review-1209-failing-scores"
    cardcore.register("cardcore.games", name, _module(name, drawgame, FailingScores))
    logging.disable(logging.CRITICAL)  # the session logs the plugin's failure
    yield name
    logging.disable(logging.NOTSET)
    cardcore.unregister("cardcore.games", name)


def _seated(name: str, config: SessionConfig | None = None) -> tuple[Session, dict[str, list]]:
    session = Session.create(name, ["Ann", "Bob"], now=0.0, seed=1, config=config)
    got: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}
    for conn, seat in (("a", 0), ("b", 1)):
        for out in session.handle(conn, json.dumps({"type": "join", "seat": seat}), 0.0):
            got[out.conn].append(dict(out.message))
    return session, got


def _last_update(got: list[dict[str, Any]]) -> int:
    return max(m["version"] for m in got if m["type"] == "update")


def test_session_a_players_action_a_failure_let_stand_is_broadcast(failing_scores: str) -> None:
    session, got = _seated(failing_scores)
    game = session.game
    assert game is not None
    conns = {0: "a", 1: "b"}
    while game.version < BOUND:
        seat = game.to_act[0]
        text = str(game.legal_actions(seat)[0])
        message = {"type": "act", "action": text, "seen": game.version}
        for out in session.handle(conns[seat], json.dumps(message), 1.0):
            got[out.conn].append(dict(out.message))
    assert game.version == BOUND and not game.is_over  # stood; the game stays open
    assert _last_update(got["a"]) == _last_update(got["b"]) == BOUND
    assert len(session.chain) == BOUND + 1  # every action linked


def test_session_a_timeouts_action_a_failure_let_stand_is_broadcast(failing_scores: str) -> None:
    session, got = _seated(failing_scores, SessionConfig(time=TimeControl(turn=1.0)))
    game = session.game
    assert game is not None
    t = 0.0
    while game.version < BOUND and t < 200.0:  # every action is a timeout's default
        t += 1.5
        for out in session.tick(t):
            got.setdefault(out.conn, []).append(dict(out.message))
    # one tick may play several timeouts: each that stood past the failing bound is told
    assert game.version >= BOUND
    assert len(session.chain) == game.version + 1
    assert _last_update(got["a"]) == _last_update(got["b"]) == game.version


# -- session and hub: the refused message's id is echoed --------------------------------------


def test_hub_echoes_a_valid_id_for_a_connection_in_no_session() -> None:
    hub = Hub()
    bad = {"type": "join", "id": "j1", "session": "nope", "seat": "x"}
    (reply,) = hub.handle("c1", json.dumps(bad), 1.0)
    assert (reply.message["code"], reply.message["id"]) == ("bad-message", "j1")
    too_big = {"type": "join", "id": 2**53, "session": "nope", "seat": 0}
    (reply,) = hub.handle("c2", json.dumps(too_big), 1.0)
    assert reply.message["code"] == "bad-message" and reply.message["id"] is None


def test_session_a_record_before_the_end_is_not_over(failing_scores: str) -> None:
    session, _ = _seated(failing_scores)
    replies = [dict(o.message) for o in session.handle("a", '{"type": "record", "id": 7}', 1.0)]
    assert [(m["type"], m["code"], m["id"]) for m in replies] == [("error", "not-over", 7)]


# -- the command line ------------------------------------------------------------------------


def _cli(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    stdin: str = "",
) -> tuple[int, str, str]:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        status = cli.main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "golf", "--no-record", "--seat", HUGE],
        ["play", "golf", "--no-record", "--players", HUGE],
        ["simulate", "golf", "-q", "--games", "-" + HUGE],
    ],
    ids=["play-seat", "play-players", "simulate-games"],
)
def test_cli_a_huge_number_out_of_range_is_echoed_short(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, _, err = _cli(monkeypatch, capsys, argv)
    assert status == 2
    assert len(err) < 500, len(err)


def test_cli_a_huge_port_is_echoed_short(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _cli(monkeypatch, capsys, ["serve", "--port", HUGE])
    assert status == 2 and "--port" in err and len(err) < 500


def test_cli_menu_numbers_read_and_huge_ones_are_not_understood() -> None:
    legal = ["draw", "take", "knock"]
    assert resolve("#2", legal) == "take"
    assert resolve(" # 03 ", legal) == "knock"
    with pytest.raises(cardcore.NotationError) as err:
        resolve("#" + "9" * 5000, legal)
    assert len(str(err.value)) < 200


def test_cli_a_menu_number_with_leading_zeros_is_still_that_number() -> None:
    assert resolve("#0000000001", ["draw", "take"]) == "draw"


def test_cli_name_of_a_bot_is_refused_and_the_table_numbers_the_seats(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _cli(
        monkeypatch, capsys, ["play", "golf", "--seed", "1", "--no-record", "--name", "random 2"]
    )
    assert status == 2 and "random 2" in err and "another seat" in err
    argv = ["play", "golf", "--seed", "1", "--no-record", "--name", "Ann", "--players", "3"]
    status, out, _ = _cli(monkeypatch, capsys, argv, "quit\n")
    assert status == 0
    assert "seat: player" in out
    for row in ("0: Ann (you)", "1: random 2", "2: random 3"):
        assert row in out, row


def test_cli_verify_refuses_a_commitment_that_is_not_64_hex_digits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for bad in ("g" * 64, "a" * 63, "9" * 5000, ""):
        status, _, err = _cli(monkeypatch, capsys, ["verify", "x.json", "--commitment", bad])
        assert status == 2 and "64 hex digits" in err and len(err) < 400, bad
    args = cli.args.build_parser().parse_args(["verify", "x.json", "--commitment", " " + "A" * 64])
    assert args.commitment == "A" * 64  # any case, spaces around allowed


def test_cli_rules_shows_a_core_rule_in_any_case(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _cli(monkeypatch, capsys, ["rules", "tonk", "core-turn-1"])
    assert status == 0 and "CORE-TURN-1" in out and "waiting_rule" in out
    status, _, err = _cli(monkeypatch, capsys, ["rules", "tonk", "CORE-NOPE-9"])
    assert status == 2 and "CORE-NOPE-9" in err


# -- the tonk-heuristic agent's memory --------------------------------------------------------


def _dealer(game: cardcore.Game) -> int:
    return int(game.view(None)["table"]["dealer"])


def test_tonk_heuristic_reused_forgets_a_game_ended_early() -> None:
    agent = TonkHeuristicAgent(seed=1)
    first = cardcore.new_game("tonk", 2, seed=1)  # dealer 0: seat 1 starts
    assert _dealer(first) == 0 and first.to_act == (1,)
    while first.to_act == (1,):  # the agent's turn in seat 1
        first.apply(agent.choose(first.view(1), first.legal_actions(1)))
    first.act(0, "resign")  # that game ends early
    second = cardcore.new_game("tonk", 2, seed=100)  # dealer 0 again; now the agent is seat 0
    assert _dealer(second) == 0
    while second.to_act == (1,):
        legal = second.legal_actions(1)
        second.apply(legal[1] if len(legal) > 1 else legal[0])
    view = second.view(0)
    assert view["version"] >= 2 and second.to_act == (0,)
    agent.choose(view, second.legal_actions(0))
    assert agent._seen == {_idx(view["table"]["discard_top"])}  # only what this game showed


def test_tonk_heuristic_reused_forgets_when_the_version_goes_back() -> None:
    agent = TonkHeuristicAgent(seed=1)
    game = cardcore.new_game("tonk", 2, seed=1)
    seat = game.to_act[0]
    for _ in range(6):
        if game.is_over:
            break
        seat = game.to_act[0]
        game.apply(agent.choose(game.view(seat), game.legal_actions(seat)))
    again = cardcore.new_game("tonk", 2, seed=1)  # the same deal, from version 0
    view = again.view(again.to_act[0])
    agent.choose(view, again.legal_actions(again.to_act[0]))
    assert agent._seen == {_idx(view["table"]["discard_top"])}


# -- reinforcement learning -----------------------------------------------------------------


@pytest.mark.parametrize("seat", [7, "x"])
def test_rl_observe_refuses_a_seat_that_is_not_one_of_a_finished_game(seat: Any) -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    game.act(game.to_act[0], "resign")
    assert game.is_over
    with pytest.raises(cardcore.CardcoreError):
        rl.observe(game, seat)


def test_rl_observe_takes_a_numpy_seat_and_refuses_others_of_a_running_game() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    mover = game.to_act[0]
    assert rl.observe(game, np.int64(mover))["action_mask"].sum() == len(game.legal_actions(mover))
    for seat in (True, 2, "0", 0.0, np.float64(1.0)):
        with pytest.raises(cardcore.CardcoreError):
            rl.observe(game, seat)


def test_rl_vector_env_copy_flag_and_a_step_after_close() -> None:
    for flag in (1, None, "no"):
        with pytest.raises(cardcore.OptionError, match="copy must be True or False"):
            rl.vector_env("golf", num_envs=1, copy=flag)
    env = rl.vector_env("golf", num_envs=2, copy=np.True_)
    assert env.copy is True
    obs, _ = env.reset(seed=1)
    pick = np.array([int(np.flatnonzero(obs["action_mask"][k])[0]) for k in range(2)])
    env.close()
    with pytest.raises(cardcore.CardcoreError, match=r"closed: call reset\(\)"):
        env.step(pick)
    obs, _ = env.reset(seed=2)  # usable again after a reset
    pick = np.array([int(np.flatnonzero(obs["action_mask"][k])[0]) for k in range(2)])
    env.step(pick)
