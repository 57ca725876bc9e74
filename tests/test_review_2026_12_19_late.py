"""Review of 7609bf9, 298c728 and f0f22ce (src/ only): causes of a session stored before
``played_for`` read back from its stream tails (``_causes.stored_causes``), the takeback
judge's summed events (``takeback.learned``), the ImportErrors naming the ``rl`` and ``web``
extras, and the browser client's focus and names (``play.js``).

Claims that hold pass; each bug found is a strict xfail whose reason says what and where.
Every game is dealt from a fixed seed or a stacked deck; the browser tests are skipped, as
the other browser tests are, when Playwright or /usr/bin/chromium is missing.
"""

# ruff: noqa: F811  (the fixtures imported below are taken as arguments by name)

from __future__ import annotations

import copy
import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from typing import Any

import pytest

import cardcore
from cardcore.session import CorruptSessionError, MemoryStore, Session, TimeControl
from cardcore.session import _integrity as integrity
from cardcore.session.streams import Stream
from cardcore.session.takeback import learned, probe
from tests.session.kit import Table, table
from tests.test_review_2026_12_19 import (  # noqa: F401  (fixtures used by name)
    TAKEBACK_PLAY,
    _seat_page,
    _stack,
    _takeback_reply,
    chromium,
    needs_browser,
    pages,
    peek_canasta,
    web,
)

# ---------------------------------------------------------------- 1. causes of an old session


def _old_row(t: Table, edit: Callable[[Any], None] | None = None) -> tuple[MemoryStore, str]:
    """*t*'s stored row as a cardcore before ``played_for`` wrote it (resealed, as that
    cardcore sealed it), after *edit* (row) if given."""
    store = t.session.store
    assert isinstance(store, MemoryStore)
    row = copy.deepcopy(store.load(t.session.id))
    assert row is not None
    del row.meta["played_for"], row.meta["played_from"]
    if edit is not None:
        edit(row)
    row.meta[integrity.KEY]["meta"] = integrity._meta(row.id, row.meta)
    fresh = MemoryStore()
    fresh.create(row)
    return fresh, row.id


def _retail(row: Any, name: str, rows: list[tuple[int, str]]) -> None:
    """Put *rows* as stream *name*'s kept tail and reseal its digest (a forger, or a
    cardcore that wrote them so)."""
    row.messages[name] = rows
    stream = Stream(name, 1000, int(row.meta["streams"][name]), rows)
    row.meta["tails"][name] = stream.digest()


def _golf_timeout_taken_back() -> Table:
    """Golf seed 11, 30 s turns: four flips, Ann takes the discard and holds it past her clock
    ("replace 0" played for her, v6, a timeout); she takes it back, Bob accepts (v5)."""
    t = table("golf", time=TimeControl(turn=30.0))
    for conn, flip in [("a", 0), ("a", 1), ("b", 0), ("b", 1)]:
        t.act(conn, f"flip {flip}", 1.0)
    t.act("a", "take", 1.0)
    t.tick(31.0)
    assert t.session.cause(6) == "timeout"
    t.send("a", {"type": "takeback", "op": "request"})
    t.send("b", {"type": "takeback", "op": "accept"}, 1.0)
    game = t.session.game
    assert game is not None and game.version == 5
    return t


def test_an_old_session_reads_a_timeout_from_its_tails_and_names_the_rest_player() -> None:
    t = table("golf", time=TimeControl(turn=5.0))
    t.tick(5.1)  # v1, v2: timeout flips
    t.act("b", "flip 0", 1.0)
    store, sid = _old_row(t)
    resumed = Session.resume(store, sid, now=100.0)
    assert resumed.played_from == 0
    assert [resumed.cause(v) for v in (1, 2, 3)] == ["timeout", "timeout", "player"]


