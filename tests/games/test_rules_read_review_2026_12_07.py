"""Rules read review (2026-12-07): Tonk, Spit and Speed read against the seeds.

Every expected value is worked out by hand from ``../shared/seeds/tonk.en.md``,
``../shared/seeds/spit.en.md``, ``../shared/rules-decisions.md`` and the rule IDs in
``seeds/tonk.md`` / ``seeds/spit.md``; each test drives the engine to that situation
with the existing helpers (stacked decks, arranged positions) and checks the outcome.
"""

from __future__ import annotations

import pytest
from tests.games.spit.helpers import arrange, centre, held, speed_arrange
from tests.games.tonk.helpers import hand, last_hand, pass_turn, state_of, tonk

import cardcore
from cardcore_tonk.melds import RUN, Meld

# ----------------------------------------------------------------------------- Tonk


def test_TONK_HIT_2_opponent_hits_own_run_at_the_low_end():
    # seat 0 lays 5H 6H 7H; seat 1 hits it with 4H: a run grows at either end, any
    # player's spread may be hit; afterwards its targets are 3H and 8H (TONK-HIT-1/2).
    g = tonk(["5H 6H 7H 9C 2D", "4H KS KD QC 3S"], upcard="9S", stock="KC 10D 2S")
    g.act(0, "draw")
    g.act(0, "spread 5H 6H 7H")
    g.act(0, "discard 2D")
    g.act(1, "draw")
    assert "hit 1 4H" in [str(a) for a in g.legal_actions(1)]
    g.act(1, "hit 1 4H")
    assert state_of(g).melds[0] == Meld(RUN, "H", 4, 7, 4)
    assert sorted(hand(g, 1)) == sorted(["KS", "KD", "QC", "3S", "10D"])


def test_TONK_SPREAD_2_queen_king_ace_is_no_run():
    # QH KH AH: the ace is low only, so no spread is offered (TONK-SPREAD-2).
    g = tonk(["QH KH AH 2C 3D", "4S 5S 7D 9D JC"], upcard="9S", stock="8C")
    g.act(0, "draw")
    assert not [a for a in g.legal_actions(0) if str(a).startswith("spread")]
    with pytest.raises(cardcore.IllegalActionError):
        g.act(0, "spread QH KH AH")


def test_TONK_HIT_1_run_to_the_king_takes_no_ace():
    # JH QH KH on the table: AH does not extend it (no wrap past the king); 10H does.
    g = tonk(["JH QH KH 2C 3D", "AH 10H 7D 9D 4C"], upcard="9S", stock="8C 8D")
    g.act(0, "draw")
    g.act(0, "spread JH QH KH")
    g.act(0, "discard 8C")
    g.act(1, "draw")
    hits = [str(a) for a in g.legal_actions(1) if str(a).startswith("hit")]
    assert hits == ["hit 1 10H"]


def _hit_by_other(rules: tuple[str, ...] = ("tonk.hit-blocks-drop",)) -> cardcore.Game:
    g = tonk(
        ["5H 6H 7H 2C 3D", "8H KS KD QC JC"],
        upcard="9S",
        stock="4C 10D 2S 3S",
        rules=rules,
    )
    g.act(0, "draw")
    g.act(0, "spread 5H 6H 7H")
    g.act(0, "discard 4C")
    g.act(1, "draw")
    g.act(1, "hit 1 8H")
    g.act(1, "discard 10D")
    return g


def test_TONK_VAR_4_hit_player_may_not_drop_next_turn():
    g = _hit_by_other()
    assert [str(a) for a in g.legal_actions(0)] == ["draw", "take"]
    with pytest.raises(cardcore.IllegalActionError):
        g.act(0, "drop")


def test_TONK_VAR_4_off_by_default_the_hit_player_may_drop():
    g = _hit_by_other(())
    g.act(0, "drop")
    # seat 0 holds 2C 3D = 5, seat 1 holds KS KD QC JC = 40: dropper strictly lowest.
    assert g.result.payouts == (1, -1)
    assert g.result.reason == "drop-won"


