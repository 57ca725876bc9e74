"""A game-server author drives Spit and Speed in real time from several threads at once.

One thread per player plus a host thread, ``seen=`` versions and ``at=`` clocks as
docs/embedding.rst explains, races made deterministic with barriers and hand-built
positions (docs/notation.rst), each outcome worked out by hand from the rules
(seeds/spit.md, /work/shared/seeds/spit.en.md), plus the session layer's idle clock.
"""

from __future__ import annotations

import json
import random
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

import pytest

import cardcore
from cardcore import SPECTATOR, ActionApplied, Event, IllegalActionError, StaleActionError
from cardcore.testing import assert_conserved
from cardcore_spit.agents import SpitGreedyAgent, SpitHumanAgent

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [rank + suit for suit in "SHDC" for rank in RANKS]


def _flag(value: bool) -> str:
    return "true" if value else "false"


def spit_position(
    lay0: list[str],
    lay1: list[str],
    left: str,
    right: str,
    spit0: str = "",
    spit1: str = "",
    *,
    single: int = -1,
    recycled: bool = False,
) -> str:
    """A Spit position in the play phase. Layout piles and spit cards are written bottom to
    top; each layout pile's top card is face up, the rest face down. Cards not named lie
    face up under the centre piles (half under ``L``, half under ``R``; all under the
    active pile in single-pile mode)."""
    named = [c for pile in lay0 + lay1 for c in pile.split()]
    named += left.split() + right.split() + spit0.split() + spit1.split()
    assert len(named) == len(set(named)), named
    rest = [c for c in DECK if c not in named]
    if single == 0:
        under_left, under_right = rest, []
    elif single == 1:
        under_left, under_right = [], rest
    else:
        under_left, under_right = rest[: len(rest) // 2], rest[len(rest) // 2 :]
    head = (
        f'spit v=1 phase="play" deal=1 single={single} ready=[true,true]'
        f" requests=[false,false] stall=0 recycled={_flag(recycled)} emptier=-1"
    )
    parts = [head]
    for seat, lay in enumerate((lay0, lay1)):
        for k, pile in enumerate(lay):
            words = pile.split()
            text = " ".join([*words[:-1], words[-1] + "!"]) if words else ""
            parts.append(f"layout.{seat}.{k + 1}: {text}".rstrip())
    parts.append(f"spit.0: {spit0}".rstrip())
    parts.append(f"spit.1: {spit1}".rstrip())
    parts.append("pile.L: " + " ".join(c + "!" for c in under_left + left.split()))
    parts.append("pile.R: " + " ".join(c + "!" for c in under_right + right.split()))
    return " | ".join(p.rstrip() for p in parts)


def speed_position(
    hand0: str,
    hand1: str,
    left: str,
    right: str,
    stock0: str,
    stock1: str,
    side0: str,
    side1: str,
    *,
    recycled: bool = False,
) -> str:
    """A Speed position (stocks and side piles bottom to top); the cards not named lie face
    up under the play piles."""
    named = (hand0 + " " + hand1 + " " + left + " " + right).split()
    named += (stock0 + " " + stock1 + " " + side0 + " " + side1).split()
    rest = [c for c in DECK if c not in named]
    half = len(rest) // 2
    return " | ".join(
        [
            f"speed v=1 requests=[false,false] recycled={_flag(recycled)}",
            "hand.0: " + " ".join(c + "@0" for c in hand0.split()),
            "hand.1: " + " ".join(c + "@1" for c in hand1.split()),
            f"stock.0: {stock0}",
            f"stock.1: {stock1}",
            f"side.0: {side0}",
            f"side.1: {side1}",
            "pile.L: " + " ".join(c + "!" for c in rest[:half] + left.split()),
            "pile.R: " + " ".join(c + "!" for c in rest[half:] + right.split()),
        ]
    )


def start(name: str, position: str, rules: tuple[str, ...] = (), **options: Any) -> cardcore.Game:
    return cardcore.new_game(
        name, ["Ann", "Bob"], position=position, seed=1, rules=list(rules), options=options
    )


def table(game: cardcore.Game) -> dict[str, Any]:
    return game.view(None)["table"]


def tops(game: cardcore.Game) -> tuple[str, str]:
    piles = table(game)["piles"]
    return piles["L"][0], piles["R"][0]


def race(game: cardcore.Game, sends: list[tuple[int, str]], seen: int) -> list[str]:
    """Send every (seat, text) from its own thread at once (a barrier), all with *seen*;
    return each outcome: ``ok``, ``stale`` or the error's class name and message."""
    barrier = threading.Barrier(len(sends))
    outcome = [""] * len(sends)

    def send(i: int, seat: int, text: str) -> None:
        barrier.wait()
        try:
            game.act(seat, text, seen=seen)
            outcome[i] = "ok"
        except StaleActionError:
            outcome[i] = "stale"
        except Exception as exc:
            outcome[i] = f"{type(exc).__name__}: {exc}"

    threads = [
        threading.Thread(target=send, args=(i, seat, text)) for i, (seat, text) in enumerate(sends)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    return outcome


@contextmanager
def busy_switching() -> Iterator[None]:
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # threads interleave between bytecodes far more often
    try:
        yield
    finally:
        sys.setswitchinterval(old)


# -- races on a centre pile (SPIT-RT-1, SPIT-GAP-2) -----------------------------------------


def test_two_threads_race_for_one_centre_pile_one_wins_the_other_is_stale() -> None:
    # Ann's 5H and Bob's 3S both fit L's 4D at version 0; whichever arrives first takes it,
    # and the other no longer fits (5 on 3, or 3 on 5): stale, not illegal, nothing changed.
    game = start(
        "spit",
        spit_position(
            ["5H", "KC", "", "", ""], ["3S", "9C", "", "", ""], "4D", "10D", "2D 8D", "7C 4H"
        ),
    )
    assert "play 1 L" in game.view(0)["legal"] and "play 1 L" in game.view(1)["legal"]
    outcome = race(game, [(0, "play 1 L"), (1, "play 1 L")], seen=0)
    assert sorted(outcome) == ["ok", "stale"]
    winner = outcome.index("ok")
    assert game.version == 1
    assert tops(game)[0] == ("5H", "3S")[winner]
    loser_layout = table(game)["seats"][1 - winner]["layout"]
    assert loser_layout[0] == [("5H", "3S")[1 - winner]]  # the loser's card is still in place
    assert [seat for seat, _, _ in game.record()["actions"]] == [winner]
    assert_conserved(game)


def test_a_play_overtaken_but_still_legal_is_applied_one_no_longer_legal_is_stale() -> None:
    # SPIT-GAP-2: L shows 6D. Ann plays 7H onto it. Bob had seen version 0: his 5S (legal
    # on 6D) is now stale (5 on 7 is no play); his 8S (never legal on 6D) now fits 7H, so it
    # is applied; an action legal neither then nor now is illegal, citing SPIT-MOVE-2.
    game = start(
        "spit",
        spit_position(
            ["7H", "KC", "", "", ""], ["5S", "8S", "2S", "", ""], "6D", "3H", "2D 9D", "3C 4H"
        ),
    )
    game.act(0, "play 1 L", seen=0, at=1.0)
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.act(1, "play 1 L", seen=0, at=1.1)
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-2\)") as never:
        game.act(1, "play 3 L", seen=0, at=1.1)
    assert not isinstance(never.value, StaleActionError)
    assert never.value.rule_id == "SPIT-MOVE-2"
    assert game.version == 1
    game.act(1, "play 2 L", seen=0, at=1.2)
    assert tops(game)[0] == "8S"
    assert game.record()["actions"] == [[0, "play 1 L", 1.0], [1, "play 2 L", 1.2]]


@pytest.mark.parametrize(("name", "text"), [("spit", "play 1 L"), ("speed", "play 5H L")])
def test_one_seat_in_two_tabs_sends_the_same_play_twice_and_it_is_applied_once(
    name: str, text: str
) -> None:
    # Two connections of Ann's (two tabs) send the same play on the same view at once: the
    # first moves the card, the second finds it gone and is stale; one card moved, once.
    position = (
        spit_position(
            ["5H", "KC", "", "", ""], ["3S", "9C", "", "", ""], "4D", "10D", "2D 8D", "7C 4H"
        )
        if name == "spit"
        else SPEED_RACE
    )
    game = start(name, position)
    assert sorted(race(game, [(0, text), (0, text)], seen=0)) == ["ok", "stale"]
    assert game.version == 1 and tops(game)[0] == "5H"
    assert game.record()["actions"] == [[0, text, None]]
    assert_conserved(game)


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_plays_onto_different_piles_at_once_both_apply_and_commute(name: str) -> None:
    # Ann onto L, Bob onto R, from two threads on version 0: neither overtakes the other,
    # so both are applied, and the table is the same whichever came first.
    if name == "spit":
        position = spit_position(
            ["5H", "KC", "", "", ""], ["JS", "9C", "", "", ""], "4D", "10D", "2D 8D", "7C 4H"
        )
        plays = [(0, "play 1 L"), (1, "play 1 R")]
    else:
        position = SPEED_RACE
        plays = [(0, "play 5H L"), (1, "play JD R")]
    game = start(name, position)
    assert race(game, plays, seen=0) == ["ok", "ok"]
    orders = []
    for order in (plays, plays[::-1]):
        copy = start(name, position)
        for seat, text in order:
            copy.act(seat, text, seen=0)
        orders.append(copy.view(None)["zones"])
    assert orders[0] == orders[1] == game.view(None)["zones"]
    assert game.version == 2
    assert_conserved(game)


def test_an_action_legal_only_before_the_version_seen_is_illegal_not_stale() -> None:
    # Bob's 5S fitted 6D at version 0, but he saw version 1 (L shows 7H): judged at what he
    # saw, the play was never legal, so it is illegal (SPIT-RT-1), not stale.
    game = start(
        "spit",
        spit_position(
            ["7H", "KC", "", "", ""], ["5S", "8S", "", "", ""], "6D", "JC", "2D 9D", "3C 4H"
        ),
    )
    game.act(0, "play 1 L")
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-2\)") as caught:
        game.act(1, "play 1 L", seen=1)
    assert not isinstance(caught.value, StaleActionError)
    assert caught.value.rule_id == "SPIT-MOVE-2"
    assert game.version == 1


