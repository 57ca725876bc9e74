"""Read review of how plugins are declared and registered (2026-12-07).

Covers cardcore.register/unregister, GameInfo, Option, ViewField, RuleInfo, ZoneSpec/Layout,
and entry points that fail to load. Each documented claim that holds has a passing test;
each bug found is a strict xfail naming its cause.
"""

from __future__ import annotations

import importlib.metadata as md
import types
import warnings

import attrs
import pytest

import cardcore
from cardcore import (
    GameInfo,
    Option,
    Rank,
    RuleInfo,
    ViewField,
    Visibility,
    ZoneSpec,
    hookimpl,
    plugins,
)
from cardcore.errors import (
    ArgumentError,
    CorruptStateError,
    OtherGameRuleError,
    PluginError,
    PluginWarning,
    RuleConflictError,
    UnknownPluginError,
)
from cardcore.zones import Layout

GAMES = "cardcore.games"
RULES = "cardcore.rules"


@hookimpl
def _eights_zero(card):
    return 0 if card.rank is Rank.EIGHT else None


def _rule_module(name="golf.review-snow", rule_id="REVIEW-SNOW-1", game="golf", **kw):
    module = types.ModuleType(f"review_{rule_id.lower().replace('-', '_')}")
    module.RULE = RuleInfo(id=rule_id, name=name, game=game, summary="Eights score 0", **kw)
    module.card_points = _eights_zero
    return module


def _gofish_variant(**kw):
    """A copy of the Go Fish example game under the name ``review-fish``."""
    import cardcore_gofish.rules as gf

    ns = types.SimpleNamespace(**{k: v for k, v in vars(gf).items() if not k.startswith("__")})
    ns.GAME = attrs.evolve(gf.GAME, name="review-fish", **kw)
    return ns


@pytest.fixture
def registered():
    """Register plugins for one test; everything registered is unregistered after it."""
    done = []

    def reg(group, name, target):
        cardcore.register(group, name, target)
        done.append((group, name))

    yield reg
    for group, name in reversed(done):
        cardcore.unregister(group, name)


@pytest.fixture
def installed(monkeypatch):
    """Make an entry point look installed (as importlib.metadata would list it)."""

    def add(group, name, value):
        ep = md.EntryPoint(name=name, value=value, group=group)
        monkeypatch.setitem(plugins._entries()[group], name, ep)
        plugins._forget(group, name)
        return ep

    yield add
    for group in (GAMES, RULES):
        for key in [k for k in plugins._loaded if k[0] == group and k[1].startswith("review")]:
            del plugins._loaded[key]
    plugins._forget(RULES, "")


# --- register / unregister ----------------------------------------------------------------


def test_register_then_unregister_leaves_listings_as_before(registered):
    games, rules = cardcore.available_games(), cardcore.available_rules("golf")
    cardcore.register(RULES, "golf.review-snow", _rule_module())
    try:
        assert "golf.review-snow" in cardcore.available_rules("golf")
        game = cardcore.new_game("golf", 2, rules=["golf.review-snow"], seed=3)
        assert game.rules == ("golf.review-snow",)
    finally:
        cardcore.unregister(RULES, "golf.review-snow")
    assert cardcore.available_games() == games
    assert cardcore.available_rules("golf") == rules
    with pytest.raises(UnknownPluginError):
        cardcore.rule_info("golf.review-snow")


def test_register_over_installed_game_replaces_until_unregister():
    real = cardcore.game_info("golf")
    fake = _gofish_variant()
    fake.GAME = attrs.evolve(fake.GAME, name="golf")
    cardcore.register(GAMES, "golf", fake)
    try:
        assert cardcore.game_info("golf") is fake.GAME
        assert cardcore.new_game("golf", 2, seed=1).logic is not None
        assert cardcore.available_games().count("golf") == 1
    finally:
        cardcore.unregister(GAMES, "golf")
    assert cardcore.game_info("golf") is real
    assert cardcore.new_game("golf", 2, seed=1).view(0)["game"] == "golf"


