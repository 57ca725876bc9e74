"""Hostile text through ``Game.act``: only NotationError or IllegalActionError, and nothing changes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcore
from cardcore.testing._util import fingerprint
from tests.fuzz.conftest import GAMES, position

WORDS = [
    "draw", "take", "discard", "replace", "flip", "peek", "knock", "drop", "spread", "hit", "play",
    "ready", "spit", "stuck", "combine", "move", "deal", "resign", "end", "L", "R", "l", "r",
    "5H", "10S", "JK", "QD", "AS", "1H", "11S", "ZZ", "0", "1", "2", "3", "-1", "99", "4294967296",
    "1e9", "½", "٣", "\u200b", "\x00", ",", ";", "--", "",
]  # fmt: skip

text_strategy = st.one_of(
    st.text(max_size=60),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 HSDCJKQALR-", max_size=30),
    st.text(min_size=190, max_size=260),
)


@pytest.mark.parametrize("name", GAMES)
@given(text=text_strategy, seat=st.integers(min_value=-2, max_value=4))
def test_fuzz_act_rejects_or_applies_a_legal_action(name: str, text: str, seat: int) -> None:
    game = position(name).clone()
    before = fingerprint(game)
    legal = set(game.legal_actions(seat)) if 0 <= seat < len(game.players) else set()
    try:
        action = game.act(seat, text)
    except (cardcore.NotationError, cardcore.IllegalActionError) as exc:
        assert fingerprint(game) == before
        assert str(exc) and not str(exc).endswith(".")
        return
    assert action in legal or isinstance(action, cardcore.Resign), (
        f"{text!r} applied {action!r}, not a legal action"
    )
    assert game.version == before[1] + 1


@pytest.mark.parametrize("name", GAMES)
@given(
    value=st.one_of(
        st.none(), st.integers(), st.floats(), st.binary(max_size=10), st.lists(st.text(max_size=3))
    )
)
def test_fuzz_act_rejects_non_text(name: str, value: object) -> None:
    game = position(name).clone()
    before = fingerprint(game)
    with pytest.raises(cardcore.NotationError):
        game.act(0, value)  # type: ignore[arg-type]
    assert fingerprint(game) == before
