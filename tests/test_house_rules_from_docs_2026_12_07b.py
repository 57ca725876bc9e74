"""House rules written from docs/hooks.rst and docs/plugin-guide/*.rst alone.

Four rules of our own, each on a different hook, registered with
``cardcore.register`` as the pages show, played on and off with seeds, plus the
documented mistakes (ID clash, misspelled hook, name mismatch, a rule raising).
"""

from __future__ import annotations

import logging
import random
import re
import types
from collections import Counter

import pytest

import cardcore
from cardcore import Card, Option, RuleInfo, Veto, hookimpl
from cardcore.errors import (
    CorruptStateError,
    IllegalActionError,
    OptionError,
    PluginError,
    UnknownPluginError,
)

RULES = "cardcore.rules"


def make_module(rule: RuleInfo, **hooks: object) -> types.ModuleType:
    module = types.ModuleType(rule.name.replace(".", "_").replace("-", "_"))
    module.RULE = rule
    vars(module).update(hooks)
    return module


@pytest.fixture
def registered():
    """Register modules; unregister every one at the end."""
    names: list[str] = []

    def add(rule: RuleInfo, **hooks: object) -> types.ModuleType:
        module = make_module(rule, **hooks)
        cardcore.register(RULES, rule.name, module)
        names.append(rule.name)
        return module

    yield add
    for name in reversed(names):
        cardcore.unregister(RULES, name)


def two_randoms():
    return [cardcore.RandomAgent(1), cardcore.RandomAgent(2)]


# --------------------------------------------------------------------------
# Rule 1: score_round + its own bounded Option (Golf). "TITHE-1": every seat
# pays `tithe` extra points each round (house-rule.rst, "A rule's own parameters").

TITHE = RuleInfo(
    id="TITHE-1",
    name="golf.tithe",
    game="golf",
    summary="Each seat adds tithe points to every round",
    options=(Option("tithe", default=2, minimum=0, maximum=10, doc="Points added per round"),),
)


@hookimpl
def tithe_score_round(state, scores):
    return [score + state.options["tithe"] for score in scores]


def register_tithe(registered):
    return registered(TITHE, score_round=tithe_score_round)


def golf_scores(rules=(), options=None, seed=4):
    game = cardcore.new_game("golf", 2, rules=rules, options=options, seed=seed)
    return game, cardcore.play(game, two_randoms())


@pytest.mark.parametrize("seed", [4, 11])
def test_tithe_adds_exactly_its_option_per_round(registered, seed):
    register_tithe(registered)
    rounds = 2
    _, plain = golf_scores(options={"rounds": rounds}, seed=seed)
    game, ruled = golf_scores(
        rules=["golf.tithe"], options={"rounds": rounds, "tithe": 3}, seed=seed
    )
    assert game.rules == ("golf.tithe",)
    assert game.options["tithe"] == 3
    assert ruled.scores == tuple(s + 3 * rounds for s in plain.scores)
    # default filled in when not given
    game, dflt = golf_scores(rules=["golf.tithe"], options={"rounds": 1}, seed=seed)
    _, plain1 = golf_scores(options={"rounds": 1}, seed=seed)
    assert game.options["tithe"] == 2
    assert dflt.scores == tuple(s + 2 for s in plain1.scores)


def test_tithe_option_out_of_bounds_refused_naming_the_rule(registered):
    register_tithe(registered)
    before = cardcore.new_game("golf", 2, rules=["golf.tithe"], seed=1)
    saved = before.save()
    with pytest.raises(OptionError) as err:
        cardcore.new_game("golf", 2, rules=["golf.tithe"], options={"tithe": 11})
    assert "at most 10" in str(err.value) and "golf.tithe" in str(err.value)
    with pytest.raises(OptionError) as err:
        cardcore.new_game("golf", 2, rules=["golf.tithe"], options={"tithe": -1})
    assert "golf.tithe" in str(err.value)
    # without the rule the option is refused, naming the rule that takes it
    with pytest.raises(OptionError) as err:
        cardcore.new_game("golf", 2, options={"tithe": 3})
    assert "golf.tithe" in str(err.value)
    assert before.save() == saved
    # the configuration still works with a good value
    assert (
        cardcore.new_game("golf", 2, rules=["golf.tithe"], options={"tithe": 10}).options["tithe"]
        == 10
    )


def test_tithe_survives_save_load_and_replay(registered):
    register_tithe(registered)
    game = cardcore.new_game(
        "golf", 2, rules=["golf.tithe"], options={"rounds": 1, "tithe": 5}, seed=9
    )
    result = cardcore.play(game, two_randoms())
    record = game.record()
    assert record["options"]["tithe"] == 5
    assert [r["name"] for r in record["rules"]] == ["golf.tithe"]
    again = cardcore.replay(record)
    assert again.rules == ("golf.tithe",) and again.result.scores == result.scores
    loaded = cardcore.load(game.save())
    assert loaded.rules == ("golf.tithe",) and loaded.options["tithe"] == 5
    assert loaded.result.scores == result.scores


def test_save_midgame_load_continues_with_rule(registered):
    register_tithe(registered)
    game = cardcore.new_game(
        "golf", 2, rules=["golf.tithe"], options={"rounds": 1, "tithe": 4}, seed=13
    )
    for _ in range(6):
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[0])
    loaded = cardcore.load(game.save())
    for g in (game, loaded):
        while not g.is_over:
            seat = g.to_act[0]
            g.apply(g.legal_actions(seat)[-1])
    assert loaded.result.scores == game.result.scores
    assert loaded.save() == game.save()


