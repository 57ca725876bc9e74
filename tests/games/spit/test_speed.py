"""Speed rule tests: one (or more) per SPEED-* rule ID of seeds/spit.md."""

from __future__ import annotations

from collections import Counter

import pytest
from tests.games.spit.helpers import speed_arrange, speed_state

import cardcore
from cardcore import IllegalActionError, NotationError, OptionError
from cardcore.testing import assert_conserved
from cardcore_spit.events import CardSpat
from cardcore_spit.speed.actions import PlayCard
from cardcore_spit.speed.logic import SpeedLogic
from cardcore_spit.speed.state import SpeedState


def new(seed: int = 1, **options: int) -> cardcore.Game:
    return cardcore.new_game("speed", 2, seed=seed, options=options or None)


def parts(game: cardcore.Game) -> tuple[SpeedState, SpeedLogic]:
    return speed_state(game)


def pile(game: cardcore.Game, p: int) -> list[str]:
    state, logic = parts(game)
    return [str(c) for c in state.zones.cards[logic.pile[p]]]


def hand(game: cardcore.Game, seat: int) -> list[str]:
    state, logic = parts(game)
    return [str(c) for c in state.zones.cards[logic.hand[seat]]]


def test_speed_gen_1_two_players_jokers_wild() -> None:
    for n in (1, 3):
        with pytest.raises(OptionError, match=r"\(CORE-SEAT-2\)"):
            cardcore.new_game("speed", n, seed=1)
    game = new(jokers=2)
    game = speed_arrange(game, "JK 3C 3D 3H 3S", "9C 9D 9H 9S 8C", stock0="JK", left="KD", right="6C")
    assert {str(a) for a in game.legal_actions(0)} >= {"play JK L", "play JK R"}


def test_speed_gen_2_jokers_option_changes_the_deck() -> None:
    assert len(list(new().state.zones.all_cards())) == 52
    game = new(jokers=2)
    cards = Counter(game.state.zones.all_cards())
    assert cards[cardcore.JOKER] == 2 and sum(cards.values()) == 54
    with pytest.raises(OptionError, match=r"\(SPEED-GEN-2\)"):
        new(jokers=1)


def test_speed_setup_1_first_deal_events_reach_subscribers() -> None:
    seen: list[cardcore.Event] = []
    game = cardcore.new_game("speed", 2, seed=1, subscribers=[(cardcore.Event, seen.append)])
    assert [e.slug for e in seen] == ["game-started", "cards-dealt", "card-revealed", "card-revealed"]
    assert seen[1].fields() == {"counts": (20, 20)}  # own cards: side piles are centre piles
    tops = [game.view(None)["table"]["piles"][side][0] for side in ("L", "R")]
    assert [str(e.fields()["card"]) for e in seen[2:]] == tops


def test_speed_setup_1_four_centre_piles() -> None:
    game = new()
    state, logic = parts(game)
    for p in (0, 1):
        assert state.zones.count(logic.pile[p]) == 1
        assert state.zones.seen[logic.pile[p]] == [cardcore.ALL]  # turned up at the start
        assert state.zones.count(logic.side[p]) == 5
        assert all(m == 0 for m in state.zones.seen[logic.side[p]])
    assert set(game.view(0)["table"]["piles"]) == {"L", "R"}


@pytest.mark.parametrize(("side", "each"), [(5, 20), (15, 10)])
def test_speed_setup_2_side_pile_sizes(side: int, each: int) -> None:
    game = new(side_pile=side)
    state, logic = parts(game)
    for s in (0, 1):
        assert state.zones.count(logic.hand[s]) + state.zones.count(logic.stock[s]) == each
        assert state.zones.count(logic.side[s]) == side
    with pytest.raises(OptionError, match=r"\(SPEED-SETUP-2\)"):
        new(side_pile=10)


def test_speed_setup_3_hand_of_five_and_stock_from_a_stacked_deck() -> None:
    # play piles, side piles of 5 (seat 0's then seat 1's), then the players' cards alternately
    deck = "5S 9S AC 2C 3C 4C 5C 6C 7C 8C 9C 10C " + " ".join(f"{a} {b}" for a, b in zip(
        ["6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", "2H", "3H", "4H", "5H", "6D", "7D", "8D", "9D", "10D", "JD", "QD"],
        ["10S", "JS", "QS", "KS", "AS", "2S", "3S", "4S", "6S", "7S", "8S", "JC", "QC", "KC", "AD", "2D", "3D", "4D", "5D", "KD"], strict=True))
    game = cardcore.new_game("speed", 2, deck=deck)
    state, logic = parts(game)
    assert pile(game, 0) == ["5S"] and pile(game, 1) == ["9S"]
    assert [str(c) for c in state.zones.cards[logic.side[0]]][::-1] == ["AC", "2C", "3C", "4C", "5C"]
    assert [str(c) for c in state.zones.cards[logic.side[1]]][::-1] == ["6C", "7C", "8C", "9C", "10C"]
    assert hand(game, 0) == ["6H", "7H", "8H", "9H", "10H"]
    assert hand(game, 1) == ["10S", "JS", "QS", "KS", "AS"]
    assert str(state.zones.cards[logic.stock[0]][-1]) == "JH"
    assert state.zones.count(logic.stock[0]) == 15
    game = new(jokers=2)
    state, logic = parts(game)
    assert state.zones.count(logic.stock[0]) == 16 and state.zones.count(logic.hand[0]) == 5


