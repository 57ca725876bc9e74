"""decks() and with_jokers() refuse counts that are not ints from 0 to MAX_DECKS with an
ArgumentError (before: TypeError for 1.5 or None, a negative count taken as 0, and
decks(10**9) building a billion-card tuple)."""

from __future__ import annotations

from typing import Any

import pytest

from cardcore import ArgumentError
from cardcore.deck import MAX_DECKS, decks, standard_52, with_jokers

BAD_COUNTS = [1.5, None, "2", -1, True, MAX_DECKS + 1, 10**9, 10**5000]


@pytest.mark.parametrize("n", BAD_COUNTS, ids=lambda n: type(n).__name__)
def test_bad_counts_are_argument_errors(n: Any) -> None:
    with pytest.raises(ArgumentError, match="must be an int from 0"):
        decks(n)
    with pytest.raises(ArgumentError, match="jokers_per_deck"):
        decks(1, jokers_per_deck=n)
    with pytest.raises(ArgumentError, match="jokers"):
        with_jokers(standard_52(), n)


def test_with_jokers_takes_a_sequence_of_cards() -> None:
    with pytest.raises(ArgumentError, match="sequence of cards"):
        with_jokers(5, 1)  # type: ignore[arg-type]
    assert len(with_jokers(standard_52(), 0)) == 52 and decks(0) == ()
