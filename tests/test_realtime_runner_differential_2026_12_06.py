"""Differential review of the virtual-clock runner, ``cardcore.run_realtime``.

Written from design.md ("Time and turns"), seeds/core.md (CORE-RT-1..3),
docs/agents.rst, docs/plugin-guide/realtime.rst, docs/api.rst and the public
docstrings of ``run_realtime``, ``Plan`` and ``RealtimeAgent``, before reading
the runner's body. Scripted agents (fixed delays) make every plan known, and an
independent model of the documented schedule predicts each applied action,
its time and every call an agent gets:

* the earliest due plan is applied, ``at`` its due time, ``seen`` the version
  it was planned on; equal due times are broken by a seeded draw;
* after each apply the acting seat plans again, a seat whose planned action is
  no longer legal plans again from the current time (due = now + delay), a seat
  that planned nothing plans again, the others keep their plans and due times;
* a negative delay counts as 0; ``start`` earlier than the last recorded time
  starts there; ``max_actions`` ends the game as "truncated";
* nobody planning while the game is not over raises ``StalledGameError``.

The model runs on its own copy of the game (same setup) and uses the game only
for legality; ties are the one thing it cannot predict, so there it accepts
any of the tied seats and the tie tests check the draw itself.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    Action,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Plan,
    Ruleset,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.turns import end_game, winners_by

# ---------------------------------------------------------------------------
# A tiny real-time game: "tap". Every seat may grab the prize that is up
# (``grab N``, a race: the first grab makes every other ``grab N`` illegal), and
# each seat has private steps (``step K``, legal for that seat only, untouched by
# the others' actions). The game ends when the prizes are gone and every seat
# has made its steps.


@frozen
class Grab(Action):
    n: int
    verb: ClassVar[str] = "grab"

    def notation(self) -> str:
        return f"grab {self.n}"


@frozen
class Step(Action):
    k: int
    verb: ClassVar[str] = "step"

    def notation(self) -> str:
        return f"step {self.k}"


class TapState(GameState):
    __slots__ = ("got", "prize", "steps")
    prize: int
    steps: list[int]
    got: list[int]


class TapLogic(GameLogic[TapState, Grab | Step]):
    action_types = (Grab, Step)
    position_fields = ("to_act", "prize", "steps", "got")
    grabs = 3  # prizes
    step_count: int | None = 2  # steps per seat (None: without end)
    ends = True  # False: when all is done nobody can act, yet the game goes on
    bound = 400

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return self.bound

    def blank_state(self, players: int, options: Mapping[str, Any]) -> TapState:
        layout = Layout.of([ZoneSpec("stock", None, Visibility.NOBODY)])
        state = TapState(players, options, Zones(layout))
        state.prize = 0
        state.steps = [0] * players
        state.got = [0] * players
        return state

    def new_state(
        self, players: int, options: Mapping[str, Any], cards: list[Any], seed: int, emit: Any
    ) -> TapState:
        state = self.blank_state(players, options)
        state.seed = seed
        for card in cards:
            state.zones.put(0, card)
        state.to_act = tuple(range(players))
        return state

    def _steps_left(self, state: TapState, seat: int) -> bool:
        return self.step_count is None or state.steps[seat] < self.step_count

    def legal_actions(self, state: TapState, seat: int) -> tuple[Grab | Step, ...]:
        grab = (Grab(seat, state.prize),) if state.prize < self.grabs else ()
        step = (Step(seat, state.steps[seat]),) if self._steps_left(state, seat) else ()
        return grab + step

    def rule_for(self, state: TapState, action: Grab | Step) -> tuple[str, str]:
        if isinstance(action, Grab):
            return "TAP-GRAB-1", "a grab names the prize up"
        return "TAP-STEP-1", "a step names the seat's next step"

    def apply(self, state: TapState, action: Grab | Step, emit: Any) -> None:
        if isinstance(action, Grab):
            state.prize += 1
            state.got[action.seat] += 1
        else:
            state.steps[action.seat] += 1
        done = state.prize >= self.grabs and not any(
            self._steps_left(state, s) for s in range(state.players)
        )
        if done and self.ends:
            end_game(state, tuple(range(state.players)), self.scores(state), "all done")

    def scores(self, state: TapState) -> tuple[float, ...]:
        return tuple(float(g) for g in state.got)

    def standings(self, state: TapState) -> tuple[int, ...]:
        return winners_by(self.scores(state), lowest=False)

    def table(self, state: TapState, seat: int | None) -> dict[str, Any]:
        return {"prize": state.prize, "steps": list(state.steps)}


class LongTap(TapLogic):
    grabs = 80  # more prizes than STALE_WINDOW versions


class StuckTap(TapLogic):
    ends = False  # all done, nobody can act, not over


class EndlessTap(TapLogic):
    step_count = None  # steps never run out: only the bound ends it
    bound = 12


VARIANTS: dict[str, type[TapLogic]] = {
    "taptest": TapLogic,
    "taplong": LongTap,
    "tapstuck": StuckTap,
    "tapendless": EndlessTap,
}


def _module(name: str, logic: type[TapLogic]) -> types.ModuleType:
    module = types.ModuleType(name)
    module.GAME = GameInfo(name, "a race for prizes", 2, 4, realtime=True, version="1.0.0")  # type: ignore[attr-defined]

    def create_logic(ruleset: Ruleset) -> TapLogic:
        return logic(ruleset)

    module.create_logic = hookimpl(create_logic)  # type: ignore[attr-defined]
    return module


@pytest.fixture(scope="module", autouse=True)
def _tap_games() -> Iterator[None]:
    for name, logic in VARIANTS.items():
        cardcore.register("cardcore.games", name, _module(name, logic))
    yield
    for name in VARIANTS:
        cardcore.unregister("cardcore.games", name)


# ---------------------------------------------------------------------------
# Scripted agents and the model.

Chooser = Callable[[int, Sequence[Action]], "tuple[Action, float] | None"]


class Scripted:
    """Plans what *script(call_index, legal)* says; logs every call it gets."""

    def __init__(self, script: Chooser) -> None:
        self.script = script
        self.calls: list[tuple[int, float, tuple[str, ...]]] = []

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        self.calls.append((view["version"], now, tuple(a.notation() for a in legal)))
        chosen = self.script(len(self.calls) - 1, legal)
        return None if chosen is None else Plan(*chosen)


def first(delays: Sequence[float], prefer: str = "") -> Chooser:
    """The first legal action (one whose notation starts with *prefer* if any),
    after delays[i % len] on the i-th call."""

    def script(i: int, legal: Sequence[Action]) -> tuple[Action, float] | None:
        if not legal:
            return None
        liked = [a for a in legal if a.notation().startswith(prefer)] or list(legal)
        return liked[0], delays[i % len(delays)]

    return script


def model(
    new: Callable[[], cardcore.Game],
    scripts: Sequence[Chooser],
    record: Sequence[Sequence[Any]],
    start: float = 0.0,
    truncated: bool = False,
) -> tuple[list[Scripted], dict[str, int]]:
    """Replays the documented schedule on a fresh game; at every step the
    record's action must be the earliest due plan (one of the tied ones), at
    its due time. Returns the model's agents (their call logs) and counters."""
    game = new()
    record = record[len(game.record()["actions"]) :]  # the actions made before the run
    agents = [Scripted(s) for s in scripts]
    seats = range(len(agents))
    ats = [a[2] for a in game.record()["actions"] if a[2] is not None]
    now = max([start, *ats])
    plans: dict[int, tuple[Action, float, int] | None] = {}
    counts = {"replanned_illegal": 0, "kept": 0, "idle_asked": 0, "ties": 0}

    def ask(seat: int) -> None:
        if seat not in game.to_act:  # a seat that waits (a ready Spit seat) is not asked
            plans[seat] = None
            return
        legal = game.legal_actions(seat)
        plan = agents[seat].plan(game.view(seat), legal, now)
        plans[seat] = (
            None if plan is None else (plan.action, now + max(plan.delay, 0.0), game.version)
        )

    for seat in seats:
        ask(seat)
    for step, (seat, text, at) in enumerate(record):
        live = {s: p for s, p in plans.items() if p is not None}
        assert live, f"step {step}: the model has no plan left, the runner applied {text!r}"
        due = min(p[1] for p in live.values())
        tied = sorted(s for s, p in live.items() if p[1] == due)
        counts["ties"] += len(tied) > 1
        assert seat in tied, f"step {step}: runner applied seat {seat}, model expects one of {tied}"
        action, _, seen = live[seat]
        assert (text, at) == (action.notation(), pytest.approx(due, rel=1e-12, abs=1e-12)), step
        game.apply(action, at=due, seen=seen)
        now = due
        if game.is_over:  # nobody plans on a finished game
            assert step == len(record) - 1, "the model's game ended before the record did"
            break
        if truncated and step == len(record) - 1:  # max_actions: nobody plans after the last
            break
        ask(seat)
        for other in seats:
            if other == seat:
                continue
            kept = plans[other]
            if kept is None:
                counts["idle_asked"] += 1
                ask(other)
            elif kept[0] not in game.legal_actions(other):
                counts["replanned_illegal"] += 1
                ask(other)
            else:
                counts["kept"] += 1
    assert game.is_over or truncated, "the record ended before the model's game"
    return agents, counts