def test_speed_play_1_play_by_adjacency_onto_either_pile() -> None:
    game = new()
    game = speed_arrange(game, "6H 2C QD 9C 9D", "3C 3D 3H 3S 8C", stock0="4C", left="5S", right="KH")
    legal = {str(a) for a in game.legal_actions(0)}
    assert {"play 6H L", "play QD R"} <= legal
    assert "play 2C L" not in legal
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-2\)"):
        game.act(0, "play 2C L")
    with pytest.raises(IllegalActionError, match=r"\(SPEED-PLAY-1\)"):
        game.act(0, "play 7C L")  # not in the hand
    game.act(0, "play QD R")
    assert pile(game, 1)[-1] == "QD"


def test_speed_play_2_hand_refilled_from_stock() -> None:
    game = new()
    game = speed_arrange(game, "6H 2C QD 9C 9D", "3C 3D 3H 3S JC", stock0="4C 10H", left="5S", right="KH")
    game.act(0, "play 6H L")
    assert hand(game, 0) == ["2C", "QD", "9C", "9D", "10H"]  # 10H was the stock's top
    game.act(0, "play QD R")
    assert hand(game, 0) == ["2C", "9C", "9D", "10H", "4C"]
    state, logic = parts(game)
    assert state.zones.count(logic.stock[0]) == 0
    game.act(1, "play JC R")
    game.act(0, "play 10H R")
    assert hand(game, 0) == ["2C", "9C", "9D", "4C"]  # the stock is empty: no refill


def test_speed_play_3_joker_on_anything_anything_on_joker() -> None:
    game = new(jokers=2)
    game = speed_arrange(game, "JK 2C 2D 2H 2S", "9C 9D 9H 9S 8C", stock0="JK", left="KD", right="6C")
    game.act(0, "play JK L")
    assert pile(game, 0)[-1] == "JK"
    legal0 = {str(a) for a in game.legal_actions(0)}
    legal1 = {str(a) for a in game.legal_actions(1)}
    assert "play 2C L" in legal0 and "play 9C L" in legal1  # anything on a joker


def test_speed_stuck_1_side_cards_turn_at_once_when_nobody_can_play() -> None:
    game = new()
    game = speed_arrange(game, "6H 2C 2D JC JD", "3C 3D 3H 3S 8C", stock0="4C", side0="AD 7S", side1="AH 10D",
                  left="5S", right="KH")
    spat: list[cardcore.Event] = []
    game.events.subscribe(CardSpat, spat.append)
    game.act(0, "play 6H L")  # nobody can play on 6H / KH: each turns a side card, unasked
    assert pile(game, 0)[-2:] == ["6H", "7S"] and pile(game, 1)[-1] == "10D"
    assert [(e.seat, str(e.card)) for e in spat] == [(0, "7S"), (1, "10D")]
    assert game.to_act == (0, 1)
    assert "play JC R" in {str(a) for a in game.legal_actions(0)}  # JC fits 10D
    assert_conserved(game)


def test_speed_stuck_1_turns_again_while_nobody_can_play() -> None:
    game = new()
    game = speed_arrange(game, "6H 2C 2D 2H 2S", "4C 4D 4H 4S 9C", side0="3D 9D", side1="QC 7C",
                  left="5S", right="KH")
    game.act(0, "play 6H L")  # 9D / 7C fit no card either, so a second pair turns: 3D / QC
    assert pile(game, 0)[-3:] == ["6H", "9D", "3D"] and pile(game, 1)[-3:] == ["KH", "7C", "QC"]
    assert "play 2C L" in {str(a) for a in game.legal_actions(0)}


def test_speed_stuck_1_nobody_can_play_on_the_first_cards() -> None:
    # top first: the play piles, side pile 0 (top first), side pile 1, then the hands alternately
    deck = "6H KH 9D 3C 3D 3H 3S 7C 5C 5D 5H 5S 2C 4D 2D 4H 2H 4S 2S 9C 4C 10C"
    spat: list[cardcore.Event] = []
    game = cardcore.new_game("speed", 2, seed=1, deck=deck, subscribers=[(CardSpat, spat.append)])
    assert hand(game, 0) == ["2C", "2D", "2H", "2S", "4C"]
    assert pile(game, 0) == ["6H", "9D"] and pile(game, 1) == ["KH", "7C"]
    assert [(e.seat, str(e.card)) for e in spat] == [(0, "9D"), (1, "7C")]
    assert {str(a) for a in game.legal_actions(1)} >= {"play 10C L"}
    again = cardcore.replay(game.record())
    assert again.position() == game.position()


