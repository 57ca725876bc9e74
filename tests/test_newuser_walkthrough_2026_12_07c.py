"""A new user's walkthrough (2026-12-07c): README set-up, docs/tutorial.rst,
docs/embedding.rst and docs/agents.rst followed as written, then the obvious
mistakes a newcomer makes, through the Python API and the ``cardcore`` command.

Claims of the pages that held are plain tests; defects are strict xfails.
Every expected value below is read off the pages (or the rules they cite).
"""

from __future__ import annotations

import asyncio
import json
import math
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

import cardcore

SPIT_DECK = (
    "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
    "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
)


def cli(*args: str, stdin: str = "", cwd=None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardcore", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        check=False,
    )


class FirstLegal:
    """agents.rst: always takes the first legal action."""

    def choose(self, view, legal):
        return legal[0]


def tutorial_game():
    return cardcore.new_game("golf", ["Ann", "Bob"], options={"rounds": 1}, seed=7)


def started_spit():
    spit = cardcore.new_game("spit", ["Ann", "Bob"], deck=SPIT_DECK, seed=2)
    spit.act(0, "ready")
    spit.act(1, "ready")
    return spit


# --------------------------------------------------------------------------- README


def test_readme_embedding_snippet_runs_and_save_restores_version():
    game = cardcore.new_game("golf", ["Ann", "Bob"], options={"rounds": 1}, seed=7)
    agent = cardcore.RandomAgent(seed=1)
    while not game.is_over:
        seat = game.to_act[0]
        view = game.view(seat)
        action = agent.choose(view, game.legal_actions(seat))
        game.act(seat, str(action), seen=view["version"])
    result = game.result
    assert result.winners and all(s in (0, 1) for s in result.winners)
    assert len(result.scores) == 2
    saved = game.save()
    json.dumps(saved)  # "JSON-ready"
    assert cardcore.load(saved).version == game.version


def test_readme_cardcore_list_names_the_builtin_games():
    out = cli("list")
    assert out.returncode == 0, out.stderr
    for name in ("golf", "tonk", "spit", "speed"):
        assert name in out.stdout


def test_readme_cardcore_rules_golf_has_rule_ids_and_every_option():
    out = cli("rules", "golf")
    assert out.returncode == 0, out.stderr
    assert "GOLF-GEN-1" in out.stdout
    for option in cardcore.new_game("golf", 2, seed=1).options:
        assert option in out.stdout, option


def test_readme_cardcore_simulate_tonk_small_json_summary():
    out = cli("simulate", "tonk", "--games", "4", "-q", "--json", "-")
    assert out.returncode == 0, out.stderr
    start = out.stdout.index("{")
    summary = json.loads(out.stdout[start:])
    assert summary["games"] == 4
    assert summary["game"] == "tonk"


# --------------------------------------------------------------------------- tutorial


def test_tutorial_round_of_golf_as_written():
    game = tutorial_game()
    assert game.to_act == (0,)
    view = game.view(0)
    assert view["legal"] == [f"flip {i}" for i in range(6)]
    assert view["table"]["grids"] == [[None] * 6, [None] * 6]
    assert view["table"]["discard"] == "QS"
    for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 0"), (1, "flip 3")]:
        game.act(seat, text)
    assert game.view(0)["table"]["grids"] == [
        ["AC", None, None, "AS", None, None],
        ["9H", None, None, "8H", None, None],
    ]
    assert str(game.act(0, "draw")) == "draw"
    assert game.view(0)["table"]["held"] == {"seat": 0, "card": "3H"}
    assert game.view(1)["table"]["held"] == {"seat": 0, "card": None}
    game.act(0, "replace 1")
    assert game.view(0)["table"]["discard"] == "KH"
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(0, "draw")
    assert str(info.value) == (
        "it is not seat 0's turn: 'draw' rejected (seats to act: [1]) (CORE-TURN-1)"
    )
    result = cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert result == cardcore.Result(
        winners=(1,), scores=(31.0, 21.0), payouts=None, reason="rounds"
    )
    record = game.record()
    assert len(record["actions"]) == game.version
    assert cardcore.replay(record).result == result


def test_tutorial_out_of_turn_action_changes_nothing():
    game = tutorial_game()
    seen = []
    game.events.subscribe(cardcore.Event, seen.append)
    before = (game.version, json.dumps(game.record()), game.position(), game.view(None))
    for seat, text in [(1, "flip 0"), (0, "draw"), (0, "flip 9"), (0, "fly")]:
        with pytest.raises(cardcore.CardcoreError):
            game.act(seat, text)
    after = (game.version, json.dumps(game.record()), game.position(), game.view(None))
    assert after == before
    assert seen == []


