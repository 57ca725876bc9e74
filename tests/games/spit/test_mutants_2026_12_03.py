"""Mutation audit of Spit and Speed (2026-12-03): tests that kill mutants the rule tests let live.

Each test is named after the rule ID it guards (seeds/spit.md) and checks the rule's outcome
through the public API: new games from decks or positions, ``act``, ``view`` and ``result``.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.games.spit.helpers import SEAT0, SEAT1, arrange, eights_game, interleave, speed_arrange

import cardcore
from cardcore import IllegalActionError, OptionError


def spit(seed: int = 1, **options: int) -> cardcore.Game:
    return cardcore.new_game("spit", 2, seed=seed, options=options or None)


def speed(seed: int = 1, **options: int) -> cardcore.Game:
    return cardcore.new_game("speed", 2, seed=seed, options=options or None)


def table(game: cardcore.Game, seat: int | None = None) -> dict[str, Any]:
    """The game's part of *seat*'s view (``None``: a spectator)."""
    view: dict[str, Any] = game.view(seat)["table"]
    return view


def piles(game: cardcore.Game) -> dict[str, Any]:
    """The spit (or play) piles by letter, top card first (``None``: not in use)."""
    out: dict[str, Any] = game.view(None)["table"]["piles"]
    return out


def layout(game: cardcore.Game, seat: int, viewer: int | None = None) -> list[list[str | None]]:
    """*seat*'s five layout piles, top card first, as *viewer* sees them."""
    out: list[list[str | None]] = game.view(viewer)["table"]["seats"][seat]["layout"]
    return out


def legal(game: cardcore.Game, seat: int) -> set[str]:
    return {str(a) for a in game.legal_actions(seat)}


# -- Spit: moves -------------------------------------------------------------------------------


def test_spit_move_1_a_seat_that_asked_for_a_spit_but_can_move_still_acts() -> None:
    game = arrange(
        spit(),
        ["6S", "9C", "KD", "2C", "5H"],
        ["QC", "QD", "QH", "QS", "JC"],
        spit0="2H",
        spit1="3H",
        left="5D",
        right="10H",
        rest="left",
    )
    game.act(0, "spit")  # seat 0 still has 6S on 5D: it keeps its place in to_act
    assert game.to_act == (0, 1)
    assert "play 1 L" in legal(game, 0)
    game.act(0, "play 1 L")
    assert piles(game)["L"][0] == "6S"


def test_spit_move_2_only_the_top_card_of_a_spit_pile_counts() -> None:
    # pile L holds 6D under JH: 5H and 7S fit the buried 6D only, 10C fits the top JH
    game = arrange(
        spit(),
        ["5H", "10C", "KD", "2C", "7S"],
        ["QC", "QD", "QH", "QS", "8C"],
        spit0="2H",
        spit1="3H",
        left="6D JH",
        right="3D",
        rest="right",
    )
    mine = legal(game, 0)
    assert "play 2 L" in mine
    assert "play 1 L" not in mine and "play 5 L" not in mine
    with pytest.raises(IllegalActionError, match="SPIT-MOVE-2"):
        game.act(0, "play 1 L")
    with pytest.raises(IllegalActionError, match="SPIT-MOVE-2"):
        game.act(0, "play 5 L")
    game.act(0, "play 2 L")
    assert piles(game)["L"][:2] == ["10C", "JH"]


def test_spit_move_5_combine_matches_the_face_up_tops_only() -> None:
    # pile 2 shows 5H over a face-down 7C: 5S may go on it, 7S may not
    game = arrange(
        spit(),
        ["5S", "7C 5H", "KD", "2C", "7S"],
        ["QC", "QD", "QH", "QS", "8C"],
        spit0="2H",
        spit1="3H",
        left="8S",
        right="3D",
        rest="right",
    )
    mine = legal(game, 0)
    assert "combine 1 2" in mine and "combine 5 2" not in mine
    with pytest.raises(IllegalActionError, match="SPIT-MOVE-5"):
        game.act(0, "combine 5 2")
    game.act(0, "combine 1 2")
    assert layout(game, 0, 1)[1] == ["5S", "5H", None]


