"""Nertz (Pounce), a real-time plugin written from the docs alone, and its author's tests.

The game (``tests/plugins/nertz_2026_12_15.py``, rules in its docstring) and its house rule
(``tests/plugins/nertz_rules_2026_12_15.py``, a nertz bonus with a bounded option) are
registered in place with ``cardcore.register``. Every deal here is stacked (``deck=``):
seat 0's 52 cards first, then seat 1's (NERTZ-DECK-1).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import cardcore
from cardcore import (
    SPECTATOR,
    Event,
    IllegalActionError,
    NotationError,
    OptionError,
    Plan,
    StaleActionError,
)
from cardcore.session import Session
from cardcore.testing import check_game
from tests.plugins import nertz_2026_12_15 as nz
from tests.plugins import nertz_rules_2026_12_15 as house

NAME, BONUS = nz.NAME, house.NAME
HEARTS = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH"]
CODES = [
    f"{r}{s}"
    for s in "SHDC"
    for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
]


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, nz)
    cardcore.register("cardcore.rules", BONUS, house)
    yield
    cardcore.unregister("cardcore.rules", BONUS)
    cardcore.unregister("cardcore.games", NAME)


def seat_deck(nertz: list[str], work: list[str], stock_top: list[str] = ()) -> list[str]:
    """One seat's 52 cards, top first: nertz pile (top first), 4 work cards, then stock."""
    first = [*nertz, *work, *stock_top]
    return first + [c for c in CODES if c not in first]


# seat 0 and seat 1 both hold the hearts in their nertz piles, ace on top
SEAT0 = seat_deck(HEARTS, ["KS", "QS", "JS", "10S"], ["9D", "8D", "7D"])
SEAT1 = seat_deck(HEARTS, ["KC", "QC", "JC", "10C"], ["5S", "6S", "7S"])
DECK = " ".join(SEAT0 + SEAT1)


def new(rules: list[str] = (), **options: Any) -> cardcore.Game:
    return cardcore.new_game(
        NAME, ["Ann", "Bob"], deck=DECK, seed=4, rules=list(rules), options=options or None
    )


def frozen(game: cardcore.Game) -> tuple[Any, ...]:
    return game.position(), game.version, json.dumps(game.record(), sort_keys=True)


def zone(view: dict[str, Any], name: str) -> list[str | None]:
    return next(z["cards"] for z in view["zones"] if z["name"] == name)