def test_a_restarted_old_session_forgets_the_cause_of_a_taken_back_timeout() -> None:
    t = _golf_timeout_taken_back()
    store, sid = _old_row(t)
    resumed = Session.resume(store, sid, now=t.now + 1.0)
    t.restart(resumed)
    t.join("a", 0)
    t.join("b", 1)
    assert not t.errors(t.act("a", "replace 0", 1.0))
    game = resumed.game
    assert game is not None and game.version == 6
    assert resumed.cause(6) == "player"


def test_a_move_made_again_after_a_takeback_in_a_restarted_old_session_is_the_seats() -> None:
    t = table("golf", resync_keep=1)
    for conn, flip in [("a", 0), ("a", 1), ("b", 0), ("b", 1)]:
        t.act(conn, f"flip {flip}", 1.0)
    t.act("a", "take", 1.0)
    t.send("a", {"type": "takeback", "op": "request"})  # the only message the tails keep
    store, sid = _old_row(t)
    resumed = Session.resume(store, sid, now=t.now + 1.0)
    assert resumed.cause(5) == "unknown"  # as documented: older than the updates kept
    t.restart(resumed)
    t.join("a", 0)
    t.join("b", 1)
    t.send("b", {"type": "takeback", "op": "accept"}, 1.0)
    assert resumed.game is not None and resumed.game.version == 4
    assert not t.errors(t.act("a", "take", 1.0))
    assert resumed.cause(5) == "player"


def test_ended_by_of_an_old_session_whose_cause_is_unknown_is_null() -> None:
    from cardcore.web.app import _ended_by

    t = table("golf", resync_keep=1, fair=True)
    t.act("a", "resign", 1.0)
    store, sid = _old_row(t)
    resumed = Session.resume(store, sid, now=t.now + 1.0)
    assert resumed.cause(1) == "unknown"
    assert _ended_by(resumed) is None


def test_the_replay_of_an_old_session_says_unknown_without_breaking() -> None:
    """The replay endpoint's cause is Session.cause: 'unknown' for steps older than the tails
    (play.js shows it as a plain "Ann: flip 0")."""
    t = table("golf", resync_keep=1)
    t.act("a", "flip 0", 1.0)
    t.act("a", "flip 1", 1.0)
    store, sid = _old_row(t)
    resumed = Session.resume(store, sid, now=t.now + 1.0)
    assert [resumed.cause(1), resumed.cause(2)] == ["unknown", "player"]


def test_a_format_2_session_with_an_unreadable_kept_message_still_resumes() -> None:
    t = table("golf", time=TimeControl(turn=30.0))
    t.act("a", "flip 0", 1.0)
    store = t.session.store
    assert isinstance(store, MemoryStore)
    row = copy.deepcopy(store.load(t.session.id))
    assert row is not None
    for key in ("integrity", "tails", "played_for", "played_from", "unbound_tokens"):
        row.meta.pop(key, None)
    row.meta["format_version"] = 2
    n, text = row.messages["seat.1"][-1]
    row.messages["seat.1"][-1] = (n, text[:-5])  # a torn row
    fresh = MemoryStore()
    fresh.create(row)
    resumed = Session.resume(fresh, row.id, now=50.0)
    assert resumed.game is not None and resumed.game.version == 1


_TAMPERED = {
    "not json": "{not json",
    "a list": "[1, 2]",
    "version a word": '{"type":"update","n":N,"version":"x","action":{"cause":"timeout"}}',
    "version NaN": '{"type":"update","n":N,"version":NaN,"action":{"cause":"timeout"}}',
    "version Infinity": '{"type":"update","n":N,"version":Infinity,"action":{}}',
    "cause a list": '{"type":"update","n":N,"version":1,"action":{"cause":["timeout"]}}',
    "nested deep": "[" * 100_000 + "]" * 100_000,
}


@pytest.mark.parametrize("kind", sorted(_TAMPERED))
def test_a_tampered_then_resealed_tail_is_never_a_raw_exception(kind: str) -> None:
    t = table("golf", time=TimeControl(turn=30.0))
    t.act("a", "flip 0", 1.0)

    def edit(row: Any) -> None:
        rows = list(row.messages["seat.0"])
        n = rows[-1][0]
        rows[-1] = (n, _TAMPERED[kind].replace("N", str(n)))
        _retail(row, "seat.0", rows)

    store, sid = _old_row(t, edit)
    try:
        resumed = Session.resume(store, sid, now=50.0)
    except CorruptSessionError:
        return
    assert resumed.cause(1) in ("player", "timeout", "unknown")


