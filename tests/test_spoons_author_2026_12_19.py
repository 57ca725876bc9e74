"""Spoons, a real-time game written from cardcore's docs alone (tests/plugins/spoons_2026_12_19.py).

One test per rule ID of the game's ``RULES_MD`` (``test_spoons_grab_2_...``), the
conformance kit, real-time agents on the virtual clock, races through
``apply(..., seen=...)`` and a session with a turn clock for idle seats, all on
fixed seeds, stacked decks or positions, and virtual time only.
"""

from __future__ import annotations

import json
import re
import sys
import types
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import cardcore
from cardcore import (
    STALE_WINDOW,
    Event,
    IllegalActionError,
    OptionError,
    Plan,
    RuleInfo,
    StaleActionError,
    Veto,
    cli,
    hookimpl,
    standard_52,
)
from cardcore.session import Session, SessionConfig, TimeControl
from cardcore.testing import check_game, configurations
from tests.plugins import spoons_2026_12_19 as spoons
from tests.plugins import spoons_rules_2026_12_19 as short_word

SMALL = {"max_hands": 2, "reshuffles": 0}
"""Options that keep random games short (the kit plays random agents)."""


@pytest.fixture(autouse=True, scope="module")
def _registered() -> Iterator[None]:
    """Register the game and its house rule as the plugin guide says, for this module only."""
    cardcore.register("cardcore.games", "spoons", spoons)
    cardcore.register("cardcore.rules", "spoons.short-word", short_word)
    yield
    cardcore.unregister("cardcore.rules", "spoons.short-word")
    cardcore.unregister("cardcore.games", "spoons")


# --- helpers -------------------------------------------------------------------

ALL_CARDS = [str(c) for c in standard_52()]


def position(
    piles: dict[str, list[str]],
    players: int = 3,
    *,
    to_act: list[int] | None = None,
    dealer: int = 0,
    hand_no: int = 1,
    letters: list[int] | None = None,
    spoons_held: list[bool] | None = None,
    reshuffles: int = 0,
) -> str:
    """A Spoons position: *piles* bottom to top (hands known to their owner); every card
    not named lies in the stock, unless the stock is named (then in the discard pile)."""
    named = [c for cards in piles.values() for c in cards]
    rest = [c for c in ALL_CARDS if c not in named]
    explicit_stock = "stock" in piles
    piles = {"stock": [], "discard": [], **{k: list(v) for k, v in piles.items()}}
    piles["discard" if explicit_stock else "stock"].extend(rest)
    letters = letters or [0] * players
    fields = {
        "to_act": to_act if to_act is not None else [s for s in range(players) if letters[s] < 5],
        "dealer": dealer,
        "hand_no": hand_no,
        "letters": letters,
        "spoons": spoons_held or [False] * players,
        "reshuffles": reshuffles,
        "log": [],
    }
    head = " ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in fields.items())
    parts = [
        f"stock: {' '.join(piles['stock'])}".rstrip(),
        f"discard: {' '.join(piles['discard'])}".rstrip(),
    ]
    for s in range(players):
        parts.append(
            f"hand.{s}: {' '.join(c + f'@{s}' for c in piles.get(f'hand.{s}', []))}".rstrip()
        )
    for s in range(players):
        parts.append(f"queue.{s}: {' '.join(piles.get(f'queue.{s}', []))}".rstrip())
    return f"spoons {head} | " + " | ".join(parts)


def start(text: str, players: int = 3, seed: int = 1, **kwargs: Any) -> cardcore.Game:
    options = {**SMALL, **kwargs.pop("options", {})}
    return cardcore.new_game("spoons", players, position=text, seed=seed, options=options, **kwargs)


def hand_of(game: cardcore.Game, seat: int, viewer: int | str = "owner") -> list[str | None]:
    """Seat *seat*'s hand as *viewer* sees it (the owner by default, ``None`` a spectator)."""
    view = game.view(seat if viewer == "owner" else viewer)  # type: ignore[arg-type]
    return next(z["cards"] for z in view["zones"] if z["name"] == f"hand.{seat}")


