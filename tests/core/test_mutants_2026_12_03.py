"""Mutation audit of seeds/core.md (2026-12-03): tests that fail when the core breaks a rule in a
way the older test named after that rule did not notice. Each test names the rule it guards."""

from __future__ import annotations

import hashlib
import json
import random
import types
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs
import pytest
from tests.plugins import drawgame
from tests.plugins.drawgame import Discard, Draw, DrawLogic

import cardcore
from cardcore import (
    SPECTATOR,
    CardDrawn,
    CorruptStateError,
    GameLogic,
    IllegalActionError,
    NotationError,
    OptionError,
    Plan,
    PluginError,
    Resign,
    RuleInfo,
    StaleActionError,
    hookimpl,
)
from cardcore_golf.actions import Flip

RACE_DECK = "2S 9H 3H 10H 4D JC 5C QC 6S KS 3C"  # seat 0: 2S 3H 4D 5C 6S; seat 1: 9H.. KS; 3C


@contextmanager
def _game(name: str, logic: type, base: types.ModuleType = drawgame) -> Iterator[None]:
    """Register a game *name* that is *base*'s with *logic* for its rules."""
    module = types.ModuleType(f"{name.replace('-', '_')}_game")

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return logic(ruleset)

    vars(module).update(GAME=attrs.evolve(base.GAME, name=name), create_logic=create_logic)
    if hasattr(base, "card_points"):
        module.card_points = base.card_points  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", name, module)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.games", name)


@contextmanager
def _rule(module: types.ModuleType) -> Iterator[None]:
    cardcore.register("cardcore.rules", module.RULE.name, module)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.rules", module.RULE.name)


def _score_rule(name: str, game: str, answer: Any) -> types.ModuleType:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))

    @hookimpl
    def score_round(scores: Any) -> Any:
        return answer(scores)

    vars(module).update(
        RULE=RuleInfo("MUT-VAR-1", name, game, "a test rule"), score_round=score_round
    )
    return module


# -- CORE-SEAT-1 -------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0.0, 1.0, True, False])
def test_core_seat_1_a_seat_equal_to_a_seat_number_but_not_an_int_is_rejected(seat: Any) -> None:
    game = cardcore.new_game("drawgame", 2, seed=1)
    with pytest.raises(IllegalActionError, match="CORE-SEAT-1"):
        game.act(seat, "draw")
    with pytest.raises(IllegalActionError, match="CORE-SEAT-1"):
        game.apply(Resign(seat))
    assert game.version == 0 and not game.is_over and game.record()["actions"] == []


@pytest.mark.parametrize("seat", [2, 7, -1, 0.0, 1.0, True], ids=repr)
def test_core_seat_1_every_read_for_another_seat_is_rejected(seat: Any) -> None:
    game = cardcore.new_game("drawgame", 2, seed=1)
    before = game.save()
    with pytest.raises(IllegalActionError, match="CORE-SEAT-1"):
        game.legal_actions(seat)
    with pytest.raises(IllegalActionError, match="CORE-SEAT-1"):
        game.history(seat)
    with pytest.raises(IllegalActionError, match="CORE-SEAT-1"):
        game.events.subscribe(CardDrawn, lambda event: None, seat=seat)
    assert game.save() == before


# -- CORE-SEAT-2 -------------------------------------------------------------------------------


def test_core_seat_2_no_game_starts_with_more_than_64_players() -> None:
    with pytest.raises(PluginError, match=r"max_players=100: .* <= 64"):  # refused when declared
        attrs.evolve(drawgame.GAME, name="crowd", max_players=100)
    game = attrs.evolve(drawgame.GAME, name="crowd", max_players=64)
    object.__setattr__(game, "max_players", 100)  # past the declaration's check: new_game's own
    module = types.ModuleType("crowd_game")
    vars(module).update(
        GAME=game,
        create_logic=drawgame.create_logic,
        card_points=drawgame.card_points,
    )
    cardcore.register("cardcore.games", "crowd", module)
    try:
        with pytest.raises(
            OptionError, match=r"crowd takes 2 to 64 players, not 65 \(CORE-SEAT-2\)"
        ):
            cardcore.new_game("crowd", 65, seed=1)
    finally:
        cardcore.unregister("cardcore.games", "crowd")


# -- CORE-TURN-1 / CORE-LEGAL-1: games with a fast is_legal of their own ------------------------


class _AnySeatDraws(DrawLogic):
    """A game whose own ``is_legal`` leaves the turn to the core (as the core promises)."""

    def is_legal(self, state: Any, action: Any) -> bool:
        return type(action) is Draw and state.phase == "draw"


