"""A third-party author's Crazy Eights (``tests/plugins/eights_2026_12_11.py``) and two house
rules (``eights_draw_until_play_2026_12_11.py``, ``eights_draw_two_2026_12_11.py``), written
from the docs only and tested as the docs say: registered in place, one test per rule ID from
stacked decks, the conformance kit alone and with each rule, the house-rule lab, a session
played as two seats, and the RL environments."""

from __future__ import annotations

import json
import re
import types

import numpy as np
import pytest

import cardcore
from cardcore import (
    HOST,
    IllegalActionError,
    NotationError,
    OptionError,
    PluginError,
    RuleConflictError,
    RuleInfo,
    UnknownPluginError,
    Veto,
    hookimpl,
)
from cardcore.testing import check_game, configurations
from tests.plugins import eights_2026_12_11 as e8
from tests.plugins import eights_draw_two_2026_12_11 as two
from tests.plugins import eights_draw_until_play_2026_12_11 as until
from tests.rl.helpers import only_dict_observation_warnings

NAME = e8.NAME
UNTIL, TWO = until.RULE.name, two.RULE.name
# Two players, 7 each, dealt one at a time top first: seat 0 gets the odd spades and AS,
# seat 1 the even spades and AH; KD starts the discard; then the stock's top: 2C, 3C, 4C ...
SPADES = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH KD 2C 3C 4C 5C 6C"


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, e8)
    for module in (until, two):
        cardcore.register("cardcore.rules", module.RULE.name, module)
    extra: list[str] = []
    yield extra
    for name in extra:
        cardcore.unregister("cardcore.rules", name)
    for module in (until, two):
        cardcore.unregister("cardcore.rules", module.RULE.name)
    cardcore.unregister("cardcore.games", NAME)


def house_rule(
    extra: list[str], name: str, rule_id: str, **hooks_and_info: object
) -> types.ModuleType:
    """A test-only house rule of the game, made the way docs/hooks.rst makes them."""
    hooks = {k: v for k, v in hooks_and_info.items() if callable(v)}
    info = {k: v for k, v in hooks_and_info.items() if not callable(v)}
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(id=rule_id, name=name, game=NAME, summary="test rule", **info)  # type: ignore[arg-type]
    vars(module).update(hooks)
    cardcore.register("cardcore.rules", name, module)
    extra.append(name)
    return module


def stacked(
    deck: str = SPADES, players: int = 2, rules: list[str] | None = None, **options: int
) -> cardcore.Game:
    return cardcore.new_game(NAME, players, rules=rules or [], options=options, deck=deck, seed=1)


def hand_of(game: cardcore.Game, seat: int) -> list[str]:
    return game.view(seat)["zones"][2 + seat]["cards"]


# --- rule tests, one per rule ID ---------------------------------------------------------


def test_eights_seat_1_two_to_five_players():
    assert cardcore.game_info(NAME).min_players == 2 and cardcore.game_info(NAME).max_players == 5
    for players in (1, 6):
        with pytest.raises(OptionError):
            cardcore.new_game(NAME, players, seed=1)


def test_eights_deal_1_seven_to_two_five_to_more_top_card_turned():
    game = stacked()
    assert sorted(hand_of(game, 0)) == sorted(["AS", "3S", "5S", "7S", "9S", "JS", "KS"])
    assert game.view(1)["table"]["held"] == [7, 7]
    assert game.view(1)["zones"][1]["cards"] == ["KD"] and game.view(1)["table"]["suit"] == "D"
    assert game.view(1)["zones"][2]["cards"] == [None] * 7  # seat 1 never sees seat 0's hand
    assert cardcore.new_game(NAME, 3, seed=1).view(0)["table"]["held"] == [5, 5, 5]
    assert stacked(hand=5).view(0)["table"]["held"] == [5, 5]


