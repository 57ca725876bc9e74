"""Spit rule tests: one (or more) per rule ID of seeds/spit.md."""

from __future__ import annotations

from collections import Counter

import pytest
from tests.games.spit.helpers import (
    SEAT0,
    SEAT1,
    arrange,
    centre,
    eights_game,
    golden_game,
    held,
    interleave,
    spit_state,
    tops,
)

import cardcore
from cardcore import ALL, Card, IllegalActionError, NotationError, OptionError, StaleActionError
from cardcore.testing import assert_conserved
from cardcore_spit.actions import Claim, Play
from cardcore_spit.agents import SpitGreedyAgent
from cardcore_spit.state import CLAIM, PLAY, SETUP

FULL0 = ["2H", "4H 3H", "7H 6H 5H", "JH 10H 9H 8H", "3S 2S AS KH QH"]


def new(seed: int = 1, options: dict[str, int] | None = None) -> cardcore.Game:
    return cardcore.new_game("spit", 2, seed=seed, options=options)


def both_ready(game: cardcore.Game) -> None:
    game.act(0, "ready")
    game.act(1, "ready")


def play_golden_deal(game: cardcore.Game) -> None:
    """Both ready, then seat 0 plays its 15 layout cards onto L (see the golden record)."""
    both_ready(game)
    for pile, times in ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5)):
        for _ in range(times):
            game.act(0, f"play {pile} L")


# -- general and deal ----------------------------------------------------------------------


def test_spit_gen_1_exactly_two_players() -> None:
    for n in (1, 3, 4):
        with pytest.raises(OptionError, match=r"\(CORE-SEAT-2\)"):
            cardcore.new_game("spit", n, seed=1)
    assert new().players == ("Player 1", "Player 2")


def test_spit_gen_2_one_deck_no_jokers() -> None:
    game = new()
    cards = list(game.state.zones.all_cards())
    assert len(cards) == 52 and len(set(cards)) == 52
    assert not any(c.is_joker for c in cards)


def test_spit_gen_3_deals_go_on_until_a_player_has_no_cards() -> None:
    game = golden_game()
    play_golden_deal(game)
    game.act(1, "slap R")
    state, _ = spit_state(game)
    assert not game.is_over and state.deal == 2
    # play on with bots until the end: the winner holds no cards
    result = cardcore.run_realtime(game, [SpitGreedyAgent(seed=1), SpitGreedyAgent(seed=2)], seed=3)
    assert result.reason == "out of cards"
    (winner,) = result.winners
    assert held(game, winner) == [] and len(held(game, 1 - winner)) == 52


def test_spit_setup_1_first_deal_events_reach_subscribers() -> None:
    seen: list[cardcore.Event] = []
    cardcore.new_game("spit", 2, seed=1, subscribers=[(cardcore.Event, seen.append)])
    assert [e.slug for e in seen] == ["game-started", "cards-dealt", "deal-started"]
    assert seen[1].fields() == {"counts": (26, 26)}
    assert seen[2].fields() == {"deal": 1, "counts": (26, 26), "single": False}


def test_spit_setup_1_split_26_26_alternately() -> None:
    game = golden_game()
    assert Counter(held(game, 0)) == Counter(cardcore.parse_cards(SEAT0))
    assert Counter(held(game, 1)) == Counter(cardcore.parse_cards(SEAT1))


def test_spit_setup_2_five_piles_k_minus_one_face_down() -> None:
    game = new(seed=9)
    state, logic = spit_state(game)
    for s in (0, 1):
        sizes = [state.zones.count(z) for z in logic.lay[s]]
        assert sizes == [1, 2, 3, 4, 5]
        for z in logic.lay[s]:
            masks = state.zones.seen[z]
            assert masks[-1] == ALL and all(m == 0 for m in masks[:-1])


def test_spit_setup_3_other_cards_are_hidden_spit_cards() -> None:
    game = new(seed=9)
    state, logic = spit_state(game)
    for s in (0, 1):
        assert state.zones.count(logic.spit[s]) == 11
        assert all(m == 0 for m in state.zones.seen[logic.spit[s]])
        assert game.view(s)["table"]["seats"][s]["spit_cards"] == 11


