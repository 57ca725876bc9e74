"""A mutation audit of the web server layer (``src/cardcore/web/``, 2026-12-26).

Each passing test here pins a behaviour that a hand-made mutant of the server changed
without any other web test noticing (the mutant is named in the test's docstring); the
strict xfails pin bugs found by hand with hostile requests and frames.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from cardcore.errors import CardcoreError
from cardcore.web import WebServer, _bots, create_app
from cardcore.web import app as web_app
from cardcore.web.app import ServerLimits, WebError
from tests.web.helpers import Player, create, serve

pytest.importorskip("starlette")
from starlette.websockets import WebSocketDisconnect

PEOPLE = [{"name": "A"}, {"name": "B"}]
BOTS = [{"name": n, "agent": "random", "params": {"seed": i}} for i, n in enumerate("AB")]


def _wait(predicate: Any, what: str, tries: int = 400) -> None:
    """Wait for an event of the server (never for a clock): at most about 20 s."""
    for _ in range(tries):
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


def _post(client: Any, body: dict[str, Any], **kwargs: Any) -> Any:
    return client.post("/api/sessions", content=json.dumps(body), **kwargs)


# -- quotas ---------------------------------------------------------------------------------


def test_a_game_of_bots_that_is_over_frees_its_place_in_both_quotas() -> None:
    """Mutants: ``max_bot_games`` counting bot games over, ``max_sessions`` counting every
    session (not only waiting or playing ones)."""
    limits = ServerLimits(max_sessions=1, max_bot_games=1, idle_close=0)
    with serve(server_limits=limits) as (client, server, _):
        first = create(client, "golf", BOTS, options={"rounds": 1})["session"]
        _wait(lambda: server.hub.sessions[first].phase == "over", "the bots' game ends")
        r = _post(client, {"game": "golf", "seats": BOTS, "options": {"rounds": 1}})
        assert r.status_code == 201, r.text


def test_a_bot_does_not_keep_a_game_open_but_a_game_of_bots_only_is_never_idle() -> None:
    """Mutants: a bot's connection counted as a person's in ``idle_sessions``; a game with
    one bot counted as bots only; bot-only games not skipped by the sweep."""
    clock = [1000.0]
    limits = ServerLimits(idle_close=3600, max_bot_games=0)
    with serve(server_limits=limits, clock=lambda: clock[0], bot_delay=60.0) as (client, server, _):
        mixed = create(client, "golf", [{"name": "Ann"}, BOTS[1]])["session"]
        bots = create(client, "golf", BOTS)["session"]  # (its bots wait a minute: live)
        _wait(lambda: len(server.hub.sessions[mixed].conns) == 1, "the bot takes its seat")
        assert server.sweep(1000.0) == []
        assert server.sweep(4600.0) == [mixed]  # only a bot there for an hour
        assert server.sweep(10**9) == []
        assert bots in server.hub.sessions


def test_a_page_above_max_page_is_refused() -> None:
    """Mutant: ``ServerLimits`` taking ``page`` above ``max_page``."""
    with pytest.raises(WebError, match="page must be from 1 to max_page"):
        ServerLimits(page=10, max_page=5)
    assert ServerLimits(page=5, max_page=5).page == 5


# -- the listing and one session ---------------------------------------------------------------


def test_limit_zero_lists_one_session_and_the_total_counts_them_all() -> None:
    """Mutants: ``limit=0`` read as 0 (the docs: "``0`` as 1"); ``X-Total-Count`` counting the
    page instead of every listed session."""
    limits = ServerLimits(max_bot_games=0)
    with serve(server_limits=limits, bot_delay=60.0) as (client, _server, _):
        ids = [create(client, "golf", BOTS)["session"] for _ in range(3)]
        r = client.get("/api/sessions?limit=0")
        assert [s["session"] for s in r.json()] == ids[-1:]
        r = client.get("/api/sessions?offset=1&limit=1")
        assert [s["session"] for s in r.json()] == [ids[1]]
        assert r.headers["X-Total-Count"] == "3"


def test_record_and_replay_wait_for_the_end_of_the_game() -> None:
    """Mutants: the record's 409 turned 404; the replay served while the game is played;
    a session's ``record`` link given before the end."""
    with serve() as (client, _server, _):
        sid = create(client, "golf", PEOPLE)["session"]
        r = client.get(f"/api/sessions/{sid}/record")
        assert (
            r.status_code == 409
            and r.json()["error"] == "the record is shown once the game is over"
        )
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
            for seat, ws in enumerate((a, b)):
                ws.send_json({"type": "join", "session": sid, "seat": seat})
                assert ws.receive_json()["type"] == "welcome"
            described = client.get(f"/api/sessions/{sid}").json()
            assert described["phase"] == "playing" and described["record"] is None
            for step in (0, 1, 5):
                r = client.get(f"/api/sessions/{sid}/replay/{step}")
                assert r.status_code == 409, (step, r.text)
                assert r.json()["error"] == "the replay is shown once the game is over"


