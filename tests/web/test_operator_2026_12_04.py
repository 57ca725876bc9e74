"""An operator and the people at the tables, following only the docs (README, web, session, cli).

The server is the ``cardcore`` command itself, ``cardcore serve --host 127.0.0.1 --port 0
--db games.db --bot-delay 0.05`` (a process of its own, stopped with Ctrl-C, SIGINT, and
started again on the same port and database). Tables are made in the lobby page by its form
(game, seats, bots, options, house rules), each person plays in a browser context of their
own by clicking the table, a spectator watches from the watch link. Every WebSocket frame
each page receives is kept (Playwright's ``framereceived``) and, once the game is over, checked
against the game rebuilt from its record: a seat's frames and the cards its page draws name
only cards that seat may know, the spectator's only public ones.
"""

# ruff: noqa: F811  (the fixture browser comes from test_browser)
from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore.session.patch import card_words
from tests.session.kit import LeakCheck
from tests.web.test_browser import browser  # noqa: F401  (skips without Chromium, as it does)

CARDCORE = Path(sys.executable).with_name("cardcore")
WAIT = 10_000  # ms: no single step of a person's play may take longer


class Operator:
    """``cardcore serve`` as the docs run it; its standard error goes to a log file."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.db = root / "games.db"
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.base = ""

    def start(self) -> None:
        self.starts += 1
        log = self.root / f"serve-{self.starts}.log"
        cmd = [str(CARDCORE), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        cmd += ["--db", str(self.db), "--bot-delay", "0.05"]
        with log.open("wb") as err:
            self.proc = subprocess.Popen(cmd, stderr=err, stdout=subprocess.DEVNULL)
        deadline = time.time() + 60  # a slow machine imports and starts slowly
        while time.time() < deadline:
            text = log.read_text()
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", text)
            if found:
                assert f"(games kept in {self.db}; Ctrl-C stops)" in text, text
                self.port = int(found.group(1))
                self.base = f"http://127.0.0.1:{self.port}"
                return
            assert self.proc.poll() is None, f"cardcore serve stopped: {text}"
            time.sleep(0.05)
        raise AssertionError("cardcore serve did not say where it listens")

    def stop(self) -> float:
        """Ctrl-C, as the docs say; how long the server took to stop."""
        assert self.proc is not None
        t = time.time()
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
            raise AssertionError("cardcore serve did not stop within 15 s of Ctrl-C") from None
        took = time.time() - t
        # the docs: "Ctrl-C stops it"; the command's exit status when interrupted is 130
        assert self.proc.returncode == 130, self.proc.returncode
        return took

    def logs(self) -> str:
        return "".join(p.read_text() for p in sorted(self.root.glob("serve-*.log")))


@pytest.fixture(scope="module")
def operator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Operator]:
    assert CARDCORE.exists(), f"no cardcore command next to {sys.executable}"
    op = Operator(tmp_path_factory.mktemp("operator"))
    op.start()
    try:
        yield op
    finally:
        if op.proc is not None and op.proc.poll() is None:
            op.stop()
    assert "Traceback" not in op.logs(), op.logs()[-3000:]


class Window:
    """One browser context and its page, with every WebSocket frame it received and sent."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context()
        self.received: list[str] = []
        self.sent: list[str] = []
        self.problems: list[str] = []
        self.requests: list[str] = []
        self.pages: list[str] = []  # the CSP of every page loaded
        self.page = self.open()

    def open(self) -> Any:
        page = self.context.new_page()
        page.on("websocket", self._socket)
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("response", self._response)
        self.page = page
        return page

    def _response(self, response: Any) -> None:
        if response.request.resource_type == "document":
            self.pages.append(response.headers.get("content-security-policy", ""))

    def _socket(self, ws: Any) -> None:
        ws.on(
            "framereceived", lambda p: self.received.append(p if isinstance(p, str) else p.decode())
        )
        ws.on("framesent", lambda p: self.sent.append(p if isinstance(p, str) else p.decode()))

    def goto(self, url: str, *, dealt: bool = True) -> None:
        """Open *url*; wait for the welcome, and for the table when *dealt*."""
        self.page.goto(url)
        self.page.wait_for_function("() => window.cardcore.game !== null", timeout=WAIT)
        if dealt:
            self.page.wait_for_function("() => window.cardcore.view !== null", timeout=WAIT)

    @property
    def view(self) -> Any:
        return self.page.evaluate("window.cardcore.view")

    @property
    def version(self) -> int:
        v: int = self.page.evaluate("window.cardcore.version")
        return v

    def message(self) -> str:
        text: str = self.page.inner_text("#message")
        return text

    def drawn(self) -> set[str]:
        cards = self.page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
        return set(cards) - {""}

    def close(self) -> None:
        self.context.close()
        assert self.problems == [], self.problems
        # the seat's token stays in the fragment and localStorage, never in a request line
        assert self.requests and not [u for u in self.requests if "token" in u], self.requests
        assert self.pages and all("default-src 'self'" in c for c in self.pages), self.pages


