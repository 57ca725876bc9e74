"""Late review of the pages' ``getJSON`` (2026-12-28): normal play still works (a new game,
the lobby's list, the replay's steps), a 2xx answer without ``seats`` makes no game, the
result's ``ended_by`` line is drawn from a good answer and left out on an error, and the
replay says the server's own error. Answers are faked in the browser with ``page.route``;
no test depends on timing. Skipped like the other browser tests when Playwright or
/usr/bin/chromium is missing.
"""

# ruff: noqa: F811  (the fixtures come from test_browser_mutants_2026_12_27)
from __future__ import annotations

import json
import re
from typing import Any

import pytest

from cardcore.web import WebServer
from tests.web.test_browser_mutants_2026_12_27 import (  # noqa: F401
    PROBLEMS,
    _page,
    _post,
    _two,
    browser,
    clean_pages_and_frames,
    served,
)
from tests.web.test_review_2026_12_28_web import COUNTERS, SCHEMA, _json_error, _problems

expect = pytest.importorskip("playwright.sync_api").expect

SESSIONS = re.compile(r"/api/sessions$")
STEPS = re.compile(r"/replay/\d+$")


def _fulfil(status: int, body: Any) -> Any:
    def answer(route: Any) -> None:
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    return answer


def test_a_2xx_answer_without_seats_makes_no_game_and_a_real_one_clears_the_line(
    served: tuple[str, WebServer], browser: Any
) -> None:
    base, _ = served
    page = _page(browser, base + "/?game=golf")
    expect(page.locator("#seats .seat")).to_have_count(2)
    page.route(SESSIONS, _fulfil(201, {"session": "x"}))
    page.click("#start")
    expect(page.locator("#error")).to_contain_text("not the server's answer")
    expect(page.locator("#error")).to_contain_text("the game was not made")
    expect(page.locator("#links a")).to_have_count(0)
    page.unroute(SESSIONS)
    page.click("#start")
    expect(page.locator("#links .seat-link")).to_have_count(1)
    expect(page.locator("#error")).to_have_text("")
    assert "undefined" not in page.locator("#links").inner_text()
    assert _problems() == []


def test_the_lobby_lists_a_game_of_bots_and_shows_no_undefined(
    served: tuple[str, WebServer], browser: Any
) -> None:
    base, _ = served
    bots = [{"name": n, "agent": "random", "params": {"seed": i}} for i, n in enumerate("AB")]
    _post(_page(browser), base, {"game": "golf", "seats": bots})
    page = _page(browser)
    page.add_init_script(COUNTERS)
    page.goto(base + "/?game=golf")
    expect(page.locator("#sessions li")).to_have_count(1)
    text = page.locator("#sessions").inner_text()
    assert "golf" in text and "undefined" not in text
    expect(page.locator("#error")).to_have_text("")
    assert _problems(page) == []


def test_an_empty_list_of_games_is_said(served: tuple[str, WebServer], browser: Any) -> None:
    base, _ = served
    page = _page(browser)
    page.add_init_script(COUNTERS)
    page.route(re.compile(r"/api/games$"), _fulfil(200, []))
    page.goto(base + "/")
    expect(page.locator("#error")).to_contain_text("no games listed")
    assert _problems(page) == []


def _over(served: tuple[str, WebServer], browser: Any, answer: Any = None) -> Any:
    _, (ann, _bob) = _two(served, browser, "golf", 3)
    ann.wait_for_function("() => window.cardcore.schema !== null")
    if answer is not None:  # the result's request for the session (its ended_by)
        ann.route(SCHEMA, answer)
    ann.click("#resign")
    ann.click("#resign-yes")
    ann.wait_for_selector("#replay")
    return ann


def test_the_replay_steps_forward_and_back_with_no_error_line(
    served: tuple[str, WebServer], browser: Any
) -> None:
    ann = _over(served, browser)
    ann.click("#replay")
    ann.wait_for_selector('.replay [data-step="0"]')
    ann.locator('.replay button[aria-label="Step forward"]').click()
    ann.wait_for_selector('.replay [data-step="1"]')
    expect(ann.locator(".replay .replay-error")).to_have_count(0)
    assert "undefined" not in ann.locator(".replay").inner_text()
    assert _problems() == []


def test_a_replay_step_refused_says_the_servers_error(
    served: tuple[str, WebServer], browser: Any
) -> None:
    ann = _over(served, browser)
    ann.click("#replay")
    ann.wait_for_selector('.replay [data-step="0"]')
    ann.route(STEPS, _json_error(404))
    ann.locator('.replay button[aria-label="Step forward"]').click()
    expect(ann.locator(".replay .replay-error")).to_contain_text("(busy)")
    expect(ann.locator('.replay [data-step="0"]')).to_have_count(1)
    assert "undefined" not in ann.locator(".replay").inner_text()
    assert _problems() == []


def test_the_result_draws_ended_by_from_a_good_answer(
    served: tuple[str, WebServer], browser: Any
) -> None:
    ended = {"seat": 0, "text": "resign", "cause": "timeout"}
    ann = _over(served, browser, _fulfil(200, {"ended_by": ended}))
    expect(ann.locator(".summary .ended-by")).to_contain_text("lost on time")
    assert "undefined" not in ann.locator(".summary").inner_text()
    assert _problems() == []


def test_the_result_leaves_ended_by_out_on_an_error_answer(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """A ``{"error"}`` with an ``ended_by`` beside it is an error: no line, no script error."""
    ended = {"seat": 0, "text": "resign", "cause": "timeout"}
    _, (ann, _bob) = _two(served, browser, "golf", 3)
    ann.wait_for_function("() => window.cardcore.schema !== null")
    ann.route(SCHEMA, _fulfil(500, {"error": "down", "ended_by": ended}))
    with ann.expect_response(SCHEMA):
        ann.click("#resign")
        ann.click("#resign-yes")
        ann.wait_for_selector(".summary")
    ann.evaluate("() => new Promise((done) => setTimeout(done, 100))")  # its .json() read
    expect(ann.locator(".summary .ended-by")).to_have_count(0)
    assert _problems() == []
