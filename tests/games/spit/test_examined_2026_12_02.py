"""Independent rules examination of Spit and Speed (2026-12-02).

Every expectation below was written from the seed (``000_6d771d377e1aefe8.txt`` and its
rendering ``spit.en.md``) and the rule decisions before the engine was run; each test is named
after the rule ID it checks and drives the game only through the public API (``new_game``
with stacked decks or positions, ``act``, ``legal_actions``, ``view``, ``position``,
``result``, ``record``, ``cardcore.replay``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import cardcore
from cardcore import (
    IllegalActionError,
    OptionError,
    StaleActionError,
    standard_52,
    with_jokers,
)

DECK = [str(c) for c in standard_52()]
DECK_JK = [str(c) for c in with_jokers(standard_52(), 2)]
SPIT_ZONES = [f"layout.{s}.{k}" for s in (0, 1) for k in range(1, 6)] + [
    "spit.0",
    "spit.1",
    "pile.L",
    "pile.R",
]
SPEED_ZONES = ["hand.0", "hand.1", "stock.0", "stock.1", "side.0", "side.1", "pile.L", "pile.R"]


def words(text: str) -> list[str]:
    return text.split()


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _rest(used: list[str], deck: list[str]) -> list[str]:
    left = list(deck)
    for card in used:
        left.remove(card)
    return left


def spit_position(
    zones: Mapping[str, str],
    rest: str,
    *,
    phase: str = "play",
    single: int = -1,
    requests: tuple[bool, bool] = (False, False),
    stall: int = 0,
    recycled: bool = False,
    emptier: int = -1,
) -> str:
    """A Spit position: *zones* bottom to top (``!`` face up); the cards not named go under
    the cards of zone *rest* (face up in a spit pile, face down in spit cards)."""
    used = [t.rstrip("!") for text in zones.values() for t in text.split()]
    mark = "!" if rest.startswith("pile") else ""
    out = dict(zones)
    out[rest] = " ".join([c + mark for c in _rest(used, DECK)] + zones.get(rest, "").split())
    head = (
        f'spit v=1 phase="{phase}" deal=1 single={single} ready=[true,true]'
        f" requests=[{_flag(requests[0])},{_flag(requests[1])}] stall={stall}"
        f" recycled={_flag(recycled)} emptier={emptier}"
    )
    return head + "".join(f" | {z}: {out.get(z, '')}".rstrip() for z in SPIT_ZONES)


def speed_position(
    zones: Mapping[str, str],
    rest: str,
    *,
    jokers: bool = False,
    requests: tuple[bool, bool] = (False, False),
    recycled: bool = False,
) -> str:
    """A Speed position: hands, stocks, side piles and play piles bottom to top. The cards
    not named go under the named cards of the zones in *rest* (comma-separated, filled in
    order: a stock up to the deal's size, a play pile face up without limit)."""
    used = [t.split("@")[0].rstrip("!") for text in zones.values() for t in text.split()]
    out = dict(zones)
    left = _rest(used, DECK_JK if jokers else DECK)
    for zone in rest.split(","):
        have = zones.get(zone, "").split()
        room = len(left) if zone.startswith("pile") else 15 + int(jokers) - len(have)
        mark = "!" if zone.startswith("pile") else ""
        take, left = left[: max(room, 0)], left[max(room, 0) :]
        out[zone] = " ".join([c + mark for c in take] + have)
    assert not left, left
    head = (
        f"speed v=1 requests=[{_flag(requests[0])},{_flag(requests[1])}] recycled={_flag(recycled)}"
    )
    return head + "".join(f" | {z}: {out.get(z, '')}".rstrip() for z in SPEED_ZONES)


def spit(position: str, rules: tuple[str, ...] = (), **options: Any) -> cardcore.Game:
    return cardcore.new_game(
        "spit", 2, position=position, seed=1, rules=list(rules), options=options
    )


def speed(position: str, rules: tuple[str, ...] = (), **options: Any) -> cardcore.Game:
    return cardcore.new_game(
        "speed", 2, position=position, seed=1, rules=list(rules), options=options
    )


def table(game: cardcore.Game, seat: int | None = None) -> dict[str, Any]:
    table_: dict[str, Any] = game.view(seat)["table"]
    return table_


def legal(game: cardcore.Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def layout(game: cardcore.Game, seat: int, viewer: int | None = None) -> list[list[str | None]]:
    lay: list[list[str | None]] = table(game, viewer)["seats"][seat]["layout"]
    return lay


def piles(game: cardcore.Game) -> dict[str, list[str] | None]:
    centre: dict[str, list[str] | None] = table(game)["piles"]
    return centre


def held(game: cardcore.Game, seat: int) -> int:
    count: int = table(game)["seats"][seat]["cards"]
    return count


def interleave(seat0: list[str], seat1: list[str]) -> str:
    out: list[str] = []
    for a, b in zip(seat0, seat1, strict=True):
        out += [a, b]
    return " ".join(out)


def strings(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, Mapping):
        for key, value in obj.items():
            yield from strings(key)
            yield from strings(value)
    elif isinstance(obj, list | tuple):
        for value in obj:
            yield from strings(value)


def shown_cards(view: Any) -> set[str]:
    """Every card code anywhere in a view."""
    return {s for s in strings(view) if s in DECK_JK}


def hidden_in(position: str, viewer: int | None) -> set[str]:
    """The cards of a position that *viewer* may not know (``!`` everyone, ``@s`` seat s)."""
    out: set[str] = set()
    for part in position.split(" | ")[1:]:
        for token in part.split(":", 1)[1].split():
            if token.endswith("!"):
                continue
            card, _, who = token.partition("@")
            if who and viewer is not None and str(viewer) in who.split(","):
                continue
            out.add(card)
    return out


# the golden deal (docs/games/spit.rst): seat 0's and seat 1's 26 cards in the order received
SEAT0 = words("2H 4H 7H JH 3S 3H 6H 10H 2S 5H 9H AS 8H KH QH AH AC 2C 3C 4C 5C 6C 7C 8C 9C 10C")
SEAT1 = words("4S 5S 6S 7S 8S 9S 10S JS QS KS AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD JC QC KC")


def golden(rules: tuple[str, ...] = ()) -> cardcore.Game:
    return cardcore.new_game("spit", 2, deck=interleave(SEAT0, SEAT1), seed=5, rules=list(rules))


# ------------------------------------------------------------------------------------------
# Spit: the deal and the layouts
# ------------------------------------------------------------------------------------------


def test_spit_gen_1_two_players_only() -> None:
    with pytest.raises(OptionError, match=r"\(CORE-SEAT-2\)"):
        cardcore.new_game("spit", 3)
    assert len(cardcore.new_game("spit", 2, seed=1).players) == 2


def test_spit_gen_2_one_deck_without_jokers() -> None:
    game = cardcore.new_game("spit", 2, seed=4)
    cards = [z["cards"] for z in game.view(None)["zones"]]
    assert sum(len(c) for c in cards) == 52
    assert "JK" not in game.position()
    with pytest.raises(
        OptionError, match="no option 'jokers'"
    ):  # jokers are Speed's option, not Spit's
        cardcore.new_game("spit", 2, options={"jokers": 2})


def test_spit_setup_1_alternate_deal_first_card_to_seat_0() -> None:
    game = golden()
    # seat 0 lays its received cards 1..15 as piles 1,2,3,4,5,2,3,4,5,3,4,5,4,5,5
    assert [pile[0] for pile in layout(game, 0)] == ["2H", "3H", "5H", "8H", "QH"]
    assert [pile[0] for pile in layout(game, 1)] == ["4S", "9S", "KS", "3D", "5D"]
    assert [held(game, 0), held(game, 1)] == [26, 26]


def test_spit_setup_2_five_piles_one_to_five_cards_top_face_up() -> None:
    game = cardcore.new_game("spit", 2, seed=11)
    for viewer in (0, 1, None):
        for seat in (0, 1):
            lay = layout(game, seat, viewer)
            assert [len(p) for p in lay] == [1, 2, 3, 4, 5]
            for pile in lay:
                assert pile[0] is not None
                assert pile[1:] == [None] * (len(pile) - 1)


def test_spit_setup_3_eleven_hidden_spit_cards() -> None:
    game = cardcore.new_game("spit", 2, seed=11)
    for viewer in (0, 1, None):
        seats = table(game, viewer)["seats"]
        assert [s["spit_cards"] for s in seats] == [11, 11]
        zones = {z["name"]: z for z in game.view(viewer)["zones"]}
        assert zones["spit.0"]["cards"] == [None] * 11
        assert zones["spit.1"]["cards"] == [None] * 11


def test_spit_setup_4_small_hand_laid_row_by_row_after_a_deal() -> None:
    # seat 0 empties its layout onto L; seat 0 slaps L (7 cards) and lays out 7 cards
    pos = spit_position(
        {
            "layout.0.1": "5H!",
            "layout.1.1": "9C!",
            "layout.1.2": "8S 7C!",
            "spit.1": "2C 3C",
            "pile.L": "AC! 2D! 3D! 4C! 5C! 4D!",
        },
        "pile.R",
    )
    game = spit(pos)
    game.act(0, "play 1 L")
    assert table(game)["phase"] == "claim"
    game.act(0, "slap L")
    assert held(game, 0) == 7
    assert [len(p) for p in layout(game, 0)] == [1, 2, 2, 1, 1]
    assert table(game)["seats"][0]["spit_cards"] == 0
    assert table(game)["mode"] == "single-pile"
    assert held(game, 1) == 45
    assert [len(p) for p in layout(game, 1)] == [1, 2, 3, 4, 5]


def test_spit_setup_5_canfield_layout() -> None:
    game = cardcore.new_game("spit", 2, seed=3, rules=["spit.canfield"])
    for seat in (0, 1):
        lay = layout(game, seat, 1 - seat)
        assert [len(p) for p in lay] == [1, 1, 1, 1, 11]
        assert all(p[0] is not None for p in lay)
        assert lay[4][1:] == [None] * 10
        assert table(game)["seats"][seat]["spit_cards"] == 11


def test_spit_setup_6_setup_phase_only_combine_fill_then_ready() -> None:
    pos = spit_position(
        {
            "layout.0.1": "8H!",
            "layout.0.2": "2S 8D!",
            "layout.0.3": "JC 3S 5H!",
            "layout.1.1": "KS!",
            "layout.1.2": "QS 4D!",
        },
        "spit.0",
        phase="setup",
    )
    # the position must be a real deal: put exactly the layout counts (this is refused otherwise)
    with pytest.raises(OptionError, match=r"\(SPIT-END-5\)"):
        spit(pos)
    game = golden()
    assert table(game)["phase"] == "setup"
    assert legal(game, 0) == ["ready"]  # all tops differ, no plays before both are ready
    with pytest.raises(IllegalActionError, match=r"\(SPIT-SETUP-6\)"):
        game.act(0, "play 1 L")
    game.act(0, "ready")
    assert game.to_act == (1,)
    assert piles(game) == {"L": None, "R": None}
    game.act(1, "ready")
    assert table(game)["phase"] == "play"


def test_spit_setup_6_combine_in_setup_turns_up_next_card() -> None:
    eights0 = "2H 4H 7H JH 3S 8H 6H 10H 2S 5H 9H AS 8D KH 8S AH AC 2C 3C 4C 5C 6C 7C 8C 9C 10C"
    eights1 = "4S 5S 6S 7S QH 9S 10S JS QS KS AD 2D 3D 4D 5D 6D 7D 3H 9D 10D JD QD KD JC QC KC"
    game = cardcore.new_game("spit", 2, deck=interleave(eights0.split(), eights1.split()), seed=1)
    assert [p[0] for p in layout(game, 0)] == ["2H", "8H", "5H", "8D", "8S"]
    assert "combine 4 2" in legal(game, 0)
    game.act(0, "combine 4 2")  # 8D onto 8H; pile 4 shows the card under it (AS)
    lay = layout(game, 0, 1)
    assert lay[1][:2] == ["8D", "8H"]
    assert lay[3][0] == "9H"  # pile 4 held JH 10H 9H 8D (received cards 4, 8, 11, 13)
    assert lay[3][1:] == [None, None]


# ------------------------------------------------------------------------------------------
# Spit: the start and what may be played on what
# ------------------------------------------------------------------------------------------


def test_spit_start_1_each_turns_own_spit_card_onto_own_pile() -> None:
    game = golden()
    game.act(0, "ready")
    game.act(1, "ready")
    assert piles(game) == {"L": ["AH"], "R": ["6D"]}  # the 16th card each received
    assert [s["spit_cards"] for s in table(game)["seats"]] == [10, 10]


def test_spit_move_2_plus_or_minus_one_any_suit() -> None:
    pos = spit_position(
        {
            "layout.0.1": "5H!",
            "layout.0.2": "3C!",
            "layout.0.3": "9S!",
            "layout.1.1": "QC!",
            "spit.0": "2C",
            "spit.1": "3H",
            "pile.L": "4D!",
            "pile.R": "JS!",
        },
        "pile.R",
    )
    game = spit(pos)
    assert [a for a in legal(game, 0) if a.startswith("play")] == ["play 1 L", "play 2 L"]
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-2\)") as err:
        game.act(0, "play 3 L")
    assert "SPIT-MOVE-2" in str(err.value)
    game.act(0, "play 1 L")
    assert piles(game)["L"] == ["5H", "4D"]


def test_spit_move_3_ace_wraps_between_king_and_two() -> None:
    pos = spit_position(
        {
            "layout.0.1": "AH!",
            "layout.0.2": "AC!",
            "layout.0.3": "QH!",
            "layout.1.1": "KC!",
            "layout.1.2": "2C!",
            "spit.0": "9C",
            "spit.1": "9H",
            "pile.L": "KD!",
            "pile.R": "2D!",
        },
        "pile.R",
    )
    game = spit(pos)
    assert legal(game, 0)[:4] == ["play 1 L", "play 1 R", "play 2 L", "play 2 R"]
    assert "play 3 L" in legal(game, 0)  # Q on K
    game.act(0, "play 1 L")  # A on K
    assert "play 1 L" in legal(game, 1)  # K on A
    assert "play 2 L" in legal(game, 1)  # 2 on A
    game.act(1, "play 1 L")
    assert piles(game)["L"] == ["KC", "AH", "KD"]


def test_spit_move_4_equal_rank_refused() -> None:
    pos = spit_position(
        {
            "layout.0.1": "5H!",
            "layout.0.2": "6H!",
            "layout.1.1": "9C!",
            "spit.0": "2C",
            "spit.1": "3H",
            "pile.L": "5D!",
        },
        "pile.R",
    )
    game = spit(pos)
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-4\)") as err:
        game.act(0, "play 1 L")
    assert "SPIT-MOVE-4" in str(err.value)
    assert piles(game)["L"] == ["5D"]


