"""RuleInfo.default_before and earlier_rules: records, saves and stored sessions of an earlier game version
replay with the house rules that keep that version's defaults (Speed changed at 0.3.0)."""

from __future__ import annotations

import json
import types
from pathlib import Path

import pytest

import cardcore
from cardcore import PluginError, RuleInfo
from cardcore.session.config import GameSetup

DATA = Path(__file__).parent / "data"
KEEP = "speed.stuck-on-request"  # Speed before 0.3.0: side cards turned only on request


def _both_stuck_game(rules: tuple[str, ...] = ()) -> cardcore.Game:
    """A Speed game in which nobody can play on the first cards (SPEED-STUCK-1)."""
    deck = "6H KH 9D 3C 3D 3H 3S 7C 5C 5D 5H 5S 2C 4D 2D 4H 2H 4S 2S 9C 4C 10C"
    return cardcore.new_game("speed", 2, seed=3, deck=deck, rules=rules)


def test_earlier_rules_name_the_rules_of_earlier_versions() -> None:
    info = cardcore.game_info("speed")
    assert cardcore.rule_info(KEEP).default_before == "0.3.0"
    assert cardcore.earlier_rules("speed", "0.2.0") == (KEEP,)
    assert cardcore.earlier_rules("speed", "0.1.9") == (KEEP,)
    assert cardcore.earlier_rules("speed", info.version) == ()
    assert cardcore.earlier_rules("speed", "1.0.0") == ()
    assert cardcore.earlier_rules("golf", "0.0.1") == ()
    with pytest.raises(cardcore.UnknownPluginError):
        cardcore.earlier_rules("bridge", "0.1.0")


@pytest.mark.parametrize("bad", ["", "abc", 3, ("0", "3")])
def test_a_malformed_default_before_is_refused(bad: object) -> None:
    with pytest.raises(PluginError, match="default_before"):
        RuleInfo("X-1", "g.x", "g", "a rule", default_before=bad)  # type: ignore[arg-type]


def test_a_registered_rule_with_default_before_counts_at_once() -> None:
    module = types.ModuleType("late")
    module.RULE = RuleInfo("SPEED-X-1", "speed.late", "speed", "late", default_before="9.0.0")  # type: ignore[attr-defined]

    @cardcore.hookimpl
    def speed_stuck_detection() -> bool:
        return True

    module.speed_stuck_detection = speed_stuck_detection  # type: ignore[attr-defined]
    assert "speed.late" not in cardcore.earlier_rules("speed", "1.0.0")
    cardcore.register("cardcore.rules", "speed.late", module)
    try:
        assert cardcore.earlier_rules("speed", "1.0.0") == ("speed.late",)
    finally:
        cardcore.unregister("cardcore.rules", "speed.late")
    assert cardcore.earlier_rules("speed", "1.0.0") == ()


def test_an_old_record_replays_by_the_old_defaults() -> None:
    old = _both_stuck_game((KEEP,))  # what 0.2.0 did: nothing turns until both ask
    old.act(0, "stuck")
    old.act(1, "stuck")
    record = old.record()
    record["rules"] = [r for r in record["rules"] if r["name"] != KEEP]
    record["game_version"] = "0.2.0"  # as 0.2.0 wrote it: no rule named
    again = cardcore.replay(json.loads(json.dumps(record)))
    assert again.position() == old.position()
    assert KEEP in again.rules
    record["game_version"] = cardcore.game_info("speed").version  # today's defaults: the
    assert cardcore.replay(record).position() != old.position()  # side cards turn at the deal


def test_an_old_save_loads_by_the_old_defaults() -> None:
    old = _both_stuck_game((KEEP,))
    old.act(0, "stuck")
    save = old.save()
    for part in (save["record"], save["config"]):
        part["rules"] = [
            r for r in part["rules"] if (r if isinstance(r, str) else r["name"]) != KEEP
        ]
    save["record"]["game_version"] = "0.2.0"
    loaded = cardcore.load(json.loads(json.dumps(save)))
    assert loaded.position() == old.position()
    assert loaded.state.requests == [True, False]  # type: ignore[attr-defined]


def test_a_stored_session_of_an_earlier_version_resumes_by_its_defaults() -> None:
    setup = GameSetup("speed", ("Ann", "Bob"))
    data = setup.to_json()
    assert data["game_version"] == cardcore.game_info("speed").version
    assert GameSetup.from_data(data).rules == ()
    del data["game_version"]  # written by cardcore 0.2.0
    assert GameSetup.from_data(data).rules == (KEEP,)
    data["game_version"] = "0.2.0"
    again = GameSetup.from_data(data)
    assert again.rules == (KEEP,)
    assert GameSetup.from_data(again.to_json()).rules == (KEEP,)  # once, not again
    assert (
        GameSetup.from_data({**GameSetup("golf", ("A", "B")).to_json(), "game_version": "0"}).rules
        == ()
    )


def test_the_stored_speed_records_of_0_2_replay() -> None:
    for path in sorted(DATA.glob("speed_v*_record.json")):
        old = json.loads(path.read_text())
        game = cardcore.replay(old)
        assert game.version == len(old["actions"])
        assert KEEP in game.rules
