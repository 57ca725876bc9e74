"""Hand-built actions whose fields equal a legal action's but are of another type
(``2.0 == 2``, ``True == 1``): before the fix Spit and Speed passed them as legal and
failed in ``apply`` (a PluginError blaming the game), and Tonk recorded ``hit True 5C``,
a record that does not replay."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import cardcore
from cardcore import Action, IllegalActionError
from cardcore.testing._util import fingerprint

SPIT_DECK = (
    "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
    "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
)


def _retyped(action: Action, kind: type) -> list[Action]:
    """Copies of *action* with one int field (not the seat) made a *kind*."""
    copies = []
    for f in attrs.fields(type(action)):
        value = getattr(action, f.name)
        if f.init and f.name != "seat" and type(value) is int:
            copies.append(attrs.evolve(action, **{f.alias: kind(value)}))
    return copies


def _refused(game: cardcore.Game, action: Action) -> None:
    before = fingerprint(game)
    with pytest.raises(IllegalActionError, match=r"\(CORE-ACTION-1\)"):
        game.apply(action)
    assert fingerprint(game) == before


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_float_pile_numbers_are_illegal_not_plugin_errors(name: str) -> None:
    game = cardcore.new_game(name, 2, seed=2, deck=SPIT_DECK if name == "spit" else None)
    if name == "spit":
        game.act(0, "ready")
        game.act(1, "ready")
    checked = 0
    for seat in game.to_act:
        for action in game.legal_actions(seat):
            for odd in _retyped(action, float):
                assert odd == action
                _refused(game, odd)
                checked += 1
    assert checked
    game.act(0, game.view(0)["legal"][0])  # the game plays on


def _tonk_with_a_hit() -> tuple[cardcore.Game, Any]:
    from cardcore_tonk.actions import Hit

    rng = random.Random(0)
    for seed in range(5000):
        game = cardcore.new_game("tonk", 2, seed=seed)
        while not game.is_over:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            hits = [a for a in legal if type(a) is Hit and a.number == 1]
            if hits:
                return game, hits[0]
            if not legal:
                break
            game.apply(rng.choice(legal))
    raise AssertionError("no game offered a hit")


@pytest.mark.parametrize("hot", [False, True], ids=["cold", "after-legal-actions"])
def test_tonk_hit_on_a_spread_number_that_is_not_an_int_is_refused(hot: bool) -> None:
    from cardcore_tonk.actions import Hit

    game, hit = _tonk_with_a_hit()
    for number in (True, 1.0, 0, -1):
        if hot:
            game.legal_actions(hit.seat)
        before = fingerprint(game)
        with pytest.raises(IllegalActionError, match="no spread number") as info:
            game.apply(Hit(hit.seat, number, hit.card))
        assert info.value.rule_id == "TONK-HIT-1"
        assert fingerprint(game) == before
    game.apply(hit)
    assert game.record()["actions"][-1][1] == f"hit 1 {hit.card}"
    assert cardcore.replay(game.record()).version == game.version


@pytest.mark.parametrize("asked_first", [True, False])
def test_a_game_without_its_own_is_legal_applies_and_records_the_legal_action(
    asked_first: bool,
) -> None:
    """Go Fish (an example plugin) leaves ``is_legal`` to the core, which decides by the
    legal set: an equal copy holding ``True`` for seat 1 is applied as the legal action, so
    the record says ``ask 1 ...`` and replays (it said ``ask True ...`` and did not)."""
    game = cardcore.new_game("gofish", 3, seed=1)
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    first = next(a for a in legal if a.target == 1)
    odd = attrs.evolve(first, target=True)
    assert odd == first and str(odd) != str(first)
    if not asked_first:
        game = cardcore.new_game("gofish", 3, seed=1)  # nothing published: the cold path
    game.apply(odd)
    assert game.record()["actions"][0][1] == str(first)
    again = cardcore.replay(game.record())
    assert again.version == 1 and again.record()["actions"] == game.record()["actions"]


# -- 2026-12-07: exact types only (Spit and Speed), malformed hand-built actions -------------


class _EqAll(int):
    """An int subclass that claims to equal everything."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 0


