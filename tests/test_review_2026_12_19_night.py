"""Review of 92d0684 and 3818806 (src/, plugins/, docs/): ``cardcore.tricks``, the
Comparison's display and ``plot()`` without a path, re-registering the same plugin, the AEC
environment's ``NotResetError``, the agents' ``seed`` and ``__repr__``, and the causes of old
sessions.

Claims that hold pass; each bug found is a strict xfail whose reason says what and where,
and what would fix it. Every game is dealt from a fixed seed.
"""

from __future__ import annotations

import copy
import importlib.metadata
import io
import json
import pickle
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import ArgumentError, Card, Rank, Suit, _registrations, parse_cards, tricks
from cardcore import plugins as plugin_registry
from tests.rl.helpers import only_dict_observation_warnings

# ---------------------------------------------------------------- 1. cardcore.tricks


def _codes(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def test_following_the_lead_as_whist_and_bridge_play_it() -> None:
    hand = parse_cards("KH 2S 9H JK")
    assert _codes(tricks.following(hand, Suit.HEARTS)) == ["KH", "9H"]  # must follow
    assert _codes(tricks.following(hand, Suit.CLUBS)) == ["KH", "2S", "9H", "JK"]  # void: any
    assert _codes(tricks.following(hand, None)) == ["KH", "2S", "9H", "JK"]  # the lead
    assert _codes(tricks.following(parse_cards("JK 3S"), Suit.HEARTS)) == ["JK", "3S"]
    assert _codes(tricks.following(tuple(hand), Suit.SPADES)) == ["2S"]


@pytest.mark.parametrize(
    ("plays", "trump", "winner"),
    [
        ("10H AH 2S KH", None, 1),  # no trump (hearts, no-trump bridge): the ace led suit
        ("10H AH 2S KH", Suit.SPADES, 2),  # the only trump
        ("10H AH 2S 3S", Suit.SPADES, 3),  # the higher trump
        ("2C AH KH QH", None, 0),  # a discard never wins, however high
        ("2C AH KH QH", Suit.DIAMONDS, 0),
        ("AS 2S KS", Suit.SPADES, 0),  # trumps led: the highest trump
        ("2H JK 3H", None, 2),  # a joker neither follows ...
        ("2H JK 3H", Suit.HEARTS, 2),
        ("JK 2H 3S", Suit.SPADES, 2),  # ... nor keeps a trump from winning
        ("JK 2H JK", None, 0),  # a joker lead: the jokers follow, the first wins
        ("QD QD 3C", None, 0),  # two decks: the first of equal cards
        ("AH 9S 9S", Suit.SPADES, 1),
    ],
)
def test_trick_winner_follows_the_usual_rules(plays: str, trump: Suit | None, winner: int) -> None:
    assert tricks.trick_winner(parse_cards(plays), trump=trump) == winner


PINOCHLE = {Rank.ACE: 6, Rank.TEN: 5, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2, Rank.NINE: 1}


@pytest.mark.parametrize(
    ("plays", "trump", "winner"),
    [
        ("KH 10H AH AH", None, 2),  # the first of the two aces
        ("10H 10H KH", None, 0),  # the ten beats the king; the first ten wins
        ("AH 9S 9S 10S", Suit.SPADES, 3),
        ("AH 9S 9S", Suit.SPADES, 1),
    ],
)
def test_pinochle_order_ten_above_king_first_of_equal_cards(
    plays: str, trump: Suit | None, winner: int
) -> None:
    assert tricks.trick_winner(parse_cards(plays), trump=trump, order=PINOCHLE) == winner


def test_an_order_needs_only_the_ranks_that_compete() -> None:
    order = {Rank.ACE: 14, Rank.KING: 13}  # no 2: the 2S is a discard, never looked up
    assert tricks.trick_winner(parse_cards("AH KH 2S"), order=order) == 0
    with pytest.raises(ArgumentError, match=r"order gives card 2H no whole-number strength"):
        tricks.trick_winner(parse_cards("AH 2H"), order=order)


def test_a_callable_order_by_suit() -> None:
    def by_suit(card: Card) -> int:  # a strength that depends on the suit
        return tricks.ACE_HIGH[card.rank] + (100 if card.suit is Suit.HEARTS else 0)

    assert tricks.trick_winner(parse_cards("2H KH AH"), order=by_suit) == 2


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: tricks.trick_winner([]), "at least one card"),
        (lambda: tricks.trick_winner(None), "plays must be a sequence of cards"),  # type: ignore[arg-type]
        (lambda: tricks.trick_winner("AH KH"), "plays must be a sequence"),  # type: ignore[arg-type]
        (lambda: tricks.trick_winner(parse_cards("AH")[0]), "plays must be a sequence"),  # type: ignore[arg-type]
        (lambda: tricks.trick_winner([parse_cards("AH")]), "plays must hold cards"),  # type: ignore[list-item]
        (lambda: tricks.trick_winner(parse_cards("AH"), trump="S"), "trump must be a Suit"),  # type: ignore[arg-type]
        (lambda: tricks.trick_winner(parse_cards("AH"), trump=Suit), "trump must be a Suit"),  # type: ignore[arg-type]
        (lambda: tricks.trick_winner(parse_cards("AH"), order=None), "order must be a mapping"),  # type: ignore[arg-type]
        (lambda: tricks.trick_winner(parse_cards("AH"), order={}), "no whole-number strength"),
        (
            lambda: tricks.trick_winner(parse_cards("AH"), order={Rank.ACE: True}),
            "no whole-number strength: True",
        ),
        (
            lambda: tricks.trick_winner(parse_cards("AH"), order={Rank.ACE: 14.0}),
            "no whole-number strength: 14.0",
        ),
        (lambda: tricks.trick_winner(parse_cards("AH"), order=str), "no whole-number strength"),
        (lambda: tricks.following(parse_cards("AH"), "H"), "led must be a Suit or None"),  # type: ignore[arg-type]
        (lambda: tricks.following(parse_cards("AH"), Rank.ACE), "led must be a Suit"),  # type: ignore[arg-type]
        (lambda: tricks.following([1, 2], None), "hand must hold cards"),  # type: ignore[list-item]
        (lambda: tricks.following(b"AH", None), "hand must be a sequence"),  # type: ignore[arg-type]
    ],
)
def test_bad_arguments_are_argument_errors_naming_them(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(ArgumentError, match=message):
        call()


@pytest.mark.parametrize(
    "order", [int, Rank, dict, lambda: 1], ids=["int", "Rank", "dict", "arity"]
)
def test_an_order_that_is_no_function_of_a_card_is_an_argument_error(order: Any) -> None:
    with pytest.raises(ArgumentError, match="order"):
        tricks.trick_winner(parse_cards("AH KH"), order=order)


def test_a_callable_order_failing_for_a_card_is_an_argument_error_naming_it() -> None:
    table = {Rank.KING: 13}
    with pytest.raises(ArgumentError, match="AH"):
        tricks.trick_winner(parse_cards("AH KH"), order=lambda c: table[c.rank])


def test_bool_strengths_are_refused() -> None:
    with pytest.raises(ArgumentError, match="True"):
        tricks.trick_winner(parse_cards("AH KH"), order=lambda c: c.rank is Rank.ACE)


def test_numpy_whole_numbers_are_whole_number_strengths() -> None:
    np = pytest.importorskip("numpy")
    order = {rank: np.int64(value) for rank, value in tricks.ACE_HIGH.items()}
    assert tricks.trick_winner(parse_cards("KH AH 2S"), order=order) == 1


@pytest.mark.parametrize(
    "plays",
    [frozenset(parse_cards("2H AH KH")), {c: 1 for c in parse_cards("2H AH")}],
    ids=["set", "dict"],
)
def test_trick_winner_refuses_plays_with_no_order(plays: Any) -> None:
    with pytest.raises(ArgumentError, match="plays must be a sequence"):
        tricks.trick_winner(plays)


def test_generators_are_refused_as_argument_errors_not_read() -> None:
    hand = parse_cards("KH 2S 9H")
    with pytest.raises(ArgumentError, match="hand must be a sequence"):
        tricks.following((c for c in hand), Suit.SPADES)
    with pytest.raises(ArgumentError, match="plays must be a sequence"):
        tricks.trick_winner(c for c in hand)


def _euchre(trump: Suit) -> Callable[[Card], int]:
    """Euchre with *trump*: the jack of trumps (right bower) highest, then the other jack of
    its colour (left bower), then A K Q 10 9."""
    left = {Suit.HEARTS: Suit.DIAMONDS, Suit.DIAMONDS: Suit.HEARTS}.get(
        trump, {Suit.SPADES: Suit.CLUBS, Suit.CLUBS: Suit.SPADES}.get(trump)
    )

    def strength(card: Card) -> int:
        if card.rank is Rank.JACK and card.suit is trump:
            return 100
        if card.rank is Rank.JACK and card.suit is left:
            return 99
        return tricks.ACE_HIGH[card.rank]

    return strength


def test_euchre_left_bower_is_a_trump() -> None:
    plays = parse_cards("AC JD 10C")  # clubs led; JD is the left bower with hearts trump
    left = Card.parse("JD")

    def suit_of(card: Card) -> Suit | None:  # (the fix: suit_of, 2026-12-19)
        return Suit.HEARTS if card == left else card.suit

    won = tricks.trick_winner(plays, trump=Suit.HEARTS, order=_euchre(Suit.HEARTS), suit_of=suit_of)
    assert won == 1
    hand = parse_cards("JD 9S")  # a heart led: the left bower must follow
    assert [str(c) for c in tricks.following(hand, Suit.HEARTS, suit_of=suit_of)] == ["JD"]


def test_ace_high_cannot_be_changed_and_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    assert tricks.ACE_HIGH[Rank.ACE] > tricks.ACE_HIGH[Rank.KING] > tricks.ACE_HIGH[Rank.TWO]
    assert tricks.ACE_HIGH[Rank.JOKER] < tricks.ACE_HIGH[Rank.TWO]
    assert set(tricks.ACE_HIGH) == set(Rank)
    with pytest.raises(TypeError):
        tricks.ACE_HIGH[Rank.ACE] = 1  # type: ignore[index]
    # rebinding the module's name changes no default (bound when the function was defined)
    monkeypatch.setattr(tricks, "ACE_HIGH", {**tricks.ACE_HIGH, Rank.ACE: 1})
    assert tricks.trick_winner(parse_cards("KH AH")) == 1
    assert cardcore.tricks is tricks


# ---------------------------------------------------------------- 2. Comparison display and plot


@pytest.fixture(scope="module")
def comparison() -> cardcore.Comparison:
    return cardcore.compare("golf", rules=["golf.hard"], games=2, seed=1, options={"rounds": 1})


class _Printer:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def text(self, s: str) -> None:
        self.parts.append(s)


def test_a_comparison_prints_and_displays_as_its_table(comparison: cardcore.Comparison) -> None:
    assert str(comparison) == comparison.table()
    printer = _Printer()
    comparison._repr_pretty_(printer, False)
    assert "".join(printer.parts) == comparison.table()
    assert "first-seat advantage" in str(comparison)


@pytest.mark.parametrize("bad", ["", b"", 3, io.BytesIO(), "a\x00b", False])
def test_plot_still_refuses_what_is_no_path(comparison: cardcore.Comparison, bad: Any) -> None:
    with pytest.raises(ArgumentError, match="plot writes to a file path"):
        comparison.plot(bad)


@pytest.mark.parametrize("name", ["r.txt", "result"])
def test_plot_writes_a_png_at_exactly_the_path_named(
    comparison: cardcore.Comparison, tmp_path: Path, name: str
) -> None:
    path = tmp_path / name
    try:
        assert comparison.plot(path) is None
    except ArgumentError:
        return  # refused up front: as good
    assert path.read_bytes().startswith(b"\x89PNG")


def _python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


_COMPARE = """
import io, sys, matplotlib
{before}
import cardcore
c = cardcore.compare("golf", rules=["golf.hard"], games=2, seed=1, options={{"rounds": 1}})
backend = matplotlib.rcParams._get_backend_or_none()
fig = c.plot()
buffer = io.BytesIO()
fig.savefig(buffer, format="png")
print(type(fig).__name__, "matplotlib.pyplot" in sys.modules, backend,
      matplotlib.rcParams._get_backend_or_none(), buffer.getvalue()[:4] == b"\\x89PNG")
"""


def test_plot_without_a_path_returns_a_figure_that_renders_and_imports_no_pyplot() -> None:
    assert _python(_COMPARE.format(before="")) == "Figure False None None True"
    chosen = _python(_COMPARE.format(before='matplotlib.use("svg")'))
    assert chosen == "Figure False svg svg True"  # the user's backend is left alone


def test_plot_leaves_pyplot_with_no_figure_and_its_backend() -> None:
    out = _python(
        """
        import sys, tempfile, os, matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import cardcore
        c = cardcore.compare("golf", games=2, seed=1, options={"rounds": 1})
        fig = c.plot()
        with tempfile.TemporaryDirectory() as d:
            c.plot(os.path.join(d, "c.png"))
            size = os.path.getsize(os.path.join(d, "c.png"))
        print(plt.get_fignums(), matplotlib.get_backend().lower(), size > 1000, fig.axes != [])
        """
    )
    assert out == "[] agg True True"


def test_cli_compare_plot_still_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("rich")
    from cardcore import cli

    png = tmp_path / "cmp.png"
    argv = ["compare", "golf", "-o", "rounds=1", "-n", "2", "--skill", "none", "-q"]
    assert cli.main([*argv, "--plot", str(png)]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")


# ---------------------------------------------------------------- 3. registering again

AGENTS = "cardcore.agents"


class _First:
    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]


class _Last:
    def choose(self, view: Any, legal: Any) -> Any:
        return legal[-1]


@pytest.fixture
def fresh_name() -> Iterator[str]:
    """A name no plugin holds; whatever a test leaves registered under it is undone."""
    name = "rv1219n-agent"
    yield name
    while name in plugin_registry._entries()[AGENTS]:
        cardcore.unregister(AGENTS, name)
    assert (AGENTS, name) not in _registrations._replaced


def test_register_twice_then_unregister_twice_leaves_nothing(fresh_name: str) -> None:
    """Each register is undone by one unregister (the stacking kept, 2026-12-19)."""
    cardcore.register(AGENTS, fresh_name, _First)
    cardcore.register(AGENTS, fresh_name, _First)  # the cell, run again
    assert cardcore.load_agent(fresh_name) is _First
    cardcore.unregister(AGENTS, fresh_name)
    assert cardcore.load_agent(fresh_name) is _First
    cardcore.unregister(AGENTS, fresh_name)
    assert fresh_name not in cardcore.available_agents()
    assert (AGENTS, fresh_name) not in _registrations._replaced
    with pytest.raises(cardcore.UnknownPluginError):
        cardcore.load_agent(fresh_name)  # no cached class survives


def test_a_b_a_unregisters_back_through_b_and_a(fresh_name: str) -> None:
    for target in (_First, _Last, _First):
        cardcore.register(AGENTS, fresh_name, target)
        assert cardcore.load_agent(fresh_name) is target  # the cache follows
    cardcore.unregister(AGENTS, fresh_name)
    assert cardcore.load_agent(fresh_name) is _Last
    cardcore.unregister(AGENTS, fresh_name)
    assert cardcore.load_agent(fresh_name) is _First
    cardcore.unregister(AGENTS, fresh_name)
    assert fresh_name not in cardcore.available_agents()


def test_the_installed_class_registered_again_is_undone_by_as_many_unregisters() -> None:
    (entry,) = importlib.metadata.entry_points(group=AGENTS, name="random")
    loaded = entry.load()
    try:
        cardcore.register(AGENTS, "random", loaded)
        cardcore.register(AGENTS, "random", loaded)
        assert cardcore.load_agent("random") is loaded
        cardcore.unregister(AGENTS, "random")
        cardcore.unregister(AGENTS, "random")
        assert _registrations.is_entry_point(plugin_registry._entries()[AGENTS]["random"])
        assert type(cardcore.load_agent("random", seed=1)) is loaded
    finally:
        while (AGENTS, "random") in _registrations._replaced:
            cardcore.unregister(AGENTS, "random")
    assert "random" in cardcore.available_agents()


def test_nested_registration_of_the_same_target_survives_the_inner_unregister(
    fresh_name: str,
) -> None:
    cardcore.register(AGENTS, fresh_name, _First)  # a fixture
    cardcore.register(AGENTS, fresh_name, _First)  # a helper's try/finally inside it
    cardcore.unregister(AGENTS, fresh_name)
    assert cardcore.load_agent(fresh_name) is _First  # the fixture's is still there


# ---------------------------------------------------------------- 4. NotResetError


def _env() -> Any:
    from cardcore.rl import aec_env

    return aec_env("golf", 2, options={"rounds": 1})


def test_not_reset_error_is_both_kinds_and_names_the_attribute() -> None:
    pytest.importorskip("pettingzoo")
    from cardcore.rl import NotResetError

    env = _env()
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos"):
        with pytest.raises(NotResetError, match=f"call reset\\(\\).*{name} is set by reset"):
            getattr(env, name)
        assert getattr(env, name, "absent") == "absent"
        assert not hasattr(env, name)
    assert not hasattr(env, "match")
    with pytest.raises(cardcore.IllegalActionError, match="match is set by reset"):
        env.last()
    with pytest.raises(AttributeError, match="call reset"):
        env.num_agents  # noqa: B018
    error = NotResetError("call reset()")
    assert isinstance(error, cardcore.IllegalActionError) and isinstance(error, AttributeError)
    again = pickle.loads(pickle.dumps(error))  # crosses a process boundary intact
    assert type(again) is NotResetError and str(again) == "call reset()"


def test_the_env_refuses_pickling_and_copies_before_and_after_reset() -> None:
    pytest.importorskip("pettingzoo")
    env = _env()
    for _ in range(2):
        for attempt in (pickle.dumps, copy.copy, copy.deepcopy):
            with pytest.raises(ArgumentError, match="cannot be copied or pickled"):
                attempt(env)
        env.reset(seed=1)


def test_pettingzoo_wrappers_before_reset_and_api_test_after() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test
    from pettingzoo.utils import wrappers

    from cardcore.rl import NotResetError

    ordered = wrappers.OrderEnforcingWrapper(_env())
    with pytest.raises(AttributeError, match="before reset"):
        ordered.agents  # noqa: B018
    assert getattr(ordered, "agent_selection", None) is None
    bounded = wrappers.AssertOutOfBoundsWrapper(_env())
    with pytest.raises(NotResetError):
        bounded.step(0)
    with only_dict_observation_warnings():
        api_test(wrappers.OrderEnforcingWrapper(_env()), num_cycles=15)


def test_a_gym_env_runner_has_no_match_until_reset() -> None:
    pytest.importorskip("gymnasium")
    from cardcore.rl import gym_env

    env = gym_env("golf", 2, options={"rounds": 1})
    assert env.runner.match is None
    env.reset(seed=2)
    assert env.runner.match is not None


# ---------------------------------------------------------------- 5. agents' seed and repr


@pytest.mark.parametrize(
    ("spec", "shown"),
    [
        ("random:seed=3,reaction=0.25", "RandomAgent(seed=3, reaction=0.25, spread=0.3)"),
        ("golf-greedy:seed=3", "GolfGreedyAgent(seed=3)"),
        ("spit-greedy:seed=3", "SpitGreedyAgent(seed=3, mean=0.3, sigma=0.35)"),
        ("spit-human:seed=3", "SpitHumanAgent(seed=3, mean=0.9, sigma=0.5)"),
        (
            "tonk-heuristic:seed=3,samples=7",
            "TonkHeuristicAgent(seed=3, samples=7, drop_margin=0.9)",
        ),
    ],
)
def test_an_agent_shows_the_parameters_it_was_built_with(spec: str, shown: str) -> None:
    agent = cardcore.load_agent(spec)
    assert repr(agent) == shown
    assert agent.seed == 3


def test_ismcts_shows_its_seed_too() -> None:
    assert "seed=3" in repr(cardcore.load_agent("ismcts", seed=3, iterations=5))


def test_an_agent_sent_to_another_process_mid_game_plays_on_identically() -> None:
    legal = list(range(50))
    agent = cardcore.RandomAgent(7)
    for _ in range(5):
        agent.choose({}, legal)
    twin = pickle.loads(pickle.dumps(agent))  # the seed attribute is never used to reseed
    assert repr(twin) == repr(agent)
    assert [agent.choose({}, legal) for _ in range(20)] == [
        twin.choose({}, legal) for _ in range(20)
    ]


def test_a_simulation_is_the_same_with_the_seed_given_by_spec_or_by_the_study() -> None:
    kwargs: dict[str, Any] = {"games": 3, "seed": 4, "options": {"rounds": 1}}
    first = cardcore.simulate("golf", agents=["golf-greedy", "random"], **kwargs)
    again = cardcore.simulate("golf", agents=["golf-greedy", "random"], **kwargs)
    assert first == again
    pinned = cardcore.simulate("golf", agents=["golf-greedy:seed=1", "random:seed=1"], **kwargs)
    pinned_again = cardcore.simulate(
        "golf", agents=["golf-greedy:seed=1", "random:seed=1"], **kwargs
    )
    assert pinned == pinned_again


# ---------------------------------------------------------------- 6. causes of old sessions


def _stream(name: str, messages: list[object]) -> Any:
    from cardcore.session.streams import Stream

    rows = [(i + 1, m if isinstance(m, str) else json.dumps(m)) for i, m in enumerate(messages)]
    return Stream(name, 1000, len(rows), rows)


def _update(version: int, cause: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"text": "flip 0"}
    if cause is not None:
        action["cause"] = cause
    return {"type": "update", "version": version, "action": action}


def _takeback(version: int) -> dict[str, Any]:
    return {"type": "view", "reason": "takeback", "version": version}


def test_old_causes_honour_a_takeback_in_any_order_of_the_streams() -> None:
    from cardcore.session._causes import stored_causes

    seat0 = [_update(4), _update(5, "timeout"), _takeback(4), _update(5), _update(6, "clock")]
    seat1 = [_takeback(4), _update(5), _update(6, "clock")]  # a shorter tail
    streams = [_stream("seat.0", seat0), _stream("seat.1", seat1)]
    expected = ({6: "clock"}, 3)
    assert stored_causes({}, streams, 6) == expected
    assert stored_causes({}, streams[::-1], 6) == expected


def test_old_causes_skip_torn_rows_and_drop_versions_past_the_record() -> None:
    from cardcore.session._causes import stored_causes

    seat0 = ["{torn", "[1, 2]", _update(1, "timeout"), _update(2, "host"), _update(9, "timeout")]
    assert stored_causes({}, [_stream("seat.0", seat0)], 2) == ({1: "timeout", 2: "host"}, 0)
    kept = {"played_for": {"1": "timeout", "7": "host"}, "played_from": 5}
    assert stored_causes(kept, [], 3) == ({1: "timeout"}, 3)