@pytest.mark.parametrize(
    ("n", "sizes"),
    [(1, [1, 0, 0, 0, 0]), (4, [1, 1, 1, 1, 0]), (6, [1, 2, 1, 1, 1]), (10, [1, 2, 3, 2, 2]),
     (13, [1, 2, 3, 4, 3]), (14, [1, 2, 3, 4, 4])],
)
def test_spit_setup_4_row_wise_layout_below_15(n: int, sizes: list[int]) -> None:
    game = new()
    state, logic = spit_state(game)
    cards = list(game.state.zones.all_cards())
    for z in range(len(state.zones.cards)):
        state.zones.cards[z] = []
        state.zones.seen[z] = []
    logic.lay_out(state, [cards[:n], cards[n:]], False, None)
    assert [state.zones.count(z) for z in logic.lay[0]] == sizes
    assert state.zones.count(logic.spit[0]) == 0
    # row by row: the first five cards are the bottoms of piles 1..5
    firsts = [state.zones.cards[z][0] for z in logic.lay[0] if state.zones.cards[z]]
    assert firsts == cards[: min(n, 5)]
    assert all(state.zones.seen[z][-1] == ALL for z in logic.lay[0] if state.zones.cards[z])


def test_spit_setup_7_stacked_deck_order_and_later_shuffles() -> None:
    game = golden_game()
    state, logic = spit_state(game)
    piles = [[str(c) for c in state.zones.cards[z]] for z in logic.lay[0]]
    assert [" ".join(p) for p in piles] == FULL0
    assert str(state.zones.cards[logic.spit[0]][-1]) == "AH"  # the 16th card received
    assert str(state.zones.cards[logic.spit[1]][-1]) == "6D"
    # later layouts are shuffled with the seed: two seeds, same first deal, different second
    layouts = []
    for seed in (5, 6):
        g = cardcore.new_game("spit", 2, deck=interleave(SEAT0, SEAT1), seed=seed)
        play_golden_deal(g)
        g.act(1, "slap R")
        layouts.append(tops(g, 0) + tops(g, 1))
    assert layouts[0] != layouts[1]


def test_spit_setup_6_setup_phase_combine_fill_ready() -> None:
    game = eights_game()  # seat 0's piles 2, 4 and 5 show an 8 (stacked deck)
    state, _ = spit_state(game)
    assert state.phase == SETUP
    legal = [str(a) for a in game.legal_actions(0)]
    assert not any(a.startswith("play") or a == "spit" for a in legal)
    assert legal[-1] == "ready"
    assert "combine 2 5" in legal
    game.act(0, "combine 2 5")
    assert state.phase == SETUP
    assert "combine 4 5" in [str(a) for a in game.legal_actions(0)]  # the third 8
    game.act(0, "ready")
    assert list(game.to_act) == [1]
    for text in ("combine 4 5", "fill 5 2"):  # a ready player makes no more setup moves
        with pytest.raises(IllegalActionError, match=r"\(SPIT-SETUP-6\)"):
            game.act(0, text)
    game.act(1, "ready")
    assert state.phase == PLAY and list(game.to_act) == [0, 1]


def test_spit_setup_6_no_play_before_ready() -> None:
    game = golden_game()
    with pytest.raises(IllegalActionError, match="SPIT-SETUP-6"):
        game.act(0, "play 1 L")


def test_spit_start_1_both_turn_a_spit_card() -> None:
    game = golden_game()
    both_ready(game)
    assert centre(game) == (["AH"], ["6D"])
    state, logic = spit_state(game)
    assert state.zones.count(logic.spit[0]) == 10 and state.zones.count(logic.spit[1]) == 10


def test_spit_start_2_single_pile_start() -> None:
    game = new(seed=4)
    state, logic = spit_state(game)
    cards = list(state.zones.all_cards())
    for z in range(len(state.zones.cards)):
        state.zones.cards[z] = []
        state.zones.seen[z] = []
    logic.lay_out(state, [cards[:15], cards[15:]], False, None)
    assert state.single == 1
    both_ready(game)
    left, right = centre(game)
    assert left == [] and len(right) >= 1
    assert state.zones.count(logic.spit[0]) == 0
    assert not any(isinstance(a, Play) and a.target == 0 for s in (0, 1) for a in game.legal_actions(s))


# -- moves ------------------------------------------------------------------------------------


def test_spit_move_1_no_turns() -> None:
    game = golden_game()
    both_ready(game)
    assert game.to_act == (0, 1)
    game.act(0, "play 1 L")
    game.act(0, "play 2 L")  # the same seat twice in a row
    assert game.to_act == (0, 1)
    game.act(1, "spit")
    assert game.legal_actions(1) or game.legal_actions(0)


