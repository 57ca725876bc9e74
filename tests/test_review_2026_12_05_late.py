"""Review of the late fixes of 2026-12-05 (090be96..9b2cc18): apply's fast path with the
published seat, real-time staleness at the game's end, text agent specs in compare and
simulate, one game's intervals, real-time plans in compare, the web lobby's seat entries,
and the Go Fish example's ``determinize`` hook.

Strict xfails are bugs found (they pass once fixed); the rest pin what was checked fine.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

import cardcore
from cardcore import IllegalActionError, OptionError, Resign, StaleActionError
from cardcore.compare import compare, mean_ci

# -- helpers ------------------------------------------------------------------------------


def _finished_realtime(name: str, seed: int) -> tuple[cardcore.Game, dict[int, dict[int, tuple]]]:
    """A real-time game played to its end at random, with every seat's legal actions kept
    per version (what each seat could do at each ``seen``)."""
    game = cardcore.new_game(name, 2, seed=seed)
    rng = random.Random(seed)
    legal_at: dict[int, dict[int, tuple]] = {}
    for _ in range(20_000):
        if game.is_over:
            return game, legal_at
        legal_at[game.version] = {s: game.legal_actions(s) for s in range(2)}
        choices = [a for s in game.to_act for a in legal_at[game.version][s]]
        assert choices, "stalled"
        game.apply(rng.choice(choices))
    raise AssertionError("the game did not end")


def _play(game: cardcore.Game, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        seat = game.to_act[0]
        game.apply(rng.choice(game.legal_actions(seat)))


def _cards(game: cardcore.Game) -> Counter[str]:
    return Counter(str(c) for pile in game.state.zones.cards for c in pile)


# -- real time: an action that lost the race to the game's end (CORE-RT-1) ---------------


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_realtime_action_legal_at_seen_that_lost_the_race_to_the_end_is_stale(name: str) -> None:
    game, legal_at = _finished_realtime(name, 0)
    version, cards = game.version, _cards(game)
    judged = 0
    for back in (1, 2, 5):
        seen = version - back
        for seat in range(2):
            for action in legal_at[seen][seat][:2]:
                with pytest.raises(StaleActionError) as info:
                    game.apply(action, seen=seen)
                assert info.value.rule_id == "CORE-RT-1"
                judged += 1
    assert judged > 0
    assert game.version == version and _cards(game) == cards  # refused, nothing changed


@pytest.mark.parametrize("seen", ["now", True, -1, "ahead", 1.0, None])
def test_realtime_after_the_end_odd_seen_is_over_not_a_raw_error(seen: Any) -> None:
    game, legal_at = _finished_realtime("spit", 1)
    version = game.version
    seen = {"now": version, "ahead": version + 3}.get(seen, seen) if isinstance(seen, str) else seen
    action = (
        legal_at[version - 1][0][0] if legal_at[version - 1][0] else legal_at[version - 1][1][0]
    )
    with pytest.raises(IllegalActionError) as info:
        game.apply(action, seen=seen)
    assert not isinstance(info.value, StaleActionError)
    assert info.value.rule_id == "CORE-OVER-1"
    assert game.version == version


def test_realtime_outside_the_window_after_the_end_is_over() -> None:
    game, legal_at = _finished_realtime("spit", 2)
    old = game.version - cardcore.STALE_WINDOW - 1
    seat = 0 if legal_at[old][0] else 1
    with pytest.raises(IllegalActionError) as info:
        game.apply(legal_at[old][seat][0], seen=old)
    assert info.value.rule_id == "CORE-OVER-1"


def test_turn_based_after_the_end_stays_over_whatever_seen() -> None:
    game = cardcore.new_game("golf", 2, seed=3).single_thread()
    rng = random.Random(3)
    kept: dict[int, tuple] = {}
    while not game.is_over:
        seat = game.to_act[0]
        kept[game.version] = game.legal_actions(seat)
        game.apply(rng.choice(kept[game.version]))
    last = game.version - 1
    with pytest.raises(IllegalActionError) as info:
        game.apply(kept[last][0], seen=last)
    assert not isinstance(info.value, StaleActionError)
    assert info.value.rule_id == "CORE-OVER-1"


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_realtime_resign_that_lost_the_race_to_the_end_is_stale(name: str) -> None:
    game, _ = _finished_realtime(name, 0)
    with pytest.raises(StaleActionError):  # Resign was accepted at seen, whatever the view
        game.apply(Resign(0), seen=game.version - 1)


# -- apply's fast path: the published seat ------------------------------------------------


@pytest.fixture
def slow_path(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The actions ``Game.apply`` sent down its slow path (``validate``) since cleared."""
    import cardcore.game as game_module

    calls: list[Any] = []
    real = game_module.validate

    def spy(game: cardcore.Game, action: Any, seen: Any) -> Any:
        calls.append(action)
        return real(game, action, seen)

    monkeypatch.setattr(game_module, "validate", spy)
    return calls


