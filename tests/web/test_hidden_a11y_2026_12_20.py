"""Hidden information in what the web server and the browser client produce (2026-12-20).

Read from docs/web.rst, docs/security.rst and docs/session.rst: an opponent's seat, a watcher and
an anonymous client must never learn a face-down or hidden card (Golf's face-down and held
cards, Tonk's hands and stock, Speed's hands, stocks and side piles) from any HTTP answer, any
WebSocket frame, the page's DOM (text and every attribute: aria-label, title, data-*), its
accessibility tree, an error message or the replay; the newest features are looked at first:
cards named in words (``role=img`` + ``aria-label``), move buttons named "move: content",
``aria-pressed``, the ``#turn`` live region, ``Session.cause`` with the answer's ``ended_by``
and the replay's ``cause``, and the lobby's name checks.

Every deal comes from a fixed seed (read before the moves below were chosen). Card codes are
looked for only as whole words, as structured JSON values, or in text with the session id and
the token cut out first. Claims that hold pass; what is wrong is a strict xfail.
"""
# ruff: noqa: F811  (the fixtures browser and server come from test_browser)

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CI") != "true":
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no /usr/bin/chromium", allow_module_level=True)
    pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")

from cardcore.session import Session, SessionConfig, TimeControl
from cardcore.web import WebServer
from tests.web.helpers import Player, serve
from tests.web.test_browser import _view, browser, no_frame_leaks, server  # noqa: F401

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [r + s for r in RANKS for s in "SHDC"]
WORDS = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king",
}  # fmt: skip
SUIT = {"S": ("♠", "spades"), "H": ("♥", "hearts"), "D": ("♦", "diamonds"), "C": ("♣", "clubs")}
CONTEXTS: list[Any] = []
NOW = [10.0]
"""The time of the sans-I/O sessions below (always forward)."""


@pytest.fixture(autouse=True)
def close_contexts() -> Iterator[None]:
    yield
    while CONTEXTS:
        CONTEXTS.pop().close()


# --- helpers --------------------------------------------------------------------------------


def _codes(data: Any) -> set[str]:
    """Every card code that is a whole word of a string (key or value) of JSON *data*."""
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            found.update(w for w in re.split(r"[\s,:;()\[\]'\"/]+", x) if w in DECK)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(data)
    return found


def _spellings(card: str) -> list[str]:
    """How a page could name *card*: its code, rank + glyph, and in words."""
    rank, suit = card[:-1], card[-1]
    return [card, rank + SUIT[suit][0], f"{WORDS[rank]} of {SUIT[suit][1]}"]


def _named(text: str, cards: set[str]) -> list[str]:
    """The cards of *cards* that *text* names as a whole word (any spelling)."""
    return sorted(
        {
            c
            for c in cards
            for i, w in enumerate(_spellings(c))  # (codes as written: '4h' is a Golf layout)
            if re.search(rf"(?<![\w♠♥♦♣]){re.escape(w)}(?![\w♠♥♦♣])", text, re.I if i == 2 else 0)
        }
    )


def _visible_to(game: Any, seat: int | None) -> set[str]:
    """The cards *seat*'s view (None: the spectators') holds anywhere."""
    return _codes(game.view(seat))


def _seeded(web: WebServer, game: str, seed: int, **options: Any) -> Session:
    """Two people dealt from *seed*, as the lobby makes a game of people (no spectator delay)."""
    return web.hub.create(
        game,
        ["Ann", "Bob"],
        now=web.host.clock(),
        seed=seed,
        options=options or None,
        config=SessionConfig(limits=web.limits, spectator_delay=0),
    )


OPEN: list[Any] = []
"""The test's WebSockets, closed when it ends (a failing test too: else the server never stops)."""


@contextmanager
def _serve(**kwargs: Any) -> Iterator[tuple[Any, WebServer, Any]]:
    with serve(**kwargs) as served:
        try:
            yield served
        finally:
            while OPEN:
                OPEN.pop().__exit__(None, None, None)


