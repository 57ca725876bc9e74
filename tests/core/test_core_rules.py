"""One test per rule of seeds/core.md, each failing if the rule broke."""

from __future__ import annotations

import random
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs
import pytest
from tests.plugins import drawgame
from tests.plugins.drawgame import Discard, Draw
from tests.plugins.racegame import Play

import cardcore
from cardcore import (
    EndMatch,
    IllegalActionError,
    NotationError,
    OptionError,
    Resign,
    RuleInfo,
    StaleActionError,
    StalledGameError,
    hookimpl,
)


def snapshot(game: cardcore.Game) -> tuple[object, ...]:
    return game.state.snapshot(), game.version, game.record()["actions"]


def _rule_module(
    rule_id: str,
    name: str,
    *,
    game: str = "drawgame",
    optional: bool = False,
    **hooks: Callable[..., Any],
) -> types.ModuleType:
    """A house-rule module implementing *hooks* (named by their keyword)."""
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    impls = {}
    for hook, func in hooks.items():
        func.__name__ = hook
        impls[hook] = hookimpl(optionalhook=True)(func) if optional else hookimpl(func)
    vars(module).update(RULE=RuleInfo(rule_id, name, game, "a test rule"), **impls)
    return module


@contextmanager
def _registered(module: types.ModuleType) -> Iterator[None]:
    cardcore.register("cardcore.rules", module.RULE.name, module)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.rules", module.RULE.name)


def hand(game: cardcore.Game, seat: int) -> list[cardcore.Card]:
    """The cards in *seat*'s hand (privileged)."""
    zones = game.state.zones
    return zones.cards[zones.id(f"hand.{seat}")]


def zone(view: dict[str, object], name: str) -> list[str | None]:
    """The cards of pile *name* in a view, top first (``None``: hidden)."""
    return next(z["cards"] for z in view["zones"] if z["name"] == name)  # type: ignore[attr-defined,index]


def test_core_seat_1_seat_out_of_range_rejected(make_game) -> None:
    game = make_game("drawgame", 2)
    before = snapshot(game)
    for seat in (2, -3, 99):
        with pytest.raises(IllegalActionError, match="CORE-SEAT-1"):
            game.act(seat, "draw")
    with pytest.raises(IllegalActionError, match="CORE-SEAT-1"):
        game.apply(Draw(5))
    with pytest.raises(IllegalActionError, match="CORE-SEAT-1"):
        game.view(7)
    assert snapshot(game) == before


def test_core_seat_2_player_count_checked() -> None:
    with pytest.raises(OptionError, match="CORE-SEAT-2"):
        cardcore.new_game("drawgame", 5, seed=1)
    with pytest.raises(OptionError, match="CORE-SEAT-2"):
        cardcore.new_game("drawgame", 1, seed=1)
    assert len(cardcore.new_game("drawgame", ["ann", "bob", "cy"], seed=1).players) == 3


def test_core_turn_1_out_of_turn_rejected(make_game) -> None:
    game = make_game("drawgame", 3)
    seat = game.to_act[0]
    other = (seat + 1) % 3
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="CORE-TURN-1") as info:
        game.apply(Draw(other))
    assert info.value.rule_id == "CORE-TURN-1"
    assert snapshot(game) == before
    game.apply(Draw(seat))
    assert game.version == 1


def test_core_legal_1_illegal_action_cites_rule(make_game) -> None:
    game = make_game("drawgame", 2)
    seat = game.to_act[0]
    card = hand(game, seat)[0]
    with pytest.raises(IllegalActionError, match="DRAW-1"):
        game.apply(Discard(seat, card))  # must draw first
    game2 = make_game("drawgame", 2, rules=["drawgame.no-hearts"], deck="2H AS 3S 4S 5S 6S 7S")
    seat = game2.to_act[0]
    game2.act(seat, "draw")
    hearts = [c for c in hand(game2, seat) if c.suit and c.suit.letter == "H"]
    assert hearts
    with pytest.raises(IllegalActionError, match="DRAW-VAR-2"):
        game2.apply(Discard(seat, hearts[0]))


