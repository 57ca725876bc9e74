"""The RL environments swept over every game, player counts at their bounds, options at their
declared bounds and house rules singly and in pairs (audit of 2026-12-31).

Every configuration is built from the games' own declarations (``game_info``, ``rule_info``):
the fewest and the most seats, each Golf layout, Tonk's largest stake and session, Spit's
``stall_limit`` bounds, Speed's side piles and jokers, every house rule where it applies, and
a deterministic sample of the non-conflicting pairs. All play is driven by fixed seeds and a
seeded ``random.Random`` that picks among the set mask indices.

What is checked, each against something independent of the encoding under test:

* the action mask names exactly the engine's legal actions of the seat asked (by their
  notation, ``str(action)``), no two legal actions share an index and none is left out;
  the arrays have the declared shapes and dtypes, lie in the declared spaces and are finite;
* PettingZoo's ``api_test`` and ``seed_test`` (and ``parallel_api_test`` of the turn-based
  games through ``turn_based_aec_to_parallel``) on a sample of the extremes;
* hidden cards: a twin started from the same position with two cards the seat cannot see
  swapped (written with the game's own position notation, not ``determinize``) gives the
  seat the same observation and mask;
* seeds: ``reset(seed=s)`` plays ``new_game(seed=s)``, twice the same trajectory, another
  seed another deal, and the same trajectory under another ``PYTHONHASHSEED``;
* rewards: ``"win"`` returns are ``win_rewards`` of the result's winners, ``"score"`` returns
  the documented standing (Golf's margin over 10, Tonk's payouts in stakes) after every
  step, not only at the end; truncation and stalls pay 0;
* illegal input to ``step`` is a ``CardcoreError`` that changes nothing.

One finding, fixed: the Go Fish example game (installed as ``gofish``, played with the
generic encoding) declared no ``max_legal``, so at its six seats a seat could have 65 legal
actions (5 other seats x 13 ranks) against the default action space of 64: one legal action
never got an index and no policy could choose it. It now declares ``max_legal = 65``.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import random
import subprocess
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import cardcore
from cardcore import CardcoreError, IllegalActionError
from cardcore.rl import aec_env, encoding_for, gym_env, observe, seat_view, vector_env, win_rewards

Cfg = tuple[str, int, tuple[str, ...], dict[str, Any]]

# -- configurations from the declarations -------------------------------------------------------


def _default(game: str, name: str) -> Any:
    return next(o.default for o in cardcore.game_info(game).options if o.name == name)


def _applies(rule: str, options: dict[str, Any]) -> bool:
    """Whether *rule* applies with these options (its declared ``applies``)."""
    info = cardcore.rule_info(rule)
    for key, values in info.applies.items():
        value = options.get(key, _default(info.game, key))
        if value not in values:
            return False
    return True


def _compatible(a: str, b: str) -> bool:
    ia, ib = cardcore.rule_info(a), cardcore.rule_info(b)
    return b not in ia.conflicts and a not in ib.conflicts


def _bounds(game: str) -> tuple[int, int]:
    info = cardcore.game_info(game)
    return info.min_players, info.max_players


GOLF_LAYOUTS = [6, 8, 9, 10, 4, "4h"]


def _configs() -> list[Cfg]:
    out: list[Cfg] = []
    lo, hi = _bounds("golf")
    assert (lo, hi) == (2, 64)
    for layout in GOLF_LAYOUTS:
        base = {"rounds": 1, "layout": layout}
        out.append(("golf", lo, (), base))
        out.append(("golf", hi, (), base))
        for rule in cardcore.available_rules("golf"):
            if _applies(rule, base):
                out.append(("golf", 3, (rule,), base))
    # Tonk: two seats, and four with max_players at its bound, the largest stake
    tonk_max = {"max_players": 4, "stake": 1_000_000, "hands": 2, "first_dealer": 3}
    for n, opts in ((2, {"hands": 2}), (4, tonk_max)):
        out.append(("tonk", n, (), opts))
        out.extend(("tonk", n, (rule,), opts) for rule in cardcore.available_rules("tonk"))
    for rules in [(), *((r,) for r in cardcore.available_rules("spit"))]:
        for limit in (1, 1000):
            out.append(("spit", 2, rules, {"stall_limit": limit}))
    for rules in [(), *((r,) for r in cardcore.available_rules("speed"))]:
        for side, jokers in itertools.product((5, 15), (0, 2)):
            out.append(("speed", 2, rules, {"side_pile": side, "jokers": jokers}))
    out.append(("gofish", 2, (), {}))
    out.append(("gofish", 6, (), {}))
    return out


def _pairs() -> list[Cfg]:
    """Every 3rd non-conflicting pair of house rules (deterministic order)."""
    out: list[Cfg] = []
    for game, options, n in (
        ("golf", {"rounds": 1, "layout": 6}, 3),
        ("golf", {"rounds": 1, "layout": 4}, 3),
        ("golf", {"rounds": 1, "layout": 9}, 2),
        ("golf", {"rounds": 1, "layout": "4h"}, 3),
        ("tonk", {"max_players": 4, "hands": 2}, 4),
        ("spit", {}, 2),
    ):
        pairs = [
            (a, b)
            for a, b in itertools.combinations(cardcore.available_rules(game), 2)
            if _applies(a, options) and _applies(b, options) and _compatible(a, b)
        ]
        out.extend((game, n, pair, options) for pair in pairs[::3])
    return out


CONFIGS = _configs()
PAIRS = _pairs()


def _id(cfg: Cfg) -> str:
    game, n, rules, opts = cfg
    parts = [game, str(n), *(r.split(".", 1)[1] for r in rules)]
    parts += [f"{k}={v}" for k, v in opts.items()]
    return "-".join(parts)


def _env(cfg: Cfg, **kw: Any) -> Any:
    game, n, rules, opts = cfg
    return aec_env(game, n, rules=rules, options=opts or None, **kw)


def _pick(rng: random.Random, mask: np.ndarray, exclude: int | None = None) -> int:
    ids = np.flatnonzero(mask)
    if exclude is not None and len(ids) > 1:
        ids = ids[ids != exclude]
    return int(ids[int(rng.random() * len(ids))])


# -- the action counts of rl.rst's table, at every layout and bound --------------------------------

_SIZES = {6: 6, 8: 8, 9: 9, 10: 10, 4: 4, "4h": 4}


@pytest.mark.parametrize("cfg", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_the_action_space_has_the_size_rl_rst_gives(cfg: Cfg) -> None:
    """rl.rst's table: Golf 4 + 3 S, Tonk 1157, Spit 64, Speed 107 (whatever the seats,
    rules and options); the generic space is the max_legal a game declares (Go Fish: 65 = 13
    ranks x 5 others), else 64."""
    name, _, _, opts = cfg
    expected = {
        "golf": 4 + 3 * _SIZES[opts.get("layout", 6)],
        "tonk": 1157,
        "spit": 64,
        "speed": 107,
        "gofish": 65,
    }[name]
    env = _env(cfg)
    assert env.action_space(env.possible_agents[-1]).n == expected
    assert len(env.config.observer.names) == expected


# -- masks, spaces and shapes along seeded play ---------------------------------------------------


def _sweep(cfg: Cfg, seed: int, steps: int) -> int:
    """Play *steps* AEC steps; check every decision's arrays against the engine. Returns decisions."""
    env = _env(cfg)
    env.reset(seed=seed)
    rng = random.Random(seed)
    space = env.observation_space(env.possible_agents[0])
    n_actions = env.action_space(env.possible_agents[0]).n
    observer = env.config.observer
    names = observer.names
    enc = observer.encoding
    generic = type(enc).__name__ == "GenericEncoding"
    decisions = 0
    for agent in env.agent_iter(steps):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        o, m = obs["observation"], obs["action_mask"]
        assert o.dtype == np.float32 and m.dtype == np.int8
        assert o.shape == (observer.size,) and m.shape == (n_actions,) == (len(names),)
        assert space.contains(obs), agent
        assert np.isfinite(o).all()
        seat = env.possible_agents.index(agent)
        game = env.match.game
        legal = game.legal_actions(seat)
        assert legal, "the agent asked has a legal action"
        indices = list(enc.action_indices(seat_view(game, seat, enc.needs), legal))
        placed = [i for i in indices if i >= 0]
        assert len(set(placed)) == len(placed), "two legal actions share an index"
        assert set(np.flatnonzero(m)) == set(placed)
        if not generic:
            assert len(placed) == len(legal), "a legal action has no index"
            # the mask names exactly the engine's legal actions, by their notation
            assert sorted(names[i] for i in np.flatnonzero(m)) == sorted(str(a) for a in legal)
        decisions += 1
        env.step(_pick(rng, m))
    return decisions


