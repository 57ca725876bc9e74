"""Integrity review (2026-12-21): signed records and saves, provably fair deals, seat tokens
and stored sessions, attacked from the docs (security.rst "Saves and records", session.rst
"Seats, tokens and streams", "Provably fair deals", "What a resume checks", cli.rst
"cardcore verify").

Every deal here is fixed: games are dealt from fixed seeds, and fair deals from fixed
material (``FairDeal.fresh`` is replaced), so nothing depends on a random deal. Claims
that hold are pinned by passing tests; each bug is a strict xfail naming it.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import hmac
import json
import sqlite3
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import ArgumentError, CardcoreError, CorruptStateError
from cardcore.cli import main
from cardcore.session import (
    CorruptSessionError,
    FairDealError,
    MemoryStore,
    Session,
    SessionConfig,
    SQLiteStore,
    StoredSession,
    verify_bundle,
)
from cardcore.session import _integrity as integrity
from cardcore.session import fair as fairness
from cardcore.session import tokens as tokens_module
from cardcore.session.fair import FairDeal, commitment_of, seed_of
from cardcore.session.tokens import hash_token, token_matches

KEY = b"server key 2026-12-21"
SERVER_SEED = bytes(range(32))
SALT = bytes(range(100, 116))
ENTROPY = ["ann-entropy-1f", "bob-entropy-2g"]


def _golf(seed: int = 7, actions: int = 6, *, at: bool = False) -> cardcore.Game:
    """A Golf game of one round from *seed*, *actions* first legal actions played."""
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=seed, options={"rounds": 1})
    for i in range(actions):
        seat = game.to_act[0]
        text = str(game.legal_actions(seat)[0])
        game.act(seat, text, at=float(i) if at else None)
    return game


def _material() -> FairDeal:
    return FairDeal(SERVER_SEED, SALT, list(ENTROPY))


def _bundle(actions: int = 10) -> dict[str, Any]:
    """An honest bundle: the game dealt from the fixed material's seed."""
    deal = _material()
    game = _golf(deal.seed, actions)
    return deal.bundle("review-session", game.record())