def check_against_model(
    new: Callable[[], cardcore.Game],
    scripts: Sequence[Chooser],
    seed: int,
    start: float = 0.0,
    max_actions: int | None = None,
) -> tuple[cardcore.Game, dict[str, int]]:
    game = new()
    agents = [Scripted(s) for s in scripts]
    result = cardcore.run_realtime(game, agents, seed=seed, start=start, max_actions=max_actions)
    record = game.record()["actions"]
    twins, counts = model(new, scripts, record, start, truncated=result.reason == "truncated")
    for seat, (real, mine) in enumerate(zip(agents, twins, strict=True)):
        assert len(mine.calls) == len(real.calls), seat
        for (v, t, legal), (rv, rt, rlegal) in zip(mine.calls, real.calls, strict=True):
            assert (v, legal) == (rv, rlegal) and t == pytest.approx(rt), seat
    return game, counts


def tap(players: int = 2, name: str = "taptest") -> Callable[[], cardcore.Game]:
    return lambda: cardcore.new_game(name, players, seed=1)


# ---------------------------------------------------------------------------
# Hand-predicted schedules on the tap game.


def test_hand_predicted_schedule_race_and_replan() -> None:
    # Seat 0 reacts in 1.0 s, seat 1 in 0.4 s; both prefer to grab. Seat 1 grabs at
    # 0.4, 0.8, 1.2; each grab makes seat 0's planned grab illegal, so seat 0 plans
    # again from that time (due 1.4, 1.8, then a step due 2.2). Seat 1 steps at 1.6
    # and 2.0, seat 0 at 2.2 and 3.2.
    game = tap()()
    slow, fast = Scripted(first([1.0], "grab")), Scripted(first([0.4], "grab"))
    result = cardcore.run_realtime(game, [slow, fast], seed=5)
    got = [(s, n, round(t, 9)) for s, n, t in game.record()["actions"]]
    assert got == [
        (1, "grab 0", 0.4),
        (1, "grab 1", 0.8),
        (1, "grab 2", 1.2),
        (1, "step 0", 1.6),
        (1, "step 1", 2.0),
        (0, "step 0", 2.2),
        (0, "step 1", 3.2),
    ]
    assert result.reason == "all done"
    # Seat 0 planned at 0 and again after each of the three grabs (from the grab's
    # time, on its version), and once after its own first step: never after
    # seat 1's steps, which left its plan legal.
    assert [(v, round(t, 9)) for v, t, _ in slow.calls] == [
        (0, 0.0),
        (1, 0.4),
        (2, 0.8),
        (3, 1.2),
        (6, 2.2),
    ]