def test_an_automatic_spit_inside_a_play_makes_the_other_seats_play_stale() -> None:
    # L 4D, R JC. Ann plays 5H onto L; Bob's 3S fits neither 5H nor JC, Ann's KC neither:
    # nobody can progress, so both spit inside Ann's apply (SPIT-STUCK-3 b): L gets Ann's top
    # spit card 8D, R Bob's 4H. Bob's 3S onto L (seen 0) is stale; onto R (4H) it now fits.
    game = start(
        "spit",
        spit_position(
            ["5H", "KC", "", "", ""], ["3S", "", "", "", ""], "4D", "JC", "2D 8D", "7C 4H"
        ),
    )
    bob: list[dict[str, Any]] = []
    game.events.subscribe(Event, lambda e: bob.append(e.to_json()), seat=1)
    game.act(0, "play 1 L", seen=0)
    assert game.version == 1 and tops(game) == ("8D", "4H")
    assert [e["event"] for e in bob] == ["action-applied", "card-moved", "card-spat", "card-spat"]
    assert [(e["seat"], e["card"], e["pile"]) for e in bob[2:]] == [(0, "8D", "L"), (1, "4H", "R")]
    assert [s["spit_cards"] for s in table(game)["seats"]] == [1, 1]
    with pytest.raises(StaleActionError):
        game.act(1, "play 1 L", seen=0)
    game.act(1, "play 1 R", seen=0)
    assert tops(game) == ("8D", "3S")