@pytest.mark.parametrize("cfg", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_mask_names_the_legal_actions_and_observations_fit_their_space(cfg: Cfg) -> None:
    assert _sweep(cfg, seed=1, steps=160) > 0


@pytest.mark.parametrize("cfg", PAIRS, ids=[_id(c) for c in PAIRS])
def test_house_rule_pairs_keep_the_mask_and_the_space(cfg: Cfg) -> None:
    assert _sweep(cfg, seed=2, steps=120) > 0


def test_every_golf_layout_at_64_seats_plays_a_whole_round_within_its_space() -> None:
    """The largest table: 64 seats, one round of the smallest layout played to its end."""
    cfg: Cfg = ("golf", 64, (), {"rounds": 1, "layout": "4h"})
    env = _env(cfg)
    env.reset(seed=3)
    rng = random.Random(3)
    for agent in env.agent_iter(20_000):
        obs, _, terminated, truncated, _ = env.last()
        assert env.observation_space(agent).contains(obs)
        env.step(None if terminated or truncated else _pick(rng, obs["action_mask"]))
    assert env.match.game.is_over and not env.agents


# -- PettingZoo's own tests on the extremes --------------------------------------------------------

API_SAMPLE: list[Cfg] = [
    ("golf", 64, (), {"rounds": 1, "layout": 4}),
    ("golf", 2, ("golf.jokers", "golf.pairs-anywhere"), {"rounds": 1, "layout": 10}),
    ("golf", 3, ("golf.peek-nearest", "golf.diagonal-pairs"), {"rounds": 1, "layout": 4}),
    ("tonk", 4, ("tonk.no-upcard",), {"max_players": 4, "stake": 1_000_000, "hands": 100_000}),
    ("tonk", 2, ("tonk.stock-out-discard-only", "tonk.must-lay-down"), {"hands": 3}),
    ("spit", 2, ("spit.canfield", "spit.chooser"), {"stall_limit": 1}),
    ("spit", 2, ("spit.same-rank",), {"stall_limit": 1000}),
    ("speed", 2, ("speed.stuck-on-request",), {"side_pile": 15, "jokers": 2}),
    ("gofish", 6, (), {}),
]


@pytest.mark.parametrize("cfg", API_SAMPLE, ids=[_id(c) for c in API_SAMPLE])
def test_pettingzoo_api_and_seed_tests_pass_at_the_extremes(cfg: Cfg) -> None:
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        api_test(_env(cfg), num_cycles=60)
        seed_test(lambda: _env(cfg), num_cycles=40)
        if cfg[0] in ("golf", "tonk", "gofish"):
            parallel_api_test(turn_based_aec_to_parallel(_env(cfg)), num_cycles=40)


@pytest.mark.parametrize(
    "cfg",
    [("spit", 2, (), {"stall_limit": 1}), ("speed", 2, (), {"side_pile": 15, "jokers": 2})],
    ids=["spit", "speed"],
)
@pytest.mark.parametrize("reaction", [0, [3600.0, 0.0]], ids=["instant", "hour-vs-instant"])
def test_pettingzoo_tests_pass_for_real_time_games_at_the_reaction_bounds(
    cfg: Cfg, reaction: Any
) -> None:
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        api_test(_env(cfg, reaction=reaction, wait=True), num_cycles=60)
        seed_test(lambda: _env(cfg, reaction=reaction), num_cycles=40)


# -- hidden cards: twins from the game's own position notation --------------------------------------


def _split(token: str) -> tuple[str, str]:
    if token.endswith("!"):
        return token[:-1], "!"
    if "@" in token:
        card, seen = token.split("@", 1)
        return card, "@" + seen
    return token, ""


def _twins(game: cardcore.Game, seat: int, rng: random.Random) -> Iterator[cardcore.Game]:
    """Games at *game*'s position with two cards *seat* cannot see swapped (each kept where
    the rest of the position stays valid): by zone visibility and per-card knowledge marks."""
    sections = game.position().split(" | ")
    specs = {spec.name: spec for spec in game.state.zones.layout.specs}
    slots = []
    for si, section in enumerate(sections[1:], 1):
        tokens = section.split(" ")
        spec = specs[tokens[0][:-1]]
        vis = spec.visibility.value
        if vis == "everyone" or (vis == "owner" and spec.owner == seat):
            continue
        for ti, token in enumerate(tokens[1:], 1):
            if vis == "top" and ti == 1:
                continue
            card, mark = _split(token)
            if mark == "!" or (mark and str(seat) in mark[1:].split(".")):
                continue
            slots.append((si, ti, card, mark))
    rng.shuffle(slots)
    made = 0
    for a, b in itertools.combinations(slots[:24], 2):
        if a[2] == b[2]:
            continue
        parts = [s.split(" ") for s in sections]
        parts[a[0]][a[1]] = b[2] + a[3]
        parts[b[0]][b[1]] = a[2] + b[3]
        try:
            twin = cardcore.new_game(
                game.name,
                len(game.players),
                rules=game.rules,
                options=dict(game.options),
                position=" | ".join(" ".join(p) for p in parts),
                seed=1,
            )
        except cardcore.OptionError:  # a swap that makes the position invalid
            continue
        yield twin
        made += 1
        if made == 2:
            return


HIDDEN: list[Cfg] = [
    ("golf", 2, (), {"rounds": 1}),
    ("golf", 3, ("golf.peek-nearest",), {"rounds": 1, "layout": 4}),
    ("golf", 3, ("golf.hand-same-value",), {"rounds": 1, "layout": "4h"}),
    ("golf", 12, ("golf.jokers", "golf.remove-columns"), {"rounds": 1, "layout": 10}),
    ("tonk", 4, ("tonk.no-upcard",), {"max_players": 4, "hands": 3}),
    ("tonk", 3, ("tonk.stock-out-discard-only", "tonk.deal-shows-every-hand"), {"hands": 3}),
    ("spit", 2, ("spit.canfield",), {"stall_limit": 1}),
    ("speed", 2, (), {"side_pile": 15, "jokers": 2}),
    ("gofish", 6, (), {}),
]


@pytest.mark.parametrize("cfg", HIDDEN, ids=[_id(c) for c in HIDDEN])
def test_swapping_cards_a_seat_cannot_see_changes_nothing_it_observes(cfg: Cfg) -> None:
    name, n, rules, opts = cfg
    game = cardcore.new_game(name, n, rules=rules, options=opts or None, seed=7)
    enc = encoding_for(game)
    rng = random.Random(7)
    compared = 0
    for _ in range(50):
        if game.is_over:
            break
        for seat in sorted({0, 1, n - 1}):
            mine = observe(game, seat, enc)
            for twin in _twins(game, seat, rng):
                theirs = observe(twin, seat, enc)
                assert np.array_equal(mine["observation"], theirs["observation"]), seat
                assert np.array_equal(mine["action_mask"], theirs["action_mask"]), seat
                compared += 1
        seats = [s for s in game.to_act if game.legal_actions(s)]
        if not seats:
            break
        legal = game.legal_actions(seats[int(rng.random() * len(seats))])
        game.apply(legal[int(rng.random() * len(legal))])
    assert compared >= 20  # the check compared real twins, not none


def test_the_swap_twin_check_catches_a_card_the_seat_can_see() -> None:
    """The twin check is not blind: swapping a card of the seat's own Tonk hand shows."""
    game = cardcore.new_game("tonk", 2, options={"hands": 2}, seed=5)
    sections = game.position().split(" | ")
    hand = next(i for i, s in enumerate(sections) if s.startswith("hand.0:"))
    stock = next(i for i, s in enumerate(sections) if s.startswith("stock:"))
    parts = [s.split(" ") for s in sections]
    (own, own_mark), (deep, deep_mark) = _split(parts[hand][1]), _split(parts[stock][-1])
    parts[hand][1], parts[stock][-1] = deep + own_mark, own + deep_mark
    twin = cardcore.new_game(
        "tonk", 2, options={"hands": 2}, position=" | ".join(" ".join(p) for p in parts), seed=1
    )
    assert not np.array_equal(observe(game, 0)["observation"], observe(twin, 0)["observation"])


# -- relative seats: a position with every seat moved k places ----------------------------------------

_SEAT_FIELDS = ("dealer", "turn", "ender", "emptier", "single")  # a seat (or null / -1: none)
_PER_SEAT_FIELDS = ("totals", "balances", "ready", "requests")  # one entry per seat
_OWNED = ("grid", "hand", "layout", "spit", "stock", "side", "books")  # zones NAME.SEAT...


def _rotated(game: cardcore.Game, k: int) -> cardcore.Game:
    """*game*'s position with seat s moved to seat s + k: seat fields, per-seat lists, the
    seats' zones and every card's knowledge marks (the game's own position notation)."""
    n = len(game.players)
    sections = game.position().split(" | ")
    head = sections[0].split(" ")
    fields = [head[0]]
    for field in head[1:]:
        key, text = field.split("=", 1)
        value = json.loads(text)
        if key in _SEAT_FIELDS and isinstance(value, int) and value >= 0:
            value = (value + k) % n
        elif key in _PER_SEAT_FIELDS and isinstance(value, list) and len(value) == n:
            value = [value[(i - k) % n] for i in range(n)]
        elif key == "spreads":  # Tonk: [size, owner] per spread
            value = [[size, (owner + k) % n] for size, owner in value]
        elif key == "cut":  # Tonk: the cut cards, per seat, per cut
            value = [[c[(i - k) % n] for i in range(n)] if len(c) == n else c for c in value]
        fields.append(f"{key}={json.dumps(value, separators=(',', ':'))}")
    zones: dict[str, str] = {}
    order = []
    for section in sections[1:]:
        tokens = section.split(" ")
        name = old = tokens[0][:-1]
        kind, _, rest = name.partition(".")
        if kind in _OWNED and rest:
            seat, _, tail = rest.partition(".")
            name = f"{kind}.{(int(seat) + k) % n}" + (f".{tail}" if tail else "")
        cards = []
        for token in tokens[1:]:
            card, mark = _split(token)
            if mark.startswith("@"):
                seen = sorted((int(x) + k) % n for x in mark[1:].split("."))
                mark = "@" + ".".join(map(str, seen))
            cards.append(card + mark)
        zones[name] = " ".join([name + ":", *cards])
        order.append(old)
    text = " | ".join([" ".join(fields)] + [zones[name] for name in order])
    return cardcore.new_game(
        game.name, n, rules=game.rules, options=dict(game.options), position=text, seed=1
    )


ROTATED: list[tuple[Cfg, int]] = [
    (("golf", 4, (), {"rounds": 2}), 1),
    (("golf", 3, ("golf.peek-nearest",), {"rounds": 2, "layout": 4}), 2),
    (("tonk", 3, (), {"hands": 3}), 1),
    (("tonk", 4, ("tonk.no-upcard",), {"hands": 3, "max_players": 4}), 3),
    (("spit", 2, ("spit.canfield",), {"stall_limit": 1}), 1),
    (("speed", 2, (), {"jokers": 2, "side_pile": 15}), 1),
]


@pytest.mark.parametrize(("cfg", "k"), ROTATED, ids=[f"{_id(c)}-by{k}" for c, k in ROTATED])
def test_seats_are_relative_the_observing_seat_first(cfg: Cfg, k: int) -> None:
    """rl.rst: "seats are relative, the observing seat first, so one policy serves every seat".
    Seat s of a game and seat s + k of the same game with every seat moved k places observe
    alike; Spit and Speed keep their play piles absolute, and a last one-hot of two says
    which seat observes (their encodings' docstrings), so that block alone differs there."""
    name, n, rules, opts = cfg
    compared = 0
    for seed in (5, 6, 8):
        game = cardcore.new_game(name, n, rules=rules, options=opts, seed=seed)
        enc = encoding_for(game)
        absolute = enc.planes - 2 if name in ("spit", "speed") else enc.planes
        keep = np.r_[0:absolute, enc.planes : enc.planes + enc.scalars]
        rng = random.Random(seed)
        for _ in range(40):
            if game.is_over:
                break
            moved = _rotated(game, k)
            for seat in range(n):
                mine, theirs = observe(game, seat, enc), observe(moved, (seat + k) % n, enc)
                assert np.array_equal(mine["observation"][keep], theirs["observation"][keep])
                assert np.array_equal(mine["action_mask"], theirs["action_mask"])
                compared += 1
            seats = [s for s in game.to_act if game.legal_actions(s)]
            legal = game.legal_actions(seats[int(rng.random() * len(seats))])
            game.apply(legal[int(rng.random() * len(legal))])
    assert compared >= 40


def test_the_rotation_check_sees_a_seat_that_is_not_moved() -> None:
    """Not blind: a rotated Golf game read by the unmoved seat observes another table."""
    game = cardcore.new_game("golf", 3, options={"rounds": 1}, seed=5)
    for _ in range(8):
        game.apply(game.legal_actions(game.to_act[0])[0])
    moved = _rotated(game, 1)
    assert not np.array_equal(observe(game, 0)["observation"], observe(moved, 0)["observation"])


# -- seeds ----------------------------------------------------------------------------------------

SEEDED: list[Cfg] = [
    ("golf", 64, (), {"rounds": 1, "layout": 4}),
    ("tonk", 4, (), {"max_players": 4, "hands": 5}),
    ("spit", 2, ("spit.canfield",), {"stall_limit": 1}),
    ("speed", 2, (), {"side_pile": 15, "jokers": 2}),
]


def _trajectory(cfg: Cfg, seed: int, steps: int = 200, again: bool = False, **kw: Any) -> list[Any]:
    env = _env(cfg, **kw)
    env.reset(seed=seed)
    if again:
        env.reset()  # the next game of the stream seeded by *seed*
    rng = random.Random(99)
    wait = env.config.observer.wait
    out = []
    for agent in env.agent_iter(steps):
        obs, reward, terminated, truncated, _ = env.last()
        mask = obs["action_mask"] if wait is None else obs["action_mask"][:wait]
        out.append((agent, obs["observation"].tobytes(), mask.tobytes(), reward))
        env.step(None if terminated or truncated else _pick(rng, mask))
    return out


@pytest.mark.parametrize("cfg", SEEDED, ids=[_id(c) for c in SEEDED])
def test_reset_with_a_seed_replays_and_another_seed_deals_another_game(cfg: Cfg) -> None:
    name, n, rules, opts = cfg
    env = _env(cfg)
    env.reset(seed=11)
    dealt = cardcore.new_game(name, n, rules=rules, options=opts, seed=11)
    assert env.match.game.seed == 11 and env.match.game.position() == dealt.position()
    first = _trajectory(cfg, 11)
    assert _trajectory(cfg, 11) == first
    assert _trajectory(cfg, 12) != first
    assert _trajectory(cfg, 11, again=True) == _trajectory(cfg, 11, again=True) != first


@pytest.mark.parametrize("cfg", SEEDED[2:], ids=[_id(c) for c in SEEDED[2:]])
def test_wait_true_changes_neither_the_game_nor_the_observations(cfg: Cfg) -> None:
    """rl.rst: the same seeds and decisions give the same game with or without wait=True."""
    assert _trajectory(cfg, 5, steps=300, wait=True) == _trajectory(cfg, 5, steps=300)


_HASH_SCRIPT = """
import hashlib, random, warnings
warnings.simplefilter("ignore")
import numpy as np
from cardcore.rl import aec_env
h = hashlib.sha256()
for game, n, rules, opts in [
    ("golf", 8, ("golf.jokers", "golf.pairs-anywhere"), {"rounds": 1, "layout": 10}),
    ("tonk", 4, ("tonk.must-lay-down",), {"max_players": 4, "hands": 3}),
    ("spit", 2, ("spit.same-rank",), {"stall_limit": 1}),
    ("speed", 2, (), {"jokers": 2, "side_pile": 15}),
    ("gofish", 6, (), None),
]:
    env = aec_env(game, n, rules=rules, options=opts)
    env.reset(seed=21)
    rng = random.Random(5)
    for agent in env.agent_iter(150):
        obs, r, te, tr, info = env.last()
        for part in (agent.encode(), obs["observation"].tobytes(), obs["action_mask"].tobytes()):
            h.update(part)
        h.update(repr(r).encode())
        if te or tr:
            env.step(None)
            continue
        ids = np.flatnonzero(obs["action_mask"])
        env.step(int(ids[int(rng.random() * len(ids))]))
print(h.hexdigest())
"""


def test_trajectories_do_not_depend_on_the_hash_seed() -> None:
    """design.md: a game replays identically under any hash seed; so do the RL arrays."""
    digests = set()
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", _HASH_SCRIPT],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        digests.add(out.stdout.strip())
    assert len(digests) == 1


# -- rewards against the engine's result ----------------------------------------------------------


def _expected(cfg: Cfg, result: cardcore.Result, rewards: str) -> list[float]:
    name, n, _, opts = cfg
    if rewards == "win":
        return win_rewards([] if result.reason == "truncated" else list(result.winners), n)
    if name == "golf":  # (mean of the others' totals - own) / 10, lowest total wins
        totals = [float(t) for t in result.scores]
        whole = sum(totals)
        return [((whole - t) / (n - 1) - t) / 10 for t in totals]
    assert result.payouts is not None
    return [p / opts.get("stake", 1) for p in result.payouts]  # Tonk: payouts in stakes


def _standing(cfg: Cfg, game: cardcore.Game) -> list[float]:
    name, n, _, opts = cfg
    table = game.view(None)["table"]
    if name == "golf":
        totals = [float(t) for t in table["totals"]]
        whole = sum(totals)
        return [((whole - t) / (n - 1) - t) / 10 for t in totals]
    return [b / opts.get("stake", 1) for b in table["balances"]]


REWARDED: list[Cfg] = [
    ("golf", 2, (), {"rounds": 2}),
    ("golf", 5, ("golf.ender-penalty-10",), {"rounds": 2, "layout": 4}),
    (
        "golf",
        3,
        ("golf.ender-penalty-lowest-literal", "golf.jokers"),
        {"rounds": 2, "layout": "4h"},
    ),
    ("golf", 4, (), {"rounds": 2, "max_turns": 1}),
    ("golf", 64, (), {"rounds": 1, "layout": "4h"}),
    ("tonk", 2, (), {"hands": 4}),
    ("tonk", 4, (), {"max_players": 4, "stake": 1_000_000, "hands": 5}),
    ("tonk", 3, ("tonk.double-needs-spread", "tonk.no-upcard"), {"hands": 4, "stake": 7}),
]


@pytest.mark.parametrize("cfg", REWARDED, ids=[_id(c) for c in REWARDED])
@pytest.mark.parametrize("rewards", ["win", "score"])
def test_returns_are_the_documented_function_of_the_result(cfg: Cfg, rewards: str) -> None:
    n = cfg[1]
    for seed in (1, 2):
        env = _env(cfg, rewards=rewards)
        env.reset(seed=seed)
        rng = random.Random(seed)
        returns = np.zeros(n)
        for _ in range(30_000):
            if not env.agents:
                break
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else _pick(rng, obs["action_mask"]))
            returns += [env.rewards.get(a, 0.0) for a in env.possible_agents]
            if rewards == "score" and env.agents:  # paid as the standings change, not later
                assert np.allclose(returns, _standing(cfg, env.match.game)), seed
        game = env.match.game
        assert game.is_over and game.result is not None and not env.agents
        assert game.result.reason != "truncated"
        assert np.allclose(returns, _expected(cfg, game.result, rewards)), seed
        assert abs(returns.sum()) < 1e-9  # zero-sum


