"""Read review of positions (cardcore.positions and the Golf, Tonk and Spit readers).

Claims checked from docs/notation.rst ("Positions"), docs/embedding.rst ("Positions"),
docs/api.rst and the docstrings of cardcore.positions and each game's position module.
"""

from __future__ import annotations

import random

import pytest

import cardcore
from cardcore import OptionError
from cardcore.positions import MAX_POSITION, read_position, write_position

CONFIGS = [
    *[("golf", p, {"layout": lay}) for lay in ("6", "8", "10", "9", "4", "4h") for p in (2, 3)],
    ("tonk", 2, {}),
    ("tonk", 3, {}),
    ("spit", 2, {}),
]


def _positions(name, players, options, seed, steps=120):
    """Positions reached by random play (the finished one too, where reached)."""
    rng = random.Random(seed)
    game = cardcore.new_game(name, players, options=options, seed=seed)
    out = []
    for _ in range(steps):
        out.append(game.position())
        if game.is_over:
            break
        seats = [s for s in range(players) if game.view(s)["legal"]]
        if not seats:
            break
        seat = rng.choice(seats)
        game.act(seat, rng.choice(game.view(seat)["legal"]))
    return game, out


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_round_trip_of_random_play_positions(name, players, options):
    """Game.position then new_game(position=that) gives the same game (every view)."""
    positions = []
    for seed in (7, 8, 9, 10):
        positions += _positions(name, players, options, seed=seed)[1]
    assert len(positions) > 8
    for text in positions[::3] + positions[-1:]:
        copy = cardcore.new_game(name, players, options=options, position=text, seed=3)
        assert copy.position() == text
        original = cardcore.new_game(name, players, options=options, position=text, seed=99)
        for seat in [None, *range(players)]:
            assert copy.view(seat)["zones"] == original.view(seat)["zones"]
            assert copy.view(seat)["legal"] == original.view(seat)["legal"]


def test_round_trip_views_equal_the_live_game():
    """The started copy shows each seat exactly what the live game shows (Golf and Tonk)."""
    for name, players, options in (("golf", 3, {"layout": "6"}), ("tonk", 3, {})):
        game, _ = _positions(name, players, options, seed=11, steps=25)
        copy = cardcore.new_game(name, players, options=options, position=game.position(), seed=1)
        for seat in [None, *range(players)]:
            for key in ("zones", "legal", "to_act", "is_over", "table"):
                assert copy.view(seat)[key] == game.view(seat)[key], (name, seat, key)


def test_every_card_placed_once_after_reading():
    for name, players, options in CONFIGS[::3]:
        game, positions = _positions(name, players, options, seed=5, steps=30)
        copy = cardcore.new_game(name, players, options=options, position=positions[-1], seed=1)
        placed = sorted(str(c) for pile in copy._state.zones.cards for c in pile)
        deck = sorted(str(c) for c in game.logic.deck(players, game.options))
        assert placed == deck


def _refused(name, players, text, options=None):
    with pytest.raises(OptionError) as info:
        cardcore.new_game(name, players, options=options or {}, position=text, seed=1)
    message = str(info.value)
    assert message.startswith("bad position:"), message
    return message


GOLF = cardcore.new_game("golf", 2, seed=1).position()
TONK = cardcore.new_game("tonk", 2, seed=1).position()
SPIT = cardcore.new_game("spit", 2, seed=1).position()


def _first_card(text, pile):
    return text.split(f"{pile}: ", 1)[1].split()[0]


def test_missing_card_refused_naming_it():
    card = _first_card(GOLF, "stock")
    message = _refused("golf", 2, GOLF.replace(f"stock: {card} ", "stock: ", 1))
    assert f"missing ['{card}']" in message
    assert "CORE-POSITION-1" in message


def test_card_twice_refused_naming_it():
    card = _first_card(TONK, "stock")
    message = _refused("tonk", 2, TONK.replace("spreads:", f"spreads: {card}"))
    assert f"extra ['{card}']" in message


def test_card_of_another_deck_refused():
    assert "extra ['JK']" in _refused("spit", 2, SPIT.replace("pile.L:", "pile.L: JK!"))


def test_seat_out_of_range_refused():
    card = _first_card(GOLF, "stock")
    message = _refused("golf", 2, GOLF.replace(f"stock: {card} ", f"stock: {card}@5 ", 1))
    assert "'5' is not a seat of a 2-player game" in message
    assert "not a seat" in _refused(
        "golf", 2, GOLF.replace(f"stock: {card} ", f"stock: {card}@1234 ", 1)
    )


def test_unknown_and_repeated_piles_refused():
    assert "unknown pile 'pile'" in _refused("golf", 2, GOLF + " | pile: ")
    assert "appears twice" in _refused("golf", 2, GOLF + " | held: ")
    assert "piles missing: held" in _refused("golf", 2, GOLF.replace(" | held: |", " |"))


def test_impossible_phase_refused():
    assert "phase" in _refused("golf", 2, GOLF.replace('phase="setup"', 'phase="bogus"'))
    assert "phase" in _refused("golf", 2, GOLF.replace('phase="setup"', 'phase=["setup"]'))
    assert "phase" in _refused("tonk", 2, TONK.replace('phase="start"', 'phase={"a":1}'))
    assert "phase" in _refused("spit", 2, SPIT.replace('phase="setup"', 'phase="over"'))