def test_spit_move_7_combine_and_fill_turn_up_what_they_uncover() -> None:
    game = arrange(
        spit(),
        ["5H", "9D 5S", "JC 3H KD", "", "7S"],
        ["QC", "QD", "QH", "QS", "8C"],
        spit0="2H",
        spit1="4H",
        left="8S",
        right="3D",
        rest="right",
    )
    assert layout(game, 0, 1)[1] == ["5S", None] and layout(game, 0, 1)[2] == ["KD", None, None]
    game.act(0, "combine 2 1")  # uncovers 9D
    assert layout(game, 0, 1)[1] == ["9D"]
    assert layout(game, 0, 0)[1] == ["9D"]
    game.act(0, "fill 3 4")  # uncovers 3H
    assert layout(game, 0, 1)[2] == ["3H", None]
    assert layout(game, 0, 1)[3] == ["KD"]


# -- Spit: getting stuck ---------------------------------------------------------------------


def test_spit_stuck_2_single_pile_spits_go_onto_the_only_pile() -> None:
    game = arrange(
        spit(),
        ["6S", "8S", "", "", ""],
        ["QC", "", "", "", ""],
        spit1="4C KD",
        right="JD",
        rest="right",
        single=1,
    )
    game.act(0, "spit")
    game.act(1, "spit")  # only seat 1 has spit cards: its KD goes onto R, the only pile
    shown = piles(game)
    assert shown["L"] is None
    assert shown["R"] is not None and shown["R"][:2] == ["KD", "JD"]
    assert table(game)["seats"][1]["spit_cards"] == 1


def test_spit_stuck_3_an_uncovering_move_counts_as_progress() -> None:
    # after 9C on 10H nobody can play, but seat 0 can combine a 4 and uncover the JD below
    game = arrange(
        spit(),
        ["4S", "9C", "JD 4D", "4C", "4H"],
        ["7C", "7D", "7H", "7S", "6C"],
        spit0="2H 3D",
        spit1="2C 2S",
        left="KS",
        right="10H",
        rest="left",
    )
    game.act(0, "play 2 R")
    assert piles(game)["L"][0] == "KS" and piles(game)["R"][0] == "9C"  # no spit
    assert [s["spit_cards"] for s in table(game)["seats"]] == [2, 2]
    game.act(0, "combine 3 1")  # JD turns up; now nobody can progress: both spit at once
    assert layout(game, 0)[2] == ["JD"]
    assert piles(game)["L"][:2] == ["3D", "KS"] and piles(game)["R"][:2] == ["2S", "9C"]


def test_spit_stuck_3_an_uncovering_move_resets_the_stall_count() -> None:
    game = arrange(
        spit(stall_limit=3),
        ["+5S", "+5H", "9C", "JD", "5C KH"],
        ["7C", "7D", "7H", "7S", "6C"],
        spit0="2H 10D",
        spit1="2C 2S",
        left="8S",
        right="10H",
        rest="left",
    )
    game.act(0, "combine 1 2")
    assert table(game)["stall"] == 1
    game.act(0, "fill 5 1")  # uncovers 5C: progress
    assert table(game)["stall"] == 0
    game.act(0, "combine 5 2")
    game.act(0, "fill 1 5")
    assert table(game)["stall"] == 2
    assert piles(game)["L"][0] == "8S" and piles(game)["R"][0] == "10H"  # nobody spat


def test_spit_stuck_3_a_spit_request_counts_towards_the_stall_limit() -> None:
    game = arrange(
        spit(stall_limit=2),
        ["+5S", "+5H", "9C", "JD", "KH"],
        ["7C", "7D", "7H", "7S", "6C"],
        spit0="2H 10D",
        spit1="2C 2S",
        left="8S",
        right="10H",
        rest="left",
    )
    game.act(0, "combine 1 2")
    assert table(game)["stall"] == 1
    game.act(0, "spit")  # a second action in a row without progress: the limit
    assert piles(game)["L"][:2] == ["10D", "8S"] and piles(game)["R"][:2] == ["2S", "10H"]
    assert table(game)["stall"] == 0


