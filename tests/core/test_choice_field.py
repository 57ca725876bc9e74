"""View fields of kind ``choice``: declared, checked by the kit, one-hot in the RL encoding."""

from __future__ import annotations

import types
from collections.abc import Iterator

import attrs
import pytest
from tests.plugins import eights_2026_12_11 as e8

import cardcore
from cardcore import PluginError, ViewField
from cardcore.testing import check_game

SUITS = ("S", "H", "D", "C")


def _variant(name: str, choices: tuple[str, ...]) -> types.ModuleType:
    """Crazy Eights with its ``suit`` field declared a ``choice`` of *choices*."""
    module = types.ModuleType(name)
    module.__dict__.update({k: v for k, v in vars(e8).items() if not k.startswith("__")})
    fields = tuple(
        ViewField("suit", "choice", f.doc, choices=choices) if f.name == "suit" else f
        for f in e8.GAME.fields
    )
    module.GAME = attrs.evolve(e8.GAME, name=name, fields=fields)
    return module


@pytest.fixture
def eights() -> Iterator[str]:
    cardcore.register("cardcore.games", "eights-choice", _variant("eights-choice", SUITS))
    cardcore.register("cardcore.games", "eights-narrow", _variant("eights-narrow", ("S", "H")))
    yield "eights-choice"
    cardcore.unregister("cardcore.games", "eights-narrow")
    cardcore.unregister("cardcore.games", "eights-choice")


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"kind": "choice"}, "needs choices="),
        ({"kind": "choice", "choices": "SHDC"}, "needs choices="),
        ({"kind": "choice", "choices": ()}, "needs choices="),
        ({"kind": "str", "choices": ("a",)}, "choices= is for kind 'choice' only"),
        ({"kind": "choice", "choices": ("a", "a")}, "holds a value twice"),
        ({"kind": "choice", "choices": ("a", ["b"])}, "text, a finite number or a boolean"),
        ({"kind": "per-seat", "of": "choice"}, "needs choices="),
    ],
)
def test_a_choice_field_is_declared_with_its_values(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(PluginError, match=words):
        ViewField("called", **kwargs)  # type: ignore[arg-type]


def test_a_choice_field_serves_its_choices() -> None:
    field = ViewField("called", "choice", "the suit called", choices=["C", "D"], nullable=True)
    assert field.choices == ("C", "D")
    assert field.to_json()["choices"] == ["C", "D"]
    per_seat = ViewField("calls", "per-seat", "each seat's call", of="choice", choices=(1, 2))
    assert per_seat.to_json()["choices"] == [1, 2]
    assert "choices" not in ViewField("n", "int").to_json()


def test_the_kit_passes_a_game_whose_choices_hold_and_catches_one_whose_do_not(eights: str) -> None:
    assert check_game(eights, games=3, checks={"views"}, strict=False).ok
    narrow = check_game("eights-narrow", games=6, checks={"views"}, strict=False)
    assert not narrow.ok
    assert any("must be one of the declared choices ['S', 'H']" in f for f in narrow.failures)


def test_the_generic_encoding_shows_a_choice_as_a_one_hot(eights: str) -> None:
    pytest.importorskip("gymnasium")
    import copy

    from cardcore.rl import observe
    from cardcore.rl.encoding import encoding_for

    game = cardcore.new_game(eights, 2, seed=3)
    enc = encoding_for(game)
    assert enc.choices["suit"] == SUITS
    view = game.view(0)
    positions = []
    for value in (*SUITS, None, "X"):
        changed = copy.deepcopy(view)
        changed["table"]["suit"] = value
        hot, _ = enc.observe(changed)
        positions.append(set(hot))
    common = set.intersection(*positions)
    ones = [p - common for p in positions]
    assert all(len(o) == 1 for o in ones)  # exactly one place lit per value
    assert len({min(o) for o in ones[:4]}) == 4  # each suit its own place
    assert ones[4] == ones[5] and ones[4] != ones[0]  # None and an unknown value: "none of them"
    before = observe(game, 0)["observation"]
    assert before.sum() > 0
