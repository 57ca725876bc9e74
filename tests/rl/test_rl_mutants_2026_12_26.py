"""Mutation audit of the reinforcement-learning layer (2026-12-26).

Each test here pins a behaviour that a hand-made mutant of ``src/cardcore/rl`` or of a
game's encoding (``plugins/cardcore_*/encoding.py``) changed, most of them without any
earlier test failing (a few pin more directly what only a distant test caught). The
observation tests rebuild every documented position and scalar from the
seat's view table, following the encodings' module docstrings, and compare the whole
array: a swapped plane, an absolute seat where a relative one is documented, or a
dropped scalar shows.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore.rl import (
    GenericEncoding,
    aec_env,
    encoding_for,
    gym_env,
    observe,
    seat_view,
    vector_env,
)
from tests.rl.helpers import random_states

_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(r): r for r in range(2, 11)}}
_SUITS = "SHDC"


def _rank(card: str) -> int:
    """1 (ace) .. 13 (king); 0 for a joker."""
    return 0 if card.startswith("JK") else _RANKS[card[:-1]]


def _states(
    name: str, players: int, options: dict[str, Any], seeds: range, steps: int, every: int
) -> Iterator[cardcore.Game]:
    for seed in seeds:
        for game in random_states(name, players, options, seed, steps):
            if game.version % every == 0 or game.is_over:
                yield game


def _expected(planes: int, hot: list[int], scalars: list[float]) -> np.ndarray:
    out = np.zeros(planes + len(scalars), dtype=np.float32)
    for i in hot:
        out[i] += 1
    out[planes:] = scalars
    return out


def _check(game: cardcore.Game, seat: int, expected: np.ndarray, encoding: Any) -> None:
    got = observe(game, seat, encoding)["observation"]
    assert got.shape == expected.shape
    diff = np.flatnonzero(~np.isclose(got, expected))
    assert diff.size == 0, (
        f"{game.name} v{game.version} seat {seat}: positions {diff[:8].tolist()} differ:"
        f" got {got[diff[:8]].tolist()}, documented {expected[diff[:8]].tolist()}"
    )


# -- Golf ------------------------------------------------------------------------------------


def _golf_expected(game: cardcore.Game, seat: int) -> np.ndarray:
    """The documented Golf observation (cardcore_golf.encoding's module docstring)."""
    n = len(game.players)
    table = game.view(seat)["table"]
    plan = game.logic.plan(n, game.options)
    points = {str(c): plan.points[c] for c in game.logic.deck(n, game.options)}
    deck = float(len(game.logic.deck(n, game.options)))
    size = len(table["grids"][0])
    rounds = game.options.get("rounds") or 0
    hot: list[int] = []
    sc: list[float] = []
    base = 0
    for r in range(n):
        for card in table["grids"][(seat + r) % n]:
            if card is None:
                hot.append(base + 14)
                sc.append(0.0)
            elif card == "--":
                hot.append(base + 15)
                sc.append(0.0)
            else:
                hot.append(base + _rank(card))
                sc.append(points[card] / 10)
            base += 16
    top = table["discard"]
    hot.append(base + (14 if top is None else _rank(top)))
    sc.append(0.0 if top is None else points[top] / 10)
    base += 15
    held = table["held"]
    if held is None:
        hot.append(base + 14)
        sc.append(0.0)
    elif held["card"] is None:
        hot.append(base + 15)
        sc.append(0.0)
    else:
        hot.append(base + _rank(held["card"]))
        sc.append(points[held["card"]] / 10)
    base += 16
    hot.append(base + ["setup", "draw", "place", "over"].index(table["phase"]))
    base += 4
    for who in (table["turn"], table["ender"]):
        hot.append(base + (n if who is None else (who - seat) % n))
        base += n + 1
    assert base == n * size * 16 + 15 + 16 + 4 + 2 * (n + 1)
    sc.append(table["stock"] / deck)
    sc.append(table["discards"] / deck)
    sc.append(table["round"] / rounds if rounds else 0.0)
    left = table["final_turns_left"]
    # the docstring says "final turns left (over n)"; the encoding adds one, so that no final
    # turn left (0) differs from outside the final turns (None, 0.0)
    sc.append(0.0 if left is None else (left + 1) / n)
    sc.extend(table["totals"][(seat + r) % n] / 100 for r in range(n))
    return _expected(base, hot, sc)


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {"rounds": 2}), (3, {"rounds": 1}), (3, {"layout": 4, "rounds": 1})],
    ids=["golf6-2p", "golf6-3p", "golf4-3p"],
)
def test_golf_observation_is_exactly_the_documented_layout_for_every_seat(
    players: int, options: dict[str, Any]
) -> None:
    seen = {"held unseen": 0, "ender": 0, "final": 0, "relative": 0}
    encoding = None
    for game in _states("golf", players, options, range(2), 300, 3):
        encoding = encoding or encoding_for(game)
        table = game.view(None)["table"]
        seen["ender"] += table["ender"] is not None
        seen["final"] += table["final_turns_left"] is not None
        for seat in range(players):
            held = game.view(seat)["table"]["held"]
            seen["held unseen"] += held is not None and held["card"] is None
            seen["relative"] += seat > 0 and any(table["totals"])
            _check(game, seat, _golf_expected(game, seat), encoding)
    if options.get("layout") == 4:
        assert seen["held unseen"] > 0
    assert seen["ender"] > 0 and seen["final"] > 0
    if options["rounds"] > 1:
        assert seen["relative"] > 0


