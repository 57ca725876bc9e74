"""Review of d4c73eb, 546c84e and 9920a40 (2026-12-21): fair-deal bundle format 2, JSON
text with a key written twice, signing keys, token rows of the wrong kind, AsyncHost ids,
the turn-based stale path reading text on a clone, the not-started message.

Every deal is fixed: fair material is fixed bytes (``FairDeal.fresh`` replaced), games
are dealt from fixed seeds. Claims that hold are pinned by passing tests; each bug is a
strict xfail naming it.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import ArgumentError, CorruptStateError
from cardcore.cli import main
from cardcore.session import (
    CorruptSessionError,
    FairDealError,
    Hub,
    MemoryStore,
    Mirror,
    Session,
    SessionConfig,
    StoredSession,
    verify_bundle,
)
from cardcore.session import _integrity as integrity
from cardcore.session.aio import AsyncHost
from cardcore.session.fair import FairDeal, commitment_of

SERVER_SEED = bytes(range(7, 39))
SALT = bytes(range(200, 216))


def _fixed_fair(monkeypatch: pytest.MonkeyPatch) -> None:
    def fresh(cls: type[FairDeal], players: int) -> FairDeal:
        return cls(SERVER_SEED, SALT, [None] * players)

    monkeypatch.setattr(FairDeal, "fresh", classmethod(fresh))


def _messages(out: list[Any], kind: str) -> list[Mapping[str, Any]]:
    return [o.message for o in out if o.message["type"] == kind]


def _codes(out: list[Any]) -> list[str]:
    return [m["code"] for m in _messages(out, "error")]


def _golf_bundle(entropy: list[str | None], chance: int | None = cardcore.CHANCE) -> dict[str, Any]:
    deal = FairDeal(SERVER_SEED, SALT, list(entropy), chance)
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=deal.seed, options={"rounds": 1})
    for _ in range(4):
        seat = game.to_act[0]
        game.act(seat, str(game.legal_actions(seat)[0]))
    return deal.bundle("review", game.record())


def _cli_verify(tmp_path: Path, data: Any, *extra: str, text: str | None = None) -> int:
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(data) if text is None else text, encoding="utf-8")
    return main(["verify", str(path), *extra])


# -- 1. old stored sessions keep their commitment and their bundles verify -----------------


class _Older(MemoryStore):
    """Hands a session back as the cardcore before bundle format 2 stored it: fair material
    with no ``chance`` (meta format 3 sealed again, or meta format 2 without digests)."""

    def __init__(self, meta_format: int) -> None:
        super().__init__()
        self.meta_format = meta_format

    def load(self, session_id: str) -> StoredSession | None:
        stored = super().load(session_id)
        if stored is None:
            return None
        meta = copy.deepcopy(dict(stored.meta))
        meta.pop(integrity.KEY)
        meta["fair"].pop("chance")
        if self.meta_format == 2:
            meta["format_version"] = 2
            meta.pop("unbound_tokens", None)
            return dataclasses.replace(stored, meta=meta)
        chain = [integrity.start(session_id)]
        for seat, text, at in stored.actions:
            chain.append(integrity.link(chain[-1], seat, text, at))
        return dataclasses.replace(
            stored, meta=integrity.seal(meta, session_id, chain, stored.tokens)
        )


def _pick(game: cardcore.Game, seat: int) -> str:
    legal = [str(a) for a in game.legal_actions(seat)]
    for start in ("knock", "replace", "flip"):
        for text in legal:
            if text.startswith(start):
                return text
    return legal[0]


@pytest.mark.parametrize("meta_format", [2, 3])
def test_an_older_fair_session_resumes_with_its_commitment_and_its_bundle_verifies(
    meta_format: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _fixed_fair(monkeypatch)
    store = _Older(meta_format)
    config = SessionConfig(fair=True, seat_entropy=True)
    session = Session.create(
        "golf", ["Ann", "Bob"], now=0.0, store=store, config=config, options={"rounds": 1}
    )
    tokens = {}
    for seat in (0, 1):
        join = {"type": "join", "seat": seat, "entropy": f"dice {seat}"}
        out = session.handle(f"c{seat}", json.dumps(join), 1.0)
        tokens[seat] = _messages(out, "welcome")[0]["token"]
    older = commitment_of(SERVER_SEED, SALT, None)  # what that cardcore published
    resumed = Session.resume(store, session.id, now=5.0)
    assert resumed.commitment == older and resumed.fair is not None and resumed.fair.chance is None
    if meta_format == 2:  # (its token rows hold hashes of that format: played on below in format 3)
        return
    for seat in (0, 1):
        out = resumed.handle(
            f"d{seat}", json.dumps({"type": "join", "seat": seat, "token": tokens[seat]}), 6.0
        )
        assert _messages(out, "welcome")[0]["commitment"] == older
    now, bundles = 7.0, []
    game = resumed.game
    assert game is not None
    while not game.is_over:
        seat = game.to_act[0]
        act = {"type": "act", "action": _pick(game, seat), "seen": game.version}
        out = resumed.handle(f"d{seat}", json.dumps(act), now)
        assert not _codes(out)
        bundles += [m["bundle"] for m in _messages(out, "reveal")]
        now += 1.0
    bundle = json.loads(json.dumps(bundles[0]))
    assert bundle["format_version"] == 1 and "chance" not in bundle
    report = verify_bundle(bundle, older)
    assert report.chance is None and report.entropy == ("dice 0", "dice 1")
    assert "fixes no chance derivation" in report.lines()[0]
    assert _cli_verify(tmp_path, bundle, "--commitment", older) == 0


class _Downgraded(MemoryStore):
    """A store whose fair material lost its ``chance`` without the digests written again."""

    def load(self, session_id: str) -> StoredSession | None:
        stored = super().load(session_id)
        if stored is None:
            return None
        meta = copy.deepcopy(dict(stored.meta))
        meta["fair"]["chance"] = None
        return dataclasses.replace(stored, meta=meta)


def test_a_new_sessions_material_cannot_be_downgraded_to_format_1_in_the_store(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _fixed_fair(monkeypatch)
    store = _Downgraded()
    session = Session.create(
        "golf", ["Ann", "Bob"], now=0.0, store=store, config=SessionConfig(fair=True)
    )
    assert session.commitment == commitment_of(SERVER_SEED, SALT, cardcore.CHANCE)
    with pytest.raises(CorruptSessionError, match="meta differs"):
        Session.resume(store, session.id, now=1.0)


def test_a_new_bundle_verifies_through_the_cli_and_a_format_change_is_refused(
    tmp_path: Path,
) -> None:
    bundle = _golf_bundle(["ann", None])
    assert _cli_verify(tmp_path, bundle, "--commitment", bundle["commitment"]) == 0
    as_format_1 = {k: v for k, v in bundle.items() if k != "chance"}
    as_format_1["format_version"] = 1
    assert _cli_verify(tmp_path, as_format_1, "--commitment", bundle["commitment"]) == 1
    for chance in (10**5000, -3, 3.0, [3], {"3": 3}, "3", None):
        with pytest.raises(CorruptStateError, match="'chance'"):
            verify_bundle(dict(bundle, chance=chance))


class _Raises(Mapping[str, Any]):
    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("a mapping of the caller's own failed")

    def __len__(self) -> int:
        return len(self.data)


def test_a_mapping_bundle_or_record_that_raises_is_a_cardcore_error() -> None:
    bundle = _golf_bundle(["ann", "bob"])
    for hostile in (_Raises(bundle), dict(bundle, record=_Raises(bundle["record"]))):
        with pytest.raises(CorruptStateError, match="could not be read"):
            verify_bundle(hostile)


class _Shifty(list):  # type: ignore[type-arg]
    """A list of the caller's own that answers its fourth reading otherwise."""

    def __init__(self, honest: list[str], other: list[str]) -> None:
        super().__init__(honest)
        self.honest, self.other, self.reads = honest, other, 0

    def __iter__(self) -> Iterator[str]:
        self.reads += 1
        return iter(self.honest if self.reads < 4 else self.other)


