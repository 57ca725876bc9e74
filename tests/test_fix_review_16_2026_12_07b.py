"""Skeptical review of ef58d6cb: records, saves and stored sessions of an earlier game version
add a game's ``default_before`` rules only where ``RuleInfo.applies`` serves their options; in a
namespace package only the game's own subpackage is "the game's own package".

Each claim that holds has a passing test; each bug found is a strict xfail naming its cause.
The test game ``rv16golf`` is Golf under another name at version 1.5.0 (so a 1.0.0 record is of
an earlier version of the same major version); its rules are registered in-memory modules.
"""

from __future__ import annotations

import sys
import types
from typing import Any

import attrs
import pytest

import cardcore
import cardcore_golf.rules as golf
from cardcore import Option, RuleInfo, hookimpl
from cardcore._earlier import _package
from cardcore.session.config import GameSetup

GAMES = "cardcore.games"
RULES = "cardcore.rules"
GAME = "rv16golf"


@hookimpl
def card_points(card: Any) -> int | None:
    return None


def _module(name: str, file: bool = True, package: bool = False) -> types.ModuleType:
    module = types.ModuleType(name)
    if file:
        module.__file__ = (
            "/nowhere/" + name.replace(".", "/") + ("/__init__.py" if package else ".py")
        )
    if package:
        module.__path__ = []  # type: ignore[attr-defined]
    return module


def _game(
    modname: str = "rv16pkg.game", version: str = "1.5.0", options: Any = None
) -> types.ModuleType:
    module = _module(modname)
    for key, value in vars(golf).items():
        if not key.startswith("__"):
            setattr(module, key, value)
    kw: dict[str, Any] = {"name": GAME, "version": version}
    if options is not None:
        kw["options"] = options
    module.GAME = attrs.evolve(golf.GAME, **kw)
    return module


def _rule(name: str, rid: str, modname: str = "rv16pkg.house", **kw: Any) -> types.ModuleType:
    module = _module(modname)
    module.RULE = RuleInfo(rid, name, GAME, "a review rule", version="1.0.0", **kw)
    module.card_points = card_points
    return module


@pytest.fixture
def reg():
    done: list[tuple[str, str]] = []

    def add(group: str, name: str, target: Any) -> None:
        cardcore.register(group, name, target)
        done.append((group, name))

    yield add
    for group, name in reversed(done):
        cardcore.unregister(group, name)


@pytest.fixture
def golfish(reg):
    """rv16golf 1.5.0 with two default_before 1.1.0 rules: one for layout 4, one for '4h'."""
    reg(GAMES, GAME, _game())
    reg(
        RULES,
        "rv16golf.four",
        _rule("rv16golf.four", "RV16-4", default_before="1.1.0", applies={"layout": (4,)}),
    )
    reg(
        RULES,
        "rv16golf.four-h",
        _rule("rv16golf.four-h", "RV16-4H", default_before="1.1.0", applies={"layout": ("4H",)}),
    )
    reg(
        RULES,
        "rv16golf.own",
        _rule("rv16golf.own", "RV16-OWN", options=(Option("rv_pts", 1, "points", int),)),
    )
    return reg


def _old_record(
    options: dict[str, Any] | None = None, rules: tuple[str, ...] = (), version: str = "1.0.0"
) -> dict[str, Any]:
    rec = cardcore.new_game(GAME, 2, seed=1, rules=rules, options=options).record()
    rec["game_version"] = version
    return rec


def _setup(**kw: Any) -> GameSetup:
    data = {"game": GAME, "players": ["a", "b"], "game_version": "1.0.0", **kw}
    return GameSetup.from_data(data)


# --- applies, aliases ------------------------------------------------------------------------


def test_earlier_rules_lists_both_before_applies_is_judged(golfish) -> None:
    assert cardcore.earlier_rules(GAME, "1.0.0") == ("rv16golf.four", "rv16golf.four-h")
    assert cardcore.earlier_rules(GAME, "1.1.0") == ()


@pytest.mark.parametrize(
    ("layout", "added"),
    [
        (4, ("rv16golf.four",)),
        ("4", ("rv16golf.four",)),
        ("4h", ("rv16golf.four-h",)),
        ("4H", ("rv16golf.four-h",)),
        (6, ()),
    ],
)
def test_record_adds_only_the_rule_its_layout_is_served_by_aliases_read(
    golfish, layout: Any, added: tuple[str, ...]
) -> None:
    rec = _old_record({"layout": 6})
    rec["options"]["layout"] = layout  # as the record spells it (an alias, in JSON text)
    assert cardcore.replay(rec).rules == added


