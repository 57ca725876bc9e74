"""A real-time Slapjack written from cardcore's docs by a first-time plugin author (2026-12-29).

The game was written as its own distribution (``cardcore.games`` / ``cardcore.rules`` entry
points) and installed into a fresh venv; here the same module objects are registered in
process with ``cardcore.register`` (docs/plugin-guide/entry-points.rst, "Without
installing"). Rules (RTS-*):

* RTS-SEAT-1: 2 to 4 players; RTS-DEAL-1: one deck dealt face down, one pile per seat
  (``down.N``), hidden from everyone, its owner too.
* RTS-FLIP-1: only the seat whose flip it is (``turn``) may ``flip`` its top card face up
  onto the central ``pile``.
* RTS-SLAP-1: any seat may ``slap CARD`` naming the top card it saw (docs: name in the action
  what it answers to, so an overtaken slap is stale); a jack wins the pile, face down under
  the slapper's pile. RTS-SLAP-2: a wrong slap costs the slapper its top card, put face up
  at the bottom of the pile.
* RTS-WIN-1 / RTS-CAP-1: all cards, or the last seat in, wins; ``max_moves`` bounds the game.
* RTS-HOUSE-1 (``rtslap-2026-12-29.doubles``): a pair on top also wins once the pile holds
  ``min_pile`` (2..10) cards.
"""

from __future__ import annotations

import json
import types
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    ALL,
    SPECTATOR,
    Action,
    Card,
    CardMoved,
    CardsDealt,
    Emit,
    Event,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    Plan,
    Rank,
    RuleInfo,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
    shuffle,
)
from cardcore.testing import check_game
from cardcore.turns import end_game, winners_by

NAME = "rtslap-2026-12-29"


def _spec(state: GameState, pile: Sequence[Card]) -> bool | None:
    """Whether a slap on *pile* (bottom to top) wins it; ``None`` leaves it to others."""


_spec.__name__ = "rtslap_slap_wins"
hookspecs = types.ModuleType("rtslap_2026_12_29_hookspecs")
hookspecs.rtslap_slap_wins = hookspec(firstresult=True)(_spec)


@frozen
class Flip(Action):
    verb: ClassVar[str] = "flip"


@frozen
class Slap(Action):
    card: Card
    verb: ClassVar[str] = "slap"

    def notation(self) -> str:
        return f"slap {self.card}"


class PileWon(Event):
    slug: ClassVar[str] = "rtslap-pile-won"
    seat: int
    count: int


PILE = 0


def down(seat: int) -> int:
    return 1 + seat


def layout(players: int) -> Layout:
    return Layout.of(
        [ZoneSpec("pile", None, Visibility.TOP)]
        + [ZoneSpec(f"down.{s}", s, Visibility.NOBODY) for s in range(players)]
    )


class RtState(GameState):
    __slots__ = ("moves", "out", "turn")
    _mutable = ("zones", "out")


@hookimpl(trylast=True)
def rtslap_slap_wins(state: GameState, pile: Sequence[Card]) -> bool:
    return pile[-1].rank is Rank.JACK


