"""A mutation audit of the browser front end (``src/cardcore/web/static/``, 2026-12-27).

Each passing test here fails on a hand-made mutant of the page scripts (``play.js``,
``layouts.js``, ``cards.js``, ``lobby.js``) that every other browser test let through; the
mutant is named in its docstring. Strict xfails mark what was found broken by hand while
playing Golf, Tonk, Spit and Speed in two windows.

The server here runs on a clock two hours ahead of the browser's (the page must count the
clocks on the server's time, as a player's laptop with a wrong clock would). Games are dealt
from fixed seeds; no test waits a fixed time for an assertion.

Skipped like the other browser tests when Playwright or /usr/bin/chromium is missing (a
missing browser fails under ``CI=true``).
"""

# ruff: noqa: F811  (the fixture browser comes from test_browser)
from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CI") != "true":
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no /usr/bin/chromium", allow_module_level=True)
    pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from playwright.sync_api import expect  # noqa: E402

expect.set_options(timeout=10_000)  # (5 s by default: short for a loaded 2-CPU machine)

from cardcore.session import SessionConfig, TimeControl  # noqa: E402
from cardcore.web import WebServer, create_app  # noqa: E402
from tests.web.test_browser import Guard, _view, browser  # noqa: E402, F401

SHIFT = 7200.0
"""How far the server's clock runs ahead of the browser's (seconds)."""
GUARDS: list[Guard] = []
CONTEXTS: list[Any] = []
PROBLEMS: list[str] = []


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, WebServer]]:
    web = WebServer(None, bot_delay=0.05, clock=lambda: time.time() + SHIFT)
    GUARDS.append(Guard(web))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(web), log_level="warning", lifespan="on")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30  # (a loaded machine starts a thread slowly)
    while not srv.started:  # bounded wait for the server's own start flag
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", web
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(autouse=True)
def clean_pages_and_frames() -> Iterator[None]:
    """After each test: its pages closed, no script error, no frame showing a hidden card."""
    PROBLEMS.clear()
    yield
    while CONTEXTS:
        CONTEXTS.pop().close()
    problems = PROBLEMS[:]
    PROBLEMS.clear()
    assert problems == [], problems
    for guard in GUARDS:
        assert guard.failures == [], guard.failures[:3]


def _page(browser: Any, url: str | None = None) -> Any:
    context = browser.new_context()
    context.set_default_timeout(10000)
    CONTEXTS.append(context)
    page = context.new_page()
    page.on("pageerror", lambda e: PROBLEMS.append(f"page error: {e}"))
    if url is not None:
        page.goto(url)
    return page


def _post(page: Any, base: str, body: dict[str, Any]) -> dict[str, Any]:
    r = page.request.post(
        base + "/api/sessions", data=json.dumps(body), headers={"Content-Type": "application/json"}
    )
    assert r.status == 201, r.text()
    data: dict[str, Any] = r.json()
    return data


def _two(
    served: tuple[str, WebServer],
    browser: Any,
    game: str,
    seed: int,
    turn: float | None = None,
    **options: Any,
) -> tuple[str, list[Any]]:
    """A game of Ann and Bob dealt from *seed*, made as the lobby makes a game of people (the
    lobby's ``POST`` takes no seed); both seat pages open with their first view."""
    base, web = served
    time_control = TimeControl(turn=turn) if turn is not None else TimeControl()
    session = web.hub.create(
        game,
        ["Ann", "Bob"],
        now=web.host.clock(),
        seed=seed,
        options=options or None,
        config=SessionConfig(limits=web.limits, spectator_delay=0, time=time_control),
    )
    pages = [_page(browser, f"{base}/play/{session.id}#seat={s}") for s in (0, 1)]
    for page in pages:
        page.wait_for_function("() => window.cardcore.view !== null")
    return session.id, pages


def _version(page: Any) -> int:
    v: int = page.evaluate("window.cardcore.version")
    return v


def _settle(pages: list[Any], before: int) -> None:
    for page in pages:
        page.wait_for_function(f"() => window.cardcore.version > {before}", timeout=10000)


def _act(page: Any, text: str, pages: list[Any]) -> None:
    before = _version(page)
    assert text in _view(page)["legal"], (text, _view(page)["legal"])
    page.locator(f'#actions button[data-action="{text}"]').click()
    _settle(pages, before)