# -- spits and stalemates (SPIT-STUCK-1..6) -------------------------------------------------


def test_both_seats_ask_for_a_spit_at_once_and_exactly_one_spit_happens() -> None:
    # Both ask from their own threads at version 0: the second request completes the pair,
    # so one spit: Ann's top spit card 8D onto L, Bob's 4H onto R; each has one left.
    game = start(
        "spit",
        spit_position(["5H", "", "", "", ""], ["9S", "", "", "", ""], "4D", "JC", "2D 8D", "7C 4H"),
    )
    spat: list[Event] = []
    game.events.subscribe(
        cardcore.Event, lambda e: spat.append(e) if e.slug.endswith("spat") else None
    )
    assert race(game, [(0, "spit"), (1, "spit")], seen=0) == ["ok", "ok"]
    assert game.version == 2 and len(spat) == 2
    assert tops(game) == ("8D", "4H")
    seats = table(game)["seats"]
    assert [s["spit_cards"] for s in seats] == [1, 1]
    assert [s["requested"] for s in seats] == [False, False]
    # a third request, sent on the version both saw, was legal then and is legal again now
    game.act(0, "spit", seen=0)
    assert game.version == 3


def test_stall_limit_counts_moves_that_progress_nothing_from_both_seats() -> None:
    # stall_limit=3 (SPIT-STUCK-3 c): Bob's two fills of a lone card turn nothing up, then
    # Ann's request is the third such action in a row: a spit, though Bob never asked.
    game = start(
        "spit",
        spit_position(["5H", "", "", "", ""], ["9S", "", "", "", ""], "4D", "JC", "2D 8D", "7C 4H"),
        stall_limit=3,
    )
    game.act(1, "fill 1 2")
    game.act(1, "fill 2 3")
    assert table(game)["stall"] == 2 and tops(game) == ("4D", "JC")
    game.act(0, "spit")
    assert tops(game) == ("8D", "4H")
    assert table(game)["stall"] == 0
    assert [s["requested"] for s in table(game)["seats"]] == [False, False]


def test_a_second_recycle_without_progress_voids_the_deal_and_everyone_takes_back_their_own() -> (
    None
):
    # Nobody has spit cards and the centre was already recycled with no play since: both ask
    # for a spit, a second recycle is due, so the deal is void (SPIT-STUCK-6): Ann takes her
    # 3 layout cards and L (24 cards), Bob his 1 and R (24): 27 and 25, a new setup phase.
    game = start(
        "spit",
        spit_position(
            ["5H", "2C 6H", "", "", ""], ["9S", "", "", "", ""], "4D", "10C", recycled=True
        ),
    )
    slugs: list[str] = []
    game.events.subscribe(Event, lambda e: slugs.append(e.slug))
    game.act(0, "spit")
    game.act(1, "spit")
    t = table(game)
    assert (t["phase"], t["deal"], t["mode"]) == ("setup", 2, "two-pile")
    assert [s["cards"] for s in t["seats"]] == [27, 25]
    assert t["piles"] == {"L": None, "R": None}  # no spit piles until both are ready
    assert slugs == [
        "action-applied",
        "action-applied",
        "deal-voided",
        "cards-dealt",
        "deal-started",
    ]
    assert_conserved(game)