def test_kept_plan_keeps_its_due_time() -> None:
    # Seat 0 plans its private step at 0 for 1.0; seat 1 grabs all three prizes
    # before then. The step stays legal: no new plan, applied at 1.0.
    game = tap()()
    stepper, grabber = Scripted(first([1.0], "step")), Scripted(first([0.3], "grab"))
    cardcore.run_realtime(game, [stepper, grabber], seed=2)
    actions = game.record()["actions"]
    assert [a[:2] for a in actions[:4]] == [
        [1, "grab 0"],
        [1, "grab 1"],
        [1, "grab 2"],
        [0, "step 0"],
    ]
    assert actions[3][2] == pytest.approx(1.0)
    assert stepper.calls[0][:2] == (0, 0.0)
    assert stepper.calls[1][0] == 4 and stepper.calls[1][1] == pytest.approx(1.0)


def test_illegal_plan_replans_from_now_with_a_fresh_delay() -> None:
    # Seat 0's delays are 0.5 then 0.25: its grab 0 (due 0.5) is overtaken by seat 1's
    # at 0.3, so it plans again at 0.3 on version 1 and grabs 1 at 0.3 + 0.25.
    game = tap()()
    a, b = Scripted(first([0.5, 0.25], "grab")), Scripted(first([0.3, 9.0], "grab"))
    cardcore.run_realtime(game, [a, b], seed=1, max_actions=2)
    assert [tuple(x) for x in game.record()["actions"]] == [
        (1, "grab 0", 0.3),
        (0, "grab 1", pytest.approx(0.55)),
    ]
    assert a.calls[1] == (1, 0.3, ("grab 1", "step 0"))