def test_core_turn_1_the_core_checks_the_turn_before_a_games_own_is_legal() -> None:
    with _game("anyseat-draw", _AnySeatDraws):
        game = cardcore.new_game("anyseat-draw", 3, seed=1)
        other = (game.to_act[0] + 1) % 3
        with pytest.raises(IllegalActionError, match="CORE-TURN-1") as info:
            game.apply(Draw(other))
        assert info.value.rule_id == "CORE-TURN-1" and game.version == 0
        game.apply(Draw(game.to_act[0]))
        assert game.version == 1


class _EveryoneDiscardsFirst(DrawLogic):
    """After the deal every seat discards a card at once (a simultaneous phase); then turns."""

    def _deal(self, st: Any, emit: Any) -> None:
        super()._deal(st, emit)
        st.phase = "discard"
        st.to_act = tuple(range(st.players))

    def apply(self, state: Any, action: Any, emit: Any) -> None:
        if len(state.to_act) > 1:  # the simultaneous phase: the seat has discarded
            hand = drawgame.HAND + action.seat
            state.zones.move(hand, drawgame.DISCARD, state.zones.cards[hand].index(action.card))
            state.to_act = tuple(s for s in state.to_act if s != action.seat)
            return
        super().apply(state, action, emit)


def test_core_turn_1_in_a_simultaneous_phase_any_seat_to_act_may_act_and_play_asks_the_first() -> (
    None
):
    with _game("together-draw", _EveryoneDiscardsFirst):
        game = cardcore.new_game("together-draw", 3, seed=1)
        assert game.to_act == (0, 1, 2)
        game.apply(game.legal_actions(2)[0])  # the last of them first
        assert game.to_act == (0, 1)
        with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
            game.apply(Draw(2))
        game.apply(game.legal_actions(1)[0])
        assert game.to_act == (0,)

        game = cardcore.new_game("together-draw", 3, seed=1)
        asked: list[int] = []
        agents = [cardcore.RandomAgent(seed) for seed in range(3)]
        cardcore.play(game, agents, max_actions=5, on_action=lambda g, a: asked.append(a.seat))
        assert asked[:3] == [0, 1, 2]


def test_core_legal_1_a_game_with_is_legal_rejects_an_illegal_action() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    game.act(0, "flip 0")
    assert "flip 0" not in [str(a) for a in game.clone().legal_actions(0)]
    version = game.version  # (the legal set of this game is not asked: its own check decides)
    with pytest.raises(IllegalActionError):
        game.act(0, "flip 0")  # that card is face up already
    with pytest.raises(IllegalActionError):
        game.apply(Flip(0, 0))
    assert game.version == version


class _NoRuleFor(DrawLogic):
    rule_for = GameLogic.rule_for


def test_core_legal_1_a_game_that_names_no_rule_cites_core_legal_1() -> None:
    with _game("plain-draw", _NoRuleFor):
        game = cardcore.new_game("plain-draw", 2, seed=1)
        seat = game.to_act[0]
        card = game.state.zones.cards[game.state.zones.id(f"hand.{seat}")][0]
        with pytest.raises(IllegalActionError, match=r"\(CORE-LEGAL-1\)$") as info:
            game.apply(Discard(seat, card))  # must draw first
        assert info.value.rule_id == "CORE-LEGAL-1"


# -- CORE-VETO-1: a veto also binds a game's own is_legal --------------------------------------


def test_core_veto_1_a_vetoed_action_is_rejected_in_a_game_with_its_own_is_legal() -> None:
    free = cardcore.new_game("golf", 2, seed=1)
    free.act(0, "flip 0")
    assert "flip 1" in [str(a) for a in free.legal_actions(0)]
    free.act(0, "flip 1")  # no veto: legal
    game = cardcore.new_game("golf", 2, seed=1, rules=["golf.reveal-same-column"])
    game.act(0, "flip 0")
    assert "flip 1" not in [str(a) for a in game.clone().legal_actions(0)]
    before = game.save()  # (the legal set of this game is not asked: its own check decides)
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-SETUP-3\)") as info:
        game.act(0, "flip 1")
    assert info.value.rule_id == "GOLF6-SETUP-3"
    assert game.save() == before