def test_a_tonk_natural_at_the_first_deal_of_a_session_is_paid_with_the_first_reward() -> None:
    """rl.rst: what the deal settles before anyone acts is paid with each seat's first reward."""
    cfg: Cfg = ("tonk", 4, (), {"max_players": 4, "stake": 3, "hands": 2})
    seed = next(  # the first seed whose first deal settles something (searched, not assumed)
        s
        for s in range(200)
        if any(cardcore.new_game("tonk", 4, options=cfg[3], seed=s).view(None)["table"]["balances"])
    )
    env = _env(cfg, rewards="score")
    env.reset(seed=seed)
    owed = _standing(cfg, env.match.game)
    assert any(owed)
    obs, _, _, _, _ = env.last()
    env.step(_pick(random.Random(0), obs["action_mask"]))
    paid = [env.rewards[a] for a in env.possible_agents]
    assert np.allclose(paid, _standing(cfg, env.match.game)) and any(paid)


def test_skipped_deals_report_each_seats_own_reward_at_four_seats() -> None:
    found = 0
    for seed in range(80):
        for rewards in ("win", "score"):
            env = aec_env("tonk", 4, options={"max_players": 4, "stake": 3}, rewards=rewards)
            env.reset(seed=seed)
            for seat, agent in enumerate(env.possible_agents):
                for item in env.infos[agent].get("skipped", []):
                    result = item["result"]
                    if rewards == "win":
                        owed = win_rewards(result["winners"], 4)[seat]
                    else:
                        owed = result["payouts"][seat] / 3
                    assert item["reward"] == pytest.approx(owed)
                    found += 1
    assert found >= 8


