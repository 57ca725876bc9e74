"""Error quality sweep of 2026-12-22: every error a caller can provoke from input.

The standard: bad input gets a clear error (a documented cardcore error) naming what was
wrong; it changes nothing; no raw Python exception reaches the caller; a message never
reveals a card its reader has not seen, nor Python internals ('NoneType', 'object has no
attribute', private names, tracebacks), and stays short however long the input.

Each claim that holds is a passing (mostly table-driven) test; each bug found is a strict
xfail naming it.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
from collections.abc import Mapping

import pytest

import cardcore
from cardcore import (
    CardcoreError,
    CorruptStateError,
    IllegalActionError,
    NotationError,
    OptionError,
    SeatError,
    UnknownPluginError,
)

np = pytest.importorskip("numpy")

LONG = "y" * 100_000
"""A long input: a message quoting it whole is about as long."""

MAX_MESSAGE = 1_000
"""A generous bound on a message's length (the longest legitimate ones list every
installed house rule of a game, about 800 characters)."""

INTERNALS = re.compile(
    r"NoneType|object has no attribute|<function|object at 0x|Traceback|self\."
    r"|maximum recursion depth|unicode string|not subscriptable|unhashable"
    r"|(?<![\w'])_[a-z]\w*"
)
"""Words of Python's own, or private names, that a message to a caller must not hold."""


def _check_message(exc: BaseException) -> str:
    text = str(exc)
    assert len(text) <= MAX_MESSAGE, f"{type(exc).__name__} of {len(text)} characters"
    found = INTERNALS.search(text)
    assert found is None, f"message leaks {found.group(0)!r}: {text[:200]!r}"
    return text


class Hostile:
    """An object that fails whatever is asked of it."""

    def __iter__(self):
        raise RuntimeError("iter")

    def __len__(self):
        raise RuntimeError("len")

    def __eq__(self, other):
        raise RuntimeError("eq")

    def __hash__(self):
        raise RuntimeError("hash")

    def __repr__(self):
        raise RuntimeError("repr")


class FailingMapping(Mapping):
    """A mapping whose iteration fails."""

    def __getitem__(self, key):
        raise KeyError(key)

    def __iter__(self):
        raise RuntimeError("iter")

    def __len__(self):
        return 1


def _id(value: object) -> str:
    """A test id for any value, even one whose repr fails."""
    try:
        return repr(value)[:30]
    except Exception:
        return type(value).__name__


def _tonk() -> cardcore.Game:
    """Tonk, seed 7: after the cut seat 0 is to act (a fixed position, never a random deal)."""
    game = cardcore.new_game("tonk", 2, seed=7)
    game.apply(game.legal_actions(0)[1])
    assert game.to_act == (0,)
    return game


def _snapshot(game: cardcore.Game) -> str:
    return json.dumps(
        [game.record(), game.view(0), game.view(1), game.view(None), game.version],
        sort_keys=True,
        default=str,
    )


# ---------------------------------------------------------------------------------------
# Claims that hold: new_game's arguments
# ---------------------------------------------------------------------------------------

OPTION_CASES = [
    (game, option, value)
    for game, option in [
        ("golf", "layout"),
        ("golf", "rounds"),
        ("golf", "dealer"),
        ("golf", "max_turns"),
        ("speed", "side_pile"),
        ("speed", "jokers"),
        ("spit", "stall_limit"),
        ("tonk", "stake"),
        ("tonk", "first_dealer"),
    ]
    for value in [
        True,
        -1,
        6.5,
        float("nan"),
        float("inf"),
        10**100,
        "६",
        b"6",
        [6],
        {"a": 1},
        Hostile(),
        np.float64(6.0),
        1j,
        LONG,
    ]
]


@pytest.mark.parametrize(("game", "option", "value"), OPTION_CASES, ids=lambda v: type(v).__name__)
def test_bad_option_value_is_option_error_naming_the_option(game, option, value):
    with pytest.raises(OptionError) as info:
        cardcore.new_game(game, 2, seed=1, options={option: value})
    assert f"'{option}'" in _check_message(info.value)


