"""Mutation audit of the position readers and writers (2026-12-26).

Each test pins a behaviour of :mod:`cardcore.positions` or of a game's position notation
(Golf, Spit, Tonk) that a hand-made mutant of the code changed while every earlier test
still passed; the strict xfails pin bugs the audit found (see each one's reason).
Every position here is built from a fixed seed or written out by hand.
"""

from __future__ import annotations

import pytest

import cardcore
from cardcore import ALL, Layout, OptionError, Visibility, Zones, ZoneSpec, parse_cards
from cardcore.positions import MAX_FIELD_INT, MAX_POSITION, read_position, write_position

LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("discard", None, Visibility.EVERYONE),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
    ]
)
DECK = parse_cards("2S 3S 4S 5S 6S")
TOY = "toy | stock: 2S 3S 4S | discard: 5S! | hand.0: 6S@0"


def _played(name: str, players: int, seed: int, steps: int, **kw: object) -> cardcore.Game:
    """A game played *steps* actions in a fixed way (each seat's legal list, a fixed pick)."""
    game = cardcore.new_game(name, players, seed=seed, **kw)
    for i in range(steps):
        if game.is_over:
            break
        seat = game.to_act[0]
        legal = game.view(seat)["legal"]
        game.act(seat, legal[(i * 7) % len(legal)])
    return game


def _swap(text: str, old: str, new: str) -> str:
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


# -- the core codec (cardcore.positions) ----------------------------------------------------


@pytest.mark.parametrize("token", ["6S@", "6S@0.", "6S@.0", "6S@0..1"])
def test_a_knowledge_mark_with_an_empty_seat_is_refused_naming_it(token: str) -> None:
    text = TOY.replace("6S@0", token)
    with pytest.raises(OptionError, match=r"'' is not a seat \(in '6S@"):
        read_position(text, "toy", LAYOUT, DECK, 2)


def test_a_position_of_exactly_max_position_characters_is_read_one_more_is_not() -> None:
    text = TOY + " " * (MAX_POSITION - len(TOY))
    assert len(text) == MAX_POSITION
    assert read_position(text, "toy", LAYOUT, DECK, 1)[1].cards[2] == [DECK[4]]
    with pytest.raises(OptionError, match=f"at most {MAX_POSITION} characters"):
        read_position(text + " ", "toy", LAYOUT, DECK, 1)


@pytest.mark.parametrize("value", [MAX_FIELD_INT, -MAX_FIELD_INT])
def test_a_field_of_exactly_10_to_the_15_is_read(value: int) -> None:
    text = TOY.replace("toy", f"toy n={value} m=[{value}]", 1)
    fields = read_position(text, "toy", LAYOUT, DECK, 1)[0]
    assert fields == {"n": value, "m": [value]}
    with pytest.raises(OptionError, match="field 'n'"):
        read_position(
            text.replace(f"n={value}", f"n={value + (1 if value > 0 else -1)}"),
            "toy",
            LAYOUT,
            DECK,
            1,
        )


def _toy_zones() -> Zones:
    return read_position(TOY, "toy", LAYOUT, DECK, 1)[1]


@pytest.mark.parametrize(
    "value", [MAX_FIELD_INT + 1, -MAX_FIELD_INT - 1, [[MAX_FIELD_INT + 1]], {"a": 1e16}]
)
def test_write_position_refuses_a_number_read_position_would_refuse(value: object) -> None:
    with pytest.raises(OptionError, match="field 'x' must hold numbers of at most 10\\*\\*15"):
        write_position("toy", {"x": value}, _toy_zones())


def test_write_position_writes_numbers_of_exactly_10_to_the_15() -> None:
    text = write_position("toy", {"x": [MAX_FIELD_INT, -MAX_FIELD_INT]}, _toy_zones())
    assert read_position(text, "toy", LAYOUT, DECK, 1)[0] == {"x": [MAX_FIELD_INT, -MAX_FIELD_INT]}
    assert read_position(text, "toy", LAYOUT, DECK, 1)[1].seen[1] == [ALL]


@pytest.mark.parametrize("depth", [3000, 9000])
def test_a_field_nested_deeper_than_python_recurses_is_a_bad_position(depth: int) -> None:
    text = TOY.replace("toy", "toy x=" + "[" * depth + "]" * depth, 1)
    assert len(text) <= MAX_POSITION
    with pytest.raises(OptionError, match="field 'x' has a value that is not compact JSON"):
        read_position(text, "toy", LAYOUT, DECK, 1)