def test_a_sessions_seats_links_and_watch_as_the_lobby_shows_them() -> None:
    """Mutants: a bot's seat given a link; every seat shown ``claimed``; a ``watch`` link for
    a session that takes no spectators."""
    with serve(bot_delay=60.0) as (client, _server, _):
        made = create(client, "golf", [{"name": "Ann"}, BOTS[1]], spectators=False)
        sid = made["session"]
        ann, bot = made["seats"]
        assert (
            ann["link"] == f"/play/{sid}#seat=0" and ann["claimed"] is False and ann["bot"] is None
        )
        assert bot["link"] is None and bot["bot"] == "random" and bot["claimed"] is True
        assert made["watch"] is None
        watched = create(client, "golf", PEOPLE)
        assert watched["watch"] == f"/play/{watched['session']}#watch"


# -- lobby requests ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ([{"game": "golf"}], 400, "the request must be a JSON object"),
        (
            {"game": "golf", "seats": [{"agent": "random", "params": [1]}, {}]},
            400,
            "seat 0: 'params' must be an object",
        ),
        (
            {"game": "golf", "seats": [{"name": "x" * 201}, {}]},
            400,
            "'name' must be text of 1 to 200",
        ),
        ({"game": "golf", "seats": [{"name": "A\x07"}, {}]}, 400, "U+0007, a control character"),
        ({"game": "golf", "seats": [{"name": "Bob (you)"}, {}]}, 400, "must not end with"),
        (
            {"game": "golf", "seats": PEOPLE, "time": {"turn": 0.5}},
            400,
            "'time' 'turn' must be null or seconds from 1",
        ),
        (
            {"game": "golf", "seats": PEOPLE, "time": {"turn": True}},
            400,
            "'time' 'turn' must be null or seconds from 1",
        ),
        (
            {"game": "golf", "seats": PEOPLE, "time": {"forfeit": "yes"}},
            400,
            "'time' 'forfeit' must be true or false",
        ),
        (
            {"game": "golf", "seats": PEOPLE, "time": {"turns": 60}},
            400,
            "'time' takes 'turn', 'total'",
        ),
        (
            {"game": "golf", "seats": PEOPLE, "spectators": 1},
            400,
            "'spectators' must be a bool, not int",
        ),
    ],
    ids=[
        "list",
        "params",
        "long-name",
        "bell",
        "you",
        "half-second",
        "true",
        "forfeit",
        "key",
        "spectators",
    ],
)
def test_a_malformed_lobby_request_gets_its_own_message(body: Any, status: int, error: str) -> None:
    """Mutants: each check of ``read_body``, ``WebServer.create`` and ``time_control``
    dropped (a list body reached ``.get`` and answered 500)."""
    with serve() as (client, server, _):
        r = _post(client, body)
        assert r.status_code == status and error in r.json()["error"], r.text
        assert not server.hub.sessions


def test_a_request_nested_33_levels_deep_is_refused_32_taken() -> None:
    """Mutant: the depth check of ``_check_text`` loosened: an ignored field nested 33 levels
    deep was taken (the docs: "JSON nested deeper than 32 levels ... is refused")."""
    with serve() as (client, server, _):
        deep = {"game": "golf", "seats": PEOPLE, "extra": json.loads("[" * 32 + "1" + "]" * 32)}
        r = _post(client, deep)
        assert r.status_code == 400 and "nested deeper than 32 levels" in r.json()["error"]
        assert not server.hub.sessions
        fits = {"game": "golf", "seats": PEOPLE, "extra": json.loads("[" * 31 + "1" + "]" * 31)}
        assert _post(client, fits).status_code == 201


def test_a_turn_clock_of_a_whole_day_is_taken_and_a_long_name_cut_to_40() -> None:
    """Mutants: ``MAX_CLOCK`` itself refused; a name cut at 41 characters."""
    with serve() as (client, _server, _):
        made = create(client, "golf", [{"name": "N" * 41}, {}], time={"turn": 86400})
        assert made["time"]["turn"] == 86400.0
        assert made["seats"][0]["name"] == "N" * 40
        assert made["seats"][1]["name"] == "Player 2"


