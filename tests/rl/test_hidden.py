"""The hidden-information guarantee of the encodings: the conformance kit's twin check.

Two states a seat cannot tell apart (the game and ``game.determinize(seat, seed)``, whose
cards hidden from the seat are dealt anew) must give that seat identical observations and
action masks, for every built-in encoding and for the generic one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore.rl import GenericEncoding, Observer, encoding_for, observe, seat_view
from cardcore.rl.encoding import DEFAULT_MAX_LEGAL
from tests.rl.helpers import BUILT_IN, IDS, random_states


def _generic(game: cardcore.Game) -> GenericEncoding:
    players = len(game.players)
    deck = game.logic.deck(players, game.options)
    return GenericEncoding(game.view_schema(), deck, players, DEFAULT_MAX_LEGAL)


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return bool(
        np.array_equal(a["observation"], b["observation"])
        and np.array_equal(a["action_mask"], b["action_mask"])
    )


def _twin_checks(name: str, players: int, options: dict[str, Any], generic: bool) -> tuple[int, int]:
    """Run the twin check along random games; return (checks, twins whose hidden cards moved)."""
    checks = moved = 0
    for seed in range(3):
        encoding = None
        for game in random_states(name, players, options, seed, 150):
            if encoding is None:
                encoding = _generic(game) if generic else encoding_for(game)
            if game.version % 5:
                continue
            for seat in range(players):
                twin = game.determinize(seat, 1000 * seed + game.version)
                assert _same(observe(game, seat, encoding), observe(twin, seat, encoding)), (
                    f"{name}: seat {seat}'s observation at version {game.version} depends on"
                    " cards hidden from it"
                )
                checks += 1
                if twin.position() != game.position():
                    moved += 1
    return checks, moved


@pytest.mark.parametrize(("game", "players", "options"), BUILT_IN, ids=IDS)
def test_twins_a_seat_cannot_tell_apart_encode_alike(
    game: str, players: int, options: dict[str, Any]
) -> None:
    checks, moved = _twin_checks(game, players, options, generic=False)
    assert checks >= 10
    assert moved >= checks // 2  # the twins really differ in what the seat cannot see


@pytest.mark.parametrize(("game", "players", "options"), [*BUILT_IN, ("gofish", 3, {})], ids=[*IDS, "gofish"])
def test_twins_encode_alike_under_the_generic_encoding(
    game: str, players: int, options: dict[str, Any]
) -> None:
    checks, moved = _twin_checks(game, players, options, generic=True)
    assert checks >= 10 and moved >= checks // 2


class _PeekingEncoding:
    """A broken encoding that reads the next seat's view: the twin check must catch it."""

    def __init__(self, inner: Any, players: int) -> None:
        self.inner = inner
        self.players = players
        self.actions = inner.actions
        self.planes = inner.planes
        self.scalars = inner.scalars
        self.needs = "peek"

    def action_names(self) -> Sequence[str]:
        return list(self.inner.action_names())

    def action_indices(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Sequence[int]:
        return list(self.inner.action_indices(view["mine"], legal))

    def observe(self, view: Mapping[str, Any]) -> tuple[Sequence[int], Sequence[float]]:
        hot, scalars = self.inner.observe(view["theirs"])
        return list(hot), list(scalars)

    def progress(self, view: Mapping[str, Any]) -> Sequence[float] | None:
        return None


def test_the_twin_check_catches_an_encoding_that_reads_another_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardcore.rl.encoding as module

    real = module.seat_view

    def leaky(game: cardcore.Game, seat: int | None, needs: str) -> Mapping[str, Any]:
        if needs != "peek" or seat is None:
            return real(game, seat, needs)
        other = (seat + 1) % len(game.players)
        theirs = dict(real(game, other, "table"))
        theirs["seat"] = seat
        return {"mine": real(game, seat, "table"), "theirs": theirs}

    monkeypatch.setattr(module, "seat_view", leaky)
    game = cardcore.new_game("tonk", 2, seed=4)
    encoding = _PeekingEncoding(encoding_for(game), 2)
    obs = Observer(encoding)  # type: ignore[arg-type]
    twin = game.determinize(0, 1)
    a = obs.arrays(game, 0, game.legal_actions(0))[0]
    b = obs.arrays(twin, 0, twin.legal_actions(0))[0]
    assert not np.array_equal(a, b)  # the other hand leaks: the twin check sees it


def test_the_encoders_read_the_same_table_the_view_holds() -> None:
    game = cardcore.new_game("golf", 3, seed=2)
    for seat in range(3):
        assert seat_view(game, seat, "table")["table"] == game.view(seat)["table"]
        assert seat_view(game, seat, "view") == game.view(seat)