def test_a_game_field_nested_too_deep_is_an_option_error_naming_the_field() -> None:
    text = cardcore.new_game("golf", 2, seed=3).position()
    deep = _swap(text, "totals=[0,0]", "totals=" + "[" * 4000 + "]" * 4000)
    with pytest.raises(OptionError, match="field 'totals' has a value that is not compact JSON"):
        cardcore.new_game("golf", 2, position=deep, seed=1)


# -- Golf ------------------------------------------------------------------------------------

GOLF_DRAW = _played("golf", 2, 3, 6).position()  # seat 1 to draw, both seats past the setup


def _golf(text: str, **options: object) -> cardcore.Game:
    return cardcore.new_game("golf", 2, position=text, seed=1, options=options or None)


def test_golf_draw_position_is_the_one_these_tests_change() -> None:
    head = GOLF_DRAW.split(" | ")[0]
    assert head == (
        'golf layout="6" round=1 dealer=1 turn=1 phase="draw" turns=0 ender=null final=null'
        " totals=[0,0]"
    )
    assert "| discard: 7C! 7D! |" in GOLF_DRAW and "| grid.0: 4D! 4S 2C 10H! 10C 4C |" in GOLF_DRAW
    assert _golf(GOLF_DRAW).position() == GOLF_DRAW


def test_golf_a_running_round_holds_fewer_completed_turns_than_its_cap() -> None:
    at_cap = _swap(GOLF_DRAW, "turns=0", "turns=5")
    assert (
        _golf(_swap(GOLF_DRAW, "turns=0", "turns=4"), max_turns=5).position().count("turns=4") == 1
    )
    with pytest.raises(OptionError, match="turns must be an integer from 0 to 4"):
        _golf(at_cap, max_turns=5)


def test_golf_final_zero_is_only_for_a_finished_match() -> None:
    text = _swap(GOLF_DRAW, "ender=null final=null", "ender=1 final=0")
    with pytest.raises(OptionError, match="final must be an integer from 1 to 1 or null, not 0"):
        _golf(text)


@pytest.mark.parametrize("totals", ["[true,0]", "[0,false]"])
def test_golf_totals_are_ints_not_bools(totals: str) -> None:
    with pytest.raises(OptionError, match="totals must be 2 integers"):
        _golf(_swap(GOLF_DRAW, "totals=[0,0]", f"totals={totals}"))


def test_golf_a_total_at_the_points_limit_means_the_match_is_over() -> None:
    assert (
        _golf(_swap(GOLF_DRAW, "totals=[0,0]", "totals=[49,3]"), points_limit=50).is_over is False
    )
    with pytest.raises(OptionError, match="a total reaches the points limit 50"):
        _golf(_swap(GOLF_DRAW, "totals=[0,0]", "totals=[50,3]"), points_limit=50)


def test_golf_a_grid_short_of_a_card_is_refused_even_when_the_card_is_elsewhere() -> None:
    text = _swap(_swap(GOLF_DRAW, "grid.0: 4D! 4S", "grid.0: 4D!"), "stock: ", "stock: 4S ")
    with pytest.raises(OptionError, match=r"grid\.0 must hold 6 cards, not 5"):
        _golf(text)


def test_golf_the_discard_pile_is_empty_only_while_its_top_is_held() -> None:
    text = _swap(_swap(GOLF_DRAW, "discard: 7C! 7D!", "discard:"), "stock: ", "stock: 7C 7D ")
    with pytest.raises(OptionError, match="the discard pile may be empty only while"):
        _golf(text)


def test_golf_a_completed_layout_without_an_ender_is_refused() -> None:
    text = _swap(GOLF_DRAW, "grid.0: 4D! 4S 2C 10H! 10C 4C", "grid.0: 4D! 4S! 2C! 10H! 10C! 4C!")
    with pytest.raises(
        OptionError, match="seat 0 has completed its layout, so there must be an ender"
    ):
        _golf(text)
    # the same layout with seat 0 as the ender and seat 1 on its final turn is a position
    ended = _swap(text, "ender=null final=null", "ender=0 final=1")
    assert _golf(ended).position() == ended


GOLF_SETUP = cardcore.new_game("golf", 2, seed=3).position()  # dealer 1: seat 0 flips first


def test_golf_the_seat_acting_in_the_setup_has_flips_left() -> None:
    assert 'dealer=1 turn=0 phase="setup"' in GOLF_SETUP
    assert "| grid.0: 7D 4S 2C 10H 10C 4C |" in GOLF_SETUP
    one = _swap(GOLF_SETUP, "grid.0: 7D 4S", "grid.0: 7D! 4S")
    assert _golf(one).view(0)["legal"][0].startswith("flip")
    both = _swap(GOLF_SETUP, "grid.0: 7D 4S", "grid.0: 7D! 4S!")
    with pytest.raises(OptionError, match="seat 0 has made 2 of its 2 setup flips"):
        _golf(both)
    # seat 1 acting with seat 0's two flips made is the next step of the same setup
    assert _golf(_swap(both, "turn=0", "turn=1")).to_act == (1,)