def test_tutorial_cli_play_seed7_deals_the_tutorial_round_and_replays(tmp_path):
    record = tmp_path / "round.json"
    out = cli(
        "play",
        "golf",
        "--seed",
        "7",
        "-o",
        "rounds=1",
        "--record",
        str(record),
        stdin="flip 0\n#1\nquit\n",
    )
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    # Ann's position 0 is the ace of clubs, as in the tutorial; '#1' is then 'flip 1'.
    assert "0:AC" in out.stdout
    assert "1:KH" in out.stdout  # the tutorial's 'replace 1' discards the KH from there
    data = json.loads(record.read_text())
    assert data["seed"] == 7
    assert [a[:2] for a in data["actions"][:2]] == [[0, "flip 0"], [0, "flip 1"]]
    again = cli("replay", str(record), "--final")
    assert again.returncode == 0, again.stderr


# --------------------------------------------------------------------------- embedding


def test_embedding_tonk_start_and_rule_ids():
    game = cardcore.new_game("tonk", ["Ann", "Bob", "Cy"], seed=5)
    assert (game.players, game.to_act, game.version) == (("Ann", "Bob", "Cy"), (1,), 0)
    assert [str(a) for a in game.legal_actions(1)] == game.view(1)["legal"]
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(0, "draw")
    assert info.value.rule_id == "CORE-TURN-1"
    assert game.version == 0
    with pytest.raises(cardcore.NotationError) as bad:
        game.act(1, "fly away")
    assert str(bad.value).startswith("cannot read 'fly away': expected ")
    assert str(bad.value).endswith("(TONK-NOTE-1)")
    assert game.history(0) == [{"kind": "cut", "dealer": 0, "rounds": [["10", "6", "5"]]}]
    assert game.history(0, since=1) == []


def test_embedding_spit_second_play_is_stale():
    spit = started_spit()
    assert spit.to_act == (0, 1)
    assert spit.view(None)["table"]["piles"] == {"L": ["AH"], "R": ["6D"]}
    ann, bob = spit.view(0), spit.view(1)
    assert "play 1 L" in ann["legal"] and "play 3 L" in bob["legal"]
    spit.act(0, "play 1 L", at=1.20, seen=ann["version"])
    with pytest.raises(cardcore.StaleActionError) as info:
        spit.act(1, "play 3 L", at=1.25, seen=bob["version"])
    assert str(info.value) == (
        "'play 3 L' was legal at version 2 but another action came first (now version 3) (CORE-RT-1)"
    )
    record = spit.record()
    assert record["format_version"] == 3
    assert record["actions"] == [[0, "ready", None], [1, "ready", None], [0, "play 1 L", 1.2]]
    assert cardcore.replay(json.dumps(record)).view(None) == spit.view(None)


def test_embedding_threads_race_one_applied_one_stale():
    race = started_spit()

    def send(seat, text):
        try:
            race.act(seat, text, seen=2)
            return "applied"
        except cardcore.StaleActionError:
            return "stale"

    with ThreadPoolExecutor(2) as pool:
        outcomes = sorted(pool.map(send, [0, 1], ["play 1 L", "play 3 L"]))
    assert (outcomes, race.version) == (["applied", "stale"], 3)


def test_embedding_clock_callable_stamps_and_refusals():
    spit = started_spit()
    with pytest.raises(cardcore.IllegalActionError) as info:
        spit.act(0, "play 1 L", at=lambda: "x")
    assert "clock" in str(info.value) and info.value.rule_id == "CORE-RECORD-1"
    assert spit.version == 2

    def broken():
        raise KeyError("clock down")

    with pytest.raises(KeyError):  # "an exception it raises reaches the caller as it is"
        spit.act(0, "play 1 L", at=broken)
    assert spit.version == 2
    spit.act(0, "play 1 L", at=lambda: 5.0)
    assert spit.record()["actions"][-1] == [0, "play 1 L", 5.0]
    with pytest.raises(cardcore.IllegalActionError) as early:
        spit.act(1, spit.view(1)["legal"][0], at=1.0)
    assert early.value.rule_id == "CORE-RECORD-1"
    assert spit.version == 3


