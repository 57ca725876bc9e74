"""Mutation audit of the flow modules (2026-12-28).

Small mutants of ``notation.py``, ``turns.py``, ``_worlds.py`` (determinized worlds),
``agents.py`` (the play loops, ``run_realtime``'s virtual clock), ``session/fair.py``
(commitment and proof) and ``session/_integrity.py`` (stored sessions' digests) were run
one at a time in a scratch copy against the tests about each module (found with grep). Each
test below kills one or more that survived; its docstring names the mutant by id (N notation,
T turns, W worlds, A agents, F fair, I integrity) and the change.

Counts (written / killed by the suite before / killed by this file / equivalent):

* ``notation.py``: 19 / 12 / 4 / 3
* ``turns.py``: 20 / 16 / 4 / 0
* ``_worlds.py``: 21 / 5 / 12 / 4
* ``agents.py``: 24 / 8 / 16 / 0
* ``session/fair.py``: 22 / 9 / 13 / 0
* ``session/_integrity.py``: 22 / 13 / 6 / 3
* in all: 128 / 63 / 55 / 10

Equivalent: N3 (``0 <= len(word)`` in ``parse_int``: ``"".isdigit()`` is False, refused all
the same); N16 (``long = len(word) >= DIGITS``: computed only for a refused word, and 15
ASCII digits are never refused); N17 (``Card.parse(w.upper())``: ``Card.parse`` reads any
case); W1 (``derive_seed`` without its purpose: the only purpose); W14 (``_legal_v = -1``
dropped: ``Game.clone`` resets it already); W20 (``_next_base`` not reset: only when the
next checkpoint is taken); W21 (the count check dropped: the same-cards check implies it,
the message compares the lengths itself); I15 (``break`` -> ``continue`` in ``trim_tail``:
rows are unique and ordered, none older than a gap can match the number expected); I19
(``rebind`` of a bound row: the same hash written again); I22 (the untrusted readable tail
served: ``trim_tail`` empties an untrusted tail, so only messages pushed after the resume
could be served, where the code sends a fresh view: either is right for the client).

Worlds and leaks: W15 (the published legal set kept by a world lists the real hand's
discards), W16 (a real-time world judging an old ``seen=`` by the real game's
checkpoints) and W17 (a world restored from the real game's checkpoint) are pinned here;
the code holds. One strict xfail records a bug of clean code: ``turns.end_game`` takes
payouts that are no numbers. Only fixed seeds; no timing.
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import random
import sqlite3
import types
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
from attrs import frozen

import cardcore
from cardcore import (
    Action,
    ArgumentError,
    Card,
    CorruptStateError,
    Game,
    IllegalActionError,
    NotationError,
    PluginError,
    hookimpl,
)
from cardcore.notation import ActionParser
from cardcore.session import (
    CorruptSessionError,
    FairDealError,
    MemoryStore,
    Session,
    SQLiteStore,
    StoredSession,
    TokenRow,
    verify_bundle,
)
from cardcore.session.fair import FairDeal, commitment_of, seed_of
from cardcore.turns import end_game, next_seat, reveal_all, seats_from, winners_by

# --------------------------------------------------------------------------- notation.py


@frozen
class Mark(Action):
    """An action with a field the parser must not read: ``note`` is no argument (init=False)."""

    pos: int
    note: int = attrs.field(default=0, init=False, eq=False)
    verb: ClassVar[str] = "mark"

    def notation(self) -> str:
        return f"mark {self.pos}"


def test_parser_skips_fields_that_are_no_init_argument() -> None:
    """N8 (``or not f.init`` dropped): the parser wanted a word for ``note``."""
    parser = ActionParser([Mark])
    assert parser.parse(1, "mark 3") == Mark(1, 3)
    with pytest.raises(NotationError, match="expected 'mark POS'"):
        parser.parse(1, "mark 3 4")


@pytest.mark.parametrize("seat", [True, "0", 1.0], ids=["bool", "text", "float"])
def test_parser_refuses_a_seat_that_is_no_int(seat: Any) -> None:
    """N10 (``type(seat) is not int`` dropped): ``True`` was taken as seat 1 (a text raised
    TypeError)."""
    with pytest.raises(ArgumentError, match="parse takes a seat number"):
        ActionParser([Mark]).parse(seat, "mark 3")


def _verb_class(verb: object) -> type[Action]:
    return attrs.frozen(type("Odd", (Action,), {"__annotations__": {}, "verb": verb}))


@pytest.mark.parametrize("verb", [" mark", "mark ", 5, None], ids=["lead", "trail", "int", "none"])
def test_parser_refuses_a_verb_that_is_no_bare_word(verb: object) -> None:
    """N11 (``verb != verb.strip()`` dropped): ``" mark"`` was kept, a verb no text can name;
    N18 (``isinstance(verb, str)`` dropped): a verb 5 raised AttributeError, not TypeError."""
    with pytest.raises(TypeError, match="verb must be one word"):
        ActionParser([_verb_class(verb)])


# --------------------------------------------------------------------------- turns.py


@pytest.mark.parametrize("call", [next_seat, seats_from], ids=["next_seat", "seats_from"])
def test_a_skip_of_the_seat_count_is_refused(call: Any) -> None:
    """T6 ``0 <= seat < players`` -> ``<=`` in ``_skipped``: seat 4 of 4 was taken."""
    with pytest.raises(ArgumentError, match="skip must hold seats from 0 to 3, not 4"):
        call(0, 4, skip={4})


def test_end_game_refuses_a_winner_that_is_no_whole_number() -> None:
    """T18 ``operator.index`` -> ``int`` on the winners: seat 1.5 was read as seat 1."""
    state = cardcore.new_game("golf", 2, seed=1).state
    with pytest.raises(ArgumentError, match="end_game takes winners"):
        end_game(state, [1.5], [0.0, 1.0], "out")
    assert not state.is_over and state.result is None


def test_reveal_all_refuses_a_negative_pile_id() -> None:
    """T19 (``0 <= i`` dropped): pile -1 was taken as Python's last pile and turned up."""
    game = cardcore.new_game("golf", 2, seed=1)
    state = game.state
    before = [list(seen) for seen in state.zones.seen]
    with pytest.raises(ArgumentError, match="zones must be a sequence of pile ids"):
        reveal_all(state, [-1])
    assert [list(seen) for seen in state.zones.seen] == before


