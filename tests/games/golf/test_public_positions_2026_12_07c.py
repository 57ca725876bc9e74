"""Golf's ``public`` view field: which layout positions every seat knows (GOLF4's taken discard).

A seat's own face-down card may be one it peeked at or drew (its own) or a discard it took
(everyone saw it): the grids alone cannot tell, so samples drawn from a view lost the
difference before the field existed.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cardcore
from cardcore import ALL, CardcoreError
from cardcore.search import sample_position, view_config


def _sample_game(view: dict[str, Any], seed: int) -> cardcore.Game:
    config = view_config(view)
    rng = random.Random(seed)
    return cardcore.new_game(
        config.game,
        config.players,
        rules=config.rules,
        without=config.without,
        options=config.options,
        position=sample_position(view, rng),
        seed=rng.getrandbits(32),
    )


def _after_take(layout: str, taker: int = 0) -> cardcore.Game:
    """Two seats; *taker* has just taken the discard into its layout."""
    game = cardcore.new_game("golf", 2, options={"layout": layout, "rounds": 1}, seed=3)
    rng = random.Random(1)
    for _ in range(60):
        seat = game.to_act[0]
        legal = [str(a) for a in game.legal_actions(seat)]
        if seat == taker and "take" in legal:
            game.act(seat, "take")
            game.act(seat, "replace 0")
            return game
        pick = [a for a in legal if a not in ("knock", "take")] or legal
        game.act(seat, pick[rng.randrange(len(pick))])
    raise AssertionError("no take")


def _public_by_masks(game: cardcore.Game) -> list[list[int]]:
    """The positions of each face-down layout whose card's mask is ALL, from the state itself
    (none in a face-up layout, whose known cards are those it shows)."""
    st = game.state
    out: list[list[int]] = []
    for owner, z in enumerate(st.plan.grid):
        if not st.plan.layout.face_down:
            out.append([])
            continue
        masks = st.zones.seen[z]
        slots = st.slots[owner]
        if slots is None:
            out.append([p for p, m in enumerate(masks) if m == ALL])
        else:
            out.append([p for p, i in enumerate(slots) if i >= 0 and masks[i] == ALL])
    return out


@pytest.mark.parametrize("layout", ["4", "4h"])
def test_a_taken_discard_is_public_in_every_view(layout: str) -> None:
    game = _after_take(layout)
    for seat in (0, 1, None):
        table = game.view(seat)["table"]
        assert table["public"][0] == [0]
        assert table["grids"][0][0] is not None  # every seat sees it
    assert game.view(1)["table"]["grids"][0][1:] == [None] * 3


@pytest.mark.parametrize("layout", ["4", "4h"])
def test_samples_keep_the_taken_discard_known_to_all(layout: str) -> None:
    game = _after_take(layout)
    view = json.loads(json.dumps(game.view(0)))
    real = game.view(1)["table"]
    for seed in range(5):
        sample = _sample_game(view, seed)
        assert sample.view(1)["table"]["grids"][0] == real["grids"][0]
        assert sample.view(0)["table"] == view["table"]


@pytest.mark.parametrize("layout", ["6", "8", "9", "10", "4", "4h"])
def test_public_names_exactly_the_cards_everyone_knows_through_random_play(layout: str) -> None:
    game = cardcore.new_game("golf", 3, options={"layout": layout, "rounds": 2}, seed=11)
    rng = random.Random(layout)
    for _ in range(120):
        if game.is_over:
            break
        expected = _public_by_masks(game)
        for seat in (0, 1, 2, None):
            table = game.view(seat)["table"]
            assert table["public"] == expected
            for owner, positions in enumerate(expected):
                assert all(table["grids"][owner][p] not in (None, "--") for p in positions)
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        game.act(seat, str(legal[rng.randrange(len(legal))]))


def test_a_view_without_the_field_still_samples() -> None:
    game = _after_take("4")
    view = json.loads(json.dumps(game.view(0)))
    del view["table"]["public"]
    sample = _sample_game(view, 0)
    assert sample.view(0)["table"]["grids"] == view["table"]["grids"]


@pytest.mark.parametrize(
    "bad",
    [
        "0",
        [[0]],  # one list for two seats
        [[0], [0, 0, 0, 0, 0]],
        [[9], []],  # beyond the layout
        [[-1], []],
        [[], [0]],  # a position the seat's view hides
        [[True], []],
        [["0"], []],
        [[0.0], []],
    ],
)
def test_a_malformed_public_field_is_the_views_error(bad: Any) -> None:
    game = _after_take("4")
    view = json.loads(json.dumps(game.view(0)))
    view["table"]["public"] = bad
    with pytest.raises(CardcoreError, match="not a golf view: 'public'"):
        sample_position(view, random.Random(0))
