"""Third review (2026-12-31) of 7a719b2 and 819c340.

7a719b2: the kit's notation check reads back at most ``READ_BACK`` (64) notations of a seat
at one point, spread over its legal actions; ``GameInfo`` refuses ``max_players`` above 64;
``compare``'s Wilson interval is clamped to hold its mean; ``cardcore play`` of a one-seat
game names no other players. 819c340: a resumed session that had ended (``ended`` set)
whose rebuilt game is not over is truncated and its spectators' picture refreshed;
``Outbound.message``'s first decode takes a module lock.

Finding (strict xfails when written, fixed since: the first of each action class is always read
back and the spread starts further on at each point):

* The sample of read-back notations is the same indices at every point whose legal set has
  the same size (``i * (n - 1) // 63``), so an action kind that always sits between two
  sampled indices is never read back, at any point of any game: a game of 199 ``pick N``
  and one ``knock`` at index 2, whose own ``parse_action`` (what the plugin guide now tells
  a game of thousands of legal actions to write) forgets ``knock``, passes ``check_game``
  with its defaults. At index 1 the random games happen to play ``knock``: the failure then
  comes from the persistence check as a save/load failure, and the "skip persistence and
  scores when notation is bad" logic never runs (the docs promise the notation check names
  it and those checks are skipped). Cause: ``Contract.check_notation``
  (src/cardcore/testing/_contract.py), ``picked = [single[i * (n - 1) // (READ_BACK - 1)]
  ...]``: a fixed stride with no offset varying by point and no guarantee that each action
  class (or each verb) is read back at least once.

Claims that hold (passing tests): a bad kind at the first or last index is found in the
first walk and persistence and scores are skipped; a legal set of at most 64 distinct
notations is read back whole; a notation shared at an index the sample skips is still
reported; ``GameInfo`` takes exactly ``cardcore.setup.MAX_PLAYERS`` seats and refuses one
more (and ``None``) as a ``PluginError``, and every installed game fits; the Wilson interval,
``share_ci`` (also on the first seat's shifted scale), ``paired_share_diff``,
``unpaired_diff`` and ``mean_ci`` always hold their mean and stay within their bounds, at 0,
1 and n = 1; ``cardcore play`` of a one-seat real-time game names no other players nor their
reaction time; a resumed truncated session's spectators and seats see what the live session
showed; ``Outbound.message`` decodes outside any callback (``json.loads`` with no hook: nothing
re-enters the lock) and a failing decode leaves the lock free.
"""

from __future__ import annotations

import io
import json
import random
import types
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    Action,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    NotationError,
    PluginError,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.positions import check
from cardcore.turns import end_game, next_seat

# -- 1. the notation check's sample ------------------------------------------------------------


@frozen
class Pick(Action):
    n: int
    verb: ClassVar[str] = "pick"

    def notation(self) -> str:
        return f"pick {self.n}"


@frozen
class Knock(Action):
    """A second kind of action: its notation is the verb alone, ``knock``."""

    verb: ClassVar[str] = "knock"


@frozen
class Echo(Action):
    """A kind whose notation copies a Pick's: shared with ``pick <n>``."""

    n: int
    verb: ClassVar[str] = "echo"

    def notation(self) -> str:
        return f"pick {self.n}"


class KnockState(GameState):
    __slots__ = ("count",)
    count: int


LENGTH = 6