def test_spit_move_12_same_rank_house_rule() -> None:
    pos = spit_position(
        {
            "layout.0.1": "5H!",
            "layout.0.2": "6H!",
            "layout.1.1": "9C!",
            "spit.0": "2C",
            "spit.1": "3H",
            "pile.L": "5D!",
        },
        "pile.R",
    )
    game = spit(pos, rules=("spit.same-rank",))
    assert "play 1 L" in legal(game, 0)
    game.act(0, "play 1 L")
    assert piles(game)["L"] == ["5H", "5D"]
    assert "play 2 L" in legal(game, 0)  # and adjacency still holds


def test_spit_move_5_combine_same_rank_uncovers() -> None:
    pos = spit_position(
        {
            "layout.0.1": "8H!",
            "layout.0.2": "2S 8D!",
            "layout.0.3": "JC!",
            "layout.1.1": "9C!",
            "spit.0": "2C",
            "spit.1": "3H",
            "pile.L": "4D!",
            "pile.R": "10D!",
        },
        "pile.R",
    )
    game = spit(pos)
    assert "combine 2 1" in legal(game, 0)
    assert "combine 3 1" not in legal(game, 0)
    game.act(0, "combine 2 1")
    assert layout(game, 0, 1)[:2] == [["8D", "8H"], ["2S"]]