def test_core_over_1_no_action_after_the_end(make_game) -> None:
    game = make_game("drawgame", 2)
    game.apply(Resign(0))
    assert game.is_over and game.result is not None and game.result.winners == (1,)
    with pytest.raises(IllegalActionError, match="CORE-OVER-1"):
        game.apply(Draw(game.to_act[0] if game.to_act else 1))
    assert game.legal_actions(1) == ()


def test_core_action_1_apply_takes_actions_only(make_game) -> None:
    game = make_game("drawgame", 2)
    with pytest.raises(IllegalActionError, match="CORE-ACTION-1"):
        game.apply("draw")  # type: ignore[arg-type]


def test_core_rt_1_stale_versus_illegal(make_game) -> None:
    game = make_game("racegame", 2, deck="2S 9H 3H 10H 4D JC 5C QC 6S KS 3C")
    # centre 3C; seat 0 holds 2S 3H 4D 5C 6S; seat 1 holds 9H 10H JC QC KS
    seen = game.version
    assert game.legal_actions(0) == (
        Play(0, cardcore.Card.parse("2S")),
        Play(0, cardcore.Card.parse("4D")),
    )
    game.act(0, "play 2S")  # centre is now 2S
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.act(0, "play 4D", seen=seen)  # legal on 3C, not on 2S
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "play 6S", seen=seen)  # never legal
    assert not isinstance(info.value, StaleActionError)
    assert game.version == 1


def test_core_rt_2_runner_ties_are_seeded_and_stalls_raise(make_game) -> None:
    class Fixed:
        def plan(self, view, legal, now):  # type: ignore[no-untyped-def]
            return cardcore.Plan(legal[0], 1.0) if legal else None

    firsts = set()
    for seed in range(12):
        game = make_game("racegame", 2, deck="2S 2H 3H 3D 4D 4C 5C 5S 6S 6D 3C")
        order: list[int] = []
        cardcore.run_realtime(
            game,
            [Fixed(), Fixed()],
            seed=seed,
            on_action=lambda g, a, t, order=order: order.append(a.seat),
        )
        firsts.add(order[0])
    assert firsts == {0, 1}  # equal due times: not always seat 0

    class Idle:
        def plan(self, view, legal, now):  # type: ignore[no-untyped-def]
            return None

    game = make_game("racegame", 2, deck="2S 2H 3H 3D 4D 4C 5C 5S 6S 6D 3C")
    with pytest.raises(StalledGameError):
        cardcore.run_realtime(game, [Idle(), Idle()])


def test_core_notation_1_malformed_text(make_game) -> None:
    game = make_game("drawgame", 2)
    before = snapshot(game)
    for text in ["", "fly", "discard", "draw draw", "x" * 500]:
        with pytest.raises(NotationError):
            game.act(game.to_act[0], text)
    with pytest.raises(NotationError):
        game.act(0, 17)  # type: ignore[arg-type]
    assert snapshot(game) == before
    seat = game.to_act[0]
    assert isinstance(game.act(seat, "  DRAW "), Draw)


def test_core_notation_2_unknown_card_in_action(make_game) -> None:
    game = make_game("drawgame", 2)
    seat = game.to_act[0]
    game.act(seat, "draw")
    before = snapshot(game)
    with pytest.raises(NotationError, match="not a card"):
        game.act(seat, "discard 1Z")
    assert snapshot(game) == before


def test_core_resign_1_resign_any_time(make_game) -> None:
    game = make_game("drawgame", 3)
    not_to_act = (game.to_act[0] + 1) % 3
    game.act(not_to_act, "resign")
    assert game.is_over and game.result is not None
    assert game.result.reason == "resigned"
    assert not_to_act not in game.result.winners and len(game.result.winners) == 2


def test_core_end_1_only_host_ends(make_game) -> None:
    game = make_game("drawgame", 2)
    with pytest.raises(IllegalActionError, match="CORE-END-1"):
        game.act(0, "end")
    with pytest.raises(IllegalActionError, match="CORE-END-1"):
        game.apply(EndMatch(seat=1))
    for host_lookalike in (-1.0, -1 + 0j, True):  # equal to -1 (or not), but not the int
        with pytest.raises(IllegalActionError, match="CORE-END-1"):
            game.act(host_lookalike, "end")  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError, match="CORE-END-1"):
            game.apply(EndMatch(seat=host_lookalike))  # type: ignore[arg-type]
    assert not game.is_over and game.version == 0
    game.act(cardcore.HOST, "end")
    assert game.is_over and game.result is not None and game.result.reason == "ended"
    assert game.record()["actions"][-1] == [-1, "end", None]
    again = cardcore.replay(game.record())
    assert again.result == game.result