def test_spit_move_2_adjacent_rank_any_suit() -> None:
    game = new()
    game = arrange(game, ["6S", "9C", "KD", "2C", "5H"], ["QC", "QD", "QH", "QS", "JC"], left="5D", right="AH")
    legal = {str(a) for a in game.legal_actions(0)}
    assert "play 1 L" in legal  # 6S on 5D: one up, suit irrelevant
    assert "play 3 R" in legal and "play 4 R" in legal  # K and 2 on an ace
    assert "play 2 L" not in legal
    with pytest.raises(IllegalActionError, match="SPIT-MOVE-2"):
        game.act(0, "play 2 L")
    game.act(0, "play 1 L")
    assert centre(game)[0][-1] == "6S"


def test_spit_move_3_ace_wraps() -> None:
    game = new()
    game = arrange(game, ["AS", "QC", "2D", "3C", "4H"], ["JC", "JD", "JH", "JS", "10C"], left="KH", right="AD")
    legal = {str(a) for a in game.legal_actions(0)}
    assert "play 1 L" in legal  # A on K
    assert "play 2 R" not in legal  # Q is not next to A
    assert "play 3 R" in legal  # 2 on A
    game.act(0, "play 1 L")
    assert centre(game)[0][-1] == "AS"


def test_spit_move_4_equal_rank_not_adjacent() -> None:
    game = new()
    game = arrange(game, ["5S", "9C", "KD", "2C", "7H"], ["QC", "QD", "QH", "QS", "JC"], left="5D", right="3H")
    assert "play 1 L" not in {str(a) for a in game.legal_actions(0)}
    with pytest.raises(IllegalActionError, match="SPIT-MOVE-4") as info:
        game.act(0, "play 1 L")
    assert info.value.rule_id == "SPIT-MOVE-4"


def test_spit_move_5_combine_same_rank() -> None:
    game = new()
    game = arrange(game, ["9C", "8C 5S", "KD", "5C", "7H"], ["QC", "QD", "QH", "QS", "JC"], left="3D", right="3H")
    game.act(0, "combine 2 4")
    assert tops(game, 0) == ["9C", "8C", "KD", "5S", "7H"]
    with pytest.raises(IllegalActionError, match="SPIT-MOVE-5"):
        game.act(0, "combine 1 3")


def test_spit_move_6_fill_empty_position() -> None:
    game = new()
    game = arrange(game, ["", "4C 9C", "KD", "5C", "7H"], ["QC", "QD", "QH", "QS", "JC"], left="3D", right="3H")
    game.act(0, "fill 2 1")
    assert tops(game, 0) == ["9C", "4C", "KD", "5C", "7H"]
    with pytest.raises(IllegalActionError, match="SPIT-MOVE-6"):
        game.act(0, "fill 3 4")  # position 4 is not empty
    _, logic = spit_state(game)
    assert len(logic.lay[0]) == 5  # never more than five positions


def test_spit_move_7_uncovered_card_turns_up() -> None:
    game = new()
    game = arrange(game, ["6S", "10C 9C", "KD", "2C", "5H"], ["QC", "QD", "QH", "QS", "JC"], left="5D", right="10H")
    state, logic = spit_state(game)
    z = logic.lay[0][1]
    assert state.zones.seen[z][0] == 0
    assert game.view(1)["table"]["seats"][0]["layout"][1] == ["9C", None]
    game.act(0, "play 2 R")  # 9C onto 10H uncovers the 10C
    assert state.zones.seen[z] == [ALL]
    assert game.view(1)["table"]["seats"][0]["layout"][1] == ["10C"]


def test_spit_move_8_one_card_per_action() -> None:
    game = golden_game()
    both_ready(game)
    before = [len(p) for p in game.state.zones.cards]
    game.act(0, "play 1 L")
    after = [len(p) for p in game.state.zones.cards]
    moved = [a - b for a, b in zip(after, before, strict=True) if a != b]
    assert sorted(moved) == [-1, 1]


def test_spit_move_9_only_own_layout_cards() -> None:
    game = golden_game()
    both_ready(game)
    state, logic = spit_state(game)
    for seat in (0, 1):
        for action in game.legal_actions(seat):
            clone = game.clone()
            clone.apply(action)
            cs = clone.state
            # the opponent's layout and spit cards, and every centre card below the top, stay put
            for z in (*logic.lay[1 - seat], logic.spit[1 - seat]):
                assert cs.zones.cards[z] == state.zones.cards[z]
            for z in logic.centre:
                assert cs.zones.cards[z][: len(state.zones.cards[z])] == state.zones.cards[z]