def _create_in_lobby(
    browser: Any,
    base: str,
    game: str,
    seats: list[tuple[str, str | None, str]],
    options: dict[str, Any] | None = None,
    rules: tuple[str, ...] = (),
) -> tuple[dict[int, str], str]:
    """Fill the lobby's form: seats (name, bot or None, bot parameters), options and house
    rules; the people's seat links by seat and the watch link."""
    page = browser.new_page()
    _fill_lobby(page, base, game, seats, options, rules)
    page.click("#start")
    page.wait_for_selector(".watch-link", timeout=WAIT)
    assert page.inner_text("#error") == ""
    links = {}
    for href in page.eval_on_selector_all(".seat-link", "els => els.map(e => e.href)"):
        found = re.search(r"#seat=(\d+)$", href)
        assert found, href
        links[int(found.group(1))] = href
    watch = page.eval_on_selector(".watch-link", "e => e.href")
    page.close()
    return links, watch


def _fill_lobby(
    page: Any,
    base: str,
    game: str,
    seats: list[tuple[str, str | None, str]],
    options: dict[str, Any] | None = None,
    rules: tuple[str, ...] = (),
) -> None:
    page.goto(base + "/")
    page.wait_for_selector(f"#game option[value={game}]", state="attached")
    page.select_option("#game", game)
    for name, value in (options or {}).items():
        box = page.locator(f'[data-option="{name}"]')
        if box.evaluate("e => e.tagName") == "SELECT":
            box.select_option(label=str(value))
        elif box.get_attribute("type") == "checkbox":
            box.set_checked(bool(value))
        else:
            box.fill(str(value))
    page.fill("#count", str(len(seats)))
    page.eval_on_selector("#count", "e => e.blur()")  # its change redraws the seats' rows
    assert page.locator("#seats .seat").count() == len(seats)
    for s, (name, agent, params) in enumerate(seats):
        page.fill(f'#seats .name[data-seat="{s}"]', name)
        page.select_option(f'#seats .who[data-seat="{s}"]', agent or "")
        page.fill(f'#seats .params[data-seat="{s}"]', params)
    for rule in rules:
        page.check(f'[data-rule="{rule}"]')


def _session_id(link: str) -> str:
    found = re.search(r"/play/([^#]+)#", link)
    assert found, link
    return found.group(1)


def _rebuilt(page: Any, base: str, sid: str) -> tuple[Any, LeakCheck]:
    """The finished game rebuilt from the record the server offers, with what each seat
    (and the spectators, ``None``) was allowed to learn at any point of it."""
    r = page.request.get(f"{base}/api/sessions/{sid}/record")
    assert r.status == 200, r.text()
    rec = r.json()
    defaults = set(cardcore.game_info(rec["game"]).default_rules)
    game = cardcore.new_game(
        rec["game"],
        list(rec["players"]),
        rules=tuple(x["name"] for x in rec["rules"] if x["name"] not in defaults),
        without=tuple(rec["without"]),
        options=dict(rec["options"]),
        seed=rec["seed"],
    )
    check = LeakCheck(len(rec["players"]))
    check.attach(game)
    for seat, text, at in rec["actions"]:
        game.act(seat, text, at=at)
    assert game.is_over and game.version == cardcore.replay(rec).version
    return game, check


def _no_leaks(window: Window, seat: int | None, game: Any, check: LeakCheck) -> None:
    """Every frame the page received, and every card it draws, names only what *seat* may know;
    the view the page rebuilt from its frames is the seat's final view exactly."""
    named: set[str] = set()
    echoed = set(card_words([json.loads(f) for f in window.sent]))
    for frame in window.received:
        message = json.loads(frame)
        if message["type"] == "error":
            named.update(set(card_words(message)) - echoed)
        elif message["type"] not in ("reveal", "record"):
            named.update(card_words(message))
    who = "the spectator" if seat is None else f"seat {seat}"
    assert named, f"{who} received no card at all"
    assert named <= check.allowed[seat], f"{who} received {named - check.allowed[seat]}"
    assert window.drawn() <= check.allowed[seat], f"{who}'s page drew a card it may not see"
    assert window.view == json.loads(json.dumps(game.view(seat))), f"{who}'s view differs"


def _settle(windows: list[Window], before: int) -> None:
    for w in windows:
        w.page.wait_for_function(
            f"() => window.cardcore.version > {before} || window.cardcore.view.is_over",
            timeout=WAIT,
        )


def _golf_click(w: Window, seat: int, turns: dict[int, int]) -> None:
    """One click of Golf by *seat*: peek or flip in the setup, knock (Golf 4) after two
    turns, draw, then replace a card or discard the drawn one."""
    legal = w.view["legal"]
    grid = f'.golf .grid[data-seat="{seat}"]'
    peeks = [a for a in legal if a.startswith(("peek ", "flip "))]
    if peeks:
        w.page.click(f'{grid} .cell[data-pos="{peeks[0].split()[1]}"]')
    elif "knock" in legal and turns[seat] >= 2:
        w.page.click(".golf button.big >> text=Knock")
    elif "draw" in legal:
        turns[seat] += 1
        w.page.click('.pile[data-pile="stock"].target')
    elif turns[seat] % 2 and any(a.startswith("replace ") for a in legal):
        pos = next(a for a in legal if a.startswith("replace ")).split()[1]
        w.page.click(f'{grid} .cell[data-pos="{pos}"]')
    else:
        w.page.click('.pile[data-pile="discard"].target')


