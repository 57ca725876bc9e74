"""Worked rule examples for Spit and Speed across deals and at the end of the game.

An independent tester's review (2026-12-07): the rules SPIT-STUCK-5/6 (recycle, void
deal), SPIT-END-4/5/6 (what each player keeps, single-pile mode), SPIT-WIN-1/2/4 (the
game's winner), SPEED-STUCK-2/3, SPEED-END-1/2 (stalemate) and the jokers
(SPIT-GEN-2, SPEED-GEN-1/2, SPEED-PLAY-3, SPEED-SETUP-3). Every expected outcome is
derived from ``seeds/spit.md``, not read off the engine.

Positions are written in the public position notation (``Game.position()``, piles
bottom first, ``!`` = face up, ``@s`` = known to seat s) and started with
``cardcore.new_game(..., position=..., seed=...)``; only public names are used.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

import cardcore
from cardcore import IllegalActionError, OptionError, StaleActionError

DECK52 = [str(c) for c in cardcore.standard_52()]

SPIT_ZONES = [f"layout.{s}.{k}" for s in (0, 1) for k in range(1, 6)] + [
    "spit.0",
    "spit.1",
    "pile.L",
    "pile.R",
]
SPEED_ZONES = ["hand.0", "hand.1", "stock.0", "stock.1", "side.0", "side.1", "pile.L", "pile.R"]


# --------------------------------------------------------------------------- helpers


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ",".join(_fmt(v) for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def spit_position(piles: dict[str, str], **fields: object) -> str:
    """A Spit play-phase position; *piles* bottom first, layout tops turned up automatically.

    Layout cards written ``+XY`` are face up; the top of every layout pile and every
    spit-pile card is face up; spit cards are face down.
    """
    f: dict[str, object] = {
        "v": 1,
        "phase": "play",
        "deal": 3,
        "single": -1,
        "ready": [True, True],
        "requests": [False, False],
        "stall": 0,
        "recycled": False,
        "emptier": -1,
    }
    f.update(fields)
    used: list[str] = []
    parts = []
    for zone in SPIT_ZONES:
        words = piles.get(zone, "").split()
        out = []
        for i, w in enumerate(words):
            card = w.lstrip("+")
            used.append(card)
            up = (
                w.startswith("+")
                or zone.startswith("pile.")
                or (zone.startswith("layout.") and i == len(words) - 1)
            )
            out.append(card + ("!" if up else ""))
        parts.append(f"{zone}: " + " ".join(out) if out else f"{zone}:")
    assert Counter(used) == Counter(DECK52), "the test's own position must hold 52 cards"
    head = "spit " + " ".join(f"{k}={_fmt(v)}" for k, v in f.items())
    return head + " | " + " | ".join(parts)


def speed_position(piles: dict[str, str], *, jokers: int = 0, **fields: object) -> str:
    """A Speed position; hands known to their owner, play piles face up, the rest face down."""
    f: dict[str, object] = {"v": 1, "requests": [False, False], "recycled": False}
    f.update(fields)
    used: list[str] = []
    parts = []
    for zone in SPEED_ZONES:
        words = piles.get(zone, "").split()
        used += words
        if zone.startswith("hand."):
            words = [f"{w}@{zone[-1]}" for w in words]
        elif zone.startswith("pile."):
            words = [f"{w}!" for w in words]
        parts.append(f"{zone}: " + " ".join(words) if words else f"{zone}:")
    assert Counter(used) == Counter(DECK52 + ["JK"] * jokers)
    head = "speed " + " ".join(f"{k}={_fmt(v)}" for k, v in f.items())
    return head + " | " + " | ".join(parts)


def parse_position(text: str) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Fields (raw text) and piles (card codes, bottom first) of a position."""
    head, *rest = text.split(" | ")
    fields = dict(re.findall(r"(\w+)=(\S+)", head))
    piles = {}
    for part in rest:
        name, _, cards = part.partition(":")
        piles[name.strip()] = [re.sub(r"[!@].*$", "", w) for w in cards.split()]
    return fields, piles


def spit_game(position: str, seed: int = 1, rules: tuple[str, ...] = ()) -> cardcore.Game:
    return cardcore.new_game("spit", 2, position=position, seed=seed, rules=rules)


def speed_game(position: str, seed: int = 1, **options: object) -> cardcore.Game:
    return cardcore.new_game("speed", 2, position=position, seed=seed, options=options)


def piles_of(game: cardcore.Game) -> dict[str, list[str]]:
    return parse_position(game.position())[1]


def fields_of(game: cardcore.Game) -> dict[str, str]:
    return parse_position(game.position())[0]


def spit_holdings(game: cardcore.Game, seat: int) -> Counter[str]:
    p = piles_of(game)
    out: Counter[str] = Counter()
    for k in range(1, 6):
        out.update(p[f"layout.{seat}.{k}"])
    out.update(p[f"spit.{seat}"])
    return out


def layout_sizes(game: cardcore.Game, seat: int) -> list[int]:
    p = piles_of(game)
    return [len(p[f"layout.{seat}.{k}"]) for k in range(1, 6)]