def test_core_bound_1_runners_truncate(make_game) -> None:
    game = make_game("drawgame", 2)
    result = cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], max_actions=5)
    assert result.reason == "truncated" and game.version == 5 and game.is_over
    race = make_game("racegame", 2)
    result = cardcore.run_realtime(
        race, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], max_actions=1
    )
    assert race.version <= 1
    assert result.reason in ("truncated", "hand emptied", "stuck")


def test_core_chance_1_same_seed_same_game() -> None:
    def run(seed: int) -> list[list[object]]:
        game = cardcore.new_game("drawgame", 3, seed=seed, options={"rounds": 2})
        cardcore.play(game, [cardcore.RandomAgent(s) for s in range(3)])
        return game.record()["actions"]

    assert run(11) == run(11)
    assert run(11) != run(12)


def test_core_record_1_replay_and_tamper(make_game) -> None:
    game = make_game("drawgame", 2, options={"rounds": 2})
    cardcore.play(game, [cardcore.RandomAgent(3), cardcore.RandomAgent(4)])
    again = cardcore.replay(game.record())
    assert again.state.snapshot() == game.state.snapshot() and again.result == game.result
    save = game.save()
    save["state"]["zones"]["discard"]["cards"].append("AS")
    with pytest.raises(cardcore.CorruptStateError, match="every card"):
        cardcore.load(save)


def test_core_hidden_1_views_hide_other_hands(make_game) -> None:
    game = make_game("drawgame", 3)
    view = game.view(1)
    assert zone(view, "hand.1") == [str(c) for c in reversed(hand(game, 1))]
    assert zone(view, "hand.0") == [None, None, None] and zone(view, "hand.2") == [None, None, None]
    assert zone(view, "stock") == [None] * 42
    assert zone(game.view(None), "hand.1") == [None, None, None]
    hidden: list[cardcore.Event] = []
    game.events.subscribe(cardcore.CardDrawn, hidden.append, seat=1)
    game.act(game.to_act[0], "draw")
    assert hidden and all(e.card is None for e in hidden)  # another seat's draw from the stock


def _refusal(game: cardcore.Game, seat: int, text: str) -> tuple[Any, ...]:
    try:
        game.act(seat, text)
    except cardcore.CardcoreError as exc:
        return (type(exc).__name__, exc.rule_id, str(exc))
    return ("applied",)


@pytest.mark.parametrize(("name", "players"), [("drawgame", 3), ("tonk", 3)])
def test_core_hidden_2_a_refusal_is_the_same_wherever_hidden_cards_lie(
    make_game, name: str, players: int
) -> None:
    game = make_game(name, players, seed=5)
    rng = random.Random(4)
    for _ in range(3):
        game.apply(rng.choice([a for a in game.legal_actions(game.to_act[0]) if str(a) != "drop"]))
    assert not game.is_over
    acting = game.to_act[0]
    for seat in ((acting + 1) % players, acting):  # a seat not to act, and the one to act
        twins = [game.determinize(seat, k) for k in (1, 2)]
        assert twins[0].view(seat) == twins[1].view(seat) == game.view(seat)
        hidden = [z["cards"] for z in game.view(seat)["zones"]]
        assert any(None in cards for cards in hidden)  # there is something hidden to differ
        assert twins[0].state.snapshot() != twins[1].state.snapshot()  # and it does
        verbs = {str(a).split()[0] for w in twins for s in range(players) for a in w.legal_actions(s)}
        texts = [f"discard {c}" for c in cardcore.standard_52()] + sorted(verbs) + ["hit 0 7H"]
        for text in texts:
            outcomes = {_refusal(w.clone(), seat, text) for w in twins}
            assert len(outcomes) == 1, (seat, text, outcomes)