def test_tithe_listed_and_unregister_restores(registered, capsys):
    from cardcore import cli

    module = make_module(TITHE, score_round=tithe_score_round)
    cardcore.register(RULES, "golf.tithe", module)
    try:
        assert "golf.tithe" in cardcore.available_rules("golf")
        assert cardcore.rule_info("golf.tithe").id == "TITHE-1"
        assert cardcore.rule_info("TITHE-1").name == "golf.tithe"
        capsys.readouterr()
        assert cli.main(["list", "golf"]) == 0
        out = capsys.readouterr().out
        assert "golf.tithe" in out and "TITHE-1" in out
        game = cardcore.new_game("golf", 2, rules=["TITHE-1"], options={"rounds": 1}, seed=2)
        assert game.rules == ("golf.tithe",)
        cardcore.play(game, two_randoms())
        saved, record = game.save(), game.record()
    finally:
        cardcore.unregister(RULES, "golf.tithe")
    assert "golf.tithe" not in cardcore.available_rules("golf")
    with pytest.raises(UnknownPluginError):
        cardcore.new_game("golf", 2, rules=["golf.tithe"])
    with pytest.raises(CorruptStateError, match=re.escape("golf.tithe")):
        cardcore.load(saved)
    with pytest.raises(CorruptStateError, match=re.escape("golf.tithe")):
        cardcore.replay(record)
    # plain game is as it was before the rule ever existed
    _, a = golf_scores(options={"rounds": 1}, seed=2)
    # registering again makes the saved game loadable again (entry-points.rst)
    cardcore.register(RULES, "golf.tithe", module)
    try:
        assert cardcore.load(saved).result.scores == game.result.scores
        assert game.result.scores == tuple(s + 2 for s in a.scores)
    finally:
        cardcore.unregister(RULES, "golf.tithe")


# --------------------------------------------------------------------------
# Rule 2: forbid_action veto in Tonk. "NODROP-1": nobody may drop.


@hookimpl
def no_drop(action):
    if action.verb == "drop":
        return Veto("NODROP-1", "dropping is not allowed here")
    return None


NODROP = RuleInfo(id="NODROP-1", name="tonk.no-drop", game="tonk", summary="No drops")


def test_no_drop_vetoes_drop_in_legal_actions_and_apply(registered):
    registered(NODROP, forbid_action=no_drop)
    plain = cardcore.new_game("tonk", 2, seed=4)
    seat = plain.to_act[0]
    plain_legal = [str(a) for a in plain.legal_actions(seat)]
    assert "drop" in plain_legal
    game = cardcore.new_game("tonk", 2, rules=["tonk.no-drop"], seed=4)
    assert "tonk.no-drop" in game.rules
    legal = [str(a) for a in game.legal_actions(seat)]
    assert legal == [t for t in plain_legal if t != "drop"]
    assert game.view(seat)["legal"] == legal
    drop = next(a for a in plain.legal_actions(seat) if a.verb == "drop")
    saved, version = game.save(), game.version
    events = []
    game.events.subscribe(cardcore.Event, events.append)
    with pytest.raises(IllegalActionError) as err:
        game.apply(drop)
    assert str(err.value).endswith("(NODROP-1)")
    with pytest.raises(IllegalActionError, match=r"\(NODROP-1\)$"):
        game.act(seat, "drop")
    assert game.save() == saved and game.version == version and events == []


def test_no_drop_never_drops_in_whole_games(registered):
    registered(NODROP, forbid_action=no_drop)
    for seed in range(3):
        game = cardcore.new_game("tonk", 2, rules=["tonk.no-drop"], seed=seed)
        cardcore.play(game, two_randoms())
        texts = [a[1] for a in game.record()["actions"]]
        assert "drop" not in texts
        assert game.result.reason != "drop-won"
        assert cardcore.replay(game.record()).result == game.result


# --------------------------------------------------------------------------
# Rule 3: on_event observer (Golf). Counts events; hushed for clones and replays.


def test_on_event_observer_hears_played_game_not_clone_or_replay(registered):
    slugs: Counter[str] = Counter()

    @hookimpl
    def on_event(event):
        slugs[event.slug] += 1

    registered(
        RuleInfo(id="EARS-1", name="golf.ears", game="golf", summary="Count events"),
        on_event=on_event,
    )
    game = cardcore.new_game("golf", 2, rules=["golf.ears"], options={"rounds": 1}, seed=4)
    cardcore.play(game, two_randoms())
    assert slugs["game-started"] == 1
    assert slugs["action-applied"] == game.version
    assert slugs["game-ended"] == 1
    heard = Counter(slugs)
    cardcore.replay(game.record())
    cardcore.load(game.save())
    assert slugs == heard  # replay and load are hushed
    fresh = cardcore.new_game("golf", 2, rules=["golf.ears"], options={"rounds": 1}, seed=4)
    twin = fresh.clone()
    before = Counter(slugs)
    twin.apply(twin.legal_actions(twin.to_act[0])[0])
    assert slugs == before  # a clone is hushed
    fresh.apply(fresh.legal_actions(fresh.to_act[0])[0])
    assert slugs["action-applied"] == before["action-applied"] + 1
    # without the rule nothing is heard
    before = Counter(slugs)
    golf_scores(options={"rounds": 1}, seed=4)
    assert slugs == before


def test_on_event_raising_keeps_action_and_logs_plugin(registered, caplog):
    @hookimpl
    def on_event(event):
        raise RuntimeError("observer broke")

    registered(
        RuleInfo(id="LOUD-1", name="golf.loud", game="golf", summary="Raises"),
        on_event=on_event,
    )
    got = []
    game = cardcore.new_game("golf", 2, rules=["golf.loud"], seed=3)
    game.events.subscribe(cardcore.Event, got.append)
    version = game.version
    with caplog.at_level(logging.DEBUG, logger="cardcore.events"):
        game.apply(game.legal_actions(game.to_act[0])[0])
        game.apply(game.legal_actions(game.to_act[0])[0])
    assert game.version == version + 2
    assert len(got) >= 2  # the other subscriber still receives the events
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert errors and "golf.loud" in errors[0].getMessage()
    assert errors[0].exc_info is not None


