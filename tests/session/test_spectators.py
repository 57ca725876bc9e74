"""Spectators: a delayed, redacted stream that never shows a card no player has revealed."""

from __future__ import annotations

import random

import pytest

from cardcore.session.patch import card_words
from tests.session.kit import Table, table


def _play(t: Table, actions: int, rng: random.Random) -> None:
    for _ in range(actions):
        game = t.session.game
        assert game is not None
        if game.is_over:
            return
        seat = rng.choice(game.to_act)
        legal = [a for a in game.legal_actions(seat) if str(a) not in ("knock", "drop")]
        if not legal:
            return
        assert not t.errors(t.act("ab"[seat], str(rng.choice(legal)), 0.5, seen=game.version))


@pytest.mark.parametrize("delay", [0, 1, 3])
def test_spectators_see_the_game_a_set_number_of_actions_late(delay: int) -> None:
    t = table("golf", spectator_delay=delay)
    rng = random.Random(3)
    for _ in range(8):
        _play(t, 1, rng)
        game = t.session.game
        assert game is not None
        w = t.mirrors["w"]
        assert w.version == max(0, game.version - delay)
        assert w.view == t.leaks.views[w.version][None]  # the spectators' view of that version


def test_spectators_see_everything_once_the_game_is_over() -> None:
    t = table("golf", options={"rounds": 1}, spectator_delay=5)
    _play(t, 400, random.Random(4))
    game = t.session.game
    assert game is not None and game.is_over
    assert t.mirrors["w"].version == game.version
    assert t.mirrors["w"].view == game.view(None)


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
def test_a_spectator_never_sees_a_card_no_player_has_revealed(name: str) -> None:
    t = table(name, spectator_delay=1)
    _play(t, 80, random.Random(5))
    seen_by_watcher: set[str] = set()
    for o in t.outbound:
        if o.conn == "w" and o.message["type"] in ("view", "update"):
            seen_by_watcher.update(card_words(o.message))
    assert seen_by_watcher <= t.leaks.allowed[None]  # only cards shown to everyone
    for seat in range(2):  # and each player's hidden hand stays hidden from the watcher
        hidden = t.leaks.allowed[seat] - t.leaks.allowed[None]
        assert not hidden & seen_by_watcher


def test_spectators_read_only_the_past_rounds_they_have_seen_end() -> None:
    t = table("golf", options={"rounds": 3}, spectator_delay=4)
    game = t.session.game
    assert game is not None
    rng = random.Random(6)
    for _ in range(300):
        if game.history(None):
            break
        _play(t, 1, rng)
    # the round just ended: players read it, the delayed spectators not yet
    seat_rounds = t.send("a", {"type": "history"})[0]["rounds"]
    watcher_rounds = t.send("w", {"type": "history"})[0]["rounds"]
    assert len(seat_rounds) == 1 and watcher_rounds == []
    _play(t, 4, rng)
    watcher_rounds = t.send("w", {"type": "history", "since": 0})[0]["rounds"]
    assert watcher_rounds == game.history(None)[:1]