@pytest.mark.parametrize(
    "players",
    [
        None,
        0,
        -1,
        65,
        10**100,
        2.0,
        True,
        "2",
        b"2",
        [],
        ["a"],
        ["", ""],
        [1, 2],
        [None],
        ["a", LONG],
        ["\ud800", "b"],
        ["a\x1bb", "c"],
        Hostile(),
        float("nan"),
        {"a": 1},
    ],
    ids=_id,
)
def test_bad_players_is_option_error(players):
    with pytest.raises(OptionError) as info:
        cardcore.new_game("golf", players, seed=1)
    assert "players" in _check_message(info.value) or "golf takes" in str(info.value)


@pytest.mark.parametrize(
    "seed",
    [-1, 2**128, 10**1000, 1.5, float("nan"), "1", True, b"1", Hostile(), np.int64(1)],
    ids=_id,
)
def test_bad_seed_is_option_error(seed):
    with pytest.raises(OptionError) as info:
        cardcore.new_game("golf", 2, seed=seed)
    assert "seed" in _check_message(info.value)


@pytest.mark.parametrize(
    "name",
    [None, 1, b"golf", "", "Golf", "gоlf", "golf\x00", "\ud800", LONG, Hostile(), ["golf"]],
    ids=_id,
)
def test_bad_game_name_is_unknown_plugin_error(name):
    with pytest.raises(UnknownPluginError) as info:
        cardcore.new_game(name, 2, seed=1)
    text = _check_message(info.value)
    assert "installed: " in text and "golf" in text


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"options": []}, OptionError),
        ({"options": FailingMapping()}, OptionError),
        ({"options": {"nope": 1}}, OptionError),
        ({"options": {LONG: 1}}, OptionError),
        ({"rules": "golf.jokers"}, CardcoreError),
        ({"rules": [None]}, UnknownPluginError),
        ({"rules": ["spit.canfield"]}, cardcore.OtherGameRuleError),
        ({"without": ["nope"]}, cardcore.RuleConflictError),
        ({"deck": "ZZ " * 52}, NotationError),
        ({"deck": "AS " * 52}, OptionError),
        ({"deck": LONG}, NotationError),
        ({"deck": 12}, OptionError),
        ({"position": LONG}, OptionError),
        ({"position": "junk"}, OptionError),
        ({"position": 5}, OptionError),
        ({"subscribers": [(5,)]}, CardcoreError),
    ],
    ids=_id,
)
def test_bad_new_game_keyword_is_a_short_cardcore_error(kwargs, error):
    with pytest.raises(error) as info:
        cardcore.new_game("golf", 2, seed=1, **kwargs)
    _check_message(info.value)


# ---------------------------------------------------------------------------------------
# Claims that hold: Game methods refuse bad input and change nothing
# ---------------------------------------------------------------------------------------

SEATS = [None, -1, 2, 64, True, 1.0, "0", "Player 1", b"0", 10**100, float("nan"), Hostile(), [0]]


