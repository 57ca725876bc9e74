"""Tonk's position notation: written, read back exactly, validated, and stacking every deal."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.games.tonk.helpers import NATURAL, hand, last_hand, stacked, state_of, tonk

import cardcore
from cardcore import OptionError
from cardcore_tonk.position import stack_deals

H20 = "10S 4H 3D 2C AS"
H15 = "5D 4C 3H 2D AD"
H30 = "10H 6S 7C 3C 4D"
HOUSE = (
    "tonk.double-needs-spread",
    "tonk.hit-blocks-drop",
    "tonk.must-lay-down",
    "tonk.no-upcard",
    "tonk.stock-out-discard-only",
)


def _same_game_from(game: cardcore.Game, position: str, seed: int) -> cardcore.Game:
    return cardcore.new_game(
        "tonk",
        list(game.players),
        rules=[r for r in game.rules if r != NATURAL],
        without=() if NATURAL in game.rules else (NATURAL,),
        options=dict(game.options),
        position=position,
        seed=seed,
    )


def _views(game: cardcore.Game) -> list[dict[str, Any]]:
    out = []
    for seat in [None, *range(len(game.players))]:
        view = game.view(seat)
        del view["version"]  # a game started from a position counts its own actions
        out.append(view)
    return out


def _step(game: cardcore.Game, rng: random.Random) -> None:
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    if len(legal) > 1 and str(legal[0]) == "drop" and rng.random() < 0.9:
        legal = legal[1:]  # drop rarely, so hands run long
    game.apply(legal[int(rng.random() * len(legal))])


@pytest.mark.parametrize("seed", range(12))
def test_tonk_note_2_position_reproduces_mid_game_positions(seed: int) -> None:
    rng = random.Random(seed)
    players = 2 + seed % 3
    rules = [r for r in HOUSE if rng.random() < 0.4]
    game = cardcore.new_game(
        "tonk", players, seed=seed, rules=rules, options={"hands": 3, "stake": 2, "max_players": 4}
    )
    checked = 0
    while True:
        position = game.position()
        copy = _same_game_from(game, position, seed=game.seed)
        assert copy.position() == position
        assert _views(copy) == _views(game)
        for seat in range(players):
            assert copy.legal_actions(seat) == game.legal_actions(seat)
        checked += 1
        if game.is_over:  # the finished session too: its result travels in the position
            assert copy.result == game.result and copy.is_over
            break
        _step(game, rng)
    assert checked > 10


def test_position_of_a_resigned_session() -> None:
    game = tonk([H20, H15, H30], stock="9D", hands=3)
    game.act(0, "drop")
    game.act(0, "deal")
    game.act(1, "draw")
    game.act(2, "resign")
    position = game.position()
    assert 'result={"winners":[0,1],"reason":"resigned"}' in position
    copy = _same_game_from(game, position, seed=1)
    assert copy.result == game.result and _views(copy) == _views(game)


def test_position_with_the_same_seed_continues_the_same_session() -> None:
    rng = random.Random(5)
    game = cardcore.new_game("tonk", 3, seed=77, options={"hands": 4})
    for _ in range(7):
        _step(game, rng)
    copy = _same_game_from(game, game.position(), seed=game.seed)
    while not game.is_over:
        assert copy.position() == game.position()
        seat = game.to_act[0]
        pick = int(rng.random() * len(game.legal_actions(seat)))
        game.apply(game.legal_actions(seat)[pick])
        copy.apply(copy.legal_actions(seat)[pick])
    assert copy.result == game.result
    # the copy's history starts at the position: the cut, then the hands finished after it
    assert [e["kind"] for e in copy.history(None)][:1] == ["cut"]
    assert copy.history(None)[-1] == game.history(None)[-1]


def test_position_records_replay() -> None:
    game = tonk([H20, H15, H30], stock="9D 8H", hands=2)
    game.act(0, "draw")
    copy = _same_game_from(game, game.position(), seed=3)
    copy.act(0, "discard 9D")
    again = cardcore.replay(copy.record())
    assert again.record()["position"] == game.position()
    assert again.view(1) == copy.view(1)


def _replace(position: str, old: str, new: str) -> str:
    assert old in position, old
    return position.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "match"),
    [
        ('phase="start"', 'phase="over"', "needs its result"),
        ("chance=", 'result={"winners":[1],"reason":"out"} chance=', "phase 'over'"),
        (
            'played=0 dealer=2 turn=0 phase="start"',
            'played=1 dealer=2 turn=0 phase="between"',
            "turn must equal dealer",
        ),
        ("played=0", "played=2", "played must be"),
        ("turn=0", "turn=3", "turn must be"),
        ("balances=[0,0,0]", "balances=[1,0,0]", "summing to zero"),
        ("chance=", "extra=1 chance=", "unknown"),
        ("balances=[0,0,0] ", "", "missing"),
        ("chance=", 'taken="10S" chance=', "taken"),
        ("chance=", "laid=true chance=", "touched"),
        ("hand.0: 10S", "hand.0: 5D 10S", "exactly once"),
        ("hand.0: 10S", "hand.0: ", "exactly once"),
        ("chance=", "hit=[5] chance=", "seats"),
        ("chance=", "spreads=[[3,0]] chance=", "spreads"),
        ("chance=", "quiet=-1 chance=", "quiet"),
    ],
)
def test_tonk_note_2_position_is_validated(old: str, new: str, match: str) -> None:
    game = tonk([H20, H15, H30], stock="9D 8H", hands=2)
    position = _replace(game.position(), old, new)
    with pytest.raises(OptionError, match=match):
        _same_game_from(game, position, seed=1)


def test_position_validates_hands_spreads_and_the_stock() -> None:
    game = tonk(["5H 6H 7H 9C 9D", H15, H30], stock="9S 2S", hands=2)
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    position = game.position()
    copy = _same_game_from(game, position, seed=1)
    assert copy.view(1)["table"]["spreads"] == game.view(1)["table"]["spreads"]
    # a spread that is no book or run
    bad = _replace(position, "spreads: 5H! 6H! 7H!", "spreads: 5H! 6H! 9S!")
    bad = _replace(bad, "9S", "7H")
    with pytest.raises(OptionError, match="not a book or a run"):
        _same_game_from(game, bad, seed=1)
    # seven cards in the hand of the seat playing its turn
    seven = _replace(position, "hand.1:", "hand.1: 5H!")
    seven = _replace(seven, "hand.0: ", "hand.0: 7C 7H ")
    seven = seven.replace("spreads: 5H! 6H! 7H!", "spreads: 6H!")
    with pytest.raises(OptionError, match=r"\(CORE-POSITION-1\)"):
        _same_game_from(game, seven, seed=1)
    # a turn may not begin with an empty stock (TONK-STOCK-1): move the stock under the discards
    start = tonk([H20, H15, H30], hands=2).position()
    head, rest = start.split(" | stock: ")
    stock, rest = rest.split(" | discard: ")
    empty = f"{head} | stock: | discard: {' '.join(c + '!' for c in stock.split())} {rest}"
    with pytest.raises(OptionError, match="TONK-STOCK-1"):
        _same_game_from(game, empty, seed=1)


def test_tonk_note_2_stack_every_deal_of_a_session() -> None:
    # hand 1 dealt from deck= (seat 2 deals); hands 2 and 3 stacked through the position
    second = stacked(["AS AH AC 2S 2H", H15, H30])  # dealer 0 deals: seats 1, 2, 0
    third = stacked(["KS KH KD QS QH", H20, "5H 6H 7H 8H 9H"], upcard="JC")  # seats 2, 0, 1
    game = tonk([H20, H15, H30], hands=3)
    position = stack_deals(game.position(), [second, third])
    session = _same_game_from(game, position, seed=9)
    assert session.position() == position
    session.act(0, "drop")
    session.act(0, "deal")  # seat 0 deals hand 2 from the stacked top
    assert hand(session, 1) == sorted_hand("AS AH AC 2S 2H")
    session.act(1, "drop")
    session.act(1, "deal")  # seat 1 deals hand 3
    assert hand(session, 2) == sorted_hand("KS KH KD QS QH")
    assert hand(session, 0) == sorted_hand(H20)
    assert session.view(0)["table"]["discard_top"] == "JC"
    # more stacked deals than the session has left is an error
    with pytest.raises(OptionError, match="at most 2 coming deals"):
        _same_game_from(game, stack_deals(position, [second, second, second]), seed=9)


def sorted_hand(text: str) -> list[str]:
    from cardcore_tonk.melds import index_of

    return [str(c) for c in sorted(cardcore.parse_cards(text), key=index_of)]


def test_tonk_note_2_stack_the_dealer_cut() -> None:
    game = tonk([H20, H15, H30], hands=2)  # seat 2 deals (first_dealer)
    position = game.position()
    assert "cut=" not in position
    cut = 'cut=[["7","K","K"],[null,"3","9"]] '
    stacked_cut = _replace(position, "chance=", cut + "chance=")
    session = _same_game_from(game, stacked_cut, seed=1)
    assert session.history(None) == [
        {"kind": "cut", "dealer": 2, "rounds": [["7", "K", "K"], [None, "3", "9"]]}
    ]
    session.act(0, "drop")
    assert [e["kind"] for e in session.history(None)] == ["cut", "hand"]
    assert session.history(None, since=1) == [last_hand(session)]
    # the deal passes left after every deal: with no deal that can be void (the natural rule
    # is off here), the cut's dealer dealt hand 1 (TONK-DEALER-1/2)
    seat_1_first = 'cut=[["7","K","9"]] chance='
    with pytest.raises(OptionError, match=r"cut chose seat 1 .*not 2 \(TONK-DEALER-1/2\)"):
        _same_game_from(game, _replace(position, "chance=", seat_1_first), seed=1)
    # a void deal passes the deal without a hand: with the natural rule any seat may deal now
    natural = tonk([H20, H15, H30], hands=2, natural=True)
    other = _same_game_from(natural, _replace(natural.position(), "chance=", seat_1_first), seed=1)
    assert other.history(None)[0]["dealer"] == 1
    for wrong, match in (
        ('cut=[["7","K","K"]] ', "one seat alone"),
        ('cut=[["7","K","K"],["2","3","9"]] ', "seats"),
        ('cut=[["K","K","K"],["K","K","9"],["8","9",null]] ', "more than four"),
        ('cut=[["7","Z","9"]] ', "rank"),
    ):
        with pytest.raises(OptionError, match=match):
            _same_game_from(game, _replace(position, "chance=", wrong + "chance="), seed=1)


def test_position_state_matches_the_original_slot_by_slot() -> None:
    game = tonk(["5H 6H 7H KC QD", "4H 8H 9H 2S 2D", H30], upcard="3S", stock="AC 2H", hands=2)
    for text in ("draw", "spread 5H 6H 7H", "discard KC"):
        game.act(0, text)
    game.act(1, "take")
    game.act(1, "hit 1 4H")
    copy = _same_game_from(game, game.position(), seed=game.seed)
    a, b = state_of(game), state_of(copy)
    for name in ("hand_no", "dealer", "turn", "phase", "taken", "melds", "owners", "targets"):
        assert getattr(a, name) == getattr(b, name), name
    for name in ("spread_made", "touched", "quiet_turns", "was_hit", "draws", "to_act"):
        assert getattr(a, name) == getattr(b, name), name
    assert a.zones.snapshot() == b.zones.snapshot()
    assert a.ledger.totals == b.ledger.totals


def test_tonk_note_2_a_cut_rank_that_is_not_text_is_a_bad_position() -> None:
    game = cardcore.new_game("tonk", 2, seed=3)
    text = game.position()
    assert 'cut=[["' in text
    start = text.index("cut=[[") + len("cut=[[")
    hostile = text[:start] + '{"a":1},' + text[text.index(",", start) + 1 :]
    with pytest.raises(cardcore.OptionError, match="TONK-DEALER-1"):
        cardcore.new_game("tonk", 2, position=hostile, seed=1)
