from __future__ import annotations

import subprocess
import sys

from cardcore.deck import decks, derive_rng, shuffle, standard_52, with_jokers


def test_standard_order() -> None:
    cards = [str(c) for c in standard_52()]
    assert cards[:3] == ["AS", "2S", "3S"] and cards[-1] == "KC" and len(cards) == 52


def test_with_jokers() -> None:
    assert [str(c) for c in with_jokers(standard_52()[:1], 2)] == ["AS", "JK", "JK"]
    assert len(decks(3)) == 156


def test_shuffle_is_a_permutation_and_seeded() -> None:
    a = list(standard_52())
    b = list(standard_52())
    shuffle(a, derive_rng(7, 0))
    shuffle(b, derive_rng(7, 0))
    assert a == b
    assert sorted(map(str, a)) == sorted(map(str, standard_52()))
    c = list(standard_52())
    shuffle(c, derive_rng(7, 1))
    assert c != a


def test_core_chance_1_shuffle_independent_of_hash_seed() -> None:
    code = (
        "from cardcore.deck import *; c=list(standard_52()); shuffle(c, derive_rng(42, 3)); "
        "print(' '.join(map(str, c)))"
    )
    outs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": h},
        ).stdout
        for h in ("0", "1", "12345")
    }
    assert len(outs) == 1
    c = list(standard_52())
    shuffle(c, derive_rng(42, 3))
    assert outs.pop().split() == [str(x) for x in c]