def test_golf_from_the_lobby_bot_spectator_reconnect_and_restart(
    operator: Operator, browser: Any
) -> None:
    """Golf 4 face down (rounds 1, dealer random, house rule golf.peek-nearest), Ann and Bob
    in their own browsers and a golf-greedy bot; a spectator watches. Mid-game Ann closes
    her tab and opens her link again; then the server is stopped with Ctrl-C and started
    again on the same database: every page reconnects by itself, at the version it had,
    and the game (bot included) is played to its result."""
    links, watch = _create_in_lobby(
        browser,
        operator.base,
        "golf",
        [("Ann", None, ""), ("Bob", None, ""), ("Bot", "golf-greedy", "seed=1")],
        options={"layout": "4", "rounds": 1, "dealer": "random"},
        rules=("golf.peek-nearest",),
    )
    assert sorted(links) == [0, 1]
    sid = _session_id(links[0])
    info = browser.new_page().request.get(f"{operator.base}/api/sessions/{sid}").json()
    asked = {k: info["options"][k] for k in ("layout", "rounds", "dealer")}  # (every option)
    assert asked in (  # the form offers layout 4 both as a number and as text
        {"layout": "4", "rounds": 1, "dealer": "random"},
        {"layout": 4, "rounds": 1, "dealer": "random"},
    ), info["options"]
    assert info["rules"] == ["golf.peek-nearest"] and info["seats"][2]["bot"] == "golf-greedy"
    people = [Window(browser), Window(browser)]
    people[0].goto(links[0], dealt=False)
    # the bot holds its seat already: Ann and the bot of three
    people[0].page.wait_for_function(  # the lobby frame follows the welcome
        "() => document.querySelector('#status').innerText.includes('(2 of 3 seats taken)')",
        timeout=WAIT,
    )
    people[1].goto(links[1])
    people[0].page.wait_for_function("() => window.cardcore.view !== null", timeout=WAIT)
    spectator = Window(browser)
    spectator.goto(watch)
    assert "watching" in spectator.page.inner_text("#title")
    pages = [*people, spectator]
    turns = {0: 0, 1: 0}
    reopened = restarted = False
    at_restart = 0
    delays: list[tuple[int, int]] = []  # (a seat's version, the spectator's), before and after

    def mid_game(version: int) -> None:
        """On a person's turn (the table still): the spectator is two actions behind (a bot
        plays), cannot act, and the HTTP answers carry no card."""
        spectator.page.wait_for_function(
            f"() => window.cardcore.version === {version - 2}", timeout=WAIT
        )
        delays.append((version, spectator.version))
        text = _say(spectator, "draw")
        assert text.startswith("not-a-seat:"), text
        http = spectator.page.request
        answer = http.get(f"{operator.base}/api/sessions/{sid}")
        assert answer.status == 200 and answer.json()["phase"] == "playing"
        assert not set(card_words(answer.json())), answer.json()
        assert http.get(f"{operator.base}/api/sessions/{sid}/record").status == 409
        assert http.get(f"{operator.base}/api/sessions/{sid}/replay/1").status == 409

    pause = 0.0
    deadline = time.time() + 120  # bounds a hang; a loaded machine clicks slowly
    while time.time() < deadline:
        view = people[0].view
        if view["is_over"]:
            break
        if not reopened and view["version"] >= 6:  # Ann closes her tab and opens her link again
            before = people[0].version
            people[0].page.close()
            people[0].open()
            people[0].goto(links[0])  # the bare link: the token comes from localStorage
            assert people[0].page.evaluate("window.cardcore.seat") == 0
            assert people[0].version >= before
            assert "seat 0 (Ann)" in people[0].page.inner_text("#title")
            reopened = True
            continue
        if not restarted and view["version"] >= 12:
            before = at_restart = people[0].version
            try:
                pause = operator.stop()
            finally:
                operator.start()
            for w in pages:  # each page reconnects by itself and shows the same table
                w.page.wait_for_function(
                    "() => window.cardcore.ws && window.cardcore.ws.readyState === 1"
                    " && document.querySelector('#net').textContent.startsWith('connected')",
                    timeout=WAIT,
                )
            people[0].page.wait_for_function(
                f"() => window.cardcore.version >= {before}", timeout=WAIT
            )
            restarted = True
            continue
        seat = view["to_act"][0]
        if seat != 2 and view["version"] >= 3 and len(delays) < 1 + restarted:
            mid_game(view["version"])
            continue
        if seat == 2:  # the bot's turn
            people[0].page.wait_for_function(
                f"() => window.cardcore.version > {view['version']}"
                " || window.cardcore.view.is_over",
                timeout=WAIT,
            )
            continue
        w = people[seat]
        before = w.version
        if w.view["version"] != view["version"]:
            w.page.wait_for_function(
                f"() => window.cardcore.version >= {view['version']}", timeout=WAIT
            )
            continue
        _golf_click(w, seat, turns)
        _settle(people, before)
    assert reopened and restarted
    assert pause < 15
    assert len(delays) == 2 and all(p - w == 2 for p, w in delays), delays
    for w in pages:
        w.page.wait_for_function("() => window.cardcore.view.is_over", timeout=WAIT)
        w.page.wait_for_selector("#record", timeout=WAIT)
        assert "Result" in w.page.inner_text("#after")
    game, check = _rebuilt(people[0].page, operator.base, sid)
    seats = [a[0] for a in game.record()["actions"]]
    assert 2 in seats[:at_restart] and 2 in seats[at_restart:]  # the bot played on after it
    # the page's link downloads the record
    with people[1].page.expect_download() as download:
        people[1].page.click("#record")
    saved = json.loads(Path(download.value.path()).read_text())
    assert saved["game"] == "golf" and len(saved["actions"]) == game.version
    for s, w in enumerate(people):
        _no_leaks(w, s, game, check)
    _no_leaks(spectator, None, game, check)
    # the lobby lists the game, over, with its record
    lobby = browser.new_page()
    lobby.goto(operator.base + "/")
    lobby.wait_for_selector("#sessions li", timeout=WAIT)
    assert "golf · over · Ann, Bob, Bot" in lobby.inner_text("#sessions")
    lobby.close()
    for w in pages:
        w.close()