def test_golf_past_the_setup_a_layout_left_face_down_is_read_as_written() -> None:
    """No play leaves a GOLF6 seat with fewer face-up cards than its setup flips, but a puzzle
    or a worked example may: such a position is read as written, and round-trips."""
    hidden = _swap(GOLF_DRAW, "grid.0: 4D! 4S 2C 10H! 10C 4C", "grid.0: 4D 4S 2C 10H 10C 4C")
    game = _golf(hidden)
    assert game.position() == hidden


# -- Tonk ------------------------------------------------------------------------------------

TONK_START = cardcore.new_game("tonk", 3, seed=3).position()


def test_tonk_a_stock_card_known_to_anyone_is_refused() -> None:
    assert TONK_START.split(" | ")[1].startswith("stock: JH 6C")
    with pytest.raises(OptionError, match="stock"):
        cardcore.new_game("tonk", 3, position=_swap(TONK_START, "stock: JH", "stock: JH!"), seed=1)


@pytest.mark.parametrize("seats", ["x", "0.x", "-1", "+1", "1e3", "\u0661", "9" * 40, "0.1.2.9999"])
def test_a_knowledge_mark_that_is_not_seat_numbers_is_refused_naming_it(seats: str) -> None:
    text = TOY.replace("6S@0", "6S@" + seats)
    with pytest.raises(OptionError, match="is not a seat"):
        read_position(text, "toy", LAYOUT, DECK, 3)


def test_golf_the_setup_phase_has_no_completed_turn() -> None:
    with pytest.raises(
        OptionError, match="in the setup phase there is no ender, final turn or completed"
    ):
        _golf(_swap(GOLF_SETUP, "turns=0", "turns=1"))


@pytest.mark.parametrize("dealer", ["2", "-1"])
def test_golf_dealer_is_a_seat(dealer: str) -> None:
    with pytest.raises(OptionError, match=f"dealer must be an integer from 0 to 1, not {dealer}"):
        _golf(_swap(GOLF_DRAW, "dealer=1", f"dealer={dealer}"))


# -- Spit ------------------------------------------------------------------------------------

SPIT_SETUP = cardcore.new_game("spit", 2, seed=3).position()
SPIT_PLAY = _played("spit", 2, 3, 12).position()


def _spit(text: str) -> cardcore.Game:
    return cardcore.new_game("spit", 2, position=text, seed=1)


def test_spit_play_position_is_the_one_these_tests_change() -> None:
    assert SPIT_PLAY.split(" | ")[0] == (
        'spit v=1 phase="play" deal=1 single=-1 ready=[true,true] requests=[false,false]'
        " stall=0 recycled=false emptier=-1"
    )
    for pile in ("layout.0.1: 8C!", "layout.0.3: 2C 7C!", "layout.1.5: 2H 7S KC 5H 3S!"):
        assert f"| {pile} |" in SPIT_PLAY
    assert _spit(SPIT_PLAY).position() == SPIT_PLAY


@pytest.mark.parametrize("extra", ["x=1", "to_act=[0]", "result=null"])
def test_spit_refuses_a_field_it_does_not_have(extra: str) -> None:
    with pytest.raises(OptionError, match="Spit positions have the fields v, phase"):
        _spit(_swap(SPIT_PLAY, "emptier=-1", f"emptier=-1 {extra}"))


def test_spit_the_first_layout_pile_holds_no_face_down_card() -> None:
    text = _swap(
        _swap(SPIT_PLAY, "layout.0.1: 8C!", "layout.0.1: 2C 8C!"),
        "layout.0.3: 2C 7C!",
        "layout.0.3: 7C!",
    )
    with pytest.raises(OptionError, match=r"layout.0.1: at most 0 face-down cards"):
        _spit(text)
    # a face-down card one pile on, where the deal puts one, is a position
    ok = _swap(
        _swap(SPIT_PLAY, "layout.0.2: KD!", "layout.0.2: 2C KD!"),
        "layout.0.3: 2C 7C!",
        "layout.0.3: 7C!",
    )
    assert _spit(ok).position() == ok


