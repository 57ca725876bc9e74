"""Claims of docs/session.rst, docs/web.rst, docs/hooks.rst and docs/testing-kit.rst,
checked against the real behaviour (review of 2026-12-11, fourth pass)."""

from __future__ import annotations

import json
import logging
import re
import types
from typing import Any

import pytest

import cardcore
from cardcore import RuleInfo, Veto, hookimpl
from cardcore.session import (
    MemoryStore,
    Session,
    SessionConfig,
    SQLiteStore,
    TimeControl,
)

CARD = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")


# -- helpers -----------------------------------------------------------------------------------


class Table:
    """A session on a virtual clock, keeping every text each connection was sent."""

    def __init__(self, session: Session, t: float = 0.0) -> None:
        self.s = session
        self.t = t
        self.sent: dict[str, list[str]] = {}

    def _keep(self, out: list[Any]) -> list[dict[str, Any]]:
        for o in out:
            self.sent.setdefault(o.conn, []).append(o.text)
        return [dict(o.message, _to=o.conn) for o in out]

    def send(self, conn: str, message: Any) -> list[dict[str, Any]]:
        self.t += 0.5
        raw = message if isinstance(message, str | bytes) else json.dumps(message)
        return self._keep(self.s.handle(conn, raw, now=self.t))

    def tick(self, t: float) -> list[dict[str, Any]]:
        self.t = t
        return self._keep(self.s.tick(t))

    def act(self, conn: str, action: str, seen: int | None = None) -> list[dict[str, Any]]:
        seen = self.s.game.version if seen is None else seen
        return self.send(conn, {"type": "act", "action": action, "seen": seen})


def golf_table(**config: Any) -> tuple[Table, str, str]:
    store = config.pop("store", None)
    session = Session.create(
        "golf",
        ["Ann", "Bob"],
        now=0.0,
        seed=7,
        config=SessionConfig(**config) if config else None,
        store=store,
    )
    t = Table(session)
    ann = t.send("ann", {"type": "join", "seat": 0})[0]["token"]
    bob = next(m for m in t.send("bob", {"type": "join", "seat": 1}) if m["type"] == "welcome")
    return t, ann, bob["token"]


def errors(replies: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(m["_to"], m["code"]) for m in replies if m["type"] == "error"]


def setup_flips(t: Table) -> None:
    for conn, text in [("ann", "flip 0"), ("ann", "flip 3"), ("bob", "flip 0"), ("bob", "flip 3")]:
        assert not errors(t.act(conn, text)), text


# -- session: protocol errors --------------------------------------------------------------------


def test_spectator_acting_is_not_a_seat_and_another_seat_is_not_your_seat() -> None:
    t, _, _ = golf_table()
    t.send("spec", {"type": "watch"})
    version = t.s.game.version
    assert errors(t.act("spec", "flip 0")) == [("spec", "not-a-seat")]
    reply = t.send("ann", {"type": "act", "action": "flip 0", "seen": 0, "seat": 1})
    assert errors(reply) == [("ann", "not-your-seat")]
    assert t.s.game.version == version


@pytest.mark.parametrize(
    "raw",
    [
        '{"type": "ping", "t": NaN}',
        '{"type": "ping", "t": Infinity}',
        '{"type": "ping", "type": "ping"}',
        '{"type": "ping", "t": 1e400}',
        '{"type": "ping", "extra": 1}',
        '{"type": "act", "action": "flip 0", "seen": true}',
        '{"type": "act", "action": "flip 0", "seen": 1.0}',
        '{"type": "act", "action": "flip 0", "seen": -1}',
        '{"type": "act", "action": "flip 0", "seen": ' + "9" * 5000 + "}",
        '{"type": "act", "action": ["flip 0"], "seen": 0}',
        '{"type": "act", "action": "flip 0\\ud800", "seen": 0}',
        '{"type": "join", "seat": 0}',
        '{"type": "PING"}',
        "[" * 3000 + "]" * 3000,
        "[]",
        '"ping"',
        "",
    ],
)
def test_hostile_messages_get_one_error_to_the_sender_and_change_nothing(raw: str) -> None:
    t, _, _ = golf_table()
    t.send("spec", {"type": "watch"})
    version, record = t.s.game.version, t.s.game.record()
    replies = t.send("ann", raw)
    assert [m["type"] for m in replies] == ["error"]
    assert replies[0]["_to"] == "ann"
    assert replies[0]["code"] in {"bad-json", "bad-message", "already-joined"}
    assert t.s.game.version == version and t.s.game.record() == record


def test_a_str_subclass_in_a_host_mapping_is_a_bad_message() -> None:
    class Sneaky(str):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = str.__hash__

    t, _, _ = golf_table()
    out = t.s.handle("ann", {"type": "act", "action": Sneaky("flip 0"), "seen": 0}, now=5.0)
    assert [(o.conn, o.message["type"], o.message.get("code")) for o in out] == [
        ("ann", "error", "bad-message")
    ]
    assert t.s.game.version == 0


def test_an_id_is_echoed_in_the_error_and_a_bad_id_is_refused() -> None:
    t, _, _ = golf_table()
    reply = t.send("ann", {"type": "act", "action": "nonsense", "seen": 0, "id": "x1"})
    assert reply[0]["type"] == "error" and reply[0]["code"] == "notation"
    assert reply[0]["id"] == "x1"
    assert errors(t.send("ann", {"type": "ping", "id": 2**53})) == [("ann", "bad-message")]
    assert errors(t.send("ann", {"type": "ping", "id": "x" * 65})) == [("ann", "bad-message")]
    assert t.send("ann", {"type": "ping", "id": -(2**53) + 1})[0]["id"] == -(2**53) + 1


def test_record_before_the_end_is_not_over_and_act_before_the_deal_is_not_started() -> None:
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    t = Table(session)
    t.send("ann", {"type": "join", "seat": 0})
    assert errors(t.act("ann", "flip 0", seen=0)) == [("ann", "not-started")]
    t.send("bob", {"type": "join", "seat": 1})
    assert errors(t.send("ann", {"type": "record"})) == [("ann", "not-over")]


def test_a_message_after_leave_is_not_joined() -> None:
    t, _, _ = golf_table()
    reply = t.send("ann", {"type": "leave"})
    assert ("ann", "ok") in [(m["_to"], m["type"]) for m in reply]
    assert errors(t.act("ann", "flip 0")) == [("ann", "not-joined")]


# -- session: what a seat or spectator is sent ----------------------------------------------------


def test_a_drawn_card_is_in_no_byte_sent_to_the_other_seat_or_a_spectator() -> None:
    t, _, _ = golf_table()
    t.send("spec", {"type": "watch"})
    setup_flips(t)
    for conn in t.sent:
        t.sent[conn].clear()
    t.act("ann", "draw")
    held = t.s.game.view(0)["table"]["held"]["card"]
    assert held
    assert any(held in text for text in t.sent["ann"])
    for conn in ("bob", "spec"):
        for text in t.sent[conn]:
            assert held not in CARD.findall(text), (conn, text)