def _say(w: Window, action: str, seen: int | None = None) -> str:
    """Send *action* as the page sends a click's (``window.cardcore.act``), with the version
    it shows (or *seen*); the line the page shows for the answer."""
    w.page.evaluate("document.querySelector('#message').textContent = ''")
    version = w.version
    if seen is not None:
        w.page.evaluate(f"window.cardcore.version = {seen}")
    w.page.evaluate(f"window.cardcore.act({json.dumps(action)})")
    if seen is not None:
        w.page.evaluate(f"window.cardcore.version = {version}")
    w.page.wait_for_function(
        "() => document.querySelector('#message').textContent.length > 0", timeout=WAIT
    )
    return w.message()


def _tonk_click(w: Window, seat: int, turns: int) -> str:
    """One move of Tonk by clicks: draw, lay a spread, hit, discard the highest card; drop
    after a dozen turns."""
    legal = w.view["legal"]
    hand = f'.tonk .hand[data-seat="{seat}"]'
    spreads = [a for a in legal if a.startswith("spread ")]
    hits = [a for a in legal if a.startswith("hit ")]
    if "drop" in legal and turns >= 12:
        w.page.click('[data-tonk="drop"]')
        return "drop"
    if "draw" in legal:
        w.page.click('.pile[data-pile="stock"].target')
        return "draw"
    if spreads:
        for c in spreads[0].split()[1:]:
            w.page.click(f'{hand} [data-card="{c}"]')
        w.page.click('[data-tonk="spread"]')
        return "spread"
    if hits:
        _, number, c = hits[0].split()
        w.page.click(f'{hand} [data-card="{c}"]')
        w.page.click(f'.spread[data-spread="{number}"].target')
        return "hit"
    discards = [a for a in legal if a.startswith("discard ")]
    if discards:
        c = discards[0].split()[1]
        w.page.click(f'{hand} [data-card="{c}"]')
        w.page.click('.pile[data-pile="discard"].target')
        return "discard"
    w.page.locator(f'button.act[data-action="{legal[0]}"]').first.click()
    return str(legal[0])