#: SPIT-SETUP-4's table of pile sizes for n = 1..15 cards.
SETUP4 = {
    1: [1, 0, 0, 0, 0],
    2: [1, 1, 0, 0, 0],
    3: [1, 1, 1, 0, 0],
    4: [1, 1, 1, 1, 0],
    5: [1, 1, 1, 1, 1],
    6: [1, 2, 1, 1, 1],
    7: [1, 2, 2, 1, 1],
    8: [1, 2, 2, 2, 1],
    9: [1, 2, 2, 2, 2],
    10: [1, 2, 3, 2, 2],
    11: [1, 2, 3, 3, 2],
    12: [1, 2, 3, 3, 3],
    13: [1, 2, 3, 4, 3],
    14: [1, 2, 3, 4, 4],
    15: [1, 2, 3, 4, 5],
}


def expected_sizes(n: int) -> list[int]:
    return SETUP4[min(n, 15)]


def assert_rejected_changes_nothing(game: cardcore.Game, seat: int, text: str) -> None:
    before, pos = game.save(), game.position()
    with pytest.raises((IllegalActionError, StaleActionError)):
        game.act(seat, text)
    assert game.save() == before
    assert game.position() == pos


def all_cards(game: cardcore.Game) -> Counter[str]:
    out: Counter[str] = Counter()
    for cards in piles_of(game).values():
        out.update(cards)
    return out


# A full-layout pair of seats used by several positions: 15 cards each, no plays onto
# kings/queens planned (tops listed last).
#   seat 0 tops: 2H 3H 5H 8H QH   seat 1 tops: 4S 9S KS 3D 5D


# --------------------------------------------------------------------------- SPIT-STUCK-5


def _recycle_table() -> dict[str, str]:
    """Neither seat has spit cards; L and R hold 11 cards each (SPIT-STUCK-5/6 tables)."""
    return {
        "layout.0.1": "2H",
        "layout.0.2": "4H 3H",
        "layout.0.3": "7H 6H 5H",
        "layout.0.4": "JH 10H 9H 8H",
        "layout.0.5": "AH 2S 3S 4S QH",
        "layout.1.1": "4D",
        "layout.1.2": "5S 9S",
        "layout.1.3": "6S 7S KS",
        "layout.1.4": "8S 10S JS 3D",
        "layout.1.5": "QS AS 2D KH 5D",
        # L: bottom..top, the top AC: seat 0's 2H can go there.
        "pile.L": "6D 7D 8D 9D 10D JD QD KD 3C 2C AC",
        "pile.R": "4C 5C 6C 7C 8C 9C 10C JC QC AD KC",
    }


def test_spit_stuck_5_recycle_keeps_tops_and_gives_each_starter_the_cards_under_its_pile() -> None:
    pos = spit_position(_recycle_table())
    game = spit_game(pos, seed=3)
    old = parse_position(pos)[1]
    # SPIT-STUCK-1/3 (a): both choose not to play -> a spit is due.
    game.act(0, "spit")
    game.act(1, "spit")
    p = piles_of(game)
    # SPIT-STUCK-5: each spit pile keeps its top card (now at the bottom)...
    assert p["pile.L"][0] == "AC"
    assert p["pile.R"][0] == "KC"
    # ...the cards under it become the spit cards of the pile's starter, and then the
    # spit proceeds: the spat cards and what is left of the spit cards are exactly those.
    assert Counter(p["spit.0"] + p["pile.L"][1:]) == Counter(old["pile.L"][:-1])
    assert Counter(p["spit.1"] + p["pile.R"][1:]) == Counter(old["pile.R"][:-1])
    # The spit proceeded (SPIT-STUCK-2: each onto its own home pile): at least one card each.
    assert len(p["pile.L"]) >= 2 and len(p["pile.R"]) >= 2
    # Layouts untouched; spit cards face down (no card of spit.* shown in a view).
    for s in (0, 1):
        for k in range(1, 6):
            assert p[f"layout.{s}.{k}"] == old[f"layout.{s}.{k}"]
    view = game.view(None)["table"]
    assert view["seats"][0]["spit_cards"] == len(p["spit.0"])
    assert view["seats"][1]["spit_cards"] == len(p["spit.1"])
    assert "recycled=true" in game.position()
    assert all_cards(game) == Counter(DECK52)


def test_spit_stuck_5_recycled_spit_cards_are_shuffled_with_the_games_chance() -> None:
    """SPIT-STUCK-5 "turned face down, shuffled": different seeds give different spit-card orders."""
    pos = spit_position(_recycle_table())
    orders = set()
    for seed in range(8):
        game = spit_game(pos, seed=seed)
        game.act(0, "spit")
        game.act(1, "spit")
        p = piles_of(game)
        orders.add(tuple(p["pile.L"][1:] + p["spit.0"]))
    assert len(orders) > 1


# --------------------------------------------------------------------------- SPIT-STUCK-6


def test_spit_stuck_6_second_recycle_without_a_layout_card_played_voids_the_deal() -> None:
    pos = spit_position(_recycle_table(), recycled=True)
    old = parse_position(pos)[1]
    game = spit_game(pos, seed=4)
    game.act(0, "spit")
    game.act(1, "spit")
    f, p = parse_position(game.position())
    # The deal is void: a new setup phase; deal counts on (a void deal counts as a deal).
    assert f["phase"] == '"setup"'
    assert int(f["deal"]) == 4
    assert p["pile.L"] == [] and p["pile.R"] == []
    # Each gathers own layout, own spit cards and own home pile (L for 0, R for 1).
    for s, home in ((0, "pile.L"), (1, "pile.R")):
        gathered = Counter(old[home])
        for k in range(1, 6):
            gathered.update(old[f"layout.{s}.{k}"])
        gathered.update(old[f"spit.{s}"])
        assert spit_holdings(game, s) == gathered
        n = sum(gathered.values())
        assert n == 26
        # ...and lays out again (SPIT-SETUP-2/3): 15 in the layout, the rest spit cards.
        assert layout_sizes(game, s) == [1, 2, 3, 4, 5]
        assert len(p[f"spit.{s}"]) == n - 15
    assert all_cards(game) == Counter(DECK52)
    view = game.view(None)["table"]
    assert view["phase"] == "setup"
    assert all(not s["ready"] for s in view["seats"])


