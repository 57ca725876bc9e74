"""A second mutation audit of the browser front end (``src/cardcore/web/static/``, 2026-12-29).

Each passing test here fails on a hand-made mutant of the page scripts (``play.js``,
``layouts.js``, ``lobby.js``) that every other browser test let through (the first audit:
``test_browser_mutants_2026_12_27.py``, whose server and pages these tests share); the
mutant is named in its docstring (a few steps also pin what other tests hold). A strict xfail marks what was found broken by hand while
playing in two windows.

Games are dealt from fixed seeds or set from written positions; no test waits a fixed time
for an assertion. Skipped like the other browser tests when Playwright or /usr/bin/chromium
is missing (a missing browser fails under ``CI=true``).
"""

# ruff: noqa: F811  (the fixtures served, browser and clean_pages_and_frames are imported)
from __future__ import annotations

import asyncio
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
expect = pytest.importorskip("playwright.sync_api").expect

from cardcore.session import SessionConfig, TimeControl  # noqa: E402
from cardcore.web import WebServer  # noqa: E402
from tests.web.test_browser import _view  # noqa: E402
from tests.web.test_browser_mutants_2026_12_27 import (  # noqa: E402, F401
    GOLF_KNOCK,
    PROBLEMS,
    SPIT_LAST_CARD,
    TONK_HIT,
    _page,
    _post,
    _settle,
    _two,
    _version,
    browser,
    clean_pages_and_frames,
    served,
)

expect.set_options(timeout=10_000)


def _positioned(
    served: tuple[str, WebServer], browser: Any, game: str, position: str, **options: Any
) -> tuple[Any, list[Any]]:
    """A game of Ann and Bob set from *position*; both seat pages open with their first view."""
    base, web = served
    session = web.hub.create(
        game,
        ["Ann", "Bob"],
        now=web.host.clock(),
        position=position,
        options=options or None,
        config=SessionConfig(limits=web.limits, spectator_delay=0),
    )
    pages = [_page(browser, f"{base}/play/{session.id}#seat={s}") for s in (0, 1)]
    for page in pages:
        page.wait_for_function("() => window.cardcore.view !== null")
    return session, pages


def _click(page: Any, locator: Any, pages: list[Any]) -> None:
    """Click *locator* on *page* and wait until every page shows the move it made."""
    before = _version(page)
    locator.click()
    _settle(pages, before)


# -- the connection ------------------------------------------------------------------------------


