"""A third-party author's simplified Nertz (Pounce): a real-time game for 3-4 players.

The plugin lives in this file and is registered in-process (docs/plugin-guide/testing.rst);
the tests play it with ``run_realtime`` on the virtual clock, race seats for one foundation,
run the conformance kit, the session layer and the RL layer on it.

Rules (every rule has an ID, cited by ``rule_for``):

* NERTZ-DEAL-1 Two standard decks. Each seat gets a nertz pile of 6 (face down, top face
  up), 2 face-up work piles of one card, and the rest dealt round robin to its hand, which
  only its owner sees.
* NERTZ-FLIP-1 ``flip``: the top card of one's hand goes face up onto one's waste; with an
  empty hand the waste is turned over into the hand.
* NERTZ-FOUND-1 ``found <card> <src> <f>``: the top card of one's nertz pile (``n``), waste
  (``x``) or a work pile (``w0``, ``w1``) goes onto shared foundation *f*: an ace onto the
  lowest-numbered empty foundation, any other card onto a foundation whose top is the card
  one rank lower of its suit. Anyone may play onto any foundation at any time.
* NERTZ-WORK-1 ``work <card> <src> <w>``: the top card of one's nertz pile or waste goes onto
  one's own work pile *w*: empty, or topped by a card one rank higher of the other colour.
* NERTZ-END-1 The game ends as soon as one seat's nertz pile is empty.
* NERTZ-END-2 It also ends when nobody progresses: after twice as many actions without a
  card reaching a foundation or a work pile as there are hand and waste cards plus seats,
  or when no seat has a legal action.
* NERTZ-SCORE-1 Score = cards a seat played to the foundations minus cards left in its
  nertz pile; the highest score wins, ties share.
"""

from __future__ import annotations