def test_huge_and_negative_versions_in_a_resealed_tail_do_not_break_cause() -> None:
    t = table("golf", time=TimeControl(turn=30.0))
    t.act("a", "flip 0", 1.0)
    t.act("a", "flip 1", 1.0)

    def edit(row: Any) -> None:
        rows = list(row.messages["seat.0"])
        n = rows[-1][0]
        rows.append(
            (
                n + 1,
                json.dumps(
                    {"type": "update", "n": n + 1, "version": 10**30, "action": {"cause": "host"}}
                ),
            )
        )
        row.meta["streams"]["seat.0"] = n + 1
        _retail(row, "seat.0", rows)

    store, sid = _old_row(t, edit)
    resumed = Session.resume(store, sid, now=50.0)
    assert [resumed.cause(1), resumed.cause(2)] == ["player", "player"]


@pytest.mark.parametrize(
    ("played_from", "ok"), [(-3, True), ("2", True), ("abc", False), (None, False)]
)
def test_played_from_in_meta_negative_or_a_string(played_from: Any, ok: bool) -> None:
    t = table("golf", time=TimeControl(turn=30.0))
    t.act("a", "flip 0", 1.0)
    t.act("a", "flip 1", 1.0)

    def edit(row: Any) -> None:
        row.meta["played_for"] = {}
        row.meta["played_from"] = played_from

    store, sid = _old_row(t, edit)
    if not ok:
        with pytest.raises(CorruptSessionError):
            Session.resume(store, sid, now=50.0)
        return
    resumed = Session.resume(store, sid, now=50.0)
    expected = ["unknown", "unknown"] if played_from == "2" else ["player", "player"]
    assert [resumed.cause(1), resumed.cause(2)] == expected


def test_played_from_beyond_the_record_is_refused_or_clamped() -> None:
    t = table("golf")
    t.act("a", "flip 0", 1.0)

    def edit(row: Any) -> None:
        row.meta["played_for"] = {}
        row.meta["played_from"] = 10**6

    store, sid = _old_row(t, edit)
    try:
        resumed = Session.resume(store, sid, now=50.0)
    except CorruptSessionError:
        return
    t.restart(resumed)
    t.join("a", 0)
    assert not t.errors(t.act("a", "flip 1", 1.0))
    assert resumed.cause(2) == "player"


# ---------------------------------------------------------------- 2. the takeback judge


def test_golf_taking_the_discard_and_replacing_a_face_up_card_may_be_taken_back() -> None:
    """Golf seed 11: after four flips Ann takes the face-up discard (allowed back), then
    replaces her face-up card 0 with it (allowed back), as docs/session.rst says."""
    t = table("golf")
    for conn, flip in [("a", 0), ("a", 1), ("b", 0), ("b", 1)]:
        t.act(conn, f"flip {flip}", 1.0)
    t.act("a", "take", 1.0)
    assert not t.errors(t.send("a", {"type": "takeback", "op": "request"}))
    t.send("b", {"type": "takeback", "op": "decline"}, 1.0)
    t.act("a", "replace 0", 1.0)
    assert not t.errors(t.send("a", {"type": "takeback", "op": "request"}))


def test_tonk_taking_the_discard_teaches_nobody_anything() -> None:
    game = cardcore.new_game("tonk", 2, seed=11, options={"hands": 1})
    seat = game.state.to_act[0]
    assert "take" in [str(a) for a in game.legal_actions(seat)]
    after, events = probe(game, seat, "take", None)
    assert learned(game, after, events) == {0: [], 1: [], None: []}