def test_spit_stuck_6_a_layout_card_reaching_a_spit_pile_allows_the_next_recycle() -> None:
    pos = spit_position(_recycle_table(), recycled=True)
    game = spit_game(pos, seed=4)
    game.act(0, "play 1 L")  # 2H onto AC: a layout card reached a spit pile
    assert "recycled=false" in game.position()
    before = piles_of(game)
    game.act(0, "spit")
    game.act(1, "spit")
    f, p = parse_position(game.position())
    assert f["phase"] == '"play"'  # a recycle, not a void deal
    assert p["pile.L"][0] == "2H" and p["pile.R"][0] == "KC"
    assert Counter(p["spit.0"] + p["pile.L"][1:]) == Counter(before["pile.L"][:-1])
    assert all_cards(game) == Counter(DECK52)


def test_spit_stuck_6_a_combine_is_not_a_layout_card_reaching_a_spit_pile() -> None:
    """Only a card reaching a spit pile counts (seeds/spit.md); a combine does not."""
    table = _recycle_table()
    table["layout.1.1"] = "3C"  # seat 1: piles 1 and 4 show 3C and 3D: combine 1 4
    table["pile.L"] = table["pile.L"].replace("3C", "4D")
    pos = spit_position(table, recycled=True)
    game = spit_game(pos, seed=4)
    game.act(1, "combine 1 4")
    assert "recycled=true" in game.position()
    game.act(0, "spit")
    game.act(1, "spit")
    # spit due, no spit cards, recycled already and no card reached a spit pile -> void
    assert fields_of(game)["phase"] == '"setup"'
    assert all_cards(game) == Counter(DECK52)


def test_spit_stuck_4_5_single_pile_mode_recycles_the_only_pile_to_its_starter() -> None:
    s0 = {"layout.0.1": "9D", "layout.0.2": "10D JD", "layout.0.3": "7D 6D 5D"}
    s1 = {"layout.1.1": "2H", "layout.1.2": "4H"}
    rest = _rest("9D 10D JD 7D 6D 5D 2H 4H KC")
    table = {**s0, **s1, "pile.R": " ".join(rest) + " KC"}
    pos = spit_position(table, single=1)
    old = parse_position(pos)[1]
    game = spit_game(pos, seed=5)
    game.act(0, "spit")
    game.act(1, "spit")
    p = piles_of(game)
    assert p["pile.L"] == []  # single-pile mode: L is never started
    assert p["pile.R"][0] == "KC"
    assert p["spit.0"] == []  # seat 0 never gets spit cards from a pile it did not start
    assert Counter(p["spit.1"] + p["pile.R"][1:]) == Counter(old["pile.R"][:-1])
    assert len(p["pile.R"]) >= 2  # only seat 1 spat, onto its home pile R
    assert all_cards(game) == Counter(DECK52)


def test_spit_stuck_4_in_single_pile_mode_only_the_player_with_spit_cards_spits() -> None:
    s0 = {"layout.0.1": "9D", "layout.0.2": "10D JD", "layout.0.3": "7D 6D 5D"}
    s1 = {"layout.1.1": "2H", "layout.1.2": "4H"}
    rest = _rest("9D 10D JD 7D 6D 5D 2H 4H KC QC")
    table = {
        **s0,
        **s1,
        "spit.1": " ".join(rest[:20]) + " QC",
        "pile.R": " ".join(rest[20:]) + " KC",
    }
    pos = spit_position(table, single=1)
    game = spit_game(pos, seed=5)
    game.act(0, "spit")
    game.act(1, "spit")
    p = piles_of(game)
    assert p["pile.L"] == [] and p["spit.0"] == []
    # seat 1 spat its top spit card QC onto R; seat 0 can then play JD on it: one spit only
    assert p["pile.R"] == [*parse_position(pos)[1]["pile.R"], "QC"]
    assert len(p["spit.1"]) == 20
    assert "play 2 R" in [str(a) for a in game.legal_actions(0)]
    assert all_cards(game) == Counter(DECK52)


