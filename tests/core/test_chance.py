"""Chance (record format 3): the derivation as specified, its fairness, and old records
and sessions replaying with the chance of their day."""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import CHANCE, Chance, CorruptStateError, derive_rng, shuffle
from cardcore.session import MemoryStore, Session, StoredSession, TokenRow

DATA = Path(__file__).resolve().parent / "data"
V2_RECORDS = sorted(DATA.glob("*_v2_record.json"))
V2_SAVES = sorted(DATA.glob("*_v2_save.json"))
SESSION_V1 = Path(__file__).resolve().parents[1] / "session" / "data" / "golf_v1_session.json"


def _words(seed: int, counter: int, n: int) -> list[int]:
    """The spec, written out independently: SHAKE-128 of the key, little-endian 32-bit words."""
    key = f"cardcore-chance/3:{seed}:{counter}".encode()
    raw = hashlib.shake_128(key).digest(4 * n)
    return [int.from_bytes(raw[4 * k : 4 * k + 4], "little") for k in range(n)]


def _spec_shuffle(items: list[Any], seed: int, counter: int) -> list[Any]:
    out = list(items)
    words = _words(seed, counter, len(out) - 1)
    for step, i in enumerate(range(len(out) - 1, 0, -1)):
        j = words[step] % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@pytest.mark.parametrize(("seed", "counter", "n"), [(0, 0, 52), (7, 3, 104), (2**70, 12, 10)])
def test_the_shuffle_is_the_documented_derivation(seed: int, counter: int, n: int) -> None:
    items = list(range(n))
    shuffle(items, Chance(seed, counter))
    assert items == _spec_shuffle(list(range(n)), seed, counter)
    assert sorted(items) == list(range(n))  # every card once


def test_random_takes_two_words_as_the_mersenne_twister_does() -> None:
    a, b, c, d = _words(5, 1, 4)
    rng = Chance(5, 1)
    assert rng.random() == ((a >> 5) * 67108864 + (b >> 6)) / 2**53
    assert rng.random() == ((c >> 5) * 67108864 + (d >> 6)) / 2**53
    many = [Chance(9, k).random() for k in range(2000)]
    assert all(0.0 <= x < 1.0 for x in many) and abs(sum(many) / len(many) - 0.5) < 0.03


def test_every_permutation_of_four_is_equally_likely() -> None:
    counts = collections.Counter()
    trials = 24_000
    for k in range(trials):
        items = [0, 1, 2, 3]
        Chance(11, k).shuffle(items)
        counts[tuple(items)] += 1
    assert len(counts) == 24
    expected = trials / 24
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 49.7  # 23 degrees of freedom, p = 0.001


def test_randrange_choice_and_randint_are_exact_and_in_range() -> None:
    rng = Chance(3, 4)
    draws = [rng.randrange(6) for _ in range(6000)]
    assert set(draws) == set(range(6))
    assert max(collections.Counter(draws).values()) < 1150
    assert all(10 <= rng.randrange(10, 13) < 13 for _ in range(100))
    assert all(1 <= rng.randint(1, 2) <= 2 for _ in range(100))
    assert rng.choice("xyz") in "xyz"
    hand = rng.sample(range(52), 5)
    assert len(set(hand)) == 5 and all(0 <= c < 52 for c in hand)
    assert sorted(rng.sample("abc", 3)) == ["a", "b", "c"] and rng.sample("abc", 0) == []
    with pytest.raises(ValueError, match="larger than the population"):
        rng.sample("ab", 3)
    firsts = collections.Counter(Chance(8, k).sample("abcd", 2)[0] for k in range(4000))
    assert len(firsts) == 4 and max(firsts.values()) < 1150  # each about 1000
    assert 0 <= rng.getrandbits(100) < 2**100 and rng.getrandbits(0) == 0
    with pytest.raises(ValueError, match="empty range"):
        rng.randrange(3, 3)
    with pytest.raises(IndexError):
        rng.choice([])
    with pytest.raises(ValueError, match="non-negative"):
        rng.getrandbits(-1)


def test_a_long_stream_is_one_stream() -> None:
    """Reading past the first digest extends the same SHAKE stream."""
    rng = Chance(1, 1)
    got = [rng.getrandbits(32) for _ in range(300)]
    assert got == _words(1, 1, 300)


def test_new_games_deal_with_chance_and_record_format_3() -> None:
    game = cardcore.new_game("golf", 2, seed=99)
    deck = list(game.logic.deck(2, game.options))
    expected = _spec_shuffle(deck, 99, 0)
    expected.reverse()  # bottom to top: the first card of the shuffled deck is dealt first
    dealt = [c for pile in game.state.zones.cards for c in pile]
    assert sorted(map(str, dealt)) == sorted(map(str, expected))
    assert game.state.chance == CHANCE
    # the upcard is the card after the deal: GOLF-DEAL-1/2 deal 6 each from the top
    assert str(game.state.zones.cards[1][-1]) == str(expected[-13])
    assert game.record()["format_version"] == 3