# -- Spit ------------------------------------------------------------------------------------


def _spit_expected(game: cardcore.Game, seat: int) -> np.ndarray:
    """The documented Spit observation (cardcore_spit.encoding's module docstring)."""
    table = game.view(seat)["table"]
    stall_limit = float(game.options["stall_limit"])
    hot: list[int] = []
    sc: list[float] = []
    per_seat: list[float] = []
    base = 0
    for r in (0, 1):
        entry = table["seats"][(seat + r) % 2]
        assert len(entry["layout"]) == 5
        for pile in entry["layout"]:
            top = pile[0] if pile else None
            hot.append(base + (13 if top is None else _rank(top) - 1))
            sc.append(len(pile) / 13)
            sc.append(sum(c is None for c in pile) / 13)
            base += 14
        per_seat += [
            entry["spit_cards"] / 26,
            entry["cards"] / 52,
            float(entry["ready"]),
            float(entry["requested"]),
        ]
    sc += per_seat
    for side in ("L", "R"):
        cards = table["piles"][side] or []
        hot.append(base + (13 if not cards else _rank(cards[0]) - 1))
        sc.append(len(cards) / 52)
        base += 14
    hot.append(base + ["setup", "play", "claim", "over"].index(table["phase"]))
    base += 4
    emptier = table["emptier"]
    hot.append(base + (2 if emptier is None else (emptier - seat) % 2))
    base += 3
    hot.append(base + seat)
    base += 2
    sc.append(1.0 if table["mode"] == "single-pile" else 0.0)
    sc.append(table["stall"] / stall_limit)
    sc.append(table["deal"] / 10)
    return _expected(base, hot, sc)


def test_spit_observation_is_exactly_the_documented_layout_for_both_seats() -> None:
    seen = {"claim": 0, "requested": 0, "single": 0, "emptier": 0}
    encoding = None
    for game in _states("spit", 2, {}, range(3), 600, 4):
        encoding = encoding or encoding_for(game)
        table = game.view(None)["table"]
        seen["claim"] += table["phase"] == "claim"
        seen["single"] += table["mode"] == "single-pile"
        seen["emptier"] += table["emptier"] is not None
        seen["requested"] += any(e["requested"] != e["ready"] for e in table["seats"])
        for seat in (0, 1):
            _check(game, seat, _spit_expected(game, seat), encoding)
    assert seen["emptier"] > 0 and seen["requested"] > 0


# -- Tonk ------------------------------------------------------------------------------------


def _tonk_index(card: str) -> int:
    """0..51 by rank, then suit S-H-D-C (the encoding's documented card numbering)."""
    return 4 * (_rank(card) - 1) + _SUITS.index(card[-1])