def test_core_cards_1_every_card_in_one_place(make_game) -> None:
    from collections import Counter

    game = make_game("drawgame", 3, options={"rounds": 2})
    deck = Counter(game.logic.deck(3, game.options))
    agents = [cardcore.RandomAgent(s) for s in range(3)]
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(agents[seat].choose({}, game.legal_actions(seat)))
        assert Counter(game.state.zones.all_cards()) == deck


def test_core_rt_1_stale_judged_at_an_explicit_seen_version(make_game) -> None:
    game = make_game("racegame", 2, deck="2S 9H 3H 10H 4D JC 5C QC 6S KS 3C")
    assert game._checkpoints[0] == (0, None)  # no hook ran while dealing: dealt again to judge
    game.act(0, "play 2S")  # seat 0 never asked for version 0, but 4D was legal there
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.act(0, "play 4D", seen=0)
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "play 4D", seen=-5)
    assert not isinstance(info.value, StaleActionError) and game.version == 1


# -- the core owns the flow ------------------------------------------------------------------


def _race_to(
    version: int, seed: int = 5
) -> tuple[cardcore.Game, dict[int, dict[int, tuple[cardcore.Action, ...]]]]:
    """A racegame of many rounds played to *version*, with the legal actions of both seats at each version."""
    game = cardcore.new_game("racegame", 2, options={"rounds": 40}, seed=seed)
    rng = random.Random(seed)
    legal: dict[int, dict[int, tuple[cardcore.Action, ...]]] = {}
    while game.version < version and not game.is_over:
        legal[game.version] = {s: game.legal_actions(s) for s in (0, 1)}
        choices = [a for s in (0, 1) for a in legal[game.version][s]]
        game.apply(rng.choice(choices))
    assert game.version == version, "the race ended too early for this seed"
    legal[game.version] = {s: game.legal_actions(s) for s in (0, 1)}
    return game, legal


def _stale_candidates(
    game: cardcore.Game, legal: dict[int, dict[int, tuple[cardcore.Action, ...]]], seens: range
) -> list[tuple[int, cardcore.Action]]:
    now = legal[game.version]
    return [
        (seen, action)
        for seen in seens
        for seat in (0, 1)
        for action in legal[seen][seat]
        if action not in now[seat]
    ]


def test_core_rt_3_seen_inside_the_window_is_judged_exactly() -> None:
    game, legal = _race_to(150)
    v = game.version
    window = range(v - cardcore.STALE_WINDOW, v)
    candidates = _stale_candidates(game, legal, window)
    assert len({seen for seen, _ in candidates}) > 20
    fresh = cardcore.replay(game.record())  # never asked for most seats' legal actions
    never = cardcore.Card.parse("KS")
    for seen, action in candidates:
        for g in (game, fresh):
            with pytest.raises(StaleActionError, match="CORE-RT-1"):
                g.apply(action, seen=seen)
        illegal_then = Play(action.seat, never)
        if (
            illegal_then not in legal[seen][action.seat]
            and illegal_then not in legal[v][action.seat]
        ):
            with pytest.raises(IllegalActionError) as info:
                fresh.apply(illegal_then, seen=seen)
            assert not isinstance(info.value, StaleActionError)
    assert game.version == fresh.version == v


def test_core_rt_3_seen_outside_the_window_is_refused_naming_it() -> None:
    game, legal = _race_to(150)
    v = game.version
    old = _stale_candidates(game, legal, range(v - 90, v - cardcore.STALE_WINDOW))
    assert old
    seen, action = old[0]
    with pytest.raises(
        IllegalActionError,
        match=rf"outside the window .*{v - cardcore.STALE_WINDOW} to {v}.*CORE-RT-3",
    ) as info:
        game.apply(action, seen=seen)
    assert not isinstance(info.value, StaleActionError) and info.value.rule_id == "CORE-RT-3"
    with pytest.raises(IllegalActionError, match="CORE-RT-3"):
        game.apply(action, seen=v + 1)  # a version the game has not reached
    assert game.version == v


