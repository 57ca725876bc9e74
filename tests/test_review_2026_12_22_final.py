"""Review of 468318d (the third review's fixes): the CLI escape with its empty tag in
every context, brace doubling in the progress columns, the lobby's ``_cut``/``_clusters``
and refusal messages, flags and joiners in ``cardcore._names``, and ``clone()``'s private
slots and its fallback for unset slots.

Each claim that holds is a passing test; each bug found is a strict xfail naming it.
Everything is deterministic and small.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardcore import GameState
from cardcore._names import shows
from cardcore.errors import CardcoreError
from cardcore.state import _named

pytest.importorskip("rich")
pytest.importorskip("starlette")

from rich.console import Console
from rich.progress import Progress, TextColumn
from rich.table import Table
from rich.text import Text

from cardcore.cli._markup import escape
from cardcore.web._requests import _cut, _seat_name

ZWJ, ZWNJ = "\u200d", "\u200c"
FAMILY = "\U0001f468" + ZWJ + "\U0001f469" + ZWJ + "\U0001f467"
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
SAMPLES = ["a\\[b]", "a\\\\[bold]x", "x\\", "[bold", "\\[1]", "{x}", "[/]", "\\"]


def _plain(markup: str | Table) -> str:
    console = Console(
        width=60, file=None, record=True, color_system=None, emoji=False, highlight=False
    )
    with console.capture():
        console.print(markup)
    return console.export_text().rstrip("\n")


# --- the CLI escape ------------------------------------------------------------------------


@pytest.mark.parametrize("text", SAMPLES)
def test_escape_prints_as_it_is_alone_inside_dim_and_inside_a_link(text: str) -> None:
    e = escape(text)
    assert Text.from_markup(e).plain == text
    assert Text.from_markup(f"[dim]{e}[/dim] z").plain == text + " z"
    assert Text.from_markup(f"[link=https://example.org]{e}[/link]!").plain == text + "!"


def test_escape_pieces_joined_print_as_they_are() -> None:
    assert Text.from_markup(escape("[bold") + escape("x]")).plain == "[boldx]"
    assert Text.from_markup(escape("a\\") + escape("[b]")).plain == "a\\[b]"
    assert Text.from_markup(escape("a\\") + "[3]").plain == "a\\[3]"


def test_the_empty_tag_leaves_the_style_of_what_follows_alone() -> None:
    text = Text.from_markup("[bold]" + escape("a\\[") + "tail[/bold] end")
    assert text.plain == "a\\[tail end"
    styled = {str(s.style) for s in text.spans if s.start <= text.plain.index("tail") < s.end}
    assert styled == {"bold"}
    assert all(s.end <= text.plain.index(" end") for s in text.spans)


def test_escaped_cell_in_a_no_wrap_column_renders_like_plain_text() -> None:
    def table(cell: Any) -> Table:
        t = Table()
        t.add_column("x", no_wrap=True)
        t.add_row(cell)
        t.add_row("abcdef")
        return t

    assert _plain(table(escape("ab\\[cd"))) == _plain(table(Text("ab\\[cd")))


@pytest.mark.parametrize(
    ("name", "where"), [("n{x}[b]", "dask (tcp://{h}:1)"), ("plain", "this process")]
)
def test_progress_text_column_with_doubled_braces(name: str, where: str) -> None:
    column = TextColumn(
        f"[bold]{escape(name)}[/] on {escape(where)}".replace("{", "{{").replace("}", "}}")
    )
    progress = Progress(column, disable=True)
    progress.add_task("games", total=1)
    assert column.render(progress.tasks[0]).plain == f"{name} on {where}"


# --- names: flags and joiners ----------------------------------------------------------------


def test_subdivision_flag_needs_lowercase_tags_and_a_chillu_may_end_a_name() -> None:
    assert shows("Ann " + ENGLAND)
    assert not shows("Ann \U0001f3f4\U000e007f")  # a cancel tag without tags
    assert not shows("Ann \U0001f3f4\U000e0047\U000e0042\U000e007f")  # uppercase tags
    assert not shows("Ann b\U000e0067\U000e007f")  # tags without a black flag
    assert shows("\u0d05\u0d35\u0d7c \u0d15\u0d23\u0d4d" + ZWJ)  # ends in a chillu written with ZWJ


# --- the lobby's cut and refusals ------------------------------------------------------------


@pytest.mark.parametrize(
    "tail", [FAMILY, ENGLAND, "1\ufe0f\u20e3", "\U0001f1ec\U0001f1e7", "e\u0301\u0323"]
)
def test_cut_never_leaves_half_of_what_shows_as_one(tail: str) -> None:
    name = "a" * 38 + tail + "b"
    assert _cut(name) in ("a" * 38, "a" * 38 + tail)
    assert len(_cut(name)) <= 40


def test_refusal_names_a_control_character() -> None:
    with pytest.raises(CardcoreError, match=r"U\+001B, a control character"):
        _seat_name("Ann\x1b[2J")


def test_a_short_name_with_a_non_joiner_inside_a_word_is_kept() -> None:
    name = "a" * 30 + ZWNJ + "bb"
    assert _seat_name(name) == name


def test_cut_at_a_non_joiner_inside_a_word_keeps_the_name() -> None:
    assert _seat_name("a" * 39 + ZWNJ + "b" * 8) == "a" * 39


@pytest.mark.parametrize("name", ["a" + "\u0301" * 100, ("\U0001f468" + ZWJ) * 30 + "\U0001f468"])
def test_cut_of_a_long_first_cluster_is_not_empty(name: str) -> None:
    assert shows(name[:1])
    assert 0 < len(_cut(name)) <= 40


def test_refusal_of_a_long_cluster_does_not_say_it_shows_nothing() -> None:
    try:
        kept = _seat_name("a" + "\u0301" * 100)
    except CardcoreError as exc:
        assert "shows nothing" not in str(exc)
    else:
        assert 0 < len(kept) <= 40


# --- clone -----------------------------------------------------------------------------------


def _bare(cls: type[GameState]) -> Any:
    state = object.__new__(cls)
    GameState.__init__(state, 2, {}, None)  # type: ignore[arg-type]
    return state


class _Plain:
    """A plain object: shared when in a list (the list is copied shallowly)."""


class _Items(GameState):
    __slots__ = ("items", "lazy")


def test_clone_copies_a_list_of_plain_objects_shallowly() -> None:
    state = _bare(_Items)
    state.items, state.lazy = [_Plain()], 1
    clone = state.clone()
    assert clone.items is not state.items and clone.items[0] is state.items[0]


def test_clone_with_an_unset_slot_copies_lists_as_the_fast_path_does() -> None:
    state = _bare(_Items)
    state.items = [_Plain()]  # 'lazy' never set
    clone = state.clone()
    assert not hasattr(clone, "lazy") and clone.items[0] is state.items[0]


class _Failing:
    calls = 0

    def clone(self) -> Any:
        type(self).calls += 1
        return self.missing  # type: ignore[attr-defined]  # a bug in a pile's own clone()


class _WithPile(GameState):
    __slots__ = ("pile",)


def test_clone_reraises_a_slots_own_attribute_error() -> None:
    state = _bare(_WithPile)
    state.pile = _Failing()
    with pytest.raises(AttributeError, match="'_Failing' object has no attribute 'missing'"):
        state.clone()


def test_clone_calls_a_failing_clone_once() -> None:
    state = _bare(_WithPile)
    state.pile = _Failing()
    _Failing.calls = 0
    with pytest.raises(AttributeError) as info:
        state.clone()
    assert _Failing.calls == 1 and info.value.__context__ is None


class _Base(GameState):
    __slots__ = ("__x", "y")


class _Public(_Base):
    __slots__ = ("w",)
    _mutable = ("zones", "w")


class _Private(_Base):
    __slots__ = ("__x",)
    _mutable = ("zones", "__x")


def test_named_non_private_name_matches_only_itself() -> None:
    assert _named(("zones", "w"), _Public) == {"zones", "w"}
    state = _bare(_Public)
    state._Base__x, state.y, state.w = _Plain(), _Plain(), [1]
    clone = state.clone()
    assert (
        clone._Base__x is state._Base__x
        and clone.y is state.y
        and clone.w == [1]
        and clone.w is not state.w
    )


def test_private_name_in_mutable_names_only_the_declaring_class_slot() -> None:
    state = _bare(_Private)
    state._Base__x, state.y, state._Private__x = _Plain(), 1, [1]
    clone = state.clone()
    assert clone._Base__x is state._Base__x and clone._Private__x is not state._Private__x
