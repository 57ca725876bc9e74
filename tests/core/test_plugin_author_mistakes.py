"""Mistakes a plugin author makes from the docs: each refused early, in one clear message."""

from __future__ import annotations

import logging
import types
from collections.abc import Iterator

import pytest

import cardcore
from cardcore import PluginError, RuleInfo, ViewField, hookimpl
from cardcore.events import Event


def test_view_field_unknown_kind_is_a_plugin_error() -> None:
    with pytest.raises(
        PluginError, match=r"^view field 'n': kind must be one of 'int', .* not 'integer'$"
    ):
        ViewField("n", "integer")


def test_view_field_per_seat_requires_of() -> None:
    with pytest.raises(PluginError, match=r"^view field 'n': kind 'per-seat' needs of="):
        ViewField("n", "per-seat")
    with pytest.raises(PluginError, match=r"of= must be one of .* not 'list'$"):
        ViewField("n", "per-seat", of="list")
    with pytest.raises(PluginError, match=r"of= is for kind 'per-seat' only, not 'int'"):
        ViewField("n", "int", of="int")
    assert ViewField("n", "per-seat", of="json").to_json()["of"] == "json"


@pytest.mark.parametrize(
    ("group", "message"),
    [
        ("cardcore.rules", "house-rule plugin 'golf.norule' has no RULE = RuleInfo(...)"),
        ("cardcore.games", "game plugin 'golf.norule' has no GAME = GameInfo(...)"),
    ],
)
def test_register_refuses_a_module_without_its_declaration(group: str, message: str) -> None:
    with pytest.raises(PluginError, match=f"^{message.replace('(', '[(]').replace(')', '[)]')}$"):
        cardcore.register(group, "golf.norule", types.ModuleType("norule"))
    with pytest.raises(cardcore.UnknownPluginError):
        cardcore.unregister(group, "golf.norule")  # nothing was registered


def test_register_refuses_a_declaration_of_the_wrong_type() -> None:
    module = types.ModuleType("wrongrule")
    module.RULE = {"id": "X-1"}  # type: ignore[attr-defined]
    with pytest.raises(PluginError, match=r"has no RULE = RuleInfo\(...\) \(its RULE is dict"):
        cardcore.register("cardcore.rules", "golf.wrong", module)


def test_register_leaves_an_unloaded_entry_point_lazy() -> None:
    class Lazy:  # an entry point: loaded and checked at first use, not at register
        value = "nowhere.at.all:module"
        group = "cardcore.rules"

        def load(self) -> object:
            raise ImportError("not loaded at register")

    cardcore.register("cardcore.rules", "golf.lazy", Lazy())
    cardcore.unregister("cardcore.rules", "golf.lazy")


@pytest.fixture
def rule() -> Iterator[object]:
    names: list[str] = []

    def make(name: str, **hooks: object) -> types.ModuleType:
        module = types.ModuleType("pa_" + name.replace(".", "_").replace("-", "_"))
        module.RULE = RuleInfo(
            id="PA-" + name.split(".")[1].upper(), name=name, game="golf", summary=name
        )  # type: ignore[attr-defined]
        vars(module).update(hooks)
        cardcore.register("cardcore.rules", name, module)
        names.append(name)
        return module

    yield make
    for name in names:
        cardcore.unregister("cardcore.rules", name)


def test_wrong_hook_argument_is_said_once(rule) -> None:  # type: ignore[no-untyped-def]
    @hookimpl
    def points_badarg(c):  # type: ignore[no-untyped-def]
        return 0

    rule("golf.badarg", card_points=points_badarg)
    with pytest.raises(PluginError) as caught:
        cardcore.new_game("golf", 2, rules=["golf.badarg"], seed=1)
    text = str(caught.value)
    assert text == (
        "plugin 'golf.badarg' implements hook 'card_points' as points_badarg(c), but"
        " 'card_points' has no argument 'c' (it offers: card; an implementation takes any"
        " of them, by name)"
    )
    assert caught.value.plugin == "golf.badarg"


def test_other_pluggy_refusals_keep_the_reason_once(rule) -> None:  # type: ignore[no-untyped-def]
    @hookimpl(wrapper=True)
    def build_deck():  # type: ignore[no-untyped-def]
        return ()  # not a generator

    rule("golf.notgen", build_deck=build_deck)
    with pytest.raises(PluginError) as caught:
        cardcore.new_game("golf", 2, rules=["golf.notgen"], seed=1)
    text = str(caught.value)
    assert text.startswith("plugin 'golf.notgen', hook 'build_deck' is refused: ")
    assert "not a generator function" in text
    assert text.count("golf.notgen") == 1


def test_failing_observer_is_named_and_its_traceback_logged_once_per_game(
    rule, caplog: pytest.LogCaptureFixture
) -> None:  # type: ignore[no-untyped-def]
    @hookimpl
    def on_event(event: Event) -> None:
        raise RuntimeError("observer crashed")

    rule("golf.boom-event", on_event=on_event)
    failures = []
    caplog.set_level(logging.DEBUG, logger="cardcore.events")
    game = cardcore.new_game("golf", 2, rules=["golf.boom-event"], seed=3, options={"rounds": 1})
    game.events.on_error = failures.append
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert game.is_over  # the game went on
    records = [r for r in caplog.records if r.name == "cardcore.events"]
    with_traceback = [r for r in records if r.exc_info]
    assert len(with_traceback) == 1
    assert (
        with_traceback[0]
        .getMessage()
        .startswith(
            "plugin 'golf.boom-event': on_event raised RuntimeError on game-started: observer crashed"
        )
    )
    count = sum(1 for r in records if r.levelno in (logging.ERROR, logging.DEBUG))
    count += sum(1 for r in records if "has raised" in r.getMessage())
    assert count > len(failures) > 20  # the deal's failures came before on_error was set
    assert all(f.plugin == "golf.boom-event" and f.subscription is None for f in failures)
    warnings = [r.getMessage() for r in records if r.levelno == logging.WARNING]
    assert warnings[0].startswith(
        "plugin 'golf.boom-event': on_event has raised 10 times in this game, now RuntimeError"
    )
    assert warnings[-1] == f"plugin 'golf.boom-event': on_event raised {count} times in this game"
    brief = [r for r in records if r.levelno == logging.DEBUG]
    assert len(brief) == count - 1 - (len(warnings) - 1)
    caplog.clear()
    cardcore.new_game("golf", 2, rules=["golf.boom-event"], seed=4)  # another game: logged again
    assert sum(1 for r in caplog.records if r.exc_info) == 1
