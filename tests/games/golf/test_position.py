"""Golf positions (cardcore_golf.position): written, read back, and validated card by card."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from tests.games.golf.helpers import golf, play, setup_flips, stack, state

import cardcore
from cardcore import Game, OptionError

G0 = "7H 9C KD 4S 2D QH"
G1 = "3C 8D JS 3D 10H 6S"
DECK = stack([G0, G1], "5C", "7D KS 9H QS AH 2C")


def from_position(game: Game, seed: int = 99) -> Game:
    """Start a new game of the same configuration from *game*'s current position."""
    return cardcore.new_game(
        "golf",
        len(game.players),
        rules=game.rules,
        options=dict(game.options),
        position=game.position(),
        seed=seed,
    )


def same_position(game: Game, other: Game) -> None:
    """Every seat (and a spectator) sees the same, and every seat has the same legal actions."""
    for seat in [*range(len(game.players)), None]:
        mine, theirs = game.view(seat), other.view(seat)
        mine.pop("version")
        theirs.pop("version")
        assert mine == theirs, seat
        if seat is not None:
            assert game.legal_actions(seat) == other.legal_actions(seat), seat
    assert other.position() == game.position()


CONFIGS: list[tuple[Any, tuple[str, ...]]] = [
    (6, ()),
    (6, ("golf.remove-columns", "golf.jokers")),
    (8, ("golf.reveal-same-column",)),
    (6, ("golf.reveal-same-column", "golf.remove-columns")),
    (10, ("golf.reveal-different-columns", "golf.remove-columns")),
    (9, ("golf.reveal-same-column", "golf.remove-triples")),
    (9, ("golf.remove-triples",)),
    (10, ("golf.no-final-turns",)),
    ("4", ("golf.peek-nearest",)),
    ("4h", ()),
]


@pytest.mark.parametrize(("layout", "rules"), CONFIGS)
def test_positions_reproduce_mid_game_positions(layout: Any, rules: tuple[str, ...]) -> None:
    for seed in range(3):
        game = cardcore.new_game(
            "golf", 3, seed=seed, rules=rules, options={"layout": layout, "rounds": 2}
        )
        rng = random.Random(seed)
        while not game.is_over:
            if game.version % 3 == 0:
                copy = from_position(game)
                same_position(game, copy)
                # the copy plays on like the original until the next chance event
                legal = game.legal_actions(game.to_act[0])
                action = legal[rng.randrange(len(legal))]
                chance = state(game).draws  # a reshuffle or a new deal draws from the seed
                game.apply(action)
                copy.apply(action)
                if state(game).draws == chance and not game.is_over:
                    same_position(game, copy)
                continue
            legal = game.legal_actions(game.to_act[0])
            game.apply(legal[rng.randrange(len(legal))])


def test_position_notation_by_hand() -> None:
    game = golf(2, DECK)
    setup_flips(game, [(0, 1), (0, 3)])
    game.act(0, "draw")
    text = game.position()
    head, _, tail = text.partition(" | stock: ")
    stock, _, rest = tail.partition(" | ")
    assert head == (
        'golf layout="6" round=1 dealer=1 turn=0 phase="place" turns=0 ender=null final=null'
        " totals=[0,0]"
    )
    assert stock.endswith(" 2C AH QS 9H KS") and len(stock.split()) == 52 - 12 - 1 - 1
    assert rest == (
        "discard: 5C! | held: 7D@0 | grid.0: 7H! 9C! KD 4S 2D QH | grid.1: 3C! 8D JS 3D! 10H 6S"
    )


def test_position_with_removed_cards_and_totals() -> None:
    grids = ["5S 9C KD 5H 2D QH", G1]
    game = golf(2, stack(grids, "5C", "7D KS 9H"), rules=["golf.remove-columns"])
    play(game, (0, "flip 0"), (0, "flip 3"))  # the 5/5 column is removed
    text = game.position()
    assert "removed=[[0,3],[]]" in text and "grid.0: 9C KD 2D QH |" in text
    same_position(game, from_position(game))