# -- the end of a deal: the slap race, the chooser, single-pile mode -------------------------


def test_slap_race_from_two_threads_first_slap_takes_the_pile_second_is_stale() -> None:
    # Bob empties his layout (3S onto 4D). L then holds 24 cards, R 23; Ann holds 3 (5H, KC
    # and her spit card 8D), Bob 2 (his spit cards). Both slap R at once: the slapper takes
    # R, the other L (SPIT-END-2/4), whatever the sizes: 3 + 23 and 2 + 24, or 3 + 24 and
    # 2 + 23.
    game = start(
        "spit",
        spit_position(["5H", "KC", "", "", ""], ["3S", "", "", "", ""], "4D", "JC", "8D", "7C 4H"),
    )
    game.act(1, "play 1 L")
    assert table(game)["phase"] == "claim" and game.to_act == (0, 1)
    assert game.view(0)["legal"] == ["slap L", "slap R"]
    assert {side: len(cards) for side, cards in table(game)["piles"].items()} == {"L": 24, "R": 23}
    assert [s["cards"] for s in table(game)["seats"]] == [3, 2]
    outcome = race(game, [(0, "slap R"), (1, "slap R")], seen=1)
    assert sorted(outcome) == ["ok", "stale"]
    slapper = outcome.index("ok")
    t = table(game)
    assert [s["cards"] for s in t["seats"]] == ([26, 26] if slapper == 0 else [27, 25])
    assert (t["phase"], t["deal"]) == ("setup", 2)
    with pytest.raises(StaleActionError):
        game.act(1 - slapper, "slap L", seen=1)
    with pytest.raises(IllegalActionError, match=r"\(SPIT-RT-3\)") as late:
        game.act(1 - slapper, "slap L")
    assert late.value.rule_id == "SPIT-RT-3"
    assert_conserved(game)


def test_chooser_only_the_emptier_claims_and_slap_is_not_its_word() -> None:
    game = start(
        "spit",
        spit_position(["5H", "KC", "", "", ""], ["3S", "", "", "", ""], "4D", "JC", "8D", "7C 4H"),
        rules=("spit.chooser",),
    )
    game.act(1, "play 1 L")
    assert game.to_act == (1,) and game.view(0)["legal"] == []
    with pytest.raises(IllegalActionError, match=r"\(SPIT-END-3\)"):
        game.act(0, "choose L", seen=1)
    with pytest.raises(cardcore.NotationError):
        game.act(1, "slap L")
    assert game.version == 1
    game.act(1, "choose R", seen=1)  # Bob takes R (23), Ann the other pile, L (24)
    assert [s["cards"] for s in table(game)["seats"]] == [3 + 24, 2 + 23]


def test_single_pile_deal_the_player_without_spit_cards_empties_first_and_wins() -> None:
    # Single-pile mode started by Ann (pile L); Bob holds one card and no spit cards: his 3S
    # onto 4D empties his layout, he holds nothing and wins (SPIT-END-6, SPIT-WIN-1).
    game = start(
        "spit",
        spit_position(
            ["5H", "2C 6H", "", "", ""], ["3S", "", "", "", ""], "4D", "", "KS QH JD 10C", single=0
        ),
    )
    assert table(game)["mode"] == "single-pile"
    assert "play 1 R" not in game.view(1)["legal"]
    game.act(1, "play 1 L", at=3.0)
    assert game.is_over and game.result is not None
    assert game.result.winners == (1,) and game.result.reason == "out of cards"
    assert game.result.scores == (52.0, 0.0)
    with pytest.raises(cardcore.StaleActionError) as over:  # legal at 0: lost the race
        game.act(0, "play 1 L", seen=0)
    assert over.value.rule_id == "CORE-RT-1"
    with pytest.raises(
        IllegalActionError, match=r"\(CORE-OVER-1\)"
    ) as over:  # judged now: the game is over
        game.act(0, "play 1 L")
    assert over.value.rule_id == "CORE-OVER-1"


