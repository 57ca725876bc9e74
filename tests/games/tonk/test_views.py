"""Tonk's declared view fields, and the history kept apart from the view."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from tests.games.tonk.helpers import NATURAL, tonk

import cardcore
from cardcore_tonk.views import FIELDS

H20 = "10S 4H 3D 2C AS"
H15 = "5D 4C 3H 2D AD"
H30 = "10H 6S 7C 3C 4D"


def _is_card(value: Any) -> bool:
    return isinstance(value, str) and str(cardcore.Card.parse(value)) == value


def _check_kind(kind: str, of: str, value: Any, players: int) -> None:
    if value is None:
        assert kind in ("card", "seat"), kind  # no card there, or no seat
    elif kind == "int":
        assert isinstance(value, int) and not isinstance(value, bool)
    elif kind == "str":
        assert isinstance(value, str)
    elif kind == "bool":
        assert isinstance(value, bool)
    elif kind == "seat":
        assert isinstance(value, int) and 0 <= value < players
    elif kind == "card":
        assert _is_card(value)
    elif kind == "cards":
        assert isinstance(value, list) and all(_is_card(c) for c in value)
    elif kind == "per-seat":
        assert isinstance(value, list) and len(value) == players
        for entry in value:
            _check_kind(of, "", entry, players)
    else:
        assert kind == "json"
        json.dumps(value)


def test_tonk_view_1_every_table_key_is_declared_with_its_kind() -> None:
    info = cardcore.game_info("tonk")
    assert info.fields == FIELDS
    by_name = {f.name: f for f in FIELDS}
    assert by_name["hand"].kind == "cards"  # your own hand: never a per-seat list
    assert by_name["hand_sizes"].kind == "per-seat" and by_name["hand_sizes"].of == "int"
    assert by_name["balances"].kind == "per-seat" and by_name["balances"].of == "int"
    rng = random.Random(3)
    for players in (2, 3, 4):
        game = cardcore.new_game(
            "tonk", players, seed=players, options={"hands": 3, "max_players": 4}
        )
        assert [f["name"] for f in game.view_schema()["fields"]] == [f.name for f in FIELDS]
        while not game.is_over:
            for seat in [None, *range(players)]:
                table = game.view(seat)["table"]
                assert list(table) == [f.name for f in FIELDS]
                for f in FIELDS:
                    _check_kind(f.kind, f.of, table[f.name], players)
                if seat is None:
                    assert table["hand"] == [] and table["total"] == 0
            legal = game.legal_actions(game.to_act[0])
            game.apply(legal[int(rng.random() * len(legal))])


def test_tonk_view_1_history_holds_the_cut_and_every_finished_hand() -> None:
    game = cardcore.new_game("tonk", 3, seed=8, without=(NATURAL,), options={"hands": 30})
    first = game.view(0)["table"]
    cut = game.history(0)
    assert len(cut) == 1 and cut[0]["kind"] == "cut" and cut[0]["dealer"] == first["dealer"]
    sizes = []
    while not game.is_over:
        table = game.view(1)["table"]
        if table["phase"] == "between":
            sizes.append(len(json.dumps(game.view(1))))
            game.act(game.to_act[0], "deal")
        else:
            game.act(game.to_act[0], "drop")
    hands = game.history(2)
    assert [e["hand"] for e in hands[1:]] == list(range(1, 31))
    assert all(e["kind"] == "hand" and e["reason"].startswith("drop") for e in hands[1:])
    assert all(e["shown"] is not None and len(e["totals"]) == 3 for e in hands[1:])
    assert hands[-1]["balances"] == game.view(0)["table"]["balances"]
    assert game.history(0, since=29) == hands[29:]
    assert game.history(None, since=31) == [] and game.history(None) == hands
    # the view does not grow with the hands played: only the history does
    assert max(sizes) - min(sizes) < 40


def test_tonk_view_1_history_shows_only_hands_that_were_shown() -> None:
    game = tonk(["5H 6H 7H 9C 9D", H15, H30], stock="9S", hands=2)
    for text in ("draw", "spread 5H 6H 7H", "spread 9S 9C 9D"):
        game.act(0, text)
    (entry,) = game.history(1)
    assert entry["reason"] == "tonk-out" and entry["shown"] is None and entry["totals"] is None
    game.act(0, "deal")  # seat 2 dealt the first hand
    assert game.view(1)["table"]["hand_number"] == 2


def test_reads_are_pure() -> None:
    game = tonk([H20, H15, H30], stock="9D 8H", hands=2)
    game.act(0, "draw")
    before = (game.position(), game.version, game.history(None))
    for seat in (None, 0, 1, 2):
        game.view(seat)
        game.history(seat)
    for seat in (0, 1, 2):
        game.legal_actions(seat)
    assert (game.position(), game.version, game.history(None)) == before
    with pytest.raises(cardcore.IllegalActionError, match="CORE-SEAT-1"):
        game.legal_actions(3)
    # acting on what was shown: the view's version goes with the action
    view = game.view(0)
    game.act(0, "discard 9D", seen=view["version"])
    assert game.view(1)["table"]["discard_top"] == "9D"


def test_tonk_view_1_shown_marks_the_hands_turned_face_up() -> None:
    """``shown`` says which hands lie face up: none in play, every hand after a drop, only
    the holder's after a natural (the history's ``shown`` names the same seats)."""
    natural = drop = None
    for seed in range(400):
        game = cardcore.new_game("tonk", 3, seed=seed, options={"hands": 2})
        phase = game.view(None)["table"]["phase"]
        if phase == "start":
            assert game.view(0)["table"]["shown"] == [False, False, False]
            if drop is None:
                game.act(game.to_act[0], "drop")
                drop = game
        elif natural is None:
            natural = game
        if natural is not None and drop is not None:
            break
    assert natural is not None and drop is not None
    for game in (natural, drop):
        entry = game.history(None, since=0)[-1]
        wanted = [h is not None for h in entry["shown"]]
        assert any(wanted)
        for seat in (None, 0, 1, 2):
            assert game.view(seat)["table"]["shown"] == wanted
    assert drop.view(0)["table"]["shown"] == [True, True, True]
    assert natural.view(0)["table"]["shown"].count(True) == 1
    natural.act(natural.to_act[0], "deal")
    assert natural.view(0)["table"]["shown"] == [False, False, False]