def test_winners_by_refuses_texts_that_order_like_numbers() -> None:
    """T20 (``isinstance(best, Number)`` dropped): ``["b", "a"]`` named seat 1 the winner."""
    with pytest.raises(ArgumentError, match="winners_by takes one number per seat"):
        winners_by(["b", "a"])


def test_end_game_refuses_payouts_that_are_no_numbers() -> None:
    """Found while writing T18's test (a bug of clean code): ``end_game(..., payouts=["1",
    "2"])`` sets ``is_over`` and a result whose payouts are texts; its docstring promises
    ArgumentError for "payouts ... not a sequence of numbers (nothing changes)"."""
    state = cardcore.new_game("golf", 2, seed=1).state
    with pytest.raises(ArgumentError, match="end_game takes winners"):
        end_game(state, [0], [0.0, 1.0], "out", payouts=["1", "2"])
    assert not state.is_over and state.result is None


# --------------------------------------------------------------------------- _worlds.py


def test_a_world_seed_is_a_63_bit_number_drawn_from_the_callers_seed() -> None:
    """W2 (``>> 1`` dropped in ``derive_seed``): world seeds of 64 bits, half of them at or
    past 2**63 (a signed 64-bit integer's range)."""
    game = cardcore.new_game("golf", 2, seed=3)
    seeds = {game.determinize(0, s).seed for s in range(16)}
    assert len(seeds) == 16 and all(0 <= s < 2**63 for s in seeds)


def test_hidden_cards_come_from_the_callers_seed_not_the_games() -> None:
    """W3 ``derive_rng(seed, 0)`` -> ``derive_rng(new.seed, 0)``: the hidden cards came from
    the game's own seed, one world whatever seed the search agent passed."""
    game = cardcore.new_game("tonk", 2, seed=5)
    worlds = {game.determinize(0, s).position() for s in range(4)}
    assert len(worlds) == 4
    assert game.determinize(0, 2).position() == game.determinize(0, 2).position()


def test_a_world_the_rules_refuse_is_dealt_again() -> None:
    """W4 (tries swapped), W5 (``not _refused`` -> ``_refused``), W12 (``_refused`` answering
    False for OptionError), W18 (``TRIES = 1``): Speed's ``check_position`` refuses a world in
    which nobody can play; in the real game (seed 2) seat 1 can, and seat 0 cannot, so seat
    0's worlds where seat 1's re-dealt hand cannot play were kept (7 of these 40)."""
    game = cardcore.new_game("speed", 2, seed=2)
    game.logic.check_position(game.state)  # the real position is one the rules allow
    for s in range(40):
        world = game.determinize(0, s)
        world.logic.check_position(world.state)  # raises OptionError for a refused world


def _hand(game: Game, seat: int) -> list[Card]:
    names = [spec.name for spec in game.state.zones.layout.specs]
    return list(game.state.zones.cards[names.index(f"hand.{seat}")])


def test_a_world_never_lists_the_real_hands_legal_actions() -> None:
    """W15 (``new._hot = COLD`` dropped): the clone kept the legal set ``apply`` published
    for the real state, so a world's seat 1 could discard the real hand's cards (a leak of
    every hidden card of that hand to the search agent of seat 0)."""
    game = cardcore.new_game("tonk", 2, seed=5)
    game.act(1, "draw")  # seat 1 now discards
    assert game.legal_actions(1)  # asked, as a runner asks: the legal set is published
    real = set(_hand(game, 1))
    differs = 0
    for s in range(3):
        world = game.determinize(0, s)
        assert world.view(0) == game.view(0)  # all seat 0 knows stays where it is
        hand = _hand(world, 1)
        discards = {a.card for a in world.legal_actions(1) if a.verb == "discard"}
        assert discards == set(hand)
        differs += set(hand) != real
    assert differs >= 2


_SPOIL_W = "drawgame.audit28-spoils-worlds"


class _Spoil:
    on = False


@pytest.fixture
def spoiler() -> Iterator[str]:
    """A draw-game house rule whose ``forbid_action`` raises while ``_Spoil.on`` is set."""
    module = types.ModuleType("drawgame_audit28_spoils")

    @hookimpl
    def forbid_action(state: Any, action: Any) -> Any:
        if _Spoil.on:
            raise RuntimeError("the veto broke")
        return None

    module.forbid_action = forbid_action  # type: ignore[attr-defined]
    module.RULE = cardcore.RuleInfo("TEST-SPOIL-28", _SPOIL_W, "drawgame", "breaks on demand")  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", _SPOIL_W, module)
    try:
        yield _SPOIL_W
    finally:
        _Spoil.on = False
        cardcore.unregister("cardcore.rules", _SPOIL_W)


