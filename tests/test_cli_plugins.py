"""The ``cardcore`` command with third-party plugins: broken ones, and fields named like piles."""

from __future__ import annotations

import importlib
import re
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from io import StringIO
from typing import Any

import attrs
import pytest

import cardcore
from cardcore import RuleInfo, ViewField, cli, hookimpl, plugins
from cardcore.cli.commands import default_game
from tests.plugins import drawgame


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")


# -- a table field named like a pile hides nothing --------------------------------------------


class _HandsLogic(drawgame.DrawLogic):
    """The draw game, whose table also counts each hand (``hands``) and the stock (``stock``)."""

    def table(self, state: drawgame.DrawState, seat: int | None) -> dict[str, Any]:
        z = state.zones
        hands = [len(z.cards[drawgame.HAND + s]) for s in range(state.players)]
        return {
            **super().table(state, seat),
            "hands": hands,
            "stock": len(z.cards[drawgame.STOCK]),
        }


def _counting_game(name: str, label: str | None) -> types.ModuleType:
    module = types.ModuleType(f"tests_{name.replace('-', '_')}")
    module.GAME = attrs.evolve(
        drawgame.GAME,
        name=name,
        fields=(
            *drawgame.GAME.fields,
            ViewField("hands", "per-seat", "Cards in each hand.", of="int", label=label),
            ViewField("stock", "int", "Cards left in the stock."),
        ),
    )

    @hookimpl
    def create_logic(ruleset: cardcore.Ruleset) -> _HandsLogic:
        return _HandsLogic(ruleset)

    module.create_logic = create_logic
    module.card_points = drawgame.card_points
    return module


@contextmanager
def _installed(group: str, name: str, target: object) -> Iterator[None]:
    cardcore.register(group, name, target)
    try:
        yield
    finally:
        cardcore.unregister(group, name)


def _screen(game: cardcore.Game, seat: int | None) -> str:
    from rich.console import Console

    from cardcore.cli.screen import Screen

    buf = StringIO()
    Console(file=buf, width=200, color_system=None, highlight=False).print(
        Screen(game, seat).draw()
    )
    return buf.getvalue()


@pytest.mark.parametrize("label", [None, "cards held"])
def test_a_per_seat_count_named_like_a_pile_keeps_your_own_cards_on_screen(
    label: str | None,
) -> None:
    """A ``per-seat`` ``int`` field ``hands`` beside the piles ``hand.N`` (a hand count, with or
    without a label) is drawn as its own column: the viewer still sees their own cards; an
    ``int`` field ``stock`` beside the face-down stock pile draws it once, as its count."""
    with _installed("cardcore.games", "handcount", _counting_game("handcount", label)):
        game = cardcore.new_game("handcount", ["Ann", "Bob"], seed=3)
        text = _screen(game, 0)
        header = next(line for line in text.splitlines() if "player" in line)
        assert re.search(r"\bhand\b", header), header  # the pile's column
        assert (label or "hands") in header  # and the field's
        mine = next(line for line in text.splitlines() if "(you)" in line)
        own = next(z["cards"] for z in game.view(0)["zones"] if z["name"] == "hand.0")
        assert own and all(card in mine for card in own), mine
        assert re.search(r"\b3\b", mine)  # the count
        assert "stock (cards)" not in text and len(re.findall(r"stock: \d+\b", text)) == 1
        assert "Ann" in _screen(game, None)  # a spectator's screen draws too


def test_a_card_field_named_like_a_pile_still_presents_it() -> None:
    """A field that holds cards (``discard_top`` beside the pile ``discard``) is still the game's
    own presentation of that pile: drawn once, instead of it."""
    from cardcore.cli.render import arrange

    schema = {
        "fields": [
            {"name": "discard_top", "kind": "card", "label": "", "of": ""},
            {"name": "hands", "kind": "per-seat", "label": "", "of": "int"},
            {"name": "grids", "kind": "per-seat", "label": "", "of": "json"},
        ]
    }
    zones = [
        {"name": "discard", "owner": None, "visibility": "top", "count": 1, "cards": ["9H"]},
        *(
            {"name": f"{base}.{s}", "owner": s, "visibility": "owner", "count": 1, "cards": [None]}
            for s in (0, 1)
            for base in ("hand", "grid")
        ),
    ]
    view = {"seat": 0, "table": {"discard_top": "9H", "hands": [1, 1], "grids": [[], []]}}
    where = arrange({**view, "zones": zones}, schema)
    assert [name for name, _, _ in where.columns] == ["hand", "hands", "grids"]
    assert where.shared == ()
    assert where.hidden_keys == frozenset({"hand", "hands"})


# -- a plugin that fails to load is left out, and named ---------------------------------------


