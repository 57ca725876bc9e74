"""Review of the 2026-12-07 third session's fixes (``git log a3e8c102..2321cbeb``).

The fixes: ``cardcore replay`` says a finished game's result once; rule IDs in any case,
pre-releases ordered (``_versions.version_key``), bounds only on number options, defaults
in one spelling, option ints a record holds; the session's game-clock retry, failing views
at the deal and a takeback, the real-time game-over answers and a hub's first message; the
RL infos without skipped deals' seeds and encodings' bad answers as PluginErrors.

Each bug found is a strict xfail asserting the correct behaviour; each claim that held is a
plain test. Every plugin registered here is unregistered in a ``finally``.
"""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import Option, OptionError, PluginError, RuleConflictError, RuleInfo, hookimpl
from cardcore.session import Hub, Limits, MemoryStore, Mirror, Session, SessionConfig, TimeControl
from cardcore.session.clocks import CLOCK_RETRY
from cardcore.testing import configurations
from tests.session import test_session_read_review_2026_12_07b as review

RULES = "cardcore.rules"


@hookimpl
def _no_veto(action: Any) -> None:
    return None


@contextmanager
def registered(rule: RuleInfo) -> Iterator[None]:
    module = types.ModuleType("rv10_" + rule.name.replace(".", "_").replace("-", "_"))
    module.RULE = rule
    module.forbid_action = _no_veto
    cardcore.register(RULES, rule.name, module)
    try:
        yield
    finally:
        cardcore.unregister(RULES, rule.name)


@pytest.fixture
def quiet() -> Iterator[None]:
    logger = logging.getLogger("cardcore.session")
    level, propagate = logger.level, logger.propagate
    logger.setLevel(logging.CRITICAL + 1)
    logger.propagate = False
    try:
        yield
    finally:
        logger.setLevel(level)
        logger.propagate = propagate


@pytest.fixture
def view_fails(quiet: None) -> Iterator[str]:
    """A Goofspiel whose table fails for seat 1 while ``review._VIEW["on"]``."""
    name = review.VIEW_FAILS
    cardcore.register("cardcore.games", name, review._goof_variant(name, review._SeatOneViewFails))
    review._VIEW["on"] = False
    try:
        yield name
    finally:
        review._VIEW["on"] = False
        cardcore.unregister("cardcore.games", name)


@pytest.fixture
def end_fails(quiet: None) -> Iterator[str]:
    name = review.END_FAILS
    cardcore.register("cardcore.games", name, review._goof_variant(name, review._EndFails))
    review._END.update(on=False, calls=0)
    try:
        yield name
    finally:
        review._END["on"] = False
        cardcore.unregister("cardcore.games", name)


def _join(s: Session, conn: str, seat: int, now: float) -> list[Any]:
    return s.handle(conn, json.dumps({"type": "join", "seat": seat}), now)


def _option_rule(option: Option) -> RuleInfo:
    return RuleInfo(
        id="GOLF-REVIEW-10", name="golf.review10-opt", game="golf", summary="x", options=(option,)
    )


# -- the browser client (play.js) run in node with a stub DOM: each message handled, then drawn
_HARNESS = r"""
const fs = require("fs");
const root = process.argv[2];
function fake() {
  const e = {
    textContent: "", className: "", dataset: {}, style: {}, children: [], value: "",
    classList: { add() {}, remove() {}, toggle() {}, contains() { return false; } },
    append(...k) { this.children.push(...k); }, appendChild(k) { this.children.push(k); return k; },
    replaceWith() {}, setAttribute() {}, getAttribute() { return null; }, removeAttribute() {},
    addEventListener() {}, focus() {}, contains() { return false; }, remove() {},
    querySelector() { return null; }, querySelectorAll() { return []; },
  };
  return e;
}
const ids = {};
globalThis.window = globalThis;
globalThis.document = {
  getElementById: (id) => (ids[id] = ids[id] || fake()), createElement: () => fake(),
  createTextNode: () => fake(), querySelector: () => null, querySelectorAll: () => [],
  body: fake(), title: "", addEventListener() {},
};
document.activeElement = document.body;
globalThis.location = { hash: "#seat=1&token=t", pathname: "/play/s1", protocol: "http:", host: "x" };
globalThis.history = { replaceState() {} };
globalThis.localStorage = { getItem: () => null, setItem() {} };
const sockets = [];
globalThis.WebSocket = class { constructor() { this.readyState = 1; sockets.push(this); } send() {} close() {} };
globalThis.setInterval = () => 0; globalThis.setTimeout = () => 0;
globalThis.fetch = () => new Promise(() => {});
for (const f of ["cards.js", "layouts.js", "play.js"]) eval(fs.readFileSync(root + "/" + f, "utf8"));
const ws = sockets[sockets.length - 1];
const msgs = JSON.parse(fs.readFileSync(0, "utf8"));
const out = [];
for (const m of msgs) {
  try { ws.onmessage({ data: JSON.stringify(m) }); out.push("ok"); } catch (e) { out.push(String(e)); }
}
process.stdout.write(JSON.stringify(out));
"""
STATIC = Path(__file__).resolve().parents[1] / "src/cardcore/web/static"