def test_speed_stuck_4_house_rule_no_automatic_detection_hides_hands() -> None:
    game = cardcore.new_game("speed", 2, seed=1, rules=["speed.stuck-on-request"])
    game = speed_arrange(game, "6H 2C 2D JC JD", "3C 3D 3H 3S 8C", stock0="4C", side0="AD 7S", side1="AH 10D",
                  left="5S", right="KH")
    game.act(0, "play 6H L")
    assert game.to_act == (0, 1)  # seat 1 has no play, but to_act does not say so
    assert pile(game, 1)[-1] == "KH"  # no side card turned without both requests
    assert [str(a) for a in game.legal_actions(1)] == ["stuck"]
    game.act(0, "stuck")
    assert pile(game, 1)[-1] == "KH"
    game.act(1, "stuck")
    assert pile(game, 0)[-1] == "7S" and pile(game, 1)[-1] == "10D"
    deck = "6H KH 9D 3C 3D 3H 3S 7C 5C 5D 5H 5S 2C 4D 2D 4H 2H 4S 2S 9C 4C 10C"
    start = cardcore.new_game("speed", 2, seed=1, deck=deck, rules=["speed.stuck-on-request"])
    assert pile(start, 0) == ["6H"] and pile(start, 1) == ["KH"]  # nobody can play: no turn


def test_speed_stuck_1_both_declare_stuck() -> None:
    game = new()
    game = speed_arrange(game, "6H 2C QD 9C 9D", "3C 3D 3H 3S 8C", side0="AD 7S", side1="AH 10D",
                  left="5S", right="KH")
    game.act(0, "stuck")
    assert pile(game, 0)[-1] == "5S"
    game.act(1, "stuck")
    assert pile(game, 0)[-1] == "7S" and pile(game, 1)[-1] == "10D"
    assert parts(game)[0].requests == [False, False]
    game.act(0, "stuck")
    with pytest.raises(IllegalActionError, match="SPEED-STUCK-1"):
        game.act(0, "stuck")


def test_speed_stuck_3_only_non_empty_side_piles_turn() -> None:
    game = new()
    game = speed_arrange(game, "6H 2C QD 9C 9D", "3C 3D 3H 3S 8C", side0="", side1="AH 10D",
                  left="5S", right="KH")
    before = pile(game, 0)
    game.act(0, "stuck")
    game.act(1, "stuck")
    assert pile(game, 0) == before and pile(game, 1)[-1] == "10D"


def test_speed_stuck_2_recycle_play_piles_into_side_piles() -> None:
    game = new()
    game = speed_arrange(game, "6H 2C QD 9C 9D", "3C 3D 3H 3S 8C", left="4D 7C 5S", right="JD KH", rest="left")
    state, logic = parts(game)
    n_left = len(pile(game, 0))
    game.act(0, "stuck")
    game.act(1, "stuck")
    # each play pile kept its top; the rest became its owner's side pile, one of which was turned
    assert pile(game, 0)[0] == "5S" and len(pile(game, 0)) == 2
    assert pile(game, 1) == ["KH", "JD"]
    assert state.zones.count(logic.side[0]) == n_left - 2 and state.zones.count(logic.side[1]) == 0
    assert_conserved(game)


def test_speed_end_1_empty_hand_and_stock_wins() -> None:
    game = new()
    game = speed_arrange(game, "6H", "3C 3D 3H 3S 8C", left="5S", right="KH")
    game.act(0, "play 6H L")
    assert game.is_over and game.result is not None
    assert game.result.winners == (0,) and game.result.reason == "out of cards"


def _swap(game: cardcore.Game, a: int, card_a: str, b: int, card_b: str) -> None:
    """Exchange two cards between zones *a* and *b* (every card stays in one place)."""
    zones = parts(game)[0].zones
    i = [str(c) for c in zones.cards[a]].index(card_a)
    j = [str(c) for c in zones.cards[b]].index(card_b)
    zones.cards[a][i], zones.cards[b][j] = zones.cards[b][j], zones.cards[a][i]