def test_idle_agent_is_asked_after_every_change() -> None:
    # An agent that plans nothing is asked again after each apply, on the new version.
    game = tap()()
    idle = Scripted(lambda i, legal: None if i < 3 else first([0.1])(i, legal))
    busy = Scripted(first([0.5], "grab"))
    cardcore.run_realtime(game, [idle, busy], seed=1, max_actions=4)
    assert [v for v, _, _ in idle.calls[:4]] == [0, 1, 2, 3]
    assert game.record()["actions"][3][:2] == [0, "step 0"]


# ---------------------------------------------------------------------------
# The model against the runner.

DELAYS = ([0.31, 0.47, 0.29], [0.43, 0.23, 0.61, 0.37], [0.53, 0.19])


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_model_matches_runner_on_tap(players: int, seed: int) -> None:
    prefers = ("grab", "step", "grab")
    scripts = [first(DELAYS[s], prefers[s]) for s in range(players)]
    game, counts = check_against_model(tap(players), scripts, seed)
    assert game.is_over and counts["replanned_illegal"] > 0 and counts["kept"] > 0


def test_model_matches_runner_with_start_before_last_time() -> None:
    # A start earlier than the last recorded time starts at that time.
    def new() -> cardcore.Game:
        game = tap()()
        game.act(1, "step 0", at=5.0)
        return game

    game, _ = check_against_model(new, [first([0.5]), first([0.7], "step")], seed=3, start=1.0)
    assert game.record()["actions"][1] == [0, "grab 0", 5.5]


SPEED_DECK = "5C 6D 7H 8S 9C 10D"
SPIT_DECK = "KH QS JD 10C 9H 8D 7S"


@pytest.mark.parametrize(("name", "deck"), [("speed", SPEED_DECK), ("spit", SPIT_DECK)])
@pytest.mark.parametrize("seed", [3, 11])
def test_model_matches_runner_on_spit_and_speed(name: str, deck: str, seed: int) -> None:
    def new() -> cardcore.Game:
        return cardcore.new_game(name, ["Ann", "Bob"], deck=deck, seed=seed)

    scripts = [first([0.211, 0.347, 0.289], "play"), first([0.263, 0.199, 0.401, 0.313], "play")]
    game, counts = check_against_model(new, scripts, seed=seed, max_actions=400)
    assert len(game.record()["actions"]) > 20
    assert counts["kept"] > 0
    assert counts["replanned_illegal"] > 0 or name == "spit"  # Spit seed 3 loops in its setup


# Speed, stacked (SPEED-SETUP-3: play piles, side piles, then hands alternately):
# L shows 5C, R shows KD; Ann holds 6H 9C 9D 2C 2D, Bob 6S 9H 9S 2H 2S. Both may
# play their six on L; nothing else fits.
RACE_DECK = "5C KD 8C 8D 8H 8S 3C 3D 3H 3S JC JD 6H 6S 9C 9H 9D 9S 2C 2H 2D 2S"


