"""An adversarial read of docs/security.rst (2026-12-07, b): every testable claim of
"What a client can do", "Saves and records", "Resource limits", "Hidden information" and
"What plugin and agent code can reach", tried as a hostile client and a faulty plugin
would, in Golf, Tonk, Spit and Speed.

Expected values come from the page (and the api.rst entries it links to), never from
running the code: a claim that holds is a plain test, a claim that does not is a strict
xfail naming what is wrong.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import random
import types
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import cardcore
from cardcore import (
    CardcoreError,
    CorruptStateError,
    Event,
    IllegalActionError,
    NotationError,
    OptionError,
    RuleInfo,
    SeatError,
    StaleActionError,
)
from cardcore.game import MAX_NOTATION, MAX_TIME
from cardcore.records import MAX_BYTES, MAX_DEPTH, MAX_INT_BITS

GAMES = ("golf", "tonk", "spit", "speed")
HUGE = 10**5000  # too large for Python to print (over 4,300 digits)
KEY = b"server-secret"


class NumpyLikeInt(int):
    """An int subclass, as numpy's integers are to the core (a value of a foreign type)."""


# -- helpers ---------------------------------------------------------------------------------


def _snapshot(game: cardcore.Game) -> tuple[str, int, str]:
    return (
        json.dumps(game.save(), sort_keys=True),
        game.version,
        json.dumps(game.record(), sort_keys=True),
    )


def _midgame(name: str, steps: int = 8, seed: int = 7) -> cardcore.Game:
    """A game *steps* random legal actions in (seeded), still running."""
    for s in range(seed, seed + 100):
        game = cardcore.new_game(name, 2, seed=s)
        rng = random.Random(s)
        while game.version < steps:
            seats = [t for t in game.to_act if game.legal_actions(t)]
            if game.is_over or not seats:
                break
            game.apply(rng.choice(game.legal_actions(rng.choice(seats))))
        if game.version == steps and not game.is_over and game.to_act:
            return game
    raise AssertionError("no running game found")


class Watched:
    """A game with a host, a seat-0 and a spectator subscription, and its snapshot."""

    def __init__(self, game: cardcore.Game) -> None:
        self.game = game
        self.events: list[Event] = []
        self.subs = [
            game.events.subscribe(Event, self.events.append),
            game.events.subscribe(Event, self.events.append, seat=0),
            game.events.subscribe(Event, self.events.append, seat=cardcore.SPECTATOR),
        ]
        self.before = _snapshot(game)

    def close(self) -> None:
        for sub in self.subs:
            self.game.events.unsubscribe(sub)

    def refused(self, call: Callable[[], object], expected: type[BaseException]) -> CardcoreError:
        """*call* must raise *expected* (a CardcoreError) and change nothing, delivering no event."""
        with pytest.raises(expected) as info:
            call()
        err = info.value
        assert isinstance(err, CardcoreError)
        assert _snapshot(self.game) == self.before, f"changed although refused: {err}"
        assert self.events == [], f"events delivered although refused: {err}"
        message = str(err)
        assert len(message) < 600, f"message not cut short ({len(message)} characters)"
        return err


@pytest.fixture(params=GAMES)
def watched(request: pytest.FixtureRequest) -> Iterator[Watched]:
    w = Watched(_midgame(request.param))
    try:
        yield w
    finally:
        w.close()


def _a_legal(game: cardcore.Game) -> tuple[int, cardcore.Action]:
    for seat in game.to_act:
        legal = game.legal_actions(seat)
        if legal:
            return seat, legal[0]
    raise AssertionError("nobody can act")


# -- What a client can do ---------------------------------------------------------------------

BAD_SEATS = [
    True,
    False,
    10**16,
    HUGE,
    -HUGE,
    -1,
    -2,
    2,
    2**64,
    1.0,
    0.0,
    float("nan"),
    float("inf"),
    "0",
    "1",
    b"0",
    [0],
    (0,),
    cardcore.HOST,
]


