"""Upgrade sweep (2026-12-06): what six older commits wrote, read by this cardcore.

design.md and the docs promise that data written by an older cardcore still loads or replays
to the same game, or is refused with a ``CardcoreError`` that names the problem: never a raw
exception, never a silently different game. ``tests/compat_data_2026_12_06/<commit>/`` holds
what each commit wrote itself (extracted with ``git archive``, run on ``PYTHONPATH`` with
``gen_compat.py.txt``; see the README there):

* ``games.json.gz``: every game (Golf at every layout, with most house rules, alone and a few
  together; Tonk with stakes, 2-4 seats, ``without`` the 49/50 natural; Spit and Speed with
  their rules and options away from the defaults), mid-game and finished, some signed; each
  with its record, its save (mid-game), its position (where the commit had positions), its
  version, options, result and every acting seat's legal actions as the old code listed them.
* ``sessions.sql.gz``: an SQL dump of the commit's ``SQLiteStore`` (fair Golf with seat
  entropy and refused takebacks, a plain 3-seat Golf, a finished fair Golf, Tonk with stakes,
  fair real-time Spit, a fair Speed the host ended); ``sessions.json.gz`` what the old
  session said of each (tokens, commitment, version, actions, position, legal actions,
  revealed bundles).

What changed on purpose (docs/changelog.rst) is normalised, not compared: option texts read
through their aliases (``layout="6"`` is ``6``, "Options have one spelling per value"); a
Tonk position now writes ``last=[...]``; Golf's position field ``turns`` "counts as 0.3.0
did" again (a660486), so positions written between 72231e6 and a660486 count other turns.
The test needs no old code.
"""

from __future__ import annotations

import contextlib
import copy
import gzip
import json
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import CardcoreError, CorruptStateError, OptionError, load, new_game, replay
from cardcore.session import Hub, Session, SQLiteStore, verify_bundle

DATA = Path(__file__).parent / "compat_data_2026_12_06"
COMMITS = ("082019a", "cc554c9", "0f623e4", "1f5e319", "ddd4a54", "cf0a119", "17f6b37")
SESSION_COMMITS = COMMITS[1:]  # 082019a had no cardcore.session
KEY = b"sweep-key-2026"
# cc554c9 (2026-12-02 21:51) lies between 72231e6, where Golf's ``turns`` began to count every
# completed turn, and a660486, where it went back to counting as 0.3.0 did.
TURNS_WINDOW = ("cc554c9",)
# ddd4a54 (2026-12-04 04:03) lies between db4d8dd, where Tonk's state got ``last_deal`` (and
# every snapshot wrote it), and 4f7c7ca, where the snapshot leaves it out unless a position set it.
LAST_DEAL_WINDOW = ("ddd4a54",)


def _gz(commit: str, name: str) -> Any:
    text = gzip.decompress((DATA / commit / name).read_bytes()).decode()
    return text if name.endswith(".sql.gz") else json.loads(text)


GAMES = {c: _gz(c, "games.json.gz") for c in COMMITS}
SESSIONS = {c: _gz(c, "sessions.json.gz") for c in SESSION_COMMITS}
ENTRIES = {(c, e["case"]): e for c in COMMITS for e in GAMES[c]["games"]}
# more Tonk mid-game saves of the last_deal window (gen_tonk.py.txt)
ENTRIES.update(
    {(c, e["case"]): e for c in LAST_DEAL_WINDOW for e in _gz(c, "tonk_saves.json.gz")["games"]}
)
IDS = sorted(ENTRIES)


def _ids(cases: list[tuple[str, str]]) -> list[str]:
    return [f"{c}-{n}" for c, n in cases]


def _key(entry: dict[str, Any]) -> bytes | None:
    return KEY if entry["signed"] else None


def _legal(game: cardcore.Game) -> dict[str, list[str]]:
    return {str(s): [str(a) for a in game.legal_actions(s)] for s in game.to_act}


