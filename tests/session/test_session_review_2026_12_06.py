"""Session layer review (2026-12-06): patches, the reference client, clocks, takebacks,
fair deals and tokens. One strict xfail per bug found; a passing test per claim that holds.

Everything runs on a virtual clock (the session is sans I/O): no sleeps, no threads.
"""

from __future__ import annotations

import copy
import hmac
import json
import random
from typing import Any

import pytest

from cardcore import CardcoreError, CorruptStateError
from cardcore.errors import OptionError
from cardcore.session import (
    FairDealError,
    Mirror,
    Session,
    SessionConfig,
    StreamGapError,
    TimeControl,
    apply_patch,
    diff,
    verify_bundle,
)
from cardcore.session import tokens as tokens_module
from cardcore.session.clocks import GAME_CLOCK, Clocks
from cardcore.session.tokens import hash_token, new_token, token_matches
from tests.session.kit import CONNS, Table, table

# -- helpers ---------------------------------------------------------------------------------


def _golf_to_play(t: Table) -> str:
    """Play Golf's setup flips; return the connection whose turn it is (draw or take)."""
    for _ in range(20):
        game = t.session.game
        assert game is not None
        conn = CONNS[game.to_act[0]]
        if "draw" in t.legal(conn):
            return conn
        t.act(conn, t.legal(conn)[0], dt=1.0)
    raise AssertionError("golf setup did not end")


def _errors(replies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in replies if r["type"] == "error"]


def _view_msg(n: int, version: int, view: Any) -> dict[str, Any]:
    return {
        "type": "view",
        "n": n,
        "version": version,
        "view": view,
        "reason": "start",
        "phase": "playing",
    }


def _update_msg(n: int, version: int, patch: Any) -> dict[str, Any]:
    action = {"seat": 0, "text": "x", "at": 1.0, "cause": "player"}
    return {
        "type": "update",
        "n": n,
        "version": version,
        "action": action,
        "events": [],
        "patch": patch,
    }


def _mirror_state(m: Mirror) -> dict[str, Any]:
    return copy.deepcopy({k: v for k, v in vars(m).items()})


# -- patches -----------------------------------------------------------------------------------


