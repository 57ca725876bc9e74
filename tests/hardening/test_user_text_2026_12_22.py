"""Text from users in every surface, 2026-12-22: player names, seat names, agent names and
docstrings from third-party plugins, notation typed by players.

The standard: a name is refused or accepted exactly as documented (``new_game``'s "1 to 100
characters each, no control character", the web lobby's seat ``name`` rules, ``cardcore play
--name``'s "any name but a bot's"); records, saves and positions keep names byte-exact; the
terminal never receives an escape sequence, a bidirectional override or a line separator from
data, nor interprets rich markup from it, and shows each name as it is; the browser pages
insert user text as text, never as HTML.

Each claim that holds is a passing test; each bug found is a strict xfail naming it.
Everything is seeded; no check compares short words with text holding random ids.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import CorruptStateError, OptionError

pytest.importorskip("rich")

from cardcore import cli

ESC = "\x1b"
RLO = "\u202e"
LS, PS = "\u2028", "\u2029"

ODD_NAMES = [
    "👩🏽\u200d🚀",  # ZWJ sequence with a skin tone
    "🏳️\u200d🌈",
    "e\u0301",  # combining mark, not composed
    "שלום",  # right-to-left letters
    "مرحبا",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "javascript:alert(1)",
    '{"a": "\\u0000"}',  # JSON-breaking text (escaped, no control character)
    "[bold red]x[/]",
    "[link=https://example.com]x[/link]",
    "Ann\\",
    "Ann\\\\",
    "Аnn",  # Cyrillic А
    "Ann ",
    "a" * 100,  # at the documented limit
    "😀" * 100,
    "\U0010ffff",
]


def _game(players: list[str], seed: int = 3) -> cardcore.Game:
    game = cardcore.new_game("golf", players, seed=seed, options={"rounds": 1})
    cardcore.play(game, [cardcore.load_agent("random")(seed=s) for s in range(len(players))])
    return game


def _run(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = cli.main(args)
            except SystemExit as exc:  # (main returns its status; never expected)
                rc = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = old
    return rc, out.getvalue(), err.getvalue()


def _replay_output(tmp_path: Path, players: list[str]) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(_game(players).record()), encoding="utf-8")
    rc, out, err = _run(["replay", str(path), "--final"])
    assert rc == 0, err
    return out


@contextlib.contextmanager
def _agent(name: str, doc: str = "Plays at random.") -> Iterator[None]:
    factory = type("ThirdPartyAgent", (cardcore.RandomAgent,), {"__doc__": doc})
    cardcore.register("cardcore.agents", name, factory)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.agents", name)


# -- new_game: accepted and refused as documented ----------------------------------------------


@pytest.mark.parametrize("name", ODD_NAMES, ids=range(len(ODD_NAMES)))
def test_new_game_accepts_documented_names(name: str) -> None:
    game = cardcore.new_game("golf", [name, "Bob"], seed=1)
    assert game.players == (name, "Bob")
    assert game.view(0)["players"][0] == name


REFUSED = [
    "",
    "a" * 101,  # just over the limit
    "Ann\x00",
    "Ann\x1b[2J",
    "\x1b]8;;http://e\x07x",
    "Ann\x7f",
    "Ann\x85",  # NEL, a C1 control
    "Ann\n",
    "A\u202enna",  # right-to-left override
    "A\u2066nn",  # isolate
    "Ann\ud800",  # lone surrogate
]


@pytest.mark.parametrize("name", REFUSED, ids=range(len(REFUSED)))
def test_new_game_refuses_documented_names(name: str) -> None:
    with pytest.raises(OptionError) as info:
        cardcore.new_game("golf", [name, "Bob"], seed=1)
    message = str(info.value)
    assert ESC not in message and RLO not in message and "\x00" not in message
    message.encode("utf-8")  # the message itself can be printed and sent


def test_names_round_trip_byte_exact_through_record_save_and_position() -> None:
    for i in range(0, len(ODD_NAMES), 2):
        pair = ODD_NAMES[i : i + 2]
        game = _game(pair, seed=i)
        record = json.loads(json.dumps(game.record(), ensure_ascii=False))
        assert cardcore.replay(record).players == tuple(pair)
        saved = json.loads(json.dumps(game.save()))
        assert cardcore.load(saved).players == tuple(pair)
        position = json.loads(json.dumps(game.position()))
        assert cardcore.new_game("golf", pair, position=position).players == tuple(pair)


@pytest.mark.parametrize("bad", ["Ann\x1b[2J", "A\u202enn", "a" * 101, "Ann\ud800"])
def test_replay_refuses_a_record_whose_names_new_game_refuses(bad: str) -> None:
    record = json.loads(json.dumps(_game(["Ann", "Bob"]).record()))
    record["players"] = [bad, "Bob"]
    with pytest.raises(CorruptStateError):
        cardcore.replay(record)


# -- the command line ---------------------------------------------------------------------------


def test_cli_replay_refuses_a_record_with_an_escape_sequence_in_a_name(tmp_path: Path) -> None:
    record = _game(["Ann", "Bob"]).record()
    record["players"] = ["Ann\x1b[2J", "Bob"]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    rc, out, err = _run(["replay", str(path)])
    assert rc == 2
    assert ESC not in out + err
    assert "\\x1b[2J" in err  # shown escaped, as the library's error says it


def test_cli_play_shows_markup_in_a_name_literally() -> None:
    name = "[bold red]Mal[/][link=https://e]x[/link]"
    rc, out, err = _run(
        ["play", "golf", "--seed", "1", "-o", "rounds=1", "--no-record", "--name", name], "quit\n"
    )
    assert rc == 0, err
    assert f"you are {name};" in out
    assert f"> 0: {name}" in out and f"turn: {name}" in out
    assert ESC not in out


@pytest.mark.parametrize("name", ["A\u202enna", "Ann\u200b", "\u200f"])
def test_cli_play_refuses_invisible_and_override_names_without_echoing_them(name: str) -> None:
    rc, _out, err = _run(["play", "golf", "--seed", "1", "--no-record", "--name", name], "quit\n")
    assert rc == 2
    assert name not in err and "\\u" in err  # named by its escape, never printed raw


def test_cli_play_echoes_typed_text_escaped() -> None:
    typed = ["[bold red]x[/]", "\x1b[2J", "\u202eflip 0", "[link=https://e]x[/link]"]
    rc, out, err = _run(
        ["play", "golf", "--seed", "1", "-o", "rounds=1", "--no-record"],
        "\n".join([*typed, "quit"]) + "\n",
    )
    assert rc == 0, err
    assert ESC not in out and RLO not in out
    assert "not a golf action: '[bold red]x[/]'" in out
    assert "not a golf action: '[link=https://e]x[/link]'" in out
    assert "'\\x1b[2J'" in out and "'\\u202eflip 0'" in out


def test_cli_replay_shows_markup_and_html_names_literally(tmp_path: Path) -> None:
    out = _replay_output(tmp_path, ["[bold red]x[/]", "<b>Bob</b>"])
    assert "0: [bold red]x[/]" in out and "1: <b>Bob</b>" in out
    assert ESC not in out


def test_cli_replay_shows_a_trailing_backslash_as_it_is(tmp_path: Path) -> None:
    out = _replay_output(tmp_path, ["Ann\\", "Bob"])
    assert "0: Ann\\ " in out
    assert "Ann\\\\" not in out


def test_cli_replay_never_prints_a_line_separator_from_a_name(tmp_path: Path) -> None:
    out = _replay_output(tmp_path, [f"Zed{LS}Qux", f"Amy{PS}Lee"])
    assert LS not in out and PS not in out


def test_cli_list_never_prints_an_escape_sequence_from_an_agent_name() -> None:
    # fixed by refusing the name at registration, as a house rule's is
    with pytest.raises(cardcore.PluginError, match="print as it is"), _agent("evil\x1b[2J"):
        pass
    rc, out, err = _run(["list", "golf"])
    assert rc == 0, err
    assert ESC not in out + err


def test_cli_list_never_prints_an_escape_sequence_from_an_agent_docstring() -> None:
    with _agent("plaindoc", doc="Plays \x1b[31mred\x1b[0m at random."):
        rc, out, err = _run(["list", "golf"])
    assert rc == 0, err
    assert "plaindoc" in out
    assert ESC not in out + err


def test_cli_list_shows_markup_in_an_agent_docstring_literally() -> None:
    with _agent("markupdoc", doc="Plays [bold red]at random[/]."):
        rc, out, err = _run(["list", "golf"])
    assert rc == 0, err
    assert "[bold red]at random[/]" in out


def test_cli_simulate_never_prints_a_direction_override_from_an_agent_name() -> None:
    # fixed by refusing the name at registration: it never reaches a table
    with pytest.raises(cardcore.PluginError, match="print as it is"), _agent(f"bot{RLO}x"):
        pass
    rc, out, err = _run(["simulate", "golf", "--agents", f"bot{RLO}x", "-n", "2", "-q"])
    assert rc == 2 and RLO not in out + err


def test_cli_play_refuses_a_name_that_shows_as_a_bots() -> None:
    rc, _out, _err = _run(
        ["play", "golf", "--seed", "1", "--no-record", "--name", "random 2\u200d"], "quit\n"
    )
    assert rc == 2


def test_cli_play_refuses_a_bots_name_in_another_case() -> None:
    rc, _out, err = _run(["play", "golf", "--seed", "1", "--no-record", "--name", "Random 2"])
    assert rc == 2 and "another seat" in err


# -- the web server -----------------------------------------------------------------------------


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


def _kept(response: Any) -> list[str]:
    assert response.status_code == 201, response.text
    return [seat["name"] for seat in response.json()["seats"]]


@pytest.mark.parametrize(
    "name",
    [
        "<script>alert(1)</script>",
        '"><img src=x onerror=alert(1)>',
        "javascript:x",
        "שלום",
        "👩🏽\u200d🚀",
        "[bold]x[/]",
        "Ann\\",
    ],
)
def test_web_lobby_keeps_an_odd_name_verbatim_as_json(web: Any, name: str) -> None:
    response = _create(web, [name, "Bob"])
    assert response.headers["content-type"].startswith("application/json")
    assert _kept(response)[0] == name


@pytest.mark.parametrize(
    "name",
    [
        "A\u202enna",
        "Ann\x1b[2J",
        "\u200b",
        "   ",
        "\u3000",
        "A\u200fnn",
        "A\u061cnn",
        "Ann\U000e0020",
        "\ufe0f",
    ],
)
def test_web_lobby_refuses_names_that_show_as_other_text(web: Any, name: str) -> None:
    response = _create(web, [name, "Bob"])
    assert response.status_code == 400


@pytest.mark.parametrize(
    "pair", [["Ann", "Аnn"], ["Ann", "Ａｎｎ"], ["Ann", "𝐀nn"], ["Ann", "ann"], ["Ann\xa0", "Ann"]]
)
def test_web_lobby_refuses_a_name_that_looks_like_another_seats(web: Any, pair: list[str]) -> None:
    assert _create(web, pair).status_code == 400


def test_web_lobby_compares_names_after_cutting_them_to_40(web: Any) -> None:
    response = _create(web, ["x" * 40 + "A", "x" * 40 + "B"])
    assert response.status_code == 400
    assert _kept(_create(web, ["y" * 45, "Bob"]))[0] == "y" * 40


@pytest.mark.parametrize("name", ["Ann (you)", "Ann（you）", "Ann (уou)", "Ann (bot random)"])
def test_web_lobby_refuses_names_ending_with_a_page_mark(web: Any, name: str) -> None:
    assert _create(web, [name, "Bob"]).status_code == 400


@pytest.mark.parametrize("twin", ["Ann\u200d", "A\u034fnn", "Ann\ufe00"])
def test_web_lobby_refuses_an_invisible_twin_of_another_seats_name(web: Any, twin: str) -> None:
    assert _create(web, ["Ann", twin]).status_code == 400


STATIC = Path(cardcore.__file__).parent / "web" / "static"


def test_served_pages_insert_text_never_html() -> None:
    sources = {p.name: p.read_text(encoding="utf-8") for p in STATIC.glob("*.js")}
    assert {"play.js", "lobby.js", "layouts.js", "cards.js"} <= set(sources)
    for name, text in sources.items():
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in text, (name, sink)
    for name in ("play.js", "lobby.js"):  # their el() helper sets "text" as textContent
        assert re.search(r'k === "text"\) e\.textContent = v', sources[name]), name


def test_lobby_selector_built_from_a_name_is_built_from_literals_only() -> None:
    lobby = (STATIC / "lobby.js").read_text(encoding="utf-8")
    assert "'[data-option=\"' + name + '\"]'" in lobby  # chosen(name): not escaped, so ...
    calls = re.findall(r"chosen\(([^)]*)\)", lobby)
    assert calls and all(re.fullmatch(r'"[a-z_]+"|name', c) for c in calls), calls  # literals


# -- the session layer --------------------------------------------------------------------------


def test_session_errors_echo_hostile_text_escaped_and_encodable() -> None:
    from cardcore.session import Session

    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    hostile = [
        '{"type":"join","seat":0,"id":"\\ud800"}',
        '{"type":"join","seat":0,"\\ud800":1}',
        '{"type":"\\u001b[2J"}',
        '{"type":"<script>alert(1)</script>"}',
        '{"type":"join","seat":"\\u202e1"}',
    ]
    for i, text in enumerate(hostile):
        for out in session.handle(f"c{i}", text, now=1.0):
            out.text.encode("utf-8")
            message = out.message.get("message", "")
            assert ESC not in message and RLO not in message and "\ud800" not in message
