"""Review (2026-12-06) of the options fix (a5cce4f2): the checked-options cache keys only
plain values, and a value that cannot be hashed is deep-copied into the game.

Each bug is a strict xfail; each claim that held is a plain test. Every plugin this file
registers is unregistered in a ``finally`` (fixture), so other tests see the registry as
they found it.
"""

from __future__ import annotations

import contextlib
import math
import types
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import cardcore
from cardcore import GameInfo, Option, OptionError, hookimpl, setup
from cardcore.errors import CardcoreError
from cardcore.session.session import Session
from tests.plugins import drawgame

GAMES = "cardcore.games"


class _ShapeLogic(drawgame.DrawLogic):
    """The draw game, refusing a ``shape`` that holds anything but whole numbers."""

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        super().validate(players, options)
        shape = options.get("shape") or ()
        for value in shape if isinstance(shape, list | tuple) else ():
            if type(value) is not int and not isinstance(value, list):
                msg = f"shape holds whole numbers only, not {value!r}"
                raise OptionError(msg)


def _game(name: str, *options: Option) -> types.SimpleNamespace:
    info = GameInfo(
        name=name,
        summary="review game",
        min_players=2,
        max_players=4,
        options=(Option("rounds", 1, "rounds", int, minimum=1, maximum=5), *options),
    )

    @hookimpl
    def create_logic(ruleset: cardcore.Ruleset) -> drawgame.DrawLogic:
        return _ShapeLogic(ruleset)

    return types.SimpleNamespace(
        GAME=info, create_logic=create_logic, card_points=drawgame.card_points
    )


@pytest.fixture
def registered() -> Iterator[list[tuple[str, str]]]:
    """Register through ``_register``; all undone in a ``finally``."""
    done: list[tuple[str, str]] = []
    try:
        yield done
    finally:
        for group, name in reversed(done):
            cardcore.unregister(group, name)


def _register(done: list[tuple[str, str]], name: str, *options: Option) -> None:
    cardcore.register(GAMES, name, _game(name, *options))
    done.append((GAMES, name))


class _NoCaseText(str):
    """A case-insensitive text (equal and hashed as its lower case): a str subclass."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and self.lower() == other.lower()

    def __hash__(self) -> int:
        return hash(self.lower())


# -- the cache key (setup._options_key) ---------------------------------------------------------


def test_str_subclass_key_refused_fresh(registered: list[tuple[str, str]]) -> None:
    """Claim: with nothing cached, a key whose text is not an option's name is refused."""
    _register(registered, "optrev-a")
    with pytest.raises(OptionError, match="no option 'ROUNDS'"):
        cardcore.new_game("optrev-a", 2, options={_NoCaseText("ROUNDS"): 3}, seed=1)


def test_str_subclass_key_not_answered_by_cache(registered: list[tuple[str, str]]) -> None:
    _register(registered, "optrev-b")
    cardcore.new_game("optrev-b", 2, options={"rounds": 3}, seed=1)
    with pytest.raises(OptionError, match="no option 'ROUNDS'"):
        cardcore.new_game("optrev-b", 2, options={_NoCaseText("ROUNDS"): 3}, seed=1)


def test_str_subclass_value_not_cached(registered: list[tuple[str, str]]) -> None:
    """Claim: a str-subclass value is not keyed (checked each time; stored as plain text)."""
    _register(registered, "optrev-c", Option("mode", "a", "m", str))
    cardcore.new_game("optrev-c", 2, options={"mode": "a"}, seed=1)
    ruleset = cardcore.get_ruleset("optrev-c")
    before = dict(ruleset.checked)
    game = cardcore.new_game("optrev-c", 2, options={"mode": _NoCaseText("a")}, seed=1)
    assert setup._options_key(2, {"mode": _NoCaseText("a")}) is None
    assert ruleset.checked == before
    assert game.options["mode"] == "a"


def test_bool_int_float_values_keyed_apart() -> None:
    """Claim: 1, 1.0, True and -0.0/0.0 give distinct keys; a tuple value no key."""
    keys = [setup._options_key(2, {"x": v}) for v in (1, 1.0, True, 0.0, -0.0)]
    assert len(set(keys)) == len(keys)
    assert setup._options_key(2, {"x": (1, 2)}) is None
    assert setup._options_key(2, {"x": [1]}) is None


def test_non_finite_floats_refused_and_not_cached(registered: list[tuple[str, str]]) -> None:
    """Claim: NaN / inf are refused each time (never stored, so NaN cannot fill the cache)."""
    _register(registered, "optrev-d", Option("x", 0.0, "x", float))
    ruleset = cardcore.get_ruleset("optrev-d")
    for _ in range(3):
        for bad in (math.nan, math.inf):
            with pytest.raises(OptionError, match="must be float"):
                cardcore.new_game("optrev-d", 2, options={"x": bad}, seed=1)
    assert ruleset.checked == {}


