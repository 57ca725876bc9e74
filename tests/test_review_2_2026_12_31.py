"""Second review (2026-12-31) of 4cc3184 (with de71de4 and 36c8573 for context): a stored
session "over" whose rebuilt game is not over is truncated on resume; Tonk's stake check on
positions applies only without a ``score_round`` rule; ``Outbound`` pickles, copies, compares
by ``isinstance`` and decodes its message lazily.

Claims that hold (passing tests): phase "over" is only ever set by ``_finish`` once the game is
over, so a session over by a resignation, the host's end or a lost clock replays to an over
game with its own reason and is never truncated; a resume after a bound since raised writes
nothing to the store and numbers no new message, its seat views and record are the live
session's, ``replay(record())`` gives the same result, a fair-deal session reveals the same
bundle; Tonk's payouts other than ``score_round`` (``tonk_out_units``) stay multiples of the
stake, a third-party ``score_round`` game's positions and samples read back; ``Outbound``
pickles (a subclass too) under every protocol, copies are independent, equality and hash agree
across a subclass, the message argument is unused, fields are read-only.

Findings (strict xfails when written, fixed since: the spectators' picture is refreshed after the
truncation, a session that ended then was closed is truncated too (judged by its end time),
the first decode of a message takes a lock):

* After such a resume the spectators' picture is the game before the truncation: ``_replay``'s
  ``capture`` sets ``spec.view`` (and ``_spec_now``) at the released version, then
  ``game.truncate()`` runs and nothing refreshes them: a spectator who watches gets a view
  with ``is_over`` false and a seat to act in a session whose phase is "over" (the live
  session showed the truncated view).
* A session that ended at the old bound and was then closed by the host (phase "closed")
  resumes with a live game: the check reads ``phase == "over"`` only, so ``record()`` (given
  for closed sessions) loses its result and ``truncated`` flag. ``ended`` (set only by
  ``_finish``) would tell a closed game that had ended from one closed mid-game.
* ``Outbound.message`` is not decoded "once": two threads that read it first at the same time
  each decode their own dict; one of them is not the message kept, so a change made through it
  is lost (the old dataclass held one object).
"""

from __future__ import annotations

import contextlib
import copy
import json
import pickle
import random
import threading
import types
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import RuleInfo, hookimpl
from cardcore.session import MemoryStore, Outbound, Session, SessionConfig, TimeControl

# -- 1. resuming a session whose game ended at a bound since raised ----------------------------


def _golf_bound(monkeypatch: pytest.MonkeyPatch, bound: Any) -> None:
    """Make GolfLogic.action_bound *bound* and forget the bounds the default configuration
    cached, as a fresh process would (the mechanism of Spit's raised bound, on a short game)."""
    from cardcore_golf.logic import GolfLogic

    monkeypatch.setattr(GolfLogic, "action_bound", bound)
    ruleset = cardcore.new_game("golf", 2, seed=1).logic.ruleset
    monkeypatch.setattr(ruleset, "checked", {})


def _act(session: Session, rng: random.Random, now: float) -> None:
    game = session.game
    assert game is not None
    seat = game.to_act[0]
    text = str(rng.choice(game.legal_actions(seat)))
    msg = {"type": "act", "action": text, "seat": seat, "seen": game.version}
    session.handle("ab"[seat], json.dumps(msg), now=now)


