"""What cardcore 0.2.0 (4f1372c) and 0.3.0 (ecddfb4) wrote, read by this cardcore (2026-12-21).

The fixtures under ``tests/compat_data_2026_12_21/<release>/`` were written by the old
releases themselves (each extracted with ``git archive`` and run first on ``PYTHONPATH``),
gzip'd to stay small:

* ``games.json.gz``: Golf (layouts 4, 4h and 9 with house rules), Tonk with stakes (two
  and four players), Spit with house rules and Speed; finished and mid-game; signed with
  ``KEY`` or unsigned; each with its record, its save (mid-game), its version and its
  position as the old release wrote them.
* ``sessions.sql.gz``: an SQL dump of an ``SQLiteStore``: a fair Golf session with seat
  entropy, a takeback accepted and a turn timeout, mid-game; a fair real-time Spit session
  with seat entropy, mid-game; a plain Tonk session, mid-game; a fair Speed session
  finished. ``sessions.json.gz`` holds what the old release said of each: the seats'
  tokens, the commitment it published, the version, actions, position and seat 0's view,
  and the bundle it revealed.

What changed on purpose is left out of the comparisons (see docs/changelog.rst): a Tonk
position now writes ``last=[...]`` and a finished Speed position ``over=true``; records of
older games pick up the house rules keeping their old defaults (``speed.stuck-on-request``,
``tonk.deal-shows-every-hand`` ...), which views list. The test needs no old code.
"""

from __future__ import annotations

import copy
import gzip
import itertools
import json
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardcore import CorruptStateError, load, replay
from cardcore.session import (
    CorruptSessionError,
    FairDealError,
    Hub,
    Session,
    SQLiteStore,
    verify_bundle,
)

DATA = Path(__file__).parent / "compat_data_2026_12_21"
RELEASES = ("v020", "v030")
KEY = b"compat-key-2026"


def _read(release: str, name: str) -> Any:
    text = gzip.decompress((DATA / release / name).read_bytes()).decode()
    return text if name.endswith(".sql.gz") else json.loads(text)


GAMES = {rel: _read(rel, "games.json.gz") for rel in RELEASES}
SESSIONS = {rel: _read(rel, "sessions.json.gz") for rel in RELEASES}
GAME_CASES = [(rel, g["name"]) for rel in RELEASES for g in GAMES[rel]]


def _game(release: str, name: str) -> dict[str, Any]:
    return next(g for g in GAMES[release] if g["name"] == name)


def _key(entry: dict[str, Any]) -> bytes | None:
    return KEY if entry["signed"] else None


def _same_position(text: str) -> str:
    """A position without the fields written since (Tonk's ``last``, a finished Speed's ``over``)."""
    return re.sub(r" last=\[[^\]]*\]| over=true", "", text)


def _store(release: str, tmp_path: Path) -> Path:
    path = tmp_path / f"{release}.db"
    con = sqlite3.connect(path)
    con.executescript(_read(release, "sessions.sql.gz"))
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    return path


def _seat_outbound(outs: list[Any], conn: str) -> list[dict[str, Any]]:
    return [dict(o.message) for o in outs if o.conn == conn]


def _play_on(
    session: Session, rng: random.Random, start: float, limit: int
) -> tuple[list[Any], float]:
    """Play random legal actions through the protocol, as the seats' connections ``n<seat>``."""
    now = start
    outs: list[Any] = []
    game = session.game
    assert game is not None
    for _ in range(limit):
        if game.is_over:
            break
        seats = [s for s in game.to_act if game.legal_actions(s)]
        seat = rng.choice(seats)
        actions = game.legal_actions(seat)
        action = actions[rng.randrange(len(actions))]
        now += 0.5
        got = session.handle(
            f"n{seat}", {"type": "act", "action": action.notation(), "seen": game.version}, now
        )
        assert not [m for m in _seat_outbound(got, f"n{seat}") if m["type"] == "error"], (
            action.notation()
        )
        outs += got
    return outs, now


# -- records and saves ------------------------------------------------------------------------


@pytest.mark.parametrize(("release", "name"), GAME_CASES)
def test_old_record_replays_to_its_result_and_position(release: str, name: str) -> None:
    entry = _game(release, name)
    for data in (entry["record"], json.dumps(entry["record"])):
        game = replay(data, key=_key(entry))
        assert game.version == entry["version"]
        assert game.is_over == entry["is_over"]
        assert game.record()["result"] == entry["record"]["result"]
        assert game.record()["actions"] == entry["record"]["actions"]
        assert _same_position(game.position()) == _same_position(entry["position"])


