"""Two-player Cribbage written from cardcore's docs alone (2026-12-20), as a game author would.

The plugin is inline (the game, ``cribbage``, registered with ``cardcore.register`` in a
fixture), with its rule IDs:

CRIB-DEAL-1    6 cards each; the dealer alternates every hand (seat 0 deals first).
CRIB-DISCARD-1 each seat lays 2 cards face down into the dealer's crib, both at once.
CRIB-DISCARD-2 a seat that has discarded waits for the other.
CRIB-STARTER-1 the starter is cut; a jack gives the dealer 2 (his heels).
CRIB-PLAY-1    non-dealer leads, turns alternate, the count may not pass 31.
CRIB-GO-1      a seat that cannot play says go (only then); the other plays on.
CRIB-PEG-1     15 and 31 score 2; pairs 2/6/12; runs of 3+ score their length.
CRIB-PEG-2     go (no one can play) and the last card score 1 (31 scores its 2 only).
CRIB-SHOW-1    non-dealer's hand, dealer's hand, crib (with the starter): 15s, pairs,
               runs, flush (4 in hand (+1), 5 only in the crib), nobs 1.
CRIB-WIN-1     first to 121 wins at once, even mid-pegging or mid-show.
CRIB-SKUNK-1   option skunk (0 off / 91): a loser below it pays 2 games, else 1.

Every test here checks a documented claim the author relied on, and each held: no engine
bug was found on this path. Games are seeded; no test reads a random deal's card words.
"""

from __future__ import annotations

import json
import random
import types
from collections import Counter
from collections.abc import Iterator, Mapping
from functools import cache
from itertools import combinations, pairwise
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    ALL,
    Action,
    Card,
    CardMoved,
    CardRevealed,
    CardsDealt,
    Emit,
    Event,
    GameInfo,
    GameLogic,
    GameState,
    IllegalActionError,
    Layout,
    Ledger,
    NotationError,
    Option,
    OptionError,
    Ruleset,
    ScoreSheet,
    ScoreTable,
    Shuffled,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock, gather
from cardcore.positions import check
from cardcore.search import sample_position
from cardcore.testing import check_game
from cardcore.turns import end_game, winners_by

TARGET = 121
VALUES = ScoreTable.face_values()
STOCK, STARTER, CRIB, PLAY = 0, 1, 2, 3


def hand(seat: int) -> int:
    return 4 + seat


@cache
def layout() -> Layout:
    return Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("starter", None, Visibility.EVERYONE),
            ZoneSpec("crib"),
            ZoneSpec("play", None, Visibility.EVERYONE, ordered=True),
            ZoneSpec("hand.0", 0, Visibility.OWNER),
            ZoneSpec("hand.1", 1, Visibility.OWNER),
        ]
    )


@frozen
class Discard(Action):
    """Lay the cards at positions *first* < *second* of the hand (top first) into the crib."""

    first: int
    second: int
    verb: ClassVar[str] = "discard"

    def notation(self) -> str:
        return f"discard {self.first} {self.second}"


@frozen
class Play(Action):
    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


@frozen
class Go(Action):
    verb: ClassVar[str] = "go"


CribAction = Discard | Play | Go


class Pegged(Event):
    """Seat *seat* scored *points* for *why*; *totals* after it."""

    slug: ClassVar[str] = "cribbage-pegged"
    seat: int
    points: int
    why: str
    totals: tuple[int, ...]


class CribState(GameState):
    __slots__ = (
        "count",
        "dealer",
        "hand_points",
        "last",
        "ledger",
        "owners",
        "past",
        "phase",
        "points",
        "said_go",
        "seq_start",
        "sheet",
    )
    _mutable = ("zones", "points", "said_go", "sheet", "ledger", "past", "hand_points")
    phase: str
    dealer: int
    points: list[int]
    count: int
    seq_start: int
    owners: tuple[int, ...]
    said_go: list[int]
    last: int | None
    sheet: ScoreSheet
    ledger: Ledger
    past: list[dict[str, Any]]
    hand_points: list[int]