def test_a_spectator_watching_or_leaving_alone_is_told_to_nobody() -> None:
    t, _, _ = golf_table()
    replies = t.send("spec", {"type": "watch"}) + t.send("spec", {"type": "leave"})
    assert {m["_to"] for m in replies} == {"spec"}


def test_spectators_see_the_game_two_actions_late_and_all_at_the_end() -> None:
    t, _, _ = golf_table()
    t.send("spec", {"type": "watch"})
    setup_flips(t)
    spec = [m for m in t.send("ann", {"type": "ping"}) if m["_to"] == "spec"]
    assert not spec
    versions = [json.loads(x).get("version") for x in t.sent["spec"]]
    assert max(v for v in versions if v is not None) == t.s.game.version - 2


def test_history_and_record_from_a_spectator_before_the_end() -> None:
    t, _, _ = golf_table()
    t.send("spec", {"type": "watch"})
    assert t.send("spec", {"type": "history"})[0]["type"] == "history"
    assert errors(t.send("spec", {"type": "record"})) == [("spec", "not-over")]


# -- session: real time and seen ------------------------------------------------------------------


def test_turn_based_own_quick_actions_are_fine_and_an_overtaken_seen_is_stale() -> None:
    t, _, _ = golf_table()
    assert not errors(t.act("ann", "flip 0", seen=0))
    assert not errors(t.act("ann", "flip 3", seen=0))  # its own quick actions: fine
    version = t.s.game.version
    reply = t.act("bob", "flip 0", seen=0)  # Ann's flips are changes Bob did not make
    assert errors(reply) == [("bob", "stale")]
    assert t.s.game.version == version
    assert not errors(t.act("bob", "flip 0", seen=version))


def test_seen_ahead_of_the_game_is_refused() -> None:
    t, _, _ = golf_table()
    assert errors(t.act("ann", "flip 0", seen=99)) == [("ann", "bad-message")]
    assert t.s.game.version == 0


# -- session: tokens -----------------------------------------------------------------------------


def test_a_token_opens_only_its_seat_and_issuing_a_new_one_shuts_out_the_old() -> None:
    t, ann, _bob = golf_table()
    assert errors(t.send("x1", {"type": "join", "seat": 1, "token": ann})) == [("x1", "bad-token")]
    fresh = t.s.issue_token(0, now=t.t, replace=True)
    assert errors(t.send("x2", {"type": "join", "seat": 0, "token": ann})) == [("x2", "bad-token")]
    assert t.send("x3", {"type": "join", "seat": 0, "token": fresh})[0]["type"] == "welcome"


def test_a_token_is_shown_once_only() -> None:
    t, ann, _ = golf_table()
    again = t.send("ann2", {"type": "join", "seat": 0, "token": ann})
    assert again[0]["type"] == "welcome" and "token" not in again[0]
    assert all(ann not in text for text in t.sent["bob"])
    assert all(ann not in text for text in t.sent["ann2"])


# -- session: reconnect and resync ----------------------------------------------------------------


def test_rejoining_with_last_gets_exactly_the_missed_texts() -> None:
    t, ann, _ = golf_table()
    t.send("ann_b", {"type": "join", "seat": 0, "token": ann})  # a second tab of seat 0
    t.act("ann", "flip 0")
    last = max(json.loads(x).get("n") or 0 for x in t.sent["ann"])
    t._keep(t.s.disconnect("ann", now=t.t))
    t.sent["ann_b"].clear()
    t.act("ann_b", "flip 3")
    t.act("bob", "flip 0")
    missed = [x for x in t.sent["ann_b"] if json.loads(x).get("n") is not None]
    assert len(missed) == 2
    t.send("ann_c", {"type": "join", "seat": 0, "token": ann, "last": last})
    again = [x for x in t.sent["ann_c"] if json.loads(x).get("n") is not None]
    assert again == missed  # the very same texts


def test_last_beyond_the_stream_gets_a_view_numbered_below_it() -> None:
    t, ann, _ = golf_table()
    t._keep(t.s.disconnect("ann", now=t.t))
    replies = t.send("ann2", {"type": "join", "seat": 0, "token": ann, "last": 1000})
    welcome = replies[0]
    views = [m for m in replies if m["type"] == "view"]
    assert welcome["type"] == "welcome" and welcome["last"] < 1000
    assert views and views[0]["n"] <= welcome["last"] + 1


def test_resync_with_a_huge_last_does_not_fail() -> None:
    t, _, _ = golf_table()
    replies = t.send("ann", {"type": "resync", "last": 2**53})
    assert replies and all(m["type"] != "error" or m["code"] == "bad-message" for m in replies)


# -- session: restart ---------------------------------------------------------------------------


def test_a_restart_from_sqlite_resumes_tokens_state_and_the_missed_messages(tmp_path: Any) -> None:
    store = SQLiteStore(str(tmp_path / "s.db"))
    t, ann, _ = golf_table(store=store)
    setup_flips(t)
    t.act("ann", "draw")
    last = max(json.loads(x).get("n") or 0 for x in t.sent["ann"])
    t.act("ann", "discard")
    view = t.s.game.view(0)
    sid = t.s.id
    store2 = SQLiteStore(str(tmp_path / "s.db"))
    again = Session.resume(store2, sid, now=100.0)
    assert again.game.view(0) == view
    t2 = Table(again, 100.0)
    replies = t2.send("ann", {"type": "join", "seat": 0, "token": ann, "last": last})
    assert replies[0]["type"] == "welcome"
    assert next(m["n"] for m in replies if m.get("n") is not None) == last + 1


def test_a_memory_store_restart_keeps_the_seat_claimed() -> None:
    store = MemoryStore()
    t, _, _ = golf_table(store=store)
    again = Session.resume(store, t.s.id, now=50.0)
    t2 = Table(again, 50.0)
    assert errors(t2.send("thief", {"type": "join", "seat": 0})) == [("thief", "seat-taken")]


# -- session: clocks ----------------------------------------------------------------------------


def test_a_turn_timeout_plays_golfs_default_the_first_flip() -> None:
    t, _, _ = golf_table(time=TimeControl(turn=10.0))
    deadline = t.s.next_deadline()
    assert deadline is not None
    replies = t.tick(deadline)
    updates = [m for m in replies if m["type"] == "update" and m["_to"] == "ann"]
    assert updates and updates[0]["action"]["cause"] == "timeout"
    assert updates[0]["action"]["text"].startswith(("flip", "peek"))


def test_a_message_after_a_deadline_is_read_after_the_timeout_is_played() -> None:
    t, _, _ = golf_table(time=TimeControl(turn=10.0))
    deadline = t.s.next_deadline()
    assert deadline is not None
    out = t.s.handle("ann", json.dumps({"type": "ping"}), now=deadline + 1)
    kinds = [o.message["type"] for o in out]
    assert "update" in kinds and kinds.index("update") < kinds.index("pong")


def test_clocks_off_by_default() -> None:
    t, _, _ = golf_table()
    assert t.s.next_deadline() is None


# -- session: takebacks ---------------------------------------------------------------------------