@pytest.mark.parametrize(
    "cfg",
    [
        ("golf", 64, (), {"rounds": 1, "layout": 10}),
        ("spit", 2, (), {"stall_limit": 1000}),
        ("speed", 2, (), {"side_pile": 15, "jokers": 2}),
    ],
    ids=["golf-64", "spit", "speed"],
)
@pytest.mark.parametrize("cap", [1, 7])
def test_max_actions_truncates_and_pays_nothing(cfg: Cfg, cap: int) -> None:
    env = _env(cfg, max_actions=cap)
    env.reset(seed=3)
    assert env.config.bound == cap
    rng = random.Random(3)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    done: dict[str, tuple[bool, bool]] = {}
    for agent in env.agent_iter(10_000):
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            done[agent] = (terminated, truncated)
            assert info["result"]["reason"] == "truncated" and info["stalled"] is False
            env.step(None)
            continue
        env.step(_pick(rng, obs["action_mask"]))
    assert env.match.game.version == cap
    assert set(done.values()) == {(False, True)} and set(done) == set(env.possible_agents)
    assert set(returns.values()) == {0.0}


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_every_seat_waiting_stalls_the_game_as_truncated(game: str) -> None:
    env = aec_env(game, 2, wait=True)
    env.reset(seed=3)
    wait = env.config.observer.wait
    assert wait == env.config.observer.actions - 1 == len(env.config.observer.names) - 1
    for _ in env.agent_iter(10):
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated and info["stalled"] is True and reward == 0.0
            env.step(None)
            continue
        assert obs["action_mask"][wait] == 1
        env.step(wait)
    result = env.match.game.result
    assert not env.agents and result is not None and result.reason == "truncated"


