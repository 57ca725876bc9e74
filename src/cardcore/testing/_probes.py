"""The costly probes the kit runs at sampled points of a game.

Each takes the game under test and the :class:`Report` to fill: a
determinized twin, hostile inputs, a clone, save/load and record/replay, and
a position written and read back.
"""

from __future__ import annotations

import functools
import json
import random
import types
from collections.abc import Callable, Mapping, MutableMapping, MutableSequence, MutableSet
from typing import Any

from cardcore._text import shown
from cardcore.actions import Action, EndMatch, Resign
from cardcore.errors import CardcoreError
from cardcore.events import Event
from cardcore.game import Game
from cardcore.records import load, replay
from cardcore.setup import new_game
from cardcore.state import _all_slots
from cardcore.testing._faults import check_tampered
from cardcore.testing._inputs import bad_inputs
from cardcore.testing._report import Abort, Report
from cardcore.testing._sampled import _view_differs as _view_differs
from cardcore.testing._sampled import check_sampled
from cardcore.testing._twins import check_world
from cardcore.testing._util import (
    Fingerprint,
    card_tokens,
    conservation_problem,
    error_names,
    fingerprint,
    game_words,
    known_cards,
    known_multiset,
    message_problem,
)

__all__ = [
    "TAMPER_AT_MOST",
    "check_clone",
    "check_persistence",
    "check_position",
    "check_reads",
    "check_rejections",
    "check_twin",
    "has_positions",
]


def _slots(game: Game) -> dict[str, str]:
    """Every slot of *game*'s state, as comparable text."""
    return {
        name: json.dumps(value, sort_keys=True, default=str)
        for name, value in game.state.snapshot().items()
    }


def _changed(before: dict[str, str], after: dict[str, str]) -> str:
    names = sorted(n for n in before.keys() | after.keys() if before.get(n) != after.get(n))
    return ", ".join(repr(n) for n in names) or "none of its slots (its version or record)"


def check_reads(report: Report, game: Game) -> None:
    """``legal_actions`` and ``view`` must leave the state as it was (tried on a clone).

    Checked before the twins and views, whose failures a changing read would
    otherwise explain wrongly (a view that "depends on hidden cards").
    """
    c = game.clone()
    seats = list(range(len(c.players)))
    calls: list[tuple[str, Callable[[], object]]] = [
        *(
            (f"legal_actions({s})", functools.partial(c.logic.legal_actions, c.state, s))
            for s in seats
        ),
        *((f"view({s})", functools.partial(c.view, s)) for s in [*seats, None]),
    ]
    for label, call in calls:
        before = _slots(c)
        try:
            call()
        except Exception:  # the playing loop and the view checks report failures
            continue
        after = _slots(c)
        if after != before:
            report.fail(
                f"{label} changed the state at version {game.version} (slot(s) {_changed(before, after)}):"
                " it must only read it; the game logic's legal_actions and table may not change the state"
            )
            raise Abort


def check_twin(report: Report, game: Game, rng: random.Random) -> None:
    """Compare a clone with a twin whose hidden cards were re-dealt: one seat must not tell them apart."""
    seat = rng.randrange(len(game.players))
    a = game.clone()
    b = game.determinize(seat, rng.getrandbits(31))
    report.twins += 1
    problem = conservation_problem(b, None)
    za, zb = a.state.zones, b.state.zones
    moved = [
        (z, i)
        for z in range(len(za.cards))
        for i in range(len(za.cards[z]))
        if za.knows(z, i, seat) and (len(zb.cards[z]) <= i or zb.cards[z][i] != za.cards[z][i])
    ]
    if problem is not None or moved:
        report.fail(
            f"determinize({seat}) at version {game.version} is not a consistent twin: {problem or moved!r}"
        )
        return
    for who in (seat, None):
        if a.view(who) != b.view(who) or a.history(who) != b.history(who):
            report.leaks += 1
            report.fail(
                f"view of {'the spectator' if who is None else f'seat {who}'} at version {game.version}"
                f" depends on cards hidden from seat {seat}"
            )
            return
    check_world(report, game, seat)
    for _ in range(3):
        if a.is_over or not a.to_act:
            return
        actor = rng.choice(a.to_act)
        legal = a.legal_actions(actor)
        if not legal:
            return
        action = rng.choice(legal)
        if action not in b.legal_actions(actor):
            if actor == seat:
                report.leaks += 1
                report.fail(
                    f"seat {seat}'s legal actions depend on cards hidden from it ({str(action)!r})"
                )
            return
        before_a, before_b = known_multiset(a.state, seat), known_multiset(b.state, seat)
        ea: list[Event] = []
        eb: list[Event] = []
        a.events.subscribe(Event, ea.append, seat=seat)
        b.events.subscribe(Event, eb.append, seat=seat)
        draws = a.state.draws
        a.apply(action)
        b.apply(action)
        if known_multiset(a.state, seat) - before_a or known_multiset(b.state, seat) - before_b:
            return  # the seat learned a card: the two worlds may now differ for it
        if a.state.draws != draws:
            return  # a new deal or reshuffle: what was shown before it is no longer tracked
        ja = [e.to_json() for e in ea]
        jb = [e.to_json() for e in eb]
        if ja != jb:
            report.leaks += 1
            report.fail(
                f"events sent to seat {seat} for {str(action)!r} depend on cards hidden from it: {ja!r} != {jb!r}"
            )
            return
        va, vb = a.view(seat), b.view(seat)
        if va != vb:
            report.leaks += 1
            report.fail(
                f"view of seat {seat} after {str(action)!r} depends on cards hidden from it"
                f" (in one world and another: {_difference(va, vb)})"
            )
            return