def test_a_bot_without_a_seed_gets_its_own() -> None:
    """Mutant: every bot given no seed gets one fixed seed (docs: "no two bots ... play one
    stream of choices")."""
    seats = [{"name": "A", "agent": "golf-greedy"}, {"name": "B", "agent": "golf-greedy"}]
    with serve(bot_delay=60.0) as (client, server, _):
        sid = create(client, "golf", seats)["session"]
        seeds = [bot.params["seed"] for bot in server.bots[sid]]
        assert len(set(seeds)) == 2 and all(type(s) is int for s in seeds), seeds


def test_a_bot_pauses_at_most_a_quarter_of_its_turn_clock() -> None:
    """Mutant: ``bot_delay`` not capped by the turn clock: a bot of ``bot_delay=60`` with a
    4-second turn would lose every turn to the clock. The server's clock stands still here
    (no turn ever times out), so only the bot's own pause (1 s, a quarter of 4) is waited for;
    the mutant's bot waits a minute and the test gives up after about 30 s."""
    with serve(bot_delay=60.0, clock=lambda: 1000.0) as (client, server, _):
        sid = create(client, "golf", BOTS, time={"turn": 4})["session"]
        session = server.hub.sessions[sid]
        _wait(lambda: session.game is not None and session.game.version >= 1, "a bot acts", 600)
        assert session.cause(1) == "player"


def test_a_stored_bot_of_a_seat_the_game_does_not_have_is_refused() -> None:
    """Mutant: ``stored_bot`` taking the seat just past the last (a damaged ``web_bots`` row
    would have a bot join a seat the game does not have)."""
    with serve(bot_delay=60.0) as (client, server, _):
        sid = create(client, "golf", PEOPLE)["session"]
        session = server.hub.sessions[sid]
        with pytest.raises(CardcoreError, match="seat '2' is not a seat of its 2-player game"):
            _bots.stored_bot(server, session, (sid, 2, "random", "{}"))
        bot = _bots.stored_bot(server, session, (sid, 1, "random", '{"seed": 3}'))
        assert (bot.seat, bot.params) == (1, {"seed": 3})