@pytest.mark.parametrize("name", ["golf", "tonk", "gofish"])
@pytest.mark.parametrize("how", ["game", "clone", "single_thread", "determinized", "world_single"])
def test_a_legal_action_of_the_seat_just_asked_takes_the_fast_path(
    name: str, how: str, slow_path: list[Any]
) -> None:
    for seed in range(20):  # a game still open after a few actions
        base = cardcore.new_game(name, 3, seed=seed)
        _play(base, 3, seed)
        if not base.is_over:
            break
    assert not base.is_over
    game = {
        "game": lambda: base,
        "clone": base.clone,
        "single_thread": lambda: base.clone().single_thread(),
        "determinized": lambda: base.determinize(base.to_act[0], 7),
        "world_single": lambda: base.determinize(base.to_act[0], 7).single_thread(),
    }[how]()
    rng = random.Random(5)
    applied = 0
    for _ in range(25):
        if game.is_over:
            break
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        slow_path.clear()
        game.apply(rng.choice(legal))
        assert slow_path == [], f"a listed action of seat {seat} went the slow path"
        applied += 1
    assert applied > 0


# -- compare and simulate: agents as text ---------------------------------------------------


@pytest.mark.parametrize("text", ["", ",", " , "])
def test_text_naming_no_agent_is_an_option_error(text: str) -> None:
    with pytest.raises(OptionError):
        cardcore.simulate("golf", games=1, players=2, agents=text, seed=0)
    with pytest.raises(OptionError):
        compare("golf", games=1, agents=text, seed=0, skill=None)


def test_text_of_several_specs_is_one_per_seat_as_a_list_is() -> None:
    text = cardcore.simulate("golf", games=2, players=2, agents="golf-greedy, random", seed=3)
    listed = cardcore.simulate("golf", games=2, players=2, agents=["golf-greedy", "random"], seed=3)
    assert text.agents == ("golf-greedy", "random")
    assert text == listed
    one = cardcore.simulate("golf", games=1, players=3, agents="random:seed=2,", seed=3)
    assert one.agents == ("random:seed=2",) * 3


def test_text_of_the_wrong_number_of_specs_is_refused_naming_the_seats() -> None:
    with pytest.raises(OptionError, match=r"per seat \(2\)"):
        cardcore.simulate("golf", games=1, players=2, agents="random,random,random", seed=0)
    with pytest.raises(OptionError, match=r"per seat \(2\)"):
        compare("golf", games=1, players=2, agents="random,random,random", seed=0, skill=None)


# -- one game's interval --------------------------------------------------------------------


def test_one_value_has_an_unbounded_interval_written_as_null() -> None:
    e = mean_ci([3.0])
    assert e.mean == 3.0 and e.n == 1 and not e.significant
    assert e.low == -math.inf and e.high == math.inf
    assert json.loads(json.dumps(e.to_json(), allow_nan=False))["low"] is None
    assert mean_ci([]).n == 0 and not mean_ci([]).significant
    two = mean_ci([1.0, 3.0])
    assert math.isfinite(two.low) and math.isfinite(two.high) and two.low < 2.0 < two.high


def test_a_one_game_comparison_is_strict_json_and_never_significant() -> None:
    result = compare("golf", games=1, seed=1, skill=None)
    data = json.loads(json.dumps(result.to_json(), allow_nan=False))
    assert data["games"] == 1
    for figure in result.diff.values():
        assert not figure.significant


