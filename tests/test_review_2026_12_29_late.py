"""Review of 4b3bafc and 02d0b6f (``git show 4b3bafc 02d0b6f -- src docs``).

* the web server's check of each chosen rule's ``check_applies`` before its limits;
* stored sessions: action rows of the wrong kinds are damaged rows (``_integrity.check``),
  and real sessions of every game resuming through both stores;
* the Tonk page's discard pile on another seat's turn (``layouts.js``, run under node with a
  stand-in DOM: no browser);
* ``plain_options`` / ``UnknownOptionError`` / ``GameInfo.option``;
* ``BatchEnv.reset``: ``np_random`` seeding over the whole seed range, a game failing at
  reset named (class, attributes, cause), the batch's state after it;
* the changelog's and ``docs/rl.rst``'s new sentences.

Strict xfails mark what was found wrong; every other test pins a claim that held. Games are
dealt from fixed seeds; nothing depends on timing.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import shutil
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore.errors import CardcoreError, IllegalActionError, OptionError, PluginError
from cardcore.session import MemoryStore, Session, SessionConfig, SQLiteStore, TimeControl

ROOT = Path(__file__).resolve().parents[1]
PEOPLE = [{"name": "A"}, {"name": "B"}]

# -- the web server: the rules' check_applies before the limits ----------------------------------


def _full_server() -> Any:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from cardcore.web.app import ServerLimits
    from tests.web.helpers import serve

    return serve(server_limits=ServerLimits(max_sessions=1, idle_close=0))


def _post(client: Any, body: dict[str, Any]) -> Any:
    return client.post("/api/sessions", content=json.dumps(body))


def test_a_full_server_refuses_a_rule_that_does_not_apply_to_the_default_options_with_400() -> None:
    """The check runs on the *resolved* options: a rule that needs layout 4, with no layout
    asked for (Golf's default is 6), is 400 on a full server, with new_game's message."""
    with pytest.raises(OptionError) as info:
        cardcore.new_game("golf", 2, rules=["golf.peek-nearest"])
    with _full_server() as (client, server, _):
        assert _post(client, {"game": "golf", "seats": PEOPLE}).status_code == 201
        r = _post(client, {"game": "golf", "seats": PEOPLE, "rules": ["golf.peek-nearest"]})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == str(info.value)
        assert len(server.hub.sessions) == 1


@pytest.mark.parametrize(("game", "seats"), [("spit", 3), ("golf", 1)])
def test_a_full_server_refuses_a_seat_count_outside_the_games_range_with_400(
    game: str, seats: int
) -> None:
    with _full_server() as (client, server, _):
        assert _post(client, {"game": "golf", "seats": PEOPLE}).status_code == 201
        body = {"game": game, "seats": [{"name": f"P{k}"} for k in range(seats)]}
        r = _post(client, body)
        assert r.status_code == 400, r.text
        assert "CORE-SEAT-2" in r.json()["error"]
        assert len(server.hub.sessions) == 1


def test_a_free_server_refuses_a_seat_count_outside_the_games_range_with_400() -> None:
    """What the full server should answer too (building the game refuses it)."""
    pytest.importorskip("starlette")
    from tests.web.helpers import serve

    with serve() as (client, server, _):
        r = _post(client, {"game": "spit", "seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}]})
        assert r.status_code == 400 and "CORE-SEAT-2" in r.json()["error"], r.text
        assert server.hub.sessions == {}


# -- stored sessions: action rows of the wrong kinds -------------------------------------------


def _golf_session(store: Any, now: Any) -> Session:
    """A Golf session (seed 5): both seats joined, Ann flips card 0 at *now*."""
    s = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=store)
    for seat in (0, 1):
        s.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0)
    s.handle("c0", json.dumps({"type": "act", "action": "flip 0", "seen": 0}), now=now)
    assert s.game is not None and s.game.version == 1
    return s


def test_a_session_timed_with_a_numpy_float_resumes_from_a_memory_store() -> None:
    store = MemoryStore()
    s = _golf_session(store, np.float64(2.0))
    resumed = Session.resume(store, s.id, now=50.0)
    assert resumed.game is not None and resumed.game.record() == s.game.record()  # type: ignore[union-attr]


def test_a_session_timed_with_a_numpy_float_resumes_from_sqlite(tmp_path: Path) -> None:
    """SQLite reads the time back as a plain float: the same session resumes there."""
    store = SQLiteStore(tmp_path / "s.db")
    s = _golf_session(store, np.float64(2.0))
    store.close()
    again = SQLiteStore(tmp_path / "s.db")
    try:
        resumed = Session.resume(again, s.id, now=50.0)
        assert resumed.game is not None and resumed.game.version == 1
    finally:
        again.close()


@pytest.mark.parametrize("now", [2, 2.0, 2.5, True])
def test_a_session_timed_with_plain_numbers_resumes_from_a_memory_store(now: Any) -> None:
    """An int time (and a bool, which the session reads as the last time) is stored as a kind
    the check takes."""
    store = MemoryStore()
    s = _golf_session(store, now)
    assert Session.resume(store, s.id, now=50.0).game is not None


def _stores(tmp_path: Path) -> Iterator[tuple[str, Any, Any]]:
    """(name, store to play on, function giving a store to resume from)."""
    memory = MemoryStore()
    yield "memory", memory, lambda: memory
    path = tmp_path / "s.db"
    yield "sqlite", SQLiteStore(path), lambda: SQLiteStore(path)


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
def test_real_sessions_of_every_game_resume_from_both_stores(name: str, tmp_path: Path) -> None:
    """Times of many kinds (whole seconds, fractions) through a clocked session: the new
    kind check refuses none of the rows either store hands back."""
    from tests.session.kit import Table

    for _, store, reopen in _stores(tmp_path):
        config = SessionConfig(time=TimeControl(turn=30.0))
        session = Session.create(name, ["A", "B"], now=0.0, seed=21, config=config, store=store)
        t = Table(session)
        t.join("a", 0)
        t.join("b", 1)
        rng = random.Random(2)
        game = session.game
        assert game is not None
        for k in range(12):
            if game.is_over:
                break
            seat = rng.choice(game.to_act)
            legal = [str(a) for a in game.legal_actions(seat) if str(a) not in ("knock", "drop")]
            if legal:
                t.act("ab"[seat], rng.choice(legal), 1.0 if k % 2 else 0.25, seen=game.version)
        assert game.version > 0
        resumed = Session.resume(reopen(), session.id, t.now)
        assert resumed.game is not None and resumed.game.record() == game.record()


# -- the Tonk page's discard pile (layouts.js under node, a stand-in DOM) -----------------------

_HARNESS = r"""
const fs = require("fs"), vm = require("vm");
const arg = JSON.parse(process.argv[1]);
function el(tag, attrs, ...kids) {
  const e = { tag, attrs: attrs || {}, kids: [], classes: [], listeners: [], dataset: {},
    classList: { add: (c) => e.classes.push(c) },
    append: (...k) => { e.kids.push(...k); return e; },
    addEventListener: (type, f) => e.listeners.push(f),
    setAttribute: () => {} };
  for (const k of kids) if (k) e.kids.push(k);
  return e;
}
const Cards = { card: () => el("div"), empty: () => el("div") };
const ctx = { window: {}, Cards };
vm.runInNewContext(fs.readFileSync(arg.file, "utf8"), ctx);
const said = [];
const legal = () => arg.view.legal;
const S = { picked: arg.picked, players: ["Ann", "Bob"], seat: 0 };
const ui = { S, el, legal, has: (x) => legal().includes(x), act: (x) => said.push("ACT " + x),
  clickTo: (e, x) => { e.classes.push("target"); e.listeners.push(() => said.push("ACT " + x)); return e; },
  say: (m) => said.push(m), render: () => {} };
const box = ctx.window.Layouts(ui).tonk(arg.view, arg.view.table);
const find = (e) => e.attrs && e.attrs["data-pile"] === "discard" ? e : e.kids.map(find).find(Boolean);
const discard = find(box);
for (const f of discard.listeners) f();
console.log(JSON.stringify({ said, classes: discard.classes }));
"""


def _tonk_discard_click(legal: list[str], *, over: bool, to_act: list[int]) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node")
    table = {
        "hand": ["10H", "3C", "4D"],
        "stock": 20,
        "discard_top": "5S",
        "discard_count": 1,
        "spreads": [],
        "hand_sizes": [3, 5],
        "balances": [0, 0],
        "total": 17,
        "hand_number": 1,
        "hands": 1,
        "phase": "over" if over else "play",
        "taken": None,
    }
    view = {
        "legal": legal,
        "is_over": over,
        "to_act": to_act,
        "seat": 0,
        "zones": [],
        "table": table,
    }
    arg = {
        "file": str(ROOT / "src/cardcore/web/static/layouts.js"),
        "view": view,
        "picked": ["10H"],
    }
    out = subprocess.run(
        [node, "-e", _HARNESS, json.dumps(arg)],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(out.stdout)


def test_tonk_discard_clicked_with_a_pick_on_another_seats_turn_says_it_is_not_your_turn() -> None:
    out = _tonk_discard_click([], over=False, to_act=[1])
    assert out["said"] == ["It is not your turn: a card is discarded at the end of your turn."]


def test_tonk_discard_clicked_with_a_pick_on_your_turn_before_the_draw_says_draw_first() -> None:
    """The older messages are unchanged by the new first branch."""
    out = _tonk_discard_click(["draw", "take"], over=False, to_act=[0])
    assert out["said"][0].startswith("Draw or take first")
    out = _tonk_discard_click(["draw"], over=False, to_act=[0])
    assert out["said"] == ["Draw first: a card is discarded at the end of a turn."]


def test_tonk_discard_clicked_with_a_pick_after_the_game_is_over_says_no_turn_is_coming() -> None:
    out = _tonk_discard_click([], over=True, to_act=[])
    assert not any("not your turn" in m for m in out["said"])
    assert "drop" not in out["classes"]


# -- options: plain_options, UnknownOptionError ------------------------------------------------


def _unknown() -> OptionError:
    with pytest.raises(OptionError) as info:
        cardcore.game_info("golf").option("nope")
    return info.value


def test_unknown_option_error_survives_copy_deepcopy_and_pickle_with_its_text() -> None:
    err = _unknown()
    text = str(err)
    assert text.startswith("game 'golf' has no option 'nope'")
    assert isinstance(err, KeyError) and isinstance(err, CardcoreError)
    assert err.rule_id is None
    for twin in (copy.copy(err), copy.deepcopy(err), pickle.loads(pickle.dumps(err))):
        assert type(twin) is type(err)
        assert str(twin) == text and twin.args == err.args
    assert repr(err) == f"UnknownOptionError({text!r})"


def test_a_rule_applying_to_an_undeclared_option_is_still_a_plugin_error_naming_it() -> None:
    """_declared.check_rule_set's ``except KeyError`` around game.option still catches it."""
    import attrs

    from cardcore._declared import check_rule_set
    from cardcore.plugins import get_ruleset

    info = get_ruleset("golf", ["golf.peek-nearest"], []).rules[0]
    bad = attrs.evolve(info, applies={"nope": (1,)})
    with pytest.raises(PluginError, match="applies to option 'nope', which 'golf' does not") as e:
        check_rule_set(cardcore.game_info("golf"), [bad], list)
    assert e.value.plugin == "golf.peek-nearest"


class _Custom(Mapping[str, Any]):
    """A mapping read through keys and __getitem__ (its items() is never what dict() reads)."""

    def __init__(self) -> None:
        self.data = {"rounds": 1}

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def items(self) -> Any:  # never used by dict(): a custom items() changes nothing
        raise RuntimeError("items() read")


class _LenFails(_Custom):
    def __len__(self) -> int:
        raise RuntimeError("no length")


def test_plain_options_reads_a_mapping_subclass_as_dict_does() -> None:
    from cardcore._options import plain_options
    from cardcore.rl.match import Config

    assert plain_options(_Custom()) == {"rounds": 1}
    assert Config("golf", 2, options=_Custom()).options == {"rounds": 1}
    with pytest.raises(OptionError, match=r"reading it failed: .*no length"):
        plain_options(_LenFails())
    assert plain_options(None) == {} and plain_options({}) == {}
    with pytest.raises(OptionError, match="must be a mapping"):
        plain_options([("rounds", 1)])


# -- BatchEnv.reset: np_random and a game failing at reset --------------------------------------


def _envs(n: int, opponent: Any = "random") -> Any:
    from cardcore.rl import vector_env

    return vector_env("golf", n, seat=1, opponents=opponent, options={"rounds": 1})


@pytest.mark.parametrize("seed", [0, 2**63, 2**128 - 1])
def test_a_batched_reset_seeds_np_random_over_the_whole_seed_range(seed: int) -> None:
    draws = []
    for _ in range(2):
        envs = _envs(1)
        envs.reset(seed=seed)
        draws.append(envs.np_random.integers(1 << 30, size=4).tolist())
    assert draws[0] == draws[1]


def test_a_batched_reset_with_a_list_of_seeds_leaves_np_random_as_it_was() -> None:
    envs = _envs(2)
    envs.reset(seed=3)
    state = copy.deepcopy(envs.np_random.bit_generator.state)
    envs.reset(seed=[4, 5])
    envs.reset(seed=None)
    assert envs.np_random.bit_generator.state == state


class _FailsAfter:
    """Plays its first legal action *ok* times, then raises."""

    def __init__(self, ok: int) -> None:
        self.calls = 0
        self.ok = ok

    def choose(self, view: Any, legal: Any) -> Any:
        self.calls += 1
        if self.calls > self.ok:
            raise RuntimeError("the opponent broke")
        return legal[0]


def _failing_batch() -> tuple[Any, _FailsAfter, CardcoreError]:
    """Three games; the opponent fails in game 1 while the batch is dealt (seeds 1, 2, 3)."""
    counter = _FailsAfter(10**9)
    _envs(1, counter).reset(seed=[1])
    ok = counter.calls  # game 0's opponent decisions before seat 1 is asked
    assert ok > 0
    opponent = _FailsAfter(ok)
    envs = _envs(3, opponent)
    with pytest.raises(CardcoreError) as info:
        envs.reset(seed=[1, 2, 3])
    return envs, opponent, info.value


def test_a_failed_batched_reset_names_game_1_and_the_batch_can_be_reset_again() -> None:
    envs, opponent, err = _failing_batch()
    assert str(err).startswith("game 1 of 3 at reset: the opponent in seat 0 (")
    assert "raised RuntimeError: the opponent broke" in str(err)
    assert str(err).endswith("[the reset stopped at game 1]")
    # game 0 was dealt, game 1 cannot go on: a step with game 0's legal action names game 1
    first = int(np.flatnonzero(envs._mask[0])[0])
    with pytest.raises(IllegalActionError, match=r"^game 1 of 3: the opponent in seat 0 failed"):
        envs.step([first, 0, 0])
    opponent.ok = 10**9
    obs, _ = envs.reset(seed=[1, 2, 3])
    assert obs["action_mask"].sum(axis=1).min() > 0


def test_a_failed_batched_reset_keeps_the_opponents_exception_as_its_cause() -> None:
    _, _, err = _failing_batch()
    causes = []
    cause = err.__cause__
    while cause is not None:
        causes.append(cause)
        cause = cause.__cause__
    assert any(isinstance(c, RuntimeError) for c in causes)


def _raised(envs: Any, *args: Any) -> BaseException:
    try:
        envs._raise(*args)
    except BaseException as exc:  # (what _raise raises: the error renamed, or a copy of it)
        return exc
    raise AssertionError("_raise raised nothing")


def test_failed_keeps_the_error_class_and_its_attributes() -> None:
    """_raise names the error's game (since 2026-12-06 it raises what _failed returned): a
    PluginError keeps .plugin, an IllegalActionError its action and rule_id, with the reset's
    wording."""
    envs = _envs(2)
    out = _raised(
        envs, PluginError("hook broke", plugin="p.x"), 1, 0, " at reset", "call reset() again"
    )
    assert type(out) is PluginError and out.plugin == "p.x"
    assert str(out) == "game 1 of 2 at reset: hook broke [call reset() again]"
    bad = IllegalActionError("no (CORE-OVER-1)", action="draw", rule_id="CORE-OVER-1")
    out2 = _raised(envs, bad, 0, 0, " at reset", "call reset() again")
    assert type(out2) is IllegalActionError
    assert (out2.action, out2.rule_id) == ("draw", "CORE-OVER-1")
    again = IllegalActionError("no (CORE-OVER-1)", action="draw", rule_id="CORE-OVER-1")
    assert str(_raised(envs, again, 0, 0)).endswith("[no game moved]")  # step's wording unchanged


# -- docs ----------------------------------------------------------------------------------------


def test_doc_changelog_names_the_reset_message_as_raised() -> None:
    """docs/changelog.rst: 'a batched reset names the game whose opponent failed (game 1 of 2
    at reset)': the text is what a batch of two says."""
    text = (ROOT / "docs/changelog.rst").read_text()
    assert "``game 1 of 2 at reset``" in text
    counter = _FailsAfter(10**9)
    _envs(1, counter).reset(seed=[1])
    envs = _envs(2, _FailsAfter(counter.calls))
    with pytest.raises(CardcoreError, match=r"^game 1 of 2 at reset: "):
        envs.reset(seed=[1, 2])


def test_doc_rl_says_a_batch_names_the_game_in_step_and_in_reset() -> None:
    text = " ".join((ROOT / "docs/rl.rst").read_text().split())
    assert "(and the game of a batch, in ``step`` and in ``reset``)" in text