def test_spit_an_error_citing_a_spit_rule_range_cites_no_second_rule() -> None:
    with pytest.raises(
        OptionError, match=r"pile.R must be empty in this mode \(SPIT-START-1/2\)"
    ) as info:
        _spit(_swap(SPIT_PLAY, "single=-1", "single=0"))
    assert "CORE-POSITION-1" not in str(info.value)
    assert info.value.rule_id == "SPIT-START-1"  # the first of the run it cites


def test_spit_a_face_down_layout_card_lies_under_every_face_up_one() -> None:
    text = _swap(SPIT_PLAY, "layout.0.3: 2C 7C!", "layout.0.3: 7D! 7S 7C!")
    text = _swap(text, "layout.0.5: 10C AH 10S JS 7H! 7D!", "layout.0.5: 10C AH 10S JS 7H!")
    text = _swap(text, "layout.1.5: 2H 7S KC", "layout.1.5: 2H 2C KC")
    with pytest.raises(
        OptionError, match=r"layout.0.3: at most 2 face-down cards, all under the face-up"
    ):
        _spit(text)


@pytest.mark.parametrize("mark", ["!", "@0", "@1", "@0.1"])
def test_spit_spit_cards_are_known_to_nobody(mark: str) -> None:
    assert "| spit.0: 6C 3C" in SPIT_PLAY
    with pytest.raises(
        OptionError, match=r"spit.0: spit cards are face down, known to nobody \(SPIT-SETUP-3\)"
    ):
        _spit(_swap(SPIT_PLAY, "spit.0: 6C 3C", f"spit.0: 6C 3C{mark}"))


@pytest.mark.parametrize("mark", ["", "@0", "@0.1"])
def test_spit_the_spit_piles_are_face_up(mark: str) -> None:
    assert "| pile.L: 10D! KS! AS! |" in SPIT_PLAY
    with pytest.raises(OptionError, match=r"pile\.L: the spit piles are face up"):
        _spit(_swap(SPIT_PLAY, "pile.L: 10D! KS!", f"pile.L: 10D{mark} KS!"))


def _spit_piles(text: str) -> tuple[str, dict[str, list[str]]]:
    head, *rest = text.split(" | ")
    return head, {name: cards.split() for name, _, cards in (s.partition(":") for s in rest)}


def _spit_text(head: str, piles: dict[str, list[str]]) -> str:
    return " | ".join(
        [head, *(f"{name}: {' '.join(cards)}".rstrip() for name, cards in piles.items())]
    )


def test_spit_setup_with_one_seat_short_of_15_cards_is_the_other_seats_single_pile() -> None:
    head, piles = _spit_piles(SPIT_SETUP)
    assert piles["layout.1.1"] == ["JD!"] and "single=-1" in head
    for name in ("layout.1.2", "layout.1.3", "layout.1.4", "layout.1.5", "spit.1"):
        piles["spit.0"] += [card.rstrip("!") for card in piles[name]]
        piles[name] = []
    text = _spit_text(head.replace("single=-1", "single=0"), piles)
    assert _spit(text).position() == text  # seat 0 has 51 cards, seat 1 the JD alone
    with pytest.raises(
        OptionError, match=r"single must be 0 for a deal begun with 51 and 1 cards \(SPIT-END-5\)"
    ):
        _spit(text.replace("single=0", "single=1"))


def test_spit_setup_spit_cards_are_what_a_deal_leaves_after_the_layout() -> None:
    head, piles = _spit_piles(SPIT_SETUP)
    assert piles["layout.0.5"] == ["10C", "AH", "10S", "JS", "7H!"]
    piles["spit.0"].append(piles["layout.0.5"].pop(0))  # 26 cards: 14 laid out, 12 spit cards
    with pytest.raises(
        OptionError, match="seat 0 holds 26 cards: its layout and spit cards do not match a deal"
    ):
        _spit(_spit_text(head, piles))


def test_spit_both_spit_piles_hold_cards_in_a_two_pile_deal() -> None:
    assert "| spit.1: JH 9H" in SPIT_PLAY and SPIT_PLAY.endswith("| pile.R: AD! 3H! 4C! 3D! 4S!")
    text = _swap(SPIT_PLAY, "spit.1: JH 9H", "spit.1: JH 9H AD 3H 4C 3D 4S")
    text = _swap(text, "pile.R: AD! 3H! 4C! 3D! 4S!", "pile.R:")
    with pytest.raises(OptionError, match=r"pile.R must hold cards in this mode"):
        _spit(text)