# -- CORE-OVER-1 -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["drawgame", "racegame"])
def test_core_over_1_no_resign_and_no_end_after_the_end(name: str) -> None:
    game = cardcore.new_game(name, 2, seed=1)
    game.act(1, "resign")
    result, record = game.result, game.record()
    for seat in (0, 1):
        with pytest.raises(IllegalActionError, match="CORE-OVER-1"):
            game.apply(Resign(seat))
        with pytest.raises(IllegalActionError, match="CORE-OVER-1"):
            game.act(seat, "resign")
        assert game.legal_actions(seat) == ()
    with pytest.raises(IllegalActionError, match="CORE-OVER-1"):
        game.act(cardcore.HOST, "end")
    assert game.result == result and game.record() == record


# -- CORE-RT-1 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("late", [0, 1])
def test_core_rt_1_a_resign_that_lost_the_race_to_the_end_is_stale(late: int) -> None:
    game = cardcore.new_game("racegame", 2, seed=1, deck=RACE_DECK)
    game.apply(Resign(1 - late))  # the action that came first ends the game
    assert game.is_over and game.version == 1
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.apply(Resign(late), seen=0)
    with pytest.raises(IllegalActionError, match="CORE-OVER-1"):
        game.apply(Resign(late))  # without seen: judged against now only


def test_core_rt_1_the_hosts_end_that_lost_the_race_to_the_end_is_stale() -> None:
    game = cardcore.new_game("racegame", 2, seed=1, deck=RACE_DECK)
    game.apply(Resign(1))
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.apply(cardcore.EndMatch(), seen=0)
    with pytest.raises(IllegalActionError, match="CORE-OVER-1"):
        game.apply(cardcore.EndMatch())


def test_core_rt_1_stale_at_the_first_version_when_only_the_other_seat_acted_there() -> None:
    # seat 0: 2S 3H 4D 5C 6S; seat 1: 2H 3D 4C 5S 6D; centre 3C: both may play
    game = cardcore.new_game("racegame", 2, seed=1, deck="2S 2H 3H 3D 4D 4C 5C 5S 6S 6D 3C")
    game.act(1, "play 2H")  # centre 2H: seat 0's 4D is no longer playable
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.act(0, "play 4D", seen=0)
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "play 5C", seen=0)  # never legal
    assert not isinstance(info.value, StaleActionError) and game.version == 1


# -- CORE-RT-2 ---------------------------------------------------------------------------------


class _Fixed:
    """Plans its first legal action after a fixed delay."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        return Plan(legal[0], self.delay) if legal else None


def test_core_rt_2_the_earliest_plan_goes_first_and_overtaken_plans_are_redone_at_once() -> None:
    # seat 0: 2S and four nines; seat 1: 4C AH and three sevens; centre 3C
    game = cardcore.new_game("racegame", 2, seed=1, deck="2S 4C 9H AH 9D 7D 9C 7C 9S 7S 3C")
    done: list[tuple[int, str, float]] = []
    cardcore.run_realtime(
        game,
        [_Fixed(1.0), _Fixed(10.0)],
        seed=3,
        on_action=lambda g, a, t: done.append((a.seat, str(a), t)),
    )
    # seat 0 (due at 1) goes before seat 1 (due at 10); its play makes seat 1's 4C illegal,
    # so seat 1 plans again then (at 1), not when its stale plan falls due (at 10)
    assert done[:2] == [(0, "play 2S", 1.0), (1, "play AH", 11.0)]


def test_core_rt_2_a_plan_that_stays_legal_is_not_made_again() -> None:
    from tests.plugins import racegame

    class AnyCard(racegame.RaceLogic):
        """Any card of the hand may be played: another seat's play never overtakes a plan."""

        def _playable(self, st: Any, seat: int) -> list[cardcore.Card]:
            return list(st.zones.cards[racegame.HANDS[seat]])

    with _game("anycard-race", AnyCard, racegame):
        game = cardcore.new_game("anycard-race", 2, seed=1)
        done: list[tuple[int, float]] = []
        cardcore.run_realtime(
            game,
            [_Fixed(3.0), _Fixed(10.0)],
            seed=3,
            on_action=lambda g, a, t: done.append((a.seat, t)),
        )
    # seat 1 planned at 0 for 10; seat 0's plays at 3, 6 and 9 leave that plan legal
    assert done[:4] == [(0, 3.0), (0, 6.0), (0, 9.0), (1, 10.0)]


# -- CORE-SCORE-1 ------------------------------------------------------------------------------


@pytest.mark.parametrize("answer", [[True, False], [1, True]], ids=repr)
def test_core_score_1_a_bool_is_not_an_integer_score(answer: list[Any]) -> None:
    with _rule(_score_rule("drawgame.bools", "drawgame", lambda scores: answer)):
        game = cardcore.new_game("drawgame", 2, rules=["drawgame.bools"], seed=1)
        with pytest.raises(PluginError, match="one integer per seat"):
            game.logic.score_round(game.state, [3, 4])


