"""Hostile text through ``Card.parse`` and ``parse_cards``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcore
from cardcore import Card, NotationError, parse_cards

ALL_TEXTS = sorted({str(c) for c in cardcore.decks(1, jokers_per_deck=1)})


@given(st.text(max_size=12))
def test_fuzz_card_parse_reads_a_card_or_raises_notation_error(text: str) -> None:
    try:
        card = Card.parse(text)
    except NotationError as exc:
        assert repr(text) in str(exc)
        return
    assert str(card) == text.strip().upper()
    assert Card.parse(str(card)) is card


@given(st.sampled_from(ALL_TEXTS), st.sampled_from(["", " ", "\t"]), st.booleans())
def test_fuzz_card_parse_accepts_every_card_in_any_case(text: str, pad: str, lower: bool) -> None:
    written = pad + (text.lower() if lower else text) + pad
    assert str(Card.parse(written)) == text


@given(
    st.one_of(
        st.none(), st.integers(), st.floats(), st.binary(max_size=4), st.lists(st.text(max_size=2))
    )
)
def test_fuzz_card_parse_rejects_non_text(value: object) -> None:
    with pytest.raises(NotationError):
        Card.parse(value)  # type: ignore[arg-type]


@given(st.lists(st.sampled_from(ALL_TEXTS), max_size=20), st.sampled_from([" ", ", ", ",", "  \n"]))
def test_fuzz_parse_cards_round_trips(texts: list[str], sep: str) -> None:
    cards = parse_cards(sep.join(texts))
    assert [str(c) for c in cards] == texts
    assert parse_cards(cards) == cards


@given(st.lists(st.one_of(st.sampled_from(ALL_TEXTS), st.text(max_size=4)), max_size=8))
def test_fuzz_parse_cards_reads_all_or_raises(items: list[str]) -> None:
    try:
        cards = parse_cards(items)
    except NotationError:
        assert any(_bad(t) for t in items)
        return
    assert len(cards) == len(items)


def _bad(text: str) -> bool:
    try:
        Card.parse(text)
    except NotationError:
        return True
    return False