ENTROPY_READ_TWICE = (
    "verify_bundle copies only a bundle or record mapping of the caller's own: the entropy"
    " list inside a plain dict is read once for its check, again for the seed, and again"
    " for the report, which can then list entropy the seed was not derived from"
)


def test_the_report_lists_the_entropy_the_seed_was_derived_from() -> None:
    bundle = _golf_bundle(["ann", "bob"])
    bundle["entropy"] = _Shifty(["ann", "bob"], ["eve", "bob"])
    try:
        report = verify_bundle(bundle)
    except CorruptStateError:
        return  # refused: fine
    assert report.entropy == ("ann", "bob")


BAD_RECORD_VERSION = (
    "verify_bundle checks the record's chance derivation before the record's format: a record"
    " of format 0 or -1 (no record at all) is a FairDealError 'deals with chance derivation 2'"
    " (cardcore verify exit 1, 'does not verify') instead of a damaged record (exit 2)"
)


@pytest.mark.parametrize("version", [0, -1])
def test_a_record_of_no_known_format_in_a_bundle_is_damaged_not_another_deal(version: int) -> None:
    bundle = _golf_bundle(["ann", "bob"])
    bundle["record"]["format_version"] = version
    with pytest.raises(CorruptStateError) as info:
        verify_bundle(bundle, bundle["commitment"])
    assert not isinstance(info.value, FairDealError), str(info.value)
    assert "chance derivation" not in str(info.value)


