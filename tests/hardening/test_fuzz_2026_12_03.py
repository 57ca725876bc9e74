"""Property-based attack on the public API of Golf, Tonk, Spit and Speed (2026-12-03).

Earlier fuzzers (``tests/fuzz/``, ``tests/hardening/``) attack a dozen fixed configurations
with random text and single-point edits. This module draws the configuration too (every
declared option of every game near and at its bounds, any house rules of the game, 2 to 5
seats) and attacks from other angles:

* hidden information, judged against an independent witness: a seat must not tell a game
  from ``game.determinize(seat, ...)`` (views, history, legal actions, the RL observation),
  also after a refused action, a resignation or the host's end; a seat's event stream must
  show no card beyond the public stream and the seat's own views; the text of a refusal must
  name no card the seat has not seen;
* near-legal action text (a legal notation with one to three edits) and forged action objects;
* ``new_game`` with arbitrary players, options, rules, ``without`` and seeds;
* saves and records with values grafted from another game's, besides type and size edits;
* ``seen=`` and ``at=`` in real time, judged alike by a clone and kept by the replay;
* every position a game writes, at every step, read back into the same game.

Every hypothesis test is derandomized and bounded: the module runs in well under 30 s.
The defects found are kept at the end as strict xfails.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardcore
from cardcore import SPECTATOR, CardcoreError, Event

GAMES = ("golf", "tonk", "spit", "speed")
FAST = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[CDHS](?![0-9A-Za-z])|JK")
ALL_CARDS = [str(c) for c in cardcore.standard_52()] + ["JK"]


# -- helpers ----------------------------------------------------------------------------------


Config = tuple[str, int, dict[str, Any], list[str], list[str]]


@st.composite
def configs(draw: Any, games: tuple[str, ...] = GAMES) -> Config:
    """A configuration near the declared bounds: (game, seats, options, rules, without)."""
    name = draw(st.sampled_from(games))
    info = cardcore.game_info(name)
    options: dict[str, Any] = {}
    for option in info.options:
        if not draw(st.booleans()):
            continue
        if option.choices:
            value = draw(st.sampled_from(list(option.choices)))
        elif option.minimum is not None:
            top = min(option.maximum or option.minimum + 6, option.minimum + 6)
            value = draw(st.integers(option.minimum, top))
        else:
            continue
        if option.nullable and draw(st.integers(0, 4)) == 0:
            value = None
        options[option.name] = value
    if name == "golf" and options.get("rounds") is None:
        options["rounds"] = draw(st.integers(1, 2))  # a match that ends within the walk
    if name == "tonk":
        options.setdefault("hands", draw(st.integers(1, 3)))
    known = cardcore.available_rules(name)
    rules = draw(st.lists(st.sampled_from(known), max_size=3, unique=True)) if known else []
    defaults = info.default_rules
    without = draw(st.lists(st.sampled_from(defaults), max_size=1)) if defaults else []
    seats = draw(st.integers(info.min_players, min(info.max_players, 5)))
    return name, seats, options, rules, without


def _new(config: Config, **kw: Any) -> cardcore.Game:
    name, seats, options, rules, without = config
    return cardcore.new_game(name, seats, options=dict(options), rules=rules, without=without, **kw)


def _started(config: Config, seed: int) -> cardcore.Game | None:
    """The game of *config*, or ``None`` where the configuration is refused (cleanly)."""
    try:
        return _new(config, seed=seed)
    except CardcoreError:
        return None


def _play(game: cardcore.Game, steps: int, seed: int) -> cardcore.Game:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        choices = [(s, game.legal_actions(s)) for s in game.to_act]
        choices = [(s, legal) for s, legal in choices if legal]
        if not choices:
            break
        _, legal = rng.choice(choices)
        game.apply(rng.choice(legal))
    return game


def _placed(game: cardcore.Game) -> Counter[str]:
    return Counter(str(c) for c in game.state.zones.all_cards())


def _deck(game: cardcore.Game) -> Counter[str]:
    return Counter(str(c) for c in game.logic.deck(len(game.players), game.options))


def _fingerprint(game: cardcore.Game) -> str:
    return json.dumps([game.save(), game.version], sort_keys=True)


def _cards(value: Any) -> set[str]:
    return set(CARD.findall(json.dumps(value)))


def _no_raw(call: Any) -> Any:
    """Run *call*; a CardcoreError is returned, a raw exception fails the test."""
    try:
        return call()
    except CardcoreError as exc:
        return exc
    except Exception as exc:
        pytest.fail(f"raw {type(exc).__name__} escaped: {exc!r}"[:400])


# -- 1. hidden information against a determinized witness -------------------------------------


@settings(FAST, max_examples=120)
@given(
    config=configs(),
    seed=st.integers(0, 2**64),
    steps=st.integers(0, 400),
    seat=st.integers(0, 4),
    other_seed=st.integers(0, 2**32),
    before=st.sampled_from(["nothing", "refused", "resign", "end"]),
)
def test_a_seat_cannot_tell_a_game_from_its_determinized_copy(
    config: Config, seed: int, steps: int, seat: int, other_seed: int, before: str
) -> None:
    np = pytest.importorskip("numpy")
    from cardcore.rl import observe

    game = _started(config, seed)
    if game is None:
        return
    _play(game, steps, seed)
    seat %= len(game.players)
    if before == "refused":
        _no_raw(lambda: game.act(seat, "discard 5H 9Z"))
    elif before == "resign" and not game.is_over:
        game.act(seat, "resign")
    elif before == "end" and not game.is_over:
        game.act(cardcore.HOST, "end")
    for copy in (game.determinize(seat, other_seed), game.clone()):
        assert copy.view(seat) == game.view(seat)
        assert copy.history(seat) == game.history(seat)
        assert list(map(str, copy.legal_actions(seat))) == list(map(str, game.legal_actions(seat)))
        mine, theirs = observe(game, seat), observe(copy, seat)
        assert all(np.array_equal(mine[k], theirs[k]) for k in mine)
        assert _placed(copy) == _deck(game)


# -- 2. near-legal text: applied or refused cleanly, a refusal naming no unseen card -----------


@st.composite
def near(draw: Any, base: str) -> str:
    """*base* (a legal notation) with one to three edits."""
    words = base.split()
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.integers(0, 6))
        at = draw(st.integers(0, max(len(words) - 1, 0)))
        if op == 0 and words:
            words[at] = draw(st.sampled_from(ALL_CARDS))
        elif op == 1 and words and words[at].lstrip("-").isdigit():
            words[at] = str(int(words[at]) + draw(st.integers(-3, 3)))
        elif op == 2:
            words.append(draw(st.sampled_from([*words, *ALL_CARDS[:8], "L", "R", "0", "9"])))
        elif op == 3 and len(words) > 1:
            del words[at]
        elif op == 4 and len(words) > 1:
            other = draw(st.integers(0, len(words) - 1))
            words[at], words[other] = words[other], words[at]
        elif op == 5:
            verbs = ["play", "take", "discard", "spread", "hit", "flip", "peek", "fill", "L"]
            words.insert(at, draw(st.sampled_from(verbs)))
        else:
            words.append(draw(st.text(max_size=3)))
    return draw(st.sampled_from([" ", "  ", ",", "\t"])).join(words)


@settings(FAST, max_examples=150)
@given(data=st.data(), config=configs(), seed=st.integers(0, 2**64), steps=st.integers(0, 200))
def test_near_legal_text_is_applied_or_refused_naming_no_unseen_card(
    data: Any, config: Config, seed: int, steps: int
) -> None:
    game = _started(config, seed)
    if game is None:
        return
    _play(game, steps, seed)
    legal = [(s, str(a)) for s in range(len(game.players)) for a in game.legal_actions(s)]
    if not legal:
        return
    owner, base = data.draw(st.sampled_from(legal))
    text = data.draw(near(base))
    seat = data.draw(st.sampled_from([owner, *range(len(game.players))]))
    before, seen = _fingerprint(game), _cards(game.view(seat))
    outcome = _no_raw(lambda: game.act(seat, text))
    if isinstance(outcome, CardcoreError):
        assert _fingerprint(game) == before
        named = set(CARD.findall(str(outcome).upper())) - set(CARD.findall(text.upper()))
        assert not named - seen, f"{outcome} names a card seat {seat} has not seen"
    else:
        assert _placed(game) == _deck(game)


# -- 3. event streams ---------------------------------------------------------------------------


@settings(FAST, max_examples=40)
@given(config=configs(), seed=st.integers(0, 2**64), steps=st.integers(0, 250))
def test_a_seat_stream_shows_no_card_beyond_the_public_stream_and_its_views(
    config: Config, seed: int, steps: int
) -> None:
    seats: list[Any] = [*range(config[1]), SPECTATOR]
    got: dict[Any, list[Event]] = {s: [] for s in seats}
    try:
        game = _new(config, seed=seed, subscribers=[(Event, got[s].append, s) for s in seats])
    except CardcoreError:
        return

    def seen(seat: int) -> set[str]:
        return _cards(game.view(seat)) | _cards(game.history(seat))

    before = {s: set() for s in seats[:-1]}
    rng = random.Random(seed)
    for _ in range(steps + 1):
        public = set().union(*(_cards(e.to_json()) for e in got[SPECTATOR]))
        after = {s: seen(s) for s in seats[:-1]}
        for s in seats[:-1]:
            shown = set().union(*(_cards(e.to_json()) for e in got[s]))
            assert not shown - before[s] - after[s] - public, (s, [e.to_json() for e in got[s]])
        for s in seats:
            got[s].clear()
        before = after
        if game.is_over:
            break
        choices = [(s, game.legal_actions(s)) for s in game.to_act]
        choices = [(s, legal) for s, legal in choices if legal]
        if not choices:
            break
        _, legal = rng.choice(choices)
        game.apply(rng.choice(legal))


@settings(FAST, max_examples=30)
@given(config=configs(("tonk",)), seed=st.integers(0, 2**64))
def test_tonk_history_shows_only_hands_some_view_showed(config: Config, seed: int) -> None:
    game = _started(config, seed)
    if game is None:
        return
    viewers: list[int | None] = [None, *range(config[1])]
    known: dict[int | None, set[str]] = {s: set() for s in viewers}
    rounds = 0
    rng = random.Random(seed)
    for _ in range(3000):
        for s in viewers:
            known[s] |= _cards(game.view(s)["zones"])
        if len(game.history(None)) > rounds:
            for s in viewers:
                assert not _cards(game.history(s)[rounds:]) - known[s], s
                known[s] = set()
            rounds = len(game.history(None))
        if game.is_over:
            break
        choices = [(s, game.legal_actions(s)) for s in game.to_act]
        _, legal = rng.choice([(s, legal) for s, legal in choices if legal])
        game.apply(rng.choice(legal))


# -- 4. new_game with arbitrary arguments -------------------------------------------------------

_OPTION_NAMES = sorted({o.name for g in GAMES for o in cardcore.game_info(g).options})
_RULES = sorted({r for g in GAMES for r in cardcore.available_rules(g)})
_atoms = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 70),
    st.integers(),
    st.floats(),
    st.text(max_size=6),
    st.sampled_from(
        [6, 8, 9, 10, 4, "4", "4h", "4H", " 4h", "６", "random", "RANDOM", 5, 15, 2**63]
    ),
    st.builds(Decimal, st.integers(-5, 20)),
    st.builds(Fraction, st.integers(0, 20), st.integers(1, 3)),
    st.binary(max_size=4),
    st.just(math.inf),
)
_values = st.recursive(
    _atoms,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.tuples(inner),
        st.dictionaries(st.text(max_size=3), inner, max_size=2),
        st.frozensets(st.integers(0, 9), max_size=3),
    ),
    max_leaves=5,
)
_keys = st.one_of(
    st.sampled_from(_OPTION_NAMES),
    st.sampled_from([n.upper() for n in _OPTION_NAMES] + [n + " " for n in _OPTION_NAMES]),
    st.text(max_size=8),
    st.integers(),
    st.none(),
)
_rule = st.one_of(
    st.sampled_from(_RULES),
    st.sampled_from([r.upper() for r in _RULES] + ["GOLF-VAR-1", "TONK-49-1", "", " ", "golf"]),
    st.text(max_size=10),
    _atoms,
)
_rules = st.one_of(
    st.lists(_rule, max_size=3),
    st.sets(st.sampled_from(_RULES), max_size=3),
    st.sampled_from(_RULES),
    _rule,
    st.dictionaries(st.sampled_from(_RULES), _atoms, max_size=2),
)
_name = st.one_of(
    st.text(max_size=8),
    st.text(min_size=95, max_size=110),
    _atoms,
    st.sampled_from(["Player 1", "Pl\u0430yer 1", "\u202e", "a\nb", "-1"]),
)
_players = st.one_of(
    st.integers(-3, 70),
    st.integers(),
    st.lists(_name, max_size=5),
    st.tuples(_name, _name),
    _atoms,
    st.just(range(2)),
    st.just("ab"),
    st.sets(st.text(min_size=1, max_size=3), max_size=3),
)
_seeds = st.one_of(st.none(), st.integers(), st.integers(0, 2**130), _atoms)


@settings(FAST, max_examples=300)
@given(
    name=st.sampled_from(GAMES),
    players=_players,
    options=st.one_of(
        st.none(),
        st.dictionaries(_keys, _values, max_size=4),
        st.dictionaries(st.sampled_from(_OPTION_NAMES), _atoms, max_size=4),
        _values,
    ),
    rules=_rules,
    without=st.one_of(st.just(()), _rules),
    seed=_seeds,
)
def test_new_game_with_arbitrary_arguments_is_refused_or_consistent(
    name: str, players: Any, options: Any, rules: Any, without: Any, seed: Any
) -> None:
    game = _no_raw(
        lambda: cardcore.new_game(
            name, players, options=options, rules=rules, without=without, seed=seed
        )
    )
    if isinstance(game, CardcoreError):
        assert str(game)
        return
    assert _placed(game) == _deck(game)
    for seat in [None, *range(len(game.players))]:
        json.dumps(game.view(seat), allow_nan=False)
    assert cardcore.load(json.dumps(game.save(), allow_nan=False)).save() == game.save()
    assert cardcore.replay(json.dumps(game.record(), allow_nan=False)).save() == game.save()
    _play(game, 20, 1)
    assert _placed(game) == _deck(game)


# -- 5. saves and records: grafts from other games, types, sizes, order ----------------------

_JUNK = [None, True, 0, 1, -1, 3, 1.0, 0.5, 1e308, 2**64 + 1, "", "0", "x", "\x00", "𝟏", "JK"]
_JUNK += [[], {}, [[]], "golf", "tonk", "spit", "speed", "resign", "end", "random", "Player 1"]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


def _edit(data: Any, draw: Any, donor: Any) -> Any:
    data = json.loads(json.dumps(data))
    path = draw(st.sampled_from(_paths(data)[1:]))
    parent = data
    for k in path[:-1]:
        parent = parent[k]
    last = path[-1]
    current = parent[last]
    kind = draw(st.integers(0, 9))
    number = type(current) is int
    if kind == 0:
        parent[last] = draw(st.sampled_from(_JUNK))
    elif kind == 1 and number:
        parent[last] = current + draw(st.sampled_from([-2, -1, 1, 2, 64, 2**62]))
    elif kind == 2 and number:
        parent[last] = draw(st.sampled_from([float(current), bool(current), str(current), None]))
    elif kind == 3 and isinstance(current, str):
        parent[last] = draw(
            st.sampled_from([current.upper(), " " + current, current[:-1], current + "\u200b"])
        )
    elif kind == 4:
        del parent[last]
    elif kind == 5 and isinstance(parent, list):
        parent.insert(last, current)
    elif kind == 6 and isinstance(parent, list) and len(parent) > 1:
        other = draw(st.integers(0, len(parent) - 1))
        parent[last], parent[other] = parent[other], parent[last]
    elif kind == 7 and isinstance(current, str) and current in ALL_CARDS:
        parent[last] = draw(st.sampled_from(ALL_CARDS))
    elif kind == 8:  # the value another game holds at the same place
        there = donor
        try:
            for k in path:
                there = there[k]
        except (KeyError, IndexError, TypeError):
            return data
        parent[last] = json.loads(json.dumps(there))
    elif isinstance(current, list):
        parent[last] = current[: draw(st.integers(0, len(current)))]
    return data


@settings(FAST, max_examples=120)
@given(
    data=st.data(),
    config=configs(),
    donor_config=configs(),
    seed=st.integers(0, 2**64),
    steps=st.integers(0, 200),
    what=st.sampled_from(["save", "record"]),
    edits=st.integers(1, 3),
    as_text=st.booleans(),
)
def test_grafted_and_edited_saves_and_records_are_refused_or_faithful(
    data: Any,
    config: Config,
    donor_config: Config,
    seed: int,
    steps: int,
    what: str,
    edits: int,
    as_text: bool,
) -> None:
    game, donor = _started(config, seed), _started(donor_config, seed + 1)
    if game is None or donor is None:
        return
    _play(game, steps, seed)
    _play(donor, steps // 2, seed + 1)
    edited = game.save() if what == "save" else game.record()
    graft = donor.save() if what == "save" else donor.record()
    for _ in range(edits):
        edited = _edit(edited, data.draw, graft)
    reader = cardcore.load if what == "save" else cardcore.replay
    loaded = _no_raw(lambda: reader(json.dumps(edited) if as_text else edited))
    if isinstance(loaded, CardcoreError):
        return
    assert _placed(loaded) == _deck(loaded)
    again = cardcore.replay(json.loads(json.dumps(loaded.record())))
    assert again.save() == loaded.save()
    for seat in [None, *range(len(loaded.players))]:
        json.dumps(loaded.view(seat), allow_nan=False)
    _play(loaded, 20, 3)
    assert _placed(loaded) == _deck(loaded)


# -- 6. seen= and at= ---------------------------------------------------------------------------


def _applied(game: cardcore.Game, action: Any, at: Any, seen: Any) -> Any:
    return _no_raw(lambda: game.apply(action, at=at, seen=seen))


@settings(FAST, max_examples=25)
@given(
    data=st.data(),
    config=configs(("spit", "speed", "golf", "tonk")),
    seed=st.integers(0, 2**64),
    steps=st.integers(1, 120),
)
def test_seen_and_at_are_judged_alike_by_a_clone_and_kept_by_the_replay(
    data: Any, config: Config, seed: int, steps: int
) -> None:
    game = _started(config, seed)
    if game is None:
        return
    offered: dict[int, dict[int, tuple[cardcore.Action, ...]]] = {}
    clock, rng = 0.0, random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        offered[game.version] = {s: game.legal_actions(s) for s in range(len(game.players))}
        recent = [v for v in offered if v >= game.version - 80]
        seen = data.draw(
            st.one_of(st.none(), st.sampled_from(recent), st.integers(-3, game.version + 3))
        )
        pool = offered[seen if seen in offered else game.version]
        choices = [legal for legal in pool.values() if legal]
        if not choices:
            break
        action = rng.choice(rng.choice(choices))
        at = data.draw(
            st.one_of(
                st.none(),
                st.floats(clock - 2, clock + 5),
                st.sampled_from([clock, math.inf, math.nan, 1e15, 1e15 + 1, -1e15, True, "1"]),
            )
        )
        before, copy = _fingerprint(game), game.clone()
        outcome, twin = (_applied(g, action, at, seen) for g in (game, copy))
        if isinstance(outcome, CardcoreError):
            assert _fingerprint(game) == before
            assert type(twin) is type(outcome) and str(twin) == str(outcome)
            continue
        assert not isinstance(twin, CardcoreError), twin
        assert _fingerprint(copy) == _fingerprint(game)
        if isinstance(at, float):
            clock = max(clock, at)
    assert _placed(game) == _deck(game)
    assert _fingerprint(cardcore.replay(json.dumps(game.record()))) == _fingerprint(game)
    assert _fingerprint(cardcore.load(json.dumps(game.save()))) == _fingerprint(game)


# -- 7. forged action objects -------------------------------------------------------------------


def _action_classes() -> dict[str, list[type[cardcore.Action]]]:
    import inspect

    import cardcore_golf.actions
    import cardcore_spit.actions
    import cardcore_spit.speed.actions
    import cardcore_tonk.actions

    modules = {
        "golf": cardcore_golf.actions,
        "tonk": cardcore_tonk.actions,
        "spit": cardcore_spit.actions,
        "speed": cardcore_spit.speed.actions,
    }
    return {
        name: [
            c
            for c in vars(module).values()
            if inspect.isclass(c)
            and issubclass(c, cardcore.Action)
            and attrs.has(c)
            and c.__module__ == module.__name__
        ]
        for name, module in modules.items()
    }


_CLASSES = _action_classes()
_CARD_OBJECTS = [*cardcore.standard_52(), cardcore.JOKER]


def _field_values(kind: str) -> Any:
    if kind == "int":
        return st.one_of(st.integers(-2, 12), st.integers(), st.sampled_from([True, 1.0]))
    if kind == "Card":
        return st.one_of(st.sampled_from(_CARD_OBJECTS), st.sampled_from(["5H", 5, None]))
    if kind == "str":
        return st.one_of(st.sampled_from(["slap", "choose", "SLAP", ""]), st.text(max_size=5))
    cards = st.sampled_from(_CARD_OBJECTS)
    return st.one_of(st.lists(cards, max_size=5).map(tuple), st.lists(cards, max_size=4))


@settings(FAST, max_examples=200)
@given(data=st.data(), config=configs(), seed=st.integers(0, 2**64), steps=st.integers(0, 300))
def test_forged_action_objects_are_refused_or_legal(
    data: Any, config: Config, seed: int, steps: int
) -> None:
    game = _started(config, seed)
    if game is None:
        return
    _play(game, steps, seed)
    seats = len(game.players)
    kind = data.draw(st.sampled_from(_CLASSES[config[0]] * 3 + [cardcore.Resign]))
    fields = [f for f in attrs.fields(kind) if f.init]
    values = [data.draw(_field_values(str(f.type))) for f in fields]
    if fields and data.draw(st.booleans()):
        values[0] = data.draw(st.integers(0, seats - 1))
    action = _no_raw(lambda: kind(*values))
    if isinstance(action, CardcoreError):
        return
    before = _fingerprint(game)
    offered = {s: game.legal_actions(s) for s in range(seats)}
    outcome = _no_raw(lambda: game.apply(action))
    if isinstance(outcome, CardcoreError):
        assert _fingerprint(game) == before
        return
    if kind is not cardcore.Resign:
        assert action in offered[action.seat]
    assert _placed(game) == _deck(game)
    assert cardcore.replay(json.dumps(game.record())).save() == game.save()


# -- 8. positions -------------------------------------------------------------------------------


@settings(FAST, max_examples=20)
@given(config=configs(), seed=st.integers(0, 2**64))
def test_every_position_a_game_writes_reads_back_the_same_game(config: Config, seed: int) -> None:
    game = _started(config, seed)
    if game is None:
        return
    name, seats = config[0], config[1]
    rng = random.Random(seed)
    for _ in range(3000):
        # finished games: Golf's read back (Spit's and Speed's positions are of games under way)
        if not game.is_over or name == "golf":
            text = game.position()
            again = _new(config, position=text, seed=1)
            assert again.position() == text
            for seat in [None, *range(seats)]:
                assert again.view(seat) == game.view(seat) | {"version": again.version}
                if seat is not None:
                    assert list(map(str, again.legal_actions(seat))) == list(
                        map(str, game.legal_actions(seat))
                    )
        if game.is_over:
            break
        choices = [(s, game.legal_actions(s)) for s in game.to_act]
        choices = [(s, legal) for s, legal in choices if legal]
        if not choices:
            break
        _, legal = rng.choice(choices)
        game.apply(rng.choice(legal))


@settings(FAST, max_examples=60)
@given(config=configs(), seed=st.integers(0, 2**64), steps=st.integers(0, 300))
def test_a_truncated_game_is_over_everywhere_and_replays(
    config: Config, seed: int, steps: int
) -> None:
    game = _started(config, seed)
    if game is None:
        return
    _play(game, steps, seed)
    was_over = game.is_over
    game.truncate()
    game.truncate()  # a second time changes nothing
    assert game.is_over and _placed(game) == _deck(game)
    assert game.result is not None and len(game.result.scores) == config[1]
    assert was_over or game.result.reason == "truncated"
    for seat in [None, *range(config[1])]:
        view = game.view(seat)
        assert view["is_over"] and view["to_act"] == [] and view["legal"] == []
    assert cardcore.replay(json.dumps(game.record())).save() == game.save()
    assert cardcore.load(json.dumps(game.save())).save() == game.save()
    if config[0] in ("tonk", "golf"):  # (spit's and speed's are refused)
        text = game.position()
        again = _new(config, position=text, seed=1)
        assert again.position() == text and again.result == game.result


# -- defects found ------------------------------------------------------------------------------


def _golf_capped_match() -> cardcore.Game:
    game = cardcore.new_game("golf", 2, options={"rounds": 1, "max_turns": 1}, seed=0)
    for seat, text in [(0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1")]:
        game.act(seat, text)
    game.act(0, "take")
    game.act(0, "replace 0")  # the one turn the cap allows: the round and the match end
    return game


def test_bug_golf_position_of_a_match_its_turn_cap_ended_reads_back() -> None:
    game = _golf_capped_match()
    assert game.is_over
    text = game.position()
    again = cardcore.new_game(
        "golf", 2, options={"rounds": 1, "max_turns": 1}, position=text, seed=1
    )
    assert again.position() == text


def _golf_truncated() -> cardcore.Game:
    game = cardcore.new_game("golf", 2, seed=2)
    for seat, text in [(0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1"), (0, "draw")]:
        game.act(seat, text)
    game.truncate()
    return game


def test_bug_golf_position_of_a_truncated_game_reads_back() -> None:
    game = _golf_truncated()
    text = game.position()
    again = cardcore.new_game("golf", 2, position=text, seed=1)
    assert again.result == game.result


def test_papercut_golf_view_of_a_truncated_game_says_over() -> None:
    assert _golf_truncated().view(0)["table"]["phase"] == "over"


def test_papercut_tonk_view_after_a_resignation_says_over() -> None:
    game = cardcore.new_game("tonk", 2, seed=2)
    game.act(1, "resign")
    table = game.view(0)["table"]
    assert (table["phase"], table["turn"]) == ("over", None)


def test_papercut_spit_view_after_a_resignation_says_over() -> None:
    game = cardcore.new_game("spit", 2, seed=2)
    game.act(1, "resign")
    assert game.view(0)["table"]["phase"] == "over"


def test_papercut_chance_refuses_a_seed_that_is_not_an_int() -> None:
    for seed in (None, 1.9, True):
        with pytest.raises(CardcoreError):
            cardcore.Chance(seed, 0)