def test_nested_registrations_unwind_one_by_one():
    a, b = _rule_module(), _rule_module()
    cardcore.register(RULES, "golf.review-snow", a)
    try:
        cardcore.register(RULES, "golf.review-snow", b)
        try:
            assert plugins._load(RULES, "golf.review-snow") is b
        finally:
            cardcore.unregister(RULES, "golf.review-snow")
        assert plugins._load(RULES, "golf.review-snow") is a
    finally:
        cardcore.unregister(RULES, "golf.review-snow")
    assert "golf.review-snow" not in plugins._entries()[RULES]


def test_unregister_of_nothing_is_unknown_plugin_error():
    with pytest.raises(UnknownPluginError, match="nothing is registered"):
        cardcore.unregister(RULES, "golf.review-never-registered")


def test_register_refuses_bad_group_and_non_text_name():
    with pytest.raises(UnknownPluginError, match="unknown plugin group"):
        cardcore.register("cardcore.gamez", "x", _rule_module())
    with pytest.raises(ArgumentError):
        cardcore.register(RULES, 5, _rule_module())


def test_register_refuses_missing_or_misnamed_declaration():
    with pytest.raises(PluginError, match="has no RULE"):
        cardcore.register(RULES, "golf.review-snow", types.ModuleType("empty"))
    with pytest.raises(PluginError, match="has no GAME"):
        cardcore.register(GAMES, "review-fish", types.ModuleType("empty"))
    with pytest.raises(PluginError, match=r"declares RULE.name = 'golf.review-snow'"):
        cardcore.register(RULES, "golf.other-name", _rule_module())
    with pytest.raises(PluginError, match=r"declares GAME\.name"):
        cardcore.register(GAMES, "other-fish", _gofish_variant())
    assert "golf.other-name" not in plugins._entries()[RULES]
    assert "other-fish" not in cardcore.available_games()


def test_game_started_before_unregister_plays_on_and_replay_names_the_rule():
    cardcore.register(RULES, "golf.review-snow", _rule_module())
    try:
        game = cardcore.new_game("golf", 2, rules=["golf.review-snow"], seed=7)
    finally:
        cardcore.unregister(RULES, "golf.review-snow")
    game.apply(game.legal_actions(game.to_act[0])[0])
    assert game.version == 1
    with pytest.raises(CorruptStateError, match=r"golf\.review-snow"):
        cardcore.replay(game.record())


# --- house rules among each other -------------------------------------------------------


def test_rule_of_a_game_not_installed_is_listed_nowhere_and_refused(registered):
    registered(RULES, "zz-review.x", _rule_module("zz-review.x", "ZZREVIEW-X-1", game="zz-review"))
    for game in cardcore.available_games():
        assert "zz-review.x" not in cardcore.available_rules(game)
    with pytest.raises(OtherGameRuleError, match="belongs to 'zz-review'"):
        cardcore.new_game("golf", 2, rules=["zz-review.x"])
    assert issubclass(OtherGameRuleError, UnknownPluginError)
    assert issubclass(OtherGameRuleError, RuleConflictError)


def test_duplicate_rule_id_refused_by_id_but_chosen_by_name(registered):
    registered(RULES, "golf.review-dup", _rule_module("golf.review-dup", "GOLF-SCORE-4"))
    with pytest.raises(PluginError, match="declared by several"):
        cardcore.new_game("golf", 2, rules=["golf-score-4"])
    with pytest.raises(PluginError, match="both declare the rule ID"):
        cardcore.new_game("golf", 2, rules=["golf.jokers", "golf.review-dup"])
    assert cardcore.new_game("golf", 2, rules=["golf.review-dup"], seed=1).rules == (
        "golf.review-dup",
    )


def test_requires_of_another_games_rule_is_plugin_error(registered):
    registered(RULES, "golf.review-snow", _rule_module(requires=("tonk.natural-49-50",)))
    with pytest.raises(PluginError, match="a rule of 'tonk'"):
        cardcore.new_game("golf", 2, rules=["golf.review-snow"])