def test_spit_in_a_single_pile_deal_the_other_seat_has_no_spit_cards() -> None:
    text = _swap(SPIT_PLAY, "single=-1", "single=0")
    text = _swap(text, "spit.0: 6C 3C", "spit.0: AD 3H 4C 3D 4S 6C 3C")
    text = _swap(text, "pile.R: AD! 3H! 4C! 3D! 4S!", "pile.R:")
    with pytest.raises(
        OptionError, match=r"seat 1 has no spit cards in a single-pile deal \(SPIT-END-5\)"
    ):
        _spit(text)


SPIT_CLAIM = (
    'spit v=1 phase="claim" deal=1 single=-1 ready=[true,true] requests=[false,false] stall=0'
    " recycled=false emptier=0 | layout.0.1: | layout.0.2: | layout.0.3: | layout.0.4: |"
    " layout.0.5: | layout.1.1: 10S! | layout.1.2: JS AC! | layout.1.3: AS KS! | layout.1.4:"
    " QD 6D 10H! | layout.1.5: KH QC 3C 2C! | spit.0: JD AH 3S 7D 5S KC 4H 5C QS 2D QH JH 3H 4C"
    " 2H 8H | spit.1: 10D 9H 6C 7C 6H 10C 8S 7H 4D 3D 5H 9D 7S 5D JC 8C 9C | pile.L: 4S! KD! 6S!"
    " | pile.R: AD! 2S! 9S! 8D!"
)  # seat 0 emptied its layout (spit, seed 0, after 266 actions)


def test_spit_a_claim_follows_the_emptier_laying_out_its_last_card() -> None:
    game = _spit(SPIT_CLAIM)
    assert game.position() == SPIT_CLAIM and game.to_act
    text = _swap(_swap(SPIT_CLAIM, "layout.0.1: |", "layout.0.1: 8H! |"), " 2H 8H |", " 2H |")
    with pytest.raises(OptionError, match=r"a claim follows a two-pile deal whose emptier"):
        _spit(text)
    with pytest.raises(OptionError, match=r"a claim follows a two-pile deal whose emptier"):
        _spit(_swap(SPIT_CLAIM, "requests=[false,false]", "requests=[false,true]"))


def test_spit_in_the_play_phase_both_layouts_hold_cards() -> None:
    text = _swap(_swap(SPIT_CLAIM, 'phase="claim"', 'phase="play"'), "emptier=0", "emptier=-1")
    with pytest.raises(
        OptionError, match=r"in the play phase both layouts hold cards and emptier is -1"
    ):
        _spit(text)


@pytest.mark.parametrize("value", ["0", "1", "null", '"false"', "[]"])
def test_spit_recycled_is_true_or_false(value: str) -> None:
    with pytest.raises(OptionError, match="recycled must be true or false, not "):
        _spit(_swap(SPIT_PLAY, "recycled=false", f"recycled={value}"))


TONK_PLAY = (
    'tonk played=2 dealer=1 turn=2 phase="play" balances=[-3,4,-1] chance=4 spreads=[[3,2]]'
    ' taken="9D" laid=true touched=true cut=[["J","7","Q"]] | stock: 2D 6S KC 4C 6C 2C 3D 7H AS'
    " 8H AC 6H 7C QC QS JD 9C QD 10C KS JC 5S 5H KH 5C 2S QH 8D 3H 10S 10H 4H 8C KD 7S 7D |"
    " discard: | hand.0: 4D 8S 4S 6D JH | hand.1: JS 2H AH 10D AD | hand.2: 3S 3C 5D | spreads:"
    " 9S! 9H! 9D!"
)  # seat 2 took the 9D and laid a book of nines (tonk, hands=3, seed 17)
TONK_BETWEEN = (
    'tonk played=1 dealer=0 turn=0 phase="between" balances=[-4,1,3] chance=2'
    ' cut=[["3","5","10"]] | stock: AD 4S 2S 4C 3D 8H JC 5C 5D 2D 7C JD 9H 6S 7S 7D 6H KD 9D KC'
    " 10C 5S 3H 8S 2C JH 7H AH 3C 4D 10H 3S 6C 9S QC 5H | discard: 6D! | hand.0: 10D! JS! 8C!"
    " KH! 4H! | hand.1: 10S! 2H! QD! QH! KS! | hand.2: QS! AS! 8D! AC! 9C! | spreads:"
)  # the first of three hands over (tonk, hands=3, seed 0)


def _tonk(text: str, hands: int = 3) -> cardcore.Game:
    return cardcore.new_game("tonk", 3, position=text, seed=1, options={"hands": hands})