def _result(game: cardcore.Game) -> dict[str, Any] | None:
    r = game.result
    if r is None:
        return None
    return {
        "winners": list(r.winners),
        "scores": list(r.scores),
        "payouts": None if r.payouts is None else list(r.payouts),
        "reason": r.reason,
    }


def _canonical(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """Options as this cardcore spells them: a text an option declares as an alias is its value."""
    declared = {o.name: o for o in cardcore.game_info(game).options}
    out = {}
    for name, value in options.items():
        aliases = getattr(declared.get(name), "aliases", {}) or {}
        out[name] = aliases.get(value, value) if isinstance(value, str) else value
    return out


def _in_turns_window(commit: str, entry: dict[str, Any]) -> bool:
    return (
        commit in TURNS_WINDOW
        and entry["game"] == "golf"
        and (entry.get("options") or {}).get("max_turns") is None
    )


def _same_position(text: str, commit: str, entry: dict[str, Any]) -> str:
    """A position without what changed on purpose (see the module docstring)."""
    text = re.sub(r" last=\[[^\]]*\]", "", text)
    if _in_turns_window(commit, entry):
        text = re.sub(r" turns=\d+", "", text)
    return text


def _play_on(game: cardcore.Game, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    at = 100_000.0
    for _ in range(steps):
        seats = [s for s in game.to_act if game.legal_actions(s)]
        if game.is_over or not seats:
            return
        actions = game.legal_actions(rng.choice(seats))
        at += 0.25
        game.apply(actions[rng.randrange(len(actions))], at=at)


def test_the_fixtures_cover_every_game_rule_and_commit() -> None:
    """The sweep is as wide as it says: every built-in game, several seat counts, the house
    rules of every game, mid-game and finished games, signed data, old format versions."""
    games = {e["game"] for e in ENTRIES.values()}
    assert games == {"golf", "tonk", "spit", "speed"}
    rules = {r for e in ENTRIES.values() for r in e["rules_asked"]}
    for game in ("tonk", "spit", "speed"):
        assert set(cardcore.available_rules(game)) - rules <= {"tonk.natural-49-50"}, game
    assert len({r for r in rules if r.startswith("golf.")}) >= 20
    assert {e["players"] for e in ENTRIES.values()} >= {2, 3, 4, 5}
    assert any(e["is_over"] for e in ENTRIES.values())
    assert any(e["save"] for e in ENTRIES.values())
    assert any(e["signed"] for e in ENTRIES.values())
    formats = {e["record"]["format_version"] for e in ENTRIES.values()}
    assert len(formats) >= 2, formats
    assert {GAMES[c]["label"] for c in COMMITS} == set(COMMITS)


# -- records ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("commit", "case"), IDS, ids=_ids(IDS))
def test_old_record_replays_to_the_same_game(commit: str, case: str) -> None:
    entry = ENTRIES[(commit, case)]
    for data in (entry["record"], json.dumps(entry["record"])):
        game = replay(copy.deepcopy(data), key=_key(entry))
        assert game.version == entry["version"]
        assert game.is_over == entry["is_over"]
        assert _result(game) == entry["result"]
        assert _legal(game) == entry["legal"]
        assert game.record()["actions"] == entry["record"]["actions"]
        if entry["options"] is not None:
            assert dict(game.options) == _canonical(entry["game"], entry["options"])
        asked = set(entry["rules_asked"])
        assert asked <= {r["name"] for r in game.record()["rules"]}
        if entry["position"] is not None:
            assert _same_position(game.position(), commit, entry) == _same_position(
                entry["position"], commit, entry
            )


SIGNED = [k for k in IDS if ENTRIES[k]["signed"]]


@pytest.mark.parametrize(("commit", "case"), SIGNED, ids=_ids(SIGNED))
def test_old_signed_record_verifies_and_another_key_is_refused(commit: str, case: str) -> None:
    entry = ENTRIES[(commit, case)]
    replay(entry["record"], key=KEY)
    with pytest.raises(CorruptStateError):
        replay(entry["record"], key=b"not the key")
    edited = copy.deepcopy(entry["record"])
    edited["seed"] += 1
    with pytest.raises(CorruptStateError):
        replay(edited, key=KEY)


FINISHED = [k for k in IDS if ENTRIES[k]["is_over"]]


@pytest.mark.parametrize(("commit", "case"), FINISHED, ids=_ids(FINISHED))
def test_old_record_with_another_result_is_refused(commit: str, case: str) -> None:
    entry = ENTRIES[(commit, case)]
    edited = copy.deepcopy(entry["record"])
    seats = range(len(edited["players"]))
    edited["result"]["winners"] = [s for s in seats if s not in edited["result"]["winners"]]
    with pytest.raises(CorruptStateError):
        replay(edited, key=None)


# -- saves --------------------------------------------------------------------------------------


def _in_last_deal_window(commit: str, entry: dict[str, Any]) -> bool:
    return commit in LAST_DEAL_WINDOW and entry["game"] == "tonk"


SAVES = [k for k in IDS if ENTRIES[k]["save"]]
WINDOW_SAVES = [k for k in SAVES if _in_turns_window(k[0], ENTRIES[k])]
TONK_WINDOW_SAVES = [k for k in SAVES if _in_last_deal_window(k[0], ENTRIES[k])]
PLAIN_SAVES = [k for k in SAVES if k not in WINDOW_SAVES and k not in TONK_WINDOW_SAVES]


@pytest.mark.parametrize(("commit", "case"), PLAIN_SAVES, ids=_ids(PLAIN_SAVES))
def test_old_save_loads_to_the_same_game_and_plays_on(commit: str, case: str) -> None:
    entry = ENTRIES[(commit, case)]
    game = load(json.dumps(entry["save"]), key=_key(entry))
    assert game.version == entry["version"]
    assert _legal(game) == entry["legal"]
    if entry["options"] is not None:
        assert dict(game.options) == _canonical(entry["game"], entry["options"])
    if entry["position"] is not None:
        assert _same_position(game.position(), commit, entry) == _same_position(
            entry["position"], commit, entry
        )
    assert game.position() == replay(entry["record"], key=_key(entry)).position()
    _play_on(game, 7, 15)
    again = load(game.save(key=KEY), key=KEY)
    assert again.position() == game.position()
    # played on by this cardcore, its record replays to the same game (the old chance kept)
    assert replay(game.record(key=KEY), key=KEY).position() == game.position()


FORMAT_1 = [k for k in IDS if ENTRIES[k]["record"]["format_version"] == 1]


@pytest.mark.parametrize(("commit", "case"), FORMAT_1, ids=_ids(FORMAT_1))
def test_a_format_1_record_is_recorded_in_format_2_again(commit: str, case: str) -> None:
    """docs/embedding.rst: records of format 1 (cardcore 0.1) still replay, with the chance of
    their day, and a game replayed from one is recorded in format 2 again."""
    entry = ENTRIES[(commit, case)]
    game = replay(entry["record"], key=_key(entry))
    record = game.record()
    assert record["format_version"] == 2
    assert replay(record).position() == game.position()


def _edit(field: str, value: Any) -> dict[str, Any]:
    record = copy.deepcopy(ENTRIES[("082019a", "golf-2p-layout6text-mid")]["record"])
    if field == "options":
        record["options"]["layout"] = value
    elif field == "action":
        record["actions"][3][1] = value
    else:
        record[field] = value
    return record


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("game", "golfx", "golfx"),
        ("format_version", 99, "version 99"),
        ("options", "7", "'7'"),
        ("rules", [{"name": "golf.nope", "version": "0.1.0"}], "golf.nope"),
        ("game_version", "1.0.0", "major versions differ"),
        ("action", "knock", "action 3"),
    ],
)
def test_an_old_record_that_cannot_replay_is_refused_naming_the_problem(
    field: str, value: Any, named: str
) -> None:
    with pytest.raises(CorruptStateError) as caught:
        replay(_edit(field, value))
    assert named in str(caught.value)


