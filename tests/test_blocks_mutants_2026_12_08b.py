"""Mutation review of the game author's building blocks (2026-12-08b).

cardcore.tricks, cardcore.turns, cardcore.notation and cardcore.positions: each test
here kills a mutant the existing tests let live, pins a claim of a docstring or of
docs/api.rst ("Building blocks for games"), or (strict xfail) records where the code
contradicts them.
"""

from __future__ import annotations

import enum
import re
from typing import ClassVar

import attrs
import pytest
from attrs import frozen

from cardcore import (
    Action,
    ArgumentError,
    Card,
    GameState,
    Layout,
    NotationError,
    OptionError,
    Suit,
    Visibility,
    Zones,
    ZoneSpec,
    dealing,
    parse_cards,
)
from cardcore.notation import ActionParser, parse_int
from cardcore.positions import check, read_field, read_position, refused, writable, write_position
from cardcore.tricks import following, trick_winner
from cardcore.turns import end_game, next_seat, reveal_all, seats_from, team, winners_by


class _BadIndex:
    """A number-like whose ``__index__`` fails with ValueError (not TypeError)."""

    def __index__(self) -> int:
        raise ValueError("no index today")


# -- tricks ---------------------------------------------------------------------------------


def test_following_checks_suit_of_on_a_lead_too() -> None:
    """``following(hand, None, suit_of=5)``: a suit_of that is no function is refused on a
    lead as well (it is only not *called* there)."""
    hand = parse_cards("KH 2S")
    with pytest.raises(ArgumentError, match="suit_of"):
        following(hand, None, suit_of=5)  # type: ignore[arg-type]
    calls: list[Card] = []
    assert following(hand, None, suit_of=lambda c: calls.append(c) or c.suit) == tuple(hand)
    assert calls == []  # not called on a lead


def test_trick_winner_reads_the_lead_suit_through_suit_of() -> None:
    """Euchre, hearts trumps, no trump passed: the left bower (JD) led leads hearts, so the
    ace of diamonds does not follow and the bower wins over 2H."""

    def suit_of(card: Card) -> Suit | None:
        return Suit.HEARTS if str(card) == "JD" else card.suit

    assert trick_winner(parse_cards("JD AD 2H"), suit_of=suit_of) == 0
    assert trick_winner(parse_cards("JD AD 2H QH"), suit_of=suit_of) == 3


def test_suit_of_may_answer_none_for_a_joker() -> None:
    """suit_of answering ``None`` (no suit: a joker) is allowed, in both functions."""

    def printed(card: Card) -> Suit | None:
        return card.suit

    plays = parse_cards("JK 2H JK")
    assert trick_winner(plays, suit_of=printed, order=lambda c: 1) == 0  # a joker lead
    hand = parse_cards("JK 9H")
    assert following(hand, Suit.HEARTS, suit_of=printed) == (hand[1],)
    assert following(hand, Suit.CLUBS, suit_of=printed) == tuple(hand)


def test_order_is_asked_only_about_cards_that_could_win() -> None:
    """``order`` that knows only the suit led (and fails on any other card) still names the
    winner: cards neither of the suit led nor trumps are never asked."""
    strengths = {"2H": 2, "9H": 9, "AH": 14}

    def order(card: Card) -> int:
        return strengths[str(card)]  # KeyError for an off-suit card

    assert trick_winner(parse_cards("2H KS 9H 3C"), order=order) == 2
    with pytest.raises(ArgumentError, match="order failed for card KS"):
        trick_winner(parse_cards("2H KS"), order=order, trump=Suit.SPADES)


def test_a_failing_suit_of_is_an_argument_error_whatever_it_raises() -> None:
    def suit_of(card: Card) -> Suit | None:
        raise KeyError(str(card))

    with pytest.raises(ArgumentError, match="suit_of failed for card"):
        trick_winner(parse_cards("2H 3H"), suit_of=suit_of)
    with pytest.raises(ArgumentError, match="suit_of failed for card"):
        following(parse_cards("2H 3H"), Suit.HEARTS, suit_of=suit_of)