def test_a_failed_apply_in_a_world_puts_the_world_back(spoiler: str) -> None:
    """W17 (``new._base = ...`` dropped): the world kept the real game's checkpoint, so an
    apply that failed in the world was undone by replaying the world's record on a deal of
    its own seed, which failed: the world broke ("could not be restored") instead of being
    put back as it was. (Had the real game's checkpoint been a state, it would have put the
    real hidden cards back.)"""
    game = cardcore.new_game("drawgame", 2, rules=[spoiler], seed=1)
    game.act(0, "draw")
    game.act(0, f"discard {_hand(game, 0)[0]}")
    world = game.determinize(0, 4)
    hidden = (_hand(world, 1), list(world.state.zones.cards[0]))
    assert hidden != (_hand(game, 1), list(game.state.zones.cards[0]))
    _Spoil.on = True
    with pytest.raises(PluginError):
        world.act(1, "draw")
    _Spoil.on = False
    assert world.version == game.version
    assert (_hand(world, 1), list(world.state.zones.cards[0])) == hidden
    world.act(1, "draw")  # the world plays on (it was restored, not broken)
    assert world.version == game.version + 1 and set(hidden[0]) <= set(_hand(world, 1))


def _determinize_rule(name: str, hook: Any) -> Iterator[str]:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.determinize = hookimpl(hook)  # type: ignore[attr-defined]
    module.RULE = cardcore.RuleInfo("TEST-DET-28", name, "drawgame", "a faulty re-deal")  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", name, module)
    try:
        yield name
    finally:
        cardcore.unregister("cardcore.rules", name)


@pytest.fixture
def answers_one() -> Iterator[str]:
    def determinize(state: Any, seat: int, rng: Any) -> Any:
        return 1

    yield from _determinize_rule("drawgame.audit28-answers-one", determinize)


@pytest.fixture
def copies_a_card() -> Iterator[str]:
    def determinize(state: Any, seat: int, rng: Any) -> Any:
        stock = state.zones.cards[0]
        stock[0] = stock[1]  # one card twice, another gone: the count is kept
        return True

    yield from _determinize_rule("drawgame.audit28-copies-a-card", determinize)


def test_a_determinize_answer_other_than_true_is_refused(answers_one: str) -> None:
    """W11 ``answer is not True`` -> ``answer is False``: an answer 1 was taken as a re-deal."""
    game = cardcore.new_game("drawgame", 2, rules=[answers_one], seed=1)
    with pytest.raises(PluginError, match=r"answered 1, not True"):
        game.determinize(0, 1)


def test_a_re_deal_that_keeps_the_count_but_not_the_cards_is_refused(copies_a_card: str) -> None:
    """W10 (the same-cards check dropped, the count kept): a re-deal that copied one card
    over another was accepted: a world holding a card twice."""
    game = cardcore.new_game("drawgame", 2, rules=[copies_a_card], seed=1)
    with pytest.raises(PluginError, match="left other cards than it took"):
        game.determinize(0, 1)


def test_a_real_time_world_judges_no_version_before_its_own_past() -> None:
    """W16 (the checkpoints' reset dropped): a Speed world kept the real game's checkpoints
    and judged an old ``seen=`` by replaying the real past on its re-dealt cards (a
    PluginError, or a staleness verdict drawn from the real hands)."""
    game = cardcore.new_game("speed", 2, seed=1)
    played = []
    for _ in range(3):
        seat = next(s for s in (0, 1) if any(a.verb == "play" for a in game.legal_actions(s)))
        action = next(a for a in game.legal_actions(seat) if a.verb == "play")
        played.append((game.version, action))
        game.apply(action, seen=game.version)
    world = game.determinize(0, 3)
    version, action = played[-1]
    with pytest.raises(IllegalActionError, match="before this determinized game's own past"):
        world.apply(action, seen=version)


def test_a_worlds_chance_counter_starts_again_after_the_real_games_chance() -> None:
    """W19 (``state.draws = 1`` dropped): a world of a game past its second deal (Golf's
    second round) kept the real game's chance counter, not one started again."""
    game = cardcore.new_game("golf", 2, seed=3, options={"rounds": 2})
    rng = random.Random(1)
    while game.state.draws < 2:
        legal = [a for a in game.legal_actions(game.to_act[0]) if a.verb != "knock"]
        game.apply(rng.choice(legal))
    assert not game.is_over
    world = game.determinize(0, 1)
    assert (world.state.draws, game.state.draws) == (1, 2)


# --------------------------------------------------------------------------- agents.py


class _Recorder:
    """A turn-based agent that plays the first legal action (not Tonk's drop) and keeps what it
    was shown."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seen: list[tuple[Any, bool]] = []
        self.asked: list[tuple[int, tuple[int, ...]]] = []

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        seat = legal[0].seat
        self.seen.append((view["seat"], dict(view) == self.game.view(seat)))
        self.asked.append((seat, self.game.to_act))
        return next((a for a in legal if a.verb != "drop"), legal[0])  # (Tonk: play on)


def test_play_hands_each_agent_its_own_seats_view() -> None:
    """A3 (``_DeferredView(token, 0, version)``): every agent was handed seat 0's view, the
    agent of seat 1 reading seat 0's hand."""
    game = cardcore.new_game("tonk", 2, seed=5)
    agents = [_Recorder(game), _Recorder(game)]
    cardcore.play(game, agents, max_actions=6)
    for seat, agent in enumerate(agents):
        assert agent.seen and all(shown == (seat, True) for shown in agent.seen)


