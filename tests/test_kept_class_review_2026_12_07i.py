"""Review of a7916bc8 + c4932626 (2026-12-07i): ``cardcore._classes.kept_class`` (a class a
house rule's hook answers reaches the game as a generated subclass whose calls are guarded
and tracked) and the blame record (``Ruleset._gave``, ``_blame.gave``).

Written as a house-rule author would write classes (registries in ``__init_subclass__``,
final classes, NamedTuples, dataclasses, attrs classes, ABCs, generics, metaclasses) and as
an embedder would run games (two threads playing games of one cached configuration).
Already covered elsewhere and not repeated: plain subclass/isinstance/class attributes,
enum fallback, a failing class blamed, scorer classes playing the same, a guarded scorer
class down for good (tests/test_fixes_2026_12_07h.py, tests/test_blame_record_review_2026_12_07h.py).
"""

from __future__ import annotations

import abc
import copy
import dataclasses
import inspect
import pickle
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar

import attrs
import pytest

import cardcore
from cardcore import PluginError, hookimpl
from cardcore_golf.grids import default_scorer
from tests.test_blame_record_review_2026_12_07h import FAILED, play_until_error
from tests.test_fix_review_2026_12_07f import house_rule, snapshot

T = TypeVar("T")


@contextmanager
def answered(tag: str, answer: Any) -> Iterator[Any]:
    """The ``golf_scorer`` of a configuration whose one house rule answers *answer*."""
    with house_rule(
        f"golf.ki-{tag}",
        f"KI-{tag.upper()}-1",
        "golf",
        golf_scorer=hookimpl(specname="golf_scorer")(lambda layout: answer),
    ) as name:
        scorer = cardcore.get_ruleset("golf", [name]).resolve("golf_scorer")
        assert scorer is not None
        yield lambda: scorer(layout=None)


# --- classes with __init_subclass__ -------------------------------------------------------------


class Registered:
    """A base whose subclasses register themselves (a common plugin-author pattern)."""

    registry: ClassVar[list[type]] = []

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        Registered.registry.append(cls)


class JokerScorer(Registered):
    def __init__(self, *args: Any) -> None:
        self.args = args


def test_asking_the_hook_again_does_not_register_a_new_subclass_each_time() -> None:
    with answered("registry", JokerScorer) as ask:
        ask()
        size = len(Registered.registry)
        for _ in range(5):
            ask()
        assert len(Registered.registry) == size


def test_the_same_class_answered_twice_reaches_the_game_as_one_class() -> None:
    with answered("twice", JokerScorer) as ask:
        first, second = ask(), ask()
        assert first is second or (first == second and hash(first) == hash(second))


class FinalScorer(int):
    """A scorer class closed to subclasses (the 'final' idiom), going down after some calls."""

    calls = 0
    fail_from: int | None = None

    def __init_subclass__(cls, **kw: Any) -> None:
        raise TypeError("FinalScorer is final")

    def __new__(cls, keys: Any, points: Any) -> Any:
        FinalScorer.calls += 1
        if FinalScorer.fail_from is not None and FinalScorer.calls >= FinalScorer.fail_from:
            raise ConnectionError("scoring service down")
        return int.__new__(cls, _SCORER[0](keys, points))


_SCORER: list[Any] = []


@hookimpl(specname="golf_scorer")
def _final_scorer(layout: Any) -> Any:
    _SCORER[:] = [default_scorer(layout)]
    return FinalScorer


def test_a_final_scorer_class_down_for_good_leaves_the_game_restorable() -> None:
    with house_rule("golf.ki-final", "KI-FINAL-1", "golf", golf_scorer=_final_scorer) as name:
        FinalScorer.calls, FinalScorer.fail_from = 0, 3
        game = cardcore.new_game("golf", 2, rules=[name], seed=5)
        error = play_until_error(game, 5)  # (checks the game unchanged after the refusal)
        assert error is not None and error.plugin == name
        assert isinstance(error.__cause__, ConnectionError)
        before = snapshot(game)
        with pytest.raises(PluginError):
            game.apply(FAILED[0])
        assert snapshot(game) == before


def test_a_final_scorer_class_stays_itself_and_plays_the_same() -> None:
    with house_rule("golf.ki-finok", "KI-FINOK-1", "golf", golf_scorer=_final_scorer) as name:
        FinalScorer.calls, FinalScorer.fail_from = 0, None
        game = cardcore.new_game("golf", 2, rules=[name], seed=2)
        layout = game.state.plan.layout
        assert game.ruleset.resolve("golf_scorer")(layout=layout) is FinalScorer
        assert play_until_error(game, 2) is None
        plain = cardcore.new_game("golf", 2, seed=2)
        assert play_until_error(plain, 2) is None
        assert game.result.scores == plain.result.scores and FinalScorer.calls > 0


# --- the generated subclass as a class ----------------------------------------------------------


class Plain:
    """A plain class."""

    def __init__(self, a: int, b: int = 2) -> None:
        self.a, self.b = a, b


