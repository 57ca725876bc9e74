"""Writing records and saves (the reading side, with validation, is :mod:`cardcore.records`)."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter
from collections.abc import Mapping
from itertools import chain
from typing import TYPE_CHECKING, Any

from cardcore._actionlog import actions as recorded
from cardcore._actionlog import times as recorded_times
from cardcore._text import shown
from cardcore.deck import CHANCE
from cardcore.errors import ArgumentError, CardcoreError, CorruptStateError

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = [
    "RECORD_FORMAT",
    "SAVE_FORMAT",
    "SIGNATURE",
    "canonical",
    "make_record",
    "make_save",
    "sign",
    "signature_of",
    "signing_key",
    "unique_keys",
]

SIGNATURE = "hmac-sha256:"
"""The prefix of a signature (the ``"signature"`` field of a signed record or save)."""

RECORD_FORMAT = ("cardcore-record", 3)
"""The name and version of the record format (2: positions; 3: the :class:`~cardcore.Chance`
derivation). Versions 1 and 2 still replay, with the chance of their day; a game replayed
from one is recorded in version 2 again."""
SAVE_FORMAT = ("cardcore-save", 3)
"""The name and version of the saved-game format (3: the record inside may be of format 3;
versions 1 and 2 still load)."""


def make_record(game: Game) -> dict[str, Any]:
    """Build the record of *game* (called by :meth:`Game.record` under its lock)."""
    defaults = set(game.ruleset.game.default_rules)
    active = set(game.rules)
    times = recorded_times(game)
    state = game._state
    return {
        "format": RECORD_FORMAT[0],
        "format_version": RECORD_FORMAT[1] if getattr(state, "chance", CHANCE) == CHANCE else 2,
        "game": game.name,
        "game_version": game.ruleset.game.version,
        "rules": [{"name": r.name, "id": r.id, "version": r.version} for r in game.ruleset.rules],
        "without": sorted(defaults - active),
        "options": dict(game.options),
        "players": list(game.players),
        "seed": game.seed,
        "deck": None if game._deck_top is None else [str(c) for c in game._deck_top],
        "position": game._start_position,
        "actions": [[a.seat, str(a), times.get(i)] for i, a in enumerate(recorded(game))],
        "result": None if state.result is None else state.result.to_json(),
        "truncated": game._truncated is not None,
    }


def make_save(game: Game) -> dict[str, Any]:
    """Build a saved game: the record plus the state snapshot and version.

    :raises CorruptStateError: The state's cards are not the game's deck, each once (code
        outside every hook changed it: a plugin keeping the state it was shown); such a
        save would not load.
    """
    state = game._state
    held = sorted(map(id, chain.from_iterable(state.zones.cards)))
    deck = game.logic.deck(len(game.players), game.options)
    if held != sorted(map(id, deck)) and Counter(chain.from_iterable(state.zones.cards)) != Counter(
        deck
    ):
        msg = (
            f"the {game.name} game's cards are not its deck, each once ({len(held)} held, deck of"
            f" {len(deck)}): {_who_lost_cards(game, deck)}, and it cannot be saved"
        )
        raise CorruptStateError(msg)
    return {
        "format": SAVE_FORMAT[0],
        "format_version": SAVE_FORMAT[1],
        "record": make_record(game),
        "version": game.version,
        "state": game._state.snapshot(),
        "config": {
            "options": dict(game.options),
            "rules": list(game.rules),
            "players": list(game.players),
        },
    }


def _who_lost_cards(game: Game, deck: Any) -> str:
    """Which code made *game*'s cards differ from its *deck*: the first action whose replay
    does (the game's own ``apply`` or a hook it runs), the deal, or else code outside every hook."""
    from cardcore._driver import _deal_again, replay_one

    def whole(state: Any) -> bool:
        return Counter(chain.from_iterable(state.zones.cards)) == Counter(deck)

    try:
        state = _deal_again(game)
        if not whole(state):
            return f"game {game.name!r} dealt them so (its new_state, or a hook while dealing)"
        for i, action in enumerate(recorded(game)):
            replay_one(game.logic, state, action)
            if not whole(state):
                return (
                    f"action {i} ({action.seat}, {str(action)!r}) replayed makes them so: game"
                    f" {game.name!r}'s apply, or a hook it runs, lost or added a card"
                )
    except Exception:  # a diagnosis only: the record may not replay at all
        pass
    return "code outside its hooks changed the state (its record replays with every card)"


def canonical(data: Mapping[str, Any]) -> bytes:
    """The bytes a signature covers: *data* without its ``"signature"``, as sorted compact JSON.

    :raises CardcoreError: *data* is not JSON data.
    """
    body = {k: v for k, v in data.items() if k != "signature"}
    try:
        text = json.dumps(
            body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
        return text.encode("utf-8")  # a lone surrogate cannot be encoded: not JSON text either
    except (TypeError, ValueError, RecursionError) as exc:
        msg = f"not JSON data, so it cannot be signed or checked: {str(exc)[:200]}"
        raise CardcoreError(msg) from None


def signature_of(data: Mapping[str, Any], key: bytes | str) -> str:
    """The HMAC-SHA256 signature of *data* under *key* (``"hmac-sha256:"`` + hex digits).

    :raises ArgumentError: *key* is empty or not bytes or text.
    """
    return SIGNATURE + hmac.new(signing_key(key), canonical(data), hashlib.sha256).hexdigest()


def signing_key(key: object) -> bytes:
    """*key* as the bytes that sign (text in UTF-8), checked.

    :raises ArgumentError: *key* is empty or not bytes or text.
    """
    if isinstance(key, str):  # plain: a subclass could encode its own way
        key = str.__str__(key).encode("utf-8", "surrogatepass")  # any text is a key, as it was written
    if not isinstance(key, bytes | bytearray):
        msg = f"a signing key must be non-empty bytes (or text), not {type(key).__name__}"
        raise ArgumentError(msg)
    if not key:
        msg = "a signing key must not be empty (an empty key would sign for anyone)"
        raise ArgumentError(msg)
    return bytes(key)


def sign(data: dict[str, Any], key: bytes | str) -> dict[str, Any]:
    """Return *data* with its ``"signature"`` under *key* (see :func:`signature_of`)."""
    data["signature"] = signature_of(data, key)
    return data


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object read with each key once (``json.loads(text, object_pairs_hook=...)``).

    JSON leaves a key written twice open: ``json`` keeps the last value, so a
    signature would cover only that one while another reader took the first.

    :raises CorruptStateError: Naming the key written twice.
    """
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                msg = f"the key {shown(key, 40)} appears twice in one object"
                raise CorruptStateError(msg)
            seen.add(key)
    return out
