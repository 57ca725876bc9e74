"""Third-party games in the browser (2026-12-16): the page's generic layout as a player meets it.

The test plugins Spades (4 seats, bids, blind nil decided before looking), Spite and Malice
(payoff piles with only the top face up, ordered discard piles), Euchre (a dealer's discard
nobody sees) and Nertz (real time) are registered in this process (``cardcore.register``) and
served by ``create_app(WebServer(db))`` under uvicorn; one browser context per seat and one
for a watcher. Checked, as docs/web.rst describes the client: every legal action is a button
(clicked, or reached with Tab and Enter), the table draws every zone with its count, its
face-up cards in the view's order (top first) and its hidden cards as backs, no WebSocket
frame a page received (``window.cardcore.frames``) names a card its seat may not know (each
view rebuilt from the frames equals the seat's view at that version), refusals are shown in
words with the rule ID, Resign ends the game, the result and the replay show, a reload keeps
the seat, and a 375 px wide page does not scroll sideways. Strict xfails mark what is wrong.

Deals are from fixed seeds, except the Spades game made with the lobby form (which takes no
seed): its checks (bidding, hidden hands) hold for any deal.
"""

# ruff: noqa: F811  (the fixture browser comes from test_browser)
from __future__ import annotations

import json
import os
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

import cardcore  # noqa: E402
from cardcore.session import Mirror, SessionConfig  # noqa: E402
from cardcore.session.patch import card_words  # noqa: E402
from cardcore.web import WebServer, create_app  # noqa: E402
from tests.plugins import euchre_2026_12_15 as euchre  # noqa: E402
from tests.plugins import nertz_2026_12_15 as nertz  # noqa: E402
from tests.plugins import spades_2026_12_16 as spades  # noqa: E402
from tests.plugins import spite_2026_12_16 as spite  # noqa: E402
from tests.web.test_browser import Guard, _view, browser  # noqa: E402, F401

PHONE = {"width": 375, "height": 800}
SHOWN = 16
"""The generic layout draws at most this many cards of a zone, then "+N"."""
GAMES = (spades, spite, euchre, nertz)
GUARDS: list[Guard] = []
PROBLEMS: list[str] = []
CONTEXTS: list[Any] = []


class Served:
    """``create_app(WebServer(db))`` under uvicorn on a loopback port (as the player test's)."""

    def __init__(self, db: str) -> None:
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self.db = db
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
    for module in GAMES:
        cardcore.register("cardcore.games", module.NAME, module)
    s = Served(str(tmp_path_factory.mktemp("third") / "games.db"))
    s.start()
    yield s
    s.stop()
    for module in GAMES:
        cardcore.unregister("cardcore.games", module.NAME)


@pytest.fixture(autouse=True)
def clean_pages_and_frames() -> Iterator[None]:
    """After each test: no script or console error on a page, no frame leak (the server-side
    leak check of the session kit)."""
    PROBLEMS.clear()
    yield
    while CONTEXTS:
        CONTEXTS.pop().close()
    problems = PROBLEMS[:]
    PROBLEMS.clear()
    assert problems == [], problems
    for guard in GUARDS:
        assert guard.failures == [], guard.failures[:3]


# --- helpers --------------------------------------------------------------------------------


def _page(browser: Any, url: str, **ctx: Any) -> Any:
    context = browser.new_context(**ctx)
    CONTEXTS.append(context)
    page = context.new_page()
    page.on("pageerror", lambda e: PROBLEMS.append(f"page error: {e}"))
    page.on("console", lambda m: m.type == "error" and PROBLEMS.append(f"console: {m.text}"))
    page.goto(url)
    return page