def test_a_second_copy_shown_on_the_stock_makes_an_unrelated_discard_final(
    peek_canasta: str,
) -> None:
    before = cardcore.new_game(peek_canasta, 4, deck=_stack("4H 4D 5D KH KD 4H"), seed=5)
    for seat, text in TAKEBACK_PLAY:
        before.act(seat, text)
    after, events = probe(before, 2, "discard 8S", None)
    assert any(
        getattr(e, "zone", None) == "stock" and str(getattr(e, "card", "")) == "4H" for e in events
    )
    assert learned(before, after, events)[0] == ["4H"]
    reply = _takeback_reply(peek_canasta, "4H 4D 5D KH KD 4H", "discard 8S")
    assert reply["type"] == "error" and reply["code"] == "takeback-refused", reply


SPITE_PLAY = [
    (0, "discard JC 0"), (1, "discard 4D 1"), (0, "play KH 1"), (0, "discard 10C 0"),
    (1, "discard 9C 3"), (0, "discard 8D 3"), (1, "discard 3C 3"), (0, "discard 5C 1"),
    (1, "discard 10C 2"), (0, "discard 4S 3"), (1, "discard 10D 1"), (0, "discard 3S 2"),
    (1, "discard 9D 3"), (0, "discard 4C 0"), (1, "discard 6S 0"), (0, "discard 3D 0"),
    (1, "discard KD 3"), (0, "discard AC 0"), (1, "discard QD 2"), (0, "discard 5D 1"),
    (1, "discard 7H 0"), (0, "discard JS 0"), (1, "discard QS 2"), (0, "discard AD 1"),
    (1, "discard 4H 0"), (0, "discard 3C 0"),
]  # fmt: skip


def test_spite_moving_a_known_discard_onto_a_build_pile_teaches_nothing() -> None:
    from tests.plugins import spite_2026_12_16 as spite

    name = spite.GAME.name
    cardcore.register("cardcore.games", name, spite)
    try:
        game = cardcore.new_game(name, 2, seed=0)
        for seat, text in SPITE_PLAY:
            game.act(seat, text)
        after, events = probe(game, 1, "lift 3 2", None)
        assert [e.slug for e in events if e.slug != "action-applied"] == [
            "card-moved",
            "spite-wild",
        ]
        assert learned(game, after, events) == {0: [], 1: [], None: []}
    finally:
        cardcore.unregister("cardcore.games", name)


# ---------------------------------------------------------------- 3. missing extras

_BLOCK = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ModuleNotFoundError("No module named " + repr(name), name=name)
        return None