def test_spit_move_6_fill_empty_space_uncovers() -> None:
    pos = spit_position(
        {
            "layout.0.2": "2S 8D!",
            "layout.0.3": "JC!",
            "layout.1.1": "9C!",
            "spit.0": "2C",
            "spit.1": "3H",
            "pile.L": "4D!",
            "pile.R": "10D!",
        },
        "pile.R",
    )
    game = spit(pos)
    assert "fill 2 1" in legal(game, 0)
    game.act(0, "fill 2 1")
    assert layout(game, 0, 1)[:2] == [["8D"], ["2S"]]
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-6\)"):
        game.act(0, "fill 3 1")  # position 1 is no longer empty


def test_spit_move_7_play_turns_up_card_beneath_for_everyone() -> None:
    pos = spit_position(
        {
            "layout.0.2": "QS 3C!",
            "layout.1.1": "9C!",
            "spit.0": "2C",
            "spit.1": "3H",
            "pile.L": "4D!",
            "pile.R": "10D!",
        },
        "pile.R",
    )
    game = spit(pos)
    assert layout(game, 0, 1)[1] == ["3C", None]
    game.act(0, "play 2 L")
    for viewer in (0, 1, None):
        assert layout(game, 0, viewer)[1] == ["QS"]


# ------------------------------------------------------------------------------------------
# Spit: getting stuck
# ------------------------------------------------------------------------------------------


STUCK_BASE = {
    "layout.0.1": "5H!",
    "layout.0.2": "JH!",
    "layout.1.1": "9C!",
    "layout.1.2": "7S!",
    "pile.L": "4D!",
}


def test_spit_stuck_2_3_automatic_spit_onto_home_piles() -> None:
    # after 5H on 4D nobody can play (JH, 9C, 7S on 5H / KS): both spit at once
    pos = spit_position(
        {**STUCK_BASE, "spit.0": "8C 10D", "spit.1": "2C 8D", "pile.R": "KS!"}, "pile.R"
    )
    game = spit(pos)
    game.act(0, "play 1 L")
    centre = piles(game)
    assert centre["L"] is not None and centre["R"] is not None
    assert centre["L"][:2] == ["10D", "5H"]
    assert centre["R"][:2] == ["8D", "KS"]
    assert [s["spit_cards"] for s in table(game)["seats"]] == [1, 1]
    assert "play 2 L" in legal(game, 0)


def test_spit_stuck_3_spits_repeat_until_someone_can_play() -> None:
    pos = spit_position(
        {**STUCK_BASE, "spit.0": "10D 2C", "spit.1": "8D 3C", "pile.R": "KS!"}, "pile.R"
    )
    game = spit(pos)
    game.act(0, "play 1 L")
    centre = piles(game)
    assert centre["L"] is not None and centre["R"] is not None
    assert centre["L"][:4] == ["10D", "2C", "5H", "4D"]
    assert centre["R"][:3] == ["8D", "3C", "KS"]


def test_spit_stuck_3_both_requests_spit_and_a_play_clears_requests() -> None:
    pos = spit_position(
        {
            "layout.0.1": "5H!",
            "layout.0.2": "JH!",
            "layout.1.1": "9C!",
            "layout.1.2": "3S!",
            "spit.0": "8C 10D",
            "spit.1": "2C 8D",
            "pile.L": "4D!",
            "pile.R": "QS!",
        },
        "pile.R",
    )
    game = spit(pos)
    game.act(0, "spit")
    assert table(game)["seats"][0]["requested"] is True
    game.act(1, "play 2 L")  # 3S on 4D clears seat 0's request
    assert table(game)["seats"][0]["requested"] is False
    game.act(0, "spit")
    game.act(1, "spit")
    centre = piles(game)
    assert centre["L"] is not None and centre["L"][0] == "10D"
    assert centre["R"] is not None and centre["R"][0] == "8D"
    assert [s["requested"] for s in table(game)["seats"]] == [False, False]


