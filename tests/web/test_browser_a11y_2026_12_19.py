"""Accessibility of the browser client (2026-12-19): keyboard-only play, screen readers, a
360 x 640 screen and colour, on the lobby, a seat's page (Golf, Tonk, Spit, Speed), the
spectators' page and the replay.

Read as a first-time user would: the README's "Play in the browser" and docs/web.rst ("Every
legal action is also a button, so a game can be played from the keyboard (Tab to a button,
Enter); picking cards of a Tonk hand needs a mouse"). Each check is an assertion on the page's
accessibility tree (``locator.aria_snapshot()``), on keyboard presses or on bounding boxes.
Claims that hold pass; what a keyboard or screen-reader user meets that is wrong is a strict
xfail. Every game is dealt from a fixed seed (the deals and the moves below were read from
those seeds); short card words are only looked for in the table, the moves and the live
regions, never in text that holds a session id or a token.

Skipped like the other browser tests when Playwright or /usr/bin/chromium is missing (a
missing browser fails under ``CI=true``).
"""
# ruff: noqa: F811  (the fixtures browser and server come from test_browser)

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CI") != "true":
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no /usr/bin/chromium", allow_module_level=True)
    pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from cardcore.session import SessionConfig
from cardcore.web import WebServer
from tests.web.test_browser import _view, browser, no_frame_leaks, server  # noqa: F401

SMALL = {"width": 360, "height": 640}
CONTEXTS: list[Any] = []
SUITS = {"S": ("♠", "spade"), "H": ("♥", "heart"), "D": ("♦", "diamond"), "C": ("♣", "club")}
UNNAMED = re.compile(r"^\s*- (button|textbox|checkbox|combobox|spinbutton|link)\s*(:.*)?$")
"""An aria snapshot line of a control without an accessible name (Playwright omits the name)."""


@pytest.fixture(autouse=True)
def close_contexts() -> Iterator[None]:
    yield
    while CONTEXTS:
        CONTEXTS.pop().close()


def _page(browser: Any, url: str, contexts: list[Any] = CONTEXTS) -> Any:
    """*url* in a new browser context at 360 x 640 (closed after the test, or with *contexts*)."""
    context = browser.new_context(viewport=SMALL)
    contexts.append(context)
    page = context.new_page()
    page.goto(url)
    return page


def _seeded(
    server: tuple[str, WebServer], game: str, seed: int, **options: Any
) -> tuple[Any, list[str], str]:
    """Two people dealt from *seed*, made as the lobby makes a game (no spectator delay)."""
    base, web = server
    session = web.hub.create(
        game,
        ["Ann", "Bob"],
        now=web.host.clock(),
        seed=seed,
        options=options or None,
        config=SessionConfig(limits=web.limits, spectator_delay=0),
    )
    url = f"{base}/play/{session.id}"
    return session, [f"{url}#seat=0", f"{url}#seat=1"], f"{url}#watch"


def _open(
    browser: Any,
    server: tuple[str, WebServer],
    game: str,
    seed: int,
    watch: bool = True,
    contexts: list[Any] = CONTEXTS,
    **options: Any,
) -> Any:
    """Both seats' pages (and the watcher's), at 360 x 640, each with its first view."""
    session, links, watcher = _seeded(server, game, seed, **options)
    pages = [_page(browser, link, contexts) for link in [*links, watcher][: 3 if watch else 2]]
    for page in pages:
        page.wait_for_function("() => window.cardcore.view !== null")
    return session, pages


def _version(page: Any) -> int:
    v: int = page.evaluate("window.cardcore.version")
    return v


def _settle(pages: list[Any], before: int) -> None:
    for page in pages:
        page.wait_for_function(f"() => window.cardcore.version > {before}", timeout=10000)