def test_on_event_wrapper_is_refused(registered):
    @hookimpl(wrapper=True)
    def on_event(event):
        return (yield)

    registered(
        RuleInfo(id="WRAPEAR-1", name="golf.wrap-ear", game="golf", summary="Wrapper"),
        on_event=on_event,
    )
    with pytest.raises(PluginError, match=re.escape("golf.wrap-ear")):
        cardcore.new_game("golf", 2, rules=["golf.wrap-ear"], seed=1)


# --------------------------------------------------------------------------
# Rule 4: build_deck wrapper + card_points (Golf). "FOOLS-1": two jokers, 5 each.


@hookimpl(wrapper=True)
def fools_deck(players, options):
    deck = yield
    return (*deck, cardcore.JOKER, cardcore.JOKER)


@hookimpl
def fools_points(card):
    return 5 if card.is_joker else None


FOOLS = RuleInfo(id="FOOLS-1", name="golf.fools", game="golf", summary="Two jokers, 5 each")


def test_fools_adds_two_jokers_worth_five(registered):
    registered(FOOLS, build_deck=fools_deck, card_points=fools_points)
    plain = cardcore.new_game("golf", 2, seed=1)
    game = cardcore.new_game("golf", 2, rules=["golf.fools"], seed=1)
    plain_deck = plain.logic.deck(2, plain.options)
    deck = game.logic.deck(2, game.options)
    assert len(deck) == len(plain_deck) + 2
    assert sum(c.is_joker for c in deck) == 2 + sum(c.is_joker for c in plain_deck)
    points = cardcore.get_ruleset("golf", ["golf.fools"]).resolve("card_points")
    assert points(card=cardcore.JOKER) == 5
    assert points(card=Card.parse("7C")) is None  # defers what it leaves alone
    # whole games with jokers in the deck play, and save/load/replay round trip
    for seed in range(2):
        g = cardcore.new_game("golf", 2, rules=["golf.fools"], options={"rounds": 1}, seed=seed)
        cardcore.play(g, two_randoms())
        assert cardcore.replay(g.record()).result == g.result
        assert cardcore.load(g.save()).save() == g.save()


def test_unregister_gives_back_the_plain_configuration(registered):
    module = make_module(FOOLS, build_deck=fools_deck, card_points=fools_points)
    cardcore.register(RULES, "golf.fools", module)
    try:
        cardcore.new_game("golf", 2, rules=["golf.fools"], seed=1)
    finally:
        cardcore.unregister(RULES, "golf.fools")
    game = cardcore.new_game("golf", 2, seed=1)
    assert not any(c.is_joker for c in game.logic.deck(2, game.options))
    assert "golf.fools" not in cardcore.available_rules("golf")


# --------------------------------------------------------------------------
# Documented mistakes.


def test_rule_id_clash_chosen_by_name_but_not_by_id(registered):
    registered(
        RuleInfo(id="GOLF-SCORE-4", name="golf.copycat", game="golf", summary="Reuses an ID"),
        forbid_action=no_drop,
    )
    game = cardcore.new_game("golf", 2, rules=["golf.copycat"], seed=1)
    assert game.rules == ("golf.copycat",)
    with pytest.raises(PluginError):
        cardcore.new_game("golf", 2, rules=["GOLF-SCORE-4"])
    with pytest.raises(PluginError):
        cardcore.new_game("golf", 2, rules=["golf-score-4"])
    with pytest.raises(PluginError):
        cardcore.new_game("golf", 2, rules=["golf.copycat", "golf.jokers"])


def test_rule_id_clash_in_other_case_is_a_clash_too(registered):
    registered(
        RuleInfo(id="golf-score-4", name="golf.lowcopy", game="golf", summary="Lower-case ID"),
        forbid_action=no_drop,
    )
    assert cardcore.new_game("golf", 2, rules=["golf.lowcopy"], seed=1).rules == ("golf.lowcopy",)
    with pytest.raises(PluginError):
        cardcore.new_game("golf", 2, rules=["GOLF-SCORE-4"])


def test_misspelled_hook_refused_naming_hook_and_suggestion(registered):
    @hookimpl
    def score_rund(state, scores):
        return None

    registered(
        RuleInfo(id="TYPO-9", name="golf.typo9", game="golf", summary="Typo"),
        score_rund=score_rund,
    )
    with pytest.raises(PluginError) as err:
        cardcore.new_game("golf", 2, rules=["golf.typo9"])
    msg = str(err.value)
    assert "golf.typo9" in msg and "score_rund" in msg and "score_round" in msg


def test_register_under_another_name_is_refused():
    module = make_module(
        RuleInfo(id="MIS-1", name="golf.declared", game="golf", summary="Mismatch"),
        forbid_action=no_drop,
    )
    try:
        with pytest.raises(PluginError):
            cardcore.register(RULES, "golf.published", module)
    finally:
        if "golf.published" in cardcore.available_rules("golf"):
            cardcore.unregister(RULES, "golf.published")
    assert "golf.published" not in cardcore.available_rules("golf")


def test_rule_option_named_like_a_game_option_is_refused(registered):
    registered(
        RuleInfo(
            id="CLASH-1",
            name="golf.clash-opt",
            game="golf",
            summary="Option clash",
            options=(Option("rounds", default=3, minimum=1, maximum=9),),
        ),
        score_round=tithe_score_round,
    )
    with pytest.raises(PluginError, match=re.escape("golf.clash-opt")):
        cardcore.new_game("golf", 2, rules=["golf.clash-opt"], seed=1)


def test_unbounded_int_option_fails_the_kits_bound_check(registered):
    from cardcore import testing

    registered(
        RuleInfo(
            id="LOOSE-1",
            name="golf.loose",
            game="golf",
            summary="Unbounded option",
            options=(Option("tithe", default=1),),
        ),
        score_round=tithe_score_round,
    )
    report = testing.check_bounds(
        "golf", players=2, rules=["golf.loose"], options={"rounds": 1}, games=1, strict=False
    )
    assert not report.ok
    assert "tithe" in str(report)


