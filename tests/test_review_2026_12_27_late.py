"""Review of 158fdfb and 768014f: Card's own hash, the browser's Spit/Speed pick and Tonk
discard click, and apply's turn check (``to_act`` a tuple of seats) on both paths.

Each ``xfail(strict=True)`` is a bug found in review; the other tests pin claims that hold.
The browser tests skip without Playwright or /usr/bin/chromium, as the other browser tests.
"""

from __future__ import annotations

import copy
import os
import pickle
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

import cardcore
from cardcore import PluginError
from cardcore.cards import _BY_TEXT, JOKER, Card, Rank, Suit
from tests.test_review_2026_12_27 import PATHS, _apply, turn_game  # noqa: F401

# --- Card's hash: a number of its rank and suit ----------------------------------------------

ALL = sorted(_BY_TEXT.values(), key=lambda c: c.text)
SUIT_NUMBER = {Suit.SPADES: 1, Suit.HEARTS: 2, Suit.DIAMONDS: 3, Suit.CLUBS: 4}


def test_attrs_kept_cards_own_hash() -> None:
    """attrs (auto_detect) leaves a class's own ``__hash__``: no generated or cached one."""
    assert Card.__dict__["__hash__"].__qualname__ == "Card.__hash__"
    assert "_attrs_cached_hash" not in getattr(Card, "__slots__", ())
    assert hash(Card.parse("2S")) == 11 and hash(JOKER) == 0


def test_every_card_and_the_joker_hash_by_rank_and_suit_alone() -> None:
    assert len(ALL) == 53
    for card in ALL:
        want = card.rank.value * 5 + (0 if card.suit is None else SUIT_NUMBER[card.suit])
        assert hash(card) == want, card
    assert len({hash(c) for c in ALL}) == 53  # no two cards share a hash
    for a in ALL:  # equal exactly when the hash is equal
        for b in ALL:
            assert (a == b) == (hash(a) == hash(b)) == (a is b)


def test_a_card_built_directly_equals_and_hashes_as_its_parsed_card() -> None:
    for card in ALL:
        built = Card(card.rank, card.suit)
        assert built is not card
        assert built == card and hash(built) == hash(card) and built.text == card.text
        assert {built: 1}[card] == 1 and card in {built}
    assert Card(Rank.JOKER, None) == JOKER and hash(Card(Rank.JOKER, None)) == 0


@pytest.mark.parametrize(
    "clone",
    [
        lambda c: pickle.loads(pickle.dumps(c)),
        lambda c: pickle.loads(pickle.dumps(c, protocol=2)),
        copy.copy,
        copy.deepcopy,
        attrs.evolve,
    ],
    ids=["pickle", "pickle-2", "copy", "deepcopy", "evolve"],
)
def test_copies_keep_the_hash_and_text(clone: Any) -> None:
    for card in ALL:
        other = clone(card)
        assert other == card and hash(other) == hash(card) and other.text == card.text


def test_evolve_to_another_suit_or_rank_recomputes_the_hash() -> None:
    two_spades = Card.parse("2S")
    clubs = attrs.evolve(two_spades, suit=Suit.CLUBS)
    assert clubs == Card.parse("2C") and hash(clubs) == hash(Card.parse("2C"))
    king = attrs.evolve(two_spades, rank=Rank.KING)
    assert king == Card.parse("KS") and hash(king) == hash(Card.parse("KS")) and king.text == "KS"


def test_a_card_is_never_equal_to_the_int_of_its_hash() -> None:
    """A card's hash is a small int; it still is no int key of a mixed dict."""
    table: dict[Any, str] = {11: "int", Rank.TWO: "rank", Card.parse("2S"): "card"}
    assert len(table) == 3 and table[Card.parse("2S")] == "card" and table[11] == "int"


OLD_PICKLE = (
    b"\x80\x02]q\x00(ccardcore.cards\nCard\nq\x01)\x81q\x02}q\x03(X\x04\x00\x00\x00rankq\x04"
    b"ccardcore.cards\nRank\nq\x05K\x01\x85q\x06Rq\x07X\x04\x00\x00\x00suitq\x08ccardcore.cards"
    b"\nSuit\nq\tX\x01\x00\x00\x00Sq\n\x85q\x0bRq\x0cX\x04\x00\x00\x00textq\rX\x02\x00\x00\x00AS"
    b"q\x0eubh\x01)\x81q\x0f}q\x10(h\x04h\x05K\x00\x85q\x11Rq\x12h\x08Nh\rX\x02\x00\x00\x00JKq"
    b"\x13ube."
)
"""``pickle.dumps([Card.parse("AS"), Card.parse("JK")], 2)`` made by cardcore at 158fdfb^
(the state holds rank, suit and text: no ``_key``)."""