import json
import types
from collections import Counter
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
import cardcore.testing
from cardcore import (
    ALL,
    Action,
    Card,
    CardMoved,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Plan,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.turns import end_game, winners_by

NAME = "nertz-author"
FOUNDATIONS = 8
NERTZ_CARDS = 6
WORK_PILES = 2
SOURCES = ("n", "x", "w0", "w1")

# ---------------------------------------------------------------------------- the plugin


@frozen
class Flip(Action):
    verb: ClassVar[str] = "flip"

    def notation(self) -> str:
        return "flip"


@frozen
class Found(Action):
    card: Card
    src: str
    pile: int
    verb: ClassVar[str] = "found"

    def notation(self) -> str:
        return f"found {self.card} {self.src} {self.pile}"


@frozen
class Work(Action):
    card: Card
    src: str
    pile: int
    verb: ClassVar[str] = "work"

    def notation(self) -> str:
        return f"work {self.card} {self.src} {self.pile}"


NertzAction = Flip | Found | Work


def found_zone(f: int) -> int:
    return f


def seat_base(seat: int) -> int:
    return FOUNDATIONS + seat * (3 + WORK_PILES)


def hand(seat: int) -> int:
    return seat_base(seat)


def waste(seat: int) -> int:
    return seat_base(seat) + 1


def nertz(seat: int) -> int:
    return seat_base(seat) + 2


def work(seat: int, w: int) -> int:
    return seat_base(seat) + 3 + w


def source_zone(seat: int, src: str) -> int:
    return {"n": nertz(seat), "x": waste(seat)}.get(src) or work(seat, int(src[1]))


@cache
def layout(players: int) -> Layout:
    specs = [ZoneSpec(f"found.{f}", None, Visibility.EVERYONE) for f in range(FOUNDATIONS)]
    for s in range(players):
        specs += [
            ZoneSpec(f"hand.{s}", s, Visibility.OWNER),
            ZoneSpec(f"waste.{s}", s, Visibility.TOP),
            ZoneSpec(f"nertz.{s}", s, Visibility.NOBODY),
            *[ZoneSpec(f"work.{s}.{w}", s, Visibility.EVERYONE) for w in range(WORK_PILES)],
        ]
    return Layout.of(specs)


class NertzState(GameState):
    __slots__ = ("idle", "played")
    _mutable = ("zones", "played")
    played: list[int]
    idle: int


def follows(card: Card, under: Card) -> bool:
    return card.suit == under.suit and int(card.rank) == int(under.rank) + 1


def fits_work(card: Card, under: Card) -> bool:
    return int(card.rank) + 1 == int(under.rank) and card.suit.is_red != under.suit.is_red


class NertzLogic(GameLogic[NertzState, NertzAction]):
    action_types = (Flip, Found, Work)
    position_fields = ("to_act", "played", "idle")

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 60_000  # 208 forward moves, each after at most ~220 idle actions (NERTZ-END-2)

    def deck(self, players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
        return cardcore.decks(2)  # NERTZ-DEAL-1

    def blank_state(self, players: int, options: Mapping[str, Any]) -> NertzState:
        state = NertzState(players, options, Zones(layout(players)))
        state.played, state.idle = [0] * players, 0
        return state

    def new_state(self, players, options, cards, seed, emit: Emit | None) -> NertzState:  # type: ignore[no-untyped-def]
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, tuple(range(players))
        z, deal = state.zones, list(cards)  # bottom to top: deal from the end
        for s in range(players):
            for _ in range(NERTZ_CARDS):
                z.put(nertz(s), deal.pop())
            z.reveal(nertz(s))
            for w in range(WORK_PILES):
                z.put(work(s, w), deal.pop())
        s = 0
        while deal:
            z.put(hand(s), deal.pop())
            s = (s + 1) % players
        if emit is not None:
            emit(CardsDealt(tuple(len(z.cards[hand(s)]) for s in range(players))))
        return state

    def _tops(self, state: NertzState, seat: int) -> Iterator[tuple[str, Card]]:
        cards = state.zones.cards
        for src in SOURCES:
            pile = cards[source_zone(seat, src)]
            if pile:
                yield src, pile[-1]

    def legal_actions(self, state: NertzState, seat: int) -> tuple[NertzAction, ...]:
        if state.is_over:
            return ()
        cards = state.zones.cards
        empty = [f for f in range(FOUNDATIONS) if not cards[found_zone(f)]]
        out: list[NertzAction] = []
        for src, card in self._tops(state, seat):
            for f in range(FOUNDATIONS):
                pile = cards[found_zone(f)]
                if (int(card.rank) == 1 and empty and f == empty[0]) or (
                    pile and follows(card, pile[-1])
                ):
                    out.append(Found(seat, card, src, f))
        for src, card in self._tops(state, seat):
            if src not in ("n", "x"):
                continue
            for w in range(WORK_PILES):
                pile = cards[work(seat, w)]
                if not pile or fits_work(card, pile[-1]):
                    out.append(Work(seat, card, src, w))
        if cards[hand(seat)] or cards[waste(seat)]:
            out.append(Flip(seat))
        return tuple(out)

    def rule_for(self, state: NertzState, action: NertzAction) -> tuple[str, str]:
        if isinstance(action, Flip):
            return "NERTZ-FLIP-1", "nothing left to flip"
        if isinstance(action, Work):
            return (
                "NERTZ-WORK-1",
                f"{action.card} from {action.src} does not fit work pile {action.pile}",
            )
        return (
            "NERTZ-FOUND-1",
            f"{action.card} from {action.src} does not fit foundation {action.pile}",
        )

    def apply(self, state: NertzState, action: NertzAction, emit: Emit | None) -> None:
        z, seat = state.zones, action.seat
        if isinstance(action, Flip):
            state.idle += 1
            if z.cards[hand(seat)]:
                card = z.move(hand(seat), waste(seat), mask=ALL)
                if emit is not None:
                    emit(CardMoved(seat, f"hand.{seat}", f"waste.{seat}", card))
            else:
                while z.cards[waste(seat)]:
                    card = z.move(waste(seat), hand(seat), mask=0)
                    if emit is not None:
                        emit(
                            CardMoved(
                                seat, f"waste.{seat}", f"hand.{seat}", card, visible_to=1 << seat
                            )
                        )
        else:
            src = source_zone(seat, action.src)
            dst = found_zone(action.pile) if isinstance(action, Found) else work(seat, action.pile)
            card = z.move(src, dst, mask=ALL)
            if action.src == "n" and z.cards[src]:
                z.reveal(src)
            if isinstance(action, Found):
                state.played[seat] += 1
            state.idle = 0
            if emit is not None:
                name = (
                    f"found.{action.pile}"
                    if isinstance(action, Found)
                    else f"work.{seat}.{action.pile}"
                )
                emit(CardMoved(seat, layout(state.players).specs[src].name, name, card))
        self._settle(state, seat)

    def _settle(self, state: NertzState, seat: int) -> None:
        cards, n = state.zones.cards, state.players
        if not cards[nertz(seat)]:  # NERTZ-END-1
            self._end(state, "nertz")
            return
        loose = sum(len(cards[hand(s)]) + len(cards[waste(s)]) for s in range(n))
        if state.idle >= 2 * (loose + n):  # NERTZ-END-2
            self._end(state, "stuck")
            return
        if not any(self.legal_actions(state, s) for s in range(n)):
            self._end(state, "stuck")

    def _end(self, state: NertzState, reason: str) -> None:
        made = self.score_round(state, self._score(state))  # NERTZ-SCORE-1
        end_game(state, winners_by(made, lowest=False), made, reason)

    def _score(self, state: NertzState) -> list[int]:
        return [state.played[s] - len(state.zones.cards[nertz(s)]) for s in range(state.players)]

    def scores(self, state: NertzState) -> tuple[float, ...]:
        return tuple(map(float, self._score(state)))

    def table(self, state: NertzState, seat: int | None) -> dict[str, Any]:
        return {
            "played": list(state.played),
            "idle": state.idle,
            "nertz": [len(state.zones.cards[nertz(s)]) for s in range(state.players)],
        }


GAME = GameInfo(
    NAME,
    "Nertz for 3 or 4: race your nertz pile onto shared foundations",
    3,
    4,
    realtime=True,
    version="1.0.0",
    fields=(
        ViewField("played", "per-seat", "Cards each seat played to the foundations.", of="int"),
        ViewField("idle", "int", "Actions since a card last reached a foundation or work pile."),
        ViewField("nertz", "per-seat", "Cards left in each seat's nertz pile.", of="int"),
    ),
)


@hookimpl
def create_logic(ruleset: Any) -> NertzLogic:
    return NertzLogic(ruleset)


def _module() -> types.ModuleType:
    mod = types.ModuleType("nertz_author_plugin")
    mod.GAME = GAME  # type: ignore[attr-defined]
    mod.create_logic = create_logic  # type: ignore[attr-defined]
    return mod


@pytest.fixture(autouse=True, scope="module")
def registered() -> Iterator[None]:
    cardcore.register("cardcore.games", NAME, _module())
    yield
    cardcore.unregister("cardcore.games", NAME)


# ---------------------------------------------------------------------------- helpers

WORKS = (("KC", "KD"), ("QC", "QD"), ("JC", "JD"), ("10C", "10D"))
FILLERS = [
    "9C",
    "9D",
    "9S",
    "9H",
    "8C",
    "8D",
    "8S",
    "8H",
    "7C",
    "7D",
    "7S",
    "7H",
    "6C",
    "6D",
    "6S",
    "6H",
    "5C",
    "5D",
    "5S",
    "5H",
]


def stacked(players: int, tops: tuple[str, ...], works: tuple[tuple[str, str], ...] = WORKS) -> str:
    """A deck (top first): seat s's nertz pile of 5 fillers under ``tops[s]``, then its two
    work cards; the hands are the rest, shuffled by the seed (NERTZ-DEAL-1)."""
    fill = iter(FILLERS)
    cards: list[str] = []
    for s in range(players):
        cards += [next(fill) for _ in range(NERTZ_CARDS - 1)] + [tops[s], *works[s]]
    return " ".join(cards)


def pile(game: cardcore.Game, name: str, seat: int | None = None) -> list[str | None]:
    return next(z["cards"] for z in game.view(seat)["zones"] if z["name"] == name)


class Bot:
    """Plays the first foundation move it has, else the first legal action, after *delay*."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        found = [a for a in legal if isinstance(a, Found)]
        return Plan((found or list(legal))[0], self.delay) if legal else None


def bots(players: int, seed: int) -> list[cardcore.RandomAgent]:
    return [cardcore.RandomAgent(seed=seed * 10 + s) for s in range(players)]


def played(players: int, seed: int = 5) -> cardcore.Game:
    game = cardcore.new_game(NAME, players, seed=seed)
    cardcore.run_realtime(game, bots(players, seed), seed=seed)
    return game


# ---------------------------------------------------------------------------- real time, bots


@pytest.mark.parametrize("players", [3, 4])
def test_run_realtime_conserves_every_card_after_every_action(players: int) -> None:
    game = cardcore.new_game(NAME, players, seed=11)
    checked: list[int] = []

    def conserve(g: cardcore.Game, action: Action, at: float) -> None:
        cardcore.testing.assert_conserved(g)
        checked.append(g.version)

    result = cardcore.run_realtime(game, bots(players, 11), seed=11, on_action=conserve)
    assert game.is_over and result.reason in ("nertz", "stuck")
    assert len(checked) == len(game.record()["actions"]) > 50
    assert sum(z["count"] for z in game.view(None)["zones"]) == 104
    ats = [at for _, _, at in game.record()["actions"]]
    assert all(a is not None for a in ats) and ats == sorted(ats)
    scores = [
        p - n
        for p, n in zip(
            game.view(None)["table"]["played"], game.view(None)["table"]["nertz"], strict=True
        )
    ]
    assert list(result.scores) == scores  # NERTZ-SCORE-1


@pytest.mark.parametrize("players", [3, 4])
def test_same_seeds_same_game_and_record_replays(players: int) -> None:
    one, two = played(players), played(players)
    assert one.record() == two.record()
    other = played(players, seed=6)
    assert other.record()["actions"] != one.record()["actions"]
    again = cardcore.replay(one.record())
    assert again.position() == one.position() and again.result == one.result
    assert [again.view(s) == one.view(s) for s in range(players)] == [True] * players


@pytest.mark.parametrize("players", [3, 4])
def test_save_and_load_mid_game_then_play_on(players: int) -> None:
    game = cardcore.new_game(NAME, players, seed=2)
    cardcore.run_realtime(game, bots(players, 2), seed=2, max_actions=1)  # runs to a truncated end
    assert game.is_over and game.result.reason == "truncated"
    live = cardcore.new_game(NAME, players, seed=2)
    for k in range(40):  # every seat flips in turn, stamped on a virtual clock
        live.act(k % players, "flip", at=k * 0.5, seen=live.version)
    data = json.loads(json.dumps(live.save()))
    back = cardcore.load(data)
    assert back.position() == live.position() and back.version == live.version == 40
    for g in (live, back):
        cardcore.run_realtime(g, bots(players, 3), seed=3, start=20.0)
    assert back.record() == live.record() and back.result == live.result


@pytest.mark.parametrize("players", [3, 4])
def test_each_view_hides_the_other_hands(players: int) -> None:
    game = cardcore.new_game(NAME, players, seed=4)
    cardcore.run_realtime(
        game,
        bots(players, 4),
        seed=4,
        max_actions=None,
        on_action=lambda g, a, t: None if g.version != 60 else _hidden(g),
    )
    _hidden_at_start = cardcore.new_game(NAME, players, seed=4)
    _hidden(_hidden_at_start)


def _hidden(game: cardcore.Game) -> None:
    players = len(game.players)
    for s in range(players):
        for t in range(players):
            cards = pile(game, f"hand.{t}", s)
            if t == s:
                assert None not in cards and cards
            else:
                assert cards == [None] * len(cards)
            nertz_pile = pile(game, f"nertz.{t}", s)
            assert nertz_pile[0] is not None and set(nertz_pile[1:]) <= {None}
        cardcore.testing.assert_view_known(game, s)
        cardcore.testing.assert_view_structure(game, s)
    assert all(set(pile(game, f"hand.{t}")) <= {None} for t in range(players))  # spectator


@pytest.mark.parametrize("players", [3, 4])
def test_conformance_kit_passes(players: int) -> None:
    report = cardcore.testing.check_game(NAME, players=players, games=1, seed=players)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0 and report.skipped == {}


def test_tie_break_of_equal_due_times_is_fair_among_three_seats() -> None:
    wins: Counter[int] = Counter()
    deck = stacked(3, ("AH", "AS", "AD"))
    for seed in range(90):
        game = cardcore.new_game(NAME, 3, deck=deck, seed=1)
        cardcore.run_realtime(game, [Bot(1.0)] * 3, seed=seed, max_actions=1)
        wins[game.record()["actions"][0][0]] += 1
    assert set(wins) == {0, 1, 2} and min(wins.values()) >= 15


# ---------------------------------------------------------------------------- races


def test_two_aces_for_one_empty_foundation_at_the_same_time() -> None:
    game = cardcore.new_game(NAME, 3, deck=stacked(3, ("AH", "AS", "AD")), seed=1)
    seen = game.version
    assert [game.view(s)["legal"][0] for s in range(3)] == [
        "found AH n 0",
        "found AS n 0",
        "found AD n 0",
    ]
    game.act(1, "found AS n 0", at=1.0, seen=seen)
    with pytest.raises(cardcore.StaleActionError, match="CORE-RT-1"):
        game.act(0, "found AH n 0", at=1.0, seen=seen)
    with pytest.raises(cardcore.IllegalActionError, match="NERTZ-FOUND-1"):
        game.act(2, "found AD n 0", at=1.0)  # no seen: judged on the state now
    assert game.version == 1 and pile(game, "found.0") == ["AS"]
    assert pile(game, "nertz.0", 0)[0] == "AH" and pile(game, "nertz.2", 2)[0] == "AD"
    game.act(2, "found AD n 1", at=1.0, seen=seen)  # legal now, whatever it saw
    assert pile(game, "found.1") == ["AD"]


def test_same_card_of_two_decks_raced_onto_one_foundation() -> None:
    deck = stacked(3, ("AH", "9H", "AD"), (("2H", "KC"), ("2H", "QC"), ("JC", "JD")))
    game = cardcore.new_game(NAME, 3, deck=deck, seed=1)
    events: dict[Any, list[dict[str, Any]]] = {s: [] for s in (None, cardcore.SPECTATOR, 0, 1, 2)}
    for s, got in events.items():
        game.events.subscribe(cardcore.Event, lambda e, got=got: got.append(e.to_json()), seat=s)
    game.act(0, "found AH n 0", at=0.5)
    seen = game.version
    assert "found 2H w0 0" in game.view(0)["legal"] and "found 2H w0 0" in game.view(1)["legal"]
    game.act(1, "found 2H w0 0", at=2.0, seen=seen)
    with pytest.raises(cardcore.StaleActionError):
        game.act(0, "found 2H w0 0", at=2.0, seen=seen)
    with pytest.raises(cardcore.IllegalActionError, match="NERTZ-FOUND-1"):
        game.act(0, "found 2H w0 0", at=2.0)
    with pytest.raises(cardcore.IllegalActionError, match="CORE-RECORD-1"):
        game.act(0, "flip", at=1.5)  # stamped before the last recorded action
    assert pile(game, "found.0") == ["2H", "AH"] and pile(game, "work.0.0") == ["2H"]
    assert pile(game, "work.1.0") == [] and game.view(None)["table"]["played"] == [1, 1, 0]
    cardcore.testing.assert_conserved(game)
    texts = [(e["version"], e["action"]) for e in events[None] if e["event"] == "action-applied"]
    assert texts == [(1, "found AH n 0"), (2, "found 2H w0 0")]
    for s, got in events.items():
        assert [
            (e["version"], e["action"]) for e in got if e["event"] == "action-applied"
        ] == texts, s


def test_threads_racing_four_seats_deliver_events_in_version_order() -> None:
    from concurrent.futures import ThreadPoolExecutor

    game = cardcore.new_game(NAME, 4, seed=9)
    streams: dict[Any, list[int]] = {s: [] for s in (None, cardcore.SPECTATOR, 0, 1, 2, 3)}
    for s, got in streams.items():
        game.events.subscribe(
            cardcore.ActionApplied, lambda e, got=got: got.append(e.version), seat=s
        )

    def seat_plays(seat: int) -> int:
        done = 0
        for _ in range(15):
            try:
                game.act(seat, "flip", seen=game.version)
                done += 1
            except cardcore.StaleActionError:
                pass
        return done

    with ThreadPoolExecutor(4) as pool:
        applied = sum(pool.map(seat_plays, range(4)))
    assert applied == game.version == 60
    for s, got in streams.items():
        assert got == list(range(1, 61)), s
    cardcore.testing.assert_conserved(game)


# ---------------------------------------------------------------------------- session layer


def _session(players: int, deck: str, config: Any = None) -> Any:
    from cardcore.session import Session

    session = Session.create(
        NAME, [f"P{s}" for s in range(players)], now=0.0, deck=deck, seed=1, config=config
    )
    out: list[Any] = []
    for s in range(players):
        out += session.handle(f"c{s}", json.dumps({"type": "join", "seat": s}), now=1.0)
    assert session.phase == "playing"
    return session, out


def _act(session: Any, seat: int, text: str, seen: int, now: float) -> list[Any]:
    return session.handle(
        f"c{seat}", json.dumps({"type": "act", "action": text, "seen": seen}), now=now
    )


def test_session_three_seats_race_one_wins_the_others_are_stale_and_hands_stay_hidden() -> None:
    session, out = _session(3, stacked(3, ("AH", "AS", "AD")), None)
    views = {o.conn: o.message["view"] for o in out if o.message["type"] == "view"}
    for s in range(3):
        for z in views[f"c{s}"]["zones"]:
            if z["name"].startswith("hand.") and z["owner"] != s:
                assert z["cards"] == [None] * z["count"] and z["count"] > 0
    first = _act(session, 1, "found AS n 0", 0, 2.0)
    assert {o.conn for o in first if o.message["type"] == "update"} == {"c0", "c1", "c2"}
    for seat in (0, 2):
        reply = [
            o.message for o in _act(session, seat, f"found {('AH', '', 'AD')[seat]} n 0", 0, 2.0)
        ]
        assert [(m["type"], m["code"], m["rule"]) for m in reply] == [
            ("error", "stale", "CORE-RT-1")
        ]
    updates = [o.message for o in _act(session, 2, "flip", 1, 2.5) if o.message["type"] == "update"]
    assert len(updates) == 3
    by_conn = {
        o.conn: o.message for o in _act(session, 0, "flip", 2, 2.6) if o.message["type"] == "update"
    }
    hand0 = [
        p for p in by_conn["c1"]["patch"] if p[1][:2] == ["zones", hand(0)] and p[1][-1] == "cards"
    ]
    assert hand0 and all(
        set(p[2]) == {None} for p in hand0
    )  # seat 0's hand stays hidden from seat 1
    own = [
        p for p in by_conn["c0"]["patch"] if p[1][:2] == ["zones", hand(0)] and p[1][-1] == "cards"
    ]
    assert own and None not in own[0][2]


def test_session_turn_clock_times_out_three_seats_with_one_foundation() -> None:
    from cardcore.session import SessionConfig, TimeControl

    session, _ = _session(
        3, stacked(3, ("AH", "AS", "AD")), SessionConfig(time=TimeControl(turn=5.0))
    )
    assert session.next_deadline() == 6.0
    session.tick(7.0)  # every seat's clock ran out at 6.0: each plays its first legal action
    actions = session.game.record()["actions"]
    assert sorted(seat for seat, _, _ in actions) == [0, 1, 2] and {at for _, _, at in actions} == {
        6.0
    }
    assert [text.split()[-1] for _, text, _ in actions] == [
        "0",
        "1",
        "2",
    ]  # three foundations, no clash
    assert sorted(text.split()[1] for _, text, _ in actions) == ["AD", "AH", "AS"]


# ---------------------------------------------------------------------------- RL layer


def test_aec_env_plays_four_seats_of_real_time_nertz_to_the_end() -> None:
    pytest.importorskip("pettingzoo")
    import numpy as np

    from cardcore.rl import aec_env

    env = aec_env(NAME, 4)
    env.reset(seed=3)
    assert env.agents == ["player_0", "player_1", "player_2", "player_3"]
    rng = np.random.default_rng(0)
    rewards: dict[str, float] = {}
    for agent in env.agent_iter(max_iter=20_000):
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            rewards[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(obs["action_mask"].nonzero()[0])))
    game = env.match.game
    assert game.is_over and game.result.reason in ("nertz", "stuck")
    assert sorted(rewards) == env.possible_agents
    assert [a for a, r in rewards.items() if r > 0] == [f"player_{s}" for s in game.result.winners]
    cardcore.testing.assert_conserved(game)


def test_gym_env_one_learner_against_two_random_bots() -> None:
    pytest.importorskip("gymnasium")
    import numpy as np

    from cardcore.rl import gym_env

    env = gym_env(NAME, 3, opponents="random")
    obs, info = env.reset(seed=1)
    rng, done, steps = np.random.default_rng(1), False, 0
    while not done:
        obs, _reward, term, trunc, info = env.step(int(rng.choice(obs["action_mask"].nonzero()[0])))
        done, steps = term or trunc, steps + 1
    assert term and info["result"]["reason"] in ("nertz", "stuck") and steps > 20
    assert len(info["result"]["scores"]) == 3


# ---------------------------------------------------------------------------- web server


def test_web_server_three_people_see_only_their_own_hand() -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from cardcore.web import WebServer, create_app

    with TestClient(create_app(WebServer(None))) as client:
        made = client.post(
            "/api/sessions", json={"game": NAME, "seats": [{"name": n} for n in "ABC"]}
        )
        assert made.status_code == 201 and made.json()["realtime"] is True
        sid = made.json()["session"]
        sockets = [client.websocket_connect("/ws") for _ in range(3)]
        conns = [s.__enter__() for s in sockets]
        try:
            for seat, ws in enumerate(conns):
                ws.send_text(json.dumps({"type": "join", "session": sid, "seat": seat}))
            for seat, ws in enumerate(conns):
                while (msg := ws.receive_json())["type"] != "view":
                    pass
                hands = {
                    z["owner"]: z["cards"]
                    for z in msg["view"]["zones"]
                    if z["name"].startswith("hand.")
                }
                assert None not in hands[seat]
                assert all(set(cards) == {None} for owner, cards in hands.items() if owner != seat)
            conns[1].send_text(json.dumps({"type": "act", "action": "flip", "seen": 0}))
            for seat, ws in enumerate(conns):
                msg = ws.receive_json()
                assert msg["type"] == "update" and msg["action"]["text"] == "flip"
                patch = {tuple(p[1]): p[2] for p in msg["patch"]}
                hand1 = patch[("zones", 13, "cards")]
                assert (None in hand1) is (seat != 1)
        finally:
            for s in reversed(sockets):
                s.__exit__(None, None, None)


# ---------------------------------------------------------------------------- findings


def test_end_game_reveals_every_card_but_beneath_a_top_pile() -> None:
    # end_game's default reveal, as documented: hands and face-down piles turn face up for
    # every seat; a TOP pile (a waste) still shows only its top: nobody looks through it
    game = played(3, seed=11)
    assert game.is_over
    for seat in (None, 0, 1, 2):
        zones = game.view(seat)["zones"]
        wastes = [z for z in zones if z["name"].startswith("waste.") and z["count"] > 1]
        assert wastes
        for z in zones:
            if z["visibility"] == "top" and z["count"]:
                assert z["cards"][0] is not None and set(z["cards"][1:]) <= {None}
            else:
                assert None not in z["cards"], z["name"]