def test_speed_end_2_stalemate_fewer_cards_wins() -> None:
    game = new()
    # a position in which seat 0 can play 6H (a stuck one is refused), the rest under KH
    game = speed_arrange(game, "6H 2C", "3C 3D 3H 3S 8C", left="5S", right="KH", rest="right")
    state, logic = parts(game)
    _swap(game, logic.hand[0], "6H", logic.pile[1], "10D")  # now nobody can play on 5S / KH
    # the leftovers under KH go to seat 1's stock, so the recycle yields nothing
    extra = state.zones.cards[logic.pile[1]][:-1]
    state.zones.cards[logic.pile[1]] = state.zones.cards[logic.pile[1]][-1:]
    state.zones.seen[logic.pile[1]] = [cardcore.ALL]
    state.zones.cards[logic.stock[1]] = extra
    state.zones.seen[logic.stock[1]] = [0] * len(extra)
    assert_conserved(game)
    game.act(0, "stuck")  # nobody can play (SPEED-STUCK-1): the recycle yields nothing, the game ends
    assert game.is_over and game.result is not None
    assert game.result.winners == (0,) and game.result.reason == "stalemate"


def test_speed_end_2_equal_counts_draw() -> None:
    game = new()
    game = speed_arrange(game, "6H 2C", "3C 3D", stock1="", left="5S", right="KH", rest="left")
    state, logic = parts(game)
    _swap(game, logic.hand[0], "6H", logic.pile[0], "10C")  # now nobody can play on 5S / KH
    extra = state.zones.cards[logic.pile[0]][:-1]
    state.zones.cards[logic.pile[0]] = state.zones.cards[logic.pile[0]][-1:]
    state.zones.seen[logic.pile[0]] = [cardcore.ALL]
    half = len(extra) // 2
    for s, part in ((0, extra[:half]), (1, extra[half:])):
        state.zones.cards[logic.stock[s]] = part
        state.zones.seen[logic.stock[s]] = [0] * len(part)
    assert_conserved(game)
    game.act(0, "stuck")  # nobody can play: the recycle yields nothing
    assert game.result is not None and game.result.winners == (0, 1)
    assert game.result.scores == (25.0, 25.0)


def test_speed_stuck_1_a_position_nobody_can_play_in_is_refused() -> None:
    game = new()
    game = speed_arrange(game, "6H 2C", "3C 3D 3H 3S 8C", left="5S", right="KH", rest="right")
    logic = parts(game)[1]
    _swap(game, logic.hand[0], "6H", logic.pile[1], "10D")
    with pytest.raises(OptionError, match=r"side cards are\s+due.*SPEED-STUCK-1"):
        cardcore.new_game("speed", 2, seed=1, position=game.position())
    kept = cardcore.new_game("speed", 2, seed=1, position=game.position(), rules=["speed.stuck-on-request"])
    assert [str(a) for a in kept.legal_actions(0)] == ["stuck"]  # waits for both requests


def test_speed_note_1_notation() -> None:
    game = new(seed=4)
    for seat in (0, 1):
        for action in game.legal_actions(seat):
            assert game.logic.parse_action(game.state, seat, str(action)) == action
    for text in ("play", "play 7H", "play XX L", "play 7H M", "stuck now", "ready", "play 1 L"):
        with pytest.raises(NotationError):
            game.act(0, text)
    assert isinstance(game.logic.parse_action(game.state, 0, "play 10h l"), PlayCard)


def test_speed_view_1_hands_private() -> None:
    game = new(seed=2)
    own = game.view(0)["table"]["seats"][0]["hand"]
    other = game.view(0)["table"]["seats"][1]["hand"]
    assert len(own) == 5 and all(own)
    assert other == [None] * 5
    assert game.view(None)["table"]["seats"][0]["hand"] == [None] * 5
    state, logic = parts(game)
    hidden = {str(c) for z in (*logic.stock, *logic.side) for c in state.zones.cards[z]}
    text = repr(game.view(0))
    assert not any(f"'{c}'" in text for c in hidden)


def test_speed_cap_1_action_bound() -> None:
    game = new(seed=3)
    assert game.logic.action_bound(2, game.options) == 10_000
    result = cardcore.run_realtime(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], seed=1)
    assert result.reason in ("out of cards", "stalemate") and game.version < 10_000


def test_speed_note_2_a_finished_game_writes_over_and_is_not_read_back() -> None:
    game = new(seed=2, side_pile=15)
    game = speed_arrange(game, "6H", "3C 3D 3H 3S 8C", left="5S", right="KH")
    game.act(0, "play 6H L")  # hand and stock empty: seat 0 wins (SPEED-END-1)
    assert game.is_over and game.result is not None and game.result.winners == (0,)
    text = game.position()
    assert "over=true" in text
    with pytest.raises(OptionError, match="game is over"):
        cardcore.new_game("speed", 2, seed=1, options={"side_pile": 15}, position=text)


def test_speed_note_2_over_false_is_not_a_field() -> None:
    game = new(seed=2)
    text = game.position().replace("recycled=false", "recycled=false over=false")
    with pytest.raises(OptionError, match="have the fields v, requests, recycled"):
        cardcore.new_game("speed", 2, seed=1, position=text)