def _difference(a: Any, b: Any, path: str = "view") -> str:
    """Where two views first differ, and how: ``view['table']['phase']: 'play' != 'show'``."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return _difference(a.get(key), b.get(key), f"{path}[{key!r}]")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _difference(x, y, f"{path}[{i}]")
    return f"{path}: {shown(a, 60)} != {shown(b, 60)}"


def check_rejections(
    report: Report,
    game: Game,
    rng: random.Random,
    pool: dict[Action, None],
    host: list[Any],
    realtime: bool,
) -> None:
    """Try hostile inputs: each must raise a documented error and change nothing, its
    message naming no card hidden from the seat it refuses; and the game's own
    ``is_legal`` must answer as its legal set does. *pool* holds the actions seen legal
    so far, in the order first offered (a :class:`SpyAgent`'s), so one seed tries the
    same inputs in every process."""
    check_is_legal(report, game, rng, pool)
    for label, call, allowed in bad_inputs(game, rng, pool, realtime):
        before = fingerprint(game)
        n_events = len(host)
        report.bad_inputs += 1
        try:
            call()
        except allowed as exc:
            problem = message_problem(exc)
            if problem is not None:
                report.fail(f"{label}: {problem}")
            hidden = hidden_in_message(
                game, exc, getattr(call, "seat", None), getattr(call, "text", None), getattr(call, "again", None)
            )
            if hidden is not None:
                report.leaks += 1
                report.fail(f"{label}: {hidden}")
            if fingerprint(game) != before or len(host) != n_events:
                report.fail(f"{label} was rejected ({type(exc).__name__}) but changed the game")
                raise Abort from None
            report.rejected += 1
        except Exception as exc:
            if not isinstance(exc, CardcoreError):
                report.raw += 1
            report.fail(
                f"{label} raised {type(exc).__name__} ({str(exc)[:200]}), not {error_names(allowed)}"
            )
            if fingerprint(game) != before:
                raise Abort from None
        else:
            report.fail(f"{label} was accepted at version {before[1]}")
            raise Abort


def hidden_in_message(
    game: Game,
    exc: BaseException,
    seat: object = None,
    text: object = None,
    again: Callable[[Game], object] | None = None,
) -> str | None:
    """Say which cards hidden from the refused seat an error's message names, or ``None``.

    The seat is the one of the refused action (``exc.action``), else *seat* (the one whose
    *text* was refused before it became an action: a parse error): it sees the message.
    It may know the cards it knows now (as the view check decides) and those its own
    action or text names; a refusal of no seat of the game is not checked. A text refused
    before it became an action is tried *again* in another world of that seat's
    (``determinize``): a message the same there is fixed text (an example card of the
    notation's help), not a leak.
    """
    msg = str(exc)
    named = card_tokens(msg)
    action = getattr(exc, "action", None)
    if not named:
        return None
    if isinstance(action, Action):
        seat = action.seat
    if type(seat) is not int or not 0 <= seat < len(game.players):
        return None
    try:
        own = card_tokens(str(action)) if isinstance(action, Action) else set()
        own |= card_tokens(text) if isinstance(text, str) else set()
        own |= card_tokens(action) if isinstance(action, str) else set()
    except Exception:  # an action its class cannot write: it names no card of its own
        own = set()
    extra = named - own - known_cards(game.state, seat)
    if extra:  # a card-like word of the game's notation (a bid "2H") names no card
        extra -= game_words(game)
    if extra and again is not None and not isinstance(action, Action):
        try:
            again(game.determinize(seat, game.version))
        except Exception as other:
            if str(other) == msg:  # the same whatever the hidden cards
                return None
    if not extra:
        return None
    return (
        f"its message, which seat {seat} sees, names cards hidden from that seat:"
        f" {sorted(extra)!r}, in {msg[:200]!r} (a refusal, rule_for's reason too, may name"
        " only cards the seat knows)"
    )


def check_is_legal(report: Report, game: Game, rng: random.Random, pool: dict[Action, None]) -> None:
    """The game's own ``is_legal`` (the check ``apply`` makes, with the house rules' vetoes)
    must answer as the legal set does: yes for every legal action of a seat to act, no for
    any other action seen in the game. ``apply`` falls back to the legal set should it
    raise, so a wrong or failing ``is_legal`` shows only here."""
    is_legal = game._is_legal
    if is_legal is None:  # the legal set decides: nothing of the game's own to check
        return
    state = game.state
    legal = {seat: game.legal_actions(seat) for seat in game.to_act}
    others = [a for a in pool if type(a) is not Resign and type(a) is not EndMatch]
    rng.shuffle(others)
    candidates = [*(a for acts in legal.values() for a in acts), *others[:30]]
    for action in candidates:
        want = action in legal.get(action.seat, ())
        try:
            said = is_legal(state, action)
        except Exception as exc:
            report.fail(
                f"is_legal raised {type(exc).__name__} ({str(exc)[:120]}) for {action!r} at"
                f" version {game.version}: apply falls back to the legal set, hiding the mistake"
            )
            return
        if bool(said) != want:
            report.fail(
                f"is_legal says {bool(said)} for {action!r} at version {game.version}, but the"
                f" action is {'' if want else 'not '}in the legal set"
            )
            return


def check_clone(
    report: Report, game: Game, rng: random.Random, pending: list[tuple[Game, Fingerprint]]
) -> None:
    """Clone *game*, act on the clone: the original must not change (nor, later, the clone)."""
    before = fingerprint(game)
    slots = _slots(game)
    c = game.clone()
    shared = [
        name
        for name in _all_slots(type(c.state))
        if _is_mutable(value := getattr(c.state, name, None))
        and value is getattr(game.state, name, None)
    ]
    if fingerprint(c) != before:
        report.fail(f"clone at version {game.version} differs from its original")
        return
    if shared:  # harmless only until an action writes it in place (GameState's _mutable)
        names = ", ".join(repr(n) for n in shared)
        report.fail(
            f"a clone shares the mutable slot(s) {names} with its original (version"
            f" {game.version}): name every slot that can hold a mutable value in the state's"
            " _mutable (or declare no _mutable)"
        )
    if (
        c.state is game.state
        or c.state.zones is game.state.zones
        or any(x is y for x, y in zip(c.state.zones.cards, game.state.zones.cards, strict=True))
    ):
        report.fail("clone shares its state or piles with its original")
        return
    for seat in c.to_act:
        legal = c.legal_actions(seat)
        if legal:
            c.apply(rng.choice(legal))
            break
    if fingerprint(game) != before:
        hint = ""
        if shared:
            names = ", ".join(repr(n) for n in shared)
            hint = (
                f"; the clone shares {names} with its original: name every mutable slot in"
                " the state's _mutable (or declare no _mutable)"
            )
        report.fail(
            f"applying an action to a clone changed its original (version {before[1]}),"
            f" in slot(s) {_changed(slots, _slots(game))}{hint}"
        )
        raise Abort
    pending.append((c, fingerprint(c)))


def _is_mutable(value: object) -> bool:
    """A value changed in place (a list, dict, set, deque, bytearray, array, Counter ...)."""
    return isinstance(value, _MUTABLE) or hasattr(value, "clone")


_MUTABLE = (list, dict, set, bytearray, MutableSequence, MutableMapping, MutableSet, types.SimpleNamespace)


TAMPER_AT_MOST = 200
"""Saves edited in one place are tried up to this version (each forgery loads by a replay)."""


def check_persistence(report: Report, game: Game, host: list[dict[str, Any]]) -> None:
    """Save -> load and record -> replay must rebuild the same game, views, history and events."""
    report.reloads += 1
    want = fingerprint(game)
    seats = [*range(len(game.players)), None]
    views = [(game.view(s), game.history(s)) for s in seats]
    text = json.dumps(game.save())
    try:
        loaded = load(text)
    except CardcoreError as exc:
        report.fail(f"save -> load failed at version {game.version}: {exc}")
        return
    if fingerprint(loaded) != want or [(loaded.view(s), loaded.history(s)) for s in seats] != views:
        report.fail(f"save -> load at version {game.version} does not rebuild the same game")
    record = game.record()
    try:
        # the deal alone (its events heard from the first action on); a game the deal ended
        # keeps its result, which a record of the deal alone then holds
        dealt = None if record["actions"] else record["result"]
        fresh = replay(json.dumps(dict(record, actions=[], result=dealt, truncated=False)))
        seen: list[dict[str, Any]] = []
        if host:
            fresh.events.subscribe(Event, lambda e: seen.append(e.to_json()))
        for seat, text_, at in record["actions"]:
            fresh.act(seat, text_, at=at)
        if record["truncated"]:  # by a runner (the core ends a game at its bound itself)
            fresh.truncate()
    except CardcoreError as exc:
        report.fail(f"record -> replay failed at version {game.version}: {exc}")
        return
    if fingerprint(fresh) != want or [(fresh.view(s), fresh.history(s)) for s in seats] != views:
        report.fail(f"record -> replay at version {game.version} does not rebuild the same game")
    if host and seen != host:
        report.fail(f"record -> replay at version {game.version} publishes different events")
    _check_ends(report, game)
    if game.version <= TAMPER_AT_MOST:
        check_tampered(report, game)


def _check_ends(report: Report, game: Game) -> None:
    """A truncated copy saves and replays, and a signed save loads only with its key."""
    ended = game.clone()
    if not ended.is_over:
        ended.truncate()
    want = fingerprint(ended)
    key = b"conformance kit"
    try:
        signed = json.loads(json.dumps(ended.save(key=key)))
        if fingerprint(load(signed, key=key)) != want:
            report.fail(
                f"a signed save of the truncated game at version {game.version} loads another game"
            )
        if fingerprint(replay(json.dumps(ended.record()))) != want:
            report.fail(
                f"the record of the truncated game at version {game.version} replays another game"
            )
    except CardcoreError as exc:
        report.fail(f"the game truncated at version {game.version} does not save and replay: {exc}")
        return
    signed["version"] = int(signed["version"]) + 1
    try:
        load(signed, key=key)
    except CardcoreError:
        pass
    else:
        report.fail(f"a changed signed save (version {game.version}) loads with its key")


def has_positions(game: Game) -> bool:
    """Whether the game's logic has a position notation."""
    return game.logic.has_positions()


def _comparable(view: dict[str, Any]) -> dict[str, Any]:
    out = dict(view)
    out.pop("version")
    return out


def check_position(report: Report, game: Game, seed: int) -> None:
    """Write the position, start a new game from it: same views and legal actions, same text."""
    report.positions += 1
    try:
        text = game.position()
    except CardcoreError as exc:
        report.fail(f"position() failed at version {game.version}: {exc}")
        return
    if not isinstance(text, str):
        report.fail(
            f"position() at version {game.version} returned {type(text).__name__}, not text"
        )
        return
    rules = [r for r in game.rules if r not in game.ruleset.game.default_rules]
    without = sorted(set(game.ruleset.game.default_rules) - set(game.rules))
    try:
        again = new_game(
            game.name,
            list(game.players),
            rules=rules,
            without=without,
            options=dict(game.options),
            position=text,
            seed=seed,
        )
    except CardcoreError as exc:
        if game.is_over:  # nobody may act in a finished game: its position need not start one
            return
        report.fail(
            f"new_game(position=...) refused the game's own position at version {game.version}: {exc}"
        )
        return
    seats = [*range(len(game.players)), None]
    for seat in seats:
        if _comparable(again.view(seat)) != _comparable(game.view(seat)):
            report.fail(
                f"the game started from the position of version {game.version} shows seat {seat}"
                f" another view: {text[:200]!r}"
            )
            return
    for seat in seats[:-1]:
        if [str(a) for a in again.legal_actions(seat)] != [
            str(a) for a in game.legal_actions(seat)
        ]:
            report.fail(
                f"the game started from the position of version {game.version} gives seat {seat}"
                " other legal actions"
            )
            return
    if again.position() != text:
        report.fail(f"position -> new_game -> position at version {game.version} is not stable")
        return
    if not game.is_over and game.to_act:
        check_sampled(report, game, seed)
