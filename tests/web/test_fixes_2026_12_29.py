"""Fixes of 2026-12-29: a full server checks a new game's rules and options before its limits."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardcore.web.app import ServerLimits
from tests.web.helpers import create, serve

pytest.importorskip("starlette")

PEOPLE = [{"name": "A"}, {"name": "B"}]


def _post(client: Any, body: dict[str, Any]) -> Any:
    return client.post("/api/sessions", content=json.dumps(body))


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ({"rules": ["golf.nope"]}, "golf.nope"),
        ({"options": {"layout": 7}}, "layout"),
        ({"options": {"zz": 1}}, "zz"),
        ({"rules": ["golf.hard"], "without": ["golf.hard"]}, "golf.hard"),
    ],
)
def test_a_full_server_refuses_a_bad_rule_or_option_with_400_not_429(
    extra: dict[str, Any], named: str
) -> None:
    """A request the server would refuse once there is room is refused now, naming what was
    wrong (it was answered 429 with ``Retry-After``, asking the client to send it again)."""
    with serve(server_limits=ServerLimits(max_sessions=1, idle_close=0)) as (client, server, _):
        create(client, "golf", PEOPLE)
        full = _post(client, {"game": "golf", "seats": PEOPLE})
        assert full.status_code == 429 and "Retry-After" in full.headers
        r = _post(client, {"game": "golf", "seats": PEOPLE, **extra})
        assert r.status_code == 400, r.text
        assert named in r.json()["error"]
        assert len(server.hub.sessions) == 1


def test_seats_the_game_does_not_take_are_refused_before_names_and_agents() -> None:
    """The game's own check of its seats runs with the rules and options before any seat's
    name is compared or agent built (a wrong seat count was refused for its names, or after
    building up to 64 agents)."""
    seats = [{"name": "A"}, {"name": "A"}, {"name": "B", "agent": "no-such-agent"}]
    with serve() as (client, server, _):
        r = _post(client, {"game": "spit", "seats": seats})
        assert r.status_code == 400, r.text
        assert "CORE-SEAT-2" in r.json()["error"]
        r = _post(client, {"game": "tonk", "seats": [*seats, {"name": "C"}]})
        assert r.status_code == 400 and "TONK-GEN-1" in r.json()["error"], r.text
        assert len(server.hub.sessions) == 0