def test_bad_seats_refused_in_every_seat_taking_method(watched: Watched) -> None:
    game = watched.game
    _, action = _a_legal(game)
    text = str(action)
    for bad in BAD_SEATS:
        watched.refused(lambda bad=bad: game.act(bad, text), SeatError)
        watched.refused(lambda bad=bad: game.legal_actions(bad), SeatError)
        watched.refused(lambda bad=bad: game.determinize(bad, 1), SeatError)
        if not (isinstance(bad, str) and bad == cardcore.SPECTATOR):
            watched.refused(lambda bad=bad: game.view(bad), SeatError)
            watched.refused(lambda bad=bad: game.history(bad), SeatError)
            watched.refused(
                lambda bad=bad: game.events.subscribe(Event, print, seat=bad), SeatError
            )


def test_numpy_like_int_seat_never_a_raw_error(watched: Watched) -> None:
    """An int subclass is either taken as the seat it equals or refused as SeatError."""
    game = watched.game
    seat, action = _a_legal(game)
    for call in (
        lambda: game.legal_actions(NumpyLikeInt(seat)),
        lambda: game.view(NumpyLikeInt(seat)),
        lambda: game.history(NumpyLikeInt(seat)),
    ):
        with contextlib.suppress(SeatError):
            call()
        assert _snapshot(game) == watched.before and watched.events == []
    with contextlib.suppress(SeatError):
        game.clone().act(NumpyLikeInt(seat), str(action))


def test_huge_int_seat_shown_by_its_size(watched: Watched) -> None:
    game = watched.game
    bits = HUGE.bit_length()
    for call in (
        lambda: game.act(HUGE, "draw"),
        lambda: game.view(HUGE),
        lambda: game.legal_actions(-HUGE),
        lambda: game.history(HUGE),
        lambda: game.events.subscribe(Event, print, seat=HUGE),
        lambda: game.determinize(HUGE, 1),
    ):
        err = watched.refused(call, SeatError)
        assert str(bits) in str(err), str(err)


BAD_TEXTS = [
    "\x00",
    "flip \x00",
    "draw\x00",
    "resign\x00",
    "flip ²",  # a superscript two
    "flip ٣",  # an Arabic-Indic three
    "play ３",  # a fullwidth three
    "\ud800",
    "draw\udfff",
    "x" * (MAX_NOTATION + 1),
    "",
    "   ",
]


def test_hostile_text_is_a_notation_error(watched: Watched) -> None:
    game = watched.game
    seat, _ = _a_legal(game)
    for text in BAD_TEXTS:
        err = watched.refused(lambda text=text: game.act(seat, text), NotationError)
        assert "x" * 100 not in str(err)


def test_legal_text_padded_past_max_notation_is_refused(watched: Watched) -> None:
    """At most MAX_NOTATION characters are read: a legal action followed by padding past it
    is no action."""
    game = watched.game
    seat, action = _a_legal(game)
    text = str(action)
    padded = text + " " * (MAX_NOTATION + 1 - len(text))
    assert len(padded) == MAX_NOTATION + 1
    watched.refused(lambda: game.act(seat, padded), NotationError)


def test_text_of_other_types_is_a_notation_error(watched: Watched) -> None:
    game = watched.game
    seat, action = _a_legal(game)
    for text in (None, 5, b"draw", ["draw"], action):
        watched.refused(lambda text=text: game.act(seat, text), NotationError)


BAD_SEENS = [
    True,
    False,
    float("nan"),
    float("inf"),
    -float("inf"),
    10**16,
    HUGE,
    -HUGE,
    -1,
    1.0,
    "0",
    [0],
]


def test_hostile_seen_is_an_illegal_action_error(watched: Watched) -> None:
    game = watched.game
    seat, action = _a_legal(game)
    text = str(action)
    for seen in BAD_SEENS:
        for call in (
            lambda seen=seen: game.act(seat, text, seen=seen),
            lambda seen=seen: game.apply(action, seen=seen),
        ):
            err = watched.refused(call, IllegalActionError)
            assert not isinstance(err, StaleActionError)
            assert err.rule_id == "CORE-RT-3"
    watched.refused(lambda: game.act(seat, text, seen=HUGE), IllegalActionError)
    err = watched.refused(lambda: game.apply(action, seen=-HUGE), IllegalActionError)
    assert str(HUGE.bit_length()) in str(err)


BAD_ATS = [
    True,
    False,
    float("nan"),
    float("inf"),
    -float("inf"),
    10**16,
    HUGE,
    -HUGE,
    MAX_TIME * 2,
    "1",
    b"1",
    complex(1, 0),
    [1],
]