def test_eights_play_1_match_suit_or_rank():
    game = stacked()
    assert game.view(0)["legal"] == ["play KS"]  # the king matches the rank of KD
    with pytest.raises(IllegalActionError, match=r"EIGHTS-PLAY-1\)$"):
        game.act(0, "play AS")
    game.act(0, "play KS")
    assert game.view(1)["table"]["suit"] == "S"
    assert "play 2S" in game.view(1)["legal"] and "play AH" not in game.view(1)["legal"]


def test_eights_wild_1_eight_names_a_suit():
    game = stacked()
    game.act(0, "play KS")
    with pytest.raises(IllegalActionError, match=r"EIGHTS-WILD-1\)$"):
        game.act(1, "play 8S")
    with pytest.raises(NotationError):
        game.act(1, "play 8S X")
    game.act(1, "play 8S h")  # any case
    assert game.view(0)["table"]["suit"] == "H"
    assert game.view(0)["legal"] == ["draw"]  # seat 0 holds no heart, no eight


def test_eights_draw_1_draw_one_then_pass():
    game = stacked("AS 2S 3S 4S 5S 6S 7S 9H 9S 10S JS QS KS AH KD 2C 3C 4C")
    game.act(0, "play KS")
    game.act(1, "play 10S")
    game.act(0, "play JS")
    game.act(1, "play QS")
    game.act(0, "play 9S")
    game.act(1, "play 9H")  # hearts now; seat 0 holds AS 3S 5S 7S: nothing plays
    assert game.view(0)["legal"] == ["draw"]
    with pytest.raises(IllegalActionError, match=r"EIGHTS-DRAW-1\)$"):
        game.act(0, "pass")
    game.act(0, "draw")
    assert "2C" in hand_of(game, 0) and game.view(1)["zones"][2]["cards"].count(None) == 5
    assert game.view(0)["legal"] == ["pass"]  # one draw only, and 2C does not play on 9H
    game.act(0, "pass")
    assert game.to_act == (1,)


def test_eights_end_1_first_out_wins_penalty_points():
    # seat 0: AS 8S, seat 1: 2H 3H (hand=2 is no choice, so play it out from a position)
    game = stacked()
    text = game.position()
    hand0 = re.search(r"hand\.0: ([^|]*)", text).group(1).split()
    hand1 = re.search(r"hand\.1: ([^|]*)", text).group(1).split()
    stock = re.search(r"stock: ([^|]*)", text).group(1).split()
    # keep KS in hand 0, move the rest of hand 0 to the stock's bottom
    keep = [c for c in hand0 if c.startswith("KS")]
    new = text.replace(" ".join(hand0), " ".join(keep)).replace(
        "stock: " + " ".join(stock),
        "stock: " + " ".join([c.split("@")[0] for c in hand0 if c not in keep] + stock),
    )
    game = cardcore.new_game(NAME, 2, position=new, seed=2)
    result = game.act(0, "play KS") and game.result
    assert result.winners == (0,) and result.reason == "out"
    points = {"2": 2, "4": 4, "6": 6, "8": 50, "10": 10, "Q": 10, "A": 1}
    assert result.scores == (0.0, float(sum(points[c.split("@")[0][:-1]] for c in hand1)))


def test_eights_standings_host_end_fewest_points_lead():
    game = stacked()
    game.act(0, "play KS")  # seat 0 holds 6 low spades (31 points), seat 1 7 cards with 8S (85)
    game.act(HOST, "end")
    assert game.result.winners == (0,)


def test_eights_position_round_trip():
    game = stacked()
    game.act(0, "play KS")
    again = cardcore.new_game(NAME, 2, position=game.position(), seed=9)
    for seat in (0, 1, None):
        assert again.view(seat)["zones"] == game.view(seat)["zones"]
    assert again.view(1)["legal"] == game.view(1)["legal"]


# --- the house rules ---------------------------------------------------------------------


