"""Review of 176f9fe..7ae725c: the Golf house rules golf.bonus-card (GOLF-SCORE-10) and
golf.hand-same-value (GOLF4H-VAR-1), RuleInfo keeping sets sorted, the end_game/TOP and
STALE_WINDOW docs, and SQLiteStore's new refusals (other apps' files, replaced files, other
writers, full disks).

Strict xfails mark what is wrong today; the other tests pin the claims that held, so a
change that breaks them is seen. Every deal is stacked or seeded; nothing depends on a
random deal.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import types
from pathlib import Path
from typing import Any

import pytest

import cardcore
import cardcore.session.sqlite as store_module
from cardcore import OptionError, PluginError, RuleInfo
from cardcore.cli import main
from cardcore.session import Hub, Session, SQLiteStore, StoreError
from cardcore.session.store import Batch, StoredSession
from cardcore.turns import end_game, reveal_all
from tests.games.golf.helpers import golf, round_scores, stack
from tests.session.kit import table

ROOT = Path(__file__).resolve().parents[1]
BONUS = "golf.bonus-card"
SAME = "golf.hand-same-value"
G1 = "3C 8D JS 3D 10H 6S"  # 34 points in BASIC, no pair
ACES = "AC AD AH AS"  # 4h: four aces, 0 (four of a kind); 4 in a grid without cancelling


def _scores(grids: list[str], rules: list[str], layout: Any, bonus: str | None = None) -> list[int]:
    options: dict[str, Any] = {"layout": layout}
    if bonus is not None:
        options["bonus_card"] = bonus
    game = golf(len(grids), stack(grids, "KS"), rules=rules, options=options)
    return round_scores(game, -1)


# --- golf.bonus-card and golf.hand-same-value -------------------------------------------------


@pytest.mark.parametrize(
    ("grids", "rules", "layout", "bonus", "expected"),
    [
        # GOLF4: QH (-2) TL, QS TR, QD BL, 9D BR; one row/column pair cancels, a queen of 10 scores
        (["QH QS QD 9D", ACES], [BONUS], "4", "QH", [19, 0]),
        # diagonals too: QS-QD cancel, the bonus QH scores (GOLF-SCORE-7, lowest choice)
        (["QH QS QD 9D", ACES], [BONUS, "golf.diagonal-pairs"], "4", "QH", [7, 0]),
        (["QH QS QD 9D", ACES], [BONUS, "golf.no-cancelling"], "4", "Q", [-6 + 9, 4]),
        # GOLF4H: three queens, two cancel and the -2 one scores
        (["QH QS QD 9D", ACES], [BONUS], "4h", "QH", [-2 + 9, 0]),
        (["QH QS 5C 9D", ACES], [BONUS, SAME], "4h", "Q", [14, 0]),  # both -2: same value
        # GOLF6 with the removing and anywhere rules
        (["QH 9C KD QS 5D 4H", G1], [BONUS, "golf.remove-columns"], 6, "QH", [18, 34]),
        (["QH 9C QD 4S 5D QS", G1], [BONUS, "golf.pairs-anywhere"], 6, "QH", [-2 + 9 + 4 + 5, 34]),
        (["QH QC KD QS QD 4H", G1], [BONUS, "golf.four-of-a-kind-columns"], 6, "QH", [4, 44]),
        # GOLF9: a triple of the named rank still scores 0; pairs never cancel
        (["QH QC QD 4S 5D 4H 7C 8C 9C", f"{G1} 2C 2D 2H"], [BONUS], 9, "Q", [37, 40]),
        (
            ["QH QC QD 4S 5D 4H 7C 8C 9C", f"{G1} 2C 2D 2H"],
            [BONUS, "golf.remove-triples"],
            9,
            "QH",
            [37, 40],
        ),
        # GOLF8 under HARD: 10S is the named card (-2), the 10H/10D column cancels
        (
            ["10H 9C KD 4S 10D 5D 4H 2C", "3C 8D JS 3D 10S 6S AC AD"],
            [BONUS, "golf.hard"],
            8,
            "10",
            [9 + 13 + 4 + 5 + 4 + 2, 3 - 2 + 8 + 6 + 11 + 1 + 3 + 1],
        ),
    ],
)
def test_bonus_card_scores_right_with_the_other_golf_rules(
    grids: list[str], rules: list[str], layout: Any, bonus: str, expected: list[int]
) -> None:
    assert _scores(grids, rules, layout, bonus) == expected


def test_hand_same_value_with_a_bonus_card_cancels_by_points_not_by_rank() -> None:
    """Pins today's answer where the docs say two things: GOLF-SCORE-9/10 say a bonus card
    "still pairs by rank (GOLF-SCORE-6)", GOLF4H-VAR-1 says cards cancel by points "whatever
    their ranks". Combined (no conflict is declared) the bonus QH (-2) and QS (10) do not cancel,
    nor JH and JC under one-eyed jacks; no doc says so."""
    hand = ["QH QS 5C 9D", ACES]
    assert _scores(hand, [BONUS], "4h", "QH") == [14, 0]  # by rank: QH-QS cancel
    assert _scores(hand, [BONUS, SAME], "4h", "QH") == [-2 + 10 + 5 + 9, 0]
    jacks = ["JH JC 5C 9D", ACES]
    assert _scores(jacks, ["golf.one-eyed-jacks", SAME], "4h") == [-2 + 10 + 5 + 9, 0]
    for rule in (BONUS, "golf.one-eyed-jacks", "golf.jokers"):  # none declared
        cardcore.new_game("golf", 2, rules=[rule, SAME], options={"layout": "4h"}, seed=1)


def test_bonus_card_option_replays_saves_loads_and_is_checked() -> None:
    game = cardcore.new_game(
        "golf", 2, rules=[BONUS], options={"bonus_card": "10H", "rounds": 1}, seed=5
    )
    pick = random.Random(1)
    while not game.is_over:
        seat = game.to_act[0]
        game.act(seat, str(pick.choice(game.legal_actions(seat))))
    record = json.loads(json.dumps(game.record()))
    again = cardcore.replay(record)
    assert again.options["bonus_card"] == "10H"
    assert again.save() == game.save()
    assert cardcore.load(json.loads(json.dumps(game.save()))).save() == game.save()
    for bad in (2, "JK", "qh", "T"):  # exact texts only: ranks, or one card (no joker)
        with pytest.raises(OptionError, match="GOLF-SCORE-10"):
            cardcore.new_game("golf", 2, rules=[BONUS], options={"bonus_card": bad}, seed=1)


def test_bonus_card_through_the_cli_and_in_cardcore_list(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["simulate", "golf", "-n", "1", "-q", "-r", BONUS, "-o", "rounds=1"]
    assert main([*args, "-o", "bonus_card=10", "--json", "-"]) == 0
    assert main([*args, "-o", "bonus_card=2", "--json", "-"]) == 0  # "2" stays text
    capsys.readouterr()
    assert main([*args, "-o", "bonus_card=qh"]) != 0
    assert "GOLF-SCORE-10" in capsys.readouterr().err
    assert main(["list"]) == 0
    listed = capsys.readouterr().out
    assert "golf.bonus-card GOLF-SCORE-10" in listed
    assert "golf.hand-same-value GOLF4H-VAR-1" in listed


@pytest.mark.parametrize(
    ("rules", "options"),
    [
        ([BONUS], {"bonus_card": "QH", "rounds": 1}),
        ([SAME, BONUS, "golf.hard"], {"layout": "4h", "rounds": 1, "bonus_card": "K"}),
    ],
)
def test_new_rules_with_rl_encoding_and_agents(rules: list[str], options: dict[str, Any]) -> None:
    from cardcore.rl import encoding_for

    game = cardcore.new_game("golf", 2, rules=rules, options=options, seed=2)
    cards = encoding_for(game).cards  # type: ignore[attr-defined]
    named = options["bonus_card"]
    assert cards["QH" if named == "QH" else "KH"][1] == -0.2
    assert cards["QS"][1] == (1.0 if named == "QH" else 1.2)
    for agents in (["golf-greedy"], ["ismcts:iterations=10", "golf-greedy"]):
        summary = cardcore.simulate(
            "golf", games=1, agents=agents, rules=rules, options=options, seed=3
        )
        assert summary.games == 1  # type: ignore[attr-defined]


# --- RuleInfo keeps a set sorted ------------------------------------------------------------


def _rule(**fields: Any) -> RuleInfo:
    return RuleInfo(id="X-1", name="x.rule", game="golf", summary="s", **fields)


def test_rule_info_sets_are_sorted_whatever_their_types_and_lists_keep_their_order() -> None:
    one = _rule(conflicts={"b.rule", "a.rule", "c.rule"}, applies={"layout": {6, "6", 8, "4h"}})
    two = _rule(
        conflicts=frozenset(["c.rule", "a.rule", "b.rule"]), applies={"layout": {"4h", 8, "6", 6}}
    )
    assert one.conflicts == two.conflicts == ("a.rule", "b.rule", "c.rule")
    assert one.applies["layout"] == two.applies["layout"] == (6, 8, "4h", "6")
    mixed = _rule(applies={"x": {True, 2, 1.5, None, (1, 2)}})
    assert mixed.applies["x"] == (None, True, 1.5, 2, (1, 2))  # by type name ("NoneType" first)
    assert _rule(requires=["z.rule", "a.rule"]).requires == ("z.rule", "a.rule")
    assert _rule(applies={"layout": [9, 6]}).applies["layout"] == (9, 6)
    with pytest.raises(PluginError):
        _rule(conflicts={"a.rule": 1}.keys())  # a dict view was refused before, as now
    with pytest.raises(PluginError, match="holds 3"):
        _rule(conflicts={"a.rule", 3})  # a set of mixed types: refused by its bad name


# --- docs: end_game's reveal, STALE_WINDOW ---------------------------------------------------


def test_a_top_pile_keeps_beneath_its_top_hidden_after_end_game_and_reveal_all() -> None:
    moves = [(0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1")]
    moves += [(0, "draw"), (0, "discard"), (1, "draw"), (1, "discard")]
    for finish in ("end_game", "reveal_all"):
        game = cardcore.new_game("golf", 2, seed=3, options={"rounds": 1})
        for seat, text in moves:
            game.act(seat, text)
        if finish == "end_game":
            end_game(game.state, (), (0, 0), "test")
        else:  # its docstring: "every card of *zones* face up for everyone"
            reveal_all(game.state)
        pile = next(z for z in game.view(0)["zones"] if z["name"] == "discard")
        assert pile["count"] == 3 and pile["cards"][0] is not None
        assert pile["cards"][1:] == [None, None]


def test_stale_window_sixteen_seconds_for_four_seats_at_a_card_a_second() -> None:
    assert cardcore.STALE_WINDOW / 4 == 16


# --- SQLiteStore: no false positives -----------------------------------------------------


def _play(t: Any, *conns: str) -> None:
    for conn in conns:
        t.act(conn, t.legal(conn)[0], 1.0)


def test_takeback_then_resume_in_the_same_store_is_never_refused(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "tb.db")
    t = table("golf", store=store)
    _play(t, "a", "a", "b", "b")
    t.act("a", "take", 1.0)
    assert t.errors(t.send("a", {"type": "takeback", "op": "request"}, 1.0)) == []
    assert t.errors(t.send("b", {"type": "takeback", "op": "accept"})) == []
    _play(t, "a", "a")
    assert t.session.store_error is None
    resumed = Session.resume(store, t.session.id, now=5.0)
    assert resumed.game is not None and resumed.game.version == 6
    t.restart(resumed)
    t.join("a", 0)
    t.join("b", 1)
    _play(t, "b")
    assert resumed.store_error is None


def _old_store_module() -> types.ModuleType:
    try:
        source = subprocess.run(
            ["git", "show", "176f9fe:src/cardcore/session/sqlite.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        pytest.skip("the previous version's store is read from git")
    module = types.ModuleType("old_cardcore_sqlite")
    exec(compile(source, "old_sqlite.py", "exec"), module.__dict__)
    return module


def test_a_store_written_by_the_previous_version_resumes_with_hub_resume_all(
    tmp_path: Path,
) -> None:
    old = _old_store_module()
    path = tmp_path / "old.db"
    t = table("golf", store=old.SQLiteStore(path))
    _play(t, "a", "a", "b", "b")
    sid = t.session.id
    t.session.store.close()  # type: ignore[union-attr]
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE web_bots (session TEXT, seat INTEGER, agent TEXT, params TEXT)")
    db.commit()
    db.close()
    hub = Hub(SQLiteStore(path))
    assert list(hub.resume_all(2.0)) == []
    t.restart(hub.sessions[sid])
    t.join("a", 0)
    t.join("b", 1)
    _play(t, "a")
    assert hub.sessions[sid].store_error is None
    assert Session.resume(SQLiteStore(path), sid, now=3.0).game.version == 5  # type: ignore[union-attr]


@pytest.mark.parametrize("kind", ["", ":memory:", "empty", "pragmas", "relative"])
def test_special_paths_and_blank_files_are_used(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = kind
    if kind == "empty":
        path = str(tmp_path / "zero.db")
        Path(path).write_bytes(b"")
    elif kind == "pragmas":
        path = str(tmp_path / "pragmas.db")
        db = sqlite3.connect(path)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA user_version=1")
        db.close()
    elif kind == "relative":
        monkeypatch.chdir(tmp_path)
        path = "games.db"
    store = SQLiteStore(path)
    if kind == "relative":
        monkeypatch.chdir(ROOT)  # the process changes directory
    t = table("golf", store=store)
    _play(t, "a", "a", "b", "b", "a")
    assert t.session.store_error is None
    assert Session.resume(store, t.session.id, now=5.0).game.version == 5  # type: ignore[union-attr]


def test_a_failed_commit_is_written_whole_by_the_next_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "retry.db"
    t = table("golf", store=SQLiteStore(path))
    _play(t, "a")
    real = store_module._dump
    fails = [1]

    def flaky(value: Any) -> str:
        if fails.pop() if fails else False:
            raise sqlite3.OperationalError("disk I/O error")
        return real(value)

    monkeypatch.setattr(store_module, "_dump", flaky)
    _play(t, "a")
    assert t.session.store_error is not None
    _play(t, "b", "b")
    assert t.session.store_error is None
    game = t.session.game
    assert game is not None
    assert Session.resume(SQLiteStore(path), t.session.id, now=9.0).game.save() == game.save()  # type: ignore[union-attr]


def test_a_file_replaced_while_in_use_fails_the_commit(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    t = table("golf", store=SQLiteStore(path))
    _play(t, "a")
    other = tmp_path / "backup.db"
    SQLiteStore(other).close()
    os.replace(other, path)
    _play(t, "a")
    assert t.session.store_error is not None and "replaced" in t.session.store_error


def test_the_web_server_restarts_on_a_relative_db_with_a_bonus_card_game_and_a_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.web.helpers import Player, create, serve

    monkeypatch.chdir(tmp_path)
    seats = [{"name": "Ann"}, {"name": "Bot", "agent": "golf-greedy", "params": {"seed": 3}}]
    options = {"rounds": 1, "bonus_card": "QH"}
    with serve("games.db") as (client, server, _):
        games = client.get("/api/games").json()
        found = games["games"] if isinstance(games, dict) else games
        rule = next(
            r for g in found if g["name"] == "golf" for r in g["rules"] if r["name"] == BONUS
        )
        assert [(o["name"], o["default"], len(o["choices"])) for o in rule["options"]] == [
            ("bonus_card", "2", 65)
        ]
        sid = create(client, "golf", seats, rules=[BONUS], options=options)["session"]
        monkeypatch.chdir(ROOT)
        with client.websocket_connect("/ws") as ws:
            ann = Player(ws)
            ann.send({"type": "join", "session": sid, "seat": 0})
            token = ann.until("welcome")["token"]
            ann.until("view")
            for _ in range(4):
                while 0 not in ann.view["to_act"]:
                    ann.recv()
                ann.send(
                    {"type": "act", "action": ann.view["legal"][0], "seen": ann.mirror.version}
                )
                ann.until("ok")
        assert server.hub.sessions[sid].store_error is None
    monkeypatch.chdir(tmp_path)
    with serve("games.db") as (client, server, _):
        session = server.hub.sessions[sid]
        with client.websocket_connect("/ws") as ws:
            ann = Player(ws)
            ann.send({"type": "join", "session": sid, "seat": 0, "token": token})
            ann.until("welcome")
            ann.until("view")
            assert ann.play_to_end(0)["is_over"]
        assert session.store_error is None
        assert session.game is not None and session.game.options["bonus_card"] == "QH"


# --- SQLiteStore: bugs -------------------------------------------------------------------


def test_a_store_whose_creation_was_cut_short_is_completed_not_refused(tmp_path: Path) -> None:
    path = tmp_path / "cut.db"
    first = store_module.SCHEMA.split(";")[0] + ";"  # CREATE TABLE sessions, as cardcore writes it
    db = sqlite3.connect(path)
    db.executescript(first)
    db.close()
    store = SQLiteStore(path)  # refused today
    t = table("golf", store=store)
    _play(t, "a")
    assert t.session.store_error is None


def test_another_writer_replacing_an_action_is_seen(tmp_path: Path) -> None:
    path = tmp_path / "two.db"
    a = SQLiteStore(path)
    a.create(StoredSession("s1", "playing", 0.0, {"m": 1}))
    a.commit("s1", Batch("playing", 1.0, actions=[(0, 0, "flip 0", None), (1, 0, "flip 1", None)]))
    b = SQLiteStore(path)
    assert b.load("s1") is not None
    b.commit("s1", Batch("playing", 2.0, keep_actions=1, actions=[(1, 0, "flip 2", None)]))
    with pytest.raises(StoreError, match="another writer"):
        a.commit("s1", Batch("playing", 3.0, actions=[(2, 1, "flip 0", None)]))


def _commit_work(tmp_path: Path, rows: int) -> int:
    """SQLite virtual-machine steps (in tens) of one 1-action commit after *rows* actions."""
    store = SQLiteStore(tmp_path / f"work{rows}.db")
    store.create(StoredSession("s", "playing", 0.0, {}))
    store.commit("s", Batch("playing", 1.0, actions=[(i, 0, "draw", None) for i in range(rows)]))
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    store._db.set_progress_handler(count, 10)
    store.commit("s", Batch("playing", 2.0, actions=[(rows, 0, "draw", None)]))
    store._db.set_progress_handler(None, 10)
    store.close()
    return steps[0]


def test_a_commits_work_does_not_grow_with_the_record(tmp_path: Path) -> None:
    assert _commit_work(tmp_path, 20000) <= 4 * _commit_work(tmp_path, 100)
