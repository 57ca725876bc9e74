"""A card player's session in the browser (2026-12-15): two people in two windows and a watcher.

Played as docs/web.rst and the README say: the game is made in the lobby, each
person opens their seat link, the watch link is opened by a third window. Checked
here, beyond tests/web/test_browser.py and test_two_windows.py: a Golf round
started from the lobby form and watched to its result on all three pages, a
reload (F5) mid-game in Golf, Tonk and Spit, the held card and the other hand
absent from the other pages' DOM text, an illegal move's message, the pages
coming back after ``cardcore serve`` restarts (the README: "Games survive a
server restart"), keyboard play through the action buttons, and a phone width
of 375 px. Strict xfails mark what a player meets that is wrong. Games are dealt from
fixed seeds, made as the lobby makes them, except the one made with the lobby form (which
takes no seed): its loop plays any Golf deal to the end the same way.

Skipped like the other browser tests when Playwright or /usr/bin/chromium is
missing (a missing browser fails under ``CI=true``).
"""

# ruff: noqa: F811  (the fixture browser comes from test_browser)
from __future__ import annotations

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

from cardcore.session import SessionConfig  # noqa: E402
from cardcore.web import WebServer, create_app  # noqa: E402
from tests.web.test_browser import Guard, _view, browser  # noqa: E402, F401

PHONE = {"width": 375, "height": 800}
GUARDS: list[Guard] = []
PROBLEMS: list[str] = []
"""Script and console errors of the pages opened here, checked after each test."""
CONTEXTS: list[Any] = []
"""The browser contexts a test opened, closed after it."""


class Served:
    """``create_app(WebServer(db))`` under uvicorn on a fixed loopback port; restartable on the
    same database and port (as ``cardcore serve --db games.db`` run again)."""

    def __init__(self, db: str) -> None:
        self.db = db
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self.base = f"http://127.0.0.1:{self.port}"
        self.web: WebServer
        self.srv: Any = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.web = WebServer(self.db, bot_delay=0.05)
        GUARDS.append(Guard(self.web))
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        config = uvicorn.Config(create_app(self.web), log_level="warning", lifespan="on")
        self.srv = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.srv.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30  # (a loaded machine starts a thread slowly)
        while not self.srv.started:  # bounded wait for the server's own start flag
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.srv.should_exit = True
        assert self.thread is not None
        self.thread.join(10)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    s = Served(str(tmp_path_factory.mktemp("player") / "games.db"))
    s.start()
    yield s
    s.stop()


@pytest.fixture(autouse=True)
def clean_pages_and_frames() -> Iterator[None]:
    """After each test: no page logged a script or console error, and no frame the server
    sent showed a connection a card it may not see (the session kit's leak check)."""
    PROBLEMS.clear()
    yield
    while CONTEXTS:
        CONTEXTS.pop().close()
    problems = PROBLEMS[:]
    PROBLEMS.clear()
    assert problems == [], problems
    for guard in GUARDS:
        assert guard.failures == [], guard.failures[:3]


def _page(browser: Any, url: str, **ctx: Any) -> Any:
    context = browser.new_context(**ctx)
    CONTEXTS.append(context)
    page = context.new_page()
    page.on("pageerror", lambda e: PROBLEMS.append(f"page error: {e}"))
    page.on("console", lambda m: m.type == "error" and PROBLEMS.append(f"console: {m.text}"))
    page.goto(url)
    return page


def _seeded(served: Served, game: str, seed: int, **options: Any) -> tuple[Any, list[str], str]:
    """A two-person session dealt from *seed*, made as the lobby makes one with no bot (as
    test_browser's Speed test does); its seat and watch links."""
    config = SessionConfig(limits=served.web.limits, spectator_delay=0)  # as the lobby's
    session = served.web.hub.create(
        game,
        ["Ann", "Bob"],
        now=served.web.host.clock(),
        seed=seed,
        options=options or None,
        config=config,
    )
    base = f"{served.base}/play/{session.id}"
    return session, [f"{base}#seat=0", f"{base}#seat=1"], f"{base}#watch"