def test_eights_house_1_draw_until_you_can_play():
    deck = "AS 2S 3S 4S 5S 6S 7S 9H 9S 10S JS QS KS AH KD 2C 3C 4H 4C"
    game = stacked(deck, rules=[UNTIL])
    for seat, text in [
        (0, "play KS"),
        (1, "play 10S"),
        (0, "play JS"),
        (1, "play QS"),
        (0, "play 9S"),
        (1, "play 9H"),
    ]:
        game.act(seat, text)
    game.act(0, "draw")  # 2C: no play, so draw again (the base game would pass)
    assert game.view(0)["legal"] == ["draw"]
    game.act(0, "draw")  # 3C
    game.act(0, "draw")  # 4H plays
    assert game.view(0)["legal"] == ["play 4H"]
    assert cardcore.rule_info(UNTIL).id == "EIGHTS-HOUSE-1"


def test_eights_house_2_two_makes_the_next_draw_two():
    deck = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH KD 2C 3C 4C"
    game = stacked(deck, rules=[TWO])
    game.act(0, "play KS")
    game.act(1, "play 2S")
    assert game.view(0)["table"]["pending"] == 2 and game.view(0)["legal"] == ["draw"]
    with pytest.raises(IllegalActionError, match=r"EIGHTS-PENALTY-1\)$"):
        game.act(0, "play AS")
    game.act(0, "draw")
    assert {"2C", "3C"} <= set(hand_of(game, 0)) and game.to_act == (1,)  # drew two, lost the turn
    base = stacked(deck)
    base.act(0, "play KS")
    base.act(1, "play 2S")
    assert base.view(0)["table"]["pending"] == 0 and "play AS" in base.view(0)["legal"]


def test_eights_rules_by_id_sorted_and_combined():
    game = cardcore.new_game(NAME, 2, rules=["EIGHTS-HOUSE-2", "EIGHTS-HOUSE-1"], seed=1)
    assert game.rules == (UNTIL, TWO)
    assert set(cardcore.available_rules(NAME)) >= {UNTIL, TWO}
    assert [r["id"] for r in game.record()["rules"]] == ["EIGHTS-HOUSE-1", "EIGHTS-HOUSE-2"]


def test_game_hook_answered_last_rule_first_wrapper_sees_inner():
    ruleset = cardcore.get_ruleset(NAME, [TWO])
    penalty = ruleset.resolve("eights_card_penalty")
    assert (
        penalty(card=cardcore.Card.parse("2H")) == 2
        and penalty(card=cardcore.Card.parse("KH")) == 0
    )
    with pytest.raises(PluginError, match="did you mean 'eights_card_penalty'"):
        ruleset.resolve("eights_card_penalti")


def test_rule_with_wrong_hook_arguments_refused(registered):
    @hookimpl
    def eights_draw_limit(count):
        return 3

    house_rule(registered, f"{NAME}.bad-args", "T-ARGS-1", eights_draw_limit=eights_draw_limit)
    with pytest.raises(PluginError, match="has no argument 'count'"):
        cardcore.new_game(NAME, 2, rules=[f"{NAME}.bad-args"], seed=1)


def test_rule_answer_of_wrong_kind_refused_by_name(registered):
    @hookimpl
    def eights_card_penalty(card):
        return 2.5

    house_rule(registered, f"{NAME}.float", "T-FLOAT-1", eights_card_penalty=eights_card_penalty)
    with pytest.raises(PluginError, match=rf"{NAME}\.float"):
        cardcore.new_game(NAME, 2, rules=[f"{NAME}.float"], seed=1)