def _random_doc(rnd: random.Random, depth: int = 0) -> Any:
    kind = rnd.randrange(6 if depth < 3 else 3)
    if kind == 0:
        return rnd.choice([0, 1, 2, None])  # (bool and float against int: see the xfail below)
    if kind == 1:
        return rnd.choice(["QS", "10H", "a", ""])
    if kind == 2:
        return rnd.randrange(4)
    if kind == 3:
        return [_random_doc(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    return {rnd.choice("abcd"): _random_doc(rnd, depth + 1) for _ in range(rnd.randrange(4))}


def test_claim_apply_patch_of_diff_rebuilds_the_new_document_and_leaves_the_old() -> None:
    rnd = random.Random(20261206)
    for _ in range(400):
        old, new = _random_doc(rnd), _random_doc(rnd)
        if rnd.random() < 0.5 and isinstance(old, dict):  # close documents, patched in place
            new = copy.deepcopy(old)
            new[rnd.choice("abcd")] = _random_doc(rnd)
        kept = copy.deepcopy(old)
        ops = diff(old, new)
        got = apply_patch(old, ops)
        assert json.dumps(got, sort_keys=True) == json.dumps(new, sort_keys=True)
        assert old == kept and json.dumps(old) == json.dumps(kept)
        assert json.loads(json.dumps(ops)) == ops  # the patch is JSON


def test_claim_diff_tells_1_1_0_and_true_apart_at_the_top_of_a_list() -> None:
    assert diff([1, 2, 3], [1, 2, True]) == [["set", [2], True]]
    assert diff(1, 1.0) == [["set", [], 1.0]]


def test_diff_sees_a_nested_change_between_1_and_true() -> None:
    for old, new in [
        ({"a": 1}, {"a": True}),
        ({"a": {"b": 0}}, {"a": {"b": False}}),
        ([[1]], [[1.0]]),
    ]:
        got = apply_patch(old, diff(old, new))
        assert json.dumps(got) == json.dumps(new), (old, new, diff(old, new))


@pytest.mark.parametrize(
    "ops",
    [
        "set",
        [["set"]],
        [["put", ["a"], 1]],
        [["del", []]],
        [["set", [], 1, 2]],
        [["set", ["a", "b"], 1]],
        [["del", ["zz"]]],
        [["set", ["b", 9], 1]],
        [["set", [["x"]], 1]],
        [["set", ["b"]]],
    ],
)
def test_claim_apply_patch_refuses_a_malformed_patch_with_corrupt_state(ops: Any) -> None:
    doc = {"a": 1, "b": [1, 2]}
    with pytest.raises(CorruptStateError):
        apply_patch(doc, ops)
    assert doc == {"a": 1, "b": [1, 2]}


def test_claim_apply_patch_refuses_a_document_nested_too_deep() -> None:
    deep: Any = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(CorruptStateError):
        apply_patch({}, [["set", ["a"], deep]])


def test_apply_patch_refuses_paths_of_the_wrong_kind() -> None:
    # The docs: a path is object keys (strings) and list indexes; a server never sends these.
    for doc, ops in [
        ({"a": 1}, [["set", [0], 5]]),  # becomes {"a": 1, 0: 5}: not a JSON object
        ([1, 2], [["set", [True], 5]]),  # a JSON true read as index 1
        ([1, 2, 3], [["del", [-1]]]),  # a JavaScript client does nothing here
    ]:
        with pytest.raises(CorruptStateError):
            apply_patch(doc, ops)


# -- the reference client (Mirror) -------------------------------------------------------------


def test_mirror_patch_that_does_not_fit_leaves_the_mirror_unchanged() -> None:
    m = Mirror()
    m.feed(_view_msg(1, 0, {"a": 1}))
    before = _mirror_state(m)
    with pytest.raises(CardcoreError):
        m.feed(_update_msg(2, 1, [["set", ["x", "y"], 1]]))
    assert _mirror_state(m) == before  # last is 2 here: the client would resync from 2


def test_mirror_malformed_message_is_a_library_error_and_changes_nothing() -> None:
    for bad in [
        {"type": "welcome", "session": "s1"},  # no seat: session is set, then KeyError
        {"type": "update", "n": 2},
        {"type": "view", "n": "5", "version": 1, "view": {}},
        {"type": "update", "n": 2, "version": None, "patch": []},
        "not a message",
    ]:
        m = Mirror()
        m.feed(_view_msg(1, 0, {"a": 1}))
        before = _mirror_state(m)
        with pytest.raises(CardcoreError):
            m.feed(bad)  # type: ignore[arg-type]
        assert _mirror_state(m) == before


def test_claim_mirror_refuses_a_gap_and_an_old_update_without_change() -> None:
    m = Mirror()
    m.feed(_view_msg(1, 0, {"a": 1}))
    m.feed(_update_msg(2, 1, [["set", ["a"], 2]]))
    before = _mirror_state(m)
    with pytest.raises(StreamGapError):
        m.feed(_update_msg(4, 2, []))
    with pytest.raises(StreamGapError):
        m.feed(_update_msg(3, 1, []))  # not a later version
    assert _mirror_state(m) == before
    m.feed(_update_msg(2, 1, [["set", ["a"], 99]]))  # received twice: ignored
    assert m.view == {"a": 2} and m.last == 2
    m.feed(_view_msg(1, 0, {"a": 0}))  # a view numbered below its own: ignored
    assert m.view == {"a": 2}


def test_claim_mirror_takes_a_lower_last_from_a_welcome_and_the_view_after_it() -> None:
    m = Mirror()
    m.feed(_view_msg(9, 3, {"a": 3}))
    m.feed({"type": "welcome", "session": "s", "seat": 0, "phase": "playing", "last": 4})
    m.feed(_view_msg(4, 2, {"a": 2}))
    assert (m.last, m.version, m.view) == (4, 2, {"a": 2})


def test_claim_a_session_rejoin_with_a_last_too_high_gets_a_lower_view() -> None:
    t = table("golf", 2, watch=False)
    conn = _golf_to_play(t)
    seat = int(CONNS.index(conn))
    n = t.mirrors[conn].last
    t.disconnect(conn)
    t.mirrors[conn].last = n + 50
    replies = t.join(conn, seat)
    welcome = next(r for r in replies if r["type"] == "welcome")
    assert welcome["last"] == n
    assert t.mirrors[conn].last == n
    game = t.session.game
    assert game is not None and t.mirrors[conn].view == game.view(seat)


# -- whole sessions: every patch adds up to the seat's view ------------------------------------


def _random_play(t: Table, rnd: random.Random, steps: int) -> int:
    """Play random legal actions with takebacks asked, answered, disconnects and late ticks;
    the kit checks every message (no leak; each rebuilt view equals the seat's view)."""
    granted = 0
    for _ in range(steps):
        game = t.session.game
        assert game is not None
        if game.is_over:
            break
        seat = game.to_act[0]
        conn = CONNS[seat]
        if conn not in t.session.conns:
            t.join(conn, seat)
        t.act(conn, rnd.choice(t.legal(conn)), dt=0.5)
        if rnd.random() < 0.5 and not t.session.game.is_over:  # type: ignore[union-attr]
            asked = t.send(conn, {"type": "takeback", "op": "request"})
            if not _errors(asked):
                op = rnd.choice(["accept", "accept", "decline"])
                answered = t.send(CONNS[1 - seat], {"type": "takeback", "op": op})
                granted += op == "accept" and not _errors(answered)
        if rnd.random() < 0.15:
            t.disconnect(CONNS[rnd.randrange(2)])
        if rnd.random() < 0.1:
            t.tick(rnd.choice([1.0, 40.0]))
        for other in range(2):  # a seat away for a while joins again with its last
            if CONNS[other] not in t.session.conns and rnd.random() < 0.5:
                t.join(CONNS[other], other)
    return granted


@pytest.mark.parametrize(("game", "delay"), [("golf", 0), ("golf", 2), ("tonk", 1)])
def test_claim_mirrors_rebuild_each_view_through_takebacks_rejoins_and_timeouts(
    game: str, delay: int
) -> None:
    options = {"hands": 6} if game == "tonk" else None
    t = table(
        game, 2, takebacks=True, spectator_delay=delay, time=TimeControl(turn=30.0), options=options
    )
    granted = _random_play(t, random.Random(7), 70)
    assert t.leaks.checked > 60
    session_game = t.session.game
    assert session_game is not None
    for seat in range(2):
        conn = CONNS[seat]
        if conn in t.session.conns:
            assert t.mirrors[conn].view == session_game.view(seat)
    if game == "golf":
        assert granted > 0  # the run did take actions back


def test_claim_a_spectator_rebuilds_the_end_of_a_game() -> None:
    t = table("tonk", 2, spectator_delay=2, options={"hands": 1})
    game = t.session.game
    assert game is not None
    t.act(CONNS[game.to_act[0]], "drop", dt=1.0)
    game = t.session.game
    assert game is not None and game.is_over
    assert t.mirrors["w"].view == game.view(None)
    for seat in range(2):
        assert t.mirrors[CONNS[seat]].view == game.view(seat)


def test_claim_spectators_history_stops_at_the_rounds_of_the_version_they_see() -> None:
    t = table("tonk", 2, spectator_delay=2, options={"hands": 3})
    game = t.session.game
    assert game is not None
    t.act(CONNS[game.to_act[0]], "drop", dt=1.0)  # the hand ends: a round over, hands shown
    game = t.session.game
    assert game is not None and not game.is_over
    assert len(game.history(None)) > t.session.spec.rounds
    spectator = t.send("w", {"type": "history"})[0]
    assert spectator["rounds"] == game.history(None)[: t.session.spec.rounds]
    seat = t.send("a", {"type": "history"})[0]
    assert seat["rounds"] == game.history(0)


def test_claim_in_real_time_a_seat_is_shown_only_its_own_idle_clock() -> None:
    t = table("spit", 2, time=TimeControl(turn=5.0))
    for i in range(16):
        game = t.session.game
        assert game is not None
        if game.is_over:
            break
        movers = [s for s in game.to_act if t.legal(CONNS[s])]
        if movers and i % 4:
            t.act(CONNS[movers[0]], t.legal(CONNS[movers[0]])[-1], dt=0.3)
        else:
            t.tick(3.0)
    shown = [(o.conn, o.message["clocks"]) for o in t.outbound if "clocks" in o.message]
    assert len(shown) > 10
    assert not [o.conn for o in t.outbound if o.conn == "w" and "clocks" in o.message]
    for conn, clocks in shown:
        assert set(clocks["turn"]) <= {str(CONNS.index(conn))}, (conn, clocks)


def test_an_action_text_naming_a_hidden_card_is_not_shown_for_a_display_name() -> None:
    from cardcore.session.patch import may_show

    game = __import__("cardcore").new_game("golf", ["QS", "Bob"], seed=3)
    view = game.view(1)
    assert "QS" in view["players"]
    hidden = {"players": view["players"], "zones": []}  # QS lies in no pile the seat sees
    assert not may_show("discard QS", hidden, hidden)


# -- tokens ------------------------------------------------------------------------------------


def test_claim_a_token_is_32_random_bytes_and_its_hash_is_bound_to_session_and_seat() -> None:
    token = new_token()
    assert len(token) == 43 and token != new_token()
    digest = hash_token(token, "s1", 0)
    assert token_matches(token, digest, "s1", 0)
    assert not token_matches(token, digest, "s1", 1)
    assert not token_matches(token, digest, "s2", 0)
    assert not token_matches(token, hash_token(token), "s1", 0)
    assert not token_matches(token + "x", digest, "s1", 0)


def test_claim_tokens_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Any, Any]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(tokens_module.hmac, "compare_digest", spy)
    digest = hash_token("t", "s", 0)
    assert token_matches("t", digest, "s", 0)
    assert calls == [(digest.encode(), digest.encode())]  # as bytes: a stored non-ASCII one is no TypeError


def test_token_hash_binding_is_unambiguous_for_every_id_a_session_takes() -> None:
    """hash_token joins session id, seat and token with NULs: an id holding NUL could make
    two places hash alike (seat 1 of "a\\0" + "0" and seat 0 of "a" with a token starting
    "1\\0"), so no session takes such an id (fixed: it was accepted)."""
    token = new_token()
    assert hash_token(token, "a\x000", 1) == hash_token("1\x00" + token, "a", 0)  # the premise
    with pytest.raises(OptionError, match="NUL"):
        Session.create("golf", 2, now=0.0, seed=1, session_id="a\x000")
    assert Session.create("golf", 2, now=0.0, seed=1, session_id="a0").id == "a0"


def test_claim_session_tokens_bad_reused_and_expired() -> None:
    t = table("tonk", 2, watch=False, options={"hands": 1}, token_ttl=100.0)
    token = t.mirrors["a"].token
    assert token is not None
    t.disconnect("a")
    other = t.mirrors["b"].token
    replies = t.send("x", {"type": "join", "seat": 0, "token": other})
    assert [e["code"] for e in _errors(replies)] == ["bad-token"]
    replies = t.send("x", {"type": "join", "seat": 0})
    assert [e["code"] for e in _errors(replies)] == ["seat-taken"]
    replies = t.send("a2", {"type": "join", "seat": 0, "token": token})
    assert not _errors(replies) and "token" not in replies[0]  # shown once only
    game = t.session.game
    assert game is not None
    t.act(CONNS[game.to_act[0]] if CONNS[game.to_act[0]] != "a" else "a2", "drop", dt=1.0)
    assert t.session.phase == "over"
    ended = t.session.ended
    assert ended is not None
    t.now = ended + 99.0
    assert not _errors(t.send("a3", {"type": "join", "seat": 0, "token": token}))
    t.now = ended + 100.0
    replies = t.send("a4", {"type": "join", "seat": 0, "token": token})
    assert [e["code"] for e in _errors(replies)] == ["token-expired"]


# -- clocks ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad", [0, -1, 0.0, float("nan"), float("inf"), -float("inf"), True, 10**400, "5"]
)
def test_claim_time_controls_refuse_times_that_are_not_positive_finite_numbers(bad: Any) -> None:
    with pytest.raises(OptionError):
        TimeControl(turn=bad)
    with pytest.raises(OptionError):
        TimeControl(total=bad)
    with pytest.raises(OptionError):
        SessionConfig(takeback_timeout=bad)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), 1e16, True, "1"])