def _tonk_expected(game: cardcore.Game, seat: int) -> np.ndarray:
    """The documented Tonk observation (cardcore_tonk.encoding's module docstring)."""
    n = len(game.players)
    table = game.view(seat)["table"]
    stake = float(game.options["stake"])
    hot = [_tonk_index(c) for c in table["hand"]]
    base = 52
    for card in (table["discard_top"], table["taken"]):
        hot.append(base + (52 if card is None else _tonk_index(card)))
        base += 53
    spreads = table["spreads"]
    for k, spread in enumerate(spreads):
        hot.extend(base + 52 * k + _tonk_index(c) for c in spread["cards"])
    base += 17 * 52
    for k, spread in enumerate(spreads):
        hot.append(base + n * k + (spread["owner"] - seat) % n)
    base += 17 * n
    hot.append(base + ["start", "play", "between", "over"].index(table["phase"]))
    base += 4
    hot.append(base + (table["dealer"] - seat) % n)
    base += n
    if table["turn"] is not None:
        hot.append(base + (table["turn"] - seat) % n)
    base += n
    sc = [table["stock"] / 52, table["discard_count"] / 52]
    sc += [table["hand_sizes"][(seat + r) % n] / 6 for r in range(n)]
    sc.append(table["total"] / 50)
    sc += [table["balances"][(seat + r) % n] / stake / 10 for r in range(n)]
    sc.append(table["hand_number"] / table["hands"])
    return _expected(base, hot, sc)


def _tonk_states(seeds: range) -> Iterator[cardcore.Game]:
    """Tonk games whose seats lay and hit spreads whenever they can (random play rarely does)."""
    for seed in seeds:
        rng = random.Random(seed)
        game = cardcore.new_game("tonk", 3, options={"hands": 3, "stake": 2}, seed=seed)
        yield game
        while not game.is_over and game.version < 200:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            melds = [a for a in legal if str(a).startswith(("spread", "hit"))]
            pool = melds or [a for a in legal if str(a) != "drop"] or legal
            game.apply(pool[int(rng.random() * len(pool))])
            yield game


def test_tonk_observation_is_exactly_the_documented_layout_for_every_seat() -> None:
    seen = {"taken": 0, "spread of another": 0, "balances": 0, "second hand": 0}
    encoding = None
    for game in _tonk_states(range(4)):
        encoding = encoding or encoding_for(game)
        table = game.view(None)["table"]
        seen["balances"] += any(table["balances"])
        seen["second hand"] += table["hand_number"] > 1
        for seat in range(3):
            mine = game.view(seat)["table"]
            seen["taken"] += mine["taken"] is not None
            seen["spread of another"] += any(s["owner"] != seat for s in mine["spreads"])
            _check(game, seat, _tonk_expected(game, seat), encoding)
    assert all(seen.values()), seen


# -- the generic encoding --------------------------------------------------------------------


def _generic_expected(game: cardcore.Game, seat: int) -> np.ndarray:
    """The documented generic observation (the GenericEncoding class docstring)."""
    n = len(game.players)
    schema = game.view_schema()
    deck = game.logic.deck(n, game.options)
    kinds = sorted({str(c) for c in deck})
    k = len(kinds)
    place = {c: i for i, c in enumerate(kinds)}
    view = game.view(seat)
    zones = schema["zones"]
    owners = [z["owner"] for z in zones]
    counts = {s: sum(o == s for o in owners) for s in range(n)}
    if all(counts[s] > 0 for s in range(n)) and len(set(counts.values())) == 1:
        shared = [z for z, o in enumerate(owners) if o is None]
        order = shared + [z for r in range(n) for z, o in enumerate(owners) if o == (seat + r) % n]
    else:
        order = list(range(len(zones)))
    hot: list[int] = []
    sc: list[float] = []
    base = 0
    for z in order:
        cards = view["zones"][z]["cards"]
        hot.extend(base + place[c] for c in cards if c is not None)
        if cards and cards[0] is not None:
            hot.append(base + k + place[cards[0]])
        sc += [len(cards) / len(deck), sum(c is None for c in cards) / len(deck)]
        base += 2 * k

    def field(value: Any, kind: str) -> None:
        nonlocal base
        if kind in ("int", "float", "bool"):
            sc.append(float(value))
        elif kind == "card":
            if value is not None:
                hot.append(base + place[value])
            base += k
        elif kind == "cards":
            hot.extend(base + place[c] for c in value)
            base += k
        elif kind == "seat":
            hot.append(base + (n if value is None else (value - seat) % n))
            base += n + 1
        else:
            assert kind in ("str", "json"), kind

    for f in schema["fields"]:
        value = view["table"][f["name"]]
        if f["kind"] == "per-seat":
            for r in range(n):
                field(value[(seat + r) % n], f["of"])
        else:
            field(value, f["kind"])
    sc += [float(seat in view["to_act"]), float(view["is_over"])]
    return _expected(base, hot, sc)


