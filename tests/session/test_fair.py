"""Provably fair deals: the commitment, seats' entropy, the reveal, and ``cardcore verify``."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import CorruptStateError
from cardcore.cli import main
from cardcore.session import FairDealError, Session, SessionConfig, SessionError, verify_bundle
from cardcore.session.fair import commitment_of, seed_of
from tests.session.kit import Table


def _finished(name: str = "golf", *, entropy: bool = True) -> Table:
    config = SessionConfig(fair=True, seat_entropy=entropy)
    options = {"rounds": 1} if name == "golf" else {}
    session = Session.create(name, ["Ann", "Bob"], now=0.0, options=options, config=config)
    t = Table(session)
    t.send("w", {"type": "watch"})
    if entropy:
        t.join("a", 0, entropy="ann")
        t.join("b", 1)
        assert session.phase == "waiting"  # the deal waits for seat 1's entropy
        t.send("b", {"type": "entropy", "value": "bob"})
    else:
        t.join("a", 0)
        t.join("b", 1)
    assert session.phase == "playing"
    rng = random.Random(1)
    game = session.game
    assert game is not None
    while not game.is_over:
        seat = rng.choice(game.to_act)
        legal = [str(a) for a in game.legal_actions(seat) if str(a) not in ("knock", "drop")]
        t.act("ab"[seat], rng.choice(legal), 1.0, seen=game.version)
    return t


def test_the_commitment_is_published_first_and_the_deal_verifies_at_the_end() -> None:
    t = _finished()
    session = t.session
    welcome = next(
        o.message for o in t.outbound if o.conn == "a" and o.message["type"] == "welcome"
    )
    commitment = welcome["commitment"]
    assert commitment == session.commitment and len(commitment) == 64
    bundle = t.mirrors["a"].bundle
    assert bundle is not None and bundle == t.mirrors["w"].bundle
    assert bundle["entropy"] == ["ann", "bob"]
    assert (
        commitment
        == hashlib.sha256(
            b"cardcore-fair/2\0"
            + bytes([bundle["chance"]])  # the chance derivation the commitment fixes: 3
            + bytes.fromhex(bundle["server_seed"])
            + bytes.fromhex(bundle["salt"])
        ).hexdigest()
    )
    report = verify_bundle(bundle, commitment)
    assert (
        report.seed
        == bundle["record"]["seed"]
        == seed_of(bytes.fromhex(bundle["server_seed"]), ["ann", "bob"])
    )
    assert report.shuffles >= 1 and report.actions == session.game.version
    assert "verified: golf" in report.lines()[-1]
    reveals = [o for o in t.outbound if o.message["type"] == "reveal"]
    assert {o.conn for o in reveals} == {"a", "b", "w"}
    assert session.game is not None and max(o.message["n"] for o in reveals) > 0


def test_nothing_of_the_secret_is_sent_before_the_end() -> None:
    t = _finished()
    bundle = t.mirrors["a"].bundle
    assert bundle is not None
    secret = (bundle["server_seed"], bundle["salt"], str(bundle["seed"]))
    for o in t.outbound:
        if o.message["type"] != "reveal" and o.message["type"] != "record":
            assert not any(s in o.text for s in secret) or o.message.get("reveal"), o.message[
                "type"
            ]


def _tampered(bundle: dict[str, Any], how: str) -> dict[str, Any]:
    bad = copy.deepcopy(bundle)
    if how == "salt":
        bad["salt"] = "00" * 16
    elif how == "entropy":
        bad["entropy"] = ["ann", "eve"]
    elif how == "seed":
        bad["record"]["seed"] += 1
    elif how == "server_seed":
        bad["server_seed"] = "11" * 32
        bad["commitment"] = commitment_of(
            bytes.fromhex(bad["server_seed"]), bytes.fromhex(bad["salt"])
        )
    elif how == "action":
        bad["record"]["actions"][-1][1] = "flip 5"
    return bad


@pytest.mark.parametrize("how", ["salt", "entropy", "seed", "server_seed", "action"])
def test_any_tampering_fails_verification(how: str) -> None:
    bundle = _finished().mirrors["a"].bundle
    assert bundle is not None
    with pytest.raises((FairDealError, CorruptStateError)):
        verify_bundle(_tampered(dict(bundle), how))


def test_a_different_noted_commitment_fails() -> None:
    bundle = _finished(entropy=False).mirrors["a"].bundle
    assert bundle is not None and bundle["entropy"] == ["", ""]
    verify_bundle(bundle)
    with pytest.raises(FairDealError, match="not the one you noted"):
        verify_bundle(bundle, "ab" * 32)


def test_hostile_text_in_a_bundle_is_a_verification_failure_never_a_raw_error() -> None:
    bundle = _finished(entropy=False).mirrors["a"].bundle
    assert bundle is not None
    accented = copy.deepcopy(bundle)
    accented["commitment"] = "é" + bundle["commitment"][1:]  # not ASCII: hmac refuses such text
    with pytest.raises(FairDealError, match="not sha256"):
        verify_bundle(accented)
    with pytest.raises(FairDealError, match="not the one you noted"):
        verify_bundle(bundle, "é" * 64)
    with pytest.raises(CorruptStateError, match="hex text"):
        verify_bundle(bundle, 42)  # type: ignore[arg-type]
    surrogate = copy.deepcopy(bundle)
    surrogate["entropy"] = ["\ud800", None]
    with pytest.raises(CorruptStateError, match="entropy"):
        verify_bundle(surrogate)


def test_stacked_decks_positions_and_fixed_seeds_are_refused_a_commitment() -> None:
    fair = SessionConfig(fair=True)
    with pytest.raises(FairDealError, match="deck="):
        Session.create("golf", 2, now=0.0, deck="AS 2S", config=fair)
    position = cardcore.new_game("golf", 2, seed=1).position()
    with pytest.raises(FairDealError, match="position="):
        Session.create("golf", 2, now=0.0, position=position, config=fair)
    with pytest.raises(SessionError, match="seed"):
        Session.create("golf", 2, now=0.0, seed=5, config=fair)
    Session.create("golf", 2, now=0.0, deck="AS 2S")  # without a commitment: fine


def test_entropy_rules() -> None:
    config = SessionConfig(fair=True, seat_entropy=True, entropy_wait=30.0)
    session = Session.create("golf", 2, now=0.0, config=config)
    t = Table(session)
    t.join("a", 0, entropy="first")
    assert t.errors(t.send("a", {"type": "entropy", "value": "second"})) == ["entropy-refused"]
    assert (
        t.errors(t.send("a", {"type": "entropy", "value": "first"})) == []
    )  # the same again: fine
    t.join("b", 1)
    assert session.phase == "waiting" and t.mirrors["a"].lobby is not None
    assert t.mirrors["a"].lobby["entropy"] == [True, False]
    t.tick(29.0)
    assert session.phase == "waiting"
    t.tick(2.0)  # seat 1 never sent any: it counts as empty
    assert session.phase == "playing" and session.fair is not None
    assert session.fair.entropy == ["first", ""]
    assert t.errors(t.send("b", {"type": "entropy", "value": "late"})) == ["entropy-refused"]
    plain = Table(Session.create("golf", 2, now=0.0, seed=1))
    plain.join("a", 0)
    assert plain.errors(plain.send("a", {"type": "entropy", "value": "x"})) == ["entropy-refused"]


# -- cardcore verify ------------------------------------------------------------------------


def _write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def test_cardcore_verify_checks_a_bundle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = _finished().mirrors["w"].bundle
    assert bundle is not None
    path = _write(tmp_path, "bundle.json", bundle)
    assert main(["verify", path, "--commitment", bundle["commitment"]]) == 0
    out, err = capsys.readouterr()
    assert "verified: golf" in out and "matches" in out and err == ""
    bad = _write(tmp_path, "bad.json", _tampered(dict(bundle), "entropy"))
    assert main(["verify", bad]) == 1
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in out + err


def test_cardcore_verify_replays_a_plain_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = cardcore.new_game("golf", 2, seed=3, options={"rounds": 1})
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    path = _write(tmp_path, "record.json", game.record())
    assert main(["verify", path]) == 0
    out, _ = capsys.readouterr()
    assert "no commitment to check" in out
    assert main(["verify", path, "--commitment", "00" * 32]) == 1
    capsys.readouterr()


@pytest.mark.parametrize(
    "content",
    [None, "{not json", "[1, 2]", '{"format": "cardcore-fair-deal", "format_version": 1}'],
)
def test_cardcore_verify_bad_input_is_one_line_never_a_traceback(
    content: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = (
        str(tmp_path / "missing.json") if content is None else _write(tmp_path, "x.json", content)
    )
    assert main(["verify", path]) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in out + err