@pytest.fixture
def goofspiel() -> Iterator[str]:
    """The simultaneous test game Goofspiel (every seat bids at once), registered in place."""
    from tests.plugins import goofspiel_2026_12_12 as goof

    cardcore.register("cardcore.games", goof.NAME, goof)
    try:
        yield goof.NAME
    finally:
        cardcore.unregister("cardcore.games", goof.NAME)


def test_play_asks_the_first_seat_of_a_simultaneous_phase(goofspiel: str) -> None:
    """A4 ``to_act[0]`` -> ``to_act[-1]``: ``play()`` asked the last seat of a simultaneous
    phase, where CORE-TURN-1 (docs/core-rules.rst) says it asks the first."""
    game = cardcore.new_game(goofspiel, 3, seed=1)
    agents = [_Recorder(game) for _ in range(3)]
    cardcore.play(game, agents, max_actions=9)
    asked = [entry for agent in agents for entry in agent.asked]
    assert any(len(to_act) > 1 for _, to_act in asked)
    assert all(seat == to_act[0] for seat, to_act in asked)


class _ResignsForTheOtherSeat:
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        return cardcore.Resign(1 - legal[0].seat)


def test_play_refuses_an_agent_resigning_for_another_seat() -> None:
    """A5 (``_own`` dropped from ``play``): the first agent answered the other seat's
    ``Resign`` and that seat was resigned (resigning is allowed whatever the turn)."""
    game = cardcore.new_game("tonk", 2, seed=5)
    with pytest.raises(IllegalActionError, match="acts for its own seat only") as info:
        cardcore.play(game, [_ResignsForTheOtherSeat(), _ResignsForTheOtherSeat()])
    assert info.value.rule_id == "CORE-TURN-1"
    assert not game.is_over and game.version == 0


class _Timed:
    """A real-time agent: the first legal action after a fixed *delay*; notes each ``now``."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.nows: list[float] = []

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Any:
        self.nows.append(now)
        return cardcore.Plan(legal[0], self.delay) if legal else None


def _times(game: Game) -> list[float]:
    return [at for _, _, at in game.record_entries() if at is not None]


def test_a_second_run_starts_no_earlier_than_the_games_last_time() -> None:
    """A6 (``now = start``): a second ``run_realtime`` on a game already at 3 s planned from
    0 s and stamped actions before the game's last recorded time."""
    game = cardcore.new_game("speed", 2, seed=1)
    for at in (1.0, 2.0, 3.0):  # played by hand (a run's max_actions would end the game)
        seat = next(s for s in (0, 1) if any(a.verb == "play" for a in game.legal_actions(s)))
        game.apply(next(a for a in game.legal_actions(seat) if a.verb == "play"), at=at)
    last = _times(game)[-1]
    assert last == 3.0 and not game.is_over
    agents = [_Timed(0.25), _Timed(0.5)]
    cardcore.run_realtime(game, agents, seed=1, start=0.0, max_actions=6)
    times = _times(game)
    assert times == sorted(times) and len(times) >= 6
    assert min(now for agent in agents for now in agent.nows) >= last


def test_a_negative_delay_is_no_earlier_than_now() -> None:
    """A8 (``max(0.0, delay)`` dropped): a plan 5 s in the past was stamped before the start."""
    game = cardcore.new_game("speed", 2, seed=1)
    cardcore.run_realtime(game, [_Timed(-5.0), _Timed(0.5)], seed=1, start=10.0, max_actions=8)
    times = _times(game)
    assert len(times) == 8 and times == sorted(times) and times[0] == 10.0


def test_agents_plan_only_at_the_start_and_when_an_action_is_applied() -> None:
    """A9 (the ``p[1] not in legal_actions`` re-plan dropped): a plan another seat's action
    had overtaken was still sent at its due time (refused), and its agent planned again then,
    at a time no action was applied."""
    game = cardcore.new_game("speed", 2, seed=1)
    applied: list[float] = []
    agents = [_Timed(0.7), _Timed(0.3)]
    cardcore.run_realtime(
        game, agents, seed=1, max_actions=30, on_action=lambda g, a, t: applied.append(t)
    )
    moments = {0.0, *applied}
    assert len(applied) == 30
    assert all(now in moments for agent in agents for now in agent.nows)


class _Fumbles:
    """Plans at once a card it does not hold (a joker: Speed deals none) three times in four."""

    def __init__(self) -> None:
        self.calls = self.fumbles = 0

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Any:
        self.calls += 1
        plays = [a for a in legal if a.verb == "play"]
        if not plays:
            return cardcore.Plan(legal[0], 0.5) if legal else None
        if self.calls % 4:
            self.fumbles += 1
            return cardcore.Plan(attrs.evolve(plays[0], card=Card.parse("JK")), 0.0)
        return cardcore.Plan(plays[0], 0.4)


