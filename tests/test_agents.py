"""What an agent is handed leads nowhere: no path to the Game, its state or its seed.

The runners (:func:`cardcore.play`, :func:`cardcore.run_realtime`, the
``cardcore`` command) hand an agent a :class:`cardcore.LazyView` and a tuple of
legal actions. These tests walk everything reachable from them, through
attributes, slots, containers, closures and bound methods (``gc.get_referents``),
and check that no :class:`~cardcore.Game`, :class:`~cardcore.GameState` or
:class:`~cardcore.Zones`, and not the seed, is ever reached.
"""

from __future__ import annotations

import gc
import pickle
import types
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import cardcore
from cardcore import Action, CardcoreError, Game, GameState, LazyView, Plan, RandomAgent, Zones

SEED = 918_273_645_546_372_819
"""A seed no view could hold by chance."""


def reachable(*roots: object) -> list[object]:
    """Every object reachable from *roots* as data.

    Classes, modules and code are not followed (they are shared program text,
    not something handed over), nor a function's globals; a function's closure
    and defaults, a bound method's ``__self__``, slots, ``__dict__`` and
    container items are.
    """
    seen: dict[int, object] = {}
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type | types.ModuleType | types.CodeType):
            continue
        seen[id(obj)] = obj
        if isinstance(obj, types.FunctionType):
            todo += [c.cell_contents for c in obj.__closure__ or () if _filled(c)]
            todo += [obj.__defaults__, obj.__kwdefaults__]
            continue
        if isinstance(obj, types.MethodType):
            todo += [obj.__self__, obj.__func__]
            continue
        todo += gc.get_referents(obj)
        for klass in type(obj).__mro__:
            for name in getattr(klass, "__slots__", ()):
                if hasattr(obj, name):
                    todo.append(getattr(obj, name))
        if hasattr(obj, "__dict__") and not isinstance(obj, type):
            todo.append(vars(obj))
    return list(seen.values())


def _filled(cell: types.CellType) -> bool:
    try:
        cell.cell_contents  # noqa: B018
    except ValueError:
        return False
    return True


def assert_leads_nowhere(*roots: object) -> None:
    for obj in reachable(*roots):
        assert not isinstance(obj, Game | GameState | Zones), f"reached {type(obj).__name__}"
        assert not (isinstance(obj, int) and obj == SEED), "reached the seed"
        assert not (isinstance(obj, str) and str(SEED) in obj), "reached the seed in a text"


def test_the_walk_finds_a_game_behind_a_closure() -> None:
    game = cardcore.new_game("golf", 2, seed=SEED)
    with pytest.raises(AssertionError, match="Game"):
        assert_leads_nowhere(lambda: game.view(0))
    with pytest.raises(AssertionError, match="Game"):
        assert_leads_nowhere(game.view)
    with pytest.raises(AssertionError):
        assert_leads_nowhere({"x": [(SEED,)]})


class Walker:
    """An agent that walks what it is handed before every decision (and reads the view)."""

    def __init__(self, seed: int, *, read: bool) -> None:
        self.inner = RandomAgent(seed)
        self.read = read
        self.calls = 0

    def _walk(self, view: Mapping[str, Any], legal: Sequence[Action]) -> None:
        self.calls += 1
        if self.calls % 7 != 1:  # every seventh decision: the walk is slow
            return
        assert isinstance(view, LazyView)
        assert_leads_nowhere(view, legal)
        with pytest.raises(AttributeError):
            view._game  # type: ignore[attr-defined]  # noqa: B018
        with pytest.raises(TypeError):
            vars(view)
        if self.read:
            assert view["seat"] in (0, 1, 2)  # built now, still nowhere to go
            assert_leads_nowhere(view, legal)

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        self._walk(view, legal)
        return self.inner.choose(view, legal)

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        self._walk(view, legal)
        return self.inner.plan(view, legal, now)


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
def test_what_an_agent_receives_never_reaches_the_game(name: str) -> None:
    options = {"hands": 4} if name == "tonk" else {}  # a hand may end at once (a natural)
    game = cardcore.new_game(name, 2, seed=SEED, options=options)
    agents = [Walker(1, read=True), Walker(2, read=False)]
    if game.ruleset.game.realtime:
        cardcore.run_realtime(game, agents, seed=3, max_actions=120)
    else:
        cardcore.play(game, agents, max_actions=120)
    assert agents[0].calls > 1 and agents[1].calls > 1


class Keeper:
    """Keeps the view it was handed, unread, to read after the game moved on."""

    def __init__(self) -> None:
        self.kept: list[Mapping[str, Any]] = []

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        self.kept.append(view)
        return legal[0]


