"""Senior review of the 2026-12-18 changes (``git diff 91a0cda..HEAD``): losing on time
(``TimeControl(forfeit=True)``), ``join_wait`` and whole-number ``ServerLimits``, the seat
page's clocks and actor names, ``cardcore rules`` and HTML-like words, and Tonk's ``shown``
following the last hand's history.

Each strict xfail is a bug found here; every other test is a claim that held when run.
Everything is seeded or a stacked deck; the web tests use ``join_wait=1`` (a few seconds).
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import cardcore
from cardcore import Resign
from cardcore.cli.commands import _markdown
from cardcore.search.sampling import sample_position
from cardcore.session import MemoryStore, Session, SessionConfig, SQLiteStore, TimeControl
from cardcore.web._quota import ServerLimits
from cardcore.web._requests import WebError, time_control
from tests.session.kit import Table, table

PLAY_JS = Path(cardcore.__file__).parent / "web" / "static" / "play.js"


def _texts(game: cardcore.Game) -> list[str]:
    return [str(a) for _, a, _ in game.record_entries()]


# -- losing on time: real-time games ----------------------------------------------------------


def _spit_after_a_request(forfeit: bool) -> Table:
    """Spit (seed 11), both ready by t=1; seat 0 asks for a spit at t=2 (idle deadline 7);
    seat 1 stalls with a combine at t=3 (deadline 8): no card reached a spit pile, so seat
    0's request stands and its game's default is "nothing now"."""
    t = table("spit", time=TimeControl(turn=5.0, forfeit=forfeit))
    t.act("a", "ready", 0.5)
    t.act("b", "ready", 0.5)
    t.act("a", "spit", 1.0)
    t.act("b", "combine 3 5", 1.0)
    return t


def test_without_forfeit_a_seat_that_asked_for_a_spit_is_waited_on_by_nobody() -> None:
    """docs/session.rst: a real-time default of ``None`` means "nothing now ... so no fallback
    is played (not even "resign") and its clock starts again"."""
    t = _spit_after_a_request(forfeit=False)
    game = t.session.game
    assert game is not None
    t.tick(4.5)  # t = 7.5: seat 0's idle clock ran out at 7
    assert _texts(game) == ["ready", "ready", "spit", "combine 3 5"]
    t.tick(1.0)  # t = 8.5: seat 1's ran out: its default asks for the spit too
    assert _texts(game)[-1] == "spit" and not game.is_over


def test_forfeit_never_resigns_a_seat_its_game_says_has_nothing_to_do_now() -> None:
    t = _spit_after_a_request(forfeit=True)
    game = t.session.game
    assert game is not None
    t.tick(4.5)  # t = 7.5
    assert Resign(0) not in [a for _, a, _ in game.record_entries()], _texts(game)


def _first_to_lose_when_both_idle(seed: int) -> int | None:
    config = SessionConfig(time=TimeControl(turn=5.0, forfeit=True))
    session = Session.create("spit", 2, now=0.0, seed=seed, config=config, store=MemoryStore())
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    t.tick(5.0)  # both idle clocks started together and run out together
    game = session.game
    assert game is not None and game.is_over
    resigned = [a.seat for _, a, _ in game.record_entries() if type(a) is Resign]
    return resigned[0] if resigned else None


def test_a_simultaneous_flag_fall_is_not_decided_by_seat_number() -> None:
    losers = {_first_to_lose_when_both_idle(seed) for seed in range(1, 7)}
    assert losers != {0}


# -- losing on time: turn-based games, takebacks, restarts -----------------------------------


def test_a_pending_takeback_does_not_stop_the_requesters_clock_and_ends_with_the_game() -> None:
    """The requester's turn clock keeps running while the others have not answered (as on
    a chess server); when it runs out it resigns, and the request is gone with the game."""
    t = table("golf", time=TimeControl(turn=5.0, forfeit=True), takebacks=True)
    game = t.session.game
    assert game is not None
    for conn, text in [("a", "flip 0"), ("a", "flip 1"), ("b", "flip 0"), ("b", "flip 1")]:
        t.act(conn, text, 0.5)
    t.act("a", "take", 0.5)  # t = 2.5: seat 0's turn clock runs to 7.0
    t.send("a", {"type": "takeback", "op": "request"}, 0.5)
    assert t.session.takeback is not None and t.session.takeback["deadline"] == 63.0
    t.tick(4.5)  # t = 7.5
    assert game.is_over and game.record_entries()[-1] == (0, Resign(0), 7.0)
    assert t.session.takeback is None
    replies = t.send("b", {"type": "takeback", "op": "accept"})
    assert t.errors(replies) == ["takeback-refused"]
    assert game.result is not None and game.result.winners == (1,)


