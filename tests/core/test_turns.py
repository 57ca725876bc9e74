"""Building blocks: turn order and ending a game (:mod:`cardcore.turns`)."""

from __future__ import annotations

import pytest

from cardcore import ALL, Card, GameState, Layout, Result, Visibility, Zones, ZoneSpec
from cardcore.errors import ArgumentError
from cardcore.turns import end_game, next_seat, reveal_all, seats_from, team, winners_by

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


def test_seats_from_skips_seats_sitting_out() -> None:
    assert seats_from(3, 4, skip={1}) == (3, 0, 2)
    assert seats_from(0, 4, skip={2}) == (0, 1, 3)  # a partner sitting out a lone hand
    assert seats_from(1, 4, direction=-1, skip=(0,)) == (1, 3, 2)
    assert seats_from(2, 4, skip={2}) == (3, 0, 1)  # the first seat out too: order kept
    assert seats_from(0, 3, skip={0, 1, 2}) == ()
    assert seats_from(0, 4, skip=frozenset()) == (0, 1, 2, 3)


def test_trick_winner_seat_with_a_seat_sitting_out() -> None:
    from cardcore import parse_cards
    from cardcore.tricks import trick_winner

    order = seats_from(3, 4, skip={1})  # seat 3 led, 0 followed, 1 sits out, 2 last
    assert order[trick_winner(parse_cards("10H 2H AH"))] == 2  # not (3 + 2) % 4 == 1


@pytest.mark.parametrize("skip", [5, "12", b"1", None, 1.5])
def test_skip_must_be_a_collection_of_seats(skip: object) -> None:
    with pytest.raises(ArgumentError, match="skip must be a collection of seats"):
        seats_from(0, 4, skip=skip)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="skip must be a collection of seats"):
        next_seat(0, 4, skip=skip)  # type: ignore[arg-type]


def test_team_of_partners_sitting_alternately() -> None:
    assert [team(s, 4) for s in range(4)] == [(0, 2), (1, 3), (0, 2), (1, 3)]
    assert team(4, 6) == (0, 2, 4)  # two teams of three
    assert [team(s, 6, teams=3) for s in range(3)] == [(0, 3), (1, 4), (2, 5)]
    assert team(2, 3, teams=3) == (2,)  # every seat its own team
    assert team(0, 1, teams=1) == (0,)


@pytest.mark.parametrize(
    ("seat", "players", "teams", "words"),
    [
        (4, 4, 2, "seat must be a seat from 0 to 3, not 4"),
        (-1, 4, 2, "seat must be a seat from 0 to 3, not -1"),
        (0, 5, 2, "teams must be an int from 1 up that divides 5 players, not 2"),
        (0, 4, 0, "teams must be an int from 1 up that divides 4 players, not 0"),
        (0, 4, True, "teams must be an int"),
        (0, 4, 2.0, "teams must be an int"),
        (True, 4, 2, "seat must be an int"),
        (0, 65, 1, "players must be an int from 1 to 64"),
    ],
)
def test_team_refuses_what_is_no_team(
    seat: object, players: object, teams: object, words: str
) -> None:
    with pytest.raises(ArgumentError, match=words):
        team(seat, players, teams=teams)  # type: ignore[arg-type]