def test_spit_move_10_moves_are_final() -> None:
    game = golden_game()
    both_ready(game)
    game.act(0, "play 1 L")
    # nothing can take the 2H back: no legal action of either seat shrinks pile L
    for seat in (0, 1):
        for action in game.legal_actions(seat):
            clone = game.clone()
            clone.apply(action)
            assert centre(clone)[0][:2] == ["AH", "2H"]
    with pytest.raises(NotationError):
        game.act(0, "undo")


def test_spit_move_11_playing_is_optional() -> None:
    game = golden_game()
    both_ready(game)
    assert any(isinstance(a, Play) for a in game.legal_actions(0))
    game.act(0, "spit")  # may decline to play
    state, _ = spit_state(game)
    assert state.requests == [True, False]
    assert centre(game) == (["AH"], ["6D"])  # nothing was played for it


# -- stuck -------------------------------------------------------------------------------------


def test_spit_stuck_1_both_request_then_both_spit() -> None:
    game = golden_game()
    both_ready(game)
    game.act(0, "spit")
    assert centre(game) == (["AH"], ["6D"])
    game.act(1, "spit")
    assert centre(game) == (["AH", "AC"], ["6D", "7D"])
    state, _ = spit_state(game)
    assert state.requests == [False, False]


def test_spit_stuck_2_spit_onto_own_home_pile() -> None:
    game = new()
    game = arrange(game, ["6S", "9C", "KD", "2C", "5H"], ["QC", "QD", "QH", "QS", "JC"],
            spit0="3C", spit1="4C", left="5D", right="10H", rest="left")
    game.act(0, "spit")
    game.act(1, "spit")
    assert centre(game)[0][-1] == "3C" and centre(game)[1][-1] == "4C"


def test_spit_stuck_3_automatic_when_nobody_can_progress() -> None:
    game = new()
    # seat 0 can only play its 9C on the 10H; after that nobody can move
    game = arrange(game, ["4S", "9C", "4D", "4C", "4H"], ["7C", "7D", "7H", "7S", "6C"],
            spit0="2H 3D", spit1="2C 2S", left="KS", right="10H", rest="left")
    game.act(0, "play 2 R")
    left, right = centre(game)
    assert left[-1] == "3D" and right[-2:] == ["9C", "2S"]  # spat at once, inside apply


def test_spit_stuck_3_one_request_is_not_enough_and_plays_clear_requests() -> None:
    game = golden_game()
    both_ready(game)
    game.act(1, "spit")
    assert centre(game) == (["AH"], ["6D"])
    game.act(0, "play 1 L")
    state, _ = spit_state(game)
    assert state.requests == [False, False]
    game.act(0, "spit")
    assert centre(game) == (["AH", "2H"], ["6D"])  # seat 1's earlier request was cleared


@pytest.mark.parametrize("limit", [3, 4])
def test_spit_stuck_3_stall_limit_option(limit: int) -> None:
    game = new(options={"stall_limit": limit})
    game = arrange(game, ["+5S", "+5H", "9C", "JD", "KH"], ["7C", "7D", "7H", "7S", "6C"],
            spit0="2H 10D", spit1="2C 2S", left="8S", right="10H", rest="left")
    game.act(0, "combine 1 2")
    game.act(0, "fill 2 1")
    game.act(0, "combine 1 2")  # three actions without progress
    spat = centre(game)[0][-1] == "10D"
    assert spat or centre(game)[0][-1] == "8S"
    assert spat is (limit == 3)


def test_spit_stuck_4_only_players_with_spit_cards_spit() -> None:
    game = new()
    game = arrange(game, ["6S", "9C", "KD", "2C", "5H"], ["QC", "QD", "QH", "QS", "JC"],
            spit0="", spit1="4C", left="5D", right="10H", rest="left")
    before = centre(game)[0]
    game.act(0, "spit")
    game.act(1, "spit")
    assert centre(game)[0] == before and centre(game)[1][-1] == "4C"


