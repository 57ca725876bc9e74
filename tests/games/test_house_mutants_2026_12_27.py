"""Mutation audit of the house-rule modules (2026-12-27).

Every Golf, Spit/Speed and Tonk house-rule module (``plugins/<game>/house/*.py``) and the game
code its hook switches (Golf's ``grids.py``/``logic.py``/``state.py`` removal and penalties,
Tonk's ``logic.py`` turn bookkeeping, Speed's stuck detection) was mutated by hand, one small
mutant at a time, and the game's tests run against it. The tests below kill the non-equivalent
mutants that survived every earlier test; each works its expected outcome out by hand from the
seed text (``/work/shared/seeds/*.en.md``) and ``rules-decisions.md`` and names the mutant.
"""

from __future__ import annotations

import pytest
from tests.games.golf.helpers import golf, stack
from tests.games.tonk.helpers import tonk

import cardcore
from cardcore import IllegalActionError, OptionError

# --- Golf -------------------------------------------------------------------------------------


def _knock_round(rules: list[str]) -> tuple[float, ...]:
    """Three seats of 4-card Golf; seat 0 knocks at once, seats 1 and 2 draw and discard.

    Grids (no two equal ranks, so nothing cancels, GOLF4-SCORE-1): seat 0 ``AC 2D 3H 4S`` =
    1 + 2 + 3 + 4 = 10; seat 1 ``AH 2S 4C 5D`` = 12; seat 2 ``AD 2H 4H 5S`` = 12. The final
    turns discard the drawn ``QS`` and ``JD``, so the grids are scored as dealt.
    """
    deck = stack(["AC 2D 3H 4S", "AH 2S 4C 5D", "AD 2H 4H 5S"], "KS", "QS JD 7C 6C")
    game = golf(3, deck, rules=rules, options={"layout": "4", "rounds": 1})
    for seat in range(3):
        game.act(seat, "peek 2")
        game.act(seat, "peek 3")
    game.act(0, "knock")  # GOLF4-KNOCK-1/3: seat 0 is the ender (GOLF-PEN-1)
    for seat in (1, 2):
        game.act(seat, "draw")
        game.act(seat, "discard")
    result = game.result
    assert result is not None
    return result.scores


@pytest.mark.parametrize("penalty", ["golf.ender-penalty-10", "golf.ender-penalty-lowest"])
def test_GOLF_PEN_6_an_ender_strictly_lowest_never_pays_when_others_tie_above(penalty: str) -> None:
    """GOLF-PEN-6 (``golf.ender-penalty-ties``) makes an ender who *ties* for the lowest score
    pay. The seed's penalty is for an ender who does "not have the lowest score in this round";
    here the knocker has 10, strictly lowest, and the two others tie at 12 above it: the
    knocker pays nothing (10, 12, 12), with or without GOLF-PEN-6.

    Kills the mutant of ``grids.ender_pays`` that takes the lowest over the *other* seats
    (``low = min(s for i, s in enumerate(scores) if i != ender)``): the other seats' own tie
    at 12 then reads as a tie for lowest and the knocker paid 10 (or 12).
    """
    assert _knock_round([penalty, "golf.ender-penalty-ties"]) == (10.0, 12.0, 12.0)
    assert _knock_round([penalty]) == (10.0, 12.0, 12.0)