def test_core_score_1_a_zero_sum_game_scores_zero_sum_even_when_no_rule_adjusts() -> None:
    zero = types.ModuleType("zerodraw_mut")
    vars(zero).update(
        GAME=attrs.evolve(drawgame.GAME, name="zerodraw-mut", zero_sum=True),
        create_logic=drawgame.create_logic,
        card_points=drawgame.card_points,
    )
    cardcore.register("cardcore.games", "zerodraw-mut", zero)
    try:
        with _rule(_score_rule("zerodraw-mut.pass", "zerodraw-mut", lambda scores: None)):
            game = cardcore.new_game("zerodraw-mut", 2, rules=["zerodraw-mut.pass"], seed=1)
            assert game.logic.score_round(game.state, [3, -3]) == (3, -3)
            with pytest.raises(PluginError, match="zero_sum"):
                game.logic.score_round(game.state, [3, -2])
    finally:
        cardcore.unregister("cardcore.games", "zerodraw-mut")


@pytest.mark.parametrize("name", ["golf", "tonk"])
def test_core_score_1_a_game_that_scores_rounds_passes_each_through_score_round(name: str) -> None:
    seen: list[tuple[int, ...]] = []

    def watch(scores: Any) -> None:
        seen.append(tuple(scores))

    with _rule(_score_rule(f"{name}.mut-watch", name, watch)):
        game = cardcore.new_game(name, 2, rules=[f"{name}.mut-watch"], seed=2)
        cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert game.is_over and game.result is not None and game.result.reason != "truncated"
    assert seen, f"{name} scored no round through score_round"
    assert all(len(scores) == 2 for scores in seen)


# -- CORE-HOOK-1 -------------------------------------------------------------------------------


def test_core_hook_1_the_refusal_names_the_misspelled_hook_not_an_optional_one() -> None:
    module = types.ModuleType("drawgame_mixed")

    def aaa_other_game_hook(state: Any) -> None:
        return None

    def forbid_actoin(action: Any) -> None:
        return None

    vars(module).update(
        RULE=RuleInfo("MUT-VAR-2", "drawgame.mixed", "drawgame", "a test rule"),
        aaa_other_game_hook=hookimpl(optionalhook=True)(aaa_other_game_hook),
        forbid_actoin=hookimpl(forbid_actoin),
    )
    with (
        _rule(module),
        pytest.raises(PluginError, match=r"implements 'forbid_actoin'") as info,
    ):
        cardcore.new_game("drawgame", 2, rules=["drawgame.mixed"], seed=1)
    assert "aaa_other_game_hook" not in str(info.value)


# -- CORE-APPLIES-1 ----------------------------------------------------------------------------


def _applies_rule(rule_id: str, name: str, rounds: tuple[int, ...]) -> types.ModuleType:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))

    @hookimpl
    def score_round(scores: Any) -> Any:
        return None

    info = RuleInfo(rule_id, name, "drawgame", "x", applies={"rounds": rounds})
    vars(module).update(RULE=info, score_round=score_round)
    return module


def test_core_applies_1_every_rule_of_the_game_is_checked() -> None:
    anywhere = _applies_rule("MUT-APP-1", "drawgame.mut-any", (1, 2, 3))
    two = _applies_rule("MUT-APP-2", "drawgame.mut-two", (2,))
    with _rule(anywhere), _rule(two):
        rules = ["drawgame.mut-any", "drawgame.mut-two"]
        with pytest.raises(OptionError, match=r"rounds in \(2\), not 1 \(MUT-APP-2\)"):
            cardcore.new_game("drawgame", 2, rules=rules, seed=1)
        with pytest.raises(OptionError, match=r"\(MUT-APP-2\)"):
            cardcore.new_game("drawgame", 2, rules=rules[::-1], seed=1)
        game = cardcore.new_game("drawgame", 2, rules=rules, options={"rounds": 2}, seed=1)
        assert game.options["rounds"] == 2


def test_core_applies_1_a_configuration_started_before_with_other_values_is_checked_again() -> None:
    two = _applies_rule("MUT-APP-3", "drawgame.mut-three", (3,))
    with _rule(two):
        rules = ["drawgame.mut-three"]
        game = cardcore.new_game("drawgame", 2, rules=rules, options={"rounds": 3}, seed=1)
        assert game.options["rounds"] == 3
        for rounds in (1, 2):
            with pytest.raises(OptionError, match=r"\(MUT-APP-3\)"):
                cardcore.new_game("drawgame", 2, rules=rules, options={"rounds": rounds}, seed=1)