@pytest.mark.parametrize("seat", SEATS, ids=_id)
@pytest.mark.parametrize("method", ["legal_actions", "act"])
def test_bad_seat_is_seat_error_and_changes_nothing(seat, method):
    game = _tonk()
    before = _snapshot(game)
    with pytest.raises(SeatError) as info:
        if method == "act":
            game.act(seat, "draw")
        else:
            game.legal_actions(seat)
    _check_message(info.value)
    assert _snapshot(game) == before


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", NotationError),
        (None, NotationError),
        (5, NotationError),
        (b"draw", NotationError),
        ("y" * 10_000_000, NotationError),
        ("\ud800", NotationError),
        ("draw\x00", NotationError),
        ("ｄｒａｗ", NotationError),
        ("\u202edraw", NotationError),
        ("discard ＡＣ", NotationError),
        ("discard A\u0338C", NotationError),
        ("draw draw", NotationError),
        ("discard", NotationError),
        ("discard JK", NotationError),
        ("spread " + "AC " * 100_000, NotationError),
        ("end", IllegalActionError),
        ("discard 2C", IllegalActionError),  # a card of the stock
        (Hostile(), NotationError),
    ],
    ids=_id,
)
def test_bad_action_text_is_refused_and_changes_nothing(text, error):
    game = _tonk()
    before = _snapshot(game)
    with pytest.raises(error) as info:
        game.act(0, text)
    _check_message(info.value)
    assert _snapshot(game) == before


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"at": float("nan")}, "at is nan"),
        ({"at": "1"}, "at is '1'"),
        ({"at": True}, "at is True"),
        ({"at": 10**400}, "bits"),
        ({"seen": "1"}, "seen must be"),
        ({"seen": 1.5}, "seen must be"),
        ({"seen": True}, "seen must be"),
        ({"seen": 99}, "seen=99"),
        ({"seen": -1}, "seen=-1"),
    ],
    ids=_id,
)
def test_bad_at_or_seen_names_it_and_changes_nothing(kwargs, fragment):
    game = _tonk()
    before = _snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "draw", **kwargs)
    assert fragment in _check_message(info.value)
    assert _snapshot(game) == before


@pytest.mark.parametrize(
    "action",
    [None, "draw", 5, Hostile(), cardcore.Resign, cardcore.Resign(5), cardcore.EndMatch(0)],
    ids=_id,
)
def test_apply_of_a_non_action_is_refused_and_changes_nothing(action):
    game = _tonk()
    before = _snapshot(game)
    with pytest.raises(CardcoreError) as info:
        game.apply(action)
    _check_message(info.value)
    assert _snapshot(game) == before


@pytest.mark.parametrize("since", [-1, 1.5, "0", None, True, Hostile(), float("inf")], ids=_id)
def test_bad_history_since_is_refused(since):
    with pytest.raises(CardcoreError) as info:
        _tonk().history(0, since=since)
    assert "since" in _check_message(info.value)


# ---------------------------------------------------------------------------------------
# Claims that hold: no error shows a seat a card it has not seen
# ---------------------------------------------------------------------------------------

_CARD = re.compile(
    r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[SHDC](?![A-Za-z0-9])|(?<![A-Za-z0-9])JK(?![A-Za-z0-9])"
)
_ALL_CARDS = [str(c) for c in cardcore.standard_52()] + ["JK"]


def _hidden_from(game: cardcore.Game, seat: int) -> set[str]:
    """The cards *seat* has not seen, from the privileged position text (structure, not
    substrings: each pile's tokens are card[@seats|!]), less every card its view shows."""
    hidden = set()
    seen = set(_CARD.findall(json.dumps(game.view(seat))))
    for part in game.position().split(" | ")[1:]:
        _, _, cards = part.partition(":")
        for token in cards.split():
            match = re.fullmatch(r"((?:10|[2-9AJQK])[SHDC]|JK)(?:@([\d,]+)|(!))?", token)
            assert match is not None, token
            card, mask, everyone = match.groups()
            seats = {int(s) for s in mask.split(",")} if mask else set()
            (seen if everyone or seat in seats else hidden).add(card)
    return hidden - seen


def _variants(templates: set[str]) -> set[str]:
    out = set()
    for text in templates:
        tokens = text.split()
        for i, token in enumerate(tokens):
            if token in _ALL_CARDS:
                out.update(" ".join([*tokens[:i], c, *tokens[i + 1 :]]) for c in _ALL_CARDS)
            elif token.isdigit():
                out.update(" ".join([*tokens[:i], str(n), *tokens[i + 1 :]]) for n in range(8))
    return out