def test_GOLF4_VAR_4_peek_nearest_still_lets_far_cards_be_replaced() -> None:
    """GOLF4-VAR-4 (``golf.peek-nearest``): "You may only peek at the two cards nearest to
    you" restricts the setup peek only; a turn may still replace any layout card (GOLF-TURN-2,
    "face up or face down, seen or unseen").

    Seat 0 ``5S 9H / KD 5H``, seat 1 ``AC 2C / 3C 4C``; upcard 8D, stock QS JD. The setup
    offers only ``peek 2``/``peek 3``. Seat 0 draws QS and replaces the far card 0 (5S); seat 1
    takes that 5S and replaces its far card 1 (2C); seat 0 knocks; seat 1 draws JD and
    discards. By hand (BASIC, no two equal ranks in a row or column): seat 0 QS 9H KD 5H =
    10 + 9 + 0 + 5 = 24; seat 1 AC 5S 3C 4C = 1 + 5 + 3 + 4 = 13.

    Kills the mutant that vetoes every action at positions 0 and 1
    (``if getattr(action, "pos", 9) < 2`` for ``type(action) is Peek and action.pos < 2``):
    the far cards could then never be replaced.
    """
    deck = stack(["5S 9H KD 5H", "AC 2C 3C 4C"], "8D", "QS JD 7C 6C")
    game = golf(2, deck, rules=["golf.peek-nearest"], options={"layout": "4", "rounds": 1})
    assert [str(a) for a in game.legal_actions(0)] == ["peek 2", "peek 3"]
    for seat in (0, 1):
        game.act(seat, "peek 2")
        game.act(seat, "peek 3")
    game.act(0, "draw")
    assert [str(a) for a in game.legal_actions(0)][:2] == ["replace 0", "replace 1"]
    game.act(0, "replace 0")
    game.act(1, "take")
    game.act(1, "replace 1")
    game.act(0, "knock")
    game.act(1, "draw")
    game.act(1, "discard")
    result = game.result
    assert result is not None
    assert result.scores == (24.0, 13.0)


# --- Tonk -------------------------------------------------------------------------------------


def test_TONK_VAR_4_a_third_player_taking_the_discard_keeps_the_hit_players_block() -> None:
    """TONK-VAR-4 (``tonk.hit-blocks-drop``): "a player one of whose spreads another player hit
    may not drop next turn". Three seats: seat 0 lays 5H 6H 7H, seat 1 hits it with 4H, then
    seat 2 *takes* the discard (JD) and discards 10H. Seat 0's next turn begins: it was hit
    since its own last turn, so ``drop`` is not offered and is refused; drawing is fine.

    Kills the mutant that clears every seat's block when anyone takes a discard
    (``state.was_hit = 0`` in ``logic.py``'s ``Take`` branch instead of clearing only the
    taker's bit); the existing tests pass the third seat's turn with a stock draw only.
    """
    game = tonk(
        ["5H 6H 7H KC QD", "4H 2S 9S KD 3D", "10H 6S 7C 3C 4D"],
        stock="AC JD JC 9H 10C",
        rules=["tonk.hit-blocks-drop"],
    )
    game.act(0, "draw")  # AC
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    game.act(1, "draw")  # JD
    game.act(1, "hit 1 4H")  # another player hits seat 0's spread
    game.act(1, "discard JD")
    game.act(2, "take")  # the JD seat 1 discarded
    game.act(2, "discard 10H")
    assert game.to_act == (0,)
    assert [str(a) for a in game.legal_actions(0)] == ["draw", "take"]
    with pytest.raises(IllegalActionError, match="TONK-VAR-4"):
        game.act(0, "drop")
    game.act(0, "draw")  # the block ends with the turn's draw


def test_TONK_VAR_4_only_the_owner_of_the_hit_spread_is_blocked() -> None:
    """TONK-VAR-4 (``tonk.hit-blocks-drop``): the player *whose spread* another player hit may
    not drop on their next turn. Three seats: seat 0 lays spread 1 (5H 6H 7H), seat 1 lays
    spread 2 (9S 10S JS), seat 2 hits spread 2 with QS. Seat 0's spread was not hit, so its
    next turn offers ``drop``; seat 1's was, so its next turn offers only ``draw``/``take`` and
    its drop is refused citing TONK-VAR-4.

    Kills the mutant that blocks the owner of the first spread on the table
    (``owner = state.owners[0]`` for ``state.owners[k]`` in ``logic.py``'s ``Hit`` branch);
    the existing tests only ever hit spread 1.
    """
    game = tonk(
        ["5H 6H 7H KC QD", "9S 10S JS KD 3D", "QS 2C 4C 8D 6C"],
        stock="AC JD JC 9H 10C 2S",
        rules=["tonk.hit-blocks-drop"],
    )
    game.act(0, "draw")  # AC
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    game.act(1, "draw")  # JD
    game.act(1, "spread 9S 10S JS")
    game.act(1, "discard KD")
    game.act(2, "draw")  # JC
    game.act(2, "hit 2 QS")  # seat 1's spread
    game.act(2, "discard JC")
    assert [str(a) for a in game.legal_actions(0)] == ["drop", "draw", "take"]
    game.act(0, "draw")  # 9H
    game.act(0, "discard 9H")
    assert [str(a) for a in game.legal_actions(1)] == ["draw", "take"]
    with pytest.raises(IllegalActionError, match="TONK-VAR-4"):
        game.act(1, "drop")