def test_rejections_are_counted_per_version_not_per_game() -> None:
    """A11 (``rejected = 0`` after an applied action dropped): an agent whose refused plans
    added up over a game (a few at each version, more than the bound of 20 in all) was said
    to stall it."""
    game = cardcore.new_game("speed", 2, seed=1)
    fumbler = _Fumbles()
    cardcore.run_realtime(game, [fumbler, _Timed(0.6)], seed=1, max_actions=20)
    assert game.version == 20 and fumbler.fumbles > 20  # more refusals than the bound


def test_a_bool_delay_is_no_delay() -> None:
    """A13 (``isinstance(delay, bool)`` dropped in ``_seconds``): ``Plan(action, True)`` was
    taken as a delay of 1 s."""
    game = cardcore.new_game("speed", 2, seed=1)
    with pytest.raises(cardcore.CardcoreError, match=r"^the agent at seat 0 \(_Timed\) planned"):
        cardcore.run_realtime(game, [_Timed(True), _Timed(0.5)], seed=1)  # type: ignore[arg-type]


def test_random_agent_chooses_every_legal_action_sometimes() -> None:
    """A15 (``len(legal) - 1``): the last legal action was never chosen."""
    agent = cardcore.RandomAgent(7)
    legal = [cardcore.Resign(0), cardcore.Resign(1), cardcore.Resign(2)]
    chosen = {agent.choose({}, legal).seat for _ in range(60)}
    assert chosen == {0, 1, 2}


def test_random_agent_takes_a_reaction_and_spread_of_zero() -> None:
    """A17 (``0 <= number`` -> ``0 < number`` in ``_bounded``): the documented lower bound 0
    (``parameter_bounds``) was refused."""
    agent = cardcore.RandomAgent(1, reaction=0.0, spread=0.0)
    assert (agent.reaction, agent.spread) == (0.0, 0.0)
    assert cardcore.RandomAgent.parameter_bounds["reaction"][0] == 0.0


class _Stubborn:
    """Plans its first play for later while it is legal, then (overtaken) at once, forever."""

    def __init__(self) -> None:
        self.action: Action | None = None

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Any:
        if self.action is None:
            self.action = next((a for a in legal if a.verb == "play"), None)
            if self.action is None:
                return None
        return cardcore.Plan(self.action, 5.0 if self.action in legal else 0.0)


def test_a_plan_is_judged_by_the_version_it_was_made_at() -> None:
    """A14 (``seen = game.version - 1``): a plan made at the current version was sent with
    the version before, so a play that was legal then and is not now was judged stale
    (CORE-RT-1) rather than illegal by the game's own rule."""
    game = cardcore.new_game("speed", 2, seed=2)
    with pytest.raises(cardcore.StalledGameError, match="keep planning rejected") as info:
        cardcore.run_realtime(game, [_Stubborn(), _Timed(0.1)], seed=1, max_actions=40)
    cause = info.value.__cause__
    assert isinstance(cause, IllegalActionError)
    assert not isinstance(cause, cardcore.StaleActionError)
    assert cause.rule_id == "SPIT-MOVE-2"


class _Hoarder:
    """Keeps its views unread; on its next turn tries to read the one it kept before."""

    def __init__(self) -> None:
        self.kept: list[Mapping[str, Any]] = []
        self.read: list[object] = []

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if self.kept:
            try:
                self.read.append(self.kept[-1]["version"])
            except cardcore.CardcoreError as exc:
                self.read.append(str(exc))
        self.kept.append(view)
        return next((a for a in legal if a.verb != "drop"), legal[0])


def test_a_view_left_unread_cannot_be_read_once_the_game_moved_on() -> None:
    """A18 (the version check of ``_DeferredView`` dropped): a view kept unread and read a
    turn later showed the newer position under the old view's name."""
    game = cardcore.new_game("tonk", 2, seed=5)
    agents = [_Hoarder(), _Hoarder()]
    cardcore.play(game, agents, max_actions=6)
    read = [r for agent in agents for r in agent.read]
    assert read and all(isinstance(r, str) and "can no longer be built" in r for r in read)


def test_a_run_of_no_actions_asks_no_agent_to_plan() -> None:
    """A20 (``range(n if bound > 0 else 0)`` -> ``range(n)``): with ``max_actions=0`` every
    agent was asked to plan a position nobody plays."""
    game = cardcore.new_game("speed", 2, seed=1)
    agents = [_Timed(0.5), _Timed(0.5)]
    result = cardcore.run_realtime(game, agents, seed=1, max_actions=0)
    assert result.reason == "truncated" and game.version == 0
    assert agents[0].nows == [] and agents[1].nows == []


class _Joker:
    """Plans, at once and every time, a joker it does not hold (Speed deals none)."""

    def __init__(self) -> None:
        self.calls = 0

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Any:
        self.calls += 1
        play = next(a for a in legal if a.verb == "play")
        return cardcore.Plan(attrs.evolve(play, card=Card.parse("JK")), 0.0)


class _Idle:
    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Any:
        return None


def test_a_stall_of_refused_plans_is_called_after_the_bound() -> None:
    """A22 (``rejected > bound`` -> ``> 2 * bound``): an agent whose every plan was refused
    was asked twice as often before the stall was called."""
    game = cardcore.new_game("speed", 2, seed=1)
    joker = _Joker()
    with pytest.raises(cardcore.StalledGameError, match="keep planning rejected"):
        cardcore.run_realtime(game, [joker, _Idle()], seed=1, max_actions=10)
    assert joker.calls == 11  # its first plan, then one after each refusal but the 11th