def test_tonk_the_positions_these_tests_change_read_back_as_written() -> None:
    assert _tonk(TONK_PLAY).position() == TONK_PLAY
    assert _tonk(TONK_BETWEEN).position() == TONK_BETWEEN
    assert _tonk(TONK_PLAY).to_act == (2,) and _tonk(TONK_BETWEEN).to_act == (0,)


def test_tonk_only_the_seat_to_act_may_hold_six_cards() -> None:
    six = _swap(
        _swap(TONK_PLAY, " 7S 7D |", " 7S |"), "hand.0: 4D 8S 4S 6D JH", "hand.0: 4D 8S 4S 6D JH 7D"
    )
    with pytest.raises(
        OptionError, match=r"hands of \[6, 5, 3\] cards: each holds 1 to 5 \(6 after drawing\)"
    ):
        _tonk(six)
    drawn = _swap(
        _swap(TONK_PLAY, " 7S 7D |", " |"), "hand.2: 3S 3C 5D", "hand.2: 3S 3C 5D 7S 7D KD"
    )
    drawn = _swap(drawn, " 8C KD |", " 8C |")
    assert _tonk(drawn).to_act == (2,)


def test_tonk_during_a_hand_no_hand_is_empty() -> None:
    text = _swap(
        _swap(TONK_PLAY, "hand.1: JS 2H AH 10D AD", "hand.1:"),
        "stock: 2D",
        "stock: JS 2H AH 10D AD 2D",
    )
    with pytest.raises(OptionError, match=r"hands of \[5, 0, 3\] cards"):
        _tonk(text)


def test_tonk_the_spreads_field_covers_every_card_of_the_spreads_pile() -> None:
    text = _swap(_swap(TONK_PLAY, "9D!", "9D! 9C!"), "JD 9C QD", "JD QD")
    with pytest.raises(OptionError, match=r"covering the cards of the spreads pile"):
        _tonk(text)
    assert _tonk(_swap(text, "spreads=[[3,2]]", "spreads=[[4,2]]")).position().count("[[4,2]]") == 1


@pytest.mark.parametrize("owner", ["3", "-1", "true"])
def test_tonk_a_spread_is_owned_by_a_seat(owner: str) -> None:
    with pytest.raises(OptionError, match=r"must give each spread's \[size \(3 or more\), owner\]"):
        _tonk(_swap(TONK_PLAY, "spreads=[[3,2]]", f"spreads=[[3,{owner}]]"))


def test_tonk_a_taken_card_may_lie_in_a_spread_but_nowhere_else() -> None:
    assert _tonk(TONK_PLAY).position() == TONK_PLAY  # the 9D went into seat 2's book
    with pytest.raises(OptionError, match=r"taken '4D' must be in the hand of the seat to act,"):
        _tonk(_swap(TONK_PLAY, 'taken="9D"', 'taken="4D"'))


def test_tonk_a_seat_list_naming_a_seat_twice_is_refused() -> None:
    """``hit=[0,0]`` was read as ``[0]`` and written back so: a repeat is refused, as a card
    named twice is."""
    with pytest.raises(OptionError, match=r"hit names a seat twice: \[1, 1\]"):
        _tonk(TONK_PLAY.replace(" | ", " hit=[1,1] | ", 1))
    assert "hit=[1]" in _tonk(TONK_PLAY.replace(" | ", " hit=[1] | ", 1)).position()


def test_tonk_no_more_coming_deals_than_the_session_has_left() -> None:
    with pytest.raises(OptionError, match="next must list at most 0 coming deals"):
        _tonk(_swap(TONK_PLAY, "chance=4", 'chance=4 next=[["AS"]]'))
    three = 'chance=2 next=[["AS"],["KD"],["2C"]]'
    without = {"without": ["tonk.natural-49-50"]}  # no deal is void: one deal per hand
    with pytest.raises(OptionError, match="next must list at most 2 coming deals"):
        cardcore.new_game(
            "tonk", 3, position=_swap(TONK_BETWEEN, "chance=2", three), seed=1, options={"hands": 3}, **without
        )
    two = _tonk(_swap(TONK_BETWEEN, "chance=2", 'chance=2 next=[["AS"],["KD"]]'))
    assert 'next=[["AS"],["KD"]]' in two.position()
    # with the natural rule a void deal's re-deal is a deal of its own (TONK-NOTE-2)
    assert 'next=[["AS"],["KD"],["2C"]]' in _tonk(_swap(TONK_BETWEEN, "chance=2", three)).position()


def test_tonk_balances_sum_to_zero() -> None:
    with pytest.raises(
        OptionError, match="balances must be one whole number per seat, summing to zero"
    ):
        _tonk(_swap(TONK_BETWEEN, "balances=[-4,1,3]", "balances=[-4,1,4]"))