@pytest.mark.parametrize("path", V2_RECORDS, ids=lambda p: p.stem)
def test_v2_records_replay_with_the_chance_of_their_day(path: Path) -> None:
    old = json.loads(path.read_text())
    assert old["format_version"] == 2 and old["result"] is not None
    game = cardcore.replay(old)  # the recorded result must be the one its actions replay to
    assert game.result is not None and game.result.to_json() == old["result"]
    assert game.state.chance == 2 and game.state.draws >= 1
    again = game.record()
    assert again["format_version"] == 2  # still replays with the old chance
    assert again["actions"] == old["actions"]
    clone = game.clone()
    assert clone.state.chance == 2 and clone.record() == again
    relabelled = dict(old, format_version=3)  # the same actions under the new chance
    with pytest.raises(CorruptStateError):
        cardcore.replay(relabelled)


def test_the_v2_files_are_what_the_previous_release_wrote() -> None:
    assert {p.name.split("_v2_")[0] for p in V2_RECORDS} == {"golf", "tonk", "spit", "speed"}
    draws = {
        p.name.split("_v2_")[0]: cardcore.replay(json.loads(p.read_text())).state.draws
        for p in V2_RECORDS
    }
    assert draws["golf"] > 1 and draws["tonk"] > 1 and draws["spit"] > 1  # later chance events too


@pytest.mark.parametrize("path", V2_SAVES, ids=lambda p: p.stem)
def test_v2_saves_load_and_go_on_with_their_chance(path: Path) -> None:
    old = json.loads(path.read_text())
    game = cardcore.load(old)
    assert game.version == old["version"] and game.state.chance == 2
    rand = random.Random(4).random
    while not game.is_over:
        legal = game.legal_actions(game.to_act[0])
        game.apply(legal[math.floor(rand() * len(legal))])
    new = game.save()
    assert new["format_version"] == 3 and new["record"]["format_version"] == 2
    assert cardcore.load(json.loads(json.dumps(new))).result == game.result


def test_a_session_stored_in_format_1_resumes_with_its_chance() -> None:
    data = json.loads(SESSION_V1.read_text())
    fields = {f.name for f in dataclasses.fields(StoredSession)}
    stored = StoredSession(**{k: v for k, v in data.items() if k in fields})
    stored.actions = [tuple(a) for a in stored.actions]  # type: ignore[misc]
    stored.tokens = [TokenRow(**t) if isinstance(t, dict) else TokenRow(*t) for t in stored.tokens]
    stored.messages = {k: [tuple(m) for m in v] for k, v in stored.messages.items()}  # type: ignore[misc]
    assert stored.meta["format_version"] == 1 and "chance" not in stored.meta
    store = MemoryStore()
    store.create(stored)
    resumed = Session.resume(store, stored.id, 100.0)
    game = resumed.game
    assert game is not None and resumed.chance == 2 and game.state.chance == 2
    assert game.record() == data["expected_record"]
    assert game.position() == data["expected_position"]
    assert resumed._meta()["chance"] == 2  # stored from now on, so a later restart keeps it
    # what the web server's replay endpoint rebuilds, step by step, with the session's chance
    again = resumed.setup.build(resumed.seed or 0, stored.actions, chance=resumed.chance)
    assert again.record() == data["expected_record"]


def test_legacy_chance_is_still_the_mersenne_twister() -> None:
    state = cardcore.new_game("golf", 2, seed=3).state.clone()
    state.chance = 2
    state.draws = 4
    assert state.rng().random() == derive_rng(3, 5).random()


@pytest.mark.parametrize("path", [p for p in V2_RECORDS if "golf" in p.name], ids=lambda p: p.stem)
def test_a_failed_apply_restores_an_old_record_s_game_with_its_own_chance(path: Path) -> None:
    """Restoring replays from the deal when no checkpoint is kept: with the old chance."""
    old = json.loads(path.read_text())
    partial = dict(old, actions=old["actions"][:40], result=None)
    game = cardcore.replay(partial)
    before = game.state.snapshot()
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    real = game._logic_apply

    def half_then_fail(state: Any, action: Any, emit: Any) -> None:
        real(state, action, emit)  # the state changes, then the plugin fails
        raise RuntimeError("boom")

    game._logic_apply = half_then_fail
    with pytest.raises(cardcore.PluginError):
        game.apply(legal[0])
    assert game.state.snapshot() == before and game.state.chance == 2
    game._logic_apply = real
    game.apply(legal[0])
    assert game.version == 41