@pytest.mark.parametrize(
    ("layout", "added"),
    [
        (4, ("rv16golf.four",)),
        ("4", ("rv16golf.four",)),
        ("4h", ("rv16golf.four-h",)),
        ("4H", ("rv16golf.four-h",)),
        (6, ()),
    ],
)
def test_stored_session_adds_only_the_rule_its_layout_is_served_by(
    golfish, layout: Any, added: tuple[str, ...]
) -> None:
    setup = _setup(options={"layout": layout})
    assert setup.rules == added
    assert setup.build(1).rules == added


def test_stored_session_leaving_layout_out_judges_the_default(golfish) -> None:
    setup = _setup()
    assert setup.rules == ()
    assert setup.build(1).rules == ()


def test_record_of_earlier_version_where_no_rule_applies_replays_unchanged(golfish) -> None:
    rec = _old_record({"layout": 8})
    assert cardcore.replay(rec).rules == ()


def test_record_naming_the_rule_keeps_it_once(golfish) -> None:
    rec = _old_record({"layout": 4}, rules=("rv16golf.four",))
    assert cardcore.replay(rec).rules == ("rv16golf.four",)
    setup = _setup(options={"layout": 4}, rules=["RV16-4"])  # by its ID
    assert setup.rules == ("RV16-4",)
    assert setup.build(1).rules == ("rv16golf.four",)


@pytest.mark.parametrize(("layout", "added"), [(4, ["rv16golf.four"]), (6, [])])
def test_save_of_earlier_version_loads_with_the_rules_its_record_replays_with(
    golfish, layout: int, added: list[str]
) -> None:
    game = cardcore.new_game(GAME, 2, seed=1, options={"layout": layout})
    game.apply(game.legal_actions(0)[0])
    save = game.save()
    save["record"]["game_version"] = "1.0.0"
    loaded = cardcore.load(save)
    assert list(loaded.rules) == added
    assert loaded.state.snapshot() == game.state.snapshot()


def test_save_of_earlier_version_naming_the_added_rule_loads(golfish) -> None:
    game = cardcore.new_game(GAME, 2, seed=1, rules=["rv16golf.four"], options={"layout": 4})
    save = game.save()
    save["record"]["game_version"] = "1.0.0"
    assert cardcore.load(save).rules == ("rv16golf.four",)


def test_stored_session_fills_option_default_before_then_judges_applies(reg) -> None:
    layout = attrs.evolve(golf.GAME.option("layout"), default_before=("1.1.0", 4))
    options = tuple(layout if o.name == "layout" else o for o in golf.GAME.options)
    reg(GAMES, GAME, _game(options=options))
    reg(
        RULES,
        "rv16golf.four",
        _rule("rv16golf.four", "RV16-4", default_before="1.1.0", applies={"layout": (4,)}),
    )
    left_out = _setup()
    assert left_out.options["layout"] == 4
    assert left_out.rules == ("rv16golf.four",)
    assert left_out.build(1).rules == ("rv16golf.four",)
    given = _setup(options={"layout": 6})
    assert given.rules == ()
    assert given.build(1).rules == ()


def test_record_leaving_an_option_out_judges_applies_on_the_default(golfish) -> None:
    rec = _old_record({"layout": 6})
    del rec["options"]["layout"]  # made before the game had the option: today's default, 6
    assert cardcore.replay(rec).rules == ()


def test_stored_session_with_a_rules_own_option_judges_applies_on_the_default(golfish) -> None:
    setup = _setup(rules=["rv16golf.own"], options={"rv_pts": 2})
    assert setup.rules == ("rv16golf.own",)
    assert setup.build(1).rules == ("rv16golf.own",)


# --- requires and conflicts: the same bug through another path -----------------------------


def test_record_of_earlier_version_with_a_default_before_rule_requiring_another_replays(
    golfish,
) -> None:
    golfish(
        RULES,
        "rv16golf.needs",
        _rule("rv16golf.needs", "RV16-NEEDS", default_before="1.1.0", requires=("rv16golf.own",)),
    )
    rec = _old_record({"layout": 6})
    cardcore.replay(rec)


def test_record_of_earlier_version_naming_a_rule_that_conflicts_with_a_default_before_rule_replays(
    golfish,
) -> None:
    golfish(RULES, "rv16golf.old", _rule("rv16golf.old", "RV16-OLD", default_before="1.1.0"))
    golfish(
        RULES, "rv16golf.clash", _rule("rv16golf.clash", "RV16-CLASH", conflicts=("rv16golf.old",))
    )
    rec = _old_record({"layout": 6}, rules=("rv16golf.clash",))
    assert cardcore.replay(rec).rules == ("rv16golf.clash",)


# --- the built-in games' real default_before rules -------------------------------------------