class _GolfOnly:
    games = frozenset({"golf"})

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        return legal[0]


def test_check_agent_reads_games_declared_as_a_set() -> None:
    """A24 (``frozenset | set`` dropped from ``check_agent``): an agent declaring
    ``games = frozenset({"golf"})`` was let play Tonk."""
    from cardcore.agents import check_agent
    from cardcore.plugins import game_info

    check_agent("golf-only", _GolfOnly, game_info("golf"))
    with pytest.raises(cardcore.OptionError, match="agent 'golf-only' plays golf, not 'tonk'"):
        check_agent("golf-only", _GolfOnly, game_info("tonk"))


class _Counts(_Timed):
    """:class:`_Timed`, counting the plans asked with no legal action."""

    def __init__(self, delay: float) -> None:
        super().__init__(delay)
        self.empty = 0

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Any:
        self.empty += not legal
        return super().plan(view, legal, now)


def test_a_seat_to_act_without_legal_actions_is_still_asked_to_plan() -> None:
    """A12 (``or seat in game.to_act`` dropped): a Speed seat in ``to_act`` with no legal
    action was never asked (``RealtimeAgent.plan``: *legal* "may be empty")."""
    game = cardcore.new_game("speed", 2, seed=1)
    agents = [_Counts(0.3), _Counts(0.45)]
    cardcore.run_realtime(game, agents, seed=1, max_actions=300)
    assert agents[0].empty + agents[1].empty > 0


# --------------------------------------------------------------------------- session/fair.py

_SERVER_SEED = bytes(range(32))
_SALT = bytes(range(100, 116))


def test_commitment_and_seed_are_the_documented_hashes() -> None:
    """F1 (the chance byte dropped), F2 (the salt dropped), F3 (the lengths dropped), F4 (64
    bits), F21 (``None`` hashed as ``"-"``), F22 (the seed's tag dropped): each gave another
    commitment or seed than the formulas of ``cardcore.session.fair``'s docstring, which a
    seat recomputes on its own."""
    c2 = hashlib.sha256(b"cardcore-fair/2\0" + bytes((3,)) + _SERVER_SEED + _SALT).hexdigest()
    c1 = hashlib.sha256(b"cardcore-fair/1\0" + _SERVER_SEED + _SALT).hexdigest()
    assert commitment_of(_SERVER_SEED, _SALT, 3) == c2
    assert commitment_of(_SERVER_SEED, _SALT, None) == c1
    assert commitment_of(_SERVER_SEED, _SALT, 2) != c2
    h = hashlib.sha256(b"cardcore-seed/1\0" + _SERVER_SEED)
    for text in ("ab", "", "ç"):
        data = text.encode()
        h.update(len(data).to_bytes(4, "big") + data)
    expected = int.from_bytes(h.digest()[:16], "big")
    assert seed_of(_SERVER_SEED, ["ab", None, "ç"]) == expected
    assert seed_of(_SERVER_SEED, ["ab", "", "ç"]) == expected  # none sent hashes as empty
    assert seed_of(_SERVER_SEED, ["a", "b", "ç"]) != expected  # the lengths separate them


def _bundle(
    entropy: Sequence[str | None] = ("ann", None), *, chance: int | None = 3
) -> dict[str, Any]:
    """A fair-deal bundle of a one-round Golf game dealt from the documented seed."""
    deal = FairDeal(_SERVER_SEED, _SALT, list(entropy), chance)
    game = cardcore.new_game("golf", 2, seed=deal.seed, options={"rounds": 1})
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    return deal.bundle("audit-28", game.record())


@pytest.fixture(scope="module")
def bundle() -> dict[str, Any]:
    data = _bundle()
    assert verify_bundle(data, data["commitment"]).result is not None
    return data


def test_a_bundle_whose_record_starts_from_a_position_is_refused(bundle: dict[str, Any]) -> None:
    """F6 (``record.get("position")`` dropped): a record from ``position=`` (cards the
    server placed) verified."""
    deal = FairDeal(_SERVER_SEED, _SALT, ["ann", None])
    start = cardcore.new_game("golf", 2, seed=deal.seed, options={"rounds": 1}).position()
    game = cardcore.new_game("golf", 2, seed=deal.seed, options={"rounds": 1}, position=start)
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    data = deal.bundle("audit-28", game.record())
    assert data["record"]["position"] is not None
    with pytest.raises(FairDealError, match="stacked deck or a position"):
        verify_bundle(data)


def test_a_bundle_whose_seed_is_not_the_derived_one_is_refused(bundle: dict[str, Any]) -> None:
    """F7 (the bundle's ``seed`` unchecked): a bundle naming another seed verified."""
    data = copy.deepcopy(bundle)
    data["seed"] += 1
    with pytest.raises(FairDealError, match="the bundle's seed"):
        verify_bundle(data)


def test_a_record_dealt_from_another_seed_is_refused(bundle: dict[str, Any]) -> None:
    """F8 (the record's ``seed`` unchecked): a record the server dealt from a seed of its
    choosing, in a bundle naming the derived seed, verified (or failed to replay, not as a
    seed that does not match)."""
    deal = FairDeal(_SERVER_SEED, _SALT, ["ann", None])
    game = cardcore.new_game("golf", 2, seed=12345, options={"rounds": 1})
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    data = deal.bundle("audit-28", game.record())
    assert data["seed"] == deal.seed != data["record"]["seed"]
    with pytest.raises(FairDealError, match="the record's seed 12345"):
        verify_bundle(data)