def test_single_pile_the_spit_card_holder_empties_first_and_the_game_goes_on() -> None:
    # SPIT-WIN-2: Ann (with spit cards) empties first: she keeps her 3 spit cards, Bob takes
    # his 2 layout cards and the spit pile (47): a new deal of 3 against 49.
    game = start(
        "spit",
        spit_position(
            ["5H", "", "", "", ""], ["3S", "7C", "", "", ""], "4D", "", "QH JD 10C", single=0
        ),
    )
    game.act(0, "play 1 L")
    t = table(game)
    assert not game.is_over
    assert (t["phase"], t["mode"], [s["cards"] for s in t["seats"]]) == (
        "setup",
        "single-pile",
        [3, 49],
    )


# -- time stamps (CORE-RECORD-1) ---------------------------------------------------------------


def test_an_earlier_stamp_than_the_last_action_is_refused_and_changes_nothing() -> None:
    game = start(
        "spit",
        spit_position(
            ["7H", "KC", "", "", ""], ["5S", "8S", "", "", ""], "6D", "JC", "2D 9D", "3C 4H"
        ),
    )
    game.act(0, "play 1 L", at=2.0, seen=0)
    before = game.position()
    with pytest.raises(IllegalActionError, match=r"\(CORE-RECORD-1\)") as early:
        game.act(1, "play 2 L", at=1.5, seen=1)
    assert early.value.rule_id == "CORE-RECORD-1"
    assert game.version == 1 and game.position() == before
    game.act(1, "play 2 L", at=2.0, seen=1)  # the same time as the last is fine
    assert game.record()["actions"] == [[0, "play 1 L", 2.0], [1, "play 2 L", 2.0]]


# -- Speed ---------------------------------------------------------------------------------------

SPEED_RACE = speed_position(
    "5H 9C 2S 8C 10S",
    "3S JD 2H 8H 10H",
    "4D",
    "QC",
    "AS 4S 5S 6S 7S 8S JS QS KS AH 4H 6H AD 2D 5D",
    "6D 7D 8D 10D 9D QD KD AC 2C 3C 4C 5C 7C JC KC",
    "7H QH KH 9H JH",
    "9S 3H 3D 6C 10C",
)


def _speed_race_game(**kwargs: Any) -> cardcore.Game:
    return cardcore.new_game("speed", ["Ann", "Bob"], position=SPEED_RACE, seed=1, **kwargs)


def test_speed_race_for_one_play_pile_stale_loser_and_refill_seen_by_its_owner_only() -> None:
    log: dict[str, list[dict[str, Any]]] = {"host": [], "ann": [], "bob": [], "spec": []}
    game = _speed_race_game(
        subscribers=[
            (Event, lambda e: log["host"].append(e.to_json())),
            (Event, lambda e: log["ann"].append(e.to_json()), 0),
            (Event, lambda e: log["bob"].append(e.to_json()), 1),
            (Event, lambda e: log["spec"].append(e.to_json()), SPECTATOR),
        ]
    )
    assert "play 5H L" in game.view(0)["legal"] and "play 3S L" in game.view(1)["legal"]
    for stream in log.values():
        stream.clear()
    outcome = race(game, [(0, "play 5H L"), (1, "play 3S L")], seen=0)
    assert sorted(outcome) == ["ok", "stale"]
    winner = outcome.index("ok")
    drawn = [e for e in log["host"] if e["event"] == "card-drawn"]
    assert len(drawn) == 1 and drawn[0]["seat"] == winner and drawn[0]["card"] is not None
    own, other = (log["ann"], log["bob"]) if winner == 0 else (log["bob"], log["ann"])
    assert [e["card"] for e in own if e["event"] == "card-drawn"] == [drawn[0]["card"]]
    assert [e["card"] for e in other if e["event"] == "card-drawn"] == [None]
    assert [e["card"] for e in log["spec"] if e["event"] == "card-drawn"] == [None]
    hand = game.view(1 - winner)["zones"][winner]["cards"]
    assert len(hand) == 5 and set(hand) == {None}
    assert_conserved(game)


def test_speed_both_declare_stuck_at_once_and_the_side_cards_turn_once() -> None:
    # Both declare from their own threads on version 0 (Ann could still play): the second
    # declaration completes the pair, so each turns one side card onto its own pile
    # (SPEED-STUCK-1): L gets Ann's JH, R Bob's 10C.
    game = _speed_race_game()
    assert race(game, [(0, "stuck"), (1, "stuck")], seen=0) == ["ok", "ok"]
    assert game.version == 2
    assert tops(game) == ("JH", "10C")
    assert [s["side"] for s in table(game)["seats"]] == [4, 4]
    assert [s["requested"] for s in table(game)["seats"]] == [False, False]