def test_an_order_whose_index_fails_with_value_error_is_refused() -> None:
    with pytest.raises(ArgumentError, match="no whole-number strength"):
        trick_winner(parse_cards("2H 3H"), order=lambda c: _BadIndex())


# -- turns ----------------------------------------------------------------------------------


@pytest.mark.parametrize("direction", [0, 2, -2])
def test_direction_other_than_one_or_minus_one_is_refused(direction: int) -> None:
    with pytest.raises(ArgumentError, match="direction"):
        next_seat(0, 4, direction=direction)
    with pytest.raises(ArgumentError, match="direction"):
        seats_from(0, 4, direction=direction)


@pytest.mark.parametrize("bad", [True, _BadIndex(), 1.0])
def test_skip_holding_no_seat_is_refused(bad: object) -> None:
    """A bool is no seat (True would read as 1); an ``__index__`` failing with ValueError
    is an ArgumentError too."""
    with pytest.raises(ArgumentError, match="skip must hold seats"):
        seats_from(0, 3, skip=[bad])  # type: ignore[list-item]
    with pytest.raises(ArgumentError, match="skip must hold seats"):
        next_seat(0, 3, skip=[bad])  # type: ignore[list-item]


def _state() -> GameState:
    layout = Layout.of(
        [ZoneSpec("stock"), ZoneSpec("hand.0", 0, Visibility.OWNER), ZoneSpec("hand.1", 1)]
    )
    state = GameState(2, {}, Zones(layout))
    dealing.fill_stock(state, 0, list(reversed(parse_cards("AS 2S 3S 4S"))))
    dealing.deal_round_robin(state, 0, [1, 2], 1)
    return state


@pytest.mark.parametrize("zones", [[0.0], [1, 0.0], [True], ["0"]])
def test_reveal_all_refuses_pile_ids_that_are_not_ints_and_turns_nothing(zones: list) -> None:
    state = _state()
    before = [list(s) for s in state.zones.seen]
    with pytest.raises(ArgumentError, match="pile ids"):
        reveal_all(state, zones)
    assert [list(s) for s in state.zones.seen] == before


@pytest.mark.parametrize("scores", [[1, float("nan")], [2, 1, float("nan")]])
def test_winners_by_refuses_nan_anywhere(scores: list) -> None:
    """NaN is no score (the docstring), also when it is not the first, where ``min``
    would skip it."""
    with pytest.raises(ArgumentError, match="NaN"):
        winners_by(scores)
    with pytest.raises(ArgumentError, match="NaN"):
        winners_by(scores, lowest=False)


def test_winners_by_refuses_a_mapping() -> None:
    """A mapping's keys are no scores: ``{0: 3, 1: 1}`` is refused, not read as (0, 1)."""
    with pytest.raises(ArgumentError):
        winners_by({0: 3, 1: 1})  # type: ignore[arg-type]


def test_end_game_refuses_payouts_in_a_mapping_and_changes_nothing() -> None:
    state = _state()
    seen = [list(s) for s in state.zones.seen]
    with pytest.raises(ArgumentError, match="end_game takes"):
        end_game(state, [0], [1, 2], "out", payouts={0: 5, 1: -5})  # type: ignore[arg-type]
    assert (state.is_over, state.result) == (False, None)
    assert [list(s) for s in state.zones.seen] == seen


def test_end_game_with_every_number_a_plain_int_still_refuses_text_payouts() -> None:
    with pytest.raises(ArgumentError):
        end_game(_state(), [0], [1, 2], "out", payouts=["1", "2"])  # type: ignore[list-item]
    result = end_game(_state(), (1,), (3, 2.5), "out", payouts=(-1, 1))
    assert (result.winners, result.scores, result.payouts) == ((1,), (3.0, 2.5), (-1, 1))


def test_team_and_next_seat_claims() -> None:
    """The docstrings' examples, and the edges: the only seat not skipped is the seat itself."""
    assert team(1, 4) == (1, 3)
    assert team(0, 6, teams=3) == (0, 3)
    assert next_seat(0, 3, skip={1, 2}) == 0
    assert seats_from(0, 3, direction=-1, skip={2}) == (0, 1)


