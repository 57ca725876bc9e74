"""Review of d91696b (``Option.aliases``; Golf's ``layout`` holds one value per layout).

It found ten things the change broke or left inconsistent (old saves refused, Option no
longer pickled, the kit's applicable_options blind to aliases, raw errors and misleading
messages for bad aliases, three stale docs), each a strict xfail until fixed the same day;
the other tests are claims that held.

"Data written before the change": the pre-change engine (05684cc, extracted with
``git archive`` and run first on ``PYTHONPATH``) wrote, for ``layout="6"`` / ``"4H"``,
exactly what this engine writes for ``6`` / ``"4h"`` but for ``options.layout`` (in a
record; in a save's ``record`` and ``config``; in a fair bundle's ``record``), which held
the text as given. So the tests below build such data by writing the old text back
into those fields, and need no old code.
"""

from __future__ import annotations

import copy
import doctest
import json
import pickle
import re
import types
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import Option, OptionError, PluginError, RuleInfo
from cardcore.cli.args import parse_options
from cardcore.session.config import GameSetup

ROOT = Path(__file__).resolve().parent.parent
SEED = 11
OLD_TEXT = {"6": 6, "4H": "4h", "4": 4, "10": 10}  # as the pre-change engine kept them


def _golf(layout: Any, actions: int = 3) -> cardcore.Game:
    """A pinned Golf game (seed 11), the first legal action taken *actions* times."""
    game = cardcore.new_game("golf", 2, options={"layout": layout}, seed=SEED)
    for _ in range(actions):
        game.apply(game.legal_actions(game.to_act[0])[0])
    return game


def _as_written_before(data: dict[str, Any], text: str, *paths: tuple[str, ...]) -> dict[str, Any]:
    """*data* with ``options.layout`` at each of *paths* written as the old text."""
    data = copy.deepcopy(data)
    for path in paths:
        where = data
        for key in path:
            where = where[key]
        where["options"]["layout"] = text
    return data


# --- (1) data written before the change ------------------------------------------------


@pytest.mark.parametrize(("text", "value"), OLD_TEXT.items())
def test_an_old_record_with_a_layout_text_replays_to_the_one_spelling(
    text: str, value: Any
) -> None:
    now = _golf(value)
    old = _as_written_before(now.record(), text, ())
    assert old["options"]["layout"] == text
    game = cardcore.replay(json.dumps(old))
    assert game.options["layout"] == value and type(game.options["layout"]) is type(value)
    assert game.version == now.version
    assert game.position() == now.position()
    assert game.record() == now.record()  # replayed, it is written in the one spelling


@pytest.mark.parametrize(("text", "value"), [("6", 6), ("4H", "4h")])
def test_an_old_save_with_a_layout_text_loads(text: str, value: Any) -> None:
    now = _golf(value)
    old = _as_written_before(now.save(), text, ("record",), ("config",))
    game = cardcore.load(json.dumps(old))
    assert game.options["layout"] == value
    assert game.version == now.version and game.position() == now.position()


def test_a_save_written_today_still_loads() -> None:
    now = _golf("4H")
    game = cardcore.load(json.dumps(now.save()))
    assert game.options["layout"] == "4h" and game.position() == now.position()


@pytest.mark.parametrize(("text", "value"), [("6", 6), ("4H", "4h"), ("4", 4)])
def test_a_position_starts_under_either_spelling(text: str, value: Any) -> None:
    position = _golf(value).position()
    for given in (text, value):
        game = cardcore.new_game("golf", 2, position=position, options={"layout": given}, seed=1)
        assert game.options["layout"] == value and game.position() == position


@pytest.mark.parametrize(("text", "value"), [("6", 6), ("4H", "4h")])
def test_an_old_stored_setup_builds_the_game_in_its_one_spelling(text: str, value: Any) -> None:
    """A session's stored setup (``GameSetup.to_json`` of 0.2.0 kept the text as given)."""
    now = GameSetup("golf", ("A", "B"), options={"layout": value})
    data = now.to_json()
    data["options"]["layout"] = text
    old = GameSetup.from_data(data)
    a, b = old.build(SEED), now.build(SEED)
    assert a.options == b.options and a.options["layout"] == value
    assert a.position() == b.position() and a.record() == b.record()
    assert old.to_json() == now.to_json()  # written back in the one spelling