def test_the_old_pickle_is_what_the_previous_card_wrote() -> None:
    cards = pickle.loads(OLD_PICKLE)
    assert cards == [Card.parse("AS"), JOKER]  # equality does not read _key
    assert [c.text for c in cards] == ["AS", "JK"]


def test_a_card_pickled_by_the_previous_version_is_hashable() -> None:
    cards = pickle.loads(OLD_PICKLE)
    assert hash(cards[0]) == hash(Card.parse("AS"))
    assert set(cards) == {Card.parse("AS"), JOKER}


# --- Game.apply / commit: to_act must be a tuple of seats -----------------------------------


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    ("to_act", "fault"),
    [
        ([1], r"state.to_act is \[1\]: it must be a tuple of seats"),
        ({0: 1}, r"state.to_act is \{0: 1\}: it must be a tuple of seats"),
        ((), "state.to_act is empty but the game is not over"),
        ((2,), "state.to_act holds 2: not a seat from 0 to 1"),
        ((-1,), "state.to_act holds -1: not a seat from 0 to 1"),
        ((1, 5), "state.to_act holds 5: not a seat from 0 to 1"),
    ],
    ids=["list", "mapping-with-key-0", "empty-not-over", "past-the-seats", "negative", "second"],
)
def test_every_path_names_the_bad_turn_and_restores(
    turn_game: str,  # noqa: F811
    path: str,
    to_act: Any,
    fault: str,
) -> None:
    game = cardcore.new_game(turn_game, 2, seed=1)
    before = game.position()
    with pytest.raises(PluginError, match="left a bad turn in apply: " + fault):
        _apply(turn_game, path, to_act=to_act)
    assert (game.version, game.position()) == (0, before)


@pytest.mark.parametrize("path", PATHS)
def test_a_mapping_to_act_on_a_game_over_is_refused_too(
    turn_game: str,  # noqa: F811
    path: str,
) -> None:
    with pytest.raises(PluginError, match=r"state.to_act is \{\}: it must be a tuple"):
        _apply(turn_game, path, to_act={}, over=True)


def test_the_fast_path_publishes_the_next_seats_actions() -> None:
    """A listed action applied as listed (the fast path) and the same by text (commit) give
    the same game, and the fast path's published seat is the one to act."""
    fast = cardcore.new_game("drawgame", 2, seed=4)
    slow = cardcore.new_game("drawgame", 2, seed=4)
    for _ in range(12):
        if fast.is_over:
            break
        (seat,) = fast.to_act
        action = fast.legal_actions(seat)[0]
        fast.apply(action)
        slow.act(seat, str(action))
        assert (fast.version, fast.to_act, fast.position()) == (
            slow.version,
            slow.to_act,
            slow.position(),
        )
        if not fast.is_over:
            (nxt,) = fast.to_act
            assert all(a.seat == nxt for a in fast.legal_actions(nxt))
    assert fast.version >= 2


# --- the browser: Spit/Speed picks, Tonk's discard pile ---------------------------------------


@pytest.fixture(scope="module")
def web() -> Iterator[tuple[Any, tuple[str, Any], Any]]:
    """The browser helpers of the 2026-12-27 audit, a server and Chromium (skipped without)."""
    if os.environ.get("CI") != "true" and not Path("/usr/bin/chromium").exists():
        pytest.skip("no /usr/bin/chromium")
    pytest.importorskip("playwright.sync_api")
    uvicorn = pytest.importorskip("uvicorn")
    from playwright.sync_api import sync_playwright

    from cardcore.web import WebServer, create_app
    from tests.web import test_browser_mutants_2026_12_27 as audit
    from tests.web.test_browser import ARGS, CHROMIUM

    server = WebServer(None, bot_delay=0.05)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(server), log_level="warning", lifespan="on"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started:  # bounded wait for the server's own start flag
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        with sync_playwright() as p:
            chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                yield audit, (f"http://127.0.0.1:{port}", server), chromium
            finally:
                while audit.CONTEXTS:
                    audit.CONTEXTS.pop().close()
                chromium.close()
    finally:
        srv.should_exit = True
        thread.join(10)


@pytest.fixture
def table(web: tuple[Any, tuple[str, Any], Any]) -> Iterator[tuple[Any, tuple[str, Any], Any]]:
    """The module's browser, its pages closed and no script error after each test."""
    audit = web[0]
    audit.PROBLEMS.clear()
    yield web
    while audit.CONTEXTS:
        audit.CONTEXTS.pop().close()
    problems = audit.PROBLEMS[:]
    audit.PROBLEMS.clear()
    assert problems == [], problems


