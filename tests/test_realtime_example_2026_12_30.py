"""The real-time example of the plugin guide (docs/plugin-guide/realtime.rst), run as code.

The page's ``.. testcode:: slapjack`` blocks, put one after another, are the whole plugin
(the page says so). Here they are read from the page itself, run as one module and
registered as ``slapjack``, so these tests check the very code a reader copies; Sphinx's
doctest build runs the page's own examples (tests/test_docs.py).
"""

from __future__ import annotations

import json
import re
import textwrap
import types
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore.testing import check_game

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGE = DOCS / "plugin-guide" / "realtime.rst"
NAME = "slapjack"
RANKS = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
FULL_DECK = Counter(f"{rank}{suit}" for rank in RANKS for suit in "CDHS")


def _testcode(text: str, group: str) -> list[str]:
    """The bodies of the page's ``.. testcode:: <group>`` blocks, dedented, in page order."""
    blocks: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == f".. testcode:: {group}":
            body: list[str] = []
            i += 1
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("   ")):
                body.append(lines[i])
                i += 1
            blocks.append(textwrap.dedent("\n".join(body)))
        else:
            i += 1
    return blocks


def _load() -> types.ModuleType:
    module = types.ModuleType("slapjack_docs_example_2026_12_30")
    for block in _testcode(PAGE.read_text(encoding="utf-8"), NAME):
        exec(compile(block, str(PAGE), "exec"), module.__dict__)
    return module


SLAPJACK = _load()


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    cardcore.register("cardcore.games", NAME, SLAPJACK)
    yield
    cardcore.unregister("cardcore.games", NAME)


def _cards(game: cardcore.Game) -> Counter[str]:
    """Every card on the table (privileged: the host's own look at the state)."""
    return Counter(str(card) for card in game.state.zones.all_cards())


def _raced() -> cardcore.Game:
    """The page's race: Ann flips 5C, Bob flips JH, Ann's slap (seen=2) wins the pile."""
    game = cardcore.new_game(NAME, ["Ann", "Bob"], deck="5C JH", seed=1)
    game.act(0, "flip", at=0.5)
    game.act(1, "flip", at=1.0)
    game.act(0, "slap JH", at=1.3, seen=2)
    return game


# --- the page's code is a complete plugin ------------------------------------------------


def test_the_page_holds_the_whole_plugin_and_the_guide_links_it() -> None:
    assert len(_testcode(PAGE.read_text(encoding="utf-8"), NAME)) == 5
    assert SLAPJACK.GAME.name == NAME and SLAPJACK.GAME.realtime is True
    assert (SLAPJACK.GAME.min_players, SLAPJACK.GAME.max_players) == (2, 4)
    assert NAME in cardcore.available_games()
    index = (DOCS / "plugin-guide" / "index.rst").read_text(encoding="utf-8")
    assert re.search(r"^\s+realtime\s*$", index, re.M)
    assert ":doc:`realtime`" in (DOCS / "plugin-guide" / "game.rst").read_text(encoding="utf-8")


def test_the_deal_is_dealt_in_flip_order_and_every_seat_takes_part() -> None:
    game = cardcore.new_game(NAME, 3, deck="5C JH 2D 9S", seed=1)
    assert game.to_act == (0, 1, 2)
    assert game.view(None)["table"] == {"turn": 0, "counts": [18, 17, 17]}
    assert _cards(game) == FULL_DECK
    flipped = []
    for seat in (0, 1, 2, 0):
        game.act(seat, "flip")
        flipped.append(game.view(None)["zones"][0]["cards"][0])
        if flipped[-1] == "JH":
            assert game.view(0)["legal"] == ["slap JH"]  # any seat may slap, not only the turn's
    assert flipped == ["5C", "JH", "2D", "9S"]


def test_stacks_are_hidden_from_everyone_the_owner_too() -> None:
    game = _raced()  # the won pile went face down, shuffled, under Ann's stack
    for viewer in (0, 1, None):
        for zone in game.view(viewer)["zones"][1:]:
            assert set(zone["cards"]) == {None}


# --- who may act, stale and illegal ---------------------------------------------------------


def test_a_flip_out_of_turn_is_illegal_citing_the_game_rule_and_changes_nothing() -> None:
    game = cardcore.new_game(NAME, 2, deck="5C JH", seed=1)
    before = (game.position(), game.version, game.record())
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(1, "flip")
    assert info.value.rule_id == "SLAP-FLIP-1"
    assert not isinstance(info.value, cardcore.StaleActionError)
    assert str(info.value) == "it is seat 0's flip (SLAP-FLIP-1)"
    assert (game.position(), game.version, game.record()) == before