def _tab_to(page: Any, action: str) -> None:
    """Tab from the top of the page until the button of *action* has the focus."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.action || ''") == action:
            return
    raise AssertionError(f"Tab never reached the button {action!r}")


def _focus_ring(page: Any) -> str:
    style: str = page.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement);"
        " return s.outlineStyle + ' ' + s.outlineWidth; })()"
    )
    return style


def _key_move(page: Any, action: str, key: str, others: list[Any]) -> None:
    """Make *action* with the keyboard alone: Tab to its button (a visible focus ring), press
    *key* (Enter or Space); every page sees the next version."""
    before = _version(page)
    for _ in range(3):  # (a re-render between Tab and key drops the focus: the ping xfail)
        _tab_to(page, action)
        ring = _focus_ring(page)
        assert not ring.startswith("none") and not ring.endswith(" 0px"), ring
        page.keyboard.press(key)
        try:
            page.wait_for_function(f"() => window.cardcore.version > {before}", timeout=10_000)
            break
        except PlaywrightTimeout:  # (a move answered late must not be sent twice)
            if page.evaluate("window.cardcore.version") > before:
                break
    else:
        raise AssertionError(f"{action!r} was not made from the keyboard")
    _settle(others, before)


def _hidden_spellings(card: str) -> list[str]:
    """How a page or its accessibility tree could spell *card*: its code and rank + glyph."""
    glyph = SUITS[card[-1]][0]
    return [card, card[:-1] + glyph]


def _spoken(page: Any) -> str:
    """What a screen reader gets of the table, the moves and the live regions (no ids there)."""
    parts = [page.locator(s).aria_snapshot() for s in ("#table", "#actions", "#message", "#notes")]
    return "\n".join(parts)


def _unreachable(page: Any) -> list[list[str]]:
    """Controls (buttons, links, fields, clickable cards) that a 360 px screen cuts off or that
    something else covers at their centre, once scrolled to."""
    bad: list[list[str]] = page.evaluate(
        """() => {
          const bad = [], say = (e) => e.tagName + '.' + e.className + ' ' + (e.textContent || '').slice(0, 20);
          for (const e of document.querySelectorAll('button, a, input, select, summary, .target')) {
            if (e.getClientRects().length === 0 || e.closest('details:not([open]) > div')) continue;
            e.scrollIntoView({ block: 'center', inline: 'center' });
            const r = e.getBoundingClientRect();
            if (r.width < 1 || r.height < 1) { bad.push(['no size', say(e)]); continue; }
            if (r.left < -0.5 || r.right > window.innerWidth + 0.5) { bad.push(['cut off', say(e), String(Math.round(r.right))]); continue; }
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            if (!hit || !(hit === e || e.contains(hit))) bad.push(['covered', say(e), hit ? say(hit) : 'nothing']);
          }
          window.scrollTo(0, 0);
          return bad;
        }"""
    )
    return bad


def _golf_four(
    browser: Any, server: tuple[str, WebServer], watch: bool = True
) -> tuple[Any, list[Any]]:
    """Four-card Golf from seed 11: each seat peeks at 0 and 1, then Ann may draw, take or knock."""
    return _open(browser, server, "golf", 11, watch=watch, layout="4")


@pytest.fixture(scope="module")
def golf(server: tuple[str, WebServer], browser: Any) -> Iterator[list[Any]]:
    """That Golf table before any move (Ann to peek): Ann's, Bob's and the watcher's pages,
    shared by the tests that only read it (a refused move changes nothing)."""
    contexts: list[Any] = []
    _, pages = _open(browser, server, "golf", 11, contexts=contexts, layout="4")
    yield pages
    for context in contexts:
        context.close()


def _suits_in_glyphs(page: Any) -> int:
    """Every face-up card on the table carries its suit's glyph, red or black: how many."""
    cards = page.evaluate(
        "[...document.querySelectorAll('#table .card[data-card]:not([data-card=\"\"])')]"
        ".map(e => [e.classList.contains('red'), e.textContent])"
    )
    for red, text in cards:
        assert any(g in text for g in ("♥♦" if red else "♠♣")), (red, text)
    return len(cards)