# four of a kind for seat 1, nothing for the others
QUADS_1 = {
    "hand.0": ["2S", "5D", "9C", "KH"],
    "hand.1": ["AS", "AH", "AD", "AC"],
    "hand.2": ["3S", "6D", "10C", "QH"],
}
"""Seat 1 holds four aces; seats 0 and 2 hold nothing alike."""


def snapshot(game: cardcore.Game) -> tuple[Any, ...]:
    """Everything a refused action must leave as it was."""
    return (
        game.version,
        game.position(),
        json.dumps(game.record()),
        [game.view(s) for s in range(3)],
    )


# --- rules, one test per ID ------------------------------------------------------


def test_spoons_gen_1_three_to_six_players_one_deck() -> None:
    for players in (2, 7):
        with pytest.raises(OptionError) as info:
            cardcore.new_game("spoons", players, seed=1)
        assert info.value.rule_id == "CORE-SEAT-2"
    game = cardcore.new_game("spoons", 6, seed=1)
    assert sorted(map(str, game.logic.deck(6, game.options))) == sorted(ALL_CARDS)


def test_spoons_deal_1_four_each_from_the_dealers_left() -> None:
    deck = ["AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H", "AD", "2D", "3D", "4D"]
    deck += [c for c in ALL_CARDS if c not in deck]
    game = cardcore.new_game("spoons", 3, deck=" ".join(deck), seed=1, options=SMALL)
    assert game.view(0)["table"]["dealer"] == 0
    assert sorted(hand_of(game, 1)) == sorted(["AS", "4S", "3H", "2D"])  # first card to the left
    assert sorted(hand_of(game, 0)) == sorted(["3S", "2H", "AD", "4D"])  # the dealer last
    assert game.view(0)["table"]["stock"] == 40


def test_spoons_deal_1_the_deal_passes_left() -> None:
    game = start(position(QUADS_1))
    game.act(1, "grab 1")
    game.act(0, "grab 1")
    table = game.view(None)["table"]
    assert (table["hand_no"], table["dealer"]) == (2, 1)


def test_spoons_spoon_1_one_spoon_fewer_than_players() -> None:
    for players in (3, 4, 6):
        game = cardcore.new_game("spoons", players, seed=2, options=SMALL)
        assert game.view(None)["table"]["spoons_left"] == players - 1


def test_spoons_rt_1_every_seat_acts_at_once() -> None:
    game = cardcore.new_game("spoons", 4, seed=3, options=SMALL)
    assert cardcore.game_info("spoons").realtime
    assert game.to_act == (0, 1, 2, 3)
    game.act(0, "draw")
    game.act(0, "pass 0")
    game.act(0, "draw")  # the dealer goes on while seat 1 has not picked up
    game.act(1, "take")
    assert game.view(None)["table"]["queued"] == [0, 0, 0, 0]


def test_spoons_draw_1_only_the_dealer_draws() -> None:
    game = cardcore.new_game("spoons", 3, seed=4, options=SMALL)
    with pytest.raises(IllegalActionError) as info:
        game.act(1, "draw")
    assert info.value.rule_id == "SPOONS-DRAW-1"
    game.act(0, "draw")
    assert len(hand_of(game, 0)) == 5
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "draw")
    assert info.value.rule_id == "SPOONS-PASS-1"


def test_spoons_take_1_oldest_queued_card_first() -> None:
    game = start(position({**QUADS_1, "queue.1": ["7S", "8S"]}))  # 8S on top: the oldest
    assert game.view(None)["table"]["queued"] == [0, 2, 0]
    game.act(1, "take")
    assert hand_of(game, 1)[0] == "8S"
    with pytest.raises(IllegalActionError) as info:
        game.act(1, "take")
    assert info.value.rule_id == "SPOONS-PASS-1"
    with pytest.raises(IllegalActionError) as info:
        game.act(2, "take")
    assert info.value.rule_id == "SPOONS-TAKE-1"


def test_spoons_pass_1_to_the_left_and_the_last_player_discards() -> None:
    game = start(
        position({**QUADS_1, "queue.2": ["7S"], "stock": ["8S"]}), options={"reshuffles": 1}
    )
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "pass 0")  # four cards: nothing to pass
    assert info.value.rule_id == "SPOONS-PASS-1"
    game.act(0, "draw")
    game.act(0, "pass 0")  # the card drawn goes to seat 1's queue
    assert game.view(None)["table"]["queued"] == [0, 1, 1]
    game.act(2, "take")
    game.act(2, "pass 0")  # seat 2 sits before the dealer: its card is thrown away
    table = game.view(None)["table"]
    assert table["queued"] == [0, 1, 0] and table["discard"] == 38 + 1
    with pytest.raises(IllegalActionError) as info:
        game.act(1, "pass 5")
    assert info.value.rule_id == "SPOONS-PASS-1"


