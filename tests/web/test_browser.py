"""The browser client in a real browser: the OS Chromium driven by Playwright (never downloaded).

Skipped when Playwright or /usr/bin/chromium is missing, except under ``CI=true``,
where a missing browser fails the run (``.ci/browser.sh`` installs it).
"""

from __future__ import annotations

import json
import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--headless=new",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(
    os.environ.get("CARDCORE_SCREENSHOTS") or Path(tempfile.gettempdir()) / "cardcore-screenshots"
)
"""Where the pages' screenshots go (the docs' are made with CARDCORE_SCREENSHOTS=docs/_static/screenshots)."""
SHOTS.mkdir(parents=True, exist_ok=True)

if os.environ.get("CI") == "true":
    assert Path(CHROMIUM).exists(), "CI=true: the OS chromium is missing (run .ci/browser.sh)"
    from playwright.sync_api import sync_playwright
else:
    if not Path(CHROMIUM).exists():
        pytest.skip("no /usr/bin/chromium", allow_module_level=True)
    sync_api = pytest.importorskip("playwright.sync_api")
    sync_playwright = sync_api.sync_playwright
uvicorn = pytest.importorskip("uvicorn")

from cardcore import STALE_WINDOW  # noqa: E402
from cardcore.session import Outbound  # noqa: E402
from cardcore.web import WebServer, create_app  # noqa: E402
from tests.web.helpers import Watchdog  # noqa: E402


class Guard(Watchdog):
    """The session kit's leak check on every frame the server sends, failures kept for the test
    (an assertion raised in the server's thread would only be logged)."""

    def __init__(self, server: WebServer) -> None:
        super().__init__(server)
        self.failures: list[str] = []

    def observe(self, out: Outbound) -> None:
        try:
            super().observe(out)
        except AssertionError as e:
            self.failures.append(f"{out.conn}: {e}")