class Table:
    """One session seen by its seat pages and a watcher; every seat's view (and the public
    one) kept at every version the test saw, to check the frames the pages received."""

    def __init__(self, served: Served, session: Any, pages: list[Any], watcher: Any) -> None:
        self.served = served
        self.session = session
        self.pages = pages
        self.watcher = watcher
        self.views: dict[int | None, dict[int, dict[str, Any]]] = {
            s: {} for s in [*range(len(pages)), None]
        }
        self.typed: dict[int | None, set[str]] = {s: set() for s in self.views}
        _ready(*pages, watcher)
        self.snap()

    @property
    def all(self) -> list[Any]:
        return [*self.pages, self.watcher]

    def snap(self) -> None:
        game = self.session.game
        for s in self.views:
            view = game.view(s)
            self.views[s][view["version"]] = json.loads(json.dumps(view))

    def settle(self, before: int) -> None:
        for page in self.all:
            page.wait_for_function(
                f"() => window.cardcore.view.version > {before} || window.cardcore.view.is_over",
                timeout=10000,
            )
        self.snap()

    def click(self, seat: int, action: str) -> None:
        """Seat *seat* clicks the button of *action*; every page sees the move."""
        page = self.pages[seat]
        before = _version(page)
        self.typed[seat].update(card_words(action))
        page.locator(f'#actions button.act[data-action="{action}"]').click()
        self.settle(before)

    def key(self, seat: int, action: str) -> None:
        """Seat *seat* tabs to the button of *action* and presses Enter."""
        page = self.pages[seat]
        before = _version(page)
        self.typed[seat].update(card_words(action))
        _tab_to(page, action)
        page.keyboard.press("Enter")
        self.settle(before)

    def check(self) -> None:
        """Every page: its frames leak nothing, its table and buttons are its view's."""
        for s, page in [*enumerate(self.pages), (None, self.watcher)]:
            _check_frames(page, self.views[s], self.typed[s])
            _check_drawn(page, watching=s is None)


def _ready(*pages: Any) -> None:
    for page in pages:
        page.wait_for_function("() => window.cardcore.view !== null")


def _version(page: Any) -> int:
    v: int = page.evaluate("window.cardcore.version")
    return v


def _tab_to(page: Any, action: str) -> None:
    page.evaluate("document.activeElement && document.activeElement.blur()")
    focused = ""
    for _ in range(120):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.dataset.action || ''")
        if focused == action:
            return
    raise AssertionError(f"Tab never reached the button {action!r} (last: {focused!r})")


def _check_frames(page: Any, views: dict[int, dict[str, Any]], typed: set[str]) -> None:
    """Rebuild the page's view from every frame it received: at each version its zones are
    the seat's own; and no frame names a card the seat never saw in a view (or typed)."""
    frames = page.evaluate("window.cardcore.frames")
    known = set(typed)
    for view in views.values():
        known.update(card_words(view))
    mirror = Mirror()
    for text in frames:
        message = json.loads(text)
        named = set(card_words(message)) - known
        assert named == set(), (message["type"], named)
        mirror.feed(message)
        if message["type"] in ("view", "update") and mirror.view is not None:
            version = mirror.view["version"]
            assert version in views, f"a view at version {version} the test never saw"
            assert mirror.view["zones"] == views[version]["zones"], version


def _drawn(box: str = "#table") -> str:
    return f"""() => [...document.querySelectorAll('{box} .zone')].map(z => ({{
        name: z.dataset.zone,
        label: z.querySelector('.label').textContent,
        cards: [...z.querySelectorAll('.card')].map(c => c.dataset.card),
        backs: z.querySelectorAll('.card.back').length,
        more: (z.querySelector('.doc') || {{textContent: ''}}).textContent.trim(),
    }}))"""


def _check_zones(drawn: list[dict[str, Any]], view: dict[str, Any]) -> None:
    """The zones as drawn are the view's: names in order, counts, cards top first, backs."""
    assert [z["name"] for z in drawn] == [z["name"] for z in view["zones"]]
    for shown, zone in zip(drawn, view["zones"], strict=True):
        cards = zone["cards"][:SHOWN]
        assert shown["cards"] == [c or "" for c in cards], zone["name"]
        assert shown["backs"] == cards.count(None), zone["name"]
        assert f"({zone['count']})" in shown["label"], (shown["label"], zone)
        extra = zone["count"] - SHOWN
        assert shown["more"] == (f"+{extra}" if extra > 0 else ""), (zone["name"], shown["more"])