class RtLogic(GameLogic[RtState, Flip | Slap]):
    action_types = (Flip, Slap)
    position_fields = ("to_act", "turn", "out", "moves")

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self._wins = ruleset.resolve("rtslap_slap_wins")

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return int(options["max_moves"]) + 1

    def blank_state(self, players: int, options: Mapping[str, Any]) -> RtState:
        state = RtState(players, options, Zones(layout(players)))
        state.turn, state.out, state.moves = 0, [0] * players, 0
        return state

    def new_state(self, players, options, cards, seed, emit):  # type: ignore[no-untyped-def]
        state = self.blank_state(players, options)
        state.seed = seed
        for i, card in enumerate(reversed(cards)):
            state.zones.put(down(i % players), card)
        state.to_act = tuple(range(players))
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[down(s)]) for s in range(players))))
        return state

    def legal_actions(self, state: RtState, seat: int) -> tuple[Flip | Slap, ...]:
        if state.is_over or state.out[seat]:
            return ()
        cards = state.zones.cards
        acts: list[Flip | Slap] = []
        if seat == state.turn and cards[down(seat)]:
            acts.append(Flip(seat))
        if cards[PILE]:
            acts.append(Slap(seat, cards[PILE][-1]))
        return tuple(acts)

    def rule_for(self, state: RtState, action: Flip | Slap) -> tuple[str, str]:
        if state.out[action.seat]:
            return "RTS-WIN-1", f"seat {action.seat} is out"
        if isinstance(action, Flip):
            return "RTS-FLIP-1", f"it is seat {state.turn}'s flip"
        return "RTS-SLAP-1", "a slap names the pile's top card"

    def default_action(self, state: RtState, seat: int) -> Flip | Slap | None:
        if seat == state.turn and state.zones.cards[down(seat)] and not state.out[seat]:
            return Flip(seat)
        return None

    def _next(self, state: RtState, after: int) -> int:
        n = state.players
        for step in range(1, n + 1):
            s = (after + step) % n
            if not state.out[s] and state.zones.cards[down(s)]:
                return s
        return after

    def apply(self, state: RtState, action: Flip | Slap, emit: Emit | None) -> None:
        seat, zones = action.seat, state.zones
        cards, seen = zones.cards, zones.seen
        state.moves += 1
        if isinstance(action, Flip):
            card = zones.move(down(seat), PILE, mask=ALL)
            if emit is not None:
                emit(CardMoved(seat, f"down.{seat}", "pile", card))
            state.turn = self._next(state, seat)
        elif self._wins(state=state, pile=tuple(cards[PILE])):
            taken = list(cards[PILE])
            cards[PILE].clear()
            seen[PILE].clear()
            shuffle(taken, state.rng())
            cards[down(seat)][:0] = taken
            seen[down(seat)][:0] = [0] * len(taken)
            if emit is not None:
                emit(PileWon(seat, len(taken)))
            for other in range(state.players):
                if other != seat and not cards[down(other)]:
                    state.out[other] = 1
            state.turn = seat
        elif cards[down(seat)]:
            card = cards[down(seat)].pop()
            seen[down(seat)].pop()
            cards[PILE].insert(0, card)
            seen[PILE].insert(0, ALL)
            if emit is not None:
                emit(CardMoved(seat, f"down.{seat}", "pile", card))
            if state.turn == seat and not cards[down(seat)]:
                state.turn = self._next(state, seat)
        else:
            state.out[seat] = 1
        counts = [len(cards[down(s)]) for s in range(state.players)]
        still = tuple(s for s in range(state.players) if not state.out[s])
        if len(still) == 1 or 52 in counts:
            end_game(state, (counts.index(max(counts)),), tuple(map(float, counts)), "all cards")
        elif not any(counts[s] for s in still) and not cards[PILE]:
            end_game(state, still, tuple(map(float, counts)), "no cards")
        elif state.moves >= state.options["max_moves"]:
            end_game(state, winners_by(counts, lowest=False), tuple(map(float, counts)), "cap")
        else:
            state.to_act = still

    def scores(self, state: RtState) -> tuple[float, ...]:
        return tuple(float(len(state.zones.cards[down(s)])) for s in range(state.players))

    def standings(self, state: RtState) -> tuple[int, ...]:
        return winners_by(
            [len(state.zones.cards[down(s)]) for s in range(state.players)], lowest=False
        )

    def table(self, state: RtState, seat: int | None) -> dict[str, Any]:
        cards = state.zones.cards
        return {
            "turn": state.turn,
            "out": list(state.out),
            "moves": state.moves,
            "counts": [len(cards[down(s)]) for s in range(state.players)],
        }


