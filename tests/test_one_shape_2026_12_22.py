"""One game shape: the same public operations on every installed game (2026-12-22).

A table-driven sweep: golf (every layout, and house rules), tonk, spit, speed and
the third-party example gofish get the same calls, and where the core promises the
same flow they must behave the same way. Every game is driven by a fixed-seed
``random.Random`` choosing among the legal actions, so nothing depends on a
random deal. Strict xfails mark where one game deviates from the others.
"""

from __future__ import annotations

import json
import random
import warnings
from functools import cache
from typing import Any

import pytest

import cardcore
from cardcore import (
    ActionApplied,
    CardsDealt,
    EndMatch,
    Event,
    GameEnded,
    IllegalActionError,
    NotationError,
    Resign,
    SeatError,
    TurnPassed,
    load,
    new_game,
    replay,
)

# key -> (game, players, keyword arguments of new_game)
CONFIGS: dict[str, tuple[str, int, dict[str, Any]]] = {
    "golf-4": ("golf", 2, {"options": {"layout": 4, "rounds": 1}}),
    "golf-4h": ("golf", 2, {"options": {"layout": "4h", "rounds": 1}}),
    "golf-6": ("golf", 2, {"options": {"rounds": 2}}),
    "golf-8": ("golf", 3, {"options": {"layout": 8, "rounds": 1}}),
    "golf-9": ("golf", 2, {"options": {"layout": 9, "rounds": 1}}),
    "golf-10": ("golf", 2, {"options": {"layout": 10, "rounds": 1}}),
    "golf-house": ("golf", 2, {"options": {"rounds": 1}, "rules": ["golf.jokers", "golf.hard"]}),
    "golf-4-house": (
        "golf",
        2,
        {"options": {"layout": 4, "rounds": 1}, "rules": ["golf.no-cancelling"]},
    ),
    "tonk": ("tonk", 2, {}),
    "tonk-3-hands": ("tonk", 3, {"without": ["tonk.natural-49-50"], "options": {"hands": 3}}),
    "spit": ("spit", 2, {}),
    "spit-canfield": ("spit", 2, {"rules": ["spit.canfield"]}),
    "speed": ("speed", 2, {}),
    "gofish": ("gofish", 3, {}),
}
KEYS = list(CONFIGS)
REALTIME = {"spit", "spit-canfield", "speed"}
TURN_BASED = [k for k in KEYS if k not in REALTIME]
SEED = 11
STEPS = 60  # actions per sampled line of play

ENVELOPE = {
    "format": str,
    "game": str,
    "version": int,
    "seat": (int, type(None)),
    "players": list,
    "to_act": list,
    "is_over": bool,
    "result": (dict, type(None)),
    "rules": list,
    "options": dict,
    "legal": list,
    "zones": list,
    "table": dict,
}


def start(key: str, **extra: Any) -> cardcore.Game:
    name, players, kw = CONFIGS[key]
    return new_game(name, players, seed=SEED, **kw, **extra)


def step(game: cardcore.Game, rng: random.Random, at: float | None = None) -> None:
    seats = [s for s in game.to_act if game.legal_actions(s)]
    assert seats, f"nobody may act in {game.name} at version {game.version}"
    seat = rng.choice(seats)
    game.apply(rng.choice(game.legal_actions(seat)), at=at)


@cache
def line(key: str) -> tuple[str, ...]:
    """Notation of a fixed-seed line of play (up to STEPS actions), as (seat, text) JSON."""
    game = start(key)
    rng = random.Random(3)
    while not game.is_over and game.version < STEPS:
        step(game, rng, at=float(game.version))
    return tuple(json.dumps([seat, str(action), at]) for seat, action, at in game.record_entries())


def states(key: str) -> list[cardcore.Game]:
    """Clones of the game after each action of its line (the start included)."""
    game = start(key)
    out = [game.clone()]
    for entry in line(key):
        seat, text, at = json.loads(entry)
        game.act(seat, text, at=at)
        out.append(game.clone())
    return out