def test_claim_a_bad_now_is_refused_at_creation_and_changes_nothing_later(bad: Any) -> None:
    with pytest.raises(OptionError):
        Session.create("golf", 2, now=bad, seed=1)
    t = table("golf", 2, time=TimeControl(turn=10.0), watch=False)
    version = t.session.game.version  # type: ignore[union-attr]
    now = t.session.now
    assert t.session.tick(bad) == []
    assert t.session.handle("a", '{"type": "ping"}', bad)  # answered, at the session's time
    assert t.session.now == now and t.session.game.version == version  # type: ignore[union-attr]


def test_claim_time_never_runs_backwards() -> None:
    t = table("golf", 2, time=TimeControl(turn=10.0), watch=False)
    t.session.tick(5.0)
    t.session.tick(-1e9)
    assert t.session.now == 5.0
    assert t.session.next_deadline() == 10.0


def test_claim_clocks_ties_game_clock_first_then_an_order_drawn_from_the_seed() -> None:
    clocks = Clocks(TimeControl(turn=5.0, total=5.0), realtime=False)
    clocks.start([0, 1], 0.0)
    assert clocks.due(4.999) is None
    assert clocks.due(5.0, "x") == (5.0, GAME_CLOCK)
    clocks.total = None
    firsts = {clocks.due(5.0, f"seed{i}")[1] for i in range(40)}  # type: ignore[index]
    assert firsts == {0, 1}  # never always the lower seat
    assert clocks.due(5.0, "same") == clocks.due(5.0, "same")
    clocks.turn = {0: 5.0, 1: 4.0}
    assert clocks.due(100.0, "x") == (4.0, 1)  # the earliest first