def test_dict_order_only_another_entry(registered: list[tuple[str, str]]) -> None:
    """Claim: two orders of one dict resolve alike (each an entry of its own)."""
    _register(registered, "optrev-e", Option("x", 0.0, "x", float))
    one = cardcore.new_game("optrev-e", 2, options={"rounds": 2, "x": 1.5}, seed=1)
    two = cardcore.new_game("optrev-e", 2, options={"x": 1.5, "rounds": 2}, seed=1)
    assert dict(one.options) == dict(two.options) == {"rounds": 2, "x": 1.5}


def test_cached_options_not_checked_again(
    registered: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claim (performance): plain options are checked once, then answered by the cache."""
    _register(registered, "optrev-f")
    calls: list[Any] = []
    real = setup.check_configuration

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(setup, "check_configuration", counting)
    for seed in range(5):
        cardcore.new_game("optrev-f", 2, options={"rounds": 3}, seed=seed)
    assert len(calls) == 1


# -- _own: values copied into the game ------------------------------------------------------------


def test_list_option_copied_deeply(registered: list[tuple[str, str]]) -> None:
    """Claim: a nested list is the game's own (inner lists too); the record replays."""
    _register(registered, "optrev-g", Option("shape", [1, 2], "s", list))
    inner = [1]
    given = [inner, 2]
    game = cardcore.new_game("optrev-g", 2, options={"shape": given}, seed=1)
    inner.append(5)
    given.append(3)
    assert game.options["shape"] == [[1], 2]
    assert cardcore.replay(game.record()).options == game.options
    assert cardcore.load(game.save()).options == game.options


def test_list_option_through_session_create(registered: list[tuple[str, str]]) -> None:
    _register(registered, "optrev-h", Option("shape", [1, 2], "s", list))
    shape = [1, 2]
    session = Session.create("optrev-h", 2, now=0.0, options={"shape": shape}, seed=1)
    shape.append(3)
    assert session.setup.build(1).options["shape"] == [1, 2]


def test_hashable_value_kept_shared(registered: list[tuple[str, str]]) -> None:
    """Claim: a hashable object option is not copied (the game holds the caller's object)."""
    _register(registered, "optrev-i", Option("thing", None, "t", object, nullable=True))
    thing = object()
    game = cardcore.new_game("optrev-i", 2, options={"thing": thing}, seed=1)
    assert game.options["thing"] is thing


def test_uncopyable_value_is_option_error(registered: list[tuple[str, str]]) -> None:
    _register(registered, "optrev-j", Option("thing", None, "t", object, nullable=True))

    class Uncopyable:
        __hash__ = None  # type: ignore[assignment]

        def __deepcopy__(self, memo: Any) -> Any:
            raise RuntimeError("cannot copy me")

    with pytest.raises(OptionError):
        cardcore.new_game("optrev-j", 2, options={"thing": Uncopyable()}, seed=1)


def test_mappingproxy_value_is_option_error(registered: list[tuple[str, str]]) -> None:
    _register(registered, "optrev-k", Option("thing", None, "t", object, nullable=True))
    with pytest.raises(OptionError):
        cardcore.new_game("optrev-k", 2, options={"thing": types.MappingProxyType({})}, seed=1)


def test_deeply_nested_list_is_option_error_or_taken(registered: list[tuple[str, str]]) -> None:
    _register(registered, "optrev-l", Option("shape", [1, 2], "s", list))
    deep: list[Any] = []
    cur = deep
    for _ in range(3000):
        nxt: list[Any] = []
        cur.append(nxt)
        cur = nxt
    with contextlib.suppress(CardcoreError):  # a clean refusal is fine
        cardcore.new_game("optrev-l", 2, options={"shape": deep}, seed=1)


def test_self_referencing_list_is_option_error(registered: list[tuple[str, str]]) -> None:
    """Claim: a list holding itself is copied (deepcopy's memo) and refused by validate."""
    _register(registered, "optrev-m", Option("shape", [1, 2], "s", list))
    loop: list[Any] = [1]
    loop.append(loop)
    loop.append("x")
    with pytest.raises(OptionError, match="whole numbers"):
        cardcore.new_game("optrev-m", 2, options={"shape": loop}, seed=1)


def test_default_list_not_shared_between_games(registered: list[tuple[str, str]]) -> None:
    _register(registered, "optrev-n", Option("shape", [1, 2], "s", list))
    first = cardcore.new_game("optrev-n", 2, seed=1)
    second = cardcore.new_game("optrev-n", 2, seed=2)
    shape = first.options["shape"]
    try:
        shape.append(9)
        assert second.options["shape"] == [1, 2]
    finally:
        del shape[2:]  # the declared default restored for later tests