def knock_game(name: str, picks: int, extra: Action | None, at: int) -> types.SimpleNamespace:
    """Two seats, LENGTH actions; each seat's legal set is ``pick 0`` ... ``pick <picks-1>``
    with *extra* (for the seat) inserted at index *at*. The game reads ``pick N`` itself (as
    the plugin guide tells a game of many legal actions to do) and nothing else."""

    class KnockLogic(GameLogic[KnockState, Action]):
        action_types = (Pick,)
        position_fields = ("to_act", "count")

        def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
            return LENGTH + 10

        def blank_state(self, players: int, options: Mapping[str, Any]) -> KnockState:
            state = KnockState(
                players, options, Zones(Layout.of([ZoneSpec("stock", None, Visibility.NOBODY)]))
            )
            state.count = 0
            return state

        def new_state(
            self,
            players: int,
            options: Mapping[str, Any],
            cards: list[Any],
            seed: int,
            emit: Emit | None,
        ) -> KnockState:
            state = self.blank_state(players, options)
            state.seed = seed
            for card in cards:
                state.zones.put(0, card, 0)
            state.to_act = (0,)
            return state

        def legal_actions(self, state: KnockState, seat: int) -> tuple[Action, ...]:
            acts: list[Action] = [Pick(seat, n) for n in range(picks)]
            if extra is not None:
                acts.insert(
                    at, type(extra)(seat, *[getattr(extra, f) for f in ("n",) if hasattr(extra, f)])
                )
            return tuple(acts)

        def parse_action(self, state: KnockState, seat: int, text: str) -> Action:
            verb, _, n = text.partition(" ")
            if verb == "pick" and n.isdigit():
                return Pick(seat, int(n))
            raise NotationError(f"not a pick: {text!r} (REVIEW3-NOTE-1)")

        def apply(self, state: KnockState, action: Action, emit: Emit | None) -> None:
            state.count += 1
            if state.count >= LENGTH:
                end_game(
                    state, (0,), tuple(float(s == 0) for s in range(state.players)), "counted out"
                )
            else:
                state.to_act = (next_seat(action.seat, state.players),)

        def table(self, state: KnockState, seat: int | None) -> dict[str, Any]:
            return {"count": state.count}

        def check_position(self, state: KnockState) -> None:
            check(0 <= state.count <= LENGTH, "count must be from 0 to {}", LENGTH)

    info = GameInfo(
        name,
        "review 3 notation game",
        2,
        2,
        version="1.0.0",
        fields=(ViewField("count", "int", "Actions so far."),),
    )

    @hookimpl
    def create_logic(ruleset: Ruleset) -> KnockLogic:
        return KnockLogic(ruleset)

    return types.SimpleNamespace(GAME=info, create_logic=create_logic)


@pytest.fixture
def registered() -> Iterator[Any]:
    names: list[str] = []

    def register(name: str, picks: int, extra: Action | None, at: int) -> str:
        cardcore.register("cardcore.games", name, knock_game(name, picks, extra, at))
        names.append(name)
        return name

    yield register
    for name in reversed(names):
        cardcore.unregister("cardcore.games", name)


def _unread_knock(report: Any) -> list[str]:
    """The notation check's own failures for Knock (not a save/load failure mentioning it)."""
    return [f for f in report.failures if "of legal action Knock(" in f and "parse_action" in f]


@pytest.mark.parametrize("at", [0, 199])
def test_a_bad_kind_at_the_first_or_last_index_is_found_and_skips_persistence(
    registered: Any, at: int
) -> None:
    """The sample always holds the first and the last single notation (i = 0 and i = 63)."""
    from cardcore.testing import check_game

    name = registered(f"review3-knock-{at}", 199, Knock(0), at)
    report = check_game(name, strict=False)
    assert _unread_knock(report) and not report.ok
    assert "persistence" in report.skipped and "scores" in report.skipped
    assert not any("save -> load" in f for f in report.failures)


def test_at_most_read_back_singles_are_all_read_back(registered: Any) -> None:
    """63 picks and a knock: 64 single notations, not more than READ_BACK: all read back."""
    from cardcore.testing import check_game
    from cardcore.testing._contract import READ_BACK

    assert READ_BACK == 64
    name = registered("review3-knock-64", READ_BACK - 1, Knock(0), 2)
    report = check_game(name, strict=False)
    assert _unread_knock(report)
    assert "persistence" in report.skipped


def test_a_shared_notation_at_an_unsampled_index_is_still_reported(registered: Any) -> None:
    """Distinctness is checked over the whole legal set, not the sample: Echo(150) at index 2
    (never sampled among 200) shares 'pick 150' with Pick(150)."""
    from cardcore.testing import check_game

    name = registered("review3-echo", 199, Echo(0, 150), 2)
    report = check_game(name, strict=False)
    assert any("share the notation 'pick 150'" in f for f in report.failures)
    assert "persistence" in report.skipped


