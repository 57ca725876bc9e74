"""Uno as a third-party plugin written from the published docs only (registered in place).

Rule tests from positions (every card placed, no random deal relied on), the
conformance kit, hidden hands in views/events/errors, save/load/replay, bad input,
the generic RL environment, and what the docs left out: cardcore's cards are French
cards only, so Uno's 108 cards are encoded (see the plugin's docstring).
"""

from __future__ import annotations

import json
import re
import types
from collections import Counter
from collections.abc import Iterator

import pytest

import cardcore
from cardcore import (
    ArgumentError,
    Card,
    Event,
    IllegalActionError,
    NotationError,
    OptionError,
    Rank,
    Suit,
)
from cardcore.testing import check_game
from tests.plugins import uno_2026_12_18 as uno

NAME = "uno"


@pytest.fixture
def game_registered() -> Iterator[None]:
    cardcore.register("cardcore.games", NAME, uno)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.games", NAME)


pytestmark = pytest.mark.usefixtures("game_registered")


def code(word: str) -> str:
    """The French code of an Uno word (``R7`` -> ``7H``, ``W`` -> ``JK``)."""
    return "JK" if word == "W" else str(uno.card_of(word))


def position(
    hands: list[list[str]],
    top: str,
    *,
    colour: str | None = None,
    to_act: int = 0,
    direction: int = 1,
    fours: list[int] | None = None,
    stock_top: list[str] = (),  # type: ignore[assignment]
    drawn: str | None = None,
) -> str:
    """A position: *hands* in Uno words (``W`` a joker), *top* on the discard pile,
    *stock_top* on top of the stock (top last), every other card under it."""
    players = len(hands)
    rest = Counter(str(c) for c in uno.build_uno_deck())
    named = [code(w) for h in hands for w in h] + [code(top)] + [code(w) for w in stock_top]
    rest.subtract(named)
    assert min(rest.values()) >= 0, "a card named more often than the deck holds it"
    stock = sorted(rest.elements()) + [code(w) for w in stock_top]
    fours = fours or [0] * players
    top_four = False
    pile_fours = 1 if top == "W4" else 0
    if top == "W4":
        top, top_four = "W", True
    colour = colour or top[0]
    fields = {
        "to_act": [to_act],
        "colour": colour,
        "direction": direction,
        "drawn": drawn,
        "fours": fours,
        "stock_fours": 4 - sum(fours) - pile_fours,
        "pile_fours": pile_fours,
        "top_four": top_four,
    }
    head = "uno " + " ".join(
        f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in fields.items()
    )
    piles = [
        "stock: " + " ".join(stock),
        "discard: " + code(top) + "!",
        *[f"hand.{s}: " + " ".join(f"{code(w)}@{s}" for w in h) for s, h in enumerate(hands)],
    ]
    return " | ".join([head, *piles])


def start(hands: list[list[str]], top: str, **kwargs: object) -> cardcore.Game:
    return cardcore.new_game(NAME, len(hands), position=position(hands, top, **kwargs), seed=1)


# --- the deck ----------------------------------------------------------------------------


def test_uno_deck_1_108_cards_in_the_uno_counts() -> None:
    game = cardcore.new_game(NAME, 2, seed=1)
    deck = game.logic.deck(2, game.options)
    assert len(deck) == 108
    words = Counter(uno.word_of(c) for c in deck)
    assert words["W"] == 8
    for colour in uno.COLOURS:
        assert words[colour + "0"] == 1
        assert all(words[colour + s] == 2 for s in uno.SYMBOLS[1:])


def test_uno_deck_2_core_cards_are_french_only_53_codes() -> None:
    """Claim that holds (api.rst: Card is a rank and a suit, or the joker): a 54th card
    kind, needed to tell Wild from Wild Draw Four, cannot be built."""
    with pytest.raises(ArgumentError):
        Card(Rank.JOKER, Suit.HEARTS)
    with pytest.raises(ArgumentError):
        Card(Rank.ACE, None)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="CORE-NOTATION-2"):
        Card.parse("W4")
    assert len({str(c) for c in cardcore.with_jokers(cardcore.standard_52(), 2)}) == 53