@pytest.mark.parametrize(("ann", "bob"), [(0.3, 0.4), (0.45, 0.35)])
def test_speed_stacked_race_the_quicker_six_wins_the_loser_replans(ann: float, bob: float) -> None:
    game = cardcore.new_game("speed", ["Ann", "Bob"], deck=RACE_DECK, seed=1)
    agents = [Scripted(first([ann, 0.5], "play 6")), Scripted(first([bob, 0.5], "play 6"))]
    cardcore.run_realtime(game, agents, seed=1, max_actions=1)
    winner = 0 if ann < bob else 1
    card = ("6H", "6S")[winner]
    assert game.record()["actions"] == [[winner, f"play {card} L", min(ann, bob)]]
    loser = agents[1 - winner]
    assert [c[2] for c in loser.calls] == [
        (f"play {('6H', '6S')[1 - winner]} L", "stuck")
    ]  # max_actions: no more
    # Without the bound the loser, whose six no longer fits, plans again at the
    # winner's time on version 1 (a stuck seat, its only legal action).
    game = cardcore.new_game("speed", ["Ann", "Bob"], deck=RACE_DECK, seed=1)
    agents = [Scripted(first([ann, 0.5], "play 6")), Scripted(first([bob, 0.5], "play 6"))]
    cardcore.run_realtime(game, agents, seed=1, max_actions=2)
    loser = agents[1 - winner]
    assert loser.calls[1][0] == 1 and loser.calls[1][1] == pytest.approx(min(ann, bob))
    assert all(not n.startswith("play 6") for n in loser.calls[1][2])


@pytest.mark.parametrize("seed", [1, 2])
def test_model_matches_runner_on_stacked_speed_race(seed: int) -> None:
    def new() -> cardcore.Game:
        return cardcore.new_game("speed", ["Ann", "Bob"], deck=RACE_DECK, seed=seed)

    scripts = [first([0.3, 0.27, 0.41], "play"), first([0.4, 0.22, 0.33], "play")]
    game, counts = check_against_model(new, scripts, seed=seed)
    assert game.is_over and counts["replanned_illegal"] > 0


# ---------------------------------------------------------------------------
# Ties.


def _tie_winner(seed: int, players: int = 2) -> int:
    game = tap(players)()
    agents = [Scripted(first([0.5], "grab")) for _ in range(players)]
    cardcore.run_realtime(game, agents, seed=seed, max_actions=1)
    seat: int = game.record()["actions"][0][0]
    return seat


def test_ties_are_reproducible_for_a_seed_and_not_by_seat() -> None:
    winners = [_tie_winner(seed) for seed in range(24)]
    assert winners == [_tie_winner(seed) for seed in range(24)]
    assert set(winners) == {0, 1}
    assert set(_tie_winner(seed, 3) for seed in range(30)) == {0, 1, 2}


def test_tied_loser_replans_after_the_winner() -> None:
    # Both due at 0.5: the loser's grab 0 is illegal after the winner's, so it plans
    # again at 0.5 (the model accepts either tied seat and checks the rest).
    scripts = [first([0.5, 0.2], "grab"), first([0.5, 0.3], "grab")]
    for seed in range(4):
        _, counts = check_against_model(tap(), scripts, seed)
        assert counts["ties"] >= 1


# ---------------------------------------------------------------------------
# Determinism, bounds, errors.


@pytest.mark.parametrize("name", ["speed", "spit"])
def test_same_seeds_same_game(name: str) -> None:
    from cardcore_spit.agents import SpitGreedyAgent

    def once() -> list[Any]:
        game = cardcore.new_game(name, 2, deck=SPEED_DECK, seed=4)
        cardcore.run_realtime(game, [SpitGreedyAgent(seed=1), cardcore.RandomAgent(seed=2)], seed=9)
        actions: list[Any] = game.record()["actions"]
        return actions

    assert once() == once()


