"""Review of the changes of 2026-12-22 (b163d15..3316af7).

Copies and pickles of a state, Tonk's cards-dealt, Go Fish's turn-passed, errors that
cut long inputs short and name JSON kinds, failing iterables as ``ArgumentError``,
``reset(options=...)``, ``MemoryStore(keep_closed=...)`` and Golf's bounded interning.
Strict xfails mark what does not hold yet.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore.errors import ArgumentError, CorruptStateError, OptionError
from cardcore.records import replay
from cardcore.session import Hub, MemoryStore, Session, SQLiteStore

# -- GameState: copy, deepcopy, pickle -----------------------------------------------------


def _played(name: str, players: int, steps: int, seed: int = 5) -> cardcore.Game:
    game = cardcore.new_game(name, players, seed=seed)
    rng = random.Random(3)
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.to_act[0]
        game.apply(rng.choice(game.legal_actions(seat)))
    return game


def test_deepcopy_of_a_container_keeps_one_copy_of_a_state_it_holds_twice() -> None:
    state = _played("tonk", 3, 4).state  # TonkState: a hand-written clone()
    twins = copy.deepcopy([state, state, {"again": state}])
    assert twins[0] is twins[1] is twins[2]["again"]
    assert type(twins[0]) is type(state) and twins[0] is not state
    assert twins[0].snapshot() == state.snapshot()
    with pytest.raises(TypeError, match=r"pickle its Game"):
        pickle.dumps([state])  # inside a container too


def test_a_hand_written_clone_built_on_copy_copy_still_clones() -> None:
    game = cardcore.new_game("golf", 2, seed=3)
    base = type(game.state)

    def clone(self: Any) -> Any:
        new = copy.copy(self)  # shallow: then copy what changes
        new.zones = self.zones.clone()
        return new

    sub = type("HandClonedGolfState", (base,), {"__slots__": (), "clone": clone})
    state = game.state.clone()
    state.__class__ = sub
    twin = state.clone()
    assert twin.zones is not state.zones and twin.snapshot() == state.snapshot()


# -- Tonk's cards-dealt, Go Fish's turn-passed -------------------------------------------


def test_tonk_publishes_cards_dealt_before_each_deal_of_a_match() -> None:
    events: list[cardcore.Event] = []
    game = cardcore.new_game(
        "tonk", 3, seed=11, options={"hands": 3}, subscribers=[(cardcore.Event, events.append)]
    )
    rng = random.Random(7)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    names = [type(e).__name__ for e in events]
    deals = [i for i, n in enumerate(names) if n == "CardsDealt"]
    assert len(deals) >= 2  # more than one deal: every deal, not only the first
    for i in deals:
        assert events[i].counts == (5, 5, 5)  # type: ignore[attr-defined]
        assert names[i + 1 : i + 4] == ["HandDealt"] * 3  # then each seat's own hand


def test_gofish_publishes_turn_passed_exactly_when_the_turn_goes_to_another_seat() -> None:
    events: list[cardcore.Event] = []
    game = cardcore.new_game("gofish", 3, seed=5, subscribers=[(cardcore.Event, events.append)])
    rng = random.Random(1)
    passes = 0
    while not game.is_over:
        before, n = game.to_act, len(events)
        game.apply(rng.choice(game.legal_actions(before[0])))
        told = [e for e in events[n:] if isinstance(e, cardcore.TurnPassed)]
        moved = not game.is_over and game.to_act != before
        assert len(told) == int(moved)
        assert not told or (told[0].seat,) == game.to_act
        passes += len(told)
    assert passes > 5


# -- errors: long inputs cut short, JSON kinds ---------------------------------------------


def test_golf_refusal_of_an_action_with_a_huge_position_is_short() -> None:
    from cardcore_golf.actions import Flip

    game = cardcore.new_game("golf", 2, seed=3)
    with pytest.raises(cardcore.IllegalActionError) as caught:
        game.apply(Flip(0, 10**4200))
    assert len(str(caught.value)) < 400


def test_long_names_in_rules_agent_specs_and_saves_are_cut_short() -> None:
    long = "x" * 100_000
    for call in (
        lambda: cardcore.new_game("golf", 2, rules=[long]),
        lambda: cardcore.new_game("golf", 2, without=[long]),
    ):
        with pytest.raises(cardcore.CardcoreError) as caught:
            call()
        assert len(str(caught.value)) < 2_000  # the installed rules are listed, not the name


@pytest.mark.parametrize(
    ("text", "kind"), [("null", "null"), ("[1]", "an array"), ("2.5", "a number"), ('"x"', "text")]
)
def test_replay_and_session_messages_name_json_kinds(text: str, kind: str) -> None:
    with pytest.raises(CorruptStateError, match=f"must be a JSON object, not {kind}$"):
        replay(text)
    session = Session.create("golf", 2, now=0.0, seed=1)
    out = session.handle("c1", text, 1.0)
    assert [o.message["message"] for o in out] == [f"a message is a JSON object, not {kind}"]


def test_deep_json_is_nested_too_deeply_in_replay() -> None:
    with pytest.raises(CorruptStateError, match=r"record is nested too deeply to read$"):
        replay("[" * 100_000 + "]" * 100_000)


def test_replay_of_an_object_says_an_object() -> None:
    for value in (object(), np.int64(3)):
        with pytest.raises(CorruptStateError) as caught:
            replay(value)  # type: ignore[arg-type]
        assert " not a o" not in str(caught.value) and " not a i" not in str(caught.value)


def test_a_record_field_of_the_wrong_kind_is_named_in_json_words() -> None:
    record = cardcore.new_game("golf", 2, seed=1).record()
    with pytest.raises(CorruptStateError) as caught:
        replay({**record, "game": None})
    assert "null" in str(caught.value) and "'None'" not in str(caught.value)


# -- failing iterables, players, observe, reset ----------------------------------------------


def _failing() -> Iterator[str]:
    yield "5H"
    raise RuntimeError("the caller's own failure")


@pytest.mark.parametrize(
    ("what", "call"),
    [
        ("cards", lambda: cardcore.parse_cards(_failing())),
        ("rules", lambda: cardcore.new_game("golf", 2, seed=1, rules=_failing())),
        ("without", lambda: cardcore.new_game("golf", 2, seed=1, without=_failing())),
        ("subscribers", lambda: cardcore.new_game("golf", 2, seed=1, subscribers=_failing())),
    ],
)
def test_a_failing_iterable_is_an_argument_error_naming_it(what: str, call: Any) -> None:
    with pytest.raises(ArgumentError, match=f"^{what}: reading it failed: RuntimeError"):
        call()


def test_rules_given_as_a_generator_are_read_once_and_recorded() -> None:
    name = cardcore.available_rules("golf")[0]
    game = cardcore.new_game("golf", 2, seed=1, rules=(r for r in [name]))
    assert [r["name"] for r in game.record()["rules"]] == [name]
    dealt: list[cardcore.Event] = []
    cardcore.new_game("golf", 2, seed=1, subscribers=iter([(cardcore.CardsDealt, dealt.append)]))
    assert len(dealt) == 1


def test_parse_cards_refuses_a_bad_first_item_without_reading_the_rest() -> None:
    read = []

    def items() -> Iterator[str]:
        yield "zz"
        for k in range(1000):
            read.append(k)
            yield "5H"

    with pytest.raises(cardcore.NotationError):
        cardcore.parse_cards(items())
    assert read == []


def test_players_holding_an_array_is_an_option_error() -> None:
    with pytest.raises(OptionError, match="players must be"):
        cardcore.new_game("golf", ["Ann", np.array([1, 2])], seed=1)  # type: ignore[list-item]


def test_observe_names_what_a_non_encoding_lacks() -> None:
    from cardcore import rl

    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(
        ArgumentError, match=r"is not an encoding of this golf game .*: it has no '"
    ):
        rl.observe(game, 0, 42)  # type: ignore[arg-type]


class _Unreadable(Mapping[str, Any]):
    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("no get")

    def __iter__(self) -> Iterator[str]:
        return iter(["options"])

    def __len__(self) -> int:
        raise RuntimeError("no len")


@pytest.mark.parametrize("builder", ["aec_env", "gym_env"])
def test_reset_with_an_unreadable_mapping_is_an_option_error(builder: str) -> None:
    from cardcore import rl

    env = getattr(rl, builder)("golf", 2)
    with pytest.raises(OptionError, match="reset's options could not be read"):
        env.reset(seed=1, options=_Unreadable())


# -- MemoryStore(keep_closed) ----------------------------------------------------------------


def test_a_hub_on_a_small_memory_store_keeps_its_open_sessions_and_resumes_them() -> None:
    store = MemoryStore(keep_closed=1)
    hub = Hub(store)
    open_ids = [hub.create("golf", 2, now=0.0, seed=k, session_id=f"open{k}").id for k in range(2)]
    for k in range(4):
        hub.create("golf", 2, now=1.0, seed=k, session_id=f"done{k}")
        hub.close(f"done{k}", 2.0 + k)
    assert store.session_ids() == open_ids  # open sessions are never dropped
    assert store.load("done3") is not None and store.load("done0") is None  # the last closed kept
    again = Hub(store)
    assert again.resume_all(10.0) == [] and sorted(again.sessions) == open_ids
    assert all(hub.sessions[i].store_error is None for i in open_ids)


def test_closing_a_session_again_after_its_row_was_dropped_is_no_store_error() -> None:
    store = MemoryStore(keep_closed=0)
    session = Session.create("golf", 2, now=0.0, seed=1, store=store, session_id="a")
    session.close(1.0)
    session.close(2.0)
    assert session.store_error is None


def test_sqlite_store_closes_twice_without_error_for_comparison() -> None:
    store = SQLiteStore(":memory:")
    session = Session.create("golf", 2, now=0.0, seed=1, store=store, session_id="a")
    session.close(1.0)
    session.close(2.0)
    assert session.store_error is None
    store.close()


# -- Golf: interning bounded below 64 --------------------------------------------------------


def test_golf_out_of_range_actions_are_fresh_pickle_and_stay_illegal() -> None:
    from cardcore_golf.actions import _INTERNED, Flip, Replace

    game = cardcore.new_game("golf", 2, seed=3)
    before = set(_INTERNED)
    for action in (Flip(0, 64), Replace(0, 99), Flip(0, -1), Flip(63, 0)):
        back = pickle.loads(pickle.dumps(action))
        assert type(back) is type(action) and str(back) == str(action)
        with pytest.raises(cardcore.CardcoreError):
            game.apply(action)
    assert Flip(0, 64) is not Flip(0, 64) and Flip(0, 63) is Flip(0, 63)
    assert set(_INTERNED) - before <= {(Flip, 63, 0), (Flip, 0, 63)}  # in range: interned
    assert game.version == 0
    with pytest.raises(cardcore.IllegalActionError, match="no position 64"):
        game.act(0, "flip 64")