@pytest.mark.parametrize("name", ["speed", "spit", "tonk", "gofish"])
def test_refused_actions_never_name_a_card_the_seat_has_not_seen(name):
    game = cardcore.new_game(name, 2, seed=11)
    rng = random.Random(5)
    templates: set[str] = set()
    checked = 0
    for _ in range(12):
        if game.is_over:
            break
        for seat in range(2):
            templates.update(str(a) for a in game.legal_actions(seat))
        for seat in range(2):
            hidden = _hidden_from(game, seat)
            for text in sorted(_variants(templates)):
                copy = game.clone()
                try:
                    copy.act(seat, text)
                except CardcoreError as exc:
                    checked += 1
                    message = str(exc)
                    named = set(_CARD.findall(message)) - set(_CARD.findall(text))
                    assert not named & hidden, (name, seat, text, message)
        seat = rng.choice(list(game.to_act))
        game.apply(rng.choice(game.legal_actions(seat)))
    assert checked > 50


# ---------------------------------------------------------------------------------------
# Claims that hold: records and saves
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("seed", "x"),
        ("seed", -1),
        ("seed", 10**100),
        ("actions", None),
        ("actions", [None]),
        ("actions", LONG),
        ("position", LONG),
        ("position", 1),
        ("result", {"a": 1}),
        ("players", LONG),
        ("game", LONG),
    ],
    ids=_id,
)
def test_tampered_record_is_corrupt_state_error(field, value):
    record = _tonk().record()
    record[field] = value
    with pytest.raises(CardcoreError) as info:
        cardcore.replay(record)
    _check_message(info.value)


def test_signed_record_with_wrong_key_is_refused():
    record = _tonk().record(key="k" * 32)
    with pytest.raises(CorruptStateError, match="signature"):
        cardcore.replay(record, key="j" * 32)


# ---------------------------------------------------------------------------------------
# Claims that hold: the session layer
# ---------------------------------------------------------------------------------------


def _session():
    from cardcore.session import Session

    session = Session.create("tonk", ["Ann", "Bob"], now=0.0, seed=7)
    session.handle("ann", '{"type": "join", "seat": 0}', 1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', 2.0)
    return session


SESSION_MESSAGES = [
    ("", "bad-json"),
    ("[]", "bad-json"),
    ("{", "bad-json"),
    ('{"type": 1}', "bad-message"),
    ('{"type": "act"}', "bad-message"),
    ('{"type": "act", "action": "draw", "seen": "0"}', "bad-message"),
    ('{"type": "act", "action": 5, "seen": 0}', "bad-message"),
    ('{"type": "act", "action": "draw", "seen": true}', "bad-message"),
    ('{"type": "act", "action": "draw", "seen": NaN}', "bad-json"),
    ('{"type": "act", "action": "draw", "seen": 0, "x": 1}', "bad-message"),
    ('{"type": "act", "action": "draw", "seen": 0, "type": "act"}', "bad-json"),
    ('{"type": "act", "action": "\\ud800", "seen": 0}', "bad-message"),
    ('{"type": "act", "action": "draw", "seen": 0, "seat": 0}', "not-your-seat"),
    ('{"type": "act", "action": "draw", "seen": 0}', "illegal"),
    ('{"type": "act", "action": "ｄｒａｗ", "seen": 0}', "notation"),
    ('{"type": "act", "action": "draw\\u0000", "seen": 0}', "notation"),
    ('{"type": "join", "seat": 64}', "bad-message"),
    ('{"type": "takeback", "op": "REQUEST"}', "bad-message"),
    ('{"type": "ping", "t": -1e309}', "bad-message"),
    ('{"type": "ping", "id": ' + "9" * 5000 + "}", "bad-json"),
    ("[" * 3000 + "]" * 3000, "bad-json"),
    ("x" * 10_000_000, "too-large"),
    (b"\xff\xfe", "bad-json"),
    ({"type": "ping", 1: 2}, "bad-message"),
    ({"type": "ping", "t": float("nan")}, "bad-message"),
]


@pytest.mark.parametrize(("message", "code"), SESSION_MESSAGES, ids=_id)
def test_session_bad_message_is_an_error_to_its_sender_and_changes_nothing(message, code):
    session = _session()
    before = _snapshot(session.game)
    out = session.handle("bob", message, 3.0)
    assert [(o.conn, o.message["type"], o.message["code"]) for o in out] == [("bob", "error", code)]
    _check_message(Exception(out[0].message["message"]))
    assert _snapshot(session.game) == before


# ---------------------------------------------------------------------------------------
# Claims that hold: the RL environments
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        None,
        -1,
        10**100,
        1.5,
        "0",
        True,
        np.float64(10),
        [10],
        np.array([10]),
        Hostile(),
        0,
        9999,
        float("nan"),
        "flip 0",
    ],
    ids=_id,
)
def test_gym_step_with_a_bad_action_is_illegal_and_changes_nothing(action):
    from cardcore.rl import gym_env

    env = gym_env("golf", 2, options={"rounds": 1})
    env.reset(seed=1)
    game = env.runner.match.game
    before = _snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        env.step(action)
    assert "flip 0" in _check_message(info.value)  # names the legal ones
    assert _snapshot(game) == before