def test_conflicts_and_requires(registered):
    @hookimpl
    def eights_card_penalty(card):
        return 3 if card.label == "3" else None

    house_rule(
        registered,
        f"{NAME}.draw-three",
        "T-THREE-1",
        eights_card_penalty=eights_card_penalty,
        conflicts=(TWO,),
    )
    house_rule(
        registered,
        f"{NAME}.needs-two",
        "T-NEEDS-1",
        eights_card_penalty=eights_card_penalty,
        requires=(TWO,),
    )
    with pytest.raises(RuleConflictError, match="cannot be combined"):
        cardcore.new_game(NAME, 2, rules=["EIGHTS-HOUSE-2", "T-THREE-1"], seed=1)
    with pytest.raises(RuleConflictError, match="requires"):
        cardcore.new_game(NAME, 2, rules=[f"{NAME}.needs-two"], seed=1)
    assert cardcore.new_game(NAME, 2, rules=[f"{NAME}.needs-two", TWO], seed=1).rules == (
        TWO,
        f"{NAME}.needs-two",
    )
    house_rule(
        registered,
        f"{NAME}.ghost",
        "T-GHOST-1",
        eights_card_penalty=eights_card_penalty,
        conflicts=("nope",),
    )
    with pytest.warns(UserWarning, match="nope"):
        cardcore.new_game(NAME, 2, rules=[f"{NAME}.ghost"], seed=1)


def test_applies_honoured_and_misspelt_option_refused(registered):
    @hookimpl
    def eights_card_penalty(card):
        return 1 if card.label == "K" else None

    house_rule(
        registered,
        f"{NAME}.short",
        "T-SHORT-1",
        eights_card_penalty=eights_card_penalty,
        applies={"hand": (5,)},
    )
    assert cardcore.new_game(NAME, 2, rules=[f"{NAME}.short"], options={"hand": 5}, seed=1)
    with pytest.raises(OptionError, match=r"T-SHORT-1\)$"):
        cardcore.new_game(NAME, 2, rules=[f"{NAME}.short"], seed=1)
    chosen = [
        c.kwargs() for c in configurations(NAME, rules=[f"{NAME}.short"]) if c.kwargs()["rules"]
    ]
    assert chosen and all(kw["options"] == {"hand": 5} for kw in chosen)
    house_rule(
        registered,
        f"{NAME}.typo",
        "T-TYPO-1",
        eights_card_penalty=eights_card_penalty,
        applies={"hadn": (5,)},
    )
    with pytest.raises(PluginError, match="hadn"):
        cardcore.new_game(NAME, 2, rules=[f"{NAME}.typo"], seed=1)


def test_other_games_rule_and_unknown_rule_refused():
    with pytest.raises(UnknownPluginError):
        cardcore.new_game(NAME, 2, rules=["golf.jokers"], seed=1)
    with pytest.raises(RuleConflictError):  # still one, as the docs promise
        cardcore.new_game(NAME, 2, rules=["golf.jokers"], seed=1)
    with pytest.raises(UnknownPluginError):
        cardcore.new_game(NAME, 2, rules=[f"{NAME}.no-such-rule"], seed=1)


def test_veto_every_move_stalls_as_documented(registered):
    @hookimpl
    def forbid_action(action):
        return Veto("T-NOPASS-1", "no passing") if action.verb == "pass" else None

    house_rule(registered, f"{NAME}.no-pass", "T-NOPASS-1", forbid_action=forbid_action)
    game = cardcore.new_game(NAME, 2, rules=[f"{NAME}.no-pass"], seed=1)
    with pytest.raises(cardcore.StalledGameError):
        cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])


# --- the conformance kit -----------------------------------------------------------------


@pytest.mark.parametrize(
    "rules", [[], [UNTIL], [TWO], [UNTIL, TWO]], ids=["base", "until", "two", "both"]
)
def test_conformance_kit(rules):
    report = check_game(NAME, players=3, rules=rules, games=2, seed=3)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0 and not report.skipped
    assert report.twins > 0 and report.notations > 0


def test_conformance_kit_over_declared_configurations():
    configs = list(configurations(NAME, pairs=True))
    assert {c.kwargs()["players"] for c in configs} == {2, 4, 5}
    assert {c.kwargs()["options"].get("hand") for c in configs} == {None, 5, 7}  # each choice
    assert any(set(c.kwargs()["rules"]) == {UNTIL, TWO} for c in configs)
    for config in configs:
        assert check_game(config.game, games=1, samples_per_game=3, **config.kwargs()).ok