def test_uno_deck_2_wild_kinds_conserved_in_a_seeded_game() -> None:
    game = cardcore.new_game(NAME, 3, seed=5)
    agents = [cardcore.RandomAgent(seed=s) for s in range(3)]
    while not game.is_over and game.version < 300:
        seat = game.to_act[0]
        game.act(seat, str(agents[seat].choose(game.view(seat), game.legal_actions(seat))))
        st = game.state
        assert sum(st.fours) + st.stock_fours + st.pile_fours == 4


# --- rules -------------------------------------------------------------------------------


def stacked(hands: list[list[str]], then: list[str]) -> str:
    """A deck, top first: *hands* (7 words each) dealt one at a time, then *then*."""
    dealt = [code(hands[s][k]) for k in range(7) for s in range(len(hands))]
    rest = Counter(str(c) for c in uno.build_uno_deck())
    named = dealt + [code(w) for w in then]
    rest.subtract(named)
    return " ".join([*named, *sorted(rest.elements())])


def test_uno_deal_1_seven_each_one_at_a_time() -> None:
    hands = [["R1", "R2", "R3", "R4", "R5", "R6", "R7"], ["B1", "B2", "B3", "B4", "B5", "B6", "B7"]]
    game = cardcore.new_game(NAME, 2, deck=stacked(hands, ["G5"]), seed=3)
    assert sorted(game.view(0)["table"]["words"]) == hands[0]
    assert sorted(game.view(1)["table"]["words"]) == hands[1]
    assert game.view(None)["table"]["top"] == "G5" and game.to_act == (0,)


def test_uno_start_1_a_wild_starter_goes_under_the_stock() -> None:
    hands = [["R1", "R2", "R3", "R4", "R5", "R6", "R7"], ["B1", "B2", "B3", "B4", "B5", "B6", "B7"]]
    game = cardcore.new_game(NAME, 2, deck=stacked(hands, ["W", "W", "G5"]), seed=3)
    assert game.view(None)["table"]["top"] == "G5"
    assert [str(c) for c in game.state.zones.cards[0][:2]] == ["JK", "JK"]  # the bottom


def test_uno_start_2_a_draw_two_starter_hits_seat_0() -> None:
    hands = [["R1", "R2", "R3", "R4", "R5", "R6", "R7"], ["B1", "B2", "B3", "B4", "B5", "B6", "B7"]]
    game = cardcore.new_game(NAME, 2, deck=stacked(hands, ["GD"]), seed=3)
    assert [z["count"] for z in game.view(None)["zones"][2:]] == [9, 7]
    assert game.to_act == (1,)


def test_uno_seat_1_eleven_players_refused() -> None:
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, 11, seed=1)


def test_uno_match_1_colour_or_symbol() -> None:
    game = start([["R2", "G7", "B3", "Y9", "W"], ["R5"]], "R7", fours=[0, 0])
    legal = game.view(0)["legal"]
    assert legal[:2] == ["play R2", "play G7"]
    assert "play B3" not in legal and "play Y9" not in legal
    assert legal[-1] == "draw"
    with pytest.raises(IllegalActionError, match="UNO-MATCH-1"):
        game.act(0, "play B3")


def test_uno_wild_1_names_the_colour() -> None:
    game = start([["W", "B3"], ["R5", "G5"], ["Y1"]], "R7")
    game.act(0, "wild B")
    assert game.view(1)["table"]["colour"] == "B"
    assert game.to_act == (1,)
    assert "play R5" not in game.view(1)["legal"]


def test_uno_skip_1_next_loses_turn() -> None:
    game = start([["RS", "B3"], ["R5"], ["Y1"]], "R7")
    game.act(0, "play RS")
    assert game.to_act == (2,)


def test_uno_rev_1_three_players_turns_back() -> None:
    game = start([["RR", "B3"], ["R5"], ["Y1"]], "R7")
    game.act(0, "play RR")
    assert game.to_act == (2,) and game.view(2)["table"]["direction"] == -1


def test_uno_rev_1_two_players_acts_as_skip() -> None:
    game = start([["RR", "B3"], ["R5"]], "R7")
    game.act(0, "play RR")
    assert game.to_act == (0,)


def test_uno_draw2_1_next_draws_two_and_is_skipped() -> None:
    game = start([["RD", "B3"], ["R5"], ["Y1"]], "R7")
    game.act(0, "play RD")
    assert game.view(1)["zones"][3]["count"] == 3
    assert game.to_act == (2,)