def test_the_second_slap_on_the_same_view_is_stale_and_changes_nothing() -> None:
    game = _raced()
    before = (game.position(), game.version, game.record())
    with pytest.raises(cardcore.StaleActionError) as info:
        game.act(1, "slap JH", at=1.35, seen=2)
    assert info.value.rule_id == "CORE-RT-1"
    assert "legal at version 2 but another action came first (now version 3)" in str(info.value)
    assert (game.position(), game.version, game.record()) == before
    # without seen, the same late slap is judged against the current state only: illegal
    with pytest.raises(cardcore.IllegalActionError) as plain:
        game.act(1, "slap JH", at=1.35)
    assert not isinstance(plain.value, cardcore.StaleActionError)
    assert plain.value.rule_id == "SLAP-SLAP-1"


def test_a_slap_never_legal_is_illegal_not_stale() -> None:
    game = _raced()
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(1, "slap 5C", at=1.4, seen=2)
    assert not isinstance(info.value, cardcore.StaleActionError)
    assert str(info.value) == "a slap names the jack on top of the pile (SLAP-SLAP-1)"


def test_an_earlier_stamp_arriving_later_is_refused_not_re_sorted() -> None:
    game = _raced()
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(0, "flip", at=1.2)
    assert info.value.rule_id == "CORE-RECORD-1"
    assert game.record()["actions"] == [[0, "flip", 0.5], [1, "flip", 1.0], [0, "slap JH", 1.3]]
    assert game.view(None)["table"] == {"turn": 0, "counts": [27, 25]}


def test_a_seat_out_of_cards_leaves_to_act_and_is_refused_by_the_game_rule() -> None:
    game = cardcore.new_game(NAME, 3, seed=2)
    while len(game.to_act) == 3:  # seat 1 slaps every jack; the others only flip
        legal = [str(a) for a in game.legal_actions(1)]
        slap = next((text for text in legal if text.startswith("slap")), None)
        if slap is not None:
            game.act(1, slap)
        else:
            turn = game.view(None)["table"]["turn"]
            game.act(turn, "flip")
        assert sum(z["count"] for z in game.view(None)["zones"]) == 52
    out = ({0, 1, 2} - set(game.to_act)).pop()
    assert out != 1 and game.view(None)["table"]["counts"][out] == 0
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(out, "flip")
    assert info.value.rule_id == "SLAP-OUT-1"
    assert str(info.value) == f"seat {out} is out of cards (SLAP-OUT-1)"


# --- the virtual clock ----------------------------------------------------------------------


def test_the_page_game_played_on_ends_with_ann_the_winner_and_every_card_kept() -> None:
    game = _raced()
    counts: list[int] = []

    def watch(game: cardcore.Game, action: cardcore.Action, at: float) -> None:
        counts.append(sum(z["count"] for z in game.view(None)["zones"]))

    result = cardcore.run_realtime(
        game, [SLAPJACK.Slapper(0.2), SLAPJACK.Slapper(0.3)], seed=1, on_action=watch
    )
    assert result.winners == (0,) and result.reason == "last seat in"
    assert result.scores == (44.0, 0.0)
    assert game.is_over and game.to_act == ()
    assert counts and set(counts) == {52}
    assert _cards(game) == FULL_DECK
    times = [at for _, _, at in game.record()["actions"]]
    assert all(at is not None for at in times) and times == sorted(times)
    record = json.loads(json.dumps(game.record()))
    again = cardcore.replay(record)
    assert again.position() == game.position() and again.result == game.result


def test_same_seed_same_game() -> None:
    def play() -> dict[str, Any]:
        game = cardcore.new_game(NAME, 3, seed=2)
        agents = [SLAPJACK.Slapper(0.3), SLAPJACK.Slapper(0.2), SLAPJACK.Slapper(0.4)]
        cardcore.run_realtime(game, agents, seed=2)
        return game.record()

    assert play() == play()


def test_the_quicker_slapper_wins_wherever_it_sits() -> None:
    wins = 0
    for seed in range(6):
        fast = seed % 3
        agents = [SLAPJACK.Slapper(0.2 if s == fast else 0.35) for s in range(3)]
        game = cardcore.new_game(NAME, 3, seed=seed)
        result = cardcore.run_realtime(game, agents, seed=seed)
        assert result.reason == "last seat in" and _cards(game) == FULL_DECK
        wins += result.winners == (fast,)
    assert wins == 6


def test_the_turn_based_runner_refuses_it() -> None:
    game = cardcore.new_game(NAME, 2, seed=1)
    with pytest.raises(cardcore.OptionError, match="real-time game: use run_realtime"):
        cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])


# --- the conformance kit ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_conformance_kit(players: int) -> None:
    report = check_game(NAME, players=players, games=1, seed=3)
    assert report.ok, report
    assert report.cards_lost == 0 and report.leaks == 0
    assert sorted(report.skipped) == ["scores"]  # Slapjack scores no rounds