def test_the_command_line_replays_and_verifies_old_data(tmp_path: Path) -> None:
    """cli.rst: ``cardcore replay`` and ``cardcore verify`` read what older versions wrote."""
    record = tmp_path / "record.json"
    record.write_text(json.dumps(ENTRIES[("082019a", "golf-2p-layout6text-mid")]["record"]))
    old = SESSIONS["17f6b37"]["speed-ended"]
    bundle = tmp_path / "bundle.json"
    bundle.write_text(json.dumps(old["bundles"][0]))
    for args in (
        ["replay", str(record)],
        ["verify", str(bundle), "--commitment", old["commitment"]],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "cardcore", *args],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Traceback" not in done.stderr


def test_the_turns_window_holds_golf_saves_of_every_layout() -> None:
    """The saves the next test reads: Golf mid-game, without a ``max_turns`` cap, each layout."""
    layouts = {_canonical("golf", ENTRIES[k]["options"])["layout"] for k in WINDOW_SAVES}
    assert layouts == {6, 8, 10, 4, "4h", 9}
    for key in WINDOW_SAVES:
        turns = re.search(r" turns=(\d+)", ENTRIES[key]["position"])
        assert turns is not None and int(turns.group(1)) > 0  # the counter the window wrote


@pytest.mark.parametrize(("commit", "case"), WINDOW_SAVES, ids=_ids(WINDOW_SAVES))
def test_a_save_of_the_turns_window_is_refused_only_as_a_cardcore_error(
    commit: str, case: str
) -> None:
    """Whatever this cardcore makes of it, nothing raw escapes."""
    entry = ENTRIES[(commit, case)]
    with contextlib.suppress(CardcoreError):
        load(entry["save"], key=_key(entry))