def test_spit_stuck_5_a_spit_pile_of_two_cards_is_recycled_too() -> None:
    game = arrange(
        spit(),
        ["6S", "9C", "KD", "2C", "5H"],
        ["QC", "QD", "QH", "QS", "JC"],
        left="3D 5D",
        right="10H",
        rest="right",
    )
    game.act(0, "spit")
    game.act(1, "spit")
    # pile L kept its top 5D; the 3D beneath became seat 0's spit card, which it spat
    assert piles(game)["L"] == ["3D", "5D"]
    assert table(game)["seats"][0]["spit_cards"] == 0


def test_spit_stuck_6_a_play_after_a_recycle_allows_the_next_recycle() -> None:
    game = arrange(
        spit(),
        ["6S", "9C", "KD", "2C", "5H"],
        ["QC", "QD", "QH", "QS", "JC"],
        left="3D 5D",
        right="10H",
        rest="right",
    )
    text = game.position()
    assert "recycled=false" in text
    # the same table just after a recycle (no spit cards: both were spat), no play since
    game = cardcore.new_game(
        "spit", 2, seed=1, position=text.replace("recycled=false", "recycled=true")
    )
    game.act(0, "play 1 L")  # 6S on 5D: a layout card reached a spit pile
    game.act(0, "spit")
    game.act(1, "spit")  # a recycle is due again, and is allowed: not a void deal
    assert table(game)["deal"] == 1 and table(game)["phase"] == "play"
    left = piles(game)["L"]
    assert left is not None and len(left) == 2 and left[1] == "6S" and left[0] in ("3D", "5D")


# -- Spit: deal start, end, game end ------------------------------------------------------------


def test_spit_start_1_both_turn_a_spit_card_even_with_a_move_open() -> None:
    game = eights_game()  # seat 0 shows three 8s: combines that uncover cards are open
    game.act(0, "ready")
    game.act(1, "ready")
    assert table(game)["phase"] == "play"
    assert piles(game) == {"L": ["AH"], "R": ["6D"]}


def test_spit_end_1_the_deal_goes_on_while_pile_1_holds_a_card() -> None:
    game = arrange(
        spit(),
        ["6S", "", "", "", "7S"],
        ["QC", "QD", "QH", "QS", "JC"],
        spit0="2H",
        spit1="3H",
        left="8S",
        right="10H",
        rest="left",
    )
    game.act(0, "play 5 L")  # piles 2-5 are empty, pile 1 is not
    assert table(game)["phase"] == "play" and table(game)["emptier"] is None
    game.act(0, "play 1 L")  # 6S on 7S: now the layout is empty
    assert table(game)["phase"] == "claim" and table(game)["emptier"] == 0


def test_spit_end_4_the_next_deal_is_laid_out_from_shuffled_cards() -> None:
    layouts = set()
    for seed in (5, 6, 7):
        game = cardcore.new_game("spit", 2, deck=interleave(SEAT0, SEAT1), seed=seed)
        game.act(0, "ready")
        game.act(1, "ready")
        for pile, times in ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5)):
            for _ in range(times):
                game.act(0, f"play {pile} L")
        game.act(1, "slap R")
        assert table(game)["deal"] == 2
        tops = tuple(str(p[0]) for s in (0, 1) for p in layout(game, s) if p)
        layouts.add(tops)
    assert len(layouts) > 1  # the game's seeded chance shuffles each player's cards