def test_on_action_sees_each_applied_action_and_its_time() -> None:
    game = tap()()
    seen: list[tuple[str, float]] = []
    cardcore.run_realtime(
        game,
        [Scripted(first([0.3])), Scripted(first([0.45], "step"))],
        seed=1,
        on_action=lambda g, action, at: seen.append((action.notation(), at)),
    )
    assert seen == [(n, t) for _, n, t in game.record()["actions"]]


def test_max_actions_truncates_and_asks_nobody_after() -> None:
    game = tap()()
    agents = [Scripted(first([0.3])), Scripted(first([0.45], "step"))]
    result = cardcore.run_realtime(game, agents, seed=1, max_actions=3)
    assert result.reason == "truncated" and game.is_over and len(game.record()["actions"]) == 3
    assert max(v for a in agents for v, _, _ in a.calls) <= 2  # nobody planned on version 3
    replayed = cardcore.replay(game.record()).result
    assert replayed is not None and replayed.reason == "truncated"
    none = [Scripted(first([0.3])), Scripted(first([0.3]))]
    zero = tap()()
    assert cardcore.run_realtime(zero, none, seed=1, max_actions=0).reason == "truncated"
    assert none[0].calls == none[1].calls == [] and zero.record()["actions"] == []


def test_action_bound_truncates() -> None:
    game = cardcore.new_game("tapendless", 2, seed=1)
    result = cardcore.run_realtime(
        game, [Scripted(first([0.3], "step")), Scripted(first([0.4], "step"))]
    )
    assert result.reason == "truncated" and len(game.record()["actions"]) == EndlessTap.bound
    again = [Scripted(first([0.3])), Scripted(first([0.4]))]
    assert cardcore.run_realtime(game, again).reason == "truncated"  # found over: no pause
    assert len(game.record()["actions"]) == EndlessTap.bound and again[0].calls == []


def test_stall_when_no_agent_plans() -> None:
    game = tap()()
    never = [Scripted(lambda i, legal: None), Scripted(lambda i, legal: None)]
    with pytest.raises(cardcore.StalledGameError, match=r"CORE-RT-2") as err:
        cardcore.run_realtime(game, never, seed=1)
    assert "seats with legal actions: [0, 1]" in str(err.value)
    assert game.version == 0 and not game.is_over


def test_stall_when_nobody_can_act() -> None:
    game = cardcore.new_game("tapstuck", 2, seed=1)
    with pytest.raises(cardcore.StalledGameError, match=r"CORE-RT-2") as err:
        cardcore.run_realtime(game, [Scripted(first([0.3])), Scripted(first([0.4]))], seed=1)
    assert game.version == 3 + 2 * 2 and not game.is_over  # every grab and step made
    assert "nobody can act" in str(err.value)  # not "no agent plans": the seats could not


def test_rejected_plans_forever_stall_quoting_the_last_rejection() -> None:
    game = tap()()
    bad = Scripted(lambda i, legal: (Grab(0, 99), 0.5))
    with pytest.raises(
        cardcore.StalledGameError, match=r"a grab names the prize up \(TAP-GRAB-1\)"
    ):
        cardcore.run_realtime(game, [bad, Scripted(lambda i, legal: None)], seed=1)
    assert game.version == 0 and game.record()["actions"] == []


def test_malformed_plans_name_the_seat_and_class() -> None:
    other = Scripted(lambda i, legal: (Grab(1, 0), 0.5))
    with pytest.raises(cardcore.IllegalActionError, match=r"seat 0 \(Scripted\)"):
        cardcore.run_realtime(tap()(), [other, Scripted(lambda i, legal: None)], seed=1)

    class Words:
        def plan(self, view: Any, legal: Any, now: float) -> Any:
            return "grab 0"

    with pytest.raises(cardcore.CardcoreError, match=r"seat 1 \(Words\)"):
        cardcore.run_realtime(tap()(), [Scripted(lambda i, legal: None), Words()], seed=1)
    nan = Scripted(lambda i, legal: (legal[0], float("nan")))
    with pytest.raises(cardcore.CardcoreError, match=r"seat 0 \(Scripted\)"):
        cardcore.run_realtime(tap()(), [nan, Scripted(lambda i, legal: None)], seed=1)