def test_tonk_two_people_errors_shown_and_a_taken_seat_learns_nothing(
    operator: Operator, browser: Any
) -> None:
    """Tonk (one hand, stake 2, 49/50 natural switched off in the form) between two people.
    Out of turn, a word the game does not know and a stale move are each answered with one
    clear line on the page, and change nothing; a third person opening Ann's link in
    another browser is told the seat is taken and receives no card. Played to the result."""
    for _ in range(10):  # a deal can end the hand at once (a tonk on the deal): deal again
        links, _watch = _create_in_lobby(
            browser,
            operator.base,
            "tonk",
            [("Ann", None, ""), ("Bob", None, "")],
            options={"hands": 1, "stake": 2},
        )
        sid = _session_id(links[0])
        people = [Window(browser), Window(browser)]
        people[0].goto(links[0], dealt=False)
        people[1].goto(links[1])
        people[0].page.wait_for_function("() => window.cardcore.view !== null", timeout=WAIT)
        if not people[0].view["is_over"]:
            break
        for w in people:
            w.close()
    info = people[0].page.request.get(f"{operator.base}/api/sessions/{sid}").json()
    assert info["options"]["hands"] == 1 and info["options"]["stake"] == 2
    assert info["phase"] == "playing"
    # someone else opens Ann's link in their own browser: refused, and shown no card
    intruder = Window(browser)
    intruder.page.goto(links[0])
    intruder.page.wait_for_function(
        "() => document.querySelector('#message').textContent.length > 0", timeout=WAIT
    )
    assert "This seat is taken" in intruder.message(), intruder.message()
    assert intruder.view is None and not set(card_words([json.loads(f) for f in intruder.received]))
    intruder.close()
    # errors: one line each, nothing changes
    view = people[0].view
    mover = view["to_act"][0]
    idle = people[1 - mover]
    version = idle.version
    text = _say(idle, "draw")
    assert text.startswith("Not allowed — “draw”:") and text.count("CORE-TURN-1") == 1, text
    assert text.endswith(f" Waiting for {('Ann', 'Bob')[mover]}."), text  # by name, not number
    text = _say(idle, "fly 9")
    assert text.startswith("Cannot read — “fly 9”: cannot read 'fly 9'") and "TONK-NOTE-1" in text, text
    assert idle.version == version == people[mover].version
    seen = {_tonk_click(people[mover], mover, 0)}  # the mover draws ...
    _settle(people, version)
    # ... the other's click made on the table before that draw is judged as the table stands:
    # still not its turn (its choices did not change, so the click is not stale)
    text = _say(idle, "draw", seen=version)
    assert text.startswith("Not allowed — “draw”:") and text.count("CORE-TURN-1") == 1, text
    # the mover ends its turn: now the same old click reaches a seat whose choices changed
    while people[mover].view["to_act"] == [mover] and not people[mover].view["is_over"]:
        before = people[mover].version
        seen.add(_tonk_click(people[mover], mover, 0))
        _settle(people, before)
    if not people[0].view["is_over"]:
        text = _say(idle, "draw", seen=version)
        assert text.startswith("Too late — “draw”:"), text  # a turn-based game's stale move
        assert text.count("look again") == 1 and text.endswith("."), text  # said once, ended
    # Ann opens her link in a second tab of her browser: the same seat, and it follows play
    second = people[0].context.new_page()
    second.goto(links[0])
    second.wait_for_function("() => window.cardcore.view !== null", timeout=WAIT)
    assert second.evaluate("window.cardcore.seat") == 0
    people[0].page.bring_to_front()  # (a tab in the background draws no frames)
    turns = 1
    deadline = time.time() + 120  # bounds a hang; a loaded machine clicks slowly
    while time.time() < deadline:
        view = people[0].view
        if view["is_over"]:
            break
        seat = view["to_act"][0]
        w = people[seat]
        if w.version != view["version"]:
            w.page.wait_for_function(
                f"() => window.cardcore.version >= {view['version']}", timeout=WAIT
            )
            continue
        before = w.version
        seen.add(_tonk_click(w, seat, turns))
        turns += 1
        _settle(people, before)
    assert {"draw", "discard"} <= seen, seen
    for w in people:
        w.page.wait_for_selector("#record", timeout=WAIT)
        assert "scores:" in w.page.inner_text("#after .summary")
    second.wait_for_function("() => window.cardcore.view.is_over", timeout=WAIT, polling=100)
    assert second.evaluate("window.cardcore.view") == people[0].view
    game, check = _rebuilt(people[0].page, operator.base, sid)
    for s, w in enumerate(people):
        _no_leaks(w, s, game, check)
    # the replay after the game: public views only, step by step
    steps = people[1].page.request.get(f"{operator.base}/api/sessions/{sid}/replay/0").json()
    assert steps["steps"] == game.version
    for k in range(steps["steps"] + 1):
        step = people[1].page.request.get(f"{operator.base}/api/sessions/{sid}/replay/{k}")
        named = set(card_words(step.json()))
        assert named <= check.allowed[None], (k, named - check.allowed[None])
    for w in people:
        w.close()


def _speed_click(w: Window, seat: int) -> bool:
    """One Speed move of *seat* by clicks (a card, then a centre pile; else Stuck)."""
    legal = w.view["legal"]
    plays = [a for a in legal if a.startswith("play ")]
    if plays:
        _, c, centre = plays[0].split()
        w.page.click(f'.speed .hand[data-seat="{seat}"] [data-card="{c}"]')
        w.page.click(f'.speed .pile[data-pile="{centre}"].target')
        return True
    if "stuck" in legal:
        w.page.click(".speed button.big >> text=Stuck")
        return True
    return False