def test_spit_win_1_seat_1_without_spit_cards_empties_first_and_wins() -> None:
    game = arrange(
        spit(),
        ["QC", "QD", "QH", "QS", "JC"],
        ["6S", "", "", "", ""],
        spit0="4C",
        left="5D",
        rest="left",
        single=0,
    )
    game.act(1, "play 1 L")
    assert game.is_over and game.result is not None
    assert game.result.winners == (1,) and game.result.reason == "out of cards"
    assert game.result.scores == (52.0, 0.0)


def test_spit_rt_3_no_combine_or_fill_once_the_deal_has_ended() -> None:
    game = arrange(
        spit(),
        ["6S", "", "", "", ""],
        ["QC", "QD", "", "", ""],
        spit0="2H",
        spit1="3H",
        left="5D",
        right="10H",
        rest="left",
    )
    game.act(0, "play 1 L")
    assert table(game)["phase"] == "claim"
    assert legal(game, 1) == {"slap L", "slap R"}
    for text in ("combine 1 2", "fill 1 3"):
        with pytest.raises(IllegalActionError, match="SPIT-END-1"):
            game.act(1, text)
    assert layout(game, 1)[:3] == [["QC"], ["QD"], []]


# -- Speed ---------------------------------------------------------------------------------------


def test_speed_play_1_a_card_in_the_stock_cannot_be_played() -> None:
    game = speed_arrange(
        speed(), "6H 2C QD 9C 9D", "3C 3D 3H 3S JC", stock0="4C 10H", left="5S", right="KH"
    )
    assert "play 4C L" not in legal(game, 0)
    with pytest.raises(IllegalActionError, match=r"\(SPEED-PLAY-1\)"):
        game.act(0, "play 4C L")
    assert table(game)["seats"][0]["stock"] == 2


def test_speed_play_2_the_refilled_card_is_its_owner_s_alone() -> None:
    game = speed_arrange(
        speed(), "6H 2C QD 9C 9D", "3C 3D 3H 3S JC", stock0="4C 10H", left="5S", right="KH"
    )
    game.act(0, "play 6H L")
    assert sorted(game.view(0)["table"]["seats"][0]["hand"]) == ["10H", "2C", "9C", "9D", "QD"]
    assert game.view(1)["table"]["seats"][0]["hand"] == [None] * 5
    # the position records who knows each card: the drawn 10H is known to seat 0 only
    text = game.position()
    assert "| hand.0: 2C@0 QD@0 9C@0 9D@0 10H@0 |" in text
    assert cardcore.new_game("speed", 2, seed=1, position=text).position() == text


def test_speed_view_1_a_drawn_card_stays_hidden_from_the_opponent() -> None:
    game = speed_arrange(
        speed(), "6H 2C QD 9C 9D", "3C 3D 3H 3S QC", stock1="4C 10C", left="5S", right="KH"
    )
    game.act(1, "play QC R")  # seat 1 draws 10C
    assert "10C" in game.view(1)["table"]["seats"][1]["hand"]
    for viewer in (0, None):
        assert game.view(viewer)["table"]["seats"][1]["hand"] == [None] * 5
        assert "10C" not in repr(game.view(viewer))
    text = game.position()  # who knows each card: the owner alone
    assert "| hand.1: 3C@1 3D@1 3H@1 3S@1 10C@1 |" in text
    assert cardcore.new_game("speed", 2, seed=1, position=text).position() == text


def test_speed_stuck_2_the_recycled_side_pile_is_shuffled() -> None:
    base = speed_arrange(
        speed(), "6H 2C QD 9C 9D", "3C 3D 3H 3S 8C", left="5S", right="JD KH", rest="left"
    )
    under = {str(c) for c in cardcore.parse_cards(" ".join(piles(base)["L"][1:]))}
    turned = set()
    for seed in range(1, 7):
        game = cardcore.new_game("speed", 2, seed=seed, position=base.position())
        game.act(0, "stuck")
        game.act(1, "stuck")  # side piles empty: recycle, then each turns a side card
        left = piles(game)["L"]
        assert left is not None and left[1] == "5S" and left[0] in under
        turned.add(left[0])
    assert len(turned) > 1  # the seeded shuffle decides which card comes up


