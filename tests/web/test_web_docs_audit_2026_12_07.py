"""Audit of docs/web.rst against the real server, and review of commit e0c63b01 (2026-12-07).

Part 1 reviews ``Game.determinize`` naming the plugin that answered (``_worlds._chain``):
wrappers, int-subclass answers, the game's own failures, interrupts, and the terminal's
``lenient`` stream. Part 2 checks the "HTTP requests", "Over the wire" and "Limits"
claims of ``docs/web.rst`` with Starlette's TestClient. Its one finding (an empty list 33
levels deep was taken) was a strict xfail, fixed the same day; each other test is a claim
that held.
"""

from __future__ import annotations

import contextlib
import io
import json
import types
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import PluginError, RuleInfo, hookimpl
from cardcore.errors import OptionError
from tests.web.helpers import Player, create, serve

# --- part 1: determinize after e0c63b01 ----------------------------------------------------


@contextlib.contextmanager
def house_rule(name: str, rule_id: str, **hooks: Any) -> Iterator[None]:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(id=rule_id, name=name, game="golf", summary="audit rule")  # type: ignore[attr-defined]
    vars(module).update(hooks)
    cardcore.register("cardcore.rules", name, module)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.rules", name)


def _hidden_differs(game: cardcore.Game, world: cardcore.Game) -> bool:
    stock = [list(map(str, z)) for z in game._state.zones.cards]
    return game.view(0) == world.view(0) and stock != [
        list(map(str, z)) for z in world._state.zones.cards
    ]


def test_determinize_through_an_old_style_hookwrapper_still_redeals() -> None:
    calls: list[str] = []

    @hookimpl(hookwrapper=True)
    def determinize(state: Any, seat: int, rng: Any) -> Any:
        calls.append("before")
        yield
        calls.append("after")

    with house_rule("golf.audit-hw", "AUDIT-HW-1", determinize=determinize):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-hw"], seed=3)
        world = game.determinize(0, seed=11)
        assert calls[:2] == ["before", "after"]
        assert world.view(0) == game.view(0)
        assert any(_hidden_differs(game, game.determinize(0, seed=s)) for s in range(5))


def test_determinize_through_a_new_style_wrapper_still_redeals_and_blames_it() -> None:
    @hookimpl(wrapper=True)
    def determinize(state: Any, seat: int, rng: Any) -> Any:
        answer = yield
        return answer

    @hookimpl(wrapper=True)
    def determinize_bad(state: Any, seat: int, rng: Any) -> Any:
        yield
        return False

    with house_rule("golf.audit-w", "AUDIT-W-1", determinize=determinize):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-w"], seed=3)
        assert game.determinize(1, seed=5).view(1) == game.view(1)
    with house_rule("golf.audit-wb", "AUDIT-WB-1", determinize=determinize_bad):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-wb"], seed=3)
        with pytest.raises(PluginError, match="not True"):
            game.determinize(1, seed=5)