def test_speed_two_people_to_the_end_and_a_card_that_does_not_fit(
    operator: Operator, browser: Any
) -> None:
    """Speed with side piles of 15 (ten cards each) between two people, to its result by
    clicks; a card clicked onto a centre pile that does not take it is explained on the page
    and nothing is sent."""
    links, watch = _create_in_lobby(
        browser,
        operator.base,
        "speed",
        [("Ann", None, ""), ("Bob", None, "")],
        options={"side_pile": 15},
    )
    sid = _session_id(links[0])
    people = [Window(browser), Window(browser)]
    people[0].goto(links[0], dealt=False)
    people[1].goto(links[1])
    people[0].page.wait_for_function("() => window.cardcore.view !== null", timeout=WAIT)
    spectator = Window(browser)
    spectator.goto(watch)
    for w in people:
        assert w.page.get_attribute("#table", "data-layout") == "speed"
    explained = False
    deadline = time.time() + 90  # bounds a hang; a loaded machine clicks slowly
    turn = 0
    while time.time() < deadline:
        seat = turn % 2
        turn += 1
        w = people[seat]
        # this page has the other's last move and its own move's answer before it looks: a
        # look at a table the other's move is about to change would click a pile that no
        # longer takes the card (and the refusal below must come from the table as it is)
        w.page.wait_for_function(
            f"() => window.cardcore.version >= {people[1 - seat].version}"
            " && Object.keys(window.cardcore.pending).length === 0",
            timeout=WAIT,
        )
        view = w.view
        if view["is_over"]:
            break
        table = view["table"]
        bad = [
            (c, p)
            for c in table["seats"][seat]["hand"]
            for p, pile in table["piles"].items()
            if c and pile and f"play {c} {p}" not in view["legal"]
        ]
        if not explained and bad:
            sent = [f for f in w.sent if json.loads(f)["type"] != "ping"]  # (a ping every 3 s)
            w.page.evaluate("document.querySelector('#message').textContent = ''")
            c, p = bad[0]
            w.page.click(f'.speed .hand[data-seat="{seat}"] [data-card="{c}"]')
            w.page.click(f'.speed .pile[data-pile="{p}"]')
            text = w.message()
            assert text.startswith(f"Not allowed — play {c} {p} is not a legal play"), text
            assert [f for f in w.sent if json.loads(f)["type"] != "ping"] == sent  # nothing sent
            w.page.click("button.clear")
            explained = True
            continue
        before = w.version
        if not _speed_click(w, seat):
            continue
        w.page.wait_for_function(
            f"() => window.cardcore.version > {before}"
            " || Object.keys(window.cardcore.pending).length === 0",
            timeout=WAIT,
        )
    assert explained
    for w in [*people, spectator]:
        w.page.wait_for_function("() => window.cardcore.view.is_over", timeout=WAIT)
        w.page.wait_for_selector("#record", timeout=WAIT)
    game, check = _rebuilt(people[0].page, operator.base, sid)
    assert game.result.winners, game.result
    assert "Winner" in people[0].page.inner_text("#after .summary")
    for s, w in enumerate(people):
        _no_leaks(w, s, game, check)
    _no_leaks(spectator, None, game, check)
    for w in [*people, spectator]:
        w.close()