def test_a_move_sent_at_the_deadline_is_never_played_after_the_forfeit() -> None:
    """docs/session.rst: a message at a deadline is read after the timeout. Without forfeit
    it is answered ``stale``; with forfeit (turn-based) the game is over, so ``game-over``."""
    plain = table("golf", time=TimeControl(turn=5.0))
    assert plain.errors(plain.act("a", "flip 0", 5.0)) == ["stale"]
    assert plain.session.game is not None
    assert _texts(plain.session.game) == ["flip 0", "flip 1"]
    lost = table("golf", time=TimeControl(turn=5.0, forfeit=True))
    assert lost.errors(lost.act("a", "flip 0", 5.0)) == ["game-over"]
    assert lost.session.game is not None and _texts(lost.session.game) == ["resign"]


def test_forfeit_in_three_seat_tonk_ends_the_game_and_every_other_seat_wins() -> None:
    """Driven without the kit's leak check, which Tonk's schema trips (see below)."""
    config = SessionConfig(time=TimeControl(turn=5.0, forfeit=True))
    session = Session.create("tonk", 3, now=0.0, seed=11, config=config, store=MemoryStore())
    for seat in range(3):
        session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), 0.0)
    game = session.game
    assert game is not None and game.to_act == (game.to_act[0],)
    seat = game.to_act[0]
    session.tick(4.9)
    assert not game.is_over
    session.tick(5.0)
    assert game.is_over and _texts(game) == ["resign"]
    assert game.result is not None and game.result.reason == "resigned"
    assert game.result.winners == tuple(s for s in range(3) if s != seat)


def test_tonk_view_schema_names_no_card() -> None:
    from cardcore.session.patch import card_words

    schema = cardcore.new_game("tonk", 2, seed=1).view_schema()
    assert set(card_words(schema)) == set()


def test_forfeit_ignores_the_fallback_even_wait() -> None:
    t = table("golf", time=TimeControl(turn=5.0, fallback="wait", max_steps=3, forfeit=True))
    game = t.session.game
    assert game is not None
    t.tick(5.0)
    assert _texts(game) == ["resign"]


def test_forfeit_with_restart_continue_loses_the_downtime(tmp_path: Path) -> None:
    """docs/session.rst: with ``restart="continue"`` deadlines that passed while the server
    was down fire on the first tick; with forfeit that is a loss, at the old deadline."""
    path = tmp_path / "s.db"
    config = SessionConfig(time=TimeControl(turn=10.0, restart="continue", forfeit=True))
    session = Session.create("golf", 2, now=0.0, seed=5, config=config, store=SQLiteStore(path))
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    t.act("a", "flip 0", 4.0)
    resumed = Session.resume(SQLiteStore(path), session.id, now=100.0)
    resumed.tick(100.0)
    assert resumed.game is not None and resumed.game.is_over
    assert resumed.game.record_entries()[-1] == (0, Resign(0), 10.0)


def test_forfeit_with_only_a_game_clock_resigns_nobody() -> None:
    """The lobby sends ``forfeit`` with any clock: with only the whole-game clock nothing
    runs out per seat, and the game clock ends the game as the host's ``end``."""
    control = time_control({"total": 5, "forfeit": True})
    assert (control.turn, control.total, control.forfeit) == (None, 5.0, True)
    t = table("golf", time=control)
    game = t.session.game
    assert game is not None
    t.tick(5.0)
    assert game.is_over and _texts(game) == ["end"]
    assert game.result is not None and game.result.reason == "ended"


# -- ServerLimits and join_wait ---------------------------------------------------------------