def test_entropy_for_another_number_of_seats_is_malformed(bundle: dict[str, Any]) -> None:
    """F10 (the seat count unchecked): a third seat's entropy was hashed in and the bundle
    refused as a seed mismatch, not as malformed."""
    data = copy.deepcopy(bundle)
    data["entropy"].append("carl")
    with pytest.raises(CorruptStateError, match="different number of seats"):
        verify_bundle(data)


def test_commitments_are_read_in_any_case_and_a_noted_one_trimmed(bundle: dict[str, Any]) -> None:
    """F11 (``claimed.lower()`` dropped) and F12 (``commitment.strip()`` dropped): an upper-case
    commitment, or one noted with the newline of a copy, did not verify."""
    data = copy.deepcopy(bundle)
    data["commitment"] = data["commitment"].upper()
    assert verify_bundle(data).commitment == bundle["commitment"]
    assert verify_bundle(bundle, f"  {bundle['commitment'].upper()}\n").seed == bundle["seed"]


def test_a_format_1_bundle_ignores_a_chance_field() -> None:
    """F13 (``chance = None`` for format 1 dropped): a format-1 bundle carrying a ``chance``
    was checked against the format-2 commitment and refused."""
    data = _bundle(chance=None)
    assert data["format_version"] == 1 and "chance" not in data
    data["chance"] = 3
    report = verify_bundle(data)
    assert report.chance is None and "format-1 bundle" in report.lines()[0]


def test_a_server_seed_of_another_length_is_malformed(bundle: dict[str, Any]) -> None:
    """F15 (the length check of ``_hex`` dropped): a 31-byte server seed was refused as a
    commitment mismatch, not as a malformed bundle."""
    data = copy.deepcopy(bundle)
    data["server_seed"] = data["server_seed"][:-2]
    with pytest.raises(CorruptStateError, match="'server_seed' must be 32 bytes"):
        verify_bundle(data)


def test_entropy_longer_than_a_seat_may_send_is_malformed() -> None:
    """F16 (``len(e) <= MAX_ENTROPY`` dropped): a bundle whose seed was derived from 129
    characters of entropy (more than the protocol reads) verified."""
    data = _bundle(("x" * 129, None))
    with pytest.raises(CorruptStateError, match="at most 128 characters"):
        verify_bundle(data)


# --------------------------------------------------------------------------- session/_integrity.py

_MOVES = [(0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1"), (0, "draw")]


def _session(
    path: Path,
    *,
    seats: Sequence[int] = (0, 1),
    moves: Sequence[tuple[int, str]] = _MOVES,
    now: Any = 2.0,
) -> tuple[Session, dict[int, str]]:
    """A Golf session stored in *path*: *seats* join in that order, then *moves* are played."""
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=SQLiteStore(path))
    tokens = {}
    for seat in seats:
        out = session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0)
        tokens[seat] = next(o.message for o in out if o.message["type"] == "welcome")["token"]
    for i, (seat, action) in enumerate(moves):
        msg = {"type": "act", "action": action, "seen": i}
        session.handle(f"c{seat}", json.dumps(msg), now=now + i)
    assert session.game is not None and session.game.version == len(moves)
    return session, tokens


def _sql(path: Path, query: str, *args: Any) -> list[Any]:
    db = sqlite3.connect(path, isolation_level=None)
    try:
        return db.execute(query, args).fetchall()
    finally:
        db.close()


def test_seats_that_joined_in_reverse_order_resume(tmp_path: Path) -> None:
    """I4 (the token lines' ``sorted`` dropped): the digest followed the order the seats
    joined (1, then 0), the store hands the rows back by seat: an untouched session refused."""
    path = tmp_path / "s.db"
    session, _ = _session(path, seats=(1, 0))
    resumed = Session.resume(SQLiteStore(path), session.id, now=50.0)
    assert resumed.game is not None and resumed.game.version == 5


def test_actions_stamped_with_whole_seconds_resume(tmp_path: Path) -> None:
    """I13 (``repr(float(at))`` -> ``repr(at)`` in ``link``): an action the host stamped at a
    whole number of seconds (an int) read back as a float and the untouched session was
    refused."""
    path = tmp_path / "s.db"
    session, _ = _session(path, now=2)
    resumed = Session.resume(SQLiteStore(path), session.id, now=50)
    assert resumed.game is not None and resumed.game.version == 5


def test_action_rows_and_digest_copied_from_another_session_are_refused(tmp_path: Path) -> None:
    """I14 (the session id dropped from the chain's start): another session's action rows,
    copied with its record digest, were resumed as this session's."""
    path = tmp_path / "s.db"
    mine, _ = _session(path)
    other_moves = [(0, "flip 0"), (0, "flip 2"), (1, "flip 0"), (1, "flip 1"), (0, "draw")]
    other, _ = _session(path, moves=other_moves)
    rows = _sql(path, "SELECT idx, seat, notation, at FROM actions WHERE session = ?", other.id)
    _sql(path, "DELETE FROM actions WHERE session = ?", mine.id)
    for row in rows:
        _sql(path, "INSERT INTO actions VALUES (?, ?, ?, ?, ?)", mine.id, *row)
    metas = {sid: json.loads(m) for sid, m in _sql(path, "SELECT id, meta FROM sessions")}
    metas[mine.id]["integrity"]["record"] = metas[other.id]["integrity"]["record"]
    _sql(path, "UPDATE sessions SET meta = ? WHERE id = ?", json.dumps(metas[mine.id]), mine.id)
    with pytest.raises(CorruptSessionError, match="its stored action rows differ"):
        Session.resume(SQLiteStore(path), mine.id, now=50.0)