def live(key: str) -> cardcore.Game:
    """A running game a few actions in (the last running one of the first five states)."""
    return [g for g in states(key)[:5] if not g.is_over][-1]


def seats_of(game: cardcore.Game) -> list[int | None]:
    return [None, *range(len(game.players))]


def views(game: cardcore.Game) -> list[dict[str, Any]]:
    return [game.view(seat) for seat in seats_of(game)]


@cache
def finished(key: str) -> str:
    """A record (JSON) of the game played by the fixed-seed driver to its end by rule."""
    game = start(key)
    rng = random.Random(5)
    while not game.is_over and game.version < 2500:
        step(game, rng)
    if not game.is_over:  # Spit's random play can circle; a greedy agent ends it
        game = start(key)
        cardcore.run_realtime(
            game, [cardcore.load_agent("spit-greedy", seed=s) for s in range(2)], seed=1
        )
    assert (
        game.is_over
        and game.result is not None
        and game.result.reason not in ("truncated", "resigned", "ended")
    )
    return json.dumps(game.record())


def ended_games(key: str) -> list[tuple[str, cardcore.Game]]:
    over = replay(json.loads(finished(key)))
    resigned = start(key)
    resigned.act(1, "resign")
    host = start(key)
    host.act(cardcore.HOST, "end")
    return [("rule", over), ("resign", resigned), ("end", host)]


KIND = {
    "int": lambda v: type(v) is int,
    "float": lambda v: type(v) in (int, float),
    "str": lambda v: type(v) is str,
    "bool": lambda v: type(v) is bool,
    "card": lambda v: v is None or type(v) is str,
    "cards": lambda v: type(v) is list and all(c is None or type(c) is str for c in v),
    "seat": lambda v: v is None or type(v) is int,
    "json": lambda v: True,
    "per-seat": lambda v: type(v) is list,
}


# ---------------------------------------------------------------- views and schema


@pytest.mark.parametrize("key", KEYS)
def test_view_envelope_same_keys_and_types_every_game(key: str) -> None:
    for game in states(key)[::6] + [g for _, g in ended_games(key)]:
        for seat, view in zip(seats_of(game), views(game), strict=True):
            assert set(view) == set(ENVELOPE)
            for name, kind in ENVELOPE.items():
                assert isinstance(view[name], kind), (name, view[name])
            assert view["format"] == cardcore.VIEW_FORMAT
            assert view["game"] == CONFIGS[key][0]
            assert view["seat"] == seat
            assert view["version"] == game.version
            assert view["to_act"] == list(game.to_act)
            assert view["is_over"] is game.is_over
            assert (view["result"] is None) is (game.result is None)
            assert view["legal"] == (
                [str(a) for a in game.legal_actions(seat)] if seat is not None else []
            )
            assert [z["name"] for z in view["zones"]] == [
                z["name"] for z in game.view_schema()["zones"]
            ]
            for zone in view["zones"]:
                assert {"name", "owner", "visibility", "count", "cards"} <= set(zone)
                assert len(zone["cards"]) == zone["count"]


@pytest.mark.parametrize("key", KEYS)
def test_table_holds_every_declared_field_of_its_kind(key: str) -> None:
    schema = states(key)[0].view_schema()
    assert sorted(schema) == ["fields", "game", "zones"]
    fields = {f["name"]: f for f in schema["fields"]}
    n = CONFIGS[key][1]
    nullable = {f.name for f in cardcore.game_info(CONFIGS[key][0]).fields if f.nullable}
    for game in states(key)[::3] + [g for _, g in ended_games(key)]:
        assert game.view_schema() == schema
        for view in views(game):
            assert set(view["table"]) == set(fields)
            for name, field in fields.items():
                value = view["table"][name]
                if value is None and name in nullable:
                    continue
                assert KIND[field["kind"]](value), (name, field["kind"], value)
                if field["kind"] == "per-seat":
                    assert len(value) == n, name
                    assert all(KIND[field["of"]](v) for v in value if v is not None), name
                if field["kind"] == "seat" and value is not None:
                    assert 0 <= value < n, name


# ---------------------------------------------------------------- legal actions and notation