def test_spit_stuck_6_a_recycle_that_yields_no_cards_voids_the_deal() -> None:
    """Both spit piles hold one card, neither seat has spit cards: 50 cards in layouts
    (face-up cards of one rank combined on each other)."""
    table = {
        "layout.0.1": "+AS +AH +AD AC",
        "layout.0.2": "KD +2S +2H +2D 2C",
        "layout.0.3": "KC QS +3S +3H +3D 3C",
        "layout.0.4": "QH QD QC +4S +4H +4D 4C",
        "layout.0.5": "JS JH JD JC +5S +5H +5D 5C",
        "layout.1.1": "6S",
        "layout.1.2": "6H 7S",
        "layout.1.3": "6D 6C 8S",
        "layout.1.4": "7H 7D 7C +9S +9D 9C",
        "layout.1.5": "8H 8D 8C 9H +10S +10H +10D 10C",
        "pile.L": "KS",
        "pile.R": "KH",
    }
    pos = spit_position(table)
    old = parse_position(pos)[1]
    game = spit_game(pos, seed=2)
    game.act(0, "spit")
    game.act(1, "spit")
    f, p = parse_position(game.position())
    assert f["phase"] == '"setup"'
    assert p["pile.L"] == [] and p["pile.R"] == []
    for s, home in ((0, "pile.L"), (1, "pile.R")):
        gathered = Counter(old[home])
        for k in range(1, 6):
            gathered.update(old[f"layout.{s}.{k}"])
        assert spit_holdings(game, s) == gathered
    assert sum(spit_holdings(game, 0).values()) == 31
    assert sum(spit_holdings(game, 1).values()) == 21
    assert len(p["spit.0"]) == 16 and len(p["spit.1"]) == 6
    assert f["single"] == "-1"  # both above 15: two-pile mode
    assert all_cards(game) == Counter(DECK52)


# --------------------------------------------------------------------------- SPIT-END-4/5


def _end_of_two_pile_deal(seat0_spit: int) -> dict[str, str]:
    """Seat 0 holds one layout card 2H (playable on L's AC) and *seat0_spit* spit cards.

    Seat 1 holds a full layout and the rest. L holds 4 cards, R 5 cards."""
    pool = [
        c
        for c in DECK52
        if c
        not in {
            "2H",
            "AC",
            "3C",
            "4C",
            "5C",
            "KD",
            "QD",
            "JD",
            "10D",
            "9D",
            "4S",
            "6S",
            "9S",
            "KS",
            "3D",
            "5D",
            "7D",
            "8S",
            "10S",
            "JS",
            "QS",
            "AS",
            "2D",
            "KH",
            "6D",
            "7S",
            "5S",
            "4D",
            "6C",
            "7C",
        }
    ]
    spit0 = " ".join(pool[:seat0_spit])
    spit1 = " ".join(pool[seat0_spit:])
    return {
        "layout.0.1": "2H",
        "layout.1.1": "4S",
        "layout.1.2": "5S 9S",
        "layout.1.3": "6S 7S KS",
        "layout.1.4": "8S 10S JS 3D",
        "layout.1.5": "QS AS 2D KH 5D",
        "spit.0": spit0,
        "spit.1": spit1 + " 4D 6D 6C 7C 7D",
        "pile.L": "3C 4C 5C AC",  # 4 cards; after 2H: 5
        "pile.R": "KD QD JD 10D 9D",  # 5 cards
    }


def test_spit_end_4_slapper_takes_the_slapped_pile_and_each_adds_their_remaining_cards() -> None:
    pos = spit_position(_end_of_two_pile_deal(10))
    old = parse_position(pos)[1]
    game = spit_game(pos, seed=6)
    game.act(0, "play 1 L")  # seat 0's layout is empty: the deal ends (SPIT-END-1)
    assert [str(a) for a in game.legal_actions(0)] == ["slap L", "slap R"]
    # Rejected actions change nothing (SPIT-RT-3: only claims are legal now).
    assert_rejected_changes_nothing(game, 1, "play 1 R")
    assert_rejected_changes_nothing(game, 1, "spit")
    game.act(1, "slap R")  # seat 1 takes R (5 cards), seat 0 the other pile L (5 cards)
    with pytest.raises(cardcore.StaleActionError):
        game.act(0, "slap L", seen=game.version - 1)
    f, p = parse_position(game.position())
    seat0 = Counter(old["spit.0"]) + Counter(old["pile.L"] + ["2H"])
    seat1 = Counter(old["spit.1"]) + Counter(old["pile.R"])
    for k in range(1, 6):
        seat1.update(old[f"layout.1.{k}"])
    assert spit_holdings(game, 0) == seat0
    assert spit_holdings(game, 1) == seat1
    assert sum(seat0.values()) == 15 and sum(seat1.values()) == 37
    # SPIT-END-5: seat 0 starts the next deal with 15 cards -> single-pile mode, the only
    # pile being seat 1's home pile R (seat 1 has the spit cards).
    assert f["phase"] == '"setup"' and f["deal"] == "4"
    assert f["single"] == "1"
    assert layout_sizes(game, 0) == [1, 2, 3, 4, 5]
    assert p["spit.0"] == []
    assert layout_sizes(game, 1) == [1, 2, 3, 4, 5] and len(p["spit.1"]) == 22
    assert game.view(None)["table"]["mode"] != "two-pile"
    # SPIT-START-2: only seat 1 turns a spit card; it starts R.
    game.act(0, "ready")
    game.act(1, "ready")
    p = piles_of(game)
    assert p["pile.L"] == [] and len(p["pile.R"]) == 1
    assert len(p["spit.1"]) == 21
    assert all(not str(a).endswith(" L") for s in (0, 1) for a in game.legal_actions(s))
    assert all_cards(game) == Counter(DECK52)