def _join(client: Any, sid: str, seat: int | None) -> tuple[Any, Player]:
    ws = client.websocket_connect("/ws").__enter__()
    OPEN.append(ws)
    player = Player(ws)
    if seat is None:
        player.send({"type": "watch", "session": sid})
    else:
        player.send({"type": "join", "session": sid, "seat": seat})
    player.until("welcome")
    return ws, player


def _act(player: Player, text: str) -> dict[str, Any]:
    """Send *text* on the player's current view; its answer (``ok`` or ``error``)."""
    player.send({"type": "act", "action": text, "seen": player.mirror.version})
    while True:
        m = player.recv()
        if m["type"] in ("ok", "error"):
            return m


def _http_probe(client: Any, sid: str) -> list[tuple[str, int, str, dict[str, str]]]:
    """What an anonymous client gets from every route that names the session, and some bad
    requests: (path, status, body, headers)."""
    paths = [
        "/api/sessions",
        f"/api/sessions/{sid}",
        f"/api/sessions/{sid}/record",
        f"/api/sessions/{sid}/replay/0",
        f"/api/sessions/{sid}/replay/3",
        f"/api/sessions/{sid}/replay/999999999999",
        f"/api/sessions/{sid}/replay/-1",
        f"/api/sessions/{sid}/replay/x",
        f"/api/sessions/{sid}/nothing",
        f"/play/{sid}",
    ]
    out = []
    for path in paths:
        r = client.get(path)
        out.append((path, r.status_code, r.text, dict(r.headers)))
    r = client.put(f"/api/sessions/{sid}")
    out.append(("PUT", r.status_code, r.text, dict(r.headers)))
    return out


# --- HTTP answers and error messages during play -------------------------------------------