# ---------------------------------------------------------------- scoring (pure)


def fifteens(cards: list[Card]) -> int:
    vals = [VALUES[c] for c in cards]
    return 2 * sum(
        1 for n in range(2, len(vals) + 1) for combo in combinations(vals, n) if sum(combo) == 15
    )


def pairs(cards: list[Card]) -> int:
    return sum(2 for a, b in combinations(cards, 2) if a.rank == b.rank)


def runs(cards: list[Card]) -> int:
    ranks = Counter(int(c.rank) for c in cards)
    best = 0
    for low in range(1, 14):
        n, mult = 0, 1
        while ranks.get(low + n):
            mult *= ranks[low + n]
            n += 1
        if n >= 3 and not ranks.get(low - 1):
            best += n * mult
    return best


def show(held: list[Card], starter: Card, crib: bool) -> int:
    allc = [*held, starter]
    pts = fifteens(allc) + pairs(allc) + runs(allc)
    if len({c.suit for c in held}) == 1:
        if starter.suit == held[0].suit:
            pts += 5
        elif not crib:
            pts += 4
    pts += sum(1 for c in held if c.label == "J" and c.suit == starter.suit)
    return pts


def peg(seq: list[Card], count: int) -> list[tuple[int, str]]:
    out = []
    if count in (15, 31):
        out.append((2, str(count)))
    k = 1
    while k < len(seq) and seq[-1 - k].rank == seq[-1].rank:
        k += 1
    if k >= 2:
        out.append(({2: 2, 3: 6, 4: 12}[k], f"{k} of a kind"))
    for n in range(len(seq), 2, -1):
        ranks = sorted(int(c.rank) for c in seq[-n:])
        if all(b - a == 1 for a, b in pairwise(ranks)):
            out.append((n, f"run of {n}"))
            break
    return out


# ---------------------------------------------------------------- logic