def test_negative_delay_counts_as_zero() -> None:
    game = tap()()
    cardcore.run_realtime(
        game, [Scripted(first([0.2])), Scripted(first([-3.0], "step"))], seed=1, max_actions=2
    )
    assert game.record()["actions"][0] == [1, "step 0", 0.0]


def test_runner_never_sends_an_overtaken_plan() -> None:
    # The two slaps-on-one-pile race: the core refuses the second as stale
    # (CORE-RT-1) when sent with the first one's seen...
    game = tap()()
    game.apply(Grab(0, 0), at=0.5, seen=0)
    with pytest.raises(cardcore.StaleActionError):
        game.apply(Grab(1, 0), at=0.6, seen=0)
    # ...but the runner plans it again instead of sending it: no error escapes and
    # the loser's agent is asked on the new version.
    race = tap()()
    loser = Scripted(first([0.6], "grab"))
    cardcore.run_realtime(race, [Scripted(first([0.5], "grab")), loser], seed=1, max_actions=1)
    assert [v for v, _, _ in loser.calls] == [0]


# ---------------------------------------------------------------------------
# Faster bots win more.


@pytest.mark.parametrize("name", ["speed", "spit"])
def test_faster_bot_wins_more(name: str) -> None:
    from cardcore_spit.agents import SpitGreedyAgent

    def wins(fast_mean: float, slow_mean: float, games: int = 16) -> int:
        won = 0
        for i in range(games):
            fast = i % 2
            agents: list[Any] = [None, None]
            agents[fast] = SpitGreedyAgent(seed=2 * i, mean=fast_mean)
            agents[1 - fast] = SpitGreedyAgent(seed=2 * i + 1, mean=slow_mean)
            result = cardcore.run_realtime(cardcore.new_game(name, 2, seed=50 + i), agents, seed=i)
            won += result.winners == (fast,)
        return won

    assert wins(0.3, 0.9) >= 13  # well above half of 16
    assert wins(0.3, 0.9) > wins(0.3, 0.3)


# ---------------------------------------------------------------------------
# Findings.


def test_kept_plan_inside_the_window_is_applied_at_its_due_time() -> None:
    # As the finding below, but due when 60 versions passed (inside STALE_WINDOW):
    # the kept plan, sent with the version it was planned on, is applied at its time.
    game = cardcore.new_game("taplong", 2, seed=1)
    slow = Scripted(first([6.05], "step"))
    cardcore.run_realtime(game, [slow, Scripted(first([0.1], "grab"))], seed=3)
    mine = [a for a in game.record()["actions"] if a[0] == 0]
    assert mine[0][1:] == ["step 0", pytest.approx(6.05)]
    assert slow.calls[1][0] == 61  # planned again only after its own step
    assert cardcore.STALE_WINDOW == 64


def test_seat_to_act_without_legal_actions_is_asked_with_none() -> None:
    # RealtimeAgent.plan: legal is "empty when the seat is in to_act but may do
    # nothing now ... return None then" (the seat is asked).
    game = tap()()
    done, other = Scripted(first([0.1], "step")), Scripted(first([1.0], "step"))
    cardcore.run_realtime(game, [done, other], seed=1, max_actions=6)
    assert () in [legal for _, _, legal in done.calls]  # grabs gone, steps made: asked, empty


def test_kept_legal_plan_is_applied_at_its_due_time_past_the_window() -> None:
    # Seat 0 plans its private step at 0 for 10 s; seat 1 grabs 80 prizes (0.1 s
    # each) meanwhile. The step stays legal throughout, so its plan is kept
    # (design.md: "the others keep their due times") and the earliest due plan is
    # applied: step 0 at 10.0.
    game = cardcore.new_game("taplong", 2, seed=1)
    slow = Scripted(first([10.0], "step"))
    cardcore.run_realtime(game, [slow, Scripted(first([0.1], "grab"))], seed=3)
    mine = [a for a in game.record()["actions"] if a[0] == 0]
    assert mine[0][1:] == ["step 0", pytest.approx(10.0)]