GAME = GameInfo(
    NAME,
    "Real-time Slapjack: flip in turn, slap jacks",
    2,
    4,
    options=(
        Option("max_moves", default=600, minimum=10, maximum=5000, doc="cap", rule_id="RTS-CAP-1"),
    ),
    realtime=True,
    version="1.0.0",
    hookspecs=hookspecs,
    fields=(
        ViewField("turn", "seat", "whose flip"),
        ViewField("out", "per-seat", "out", of="int"),
        ViewField("moves", "int", "moves so far"),
        ViewField("counts", "per-seat", "cards per face-down pile", of="int"),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> RtLogic:
    return RtLogic(ruleset)


game_module = types.ModuleType("rtslap_2026_12_29")
game_module.GAME = GAME
game_module.create_logic = create_logic
game_module.rtslap_slap_wins = rtslap_slap_wins

DOUBLES = "rtslap-2026-12-29.doubles"
house_module = types.ModuleType("rtslap_2026_12_29_doubles")
house_module.RULE = RuleInfo(
    id="RTS-HOUSE-1",
    name=DOUBLES,
    game=NAME,
    summary="A slap on two cards of one rank on top also wins the pile",
    version="1.0.0",
    options=(
        Option("min_pile", default=2, minimum=2, maximum=10, doc="smallest pile for doubles"),
    ),
)


@hookimpl
def _doubles(state: GameState, pile: Sequence[Card]) -> bool | None:
    if len(pile) >= state.options["min_pile"] and pile[-1].rank is pile[-2].rank:
        return True
    return None


house_module.rtslap_slap_wins = _doubles


@pytest.fixture(autouse=True)
def registered() -> Any:
    cardcore.register("cardcore.games", NAME, game_module)
    cardcore.register("cardcore.rules", DOUBLES, house_module)
    yield
    cardcore.unregister("cardcore.rules", DOUBLES)
    cardcore.unregister("cardcore.games", NAME)


class Slapper:
    """Flips after 0.5 s; slaps a jack after *react* s; never slaps anything else."""

    def __init__(self, react: float) -> None:
        self.react = react

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        for action in legal:
            if isinstance(action, Slap) and action.card.rank is Rank.JACK:
                return Plan(action, self.react)
        for action in legal:
            if isinstance(action, Flip):
                return Plan(action, 0.5)
        return None


def played(seed: int, players: int = 3, **kw: Any) -> cardcore.Game:
    game = cardcore.new_game(NAME, players, seed=seed, **kw)
    cardcore.run_realtime(game, [Slapper(0.2 + 0.1 * s) for s in range(players)], seed=seed)
    return game


# --- conformance kit -------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_kit(players: int) -> None:
    report = check_game(NAME, players=players, games=2, seed=1)
    assert report.cards_lost == 0 and report.leaks == 0 and report.raw == 0
    assert report.games == 2 and report.rejected == report.bad_inputs > 0


def test_conformance_kit_with_the_house_rule_and_its_option() -> None:
    report = check_game(NAME, players=2, rules=[DOUBLES], options={"min_pile": 3}, games=2)
    assert report.leaks == 0 and report.options["min_pile"] == 3


def test_house_rule_option_is_bounded_and_refused_without_the_rule() -> None:
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game(NAME, 2, rules=[DOUBLES], options={"min_pile": 11}, seed=1)
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game(NAME, 2, options={"min_pile": 3}, seed=1)
    game = cardcore.new_game(NAME, 2, rules=["RTS-HOUSE-1"], seed=1)
    assert game.options == {"max_moves": 600, "min_pile": 2}


# --- the virtual clock -----------------------------------------------------------------


def test_run_realtime_same_seed_same_record_and_every_action_timed() -> None:
    one, two = played(4), played(4)
    assert one.is_over and one.record() == two.record()
    assert all(at is not None for _, _, at in one.record()["actions"])
    times = [at for _, _, at in one.record()["actions"]]
    assert times == sorted(times)


def test_the_faster_slapper_wins_a_jack_race() -> None:
    game = played(4)
    slaps = [(seat, text) for seat, text, _ in game.record()["actions"] if text.startswith("slap")]
    assert slaps and all(seat == 0 for seat, _ in slaps)  # seat 0 reacts in 0.2 s


def test_record_replay_save_load_reproduce_the_game() -> None:
    game = played(4, rules=[DOUBLES], options={"min_pile": 3})
    record = json.loads(json.dumps(game.record()))
    again = cardcore.replay(record)
    assert again.position() == game.position() and again.result == game.result
    loaded = cardcore.load(json.loads(json.dumps(game.save())))
    assert loaded.position() == game.position() and loaded.options["min_pile"] == 3


def test_a_save_mid_game_loads_and_plays_on_to_the_same_end() -> None:
    game = cardcore.new_game(NAME, 3, seed=4)
    cardcore.run_realtime(game, [Slapper(0.2 + 0.1 * s) for s in range(3)], seed=4, max_actions=5)
    assert game.is_over and game.result.reason == "truncated"  # documented: not a pause
    loaded = cardcore.load(json.loads(json.dumps(game.save())))
    assert loaded.is_over and loaded.result.reason == "truncated"


# --- stale and late --------------------------------------------------------------------


def test_stale_flip_and_slap_naming_a_covered_top_are_stale() -> None:
    game = cardcore.new_game(NAME, 2, seed=3)
    v0 = game.view(0)["version"]
    game.act(0, "flip", seen=v0)
    top = game.view(1)["zones"][0]["cards"][0]
    v1 = game.version
    with pytest.raises(cardcore.StaleActionError):
        game.act(0, "flip", seen=v0)  # legal at v0, not now
    game.act(1, "flip", seen=v1)
    before = game.position()
    with pytest.raises(cardcore.StaleActionError):
        game.act(0, f"slap {top}", seen=v1)  # the top it saw is covered
    assert game.position() == before


def test_a_slap_never_legal_is_illegal_not_stale() -> None:
    game = cardcore.new_game(NAME, 2, seed=3)
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(1, "slap JH", seen=0)
    assert not isinstance(info.value, cardcore.StaleActionError)


# --- hidden information ----------------------------------------------------------------


def test_face_down_piles_hidden_from_owner_others_and_spectator() -> None:
    game = cardcore.new_game(NAME, 3, seed=5)
    streams: dict[int, list[dict[str, Any]]] = {s: [] for s in (0, 1, 2, SPECTATOR)}
    for s in streams:
        game.events.subscribe(Event, lambda e, s=s: streams[s].append(e.to_json()), seat=s)
    cardcore.run_realtime(game, [Slapper(0.3), Slapper(0.2), Slapper(0.4)], seed=5, max_actions=40)
    for viewer in (0, 1, 2, SPECTATOR):
        zones = game.view(viewer)["zones"]
        assert zones[0]["name"] == "pile"
        for zone in zones[1:]:
            assert set(zone["cards"]) <= {None}
    # a won pile was shuffled face down: no event names a card that did not go face up
    shown = {e["card"] for e in streams[SPECTATOR] if e.get("card")}
    flipped_or_paid = {
        e["card"] for e in streams[SPECTATOR] if e["event"] == "card-moved" and e["dst"] == "pile"
    }
    assert shown == flipped_or_paid
    assert streams[SPECTATOR] == streams[0] == streams[1] == streams[2]


# --- the web server ----------------------------------------------------------------------


def test_web_session_with_bots_and_a_person_refuses_a_stale_flip() -> None:
    starlette = pytest.importorskip("starlette.testclient")
    from cardcore.web import WebServer, create_app

    seats = [
        {"name": "Ann"},
        {"name": "Bo", "agent": "random", "params": {"seed": 1}},
        {"name": "Cy", "agent": "random", "params": {"seed": 2}},
    ]
    app = create_app(WebServer(None, bot_pace=100.0))  # the bots think for ages
    with starlette.TestClient(app) as client:
        listed = {g["name"]: g for g in client.get("/api/games").json()}
        assert listed[NAME]["realtime"] is True
        made = client.post(
            "/api/sessions",
            json={"game": NAME, "seats": seats, "rules": [DOUBLES], "options": {"min_pile": 4}},
        )
        assert made.status_code == 201 and made.json()["options"]["min_pile"] == 4
        sid = made.json()["session"]
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "session": sid, "seat": 0}))
            got = []
            while not got or got[-1]["type"] != "view":
                got.append(ws.receive_json())
            view = got[-1]["view"]
            assert view["legal"] == ["flip"]
            assert all(set(z["cards"]) <= {None} for z in view["zones"][1:])
            ws.send_text(json.dumps({"type": "act", "action": "flip", "seen": 0}))
            replies = [ws.receive_json() for _ in range(2)]
            assert {r["type"] for r in replies} == {"ok", "update"}
            ws.send_text(json.dumps({"type": "act", "action": "flip", "seen": 0}))
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == "stale"