def test_a_game_subclassing_the_class_answered_makes_its_own_instances() -> None:
    with answered("sub", Plain) as ask:

        class Sub(ask()):  # type: ignore[misc]  # a game's mixin over the rule's class
            extra = True

        made = Sub(1)
        assert type(made) is Sub
        assert not isinstance(Plain(1), Sub) and not issubclass(Plain, Sub)


def test_the_signature_of_the_class_answered_is_the_rules() -> None:
    with answered("sig", Plain) as ask:
        assert inspect.signature(ask()) == inspect.signature(Plain)


def test_the_class_answered_pickles_like_the_rules_class() -> None:
    pickle.dumps(Plain)
    with answered("pickle", Plain) as ask:
        assert pickle.loads(pickle.dumps(ask())) is Plain


class Pair(NamedTuple):
    a: int
    b: int


def test_a_namedtuple_answered_makes_the_rules_instances_by_make() -> None:
    with answered("pair", Pair) as ask:
        made = ask()._make([1, 2])
        assert type(made) is Pair
        assert pickle.loads(pickle.dumps(made)) == (1, 2)


def test_the_kept_class_reads_as_the_rules_class() -> None:
    """Since the review, the class answered reaches the game as it is (every apply of the
    configuration keeps a checkpoint instead of counting its calls)."""
    with answered("names", Plain) as ask:
        kept = ask()
        assert kept is Plain and issubclass(kept, Plain)
        assert (kept.__name__, kept.__qualname__, kept.__module__, kept.__doc__) == (
            Plain.__name__,
            Plain.__qualname__,
            Plain.__module__,
            Plain.__doc__,
        )
        assert repr(kept) == repr(Plain)
        assert copy.deepcopy(kept) is kept and copy.copy(kept) is kept
        made = kept(1)
        assert type(made) is Plain and pickle.loads(pickle.dumps(made)).a == 1
        assert copy.deepcopy(made).b == 2


@dataclasses.dataclass(frozen=True)
class FrozenDC:
    a: int


@attrs.frozen
class FrozenAttrs:
    a: int


@attrs.define(slots=True)
class SlottedAttrs:
    a: int


class Slotted:
    __slots__ = ("a",)

    def __init__(self, a: int) -> None:
        self.a = a


@pytest.mark.parametrize("cls", [FrozenDC, FrozenAttrs, SlottedAttrs, Slotted, Pair])
def test_data_classes_answered_make_the_rules_instances(cls: type) -> None:
    with answered(f"data-{cls.__name__.lower()}", cls) as ask:
        kept = ask()
        made = kept(1) if cls is not Pair else kept(1, 2)
        assert type(made) is cls and isinstance(made, kept)
        assert getattr(pickle.loads(pickle.dumps(made)), "a", None) in (1, None)
        assert pickle.loads(pickle.dumps(made)).__class__ is cls
        if dataclasses.is_dataclass(cls):
            assert [f.name for f in dataclasses.fields(kept)] == ["a"]
        if attrs.has(cls):
            assert [f.name for f in attrs.fields(kept)] == ["a"]
            assert attrs.evolve(made, a=5).a == 5 and type(attrs.evolve(made, a=5)) is cls


class Scorer(abc.ABC):
    @abc.abstractmethod
    def score(self) -> int: ...


class Unfinished(Scorer):
    """An ABC subclass that forgot its abstract method."""


def test_an_abstract_class_answered_is_the_rules_class_and_refuses_instances() -> None:
    """The class answered is the rule's own, unguarded (called outside a game, its error is
    its own; inside ``apply`` the driver names the plugin whose code the traceback shows)."""
    with answered("abstract", Unfinished) as ask:
        kept = ask()
        assert kept is Unfinished and isinstance(kept, abc.ABCMeta)
        with pytest.raises(TypeError, match="abstract"):
            kept()


class Sized(Protocol):
    def size(self) -> int: ...


class Box(Generic[T]):
    def __init__(self, item: T) -> None:
        self.item = item


class Card(Box[int], Sized):
    def size(self) -> int:
        return 1


def test_a_generic_class_answered_can_be_subscripted() -> None:
    assert Box[int](3).item == 3
    with answered("generic", Box) as ask:
        made = ask()[int](3)
        assert type(made) is Box and made.item == 3


def test_protocol_and_generic_bases_of_a_class_answered_are_kept() -> None:
    with answered("proto", Card) as ask:
        kept = ask()
        assert issubclass(kept, Box) and Sized in kept.__mro__ and kept(4).size() == 1
        assert type(kept(4)) is Card and isinstance(kept(4), Box)


class Singleton(type):
    """A metaclass whose __call__ hands out one instance per class."""

    made: ClassVar[dict[type, Any]] = {}

    def __call__(cls, *args: Any, **kw: Any) -> Any:
        if cls not in Singleton.made:
            Singleton.made[cls] = super().__call__(*args, **kw)
        return Singleton.made[cls]


class Table(metaclass=Singleton):
    pass


class Lookup:
    def __class_getitem__(cls, key: Any) -> str:
        return f"{cls.__name__}[{key}]"