def test_spit_move_1_a_seat_that_asked_and_has_no_move_waits() -> None:
    pos = spit_position(
        {
            "layout.0.1": "5H!",
            "layout.0.2": "JH!",
            "layout.0.3": "9D!",
            "layout.0.4": "QH!",
            "layout.0.5": "KH!",
            "layout.1.1": "3S!",
            "layout.1.2": "8S!",
            "spit.0": "8C 10D",
            "spit.1": "2C 8D",
            "pile.L": "4D!",
            "pile.R": "7S!",
        },
        "pile.R",
    )
    game = spit(pos)
    assert legal(game, 0) == ["play 1 L", "spit"]
    game.act(1, "play 1 L")  # 3S on 4D: seat 0 has no play, no combine, no fill left
    assert legal(game, 0) == ["spit"]
    game.act(0, "spit")
    assert game.to_act == (1,)
    game.act(1, "fill 2 1")  # no progress, but seat 1 still has moves
    assert game.to_act == (1,)


def test_spit_stuck_3_stall_limit() -> None:
    pos = spit_position(
        {
            "layout.0.1": "5H!",
            "layout.1.1": "9C!",
            "spit.0": "8C 10D",
            "spit.1": "2C 8D",
            "pile.L": "4D!",
        },
        "pile.R",
    )
    game = spit(pos, stall_limit=3)
    game.act(1, "fill 1 2")
    game.act(1, "fill 2 3")
    assert table(game)["stall"] == 2
    game.act(1, "fill 3 4")  # the third move without progress: an automatic spit
    centre = piles(game)
    assert centre["L"] is not None and centre["L"][0] == "10D"
    assert table(game)["stall"] == 0


def test_spit_stuck_4_only_the_player_with_spit_cards_spits() -> None:
    pos = spit_position({**STUCK_BASE, "spit.1": "8C 2C 10D", "pile.R": "KS!"}, "pile.R")
    game = spit(pos)
    game.act(0, "play 1 L")  # nobody can play: only seat 1 has spit cards
    centre = piles(game)
    assert centre["L"] is not None and centre["L"][:2] == ["5H", "4D"]
    assert centre["R"] is not None and centre["R"][:2] == ["10D", "KS"]
    assert [s["spit_cards"] for s in table(game)["seats"]] == [0, 2]


def test_spit_stuck_5_recycle_when_nobody_has_spit_cards() -> None:
    pos = spit_position({**STUCK_BASE, "pile.L": "10D! 4D!", "pile.R": "KS!"}, "pile.R")
    game = spit(pos)
    before_r = len(piles(game)["R"] or [])
    game.act(0, "play 1 L")
    centre = piles(game)
    # L: 10D 4D 5H -> keeps 5H; 10D, 4D become seat 0's spit cards; one is spat onto L
    assert centre["L"] is not None and len(centre["L"]) == 2 and centre["L"][1] == "5H"
    assert centre["R"] is not None and len(centre["R"]) >= 2 and "KS" in centre["R"]
    seats = table(game)["seats"]
    assert seats[0]["spit_cards"] == 1
    assert seats[1]["spit_cards"] + len(centre["R"]) == before_r
    assert held(game, 0) + held(game, 1) + len(centre["L"]) + len(centre["R"]) == 52


def test_spit_stuck_6_void_deal_after_second_recycle_without_progress() -> None:
    pos = spit_position(
        {
            "layout.0.1": "5H!",
            "layout.0.2": "2S JH!",
            "layout.1.1": "9C!",
            "layout.1.2": "3S!",
            "pile.L": "10D! 4D!",
        },
        "pile.R",
        recycled=True,
    )
    game = spit(pos)
    right = len(piles(game)["R"] or [])
    game.act(0, "spit")
    game.act(1, "spit")  # due, nobody has spit cards, already recycled: the deal is void
    t = table(game)
    assert t["phase"] == "setup"
    assert t["deal"] == 2
    assert piles(game) == {"L": None, "R": None}
    assert held(game, 0) == 3 + 2  # own layout and home pile L
    assert held(game, 1) == 2 + right


def test_spit_stuck_6_void_deal_when_a_recycle_yields_no_cards() -> None:
    # 50 cards in the layouts (10 face down each), one card on each spit pile, no spit cards
    down0 = ["AC", "2C", "3C", "4C", "8C", "5S", "5H", "5D", "6S", "6H"]
    down1 = ["9C", "10C", "JC", "QC", "KC", "6D", "7S", "7H", "7D", "7C"]
    zones = {}
    for seat, ranks, down in ((0, "A 2 3 4 8", down0), (1, "9 10 J Q K", down1)):
        for k, rank in enumerate(ranks.split()):
            under = " ".join(down[:k])
            down = down[k:]
            zones[f"layout.{seat}.{k + 1}"] = f"{under} {rank}S! {rank}H! {rank}D!".strip()
    zones["pile.L"] = "5C!"
    game = spit(spit_position(zones, "pile.R"))
    assert piles(game) == {"L": ["5C"], "R": ["6C"]}
    assert "play 4 L" in legal(game, 0)
    game.act(0, "spit")
    game.act(1, "spit")  # a spit is due, nobody has spit cards, the centre gives none
    t = table(game)
    assert (t["phase"], t["deal"]) == ("setup", 2)
    assert [held(game, 0), held(game, 1)] == [26, 26]


# ------------------------------------------------------------------------------------------
# Spit: end of a deal and of the game
# ------------------------------------------------------------------------------------------


END_BASE = {
    "layout.0.1": "5H!",
    "layout.1.1": "9C!",
    "layout.1.2": "8S 7C!",
    "spit.0": "2C 3C",
    "spit.1": "AC 2D",
    "pile.L": "4D!",
}


def test_spit_end_1_2_first_slap_takes_pile_second_is_stale() -> None:
    game = spit(spit_position(END_BASE, "pile.R"))
    right = len(piles(game)["R"] or [])
    game.act(0, "play 1 L")
    assert table(game)["phase"] == "claim"
    # nobody can play on 5H / R, but the deal is over: no automatic spit (SPIT-END-1)
    assert (piles(game)["L"] or [])[0] == "5H"
    assert [s["spit_cards"] for s in table(game)["seats"]] == [2, 2]
    assert legal(game, 0) == ["slap L", "slap R"]
    assert legal(game, 1) == ["slap L", "slap R"]
    with pytest.raises(IllegalActionError, match=r"\(SPIT-END-1\)"):
        game.act(1, "play 1 L")
    v = game.version
    game.act(1, "slap L", seen=v)
    with pytest.raises(StaleActionError):
        game.act(0, "slap R", seen=v)
    # SPIT-END-4: seat 1 takes L (2 cards) + its layout (3) + spit (2); seat 0 R + spit (2)
    assert held(game, 1) == 2 + 3 + 2
    assert held(game, 0) == right + 2
    assert table(game)["deal"] == 2 and table(game)["phase"] == "setup"


def test_spit_end_3_chooser_emptier_alone_chooses() -> None:
    game = spit(spit_position(END_BASE, "pile.R"), rules=("spit.chooser",))
    game.act(0, "play 1 L")
    assert legal(game, 0) == ["choose L", "choose R"]
    assert legal(game, 1) == []
    with pytest.raises(IllegalActionError, match=r"\(SPIT-END-3\)"):
        game.act(1, "choose L")
    game.act(0, "choose L")
    assert held(game, 0) == 2 + 2


