"""Records, saved games and their validation.

A record holds the format version, the game and its version, the rules with
their versions, the options, the players, the seed (and a stacked deck, if
any), the actions as ``[seat, notation, at]`` and whether a runner truncated
the game. Replaying it rebuilds the same states and events. A saved game is a
record plus a snapshot of the state and the game's configuration (options,
rules, players); loading replays the record and checks that both match, so a
damaged or partly edited file raises :class:`~cardcore.CorruptStateError` and
loads nothing. Records hold the seed: they are privileged.

Before anything is replayed, the data is checked against the limits below
(:data:`MAX_BYTES`, :data:`MAX_DEPTH`, :data:`MAX_INT_BITS`) and, with ``key=``,
against its HMAC-SHA256 signature. An unsigned save or record proves only
that it describes a game the engine could have played; a signed one also
proves that whoever holds the key wrote it (see :doc:`security`).
"""

from __future__ import annotations

import hmac
import json
import math
from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardcore._driver import bus_for
from cardcore._earlier import rules_of_the_day
from cardcore._options import read_stored_options
from cardcore._recording import RECORD_FORMAT, SAVE_FORMAT, signature_of, signing_key, unique_keys
from cardcore._saved import difference, normal, same
from cardcore._text import kind_of, shown, why_unreadable
from cardcore._unasked import HUSHED, QUIET
from cardcore._versions import RELEASE
from cardcore.cards import parse_cards
from cardcore.deck import _VERSION, CHANCE, LEGACY_CHANCE
from cardcore.errors import CardcoreError, CorruptStateError, PluginError
from cardcore.game import Game
from cardcore.plugins import available_rules, game_info, get_ruleset, rule_info
from cardcore.setup import new_game

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_INT_BITS",
    "RECORD_FORMAT",
    "RECORD_VERSIONS",
    "SAVE_FORMAT",
    "SAVE_VERSIONS",
    "load",
    "replay",
]

RECORD_VERSIONS = (1, 2, 3)
"""Record format versions :func:`replay` reads (1 has no ``position``; it is migrated; 1 and 2
replay with the chance of their day, :func:`~cardcore.derive_rng`)."""
SAVE_VERSIONS = (1, 2, 3)
"""Saved-game format versions :func:`load` reads (see :func:`load` for version 1)."""
MAX_BYTES = 20_000_000
"""The largest save or record :func:`load` and :func:`replay` accept: characters of JSON
text, or for data already parsed its size counted the same way (every string's length,
8 per other value)."""
MAX_DEPTH = 32
"""The deepest nesting of lists and objects a save or record may hold."""
MAX_INT_BITS = 128
"""The largest integer a save or record may hold, in bits (seeds are below ``2**128``)."""


def _fail(msg: str, cause: BaseException | None = None) -> CorruptStateError:
    """The error, keeping the rule ID *cause* cited (when its text no longer ends with it)."""
    err = CorruptStateError(msg)
    err.rule_id = err.rule_id or getattr(cause, "rule_id", None)
    return err


def _as_mapping(data: Any, what: str, key: bytes | str | None = None) -> Mapping[str, Any]:
    """Parse *data* (JSON text or data), check the limits and, with *key*, the signature
    (a key that cannot sign is the caller's :class:`~cardcore.ArgumentError`, found first)."""
    if key is not None:
        signing_key(key)
    if issubclass(type(data), bytes | bytearray):  # the real type, not a claim through __class__
        if len(data) > MAX_BYTES:
            raise _fail(f"{what} is too large ({len(data)} bytes; at most {MAX_BYTES})")
        try:
            data = data.decode("utf-8", errors="strict")
        except UnicodeDecodeError as exc:
            raise _fail(f"{what} is not UTF-8 text: {exc}") from None
    if issubclass(type(data), str):  # the real type, not a claim through __class__
        data = str.__str__(data)  # plain: a subclass could measure or decode its own way
        if len(data) > MAX_BYTES:
            raise _fail(f"{what} is too large ({len(data)} characters; at most {MAX_BYTES})")
        try:
            data = json.loads(data, object_pairs_hook=unique_keys)
        except CorruptStateError as exc:  # a key written twice
            raise _fail(f"{what} is not sound JSON: {exc}") from None
        except (ValueError, RecursionError) as exc:
            raise _fail(f"{what} {why_unreadable(exc)}") from None
    if not issubclass(type(data), Mapping):
        raise _fail(f"{what} must be a JSON object, not {kind_of(data)}")
    if type(data) is not dict:  # a mapping of the caller's own: read once, as plain data
        data = _plain(data, what)
    _check_count(data.get("record", data) if what == "saved game" else data)
    if not _check_limits(data, what):  # a mapping of the caller's own inside: read it once
        data = _plain(data, what)
        _check_limits(data, what)
    if key is not None:
        _check_signature(data, what, key)
    checked: Mapping[str, Any] = data
    return checked


