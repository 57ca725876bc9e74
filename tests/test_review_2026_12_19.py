"""Review of the 2026-12-19 commits (eb901a6..HEAD) that touch src/: ``Session.cause`` and the
stored ``played_for``, the takeback judge's ``shown |= Counter(...)``, the typing changes, and
the browser client's keyboard and screen-reader changes.

Claims that hold pass; each bug found is a strict xfail whose reason says what and where.
Every game is dealt from a fixed seed or a stacked deck. The browser tests at the end are
skipped (as the other browser tests are) when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import copy
import json
import os
import socket
import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import CardRevealed, GameInfo, IllegalActionError, hookimpl
from cardcore.session import (
    CorruptSessionError,
    Hub,
    MemoryStore,
    Session,
    SessionConfig,
    SessionError,
    SQLiteStore,
    TimeControl,
)
from cardcore.session import _integrity as integrity
from cardcore.session.takeback import learned, probe
from tests.plugins import canasta_2026_12_19 as canasta
from tests.session.kit import Table, table

# ---------------------------------------------------------------- 1. Session.cause, played_for


def _lost_on_time(store: Any = None) -> Table:
    """Golf seed 11, seat 0 flips once and lets its turn clock run out: it resigns (v2)."""
    t = table("golf", time=TimeControl(turn=5.0, forfeit=True), store=store)
    t.act("a", "flip 0", 1.0)
    t.tick(10.0)
    game = t.session.game
    assert game is not None and game.is_over and game.version == 2
    return t


def _resealed(t: Table, edit: Any) -> tuple[MemoryStore, str]:
    """A copy of *t*'s stored row with its meta changed by *edit* and its meta digest
    recomputed (a row written so by an older cardcore, or by a forger who reseals it)."""
    store = t.session.store
    assert isinstance(store, MemoryStore)
    row = copy.deepcopy(store.load(t.session.id))
    assert row is not None
    edit(row.meta)
    row.meta[integrity.KEY]["meta"] = integrity._meta(row.id, row.meta)
    fresh = MemoryStore()
    fresh.create(row)
    return fresh, row.id


def test_played_for_is_stored_and_a_resumed_session_names_the_loss_on_time() -> None:
    t = _lost_on_time()
    row = t.session.store.load(t.session.id)  # type: ignore[union-attr]
    assert row is not None and row.meta["played_for"] == {"2": "timeout"}
    resumed = Session.resume(t.session.store, t.session.id, now=100.0)  # type: ignore[arg-type]
    assert [resumed.cause(1), resumed.cause(2)] == ["player", "timeout"]


def test_a_row_from_before_played_for_does_not_call_a_loss_on_time_a_players_move() -> None:
    t = _lost_on_time()
    store, sid = _resealed(t, lambda meta: meta.pop("played_for"))
    row = store.load(sid)
    assert row is not None
    kept = [json.loads(text) for _, text in row.messages["seat.1"]]
    assert [m["action"]["cause"] for m in kept if m["type"] == "update"] == ["player", "timeout"]
    resumed = Session.resume(store, sid, now=100.0)
    assert resumed.cause(2) == "timeout"


@pytest.mark.parametrize(
    "played_for", [{"2": "takeback"}, {"2": ["timeout"]}, {"two": "timeout"}, ["timeout"]]
)
def test_a_resealed_played_for_naming_no_cause_is_refused_as_corrupt(played_for: Any) -> None:
    t = _lost_on_time()
    store, sid = _resealed(t, lambda meta: meta.__setitem__("played_for", played_for))
    with pytest.raises(CorruptSessionError, match="cannot be resumed"):
        Session.resume(store, sid, now=100.0)


def test_an_edited_played_for_without_a_new_digest_is_refused() -> None:
    t = _lost_on_time()
    store = t.session.store
    assert isinstance(store, MemoryStore)
    row = copy.deepcopy(store.load(t.session.id))
    assert row is not None
    row.meta["played_for"] = {"2": "host"}  # a loss on time dressed up as the host's end
    fresh = MemoryStore()
    fresh.create(row)
    with pytest.raises(CorruptSessionError, match="meta differs"):
        Session.resume(fresh, row.id, now=100.0)


@pytest.mark.parametrize(
    "bad", [10**100, -(10**100), 2**63, 3, 0, float("nan"), float("inf"), b"1", [1], None]
)
def test_cause_refuses_what_no_action_made(bad: Any) -> None:
    t = _lost_on_time()
    with pytest.raises(SessionError, match="no action made version"):
        t.session.cause(bad)


def test_cause_before_the_deal_is_refused() -> None:
    session = Session.create("golf", 2, now=0.0, seed=3)
    with pytest.raises(SessionError, match="no action made version"):
        session.cause(1)


def test_a_takeback_of_a_timeout_then_a_restart_then_more_timeouts(tmp_path: Path) -> None:
    """Golf seed 5 with a 30 s turn clock: both seats flip twice, Ann takes the discard and
    holds it past her clock ("replace 0" played for her, v6); she asks for it back and Bob
    accepts (v5); the process restarts; Ann lets the clock run out again."""
    path = tmp_path / "s.db"
    config = SessionConfig(time=TimeControl(turn=30.0))
    session = Session.create("golf", 2, now=0.0, seed=5, config=config, store=SQLiteStore(path))
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    for conn, flip in [("a", 0), ("a", 1), ("b", 0), ("b", 1)]:
        t.act(conn, f"flip {flip}", 1.0)
    t.act("a", "take", 1.0)
    t.tick(31.0)
    assert session.game is not None and session.game.version == 6
    assert session.cause(6) == "timeout"
    t.send("a", {"type": "takeback", "op": "request"})
    t.send("b", {"type": "takeback", "op": "accept"}, 1.0)
    assert session.game.version == 5
    with pytest.raises(SessionError):
        session.cause(6)
    resumed = Session.resume(SQLiteStore(path), session.id, now=t.now + 1.0)
    assert [resumed.cause(v) for v in range(1, 6)] == ["player"] * 5
    with pytest.raises(SessionError):
        resumed.cause(6)
    resumed.tick(t.now + 40.0)  # Ann's clock runs out again after the restart
    game = resumed.game
    assert game is not None and game.version >= 6
    assert resumed.cause(6) == "timeout"
    again = Session.resume(SQLiteStore(path), session.id, now=t.now + 50.0)
    assert [again.cause(v) for v in range(1, game.version + 1)] == [
        resumed.cause(v) for v in range(1, game.version + 1)
    ]


def _ended_by(session: Session) -> Any:
    from cardcore.web.app import _ended_by as ended_by

    return ended_by(session)


def test_ended_by_says_the_host_and_the_game_clock_and_nothing_while_playing() -> None:
    t = table("golf", time=TimeControl(turn=5.0))
    t.act("a", "flip 0", 1.0)
    assert _ended_by(t.session) is None  # playing
    t.session.end(t.now + 1.0)
    assert _ended_by(t.session) == {"seat": -1, "text": "end", "cause": "host"}
    c = table("golf", time=TimeControl(total=3.0))
    c.tick(4.0)
    assert _ended_by(c.session) == {"seat": -1, "text": "end", "cause": "clock"}
    assert _ended_by(_lost_on_time().session) == {"seat": 0, "text": "resign", "cause": "timeout"}


def test_a_closed_session_mid_game_has_no_ended_by() -> None:
    """The host's close() plays no action: the game is not over and ended_by stays null
    (documented as a timeout's, the clock's or the host's *action*)."""
    t = table("golf", time=TimeControl(turn=5.0))
    t.act("a", "flip 0", 1.0)
    t.session.close(t.now + 1.0)
    assert t.session.phase == "closed" and _ended_by(t.session) is None


def test_spectators_behind_by_a_delay_are_shown_everything_once_the_host_ends() -> None:
    """spectator_delay: ended_by appears only once the game is over, when the spectators'
    stream has been given every version (nothing the spectators may not know yet)."""
    t = table("golf", time=TimeControl(turn=5.0), spectator_delay=3)
    t.act("a", "flip 0", 1.0)
    t.act("a", "flip 1", 1.0)
    assert t.session.spec.released == 0  # behind by the delay
    assert _ended_by(t.session) is None
    t.session.end(t.now + 1.0)
    game = t.session.game
    assert game is not None and game.is_over
    assert t.session.spec.released == game.version
    assert _ended_by(t.session) == {"seat": -1, "text": "end", "cause": "host"}


# ---------------------------------------------------------------- 2. the takeback judge

TAKEBACK_HANDS = [
    "8S 4S 4C 5H 5C 6D 6S KH KD 2C JK",
    "7S 7H 9S 9H 10S 10H JS JH QS QH AS",
    "7D 7C 9D 9C 10D 10C JD JC QD QC 8S",
    "7S 7H 9S 9H 10S 10H JS JH QS QC AD",
]
TAKEBACK_PLAY = [(0, "draw"), (0, "discard 8S"), (1, "draw"), (1, "discard 9S"), (2, "pickup")]


class _PeekLogic(canasta.CanastaLogic):  # type: ignore[misc]
    """Canasta that, after every discard, shows the stock's top card to every seat and leaves
    it face down (a card shown and hidden again within one action, as a "burn" rule does)."""

    def apply(self, state: Any, action: Any, emit: Any) -> None:
        super().apply(state, action, emit)
        stock = state.zones.cards[canasta.STOCK]
        if emit is not None and isinstance(action, canasta.Discard) and stock:
            emit(CardRevealed(None, "stock", len(stock) - 1, stock[-1]))


@pytest.fixture(scope="module")
def peek_canasta() -> Iterator[str]:
    module = types.ModuleType("peek_canasta_review")
    module.GAME = GameInfo(  # type: ignore[attr-defined]
        "peek-canasta-review",
        "Canasta that shows the stock's top card after a discard",
        4,
        4,
        options=canasta.GAME.options,
        fields=canasta.GAME.fields,
    )

    @hookimpl
    def create_logic(ruleset: cardcore.Ruleset) -> _PeekLogic:
        return _PeekLogic(ruleset)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    module.build_deck = canasta.build_deck  # type: ignore[attr-defined]
    module.card_points = canasta.card_points  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "peek-canasta-review", module)
    yield "peek-canasta-review"
    cardcore.unregister("cardcore.games", "peek-canasta-review")


