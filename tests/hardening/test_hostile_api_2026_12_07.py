"""A hostile caller against cardcore's public Python API (review of 2026-12-07).

The standard (design): "Bad input gets a clear error naming what was wrong, and
changes nothing: an illegal move, a move out of turn, malformed text, an unknown
rule, a tampered save, a hostile network message. Nothing is ever lost or
duplicated. No raw Python exception ever reaches a caller from input."
docs/api.rst, Errors: "Every error derives from CardcoreError. Messages quote the
offending input."

Every game (Golf in each layout, Spit, Speed, Tonk) is tried with wrong-typed and
out-of-range options, bad player counts and seeds, junk actions, bad seats and
times, tampered saves and records, and malformed positions. After each refused
call the game must be exactly as before (its save, version and seats to act) with
every card in one place (:func:`cardcore.testing.assert_conserved`).

Plain tests pin what holds; strict xfails show what does not (each reason names
the place in the code).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs
import pytest

import cardcore
from cardcore import (
    ArgumentError,
    CardcoreError,
    CorruptStateError,
    IllegalActionError,
    NotationError,
    OptionError,
    RuleConflictError,
    SeatError,
    StaleActionError,
    UnknownPluginError,
)
from cardcore.testing import assert_conserved

LAYOUTS: list[Any] = [6, 8, 9, 10, 4, "4h"]
GAMES: list[tuple[str, dict[str, Any]]] = [
    *(("golf", {"layout": layout}) for layout in LAYOUTS),
    ("spit", {}),
    ("speed", {}),
    ("tonk", {}),
]
GAME_IDS = [f"{name}-{opts['layout']}" if opts else name for name, opts in GAMES]
NAMES = ["golf", "spit", "speed", "tonk"]
KEY = b"house secret"


# --------------------------------------------------------------------------- helpers


def _fingerprint(game: cardcore.Game) -> tuple[str, int, tuple[int, ...]]:
    """What a refused call must leave as it was: the save, the version, the seats to act."""
    return json.dumps(game.save(), sort_keys=True), game.version, game.to_act


def _advance(game: cardcore.Game, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over or not game.to_act:
            return
        moves = [a for seat in game.to_act for a in game.legal_actions(seat)]
        if not moves:
            return
        game.apply(rng.choice(moves))


def _midgame(name: str, options: Mapping[str, Any] | None = None, steps: int = 3) -> cardcore.Game:
    """A game a few actions in, with a seat to act (fixed seeds: deterministic)."""
    for seed in range(11, 60):
        game = cardcore.new_game(name, 2, options=dict(options or {}), seed=seed)
        _advance(game, steps, seed)
        if game.to_act and not game.is_over and game.legal_actions(game.to_act[0]):
            return game
    raise AssertionError(f"no seed gives a {name} game still on after {steps} actions")


def _refused(
    game: cardcore.Game,
    call: Callable[[], object],
    error: type[CardcoreError] = CardcoreError,
    *words: str,
) -> CardcoreError:
    """Assert *call* raises *error* naming *words* and leaves *game* as it was."""
    before = _fingerprint(game)
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    for word in words:
        assert word.lower() in message.lower(), (word, message)
    assert _fingerprint(game) == before
    assert_conserved(game)
    return info.value


def _raises_cardcore(call: Callable[[], object]) -> CardcoreError:
    """*call* raises a CardcoreError (a raw exception fails the test with its type)."""
    try:
        call()
    except CardcoreError as exc:
        return exc
    except Exception as exc:  # a raw exception reached the caller
        raise AssertionError(f"raw {type(exc).__name__}: {exc}") from exc
    raise AssertionError("accepted")


class EqAll(int):
    """An int that equals everything (a lying subclass)."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 0


class CompareRaises(int):
    """An int whose comparisons and float() raise."""

    def __lt__(self, other: object) -> bool:
        raise RuntimeError("lt")

    def __le__(self, other: object) -> bool:
        raise RuntimeError("le")

    def __gt__(self, other: object) -> bool:
        raise RuntimeError("gt")

    def __ge__(self, other: object) -> bool:
        raise RuntimeError("ge")

    def __float__(self) -> float:
        raise RuntimeError("float")


class StripRaises(str):
    def strip(self, chars: str | None = None) -> str:
        raise RuntimeError("strip")


class HashRaises(str):
    def __hash__(self) -> int:
        raise RuntimeError("hash")


class EncodeRaises(str):
    def encode(self, encoding: str = "utf-8", errors: str = "strict") -> bytes:
        raise RuntimeError("encode")


class LyingStr(str):
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class GetRaises(dict):  # type: ignore[type-arg]
    def get(self, *args: Any) -> Any:
        raise RuntimeError("get")


