"""RuleInfo.default_before and earlier_rules: records, saves and stored sessions of an earlier game version
replay with the house rules that keep that version's defaults (Speed changed at 0.3.0)."""

from __future__ import annotations

import contextlib
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


@pytest.mark.parametrize("bad", ["", "abc", 3, ("0", "3"), "0.0.0", "0.\u00b2", "1.2.3.4"])
def test_a_malformed_default_before_is_refused(bad: object) -> None:
    with pytest.raises(PluginError, match="default_before"):
        RuleInfo("X-1", "g.x", "g", "a rule", default_before=bad)  # type: ignore[arg-type]


def _late_rule(module_name: str, before: str) -> types.ModuleType:
    module = types.ModuleType(module_name)
    module.RULE = RuleInfo("SPEED-X-1", "speed.late", "speed", "late", default_before=before)  # type: ignore[attr-defined]

    @cardcore.hookimpl
    def speed_stuck_detection() -> bool:
        return True

    module.speed_stuck_detection = speed_stuck_detection  # type: ignore[attr-defined]
    return module


@pytest.mark.parametrize(
    ("module_name", "before", "counts"),
    [
        ("cardcore_spit.house.late", "0.3.0", True),  # the game's own package, a version reached
        ("cardcore_spit.house.late", "9.0.0", False),  # a version the game has not reached
        ("someone_else.late", "0.3.0", False),  # another package cannot rewrite Speed's records
    ],
)
def test_only_the_games_own_rules_for_versions_it_reached_count(
    module_name: str, before: str, counts: bool
) -> None:
    cardcore.register("cardcore.rules", "speed.late", _late_rule(module_name, before))
    try:
        found = cardcore.earlier_rules("speed", "0.2.0")
        assert ("speed.late" in found) is counts
        assert KEEP in found
        assert cardcore.earlier_rules("speed", cardcore.game_info("speed").version) == ()
    finally:
        cardcore.unregister("cardcore.rules", "speed.late")
    assert cardcore.earlier_rules("speed", "0.2.0") == (KEEP,)


@pytest.mark.parametrize("version", ["0.\u00b2", "1" * 5000, "x", "", None, "0.3.0.1"])
def test_odd_record_versions_never_raise(version: object) -> None:
    old = _both_stuck_game()
    record = old.record()
    record["game_version"] = version
    with contextlib.suppress(cardcore.CardcoreError):  # refused is fine; a raw exception is not
        cardcore.replay(record)
    if isinstance(version, str):  # a version, or refused as none (never a raw exception)
        try:
            assert isinstance(cardcore.earlier_rules("speed", version), tuple)
        except cardcore.ArgumentError as exc:
            assert "version" in str(exc)
    with pytest.raises(cardcore.ArgumentError):
        cardcore.earlier_rules(["speed"], "0.2.0")  # type: ignore[arg-type]


def test_versions_are_compared_by_their_numbers() -> None:
    assert cardcore.earlier_rules("speed", "0.3") == ()  # 0.3 is 0.3.0
    assert cardcore.earlier_rules("speed", "0.2.9") == (KEEP,)
    assert cardcore.earlier_rules("speed", "0.10.0") == ()


@pytest.mark.parametrize("bad", [("0.3.0",), ("x", 4), ("0.3.0", 9), "0.3.0"])
def test_a_malformed_option_default_before_is_refused(bad: object) -> None:
    with pytest.raises(PluginError, match=r"default_before|earlier default"):
        cardcore.Option("seats", 3, "seats", int, minimum=2, maximum=4, default_before=bad)  # type: ignore[arg-type]


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


def test_a_stored_session_writes_every_option_so_later_defaults_do_not_change_it() -> None:
    data = GameSetup("tonk", ("A", "B", "C")).to_json()
    assert data["options"]["max_players"] == 3 and data["options"]["stake"] == 1
    old = {**GameSetup("tonk", ("A", "B", "C", "D")).to_json(), "options": {}}
    del old["game_version"]  # a four-seat Tonk session stored by cardcore 0.2.0
    setup = GameSetup.from_data(old)
    assert setup.options == {"max_players": 4}  # the default of its day
    assert len(setup.build(5).players) == 4
    assert GameSetup.from_data({**old, "game_version": "0.3.0"}).options == {}
    kept = GameSetup.from_data({**old, "options": {"max_players": 2}})
    assert kept.options == {"max_players": 2}  # given, not filled in


def test_a_stored_setup_naming_the_rule_by_id_or_in_without_gets_it_not_again() -> None:
    base = {**GameSetup("speed", ("A", "B")).to_json()}
    del base["game_version"]
    assert GameSetup.from_data({**base, "rules": ["SPEED-STUCK-4"]}).rules == ("SPEED-STUCK-4",)
    assert GameSetup.from_data({**base, "without": [KEEP]}).rules == ()
    assert GameSetup.from_data({**base, "game_version": None}).rules == ()


def test_an_answer_worked_out_while_the_plugins_change_is_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardcore import _earlier, plugins

    real = plugins.available_rules

    def changing(game: str) -> tuple[str, ...]:
        _earlier.invalidate()  # as cardcore.register does from another thread
        return real(game)

    _earlier.invalidate()
    monkeypatch.setattr(plugins, "available_rules", changing)
    assert cardcore.earlier_rules("speed", "0.2.0") == (KEEP,)
    assert _earlier._CACHE.get("speed", (None, None))[1] is None  # not kept: it may be stale
    monkeypatch.setattr(plugins, "available_rules", real)
    assert cardcore.earlier_rules("speed", "0.2.0") == (KEEP,)
    assert _earlier._CACHE["speed"][1] == ((KEEP, (0, 3, 0, 1)),)


def test_long_version_texts_are_not_kept() -> None:
    from cardcore import _versions as info

    before = info._version_key.cache_info().currsize
    assert info.version_key("0." + "9" * 100_000) == (0, 0, 0, 1)
    assert info._version_key.cache_info().currsize == before
    record = _both_stuck_game().record()
    record["game_version"] = "0." + "1" * 100
    with pytest.raises(cardcore.CorruptStateError, match="game_version"):
        cardcore.replay(record)


def test_the_games_package_is_read_from_modules_classes_and_nothing_else() -> None:
    from cardcore import _earlier

    assert _earlier._package(types.ModuleType("cardcore_spit.speed.rules")) == "cardcore_spit"

    class Target:
        pass

    Target.__module__ = "cardcore_spit.speed.rules"
    assert _earlier._package(Target) == "cardcore_spit"
    assert _earlier._package(types.SimpleNamespace()) is None  # matches no rule


def test_a_save_naming_the_rule_by_its_id_loads() -> None:
    old = _both_stuck_game((KEEP,))
    old.act(0, "stuck")
    save = json.loads(json.dumps(old.save()))
    for entry in save["record"]["rules"]:
        entry["name"] = "SPEED-STUCK-4"
    save["record"]["game_version"] = "0.2.0"
    assert cardcore.load(save).position() == old.position()