def test_an_old_fair_bundle_with_a_layout_text_verifies() -> None:
    from cardcore.session import Session, SessionConfig, verify_bundle

    session = Session.create(
        "golf", 2, now=0.0, options={"layout": "4H"}, config=SessionConfig(fair=True)
    )
    session.handle("a", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("b", '{"type": "join", "seat": 1}', now=1.0)
    session.end(2.0)
    bundle = session.fair_bundle()
    assert bundle is not None and bundle["record"]["options"]["layout"] == "4h"
    old = _as_written_before(bundle, "4H", ("record",))
    report = verify_bundle(old, commitment=bundle["commitment"])
    assert report.game == "golf" and report.commitment == bundle["commitment"]


# --- (2) other doors ---------------------------------------------------------------------


def _rule(rid: str, name: str, values: tuple[Any, ...]) -> RuleInfo:
    return RuleInfo(id=rid, name=name, game="golf", summary="x", applies={"layout": values})


def test_check_applies_reads_an_alias_on_either_side() -> None:
    golf = cardcore.game_info("golf")
    for values, given in (((4,), 4), (("4",), 4), (("4H",), "4h"), (("4h",), "4h")):
        _rule("GOLF-REV-1", "golf.rev", values).check_applies({"layout": given}, golf)
    with pytest.raises(OptionError, match="GOLF-REV-1"):
        _rule("GOLF-REV-1", "golf.rev", ("4H",)).check_applies({"layout": 4}, golf)


def test_applicable_options_reads_an_alias_of_the_default_as_the_default() -> None:
    from cardcore.testing import applicable_options

    assert applicable_options("golf", [_rule("GOLF-REV-2", "golf.rev2", ("6",))]) == {}


def test_applicable_options_intersects_an_alias_with_its_value() -> None:
    from cardcore.testing import applicable_options

    a = _rule("GOLF-REV-3", "golf.rev3", ("4H",))
    b = _rule("GOLF-REV-4", "golf.rev4", ("4h",))
    golf = cardcore.game_info("golf")
    for rule in (a, b):  # new_game's own check serves both with "4h"
        rule.check_applies({"layout": "4h"}, golf)
    assert applicable_options("golf", [a, b]) == {"layout": "4h"}


@pytest.fixture
def rule_with_aliased_option() -> Iterator[str]:
    name = "golf.test-review-aliased-option"
    module = types.ModuleType(name)
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="GOLF-REVOPT-1",
        name=name,
        game="golf",
        summary="a house rule whose own option has aliases",
        options=(
            Option("bonus", "low", kind=str, choices=("low", "high"), aliases={"HIGH": "high"}),
        ),
    )
    cardcore.register("cardcore.rules", name, module)
    yield name
    cardcore.unregister("cardcore.rules", name)


@pytest.mark.filterwarnings("ignore::cardcore.PluginWarning")  # it has no hook: options only
def test_a_house_rules_own_option_reads_its_alias(rule_with_aliased_option: str) -> None:
    name = rule_with_aliased_option
    game = cardcore.new_game("golf", 2, rules=[name], options={"bonus": "HIGH"}, seed=SEED)
    plain = cardcore.new_game("golf", 2, rules=[name], options={"bonus": "high"}, seed=SEED)
    assert game.options["bonus"] == "high"
    assert game.record() == plain.record()
    assert cardcore.replay(game.record()).options["bonus"] == "high"


def test_the_command_line_strips_a_value_and_keeps_inner_text() -> None:
    assert parse_options("golf", [" layout = 4H "]) == {"layout": "4h"}  # stripped, an alias read
    game = cardcore.new_game("golf", 2, options=parse_options("golf", ["layout= 10"]), seed=1)
    assert game.options["layout"] == 10
    with pytest.raises(OptionError, match="layout"):
        cardcore.new_game("golf", 2, options=parse_options("golf", ["layout=4 h"]), seed=1)


def test_the_web_api_creates_a_game_in_the_one_spelling() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from cardcore.web import WebServer, create_app

    server = WebServer(None, bot_delay=0.0, bot_pace=0.05)
    body = {"game": "golf", "seats": [{"name": "A"}, {"name": "B"}], "options": {"layout": "4H"}}
    with TestClient(create_app(server)) as client:
        answer = client.post(
            "/api/sessions", content=json.dumps(body), headers={"content-type": "application/json"}
        )
        games = client.get("/api/games").json()
    assert answer.status_code == 201
    assert answer.json()["options"]["layout"] == "4h"
    listed = games if isinstance(games, list) else list(games.values())
    layout = next(o for g in listed if g["name"] == "golf" for o in g["options"])
    assert layout["name"] == "layout" and layout["choices"] == [6, 8, 9, 10, 4, "4h"]


# --- (3) the declaration ----------------------------------------------------------------


@pytest.mark.parametrize("aliases", [None, {"B": "big"}])
def test_an_option_pickles_and_deep_copies(aliases: Mapping[str, Any] | None) -> None:
    more = {} if aliases is None else {"aliases": aliases}
    opt = Option("size", "small", kind=str, choices=("small", "big"), **more)
    assert pickle.loads(pickle.dumps(opt)) == opt
    assert copy.deepcopy(opt) == opt


