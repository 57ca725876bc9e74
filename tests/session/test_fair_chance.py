"""The fair-deal commitment fixes the chance derivation (bundle format 2); format-1 bundles
of older sessions still verify, and say that theirs was not fixed."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest

import cardcore
from cardcore.session import FairDealError, Session, SessionConfig, verify_bundle
from cardcore.session.fair import FairDeal, commitment_of

SERVER_SEED = bytes(range(1, 33))
SALT = bytes(range(50, 66))


def _bundle(chance: int | None) -> dict:
    deal = FairDeal(SERVER_SEED, SALT, ["ann dice", ""], chance)
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=deal.seed, options={"rounds": 1})
    for _ in range(4):
        game.apply(game.legal_actions(game.to_act[0])[0])
    return deal.bundle("s1", game.record())


def test_a_new_bundle_is_format_2_and_names_its_chance() -> None:
    bundle = _bundle(cardcore.CHANCE)
    assert bundle["format_version"] == 2 and bundle["chance"] == cardcore.CHANCE == 3
    tag = b"cardcore-fair/2\0" + bytes([3])
    assert bundle["commitment"] == hashlib.sha256(tag + SERVER_SEED + SALT).hexdigest()
    report = verify_bundle(bundle, bundle["commitment"])
    assert report.chance == 3 and report.entropy == ("ann dice", "")
    lines = report.lines()
    assert lines[0].endswith("and chance derivation 3 (a format-2 bundle)")
    assert "  seat 0 (Ann): 'ann dice'" in lines and "  seat 1 (Bob): none sent" in lines


def test_the_committed_chance_cannot_be_changed_afterwards() -> None:
    bundle = _bundle(cardcore.CHANCE)
    as_older = {k: v for k, v in copy.deepcopy(bundle).items() if k != "chance"}
    as_older["format_version"] = 1  # claimed as a format-1 bundle: another formula
    for changed in (dict(copy.deepcopy(bundle), chance=2), as_older):
        with pytest.raises(FairDealError, match="commitment"):
            verify_bundle(changed)
    older = copy.deepcopy(bundle)
    older["record"]["format_version"] = 2  # the record says: deal with the older derivation
    with pytest.raises(FairDealError, match="chance derivation 2, not the 3"):
        verify_bundle(older, bundle["commitment"])
    for bad in (None, 4, "3", True):
        with pytest.raises(cardcore.CorruptStateError, match="'chance'"):
            verify_bundle(dict(bundle, chance=bad))


def test_welcome_and_lobby_name_the_commitment_format() -> None:
    session = Session.create(
        "golf", ["Ann", "Bob"], now=0.0, config=SessionConfig(fair=True, seat_entropy=True)
    )
    out = session.handle("c0", json.dumps({"type": "join", "seat": 0}), 1.0)
    sent = {o.message["type"]: o.message for o in out}
    for kind in ("welcome", "lobby"):
        assert sent[kind]["commitment_format"] == 2, kind
        assert sent[kind]["commitment"] == session.fair.commitment
    old = FairDeal(SERVER_SEED, SALT, [None, None], None)
    assert old.format == 1 and old.bundle("s", _bundle(3)["record"])["format_version"] == 1
    plain = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=3)
    out = plain.handle("c0", json.dumps({"type": "join", "seat": 0}), 1.0)
    assert [o.message["commitment_format"] for o in out if o.message["type"] == "welcome"] == [None]


def test_a_format_1_bundle_still_verifies_and_says_its_chance_was_not_fixed() -> None:
    bundle = _bundle(None)
    assert bundle["format_version"] == 1 and "chance" not in bundle
    assert bundle["commitment"] == commitment_of(SERVER_SEED, SALT, None)
    report = verify_bundle(bundle, bundle["commitment"])
    assert report.chance is None and "fixes no chance derivation" in report.lines()[0]


def test_material_round_trips_its_chance_and_refuses_a_bad_one() -> None:
    for chance in (3, 2, None):
        deal = FairDeal(SERVER_SEED, SALT, [None, None], chance)
        again = FairDeal.from_data(deal.to_json())
        assert again == deal and again.commitment == deal.commitment
    old = FairDeal(SERVER_SEED, SALT, [None]).to_json()
    del old["chance"]  # material stored before bundle format 2
    assert FairDeal.from_data(old).chance is None
    with pytest.raises(cardcore.CorruptStateError, match="'chance'"):
        FairDeal.from_data(dict(old, chance=7))
    with pytest.raises(cardcore.ArgumentError, match="chance"):
        commitment_of(SERVER_SEED, SALT, 7)