# --- the house-rule lab ------------------------------------------------------------------


@pytest.mark.parametrize("rule", [UNTIL, TWO])
def test_compare_rule_against_base_game(rule):
    result = cardcore.compare(NAME, rules=[rule], games=4, seed=1)
    assert result.a.rules == (rule,) and result.b.rules == ()
    assert result.same_deals and "duplicate deals" in result.deals
    assert result.diff["actions"].n == 4 and result.skill_agents is None  # no agent of its own
    assert result.a.agents == ("random", "random")
    assert "first-seat advantage" in result.table()
    json.dumps(result.to_json())


def test_compare_draw_until_play_lengthens_games():
    result = cardcore.compare(NAME, rules=[UNTIL], games=12, seed=1, skill=None)
    assert result.a.actions.mean > result.b.actions.mean


# --- a session, two seats ----------------------------------------------------------------


def test_session_two_seats_never_see_the_other_hand():
    from cardcore.session import Session

    session = Session.create(NAME, ["Ann", "Bob"], now=0.0, seed=7, rules=[TWO])
    received: dict[str, list[str]] = {"ann": [], "bob": []}

    def deliver(out):
        for o in out:
            received.setdefault(o.conn, []).append(json.dumps(o.message))

    deliver(session.handle("ann", '{"type": "join", "seat": 0}', now=1.0))
    deliver(session.handle("bob", '{"type": "join", "seat": 1}', now=2.0))
    assert session.phase == "playing"
    game = session.game
    held: list[set[str]] = [set(), set()]
    shown: set[str] = set()
    for step in range(16):
        for seat in (0, 1):
            held[seat] |= {str(c) for c in game.state.zones.cards[e8.hand(seat)]}
        shown |= {str(c) for c in game.state.zones.cards[e8.DISCARD]}
        if game.is_over:
            break
        seat = game.to_act[0]
        text = game.view(seat)["legal"][-1]
        out = session.handle(
            ["ann", "bob"][seat],
            json.dumps({"type": "act", "action": text, "seen": game.version}),
            now=3.0 + step,
        )
        deliver(out)
        assert not any(o.message["type"] == "error" for o in out), out
    assert game.version >= 10
    for seat, other in ((0, "bob"), (1, "ann")):
        secret = held[seat] - shown
        assert secret
        leaked = [c for c in secret for text in received[other] if f'"{c}"' in text]
        assert not leaked, f"{other} was sent {leaked} from seat {seat}'s hand"
    out = session.handle("bob", '{"type": "act", "action": "draw", "seen": 0}', now=99.0)
    assert out[0].message["type"] == "error"


def test_session_timeout_plays_first_legal_action():
    from cardcore.session import Session, SessionConfig, TimeControl

    config = SessionConfig(time=TimeControl(turn=5))
    session = Session.create(NAME, ["Ann", "Bob"], now=0.0, deck=SPADES, seed=3, config=config)
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=1.0)
    out = session.tick(session.next_deadline())
    assert out and out[0].message["action"] == {
        "seat": 0,
        "text": "play KS",
        "at": 6.0,
        "cause": "timeout",
    }


# --- reinforcement learning ---------------------------------------------------------------


def test_rl_aec_env_generic_encoding_passes_pettingzoo_api_test():
    from pettingzoo.test import api_test

    from cardcore.rl import aec_env

    env = aec_env(NAME, 3, rules=[TWO])
    env.reset(seed=3)
    obs, *_ = env.last()
    assert obs["action_mask"].shape == (70,)  # max_legal
    with only_dict_observation_warnings():
        api_test(aec_env(NAME, 2), num_cycles=40)


