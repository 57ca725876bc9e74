"""Fixes and doc claims of the afternoon of 2026-12-06, each pinned to behaviour."""

from __future__ import annotations

import pytest

import cardcore


def _tonk_after_draw() -> tuple[cardcore.Game, int, str]:
    game = cardcore.new_game("tonk", 2, seed=1)
    seat = game.to_act[0]
    game.act(seat, "draw")
    card = next(str(a).split()[1] for a in game.legal_actions(seat) if str(a).startswith("discard"))
    return game, seat, card


@pytest.mark.parametrize(
    ("name", "text", "error"),
    [
        ("golf", "flip 6", cardcore.IllegalActionError),
        ("golf", "flip 99", cardcore.IllegalActionError),
        ("spit", "play 6 L", cardcore.NotationError),
        ("spit", "play 0 L", cardcore.NotationError),
    ],
)
def test_number_out_of_range_is_illegal_or_malformed_as_notation_rst_says(
    name: str, text: str, error: type[Exception]
) -> None:
    """notation.rst: a number the game's words allow but the table lacks is illegal; a
    number outside the words is malformed. Nothing changes either way."""
    game = cardcore.new_game(name, 2, seed=1)
    if name == "spit":
        for seat in (0, 1):
            game.act(seat, "ready")
    seat = game.to_act[0]
    before = game.save()
    with pytest.raises(error):
        game.act(seat, text)
    assert game.save() == before


def test_tonk_spread_number_missing_is_illegal_zero_is_malformed() -> None:
    game, seat, card = _tonk_after_draw()
    before = game.save()
    with pytest.raises(cardcore.IllegalActionError, match="no spread number 9"):
        game.act(seat, f"hit 9 {card}")
    with pytest.raises(cardcore.NotationError):
        game.act(seat, f"hit 0 {card}")
    assert game.save() == before


def test_kit_checks_that_reached_no_sampled_point_are_skipped() -> None:
    """testing-kit.rst: twins and clone compare nothing with no sampled point (rejections are
    tried at the end of each game too)."""
    from cardcore.testing import check_game

    report = check_game(
        "golf", players=2, options={"rounds": 1}, games=1, samples_per_game=0, strict=False
    )
    assert report.ok
    assert "rejections" in report.checks and report.bad_inputs > 0
    for check in ("twins", "clone"):
        assert check in report.skipped and check not in report.checks, check
        assert "no sampled point" in report.skipped[check]
    sampled = check_game("golf", players=2, options={"rounds": 1}, games=1, strict=False)
    assert {"twins", "clone"} <= set(sampled.checks)
    assert sampled.twins > 0


def test_spy_agent_without_check_only_plays_and_pools() -> None:
    from cardcore.testing import Report, SpyAgent

    game = cardcore.new_game("golf", 2, seed=3)
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    for check in (True, False):
        report = Report("golf")
        pool: dict[cardcore.Action, None] = {}
        agent = SpyAgent(seat, 1, report, pool=pool, secret=3, check=check)
        agent.choose({"seat": seat + 1}, legal)  # the view of another seat
        assert list(pool) == list(legal)
        assert report.failed == (1 if check else 0)


def test_report_keeps_one_message_for_a_seat_and_the_spectator() -> None:
    from cardcore.testing import Report

    report = Report("golf")
    report.fail("events sent to seat 1 show cards it does not know")
    report.fail("events sent to seat spectator show cards it does not know")
    assert report.failed == 2 and len(report.failures) == 1


