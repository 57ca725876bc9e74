from __future__ import annotations

import pytest

from cardcore import ArgumentError, Card, Ledger, ScoreSheet, ScoreTable
from cardcore.scoring import LedgerError


def test_score_table_by_rank_and_card() -> None:
    table = ScoreTable.face_values(king=0, joker=-2)
    assert (
        table[Card.parse("KS")] == 0
        and table[Card.parse("10D")] == 10
        and table[Card.parse("JK")] == -2
    )
    bonus = table.replace({"JH": -2, "2": -2})
    assert (
        bonus[Card.parse("JH")] == -2
        and bonus[Card.parse("JC")] == 10
        and bonus[Card.parse("2D")] == -2
    )
    assert table[Card.parse("2D")] == 2  # the original is unchanged
    assert bonus.total([Card.parse("JH"), Card.parse("5C")]) == 3
    assert bonus.as_dict()["JH"] == -2


def test_score_table_unscored_rank_raises() -> None:
    table = ScoreTable.from_ranks({"A": 1})
    with pytest.raises(KeyError):
        table[Card.parse("2S")]


def test_score_sheet_totals() -> None:
    sheet = ScoreSheet(3)
    sheet.add_round([1, 2, 3])
    sheet.add_round([10, 0, -2])
    assert sheet.totals == [11, 2, 1] and sheet.rounds == [(1, 2, 3), (10, 0, -2)]
    copy = sheet.clone()
    copy.add_round([1, 1, 1])
    assert sheet.totals == [11, 2, 1]
    with pytest.raises(ArgumentError, match="3 numbers, one per seat"):
        sheet.add_round([1])
    assert sheet.totals == [11, 2, 1]


def test_ledger_sums_to_zero() -> None:
    ledger = Ledger(3)
    ledger.post([4, -2, -2], "tonk")
    ledger.pay(payer=0, payee=2, amount=1, reason="caught")
    assert ledger.totals == [3, -2, -1] and sum(ledger.totals) == 0
    with pytest.raises(LedgerError, match="sum to zero"):
        ledger.post([1, 0, 0], "bad")
    assert ledger.totals == [3, -2, -1]
    assert ledger.snapshot()["entries"][0] == ["tonk", [4, -2, -2]]
    copy = ledger.clone()
    copy.post([1, -1, 0], "x")
    assert ledger.totals == [3, -2, -1]


def test_score_table_from_points_asks_once_per_distinct_card() -> None:
    asked: list[Card] = []

    def points(card: Card) -> int | None:
        asked.append(card)
        return None if card.rank.label == "Q" else min(int(card.rank), 10)

    cards = [Card.parse(t) for t in ("KH", "KH", "QS", "2D", "JK")]
    table = ScoreTable.from_points(points, cards, default=7)
    assert len(asked) == 4  # duplicates asked once
    assert table[Card.parse("KH")] == 10 and table[Card.parse("2D")] == 2
    assert table[Card.parse("QS")] == 7  # not valued: the default
    assert table.total(cards) == 10 + 10 + 7 + 2 + 0
    with pytest.raises(KeyError):
        table[Card.parse("3C")]  # not a card of the game
