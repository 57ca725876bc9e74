"""Review of bd81c3e..HEAD (2026-12-17): web clocks (a lobby request's ``time``), the lobby's
game list, RL ``wait=True`` and "1 player".

Web tests run the server on a fake clock (``WebServer(clock=...)``, ``host.wake``), never
sleeping; no assertion depends on the random deal. Strict xfails are the bugs found.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

import cardcore
from tests.plugins import klondike_2026_12_17 as kl
from tests.web.helpers import Player, create, serve

PEOPLE = [{"name": "Ann"}, {"name": "Bob"}]


class FakeClock:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@contextlib.contextmanager
def _seat(client: Any, sid: str, seat: int | None, token: str | None = None) -> Iterator[Player]:
    """A connection holding *seat* (``None``: a spectator), its welcome read."""
    with client.websocket_connect("/ws") as ws:
        player = Player(ws)
        if seat is None:
            player.send({"type": "watch", "session": sid})
        else:
            message: dict[str, Any] = {"type": "join", "session": sid, "seat": seat}
            if token is not None:
                message["token"] = token
            player.send(message)
        player.until("welcome")
        yield player


def _next_of(player: Player, *kinds: str) -> dict[str, Any]:
    """The next message of one of *kinds* (presence and other messages skipped)."""
    while True:
        message = player.recv()
        if message["type"] in kinds:
            return message


def _post(client: Any, time_json: str) -> Any:
    body = '{"game": "golf", "seats": [{"name": "A"}, {"name": "B"}], "time": ' + time_json + "}"
    return client.post("/api/sessions", content=body, headers={"content-type": "application/json"})


# -- hostile and odd `time` values through the HTTP API ---------------------------------------


@pytest.mark.parametrize(
    ("time_json", "said"),
    [
        ('{"turn": 1e400}', "not inf"),  # JSON's overflow reads as infinity: refused by range
        ('{"turn": -1e400}', "not -inf"),
        ('{"total": 1e-400}', "not 0.0"),  # underflow reads as 0
        ('{"turn": 0.9999999999999999}', "from 1 to 86400"),
        ('{"total": 1e308}', "from 1 to 86400"),
        ('{"turn": -0.0}', "from 1 to 86400"),
        ('{"turn": ' + "9" * 5000 + "}", "number too long"),  # int digit limit: no raw ValueError
        ('{"turn": {"seconds": 60}}', "'time' 'turn' must be null or seconds"),
        ('{"turn": [60]}', "'time' 'turn' must be null or seconds"),
        ('{"fallback": ["first"]}', "'time' 'fallback' must be one of"),
        ('{"fallback": {"a": 1}}', "'time' 'fallback' must be one of"),
        ('{"turn": 60, "fallback": "RESIGN"}', "'time' 'fallback' must be one of"),
        ('{"turn": 60, "turn": 30}', "names 'turn' twice"),
        ('{"Turn": 60}', "'time' takes 'turn', 'total', 'fallback' and 'forfeit', not 'Turn'"),
        ('{"\\ud800": 1}', "not UTF-8"),
        ("true", "'time' must be an object"),
    ],
)
def test_hostile_time_values_are_refused_400_naming_them_and_create_nothing(
    time_json: str, said: str
) -> None:
    with serve() as (client, server, _):
        r = _post(client, time_json)
        assert r.status_code == 400, r.text
        assert said in r.json()["error"]
        assert not server.hub.sessions


@pytest.mark.parametrize(
    ("time_json", "turn", "total"),
    [
        ('{"turn": 1.5}', 1.5, None),
        ('{"turn": 1, "total": 86400}', 1, 86400),
        ('{"turn": null, "total": 86400.0}', None, 86400.0),
        ("{}", None, None),
        ("null", None, None),
    ],
)
def test_time_bounds_are_inclusive_and_floats_and_nulls_are_taken(
    time_json: str, turn: float | None, total: float | None
) -> None:
    with serve() as (client, server, _):
        r = _post(client, time_json)
        assert r.status_code == 201, r.text
        config = server.hub.sessions[r.json()["session"]].config.time
        assert (config.turn, config.total, config.fallback) == (turn, total, "first")


# -- what a timeout plays --------------------------------------------------------------------


@pytest.mark.parametrize("fallback", ["resign", "wait"])
def test_a_golf_seat_out_of_time_has_golfs_default_played_whatever_the_fallback(
    fallback: str,
) -> None:
    """docs/web.rst (after this review): ``fallback`` is played only for a game whose
    ``default_action`` answers ``None``; Golf always has one (its first ``flip``), so the
    lobby form no longer offers a fallback it would ignore."""
    clock = FakeClock()
    with serve(clock=clock) as (client, server, _):
        sid = create(client, "golf", PEOPLE, time={"turn": 30, "fallback": fallback})["session"]
        with _seat(client, sid, 0) as ann, _seat(client, sid, 1):
            assert ann.until("view")["view"]["to_act"] == [0]
            clock.now += 31
            client.portal.call(server.host.wake)
            message = _next_of(ann, "update", "clocks")
            assert message["type"] == "update", message
            assert message["action"]["cause"] == "timeout"
            assert message["action"]["text"] == "flip 0", message["action"]


def test_the_game_clock_ends_a_turn_based_golf_match_at_its_deadline() -> None:
    clock = FakeClock()
    with serve(clock=clock) as (client, server, _):
        sid = create(client, "golf", PEOPLE, time={"total": 60})["session"]
        with _seat(client, sid, 0) as ann, _seat(client, sid, 1):
            view = ann.until("view")
            assert view["clocks"] == {"turn": {}, "total": clock.now + 60}
            clock.now += 61
            client.portal.call(server.host.wake)
            update = _next_of(ann, "update")
            assert update["action"]["cause"] == "clock" and update["action"]["at"] == 1060.0
            assert update["clocks"] == {"turn": {}, "total": None}  # stopped: the game is over
            assert server.hub.sessions[sid].game.is_over


def test_a_disconnected_seats_clock_runs_and_the_other_seat_sees_it_played_for() -> None:
    """docs/web.rst: 'A clock keeps running while its seat is disconnected'."""
    clock = FakeClock()
    with serve(clock=clock) as (client, server, _):
        sid = create(client, "golf", PEOPLE, time={"turn": 30})["session"]
        with _seat(client, sid, 1) as bob:
            with _seat(client, sid, 0):
                pass  # Ann joins (the game starts) and leaves at once
            assert bob.until("view")["clocks"]["turn"] == {"0": 1030.0}
            clock.now += 31
            client.portal.call(server.host.wake)
            update = _next_of(bob, "update")
            assert update["action"]["seat"] == 0 and update["action"]["cause"] == "timeout"


def test_a_running_clock_survives_a_restart_paused_and_the_seat_is_told_the_new_deadline(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    db = str(tmp_path / "web.db")
    with serve(db, clock=clock) as (client, server, _):
        sid = create(client, "golf", PEOPLE, time={"turn": 30, "total": 600})["session"]
        with _seat(client, sid, 0) as ann, _seat(client, sid, 1):
            view = ann.until("view")
            assert view["clocks"] == {"turn": {"0": 1030.0}, "total": 1600.0}
            token = next(m for m in ann.received if m["type"] == "welcome")["token"]
    clock.now += 5_000  # the server was down
    with serve(db, clock=clock) as (client, server, _):
        session = server.hub.sessions[sid]
        assert (session.config.time.turn, session.config.time.total) == (30, 600)
        with _seat(client, sid, 0, token) as ann:
            assert ann.received[-1]["server_time"] == clock.now
            view = ann.until("view")
            # the time each clock had left when last stored, counted from the restart
            assert view["clocks"] == {"turn": {"0": clock.now + 30}, "total": clock.now + 600}


# -- hidden information ------------------------------------------------------------------------


def test_real_time_seats_see_only_their_own_idle_clock_and_spectators_no_clock() -> None:
    clock = FakeClock()
    with serve(clock=clock) as (client, server, _):
        sid = create(client, "spit", PEOPLE, time={"turn": 20, "total": 600})["session"]
        with (
            _seat(client, sid, 0) as ann,
            _seat(client, sid, 1) as bob,
            _seat(client, sid, None) as watcher,
        ):
            seen = {0: ann.until("view"), 1: bob.until("view")}
            for seat, view in seen.items():
                assert view["clocks"] == {"turn": {str(seat): 1020.0}, "total": 1600.0}
            assert "clocks" not in watcher.until("view")
            both = server.hub.sessions[sid].clocks.public(None)  # what each seat is not shown
            assert both["turn"] == {"0": 1020.0, "1": 1020.0}
            clock.now += 21  # both idle: each timeout plays for its seat
            client.portal.call(server.host.wake)
            for seat, player in ((0, ann), (1, bob)):
                for _ in range(2):
                    message = _next_of(player, "update", "clocks")
                    assert set(message["clocks"]["turn"]) <= {str(seat)}, message
            assert "clocks" not in _next_of(watcher, "update")


# -- the lobby's game list ---------------------------------------------------------------------


def test_the_lobby_lists_a_games_own_agents_first_each_group_by_name() -> None:
    with serve() as (client, _server, _):
        games = {g["name"]: g for g in client.get("/api/games").json()}
    factories = {name: cardcore.load_agent(name) for name in cardcore.available_agents()}
    for game in ("golf", "tonk", "spit", "speed"):
        names = [a["name"] for a in games[game]["agents"]]
        own = [n for n in names if getattr(factories[n], "games", None)]
        assert own and names[: len(own)] == own == sorted(own)
        assert names[len(own) :] == sorted(names[len(own) :])


# -- "1 player" ------------------------------------------------------------------------------


def test_the_cli_agent_count_refusal_for_a_one_seat_game_says_1_player() -> None:
    from cardcore.cli import main

    cardcore.register("cardcore.games", kl.NAME, kl)
    try:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                code = main(["simulate", kl.NAME, "--players", "1", "--agents", "random,random"])
            except SystemExit as exc:
                code = exc.code
    finally:
        cardcore.unregister("cardcore.games", kl.NAME)
    assert code == 2 and "2 agents for 1" in err.getvalue()
    assert "1 players" not in err.getvalue()