def _playing(name: str) -> cardcore.Game:
    game = cardcore.new_game(name, 2, seed=2, deck=SPIT_DECK if name == "spit" else None)
    if name == "spit":
        game.act(0, "ready")
        game.act(1, "ready")
    return game


@pytest.mark.parametrize("name", ["spit", "speed"])
@pytest.mark.parametrize("kind", [_EqAll, bool], ids=["lying-int", "bool"])
def test_int_subclass_fields_fail_the_games_own_is_legal(name: str, kind: type) -> None:
    """The core applies the object the game's ``is_legal`` accepts and records its notation:
    an int subclass field (one equal to everything, or ``True`` for 1) must not pass, else
    the record holds text that does not replay (``play 0 L``)."""
    game = _playing(name)
    logic = game.logic
    checked = 0
    for seat in game.to_act:
        legal = game.legal_actions(seat)
        for action in legal:
            assert logic.is_legal(game.state, action)  # the common case still passes
            for f in attrs.fields(type(action)):
                value = getattr(action, f.name)
                if not f.init or type(value) is not int or (kind is bool and value not in (0, 1)):
                    continue
                odd = attrs.evolve(action, **{f.alias: kind(value)})
                assert not logic.is_legal(game.state, odd), odd
                if f.name != "seat":  # (the core refuses an odd seat itself)
                    _refused(game, odd)
                checked += 1
    assert checked
    game.apply(game.legal_actions(game.to_act[0])[0])
    assert cardcore.replay(game.record()).version == game.version


def test_speed_a_card_that_claims_to_be_every_card_fails_is_legal() -> None:
    from cardcore_spit.speed.actions import PlayCard

    game = _playing("speed")
    play = next(a for s in (0, 1) for a in game.legal_actions(s) if type(a) is PlayCard)
    odd = attrs.evolve(play, card=_EqAll(0))
    assert odd == play
    assert not game.logic.is_legal(game.state, odd)
    _refused(game, odd)


def _spit_malformed() -> list[Action]:
    from cardcore_spit.actions import Claim, Combine, Fill, Play

    return [
        Play(0, -1, 0),
        Play(0, 5, 0),
        Play(0, 0, -1),
        Play(0, 0, 2),
        Play(0, "1", 0),  # type: ignore[arg-type]
        Combine(0, -1, 1),
        Combine(0, 2, 2),
        Fill(0, 0, 5),
        Fill(0, 1.0, 2),  # type: ignore[arg-type]
        Claim(0, -1),
        Claim(0, 0, 7),  # type: ignore[arg-type]
    ]


def _speed_malformed() -> list[Action]:
    from cardcore import Card
    from cardcore_spit.speed.actions import PlayCard

    six = Card.parse("6S")
    return [
        PlayCard(0, six, -1),
        PlayCard(0, six, 2),
        PlayCard(0, six, 10**5000),
        PlayCard(0, "6S", 1),  # type: ignore[arg-type]
        PlayCard(0, None, 0),  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize(
    ("name", "action"),
    [("spit", a) for a in _spit_malformed()] + [("speed", a) for a in _speed_malformed()],
    ids=lambda v: v if isinstance(v, str) else type(v).__name__,
)
def test_a_malformed_action_object_is_refused_as_malformed(name: str, action: Action) -> None:
    """CORE-ACTION-1: a hand-built action with a pile outside the table (a negative index
    read as the last pile), text for a card or a pile, or a bool/float field has no
    notation (a cardcore error, never a raw one or a wrong text such as ``play 6S R``) and
    is refused as malformed: never as another action's reason."""
    game = _playing(name)
    with pytest.raises(cardcore.NotationError, match="malformed action"):
        str(action)
    assert game.logic.rule_for(game.state, action)[0] == "CORE-ACTION-1"
    assert not game.logic.is_legal(game.state, action)
    before = fingerprint(game)
    with pytest.raises(IllegalActionError, match=r"\(CORE-ACTION-1\)") as info:
        game.apply(action)
    assert info.value.rule_id == "CORE-ACTION-1"
    assert fingerprint(game) == before