def _stack(tail: str) -> str:
    split = [h.split() for h in TAKEBACK_HANDS]
    return " ".join([split[s][i] for i in range(11) for s in range(4)] + tail.split())


def _takeback_reply(game: str, tail: str, last: str) -> dict[str, Any]:
    """Seat 2 takes the pile (the upcard 4H, seen by every seat), plays *last* and asks to take
    it back: the first message seat 2 gets."""
    session = Session.create(game, 4, now=0.0, deck=_stack(tail), seed=5)
    for seat in range(4):
        session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0)
    for step, (seat, text) in enumerate([*TAKEBACK_PLAY, (2, last)]):
        assert session.game is not None
        act = {"type": "act", "action": text, "seen": session.game.version}
        out = session.handle(f"c{seat}", json.dumps(act), now=2.0 + step)
        assert not [o for o in out if o.message["type"] == "error"], text
    out = session.handle("c2", json.dumps({"type": "takeback", "op": "request"}), now=20.0)
    return dict(next(o.message for o in out if o.conn == "c2"))


def test_a_discard_that_shows_another_stock_card_cannot_be_taken_back(peek_canasta: str) -> None:
    """Control: discarding the known 4H while QD (the stock's top) is shown is refused."""
    reply = _takeback_reply(peek_canasta, "4H 4D 5D KH KD QD", "discard 4H")
    assert reply["type"] == "error" and reply["code"] == "takeback-refused", reply
    assert "seat 0" in reply["message"] and "a spectator" in reply["message"]


