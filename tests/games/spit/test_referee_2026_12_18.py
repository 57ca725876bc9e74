"""Referee's worked examples for Spit and Speed, 2026-12-18.

Every test builds an exact table (a position written by hand, never a random
deal), acts on it, and compares the engine with an outcome worked out by hand
from the seed (``../shared/seeds/spit.en.md``) and the rule decisions
(``../shared/rules-decisions.md``, section 1); each expectation cites its rule.

Piles are written bottom -> top, as in the position notation. In a Spit layout
pile the top card is face up and the others face down unless written ``+7H``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import cardcore
from cardcore import Card

SEATS = (0, 1)
FULL_DECK = [str(c) for c in cardcore.standard_52()]


# -- building positions by hand ---------------------------------------------------------


def _json(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ",".join(_json(v) for v in value) + "]"
    return str(value)


def spit_position(
    piles: Mapping[str, str],
    *,
    rest: str,
    phase: str = "play",
    single: int = -1,
    deal: int = 1,
    ready: tuple[bool, bool] = (True, True),
    requests: tuple[bool, bool] = (False, False),
    recycled: bool = False,
) -> str:
    """A Spit position: *piles* by name (``layout.0.1`` ... ``spit.1``, ``pile.L``, ``pile.R``),
    cards bottom -> top; every card not named goes under the pile named *rest*."""
    named = [w.lstrip("+") for text in piles.values() for w in text.split()]
    assert len(named) == len(set(named)), "a card is named twice"
    left_over = [c for c in FULL_DECK if c not in set(named)]
    names = [f"layout.{s}.{k}" for s in SEATS for k in range(1, 6)]
    names += ["spit.0", "spit.1", "pile.L", "pile.R"]
    assert set(piles) <= set(names)
    sections = []
    for name in names:
        words = piles.get(name, "").split()
        if name == rest:
            words = left_over + words
        if name.startswith("layout."):
            out = [w[1:] + "!" if w.startswith("+") else w for w in words[:-1]]
            out += [words[-1] + "!"] if words else []
        elif name.startswith("pile."):
            out = [w + "!" for w in words]
        else:
            out = list(words)
        sections.append(f"{name}: {' '.join(out)}".rstrip())
    fields = {
        "v": 1,
        "phase": phase,
        "deal": deal,
        "single": single,
        "ready": list(ready),
        "requests": list(requests),
        "stall": 0,
        "recycled": recycled,
        "emptier": -1,
    }
    head = "spit " + " ".join(f"{k}={_json(v)}" for k, v in fields.items())
    return " | ".join([head, *sections])


def spit_game(
    piles: Mapping[str, str], *, rules: tuple[str, ...] = (), seed: int = 3, **kw: Any
) -> cardcore.Game:
    return cardcore.new_game(
        "spit", 2, rules=list(rules), position=spit_position(piles, **kw), seed=seed
    )


def speed_position(piles: Mapping[str, str], *, rest: str) -> str:
    """A Speed position (no jokers, side piles of 5): hands, stocks, sides, play piles."""
    named = [w for text in piles.values() for w in text.split()]
    assert len(named) == len(set(named)), "a card is named twice"
    left_over = [c for c in FULL_DECK if c not in set(named)]
    names = ["hand.0", "hand.1", "stock.0", "stock.1", "side.0", "side.1", "pile.L", "pile.R"]
    sections = []
    for name in names:
        words = piles.get(name, "").split()
        if name == rest:
            words = left_over + words
        if name.startswith("hand."):
            words = [f"{w}@{name[-1]}" for w in words]
        elif name.startswith("pile."):
            words = [w + "!" for w in words]
        sections.append(f"{name}: {' '.join(words)}".rstrip())
    return " | ".join(["speed v=1 requests=[false,false] recycled=false", *sections])


def speed_game(
    piles: Mapping[str, str], *, rest: str, rules: tuple[str, ...] = ()
) -> cardcore.Game:
    return cardcore.new_game(
        "speed", 2, rules=list(rules), position=speed_position(piles, rest=rest), seed=4
    )


def zone(game: cardcore.Game, name: str, seat: int | None = None) -> list[str | None]:
    """The cards of zone *name* as *seat* sees them, top first."""
    for z in game.view(seat)["zones"]:
        if z["name"] == name:
            return list(z["cards"])
    raise KeyError(name)


def truth(game: cardcore.Game, name: str) -> list[str]:
    """The privileged cards of zone *name*, bottom -> top (from the position)."""
    for section in game.position().split(" | ")[1:]:
        head, _, body = section.partition(":")
        if head.strip() == name:
            return [w.rstrip("!").split("@")[0] for w in body.split()]
    raise KeyError(name)


def plays(game: cardcore.Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat) if str(a).startswith("play")]


def layout_sizes(game: cardcore.Game, seat: int) -> list[int]:
    return [len(p) for p in game.view(None)["table"]["seats"][seat]["layout"]]


def hidden_counts(game: cardcore.Game, seat: int) -> list[int]:
    return [p.count(None) for p in game.view(None)["table"]["seats"][seat]["layout"]]


# -- Spit: races and staleness ------------------------------------------------------------

RACE = {
    "pile.L": "7C",
    "pile.R": "2D",
    "layout.0.1": "8D",
    "layout.0.2": "4S",
    "layout.0.3": "JS",
    "spit.0": "5C 5D",
    "layout.1.1": "6H",
    "layout.1.2": "9S",
    "layout.1.3": "KD",
    "layout.1.4": "10H",
}


def test_race_on_one_spit_pile_first_stands_second_stale_then_legality_alone() -> None:
    # SPIT-MOVE-1 / SPIT-RT-1 / SPIT-GAP-2. L shows 7C; both players see version v.
    # Seat 0 plays 8D (8 next to 7) first: applied, L top 8D.
    # Seat 1's 6H was legal at v (6 next to 7) but is not next to 8: STALE, nothing changes.
    # Seat 1's 9S was NOT legal at v (9 on 7) but is legal now (9 on 8): applied
    # (staleness is judged by legality alone, docs/embedding.rst).
    # Seat 1's KD on 9S is legal neither at v nor now: ILLEGAL (not stale), SPIT-MOVE-2.
    game = spit_game(RACE, rest="spit.1")
    v = game.version
    assert "play 1 L" in plays(game, 0) and "play 1 L" in plays(game, 1)
    assert "play 2 L" not in plays(game, 1)
    game.act(0, "play 1 L", at=1.00, seen=v)
    before = (game.version, game.position())
    with pytest.raises(cardcore.StaleActionError):
        game.act(1, "play 1 L", at=1.01, seen=v)
    assert (game.version, game.position()) == before
    game.act(1, "play 2 L", at=1.02, seen=v)
    assert truth(game, "pile.L") == ["7C", "8D", "9S"]
    before = (game.version, game.position())
    with pytest.raises(cardcore.IllegalActionError, match=r"\(SPIT-MOVE-2\)") as caught:
        game.act(1, "play 3 L", at=1.03, seen=v)
    assert type(caught.value) is cardcore.IllegalActionError
    assert "SPIT-MOVE-2" in str(caught.value)
    assert (game.version, game.position()) == before
    # no automatic spit happened: seat 1's 10H fits the 9S (SPIT-STUCK-3 b not met)
    assert plays(game, 1) == ["play 4 L"]
    assert truth(game, "spit.0") == ["5C", "5D"]


def test_wrap_around_king_ace_two_in_a_chain() -> None:
    # SPIT-MOVE-3: the ace is next to both the king and the 2; SPIT-MOVE-4: A on A is not.
    # L shows AS, R shows 7C (nothing of seat 0's fits 6/8).
    # Seat 0 tops: KH 2H 3H AH QH.  On AS: KH (pile 1) and 2H (pile 2).
    # After KH: on K fit QH (pile 5) and AH (pile 4).  After AH on KH: 2H (pile 2) only.
    game = spit_game(
        {
            "pile.L": "AS",
            "pile.R": "7C",
            "layout.0.1": "KH",
            "layout.0.2": "2H",
            "layout.0.3": "3H",
            "layout.0.4": "AH",
            "layout.0.5": "QH",
            "spit.0": "4D",
            "layout.1.1": "5D",
            "layout.1.2": "9D",
            "layout.1.3": "JD",
        },
        rest="spit.1",
    )
    assert plays(game, 0) == ["play 1 L", "play 2 L"]
    game.act(0, "play 1 L", at=1.0)
    assert plays(game, 0) == ["play 4 L", "play 5 L"]
    game.act(0, "play 4 L", at=2.0)
    assert plays(game, 0) == ["play 2 L"]
    game.act(0, "play 2 L", at=3.0)
    assert truth(game, "pile.L") == ["AS", "KH", "AH", "2H"]
    assert plays(game, 0) == ["play 3 L"]  # 3H on 2H


# -- Spit: stalemate ----------------------------------------------------------------------

STUCK_AFTER_PLAY = {
    "pile.L": "5C",
    "pile.R": "9D",
    "layout.0.1": "6H",
    "layout.0.2": "JC",
    "layout.0.3": "QS",
    "layout.0.4": "KH",
    "layout.0.5": "2C",
    "spit.0": "7D 4D",
    "layout.1.1": "3S",
    "layout.1.2": "9H JD",
    "layout.1.3": "9C AC",
    "layout.1.4": "10S 2S",
    "layout.1.5": "10C QD",
    "spit.1": "KD",
}


def test_a_play_leaving_only_a_fill_that_uncovers_nothing_brings_an_automatic_spit() -> None:
    # Seat 0 plays 6H on 5C: L shows 6 (5/7 fit), R shows 9 (8/10 fit).
    # Seat 0 keeps JC QS KH 2C, single cards, and an empty position: a fill is legal but
    # uncovers nothing. Seat 1: tops 3S JD AC 2S QD, all distinct, no space: no combine/fill.
    # Nobody can play: SPIT-STUCK-3 (b) -> both spit onto their home piles (SPIT-STUCK-1/2):
    # seat 0's 4D onto L, seat 1's KD onto R. Then QS fits KD, so exactly one spit.
    game = spit_game(STUCK_AFTER_PLAY, rest="spit.1")
    spit1 = len(truth(game, "spit.1"))
    assert spit1 == 52 - 18  # every card but L, R, seat 0 (5 + 2) and seat 1's 9 layout cards
    game.act(0, "play 1 L", at=1.0)
    assert truth(game, "pile.L") == ["5C", "6H", "4D"]
    assert truth(game, "pile.R") == ["9D", "KD"]
    assert truth(game, "spit.0") == ["7D"]
    assert len(truth(game, "spit.1")) == spit1 - 1
    legal0 = [str(a) for a in game.legal_actions(0)]
    assert "play 3 R" in legal0  # QS on KD
    assert "fill 2 1" in legal0  # the fill stays legal (SPIT-MOVE-6)
    assert "play 1 L" in plays(game, 1)  # 3S on 4D


def test_hidden_cards_stay_hidden_and_an_uncovered_card_is_shown_to_all() -> None:
    # SPIT-SETUP-3 / SPIT-VIEW-1: spit cards and face-down layout cards are known to nobody,
    # not even their owner; SPIT-MOVE-7: a card uncovered is turned face up for everyone.
    game = spit_game(STUCK_AFTER_PLAY, rest="spit.1")
    game.act(0, "play 1 L", at=1.0)  # the automatic spit of the test above
    for who in (0, 1, cardcore.SPECTATOR):
        seat = None if who == cardcore.SPECTATOR else who
        assert set(zone(game, "spit.0", seat)) == {None}
        assert set(zone(game, "spit.1", seat)) == {None}
        for k in (2, 3, 4, 5):
            assert zone(game, f"layout.1.{k}", seat)[1:] == [None]
        table = game.view(seat)["table"]
        assert table["seats"][1]["layout"][2] == ["AC", None]
    # seat 1 plays AC on KD (A next to K): 9C under it turns up, for the spectator too
    game.act(1, "play 3 R", at=2.0)
    assert zone(game, "layout.1.3", None) == ["9C"]
    assert zone(game, "layout.1.3", 0) == ["9C"]


def test_two_step_uncovering_is_not_progress_so_a_spit_comes() -> None:
    # SPIT-STUCK-3 (b) as decided: a spit comes when neither player has a legal PLAY nor a
    # COMBINE/FILL that WOULD uncover a face-down card. Seat 1's pile 2 is [fd 10D, 7H, 7S]
    # (two face-up 7s) and pile 1 a lone 7C: "combine 2 1" moves 7S and uncovers nothing
    # (7H is under it); only a second combine would uncover 10D. So after seat 0's last
    # play (3H on 2H; L shows 3: 2/4 fit, R shows 9: 8/10 fit) nobody progresses: spit.
    # Seat 0 spits QC onto L, seat 1 spits 8C onto R; 7C then fits 8C.
    game = spit_game(
        {
            "pile.L": "2H",
            "pile.R": "9S",
            "layout.0.1": "3H",
            "layout.0.2": "KS",
            "layout.0.3": "JS",
            "spit.0": "6D QC",
            "layout.1.1": "7C",
            "layout.1.2": "10D +7H 7S",
            "layout.1.3": "QH",
            "spit.1": "8C",
        },
        rest="spit.1",
    )
    assert "combine 2 1" in [str(a) for a in game.legal_actions(1)]
    game.act(0, "play 1 L", at=1.0)
    assert truth(game, "pile.L") == ["2H", "3H", "QC"]
    assert truth(game, "pile.R")[-1] == "8C"
    assert "play 1 R" in plays(game, 1)


# -- Spit: end of a deal, claims, next deal -----------------------------------------------

DEAL_END = {
    "pile.L": "3C 4C",
    "layout.0.1": "5H",
    "layout.1.1": "9S",
    "layout.1.2": "2D JS",
    "layout.1.3": "3D 4D QS",
    "layout.1.4": "5D 6D 7D KS",
    "layout.1.5": "8D 9D 10D JD 2S",
    "spit.1": "AS AH",
}
# L 2 cards, seat 0 one card and no spit cards, seat 1 15 + 2 = 17, R the other 32.


@pytest.mark.parametrize(
    ("slapper", "pile", "held", "single"),
    [
        # seat 0 slaps L (3 cards): seat 0 holds 3; seat 1 takes R 32 + its 17 = 49
        (0, "L", (3, 49), 1),
        # seat 1 slaps the big R by mistake (SPIT-GAP-9: the first slap stands whatever the size)
        (1, "R", (3, 49), 1),
        # seat 1 slaps L: seat 1 holds 3 + 17 = 20, seat 0 the 32 of R: two piles again
        (1, "L", (32, 20), -1),
        (0, "R", (32, 20), -1),
    ],
)
def test_deal_ends_slap_race_and_the_next_deal_is_laid_by_the_counts(
    slapper: int, pile: str, held: tuple[int, int], single: int
) -> None:
    # SPIT-END-1: the deal ends the moment seat 0's layout is empty (5H on 4C), while seat 1
    # still holds 17 cards. SPIT-END-2 / SPIT-RT-3: first slap takes its pile, a second slap
    # (seen at the same version) is stale. SPIT-END-4: each adds the pile taken to the cards
    # left. SPIT-END-5: a player with <= 15 cards makes a single-pile deal (SPIT-GAP-13).
    # SPIT-SETUP-4: 3 cards are laid [1,1,1,0,0]; SPIT-SETUP-2/3: 49 cards -> 15 + 34.
    game = spit_game(DEAL_END, rest="pile.R", seed=11)
    assert len(truth(game, "pile.R")) == 32
    game.act(0, "play 1 L", at=1.0)
    table = game.view(None)["table"]
    assert (table["phase"], table["emptier"]) == ("claim", 0)
    assert sorted(game.to_act) == [0, 1]
    with pytest.raises(cardcore.IllegalActionError, match="SPIT-END-1"):
        game.act(1, "play 1 R", at=1.5)  # the deal is over: only claims
    v = game.version
    game.act(slapper, f"slap {pile}", at=2.0, seen=v)
    with pytest.raises(cardcore.StaleActionError):
        game.act(1 - slapper, f"slap {pile}", at=2.01, seen=v)
    table = game.view(None)["table"]
    assert table["deal"] == 2 and table["phase"] == "setup"
    assert tuple(s["cards"] for s in table["seats"]) == held
    assert table["mode"] == ("two-pile" if single < 0 else "single-pile")
    small = 0 if held[0] < held[1] else 1
    if single >= 0:
        assert layout_sizes(game, small) == [1, 1, 1, 0, 0]
        assert table["seats"][small]["spit_cards"] == 0
        assert table["seats"][1 - small]["spit_cards"] == 34
        game.act(0, "ready", at=3.0)
        game.act(1, "ready", at=3.0)
        # SPIT-START-2: only seat 1 (the one with spit cards) starts a pile, R; no L
        piles = game.view(None)["table"]["piles"]
        assert piles["L"] is None and piles["R"]
        assert len(piles["R"]) + game.view(None)["table"]["seats"][1]["spit_cards"] == 34
    else:
        assert layout_sizes(game, 0) == [1, 2, 3, 4, 5]
        assert [s["spit_cards"] for s in table["seats"]] == [17, 5]


def test_chooser_only_the_emptier_chooses_and_the_choice_decides_the_counts() -> None:
    # SPIT-END-3 (spit.chooser): no slap race; seat 0, who emptied the layout, chooses.
    # Seat 1 may not claim. Seat 0 chooses R (32): seat 0 holds 32, seat 1 3 + 17 = 20.
    game = spit_game(DEAL_END, rest="pile.R", rules=("spit.chooser",), seed=11)
    game.act(0, "play 1 L", at=1.0)
    assert game.to_act == (0,)
    before = game.position()
    with pytest.raises(cardcore.IllegalActionError, match="SPIT-END-3"):
        game.act(1, "choose L", at=1.5)
    assert game.position() == before
    game.act(0, "choose R", at=2.0)
    table = game.view(None)["table"]
    assert [s["cards"] for s in table["seats"]] == [32, 20]
    assert table["mode"] == "two-pile"


def test_canfield_next_deal_with_three_and_forty_nine_cards() -> None:
    # SPIT-SETUP-5 (spit.canfield): piles 1-4 one face-up card each, pile 5 ten face-down
    # under one face-up; with n < 15, piles 1-4 one each in order, pile 5 the rest.
    # Seat 0 slaps L: 3 cards -> [1,1,1,0,0], no spit cards; seat 1 49 -> [1,1,1,1,11], 34 spit.
    canfield = {k: v for k, v in DEAL_END.items() if not k.startswith("layout.1")}
    canfield.update(
        {
            "layout.1.1": "9S",
            "layout.1.2": "JS",
            "layout.1.3": "QS",
            "layout.1.4": "KS",
            "layout.1.5": "2D 3D 4D 5D 6D 7D 8D 9D 10D JD 2S",
        }
    )  # the same 17 cards for seat 1, laid the Canfield way
    game = spit_game(canfield, rest="pile.R", rules=("spit.canfield",), seed=11)
    game.act(0, "play 1 L", at=1.0)
    game.act(0, "slap L", at=2.0)
    assert layout_sizes(game, 0) == [1, 1, 1, 0, 0]
    assert layout_sizes(game, 1) == [1, 1, 1, 1, 11]
    assert hidden_counts(game, 1) == [0, 0, 0, 0, 10]
    assert [s["spit_cards"] for s in game.view(None)["table"]["seats"]] == [0, 34]


# -- Spit: single-pile deals and the match's end -----------------------------------------


def test_single_pile_the_player_without_spit_cards_empties_first_and_wins_the_match() -> None:
    # SPIT-END-5/6, SPIT-WIN-1. Deal in single-pile mode (single=1: only R). Seat 0 has no
    # spit cards and three cards 5H 3H 2H. R shows 4S.
    # 5H on 4S; seat 1 answers 4C on 5H; seat 0's 3H (chosen when R showed 4S, and legal on
    # 4C too) is applied; 2H on 3H empties seat 0's layout: seat 0 holds no card and wins.
    # Seat 1 takes the spit pile and its own cards: all 52 (seed: "The opponent takes the
    # spit pile and their own table cards").
    game = spit_game(
        {
            "pile.R": "4S",
            "layout.0.1": "5H",
            "layout.0.2": "3H",
            "layout.0.3": "2H",
            "layout.1.1": "4C",
            "layout.1.2": "KD",
            "layout.1.3": "JD",
        },
        rest="spit.1",
        single=1,
    )
    assert game.view(None)["table"]["piles"]["L"] is None
    with pytest.raises(cardcore.IllegalActionError, match="SPIT-START-2"):
        game.act(0, "play 1 L", at=0.5)  # there is no L in a single-pile deal
    v = game.version
    game.act(0, "play 1 R", at=1.0, seen=v)
    game.act(1, "play 1 R", at=1.1)
    game.act(0, "play 2 R", at=1.2, seen=v)
    assert not game.is_over
    game.act(0, "play 3 R", at=1.3)
    assert game.is_over
    assert game.result.winners == (0,)
    assert game.result.reason == "out of cards"
    assert game.result.scores == (0.0, 52.0)
    with pytest.raises(cardcore.IllegalActionError, match=r"\(CORE-OVER-1\)"):
        game.act(1, "play 2 R", at=2.0)


def test_single_pile_the_spit_holder_empties_first_keeps_its_spit_cards_and_the_mode_flips() -> (
    None
):
    # SPIT-END-6 / SPIT-WIN-2: seat 1 (the spit holder, 1 layout card + 10 spit cards) plays
    # its last layout card 9C on 8D: it takes nothing, keeps its 10 spit cards; seat 0 takes
    # the spit pile (26 + 9C = 27) and its own 15 layout cards: 42. The game goes on.
    # Deal 2: seat 1 has 10 <= 15 -> single-pile mode again, but now seat 0 holds the spit
    # cards (42 - 15 = 27) and starts the only pile, L (SPIT-START-2). Seat 1's 10 cards are
    # laid [1,2,3,2,2] (SPIT-SETUP-4).
    game = spit_game(
        {
            "pile.R": "8D",
            "layout.0.1": "2S",
            "layout.0.2": "3C 3S",
            "layout.0.3": "4C 5C 4S",
            "layout.0.4": "6C 7C 8C 5S",
            "layout.0.5": "10C JC QC KC 6S",
            "layout.1.1": "9C",
            "spit.1": "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H",
        },
        rest="pile.R",
        single=1,
    )
    assert len(truth(game, "pile.R")) == 26
    game.act(1, "play 1 R", at=1.0)
    assert not game.is_over
    table = game.view(None)["table"]
    assert table["deal"] == 2
    assert [s["cards"] for s in table["seats"]] == [42, 10]
    assert table["mode"] == "single-pile"
    assert layout_sizes(game, 1) == [1, 2, 3, 2, 2]
    assert [s["spit_cards"] for s in table["seats"]] == [27, 0]
    game.act(0, "ready", at=2.0)
    game.act(1, "ready", at=2.0)
    piles = game.view(None)["table"]["piles"]
    assert piles["R"] is None and piles["L"]


def test_single_pile_recycle_goes_to_the_only_starter_then_it_spits() -> None:
    # SPIT-STUCK-1/3 (a), SPIT-STUCK-4/5 in a single-pile deal: both ask for a spit; the spit
    # holder (seat 1) has no spit cards left and seat 0 never had any: recycle. R keeps its
    # top; the n - 1 cards under it become seat 1's spit cards (the pile's starter); then
    # seat 1 spits one onto R: R 2 cards, seat 1 n - 2 spit cards, seat 0 none.
    # Seat 0 has an empty position and a pile with a face-down card (an uncovering fill), so
    # SPIT-STUCK-3 (b) never calls for a second spit.
    game = spit_game(
        {
            "pile.R": "4S",
            "layout.0.2": "9D 7H",
            "layout.0.3": "KD",
            "layout.1.1": "9C",
            "layout.1.2": "JC",
            "layout.1.3": "QC",
        },
        rest="pile.R",
        single=1,
    )
    n = len(truth(game, "pile.R"))
    assert n == 52 - 6
    game.act(0, "spit", at=1.0)
    assert len(truth(game, "pile.R")) == n
    game.act(1, "spit", at=1.1)
    assert len(truth(game, "pile.R")) == 2
    assert truth(game, "pile.R")[0] == "4S"
    assert len(truth(game, "spit.1")) == n - 2
    assert truth(game, "spit.0") == []
    assert game.view(None)["table"]["piles"]["L"] is None


def test_two_pile_recycle_when_one_pile_has_nothing_under_its_top() -> None:
    # SPIT-STUCK-5: neither player has spit cards; L holds n cards (KH on top), so seat 0
    # gets the n - 1 under it; R = [8S] alone gives seat 1 none. SPIT-STUCK-4: only seat 0
    # spits, onto L. So L holds KH and one more card, seat 0 n - 2 spit cards, R still [8S].
    # Seat 0 had asked for a spit; seat 1's request completes the pair (SPIT-STUCK-3 a).
    # Seat 0's pile 2 [fd 9D, 7H] with an empty pile 1 keeps (b) quiet afterwards.
    game = spit_game(
        {
            "pile.L": "3C 4C KH",
            "pile.R": "8S",
            "layout.0.2": "9D 7H",
            "layout.0.3": "JD",
            "layout.1.1": "QS",
        },
        rest="pile.L",
        requests=(True, False),
    )
    n = len(truth(game, "pile.L"))
    assert n == 52 - 5
    game.act(1, "spit", at=1.0)
    left = truth(game, "pile.L")
    assert left[0] == "KH" and len(left) == 2
    assert len(truth(game, "spit.0")) == n - 2
    assert truth(game, "pile.R") == ["8S"]
    assert truth(game, "spit.1") == []


def test_the_emptier_adds_its_own_spit_cards_to_the_pile_it_took() -> None:
    # SPIT-END-4 (seed: "These cards are added to the player's remaining spit cards"): seat 0
    # empties its layout with 2 spit cards left and slaps L (3 cards): 5 cards, laid one per
    # pile [1,1,1,1,1] (SPIT-SETUP-4); seat 1 takes R (30) + its 17 = 47 -> 15 + 32 spit.
    table = {**DEAL_END, "spit.0": "AD 2C"}
    game = spit_game(table, rest="pile.R", seed=11)
    assert len(truth(game, "pile.R")) == 30
    game.act(0, "play 1 L", at=1.0)
    game.act(0, "slap L", at=2.0)
    view = game.view(None)["table"]
    assert [s["cards"] for s in view["seats"]] == [5, 47]
    assert layout_sizes(game, 0) == [1, 1, 1, 1, 1]
    assert [s["spit_cards"] for s in view["seats"]] == [0, 32]
    assert view["mode"] == "single-pile"


def test_void_deal_gives_each_its_home_pile_and_can_make_a_single_pile_deal() -> None:
    # SPIT-STUCK-6: a spit is due (both asked), neither has spit cards and a recycle already
    # happened with no layout card played since: the deal is void. Each gathers its layout,
    # spit cards and the pile it started: seat 0 3 + L (47) = 50, seat 1 1 + R [8S] = 2.
    # Laid out again: seat 1 has 2 <= 15 cards -> single-pile (SPIT-END-5), seat 0 holds the
    # spit cards (50 - 15 = 35); seat 1's 2 cards lie [1,1,0,0,0] (SPIT-SETUP-4).
    game = spit_game(
        {
            "pile.L": "3C 4C KH",
            "pile.R": "8S",
            "layout.0.2": "9D 7H",
            "layout.0.3": "JD",
            "layout.1.1": "QS",
        },
        rest="pile.L",
        requests=(True, False),
        recycled=True,
    )
    game.act(1, "spit", at=1.0)
    view = game.view(None)["table"]
    assert view["phase"] == "setup"
    assert [s["cards"] for s in view["seats"]] == [50, 2]
    assert view["mode"] == "single-pile"
    assert layout_sizes(game, 1) == [1, 1, 0, 0, 0]
    assert [s["spit_cards"] for s in view["seats"]] == [35, 0]


# -- Spit: house rules --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "expected"),
    [((), ["play 2 L", "play 3 L"]), (("spit.same-rank",), ["play 1 L", "play 2 L", "play 3 L"])],
)
def test_same_rank_house_rule_adds_equal_rank_and_keeps_the_wrap(
    rules: tuple[str, ...], expected: list[str]
) -> None:
    # SPIT-MOVE-4 vs SPIT-MOVE-12: on KS, KH fits only under spit.same-rank; AH (wrap,
    # SPIT-MOVE-3) and QH fit either way; JH never (R shows 6C: nothing fits 5/7).
    game = spit_game(
        {
            "pile.L": "KS",
            "pile.R": "6C",
            "layout.0.1": "KH",
            "layout.0.2": "AH",
            "layout.0.3": "QH",
            "layout.0.4": "JH",
            "spit.0": "2D",
            "layout.1.1": "9D",
        },
        rest="spit.1",
        rules=rules,
    )
    assert plays(game, 0) == expected


# -- Speed --------------------------------------------------------------------------------

# Cluster {A, 2, Q, K}: no card of ranks 4..10 fits any of them (3 and J stay in stocks,
# under the cards ever drawn). Seat 0's KC is the one play: KC on QS.
SPEED_STUCK = {
    "hand.0": "KC 4S 5S 6S 7S",
    "stock.0": "3S 3H 3D 3C JS JH JD JC 10S 10H 9D 8S",  # top (last) 8S is the only refill
    "hand.1": "4H 5H 6H 7H 8H",
    "side.0": "",
    "side.1": "KH",
    "pile.L": "AS AH AC 2S 2D 2C QH QC KS KD QS",
    "pile.R": "AD QD 2H",
}


def test_speed_one_play_then_one_sided_turn_recycle_turns_and_stalemate() -> None:
    # SPEED-PLAY-1/2: seat 0 plays KC on QS and refills 8S from its stock (stock 12 -> 11).
    # SPEED-STUCK-1: nobody can play (tops K and 2; hands 4..8). SPEED-STUCK-3: seat 0's side
    # pile is empty, so only seat 1 turns KH onto R. Still stuck, both side piles empty:
    # SPEED-STUCK-2 recycle: side 0 <- 11 cards under KC, side 1 <- 3 cards under KH.
    # Turns go on (all cluster cards): 3 both, then 8 seat 0 alone; both empty again with
    # no play since the recycle: SPEED-END-2 stalemate. Held: seat 0 5 + 11 = 16,
    # seat 1 5 + 15 = 20: seat 0 wins. L ends with 12 cards, R with 4.
    game = speed_game(SPEED_STUCK, rest="stock.1")
    assert len(truth(game, "stock.1")) == 15
    game.act(0, "play KC L", at=1.0)
    assert game.is_over
    assert game.result.reason == "stalemate"
    assert game.result.winners == (0,)
    assert game.result.scores == (16.0, 20.0)
    assert len(truth(game, "pile.L")) == 12 and truth(game, "pile.L")[0] == "KC"
    assert len(truth(game, "pile.R")) == 4 and truth(game, "pile.R")[0] == "KH"
    assert truth(game, "side.0") == [] and truth(game, "side.1") == []


def test_speed_stuck_on_request_the_same_stalemate_takes_thirteen_pairs_of_declarations() -> None:
    # SPEED-STUCK-4 (speed.stuck-on-request): only both declarations turn side cards.
    # The table right after KC on QS above: pair 1 turns KH (seat 1 alone); pair 2 recycles
    # (11 and 3) and turns both; pairs 3-4 both; pairs 5-12 seat 0 alone (side 0: 7 .. 0);
    # pair 13: both empty, already recycled, no play since: stalemate, seat 0 wins 16-20.
    table = dict(SPEED_STUCK)
    table["hand.0"] = "4S 5S 6S 7S 8S"
    table["stock.0"] = "3S 3H 3D 3C JS JH JD JC 10S 10H 9D"
    table["pile.L"] = "AS AH AC 2S 2D 2C QH QC KS KD QS KC"
    game = speed_game(table, rest="stock.1", rules=("speed.stuck-on-request",))
    pairs = 0
    while not game.is_over and pairs < 20:
        game.act(0, "stuck")
        assert not game.is_over  # one declaration alone turns nothing
        game.act(1, "stuck")
        pairs += 1
        if pairs == 1:
            assert truth(game, "pile.R")[-1] == "KH" and len(truth(game, "pile.L")) == 12
        if pairs == 2:
            assert len(truth(game, "side.0")) == 10 and len(truth(game, "side.1")) == 2
    assert pairs == 13
    assert game.result.reason == "stalemate"
    assert game.result.winners == (0,)
    assert game.result.scores == (16.0, 20.0)


def test_speed_a_refill_is_seen_by_its_owner_only() -> None:
    # SPEED-SETUP-3 / SPEED-VIEW-1: a hand is known to its owner, stocks and side piles to
    # nobody. The refill 8S (SPEED-PLAY-2) reaches seat 0 alone: seat 1's and the
    # spectator's copies of the draw carry no card; their views show no card of hand 0.
    game = speed_game(
        {**SPEED_STUCK, "side.0": "9H", "side.1": "KH 10D"}, rest="stock.1"
    )  # side cards so that the stalemate above does not end the game
    got: dict[object, list[dict[str, Any]]] = {0: [], 1: [], cardcore.SPECTATOR: []}
    for who in got:
        game.events.subscribe(cardcore.Event, lambda e, w=who: got[w].append(e.to_json()), seat=who)
    game.act(0, "play KC L", at=1.0)
    draws = {w: [e for e in evs if e.get("event") == "card-drawn"] for w, evs in got.items()}
    assert [e.get("card") for e in draws[0]] == ["8S"]
    assert [e.get("card") for e in draws[1]] == [None]
    assert [e.get("card") for e in draws[cardcore.SPECTATOR]] == [None]
    assert "8S" in zone(game, "hand.0", 0)
    for seat in (1, None):
        assert set(zone(game, "hand.0", seat)) == {None}
        assert set(zone(game, "stock.0", seat)) <= {None}
        assert set(zone(game, "side.1", seat)) <= {None}
    hand = game.view(1)["table"]["seats"][0]["hand"]
    assert set(hand) == {None}
    assert all(Card.parse(c) for c in zone(game, "hand.0", 0))
