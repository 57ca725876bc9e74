"""Provably fair deals: a commitment before the deal, the proof after the game.

At creation the session draws a secret *server seed* (32 random bytes) and a
*salt* (16 random bytes) and publishes the commitment::

    commitment = sha256(b"cardcore-fair/2\\0" + chance + server_seed + salt)   (hex)

where ``chance`` is one byte, the chance derivation the game deals with
(:data:`cardcore.CHANCE`): records of formats 1 and 2 deal otherwise from the
same seed, so the commitment fixes which, before any seat sends entropy.
(Sessions created before bundle format 2 published
``sha256(b"cardcore-fair/1\\0" + server_seed + salt)``, which fixes none: their
bundles, format 1, still verify, and the report says the derivation was not fixed.)

Seats may then send entropy of their own (any text up to 128 characters)
before the deal. The game's seed is derived from both::

    seed = int(sha256(b"cardcore-seed/1\\0" + server_seed
                      + len(e0) + e0 + len(e1) + e1 + ...)[:16])    (128 bits)

where each ``e`` is a seat's entropy in UTF-8 (empty if it sent none) and
``len`` its length as 4 big-endian bytes. Every shuffle of the game comes
from that seed (:class:`cardcore.Chance`), so the server cannot pick the
deal after seeing the seats' entropy, and no seat can steer it without knowing
the server seed.

When the game ends the session reveals a *bundle*::

    {"format": "cardcore-fair-deal", "format_version": 2, "session": ...,
     "commitment": ..., "server_seed": hex, "salt": hex, "chance": 3,
     "entropy": [text or null per seat], "seed": int, "record": {...}}

and ``cardcore verify BUNDLE`` (:func:`verify_bundle`) checks the commitment,
derives the seed, checks it is the record's and that the record deals with the
committed chance derivation, and replays the record, which recomputes every
shuffle from the seed and checks every action and the result. Its report lists
each seat's entropy: a seat checks that its own is there (else the server put
entropy of its choosing in its place, and the seed with it).
Games started from ``deck=`` or ``position=`` have cards placed by the server,
so they are refused a commitment (:class:`FairDealError`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardcore._text import counted, kind_of, shown
from cardcore.deck import CHANCE, LEGACY_CHANCE
from cardcore.errors import ArgumentError, CardcoreError, CorruptStateError
from cardcore.records import RECORD_VERSIONS, _plain, replay

__all__ = [
    "BUNDLE_FORMAT",
    "FairDeal",
    "FairDealError",
    "FairReport",
    "commitment_of",
    "seed_of",
    "verify_bundle",
]

BUNDLE_FORMAT = ("cardcore-fair-deal", 2)
"""The name and version of a fair-deal bundle (sessions write version 2)."""
BUNDLE_VERSIONS = (1, 2)
"""Bundle versions :func:`verify_bundle` reads: 1, whose commitment fixes no chance derivation, and 2."""

_COMMIT_TAG = b"cardcore-fair/1\0"
_COMMIT_TAG_2 = b"cardcore-fair/2\0"
_CHANCES = (LEGACY_CHANCE, CHANCE)
_SEED_TAG = b"cardcore-seed/1\0"
SEED_BYTES = 32
SALT_BYTES = 16
MAX_ENTROPY = 128
"""The longest entropy a seat may send (characters), as the session's protocol reads it."""


class FairDealError(CardcoreError):
    """A fair deal that cannot be made (a stacked deck, a position) or does not verify."""


def commitment_of(server_seed: bytes, salt: bytes, chance: int | None = CHANCE) -> str:
    """Return the commitment (hex SHA-256) to *server_seed*, *salt* and the *chance* derivation.

    :param chance: The chance derivation the game deals with (:data:`cardcore.CHANCE`, or
        2 for the derivation of records of formats 1 and 2); ``None``: the format-1
        commitment of older sessions, which fixes none.
    :raises ArgumentError: For a *chance* that is none of these.
    """
    if chance is None:
        return hashlib.sha256(_COMMIT_TAG + server_seed + salt).hexdigest()
    if type(chance) is not int or chance not in _CHANCES:
        raise ArgumentError(f"chance must be one of {list(_CHANCES)} or None, not {shown(chance)}")
    return hashlib.sha256(_COMMIT_TAG_2 + bytes((chance,)) + server_seed + salt).hexdigest()