def _session(store: MemoryStore, config: SessionConfig | None = None) -> Session:
    fair = config is not None and config.fair
    seed = None if fair else 3  # (a fair deal draws its own: pinned by the caller)
    session = Session.create("golf", 2, now=0.0, seed=seed, store=store, config=config)
    session.handle("a", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("b", '{"type": "join", "seat": 1}', now=2.0)
    return session


def _play_to_bound(
    monkeypatch: pytest.MonkeyPatch, store: MemoryStore, config: SessionConfig | None = None
) -> tuple[Session, float]:
    """A Golf session played (seeded) until a bound of 12 truncates it; the bound then raised
    back to the game's own (a stored game that ended at a bound since raised)."""
    from cardcore_golf.logic import GolfLogic

    own = GolfLogic.action_bound
    _golf_bound(monkeypatch, lambda self, players, options: 12)
    session, now, rng = _session(store, config), 3.0, random.Random(0)
    for _ in range(100):
        if session.game is None or session.game.is_over:
            break
        now += 1.0
        _act(session, rng, now)
    assert session.game is not None and session.phase == "over"
    assert session.game.version == 12 and session.game.result is not None
    assert session.game.result.reason == "truncated"
    _golf_bound(monkeypatch, own)
    return session, now


def test_a_resume_after_the_bound_rose_writes_nothing_and_matches_the_live_session(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = MemoryStore()
    session, now = _play_to_bound(monkeypatch, store, SessionConfig(spectator_delay=3))
    record = session.record()
    before = store.load(session.id)
    resumed = Session.resume(store, session.id, now=now + 10)
    assert store.load(session.id) == before  # nothing written by the resume
    assert resumed.phase == "over" and resumed.game is not None and resumed.game.is_over
    assert resumed.record() == record and record is not None and record["truncated"]
    assert resumed.views == session.views  # the seats' views: the truncated game's
    streams = [*session.streams, session.spectators]
    again = [*resumed.streams, resumed.spectators]
    assert [s.n for s in again] == [s.n for s in streams]  # no message numbered on resume
    assert resumed.spec.released == session.spec.released == 12  # the delay: all released
    replayed = cardcore.replay(record)
    assert replayed.is_over and replayed.version == resumed.game.version
    assert replayed.result == resumed.game.result == session.game.result


def test_a_spectator_of_the_resumed_session_sees_the_truncated_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = MemoryStore()
    session, now = _play_to_bound(monkeypatch, store)
    live = [o.message for o in session.handle("w", '{"type": "watch"}', now=now + 1)]
    live_view = next(m for m in live if m["type"] == "view")
    resumed = Session.resume(store, session.id, now=now + 10)
    out = [o.message for o in resumed.handle("w", '{"type": "watch"}', now=now + 11)]
    view = next(m for m in out if m["type"] == "view")
    assert view["phase"] == "over"
    assert view["view"]["is_over"] and view["view"] == live_view["view"]


def test_a_closed_session_that_ended_at_the_old_bound_resumes_with_its_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = MemoryStore()
    session, now = _play_to_bound(monkeypatch, store)
    record = session.record()
    session.close(now + 1)
    assert session.phase == "closed" and session.record() == record
    resumed = Session.resume(store, session.id, now=now + 10)
    assert resumed.phase == "closed" and resumed.game is not None
    assert resumed.game.is_over and resumed.record() == record


def test_a_session_closed_mid_game_resumes_live_and_untruncated() -> None:
    """The other side of the closed case: a game closed while playing is not over, and
    must not be ended by a resume."""
    store = MemoryStore()
    session, rng = _session(store), random.Random(1)
    for i in range(5):
        _act(session, rng, 3.0 + i)
    session.close(10.0)
    resumed = Session.resume(store, session.id, now=20.0)
    assert resumed.phase == "closed" and resumed.game is not None
    assert not resumed.game.is_over and resumed.game.version == 5


def test_a_fair_deal_session_ended_at_the_old_bound_reveals_the_same_bundle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardcore.session import fair

    pinned = types.SimpleNamespace(token_bytes=lambda n: bytes(range(n)))  # a pinned deal
    monkeypatch.setattr(fair, "secrets", pinned)
    store = MemoryStore()
    session, now = _play_to_bound(monkeypatch, store, SessionConfig(fair=True))
    bundle = session.fair_bundle()
    assert bundle is not None
    resumed = Session.resume(store, session.id, now=now + 10)
    assert resumed.game is not None and resumed.game.is_over
    assert resumed.fair_bundle() == bundle


def _over_by(how: str) -> tuple[Session, MemoryStore, float]:
    store = MemoryStore()
    config = SessionConfig(time=TimeControl(turn=5.0, forfeit=True)) if how == "clock" else None
    session, rng = _session(store, config), random.Random(2)
    for i in range(4):
        _act(session, rng, 3.0 + i)
    game = session.game
    assert game is not None and not game.is_over
    if how == "resign":
        seat = game.to_act[0]
        msg = {"type": "act", "action": "resign", "seat": seat, "seen": game.version}
        session.handle("ab"[seat], json.dumps(msg), now=8.0)
    elif how == "host":
        session.end(8.0)
    else:
        session.tick(100.0)  # the seat to act loses on time: a resign played for it
    assert session.phase == "over" and game.is_over
    return session, store, 200.0


@pytest.mark.parametrize("how", ["resign", "host", "clock"])
def test_a_session_over_by_a_recorded_action_resumes_with_its_own_reason(how: str) -> None:
    """Every other way a session becomes "over" is an action in its record: the replay ends
    the game itself, so the new truncation never runs (the reason is not 'truncated')."""
    session, store, now = _over_by(how)
    assert session.game is not None and session.game.result is not None
    reason = session.game.result.reason
    assert reason != "truncated"
    resumed = Session.resume(store, session.id, now=now)
    assert resumed.game is not None and resumed.game.result == session.game.result
    assert resumed.record() == session.record()


# -- 2. Tonk: the stake check and payouts --------------------------------------------------------


@hookimpl
def _one_chip(scores: list[int]) -> list[int]:
    """A third-party rule: every hand moves one chip, whatever the stake (zero-sum)."""
    return [(s > 0) - (s < 0) for s in scores]


@hookimpl
def _triple_tonk(new_spread: bool) -> int:
    """A third-party rule on Tonk's own hook: a tonk-out pays 3 stakes."""
    return 3


def _register(name: str, rule_id: str, **hooks: Any) -> Iterator[str]:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(id=rule_id, name=name, game="tonk", summary=rule_id)  # type: ignore[attr-defined]
    for hook, impl in hooks.items():
        setattr(module, hook, impl)
    cardcore.register("cardcore.rules", name, module)
    try:
        yield name
    finally:
        cardcore.unregister("cardcore.rules", name)


@pytest.fixture
def one_chip() -> Iterator[str]:
    yield from _register("tonk.review2-one-chip", "REVIEW2-CHIP-1", score_round=_one_chip)


@pytest.fixture
def triple_tonk() -> Iterator[str]:
    yield from _register("tonk.review2-triple", "REVIEW2-TRIPLE-1", tonk_out_units=_triple_tonk)


def _play_reading_back(rules: list[str], seed: int, stake: int) -> list[int]:
    options = {"stake": stake, "hands": 3}
    game = cardcore.new_game("tonk", 2, rules=rules, options=options, seed=seed)
    rng = random.Random(seed)
    while True:
        text = game.position()
        back = cardcore.new_game("tonk", 2, rules=rules, options=options, position=text, seed=1)
        assert back.position() == text
        if game.is_over:
            return list(game.view(None)["table"]["balances"])
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))