def test_takeback_of_a_stock_draw_is_refused_and_names_no_card() -> None:
    t, _, _ = golf_table()
    setup_flips(t)
    t.act("ann", "draw")
    held = t.s.game.view(0)["table"]["held"]["card"]
    reply = t.send("ann", {"type": "takeback", "op": "request"})
    assert errors(reply) == [("ann", "takeback-refused")]
    assert held not in reply[0]["message"]


def test_takeback_of_taking_the_face_up_discard_is_allowed() -> None:
    t, _, _ = golf_table()
    setup_flips(t)
    version = t.s.game.version
    assert not errors(t.act("ann", "take"))
    reply = t.send("ann", {"type": "takeback", "op": "request"})
    assert not errors(reply), reply
    reply = t.send("bob", {"type": "takeback", "op": "accept"})
    views = [m for m in reply if m["type"] == "view"]
    assert {m["_to"] for m in views} >= {"ann", "bob"}
    assert all(m["reason"] == "takeback" for m in views)
    assert t.s.game.version == version


def test_a_spectator_cannot_accept_a_takeback() -> None:
    t, _, _ = golf_table()
    t.send("spec", {"type": "watch"})
    setup_flips(t)
    t.act("ann", "take")
    t.send("ann", {"type": "takeback", "op": "request"})
    assert errors(t.send("spec", {"type": "takeback", "op": "accept"})) == [("spec", "not-a-seat")]


def test_the_requester_cannot_accept_its_own_takeback() -> None:
    t, _, _ = golf_table()
    setup_flips(t)
    t.act("ann", "take")
    version = t.s.game.version
    t.send("ann", {"type": "takeback", "op": "request"})
    reply = t.send("ann", {"type": "takeback", "op": "accept"})
    assert errors(reply) == [("ann", "takeback-refused")]
    assert t.s.game.version == version


# -- hooks ---------------------------------------------------------------------------------------


def house_rule(rule: RuleInfo, **hooks: Any) -> types.ModuleType:
    module = types.ModuleType(rule.name.replace(".", "_").replace("-", "_"))
    module.RULE = rule  # type: ignore[attr-defined]
    vars(module).update(hooks)
    cardcore.register("cardcore.rules", rule.name, module)
    return module


@pytest.fixture
def registered() -> Any:
    names: list[str] = []

    def add(rule: RuleInfo, **hooks: Any) -> str:
        house_rule(rule, **hooks)
        names.append(rule.name)
        return rule.name

    yield add
    for name in names:
        cardcore.unregister("cardcore.rules", name)


def test_a_veto_with_an_empty_rule_id_is_a_plugin_error_naming_the_rule(registered: Any) -> None:
    @hookimpl
    def forbid_action(action: Any) -> Any:
        return Veto("", "no") if action.verb == "take" else None

    name = registered(
        RuleInfo(id="REV4-VETO-1", name="golf.rev4-empty-veto", game="golf", summary="x"),
        forbid_action=forbid_action,
    )
    game = cardcore.new_game("golf", 2, rules=[name], seed=7)
    for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 0"), (1, "flip 3")]:
        game.act(seat, text)
    with pytest.raises(cardcore.PluginError, match="rev4-empty-veto"):
        game.legal_actions(0)


def test_a_forbid_action_answering_a_string_is_a_plugin_error(registered: Any) -> None:
    @hookimpl
    def forbid_action(action: Any) -> Any:
        return "no" if action.verb == "take" else None

    name = registered(
        RuleInfo(id="REV4-VETO-2", name="golf.rev4-str-veto", game="golf", summary="x"),
        forbid_action=forbid_action,
    )
    game = cardcore.new_game("golf", 2, rules=[name], seed=7)
    for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 0"), (1, "flip 3")]:
        game.act(seat, text)
    version = game.version
    with pytest.raises(cardcore.PluginError, match="rev4-str-veto"):
        game.act(0, "take")
    assert game.version == version


def test_an_on_event_wrapper_is_refused(registered: Any) -> None:
    @hookimpl(wrapper=True)
    def on_event(event: Any) -> Any:
        return (yield)

    name = registered(
        RuleInfo(id="REV4-OBS-1", name="golf.rev4-wrap-obs", game="golf", summary="x"),
        on_event=on_event,
    )
    with pytest.raises(cardcore.PluginError):
        cardcore.new_game("golf", 2, rules=[name], seed=7)


def test_an_unknown_hook_name_is_refused_with_the_closest_names(registered: Any) -> None:
    @hookimpl
    def forbid_actoin(action: Any) -> Any:
        return None

    name = registered(
        RuleInfo(id="REV4-TYPO-1", name="golf.rev4-typo", game="golf", summary="x"),
        forbid_actoin=forbid_actoin,
    )
    with pytest.raises(cardcore.PluginError, match="forbid_action"):
        cardcore.get_ruleset("golf", [name])


def test_card_points_answering_a_float_is_refused_naming_the_rule(registered: Any) -> None:
    @hookimpl
    def card_points(card: Any) -> Any:
        return 2.5 if card.label == "Q" else None

    name = registered(
        RuleInfo(id="REV4-PTS-1", name="tonk.rev4-float", game="tonk", summary="x"),
        card_points=card_points,
    )
    with pytest.raises(cardcore.PluginError, match="rev4-float"):
        game = cardcore.new_game("tonk", 2, rules=[name], seed=4)
        cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])


def test_a_hook_calling_back_into_the_game_is_a_plugin_error_game_unchanged(
    registered: Any,
) -> None:
    games: list[Any] = []

    @hookimpl
    def forbid_action(action: Any) -> Any:
        if games and action.verb == "take":
            games[0].view(0)
        return None

    name = registered(
        RuleInfo(id="REV4-BACK-1", name="golf.rev4-callback", game="golf", summary="x"),
        forbid_action=forbid_action,
    )
    game = cardcore.new_game("golf", 2, rules=[name], seed=7)
    for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 0"), (1, "flip 3")]:
        game.act(seat, text)
    games.append(game)
    version = game.version
    with pytest.raises(cardcore.PluginError):
        game.act(0, "take")
    assert game.version == version


def test_on_event_raising_keeps_the_action_and_reaches_other_subscribers(
    registered: Any, caplog: pytest.LogCaptureFixture
) -> None:
    @hookimpl
    def on_event(event: Any) -> None:
        raise RuntimeError("observer broke")

    name = registered(
        RuleInfo(id="REV4-OBS-2", name="golf.rev4-bad-obs", game="golf", summary="x"),
        on_event=on_event,
    )
    game = cardcore.new_game("golf", 2, rules=[name], seed=7)
    heard: list[Any] = []
    failures: list[Any] = []
    game.events.on_error = failures.append
    game.events.subscribe(cardcore.Event, heard.append)
    with caplog.at_level(logging.DEBUG, logger="cardcore.events"):
        game.act(0, "flip 0")
        game.act(0, "flip 3")
    assert game.version == 2 and heard
    assert failures and all("rev4-bad-obs" in str(f.plugin) for f in failures)
    errors_logged = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors_logged) == 1 and "rev4-bad-obs" in errors_logged[0].getMessage()