def test_spoons_stock_1_discards_become_the_stock() -> None:
    text = position({**QUADS_1, "stock": [], "discard": ["7S", "8S"]})
    game = start(text, options={"reshuffles": 1})
    game.act(0, "draw")
    table = game.view(None)["table"]
    assert (table["reshuffles"], table["discard"], len(hand_of(game, 0))) == (1, 0, 5)
    stuck = start(text, options={"reshuffles": 0})
    assert stuck.legal_actions(0) == ()


def test_spoons_stock_2_no_stock_no_spoon_void_hand() -> None:
    game = start(position({**QUADS_1, "stock": ["8S"]}), options={"max_hands": 5})
    game.act(0, "draw")  # the last stock card: no reshuffle left, no spoon taken
    table = game.view(None)["table"]
    assert (table["hand_no"], table["letters"], table["stock"]) == (2, [0, 0, 0], 40)
    assert game.history(None) == [{"hand": 1, "letter_to": None}]


def test_spoons_grab_1_four_of_a_kind_takes_a_spoon() -> None:
    game = start(position(QUADS_1))
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "grab 1")
    assert info.value.rule_id == "SPOONS-GRAB-1"
    game.act(1, "grab 1")
    assert game.view(None)["table"]["spoons"] == [False, True, False]


def test_spoons_grab_2_once_a_spoon_is_gone_anyone_grabs() -> None:
    game = start(position(QUADS_1))
    game.act(1, "grab 1")
    assert "grab 1" in game.view(0)["legal"] and "grab 1" in game.view(2)["legal"]


def test_spoons_grab_3_one_spoon_each_and_the_hand_named() -> None:
    four = {**QUADS_1, "hand.3": ["4S", "7D", "JC", "8H"]}
    game = start(position(four, players=4), players=4)
    game.act(1, "grab 1")
    with pytest.raises(IllegalActionError) as info:
        game.act(1, "grab 1")
    assert info.value.rule_id == "SPOONS-GRAB-3"
    with pytest.raises(IllegalActionError) as info:
        game.act(2, "grab 2")
    assert info.value.rule_id == "SPOONS-GRAB-3"


def test_spoons_letter_1_the_seat_without_a_spoon_gets_a_letter() -> None:
    game = start(position(QUADS_1))
    events: list[dict[str, Any]] = []
    game.events.subscribe(Event, lambda e: events.append(e.to_json()), seat=cardcore.SPECTATOR)
    game.act(1, "grab 1")
    game.act(2, "grab 1")
    table = game.view(None)["table"]
    assert table["letters"] == [1, 0, 0] and table["word"] == ["S", "", ""]
    assert {"event": "spoons-letter-given", "seat": 0, "letters": 1, "out": False} in events


def test_spoons_out_1_five_letters_put_a_seat_out() -> None:
    four = {**QUADS_1, "hand.3": ["4S", "7D", "JC", "8H"]}
    game = start(position(four, players=4, letters=[4, 0, 0, 0]), players=4)
    for seat in (1, 2, 3):
        game.act(seat, "grab 1")
    assert game.to_act == (1, 2, 3) and game.view(None)["table"]["out"][0]
    assert game.view(None)["table"]["spoons_left"] == 2
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "grab 2")
    assert info.value.rule_id == "SPOONS-OUT-1"


def test_spoons_end_1_last_player_in_wins() -> None:
    text = position(
        {"hand.1": ["2S", "5D", "9C", "KH"], "hand.2": ["AS", "AH", "AD", "AC"]},
        letters=[5, 4, 0],
        to_act=[1, 2],
        dealer=1,
    )
    game = start(text)
    game.act(2, "grab 1")  # the only spoon: seat 1 gets its fifth letter
    assert game.is_over and game.result is not None
    assert (game.result.winners, game.result.reason) == ((2,), "last player in")