def test_tonk_out_units_of_a_third_party_rule_stay_on_the_stake(triple_tonk: str) -> None:
    """The other payout hook Tonk offers multiplies the stake: the check stays and holds."""
    game = cardcore.new_game("tonk", 2, rules=[triple_tonk], options={"stake": 7}, seed=0)
    assert game.logic.ruleset.score_round is None  # the stake check applies to this game
    paid = []
    for seed in range(3):
        balances = _play_reading_back([triple_tonk], seed, 7)
        assert all(b % 7 == 0 for b in balances)
        paid.append(any(balances))
    assert any(paid)  # (money did move)


def test_a_score_round_game_reads_back_every_position_and_sample(one_chip: str) -> None:
    from cardcore.search.sampling import sample_position

    balances = _play_reading_back([one_chip], 4, 5)
    assert any(b % 5 for b in balances)  # off the stake: the case 4cc3184 is for
    options = {"stake": 5, "hands": 3}
    game = cardcore.new_game("tonk", 2, rules=[one_chip], options=options, seed=4)
    rng = random.Random(4)
    while game.view(None)["table"]["balances"] == [0, 0]:
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    for seat in (0, 1):
        text = sample_position(game.view(seat), random.Random(seat))
        world = cardcore.new_game(
            "tonk", 2, rules=[one_chip], options=options, position=text, seed=2
        )
        assert world.view(None)["table"]["balances"] == game.view(None)["table"]["balances"]