def _ready(*pages: Any) -> None:
    for page in pages:
        page.wait_for_function("() => window.cardcore.view !== null")


def _version(page: Any) -> int:
    v: int = page.evaluate("window.cardcore.version")
    return v


def _settle(pages: list[Any], before: int) -> None:
    for page in pages:
        page.wait_for_function(
            f"() => window.cardcore.view.version > {before} || window.cardcore.view.is_over",
            timeout=10000,
        )


def _shown_text(page: Any) -> str:
    """What the page shows or tells a screen reader: its text, every attribute, and its DOM."""
    html: str = page.content()
    text: str = page.inner_text("body")
    return html + "\n" + text


def _card_glyphs(card: str) -> list[str]:
    """How a page can spell a card: its code (data-card, aria-label) and rank + suit glyph."""
    suit = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[-1]]
    return [f'"{card}"', f">{card[:-1]}{suit}<"]


def _lobby_game(page: Any, game: str, options: dict[str, str]) -> tuple[list[str], str]:
    """Make a two-person game with the lobby form; the seat links and the watch link."""
    page.wait_for_selector(f"#game option[value={game}]", state="attached")
    page.select_option("#game", game)
    page.fill('#seats .name[data-seat="0"]', "Ann")
    page.fill('#seats .name[data-seat="1"]', "Bob")
    page.select_option('#seats .who[data-seat="1"]', "")  # a person, not the default bot
    for name, value in options.items():
        page.fill(f'[data-option="{name}"]', value)
    page.click("#start")
    page.wait_for_selector(".seat-link")
    links = [a.get_attribute("href") for a in page.locator(".seat-link").all()]
    watch = page.locator(".watch-link").inner_text()
    return links, watch


def _golf_click(pages: list[Any], others: list[Any]) -> int:
    """One Golf click by the seat to act (flip, draw, replace a face-down card or discard);
    the version it was made at."""
    seat = _view(pages[0])["to_act"][0]
    page = pages[seat]
    mine = _view(page)
    table, legal = mine["table"], mine["legal"]
    before = _version(page)
    grid = f'.golf .grid[data-seat="{seat}"]'
    if table["phase"] == "setup":
        page.click(f'{grid} .cell[data-pos="{legal[0].split()[1]}"]')
    elif "draw" in legal:
        page.click('.pile[data-pile="stock"].target')
    else:
        hidden = [
            a
            for a in legal
            if a.startswith("replace ") and table["grids"][seat][int(a.split()[1])] is None
        ]
        if hidden:
            page.click(f'{grid} .cell[data-pos="{hidden[0].split()[1]}"]')
        else:
            page.click('.pile[data-pile="discard"].target')
    _settle(pages + others, before)
    return before


# --- Golf -----------------------------------------------------------------------------------