def _spit_click(w: Window) -> bool:
    """One Spit move of seat 0 by clicks: ready, a pile of mine onto a centre pile, a
    combine or fill, a spit, or a claim."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    legal = w.view["legal"]
    plays = [a for a in legal if a.startswith("play ")]
    try:
        if "ready" in legal:
            w.page.locator('button.act[data-action="ready"]').first.click(timeout=2000)
        elif plays:
            _, mine, centre = plays[0].split()
            w.page.click(f'.spit .stack[data-seat="0"][data-layout="{mine}"]', timeout=2000)
            w.page.click(f'.spit .pile[data-pile="{centre}"].target', timeout=2000)
        elif "spit" in legal:  # nothing to play: ask for a spit (a bot that asked waits for it)
            w.page.locator('button.act[data-action="spit"]').first.click(timeout=2000)
        elif legal:
            w.page.locator(f'button.act[data-action="{legal[0]}"]').first.click(timeout=2000)
        else:
            return False
    except PlaywrightTimeout:  # the bot changed the table between the look and the click
        w.page.evaluate("window.cardcore.selected = null")
        return False
    return True


def test_spit_against_a_bot_survives_a_restart_then_resigns(
    operator: Operator, browser: Any
) -> None:
    """Spit, a person against a spit-greedy bot, watched. After a few confirmed moves the
    server is stopped with Ctrl-C and started again: both pages reconnect by themselves,
    the bot plays on, and so does the person; then the person resigns (the notation's
    ``resign``) and the game ends with the bot the winner."""
    links, watch = _create_in_lobby(
        browser, operator.base, "spit", [("Ann", None, ""), ("Bot", "spit-greedy", "mean=0.5")]
    )
    assert sorted(links) == [0]
    sid = _session_id(links[0])
    ann = Window(browser)
    ann.goto(links[0])
    spectator = Window(browser)
    spectator.goto(watch)

    def play(moves: int) -> None:
        done = 0
        deadline = time.time() + 60  # bounds a hang; a loaded machine clicks slowly
        while done < moves and time.time() < deadline and not ann.view["is_over"]:
            confirmed = ann.page.evaluate("window.cardcore.confirmed")
            if not _spit_click(ann):
                ann.page.wait_for_timeout(100)
                continue
            ann.page.wait_for_function(
                "() => Object.keys(window.cardcore.pending).length === 0", timeout=WAIT
            )
            done += ann.page.evaluate("window.cardcore.confirmed") > confirmed
        assert done >= moves, done

    play(6)
    # meanwhile another table waits for its second person: Cy has opened his link
    waiting, _ = _create_in_lobby(
        browser, operator.base, "golf", [("Cy", None, ""), ("Di", None, "")], {"rounds": 1}
    )
    cy = Window(browser)
    cy.goto(waiting[0], dealt=False)
    # the first to open a link claims the seat: its token goes to the fragment only
    assert re.search(r"#seat=0&token=[\w-]+$", cy.page.url), cy.page.url
    # a table still waiting for people is not listed (its id stays with whoever made it)
    listed = [s["session"] for s in _http(operator.base, "/api/sessions")[1]]
    assert _session_id(waiting[0]) not in listed and sid in listed
    before = ann.version
    try:
        pause = operator.stop()
    finally:
        operator.start()
    assert pause < 15
    di = Window(browser)  # the waiting table survived too: Di's link starts the game
    di.goto(waiting[1])
    cy.page.wait_for_function("() => window.cardcore.view !== null", timeout=WAIT)
    assert cy.page.evaluate("window.cardcore.seat") == 0 and cy.view["to_act"]
    cy.close()
    di.close()
    ann.page.bring_to_front()  # (a page behind another draws no frames: clicks would wait)
    for w in (ann, spectator):
        w.page.wait_for_function(
            "() => window.cardcore.ws && window.cardcore.ws.readyState === 1"
            " && document.querySelector('#net').textContent.startsWith('connected')",
            timeout=WAIT,
        )
    ann.page.wait_for_function(f"() => window.cardcore.version >= {before}", timeout=WAIT)
    assert ann.page.get_attribute("#table", "data-layout") == "spit"
    frames = len(ann.page.evaluate("window.cardcore.frames"))
    play(4)
    bot_moved = (  # the bot took its seat again and plays on
        f"() => window.cardcore.frames.slice({frames}).map(JSON.parse)"
        ".some(m => m.type === 'update' && m.action.seat === 1)"
    )
    deadline = time.time() + 60
    while not ann.page.evaluate(bot_moved) and time.time() < deadline:
        if "spit" in ann.view["legal"] and not any(
            a.startswith("play ") for a in ann.view["legal"]
        ):
            _spit_click(ann)  # both stuck: the bot waits for this seat to ask for a spit too
        ann.page.wait_for_timeout(200)
    ann.page.wait_for_function(bot_moved, timeout=WAIT)
    # the page offers no button to resign; the notation's word, sent as a click's would be
    assert "resign" not in ann.view["legal"]
    ann.page.evaluate("window.cardcore.act('resign')")
    for w in (ann, spectator):
        w.page.wait_for_function("() => window.cardcore.view.is_over", timeout=WAIT)
        w.page.wait_for_selector("#record", timeout=WAIT)
    assert "Winner: Bot" in ann.page.inner_text("#after .summary")
    game, check = _rebuilt(ann.page, operator.base, sid)
    assert game.result.winners == (1,) and game.result.reason == "resigned"
    _no_leaks(ann, 0, game, check)
    _no_leaks(spectator, None, game, check)
    for w in (ann, spectator):
        w.close()


@pytest.mark.parametrize(
    ("seats", "options", "rules", "said"),
    [
        (
            [("Ann", None, ""), ("Bob", None, "")],
            {},
            ("golf.peek-nearest",),
            "house rule 'golf.peek-nearest' applies only with layout in (4), not 6"
            " (GOLF4-VAR-4)",
        ),
        (
            [("Ann", None, ""), ("Bob", None, "")],
            {},
            ("golf.ender-penalty-10", "golf.ender-penalty-lowest"),
            "house rules 'golf.ender-penalty-10' and 'golf.ender-penalty-lowest' cannot be"
            " combined",
        ),
        (
            [("Ann", None, ""), ("Bot", "ismcts", "iterations=999999")],
            {},
            (),
            "agent 'ismcts': iterations must be a number from 1 to 2000, not 999999",
        ),
        (
            [("Ann", None, ""), ("Bob", None, "")],
            {"dealer": "9"},
            (),
            "option 'dealer' must be a seat from 0 to 1 or 'random', not 9",
        ),
    ],
    ids=["rule-does-not-apply", "rules-conflict", "bot-params-too-big", "dealer-no-such-seat"],
)
def test_lobby_shows_the_librarys_refusal(
    operator: Operator,
    browser: Any,
    seats: list[tuple[str, str | None, str]],
    options: dict[str, Any],
    rules: tuple[str, ...],
    said: str,
) -> None:
    """A table the library refuses is not made: the lobby shows its message, and no link."""
    page = browser.new_page()
    _fill_lobby(page, operator.base, "golf", seats, options, rules)
    page.click("#start")
    page.wait_for_function(
        "() => document.querySelector('#error').textContent.length > 0", timeout=WAIT
    )
    assert said in page.inner_text("#error"), page.inner_text("#error")
    assert page.locator(".seat-link, .watch-link").count() == 0
    page.close()


def test_a_move_clicked_while_the_server_is_down_is_not_lost_silently(
    operator: Operator, browser: Any
) -> None:
    """The server restarts while Ann is to act; she clicks a card meanwhile (the header says
    "disconnected: reconnecting…"). Once the page is connected again, either her move was
    made, or the page says it was not sent; it is not left waiting for an answer."""
    links, _ = _create_in_lobby(
        browser, operator.base, "golf", [("Ann", None, ""), ("Bob", None, "")], {"rounds": 1}
    )
    people = [Window(browser), Window(browser)]
    people[0].goto(links[0], dealt=False)
    people[1].goto(links[1])
    people[0].page.wait_for_function("() => window.cardcore.view !== null", timeout=WAIT)
    seat = people[0].view["to_act"][0]
    w = people[seat]
    before = w.version
    operator.stop()
    try:
        w.page.wait_for_function(  # (a socket closing, readyState 2, has not said so yet)
            "() => window.cardcore.ws.readyState !== 1"
            " && document.querySelector('#net').textContent.includes('reconnecting')",
            timeout=WAIT,
        )
        w.page.evaluate("document.querySelector('#message').textContent = ''")
        _golf_click(w, seat, {0: 0, 1: 0})  # a flip of the setup
    finally:
        operator.start()
    w.page.wait_for_function(
        "() => window.cardcore.ws && window.cardcore.ws.readyState === 1", timeout=WAIT
    )
    w.page.wait_for_timeout(1500)  # time enough for an answer, were the move sent
    made = w.version > before
    told = w.message() != ""
    pending = w.page.evaluate("Object.keys(window.cardcore.pending).length")
    for p in people:
        p.close()
    assert made or told, "the move was neither made nor reported as not sent"
    assert pending == 0, "the page still waits for an answer to a move it never sent"


def _serve_error(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    import os

    return subprocess.Popen(
        [str(CARDCORE), "serve", *args],
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _one_line(proc: subprocess.Popen[str]) -> tuple[int, str]:
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError("cardcore serve did not stop on a bad start") from None
    assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err, err
    return proc.returncode, err.strip()


def test_serve_refuses_a_bad_start_in_one_line(operator: Operator, tmp_path: Path) -> None:
    """web.rst: a port in use and a database that cannot be opened are one line and exit
    status 2; a limit's variable that is not a number stops the command with one line."""
    runs = {
        "port": _serve_error({}, "--port", str(operator.port), "--db", str(tmp_path / "a.db")),
        "db": _serve_error({}, "--port", "0", "--db", str(tmp_path / "no" / "such" / "g.db")),
        "env": _serve_error(
            {"CARDCORE_MAX_SESSIONS": "lots"}, "--port", "0", "--db", str(tmp_path / "b.db")
        ),
    }
    status, line = _one_line(runs["port"])
    assert status == 2 and f"cannot listen on 127.0.0.1:{operator.port}" in line, line
    status, line = _one_line(runs["db"])
    assert status == 2 and "g.db" in line and "cannot use" in line, line
    status, line = _one_line(runs["env"])
    assert status != 0 and "CARDCORE_MAX_SESSIONS must be a number from 0 in digits, not 'lots'" in line
    # the running server was not disturbed
    assert operator.proc is not None and operator.proc.poll() is None