def test_an_option_with_aliases_compares_hashes_copies_and_shows_them() -> None:
    a = Option("size", "small", kind=str, choices=("small", "big"), aliases={"B": "big"})
    b = Option("size", "small", kind=str, choices=("small", "big"), aliases={"B": "big"})
    other = Option("size", "small", kind=str, choices=("small", "big"), aliases={"BIG": "big"})
    assert a == b and hash(a) == hash(b) and a != other
    assert copy.copy(a) == a
    assert "'B': 'big'" in repr(a)


@pytest.mark.parametrize(
    ("kwargs", "text", "value"),
    [
        ({"default": None, "kind": int, "nullable": True}, "none", None),
        ({"default": False, "kind": bool}, "yes", True),
        ({"default": 0.5, "kind": float}, "half", 0.5),
        ({"default": 1, "kind": int, "minimum": 1, "maximum": 5}, "most", 5),
        (
            {
                "default": None,
                "kind": object,
                "choices": ("random",),
                "minimum": 0,
                "nullable": True,
            },
            "first",
            0,
        ),
        (
            {
                "default": None,
                "kind": object,
                "choices": ("random",),
                "minimum": 0,
                "nullable": True,
            },
            "Random",
            "random",
        ),
    ],
)
def test_an_alias_works_on_every_kind_of_option(
    kwargs: dict[str, Any], text: str, value: Any
) -> None:
    opt = Option("x", aliases={text: value}, **kwargs)
    got = opt.check(text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize(
    ("kwargs", "aliases", "words"),
    [
        ({"default": 1, "kind": int, "minimum": 1, "maximum": 5}, {"most": 6}, "at most 5"),
        (
            {"default": None, "kind": object, "choices": ("random",), "minimum": 0, "maximum": 63},
            {"far": 64},
            "names 64, a value it refuses",
        ),
        ({"default": "a", "kind": str}, {"A": "a"}, "must be a text the option refuses"),
        ({"default": 1, "kind": int}, {"one": 1.0}, "a value it refuses"),
        ({"default": 1, "kind": int}, {"one": True}, "a value it refuses"),
    ],
)
def test_a_bad_alias_is_a_plugin_error(
    kwargs: dict[str, Any], aliases: dict[str, Any], words: str
) -> None:
    with pytest.raises(PluginError, match=words):
        Option("x", aliases=aliases, **kwargs)


class _Unreadable(Mapping[str, Any]):
    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("unreadable")

    def __iter__(self) -> Iterator[str]:
        return iter(["a"])

    def __len__(self) -> int:
        return 1


def test_aliases_that_cannot_be_read_are_a_plugin_error() -> None:
    with pytest.raises(PluginError, match="aliases"):
        Option("x", "a", kind=str, choices=("a", "b"), aliases=_Unreadable())


def test_crossed_bounds_are_named_before_an_alias() -> None:
    with pytest.raises(PluginError, match="minimum 9 is above maximum 1"):
        Option("m", 5, kind=int, minimum=9, maximum=1, aliases={"x": 5})


def test_an_alias_of_an_int_on_a_float_option_is_read_or_refused_for_its_value() -> None:
    try:
        opt = Option("f", 0.5, kind=float, aliases={"one": 1})
    except PluginError as exc:
        assert "text the option refuses" not in str(exc), str(exc)
    else:
        assert opt.check("one") == 1.0 and type(opt.check("one")) is float


def test_check_leaves_values_that_are_no_alias_to_the_check() -> None:
    layout = cardcore.game_info("golf").option("layout")
    with pytest.raises(OptionError, match=r"one of 6, 8, 9, 10, 4 or '4h', not '4HH'"):
        layout.check("4HH")
    assert layout.check(4) == 4 and layout.check("4h") == "4h"


# --- (4) documentation ------------------------------------------------------------------


def test_the_house_rule_guide_shows_applies_as_it_is() -> None:
    text = (ROOT / "docs/plugin-guide/house-rule.rst").read_text(encoding="utf-8")
    shown = re.search(r">>> dict\(rule\.applies\).*\n\s*(\{.*\})", text)
    assert shown is not None
    assert shown.group(1) == repr(dict(cardcore.rule_info("golf.diagonal-pairs").applies))


def test_golfs_applies_helper_doctest_holds() -> None:
    from cardcore_golf.house import _common

    failed, tried = doctest.testmod(_common, verbose=False, report=False)
    assert tried > 0 and failed == 0


def test_the_web_docs_quote_the_layout_refusal_as_it_is() -> None:
    text = " ".join((ROOT / "docs/web.rst").read_text(encoding="utf-8").split())
    quoted = re.search(r"``(option 'layout' must be one of [^`]*)``", text)
    assert quoted is not None
    with pytest.raises(OptionError) as caught:
        cardcore.new_game("golf", 2, options={"layout": 7}, seed=1)
    head, _, tail = quoted.group(1).partition("... ")
    message = str(caught.value)
    assert message.startswith(head) and message.endswith(tail)