def test_spit_end_5_6_single_pile_first_emptier_takes_nothing() -> None:
    # seat 1 has the spit cards (single=1, pile R); seat 1 empties first
    pos = spit_position(
        {
            "layout.0.1": "5H!",
            "layout.0.2": "9D!",
            "layout.1.1": "3D!",
            "pile.R": "4D!",
        },
        "spit.1",
        single=1,
    )
    game = spit(pos)
    assert table(game)["mode"] == "single-pile"
    assert piles(game)["L"] is None
    spit1 = table(game)["seats"][1]["spit_cards"]
    with pytest.raises(IllegalActionError, match=r"\(SPIT-START-2\)"):
        game.act(0, "play 1 L")
    game.act(1, "play 1 R")  # SPIT-WIN-2: the game goes on
    assert not game.is_over
    assert held(game, 1) == spit1  # nothing from the centre, keeps its spit cards
    assert held(game, 0) == 2 + 2  # its layout and the spit pile (4D, 3D)
    assert table(game)["deal"] == 2


@pytest.mark.parametrize(
    ("taken", "mode", "spit_cards"), [(15, "single-pile", 0), (16, "two-pile", 1)]
)
def test_spit_end_5_fifteen_cards_or_fewer_means_one_pile(
    taken: int, mode: str, spit_cards: int
) -> None:
    under = [c for c in DECK if c[-1] in "CD" and c != "4D"][: taken - 2]  # under the 4D
    pos = spit_position(
        {
            "layout.0.1": "5H!",
            "layout.1.1": "9H!",
            "layout.1.2": "8S 7H!",
            "pile.L": " ".join(c + "!" for c in under) + " 4D!",
        },
        "pile.R",
    )
    game = spit(pos)
    game.act(0, "play 1 L")
    game.act(0, "slap L")
    t = table(game)
    assert held(game, 0) == taken
    assert t["mode"] == mode
    assert t["seats"][0]["spit_cards"] == spit_cards
    game.act(0, "ready")
    game.act(1, "ready")
    centre = piles(game)
    assert (centre["L"] is None) == (mode == "single-pile")
    assert centre["R"] is not None


def test_spit_win_1_player_without_spit_cards_empties_first_and_wins() -> None:
    pos = spit_position(
        {"layout.0.1": "5H!", "layout.1.1": "9C!", "pile.R": "4D!"}, "spit.1", single=1
    )
    game = spit(pos)
    game.act(0, "play 1 R")
    assert game.is_over
    assert game.result is not None
    assert game.result.winners == (0,)
    assert game.result.reason == "out of cards"
    assert legal(game, 1) == []


def test_spit_win_3_two_pile_deal_never_ends_the_game() -> None:
    game = spit(spit_position({**END_BASE, "spit.0": ""}, "pile.R"))
    game.act(0, "play 1 L")
    game.act(1, "slap R")  # seat 0 had no spit cards and gets only L: 2 cards
    assert not game.is_over
    assert held(game, 0) == 2


def test_spit_stuck_3_repeated_spits_at_the_start_of_a_deal() -> None:
    # received cards 1, 6, 10, 13, 15 are the tops; 16, 17, 18 the first spit cards
    seat0 = words("2H 9S 10S JS 8D 3H 10D JD KD 4H AS QS 5H KS 6H QC 9C 7C")
    seat1 = words("2S AH 8H 9H 10H 3S JH QH KH 4S AC JC 5S 10C 6S QD 9D 7D")
    rest = _rest(seat0 + seat1, DECK)
    seat0 += rest[:8]
    seat1 += rest[8:]
    game = cardcore.new_game("spit", 2, deck=interleave(seat0, seat1), seed=1)
    assert [p[0] for p in layout(game, 0)] == ["2H", "3H", "4H", "5H", "6H"]
    assert [p[0] for p in layout(game, 1)] == ["2S", "3S", "4S", "5S", "6S"]
    game.act(0, "ready")
    game.act(1, "ready")
    # QC/QD and 9C/9D fit no top (2-6): the spit repeats until 7C/7D
    assert piles(game) == {"L": ["7C", "9C", "QC"], "R": ["7D", "9D", "QD"]}
    assert "play 5 L" in legal(game, 0)


def test_spit_move_12_same_rank_counts_for_the_stuck_check() -> None:
    zones = {
        **STUCK_BASE,
        "layout.1.2": "KC!",
        "spit.0": "8C 10D",
        "spit.1": "2C 8D",
        "pile.R": "KS!",
    }
    base = spit(spit_position(zones, "pile.R"))
    base.act(0, "play 1 L")  # only KC on KS would fit, and equal ranks do not: a spit
    assert (piles(base)["L"] or [])[0] == "10D"
    house = spit(spit_position(zones, "pile.R"), rules=("spit.same-rank",))
    house.act(0, "play 1 L")  # KC on KS is a play under the house rule: no spit
    assert (piles(house)["L"] or [])[0] == "5H"
    assert "play 2 R" in legal(house, 1)


def test_spit_setup_5_canfield_with_fewer_than_fifteen_cards() -> None:
    pos = spit_position(
        {
            "layout.0.1": "5H!",
            "layout.1.1": "9C!",
            "layout.1.2": "7C!",
            "spit.1": "2C 3C",
            "pile.L": "AC! 2D! 3D! 4C! 5C! 4D!",
        },
        "pile.R",
    )
    game = spit(pos, rules=("spit.canfield",))
    game.act(0, "play 1 L")
    game.act(0, "slap L")
    assert [len(p) for p in layout(game, 0)] == [1, 1, 1, 1, 3]
    assert layout(game, 0, 1)[4][1:] == [None, None]


def test_spit_win_4_spit_card_holder_out_of_all_cards_wins() -> None:
    pos = spit_position(
        {"layout.0.1": "5H!", "layout.0.2": "9H!", "layout.1.1": "3D!", "pile.R": "4D!"},
        "pile.R",
        single=1,
    )
    game = spit(pos)
    game.act(1, "play 1 R")  # seat 1 spat every spit card away and empties its layout
    assert game.is_over
    assert game.result is not None and game.result.winners == (1,)


# ------------------------------------------------------------------------------------------
# Spit: views and real time
# ------------------------------------------------------------------------------------------


def test_spit_view_1_hidden_cards_never_shown() -> None:
    game = cardcore.new_game("spit", 2, seed=21)
    game.act(0, "ready")
    game.act(1, "ready")
    pos = game.position()
    for viewer in (0, 1, None):
        shown = shown_cards(game.view(viewer))
        assert not shown & hidden_in(pos, viewer), viewer
        assert len(shown) == 10 + 2  # ten layout tops and two spit-pile cards


