"""Building blocks: turn order and ending a game (:mod:`cardcore.turns`)."""

from __future__ import annotations

import pytest

from cardcore import ALL, Card, GameState, Layout, Result, Visibility, Zones, ZoneSpec
from cardcore.turns import end_game, next_seat, reveal_all, seats_from, winners_by

LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
        ZoneSpec("pile", None, Visibility.TOP),
    ]
)


def test_next_seat_clockwise_counterclockwise_and_skips() -> None:
    assert [next_seat(s, 4) for s in range(4)] == [1, 2, 3, 0]
    assert [next_seat(s, 4, direction=-1) for s in range(4)] == [3, 0, 1, 2]
    assert next_seat(0, 4, skip={1, 2}) == 3
    assert next_seat(3, 4, skip={0}) == 1
    assert next_seat(1, 4, direction=-1, skip={0, 3}) == 2
    assert next_seat(2, 4, skip={0, 1, 3}) == 2  # the only seat left: its own turn again
    with pytest.raises(ValueError, match="every seat of 3 is skipped"):
        next_seat(0, 3, skip={0, 1, 2})


def test_seats_from_in_both_directions() -> None:
    assert seats_from(2, 4) == (2, 3, 0, 1)
    assert seats_from(0, 3, direction=-1) == (0, 2, 1)


def test_winners_by_lowest_or_highest_with_ties() -> None:
    assert winners_by([3, 1, 1]) == (1, 2)
    assert winners_by([3, 1, 3], lowest=False) == (0, 2)
    assert winners_by([0.5, 2.0]) == (0,)


def _state() -> GameState:
    st = GameState(2, {}, Zones(LAYOUT))
    for text in ("2S", "3S"):
        st.zones.put(0, Card.parse(text))
        st.zones.put(1, Card.parse(text.replace("S", "H")))
    st.zones.put(2, Card.parse("4D"))
    st.zones.put(2, Card.parse("5D"))
    st.to_act = (0,)
    return st


def test_end_game_reveals_sets_the_result_and_empties_to_act() -> None:
    st = _state()
    result = end_game(st, [1], [7, 3.5], "stock empty", payouts=[-1, 1])
    assert result == Result((1,), (7.0, 3.5), (-1, 1), "stock empty") and st.result is result
    assert st.is_over and st.to_act == ()
    assert all(m == ALL for seen in st.zones.seen for m in seen)
    assert st.zones.show(0, None) == ["3S", "2S"]


def test_end_game_without_reveal_and_reveal_all_of_some_piles() -> None:
    st = _state()
    end_game(st, (), [0, 0], "void", reveal=False)
    assert st.result is not None and st.result.payouts is None and st.result.winners == ()
    assert st.zones.show(0, None) == [None, None]
    reveal_all(st, [0])
    assert st.zones.show(0, 1) == ["3S", "2S"] and st.zones.show(0, None) == ["3S", "2S"]
    assert not st.zones.knows(1, 0, 1)  # the hand was left as it was