def test_spit_stuck_5_recycle_when_nobody_has_spit_cards() -> None:
    game = new()
    game = arrange(game, ["6S", "9C", "KD", "2C", "5H"], ["QC", "QD", "QH", "QS", "JC"],
            left="7C 3D 10S 5D", right="10H", rest="right")
    state, logic = spit_state(game)
    n_right = len(centre(game)[1])
    game.act(0, "spit")
    game.act(1, "spit")
    left, right = centre(game)
    # pile L kept 5D; 7C 3D 10S went to seat 0, which spat one of them
    assert left[0] == "5D" and len(left) == 2 and left[1] in ("7C", "3D", "10S")
    assert state.zones.count(logic.spit[0]) == 2
    # pile R: its cards under the top went to seat 1, which spat one
    assert len(right) == 2 and right[0] == "10H"  # pile R kept its top
    assert state.zones.count(logic.spit[1]) == n_right - 2
    assert state.recycled


def test_spit_stuck_6_void_deal_when_recycle_yields_nothing() -> None:
    game = new()
    game = arrange(game, ["6S", "9C", "KD", "2C", "5H"], ["QC", "QD", "QH", "QS", "JC"],
            left="5D", right="10H", rest="spit0")
    state, logic = spit_state(game)
    # move the leftover cards into seat 0's layout so neither has spit cards
    z0 = logic.lay[0][4]
    extra = state.zones.cards[logic.spit[0]]
    state.zones.cards[z0] = extra + state.zones.cards[z0]
    state.zones.seen[z0] = [0] * len(extra) + state.zones.seen[z0]
    state.zones.cards[logic.spit[0]] = []
    state.zones.seen[logic.spit[0]] = []
    mine = Counter(held(game, 0)) + Counter([Card.parse("5D")])
    game.act(0, "spit")
    game.act(1, "spit")
    assert state.deal == 2 and state.phase == SETUP
    assert Counter(held(game, 0)) == mine  # own layout + home pile, re-laid
    assert_conserved(game)


def test_spit_stuck_6_second_recycle_without_progress_voids() -> None:
    game = new()
    game = arrange(game, ["6S", "9C", "KD", "2C", "5H"], ["QC", "QD", "QH", "QS", "JC"],
            left="3D 5D", right="10H", rest="right")
    state, _ = spit_state(game)
    deal = state.deal
    for _ in range(60):
        if state.deal != deal:
            break
        for seat in (0, 1):
            if state.deal == deal and not state.requests[seat] and seat in game.to_act:
                game.act(seat, "spit")
    assert state.deal == deal + 1 and state.phase == SETUP


# -- end of a deal and of the game -----------------------------------------------------------


def test_spit_end_1_deal_ends_when_a_layout_is_empty() -> None:
    game = golden_game()
    play_golden_deal(game)
    state, _ = spit_state(game)
    assert state.phase == CLAIM and state.emptier == 0
    with pytest.raises(IllegalActionError, match="SPIT-END-1"):
        game.act(1, "play 1 R")


def test_spit_end_2_first_slap_takes_the_slapped_pile() -> None:
    game = golden_game()
    play_golden_deal(game)
    left, right = centre(game)
    assert (len(left), len(right)) == (16, 1)
    game.act(1, "slap R")
    state, _ = spit_state(game)
    assert state.deal == 2
    assert len(held(game, 0)) == 10 + 16 and len(held(game, 1)) == 25 + 1


def test_spit_end_2_slapping_the_bigger_pile_still_takes_it() -> None:
    game = golden_game()
    play_golden_deal(game)
    game.act(1, "slap L")
    assert len(held(game, 1)) == 25 + 16 and len(held(game, 0)) == 10 + 1


def test_spit_end_4_taken_pile_joins_remaining_cards() -> None:
    game = golden_game()
    play_golden_deal(game)
    left = Counter(cardcore.parse_cards(" ".join(centre(game)[0])))
    own0 = Counter(held(game, 0))
    own1 = Counter(held(game, 1)) + Counter(cardcore.parse_cards(" ".join(centre(game)[1])))
    game.act(0, "slap L")
    assert Counter(held(game, 0)) == own0 + left
    assert Counter(held(game, 1)) == own1


def test_spit_end_5_single_pile_with_15_or_fewer() -> None:
    for n, single in ((15, True), (16, False), (36, False), (37, True)):
        game = new()
        state, logic = spit_state(game)
        cards = list(state.zones.all_cards())
        for z in range(len(state.zones.cards)):
            state.zones.cards[z] = []
            state.zones.seen[z] = []
        logic.lay_out(state, [cards[:n], cards[n:]], False, None)
        assert (state.single >= 0) is single, n