def test_TONK_VAR_2_the_discarding_players_own_hand_is_checked() -> None:
    """TONK-VAR-2 (``tonk.must-lay-down``): "If you have a spread, it is illegal to keep it in
    your hand; you must put it down" (checked at each discard, TONK-GAP-12). Two seats; seat 1,
    not seat 0, holds the book 5H 5S 5D. Seat 0 draws JH and discards it (its K Q 9 7 2 J of
    mixed suits hold no spread). Seat 1 draws 8C: discarding 8C, KD or 3C would keep the book
    in hand, so the only legal moves are laying the book or discarding one of the fives; the
    ``discard 8C`` is refused citing TONK-VAR-2, ``discard 5H`` passes the turn.

    Kills the mutant that reads seat 0's hand for every discard
    (``state.zones.cards[HAND0]`` for ``HAND0 + action.seat`` in ``must_lay_down.py``); the
    existing tests only ever had seat 0 hold the spread.
    """
    game = tonk(
        ["KC QD 9S 7H 2D", "5H 5S 5D KD 3C"], stock="JH 8C 4S", rules=["tonk.must-lay-down"]
    )
    game.act(0, "draw")  # JH
    game.act(0, "discard JH")
    game.act(1, "draw")  # 8C
    assert [str(a) for a in game.legal_actions(1)] == [
        "spread 5S 5H 5D",
        "discard 5S",
        "discard 5H",
        "discard 5D",
    ]
    with pytest.raises(IllegalActionError, match="TONK-VAR-2"):
        game.act(1, "discard 8C")
    game.act(1, "discard 5H")
    assert game.to_act == (0,)


_S = " ".join
_A10 = ["A", *(str(n) for n in range(2, 11))]


def _stock_out_position(discard: str, hand1: str) -> str:
    """A Tonk position at the start of seat 0's turn with an empty stock.

    The 42 cards not in hands (or on the discard pile) lie in four runs: A-10 of spades and
    hearts, A-J of diamonds and clubs; seat 0 holds the four kings and QS.
    """
    runs = _S(f"{r}{s}!" for s, ranks in (("S", _A10), ("H", _A10)) for r in ranks)
    runs += " " + _S(f"{r}{s}!" for s in "DC" for r in [*_A10, "J"])
    return (
        'tonk played=0 dealer=1 turn=0 phase="start" balances=[0,0] chance=1'
        " spreads=[[10,0],[10,1],[11,0],[11,1]]"
        f" | stock: | discard: {discard} | hand.0: KS KH KD KC QS | hand.1: {hand1}"
        f" | spreads: {runs}"
    )


def test_TONK_VAR_5_an_empty_discard_pile_ends_the_hand_with_the_stock() -> None:
    """TONK-VAR-5 (``tonk.stock-out-discard-only``): with the stock out, play goes on from the
    discards; its module says the hand ends as at stock exhaustion "when the discard pile is
    empty" too (nothing to take). So a turn with an empty stock *and* an empty discard pile
    cannot begin: such a position is refused like the base game's (TONK-STOCK-1), while one
    with a discard to take is a legal start (drop, draw = ask for the stock, take).

    Kills the mutant dropping ``or not state.zones.cards[DISCARD]`` from ``ends_hand`` (the
    turn then began with only ``drop``/``draw``). Unreachable in play (every turn ends with a
    discard), so it is pinned through the position notation.
    """
    rules = ["tonk.stock-out-discard-only"]
    ok = cardcore.new_game(
        "tonk", 2, rules=rules, position=_stock_out_position("JH!", "QH QD QC JS")
    )
    assert ok.to_act == (0,)
    assert [str(a) for a in ok.legal_actions(0)] == ["drop", "draw", "take"]
    empty = _stock_out_position("", "QH QD QC JS JH")
    with pytest.raises(OptionError, match="empty stock"):
        cardcore.new_game("tonk", 2, rules=rules, position=empty)
    with pytest.raises(OptionError, match="empty stock"):
        cardcore.new_game("tonk", 2, position=empty)