@pytest.mark.parametrize("key", KEYS)
def test_legal_actions_empty_for_seats_not_to_act(key: str) -> None:
    for game in states(key):
        for seat in range(len(game.players)):
            if seat not in game.to_act:
                assert game.legal_actions(seat) == ()
        assert any(game.legal_actions(s) for s in game.to_act) or game.is_over


@pytest.mark.parametrize("key", KEYS)
def test_notation_round_trip_of_every_legal_action(key: str) -> None:
    checked = 0
    for game in states(key)[::2]:
        for seat in game.to_act:
            for action in game.legal_actions(seat):
                text = str(action)
                assert text == action.notation()
                assert game.clone().act(seat, text) == action
                checked += 1
    assert checked >= 5


@pytest.mark.parametrize("key", KEYS)
def test_notation_case_and_whitespace_tolerated_alike(key: str) -> None:
    for game in states(key)[::5]:
        for seat in game.to_act:
            for action in game.legal_actions(seat)[:6]:
                text = str(action)
                for variant in (
                    text.upper(),
                    text.title(),
                    f"  {text}\t",
                    text.replace(" ", "   "),
                ):
                    assert game.clone().act(seat, variant) == action, variant
    game = states(key)[0]
    for seat in (0, 1):
        for text in ("RESIGN", " Resign ", "resign\t"):
            assert game.clone().act(seat, text) == Resign(seat)
    assert game.clone().act(cardcore.HOST, " END ") == EndMatch()


# ---------------------------------------------------------------- the same mistake, the same error

MISTAKES = [
    "seat-out-of-range",
    "negative-seat",
    "bool-seat",
    "unknown-verb",
    "empty-text",
    "seen-too-new",
    "seen-negative",
    "seen-bool",
    "seen-str",
    "not-an-action",
    "player-sends-end",
    "host-resigns",
    "view-seat-out-of-range",
    "legal-bool-seat",
    "resign-bool-seat",
    "resign-seat-out-of-range",
    "end-match-by-a-seat",
    "time-not-finite",
]


def mistake(game: cardcore.Game, kind: str) -> None:
    seat = game.to_act[0]
    text = str(game.legal_actions(seat)[0])
    n = len(game.players)
    calls = {
        "seat-out-of-range": lambda: game.act(n, text),
        "negative-seat": lambda: game.act(-2, text),
        "bool-seat": lambda: game.act(True, text),
        "unknown-verb": lambda: game.act(seat, "frobnicate 3"),
        "empty-text": lambda: game.act(seat, ""),
        "seen-too-new": lambda: game.act(seat, text, seen=game.version + 5),
        "seen-negative": lambda: game.act(seat, text, seen=-1),
        "seen-bool": lambda: game.act(seat, text, seen=True),
        "seen-str": lambda: game.act(seat, text, seen="0"),
        "not-an-action": lambda: game.apply(text),  # type: ignore[arg-type]
        "player-sends-end": lambda: game.act(seat, "end"),
        "host-resigns": lambda: game.act(cardcore.HOST, "resign"),
        "view-seat-out-of-range": lambda: game.view(n),
        "legal-bool-seat": lambda: game.legal_actions(True),
        "resign-bool-seat": lambda: game.apply(Resign(True)),
        "resign-seat-out-of-range": lambda: game.apply(Resign(n)),
        "end-match-by-a-seat": lambda: game.apply(EndMatch(seat)),
        "time-not-finite": lambda: game.act(seat, text, at=float("nan")),
    }
    calls[kind]()