def test_spit_end_6_single_pile_resolution() -> None:
    game = new()
    # seat 1 (with spit cards) empties first: it takes nothing
    game = arrange(game, ["6S", "8S", "", "", ""], ["QC", "", "", "", ""],
            spit1="4C 3C", right="JD", rest="right", single=1)
    pile = Counter(cardcore.parse_cards(" ".join(centre(game)[1]))) + Counter([Card.parse("QC")])
    own0 = Counter(held(game, 0))
    game.act(1, "play 1 R")
    assert Counter(held(game, 1)) == Counter(cardcore.parse_cards("4C 3C"))
    assert Counter(held(game, 0)) == own0 + pile
    assert not game.is_over and spit_state(game)[0].deal == 2


def test_spit_win_1_player_without_spit_cards_empties_first() -> None:
    game = new()
    game = arrange(game, ["6S", "", "", "", ""], ["QC", "QD", "QH", "QS", "JC"],
            spit1="4C", right="5D", rest="right", single=1)
    game.act(0, "play 1 R")
    assert game.is_over
    assert game.result is not None and game.result.winners == (0,)
    assert game.result.reason == "out of cards"
    assert game.result.scores == (0.0, 52.0)


def test_spit_win_2_opponent_empties_first_game_goes_on() -> None:
    game = new()
    game = arrange(game, ["6S", "8S", "", "", ""], ["QC", "", "", "", ""],
            spit1="4C 3C", right="JD", rest="right", single=1)
    game.act(1, "play 1 R")
    assert not game.is_over
    assert len(held(game, 0)) == 50 and len(held(game, 1)) == 2


def test_spit_win_3_two_pile_deal_never_ends_the_game() -> None:
    for slap in ("slap L", "slap R"):
        for seat in (0, 1):
            game = golden_game()
            play_golden_deal(game)
            game.act(seat, slap)
            assert not game.is_over
            assert held(game, 0) and held(game, 1)


def test_spit_win_4_no_cards_after_a_deal_wins() -> None:
    game = new()
    # single-pile deal, seat 1 (the one with spit cards) empties its layout having no spit card left
    game = arrange(game, ["6S", "8S", "", "", ""], ["QC", "", "", "", ""],
            spit1="", right="JD", rest="right", single=1)
    game.act(1, "play 1 R")
    assert game.is_over and game.result is not None
    assert game.result.winners == (1,) and game.result.reason == "out of cards"


# -- real time -----------------------------------------------------------------------------


def test_spit_rt_1_stale_versus_illegal() -> None:
    game = golden_game()
    both_ready(game)
    v = game.version  # both seats see AH on L: seat 0 may play 2H (pile 1), seat 1 KS (pile 3)
    assert "play 3 L" in {str(a) for a in game.legal_actions(1)}
    game.act(0, "play 1 L")  # 2H onto AH first
    # seat 1 acted on version v, where its KS onto AH was legal: stale, not illegal
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.act(1, "play 3 L", seen=v)
    # without seen= the action is judged against the current state only: plainly illegal
    with pytest.raises(IllegalActionError, match="SPIT-MOVE-2") as info:
        game.act(1, "play 3 L")
    assert not isinstance(info.value, StaleActionError)
    # a play seat 1 never had is illegal even with seen=v
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-2\)") as info:
        game.act(1, "play 1 L", seen=v)
    assert not isinstance(info.value, StaleActionError)
    # seat 0 replays an action legal at v that is not legal now: stale
    with pytest.raises(StaleActionError):
        game.act(0, "play 1 L", seen=v)
    assert game.version == v + 1
    game.act(1, "play 4 L", seen=v)  # 3D onto 2H: legal now, whatever seat 1 saw (SPIT-GAP-2)
    assert centre(game)[0][-3:] == ["AH", "2H", "3D"]


def test_spit_rt_1_reads_are_pure() -> None:
    game = golden_game()
    both_ready(game)
    before = game.version
    for seat in (0, 1, None):
        game.view(seat)
    game.legal_actions(0)
    game.legal_actions(1)
    assert game.version == before and game.record()["actions"] == cardcore.replay(game.record()).record()["actions"]
    game.act(0, "play 1 L")
    # reading seat 1's view and legal actions did not make "play 3 L" count as seen
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-2\)") as info:
        game.act(1, "play 3 L")
    assert not isinstance(info.value, StaleActionError)