class _Bounded:
    """An agent taking a ``seed`` with no declared bounds (subclasses declare some)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed


def test_a_fresh_seed_stays_within_the_agents_bounds() -> None:
    """Mutant: bounds whose high end is below the low end not read as the low end."""
    inverted = type("Inverted", (_Bounded,), {"parameter_bounds": {"seed": (5, 3)}})
    assert _bots._fresh_seed(inverted) == 5
    narrow = type("Narrow", (_Bounded,), {"parameter_bounds": {"seed": (2.5, 4)}})
    assert {_bots._fresh_seed(narrow) for _ in range(50)} <= {3, 4}
    assert 0 <= _bots._fresh_seed(_Bounded) < 2**62  # no bounds: 62 bits


# -- HTTP answers ------------------------------------------------------------------------------


def test_every_answer_has_the_security_headers_and_pages_are_never_cached() -> None:
    """Mutants: ``X-Content-Type-Options`` dropped; the pages' ``Cache-Control: no-store``
    dropped."""
    with serve() as (client, _server, _):
        for path in ("/", "/play/x", "/api/games", "/api/sessions/nope", "/nope"):
            r = client.get(path)
            assert r.headers["X-Content-Type-Options"] == "nosniff", path
            assert r.headers["Referrer-Policy"] == "no-referrer", path
            assert "default-src 'self'" in r.headers["Content-Security-Policy"], path
        for path in ("/", "/play/x"):
            assert client.get(path).headers["Cache-Control"] == "no-store", path
        r = client.put("/api/sessions")
        assert r.status_code == 405 and r.json() == {"error": "PUT is not taken at /api/sessions"}
        assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_a_game_ended_by_a_player_or_of_an_unknown_cause_names_no_ender() -> None:
    """Mutant: a cause ``"unknown"`` (a session stored before causes were kept) shown as
    ``ended_by``."""
    with serve() as (client, server, _):
        sid = create(client, "golf", BOTS, options={"rounds": 1})["session"]
        session = server.hub.sessions[sid]
        _wait(lambda: session.phase == "over", "the bots' game ends")
        assert client.get(f"/api/sessions/{sid}").json()["ended_by"] is None  # a player's move
        session.cause = lambda version: "unknown"  # type: ignore[method-assign]
        assert server.describe(session)["ended_by"] is None
        session.cause = lambda version: "timeout"  # type: ignore[method-assign]
        assert server.describe(session)["ended_by"]["cause"] == "timeout"


@pytest.mark.parametrize(
    ("headers", "allowed"),
    [
        ({"Origin": "http://testserver:8080"}, False),  # another port
        ({"Origin": "ftp://testserver"}, False),  # no page's scheme
        (
            {"Origin": "http://testserver:8443", "X-Forwarded-Host": "testserver:8443, inner:80"},
            True,
        ),
        ({"Origin": "http://inner", "X-Forwarded-Host": "testserver:8443, inner:80"}, False),
        ({"Origin": "http://testserver"}, True),
    ],
    ids=["port", "ftp", "forwarded-first", "forwarded-second", "same"],
)
def test_a_lobby_request_from_another_origin_is_refused(
    headers: dict[str, str], allowed: bool
) -> None:
    """Mutants: the origin's port not compared; a non-web scheme taken; a proxy's list of
    hosts read whole (only its first, the browser's, counts)."""
    with serve() as (client, server, _):
        r = _post(client, {"game": "golf", "seats": PEOPLE}, headers=headers)
        assert r.status_code == (201 if allowed else 403), r.text
        assert len(server.hub.sessions) == int(allowed)
        if allowed:
            with client.websocket_connect("/ws", headers=headers) as ws:
                ws.send_json({"type": "ping", "t": 1})
                assert ws.receive_json()["type"] == "pong"
        else:
            with (
                pytest.raises(WebSocketDisconnect) as caught,  # closed before it is accepted
                client.websocket_connect("/ws", headers=headers) as ws,
            ):
                ws.send_json({"type": "ping", "t": 1})
                ws.receive_json()
            assert (caught.value.code, caught.value.reason) == (1008, "this server's pages only")


# -- the lobby's games ---------------------------------------------------------------------------


def test_the_lobby_lists_a_games_own_agents_first_and_only_agents_that_play_it() -> None:
    """Mutants: the agents' order reversed; an agent listed for a game it does not play;
    every rule shown as not default."""
    with serve() as (client, _server, _):
        games = {g["name"]: g for g in client.get("/api/games").json()}
        golf = [a["name"] for a in games["golf"]["agents"]]
        assert golf[0].startswith("golf-") and "random" in golf
        assert golf.index("random") > max(i for i, n in enumerate(golf) if n.startswith("golf-"))
        assert not any(a["name"].startswith("golf-") for a in games["tonk"]["agents"])
        defaults = [r for g in games.values() for r in g["rules"] if r["default"]]
        assert defaults, "some installed game has a rule on by default"


# -- arguments -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"bot_delay": -1}, "bot_delay must be a number of seconds from 0 to 60"),
        ({"bot_pace": -0.5}, "bot_pace must be a factor from 0 to 100"),
        ({"instance": "a" * 17}, "an instance name is 1-16 letters"),
        ({"clock": 5}, "clock must be a function returning the time"),
    ],
    ids=["delay", "pace", "instance", "clock"],
)
def test_a_bad_server_argument_is_refused(kwargs: dict[str, Any], match: str) -> None:
    """Mutants: a negative delay taken; a 17-letter instance taken; a clock not checked."""
    with pytest.raises(WebError, match=match):
        WebServer(**kwargs)
    assert WebServer(instance="a" * 16).instance == "a" * 16


def test_create_app_refuses_what_is_no_web_server() -> None:
    """Mutant: ``create_app`` taking any *server*."""
    with pytest.raises(WebError, match="create_app serves a WebServer"):
        create_app(5)  # type: ignore[arg-type]


# -- hostile frames: an error to the sender only --------------------------------------------------

HOSTILE = [
    ("not json", "bad-json"),
    ("[1,2]", "bad-json"),
    ("null", "bad-json"),
    ('{"type": 5}', "bad-message"),
    ('{"type": "dance"}', "bad-message"),
    ('{"type": "act"}', "bad-message"),
    ('{"type": "act", "action": "x", "seen": -1}', "bad-message"),
    ('{"type": "act", "action": "x", "seen": 1e400}', "bad-message"),
    ('{"type": "act", "action": "' + "x" * 300 + '", "seen": 0}', "bad-message"),
    ('{"type": "ping", "t": 1, "t": 2}', "bad-json"),
    ('{"type": "ping", "t": NaN}', "bad-json"),
    ('{"type": "ping", "id": ' + "9" * 5000 + "}", "bad-json"),
    ("[" * 4000 + "]" * 4000, "bad-json"),
    ('{"type": "ping", "t": 1}' + " " * 9000, "too-large"),
    ('{"type": "leave", "extra": 1}', "bad-message"),
    ('{"type": "act", "action": "flip 0", "seen": 0, "seat": 1}', "not-your-seat"),
    ('{"type": "act", "action": "flip 0", "seen": 99}', "bad-message"),
    ('{"type": "watch"}', "already-joined"),
    (b"\xff\xfe", "bad-json"),
    (b"", "bad-json"),
]