def test_score_round_raising_is_plugin_error_game_unchanged(registered):
    @hookimpl
    def score_round(state, scores):
        raise RuntimeError("boom")

    registered(
        RuleInfo(id="BOOM-1", name="golf.boom", game="golf", summary="Raises"),
        score_round=score_round,
    )
    game = cardcore.new_game("golf", 2, rules=["golf.boom"], options={"rounds": 1}, seed=5)
    rng = random.Random(5)
    for _ in range(2000):
        saved, version, record = game.save(), game.version, game.record()
        action = rng.choice(game.legal_actions(game.to_act[0]))
        try:
            game.apply(action)
        except PluginError as err:
            assert "golf.boom" in str(err)
            assert game.save() == saved
            assert game.version == version
            assert game.record() == record
            break
    else:
        pytest.fail("score_round never called")


def test_forbid_action_raising_is_plugin_error_game_unchanged(registered):
    @hookimpl
    def forbid_action(action):
        raise ValueError("veto broke")

    registered(
        RuleInfo(id="VBOOM-1", name="tonk.veto-boom", game="tonk", summary="Raises"),
        forbid_action=forbid_action,
    )
    game = cardcore.new_game("tonk", 2, rules=["tonk.veto-boom"], seed=4)
    saved = game.save()
    seat = game.to_act[0]
    with pytest.raises(PluginError, match=re.escape("tonk.veto-boom")):
        game.legal_actions(seat)
    with pytest.raises(PluginError, match=re.escape("tonk.veto-boom")):
        game.act(seat, "draw")
    assert game.save() == saved


def test_veto_with_empty_rule_id_names_the_rule(registered):
    @hookimpl
    def forbid_action(action):
        return Veto("", "no reason") if action.verb == "drop" else None

    registered(
        RuleInfo(id="EMPTY-1", name="tonk.empty-veto", game="tonk", summary="Bad veto"),
        forbid_action=forbid_action,
    )
    game = cardcore.new_game("tonk", 2, rules=["tonk.empty-veto"], seed=4)
    saved = game.save()
    with pytest.raises(PluginError, match=re.escape("tonk.empty-veto")):
        game.legal_actions(game.to_act[0])
    assert game.save() == saved


# --------------------------------------------------------------------------
# Rule 5: determinize override (Golf), and more documented contracts.


def test_determinize_hook_override_is_used(registered):
    calls = []

    @hookimpl
    def determinize(state, seat, rng):
        calls.append(seat)
        return True  # done: nothing moved

    registered(
        RuleInfo(id="SEER-1", name="golf.seer", game="golf", summary="No re-deal"),
        determinize=determinize,
    )
    game = cardcore.new_game("golf", 2, rules=["golf.seer"], seed=8)
    twin = game.determinize(0, seed=1)
    assert calls == [0]
    assert twin.position() == game.position()
    plain = cardcore.new_game("golf", 2, seed=8)
    assert plain.determinize(0, seed=1).position() != plain.position()


def test_veto_with_option_read_from_state(registered):
    @hookimpl
    def forbid_action(state, action):
        if action.verb == "drop" and state.options["drop_ban"]:
            return Veto("DROPBAN-1", "drops banned by option")
        return None

    registered(
        RuleInfo(
            id="DROPBAN-1",
            name="tonk.drop-ban",
            game="tonk",
            summary="Option-steered drop ban",
            options=(Option("drop_ban", default=1, minimum=0, maximum=1),),
        ),
        forbid_action=forbid_action,
    )
    on = cardcore.new_game("tonk", 2, rules=["tonk.drop-ban"], seed=4)
    off = cardcore.new_game("tonk", 2, rules=["tonk.drop-ban"], options={"drop_ban": 0}, seed=4)
    seat = on.to_act[0]
    assert "drop" not in [str(a) for a in on.legal_actions(seat)]
    assert "drop" in [str(a) for a in off.legal_actions(seat)]
    loaded = cardcore.load(on.save())
    assert "drop" not in [str(a) for a in loaded.legal_actions(seat)]


def test_two_vetoes_cite_the_rule_last_in_order(registered):
    def veto_from(rule_id):
        @hookimpl
        def forbid_action(action):
            return Veto(rule_id, f"banned by {rule_id}") if action.verb == "drop" else None

        return forbid_action

    registered(
        RuleInfo(id="VB-10", name="tonk.vb-ten", game="tonk", summary="veto"),
        forbid_action=veto_from("VB-10"),
    )
    registered(
        RuleInfo(id="VB-9", name="tonk.vb-nine", game="tonk", summary="veto"),
        forbid_action=veto_from("VB-9"),
    )
    for order in (["tonk.vb-ten", "tonk.vb-nine"], ["tonk.vb-nine", "tonk.vb-ten"]):
        game = cardcore.new_game("tonk", 2, rules=order, seed=4)
        ours = [r for r in game.rules if r.startswith("tonk.vb")]
        # sorted by rule ID as text: VB-10 < VB-9, so VB-9's rule is last
        assert ours == ["tonk.vb-ten", "tonk.vb-nine"]
        with pytest.raises(IllegalActionError, match=r"\(VB-9\)$"):
            game.act(game.to_act[0], "drop")


def test_non_veto_answer_is_plugin_error(registered):
    @hookimpl
    def forbid_action(action):
        return "no" if action.verb == "drop" else None

    registered(
        RuleInfo(id="NO-1", name="tonk.says-no", game="tonk", summary="Bad answer"),
        forbid_action=forbid_action,
    )
    game = cardcore.new_game("tonk", 2, rules=["tonk.says-no"], seed=4)
    saved = game.save()
    with pytest.raises(PluginError, match=re.escape("tonk.says-no")):
        game.legal_actions(game.to_act[0])
    assert game.save() == saved


def test_veto_with_bad_reason_names_rule(registered):
    @hookimpl
    def forbid_action(action):
        return Veto("BADR-1", 42) if action.verb == "drop" else None

    registered(
        RuleInfo(id="BADR-1", name="tonk.bad-reason", game="tonk", summary="Bad reason"),
        forbid_action=forbid_action,
    )
    game = cardcore.new_game("tonk", 2, rules=["tonk.bad-reason"], seed=4)
    saved = game.save()
    with pytest.raises(PluginError, match=re.escape("tonk.bad-reason")):
        game.legal_actions(game.to_act[0])
    assert game.save() == saved