# -- CORE-NOTATION-1 / CORE-NOTATION-2 ---------------------------------------------------------


def test_core_notation_1_texts_of_200_characters_are_read_longer_ones_are_not() -> None:
    game = cardcore.new_game("drawgame", 2, seed=1)
    seat = game.to_act[0]
    with pytest.raises(NotationError, match="too long"):
        game.act(seat, "draw" + " " * 197)  # 201 characters
    assert game.version == 0
    assert isinstance(game.act(seat, "draw" + " " * 196), Draw)  # 200 characters


def test_core_notation_1_case_does_not_matter_for_the_cores_words_and_the_games() -> None:
    game = cardcore.new_game("racegame", 2, seed=1, deck=RACE_DECK)
    with pytest.raises(IllegalActionError, match="RACE-1") as info:
        game.act(0, "PLAY 6S")  # well formed, not legal now: the game's rule, not notation
    assert not isinstance(info.value, StaleActionError)
    game.act(0, " ReSiGn ")
    assert game.is_over and game.result is not None and game.result.reason == "resigned"
    other = cardcore.new_game("drawgame", 2, seed=1)
    other.act(cardcore.HOST, "END")
    assert other.is_over and other.result is not None and other.result.reason == "ended"


def test_core_notation_1_words_may_be_separated_by_several_spaces() -> None:
    game = cardcore.new_game("racegame", 2, seed=1, deck=RACE_DECK)
    with pytest.raises(IllegalActionError, match="RACE-1"):
        game.act(0, "  play   6S ")  # well formed (not legal now)
    assert str(game.act(0, " play    4D  ")) == "play 4D"
    assert game.record()["actions"] == [[0, "play 4D", None]]


class _NoParser(DrawLogic):
    action_types = ()  # its text is matched against its legal actions only


def test_core_notation_1_a_game_without_a_parser_reads_words_and_case_alike() -> None:
    with _game("noparser-draw", _NoParser):
        game = cardcore.new_game("noparser-draw", 2, seed=1)
        seat = game.to_act[0]
        game.act(seat, " DRAW ")
        card = str(game.legal_actions(seat)[0]).split()[1]
        assert str(game.act(seat, f"Discard    {card.lower()}")) == f"discard {card}"
        with pytest.raises(NotationError, match="CORE-NOTATION-1"):
            game.act(game.to_act[0], "discard")


def test_core_notation_2_cards_are_read_in_any_case() -> None:
    assert cardcore.Card.parse("10h") is cardcore.Card.parse("10H")
    assert cardcore.Card.parse("jk") is cardcore.Card.parse("JK")
    game = cardcore.new_game("racegame", 2, seed=1, deck=RACE_DECK)
    with pytest.raises(IllegalActionError, match="RACE-1"):
        game.act(0, "play 6s")  # read as the six of spades, which is not playable on 3C
    game.act(0, "play 4d")
    assert game.record()["actions"] == [[0, "play 4D", None]]


# -- CORE-CHANCE-1 -----------------------------------------------------------------------------


def _reference_shuffle(seed: int, counter: int, items: list[int]) -> list[int]:
    """Fisher-Yates over the SHAKE-128 stream of (seed, counter), written out independently."""
    out = list(items)
    n = len(out)
    digest = hashlib.shake_128(b"cardcore-chance/3:%d:%d" % (seed, counter)).digest(4 * n)
    words = [int.from_bytes(digest[4 * k : 4 * k + 4], "little") for k in range(n)]
    for step, i in enumerate(range(n - 1, 0, -1)):
        j = words[step] % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@pytest.mark.parametrize(("seed", "counter"), [(0, 0), (7, 0), (7, 1), (12345, 3)])
def test_core_chance_1_the_shuffle_is_cardcores_own_fisher_yates(seed: int, counter: int) -> None:
    items = list(range(52))
    got = list(items)
    cardcore.Chance(seed, counter).shuffle(got)
    assert got == _reference_shuffle(seed, counter, items)


def test_core_chance_1_a_fisher_yates_can_leave_a_card_where_it_was() -> None:
    fixed = 0
    for seed in range(40):
        got = list(range(10))
        cardcore.Chance(seed, 0).shuffle(got)
        fixed += sum(a == b for a, b in enumerate(got))
    assert fixed > 0  # (a shuffle that always moves every card is no Fisher-Yates)