def test_spit_rt_1_stale_and_illegal_change_nothing() -> None:
    pos = spit_position(
        {
            "layout.0.1": "5H!",
            "layout.0.2": "JH!",
            "layout.1.1": "3S!",
            "layout.1.2": "QC!",
            "spit.0": "8C 10D",
            "spit.1": "2C 8D",
            "pile.L": "4D!",
        },
        "pile.R",
    )
    game = spit(pos)
    seen = game.version
    game.act(1, "play 1 L", seen=seen)  # 3S on 4D
    before = (game.version, game.position())
    with pytest.raises(StaleActionError):
        game.act(0, "play 1 L", seen=seen)  # 5H was legal on 4D, not on 3S
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-2\)") as err:
        game.act(0, "play 2 L", seen=seen)  # JH on 4D never was
    assert type(err.value) is IllegalActionError
    assert (game.version, game.position()) == before
    replayed = cardcore.replay(game.record())
    assert replayed.position() == game.position()


def test_spit_rt_1_without_seen_an_action_is_judged_against_now() -> None:
    """The decision let ``seen`` default to the seat's last view; the engine keeps reads
    pure instead (CORE-RT-3): a host passes the version it showed to get ``stale``."""
    pos = spit_position(
        {
            "layout.0.1": "5H!",
            "layout.0.2": "JH!",
            "layout.1.1": "3S!",
            "layout.1.2": "QC!",
            "spit.0": "8C 10D",
            "spit.1": "2C 8D",
            "pile.L": "4D!",
        },
        "pile.R",
    )
    game = spit(pos)
    shown = game.view(0)
    assert "play 1 L" in shown["legal"]  # seat 0 looks: 5H fits 4D
    game.act(1, "play 1 L")  # 3S on 4D first
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-2\)") as info:
        game.act(0, "play 1 L")  # no seen: judged against now, plainly illegal
    assert not isinstance(info.value, StaleActionError)
    with pytest.raises(StaleActionError):
        game.act(0, "play 1 L", seen=shown["version"])  # the version shown: stale


# ------------------------------------------------------------------------------------------
# Speed
# ------------------------------------------------------------------------------------------


def speed_deck(
    left: str,
    right: str,
    side0: list[str],
    side1: list[str],
    seat0: list[str],
    seat1: list[str],
    jokers: bool = False,
) -> str:
    """A top-first Speed deck: play piles, side piles, then the players' cards alternately."""
    used = [left, right, *side0, *side1, *seat0, *seat1]
    rest = _rest(used, DECK_JK if jokers else DECK)
    n = len(rest) // 2
    a = seat0 + rest[:n][: 20 + int(jokers) - len(seat0)]
    b = seat1 + rest[n:][: 20 + int(jokers) - len(seat1)]
    extra = [c for c in rest if c not in a and c not in b]
    assert not extra, extra
    return " ".join([left, right, *side0, *side1, interleave(a, b)])


def test_speed_gen_1_two_players_jokers_option() -> None:
    with pytest.raises(OptionError, match=r"\(CORE-SEAT-2\)"):
        cardcore.new_game("speed", 3)
    plain = cardcore.new_game("speed", 2, seed=2)
    assert "JK" not in plain.position()
    wild = cardcore.new_game("speed", 2, seed=2, options={"jokers": 2})
    assert wild.position().count("JK") == 2


@pytest.mark.parametrize(
    ("side_pile", "jokers", "stock", "side"),
    [(5, 0, 15, 5), (15, 0, 5, 15), (5, 2, 16, 5), (15, 2, 6, 15)],
)
def test_speed_setup_2_3_pile_sizes(side_pile: int, jokers: int, stock: int, side: int) -> None:
    game = cardcore.new_game("speed", 2, seed=8, options={"side_pile": side_pile, "jokers": jokers})
    t = table(game, 0)
    total = 0
    for s in (0, 1):
        assert len(t["seats"][s]["hand"]) == 5
        assert t["seats"][s]["stock"] == stock
        total += 5 + stock + t["seats"][s]["side"]
    centre = sum(len(p) for p in t["piles"].values())
    assert total + centre == 52 + jokers
    # side cards may have turned (SPEED-STUCK-1) but never more than side_pile per seat
    assert all(t["seats"][s]["side"] <= side for s in (0, 1))


def test_speed_setup_3_deal_order_of_a_stacked_deck() -> None:
    deck = speed_deck(
        "7D",
        "JD",
        ["2C", "3C", "4C", "5C", "6C"],
        ["2S", "3S", "4S", "5S", "6S"],
        ["8H", "KH", "AH", "2H", "3H"],
        ["QS", "9D", "AD", "2D", "3D"],
    )
    game = cardcore.new_game("speed", 2, deck=deck, seed=1)
    assert piles(game) == {"L": ["7D"], "R": ["JD"]}
    assert sorted(table(game, 0)["seats"][0]["hand"]) == sorted(["8H", "KH", "AH", "2H", "3H"])
    assert sorted(table(game, 1)["seats"][1]["hand"]) == sorted(["QS", "9D", "AD", "2D", "3D"])


def test_speed_play_1_2_adjacent_plays_and_refill() -> None:
    deck = speed_deck(
        "7D",
        "KD",
        ["2C", "3C", "4C", "5C", "6C"],
        ["2S", "3S", "4S", "5S", "6S"],
        ["8H", "AH", "10H", "JH", "QH"],
        ["QS", "9D", "10D", "JD", "10C"],
    )
    game = cardcore.new_game("speed", 2, deck=deck, seed=1)
    assert legal(game, 0) == ["play 8H L", "play AH R", "play QH R", "stuck"]
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-2\)"):
        game.act(0, "play 10H L")
    game.act(0, "play AH R")  # A on K wraps
    hand = table(game, 0)["seats"][0]["hand"]
    assert len(hand) == 5 and "AH" not in hand
    assert table(game)["seats"][0]["stock"] == 14
    assert table(game, 1)["seats"][0]["hand"] == [None] * 5


def test_speed_play_3_jokers_wild() -> None:
    pos = speed_position(
        {
            "hand.0": "JK@0 2H@0 9C@0 9H@0 9S@0",
            "hand.1": "JK@1 5H@1 5C@1 5S@1 5D@1",
            "side.0": "8C",
            "side.1": "8D",
            "pile.L": "QD!",
            "pile.R": "QH!",
        },
        "stock.0,stock.1,pile.L",
        jokers=True,
    )
    game = speed(pos, jokers=2)
    assert legal(game, 0) == ["play JK L", "play JK R", "stuck"]
    game.act(0, "play JK L")  # a joker on a queen
    assert "play 5H L" in legal(game, 1)  # any card on a joker
    game.act(1, "play 5H L")
    assert (piles(game)["L"] or [])[:3] == ["5H", "JK", "QD"]