def _check_drawn(page: Any, watching: bool) -> None:
    view = _view(page)
    assert page.get_attribute("#table", "data-layout") == "generic"
    _check_zones(page.evaluate(_drawn()), view)
    buttons = page.eval_on_selector_all(
        "#actions button.act", "bs => bs.map(b => b.dataset.action)"
    )
    assert sorted(buttons) == sorted(view["legal"])
    resign = page.locator("#resign").count()
    assert resign == (0 if watching or view["is_over"] else 1)


def _seeded(served: Served, game: str, names: list[str], seed: int, **options: Any) -> Any:
    config = SessionConfig(limits=served.web.limits, spectator_delay=0)  # as the lobby's
    return served.web.hub.create(
        game,
        names,
        now=served.web.host.clock(),
        seed=seed,
        options=options or None,
        config=config,
    )


def _open(served: Served, browser: Any, session: Any, phone: int | None = None) -> Table:
    base = f"{served.base}/play/{session.id}"
    n = session.players
    pages = [
        _page(browser, f"{base}#seat={s}", **({"viewport": PHONE} if s == phone else {}))
        for s in range(n)
    ]
    return Table(served, session, pages, _page(browser, f"{base}#watch"))


def _fits(page: Any) -> bool:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width <= PHONE["width"]


def _resign_and_replay(table: Table, seat: int) -> dict[str, Any]:
    """*seat* resigns with two clicks; every page shows the result; the watcher's replay
    steps from 0 to 1 and draws the public view of that step."""
    page = table.pages[seat]
    before = _version(page)
    page.click("#resign")
    page.click("#resign-yes")
    table.settle(before)
    result: dict[str, Any] = _view(page)["result"]
    assert result is not None and _view(page)["is_over"]
    for p in table.all:
        p.wait_for_selector("#record")
        assert "Result" in p.inner_text("#after")
        assert _view(p)["result"] == result
        assert p.locator("#actions button.act").count() == 0
    w = table.watcher
    w.click("#replay")
    w.wait_for_selector('.replay [data-step="0"]')
    w.locator(".replay button", has_text="▶").click()
    w.wait_for_selector('.replay [data-step="1"]')
    replay = w.evaluate("window.cardcore.replay")
    assert replay["step"] == 1 and replay["view"]["version"] == 1
    assert w.get_attribute(".replay-table", "data-layout") == "generic"
    _check_zones(w.evaluate(_drawn(".replay-table")), replay["view"])
    return result


# --- Spades ---------------------------------------------------------------------------------


def _spades_from_the_lobby(served: Served, browser: Any) -> Table:
    lobby = _page(browser, served.base + "/")
    lobby.wait_for_selector(f"#game option[value={spades.NAME}]", state="attached")
    lobby.select_option("#game", spades.NAME)
    lobby.wait_for_selector('#seats .name[data-seat="3"]')
    for s, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
        lobby.fill(f'#seats .name[data-seat="{s}"]', name)
        lobby.select_option(f'#seats .who[data-seat="{s}"]', "")
    lobby.click("#start")
    lobby.wait_for_selector(".seat-link")
    links = [a.get_attribute("href") for a in lobby.locator(".seat-link").all()]
    watch = lobby.locator(".watch-link").inner_text()
    assert len(links) == 4
    sid = links[0].split("/play/")[1].split("#")[0]
    session = served.web.hub.sessions[sid]
    pages = [
        _page(browser, link, **({"viewport": PHONE} if s == 0 else {}))
        for s, link in enumerate(links)
    ]
    return Table(served, session, pages, _page(browser, watch))