def test_spoons_end_2_hand_limit_fewest_letters_win() -> None:
    game = start(
        position({**QUADS_1, "stock": ["8S"]}, letters=[2, 1, 1]), options={"max_hands": 1}
    )
    game.act(0, "draw")  # void hand: the limit of one hand is reached
    assert game.result is not None
    assert (game.result.winners, game.result.reason) == ((1, 2), "hand limit")


def test_spoons_view_1_hands_hidden_counts_public() -> None:
    game = start(position({**QUADS_1, "queue.1": ["7S"]}))
    assert hand_of(game, 1, viewer=0) == [None] * 4 and hand_of(game, 1, viewer=None) == [None] * 4
    assert sorted(hand_of(game, 1)) == ["AC", "AD", "AH", "AS"]
    table = game.view(2)["table"]
    assert table["queued"] == [0, 1, 0] and table["spoons_left"] == 2
    seen: list[Any] = []
    game.events.subscribe(Event, seen.append, seat=2)
    game.act(1, "take")
    game.act(1, "pass 0")  # face down to seat 2 ... whose own stream shows the card only once taken
    moved = [e for e in seen if e.slug == "card-moved"]
    assert len(moved) == 1 and moved[0].card is None


def test_spoons_var_1_short_word_out_at_its_own_count() -> None:
    game = start(position(QUADS_1), rules=["spoons.short-word"], options={"spoons_letters": 1})
    game.act(1, "grab 1")
    game.act(2, "grab 1")
    assert game.view(None)["table"]["out"] == [True, False, False]
    assert game.to_act == (1, 2)
    for bad in (0, 11):
        with pytest.raises(OptionError) as info:
            cardcore.new_game(
                "spoons", 3, rules=["spoons.short-word"], options={"spoons_letters": bad}
            )
        assert info.value.rule_id == "SPOONS-VAR-1"
    with pytest.raises(OptionError, match=r"spoons\.short-word"):
        cardcore.new_game("spoons", 3, options={"spoons_letters": 2})


def test_every_rule_id_has_a_test() -> None:
    ids = re.findall(r"^\| (SPOONS-[A-Z]+-\d+) \|", spoons.RULES_MD, flags=re.M)
    names = [n for n in dir(sys.modules[__name__]) if n.startswith("test_")]
    missing = [
        i
        for i in ids
        if not any(n.startswith("test_" + i.lower().replace("-", "_") + "_") for n in names)
    ]
    assert len(ids) == 18 and missing == []


def test_rules_md_printed_by_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "spoons", "SPOONS-GRAB-2"]) == 0
    assert "Once a spoon has been taken" in capsys.readouterr().out


# --- the testing kit ---------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 6])
def test_kit_plain(players: int) -> None:
    report = check_game("spoons", players=players, options=SMALL, games=2, seed=11)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0 and report.truncated == 0
    assert set(report.skipped) == {"scores"}  # Spoons names losers, it scores no round


def test_kit_every_configuration() -> None:
    configs = list(configurations("spoons"))
    assert any(c.rules == ("spoons.short-word",) for c in configs)
    for config in configs:
        kwargs = config.kwargs()
        kwargs["options"] = {**kwargs["options"], "max_hands": 1, "reshuffles": 0}
        report = check_game(config.game, games=1, seed=5, **kwargs)
        assert report.ok and report.leaks == 0


def test_kit_house_rule_out_at_one_letter() -> None:
    options = {**SMALL, "max_hands": 3, "spoons_letters": 1}
    report = check_game(
        "spoons", players=3, rules=["spoons.short-word"], options=options, games=2, seed=3
    )
    assert report.ok and report.cards_lost == 0


# --- real-time agents ------------------------------------------------------------


def quick_table(reactions: list[float]) -> list[spoons.SpoonsQuickAgent]:
    return [spoons.SpoonsQuickAgent(seed=i, reaction=r) for i, r in enumerate(reactions)]