def test_golf_from_the_lobby_with_a_watcher_reload_and_result(served: Served, browser: Any) -> None:
    """The README's way: the lobby makes the game, two people open their links, a third window
    the watch link; one round is played by clicks; Bob presses F5 mid-round and keeps his seat;
    the card Ann holds is in no other page; all three pages show the result."""
    lobby = _page(browser, served.base + "/")
    links, watch = _lobby_game(lobby, "golf", {"rounds": "1"})
    pages = [_page(browser, links[0], viewport=PHONE), _page(browser, links[1])]
    spectator = _page(browser, watch)
    _ready(*pages, spectator)
    assert "seat 0 (Ann)" in pages[0].inner_text("#title")
    reloaded = checked_held = False
    deadline = time.monotonic() + 180  # bounds a hang only
    while not _view(pages[0])["is_over"] and time.monotonic() < deadline:
        view = _view(pages[0])
        held = [p for p in pages if (_view(p)["table"]["held"] or {}).get("card")]
        if held:  # a card drawn from the stock: only its holder may see it
            card = _view(held[0])["table"]["held"]["card"]
            for other in [p for p in pages if p is not held[0]] + [spectator]:
                assert _view(other)["table"]["held"]["card"] is None
                if card != _view(other)["table"]["discard"]:
                    shown = _shown_text(other)
                    assert not any(g in shown for g in _card_glyphs(card)), card
                    checked_held = True
        if not reloaded and view["version"] >= 8:
            before = _version(pages[1])
            legal = _view(pages[1])["legal"]
            pages[1].reload()
            _ready(pages[1])
            assert pages[1].evaluate("window.cardcore.seat") == 1
            assert _version(pages[1]) == before and _view(pages[1])["legal"] == legal
            assert "Bob (you)" in pages[1].inner_text(".golf")
            reloaded = True
        _golf_click(pages, [spectator])
    assert reloaded and checked_held
    result = _view(pages[0])["result"]
    assert result is not None
    for page in [*pages, spectator]:
        page.wait_for_selector("#record")
        after = page.inner_text("#after")
        assert "Result" in after, after
        assert _view(page)["result"] == result
    # the phone-width page still fits its width at the end of the round
    assert pages[0].evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def _golf_open(served: Served, browser: Any) -> tuple[Any, list[Any]]:
    """A fresh two-person Golf game, both pages open: seat 0 is to flip."""
    session, links, _ = _seeded(served, "golf", 11)
    pages = [_page(browser, link) for link in links]
    _ready(*pages)
    assert _view(pages[0])["to_act"] == [0]
    return session, pages


def _golf_to_draw(served: Served, browser: Any) -> tuple[Any, list[Any]]:
    """A fresh two-person Golf game past its setup flips: seat 0 is to draw."""
    session, pages = _golf_open(served, browser)
    while _view(pages[0])["table"]["phase"] == "setup":
        _golf_click(pages, [])
    assert "draw" in _view(pages[0])["legal"]
    return session, pages


def test_golf_illegal_move_is_refused_with_its_rule_and_changes_nothing(
    served: Served, browser: Any
) -> None:
    """docs/web.rst: "the library's error messages are shown as they come (``illegal`` with the
    rule ID)". Bob's page asks to flip while it is Ann's turn."""
    session, pages = _golf_open(served, browser)
    before = [_version(p) for p in pages]
    history = len(session.game.history())
    pages[1].evaluate("window.cardcore.act('flip 0')")
    pages[1].wait_for_selector("#message.illegal")
    text = pages[1].inner_text("#message")
    assert text.startswith("Not allowed"), text
    assert "CORE-TURN-1" in text and "not seat 1's turn" in text, text
    assert [_version(p) for p in pages] == before
    assert len(session.game.history()) == history
    assert "flip 0" in _view(pages[0])["legal"]


def test_golf_illegal_message_names_its_rule_once(served: Served, browser: Any) -> None:
    _, pages = _golf_open(served, browser)
    pages[1].evaluate("window.cardcore.act('flip 0')")
    pages[1].wait_for_selector("#message.illegal")
    text = pages[1].inner_text("#message")
    assert text.count("CORE-TURN-1") == 1, text


def test_the_tab_title_tells_the_seat_to_act_it_is_its_turn(served: Served, browser: Any) -> None:
    _, pages = _golf_open(served, browser)  # seat 0 is to flip
    pages[0].wait_for_function("() => document.title.startsWith('● Your turn')")
    assert pages[0].title() == "● Your turn · cardcore: golf"
    assert pages[1].title() == "cardcore: golf"


def test_golf_double_click_on_the_stock_draws_once_without_an_error(
    served: Served, browser: Any
) -> None:
    _, pages = _golf_to_draw(served, browser)
    sent: list[str] = []
    pages[0].on(
        "websocket",
        lambda ws: ws.on("framesent", lambda f: sent.append(f if isinstance(f, str) else "")),
    )
    pages[0].reload()  # the listener sees the socket opened from here on
    _ready(pages[0])
    before = _version(pages[0])
    # a quick double click: both clicks land before any answer can be read (one JS task)
    pages[0].evaluate(
        "() => { const s = document.querySelector('.pile[data-pile=\"stock\"]');"
        " s.click(); s.click(); }"
    )
    _settle(pages, before)
    pages[0].wait_for_function("() => Object.keys(window.cardcore.pending).length === 0")
    acts = [f for f in sent if '"type":"act"' in f.replace(" ", "")]
    text = pages[0].inner_text("#message")
    assert "Not allowed" not in text, text
    assert len(acts) == 1, acts