def test_speed_end_2_the_seat_holding_fewer_cards_wins_a_stalemate() -> None:
    # seat 1 holds 2 cards, seat 0 5 + 4: both keep declaring stuck until the second recycle
    game = speed_arrange(
        speed(),
        "6H 2C QD 9C 9D",
        "3C 3D",
        stock0="4C 10H 4D 4H",
        left="5S",
        right="KH",
        rest="left",
    )
    for _ in range(200):
        if game.is_over:
            break
        for seat in (0, 1):
            if not game.is_over and not table(game)["seats"][seat]["requested"]:
                game.act(seat, "stuck")
    assert game.is_over and game.result is not None
    assert game.result.reason == "stalemate"
    assert game.result.winners == (1,)
    assert game.result.scores == (9.0, 2.0)


def test_speed_setup_3_a_stock_larger_than_a_deal_gives_is_refused() -> None:
    game = speed(jokers=2)
    deck = [str(c) for c in cardcore.standard_52()]
    hand0, hand1 = " ".join(deck[:5]), " ".join(deck[5:10])
    fits = speed_arrange(game, hand0, hand1, stock0=" ".join(deck[10:26]), left="JK", right="JK")
    assert fits.view(0)["table"]["seats"][0]["stock"] == 16  # 5 + 16 with jokers (SPEED-SETUP-3)
    with pytest.raises(OptionError, match="SPEED-SETUP-3"):
        speed_arrange(game, hand0, hand1, stock0=" ".join(deck[10:27]), left="JK", right="JK")


# -- the setup phase; Speed: detection, its house rule, jokers -----------------------------------


def test_spit_setup_6_a_ready_seat_stays_out_while_the_other_combines() -> None:
    game = eights_game()
    game.act(1, "ready")
    game.act(0, "combine 4 2")  # an 8 onto an 8: seat 0 is still setting up
    assert game.to_act == (0,)
    assert game.legal_actions(1) == ()
    game.act(0, "ready")
    assert table(game)["phase"] == "play" and table(game)["stall"] == 0


def test_spit_setup_6_no_ready_once_play_has_started() -> None:
    game = eights_game()
    game.act(0, "ready")
    game.act(1, "ready")
    before = piles(game)
    assert "ready" not in legal(game, 0)
    with pytest.raises(IllegalActionError, match=r"\(SPIT-SETUP-6\)"):
        game.act(0, "ready")
    assert piles(game) == before  # no second start: nobody spat again