def test_a_one_game_comparison_plots_and_prints_without_an_unbounded_bar(tmp_path: Any) -> None:
    pytest.importorskip("matplotlib")
    result = compare("golf", games=1, seed=1, skill=None)
    path = tmp_path / "one.png"
    result.plot(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = result.table()
    assert "nan" not in table.lower() and "± inf" in table  # unbounded, said so


# -- compare: a real-time agent's plan ------------------------------------------------------


class _Delay:
    """A real-time agent planning its first legal action after a fixed delay."""

    delay: Any = 0.1

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def plan(
        self, view: Mapping[str, Any], legal: Sequence[cardcore.Action], now: float
    ) -> cardcore.Plan | None:
        return cardcore.Plan(legal[0], type(self).delay) if legal else None


@pytest.fixture
def delay_agent() -> Iterator[type[_Delay]]:
    class Agent(_Delay):
        pass

    cardcore.register("cardcore.agents", "review-late-delay", Agent)
    yield Agent
    cardcore.unregister("cardcore.agents", "review-late-delay")


@pytest.mark.parametrize("kind", ["int", "float", "np.float64", "np.float32", "np.int64"])
def test_a_plan_with_any_finite_real_delay_is_played(delay_agent: type[_Delay], kind: str) -> None:
    if kind.startswith("np."):
        np = pytest.importorskip("numpy")
        delay_agent.delay = getattr(np, kind[3:])(1)
    else:
        delay_agent.delay = {"int": 1, "float": 0.25}[kind]
    result = compare("spit", agents=["review-late-delay", "random"], games=1, seed=2, skill=None)
    assert result.a.actions.mean > 0


@pytest.mark.parametrize("delay", [math.inf, -math.inf, math.nan, True, "1", None])
def test_a_plan_without_a_finite_delay_names_the_agent_and_seat(
    delay_agent: type[_Delay], delay: Any
) -> None:
    delay_agent.delay = delay
    with pytest.raises(cardcore.CardcoreError) as info:
        compare("spit", agents=["review-late-delay", "random"], games=1, seed=2, skill=None)
    text = str(info.value)
    assert "review-late-delay" in text and "seat 0" in text


# -- the web lobby's seat entries ----------------------------------------------------------


@pytest.fixture(scope="module")
def lobby() -> Iterator[Any]:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from cardcore.web.app import WebServer, create_app

    with TestClient(create_app(WebServer(bot_delay=0.0)), raise_server_exceptions=False) as c:
        yield c


def _post(client: Any, body: object) -> tuple[int, Any]:
    r = client.post("/api/sessions", content=json.dumps(body))
    return r.status_code, r.json()


@pytest.mark.parametrize("key", ["name", "agent"])
@pytest.mark.parametrize("value", [1.5, -1, True, {}, {"a": 1}, ["random"], 2**70, 1e308])
def test_a_seat_name_or_agent_of_another_json_type_is_refused(
    lobby: Any, key: str, value: object
) -> None:
    status, body = _post(lobby, {"game": "golf", "seats": [{key: value}, {}]})
    assert status == 400, body
    assert key in body["error"]


def test_a_seat_agent_of_blank_text_is_refused_as_unknown(lobby: Any) -> None:
    status, body = _post(lobby, {"game": "golf", "seats": [{"agent": " "}, {}]})
    assert status == 400
    assert "agent" in body["error"]


def test_missing_or_null_entries_take_their_defaults(lobby: Any) -> None:
    seats = [{"name": None}, {"name": "", "agent": None}, {"agent": "random", "params": None}]
    status, body = _post(lobby, {"game": "golf", "seats": seats})
    assert status == 201, body
    names = [s["name"] for s in body["seats"]]
    assert names == ["Player 1", "Player 2", "Player 3"]
    assert [s["bot"] is not None for s in body["seats"]] == [False, False, True]


@pytest.mark.parametrize(
    "params", [{"seed": "x"}, {"seed": 1.5}, {"seed": True}, {"nope": 1}, {"": 1}]
)
def test_bad_bot_params_are_refused_naming_the_agent(lobby: Any, params: dict[str, Any]) -> None:
    seats = [{}, {"agent": "random", "params": params}]
    status, body = _post(lobby, {"game": "spit", "seats": seats})
    assert status == 400, body
    assert "random" in body["error"]


# -- Go Fish: the determinize hook ----------------------------------------------------------


def _gofish_worlds() -> Iterator[tuple[cardcore.Game, int, int]]:
    for players in range(2, 7):
        for seed in range(12):
            game = cardcore.new_game("gofish", players, seed=seed)
            _play(game, random.Random(seed).randrange(0, 120), seed)
            if game.is_over:
                continue
            for seat in range(players):
                yield game, seat, seed


def test_gofish_determinize_keeps_every_card_and_what_the_seat_knows() -> None:
    pytest.importorskip("cardcore_gofish")
    from cardcore_gofish.actions import BIT
    from cardcore_gofish.state import hand

    worlds = 0
    for game, seat, seed in _gofish_worlds():
        world = game.determinize(seat, seed)
        real, twin = game.state.zones, world.state.zones
        assert _cards(world) == _cards(game)
        for z, pile in enumerate(real.cards):
            assert len(twin.cards[z]) == len(pile)
            for i, card in enumerate(pile):
                if real.knows(z, i, seat):
                    assert twin.cards[z][i] == card, (z, i)
        assert world.view(seat) == game.view(seat)
        for s in range(game.state.players):  # GOFISH-KNOW-1, GOFISH-BOOK-1
            held = Counter(c.label for c in twin.cards[hand(s)])
            assert all(held[r] for r, bit in BIT.items() if world.state.asked[s] & bit)
            assert max(held.values(), default=0) < 4
        players = game.state.players
        again = cardcore.new_game("gofish", players, position=world.position(), seed=1)
        assert again.position().split("|")[1:] == world.position().split("|")[1:]
        worlds += 1
    assert worlds > 100


def test_gofish_determinize_redeals_from_its_seed_only() -> None:
    pytest.importorskip("cardcore_gofish")
    game = cardcore.new_game("gofish", 4, seed=8)
    _play(game, 10, 8)
    a, b = game.determinize(1, 3), game.determinize(1, 3)
    assert a.position() == b.position()
    assert len({game.determinize(1, k).position() for k in range(6)}) > 1
    with pytest.raises(OptionError):
        game.determinize(1, -1)


def test_gofish_ismcts_plays_whole_games() -> None:
    pytest.importorskip("cardcore_gofish")
    summary = cardcore.simulate(
        "gofish",
        games=1,
        players=3,
        agents="ismcts:iterations=10,seed=1,random,gofish-basic",
        seed=0,
    )
    assert summary.games == 1 and summary.truncated == 0


# -- sessions: a real-time game's default_action on an idle timeout --------------------------


def _idle_spit(fallback: str) -> tuple[Any, cardcore.Game]:
    pytest.importorskip("cardcore_spit")
    from cardcore.session import TimeControl
    from tests.session.kit import table

    t = table("spit", time=TimeControl(turn=5.0, fallback=fallback))
    game = t.session.game
    assert game is not None and game.version == 0
    return t, game


def test_realtime_default_answering_none_plays_no_fallback_not_even_resign(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t, game = _idle_spit("resign")
    monkeypatch.setattr(type(game.logic), "default_action", lambda self, state, seat: None)
    t.tick(5.5)
    assert game.version == 0 and not game.is_over  # "nothing now": nobody resigned
    assert t.session.next_deadline() is not None  # its clock starts again


def test_realtime_default_that_raises_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    t, game = _idle_spit("first")
    seat = game.to_act[0]
    first = game.legal_actions(seat)[0]

    def broken(self: Any, state: Any, seat: int) -> Any:
        raise RuntimeError("a plugin's bug")

    monkeypatch.setattr(type(game.logic), "default_action", broken)
    t.tick(5.5)
    assert game.version > 0 and first in [a for _, a, _ in game.record_entries()]


def test_realtime_default_answering_an_illegal_action_falls_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t, game = _idle_spit("resign")
    logic = game.logic
    # the other seat's action: never the idle seat's to play
    monkeypatch.setattr(
        type(logic),
        "default_action",
        lambda self, state, seat: logic.legal_actions(state, 1 - seat)[0],
    )
    t.tick(5.5)
    entries = [a for _, a, _ in game.record_entries()]
    # (both idle clocks run out at 5: the seat taken first is drawn from the seed, so the
    # other seat's answer may meet an empty legal set, fail, and resign by the fallback)
    assert game.is_over and entries and any(type(a) is Resign for a in entries), entries
    assert all(a.seat == s for s, a, _ in game.record_entries()), entries  # never another's