def test_score_round_breaking_zero_sum_is_refused_naming_the_rule(registered: Any) -> None:
    @hookimpl
    def score_round(scores: Any) -> Any:
        return [s * 2 + 1 for s in scores]

    name = registered(
        RuleInfo(id="REV4-SUM-1", name="tonk.rev4-cut", game="tonk", summary="x"),
        score_round=score_round,
    )
    game = cardcore.new_game("tonk", 2, rules=[name], seed=4)
    with pytest.raises(cardcore.PluginError, match="rev4-cut"):
        cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])


def test_score_round_answering_the_wrong_length_is_refused(registered: Any) -> None:
    @hookimpl
    def score_round(scores: Any) -> Any:
        return [*scores, 0]

    name = registered(
        RuleInfo(id="REV4-LEN-1", name="golf.rev4-long", game="golf", summary="x"),
        score_round=score_round,
    )
    game = cardcore.new_game("golf", 2, rules=[name], options={"rounds": 1}, seed=3)
    with pytest.raises(cardcore.PluginError, match="rev4-long"):
        cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])


# -- testing kit ---------------------------------------------------------------------------------


def test_kit_refuses_rules_given_as_one_text() -> None:
    from cardcore.testing import check_game

    with pytest.raises(cardcore.ArgumentError):
        check_game("golf", rules="golf.jokers", games=1)  # type: ignore[arg-type]
    with pytest.raises(cardcore.ArgumentError):
        check_game("golf", without="x", games=1)  # type: ignore[arg-type]


def test_kit_raises_the_documented_errors_for_its_arguments() -> None:
    from cardcore.testing import check_game

    with pytest.raises(cardcore.UnknownPluginError):
        check_game("no-such-game", games=1)
    with pytest.raises(cardcore.OptionError):
        check_game("golf", options={"layout": 7}, games=1)


def test_kit_reports_a_plugins_system_exit_as_a_failure(registered: Any) -> None:
    from cardcore.testing import check_game

    @hookimpl
    def forbid_action(action: Any) -> Any:
        if action.verb == "take":
            raise SystemExit(3)
        return None

    name = registered(
        RuleInfo(id="REV4-EXIT-1", name="golf.rev4-exit", game="golf", summary="x"),
        forbid_action=forbid_action,
    )
    report = check_game(
        "golf", rules=[name], games=1, checks=["conservation"], strict=False, seed=1
    )
    assert not report.ok and report.failures


def test_kit_names_a_forbid_action_that_changes_the_state(registered: Any) -> None:
    from cardcore.testing import check_game

    @hookimpl
    def forbid_action(state: Any, action: Any) -> Any:
        state.turn = (state.turn + 1) % 2
        return None

    name = registered(
        RuleInfo(id="REV4-MUT-1", name="golf.rev4-mutate", game="golf", summary="x"),
        forbid_action=forbid_action,
    )
    report = check_game("golf", rules=[name], games=1, checks=["conservation"], strict=False)
    assert not report.ok
    assert any("forbid_action" in str(f) for f in report.failures)


# -- session: fair deals, the end, limits ------------------------------------------------------


def fair_game_to_its_end() -> tuple[Table, str, dict[str, Any]]:
    session = Session.create(
        "golf",
        ["Ann", "Bob"],
        now=0.0,
        config=SessionConfig(fair=True, seat_entropy=True, token_ttl=10.0),
    )
    t = Table(session)
    token = t.send("ann", {"type": "join", "seat": 0, "entropy": "hello"})[0]["token"]
    t.send("bob", {"type": "join", "seat": 1})
    t.send("bob", {"type": "entropy", "value": "w\u00f6rld"})
    replies = t.act("ann", "resign")
    reveals = [m for m in replies if m["type"] == "reveal"]
    assert {m["_to"] for m in reveals} == {"ann", "bob"}
    return t, token, reveals[0]["bundle"]


def test_fair_deal_commitment_and_seed_follow_the_documented_formulas() -> None:
    import hashlib

    _, _, bundle = fair_game_to_its_end()
    server_seed, salt = bytes.fromhex(bundle["server_seed"]), bytes.fromhex(bundle["salt"])
    digest = hashlib.sha256(b"cardcore-fair/2\0" + bytes([3]) + server_seed + salt).hexdigest()
    assert digest == bundle["commitment"]
    data = b"cardcore-seed/1\0" + server_seed
    for entropy in ["hello", "w\u00f6rld"]:
        raw = entropy.encode("utf-8")
        data += len(raw).to_bytes(4, "big") + raw
    assert int.from_bytes(hashlib.sha256(data).digest()[:16], "big") == bundle["seed"]


def test_verify_bundle_refuses_edited_entropy() -> None:
    from cardcore.session import FairDealError, verify_bundle

    _, _, bundle = fair_game_to_its_end()
    assert any("verified" in line for line in verify_bundle(bundle, bundle["commitment"]).lines())
    edited = dict(bundle, entropy=["hellO", "w\u00f6rld"])
    with pytest.raises(FairDealError):
        verify_bundle(edited, bundle["commitment"])
    with pytest.raises(FairDealError):
        verify_bundle(bundle, "0" * 64)


def test_a_token_expires_token_ttl_after_the_end() -> None:
    t, token, _ = fair_game_to_its_end()
    assert t.send("ann2", {"type": "record"})[0]["code"] == "not-joined"
    t.t += 5
    assert t.send("ann3", {"type": "join", "seat": 0, "token": token})[0]["type"] == "welcome"
    t.t += 20
    assert errors(t.send("ann4", {"type": "join", "seat": 0, "token": token})) == [
        ("ann4", "token-expired")
    ]


def test_a_deck_refuses_a_commitment_with_fair_deal_error() -> None:
    from cardcore.session import FairDealError

    deck = [str(c) for c in cardcore.new_game("golf", 2, seed=1).logic.deck(2, {})]
    with pytest.raises(FairDealError):
        Session.create("golf", 2, now=0.0, deck=deck, config=SessionConfig(fair=True))


def test_a_fixed_seed_is_refused_a_commitment_like_a_deck() -> None:
    from cardcore.session import FairDealError

    with pytest.raises(FairDealError):
        Session.create("golf", 2, now=0.0, seed=1, config=SessionConfig(fair=True))


def test_a_burst_past_the_limit_is_dropped_with_one_error_a_second() -> None:
    from cardcore.session import Limits

    session = Session.create(
        "golf", 2, now=0.0, seed=7, config=SessionConfig(limits=Limits(rate=1.0, burst=3))
    )
    out: list[Any] = []
    for _ in range(10):
        out += session.handle("x", json.dumps({"type": "ping"}), now=1.0)
    kinds = [(o.message["type"], o.message.get("code")) for o in out]
    assert kinds.count(("pong", None)) == 3
    assert kinds.count(("error", "rate-limited")) == 1


def test_connections_per_seat_and_spectators_are_bounded() -> None:
    from cardcore.session import Limits

    session = Session.create(
        "golf",
        2,
        now=0.0,
        seed=7,
        config=SessionConfig(limits=Limits(max_per_seat=2, max_spectators=1)),
    )
    t = Table(session)
    token = t.send("a1", {"type": "join", "seat": 0})[0]["token"]
    assert t.send("a2", {"type": "join", "seat": 0, "token": token})[0]["type"] == "welcome"
    assert errors(t.send("a3", {"type": "join", "seat": 0, "token": token})) == [("a3", "full")]
    assert t.send("s1", {"type": "watch"})[0]["type"] == "welcome"
    assert errors(t.send("s2", {"type": "watch"})) == [("s2", "full")]


