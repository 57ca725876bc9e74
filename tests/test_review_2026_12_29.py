"""Review of the fixes of 2026-12-29 (``git diff 42d1d48..HEAD -- src plugins docs``).

* a full web server checks a new game's rules and options before its limits (400, not 429);
* ``ISMCTSAgent.__repr__`` names the parameters off their defaults;
* stored sessions: damaged action, token and message rows of other shapes, in a
  ``MemoryStore`` and an ``SQLiteStore``, and a good session resuming unchanged;
* the changed docs' claims (agent specs' empty pieces, the line-up's rotation).

Strict xfails mark what was found wrong; every other test pins a claim that held. Games are
dealt from fixed seeds; nothing depends on timing.
"""

from __future__ import annotations

import copy
import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardcore.session import CorruptSessionError, MemoryStore, Session, SQLiteStore
from cardcore.session.store import TokenRow

# -- the web server: rules and options checked before the limits -----------------------------

PEOPLE = [{"name": "A"}, {"name": "B"}]


def _full_server() -> Any:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from cardcore.web.app import ServerLimits
    from tests.web.helpers import serve

    return serve(server_limits=ServerLimits(max_sessions=1, idle_close=0))


def _post(client: Any, body: dict[str, Any]) -> Any:
    return client.post("/api/sessions", content=json.dumps(body))


def test_a_full_server_refuses_a_rule_that_does_not_apply_to_the_options_with_400() -> None:
    request = {"game": "golf", "seats": PEOPLE, "rules": ["golf.peek-nearest"]}
    request["options"] = {"layout": 6}
    with _full_server() as (client, server, _):
        first = _post(client, {"game": "golf", "seats": PEOPLE})
        assert first.status_code == 201
        r = _post(client, request)
        assert r.status_code == 400, r.text
        assert "applies only" in r.json()["error"]
        assert len(server.hub.sessions) == 1


def test_a_free_server_refuses_a_rule_that_does_not_apply_with_400_naming_it() -> None:
    """What the full server should answer too (the building of the game refuses it)."""
    request = {"game": "golf", "seats": PEOPLE, "rules": ["golf.peek-nearest"]}
    request["options"] = {"layout": 6}
    pytest.importorskip("starlette")
    from tests.web.helpers import serve

    with serve() as (client, server, _):
        r = _post(client, request)
        assert r.status_code == 400, r.text
        assert "golf.peek-nearest" in r.json()["error"] and "applies only" in r.json()["error"]
        assert server.hub.sessions == {}


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ({"options": {"layout": [1] * 5}}, "layout"),
        ({"options": {"layout": {"a": 1}}}, "layout"),
        ({"options": {"layout": 10**300}}, "layout"),
        ({"options": {"layout": 1e308}}, "layout"),
        ({"options": {"__class__": 1}}, "__class__"),
        ({"options": {"": 1}}, "no option"),
        ({"options": {"k" * 30_000: 1}}, "no option"),
        ({"rules": ["r" * 200] * 300}, "no house rule"),
        ({"rules": ["golf.hard", "golf.hard"], "without": ["golf.nope"]}, "golf.nope"),
        ({"rules": ["tonk.wild"]}, "tonk.wild"),
    ],
)
def test_a_full_server_answers_hostile_rules_and_options_with_400_never_500(
    extra: dict[str, Any], named: str
) -> None:
    """Huge values, hostile keys and many long rule names: a CardcoreError (400), never a raw
    exception (500), and nothing created."""
    with _full_server() as (client, server, _):
        assert _post(client, {"game": "golf", "seats": PEOPLE}).status_code == 201
        r = _post(client, {"game": "golf", "seats": PEOPLE, **extra})
        assert r.status_code == 400, r.text
        assert named in r.json()["error"]
        assert len(server.hub.sessions) == 1


def test_a_request_that_would_be_taken_is_still_429_on_a_full_server_and_201_with_room() -> None:
    """The new check changes nothing for a good request: rules and options it names are the
    ones the game is built with, and the limits still answer 429 with Retry-After."""
    good = {
        "game": "golf",
        "seats": PEOPLE,
        "rules": ["golf.peek-nearest"],
        "options": {"layout": "4"},
    }
    with _full_server() as (client, server, _):
        r = _post(client, good)
        assert r.status_code == 201, r.text
        body = r.json()
        assert body["rules"] == ["golf.peek-nearest"]
        assert str(body["options"]["layout"]) == "4"
        again = _post(client, good)
        assert again.status_code == 429 and again.headers.get("Retry-After") == "60"
        assert len(server.hub.sessions) == 1