@pytest.mark.parametrize(
    ("game", "seed", "options", "moves"),
    [
        # Golf, 4 cards, seed 11: both peek at 0 and 1, Ann takes the discard, Bob draws
        ("golf", 11, {"layout": "4"}, [(0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1"), (0, "take"), (0, "replace 2"), (1, "draw")]),
        # Tonk, seed 1, one hand: Bob takes and discards, Ann draws and spreads
        ("tonk", 1, {"hands": 1}, [(1, "take"), (1, "discard AD"), (0, "draw"), (0, "spread JS QS KS")]),
        # Speed, seed 5: Ann plays her 9 of diamonds
        ("speed", 5, {}, [(0, "play 9D L")]),
    ],
)  # fmt: skip
def test_http_answers_during_play_name_no_hidden_card(
    game: str, seed: int, options: dict[str, Any], moves: list[tuple[int, str]]
) -> None:
    """Mid-game, no HTTP answer (the session, the list, the record and replay refusals, bad
    steps, unknown paths, a wrong method), body or header, names a card the spectators' view
    does not show; ``ended_by`` is null and the record and replay are refused (409)."""
    with _serve() as (client, server, dog):
        session = _seeded(server, game, seed, **options)
        sid = session.id
        _, players = zip(*[_join(client, sid, s) for s in (0, 1)], strict=True)
        for p in players:
            p.until("view")
        for seat, text in moves:
            reply = _act(players[seat], text)
            assert reply["type"] == "ok", (text, reply)
            for p in players:  # every seat sees the move before the next one
                while p.mirror.version is None or p.mirror.version < reply["version"]:
                    p.recv()
        g = session.game
        public = _visible_to(g, None)
        hidden = set(DECK) - public
        assert len(hidden) >= 20  # the stock, the hands, the face-down cards
        for path, status, body, headers in _http_probe(client, sid):
            words = body.replace(sid, " ")
            head = " ".join(f"{k}: {v}" for k, v in headers.items()).replace(sid, " ")
            assert _named(words, hidden) == [], (path, status)
            assert _named(head, hidden) == [], (path, head)
        described = client.get(f"/api/sessions/{sid}").json()
        assert described["phase"] == "playing" and described["ended_by"] is None
        assert client.get(f"/api/sessions/{sid}/record").status_code == 409
        replay = client.get(f"/api/sessions/{sid}/replay/1")
        assert replay.status_code == 409 and "cause" not in replay.json()
        assert dog.frames > 0


def _refusals(session: Session, conn: str, texts: list[str], card_of: dict[str, str]) -> set[str]:
    """The refusals of *texts* (each naming the card ``card_of[text]``), with that card's code
    replaced by X: one text per kind of refusal whatever the card's hidden place."""
    kinds = set()
    for text in texts:
        NOW[0] += 0.2  # (under the rate limit)
        now = NOW[0]
        v = session.game.version
        out = session.handle(conn, json.dumps({"type": "act", "action": text, "seen": v}), now)
        mine = [o.message for o in out if o.conn == conn]
        assert len(mine) == 1 and mine[0]["type"] == "error", (text, mine)
        assert session.game.version == v
        card = card_of[text]
        kinds.add(
            f"{mine[0]['code']} {mine[0].get('rule')} "
            + re.sub(rf"\b{card}\b", "X", mine[0]["message"])
        )
    return kinds


def test_tonk_refusals_do_not_tell_where_a_card_not_held_lies() -> None:
    """Bob (seat 1, seed 1) names each card he does not hold, in a discard, a hit and a spread:
    whether it lies in the stock, the discard pile or Ann's hand, the refusal is the same."""
    session = Session.create("tonk", ["Ann", "Bob"], now=0.0, seed=1, options={"hands": 1})
    session.handle("a", '{"type": "join", "seat": 0}', 1.0)
    session.handle("b", '{"type": "join", "seat": 1}', 1.0)
    session.handle("b", '{"type": "act", "action": "draw", "seen": 0}', 2.0)
    mine = session.game.view(1)["table"]["hand"]
    annes = session.game.view(0)["table"]["hand"]
    others = [c for c in DECK if c not in mine]
    assert set(annes) <= set(others) and len(others) == 46
    discards = {f"discard {c}": c for c in others}
    assert _refusals(session, "b", list(discards), discards) == {
        "illegal TONK-TURN-3 seat 1 does not hold 'X': 'discard X' rejected (TONK-TURN-3)"
    }
    hits = {f"hit 1 {c}": c for c in others}
    assert len(_refusals(session, "b", list(hits), hits)) == 1
    # Ann, out of turn, names her own and Bob's cards alike
    out_of_turn = {f"discard {c}": c for c in DECK}
    assert len(_refusals(session, "a", list(out_of_turn), out_of_turn)) == 1


def test_speed_refusals_do_not_tell_where_a_card_not_held_lies() -> None:
    """Ann (seed 5) plays each card she does not hold onto L and R: Bob's hand, either stock,
    either side pile or a centre pile, the refusal is the same."""
    session = Session.create("speed", ["Ann", "Bob"], now=0.0, seed=5)
    session.handle("a", '{"type": "join", "seat": 0}', 1.0)
    session.handle("b", '{"type": "join", "seat": 1}', 1.0)
    mine = [c for c in session.game.view(0)["table"]["seats"][0]["hand"] if c]
    assert sorted(mine) == sorted(["7D", "9D", "QS", "QH", "5D"])
    plays = {f"play {c} {p}": c for c in DECK if c not in mine for p in "LR"}
    assert _refusals(session, "a", list(plays), plays) == {
        "illegal SPEED-PLAY-1 X is not in seat 0's hand (SPEED-PLAY-1)"
    }


# --- causes: not forged, not another session's -----------------------------------------------


def test_a_client_cannot_forge_a_cause_nor_act_as_the_host() -> None:
    """An ``act`` carrying a ``cause``, ``at`` or ``played_for``, or naming seat -1 (the host's,
    as ``ended_by`` shows the clock and the host) or the other seat, is refused and changes
    nothing; a seat's own resign is ``player`` everywhere: to both seats, to a watcher, in the
    replay and with no ``ended_by``."""
    with _serve() as (client, server, _dog):
        session = _seeded(server, "golf", 11, layout="4")
        sid = session.id
        (_, ann), (_, bob), (_, watcher) = (_join(client, sid, s) for s in (0, 1, None))
        for p in (ann, bob, watcher):
            p.until("view")
        forged = [
            ({"cause": "timeout"}, "bad-message"),
            ({"at": 5.0}, "bad-message"),
            ({"played_for": "timeout"}, "bad-message"),
            ({"seat": -1}, None),
            ({"seat": 1}, "not-your-seat"),
        ]
        for extra, code in forged:
            ann.send({"type": "act", "action": "resign", "seen": 0, **extra})
            reply = ann.until("error")
            assert code is None or reply["code"] == code, (extra, reply)
            assert session.game.version == 0 and session.phase == "playing"
        assert _act(ann, "resign")["type"] == "ok"
        for p in (ann, bob, watcher):
            told = [m for m in p.received if m["type"] == "update"]
            update = told[-1] if told else p.until("update")  # (Ann's came with her ok)
            assert update["action"] == {**update["action"], "seat": 0, "text": "resign"}
            assert update["action"]["cause"] == "player", update["action"]
        assert session.cause(1) == "player"
        described = client.get(f"/api/sessions/{sid}").json()
        assert described["phase"] == "over" and described["ended_by"] is None
        assert client.get(f"/api/sessions/{sid}/replay/1").json()["cause"] == "player"


def test_a_connection_reads_no_other_sessions_causes_or_record() -> None:
    """Ann's connection in one game asks for another game's record, history and a resync and
    acts in it by naming its id: each is refused ``no-session`` with only the ids in it; over
    HTTP the other game, still being played after a timeout, shows no cause (replay 409) and no
    ``ended_by``."""
    clock = [1_000.0]
    with _serve(clock=lambda: clock[0]) as (client, server, _dog):
        one = _seeded(server, "golf", 11, layout="4")
        other = server.hub.create(
            "golf",
            ["Cy", "Di"],
            now=clock[0],
            seed=12,
            options={"layout": "4"},
            config=SessionConfig(
                limits=server.limits, spectator_delay=0, time=TimeControl(turn=30)
            ),
        )
        (_, ann), _ = (_join(client, one.id, s) for s in (0, 1))
        (_, cy), _ = (_join(client, other.id, s) for s in (0, 1))
        ann.until("view")
        cy.until("view")
        clock[0] += 31  # Cy lets her clock run out: a timeout in the other game
        client.portal.call(server.host.wake)
        assert cy.until("update")["action"]["cause"] == "timeout"
        assert other.cause(1) == "timeout"
        for kind in ({"type": "record"}, {"type": "history"}, {"type": "resync", "last": 0}):
            ann.send({**kind, "session": other.id})
            reply = ann.until("error")
            assert reply["code"] == "no-session"
            assert "timeout" not in reply["message"] and "cause" not in reply
        ann.send({"type": "act", "action": "flip 0", "seen": 1, "session": other.id})
        assert ann.until("error")["code"] == "no-session" and other.game.version >= 1
        described = client.get(f"/api/sessions/{other.id}").json()
        assert described["ended_by"] is None and "timeout" not in json.dumps(described)
        assert client.get(f"/api/sessions/{other.id}/replay/1").status_code == 409


# --- the lobby's names ---------------------------------------------------------------------


def test_a_name_that_reads_as_another_seats_own_mark_is_refused() -> None:
    """docs/web.rst: a name that shows "as another seat's" is refused. The page marks the
    reader's own seat by adding " (you)" to its name (layouts.js ``name``); a seat named
    "Bob (you)" next to Bob shows, on Bob's page, exactly as Bob's own label (and the status
    line's "To act: Bob (you)." while it is the other seat's turn)."""
    with _serve() as (client, _server, _dog):
        r = client.post(
            "/api/sessions",
            json={"game": "golf", "seats": [{"name": "Bob (you)"}, {"name": "Bob"}]},
        )
        assert r.status_code == 400, r.text
        assert "must not end with '(you)': the page adds it itself" in r.json()["error"]
        for name in ("Ann (time ran out)", "Ann(TIME RAN OUT)", "Bob （you）", "Bob (yоu)"):
            r = client.post("/api/sessions", json={"game": "golf", "seats": [{"name": name}, {}]})
            assert r.status_code == 400 and "the page adds it itself" in r.json()["error"], name
        for name in ("Bob (yours)", "You", "(you) Bob"):  # no mark at the end: kept
            r = client.post("/api/sessions", json={"game": "golf", "seats": [{"name": name}, {}]})
            assert r.status_code == 201, (name, r.text)


def test_lobby_name_refusals_echo_only_what_was_sent() -> None:
    """A refused name's message quotes the request, never a seat's token or another game's."""
    with _serve() as (client, _server, _dog):
        r = client.post(
            "/api/sessions", json={"game": "golf", "seats": [{"name": "Ann"}, {"name": "аnn"}]}
        )
        assert r.status_code == 400
        assert r.json() == {"error": "seat 1's 'name' 'аnn' is another seat's name"}


# --- the browser: DOM, attributes, accessibility tree ---------------------------------------


def _page(browser: Any, url: str) -> Any:
    context = browser.new_context(viewport={"width": 360, "height": 640})
    CONTEXTS.append(context)
    page = context.new_page()
    page.goto(url)
    return page


def _pages(browser: Any, base: str, session: Session) -> list[Any]:
    """Ann's, Bob's and the watcher's pages, each with its first view."""
    url = f"{base}/play/{session.id}"
    pages = [
        _page(browser, f"{url}#seat=0"),
        _page(browser, f"{url}#seat=1"),
        _page(browser, f"{url}#watch"),
    ]
    for page in pages:
        page.wait_for_function("() => window.cardcore.view !== null")
    return pages


def _everything(page: Any, sid: str) -> str:
    """All a page shows or says: its text, every attribute of every element (aria-label, title,
    data-*, values; not href), the tab's title and the whole accessibility tree, with the
    session id and the seat's token cut out."""
    text: str = page.evaluate(
        """() => {
          const parts = [document.title, document.body.innerText, document.body.textContent];
          for (const e of document.querySelectorAll('*')) {
            for (const a of e.attributes) if (a.name !== 'href') parts.push(a.name + '=' + a.value);
            if ('value' in e && typeof e.value === 'string') parts.push(e.value);
          }
          return parts.join('\\n');
        }"""
    )
    text += "\n" + page.locator("body").aria_snapshot()
    token = page.evaluate("window.cardcore.token") or ""
    for secret in (sid, token, page.url):
        if secret:
            text = text.replace(secret, " ")
    return text


def _act_on(page: Any, text: str, pages: list[Any]) -> None:
    before = page.evaluate("window.cardcore.version")
    assert text in _view(page)["legal"], (text, _view(page)["legal"])
    page.evaluate(f"window.cardcore.act({json.dumps(text)})")
    for p in pages:
        p.wait_for_function(f"() => window.cardcore.version > {before}", timeout=10000)


def _check_pages(session: Session, pages: list[Any], seats: list[int | None]) -> None:
    """Each page shows and says no card its seat's view does not hold, and shows some."""
    for page, seat in zip(pages, seats, strict=True):
        allowed = _visible_to(session.game, seat)
        assert _codes(_view(page)) <= allowed
        hidden = set(DECK) - allowed
        assert len(hidden) >= 10, (seat, len(hidden))
        everything = _everything(page, session.id)
        assert _named(everything, hidden) == [], (seat, _named(everything, hidden))
        assert _named(everything, allowed), seat  # (the check can see a card)


def test_golf_face_down_peeked_and_held_cards_reach_no_other_page(
    server: tuple[str, WebServer], browser: Any
) -> None:
    """Four-card Golf from seed 11: Ann and Bob peek at two cards each, Ann takes and
    replaces, Bob draws: neither the other seat's page nor the watcher's DOM, attributes or
    accessibility tree name a peeked card or the card Bob holds; face-down cards are "a
    face-down card" (own ones included) and Bob's move buttons name what they show."""
    base, web = server
    session = _seeded(web, "golf", 11, layout="4")
    pages = _pages(browser, base, session)
    ann, bob, _ = pages
    for page, move in [(ann, "peek 0"), (ann, "peek 1"), (bob, "peek 0"), (bob, "peek 1"), (ann, "take"), (ann, "replace 2"), (bob, "draw")]:  # fmt: skip
        _act_on(page, move, pages)
    assert session.game.view(1)["table"]["held"]["card"] is not None
    _check_pages(session, pages, [0, 1, None])
    tree = bob.locator("#table").aria_snapshot()
    assert tree.count("a face-down card") >= 4, tree  # Ann's 3 unseen + Bob's own 2 + stock
    labels = bob.evaluate(
        "[...document.querySelectorAll('#table [data-target]')].map(e => e.getAttribute('aria-label'))"
    )
    assert labels and all(":" in x for x in labels), labels


def test_tonk_hands_and_stock_reach_no_other_page_and_a_pick_stays_local(
    server: tuple[str, WebServer], browser: Any
) -> None:
    """Tonk from seed 1 (one hand), Bob takes and discards, Ann draws and spreads: no other
    page names a card of a hand or of the stock; Ann's picked card (``aria-pressed``) is
    told to nobody else (no frame, no change on the other pages)."""
    base, web = server
    session = _seeded(web, "tonk", 1, hands=1)
    pages = _pages(browser, base, session)
    ann, bob, watcher = pages
    for page, move in [(bob, "take"), (bob, "discard AD"), (ann, "draw"), (ann, "spread JS QS KS")]:
        _act_on(page, move, pages)
    # every frame but the answers to a page's own pings (each page pings every 3 s)
    told = "window.cardcore.frames.filter((f) => JSON.parse(f).type !== 'pong')"
    frames = [p.evaluate(told) for p in (bob, watcher)]
    pick = _view(ann)["table"]["hand"][0]
    ann.locator(f'#table .hand [data-card="{pick}"]').click()
    assert ann.get_attribute(f'#table .hand [data-card="{pick}"]', "aria-pressed") == "true"
    ann.wait_for_timeout(200)
    assert [p.evaluate(told) for p in (bob, watcher)] == frames
    _check_pages(session, pages, [0, 1, None])
    turns = [p.inner_text("#turn") for p in pages]  # Ann is to discard
    assert turns == ["Your turn.", "", "To act: Ann."], turns


def test_speed_hands_stocks_and_side_piles_reach_no_other_page(
    server: tuple[str, WebServer], browser: Any
) -> None:
    """Speed from seed 5 (real time): Ann plays her 9 of diamonds and says stuck; neither
    Bob's page nor the watcher's names a card of Ann's hand, a stock or a side pile, and the
    live region ``#turn`` says nothing in real time."""
    base, web = server
    session = _seeded(web, "speed", 5)
    pages = _pages(browser, base, session)
    ann = pages[0]
    _act_on(ann, "play 9D L", pages)
    _act_on(ann, "stuck", pages)
    _check_pages(session, pages, [0, 1, None])
    assert all(p.inner_text("#turn") == "" for p in pages)