def test_a_discard_that_shows_a_second_copy_of_its_card_cannot_be_taken_back(
    peek_canasta: str,
) -> None:
    reply = _takeback_reply(peek_canasta, "4H 4D 5D KH KD 4H", "discard 4H")
    assert reply["type"] == "error" and reply["code"] == "takeback-refused", reply


def test_learned_sees_a_shown_copy_of_a_code_the_seat_knows_elsewhere(peek_canasta: str) -> None:
    before = cardcore.new_game(peek_canasta, 4, deck=_stack("4H 4D 5D KH KD 4H"), seed=5)
    for seat, text in TAKEBACK_PLAY:
        before.act(seat, text)
    after, events = probe(before, 2, "discard 4H", None)
    assert any(isinstance(e, CardRevealed) and str(e.card) == "4H" for e in events)
    assert learned(before, after, events)[0] == ["4H"]


# ---------------------------------------------------------------- 3. typing changes


def test_game_options_are_read_only_and_clones_share_the_values() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(TypeError):
        game.options["layout"] = "4"  # type: ignore[index]
    assert dict(game.clone().options) == dict(game.options)


def test_hub_create_with_config_none_gets_the_hubs_limits_and_takes_iterables() -> None:
    hub = Hub(MemoryStore())
    made = hub.create("golf", 2, now=0.0, seed=3, config=None, rules=iter(()), without=set())
    assert made.config.limits == hub.limits
    deck = list(cardcore.standard_52())[:4]
    again = Session.create("golf", 2, now=0.0, seed=3, deck=tuple(deck))
    assert again.setup.to_json()["deck"] == [str(c) for c in deck]
    with pytest.raises(TypeError):
        hub.create("golf", 2, now=0.0, store=MemoryStore())  # type: ignore[call-arg]