def test_spit_end_5_sixteen_cards_is_two_pile_mode() -> None:
    pos = spit_position(_end_of_two_pile_deal(11))
    game = spit_game(pos, seed=6)
    game.act(0, "play 1 L")
    game.act(0, "slap L")
    f, p = parse_position(game.position())
    assert sum(spit_holdings(game, 0).values()) == 16
    assert f["single"] == "-1"
    assert len(p["spit.0"]) == 1
    game.act(0, "ready")
    game.act(1, "ready")
    p = piles_of(game)
    assert len(p["pile.L"]) == 1 and len(p["pile.R"]) == 1  # SPIT-START-1


def test_spit_end_5_fewer_than_15_cards_lays_out_row_by_row_with_no_spit_cards() -> None:
    pos = spit_position(_end_of_two_pile_deal(2))
    game = spit_game(pos, seed=6)
    game.act(0, "play 1 L")
    game.act(1, "slap L")  # seat 1 takes L (5 cards), seat 0 takes R (5) + its 2 spit cards
    n = sum(spit_holdings(game, 0).values())
    assert n == 7
    assert layout_sizes(game, 0) == SETUP4[7]
    assert piles_of(game)["spit.0"] == []
    assert fields_of(game)["single"] == "1"


# --------------------------------------------------------------------------- SPIT-END-6 / WIN


def _single(
    seat0_layout: dict[str, str], seat1_layout: dict[str, str], spit1: str, right: str
) -> dict[str, str]:
    table: dict[str, str] = {}
    table.update(seat0_layout)
    table.update(seat1_layout)
    table["spit.1"] = spit1
    table["pile.R"] = right
    return table


def _rest(*taken: str) -> list[str]:
    used = set(" ".join(taken).replace("+", "").split())
    return [c for c in DECK52 if c not in used]


def test_spit_win_1_player_without_spit_cards_empties_first_and_wins() -> None:
    s0 = {"layout.0.1": "2H"}
    s1 = {"layout.1.1": "5S", "layout.1.2": "6S 9S", "layout.1.3": "7S 8S KS"}
    rest = _rest("2H 5S 6S 9S 7S 8S KS AC")
    table = _single(s0, s1, " ".join(rest), "AC")
    game = spit_game(spit_position(table, single=1), seed=1)
    # single-pile mode: there is no L pile to play on.
    assert_rejected_changes_nothing(game, 0, "play 1 L")
    game.act(0, "play 1 R")
    result = game.result
    assert result is not None
    assert result.winners == (0,)
    assert result.reason == "out of cards"
    assert result.scores[0] == 0
    # seat 1 takes the spit pile (AC 2H) and its own layout, and keeps its spit cards
    assert list(result.scores)[1] == 52
    assert all_cards(game) == Counter(DECK52)
    # no action is accepted any more, and a rejected one changes nothing
    for seat, text in ((0, "spit"), (1, "play 1 R"), (1, "slap R")):
        assert_rejected_changes_nothing(game, seat, text)


def test_spit_end_6_and_win_2_opponent_empties_first_takes_nothing_and_keeps_spit_cards() -> None:
    s0 = {"layout.0.1": "9D", "layout.0.2": "10D JD", "layout.0.3": "7D 6D 5D"}
    s1 = {"layout.1.1": "2H"}
    taken = "9D 10D JD 7D 6D 5D 2H AC KC QC"
    rest = _rest(taken)
    spit1 = " ".join(rest)  # 42 spit cards for seat 1
    table = _single(s0, s1, spit1, "KC QC AC")
    pos = spit_position(table, single=1)
    old = parse_position(pos)[1]
    game = spit_game(pos, seed=9)
    assert_rejected_changes_nothing(game, 1, "play 1 L")
    game.act(1, "play 1 R")  # seat 1 (with spit cards) empties its layout first
    assert game.result is None  # SPIT-WIN-2: the game goes on
    f, p = parse_position(game.position())
    # SPIT-END-6: no slap; the next deal follows at once.
    assert f["phase"] == '"setup"' and f["deal"] == "4"
    # Seat 1 takes nothing but keeps its own spit cards.
    assert spit_holdings(game, 1) == Counter(old["spit.1"])
    # Seat 0 takes the spit pile and its own layout cards.
    seat0 = Counter(old["pile.R"] + ["2H"])
    for k in range(1, 6):
        seat0.update(old[f"layout.0.{k}"])
    assert spit_holdings(game, 0) == seat0
    assert sum(seat0.values()) == 10
    assert layout_sizes(game, 0) == SETUP4[10]
    assert layout_sizes(game, 1) == [1, 2, 3, 4, 5] and len(p["spit.1"]) == 27
    assert f["single"] == "1"  # seat 0 still holds 15 or fewer (SPIT-END-5)
    assert all_cards(game) == Counter(DECK52)


def test_spit_win_4_opponent_who_spat_every_spit_card_and_empties_first_wins() -> None:
    s0 = {"layout.0.1": "9D", "layout.0.2": "10D JD", "layout.0.3": "7D 6D 5D"}
    s1 = {"layout.1.1": "2H"}
    rest = _rest("9D 10D JD 7D 6D 5D 2H AC")
    # seat 1 has no spit cards left; everything else lies in R under the AC
    table = _single(s0, s1, "", " ".join(rest) + " AC")
    game = spit_game(spit_position(table, single=1), seed=9)
    game.act(1, "play 1 R")
    result = game.result
    assert result is not None
    assert result.winners == (1,)
    assert result.reason == "out of cards"
    # seat 0 took the spit pile and its own layout: it holds every other card
    assert list(result.scores) == [52, 0]
    assert all_cards(game) == Counter(DECK52)