@pytest.mark.parametrize(
    ("release", "name"), [c for c in GAME_CASES if _game(*c)["save"] is not None]
)
def test_old_save_loads_to_its_state_and_plays_on(release: str, name: str) -> None:
    entry = _game(release, name)
    game = load(json.dumps(entry["save"]), key=_key(entry))
    assert game.version == entry["version"]
    assert _same_position(game.position()) == _same_position(entry["position"])
    # played on and saved again by this cardcore, it loads and replays the same
    rng = random.Random(5)
    at = 10_000.0
    for _ in range(20):
        seats = [s for s in game.to_act if game.legal_actions(s)]
        if game.is_over or not seats:
            break
        actions = game.legal_actions(rng.choice(seats))
        at += 0.25
        game.apply(actions[rng.randrange(len(actions))], at=at)
    again = load(game.save(key=KEY), key=KEY)
    assert again.position() == game.position()
    assert replay(game.record(key=KEY), key=KEY).position() == game.position()


@pytest.mark.parametrize(("release", "name"), [c for c in GAME_CASES if _game(*c)["signed"]])
def test_old_signature_verifies_and_another_key_or_an_edit_is_refused(
    release: str, name: str
) -> None:
    entry = _game(release, name)
    replay(entry["record"], key=KEY)
    with pytest.raises(CorruptStateError):
        replay(entry["record"], key=b"another key")
    edited = copy.deepcopy(entry["record"])
    edited["seed"] += 1
    with pytest.raises(CorruptStateError):
        replay(edited, key=KEY)
    if entry["save"] is not None:
        load(entry["save"], key=KEY)
        with pytest.raises(CorruptStateError):
            load(entry["save"], key=b"another key")
        edited = copy.deepcopy(entry["save"])
        edited["version"] += 1
        with pytest.raises(CorruptStateError):
            load(edited, key=KEY)


@pytest.mark.parametrize(
    ("release", "name"), [c for c in GAME_CASES if _game(*c)["is_over"] and not _game(*c)["signed"]]
)
def test_old_unsigned_record_with_another_result_is_refused(release: str, name: str) -> None:
    entry = _game(release, name)
    edited = copy.deepcopy(entry["record"])
    players = range(len(edited["players"]))
    edited["result"]["winners"] = [s for s in players if s not in edited["result"]["winners"]]
    with pytest.raises(CorruptStateError):
        replay(edited)


def test_old_speed_record_replays_with_the_rule_keeping_its_old_default() -> None:
    """0.3.0's changelog: Speed records made before 0.3.0 replay with ``speed.stuck-on-request``."""
    entry = _game("v020", "speed")
    assert entry["record"]["rules"] == []
    game = replay(entry["record"])
    assert [r["name"] for r in game.record()["rules"]] == ["speed.stuck-on-request"]
    assert "speed.stuck-on-request" not in [
        r["name"] for r in replay(_game("v030", "speed")["record"]).record()["rules"]
    ]


# -- stored sessions --------------------------------------------------------------------------


@pytest.mark.parametrize("release", RELEASES)
def test_old_store_resumes_every_session_as_it_was(release: str, tmp_path: Path) -> None:
    hub = Hub(SQLiteStore(_store(release, tmp_path)))
    assert hub.resume_all(5000.0) == []
    assert sorted(hub.sessions) == sorted(SESSIONS[release])
    for sid, old in SESSIONS[release].items():
        session = hub.sessions[sid]
        assert session.phase == old["phase"], sid
        assert session.commitment == old["commitment"], sid
        game = session.game
        assert game is not None
        assert game.version == old["version"], sid
        assert game.record()["actions"] == old["actions"], sid
        assert _same_position(game.position()) == _same_position(old["position"]), sid
        if sid in ("golf-fair", "spit-fair"):  # games whose views did not change on purpose
            view = game.view(0)  # but for Golf's "public" field, added on purpose since
            table = {k: v for k, v in view["table"].items() if k != "public" or "golf" not in sid}
            assert {**view, "table": table} == old["view0"], sid


@pytest.mark.parametrize("release", RELEASES)
def test_old_session_kept_its_takeback_and_timeout(release: str, tmp_path: Path) -> None:
    old = SESSIONS[release]["golf-fair"]
    assert old["takeback"]
    session = Session.resume(SQLiteStore(_store(release, tmp_path)), "golf-fair", 5000.0)
    record = session.game.record()
    times = [a[2] for a in record["actions"]]
    assert times == [a[2] for a in old["actions"]]
    assert any(b - a >= 30.0 for a, b in itertools.pairwise(times))  # the timeout's move