def test_the_400_before_the_limits_says_what_building_the_game_says() -> None:
    """The message of a full server's refusal is the one new_game gives (no other text)."""
    from cardcore import new_game
    from cardcore.errors import CardcoreError

    with pytest.raises(CardcoreError) as info:
        new_game("golf", 2, rules=["golf.nope"])
    with _full_server() as (client, _, _dog):
        assert _post(client, {"game": "golf", "seats": PEOPLE}).status_code == 201
        r = _post(client, {"game": "golf", "seats": PEOPLE, "rules": ["golf.nope"]})
        assert r.status_code == 400
        assert r.json()["error"] == str(info.value)


# -- ISMCTSAgent's repr ------------------------------------------------------------------------


def test_ismcts_repr_names_each_parameter_off_its_default_and_only_those() -> None:
    from cardcore.search.ismcts import ISMCTSAgent

    assert repr(ISMCTSAgent()) == "ISMCTSAgent(seed=0, iterations=200, c=0.7, rollout='game')"
    changed = {
        "max_rollout": 10,
        "observe": False,
        "depth": 5,
        "prior": 0.0,
        "reuse": 2,
        "reaction": 1.0,
        "spread": 0.0,
    }
    for name, value in changed.items():
        text = repr(ISMCTSAgent(**{name: value}))
        assert text.endswith(f", {name}={value!r})"), text
    assert repr(ISMCTSAgent(depth=5)) != repr(ISMCTSAgent(depth=6))
    assert repr(ISMCTSAgent(prior=1, reaction=0.5)) == repr(ISMCTSAgent())  # equal values


# -- stored sessions -----------------------------------------------------------------------------


def _play(store: Any) -> str:
    """A Golf session (seed 5): both seats joined, Ann flips card 0."""
    s = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=store)
    for seat in (0, 1):
        s.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0)
    s.handle("c0", json.dumps({"type": "act", "action": "flip 0", "seen": 0}), now=2.0)
    assert s.game is not None and s.game.version == 1
    return str(s.id)


@pytest.fixture(scope="module")
def stored_db(tmp_path_factory: Any) -> tuple[Path, str]:
    path = tmp_path_factory.mktemp("review") / "base.db"
    store = SQLiteStore(path)
    sid = _play(store)
    store.close()
    return path, sid


def _damaged(base: tuple[Path, str], tmp_path: Path, query: str) -> Any:
    path, sid = base
    copy_ = tmp_path / "c.db"
    shutil.copy(path, copy_)
    db = sqlite3.connect(copy_, isolation_level=None)
    try:
        db.execute(query, (sid,))
    finally:
        db.close()
    store = SQLiteStore(copy_)
    try:
        return Session.resume(store, sid, now=50.0)
    finally:
        store.close()


W = " WHERE session = ?"
ROWS = "its stored action rows differ"


@pytest.mark.parametrize(
    "query",
    [
        "UPDATE actions SET seat = 'x'" + W,
        "UPDATE actions SET seat = x'30'" + W,  # the seat as a blob
        "UPDATE actions SET seat = 9223372036854775807" + W,
        "UPDATE actions SET seat = 1e300" + W,
        "UPDATE actions SET notation = CAST(notation AS BLOB)" + W,
        "UPDATE actions SET notation = 5" + W,
        "UPDATE actions SET at = x'ff'" + W,
        "UPDATE actions SET at = 'zz'" + W,
        "UPDATE actions SET at = 1e999" + W,
        "UPDATE actions SET at = -1e999" + W,
        "UPDATE actions SET at = NULL" + W,
        "UPDATE actions SET at = 9223372036854775807" + W,
    ],
)
def test_sqlite_action_rows_damaged_are_refused_naming_the_action_rows(
    stored_db: tuple[Path, str], tmp_path: Path, query: str
) -> None:
    with pytest.raises(CorruptSessionError, match=ROWS):
        _damaged(stored_db, tmp_path, query)


def test_sqlite_an_action_time_stored_as_a_blob_spelling_a_number_is_damaged_rows(
    stored_db: tuple[Path, str], tmp_path: Path
) -> None:
    with pytest.raises(CorruptSessionError, match=ROWS):
        _damaged(stored_db, tmp_path, "UPDATE actions SET at = CAST('2.0' AS BLOB)" + W)


def test_sqlite_an_action_time_stored_as_a_blob_spelling_a_number_is_still_refused(
    stored_db: tuple[Path, str], tmp_path: Path
) -> None:
    """Whatever the message, the session is not resumed and the action, not meta, is blamed."""
    with pytest.raises(CorruptSessionError) as info:
        _damaged(stored_db, tmp_path, "UPDATE actions SET at = CAST('2.0' AS BLOB)" + W)
    assert "action" in str(info.value) and "meta" not in str(info.value)