class CribbageLogic(GameLogic[CribState, CribAction]):
    action_types = (Discard, Play, Go)
    position_fields = (
        "to_act",
        "phase",
        "dealer",
        "points",
        "count",
        "seq_start",
        "owners",
        "said_go",
        "last",
    )
    max_legal = 15

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 2 * TARGET * 16  # every hand scores at least 1 (last card): at most 2*TARGET hands

    def blank_state(self, players: int, options: Mapping[str, Any]) -> CribState:
        s = CribState(players, options, Zones(layout()))
        s.phase, s.dealer, s.points, s.count, s.seq_start = "discard", 0, [0, 0], 0, 0
        s.owners, s.said_go, s.last = (), [0, 0], None
        s.sheet, s.ledger, s.past, s.hand_points = ScoreSheet(2), Ledger(2), [], [0, 0]
        return s

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> CribState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    def _deal(self, state: CribState, emit: Emit | None) -> None:  # CRIB-DEAL-1
        deal_round_robin(state, STOCK, [hand(1 - state.dealer), hand(state.dealer)], 6)
        state.phase, state.to_act = "discard", (0, 1)
        state.count, state.seq_start, state.owners, state.said_go, state.last = (
            0,
            0,
            (),
            [0, 0],
            None,
        )
        state.hand_points = [0, 0]
        if emit is not None:
            emit(CardsDealt((6, 6)))

    # -- legality
    def legal_actions(self, state: CribState, seat: int) -> tuple[CribAction, ...]:
        if seat not in state.to_act:
            return ()
        if state.phase == "discard":
            return tuple(Discard(seat, i, j) for i, j in combinations(range(6), 2))
        playable = [c for c in state.zones.cards[hand(seat)] if state.count + VALUES[c] <= 31]
        if not playable:
            return (Go(seat),)
        return tuple(
            Play(seat, c) for c in sorted(playable, key=lambda c: (int(c.rank), c.suit.value))
        )

    def rule_for(self, state: CribState, action: CribAction) -> tuple[str, str]:
        if isinstance(action, Discard):
            if state.phase != "discard":
                return "CRIB-DISCARD-1", "the crib is laid already"
            return "CRIB-DISCARD-1", "discard two distinct positions 0-5, the lower first"
        if state.phase != "play":
            return "CRIB-DISCARD-1", "first lay two cards into the crib"
        if isinstance(action, Go):
            return "CRIB-GO-1", "say go only when no card can be played"
        if action.card not in state.zones.cards[hand(action.seat)]:
            return "CRIB-PLAY-1", f"{action.card} is not in seat {action.seat}'s hand"
        return "CRIB-PLAY-1", f"the count may not pass 31 ({state.count} + {VALUES[action.card]})"

    def waiting_rule(self, state: CribState, action: CribAction) -> tuple[str, str] | None:
        if state.phase == "discard" and not state.is_over:
            return (
                "CRIB-DISCARD-2",
                f"seat {action.seat} has laid its crib cards; the other seat lays",
            )
        return None

    # -- apply
    def apply(self, state: CribState, action: CribAction, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        if isinstance(action, Discard):
            n = len(z.cards[hand(seat)])
            idx = sorted((n - 1 - action.first, n - 1 - action.second), reverse=True)
            for i in idx:
                card = z.move(hand(seat), CRIB, i, mask=1 << seat)
                if emit is not None:
                    emit(CardMoved(seat, f"hand.{seat}", "crib", card, visible_to=1 << seat))
            state.to_act = tuple(s for s in state.to_act if s != seat)
            if not state.to_act:
                self._cut(state, emit)
            return
        if isinstance(action, Play):
            i = z.cards[hand(seat)].index(action.card)
            z.move(hand(seat), PLAY, i)
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", "play", action.card))
            state.count += VALUES[action.card]
            state.owners = (*state.owners, seat)
            state.last = seat
            for pts, why in peg(z.cards[PLAY][state.seq_start :], state.count):  # CRIB-PEG-1
                if self._score(state, seat, pts, why, emit):
                    return
        else:  # CRIB-GO-1
            state.said_go[seat] = 1
        self._next(state, seat, emit)

    def _cut(self, state: CribState, emit: Emit | None) -> None:  # CRIB-STARTER-1
        z = state.zones
        card = z.move(STOCK, STARTER, mask=ALL)
        if emit is not None:
            emit(CardRevealed(None, "starter", 0, card))
        state.phase = "play"
        state.to_act = (1 - state.dealer,)
        if card.label == "J":
            self._score(state, state.dealer, 2, "his heels", emit)

    def _score(self, state: CribState, seat: int, pts: int, why: str, emit: Emit | None) -> bool:
        """Add points (through score_round); end the game at the target (CRIB-WIN-1)."""
        add = [0, 0]
        add[seat] = pts
        got = self.score_round(state, add)
        for s in (0, 1):
            state.points[s] += got[s]
            state.hand_points[s] += got[s]
        if emit is not None:
            emit(Pegged(seat, got[seat], why, tuple(state.points)))
        if max(state.points) >= TARGET:
            self._finish(state)
            return True
        return False

    def _finish(self, state: CribState) -> None:
        win = max((0, 1), key=lambda s: state.points[s])
        lose = 1 - win
        games = 2 if state.points[lose] < state.options["skunk"] else 1  # CRIB-SKUNK-1
        amounts = [0, 0]
        amounts[win], amounts[lose] = games, -games
        state.ledger.post(amounts, "skunk" if games == 2 else "game")
        state.sheet.add_round(state.hand_points)
        end_game(state, (win,), tuple(map(float, state.points)), "121", payouts=state.ledger.totals)

    def _next(self, state: CribState, actor: int, emit: Emit | None) -> None:
        z = state.zones
        while True:
            if not z.cards[hand(0)] and not z.cards[hand(1)]:
                last_card = state.count != 31 and state.last is not None  # CRIB-PEG-2 last card
                if last_card and self._score(state, state.last, 1, "last card", emit):
                    return
                self._show(state, emit)
                return
            if state.count == 31:
                self._reset(state)
                lead = 1 - actor if z.cards[hand(1 - actor)] else actor
                state.to_act = (lead,)
                return
            for s in (1 - actor, actor):
                if not state.said_go[s] and z.cards[hand(s)]:  # it plays, or says go (CRIB-GO-1)
                    state.to_act = (s,)
                    return
            last = state.last if state.last is not None else actor
            if self._score(state, last, 1, "go", emit):  # CRIB-PEG-2
                return
            self._reset(state)
            actor = last  # the other seat leads the next count
            lead = 1 - last if z.cards[hand(1 - last)] else last
            if z.cards[hand(lead)]:
                state.to_act = (lead,)
                return

    def _reset(self, state: CribState) -> None:
        state.count, state.seq_start, state.said_go = 0, len(state.zones.cards[PLAY]), [0, 0]

    def _show(self, state: CribState, emit: Emit | None) -> None:  # CRIB-SHOW-1
        z, d = state.zones, state.dealer
        starter = z.cards[STARTER][0]
        for i in range(len(z.cards[CRIB])):
            card = z.reveal(CRIB, i)
            if emit is not None:
                emit(CardRevealed(d, "crib", i, card))
        held = {
            s: [c for c, o in zip(z.cards[PLAY], state.owners, strict=True) if o == s]
            for s in (0, 1)
        }
        shown = []
        for s, cards, crib in (
            (1 - d, held[1 - d], False),
            (d, held[d], False),
            (d, z.cards[CRIB], True),
        ):
            pts = show(list(cards), starter, crib)
            shown.append(pts)
            if pts and self._score(state, s, pts, "crib" if crib else "hand", emit):
                return
        state.past.append(
            {
                "dealer": d,
                "starter": str(starter),
                "hands": [[str(c) for c in held[s]] for s in (0, 1)],
                "crib": [str(c) for c in z.cards[CRIB]],
                "show": shown,
                "points": list(state.hand_points),
            }
        )
        state.sheet.add_round(state.hand_points)
        state.dealer = 1 - d
        gather(state, STOCK)
        if emit is not None:
            emit(Shuffled("stock", 52))
        self._deal(state, emit)

    # -- reads
    def table(self, state: CribState, seat: int | None) -> dict[str, Any]:
        return {
            "phase": state.phase,
            "dealer": state.dealer,
            "points": list(state.points),
            "count": state.count,
            "seq_start": state.seq_start,
            "owners": list(state.owners),
            "said_go": list(state.said_go),
            "last": state.last,
        }

    def rounds_played(self, state: CribState) -> int:
        return len(state.past)

    def history(self, state: CribState, seat: int | None, since: int) -> list[dict[str, Any]]:
        return [dict(h) for h in state.past[since:]]

    def scores(self, state: CribState) -> tuple[float, ...]:
        return tuple(map(float, state.points))

    def standings(self, state: CribState) -> tuple[int, ...]:
        return winners_by(state.points, lowest=False)

    def utility(self, state: CribState) -> tuple[float, ...]:
        return tuple(map(float, state.points))

    def payouts(self, state: CribState) -> tuple[int, ...] | None:
        return tuple(state.ledger.totals)

    def check_position(self, state: CribState) -> None:
        check(
            state.phase in ("discard", "play"),
            "phase must be discard or play, not {!r}",
            state.phase,
        )
        check(
            len(state.owners) == len(state.zones.cards[PLAY]),
            "owners must name one seat per played card",
        )
        check(state.dealer in (0, 1), "dealer must be 0 or 1")
        check(
            state.last in (None, 0, 1) and set(state.owners) <= {0, 1},
            "last and owners must be seats",
        )


GAME = GameInfo(
    "cribbage",
    "Two-player Cribbage to 121",
    2,
    2,
    version="0.1.0",
    options=(
        Option(
            "skunk",
            0,
            "Below this a loser pays 2 games (0: no skunk)",
            choices=(0, 91),
            rule_id="CRIB-SKUNK-1",
        ),
    ),
    fields=(
        ViewField("phase", "choice", "discard or play", choices=("discard", "play")),
        ViewField("dealer", "seat", "The dealer, who owns the crib."),
        ViewField("points", "per-seat", "Points so far.", of="int"),
        ViewField("count", "int", "The running count of the play (0-31)."),
        ViewField(
            "seq_start", "int", "Where the current count starts in the play pile (bottom first)."
        ),
        ViewField("owners", "json", "Who played each card of the play pile, bottom first."),
        ViewField("said_go", "per-seat", "Whether each seat said go in this count.", of="int"),
        ViewField("last", "seat", "Who played the last card of this count."),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> CribbageLogic:
    return CribbageLogic(ruleset)


CRIB_GAME = GAME


class AutoGoLogic(CribbageLogic):
    """The author's first draft: a seat that cannot play after the other's go takes the go
    point at once, without an action of its own (a public effect of its hidden cards)."""

    def _next(self, state: CribState, actor: int, emit: Emit | None) -> None:
        z = state.zones
        while True:
            if not z.cards[hand(0)] and not z.cards[hand(1)]:
                last_card = state.count != 31 and state.last is not None
                if last_card and self._score(state, state.last, 1, "last card", emit):
                    return
                self._show(state, emit)
                return
            if state.count == 31:
                self._reset(state)
                state.to_act = (1 - actor if z.cards[hand(1 - actor)] else actor,)
                return
            for s in (1 - actor, actor):
                if state.said_go[s] or not z.cards[hand(s)]:
                    continue
                can = any(state.count + VALUES[c] <= 31 for c in z.cards[hand(s)])
                if can or not any(state.said_go):
                    state.to_act = (s,)
                    return
            last = state.last if state.last is not None else actor
            if self._score(state, last, 1, "go", emit):
                return
            self._reset(state)
            actor = last
            lead = 1 - last if z.cards[hand(1 - last)] else last
            if z.cards[hand(lead)]:
                state.to_act = (lead,)
                return


AUTOGO_GAME = GameInfo(
    "cribbage-autogo",
    "Cribbage, first draft",
    2,
    2,
    version="0.1.0",
    options=GAME.options,
    fields=GAME.fields,
)


def _module(name: str, info: GameInfo, logic: type[CribbageLogic]) -> types.ModuleType:
    module = types.ModuleType(name)
    module.GAME = info  # type: ignore[attr-defined]

    def create(ruleset: Ruleset) -> CribbageLogic:
        return logic(ruleset)

    module.create_logic = hookimpl(create)  # type: ignore[attr-defined]
    return module


@pytest.fixture(scope="module", autouse=True)
def _plugins() -> Iterator[None]:
    cardcore.register(
        "cardcore.games", "cribbage", _module("crib_2026_12_20", CRIB_GAME, CribbageLogic)
    )
    cardcore.register(
        "cardcore.games",
        "cribbage-autogo",
        _module("crib_autogo_2026_12_20", AUTOGO_GAME, AutoGoLogic),
    )
    yield
    cardcore.unregister("cardcore.games", "cribbage-autogo")
    cardcore.unregister("cardcore.games", "cribbage")


def _random_game(seed: int, **kwargs: Any) -> cardcore.Game:
    game = cardcore.new_game("cribbage", 2, seed=seed, **kwargs)
    cardcore.play(game, [cardcore.RandomAgent(seed=seed), cardcore.RandomAgent(seed=seed + 1)])
    return game


def test_crib_show_1_scoring_of_known_hands() -> None:
    p = cardcore.parse_cards
    assert show(p("5C 5D 5H JS"), p("5S")[0], False) == 29
    assert show(p("4H 5H 6H 7H"), p("KS")[0], False) == 12  # 4 + run 4 + flush 4
    assert (
        show(p("4H 5H 6H 7H"), p("KS")[0], True) == 8
    )  # a 4-card flush does not count in the crib
    assert show(p("3H 3S 4D 5C"), p("5D")[0], False) == 20
    assert peg(p("5H 5S 5D"), 15) == [(2, "15"), (6, "3 of a kind")]
    assert peg(p("3H 5S 4D"), 12) == [(3, "run of 3")]


def test_score_table_face_values_count_fifteens() -> None:
    """ScoreTable.face_values: ace 1, court cards 10 (the docs' building block for counts)."""
    table = ScoreTable.face_values()
    assert [table[c] for c in cardcore.parse_cards("AS 5H 10D JC QS KH")] == [1, 5, 10, 10, 10, 10]
    assert table.total(cardcore.parse_cards("KH 5D")) == 15


@pytest.mark.parametrize("skunk", [0, 91])
def test_conformance_kit_passes(skunk: int) -> None:
    report = check_game("cribbage", players=2, games=2, seed=5, options={"skunk": skunk})
    assert report.ok and report.leaks == 0 and report.cards_lost == 0
    assert "positions" not in report.skipped and "scores" not in report.skipped


def test_kit_twins_flags_an_automatic_go_point_that_depends_on_hidden_cards() -> None:
    """testing-kit.rst (Twins): a public effect of a card no other seat has seen fails the
    check, "and rightly so"; the fix is an action of the seat's own (CRIB-GO-1)."""
    report = check_game("cribbage-autogo", players=2, games=12, strict=False, checks={"twins"})
    assert not report.ok
    assert any("depend on cards hidden" in f for f in report.failures)
    fixed = check_game("cribbage", players=2, games=12, strict=False, checks={"twins"})
    assert fixed.ok and fixed.twins > 0


def test_crib_discard_1_simultaneous_both_seats_to_act_and_hidden() -> None:
    seen: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
    subs = [(cardcore.Event, lambda e, s=s: seen[s].append(e.to_json()), s) for s in (0, 1)]
    game = cardcore.new_game("cribbage", 2, seed=11, subscribers=subs)
    assert game.to_act == (0, 1)
    game.act(1, "discard 0 5")  # the non-dealer first: either order
    assert game.to_act == (0,)
    crib = {z["name"]: z for z in game.view(0)["zones"]}["crib"]
    assert crib["count"] == 2 and crib["cards"] == [None, None]
    own = {z["name"]: z for z in game.view(1)["zones"]}["crib"]["cards"]
    assert None not in own and len(own) == 2
    moved0 = [e for e in seen[0] if e["event"] == "card-moved"]
    moved1 = [e for e in seen[1] if e["event"] == "card-moved"]
    assert [e["card"] for e in moved0] == [None, None]
    assert all(e["card"] is not None for e in moved1)
    applied = [e["action"] for e in seen[0] if e["event"] == "action-applied"]
    assert applied == ["discard 0 5"]  # positions, never cards
    game.act(0, "discard 1 2")
    assert game.view(0)["table"]["phase"] == "play" and game.to_act == (1,)


def test_crib_discard_2_waiting_rule_cites_the_game_rule() -> None:
    game = cardcore.new_game("cribbage", 2, seed=11)
    game.act(0, "discard 0 1")
    with pytest.raises(IllegalActionError, match=r"\(CRIB-DISCARD-2\)$"):
        game.act(0, "discard 0 1")


def test_discard_notation_errors() -> None:
    game = cardcore.new_game("cribbage", 2, seed=11)
    with pytest.raises(NotationError, match="CORE-NOTATION-1"):
        game.act(0, "discard 0")
    with pytest.raises(IllegalActionError, match="CRIB-DISCARD-1"):
        game.act(0, "discard 4 1")
    with pytest.raises(IllegalActionError, match="CRIB-DISCARD-1"):
        game.act(0, "go")
    assert game.version == 0


def test_no_view_shows_the_other_hand_or_the_crib_before_the_show() -> None:
    game = cardcore.new_game("cribbage", 2, seed=4)
    agents = [cardcore.RandomAgent(seed=4), cardcore.RandomAgent(seed=5)]
    while not game.is_over:
        for s in (0, 1):
            zones = {z["name"]: z for z in game.view(s)["zones"]}
            assert set(zones[f"hand.{1 - s}"]["cards"]) <= {None}
            state = game.state
            own = sorted(
                str(c)
                for c, m in zip(state.zones.cards[CRIB], state.zones.seen[CRIB], strict=True)
                if m & 1 << s
            )
            assert sorted(c for c in zones["crib"]["cards"] if c is not None) == own
            assert set({z["name"]: z for z in game.view(None)["zones"]}["crib"]["cards"]) <= {None}
        seat = game.to_act[0]
        game.apply(agents[seat].choose(game.view(seat), game.legal_actions(seat)))
    assert len(game.history()) >= 1


def test_crib_win_1_ends_at_121_with_skunk_payouts_from_the_ledger() -> None:
    game = _random_game(3, options={"skunk": 91})
    result = game.result
    assert result is not None and result.reason == "121"
    (winner,) = result.winners
    assert result.scores[winner] >= 121 and result.scores[1 - winner] < 121
    games = 2 if result.scores[1 - winner] < 91 else 1
    assert (
        result.payouts is not None and result.payouts[winner] == games and sum(result.payouts) == 0
    )


def test_option_choices_refusal_cites_rule_id() -> None:
    with pytest.raises(OptionError, match=r"\(CRIB-SKUNK-1\)$") as err:
        cardcore.new_game("cribbage", 2, options={"skunk": 50})
    assert err.value.rule_id == "CRIB-SKUNK-1"


def test_save_load_record_replay_and_finished_position() -> None:
    game = _random_game(3)
    loaded = cardcore.load(json.dumps(game.save()))
    assert loaded.result == game.result and loaded.view(0) == game.view(0)
    replayed = cardcore.replay(game.record())
    assert replayed.result == game.result and replayed.history() == game.history()
    again = cardcore.new_game("cribbage", 2, position=game.position(), seed=1)
    assert again.is_over and again.result == game.result


def test_default_position_blank_none_takes_text_as_documented() -> None:
    """game.rst: a blank None takes null or any number, text or bool: check_position must
    refuse what the rules forbid (here ``last`` that is no seat)."""
    pos = cardcore.new_game("cribbage", 2, seed=5).position()
    assert "last=null" in pos
    with pytest.raises(OptionError, match="last and owners must be seats"):
        cardcore.new_game("cribbage", 2, position=pos.replace("last=null", 'last="x"'), seed=1)
    with pytest.raises(OptionError, match="field 'said_go' must be a list of 2 ints"):
        cardcore.new_game(
            "cribbage", 2, position=pos.replace("said_go=[0,0]", "said_go=[0,false]"), seed=1
        )


def test_search_sample_reads_table_fields_of_the_same_name() -> None:
    """search-agents.rst: the default notation takes each position field from the view's
    table when it holds one of that name and type (a tuple slot from a JSON list, a None
    slot from a seat); the seat's own crib cards are marked known to all (documented)."""
    game = cardcore.new_game("cribbage", 2, seed=5)
    game.act(0, "discard 0 1")
    game.act(1, "discard 0 1")
    for text in ("play", "play"):
        seat = game.to_act[0]
        game.apply(next(a for a in game.legal_actions(seat) if str(a).startswith(text)))
    seat = game.to_act[0]
    view = game.view(seat)
    sample = sample_position(view, random.Random(1))
    twin = cardcore.new_game("cribbage", 2, position=sample, seed=2)
    assert twin.state.owners == game.state.owners and isinstance(twin.state.owners, tuple)
    assert twin.state.last == game.state.last is not None
    assert twin.view(seat)["table"] == view["table"]
    assert sorted(map(str, twin.legal_actions(seat))) == sorted(view["legal"])


def test_ismcts_plays_cribbage_from_views() -> None:
    bot = cardcore.load_agent("ismcts", seed=1, iterations=8)
    game = cardcore.new_game("cribbage", 2, seed=1)
    result = cardcore.play(game, [bot, cardcore.RandomAgent(seed=1)])
    assert result.reason == "121" and game.is_over


def test_score_sheet_rounds_and_totals() -> None:
    game = _random_game(3)
    sheet = game.state.sheet
    assert len(sheet.rounds) == len(game.history()) + 1  # the hand the game ended in
    assert sheet.totals == [int(x) for x in game.result.scores]