def _no_hidden_card_spoken(game: Any, pages: list[Any]) -> None:
    """Golf: no page speaks a grid card or held card that its view does not show."""
    deck = {z for s in (0, 1) for z in game.view(s)["table"]["grids"][s] if z}
    deck |= {game.view(s)["table"]["held"]["card"] for s in (0, 1) if game.view(s)["table"]["held"]}
    deck.discard(None)
    for page in pages:
        table = _view(page)["table"]
        seen = set(table["grids"][0] + table["grids"][1])
        seen |= {table["discard"], table["held"] and table["held"]["card"]}
        hidden = sorted(c for c in deck if c not in seen)
        assert hidden, page.url  # each page has cards it may not see
        spoken = _spoken(page)
        leaked = [
            c
            for c in hidden
            for w in _hidden_spellings(c)
            if re.search(rf"(?<!\w){w}(?!\w)", spoken)
        ]
        assert leaked == [], leaked
    assert _view(pages[0])["table"]["held"]["card"] is None  # Bob's drawn card: not Ann's


# --- the lobby ------------------------------------------------------------------------------


def test_pages_declare_their_language(
    server: tuple[str, WebServer], browser: Any, golf: list[Any]
) -> None:
    base, _ = server
    lobby = _page(browser, base + "/")
    assert lobby.get_attribute("html", "lang") == "en"
    for page in golf:
        assert page.get_attribute("html", "lang") == "en"


def test_lobby_every_form_control_has_an_accessible_name(
    server: tuple[str, WebServer], browser: Any
) -> None:
    """Each game's form (options, house rules, seats, clocks): no control the accessibility
    tree leaves unnamed; the page has one h1 and its sections h2/h3."""
    base, _ = server
    lobby = _page(browser, base + "/")
    lobby.wait_for_selector("#game option[value=golf]", state="attached")
    for game in ("golf", "tonk", "spit", "speed"):
        lobby.select_option("#game", game)
        tree = lobby.locator("#create").aria_snapshot()
        assert "textbox" in tree and "checkbox" in tree and "spinbutton" in tree, tree
        unnamed = [line for line in tree.splitlines() if UNNAMED.match(line)]
        assert unnamed == [], (game, unnamed)
    headings = lobby.evaluate("[...document.querySelectorAll('h1,h2,h3')].map(h => h.tagName)")
    assert headings[0] == "H1" and headings.count("H1") == 1 and "H2" in headings, headings


def test_lobby_creates_a_game_from_the_keyboard_with_a_visible_focus(
    server: tuple[str, WebServer], browser: Any
) -> None:
    base, _ = server
    lobby = _page(browser, base + "/")
    lobby.wait_for_selector("#game option[value=golf]", state="attached")
    for _ in range(120):
        lobby.keyboard.press("Tab")
        if lobby.evaluate("document.activeElement.id") == "start":
            break
    assert lobby.evaluate("document.activeElement.id") == "start"
    ring = _focus_ring(lobby)
    assert not ring.startswith("none") and not ring.endswith(" 0px"), ring
    # at 360 px every field and button can be scrolled to and clicked (sideways: see below)
    assert _unreachable(lobby) == []
    assert lobby.evaluate("document.activeElement.id") == "start"  # (scrolling kept it)
    lobby.keyboard.press("Enter")
    lobby.wait_for_selector(".seat-link")


def test_lobby_fits_a_360_px_screen(server: tuple[str, WebServer], browser: Any) -> None:
    base, _ = server
    lobby = _page(browser, base + "/")
    lobby.wait_for_selector("#game option[value=golf]", state="attached")
    assert lobby.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]
    lobby.click("#start")
    lobby.wait_for_selector(".seat-link")
    assert _unreachable(lobby) == []


# --- Golf -----------------------------------------------------------------------------------