def test_a_lone_kind_between_the_sampled_indices_is_reported(registered: Any) -> None:
    from cardcore.testing import check_game

    name = registered("review3-knock-2", 199, Knock(0), 2)
    report = check_game(name, strict=False)  # the defaults: 20 games, seed 0
    assert _unread_knock(report), report.failures
    assert not report.ok


def test_a_bad_notation_the_random_games_play_skips_persistence(registered: Any) -> None:
    from cardcore.testing import check_game

    name = registered("review3-knock-1", 199, Knock(0), 1)
    report = check_game(name, strict=False, seed=0)
    assert not report.ok  # found either way (here by persistence, seed 0 plays 'knock')
    assert _unread_knock(report), report.failures
    assert "persistence" in report.skipped


# -- 2. GameInfo's seat limit ------------------------------------------------------------------


def test_gameinfo_takes_max_players_seats_and_refuses_one_more() -> None:
    from cardcore.setup import MAX_PLAYERS

    GameInfo("review3-most", "most seats", 1, MAX_PLAYERS)
    GameInfo("review3-one", "one seat", MAX_PLAYERS, MAX_PLAYERS)
    for low, high in [
        (1, MAX_PLAYERS + 1),
        (MAX_PLAYERS + 1, MAX_PLAYERS + 1),
        (1, None),
        (None, 2),
        (1, True),
    ]:
        with pytest.raises(PluginError, match="max_players"):
            GameInfo("review3-bad", "bad seats", low, high)  # type: ignore[arg-type]


def test_every_installed_game_fits_the_core_seat_limit() -> None:
    from cardcore.setup import MAX_PLAYERS

    names = cardcore.available_games()
    assert names
    for name in names:
        info = cardcore.game_info(name)
        assert 1 <= info.min_players <= info.max_players <= MAX_PLAYERS, name


# -- 3. intervals hold their mean and stay in bounds --------------------------------------------


def test_every_interval_holds_its_mean_and_stays_within_bounds() -> None:
    from cardcore.compare._stats import _wilson, mean_ci, paired_share_diff, share_ci, unpaired_diff

    for n in range(1, 120):
        for hits in range(n + 1):
            p = hits / n
            low, high = _wilson(p, n)
            assert 0.0 <= low <= p <= high <= 1.0, (hits, n)
            assert low < high  # never zero wide, even at 0 or 1
    for k in range(1, 65):  # the first seat's share less the fair share 1/k (compare's use)
        for n in (1, 2, 3, 5, 40):
            for hits in range(n + 1):
                xs = [1.0 - 1.0 / k] * hits + [-1.0 / k] * (n - hits)
                e = share_ci(xs, -1.0 / k, 1.0 - 1.0 / k)
                assert -1.0 / k <= e.low <= e.mean <= e.high <= 1.0 - 1.0 / k, (k, n, hits)
                ties = share_ci([1.0 / k] * hits + [0.0] * (n - hits))
                assert 0.0 <= ties.low <= ties.mean <= ties.high <= 1.0, (k, n, hits)
    rng = random.Random(31)
    values = [0.0, 1.0, 0.5, 1 / 3, 0.25]
    for _ in range(1500):
        n = rng.randint(1, 12)
        a = [rng.choice(values) for _ in range(n)]
        b = [rng.choice(values) for _ in range(n)]
        paired = paired_share_diff(a, b)
        assert -1.0 <= paired.low <= paired.mean <= paired.high <= 1.0, (a, b)
        unpaired = unpaired_diff(share_ci(a), share_ci(b))
        assert -1.0 <= unpaired.low <= unpaired.mean <= unpaired.high <= 1.0, (a, b)
        xs = [rng.choice([0.1, 0.2, 0.3, 7.0, -3.0, 1e16]) for _ in range(n)]
        m = mean_ci(xs)
        assert m.low <= m.mean <= m.high, xs
        normal = unpaired_diff(mean_ci(xs), mean_ci(list(reversed(xs))))
        assert normal.low <= normal.mean <= normal.high


# -- 4. cardcore play of a one-seat real-time game ----------------------------------------------