def _buttons(page: Any) -> list[str]:
    return list(
        page.eval_on_selector_all("#actions button.act", "bs => bs.map(b => b.dataset.action)")
    )


def test_speed_a_picked_card_keeps_the_stuck_button(table: Any) -> None:
    """Seed 3: Ann can only say ``stuck``; picking 3D narrows the plays, not ``stuck``."""
    from playwright.sync_api import expect

    audit, served, browser = table
    _, pages = audit._two(served, browser, "speed", 3)
    ann = pages[0]
    assert audit._view(ann)["legal"] == ["stuck"]
    ann.locator('.hand[data-seat="0"] [data-card="3D"]').click()
    expect(ann.locator('.hand[data-seat="0"] [data-card="3D"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(ann.locator('#actions button[data-action="stuck"]')).to_have_count(1)
    assert _buttons(ann) == ["stuck"]


def test_spit_a_picked_pile_keeps_ready_and_narrows_the_plays(table: Any) -> None:
    """Seed 1: a pile picked in the setup keeps ``ready``; once both are ready, pile 2 picked
    lists no ``play 1 ...`` but every move that is not a play."""
    from playwright.sync_api import expect

    audit, served, browser = table
    _, pages = audit._two(served, browser, "spit", 1)
    ann, bob = pages
    assert "ready" in audit._view(ann)["legal"]
    ann.locator('.stack[data-seat="0"][data-layout="2"]').click()
    expect(ann.locator('.stack[data-seat="0"][data-layout="2"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(ann.locator('#actions button[data-action="ready"]')).to_have_count(1)
    audit._act(ann, "ready", pages)  # (the move clears the pick)
    audit._act(bob, "ready", pages)
    legal = audit._view(ann)["legal"]
    assert "play 1 L" in legal, legal
    ann.locator('.stack[data-seat="0"][data-layout="2"]').click()
    expect(ann.locator("#actions button.clear")).to_have_count(1)
    shown = _buttons(ann)
    plays = [a for a in legal if a.startswith("play ")]
    assert [a for a in shown if a.startswith("play ")] == [a for a in plays if " 2 " in a]
    assert [a for a in shown if not a.startswith("play ")] == [
        a for a in legal if not a.startswith("play ")
    ]


def test_tonk_a_pick_before_the_draw_is_told_to_draw_or_take_first(table: Any) -> None:
    """Seed 7: KH picked before the draw, the discard pile clicked: the message, no take."""
    from playwright.sync_api import expect

    audit, served, browser = table
    sid, pages = audit._two(served, browser, "tonk", 7)
    ann = pages[0]
    ann.locator('.hand[data-seat="0"] [data-card="KH"]').click()
    expect(ann.locator('.hand[data-seat="0"] [data-card="KH"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    ann.locator('.pile[data-pile="discard"]').click()
    expect(ann.locator("#message")).to_contain_text("Draw or take first")
    assert served[1].hub.sessions[sid].game.version == 0


def test_tonk_no_upcard_a_pick_before_the_draw_is_told_to_draw_first(table: Any) -> None:
    from playwright.sync_api import expect

    audit, served, browser = table
    base, server = served
    from cardcore.session import SessionConfig

    session = server.hub.create(
        "tonk",
        ["Ann", "Bob"],
        now=server.host.clock(),
        seed=7,
        rules=["tonk.no-upcard"],
        config=SessionConfig(limits=server.limits, spectator_delay=0),
    )
    pages = [audit._page(browser, f"{base}/play/{session.id}#seat={s}") for s in (0, 1)]
    for page in pages:
        page.wait_for_function("() => window.cardcore.view !== null")
    ann = pages[0]
    assert sorted(audit._view(ann)["legal"]) == ["draw", "drop"]
    ann.locator('.hand[data-seat="0"] [data-card="KH"]').click()
    expect(ann.locator('.hand[data-seat="0"] [aria-pressed="true"]')).to_have_count(1)
    ann.locator('.pile[data-pile="discard"]').click()
    ann.wait_for_function("() => document.querySelector('#message').textContent !== ''")
    message = ann.locator("#message").text_content() or ""
    assert session.game.version == 0
    assert "Pick one card" not in message and "draw" in message.lower(), message


def test_tonk_the_discard_pile_that_answers_a_pick_is_a_keyboard_button(table: Any) -> None:
    from playwright.sync_api import expect

    audit, served, browser = table
    _, pages = audit._two(served, browser, "tonk", 7)
    ann = pages[0]
    ann.locator('.hand[data-seat="0"] [data-card="KH"]').click()
    expect(ann.locator('.hand[data-seat="0"] [data-card="KH"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    discard = ann.locator('.pile[data-pile="discard"]')
    assert discard.get_attribute("role") == "button"
    assert discard.get_attribute("tabindex") == "0"