def test_veto_calling_back_into_game_is_refused(registered):
    holder = {}

    @hookimpl
    def forbid_action(action):
        holder["game"].view(0)
        return None

    registered(
        RuleInfo(id="BACK-1", name="tonk.callback", game="tonk", summary="Calls back"),
        forbid_action=forbid_action,
    )
    game = cardcore.new_game("tonk", 2, rules=["tonk.callback"], seed=4)
    holder["game"] = game
    saved = game.save()
    with pytest.raises(PluginError, match=re.escape("tonk.callback")):
        game.act(game.to_act[0], "draw")
    assert game.save() == saved


def test_doubling_tonk_stakes_keeps_zero_sum(registered):
    @hookimpl(wrapper=True)
    def score_round(scores):
        inner = yield
        return [2 * s for s in inner]

    registered(
        RuleInfo(id="DBL-1", name="tonk.double", game="tonk", summary="Double stakes"),
        score_round=score_round,
    )
    for seed in range(3):
        plain = cardcore.play(cardcore.new_game("tonk", 2, seed=seed), two_randoms())
        game = cardcore.new_game("tonk", 2, rules=["tonk.double"], seed=seed)
        doubled = cardcore.play(game, two_randoms())
        assert doubled.payouts == tuple(2 * p for p in plain.payouts)
        assert sum(doubled.payouts) == 0


def test_option_error_at_setup_reaches_caller_as_is(registered):
    @hookimpl
    def build_deck(players, options):
        raise OptionError("picky refuses these options")

    registered(
        RuleInfo(id="PICKY-1", name="golf.picky", game="golf", summary="Refuses"),
        build_deck=build_deck,
    )
    with pytest.raises(OptionError, match="picky refuses") as err:
        cardcore.new_game("golf", 2, rules=["golf.picky"], seed=1)
    assert not isinstance(err.value, PluginError)


def test_no_hook_rule_warns_and_missing_conflict_warns(registered):
    registered(RuleInfo(id="IDLE-1", name="golf.idle", game="golf", summary="Nothing"))
    with pytest.warns(cardcore.PluginWarning):
        cardcore.new_game("golf", 2, rules=["golf.idle"], seed=1)
    registered(
        RuleInfo(
            id="CONF-1",
            name="golf.conf",
            game="golf",
            summary="Conflicts with nothing installed",
            conflicts=("golf.not-installed-anywhere",),
        ),
        forbid_action=no_drop,
    )
    with pytest.warns(cardcore.PluginWarning):
        cardcore.new_game("golf", 2, rules=["golf.conf"], seed=1)


def test_requires_unchosen_and_applies_typo(registered):
    registered(
        RuleInfo(
            id="NEED-1",
            name="golf.needy",
            game="golf",
            summary="Needs jokers",
            requires=("golf.jokers",),
        ),
        forbid_action=no_drop,
    )
    with pytest.raises(cardcore.RuleConflictError):
        cardcore.new_game("golf", 2, rules=["golf.needy"], seed=1)
    assert cardcore.new_game("golf", 2, rules=["golf.needy", "golf.jokers"], seed=1)
    registered(
        RuleInfo(
            id="WHERE-1",
            name="golf.where",
            game="golf",
            summary="Misspelled applies",
            applies={"layuot": (4,)},
        ),
        forbid_action=no_drop,
    )
    with pytest.raises(PluginError, match=re.escape("golf.where")):
        cardcore.new_game("golf", 2, rules=["golf.where"], seed=1)


def test_register_over_installed_rule_and_unregister_puts_it_back():
    mine = make_module(
        RuleInfo(id="MYJOKERS-1", name="golf.jokers", game="golf", summary="Mine"),
        forbid_action=no_drop,
    )
    cardcore.register(RULES, "golf.jokers", mine)
    try:
        assert cardcore.rule_info("golf.jokers").id == "MYJOKERS-1"
        game = cardcore.new_game("golf", 2, rules=["golf.jokers"], seed=1)
        assert not any(c.is_joker for c in game.logic.deck(2, game.options))
    finally:
        cardcore.unregister(RULES, "golf.jokers")
    assert cardcore.rule_info("golf.jokers").id == "GOLF-SCORE-4"
    game = cardcore.new_game("golf", 2, rules=["golf.jokers"], seed=1)
    assert sum(c.is_joker for c in game.logic.deck(2, game.options)) == 2


def test_game_started_before_unregister_plays_on():
    module = make_module(TITHE, score_round=tithe_score_round)
    cardcore.register(RULES, "golf.tithe", module)
    try:
        game = cardcore.new_game("golf", 2, rules=["golf.tithe"], options={"rounds": 1}, seed=2)
    finally:
        cardcore.unregister(RULES, "golf.tithe")
    result = cardcore.play(game, two_randoms())
    plain = cardcore.play(
        cardcore.new_game("golf", 2, options={"rounds": 1}, seed=2), two_randoms()
    )
    assert result.scores == tuple(s + 2 for s in plain.scores)


def test_veto_that_moves_a_card_is_refused_and_game_restored(registered):
    @hookimpl
    def forbid_action(state, action):
        state.zones.pop(0)  # a card removed from a pile: not a read
        return None

    registered(
        RuleInfo(id="THIEF-1", name="tonk.thief", game="tonk", summary="Steals a card"),
        forbid_action=forbid_action,
    )
    game = cardcore.new_game("tonk", 2, rules=["tonk.thief"], seed=4)
    saved = game.save()
    with pytest.raises(PluginError, match=re.escape("tonk.thief")):
        game.legal_actions(game.to_act[0])
    assert game.save() == saved
    with pytest.raises(PluginError, match=re.escape("tonk.thief")):
        game.act(game.to_act[0], "draw")
    assert game.save() == saved