def test_golf_keyboard_only_turn_through_the_action_buttons(served: Served, browser: Any) -> None:
    """Every legal action is a button (docs/web.rst): Tab to it and press Enter."""
    _, links, _ = _seeded(served, "golf", 12)
    pages = [_page(browser, link) for link in links]
    _ready(*pages)
    legal = _view(pages[0])["legal"]
    assert len(pages[0].locator("#actions button.act").all()) == len(legal)
    for _ in range(60):  # Tab through the page to the first action button
        pages[0].keyboard.press("Tab")
        focused = pages[0].evaluate("document.activeElement.dataset.action || ''")
        if focused == legal[0]:
            break
    assert focused == legal[0]
    before = _version(pages[0])
    pages[0].keyboard.press("Enter")
    _settle(pages, before)
    assert _view(pages[1])["table"]["grids"][0][int(legal[0].split()[1])] is not None


def test_lobby_default_names_do_not_tell_the_other_player_it_is_their_turn(
    served: Served, browser: Any
) -> None:
    lobby = _page(browser, served.base + "/")
    lobby.wait_for_selector("#game option[value=golf]", state="attached")
    lobby.select_option("#game", "golf")
    lobby.select_option('#seats .who[data-seat="1"]', "")
    lobby.click("#start")
    lobby.wait_for_selector(".seat-link")
    links = [a.get_attribute("href") for a in lobby.locator(".seat-link").all()]
    pages = [_page(browser, link) for link in links]
    _ready(*pages)
    assert _view(pages[1])["to_act"] == [0]
    status = pages[1].inner_text("#status")
    assert not re.search(r"\bYou\b", status), status


def test_lobby_seat_fields_have_accessible_names(served: Served, browser: Any) -> None:
    lobby = _page(browser, served.base + "/")
    lobby.wait_for_selector("#game option[value=golf]", state="attached")
    lobby.select_option("#game", "golf")
    nameless = lobby.evaluate(
        """() => [...document.querySelectorAll('#seats input, #seats select')].filter(e =>
            !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
            && !e.getAttribute('aria-labelledby') && !e.title && !e.placeholder
        ).map(e => e.className + ' ' + e.dataset.seat)"""
    )
    assert nameless == [], nameless


# --- Tonk -----------------------------------------------------------------------------------


def test_tonk_turns_reload_and_no_hand_in_the_other_pages(served: Served, browser: Any) -> None:
    """Tonk at phone width, with a watcher: a few draw-and-discard turns by clicks, Ann reloads
    mid-hand and keeps her seat and hand; Bob's page and the watcher's never show Ann's hand."""
    session, links, watch = _seeded(served, "tonk", 3, hands=1)
    pages = [_page(browser, link, viewport=PHONE) for link in links]
    spectator = _page(browser, watch, viewport=PHONE)
    _ready(*pages, spectator)
    assert not _view(pages[0])["is_over"]
    turns = 0
    while turns < 4 and not _view(pages[0])["is_over"]:
        seat = _view(pages[0])["to_act"][0]
        page = pages[seat]
        legal = _view(page)["legal"]
        before = _version(page)
        hand = f'.tonk .hand[data-seat="{seat}"]'
        if "draw" in legal:
            page.click('.pile[data-pile="stock"].target')
        else:
            card = next(a for a in legal if a.startswith("discard ")).split()[1]
            page.click(f'{hand} [data-card="{card}"]')
            page.click('.pile[data-pile="discard"].target')
            turns += 1
        _settle([*pages, spectator], before)
        game = session.game
        for s in (0, 1):
            for other in (pages[1 - s], spectator):
                shown = _shown_text(other)
                top = _view(other)["table"].get("discard")
                for card in game.view(s)["table"]["hand"]:
                    if card != top:
                        assert not any(g in shown for g in _card_glyphs(card)), (s, card)
        for page in pages:
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    hand = _view(pages[0])["table"]["hand"]
    version = _version(pages[0])
    pages[0].reload()
    _ready(pages[0])
    assert pages[0].evaluate("window.cardcore.seat") == 0
    assert _version(pages[0]) == version
    assert _view(pages[0])["table"]["hand"] == hand
    shown = pages[0].eval_on_selector_all(
        '.tonk .hand[data-seat="0"] [data-card]', "els => els.map(e => e.dataset.card)"
    )
    assert sorted(shown) == sorted(hand)