def test_embedding_seen_window_in_turn_based_play():
    game = tutorial_game()
    for seat in (0, 1):
        game.act(seat, "flip 0")
        game.act(seat, "flip 3")
    for i in range(cardcore.STALE_WINDOW + 6):
        game.act(game.to_act[0], "take" if i % 2 == 0 else "replace 0")
    old = game.version - cardcore.STALE_WINDOW - 1
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(game.to_act[0], "take", seen=old)
    assert info.value.rule_id == "CORE-RT-3"
    game.act(game.to_act[0], "take", seen=game.version - cardcore.STALE_WINDOW)


def test_embedding_single_thread_and_clone():
    solo = cardcore.new_game("golf", 2, seed=4).single_thread()
    solo.apply(solo.legal_actions(solo.to_act[0])[0])
    assert (solo.version, solo.clone().version) == (1, 1)


def test_embedding_asyncio_queue_of_redacted_events():
    async def serve():
        game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
        outbox = asyncio.Queue()
        game.events.subscribe(cardcore.Event, lambda e: outbox.put_nowait((1, e.to_json())), seat=1)
        for seat, text in [(0, "flip 0"), (0, "flip 4"), (1, "flip 1"), (1, "flip 5"), (0, "draw")]:
            game.act(seat, text)
        sent = []
        while not outbox.empty():
            sent.append(await outbox.get())
        return sent

    sent = asyncio.run(serve())
    assert sent[-1] == (1, {"event": "card-drawn", "seat": 0, "source": "stock", "card": None})


def test_embedding_subscribers_get_the_first_deal():
    log = []
    cardcore.new_game("golf", ["Ann", "Bob"], seed=7, subscribers=[(cardcore.Event, log.append, 1)])
    assert [e.slug for e in log] == ["game-started", "cards-dealt", "card-revealed", "turn-passed"]
    assert log[2].to_json() == {
        "event": "card-revealed",
        "seat": None,
        "zone": "discard",
        "index": 0,
        "card": "QS",
    }


def test_embedding_view_envelope_zones_and_schema():
    game = cardcore.new_game("tonk", ["Ann", "Bob", "Cy"], seed=5)
    view = game.view(0)
    assert sorted(view) == [
        "format", "game", "is_over", "legal", "options", "players", "result",
        "rules", "seat", "table", "to_act", "version", "zones",
    ]  # fmt: skip
    assert (view["format"], view["game"], view["seat"]) == ("cardcore-view/2", "tonk", 0)
    assert cardcore.VIEW_FORMAT == "cardcore-view/2"
    assert game.view(None)["legal"] == []
    zones = {z["name"]: z for z in view["zones"]}
    hand = zones["hand.0"]
    assert sorted(hand) == ["cards", "count", "name", "owner", "visibility"]
    assert (hand["owner"], hand["visibility"]) == (0, "owner")
    assert None not in hand["cards"] and set(zones["hand.1"]["cards"]) == {None}
    # "in the same order in every view of a game"
    names = [[z["name"] for z in game.view(s)["zones"]] for s in (0, 1, 2, None)]
    assert names[0] == names[1] == names[2] == names[3]
    schema = game.view_schema()
    assert sorted(schema) == ["fields", "game", "zones"]
    assert sorted(f["name"] for f in schema["fields"]) == sorted(view["table"])
    for field in schema["fields"]:
        assert field["kind"] in cardcore.FIELD_KINDS