def test_score_round_that_changes_state_is_refused_naming_rule(registered):
    @hookimpl
    def score_round(state, scores):
        state.zones.pop(0)
        return None

    registered(
        RuleInfo(id="SCTAMP-1", name="golf.sctamper", game="golf", summary="Tampers"),
        score_round=score_round,
    )
    game = cardcore.new_game("golf", 2, rules=["golf.sctamper"], options={"rounds": 1}, seed=5)
    rng = random.Random(5)
    for _ in range(2000):
        saved, version = game.save(), game.version
        action = rng.choice(game.legal_actions(game.to_act[0]))
        try:
            game.apply(action)
        except PluginError as err:
            assert "golf.sctamper" in str(err)
            assert game.save() == saved and game.version == version
            break
    else:
        pytest.fail("score_round never called")


def test_rule_option_with_rule_id_ends_message_and_is_in_view_and_listing(registered, capsys):
    from cardcore import cli

    registered(
        RuleInfo(
            id="CAPX-1",
            name="golf.capx",
            game="golf",
            summary="Cap",
            options=(Option("capx", default=10, minimum=0, maximum=100, rule_id="CAPX-1"),),
        ),
        score_round=tithe_score_round,
    )
    with pytest.raises(OptionError) as err:
        cardcore.new_game("golf", 2, rules=["golf.capx"], options={"capx": 101})
    assert str(err.value).endswith("(CAPX-1)")
    game = cardcore.new_game("golf", 2, rules=["golf.capx"], options={"capx": 7}, seed=1)
    assert game.view(0)["options"]["capx"] == 7
    assert game.view(None)["options"]["capx"] == 7
    capsys.readouterr()
    assert cli.main(["list", "golf"]) == 0
    out = capsys.readouterr().out
    assert "capx" in out


def test_cli_sets_rule_option_with_o(registered, capsys):
    from cardcore import cli

    register_tithe(registered)
    capsys.readouterr()
    code = cli.main(
        [
            "simulate",
            "golf",
            "--rules",
            "golf.tithe",
            "-o",
            "tithe=3",
            "-o",
            "rounds=1",
            "--games",
            "2",
            "--quiet",
        ]
    )
    assert code == 0
    code = cli.main(
        ["simulate", "golf", "--rules", "golf.tithe", "-o", "tithe=30", "--games", "1", "--quiet"]
    )
    assert code == 2  # cli.rst: 2 for a bad argument, option, rule or record
    assert "golf.tithe" in capsys.readouterr().err


def test_option_error_in_play_is_plugin_error(registered):
    @hookimpl
    def forbid_action(action):
        raise OptionError("late refusal")

    registered(
        RuleInfo(id="LATE-1", name="tonk.late", game="tonk", summary="Late"),
        forbid_action=forbid_action,
    )
    game = cardcore.new_game("tonk", 2, rules=["tonk.late"], seed=4)
    with pytest.raises(PluginError, match=re.escape("tonk.late")):
        game.legal_actions(game.to_act[0])


def test_plugin_error_raised_by_rule_reaches_as_is(registered):
    mine = PluginError("my own words")

    @hookimpl
    def forbid_action(action):
        raise mine

    registered(
        RuleInfo(id="OWN-1", name="tonk.own", game="tonk", summary="Own error"),
        forbid_action=forbid_action,
    )
    game = cardcore.new_game("tonk", 2, rules=["tonk.own"], seed=4)
    with pytest.raises(PluginError) as err:
        game.legal_actions(game.to_act[0])
    assert err.value is mine


def test_other_game_rule_and_option_clash_between_rules(registered):
    with pytest.raises(cardcore.OtherGameRuleError):
        cardcore.new_game("golf", 2, rules=["tonk.natural-49-50"])
    register_tithe(registered)
    registered(
        RuleInfo(
            id="TITHE-2",
            name="golf.tithe-two",
            game="golf",
            summary="Same option name",
            options=(Option("tithe", default=1, minimum=0, maximum=5),),
        ),
        score_round=tithe_score_round,
    )
    with pytest.raises(PluginError):
        cardcore.new_game("golf", 2, rules=["golf.tithe", "golf.tithe-two"], seed=1)


def test_non_int_card_points_refused_naming_rule(registered):
    @hookimpl
    def card_points(card):
        return 2.5 if card.rank is cardcore.Rank.EIGHT else None

    registered(
        RuleInfo(id="HALF-1", name="golf.half", game="golf", summary="2.5"),
        card_points=card_points,
    )
    with pytest.raises(PluginError, match=re.escape("golf.half")):
        game = cardcore.new_game("golf", 2, rules=["golf.half"], options={"rounds": 1}, seed=1)
        cardcore.play(game, two_randoms())


def test_on_event_hears_play_after_load(registered):
    slugs: Counter[str] = Counter()

    @hookimpl
    def on_event(event):
        slugs[event.slug] += 1

    registered(
        RuleInfo(id="EARS-2", name="golf.ears2", game="golf", summary="Count"),
        on_event=on_event,
    )
    game = cardcore.new_game("golf", 2, rules=["golf.ears2"], seed=4)
    game.apply(game.legal_actions(game.to_act[0])[0])
    saved = game.save()
    before = slugs["action-applied"]
    loaded = cardcore.load(saved)
    assert slugs["action-applied"] == before
    loaded.apply(loaded.legal_actions(loaded.to_act[0])[0])
    assert slugs["action-applied"] == before + 1


def test_on_event_failures_warn_at_tenth_and_at_end(registered, caplog):
    @hookimpl
    def on_event(event):
        raise RuntimeError("again")

    registered(
        RuleInfo(id="LOUD-2", name="golf.loud2", game="golf", summary="Raises"),
        on_event=on_event,
    )
    game = cardcore.new_game("golf", 2, rules=["golf.loud2"], options={"rounds": 1}, seed=3)
    with caplog.at_level(logging.DEBUG, logger="cardcore.events"):
        cardcore.play(game, two_randoms())
    ours = [r for r in caplog.records if "golf.loud2" in r.getMessage()]
    assert [r.levelno for r in ours].count(logging.ERROR) == 1
    warnings = [r for r in ours if r.levelno == logging.WARNING]
    assert len(warnings) >= 2  # the 10th failure, and the count at the end