def test_claim_a_turn_of_several_actions_shares_one_clock() -> None:
    t = table("golf", 2, time=TimeControl(turn=10.0), watch=False)
    conn = _golf_to_play(t)
    seat = CONNS.index(conn)
    deadline = t.session.clocks.turn[seat]
    t.act(conn, "draw", dt=3.0)
    assert t.session.clocks.turn[seat] == deadline
    assert t.mirrors[conn].clocks == {"turn": {str(seat): deadline}, "total": None}


def test_claim_a_late_tick_plays_each_timeout_at_its_own_deadline() -> None:
    t = table("golf", 2, time=TimeControl(turn=10.0), watch=False)
    _golf_to_play(t)
    game = t.session.game
    assert game is not None
    version = game.version
    first = t.session.next_deadline()
    assert first is not None
    t.tick(first + 35.0 - t.now)
    entries = game.record_entries()[version:]
    assert len(entries) >= 6
    times = sorted({at for _, _, at in entries})
    assert times == [first + 10.0 * i for i in range(len(times))]
    assert all(t.session.cause(v) == "timeout" for v in range(version + 1, game.version + 1))


def _timeouts_until(end: float, *, late: bool) -> list[tuple[int, str, float | None]]:
    t = table("golf", 2, time=TimeControl(turn=10.0, max_steps=1), watch=False)
    _golf_to_play(t)
    if late:
        t.now = end
        t.tick()
    else:
        while (deadline := t.session.next_deadline()) is not None and deadline <= end:
            t.now = deadline
            t.tick()
    game = t.session.game
    assert game is not None
    return [(s, str(a), at) for s, a, at in game.record_entries()]