def test_card_env_match_before_reset_fails_like_the_other_attributes() -> None:
    from cardcore.rl import aec_env

    env = aec_env("golf", 2)
    for name in ("match", "agents"):
        with pytest.raises(IllegalActionError, match=f"{name} is set by reset"):
            getattr(env, name)
    env.reset(seed=1)
    assert env.match.game.version == 0 and env.unwrapped is env
    with pytest.raises(AttributeError):
        env.match = None  # type: ignore[misc]


def test_pettingzoo_wrappers_agent_iter_and_last_still_work() -> None:
    from pettingzoo.utils import wrappers

    from cardcore.rl import aec_env

    env = wrappers.OrderEnforcingWrapper(aec_env("golf", 2))
    env.reset(seed=2)
    assert env.unwrapped.match is env.match
    steps = 0
    for agent in env.agent_iter(max_iter=6):
        obs, _, term, trunc, _ = env.last()
        assert env.last(observe=False)[0] is None
        if term or trunc:
            env.step(None)
        else:
            env.step(int(obs["action_mask"].nonzero()[0][0]))
        steps += 1
        assert agent.startswith("player_")
    assert steps == 6


def test_seat_env_unwrapped_through_a_gymnasium_wrapper_and_pickling_refused() -> None:
    import pickle

    import gymnasium

    from cardcore.errors import ArgumentError
    from cardcore.rl import SeatEnv, gym_env

    env = gym_env("golf", 2)
    wrapped = gymnasium.wrappers.TimeLimit(env, 50)
    assert isinstance(wrapped.unwrapped, SeatEnv) and wrapped.unwrapped is env
    assert isinstance(env.action_space, gymnasium.spaces.Discrete)
    with pytest.raises(ArgumentError):
        pickle.dumps(env)


# ---------------------------------------------------------------- 4. the browser client

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu", "--no-first-run"]


def _browser_missing() -> bool:
    if os.environ.get("CI") == "true":
        return False
    try:
        import playwright.sync_api  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return True
    return not Path(CHROMIUM).exists()