def test_TONK_VAR_4_hitting_ones_own_spread_does_not_block_the_drop():
    # seat 0 lays 5H 6H 7H and hits it itself with 8H; the next turn it may still drop.
    g = tonk(
        ["5H 6H 7H 8H 3D", "AS KS KD QC JC"],
        upcard="9S",
        stock="4C 10D 2S 3S",
        rules=("tonk.hit-blocks-drop",),
    )
    g.act(0, "draw")
    g.act(0, "spread 5H 6H 7H")
    g.act(0, "hit 1 8H")
    g.act(0, "discard 4C")
    pass_turn(g, 1)
    assert "drop" in [str(a) for a in g.legal_actions(0)]
    g.act(0, "drop")
    # seat 0: 3D = 3; seat 1: AS KS KD QC JC = 41 -> (+1, -1)
    assert g.result.payouts == (1, -1)


def test_TONK_DROP_3_4_caught_drop_with_four_players():
    # dropper 15; seat 1: 6, seat 2: 15 (tie with dropper), seat 3: 30.
    # TONK-DROP-3: dropper pays 2 to seats 1 and 2 -> -4.
    # TONK-DROP-4: seat 1 (lowest non-dropper) takes 1 from seat 2 and seat 3.
    # -> (-4, +4, +1, -1).
    g = tonk(
        [
            "2S 2H 3S 4S 4H",
            "AS AH AD AC 2D",
            "2C 3H 3D 3C 4D",
            "5S 5H 5D 5C 10S",
        ],
        upcard="9S",
        stock="8C",
        max_players=4,
    )
    g.act(0, "drop")
    assert g.result.reason == "drop-caught"
    assert g.result.payouts == (-4, 4, 1, -1)
    assert last_hand(g)["totals"] == [15, 6, 15, 30]


def test_TONK_DROP_5_tie_with_dropper_three_players_stake_5():
    # totals 9, 9, 42 with S = 5: the dropper tied with seat 1 is caught and seat 1 is
    # the sole lowest: dropper pays 2S to seat 1; seat 1 collects S from seat 2.
    # -> (-10, +15, -5)
    g = tonk(
        ["AS AH 2S 2H 3S", "AD AC 2D 2C 3H", "KS KH QS 9S 3D"],
        upcard="9H",
        stock="8C",
        stake=5,
    )
    g.act(0, "drop")
    assert g.result.reason == "drop-caught"
    assert g.result.payouts == (-10, 15, -5)


def test_TONK_STOCK_2_two_tied_lowest_at_stock_out():
    # Nobody spreads: each turn draws and throws the drawn card, so the hands stay as
    # dealt: 11, 11, 42. The stock runs out; the tied lowest each collect S from the
    # third, and pay each other nothing -> (+1, +1, -2) (TONK-STOCK-1/2).
    g = tonk(["AS AH AD 2S 6S", "AC 2D 2C 3S 3H", "KS KH QS 9S 3D"], upcard="9H")
    seat = 0
    turns = 0
    while not g.is_over:
        pass_turn(g, seat)
        seat = (seat + 1) % 3
        turns += 1
    # 52 - 15 dealt - 1 upcard = 36 stock cards, one drawn per turn
    assert turns == 36
    assert g.result.reason == "stock-out"
    assert g.result.payouts == (1, 1, -2)


def test_TONK_49_2_two_naturals_void_the_deal_and_the_deal_passes_left():
    # seat 0: KS KH KD KC 10S = 50, seat 1: QS QH QD QC 9S = 49: two naturals -> void,
    # nobody pays, the deal passes left from seat 1 to seat 0, who deals again.
    g = tonk(["KS KH KD KC 10S", "QS QH QD QC 9S"], upcard="2C", natural=True, hands=1)
    assert not g.is_over
    assert last_hand(g)["reason"] == "void"
    assert last_hand(g)["amounts"] == [0, 0]
    assert [str(a) for a in g.legal_actions(0)] == ["deal"]
    assert g.legal_actions(1) == ()


def test_TONK_49_1_one_natural_collects_double():
    # seat 1: JS JH JD JC 9S = 49 -> 2S from seat 0 (S = 3): (-6, +6).
    g = tonk(["2S 3H 4D 5C 6S", "JS JH JD JC 9S"], upcard="2C", natural=True, stake=3)
    assert g.is_over
    assert g.result.reason == "natural"
    assert g.result.payouts == (-6, 6)