def test_claim_ticks_on_time_play_a_turn_cut_short_by_max_steps_on_its_deadlines() -> None:
    entries = _timeouts_until(60.0, late=False)
    timed = [e for e in entries if e[2] is not None and e[2] >= 14.0]
    assert [at for _, _, at in timed] == [14.0, 24.0, 34.0, 44.0, 54.0]


def test_a_late_tick_plays_the_same_timeouts_as_ticks_on_time() -> None:
    assert _timeouts_until(60.0, late=True) == _timeouts_until(60.0, late=False)


def test_claim_forfeit_resigns_on_time() -> None:
    t = table("golf", 2, time=TimeControl(turn=10.0, forfeit=True), watch=False)
    conn = _golf_to_play(t)
    seat = CONNS.index(conn)
    t.tick_to_next()
    game = t.session.game
    assert game is not None and game.is_over
    assert str(game.record_entries()[-1][1]) == "resign"
    assert game.result is not None and list(game.result.winners) == [1 - seat]
    assert t.session.cause(game.version) == "timeout"


def test_claim_a_move_at_the_deadline_is_read_after_the_timeout() -> None:
    t = table("golf", 2, time=TimeControl(turn=10.0), watch=False)
    conn = _golf_to_play(t)
    deadline = t.session.next_deadline()
    assert deadline is not None
    t.now = deadline
    replies = t.act(conn, "draw")
    assert [e["code"] for e in _errors(replies)] == ["stale"]