def test_a_session_without_spectators_answers_watch_with_full() -> None:
    session = Session.create("golf", 2, now=0.0, seed=7, config=SessionConfig(spectators=False))
    t = Table(session)
    assert errors(t.send("s1", {"type": "watch"})) == [("s1", "full")]


def test_resync_view_carries_the_current_number_without_taking_a_new_one() -> None:
    t, _, _ = golf_table()
    t.act("ann", "flip 0")
    last = max(json.loads(x).get("n") or 0 for x in t.sent["ann"])
    replies = t.send("ann", {"type": "resync", "last": 0})
    views = [m for m in replies if m["type"] == "view"]
    assert views and views[-1]["reason"] == "resync" and views[-1]["n"] == last
    reply = t.act("ann", "flip 3")
    assert [m["n"] for m in reply if m["_to"] == "ann" and m["type"] == "update"] == [last + 1]


def test_a_hub_answers_an_unknown_session_with_no_session() -> None:
    from cardcore.session import Hub

    hub = Hub()
    out = hub.handle("c", json.dumps({"type": "watch", "session": "nope"}), now=1.0)
    assert [(o.conn, o.message.get("code")) for o in out] == [("c", "no-session")]


# -- more: restart clocks, presence, real-time clocks, hooks' order and observers ---------------


def test_restart_pause_gives_each_clock_the_time_it_had_left_at_the_last_store() -> None:
    store = MemoryStore()
    t, _, _ = golf_table(store=store, time=TimeControl(turn=10.0))
    deadline = t.s.next_deadline()
    assert deadline is not None
    written = t.t  # bob's join dealt the game: the last call that changed something
    again = Session.resume(store, t.s.id, now=100.0)
    assert again.next_deadline() == pytest.approx(100.0 + (deadline - written))


def test_restart_continue_fires_an_overdue_clock_at_its_deadline_time() -> None:
    store = MemoryStore()
    t, _, _ = golf_table(store=store, time=TimeControl(turn=10.0, restart="continue"))
    deadline = t.s.next_deadline()
    assert deadline is not None
    again = Session.resume(store, t.s.id, now=100.0)
    assert again.next_deadline() == pytest.approx(deadline)
    again.tick(100.0)
    actions = again.game.record()["actions"]
    assert actions and actions[0][2] == pytest.approx(deadline)
    assert all(at <= 100.0 for _, _, at in actions)


def test_a_seats_connection_coming_and_going_is_told_to_everyone() -> None:
    t, ann, _ = golf_table()
    t.send("spec", {"type": "watch"})
    gone = {o.conn for o in t.s.disconnect("ann", now=t.t) if o.message["type"] == "presence"}
    assert gone == {"bob", "spec"}
    replies = t.send("ann2", {"type": "join", "seat": 0, "token": ann})
    told = {m["_to"] for m in replies if m["type"] == "presence"}
    assert told == {"ann2", "bob", "spec"}


def test_real_time_messages_show_a_seat_only_its_own_idle_clock() -> None:
    session = Session.create(
        "spit", ["Ann", "Bob"], now=0.0, seed=3, config=SessionConfig(time=TimeControl(turn=5.0))
    )
    t = Table(session)
    t.send("ann", {"type": "join", "seat": 0})
    replies = t.send("bob", {"type": "join", "seat": 1})
    replies += t.act("ann", "ready") + t.act("bob", "ready")
    deadline = session.next_deadline()
    assert deadline is not None
    replies += t.tick(deadline)
    for m in replies:
        clocks = m.get("clocks")
        if clocks and clocks.get("turn"):
            own = "0" if m["_to"] == "ann" else "1"
            assert set(clocks["turn"]) == {own}, m


def test_spectator_history_reaches_only_the_version_they_see() -> None:
    session = Session.create(
        "tonk",
        ["A", "B"],
        now=0.0,
        seed=4,
        options={"hands": 3},
        config=SessionConfig(time=TimeControl(turn=10.0)),
    )
    t = Table(session)
    t.send("ann", {"type": "join", "seat": 0})
    t.send("bob", {"type": "join", "seat": 1})
    t.send("spec", {"type": "watch"})
    for _ in range(200):
        seat_history = next(m for m in t.send("ann", {"type": "history"}) if m["_to"] == "ann")
        if len(seat_history.get("rounds") or []) >= 2:
            break
        deadline = session.next_deadline()
        assert deadline is not None
        t.tick(deadline)
    assert seat_history["type"] == "history" and seat_history["rounds"]
    spec_history = next(m for m in t.send("spec", {"type": "history"}) if m["_to"] == "spec")
    assert spec_history["type"] == "history"
    assert len(spec_history["rounds"]) < len(seat_history["rounds"])


def test_house_rules_combine_the_same_whatever_order_they_are_listed(registered: Any) -> None:
    @hookimpl
    def card_points_a(card: Any) -> Any:
        return 1 if card.label == "Q" else None

    @hookimpl
    def card_points_b(card: Any) -> Any:
        return 2 if card.label == "Q" else None

    a = registered(
        RuleInfo(id="REV4-ORD-B", name="tonk.rev4-a", game="tonk", summary="x"),
        card_points=card_points_a,
    )
    b = registered(
        RuleInfo(id="REV4-ORD-A", name="tonk.rev4-b", game="tonk", summary="x"),
        card_points=card_points_b,
    )
    queen = cardcore.Card.parse("QH")
    one = cardcore.get_ruleset("tonk", [a, b]).resolve("card_points")(card=queen)
    two = cardcore.get_ruleset("tonk", [b, a]).resolve("card_points")(card=queen)
    assert one == two


def test_observers_are_hushed_on_replay_and_clones(registered: Any) -> None:
    heard: list[str] = []

    @hookimpl
    def on_event(event: Any) -> None:
        heard.append(event.slug)

    name = registered(
        RuleInfo(id="REV4-HUSH-1", name="golf.rev4-hush", game="golf", summary="x"),
        on_event=on_event,
    )
    game = cardcore.new_game("golf", 2, rules=[name], seed=7)
    game.act(0, "flip 0")
    count = len(heard)
    assert count > 0
    twin = game.clone()
    twin.act(0, "flip 3")
    cardcore.replay(game.record())
    cardcore.load(json.dumps(game.save()))
    assert len(heard) == count
    game.act(0, "flip 3")
    assert len(heard) > count


def test_an_observers_keyboard_interrupt_is_raised_after_every_handler_had_the_event(
    registered: Any,
) -> None:
    @hookimpl
    def on_event(event: Any) -> None:
        if event.slug == "action-applied":
            raise KeyboardInterrupt

    name = registered(
        RuleInfo(id="REV4-KBI-1", name="golf.rev4-kbi", game="golf", summary="x"),
        on_event=on_event,
    )
    game = cardcore.new_game("golf", 2, rules=[name], seed=7)
    heard: list[str] = []
    game.events.subscribe(cardcore.Event, lambda e: heard.append(e.slug))
    with pytest.raises(KeyboardInterrupt):
        game.act(0, "flip 0")
    assert game.version == 1 and "action-applied" in heard


