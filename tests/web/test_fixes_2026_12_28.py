"""Fixes of 2026-12-28: the pages' requests when the server does not answer.

CI failed once on ``test_a_move_clicked_while_the_server_is_down_is_not_lost_silently``: the
server stopped just as a seat's first view arrived, the page asked for the game's view schema,
and the refused ``fetch`` became an uncaught script error ("Failed to fetch"); the schema was
then never asked again. Every ``fetch`` of the lobby and the table now says what failed, or is
retried, and raises nothing. Each test here fails on the code before (an uncaught error or a
silent page); requests are made to fail by aborting them in the browser, so no test depends on
when a server stops.

Skipped like the other browser tests when Playwright or /usr/bin/chromium is missing (a
missing browser fails under ``CI=true``).
"""

# ruff: noqa: F811  (the fixtures come from test_browser_mutants_2026_12_27)
from __future__ import annotations

import re
from typing import Any

import pytest

from cardcore.web import WebServer
from tests.web.test_browser_mutants_2026_12_27 import (  # noqa: F401
    PROBLEMS,
    _page,
    _post,
    _settle,
    _two,
    _version,
    browser,
    clean_pages_and_frames,
    served,
)

expect = pytest.importorskip("playwright.sync_api").expect


def _abort(route: Any) -> None:
    route.abort()


def test_a_schema_request_the_server_does_not_answer_raises_nothing_and_is_asked_again(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Ann opens her link before Bob (no game yet, so her welcome has no schema); her page's
    request for the schema is refused when the game is dealt; no script error, and the next
    update asks again and gets it."""
    base, _ = served
    made = _post(
        _page(browser), base, {"game": "golf", "seats": [{"name": "Ann"}, {"name": "Bob"}]}
    )
    links = [base + s["link"] if s["link"].startswith("/") else s["link"] for s in made["seats"]]
    ann = _page(browser)
    asked: list[str] = []
    ann.on("requestfailed", lambda r: asked.append(r.url))
    ann.route(re.compile(r"/api/sessions/[^/]+$"), _abort)
    ann.goto(links[0])
    ann.wait_for_function("() => window.cardcore.game !== null")
    assert ann.evaluate("window.cardcore.schema") is None
    bob = _page(browser, links[1])
    pages = [ann, bob]
    for page in pages:
        page.wait_for_function("() => window.cardcore.view !== null")
    ann.wait_for_function("() => window.cardcore.schemaAsked === false")  # the refusal is seen
    assert asked and ann.evaluate("window.cardcore.schema") is None
    assert PROBLEMS == [], PROBLEMS
    ann.unroute(re.compile(r"/api/sessions/[^/]+$"))
    to_act = ann.evaluate("window.cardcore.view.to_act[0]")
    page = pages[to_act]
    before = _version(page)
    page.locator("#actions button[data-action]").first.click()
    _settle(pages, before)
    ann.wait_for_function("() => window.cardcore.schema !== null")
    fields = ann.evaluate("window.cardcore.schema.fields.map((f) => f.name)")
    assert fields, fields


def test_the_lobby_says_the_server_did_not_answer_a_new_game(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """The form's ``POST`` is refused by the network: the page says so, shows no link and
    raises nothing; the next try makes the game."""
    base, _ = served
    page = _page(browser, base + "/?game=golf")
    expect(page.locator("#seats .seat")).to_have_count(2)
    page.route(re.compile(r"/api/sessions$"), _abort)
    page.click("#start")
    expect(page.locator("#error")).to_contain_text("The server did not answer (")
    expect(page.locator("#error")).to_contain_text("the game was not made")
    expect(page.locator("#links a")).to_have_count(0)
    assert PROBLEMS == [], PROBLEMS
    page.unroute(re.compile(r"/api/sessions$"))
    page.click("#start")
    expect(page.locator("#links .seat-link")).to_have_count(1)
    expect(page.locator("#error")).to_have_text("")


def test_the_lobby_says_the_list_of_games_could_not_be_fetched(
    served: tuple[str, WebServer], browser: Any
) -> None:
    base, _ = served
    page = _page(browser)
    page.route(re.compile(r"/api/games$"), _abort)
    page.goto(base + "/")
    expect(page.locator("#error")).to_contain_text("reload the page")
    assert PROBLEMS == [], PROBLEMS


def test_a_replay_step_the_server_does_not_answer_is_said_and_can_be_tried_again(
    served: tuple[str, WebServer], browser: Any
) -> None:
    _, (ann, _bob) = _two(served, browser, "golf", 3)
    ann.click("#resign")
    ann.click("#resign-yes")
    ann.wait_for_selector("#replay")
    ann.route(re.compile(r"/replay/\d+$"), _abort)
    ann.click("#replay")
    expect(ann.locator(".replay .replay-error")).to_contain_text("could not be fetched")
    ann.click("#replay")  # said once, not once per try
    expect(ann.locator(".replay .replay-error")).to_have_count(1)
    assert PROBLEMS == [], PROBLEMS
    ann.unroute(re.compile(r"/replay/\d+$"))
    ann.click("#replay")
    ann.wait_for_selector('.replay [data-step="0"]')
    expect(ann.locator(".replay .replay-error")).to_have_count(0)