def test_speed_stuck_1_side_cards_turn_at_the_deal() -> None:
    # nobody holds a 6, 8, 3 or 5 for the first piles 7D and 4S: the side cards turn at once
    deck = speed_deck(
        "7D",
        "4S",
        ["10C", "2C", "JC", "QC", "KC"],
        ["9S", "2S", "JS", "QS", "KS"],
        ["AH", "10H", "JH", "QH", "KH"],
        ["AD", "10D", "JD", "QD", "KD"],
    )
    game = cardcore.new_game("speed", 2, deck=deck, seed=1)
    assert piles(game) == {"L": ["10C", "7D"], "R": ["9S", "4S"]}
    assert [s["side"] for s in table(game)["seats"]] == [4, 4]
    assert "play JH L" in legal(game, 0)


def test_speed_stuck_1_side_cards_turn_repeatedly() -> None:
    deck = speed_deck(
        "7D",
        "4S",
        ["2C", "10C", "JC", "QC", "KC"],
        ["2S", "9S", "JS", "QS", "KS"],
        ["AH", "10H", "JH", "QH", "KH"],
        ["AD", "10D", "JD", "QD", "KD"],
    )
    game = cardcore.new_game("speed", 2, deck=deck, seed=1)
    # 2C / 2S: A fits them -> someone can play after the first turn
    assert piles(game) == {"L": ["2C", "7D"], "R": ["2S", "4S"]}
    # the first turn (7C, 4C) and the second (7H, 4H) fit no hand (A 2 9 10 K); QC, QS do
    deck = speed_deck(
        "7D",
        "4S",
        ["7C", "7H", "QC", "JC", "KC"],
        ["4C", "4H", "QS", "JS", "KS"],
        ["AH", "2H", "9H", "10H", "KH"],
        ["AD", "2D", "9D", "10D", "KD"],
    )
    game = cardcore.new_game("speed", 2, deck=deck, seed=1)
    assert piles(game) == {"L": ["QC", "7H", "7C", "7D"], "R": ["QS", "4H", "4C", "4S"]}
    assert [s["side"] for s in table(game)["seats"]] == [2, 2]
    assert "play KH L" in legal(game, 0)


def test_speed_stuck_1_side_cards_turn_after_a_play_repeatedly() -> None:
    pos = speed_position(
        {
            "hand.0": "8H@0 AH@0 KH@0 QH@0 JH@0",
            "hand.1": "AD@1 KD@1 QD@1 JD@1 AC@1",
            "stock.0": "KS",
            "side.0": "2C 3C 4C 5C 9C",
            "side.1": "2S 3S 4S 5S 6S",
            "pile.L": "7D!",
            "pile.R": "4D!",
        },
        "stock.0,stock.1,pile.R",
    )
    game = speed(pos)
    assert legal(game, 0) == ["play 8H L", "stuck"]
    game.act(0, "play 8H L")  # the refill is KS: nobody can play on 8H / 4D
    # 9C/6S, 5C/5S, 4C/4S, 3C/3S fit nothing; 2C/2S take the aces
    assert piles(game)["L"] == ["2C", "3C", "4C", "5C", "9C", "8H", "7D"]
    assert (piles(game)["R"] or [])[:6] == ["2S", "3S", "4S", "5S", "6S", "4D"]
    assert "KS" in table(game, 0)["seats"][0]["hand"]
    assert "play AH L" in legal(game, 0) and "play AC R" in legal(game, 1)


def test_speed_stuck_4_house_rule_turns_only_on_both_requests() -> None:
    deck = speed_deck(
        "7D",
        "4S",
        ["10C", "2C", "JC", "QC", "KC"],
        ["9S", "2S", "JS", "QS", "KS"],
        ["AH", "10H", "JH", "QH", "KH"],
        ["AD", "10D", "JD", "QD", "KD"],
    )
    game = cardcore.new_game("speed", 2, deck=deck, seed=1, rules=["speed.stuck-on-request"])
    assert piles(game) == {"L": ["7D"], "R": ["4S"]}
    assert game.to_act == (0, 1)
    assert legal(game, 0) == ["stuck"]
    game.act(0, "stuck")
    assert piles(game) == {"L": ["7D"], "R": ["4S"]}
    assert legal(game, 0) == []
    assert game.to_act == (0, 1)  # nothing tells seat 1 that seat 0 holds no play
    game.act(1, "stuck")
    assert piles(game) == {"L": ["10C", "7D"], "R": ["9S", "4S"]}
    assert [s["requested"] for s in table(game)["seats"]] == [False, False]


def test_speed_stuck_1_a_play_clears_the_declarations() -> None:
    pos = speed_position(
        {
            "hand.0": "8H@0 AH@0 KH@0 QH@0 JH@0",
            "hand.1": "AD@1 KD@1 QD@1 JD@1 3C@1",
            "side.0": "2C 6C 4C 5C 9C",
            "side.1": "2S 3S 4S 5S 6S",
            "pile.L": "7D!",
            "pile.R": "4D!",
        },
        "stock.0,stock.1,pile.R",
    )
    for rules in ((), ("speed.stuck-on-request",)):
        game = speed(pos, rules=rules)
        game.act(0, "stuck")
        assert [s["requested"] for s in table(game)["seats"]] == [True, False]
        game.act(1, "play 3C R")
        assert [s["requested"] for s in table(game)["seats"]] == [False, False]
        assert (piles(game)["L"] or [])[0] == "7D"  # no side card turned: seat 0 can play 8H


def test_speed_stuck_3_only_the_seat_with_side_cards_turns() -> None:
    deck = speed_deck(
        "7D",
        "4S",
        ["10C", "2C", "JC", "QC", "KC"],
        ["9S", "2S", "JS", "QS", "KS"],
        ["AH", "10H", "JH", "QH", "KH"],
        ["AD", "10D", "JD", "QD", "KD"],
    )
    game = cardcore.new_game("speed", 2, deck=deck, seed=1, rules=["speed.stuck-on-request"])
    pos = game.position()
    # empty seat 1's side pile into its play pile (under the top), so only seat 0 can turn
    parts = pos.split(" | ")
    i_side = next(i for i, p in enumerate(parts) if p.startswith("side.1:"))
    i_pile = next(i for i, p in enumerate(parts) if p.startswith("pile.R:"))
    side1 = parts[i_side].split(": ", 1)[1].split()
    parts[i_side] = "side.1:"
    parts[i_pile] = "pile.R: " + " ".join(c + "!" for c in side1) + " 4S!"
    game = speed(" | ".join(parts), rules=("speed.stuck-on-request",))
    game.act(0, "stuck")
    game.act(1, "stuck")
    t = table(game)
    assert t["piles"]["L"][:2] == ["10C", "7D"]
    assert t["piles"]["R"][0] == "4S"
    assert [s["side"] for s in t["seats"]] == [4, 0]


