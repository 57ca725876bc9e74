"""Fixes from this session's reviews (2026-12-08): each test fails on the code before its fix."""

from __future__ import annotations

from decimal import Decimal

import pytest

import cardcore
from cardcore import ArgumentError, PluginError, Result
from cardcore._faults import result_fault
from cardcore.turns import end_game, winners_by


@pytest.mark.parametrize("scores", [{5, 1}, frozenset({2, 7}), {0: 1, 1: 2}, [1j], [1j, 2j]])
def test_winners_by_refuses_scores_without_an_order_of_seats_or_not_real(scores: object) -> None:
    with pytest.raises(ArgumentError, match="winners_by takes one number per seat"):
        winners_by(scores)  # type: ignore[arg-type]


def test_winners_by_still_reads_lists_tuples_arrays_and_decimals() -> None:
    assert winners_by([3, 1, 1]) == (1, 2)
    assert winners_by((3.5, 1, 3.5), lowest=False) == (0, 2)
    assert winners_by([True, False]) == (1,)
    assert winners_by([Decimal(2), Decimal(1)]) == (1,)  # a number, if not a numbers.Real


def fresh_state() -> cardcore.GameState:
    return cardcore.new_game("golf", 2, seed=1).clone().state


@pytest.mark.parametrize(
    ("scores", "payouts", "reason"),
    [
        ({2, 1}, None, "out"),
        (frozenset({2, 1}), None, "out"),
        ([2, 1], {3, -3}, "out"),
        ([2, 1], None, ""),
        ([2, 1], None, 5),
        ([2, 1], None, None),
    ],
)
def test_end_game_refuses_unordered_scores_or_payouts_and_a_reason_that_is_no_word(
    scores: object, payouts: object, reason: object
) -> None:
    state = fresh_state()
    before = (state.is_over, state.to_act, state.result)
    with pytest.raises(ArgumentError, match="end_game takes"):
        end_game(state, [0], scores, reason, payouts=payouts)  # type: ignore[arg-type]
    assert (state.is_over, state.to_act, state.result) == before  # nothing changed


def test_end_game_still_ends_with_a_list_of_scores_and_a_reason() -> None:
    state = fresh_state()
    result = end_game(state, (1,), [4, 2], "rounds", payouts=[-2, 2])
    assert result == Result((1,), (4.0, 2.0), (-2, 2), "rounds")
    assert state.is_over and state.to_act == ()


def test_a_result_with_an_empty_reason_is_a_fault_the_position_reader_would_refuse() -> None:
    assert result_fault(Result((0,), (1.0, 2.0), None, "out"), 2) is None
    fault = result_fault(Result((0,), (1.0, 2.0), None, ""), 2)
    assert fault is not None and "Result.reason" in fault
    with pytest.raises(cardcore.OptionError):
        cardcore.positions.read_result(
            {"winners": [0], "scores": [1.0, 2.0], "payouts": None, "reason": ""}, 2
        )


def test_a_game_ending_with_an_empty_reason_is_refused_and_put_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The core's check at the end (a game whose own code sets the result, not end_game)."""
    game = cardcore.new_game("golf", 2, seed=3)
    inner = game._logic_apply

    def ends_silently(state: cardcore.GameState, action: object, emit: object) -> object:
        out = inner(state, action, emit)
        state.is_over, state.to_act = True, ()
        state.result = Result((0,), (0.0, 0.0), None, "")
        return out

    version, saved = game.version, game.save()
    monkeypatch.setattr(game, "_logic_apply", ends_silently)
    with pytest.raises(PluginError, match=r"Result\.reason"):
        game.apply(game.legal_actions(0)[0])
    assert game.version == version and not game.is_over and game.save() == saved


@pytest.mark.parametrize("name", ["my pile", "a|b", "a:b", "tab\there", "end\n"])
def test_write_position_refuses_a_pile_name_it_could_not_read_back(name: str) -> None:
    from cardcore.positions import write_position
    from cardcore.zones import Layout, Zones, ZoneSpec

    zones = Zones(Layout.of([ZoneSpec("stock"), ZoneSpec(name)]))
    with pytest.raises(cardcore.OptionError, match="a pile's name in a position"):
        write_position("demo", {}, zones)
    with pytest.raises(cardcore.OptionError):  # asked again: not remembered as fine
        write_position("demo", {}, zones)


def test_write_position_still_writes_dotted_pile_names_that_read_back() -> None:
    from cardcore.positions import read_position, write_position
    from cardcore.zones import Layout, Zones, ZoneSpec

    layout = Layout.of([ZoneSpec("grid.0.1"), ZoneSpec("x-y_z@2")])
    zones = Zones(layout)
    zones.put(0, cardcore.Card.parse("AS"))
    text = write_position("demo", {}, zones)
    assert text == "demo | grid.0.1: AS | x-y_z@2:"
    _, read = read_position(text, "demo", layout, (cardcore.Card.parse("AS"),), 2)
    assert list(read.cards[0]) == [cardcore.Card.parse("AS")]