def test_spit_win_1_only_the_player_who_holds_nothing_wins_seat_0_with_spit_cards() -> None:
    """Mirror: single=0 (only L); seat 1 has no spit cards and empties first."""
    s0 = {"layout.0.1": "5S", "layout.0.2": "6S 9S"}
    s1 = {"layout.1.1": "KH", "layout.1.2": "QH"}
    rest = _rest("5S 6S 9S KH QH AC")
    table = {**s0, **s1, "spit.0": " ".join(rest), "pile.L": "AC"}
    game = spit_game(spit_position(table, single=0), seed=1)
    game.act(1, "play 1 L")  # KH on AC
    assert game.result is None
    game.act(1, "play 2 L")  # QH on KH: seat 1's layout is empty
    result = game.result
    assert result is not None and result.winners == (1,)
    assert result.reason == "out of cards"


def test_spit_win_3_a_two_pile_deal_never_ends_the_game() -> None:
    pos = spit_position(_end_of_two_pile_deal(0))
    game = spit_game(pos, seed=6)
    game.act(0, "play 1 L")  # seat 0 holds nothing but the piles remain to claim
    assert game.result is None
    game.act(0, "slap R")
    assert game.result is None
    assert sum(spit_holdings(game, 0).values()) == 5


# --------------------------------------------------------------------------- jokers


def test_spit_gen_2_spit_has_no_jokers_and_no_jokers_option() -> None:
    game = cardcore.new_game("spit", 2, seed=1)
    assert all_cards(game) == Counter(DECK52)
    with pytest.raises(OptionError):
        cardcore.new_game("spit", 2, seed=1, options={"jokers": 2})


@pytest.mark.parametrize("seats", [1, 3, 4])
def test_spit_gen_1_speed_gen_1_exactly_two_players(seats: int) -> None:
    for name in ("spit", "speed"):
        with pytest.raises(Exception):  # noqa: B017 - any refusal
            cardcore.new_game(name, seats, seed=1)


@pytest.mark.parametrize(("side", "stock"), [(5, 16), (15, 6)])
def test_speed_gen_2_setup_3_two_jokers_make_54_cards_and_one_more_stock_card(
    side: int, stock: int
) -> None:
    game = cardcore.new_game("speed", 2, seed=3, options={"jokers": 2, "side_pile": side})
    assert all_cards(game) == Counter([*DECK52, "JK", "JK"])
    p = piles_of(game)
    for s in (0, 1):
        assert len(p[f"hand.{s}"]) == 5
        assert len(p[f"stock.{s}"]) == stock
        assert len(p[f"side.{s}"]) == side
    assert len(p["pile.L"]) == 1 and len(p["pile.R"]) == 1


def test_speed_gen_2_jokers_option_takes_only_0_or_2() -> None:
    for bad in (1, 3, 4):
        with pytest.raises(OptionError):
            cardcore.new_game("speed", 2, seed=1, options={"jokers": bad})


def _speed_joker_table() -> dict[str, str]:
    rest = _rest("JK 2C 7H 9S 10H QD 5S 8C KH 4D 6D")
    # hands: seat 0 JK 2C 7H 9S 10H; seat 1 QD 5S 8C KH 4D; piles L 6D? no: top listed last
    return {
        "hand.0": "JK 2C 7H 9S 10H",
        "hand.1": "QD 5S 8C KH 4D",
        "stock.0": " ".join(rest[:15]),
        "stock.1": " ".join(rest[15:30]) + " JK",
        "side.0": " ".join(rest[30:35]),
        "side.1": " ".join(rest[35:40]),
        "pile.L": " ".join(rest[40:]) + " 6D",
        "pile.R": "",
    }


def test_speed_play_3_joker_goes_on_any_card_and_any_card_goes_on_a_joker() -> None:
    t = _speed_joker_table()
    # R must be non-empty: move one card of L's under-cards to R
    under = t["pile.L"].split()
    t["pile.R"] = under[0]  # some card, its rank irrelevant
    t["pile.L"] = " ".join(under[1:])
    game = speed_game(speed_position(t, jokers=2), seed=1, jokers=2)
    legal0 = [str(a) for a in game.legal_actions(0)]
    assert "play JK L" in legal0 and "play JK R" in legal0  # joker on 6D and on anything
    # 10H does not fit 6D
    assert_rejected_changes_nothing(game, 0, "play 10H L")
    game.act(0, "play JK L")
    # any card on a joker: every card of both hands fits L now
    after = {str(a) for a in game.legal_actions(0)}
    hand0 = list(game.view(0)["table"]["seats"][0]["hand"])
    for card in hand0:
        assert f"play {card} L" in after
    legal1 = {str(a) for a in game.legal_actions(1)}
    for card in ("QD", "5S", "8C", "KH", "4D"):
        assert f"play {card} L" in legal1
    game.act(0, "play 10H L")  # onto the joker
    assert piles_of(game)["pile.L"][-2:] == ["JK", "10H"]
    assert all_cards(game) == Counter([*DECK52, "JK", "JK"])