def test_TONK_VAR_2_three_aces_may_be_held_four_may_not():
    # AS AH AD held: discarding another card keeps them (allowed). After drawing AC the
    # four aces are a book that must be laid: discarding 7C would keep it (vetoed).
    g = tonk(
        ["AS AH AD 7C 9D", "4S 5S 7D 9C JC"],
        upcard="KH",
        stock="5D 6H AC",
        rules=("tonk.must-lay-down",),
    )
    g.act(0, "draw")  # 5D
    g.act(0, "discard 7C")  # three aces kept: legal
    g.act(1, "draw")  # 6H
    g.act(1, "discard 6H")
    g.act(0, "draw")  # AC
    with pytest.raises(cardcore.IllegalActionError):
        g.act(0, "discard 9D")
    assert "spread AS AH AD AC" in [str(a) for a in g.legal_actions(0)]


def test_TONK_VAR_2_ace_two_three_run_is_not_three_aces():
    # AS 2S 3S is a run (TONK-GAP-12): it may not be kept in hand.
    g = tonk(
        ["AS 2S 3S 7C 9D", "4S 5S 7D 9C JC"], upcard="KH", stock="5D", rules=("tonk.must-lay-down",)
    )
    g.act(0, "draw")
    with pytest.raises(cardcore.IllegalActionError):
        g.act(0, "discard 7C")


def _hits_only(rules: tuple[str, ...]) -> cardcore.Game:
    # seat 0 lays 5H 6H 7H; seat 1 (4H 3H 2H 8H 9H, draws 10H) empties its hand by
    # six hits and no new spread.
    g = tonk(["5H 6H 7H 9C 2D", "4H 3H 2H 8H 9H"], upcard="9S", stock="KC 10H", rules=rules)
    g.act(0, "draw")
    g.act(0, "spread 5H 6H 7H")
    g.act(0, "discard 2D")
    g.act(1, "draw")
    for card in ("4H", "3H", "2H", "8H", "9H", "10H"):
        g.act(1, f"hit 1 {card}")
    return g


def test_TONK_OUT_1_tonk_out_by_hits_pays_double():
    g = _hits_only(())
    assert g.result.reason == "tonk-out"
    assert g.result.payouts == (-2, 2)


def test_TONK_VAR_3_tonk_out_by_hits_alone_pays_the_basic_stake():
    g = _hits_only(("tonk.double-needs-spread",))
    assert g.result.reason == "tonk-out"
    assert g.result.payouts == (-1, 1)


def test_TONK_VAR_1_no_upcard_first_player_can_only_draw_or_drop():
    g = tonk(["2S 3H 4D 5C 6S", "7S 8H 9D 10C JS"], upcard=None, rules=("tonk.no-upcard",))
    assert [str(a) for a in g.legal_actions(0)] == ["drop", "draw"]
    drawn = pass_turn(g, 0)
    assert [str(a) for a in g.legal_actions(1)] == ["drop", "draw", "take"]
    g.act(1, "take")
    assert drawn in hand(g, 1)


def test_TONK_VAR_5_hand_ends_after_one_quiet_round_from_the_discards():
    # 2 players: 41 stock cards; seat 0 draws the last one. Then seat 1 takes and
    # discards (quiet 1), seat 0 takes and discards (quiet 2 = a full round): the
    # next turn begins with an empty stock after a quiet round -> stock-out.
    g = tonk(
        ["AS AH AD 2S 6S", "KS KH QS 9S 3D"], upcard="9H", rules=("tonk.stock-out-discard-only",)
    )
    seat = 0
    for _ in range(41):
        pass_turn(g, seat)
        seat = 1 - seat
    assert not g.is_over
    assert [str(a) for a in g.legal_actions(1)] == ["drop", "draw", "take"]
    g.act(1, "take")
    g.act(1, "discard 3D")
    assert not g.is_over
    g.act(0, "take")
    g.act(0, "discard 6S")
    assert g.is_over
    assert g.result.reason == "stock-out"
    # seat 0: AS AH AD 2S 3D = 8, seat 1 holds 39 + a card: seat 0 lowest
    assert g.result.payouts == (1, -1)