def test_spades_blind_nil_is_decided_before_any_card_reaches_the_page(
    served: Served, browser: Any
) -> None:
    """Made with the lobby form, four people and a watcher. Ann (phone width) sees her 13
    cards as backs and the buttons look / blind; she clicks blind: her cards show only then.
    Bob tabs to look and presses Enter, then bids 3 by keyboard. Until a seat has looked or
    declared, no frame its page received names a card."""
    t = _spades_from_the_lobby(served, browser)
    ann = t.pages[0]
    assert _view(ann)["to_act"] == [0] and sorted(_view(ann)["legal"]) == ["blind", "look"]
    t.check()
    for page in t.all:  # nobody has looked: no card in any frame of any page
        frames = page.evaluate("window.cardcore.frames")
        assert frames and set().union(*(card_words(json.loads(f)) for f in frames)) == set()
    unseen = ann.evaluate(_drawn())
    assert next(z for z in unseen if z["name"] == "unseen.0")["backs"] == 13
    assert _fits(ann)
    t.click(0, "blind")
    assert _view(ann)["table"]["blind"][0] is True
    hand = next(z for z in _view(ann)["zones"] if z["name"] == "hand.0")
    assert hand["count"] == 13 and None not in hand["cards"]
    for page in [*t.pages[1:], t.watcher]:  # Ann's cards reached no other page
        frames = page.evaluate("window.cardcore.frames")
        assert not set(hand["cards"]) & set().union(*(card_words(json.loads(f)) for f in frames))
    t.key(1, "look")
    bob = t.pages[1]
    bids = sorted(_view(bob)["legal"])
    assert bids == sorted(["bid nil", *(f"bid {n}" for n in range(1, 14))])
    t.key(1, "bid 3")
    assert _view(t.watcher)["table"]["bids"][:2] == [0, 3]
    assert _view(t.pages[2])["to_act"] == [2]
    t.check()
    assert _fits(ann)


def test_spades_out_of_turn_bid_is_refused_in_words_with_who_is_awaited(
    served: Served, browser: Any
) -> None:
    session = _seeded(served, spades.NAME, ["Ann", "Bob", "Cat", "Dan"], 21)
    t = _open(served, browser, session)
    dan = t.pages[3]
    before = [_version(p) for p in t.all]
    dan.evaluate("window.cardcore.act('look')")
    dan.wait_for_selector("#message.illegal")
    text = dan.inner_text("#message")
    assert text.startswith("Not allowed"), text
    assert "CORE-TURN-1" in text and "Waiting for Ann" in text, text
    assert [_version(p) for p in t.all] == before
    # the fields name seats by name: a seat field, and a per-seat one seat by seat
    fields = dan.eval_on_selector("#fieldlist", "e => e.textContent")  # (a closed <details>)
    dealer = _view(dan)["table"]["dealer"]
    who = ["Ann", "Bob", "Cat", "Dan (you)"][dealer]
    assert f"dealer: {who} (seat {dealer})" in fields, fields
    assert "bids: Ann -1, Bob -1, Cat -1, Dan (you) -1" in fields, fields
    # a pile of several cards says its top is drawn first
    labels = dan.eval_on_selector_all("#table .zone .label", "ls => ls.map(l => l.textContent)")
    assert any(label.endswith("· top first") for label in labels), labels
    # the tab tells only the seat to act that it is its turn
    assert [p.title() for p in t.pages] == [
        f"● Your turn · cardcore: {spades.NAME}",
        *[f"cardcore: {spades.NAME}"] * 3,
    ]
    t.check()


def test_spades_bid_the_notation_refuses_is_shown_with_the_librarys_words(
    served: Served, browser: Any
) -> None:
    """A bid of 14 (typed through the page's act, as a stale button would send it) is
    refused as the library words it, rule ID included; nothing changes."""
    session = _seeded(served, spades.NAME, ["Ann", "Bob", "Cat", "Dan"], 24)
    t = _open(served, browser, session)
    t.click(0, "look")
    ann = t.pages[0]
    before = _version(ann)
    ann.evaluate("window.cardcore.act('bid 14')")
    ann.wait_for_selector("#message.illegal")
    text = ann.inner_text("#message")
    assert text.startswith("Cannot read — “bid 14”:"), text  # not the protocol's code
    assert "bid 0-13 or nil, not '14' (SPADES-BID-1)" in text, text
    ann.evaluate("window.cardcore.act('bid 3')")  # and the bid meant is then played
    ann.wait_for_selector("#message.ok")
    assert _version(ann) == before + 1
    t.settle(before)
    t.check()