def test_huge_numbers_refused_not_raised_raw():
    assert "10**15" in _refused(
        "golf", 2, GOLF.replace("totals=[0,0]", "totals=[1" + "0" * 5000 + ",0]")
    )
    assert "10**15" in _refused("tonk", 2, TONK.replace("chance=2", "chance=1e400"))
    assert "10**15" in _refused("spit", 2, SPIT.replace("stall=0", "stall=NaN"))
    assert "not compact JSON" in _refused("golf", 2, GOLF.replace("turns=0", "turns=" + "[" * 5000))


def test_unicode_look_alikes_refused():
    card = _first_card(GOLF, "stock")
    fullwidth = chr(0xFF21) + "S"  # a full-width A
    message = _refused("golf", 2, GOLF.replace(f"stock: {card} ", f"stock: {fullwidth} ", 1))
    assert "is not a card" in message
    seat = "\u0660"  # an Arabic-Indic zero is a digit, not an ASCII one
    assert "is not a seat" in _refused(
        "golf", 2, GOLF.replace(f"stock: {card} ", f"stock: {card}@{seat} ", 1)
    )
    assert "must start with the game's name" in _refused("golf", 2, "g\u043elf" + GOLF[4:])


def test_too_long_text_refused_unread():
    text = GOLF + " " * (MAX_POSITION + 1 - len(GOLF))
    assert len(text) == MAX_POSITION + 1
    assert f"at most {MAX_POSITION}" in _refused("golf", 2, text)
    padded = GOLF + " " * (MAX_POSITION - len(GOLF))  # exactly the limit: read
    assert cardcore.new_game("golf", 2, position=padded, seed=1).position() == GOLF


def test_wrong_game_name_refused():
    message = _refused("golf", 2, GOLF.replace("golf", "tonk", 1))
    assert message == "bad position: it must start with the game's name 'golf' (CORE-POSITION-1)"


def test_stock_card_marked_known_refused():
    """Docs: each game checks who may know each card (a stock card marked known)."""
    for name, text in (("golf", GOLF), ("tonk", TONK)):
        card = _first_card(text, "stock")
        message = _refused(name, 2, text.replace(f"stock: {card} ", f"stock: {card}@0 ", 1))
        assert "stock" in message


def test_spit_cards_marked_known_refused():
    card = _first_card(SPIT, "spit.0")
    assert "spit.0" in _refused("spit", 2, SPIT.replace(f"spit.0: {card}", f"spit.0: {card}!", 1))


def test_wrong_counts_refused():
    """A card moved from the stock into a hand breaks Tonk's hand size; Golf's grid size."""
    card = _first_card(TONK, "stock")
    moved = TONK.replace(f"stock: {card} ", "stock: ", 1).replace("hand.0: ", f"hand.0: {card} ", 1)
    assert "TONK-DEAL-1" in _refused("tonk", 2, moved)
    card = _first_card(GOLF, "stock")
    moved = GOLF.replace(f"stock: {card} ", "stock: ", 1).replace("grid.0: ", f"grid.0: {card} ", 1)
    assert "grid.0 must hold 6 cards" in _refused("golf", 2, moved)


def test_fields_and_piles_in_any_order_any_case_any_spacing():
    head, *piles = GOLF.split(" | ")
    words = head.split()
    shuffled = " ".join([words[0], *reversed(words[1:])])
    text = "\t|  ".join([shuffled, *reversed(piles)]).lower().replace("golf", "golf", 1)
    copy = cardcore.new_game("golf", 2, position=text, seed=1)
    assert copy.position() == GOLF


def test_finished_positions_read_back_in_golf_and_tonk_not_spit():
    for name, players in (("golf", 2), ("tonk", 2)):
        game = cardcore.new_game(name, players, seed=2)
        game.act(0, "resign")
        text = game.position()
        copy = cardcore.new_game(name, players, position=text, seed=1)
        assert copy.is_over and copy.position() == text
    spit = cardcore.new_game("spit", 2, seed=2)
    spit.act(0, "resign")
    assert "phase" in _refused("spit", 2, spit.position())


def test_spit_record_keeps_the_position():
    here = cardcore.new_game("spit", 2, seed=4).position()
    there = cardcore.new_game("spit", 2, position=here, seed=5)
    assert there.version == 0 and there.record()["position"] == here


def test_position_and_deck_together_refused():
    with pytest.raises(OptionError):
        cardcore.new_game("golf", 2, position=GOLF, deck=["AS"], seed=1)


def test_write_position_refuses_what_cannot_be_read_back():
    from cardcore.zones import Layout

    game = cardcore.new_game("golf", 2, seed=1)
    zones = game._state.zones
    with pytest.raises(OptionError, match="not JSON"):
        write_position("golf", {"x": float("nan")}, zones)
    with pytest.raises(OptionError, match="10\\*\\*15"):
        write_position("golf", {"x": 10**16}, zones)
    with pytest.raises(OptionError, match="identifier"):
        write_position("golf", {"a b": 1}, zones)
    text = write_position("golf", {"s": "a | b"}, zones)
    fields, _ = read_position(text, "golf", zones.layout, list(game.logic.deck(2, game.options)), 2)
    assert fields == {"s": "a | b"}
    assert isinstance(zones.layout, Layout)