# --- Spit and Speed -------------------------------------------------------------------------


def test_spit_reload_mid_deal_keeps_the_seat_and_the_face_down_cards_hidden(
    served: Served, browser: Any
) -> None:
    """Both say ready, Ann plays a card by two clicks, then reloads: her seat, the table and
    her legal moves come back; no page shows a face-down layout card of either player."""
    session, links, watch = _seeded(served, "spit", 7)
    pages = [_page(browser, link, viewport=PHONE) for link in links]
    spectator = _page(browser, watch, viewport=PHONE)
    _ready(*pages, spectator)
    for page in pages:
        page.locator('button.act[data-action="ready"]').click()
    pages[0].wait_for_function(
        "() => window.cardcore.view.legal.some(a => a.startsWith('play ') || a === 'spit')"
    )
    legal = _view(pages[0])["legal"]
    plays = [a for a in legal if a.startswith("play ")]
    before = _version(pages[0])
    if plays:
        _, mine, centre = plays[0].split()
        pages[0].click(f'.stack[data-seat="0"][data-layout="{mine}"]')
        pages[0].click(f'.pile[data-pile="{centre}"].target')
    else:
        pages[0].locator('button.act[data-action="spit"]').click()
    pages[0].wait_for_function(
        f"() => window.cardcore.version > {before} || "
        "document.querySelector('#message').className.includes('stale')"
    )
    _settle([pages[1], spectator], before)
    version = _version(pages[0])
    table = _view(pages[0])["table"]
    pages[0].reload()
    _ready(pages[0])
    assert pages[0].evaluate("window.cardcore.seat") == 0
    assert _version(pages[0]) >= version
    if _version(pages[0]) == version:
        assert _view(pages[0])["table"] == table
    assert pages[0].get_attribute("#table", "data-layout") == "spit"
    # the cards neither seat sees now (face-down layout and spit cards): on no page
    state = session.game
    assert state is not None
    seen = {c for s in (0, 1) for z in state.view(s)["zones"] for c in z["cards"] if c}
    deck = {
        r + u
        for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
        for u in "SHDC"
    }
    hidden = deck - seen
    assert len(hidden) > 20, hidden
    for page in [*pages, spectator]:
        shown = _shown_text(page)
        leaked = [c for c in hidden if any(g in shown for g in _card_glyphs(c))]
        assert leaked == [], leaked
    for page in [*pages, spectator]:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_speed_fits_a_phone_and_every_legal_move_has_a_way_to_click(
    served: Served, browser: Any
) -> None:
    """Speed at 375 px: no sideways scroll, and each legal play's card and pile are targets."""
    _, links, _ = _seeded(served, "speed", 5)
    pages = [_page(browser, link, viewport=PHONE) for link in links]
    _ready(*pages)
    for s, page in enumerate(pages):
        assert page.get_attribute("#table", "data-layout") == "speed"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        for action in _view(page)["legal"]:
            if action.startswith("play "):
                _, card, _pile = action.split()
                assert page.locator(f'.hand[data-seat="{s}"] [data-card="{card}"].target').count()
            else:
                assert page.locator(f'button.act[data-action="{action}"]').count() == 1