def test_a_new_action_cancels_a_pending_takeback_and_the_timeout_expires_one() -> None:
    t, _, _ = golf_table(takeback_timeout=5.0)
    setup_flips(t)
    t.act("ann", "take")
    t.send("ann", {"type": "takeback", "op": "request"})
    reply = t.act("ann", "replace 0")
    assert ("bob", "cancelled") in [
        (m["_to"], m.get("op")) for m in reply if m["type"] == "takeback"
    ]
    assert errors(t.send("bob", {"type": "takeback", "op": "accept"})) == [
        ("bob", "takeback-refused")
    ]
    t.send("ann", {"type": "takeback", "op": "request"})
    deadline = t.s.next_deadline()
    assert deadline == pytest.approx(t.t + 5.0)
    expired = t.tick(deadline)
    assert {m["_to"] for m in expired if m.get("op") == "expired"} == {"ann", "bob"}


def test_a_takeback_of_a_revealing_replace_names_seats_never_the_card() -> None:
    t, _, _ = golf_table()
    setup_flips(t)
    t.act("ann", "draw")
    t.act("ann", "discard")
    t.act("bob", "take")
    t.act("bob", "replace 1")  # a face-down card goes face up onto the discard pile
    revealed = t.s.game.view(0)["table"]["discard"]
    reply = t.send("bob", {"type": "takeback", "op": "request"})
    assert errors(reply) == [("bob", "takeback-refused")]
    assert "seat 0" in reply[0]["message"] and revealed not in reply[0]["message"]


def test_takebacks_are_refused_in_real_time_and_when_switched_off() -> None:
    session = Session.create("spit", ["A", "B"], now=0.0, seed=3)
    t = Table(session)
    t.send("a", {"type": "join", "seat": 0})
    t.send("b", {"type": "join", "seat": 1})
    t.act("a", "ready")
    t.act("b", "ready")
    assert errors(t.send("a", {"type": "takeback", "op": "request"})) == [("a", "takeback-refused")]
    t2, _, _ = golf_table(takebacks=False)
    setup_flips(t2)
    t2.act("ann", "take")
    reply = t2.send("ann", {"type": "takeback", "op": "request"})
    assert errors(reply) == [("ann", "takeback-refused")]


# -- aio: a flood closes the connection; the others are told it went ---------------------------


def _drain(connection: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    queue = connection._queue
    while not queue.empty():
        text = queue.get_nowait()
        if text is None:
            break
        connection.queued -= len(text)
        out.append(json.loads(text))
    return out


def _flood_or_close(flood: bool) -> tuple[bool, list[dict[str, Any]]]:
    import asyncio

    from cardcore.session import Limits
    from cardcore.session.aio import AsyncHost

    async def run() -> tuple[bool, list[dict[str, Any]]]:
        config = SessionConfig(limits=Limits(rate=1.0, burst=2, close_after=5))
        session = Session.create("golf", ["A", "B"], now=0.0, seed=7, config=config)
        host = AsyncHost(session, clock=lambda: 0.0)
        a, b = host.connect("a"), host.connect("b")
        await a.send(json.dumps({"type": "join", "seat": 0}))
        await b.send(json.dumps({"type": "join", "seat": 1}))
        _drain(a)
        _drain(b)
        if flood:
            for _ in range(12):
                await a.send(json.dumps({"type": "ping"}))
        else:
            await a.close()
        return a.closed, _drain(b)

    return asyncio.run(run())


def test_a_seat_closing_its_connection_is_told_to_the_other_seat() -> None:
    closed, told = _flood_or_close(flood=False)
    assert closed and [m["type"] for m in told] == ["presence"]


def test_a_seat_closed_for_flooding_is_told_to_the_other_seat() -> None:
    closed, told = _flood_or_close(flood=True)
    assert closed and [m["type"] for m in told] == ["presence"]


# -- store integrity -----------------------------------------------------------------------------


def _stored_golf(tmp_path: Any, edits: list[str]) -> tuple[str, str, str]:
    import sqlite3

    db = str(tmp_path / "s.db")
    t, _, bob = golf_table(store=SQLiteStore(db))
    setup_flips(t)
    t.act("ann", "draw")
    held = t.s.game.view(0)["table"]["held"]["card"]
    con = sqlite3.connect(db)
    for sql in edits:
        con.execute(sql)
    con.commit()
    con.close()
    return db, t.s.id, bob + "|" + held


@pytest.mark.parametrize(
    "edit",
    [
        "delete from actions where idx = (select max(idx) from actions)",
        "update actions set notation = 'flip 4' where idx = 0",
        "update actions set at = at + 1 where idx = 0",
        "delete from tokens where seat = 1",
        "update tokens set expires = 1 where seat = 1",
    ],
)
def test_an_edited_store_is_refused_with_corrupt_session_error(tmp_path: Any, edit: str) -> None:
    from cardcore.session import CorruptSessionError, SessionError

    db, sid, _ = _stored_golf(tmp_path, [edit])
    with pytest.raises(CorruptSessionError) as info:
        Session.resume(SQLiteStore(db), sid, now=50.0)
    assert isinstance(info.value, SessionError) and isinstance(
        info.value, cardcore.CorruptStateError
    )
    assert sid in str(info.value)


def test_swapped_stream_rows_are_never_resent(
    tmp_path: Any, caplog: pytest.LogCaptureFixture
) -> None:
    swap = [
        "update messages set stream = 'tmp' where stream = 'seat.0'",
        "update messages set stream = 'seat.0' where stream = 'seat.1'",
        "update messages set stream = 'seat.1' where stream = 'tmp'",
    ]
    db, sid, secret = _stored_golf(tmp_path, swap)
    bob, held = secret.split("|")
    with caplog.at_level(logging.WARNING):
        again = Session.resume(SQLiteStore(db), sid, now=50.0)
    assert "are not the ones committed" in caplog.text
    t = Table(again, 50.0)
    replies = t.send("bob", {"type": "join", "seat": 1, "token": bob, "last": 1})
    assert [m["type"] for m in replies if m.get("n") is not None] == ["view"]
    assert all(held not in CARD.findall(text) for text in t.sent["bob"])


# -- testing kit: arguments ------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 99},
        {"players": 0},
        {"games": 0},
        {"sample": 2.0},
        {"checks": ["bogus"]},
    ],
)
def test_kit_refuses_bad_arguments_with_option_error(kwargs: dict[str, Any]) -> None:
    from cardcore.testing import check_game

    with pytest.raises(cardcore.OptionError):
        check_game("golf", **kwargs)


def test_kit_report_says_why_scores_is_skipped_for_spit() -> None:
    from cardcore.testing import check_score_round

    report = check_score_round("spit", games=1, strict=False)
    assert report.ok and "scores" in report.skipped