@pytest.mark.parametrize(("commit", "case"), WINDOW_SAVES, ids=_ids(WINDOW_SAVES))
def test_a_save_of_the_turns_window_is_refused_naming_the_field_and_its_record_replays(
    commit: str, case: str
) -> None:
    """Golf saves of development builds between 72231e6 and 2732664 (e.g. cc554c9) hold
    ``state.turns`` counting every turn, which the snapshot now writes as 0 without a cap:
    refused (a save's state must be the one its record replays to), the refusal naming the
    field and the way out; the changelog says so (2026-12-06)."""
    entry = ENTRIES[(commit, case)]
    with pytest.raises(CorruptStateError, match=r"first at state\.turns\).*cardcore\.replay"):
        load(entry["save"], key=_key(entry))
    game = replay(entry["save"]["record"])
    assert game.version == entry["version"]
    assert _legal(game) == entry["legal"]


def test_the_last_deal_window_holds_tonk_saves_of_two_to_four_seats() -> None:
    """The saves the next test reads: Tonk mid-game, each writing the slot ``last_deal``."""
    assert {ENTRIES[k]["players"] for k in TONK_WINDOW_SAVES} == {2, 3, 4}
    for key in TONK_WINDOW_SAVES:
        assert "last_deal" in ENTRIES[key]["save"]["state"]
        # their records replay to the position the old code wrote: the game itself is intact
        assert replay(ENTRIES[key]["record"]).position() == ENTRIES[key]["position"]


@pytest.mark.parametrize(("commit", "case"), TONK_WINDOW_SAVES, ids=_ids(TONK_WINDOW_SAVES))
def test_a_save_of_the_last_deal_window_is_refused_only_as_a_cardcore_error(
    commit: str, case: str
) -> None:
    entry = ENTRIES[(commit, case)]
    with contextlib.suppress(CardcoreError):
        load(entry["save"], key=_key(entry))