# --- the server restarts --------------------------------------------------------------------


def test_pages_come_back_after_the_server_restarts(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """README: "Games survive a server restart". The server stops mid-game: both pages say
    they are reconnecting; it starts again on the same database and port: both pages
    reconnect by themselves, with their seats, and the next click is played."""
    s = Served(str(tmp_path_factory.mktemp("restart") / "games.db"))
    s.start()
    try:
        _, links, _ = _seeded(s, "golf", 13)
        pages = [_page(browser, link) for link in links]
        _ready(*pages)
        _golf_click(pages, [])
        version = _version(pages[0])
        s.stop()
        for page in pages:
            page.wait_for_function(
                "() => document.querySelector('#net').textContent.includes('reconnecting')"
            )
        s.start()
        for page in pages:
            page.wait_for_function(
                "() => document.querySelector('#net').textContent.startsWith('connected')",
                timeout=15000,
            )
            assert _version(page) == version
        # a retry that came while the server was still down is refused and logged by the
        # browser: expected here (the page retries every second), so not a problem
        PROBLEMS[:] = [p for p in PROBLEMS if "ERR_CONNECTION_REFUSED" not in p]
        assert [p.evaluate("window.cardcore.seat") for p in pages] == [0, 1]
        _golf_click(pages, [])
        assert _version(pages[1]) == version + 1
    finally:
        s.stop()


# --- more of the seat link and the phone width ----------------------------------------------


def test_the_bare_seat_link_resumes_in_the_same_browser_and_is_refused_elsewhere(
    served: Served, browser: Any
) -> None:
    """docs/web.rst: the token is kept in localStorage, "closing the tab and reopening the link
    resumes the seat"; anyone else opening that link is told the seat is taken."""
    _, links, _ = _seeded(served, "tonk", 4, hands=1)
    pages = [_page(browser, link) for link in links]
    _ready(*pages)
    hand = _view(pages[0])["table"]["hand"]
    context = pages[0].context
    pages[0].close()
    again = context.new_page()
    again.goto(links[0])  # the link as handed out: #seat=0, no token
    _ready(again)
    assert again.evaluate("window.cardcore.seat") == 0
    assert _view(again)["table"]["hand"] == hand
    assert "Ann (you)" in again.inner_text(".tonk")
    stranger = _page(browser, links[0])
    stranger.wait_for_selector("#message.illegal")
    assert "This seat is taken" in stranger.inner_text("#message")
    assert stranger.evaluate("window.cardcore.view") is None
    assert stranger.locator("button.act").count() == 0


def _cells_outside_their_box(page: Any) -> list[float]:
    """How far (px) each Golf cell of seat 0 sticks out right of its seat box (0: inside)."""
    spill: list[float] = page.evaluate(
        """() => { const box = document.querySelector('.golf .grid[data-seat="0"]')
                      .closest('.seat-box').getBoundingClientRect();
                   return [...document.querySelectorAll('.golf .grid[data-seat="0"] .cell')]
                     .map(c => Math.max(0, c.getBoundingClientRect().right - box.right)); }"""
    )
    return spill


def test_golf_six_card_grid_fits_its_seat_box_on_a_phone(served: Served, browser: Any) -> None:
    _, links, _ = _seeded(served, "golf", 14)
    pages = [_page(browser, link, viewport=PHONE) for link in links]
    _ready(*pages)
    assert max(_cells_outside_their_box(pages[0])) == 0
    assert pages[0].evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_golf_ten_card_grid_fits_its_seat_box_on_a_phone(served: Served, browser: Any) -> None:
    _, links, _ = _seeded(served, "golf", 15, layout=10)
    pages = [_page(browser, link, viewport=PHONE) for link in links]
    _ready(*pages)
    assert pages[0].locator('.golf .grid[data-seat="0"] .cell').count() == 10
    assert max(_cells_outside_their_box(pages[0])) == 0