def test_web_limit_messages_count_in_words() -> None:
    """web.rst: a refused game says which limit was reached ("1 game", never "1 games")."""
    pytest.importorskip("starlette")
    from types import SimpleNamespace

    from cardcore.web._quota import LimitError, Quota, ServerLimits

    live = {"a": SimpleNamespace(id="a", phase="playing")}
    for limits, bots, text in [
        (ServerLimits(max_sessions=1), False, "the server holds 1 game already (at most 1)"),
        (ServerLimits(max_per_client=1), False, "1 game from your address is waiting"),
        (ServerLimits(max_bot_games=1), True, "1 game of bots only is being played"),
    ]:
        quota = Quota(limits)
        quota.creators["a"] = "1.2.3.4"
        with pytest.raises(LimitError) as info:
            quota.check(live, ["a"], "1.2.3.4", bots)  # type: ignore[arg-type]
        assert text in str(info.value)


@pytest.mark.parametrize(
    ("names", "status"),
    [(["", "Player 1"], 400), (["Player 2", ""], 400), (["Ann", "Player 1"], 201)],
)
def test_web_seat_name_may_not_be_another_seats_default(names: list[str], status: int) -> None:
    """web.rst: a seat's name may not be another seat's name, or its default ``Player N``
    where it gives none; a seat that gives a name frees its default."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from cardcore.web import WebServer, create_app

    server = WebServer(None, bot_delay=0.0)
    with TestClient(create_app(server)) as client:
        seats = [{"name": name} for name in names]
        r = client.post("/api/sessions", json={"game": "golf", "seats": seats})
        assert r.status_code == status, r.text
        assert len(server.hub.sessions) == (status == 201)


def test_on_error_is_not_carried_to_a_clone_or_a_loaded_game() -> None:
    """embedding.rst: on_error belongs to the game's bus, as its subscriptions do."""
    game = cardcore.new_game("golf", 2, seed=5)
    game.events.on_error = lambda failure: None
    for copy in (game.clone(), cardcore.load(game.save())):
        assert copy.events.on_error is None


def test_a_subscription_made_mid_batch_gets_the_rest_of_the_batch() -> None:
    """embedding.rst: subscribed by a handler, it receives the batch from the next event on."""
    game = cardcore.new_game("golf", 2, seed=5)
    late: list[cardcore.Event] = []
    first: list[cardcore.Event] = []

    def subscribe_late(event: cardcore.Event) -> None:
        first.append(event)
        if len(first) == 1:
            game.events.subscribe(cardcore.Event, late.append)

    game.events.subscribe(cardcore.Event, subscribe_late)
    seat = game.to_act[0]
    game.apply(game.legal_actions(seat)[0])
    assert len(first) >= 2  # the action and at least one more event in the batch
    assert late == first[1:]


@pytest.mark.parametrize("name", ["spit-greedy", "spit-human"])
def test_spit_agents_errors_name_the_agent_as_registered(name: str) -> None:
    """Every agent's error names it as it is registered (a spec's name), as the others do."""
    with pytest.raises(cardcore.OptionError, match=f"agent '{name}': seed must be"):
        cardcore.load_agent(f"{name}:seed=x")
    from cardcore_spit.agents import SpitGreedyAgent, SpitHumanAgent

    kind = SpitGreedyAgent if name == "spit-greedy" else SpitHumanAgent
    with pytest.raises(cardcore.OptionError, match=f"agent '{name}': seed must be"):
        kind(seed=-1)


def test_go_fish_agent_refuses_a_negative_seed_and_an_empty_choice() -> None:
    """The example agent refuses what the built-in agents refuse, by the same error kinds."""
    pytest.importorskip("cardcore_gofish")
    from cardcore_gofish.agents import GoFishBasicAgent

    for seed in (-1, "x", 1.5, True):
        with pytest.raises(cardcore.OptionError, match="gofish-basic"):
            GoFishBasicAgent(seed)  # type: ignore[arg-type]
    game = cardcore.new_game("gofish", 2, seed=1)
    seat = game.to_act[0]
    with pytest.raises(cardcore.ArgumentError, match="no legal action"):
        GoFishBasicAgent(1).choose(game.view(seat), [])
    action = GoFishBasicAgent(None).choose(game.view(seat), game.legal_actions(seat))
    assert action in game.legal_actions(seat)