def _generic(game: cardcore.Game) -> GenericEncoding:
    n = len(game.players)
    return GenericEncoding(game.view_schema(), game.logic.deck(n, game.options), n, 64)


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("gofish", 3, {}), ("golf", 3, {"rounds": 2}), ("tonk", 3, {"hands": 2})],
)
def test_the_generic_observation_is_exactly_its_documented_layout_for_every_seat(
    game: str, players: int, options: dict[str, Any]
) -> None:
    checked = 0
    encoding = None
    for g in _states(game, players, options, range(2), 200, 3):
        encoding = encoding or _generic(g)
        for seat in range(players):
            _check(g, seat, _generic_expected(g, seat), encoding)
            checked += 1
    assert checked > 30


# -- environments: flags, bounds, copies -------------------------------------------------------


def _first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def test_an_aec_game_cut_off_by_max_actions_truncates_every_agent_and_terminates_none() -> None:
    env = aec_env("golf", 2, options={"rounds": 1}, max_actions=5)
    env.reset(seed=3)
    ends: list[tuple[bool, bool]] = []
    for _agent in env.agent_iter():
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            ends.append((term, trunc))
            env.step(None)
        else:
            env.step(_first_legal(obs["action_mask"]))
    assert env.match.game.version == 5  # exactly max_actions actions, not one more
    assert ends == [(False, True), (False, True)]


def test_a_gym_game_cut_off_by_max_actions_is_truncated_not_terminated() -> None:
    env = gym_env("golf", 2, options={"rounds": 1}, max_actions=6)
    obs, _ = env.reset(seed=3)
    steps = 0
    while True:
        obs, _reward, terminated, truncated, info = env.step(_first_legal(obs["action_mask"]))
        steps += 1
        if terminated or truncated:
            break
    assert (terminated, truncated) == (False, True)
    assert info["result"]["reason"] == "truncated" and info["stalled"] is False
    assert env.runner.match.game.version == 6


def test_the_spaces_declare_the_documented_bounds_and_every_observation_lies_in_them() -> None:
    env = aec_env("golf", 2, options={"rounds": 1})
    space = env.observation_space("player_0")
    mask_space = space["action_mask"]
    assert mask_space.dtype == np.int8 and mask_space.shape == (22,)
    assert (mask_space.low == 0).all() and (mask_space.high == 1).all()
    assert space["observation"].dtype == np.float32
    env.reset(seed=1)
    obs, *_ = env.last()
    assert space.contains(obs)
    assert not space.contains({**obs, "action_mask": np.full(22, 2, dtype=np.int8)})


def test_gym_action_masks_are_booleans_equal_to_the_mask() -> None:
    env = gym_env("golf", 2, options={"rounds": 1})
    obs, _ = env.reset(seed=2)
    masks = env.action_masks()
    assert masks.dtype == np.bool_
    assert masks.tolist() == obs["action_mask"].astype(bool).tolist()