def test_position_keeps_the_match_totals() -> None:
    game = golf(2, DECK, options={"rounds": 3})
    play(
        game,
        *[(0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 3")],
        *[(0, "draw"), (0, "replace 3"), (1, "take"), (1, "replace 1")],
        *[(0, "draw"), (0, "replace 2"), (1, "draw"), (1, "discard")],
        *[(0, "take"), (0, "replace 4"), (1, "draw"), (1, "replace 2")],
        *[(0, "draw"), (0, "replace 5"), (1, "draw"), (1, "replace 4")],
    )
    copy = from_position(game)
    assert copy.view(0)["table"]["totals"] == [1, 22] and copy.view(0)["table"]["round"] == 2
    assert copy.history(0) == []  # a position holds no past rounds, only the totals
    same_position(game, copy)


def bad(text: str, players: int = 2, **options: Any) -> str:
    with pytest.raises(OptionError, match=r"\(CORE-POSITION-1\)") as info:
        cardcore.new_game("golf", players, position=text, seed=1, options=options or None)
    return str(info.value)


GOOD = golf(2, DECK).position()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("golf ", "tonk ", "game's name 'golf'"),
        ("5C!", "5C! 5C!", "exactly once"),
        ('layout="6"', 'layout="9"', "layout '9'"),
        ('phase="setup"', 'phase="over"', "phase must be"),
        ('phase="setup"', 'phase="place"', "held pile must hold 1"),
        ("turn=0", "turn=2", "turn must be an integer from 0 to 1"),
        ("turn=0", "turn=true", "turn must be an integer"),
        ("ender=null", "ender=1", "setup phase there is no ender"),
        ("totals=[0,0]", "totals=[0]", "totals must be 2 integers"),
        ("turns=0", "turns=0 bonus=1", "unknown fields ['bonus']"),
        ("final=null ", "", "missing fields ['final']"),
        ("turn=0", "turn=1", "seat 1 acting"),
        ("5C!", "5C", "mark each with '!'"),
        ("grid.1: 3C", "grid.1: 3C!", "seat 1 has made 1 of its 2 setup flips"),
        ("round=1", "round=10", "round must be an integer from 1 to 9"),
        ("totals=[0,0]", "totals=[0,0] removed=[[0,3],[]]", "not whole cancelled groups"),
        ("7D |", "7D@1 |", "stock cards are face down"),
        ("| held: |", "| held: | hand: 2C |", "unknown pile 'hand'"),
    ],
)
def test_bad_positions_raise_option_error(old: str, new: str, message: str) -> None:
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    assert message in bad(text)


def test_bad_positions_for_the_game_in_play() -> None:
    game = golf(2, DECK)
    setup_flips(game, [(0, 1), (0, 3)])
    text = game.position()
    assert "a GOLF6 card" in bad(text.replace("grid.0: 7H!", "grid.0: 7H@1"))
    assert re.search("piles missing: grid.2", bad(text, players=3))
    assert "points limit 1" in bad(text.replace("totals=[0,0]", "totals=[3,0]"), points_limit=1)
    drawn = text.replace('phase="draw"', 'phase="place"')
    assert "held pile must hold 1" in bad(drawn)
    game.act(0, "draw")
    held = game.position()
    assert "known to only seat 0" in bad(held.replace("7D@0", "7D!"))
    assert "known to everyone" in bad(held.replace('phase="place"', 'phase="taken"'))
    final = held.replace("ender=null final=null", "ender=1 final=1")
    assert "cannot be the ender" in bad(final)
    assert "ender and final are set together" in bad(held.replace("final=null", "final=1"))


