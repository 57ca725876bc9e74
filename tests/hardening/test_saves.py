"""Finding 6: tampered saves and records.

Unsigned: options, rules and players are checked against the replayed game (a partly
edited save is refused). Signed with ``key=``: HMAC-SHA256 from the standard library,
so a server that hands saves to clients refuses forged ones.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

import cardcore
from cardcore import CorruptStateError
from cardcore.testing._util import fingerprint

KEY = b"server secret"


def _golf(version: int = 14) -> cardcore.Game:
    game = cardcore.new_game("golf", ["ann", "bob"], options={"rounds": 9}, seed=21)
    rng = random.Random(21)
    while game.version < version:
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    return game


def _edit_rounds(save: dict) -> None:
    save["record"]["options"]["rounds"] = 1


def _add_hard(save: dict) -> None:
    rule = cardcore.rule_info("golf.hard")
    save["record"]["rules"].append({"name": rule.name, "id": rule.id, "version": rule.version})


def _swap_names(save: dict) -> None:
    save["record"]["players"].reverse()


def _cap_turns(save: dict) -> None:
    save["record"]["options"]["max_turns"] = 50


@pytest.mark.parametrize("tamper", [_edit_rounds, _add_hard, _swap_names, _cap_turns])
def test_a_save_with_edited_options_rules_or_players_is_refused(tamper) -> None:  # type: ignore[no-untyped-def]
    save = json.loads(json.dumps(_golf().save()))
    tamper(save)
    with pytest.raises(CorruptStateError, match=r"saved (options|rules|players)"):
        cardcore.load(save)


def test_signed_save_loads_with_its_key_and_only_then() -> None:
    game = _golf()
    signed = json.loads(json.dumps(game.save(key=KEY)))
    assert signed["signature"].startswith("hmac-sha256:")
    assert fingerprint(cardcore.load(signed, key=KEY)) == fingerprint(game)
    assert fingerprint(cardcore.load(json.dumps(signed), key=KEY.decode())) == fingerprint(game)
    with pytest.raises(CorruptStateError, match="bad signature"):
        cardcore.load(signed, key=b"another key")
    with pytest.raises(CorruptStateError, match="not signed"):
        cardcore.load(game.save(), key=KEY)
    cardcore.load(signed)  # without a key the signature is not checked


@pytest.mark.parametrize(
    "path",
    [("record", "options", "rounds"), ("record", "seed"), ("version",), ("record", "actions")],
)
def test_any_change_to_a_signed_save_is_refused_before_replaying(path: tuple[str, ...]) -> None:
    signed = _golf().save(key=KEY)
    forged = copy.deepcopy(signed)
    where = forged
    for key in path[:-1]:
        where = where[key]
    value = where[path[-1]]
    where[path[-1]] = value[:-1] if isinstance(value, list) else value + 1
    with pytest.raises(CorruptStateError, match="bad signature"):
        cardcore.load(forged, key=KEY)
    forged["signature"] = "hmac-sha256:" + "0" * 64
    with pytest.raises(CorruptStateError, match="bad signature"):
        cardcore.load(forged, key=KEY)


def test_signed_record_replays_with_its_key_and_only_then() -> None:
    game = _golf()
    record = json.loads(json.dumps(game.record(key=KEY)))
    assert fingerprint(cardcore.replay(record, key=KEY)) == fingerprint(game)
    forged = dict(record, seed=record["seed"] + 1)
    with pytest.raises(CorruptStateError, match="bad signature"):
        cardcore.replay(forged, key=KEY)
    with pytest.raises(CorruptStateError, match="not signed"):
        cardcore.replay(game.record(), key=KEY)


def test_text_that_is_not_unicode_in_signed_data_is_refused_as_corrupt() -> None:
    game = _golf()
    save = game.save(key=KEY)
    save["players"] = ["A\ud800", "B"]  # a lone surrogate: not UTF-8, so not JSON text
    record = game.record(key=KEY)
    record["actions"][0][1] = "flip \ud800"
    with pytest.raises(CorruptStateError, match="cannot be checked"):
        cardcore.load(save, key=KEY)
    with pytest.raises(CorruptStateError, match="cannot be checked"):
        cardcore.replay(record, key=KEY)
    odd_key = "k\ud800"  # any text is a key
    assert fingerprint(cardcore.replay(game.record(key=odd_key), key=odd_key)) == fingerprint(game)


def test_an_unsigned_save_can_be_forged_consistently_as_documented() -> None:
    """What an unsigned save does not guarantee: a consistent forgery is just another game."""
    save = _golf().save()
    _edit_rounds(save)
    save["config"]["options"]["rounds"] = 1
    forged = cardcore.load(save)  # loads: only a signature tells who wrote it
    assert forged.options["rounds"] == 1 and _golf().options["rounds"] != 1
    assert forged.version == _golf().version


def test_a_save_without_its_config_is_refused() -> None:
    """Deleting ``config`` (to edit the record past the configuration check) is refused;
    only version-1 saves, made before the configuration was saved, load without one."""
    game = _golf()
    save = json.loads(json.dumps(game.save()))
    _edit_rounds(save)
    del save["config"]
    with pytest.raises(CorruptStateError, match="no configuration"):
        cardcore.load(save)
    save["config"] = "options"
    with pytest.raises(CorruptStateError, match="no configuration"):
        cardcore.load(save)
    signed = json.loads(json.dumps(game.save(key=KEY)))
    _edit_rounds(signed)
    del signed["config"]
    with pytest.raises(CorruptStateError, match="bad signature"):
        cardcore.load(signed, key=KEY)


@pytest.mark.parametrize("config", [[1], "x", 5, True])
def test_a_version_1_save_whose_config_is_not_an_object_is_refused(config: object) -> None:
    save = _golf().save()
    save["format_version"] = 1
    save["config"] = config
    with pytest.raises(CorruptStateError, match="no configuration"):
        cardcore.load(save)