def test_unknown_conflict_warns(registered):
    registered(RULES, "golf.review-snow", _rule_module(conflicts=("golf.review-no-such",)))
    with pytest.warns(PluginWarning, match="golf.review-no-such"):
        cardcore.new_game("golf", 2, rules=["golf.review-snow"], seed=2)


def test_applies_naming_an_undeclared_option_is_plugin_error(registered):
    registered(RULES, "golf.review-snow", _rule_module(applies={"no_such_option": (1,)}))
    with pytest.raises(PluginError, match="does not declare"):
        cardcore.new_game("golf", 2, rules=["golf.review-snow"])


# --- installed plugins that are broken ---------------------------------------------------


def test_installed_game_failing_to_import_is_plugin_error_and_others_play(installed):
    installed(GAMES, "review-broken", "review_no_such_module_xyz")
    assert "review-broken" in cardcore.available_games()
    with pytest.raises(PluginError, match="failed to load"):
        cardcore.game_info("review-broken")
    with pytest.raises(PluginError, match="failed to load"):
        cardcore.new_game("review-broken", 2)
    assert cardcore.new_game("golf", 2, seed=1).players == ("Player 1", "Player 2")


def test_installed_rule_failing_to_import_is_left_out_of_listing(installed):
    before = cardcore.available_rules("golf")
    installed(RULES, "golf.review-broken", "review_no_such_module_xyz")
    assert cardcore.available_rules("golf") == before
    with pytest.raises(PluginError, match="failed to load"):
        cardcore.new_game("golf", 2, rules=["golf.review-broken"])
    assert cardcore.new_game("golf", 2, rules=["GOLF-SCORE-4"], seed=1).rules == ("golf.jokers",)


def test_installed_misnamed_game_refused_at_first_load(installed):
    installed(GAMES, "review-misnamed", "cardcore_gofish.rules")
    with pytest.raises(PluginError, match=r"declares GAME\.name = 'gofish'"):
        cardcore.game_info("review-misnamed")


def test_web_lobby_lists_the_games_that_load_beside_a_broken_one(installed):
    from cardcore.web._lobby import lobby_games

    installed(GAMES, "review-broken", "review_no_such_module_xyz")
    names = [g["name"] for g in lobby_games()]
    assert "golf" in names
    assert "review-broken" not in names


def test_registered_unloaded_entry_point_is_loaded_at_first_use(registered):
    ep = md.EntryPoint(
        name="golf.review-jokers",
        value="cardcore_golf.house.jokers_minus_two",
        group=RULES,
    )
    registered(RULES, "golf.jokers", ep)
    assert cardcore.rule_info("golf.jokers").id == "GOLF-SCORE-4"


# --- declarations ---------------------------------------------------------------------------