@pytest.mark.parametrize("bogus", ["3", 1.5, True, [0], object()], ids=["3", "1.5", "True", "[0]", "object"])
def test_core_rt_3_seen_that_is_not_a_version_is_illegal_not_a_type_error(bogus: object) -> None:
    game, _ = _race_to(3)
    seat = next(s for s in (0, 1) if game.legal_actions(s))
    action = game.legal_actions(seat)[0]  # legal, and on the hot path
    with pytest.raises(IllegalActionError, match=r"seen must be a version number .*CORE-RT-3"):
        game.apply(action, seen=bogus)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="CORE-RT-3"):
        game.act(seat, str(action), seen=bogus)  # type: ignore[arg-type]
    turn = cardcore.new_game("drawgame", 2, seed=1)
    with pytest.raises(IllegalActionError, match="CORE-RT-3"):
        turn.apply(turn.legal_actions(turn.to_act[0])[0], seen=bogus)  # type: ignore[arg-type]
    assert game.version == 3 and turn.version == 0


def test_core_rt_3_reads_change_nothing(make_game) -> None:
    game = make_game("racegame", 2, deck="2S 9H 3H 10H 4D JC 5C QC 6S KS 3C")
    before = (game.save(), game.version)
    shown = game.view(0)  # seat 0 looks at version 0: 2S and 4D are playable on 3C
    for seat in (0, 1, None):
        game.view(seat)
        game.history(seat)
        if seat is not None:
            game.legal_actions(seat)
    assert (game.save(), game.version) == before  # reads are pure
    game.act(0, "play 2S")
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "play 4D")  # no seen: judged against now only (implicit "seen" is gone)
    assert not isinstance(info.value, StaleActionError)
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.act(0, "play 4D", seen=shown["version"])  # the host passes the version it showed


def test_core_veto_1_turn_based_vetoes_filtered_and_cited(make_game) -> None:
    deck = "2H 3S 4H 5S 6C 7S 8D 9H"  # seat 0: 2H 4H 6C; seat 1: 3S 5S 7S; discard 8D; stock top 9H
    free = make_game("drawgame", 2, deck=deck)
    free.act(0, "draw")
    assert [str(a) for a in free.legal_actions(0)] == [
        "discard 2H",
        "discard 4H",
        "discard 6C",
        "discard 9H",
    ]
    game = make_game("drawgame", 2, deck=deck, rules=["drawgame.no-hearts"])
    game.act(0, "draw")
    assert [str(a) for a in game.legal_actions(0)] == [
        "discard 6C"
    ]  # the game lists, the core filters
    assert "discard 2H" not in game.view(0)["legal"]
    before = snapshot(game)
    with pytest.raises(
        IllegalActionError, match=r"'discard 2H' is forbidden: .* \(DRAW-VAR-2\)"
    ) as info:
        game.act(0, "discard 2H")
    assert info.value.rule_id == "DRAW-VAR-2"
    with pytest.raises(IllegalActionError, match="DRAW-VAR-2"):
        game.apply(Discard(0, cardcore.Card.parse("4H")))
    assert snapshot(game) == before


def test_core_veto_1_real_time_vetoes_filtered_and_cited(make_game) -> None:
    deck = (
        "2S 9H KH 10H 4D JC 5C QC 6S KS AC"  # seat 0: 2S KH 4D 5C 6S; centre AC (K and 2 adjacent)
    )
    free = make_game("racegame", 2, deck=deck)
    assert [str(a) for a in free.legal_actions(0)] == ["play 2S", "play KH"]
    assert [str(a) for a in free.legal_actions(1)] == ["play KS"]
    game = make_game("racegame", 2, deck=deck, rules=["racegame.no-kings"])
    assert [str(a) for a in game.legal_actions(0)] == ["play 2S"]
    assert game.legal_actions(1) == ()
    before = snapshot(game)
    with pytest.raises(
        IllegalActionError, match=r"kings may not be played: 'KS' \(RACE-VAR-1\)"
    ) as info:
        game.act(1, "play KS", seen=0)  # a veto is no stale action
    assert info.value.rule_id == "RACE-VAR-1" and not isinstance(info.value, StaleActionError)
    assert snapshot(game) == before


def test_core_veto_1_costs_nothing_without_a_veto(make_game) -> None:
    plain = make_game("drawgame", 2)
    assert plain.ruleset.veto is None
    assert plain._logic_legal == plain.logic.legal_actions  # the game's bound method, unwrapped
    vetoed = make_game("drawgame", 2, rules=["drawgame.no-hearts"])
    assert vetoed.ruleset.veto is not None and vetoed._logic_legal != vetoed.logic.legal_actions


