"""One test per rule of seeds/core.md, each failing if the rule broke."""

from __future__ import annotations

import pytest
from tests.plugins.drawgame import Discard, Draw
from tests.plugins.racegame import Play

import cardcore
from cardcore import (
    EndMatch,
    IllegalActionError,
    NotationError,
    OptionError,
    Resign,
    StaleActionError,
    StalledGameError,
)


def snapshot(game: cardcore.Game) -> tuple[object, ...]:
    return game.state.snapshot(), game.version, game.record()["actions"]


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
    assert game.legal_actions(0) == (Play(0, cardcore.Card.parse("2S")), Play(0, cardcore.Card.parse("4D")))
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
        cardcore.run_realtime(game, [Fixed(), Fixed()], seed=seed, on_action=lambda g, a, t, order=order: order.append(a.seat))
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
    result = cardcore.run_realtime(race, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], max_actions=1)
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
    game.act(0, "play 2S")  # seat 0 never asked for version 0, but 4D was legal there
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.act(0, "play 4D", seen=0)
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "play 4D", seen=-5)
    assert not isinstance(info.value, StaleActionError) and game.version == 1