def test_a_session_the_host_closes_is_said_closed_on_the_page(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: the host's ``closed`` message not shown (the page only stops reconnecting).
    The host closes the session in the server's own event loop (reached through the host's
    wake-up event: no public way from another thread), as its operator would."""
    _, web = served
    sid, pages = _two(served, browser, "golf", 5)
    loop = getattr(web.host._wake, "_loop", None)  # the server host's loop (set once it waits)
    assert loop is not None

    async def close() -> None:
        web.host.deliver(web.hub.close(sid, web.host.clock()))

    asyncio.run_coroutine_threadsafe(close(), loop).result(10)
    for page in pages:
        expect(page.locator("#message")).to_have_text("closed: the host closed the session")
        expect(page.locator("#net")).to_have_text("closed")


# -- Tonk: drop, the hand's end, the next deal ---------------------------------------------------


def test_tonk_a_drop_ends_the_hand_and_only_the_next_dealer_deals_by_the_deal_button(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutants: the Deal button never drawn (``has("deal")`` misspelt: the first audit's
    survivor); the Deal button sending ``draw``; the Drop button sending ``draw``; the line
    under the table naming the session's hands as the hand's number, or without "your count".
    Seed 7, two hands: Ann
    drops (23 against Bob's 41, she is paid), then deals the second hand; Bob drops it."""
    _, web = served
    sid, pages = _two(served, browser, "tonk", 7, hands=2)
    ann, bob = pages
    game = web.hub.sessions[sid].game
    expect(ann.locator(".tonk > p.doc")).to_contain_text("your count: 23 · hand 1 of 2 · start")
    expect(bob.locator('[data-tonk="drop"]')).to_have_count(0)  # not Bob's turn
    _click(ann, ann.locator('[data-tonk="drop"]'), pages)
    table = game.view(None)["table"]
    assert (table["phase"], table["balances"]) == ("between", [1, -1])
    for page, you in ((ann, 0), (bob, 1)):
        mark = [" (you)" if s == you else "" for s in (0, 1)]
        row = '.tonk .seat-box:has(.hand[data-seat="{}"]) > .label'
        expect(page.locator(row.format(0))).to_have_text(f"Ann{mark[0]} · 5 cards · balance 1")
        expect(page.locator(row.format(1))).to_have_text(f"Bob{mark[1]} · 5 cards · balance -1")
    expect(bob.locator("#message")).to_have_text("Ann: drop")
    expect(bob.locator("#table button", has_text="Deal")).to_have_count(0)
    expect(bob.locator("#actions button.act")).to_have_count(0)
    deal = ann.locator("#table button", has_text="Deal")
    expect(deal).to_have_attribute("data-target", "deal")
    _click(ann, deal, pages)
    table = game.view(None)["table"]
    assert (table["phase"], table["hand_number"], table["turn"]) == ("start", 2, 1)
    expect(bob.locator(".tonk > p.doc")).to_contain_text("hand 2 of 2 · start")
    expect(bob.locator("#message")).to_have_text("Ann: deal")
    hand = game.view(1)["table"]["hand"]
    expect(bob.locator('.hand[data-seat="1"] [aria-pressed]')).to_have_count(len(hand))
    for c in hand:
        expect(bob.locator(f'.hand[data-seat="1"] [data-card="{c}"]')).to_have_count(1)
    expect(ann.locator('[data-tonk="drop"]')).to_have_count(0)
    _click(bob, bob.locator('[data-tonk="drop"]'), pages)
    assert game.is_over
    expect(ann.locator("#after h2")).to_have_text("Result")