EXPECTED = {
    "seat-out-of-range": (SeatError, "CORE-SEAT-1"),
    "negative-seat": (SeatError, "CORE-SEAT-1"),
    "bool-seat": (SeatError, "CORE-SEAT-1"),
    "unknown-verb": (NotationError, None),
    "empty-text": (NotationError, None),
    "seen-too-new": (IllegalActionError, "CORE-RT-3"),
    "seen-negative": (IllegalActionError, "CORE-RT-3"),
    "seen-bool": (IllegalActionError, "CORE-RT-3"),
    "seen-str": (IllegalActionError, "CORE-RT-3"),
    "not-an-action": (IllegalActionError, "CORE-ACTION-1"),
    "player-sends-end": (IllegalActionError, "CORE-END-1"),
    "host-resigns": (SeatError, "CORE-SEAT-1"),
    "view-seat-out-of-range": (SeatError, "CORE-SEAT-1"),
    "legal-bool-seat": (SeatError, "CORE-SEAT-1"),
    "resign-bool-seat": (SeatError, "CORE-SEAT-1"),
    "resign-seat-out-of-range": (SeatError, "CORE-SEAT-1"),
    "end-match-by-a-seat": (IllegalActionError, "CORE-END-1"),
    "time-not-finite": (IllegalActionError, "CORE-RECORD-1"),
}


@pytest.mark.parametrize("kind", MISTAKES)
@pytest.mark.parametrize("key", KEYS)
def test_same_mistake_same_error_every_game(key: str, kind: str) -> None:
    game = live(key)
    before = (game.version, views(game), game.record())
    with pytest.raises(EXPECTED[kind][0]) as info:
        mistake(game, kind)
    rule = info.value.rule_id
    assert rule is not None
    assert str(info.value).endswith(f"({rule})")
    if EXPECTED[kind][1] is not None:
        assert rule == EXPECTED[kind][1]
    else:  # notation: the game's own NOTE rule or the core's
        assert rule == "CORE-NOTATION-1" or rule.endswith("-NOTE-1"), rule
    assert (game.version, views(game), game.record()) == before


@pytest.mark.parametrize("key", TURN_BASED)
def test_out_of_turn_cites_core_turn_1_every_turn_based_game(key: str) -> None:
    for game in states(key)[::7]:
        if game.is_over:
            continue
        seat = game.to_act[0]
        other = next(s for s in range(len(game.players)) if s not in game.to_act)
        text = str(game.legal_actions(seat)[0])
        with pytest.raises(IllegalActionError) as info:
            game.clone().act(other, text)
        assert info.value.rule_id == "CORE-TURN-1"
        assert str(info.value).endswith("(CORE-TURN-1)")
        assert repr(text) in str(info.value)


@pytest.mark.parametrize("key", KEYS)
def test_finished_game_refuses_everything_with_core_over_1(key: str) -> None:
    for how, game in ended_games(key):
        for seat, text in [(0, "resign"), (1, "resign"), (cardcore.HOST, "end")]:
            with pytest.raises(IllegalActionError) as info:
                game.act(seat, text)
            assert info.value.rule_id == "CORE-OVER-1", how
            assert str(info.value).endswith("(CORE-OVER-1)")


# ---------------------------------------------------------------- ends and results


@pytest.mark.parametrize("key", KEYS)
def test_game_end_consistency_and_result_shape(key: str) -> None:
    name, n, _ = CONFIGS[key]
    for how, game in ended_games(key):
        result = game.result
        assert game.is_over and result is not None, how
        assert game.to_act == ()
        assert all(game.legal_actions(s) == () for s in range(n))
        assert len(result.scores) == n and all(isinstance(s, float) for s in result.scores)
        assert set(result.winners) <= set(range(n)) and list(result.winners) == sorted(
            result.winners
        )
        if name == "tonk":
            assert (
                result.payouts is not None and len(result.payouts) == n and sum(result.payouts) == 0
            )
        else:
            assert result.payouts is None
        for view in views(game):
            assert view["is_over"] is True and view["to_act"] == [] and view["legal"] == []
            assert view["result"]["winners"] == list(result.winners)
            assert view["result"]["reason"] == result.reason