def test_claim_the_game_clock_ends_the_match_as_the_clock() -> None:
    t = table("golf", 2, time=TimeControl(total=30.0), watch=False)
    t.tick(30.0)
    game = t.session.game
    assert game is not None and game.is_over
    assert t.session.cause(game.version) == "clock"


# -- takebacks ---------------------------------------------------------------------------------


def test_claim_a_card_drawn_cannot_be_taken_back_to_draw_again() -> None:
    t = table("golf", 2, takebacks=True)
    conn = _golf_to_play(t)
    other = CONNS[1 - CONNS.index(conn)]
    replies = t.send(other, {"type": "takeback", "op": "request"})
    assert [e["code"] for e in _errors(replies)] == ["takeback-refused"]  # not its action
    t.act(conn, "draw", dt=1.0)
    replies = t.send(conn, {"type": "takeback", "op": "request"})
    (error,) = _errors(replies)
    assert error["code"] == "takeback-refused" and "'draw' revealed a card" in error["message"]
    assert t.session.takeback is None


def test_claim_taking_the_discard_back_is_allowed_and_every_picture_rebuilds() -> None:
    t = table(
        "golf", 2, takebacks=True, spectator_delay=0, time=TimeControl(turn=20.0, total=500.0)
    )
    conn = _golf_to_play(t)
    seat = CONNS.index(conn)
    other = CONNS[1 - seat]
    game = t.session.game
    assert game is not None
    version = game.version
    total = t.session.clocks.total
    t.act(conn, "take", dt=2.0)
    assert not _errors(t.send(conn, {"type": "takeback", "op": "request"}, dt=1.0))
    own = t.send(conn, {"type": "takeback", "op": "accept"})
    assert [e["code"] for e in _errors(own)] == ["takeback-refused"]  # not its own request
    assert not [o for o in t.outbound if o.conn == "w" and o.message["type"] == "takeback"]
    assert not _errors(t.send(other, {"type": "takeback", "op": "accept"}, dt=1.0))
    game = t.session.game
    assert game is not None and game.version == version
    for c, s in [(conn, seat), (other, 1 - seat), ("w", None)]:
        assert t.mirrors[c].view == game.view(s)
    assert t.session.clocks.turn[seat] == t.now + 20.0  # a whole clock again
    assert t.session.clocks.total == total  # the game clock runs on


@pytest.mark.parametrize("end", ["decline", "move", "timeout"])
def test_claim_a_takeback_request_ends_on_decline_a_move_or_its_timeout(end: str) -> None:
    t = table("golf", 2, takebacks=True, takeback_timeout=5.0, watch=False)
    conn = _golf_to_play(t)
    other = CONNS[1 - CONNS.index(conn)]
    t.act(conn, "take", dt=1.0)
    assert not _errors(t.send(conn, {"type": "takeback", "op": "request"}))
    assert t.mirrors[other].takeback is not None
    if end == "decline":
        t.send(other, {"type": "takeback", "op": "decline"})
        op = "declined"
    elif end == "move":
        t.act(conn, t.legal(conn)[0], dt=1.0)
        op = "cancelled"
    else:
        deadline = t.session.takeback["deadline"]  # type: ignore[index]
        assert deadline == t.now + 5.0
        t.now = deadline - 0.001
        t.tick()
        assert t.session.takeback is not None
        t.now = deadline
        t.tick()
        op = "expired"
    assert t.session.takeback is None and t.mirrors[other].takeback is None
    assert t.mirrors[conn].takeback is None
    kinds = [
        o.message.get("op")
        for o in t.outbound
        if o.conn == other and o.message["type"] == "takeback"
    ]
    assert kinds[-1] == op