@pytest.mark.parametrize(
    "query",
    [
        "UPDATE messages SET n = n + 0.5" + W,  # numbered off the line: dropped
        "UPDATE messages SET n = '4' WHERE n = 4 AND session = ?",  # (stored as 4 again)
        "UPDATE messages SET body = 5" + W,  # a body that is no text
        "UPDATE messages SET body = x'ff00'" + W,
        "UPDATE messages SET stream = CAST(stream AS BLOB)" + W,
        "UPDATE sessions SET meta = CAST(meta AS BLOB) WHERE id = ?",  # JSON in a blob: read
        "UPDATE sessions SET created = 'x' WHERE id = ?",  # (never read back)
    ],
)
def test_sqlite_kept_messages_damaged_cost_only_a_fresh_view(
    stored_db: tuple[Path, str], tmp_path: Path, query: str
) -> None:
    resumed = _damaged(stored_db, tmp_path, query)
    assert resumed.game is not None and resumed.game.version == 1


@pytest.mark.parametrize(
    ("query", "match"),
    [
        ("UPDATE tokens SET digest = CAST(digest AS BLOB)" + W, "token rows"),
        ("UPDATE tokens SET expires = x'00'" + W, "token rows"),
        ("UPDATE tokens SET expires = 1e999" + W, "token rows"),
        ("UPDATE tokens SET expires = 'soon'" + W, "token rows"),
        ("UPDATE sessions SET meta = 'null' WHERE id = ?", "stored damaged"),
        ("UPDATE sessions SET meta = '[]' WHERE id = ?", "stored damaged"),
    ],
)
def test_sqlite_token_rows_and_meta_damaged_are_refused_naming_them(
    stored_db: tuple[Path, str], tmp_path: Path, query: str, match: str
) -> None:
    from cardcore.session import SessionError

    with pytest.raises(SessionError, match=match):
        _damaged(stored_db, tmp_path, query)


def test_sqlite_meta_with_a_huge_number_is_a_store_error_not_a_raw_value_error(
    stored_db: tuple[Path, str], tmp_path: Path
) -> None:
    from cardcore.session import SessionError

    query = (
        "UPDATE sessions SET meta = '{\"a\":' || '9' || printf('%.5000c', '9') || '}' WHERE id = ?"
    )
    with pytest.raises(SessionError, match="cannot read session"):
        _damaged(stored_db, tmp_path, query)


def _set_action(i: int, value: Any) -> Callable[[Any], None]:
    def mutate(s: Any) -> None:
        row = list(s.actions[0])
        row[i] = value
        s.actions[0] = tuple(row)

    return mutate


def _set_token(**fields: Any) -> Callable[[Any], None]:
    def mutate(s: Any) -> None:
        s.tokens = [
            TokenRow(**{"seat": t.seat, "digest": t.digest, "expires": t.expires, **fields})
            for t in s.tokens
        ]

    return mutate


def _set_message(f: Callable[[tuple[int, str]], Any]) -> Callable[[Any], None]:
    def mutate(s: Any) -> None:
        name = next(iter(s.messages))
        s.messages[name] = [f(r) for r in s.messages[name]]

    return mutate


def _memory(mutate: Callable[[Any], None]) -> Any:
    store = MemoryStore()
    sid = _play(store)
    mutate(store._data[sid])  # the stored copy itself: as a damaged database would hand it
    return Session.resume(store, sid, now=50.0)


@pytest.mark.parametrize(
    ("mutate", "match"),
    [
        (_set_action(0, None), ROWS),
        (_set_action(0, 0.0), ROWS),
        (_set_action(0, False), ROWS),
        (_set_action(0, 10**100), ROWS),
        (_set_action(1, None), ROWS),
        (_set_action(1, b"flip 0"), ROWS),
        (_set_action(2, None), ROWS),
        (_set_action(2, True), ROWS),
        (_set_action(2, 10**400), ROWS),
        (_set_action(2, float("nan")), ROWS),
        (_set_action(2, [2]), ROWS),
        (_set_action(2, "2_0"), ROWS),
        (lambda s: s.actions.__setitem__(0, None), ROWS),
        (lambda s: s.actions.__setitem__(0, s.actions[0][:2]), ROWS),
        (_set_action(0, "0"), ROWS),  # a text seat (hashed as 0): of the wrong kind
        (_set_action(2, "2.0"), ROWS),  # a text time (hashed as 2.0): of the wrong kind
        (_set_action(2, True), ROWS),
        (_set_token(seat="0"), "token rows"),
        (_set_token(digest=None), "token rows"),
        (_set_token(expires=b"5"), "token rows"),
        (_set_token(expires=10**400), "stored rows are damaged"),
        (lambda s: setattr(s, "tokens", None), "stored rows are damaged"),
        (lambda s: setattr(s, "actions", None), "stored rows are damaged"),
        (lambda s: setattr(s, "messages", None), "stored rows are damaged"),
        (_set_message(lambda r: (r[0],)), "stored rows are damaged"),
    ],
)
def test_memory_store_rows_damaged_are_a_corrupt_session_error_naming_the_rows(
    mutate: Callable[[Any], None], match: str
) -> None:
    with pytest.raises(CorruptSessionError, match=match) as info:
        _memory(mutate)
    assert "meta" not in str(info.value)


