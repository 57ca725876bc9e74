"""Base-game rule tests, one (or more) per rule ID of seeds/tonk.md.

Every game here runs without any house rule (the default natural rule is
switched off), on stacked decks; payouts are worked out by hand in comments.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.games.tonk.helpers import (
    NATURAL,
    cards_in,
    hand,
    last_hand,
    pass_turn,
    stacked,
    state_of,
    tonk,
)

import cardcore
from cardcore import CardDrawn, IllegalActionError, NotationError, OptionError, PaymentsMade
from cardcore.testing import assert_conserved
from cardcore_tonk import actions
from cardcore_tonk.events import HandEnded, SpreadHit, SpreadLaid
from cardcore_tonk.melds import index_of

# Three hands with totals 20, 15, 30 and no spread among them.
H20 = "10S 4H 3D 2C AS"
H15 = "5D 4C 3H 2D AD"
H30 = "10H 6S 7C 3C 4D"


def _last(game: cardcore.Game) -> dict[str, Any]:
    last = last_hand(game)
    assert last is not None
    return last


# --- setup ---------------------------------------------------------------------------------


def test_tonk_gen_1_two_or_three_players_max_players_raises_to_four() -> None:
    info = cardcore.game_info("tonk")
    assert (info.min_players, info.max_players) == (2, 4)  # the most any option allows
    assert info.option("max_players").default == 3  # the source rules: 2-3 players
    for n in (2, 3):
        assert len(cardcore.new_game("tonk", n, seed=1).players) == n
    with pytest.raises(OptionError, match=r"TONK-GEN-1; set the option max_players=4 to seat 4"):
        cardcore.new_game("tonk", 4, seed=1)  # four only when the option raises the limit
    four = cardcore.new_game("tonk", 4, seed=1, options={"max_players": 4})
    assert len(four.players) == 4
    assert sum(len(h) for h in (four.view(s)["table"]["hand"] for s in range(4))) == 20
    with pytest.raises(OptionError, match="TONK-GEN-1"):
        cardcore.new_game("tonk", 3, seed=1, options={"max_players": 2})  # a table limit
    assert len(cardcore.new_game("tonk", 2, seed=1, options={"max_players": 2}).players) == 2
    with pytest.raises(OptionError, match=r"\(TONK-GEN-1\)"):
        cardcore.new_game("tonk", 5, seed=1, options={"max_players": 5})
    with pytest.raises(OptionError, match="TONK-GEN-1"):
        cardcore.new_game("tonk", 5, seed=1, options={"max_players": 4})
    with pytest.raises(OptionError, match=r"\(TONK-GEN-1\)"):
        cardcore.new_game("tonk", 1, seed=1)


def test_tonk_gen_2_one_52_card_deck_without_jokers() -> None:
    game = cardcore.new_game("tonk", 3, seed=3, without=(NATURAL,))
    cards = list(game.state.zones.all_cards())
    assert len(cards) == 52
    assert len(set(map(str, cards))) == 52
    assert all(not c.is_joker for c in cards)
    with pytest.raises(OptionError):
        cardcore.new_game("tonk", 3, deck="JK", without=(NATURAL,))


def test_tonk_val_1_card_values() -> None:
    game = tonk(["AS 2H 10D JC KH", "QS 9C 8D 7S 6H"])
    view = game.view(0)["table"]
    assert view["total"] == 1 + 2 + 10 + 10 + 10
    assert game.view(1)["table"]["total"] == 10 + 9 + 8 + 7 + 6


def test_tonk_stake_1_payments_are_multiples_of_the_stake() -> None:
    # P0 20 drops against 15 and 30: caught. Stake 5: pays 10 to P1; P1 takes 5 from P2.
    game = tonk([H20, H15, H30], stake=5)
    game.act(0, "drop")
    assert game.result is not None
    assert game.result.payouts == (-10, 15, -5)
    assert game.result.scores == (-2.0, 3.0, -1.0)


def test_tonk_dealer_1_cut_high_card_king_high_ties_redraw() -> None:
    multi = 0
    for seed in range(300):
        game = cardcore.new_game("tonk", 3, seed=seed, without=(NATURAL,))
        table = game.view(None)["table"]
        (cut,) = [e for e in game.history(None) if e["kind"] == "cut"]
        rounds = cut["rounds"]
        assert cut["dealer"] == table["dealer"]
        contenders = {0, 1, 2}
        for i, row in enumerate(rounds):
            drawn = {s for s, c in enumerate(row) if c is not None}
            assert drawn == contenders
            ranks = {
                s: int(cardcore.Card.parse(row[s] + "S").rank) for s in drawn
            }  # ace 1 ... king 13
            best = max(ranks.values())
            contenders = {s for s in drawn if ranks[s] == best}
            if i < len(rounds) - 1:
                assert len(contenders) > 1
        assert len(contenders) == 1
        assert table["dealer"] == contenders.pop()
        multi += len(rounds) > 1
    assert multi > 0  # some cut was tied and redrawn


def test_tonk_dealer_2_deal_passes_left_each_hand() -> None:
    game = cardcore.new_game(
        "tonk", 3, seed=5, without=(NATURAL,), options={"hands": 4, "first_dealer": 1}
    )
    dealers = []
    while not game.is_over:
        table = game.view(None)["table"]
        if table["phase"] == "between":
            assert game.to_act == (table["dealer"],)
            game.act(game.to_act[0], "deal")
            continue
        dealers.append(table["dealer"])
        game.act(game.to_act[0], "drop")
    assert dealers == [1, 2, 0, 1]


def test_tonk_deal_1_five_cards_each_one_at_a_time_from_dealers_left() -> None:
    deck = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H 4H"
    game = cardcore.new_game(
        "tonk", 3, deck=deck, seed=1, without=(NATURAL,), options={"first_dealer": 1}
    )
    # dealer 1: seat 2 gets cards 1, 4, 7, 10, 13; seat 0 cards 2, 5, ...; seat 1 cards 3, 6, ...
    assert hand(game, 2) == ["AS", "4S", "7S", "10S", "KS"]
    assert hand(game, 0) == ["AH", "2S", "5S", "8S", "JS"]
    assert hand(game, 1) == ["2H", "3S", "6S", "9S", "QS"]
    assert game.to_act == (2,)


def test_tonk_deal_2_upcard_starts_discard_pile_rest_is_stock() -> None:
    game = tonk([H20, H15, H30], upcard="KD", stock="9D")
    table = game.view(0)["table"]
    assert (table["discard_top"], table["discard_count"]) == ("KD", 1)
    assert table["stock"] == 52 - 15 - 1
    game.act(0, "draw")
    assert "9D" in hand(game, 0)


def test_tonk_disc_1_only_top_discard_visible() -> None:
    game = tonk([H20, H15, H30], upcard="KD", stock="9D 8H")
    game.act(0, "draw")
    game.act(0, "discard 9D")
    game.act(1, "draw")
    game.act(1, "discard 8H")
    for seat in (None, 0, 1, 2):
        table = game.view(seat)["table"]
        assert (table["discard_top"], table["discard_count"]) == ("8H", 3)
        seen = cards_in(table)
        assert "9D" not in seen and "KD" not in seen
    assert game.state.zones.show(1, 0) == ["8H", None, None]


# --- the turn ------------------------------------------------------------------------------


def test_tonk_turn_1_play_starts_left_of_dealer_and_goes_left() -> None:
    game = tonk([H20, H15, H30], stock="9D 8H 7H")
    order = []
    for _ in range(4):
        seat = game.to_act[0]
        order.append(seat)
        pass_turn(game, seat)
    assert order == [0, 1, 2, 0]


def test_tonk_turn_2_drop_only_at_start_of_turn() -> None:
    game = tonk([H20, H15, H30], stock="9D")
    assert str(game.legal_actions(0)[0]) == "drop"
    game.act(0, "draw")
    assert "drop" not in [str(a) for a in game.legal_actions(0)]
    with pytest.raises(IllegalActionError, match="TONK-TURN-2"):
        game.act(0, "drop")
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(1, "drop")


def test_tonk_turn_3_draw_or_take_then_discard_ends_turn() -> None:
    game = tonk([H20, H15, H30], upcard="KD", stock="9D")
    assert [str(a) for a in game.legal_actions(0)] == ["drop", "draw", "take"]
    with pytest.raises(IllegalActionError, match="TONK-TURN-3"):
        game.act(0, "discard AS")
    game.act(0, "take")
    assert "KD" in hand(game, 0)
    with pytest.raises(IllegalActionError, match="TONK-TURN-3"):
        game.act(0, "discard 9D")  # not held
    game.act(0, "discard 10S")
    assert game.to_act == (1,)
    assert game.view(1)["table"]["discard_top"] == "10S"


def test_tonk_turn_4_taken_discard_not_discarded_same_turn() -> None:
    game = tonk([H20, H15, H30], upcard="KD")
    game.act(0, "take")
    assert "discard KD" not in [str(a) for a in game.legal_actions(0)]
    with pytest.raises(IllegalActionError, match="TONK-TURN-4"):
        game.act(0, "discard KD")
    game.act(0, "discard AS")
    game.act(1, "take")  # AS: a card drawn from the stock the turn before is no restriction
    game.act(1, "discard 5D")


def test_tonk_turn_5_may_not_strand_the_taken_discard() -> None:
    game = tonk(["4H 5H 6H 7H 8H", H15, H30], upcard="KD")
    game.act(0, "take")
    legal = [str(a) for a in game.legal_actions(0)]
    assert "spread 4H 5H 6H 7H 8H" not in legal
    assert "spread 4H 5H 6H" in legal
    with pytest.raises(IllegalActionError, match="TONK-TURN-5"):
        game.act(0, "spread 4H 5H 6H 7H 8H")
    game.act(0, "spread 4H 5H 6H 7H")
    assert "hit 1 8H" not in [str(a) for a in game.legal_actions(0)]
    with pytest.raises(IllegalActionError, match="TONK-TURN-5"):
        game.act(0, "hit 1 8H")
    game.act(0, "discard 8H")  # out by discard is not possible: KD stays
    assert hand(game, 0) == ["KD"]


def test_tonk_turn_5_the_taken_discard_may_be_left_when_it_can_still_hit() -> None:
    # seat 1 lays KC KD KH, seat 2 QC QD QH; seat 0 hits KS and QS and discards JC, keeping
    # 5H 6H 7H; it then takes 8H: laying 5H 6H 7H leaves 8H alone, but 8H hits that run, so
    # the turn can end (a tonk-out by hits), and the spread is legal
    seats = ["5H 6H 7H KS QS", "KC KD KH 2C 3C", "QC QD QH 2S 3S"]
    game = tonk(seats, upcard="4D", stock="9S 9D 9H JC 10C 8H")
    for seat, moves in [
        (0, ["draw", "discard 9S"]),
        (1, ["draw", "spread KC KD KH", "discard 9D"]),
        (2, ["draw", "spread QC QD QH", "discard 9H"]),
        (0, ["draw", "hit 1 KS", "hit 2 QS", "discard JC"]),
        (1, ["draw", "discard 10C"]),
        (2, ["draw", "discard 8H"]),
        (0, ["take"]),
    ]:
        for text in moves:
            game.act(seat, text)
    assert hand(game, 0) == ["5H", "6H", "7H", "8H"]
    legal = [str(a) for a in game.legal_actions(0)]
    assert "spread 5H 6H 7H" in legal and "spread 6H 7H 8H" in legal
    game.act(0, "spread 5H 6H 7H")
    assert [str(a) for a in game.legal_actions(0)] == ["hit 3 8H"]  # no discard (TONK-TURN-4)
    game.act(0, "hit 3 8H")
    assert game.result is not None and game.result.reason == "tonk-out"


def test_tonk_spread_1_book_of_three_or_four() -> None:
    game = tonk(["7H 7S 7D 8D KC", H15, "10H 6S JC 3C 4D"], stock="7C")
    game.act(0, "draw")
    with pytest.raises(IllegalActionError, match="TONK-SPREAD-1"):
        game.act(0, "spread 7H 7S 8D")
    game.act(0, "spread 7S 7H 7D 7C")
    assert game.view(1)["table"]["spreads"] == [
        {"number": 1, "owner": 0, "cards": ["7S", "7H", "7D", "7C"]}
    ]


def test_tonk_spread_2_run_one_suit_ace_low_only() -> None:
    game = tonk(["QS KS AS 2S 3S", H15, H30], stock="8D")
    game.act(0, "draw")
    legal = [str(a) for a in game.legal_actions(0)]
    assert "spread AS 2S 3S" in legal
    assert not any(s.startswith("spread") and "KS" in s for s in legal)
    with pytest.raises(IllegalActionError, match="TONK-SPREAD-2"):
        game.act(0, "spread QS KS AS")
    game.act(0, "spread AS 2S 3S")
    assert game.view(0)["table"]["spreads"][0]["cards"] == ["AS", "2S", "3S"]


def test_tonk_spread_3_spread_cards_do_not_count() -> None:
    # P0: 5H 6H 7H KC QD = 18 + 20; lays the run, discards nothing yet: total 20 + drawn 9C
    game = tonk(["5H 6H 7H KC QD", "9S 9D 8C 2H 3S", H30], stock="AC")
    game.act(0, "draw")
    assert game.view(0)["table"]["total"] == 18 + 20 + 1
    game.act(0, "spread 5H 6H 7H")
    assert game.view(0)["table"]["total"] == 21
    game.act(0, "discard KC")
    game.act(1, "drop")  # P1 31 vs P0 11: caught
    last = _last(game)
    assert last["reason"] == "drop-caught"
    # P1 pays 2 to P0 (11 <= 31); P2 (30 <= 31) also paid 2; P0 lowest collects 1 from P2
    assert last["amounts"] == [3, -4, 1]


def test_tonk_hit_1_valid_hits_only() -> None:
    game = tonk(["5H 6H 7H 9C 9D", "4H 8H 9S KD QD", H30], stock="KC 9H 2C 5S")
    game.act(0, "draw")  # KC
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    game.act(1, "draw")  # 9H
    legal = [str(a) for a in game.legal_actions(1)]
    assert "hit 1 4H" in legal and "hit 1 8H" in legal
    with pytest.raises(IllegalActionError, match="TONK-HIT-1"):
        game.act(1, "hit 1 9S")
    with pytest.raises(IllegalActionError, match="TONK-HIT-1"):
        game.act(1, "hit 2 9S")  # no spread 2
    game.act(1, "hit 1 4H")
    game.act(1, "hit 1 8H")
    game.act(1, "hit 1 9H")
    assert game.view(2)["table"]["spreads"][0]["cards"] == ["4H", "5H", "6H", "7H", "8H", "9H"]
    game.act(1, "discard 9S")
    game.act(2, "draw")  # 2C
    game.act(2, "discard 2C")
    game.act(0, "draw")
    assert [str(a) for a in game.legal_actions(0) if str(a).startswith("hit")] == []


def test_tonk_hit_1_book_takes_a_fourth_card_only() -> None:
    game = tonk(["9S 9H 9D 2C 5C", "9C KD QD JD 4S", H30], stock="KC 8H 7H")
    game.act(0, "draw")
    game.act(0, "spread 9S 9H 9D")
    game.act(0, "discard KC")
    game.act(1, "draw")
    game.act(1, "hit 1 9C")
    game.act(1, "discard 8H")
    assert game.view(0)["table"]["spreads"][0]["cards"] == ["9S", "9H", "9D", "9C"]


def test_tonk_hit_2_any_players_spread_several_per_turn() -> None:
    events: list[Any] = []
    game = tonk(["5H 6H 7H KC QD", "4H 8H 9H 2S 2D", H30], upcard="3S", stock="AC 2H")
    game.events.subscribe(SpreadHit, events.append)
    game.events.subscribe(SpreadLaid, events.append)
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    game.act(1, "take")  # KC
    game.act(1, "hit 1 4H")  # another player's spread
    game.act(1, "hit 1 8H")
    game.act(1, "hit 1 9H")
    game.act(1, "discard 2D")
    assert [type(e).__name__ for e in events] == [
        "SpreadLaid",
        "SpreadHit",
        "SpreadHit",
        "SpreadHit",
    ]
    assert [e.seat for e in events] == [0, 1, 1, 1]
    assert hand(game, 1) == ["2S", "KC"]


# --- endings -----------------------------------------------------------------------------


def test_tonk_out_1_tonk_out_pays_double_and_ends_at_once() -> None:
    game = tonk(["5H 6H 7H 9C 9D", H15, H30], stock="9S")
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    assert not game.is_over
    game.act(0, "spread 9S 9C 9D")
    assert game.is_over
    assert game.result is not None
    assert game.result.reason == "tonk-out"
    assert game.result.payouts == (4, -2, -2)  # 2S from each of two players


def test_tonk_out_1_by_hits_alone() -> None:
    # P0 lays 2C 3C 4C on turn 1 and keeps 5C 6C; on turn 2 draws 7C and hits three times.
    game = tonk(["2C 3C 4C 5C 6C", "KH KS 8D 8S 10D"], stock="JH QS 7C")
    game.act(0, "draw")
    game.act(0, "spread 2C 3C 4C")
    game.act(0, "discard JH")
    game.act(1, "draw")
    game.act(1, "discard QS")
    game.act(0, "draw")
    for card in ("5C", "6C", "7C"):
        game.act(0, f"hit 1 {card}")
    assert game.result is not None
    assert game.result.payouts == (2, -2)


def test_tonk_out_2_out_by_last_discard_pays_single() -> None:
    game = tonk(["5H 6H 7H 8H KC", H15, H30], stock="9H")
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H 8H 9H")
    game.act(0, "discard KC")
    assert game.result is not None
    assert game.result.reason == "out"
    assert game.result.payouts == (2, -1, -1)


def test_tonk_drop_1_every_hand_shown_and_totalled() -> None:
    ended: list[HandEnded] = []
    game = tonk([H20, H15, H30], hands=2)
    game.events.subscribe(HandEnded, ended.append, seat=2)
    game.act(0, "drop")
    assert ended[0].hand_totals == (20, 15, 30)
    assert ended[0].amounts == (-2, 3, -1) and ended[0].totals == (-2, 3, -1)
    assert ended[0].shown is not None
    assert [[str(c) for c in h] for h in ended[0].shown] == [
        sorted_hand(H20),
        sorted_hand(H15),
        sorted_hand(H30),
    ]
    last = _last(game)
    assert last["shown"] == [sorted_hand(H20), sorted_hand(H15), sorted_hand(H30)]


def sorted_hand(text: str) -> list[str]:
    return [str(c) for c in sorted(cardcore.parse_cards(text), key=index_of)]


def test_tonk_drop_2_strictly_lowest_dropper_wins_single() -> None:
    game = tonk([H15, H20, H30])
    game.act(0, "drop")
    assert game.result is not None
    assert game.result.reason == "drop-won"
    assert game.result.payouts == (2, -1, -1)


def test_tonk_drop_3_caught_dropper_pays_double() -> None:
    # P0 20 drops; P1 15 <= 20 is paid 2; P2 30 is not; P1 (lowest) collects 1 from P2
    game = tonk([H20, H15, H30])
    game.act(0, "drop")
    assert game.result is not None
    assert game.result.reason == "drop-caught"
    assert game.result.payouts == (-2, 3, -1)
    two = tonk([H20, H15])
    two.act(0, "drop")
    assert two.result is not None
    assert two.result.payouts == (-2, 2)


def test_tonk_drop_4_lowest_collects_from_all_but_dropper() -> None:
    # P0 20 drops; P1 15 and P2 18 both at or below: paid 2 each;
    # P1 lowest collects 1 from P2 (not from the dropper)
    game = tonk([H20, H15, "10H 2S 3C 2H AC"])
    game.act(0, "drop")
    assert game.result is not None
    assert game.result.payouts == (-4, 3, 1)


def test_tonk_drop_5_ties() -> None:
    # dropper tied with P1 (20 and 20): caught; P1 is the sole lowest and collects 1 from P2
    game = tonk([H20, "10D 5S 2H 2S AH", H30])
    game.act(0, "drop")
    assert game.result is not None
    assert game.result.payouts == (-2, 3, -1)
    # P1 and P2 tie lowest at 15 below the dropper's 20: both paid 2, nobody else pays them
    game = tonk([H20, H15, "5C 4S 3S 2H AH"])
    game.act(0, "drop")
    assert game.result is not None
    assert game.result.payouts == (-4, 2, 2)


def test_tonk_stock_1_turn_starting_with_empty_stock_ends_hand() -> None:
    # totals 20, 12, 12; everybody draws and discards the drawn card: hands never change
    game = tonk(["10S 5H 3D AC AS", "2S 3H 4D 2C AH", "AD 2D 3C 4S 2H"])
    turns = 0
    while game.view(None)["table"]["stock"] > 0:
        seat = game.to_act[0]
        game.act(seat, "draw")
        assert not game.is_over  # the player who drew the last card finishes the turn
        drawn = game.state.zones.cards[2 + seat][-1]
        game.act(seat, f"discard {drawn}")
        turns += 1
    assert turns == 36
    assert game.is_over
    assert game.result is not None
    assert game.result.reason == "stock-out"


def test_tonk_stock_2_lowest_collects_ties_share() -> None:
    game = tonk(["10S 5H 3D AC AS", "2S 3H 4D 2C AH", "AD 2D 3C 4S 2H"])
    while not game.is_over:
        pass_turn(game, game.to_act[0])
    assert game.result is not None
    # P1 and P2 tie at 12: each collects 1 from P0 (20) and nothing from each other
    assert game.result.payouts == (-2, 1, 1)
    assert _last(game)["shown"] is not None


# --- session, views, notation ---------------------------------------------------------------


def test_tonk_session_1_balances_accumulate_over_hands() -> None:
    game = tonk([H20, H15, H30], hands=3, stake=2)
    payments: list[PaymentsMade] = []
    game.events.subscribe(PaymentsMade, payments.append)
    game.act(0, "drop")  # hand 1: (-4, +6, -2)
    assert game.view(0)["table"]["balances"] == [-4, 6, -2]
    assert game.view(0)["table"]["hand_number"] == 2
    while not game.is_over:
        between = game.view(None)["table"]["phase"] == "between"
        game.act(game.to_act[0], "deal" if between else "drop")
    assert game.result is not None
    entries = state_of(game).ledger.entries
    assert len(entries) == 3
    totals = tuple(sum(e[1][s] for e in entries) for s in range(3))
    assert game.result.payouts == totals
    assert game.result.scores == tuple(t / 2 for t in totals)
    best = max(totals)
    assert game.result.winners == tuple(s for s in range(3) if totals[s] == best)
    assert payments[0].amounts == (-4, 6, -2)


def test_tonk_session_2_later_hands_reshuffled_from_the_seed() -> None:
    def second_hand(seed: int) -> list[str]:
        game = tonk([H20, H15, H30], hands=2, seed=seed)
        game.act(0, "drop")
        game.act(0, "deal")  # seat 2 dealt the first hand
        table = game.view(1)["table"]
        assert table["stock"] == 36 and table["hand_sizes"] == [5, 5, 5]
        assert_conserved(game)
        return list(table["hand"])

    assert second_hand(4) == second_hand(4)
    assert second_hand(4) != second_hand(5)


def test_tonk_session_3_next_dealer_deals_between_hands() -> None:
    game = tonk([H20, H15, H30], hands=2)
    game.act(0, "drop")
    table = game.view(1)["table"]
    assert table["phase"] == "between" and table["dealer"] == 0
    assert game.to_act == (0,)
    assert [str(a) for a in game.legal_actions(0)] == ["deal"]
    assert game.legal_actions(1) == ()
    # the finished hand stays shown until the deal
    zones = game.state.zones
    assert all(
        zones.knows(2 + s, i, seat) for s in range(3) for i in range(5) for seat in (0, 1, 2, None)
    )
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(1, "deal")
    with pytest.raises(IllegalActionError, match="TONK-SESSION-3"):
        game.act(0, "drop")
    game.act(0, "deal")
    table = game.view(1)["table"]
    assert table["phase"] == "start" and table["hand_sizes"] == [5, 5, 5] and game.to_act == (1,)
    game.act(1, "drop")
    assert game.is_over and game.legal_actions(2) == ()
    one = tonk([H20, H15, H30])
    one.act(0, "drop")
    assert one.is_over  # the last hand needs no deal


def test_tonk_view_1_hands_private_until_shown() -> None:
    game = tonk([H20, H15, H30], upcard="2S", stock="9D")
    for seat, mine in ((0, H20), (1, H15), (2, H30)):
        table = game.view(seat)["table"]
        assert table["hand_sizes"] == [5, 5, 5]
        seen = cards_in(table)
        others = set()
        for other in (H20, H15, H30):
            if other != mine:
                others |= set(other.split())
        assert not seen & others
        assert set(mine.split()) <= seen
    spectator = cards_in(game.view(None)["table"])
    assert spectator == {"2S"}
    assert game.history(None) == []  # no cut (first_dealer), no hand finished yet
    game.act(0, "drop")
    shown = cards_in(game.history(2))
    assert set(H20.split()) | set(H15.split()) <= shown


def test_tonk_note_1_notation_round_trip_and_errors() -> None:
    game = tonk(["5H 6H 7H 9C 9D", "4H 8H 9S KD QD", H30], upcard="3S", stock="KC")
    for action in game.legal_actions(0):
        assert game.logic.parse_action(game.state, 0, str(action)) is action
    game.act(0, "draw")
    action = game.act(0, "SPREAD 7h 5h  6h")
    assert str(action) == "spread 5H 6H 7H"
    assert str(game.record_entries()[-1][1]) == "spread 5H 6H 7H"
    for bad in (
        "",
        "flop",
        "draw 5H",
        "discard",
        "discard 5X",
        "discard JK",
        "hit 1",
        "hit x 5H",
        "hit 0 5H",
        "spread",
        "spread 9C 9C 9D",
    ):
        with pytest.raises(NotationError):
            game.act(0, bad)
    with pytest.raises(IllegalActionError, match=r"\(TONK-SPREAD-1\)"):
        game.act(0, "spread 9C 9D")  # well-formed, not legal


def test_tonk_legal_1_order_and_bound() -> None:
    game = tonk(["4S 4H 4D 3H 5H", "10D 9S 8C 2C JS", "10C 9H 7D 2D QS"], stock="6H")
    assert [str(a) for a in game.legal_actions(0)] == ["drop", "draw", "take"]
    game.act(0, "draw")
    assert [str(a) for a in game.legal_actions(0)] == [
        "spread 4S 4H 4D",
        "spread 3H 4H 5H",
        "spread 3H 4H 5H 6H",
        "spread 4H 5H 6H",
        "discard 3H",
        "discard 4S",
        "discard 4H",
        "discard 4D",
        "discard 5H",
        "discard 6H",
    ]
    game.act(0, "spread 3H 4H 5H")
    assert [str(a) for a in game.legal_actions(0)] == [
        "hit 1 6H",
        "discard 4S",
        "discard 4D",
        "discard 6H",
    ]
    assert game.legal_actions(0) is game.legal_actions(0)


def test_tonk_draw_events_hide_the_drawn_card_from_others() -> None:
    game = tonk([H20, H15, H30], upcard="KD", stock="9D")
    mine: list[CardDrawn] = []
    theirs: list[CardDrawn] = []
    ended: list[HandEnded] = []
    game.events.subscribe(CardDrawn, mine.append, seat=0)
    game.events.subscribe(CardDrawn, theirs.append, seat=1)
    game.events.subscribe(HandEnded, ended.append)
    game.act(0, "draw")
    assert str(mine[0].card) == "9D" and theirs[0].card is None
    game.act(0, "discard 9D")
    game.act(1, "take")
    assert str(theirs[1].card) == "9D" and str(mine[1].card) == "9D"  # a taken discard is public
    game.act(1, "discard 5D")
    game.act(2, "drop")
    assert ended[0].reason == "drop-caught" and ended[0].seat == 2


def test_stacked_helper_deals_in_order() -> None:
    assert stacked(["AS 2S 3S 4S 5S", "AH 2H 3H 4H 5H"], "KD", "QD").split()[:4] == [
        "AS",
        "AH",
        "2S",
        "2H",
    ]


def test_tonk_state_clone_copies_every_slot_independently() -> None:
    from cardcore.state import _all_slots
    from cardcore_tonk.state import TonkState

    game = tonk(["5H 6H 7H KC QD", "4H 8H 9H 2S 2D", H30], upcard="3S", stock="AC 2H", hands=2)
    for text in ("draw", "spread 5H 6H 7H", "discard KC"):
        game.act(0, text)
    game.act(1, "take")
    state = game.state
    assert isinstance(state, TonkState)
    copy = state.clone()
    for name in _all_slots(TonkState):
        a, b = getattr(state, name), getattr(copy, name)
        if hasattr(a, "snapshot"):
            assert a.snapshot() == b.snapshot(), name
        else:
            assert a == b, name
    copy.melds.append(copy.melds[0])
    copy.ledger.post([1, -1, 0], "test")
    copy.zones.cards[2].pop()
    assert (
        len(state.melds) == 1
        and state.ledger.totals == [0, 0, 0]
        and len(state.zones.cards[2]) == 2
    )


def test_tonk_view_1_taken_card_stays_known_after_hits() -> None:
    game = tonk(["5H 6H 7H KC QD", "4H 8H 9H 2S 2D", H30], upcard="3S", stock="AC 2H")
    for text in ("draw", "spread 5H 6H 7H", "discard KC"):
        game.act(0, text)
    game.act(1, "take")  # KC, known to all
    game.act(1, "hit 1 4H")
    zones = game.state.zones
    hand = zones.cards[3]
    i = [str(c) for c in hand].index("KC")
    assert all(zones.knows(3, i, seat) for seat in (0, 2, None))
    j = [str(c) for c in hand].index("2S")
    assert not zones.knows(3, j, 0)


def test_tonk_note_1_odd_text_is_rejected_without_growing_caches() -> None:
    game = tonk(["5H 6H 7H 9C 9D", H15, H30], stock="KC")
    game.act(0, "draw")
    game.legal_actions(0)  # interns what is legal now
    before = (len(actions._HITS[0]), len(actions._SPREADS[0]))
    for text in ("hit 99999 5H", "hit 18 5H", "spread 5H 9C KC", "spread AS 2S 3S 4S"):
        with pytest.raises(IllegalActionError):
            game.act(0, text)
    with pytest.raises(NotationError):
        game.act(0, "hit ² 5H")
    assert (len(actions._HITS[0]), len(actions._SPREADS[0])) == before
    assert game.version == 1


def test_tonk_gap_2_drop_on_any_turn_and_after_being_hit() -> None:
    # TONK-GAP-2: a drop is allowed at the start of any own turn, the first included,
    # and being hit does not block it unless the house rule tonk.hit-blocks-drop is on
    game = tonk(["5H 6H 7H KC QD", "4H 2S 9S KD 3D", H30], stock="AC JD JC 9H 10C", rules=[])
    assert str(game.legal_actions(0)[0]) == "drop"  # the very first turn
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    game.act(1, "draw")
    game.act(1, "hit 1 4H")  # seat 1 hits seat 0's spread
    game.act(1, "discard JD")
    pass_turn(game, 2)
    assert str(game.legal_actions(0)[0]) == "drop"  # hit, and still free to drop
    game.act(0, "drop")
    assert game.is_over


def test_tonk_gap_3_hand_ends_when_a_turn_starts_with_an_empty_stock() -> None:
    # TONK-GAP-3: nobody draws the discards once the stock is out (that is the house
    # rule tonk.stock-out-discard-only); the next turn simply does not start
    game = tonk(["10S 5H 3D AC AS", "2S 3H 4D 2C AH", "AD 2D 3C 4S 2H"])
    while game.view(None)["table"]["stock"] > 0:
        seat = game.to_act[0]
        game.act(seat, "draw")
        drawn = game.state.zones.cards[2 + seat][-1]
        game.act(seat, f"discard {drawn}")
    assert game.is_over and game.result is not None and game.result.reason == "stock-out"
    assert all(game.legal_actions(seat) == () for seat in range(3))