needs_browser = pytest.mark.skipif(_browser_missing(), reason="no Playwright or /usr/bin/chromium")


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    import uvicorn

    from cardcore.web import WebServer, create_app

    server = WebServer(str(tmp_path_factory.mktemp("review") / "games.db"), bot_delay=0.05)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(server), log_level="warning", lifespan="on"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", server
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def pages(chromium: Any) -> Iterator[list[Any]]:
    contexts: list[Any] = []
    yield contexts
    for context in contexts:
        context.close()


def _seat_page(
    chromium: Any,
    contexts: list[Any],
    web: tuple[str, Any],
    game: str,
    seed: int,
    seat: int,
    **options: Any,
) -> Any:
    """Both seats' pages of *game* dealt from *seed* (the game starts when both are seated):
    the page of *seat*."""
    base, server = web
    session = server.hub.create(
        game,
        ["Ann", "Bob"],
        now=server.host.clock(),
        seed=seed,
        options=options or None,
        config=SessionConfig(limits=server.limits, spectator_delay=0),
    )
    opened = []
    for s in (0, 1):
        context = chromium.new_context(viewport={"width": 360, "height": 640})
        contexts.append(context)
        page = context.new_page()
        page.goto(f"{base}/play/{session.id}#seat={s}")
        opened.append(page)
    for page in opened:
        page.wait_for_function("() => window.cardcore.view !== null", timeout=10000)
    return opened[seat]


@needs_browser
def test_the_resign_confirmation_does_not_get_the_focus(
    chromium: Any, pages: list[Any], web: tuple[str, Any]
) -> None:
    bob = _seat_page(chromium, pages, web, "golf", 11, 1, layout="4")  # Ann to act: Bob waits
    bob.focus("#resign")
    bob.keyboard.press("Enter")
    bob.wait_for_selector("#resign-yes")
    assert bob.evaluate("document.activeElement.id") != "resign-yes"


@needs_browser
def test_spit_a_layout_pile_chosen_by_keyboard_keeps_the_focus(
    chromium: Any, pages: list[Any], web: tuple[str, Any]
) -> None:
    ann = _seat_page(chromium, pages, web, "spit", 7, 0)
    pile = '#table .stack[data-layout="4"][data-seat="0"]'
    assert ann.get_attribute(pile, "role") == "button"
    ann.focus(pile)
    ann.keyboard.press("Enter")
    ann.wait_for_function("() => window.cardcore.selected && window.cardcore.selected.pile === 4")
    focused = ann.evaluate(
        "(() => { const e = document.activeElement; return e.dataset.layout + '/' + e.dataset.seat; })()"
    )
    assert focused == "4/0"


@needs_browser
def test_enter_on_a_table_target_sends_one_move_and_space_does_not_scroll(
    chromium: Any, pages: list[Any], web: tuple[str, Any]
) -> None:
    """Four-card Golf from seed 11: Ann peeks at 0 with Enter on the card, at 1 with Space."""
    ann = _seat_page(chromium, pages, web, "golf", 11, 0, layout="4")
    ann.evaluate(
        """() => { const ws = window.cardcore.ws, send = ws.send.bind(ws); window.__acts = [];
             ws.send = (t) => { const m = JSON.parse(t); if (m.type === 'act') window.__acts.push(m.action); send(t); }; }"""
    )
    ann.focus('#table [data-target="peek 0"]')
    ann.keyboard.press("Enter")
    ann.wait_for_function("() => window.cardcore.version >= 1")
    ann.evaluate("document.documentElement.style.minHeight = '3000px'")  # room to scroll
    ann.evaluate("window.scrollTo(0, 0)")
    ann.evaluate(
        "document.querySelector('#table [data-target=\"peek 1\"]').focus({preventScroll: true})"
    )
    ann.keyboard.press(" ")
    ann.wait_for_function("() => window.cardcore.version >= 2")
    ann.wait_for_function("() => Object.keys(window.cardcore.pending).length === 0")
    ann.wait_for_timeout(300)
    assert ann.evaluate("window.__acts") == ["peek 0", "peek 1"]
    assert ann.evaluate("window.scrollY") == 0