@pytest.mark.parametrize(
    "mutate",
    [
        _set_message(lambda r: (str(r[0]), r[1])),  # numbered as text
        _set_message(lambda r: (None, r[1])),
        _set_message(lambda r: (r[0], None)),  # NULL bodies
        _set_message(lambda r: (r[0], r[1].encode())),
        _set_message(lambda r: (r[0], 5)),
        _set_message(lambda r: (True, r[1])),
        _set_action(2, 2),  # a whole number of seconds: the same time
    ],
)
def test_memory_store_kept_messages_damaged_cost_only_a_fresh_view(
    mutate: Callable[[Any], None],
) -> None:
    resumed = _memory(mutate)
    assert resumed.game is not None and resumed.game.version == 1


def _played_far(store: Any) -> Session:
    s = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=store)
    for seat in (0, 1):
        s.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0)
    for i in range(8):
        game = s.game
        assert game is not None
        seat = game.to_act[0]
        action = sorted(str(a) for a in game.legal_actions(seat))[0]
        message = {"type": "act", "action": action, "seen": game.version}
        s.handle(f"c{seat}", json.dumps(message), now=2.0 + i)
    return s


def test_a_good_sqlite_session_resumes_unchanged_and_leaves_the_file_byte_identical(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    store = SQLiteStore(path)
    s = _played_far(store)
    position = s.game.position() if s.game is not None else None
    store.close()

    def dump() -> str:
        db = sqlite3.connect(path)
        try:
            return "\n".join(db.iterdump())
        finally:
            db.close()

    before = dump()
    again = SQLiteStore(path)
    try:
        resumed = Session.resume(again, s.id, now=50.0)
        assert resumed.game is not None and resumed.game.version == 8
        assert resumed.game.position() == position
    finally:
        again.close()
    assert dump() == before


def test_a_good_memory_session_resumes_unchanged_and_its_stored_rows_stay_equal() -> None:
    store = MemoryStore()
    s = _played_far(store)
    position = s.game.position() if s.game is not None else None
    before = copy.deepcopy(store._data[s.id])
    resumed = Session.resume(store, s.id, now=50.0)
    assert resumed.game is not None and resumed.game.position() == position
    assert store._data[s.id] == before


# -- the docs ------------------------------------------------------------------------------------


def test_doc_an_empty_piece_after_a_parameter_or_a_colon_is_skipped() -> None:
    """docs/search-agents.rst and parse_agent_spec's docstring: ``random:`` is ``random``;
    ``ismcts:iterations=50,`` takes one parameter."""
    from cardcore._agentspec import parse_agent_spec, split_agent_specs

    assert parse_agent_spec("random:") == ("random", {})
    assert parse_agent_spec("ismcts:iterations=50,") == ("ismcts", {"iterations": 50})
    assert split_agent_specs("ismcts:iterations=50,") == ["ismcts:iterations=50"]


def test_doc_an_empty_agent_name_on_the_command_line_is_refused() -> None:
    """docs/search-agents.rst (as corrected after this review said it claimed a trailing comma
    after an agent name was skipped): an empty agent name is refused, naming it."""
    from cardcore._agentspec import split_agent_specs
    from cardcore.errors import OptionError

    for text in ("golf-greedy,random,", "golf-greedy,,random"):
        with pytest.raises(OptionError, match="empty agent name"):
            split_agent_specs(text)


def test_doc_the_line_up_rotation_puts_agent_s_plus_g_in_seat_s() -> None:
    """docs/house-rule-study.rst: game g puts agent (s + g) % players in seat s; 5 games of two
    seats put the first agent in seat 0 three times."""
    from cardcore.compare._run import lineup_for

    agents = ("golf-greedy", "random")

    class Config:
        pass

    config = Config()
    config.agents = agents  # type: ignore[attr-defined]
    seat0 = []
    for g in range(5):
        specs, turn, strong = lineup_for((None, 2, config, None, False, None, g, None, None))  # type: ignore[arg-type]
        assert specs == [agents[(s + g) % 2] for s in range(2)] and (turn, strong) == (g % 2, -1)
        seat0.append(specs[0])
    assert seat0.count("golf-greedy") == 3