def test_hostile_at_is_an_illegal_action_error(watched: Watched) -> None:
    game = watched.game
    seat, action = _a_legal(game)
    text = str(action)
    for at in BAD_ATS:
        for call in (
            lambda at=at: game.act(seat, text, at=at),
            lambda at=at: game.apply(action, at=at),
        ):
            err = watched.refused(call, IllegalActionError)
            assert err.rule_id == "CORE-RECORD-1"
    err = watched.refused(lambda: game.act(seat, text, at=HUGE), IllegalActionError)
    assert str(HUGE.bit_length()) in str(err)


def test_at_within_max_time_accepted(watched: Watched) -> None:
    """MAX_TIME itself is a time a game may record (the limit is "at most")."""
    game = watched.game.clone()
    _, action = _a_legal(game)
    game.apply(action, at=MAX_TIME)
    assert game.record()["actions"][-1][2] == MAX_TIME


def test_not_an_action_given_to_apply(watched: Watched) -> None:
    game = watched.game
    seat, action = _a_legal(game)
    for thing in (str(action), None, 0, True, {"seat": seat}):
        watched.refused(lambda thing=thing: game.apply(thing), IllegalActionError)


def test_history_since_and_determinize_seed_of_odd_types(watched: Watched) -> None:
    game = watched.game
    for since in (True, -1, 1.0, float("nan"), "0", -HUGE):
        watched.refused(lambda since=since: game.history(0, since), IllegalActionError)
    for seed in (True, -1, 2**128, 1.0, "1", HUGE, float("nan")):
        watched.refused(lambda seed=seed: game.determinize(0, seed), OptionError)


def test_subscribe_seat_refused_at_subscription_not_delivery() -> None:
    game = cardcore.new_game("tonk", 2, seed=3)
    for bad in (cardcore.HOST, 5, "1", True):
        with pytest.raises(SeatError):
            game.events.subscribe(Event, print, seat=bad)
    assert game.events.active is False  # nothing was kept