# -- illegal input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cfg",
    [
        ("golf", 64, (), {"rounds": 1, "layout": 10}),
        ("tonk", 4, (), {"max_players": 4, "stake": 1_000_000}),
        ("spit", 2, ("spit.chooser",), {"stall_limit": 1}),
        ("speed", 2, (), {"side_pile": 15, "jokers": 2}),
        ("gofish", 6, (), {}),
    ],
    ids=["golf-64", "tonk-4", "spit", "speed", "gofish-6"],
)
def test_an_action_outside_the_mask_is_refused_and_changes_nothing(cfg: Cfg) -> None:
    env = _env(cfg)
    env.reset(seed=4)
    n = env.action_space(env.agent_selection).n
    obs, _, _, _, _ = env.last()
    unset = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for action in (unset, -1, n, n + 7, -n, 2**70, np.int64(-1), True, 1.0, "0", None):
        before = (env.match.game.version, env.agent_selection, env.match.game.position())
        with pytest.raises(CardcoreError):
            env.step(action)
        after = (env.match.game.version, env.agent_selection, env.match.game.position())
        assert after == before, repr(action)
    with pytest.raises(IllegalActionError, match="not in player_"):
        env.step(unset)


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("golf", 2, {"dealer": 63}),
        ("golf", 65, {}),
        ("golf", 1, {}),
        ("golf", 2, {"rounds": 101}),
        ("tonk", 4, {}),
        ("tonk", 2, {"first_dealer": 3}),
        ("tonk", 2, {"stake": 0}),
        ("spit", 3, {}),
        ("spit", 2, {"stall_limit": 1001}),
        ("speed", 2, {"side_pile": 10}),
        ("speed", 2, {"jokers": 1}),
    ],
)
def test_a_configuration_past_its_declared_bounds_is_an_option_error(
    game: str, players: int, options: dict[str, Any]
) -> None:
    with pytest.raises(cardcore.OptionError):
        aec_env(game, players, options=options)