@pytest.mark.parametrize("seed", [-1, 1.5, "1", True, np.int64(1), 2**128], ids=_id)
def test_gym_reset_with_a_bad_seed_is_option_error(seed):
    from cardcore.rl import gym_env

    with pytest.raises(OptionError) as info:
        gym_env("golf", 2, options={"rounds": 1}).reset(seed=seed)
    assert "seed" in _check_message(info.value)


# ---------------------------------------------------------------------------------------
# Claims that hold: the command line
# ---------------------------------------------------------------------------------------


def _cli(argv: list[str]) -> tuple[int, str]:
    from cardcore.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    return code, err.getvalue()


@pytest.mark.parametrize(
    "argv",
    [
        ["rules", "nope"],
        ["rules", LONG],
        ["play", "golf", "--players", "x"],
        ["play", "golf", "--players", "1000"],
        ["play", "golf", "--seed", "-1"],
        ["simulate", "golf", "--games", "0"],
        ["simulate", "golf", "--games", "99999999999"],
        ["simulate", "golf", "--agents", "nope"],
        ["simulate", "golf", "--option", "rounds=x", "--games", "1"],
        ["simulate", "golf", "--option", "layout=\x1b[31m", "--games", "1"],
        ["compare", "golf", "--games", "-1"],
        ["list", "--bogus"],
        ["nosuchcmd"],
        ["serve", "--port", "99999"],
    ],
    ids=_id,
)
def test_cli_bad_argument_is_one_line_status_2(argv):
    code, err = _cli(argv)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1, err[:300]
    assert "Traceback" not in err and "\x1b" not in err
    _check_message(Exception(err))


@pytest.mark.parametrize("command", ["replay", "verify"])
@pytest.mark.parametrize("content", ["", '{"format": "cardcore-record"', "\ufeff{}", "{}"], ids=_id)
def test_cli_unreadable_file_is_one_line_status_2(tmp_path, command, content):
    path = tmp_path / "x.json"
    path.write_text(content, encoding="utf-8")
    code, err = _cli([command, str(path)])
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1, err[:300]
    assert "Traceback" not in err


# ---------------------------------------------------------------------------------------
# Bugs (strict xfail)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: cardcore.new_game("golf", 2, seed=1, rules=[LONG]),
        lambda: cardcore.get_ruleset("golf", [LONG]),
        lambda: cardcore.compare("golf", vs=[LONG], games=1),
    ],
    ids=["new_game", "get_ruleset", "compare"],
)
def test_unknown_house_rule_message_stays_short(call):
    with pytest.raises(UnknownPluginError) as info:
        call()
    _check_message(info.value)