def test_golf_every_kind_of_move_by_keyboard_alone(
    server: tuple[str, WebServer], browser: Any
) -> None:
    """Peek, take, replace at a position, draw, discard and knock, each by Tab and Enter or
    Space on its button; the other seat's and the watcher's alert region tell each move; and
    while Bob holds the card he drew, no page's table, moves, alert or notes tells a screen
    reader a card that page may not see."""
    session, pages = _golf_four(browser, server)
    ann, bob, watcher = pages
    assert watcher.locator("button.act").count() == 0
    moves = [
        (ann, "peek 0", "Enter"),
        (ann, "peek 1", " "),
        (bob, "peek 0", "Enter"),
        (bob, "peek 1", "Enter"),
        (ann, "take", "Enter"),
        (ann, "replace 2", " "),
        (bob, "draw", "Enter"),
        (bob, "discard", "Enter"),
        (ann, "knock", "Enter"),
    ]
    for page, action, key in moves:
        assert action in _view(page)["legal"], (action, _view(page)["legal"])
        _key_move(page, action, "Space" if key == " " else key, [p for p in pages if p is not page])
        if page is ann:
            assert watcher.get_attribute("#message", "role") == "alert"
            assert watcher.inner_text("#message") == "Ann: " + action
        if action == "draw":
            _no_hidden_card_spoken(session.game, pages)
    assert _view(bob)["table"]["final_turns_left"] is not None  # Ann knocked: a last turn


def test_golf_focus_stays_with_the_moves_after_a_keyboard_move(
    server: tuple[str, WebServer], browser: Any
) -> None:
    _, pages = _golf_four(browser, server, watch=False)
    _key_move(pages[0], "peek 0", "Enter", pages[1:])
    focused = pages[0].evaluate("document.activeElement.closest('#actions, #table') !== null")
    assert focused, pages[0].evaluate("document.activeElement.tagName")


def test_golf_focus_survives_the_other_seats_move(
    server: tuple[str, WebServer], browser: Any
) -> None:
    _, pages = _golf_four(browser, server, watch=False)
    bob = pages[1]
    bob.focus("#resign")
    assert bob.evaluate("document.activeElement.id") == "resign"
    _key_move(pages[0], "peek 0", "Enter", pages[1:])
    assert bob.evaluate("document.activeElement.id") == "resign"


def test_golf_focus_survives_the_ping_reply(golf: list[Any]) -> None:
    ann = golf[0]
    _tab_to(ann, "peek 0")
    ann.evaluate(
        "window.cardcore.ws.onmessage({ data: JSON.stringify({ type: 'pong', t: performance.now() }) })"
    )
    assert ann.evaluate("document.activeElement.dataset.action || ''") == "peek 0"


def test_golf_the_turn_passing_to_a_seat_is_announced(
    server: tuple[str, WebServer], browser: Any
) -> None:
    _, pages = _golf_four(browser, server, watch=False)
    ann, bob = pages
    _key_move(ann, "peek 0", "Enter", pages[1:])
    _key_move(ann, "peek 1", "Enter", pages[1:])
    assert _view(bob)["to_act"] == [1]
    live = bob.evaluate(
        """() => [...document.querySelectorAll('[aria-live], [role=alert], [role=status]')]
             .filter(e => e.getAttribute('aria-live') !== 'off').map(e => e.textContent).join(' | ')"""
    )
    assert re.search(r"your turn|to act: bob", live, re.I), live


def test_golf_cards_are_named_in_words(golf: list[Any]) -> None:
    ann = golf[0]
    top = _view(ann)["table"]["discard"]
    assert top
    tree = ann.locator('.pile[data-pile="discard"]').aria_snapshot()
    assert SUITS[top[-1]][1] in tree.lower(), tree


def test_golf_face_down_cards_are_announced_as_face_down(golf: list[Any]) -> None:
    ann = golf[0]
    grid = _view(ann)["table"]["grids"][0]
    down = sum(1 for c in grid if c is None)
    assert down == 4, grid  # not one peeked yet
    tree = ann.locator('.golf .grid[data-seat="0"]').aria_snapshot()
    assert len(re.findall(r"face[- ]down|hidden", tree, re.I)) == down, tree