@pytest.mark.parametrize("bad", [True, 3.0, 2.5, "3", -1, None])
def test_a_server_count_takes_an_int_only(bad: object) -> None:
    with pytest.raises(WebError, match=r"^max_sockets must be a whole number from 0, not "):
        ServerLimits(max_sockets=bad)  # type: ignore[arg-type]


def test_seconds_may_have_a_fraction_and_join_wait_is_read_from_the_environment() -> None:
    """(Written when join_wait had no variable; the review's doc gap added CARDCORE_JOIN_WAIT.)"""
    limits = ServerLimits(join_wait=1.5, idle_close=90.25, idle_when_full=2.5)
    assert (limits.join_wait, limits.idle_close, limits.idle_when_full) == (1.5, 90.25, 2.5)
    with pytest.raises(WebError, match=r"^join_wait must be 0 \(off\) or at least 1 second"):
        ServerLimits(join_wait=0.999)
    env = {"CARDCORE_MAX_SESSIONS": "7", "CARDCORE_IDLE_CLOSE": "2.5", "CARDCORE_JOIN_WAIT": "5"}
    read = ServerLimits.from_env(env)
    assert (read.max_sessions, read.idle_close, read.join_wait) == (7, 2.5, 5.0)
    assert type(read.max_sessions) is int  # a count read from the environment stays an int


def _closed(ws: Any) -> tuple[int, str]:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as caught:
        for _ in range(50):
            ws.receive_text()
    return caught.value.code, caught.value.reason


def test_join_wait_closes_failed_joins_and_refused_watches_and_keeps_those_that_joined() -> None:
    """With ``join_wait=3`` (1 would race a busy machine): a join refused (no such seat) and a watch refused (``full``,
    max_spectators) are closed after the wait; a spectator and a seat stay open past it; a
    seat that leaves after the wait is closed at once (the wait runs from the opening)."""
    pytest.importorskip("starlette")
    from cardcore.session import Limits
    from tests.web.helpers import create, serve

    reason = (1008, "no join or watch within 3 seconds")
    kwargs: dict[str, Any] = {"limits": Limits(max_spectators=1)}
    with serve(server_limits=ServerLimits(join_wait=3), **kwargs) as (client, _server, _dog):
        sid = create(client, "golf", [{"name": "A"}, {"name": "B"}])["session"]
        with (
            client.websocket_connect("/ws") as watcher,
            client.websocket_connect("/ws") as refused,
            client.websocket_connect("/ws") as failed,
            client.websocket_connect("/ws") as seated,
        ):
            watcher.send_json({"type": "watch", "session": sid})
            assert watcher.receive_json()["type"] == "welcome"
            refused.send_json({"type": "watch", "session": sid})
            assert refused.receive_json()["code"] == "full"
            failed.send_json({"type": "join", "session": sid, "seat": 5})
            assert failed.receive_json()["code"] == "no-seat"
            seated.send_json({"type": "join", "session": sid, "seat": 0})
            assert seated.receive_json()["type"] == "welcome"
            start = time.monotonic()
            assert _closed(refused) == reason
            assert _closed(failed) == reason
            time.sleep(max(0.0, 3.3 - (time.monotonic() - start)))
            for ws in (watcher, seated):  # past the wait, still open
                ws.send_json({"type": "ping", "t": 1})
                assert any(ws.receive_json()["type"] == "pong" for _ in range(20))
            seated.send_json({"type": "leave", "id": "bye"})
            assert _closed(seated) == reason


def test_lobby_time_refuses_a_forfeit_that_is_not_a_bool_with_the_keys_it_takes() -> None:
    with pytest.raises(WebError, match=r"^'time' takes 'turn', 'total', 'fallback' and 'forfeit'"):
        time_control({"turn": 30, "lose_on_time": True})
    with pytest.raises(WebError, match=r"must be true or false, not 'yes'"):
        time_control({"turn": 30, "forfeit": "yes"})


# -- the seat page (play.js), run under node ---------------------------------------------------


def _node(script: str) -> Any:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node")
    out = subprocess.run(
        [node, "-e", script], capture_output=True, text=True, timeout=10, check=True
    )
    return json.loads(out.stdout)