def test_cli_play_of_a_solo_realtime_game_names_no_other_players(
    capsys: Any, monkeypatch: Any
) -> None:
    from cardcore import cli
    from tests.test_degenerate_games_2026_12_31 import make_game

    name = "review3-solo-rt"
    cardcore.register(
        "cardcore.games", name, make_game(name, seats=(1, 1), length=1, realtime=True)
    )
    try:
        monkeypatch.setattr("sys.stdin", io.StringIO("pick 0\n"))
        assert cli.main(["play", name, "--seed", "1", "--no-record"]) == 0
    finally:
        cardcore.unregister("cardcore.games", name)
    out = capsys.readouterr().out
    assert "game over (counted out)" in out
    assert "the others are played by" not in out and "reaction" not in out
    assert "you are" in out  # the header itself is still printed


# -- 5. a resumed session that ended at a bound since raised; Outbound's lock ----------------------


def _golf_bound(monkeypatch: pytest.MonkeyPatch, bound: Any) -> None:
    from cardcore_golf.logic import GolfLogic

    monkeypatch.setattr(GolfLogic, "action_bound", bound)
    ruleset = cardcore.new_game("golf", 2, seed=1).logic.ruleset
    monkeypatch.setattr(ruleset, "checked", {})


def _ended_at_old_bound(
    monkeypatch: pytest.MonkeyPatch, store: Any, config: Any
) -> tuple[Any, float]:
    """A Golf session (seeded, seeded moves) truncated at a bound of 12, the bound then
    raised back to Golf's own."""
    from cardcore.session import Session
    from cardcore_golf.logic import GolfLogic

    own = GolfLogic.action_bound
    _golf_bound(monkeypatch, lambda self, players, options: 12)
    session = Session.create("golf", 2, now=0.0, seed=3, store=store, config=config)
    session.handle("a", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("b", '{"type": "join", "seat": 1}', now=2.0)
    rng, now = random.Random(0), 3.0
    while session.game is not None and not session.game.is_over:
        game = session.game
        seat = game.to_act[0]
        msg = {
            "type": "act",
            "action": str(rng.choice(game.legal_actions(seat))),
            "seat": seat,
            "seen": game.version,
        }
        now += 1.0
        session.handle("ab"[seat], json.dumps(msg), now=now)
    assert session.game is not None and session.game.result is not None
    assert session.game.result.reason == "truncated" and session.game.version == 12
    _golf_bound(monkeypatch, own)
    return session, now


@pytest.mark.parametrize("close", [False, True])
def test_a_resumed_truncated_session_shows_spectators_and_seats_what_the_live_one_did(
    monkeypatch: pytest.MonkeyPatch, close: bool
) -> None:
    from cardcore.session import MemoryStore, Session, SessionConfig

    store = MemoryStore()
    session, now = _ended_at_old_bound(monkeypatch, store, SessionConfig(spectator_delay=4))
    if close:
        session.close(now + 1)
    live_spec = (
        session.spec.released,
        session.spec.view,
        session.spec.rounds,
        len(session.spec.pending),
    )
    resumed = Session.resume(store, session.id, now=now + 10)
    assert resumed.game is not None and resumed.game.is_over
    assert resumed.game.result == session.game.result
    spec = resumed.spec
    assert (spec.released, spec.view, spec.rounds, len(spec.pending)) == live_spec
    assert spec.view is not None and spec.view["is_over"]
    assert spec.view == resumed.game.view(None)
    assert resumed.views == [resumed.game.view(s) for s in range(2)] == session.views
    assert resumed.record() == session.record()


def test_outbound_decode_failure_leaves_the_lock_free() -> None:
    """A bad text (a host building its own Outbound) raises inside the lock: the ``with``
    frees it, so the next first read does not block (a held lock would hang here)."""
    from cardcore.session import protocol
    from cardcore.session.protocol import Outbound

    bad = Outbound("c", None, "{not json")
    with pytest.raises(json.JSONDecodeError):
        _ = bad.message
    assert not protocol._DECODING.locked()
    good = Outbound("c", None, '{"type": "x", "n": 1}')
    assert good.message == {"type": "x", "n": 1}
    assert good.message is good.message  # decoded once
    assert not protocol._DECODING.locked()