def seed_of(server_seed: bytes, entropy: Sequence[str | None]) -> int:
    """Return the game's seed (128 bits) from *server_seed* and each seat's *entropy*.

    :raises ArgumentError: For a *server_seed* that is not bytes, or *entropy* that is not
        a list of texts (UTF-8 can encode) or ``None``.
    """
    if not (isinstance(server_seed, bytes) and isinstance(entropy, list | tuple)):
        raise ArgumentError(f"seed_of takes bytes and a list of entropy, not {shown(server_seed)}, {shown(entropy)}")
    if not all(e is None or _utf8(e) for e in entropy):
        raise ArgumentError(f"each seat's entropy must be text (UTF-8) or None, not {shown(entropy)}")
    h = hashlib.sha256(_SEED_TAG + server_seed)
    for text in entropy:
        data = (text or "").encode("utf-8")
        h.update(len(data).to_bytes(4, "big"))
        h.update(data)
    return int.from_bytes(h.digest()[:16], "big")


@dataclass
class FairDeal:
    """The secret material of one fair deal (held by the server until the end).

    :param server_seed: 32 secret bytes (left out of the ``repr``, as the salt: a host
        that logs the material must not reveal the deal).
    :param salt: 16 secret bytes.
    :param entropy: Per seat, the entropy it sent (``None``: none yet).
    :param chance: The chance derivation the commitment fixes (``None``: material of a
        session created before bundle format 2, whose commitment fixes none).
    """

    server_seed: bytes = field(repr=False)
    salt: bytes = field(repr=False)
    entropy: list[str | None]
    chance: int | None = CHANCE

    @classmethod
    def fresh(cls, players: int) -> FairDeal:
        """Draw a new server seed and salt from the operating system.

        :raises ArgumentError: For *players* that is not an int from 1 to 64.
        """
        if not (type(players) is int and 1 <= players <= 64):
            raise ArgumentError(f"players must be an int from 1 to 64, not {shown(players)}")
        return cls(
            secrets.token_bytes(SEED_BYTES), secrets.token_bytes(SALT_BYTES), [None] * players
        )

    @property
    def commitment(self) -> str:
        """The published commitment."""
        return commitment_of(self.server_seed, self.salt, self.chance)

    @property
    def format(self) -> int:
        """The commitment's (and the bundle's) format: 2, or 1 for material of a session created
        before bundle format 2 (published beside the commitment, so a seat knows what to expect)."""
        return 1 if self.chance is None else BUNDLE_FORMAT[1]

    @property
    def seed(self) -> int:
        """The game's seed from the server seed and the entropy sent so far."""
        return seed_of(self.server_seed, self.entropy)

    def to_json(self) -> dict[str, Any]:
        """Return the material as JSON-ready data (privileged until the game ends)."""
        return {
            "server_seed": self.server_seed.hex(),
            "salt": self.salt.hex(),
            "entropy": list(self.entropy),
            "chance": self.chance,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> FairDeal:
        """Read material written by :meth:`to_json`.

        :raises CorruptStateError: For data that is not such material.
        """
        if not isinstance(data, Mapping):
            raise CorruptStateError(f"fair-deal material must be a mapping, not {shown(data)}")
        entropy = data.get("entropy")
        if not isinstance(entropy, list) or not all(e is None or _utf8(e) for e in entropy):
            raise CorruptStateError("fair-deal field 'entropy' must list each seat's entropy (text or null)")
        chance = data.get("chance")  # (material stored before bundle format 2 has none)
        if chance is not None and (type(chance) is not int or chance not in _CHANCES):
            raise CorruptStateError(f"fair-deal field 'chance' must be one of {list(_CHANCES)} or null, not {shown(chance)}")
        return cls(
            _hex(data, "server_seed", SEED_BYTES, "fair-deal"), _hex(data, "salt", SALT_BYTES, "fair-deal"), list(entropy),
            chance,
        )

    def bundle(self, session: str, record: Mapping[str, Any]) -> dict[str, Any]:
        """Return the bundle revealed at the end (see the module docstring)."""
        data: dict[str, Any] = {
            "format": BUNDLE_FORMAT[0],
            "format_version": self.format,
            "session": session,
            "commitment": self.commitment,
            "server_seed": self.server_seed.hex(),
            "salt": self.salt.hex(),
        }
        if self.chance is not None:
            data["chance"] = self.chance
        data.update(entropy=list(self.entropy), seed=self.seed, record=dict(record))
        return data


@dataclass(frozen=True)
class FairReport:
    """What :func:`verify_bundle` checked.

    :param game: The game's name.
    :param players: The display names.
    :param actions: Actions replayed.
    :param shuffles: Chance events (shuffles) recomputed from the seed.
    :param commitment: The commitment that matched.
    :param seed: The seed derived and found in the record.
    :param result: The result the record replays to (``None``: not over).
    :param entropy: Each seat's entropy the seed was derived from (``""`` or ``None``:
        none sent): each seat checks that its own is there.
    :param chance: The chance derivation the commitment fixed (``None``: a format-1
        bundle, whose commitment fixes none; the record's format chose it).
    """

    game: str
    players: tuple[str, ...]
    actions: int
    shuffles: int
    commitment: str
    seed: int
    result: Mapping[str, Any] | None
    entropy: tuple[str | None, ...] = ()
    chance: int | None = None

    def lines(self) -> list[str]:
        """The report as lines of text, for ``cardcore verify``."""
        result = (
            "not over"
            if self.result is None
            else (f"winners {list(self.result['winners'])} ({self.result['reason']})")
        )
        fixed = (
            f" and chance derivation {self.chance} (a format-2 bundle)"
            if self.chance is not None
            else " (a format-1 bundle: its commitment fixes no chance derivation)"
        )
        names = list(self.players) + [""] * (len(self.entropy) - len(self.players))
        return [
            f"commitment {self.commitment}: matches sha256 of the revealed server seed and salt{fixed}",
            f"seed {self.seed}: derived from the server seed and every seat's entropy; the record's",
            *(["entropy the seed was derived from (each seat: check that yours is the one you sent):"] if self.entropy else []),
            *(
                f"  seat {seat} ({name}): {shown(text, 12 * MAX_ENTROPY) if text else 'none sent'}"
                for seat, (name, text) in enumerate(zip(names, self.entropy, strict=False))
            ),
            f"deal: {self.shuffles} shuffle(s) recomputed from the seed; {self.actions} action(s) replayed",
            f"verified: {self.game}, {counted(len(self.players), 'player')} ({', '.join(self.players)}); {result}",
        ]


def _hex(bundle: Mapping[str, Any], key: str, size: int, what: str = "bundle") -> bytes:
    value = bundle.get(key)
    try:
        data = bytes.fromhex(value) if isinstance(value, str) else None
    except ValueError:
        data = None
    if data is None or len(data) != size:
        msg = f"{what} field {key!r} must be {size} bytes in hex, not {shown(value)}"
        raise CorruptStateError(msg)
    return data


def _utf8(text: Any) -> bool:
    """Whether *text* is text that UTF-8 can encode (no lone surrogate)."""
    if not isinstance(text, str):
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def verify_bundle(bundle: Mapping[str, Any], commitment: str | None = None) -> FairReport:
    """Check a fair-deal bundle: commitment, seed, every shuffle and every action.

    :param bundle: The bundle the session revealed at the end.
    :param commitment: The commitment a player noted at the start, if any; it
        must equal the bundle's.
    :raises CorruptStateError: The bundle or its record is malformed, or the
        record does not replay.
    :raises FairDealError: The commitment, the seed or the deal does not match.
    """
    if not isinstance(bundle, Mapping):
        msg = f"a fair-deal bundle is a JSON object, not {kind_of(bundle)}"
        raise CorruptStateError(msg)
    if type(bundle) is not dict:  # a mapping of the caller's own: read once, as plain data
        bundle = _plain(bundle, "fair-deal bundle")
    version = bundle.get("format_version")
    if type(bundle.get("format")) is not str or bundle["format"] != BUNDLE_FORMAT[0] or type(version) is not int or version not in BUNDLE_VERSIONS:
        msg = (
            f"not a fair-deal bundle (format {shown(bundle.get('format'), 40)} version"
            f" {shown(bundle.get('format_version'), 40)}; expected {BUNDLE_FORMAT[0]!r} version 1 or 2)"
        )
        raise CorruptStateError(msg)
    chance = bundle.get("chance")
    if version == 1:
        chance = None  # (a format-1 commitment fixes no chance derivation)
    elif type(chance) is not int or chance not in _CHANCES:
        msg = f"bundle field 'chance' must be one of {list(_CHANCES)}, not {shown(chance, 40)}"
        raise CorruptStateError(msg)
    server_seed = _hex(bundle, "server_seed", SEED_BYTES)
    salt = _hex(bundle, "salt", SALT_BYTES)
    claimed = bundle.get("commitment")
    if not isinstance(claimed, str):
        msg = "bundle field 'commitment' must be hex text"
        raise CorruptStateError(msg)
    listed = bundle.get("entropy")  # read once, as plain text: checked, derived from and shown
    entropy: list[str | None] | None = None
    if isinstance(listed, list):  # (list.copy: the items themselves, not a subclass's __iter__)
        entropy = [e if e is None or not isinstance(e, str) else str.__str__(e) for e in list.copy(listed)]
    if entropy is None or not all(e is None or (_utf8(e) and len(e) <= MAX_ENTROPY) for e in entropy):
        msg = f"bundle field 'entropy' must list each seat's entropy (text of at most {MAX_ENTROPY} characters, or null)"
        raise CorruptStateError(msg)
    record = bundle.get("record")
    if not isinstance(record, Mapping):
        msg = "bundle field 'record' must be the game's record"
        raise CorruptStateError(msg)
    if type(record) is not dict:  # checked below and replayed: the same data both times
        record = _plain(record, "the bundle's record")
    if commitment is not None and not isinstance(commitment, str):
        msg = f"the commitment you noted must be hex text, not {type(commitment).__name__}"
        raise CorruptStateError(msg)
    actual = commitment_of(server_seed, salt, chance)
    mine = actual.encode()  # compared as bytes: hmac refuses text that is not ASCII
    if not hmac.compare_digest(mine, claimed.lower().encode("utf-8", "replace")):
        also = "" if chance is None else f" and chance derivation {chance}"
        msg = f"the commitment {claimed[:80]!r} is not sha256 of the revealed server seed and salt{also} ({actual})"
        raise FairDealError(msg)
    if commitment is not None:
        noted = commitment.strip()
        if not hmac.compare_digest(noted.lower().encode("utf-8", "replace"), mine):
            msg = f"the bundle's commitment {actual} is not the one you noted ({noted[:80]!r})"
            raise FairDealError(msg)
    players = record.get("players")
    if not isinstance(players, list) or len(players) != len(entropy):
        msg = "the bundle lists entropy for a different number of seats than its record"
        raise CorruptStateError(msg)
    if record.get("deck") is not None or record.get("position") is not None:
        msg = "the record starts from a stacked deck or a position: its cards were placed, not shuffled"
        raise FairDealError(msg)
    seed = seed_of(server_seed, entropy)
    if type(record.get("seed")) is not int or record["seed"] != seed:
        msg = f"the record's seed {shown(record.get('seed'), 40)} is not the one the revealed material gives ({seed})"
        raise FairDealError(msg)
    if type(bundle.get("seed")) is not int or bundle["seed"] != seed:
        msg = f"the bundle's seed {shown(bundle.get('seed'), 40)} is not the one the revealed material gives ({seed})"
        raise FairDealError(msg)
    dealt = record.get("format_version")  # (replay refuses one that is no version)
    if chance is not None and type(dealt) is int and dealt in RECORD_VERSIONS and (CHANCE if dealt >= 3 else LEGACY_CHANCE) != chance:
        msg = (
            f"the record (format {dealt}) deals with chance derivation {CHANCE if dealt >= 3 else LEGACY_CHANCE},"
            f" not the {chance} the commitment fixes: the same seed deals other cards"
        )
        raise FairDealError(msg)
    game = replay(record)  # recomputes every shuffle from the seed; raises CorruptStateError
    result = None if game.result is None else game.result.to_json()
    return FairReport(
        game=game.name,
        players=game.players,
        actions=game.version,
        shuffles=game.state.draws,
        commitment=actual,
        seed=seed,
        result=result,
        entropy=tuple(entropy),
        chance=chance,
    )


def refuse_placed(deck: object, position: object) -> None:
    """Raise :class:`FairDealError` for a fair deal asked of a game from ``deck=`` or ``position=``."""
    if deck is not None or position is not None:
        where = "deck=" if deck is not None else "position="
        msg = (
            f"a fair-deal commitment needs a shuffled deal, but this game starts from {where}"
            " (the server placed its cards); drop fair=True or start from a shuffle"
        )
        raise FairDealError(msg)