def test_gym_observations_returned_are_not_overwritten_by_later_steps() -> None:
    env = gym_env("golf", 2, options={"rounds": 1})
    first, _ = env.reset(seed=2)
    kept = {k: v.copy() for k, v in first.items()}
    env.step(_first_legal(first["action_mask"]))
    assert np.array_equal(first["observation"], kept["observation"])
    assert np.array_equal(first["action_mask"], kept["action_mask"])


def test_equal_due_times_are_broken_by_a_seeded_draw_never_by_seat() -> None:
    env = aec_env("spit", 2, reaction=0.0)  # every plan is due at once: every first action is a tie
    firsts = []
    for seed in range(12):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1]))
            if env.match.game.version:
                break
        firsts.append(env.match.game.record_entries()[0][1].seat)
    assert set(firsts) == {0, 1}, firsts


def _step_until_a_game_ends(
    envs: Any, obs: dict[str, np.ndarray], limit: int = 500
) -> tuple[Any, ...]:
    for _ in range(limit):
        out = envs.step([_first_legal(m) for m in obs["action_mask"]])
        obs = out[0]
        if "final_obs" in out[4]:
            return out
    raise AssertionError("no game ended")


def test_vector_final_obs_is_the_old_games_last_observation_kept_apart_from_the_new_game() -> None:
    envs = vector_env("golf", 2, options={"rounds": 1})
    obs, _ = envs.reset(seed=11)
    obs, rewards, terminated, truncated, infos = _step_until_a_game_ends(envs, obs)
    ended = np.flatnonzero(infos["_final_obs"])
    assert ended.size and (infos["_final_info"] == infos["_final_obs"]).all()
    i = int(ended[0])
    final = infos["final_obs"][i]
    kept = final["observation"].copy()
    assert not final["action_mask"].any()  # the finished game's seat has no legal action
    assert obs["action_mask"][i].any()  # ... the row already holds the new game
    assert not np.array_equal(final["observation"], obs["observation"][i])
    assert rewards[i] != 0 and (terminated[i] or truncated[i])
    kept_rewards, kept_terminated = rewards.copy(), terminated.copy()
    envs.step([_first_legal(m) for m in obs["action_mask"]])
    assert np.array_equal(final["observation"], kept)  # not overwritten by the next step
    assert np.array_equal(rewards, kept_rewards) and np.array_equal(terminated, kept_terminated)


def test_vector_copy_false_returns_the_same_arrays_every_step_and_copy_true_fresh_ones() -> None:
    for copy in (False, True):
        envs = vector_env("golf", 2, options={"rounds": 1}, copy=copy)
        first, _ = envs.reset(seed=4)
        second = envs.step([_first_legal(m) for m in first["action_mask"]])[0]
        assert (first["observation"] is second["observation"]) is not copy
        assert (first["action_mask"] is second["action_mask"]) is not copy


def test_vector_reset_with_one_seed_deals_each_game_its_own_seed() -> None:
    envs = vector_env("golf", 4, options={"rounds": 1})
    envs.reset(seed=5)
    seeds = [runner.match.game.seed for runner in envs.runners]
    assert len(set(seeds)) == 4
    envs.reset(seed=5)
    assert [runner.match.game.seed for runner in envs.runners] == seeds


# -- render -----------------------------------------------------------------------------------


def test_render_lists_each_pile_top_first_hidden_as_hashes_then_the_table_and_the_legal_actions() -> (
    None
):
    env = aec_env("golf", 2, options={"rounds": 1}, render_mode="ansi")
    env.reset(seed=3)
    names = env.config.observer.names
    for _ in range(12):  # draws and discards: the discard pile shows its top over hidden cards
        obs, *_ = env.last()
        legal = [names[i] for i in np.flatnonzero(obs["action_mask"])]
        pick = next((a for a in ("discard", "draw") if a in legal), legal[-1])
        env.step(names.index(pick))
    game = env.match.game
    seat = env.match.seat
    view = game.view(seat)
    lines = env.render().splitlines()
    assert lines[0].startswith(f"golf v{game.version} · seat {seat} (")
    zones = view["zones"]
    discard = next(z for z in zones if z["name"] == "discard")
    assert (
        discard["count"] >= 2 and discard["cards"][0] is not None and discard["cards"][-1] is None
    )
    expected = [
        f"  {z['name']} ({z['count']}): "
        + (" ".join("##" if c is None else c for c in z["cards"]) or "-")
        for z in zones
    ]
    assert lines[1 : 1 + len(zones)] == expected
    table = [f"  {k}: {v}" for k, v in view["table"].items()]
    assert lines[1 + len(zones) : 1 + len(zones) + len(table)] == table
    assert lines[-1] == "  legal: " + ", ".join(view["legal"])