def test_a_metaclass_calling_itself_and_class_getitem_are_kept() -> None:
    with answered("singleton", Table) as ask:
        kept = ask()
        assert isinstance(kept, Singleton) and kept() is kept() is Table()
        assert list(Singleton.made) == [Table]  # (the rule's class made it, not the subclass)
    with answered("getitem", Lookup) as ask:
        assert ask()["x"] == "Lookup[x]"


# --- the blame record ---------------------------------------------------------------------------


class Race:
    calls = 0
    block = True
    entered = threading.Event()
    go = threading.Event()
    seen: ClassVar[list[Any]] = []


@hookimpl(tryfirst=True, specname="golf_round_awards")
def _valid_awards(layout: Any, keys: Any) -> Any:
    return [0] * len(keys)  # always right


@hookimpl(specname="golf_round_awards")
def _wrong_once(layout: Any, keys: Any) -> Any:
    Race.calls += 1
    return [0, 0] if Race.calls == 1 else None  # wrong with 3 seats, given once


@hookimpl(trylast=True, specname="golf_round_awards")
def _slow(layout: Any, keys: Any) -> Any:
    if Race.block and threading.current_thread() is not threading.main_thread():
        Race.block = False
        Race.seen[:] = [layout, keys]
        Race.entered.set()
        Race.go.wait(10)  # (another game of the configuration runs meanwhile)
    return None


@contextmanager
def racing_rules(tag: str) -> Iterator[list[str]]:
    Race.calls, Race.block, Race.seen = 0, True, []
    Race.entered, Race.go = threading.Event(), threading.Event()
    with (
        house_rule(
            f"golf.ki-{tag}-t", f"KI-{tag.upper()}T-1", "golf", golf_round_awards=_valid_awards
        ) as t,
        house_rule(
            f"golf.ki-{tag}-r", f"KI-{tag.upper()}R-1", "golf", golf_round_awards=_wrong_once
        ) as r,
        house_rule(
            f"golf.ki-{tag}-s", f"KI-{tag.upper()}S-1", "golf", golf_round_awards=_slow
        ) as s,
    ):
        yield [t, r, s]


def test_a_wrong_answer_given_once_is_blamed_on_its_rule_in_one_thread() -> None:
    with racing_rules("alone") as rules:
        Race.block = False
        game = cardcore.new_game("golf", 3, rules=rules, seed=3)
        error = play_until_error(game)
        assert error is not None and error.plugin == rules[1]


def test_a_wrong_answer_is_blamed_on_its_rule_while_another_game_asks_the_rule() -> None:
    with racing_rules("race") as rules:
        game = cardcore.new_game("golf", 3, rules=rules, seed=3)
        out: list[Any] = []
        thread = threading.Thread(target=lambda: out.append(play_until_error(game)))
        thread.start()
        try:
            assert Race.entered.wait(10)
            other = cardcore.new_game("golf", 3, rules=rules, seed=4)
            assert other.ruleset is game.ruleset  # one cached configuration
            awards = other.ruleset.resolve("golf_round_awards")
            assert awards(layout=Race.seen[0], keys=Race.seen[1]) == [[0, 0, 0]]
        finally:
            Race.go.set()
            thread.join(10)
        error = out[0]
        assert error is not None and "[0, 0]" in str(error)
        assert error.plugin == rules[1]


class NoCompare:
    """An answer whose == raises, and one whose == is always True."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("cannot compare")

    __hash__ = None  # type: ignore[assignment]


class AlwaysEqual:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = None  # type: ignore[assignment]


def _score_table_rules(tag: str, first: Any, second: Any) -> Any:
    a = house_rule(
        f"golf.ki-{tag}-a",
        f"KI-{tag.upper()}A-1",
        "golf",
        golf_score_table=hookimpl(specname="golf_score_table")(lambda layout: first),
    )
    b = house_rule(
        f"golf.ki-{tag}-b",
        f"KI-{tag.upper()}B-1",
        "golf",
        golf_score_table=hookimpl(specname="golf_score_table", trylast=True)(lambda layout: second),
    )
    return a, b


@pytest.mark.parametrize("kind", [NoCompare, AlwaysEqual])
def test_answers_that_compare_badly_are_refused_by_the_rule_that_gave_them(kind: type) -> None:
    one, other = kind(), kind()
    ra, rb = _score_table_rules(f"cmp-{kind.__name__.lower()}", one, other)
    with ra as a, rb as b:
        with pytest.raises(PluginError) as info:
            cardcore.new_game("golf", 2, rules=[a, b], seed=1)
        assert info.value.plugin in (a, b)  # the one whose answer was read (firstresult)
        ruleset = cardcore.get_ruleset("golf", [a, b])
        from cardcore._blame import AMBIGUOUS, gave

        assert gave(ruleset, "golf_score_table", one) in (a, AMBIGUOUS)


def test_numpy_answers_in_the_record_do_not_break_a_refusal() -> None:
    np = pytest.importorskip("numpy")
    ra, rb = _score_table_rules("numpy", np.arange(5), np.arange(5))
    with ra as a, rb as b:
        with pytest.raises(PluginError) as info:
            cardcore.new_game("golf", 2, rules=[a, b], seed=1)
        assert info.value.plugin == a