def _fixed_fair(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fair sessions draw the fixed material (the deal is then fixed too)."""

    def fresh(cls: type[FairDeal], players: int) -> FairDeal:
        return cls(SERVER_SEED, SALT, [None] * players)

    monkeypatch.setattr(FairDeal, "fresh", classmethod(fresh))


def _welcome_token(out: list[Any]) -> str:
    return next(o.message for o in out if o.message["type"] == "welcome")["token"]


def _codes(out: list[Any]) -> list[str]:
    return [o.message["code"] for o in out if o.message["type"] == "error"]


# -- 1. signed records and saves -------------------------------------------------------------


def test_a_signature_does_not_move_between_records_saves_and_games() -> None:
    game, other = _golf(7), _golf(8)
    record, save = game.record(key=KEY), game.save(key=KEY)
    moved = dict(save, signature=record["signature"])
    with pytest.raises(CorruptStateError, match="bad signature"):
        cardcore.load(moved, key=KEY)
    with pytest.raises(CorruptStateError, match="not a cardcore record"):
        cardcore.replay(save, key=KEY)
    with pytest.raises(CorruptStateError, match="not a cardcore saved game"):
        cardcore.load(record, key=KEY)
    foreign = dict(other.record(), signature=record["signature"])  # another game's record
    with pytest.raises(CorruptStateError, match="bad signature"):
        cardcore.replay(foreign, key=KEY)
    inner = copy.deepcopy(save)  # the record inside a save is not signed on its own
    with pytest.raises(CorruptStateError, match="not signed"):
        cardcore.replay(inner["record"], key=KEY)


def _edits() -> dict[str, Any]:
    def seed_float(r: dict[str, Any]) -> None:
        r["seed"] = float(r["seed"])

    def time_int(r: dict[str, Any]) -> None:
        r["actions"][1][2] = 1  # 1.0 -> 1

    def minus_zero(r: dict[str, Any]) -> None:
        r["actions"][0][2] = -0.0

    def unknown_field(r: dict[str, Any]) -> None:
        r["comment"] = "harmless?"

    def older_format(r: dict[str, Any]) -> None:
        r["format_version"] = 2  # the chance derivation of its day: another deal

    def position_added(r: dict[str, Any]) -> None:
        r["position"] = "golf:"

    def deck_added(r: dict[str, Any]) -> None:
        r["deck"] = ["AS"]

    def deck_removed(r: dict[str, Any]) -> None:
        del r["deck"]

    def name_nfd(r: dict[str, Any]) -> None:
        r["players"][0] = "A\u0301nn"

    return {
        "seed_float": seed_float,
        "time_int": time_int,
        "minus_zero": minus_zero,
        "unknown_field": unknown_field,
        "older_format": older_format,
        "position_added": position_added,
        "deck_added": deck_added,
        "deck_removed": deck_removed,
        "name_nfd": name_nfd,
    }


@pytest.mark.parametrize("edit", sorted(_edits()))
def test_a_signed_record_survives_no_change_of_its_data(edit: str) -> None:
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7, options={"rounds": 1})
    game.act(0, "flip 0", at=0.0)
    game.act(0, "flip 1", at=1.0)
    record = game.record(key=KEY)
    cardcore.replay(copy.deepcopy(record), key=KEY)  # untouched: fine
    changed = copy.deepcopy(record)
    _edits()[edit](changed)
    with pytest.raises(CorruptStateError, match="bad signature"):
        cardcore.replay(changed, key=KEY)
    save = game.save(key=KEY)
    _edits()[edit](save["record"])
    with pytest.raises(CorruptStateError, match="bad signature"):
        cardcore.load(save, key=KEY)


def test_the_signature_is_checked_before_anything_is_replayed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    record = _golf().record(key=KEY)
    record["seed"] = 8

    def no_game(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("replayed before the signature was checked")

    monkeypatch.setattr(cardcore.records, "new_game", no_game)
    with pytest.raises(CorruptStateError, match="bad signature"):
        cardcore.replay(record, key=KEY)


def test_signatures_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Any, Any]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(cardcore.records.hmac, "compare_digest", spy)
    record = _golf().record(key=KEY)
    cardcore.replay(record, key=KEY)
    assert len(calls) == 1 and record["signature"].encode() in calls[0]


def test_without_a_key_a_signature_is_ignored_and_a_text_key_is_its_utf8_bytes() -> None:
    game = _golf()
    save = game.save(key="clé")
    assert cardcore.load(save).version == game.version
    assert cardcore.load(save, key="clé".encode()).version == game.version
    with pytest.raises(CorruptStateError, match="bad signature"):
        cardcore.load(save, key="cle\u0301")  # the same word, decomposed: another key


@pytest.mark.parametrize("key", ["", b"", 123])
def test_save_and_record_refuse_a_bad_key_as_an_argument_error(key: Any) -> None:
    game = _golf()
    with pytest.raises(ArgumentError, match="key"):
        game.save(key=key)
    with pytest.raises(ArgumentError, match="key"):
        game.record(key=key)


@pytest.mark.parametrize("signed", [True, False])
def test_load_and_replay_refuse_an_empty_key_as_an_argument_error(signed: bool) -> None:
    game = _golf()
    save = game.save(key=KEY) if signed else game.save()
    with pytest.raises(ArgumentError, match="empty"):
        cardcore.load(save, key="")
    record = game.record(key=KEY) if signed else game.record()
    with pytest.raises(ArgumentError, match="empty"):
        cardcore.replay(record, key=b"")


def test_signed_text_with_a_duplicate_key_is_refused() -> None:
    text = json.dumps(_golf().record(key=KEY))
    assert '"players": ["Ann", "Bob"]' in text
    forged = text.replace(
        '"players": ["Ann", "Bob"]', '"players": ["Eve", "Mal"], "players": ["Ann", "Bob"]'
    )
    with pytest.raises(CorruptStateError):
        cardcore.replay(forged, key=KEY)


def test_reformatted_signed_text_loads_the_signature_covers_the_data() -> None:
    # (security.rst says "changed in any byte of its content": the content is the data, not
    # the text; whitespace and key order are not content)
    save = _golf().save(key=KEY)
    text = json.dumps(save, indent=3, sort_keys=True)
    assert cardcore.load(text, key=KEY).version == 6
    assert cardcore.load(text.encode("utf-8"), key=KEY).version == 6


# -- 2. provably fair deals ------------------------------------------------------------------


def test_an_honest_bundle_verifies_and_its_seed_derives_from_every_seats_entropy() -> None:
    bundle = _bundle()
    report = verify_bundle(bundle, commitment_of(SERVER_SEED, SALT))
    assert report.seed == bundle["record"]["seed"] == seed_of(SERVER_SEED, ENTROPY)
    assert report.actions == 10 and report.shuffles >= 1
    expected = hashlib.sha256(b"cardcore-seed/1\0" + SERVER_SEED)
    for text in ENTROPY:
        data = text.encode("utf-8")
        expected.update(len(data).to_bytes(4, "big") + data)
    assert report.seed == int.from_bytes(expected.digest()[:16], "big")


def test_seat_entropy_is_length_prefixed_ordered_and_not_normalised() -> None:
    seeds = {
        seed_of(SERVER_SEED, ["ab", ""]),
        seed_of(SERVER_SEED, ["a", "b"]),
        seed_of(SERVER_SEED, ["", "ab"]),
        seed_of(SERVER_SEED, ["b", "a"]),
        seed_of(SERVER_SEED, ["\u00e9", ""]),
        seed_of(SERVER_SEED, ["e\u0301", ""]),
        seed_of(SERVER_SEED, ["a\0", "b"]),
        seed_of(SERVER_SEED, ["a", "\0b"]),
    }
    assert len(seeds) == 8
    assert seed_of(SERVER_SEED, [None, "x"]) == seed_of(SERVER_SEED, ["", "x"])  # as documented
    with pytest.raises(ArgumentError):
        seed_of(SERVER_SEED, ["\ud800"])
    with pytest.raises(ArgumentError):
        seed_of("00" * 32, ["x"])  # type: ignore[arg-type]


def _hostile() -> dict[str, Any]:
    def deep(n: int) -> Any:
        value: Any = []
        for _ in range(n):
            value = [value]
        return value

    return {
        "format_bool": (
            lambda b: b.__setitem__("format_version", True),
            CorruptStateError,
            "version",
        ),
        "salt_short": (lambda b: b.__setitem__("salt", "00"), CorruptStateError, "salt"),
        "seed_bytes": (
            lambda b: b.__setitem__("server_seed", SERVER_SEED),
            CorruptStateError,
            "server_seed",
        ),
        "commitment_int": (
            lambda b: b.__setitem__("commitment", 5),
            CorruptStateError,
            "commitment",
        ),
        "entropy_map": (
            lambda b: b.__setitem__("entropy", {"0": "x"}),
            CorruptStateError,
            "entropy",
        ),
        "entropy_count": (lambda b: b.__setitem__("entropy", ["x"]), CorruptStateError, "seats"),
        "record_list": (lambda b: b.__setitem__("record", []), CorruptStateError, "record"),
        "record_deep": (
            lambda b: b["record"].__setitem__("options", deep(10_000)),
            CorruptStateError,
            "nested",
        ),
        "record_seed_huge": (
            lambda b: b["record"].__setitem__("seed", 10**5000),
            FairDealError,
            "seed",
        ),
        "bundle_seed_text": (
            lambda b: b.__setitem__("seed", str(b["seed"])),
            FairDealError,
            "seed",
        ),
        "record_nan": (
            lambda b: b["record"].__setitem__("options", {"rounds": float("nan")}),
            CorruptStateError,
            "not finite",
        ),
        "deck_empty": (
            lambda b: b["record"].__setitem__("deck", []),
            FairDealError,
            "stacked deck",
        ),
        "position_empty": (
            lambda b: b["record"].__setitem__("position", ""),
            FairDealError,
            "position",
        ),
        "action_changed": (
            lambda b: b["record"]["actions"][-1].__setitem__(1, "flip 9"),
            CorruptStateError,
            "action",
        ),
        "result_claimed": (
            lambda b: b["record"].__setitem__("result", {"winners": [0], "reason": "rounds"}),
            CorruptStateError,
            "result",
        ),
    }


@pytest.mark.parametrize("case", sorted(_hostile()))
def test_a_hostile_bundle_gets_a_cardcore_error_naming_the_fault(case: str) -> None:
    edit, error, words = _hostile()[case]
    bundle = _bundle()
    edit(bundle)
    with pytest.raises(error, match=words):
        verify_bundle(bundle)


def test_a_bundle_that_is_no_mapping_is_refused() -> None:
    for value in (None, [], "{}", 5):
        with pytest.raises(CorruptStateError, match="JSON object"):
            verify_bundle(value)  # type: ignore[arg-type]


def test_one_commitment_verifies_only_one_deal() -> None:
    bundle = _bundle()
    verify_bundle(bundle, commitment_of(SERVER_SEED, SALT))
    legacy = copy.deepcopy(bundle)
    legacy["record"]["format_version"] = 2
    start = {k: v for k, v in bundle["record"].items()}
    start = dict(start, actions=[], result=None)
    dealt_now = cardcore.replay(start).save()["state"]["zones"]
    dealt_then = cardcore.replay(dict(start, format_version=2)).save()["state"]["zones"]
    assert dealt_now != dealt_then  # the two derivations deal different cards
    with pytest.raises(FairDealError):
        verify_bundle(legacy, commitment_of(SERVER_SEED, SALT))


def test_the_verification_report_shows_each_seats_entropy() -> None:
    report = verify_bundle(_bundle(), commitment_of(SERVER_SEED, SALT))
    text = "\n".join(report.lines())
    assert all(e in text for e in ENTROPY)


def test_cardcore_verify_exit_status_on_hostile_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases: dict[str, tuple[str, int]] = {}
    cases["deep"] = ("[" * 100_000 + "]" * 100_000, 2)
    seed_changed = _bundle()
    seed_changed["entropy"][1] = "eve"
    cases["entropy"] = (json.dumps(seed_changed), 1)
    action_changed = _bundle()
    action_changed["record"]["actions"][-1][1] = "flip 9"
    cases["action"] = (json.dumps(action_changed), 2)
    stacked = _bundle()
    stacked["record"]["deck"] = ["AS"]
    cases["stacked"] = (json.dumps(stacked), 1)
    cases["honest"] = (json.dumps(_bundle()), 0)
    for name, (text, status) in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        assert (
            main(["verify", str(path), "--commitment", commitment_of(SERVER_SEED, SALT)]) == status
        )
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err, name
        if status:
            assert len(err.splitlines()) == 1 and err.startswith("error: "), name


def _fair_session(
    monkeypatch: pytest.MonkeyPatch, store: Any = None
) -> tuple[Session, list[Any], dict[int, str]]:
    """A fair Golf session with seat entropy, both seats in, four actions played."""
    _fixed_fair(monkeypatch)
    config = SessionConfig(fair=True, seat_entropy=True)
    session = Session.create(
        "golf", ["Ann", "Bob"], now=0.0, options={"rounds": 1}, config=config, store=store
    )
    out: list[Any] = []

    def send(conn: str, message: dict[str, Any], now: float) -> list[Any]:
        got = session.handle(conn, json.dumps(message), now)
        out.extend(got)
        return got

    tokens = {0: _welcome_token(send("a", {"type": "join", "seat": 0, "entropy": ENTROPY[0]}, 1.0))}
    tokens[1] = _welcome_token(send("b", {"type": "join", "seat": 1}, 1.0))
    send("w", {"type": "watch"}, 1.0)
    assert session.phase == "waiting"  # the deal waits for seat 1's entropy
    send("b", {"type": "entropy", "value": ENTROPY[1]}, 2.0)
    assert session.phase == "playing" and session.game is not None
    game = session.game
    for i in range(4):
        seat = game.to_act[0]
        action = str(game.legal_actions(seat)[0])
        send("ab"[seat], {"type": "act", "action": action, "seen": game.version}, 3.0 + i)
    send("a", {"type": "history"}, 9.0)
    send("a", {"type": "record"}, 9.0)
    send("b", {"type": "act", "action": "flip 99", "seen": game.version}, 9.0)
    send("b", {"type": "entropy", "value": "late"}, 9.0)
    return session, out, tokens


def test_nothing_reveals_the_server_seed_salt_or_seed_before_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session, out, _ = _fair_session(monkeypatch)
    assert session.fair is not None and session.fair.entropy == ENTROPY
    secrets = (SERVER_SEED.hex(), SALT.hex(), str(seed_of(SERVER_SEED, ENTROPY)))
    kinds = {o.message["type"] for o in out}
    assert {"welcome", "lobby", "view", "update", "history", "error"} <= kinds
    for o in out:
        assert not any(s in o.text for s in secrets), o.message["type"]
    assert _codes(out)[-3:] == ["not-over", "illegal", "entropy-refused"]
    assert session.record() is None and session.fair_bundle() is None
    commitment = next(o.message for o in out if o.message["type"] == "welcome")["commitment"]
    ended = session.end(20.0)
    bundles = [o.message["bundle"] for o in ended if o.message["type"] == "reveal"]
    assert len(bundles) == 3 and bundles[0]["entropy"] == ENTROPY
    report = verify_bundle(bundles[0], commitment)
    assert report.seed == seed_of(SERVER_SEED, ENTROPY) == session.game.seed


# -- 3. seat tokens and stored sessions ------------------------------------------------------


def test_a_token_opens_only_its_own_seat_and_session() -> None:
    first = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, session_id="first-session")
    second = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, session_id="second-session")
    tokens = {}
    for name, session in (("first", first), ("second", second)):
        for seat in (0, 1):
            out = session.handle(f"{name}{seat}", json.dumps({"type": "join", "seat": seat}), 1.0)
            tokens[name, seat] = _welcome_token(out)
    attempts = [
        (first, 1, tokens["first", 0]),
        (first, 0, tokens["second", 0]),
        (second, 1, tokens["first", 1]),
    ]
    for session, seat, token in attempts:
        out = session.handle(
            "thief", json.dumps({"type": "join", "seat": seat, "token": token}), 2.0
        )
        assert _codes(out) == ["bad-token"]
        assert not any(token in o.text for o in out)  # never echoed
    assert "thief" not in first.conns and "thief" not in second.conns
    out = first.handle(
        "back", json.dumps({"type": "join", "seat": 0, "token": tokens["first", 0]}), 3.0
    )
    assert _codes(out) == [] and first.conns["back"].seat == 0
    assert "token" not in next(o.message for o in out if o.message["type"] == "welcome")


def test_token_hashes_are_bound_and_compared_in_constant_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    token = "t" * 43
    digests = {
        hash_token(token, "s", 0),
        hash_token(token, "s", 1),
        hash_token(token, "t", 0),
        hash_token(token),
        hash_token(token, "s\x000", 0),
    }
    assert len(digests) == 5
    calls: list[Any] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(tokens_module.hmac, "compare_digest", spy)
    assert token_matches(token, hash_token(token, "s", 0), "s", 0)
    assert not token_matches(token, hash_token(token, "s", 0), "s", 1)
    assert len(calls) == 2


def _sql(path: Path, query: str, *args: Any) -> list[Any]:
    db = sqlite3.connect(path, isolation_level=None)
    try:
        return db.execute(query, args).fetchall()
    finally:
        db.close()


def _meta(path: Path, session_id: str) -> dict[str, Any]:
    return json.loads(_sql(path, "SELECT meta FROM sessions WHERE id = ?", session_id)[0][0])


def _set_meta(path: Path, session_id: str, meta: dict[str, Any]) -> None:
    _sql(path, "UPDATE sessions SET meta = ? WHERE id = ?", json.dumps(meta), session_id)


def _edit_fair(field: str) -> Any:
    def edit(meta: dict[str, Any]) -> None:
        if field == "server_seed":
            meta["fair"]["server_seed"] = "11" * 32
        elif field == "entropy":
            meta["fair"]["entropy"][1] = "eve"
        elif field == "chance":
            meta["chance"] = 2

    return edit


@pytest.mark.parametrize("field", ["server_seed", "entropy", "chance"])
def test_a_fair_sessions_stored_material_edited_is_refused(
    field: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "fair.db"
    session, _, _ = _fair_session(monkeypatch, SQLiteStore(path))
    assert Session.resume(SQLiteStore(path), session.id, now=30.0).game.version == 4
    meta = _meta(path, session.id)
    _edit_fair(field)(meta)
    _set_meta(path, session.id, meta)
    with pytest.raises(CorruptSessionError, match="meta differs"):
        Session.resume(SQLiteStore(path), session.id, now=30.0)


def test_a_sessions_rows_copied_under_another_id_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "copy.db"
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=SQLiteStore(path))
    for seat in (0, 1):
        session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), 1.0)
    session.handle("c0", json.dumps({"type": "act", "action": "flip 0", "seen": 0}), 2.0)
    sid = session.id
    _sql(
        path,
        "INSERT INTO sessions SELECT 'copy', status, created, updated, meta FROM sessions WHERE id = ?",
        sid,
    )
    for table, columns in (
        ("actions", "idx, seat, notation, at"),
        ("tokens", "seat, digest, expires"),
    ):
        _sql(
            path,
            f"INSERT INTO {table} SELECT 'copy', {columns} FROM {table} WHERE session = ?",
            sid,
        )
    with pytest.raises(CorruptSessionError, match="'copy'"):
        Session.resume(SQLiteStore(path), "copy", now=5.0)
    assert Session.resume(SQLiteStore(path), sid, now=5.0).game.version == 1


def test_a_hash_copied_to_another_seat_opens_nothing_even_with_the_digests_recomputed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "forged.db"
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=SQLiteStore(path))
    tokens = {}
    for seat in (0, 1):
        out = session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), 1.0)
        tokens[seat] = _welcome_token(out)
    sid = session.id
    (digest,) = _sql(path, "SELECT digest FROM tokens WHERE session = ? AND seat = 0", sid)[0]
    _sql(path, "UPDATE tokens SET digest = ? WHERE session = ? AND seat = 1", digest, sid)
    with pytest.raises(CorruptSessionError, match="token rows"):
        Session.resume(SQLiteStore(path), sid, now=5.0)
    # a forger who also writes the digests: the row still names seat 0 inside its hash
    stored = SQLiteStore(path).load(sid)
    assert stored is not None
    meta = dict(stored.meta)
    meta.pop(integrity.KEY)
    chain = [integrity.start(sid)]
    for seat, text, at in stored.actions:
        chain.append(integrity.link(chain[-1], seat, text, at))
    _set_meta(path, sid, integrity.seal(meta, sid, chain, stored.tokens))
    resumed = Session.resume(SQLiteStore(path), sid, now=5.0)
    out = resumed.handle("thief", json.dumps({"type": "join", "seat": 1, "token": tokens[0]}), 6.0)
    assert _codes(out) == ["bad-token"]


class _TextStore(MemoryStore):
    """A store that hands rows back as text keeps them (a key-value or JSON-file store)."""

    def load(self, session_id: str) -> StoredSession | None:
        stored = super().load(session_id)
        if stored is not None:
            stored.tokens = [dataclasses.replace(t, seat=str(t.seat)) for t in stored.tokens]
        return stored


def test_a_token_row_whose_seat_is_not_an_int_is_refused_or_keeps_the_seat() -> None:
    store = _TextStore()
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=store)
    for seat in (0, 1):
        session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), 1.0)
    try:
        resumed = Session.resume(store, session.id, now=5.0)
    except CorruptSessionError:
        return  # refused: fine
    out = resumed.handle("thief", json.dumps({"type": "join", "seat": 0}), 6.0)
    assert _codes(out) == ["seat-taken"]


def test_a_resume_refusal_is_a_cardcore_error_and_names_no_token(tmp_path: Path) -> None:
    path = tmp_path / "gone.db"
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=SQLiteStore(path))
    out = session.handle("c0", json.dumps({"type": "join", "seat": 0}), 1.0)
    token = _welcome_token(out)
    _sql(path, "UPDATE tokens SET expires = 5.0 WHERE session = ?", session.id)
    with pytest.raises(CorruptSessionError) as info:
        Session.resume(SQLiteStore(path), session.id, now=5.0)
    assert isinstance(info.value, CardcoreError) and token not in str(info.value)
    assert "token rows" in str(info.value)


def test_the_fair_deal_material_is_not_in_its_repr() -> None:
    deal = _material()
    text = repr(deal)
    assert repr(SERVER_SEED) not in text and SERVER_SEED.hex() not in text
    assert repr(SALT) not in text and SALT.hex() not in text


def test_token_rows_keep_only_the_bound_hash(tmp_path: Path) -> None:
    path = tmp_path / "hash.db"
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=SQLiteStore(path))
    out = session.handle("c0", json.dumps({"type": "join", "seat": 0}), 1.0)
    token = _welcome_token(out)
    rows = _sql(path, "SELECT seat, digest FROM tokens WHERE session = ?", session.id)
    assert rows == [(0, hash_token(token, session.id, 0))]
    dump = "\n".join(
        str(r) for t in ("sessions", "tokens", "messages") for r in _sql(path, f"SELECT * FROM {t}")
    )
    assert token not in dump


def test_commitment_and_fair_module_constants_match_the_docs() -> None:
    assert (
        fairness.commitment_of(SERVER_SEED, SALT)
        == hashlib.sha256(b"cardcore-fair/2\0" + bytes([3]) + SERVER_SEED + SALT).hexdigest()
    )
    assert (  # the format-1 commitment of sessions made before bundle format 2
        fairness.commitment_of(SERVER_SEED, SALT, None)
        == hashlib.sha256(b"cardcore-fair/1\0" + SERVER_SEED + SALT).hexdigest()
    )
    assert fairness.SEED_BYTES == 32 and fairness.SALT_BYTES == 16


def test_a_replaced_token_is_shut_out_and_tokens_expire_after_the_game() -> None:
    config = SessionConfig(token_ttl=100.0)
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, config=config)
    old = _welcome_token(session.handle("c0", json.dumps({"type": "join", "seat": 0}), 1.0))
    session.handle("c1", json.dumps({"type": "join", "seat": 1}), 1.0)
    new = session.issue_token(0, 2.0, replace=True)
    assert new != old and "c0" not in session.conns
    out = session.handle("x", json.dumps({"type": "join", "seat": 0, "token": old}), 3.0)
    assert _codes(out) == ["bad-token"]
    session.end(4.0)
    assert session.phase == "over"
    out = session.handle("y", json.dumps({"type": "join", "seat": 0, "token": new}), 103.0)
    assert _codes(out) == []
    out = session.handle("z", json.dumps({"type": "join", "seat": 0, "token": new}), 104.0)
    assert _codes(out) == ["token-expired"]


class _Sly(Mapping[str, Any]):
    """A record mapping that hides its stacked deck from the first look only."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data, self.asked = data, 0

    def __getitem__(self, key: str) -> Any:
        if key == "deck":
            self.asked += 1
            if self.asked == 1:
                raise KeyError(key)
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


def test_verify_bundle_reads_a_record_mapping_once() -> None:
    deal = _material()
    game = cardcore.new_game(
        "golf", ["Ann", "Bob"], seed=deal.seed, options={"rounds": 1}, deck=["AS", "AH", "AD"]
    )
    bundle = deal.bundle("review-session", game.record())
    with pytest.raises(FairDealError, match="stacked deck"):
        verify_bundle(bundle)
    bundle["record"] = _Sly(game.record())
    # read once: the first read raises, so the mapping is refused as unreadable (never verified)
    with pytest.raises((FairDealError, CorruptStateError), match=r"stacked deck|could not be read"):
        verify_bundle(bundle)