_SMALL = 1 << 62  # ints below this in size need no bit count (MAX_INT_BITS is larger)


def _plain(data: Any, what: str) -> Any:
    """*data* copied as plain dicts, lists, text and numbers, read once: the caller's own
    mapping (or a subclass of str or int) could answer each lookup its own way, or raise."""

    def copy(value: Any, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise _fail(f"{what} is nested deeper than {MAX_DEPTH} levels")
        if value is None or type(value) in (str, int, float, bool):
            return value
        if isinstance(value, str):
            return str.__str__(value)
        if isinstance(value, int):
            return int.__index__(value)
        if isinstance(value, float):
            return float.__float__(value)
        if isinstance(value, Mapping):
            return {copy(k, depth + 1): copy(v, depth + 1) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [copy(v, depth + 1) for v in value]
        return value  # not JSON data: the limits say so

    try:
        return copy(data, 1)
    except CorruptStateError:
        raise
    except Exception as exc:
        raise _fail(f"{what} could not be read: {type(exc).__name__}: {shown(str(exc), 80)}") from None


def _check_limits(data: Mapping[str, Any], what: str) -> bool:
    """Refuse data beyond :data:`MAX_BYTES`, :data:`MAX_DEPTH` or :data:`MAX_INT_BITS`, or not JSON.

    Iterative, so hostile nesting cannot exhaust the stack; scalars are checked
    where they stand, so a long list of actions costs one pass.

    :returns: Whether every container is a plain dict, list or tuple (else the
        data should be read once with :func:`_plain`).
    """
    try:
        return _walk_limits(data, what)
    except CorruptStateError:
        raise
    except Exception as exc:  # a mapping of the caller's own that fails to be read
        raise _fail(f"{what} could not be read: {type(exc).__name__}: {shown(str(exc), 80)}") from None


def _walk_limits(data: Mapping[str, Any], what: str) -> bool:
    plain = True
    size = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    push = stack.append
    pop = stack.pop
    while stack:
        value, depth = pop()
        if depth > MAX_DEPTH:
            raise _fail(f"{what} is nested deeper than {MAX_DEPTH} levels")
        kind = type(value)
        if kind is list or kind is tuple:
            items: Any = value
            size += 2
        else:  # a mapping: only containers are pushed
            if kind is not dict:
                plain = False
            items = value.values()
            size += 2
            for k in value:  # exactly text: a subclass could answer lookups its own way
                if type(k) is not str:
                    raise _fail(f"{what} holds a key that is not text: {shown(k, 40)}")
                size += len(k) + 3
        for v in items:  # the common kinds first
            t = type(v)
            if t is str:
                size += len(v) + 3
            elif t is list:
                if len(v) == 3:  # the common [seat, notation, at] of a record's action
                    a, b, c = v
                    if (
                        type(a) is int
                        and type(b) is str
                        and (c is None or (type(c) is float and math.isfinite(c)))
                        and -_SMALL < a < _SMALL
                    ):
                        size += len(b) + (18 if c is None else 21)  # as the general loop counts it
                        continue
                push((v, depth + 1))
            elif t is int:
                size += 8
                if v.bit_length() > MAX_INT_BITS:
                    raise _fail(f"{what} holds an integer of more than {MAX_INT_BITS} bits")
            elif t is float:
                size += 8
                if not math.isfinite(v):
                    raise _fail(f"{what} holds a number that is not finite: {v!r}")
            elif v is None or t is bool:
                size += 5
            elif t is dict or t is tuple or isinstance(v, Mapping):
                push((v, depth + 1))
            else:
                raise _fail(f"{what} holds a value that is not JSON data: {t.__name__}")
        if size > MAX_BYTES:
            raise _fail(f"{what} is too large (more than {MAX_BYTES} characters as JSON)")
    return plain


_FEW = 4096
"""Records of at most this many actions skip :func:`_check_count`: the full checks walk them
at once, and each action is then checked against the game's bound before it is replayed."""


def _check_count(rec: Any) -> None:
    """Refuse a record holding more actions than its game's bound, before anything else:
    cheap, so a forged record of a million actions costs no walk over them (anything odd
    is left to the full checks)."""
    if type(rec) is not dict or type(rec.get("actions")) is not list:
        return  # (a nested mapping of the caller's own is read once as plain data first)
    if len(rec["actions"]) <= _FEW:  # walking so few costs less than resolving the game's bound
        return
    try:
        info = game_info(rec["game"])
        players = rec["players"]
        count = players if type(players) is int else len(players)
        try:  # the record's rules: their own options may lengthen the game (a cap they set)
            names = _record_rules(rec)  # as the replay reads them
            ruleset = get_ruleset(info.name, names, [str(w) for w in rec["without"]])
            options = ruleset.resolve_options(rec["options"])
        except Exception:  # rules or options the full checks refuse: the game's own bound
            own, ruleset = {o.name for o in info.options}, get_ruleset(info.name)
            options = info.resolve_options({k: v for k, v in rec["options"].items() if k in own})
        bound = ruleset.logic.action_bound(count, options)
    except Exception:  # the full checks will say what is wrong
        return
    if type(bound) is int and len(rec["actions"]) > bound + 2:
        raise _fail(
            f"record holds {len(rec['actions'])} actions, more than the game's bound {bound}"
        )


def _check_signature(data: Mapping[str, Any], what: str, key: bytes | str) -> None:
    claimed = data.get("signature")
    if not isinstance(claimed, str):
        raise _fail(f"{what} is not signed (a key was given, so a signature is required)")
    try:
        expected = signature_of(data, key)
    except CardcoreError as exc:
        raise _fail(f"{what} cannot be checked: {exc}") from None
    if not hmac.compare_digest(claimed.encode("utf-8", "replace"), expected.encode("utf-8")):
        raise _fail(f"{what} has a bad signature: it was changed, or signed with another key")


def _version_in(value: Any, versions: tuple[int, ...]) -> bool:
    """Whether *value* is one of *versions* (an int: ``True`` and ``1.0`` are not versions)."""
    return type(value) is int and value in versions


def _versions(versions: tuple[int, ...]) -> str:
    """``"1, 2 or 3"``: the format versions read."""
    *rest, last = versions
    return f"{', '.join(map(str, rest))} or {last}" if rest else str(last)


_RELEASE = RELEASE  # a version as a package writes it (PEP 440): 0.3.0, 1.0.0rc1, 0.2.0.dev1


def _major(version: str) -> str:
    return str(version).split(".", 1)[0]


def _check_record(rec: Mapping[str, Any]) -> None:
    if rec.get("format") != RECORD_FORMAT[0] or not _version_in(
        rec.get("format_version"), RECORD_VERSIONS
    ):
        for name in ("format", "format_version"):
            if name not in rec:
                raise _fail(
                    f"not a cardcore record: it has no {name!r} field (expected"
                    f" {RECORD_FORMAT[0]!r} version {_versions(RECORD_VERSIONS)})"
                )
        raise _fail(
            f"not a cardcore record (format {shown(rec.get('format'), 40)} version"
            f" {shown(rec.get('format_version'), 40)}; expected {RECORD_FORMAT[0]!r}"
            f" version {_versions(RECORD_VERSIONS)})"
        )
    expected = {
        "game": str,
        "game_version": str,
        "rules": list,
        "without": list,
        "options": Mapping,
        "players": list,
        "seed": int,
        "actions": list,
    }
    for key, kind in expected.items():
        value = rec.get(key)
        if type(value) is kind or (type(value) is dict and kind is Mapping):
            continue  # the common case, without an ABC check
        if key not in rec:
            raise _fail(f"record field {key!r} is missing")
        if not isinstance(value, kind) or isinstance(value, bool):
            want = {str: "text", list: "an array", int: "a whole number"}.get(kind, "an object")
            raise _fail(f"record field {key!r} must be {want}, not {kind_of(value)}{'' if value is None or isinstance(value, bool) else ' ' + shown(value, 40)}")
    if len(rec["game_version"]) > 64 or not _RELEASE.fullmatch(rec["game_version"]):
        raise _fail(f"record field 'game_version' must be a version, not {shown(rec['game_version'], 40)}")
    if not all(isinstance(p, str) for p in rec["players"]):
        raise _fail("record field 'players' must list names")
    position = rec.get("position")
    if position is not None and not isinstance(position, str):
        raise _fail("record field 'position' must be null or a position text")
    if position is not None and rec["format_version"] == 1:  # (positions came with format 2)
        raise _fail("record of format version 1 holds a position: that format has none")
    deck = rec.get("deck")
    if deck is not None and not (isinstance(deck, list) and all(isinstance(c, str) for c in deck)):
        raise _fail("record field 'deck' must be null or a list of cards")
    try:
        info = game_info(rec["game"])
    except CardcoreError as exc:
        raise _fail(f"record needs a game that is not installed: {exc}") from None
    if _major(info.version) != _major(rec["game_version"]):
        raise _fail(
            f"record was made with {info.name} {shown(rec['game_version'], 40)}; installed is {info.version}"
            " (major versions differ)"
        )
    for rule in rec["rules"]:
        if not (
            (type(rule) is dict or isinstance(rule, Mapping))
            and isinstance(rule.get("name"), str)
            and isinstance(rule.get("version"), str)
        ):
            raise _fail(f"record rule entry must be {{name, id, version}}, not {str(rule)[:80]!r}")
        try:
            rinfo = rule_info(rule["name"])
        except CardcoreError:
            try:
                known = ", ".join(available_rules(info.name)) or "none"
            except CardcoreError:
                known = "none"
            raise _fail(
                f"record needs house rule {shown(rule['name'], 60)}, which is not installed"
                f" (installed for {info.name!r}: {known})"
            ) from None
        if rule.get("id", rinfo.id) != rinfo.id:
            raise _fail(
                f"record rule entry {shown(rule['name'], 60)} carries the ID"
                f" {shown(rule.get('id'), 40)}; that rule's ID is {rinfo.id}"
            )
        if len(rule["version"]) > 64 or not _RELEASE.fullmatch(rule["version"]):
            raise _fail(
                f"record rule entry {shown(rule['name'], 60)} must carry a version,"
                f" not {shown(rule['version'], 40)}"
            )
        if _major(rinfo.version) != _major(rule["version"]):
            raise _fail(
                f"record was made with rule {rule['name']} {rule['version']}; installed is {rinfo.version}"
                " (major versions differ)"
            )


def _check_actions(actions: list[Any]) -> None:
    for i, entry in enumerate(actions):
        if type(entry) is list and len(entry) == 3:  # the common [int, str, None or float]
            at = entry[2]
            if (
                type(entry[0]) is int
                and type(entry[1]) is str
                and (at is None or (type(at) is float and math.isfinite(at)))
            ):
                continue
        if not (
            isinstance(entry, list)
            and len(entry) == 3
            and isinstance(entry[0], int)
            and not isinstance(entry[0], bool)
            and isinstance(entry[1], str)
            and (
                entry[2] is None
                or (
                    isinstance(entry[2], int | float)
                    and not isinstance(entry[2], bool)
                    and math.isfinite(entry[2])
                )
            )
        ):
            raise _fail(f"record action {i} must be [seat, notation, at], not {str(entry)[:80]!r}")


def replay(record: Mapping[str, Any] | str | bytes, *, key: bytes | str | None = None) -> Game:
    """Rebuild a game from its record, action by action.

    :param record: A record from :meth:`Game.record`, or its JSON text.
    :param key: Require a valid signature under this secret (see ``Game.record(key=...)``).
    :returns: The game in its final recorded state (subscribe, then replay
        actions yourself from ``record["actions"]`` to watch the events).
    :raises CorruptStateError: If the record is malformed or beyond the size
        limits, needs plugins that are not installed (or of another major
        version), holds an action that is not legal where it stands, or (with
        *key*) is not signed with *key*.
    :raises PluginError: A plugin failed while the record replayed (naming it: the
        record may be sound).
    :raises ArgumentError: *key* is empty or not bytes or text (the caller's, not the record's).
    """
    return _replay(_as_mapping(record, "record", key))


def _replay(rec: Mapping[str, Any]) -> Game:
    _check_record(rec)
    truncated = rec.get("truncated", False)
    if not isinstance(truncated, bool):
        raise _fail(f"record field 'truncated' must be true or false, not {str(truncated)[:80]!r}")
    names = _record_rules(rec)
    token = _VERSION.set(CHANCE if rec["format_version"] >= 3 else LEGACY_CHANCE)
    quiet = QUIET.set(True)  # plugins' on_event saw these actions once, when they were played
    try:
        game = new_game(
            rec["game"],
            list(rec["players"]),
            rules=names,
            without=tuple(str(w) for w in rec["without"]),
            options=dict(rec["options"]),
            seed=rec["seed"],
            deck=rec.get("deck"),
            position=rec.get("position"),
        )
    except PluginError as exc:  # the plugin's failure, not the record's
        raise _blamed(exc, "record's game could not start") from exc
    except (CardcoreError, TypeError, ValueError) as exc:
        raise _fail(f"record cannot start its game: {exc}", exc) from None
    finally:
        QUIET.reset(quiet)
        _VERSION.reset(token)
    bound = game.logic.action_bound(len(game.players), game.options)
    if len(rec["actions"]) > bound + 2:
        raise _fail(
            f"record holds {len(rec['actions'])} actions, more than the game's bound {bound}"
        )
    _check_actions(rec["actions"])
    for i, (seat, text, at) in enumerate(rec["actions"]):
        try:
            game.act(seat, text, at=at)
        except PluginError as exc:
            if game.version == i + 1:  # applied: the game's scores failed at its bound, as
                continue  # when it was played (CORE-BOUND-1); the game went on then too
            raise _blamed(exc, f"record action {i} (from 0; seat {seat}, {shown(text, 60)}) was not replayed") from exc
        except CardcoreError as exc:
            raise _fail(f"record action {i} (from 0; seat {seat}, {shown(text, 60)}) cannot be replayed: {exc}") from None
    if truncated and game._truncated is None:  # (the core ends a game at its bound itself)
        if game.is_over:
            raise _fail("record says the game was truncated, but its actions end it by the rules")
        try:
            game.truncate()
        except PluginError as exc:
            raise _blamed(exc, "record's game was not truncated") from exc
        except CardcoreError as exc:
            raise _fail(f"record cannot be truncated: {exc}") from None
    claimed = rec.get("result")
    actual = None if game.result is None else game.result.to_json()
    # (loosely: the record's result is only compared, never kept; the replayed one is)
    if claimed != actual and (claimed is None or normal(claimed) != normal(actual)):
        if claimed is None:
            raise _fail("record holds no result, but its actions replay to a finished game")
        why = "the record was changed after it was made"
        if game.rules:  # or a rule of its own that answers otherwise each time it is asked
            why += (
                ", or a house rule answers otherwise each time it is asked"
                f" (rules in play: {', '.join(game.rules)})"
            )
        raise _fail(f"record result does not match the result its actions replay to: {why}")
    if game._bus is HUSHED:  # replayed: the plugins' on_event hear what is played from here on
        game._bus = bus_for(game.ruleset, len(game.players))
    return game


def _blamed(exc: PluginError, what: str) -> PluginError:
    """*exc*, a plugin's failure while a record replays, said as such: the record may be sound."""
    return PluginError(f"{what}: {exc}", plugin=exc.plugin)


def _record_rules(rec: Mapping[str, Any]) -> tuple[str, ...]:
    """The house rules *rec* replays with (one answer for the count check and the replay):
    those it names beyond the game's defaults, then those keeping the defaults of its day."""
    default_names = game_info(rec["game"]).default_rules
    names = tuple(r["name"] for r in rec["rules"] if r["name"] not in default_names)
    return names + rules_of_the_day(rec)


def load(data: Mapping[str, Any] | str | bytes, *, key: bytes | str | None = None) -> Game:
    """Load a saved game from :meth:`Game.save` (or its JSON text).

    The record is replayed; the saved state must match the replayed one
    exactly, every card accounted for, and the saved configuration (options,
    rules, players) must be the replayed game's. A version-1 save (cardcore
    0.1) loads from its record; its snapshot is checked for cards and version
    only. A save made before the configuration was saved is checked without it.

    :param key: Require a valid signature under this secret (see ``Game.save(key=...)``):
        a save that was changed or forged is refused before anything is replayed.
    :raises CorruptStateError: If anything fails validation; nothing is loaded. A state
        that differs is named by its first differing place in sorted key order
        (``state.turns``, ``state.zones['hand.0'].cards[2]``), never by a value.
    :raises PluginError: A plugin failed while the record replayed (naming it).
    :raises ArgumentError: *key* is empty or not bytes or text (the caller's, not the save's).
    """
    save = _as_mapping(data, "saved game", key)
    if save.get("format") != SAVE_FORMAT[0] or not _version_in(
        save.get("format_version"), SAVE_VERSIONS
    ):
        for name in ("format", "format_version"):
            if name not in save:
                raise _fail(
                    f"not a cardcore saved game: it has no {name!r} field (expected"
                    f" {SAVE_FORMAT[0]!r} version {_versions(SAVE_VERSIONS)})"
                )
        raise _fail(
            f"not a cardcore saved game (format {shown(save.get('format'), 40)} version"
            f" {shown(save.get('format_version'), 40)}; expected {SAVE_FORMAT[0]!r}"
            f" version {_versions(SAVE_VERSIONS)})"
        )
    state = save.get("state")
    if not isinstance(state, Mapping) or not isinstance(state.get("zones"), Mapping):
        raise _fail("saved game has no state snapshot with zones")
    record = save.get("record")
    if not isinstance(record, Mapping):
        raise _fail("saved game has no record")
    config = save.get("config")
    if not isinstance(config, Mapping) and (config is not None or save.get("format_version") != 1):
        raise _fail("saved game has no configuration ('config': options, rules, players)")
    try:
        game = _replay(record)
    except CorruptStateError as exc:  # its record's fault is the save's: say which was read
        text = str(exc)
        text = text[len("record ") :] if text.startswith("record ") else f": {text}"
        raise _fail(f"saved game's record{' ' * (text[0] != ':')}{text}", exc) from None
    if config is not None:
        added = rules_of_the_day(record)  # not in the saved config
        mine = {
            "options": dict(game.options),
            "rules": [r for r in game.rules if r not in added],
            "players": list(game.players),
        }
        stored = {**config, "options": read_stored_options(config.get("options"), game.ruleset.options)}
        for name, value in mine.items():
            if not same(stored.get(name), normal(value)):
                raise _fail(
                    f"saved {name} {str(config.get(name))[:80]} are not those of the game its"
                    f" record replays to ({str(value)[:80]})"
                )
    saved_cards: Counter[str] = Counter()
    for name, pile in state["zones"].items():
        if not isinstance(pile, Mapping) or not isinstance(pile.get("cards"), list):
            raise _fail(f"saved zone {name!r} is malformed")
        try:
            saved_cards.update(str(c) for c in parse_cards([str(c) for c in pile["cards"]]))
        except CardcoreError as exc:
            raise _fail(f"saved zone {name!r} holds a bad card: {exc}") from None
    expected = Counter(str(c) for c in game.logic.deck(len(game.players), game.options))
    if saved_cards != expected:
        missing = sorted((expected - saved_cards).elements())
        extra = sorted((saved_cards - expected).elements())
        raise _fail(
            f"saved game does not account for every card (missing {missing!r}, extra {extra!r})"
        )
    if type(save.get("version")) is not int or save.get("version") != game.version:
        raise _fail(
            f"saved version {shown(save.get('version'))} does not match its record ({game.version})"
        )
    # a version-1 save holds the snapshot of the state layout of its day: its record,
    # cards and version are checked above; the snapshot is compared from version 2 on
    where = None if save.get("format_version") == 1 else difference(state, normal(game.state.snapshot()))
    if where is not None:  # the place only: a message never shows a card
        raise _fail(
            f"saved state does not match the state its record replays to (first at {where});"
            " its record replays alone: cardcore.replay(save['record'])"
        )
    return game