def test_embedding_face_up_hand_listed_sorted_by_rank():
    order = {
        r: i
        for i, r in enumerate(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
    }
    shown = 0
    for seed in range(1, 4):
        game = cardcore.new_game("tonk", 2, seed=seed)
        cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
        for zone in game.view(None)["zones"]:
            if zone["visibility"] == "owner" and zone["cards"] and None not in zone["cards"]:
                ranks = [order[c[:-1]] for c in zone["cards"]]
                assert ranks == sorted(ranks), zone
                shown += 1
    assert shown  # at least one hand was shown face up (a drop shows the hands)


def test_embedding_save_load_and_tampered_save():
    game = cardcore.new_game("tonk", ["Ann", "Bob", "Cy"], seed=5)
    text = json.dumps(game.save())
    again = cardcore.load(text)
    assert again.version == game.version and again.view(0) == game.view(0)
    data = json.loads(text)
    data["state"]["zones"]["stock"]["cards"][0] = "JK"
    with pytest.raises(cardcore.CorruptStateError) as info:
        cardcore.load(data)
    assert str(info.value).startswith("saved game does not account for every card (missing [")
    assert str(info.value).endswith("extra ['JK'])")


def test_embedding_position_clone_and_record_extra_field():
    spit = started_spit()
    spit.act(0, "play 1 L", at=1.2)
    here = spit.position()
    there = cardcore.new_game("spit", ["Ann", "Bob"], position=here, seed=5)
    assert there.view(0)["legal"] == spit.view(0)["legal"]
    assert there.view(None)["zones"] == spit.view(None)["zones"]
    assert (there.version, there.record()["position"] == here) == (0, True)
    branch = spit.clone()
    branch.act(0, branch.view(0)["legal"][0])
    assert (branch.version, spit.version) == (4, 3)
    record = spit.record()
    record["note"] = "added by a tool"
    assert cardcore.replay(record).version == spit.version
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game("spit", ["Ann", "Bob"], position="not a position", seed=5)


def test_embedding_resign_and_host_end():
    game = cardcore.new_game("tonk", ["Ann", "Bob", "Cy"], seed=5)
    game.act(2, "resign")
    assert (game.is_over, game.result.reason) == (True, "resigned")
    golf = cardcore.new_game("golf", 2, seed=3)
    with pytest.raises(cardcore.IllegalActionError) as info:
        golf.act(0, "end")
    assert info.value.rule_id == "CORE-END-1"
    golf.act(cardcore.HOST, "end")
    assert golf.is_over and golf.result.reason == "ended"
    assert golf.record()["actions"][-1][:2] == [cardcore.HOST, "end"]


def test_embedding_own_loop_is_truncated_at_the_action_bound():
    game = tutorial_game()
    ended = []
    game.events.subscribe(
        cardcore.Event, lambda e: ended.append(game.version) if e.slug == "game-ended" else None
    )
    for seat in (0, 1):
        game.act(seat, "flip 0")
        game.act(seat, "flip 3")
    bound = game.logic.action_bound(len(game.players), game.options)
    # take the discard and put it back at position 0, forever: the round never ends by rule
    while not game.is_over:
        game.act(
            game.to_act[0], "take" if game.view(None)["table"]["held"] is None else "replace 0"
        )
    assert game.version == bound
    assert game.result.reason == "truncated"
    assert ended == [bound]
    assert cardcore.replay(game.record()).result == game.result


def test_embedding_handler_errors_on_error_and_drop(caplog):
    game = tutorial_game()
    failures, got = [], []
    game.events.on_error = failures.append

    def bad(event):
        raise RuntimeError("connection dropped")

    game.events.subscribe(cardcore.Event, bad, drop_on_error=True)
    game.events.subscribe(cardcore.Event, got.append)
    game.act(0, "flip 0")
    game.act(0, "flip 1")
    assert len(failures) == 1
    assert isinstance(failures[0], cardcore.events.DeliveryFailure)
    assert got  # the other handler kept its events
    assert game.clone().events.on_error is None


def test_embedding_handler_that_acts_is_queued_in_version_order():
    game = tutorial_game()
    seen = []

    def handler(event):
        seen.append(event.to_json())
        if event.slug == "action-applied" and len(seen) == 1:
            game.act(0, "flip 1")  # from the first event of version 1's batch

    game.events.subscribe(cardcore.Event, handler)
    game.act(0, "flip 0")
    assert game.version == 2
    # version 1's batch is delivered whole before version 2's, not interleaved
    shape = [(e["event"], e.get("version", e.get("index"))) for e in seen[:4]]
    assert shape == [
        ("action-applied", 1),
        ("card-revealed", 0),
        ("action-applied", 2),
        ("card-revealed", 1),
    ]


def test_embedding_default_actions_for_timeouts():
    golf = cardcore.new_game("golf", 2, seed=3)
    first = golf.logic.default_action(golf.state, 0)
    assert str(first).startswith("flip ") and first in golf.legal_actions(0)
    tonk = cardcore.new_game("tonk", 2, seed=5)
    seat = tonk.to_act[0]
    draw = tonk.logic.default_action(tonk.state, seat)
    assert str(draw) == "draw" and draw in tonk.legal_actions(seat)
    tonk.apply(draw)
    then = tonk.logic.default_action(tonk.state, seat)
    assert str(then).startswith("discard ") and then in tonk.legal_actions(seat)


def test_embedding_simulate_same_summary_with_an_executor():
    here = cardcore.simulate("golf", games=6, players=2, seed=1, options={"rounds": 1})
    with ThreadPoolExecutor(2) as pool:
        there = cardcore.simulate(
            "golf", games=6, players=2, seed=1, options={"rounds": 1}, executor=pool, chunk=2
        )
    assert here == there and here.games == 6 and here.agents == ("random", "random")


# --------------------------------------------------------------------------- agents


def test_agents_play_turn_based_and_truncate():
    assert isinstance(FirstLegal(), cardcore.Agent)
    game = cardcore.new_game("tonk", 3, seed=4)
    result = cardcore.play(game, [FirstLegal(), cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert game.is_over and result is game.result
    golf = cardcore.new_game("golf", 2, seed=4)
    assert cardcore.play(golf, [FirstLegal(), FirstLegal()], max_actions=5).reason == "truncated"


def test_agents_play_refuses_bad_answers_naming_seat_and_class():
    class Text:
        def choose(self, view, legal):
            return "flip 0"

    class Usurper:
        def choose(self, view, legal):
            return cardcore.Resign(seat=1 - view["seat"])

    with pytest.raises(cardcore.IllegalActionError) as info:
        cardcore.play(cardcore.new_game("golf", 2, seed=1), [Text(), Text()])
    assert "seat 0" in str(info.value) and "Text" in str(info.value)
    with pytest.raises(cardcore.IllegalActionError) as other:
        cardcore.play(cardcore.new_game("golf", 2, seed=1), [Usurper(), Usurper()])
    assert "seat 0" in str(other.value) and "Usurper" in str(other.value)


def test_agents_exception_in_agent_reaches_caller_as_is_game_unchanged():
    class Boom:
        def choose(self, view, legal):
            raise ValueError("boom")

    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(ValueError, match="boom"):
        cardcore.play(game, [Boom(), Boom()])
    assert game.version == 0


def test_agents_play_refuses_real_time_games():
    class PlanOnly:
        def plan(self, view, legal, now):
            return None

    with pytest.raises(cardcore.ArgumentError, match="choose"):
        cardcore.play(cardcore.new_game("spit", 2, seed=1), [PlanOnly(), PlanOnly()])
    with pytest.raises(cardcore.OptionError, match="run_realtime"):
        cardcore.play(
            cardcore.new_game("spit", 2, seed=1), [cardcore.RandomAgent(1), cardcore.RandomAgent(2)]
        )


def test_agents_run_realtime_speed_and_quick():
    speed = cardcore.new_game("speed", ["Ann", "Bob"], seed=3)
    bot = cardcore.load_agent("spit-greedy")
    cardcore.run_realtime(speed, [bot(seed=1), bot(seed=2)], seed=5)
    assert speed.is_over and all(at is not None for _, _, at in speed.record()["actions"])

    class Quick:
        def __init__(self, delay):
            self.delay = delay

        def plan(self, view, legal, now):
            return cardcore.Plan(legal[0], self.delay) if legal else None

    assert isinstance(Quick(0.4), cardcore.RealtimeAgent)
    speed = cardcore.new_game("speed", ["Ann", "Bob"], seed=3)
    cardcore.run_realtime(speed, [Quick(0.4), Quick(0.6)], seed=1)
    assert speed.is_over


def test_agents_run_realtime_stalls_and_bad_plans():
    class Nothing:
        def plan(self, view, legal, now):
            return None

    with pytest.raises(cardcore.StalledGameError, match="CORE-RT-2"):
        cardcore.run_realtime(cardcore.new_game("speed", 2, seed=3), [Nothing(), Nothing()], seed=1)

    class Forever:
        def plan(self, view, legal, now):
            return cardcore.Plan(legal[0], math.inf) if legal else None

    with pytest.raises(cardcore.CardcoreError) as info:
        cardcore.run_realtime(cardcore.new_game("speed", 2, seed=3), [Forever(), Forever()], seed=1)
    assert "seat 0" in str(info.value) and "Forever" in str(info.value)

    class Usurper:
        def plan(self, view, legal, now):
            return cardcore.Plan(cardcore.Resign(seat=1 - view["seat"]), 0.1)

    with pytest.raises(cardcore.IllegalActionError):
        cardcore.run_realtime(cardcore.new_game("speed", 2, seed=3), [Usurper(), Usurper()], seed=1)


def test_agents_run_realtime_max_actions_is_not_a_pause():
    speed = cardcore.new_game("speed", 2, seed=3)
    bot = cardcore.load_agent("spit-greedy")
    result = cardcore.run_realtime(speed, [bot(seed=1), bot(seed=2)], seed=5, max_actions=3)
    assert result.reason == "truncated" and speed.version == 3
    again = cardcore.run_realtime(speed, [bot(seed=1), bot(seed=2)], seed=5)
    assert again.reason == "truncated" and speed.version == 3


def test_agents_run_realtime_start_before_last_time_starts_there():
    spit = cardcore.new_game("spit", ["Ann", "Bob"], deck=SPIT_DECK, seed=2)
    spit.act(0, "ready", at=10.0)
    spit.act(1, "ready", at=10.0)
    bot = cardcore.load_agent("spit-greedy")
    cardcore.run_realtime(spit, [bot(seed=1), bot(seed=2)], seed=5, start=0.0, max_actions=6)
    times = [at for _, _, at in spit.record()["actions"]]
    assert len(times) > 2 and all(at >= 10.0 for at in times)
    assert times == sorted(times)


class _BrokenGolfer:
    """Plays golf; fails on its fourth move (for simulate's error naming)."""

    games = ("golf",)

    def __init__(self, seed=0):
        self.moves = 0

    def choose(self, view, legal):
        self.moves += 1
        if self.moves > 3:
            raise ValueError("agent bug")
        return legal[0]


def test_agents_simulate_names_a_failing_agent_with_seat_game_and_seed():
    cardcore.register("cardcore.agents", "newuser-broken", _BrokenGolfer)
    try:
        with pytest.raises(cardcore.CardcoreError) as info:
            cardcore.simulate(
                "golf", games=2, players=2, agents=["newuser-broken", "random"], seed=4
            )
        text = str(info.value)
        assert "seat 0" in text and "golf game 0" in text and "seed" in text
        assert isinstance(info.value.__cause__, ValueError)
        with pytest.raises(cardcore.OptionError, match="plays golf, not 'tonk'"):
            cardcore.simulate("tonk", games=1, players=2, agents=["newuser-broken", "random"])
    finally:
        cardcore.unregister("cardcore.agents", "newuser-broken")
    assert "newuser-broken" not in cardcore.available_agents()


def test_agents_found_by_name_and_bounds():
    assert "random" in cardcore.available_agents()
    assert cardcore.load_agent("random") is cardcore.RandomAgent
    assert cardcore.load_agent("tonk-heuristic").__name__ == "TonkHeuristicAgent"
    assert cardcore.load_agent("golf-greedy").games == ("golf",)
    with pytest.raises(cardcore.OptionError, match="agent 'golf-greedy' plays golf, not 'tonk'"):
        cardcore.simulate("tonk", games=2, players=2, agents=["golf-greedy", "random"])
    assert cardcore.load_agent("tonk-heuristic").parameter_bounds["samples"] == (1, 10000)
    for bad in (10**9, True, math.nan, "10"):
        with pytest.raises(cardcore.OptionError, match="samples"):
            cardcore.load_agent("tonk-heuristic", samples=bad)
    with pytest.raises(cardcore.OptionError, match="seed"):
        cardcore.load_agent("golf-greedy", seed=-1)


def test_agents_determinize_and_position_world():
    game = cardcore.new_game("golf", 2, seed=8)
    twin = game.determinize(0, seed=1)
    assert twin.view(0) == game.view(0)
    with pytest.raises(cardcore.CardcoreError):
        twin.save()
    world = cardcore.new_game("golf", 2, position=twin.position(), seed=12345)
    assert world.view(0)["legal"] == game.view(0)["legal"]


def test_agents_cli_list_game_shows_only_its_agents():
    out = cli("list", "golf")
    assert out.returncode == 0, out.stderr
    assert "golf-greedy" in out.stdout
    assert "tonk-heuristic" not in out.stdout and "spit-greedy" not in out.stdout


# --------------------------------------------------------------------------- mistakes


@pytest.mark.parametrize(
    ("make", "error", "needle"),
    [
        (lambda: cardcore.new_game("glof", 2), cardcore.CardcoreError, "glof"),
        (lambda: cardcore.new_game("golf", 1), cardcore.OptionError, "CORE-SEAT-2"),
        (lambda: cardcore.new_game("tonk", 5), cardcore.OptionError, "TONK-GEN-1"),
        (lambda: cardcore.new_game("spit", 3), cardcore.OptionError, "2"),
        (lambda: cardcore.new_game("golf", 2, options={"roundz": 1}), cardcore.OptionError, "rounds"),
        (lambda: cardcore.new_game("golf", 2, options={"rounds": "3"}), cardcore.OptionError, "rounds"),
        (lambda: cardcore.new_game("golf", 2, rules=["golf.jokerz"]), cardcore.CardcoreError, "golf.jokers"),
        (lambda: cardcore.new_game("golf", 2, rules="golf.jokers"), cardcore.CardcoreError, "list"),
        (lambda: cardcore.new_game("golf", 2, seed=-1), cardcore.OptionError, "seed"),
        (lambda: cardcore.Card.parse("1H"), cardcore.NotationError, "10H"),
        (lambda: cardcore.load_agent("randm"), cardcore.CardcoreError, "random"),
        (lambda: cardcore.simulate("golf", games=0), cardcore.OptionError, "games"),
        (lambda: cardcore.replay("not json"), cardcore.CorruptStateError, "JSON"),
    ],
)  # fmt: skip
def test_mistakes_python_setup_errors_are_cardcore_errors(make, error, needle):
    with pytest.raises(error) as info:
        make()
    assert needle in str(info.value)


@pytest.mark.parametrize(
    ("seat", "text", "error", "rule"),
    [
        (0, "flp 0", cardcore.NotationError, "GOLF-NOTE-1"),
        (0, "", cardcore.NotationError, "GOLF-NOTE-1"),
        (1, "flip 0", cardcore.IllegalActionError, "CORE-TURN-1"),
        (5, "flip 0", cardcore.CardcoreError, "CORE-SEAT-1"),
        (0, "flip 9", cardcore.IllegalActionError, "GOLF-TURN-4"),
        (0, "draw", cardcore.IllegalActionError, "GOLF-DEAL-4"),
    ],
)
def test_mistakes_actions_are_refused_with_rule_ids(seat, text, error, rule):
    game = tutorial_game()
    with pytest.raises(error) as info:
        game.act(seat, text)
    assert info.value.rule_id == rule
    assert game.version == 0


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("play", "glof"), "glof"),
        (("play", "golf", "--players", "1"), "CORE-SEAT-2"),
        (("play", "tonk", "-p", "5"), "TONK-GEN-1"),
        (("play", "golf", "-o", "roundz=1"), "rounds"),
        (("play", "golf", "--rules", "golf.jokerz"), "golf.jokers"),
        (("simulate", "golf", "--games", "0"), "--games"),
        (("replay", "no-such-record.json"), "no-such-record.json"),
    ],
)
def test_mistakes_cli_exit_2_with_one_clear_line(args, needle, tmp_path):
    out = cli(*args, cwd=tmp_path)
    assert out.returncode == 2
    assert "Traceback" not in out.stdout + out.stderr
    assert out.stderr.startswith("error: ") and needle in out.stderr
    assert list(tmp_path.iterdir()) == []  # nothing saved