def test_core_score_1_score_round_answer_checked(make_game) -> None:
    short = _rule_module("DRAW-VAR-5", "drawgame.short", score_round=lambda scores: [sum(scores)])
    with _registered(short):
        game = make_game("drawgame", 2, rules=["drawgame.short"])
        with pytest.raises(cardcore.PluginError, match=r"one integer per seat \(2\)") as info:
            game.logic.score_round(game.state, [3, 4])
        assert info.value.plugin == "drawgame.short"
        agents = [cardcore.RandomAgent(1), cardcore.RandomAgent(2)]
        with pytest.raises(cardcore.PluginError, match=r"drawgame\.short"):
            cardcore.play(game, agents)  # at the end of the round
        assert (
            not game.is_over
            and cardcore.replay(game.record()).state.snapshot() == game.state.snapshot()
        )
    texts = _rule_module("DRAW-VAR-5", "drawgame.texts", score_round=lambda scores: ["1", "2"])
    with _registered(texts):
        game = make_game("drawgame", 2, rules=["drawgame.texts"])
        with pytest.raises(cardcore.PluginError, match="one integer per seat"):
            game.logic.score_round(game.state, [3, 4])


def test_core_score_1_zero_sum_games_stay_zero_sum() -> None:
    zero = types.ModuleType("zerodraw")
    vars(zero).update(
        GAME=attrs.evolve(drawgame.GAME, name="zerodraw", zero_sum=True),
        create_logic=drawgame.create_logic,
        card_points=drawgame.card_points,
    )
    cardcore.register("cardcore.games", "zerodraw", zero)
    bonus = _rule_module(
        "ZERO-VAR-1",
        "zerodraw.bonus",
        game="zerodraw",
        score_round=lambda scores: [scores[0] + 1, *scores[1:]],
    )
    fair = _rule_module(
        "ZERO-VAR-2",
        "zerodraw.fair",
        game="zerodraw",
        score_round=lambda scores: [scores[0] + 1, scores[1] - 1],
    )
    fine = _rule_module(
        "ZERO-VAR-3",
        "zerodraw.fine",
        game="zerodraw",
        score_round=lambda scores: [scores[0] - 1, *scores[1:]],
    )
    try:
        with _registered(bonus), _registered(fair), _registered(fine):
            game = cardcore.new_game("zerodraw", 2, rules=["zerodraw.bonus"], seed=1)
            with pytest.raises(
                cardcore.PluginError, match=r"zero sum of 'zerodraw': \[4, -3\] sums to 1"
            ):
                game.logic.score_round(game.state, [3, -3])
            game = cardcore.new_game("zerodraw", 2, rules=["zerodraw.fine"], seed=1)
            with pytest.raises(  # below zero too, not only above
                cardcore.PluginError, match=r"zero sum of 'zerodraw': \[2, -3\] sums to -1"
            ):
                game.logic.score_round(game.state, [3, -3])
            game = cardcore.new_game("zerodraw", 2, rules=["zerodraw.fair"], seed=1)
            assert game.logic.score_round(game.state, [3, -3]) == (4, -4)
    finally:
        cardcore.unregister("cardcore.games", "zerodraw")


def test_core_hook_1_misspelled_hook_refused_with_closest_names() -> None:
    typo = _rule_module("DRAW-VAR-5", "drawgame.typo", forbid_actoin=lambda action: None)
    with (
        _registered(typo),
        pytest.raises(
            cardcore.PluginError,
            match=r"'forbid_actoin', which is not a hook of 'drawgame'; did you mean 'forbid_action'",
        ) as info,
    ):
        cardcore.new_game("drawgame", 2, rules=["drawgame.typo"], seed=1)
    assert info.value.plugin == "drawgame.typo"
    award = _rule_module("DRAW-VAR-5", "drawgame.award", card_pionts=lambda card: 0)
    with (
        _registered(award),
        pytest.raises(cardcore.PluginError, match="did you mean 'card_points'"),
    ):
        cardcore.new_game("drawgame", 2, rules=["drawgame.award"], seed=1)
    game_typo = types.ModuleType("typogame")
    vars(game_typo).update(
        GAME=attrs.evolve(drawgame.GAME, name="typogame"),
        create_logic=drawgame.create_logic,
        card_points=drawgame.card_points,
        legal_actoins=hookimpl(lambda state: None),
    )
    cardcore.register("cardcore.games", "typogame", game_typo)
    try:
        with pytest.raises(cardcore.PluginError, match="'legal_actoins'") as info:
            cardcore.new_game("typogame", 2, seed=1)
        assert info.value.plugin == "typogame"
    finally:
        cardcore.unregister("cardcore.games", "typogame")