def test_core_chance_1_chance_event_k_uses_the_generator_of_seed_and_k() -> None:
    game = cardcore.new_game("drawgame", 2, seed=99)
    state = game.state.clone()
    done = state.draws  # the chance events counted so far
    firsts = [state.rng().random() for _ in range(3)]
    assert firsts == [cardcore.Chance(99, done + k).random() for k in (1, 2, 3)]
    assert len(set(firsts)) == 3


# -- CORE-END-1 --------------------------------------------------------------------------------


class _NoStandings(DrawLogic):
    standings = GameLogic.standings


def test_core_end_1_a_game_that_declares_no_standings_makes_every_seat_a_winner() -> None:
    with _game("nostandings-draw", _NoStandings):
        game = cardcore.new_game("nostandings-draw", 3, seed=1)
        game.act(cardcore.HOST, "end")
        assert game.result is not None and game.result.reason == "ended"
        assert game.result.winners == (0, 1, 2)


# -- CORE-BOUND-1 ------------------------------------------------------------------------------


class _ShortDraw(DrawLogic):
    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 25


def test_core_bound_1_a_record_longer_than_the_bound_is_refused_unread() -> None:
    with _game("short-draw-mut", _ShortDraw):
        game = cardcore.new_game("short-draw-mut", 2, seed=7)
        cardcore.play(game, [cardcore.RandomAgent(seed=1), cardcore.RandomAgent(seed=2)])
        assert game.version == 25 and game.result is not None
        record = game.record()
        record["actions"] = record["actions"] + [[0, "draw", None]] * 30
        with pytest.raises(CorruptStateError, match="more than the game's bound 25"):
            cardcore.replay(record)


def test_core_bound_1_a_real_time_game_past_a_checkpoint_ends_at_its_bound() -> None:
    from tests.plugins import racegame

    class Bound70(racegame.RaceLogic):
        def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
            return 70  # past the checkpoint real time takes every 64 versions

    with _game("race-70", Bound70, racegame):
        game = cardcore.new_game("race-70", 2, options={"rounds": 40}, seed=5)
        rng = random.Random(5)
        while not game.is_over:
            choices = [a for s in (0, 1) for a in game.legal_actions(s)]
            game.apply(rng.choice(choices), at=float(game.version))
        assert game.version == 70
        assert game.result is not None and game.result.reason == "truncated"
        assert cardcore.replay(game.record()).result == game.result


def test_core_bound_1_a_game_whose_house_rule_ran_ends_at_its_bound_too() -> None:
    from tests.plugins import racegame

    class Bound30(racegame.RaceLogic):
        def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
            return 30

    # the rule's score_round runs at the end of every round (about every 9 actions here)
    rule = _score_rule("race-30.pass", "race-30", lambda scores: None)
    with _game("race-30", Bound30, racegame), _rule(rule):
        for seed in range(3):
            game = cardcore.new_game(
                "race-30", 2, options={"rounds": 40}, seed=seed, rules=["race-30.pass"]
            )
            rng = random.Random(seed)
            while not game.is_over:
                choices = [a for s in (0, 1) for a in game.legal_actions(s)]
                game.apply(rng.choice(choices), at=float(game.version))
            assert game.version == 30 and game.state.round > 1
            assert game.result is not None and game.result.reason == "truncated"


# -- CORE-RECORD-1 -----------------------------------------------------------------------------


def _played_save() -> tuple[cardcore.Game, dict[str, Any]]:
    game = cardcore.new_game("drawgame", 2, seed=3, options={"rounds": 2})
    cardcore.play(game, [cardcore.RandomAgent(3), cardcore.RandomAgent(4)], max_actions=9)
    return game, game.save()


def test_core_record_1_a_snapshot_with_every_card_but_in_other_places_does_not_load() -> None:
    _, save = _played_save()
    zones = save["state"]["zones"]
    a, b = zones["hand.0"]["cards"], zones["hand.1"]["cards"]
    a[0], b[0] = b[0], a[0]  # every card still accounted for
    with pytest.raises(CorruptStateError, match="does not match"):
        cardcore.load(save)


def test_core_record_1_a_save_claiming_another_version_does_not_load() -> None:
    game, save = _played_save()
    save["version"] = game.version + 1
    with pytest.raises(CorruptStateError, match="version"):
        cardcore.load(save)


def test_core_record_1_a_record_claiming_another_result_does_not_replay() -> None:
    game = cardcore.new_game("drawgame", 2, seed=3)
    cardcore.play(game, [cardcore.RandomAgent(3), cardcore.RandomAgent(4)])
    record = game.record()
    assert record["result"] is not None
    record["result"] = dict(record["result"], winners=[0, 1])
    if record["result"] == game.record()["result"]:
        record["result"] = dict(record["result"], winners=[])
    with pytest.raises(CorruptStateError, match="result"):
        cardcore.replay(record)