def test_tonk_between_hands_the_next_dealer_acts() -> None:
    with pytest.raises(OptionError, match=r"turn must equal dealer \(TONK-SESSION-3\)"):
        _tonk(_swap(TONK_BETWEEN, "turn=0", "turn=1"))


@pytest.mark.parametrize("chance", ["0", "-1"])
def test_tonk_the_chance_counter_starts_at_one(chance: str) -> None:
    with pytest.raises(OptionError, match="chance must be a whole number from 1 to"):
        _tonk(_swap(TONK_BETWEEN, "chance=2", f"chance={chance}"))


def test_tonk_a_stacked_deal_names_no_card_twice() -> None:
    with pytest.raises(OptionError, match="next deal 1 names a card twice"):
        _tonk(_swap(TONK_BETWEEN, "chance=2", 'chance=2 next=[["AS","KD","AS"]]'))


@pytest.mark.parametrize(
    "cut, match",
    [
        ('[["3","5","10"],["4","6","9"]]', "the cut goes on after one seat was highest"),
        ('[["3","10","10"]]', "the cut must end with one seat alone highest"),
        ('[["10","10","10"],["10","10","9"]]', "the cut uses a rank more than four times"),
        ('[["10","10","10"],["K","K",null]]', "each a rank A..K"),
    ],
)
def test_tonk_the_cut_chooses_one_first_dealer(cut: str, match: str) -> None:
    with pytest.raises(OptionError, match=match):
        _tonk(_swap(TONK_BETWEEN, 'cut=[["3","5","10"]]', f"cut={cut}"))


def test_tonk_a_cut_that_ties_then_breaks_the_tie_is_a_position() -> None:
    text = _swap(TONK_BETWEEN, 'cut=[["3","5","10"]]', 'cut=[["10","3","10"],["2",null,"K"]]')
    assert 'cut=[["10","3","10"],["2",null,"K"]]' in _tonk(text).position()


TONK_OVER = (
    'tonk played=1 dealer=2 turn=0 phase="over" balances=[2,-1,-1] chance=2 cut=[["A","Q","8"]]'
    ' result={"winners":[0],"reason":"drop-won"} last=[1,1] | stock: JH 6C 9H 3C 6S 8H QC 9S 9C'
    " AC 8D 5C 5S QD 6H QS 6D KH 3H KS AD 10D 3S 7H 5H JS 4H 8C KC 10S JC 3D QH AS 7S | discard:"
    " 2D! 7D! | hand.0: JD! 2C! 2S! 4C! 4D! | hand.1: 4S! 9D! 10C! 5D! KD! | hand.2: 8S! 10H! 2H!"
    " 7C! AH! | spreads:"
)  # seat 0 dropped and won the one-hand session (tonk, seed 3)


def test_tonk_a_finished_session_reads_back_over() -> None:
    game = _tonk(TONK_OVER, hands=1)
    assert game.is_over and game.result is not None and game.result.winners == (0,)
    assert game.position() == TONK_OVER


@pytest.mark.parametrize(
    "old, new, match",
    [
        ("played=1", "played=0", "played must be a whole number from 1 to 1"),
        ("last=[1,1]", "last=[1,0]", "last names dealer 0, but the next dealer is 2"),
        ("last=[1,1]", "last=[0,1]", "last's hand must be a whole number from 1 to 1"),
        ('"winners":[0]', '"winners":[3]', "result must be"),
        ('"winners":[0]', '"winners":[0,0]', "result must be"),
        ('"winners":[0]', '"winners":[false]', "result must be"),
        ('"reason":"drop-won"', '"reason":""', "result must be"),
    ],
)
def test_tonk_a_finished_session_is_checked(old: str, new: str, match: str) -> None:
    with pytest.raises(OptionError, match=match):
        _tonk(_swap(TONK_OVER, old, new), hands=1)


def test_tonk_shown_names_only_hands_known_to_all() -> None:
    hidden = _swap(TONK_OVER, "hand.0: JD! 2C! 2S! 4C! 4D!", "hand.0: JD@0 2C@0 2S@0 4C@0 4D@0")
    assert _tonk(hidden, hands=1).is_over
    with pytest.raises(OptionError, match="shown names seat 0, whose hand is not known to all"):
        _tonk(_swap(hidden, "last=[1,1]", "last=[1,1] shown=[0,1,2]"), hands=1)