@pytest.mark.parametrize("key", KEYS)
def test_resign_and_end_match_same_result_and_record_every_game(key: str) -> None:
    _name, n, _ = CONFIGS[key]
    game = live(key)
    for seat in range(n):  # any seat, also one not to act
        g = game.clone()
        g.apply(Resign(seat))
        assert g.result is not None and g.result.reason == "resigned"
        assert seat not in g.result.winners
        assert set(g.result.winners) == set(range(n)) - {seat}
        assert g.record()["actions"][-1] == [seat, "resign", None]
        assert g.version == game.version + 1
    g = game.clone()
    g.apply(EndMatch())
    assert g.result is not None and g.result.reason == "ended" and g.result.winners
    assert g.record()["actions"][-1] == [cardcore.HOST, "end", None]
    again = replay(g.record())
    assert again.result == g.result and views(again) == views(g)


# ---------------------------------------------------------------- records, saves, clones


@pytest.mark.parametrize("key", KEYS)
def test_record_replay_and_save_load_give_an_equal_game(key: str) -> None:
    for game in [*states(key)[::20], *(g for _, g in ended_games(key))]:
        record = json.loads(json.dumps(game.record()))
        saved = json.loads(json.dumps(game.save()))
        assert record["format"] == "cardcore-record" and record["game"] == CONFIGS[key][0]
        assert saved["format"] == "cardcore-save"
        assert {"actions", "seed", "rules", "options", "players", "format_version"} <= set(record)
        assert len(record["actions"]) == game.version
        assert all(len(entry) == 3 for entry in record["actions"])
        for other in (replay(record), load(saved)):
            assert other.version == game.version
            assert other.rules == game.rules and other.options == game.options
            assert views(other) == views(game)
            assert other.history(None) == game.history(None)
            assert other.result == game.result and other.to_act == game.to_act
            assert other.record() == game.record()


@pytest.mark.parametrize("key", KEYS)
def test_clone_is_independent(key: str) -> None:
    game = live(key)
    before = (game.version, views(game), game.history(None), game.record())
    copy = game.clone()
    assert views(copy) == before[1]
    step(copy, random.Random(1), at=1e6)
    if not copy.is_over:
        copy.act(0, "resign")
    assert (game.version, views(game), game.history(None), game.record()) == before
    assert not game.is_over and copy.is_over


# ---------------------------------------------------------------- history


@pytest.mark.parametrize("key", KEYS)
def test_history_is_json_and_same_for_every_seat_and_since(key: str) -> None:
    over = replay(json.loads(finished(key)))
    full = over.history(None)
    assert json.loads(json.dumps(full)) == full
    assert all(isinstance(entry, dict) for entry in full)
    for seat in range(len(over.players)):
        assert over.history(seat) == full  # all of it was public when it happened
    for since in range(len(full) + 1):
        assert over.history(None, since) == full[since:]
    for since in (-1, True, "1"):
        with pytest.raises(IllegalActionError):
            over.history(None, since)  # type: ignore[arg-type]
    assert over.view("spectator") == over.view(None)


@pytest.mark.parametrize(
    "key", ["golf-4", "golf-6", "golf-8", "golf-house", "tonk", "tonk-3-hands"]
)
def test_history_one_entry_per_scored_round(key: str) -> None:
    evs: list[Event] = []
    over = start(key, subscribers=[(Event, evs.append)])
    for entry in json.loads(finished(key))["actions"]:
        over.act(entry[0], entry[1], at=entry[2])
    rounds = [e for e in over.history(None) if e.get("kind", "hand") == "hand"]
    scored = [e for e in evs if e.slug in ("round-scored", "hand-ended")]
    assert len(rounds) == len(scored) >= 1


# ---------------------------------------------------------------- events


def events_of(key: str) -> tuple[cardcore.Game, list[Event]]:
    evs: list[Event] = []
    game = start(key, subscribers=[(Event, evs.append)])
    for entry in line(key):
        seat, text, at = json.loads(entry)
        game.act(seat, text, at=at)
    if not game.is_over:
        game.act(0, "resign")
    return game, evs