sys.meta_path.insert(0, Block())
"""


def _run(blocked: tuple[str, ...], body: str) -> str:
    code = _BLOCK.format(blocked=set(blocked)) + textwrap.dedent(body)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_importorskip_cardcore_rl_skips_without_the_extra() -> None:
    out = _run(
        ("gymnasium",),
        """
        import pytest
        try:
            pytest.importorskip("cardcore.rl")
        except pytest.skip.Exception:
            print("skipped")
        except ImportError as exc:
            print("error", type(exc).__name__)
        """,
    )
    assert out.strip() == "skipped"


def test_missing_extras_leave_cardcore_and_the_cli_importable_and_say_it_once() -> None:
    out = _run(
        ("gymnasium", "starlette"),
        """
        import cardcore, cardcore.cli
        from cardcore.cli import main
        for mod in ("cardcore.rl", "cardcore.web"):
            try:
                __import__(mod)
            except ImportError as exc:
                print(mod, "|", exc.name, "|", exc)
        print("serve", main(["serve", "--port", "0"]))
        """,
    )
    lines = out.splitlines()
    rl = next(x for x in lines if x.startswith("cardcore.rl |"))
    assert "| gymnasium |" in rl and rl.count("pip install 'cardcore[rl]'") == 1
    assert rl.endswith("No module named 'gymnasium'")
    web_line = next(x for x in lines if x.startswith("cardcore.web |"))
    assert "| starlette |" in web_line and web_line.count("cardcore[web]") == 1
    assert "serve 2" in lines


# ---------------------------------------------------------------- 4. the browser client


@needs_browser
def test_golf_a_peek_made_by_keyboard_moves_the_focus_to_the_moves(
    chromium: Any, pages: list[Any], web: tuple[str, Any]
) -> None:
    """Golf seed 11 (4-card): after Enter on "peek 0" the cell shows its card (another
    data-card): the focus goes to the moves as a whole, not onto "peek 1"."""
    ann = _seat_page(chromium, pages, web, "golf", 11, 0, layout="4")
    ann.focus('#table [data-target="peek 0"]')
    ann.keyboard.press("Enter")
    ann.wait_for_function("() => window.cardcore.version >= 1")
    ann.wait_for_function("() => Object.keys(window.cardcore.pending).length === 0")
    ann.wait_for_timeout(100)
    assert ann.evaluate("document.activeElement.id") == "actions"


@needs_browser
def test_tonk_a_draw_made_by_keyboard_keeps_the_focus_in_the_page(
    chromium: Any, pages: list[Any], web: tuple[str, Any]
) -> None:
    ann = _seat_page(chromium, pages, web, "tonk", 7, 0, hands=1)
    ann.focus('#table [data-pile="stock"]')
    ann.keyboard.press("Enter")
    ann.wait_for_function("() => window.cardcore.version >= 1")
    ann.wait_for_function("() => Object.keys(window.cardcore.pending).length === 0")
    ann.wait_for_timeout(100)
    assert ann.evaluate("document.activeElement !== document.body")


@needs_browser
def test_tonk_three_cards_picked_by_keyboard_then_spread(
    chromium: Any, pages: list[Any], web: tuple[str, Any]
) -> None:
    """Tonk seed 7, one hand: Ann draws (Enter on the stock), picks the three cards of her
    first three-card spread with Enter, each keeping the focus and saying aria-pressed, then
    presses Enter on Spread: exactly those moves are sent."""
    ann = _seat_page(chromium, pages, web, "tonk", 7, 0, hands=1)
    ann.evaluate(
        """() => { const ws = window.cardcore.ws, send = ws.send.bind(ws); window.__acts = [];
             ws.send = (t) => { const m = JSON.parse(t); if (m.type === 'act') window.__acts.push(m.action); send(t); }; }"""
    )
    assert ann.evaluate("window.cardcore.view.to_act") == [0]
    ann.focus('#table [data-pile="stock"]')
    ann.keyboard.press("Enter")
    ann.wait_for_function("() => window.cardcore.version >= 1")
    spread = ann.evaluate(
        "window.cardcore.view.legal.find(a => a.startsWith('spread ') && a.split(' ').length === 4)"
    )
    assert spread, "seed 7 gives Ann a three-card spread after her draw"
    for i, code in enumerate(spread.split()[1:]):
        sel = f'#table .hand[data-seat="0"] .card[data-card="{code}"]'
        ann.focus(sel)
        ann.keyboard.press("Enter")
        ann.wait_for_function(f"() => window.cardcore.picked.length === {i + 1}")
        assert ann.evaluate("document.activeElement.dataset.card") == code
        assert ann.get_attribute(sel, "aria-pressed") == "true"
    button = '#table [data-tonk="spread"]'
    assert ann.get_attribute(button, "data-target") == spread
    ann.focus(button)
    ann.keyboard.press("Enter")
    ann.wait_for_function("() => window.cardcore.version >= 2")
    assert ann.evaluate("window.__acts") == ["draw", spread]
    assert ann.evaluate("document.activeElement !== document.body")


@needs_browser
def test_spit_a_pong_redraws_only_the_timing_line_and_mouse_play_still_works(
    chromium: Any, pages: list[Any], web: tuple[str, Any]
) -> None:
    """Spit seed 7: Ann's layout pile 4 is picked by keyboard; a pong changes the timing line
    (ping shown) and leaves the pile picked and focused; a mouse click on a centre pile her
    card fits sends that play."""
    ann = _seat_page(chromium, pages, web, "spit", 7, 0)
    pile = '#table .stack[data-layout="4"][data-seat="0"]'
    ann.focus(pile)
    ann.keyboard.press("Enter")
    ann.wait_for_function("() => window.cardcore.selected && window.cardcore.selected.pile === 4")
    ann.evaluate(
        "window.cardcore.ws.onmessage({ data: JSON.stringify({ type: 'pong', t: performance.now() - 5 }) })"
    )
    assert "ping" in ann.inner_text("#table .latency")
    assert "ping" in ann.inner_text("#net")
    assert (
        ann.evaluate(
            "document.activeElement.dataset.layout + '/' + document.activeElement.dataset.seat"
        )
        == "4/0"
    )
    target = ann.evaluate(
        "(() => { const e = document.querySelector('#table .pile.target[data-target^=\"play \"]'); return e ? e.dataset.target : null; })()"
    )
    if target is None:  # nothing of pile 4 fits now: the move list is all Ann may do
        assert (
            ann.evaluate(
                "window.cardcore.view.legal.filter(a => a.startsWith('play ') && a.split(' ').includes('4'))"
            )
            == []
        )
        return
    version = ann.evaluate("window.cardcore.version")
    ann.click(f'#table .pile[data-target="{target}"]')
    ann.wait_for_function(f"() => window.cardcore.version > {version}")


@needs_browser
def test_target_names_are_the_move_and_only_what_the_seat_sees(
    chromium: Any, pages: list[Any], web: tuple[str, Any]
) -> None:
    """Golf seed 11 (4-card): every target button is named "<its move>: <what it shows>", and
    Ann's face-down cells say nothing but "a face-down card"."""
    ann = _seat_page(chromium, pages, web, "golf", 11, 0, layout="4")
    names = ann.evaluate(
        """[...document.querySelectorAll('#table [data-target]')]
             .map(e => [e.dataset.target, e.getAttribute('aria-label')])"""
    )
    assert names
    for move, label in names:
        assert label.startswith(move + ": "), (move, label)
        if move.startswith("peek "):
            assert label == move + ": a face-down card"