def test_realtime_stale_action_is_a_stale_error_and_changes_nothing() -> None:
    """Two plays onto the same spit pile: the second, legal at its ``seen``, is stale."""
    for seed in range(40):
        game = cardcore.new_game("spit", 2, seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            if game.is_over:
                break
            seen = game.version
            pairs = [(a, b) for a in game.legal_actions(0) for b in game.legal_actions(1)]
            for a, b in pairs:
                trial = game.clone()
                trial.apply(a, seen=seen)
                if b not in trial.legal_actions(1) and not trial.is_over:
                    w = Watched(trial)
                    try:
                        err = w.refused(
                            lambda b=b, t=trial, v=seen: t.apply(b, seen=v), StaleActionError
                        )
                        assert err.rule_id is not None
                    finally:
                        w.close()
                    return
            seat = rng.choice([s for s in game.to_act if game.legal_actions(s)])
            game.apply(rng.choice(game.legal_actions(seat)))
    pytest.fail("no race found")


# -- Saves and records ------------------------------------------------------------------------


def _finished_tonk() -> cardcore.Game:
    for seed in range(50):
        game = cardcore.new_game("tonk", 2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.version < 400:
            seat = game.to_act[0]
            game.apply(rng.choice(game.legal_actions(seat)))
        if game.is_over and game.result is not None and game.result.winners:
            return game
    raise AssertionError("no finished Tonk game")


def _set(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    for p in path[:-1]:
        data = data[p]
    data[path[-1]] = value


def _refused_load(data: Any, **kw: Any) -> CorruptStateError:
    with pytest.raises(CorruptStateError) as info:
        cardcore.load(data, **kw)
    return info.value


@pytest.mark.parametrize("name", GAMES)
def test_save_edited_in_one_place_is_refused(name: str) -> None:
    game = _midgame(name, steps=10)
    save = game.save()
    cardcore.load(save)  # the unedited save loads
    players = save["config"]["players"]
    edits: list[tuple[tuple[Any, ...], Any]] = [
        (("config", "players"), players[::-1]),
        (("record", "players"), players[::-1]),
        (("record", "truncated"), True),
        (("record", "result"), {"winners": [0], "scores": [0, 0], "payouts": None, "reason": "x"}),
        (("state", "is_over"), True),
        (("version",), save["version"] + 1),
        (("record", "seed"), save["record"]["seed"] + 1),
    ]
    rule = cardcore.available_rules(name)[0]
    edits += [
        (("config", "rules"), [*save["config"]["rules"], rule]),
        (("record", "rules"), [*save["record"]["rules"], rule]),
    ]
    for opt, value in save["config"]["options"].items():
        if isinstance(value, int) and not isinstance(value, bool):
            edits += [
                (("config", "options", opt), value + 1),
                (("record", "options", opt), value + 1),
            ]
        elif value is None:
            edits += [(("config", "options", opt), 1), (("record", "options", opt), 1)]
    # a card changed: two cards of one pile swapped (every card still accounted for)
    zones = save["state"]["zones"]
    for zone, pile in zones.items():
        cards = pile["cards"]
        if len(cards) >= 2 and cards[0] != cards[-1]:
            edits.append((("state", "zones", zone, "cards"), [cards[-1], *cards[1:-1], cards[0]]))
            break
    # a card replaced by another (one card twice, one missing)
    for zone, pile in zones.items():
        cards = pile["cards"]
        if len(cards) >= 2 and cards[0] != cards[1]:
            edits.append((("state", "zones", zone, "cards"), [cards[1], *cards[1:]]))
            break
    for path, value in edits:
        edited = copy.deepcopy(save)
        _set(edited, path, value)
        assert edited != save
        _refused_load(edited)


def test_finished_game_result_edited_is_refused() -> None:
    game = _finished_tonk()
    save = game.save()
    result = save["record"]["result"]
    loser = next(s for s in range(2) if s not in result["winners"])
    for path, value in [
        (("record", "result", "winners"), [loser]),
        (("record", "result", "reason"), result["reason"] + "x"),
        (("record", "result"), None),
        (("record", "truncated"), True),
    ]:
        edited = copy.deepcopy(save)
        _set(edited, path, value)
        _refused_load(edited)
        with pytest.raises(CorruptStateError):
            cardcore.replay(edited["record"])


def test_truncated_game_saves_and_replays_and_the_flag_is_checked() -> None:
    game = _midgame("golf", steps=6)
    game.truncate()
    assert game.result is not None and game.result.reason == "truncated"
    save = game.save()
    assert cardcore.load(save).result == game.result
    assert cardcore.replay(game.record()).result == game.result
    edited = copy.deepcopy(save)
    edited["record"]["truncated"] = False
    _refused_load(edited)


@pytest.mark.parametrize("name", GAMES)
def test_signed_save_and_record(name: str) -> None:
    game = _midgame(name, steps=6)
    save = game.save(key=KEY)
    record = game.record(key=KEY)
    assert cardcore.load(save, key=KEY).version == game.version
    assert cardcore.replay(record, key=KEY).version == game.version
    text = json.dumps(save)
    # indentation and key order may change
    assert (
        cardcore.load(json.dumps(save, indent=3, sort_keys=True), key=KEY).version == game.version
    )
    # without key= a signature is ignored
    assert cardcore.load(save).version == game.version
    # unsigned, or another key
    _refused_load(game.save(), key=KEY)
    _refused_load(save, key=b"another key")
    with pytest.raises(CorruptStateError):
        cardcore.replay(game.record(), key=KEY)
    # a changed byte of the content: every digit in turn (each still a valid JSON text)
    start = text.index('"record"')
    changed = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch.isdigit():
            alt = text[:i] + str((int(ch) + 1) % 10) + text[i + 1 :]
            try:
                json.loads(alt)
            except ValueError:
                continue
            _refused_load(alt, key=KEY)
            changed += 1
    assert changed > 10
    # an at changed in a signed record (times are the one thing unsigned loads accept)
    edited = copy.deepcopy(record)
    edited["actions"][0][2] = 5.0
    with pytest.raises(CorruptStateError):
        cardcore.replay(edited, key=KEY)


def test_one_point_zero_for_one_breaks_a_signature() -> None:
    game = _midgame("golf", steps=4)
    text = json.dumps(game.save(key=KEY))
    assert '"layout": 6,' in text
    _refused_load(text.replace('"layout": 6,', '"layout": 6.0,'), key=KEY)


@pytest.mark.parametrize("key", [KEY, None])
def test_duplicate_json_key_is_refused_signed_or_not(key: bytes | None) -> None:
    game = _midgame("golf", steps=4)
    text = json.dumps(game.save(key=KEY))
    seed = game.record()["seed"]
    needle = f'"seed": {seed},'
    assert text.count(needle) == 1
    for twice in (f'"seed": {seed}, "seed": {seed},', f'"seed": {seed + 1}, "seed": {seed},'):
        _refused_load(text.replace(needle, twice), key=key)
    rec = json.dumps(game.record())
    with pytest.raises(CorruptStateError):
        cardcore.replay(rec.replace(needle, f'"seed": {seed}, "seed": {seed},'))


# -- Resource limits --------------------------------------------------------------------------


def test_seed_limits() -> None:
    for seed in (0, 2**128 - 1):
        cardcore.new_game("golf", 2, seed=seed)
    for seed in (-1, 2**128, HUGE, True, 1.0, "1", float("nan")):
        with pytest.raises(OptionError):
            cardcore.new_game("golf", 2, seed=seed)


def test_player_limits() -> None:
    cardcore.new_game("golf", 64, seed=1)
    cardcore.new_game("golf", ["a" * 100, "\U0001f600" * 100], seed=1)
    for players in (
        0,
        65,
        -1,
        HUGE,
        True,
        2.0,
        ["a" * 101, "b"],
        ["", "b"],
        ["\ud800", "b"],
        ["a\udfffb", "c"],
        ["\U0001f600" * 101, "b"],
        ["a"] * 65,
        [1, "b"],
    ):
        with pytest.raises(OptionError):
            cardcore.new_game("golf", players, seed=1)


def test_record_over_max_bytes_refused_before_parsing() -> None:
    """Text past MAX_BYTES is refused for its size, not read as JSON (it is no JSON at all)."""
    junk = "{" * (MAX_BYTES + 1)
    err = _refused_load(junk)
    assert str(MAX_BYTES) in str(err) or f"{MAX_BYTES:,}" in str(err)
    with pytest.raises(CorruptStateError):
        cardcore.replay(junk)


def test_dict_over_max_bytes_refused() -> None:
    game = _midgame("golf", steps=2)
    save = game.save()
    save["record"]["padding"] = "x" * MAX_BYTES
    err = _refused_load(save)
    assert "large" in str(err)


def test_depth_int_bits_nan_inf_limits() -> None:
    game = _midgame("golf", steps=2)
    base = game.record()
    cardcore.replay(base)
    deep: Any = 0
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    for path, value in [
        (("options", "rounds"), deep),
        (("seed",), 2**MAX_INT_BITS),
        (("seed",), -(2**MAX_INT_BITS)),
        (("actions", 0, 2), float("nan")),
        (("actions", 0, 2), float("inf")),
        (("options", "rounds"), HUGE),
    ]:
        edited = copy.deepcopy(base)
        _set(edited, path, value)
        with pytest.raises(CorruptStateError):
            cardcore.replay(edited)
    # in JSON text too, nested far past the limit (no RecursionError)
    text = json.dumps(base).replace('"deck": null', '"deck": ' + "[" * 100_000 + "]" * 100_000)
    with pytest.raises(CorruptStateError):
        cardcore.replay(text)
    with pytest.raises(CorruptStateError):
        cardcore.replay(json.dumps(base).replace('"deck": null', '"deck": NaN'))


def _tonk_record_with(actions: list[list[Any]]) -> dict[str, Any]:
    rec = cardcore.new_game("tonk", 2, seed=5).record()
    rec["actions"] = actions
    return rec


def test_record_far_over_the_bound_refused_before_anything_else() -> None:
    game = cardcore.new_game("tonk", 2, seed=5)
    bound = game.logic.action_bound(2, game.options)
    # many more actions than the bound, with a NaN and a huge int further on: the count
    # is checked first, so the message names the bound, not the NaN
    actions: list[list[Any]] = [[0, "zzz", None] for _ in range(max(5000, 2 * bound))]
    actions[-1][2] = float("nan")
    rec = _tonk_record_with(actions)
    rec["padding"] = 2**400
    with pytest.raises(CorruptStateError, match="bound"):
        cardcore.replay(rec)


def test_record_over_the_bound_and_its_slack_refused_before_replay() -> None:
    """security.rst: at most the bound's actions, two over it (a game whose scores failed
    as it reached the bound stays open and ends at a later action), checked first."""
    game = cardcore.new_game("tonk", 2, seed=5)
    bound = game.logic.action_bound(2, game.options)
    rec = _tonk_record_with([[0, "zzz", None] for _ in range(bound + 3)])
    with pytest.raises(CorruptStateError, match=f"more than the game's bound {bound}"):
        cardcore.replay(rec)
    within = _tonk_record_with([[0, "zzz", None] for _ in range(bound + 2)])
    with pytest.raises(CorruptStateError) as caught:  # read: its first action is no action
        cardcore.replay(within)
    assert "bound" not in str(caught.value)


def test_realtime_times_non_decreasing() -> None:
    game = cardcore.new_game("speed", 2, seed=3)
    _, action = _a_legal(game)
    game.apply(action, at=100.0)
    w = Watched(game)
    try:
        _, action = _a_legal(game)
        err = w.refused(lambda: game.apply(action, at=99.5), IllegalActionError)
        assert err.rule_id == "CORE-RECORD-1"
    finally:
        w.close()
    game.apply(action, at=100.0)  # equal is non-decreasing


# -- Hidden information -----------------------------------------------------------------------


def _twins(name: str, viewers: tuple[Any, ...]) -> tuple[cardcore.Game, cardcore.Game]:
    """Two games that differ only in where two cards lie that none of *viewers* may see
    (two seats and the spectator: cards nobody has seen; seat 0 and the spectator: also
    seat 1's own cards, which are preferred)."""
    probe = cardcore.new_game(name, 2, seed=11)
    deck = [str(c) for c in probe.logic.deck(2, probe.options)]
    base = cardcore.new_game(name, 2, deck=deck, seed=11)
    zones = base.save()["state"]["zones"]
    hidden = [
        (zone, i, card)
        for zone, pile in zones.items()
        for i, (card, mask) in enumerate(zip(pile["cards"], pile["seen"], strict=True))
        if mask in (0, 2)  # seen by nobody, or by seat 1 alone
    ]
    views = [json.dumps(base.view(s), sort_keys=True) for s in viewers]

    def preference(pair: tuple[tuple[str, int, str], ...]) -> tuple[Any, ...]:
        (z1, i1, _), (z2, i2, _) = pair
        return (not (z1.endswith(".1") or z2.endswith(".1")), z1 == z2, i1 + i2)

    for (_, _, c1), (_, _, c2) in sorted(itertools.combinations(hidden, 2), key=preference):
        if c1 == c2:
            continue
        other = list(deck)
        a, b = other.index(c1), other.index(c2)
        other[a], other[b] = other[b], other[a]
        twin = cardcore.new_game(name, 2, deck=other, seed=11)
        if [json.dumps(twin.view(s), sort_keys=True) for s in viewers] == views:
            assert twin.save() != base.save()
            return base, twin
    raise AssertionError("no twin found")


def _texts(game: cardcore.Game) -> list[str]:
    """Action texts to try: the legal ones of both seats, with every number and card varied."""
    out: set[str] = {"draw", "take", "knock", "drop", "stuck", "spit", "resign", "hit", "x"}
    ranks = ["A", "2", "5", "10", "J", "K"]
    cards = [r + s for r in ranks for s in "CDHS"]
    for seat in (0, 1):
        for action in game.legal_actions(seat):
            words = str(action).split()
            out.add(" ".join(words))
            for k, w in enumerate(words):
                if w.isdigit():
                    for n in range(0, 12):
                        out.add(" ".join([*words[:k], str(n), *words[k + 1 :]]))
                else:
                    try:
                        cardcore.Card.parse(w)
                    except CardcoreError:
                        continue
                    for c in cards:
                        out.add(" ".join([*words[:k], c, *words[k + 1 :]]))
    return sorted(out)


def _ends(game: cardcore.Game, action: cardcore.Action) -> bool:
    trial = game.clone()
    trial.apply(action)
    return trial.is_over


def _answer(game: cardcore.Game, seat: int, text: str) -> tuple[Any, ...]:
    trial = game.clone()
    try:
        trial.act(seat, text)
    except CardcoreError as err:
        return (type(err), err.rule_id, str(err))
    return ("accepted",)


@pytest.mark.parametrize("seats", [(0, 1), (0,)], ids=["hidden-from-both", "hidden-from-0"])
@pytest.mark.parametrize("name", GAMES)
def test_refusals_and_seat_streams_same_wherever_hidden_cards_lie(
    name: str, seats: tuple[int, ...]
) -> None:
    one, two = _twins(name, (*seats, None))
    streams: list[dict[Any, list[str]]] = []
    subs = []
    for g in (one, two):
        got: dict[Any, list[str]] = {s: [] for s in (*seats, cardcore.SPECTATOR)}
        streams.append(got)
        for seat in got:
            subs.append(
                (
                    g,
                    g.events.subscribe(
                        Event, lambda e, s=seat, got=got: got[s].append(repr(e)), seat=seat
                    ),
                )
            )
    try:
        rng = random.Random(3)
        compared = 0
        for _ in range(8):
            for seat in seats:
                for text in sorted(set(_texts(one)) | set(_texts(two))):
                    assert _answer(one, seat, text) == _answer(two, seat, text), (seat, text)
                    compared += 1
            if one.is_over:
                break
            movers = [
                (s, str(a))
                for s in one.to_act
                for a in one.legal_actions(s)
                if s in two.to_act and a in two.legal_actions(s) and not _ends(one, a)
            ]
            if not movers:
                break
            seat, text = rng.choice(movers)
            one.act(seat, text)
            two.act(seat, text)
            viewers = (*seats, None)
            if [json.dumps(one.view(s), sort_keys=True) for s in viewers] != [
                json.dumps(two.view(s), sort_keys=True) for s in viewers
            ]:
                break  # a hidden card came to light: the twins are no longer twins
            assert streams[0] == streams[1]
        assert compared > 20
        assert streams[0][0], "seat 0 heard nothing"
    finally:
        for g, sub in subs:
            g.events.unsubscribe(sub)


# -- What plugin and agent code can reach -----------------------------------------------------

SECRET_SEED = 2**100 + 424_242  # no other value of a game is equal to it


def _reachable(roots: list[Any], limit: int = 200_000) -> Iterator[Any]:
    """Every object reachable from *roots* through instance attributes and container items
    (not through classes, functions or modules: that is walking the interpreter)."""
    seen: set[int] = set()
    stack = list(roots)
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        yield obj
        if isinstance(
            obj, type | types.FunctionType | types.ModuleType | types.BuiltinFunctionType
        ):
            continue
        if isinstance(obj, str | bytes | int | float | bool | type(None)):
            continue
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
            continue
        if isinstance(obj, list | tuple | set | frozenset):
            stack.extend(obj)
            continue
        if isinstance(obj, types.MethodType):
            stack.append(obj.__self__)
            continue
        for klass in type(obj).__mro__:
            for slot in getattr(klass, "__slots__", ()):
                if isinstance(slot, str) and hasattr(obj, slot):
                    stack.append(getattr(obj, slot))
        if hasattr(obj, "__dict__"):
            stack.extend(vars(obj).values())
        if isinstance(obj, types.MappingProxyType):
            stack.extend(obj.values())


def _leaks(roots: list[Any], game: cardcore.Game) -> list[str]:
    record = game._record if hasattr(game, "_record") else None
    found = []
    for obj in _reachable(roots):
        if isinstance(obj, cardcore.Game):
            found.append("a Game")
        elif record is not None and obj is record:
            found.append("the record")
        elif type(obj) is int and obj == SECRET_SEED:
            found.append("the seed")
    return found


class _Spy:
    def __init__(self) -> None:
        self.seen: list[Any] = []

    def choose(self, view: Any, legal: Any) -> Any:
        self.seen.append(view)
        self.seen.append(legal)
        dict(view)  # read while deciding
        return legal[0]


def test_lazy_view_and_legal_actions_lead_to_no_game_or_seed() -> None:
    game = cardcore.new_game("golf", 2, seed=SECRET_SEED, options={"rounds": 1})
    spies = [_Spy(), _Spy()]
    cardcore.play(game, spies, max_actions=30)
    roots = [x for spy in spies for x in spy.seen]
    assert roots
    assert any(isinstance(x, cardcore.LazyView) for x in roots)
    assert _leaks(roots, game) == []


def test_walker_finds_the_seed_when_it_is_there() -> None:
    """The walk above can fail: from the game itself it finds the game and the seed."""
    game = cardcore.new_game("golf", 2, seed=SECRET_SEED)
    assert set(_leaks([game], game)) >= {"a Game", "the seed"}


@pytest.fixture
def spy_rule() -> Iterator[tuple[str, list[tuple[str, tuple[Any, ...]]]]]:
    calls: list[tuple[str, tuple[Any, ...]]] = []
    name = "golf.audit-spy-20261207b"
    module = types.ModuleType("audit_spy_20261207b")
    module.RULE = RuleInfo(
        id="TEST-AUDITSPY-1", name=name, game="golf", summary="records its hook arguments"
    )  # type: ignore[attr-defined]

    @cardcore.hookimpl
    def forbid_action(state: Any, action: Any) -> None:
        calls.append(("forbid_action", (state, action, getattr(state, "seed", None))))

    @cardcore.hookimpl
    def score_round(state: Any, scores: Any) -> None:
        calls.append(("score_round", (state, scores, getattr(state, "seed", None))))

    @cardcore.hookimpl
    def on_event(event: Any) -> None:
        calls.append(("on_event", (event,)))

    @cardcore.hookimpl
    def determinize(state: Any, seat: Any, rng: Any) -> None:
        calls.append(("determinize", (state, seat, rng, getattr(state, "seed", None))))

    module.determinize = determinize  # type: ignore[attr-defined]
    module.forbid_action = forbid_action  # type: ignore[attr-defined]
    module.score_round = score_round  # type: ignore[attr-defined]
    module.on_event = on_event  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", name, module)
    try:
        yield name, calls
    finally:
        cardcore.unregister("cardcore.rules", name)


def _play_with(rule: str) -> cardcore.Game:
    game = cardcore.new_game("golf", 2, rules=[rule], seed=SECRET_SEED, options={"rounds": 1})
    rng = random.Random(1)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(rng.choice(game.legal_actions(seat)))
    return game


def test_hooks_receive_no_game_and_no_record(spy_rule: tuple[str, list[Any]]) -> None:
    name, calls = spy_rule
    game = _play_with(name)
    hooks = {h for h, _ in calls}
    assert {"forbid_action", "score_round", "on_event"} <= hooks
    found = _leaks([args for _, args in calls], game)
    assert "a Game" not in found and "the record" not in found


def test_the_state_a_hook_receives_holds_the_seed_as_documented(
    spy_rule: tuple[str, list[Any]],
) -> None:
    """security.rst: the state a hook is given holds the seed (the game's chance is drawn
    from it); house rules are trusted code. (It said "never its seed" before.)"""
    name, calls = spy_rule
    _play_with(name)
    seeds = [args[-1] for h, args in calls if h in ("forbid_action", "score_round")]
    assert seeds and set(seeds) == {SECRET_SEED}


def test_determinize_hook_receives_no_seed(spy_rule: tuple[str, list[Any]]) -> None:
    name, calls = spy_rule
    game = cardcore.new_game("golf", 2, rules=[name], seed=SECRET_SEED)
    game.determinize(0, seed=5)
    seeds = [args[-1] for h, args in calls if h == "determinize"]
    assert seeds  # the state's seed as the hook saw it, when it was called
    assert SECRET_SEED not in seeds


def test_determinized_clone_has_its_own_seed_and_future() -> None:
    game = cardcore.new_game("golf", 2, seed=SECRET_SEED, options={"rounds": 2})
    rng = random.Random(2)
    # play round 1 up to the action that ends it (the next one deals round 2)
    while True:
        action = rng.choice(game.legal_actions(game.to_act[0]))
        trial = game.clone()
        trial.apply(action)
        if trial.state.round != 1:
            break
        game.apply(action)
    world = game.determinize(game.to_act[0], seed=99)
    again = game.determinize(game.to_act[0], seed=99)
    assert world.seed != game.seed
    assert world.seed != 99
    assert _leaks([world.state], game) == []
    assert json.dumps(world.state.snapshot(), sort_keys=True) == json.dumps(
        again.state.snapshot(), sort_keys=True
    )
    # play both on to the next round's deal: the redeal differs from the real one
    real = game.clone()
    real.apply(action)
    world.act(action.seat, str(action))
    assert real.state.round == world.state.round == 2
    assert real.state.zones.cards != world.state.zones.cards


def test_deck_without_seed_draws_a_fresh_seed() -> None:
    deck = [str(c) for c in cardcore.new_game("golf", 2, seed=1).logic.deck(2, {"layout": 6})]
    seeds = {cardcore.new_game("golf", 2, deck=deck).record()["seed"] for _ in range(4)}
    assert len(seeds) == 4
    assert all(type(s) is int and 0 <= s < 2**128 for s in seeds)