class ItemRaises(Mapping):  # type: ignore[type-arg]
    """A Mapping whose lookups raise."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = dict(data)

    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("getitem")

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


# --------------------------------------------------------------------------- options


BAD_VALUES: list[Any] = [
    True,
    2.5,
    float("nan"),
    float("inf"),
    10**100,
    -1,
    "x",
    [],
    {"a": 1},
    b"6",
    (6,),
]


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_every_option_refuses_wrong_types_and_ranges_naming_the_option(
    name: str, options: dict[str, Any]
) -> None:
    """api.rst: "errors about configuration and data (options, ...) name what was wrong"."""
    for option in cardcore.game_info(name).options:
        for value in BAD_VALUES:
            if option.choices is not None and value in option.choices and type(value) in (int, str):
                continue
            given = {**options, option.name: value}
            with pytest.raises(OptionError) as info:
                cardcore.new_game(name, 2, options=given, seed=1)
            assert option.name in str(info.value), (option.name, value, str(info.value))


@pytest.mark.parametrize("name", NAMES)
def test_unknown_and_malformed_option_mappings_are_refused(name: str) -> None:
    """api.rst: OptionError, "An option or player count that the game does not declare or accept"."""
    for options, word in [
        ({"nope": 1}, "nope"),
        ({1: 2}, "1"),
        ([("layout", 6)], "mapping"),
        ("layout=6", "mapping"),
        (GetRaises(x=1), ""),
        (ItemRaises({"x": 1}), "mapping"),
    ]:
        with pytest.raises(OptionError) as info:
            cardcore.new_game(name, 2, options=options, seed=1)
        assert word in str(info.value)


@pytest.mark.parametrize("name", NAMES)
def test_an_option_named_by_a_hostile_str_subclass_is_a_cardcore_error(name: str) -> None:
    """Standard: "No raw Python exception ever reaches a caller from input."."""
    option = cardcore.game_info(name).options[0]

    class Hostile(Mapping[str, Any]):
        """A mapping that hands out a key whose hash raises (a dict cannot hold one)."""

        def __getitem__(self, key: str) -> Any:
            return option.default

        def __iter__(self) -> Iterator[str]:
            yield HashRaises(option.name)

        def __len__(self) -> int:
            return 1

    _made_plain_or_refused(lambda: cardcore.new_game(name, 2, options=Hostile(), seed=1))


def _made_plain_or_refused(call: Callable[[], cardcore.Game]) -> None:
    """*call* refuses with a CardcoreError, or starts a game whose names are plain text
    (its own save loads)."""
    try:
        game = call()
    except CardcoreError:
        return
    assert all(type(r) is str for r in game.rules)
    assert all(type(k) is str for k in game.options)
    assert all(type(p) is str for p in game.players) and type(game.seed) is int
    assert cardcore.load(game.save()).save() == game.save()


# --------------------------------------------------------------------------- players and seeds


@pytest.mark.parametrize("name", NAMES)
def test_bad_player_counts_and_names_are_refused(name: str) -> None:
    """new_game: "players is a count or the display names"; a bad count raises OptionError (CORE-SEAT-2)."""
    info = cardcore.game_info(name)
    bad: list[Any] = [0, -1, info.max_players + 1, 10**9, True, 2.0, "2", None, b"AB", []]
    bad += [["A", ""], ["A", None], ["A", 2], ["A", "B" * 101], ["A", "\ud800"], {"A": 1}]
    for players in bad:
        with pytest.raises(OptionError) as info_:
            cardcore.new_game(name, players, seed=1)
        assert "players" in str(info_.value)
    if info.min_players > 1:
        with pytest.raises(OptionError, match="player"):
            cardcore.new_game(name, 1, seed=1)


@pytest.mark.parametrize("name", NAMES)
def test_bad_seeds_are_refused_naming_the_seed(name: str) -> None:
    """new_game: seed "an int from 0 below 2**128" (setup.MAX_SEED_BITS); anything else is OptionError."""
    for seed in [-1, 2**128, 1.5, "1", True, float("nan"), b"1", [1]]:
        with pytest.raises(OptionError, match="seed"):
            cardcore.new_game(name, 2, seed=seed)
    game = _midgame(name)
    for seed in [-1, 2**128, 1.5, "1", True, EqAll(1)]:
        _refused(game, lambda seed=seed: game.determinize(0, seed), OptionError, "seed")


@pytest.mark.parametrize("name", NAMES)
def test_a_str_subclass_player_name_is_kept_as_plain_text(name: str) -> None:
    """embedding.rst: "Game.save returns JSON-ready data ...; cardcore.load rebuilds the game"."""
    game = cardcore.new_game(name, [LyingStr("Ann"), "Bob"], seed=1)
    assert all(type(player) is str for player in game.players)
    assert cardcore.load(game.save()).players == game.players


@pytest.mark.parametrize("name", NAMES)
def test_hostile_player_values_are_cardcore_errors(name: str) -> None:
    """Standard: "No raw Python exception ever reaches a caller from input."."""
    _made_plain_or_refused(lambda: cardcore.new_game(name, [EncodeRaises("Ann"), "Bob"], seed=1))
    _made_plain_or_refused(lambda: cardcore.new_game(name, CompareRaises(2), seed=1))


@pytest.mark.parametrize("name", NAMES)
def test_an_int_subclass_seed_is_refused_or_made_plain(name: str) -> None:
    """new_game: seed "an int from 0 below 2**128"; Game.determinize refuses the same values."""
    _made_plain_or_refused(lambda: cardcore.new_game(name, 2, seed=CompareRaises(1)))
    try:
        game = cardcore.new_game(name, 2, seed=EqAll(1))
    except OptionError:
        return
    assert type(game.seed) is int
    cardcore.load(game.save())


@pytest.mark.parametrize("name", NAMES)
def test_bad_decks_and_subscribers_are_refused(name: str) -> None:
    """new_game: "NotationError: A card in deck that is not a card"; api.rst: ArgumentError for arguments of the wrong kind."""
    for deck, error, word in [
        ("AS AS", OptionError, "AS"),
        ("AS " * 60, OptionError, "AS"),
        ("JK", OptionError, "JK"),
        ("ZZ", NotationError, "ZZ"),
        ("AS\x00", NotationError, "AS"),
        (["AS", None], NotationError, "None"),
        ([1], NotationError, "1"),
        (5, OptionError, "5"),
        ({"AS": 1}, OptionError, "AS"),
        (b"AS", ArgumentError, "b'AS'"),
    ]:
        with pytest.raises(error) as info:
            cardcore.new_game(name, 2, deck=deck, seed=1)
        assert word in str(info.value), (deck, str(info.value))
    for subscribers, error in [
        (5, ArgumentError),
        ([5], ArgumentError),
        ([(1, print)], ArgumentError),
        ([(cardcore.Event,)], ArgumentError),
        ([(int, print)], ArgumentError),
        ([(cardcore.Event, 5)], ArgumentError),
        ([(cardcore.Event, print, 7)], SeatError),
        ([(cardcore.Event, print, True)], SeatError),
        ([(cardcore.Event, print, "0")], SeatError),
    ]:
        with pytest.raises(error):
            cardcore.new_game(name, 2, subscribers=subscribers, seed=1)


def test_subscribers_given_as_text_are_refused_quoting_the_text() -> None:
    """api.rst: "Messages quote the offending input."."""
    with pytest.raises(ArgumentError, match="'handler'"):
        cardcore.new_game("golf", 2, subscribers="handler", seed=1)


# --------------------------------------------------------------------------- house rules


@pytest.mark.parametrize("name", NAMES)
def test_unknown_foreign_and_conflicting_rules_are_refused(name: str) -> None:
    """api.rst: UnknownPluginError "(the message lists what is installed)", RuleConflictError, OtherGameRuleError."""
    installed = cardcore.available_rules(name)
    other = "tonk.no-upcard" if name != "tonk" else "golf.jokers"
    for rules, error, word in [
        (["nope"], UnknownPluginError, "nope"),
        ([f"{name}.nope"], UnknownPluginError, f"{name}.nope"),
        ([installed[0].upper()], UnknownPluginError, installed[0].upper()),
        ([" " + installed[0]], UnknownPluginError, installed[0]),
        ([installed[0] + "\x00"], UnknownPluginError, installed[0]),
        ([None], UnknownPluginError, "None"),
        ([1], UnknownPluginError, "1"),
        ([other], cardcore.OtherGameRuleError, other),
        (installed[0], ArgumentError, installed[0]),
        (None, ArgumentError, "None"),
        (5, ArgumentError, "5"),
    ]:
        with pytest.raises(error) as info:
            cardcore.new_game(name, 2, rules=rules, seed=1)
        assert word in str(info.value), (rules, str(info.value))
    with pytest.raises(RuleConflictError, match="default rule"):
        cardcore.new_game(name, 2, without=["nope"], seed=1)
    if name == "golf":
        with pytest.raises(RuleConflictError, match="cannot be combined"):
            cardcore.new_game(
                name, 2, rules=["golf.ender-penalty-10", "golf.ender-penalty-lowest"], seed=1
            )


@pytest.mark.parametrize("name", NAMES)
def test_rules_given_as_bytes_are_refused_quoting_the_bytes(name: str) -> None:
    """api.rst: "Messages quote the offending input."."""
    rules = cardcore.available_rules(name)[0].encode()
    with pytest.raises(ArgumentError) as info:
        cardcore.new_game(name, 2, rules=rules, seed=1)
    assert repr(rules) in str(info.value)


def test_rules_given_as_a_mapping_of_switches_is_refused() -> None:
    """new_game: "rules: House rules to add (entry-point names ...)"; api.rst: bad input raises, naming it."""
    with pytest.raises(ArgumentError):
        cardcore.new_game("golf", 2, rules={"golf.jokers": False}, seed=1)


@pytest.mark.parametrize("name", NAMES)
def test_a_rule_named_by_a_hostile_str_subclass_is_a_cardcore_error(name: str) -> None:
    """Standard: "No raw Python exception ever reaches a caller from input."."""
    rule = cardcore.available_rules(name)[0]
    _made_plain_or_refused(lambda: cardcore.new_game(name, 2, rules=[HashRaises(rule)], seed=1))


# --------------------------------------------------------------------------- act and apply


def _junk_texts(text: str) -> list[Any]:
    return [
        None,
        5,
        b"draw",
        text.encode(),
        [text],
        "",
        " ",
        "x" * 10**6,
        "draw " * 1000,
        text + " junk",
        text + "\x00",
        text + "\n" + text,
        text.replace("a", "\u0430") if "a" in text else "\u0430" + text,  # Cyrillic a
        text.replace("1", "\uff11").replace("0", "\uff10").replace("2", "\uff12"),
        "resign\x00",
        "\ud800",
        "play 99999999999999999999 L",
    ]


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_act_refuses_junk_text_and_changes_nothing(name: str, options: dict[str, Any]) -> None:
    """core-rules CORE-NOTATION-1: "text that is not an action of the game raises NotationError"."""
    game = _midgame(name, options)
    seat = game.to_act[0]
    text = str(game.legal_actions(seat)[0])
    for junk in _junk_texts(text):
        if junk == text:
            continue
        error = _refused(game, lambda junk=junk: game.act(seat, junk), CardcoreError)
        assert isinstance(error, NotationError | IllegalActionError), (junk, error)
        assert error.rule_id is not None, str(error)


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_bad_seats_are_refused_by_every_seat_taking_method(
    name: str, options: dict[str, Any]
) -> None:
    """errors.SeatError: "Raised by every method that takes a seat (act, view, legal_actions, history, ...)"."""
    game = _midgame(name, options)
    text = str(game.legal_actions(game.to_act[0])[0])
    for seat in [None, -1, 2, 99, -2, 10**30, True, 0.0, "0", EqAll(0), [0]]:
        for call in (
            lambda seat=seat: game.act(seat, text),
            lambda seat=seat: game.legal_actions(seat),
            lambda seat=seat: game.apply(cardcore.Resign(seat)),
        ):
            _refused(game, call, SeatError, "CORE-SEAT-1")
        if seat is not None:  # None is the spectator of view and history
            _refused(game, lambda seat=seat: game.view(seat), SeatError, "CORE-SEAT-1")
            _refused(game, lambda seat=seat: game.history(seat), SeatError, "CORE-SEAT-1")
    for since in [-1, None, 1.5, True, "0", [0]]:
        _refused(game, lambda since=since: game.history(0, since=since), CardcoreError, "since")


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_moves_out_of_turn_are_refused(name: str, options: dict[str, Any]) -> None:
    """core-rules CORE-TURN-1: only a seat in to_act may act; a rejected action changes nothing."""
    game = _midgame(name, options)
    idle = [seat for seat in range(2) if seat not in game.to_act]
    for seat in idle:
        for action in game.legal_actions(game.to_act[0]):
            moved = attrs.evolve(action, seat=seat)
            _refused(game, lambda moved=moved: game.apply(moved), IllegalActionError)
            _refused(game, lambda seat=seat, a=action: game.act(seat, str(a)), IllegalActionError)


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_apply_refuses_junk_objects_and_foreign_actions(name: str, options: dict[str, Any]) -> None:
    """Game.apply: "action: One of legal_actions(action.seat)"; "not an action" cites CORE-ACTION-1."""
    game = _midgame(name, options)
    foreign_name = "tonk" if name != "tonk" else "golf"
    foreign = _midgame(foreign_name)
    junk: list[Any] = [None, 5, "draw", b"draw", object(), cardcore.Action(0), cardcore.Action(1)]
    junk += [
        attrs.evolve(a, seat=s) for a in foreign.legal_actions(foreign.to_act[0]) for s in (0, 1)
    ]
    for value in junk:
        error = _refused(game, lambda value=value: game.apply(value), IllegalActionError)
        assert error.rule_id is not None
    # an action object of this game with fields of the wrong kind
    for action in game.legal_actions(game.to_act[0]):
        for field in attrs.fields(type(action)):
            if field.name == "seat":
                continue
            for bad in [None, -1, 10**100, "1", 1.5, float("nan"), (), [0], b"x"]:
                try:
                    odd = attrs.evolve(action, **{field.name: bad})
                except Exception:  # the class refuses it itself
                    continue
                if odd == action:
                    continue
                _refused(game, lambda odd=odd: game.apply(odd), IllegalActionError)


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_an_action_taken_from_a_clone_is_judged_against_this_game(
    name: str, options: dict[str, Any]
) -> None:
    """Game.clone: independent of its original; apply judges every action against its own state."""
    game = _midgame(name, options)
    clone = game.clone()
    _advance(clone, 4, seed=99)
    mine = {seat: set(game.legal_actions(seat)) for seat in game.to_act}
    for seat in clone.to_act:
        for action in clone.legal_actions(seat):
            if action in mine.get(action.seat, ()):
                continue
            _refused(game, lambda action=action: game.apply(action), IllegalActionError)


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_an_action_with_a_lying_field_never_breaks_the_record(name: str) -> None:
    """Standard: "Nothing is ever lost"; embedding.rst: load "rebuilds the game by replaying the record"."""
    game = _midgame(name, steps=8)
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    play = next(a for a in legal if type(a).__name__ in ("Play", "PlayCard"))
    if name == "speed":
        odd = attrs.evolve(play, card=EqAll(0))  # written 'play 0 L'
    else:  # a pile whose play is not legal now, given as an int that equals every pile
        pile = next(p for p in range(5) if attrs.evolve(play, pile=p) not in legal)
        odd = attrs.evolve(play, pile=EqAll(pile))
    before = _fingerprint(game)
    try:
        game.apply(odd)
    except CardcoreError:
        assert _fingerprint(game) == before
        return
    assert_conserved(game)
    cardcore.replay(json.dumps(game.record()))
    cardcore.load(json.dumps(game.save()))


@pytest.mark.parametrize("name", NAMES)
def test_act_reads_a_str_subclass_as_plain_text(name: str) -> None:
    """Standard: "No raw Python exception ever reaches a caller from input."; act(text) reads the notation."""
    game = _midgame(name)
    seat = game.to_act[0]
    text = str(game.legal_actions(seat)[0])
    for cls in (StripRaises, HashRaises):
        clone = game.clone()
        clone.act(seat, cls(text))
        assert clone.version == game.version + 1


# --------------------------------------------------------------------------- times and seen


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_bad_times_and_seen_are_refused(name: str, options: dict[str, Any]) -> None:
    """Game.apply: at "A finite number of at most MAX_TIME (1e15) in size" (CORE-RECORD-1); seen within the window (CORE-RT-3)."""
    game = _midgame(name, options)
    seat = game.to_act[0]
    text = str(game.legal_actions(seat)[0])
    for at in [float("nan"), float("inf"), -float("inf"), 1e16, -1e16, 10**400, "1", True, 1 + 0j]:
        _refused(
            game, lambda at=at: game.act(seat, text, at=at), IllegalActionError, "CORE-RECORD-1"
        )
    for clock in [lambda: float("nan"), lambda: "x", lambda: None]:
        _refused(
            game, lambda clock=clock: game.act(seat, text, at=clock), IllegalActionError, "clock"
        )
    for seen in [-1, 10**9, "0", 1.0, True, float("nan"), EqAll(0)]:
        _refused(
            game, lambda seen=seen: game.act(seat, text, seen=seen), IllegalActionError, "seen"
        )


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_real_time_refuses_times_going_backwards(name: str) -> None:
    """embedding.rst: "in real time the record keeps times in order, so an action stamped earlier ... is refused"."""
    game = _midgame(name)
    seat = game.to_act[0]
    game.act(seat, str(game.legal_actions(seat)[0]), at=100.0)
    seat = game.to_act[0]
    text = str(game.legal_actions(seat)[0])
    for at in [50.0, -5.0, -0.0, 99.999, lambda: 1.0]:
        _refused(game, lambda at=at: game.act(seat, text, at=at), IllegalActionError, "earlier")


def test_a_hostile_int_time_is_a_cardcore_error() -> None:
    """Standard: "No raw Python exception ever reaches a caller from input."."""
    game = _midgame("spit")
    seat = game.to_act[0]
    before = game.save()
    try:  # refused, or read as the plain number 5
        game.act(seat, str(game.legal_actions(seat)[0]), at=CompareRaises(5))
    except CardcoreError:
        assert game.save() == before
        return
    assert game.record()["actions"][-1][2] == 5.0
    assert type(game.record()["actions"][-1][2]) in (int, float)  # plain, as at=5 records
    cardcore.load(game.save())


# --------------------------------------------------------------------------- saves and records


def _tamper(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    where: Any = out
    for key in path[:-1]:
        where = where[key]
    if value is _REMOVE:
        del where[path[-1]]
    else:
        where[path[-1]] = value
    return out


_REMOVE = object()


def _finished_or_midgame(name: str, options: dict[str, Any]) -> cardcore.Game:
    game = cardcore.new_game(name, 2, options=options, seed=5)
    _advance(game, 6, seed=5)
    return game


def _zones_with_cards(state: Mapping[str, Any]) -> list[str]:
    return [zone for zone, pile in state["zones"].items() if pile["cards"]]


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_tampered_saves_are_refused(name: str, options: dict[str, Any]) -> None:
    """embedding.rst: "A damaged or tampered save raises CorruptStateError and loads nothing"."""
    game = _finished_or_midgame(name, options)
    save = game.save()
    state = save["state"]
    piles = _zones_with_cards(state)
    first, last = piles[0], piles[-1]
    a, b = state["zones"][first]["cards"][0], state["zones"][last]["cards"][-1]
    assert a != b
    dup = list(state["zones"][first]["cards"])
    dup[0] = b
    swapped_first = [b, *state["zones"][first]["cards"][1:]]
    swapped_last = [*state["zones"][last]["cards"][:-1], a]
    swapped = _tamper(save, ("state", "zones", first, "cards"), swapped_first)
    swapped = _tamper(swapped, ("state", "zones", last, "cards"), swapped_last)
    actions = save["record"]["actions"]
    cases: dict[str, dict[str, Any]] = {
        "cards swapped between piles": swapped,
        "a card duplicated": _tamper(save, ("state", "zones", first, "cards"), dup),
        "a joker added": _tamper(
            save, ("state", "zones", first, "cards"), [*state["zones"][first]["cards"], "JK"]
        ),
        "a card removed": _tamper(
            save, ("state", "zones", first, "cards"), state["zones"][first]["cards"][1:]
        ),
        "a pile removed": _tamper(save, ("state", "zones", first), _REMOVE),
        "no state": _tamper(save, ("state",), _REMOVE),
        "no record": _tamper(save, ("record",), _REMOVE),
        "no config": _tamper(save, ("config",), _REMOVE),
        "version + 1": _tamper(save, ("version",), save["version"] + 1),
        "version as text": _tamper(save, ("version",), "6"),
        "format of a record": _tamper(save, ("format",), "cardcore-record"),
        "format_version 99": _tamper(save, ("format_version",), 99),
        "last action removed": _tamper(save, ("record", "actions"), actions[:-1]),
        "actions reordered": _tamper(save, ("record", "actions"), actions[::-1]),
        "last action duplicated": _tamper(save, ("record", "actions"), [*actions, actions[-1]]),
        "seed + 1": _tamper(save, ("record", "seed"), save["record"]["seed"] + 1),
        "seed -1": _tamper(save, ("record", "seed"), -1),
        "seed 2**200": _tamper(save, ("record", "seed"), 2**200),
        "one player": _tamper(save, ("record", "players"), ["Ann"]),
        "unknown game": _tamper(save, ("record", "game"), "nope"),
        "unknown rule": _tamper(
            save, ("record", "rules"), [{"name": "nope", "id": "X-1", "version": "0.1.0"}]
        ),
        "config players renamed": _tamper(save, ("config", "players"), ["Ann", "Bob"]),
        "other seat to act": _tamper(save, ("state", "to_act"), [1 - (state["to_act"] or [0])[0]]),
        "result forged": _tamper(
            save,
            ("state", "result"),
            {"winners": [0], "scores": [0, 9], "payouts": None, "reason": "forged"},
        ),
        "chance counter + 1": _tamper(save, ("state", "draws"), state["draws"] + 1),
    }
    for label, tampered in cases.items():
        assert tampered != save, label
        try:
            error = _raises_cardcore(lambda tampered=tampered: cardcore.load(tampered))
        except AssertionError as exc:
            raise AssertionError(f"{label}: {exc}") from None
        assert isinstance(error, CorruptStateError), (label, error)


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_a_forged_record_result_is_refused(name: str, options: dict[str, Any]) -> None:
    """records.replay: the result must be "the result its actions replay to" (CorruptStateError)."""
    game = cardcore.new_game(name, 2, options=options, seed=3)
    _advance(game, 4000, seed=3)
    assert game.is_over
    record = game.record()
    winners = record["result"]["winners"]
    forged = [s for s in range(2) if s not in winners] or [0, 1]
    for result in [
        {**record["result"], "winners": forged},
        {**record["result"], "reason": "forged"},
        {**record["result"], "scores": [99, -99]},
        "won",
        [0],
    ]:
        tampered = _tamper(record, ("result",), result)
        error = _raises_cardcore(lambda tampered=tampered: cardcore.replay(tampered))
        assert isinstance(error, CorruptStateError)


@pytest.mark.parametrize("name", NAMES)
def test_a_signed_save_refuses_every_change(name: str) -> None:
    """security/saves: "load(..., key=...): a save that was changed or forged is refused before anything is replayed"."""
    game = _midgame(name, steps=6)
    signed = game.save(key=KEY)
    assert cardcore.load(signed, key=KEY).version == game.version
    state = signed["state"]
    first = _zones_with_cards(state)[0]
    cases = [
        _tamper(signed, ("version",), float(signed["version"])),
        _tamper(signed, ("record", "actions", 0, 2), 1.0),
        _tamper(signed, ("record", "players", 0), "Eve"),
        _tamper(
            signed,
            ("state", "zones", first, "cards"),
            [*state["zones"][first]["cards"][::-1], "AS"],
        ),
        _tamper(signed, ("signature",), signed["signature"].upper()),
        _tamper(signed, ("signature",), 5),
        _tamper(signed, ("signature",), "\ud800"),
        _tamper(signed, ("signature",), _REMOVE),
        {**signed, "extra": 1},
    ]
    for tampered in cases:
        _refused(
            game,
            lambda tampered=tampered: cardcore.load(tampered, key=KEY),
            CorruptStateError,
            "sign",
        )
    _refused(
        game, lambda: cardcore.load(signed, key=b"another key"), CorruptStateError, "signature"
    )
    _refused(
        game,
        lambda: cardcore.replay(game.record(key=KEY), key=b"x"),
        CorruptStateError,
        "signature",
    )


@pytest.mark.parametrize("key", [b"", ""])
def test_an_empty_signing_key_is_named_as_empty(key: bytes | str) -> None:
    """api.rst: "Messages quote the offending input" and name what was wrong."""
    game = _midgame("golf")
    for call in (lambda: game.save(key=key), lambda: cardcore.load(game.save(key=KEY), key=key)):
        error = _raises_cardcore(call)
        assert "empty" in str(error) and "not bytes" not in str(error), str(error)


@pytest.mark.parametrize(
    "wrap", [GetRaises, ItemRaises], ids=["dict-get-raises", "mapping-getitem-raises"]
)
def test_load_and_replay_of_a_hostile_mapping_are_cardcore_errors(
    wrap: Callable[[Any], Any],
) -> None:
    """records.load: "raises CorruptStateError: If anything fails validation"; no raw exception from input."""
    game = _midgame("tonk", steps=4)

    def refused_or_read_plain(call: Callable[[], cardcore.Game]) -> None:
        """Refused as a CardcoreError, or read as the plain data it holds."""
        try:
            loaded = call()
        except CardcoreError:
            return
        except Exception as exc:
            raise AssertionError(f"raw {type(exc).__name__}: {exc}") from exc
        assert loaded.save() == game.save()

    refused_or_read_plain(lambda: cardcore.load(wrap(game.save())))
    refused_or_read_plain(lambda: cardcore.replay(wrap(game.record())))
    save = game.save()
    save["record"] = wrap(save["record"])
    refused_or_read_plain(lambda: cardcore.load(save))


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("rules", 0, "id"), {"x": [1]}),
        (("rules", 0, "id"), "TONK-VAR-1"),
        (("rules", 0, "version"), "0.1.0 DROP TABLE"),
        (("game_version",), "0.2.0-evil"),
    ],
    ids=["id-dict", "id-other-game", "rule-version-junk", "game-version-junk"],
)
def test_record_rule_entries_and_versions_are_checked(path: tuple[Any, ...], value: Any) -> None:
    """records: a rule entry "must be {name, id, version}"; info.is_version defines version text."""
    game = cardcore.new_game("golf", 2, rules=["golf.jokers"], seed=5)
    _advance(game, 6, seed=5)
    record = _tamper(game.record(), path, value)
    error = _raises_cardcore(lambda: cardcore.replay(record))
    assert isinstance(error, CorruptStateError)
    save = game.save()
    save["record"] = _tamper(save["record"], path, value)
    assert isinstance(_raises_cardcore(lambda: cardcore.load(save)), CorruptStateError)


@pytest.mark.parametrize("field", ["to_act", "version", "round"])
def test_a_save_with_bools_or_floats_for_ints_is_refused(field: str) -> None:
    """embedding.rst: "A damaged or tampered save raises CorruptStateError and loads nothing"."""
    game = cardcore.new_game("golf", 2, seed=5)
    _advance(game, 6, seed=5)
    save = game.save()
    if field == "version":
        tampered = _tamper(save, ("version",), float(save["version"]))
    elif field == "to_act":
        tampered = _tamper(save, ("state", "to_act"), [bool(s) for s in save["state"]["to_act"]])
    else:
        tampered = _tamper(save, ("state", "round"), save["state"]["round"] == 1 or 2.0)
    assert json.dumps(tampered) != json.dumps(save)
    assert isinstance(_raises_cardcore(lambda: cardcore.load(tampered)), CorruptStateError)


@pytest.mark.parametrize("name", NAMES)
def test_malformed_record_and_save_text_is_refused(name: str) -> None:
    """records.replay/load: "CorruptStateError: If the record is malformed or beyond the size limits"."""
    game = _midgame(name)
    text = json.dumps(game.save())
    for data in [
        "",
        "{",
        "[]",
        "null",
        text[:-1],
        text + "x",
        b"\xff\xfe",
        "[" * 100_000,
        '{"a": ' * 40 + "1" + "}" * 40,
        5,
        None,
        [text],
        text.replace('"seed": ', '"seed": 1' + "0" * 60, 1),
        text.replace('"seed": ', '"seed": NaN, "x": ', 1),
    ]:
        for call in (cardcore.load, cardcore.replay):
            error = _raises_cardcore(lambda call=call, data=data: call(data))
            assert isinstance(error, CorruptStateError)


# --------------------------------------------------------------------------- positions


def _position_variants(name: str, position: str) -> dict[str, str]:
    words = position.split()
    cards = [
        w for w in words if w[:1] in "A23456789JQK1" and len(w.split("@")[0].rstrip("!")) in (2, 3)
    ]
    card = cards[0]
    other = cards[1]
    field = words[1]
    key = field.split("=")[0]
    return {
        "empty": "",
        "other game": position.replace(name, "tonk" if name != "tonk" else "golf", 1),
        "missing card": position.replace(" " + card, "", 1),
        "duplicated card": position.replace(card, card + " " + card, 1),
        "card twice, one missing": position.replace(other, card, 1),
        "extra joker": position.replace(card, card + " JK", 1),
        "trailing junk": position + " junk",
        "trailing pipe": position + " |",
        "unknown pile": position + " | nowhere:",
        "pile twice": position + " | " + position.split(" | ")[1],
        "NUL": position + "\x00",
        "too long": position + " " * 30_000,
        "seat out of range": position.replace(card, card.split("@")[0].rstrip("!") + "@9", 1),
        "negative seat": position.replace(card, card.split("@")[0].rstrip("!") + "@-1", 1),
        "field twice": position.replace(" | ", f" {field} | ", 1),
        "field missing": position.replace(" " + field, "", 1),
        "field junk": position.replace(field, key + "=x", 1),
        "field huge": position.replace(field, key + "=" + "9" * 40, 1),
        "field Arabic digit": position.replace(field, key + "=\u0661", 1),
        "Cyrillic suit": position.replace("S", "\u0405", 1),
    }


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_malformed_positions_are_refused_saying_what_is_wrong(
    name: str, options: dict[str, Any]
) -> None:
    """embedding.rst: "a bad position raises OptionError saying what is wrong"."""
    game = _midgame(name, options, steps=5)
    position = game.position()
    cardcore.new_game(name, 2, options=options, position=position, seed=1)  # the real one loads
    for label, text in _position_variants(name, position).items():
        assert text != position, label
        with pytest.raises(OptionError) as info:
            cardcore.new_game(name, 2, options=options, position=text, seed=1)
        assert "position" in str(info.value), (label, str(info.value))
    for text in [5, b"x", ["a"], {"a": 1}]:
        with pytest.raises(OptionError, match="position"):
            cardcore.new_game(name, 2, options=options, position=text, seed=1)
    with pytest.raises(OptionError, match="position"):
        cardcore.new_game(name, 2, options=options, position=position, deck="AS", seed=1)


@pytest.mark.parametrize("name", ["spit", "speed"])
@pytest.mark.parametrize("version", ["true", "1.0"])
def test_a_position_version_must_be_the_int_1(name: str, version: str) -> None:
    """embedding.rst: "a bad position raises OptionError saying what is wrong"."""
    game = _midgame(name)
    position = game.position()
    assert " v=1 " in position
    with pytest.raises(OptionError, match="version"):
        cardcore.new_game(name, 2, position=position.replace(" v=1 ", f" v={version} ", 1), seed=1)


@pytest.mark.parametrize("name", NAMES)
def test_callers_mutating_what_they_passed_or_got_change_nothing(name: str) -> None:
    """embedding.rst: "Reads are pure: view, legal_actions and history change nothing"; a game owns its inputs."""
    players = ["Ann", "Bob"]
    options = dict(_midgame(name).options)
    deck = ["AS", "KD", "QC"]
    game = cardcore.new_game(name, players, options=options, deck=deck, seed=1)
    _advance(game, 3, seed=1)
    before = _fingerprint(game)
    views = [json.dumps(game.view(seat), sort_keys=True) for seat in (0, 1, None)]
    players[0], deck[0] = "Eve", "JK"
    options.clear()

    def scribble(value: Any) -> None:
        if isinstance(value, dict):
            for item in list(value.values()):
                scribble(item)
            value["evil"] = 1
        elif isinstance(value, list):
            for item in value:
                scribble(item)
            value.append("evil")

    for read in (
        lambda: game.view(0),
        lambda: game.view(None),
        lambda: game.history(0),
        lambda: game.view_schema(),
        lambda: game.record(),
        lambda: game.save(),
    ):
        scribble(read())
    assert _fingerprint(game) == before
    assert [json.dumps(game.view(seat), sort_keys=True) for seat in (0, 1, None)] == views
    record = game.record()
    again = cardcore.replay(record)
    scribble(record)
    assert _fingerprint(again) == before


# --------------------------------------------------------------------------- network messages


def _playing_session(name: str) -> Any:
    from cardcore.session import Session

    session = Session.create(name, ["Ann", "Bob"], now=0.0, seed=7)
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    assert session.phase == "playing"
    return session


def _codes(out: list[Any]) -> list[str]:
    return [o.message.get("code") for o in out if o.message.get("type") == "error"]


@pytest.mark.parametrize("name", NAMES)
def test_hostile_network_messages_become_error_messages(name: str) -> None:
    """session.rst: "no exception ever escapes these calls: a bad message becomes an error message to its sender, and nothing changes"."""
    session = _playing_session(name)
    version = session.game.version
    for i, message in enumerate(
        [
            None,
            5,
            "",
            "{",
            "[]",
            b"\xff",
            "[" * 100_000,
            {"type": None},
            {"type": "act"},
            {"type": "act", "action": None},
            {"type": "act", "action": "zzz", "seen": "x"},
            {"type": "act", "action": "zzz", "seen": 10**100},
            {"type": "join", "seat": True},
            {"type": "join", "seat": 10**100},
            {"type": "join", "seat": 0, "token": 5},
            {1: 2},
            '{"type": "act", "action": "zzz", "seen": NaN}',
        ]
    ):
        codes = _codes(session.handle("ann", message, now=3.0 + i))
        assert codes and "internal" not in codes, (message, codes)
    assert session.game.version == version


def test_session_handle_never_raises_for_an_odd_connection_id() -> None:
    """session.rst: "no exception ever escapes these calls"; Session.handle: "Never raises"."""
    session = _playing_session("golf")
    session.handle(["conn"], '{"type": "ping"}', now=3.0)


def test_a_message_mapping_whose_lookups_raise_is_a_bad_message() -> None:
    """session.rst error codes: ``bad-json``, ``bad-message`` for malformed messages; ``internal`` is a bug."""

    class Hostile(dict):  # type: ignore[type-arg]
        def get(self, *args: Any) -> Any:
            raise RuntimeError("get")

        def __getitem__(self, key: Any) -> Any:
            raise RuntimeError("getitem")

        def __iter__(self) -> Iterator[Any]:
            raise RuntimeError("iter")

    session = _playing_session("golf")
    assert _codes(session.handle("ann", Hostile(type="act"), now=3.0)) == ["bad-message"]


# --------------------------------------------------------------------------- other entry points


def test_lookups_of_unknown_names_are_cardcore_errors() -> None:
    """api.rst: UnknownPluginError, "A game, house rule or agent name that is not installed"."""
    for value in [None, 5, "", "nope", "GOLF", " golf", "golf\x00", b"golf", "g" * 10_000]:
        for call in (
            cardcore.game_info,
            cardcore.available_rules,
            lambda v: cardcore.new_game(v, 2, seed=1),
        ):
            error = _raises_cardcore(lambda call=call, value=value: call(value))
            assert isinstance(error, UnknownPluginError)
    for value in [None, 5, "", "nope", b"golf.jokers"]:
        assert isinstance(
            _raises_cardcore(lambda value=value: cardcore.rule_info(value)), UnknownPluginError
        )


def test_a_stale_real_time_action_is_refused_and_changes_nothing() -> None:
    """embedding.rst: "an action that was legal at seen but is not legal now raises StaleActionError"."""
    deck = (
        "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
        "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
    )
    spit = cardcore.new_game("spit", ["Ann", "Bob"], deck=deck, seed=2)
    spit.act(0, "ready")
    spit.act(1, "ready")
    seen = spit.version
    spit.act(0, "play 1 L", at=1.2, seen=seen)
    _refused(
        spit, lambda: spit.act(1, "play 3 L", at=1.25, seen=seen), StaleActionError, "CORE-RT-1"
    )