@pytest.mark.parametrize("release", RELEASES)
def test_old_tokens_open_their_own_seats_only(release: str, tmp_path: Path) -> None:
    store = SQLiteStore(_store(release, tmp_path))
    for sid, old in SESSIONS[release].items():
        session = Session.resume(store, sid, 5000.0)
        for seat, token in old["tokens"].items():
            outs = session.handle(
                f"n{seat}", {"type": "join", "seat": int(seat), "token": token}, 5001.0
            )
            welcome = _seat_outbound(outs, f"n{seat}")[0]
            assert welcome["type"] == "welcome", (sid, seat, welcome)
            assert welcome["seat"] == int(seat)
        other = old["tokens"]["1"]
        outs = session.handle("x", {"type": "join", "seat": 0, "token": other}, 5002.0)
        assert _seat_outbound(outs, "x")[0]["type"] == "error", sid


@pytest.mark.parametrize("release", RELEASES)
def test_old_fair_session_finished_after_resume_reveals_a_bundle_the_old_commitment_verifies(
    release: str, tmp_path: Path
) -> None:
    store = SQLiteStore(_store(release, tmp_path))
    old = SESSIONS[release]["golf-fair"]
    session = Session.resume(store, "golf-fair", 5000.0)
    for seat, token in old["tokens"].items():
        session.handle(f"n{seat}", {"type": "join", "seat": int(seat), "token": token}, 5000.5)
    outs, _ = _play_on(session, random.Random(11), 5001.0, 2000)
    assert session.game.is_over
    reveals = [o.message["bundle"] for o in outs if o.message["type"] == "reveal"]
    assert reveals
    bundle = reveals[0]
    assert bundle["commitment"] == old["commitment"]
    report = verify_bundle(bundle, commitment=old["commitment"])
    assert report.actions == len(session.game.record()["actions"])
    assert report.entropy == ("seat 0 dice golf-fair", "seat 1 dice golf-fair")
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle))
    done = subprocess.run(
        [sys.executable, "-m", "cardcore", "verify", str(path), "--commitment", old["commitment"]],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "format-1 bundle" in done.stdout


@pytest.mark.parametrize("release", RELEASES)
def test_old_realtime_fair_session_plays_on_and_reveals_when_the_host_ends_it(
    release: str, tmp_path: Path
) -> None:
    store = SQLiteStore(_store(release, tmp_path))
    old = SESSIONS[release]["spit-fair"]
    session = Session.resume(store, "spit-fair", 5000.0)
    for seat, token in old["tokens"].items():
        session.handle(f"n{seat}", {"type": "join", "seat": int(seat), "token": token}, 5000.5)
    _, now = _play_on(session, random.Random(3), 5001.0, 12)
    assert session.game.version == old["version"] + 12
    outs = session.end(now + 1.0)
    assert session.game.is_over
    bundle = next(o.message["bundle"] for o in outs if o.message["type"] == "reveal")
    assert verify_bundle(bundle, commitment=old["commitment"]).commitment == old["commitment"]


@pytest.mark.parametrize("release", RELEASES)
def test_old_plain_session_plays_on_after_resume(release: str, tmp_path: Path) -> None:
    store = SQLiteStore(_store(release, tmp_path))
    old = SESSIONS[release]["tonk-plain"]
    session = Session.resume(store, "tonk-plain", 5000.0)
    for seat, token in old["tokens"].items():
        session.handle(f"n{seat}", {"type": "join", "seat": int(seat), "token": token}, 5000.5)
    # 0.3.0's changelog: a Tonk 0.2.0 session that left max_players out gets its old default, 4
    assert session.game.options["max_players"] == (4 if release == "v020" else 3)
    _play_on(session, random.Random(2), 5001.0, 2000)
    assert session.game.is_over
    assert session.commitment is None
    assert replay(session.record()).record()["result"] == session.game.record()["result"]


@pytest.mark.parametrize("release", RELEASES)
def test_old_bundle_verifies_and_an_edited_one_is_refused(release: str) -> None:
    old = SESSIONS[release]["speed-fair-end"]
    bundle = old["reveals"][0]
    assert bundle["format_version"] == 1
    report = verify_bundle(bundle, commitment=old["commitment"])
    assert report.chance is None  # a format-1 bundle's commitment fixed no derivation
    assert verify_bundle(json.loads(json.dumps(bundle))).seed == bundle["seed"]
    with pytest.raises(FairDealError):
        verify_bundle(bundle, commitment="0" * 64)
    for field, value in (("entropy", ["someone else", None]), ("server_seed", "00" * 32)):
        edited = copy.deepcopy(bundle)
        edited[field] = value
        with pytest.raises(FairDealError):
            verify_bundle(edited, commitment=old["commitment"])
    edited = copy.deepcopy(bundle)
    edited["record"]["result"]["winners"] = [1 - w for w in edited["record"]["result"]["winners"]]
    with pytest.raises((FairDealError, CorruptStateError)):
        verify_bundle(edited, commitment=old["commitment"])


@pytest.mark.parametrize("release", RELEASES)
def test_old_finished_fair_session_serves_a_bundle_the_old_commitment_verifies(
    release: str, tmp_path: Path
) -> None:
    store = SQLiteStore(_store(release, tmp_path))
    old = SESSIONS[release]["speed-fair-end"]
    session = Session.resume(store, "speed-fair-end", 5000.0)
    session.handle("n0", {"type": "join", "seat": 0, "token": old["tokens"]["0"]}, 5001.0)
    reply = _seat_outbound(session.handle("n0", {"type": "record"}, 5002.0), "n0")[0]
    verify_bundle(reply["bundle"], commitment=old["commitment"])
    assert reply["bundle"]["server_seed"] == old["reveals"][0]["server_seed"]


def test_edited_rows_of_a_030_session_are_refused(tmp_path: Path) -> None:
    """0.3.0 wrote ``meta`` format 3 with digests: an edited seed or a lost action row is refused."""
    path = _store("v030", tmp_path)
    con = sqlite3.connect(path)
    meta = json.loads(
        con.execute("SELECT meta FROM sessions WHERE id = 'tonk-plain'").fetchone()[0]
    )
    assert meta["format_version"] == 3
    meta["seed"] += 1
    con.execute("UPDATE sessions SET meta = ? WHERE id = 'tonk-plain'", (json.dumps(meta),))
    con.execute("DELETE FROM actions WHERE session = 'golf-fair' AND idx = 8")
    con.commit()
    con.close()
    store = SQLiteStore(path)
    for sid in ("tonk-plain", "golf-fair"):
        with pytest.raises(CorruptSessionError, match=sid):
            Session.resume(store, sid, 5000.0)
    assert sorted(Hub(store).resume_all(5000.0)) == ["golf-fair", "tonk-plain"]


def test_a_020_session_resumes_unchecked_and_commits_format_3(tmp_path: Path) -> None:
    """docs/session.rst: sessions of ``meta`` format 1 and 2 have no digests and resume
    unchecked; their next commit writes format 3 (checked from then on)."""
    path = _store("v020", tmp_path)
    con = sqlite3.connect(path)
    before = json.loads(
        con.execute("SELECT meta FROM sessions WHERE id = 'tonk-plain'").fetchone()[0]
    )
    rows = dict(
        con.execute("SELECT seat, digest FROM tokens WHERE session = 'tonk-plain'").fetchall()
    )
    con.close()
    assert before["format_version"] == 1  # what 0.2.0 wrote
    assert "integrity" not in before
    store = SQLiteStore(path)
    old = SESSIONS["v020"]["tonk-plain"]
    session = Session.resume(store, "tonk-plain", 5000.0)
    session.handle("n0", {"type": "join", "seat": 0, "token": old["tokens"]["0"]}, 5001.0)
    con = sqlite3.connect(path)
    after = json.loads(
        con.execute("SELECT meta FROM sessions WHERE id = 'tonk-plain'").fetchone()[0]
    )
    rebound = dict(
        con.execute("SELECT seat, digest FROM tokens WHERE session = 'tonk-plain'").fetchall()
    )
    con.close()
    assert after["format_version"] == 3
    assert "integrity" in after
    # the holder's plain SHA-256 row is replaced by the bound hash; the others wait for their holders
    assert rebound[0] != rows[0]
    assert rebound[1] == rows[1]
    again = Session.resume(SQLiteStore(path), "tonk-plain", 5003.0)
    assert again.game.record()["actions"] == old["actions"]
    for seat in (0, 1):
        outs = again.handle(
            f"n{seat}", {"type": "join", "seat": seat, "token": old["tokens"][str(seat)]}, 5004.0
        )
        assert _seat_outbound(outs, f"n{seat}")[0]["type"] == "welcome"