# -- the single-seat and batched environments at the extremes ---------------------------------------


@pytest.mark.parametrize(
    ("cfg", "opponents"),
    [
        (("golf", 64, (), {"rounds": 1, "layout": "4h"}), "golf-greedy"),
        (("tonk", 4, (), {"max_players": 4, "stake": 1_000_000, "hands": 3}), "tonk-heuristic"),
        (("spit", 2, ("spit.canfield",), {"stall_limit": 1}), "spit-greedy"),
        (("speed", 2, (), {"side_pile": 15, "jokers": 2}), "random"),
    ],
    ids=["golf-64", "tonk-4", "spit", "speed"],
)
def test_single_seat_and_batched_envs_keep_their_spaces_at_the_last_seat(
    cfg: Cfg, opponents: str
) -> None:
    name, n, rules, opts = cfg
    seat = n - 1
    env = gym_env(name, n, seat=seat, opponents=opponents, rules=rules, options=opts)
    obs, _ = env.reset(seed=9)
    rng = random.Random(9)
    runner = env.unwrapped.runner
    names = runner.config.observer.names
    ret = 0.0
    for _ in range(3000):
        assert env.observation_space.contains(obs)
        assert runner.match is not None
        legal = runner.match.game.legal_actions(seat)
        assert sorted(names[i] for i in np.flatnonzero(obs["action_mask"])) == sorted(
            str(a) for a in legal
        )
        obs, reward, terminated, truncated, _ = env.step(_pick(rng, obs["action_mask"]))
        ret += reward
        if terminated or truncated:
            break
    assert runner.match is not None
    result = runner.match.game.result
    assert terminated and result is not None
    assert ret == pytest.approx(win_rewards(list(result.winners), n)[seat])
    envs = vector_env(name, 3, n, seat=seat, opponents=opponents, rules=rules, options=opts)
    batch, _ = envs.reset(seed=9)
    for _ in range(40):
        assert envs.observation_space.contains(batch)
        acts = [_pick(rng, m) for m in batch["action_mask"]]
        batch, _, _, _, infos = envs.step(acts)
        for i in np.flatnonzero(infos.get("_final_obs", [])):
            final = infos["final_obs"][i]
            assert final["observation"].shape == batch["observation"].shape[1:]
            assert final["action_mask"].shape == batch["action_mask"].shape[1:]