def test_an_unread_view_cannot_be_built_once_the_game_moved_on() -> None:
    game = cardcore.new_game("golf", 2, seed=SEED)
    keeper = Keeper()
    cardcore.play(game, [keeper, RandomAgent(1)], max_actions=6)
    with pytest.raises(CardcoreError, match="moved on"):
        keeper.kept[0]["table"]


def test_a_read_view_pickles_as_its_data_and_a_plain_view_wraps_data() -> None:
    game = cardcore.new_game("golf", 2, seed=SEED)
    seen: list[Mapping[str, Any]] = []

    class Reader:
        def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
            if not seen:
                assert view["version"] == 0
                seen.append(view)
            return legal[0]

    cardcore.play(game, [Reader(), Reader()], max_actions=2)
    copy = pickle.loads(pickle.dumps(seen[0]))
    assert dict(copy) == dict(seen[0]) and copy["seat"] == 0
    wrapped = LazyView({"seat": 1})
    assert wrapped["seat"] == 1 and len(wrapped) == 1 and list(wrapped) == ["seat"]


def test_play_applies_each_action_with_the_version_its_agent_saw() -> None:
    applied: list[tuple[int, int | None]] = []
    game = cardcore.new_game("golf", 2, seed=SEED)
    real_apply = Game.apply

    class Spy:
        def __init__(self) -> None:
            self.version = -1

        def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
            self.version = view["version"]
            return legal[0]

    spies = [Spy(), Spy()]

    def apply(
        self: Game, action: Action, *, at: float | None = None, seen: int | None = None
    ) -> None:
        applied.append((spies[action.seat].version, seen))
        real_apply(self, action, at=at, seen=seen)

    mp = pytest.MonkeyPatch()
    mp.setattr(Game, "apply", apply)
    try:
        cardcore.play(game, spies, max_actions=10)
    finally:
        mp.undo()
    assert len(applied) == 10
    assert all(saw == seen for saw, seen in applied)


def test_play_and_run_realtime_refuse_an_agent_of_another_game_before_the_first_move() -> None:
    class GolfOnly:
        games = ("golf",)

        def choose(self, view: object, legal: Any) -> Any:
            return legal[0]

        def plan(self, view: object, legal: Any, now: float) -> None:
            return None

    tonk = cardcore.new_game("tonk", 2, seed=1)
    with pytest.raises(cardcore.CardcoreError, match="plays golf, not 'tonk'"):
        cardcore.play(tonk, [GolfOnly(), cardcore.RandomAgent(1)])
    spit = cardcore.new_game("spit", 2, seed=1)
    with pytest.raises(cardcore.CardcoreError, match="plays golf, not 'spit'"):
        cardcore.run_realtime(spit, [cardcore.RandomAgent(1), GolfOnly()])
    assert tonk.version == 0 and spit.version == 0
    assert cardcore.play(cardcore.new_game("golf", 2, seed=1), [GolfOnly(), GolfOnly()]).reason


@pytest.mark.parametrize(
    "spec",
    [
        "golf-greedy:seed=x",
        "spit-greedy:seed=1.5",
        "spit-human:seed=x",
        "tonk-heuristic:seed=x",
        "tonk-heuristic:samples=0",
    ],
)
def test_game_agents_refuse_bad_parameters_with_cardcore_errors(spec: str) -> None:
    with pytest.raises(cardcore.OptionError, match=r"seed|samples"):
        cardcore.load_agent(spec)


def test_game_agents_refuse_bad_values_given_in_python() -> None:
    from cardcore_golf.agents import GolfGreedyAgent
    from cardcore_spit.agents import SpitGreedyAgent
    from cardcore_tonk.agents import TonkHeuristicAgent

    with pytest.raises(cardcore.OptionError, match="seed"):
        GolfGreedyAgent(seed="x")  # type: ignore[arg-type]
    with pytest.raises(cardcore.OptionError, match="mean"):
        SpitGreedyAgent(mean=float("nan"))
    with pytest.raises(cardcore.OptionError, match="drop_margin"):
        TonkHeuristicAgent(drop_margin="high")  # type: ignore[arg-type]
    assert GolfGreedyAgent(seed=None).rng is not None  # None: seeded from the OS


def test_an_agent_class_given_for_an_agent_is_refused_clearly() -> None:
    spit = cardcore.new_game("spit", 2, seed=1)
    cls = cardcore.load_agent("spit-greedy")  # a name without parameters answers the class
    with pytest.raises(cardcore.ArgumentError, match="class SpitGreedyAgent, not an agent"):
        cardcore.run_realtime(spit, [cls, cls()])
    golf = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(cardcore.ArgumentError, match="class GolfGreedyAgent"):
        cardcore.play(golf, [cardcore.load_agent("golf-greedy"), RandomAgent()])
    assert golf.version == spit.version == 0
