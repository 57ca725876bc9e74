"""Finding 4: a client's ``seen`` never forces a replay of the game under the lock.

A ``seen`` inside :data:`cardcore.STALE_WINDOW` is judged from a checkpoint (at most
``2 * STALE_WINDOW`` actions replayed, once per version and seat); any other ``seen`` is
refused at once naming the window. ``python -m tests.hardening.seen_cost`` measures it.
"""

from __future__ import annotations

import pytest

import cardcore
from cardcore import STALE_WINDOW, IllegalActionError, StaleActionError
from cardcore.testing._util import fingerprint
from tests.hardening.seen_cost import illegal_action, long_spit

HOSTILE = [-1, -(10**100), 0, 1, 10**100, "v", 1.5, True, None]


@pytest.fixture(scope="module")
def deep() -> cardcore.Game:
    return long_spit(2500)


def _count_replays(monkeypatch: pytest.MonkeyPatch, game: cardcore.Game) -> list[int]:
    """Count every action replayed, by any route: each goes through the logic class's apply."""
    from cardcore import setup

    count: list[int] = []
    cls = type(game.logic)
    real = cls.apply

    def counting(self: object, state: object, action: object, emit: object) -> None:
        count.append(1)
        real(self, state, action, emit)  # type: ignore[arg-type]

    monkeypatch.setattr(cls, "apply", counting)
    monkeypatch.setattr(setup, "deal", lambda *a, **k: pytest.fail("the game was dealt again"))
    return count


def test_seen_outside_the_window_is_refused_without_any_replay(
    deep: cardcore.Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = deep.clone()
    action = illegal_action(game)
    count = _count_replays(monkeypatch, game)
    before = fingerprint(game)
    v = game.version
    for seen in (v + 1, v + 10**6, v - STALE_WINDOW - 1, 0, -1, 10**100):
        with pytest.raises(IllegalActionError, match=r"window|CORE-") as info:
            game.apply(action, seen=seen)
        assert not isinstance(info.value, StaleActionError)
    assert count == []
    assert fingerprint(game) == before


@pytest.mark.parametrize("seen", HOSTILE, ids=repr)
def test_hostile_seen_values_raise_a_documented_error(deep: cardcore.Game, seen: object) -> None:
    game = deep.clone()
    action = illegal_action(game)
    before = fingerprint(game)
    with pytest.raises(IllegalActionError):
        game.apply(action, seen=seen)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        game.act(0, str(action), seen=seen)  # type: ignore[arg-type]
    assert fingerprint(game) == before


def test_seen_inside_the_window_replays_a_bounded_number_of_actions_once(
    deep: cardcore.Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = deep.clone()
    game.apply(game.legal_actions(game.to_act[0])[0])  # a fresh clone has no cached history
    action = illegal_action(game)
    count = _count_replays(monkeypatch, game)
    v = game.version
    for seen in range(v - STALE_WINDOW, v):
        try:
            game.apply(action, seen=seen)
        except IllegalActionError:
            pass
        else:
            pytest.fail("an illegal action was applied")
    assert 0 < len(count) <= STALE_WINDOW * 2 * STALE_WINDOW  # counted, and bounded
    first = len(count)
    for _ in range(50):  # a flood of the same message costs nothing more
        for seen in range(v - STALE_WINDOW, v):
            with pytest.raises(IllegalActionError):
                game.apply(action, seen=seen)
    assert len(count) == first