def test_the_seat_page_shows_a_clock_of_an_hour_or_more_as_hours() -> None:
    source = PLAY_JS.read_text()
    mmss = re.search(r"const mmss = (.*);\n", source)
    shown = re.search(r"text: (\(s >= 3600 \? .*\) \+ mmss) \}\);", source)
    assert mmss is not None and shown is not None
    script = (
        "const out = [];"
        "for (const s of [0, 9, 59, 61, 599, 3599, 3600, 3661, 36000, 86400]) {"
        f"const mmss = {mmss.group(1)}; out.push({shown.group(1)}); }}"
        "console.log(JSON.stringify(out));"
    )
    assert _node(script) == [
        "0:00",
        "0:09",
        "0:59",
        "1:01",
        "9:59",
        "59:59",
        "1:00:00",
        "1:01:01",
        "10:00:00",
        "24:00:00",
    ]


def test_the_seat_page_names_the_game_clock_the_host_or_a_seat() -> None:
    source = PLAY_JS.read_text()
    found = re.search(r"  function actor\(s, cause\) \{\n.*?\n  \}\n", source, re.S)
    assert found is not None
    script = (
        'const S = { players: ["Ann", "Bob"] };'
        + found.group(0)
        + 'console.log(JSON.stringify([actor(0, "timeout"), actor(1), actor(-1, "clock"),'
        ' actor(-1), actor(-1, "host"), actor(7)]));'
    )
    assert _node(script) == ["Ann", "Bob", "the game clock", "the host", "the host", "seat 7"]


# -- cardcore rules: HTML-like words -----------------------------------------------------------


def _rendered(text: str) -> str:
    console = Console(width=100, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(_markdown(text))
    out = console.export_text()
    console.file.close()
    return out


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("say wild <colour> to play it", "say wild <colour> to play it"),
        ("<colour> opens a line", "<colour> opens a line"),
        ("a <b>bold</b> tag stays as written", "a <b>bold</b> tag stays as written"),
        ("an entity &lt;reads&gt; as its character", "an entity <reads> as its character"),
        ("`wild <colour>` in code", "wild <colour> in code"),
    ],
)
def test_cardcore_rules_shows_angle_bracket_words_as_written(text: str, shown: str) -> None:
    assert shown in _rendered(text)


def test_cardcore_rules_still_renders_tables_and_strikethrough() -> None:
    out = _rendered("| rule | pays |\n|---|---|\n| TONK-OUT-1 | 2S |\n\n~~gone~~ kept\n")
    assert "TONK-OUT-1" in out and "|---|" not in out
    assert "~~" not in out and "gone kept" in out


# -- Tonk: shown follows the last hand's history -----------------------------------------------


def _deck_for(hands: list[str], dealer: int, upcard: str, stock: str) -> str:
    """A deck, top first, dealing ``hands[s]`` to seat ``s`` one card at a time from the
    dealer's left (TONK-DEAL-1), then the upcard, then the top of the stock."""
    n = len(hands)
    split = [h.split() for h in hands]
    order = [split[s][r] for r in range(5) for s in [(dealer + k) % n for k in range(1, n + 1)]]
    return " ".join([*order, upcard, *stock.split()])


def _public_hand_after_a_tonk_out() -> cardcore.Game:
    """The Tonk referee's deal (two seats, seat 1 deals, hands=2): P1 ends hand 1 holding only
    the 8C it took from the discards, publicly; P0 tonks out. Phase ``between``."""
    hands = ["2S 3S 4S 9D 9H", "5C 6C 7C KD 5S"]
    game = cardcore.new_game(
        "tonk",
        2,
        deck=_deck_for(hands, 1, "QC", "JD JS 8C 9C"),
        seed=43,
        options={"first_dealer": 1, "hands": 2},
    )
    moves = [
        (0, "draw"),
        (0, "spread 2S 3S 4S"),
        (0, "discard JD"),
        (1, "draw"),
        (1, "spread 5C 6C 7C"),
        (1, "discard JS"),
        (0, "draw"),
        (0, "discard 8C"),
        (1, "take"),
        (1, "hit 1 5S"),
        (1, "discard KD"),
        (0, "draw"),
        (0, "spread 9D 9H 9C"),
    ]
    for seat, text in moves:
        game.act(seat, text)
    return game