# --- reinforcement learning --------------------------------------------------------------


def test_gym_env_with_wait_plays_the_registered_realtime_game() -> None:
    pytest.importorskip("gymnasium")
    from cardcore.rl import gym_env

    env = gym_env(NAME, 2, opponents="random", wait=True)
    obs, _info = env.reset(seed=3)
    wait = env.action_space.n - 1
    assert env.unwrapped.runner.config.observer.names[wait] == "wait"
    assert int(obs["action_mask"][wait]) == 1
    for _ in range(200):
        mask = obs["action_mask"]
        choice = int(next(i for i in range(wait) if mask[i])) if mask[:wait].any() else wait
        obs, _reward, terminated, truncated, _info = env.step(choice)
        if terminated or truncated:
            break
    assert terminated or truncated


def test_turn_based_game_refuses_wait() -> None:
    pytest.importorskip("gymnasium")
    from cardcore.rl import gym_env

    with pytest.raises(cardcore.OptionError):
        gym_env("golf", 2, wait=True)


# --- records and verify ------------------------------------------------------------------


def test_verify_bundle_refuses_a_plain_record_which_the_command_replays_as_documented() -> None:
    """docs/session.rst (corrected after this session found it credited the command's handling of
    a plain record to the function): the function takes bundles only; ``replay`` checks a record."""
    from cardcore.errors import CorruptStateError
    from cardcore.session import verify_bundle

    record = played(4).record()
    with pytest.raises(CorruptStateError, match="not a fair-deal bundle"):
        verify_bundle(record)
    assert cardcore.replay(record).version == played(4).version