def test_speed_play_3_a_joker_goes_on_a_joker() -> None:
    t = _speed_joker_table()
    # seat 0 holds both jokers: swap 2C in hand with the JK at the top of stock.1
    t["hand.0"] = "JK JK 7H 9S 10H"
    t["stock.1"] = t["stock.1"].replace(" JK", " 2C")
    under = t["pile.L"].split()
    t["pile.R"] = under[0]
    t["pile.L"] = " ".join(under[1:])
    game = speed_game(speed_position(t, jokers=2), seed=1, jokers=2)
    assert [str(a) for a in game.legal_actions(0)].count(
        "play JK L"
    ) == 1  # equal cards: one action
    game.act(0, "play JK L")
    game.act(0, "play JK L")
    assert piles_of(game)["pile.L"][-2:] == ["JK", "JK"]


# --------------------------------------------------------------------------- Speed end


def _speed_stalemate(stock0: int, stock1: int = 15) -> dict[str, str]:
    """Side piles empty; seat 0 can play 3H on L (2S) so the table is not stuck.

    Hands: seat 0 3H 9C 9D 9H 9S; seat 1 6C 6D 6H 6S 10C (none fits 2S or KD). A stock
    holds at most 15 cards (SPEED-SETUP-3), so the play piles hold the other cards: with
    52 cards a recycle always yields cards (hands and stocks hold at most 40).
    """
    fixed = "3H 9C 9D 9H 9S 6C 6D 6H 6S 10C 2S KD"
    rest = _rest(fixed)  # 40 cards
    s0, s1, piles = rest[:stock0], rest[stock0 : stock0 + stock1], rest[stock0 + stock1 :]
    half = len(piles) // 2
    return {
        "hand.0": "3H 9C 9D 9H 9S",
        "hand.1": "6C 6D 6H 6S 10C",
        "stock.0": " ".join(s0),
        "stock.1": " ".join(s1),
        "pile.L": " ".join(piles[:half]) + " 2S",
        "pile.R": " ".join(piles[half:]) + " KD",
    }


def test_speed_end_2_second_recycle_without_a_card_played_ends_the_game_fewer_cards_wins() -> None:
    t = _speed_stalemate(stock0=10)  # seat 0: 5 + 10 = 15, seat 1: 5 + 15 = 20
    game = speed_game(speed_position(t, recycled=True), seed=1)
    game.act(0, "stuck")
    assert game.result is None
    game.act(1, "stuck")  # both stuck, side piles empty: a second recycle is due -> game ends
    result = game.result
    assert result is not None
    assert result.winners == (0,)
    assert list(result.scores) == [15, 20]
    assert all_cards(game) == Counter(DECK52)
    assert_rejected_changes_nothing(game, 0, "play 3H L")
    assert_rejected_changes_nothing(game, 1, "stuck")


def test_speed_end_2_equal_counts_are_a_draw() -> None:
    t = _speed_stalemate(stock0=15)  # 20 each
    game = speed_game(speed_position(t, recycled=True), seed=1)
    game.act(0, "stuck")
    game.act(1, "stuck")
    result = game.result
    assert result is not None
    assert set(result.winners) == {0, 1}
    assert list(result.scores) == [20, 20]


def test_speed_end_2_seat_1_holding_fewer_wins() -> None:
    t = _speed_stalemate(stock0=15, stock1=3)
    game = speed_game(speed_position(t, recycled=True), seed=1)
    game.act(1, "stuck")
    game.act(0, "stuck")
    result = game.result
    assert result is not None and result.winners == (1,)
    assert list(result.scores) == [20, 8]


def test_speed_stuck_2_first_recycle_turns_the_play_piles_into_side_piles() -> None:
    t = _speed_stalemate(stock0=10)
    pos = speed_position(t)  # recycled=false: no recycle yet
    old = parse_position(pos)[1]
    game = speed_game(pos, seed=1)
    game.act(0, "stuck")
    game.act(1, "stuck")
    p = piles_of(game)
    # SPEED-STUCK-2: each play pile except its top becomes its player's side pile, then
    # SPEED-STUCK-1: each turns its top side card onto its own play pile.
    assert p["pile.L"][0] == "2S"
    assert p["pile.R"][0] == "KD"
    assert Counter(p["side.0"] + p["pile.L"][1:]) == Counter(old["pile.L"][:-1])
    assert Counter(p["side.1"] + p["pile.R"][1:]) == Counter(old["pile.R"][:-1])
    assert len(p["pile.L"]) >= 2 and len(p["pile.R"]) >= 2
    assert "recycled=true" in game.position()
    assert all_cards(game) == Counter(DECK52)


def test_speed_end_2_a_card_played_since_the_recycle_allows_another_recycle() -> None:
    t = _speed_stalemate(stock0=10)
    pos = speed_position(t, recycled=True)
    old = parse_position(pos)[1]
    game = speed_game(pos, seed=1)
    game.act(0, "play 3H L")  # a card played since the previous recycle (3H on 2S)
    for seat in (0, 1):
        if game.result is None and "stuck" in [str(a) for a in game.legal_actions(seat)]:
            game.act(seat, "stuck")
    assert game.result is None
    p = piles_of(game)
    assert p["pile.L"][0] == "3H"
    assert p["pile.R"][0] == "KD"
    # everything under the 3H (the old pile L, its 2S included) was recycled to seat 0
    assert Counter(p["side.0"] + p["pile.L"][1:]) == Counter(old["pile.L"])
    assert all_cards(game) == Counter(DECK52)


