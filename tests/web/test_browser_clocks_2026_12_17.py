"""Clocks in the browser (2026-12-17): the lobby form sets a game's clocks, the game page
counts them down, and a seat whose turn clock runs out is played for.

Skipped like the other browser tests when Playwright or /usr/bin/chromium is missing (a
missing browser fails under ``CI=true``).
"""
# ruff: noqa: F811  (the fixtures browser and server come from test_browser)

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CI") != "true":
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no /usr/bin/chromium", allow_module_level=True)
    pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")

from cardcore.web import WebServer
from tests.web.test_browser import _create, browser, no_frame_leaks, server  # noqa: F401


def test_the_lobby_form_sets_the_clocks(server: tuple[str, WebServer], browser: Any) -> None:
    base, web = server
    page = browser.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#game option[value=spit]", state="attached")
    page.select_option("#game", "spit")
    assert page.text_content("#turn-label") == "Seconds a seat may stay idle"  # real time
    page.select_option("#game", "golf")
    assert page.text_content("#turn-label") == "Seconds per turn"
    page.fill("#turn-clock", "45")
    page.fill("#total-clock", "900")
    assert page.locator("#fallback").count() == 0  # each built-in game plays its own default
    page.click("#start")
    page.wait_for_selector(".seat-link")
    made = [s for s in web.hub.sessions.values() if s.setup.game == "golf"][-1]
    time = made.config.time
    assert (time.turn, time.total, time.fallback, time.forfeit) == (45, 900, "first", False)
    page.check("#forfeit")  # "Lose on time"
    page.evaluate("document.getElementById('links').textContent = ''")  # the last game's links
    page.click("#start")
    page.wait_for_selector(".seat-link")
    lost_on_time = [s for s in web.hub.sessions.values() if s.setup.game == "golf"][-1]
    assert lost_on_time is not made and lost_on_time.config.time.forfeit is True
    page.fill("#turn-clock", "")  # no number: no clock
    page.fill("#total-clock", "")
    page.evaluate("document.getElementById('links').textContent = ''")  # the last game's links
    page.click("#start")
    page.wait_for_selector(".seat-link")
    later = [s for s in web.hub.sessions.values() if s.setup.game == "golf"][-1]
    assert later is not lost_on_time and not later.config.time.is_on
    assert later.config.time.forfeit is False  # ticked, but with no clock nothing runs out
    page.close()


def test_the_game_page_counts_the_turn_clock_down(
    server: tuple[str, WebServer], browser: Any
) -> None:
    base, _ = server
    made = _create(
        browser.new_page(),
        base,
        "golf",
        [{"name": "Ann"}, {"name": "Bot", "agent": "golf-greedy", "params": {"seed": 1}}],
        options={"rounds": 1},
        seed=5,
        time={"turn": 300},
    )
    page = browser.new_page()
    page.goto(base + made["seats"][0]["link"])
    page.wait_for_function("() => document.querySelector('#clocks').textContent.includes('Ann')")
    first = page.text_content("#clocks")
    assert re.match(r"⏱ Ann \(you\) [45]:\d\d", first or ""), first  # (the bot's may follow)
    ann = r"Ann \(you\) (\d+):(\d\d)"  # her clock (the bot's may come and go beside it)
    was = re.search(ann, first or "")
    assert was, first
    page.wait_for_function(  # counting down: a tick a second (a loaded machine ticks late)
        f"() => (document.querySelector('#clocks').textContent.match(/{ann}/) || [''])[0]"
        f" !== {json.dumps(was.group(0))}",
        timeout=10000,
    )
    now = re.search(ann, page.text_content("#clocks") or "")
    assert now and int(now[1]) * 60 + int(now[2]) < int(was[1]) * 60 + int(was[2]), (first, now)
    page.close()


def test_a_clock_of_an_hour_or_more_shows_hours(
    server: tuple[str, WebServer], browser: Any
) -> None:
    base, _ = server
    made = _create(
        browser.new_page(),
        base,
        "golf",
        [{"name": "Ann"}, {"name": "Bot", "agent": "golf-greedy", "params": {"seed": 1}}],
        options={"rounds": 1},
        seed=5,
        time={"turn": 86400},
    )
    page = browser.new_page()
    page.goto(base + made["seats"][0]["link"])
    page.wait_for_function("() => document.querySelector('#clocks').textContent.includes('Ann')")
    shown = page.text_content("#clocks") or ""
    assert re.match(r"⏱ Ann \(you\) (24:00:00|23:59:5\d)", shown), shown  # not "1440:00"
    page.close()


def test_a_seat_whose_clock_runs_out_is_played_for(
    server: tuple[str, WebServer], browser: Any
) -> None:
    base, web = server
    made = _create(
        browser.new_page(),
        base,
        "golf",
        [{"name": "Ann"}, {"name": "Bot", "agent": "golf-greedy", "params": {"seed": 1}}],
        options={"rounds": 1},
        seed=6,
        time={"turn": 1, "fallback": "first"},
    )
    page = browser.new_page()
    page.goto(base + made["seats"][0]["link"])
    page.wait_for_function("() => window.cardcore.version >= 1", timeout=8000)
    frames = [json.loads(f) for f in page.evaluate("window.cardcore.frames")]
    causes = {(m["action"]["seat"], m["action"]["cause"]) for m in frames if m["type"] == "update"}
    assert (0, "timeout") in causes  # Ann never clicked: her first legal move was played
    # and her page says so (before, only the other seats were told)
    page.wait_for_function(
        "() => document.querySelector('#message').textContent.includes('Your time ran out')"
    )
    assert web.hub.sessions[made["session"]].game.version >= 1
    page.close()