def test_rl_gym_env_plays_to_the_end():
    from cardcore.rl import gym_env

    env = gym_env(NAME, 2, opponents="random")
    obs, _info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(500):
        action = int(rng.choice(obs["action_mask"].nonzero()[0]))
        obs, reward, terminated, truncated, _info = env.step(action)
        if terminated or truncated:
            break
    assert terminated and reward in (-1, 0, 1)


def test_rl_observations_of_determinized_twins_are_equal():
    from cardcore.rl import observe

    game = cardcore.new_game(NAME, 3, seed=5)
    agents = [cardcore.RandomAgent(s) for s in range(3)]
    for _ in range(20):
        if game.is_over:
            break
        seat = game.to_act[0]
        twin = game.determinize(seat, seed=game.version)
        mine, theirs = observe(game, seat), observe(twin, seat)
        assert np.array_equal(np.asarray(mine["observation"]), np.asarray(theirs["observation"]))
        assert np.array_equal(np.asarray(mine["action_mask"]), np.asarray(theirs["action_mask"]))
        game.act(seat, str(agents[seat].choose(game.view(seat), game.legal_actions(seat))))


def test_rl_generic_encoding_leaves_out_the_str_suit_field_as_documented():
    # docs/plugin-guide/game.rst: "str and json fields reach an observation only through a
    # game's own encoding"; so after an eight the named suit is invisible to a learner.
    from cardcore.rl import observe

    game = stacked()
    named = game.position().replace('suit="D"', 'suit="C"')
    other = cardcore.new_game(NAME, 2, position=named, seed=1)
    assert other.view(0)["table"]["suit"] == "C" and game.view(0)["table"]["suit"] == "D"
    assert np.array_equal(
        np.asarray(observe(game, 0)["observation"]), np.asarray(observe(other, 0)["observation"])
    )
    with pytest.raises(OptionError, match="no score reward"):
        from cardcore.rl import aec_env

        aec_env(NAME, 2, rewards="score")


# --- more of what the docs promise a plugin author ---------------------------------------------


def test_agent_registered_in_place_is_the_default_for_compare():
    cardcore.register("cardcore.agents", e8.AGENT_NAME, e8.EightsBasicAgent)
    try:
        assert cardcore.compare.default_agent(NAME) == e8.AGENT_NAME
        result = cardcore.compare(NAME, rules=[TWO], games=4, seed=2)
        assert result.skill_agents == (e8.AGENT_NAME, "random")
        assert result.a.agents == (e8.AGENT_NAME, e8.AGENT_NAME)
        summary = cardcore.simulate(NAME, games=4, agents=[e8.AGENT_NAME, "random"])
        assert summary.games == 4 and summary.truncated == 0
    finally:
        cardcore.unregister("cardcore.agents", e8.AGENT_NAME)


def test_events_hide_a_drawn_card_from_the_other_seat_and_spectators():
    deck = "AS 2S 3S 4S 5S 6S 7S 9H 9S 10S JS QS KS AH KD 2C 3C 4C"
    seen: dict[object, list[dict]] = {0: [], 1: [], cardcore.SPECTATOR: []}
    subs = [(cardcore.Event, lambda e, s=s: seen[s].append(e.to_json()), s) for s in seen]
    game = cardcore.new_game(NAME, 2, deck=deck, seed=1, subscribers=subs)
    for seat, text in [
        (0, "play KS"),
        (1, "play 10S"),
        (0, "play JS"),
        (1, "play QS"),
        (0, "play 9S"),
        (1, "play 9H"),
    ]:
        game.act(seat, text)
    game.act(0, "draw")
    drawn = {s: [e for e in seen[s] if e["event"] == "card-drawn"] for s in seen}
    assert drawn[0][-1]["card"] == "2C"
    assert drawn[1][-1]["card"] is None and drawn[cardcore.SPECTATOR][-1]["card"] is None