def test_claim_spectators_that_never_saw_the_action_get_no_takeback_view() -> None:
    t = table("golf", 2, takebacks=True, spectator_delay=2)
    conn = _golf_to_play(t)
    other = CONNS[1 - CONNS.index(conn)]
    t.act(conn, "take", dt=1.0)
    seen = t.mirrors["w"].last
    t.send(conn, {"type": "takeback", "op": "request"})
    t.send(other, {"type": "takeback", "op": "accept"})
    assert t.mirrors["w"].last == seen  # nothing reached the spectators
    assert t.session.spec.released <= t.session.game.version  # type: ignore[union-attr]


def test_claim_takebacks_are_refused_in_real_time() -> None:
    t = table("spit", 2, takebacks=True, watch=False)
    replies = t.send("a", {"type": "takeback", "op": "request"})
    assert [e["code"] for e in _errors(replies)] == ["takeback-refused"]


# -- fair deals --------------------------------------------------------------------------------


def _fair_tonk_over() -> tuple[Table, str]:
    t = table("tonk", 2, fair=True, seat_entropy=True, options={"hands": 1}, watch=False)
    assert t.session.phase == "waiting"
    commitment = t.mirrors["a"].lobby["commitment"]  # type: ignore[index]
    t.send("a", {"type": "entropy", "value": "ann's dice"})
    t.send("b", {"type": "entropy", "value": "bob"})
    game = t.session.game
    assert game is not None
    t.act(CONNS[game.to_act[0]], "drop", dt=1.0)
    assert t.session.phase == "over"
    return t, commitment


def test_claim_a_fair_deal_is_revealed_at_the_end_and_verifies() -> None:
    t, commitment = _fair_tonk_over()
    bundle = t.mirrors["a"].bundle
    assert bundle is not None and bundle == t.mirrors["b"].bundle
    report = verify_bundle(dict(bundle), commitment)
    assert report.entropy == ("ann's dice", "bob") and report.chance == 3
    for key, value in [("entropy", ["other", "bob"]), ("seed", bundle["seed"] + 1)]:
        with pytest.raises(FairDealError):
            verify_bundle({**bundle, key: value}, commitment)
    with pytest.raises(FairDealError):
        verify_bundle(dict(bundle), "0" * 64)
    with pytest.raises(FairDealError):
        verify_bundle({**bundle, "chance": 2})


def test_claim_entropy_once_set_cannot_be_changed() -> None:
    t = table("tonk", 2, fair=True, seat_entropy=True, watch=False)
    assert not _errors(t.send("a", {"type": "entropy", "value": "one"}))
    assert not _errors(t.send("a", {"type": "entropy", "value": "one"}))
    replies = t.send("a", {"type": "entropy", "value": "two"})
    assert [e["code"] for e in _errors(replies)] == ["entropy-refused"]
    assert t.session.fair is not None and t.session.fair.entropy[0] == "one"


def test_claim_a_fair_deal_refuses_a_fixed_seed_or_a_stacked_deck() -> None:
    with pytest.raises(CardcoreError):
        Session.create("golf", 2, now=0.0, seed=3, config=SessionConfig(fair=True))
    deck = [str(c) for c in __import__("cardcore").new_game("golf", 2, seed=1).state.zones.cards[0]]
    with pytest.raises(FairDealError):
        Session.create("golf", 2, now=0.0, deck=deck, config=SessionConfig(fair=True))


def test_claim_the_server_seed_is_not_in_the_repr_nor_sent_before_the_end() -> None:
    t = table("tonk", 2, fair=True, options={"hands": 1})
    fair = t.session.fair
    assert fair is not None
    secret = fair.server_seed.hex()
    assert secret not in repr(fair) and fair.salt.hex() not in repr(fair)
    game = t.session.game
    assert game is not None
    before_end = [o.text for o in t.outbound]
    assert not any(secret in text for text in before_end)
    t.act(CONNS[game.to_act[0]], "drop", dt=1.0)
    assert any(secret in o.text for o in t.outbound if o.message["type"] == "reveal")