def test_unknown_without_message_stays_short():
    with pytest.raises(cardcore.RuleConflictError) as info:
        cardcore.new_game("golf", 2, seed=1, without=[LONG])
    _check_message(info.value)


def test_cli_unknown_house_rule_error_line_stays_short():
    code, err = _cli(["simulate", "golf", "--games", "1", "--rules", LONG])
    assert code == 2
    _check_message(Exception(err))


@pytest.mark.parametrize(
    "call",
    [
        lambda: cardcore.load_agent("random", **{LONG: 1}),
        lambda: cardcore.simulate("golf", games=1, agents=["random:" + LONG + "=1", "random"]),
    ],
    ids=["load_agent", "simulate"],
)
def test_unknown_agent_parameter_message_stays_short(call):
    with pytest.raises(OptionError) as info:
        call()
    _check_message(info.value)


def test_repeated_agent_parameter_message_stays_short():
    with pytest.raises(OptionError) as info:
        cardcore.parse_agent_spec("random:" + "seed=1," * 100_000 + "seed=1")
    _check_message(info.value)


def test_tampered_save_version_message_stays_short():
    save = _tonk().save()
    save["version"] = "y" * 10_000_000
    with pytest.raises(CorruptStateError) as info:
        cardcore.load(save)
    _check_message(info.value)


@pytest.mark.parametrize("where", ["replay", "load", "session", "cli-verify", "cli-replay"])
def test_json_null_is_not_called_nonetype(where, tmp_path):
    if where == "replay":
        with pytest.raises(CorruptStateError) as info:
            cardcore.replay("null")
        text = str(info.value)
    elif where == "load":
        with pytest.raises(CorruptStateError) as info:
            cardcore.load(b"null")
        text = str(info.value)
    elif where == "session":
        out = _session().handle("bob", "null", 3.0)
        assert out[0].message["code"] == "bad-json"
        text = out[0].message["message"]
    else:
        path = tmp_path / "null.json"
        path.write_text("null", encoding="utf-8")
        code, text = _cli([where.removeprefix("cli-"), str(path)])
        assert code == 2
    assert "NoneType" not in text, text


@pytest.mark.parametrize("where", ["replay", "load", "cli-replay", "cli-verify"])
def test_deeply_nested_record_message_is_ours(where, tmp_path):
    text = "[" * 100_000 + "]" * 100_000
    if where.startswith("cli-"):
        path = tmp_path / "deep.json"
        path.write_text(text, encoding="utf-8")
        code, message = _cli([where.removeprefix("cli-"), str(path)])
        assert code == 2
    else:
        with pytest.raises(CorruptStateError) as info:
            getattr(cardcore, where)(text)
        message = str(info.value)
    _check_message(Exception(message))


def test_observe_with_a_non_encoding_does_not_leak_internals():
    from cardcore.rl import observe

    with pytest.raises(cardcore.ArgumentError) as info:
        observe(cardcore.new_game("golf", 2, seed=1), 0, encoding="x")
    _check_message(info.value)


@pytest.mark.parametrize("first", ["array", "hostile"])
def test_players_list_with_a_non_text_item_is_option_error(first):
    item = np.array(["a", "b"]) if first == "array" else Hostile()
    with pytest.raises(OptionError):
        cardcore.new_game("golf", [item, "c"], seed=1)


@pytest.mark.parametrize("keyword", ["rules", "without", "subscribers", "parse_cards"])
def test_failing_iterable_argument_is_a_cardcore_error(keyword):
    with pytest.raises(CardcoreError):
        if keyword == "parse_cards":
            cardcore.parse_cards(Hostile())
        else:
            cardcore.new_game("golf", 2, seed=1, **{keyword: Hostile()})


def test_gym_reset_with_a_failing_options_mapping_is_option_error():
    from cardcore.rl import gym_env

    with pytest.raises(OptionError):
        gym_env("golf", 2, options={"rounds": 1}).reset(seed=1, options=FailingMapping())