# -- defaults on a timeout, entropy after the deal ----------------------------------------------


def test_golf_timeout_after_taking_the_discard_replaces_the_first_position() -> None:
    t, _, _ = golf_table(time=TimeControl(turn=10.0))
    setup_flips(t)
    t.act("ann", "take")
    first = t.s.game.view(0)["legal"][0]
    deadline = t.s.next_deadline()
    assert deadline is not None
    played = [m["action"] for m in t.tick(deadline) if m["type"] == "update" and m["_to"] == "ann"]
    assert played and played[0]["text"] == first == "replace 0"
    assert played[0]["cause"] == "timeout"


def test_tonk_timeout_draws_then_discards_the_card_worth_the_most() -> None:
    session = Session.create(
        "tonk",
        ["A", "B"],
        now=0.0,
        seed=4,
        options={"hands": 3},
        config=SessionConfig(time=TimeControl(turn=10.0)),
    )
    t = Table(session)
    t.send("a", {"type": "join", "seat": 0})
    t.send("b", {"type": "join", "seat": 1})
    points = cardcore.get_ruleset("tonk").resolve("card_points")
    for _ in range(3):
        seat = session.game.state.to_act[0]
        deadline = session.next_deadline()
        assert deadline is not None
        out = t.tick(deadline)
        texts = [m["action"]["text"] for m in out if m["type"] == "update" and m["_to"] == "a"]
        assert texts[0] == "draw" and texts[1].startswith("discard ")
        thrown = cardcore.Card.parse(texts[1].split()[1])
        hand = [cardcore.Card.parse(c) for c in session.game.view(seat)["table"]["hand"]]
        assert all(points(card=thrown) >= points(card=c) for c in hand)


def test_a_vetoed_default_is_replaced_by_a_legal_action(registered: Any) -> None:
    @hookimpl
    def forbid_action(action: Any) -> Any:
        return Veto("REV4-NODISC-1", "no discards") if action.verb == "discard" else None

    name = registered(
        RuleInfo(id="REV4-NODISC-1", name="golf.rev4-nodisc", game="golf", summary="x"),
        forbid_action=forbid_action,
    )
    session = Session.create(
        "golf",
        ["A", "B"],
        now=0.0,
        seed=7,
        rules=[name],
        config=SessionConfig(time=TimeControl(turn=10.0, fallback="resign")),
    )
    t = Table(session)
    t.send("ann", {"type": "join", "seat": 0})
    t.send("bob", {"type": "join", "seat": 1})
    setup_flips(t)
    deadline = session.next_deadline()
    assert deadline is not None
    texts = [m["action"]["text"] for m in t.tick(deadline) if m["type"] == "update"]
    assert texts[:1] == ["draw"] and not session.game.is_over
    assert all(not x.startswith("discard") for x in texts)


def test_a_holder_rejoining_after_the_deal_is_never_refused_for_its_entropy() -> None:
    t, ann, _ = golf_table()
    reply = t.send("ann2", {"type": "join", "seat": 0, "token": ann, "entropy": "x" * 200})
    assert reply[0]["type"] == "welcome"


def test_real_time_overtaken_action_is_stale_with_core_rt_1() -> None:
    import random

    session = Session.create("speed", ["A", "B"], now=0.0, seed=3)
    t = Table(session)
    t.send("a", {"type": "join", "seat": 0})
    t.send("b", {"type": "join", "seat": 1})
    rng = random.Random(1)
    pair = None
    for _ in range(100):
        game = session.game
        mine, theirs = game.view(0)["legal"], game.view(1)["legal"]
        for first in (x for x in mine if x.startswith("play")):
            clone = game.clone()
            clone.act(0, first)
            later = [x for x in theirs if x.startswith("play") and x not in clone.view(1)["legal"]]
            if later:
                pair = (first, later[0])
                break
        if pair:
            break
        conn, text = rng.choice([("a", x) for x in mine] + [("b", x) for x in theirs])
        t.act(conn, text)
    assert pair is not None
    version = session.game.version
    assert not errors(t.act("a", pair[0], seen=version))
    reply = [m for m in t.act("b", pair[1], seen=version) if m["type"] == "error"]
    assert [(m["_to"], m["code"], m["rule"]) for m in reply] == [("b", "stale", "CORE-RT-1")]
    assert errors(t.act("b", "play ZZ L", seen=version)) == [("b", "notation")]


def test_a_real_time_default_of_nothing_plays_no_resign_fallback() -> None:
    session = Session.create(
        "spit",
        ["A", "B"],
        now=0.0,
        seed=3,
        config=SessionConfig(time=TimeControl(turn=5.0, fallback="resign")),
    )
    t = Table(session)
    t.send("a", {"type": "join", "seat": 0})
    t.send("b", {"type": "join", "seat": 1})
    t.send("w", {"type": "watch"})
    t.act("a", "ready")
    t.act("b", "ready")
    for _ in range(4):
        deadline = session.next_deadline()
        assert deadline is not None
        texts = [m["action"]["text"] for m in t.tick(deadline) if m["type"] == "update"]
        assert "resign" not in texts
    assert not session.game.is_over
    assert all('"clocks"' not in text for text in t.sent["w"])  # spectators get no clocks