def test_spades_reload_mid_bidding_keeps_the_seat_and_the_looked_hand(
    served: Served, browser: Any
) -> None:
    session = _seeded(served, spades.NAME, ["Ann", "Bob", "Cat", "Dan"], 22)
    t = _open(served, browser, session)
    t.click(0, "look")
    ann = t.pages[0]
    hand = _view(ann)["zones"]
    version = _version(ann)
    ann.reload()
    _ready(ann)
    assert ann.evaluate("window.cardcore.seat") == 0
    assert _version(ann) == version and _view(ann)["zones"] == hand
    assert "seat 0 (Ann)" in ann.inner_text("#title")
    t.click(0, "bid 4")
    t.check()


def test_spades_resign_ends_the_game_for_the_team_with_result_and_replay(
    served: Served, browser: Any
) -> None:
    session = _seeded(served, spades.NAME, ["Ann", "Bob", "Cat", "Dan"], 23)
    t = _open(served, browser, session)
    t.click(0, "look")
    result = _resign_and_replay(t, 2)  # Cat resigns: Bob and Dan win
    assert result["winners"] == [1, 3]
    assert "Winners: Bob, Dan" in t.pages[0].inner_text("#after")
    t.check()


# --- Spite and Malice -----------------------------------------------------------------------


def test_spite_payoff_tops_face_up_and_discard_piles_in_order(served: Served, browser: Any) -> None:
    """Ann discards 3H on her pile 0, Bob discards by keyboard, Ann discards again on pile 0:
    every page draws that pile top first (her second card on top of 3H); the payoff piles show
    their top card and backs (16 drawn, "+4"); the stock is backs only."""
    session = _seeded(served, spite.NAME, ["Ann", "Bob"], 5)
    t = _open(served, browser, session, phone=1)
    t.check()
    ann, bob = t.pages
    payoff = next(z for z in t.watcher.evaluate(_drawn()) if z["name"] == "payoff.0")
    assert payoff["cards"][0] == "2H" and payoff["backs"] == 15 and payoff["more"] == "+4"
    t.click(0, "discard 3H 0")
    second = next(a for a in _view(bob)["legal"] if a.startswith("discard ") and a.endswith(" 1"))
    t.key(1, second)
    third = next(
        a
        for a in _view(ann)["legal"]
        if a.startswith("discard ") and a.endswith(" 0") and a != "discard 3H 0"
    )
    t.click(0, third)
    order = [third.split()[1], "3H"]
    for page in t.all:
        pile = next(z for z in page.evaluate(_drawn()) if z["name"] == "discard.0.0")
        assert pile["cards"] == order, pile
    t.check()
    assert _fits(bob)


def test_spite_illegal_build_is_refused_with_its_rule(served: Served, browser: Any) -> None:
    session = _seeded(served, spite.NAME, ["Ann", "Bob"], 5)
    t = _open(served, browser, session)
    ann = t.pages[0]
    before = _version(ann)
    ann.evaluate("window.cardcore.act('play 3H 0')")  # a build pile starts with an ace
    ann.wait_for_selector("#message.illegal")
    text = ann.inner_text("#message")
    assert text.startswith("Not allowed") and "SPITE-" in text, text
    assert _version(ann) == before
    t.check()


def test_spite_resign_result_and_replay(served: Served, browser: Any) -> None:
    session = _seeded(served, spite.NAME, ["Ann", "Bob"], 5)
    t = _open(served, browser, session)
    t.click(0, "discard 3H 0")
    result = _resign_and_replay(t, 1)
    assert result["winners"] == [0]
    assert "Winner: Ann" in t.pages[1].inner_text("#after")
    t.check()