# ----------------------------------------------------------------------------- Spit


def _spit() -> cardcore.Game:
    return cardcore.new_game("spit", 2, seed=3)


def test_SPIT_MOVE_3_ace_between_king_and_two_not_queen():
    # left top KH: AS (pile 1) and QS (pile 3) may go on it, 2S (pile 2) may not; on
    # right top 2H: AS and 3C (seat 1 pile 1) may go, QS not.
    g = arrange(
        _spit(),
        ["AS", "2S", "QS", "5D", "7D"],
        ["3C", "4C", "6C", "8C", "9C"],
        left="KH",
        right="2H",
    )
    plays0 = sorted(str(a) for a in g.legal_actions(0) if str(a).startswith("play"))
    assert plays0 == ["play 1 L", "play 1 R", "play 3 L"]
    plays1 = sorted(str(a) for a in g.legal_actions(1) if str(a).startswith("play"))
    assert plays1 == ["play 1 R"]


def test_SPIT_RT_1_contested_pile_stale_then_still_legal():
    # left top 6H. Both saw version v. Seat 0 plays 7S on L; seat 1's 5C (legal at v,
    # not on 7S) is stale; seat 1's 8C (legal on 7S) still applies (SPIT-GAP-2).
    g = arrange(
        _spit(),
        ["7S", "KD", "KH", "QD", "QH"],
        ["5C", "8C", "JS", "JD", "JH"],
        left="6H",
        right="2C",
    )
    v = g.version
    g.act(0, "play 1 L", seen=v)
    with pytest.raises(cardcore.StaleActionError):
        g.act(1, "play 1 L", seen=v)
    g.act(1, "play 2 L", seen=v)
    assert centre(g)[0][-2:] == ["7S", "8C"]


def test_SPIT_WIN_1_small_player_empties_first_in_single_pile_mode():
    # single-pile deal (seat 1 holds 1 card, no spit cards; pile L is seat 0's):
    # seat 1 plays its last card and holds nothing: it wins (SPIT-END-6, SPIT-WIN-1).
    g = arrange(
        _spit(),
        ["KD", "KH", "QD", "QH", "JD"],
        ["5C"],
        left="4H",
        rest="spit0",
        single=0,
    )
    g.act(1, "play 1 L")
    assert g.is_over
    assert g.result.winners == (1,)


def test_SPIT_END_3_chooser_only_the_emptier_chooses():
    # seat 0 plays its last layout card 5C on 4H; under spit.chooser only seat 0 may
    # choose; it takes R (9D alone), seat 1 takes L: seat 0 then holds its 2 spit
    # cards + 9D = 3 cards (SPIT-END-3/4).
    game = cardcore.new_game("spit", 2, seed=3, rules=("spit.chooser",))
    g = arrange(game, ["5C"], ["KD", "KH", "QD", "QH", "JD"], spit0="2S 3S", left="4H", right="9D")
    g.act(0, "play 1 L")
    assert [str(a) for a in g.legal_actions(0)] == ["choose L", "choose R"]
    assert g.legal_actions(1) == ()
    with pytest.raises(cardcore.IllegalActionError):
        g.act(1, "choose L")
    g.act(0, "choose R")
    assert not g.is_over
    assert sorted(map(str, held(g, 0))) == ["2S", "3S", "9D"]
    assert len(held(g, 1)) == 49


# ----------------------------------------------------------------------------- Speed


def test_SPEED_PLAY_3_joker_goes_on_anything_and_anything_on_a_joker():
    g = cardcore.new_game("speed", 2, seed=2, options={"jokers": 2})
    g = speed_arrange(g, "JK 9C 9D 9H 9S", "KS KH KD KC QS", left="4H", right="JK")
    plays = sorted(str(a) for a in g.legal_actions(0) if str(a).startswith("play"))
    # JK on 4H and on JK; every 9 on the joker R; no 9 on 4H
    assert plays == sorted(
        ["play JK L", "play JK R", "play 9C R", "play 9D R", "play 9H R", "play 9S R"]
    )