class _EntryPoint:
    """Stands for an installed entry point whose module is imported when loaded."""

    def __init__(self, group: str, value: str, load: Callable[[], Any]) -> None:
        self.group, self.value, self._load = group, value, load

    def load(self) -> Any:
        return self._load()


def _blows_up() -> Any:
    msg = "game module blew up at import"
    raise RuntimeError(msg)


def _missing_dependency() -> Any:
    return importlib.import_module("nonexistent_dependency_xyz")


def _misnamed() -> types.ModuleType:
    module = types.ModuleType("pa_broken_misnamed")
    module.RULE = RuleInfo(id="PA-MIS-1", name="golf.mis-named", game="golf", summary="x")
    return module


@pytest.fixture
def broken() -> Iterator[None]:
    """A game that raises at import, and two house rules of Golf: one whose import fails,
    one whose ``RULE.name`` is not its entry-point name."""
    added = [
        ("cardcore.games", "brokengame", "pa_broken.brokengame", _blows_up),
        ("cardcore.rules", "golf.import-fails", "pa_broken.import_fails", _missing_dependency),
        ("cardcore.rules", "golf.misnamed", "pa_broken.misnamed", _misnamed),
    ]
    entries = plugins._entries()
    for group, name, value, load in added:
        entries[group][name] = _EntryPoint(group, value, load)
    try:
        yield
    finally:
        for group, name, _, _ in added:
            cardcore.unregister(group, name)


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("warning: ")]


@pytest.mark.usefixtures("broken")
def test_list_shows_what_loads_then_names_each_plugin_that_failed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["list"]) == 0
    out, err = capsys.readouterr()
    assert "golf" in out and "golf.jokers" in out and "GOLF-SCORE-4" in out
    assert "brokengame" not in out and "golf.misnamed" not in out
    warned = _warnings(err)
    assert len(warned) == 3, err
    assert "game 'brokengame'" in warned[0] and "game module blew up at import" in warned[0]
    assert "'golf.import-fails'" in warned[1] and "nonexistent_dependency_xyz" in warned[1]
    assert "'golf.misnamed'" in warned[2] and "RULE.name = 'golf.mis-named'" in warned[2]


@pytest.mark.usefixtures("broken")
@pytest.mark.parametrize("command", ["list", "rules"])
def test_a_games_listing_warns_about_its_rules_that_failed(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main([command, "golf"]) == 0
    out, err = capsys.readouterr()
    assert "golf.jokers" in out
    warned = _warnings(err)
    assert [w.split("'")[1] for w in warned] == ["golf.import-fails", "golf.misnamed"], err
    assert cli.main([command, "tonk"]) == 0
    assert _warnings(capsys.readouterr().err) == []  # not tonk's rules


@pytest.mark.usefixtures("broken")
def test_simulate_without_a_game_takes_one_that_loads(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert default_game() != "brokengame"
    assert cli.main(["simulate", "--games", "4", "-q"]) == 0
    assert f"{default_game()}: 4 games" in capsys.readouterr().out


@pytest.mark.usefixtures("broken")
@pytest.mark.parametrize(
    "argv, status, error",
    [
        (["list", "brokengame"], 1, "game module blew up at import"),
        (["rules", "brokengame"], 1, "game module blew up at import"),
        (["simulate", "brokengame", "-n", "2", "-q"], 1, "game module blew up at import"),
        (["rules", "golf", "golf.import-fails"], 1, "nonexistent_dependency_xyz"),
        (["rules", "golf", "golf.misnamed"], 1, r"RULE\.name = 'golf\.mis-named'"),
        (["rules", "golf", "PA-MIS-1"], 1, r"RULE\.name = 'golf\.mis-named'"),
        (["simulate", "golf", "-n", "2", "-r", "golf.misnamed"], 1, r"RULE\.name"),
    ],
)
def test_a_broken_plugin_asked_for_by_name_gives_its_error(
    argv: list[str], status: int, error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == status
    err = capsys.readouterr().err
    assert re.search(rf"^error: .*{error}", err, re.M), err
    assert len(err.splitlines()) == 1, err


@pytest.mark.usefixtures("broken")
def test_a_rule_by_id_is_found_past_rules_that_fail_to_load(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["rules", "golf", "GOLF-SCORE-4"]) == 0
    out = capsys.readouterr().out
    assert "golf.jokers" in out and "GOLF-SCORE-4" in out


@pytest.mark.usefixtures("broken")
def test_the_library_finds_a_rule_by_id_past_rules_that_fail_to_load() -> None:
    game = cardcore.new_game("golf", 2, rules=["GOLF-SCORE-4"], seed=1)
    assert game.rules == ("golf.jokers",) or "golf.jokers" in game.rules
    with pytest.raises(cardcore.UnknownPluginError, match="no house rule called 'GOLF-NOPE-9'"):
        cardcore.new_game("golf", 2, rules=["GOLF-NOPE-9"], seed=1)