def test_a_negative_limit_variable_is_named_as_the_operator_wrote_it(tmp_path: Path) -> None:
    status, line = _one_line(
        _serve_error({"CARDCORE_MAX_SESSIONS": "-1"}, "--port", "0", "--db", str(tmp_path / "c.db"))
    )
    assert status != 0
    assert "CARDCORE_MAX_SESSIONS" in line, line


def _http(base: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """A program's request (no Origin), as the docs' tables describe them."""
    import urllib.error
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _finished_then_restarted(operator: Operator, body: dict[str, Any]) -> tuple[Any, Any]:
    """A game of bots only played to its end, as ``GET /api/sessions/{id}`` shows it before
    and after a restart."""
    status, made = _http(operator.base, "/api/sessions", body)
    assert status == 201, made
    sid = made["session"]
    deadline = time.time() + 60  # bots at 0.05 s a move, on a slow machine
    while time.time() < deadline:
        status, before = _http(operator.base, f"/api/sessions/{sid}")
        if before["phase"] == "over":
            break
        time.sleep(0.1)
    assert before["phase"] == "over", before
    try:
        operator.stop()
    finally:
        operator.start()
    status, after = _http(operator.base, f"/api/sessions/{sid}")
    assert status == 200 and after["phase"] == "over"
    assert _http(operator.base, f"/api/sessions/{sid}/record")[0] == 200  # the record stays
    return before, after


TWO_BOTS = {
    "game": "tonk",
    "seats": [{"name": "X", "agent": "random"}, {"name": "Y", "agent": "tonk-heuristic"}],
    "options": {"stake": 2},
}


def test_a_finished_games_bot_seats_stay_bots_after_a_restart(operator: Operator) -> None:
    before, after = _finished_then_restarted(operator, TWO_BOTS)
    assert [s["bot"] for s in before["seats"]] == ["random", "tonk-heuristic"]
    assert [s["bot"] for s in after["seats"]] == ["random", "tonk-heuristic"], after["seats"]


def test_a_games_options_read_the_same_after_a_restart(operator: Operator) -> None:
    """web.rst: ``options`` lists every option, the defaults filled in, so a restart (whose
    stored setup holds every option) shows the same."""
    before, after = _finished_then_restarted(operator, TWO_BOTS)
    assert before["options"]["stake"] == 2 and before["options"]["hands"] == 1
    assert after["options"] == before["options"], after["options"]