def _hand(view: dict[str, Any], seat: int) -> list[str | None]:
    zone = next(z for z in view["zones"] if z["name"] == f"hand.{seat}")
    cards: list[str | None] = zone["cards"]
    return cards


def test_tonk_a_hand_of_taken_cards_shows_after_a_tonk_out_but_is_not_marked_shown() -> None:
    """docs/games/tonk.rst: "A hand made wholly of taken cards therefore shows, even after a
    tonk-out, though it was not turned face up (``shown`` stays false)"."""
    game = _public_hand_after_a_tonk_out()
    assert game.history(None)[-1]["shown"] is None
    for viewer in (0, None):
        view = game.view(viewer)
        assert view["table"]["phase"] == "between"
        assert view["table"]["shown"] == [False, False]
        assert _hand(view, 1) == ["8C"]


def test_tonk_a_position_between_hands_reads_back_the_same_shown() -> None:
    game = _public_hand_after_a_tonk_out()
    copy = cardcore.new_game(
        "tonk", 2, position=game.position(), seed=1, options={"first_dealer": 1, "hands": 2}
    )
    assert copy.view(0)["table"]["shown"] == game.view(0)["table"]["shown"]


def test_tonk_a_sample_of_a_view_between_hands_shows_the_same_table() -> None:
    game = _public_hand_after_a_tonk_out()
    view = game.view(0)
    text = sample_position(view, random.Random(3))
    sample = cardcore.new_game("tonk", 2, position=text, seed=2, options={"hands": 2})
    assert sample.view(0)["table"] == view["table"]


def test_tonk_a_natural_shows_only_its_holder_and_a_void_deal_both_naturals() -> None:
    natural = "tonk.natural-49-50"
    options = {"first_dealer": 1, "hands": 2}
    one = cardcore.new_game(
        "tonk",
        2,
        deck=_deck_for(["KS KH KD KC QS", "2C 3D 4H 5S 7C"], 1, "9H", "AD 2D"),
        seed=3,
        rules=[natural],
        options=options,
    )
    assert one.view(1)["table"]["shown"] == [True, False]
    assert sorted(c for c in _hand(one.view(1), 0) if c) == ["KC", "KD", "KH", "KS", "QS"]
    assert _hand(one.view(0), 1) == [None] * 5  # the loser's hand stays hidden
    assert one.history(None)[-1]["shown"][1] is None
    void = cardcore.new_game(
        "tonk",
        2,
        deck=_deck_for(["KS KH KD KC QS", "QH QD QC JS JH"], 1, "9H", "AD 2D"),
        seed=3,
        rules=[natural],
        options=options,
    )
    assert void.history(None)[-1]["reason"] == "void"
    assert void.view(None)["table"]["shown"] == [True, True]


def test_tonk_a_resign_mid_hand_shows_no_hand_though_the_last_hand_showed_all() -> None:
    """``shown`` is read only between hands and at the end: after a drop (every hand shown)
    a resignation during the next hand marks nothing face up."""
    game = cardcore.new_game(
        "tonk",
        2,
        deck=_deck_for(["2S 3S 4S 9D 9H", "5C 6C 7C KD 5S"], 1, "QC", "JD"),
        seed=43,
        options={"first_dealer": 1, "hands": 2},
    )
    game.act(0, "drop")
    assert game.view(None)["table"]["shown"] == [True, True]
    game.act(game.to_act[0], "deal")
    game.act(0, "resign")
    assert game.is_over
    assert game.view(None)["table"]["shown"] == [False, False]


# -- docs/notation.rst: the 53 card codes -------------------------------------------------------


def test_the_core_knows_53_card_codes() -> None:
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    codes = [r + s for r in ranks for s in "SHDC"] + ["JK"]
    cards = {cardcore.Card.parse(c) for c in codes}
    assert len(cards) == 53 and sorted(map(str, cards)) == sorted(codes)
    for other in ("R7", "1H", "11S", "JH2", "BK"):
        with pytest.raises(cardcore.NotationError):
            cardcore.Card.parse(other)