ENTROPY_CUT = (
    "FairReport.lines shows each seat's entropy as shown(text, 140), a repr cut at 140"
    " characters: entropy of up to 128 characters whose repr is longer (backslashes, quotes,"
    " control characters) is listed cut, so two entropies differing at the end list the same"
    " and a seat cannot check that its own is there"
)


def test_the_report_lists_each_seats_whole_entropy() -> None:
    listed = []
    for last in "AB":
        entropy = "C:\\dice\\" * 15 + "x" * 7 + last  # 128 characters, as a seat may send
        assert len(entropy) == 128
        report = verify_bundle(_golf_bundle([entropy, None]))
        listed.append([line for line in report.lines() if line.startswith("  seat 0 ")])
    assert listed[0] != listed[1]


# -- 2. JSON text with a key written twice ------------------------------------------------


def _nested_duplicate(text: str) -> str:
    """*text* (a save or record as JSON) with ``"seed"`` written twice inside the record,
    once spelt with an escape (JSON reads both as the same key)."""
    at = text.index('"actions": [')
    return text[:at] + '"\\u0073eed": 1, ' + text[at:]


def test_a_key_written_twice_anywhere_is_refused_by_replay_load_and_verify(tmp_path: Path) -> None:
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=11, options={"rounds": 1})
    game.act(0, "flip 0")
    record, save = json.dumps(game.record()), json.dumps(game.save())
    assert cardcore.replay(record).version == 1 and cardcore.load(save).version == 1
    for reader, text in ((cardcore.replay, record), (cardcore.load, save)):
        bad = _nested_duplicate(text)
        for data in (bad, bad.encode()):
            with pytest.raises(CorruptStateError, match="'seed' appears twice"):
                reader(data)
    signed = json.dumps(game.record(key="k"))
    with pytest.raises(CorruptStateError, match="appears twice"):
        cardcore.replay(_nested_duplicate(signed), key="k")
    bundle = json.dumps(_golf_bundle(["ann", "bob"]))
    assert _cli_verify(tmp_path, None, text=bundle) == 0
    assert _cli_verify(tmp_path, None, text=_nested_duplicate(bundle)) == 2
    assert _cli_verify(tmp_path, None, text=_nested_duplicate(record)) == 2


