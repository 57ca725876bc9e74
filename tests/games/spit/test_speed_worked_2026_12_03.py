"""Speed: worked examples of whole games, options, the house rule and refusals (2026-12-03).

Every expected outcome is worked out by hand from seeds/spit.md (SPEED-*), the user's seed
(../shared/seeds/spit.en.md) and ../shared/rules-decisions.md, written in the comments, and
checked through the public API only: ``new_game(deck=...)``, ``act(..., at=, seen=)``,
``legal_actions``, ``view``, ``result``, ``record``/``replay``, ``save``/``load``,
``position``.

Deal order of a stacked deck, top first (SPEED-SETUP-3): play pile L, play pile R, seat 0's
side pile (first dealt = top), seat 1's side pile, then the players' cards alternately from
seat 0: each player's first 5 are the hand, the rest the stock (first received on top).
Views list every pile top first, and a hand newest first.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

import cardcore

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ON_REQUEST = "speed.stuck-on-request"


def full_deck(jokers: int) -> list[str]:
    return [r + s for s in "SHDC" for r in RANKS] + ["JK"] * jokers


def stack(
    left: str,
    right: str,
    seat0: str,
    seat1: str,
    side0: str = "",
    side1: str = "",
    *,
    side: int = 5,
    jokers: int = 0,
) -> str:
    """The top-first deck dealing exactly these cards; short side piles, then short
    seat lists (stocks), are filled with the unused cards in deck order."""
    own = {5: 20, 15: 10}[side] + (1 if jokers else 0)
    parts = [side0.split(), side1.split(), seat0.split(), seat1.split()]
    rest = Counter(full_deck(jokers))
    rest.subtract([left, right, *(c for p in parts for c in p)])
    assert all(n >= 0 for n in rest.values()), rest
    spare = [c for c in full_deck(jokers) if rest[c] > 0 and not rest.subtract([c])]
    for part, size in zip(parts, (side, side, own, own), strict=True):
        while len(part) < size:
            part.append(spare.pop(0))
        assert len(part) == size
    assert not spare
    cards = [left, right, *parts[0], *parts[1]]
    for a, b in zip(parts[2], parts[3], strict=True):
        cards += [a, b]
    return " ".join(cards)


def table(game: cardcore.Game, seat: int | None = None) -> dict[str, Any]:
    return game.view(seat)["table"]


def piles(game: cardcore.Game) -> dict[str, list[str]]:
    return table(game)["piles"]


def counts(game: cardcore.Game) -> list[tuple[int, int, int]]:
    """(hand, stock, side) per seat."""
    return [(len(s["hand"]), s["stock"], s["side"]) for s in table(game)["seats"]]


def hand(game: cardcore.Game, seat: int) -> list[str]:
    return table(game, seat)["seats"][seat]["hand"]


def legal(game: cardcore.Game, seat: int) -> list[str]:
    texts = [str(a) for a in game.legal_actions(seat)]
    assert texts == game.view(seat)["legal"]
    return texts


def snapshot(game: cardcore.Game) -> tuple[Any, ...]:
    return (
        game.version,
        [game.view(s) for s in (0, 1, None)],
        [legal(game, s) for s in (0, 1)],
        json.dumps(game.record()),
    )


def refused(game: cardcore.Game, seat: int, text: str, error: type, rule: str, **kw: Any) -> str:
    """Act, expect *error* naming *rule*, and check that nothing changed."""
    before = snapshot(game)
    with pytest.raises(error) as info:
        game.act(seat, text, **kw)
    message = str(info.value)
    assert message.endswith(f"({rule})"), message
    assert snapshot(game) == before
    return message


def same_on_replay_and_load(game: cardcore.Game) -> None:
    again = cardcore.replay(json.dumps(game.record()))
    loaded = cardcore.load(json.dumps(game.save()))
    for other in (again, loaded):
        assert other.version == game.version
        assert other.result == game.result
        assert [other.view(s) for s in (0, 1, None)] == [game.view(s) for s in (0, 1, None)]


# --------------------------------------------------------------------------- a whole game


# Options side_pile=15, jokers=2: 54 cards, each player 11 = hand 5 + stock 6, side piles 15.
# L = AS, R = KH. Seat 0: 2S..QS (hand 2S-6S, stock 7S-QS). Seat 1: hand QH JK JK 2H 9D,
# stock 8H 7H 6H 5H 4H 3H. The side piles (the 30 other cards) never turn: seat 0 can always
# play its next spade, so nobody is ever stuck.
JOKER_GAME = stack(
    "AS",
    "KH",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS",
    "QH JK JK 2H 9D 8H 7H 6H 5H 4H 3H",
    side=15,
    jokers=2,
)


def test_whole_game_jokers_side_pile_15_races_stale_plays_and_the_win() -> None:
    game = cardcore.new_game(
        "speed", ["Ann", "Bob"], deck=JOKER_GAME, options={"side_pile": 15, "jokers": 2}, seed=9
    )
    assert piles(game) == {"L": ["AS"], "R": ["KH"]}
    assert counts(game) == [(5, 6, 15), (5, 6, 15)]
    assert hand(game, 0) == ["6S", "5S", "4S", "3S", "2S"]  # newest first
    assert table(game, 0)["seats"][1]["hand"] == [None] * 5
    # seat 0: only 2S fits (on the ace). Seat 1, oldest card first: QH on KH; one JK (the
    # second is the same action) on L and R; 2H on the ace.
    assert legal(game, 0) == ["play 2S L", "stuck"]
    assert legal(game, 1) == ["play QH R", "play JK L", "play JK R", "play 2H L", "stuck"]

    game.act(0, "play 2S L", at=1.0)  # v1: refilled with 7S, the top of the stock
    assert hand(game, 0) == ["7S", "6S", "5S", "4S", "3S"]
    game.act(1, "play QH R", at=1.1)  # v2: refilled with 8H
    assert hand(game, 1) == ["8H", "9D", "2H", "JK", "JK"]
    assert legal(game, 1) == ["play JK L", "play JK R", "stuck"]  # 2H on 2S: same rank
    seen0 = game.view(0)["version"]
    assert legal(game, 0) == ["play 3S L", "stuck"]

    game.act(1, "play JK L", at=1.2)  # v3: the wild card on L; any card fits now
    assert piles(game)["L"] == ["JK", "2S", "AS"]
    assert legal(game, 0) == [f"play {r}S L" for r in "34567"] + ["stuck"]
    # seat 0 chose 3S at v2; L changed since, but 3S on a joker is legal: applied, not stale
    game.act(0, "play 3S L", at=1.3, seen=seen0)  # v4
    assert legal(game, 1) == ["play JK L", "play JK R", "play 2H L", "stuck"]
    seen1 = game.version
    game.act(0, "play 4S L", at=1.4)  # v5: seat 0 gets there first
    # 2H was legal on 3S at v4, not on 4S now: stale with seen, illegal without
    refused(game, 1, "play 2H L", cardcore.StaleActionError, "CORE-RT-1", at=1.5, seen=seen1)
    message = refused(game, 1, "play 2H L", cardcore.IllegalActionError, "SPIT-MOVE-2", at=1.5)
    assert "2H is not next to 4S in rank" in message

    for i, rank in enumerate(["5", "6", "7", "8", "9", "10", "J"]):
        game.act(0, f"play {rank}S L", at=2.0 + i)
        if rank == "7":  # the stock's last card (QS) came in
            assert counts(game)[0] == (5, 0, 15)
    assert counts(game)[0] == (1, 0, 15) and hand(game, 0) == ["QS"]
    seen_late = game.version
    game.act(0, "play QS L", at=10.0)  # v13: empty hand, empty stock (SPEED-END-1)

    assert game.is_over and game.version == 13 and game.to_act == ()
    assert game.result.winners == (0,)
    assert game.result.reason == "out of cards"
    assert game.result.scores == (0.0, 9.0)  # seat 1 still holds 5 in hand + 4 in stock
    spades = [f"{r}S" for r in ["Q", "J", "10", "9", "8", "7", "6", "5", "4", "3"]]
    assert piles(game) == {"L": [*spades, "JK", "2S", "AS"], "R": ["QH", "KH"]}
    assert legal(game, 0) == [] and legal(game, 1) == []
    message = refused(game, 1, "play JK R", cardcore.StaleActionError, "CORE-RT-1", seen=seen_late)
    assert "ended the game" in message
    refused(game, 1, "play JK R", cardcore.IllegalActionError, "CORE-OVER-1")
    same_on_replay_and_load(game)
    assert [a[2] for a in game.record()["actions"]][:5] == [1.0, 1.1, 1.2, 1.3, 1.4]
    position = game.position()
    assert "over=true" in position
    with pytest.raises(cardcore.OptionError, match="finished game cannot be read back"):
        cardcore.new_game(
            "speed", 2, options={"side_pile": 15, "jokers": 2}, position=position, seed=1
        )


# --------------------------------------------------------------------------- stalemates


# Hands only of ranks 5, 6, 7; every centre card (L, R, both side piles) of ranks 9-Q, never
# next to a 5, 6 or 7. Nothing in either hand ever fits.
DEAD_DEAL = stack(
    "9S",
    "9H",
    "5S 5H 6S 6H 7S",
    "5D 5C 6D 6C 7H",
    "10S 10H JS JH QS",
    "10D 10C JD JC QD",
)
L_CARDS = {"9S", "10S", "10H", "JS", "JH", "QS"}
R_CARDS = {"9H", "10D", "10C", "JD", "JC", "QD"}


def test_stalemate_at_the_deal_is_a_draw_before_anyone_acts() -> None:
    # Nobody can play on 9S/9H: the five side cards turn one pair at a time (SPEED-STUCK-1);
    # still stuck with both side piles empty -> recycle (SPEED-STUCK-2): each play pile keeps
    # its top (QS, QD) and its 5 other cards become the side pile; five more turns; still
    # stuck, side piles empty and no card played since the recycle -> stalemate (SPEED-END-2)
    # at version 0: both hold 20 cards -> a draw, both seats win.
    game = cardcore.new_game("speed", ["Ann", "Bob"], deck=DEAD_DEAL, seed=4)
    assert game.is_over and game.version == 0 and game.to_act == ()
    assert game.result.winners == (0, 1)
    assert game.result.reason == "stalemate"
    assert game.result.scores == (20.0, 20.0)
    left, right = piles(game)["L"], piles(game)["R"]
    assert set(left) == L_CARDS and left[-1] == "QS"  # the recycle kept QS, now at the bottom
    assert set(right) == R_CARDS and right[-1] == "QD"
    assert counts(game) == [(5, 15, 0), (5, 15, 0)]
    assert legal(game, 0) == [] and legal(game, 1) == []
    refused(game, 0, "stuck", cardcore.IllegalActionError, "CORE-OVER-1")
    same_on_replay_and_load(game)


def test_stalemate_on_request_takes_eleven_pairs_of_declarations() -> None:
    # speed.stuck-on-request: no automatic turn. Pairs 1-5 of `stuck` turn the side cards;
    # pair 6 finds both side piles empty: recycle, then the first recycled cards turn; pairs
    # 7-10 turn the rest; pair 11 is a second recycle with no card played: stalemate, draw.
    game = cardcore.new_game("speed", ["Ann", "Bob"], deck=DEAD_DEAL, rules=[ON_REQUEST], seed=4)
    assert not game.is_over and piles(game) == {"L": ["9S"], "R": ["9H"]}
    assert legal(game, 0) == ["stuck"] and legal(game, 1) == ["stuck"]
    at = 0.0
    position = ""
    for pair in range(1, 12):
        first = (pair + 1) % 2  # seats take turns declaring first
        at += 1.0
        game.act(first, "stuck", at=at)
        assert table(game)["seats"][first]["requested"] is True
        assert legal(game, first) == [] and legal(game, 1 - first) == ["stuck"]
        refused(game, first, "stuck", cardcore.IllegalActionError, "SPEED-STUCK-1", at=at)
        game.act(1 - first, "stuck", at=at)
        if pair <= 5:
            side0 = ["10S", "10H", "JS", "JH", "QS"]
            assert piles(game)["L"][0] == side0[pair - 1]
            assert counts(game) == [(5, 15, 5 - pair)] * 2
        elif pair <= 10:
            assert counts(game) == [(5, 15, 10 - pair)] * 2
            assert len(piles(game)["L"]) == pair - 4 and piles(game)["L"][-1] == "QS"
        if pair == 6:
            position = game.position()
            assert "recycled=true" in position
        assert game.is_over == (pair == 11)
        if not game.is_over:
            assert [s["requested"] for s in table(game)["seats"]] == [False, False]
    assert game.version == 22
    assert game.result.winners == (0, 1) and game.result.reason == "stalemate"
    assert game.result.scores == (20.0, 20.0)
    same_on_replay_and_load(game)

    # Restarted from the position after pair 6 (with another seed): the recycle is
    # remembered, so five more pairs end it the same way.
    restart = cardcore.new_game("speed", 2, rules=[ON_REQUEST], position=position, seed=77)
    for _ in range(5):
        restart.act(0, "stuck")
        restart.act(1, "stuck")
    assert restart.is_over and restart.result.winners == (0, 1)
    assert restart.result.reason == "stalemate"


# As DEAD_DEAL, but seat 0 holds 10C (which fits 9S and 9H) and its stock starts with 7S.
ONE_PLAY_DEAL = stack(
    "9S",
    "9H",
    "5S 5H 6S 6H 10C 7S",
    "5D 5C 6D 6C 7H",
    "10S 10H JS JH QS",
    "10D JD JC QD QH",
)


def test_one_play_triggers_turns_recycle_one_sided_turn_and_stalemate() -> None:
    # v0: only 10C fits (on 9S or 9H). `play 10C L` -> refill 7S -> nobody can play:
    # 5 turns each; recycle: L (7 cards: 9S 10C + 5) keeps QS, 6 go to seat 0's side pile;
    # R (6 cards) keeps QH, 5 go to seat 1's; 5 turns each, then one more for seat 0 alone
    # (SPEED-STUCK-3); both empty again with no play since the recycle: stalemate. Seat 0
    # holds 5 + 14 = 19, seat 1 20: seat 0 wins, all inside the one apply (version 1).
    game = cardcore.new_game("speed", ["Ann", "Bob"], deck=ONE_PLAY_DEAL, seed=2)
    assert legal(game, 0) == ["play 10C L", "play 10C R", "stuck"]
    assert legal(game, 1) == ["stuck"]
    seen = game.version
    game.act(0, "play 10C L", at=0.5)
    assert game.is_over and game.version == 1
    assert game.result.winners == (0,) and game.result.reason == "stalemate"
    assert game.result.scores == (19.0, 20.0)
    left, right = piles(game)["L"], piles(game)["R"]
    assert set(left) == {"9S", "10C", "10S", "10H", "JS", "JH", "QS"} and left[-1] == "QS"
    assert set(right) == {"9H", "10D", "JD", "JC", "QD", "QH"} and right[-1] == "QH"
    assert counts(game) == [(5, 14, 0), (5, 15, 0)]
    message = refused(game, 1, "stuck", cardcore.StaleActionError, "CORE-RT-1", seen=seen)
    assert "ended the game" in message
    same_on_replay_and_load(game)

    # Under speed.stuck-on-request the same play turns nothing: both may only declare.
    slow = cardcore.new_game("speed", ["Ann", "Bob"], deck=ONE_PLAY_DEAL, rules=[ON_REQUEST])
    slow.act(0, "play 10C L", at=0.5)
    assert not slow.is_over and piles(slow) == {"L": ["10C", "9S"], "R": ["9H"]}
    assert counts(slow) == [(5, 14, 5), (5, 15, 5)]
    assert legal(slow, 0) == ["stuck"] and legal(slow, 1) == ["stuck"]


# --------------------------------------------------------------------------- positions


def position_text(left: str, right: str, side0: str = "", recycled: bool = False) -> str:
    """A position (piles bottom first): seat 0 holds 5S 6S 7S with no stock, seat 1 holds
    5H 6H 7H 5D 6D and a full stock of 15 (every 4, 8 and the other 5-7s: never drawn)."""
    stock1 = "7D 5C 6C 7C 4S 4H 4D 4C 8S 8H 8D 8C 9S 9H 9D"
    used = set(f"5S 6S 7S 5H 6H 7H 5D 6D {stock1} {left} {right} {side0}".split())
    rest = [c for c in full_deck(0) if c not in used]
    pile_l = " ".join(f"{c}!" for c in left.split())
    pile_r = " ".join(f"{c}!" for c in (*rest, *right.split()))
    flag = "true" if recycled else "false"
    return (
        f"speed v=1 requests=[false,false] recycled={flag} | hand.0: 5S@0 6S@0 7S@0"
        f" | hand.1: 5H@1 6H@1 7H@1 5D@1 6D@1 | stock.0: | stock.1: {stock1}"
        f" | side.0: {side0} | side.1: | pile.L: {pile_l} | pile.R: {pile_r}"
    )


def test_position_one_sided_recycle_on_request_then_stalemate() -> None:
    # L holds only 10S; R holds the 28 other centre cards (ranks 10-3, never next to a
    # 5-7), both side piles empty. The base game refuses it (side cards are due, nobody may
    # act); under speed.stuck-on-request it is a normal position. Pair 1 of `stuck`: recycle
    # yields (0, 27) and only seat 1 turns (SPEED-STUCK-3); pairs 2-27 turn the rest; pair 28
    # is a second recycle with no play: stalemate, seat 0 (3 cards) beats seat 1 (5 + 15).
    text = position_text("10S", "10D")
    with pytest.raises(cardcore.OptionError, match=r"SPEED-STUCK-1"):
        cardcore.new_game("speed", 2, position=text, seed=1)
    events: list[dict[str, Any]] = []
    game = cardcore.new_game(
        "speed",
        2,
        rules=[ON_REQUEST],
        position=text,
        seed=1,
        subscribers=[(cardcore.Event, lambda e: events.append(e.to_json()))],
    )
    assert counts(game) == [(3, 0, 0), (5, 15, 0)]
    assert len(piles(game)["R"]) == 28 and piles(game)["R"][0] == "10D"
    game.act(1, "stuck")
    game.act(0, "stuck")
    recycles = [e for e in events if e["event"] == "centre-recycled"]
    assert [e["counts"] for e in recycles] == [[0, 27]]
    assert piles(game)["L"] == ["10S"] and len(piles(game)["R"]) == 2
    assert counts(game) == [(3, 0, 0), (5, 15, 26)]
    for _ in range(26):
        game.act(0, "stuck")
        game.act(1, "stuck")
    assert not game.is_over and counts(game)[1] == (5, 15, 0)
    assert piles(game)["R"][-1] == "10D"  # the top kept by the recycle, now at the bottom
    game.act(0, "stuck")
    game.act(1, "stuck")
    assert game.is_over and game.version == 56
    assert game.result.winners == (0,) and game.result.reason == "stalemate"
    assert game.result.scores == (3.0, 20.0)
    assert len([e for e in events if e["event"] == "centre-recycled"]) == 1
    same_on_replay_and_load(game)


def test_position_recycle_brings_back_a_joker_and_play_resumes() -> None:
    # jokers=2, on request. L: JK under 10S; R: 9H and the rest; side piles empty. Nobody
    # can play (hands 5-7). Both declare: recycle, L's under-card JK becomes seat 0's side
    # pile (1 card), R yields its under-cards to seat 1; both turn: JK on L. Now any card
    # fits L (SPEED-PLAY-3), so both may play again; a play clears the recycle memory.
    stock1 = "7D 5C 6C 7C 4S 4H 4D 4C 8S 8H 8D 8C 9S 9D JK"
    used = set(f"5S 6S 7S 5H 6H 7H 5D 6D {stock1} 10S 9H".split())
    rest = [c for c in full_deck(0) if c not in used]
    text = (
        "speed v=1 requests=[false,false] recycled=false | hand.0: 5S@0 6S@0 7S@0"
        f" | hand.1: 5H@1 6H@1 7H@1 5D@1 6D@1 | stock.0: | stock.1: {stock1}"
        " | side.0: | side.1: | pile.L: JK! 10S! | pile.R: "
        + " ".join(f"{c}!" for c in (*rest, "9H"))
    )
    options = {"jokers": 2}
    with pytest.raises(cardcore.OptionError, match=r"SPEED-STUCK-1"):
        cardcore.new_game("speed", 2, options=options, position=text, seed=3)
    game = cardcore.new_game("speed", 2, options=options, rules=[ON_REQUEST], position=text)
    assert legal(game, 0) == ["stuck"]
    game.act(0, "stuck")
    game.act(1, "stuck")
    assert piles(game)["L"] == ["JK", "10S"]
    assert piles(game)["R"][-1] == "9H" and len(piles(game)["R"]) == 2
    assert counts(game) == [(3, 0, 0), (5, 15, 27)]  # R held 29: 28 recycled, 1 turned
    assert legal(game, 0) == ["play 5S L", "play 6S L", "play 7S L", "stuck"]
    assert legal(game, 1) == [f"play {c} L" for c in ["5H", "6H", "7H", "5D", "6D"]] + ["stuck"]
    assert "recycled=true" in game.position()
    # 6D on the joker; the refill is the stock's top, JK (positions list piles bottom first)
    game.act(1, "play 6D L")
    assert hand(game, 1)[0] == "JK" and counts(game)[1] == (5, 14, 27)
    assert legal(game, 0) == ["play 5S L", "play 7S L", "stuck"]
    assert "recycled=false" in game.position()
    same_on_replay_and_load(game)


# --------------------------------------------------------------------------- refusals


def test_refused_inputs_name_their_rule_and_change_nothing() -> None:
    game = cardcore.new_game(
        "speed", ["Ann", "Bob"], deck=JOKER_GAME, options={"side_pile": 15, "jokers": 2}, seed=9
    )
    game.act(0, "play 2S L", at=1.0)
    game.act(1, "play QH R", at=2.0)
    game.act(0, "stuck", at=3.0)
    # L = 2S, R = QH; seat 0 holds 3S-7S (declared stuck), seat 1 JK JK 2H 9D 8H.
    illegal = cardcore.IllegalActionError
    cases: list[tuple[int, str, type, str, str, dict[str, Any]]] = [
        (1, "play 3S L", illegal, "SPEED-PLAY-1", "3S is not in seat 1's hand", {}),
        (0, "play 2S L", illegal, "SPEED-PLAY-1", "2S is not in seat 0's hand", {}),
        (1, "play 2H L", illegal, "SPIT-MOVE-4", "2H has the same rank as 2S", {}),
        (1, "play 9D R", illegal, "SPIT-MOVE-2", "9D is not next to QH in rank", {}),
        (0, "play 7S R", illegal, "SPIT-MOVE-2", "7S is not next to QH in rank", {}),
        (0, "stuck", illegal, "SPEED-STUCK-1", "already declared", {}),
        (1, "play JK L", illegal, "CORE-RECORD-1", "earlier than", {"at": 2.5}),
        (1, "play JK L", illegal, "CORE-RT-3", "outside the window", {"seen": 4}),
        (1, "play 1 L", cardcore.NotationError, "SPEED-NOTE-1", "not a card", {}),
        (1, "play JK M", cardcore.NotationError, "SPEED-NOTE-1", "expected L or R", {}),
        (1, "spit", cardcore.NotationError, "SPEED-NOTE-1", "cannot read", {}),
        (1, "ready", cardcore.NotationError, "SPEED-NOTE-1", "cannot read", {}),
        (2, "stuck", cardcore.SeatError, "CORE-SEAT-1", "no seat 2", {}),
    ]
    for seat, text, error, rule, words, kw in cases:
        message = refused(game, seat, text, error, rule, **kw)
        assert words in message, message
    # seat 0 chose `stuck` at v2 and declared it at v3: a second one
    # sent with seen=2 was legal then, so it is stale (not illegal).
    refused(game, 0, "stuck", cardcore.StaleActionError, "CORE-RT-1", seen=2)
    # everything still works afterwards, at the last time stamp
    game.act(1, "play JK L", at=3.0)
    assert piles(game)["L"][0] == "JK" and table(game)["seats"][0]["requested"] is False


def test_option_house_rule_and_deck_refusals() -> None:
    for options, words in [
        ({"side_pile": 10}, "one of 5 or 15"),
        ({"jokers": 1}, "one of 0 or 2"),
        ({"jokers": True}, "must be int"),
        ({"side_pile": "15"}, "must be int"),
        ({"wild": 1}, "no option 'wild'"),
    ]:
        with pytest.raises(cardcore.OptionError, match=words):
            cardcore.new_game("speed", 2, options=options, seed=1)
    with pytest.raises(cardcore.OptionError, match="exactly 2 players"):
        cardcore.new_game("speed", 3, seed=1)
    with pytest.raises(cardcore.OtherGameRuleError, match=r"'spit'.*\(SPIT-MOVE-12\)"):
        cardcore.new_game("speed", 2, rules=["spit.same-rank"], seed=1)
    with pytest.raises(cardcore.OptionError, match=r"\['JK'\]"):
        cardcore.new_game("speed", 2, deck="JK", seed=1)  # no jokers without jokers=2
    with pytest.raises(cardcore.OptionError, match=r"\['JK'\]"):
        cardcore.new_game("speed", 2, deck="JK JK JK", options={"jokers": 2}, seed=1)
    assert cardcore.available_rules("speed") == (ON_REQUEST,)
    info = cardcore.game_info("speed")
    assert {o.name: (o.default, o.choices) for o in info.options} == {
        "side_pile": (5, (5, 15)),
        "jokers": (0, (0, 2)),
    }


# --------------------------------------------------------------------------- bots, all combos


@pytest.mark.parametrize("rules", [(), (ON_REQUEST,)])
@pytest.mark.parametrize("side_pile", [5, 15])
@pytest.mark.parametrize("jokers", [0, 2])
def test_bot_games_in_every_combination_end_replay_and_load(
    rules: tuple[str, ...], side_pile: int, jokers: int
) -> None:
    from cardcore_spit.agents import SpitGreedyAgent, SpitHumanAgent

    game = cardcore.new_game(
        "speed",
        ["Ann", "Bob"],
        rules=rules,
        options={"side_pile": side_pile, "jokers": jokers},
        seed=11,
    )
    result = cardcore.run_realtime(game, [SpitGreedyAgent(seed=1), SpitHumanAgent(seed=2)], seed=11)
    assert game.is_over and result.reason in {"out of cards", "stalemate"}
    assert sum(zone["count"] for zone in game.view(None)["zones"]) == 52 + jokers
    held = [h + s for h, s, _ in counts(game)]
    assert result.scores == tuple(float(n) for n in held)
    if result.reason == "out of cards":
        assert [held[s] for s in result.winners] == [0]
    times = [a[2] for a in game.record()["actions"]]
    assert times == sorted(times)
    same_on_replay_and_load(game)


# --------------------------------------------------------------------------- findings


def test_a_game_ended_by_its_deal_tells_subscribers_it_ended() -> None:
    # DEAD_DEAL ends in a stalemate inside new_game (see above). A host that passes its
    # subscriptions to new_game receives "every event of the game" (docs/embedding.rst),
    # including the card turns and the recycle, so it should also get game-ended, as it does
    # when a play ends the game the same way (ONE_PLAY_DEAL).
    played: list[dict[str, Any]] = []
    game = cardcore.new_game(
        "speed",
        2,
        deck=ONE_PLAY_DEAL,
        seed=2,
        subscribers=[(cardcore.Event, lambda e: played.append(e.to_json()))],
    )
    game.act(0, "play 10C L")
    assert played[-1]["event"] == "game-ended" and played[-1]["reason"] == "stalemate"

    dealt: list[dict[str, Any]] = []
    game = cardcore.new_game(
        "speed",
        2,
        deck=DEAD_DEAL,
        seed=4,
        subscribers=[(cardcore.Event, lambda e: dealt.append(e.to_json()))],
    )
    assert game.is_over
    assert "centre-recycled" in [e["event"] for e in dealt]
    assert dealt[-1] == {
        "event": "game-ended",
        "winners": [0, 1],
        "scores": [20.0, 20.0],
        "payouts": None,
        "reason": "stalemate",
    }


def test_papercut_a_bad_option_value_names_its_rule() -> None:
    with pytest.raises(cardcore.OptionError, match=r"\(SPEED-SETUP-2\)") as info:
        cardcore.new_game("speed", 2, options={"side_pile": 10}, seed=1)
    assert "SPEED-SETUP-2" in str(info.value)


def test_papercut_time_order_error_after_an_untimed_action() -> None:
    game = cardcore.new_game("speed", 2, deck=JOKER_GAME, options={"side_pile": 15, "jokers": 2})
    game.act(0, "play 2S L", at=2.0)
    game.act(1, "play QH R")  # no time
    message = refused(game, 1, "play JK L", cardcore.IllegalActionError, "CORE-RECORD-1", at=1.0)
    assert "the action before (2.0)" not in message


def test_declared_turn_then_automatic_turns_in_the_same_apply_side_pile_15() -> None:
    # side_pile=15. L = 9S, R = 9H; seat 0 holds 5S 5H 6S 6H 10C (10C fits both 9s), seat 1
    # 5D 5C 6D 6C 7H (nothing fits). Both declare `stuck` although seat 0 could play: one
    # turn (QS on L, QH on R; SPEED-STUCK-1, both declared). Now nobody can play (10C is not
    # next to a Q), so the game turns on inside the same apply: KS/KH (still stuck), then
    # JS/KD: 10C fits JS, the turns stop. Side piles 15 - 3 = 12; declarations cleared.
    deck = stack(
        "9S",
        "9H",
        "5S 5H 6S 6H 10C",
        "5D 5C 6D 6C 7H",
        "QS KS JS",
        "QH KH KD",
        side=15,
    )
    events: list[dict[str, Any]] = []
    game = cardcore.new_game(
        "speed",
        ["Ann", "Bob"],
        deck=deck,
        options={"side_pile": 15},
        seed=6,
        subscribers=[(cardcore.Event, lambda e: events.append(e.to_json()), 0)],
    )
    assert counts(game) == [(5, 5, 15), (5, 5, 15)]
    assert legal(game, 0) == ["play 10C L", "play 10C R", "stuck"]
    game.act(0, "stuck", at=1.0)
    assert legal(game, 0) == ["play 10C L", "play 10C R"]  # it may still play
    start = len(events)
    game.act(1, "stuck", at=2.0)
    assert piles(game) == {"L": ["JS", "KS", "QS", "9S"], "R": ["KD", "KH", "QH", "9H"]}
    assert counts(game) == [(5, 5, 12), (5, 5, 12)]
    assert [s["requested"] for s in table(game)["seats"]] == [False, False]
    assert legal(game, 0) == ["play 10C L", "stuck"] and legal(game, 1) == ["stuck"]
    notes = cardcore.game_info("speed").notes
    assert notes is not None
    assert notes(events[start:], "stuck") == [
        "Both players are stuck: the side cards turn (L: QS, R: QH)",
        "Nobody can play: the side cards turn (L: KS, R: KH)",
        "Nobody can play: the side cards turn (L: JS, R: KD)",
    ]
    game.act(0, "play 10C L", at=3.0)  # refill from the stock; the game goes on
    assert not game.is_over and counts(game)[0] == (5, 4, 12)
    same_on_replay_and_load(game)