def test_render_shows_seat_0_once_the_game_is_over() -> None:
    env = aec_env("golf", 2, options={"rounds": 1}, render_mode="ansi", max_actions=3)
    env.reset(seed=3)
    for _agent in env.agent_iter():
        obs, _reward, term, trunc, _info = env.last()
        env.step(None if term or trunc else _first_legal(obs["action_mask"]))
    head = env.render().splitlines()[0]
    assert head.startswith("golf v3 · seat 0 (") and "· over: winners [], truncated" in head


def test_human_render_prints_the_view_at_reset(capsys: pytest.CaptureFixture[str]) -> None:
    env = aec_env("golf", 2, options={"rounds": 1}, render_mode="human")
    env.reset(seed=3)
    printed = capsys.readouterr().out
    assert printed.startswith("golf v0 · seat 0 (")
    assert printed.rstrip("\n").endswith("legal: flip 0, flip 1, flip 2, flip 3, flip 4, flip 5")


# -- score rewards --------------------------------------------------------------------------


def _returns(env: Any, seed: int) -> dict[str, float]:
    """Play seeded random legal actions; each agent's return as PettingZoo's loop sums it."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        returns[agent] += reward
        legal = np.flatnonzero(obs["action_mask"])
        env.step(None if term or trunc else int(legal[int(rng.random() * len(legal))]))
    return returns


def test_tonk_score_returns_are_the_final_balances_in_stakes() -> None:
    env = aec_env("tonk", 2, options={"hands": 3, "stake": 2}, rewards="score")
    returns = _returns(env, 6)
    balances = env.match.game.view(None)["table"]["balances"]
    assert any(balances)
    assert [returns[f"player_{s}"] for s in range(2)] == pytest.approx([b / 2 for b in balances])


def test_golf_score_returns_are_the_final_margins_over_ten() -> None:
    env = aec_env("golf", 3, options={"rounds": 2}, rewards="score")
    returns = _returns(env, 8)
    assert env.match.game.result.reason != "truncated"
    totals = env.match.game.view(None)["table"]["totals"]
    assert len(set(totals)) > 1
    expected = [((sum(totals) - t) / 2 - t) / 10 for t in totals]
    assert [returns[f"player_{s}"] for s in range(3)] == pytest.approx(expected)


# -- argument checks ----------------------------------------------------------------------


@pytest.mark.parametrize("seat", [2, -1, True, "0"])
def test_seat_view_refuses_what_is_not_a_seat(seat: Any) -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(cardcore.SeatError, match="not a seat of this 2-player game"):
        seat_view(game, seat, "table")


def test_observe_refuses_an_encoding_built_for_other_option_values() -> None:
    mine = cardcore.new_game("golf", 2, options={"rounds": 1}, seed=1)
    other = encoding_for(cardcore.new_game("golf", 2, options={"rounds": 2}, seed=1))
    with pytest.raises(
        cardcore.ArgumentError, match="it encodes options rounds=2, the game has rounds=1"
    ):
        observe(mine, 0, other)


# -- what an info carries -------------------------------------------------------------------

_INFO_KEYS = {"result", "stalled", "stale", "skipped"}
_RESULT_KEYS = {"winners", "scores", "payouts", "reason"}


def _check_info(info: dict[str, Any]) -> None:
    """Only the documented keys: a result's four fields, never a card or a view."""
    assert set(info) <= _INFO_KEYS, set(info) - _INFO_KEYS
    if info.get("result") is not None:
        assert set(info["result"]) == _RESULT_KEYS
    for game in info.get("skipped", []):
        assert set(game) == {"seed", "actions", "reward", "result"}