@needs_browser
def test_a_redraw_leaves_the_focus_outside_the_table_alone_and_hides_the_other_hand(
    chromium: Any, pages: list[Any], web: tuple[str, Any]
) -> None:
    """Tonk seed 1: Bob's cards on Ann's page are face-down cards with no code; a redraw (a
    pong) does not move the focus off the 'Everything this seat sees' summary."""
    ann = _seat_page(chromium, pages, web, "tonk", 1, 0, hands=1)
    hidden = ann.evaluate(
        """[...document.querySelectorAll('#table .hand[data-seat="1"] .card')]
             .map(e => [e.dataset.card, e.getAttribute('aria-label')])"""
    )
    assert hidden and all(h == ["", "a face-down card"] for h in hidden), hidden
    ann.focus("#fields summary")
    ann.evaluate(
        "window.cardcore.ws.onmessage({ data: JSON.stringify({ type: 'pong', t: performance.now() }) })"
    )
    assert ann.evaluate("document.activeElement.tagName") == "SUMMARY"


@needs_browser
def test_speed_the_other_seats_move_does_not_put_the_focus_on_another_move(
    chromium: Any, pages: list[Any], web: tuple[str, Any]
) -> None:
    """Speed seed 5: Ann's moves are play 9D L and stuck; Bob plays 9S on L, after which Ann's
    are play QH L, play QS L and stuck."""
    ann = _seat_page(chromium, pages, web, "speed", 5, 0)
    bob = pages[-1].pages[0]
    assert ann.evaluate("window.cardcore.view.legal") == ["play 9D L", "stuck"]
    ann.focus('#actions [data-action="play 9D L"]')
    bob.click('#actions [data-action="play 9S L"]')
    ann.wait_for_function("() => window.cardcore.view.legal.includes('play QH L')")
    focused = ann.evaluate("document.activeElement.dataset.action || ''")
    assert not focused.startswith("play "), focused


@needs_browser
def test_a_ping_reply_changes_no_live_region(
    chromium: Any, pages: list[Any], web: tuple[str, Any]
) -> None:
    """Golf seed 11: Ann's page says "Your turn." once; a redraw (a pong) touches no live region."""
    ann = _seat_page(chromium, pages, web, "golf", 11, 0, layout="4")
    assert ann.inner_text("#turn") == "Your turn."
    ann.evaluate(
        """() => { window.__live = 0; const o = new MutationObserver((m) => { window.__live += m.length; });
             for (const id of ['turn', 'message', 'notes']) o.observe(document.getElementById(id),
               { childList: true, characterData: true, subtree: true }); }"""
    )
    for _ in range(2):
        ann.evaluate(
            "window.cardcore.ws.onmessage({ data: JSON.stringify({ type: 'pong', t: performance.now() }) })"
        )
    ann.wait_for_timeout(100)
    assert ann.evaluate("window.__live") == 0


@needs_browser
def test_golf_grid_buttons_have_distinct_names(
    chromium: Any, pages: list[Any], web: tuple[str, Any]
) -> None:
    ann = _seat_page(chromium, pages, web, "golf", 11, 0, layout="4")
    names = ann.evaluate(
        """[...document.querySelectorAll('#table .grid[data-seat="0"] [role=button]')]
             .map(e => e.getAttribute('aria-label') || e.textContent)"""
    )
    assert len(names) == 4, names
    assert len(set(names)) == 4, names


@needs_browser
def test_tonk_a_picked_hand_card_says_it_is_picked(
    chromium: Any, pages: list[Any], web: tuple[str, Any]
) -> None:
    ann = _seat_page(chromium, pages, web, "tonk", 1, 0, hands=1)
    code = ann.evaluate("window.cardcore.view.table.hand[0]")
    card = f'#table .hand[data-seat="0"] .card[data-card="{code}"]'
    ann.focus(card)
    ann.keyboard.press("Enter")
    ann.wait_for_function(f"() => window.cardcore.picked.includes('{code}')")
    assert ann.get_attribute(card, "aria-pressed") == "true"