def test_without_a_score_round_rule_an_off_stake_position_is_still_refused() -> None:
    text = cardcore.new_game("tonk", 3, options={"stake": 4}, seed=2).position()
    assert "balances=[0,0,0]" in text
    with pytest.raises(cardcore.CardcoreError, match="TONK-STAKE-1"):
        cardcore.new_game(
            "tonk",
            3,
            options={"stake": 4},
            position=text.replace("balances=[0,0,0]", "balances=[2,-2,0]"),
            seed=1,
        )


# -- 3. Outbound -------------------------------------------------------------------------------


def _out(close: bool = False) -> Outbound:
    message = {"type": "view", "n": 1, "view": {"zones": [{"cards": ["7H", "KS"]}]}}
    return Outbound("conn-1", message, json.dumps(message), close)


class _Sub(Outbound):
    __slots__ = ()


def test_outbound_and_a_subclass_pickle_under_every_protocol() -> None:
    for cls in (Outbound, _Sub):
        base = _out(close=True)
        out = cls(base.conn, None, base.text, True)  # type: ignore[arg-type]
        for proto in range(pickle.HIGHEST_PROTOCOL + 1):
            back = pickle.loads(pickle.dumps(out, proto))
            assert type(back) is cls and back == out and back.close
            assert back.message == json.loads(base.text)


def test_copies_of_an_outbound_are_independent_of_it_and_of_each_other() -> None:
    out = _out()
    first = out.message
    shallow, deep = copy.copy(out), copy.deepcopy(out)
    first["view"]["zones"][0]["cards"].append("2C")
    assert shallow.message == deep.message == json.loads(out.text)
    shallow.message["n"] = 99
    assert deep.message["n"] == out.message["n"] == 1
    assert shallow == deep == out  # compared by conn, text and close


def test_the_message_argument_is_unused_and_equality_is_by_text() -> None:
    out = _out()
    other = Outbound(out.conn, None, out.text)  # type: ignore[arg-type]
    lying = Outbound(out.conn, {"type": "something else"}, out.text)
    assert other == lying == out and hash(other) == hash(lying) == hash(out)
    assert lying.message == json.loads(out.text)
    assert out != Outbound(out.conn, None, out.text, True)  # type: ignore[arg-type]
    assert out != Outbound("conn-2", None, out.text)  # type: ignore[arg-type]
    assert out != (out.conn, out.message, out.text, out.close)


def test_equality_and_hash_agree_across_a_subclass_both_ways() -> None:
    out = _out()
    sub = _Sub(out.conn, None, out.text)  # type: ignore[arg-type]
    assert out == sub and sub == out and hash(out) == hash(sub)
    assert len({out, sub}) == 1


def test_outbound_fields_are_read_only_and_match_by_position() -> None:
    out = _out(close=True)
    for name in ("conn", "message", "text", "close"):
        with pytest.raises(AttributeError):
            setattr(out, name, None)
    match out:
        case Outbound(conn, {"type": kind}, text, close):
            assert (conn, kind, text, close) == ("conn-1", "view", out.text, True)
        case _:
            pytest.fail("Outbound did not match by position")


def test_two_threads_reading_message_first_get_the_same_dict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import cardcore.session.protocol as protocol

    out = _out()
    barrier = threading.Barrier(2, timeout=1)  # both decode at once, if both can get there

    class _Json:
        @staticmethod
        def loads(text: str) -> Any:
            decoded = json.loads(text)
            with contextlib.suppress(threading.BrokenBarrierError):  # (fixed: the other waits)
                barrier.wait()
            return decoded

    monkeypatch.setattr(protocol, "json", _Json)
    got: list[Any] = [None, None]

    def read(i: int) -> None:
        got[i] = out.message

    threads = [threading.Thread(target=read, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    monkeypatch.undo()
    assert got[0] is got[1] is out.message


def test_the_docs_list_outbounds_members_and_say_how_it_copies() -> None:
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "session.rst").read_text("utf-8")
    assert (
        ".. autoclass:: cardcore.session.Outbound\n   :members: conn, message, text, close" in page
    )
    for name in ("conn", "message", "text", "close"):
        member = getattr(Outbound, name)
        assert isinstance(member, property) and member.__doc__
    doc = " ".join((Outbound.__doc__ or "").split())
    assert "a ``copy`` or pickle decodes the text afresh" in doc and "no longer a dataclass" in doc