@pytest.mark.parametrize(("commit", "case"), TONK_WINDOW_SAVES, ids=_ids(TONK_WINDOW_SAVES))
def test_a_save_of_the_last_deal_window_is_refused_naming_the_field_and_its_record_replays(
    commit: str, case: str
) -> None:
    """Tonk saves of development builds between db4d8dd and 4f7c7ca (e.g. ddd4a54) hold
    ``state.last_deal = null``, a slot the snapshot now leaves out: refused naming it; the
    record replays (the changelog says so, 2026-12-06)."""
    entry = ENTRIES[(commit, case)]
    with pytest.raises(CorruptStateError, match=r"first at state\.last_deal \(not replayed\)"):
        load(entry["save"], key=_key(entry))
    game = replay(entry["save"]["record"])
    assert game.version == entry["version"]
    assert _legal(game) == entry["legal"]


# -- positions ----------------------------------------------------------------------------------


def _can_read_back(entry: dict[str, Any]) -> bool:
    return entry["position"] is not None and not (entry["is_over"] and entry["game"] == "speed")


POSITIONS = [k for k in IDS if _can_read_back(ENTRIES[k])]
OVER_SPEED = [k for k in IDS if ENTRIES[k]["position"] and not _can_read_back(ENTRIES[k])]


def _start(entry: dict[str, Any]) -> cardcore.Game:
    return new_game(
        entry["game"],
        entry["players"],
        rules=entry["rules_asked"],
        without=entry["without"],
        options=entry["options_asked"],
        position=entry["position"],
        seed=1,
    )


@pytest.mark.parametrize(("commit", "case"), POSITIONS, ids=_ids(POSITIONS))
def test_old_position_starts_the_same_game(commit: str, case: str) -> None:
    entry = ENTRIES[(commit, case)]
    game = _start(entry)
    assert game.version == 0
    assert game.is_over == entry["is_over"]
    assert _legal(game) == entry["legal"]
    assert _same_position(game.position(), commit, entry) == _same_position(
        entry["position"], commit, entry
    )


@pytest.mark.parametrize(("commit", "case"), OVER_SPEED, ids=_ids(OVER_SPEED))
def test_old_finished_speed_position_is_refused_naming_the_rule(commit: str, case: str) -> None:
    """The old code refused its own finished Speed position the same way (checked when the data
    was written): CORE-POSITION-1, a finished game cannot be read back."""
    entry = ENTRIES[(commit, case)]
    assert " over=true" in entry["position"]
    with pytest.raises(OptionError, match="CORE-POSITION-1"):
        _start(entry)


# -- stored sessions ----------------------------------------------------------------------------


def _store(commit: str, tmp_path: Path) -> Path:
    text = _gz(commit, "sessions.sql.gz")
    first, dump = text.split("\n", 1)
    path = tmp_path / f"{commit}.db"
    con = sqlite3.connect(path)
    con.executescript(dump)
    con.execute(f"PRAGMA user_version = {int(first.split()[-1])}")
    con.commit()
    con.close()
    return path


def _to(outs: list[Any], conn: str) -> list[dict[str, Any]]:
    return [dict(o.message) for o in outs if o.conn == conn]


@pytest.mark.parametrize("commit", SESSION_COMMITS)
def test_old_store_resumes_every_session_as_it_was(commit: str, tmp_path: Path) -> None:
    hub = Hub(SQLiteStore(_store(commit, tmp_path)))
    assert hub.resume_all(5000.0) == []
    assert sorted(hub.sessions) == sorted(SESSIONS[commit])
    for sid, old in SESSIONS[commit].items():
        session = hub.sessions[sid]
        game = session.game
        assert game is not None
        assert session.phase == old["phase"], sid
        assert session.commitment == old["commitment"], sid
        assert game.version == old["version"], sid
        assert game.is_over == old["is_over"], sid
        assert game.record()["actions"] == old["actions"], sid
        assert _legal(game) == old["legal"], sid
        assert dict(game.options) == _canonical(old["game"], old["options"]), sid
        entry = {"game": old["game"], "options": old["options"]}
        assert _same_position(game.position(), commit, entry) == _same_position(
            old["position"], commit, entry
        ), sid