def test_score_round_rule_of_a_third_party_game(registered):
    @hookimpl(wrapper=True)
    def score_round(scores):
        inner = yield
        return [s + 100 if seat == 0 else s for seat, s in enumerate(inner)]

    house_rule(registered, f"{NAME}.handicap", "T-HANDICAP-1", score_round=score_round)
    game = stacked(rules=[f"{NAME}.handicap"])
    result = cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert result.scores[0] >= 100 and 0 not in result.winners


def test_rule_without_hooks_warns_and_shared_module_uses_optionalhook(registered):
    house_rule(registered, f"{NAME}.nothing", "T-NOTHING-1")
    with pytest.warns(UserWarning, match="implements no hook"):
        cardcore.new_game(NAME, 2, rules=[f"{NAME}.nothing"], seed=1)

    @hookimpl(optionalhook=True)
    def eights_card_penalty(card):
        return 4 if card.label == "4" else None

    shared = types.ModuleType("shared_golf")
    shared.RULE = RuleInfo(id="T-SHARED-1", name="golf.shared-fours", game="golf", summary="shared")
    shared.eights_card_penalty = eights_card_penalty
    shared.forbid_action = hookimpl(lambda action: None)
    shared.forbid_action.__name__ = "forbid_action"
    cardcore.register("cardcore.rules", "golf.shared-fours", shared)
    registered.append("golf.shared-fours")
    assert cardcore.new_game("golf", 2, rules=["golf.shared-fours"], seed=1).rules == (
        "golf.shared-fours",
    )
    house_rule(
        registered, f"{NAME}.shared-fours", "T-SHARED-2", eights_card_penalty=eights_card_penalty
    )
    game = cardcore.new_game(NAME, 2, rules=[f"{NAME}.shared-fours"], seed=1)
    assert game.logic.penalty[cardcore.Card.parse("4H")] == 4


def test_session_spectator_and_resume_from_sqlite(tmp_path):
    from cardcore.session import Session, SQLiteStore

    path = tmp_path / "s.db"
    session = Session.create(
        NAME, ["Ann", "Bob"], now=0.0, seed=11, rules=[TWO], store=SQLiteStore(path)
    )
    token = session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)[0].message["token"]
    session.handle("bob", '{"type": "join", "seat": 1}', now=1.0)
    watched = [
        json.dumps(o.message)
        for o in session.handle("eve", '{"type": "watch"}', now=1.5)
        if o.conn == "eve"
    ]
    game = session.game
    for step in range(8):
        seat = game.to_act[0]
        act = json.dumps(
            {"type": "act", "action": game.view(seat)["legal"][0], "seen": game.version}
        )
        watched += [
            json.dumps(o.message)
            for o in session.handle(["ann", "bob"][seat], act, now=2.0 + step)
            if o.conn == "eve"
        ]
    in_hands = {str(c) for seat in (0, 1) for c in game.state.zones.cards[e8.hand(seat)]}
    assert not [c for c in in_hands for text in watched if f'"{c}"' in text]
    resumed = Session.resume(SQLiteStore(path), session.id, now=20.0)
    assert resumed.game.position() == game.position() and resumed.game.rules == (TWO,)
    out = resumed.handle(
        "ann2", json.dumps({"type": "join", "seat": 0, "token": token, "last": 3}), now=21.0
    )
    assert out[0].message["type"] == "welcome" and all(
        o.conn == "ann2" for o in out if o.message["type"] != "presence"
    )