def test_an_option_error_inside_a_wrapped_chain_is_the_rules_plugin_error() -> None:
    @hookimpl(hookwrapper=True)
    def determinize(state: Any, seat: int, rng: Any) -> Any:
        yield

    @hookimpl
    def refuse(state: Any, seat: int, rng: Any) -> Any:
        raise OptionError("the rule refuses")

    refuse.__name__ = "determinize"
    with (
        house_rule("golf.audit-wo", "AUDIT-WO-1", determinize=determinize),
        house_rule("golf.audit-ro", "AUDIT-RO-1", determinize=refuse),
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-wo", "golf.audit-ro"], seed=3)
        with pytest.raises(PluginError) as info:
            game.determinize(0, seed=1)
        assert info.value.plugin == "golf.audit-ro"


class Truthy(int):
    pass


def test_an_int_subclass_answer_is_refused_naming_the_rule() -> None:
    @hookimpl
    def determinize(state: Any, seat: int, rng: Any) -> Any:
        return Truthy(1)

    with house_rule("golf.audit-int", "AUDIT-INT-1", determinize=determinize):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-int"], seed=3)
        with pytest.raises(PluginError, match="answered 1, not True") as info:
            game.determinize(0, seed=1)
        assert info.value.plugin == "golf.audit-int"


def test_a_keyboard_interrupt_of_a_determinize_rule_passes_as_it_is() -> None:
    @hookimpl
    def determinize(state: Any, seat: int, rng: Any) -> Any:
        raise KeyboardInterrupt

    with house_rule("golf.audit-ki", "AUDIT-KI-1", determinize=determinize):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-ki"], seed=3)
        saved = game.save()
        with pytest.raises(KeyboardInterrupt):
            game.determinize(0, seed=1)
        assert game.save() == saved


@pytest.mark.parametrize("raised", [ValueError("boom"), cardcore.NotationError("bad text")])
def test_the_games_own_determinize_failure_is_a_plugin_error_naming_the_game(
    raised: Exception,
) -> None:
    game = cardcore.new_game("golf", 2, seed=3)
    impls = game.ruleset.pm.hook.determinize.get_hookimpls()
    own = [i for i in impls if i.plugin_name not in game.ruleset.rule_names]
    assert own, "golf implements determinize itself"
    old = own[0].function

    def broken(*args: Any) -> Any:
        raise raised

    own[0].function = broken
    try:
        with pytest.raises(PluginError) as info:
            game.determinize(0, seed=1)
        assert info.value.plugin == own[0].plugin_name  # (the core's default, for Golf)
        assert info.value.__cause__ is raised
    finally:
        own[0].function = old
    assert game.determinize(0, seed=1).view(0) == game.view(0)  # (the manager is shared)


def test_lenient_makes_a_fresh_strict_stream_replace_and_leaves_a_read_one() -> None:
    from cardcore.cli.screen import lenient

    fresh = io.TextIOWrapper(io.BytesIO(b"\xffa\nready\n"), encoding="utf-8")
    lenient(fresh)
    assert fresh.errors == "replace" and fresh.readline() == "\ufffda\n"
    read = io.TextIOWrapper(io.BytesIO(b"ok\n" + b"a" * 20000 + b"\n\xff\n"), encoding="utf-8")
    assert read.readline() == "ok\n"
    lenient(read)  # documented "when it can be": a stream read from already stays strict
    assert read.errors == "strict"


# --- part 2: docs/web.rst against the server -----------------------------------------------

TWO = [{"name": "Ann"}, {"name": "Bob"}]
VS_BOT = [{"name": "Ann"}, {"name": "Bot", "agent": "golf-greedy:seed=3"}]
HEADERS = {
    "content-security-policy",
    "x-content-type-options",
    "referrer-policy",
}


def _secure(r: Any) -> bool:
    return (
        set(r.headers) >= HEADERS
        and r.headers["x-content-type-options"] == "nosniff"
        and r.headers["referrer-policy"] == "no-referrer"
        and "default-src 'self'" in r.headers["content-security-policy"]
    )


def test_errors_are_json_with_security_headers_404_405_400_413() -> None:
    with serve() as (client, _, _):
        cases = [
            (client.get("/api/nope"), 404),
            (client.put("/api/sessions", json={}), 405),
            (client.post("/api/sessions", content=b"[1]"), 400),
            (client.post("/api/sessions", content=b"x" * 65537), 413),
            (client.get("/api/sessions/zzz"), 404),
            (client.get("/api/games"), 200),
        ]
        for r, status in cases:
            assert r.status_code == status, r.text
            assert _secure(r), r.headers
            body = r.json()
            if status != 200:
                assert set(body) == {"error"} and body["error"]


def test_a_body_of_exactly_64_kib_is_read_one_byte_more_is_413() -> None:
    with serve() as (client, _, _):
        body = json.dumps({"game": "golf", "seats": TWO, "pad": ""})
        exact = body[:-2] + "x" * (65536 - len(body)) + '"}'
        assert len(exact.encode()) == 65536
        r = client.post("/api/sessions", content=exact.encode())
        assert r.status_code == 201, r.text
        over = body[:-2] + "x" * (65537 - len(body)) + '"}'
        r = client.post("/api/sessions", content=over.encode())
        assert r.status_code == 413 and "64 KiB" in r.json()["error"]


def test_a_chunked_body_past_the_limit_is_413() -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"game": "golf", "pad": "'
        for _ in range(100):
            yield b"x" * 1024

    with serve() as (client, _, _):
        r = client.post("/api/sessions", content=chunks())
        assert r.status_code == 413


def _nested(levels: int, inner: str) -> bytes:
    """A request whose ``pad`` field makes *levels* levels of nesting, the object included."""
    return (
        '{"game": "golf", "seats": [{"name": "A"}, {"name": "B"}], "pad": '
        + "[" * (levels - 1)
        + inner
        + "]" * (levels - 1)
        + "}"
    ).encode()


def test_nesting_of_32_levels_is_taken_and_33_with_a_value_inside_refused() -> None:
    with serve() as (client, _, _):
        assert client.post("/api/sessions", content=_nested(32, "1")).status_code == 201
        r = client.post("/api/sessions", content=_nested(33, "1"))
        assert r.status_code == 400 and "deeper than 32" in r.json()["error"]
        r = client.post("/api/sessions", content=_nested(30000, "1"))  # under 64 KiB
        assert r.status_code == 400 and "32 levels" in r.json()["error"]


def test_nesting_of_33_levels_ending_in_an_empty_list_is_refused() -> None:
    with serve() as (client, _, _):
        r = client.post("/api/sessions", content=_nested(33, ""))
        assert r.status_code == 400, r.text


def test_quoted_messages_of_the_lobby_hold() -> None:
    with serve() as (client, _, _):
        cases = [
            (
                {"game": "golf", "seats": TWO, "rules": "golf.jokers"},
                "'rules' must be a list, not str",
            ),
            (
                {"game": "golf", "seats": TWO, "options": {"layout": 7}},
                "option 'layout' must be one of 6, 8, 9, 10, 4 or '4h', not 7",
            ),
            (
                {
                    "game": "golf",
                    "seats": [
                        {"name": "A"},
                        {"name": "B", "agent": "golf-greedy", "params": {"seed": "x"}},
                    ],
                },
                "seat 1: agent 'golf-greedy': seed must be a whole number, not 'x'",
            ),
        ]
        for body, message in cases:
            r = client.post("/api/sessions", json=body)
            assert r.status_code == 400 and message in r.json()["error"], (body, r.text)
        assert client.get("/api/sessions").headers["x-total-count"] == "0"


def test_seat_names_agents_and_seat_counts_are_bounded() -> None:
    with serve() as (client, _, _):

        def post(seats: Any, **extra: Any) -> Any:
            return client.post("/api/sessions", json={"game": "golf", "seats": seats, **extra})

        assert post([{"name": "A" * 201}, {"name": "B"}]).status_code == 400
        assert post([{"name": "A"}, {"name": "B", "agent": "g" * 201}]).status_code == 400
        assert post([{"name": "A"}] * 65).status_code == 400
        assert post([{"name": ""}, {"name": "B"}]).status_code == 201
        r = post([{"name": "N" * 45}, {}])
        assert r.status_code == 201
        names = [s["name"] for s in r.json()["seats"]]
        assert names == ["N" * 40, "Player 2"]
        for bad in ("Ann", "\u0410nn", "Ann (you)", "Bo (seat 1)", "\u202eAnn"):
            assert post([{"name": "Ann"}, {"name": bad}]).status_code == 400, bad


def test_clocks_are_from_1_to_86400_and_other_keys_refused() -> None:
    with serve() as (client, _, _):

        def post(time: Any) -> int:
            body = {"game": "golf", "seats": TWO, "time": time}
            return client.post("/api/sessions", json=body).status_code

        assert post({"turn": 86400, "total": 1}) == 201
        assert post({"turn": None, "total": None, "fallback": "resign", "forfeit": True}) == 201
        for bad in (
            {"turn": 0},
            {"turn": 86401},
            {"total": 0.5},
            {"turn": 60, "extra": 1},
            {"fallback": "never"},
            {"turn": 60, "forfeit": 1},
            [60],
        ):
            assert post(bad) == 400, bad


def test_origin_is_checked_for_the_lobby_post_and_the_websocket() -> None:
    from starlette.websockets import WebSocketDisconnect

    with serve() as (client, _, _):
        body = {"game": "golf", "seats": TWO}
        foreign = {"origin": "http://evil.example"}
        r = client.post("/api/sessions", json=body, headers=foreign)
        assert r.status_code == 403 and _secure(r)
        own = {"origin": "http://testserver"}
        assert client.post("/api/sessions", json=body, headers=own).status_code == 201
        other_port = {"origin": "http://testserver:8080"}
        assert client.post("/api/sessions", json=body, headers=other_port).status_code == 403
        with (
            pytest.raises(WebSocketDisconnect) as info,
            client.websocket_connect("/ws", headers=foreign) as ws,
        ):
            ws.receive_text()
        assert info.value.code == 1008
        with client.websocket_connect("/ws", headers=own) as ws:
            ws.send_text(json.dumps({"type": "ping", "t": 1}))
            assert json.loads(ws.receive_text())["type"] == "pong"


def test_the_listing_hides_waiting_games_and_pages_with_x_total_count() -> None:
    from cardcore.web.app import ServerLimits

    limits = ServerLimits(page=2, max_page=3)
    with serve(server_limits=limits) as (client, _, _):
        waiting = create(client, "golf", TWO)["session"]
        made = [create(client, "golf", VS_BOT)["session"] for _ in range(4)]
        # a seat of a person still open: waiting, not listed
        r = client.get("/api/sessions")
        assert r.headers["x-total-count"] == "0" and r.json() == []
        assert waiting not in [s["session"] for s in r.json()]
        for sid in made:
            with client.websocket_connect("/ws") as ws:
                p = Player(ws)
                p.send({"type": "join", "session": sid, "seat": 0})
                p.until("welcome")
        r = client.get("/api/sessions")
        assert r.headers["x-total-count"] == "4"
        assert [s["session"] for s in r.json()] == made[::-1][:2]  # newest first, page 2
        assert len(client.get("/api/sessions?limit=999").json()) == 3  # max_page
        assert len(client.get("/api/sessions?limit=0").json()) == 1
        assert [s["session"] for s in client.get("/api/sessions?offset=3&limit=3").json()] == [
            made[0]
        ]
        for bad in ("offset=-1", "limit=1234567890", "limit=x", "offset=1.0", "limit=\u0663"):
            r = client.get(f"/api/sessions?{bad}")
            assert r.status_code == 400 and "at most 9 digits" in r.json()["error"], bad
        assert client.get("/api/sessions?offset=999999999").status_code == 200


def test_server_limit_defaults_are_the_documented_ones() -> None:
    from cardcore.web.app import ServerLimits

    d = ServerLimits()
    assert (d.max_sessions, d.max_bot_games, d.max_per_client) == (1000, 4, 0)
    assert (d.idle_close, d.idle_when_full, d.page, d.max_page) == (3600, 300, 50, 200)
    assert (d.max_sockets, d.max_sockets_per_client, d.join_wait, d.keep_over) == (
        4096,
        0,
        60,
        3600,
    )


def test_a_full_server_answers_429_with_retry_after_only_to_a_valid_request() -> None:
    from cardcore.web.app import ServerLimits

    with serve(server_limits=ServerLimits(max_sessions=1)) as (client, _, _):
        create(client, "golf", TWO)
        r = client.post("/api/sessions", json={"game": "golf", "seats": TWO})
        assert r.status_code == 429 and r.headers["retry-after"] == "60" and _secure(r)
        assert r.json()["error"] == "the server holds 1 game already (at most 1): try again later"
        bad = {"game": "golf", "seats": TWO, "options": {"layout": 7}}
        assert client.post("/api/sessions", json=bad).status_code == 400


def test_a_socket_past_max_sockets_is_closed_1013_with_the_reason() -> None:
    from starlette.websockets import WebSocketDisconnect

    from cardcore.web.app import ServerLimits

    with (
        serve(server_limits=ServerLimits(max_sockets=1)) as (client, _, _),
        client.websocket_connect("/ws") as first,
    ):
        first.send_text(json.dumps({"type": "ping", "t": 1}))
        first.receive_text()
        with pytest.raises(WebSocketDisconnect) as info, client.websocket_connect("/ws") as ws:
            ws.receive_text()
        assert info.value.code == 1013
        assert info.value.reason == "the server holds 1 connection: try again later"


def test_record_and_replay_before_and_after_a_golf_game_and_no_hidden_card() -> None:
    with serve() as (client, _, dog):
        made = create(client, "golf", VS_BOT, options={"rounds": 1})
        sid = made["session"]
        assert made["seats"][1]["bot"] == "golf-greedy" and made["seats"][1]["link"] is None
        assert "seed" not in json.dumps(made)
        assert made["record"] is None and made["ended_by"] is None
        for path in ("record", "replay/0", "replay/5", "replay/1234567890123", "replay/x"):
            r = client.get(f"/api/sessions/{sid}/{path}")
            assert r.status_code == 409, (path, r.text)
        with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as spec_ws:
            spectator = Player(spec_ws)
            spectator.send({"type": "watch", "session": sid})
            assert spectator.until("welcome")["role"] == "spectator"
            ann = Player(ws)
            ann.send({"type": "join", "session": sid, "seat": 0})
            ann.until("welcome")
            mid = client.get(f"/api/sessions/{sid}")
            assert mid.json()["phase"] == "playing"
            assert client.get(f"/api/sessions/{sid}/record").status_code == 409
            view = ann.play_to_end(0)
            assert view["result"]["winners"]
            while spectator.mirror.view is None or not spectator.mirror.view["is_over"]:
                spectator.recv()
        assert dog.frames > 20  # every frame to a seat or the spectator passed the leak check
        over = client.get(f"/api/sessions/{sid}").json()
        assert over["phase"] == "over" and over["record"] == f"/api/sessions/{sid}/record"
        r = client.get(f"/api/sessions/{sid}/record")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        steps = cardcore.replay(r.json()).version
        zero = client.get(f"/api/sessions/{sid}/replay/0").json()
        assert zero["step"] == 0 and zero["action"] is None and zero["cause"] is None
        assert zero["actor"] is None and zero["steps"] == steps
        beyond = client.get(f"/api/sessions/{sid}/replay/999999999999").json()
        assert beyond["step"] == steps and beyond["view"]["seat"] is None
        assert beyond["action"] is not None
        for bad in ("1234567890123", "x", "-1", "\u0663"):
            assert client.get(f"/api/sessions/{sid}/replay/{bad}").status_code == 400, bad
        # a public view mid-replay shows no face-down card
        record = r.json()
        mid_view = client.get(f"/api/sessions/{sid}/replay/2").json()["view"]
        assert (
            cardcore.replay(
                {
                    **{k: v for k, v in record.items() if k != "result"},
                    "actions": record["actions"][:2],
                }
            ).view(None)
            == mid_view
        )