def test_realtime_agents_play_to_the_end_deterministically() -> None:
    results = []
    for _ in range(2):
        game = cardcore.new_game("spoons", 4, seed=3, options={"max_hands": 20})
        result = cardcore.run_realtime(game, quick_table([0.2, 0.25, 0.3, 0.35]), seed=1)
        results.append((result, game.record()["actions"]))
    (result, actions), again = results
    assert again == results[1] and results[0] == results[1]
    assert result.reason in ("last player in", "hand limit") and sum(result.scores) > 0
    times = [at for _, _, at in actions]
    assert all(at is not None for at in times) and times == sorted(times)
    replayed = cardcore.replay(game.record())
    assert replayed.result == result


def test_realtime_random_agents_with_the_house_rule() -> None:
    game = cardcore.new_game(
        "spoons", 3, seed=8, rules=["spoons.short-word"], options={**SMALL, "spoons_letters": 1}
    )
    result = cardcore.run_realtime(game, [cardcore.RandomAgent(seed=s) for s in range(3)], seed=2)
    assert game.is_over and result.reason in ("last player in", "hand limit")


class Grabber:
    """Grabs the moment it may, after *delay*; does nothing else."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        grabs = [a for a in legal if str(a).startswith("grab")]
        return Plan(grabs[0], self.delay) if grabs else None


def test_realtime_faster_grabber_wins_the_last_spoon() -> None:
    text = position(QUADS_1, spoons_held=[False, True, False])
    game = start(text)
    cardcore.run_realtime(game, [Grabber(0.5), Grabber(9.0), Grabber(0.4)], seed=1, max_actions=1)
    assert game.history(None) == [{"hand": 1, "letter_to": 0}]  # seat 2 (0.4 s) beat seat 0


class Spy:
    """Plans nothing; remembers each call's version and number of legal actions."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        self.calls.append((view["version"], len(legal)))
        return None


def test_realtime_seat_to_act_without_legal_action_is_asked() -> None:
    spy = Spy()
    game = cardcore.new_game("spoons", 3, seed=2, options=SMALL)
    quick = spoons.SpoonsQuickAgent(seed=0, reaction=0.3)
    cardcore.run_realtime(game, [quick, spy, Spy()], seed=1, max_actions=4)
    assert spy.calls[:2] == [(0, 0), (1, 0)]  # in to_act, nothing to do yet: asked all the same
    assert spy.calls[2][1] == 1  # the dealer's first pass reached its queue: 'take'


def test_realtime_seat_out_of_the_game_is_not_asked() -> None:
    four = {k: v for k, v in QUADS_1.items() if k != "hand.0"} | {
        "hand.3": ["4S", "7D", "JC", "8H"]
    }
    game = start(position(four, players=4, letters=[5, 0, 0, 0], dealer=1), players=4)
    spy = Spy()
    agents = [spy, *quick_table([0.2, 0.3, 0.4, 0.5])[1:]]
    result = cardcore.run_realtime(game, agents, seed=1, max_actions=30)
    assert result.reason == "truncated" and spy.calls == []
    assert cardcore.replay(game.record()).result == result  # the cut is recorded


def test_realtime_random_agents_are_reproducible() -> None:
    records = []
    for _ in range(2):
        game = cardcore.new_game("spoons", 3, seed=4, options=SMALL)
        cardcore.run_realtime(game, [cardcore.RandomAgent(seed=s) for s in range(3)], seed=9)
        records.append(game.record())
    assert records[0] == records[1] and records[0]["actions"]