def _client(tmp_path: Path, messages: list[dict[str, Any]]) -> list[str]:
    """What the seat-1 page says handling each of *messages*: "ok" or the error it threw."""
    node = shutil.which("node")
    if node is None:  # pragma: no cover - node is installed here
        pytest.skip("node is needed to run the browser client")
    script = tmp_path / "harness.js"
    script.write_text(_HARNESS, encoding="utf-8")
    proc = subprocess.run(
        [node, str(script), str(STATIC)],
        input=json.dumps(messages),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return list(json.loads(proc.stdout))


def _bob_after_a_failed_deal_view(name: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Seat 1's messages up to its {} start view, and those of the next action."""
    s = Session.create(name, ["Ann", "Bob"], now=0.0, seed=7)
    _join(s, "a", 0, 1.0)
    review._VIEW["on"] = True
    first = [o.message for o in _join(s, "b", 1, 1.0) if o.conn == "b"]
    review._VIEW["on"] = False
    later = [o.message for o in review._act(s, "a", "bid 0", 2.0) if o.conn == "b"]
    assert {} in [m.get("view") for m in first]
    return first, later


# --------------------------------------------------------------------------------------------
# Findings (strict xfails)
# --------------------------------------------------------------------------------------------


def test_the_kit_configures_a_rule_that_requires_another_by_its_id_in_lower_case() -> None:
    rule = RuleInfo(
        id="GOLF-REVIEW-11", name="golf.review10-needs", game="golf", summary="x",
        requires=("golf-score-2",),
    )  # fmt: skip
    with registered(rule):
        cardcore.new_game("golf", 2, rules=["golf.review10-needs", "golf.hard"], seed=1)  # the core
        chosen = [c.rules for c in configurations("golf", rules=["golf.review10-needs"])]
        assert ("golf.hard", "golf.review10-needs") in chosen


def test_the_kit_never_yields_a_pair_that_conflicts_by_an_id_in_lower_case() -> None:
    rule = RuleInfo(
        id="GOLF-REVIEW-12", name="golf.review10-clash", game="golf", summary="x",
        conflicts=("golf-score-2",),
    )  # fmt: skip
    with registered(rule):
        with pytest.raises(RuleConflictError):
            cardcore.new_game("golf", 2, rules=["golf.review10-clash", "golf.hard"], seed=1)
        pairs = configurations("golf", pairs=True, rules=["golf.review10-clash", "golf.hard"])
        assert ("golf.hard", "golf.review10-clash") not in [c.rules for c in pairs]


def test_a_dev_release_of_a_post_release_orders_after_its_release() -> None:
    assert cardcore.earlier_rules("tonk", "0.4.0.post1.dev0") == cardcore.earlier_rules(
        "tonk", "0.4.0"
    )


def test_a_bounded_object_option_refuses_an_int_no_record_holds() -> None:
    with (
        registered(_option_rule(Option("review10_x", 1, kind=object, minimum=0, choices=("all",)))),
        pytest.raises(OptionError),
    ):
        cardcore.new_game(
            "golf", 2, rules=["golf.review10-opt"], seed=1, options={"review10_x": 2**200}
        )


def test_an_object_option_value_new_game_takes_replays_from_its_record() -> None:
    with registered(_option_rule(Option("review10_x", 1, kind=object))):
        try:
            game = cardcore.new_game(
                "golf", 2, rules=["golf.review10-opt"], seed=1, options={"review10_x": (1, 2)}
            )
        except OptionError:
            return  # refused up front: as good
        assert cardcore.replay(json.dumps(game.record())).options == game.options


def test_a_seat_whose_view_failed_at_the_deal_gets_its_view_on_resync(view_fails: str) -> None:
    s = Session.create(view_fails, ["Ann", "Bob"], now=0.0, seed=7)
    _join(s, "a", 0, 1.0)
    review._VIEW["on"] = True
    _join(s, "b", 1, 1.0)
    review._VIEW["on"] = False
    game = s.game
    assert game is not None and game.version == 0 and 1 in game.to_act  # seat 1 may act
    bob = Mirror()
    for o in s.handle("b", '{"type":"resync","last":0}', 2.0):
        bob.feed(o.message)
    assert bob.view == game.view(1)


def test_a_stored_session_with_one_failing_view_resumes_for_the_others(view_fails: str) -> None:
    store = MemoryStore()
    s = Session.create(view_fails, ["Ann", "Bob"], now=0.0, seed=7, store=store, session_id="v")
    _join(s, "a", 0, 1.0)
    review._VIEW["on"] = True  # failing from the deal on, and still at the restart
    _join(s, "b", 1, 1.0)
    assert s.phase == "playing"
    resumed = Session.resume(store, "v", 2.0)
    game = resumed.game
    assert game is not None and resumed.views[0] == game.view(0)


def test_the_browser_client_takes_the_empty_view_of_a_failed_deal(
    view_fails: str, tmp_path: Path
) -> None:
    first, _ = _bob_after_a_failed_deal_view(view_fails)
    clocks = {"type": "clocks", "clocks": {"turn": {}, "total": None}}
    assert _client(tmp_path, [*first, clocks]) == ["ok"] * (len(first) + 1)


# --------------------------------------------------------------------------------------------
# Claims that held
# --------------------------------------------------------------------------------------------


def _replay_cli(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    from cardcore.cli import main

    assert main(["replay", str(path)]) == 0
    return capsys.readouterr().out


def test_replay_of_a_finished_or_cut_game_says_its_result_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ended = cardcore.new_game("golf", 2, seed=5, options={"rounds": 1})
    ended.apply(cardcore.EndMatch())
    cut = cardcore.new_game("golf", 2, seed=5, options={"rounds": 1})
    cut.truncate()  # before any action
    for name, game, said in (
        ("e", ended, "game over (ended)"),
        ("t", cut, "game over (truncated)"),
    ):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(game.record()), encoding="utf-8")
        out = _replay_cli(path, capsys)
        lines = out.rstrip().splitlines()
        assert out.count("game over") == 1 and said in out
        assert lines[-1].endswith("╯")  # inside the last table, nothing under it


def test_requires_and_conflicts_by_an_id_in_lower_case_hold_in_the_core() -> None:
    needs = RuleInfo(
        id="GOLF-REVIEW-13", name="golf.review10-req", game="golf", summary="x",
        requires=("golf-score-2",),
    )  # fmt: skip
    with registered(needs):
        game = cardcore.new_game("golf", 2, rules=["golf.review10-req", "golf.hard"], seed=1)
        assert {r["name"] for r in game.record()["rules"]} >= {"golf.hard", "golf.review10-req"}
        with pytest.raises(RuleConflictError, match="not chosen"):
            cardcore.new_game("golf", 2, rules=["golf.review10-req"], seed=1)


def test_pre_releases_order_just_before_their_release() -> None:
    from cardcore._versions import version_key

    assert version_key("0.4.0") < version_key("0.5a1") < version_key("0.5.0")
    assert version_key("0.5rc1") < version_key("0.5") == version_key("0.5+local.1")
    assert version_key("0.5.0.dev1") < version_key("0.5.0") == version_key("0.5.0.post1")
    assert cardcore.earlier_rules("tonk", "0.5rc1") == ("tonk.deal-shows-every-hand",)
    assert cardcore.earlier_rules("tonk", "0.5.0") == ()


@pytest.mark.parametrize("kind", [str, bool])
def test_bounds_on_an_option_that_is_no_number_are_a_plugin_error(kind: type) -> None:
    with pytest.raises(PluginError, match="no minimum or maximum"):
        Option("review10_y", None, kind=kind, maximum=3)
    Option("review10_y", None, kind=float, maximum=3)  # a number takes them


def test_a_float_options_int_default_is_one_spelling_in_options_and_record() -> None:
    with registered(_option_rule(Option("review10_x", 10, kind=float, minimum=0))):
        plain = cardcore.new_game("golf", 2, rules=["golf.review10-opt"], seed=1)
        given = cardcore.new_game(
            "golf", 2, rules=["golf.review10-opt"], seed=1, options={"review10_x": 10.0}
        )
        assert plain.options["review10_x"] == 10.0
        assert type(plain.options["review10_x"]) is float
        assert plain.record()["options"] == given.record()["options"]
        assert cardcore.replay(json.dumps(plain.record())).options == plain.options


def test_int_options_hold_at_most_128_bits_and_those_replay() -> None:
    with registered(_option_rule(Option("review10_x", 1, kind=int))):
        for value in (2**128, -(2**128)):
            with pytest.raises(OptionError, match="128 bits"):
                cardcore.new_game(
                    "golf", 2, rules=["golf.review10-opt"], seed=1, options={"review10_x": value}
                )
        for value in (2**128 - 1, -(2**128) + 1):
            game = cardcore.new_game(
                "golf", 2, rules=["golf.review10-opt"], seed=1, options={"review10_x": value}
            )
            assert cardcore.replay(json.dumps(game.record())).options["review10_x"] == value


def test_a_refused_game_clock_end_is_tried_again_clock_retry_later(end_fails: str) -> None:
    config = SessionConfig(time=TimeControl(total=10.0))
    s, _ = review._seated(end_fails, seed=7, config=config)
    review._END["on"] = True
    out = s.tick(20.0)
    assert s.phase == "playing"
    told = [o for o in out if o.message["type"] == "clocks"]
    assert {o.conn for o in told} == {"a", "b"}
    assert all(o.message["clocks"]["total"] == 20.0 + CLOCK_RETRY for o in told)
    assert s.next_deadline() == 20.0 + CLOCK_RETRY
    review._END["on"] = False
    s.tick(20.0 + CLOCK_RETRY)
    game = s.game
    assert game is not None and game.is_over and s.phase == "over"


def test_the_seat_whose_view_failed_at_the_deal_recovers_with_the_next_update(
    view_fails: str,
) -> None:
    s = Session.create(view_fails, ["Ann", "Bob"], now=0.0, seed=7)
    _join(s, "a", 0, 1.0)
    review._VIEW["on"] = True
    out = _join(s, "b", 1, 1.0)
    review._VIEW["on"] = False
    bob = Mirror()
    for o in out:
        if o.conn == "b":
            bob.feed(o.message)
    assert bob.view == {}  # the empty view the changelog promises
    for o in review._act(s, "a", "bid 0", 2.0):
        if o.conn == "b":
            bob.feed(o.message)
    game = s.game
    assert game is not None and (bob.version, bob.view) == (game.version, game.view(1))


def test_a_stored_session_whose_view_failed_resumes_once_the_view_works(view_fails: str) -> None:
    store = MemoryStore()
    s = Session.create(view_fails, ["Ann", "Bob"], now=0.0, seed=7, store=store, session_id="w")
    _join(s, "a", 0, 1.0)
    review._VIEW["on"] = True
    _join(s, "b", 1, 1.0)
    review._VIEW["on"] = False
    resumed = Session.resume(store, "w", 2.0)
    game = resumed.game
    assert game is not None and resumed.views == [game.view(0), game.view(1)]


def test_an_ended_real_time_game_answers_in_the_documented_order() -> None:
    s, _ = review._seated("spit", seed=7)
    s.end(2.0)
    game = s.game
    assert game is not None and game.is_over
    v = game.version
    for text, seen, code in (
        ("ready", v + 5, "bad-message"),
        ("zzz", v, "notation"),
        ("zzz", v - 1, "notation"),
        ("ready", v - 1, "stale"),
        ("ready", v, "game-over"),
    ):
        codes = [e["code"] for e in review._errors(review._act(s, "a", text, 3.0, seen=seen))]
        assert codes == [code], (text, seen)


def test_a_hubs_first_message_is_read_against_the_sessions_smaller_limit() -> None:
    hub = Hub()
    session = hub.create(
        "golf", ["A", "B"], now=0.0, config=SessionConfig(limits=Limits(max_message=200))
    )
    join = json.dumps({"type": "join", "session": session.id, "seat": 0})
    padded = join[:-1] + " " * 300 + "}"  # the same message, longer than the session takes
    assert [o.message.get("code") for o in hub.handle("c", padded, 1.0)] == ["too-large"]
    assert "welcome" in [o.message["type"] for o in hub.handle("c", join, 1.0)]


def test_the_browser_client_draws_the_seat_again_with_the_next_update(
    view_fails: str, tmp_path: Path
) -> None:
    first, later = _bob_after_a_failed_deal_view(view_fails)
    said = _client(tmp_path, [*first, *later])
    assert [m["type"] for m in later] == ["view"]  # (a resync view: the stream's was {})
    assert said[: len(first) - 1] == ["ok"] * (len(first) - 1)  # welcome, lobby, presence
    assert said[-1] == "ok"  # the whole view is drawn