DATA = Path(__file__).resolve().parent / "data"


@pytest.mark.parametrize("name", ["drawgame_v1", "golf_v1", "golf_v2", "speed_v1", "spit_v2"])
def test_core_record_1_records_of_earlier_formats_still_replay(name: str) -> None:
    record = json.loads((DATA / f"{name}_record.json").read_text())
    game = cardcore.replay(record)  # (its recorded result is checked against the replay)
    assert game.version == len(record["actions"])
    assert (game.result is None) == (record["result"] is None)


@pytest.mark.parametrize("name", ["drawgame_v1", "golf_v1"])
def test_core_record_1_saves_of_the_previous_format_still_load(name: str) -> None:
    save = json.loads((DATA / f"{name}_save.json").read_text())
    assert save["format_version"] == 1
    game = cardcore.load(save)
    assert game.version == save["version"]


def test_core_record_1_a_record_with_an_action_that_does_not_replay_is_refused() -> None:
    game = cardcore.new_game("drawgame", 2, seed=3)
    cardcore.play(game, [cardcore.RandomAgent(3), cardcore.RandomAgent(4)])
    record = game.record()
    seat = record["actions"][4][0]
    record["actions"][4] = [seat, "discard JK", None]  # no joker in the deck
    with pytest.raises(CorruptStateError, match=r"action 4 .* cannot be replayed"):
        cardcore.replay(record)


def test_core_record_1_real_time_stamps_never_go_back() -> None:
    game = cardcore.new_game("racegame", 2, seed=1, deck=RACE_DECK)
    game.act(0, "play 2S", at=5.0)
    with pytest.raises(IllegalActionError, match="CORE-RECORD-1"):
        game.act(0, "play 3H", at=4.0)
    assert game.version == 1
    game.act(0, "play 3H", at=5.0)  # the same time is no going back
    record = game.record()
    record["actions"][1][2] = 4.0
    with pytest.raises(CorruptStateError, match="CORE-RECORD-1"):
        cardcore.replay(record)


# -- CORE-POSITION-1 ---------------------------------------------------------------------------


def _position(players: int) -> str:
    game = cardcore.new_game("drawgame", players, seed=4)
    game.act(game.to_act[0], "draw")
    return game.position()


def test_core_position_1_an_unknown_pile_is_refused() -> None:
    text = _position(3) + " | nowhere:"
    with pytest.raises(OptionError, match="unknown pile 'nowhere'"):
        cardcore.new_game("drawgame", 3, position=text, seed=1)


def test_core_position_1_a_pile_written_twice_is_refused() -> None:
    text = _position(3)
    head, stock = text.split(" | stock: ", 1)
    first, rest = stock.split(" ", 1)
    split = f"{head} | stock: {first} | stock: {rest}"  # every card still placed once
    with pytest.raises(OptionError, match="appears twice"):
        cardcore.new_game("drawgame", 3, position=split, seed=1)


def test_core_position_1_an_unknown_seat_is_refused_even_when_read_before() -> None:
    four = _position(4)
    cardcore.new_game("drawgame", 4, position=four, seed=1)  # its tokens are read (and kept)
    token = next(t for t in four.split() if t.endswith("@3"))
    card = token.split("@")[0]
    three = _position(3)
    words = three.split(" ")
    at = next(i for i, w in enumerate(words) if w.split("@")[0].rstrip("!") == card)
    words[at] = token  # a card seen by seat 3 of a 3-player game
    with pytest.raises(OptionError, match="'3' is not a seat of a 3-player game"):
        cardcore.new_game("drawgame", 3, position=" ".join(words), seed=1)
    words[at] = f"{card}@7"
    with pytest.raises(OptionError, match="'7' is not a seat of a 3-player game"):
        cardcore.new_game("drawgame", 3, position=" ".join(words), seed=1)


def test_core_position_1_a_card_known_to_some_seats_is_known_to_those_seats() -> None:
    text = _position(3)
    head, stock = text.split(" | stock: ", 1)
    bottom, rest = stock.split(" ", 1)  # the stock's bottom card, known to nobody
    assert "@" not in bottom and "!" not in bottom
    known = f"{head} | stock: {bottom}@0.2 {rest}"
    game = cardcore.new_game("drawgame", 3, position=known, seed=1)
    assert game.position() == known

    def stock_bottom(seat: int | None) -> str | None:
        view = game.view(seat)
        return next(z["cards"] for z in view["zones"] if z["name"] == "stock")[-1]

    assert stock_bottom(0) == stock_bottom(2) == bottom
    assert stock_bottom(1) is None and stock_bottom(None) is None