def test_uno_wild4_1_next_draws_four_and_is_skipped() -> None:
    game = start([["W", "B3"], ["R5"], ["Y1"]], "R7", fours=[1, 0, 0])
    assert game.view(0)["legal"] == [f"wild4 {c}" for c in "RYGB"] + ["draw"]
    game.act(0, "wild4 G")
    assert game.view(1)["zones"][3]["count"] == 5
    assert game.to_act == (2,) and game.view(2)["table"]["colour"] == "G"
    assert game.view(2)["table"]["top"] == "W4"


def test_uno_draw_1_may_draw_while_holding_a_play() -> None:
    game = start([["R2", "B3"], ["R5"]], "R7", stock_top=["G9"])
    game.act(0, "draw")
    assert game.view(0)["legal"] == ["pass"]  # G9 does not match
    assert game.view(0)["table"]["drawn"] == "card"
    with pytest.raises(IllegalActionError, match="UNO-DRAW-2"):
        game.act(0, "play R2")


def test_uno_draw_2_drawn_card_may_be_played() -> None:
    game = start([["B3", "B4"], ["R5"]], "R7", stock_top=["R9"])
    game.act(0, "draw")
    assert game.view(0)["legal"] == ["play R9", "pass"]
    game.act(0, "play R9")
    assert game.to_act == (1,) and game.view(1)["table"]["top"] == "R9"


def test_uno_draw_2_pass_only_after_a_draw() -> None:
    game = start([["B3", "B4"], ["R5"]], "R7")
    with pytest.raises(IllegalActionError, match="UNO-DRAW-2"):
        game.act(0, "pass")


def test_uno_turn_1_other_seat_refused() -> None:
    game = start([["B3", "B4"], ["R5"]], "R7")
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(1, "play R5")


def test_uno_end_1_and_score_1_points_in_other_hands() -> None:
    # seat 1: 5 + 20 (skip) + 50 (wild) = 75; seat 2: 0 + 20 (draw two) = 20
    game = start([["R2"], ["B5", "GS", "W"], ["Y0", "BD"]], "R7")
    game.act(0, "play R2")
    assert game.is_over
    assert game.result.winners == (0,)
    assert list(game.result.scores) == [95, 0, 0]


def test_uno_end_1_last_card_draw_two_counts_the_drawn_cards() -> None:
    game = start([["RD"], ["B5"]], "R7", stock_top=["B9", "R1"])  # R1 then B9 drawn
    game.act(0, "play RD")
    assert game.result.scores[0] == 5 + 1 + 9


def test_uno_note_1_malformed_text() -> None:
    game = start([["B3", "B4"], ["R5"]], "R7")
    for text in ("play R10", "wild X", "play", "", "draw 2", "play 7H"):
        with pytest.raises(NotationError, match="UNO-NOTE-1"):
            game.act(0, text)
    assert game.version == 0
    with pytest.raises(IllegalActionError, match="UNO-WILD-1"):
        game.act(0, "wild R")


# --- hidden information ------------------------------------------------------------------

WORD = re.compile(r"\b[RYGB][0-9SRD]\b")


def test_hidden_hands_not_in_other_views_events_or_errors() -> None:
    hands = [["B3", "B4", "G8"], ["R5", "Y6"], ["Y1", "G2"]]
    game = start(hands, "R7", stock_top=["Y4"])
    seen: list[dict[str, object]] = []
    game.events.subscribe(Event, lambda e: seen.append(e.to_json()), seat=1)
    game.act(0, "draw")  # Y4 drawn by seat 0: hidden from seat 1
    for viewer in (1, 2, None):
        view = game.view(viewer)
        assert view["zones"][2]["cards"] == [None] * 4
        assert view["table"]["drawn"] == "hidden"
        words = view["table"]["words"]
        assert (words is None) if viewer is None else sorted(words) == sorted(hands[viewer])
        assert view["table"]["wild4s"] in (None, 0)
    assert game.view(0)["table"]["words"][0] == "Y4"
    drawn = [e for e in seen if e["event"] == "card-drawn"]
    assert drawn and all(e["card"] is None for e in drawn)
    with pytest.raises(IllegalActionError) as err:
        game.act(1, "play R5")
    assert "Y4" not in str(err.value) and code("Y4") not in str(err.value)