# -- the generic action space at Go Fish's six seats (finding) --------------------------------------

_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _gofish_all_ranks_position() -> str:
    """Six seats, 10 cards left in the stock, no book: seat 0 holds one card of every rank and
    every other seat holds cards (42 cards in hands), a position a game reaches by asking and
    fishing (30 cards dealt, 12 drawn); seat 0 has asked for eight ranks it still holds."""
    deck = [r + s for s in "SHDC" for r in _RANKS]
    own = [r + "S" for r in _RANKS]
    rest = [c for c in deck if c not in own]
    stock, others = rest[:10], rest[10:]  # 29 cards for seats 1-5, never four of a rank
    hands = [others[i::5] for i in range(5)]
    sections = ["gofish to_act=[0] asked=[255,0,0,0,0,0]", "stock: " + " ".join(stock)]
    sections.append("hand.0: " + " ".join(c + "@0" for c in own))
    sections += [f"hand.{i}: " + " ".join(c + f"@{i}" for c in h) for i, h in enumerate(hands, 1)]
    sections += [f"books.{i}:" for i in range(6)]
    return " | ".join(sections)


def test_the_gofish_position_of_the_finding_is_a_valid_six_seat_position() -> None:
    game = cardcore.new_game("gofish", 6, position=_gofish_all_ranks_position(), seed=1)
    legal = game.legal_actions(0)
    assert len(legal) == 5 * 13 == 65  # every other seat, every rank seat 0 holds (GOFISH-ASK-1/2)
    assert len({str(a) for a in legal}) == 65


def test_every_legal_gofish_ask_at_six_seats_has_an_index_in_the_mask() -> None:
    game = cardcore.new_game("gofish", 6, position=_gofish_all_ranks_position(), seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        mask = observe(game, 0)["action_mask"]
    assert int(mask.sum()) == len(game.legal_actions(0))