def test_hostile_frames_get_an_error_and_the_other_seat_sees_nothing_of_them() -> None:
    with serve() as (client, _server, dog):
        sid = create(client, "golf", PEOPLE)["session"]
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
            ann, bob = Player(a), Player(b)
            for seat, p in enumerate((ann, bob)):
                p.send({"type": "join", "session": sid, "seat": seat})
                p.until("welcome")
            ann.until("view")
            bob.until("view")
            bob_seen = len(bob.received)
            for frame, code in HOSTILE:
                if isinstance(frame, bytes):
                    a.send_bytes(frame)
                else:
                    ann.send(frame)
                reply = ann.until("error")
                assert reply["code"] == code, (frame[:40], reply)
            ann.send({"type": "join", "session": sid, "seat": 1})
            assert ann.until("error")["code"] == "already-joined"
            a.send_bytes(json.dumps({"type": "ping", "t": 7}).encode())  # a binary frame is read
            assert ann.until("pong")["t"] == 7
            bob.send({"type": "ping", "t": 8})
            assert bob.until("pong")["t"] == 8
            assert [m["type"] for m in bob.received[bob_seen:]] == ["pong"]
            with client.websocket_connect("/ws") as c:  # a second claim of a held seat
                thief = Player(c)
                thief.send({"type": "join", "session": sid, "seat": 0})
                assert thief.until("error")["code"] == "seat-taken"
                thief.send({"type": "join", "session": sid, "seat": 0, "token": "x" * 40})
                assert thief.until("error")["code"] == "bad-token"
            assert dog.frames > 0


# -- bugs ----------------------------------------------------------------------------------------


def test_a_request_with_thousands_of_seats_is_refused_without_comparing_them_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = [0]
    real = web_app.same_name

    def counted(a: str, b: str) -> bool:
        calls[0] += 1
        return real(a, b)

    monkeypatch.setattr(web_app, "same_name", counted)
    with serve() as (client, server, _):
        r = _post(client, {"game": "golf", "seats": [{}] * 300})
        assert r.status_code == 400 and not server.hub.sessions
        assert calls[0] <= 64 * 64, f"{calls[0]} name comparisons for one request"


def test_a_connection_that_leaves_after_join_wait_may_join_another_game() -> None:
    with serve(server_limits=ServerLimits(join_wait=3)) as (client, _server, _):
        first = create(client, "golf", PEOPLE)["session"]
        other = create(client, "golf", PEOPLE)["session"]
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.send({"type": "join", "session": first, "seat": 0})
            p.until("welcome")
            time.sleep(3.3)  # past join_wait: the connection joined long before
            p.send({"type": "leave", "id": 1})
            p.until("ok")
            p.send({"type": "join", "session": other, "seat": 0})
            assert p.until("welcome")["type"] == "welcome"


def test_a_connection_that_left_and_joins_nothing_is_closed_after_join_wait_again() -> None:
    """join_wait counts again from a leave: leaving does not hold a socket open for good."""
    with serve(server_limits=ServerLimits(join_wait=3)) as (client, _server, _):
        first = create(client, "golf", PEOPLE)["session"]
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.send({"type": "join", "session": first, "seat": 0})
            p.until("welcome")
            p.send({"type": "leave", "id": 1})
            p.until("ok")
            with pytest.raises(WebSocketDisconnect) as caught:
                while True:
                    p.recv()
            assert (caught.value.code, caught.value.reason) == (
                1008,
                "no join or watch within 3 seconds",
            )


def test_a_request_with_no_seats_is_a_400_even_when_bot_games_are_full() -> None:
    limits = ServerLimits(max_bot_games=1, idle_close=0)
    with serve(server_limits=limits, bot_delay=60.0) as (client, _server, _):
        create(client, "golf", BOTS)  # (its bots wait a minute: live)
        r = _post(client, {"game": "golf", "seats": []})
        assert r.status_code == 400, r.text