@pytest.mark.parametrize("commit", SESSION_COMMITS)
def test_old_tokens_open_their_own_seats_only(commit: str, tmp_path: Path) -> None:
    store = SQLiteStore(_store(commit, tmp_path))
    for sid, old in SESSIONS[commit].items():
        session = Session.resume(store, sid, 5000.0)
        for seat, token in old["tokens"].items():
            outs = session.handle(
                f"n{seat}", {"type": "join", "seat": int(seat), "token": token}, 5001.0
            )
            welcome = _to(outs, f"n{seat}")[0]
            assert welcome["type"] == "welcome", (sid, seat)
            assert welcome["seat"] == int(seat)
        outs = session.handle("x", {"type": "join", "seat": 0, "token": old["tokens"]["1"]}, 5002.0)
        assert _to(outs, "x")[0]["type"] == "error", sid


@pytest.mark.parametrize("commit", SESSION_COMMITS)
def test_old_revealed_bundles_verify_against_their_commitment(commit: str) -> None:
    seen = 0
    for sid, old in SESSIONS[commit].items():
        for bundle in old.get("bundles", []):
            seen += 1
            report = verify_bundle(bundle, commitment=old["commitment"])
            assert report.actions == len(old["actions"]), sid
            with pytest.raises(CardcoreError):
                verify_bundle(bundle, commitment="0" * 64)
            edited = copy.deepcopy(bundle)
            edited["server_seed"] = "00" * 32
            with pytest.raises(CardcoreError):
                verify_bundle(edited, commitment=old["commitment"])
    assert seen == 2  # golf-ended and speed-ended


@pytest.mark.parametrize("commit", SESSION_COMMITS)
def test_old_fair_session_played_to_its_end_reveals_what_the_old_commitment_fixed(
    commit: str, tmp_path: Path
) -> None:
    old = SESSIONS[commit]["golf-fair-tb"]
    session = Session.resume(SQLiteStore(_store(commit, tmp_path)), "golf-fair-tb", 5000.0)
    for seat, token in old["tokens"].items():
        session.handle(f"n{seat}", {"type": "join", "seat": int(seat), "token": token}, 5000.5)
    game = session.game
    assert game is not None
    rng = random.Random(11)
    now = 5001.0
    outs: list[Any] = []
    for _ in range(3000):
        if game.is_over:
            break
        seat = rng.choice([s for s in game.to_act if game.legal_actions(s)])
        actions = game.legal_actions(seat)
        now += 0.5
        msg = {"type": "act", "action": str(actions[rng.randrange(len(actions))])}
        msg["seen"] = game.version
        got = session.handle(f"n{seat}", msg, now)
        assert not [m for m in _to(got, f"n{seat}") if m["type"] == "error"]
        outs += got
    assert game.is_over
    bundle = next(dict(o.message)["bundle"] for o in outs if o.message["type"] == "reveal")
    report = verify_bundle(bundle, commitment=old["commitment"])
    assert report.entropy == ("seat 0 dice golf-fair-tb", "seat 1 dice golf-fair-tb")
    assert bundle["record"]["actions"][: len(old["actions"])] == old["actions"]


@pytest.mark.parametrize("commit", SESSION_COMMITS)
def test_old_stake_session_plays_on_with_its_stake(commit: str, tmp_path: Path) -> None:
    old = SESSIONS[commit]["tonk-stakes"]
    session = Session.resume(SQLiteStore(_store(commit, tmp_path)), "tonk-stakes", 5000.0)
    game = session.game
    assert game is not None
    assert game.options["stake"] == 5
    assert game.options["hands"] == 3
    payouts = game.result.payouts if game.result is not None else None
    if payouts is not None:
        assert all(p % 5 == 0 for p in payouts)
    assert replay(session.record()).record()["actions"] == old["actions"]