# -- CORE-HIDDEN-1 -----------------------------------------------------------------------------


def test_core_hidden_1_a_spectators_event_stream_holds_no_private_card() -> None:
    game = cardcore.new_game("drawgame", 2, seed=1)
    seat = game.to_act[0]
    public: list[CardDrawn] = []
    own: list[CardDrawn] = []
    game.events.subscribe(CardDrawn, public.append, seat=SPECTATOR)
    game.events.subscribe(CardDrawn, own.append, seat=seat)
    game.act(seat, "draw")  # from the face-down stock
    assert own and all(e.card is not None for e in own)
    assert public and all(e.card is None for e in public)


def test_core_hidden_1_a_card_only_its_owner_peeked_at_is_hidden_from_the_others() -> None:
    game = cardcore.new_game("golf", 2, seed=1, options={"layout": 4})
    game.act(0, "peek 0")

    def grid(seat: int | None) -> list[str | None]:
        view = game.view(seat)
        return next(z["cards"] for z in view["zones"] if z["name"] == "grid.0")

    assert sum(c is not None for c in grid(0)) == 1
    assert grid(1) == [None] * 4
    assert grid(None) == [None] * 4


def test_core_hidden_1_an_ordered_hand_shows_the_others_only_what_all_have_seen() -> None:
    game = cardcore.new_game("golf", 2, seed=1, options={"layout": "4h"})

    def grid(owner: int, seat: int | None) -> list[str | None]:
        view = game.view(seat)
        return next(z["cards"] for z in view["zones"] if z["name"] == f"grid.{owner}")

    for owner in (0, 1):
        assert None not in grid(owner, owner)
        assert grid(owner, 1 - owner) == grid(owner, None) == [None] * 4


@pytest.mark.parametrize("name", ["drawgame", "racegame", "golf"])
def test_core_resign_1_a_resign_ends_the_game_for_every_seat(name: str) -> None:
    game = cardcore.new_game(name, 3 if name != "racegame" else 2, seed=1)
    players = len(game.players)
    resigning = players - 1
    game.act(resigning, "resign")
    assert game.is_over and game.to_act == ()
    assert game.view(0)["to_act"] == [] and game.view(None)["is_over"] is True
    assert all(game.legal_actions(s) == () for s in range(players))
    assert game.result is not None and game.result.reason == "resigned"
    assert game.result.winners == tuple(range(resigning))
    again = cardcore.replay(game.record())
    assert again.result == game.result and again.to_act == ()


def test_core_hidden_1_after_a_shuffle_nobody_knows_where_a_card_is() -> None:
    game = cardcore.new_game("drawgame", 3, seed=2, options={"rounds": 2})
    agents = [cardcore.RandomAgent(s) for s in range(3)]
    while game.state.round == 1:  # the round ends: every card back to the stock, shuffled
        seat = game.to_act[0]
        game.apply(agents[seat].choose({}, game.legal_actions(seat)))
    assert not game.is_over
    for seat in (0, 1, 2, None):
        view = game.view(seat)
        stock = next(z["cards"] for z in view["zones"] if z["name"] == "stock")
        assert stock and stock == [None] * len(stock), seat


class _StrictRuleFor(DrawLogic):
    def rule_for(self, state: Any, action: Any) -> tuple[str, str]:
        if isinstance(action, Discard):
            return "DRAW-1", f"no discard of the {action.card.rank.name.lower()} now"
        return super().rule_for(state, action)


def test_core_action_1_a_hand_built_action_the_game_cannot_read_is_the_callers_error() -> None:
    with _game("strict-draw", _StrictRuleFor):
        game = cardcore.new_game("strict-draw", 2, seed=1)
        seat = game.to_act[0]
        with pytest.raises(IllegalActionError, match="CORE-ACTION-1") as info:
            game.apply(Discard(seat, "2S"))  # type: ignore[arg-type]  # a text, not a Card
        assert info.value.rule_id == "CORE-ACTION-1" and not isinstance(info.value, PluginError)
        assert game.version == 0


def test_core_rt_3_a_view_read_later_leaves_an_earlier_one_as_it_was() -> None:
    import copy

    game = cardcore.new_game("drawgame", 2, seed=1)
    first = game.view(0)
    kept = copy.deepcopy(first)
    history = game.history(0)
    game.view(1)
    game.view(None)
    game.act(game.to_act[0], "draw")
    game.view(0)
    game.view(1)
    assert first == kept and game.history(0) == history
