"""Fixed action indices and observation shapes of the built-in encodings, and the generic fallback."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore.rl import GenericEncoding, Observer, aec_env, encoding_for, observe
from cardcore_tonk.encoding import spread_index
from cardcore_tonk.melds import spreads_of
from tests.rl.helpers import BUILT_IN, IDS, random_states


@pytest.mark.parametrize(("game", "players", "options"), BUILT_IN, ids=IDS)
def test_every_legal_action_has_its_own_fixed_index_named_by_its_notation(
    game: str, players: int, options: dict[str, Any]
) -> None:
    seen = 0
    for seed in range(10):
        encoding = None
        for g in random_states(game, players, options, seed, 400):
            if encoding is None:
                encoding = encoding_for(g)
                names = list(encoding.action_names())
                assert len(names) == encoding.actions
            for seat in range(players):
                legal = g.legal_actions(seat)
                if not legal:
                    continue
                out = observe(g, seat, encoding)
                indices = list(encoding.action_indices(g.view(seat), legal))
                assert all(0 <= i < encoding.actions for i in indices), "every action is covered"
                assert len(set(indices)) == len(indices)
                assert [names[i] for i in indices] == [str(a) for a in legal]
                assert sorted(np.flatnonzero(out["action_mask"]).tolist()) == sorted(indices)
                assert out["observation"].shape == (encoding.planes + encoding.scalars,)
                assert out["observation"].dtype == np.float32
                seen += 1
    assert seen >= 60


def test_action_space_sizes_are_documented() -> None:
    sizes = {
        (name, str(options)): encoding_for(cardcore.new_game(name, n, options=options, seed=0)).actions
        for name, n, options in [
            ("golf", 2, {}),
            ("golf", 2, {"layout": 10}),
            ("golf", 2, {"layout": 4}),
            ("tonk", 2, {}),
            ("spit", 2, {}),
            ("speed", 2, {}),
        ]
    }
    assert list(sizes.values()) == [22, 34, 16, 1157, 64, 107]


def test_tonk_indexes_every_spread_a_hand_of_six_can_lay() -> None:
    import itertools

    cards = list(range(52))
    count = 0
    for hand in itertools.islice(itertools.combinations(cards, 6), 0, None, 9973):
        for spread in spreads_of(list(hand)):
            assert spread_index(spread) >= 0
            count += 1
    assert count > 0
    assert spread_index([0, 4, 8, 12, 16, 20, 24]) == -1  # a seven-card run: more than a hand holds


def test_golf_observation_puts_the_observing_seat_first() -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    encoding = encoding_for(game)
    a = observe(game, 0, encoding)["observation"]
    b = observe(game, 1, encoding)["observation"]
    # both seats see both layouts face down at the start: the grids block is the same
    grid = 2 * 6 * 16
    assert np.array_equal(a[:grid], b[:grid])
    game.act(0, "flip 0")
    a = observe(game, 0, encoding)["observation"]
    b = observe(game, 1, encoding)["observation"]
    assert a[14] == 0 and b[14] == 1  # seat 0's position 0 is no longer hidden: first block for seat 0
    assert a[6 * 16 + 14] == 1 and b[6 * 16 + 14] == 0  # ... second block for seat 1


def test_the_generic_encoding_plays_a_game_without_its_own_with_the_i_th_legal_action() -> None:
    env = aec_env("gofish", 4)
    assert isinstance(env.config.encoding, GenericEncoding)
    env.reset(seed=3)
    obs, *_ = env.last()
    assert obs is not None
    legal = env.match.game.legal_actions(env.match.seat) if env.match else ()
    mask = obs["action_mask"]
    assert mask[: len(legal)].all() and not mask[len(legal) :].any()
    env.step(len(legal) - 1)
    assert env.match is not None and env.match.game.record_entries()[0][1] == legal[-1]


def test_the_generic_action_space_is_capped_by_max_legal_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cardcore.new_game("gofish", 4, seed=1)
    monkeypatch.setattr(type(game.logic), "max_legal", 3, raising=False)
    encoding = encoding_for(game)
    assert encoding.actions == 3
    legal = game.legal_actions(game.to_act[0])
    assert len(legal) > 3
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _obs, mask, choices = Observer(encoding).arrays(game, game.to_act[0], legal)
    assert mask.tolist() == [1, 1, 1] and list(choices.values()) == list(legal[:3])
    assert any("max_legal" in str(w.message) for w in caught)


def test_an_encoding_whose_names_and_count_differ_is_a_plugin_error() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    encoding = encoding_for(game)

    class Miscounted:  # a game author's slip: one action name too few
        planes, scalars, actions = encoding.planes, encoding.scalars, encoding.actions

        def action_names(self) -> list[str]:
            return list(encoding.action_names())[:-1]

    with pytest.raises(cardcore.PluginError, match=r"names .* actions but declares"):
        Observer(Miscounted())  # type: ignore[arg-type]