def test_speed_stuck_2_recycle_when_side_piles_are_empty() -> None:
    deck = speed_deck(
        "7D",
        "4S",
        ["10C", "2C", "JC", "QC", "KC"],
        ["9S", "2S", "JS", "QS", "KS"],
        ["AH", "10H", "JH", "QH", "KH"],
        ["AD", "10D", "JD", "QD", "KD"],
    )
    game = cardcore.new_game("speed", 2, deck=deck, seed=1, rules=["speed.stuck-on-request"])
    for _ in range(5):
        game.act(0, "stuck")
        game.act(1, "stuck")
    t = table(game)
    assert [s["side"] for s in t["seats"]] == [0, 0]
    assert [len(p) for p in t["piles"].values()] == [6, 6]
    game.act(0, "stuck")
    game.act(1, "stuck")  # recycle: each pile but its top becomes its side pile, then turn
    t = table(game)
    assert [len(p) for p in t["piles"].values()] == [2, 2]
    assert t["piles"]["L"][1] == "KC" and t["piles"]["R"][1] == "KS"
    assert [s["side"] for s in t["seats"]] == [4, 4]


def test_speed_stuck_2_automatic_recycle_when_side_piles_are_out() -> None:
    pos = speed_position(
        {
            "hand.0": "8H@0 AH@0 KH@0 QH@0 JH@0",
            "hand.1": "AD@1 KD@1 QD@1 JD@1 AC@1",
            "stock.0": "KS",
            "pile.L": "2C! 3C! 4C! 5C! 9C! 7D!",
            "pile.R": "4D!",
        },
        "stock.0,stock.1,pile.R",
    )
    game = speed(pos)
    assert [s["side"] for s in table(game)["seats"]] == [0, 0]
    right = len(piles(game)["R"] or [])
    game.act(0, "play 8H L")  # nobody can play on 8H / 4D and no side card is left
    t = table(game)
    left_pile, right_pile = t["piles"]["L"], t["piles"]["R"]
    # each pile but its top (8H, 4D) became its owner's side pile, then the side cards turned
    assert left_pile[-1] == "8H" and right_pile[-1] == "4D"
    assert t["seats"][0]["side"] + len(left_pile) == 7
    assert t["seats"][1]["side"] + len(right_pile) == right
    assert len(left_pile) >= 2 and len(right_pile) >= 2
    assert any(a.startswith("play") for a in legal(game, 0) + legal(game, 1))
    for viewer in (0, 1, None):
        zones = {z["name"]: z["cards"] for z in game.view(viewer)["zones"]}
        assert set(zones["side.0"] + zones["side.1"]) <= {None}


def test_speed_end_2_stalemate_fewer_cards_wins() -> None:
    deck = speed_deck(
        "7D",
        "4S",
        ["10C", "2C", "JC", "QC", "KC"],
        ["9S", "2S", "JS", "QS", "KS"],
        ["AH", "10H", "JH", "QH", "KH"],
        ["AD", "10D", "JD", "QD", "KD"],
    )
    game = cardcore.new_game("speed", 2, deck=deck, seed=1, rules=["speed.stuck-on-request"])
    for _ in range(10):  # five turns, then a recycle with a turn and four turns
        game.act(0, "stuck")
        game.act(1, "stuck")
    assert not game.is_over
    game.act(0, "stuck")
    game.act(1, "stuck")  # a second recycle with no card played since the first
    assert game.is_over
    assert game.result is not None
    assert game.result.reason == "stalemate"
    assert game.result.winners == (0, 1)  # 20 cards each: a draw


def test_speed_end_2_stalemate_the_seat_holding_fewer_cards_wins() -> None:
    deck = speed_deck(
        "7D",
        "4S",
        ["10C", "2C", "JC", "QC", "KC"],
        ["9S", "2S", "JS", "QS", "KS"],
        ["AH", "10H", "JH", "QH", "KH"],
        ["AD", "10D", "JD", "QD", "KD"],
    )
    game = cardcore.new_game("speed", 2, deck=deck, seed=1, rules=["speed.stuck-on-request"])
    game.act(0, "stuck")
    game.act(1, "stuck")
    game.act(0, "play JH L")  # on 10C: seat 0 holds 19 cards
    for _ in range(40):
        if game.is_over:
            break
        game.act(0, "stuck")
        if not game.is_over:
            game.act(1, "stuck")
    assert game.result is not None
    assert game.result.reason == "stalemate"
    assert game.result.winners == (0,)
    assert game.result.scores == (19.0, 20.0)


def test_spit_rt_2_virtual_clock_is_deterministic() -> None:
    from cardcore_spit.agents import SpitGreedyAgent, SpitHumanAgent

    records = []
    for _ in range(2):
        game = cardcore.new_game("speed", 2, seed=12)
        cardcore.run_realtime(game, [SpitGreedyAgent(seed=3), SpitHumanAgent(seed=4)], seed=9)
        records.append(game.record()["actions"])
    assert records[0] == records[1]
    assert len(records[0]) > 10
    times = [at for _, _, at in records[0]]
    assert times == sorted(times)


def test_speed_end_2_stalemate_can_come_at_the_deal() -> None:
    # hands of aces, twos and threes; every card that reaches a play pile is a 5 to a Q
    deck = speed_deck(
        "5C",
        "6C",
        ["7C", "8C", "9C", "10C", "JC"],
        ["QC", "5D", "6D", "7D", "8D"],
        ["AH", "2H", "3H", "AS", "2S"],
        ["3S", "AD", "2D", "3D", "AC"],
    )
    game = cardcore.new_game("speed", 2, deck=deck, seed=1)
    # five turns, a recycle, five turns, and a second recycle with no card played: the end
    assert game.is_over
    assert game.result is not None
    assert (game.result.reason, game.result.winners) == ("stalemate", (0, 1))
    assert game.legal_actions(0) == () and game.record()["actions"] == []
    with pytest.raises(OptionError, match=r"\(SPEED-SETUP-2\)"):
        cardcore.new_game("speed", 2, options={"side_pile": 10})


def test_speed_end_1_empty_hand_and_stock_wins() -> None:
    pos = speed_position(
        {
            "hand.0": "8H@0",
            "hand.1": "AD@1 KD@1 QD@1 JD@1 AC@1",
            "side.0": "2C 3C 4C 5C 9C",
            "side.1": "2S 3S 4S 5S 6S",
            "pile.L": "7D!",
        },
        "stock.1,pile.R",
    )
    game = speed(pos)
    game.act(0, "play 8H L")
    assert game.is_over
    assert game.result is not None
    assert game.result.winners == (0,)


def test_speed_view_1_hands_stocks_sides_hidden() -> None:
    game = cardcore.new_game("speed", 2, seed=30, options={"jokers": 2})
    pos = game.position()
    for viewer in (0, 1, None):
        shown = shown_cards(game.view(viewer))
        hidden = hidden_in(pos, viewer)
        assert not shown & hidden
        if viewer is not None:
            own = {c for c in table(game, viewer)["seats"][viewer]["hand"]}
            assert len(own) >= 4  # two jokers may look alike
    assert json.dumps(game.view(None)["table"]["seats"][0]["hand"]) == json.dumps([None] * 5)