@pytest.mark.parametrize("key", ["", b"", bytearray(), 5, None.__class__, ["k"]])
def test_load_and_replay_take_a_bad_key_as_the_callers_argument_error_before_the_data(
    key: Any,
) -> None:
    for reader in (cardcore.replay, cardcore.load):
        with pytest.raises(ArgumentError):
            reader("not even JSON {", key=key)


# -- 3. token rows of the wrong kind ------------------------------------------------------


class _TextSeats(MemoryStore):
    """A store handing token rows back with the seat as text, optionally as meta format 2
    (a session stored before the digests)."""

    def __init__(self, meta_format: int) -> None:
        super().__init__()
        self.meta_format = meta_format

    def load(self, session_id: str) -> StoredSession | None:
        stored = super().load(session_id)
        if stored is None:
            return None
        meta = dict(stored.meta)
        if self.meta_format == 2:
            meta.pop(integrity.KEY)
            meta.pop("unbound_tokens", None)
            meta["format_version"] = 2
        rows = [dataclasses.replace(t, seat=str(t.seat)) for t in stored.tokens]
        return dataclasses.replace(stored, meta=meta, tokens=rows)


def _thief_on_seat_0(meta_format: int) -> list[str] | None:
    store = _TextSeats(meta_format)
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=store)
    for seat in (0, 1):
        session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), 1.0)
    try:
        resumed = Session.resume(store, session.id, now=5.0)
    except CorruptSessionError:
        return None  # refused
    out = resumed.handle("thief", json.dumps({"type": "join", "seat": 0}), 6.0)
    return _codes(out)


def test_a_text_seat_in_a_sealed_sessions_token_rows_is_refused() -> None:
    assert _thief_on_seat_0(3) is None


TEXT_SEAT_OLD_FORMAT = (
    "integrity.check returns before its token-row kind check for sessions of meta format 1"
    " and 2 (no digests): a store handing their rows back with the seat as text resumes with"
    " tokens keyed '0', '1', and anyone joins seat 0 without a token"
)


def test_a_text_seat_in_an_older_sessions_token_rows_opens_no_seat() -> None:
    codes = _thief_on_seat_0(2)
    assert codes is None or codes == ["seat-taken"], codes


# -- 4. the turn-based stale path and the not-started message ----------------------------


def _golf_table() -> Session:
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    for seat in (0, 1):
        session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), 1.0)
    for seat, action in [(0, "flip 0"), (0, "flip 4"), (1, "flip 1"), (1, "flip 5")]:
        out = session.handle(
            f"c{seat}",
            json.dumps({"type": "act", "action": action, "seen": session.game.version}),
            2.0,
        )
        assert not _codes(out)
    return session


def test_the_stale_path_reads_text_on_a_copy_and_applies_or_tells_nothing_else() -> None:
    session = _golf_table()
    game = session.game
    assert game is not None and game.version == 4
    before = json.dumps(game.save(), sort_keys=True)
    seat = game.to_act[0]
    legal = [str(a) for a in game.legal_actions(seat)]
    cases = [("fly away", "notation"), (legal[0], "stale"), ("replace 99", None)]
    for text, code in cases:
        out = session.handle(
            f"c{seat}", json.dumps({"type": "act", "action": text, "seen": 2}), 3.0
        )
        assert [o.conn for o in out] == [f"c{seat}"] and len(_codes(out)) == 1
        assert code is None or _codes(out) == [code]
        assert "rule" not in _messages(out, "error")[0]
        assert json.dumps(game.save(), sort_keys=True) == before and session.game is game
    out = session.handle(
        f"c{seat}", json.dumps({"type": "act", "action": legal[0], "seen": 4}), 4.0
    )
    assert not _codes(out) and game.version == 5
    assert cardcore.replay(game.record()).save()["state"] == game.save()["state"]


