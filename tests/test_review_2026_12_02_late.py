"""Review of 9b19e65..40958e0: confirmed bugs, each a strict xfail until fixed."""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import PluginError, RuleInfo, hookimpl
from cardcore.scoring import Ledger


def _rule(name: str, game: str, **hooks: Any) -> str:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(id=name.upper(), name=name, game=game, summary="a test rule")  # type: ignore[attr-defined]
    vars(module).update(hooks)
    cardcore.register("cardcore.rules", name, module)
    return name


@hookimpl(wrapper=True)
def _never_yields(state: Any, action: Any) -> Any:
    return []
    yield  # a generator that never yields: pluggy's "did not yield"


@hookimpl(wrapper=True)
def _yields_twice(state: Any, action: Any) -> Any:
    yield
    yield  # pluggy's "has second yield"
    return []


@pytest.mark.parametrize("hook", [_never_yields, _yields_twice], ids=["never", "twice"])
def test_a_forbid_action_wrapper_breaking_pluggys_protocol_is_blamed_by_name(hook: Any) -> None:
    name = _rule(f"golf.late-1202-{hook.__name__.strip('_')}", "golf", forbid_action=hook)
    try:
        game = cardcore.new_game("golf", 2, rules=[name], seed=3)
        with pytest.raises(PluginError) as failure:
            game.legal_actions(0)
        assert failure.value.plugin == name  # was the rule's name before d28c162; now 'golf'
    finally:
        cardcore.unregister("cardcore.rules", name)


@pytest.fixture
def golf_legal_raising_ledger_error(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from cardcore_golf.logic import GolfLogic

    def legal_actions(self: Any, state: Any, seat: int) -> Any:
        Ledger(2).post([1, 0], "unbalanced")  # a LedgerError from the game's own code
        raise AssertionError("unreachable")

    monkeypatch.setattr(GolfLogic, "legal_actions", legal_actions)
    yield


def test_a_ledger_error_raised_in_legal_actions_is_the_game_s_plugin_error(
    golf_legal_raising_ledger_error: None,
) -> None:
    try:
        game = cardcore.new_game("golf", 2, seed=3)
    except PluginError:
        pytest.skip("the game publishes legal actions while it is made")
    with pytest.raises(PluginError) as failure:
        game.legal_actions(game.to_act[0])
    assert failure.value.plugin == "golf"


def test_the_scores_skip_reason_blames_failing_games_only_when_games_failed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import random

    from cardcore.testing import check_game
    from cardcore_spit.logic import SpitLogic

    plain = SpitLogic.legal_actions

    def shuffled(self: Any, state: Any, seat: int) -> Any:  # views depend on hidden order
        legal = list(plain(self, state, seat))
        random.Random(len(legal)).shuffle(legal)
        random.shuffle(legal)
        return tuple(legal)

    monkeypatch.setattr(SpitLogic, "legal_actions", shuffled)
    report = check_game("spit", games=1, strict=False)
    assert report.failures  # failures of other checks; no game raised
    assert not any("raised" in f for f in report.failures)
    assert "never called GameLogic.score_round" in report.skipped["scores"]


def test_the_lobby_keeps_the_text_of_an_untyped_option_without_bounds(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import socket
    import threading
    import time

    if not os.path.exists("/usr/bin/chromium"):
        pytest.skip("no /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    uvicorn = pytest.importorskip("uvicorn")
    import attrs

    import cardcore_golf.rules as golf
    from cardcore import Option
    from cardcore.cli.args import parse_options
    from cardcore.web import WebServer, create_app

    module = types.ModuleType("golfmotto_late_1202")
    vars(module).update({k: v for k, v in vars(golf).items() if not k.startswith("__")})
    motto = Option("motto", None, "any text (the game's own)", kind=object, nullable=True)
    module.GAME = attrs.evolve(golf.GAME, name="golfmotto", options=(*golf.GAME.options, motto))  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "golfmotto", module)
    try:
        assert parse_options("golfmotto", ["motto=007"]) == {"motto": "007"}  # the CLI
        web = WebServer(str(tmp_path / "games.db"), bot_delay=0.05)
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        srv = uvicorn.Server(uvicorn.Config(create_app(web), log_level="warning", lifespan="on"))
        thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not srv.started:  # bounded wait for the server's own start flag
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        try:
            with sync_api.sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox", "--headless=new"]
                )
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{port}/")
                page.wait_for_selector("#game option[value=golfmotto]", state="attached")
                page.select_option("#game", "golfmotto")
                page.fill('[data-option="motto"]', "007")
                page.click("#start")
                page.wait_for_selector(".seat-link")
                browser.close()
            made = [s for s in web.hub.sessions.values() if s.setup.game == "golfmotto"]
            assert made and dict(made[-1].setup.options).get("motto") == "007"  # sent as 7
        finally:
            srv.should_exit = True
            thread.join(10)
    finally:
        cardcore.unregister("cardcore.games", "golfmotto")