def test_tonk_after_a_drop_the_other_players_hand_is_shown_face_up(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Seed 7, two hands: Ann (AS AD AC JD KH, 23) drops; Bob's page should show her hand."""
    _, web = served
    sid, pages = _two(served, browser, "tonk", 7, hands=2)
    ann, bob = pages
    shown = _view(ann)["table"]["hand"]
    assert sorted(shown) == sorted(["AS", "AD", "AC", "JD", "KH"])
    _click(ann, ann.locator('[data-tonk="drop"]'), pages)
    assert web.hub.sessions[sid].game.view(1)["table"]["shown"] == [True, True]
    row = bob.locator('.hand[data-seat="0"]')
    expect(row.locator('[aria-label="a face-down card"]')).to_have_count(0)
    for c in shown:
        expect(row.locator(f'[data-card="{c}"]')).to_have_count(1)
    assert str(web.hub.sessions[sid].game.legal_actions(0)[0]) == "deal"  # between hands
    ann.locator('.hand[data-seat="0"] [data-card="KH"]').click()
    ann.locator('.pile[data-pile="discard"]').click()
    expect(ann.locator("#message")).to_have_text("No card can be discarded now.")


def test_tonk_each_other_hand_shows_as_many_backs_as_it_holds(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: the other hands drawn with as many backs as the page's own hand holds. The
    first audit's Tonk position: Ann holds 6 cards, Bob 2."""
    _, pages = _positioned(served, browser, "tonk", TONK_HIT)
    ann, bob = pages
    expect(bob.locator('.hand[data-seat="0"] [aria-label="a face-down card"]')).to_have_count(6)
    expect(ann.locator('.hand[data-seat="1"] [aria-label="a face-down card"]')).to_have_count(2)
    expect(ann.locator('.hand[data-seat="0"] [aria-pressed]')).to_have_count(6)


# -- the keyboard and the clocks ---------------------------------------------------------------------


def test_a_table_card_is_pressed_by_space_as_well_as_enter(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: the table's keyboard buttons (cards and piles, no ``<button>``) pressed by Enter
    only, not Space (the other keyboard tests press Space on the move buttons only). Seed 5:
    Ann flips card 0 by Space and card 1 by Enter; in Tonk (seed 7) Space picks a card."""
    _, web = served
    sid, pages = _two(served, browser, "golf", 5)
    ann = pages[0]
    for pos, key in ((0, "Space"), (1, "Enter")):
        cell = ann.locator(f'.grid[data-seat="0"] .cell[data-pos="{pos}"]')
        expect(cell).to_have_attribute("role", "button")
        before = _version(ann)
        cell.focus()
        ann.keyboard.press(key)
        _settle(pages, before)
        assert web.hub.sessions[sid].game.view(0)["table"]["grids"][0][pos] is not None
    _, tonk = _two(served, browser, "tonk", 7)
    king = tonk[0].locator('.hand[data-seat="0"] [data-card="KH"]')
    king.focus()
    tonk[0].keyboard.press("Space")
    expect(king).to_have_attribute("aria-pressed", "true")


def test_the_game_clock_is_shown_and_only_a_clock_of_ten_seconds_or_less_is_marked_low(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutants: the game clock left out of the clocks line; no clock ever marked low. A turn
    clock of 10 s (low from the start, whoever's turn it is once it runs out) and a game clock
    of 10 minutes (never low here)."""
    base, web = served
    session = web.hub.create(
        "golf",
        ["Ann", "Bob"],
        now=web.host.clock(),
        seed=5,
        config=SessionConfig(
            limits=web.limits, spectator_delay=0, time=TimeControl(turn=10, total=600)
        ),
    )
    page = _page(browser, f"{base}/play/{session.id}#seat=1")
    _page(browser, f"{base}/play/{session.id}#seat=0")
    page.wait_for_function("() => window.cardcore.view !== null")
    clocks = page.locator("#clocks")
    expect(clocks).to_have_text(
        re.compile(r"^⏱ (Ann|Bob \(you\)) 0:\d\d · game (10:00|9:[0-5]\d)$")
    )
    expect(clocks.locator("span.low")).to_have_count(1)
    expect(clocks.locator("span").last).not_to_have_class("low")


def test_a_seat_that_loses_on_time_is_told_so_on_its_own_page(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: the page of the seat that lost on time saying nothing of it (the "you lost on
    time" line dropped). A turn clock of 1 s that forfeits: Ann, to act first, runs out."""
    base, web = served
    session = web.hub.create(
        "golf",
        ["Ann", "Bob"],
        now=web.host.clock(),
        seed=5,
        config=SessionConfig(
            limits=web.limits, spectator_delay=0, time=TimeControl(turn=1, forfeit=True)
        ),
    )
    ann = _page(browser, f"{base}/play/{session.id}#seat=0")
    ann.wait_for_function("() => window.cardcore.players.length === 2")
    bob = _page(browser, f"{base}/play/{session.id}#seat=1")
    expect(ann.locator("#message")).to_have_text("Your time ran out: you lost on time")
    expect(bob.locator("#message")).to_have_text("Ann ran out of time and resigned")
    assert session.game is not None and list(session.game.result.winners) == [1]


def test_tonk_the_taken_card_clicked_onto_the_discard_pile_is_refused_with_its_reason(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Seed 7: Ann takes the 10H from the discard pile, picks it and clicks the discard pile."""
    _, web = served
    sid, pages = _two(served, browser, "tonk", 7)
    ann = pages[0]
    _click(ann, ann.locator('.pile[data-pile="discard"]'), pages)
    game = web.hub.sessions[sid].game
    assert game.view(0)["table"]["taken"] == "10H"
    taken = ann.locator('.hand[data-seat="0"] [data-card="10H"]')
    taken.click()
    expect(taken).to_have_attribute("aria-pressed", "true")
    ann.locator('.pile[data-pile="discard"]').click()
    ann.wait_for_function("() => document.querySelector('#message').textContent !== ''")
    assert game.view(0)["table"]["taken"] == "10H"  # nothing made
    expect(ann.locator("#message")).not_to_have_text("Pick one card of your hand to discard it.")
    expect(ann.locator("#message")).to_contain_text("TONK-TURN-4")


# -- Golf: the final turns, the card held ----------------------------------------------------------


def test_golf_after_a_knock_the_final_turns_and_the_card_held_are_shown(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutants: the "final turns left" words dropped; the held card labelled with the page's
    own seat (``name(S.seat)``); the card held drawn as a back on its holder's page too.
    Four-card Golf: Ann knocks, Bob has one final turn and draws 5C from the stock."""
    session, pages = _positioned(served, browser, "golf", GOLF_KNOCK, layout="4")
    ann, bob = pages
    expect(ann.locator(".golf > p.doc")).to_have_text("round 1 · draw")
    _click(ann, ann.locator("#table button", has_text="Knock"), pages)
    for page in pages:
        expect(page.locator(".golf > p.doc")).to_have_text("round 1 · draw · final turns left 1")
    _click(bob, bob.locator('.pile[data-pile="stock"]'), pages)
    assert session.game.view(1)["table"]["held"] == {"seat": 1, "card": "5C"}
    held = '.pile[data-pile="held"]'
    expect(bob.locator(held + " > .label")).to_have_text("held by Bob (you)")
    expect(bob.locator(held + " > .card")).to_have_attribute("data-card", "5C")
    expect(ann.locator(held + " > .label")).to_have_text("held by Bob")
    expect(ann.locator(held + " > .card")).to_have_attribute("aria-label", "a face-down card")


# -- Spit and Speed: picks, combine, clear -----------------------------------------------------------

SPIT_COMBINE = SPIT_LAST_CARD.replace("layout.1.2: 6D KS!", "layout.1.2: 6D 2S!").replace(
    "layout.1.3: 2S 10S QH!", "layout.1.3: KS 10S QH!"
)
"""The first audit's Spit position with Bob's 2S on his pile 2 (his pile 1 shows 2D)."""


def test_spit_a_pile_clicked_twice_is_unpicked_and_a_pile_clicked_onto_its_rank_combines(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutants: a second click on the picked pile leaving it picked (``from === k`` test
    dropped); a pile clicked onto another of the same rank never combining (only ``fill``
    looked for); "clear selection" clearing a Tonk pick only, not a picked pile."""
    session, pages = _positioned(served, browser, "spit", SPIT_COMBINE)
    bob = pages[1]
    assert "combine 2 1" in _view(bob)["legal"]
    two = bob.locator('.stack[data-seat="1"][data-layout="2"]')
    two.click()
    expect(two).to_have_attribute("aria-pressed", "true")
    two.click()
    expect(two).to_have_attribute("aria-pressed", "false")
    two.click()
    expect(two).to_have_attribute("aria-pressed", "true")
    bob.locator("#actions button.clear").click()
    expect(two).to_have_attribute("aria-pressed", "false")
    expect(bob.locator("#actions button.clear")).to_have_count(0)
    two.click()
    _click(bob, bob.locator('.stack[data-seat="1"][data-layout="1"]'), pages)
    layout = session.game.view(None)["table"]["seats"][1]["layout"]
    assert (len(layout[0]), layout[0][0], layout[1]) == (2, "2S", ["6D"])
    expect(bob.locator("#message")).to_contain_text("combine 2 1 ✓")
    expect(pages[0].locator('.stack[data-seat="1"][data-layout="1"] .label')).to_have_text("#1 · 2")


def test_speed_a_card_clicked_twice_is_unpicked_and_a_pick_narrows_only_the_plays(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutant: a second click on the picked card leaving it picked (a pick narrowing only the
    plays is pinned too). Seed 3: Bob's QH plays on R; he may also say stuck."""
    _, pages = _two(served, browser, "speed", 3)
    bob = pages[1]
    legal = _view(bob)["legal"]
    assert "play QH R" in legal and "stuck" in legal, legal
    queen = bob.locator('.hand[data-seat="1"] [data-card="QH"]')
    queen.click()
    expect(queen).to_have_attribute("aria-pressed", "true")
    expect(bob.locator("#actions button.act")).to_have_count(2)
    expect(bob.locator('#actions [data-action="stuck"]')).to_have_count(1)
    expect(bob.locator('#actions [data-action="play QH R"]')).to_have_count(1)
    queen.click()
    expect(queen).to_have_attribute("aria-pressed", "false")
    expect(bob.locator("#actions button.act")).to_have_count(len(legal))


# -- resigning, the result, the replay -------------------------------------------------------------


def test_resign_keep_playing_then_yes_and_the_replay_steps_back_and_forth(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutants: the replay's step back going two steps, or asking for step -1 at step 0 (an
    error line). Pinned too: "Keep playing" does not resign, the winner line, the step
    forward at the last step. Seed 5: Ann flips card 0, thinks better of resigning, then
    resigns."""
    _, web = served
    sid, pages = _two(served, browser, "golf", 5)
    ann, bob = pages
    game = web.hub.sessions[sid].game
    _click(ann, ann.locator('.grid[data-seat="0"] .cell[data-pos="0"]'), pages)
    ann.locator("#resign").click()
    ann.locator("#resign-no").click()
    expect(ann.locator("#resign")).to_be_visible()
    expect(ann.locator("#resign-yes")).to_have_count(0)
    assert game.version == 1 and not game.is_over
    ann.locator("#resign").click()
    _click(ann, ann.locator("#resign-yes"), pages)
    assert game.is_over and game.version == 2
    expect(bob.locator("#after .summary")).to_contain_text("Winner: Bob")
    expect(bob.locator("#resign")).to_have_count(0)
    bob.locator("#replay").click()
    label = bob.locator("#after .replay > .label")
    back = bob.locator('#after .replay button[aria-label="Step back"]')
    forward = bob.locator('#after .replay button[aria-label="Step forward"]')
    expect(label).to_have_text(re.compile(r"^\s*step 0 of 2\s*$"))
    forward.click()
    expect(label).to_have_text(re.compile(r"^\s*step 1 of 2 · Ann: flip 0\s*$"))
    forward.click()
    expect(label).to_have_text(re.compile(r"^\s*step 2 of 2 · Ann: resign\s*$"))
    _stays(bob, forward, "2")
    back.click()
    expect(label).to_have_attribute("data-step", "1")
    back.click()
    expect(label).to_have_attribute("data-step", "0")
    _stays(bob, back, "0")
    expect(bob.locator('#after .replay .replay-table .grid[data-seat="0"] .cell')).to_have_count(6)


def _stays(page: Any, button: Any, step: str) -> None:
    """Click a replay step *button* at the first or last step: the same step is drawn again
    (a new line), and no step beyond the ends is asked for (no error line)."""
    label = page.locator("#after .replay > .label")
    label.evaluate("(e) => { e.dataset.old = '1'; }")
    button.click()
    page.wait_for_function(
        "() => !document.querySelector('#after .replay > .label[data-old]')"
        " || document.querySelector('#after .replay-error')"
    )
    expect(page.locator("#after .replay-error")).to_have_count(0)
    expect(label).to_have_attribute("data-step", step)


# -- the lobby ---------------------------------------------------------------------------------------


def test_the_lobby_sends_a_rules_own_option_only_with_the_rule_and_lists_the_game_made(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Mutants: the list of games without its watch link, or without its record link; "lose
    on time" sent without a turn clock (a game clock only). Pinned too: a house rule's own
    option is sent only with the rule on; a seat's choice of a person stays when the seat
    count changes."""
    base, _ = served
    page = _page(browser, base + "/?game=golf")
    sent: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda r: r.method == "POST" and sent.append(json.loads(r.post_data or "{}")),
    )
    bonus = page.locator('[data-option="bonus_card"]')
    expect(bonus).to_have_attribute("data-for-rule", "golf.bonus-card")
    expect(page.locator('[data-rule="golf.bonus-card"]')).not_to_be_checked()
    page.fill('#seats .name[data-seat="0"]', "Zed")
    page.select_option('#seats .who[data-seat="1"]', "")
    page.fill('#seats .name[data-seat="1"]', "Yan")
    page.fill("#count", "3")
    page.dispatch_event("#count", "change")
    expect(page.locator("#seats .seat")).to_have_count(3)
    expect(page.locator('#seats .name[data-seat="0"]')).to_have_value("Zed")
    expect(page.locator('#seats .who[data-seat="1"]')).to_have_value("")
    page.fill("#count", "2")
    page.dispatch_event("#count", "change")
    expect(page.locator("#seats .seat")).to_have_count(2)
    page.select_option('#seats .who[data-seat="1"]', index=1)  # a bot again
    bonus.select_option(label="3")
    page.click("#start")
    expect(page.locator("#links .seat-link")).to_have_count(1)
    assert "bonus_card" not in sent[0]["options"] and sent[0]["rules"] == [], sent[0]
    assert [s["name"] for s in sent[0]["seats"]] == ["Zed", "Yan"]
    link = page.locator("#links .seat-link").get_attribute("href") or ""
    sid = link.rsplit("/", 1)[-1].split("#")[0]
    zed = _page(browser, link)
    zed.wait_for_function("() => window.cardcore.view !== null")  # started
    zed.click("#resign")
    zed.click("#resign-yes")
    zed.wait_for_function("() => window.cardcore.view.is_over")  # over: its record is public
    page.check('[data-rule="golf.bonus-card"]')
    page.fill("#total-clock", "900")
    page.check("#forfeit")  # (without a turn clock: no seat's own clock to lose on)
    page.click("#start")  # (the list is fetched again: the game started is in it)
    item = page.locator("#sessions li", has=page.locator(f'a[href*="{sid}"]'))
    expect(item).to_have_count(1)
    expect(item).to_contain_text("Zed, Yan")
    expect(item.locator("a", has_text="watch")).to_have_attribute("href", f"/play/{sid}#watch")
    expect(item.locator("a", has_text="record")).to_have_attribute(
        "href", f"/api/sessions/{sid}/record"
    )
    expect(page.locator("#error")).to_have_text("")
    assert len(sent) == 2, sent
    assert sent[1]["options"]["bonus_card"] == "3" and sent[1]["rules"] == ["golf.bonus-card"]
    assert sent[1]["time"] == {"total": 900}


def test_tonk_the_replay_on_a_players_page_shows_the_players_hand_as_backs(
    served: tuple[str, WebServer], browser: Any
) -> None:
    """Seed 7, one hand: Ann drops at once, which ends the game; Ann replays step 0."""
    _, web = served
    sid, pages = _two(served, browser, "tonk", 7, hands=1)
    ann = pages[0]
    _click(ann, ann.locator('[data-tonk="drop"]'), pages)
    assert web.hub.sessions[sid].game.is_over
    ann.locator('#table .hand[data-seat="0"] [data-card="AS"]').click()  # over: no turn is coming
    ann.locator('#table .pile[data-pile="discard"]').click()
    assert "not your turn" not in (ann.locator("#message").text_content() or "")
    assert "drop" not in (
        ann.locator('#table .pile[data-pile="discard"]').get_attribute("class") or ""
    )
    ann.locator("#replay").click()
    replay = ann.locator("#after .replay-table")
    expect(replay.locator('.hand[data-seat="1"] .card')).to_have_count(5)
    expect(replay.locator('.tonk .seat-box:has(.hand[data-seat="0"]) > .label')).to_contain_text(
        "5 cards"
    )
    expect(replay.locator('.hand[data-seat="0"] .card')).to_have_count(5)
    expect(replay.locator(".tonk > p.doc")).not_to_contain_text("your count")
    ann.locator('#after button[aria-label="Step forward"]').click()  # the drop: both hands shown
    expect(replay.locator('.hand[data-seat="0"] [data-card="AS"]')).to_have_count(1)