def test_mistakes_cli_play_typo_and_bad_menu_number_keep_the_game_going():
    out = cli(
        "play", "golf", "--seed", "7", "-o", "rounds=1", "--no-record",
        stdin="flp 0\n#99\nflip 9\nresign\n",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    assert "GOLF-NOTE-1" in out.stdout  # the typo
    assert "#1 to #6" in out.stdout  # the bad menu number
    assert "GOLF-TURN-4" in out.stdout  # position 9
    assert "you: resign" in out.stdout


# --------------------------------------------------------------------------- defects


def test_defect_play_with_agent_of_another_game_is_option_error():
    golfer = cardcore.load_agent("golf-greedy")(seed=1)
    with pytest.raises(cardcore.OptionError):
        cardcore.play(cardcore.new_game("tonk", 2, seed=1), [golfer, cardcore.RandomAgent(1)])


def test_defect_run_realtime_refuses_a_negative_seed():
    speed = cardcore.new_game("speed", 2, seed=4)
    bot = cardcore.load_agent("spit-greedy")
    with pytest.raises(cardcore.OptionError, match="seed"):
        cardcore.run_realtime(speed, [bot(seed=1), bot(seed=2)], seed=-1)
    assert speed.version == 0


def test_defect_zero_players_message_names_the_games_range():
    with pytest.raises(cardcore.OptionError) as info:
        cardcore.new_game("golf", 0)
    assert "2 to 64" in str(info.value)