def _speed_deck(l_card: str, r_card: str, side0: str, side1: str, hand0: str, hand1: str) -> str:
    """A top-first Speed deck (SPEED-SETUP-3 order): the rest of the cards follow in deck order."""
    used = [l_card, r_card, *side0.split(), *side1.split()]
    h0, h1 = hand0.split(), hand1.split()
    rest = [str(c) for c in cardcore.standard_52() if str(c) not in {*used, *h0, *h1}]
    own0 = h0 + rest[: len(rest) // 2]
    own1 = h1 + rest[len(rest) // 2 :]
    return " ".join(used + [c for pair in zip(own0, own1, strict=True) for c in pair])


STUCK_DECK = _speed_deck(
    "5S", "5H", "8C 8D 8H 8S 7C", "7D 7H 7S KC KD", "9C 9D 9H 9S 10C", "JC JD JH JS QC"
)


def test_speed_stuck_1_stuck_at_the_deal_turns_the_side_cards_at_once() -> None:
    game = cardcore.new_game("speed", 2, seed=1, deck=STUCK_DECK)
    assert piles(game) == {"L": ["8C", "5S"], "R": ["7D", "5H"]}


def test_speed_stuck_1_a_card_fitting_only_pile_r_is_a_play() -> None:
    game = speed_arrange(
        speed(), "6H 2C QD 9C 9D", "3C 3D 3H 3S QC", side0="4C", side1="10C", left="5S", right="KH"
    )
    game.act(0, "play 6H L")  # now only the queens fit, on KH (pile R)
    assert piles(game)["L"] is not None and piles(game)["L"][0] == "6H"
    assert piles(game)["R"] is not None and piles(game)["R"][0] == "KH"
    assert [s["side"] for s in table(game)["seats"]] == [1, 1]


def test_speed_stuck_4_no_side_card_turns_at_the_deal_without_requests() -> None:
    game = cardcore.new_game("speed", 2, seed=1, deck=STUCK_DECK, rules=["speed.stuck-on-request"])
    assert piles(game) == {"L": ["5S"], "R": ["5H"]}  # nobody can play, yet nothing turns
    assert game.to_act == (0, 1)
    game.act(0, "stuck")
    assert piles(game) == {"L": ["5S"], "R": ["5H"]}  # one declaration is not enough
    game.act(1, "stuck")
    assert piles(game) == {"L": ["8C", "5S"], "R": ["7D", "5H"]}


def test_speed_stuck_4_no_side_card_turns_after_a_play_without_requests() -> None:
    game = speed_arrange(
        speed(), "6H 2C 2D 2H 9C", "3C 3D 3H 3S 9D", side0="4C", side1="10C", left="5S", right="KH"
    )
    game = cardcore.new_game(
        "speed", 2, seed=1, position=game.position(), rules=["speed.stuck-on-request"]
    )
    game.act(0, "play 6H L")  # nobody can play now: only both declarations turn the side cards
    assert piles(game)["L"][:2] == ["6H", "5S"]
    assert [s["side"] for s in table(game)["seats"]] == [1, 1]
    assert game.to_act == (0, 1)
    game.act(0, "stuck")
    assert [s["side"] for s in table(game)["seats"]] == [1, 1]
    game.act(1, "stuck")
    assert piles(game)["L"][0] == "4C" and piles(game)["R"][0] == "10C"


def test_speed_play_3_cards_after_the_second_joker_are_offered_too() -> None:
    game = speed_arrange(speed(jokers=2), "JK 9C JK 6H 2D", "9D 9H 9S 8C 8D", left="5S", right="KH")
    mine = legal(game, 0)
    assert {"play JK L", "play JK R", "play 6H L"} <= mine
    assert "play 2D L" not in mine


# -- Spit: playing is never compulsory; the game ends only with no cards ------------------------


def test_spit_move_11_spit_is_offered_while_plays_are_open() -> None:
    game = arrange(
        spit(),
        ["6S", "9C", "KD", "2C", "5H"],
        ["QC", "QD", "QH", "QS", "JC"],
        spit0="2H",
        spit1="3H",
        left="5D",
        right="10H",
        rest="left",
    )
    mine = legal(game, 0)
    assert "play 1 L" in mine and "spit" in mine
    assert "spit" in legal(game, 1)


def test_spit_gen_3_one_card_left_is_not_the_end_of_the_game() -> None:
    # single-pile deal: seat 1 empties first and keeps its one spit card
    game = arrange(
        spit(),
        ["6S", "8S", "", "", ""],
        ["QC", "", "", "", ""],
        spit1="4C",
        right="JD",
        rest="right",
        single=1,
    )
    game.act(1, "play 1 R")
    assert not game.is_over
    assert table(game)["deal"] == 2
    assert [s["cards"] for s in table(game)["seats"]] == [51, 1]


def test_spit_win_3_a_two_pile_deal_leaving_one_card_does_not_end_the_game() -> None:
    # seat 0 has spat all its spit cards; it empties its layout and slaps the 1-card pile R
    game = arrange(
        spit(),
        ["6S", "", "", "", ""],
        ["QC", "QD", "QH", "QS", "JC"],
        spit1="3H",
        left="5D",
        right="10H",
        rest="left",
    )
    game.act(0, "play 1 L")
    game.act(0, "slap R")
    assert not game.is_over
    assert table(game)["deal"] == 2
    assert [s["cards"] for s in table(game)["seats"]] == [1, 51]