REALTIME_OVER = (
    "Session._playing answers any real-time action with an older seen after the game ended"
    " as 'stale' citing CORE-RT-1 ('another action came first'), before the text is read:"
    " text that is no action is not 'notation whatever its seen' (docs/session.rst) and was"
    " never legal at that seen"
)


def test_real_time_gibberish_with_an_old_seen_after_the_end_is_not_stale() -> None:
    session = Session.create("spit", ["Ann", "Bob"], now=0.0, seed=7)
    for seat in (0, 1):
        session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), 1.0)
    session.end(2.0)
    assert session.phase == "over"
    out = session.handle("c0", json.dumps({"type": "act", "action": "fly away", "seen": 0}), 3.0)
    (error,) = _messages(out, "error")
    assert error["code"] != "stale" and error.get("rule") != "CORE-RT-1", error


@pytest.mark.parametrize("start", ["seated", "now"])
def test_not_started_names_what_the_deal_waits_for(
    start: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fixed_fair(monkeypatch)
    config = SessionConfig(fair=True, seat_entropy=True, start=start)
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, config=config)
    session.handle("c0", json.dumps({"type": "join", "seat": 0, "entropy": "ann"}), 1.0)
    act = json.dumps({"type": "act", "action": "flip 0", "seen": 0})
    (error,) = _messages(session.handle("c0", act, 2.0), "error")
    assert error["code"] == "not-started"
    if start == "seated":
        assert error["message"].endswith("(every seat must be claimed)")
    else:
        assert error["message"].endswith("(waiting for the entropy of seat(s) [1])")
    session.handle("c1", json.dumps({"type": "join", "seat": 1}), 3.0)
    (error,) = _messages(session.handle("c1", act, 4.0), "error")
    assert error["message"].endswith("(waiting for the entropy of seat(s) [1])")


# -- 5. AsyncHost ids ---------------------------------------------------------------------


def test_asynchost_ids_one_open_connection_each_and_fresh_ids_skip_chosen_ones() -> None:
    async def run() -> None:
        hub = Hub(MemoryStore())
        hub.create("golf", ["Ann", "Bob"], now=0.0, seed=7, session_id="g")
        host = AsyncHost(hub, clock=lambda: 1.0)
        first = host.connect()
        number = int(first.id.removeprefix("conn-"))
        chosen = host.connect(f"conn-{number + 1}")
        fresh = host.connect()
        assert fresh.id not in (first.id, chosen.id)
        for bad in (5, b"conn-x", None.__class__):
            with pytest.raises(ArgumentError):
                host.connect(bad)
        ann = host.connect("ann")
        await ann.send({"type": "join", "session": "g", "seat": 0})
        with pytest.raises(ArgumentError, match="open already"):
            host.connect("ann")
        await ann.close()
        again = host.connect("ann")  # closed: the id is free again, the seat is not
        await again.send({"type": "join", "session": "g", "seat": 0})
        texts = []
        while not again._queue.empty():
            texts.append(json.loads(await again.__anext__()))
        assert [m["code"] for m in texts if m["type"] == "error"] == ["seat-taken"]
        assert again.queued == 0

    asyncio.run(run())


# -- 6. docs of the new attributes ---------------------------------------------------------

MIRROR_CLOSED = (
    "Mirror.phase is documented as the phase last told, one of waiting, playing, over,"
    " closed; a 'closed' message leaves it as it was (feed ignores the message type), so it"
    " never reads 'closed'"
)


@pytest.mark.parametrize("seats", [1, 2])
def test_mirror_phase_reads_closed_once_the_session_is_closed(seats: int) -> None:
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    mirror = Mirror()
    for seat in range(seats):
        for out in session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), 1.0):
            if out.conn == "c0":
                mirror.feed(out.message)
    assert mirror.phase == ("waiting", "playing")[seats - 1]
    told = [o.message for o in session.close(2.0) if o.conn == "c0"]
    assert [m["type"] for m in told] == ["closed"]
    for message in told:
        mirror.feed(message)
    assert mirror.phase == "closed"