# --- Euchre ---------------------------------------------------------------------------------


def test_euchre_bidding_the_dealers_discard_and_a_trick(served: Served, browser: Any) -> None:
    """Three passes (clicks and keys), the dealer orders up, discards a card only the dealer
    sees (a back on the other pages), Ann leads and Bob follows: the trick zone lists the cards top first on every page;
    Cat reloads and keeps her seat."""
    session = _seeded(served, euchre.NAME, ["Ann", "Bob", "Cat", "Dan"], 5)
    t = _open(served, browser, session, phone=2)
    assert sorted(_view(t.pages[0])["legal"]) == ["order up", "order up alone", "pass"]
    t.click(0, "pass")
    t.key(1, "pass")
    t.click(2, "pass")
    t.click(3, "order up")
    dan = _view(t.pages[3])
    assert next(z for z in dan["zones"] if z["name"] == "hand.3")["count"] == 6
    t.click(3, "discard 0")
    t.check()
    t.click(0, "play JS")
    t.key(1, "play 9S")
    for k, page in enumerate(t.all):
        trick = next(z for z in page.evaluate(_drawn()) if z["name"] == "trick")
        assert trick["cards"] == ["9S", "JS"], trick
        buried = next(z for z in page.evaluate(_drawn()) if z["name"] == "buried")
        assert buried["cards"] == (["9H"] if k == 3 else [""]), (k, buried)  # the dealer's own
    cat = t.pages[2]
    legal = _view(cat)["legal"]
    cat.reload()
    _ready(cat)
    assert cat.evaluate("window.cardcore.seat") == 2 and _view(cat)["legal"] == legal
    t.check()
    assert _fits(cat)


# --- Nertz (real time) ----------------------------------------------------------------------


def test_nertz_real_time_clicks_keys_refusal_and_the_end(served: Served, browser: Any) -> None:
    """Bob (phone width) plays AH to a foundation by a click, Ann turns her stock by keyboard:
    only the waste's top shows; Ann's try at Bob's card is refused without saying where it
    lies; both say stuck: the hand ends with its result on every page, and the replay works."""
    session = _seeded(served, nertz.NAME, ["Ann", "Bob"], 5)
    t = _open(served, browser, session, phone=1)
    ann, bob = t.pages
    assert "Real time" in ann.inner_text("#status")
    t.check()
    t.click(1, "found AH 0")
    assert next(z for z in _view(t.watcher)["zones"] if z["name"] == "found.0")["cards"] == ["AH"]
    t.key(0, "turn")
    waste = next(z for z in t.watcher.evaluate(_drawn()) if z["name"] == "waste.0")
    assert waste["cards"][1:] == ["", ""] and waste["cards"][0] != ""
    before = _version(ann)
    t.typed[0].add("5D")
    ann.evaluate("window.cardcore.act('found 5D 1')")  # Bob's nertz top, not Ann's
    ann.wait_for_selector("#message.illegal")
    text = ann.inner_text("#message")
    assert "NERTZ-OWN-1" in text and "nertz.1" not in text, text
    assert _version(ann) == before
    t.check()
    assert _fits(bob)
    t.click(0, "stuck")
    before = _version(bob)
    bob.locator('#actions button.act[data-action="stuck"]').click()
    t.settle(before)
    for page in t.all:
        page.wait_for_selector("#record")
        assert "Result" in page.inner_text("#after")
    assert _view(ann)["result"]["reason"] == "stuck"
    for page in (t.watcher, bob):  # the replay, also at phone width
        page.click("#replay")
        page.wait_for_selector('.replay [data-step="0"]')
        replay = page.evaluate("window.cardcore.replay.view")
        _check_zones(page.evaluate(_drawn(".replay-table")), replay)
    assert _fits(bob)
    t.check()