def test_spit_rt_2_seeded_ties_not_by_seat() -> None:
    firsts = set()
    for seed in range(12):
        game = golden_game()
        cardcore.run_realtime(
            game, [SpitGreedyAgent(seed=1, mean=0.5, sigma=0.0), SpitGreedyAgent(seed=2, mean=0.5, sigma=0.0)],
            seed=seed, max_actions=1,
        )
        ((seat, _, at),) = game.record_entries()
        assert at == 0.5  # both planned "ready" for t = 0.5: a tie
        firsts.add(seat)
    assert firsts == {0, 1}


def test_spit_rt_3_only_claims_then_second_slap_is_stale() -> None:
    game = golden_game()
    play_golden_deal(game)
    v = game.version
    for seat in (0, 1):
        legal = game.legal_actions(seat)
        assert legal and all(isinstance(a, Claim) for a in legal)
    game.act(1, "slap R", seen=v)
    with pytest.raises(StaleActionError):
        game.act(0, "slap L", seen=v)
    with pytest.raises(IllegalActionError, match="SPIT-RT-3"):
        game.act(0, "slap L", seen=game.version)


def test_spit_opt_1_no_shout_in_notation() -> None:
    game = golden_game()
    play_golden_deal(game)
    for text in ("slap L speed", "speed", "slap L!"):
        with pytest.raises(NotationError):
            game.act(0, text)


# -- engine decisions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["", "play", "play 6 L", "play 0 L", "play 1 X", "play 1 L R", "combine 1 1", "fill 2",
     "combine a b", "ready now", "slap", "slap M", "choose L", "jump 1 L", "play JH L"],
)
def test_spit_note_1_malformed_raises_notation_error(text: str) -> None:
    game = golden_game()
    with pytest.raises(NotationError):
        game.act(0, text)


def test_spit_note_1_read_in_any_case_between_any_spaces() -> None:
    game = golden_game()
    assert str(game.act(0, "READY")) == "ready"  # written lowercase, read in any case
    assert str(game.act(1, "  Ready ")) == "ready"
    assert str(game.act(0, "PLAY 1  l")) == "play 1 L"


def test_spit_note_1_every_legal_action_round_trips() -> None:
    game = new(seed=3)
    count = 0

    def check(g: cardcore.Game, action: object, t: float) -> None:
        nonlocal count
        state = g.state
        for seat in g.to_act:
            for a in g.legal_actions(seat):
                assert g.logic.parse_action(state, seat, str(a)) is a
                count += 1

    cardcore.run_realtime(game, [SpitGreedyAgent(seed=1), SpitGreedyAgent(seed=2)], seed=1, on_action=check)
    assert count > 100


def test_spit_view_1_hidden_cards_never_shown() -> None:
    game = golden_game()
    both_ready(game)
    state, logic = spit_state(game)
    face_down = {
        str(state.zones.cards[z][i])
        for z in (*logic.lay[0], *logic.lay[1], *logic.spit)
        for i in range(len(state.zones.cards[z]))
        if state.zones.seen[z][i] != ALL
    }
    assert "4H" in face_down and "AC" in face_down
    for seat in (0, 1, None):
        text = repr(game.view(seat))
        for card in face_down:
            assert f"'{card}'" not in text, (seat, card)
    spec = state.zones.layout.specs
    for z in (*logic.lay[0], *logic.spit):
        assert spec[z].visibility is cardcore.Visibility.NOBODY


def test_spit_cap_1_action_bound() -> None:
    game = new(seed=2)
    assert game.logic.action_bound(2, game.options) == 20_000
    # a smaller stall limit forces more spits: the bound grows by 20 // limit below 11
    bounds = {n: game.logic.action_bound(2, {**game.options, "stall_limit": n}) for n in (1, 2, 10, 11, 1000)}
    assert bounds == {1: 400_000, 2: 200_000, 10: 40_000, 11: 20_000, 1000: 20_000}
    assert cardcore.new_game("spit", 2, options={"stall_limit": 1}, seed=2).logic.action_bound(2, {"stall_limit": 1}) == 400_000
    result = cardcore.run_realtime(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], seed=1)
    assert result.reason == "out of cards" and game.version < 20_000
    game = new(seed=2)
    result = cardcore.run_realtime(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], seed=1, max_actions=30)
    assert result.reason == "truncated" and game.version == 30
