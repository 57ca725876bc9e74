"""Review of the 2026-12-29 fixes of the Tonk page (``layouts.js``) in a browser.

Other hands drawn from the view's zones (face up after a drop, backs again after the next
deal) on players' and spectators' pages; the replay's public view with spreads and hits,
step by step; the discard pile's messages with several cards picked. Games are dealt from
fixed seeds; no test waits a fixed time for an assertion. Skipped like the other browser
tests when Playwright or /usr/bin/chromium is missing.
"""

# ruff: noqa: F811  (the fixtures served, browser and clean_pages_and_frames are imported)
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CI") != "true":
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no /usr/bin/chromium", allow_module_level=True)
    pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
expect = pytest.importorskip("playwright.sync_api").expect

from cardcore import new_game  # noqa: E402
from cardcore.web import WebServer  # noqa: E402
from tests.web.test_browser import _view  # noqa: E402
from tests.web.test_browser_mutants_2026_12_27 import (  # noqa: E402, F401
    PROBLEMS,
    _page,
    _settle,
    _two,
    _version,
    browser,
    clean_pages_and_frames,
    served,
)

expect.set_options(timeout=10_000)

BACK = '[aria-label="a face-down card"]'


def _click(page: Any, locator: Any, pages: list[Any]) -> None:
    before = _version(page)
    locator.click()
    _settle(pages, before)


def _act(page: Any, text: str, pages: list[Any]) -> None:
    assert text in _view(page)["legal"], (text, _view(page)["legal"])
    before = _version(page)
    page.locator(f'#actions button[data-action="{text}"]').click()
    _settle(pages, before)