@pytest.mark.parametrize("key", KEYS)
def test_action_applied_numbered_in_version_order(key: str) -> None:
    game, evs = events_of(key)
    applied = [e for e in evs if isinstance(e, ActionApplied)]
    assert [e.version for e in applied] == list(range(1, game.version + 1))
    assert [[e.seat, e.action, e.at] for e in applied] == game.record()["actions"]
    assert evs[0].slug == "game-started"
    ended = [e for e in evs if isinstance(e, GameEnded)]
    assert len(ended) == 1 and ended[0] is evs[-1]
    assert game.result is not None
    assert (ended[0].winners, ended[0].scores, ended[0].payouts, ended[0].reason) == (
        game.result.winners,
        game.result.scores,
        game.result.payouts,
        game.result.reason,
    )


@pytest.mark.parametrize("key", KEYS)
def test_subscriber_hears_applied_actions_in_version_order_after_start(key: str) -> None:
    game = start(key)
    heard: list[int] = []
    game.events.subscribe(ActionApplied, lambda e: heard.append(e.version))
    rng = random.Random(9)
    for _ in range(15):
        if game.is_over:
            break
        step(game, rng)
    assert heard == list(range(1, game.version + 1))


@pytest.mark.parametrize("key", KEYS)
def test_the_first_deal_publishes_cards_dealt(key: str) -> None:
    dealt: list[Event] = []
    start(key, subscribers=[(CardsDealt, dealt.append)])
    assert dealt, "the first deal published no CardsDealt"


@pytest.mark.parametrize("key", TURN_BASED)
def test_turn_based_games_publish_turn_passed_when_the_turn_passes(key: str) -> None:
    game = start(key)
    passed: list[int] = []
    game.events.subscribe(TurnPassed, lambda e: passed.append(e.seat))
    rng = random.Random(3)
    changes = 0
    while not game.is_over and game.version < STEPS:
        before = game.to_act
        mark = len(passed)
        step(game, rng)
        if game.to_act != before and len(game.to_act) == 1 and not game.is_over:
            changes += 1
            assert passed[mark:] and passed[-1] == game.to_act[0], (
                game.version,
                before,
                game.to_act,
            )
    assert changes >= 1


# ---------------------------------------------------------------- agents and RL


@pytest.mark.parametrize("key", KEYS)
def test_random_agent_plays_every_game(key: str) -> None:
    _name, n, _ = CONFIGS[key]
    game = start(key)
    agents = [cardcore.load_agent("random", seed=s) for s in range(n)]
    if key in REALTIME:
        result = cardcore.run_realtime(game, agents, seed=1, max_actions=300)
    else:
        result = cardcore.play(game, agents, max_actions=300)
    assert game.is_over and result == game.result
    assert replay(game.record()).result == result


@pytest.mark.parametrize("key", KEYS)
def test_rl_envs_reset_step_and_observation_shape(key: str) -> None:
    rl = pytest.importorskip("cardcore.rl")
    np = pytest.importorskip("numpy")
    name, n, kw = CONFIGS[key]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = rl.aec_env(name, n, **kw)
        env.reset(seed=7)
        assert env.agents == [f"player_{s}" for s in range(n)]
        obs, reward, terminated, truncated, _info = env.last()
        space = env.action_space(env.agent_selection)
        assert obs["action_mask"].shape == (space.n,)
        assert (
            env.observation_space(env.agent_selection)["observation"].shape
            == obs["observation"].shape
        )
        game = env.match.game
        seat = int(env.agent_selection.split("_")[1])
        assert sorted(np.flatnonzero(obs["action_mask"]).tolist()) == sorted(env.choices())
        assert sorted(map(str, env.choices().values())) == sorted(
            str(a) for a in game.legal_actions(seat)
        )
        for count, _agent in enumerate(env.agent_iter()):
            obs, reward, terminated, truncated, _info = env.last()
            assert isinstance(reward, float)
            if terminated or truncated:
                env.step(None)
            elif count < 10:
                env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            else:
                break
        one = rl.gym_env(name, n, **kw)
        first, _ = one.reset(seed=7)
        assert first["observation"].shape == obs["observation"].shape
        again, _ = rl.gym_env(name, n, **kw).reset(seed=7)
        assert np.array_equal(first["observation"], again["observation"])
        out = one.step(int(np.flatnonzero(first["action_mask"])[0]))
        assert len(out) == 5 and isinstance(out[1], float)