class Slow:
    """Plans its first legal action 100 s ahead; remembers each call."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, list[str]]] = []

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        self.calls.append((view["version"], [str(a) for a in legal]))
        return Plan(legal[0], 100.0) if legal else None


def test_realtime_a_plan_still_legal_keeps_its_due_time() -> None:
    slow = Slow()
    game = cardcore.new_game("spoons", 3, seed=2, options=SMALL)
    cardcore.run_realtime(
        game, [spoons.SpoonsQuickAgent(0, 0.3), slow, Spy()], seed=1, max_actions=12
    )
    assert slow.calls == [(0, []), (1, []), (2, ["take"])]  # planned once 'take' was there
    assert {seat for seat, _, _ in game.record()["actions"]} == {0}


class Hasty:
    """Plans its first legal action with a negative delay."""

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        return Plan(legal[0], -3.0) if legal else None


def test_realtime_negative_delay_and_early_start() -> None:
    game = cardcore.new_game("spoons", 3, seed=2, options=SMALL)
    game.act(0, "draw", at=5.0)
    result = cardcore.run_realtime(game, [Hasty(), Spy(), Spy()], seed=1, start=0.0, max_actions=3)
    assert [at for _, _, at in game.record()["actions"]] == [5.0, 5.0, 5.0, 5.0]
    assert result.reason == "truncated"


def test_realtime_nobody_plans_is_a_stalled_game() -> None:
    game = race_position()
    with pytest.raises(cardcore.StalledGameError) as info:
        cardcore.run_realtime(game, [Spy(), Spy(), Spy()], seed=1)
    assert info.value.rule_id == "CORE-RT-2" and game.version == 0


def test_realtime_equal_delays_are_not_broken_by_seat() -> None:
    text = position(QUADS_1, spoons_held=[False, True, False])
    losers = set()
    for seed in range(12):
        game = start(text)
        cardcore.run_realtime(
            game, [Grabber(0.5), Grabber(0.5), Grabber(0.5)], seed=seed, max_actions=1
        )
        losers.add(game.history(None)[0]["letter_to"])
    assert losers == {0, 2}


# --- races through apply(..., seen=...) ----------------------------------------------


def race_position(**kwargs: Any) -> cardcore.Game:
    """Seat 1 already holds a spoon: seats 0 and 2 race for the last one."""
    return start(position(QUADS_1, spoons_held=[False, True, False], **kwargs))


def test_race_for_the_last_spoon_loser_is_stale_and_nothing_changes() -> None:
    game = race_position()
    seen = game.view(0)["version"]
    assert seen == game.view(2)["version"] == 0
    grab = game.legal_actions(0)[-1]
    events: list[Any] = []
    game.events.subscribe(Event, events.append)
    game.apply(game.legal_actions(2)[-1], at=1.0, seen=seen)  # seat 2 gets there first
    before, delivered = snapshot(game), len(events)
    with pytest.raises(StaleActionError) as info:
        game.apply(grab, at=1.1, seen=seen)
    assert info.value.rule_id == "CORE-RT-1" and "CORE-RT-1" in str(info.value)
    assert snapshot(game) == before and len(events) == delivered
    assert game.view(None)["table"]["letters"] == [1, 0, 0]


def test_race_from_two_threads_one_applied_one_stale() -> None:
    game = race_position()

    def send(seat: int) -> str:
        try:
            game.act(seat, "grab 1", seen=0)
            return "applied"
        except StaleActionError:
            return "stale"

    with ThreadPoolExecutor(2) as pool:
        outcomes = sorted(pool.map(send, [0, 2]))
    assert outcomes == ["applied", "stale"] and game.version == 1
    assert sum(game.view(None)["table"]["letters"]) == 1


def test_race_loser_without_seen_is_illegal_citing_the_hand() -> None:
    game = race_position()
    game.act(2, "grab 1")
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "grab 1")
    assert not isinstance(info.value, StaleActionError)
    assert info.value.rule_id == "SPOONS-GRAB-3"


def test_race_for_other_spoons_both_grabs_apply() -> None:
    four = {**QUADS_1, "hand.3": ["4S", "7D", "JC", "8H"]}
    game = start(position(four, players=4, spoons_held=[False, True, False, False]), players=4)
    game.act(2, "grab 1", seen=0)
    game.act(0, "grab 1", seen=0)  # still legal: another spoon lay there
    assert game.view(None)["table"]["letters"] == [0, 0, 0, 1]  # both applied: seat 3 is left


def test_race_a_pass_sent_twice_on_one_view_is_stale() -> None:
    game = start(position({**QUADS_1, "stock": ["8S"]}), options={"reshuffles": 1})
    game.act(0, "draw")
    seen = game.version
    game.act(0, "pass 3", seen=seen)
    with pytest.raises(StaleActionError):
        game.act(0, "pass 3", seen=seen)


def test_race_a_blind_grab_counts() -> None:
    game = start(position(QUADS_1))
    game.act(1, "grab 1", seen=0)
    game.act(0, "grab 1", seen=0)  # not legal at version 0, legal now: applied (CORE-RT-1)
    assert game.view(None)["table"]["letters"] == [0, 0, 1]


def test_race_window_is_judged_exactly_to_its_edge() -> None:
    game = cardcore.new_game("spoons", 3, seed=6, options=SMALL)
    game.act(0, "draw")
    game.act(0, "pass 0")
    game.act(1, "take")
    while game.version < STALE_WINDOW:
        game.act(0, "draw" if len(hand_of(game, 0)) == 4 else "pass 0")
    assert len(hand_of(game, 0)) == 5  # 'draw' was legal at version 0, not now
    with pytest.raises(StaleActionError):
        game.act(0, "draw", seen=0)  # STALE_WINDOW versions back: still judged
    game.act(1, "pass 0")
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "draw", seen=0)  # one more: refused unjudged
    assert info.value.rule_id == "CORE-RT-3" and not isinstance(info.value, StaleActionError)
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "draw", seen=1)  # never legal at version 1: illegal, citing the game
    assert info.value.rule_id == "SPOONS-PASS-1" and not isinstance(info.value, StaleActionError)


def test_race_judged_the_same_after_save_load_and_replay() -> None:
    game = race_position()
    game.act(2, "grab 1", seen=0, at=1.0)
    for copy in (
        cardcore.load(json.loads(json.dumps(game.save()))),
        cardcore.replay(game.record()),
        game.clone(),
    ):
        with pytest.raises(StaleActionError):
            copy.act(0, "grab 1", seen=0, at=2.0)


def test_race_earlier_stamp_arriving_second_is_time_order_not_stale() -> None:
    game = race_position()
    game.act(2, "grab 1", seen=0, at=2.0)
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "grab 1", seen=0, at=1.0)
    assert info.value.rule_id == "CORE-RECORD-1" and not isinstance(info.value, StaleActionError)


def test_race_seen_outside_the_window_is_refused() -> None:
    game = cardcore.new_game("spoons", 3, seed=6, options=SMALL)
    for _ in range(STALE_WINDOW // 2 + 1):
        game.act(0, "draw")
        game.act(0, "pass 0")
    with pytest.raises(IllegalActionError) as info:
        game.act(1, "take", seen=0)
    assert info.value.rule_id == "CORE-RT-3"


def test_race_lost_by_a_seat_that_is_now_out_is_stale() -> None:
    """CORE-RT-1: the loser's grab was legal at seen; the race put it out. The plugin guide:
    another seat's action is refused citing CORE-TURN-1 (or the waiting rule) after a stale seen."""
    game = start(position(QUADS_1, spoons_held=[False, True, False], letters=[4, 0, 0]))
    game.act(2, "grab 1", seen=0)
    before = snapshot(game)
    with pytest.raises(StaleActionError) as info:
        game.act(0, "grab 1", seen=0)
    assert info.value.rule_id == "CORE-RT-1"
    assert snapshot(game) == before


