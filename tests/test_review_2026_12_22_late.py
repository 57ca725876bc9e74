"""Review of the 2026-12-22 late fixes (5c2a283..2f5ad7f): the CLI's one escape for data,
agent names refused at registration, the emoji joiner in names, ``same_name`` leaving out
what shows as nothing, ``copy.copy``/``copy.deepcopy`` of a state, kinds named in JSON words.

Each claim that holds is a passing test; each bug found is a strict xfail naming it.
Everything is seeded; no check compares short words with text holding random ids.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import sys
import time
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import GameState

pytest.importorskip("rich")

from rich.text import Text

from cardcore import cli
from cardcore._names import same_name
from cardcore.cli._markup import escape

ZWJ, ZWNJ = "\u200d", "\u200c"
SRI = "\u0dc1\u0dca" + ZWJ + "\u0dbb\u0dd3"  # Sinhala "Sri" (sha, virama, ZWJ, ra, ii)
FAMILY = "\U0001f468" + ZWJ + "\U0001f469" + ZWJ + "\U0001f467"
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"


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
    args = ["play", "golf", "--seed", "1", "-o", "rounds=1", "--no-record", *extra]
    return _run(args, stdin)


@contextlib.contextmanager
def _agent(name: str, doc: str = "Plays at random.") -> Iterator[None]:
    factory = type("ReviewAgent", (cardcore.RandomAgent,), {"__doc__": doc})
    cardcore.register("cardcore.agents", name, factory)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.agents", name)


# -- the CLI escape: claims that hold ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["Ann\\", "Ann\\\\", "\\", "\\\\\\", "[bold]x\\", "a\\[b]\\", "x\\\\[red]y[/]", "[/]", "a]\\"],
)
def test_escape_prints_as_is_alone_and_before_a_tag(text: str) -> None:
    assert Text.from_markup(escape(text)).plain == text
    assert Text.from_markup(f"[bold]{escape(text)}[/]>[dim]!").plain == text + ">!"


@pytest.mark.parametrize("text", ["\\[T]/", "C:\\[x", "a]\\[", "\\\\[1]"])
def test_escape_keeps_a_backslash_before_a_bracket_that_is_no_tag(text: str) -> None:
    assert Text.from_markup(escape(text)).plain == text


def test_cli_play_shows_a_backslash_bracket_name_as_it_is() -> None:
    rc, out, err = _play("quit\n", "--name", "\\[T]/")
    assert rc == 0, err
    assert "you are \\[T]/;" in out


def test_escape_shows_acting_characters_by_escape_but_keeps_lines_and_tabs() -> None:
    text = "a\u2028b\u2029c\u202ed\x1b[2Je\u2066f\x85g"
    assert (
        Text.from_markup(escape(text)).plain == "a\\u2028b\\u2029c\\u202ed\\x1b[2Je\\u2066f\\x85g"
    )
    doc = "First line [bold]x[/].\n\tindented\nlast\\"
    assert Text.from_markup(escape(doc)).plain == doc


def test_cli_list_keeps_a_trailing_backslash_of_an_agent_doc_single() -> None:
    with _agent("review-bs", doc="Walks C:\\"):
        rc, out, err = _run(["list", "golf"])
    assert rc == 0, err
    assert "Walks C:\\" in out and "C:\\\\" not in out


def test_cli_replay_table_keeps_markup_and_backslash_names(tmp_path: Path) -> None:
    game = cardcore.new_game("golf", ["[b]A\\", "B\\\\"], seed=3, options={"rounds": 1})
    cardcore.play(game, [cardcore.load_agent("random")(seed=s) for s in range(2)])
    path = tmp_path / "r.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    rc, out, err = _run(["replay", str(path), "--final"])
    assert rc == 0, err
    assert "0: [b]A\\ " in out and "1: B\\\\ " in out and "B\\\\\\" not in out


# -- the CLI escape: bugs ----------------------------------------------------------------------


def test_cli_play_shows_an_emoji_code_in_a_name_literally() -> None:
    rc, out, err = _play("quit\n", "--name", "Ann :skull:")
    assert rc == 0, err
    assert "you are Ann :skull:;" in out and "\U0001f480" not in out


def test_cli_play_echoes_a_typed_emoji_code_literally() -> None:
    rc, out, err = _play("flip :skull:\nquit\n")
    assert rc == 0, err
    assert "flip :skull:" in out and "\U0001f480" not in out


def test_cli_simulate_names_the_json_path_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a short path: the line is not wrapped
    rc, out, err = _run(
        ["simulate", "golf", "-n", "2", "--seed", "1", "-q", "--json", "a[bold]b.json"]
    )
    assert rc == 0, err
    assert (tmp_path / "a[bold]b.json").exists()
    assert "summary written to a[bold]b.json" in out


# -- agent names at registration ---------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["bot-\U0001f469\U0001f3fd" + ZWJ + "\U0001f680", "bot-" + SRI, "bot-שלום"]
)
def test_agent_names_in_other_scripts_and_emoji_register(name: str) -> None:
    with _agent(name):
        assert name in cardcore.available_agents()


@pytest.mark.parametrize("name", ["bot\u2066x", "bot\x9bx", "bot\u202dx"])
def test_agent_names_with_isolates_overrides_or_c1_controls_are_refused(name: str) -> None:
    with pytest.raises(cardcore.PluginError, match="print as it is"), _agent(name):
        pass
    assert name not in cardcore.available_agents()


# -- the web lobby and --name: names with joiners ----------------------------------------------


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


EMOJI_NAMES = [
    FAMILY,
    "\u2764\ufe0f" + ZWJ + "\U0001f525",  # heart on fire
    "\U0001f3f3\ufe0f" + ZWJ + "\U0001f308",  # rainbow flag
    "\U0001f441\ufe0f" + ZWJ + "\U0001f5e8\ufe0f",  # eye in speech bubble
    "1\ufe0f\u20e3",  # keycap
    "\U0001f1fa\U0001f1e6",  # flag (regional indicators)
    "\U0001f3c3" + ZWJ + "\u2640\ufe0f",  # woman running
    "\U0001faf1\U0001f3fb" + ZWJ + "\U0001faf2\U0001f3ff",  # handshake, two tones
]


@pytest.mark.parametrize("name", EMOJI_NAMES, ids=range(len(EMOJI_NAMES)))
def test_web_lobby_accepts_emoji_sequences_verbatim(web: Any, name: str) -> None:
    response = _create(web, [name, "Bob"])
    assert response.status_code == 201, response.text
    assert response.json()["seats"][0]["name"] == name


@pytest.mark.parametrize(
    "pair",
    [
        ["\u2764", "\u2764\ufe0f"],
        ["1\u20e3", "1\ufe0f\u20e3"],
        ["Ann", "Ann\u3164"],
        ["Ann", "A\u2060nn"],
    ],
)
def test_web_lobby_refuses_a_twin_that_differs_by_what_shows_as_nothing(
    web: Any, pair: list[str]
) -> None:
    assert _create(web, pair).status_code == 400


def test_web_lobby_accepts_a_sinhala_name_with_a_joiner(web: Any) -> None:
    name = SRI + " \u0dbd\u0d82\u0d9a\u0dcf"
    response = _create(web, [name, "Bob"])
    assert response.status_code == 201, response.text
    assert response.json()["seats"][0]["name"] == name


def test_cli_play_accepts_a_sinhala_name_with_a_joiner() -> None:
    rc, out, err = _play("quit\n", "--name", SRI)
    assert rc == 0, err
    assert f"you are {SRI};" in out


def test_web_lobby_accepts_a_persian_name_with_a_non_joiner(web: Any) -> None:
    name = "\u0639\u0644\u06cc" + ZWNJ + "\u0631\u0636\u0627"
    response = _create(web, [name, "Bob"])
    assert response.status_code == 201, response.text


def test_web_lobby_accepts_a_subdivision_flag(web: Any) -> None:
    response = _create(web, [ENGLAND, "Bob"])
    assert response.status_code == 201, response.text


def test_web_lobby_never_refuses_a_name_for_its_own_cut(web: Any) -> None:
    response = _create(web, ["x" * 38 + FAMILY, "Bob"])
    assert response.status_code == 201, response.text
    assert not response.json()["seats"][0]["name"].endswith(ZWJ)


@pytest.mark.parametrize("twin", ["Ann\u17b4", "Ann\u2800"])
def test_web_lobby_refuses_another_invisible_twin(web: Any, twin: str) -> None:
    assert _create(web, ["Ann", twin]).status_code == 400


def test_same_name_is_quick_enough_for_a_full_table() -> None:
    names = [f"player {i} \U0001f469\U0001f3fd{ZWJ}\U0001f680\ufe0f" for i in range(64)]
    start = time.perf_counter()
    clashes = sum(same_name(a, b) for a in names for b in names)
    assert clashes == 64
    assert time.perf_counter() - start < 2.0  # ~0.03 s measured: 4,096 comparisons


# -- GameState: copy.copy shallow, deepcopy a clone --------------------------------------------


def _bare(cls: type[GameState]) -> Any:
    state = object.__new__(cls)
    GameState.__init__(state, 2, {}, None)  # type: ignore[arg-type]
    return state


class _Hand(GameState):
    __slots__ = ("hand", "later")


class _Loose(GameState):  # no __slots__: a __dict__
    pass


def test_copy_copy_shares_slots_leaves_unset_ones_unset_and_keeps_a_dict() -> None:
    state = _bare(_Hand)
    state.hand = [1, 2]
    shallow = copy.copy(state)
    assert type(shallow) is _Hand and shallow.hand is state.hand
    assert not hasattr(shallow, "later")
    loose = _bare(_Loose)
    loose.extra = [3]
    assert copy.copy(loose).extra is loose.extra


def test_deepcopy_keeps_one_clone_per_state_in_its_memo() -> None:
    state = _bare(_Hand)
    state.hand, state.later = [1], 0
    first, second = copy.deepcopy([state, state])
    assert first is second and first is not state and first.hand == [1]
    assert first.hand is not state.hand


def test_deepcopy_of_a_state_without_slots_keeps_its_attributes() -> None:
    loose = _bare(_Loose)
    loose.extra = [3]
    deep = copy.deepcopy(loose)
    assert deep.extra == [3] and deep.extra is not loose.extra


class _Private(GameState):
    __slots__ = ("__cache", "hand")

    def fill(self) -> None:
        self.__cache = [7]

    def cache(self) -> Any:
        return self.__cache


def test_copy_and_clone_keep_a_private_slot() -> None:
    state = _bare(_Private)
    state.fill()
    state.hand = []
    assert copy.copy(state).cache() == [7]
    assert state.clone().cache() == [7]


class _OneSlot(GameState):
    __slots__ = "hand"  # one slot, spelt as a string


def test_copy_and_clone_of_a_state_whose_slots_is_a_string() -> None:
    state = _bare(_OneSlot)
    state.hand = [1]
    assert copy.copy(state).hand == [1]
    assert state.clone().hand == [1]


# -- kinds in JSON words -----------------------------------------------------------------------


def test_a_bundle_of_another_kind_is_named_with_the_right_article() -> None:
    from cardcore.session import verify_bundle

    with pytest.raises(cardcore.CorruptStateError) as info:
        verify_bundle(uuid.UUID(int=1))  # type: ignore[arg-type]
    assert str(info.value).endswith("not a UUID")


def test_a_bundle_of_another_kind_is_named_in_json_words() -> None:
    from cardcore.session import verify_bundle

    for value, words in [([1], "an array"), ("x", "text"), (None, "null"), (2.5, "a number")]:
        with pytest.raises(cardcore.CorruptStateError, match=f"not {words}$"):
            verify_bundle(value)  # type: ignore[arg-type]