def test_a_token_expiry_that_is_no_number_is_refused_by_kind(tmp_path: Path) -> None:
    """I21 (the expiry's kind unchecked): a token row expiring ``"soon"`` raised ValueError
    out of the digest instead of refusing the session."""
    path = tmp_path / "s.db"
    session, _ = _session(path)
    _sql(path, "UPDATE tokens SET expires = 'soon' WHERE seat = 1")
    with pytest.raises(CorruptSessionError, match="expiry of the wrong kind"):
        Session.resume(SQLiteStore(path), session.id, now=50.0)


_V2 = Path(__file__).resolve().parents[1] / "session" / "data" / "golf_v2_session.json"


def test_a_kept_message_numbered_otherwise_than_its_row_is_not_served(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """I17 (``data.get("n") == number`` dropped in ``read_kept``): in a session stored before
    stream digests (format 2), a kept message whose own number is not its row's was served
    on a rejoin instead of a fresh view."""
    data = json.loads(_V2.read_text())
    messages = {k: [tuple(m) for m in v] for k, v in data["messages"].items()}
    n, body = messages["seat.0"][-1]
    edited = json.loads(body)
    edited["n"] = n + 7
    messages["seat.0"][-1] = (n, json.dumps(edited))
    store = MemoryStore()
    store._data[data["id"]] = StoredSession(
        data["id"],
        data["status"],
        data["created"],
        data["meta"],
        [tuple(a) for a in data["actions"]],  # type: ignore[misc]
        [TokenRow(**t) for t in data["tokens"]],
        messages,  # type: ignore[arg-type]
    )
    resumed = Session.resume(store, data["id"], now=50.0)
    join = {"type": "join", "seat": 0, "token": data["plain_tokens"]["0"], "last": n - 1}
    with caplog.at_level(logging.ERROR, logger="cardcore.session"):
        out = resumed.handle("ann", json.dumps(join), now=51.0)
    assert [o.message["type"] for o in out if o.conn == "ann"] == ["welcome", "view", "presence"]
    assert any(
        f"stored message {n} of stream seat.0 is unreadable" in r.getMessage()
        for r in caplog.records
    )


def test_an_edited_tail_dropped_at_resume_is_not_trusted_after_the_next_commit(
    tmp_path: Path,
) -> None:
    """I16 (``trim_tail`` keeping, not dropping, a tail whose digest is not the committed one):
    the edited messages stayed in memory, the next commit's digest covered them, and after a
    second restart a rejoin was served the edited message."""
    path = tmp_path / "s.db"
    session, tokens = _session(path)
    n, body = _sql(
        path, "SELECT n, body FROM messages WHERE stream = 'seat.1' ORDER BY n DESC LIMIT 1"
    )[0]
    forged = {"type": json.loads(body)["type"], "n": n, "forged": True}  # readable, and short
    _sql(
        path,
        "UPDATE messages SET body = ? WHERE stream = 'seat.1' AND n = ?",
        json.dumps(forged),
        n,
    )
    first = Session.resume(SQLiteStore(path), session.id, now=50.0)
    join = {"type": "join", "seat": 0, "token": tokens[0]}
    first.handle("ann", json.dumps(join), now=51.0)
    assert first.game is not None
    action = str(first.game.legal_actions(0)[0])
    first.handle("ann", json.dumps({"type": "act", "action": action, "seen": 5}), now=52.0)
    assert first.game.version == 6
    second = Session.resume(SQLiteStore(path), session.id, now=60.0)
    rejoin = {"type": "join", "seat": 1, "token": tokens[1], "last": n - 1}
    out = [o.message for o in second.handle("bob", json.dumps(rejoin), now=61.0) if o.conn == "bob"]
    assert [m["type"] for m in out] == ["welcome", "view", "presence"]
    assert not any(m.get("forged") for m in out)


@pytest.mark.parametrize(
    ("winners", "payouts"),
    [([True], None), ([0], [1.5, -1.5]), ([0], [b"1", b"2"]), ([0], [None, 0])],
)
def test_end_game_refuses_a_bool_seat_and_payouts_that_are_no_whole_numbers(
    winners: list[Any], payouts: list[Any] | None
) -> None:
    """Fixed with the xfail above: ``winners=[True]`` was read as seat 1 and a payout of 1.5
    was kept; both are refused and change nothing; whole numbers of any int type pass."""
    state = cardcore.new_game("golf", 2, seed=1).state
    with pytest.raises(ArgumentError, match="end_game takes winners"):
        end_game(state, winners, [0.0, 1.0], "out", payouts=payouts)
    assert not state.is_over and state.result is None and state.to_act
    result = end_game(state, [1], [0.0, 1.0], "out", payouts=[-3, 3])
    assert result.payouts == (-3, 3) and type(result.payouts[0]) is int and state.is_over