def test_tonk_a_hand_ending_reason_needs_the_over_phase() -> None:
    text = _swap(TONK_BETWEEN, "chance=2", 'chance=2 result={"winners":[2],"reason":"drop-won"}')
    with pytest.raises(OptionError, match=r"a hand ending \('drop-won'\) finishes the session"):
        _tonk(text)
    resigned = _swap(
        TONK_BETWEEN, "chance=2", 'chance=2 result={"winners":[2],"reason":"resigned"}'
    )
    assert _tonk(resigned).is_over


def test_tonk_quiet_turns_are_written_back() -> None:
    text = _swap(TONK_BETWEEN, "chance=2", "chance=2 quiet=3")
    assert _tonk(text).position() == text


def test_tonk_a_seat_holding_only_a_taken_card_that_hits_nothing_cannot_act() -> None:
    text = _swap(TONK_PLAY, "hand.2: 3S 3C 5D", "hand.2: 9D")
    text = _swap(text, "spreads: 9S! 9H! 9D!", "spreads: 3S! 3C! 3D!")
    text = _swap(text, "AS 8H AC", "AS 9S 9H 5D 8H AC").replace(" 2C 3D 7H", " 2C 7H", 1)
    with pytest.raises(
        OptionError, match=r"holds only the taken '9D', which hits no spread \(TONK-TURN-5\)"
    ):
        _tonk(text)


def test_tonk_a_turn_never_begins_with_an_empty_stock() -> None:
    text = _swap(TONK_PLAY, ' taken="9D" laid=true touched=true', "")
    text = _swap(text, 'phase="play"', 'phase="start"')
    stock = text.split(" | ")[1]
    text = _swap(
        _swap(text, stock + " | discard:", "stock: | discard:"),
        "discard: |",
        "discard: " + " ".join(c + "!" for c in stock.split()[1:]) + " |",
    )
    with pytest.raises(
        OptionError,
        match=r"a turn cannot begin with an empty stock: the hand has ended \(TONK-STOCK-1\)",
    ):
        _tonk(text)


@pytest.mark.parametrize("old, new", [("recycled=false", "recycled=true"), ("stall=0", "stall=19")])
def test_spit_recycled_and_stall_are_written_back(old: str, new: str) -> None:
    text = _swap(SPIT_PLAY, old, new)
    assert _spit(text).position() == text


@pytest.mark.parametrize(
    "old, new",
    [("recycled=false", "recycled=true"), ("stall=0", "stall=1"), ("emptier=-1", "emptier=0")],
)
def test_spit_the_setup_phase_has_no_recycle_stall_or_emptier(old: str, new: str) -> None:
    with pytest.raises(OptionError, match="in the setup phase the spit piles are empty"):
        _spit(_swap(SPIT_SETUP, old, new))


def test_a_game_from_a_position_draws_its_chance_from_its_own_seed() -> None:
    def dealt(seed: int) -> str:
        game = cardcore.new_game("tonk", 3, position=TONK_BETWEEN, seed=seed, options={"hands": 3})
        game.act(0, "deal")
        return game.position()

    assert dealt(1) == dealt(1)
    assert dealt(1) != dealt(2)  # the shuffle of the next deal follows the seed


def test_a_refused_position_stores_no_session() -> None:
    from cardcore.session import MemoryStore, Session

    store = MemoryStore()
    with pytest.raises(OptionError, match="turn must be an integer from 0 to 1, not 5"):
        Session.create(
            "golf", 2, now=0.0, position=_swap(GOLF_SETUP, "turn=0", "turn=5"), store=store
        )
    assert list(store.session_ids()) == []
    Session.create("golf", 2, now=0.0, position=GOLF_SETUP, store=store, seed=1)
    assert len(list(store.session_ids())) == 1


@pytest.mark.parametrize("fields", ["touched=true", "laid=true touched=true", 'taken="6D"'])
def test_tonk_laid_touched_and_taken_describe_a_turn_in_play(fields: str) -> None:
    with pytest.raises(
        OptionError, match=r"laid, touched and taken describe a turn in play|taken '6D' must be"
    ):
        _tonk(_swap(TONK_BETWEEN, "chance=2", f"chance=2 {fields}"))


def test_a_none_default_field_names_every_kind_it_takes() -> None:
    """A ``None`` default takes null or any scalar; a list is refused naming all of them (it
    said "must be null", though a number or a string is read)."""
    from cardcore.positions import read_field

    assert read_field("x", 3, None) == 3
    assert read_field("x", "a", None) == "a"
    with pytest.raises(OptionError, match=r"'x' must be null, an int, a string, a bool or a"):
        read_field("x", [1], None)
    with pytest.raises(OptionError, match=r"'x' must be an int, not \"a\""):
        read_field("x", "a", 0)
