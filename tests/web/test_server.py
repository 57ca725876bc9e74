"""``cardcore.web`` without a browser: the lobby, joining, playing, watching, bad frames, restarts."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

from cardcore import game_info, replay
from cardcore.session import Limits
from tests.web.helpers import Player, create, serve

GOLF_VS_BOT = [{"name": "Ann"}, {"name": "Bot", "agent": "golf-greedy", "params": {"seed": 3}}]


def test_pages_and_static_files_come_from_this_server_only() -> None:
    with serve() as (client, _, _):
        for path in (
            "/",
            "/play/abc",
            "/static/play.js",
            "/static/layouts.js",
            "/static/lobby.js",
            "/static/cards.js",
            "/static/app.css",
        ):
            r = client.get(path)
            assert r.status_code == 200, path
            assert "default-src 'self'" in r.headers["content-security-policy"]
            assert "http://" not in r.text and "https://" not in r.text, path


def test_lobby_lists_games_options_rules_and_agents() -> None:
    with serve() as (client, _, _):
        games = {g["name"]: g for g in client.get("/api/games").json()}
        assert {"golf", "tonk", "spit", "speed"} <= set(games)
        golf = games["golf"]
        assert golf["min_players"] == 2 and not golf["realtime"]
        assert "layout" in {o["name"] for o in golf["options"]}
        assert "golf.jokers" in {r["name"] for r in golf["rules"]}
        by_name = {r["name"]: r for r in games["tonk"]["rules"]}
        assert by_name["tonk.natural-49-50"]["default"] is True  # the lobby shows it on
        assert by_name["tonk.no-upcard"]["default"] is False
        assert "golf-greedy" in {a["name"] for a in golf["agents"]}
        assert "spit-greedy" not in {a["name"] for a in golf["agents"]}
        assert games["spit"]["realtime"]


def test_lobby_refuses_with_the_librarys_own_messages() -> None:
    with serve() as (client, _, _):
        two = [{"name": "A"}, {"name": "B"}]
        cases = [
            ({"game": "golf", "seats": two, "options": {"layout": 7}}, "option 'layout'"),
            (
                {"game": "golf", "seats": two, "rules": ["golf.jokers", "golf.bonus-twos"]},
                "golf.bonus-twos",
            ),
            ({"game": "golf", "seats": two, "rules": ["golf.remove-triples"]}, "layout"),
            ({"game": "golf", "seats": two, "options": {"rounds": -1}}, "rounds"),
            ({"game": "spit", "seats": [*two, {"name": "C"}]}, "player"),
            ({"game": "nope", "seats": two}, "nope"),
            (
                {"game": "golf", "seats": [{"name": "A"}, {"name": "B", "agent": "spit-greedy"}]},
                "spit-greedy",
            ),
            (
                {
                    "game": "golf",
                    "seats": [
                        {"name": "A"},
                        {"name": "B", "agent": "golf-greedy", "params": {"x": 1}},
                    ],
                },
                "x",
            ),
            ({"game": "golf"}, "seats"),
        ]
        for body, word in cases:
            r = client.post("/api/sessions", json=body)
            assert r.status_code == 400, body
            assert word in r.json()["error"], (body, r.json())
        r = client.post("/api/sessions", content=b"{not json")
        assert r.status_code == 400 and "not JSON" in r.json()["error"]
        assert client.get("/api/sessions").json() == []


def test_the_documented_session_request_is_accepted_and_each_field_documented() -> None:
    """docs/web.rst documents every field ``POST /api/sessions`` reads; its example is accepted."""
    from cardcore.web import WebServer

    text = (Path(__file__).parents[2] / "docs" / "web.rst").read_text(encoding="utf-8")
    section = text.split("``POST /api/sessions`` takes", 1)[1].split("\nOver the wire\n", 1)[0]
    block = re.search(r"\.\. code-block:: json\n\n((?:   .*\n|\n)+)", section)
    assert block is not None
    example = json.loads(block.group(1))
    read = set(re.findall(r'_get\(request, "(\w+)"', inspect.getsource(WebServer.create)))
    documented = set(re.findall(r"   \* - ``(\w+)``\n", section.split(".. code-block::")[0]))
    assert read == documented == set(example), (read, documented)
    with serve() as (client, _, _):
        r = client.post("/api/sessions", json=example)
        assert r.status_code == 201, r.text
        made = r.json()
        assert [s["bot"] for s in made["seats"]] == [None, None, "golf-greedy"]
        every = dict(game_info("golf").resolve_options({"layout": 8}))
        assert made["options"] == every and made["phase"] == "waiting"
        assert client.get(f"/api/sessions/{made['session']}").json() == made


def test_full_golf_game_against_a_bot_with_a_spectator_and_the_record() -> None:
    with serve() as (client, server, dog):
        made = create(client, "golf", GOLF_VS_BOT, options={"rounds": 1})
        sid = made["session"]
        assert made["seats"][1]["bot"] == "golf-greedy" and made["seats"][1]["claimed"]
        assert client.get(f"/api/sessions/{sid}/record").status_code == 409
        with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as spec_ws:
            spectator = Player(spec_ws)
            spectator.send({"type": "watch", "session": sid})
            assert spectator.until("welcome")["role"] == "spectator"
            ann = Player(ws)
            ann.send({"type": "join", "session": sid, "seat": 0})
            welcome = ann.until("welcome")
            assert welcome["token"] and welcome["schema"] is None
            view = ann.play_to_end(0)
            assert view["result"]["winners"]
            while spectator.mirror.view is None or not spectator.mirror.view["is_over"]:
                spectator.recv()
        assert dog.frames > 50
        record = client.get(f"/api/sessions/{sid}/record")
        assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
        game = replay(record.json())
        assert game.is_over and game.result == server.hub.sessions[sid].game.result  # type: ignore[union-attr]
        steps = client.get(f"/api/sessions/{sid}/replay/2").json()
        assert (
            steps["step"] == 2 and steps["steps"] == game.version and steps["view"]["seat"] is None
        )


def test_bad_frames_get_an_error_to_that_client_only() -> None:
    with serve(limits=Limits(rate=2.0, burst=20, close_after=30)) as (client, _, _):
        sid = create(client, "golf", [{"name": "A"}, {"name": "B"}])["session"]
        with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
            a, b = Player(ws_a), Player(ws_b)
            a.send({"type": "join", "session": sid, "seat": 0})
            a.until("welcome")
            b.send({"type": "join", "session": sid, "seat": 1})
            b.until("welcome")
            b.until("view")
            a.until("view")
            cases = [
                ("{not json", "bad-json"),
                (json.dumps({"type": "dance"}), "bad-message"),
                (
                    json.dumps({"type": "act", "action": "flip 0", "seen": 0, "extra": 1}),
                    "bad-message",
                ),
                ("x" * 20000, "too-large"),
                (json.dumps({"type": "act", "action": "fly away", "seen": 0}), "notation"),
            ]
            for text, code in cases:
                a.send(text)
                reply = a.until("error")
                assert reply["code"] == code, (text[:40], reply)
            ws_a.send_bytes(b"\xff\xfe")
            assert a.until("error")["code"] == "bad-json"
            # a wrong token on a fresh connection
            with client.websocket_connect("/ws") as ws_c:
                c = Player(ws_c)
                c.send({"type": "join", "session": sid, "seat": 1, "token": "not-the-token"})
                assert c.until("error")["code"] == "bad-token"
                c.send({"type": "join", "session": sid, "seat": 1})
                assert c.until("error")["code"] == "seat-taken"
            # a flood: errors (rate-limited) to the flooder, then it is closed
            for _ in range(300):
                a.send({"type": "ping"})
            codes = set()
            try:
                while True:
                    m = a.recv()
                    if m["type"] == "error":
                        codes.add(m["code"])
            except Exception:  # the server closed the flooder's socket
                pass
            assert "rate-limited" in codes
            # the other seat heard nothing of it and still plays
            b.send({"type": "ping", "t": 1})
            first = b.recv()
            while first["type"] == "presence":  # the flooder left
                first = b.recv()
            assert first["type"] == "pong"
            assert not [m for m in b.received if m["type"] == "error"]
            b.send({"type": "history"})
            assert b.until("history")["rounds"] == []


def test_reconnect_with_the_token_resumes_the_seat() -> None:
    with serve() as (client, _, _):
        sid = create(client, "golf", GOLF_VS_BOT)["session"]
        with client.websocket_connect("/ws") as ws:
            ann = Player(ws)
            ann.send({"type": "join", "session": sid, "seat": 0})
            token = ann.until("welcome")["token"]
            ann.until("view")
            for _ in range(2):
                ann.send(
                    {"type": "act", "action": ann.view["legal"][0], "seen": ann.mirror.version}
                )
                ann.until("ok")
            before = ann.view
            version = ann.mirror.version
        with client.websocket_connect("/ws") as ws:
            again = Player(ws)
            again.send({"type": "join", "session": sid, "seat": 0, "token": token})
            assert "token" not in again.until("welcome")
            view = again.until("view")
            assert (
                view["version"] >= version
                and view["view"]["table"]["grids"][0][:2] == before["table"]["grids"][0][:2]
            )


def test_server_restart_mid_game_resumes_from_the_store(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    with serve(db) as (client, _, _):
        sid = create(client, "golf", GOLF_VS_BOT, options={"rounds": 1})["session"]
        with client.websocket_connect("/ws") as ws:
            ann = Player(ws)
            ann.send({"type": "join", "session": sid, "seat": 0})
            token = ann.until("welcome")["token"]
            ann.until("view")
            for _ in range(3):
                while 0 not in ann.view["to_act"]:
                    ann.recv()
                ann.send(
                    {"type": "act", "action": ann.view["legal"][0], "seen": ann.mirror.version}
                )
                ann.until("ok")
            mid = ann.view
    with serve(db) as (client, server, _):
        assert sid in server.hub.sessions
        with client.websocket_connect("/ws") as ws:
            ann = Player(ws)
            ann.send({"type": "join", "session": sid, "seat": 0, "token": token})
            ann.until("welcome")
            resumed = ann.until("view")["view"]
            assert resumed["table"]["grids"][0] == mid["table"]["grids"][0]
            assert ann.play_to_end(0)["is_over"]  # the bot took its seat again


def test_an_instance_name_starts_every_session_id(monkeypatch: pytest.MonkeyPatch) -> None:
    """Several processes behind one address: a game's id names its process (docs/web.rst)."""
    with serve(instance="east") as (client, _, _):
        made = create(client, "golf", GOLF_VS_BOT)
        assert made["session"].startswith("east-")
        assert made["seats"][0]["link"].startswith("/play/east-")
        with client.websocket_connect("/ws?session=" + made["session"]) as ws:
            ann = Player(ws)
            ann.send({"type": "join", "session": made["session"], "seat": 0})
            ann.until("view")
    monkeypatch.setenv("CARDCORE_INSTANCE", "west")
    with serve() as (client, _, _):
        assert create(client, "golf", GOLF_VS_BOT)["session"].startswith("west-")
    from cardcore.web.app import WebError, WebServer

    for bad in ("", "a-b", "x" * 17, "é"):
        with pytest.raises(WebError, match="instance name"):
            WebServer(instance=bad)
