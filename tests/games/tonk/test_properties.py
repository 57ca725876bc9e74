"""Hypothesis properties over random Tonk sessions (any rules, 2-4 players)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.games.tonk.helpers import cards_in, state_of

import cardcore
from cardcore.testing import assert_conserved

HOUSE = (
    "tonk.double-needs-spread",
    "tonk.hit-blocks-drop",
    "tonk.must-lay-down",
    "tonk.no-upcard",
    "tonk.stock-out-discard-only",
)

configs = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32),
        "players": st.integers(2, 4),
        "rules": st.lists(st.sampled_from(HOUSE), unique=True, max_size=5),
        "natural": st.booleans(),
        "drop_rate": st.sampled_from([0.0, 0.05, 0.3]),
    }
)


def _new(cfg: dict[str, object]) -> cardcore.Game:
    return cardcore.new_game(
        "tonk",
        cfg["players"],  # type: ignore[arg-type]
        seed=cfg["seed"],  # type: ignore[arg-type]
        rules=cfg["rules"],  # type: ignore[arg-type]
        without=() if cfg["natural"] else ("tonk.natural-49-50",),
        options={"hands": 2, "stake": 3, "max_players": 4},
    )


def _step(game: cardcore.Game, rng: random.Random, drop_rate: float) -> None:
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    assert legal, "a seat to act always has a legal action"
    if len(legal) > 1 and str(legal[0]) == "drop" and rng.random() >= drop_rate:
        legal = legal[1:]
    game.apply(legal[int(rng.random() * len(legal))])


@settings(max_examples=40, deadline=None)
@given(configs)
def test_random_sessions_end_and_payouts_sum_to_zero(cfg: dict[str, object]) -> None:
    game = _new(cfg)
    rng = random.Random(int(cfg["seed"]))  # type: ignore[call-overload]
    bound = game.logic.action_bound(len(game.players), game.options)
    steps = 0
    while not game.is_over:
        _step(game, rng, cfg["drop_rate"])  # type: ignore[arg-type]
        steps += 1
        assert steps < bound
    result = game.result
    assert result is not None and result.payouts is not None
    assert sum(result.payouts) == 0
    assert all(sum(amounts) == 0 for _, amounts in state_of(game).ledger.entries)
    assert all(a % 3 == 0 for _, amounts in state_of(game).ledger.entries for a in amounts)
    assert len(state_of(game).ledger.entries) == 2
    assert result.winners and all(result.payouts[w] == max(result.payouts) for w in result.winners)


@settings(max_examples=25, deadline=None)
@given(configs)
def test_every_card_in_exactly_one_place_after_every_action(cfg: dict[str, object]) -> None:
    game = _new(cfg)
    rng = random.Random(int(cfg["seed"]))  # type: ignore[call-overload]
    while not game.is_over:
        assert_conserved(game)
        _step(game, rng, cfg["drop_rate"])  # type: ignore[arg-type]
    assert_conserved(game)


@settings(max_examples=20, deadline=None)
@given(configs)
def test_views_hide_opponents_hands(cfg: dict[str, object]) -> None:
    game = _new(cfg)
    rng = random.Random(int(cfg["seed"]))  # type: ignore[call-overload]
    n = len(game.players)
    hidden_keys = frozenset({"taken"})
    while not game.is_over:
        zones = game.state.zones
        public = {str(c) for z in range(2 + n, len(zones.cards)) for c in zones.cards[z]}
        top = zones.top(1)
        if top is not None:
            public.add(str(top))
        for seat in range(n):
            view = game.view(seat)
            table = view["table"]
            own = {str(c) for c in zones.cards[2 + seat]}
            assert set(table["hand"]) == own
            assert table["hand_sizes"] == [len(zones.cards[2 + s]) for s in range(n)]
            assert cards_in(table, hidden_keys) <= own | public
        spectator = cards_in(game.view(None)["table"], hidden_keys)
        assert spectator <= public
        _step(game, rng, cfg["drop_rate"])  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None)
@given(configs)
def test_legal_fast_path_matches_the_general_path(cfg: dict[str, object]) -> None:
    """After a draw, the discards-only shortcut answers what the full listing would."""
    from cardcore_tonk.actions import _BIT_OF, _play_actions, legal_actions
    from cardcore_tonk.state import HAND0, PLAY

    game = _new(cfg)
    rng = random.Random(int(cfg["seed"]))  # type: ignore[call-overload]
    while not game.is_over:
        state = state_of(game)
        seat = game.to_act[0]
        if state.phase == PLAY:
            bits = sorted(_BIT_OF[id(c)] for c in state.zones.cards[HAND0 + seat])
            full = _play_actions(state, seat, bits, sum(bits))
            assert legal_actions(game.logic, state, seat) == full  # type: ignore[arg-type]
        _step(game, rng, cfg["drop_rate"])  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), unique=True, max_size=9))
def test_spread_test_by_mask_matches_spreads_of(cards: list[int]) -> None:
    from cardcore_tonk.actions import _BOOKS, _NO_BOOK
    from cardcore_tonk.melds import has_spread, spreads_of

    mask = sum(1 << x for x in cards)
    quick = bool(
        mask & (mask >> 4) & (mask >> 8) or mask.to_bytes(7, "little").translate(_BOOKS) != _NO_BOOK
    )
    assert quick == has_spread(mask) == bool(spreads_of(sorted(cards)))


def test_parse_action_table_matches_the_parser() -> None:
    """The text the engine writes reads back, through the table, as the parser reads it."""
    from cardcore_tonk import actions

    for seat, table in enumerate(actions._BY_TEXT):
        for text, action in table.items():
            assert str(action) == text
            assert actions.parse_action(seat, text) is action
            assert actions.parse_action(seat, f" {text.upper()} ") is action  # the general path