def test_firstresult_rule_whose_id_sorts_last_wins(registered):
    def points_of(value):
        @hookimpl
        def card_points(card):
            return value if card.label == "Q" else None

        return card_points

    registered(
        RuleInfo(id="QV-10", name="tonk.q-ten", game="tonk", summary="Q"),
        card_points=points_of(1),
    )
    registered(
        RuleInfo(id="QV-9", name="tonk.q-nine", game="tonk", summary="Q"),
        card_points=points_of(2),
    )
    for order in (["tonk.q-ten", "tonk.q-nine"], ["tonk.q-nine", "tonk.q-ten"]):
        points = cardcore.get_ruleset("tonk", order).resolve("card_points")
        assert points(card=Card.parse("QH")) == 2  # QV-9 sorts after QV-10
        assert points(card=Card.parse("7C")) == 7


def test_rule_id_any_case_and_requires_other_game(registered):
    assert cardcore.new_game("golf", 2, rules=["golf-score-4"], seed=1).rules == ("golf.jokers",)
    registered(
        RuleInfo(
            id="XREQ-1",
            name="golf.xreq",
            game="golf",
            summary="Requires a Tonk rule",
            requires=("tonk.natural-49-50",),
        ),
        forbid_action=no_drop,
    )
    with pytest.raises(PluginError):
        cardcore.new_game("golf", 2, rules=["golf.xreq"], seed=1)


def test_applies_alias_and_refused_value(registered):
    registered(
        RuleInfo(
            id="SIX-1",
            name="golf.six-only",
            game="golf",
            summary="Six-card layout only",
            applies={"layout": (6,)},
        ),
        forbid_action=no_drop,
    )
    assert cardcore.new_game("golf", 2, rules=["golf.six-only"], options={"layout": "6"}, seed=1)
    with pytest.raises(OptionError, match=r"\(SIX-1\)"):
        cardcore.new_game("golf", 2, rules=["golf.six-only"], options={"layout": 4}, seed=1)
    registered(
        RuleInfo(
            id="SEVEN-1",
            name="golf.seven",
            game="golf",
            summary="A layout Golf does not accept",
            applies={"layout": (7,)},
        ),
        forbid_action=no_drop,
    )
    with pytest.raises(PluginError, match=re.escape("golf.seven")):
        cardcore.new_game("golf", 2, rules=["golf.seven"], seed=1)


def test_float_option_takes_an_int(registered):
    registered(
        RuleInfo(
            id="FRAC-1",
            name="golf.frac",
            game="golf",
            summary="Float option",
            options=(Option("frac", default=0.5, kind=float, minimum=0, maximum=2),),
        ),
        forbid_action=no_drop,
    )
    game = cardcore.new_game("golf", 2, rules=["golf.frac"], options={"frac": 1}, seed=1)
    assert game.options["frac"] == 1.0 and isinstance(game.options["frac"], float)
    assert cardcore.load(game.save()).options["frac"] == 1.0


def test_plugin_major_version_checked_on_load():
    def module_at(version):
        rule = RuleInfo(
            id="VER-1", name="golf.versioned", game="golf", summary="v", version=version
        )
        return make_module(rule, score_round=tithe_score_round)

    cardcore.register(RULES, "golf.versioned", module_at("1.0.0"))
    try:
        game = cardcore.new_game("golf", 2, rules=["golf.versioned"], seed=1)
        saved, record = game.save(), game.record()
        assert record["rules"] == [{"name": "golf.versioned", "id": "VER-1", "version": "1.0.0"}]
    finally:
        cardcore.unregister(RULES, "golf.versioned")
    cardcore.register(RULES, "golf.versioned", module_at("1.4.2"))
    try:
        assert cardcore.load(saved).rules == ("golf.versioned",)
    finally:
        cardcore.unregister(RULES, "golf.versioned")
    cardcore.register(RULES, "golf.versioned", module_at("2.0.0"))
    try:
        with pytest.raises(CorruptStateError):
            cardcore.load(saved)
        with pytest.raises(CorruptStateError):
            cardcore.replay(record)
    finally:
        cardcore.unregister(RULES, "golf.versioned")


def test_forbid_action_wrapper_post_processes_vetoes(registered):
    @hookimpl(wrapper=True)
    def forbid_action(action):
        inner = yield
        return [v for v in inner if v.rule_id != "NODROP-1"]  # lift the no-drop veto

    registered(NODROP, forbid_action=no_drop)
    registered(
        RuleInfo(id="ZLIFT-1", name="tonk.lift", game="tonk", summary="Lifts NODROP"),
        forbid_action=forbid_action,
    )
    game = cardcore.new_game("tonk", 2, rules=["tonk.no-drop", "tonk.lift"], seed=4)
    assert "drop" in [str(a) for a in game.legal_actions(game.to_act[0])]


@pytest.mark.parametrize("answer", ["short", "text", "float"])
def test_bad_score_round_answer_is_plugin_error_game_restored(registered, answer):
    @hookimpl
    def score_round(state, scores):
        if answer == "short":
            return list(scores)[:-1]
        if answer == "text":
            return [str(s) for s in scores]
        return [s + 0.5 for s in scores]

    registered(
        RuleInfo(id="BADS-1", name="golf.bad-scores", game="golf", summary="Bad answer"),
        score_round=score_round,
    )
    game = cardcore.new_game("golf", 2, rules=["golf.bad-scores"], options={"rounds": 1}, seed=5)
    rng = random.Random(5)
    for _ in range(2000):
        saved, version = game.save(), game.version
        action = rng.choice(game.legal_actions(game.to_act[0]))
        try:
            game.apply(action)
        except PluginError as err:
            assert "golf.bad-scores" in str(err)
            assert game.save() == saved and game.version == version
            break
    else:
        pytest.fail(f"answer {answer!r} accepted: {game.result}")