def test_table_click_targets_are_keyboard_buttons(golf: list[Any]) -> None:
    targets = golf[0].evaluate(
        "[...document.querySelectorAll('#table .target')].map(e => [e.tabIndex, e.getAttribute('role')])"
    )
    assert targets, "no clickable card on Ann's table"
    assert all(t == [0, "button"] for t in targets), targets


def test_colour_is_never_the_only_sign(golf: list[Any]) -> None:
    """Red and black cards carry their suit glyph; the seat to act (gold outline) is named in
    the status line; every clickable (gold) target is also a move button with its words; an
    illegal move is refused in words, not only in red."""
    ann, bob, _ = golf
    for page in golf:
        assert _suits_in_glyphs(page) >= 1
        assert page.locator(".seat-box.to-act").count() == 1
        assert "To act: Ann" in page.inner_text("#status")
    targets = ann.evaluate(
        "[...document.querySelectorAll('#table [data-target]')].map(e => e.dataset.target)"
    )
    buttons = ann.evaluate(
        "[...document.querySelectorAll('#actions button.act')].map(b => b.textContent)"
    )
    assert targets and set(targets) <= set(buttons), (targets, buttons)
    bob.evaluate("window.cardcore.act('peek 2')")
    bob.wait_for_selector("#message.illegal")
    assert bob.inner_text("#message").startswith("Not allowed — ")


def test_golf_every_control_reachable_on_a_360_px_screen(golf: list[Any]) -> None:
    for page in golf:
        assert page.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]
        assert _unreachable(page) == []


def test_play_page_has_headings_for_the_table_and_the_moves(golf: list[Any]) -> None:
    headings = golf[0].evaluate("[...document.querySelectorAll('main h2, main h3')].length")
    assert headings >= 2


# --- Tonk -----------------------------------------------------------------------------------


def test_tonk_every_kind_of_move_by_keyboard_alone(
    server: tuple[str, WebServer], browser: Any
) -> None:
    """Tonk from seed 1 (one hand): take, discard, draw, spread, hit and drop, each by Tab and
    Enter on its button (no card picked: the buttons name the cards); the small screen keeps
    every control reachable on both seats' pages and the watcher's, and no page speaks a card
    of a hand not its own (the table, the moves, the alert and the notes)."""
    session, pages = _open(browser, server, "tonk", 1, hands=1)
    ann, bob, watcher = pages
    assert _suits_in_glyphs(ann) >= 5 and _suits_in_glyphs(bob) >= 5  # hands: red and black
    moves = [
        (bob, "take"),
        (bob, "discard AD"),
        (ann, "draw"),
        (ann, "spread JS QS KS"),
        (ann, "discard 2S"),
        (bob, "draw"),
        (bob, "discard 4H"),
        (ann, "draw"),
        (ann, "hit 1 10S"),
        (ann, "discard 2D"),
    ]
    for page, action in moves:
        assert action in _view(page)["legal"], (action, _view(page)["legal"])
        _key_move(page, action, "Enter", [p for p in pages if p is not page])
        if action.startswith("spread"):
            for p in pages:
                assert _unreachable(p) == []
                assert p.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]
            hands = [session.game.view(s)["table"]["hand"] for s in (0, 1)]
            own = _spoken(ann)  # the check can see a card: Ann's own hand is spoken on her page
            assert all(c[:-1] + SUITS[c[-1]][0] in own for c in hands[0]), own
            for p, hidden in [(ann, hands[1]), (bob, hands[0]), (watcher, hands[0] + hands[1])]:
                spoken = _spoken(p)
                assert len(hidden) >= 3 and "spread" in spoken
                leaked = [
                    c
                    for c in hidden
                    for w in _hidden_spellings(c)
                    if re.search(rf"(?<!\w){w}(?!\w)", spoken)
                ]
                assert leaked == [], leaked
    assert "drop" in _view(bob)["legal"]
    _key_move(bob, "drop", "Enter", [ann, watcher])
    assert watcher.inner_text("#message") == "Bob: drop"


# --- Spit and Speed -------------------------------------------------------------------------