def test_kit_cannot_see_a_games_own_card_words() -> None:
    """Claim that holds as documented (testing-kit.rst: "every card text" of the core's
    notation): a table that shows seat 0's hand to all in Uno words passes the kit's
    views check, so such a game must test its own leaks (as above)."""

    class Leaky(uno.UnoLogic):
        def table(self, state: uno.UnoState, seat: int | None) -> dict[str, object]:
            out = super().table(state, seat)
            out["words"] = uno.word_list(state.zones.cards[uno.hand(0)])
            return out

    module = types.ModuleType("leaky_uno")
    module.GAME = cardcore.GameInfo("leaky-uno", "leaks", 2, 10, fields=uno.GAME.fields)  # type: ignore[attr-defined]
    module.build_deck = uno.build_deck  # type: ignore[attr-defined]

    @cardcore.hookimpl
    def create_logic(ruleset: cardcore.Ruleset) -> uno.UnoLogic:
        return Leaky(ruleset)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "leaky-uno", module)
    try:
        report = check_game("leaky-uno", players=2, games=1, seed=0, checks={"views"})
    finally:
        cardcore.unregister("cardcore.games", "leaky-uno")
    assert report.ok and report.leaks == 0
    game = start([["B3", "B4"], ["R5"]], "R7")
    assert Leaky(game.ruleset).table(game.state, 1)["words"] == ["B3", "B4"]


# --- the kit, persistence, RL ------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_conformance_kit(players: int) -> None:
    report = check_game(NAME, players=players, games=2, seed=0)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0


def test_save_load_replay_round_trip() -> None:
    game = cardcore.new_game(NAME, 3, seed=11)
    agents = [cardcore.RandomAgent(seed=s) for s in range(3)]
    for _ in range(40):
        seat = game.to_act[0]
        game.act(seat, str(agents[seat].choose(game.view(seat), game.legal_actions(seat))))
    loaded = cardcore.load(json.loads(json.dumps(game.save())))
    replayed = cardcore.replay(json.loads(json.dumps(game.record())))
    for copy in (loaded, replayed):
        assert copy.position() == game.position()
        assert all(copy.view(s) == game.view(s) for s in range(3))
    seat = game.to_act[0]
    action = str(game.legal_actions(seat)[-1])
    game.act(seat, action)
    loaded.act(seat, action)
    assert loaded.position() == game.position()  # the chance to come is the same


def test_position_round_trip_keeps_hidden_wild_kinds() -> None:
    game = start([["W", "W", "B3"], ["R5"]], "R7", fours=[1, 0])
    again = cardcore.new_game(NAME, 2, position=game.position(), seed=2)
    assert again.state.fours == [1, 0]
    assert again.view(0)["legal"] == game.view(0)["legal"]


def test_position_refuses_wrong_wild_four_count() -> None:
    text = position([["B3"], ["R5"]], "R7").replace("stock_fours=4", "stock_fours=3")
    with pytest.raises(OptionError, match="add up to 4"):
        cardcore.new_game(NAME, 2, position=text, seed=1)


def test_rl_generic_environment_steps() -> None:
    """rl.rst: a third-party game gets an environment from its declared view fields; the
    action space is the game's max_legal."""
    pytest.importorskip("gymnasium")
    from cardcore import rl

    env = rl.gym_env(NAME, 2, opponents="random")
    assert env.action_space.n == uno.UnoLogic.max_legal
    obs, _info = env.reset(seed=3)
    for _ in range(30):
        mask = obs["action_mask"]
        assert mask.any()
        obs, _reward, done, truncated, _info = env.step(int(mask.nonzero()[0][0]))
        if done or truncated:
            break


def test_cli_rules_reads_rules_md_of_a_single_module(capsys: pytest.CaptureFixture[str]) -> None:
    """cli.rst: a one-module game sets RULES_MD; ``cardcore rules`` prints each rule ID."""
    from cardcore.cli import main

    try:
        main(["rules", NAME])
    except SystemExit as stop:
        assert stop.code in (0, None)
    out = capsys.readouterr().out
    assert "UNO-SCORE-1" in out and "UNO-NOTE-1" in out and "play <colour><symbol>" in out