def test_veto_with_non_str_rule_id_names_rule(registered):
    @hookimpl
    def forbid_action(action):
        return Veto(5, "five") if action.verb == "drop" else None

    registered(
        RuleInfo(id="INTID-1", name="tonk.int-id", game="tonk", summary="Bad id"),
        forbid_action=forbid_action,
    )
    game = cardcore.new_game("tonk", 2, rules=["tonk.int-id"], seed=4)
    saved = game.save()
    with pytest.raises(PluginError, match=re.escape("tonk.int-id")):
        game.legal_actions(game.to_act[0])
    assert game.save() == saved


def test_hook_with_unknown_argument_refused_naming_plugin(registered):
    @hookimpl
    def forbid_action(state, action, seat):
        return None

    registered(
        RuleInfo(id="ARGS-1", name="golf.bad-args", game="golf", summary="Bad args"),
        forbid_action=forbid_action,
    )
    with pytest.raises(PluginError, match=re.escape("golf.bad-args")):
        cardcore.new_game("golf", 2, rules=["golf.bad-args"], seed=1)


def test_optionalhook_of_another_game_is_accepted(registered):
    @hookimpl(optionalhook=True)
    def tonk_upcard():
        return None

    registered(
        RuleInfo(id="SHARED-1", name="golf.shared", game="golf", summary="Shared module"),
        tonk_upcard=tonk_upcard,
        forbid_action=no_drop,
    )
    assert cardcore.new_game("golf", 2, rules=["golf.shared"], seed=1).rules == ("golf.shared",)


def test_unmarked_hook_refused(registered):
    def forbid_action(state, action):
        return None

    registered(
        RuleInfo(id="UNM-1", name="golf.unmarked2", game="golf", summary="No marker"),
        forbid_action=forbid_action,
    )
    with pytest.raises(PluginError, match="without @hookimpl"):
        cardcore.new_game("golf", 2, rules=["golf.unmarked2"], seed=1)


def test_build_deck_raising_at_setup_names_rule(registered):
    @hookimpl(wrapper=True)
    def build_deck(players, options):
        yield
        raise RuntimeError("deck broke")

    registered(
        RuleInfo(id="DECKB-1", name="golf.deck-boom", game="golf", summary="Raises"),
        build_deck=build_deck,
    )
    with pytest.raises(PluginError, match=re.escape("golf.deck-boom")):
        cardcore.new_game("golf", 2, rules=["golf.deck-boom"], seed=1)


def test_clone_keeps_rule_and_plays_same(registered):
    register_tithe(registered)
    game = cardcore.new_game("golf", 2, rules=["golf.tithe"], options={"rounds": 1}, seed=6)
    twin = game.clone()
    assert twin.rules == game.rules and twin.options == game.options
    a = cardcore.play(game, two_randoms())
    b = cardcore.play(twin, two_randoms())
    assert a == b


def test_score_round_calling_back_legal_actions_is_refused(registered):
    holder = {}

    @hookimpl
    def score_round(state, scores):
        holder["game"].legal_actions(holder["seat"])  # forbidden: a call back into the game
        return None

    registered(
        RuleInfo(id="CALLB-1", name="golf.callback", game="golf", summary="Calls back"),
        score_round=score_round,
    )
    game = cardcore.new_game("golf", 2, rules=["golf.callback"], options={"rounds": 1}, seed=5)
    holder["game"] = game
    rng = random.Random(5)
    with pytest.raises(PluginError, match=re.escape("golf.callback")):
        while not game.is_over:
            seat = game.to_act[0]
            holder["seat"] = seat
            saved, version = game.save(), game.version
            game.apply(rng.choice(game.legal_actions(seat)))  # warms the cache for seat
    assert game.save() == saved and game.version == version


def test_score_round_calling_back_view_is_refused(registered):
    holder = {}

    @hookimpl
    def score_round(state, scores):
        holder["game"].view(0)
        return None

    registered(
        RuleInfo(id="CALLV-1", name="golf.callview", game="golf", summary="Calls back"),
        score_round=score_round,
    )
    game = cardcore.new_game("golf", 2, rules=["golf.callview"], options={"rounds": 1}, seed=5)
    holder["game"] = game
    rng = random.Random(5)
    with pytest.raises(PluginError, match=re.escape("golf.callview")):
        while not game.is_over:
            saved, version = game.save(), game.version
            game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    assert game.save() == saved and game.version == version


def test_observer_does_not_hear_search_agent_worlds(registered):
    slugs: Counter[str] = Counter()

    @hookimpl
    def on_event(event):
        slugs[event.slug] += 1

    registered(
        RuleInfo(id="EARS-3", name="golf.ears3", game="golf", summary="Count"),
        on_event=on_event,
    )
    game = cardcore.new_game("golf", 2, rules=["golf.ears3"], options={"rounds": 1}, seed=4)
    agents = [cardcore.load_agent("ismcts", seed=7, iterations=30), cardcore.RandomAgent(2)]
    cardcore.play(game, agents)
    assert slugs["action-applied"] == game.version
    assert slugs["game-started"] == 1 and slugs["game-ended"] == 1


def test_on_event_failure_reaches_on_error_naming_plugin(registered):
    @hookimpl
    def on_event(event):
        raise RuntimeError("observer broke")

    registered(
        RuleInfo(id="LOUD-3", name="golf.loud3", game="golf", summary="Raises"),
        on_event=on_event,
    )
    failures = []
    game = cardcore.new_game("golf", 2, rules=["golf.loud3"], seed=3)
    game.events.on_error = failures.append
    game.apply(game.legal_actions(game.to_act[0])[0])
    assert failures, "on_error never called"
    assert all(isinstance(f, cardcore.DeliveryFailure) for f in failures)
    assert "golf.loud3" in str(failures[0].plugin)