def test_core_hook_1_optional_hook_is_accepted() -> None:
    called: list[object] = []
    other = _rule_module(
        "DRAW-VAR-5",
        "drawgame.other-game",
        optional=True,
        golf_round_award=lambda state: called.append(state),
    )
    with _registered(other):
        game = cardcore.new_game("drawgame", 2, rules=["drawgame.other-game"], seed=1)
        cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert game.is_over and called == []


def test_core_applies_1_rule_outside_its_options_refused() -> None:
    rule = types.ModuleType("drawgame_two_rounds")
    vars(rule).update(
        RULE=RuleInfo(
            "DRAW-VAR-6", "drawgame.two-rounds", "drawgame", "x", applies={"rounds": (2, 3)}
        )
    )
    with _registered(rule):
        with pytest.raises(
            OptionError,
            match=r"'drawgame.two-rounds' applies only with rounds in \(2, 3\), not 1 \(DRAW-VAR-6\)",
        ):
            cardcore.new_game("drawgame", 2, rules=["drawgame.two-rounds"], seed=1)
        game = cardcore.new_game(
            "drawgame", 2, rules=["drawgame.two-rounds"], options={"rounds": 3}, seed=1
        )
        assert game.rules == ("drawgame.two-rounds",)
        assert cardcore.rule_info("drawgame.two-rounds").describe_applies() == "rounds 2, 3"
    assert RuleInfo("X-1", "x", "drawgame", "x").describe_applies() == ""


@pytest.mark.parametrize("answer", [False, True, "no", 0])
def test_core_veto_1_an_answer_that_is_not_a_veto_is_a_plugin_error(answer: object) -> None:
    """Only a Veto forbids: ``False`` (meant as "allow") must not remove every action."""
    module = _rule_module("T-VETO-9", "drawgame.not-a-veto", forbid_action=lambda action: answer)
    with _registered(module):
        game = cardcore.new_game("drawgame", 2, rules=["drawgame.not-a-veto"], seed=1)
        seat = game.to_act[0]
        with pytest.raises(cardcore.PluginError, match="must answer a Veto"):
            game.legal_actions(seat)
        with pytest.raises(cardcore.PluginError, match="must answer a Veto"):
            game.act(seat, "draw")
        assert game.version == 0


def test_a_hook_with_arguments_the_spec_lacks_is_one_line_naming_the_rule() -> None:
    module = _rule_module("T-SIG-1", "drawgame.extra-arg", forbid_action=lambda action, seat: None)
    with _registered(module), pytest.raises(cardcore.PluginError) as err:
        cardcore.new_game("drawgame", 2, rules=["drawgame.extra-arg"], seed=1)
    text = str(err.value)
    assert "\n" not in text
    assert "'drawgame.extra-arg'" in text and "seat" in text
    assert err.value.plugin == "drawgame.extra-arg"


def test_a_game_a_house_rule_leaves_stuck_is_a_stalled_game_error() -> None:
    """A rule that forbids every move: the runner says the game is stuck (no IndexError)."""
    module = _rule_module(
        "T-STUCK-1",
        "drawgame.forbid-all",
        forbid_action=lambda action: cardcore.Veto("T-STUCK-1", "no"),
    )
    with _registered(module):
        game = cardcore.new_game("drawgame", 2, rules=["drawgame.forbid-all"], seed=1)
        agents = [cardcore.RandomAgent(seed=s) for s in range(2)]
        with pytest.raises(cardcore.StalledGameError, match="no legal action"):
            cardcore.play(game, agents)
        with pytest.raises(cardcore.OptionError, match="one agent per seat"):
            cardcore.play(game, agents[:1])