def test_bad_positions_four_card_layouts() -> None:
    game = golf(2, stack(["5S 9H KD 5H", "AC 2C 3C 4C"], "8D", "QS"), options={"layout": "4"})
    play(game, (0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1"), (0, "knock"))
    text = game.position()
    assert "ender=0 final=1" in text and "turn=1" in text
    assert "seat 1 acts, not 0" in bad(text.replace("turn=1", "turn=0"), layout="4")
    same_position(game, from_position(game))
    hand = golf(2, options={"layout": "4h"}).position()
    assert "GOLF4H has no setup phase" in bad(
        hand.replace('phase="draw"', 'phase="setup"'), layout="4h"
    )


@pytest.mark.parametrize("layout", [6, 8, 9, 10, "4", "4h"])
def test_a_finished_match_writes_its_result_and_reads_back_over(layout: Any) -> None:
    """GOLF-GAME-1: a finished match's position carries the result; nobody may act in it."""
    options = {"layout": layout, "rounds": 1}
    game = cardcore.new_game("golf", 3, options=options, seed=5)
    rng = random.Random(5)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(rng.choice(game.legal_actions(seat)))
    text = game.position()
    assert 'phase="over"' in text and "result=" in text
    again = cardcore.new_game("golf", 3, options=options, position=text, seed=1)
    assert again.is_over and again.to_act == () and again.result == game.result
    assert again.position() == text
    for seat in (0, 1, 2, None):
        mine, theirs = game.view(seat), again.view(seat)
        del mine["version"], theirs["version"]
        assert mine == theirs
    with pytest.raises(OptionError, match="'over' with the game's result"):
        cardcore.new_game("golf", 3, options=options, position=re.sub(r" result=\S+", "", text))


def _setup_position(grids: list[str], rules: list[str], layout: Any = 6, extra: str = "") -> str:
    """A setup-phase position of 2 seats: seat 0 has set up, seat 1 acts; QD tops the stock."""
    game = cardcore.new_game("golf", 2, rules=rules, options={"layout": layout}, seed=1)
    segments = game.position().split(" | ")[1:]
    deck = [re.sub("[!@].*", "", c) for seg in segments for c in seg.partition(":")[2].split()]
    used = [c.split("!")[0].split("@")[0] for g in grids for c in g.split()] + ["5D", "QD"]
    used += re.findall(r"[0-9AJQKX]+[CDHS]", extra)
    rest = list(deck)
    for card in used:
        rest.remove(card)
    discard = " ".join([*(f"{c}!" for c in re.findall(r"[0-9AJQK]+[CDHS]", extra)), "5D!"])
    head = f'golf layout="{layout}" round=1 dealer=1 turn=1 phase="setup" turns=0 ender=null'
    removed = " removed=[[0,3],[]]" if extra else ""
    piles = [f"stock: {' '.join(rest)} QD", f"discard: {discard}", "held:"]
    piles += [f"grid.{s}: {g}" for s, g in enumerate(grids)]
    return " | ".join([f"{head} final=null totals=[0,0]{removed}", *piles])


def _refused(text: str, rules: list[str], layout: Any = 6) -> str:
    with pytest.raises(OptionError) as info:
        cardcore.new_game("golf", 2, rules=rules, options={"layout": layout}, position=text)
    return str(info.value)


def test_golf6_setup_3_position_with_initial_cards_in_two_columns_is_refused() -> None:
    rules = ["golf.reveal-same-column"]
    text = _setup_position(["7H! 2S! 3S 4S 5S 6S", "AH 2H 3H 9C 8C 10C"], rules)
    assert "GOLF6-SETUP-3" in _refused(text, rules)
    assert "flips at [0, 1]" in _refused(text, rules)
    cardcore.new_game("golf", 2, position=text)  # the same position without the rule is fine
    fine = _setup_position(["7H! 2S 3S 4S! 5S 6S", "AH 2H 3H 9C 8C 10C"], rules)
    game = cardcore.new_game("golf", 2, rules=rules, position=fine)
    assert game.position() == fine


def test_golf6_setup_3_the_acting_seat_half_way_through_is_checked_too() -> None:
    # GOLF9-1 + GOLF6-SETUP-3: seat 0 flipped column 0 (0, 3, 6); seat 1, acting, has made two
    # of its three flips, in two columns: no third flip could make that legal
    rules = ["golf.reveal-same-column"]
    grids = ["7H! 2S 3S 4S! 5S 6S 8S! 9S 10S", "AH! 2H! 3H 9C 8C 10C 4C 5C 6C"]
    message = _refused(_setup_position(grids, rules, layout=9), rules, layout=9)
    assert "seat 1's setup flips at [0, 1]" in message and "GOLF6-SETUP-3" in message
    grids[1] = "AH! 2H 3H 9C! 8C 10C 4C 5C 6C"
    game = cardcore.new_game(
        "golf", 2, rules=rules, options={"layout": 9}, position=_setup_position(grids, rules, 9)
    )
    assert [str(a) for a in game.legal_actions(1)] == ["flip 6"]


def test_golf6_setup_4_position_with_initial_cards_in_one_column_is_refused() -> None:
    rules = ["golf.reveal-different-columns"]
    text = _setup_position(["7H! 2S 3S 4S! 5S 6S", "AH 2H 3H 9C 8C 10C"], rules)
    assert "GOLF6-SETUP-4" in _refused(text, rules)
    fine = _setup_position(["7H! 2S! 3S 4S 5S 6S", "AH 2H 3H 9C 8C 10C"], rules)
    cardcore.new_game("golf", 2, rules=rules, position=fine)


def test_golf6_setup_4_a_column_removed_during_setup_was_flipped_in_one_column() -> None:
    # GOLF6-SCORE-2 removes a face-up cancelled column at once: 7H and 7D were seat 0's two
    # setup flips, both in column 0, which GOLF6-SETUP-4 forbids (GOLF6-SETUP-3 requires)
    grids = ["2S 3S 5S 6S", "AH 2H 3H 9C 8C 10C"]
    diff = ["golf.remove-columns", "golf.reveal-different-columns"]
    text = _setup_position(grids, diff, extra="7H 7D")
    assert "GOLF6-SETUP-4" in _refused(text, diff)
    same = ["golf.remove-columns", "golf.reveal-same-column"]
    game = cardcore.new_game(
        "golf", 2, rules=same, position=_setup_position(grids, same, extra="7H 7D")
    )
    assert len(game.legal_actions(1)) == 6


def test_golf4_var_4_position_with_a_far_row_peek_is_refused() -> None:
    rules = ["golf.peek-nearest"]
    text = _setup_position(["7H@0 2S 3S@0 4S", "AH 2H 3H 9C"], rules, layout="4")
    assert "GOLF4-VAR-4" in _refused(text, rules, layout="4")
    fine = _setup_position(["7H 2S 3S@0 4S@0", "AH 2H 3H 9C"], rules, layout="4")
    game = cardcore.new_game("golf", 2, rules=rules, options={"layout": "4"}, position=fine)
    assert [str(a) for a in game.legal_actions(1)] == ["peek 2", "peek 3"]


@pytest.mark.parametrize(
    ("layout", "rule", "grid", "group"),
    [
        (6, "golf.remove-columns", "7H! 2S! 3S 7D! 5S 6S", "[0, 3]"),
        (10, "golf.remove-columns", "AS 2S 9S! 4S 5S 6S 7S 9H! 8S 10S", "[2, 7]"),
        (9, "golf.remove-triples", "7H! 7D! 7C! 2S 3S 4S 5S 6S 8S", "[0, 1, 2]"),
    ],
)
def test_a_removable_group_left_in_a_position_is_refused(
    layout: Any, rule: str, grid: str, group: str
) -> None:
    hearts = ["AH", "2H", "3H", "4H", "5H", "6H", "8H", "10H", "JH", "KH"]
    other = " ".join(hearts[: len(grid.split())])  # its first three face up: past the setup
    other = other.replace("AH 2H 3H", "AH! 2H! 3H!")
    text = _setup_position([grid, other], [rule], layout).replace('phase="setup"', 'phase="draw"')
    text = text.replace("turn=1", "turn=0")
    assert f"face-up cancelled group at positions {group}" in _refused(text, [rule], layout)
    cardcore.new_game("golf", 2, options={"layout": layout}, position=text)  # no rule: fine


def test_turns_count_what_could_end_the_round_and_saves_load_either_way() -> None:
    # without a cap only turns that could end the round are counted (as 0.3.0 did, so its
    # saves load); under max_turns every completed turn is
    game = golf(2, DECK)
    play(game, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 3"))
    play(game, (0, "draw"), (0, "discard"), (1, "draw"), (1, "discard"), (0, "draw"))
    assert " turns=0 " in game.position() and state(game).turns == 0
    loaded = cardcore.load(game.save())
    assert loaded.position() == game.position()
    capped = golf(2, DECK, options={"max_turns": 9})
    play(capped, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 3"))
    play(capped, (0, "draw"), (0, "discard"))
    assert capped.save()["state"]["turns"] == 1
    assert " turns=1 " in cardcore.load(capped.save()).position()


def test_golf4_var_4_search_samples_peeks_the_rule_allows() -> None:
    # a search agent deals the cards it cannot know and marks other seats' peeks: under
    # golf.peek-nearest only the near row, or the position reader refuses the sample
    for seed in range(4):
        options = {"layout": "4", "rounds": 1}
        game = cardcore.new_game("golf", 3, options=options, rules=["golf.peek-nearest"], seed=seed)
        play(game, (0, "peek 2"), (0, "peek 3"), (1, "peek 3"))
        agent = cardcore.load_agent("ismcts", seed=seed, iterations=8)
        game.apply(agent.choose(game.view(1), game.legal_actions(1)))
        assert game.to_act == (2,)
        game.apply(agent.choose(game.view(2), game.legal_actions(2)))