def test_tonk_a_watcher_sees_the_hands_a_drop_shows_and_backs_again_after_the_next_deal(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Seed 7, two hands: Ann (AS AD AC JD KH) drops; the watcher's page draws both hands face
    up, with no "your count"; Ann deals the second hand: every other hand is backs again."""
    base, web = served
    sid, pages = _two(served, browser, "tonk", 7, hands=2)
    ann, bob = pages
    watcher = _page(browser, f"{base}/play/{sid}#watch")
    watcher.wait_for_function("() => window.cardcore.view !== null")
    everyone = [ann, bob, watcher]
    expect(watcher.locator(f'.hand[data-seat="0"] {BACK}')).to_have_count(5)
    expect(watcher.locator(".tonk > p.doc")).not_to_contain_text("your count")
    _click(ann, ann.locator('[data-tonk="drop"]'), everyone)
    game = web.hub.sessions[sid].game
    for s in (0, 1):
        cards = game.view(None)["table"]["hand_sizes"][s]
        zone = next(z for z in game.view(None)["zones"] if z["name"] == f"hand.{s}")
        assert None not in zone["cards"] and len(zone["cards"]) == cards
        row = watcher.locator(f'.hand[data-seat="{s}"]')
        expect(row.locator(BACK)).to_have_count(0)
        for c in zone["cards"]:
            expect(row.locator(f'[data-card="{c}"]')).to_have_count(1)
    expect(watcher.locator(".tonk > p.doc")).not_to_contain_text("your count")
    _click(ann, ann.locator("#table button", has_text="Deal"), everyone)
    sizes = game.view(None)["table"]["hand_sizes"]
    for s in (0, 1):
        expect(watcher.locator(f'.hand[data-seat="{s}"] {BACK}')).to_have_count(sizes[s])
        expect(watcher.locator(f'.hand[data-seat="{s}"] [data-card]:not({BACK})')).to_have_count(0)
    expect(bob.locator(f'.hand[data-seat="0"] {BACK}')).to_have_count(sizes[0])
    expect(ann.locator(f'.hand[data-seat="1"] {BACK}')).to_have_count(sizes[1])
    expect(bob.locator('.hand[data-seat="1"] [aria-pressed]')).to_have_count(sizes[1])


# Seed 61, one hand: Ann spreads 2H 3H 4H and hits it; Bob hits it; Ann goes out by a hit.
SEED_61 = [
    (0, "draw"),
    (0, "spread 2H 3H 4H"),
    (0, "hit 1 5H"),
    (0, "discard 2D"),
    (1, "draw"),
    (1, "hit 1 AH"),
    (1, "discard 2S"),
    (0, "draw"),
    (0, "discard 4C"),
    (1, "draw"),
    (1, "discard 6D"),
    (0, "draw"),
    (0, "hit 1 6H"),
    (0, "discard 9C"),
]


def test_tonk_the_replay_with_spreads_and_hits_draws_each_step_as_the_public_view_shows_it(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Every step of the replay on Ann's page: each hand as many cards as the public view
    holds, face up exactly where the public view's zone is, no "your count", the spreads."""
    _, web = served
    sid, pages = _two(served, browser, "tonk", 61, hands=1)
    for seat, text in SEED_61:
        _act(pages[seat], text, pages)
    assert web.hub.sessions[sid].game.is_over
    ref = new_game("tonk", ["Ann", "Bob"], seed=61, options={"hands": 1})
    publics = [ref.view(None)]
    for seat, text in SEED_61:
        ref.act(seat, text)
        publics.append(ref.view(None))
    ann = pages[0]
    ann.locator("#replay").click()
    replay = ann.locator("#after .replay-table")
    for step, public in enumerate(publics):
        if step:
            ann.locator('#after button[aria-label="Step forward"]').click()
        expect(ann.locator(f'#after [data-step="{step}"]')).to_have_count(1)
        table = public["table"]
        for s in (0, 1):
            zone = next(z for z in public["zones"] if z["name"] == f"hand.{s}")
            row = replay.locator(f'.hand[data-seat="{s}"]')
            expect(row.locator(".card")).to_have_count(table["hand_sizes"][s])
            expect(row.locator(BACK)).to_have_count(zone["cards"].count(None))
        spreads = replay.locator("[data-spread]")
        expect(spreads).to_have_count(len(table["spreads"]))
        for sp in table["spreads"]:
            cards = replay.locator(f'[data-spread="{sp["number"]}"] [data-card]:not({BACK})')
            expect(cards).to_have_count(len(sp["cards"]))
        expect(replay.locator(".tonk > p.doc")).not_to_contain_text("your count")


def test_tonk_two_picked_cards_clicked_onto_the_discard_ask_for_one(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Seed 7: Ann takes 10H; with 10H and another card picked, and after Bob's draw with two
    cards picked, the discard pile asks for one card (not TONK-TURN-4, nothing made)."""
    _, web = served
    sid, pages = _two(served, browser, "tonk", 7)
    ann, bob = pages
    _click(ann, ann.locator('.pile[data-pile="discard"]'), pages)
    game = web.hub.sessions[sid].game
    hand = game.view(0)["table"]["hand"]
    other = next(c for c in hand if c != "10H")
    for c in ("10H", other):
        ann.locator(f'.hand[data-seat="0"] [data-card="{c}"]').click()
    version = game.version
    ann.locator('.pile[data-pile="discard"]').click()
    expect(ann.locator("#message")).to_have_text("Pick one card of your hand to discard it.")
    assert game.version == version
    ann.locator(f'.hand[data-seat="0"] [data-card="{other}"]').click()  # 10H alone
    ann.locator('.pile[data-pile="discard"]').click()
    expect(ann.locator("#message")).to_contain_text("TONK-TURN-4")
    ann.locator(f'.hand[data-seat="0"] [data-card="{other}"]').click()
    ann.locator('.hand[data-seat="0"] [data-card="10H"]').click()  # only the other card
    _click(ann, ann.locator('.pile[data-pile="discard"]'), pages)  # a discard: made
    assert game.view(0)["table"]["discard_top"] == other
    _click(bob, bob.locator('.pile[data-pile="stock"]'), pages)
    two = game.view(1)["table"]["hand"][:2]
    for c in two:
        bob.locator(f'.hand[data-seat="1"] [data-card="{c}"]').click()
    version = game.version
    bob.locator('.pile[data-pile="discard"]').click()
    expect(bob.locator("#message")).to_have_text("Pick one card of your hand to discard it.")
    assert game.version == version
    ann.locator('.hand[data-seat="0"] [data-card="10H"]').click()  # on Bob's turn
    ann.locator('.pile[data-pile="discard"]').click()
    expect(ann.locator("#message")).to_contain_text("It is not your turn")
    assert game.version == version