def test_race_that_ends_the_game_is_stale_not_over() -> None:
    text = position(
        {"hand.1": ["KS", "KD", "KC", "KH"], "hand.2": ["AS", "AH", "AD", "AC"]},
        letters=[5, 4, 0],
        to_act=[1, 2],
        dealer=1,
    )
    game = start(text)
    game.act(2, "grab 1", seen=0)
    assert game.is_over
    with pytest.raises(StaleActionError) as info:
        game.act(1, "grab 1", seen=0)
    assert info.value.rule_id == "CORE-RT-1"


# --- a session with a turn clock -------------------------------------------------------


def seated(config: SessionConfig, seed: int = 5, **kwargs: Any) -> tuple[Session, list[Any]]:
    session = Session.create(
        "spoons", ["Ann", "Bob", "Cy"], now=0.0, seed=seed, config=config, **kwargs
    )
    out: list[Any] = []
    for seat, conn in enumerate(("ann", "bob", "cy")):
        out += session.handle(conn, json.dumps({"type": "join", "seat": seat}), now=1.0)
    return session, out


def test_session_idle_seats_are_played_by_the_clock() -> None:
    session, _ = seated(SessionConfig(time=TimeControl(turn=10.0)), options=SMALL)
    assert session.next_deadline() == 11.0  # only the dealer can act: only its clock runs
    updates: list[dict[str, Any]] = []
    for _ in range(2000):
        deadline = session.next_deadline()
        if deadline is None:
            break
        updates += [
            o.message
            for o in session.tick(deadline)
            if o.conn == "bob" and o.message["type"] == "update"
        ]
    first = updates[0]
    assert (first["action"]["seat"], first["action"]["text"], first["action"]["cause"]) == (
        0,
        "draw",
        "timeout",
    )
    assert all(u["action"]["cause"] == "timeout" for u in updates)
    assert all(set(u["clocks"]["turn"]) <= {"1"} for u in updates)  # Bob sees only his own clock
    record = session.record()
    assert record["result"]["reason"] in ("hand limit", "last player in")