def test_speed_stuck_3_only_the_player_with_a_side_pile_turns() -> None:
    t = _speed_stalemate(stock0=10)
    # give seat 1 a side pile of 3 cards taken from its stock; seat 0's stays empty
    stock1 = t["stock.1"].split()
    t["side.1"] = " ".join(stock1[:3])
    t["stock.1"] = " ".join(stock1[3:])
    pos = speed_position(t, recycled=True)
    old = parse_position(pos)[1]
    game = speed_game(pos, seed=1)
    game.act(0, "stuck")
    game.act(1, "stuck")
    p = piles_of(game)
    assert game.result is None  # no recycle due: seat 1 still has a side pile
    assert p["pile.L"] == old["pile.L"]  # seat 0 turned nothing
    # seat 1 turned its top side card (the last listed) onto R, maybe more while still stuck
    assert p["pile.R"][: len(old["pile.R"]) + 1] == old["pile.R"] + [stock1[2]]
    assert all_cards(game) == Counter(DECK52)


def test_speed_end_1_empty_hand_and_stock_wins() -> None:
    rest = _rest("3H 2S KD 9C")
    t = {
        "hand.0": "3H",
        "hand.1": "9C " + " ".join(rest[:4]),
        "stock.1": " ".join(rest[4:19]),
        "side.0": " ".join(rest[19:24]),
        "side.1": " ".join(rest[24:29]),
        "pile.L": " ".join(rest[29:]) + " 2S",
        "pile.R": "KD",
    }
    game = speed_game(speed_position(t), seed=1)
    game.act(0, "play 3H L")
    result = game.result
    assert result is not None and result.winners == (0,)
    assert result.scores[0] == 0


# --------------------------------------------------------------------------- long games


SPIT_PROBES = ["play 5 R", "play 1 L", "combine 1 2", "fill 2 1", "slap L", "ready", "spit"]
SPEED_PROBES = ["play QS L", "play 7H R", "play JK L", "stuck"]


def _random_long_game(
    name: str, seed: int, options: dict[str, object], deck: Counter[str]
) -> tuple[int, cardcore.Game]:
    """Play random legal actions (mostly plays and claims) to the end; check the cards at
    every step and that a rejected action changes nothing. Returns the deals seen."""
    rng = random.Random(seed)
    game = cardcore.new_game(name, 2, seed=seed, options=options)
    probes = SPIT_PROBES if name == "spit" else SPEED_PROBES
    deals = {fields_of(game).get("deal")}
    for step in range(20000):
        assert all_cards(game) == deck, (name, seed, step)
        if game.result is not None:
            break
        seats = [s for s in game.to_act if game.legal_actions(s)]
        assert seats, (name, seed, step, game.position())
        seat = rng.choice(seats)
        texts = [str(a) for a in game.legal_actions(seat)]
        if step % 7 == 0:
            bad = [t for t in probes if t not in texts]
            if bad:
                before, pos = game.save(), game.position()
                with pytest.raises((IllegalActionError, StaleActionError)):
                    game.act(seat, rng.choice(bad))
                assert game.save() == before and game.position() == pos
        preferred = [t for t in texts if t.startswith(("play", "slap", "ready"))]
        pick = rng.choice(preferred) if preferred and rng.random() < 0.9 else rng.choice(texts)
        game.act(seat, pick)
        deals.add(fields_of(game).get("deal"))
    assert game.result is not None, (name, seed)
    assert all_cards(game) == deck
    # once over, nothing is accepted and nothing changes
    before = game.save()
    for seat in (0, 1):
        for text in probes:
            with pytest.raises((IllegalActionError, StaleActionError)):
                game.act(seat, text)
    assert game.save() == before
    return len(deals), game


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_spit_long_random_games_keep_every_card_in_exactly_one_place(seed: int) -> None:
    _deals, game = _random_long_game("spit", seed, {}, Counter(DECK52))
    result = game.result
    assert result is not None
    if result.reason == "out of cards":  # SPIT-WIN-1/4: the winner holds no cards
        (winner,) = result.winners
        assert list(result.scores)[winner] == 0
        assert sum(result.scores) == 52


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(
    "options", [{}, {"jokers": 2}, {"side_pile": 15}, {"jokers": 2, "side_pile": 15}]
)
def test_speed_long_random_games_keep_every_card_in_exactly_one_place(
    seed: int, options: dict[str, object]
) -> None:
    jokers = 2 if options.get("jokers") == 2 else 0
    _, game = _random_long_game("speed", seed, options, Counter(DECK52 + ["JK"] * jokers))
    result = game.result
    assert result is not None
    scores = list(result.scores)
    if len(result.winners) == 1 and min(scores) == 0:  # SPEED-END-1
        assert scores[result.winners[0]] == 0
    else:  # SPEED-END-2: fewer cards wins, equal is a draw
        best = min(scores)
        assert set(result.winners) == {s for s in (0, 1) if scores[s] == best}


@pytest.mark.parametrize("seed", [7, 11, 12])
def test_spit_bot_games_run_to_a_winner_holding_no_cards(seed: int) -> None:
    from cardcore_spit.agents import SpitGreedyAgent

    game = cardcore.new_game("spit", 2, seed=seed)
    result = cardcore.run_realtime(
        game, [SpitGreedyAgent(seed=seed), SpitGreedyAgent(seed=seed + 1)], seed=seed
    )
    assert all_cards(game) == Counter(DECK52)
    if result.reason == "out of cards":
        (winner,) = result.winners
        assert list(result.scores)[winner] == 0
        assert sum(result.scores) == 52
