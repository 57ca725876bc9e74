"""Two people, two browser windows: Golf, Tonk, Spit and Speed through their dedicated layouts.

The server is ``cardcore serve`` itself, started as the docs say (a process of
its own, with a database file). Each test opens one browser context per seat
(no bots), checks that the game's own layout is drawn (not the generic zones
view, and no layout error), and plays by clicking the table as a person would:
Golf and Tonk to their result, Spit and Speed for a run of real-time moves.
Both windows must follow every move. The docs' screenshots of the game pages
come from here (``CARDCORE_SCREENSHOTS=docs/_static/screenshots pytest tests/web``).
"""

# ruff: noqa: F811  (the fixture browser comes from test_browser)
from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.test_browser import SHOTS, _create, _view, browser  # noqa: F401

PROBLEMS: list[str] = []
"""Errors the pages reported (script errors, console errors), checked when a test closes them."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``cardcore serve --host 127.0.0.1 --port 0 --db games.db``; its address."""
    db = tmp_path_factory.mktemp("serve") / "games.db"
    cli = "import sys; from cardcore.cli import main; sys.exit(main())"
    proc = subprocess.Popen(
        [sys.executable, "-c", cli, "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, f"cardcore serve did not start: {line!r}"
        yield f"http://127.0.0.1:{found.group(1)}"
    finally:
        proc.terminate()
        proc.wait(10)


def _open_two(base: str, browser: Any, game: str, **extra: Any) -> tuple[list[Any], list[Any]]:
    contexts = [browser.new_context(), browser.new_context()]
    pages = [c.new_page() for c in contexts]
    for page in pages:  # a script error or a failed load on either page fails the test
        page.on("pageerror", lambda e: PROBLEMS.append(f"page error: {e}"))
        page.on("console", lambda m: m.type == "error" and PROBLEMS.append(f"console: {m.text}"))
    made = _create(pages[0], base, game, [{"name": "Ann"}, {"name": "Bob"}], **extra)
    for s, page in enumerate(pages):
        page.goto(base + made["seats"][s]["link"])
    for page in pages:
        page.wait_for_function("() => window.cardcore.view !== null")
    return contexts, pages


def _layout_ok(page: Any, game: str) -> None:
    assert page.get_attribute("#table", "data-layout") == game, page.inner_html("#table")[:400]
    assert page.locator(f'#table > [data-layout="{game}"]').count() == 1
    assert page.evaluate("window.cardcore.layoutErrors") == []


def _version(page: Any) -> int:
    v: int = page.evaluate("window.cardcore.version")
    return v


def _settle(pages: list[Any], before: int) -> None:
    """Wait until both windows show a version after *before* (or the end)."""
    for page in pages:
        page.wait_for_function(
            f"() => window.cardcore.version > {before} || window.cardcore.view.is_over",
            timeout=10000,
        )


def _close(contexts: list[Any]) -> None:
    for c in contexts:
        c.close()
    problems = PROBLEMS[:]
    PROBLEMS.clear()
    assert problems == [], problems


def test_golf_in_two_windows(served: str, browser: Any) -> None:
    base = served
    contexts, pages = _open_two(base, browser, "golf", options={"rounds": 1})
    for page in pages:
        _layout_ok(page, "golf")
        for s in (0, 1):  # both grids, 2 x 3 cells each
            assert page.locator(f'.golf .grid[data-seat="{s}"] .cell').count() == 6
    shot = False
    deadline = time.time() + 180  # bounds a hang; a loaded machine clicks slowly
    while time.time() < deadline:
        view = _view(pages[0])
        if view["is_over"]:
            break
        seat = view["to_act"][0]
        page = pages[seat]
        mine = _view(page)
        table, legal = mine["table"], mine["legal"]
        before = _version(page)
        grid = f'.golf .grid[data-seat="{seat}"]'
        if table["phase"] == "setup":
            page.click(f'{grid} .cell[data-pos="{legal[0].split()[1]}"]')
        elif "draw" in legal:
            page.click('.pile[data-pile="stock"].target')
        else:  # place the drawn card on a face-down position, else discard it
            hidden = [
                a
                for a in legal
                if a.startswith("replace ") and table["grids"][seat][int(a.split()[1])] is None
            ]
            if hidden:
                if not shot and before > 6:
                    pages[seat].screenshot(path=str(SHOTS / "golf.png"), full_page=True)
                    shot = True
                page.click(f'{grid} .cell[data-pos="{hidden[0].split()[1]}"]')
            else:
                page.click('.pile[data-pile="discard"].target')
        _settle(pages, before)
        _layout_ok(pages[1 - seat], "golf")
    for page in pages:
        page.wait_for_selector("#record")
        assert "Result" in page.inner_text("#after")
        assert _view(page)["is_over"]
    assert shot
    _close(contexts)


def _tonk_hand_in_two_windows(base: str, browser: Any) -> set[str]:
    """Play one hand of Tonk in two windows by clicks; the kinds of move the hand had."""
    # the server deals at random (a fair deal: the lobby takes no seed), so a deal that ends
    # the hand at once (a natural 49 or 50, a few in a hundred) is dealt again; the moves below
    # draw, spread, hit, discard and drop (one could end the hand on the first turn: 1 in 2,000)
    for _ in range(30):
        contexts, pages = _open_two(base, browser, "tonk", options={"hands": 1})
        if not _view(pages[0])["is_over"]:
            break
        _close(contexts)
    assert not _view(pages[0])["is_over"]
    for page in pages:
        _layout_ok(page, "tonk")
        assert page.locator('.tonk [data-tonk="spreads"]').count() == 1
        assert page.locator(".tonk .hand[data-seat] .card").count() == 10
    turns = 0
    seen = set()
    shot = False
    deadline = time.time() + 180  # bounds a hang; a loaded machine clicks slowly
    while time.time() < deadline:
        view = _view(pages[0])
        if view["is_over"]:
            break
        seat = view["to_act"][0]
        page = pages[seat]
        mine = _view(page)
        legal = mine["legal"]
        before = _version(page)
        hand = f'.tonk .hand[data-seat="{seat}"]'
        spreads = [a for a in legal if a.startswith("spread ")]
        hits = [a for a in legal if a.startswith("hit ")]
        if "drop" in legal and turns >= 12:
            page.click('[data-tonk="drop"]')
            seen.add("drop")
        elif "draw" in legal:
            page.click('.pile[data-pile="stock"].target')
            turns += 1
            seen.add("draw")
        elif spreads:
            for c in spreads[0].split()[1:]:
                page.click(f'{hand} [data-card="{c}"]')
            page.click('[data-tonk="spread"]')
            seen.add("spread")
        elif hits:
            _, number, c = hits[0].split()
            page.click(f'{hand} [data-card="{c}"]')
            page.click(f'.spread[data-spread="{number}"].target')
            seen.add("hit")
        elif any(a.startswith("discard ") for a in legal):
            c = next(a for a in legal if a.startswith("discard ")).split()[1]
            page.click(f'{hand} [data-card="{c}"]')
            if not shot and (mine["table"]["spreads"] or turns >= 11):
                page.screenshot(path=str(SHOTS / "tonk.png"), full_page=True)
                shot = True
            page.click('.pile[data-pile="discard"].target')
            seen.add("discard")
        else:
            page.locator(f'button.act[data-action="{legal[0]}"]').first.click()
        _settle(pages, before)
        _layout_ok(pages[1 - seat], "tonk")
    for page in pages:
        page.wait_for_selector("#record")
        assert _view(page)["is_over"]
    _close(contexts)
    return seen


def test_tonk_in_two_windows(served: str, browser: Any) -> None:
    # a hand the deal lets end before anyone discards (a spread of every card at once: rare,
    # and the fair deal cannot be chosen) is played again, up to three hands
    for _ in range(3):
        seen = _tonk_hand_in_two_windows(served, browser)
        if {"draw", "discard"} <= seen:
            break
    assert {"draw", "discard"} <= seen, seen


def _realtime(game: str, base: str, browser: Any) -> None:
    contexts, pages = _open_two(base, browser, game)
    for page in pages:
        _layout_ok(page, game)
        assert page.locator(f".{game} .pile[data-pile]").count() == 2
    moves = 0
    deadline = time.time() + 120  # bounds a hang; a loaded machine clicks slowly
    turn = 0
    explained = False
    while time.time() < deadline and moves < 12:
        seat = turn % 2
        turn += 1
        page = pages[seat]
        view = _view(page)
        if view["is_over"]:
            break
        legal = view["legal"]
        plays = [a for a in legal if a.startswith("play ")]
        if not explained and _illegal_click(page, game, seat, view):
            explained = True
            continue
        before = _version(page)
        if plays:
            _, mine, centre = plays[0].split()
            if game == "spit":
                page.click(f'.stack[data-seat="{seat}"][data-layout="{mine}"]')
            else:
                page.click(f'.hand[data-seat="{seat}"] [data-card="{mine}"]')
            page.click(f'.pile[data-pile="{centre}"].target')
        elif "ready" in legal or "stuck" in legal or "spit" in legal:
            word = next(w for w in ("ready", "stuck", "spit") if w in legal)
            page.locator(f'button.act[data-action="{word}"]').first.click()
        elif legal:
            page.locator(f'button.act[data-action="{legal[0]}"]').first.click()
        else:
            page.wait_for_timeout(100)
            continue
        page.wait_for_function(
            f"() => window.cardcore.version > {before} || "
            "document.querySelector('#message').className.includes('stale')",
            timeout=10000,
        )
        if _version(page) > before:
            moves += 1
            _settle([pages[1 - seat]], before)
        if moves == 6:
            pages[0].screenshot(path=str(SHOTS / f"{game}.png"), full_page=True)
        for p in pages:
            _layout_ok(p, game)
    assert moves >= 12 or _view(pages[0])["is_over"], moves
    assert explained
    # the latency of the last confirmed move is shown on the table (its "ok" follows the update)
    pages[0].wait_for_function(
        f"() => document.querySelector('.{game} .latency').innerText.includes('ms')",
        timeout=10000,
    )
    assert "ms" in pages[0].inner_text(f".{game} .latency")
    _close(contexts)


def _illegal_click(page: Any, game: str, seat: int, view: dict[str, Any]) -> bool:
    """Pick a card or pile of *seat* that no centre pile takes now, click a centre pile:
    the page says why, and nothing is sent."""
    table = view["table"]
    piles = [p for p, cards in table["piles"].items() if cards]
    if not piles:
        return False
    pile = piles[0]
    mine = table["seats"][seat]
    if game == "spit":
        options = [str(k + 1) for k, p in enumerate(mine["layout"]) if p and p[0]]
        pick = f'.stack[data-seat="{seat}"][data-layout="{{}}"]'
    else:
        options = [c for c in mine["hand"] if c]
        pick = f'.hand[data-seat="{seat}"] [data-card="{{}}"]'
    bad = [o for o in options if f"play {o} {pile}" not in view["legal"]]
    if not bad:
        return False
    before = _version(page)
    # the answer to this page's last move ("play ... ✓") comes after its update: once it is
    # read, only the refusal can fill the cleared line
    page.wait_for_function("() => Object.keys(window.cardcore.pending).length === 0", timeout=10000)
    page.evaluate("document.querySelector('#message').textContent = ''")
    page.click(pick.format(bad[0]))
    page.click(f'.pile[data-pile="{pile}"]')
    page.wait_for_function("() => document.querySelector('#message').textContent.length > 0")
    assert "Not allowed" in page.inner_text("#message"), page.inner_text("#message")
    assert "one rank above or below" in page.inner_text("#message")
    assert _version(page) == before and page.evaluate("Object.keys(window.cardcore.pending)") == []
    page.click("button.clear")
    return True


def test_spit_in_two_windows(served: str, browser: Any) -> None:
    _realtime("spit", served, browser)


def test_speed_in_two_windows(served: str, browser: Any) -> None:
    _realtime("speed", served, browser)