# -- names are text -----------------------------------------------------------------------------

HOSTILE = ['<img id="xa" src="x">', '<b id="xb">Bob</b>']


def test_player_names_are_shown_as_text_on_the_table_the_title_and_the_lobby(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutants: ``el``'s ``text`` set as ``innerHTML`` in play.js; the page's title line set
    with ``innerHTML``; the lobby's list of sessions built with ``innerHTML``."""
    base, _ = served
    opener = _page(browser)
    made = _post(
        opener,
        base,
        {
            "game": "golf",
            "seats": [{"name": HOSTILE[0]}, {"name": HOSTILE[1], "agent": "random"}],
        },
    )
    page = _page(browser, base + made["seats"][0]["link"])
    page.wait_for_function("() => window.cardcore.view !== null")
    expect(page.locator("#title")).to_contain_text(HOSTILE[0])
    expect(page.locator("#table")).to_contain_text(HOSTILE[1])
    expect(page.locator("#table")).to_contain_text(HOSTILE[0] + " (you)")
    assert page.locator("#xa, #xb").count() == 0
    lobby = _page(browser, base + "/")
    expect(lobby.locator("#sessions")).to_contain_text(HOSTILE[0] + ", " + HOSTILE[1])
    assert lobby.locator("#xa, #xb").count() == 0


# -- whose turn, whose cards ------------------------------------------------------------------


def test_golf_highlights_only_the_seat_to_act_and_only_its_own_cells_are_buttons(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutants: ``toAct`` testing the page's own seat instead of the box's (every box marked
    to act on the page of the seat to act); every grid's cells made click targets (a click
    on Bob's card 2 would flip Ann's)."""
    _, web = served
    sid, pages = _two(served, browser, "golf", 5)
    game = web.hub.sessions[sid].game
    assert game.view(None)["to_act"] == [0]  # seed 5: Ann flips first
    for seat, page in enumerate(pages):
        boxes = page.locator(".golf .seat-box.to-act")
        expect(boxes).to_have_count(1)
        expect(boxes).to_contain_text("Ann")
        expect(page.locator(f'.grid[data-seat="{1 - seat}"] [role=button]')).to_have_count(0)
    expect(pages[0].locator('.grid[data-seat="0"] .cell[role=button]')).to_have_count(6)


def test_golf_the_stock_draws_and_the_discard_pile_discards_the_card_drawn(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: the discard pile clickable only to ``take`` (never to ``discard`` the card
    drawn). Seed 5: Ann and Bob flip cards 0 and 1, then Ann draws and discards by clicks."""
    _, web = served
    sid, pages = _two(served, browser, "golf", 5)
    ann, bob = pages
    for page, move in ((ann, "flip 0"), (ann, "flip 1"), (bob, "flip 0"), (bob, "flip 1")):
        _act(page, move, pages)
    game = web.hub.sessions[sid].game
    version = game.version
    ann.locator('.pile[data-pile="stock"]').click()
    _settle(pages, version)
    assert game.view(None)["table"]["held"]["seat"] == 0
    discard = ann.locator('.pile[data-pile="discard"]')
    expect(discard).to_have_attribute("aria-label", re.compile(r"^discard: "))
    version = game.version
    discard.click()
    _settle(pages, version)
    table = game.view(None)["table"]
    assert table["held"] is None and table["discards"] == 2
    expect(bob.locator("#message")).to_have_text(re.compile(r"^Ann: discard$"))


def test_golf_four_card_peek_by_a_click_on_the_card(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: a grid cell never a click target for ``peek`` (only flip or replace). Seed 11,
    layout 4: Ann peeks at card 2 by clicking it; only her page shows it."""
    _, web = served
    sid, pages = _two(served, browser, "golf", 11, layout="4")
    ann, bob = pages
    game = web.hub.sessions[sid].game
    assert "peek 2" in _view(ann)["legal"]
    cell = ann.locator('.grid[data-seat="0"] .cell[data-pos="2"]')
    expect(cell).to_have_attribute("aria-label", "peek 2: a face-down card")
    cell.click()
    _settle(pages, 0)
    seen = game.view(0)["table"]["grids"][0][2]
    assert seen is not None
    expect(ann.locator('.grid[data-seat="0"] [data-pos="2"]')).to_have_attribute("data-card", seen)
    expect(bob.locator('.grid[data-seat="0"] [data-pos="2"]')).to_have_attribute(
        "aria-label", "a face-down card"
    )


GOLF_KNOCK = (
    'golf layout="4" round=1 dealer=1 turn=0 phase="draw" turns=0 ender=null final=null'
    " totals=[12,-3] | stock: 6C JH 7C 4D 10C QD 10D QS 2S 10S 10H 6H KC 8C JD AH 8H 9C 2D 7S 2H"
    " JC 3S 4S 3C 9S 8S 5S AD QC 6D 7H 3D 2C 4H 5H 9H 8D KH KD 5D JS 5C | discard: QH! | held: |"
    " grid.0: 3H@0 KS 7D@0 6S | grid.1: AC@1 AS 9D@1 4C"
)
"""Four-card Golf (reached from seed 11, the totals set by hand): Ann may draw, take or knock."""


def test_golf_each_seat_shows_its_own_total_and_a_knock_button_knocks(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutants: every seat's box showing seat 0's total; the Knock button never drawn."""
    base, web = served
    session = web.hub.create(
        "golf",
        ["Ann", "Bob"],
        now=web.host.clock(),
        position=GOLF_KNOCK,
        options={"layout": "4"},
        config=SessionConfig(limits=web.limits, spectator_delay=0),
    )
    pages = [_page(browser, f"{base}/play/{session.id}#seat={s}") for s in (0, 1)]
    for page in pages:
        page.wait_for_function("() => window.cardcore.view !== null")
    ann, bob = pages
    for page, you in ((ann, 0), (bob, 1)):
        mark = [" (you)" if s == you else "" for s in (0, 1)]
        box = '.golf .seat-box:has(.grid[data-seat="{}"]) > .label'
        expect(page.locator(box.format(0))).to_have_text(f"Ann{mark[0]} · total 12")
        expect(page.locator(box.format(1))).to_have_text(f"Bob{mark[1]} · total -3")
    expect(bob.locator("#table button", has_text="Knock")).to_have_count(0)
    knock = ann.locator("#table button", has_text="Knock")
    expect(knock).to_be_enabled()
    knock.click()
    _settle(pages, 0)
    assert session.game.view(None)["table"]["ender"] == 0


def test_the_other_seats_move_is_told_by_name(served: tuple[str, WebServer], browser: Any) -> None:
    """Mutant: the line for an action shown only when it is the page's own seat's (``a.seat
    === seat``) instead of the other seats'."""
    _, pages = _two(served, browser, "golf", 5)
    pages[0].locator('.grid[data-seat="0"] .cell[data-pos="0"]').click()
    expect(pages[1].locator("#message")).to_have_text("Ann: flip 0")
    expect(pages[0].locator("#message")).to_contain_text("flip 0 ✓")


def test_a_move_carries_the_version_the_page_showed(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: ``act`` sending ``seen: 0`` (a stale version) instead of ``S.version``."""
    _, pages = _two(served, browser, "golf", 5)
    sent: list[dict[str, Any]] = []
    pages[1].on(
        "websocket",
        lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))),
    )
    pages[1].reload()  # (the listener sees the socket opened from here on)
    pages[1].wait_for_function("() => window.cardcore.view !== null")
    _act(pages[0], "flip 0", pages)
    _act(pages[0], "flip 1", pages)
    shown = _version(pages[1])
    assert shown >= 2
    expect(pages[1].locator('.grid[data-seat="1"] .cell[data-pos="4"]')).to_have_attribute(
        "role", "button"
    )
    pages[1].locator('.grid[data-seat="1"] .cell[data-pos="4"]').click()
    expect(pages[1].locator("#message")).to_contain_text("flip 4 ✓")
    acts = [m for m in sent if m.get("type") == "act"]
    assert [(m["action"], m["seen"]) for m in acts] == [("flip 4", shown)]


def test_a_gap_in_the_updates_is_mended_by_a_resync(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: an update whose number skips one applied as it comes (no ``resync``): the page
    would keep a table that is no longer the server's."""
    _, web = served
    sid, pages = _two(served, browser, "golf", 5)
    # as if an update had been lost: the page is one behind and its round is wrong
    pages[1].evaluate("() => { window.cardcore.last -= 1; window.cardcore.view.table.round = 99; }")
    _act(pages[0], "flip 0", pages)
    expect(pages[1].locator(".golf > p.doc")).to_contain_text("round 1 ·")
    game = web.hub.sessions[sid].game
    assert _view(pages[1]) == json.loads(json.dumps(game.view(1)))


def test_a_watcher_is_offered_no_move_and_no_resignation(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: the Resign… button drawn on a watcher's page too (``!watching`` dropped)."""
    base, _ = served
    sid, pages = _two(served, browser, "golf", 5)
    watcher = _page(browser, f"{base}/play/{sid}#watch")
    watcher.wait_for_function("() => window.cardcore.view !== null")
    expect(watcher.locator("#title")).to_contain_text("watching")
    expect(watcher.locator("#status")).to_contain_text("To act: Ann")
    expect(watcher.locator("#actions button")).to_have_count(0)
    expect(watcher.locator("#table [role=button]")).to_have_count(0)
    expect(pages[1].locator("#resign")).to_be_visible()


def test_a_link_with_no_seat_watches_and_claims_no_seat(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: ``watching`` only for ``#watch`` (a bare ``/play/<id>`` link would join seat
    0 as ``Number(null)``, taking Ann's seat before Ann opens her link)."""
    base, web = served
    opener = _page(browser)
    made = _post(opener, base, {"game": "golf", "seats": [{"name": "Ann"}, {"name": "Bob"}]})
    bare = _page(browser, f"{base}/play/{made['session']}")
    expect(bare.locator("#title")).to_contain_text("watching")
    expect(bare.locator("#status")).to_contain_text("Waiting for players (0 of 2 seats taken)")
    assert bare.evaluate("window.cardcore.seat") is None
    session = web.hub.sessions[made["session"]]
    assert session.phase == "waiting"
    ann = _page(browser, base + made["seats"][0]["link"])
    expect(ann.locator("#title")).to_contain_text("seat 0 (Ann)")
    expect(ann.locator("#status")).to_contain_text("1 of 2 seats taken")


# -- the connection ------------------------------------------------------------------------------


def test_a_move_sent_as_the_connection_drops_is_told_and_the_table_shows_it_made(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: the page saying nothing of a move left unanswered when its connection closed
    (``onclose``'s message dropped)."""
    _, web = served
    sid, pages = _two(served, browser, "golf", 5)
    # sent, then the socket closed before the answer could be read (a closing socket drops it)
    pages[0].evaluate("() => { window.cardcore.act('flip 0'); window.cardcore.ws.close(); }")
    expect(pages[0].locator("#message")).to_contain_text(
        "The connection dropped before your move was answered"
    )
    game = web.hub.sessions[sid].game
    expect(pages[0].locator("#net")).to_have_text(re.compile(r"^connected"))  # back by itself
    # (the server's thread may not have read the move yet: its version is asserted after)
    pages[0].wait_for_function("() => window.cardcore.version === 1")
    assert game.version == 1 and game.view(0)["table"]["grids"][0][0] is not None
    expect(pages[0].locator('.grid[data-seat="0"] .cell[data-pos="0"]')).not_to_have_attribute(
        "aria-label", re.compile("face-down")
    )


def test_a_move_made_while_disconnected_is_refused_by_the_page(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: ``act`` on a closed socket returning silently (no "Not sent" message), the
    player left waiting for an answer to a move never sent."""
    _, web = served
    sid, pages = _two(served, browser, "golf", 5)
    pages[0].evaluate(
        """async () => {
          const ws = window.cardcore.ws;
          await new Promise((r) => { ws.addEventListener('close', r); ws.close(); });
          window.cardcore.act('flip 0');  // (the page reconnects a second later)
        }"""
    )
    expect(pages[0].locator("#message")).to_contain_text("Not sent — “flip 0”")
    expect(pages[0].locator("#status")).to_contain_text("To act: Ann (you)")
    assert web.hub.sessions[sid].game.version == 0


# -- clocks ----------------------------------------------------------------------------------------


def test_the_turn_clock_is_counted_on_the_servers_time(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: the clocks counted on the browser's own time (``S.offset`` dropped): with the
    server two hours ahead, a ten-minute turn would show 2:10:00."""
    _, pages = _two(served, browser, "golf", 5, turn=600)
    expect(pages[0].locator("#clocks")).to_have_text(
        re.compile(r"^⏱ Ann \(you\) (10:00|9:[0-5]\d)$")
    )
    expect(pages[1].locator("#clocks")).to_have_text(re.compile(r"^⏱ Ann (10:00|9:[0-5]\d)$"))


# -- Tonk ----------------------------------------------------------------------------------------


def test_tonk_three_picked_cards_of_a_spread_get_a_spread_button(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: the Spread button offered only for more than three picked cards (``> 3``):
    seed 7, Ann draws and holds three aces, the spread the game offers."""
    _, web = served
    sid, pages = _two(served, browser, "tonk", 7)
    ann = pages[0]
    _act(ann, "draw", pages)
    assert "spread AS AD AC" in _view(ann)["legal"]
    for c in ("AS", "AD"):
        ann.locator(f'.hand[data-seat="0"] [data-card="{c}"]').click()
    expect(ann.locator('[data-tonk="spread"]')).to_have_count(0)
    ann.locator('.hand[data-seat="0"] [data-card="AC"]').click()
    expect(ann.locator('.hand[data-seat="0"] [aria-pressed="true"]')).to_have_count(3)
    before = _version(ann)
    ann.locator('[data-tonk="spread"]').click()
    _settle(pages, before)
    game = web.hub.sessions[sid].game
    assert sorted(game.view(None)["table"]["spreads"][0]["cards"]) == ["AC", "AD", "AS"]
    expect(pages[1].locator('[data-spread="1"]')).to_contain_text("Ann")


def test_tonk_the_other_hand_is_backs_under_its_owners_name(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: the page's own hand drawn in every seat's row (``s === S.seat`` dropped): Bob's
    row on Ann's page would show Ann's cards."""
    _, pages = _two(served, browser, "tonk", 7)
    for seat, page in enumerate(pages):
        other = page.locator(f'.hand[data-seat="{1 - seat}"] [role=img]')
        expect(other).to_have_count(5)
        for i in range(5):
            expect(other.nth(i)).to_have_attribute("aria-label", "a face-down card")
        expect(page.locator(f'.hand[data-seat="{seat}"] [aria-pressed]')).to_have_count(5)


# -- Spit ----------------------------------------------------------------------------------------


def test_spit_your_row_is_nearest_you_and_the_other_rows_piles_are_not_buttons(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutants: every layout pile made a pile to pick (``s === S.seat`` dropped; Bob's pile 1
    picked would play Ann's); the rows swapped (your own on top, away from you); the spit
    pile drawn empty while it holds cards."""
    _, pages = _two(served, browser, "spit", 3)
    for seat, page in enumerate(pages):
        rows = page.locator(".spit > .seat-box")
        expect(rows).to_have_count(2)
        expect(rows.nth(1)).to_have_attribute("data-seat", str(seat))
        expect(rows.nth(1)).to_contain_text("(you)")
        expect(page.locator(f'.stack[data-seat="{1 - seat}"][role=button]')).to_have_count(0)
        expect(page.locator(f'.stack[data-seat="{seat}"][data-layout][role=button]')).to_have_count(
            5
        )
        for s in (0, 1):
            spit = page.locator(f'.spit-pile[data-seat="{s}"]')
            expect(spit).to_contain_text("spit 11")
            expect(spit.locator('[aria-label="a face-down card"]')).to_have_count(1)


# -- the lobby -----------------------------------------------------------------------------------


def test_the_lobby_sends_what_the_form_shows(served: tuple[str, WebServer], browser: Any) -> None:
    """Mutants: a bot's parameters not sent; a default rule switched off not sent in
    ``without``; a default rule left on sent in ``rules``; a number option sent as text; the
    forfeit box and the game clock not sent; every seat a bot by default; the links without
    the seats' names."""
    base, _ = served
    page = _page(browser, base + "/?game=tonk")
    expect(page.locator('[data-rule="tonk.natural-49-50"]')).to_be_checked()
    sent: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda r: r.method == "POST" and sent.append(json.loads(r.post_data or "{}")),
    )
    expect(page.locator('#seats .who[data-seat="0"]')).to_have_value("")  # a person
    assert page.locator('#seats .who[data-seat="1"]').input_value() != ""  # a bot
    page.click("#start")  # the defaults: a rule on by default is not asked for
    expect(page.locator("#links .seat-link")).to_have_count(1)
    assert (sent[0]["rules"], sent[0]["without"], "time" in sent[0]) == ([], [], False)
    page.fill('#seats .name[data-seat="0"]', "Zed")
    page.fill('#seats .name[data-seat="1"]', "Robo")
    page.fill('#seats .params[data-seat="1"]', "seed=7")
    page.fill('[data-option="hands"]', "2")
    page.uncheck('[data-rule="tonk.natural-49-50"]')
    page.check('[data-rule="tonk.no-upcard"]')
    page.fill("#turn-clock", "90")
    page.fill("#total-clock", "900")
    page.check("#forfeit")
    page.click("#start")
    expect(page.locator("#links")).to_contain_text("Zed: ")
    expect(page.locator("#links")).to_contain_text("Robo (bot ")
    expect(page.locator("#links")).to_contain_text("Zed: ")
    body = sent[1]
    assert len(sent) == 2 and body["game"] == "tonk"
    assert body["seats"][0] == {"name": "Zed"}
    assert body["seats"][1]["params"] == {"seed": 7}
    assert body["options"]["hands"] == 2
    assert body["time"] == {"turn": 90, "total": 900, "forfeit": True}
    assert body["rules"] == ["tonk.no-upcard"]
    assert body["without"] == ["tonk.natural-49-50"]


def test_the_lobby_shows_the_servers_refusal(served: tuple[str, WebServer], browser: Any) -> None:
    """Mutant: a refused ``POST`` leaving the form silent (``#error`` never set)."""
    base, _ = served
    page = _page(browser, base + "/?game=golf")
    expect(page.locator("#seats .seat")).to_have_count(2)
    page.fill('#seats .name[data-seat="1"]', "Bob (you)")
    page.click("#start")
    expect(page.locator("#error")).to_contain_text("'name' must not end with")
    expect(page.locator("#links a")).to_have_count(0)


def test_spit_ready_a_refused_pile_a_play_a_fill_and_a_spit_by_clicks(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutants: the "not ready" mark never shown; a click on a centre pile that does not take
    the picked card left silent; ``fill`` not made by a pile clicked onto an empty one; the
    spit pile not clickable. Seed 1: once both are ready Ann may only play pile 1 on L."""
    _, web = served
    sid, pages = _two(served, browser, "spit", 1)
    ann, bob = pages
    game = web.hub.sessions[sid].game
    for page in pages:
        for s in (0, 1):
            expect(page.locator(f'.spit > .seat-box[data-seat="{s}"] > .label')).to_contain_text(
                "not ready"
            )
    _act(ann, "ready", pages)
    expect(bob.locator('.spit > .seat-box[data-seat="0"] > .label')).not_to_contain_text(
        "not ready"
    )
    _act(bob, "ready", pages)
    legal = _view(ann)["legal"]
    assert "play 1 L" in legal and "play 2 R" not in legal, legal
    version = game.version
    ann.locator('.stack[data-seat="0"][data-layout="2"]').click()
    expect(ann.locator('.stack[data-seat="0"][data-layout="2"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    ann.locator('.pile[data-pile="R"]').click()
    expect(ann.locator("#message")).to_contain_text(
        "Not allowed — play 2 R is not a legal play on pile R now"
    )
    assert game.version == version
    ann.locator('.stack[data-seat="0"][data-layout="2"]').click()  # unpicked
    ann.locator('.stack[data-seat="0"][data-layout="1"]').click()
    ann.locator('.pile[data-pile="L"]').click()
    _settle(pages, version)
    assert game.view(None)["table"]["seats"][0]["layout"][0] == []
    expect(ann.locator("#message")).to_contain_text("play 1 L ✓")
    assert "fill 2 1" in _view(ann)["legal"]
    version = game.version
    ann.locator('.stack[data-seat="0"][data-layout="2"]').click()
    ann.locator('.stack[data-seat="0"][data-layout="1"]').click()
    _settle(pages, version)
    assert len(game.view(None)["table"]["seats"][0]["layout"][0]) == 1
    assert "spit" in _view(ann)["legal"]
    version = game.version
    ann.locator('.spit-pile[data-seat="0"]').click()
    _settle(pages, version)
    assert game.view(None)["table"]["seats"][0]["requested"] is True


def test_speed_stuck_button_and_a_refused_card_by_clicks(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutants: the Stuck button never drawn; a click on a centre pile that does not take the
    picked card left silent. Seed 3: Ann's 3D AS AH KD 7C fit neither 7D nor JD."""
    _, web = served
    sid, pages = _two(served, browser, "speed", 3)
    ann = pages[0]
    game = web.hub.sessions[sid].game
    assert _view(ann)["legal"] == ["stuck"]
    version = game.version
    ann.locator('.hand[data-seat="0"] [data-card="3D"]').click()
    expect(ann.locator('.hand[data-seat="0"] [data-card="3D"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    ann.locator('.pile[data-pile="L"]').click()
    expect(ann.locator("#message")).to_contain_text(
        "Not allowed — play 3D L is not a legal play on pile L now"
    )
    assert game.version == version
    stuck = ann.locator("#table button", has_text="Stuck")
    expect(stuck).to_be_enabled()
    stuck.click()
    _settle(pages, version)
    assert game.view(None)["table"]["seats"][0]["requested"] is True


# -- found by hand ---------------------------------------------------------------------------------

SPIT_LAST_CARD = (
    'spit v=1 phase="play" deal=1 single=-1 ready=[true,true] requests=[false,false] stall=0'
    " recycled=false emptier=-1 | layout.0.1: | layout.0.2: 7S! | layout.0.3: | layout.0.4: |"
    " layout.0.5: | layout.1.1: 2D! | layout.1.2: 6D KS! | layout.1.3: 2S 10S QH! |"
    " layout.1.4: JS KC 2C 8C! | layout.1.5: QS 7H 6H 3C 6S! | spit.0: AH 5C | spit.1: 4S JD |"
    " pile.L: KH! QC! KD! AD! 2H! JC! 10C! 9C! 8D! 9D! 3H! 4H! 3D! JH! QD! 10H! 9S! 9H! 8S! |"
    " pile.R: 4C! 5D! 6C! 7D! 8H! 4D! AC! 5H! 3S! AS! 5S! 10D! 7C!"
)
"""Spit, deal 1 (reached from seed 1): Ann's last layout card is 7S, which plays on L's 8S."""


def _spit_last_card(served: tuple[str, WebServer], browser: Any) -> tuple[Any, list[Any]]:
    base, web = served
    session = web.hub.create(
        "spit",
        ["Ann", "Bob"],
        now=web.host.clock(),
        position=SPIT_LAST_CARD,
        config=SessionConfig(limits=web.limits, spectator_delay=0),
    )
    pages = [_page(browser, f"{base}/play/{session.id}#seat={s}") for s in (0, 1)]
    for page in pages:
        page.wait_for_function("() => window.cardcore.view !== null")
    return session, pages


def test_spit_a_centre_pile_clicked_when_the_deal_ends_slaps_it(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: a centre pile never a click target for ``slap`` once the deal ends."""
    session, pages = _spit_last_card(served, browser)
    ann, bob = pages
    _act(ann, "play 2 L", pages)
    assert sorted(_view(bob)["legal"]) == ["slap L", "slap R"]
    expect(bob.locator('.pile[data-pile="R"]')).to_have_attribute(
        "aria-label", re.compile("^slap R")
    )
    version = session.game.version
    bob.locator('.pile[data-pile="R"]').click()
    _settle(pages, version)
    assert session.game.view(None)["table"]["phase"] != "claim"
    expect(bob.locator("#message")).to_contain_text("slap R ✓")


def test_spit_a_pile_picked_when_the_deal_ends_does_not_block_the_slap(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Bob has picked his pile 1 (about to play it) when Ann plays her last card: his click on
    centre pile R must slap it, and the slap buttons must stay listed."""
    session, pages = _spit_last_card(served, browser)
    ann, bob = pages
    bob.locator('.stack[data-seat="1"][data-layout="1"]').click()
    expect(bob.locator('.stack[data-seat="1"][data-layout="1"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    _act(ann, "play 2 L", pages)
    assert sorted(_view(bob)["legal"]) == ["slap L", "slap R"]
    assert bob.locator('#actions [data-action="slap R"]').count() == 1  # (fails: filtered out)
    version = session.game.version
    bob.locator('.pile[data-pile="R"]').click()
    _settle(pages, version)
    assert session.game.view(None)["table"]["phase"] != "claim"


def test_tonk_a_picked_card_clicked_onto_the_discard_before_the_draw_takes_nothing(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Seed 7: Ann, to draw, picks KH and clicks the discard pile meaning to discard it."""
    _, web = served
    sid, pages = _two(served, browser, "tonk", 7)
    ann = pages[0]
    game = web.hub.sessions[sid].game
    assert sorted(_view(ann)["legal"]) == ["draw", "drop", "take"]
    assert "KH" in _view(ann)["table"]["hand"]
    ann.locator('.hand[data-seat="0"] [data-card="KH"]').click()
    expect(ann.locator('.hand[data-seat="0"] [data-card="KH"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(ann.locator("#actions button.act")).to_have_count(0)
    ann.locator('.pile[data-pile="discard"]').click()
    ann.wait_for_function("() => document.querySelector('#message').textContent !== ''")
    assert game.version == 0, game.view(0)["table"]["hand"]


TONK_HIT = (
    'tonk played=0 dealer=1 turn=0 phase="play" balances=[0,0] chance=2 spreads=[[3,1]]'
    ' cut=[["3","5"]] | stock: AD 4S 2S 4C 3D 8H JC 5C 5D 2D 7C JD 9H 6S 7S 7D | discard: QH! 10D!'
    " 10S! 2H! 4H! 6D! 5H! 8C! 9C! 6C! 3S! 10H! 4D! 3C! 9S! 7H! AH! 2C! 8S! 3H! 5S! 10C! AS! 8D!"
    " JH! | hand.0: QS AC@0 KS@0 QC@0 9D@0 6H@0 | hand.1: JS QD | spreads: KH! KD! KC!"
)
"""Tonk (reached from seed 0): Ann has drawn and holds KS; spread #1 is KH KD KC."""


def test_tonk_a_picked_card_hits_the_spread_clicked(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutants: a spread never a click target for ``hit`` (one card picked); every seat's
    row counting seat 0's cards."""
    base, web = served
    session = web.hub.create(
        "tonk",
        ["Ann", "Bob"],
        now=web.host.clock(),
        position=TONK_HIT,
        config=SessionConfig(limits=web.limits, spectator_delay=0),
    )
    pages = [_page(browser, f"{base}/play/{session.id}#seat={s}") for s in (0, 1)]
    for page in pages:
        page.wait_for_function("() => window.cardcore.view !== null")
    ann, bob = pages
    for page, you in ((ann, 0), (bob, 1)):
        mark = [" (you)" if s == you else "" for s in (0, 1)]
        row = '.tonk .seat-box:has(.hand[data-seat="{}"]) > .label'
        expect(page.locator(row.format(0))).to_have_text(f"Ann{mark[0]} · 6 cards · balance 0")
        expect(page.locator(row.format(1))).to_have_text(f"Bob{mark[1]} · 2 cards · balance 0")
    assert "hit 1 KS" in _view(ann)["legal"]
    ann.locator('.hand[data-seat="0"] [data-card="KS"]').click()
    spread = ann.locator('[data-spread="1"]')
    expect(spread).to_have_attribute("aria-label", re.compile(r"^hit 1 KS: "))
    version = session.game.version
    spread.click()
    _settle(pages, version)
    assert sorted(session.game.view(None)["table"]["spreads"][0]["cards"]) == [
        "KC",
        "KD",
        "KH",
        "KS",
    ]
    expect(bob.locator('[data-spread="1"] [role=img]')).to_have_count(4)