class Greedy:
    """Foundation first, then a nertz card onto a work pile, then the stock; else stuck."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        if not legal:
            return None
        seat = view["seat"]
        top = zone(view, f"nertz.{seat}")
        for a in legal:
            if a.verb == "found":
                return Plan(a, self.delay)
        for a in legal:
            if a.verb == "move" and top and str(a.card) == top[0]:
                return Plan(a, self.delay)
        for a in legal:
            if a.verb == "turn":
                return Plan(a, self.delay)
        return Plan(legal[-1], self.delay)


# --- the conformance kit -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_kit(players: int) -> None:
    report = check_game(NAME, players=players, games=2, seed=players)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0 and report.truncated == 0


def test_conformance_kit_with_house_rule() -> None:
    report = check_game(NAME, players=2, rules=[BONUS], games=2, seed=9)
    assert report.ok and report.leaks == 0


# --- deal, owners and hidden information -----------------------------------------------


def test_nertz_deck_1_each_seat_gets_its_own_stacked_deck() -> None:
    game = new()
    assert sorted(map(str, game.logic.deck(2, game.options))) == sorted(CODES * 2)
    view = game.view(0)
    assert zone(view, "work.0.0") == ["KS"] and zone(view, "work.1.0") == ["KC"]
    assert view["table"]["nertz"] == [13, 13] and view["table"]["stock"] == [35, 35]


def test_nertz_deal_1_face_down_cards_hidden_from_everyone_owner_included() -> None:
    game = new()
    for seat in (0, 1, None):
        view = game.view(seat)
        for s in (0, 1):
            assert zone(view, f"nertz.{s}") == ["AH"] + [None] * 12
            assert zone(view, f"stock.{s}") == [None] * 35
    # the position marks the face-down nertz cards known to nobody
    text = game.position()
    nertz0 = text.split("nertz.0: ")[1].split(" |")[0].split()
    assert nertz0[-1] == "AH!" and not any("!" in c or "@" in c for c in nertz0[:-1])


def test_nertz_stock_1_turn_shows_only_the_top_card_to_everyone() -> None:
    streams: dict[Any, list[dict[str, Any]]] = {0: [], 1: [], SPECTATOR: [], None: []}
    game = new()
    for seat, out in streams.items():
        game.events.subscribe(Event, lambda e, out=out: out.append(e.to_json()), seat=seat)
    game.act(0, "turn")
    for seat, stream in ((0, 0), (1, 1), (None, SPECTATOR)):
        assert zone(game.view(seat), "waste.0") == ["7D", None, None]
        assert zone(game.view(seat), "stock.0") == [None] * 32
        moved = [e["card"] for e in streams[stream] if e["event"] == "card-moved"]
        assert moved == [None, None, "7D"], (seat, moved)
    host = [e["card"] for e in streams[None] if e["event"] == "card-moved"]
    assert host == ["9D", "8D", "7D"]


def test_nertz_stock_1_turning_the_waste_over_forgets_it() -> None:
    game = new()
    for _ in range(12):  # 35 cards: 11 turns of 3 and one of 2, then the waste turns over
        game.act(0, "turn")
    assert game.view(0)["table"]["stock"][0] == 0
    game.act(0, "turn")
    assert game.view(0)["table"]["stock"][0] == 35
    text = game.position()
    stock0 = text.split("stock.0: ")[1].split(" |")[0].split()
    assert len(stock0) == 35 and not any("!" in c or "@" in c for c in stock0)


# --- the race for one foundation --------------------------------------------------------


def test_nertz_found_1_race_for_the_same_foundation_one_wins_other_is_stale() -> None:
    game = new()
    ann, bob = game.view(0), game.view(1)
    assert "found AH 0" in ann["legal"] and "found AH 0" in bob["legal"]
    game.act(0, "found AH 0", at=1.0, seen=ann["version"])
    before = frozen(game)
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.act(1, "found AH 0", at=1.1, seen=bob["version"])
    assert frozen(game) == before
    assert "found AH 1" in game.view(1)["legal"]
    game.act(1, "found AH 1", at=1.5)
    # both twos may go on foundation 0: a second race
    ann, bob = game.view(0), game.view(1)
    assert "found 2H 0" in ann["legal"] and "found 2H 0" in bob["legal"]
    game.act(1, "found 2H 0", at=2.0, seen=bob["version"])
    with pytest.raises(StaleActionError):
        game.act(0, "found 2H 0", at=2.0, seen=ann["version"])
    assert game.view(0)["table"]["played"] == [1, 2]


def test_nertz_found_1_without_seen_the_loser_is_illegal_citing_the_rule() -> None:
    game = new()
    game.act(0, "found AH 0")
    before = frozen(game)
    with pytest.raises(IllegalActionError, match="NERTZ-FOUND-1"):
        game.act(1, "found AH 0")
    assert frozen(game) == before


def test_core_record_1_earlier_stamp_arriving_second_is_refused() -> None:
    game = new()
    game.act(0, "turn", at=5.0)
    before = frozen(game)
    with pytest.raises(IllegalActionError, match="CORE-RECORD-1"):
        game.act(1, "turn", at=4.0)
    assert frozen(game) == before


# --- hostile callers ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "text", "error", "rule"),
    [
        (0, "found AC 0", IllegalActionError, "NERTZ-OWN-1"),  # not seat 0's card at all
        (0, "move KC 0", IllegalActionError, "NERTZ-OWN-1"),  # seat 1's work pile card
        (0, "found 3H 0", IllegalActionError, "NERTZ-OWN-1"),  # face down in its nertz
        (0, "found 9D 0", IllegalActionError, "NERTZ-OWN-1"),  # face down in its stock
        (0, "found AH 99", IllegalActionError, "NERTZ-FOUND-1"),
        (0, "move AH 9", IllegalActionError, "NERTZ-MOVE-1"),
        (0, "found 1H 0", NotationError, "CORE-NOTATION"),
        (0, "found AH zero", NotationError, "CORE-NOTATION-1"),
        (0, "fly away", NotationError, "fly"),
        (0, "", NotationError, None),
        (7, "turn", IllegalActionError, "CORE-SEAT-1"),
        (-1, "turn", IllegalActionError, "CORE-SEAT-1"),
    ],
)
def test_nertz_own_1_hostile_inputs_are_refused_and_change_nothing(
    seat: int, text: str, error: type[Exception], rule: str
) -> None:
    game = new()
    game.act(1, "turn")
    before = frozen(game)
    with pytest.raises(error, match=rule) as info:
        game.act(seat, text)
    assert isinstance(info.value, cardcore.CardcoreError)
    assert frozen(game) == before


def test_nertz_own_1_refusal_does_not_say_where_a_hidden_card_lies() -> None:
    game = new()
    messages = {}
    for card in ("3H", "9D", "AC"):  # face-down nertz, face-down stock, nowhere of seat 0's
        with pytest.raises(IllegalActionError) as info:
            game.act(0, f"found {card} 0")
        messages[card] = str(info.value).replace(card, "<card>")
    assert len(set(messages.values())) == 1, messages
    assert "stock" not in messages["9D"].split("may play")[0]


# --- stuck and the end ------------------------------------------------------------------


def test_nertz_end_1_emptying_the_nertz_pile_ends_the_hand_and_scores() -> None:
    game = new()
    for card in HEARTS:
        game.act(0, f"found {card} 0")
    assert game.is_over and game.result.reason == "nertz"
    assert game.result.scores == (13.0, -26.0) and game.result.winners == (0,)
    assert game.view(1)["table"]["caller"] == 0
    with pytest.raises(cardcore.CardcoreError):
        game.act(1, "turn")


def test_nertz_house_1_bonus_for_the_caller_with_bounded_option() -> None:
    game = new([BONUS], nertz_bonus=5)
    for card in HEARTS:
        game.act(0, f"found {card} 0")
    assert game.result.scores == (18.0, -26.0)
    with pytest.raises(OptionError):
        new([BONUS], nertz_bonus=51)
    with pytest.raises(OptionError):
        new(nertz_bonus=5)  # the option belongs to the rule


def test_nertz_stuck_1_all_declared_ends_and_progress_clears_declarations() -> None:
    game = new()
    game.act(0, "stuck")
    assert "stuck" not in game.view(0)["legal"]
    game.act(0, "found AH 0")
    assert game.view(1)["table"]["stuck"] == [False, False]
    game.act(0, "stuck")
    game.act(1, "stuck")
    assert game.is_over and game.result.reason == "stuck"
    assert game.result.scores == (1 - 24.0, -26.0)


def test_nertz_stuck_2_idle_limit_ends_the_hand_and_has_bounds() -> None:
    game = new(idle_limit=10)
    for i in range(10):
        assert not game.is_over
        game.act(i % 2, "turn")
    assert game.is_over and game.result.reason == "idle limit"
    for bad in (5, 6000):
        with pytest.raises(OptionError):
            new(idle_limit=bad)


# --- bots on the virtual clock ---------------------------------------------------------


class Quick:
    def __init__(self, delay: float) -> None:
        self.delay = delay

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        return Plan(legal[0], self.delay) if legal else None


def test_core_rt_2_faster_reaction_wins_the_race() -> None:
    game = new()
    cardcore.run_realtime(game, [Quick(0.5), Quick(0.2)], seed=1, max_actions=6)
    actions = game.record()["actions"]
    assert actions[0] == [1, "found AH 0", 0.2]
    # seat 0's overtaken plan is re-planned from the time it became illegal (0.2 + 0.5)
    ann = [a for a in actions if a[0] == 0]
    assert ann[0][:2] == [0, "found AH 1"] and ann[0][2] == pytest.approx(0.7)


def test_core_rt_2_equal_reactions_are_not_broken_by_seat_order() -> None:
    winners = set()
    for seed in range(8):
        game = new()
        cardcore.run_realtime(game, [Quick(0.3), Quick(0.3)], seed=seed, max_actions=1)
        winners.add(game.record()["actions"][0][0])
    assert winners == {0, 1}


@pytest.mark.parametrize("players", [2, 3])
def test_run_realtime_greedy_bots_act_together_and_round_trip(players: int) -> None:
    game = cardcore.new_game(NAME, players, seed=11, options={"idle_limit": 60})
    bots = [Greedy(0.3 + 0.1 * s) for s in range(players)]
    result = cardcore.run_realtime(game, bots, seed=2)
    assert game.is_over and result.reason in ("nertz", "stuck", "idle limit")
    actions = game.record()["actions"]
    times = [at for _, _, at in actions]
    assert all(t is not None for t in times) and times == sorted(times)
    assert {seat for seat, _, _ in actions} == set(range(players))
    again = cardcore.replay(json.dumps(game.record()))
    assert again.view(None) == game.view(None) and again.record() == game.record()
    loaded = cardcore.load(json.dumps(game.save()))
    assert loaded.version == game.version and loaded.view(0) == game.view(0)
    assert loaded.record()["actions"] == actions


def test_save_load_and_clone_mid_game_keep_times_and_independence() -> None:
    game = new()
    game.act(0, "found AH 0", at=1.5)
    game.act(1, "turn", at=1.5)
    game.act(1, "found AH 1", at=2.25)
    loaded = cardcore.load(json.dumps(game.save()))
    assert [a[2] for a in loaded.record()["actions"]] == [1.5, 1.5, 2.25]
    assert loaded.position() == game.position()
    twin = game.clone()
    twin.act(0, "found 2H 0", at=3.0)
    assert game.version == 3 and twin.version == 4
    assert "found 2H 0" in game.view(0)["legal"]
    with pytest.raises(IllegalActionError, match="CORE-RECORD-1"):
        loaded.act(0, "turn", at=2.0)


def test_position_round_trip_keeps_hidden_cards_hidden() -> None:
    game = new()
    game.act(0, "turn")
    again = cardcore.new_game(NAME, 2, position=game.position(), seed=1)
    for seat in (0, 1, None):
        assert again.view(seat)["zones"] == game.view(seat)["zones"]


# --- a session: two seats acting at the same instant ------------------------------------


def test_session_two_seats_same_instant_one_applied_one_stale() -> None:
    session = Session.create(NAME, ["Ann", "Bob"], now=0.0, seed=4, deck=DECK)
    session.handle("ann", '{"type": "join", "seat": 0}', now=0.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=0.0)
    first = session.handle("ann", '{"type": "act", "action": "found AH 0", "seen": 0}', now=1.0)
    second = session.handle("bob", '{"type": "act", "action": "found AH 0", "seen": 0}', now=1.0)
    assert all(o.message["type"] != "error" for o in first)
    errors = [o for o in second if o.message["type"] == "error"]
    assert len(errors) == 1 and errors[0].conn == "bob"
    assert errors[0].message["code"] == "stale" and errors[0].message["rule"] == "CORE-RT-1"
    third = session.handle("bob", '{"type": "act", "action": "found AH 1", "seen": 1}', now=1.0)
    assert all(o.message["type"] != "error" for o in third)
    bad = session.handle("bob", '{"type": "act", "action": "found 3H 0", "seen": 2}', now=1.5)
    assert [o.message["code"] for o in bad if o.message["type"] == "error"] == ["illegal"]


# --- doc findings -------------------------------------------------------------------------


def test_doc_zones_move_mask_is_widened_by_a_top_pile() -> None:
    """Zones.move (docs fixed): a card landing on a TOP pile is seen by all, an explicit
    mask too; a face-down pile under a face-up top is a NOBODY pile whose top is revealed."""
    game = new()
    zones = game.state.clone().zones
    src, dst = nz.stock(2, 0), nz.waste(2, 0)
    zones.move(src, dst, mask=0)
    assert zones.seen[dst][-1] == cardcore.ALL