def test_speed_stalemate_when_both_declare_after_a_recycle_fewer_cards_wins() -> None:
    # Side piles empty and the play piles already recycled with no play since: both declare
    # stuck from their own threads, a second recycle is due, so the game ends (SPEED-END-2):
    # Ann holds 2 cards, Bob 3: Ann wins; Bob's late play on the version both saw is refused.
    position = speed_position("5H 9C", "3S 9D 2H", "4D", "QC", "", "", "", "", recycled=True)
    game = start("speed", position)
    ended: list[Event] = []
    game.events.subscribe(cardcore.GameEnded, ended.append)
    assert race(game, [(0, "stuck"), (1, "stuck")], seen=0) == ["ok", "ok"]
    assert game.is_over and game.result is not None
    assert (game.result.winners, game.result.scores, game.result.reason) == (
        (0,),
        (2.0, 3.0),
        "stalemate",
    )
    assert len(ended) == 1
    with pytest.raises(IllegalActionError):
        game.act(1, "play 3S L", seen=1)
    assert game.version == 2
    assert_conserved(game)


def test_the_play_that_loses_the_final_race_is_stale() -> None:
    # Ann's last card 5H and Bob's 3S both fit L's 4D at version 0. Ann's arrives first and
    # wins the game (SPEED-END-1); Bob's was legal in the view he acted on: SPIT-RT-1 says
    # stale ("legal at the version the player saw but not now"), design.md likewise.
    position = speed_position(
        "5H",
        "3S JD 2H 8H 10H",
        "4D",
        "QC",
        "",
        "6D 7D 8D 10D 9D",
        "7H QH KH 9H JH",
        "9S 3H 3D 6C 10C",
    )
    game = start("speed", position)
    assert "play 3S L" in game.view(1)["legal"]
    game.act(0, "play 5H L", seen=0)
    assert game.is_over and game.result is not None and game.result.winners == (0,)
    with pytest.raises(StaleActionError):
        game.act(1, "play 3S L", seen=0)


# -- many threads, slow and failing subscribers ------------------------------------------------


def _hidden_leaks(game: cardcore.Game, seat: int | None) -> list[str]:
    """Cards *seat*'s view shows that the privileged position does not mark as known to it."""
    text = game.position()
    known: set[str] = set()
    for section in text.split(" | ")[1:]:
        for word in section.split(":", 1)[1].split():
            if word.endswith("!") or (seat is not None and f"@{seat}" in word):
                known.add(word.rstrip("!").split("@")[0])
    shown = {c for z in game.view(seat)["zones"] for c in z["cards"] if c is not None}
    return sorted(shown - known)


@pytest.mark.parametrize(
    ("name", "rules", "options"),
    [
        ("spit", (), {}),
        ("spit", ("spit.chooser", "spit.canfield", "spit.same-rank"), {"stall_limit": 3}),
        ("speed", (), {"side_pile": 15, "jokers": 2}),
        ("speed", ("speed.stuck-on-request",), {}),
    ],
)
def test_threads_per_seat_and_a_host_every_subscriber_gets_every_event_in_order(
    name: str, rules: tuple[str, ...], options: dict[str, Any]
) -> None:
    streams: dict[str, list[Event]] = {k: [] for k in ("host", "ann", "bob", "spec", "slow", "bad")}
    failures: list[object] = []
    slow_gate = threading.Event()
    count = [0]

    def slow(event: Event) -> None:
        slow_gate.wait(0.0005)  # a slow handler: the delivery thread sleeps a little
        streams["slow"].append(event)

    def bad(event: Event) -> None:
        streams["bad"].append(event)
        count[0] += 1
        if count[0] % 3 == 0:
            raise RuntimeError("subscriber failed")

    game = cardcore.new_game(
        name,
        ["Ann", "Bob"],
        seed=11,
        rules=list(rules),
        options=options,
        subscribers=[
            (Event, streams["host"].append),
            (Event, streams["ann"].append, 0),
            (Event, streams["bob"].append, 1),
            (Event, streams["spec"].append, SPECTATOR),
            (Event, slow, 1),
            (Event, bad, 0),
        ],
    )
    game.events.on_error = failures.append
    raised_before = count[0] // 3  # failures during the deal, before on_error was set
    stop = threading.Event()
    problems: list[str] = []
    checked = [0]

    def player(seat: int) -> None:
        rng = random.Random(seat + 40)
        while not stop.is_set() and not game.is_over:
            view = game.view(seat)
            if not view["legal"]:
                continue
            text = rng.choice(view["legal"])
            try:
                game.act(seat, text, seen=view["version"], at=clock)
            except (StaleActionError, IllegalActionError):
                pass
            except Exception as exc:  # pragma: no cover - reported below
                problems.append(f"{seat} {text}: {exc!r}")
            if game.version >= 600:
                stop.set()

    def host() -> None:
        while not stop.is_set() and not game.is_over:
            v = game.version
            leaks = {s: _hidden_leaks(game, s) for s in (0, 1, None)}
            if game.version == v:  # no action came between the reads
                checked[0] += 1
                problems.extend(f"seat {s} sees {c}" for s, cs in leaks.items() for c in cs)
            try:
                assert_conserved(game.clone())  # every card in exactly one place, mid-race
            except AssertionError as exc:
                problems.append(f"version {game.version}: {exc}")

    ticks = [0.0]
    lock = threading.Lock()

    def clock() -> float:
        with lock:
            ticks[0] += 0.01
            return ticks[0]

    with busy_switching():
        threads = [threading.Thread(target=player, args=(s,)) for s in (0, 1)]
        threads.append(threading.Thread(target=host))
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    # once more with the table still: mid-race, a loaded machine may leave no read between
    # two actions (then every mid-race check above was skipped, and this one still runs)
    problems.extend(f"seat {s} sees {c}" for s in (0, 1, None) for c in _hidden_leaks(game, s))
    assert not problems, problems[:5]
    n = game.version
    for key, events in streams.items():
        versions = [e.version for e in events if isinstance(e, ActionApplied)]
        assert versions == list(range(1, n + 1)), key
        assert len(events) == len(streams["host"]), key
    assert len(failures) == count[0] // 3 - raised_before
    times = [at for _, _, at in game.record()["actions"]]
    assert times == sorted(times)
    applied = [e for e in streams["host"] if isinstance(e, ActionApplied)]
    assert [(e.seat, e.action, e.at) for e in applied] == [
        tuple(a) for a in game.record()["actions"]
    ]
    assert_conserved(game)
    if not game.is_over:
        game.act(cardcore.HOST, "end")
    assert game.is_over