@pytest.mark.parametrize(
    ("game", "players", "options"), [("golf", 2, {"rounds": 1}), ("tonk", 3, {"hands": 1})]
)
def test_every_info_carries_only_the_documented_keys_and_the_mask_samples_legal_actions(
    game: str, players: int, options: dict[str, Any]
) -> None:
    env = aec_env(game, players, options=options)
    ended = 0
    for seed in range(3):
        env.reset(seed=seed)
        for s, name in enumerate(env.possible_agents):
            env.action_space(name).seed(100 * seed + s)  # sampling is deterministic too
        for agent in env.agent_iter():
            obs, _reward, term, trunc, info = env.last()
            _check_info(info)
            if term or trunc:
                ended += 1
                assert info["result"] is not None
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert mask.dtype == np.int8
            action = env.action_space(agent).sample(mask=mask)
            assert mask[action] == 1
            env.step(action)
    assert ended == 3 * players


# -- real time: waiting and stalls --------------------------------------------------------------


def test_vector_final_info_says_that_a_game_where_everyone_waits_stalled() -> None:
    envs = vector_env("spit", 1, wait=True, opponents="random")
    envs.reset(seed=1)
    wait = envs.single_action_space.n - 1
    for _ in range(50):  # the learner never says ready: the deal stalls
        _obs, _rewards, terminated, truncated, infos = envs.step([wait])
        if "final_info" in infos:
            break
    assert (bool(terminated[0]), bool(truncated[0])) == (False, True)
    assert infos["final_info"][0]["stalled"] is True
    assert infos["final_info"][0]["result"]["reason"] == "truncated"


def test_wait_is_in_the_mask_whenever_any_other_index_is_even_a_single_one() -> None:
    env = aec_env("spit", 2, wait=True)
    single = 0
    for seed in range(2):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            others = np.flatnonzero(mask[:-1])
            assert mask[-1] == (1 if others.size else 0)
            single += others.size == 1
            env.step(int(others[0]) if others.size else len(mask) - 1)
    assert single > 0


def test_each_opponent_seat_gets_an_agent_seeded_apart() -> None:
    env = gym_env("golf", 3, opponents="random", options={"rounds": 1})
    env.reset(seed=1)
    seeds = [agent.seed for agent in env.runner.agents[1:]]
    assert len(set(seeds)) == 2
    env.reset(seed=1)
    assert [agent.seed for agent in env.runner.agents[1:]] == seeds  # ... and replayed


# -- the whole action space: every index is the action its name notes ------------------------------


def _index_check(game: cardcore.Game, seat: int, actions: list[Any]) -> int:
    encoding = encoding_for(game)
    names = list(encoding.action_names())
    indices = list(encoding.action_indices(game.view(seat), actions))
    assert [names[i] for i in indices] == [str(a) for a in actions]
    assert len(set(indices)) == len(indices)
    return len(indices)


def test_every_tonk_index_is_the_action_it_is_named_after_hits_on_spread_17_and_every_book_included() -> (
    None
):
    from cardcore_tonk.actions import Deal, Discard, Draw, Drop, Hit, Spread, Take
    from cardcore_tonk.melds import CARDS

    game = cardcore.new_game("tonk", 2, seed=1)
    by_text = {str(c): c for c in CARDS}
    names = list(encoding_for(game).action_names())
    actions: list[Any] = [Drop(1), Draw(1), Take(1), Deal(1)]
    actions += [Discard(1, c) for c in CARDS]
    actions += [Hit(1, k, c) for k in range(1, 18) for c in CARDS]
    actions += [Spread(1, tuple(by_text[t] for t in name.split()[1:])) for name in names[940:]]
    assert _index_check(game, 1, actions) == 1157