def test_session_takeback_of_a_pass_allowed_of_a_draw_refused():
    from cardcore.session import Session

    deck = "AS 2S 3S 4S 5S 6S 7S 9H 9S 10S JS QS KS AH KD 2C 3C 4C"
    session = Session.create(NAME, ["Ann", "Bob"], now=0.0, deck=deck, seed=3)
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=1.0)
    moves = [("ann", "play KS"), ("bob", "play 10S"), ("ann", "play JS"), ("bob", "play QS")]
    moves += [("ann", "play 9S"), ("bob", "play 9H"), ("ann", "draw")]
    for step, (conn, text) in enumerate(moves):
        act = json.dumps({"type": "act", "action": text, "seen": session.game.version})
        assert session.handle(conn, act, now=2.0 + step)[-1].message["type"] == "ok"
    out = session.handle("ann", '{"type": "takeback", "op": "request"}', now=20.0)
    assert out[0].message["code"] == "takeback-refused" and "2C" not in out[0].message["message"]
    session.handle(
        "ann", json.dumps({"type": "act", "action": "pass", "seen": session.game.version}), now=21.0
    )
    session.handle("ann", '{"type": "takeback", "op": "request"}', now=22.0)
    session.handle("bob", '{"type": "takeback", "op": "accept"}', now=23.0)
    assert session.game.version == 7 and session.game.view(0)["legal"] == ["pass"]


def test_records_refuse_another_major_version_of_a_rule():
    import attrs

    game = cardcore.new_game(NAME, 2, rules=[TWO], seed=1)
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    record = game.record()
    assert record["rules"] == [{"name": TWO, "id": "EIGHTS-HOUSE-2", "version": "1.0.0"}]
    newer = types.ModuleType("draw_two_v2")
    newer.RULE = attrs.evolve(two.RULE, version="2.0.0")
    newer.eights_card_penalty = two.eights_card_penalty
    cardcore.register("cardcore.rules", TWO, newer)
    try:
        with pytest.raises(cardcore.CorruptStateError, match="major versions differ"):
            cardcore.replay(record)
    finally:
        cardcore.unregister("cardcore.rules", TWO)
    assert cardcore.replay(record).result == game.result


# --- engine bugs and doc gaps found while writing the plugin -----------------------------------


def _variant(name: str, logic: type, **info: object) -> types.ModuleType:
    """The game under another name, with another logic or description (as docs/plugin-guide/testing.rst
    builds ``my-fish``)."""
    import attrs

    module = types.ModuleType(name.replace("-", "_"))
    module.GAME = attrs.evolve(e8.GAME, name=name, **info)

    @hookimpl
    def create_logic(ruleset):
        return logic(ruleset)

    module.create_logic = create_logic
    for hook in ("eights_draw_limit", "eights_card_penalty", "card_points"):
        setattr(module, hook, getattr(e8, hook))
    cardcore.register("cardcore.games", name, module)
    return module


def test_kit_accepts_int_option_bounded_by_choices():
    option = cardcore.Option("hand", 0, "Cards dealt to each seat.", choices=(0, 5, 7))
    _variant("eights-choices", e8.EightsLogic, options=(option,))
    try:
        with pytest.raises(OptionError, match="must be one of"):
            cardcore.new_game("eights-choices", 2, options={"hand": 10**9}, seed=1)
        report = check_game("eights-choices", players=2, games=1, strict=False)
        assert report.ok, report.failures
    finally:
        cardcore.unregister("cardcore.games", "eights-choices")


class PlainParser(e8.EightsLogic):
    """parse_action as docs/plugin-guide/game.rst describes it: 'reads the words itself, raises
    NotationError for malformed text and returns the action' (no rule ID in the message)."""

    def parse_action(self, state, seat, text):
        words = text.split()
        if len(words) in (2, 3) and words[0].lower() == "play":
            return e8.play(
                seat, cardcore.Card.parse(words[1]), words[2].upper() if len(words) == 3 else ""
            )
        if text.strip().lower() in ("draw", "pass"):
            return (e8.draw if text.strip().lower() == "draw" else e8.pass_)(seat)
        raise NotationError(f"cannot read {text!r}")


def test_game_parser_notation_error_cites_a_rule():
    _variant("eights-plain", PlainParser)
    try:
        game = cardcore.new_game("eights-plain", 2, seed=1)
        with pytest.raises(NotationError) as caught:
            game.act(0, "fly away")
        assert caught.value.rule_id is not None
        assert check_game("eights-plain", players=2, games=1, strict=False).ok
    finally:
        cardcore.unregister("cardcore.games", "eights-plain")