@needs_browser
def test_the_replay_step_buttons_keep_the_focus_and_name_the_step(
    chromium: Any, pages: list[Any], web: tuple[str, Any]
) -> None:
    """Golf seed 11 (4-card): Ann peeks twice and resigns, all by keyboard; in the replay,
    Enter on "Step forward" twice keeps the focus there and the label reads step 2 of 3."""
    ann = _seat_page(chromium, pages, web, "golf", 11, 0, layout="4")
    for k in (0, 1):
        ann.focus(f'#table [data-target="peek {k}"]')
        ann.keyboard.press("Enter")
        ann.wait_for_function(f"() => window.cardcore.version >= {k + 1}")
    ann.focus("#resign")
    ann.keyboard.press("Enter")
    ann.wait_for_selector("#resign-yes")
    ann.focus("#resign-yes")
    ann.keyboard.press("Enter")
    ann.wait_for_function("() => window.cardcore.view.is_over")
    ann.focus("#replay")
    ann.keyboard.press("Enter")
    ann.wait_for_function("() => window.cardcore.replay && window.cardcore.replay.step === 0")
    forward = '.replay button[aria-label="Step forward"]'
    ann.focus(forward)
    for k in (1, 2):
        ann.keyboard.press("Enter")
        ann.wait_for_function(f"() => window.cardcore.replay.step === {k}")
        assert ann.evaluate("document.activeElement.getAttribute('aria-label')") == "Step forward"
    assert "step 2 of 3" in ann.inner_text(".replay .label")


@needs_browser
def test_the_lobby_fits_360_px(chromium: Any, pages: list[Any], web: tuple[str, Any]) -> None:
    context = chromium.new_context(viewport={"width": 360, "height": 640})
    pages.append(context)
    page = context.new_page()
    page.goto(web[0] + "/")
    page.wait_for_selector(".lobby .panel")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