def test_every_spit_index_is_the_action_it_is_named_after() -> None:
    from cardcore_spit.actions import Claim, Combine, Fill, Play, Ready, RequestSpit

    game = cardcore.new_game("spit", 2, seed=1)
    pairs = [(j, i) for j in range(5) for i in range(5) if j != i]
    actions: list[Any] = [Play(1, k, t) for k in range(5) for t in (0, 1)]
    actions += [Combine(1, j, i) for j, i in pairs] + [Fill(1, j, i) for j, i in pairs]
    actions += [Ready(1), RequestSpit(1), Claim(1, 0), Claim(1, 1)]
    assert _index_check(game, 1, actions) == 64 - 10


@pytest.mark.parametrize("layout", [6, 4])
def test_every_golf_index_is_the_action_it_is_named_after(layout: int) -> None:
    from cardcore_golf.actions import Discard, Draw, Flip, Knock, Peek, Replace, Take

    game = cardcore.new_game("golf", 3, options={"layout": layout}, seed=1)
    actions: list[Any] = [Draw(2), Take(2), Discard(2), Knock(2)]
    for kind in (Replace, Flip, Peek):
        actions += [kind(2, p) for p in range(layout)]
    assert _index_check(game, 2, actions) == 4 + 3 * layout


def test_tonk_spread_indices_follow_the_documented_formulas() -> None:
    names = list(encoding_for(cardcore.new_game("tonk", 2, seed=1)).action_names())
    ranks = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    for r in range(1, 14):  # 940 + 5 (r - 1) + m: the book of rank r without suit m (4: all four)
        for m in range(5):
            cards = [ranks[r - 1] + s for i, s in enumerate(_SUITS) if i != m]
            assert names[940 + 5 * (r - 1) + m] == "spread " + " ".join(cards)
    for s, suit in enumerate(_SUITS):  # 1005 + 38 s + o: runs by length 3..6, then start, ace up
        o = 0
        for length in (3, 4, 5, 6):
            for start in range(14 - length):
                cards = [ranks[start + j] + suit for j in range(length)]
                assert names[1005 + 38 * s + o] == "spread " + " ".join(cards)
                o += 1
        assert o == 38
    assert names[56 + 52 * 16 + 51] == "hit 17 KC" and names[4] == "discard AS"


def test_observe_gives_a_float32_observation_and_an_int8_mask_with_or_without_an_encoding() -> None:
    game = cardcore.new_game("golf", 2, options={"rounds": 1}, seed=4)
    for out in (observe(game, 0), observe(game, 0, encoding_for(game))):
        assert out["observation"].dtype == np.float32 and out["observation"].shape == (253,)
        assert out["action_mask"].dtype == np.int8
        assert out["action_mask"].tolist() == [0] * 10 + [1] * 6 + [0] * 6  # flip 0-5


def test_an_agent_observed_out_of_turn_gets_its_own_mask_empty_when_turn_based() -> None:
    env = aec_env("golf", 3, options={"rounds": 1})
    env.reset(seed=2)
    checked = 0
    for _ in range(20):
        selected = env.agent_selection
        for agent in env.agents:
            if agent != selected:
                assert not env.observe(agent)["action_mask"].any()
                checked += 1
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            break
        env.step(_first_legal(obs["action_mask"]))
    assert checked >= 10
    spit = aec_env("spit", 2)
    spit.reset(seed=2)
    game = spit.match.game
    for s, agent in enumerate(spit.agents):  # real time: each seat's own legal actions
        legal = {str(a) for a in game.legal_actions(s)}
        names = spit.config.observer.names
        assert {names[i] for i in np.flatnonzero(spit.observe(agent)["action_mask"])} == legal


def test_a_plan_made_illegal_by_another_seats_action_is_dropped_at_once_not_when_due() -> None:
    env = aec_env("spit", 2, reaction=[0.2, 1.5])  # seat 0 often overtakes seat 1's plans
    rng = random.Random(5)
    dropped_at_once = 0
    for seed in range(2):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            before = env.match.dropped[:]
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            match = env.match
            if match.over:
                continue
            for s, plan in enumerate(match.plans):  # every plan kept is still legal now
                assert plan is None or plan[1] in match.game.legal_actions(s)
            dropped_at_once += sum(a != b for a, b in zip(match.dropped, before, strict=True))
    assert dropped_at_once > 0