BAD_DECLARATIONS = {
    "game name with unicode": lambda: GameInfo("gölf", "s", 1, 2),
    "game name 65 chars": lambda: GameInfo("a" * 65, "s", 1, 2),
    "game name starting with dot": lambda: GameInfo(".x", "s", 1, 2),
    "min_players 0": lambda: GameInfo("x", "s", 0, 2),
    "max_players 65": lambda: GameInfo("x", "s", 1, 65),
    "min above max": lambda: GameInfo("x", "s", 3, 2),
    "default_rules one str": lambda: GameInfo("x", "s", 1, 2, default_rules="golf.jokers"),
    "two options one name": lambda: GameInfo("x", "s", 1, 2, options=(Option("a", 1),) * 2),
    "option not an Option": lambda: GameInfo("x", "s", 1, 2, options=("a",)),
    "option name not text": lambda: GameInfo("x", "s", 1, 2, options=(Option(5, 1),)),
    "two view fields one name": lambda: GameInfo(
        "x", "s", 1, 2, fields=(ViewField("a", "int"), ViewField("a", "str"))
    ),
    "summary with escape": lambda: GameInfo("x", "s\x1b[31m", 1, 2),
    "option min above max": lambda: Option("a", 1, minimum=5, maximum=1),
    "option default out of bounds": lambda: Option("a", 10, minimum=0, maximum=5),
    "option default wrong kind": lambda: Option("a", "x"),
    "option kind not a type": lambda: Option("a", 1, kind="int"),
    "option bounds on str": lambda: Option("a", "x", kind=str, minimum=1),
    "option bad rule_id": lambda: Option("a", 1, rule_id="bad"),
    "option NaN bound": lambda: Option("a", 1.0, kind=float, minimum=float("nan")),
    "view field empty name": lambda: ViewField("", "int"),
    "view field unknown kind": lambda: ViewField("a", "integer"),
    "per-seat without of": lambda: ViewField("a", "per-seat"),
    "of for int": lambda: ViewField("a", "int", of="int"),
    "choice without choices": lambda: ViewField("a", "choice"),
    "rule empty id": lambda: RuleInfo("", "a", "golf", "s"),
    "rule name not text": lambda: RuleInfo("A-1", 5, "golf", "s"),
    "rule conflicts one str": lambda: RuleInfo("A-1", "a", "golf", "s", conflicts="b"),
    "rule applies one value": lambda: RuleInfo("A-1", "a", "golf", "s", applies={"layout": 6}),
    "rule default_before not a version": lambda: RuleInfo(
        "A-1", "a", "golf", "s", default_before="x"
    ),
    "pile empty name": lambda: ZoneSpec(""),
    "pile owner 64": lambda: ZoneSpec("a", 64),
    "pile visibility as text": lambda: ZoneSpec("a", None, "owner"),
    "layout repeated pile": lambda: Layout.of([ZoneSpec("a"), ZoneSpec("a")]),
    "layout of a str": lambda: Layout.of("ab"),
}


@pytest.mark.parametrize("what", sorted(BAD_DECLARATIONS))
def test_bad_declaration_is_plugin_error_when_built(what):
    with pytest.raises(PluginError):
        BAD_DECLARATIONS[what]()


def test_good_declarations_at_the_limits_are_accepted():
    assert GameInfo("a" * 64, "s", 1, 64).max_players == 64
    assert ZoneSpec("hand", 63, Visibility.OWNER).owner == 63
    assert Layout.of([ZoneSpec("a"), ZoneSpec("b")]).id("b") == 1


def test_hookspecs_that_are_no_module_refused_as_plugin_error(registered):
    try:
        fake = _gofish_variant(hookspecs="not a module")
        registered(GAMES, "review-fish", fake)
    except PluginError:
        return  # refused at declaration or registration: as it should be
    with pytest.raises(PluginError):
        cardcore.new_game("review-fish", 2, seed=1)


def test_game_version_that_is_no_version_refused_at_declaration():
    with pytest.raises(PluginError):
        _gofish_variant(version="abc")


def test_default_rule_of_another_game_is_refused(registered):
    registered(GAMES, "review-fish", _gofish_variant(default_rules=("golf.jokers",)))
    with pytest.raises(PluginError, match="a rule of 'golf'") as err:  # the game's declaration
        cardcore.new_game("review-fish", 2, seed=1)
    assert err.value.plugin == "review-fish"


def test_default_rule_not_installed_is_unknown_plugin_error(registered):
    registered(GAMES, "review-fish", _gofish_variant(default_rules=("review-fish.nope",)))
    with pytest.raises(UnknownPluginError, match=r"review-fish\.nope"):
        cardcore.new_game("review-fish", 2, seed=1)


def test_registered_game_is_listed_and_gone_after_unregister():
    before = cardcore.available_games()
    cardcore.register(GAMES, "review-fish", _gofish_variant())
    try:
        assert "review-fish" in cardcore.available_games()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert cardcore.new_game("review-fish", 2, seed=1).players == ("Player 1", "Player 2")
    finally:
        cardcore.unregister(GAMES, "review-fish")
    assert cardcore.available_games() == before
    with pytest.raises(UnknownPluginError):
        cardcore.new_game("review-fish", 2)
