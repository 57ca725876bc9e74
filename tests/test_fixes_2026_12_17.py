"""Fixes of 2026-12-17, each with a test that failed before it."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("starlette")

from tests.web.helpers import serve


def test_the_lobby_offers_each_games_own_agents_first_as_the_default_bot() -> None:
    """The lobby's default bot is the first agent listed. It was the first by name, so
    Spit and Speed got ``ismcts`` (up to 2 s a decision in a real-time game) and Tonk too;
    now the agents declaring the game in ``games`` come first, each group by name."""
    with serve() as (client, _, _):
        games = {
            g["name"]: [a["name"] for a in g["agents"]] for g in client.get("/api/games").json()
        }
    assert games["spit"][:2] == ["spit-greedy", "spit-human"]
    assert games["speed"][:2] == ["spit-greedy", "spit-human"]
    assert games["tonk"][0] == "tonk-heuristic"
    assert games["golf"][0] == "golf-greedy"
    assert games["gofish"][0] == "gofish-basic"
    for name, agents in games.items():  # the rest by name, nothing lost or doubled
        assert "random" in agents and len(set(agents)) == len(agents), name
        general = [a for a in agents if a in ("ismcts", "random")]
        assert general == sorted(general) and agents[-len(general) :] == general, name


@pytest.mark.parametrize(
    ("given", "trusted"), [([], None), (["--forwarded-allow-ips", "10.0.0.1"], "10.0.0.1")]
)
def test_serve_believes_forwarded_for_only_from_the_proxies_named(
    given: list[str], trusted: str | None, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client's own X-Forwarded-For named any address it liked and lifted the per-client
    limits (uvicorn believes it from 127.0.0.1 by default)."""
    uvicorn = pytest.importorskip("uvicorn")
    from cardcore.cli import main

    seen: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: seen.append(self.config))
    db = str(tmp_path / "g.db")
    assert main(["serve", "--port", "0", "--db", db, *given]) == 0
    (config,) = seen
    assert config.proxy_headers is (trusted is not None)
    if trusted is not None:
        assert config.forwarded_allow_ips == trusted