def test_a_subscriber_slower_than_the_bus_patience_costs_nobody_an_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The bus moves on past a batch nobody delivers for STUCK seconds (made short here);
    # a handler that is merely slow is delivering, so the other thread's batches wait for
    # it and every subscriber still gets every event once, in version order.
    import cardcore._bus

    monkeypatch.setattr(cardcore._bus, "STUCK", 0.05)
    streams: dict[str, list[Event]] = {"host": [], "slow": [], "bob": []}
    once = threading.Event()
    during: list[int] = []

    def slow(event: Event) -> None:
        if isinstance(event, ActionApplied) and event.version == 5 and not once.is_set():
            once.set()
            threading.Event().wait(1.2)  # long enough for a waiter to look twice
            during.append(game.version)  # the other thread applied an action meanwhile
        streams["slow"].append(event)

    game = cardcore.new_game(
        "spit",
        ["Ann", "Bob"],
        seed=2,
        subscribers=[
            (Event, streams["host"].append),
            (Event, slow, 0),
            (Event, streams["bob"].append, 1),
        ],
    )

    def player(seat: int) -> None:
        rng = random.Random(seat)
        while not game.is_over and game.version < 40:
            view = game.view(seat)
            if view["legal"]:
                with suppress(IllegalActionError):  # stale or overtaken
                    game.act(seat, rng.choice(view["legal"]), seen=view["version"])

    threads = [threading.Thread(target=player, args=(s,)) for s in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert once.is_set() and during[0] > 5
    n = game.version
    for key, events in streams.items():
        assert [e.version for e in events if isinstance(e, ActionApplied)] == list(
            range(1, n + 1)
        ), key
        assert len(events) == len(streams["host"]), key


# -- run_realtime with every house rule and option -------------------------------------------


@pytest.mark.parametrize(
    ("name", "rules", "options"),
    [
        ("spit", ("spit.chooser", "spit.canfield", "spit.same-rank"), {"stall_limit": 5}),
        ("speed", ("speed.stuck-on-request",), {"side_pile": 15, "jokers": 2}),
    ],
)
def test_run_realtime_with_every_house_rule_is_repeatable_and_scores_cards_held(
    name: str, rules: tuple[str, ...], options: dict[str, Any]
) -> None:
    def play() -> tuple[cardcore.Game, Any]:
        game = cardcore.new_game(name, ["Ann", "Bob"], seed=5, rules=list(rules), options=options)
        agents = [SpitGreedyAgent(seed=1), SpitHumanAgent(seed=2, mean=0.35)]
        return game, cardcore.run_realtime(game, agents, seed=5)

    first, result = play()
    again, _ = play()
    assert first.record()["actions"] == again.record()["actions"]
    assert result.reason == "out of cards" and len(result.winners) == 1
    winner = result.winners[0]
    assert first.result is not None and first.result.scores[winner] == 0.0
    assert min(first.result.scores) == 0.0
    assert_conserved(first)


# -- the session layer's idle clock (docs/session.rst, Clocks) --------------------------------


def test_session_idle_timeout_never_plays_a_spit_card_for_the_seat() -> None:
    # docs/session.rst: Spit's timeout default is "play: ask for a spit (spit), nothing once
    # asked"; cardcore_spit.timeouts: it "never plays a card for it". Ann idles; Bob keeps
    # busy with fills, so Ann's request stands when her clock runs out again.
    from cardcore.session import Session, SessionConfig, TimeControl

    position = spit_position(
        ["5H", "KC", "", "", ""], ["9S", "", "", "", ""], "4D", "JC", "2D 8D", "7C 4H"
    )
    session = Session.create(
        "spit",
        ["Ann", "Bob"],
        now=0.0,
        position=position,
        seed=1,
        config=SessionConfig(time=TimeControl(turn=5.0)),
    )
    session.handle("ann", json.dumps({"type": "join", "seat": 0}), 0.0)
    session.handle("bob", json.dumps({"type": "join", "seat": 1}), 0.0)
    game = session.game
    assert game is not None
    for now, text in [(6.0, "fill 1 2"), (8.0, "fill 2 3"), (12.0, "fill 3 4"), (14.0, "fill 4 5")]:
        session.tick(now)
        session.handle(
            "bob", json.dumps({"type": "act", "action": text, "seen": game.version}), now
        )
    session.tick(15.0)
    session.tick(21.0)
    ann = [text for seat, text, _ in game.record()["actions"] if seat == 0]
    assert ann and set(ann) == {"spit"}, ann
    assert table(game)["seats"][0]["layout"][0] == ["5H"]


# -- the web server: two people's websockets race for one centre pile (docs/web.rst) ---------


def test_web_two_websockets_race_for_one_pile_the_second_is_told_stale_and_sees_no_hidden_card() -> (
    None
):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from tests.web.helpers import Player, create, serve

    with serve() as (client, server, dog):
        sid = create(client, "spit", [{"name": "Ann"}, {"name": "Bob"}])["session"]
        with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
            ann, bob = Player(ws_a), Player(ws_b)
            ann.send({"type": "join", "session": sid, "seat": 0})
            ann.until("welcome")
            bob.send({"type": "join", "session": sid, "seat": 1})
            bob.until("welcome")
            game = server.hub.sessions[sid].game
            assert game is not None

            def catch_up() -> None:
                for player in (ann, bob):
                    while player.mirror.view is None or player.mirror.version != game.version:
                        player.recv()

            def act(player: Player, text: str, seen: int) -> dict[str, Any]:
                player.send({"type": "act", "action": text, "seen": seen})
                while True:
                    reply = player.recv()
                    if reply["type"] in ("ok", "error"):
                        return reply

            catch_up()
            assert act(ann, "ready", game.version)["type"] == "ok"
            assert act(bob, "ready", game.version)["type"] == "ok"
            rng = random.Random(3)
            stale = 0
            for _ in range(400):
                catch_up()
                if game.is_over or stale >= 2:
                    break
                seen = game.version
                legal = {0: ann.view["legal"], 1: bob.view["legal"]}
                pairs = [
                    (a, b)
                    for a in legal[0]
                    for b in legal[1]
                    if a.startswith("play") and b.startswith("play") and a[-1] == b[-1]
                ]
                if pairs:
                    mine, theirs = pairs[0]
                    assert act(ann, mine, seen)["type"] == "ok"
                    reply = act(bob, theirs, seen)
                    assert reply["type"] == "error", reply
                    assert (reply["code"], reply["rule"]) == ("stale", "CORE-RT-1")
                    stale += 1
                    continue
                seat = rng.choice([s for s in game.to_act if legal[s]])
                options = [a for a in legal[seat] if a.startswith(("play", "slap", "spit"))]
                act((ann, bob)[seat], rng.choice(options or legal[seat]), seen)
            assert stale >= 1
            for player, seat in ((ann, 0), (bob, 1)):
                assert player.view == game.view(seat)
        assert dog.frames > 20  # every frame was checked against what its connection may see


def test_session_idle_timeout_at_the_end_of_a_deal_slaps_the_smaller_pile() -> None:
    # Bob empties his layout at t=1; Ann idles until her clock runs out at t=5: the session
    # slaps the smaller pile for her (R: 23 cards against L's 24), as docs/session.rst says.
    from cardcore.session import Session, SessionConfig, TimeControl

    position = spit_position(
        ["5H", "KC", "", "", ""], ["3S", "", "", "", ""], "4D", "JC", "8D", "7C 4H"
    )
    session = Session.create(
        "spit",
        ["Ann", "Bob"],
        now=0.0,
        position=position,
        seed=1,
        config=SessionConfig(time=TimeControl(turn=5.0)),
    )
    session.handle("ann", json.dumps({"type": "join", "seat": 0}), 0.0)
    session.handle("bob", json.dumps({"type": "join", "seat": 1}), 0.0)
    game = session.game
    assert game is not None
    session.handle("bob", json.dumps({"type": "act", "action": "play 1 L", "seen": 0}), 1.0)
    assert {side: len(cards) for side, cards in table(game)["piles"].items()} == {"L": 24, "R": 23}
    session.tick(5.0)
    assert game.record()["actions"] == [[1, "play 1 L", 1.0], [0, "slap R", 5.0]]
    assert [s["cards"] for s in table(game)["seats"]] == [3 + 23, 2 + 24]