def test_on_event_failures_are_logged_error_once_then_warnings_at_10_and_the_end(
    registered: Any, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[int] = []

    @hookimpl
    def on_event(event: Any) -> None:
        calls.append(1)
        raise ValueError("observer broke")

    name = registered(
        RuleInfo(id="REV4-OE-1", name="golf.rev4-oe", game="golf", summary="x"),
        on_event=on_event,
    )
    game = cardcore.new_game("golf", 2, rules=[name], options={"rounds": 1}, seed=3)
    with caplog.at_level(logging.DEBUG, logger="cardcore.events"):
        cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert game.is_over and len(calls) > 10
    ours = [r for r in caplog.records if "rev4-oe" in r.getMessage()]
    assert [r.levelno for r in ours].count(logging.ERROR) == 1
    warnings = [r.getMessage() for r in ours if r.levelno == logging.WARNING]
    assert any("10 times" in w for w in warnings)
    assert any(f"{len(calls)} times" in w for w in warnings)


def test_a_verb_only_veto_works_in_a_real_time_game(registered: Any) -> None:
    @hookimpl
    def forbid_action(action: Any) -> Any:
        return Veto("REV4-NOSTUCK-1", "no stuck") if action.verb == "stuck" else None

    name = registered(
        RuleInfo(id="REV4-NOSTUCK-1", name="speed.rev4-nostuck", game="speed", summary="x"),
        forbid_action=forbid_action,
    )
    assert "stuck" in cardcore.new_game("speed", 2, seed=3).view(0)["legal"]
    game = cardcore.new_game("speed", 2, rules=[name], seed=3)
    assert "stuck" not in game.view(0)["legal"]
    with pytest.raises(cardcore.IllegalActionError, match=r"\(REV4-NOSTUCK-1\)$"):
        game.act(0, "stuck")
    assert game.version == 0


# -- persistence: a failing store, a hub resuming around a damaged session ----------------------


def test_when_the_store_fails_the_game_goes_on_and_the_next_call_writes_both() -> None:
    from cardcore.session import StoreError

    class Flaky(MemoryStore):
        fail = 0

        def commit(self, *args: Any, **kwargs: Any) -> None:
            if self.fail:
                self.fail -= 1
                raise StoreError("disk full")
            super().commit(*args, **kwargs)

    store = Flaky()
    t, _, _ = golf_table(store=store)
    store.fail = 2
    for conn, text in [("ann", "flip 0"), ("ann", "flip 3"), ("bob", "flip 0")]:
        reply = t.act(conn, text)
        assert (conn, "ok") in [(m["_to"], m["type"]) for m in reply]
    again = Session.resume(store, t.s.id, now=50.0)
    assert again.game.version == t.s.game.version == 3
    assert again.game.record()["actions"] == t.s.game.record()["actions"]


def test_hub_resume_all_skips_a_damaged_session_and_resumes_the_others(tmp_path: Any) -> None:
    import sqlite3

    from cardcore.session import Hub

    db = str(tmp_path / "hub.db")
    hub = Hub(SQLiteStore(db))
    good = hub.create("golf", ["A", "B"], now=0.0, seed=1)
    bad = hub.create("golf", ["A", "B"], now=0.0, seed=2)
    for session in (good, bad):
        hub.handle(
            "a" + session.id,
            json.dumps({"type": "join", "session": session.id, "seat": 0}),
            now=1.0,
        )
        hub.handle(
            "b" + session.id,
            json.dumps({"type": "join", "session": session.id, "seat": 1}),
            now=1.0,
        )
        hub.handle(
            "a" + session.id,
            json.dumps({"type": "act", "session": session.id, "action": "flip 0", "seen": 0}),
            now=2.0,
        )
    con = sqlite3.connect(db)
    con.execute("update actions set notation = 'flip 5' where session = ?", (bad.id,))
    con.commit()
    con.close()
    again = Hub(SQLiteStore(db))
    failed = again.resume_all(now=10.0)
    assert failed == [bad.id]
    out = again.handle("w", json.dumps({"type": "watch", "session": good.id}), now=11.0)
    assert out[0].message["type"] == "welcome"
    out = again.handle("w2", json.dumps({"type": "watch", "session": bad.id}), now=11.0)
    assert [o.message.get("code") for o in out] == ["no-session"]


# -- the end of a game: total clock, spectators catch up, replies carry the id ------------------


@pytest.mark.parametrize("game", ["speed", "tonk"])
def test_the_total_clock_ends_the_match_with_the_leaders_winning(game: str) -> None:
    session = Session.create(
        game, ["A", "B"], now=0.0, seed=3, config=SessionConfig(time=TimeControl(total=30.0))
    )
    t = Table(session)
    t.send("a", {"type": "join", "seat": 0})
    t.send("b", {"type": "join", "seat": 1})
    started = t.t
    assert session.next_deadline() == pytest.approx(started + 30.0)
    out = t.tick(started + 30.0)
    causes = {m["action"]["cause"] for m in out if m["type"] == "update"}
    assert causes == {"clock"} and session.game.is_over
    result = session.game.result
    assert result is not None and set(result.winners) == {
        i for i, s in enumerate(result.scores) if s == max(result.scores)
    }


def test_spectators_get_everything_at_once_when_the_game_ends() -> None:
    t, _, _ = golf_table()
    t.send("w", {"type": "watch"})
    setup_flips(t)
    reply = t.act("ann", "resign")
    versions = [m["version"] for m in reply if m["_to"] == "w" and m["type"] == "update"]
    assert versions and versions[-1] == t.s.game.version
    assert errors(t.act("bob", "flip 1")) == [("bob", "game-over")]
    assert t.send("w", {"type": "record"})[0]["type"] == "record"


def test_ok_echoes_the_id_and_the_other_seats_update_does_not_carry_it() -> None:
    t, _, _ = golf_table()
    reply = t.send("ann", {"type": "act", "action": "flip 0", "seen": 0, "id": "m-1"})
    oks = [m for m in reply if m["type"] == "ok"]
    assert [(m["_to"], m["id"], m["of"]) for m in oks] == [("ann", "m-1", "act")]
    # bob's welcome holds the session id and his token: random text, which may spell "m-1"
    for text in t.sent["bob"]:
        message = {k: v for k, v in json.loads(text).items() if k not in ("session", "token")}
        assert "m-1" not in json.dumps(message), text


@pytest.mark.parametrize(("game", "players"), [("golf", 2), ("gofish", 3), ("speed", 2)])
def test_mirror_rebuilds_each_connections_view_through_takebacks(game: str, players: int) -> None:
    import random

    from cardcore.session import Mirror

    names = ["A", "B", "C"][:players]
    session = Session.create(game, names, now=0.0, seed=11)
    t = Table(session)
    conns = [f"p{i}" for i in range(players)]
    for i, conn in enumerate(conns):
        t.send(conn, {"type": "join", "seat": i})
    t.send("w", {"type": "watch"})
    rng = random.Random(2)
    for _ in range(80):
        g = session.game
        if g.is_over:
            break
        seat, text = rng.choice([(i, a) for i in range(players) for a in g.view(i)["legal"]])
        t.act(conns[seat], text)
        if rng.random() < 0.15:
            t.send(conns[seat], {"type": "takeback", "op": "request"})
            for other in conns:
                if other != conns[seat]:
                    t.send(other, {"type": "takeback", "op": "accept"})
    for i, conn in enumerate(conns):
        mirror = Mirror()
        for text in t.sent[conn]:
            mirror.feed(json.loads(text))
        assert mirror.view == session.game.view(i)
    spectator = Mirror()
    for text in t.sent["w"]:
        spectator.feed(json.loads(text))
    assert spectator.version == session.game.version - 2 or session.game.is_over


def test_each_outbound_text_is_its_message_as_compact_json() -> None:
    from cardcore.session.protocol import dumps

    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    out = session.handle("ann", json.dumps({"type": "join", "seat": 0}), now=1.0)
    out += session.handle("bob", json.dumps({"type": "join", "seat": 1}), now=2.0)
    out += session.handle("w", json.dumps({"type": "watch"}), now=2.5)
    out += session.handle(
        "ann", json.dumps({"type": "act", "action": "flip 0", "seen": 0}), now=3.0
    )
    out += session.handle("ann", "not json", now=3.5)
    assert out
    for o in out:
        assert json.loads(o.text) == o.message
        assert o.text == dumps(o.message)


def test_a_flood_gets_one_error_then_one_more_that_carries_the_close() -> None:
    from cardcore.session import Limits

    config = SessionConfig(limits=Limits(rate=1.0, burst=2, close_after=5))
    session = Session.create("golf", 2, now=0.0, seed=7, config=config)
    out: list[Any] = []
    for _ in range(10):
        out += session.handle("x", json.dumps({"type": "ping"}), now=0.0)
    seen = [(o.message["type"], o.message.get("code"), o.close) for o in out]
    assert seen == [
        ("pong", None, False),
        ("pong", None, False),
        ("error", "rate-limited", False),
        ("error", "rate-limited", True),
    ]