def test_next_seat_every_seat_skipped_is_a_value_error_not_a_cardcore_error() -> None:
    """Documented (``:raises ValueError:``), though the building blocks otherwise refuse
    with cardcore errors; seats_from answers ``()`` instead. Pinned as documented."""
    with pytest.raises(ValueError, match="every seat of 2 is skipped") as info:
        next_seat(0, 2, skip={0, 1})
    assert not isinstance(info.value, ArgumentError)
    assert seats_from(0, 2, skip={0, 1}) == ()


# -- notation -------------------------------------------------------------------------------


@pytest.mark.parametrize("word", [5, b"12", None, ["1"]])
def test_parse_int_refuses_what_is_not_text(word: object) -> None:
    """``parse_int(b"12")`` would be 12 if only the digits were checked."""
    with pytest.raises(NotationError, match="as text"):
        parse_int(word)  # type: ignore[arg-type]


@frozen
class _Knock(Action):
    verb: ClassVar[str] = "knock"

    def notation(self) -> str:
        return "knock"


@frozen
class _Peek(Action):
    """An action with a field the parser must not read (``init=False``)."""

    pos: int
    note: str = attrs.field(init=False, default="-")
    verb: ClassVar[str] = "peek"

    def notation(self) -> str:
        return f"peek {self.pos}"


def test_a_field_not_in_init_is_not_read() -> None:
    parser = ActionParser([_Peek])
    action = parser.parse(1, "peek 3")
    assert (action.seat, action.pos, action.note) == (1, 3, "-")
    with pytest.raises(NotationError):
        parser.parse(1, "peek 3 x")


def test_a_verb_with_surrounding_space_is_refused() -> None:
    @frozen
    class Spaced(Action):
        verb: ClassVar[str] = " draw"

        def notation(self) -> str:
            return "draw"

    with pytest.raises(TypeError, match="one word"):
        ActionParser([Spaced])


@pytest.mark.parametrize("seat", [True, 1.0, "0", -1])
def test_parse_refuses_a_seat_that_is_no_seat_number(seat: object) -> None:
    with pytest.raises(ArgumentError, match="seat number"):
        ActionParser([_Knock]).parse(seat, "knock")  # type: ignore[arg-type]


def test_parse_refuses_any_non_text_with_notation_error() -> None:
    """An object whose ``split`` needs an argument (a compiled pattern) is no text either."""
    parser = ActionParser([_Knock])
    for text in (re.compile("knock"), 5, None):
        with pytest.raises(NotationError, match="expected action text"):
            parser.parse(0, text)  # type: ignore[arg-type]


# -- positions ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["a|b", "|", "two words", "", "tab\tbed"])
def test_write_position_refuses_a_game_name_it_could_not_read_back(game: str) -> None:
    with pytest.raises(OptionError, match="game's name"):
        write_position(game, {}, _state().zones)


def test_refused_keeps_a_message_of_exactly_400_characters_whole() -> None:
    """ "A message longer than 400 characters ... is cut": 400 is not longer."""
    whole = "x" * 400
    assert str(refused(whole)) == f"bad position: {whole} (CORE-POSITION-1)"
    cut = str(refused("x" * 401))
    assert " ... " in cut and "x" * 380 not in cut.replace(" ... ", "")


def test_refused_cut_drops_a_citation_too_long_to_be_a_rule() -> None:
    """A long message "citing" more than 100 characters of rule IDs is cut as one without a
    citation (the code's own bound), and cites CORE-POSITION-1."""
    ids = ", ".join(f"GAME-LONGRULE-{i}" for i in range(10))
    err = refused("x" * 500 + f" ({ids})")
    assert str(err).endswith(" ... (CORE-POSITION-1)")
    assert len(str(err)) <= len("bad position: ") + 400
    short = refused("x" * 500 + " (GOLF-A-1)")
    assert str(short).endswith(" ... (GOLF-A-1)") and len(str(short)) <= len("bad position: ") + 400


class _Undecided:
    def __bool__(self) -> bool:
        raise ValueError("truth of an array is ambiguous")