GUARDS: list[Guard] = []


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, WebServer]]:
    web = WebServer(str(tmp_path_factory.mktemp("web") / "games.db"), bot_delay=0.05)
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
def no_frame_leaks() -> Iterator[None]:
    """After each test: no frame the server sent showed a connection a card it may not see."""
    yield
    for guard in GUARDS:
        assert guard.failures == [], guard.failures[:3]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _create(
    page: Any, base: str, game: str, seats: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    body = json.dumps({"game": game, "seats": seats, **extra})
    r = page.request.post(
        base + "/api/sessions", data=body, headers={"Content-Type": "application/json"}
    )
    assert r.status == 201, r.text()
    data: dict[str, Any] = r.json()
    return data


def _view(page: Any) -> Any:
    return page.evaluate("window.cardcore.view")


def _view_and_version(page: Any) -> tuple[Any, int]:
    """The page's view and the version it is of, read together."""
    view, version = page.evaluate("[window.cardcore.view, window.cardcore.version]")
    return view, version


def _cards_in_frames(page: Any) -> set[str]:
    frames = page.evaluate("window.cardcore.frames")
    from cardcore.session.patch import card_words

    out: set[str] = set()
    for f in frames:
        m = json.loads(f)
        if m["type"] in ("view", "update"):
            out.update(card_words(m))
    return out


def test_lobby_page_creates_a_game(server: tuple[str, WebServer], browser: Any) -> None:
    base, _ = server
    page = browser.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#game option[value=golf]", state="attached")
    page.select_option("#game", "golf")
    page.click("#start")
    page.wait_for_selector(".seat-link")
    page.screenshot(path=str(SHOTS / "lobby.png"), full_page=True)
    page.close()


def test_lobby_shows_default_rules_on_and_switches_them_off(
    server: tuple[str, WebServer], browser: Any
) -> None:
    base, web = server
    page = browser.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#game option[value=tonk]", state="attached")
    page.select_option("#game", "tonk")
    natural = page.locator('[data-rule="tonk.natural-49-50"]')
    assert natural.is_checked()  # on by default (TONK-49-1), so the box shows it on
    assert not page.locator('[data-rule="tonk.no-upcard"]').is_checked()
    natural.uncheck()
    page.click("#start")
    page.wait_for_selector(".seat-link")
    made = [s for s in web.hub.sessions.values() if s.setup.game == "tonk"]
    assert made and made[-1].setup.without == ("tonk.natural-49-50",)
    page.close()


def test_lobby_seat_box_follows_the_max_players_option(
    server: tuple[str, WebServer], browser: Any
) -> None:
    """Tonk declares 2 to 4 seats but allows 4 only when its max_players option is raised."""
    base, web = server
    page = browser.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#game option[value=tonk]", state="attached")
    page.select_option("#game", "tonk")
    count = page.locator("#count")
    assert (count.get_attribute("min"), count.get_attribute("max")) == ("2", "3")
    count.fill("4")
    count.dispatch_event("change")
    assert count.input_value() == "3"  # the default max_players (3) refuses a fourth seat
    assert page.locator("#seats .seat").count() == 3
    page.fill('[data-option="max_players"]', "4")
    assert count.get_attribute("max") == "4"
    count.fill("4")
    count.dispatch_event("change")
    assert page.locator("#seats .seat").count() == 4
    page.click("#start")
    page.wait_for_selector(".seat-link")
    made = [s for s in web.hub.sessions.values() if s.setup.game == "tonk"]
    assert len(made[-1].setup.players) == 4 and made[-1].setup.options["max_players"] == 4
    page.fill('[data-option="max_players"]', "2")  # lowered: the seats follow at once
    assert (count.get_attribute("max"), count.input_value()) == ("2", "2")
    assert page.locator("#seats .seat").count() == 2
    page.close()


def test_full_golf_game_against_a_bot(server: tuple[str, WebServer], browser: Any) -> None:
    base, web = server
    ctx = browser.new_context()
    page = ctx.new_page()
    made = _create(
        page,
        base,
        "golf",
        [{"name": "You"}, {"name": "Bot", "agent": "golf-greedy"}],
        options={"rounds": 1},
    )
    sid = made["session"]
    page.goto(base + made["seats"][0]["link"])
    spec = browser.new_context().new_page()
    spec.goto(base + made["watch"])
    page.wait_for_function("() => window.cardcore.view !== null")
    deadline = time.time() + 180  # bounds a hang; a loaded machine clicks slowly
    while time.time() < deadline:
        view = _view(page)
        if view["is_over"]:
            break
        if 0 in view["to_act"] and view["legal"]:
            before = page.evaluate("window.cardcore.version")
            page.locator(f'button.act[data-action="{view["legal"][-1]}"]').first.click()
            page.wait_for_function(
                f"() => window.cardcore.version > {before} || window.cardcore.view.is_over",
                timeout=10000,
            )
        else:
            page.wait_for_timeout(50)
    assert _view(page)["is_over"]
    page.wait_for_selector("#record")
    assert "Result" in page.inner_text("#after")
    # the replay steps through the public views, drawn with Golf's layout
    page.click("#replay")
    page.wait_for_selector('.replay [data-step="0"]')
    page.click(".replay button >> text=▶")
    page.wait_for_selector('.replay [data-step="1"]')
    assert page.get_attribute(".replay-table", "data-layout") == "golf"
    assert page.locator(".replay-table .grid .cell").count() == 12
    # the spectator never received or drew a card it may not see
    game = web.hub.sessions[sid].game
    assert game is not None
    spec.wait_for_function(
        "() => window.cardcore.view && window.cardcore.view.is_over", timeout=15000
    )
    # ... checked on the server for every frame (no_frame_leaks), and here: its page drew
    # only cards its frames carried
    drawn = set(spec.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    assert drawn - {""} <= _cards_in_frames(spec)
    assert GUARDS[-1].checks[sid].checked > 0
    ctx.close()


def test_spit_real_time_moves_against_a_bot(server: tuple[str, WebServer], browser: Any) -> None:
    base, _ = server
    page = browser.new_page()
    made = _create(
        page,
        base,
        "spit",
        [{"name": "You"}, {"name": "Bot", "agent": "spit-greedy", "params": {"mean": 0.6}}],
    )
    page.goto(base + made["seats"][0]["link"])
    page.wait_for_function("() => window.cardcore.view !== null")
    snaps: list[tuple[int, list[str]]] = []  # (version, legal) of the views acted on
    moves = stale = 0
    deadline = time.time() + 180  # bounds a hang; a loaded machine clicks slowly

    def stale_pick() -> tuple[int, str] | None:
        """An action legal in a recent view (inside the stale window) and illegal now."""
        now, now_version = _view_and_version(page)
        return next(
            (
                (version, action)
                for version, legal in reversed(snaps)
                if now_version - version < STALE_WINDOW
                for action in legal
                if action.startswith(("play", "combine")) and action not in now["legal"]
            ),
            None,
        )

    # at least 20 moves, and on until a recent view holds a move the game has overtaken
    # (a play can be legal again at once: the pile's next card fits the same centre pile)
    while time.time() < deadline and (moves < 20 or stale_pick() is None):
        # the view and its version in one read (a bot's move may arrive between two reads)
        view, version = _view_and_version(page)
        if view["is_over"]:
            break
        legal = view["legal"]
        snaps.append((version, legal))
        plays = [a for a in legal if a.startswith("play ")]
        before = page.evaluate("window.cardcore.confirmed")
        try:  # the bot may play first: the card then fits that pile no longer, or the
            # button (a spit, a claim) is gone
            if plays:
                _, pile, centre = plays[0].split()
                page.click(f'.stack[data-seat="0"][data-layout="{pile}"]', timeout=5000)
                page.locator(f'.pile[data-pile="{centre}"].target').click(timeout=5000)
            elif legal:
                page.locator(f'button.act[data-action="{legal[0]}"]').first.click(timeout=5000)
        except Exception as exc:  # playwright's TimeoutError: look at the table again
            if "Timeout" not in type(exc).__name__:
                raise
            page.evaluate("window.cardcore.selected = null")
            continue
        if not legal:
            page.wait_for_timeout(100)
            continue
        # a move counts once the server confirmed it (the bot may have made it stale)
        page.wait_for_function(
            "() => Object.keys(window.cardcore.pending).length === 0", timeout=10000
        )
        if page.evaluate("window.cardcore.confirmed") > before:
            moves += 1
    # every line the page says from here on (the bot's moves say "Bot: ..." too, and may come
    # before or after the answer to the stale move: the line naming the move is its answer)
    page.evaluate(
        "() => { const m = document.querySelector('#message'); window.__said = [];"
        " new MutationObserver(() => window.__said.push(m.textContent))"
        ".observe(m, { childList: true, characterData: true, subtree: true }); }"
    )
    text = ""
    for _ in range(5):  # the bot's move between the pick and the send can make it legal again
        # one stale move: an action legal in a recent view (inside the stale window), not now
        picked = stale_pick()
        assert picked is not None, "no recent view held an action that is illegal now"
        old_version, old_action = picked
        page.evaluate("window.__said = []")
        page.evaluate(
            f"window.cardcore.version = {old_version}; window.cardcore.act({json.dumps(old_action)})"
        )
        page.wait_for_function(
            "() => Object.keys(window.cardcore.pending).length === 0", timeout=10000
        )
        said: list[str] = page.evaluate("window.__said")
        quoted = f"“{old_action}”"
        text = next((t for t in said if quoted in t), " | ".join(said))
        if "Too late" in text:
            break
    stale = int("Too late" in text)
    assert stale == 1, text
    assert moves >= 20
    assert stale == 1
    page.close()


def test_speed_page_says_when_the_side_cards_turn(
    server: tuple[str, WebServer], browser: Any
) -> None:
    """A deal that leaves nobody a play turns the side cards at once: both pages say so."""
    import cardcore
    from cardcore import Event

    base, web = server
    for seed in range(1000):
        heard: list[Event] = []
        cardcore.new_game("speed", 2, seed=seed, subscribers=[(Event, heard.append)])
        if any(e.slug == "card-spat" for e in heard):
            break
    spat = {e.fields()["pile"]: str(e.fields()["card"]) for e in heard if e.slug == "card-spat"}
    session = web.hub.create("speed", ["Ann", "Bob"], now=web.host.clock(), seed=seed)
    pages = [browser.new_page() for _ in range(2)]
    for s, page in enumerate(pages):
        page.goto(f"{base}/play/{session.id}#seat={s}")
    line = f"Nobody can play: the side cards turn (L: {spat['L']}, R: {spat['R']})"
    for page in pages:
        page.wait_for_function("() => window.cardcore.view !== null")
        page.wait_for_selector("#notes .note")
        assert page.inner_text("#notes") == line
    for page in pages:
        page.close()


def test_reopen_with_token_resumes_and_other_seat_sees_no_hidden_card(
    server: tuple[str, WebServer], browser: Any
) -> None:
    base, web = server
    ctx = browser.new_context()
    page = ctx.new_page()
    for _ in range(50):  # a deal that ends the game at once (a Tonk natural) shows every hand
        made = _create(page, base, "tonk", [{"name": "You"}, {"name": "Other"}])
        sid = made["session"]
        made_session = web.hub.sessions[sid]
        assert made_session.game is None  # dealt once both seats are claimed, from this seed
        assert made_session.seed is not None
        if not made_session.setup.build(made_session.seed).is_over:
            break
    else:
        raise AssertionError("50 deals in a row ended at once")
    page.goto(base + made["seats"][0]["link"])
    page.wait_for_function("() => window.cardcore.token !== null")
    url = page.url
    assert "token=" in url
    other_ctx = browser.new_context()
    other = other_ctx.new_page()
    other.goto(base + made["seats"][1]["link"])
    page.wait_for_function("() => window.cardcore.view !== null")
    other.wait_for_function("() => window.cardcore.view !== null")
    version = page.evaluate("window.cardcore.version")
    page.close()
    again = ctx.new_page()
    again.goto(url)
    again.wait_for_function("() => window.cardcore.view !== null")
    assert again.evaluate("window.cardcore.version") == version
    assert again.evaluate("window.cardcore.seat") == 0
    game = web.hub.sessions[sid].game
    assert game is not None
    mine = set(game.view(0)["table"]["hand"])
    seen_by_other = _cards_in_frames(other)
    dom_other = set(
        other.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
    )
    assert not (mine & seen_by_other), "seat 1 received seat 0's hand"
    assert not (mine & dom_other), "seat 1's page drew seat 0's hand"
    ctx.close()
    other_ctx.close()


def test_lobby_takes_golfs_dealer_as_a_seat_or_random(
    server: tuple[str, WebServer], browser: Any
) -> None:
    """Golf's ``dealer`` declares ``"random"`` or 0 to 63: a text box, read as a number or text."""
    base, web = server
    for typed, wanted in (("1", 1), ("random", "random")):
        page = browser.new_page()
        page.goto(base + "/")
        page.wait_for_selector("#game option[value=golf]", state="attached")
        page.select_option("#game", "golf")
        page.fill('[data-option="dealer"]', typed)
        page.click("#start")
        page.wait_for_selector(".seat-link")
        made = [s for s in web.hub.sessions.values() if s.setup.game == "golf"]
        assert made and dict(made[-1].setup.options).get("dealer") == wanted
        page.close()


def test_lobby_keeps_typed_names_when_the_seat_count_changes(
    server: tuple[str, WebServer], browser: Any
) -> None:
    base, web = server
    page = browser.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#game option[value=golf]", state="attached")
    page.select_option("#game", "golf")
    page.fill('#seats .name[data-seat="0"]', "Ada")
    page.fill('#seats .name[data-seat="1"]', "Brian")
    page.select_option('#seats .who[data-seat="1"]', "")  # a person, not the default bot
    page.fill("#count", "3")
    page.locator("#count").dispatch_event("change")
    assert page.locator("#seats .seat").count() == 3
    assert page.input_value('#seats .name[data-seat="0"]') == "Ada"
    assert page.input_value('#seats .name[data-seat="1"]') == "Brian"
    assert page.input_value('#seats .who[data-seat="1"]') == ""
    assert page.input_value('#seats .name[data-seat="2"]') == "Player 3"
    page.click("#start")
    page.wait_for_selector(".seat-link")
    made = [s for s in web.hub.sessions.values() if s.setup.game == "golf"]
    assert list(made[-1].setup.players)[:2] == ["Ada", "Brian"]
    page.close()


def test_lobby_sends_a_rules_own_option_only_with_the_rule_chosen(
    server: tuple[str, WebServer], browser: Any
) -> None:
    """A house rule's own parameter (``RuleInfo.options``) gets an input under the rule."""
    import cardcore
    from tests.core.test_rule_options import CAP, CAP_OPTION, _rule

    base, web = server
    cardcore.register("cardcore.rules", CAP, _rule(CAP, CAP_OPTION))
    try:
        for chosen in (False, True):
            page = browser.new_page()
            page.goto(base + "/")
            page.wait_for_selector("#game option[value=golf]", state="attached")
            page.select_option("#game", "golf")
            box = page.locator(f'[data-option="round_cap"][data-for-rule="{CAP}"]')
            assert box.get_attribute("max") == "100"
            box.fill("4")
            if chosen:
                page.locator(f'[data-rule="{CAP}"]').check()
            page.click("#start")
            page.wait_for_selector(".seat-link")
            made = [s for s in web.hub.sessions.values() if s.setup.game == "golf"][-1]
            assert (CAP in made.setup.rules) is chosen
            assert dict(made.setup.options).get("round_cap") == (4 if chosen else None)
            page.close()
    finally:
        cardcore.unregister("cardcore.rules", CAP)


def test_a_player_resigns_from_the_page_after_confirming(
    server: tuple[str, WebServer], browser: Any
) -> None:
    base, web = server
    page = browser.new_page()
    made = _create(page, base, "golf", [{"name": "You"}, {"name": "Other"}])
    other = browser.new_page()
    other.goto(base + made["seats"][1]["link"])
    page.goto(base + made["seats"][0]["link"])
    page.wait_for_function("() => window.cardcore.view !== null")
    page.click("#resign")
    assert _view(page)["is_over"] is False  # one click only asks
    page.click("#resign-no")
    page.wait_for_selector("#resign")
    page.click("#resign")
    page.click("#resign-yes")
    page.wait_for_function("() => window.cardcore.view.is_over", timeout=10000)
    result = _view(page)["result"]
    assert result["winners"] == [1]
    assert page.locator("#resign").count() == 0  # nothing to resign from a finished game
    game = web.hub.sessions[made["session"]].game
    assert game is not None and game.is_over
    watcher = browser.new_page()
    watcher.goto(base + made["watch"])
    watcher.wait_for_function("() => window.cardcore.view && window.cardcore.view.is_over")
    assert watcher.locator("#resign").count() == 0  # a spectator has no seat to resign
    watcher.close()
    other.wait_for_function("() => window.cardcore.view.is_over")
    other.close()
    page.close()