def test_spit_ready_play_and_ask_for_spit_by_keyboard_alone(
    server: tuple[str, WebServer], browser: Any
) -> None:
    """Spit from seed 7: both say ready, Ann plays a card to a centre pile and asks for a spit,
    each by Tab and a key; the centre piles and layouts stay reachable at 360 px."""
    _, pages = _open(browser, server, "spit", 7)
    ann, bob, watcher = pages
    _key_move(ann, "ready", "Enter", [bob, watcher])
    _key_move(bob, "ready", "Space", [ann, watcher])
    ann.wait_for_function("() => window.cardcore.view.legal.includes('play 4 L')")
    _key_move(ann, "play 4 L", "Enter", [bob, watcher])
    assert _view(watcher)["table"]["piles"]["L"][0] == "2S"
    assert "spit" in _view(ann)["legal"]
    _key_move(ann, "spit", "Space", [bob, watcher])
    ann.wait_for_function(  # the answer ("ok") follows the update _key_move waited for
        "() => document.querySelector('#message').innerText.startsWith('spit ✓')",
        timeout=10_000,
    )
    assert ann.inner_text("#message").startswith("spit ✓")
    for page in pages:
        assert _unreachable(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]


def test_speed_play_and_stuck_by_keyboard_alone(
    server: tuple[str, WebServer], browser: Any
) -> None:
    _, pages = _open(browser, server, "speed", 5)
    ann, bob, watcher = pages
    assert _view(ann)["legal"] == ["play 9D L", "stuck"]
    for page in pages:
        assert _unreachable(page) == []
    _key_move(ann, "play 9D L", "Enter", [bob, watcher])
    assert _view(watcher)["table"]["piles"]["L"][0] == "9D"
    _key_move(ann, "stuck", "Space", [bob, watcher])
    ann.wait_for_function(  # the answer ("ok") follows the update _key_move waited for
        "() => document.querySelector('#message').innerText.startsWith('stuck ✓')",
        timeout=10_000,
    )
    assert ann.inner_text("#message").startswith("stuck ✓")


def test_speed_move_buttons_name_the_card_in_words(
    server: tuple[str, WebServer], browser: Any
) -> None:
    _, pages = _open(browser, server, "speed", 5, watch=False)
    tree = pages[0].locator("#actions").aria_snapshot()
    assert "button" in tree and "9D" in tree, tree
    assert re.search(r"diamond", tree, re.I), tree


# --- the replay -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def replayed(server: tuple[str, WebServer], browser: Any) -> Iterator[Any]:
    """Ann peeks, then resigns and opens the replay, all from the keyboard: her page."""
    contexts: list[Any] = []
    _, pages = _open(browser, server, "golf", 11, watch=False, contexts=contexts, layout="4")
    ann = pages[0]
    _key_move(ann, "peek 0", "Enter", pages[1:])
    ann.focus("#resign")
    ann.keyboard.press("Enter")
    ann.focus("#resign-yes")
    ann.keyboard.press("Enter")
    ann.wait_for_selector("#replay")
    ann.focus("#replay")
    ann.keyboard.press("Enter")
    ann.wait_for_selector('.replay [data-step="0"]')
    yield ann
    for context in contexts:
        context.close()


def test_replay_steps_from_the_keyboard_on_a_360_px_screen(replayed: Any) -> None:
    ann = replayed
    assert _unreachable(ann) == []
    assert ann.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]
    ann.locator(".replay button").nth(1).focus()
    ann.keyboard.press("Enter")
    ann.wait_for_selector('.replay [data-step="1"]')
    assert "Ann: peek 0" in ann.inner_text(".replay")


def test_replay_step_buttons_are_named_in_words(replayed: Any) -> None:
    ann = replayed
    tree = ann.locator(".replay").aria_snapshot()
    names = re.findall(r'- button "([^"]*)"', tree)
    assert len(names) == 2, tree
    assert all(re.search(r"[A-Za-z]", n) for n in names), names