@pytest.mark.parametrize(
    ("game", "version", "players", "options", "rules"),
    [
        ("tonk", "0.4.9", 2, None, ("tonk.natural-49-50", "tonk.deal-shows-every-hand")),
        (
            "tonk",
            "0.3.0",
            2,
            None,
            (
                "tonk.natural-49-50",
                "tonk.quiet-round-any-turns",
                "tonk.void-deal-counts",
                "tonk.deal-shows-every-hand",
            ),
        ),
        (
            "tonk",
            "0.2.0",
            4,
            {"max_players": 4},
            (
                "tonk.natural-49-50",
                "tonk.quiet-round-any-turns",
                "tonk.void-deal-counts",
                "tonk.deal-shows-every-hand",
            ),
        ),
        ("speed", "0.2.0", 2, None, ("speed.stuck-on-request",)),
        ("speed", "0.3.0", 2, None, ()),
    ],
)
def test_built_in_records_and_saves_of_earlier_versions_keep_their_rules(
    game: str, version: str, players: int, options: Any, rules: tuple[str, ...]
) -> None:
    played = cardcore.new_game(game, players, seed=3, options=options)
    rec = played.record()
    rec["game_version"] = version
    assert cardcore.replay(rec).rules == rules
    save = played.save()
    save["record"]["game_version"] = version
    assert cardcore.load(save).rules == rules


def test_built_in_stored_session_of_tonk_0_2_0_gets_its_defaults_and_rules() -> None:
    setup = GameSetup.from_data(
        {"game": "tonk", "players": ["a", "b", "c", "d"], "game_version": "0.2.0"}
    )
    assert setup.options == {"max_players": 4}
    assert set(setup.rules) == {
        "tonk.deal-shows-every-hand",
        "tonk.quiet-round-any-turns",
        "tonk.void-deal-counts",
    }
    assert "tonk.void-deal-counts" in setup.build(1).rules


# --- the game's own package --------------------------------------------------------------------


def _ns(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    for name in names:  # namespace packages: no __init__, no __file__
        monkeypatch.setitem(sys.modules, name, _module(name, file=False, package=True))


def _default_before(modname: str, name: str = "rv16golf.old") -> types.ModuleType:
    return _rule(
        name, "RV16-" + name.rsplit(".", 1)[1].upper(), modname=modname, default_before="1.1.0"
    )


def test_namespace_package_counts_the_games_subpackage_only(reg, monkeypatch) -> None:
    _ns(monkeypatch, "rv16ns")
    reg(GAMES, GAME, _game("rv16ns.golfdist.game"))
    reg(RULES, "rv16golf.mine", _default_before("rv16ns.golfdist.house.mine", "rv16golf.mine"))
    reg(RULES, "rv16golf.evil", _default_before("rv16ns.evil.house", "rv16golf.evil"))
    assert cardcore.earlier_rules(GAME, "1.0.0") == ("rv16golf.mine",)


def test_nested_namespace_package_counts_the_games_subpackage_only(reg, monkeypatch) -> None:
    _ns(monkeypatch, "rv16ns", "rv16ns.inner")
    reg(GAMES, GAME, _game("rv16ns.inner.golfdist.game"))
    reg(RULES, "rv16golf.evil", _default_before("rv16ns.inner.evil.house", "rv16golf.evil"))
    assert cardcore.earlier_rules(GAME, "1.0.0") == ()


def test_regular_package_counts_a_rule_in_its_subpackage(reg, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "rv16reg", _module("rv16reg", package=True))
    reg(GAMES, GAME, _game("rv16reg.game"))
    reg(RULES, "rv16golf.old", _default_before("rv16reg.sub.deeper.house"))
    assert cardcore.earlier_rules(GAME, "1.0.0") == ("rv16golf.old",)


def test_top_level_plain_module_game(reg, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "rv16plain", _module("rv16plain"))
    reg(GAMES, GAME, _game("rv16plain"))
    reg(RULES, "rv16golf.old", _default_before("rv16plain"))  # in the module itself: its own
    reg(RULES, "rv16golf.other", _default_before("rv16plainer", "rv16golf.other"))  # not
    assert cardcore.earlier_rules(GAME, "1.0.0") == ("rv16golf.old",)
    assert _package(sys.modules["rv16plain"]) == "rv16plain"


def test_top_package_missing_from_sys_modules_groups_by_its_name(reg) -> None:
    assert "rv16gone" not in sys.modules
    reg(GAMES, GAME, _game("rv16gone.game"))
    reg(RULES, "rv16golf.old", _default_before("rv16gone.house"))
    assert cardcore.earlier_rules(GAME, "1.0.0") == ("rv16golf.old",)
    assert _package(_module("rv16gone.a.b")) == "rv16gone"
