"""Review of the 2026-12-22 second-review fixes (a891287..a6e1392): the CLI's escape written
out (brackets, trailing backslashes), emoji codes off, joiners inside a word, tag characters
in a flag, ``same_name``'s new invisibles, the lobby's ``_cut``, cloning private slots,
one-text ``__slots__`` and ``__dict__`` attributes, ``kind_of``'s article.

Each claim that holds is a passing test; each bug found is a strict xfail naming it.
Everything is deterministic (no seeds beyond the CLI's ``--seed``).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import uuid
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import GameState

pytest.importorskip("rich")

from rich.console import Console
from rich.text import Text

from cardcore import cli
from cardcore._names import hidden, same_name, shows
from cardcore._text import kind_of
from cardcore.cli._markup import escape
from cardcore.cli.render import render_result, value_markup

ZWJ, ZWNJ = "\u200d", "\u200c"
FAMILY = "\U0001f468" + ZWJ + "\U0001f469" + ZWJ + "\U0001f467"
UK = "\U0001f1ec\U0001f1e7"  # a flag of two regional indicators
BLACK_FLAG, CANCEL = "\U0001f3f4", "\U000e007f"
ENGLAND = BLACK_FLAG + "\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067" + CANCEL


def _plain(markup: str) -> str:
    return Text.from_markup(markup, emoji=False).plain


def _run(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = cli.main(args)
    finally:
        sys.stdin = old
    return rc, out.getvalue(), err.getvalue()


def _play(stdin: str, *extra: str) -> tuple[int, str, str]:
    return _run(["play", "golf", "--seed", "1", "-o", "rounds=1", "--no-record", *extra], stdin)


# -- the CLI escape: claims that hold ----------------------------------------------------------

TEXTS = [
    "[bold]",
    "\\[",
    "[link=https://example.com]x[/link]",
    "[@click]x",
    "[/]",
    "[[",
    "]",
    "[[b]]",
    "[[bold]]",
    "\\\\\\",
    "\\",
    "[b\\]x]",
    "a[b]c\\[d]",
    "\\\\[red]x",
    "[#ff0000]x",
    "[b]\\",
    ":skull:",
]


@pytest.mark.parametrize("text", TEXTS, ids=range(len(TEXTS)))
def test_escape_prints_one_piece_as_it_is_alone_inside_and_before_tags(text: str) -> None:
    assert _plain(escape(text)) == text
    assert _plain(f"[bold]{escape(text)}[/]: [dim]x[/]") == text + ": x"


def test_escape_prints_every_short_text_of_brackets_and_backslashes_as_it_is() -> None:
    alphabet = "[]\\b/@ "
    texts = [""]
    for _ in range(4):
        texts = [t + ch for t in texts for ch in alphabet]
        for text in texts:
            assert _plain(escape(text)) == text, text


def test_cli_play_shows_a_bracket_and_emoji_code_name_as_it_is() -> None:
    name = "[bold]:skull:\\"
    rc, out, err = _play("quit\n", "--name", name)
    assert rc == 0, err
    assert f"you are {name}" in out and "\U0001f480" not in out


def test_cli_play_refuses_a_joined_twin_of_a_bot_at_name() -> None:
    rc, out, err = _play("quit\n", "--name", "ran" + ZWJ + "dom 2")
    assert rc != 0
    assert "another seat" in out + err


# -- the CLI escape: bugs ----------------------------------------------------------------------


def test_escaped_pieces_joined_still_print_as_they_are() -> None:
    assert _plain(value_markup(["[bold", "x]"], ["Ann", "Bob"])) == "[bold, x]"
    result = {"winners": [0, 1], "scores": [1, 2], "reason": "done"}
    assert "winners: [bold and x]" in _plain(render_result(result, ["[bold", "x]"]))


def test_cli_list_shows_an_agents_declared_games_as_they_are() -> None:
    factory = type(
        "ReviewAgent", (cardcore.RandomAgent,), {"__doc__": "Plays.", "games": ("x[red]y[/red]z",)}
    )
    cardcore.register("cardcore.agents", "review-night", factory)
    try:
        rc, out, err = _run(["list"])
    finally:
        cardcore.unregister("cardcore.agents", "review-night")
    assert rc == 0, err
    assert "x[red]y[/red]z" in out


def test_cli_simulate_progress_names_a_dask_address_as_it_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardcore.cli import commands

    columns: list[Any] = []

    class _Stop(Exception):
        pass

    def progress(*cols: Any, **_: Any) -> Any:
        columns.extend(cols)
        raise _Stop

    monkeypatch.setattr(commands, "_dask_executor", lambda *a, **k: None)
    monkeypatch.setattr(commands, "Progress", progress)
    address = "tcp://[fe80::1]:8786"
    _run(["simulate", "golf", "--games", "1", "--dask", address])
    assert columns, "the progress bar was not built"
    assert address in columns[0].render(None).plain


# -- emoji codes off: claims that hold ---------------------------------------------------------


def test_render_view_title_keeps_an_emoji_code_even_on_an_emoji_console() -> None:
    from cardcore.cli.render import render_view

    game = cardcore.new_game("golf", [":skull: Ann", "Bob"], options={"rounds": 1}, seed=1)
    console = Console(file=io.StringIO(), width=120, emoji=True, color_system=None)
    console.print(render_view(game.view(0), game.view_schema()))
    title = console.file.getvalue().splitlines()[0]  # type: ignore[attr-defined]
    assert "you are :skull: Ann (seat 0)" in title and "\U0001f480" not in title


# -- names: claims that hold -------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "\u0915\u094d" + ZWJ + "\u0937",  # Devanagari half-form ksha
        "\u0915\u094d" + ZWNJ + "\u0937 Ram",  # Devanagari explicit virama
        "\u0639\u0644\u06cc" + ZWNJ + "\u0631\u0636\u0627",  # Persian Alireza
        "1\ufe0f\u20e3",  # keycap
        FAMILY,
        ENGLAND,
        "Ann " + ENGLAND,
    ],
    ids=range(7),
)
def test_names_shaped_by_joiners_or_tags_show(name: str) -> None:
    assert hidden(name) is None and shows(name)


@pytest.mark.parametrize(
    "name",
    [
        ZWJ + "Ann",
        "Ann" + ZWNJ,
        "Ann" + ZWJ + " Bob",
        "Ann " + ZWNJ + "Bob",
        "Ann\u200bBob",
        BLACK_FLAG + "\U000e0067\U000e0062",  # tags, no cancel tag
        UK + "\U000e0067" + CANCEL,  # tags after another flag
        "\U0001f3f3" + "\U000e0067" + CANCEL,  # after the white flag
        "Ann\U000e0067",
    ],
    ids=range(9),
)
def test_joiners_at_an_end_or_beside_a_space_and_stray_tags_are_hidden(name: str) -> None:
    assert hidden(name) is not None and not shows(name)


@pytest.mark.parametrize(
    "pair",
    [
        ("random 2", "ran" + ZWJ + "dom 2"),
        ("random 2", "rand" + ZWNJ + "om 2"),
        ("Ann.", "Ann" + ZWNJ + "."),
        ("Ann", "Ann\u17b4"),
        ("Ann", "A\u17b5nn"),
        ("Ann", "Ann\u2800"),
        ("Ann", "A\u034fnn"),
        ("Ann", "Ann\ufe0f"),
        ("Ann", "A\U000e0067nn"),
    ],
    ids=range(9),
)
def test_same_name_ignores_what_shows_as_nothing(pair: tuple[str, str]) -> None:
    assert same_name(*pair)


def test_same_name_still_tells_real_names_apart() -> None:
    assert not same_name("Ann", "Anna")
    assert not same_name(FAMILY, "\U0001f468" + ZWJ + "\U0001f469")
    assert not same_name(ENGLAND, UK)


# -- names: bugs -------------------------------------------------------------------------------


def test_a_lone_cancel_tag_after_a_black_flag_is_hidden() -> None:
    assert hidden("Ann " + BLACK_FLAG + CANCEL) == "U+E007F"


def test_a_malayalam_chillu_with_a_joiner_at_the_end_shows() -> None:
    assert shows("\u0d1c\u0d4b\u0d23\u0d4d" + ZWJ)


# -- the lobby's cut ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def web() -> Iterator[Any]:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from cardcore.web import WebServer, create_app

    server = WebServer(None, bot_delay=0.0, bot_pace=0.05)
    with TestClient(create_app(server)) as client:
        yield client


def _create(client: Any, names: list[str]) -> Any:
    body = {
        "game": "golf",
        "seats": [{"name": names[0]}, *({"name": n, "agent": "random"} for n in names[1:])],
        "options": {"rounds": 1},
    }
    return client.post("/api/sessions", content=json.dumps(body))


@pytest.mark.parametrize(
    ("name", "kept"), [("x" * 40, "x" * 40), ("x" * 41, "x" * 40), ("x" * 39 + " y", "x" * 39)]
)
def test_web_lobby_cuts_to_40_code_points(web: Any, name: str, kept: str) -> None:
    response = _create(web, [name, "Bob"])
    assert response.status_code == 201, response.text
    assert response.json()["seats"][0]["name"] == kept


def test_web_lobby_refusal_names_the_invisible_character(web: Any) -> None:
    response = _create(web, ["Ann\u200bBob", "Bob"])
    assert response.status_code == 400
    assert "U+200B" in response.text


@pytest.mark.parametrize("emoji", [UK, FAMILY, "1\ufe0f\u20e3"], ids=["flag", "family", "keycap"])
def test_web_lobby_cut_never_ends_inside_an_emoji_sequence(web: Any, emoji: str) -> None:
    name = "x" * (40 - len(emoji) + 1) + emoji  # one code point too long
    response = _create(web, [name, "Bob"])
    assert response.status_code == 201, response.text
    assert response.json()["seats"][0]["name"] == "x" * (40 - len(emoji) + 1)


# -- GameState cloning -------------------------------------------------------------------------


def _bare(cls: type[GameState]) -> Any:
    state = object.__new__(cls)
    GameState.__init__(state, 2, {}, None)  # type: ignore[arg-type]
    return state


class _Hidden(GameState):
    __slots__ = ("__x", "__y__")

    def put(self, value: list[int]) -> None:
        self.__x = value

    def get(self) -> list[int]:
        return self.__x


class _Mixed(_Hidden):
    __slots__ = ("__dict__", "z")


class _OneText(GameState):
    __slots__ = "__cache"

    def put(self, value: list[int]) -> None:
        self.__cache = value

    def get(self) -> list[int]:
        return self.__cache


class _Loose(_OneText):  # no __slots__: a __dict__ beside the parent's one slot
    pass


class _LooseTuple(_Hidden):  # the same with a tuple of slots
    pass


def test_clone_copies_a_mangled_slot_of_an_underscored_class_and_a_dunder_slot() -> None:
    state = _bare(_Hidden)
    state.put([1])
    state.__y__ = [2]
    clone = state.clone()
    clone.get().append(9)
    clone.__y__.append(9)
    assert state.get() == [1] and state.__y__ == [2]


def test_clone_copies_slots_and_dict_attributes_together() -> None:
    state = _bare(_Mixed)
    state.put([1])
    state.__y__, state.z, state.extra = [2], [3], [4]
    clone = state.clone()
    for value in (clone.get(), clone.__y__, clone.z, clone.extra):
        value.append(9)
    assert (state.get(), state.__y__, state.z, state.extra) == ([1], [2], [3], [4])
    assert (clone.get(), clone.z, clone.extra) == ([1, 9], [3, 9], [4, 9])


def test_clone_of_a_loose_subclass_of_a_one_text_private_slot() -> None:
    state = _bare(_Loose)
    state.put([1])
    state.note = {"a": 1}
    clone = state.clone()
    clone.get().append(2)
    clone.note["b"] = 2
    assert state.get() == [1] and state.note == {"a": 1}


def test_clone_of_a_subclass_with_own_slots_under_a_private_slot() -> None:
    sub = type("_Sub", (_Hidden,), {"__slots__": ("w",)})
    state = _bare(sub)
    state.put([1])
    state.__y__, state.w = [2], [3]
    clone = state.clone()
    clone.get().append(9)
    assert state.get() == [1] and clone.get() == [1, 9] and clone.w == [3]


def test_clone_of_a_loose_subclass_of_a_private_tuple_slot() -> None:
    state = _bare(_LooseTuple)
    state.put([1])
    state.__y__ = [2]
    assert state.clone().get() == [1]


class _Declared(GameState):
    __slots__ = ("__cache",)
    _mutable = ("zones", "__cache")  # as the class writes it

    def put(self, value: list[int]) -> None:
        self.__cache = value

    def get(self) -> list[int]:
        return self.__cache


def test_clone_copies_a_private_slot_named_in_mutable() -> None:
    state = _bare(_Declared)
    state.put([1])
    state.clone().get().append(2)
    assert state.get() == [1]


class _Lazy(GameState):
    __slots__ = ("cache",)  # filled on first use


def test_clone_leaves_an_unset_slot_unset() -> None:
    clone = _bare(_Lazy).clone()
    assert not hasattr(clone, "cache")


_Underscores = type("_", (GameState,), {"__slots__": ("__x",)})  # a name of underscores only


def test_clone_of_a_class_named_only_underscores() -> None:
    state = _bare(_Underscores)
    setattr(state, "__x", [1])
    assert getattr(state.clone(), "__x") == [1]


# -- kind_of -----------------------------------------------------------------------------------


def test_kind_of_names_a_uuid_and_others_with_the_right_article() -> None:
    assert kind_of(uuid.UUID(int=1)) == "a UUID"
    assert kind_of(object()) == "an object"
    assert kind_of(Ellipsis) == "an ellipsis"
    assert kind_of(1j) == "a complex"