def test_session_stale_act_is_answered_stale() -> None:
    text = position(QUADS_1, spoons_held=[False, True, False])
    session, _ = seated(SessionConfig(), position=text, seed=None, options=SMALL)
    out = session.handle("cy", json.dumps({"type": "act", "action": "grab 1", "seen": 0}), now=2.0)
    assert next(o.message["type"] for o in out if o.conn == "cy") in ("ok", "update")
    out = session.handle("ann", json.dumps({"type": "act", "action": "grab 1", "seen": 0}), now=2.1)
    errors = [o.message for o in out if o.message["type"] == "error"]
    assert len(errors) == 1 and errors[0]["code"] == "stale" and errors[0]["rule"] == "CORE-RT-1"
    assert all(o.conn == "ann" for o in out)


def test_session_forfeit_resigns_an_idle_dealer() -> None:
    session, _ = seated(SessionConfig(time=TimeControl(turn=10.0, forfeit=True)), options=SMALL)
    session.tick(11.0)
    record = session.record()
    assert record["actions"][-1][:2] == [0, "resign"]
    assert record["result"]["winners"] == [1, 2]


def test_session_message_at_the_deadline_comes_after_the_timeout() -> None:
    session, _ = seated(SessionConfig(time=TimeControl(turn=10.0)), options=SMALL)
    out = session.handle("ann", json.dumps({"type": "act", "action": "draw", "seen": 0}), now=11.0)
    mine = [o.message for o in out if o.conn == "ann"]
    assert mine[0]["type"] == "update" and mine[0]["action"]["cause"] == "timeout"
    assert (mine[-1]["type"], mine[-1]["code"], mine[-1]["rule"]) == ("error", "stale", "CORE-RT-1")


def test_session_simultaneous_timeouts_not_ordered_by_seat() -> None:
    firsts = set()
    for seed in range(8):
        session, _ = seated(SessionConfig(time=TimeControl(turn=10.0)), seed=seed, options=SMALL)
        for now in (11.0, 21.0, 31.0):  # at 31 the dealer's and seat 1's clocks run out together
            session.tick(now)
        session.end(now=32.0)
        firsts.add(session.record()["actions"][2][0])
    assert firsts == {0, 1}


NO_PASS_0 = types.ModuleType("spoons_no_pass_0")
NO_PASS_0.RULE = RuleInfo(  # type: ignore[attr-defined]
    id="SPOONS-TEST-1", name="spoons.no-pass-0", game="spoons", summary="Never pass position 0"
)


@hookimpl
def _veto_pass_0(state: Any, action: Any) -> Veto | None:
    return Veto("SPOONS-TEST-1", "position 0 stays") if str(action) == "pass 0" else None


NO_PASS_0.forbid_action = _veto_pass_0  # type: ignore[attr-defined]


def test_session_vetoed_default_replaced_by_first_legal_of_its_kind() -> None:
    cardcore.register("cardcore.rules", "spoons.no-pass-0", NO_PASS_0)
    try:
        plain = {**QUADS_1, "hand.1": ["AS", "4H", "8D", "JC"], "stock": ["8S", "7S"]}
        text = position(plain)
        config = SessionConfig(time=TimeControl(turn=10.0))
        session, _ = seated(
            config, seed=None, position=text, rules=["spoons.no-pass-0"], options={"reshuffles": 1}
        )
        session.tick(11.0)  # draw 7S: every rank once, so the game's default is 'pass 0'
        session.tick(21.0)
        session.end(now=22.0)
        assert [a[1] for a in session.record()["actions"][:2]] == ["draw", "pass 1"]
    finally:
        cardcore.unregister("cardcore.rules", "spoons.no-pass-0")