def test_check_with_an_undecided_truth_fails_the_check() -> None:
    """``check(ok, ...)`` whose *ok* cannot say true or false (an array) refuses with
    OptionError, never the raw error."""
    with pytest.raises(OptionError, match=r"bad position: hand\.1 is odd \(CORE-POSITION-1\)"):
        check(_Undecided(), "hand.{} is odd", 1)
    check(1, "never {}")  # a true ok: nothing


class _Seat(enum.IntEnum):
    NORTH = 0


class _Name(str):
    pass


def test_writable_takes_the_json_scalars_themselves_not_their_subclasses() -> None:
    """An IntEnum or a str subclass would come back from a position as a plain int or str
    (read_field compares exact types), so writable says no."""
    assert [writable(v) for v in (True, 0, 1.5, "a", None)] == [True] * 5
    assert writable(_Seat.NORTH) is False
    assert writable(_Name("a")) is False


def test_read_field_to_act_takes_any_number_of_seats() -> None:
    """docstring: to_act takes a list of scalars of any length whatever the blank value
    holds, and comes back a tuple."""
    assert read_field("to_act", [1, 0], (0,)) == (1, 0)
    assert read_field("to_act", [], [0]) == ()
    assert read_field("to_act", [2], []) == (2,)
    with pytest.raises(OptionError, match="turn"):
        read_field("turn", [1, 0], (0,))  # any other per-seat field: as long as the default


@pytest.mark.parametrize("problem", ["a {name} b", "a { b", "a {3} b"])
def test_check_with_a_problem_its_args_do_not_fill_still_refuses(problem: str) -> None:
    with pytest.raises(OptionError, match=r"bad position: .*a .* b"):
        check(False, problem, 1)


@pytest.mark.parametrize(
    ("value", "default"),
    [(10**16, 0), (-(10**16), 0.0), (1e16, None), ([10**16], [0]), ([0, -(10**16)], ())],
)
def test_read_field_refuses_numbers_beyond_10_to_the_15(value: object, default: object) -> None:
    with pytest.raises(OptionError, match=r"10\*\*15"):
        read_field("x", value, default)
    assert read_field("x", 10**15, 0) == 10**15


def _layout() -> Layout:
    return Layout.of([ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.TOP)])


def _written(deck: list[Card]) -> str:
    state = GameState(2, {}, Zones(_layout()))
    dealing.fill_stock(state, 0, list(deck))
    return write_position("demo", {}, state.zones)


def test_read_position_checks_every_card_of_the_deck_given() -> None:
    """The claim held for fresh decks: one card short or one too many is refused."""
    deck = parse_cards("AS 2S 3S")
    text = _written(list(deck))
    fields, zones = read_position(text, "demo", _layout(), deck, 2)
    assert (fields, zones.cards[0]) == ({}, list(deck))
    with pytest.raises(OptionError, match=r"missing \['4S'\]"):
        read_position(text, "demo", _layout(), [*deck, Card.parse("4S")], 2)
    with pytest.raises(OptionError, match=r"extra \['3S'\]"):
        read_position(text, "demo", _layout(), list(deck[:2]), 2)


def test_read_position_sees_a_deck_list_changed_in_place() -> None:
    deck = list(parse_cards("AS 2S 3S"))
    text = _written(deck)
    read_position(text, "demo", _layout(), deck, 2)  # fills the cache
    deck.append(Card.parse("4S"))  # the same list, a card more
    with pytest.raises(OptionError, match=r"missing \['4S'\]"):
        read_position(text, "demo", _layout(), deck, 2)


@pytest.mark.parametrize("players", [0, 65, True])
def test_read_position_refuses_a_player_count_beyond_1_to_64(players: object) -> None:
    deck = parse_cards("AS 2S 3S")
    with pytest.raises(ArgumentError, match="players"):
        read_position(_written(list(deck)), "demo", _layout(), deck, players)  # type: ignore[arg-type]


def test_read_position_refuses_a_deck_that_holds_no_card() -> None:
    deck = parse_cards("AS 2S 3S")
    with pytest.raises(ArgumentError, match="list of cards"):
        read_position(_written(list(deck)), "demo", _layout(), [*deck[:2], "3S"], 2)  # type: ignore[list-item]
