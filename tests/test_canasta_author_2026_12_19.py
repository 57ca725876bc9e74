"""A Canasta plugin written from cardcore's docs alone (plugin at
``tests/plugins/canasta_2026_12_19.py``, house rule at ``canasta_rules_2026_12_19.py``).

Rule tests are named after the rule IDs of the plugin's ``RULES_MD``; every deal that a
test reads is stacked (``deck=``, top first), and the kit runs with fixed seeds. The
plugins are registered as the docs tell a plugin author to (``cardcore.register`` in a
fixture, ``cardcore.unregister`` after).
"""

from __future__ import annotations

import re
import types
from collections import Counter
from collections.abc import Iterator

import pytest

import cardcore
from cardcore import (
    IllegalActionError,
    OptionError,
    PluginError,
    Resign,
    RoundScored,
    RuleInfo,
    hookimpl,
)
from cardcore.testing import check_game, configurations
from tests.plugins import canasta_2026_12_19 as canasta
from tests.plugins import canasta_rules_2026_12_19 as initial_meld

NAME = canasta.NAME
RULE = initial_meld.RULE.name

# Seats 1-3 hold no 4, 5, 6, 8 or K, no wild card and no three unless a test says so.
FILL1 = "7S 7H 9S 9H 10S 10H JS JH QS QH AS"
FILL2 = "7D 7C 9D 9C 10D 10C JD JC QD QC AH"
FILL3 = "7S 7H 9S 9H 10S 10H JS JH QS QC AD"


@pytest.fixture(scope="module", autouse=True)
def _plugins() -> Iterator[None]:
    cardcore.register("cardcore.games", NAME, canasta)
    cardcore.register("cardcore.rules", RULE, initial_meld)
    yield
    cardcore.unregister("cardcore.rules", RULE)
    cardcore.unregister("cardcore.games", NAME)


def stack(hands: list[str], tail: str = "") -> str:
    """A deck, top first, that deals *hands* (11 cards each, one at a time from seat 0),
    followed by *tail*: red-three replacements, the upcard, then the stock's top cards."""
    split = [h.split() for h in hands]
    assert all(len(h) == 11 for h in split)
    return " ".join([split[s][i] for i in range(11) for s in range(4)] + tail.split())


def new(hands: list[str], tail: str, **kwargs: object) -> cardcore.Game:
    return cardcore.new_game(NAME, 4, deck=stack(hands, tail), seed=1, **kwargs)  # type: ignore[arg-type]


def pile(game: cardcore.Game, name: str, seat: int = 0) -> list[str | None]:
    zone = next(z for z in game.view(seat)["zones"] if z["name"] == name)
    return list(zone["cards"])


def legal(game: cardcore.Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


# The going-out hand: seat 0 holds seven kings, three fives and an 8; seat 1 a red three.
OUT_HANDS = ["KS KS KH KH KD KD KC 5S 5C 5D 8H", FILL1.replace("QH", "3H"), FILL2, FILL3]
OUT_TAIL = "QH 3S 8D 8C"  # seat 1's red three is replaced by QH; upcard 3S; seat 0 draws 8D 8C
OUT_PLAY = ["draw", "meld K", "add K", "add K", "add K", "add K", "meld 5"]


# ---------------------------------------------------------------- seats, deck, deal


def test_canasta_seat_1_four_players_only() -> None:
    for players in (2, 3, 5):
        with pytest.raises(OptionError):
            cardcore.new_game(NAME, players, seed=1)


def test_canasta_deck_1_two_decks_and_four_jokers() -> None:
    game = cardcore.new_game(NAME, 4, seed=1)
    deck = game.logic.deck(4, game.options)
    counts = Counter(str(c) for c in deck)
    assert len(deck) == 108
    assert counts["JK"] == 4
    assert set(counts.values()) == {2, 4} and sum(n == 2 for n in counts.values()) == 52


def test_canasta_deal_1_eleven_each_and_an_upcard() -> None:
    hands = ["8H 8D 4S 4C 5H 5C 6D 6S KH 2C JK", FILL1, FILL2, FILL3]
    game = new(hands, "8C")
    assert sorted(pile(game, "hand.0")) == sorted(hands[0].split())  # type: ignore[type-var]
    assert sorted(pile(game, "hand.2", seat=2)) == sorted(FILL2.split())  # type: ignore[type-var]
    assert pile(game, "discard", seat=1) == ["8C"]
    assert game.view(0)["table"]["stock"] == 108 - 44 - 1
    assert game.to_act == (0,) and legal(game, 0) == ["draw", "pickup"]


def test_canasta_red3_1_dealt_and_drawn_red_threes_are_laid() -> None:
    hands = ["3H 8D 4S 4C 5H 5C 6D 6S KH 2C JK", FILL1, FILL2, FILL3]
    game = new(hands, "8H 4H 3D 4D 5D")  # 8H replaces the 3H; upcard 4H; draws 3D (-> 4D), 5D
    assert pile(game, "reds.0", seat=3) == ["3H"]
    assert "8H" in pile(game, "hand.0") and len(pile(game, "hand.0")) == 11
    game.act(0, "draw")
    assert sorted(pile(game, "reds.0", seat=1)) == ["3D", "3H"]  # type: ignore[type-var]
    held = pile(game, "hand.0")
    assert len(held) == 13 and {"4D", "5D"} <= set(held) and "3D" not in held


# ---------------------------------------------------------------- drawing and the pile


def test_canasta_draw_1_two_cards_then_play() -> None:
    hands = ["8H 8D 4S 4C 5H 5C 6D 6S KH 2C JK", FILL1, FILL2, FILL3]
    game = new(hands, "8C 4D 5D")
    game.act(0, "draw")
    assert sorted(pile(game, "hand.0")) == sorted([*hands[0].split(), "4D", "5D"])  # type: ignore[type-var]
    assert game.view(0)["table"]["phase"] == "play"
    assert "draw" not in legal(game, 0) and "discard 4D" in legal(game, 0)
    with pytest.raises(IllegalActionError, match="CANASTA-DRAW-1"):
        game.act(0, "draw")


def test_canasta_pick_1_whole_pile_with_two_naturals() -> None:
    hands = ["8H 8D 4S 4C 5H 5C 6D 6S KH 2C JK", FILL1, FILL2, FILL3]
    game = new(hands, "8C 4D 5D")
    game.act(0, "pickup")
    assert sorted(pile(game, "meld.0.8", seat=1)) == ["8C", "8D", "8H"]  # type: ignore[type-var]
    assert pile(game, "discard") == [] and len(pile(game, "hand.0")) == 9
    assert game.view(0)["table"]["phase"] == "play" and "draw" not in legal(game, 0)


def test_canasta_pick_1_unfrozen_pile_with_natural_and_wild() -> None:
    hands = ["8H 4S 4C 5H 5C 6D 6S KH KD 2C JK", FILL1, FILL2, FILL3]
    game = new(hands, "8C")
    assert legal(game, 0) == ["draw", "pickup"]
    game.act(0, "pickup")
    assert sorted(pile(game, "meld.0.8", seat=2)) == ["2C", "8C", "8H"]  # type: ignore[type-var]
    assert "JK" in pile(game, "hand.0")  # the cheapest wild was used


def test_canasta_pick_2_wild_or_three_on_top_cannot_be_taken() -> None:
    hands = ["8H 8D 4S 4C 5H 5C 6D 6S KH 2C JK", FILL1, FILL2, FILL3]
    game = new(hands, "3S")  # a black three on top
    assert legal(game, 0) == ["draw"]
    with pytest.raises(IllegalActionError, match="CANASTA-PICK-2"):
        game.act(0, "pickup")
    game = new(hands, "8C 4D 5D")
    game.act(0, "draw")
    game.act(0, "discard 2C")
    with pytest.raises(IllegalActionError, match="CANASTA-PICK-2"):
        game.act(1, "pickup")


def test_canasta_freeze_1_wild_freezes_the_pile() -> None:
    seat0 = "8H 4S 4C 5H 5C 6D 6S KH KD 2C JK"
    seat1 = "7S 7H 9S 9H 10S 10H JS JH QS 8S JK"  # one natural 8 and a joker
    for upcard, frozen in (("4H", False), ("2D", True)):
        game = new([seat0, seat1, FILL2, FILL3], f"{upcard} 4D 5D")
        assert game.view(3)["table"]["frozen"] is frozen
        game.act(0, "draw")
        game.act(0, "discard 8H")
        if frozen:
            assert legal(game, 1) == ["draw"]
            with pytest.raises(IllegalActionError, match="CANASTA-FREEZE-1"):
                game.act(1, "pickup")
        else:
            game.act(1, "pickup")
            assert sorted(pile(game, "meld.1.8")) == ["8H", "8S", "JK"]  # type: ignore[type-var]
    game = new([seat0, seat1, FILL2, FILL3], "4H 4D 5D")
    game.act(0, "draw")
    game.act(0, "discard 2C")
    assert all(game.view(s)["table"]["frozen"] for s in range(4))


def test_canasta_freeze_1_frozen_pile_taken_with_two_naturals() -> None:
    seat1 = "7S 7H 9S 9H 10S 10H JS JH QS 8S 8D"
    game = new(["8H 4S 4C 5H 5C 6D 6S KH KD 2C JK", seat1, FILL2, FILL3], "2D 4D 5D")
    game.act(0, "draw")
    game.act(0, "discard 8H")
    assert game.view(1)["table"]["frozen"] is True
    game.act(1, "pickup")
    assert sorted(pile(game, "meld.1.8")) == ["8D", "8H", "8S"]  # type: ignore[type-var]
    assert "2D" in pile(game, "hand.1", seat=1) and game.view(1)["table"]["frozen"] is False


# ---------------------------------------------------------------- melds and canastas


def test_canasta_meld_1_threes_and_wild_ranks_never_meld() -> None:
    hands = ["8H 8D 3S 3C 5H 5C 6D KH 2C 2S JK", FILL1, FILL2, FILL3]
    game = new(hands, "KC 3C 5D")
    game.act(0, "draw")
    for text in ("meld 3", "meld 2", "mix 3 JK"):
        with pytest.raises(IllegalActionError, match="CANASTA-MELD-1"):
            game.act(0, text)
    assert not [t for t in legal(game, 0) if t.split()[:2] in (["meld", "3"], ["mix", "3"])]


def test_canasta_meld_2_at_most_half_wild() -> None:
    hands = ["8H 8D 4S 4C 5H 5C 6D KH 2C 2S JK", FILL1, FILL2, FILL3]
    game = new(hands, "KC 4D 5D")
    game.act(0, "draw")
    assert {"mix 8 2S", "mix 8 2C", "mix 8 JK", "meld 4", "meld 5"} <= set(legal(game, 0))
    game.act(0, "mix 8 2C")
    assert {"wild 8 2S", "wild 8 JK"} <= set(legal(game, 0))
    game.act(0, "wild 8 JK")  # 2 natural, 2 wild: half
    assert not [t for t in legal(game, 0) if t.startswith("wild 8")]
    with pytest.raises(IllegalActionError, match="CANASTA-MELD-2"):
        game.act(0, "wild 8 2S")
    assert sorted(pile(game, "meld.0.8", seat=3)) == ["2C", "8D", "8H", "JK"]  # type: ignore[type-var]


def test_canasta_out_1_no_going_out_without_a_canasta() -> None:
    hands = ["4S 4S 4H 5S 5S 5H 6S 6S 6H 8H 8D", FILL1, FILL2, FILL3]
    game = new(hands, "KC 8C 9C")
    for text in ("draw", "meld 4", "meld 5", "meld 6"):
        game.act(0, text)
    assert sorted(pile(game, "hand.0")) == ["8C", "8D", "8H", "9C"]  # type: ignore[type-var]
    assert legal(game, 0) == ["discard 8C", "discard 8D", "discard 8H", "discard 9C"]
    with pytest.raises(IllegalActionError, match="CANASTA-OUT-1"):
        game.act(0, "meld 8")


def test_canasta_score_2_going_out_canasta_and_red_three_scores() -> None:
    game = new(OUT_HANDS, OUT_TAIL)
    scored: list[RoundScored] = []
    game.events.subscribe(RoundScored, scored.append)
    for text in OUT_PLAY:
        game.act(0, text)
    assert len(pile(game, "meld.0.K", seat=1)) == 7  # a natural canasta
    assert sorted(pile(game, "hand.0")) == ["8C", "8D", "8H"]  # type: ignore[type-var]
    game.act(0, "meld 8")  # the last cards: out, with a canasta
    # Team 0: kings 70 + 500 natural canasta, fives 15, eights 30, going out 100, minus
    # seat 2's hand 110 = 605. Team 1: hands 110 + 110, and a red three without a meld.
    assert game.history() == [{"hand": 1, "scores": [605, -320, 605, -320], "out": 0}]
    assert [tuple(e.scores) for e in scored] == [(605, -320, 605, -320)]
    table = game.view(2)["table"]
    assert table["hand_no"] == 2 and table["totals"] == [605, -320, 605, -320]
    assert game.to_act == (1,) and table["starter"] == 1  # the next hand, dealt fresh
    assert all(len(pile(game, f"hand.{s}", seat=s)) == 11 for s in range(4))


def test_canasta_canasta_1_seven_cards_natural_or_mixed() -> None:
    """The going-out hand again, with a joker in place of a king: a mixed canasta (300)
    instead of a natural one (500); kings 60 and the joker 50 instead of kings 70."""
    hands = ["KS KS KH KH KD KD JK 5S 5C 5D 8H", *OUT_HANDS[1:]]
    game = new(hands, OUT_TAIL)
    for text in ["draw", "meld K", "add K", "add K", "add K"]:
        game.act(0, text)
    game.act(0, "wild K JK")
    assert len(pile(game, "meld.0.K")) == 7
    for text in ["meld 5", "meld 8"]:
        game.act(0, text)
    assert game.history()[0]["scores"] == [445, -320, 445, -320]


def test_canasta_disc_1_a_discard_ends_the_turn() -> None:
    hands = ["8H 8D 4S 4C 5H 5C 6D 6S KH 2C JK", FILL1, FILL2, FILL3]
    game = new(hands, "KC 4D 5D")
    with pytest.raises(IllegalActionError, match="CANASTA-DRAW-1"):
        game.act(0, "discard 4S")
    game.act(0, "draw")
    game.act(0, "discard 6S")
    assert game.to_act == (1,) and pile(game, "discard", seat=3) == [
        "6S",
        None,
    ]  # TOP: only the top shows
    assert game.view(1)["table"]["phase"] == "draw" and legal(game, 1) == ["draw"]


def test_canasta_score_1_card_values() -> None:
    points = cardcore.get_ruleset(NAME).resolve("card_points")
    assert points is not None
    values = {
        text: points(card=cardcore.Card.parse(text))
        for text in ("JK", "2H", "AS", "KD", "8C", "7H", "4S", "3S")
    }
    assert values == {"JK": 50, "2H": 20, "AS": 20, "KD": 10, "8C": 10, "7H": 5, "4S": 5, "3S": 5}


def test_every_rule_id_has_a_test() -> None:
    """testing.rst: every rule ID in the spec has a test named after it."""
    ids = re.findall(r"\| (CANASTA-[A-Z0-9]+-\d+) \|", canasta.RULES_MD)
    assert len(ids) == 18
    names = [n for n in globals() if n.startswith("test_")]
    for rule_id in ids:
        prefix = "test_" + rule_id.lower().replace("-", "_") + "_"
        assert any(n.startswith(prefix) for n in names), rule_id


def test_canasta_game_1_target_ends_with_both_partners_winning() -> None:
    game = new(OUT_HANDS, OUT_TAIL, options={"target": 600})
    for text in [*OUT_PLAY, "meld 8"]:
        game.act(0, text)
    assert game.is_over and game.result is not None
    assert game.result.winners == (0, 2)
    assert game.result.scores == (605.0, -320.0, 605.0, -320.0)
    assert game.result.reason == "target reached"


def test_canasta_seat_1_resign_loses_for_the_partnership() -> None:
    game = cardcore.new_game(NAME, 4, seed=5)
    game.apply(Resign(1))
    assert game.result is not None and game.result.winners == (0, 2)


def test_canasta_stock_1_hand_ends_when_the_stock_is_empty() -> None:
    """A property of every deal: a hand nobody went out of ended on a discard with an
    empty stock, and a discard with an empty stock always ends the hand."""
    checked = 0
    for seed in (11, 12):
        game = cardcore.new_game(NAME, 4, seed=seed, options={"max_hands": 2})
        agents = [cardcore.RandomAgent(seed * 10 + s) for s in range(4)]
        while not game.is_over:
            seat = game.to_act[0]
            before = game.view(seat)["table"]
            action = agents[seat].choose(game.view(seat), game.legal_actions(seat))
            game.apply(action)
            ended = game.is_over or game.view(0)["table"]["hand_no"] != before["hand_no"]
            if str(action).startswith("discard") and before["stock"] == 0:
                assert ended
            if ended:
                last = game.history()[-1]
                if last["out"] is None:
                    assert before["stock"] == 0 and str(action).startswith("discard")
                    checked += 1
    assert checked >= 1


# ---------------------------------------------------------------- the house rule


def test_canasta_var_1_first_meld_needs_the_minimum() -> None:
    game = new(OUT_HANDS, OUT_TAIL, rules=[RULE], options={"initial_meld_min": 30})
    game.act(0, "draw")
    assert {"meld K", "meld 8"} <= set(legal(game, 0)) and "meld 5" not in legal(game, 0)
    with pytest.raises(IllegalActionError, match="CANASTA-VAR-1"):
        game.act(0, "meld 5")
    game.act(0, "meld K")
    assert "meld 5" in legal(game, 0)  # the team has melded: no minimum any more
    assert game.record()["options"]["initial_meld_min"] == 30


def test_canasta_var_1_pickup_counts_as_first_meld() -> None:
    hands = ["8H 8D 4S 4C 5H 5C 6D 6S KH 2C JK", FILL1, FILL2, FILL3]
    assert legal(new(hands, "8C", rules=[RULE]), 0) == ["draw"]  # 3 eights: 30 < 50
    assert legal(new(hands, "8C", rules=[RULE], options={"initial_meld_min": 30}), 0) == [
        "draw",
        "pickup",
    ]


def test_canasta_var_1_option_is_bounded_and_belongs_to_the_rule() -> None:
    for bad in (-1, 201):
        with pytest.raises(OptionError, match=r"\(CANASTA-VAR-1\)"):
            cardcore.new_game(NAME, 4, rules=[RULE], options={"initial_meld_min": bad}, seed=1)
    with pytest.raises(OptionError, match=r"canasta-1219\.initial-meld"):
        cardcore.new_game(NAME, 4, options={"initial_meld_min": 30}, seed=1)
    assert cardcore.new_game(NAME, 4, rules=[RULE], seed=1).options["initial_meld_min"] == 50
    assert RULE in cardcore.available_rules(NAME) and cardcore.rule_info(RULE).id == "CANASTA-VAR-1"


# ---------------------------------------------------------------- engine claims


def test_partners_split_by_a_score_rule_is_refused_naming_the_rule() -> None:
    """game.rst, partnerships: ``refused_answer`` names the rule that split the partners,
    and a failing ``apply`` leaves the game as it was."""
    split = types.ModuleType("canasta_split")
    split.RULE = RuleInfo(
        id="SPLIT-1", name=f"{NAME}.split", game=NAME, summary="Seat 0 gets a point"
    )

    @hookimpl
    def score_round(scores: list[int]) -> list[int]:
        return [scores[0] + 1, *scores[1:]]

    split.score_round = score_round
    cardcore.register("cardcore.rules", split.RULE.name, split)
    try:
        game = new(OUT_HANDS, OUT_TAIL, rules=[split.RULE.name])
        for text in OUT_PLAY:
            game.act(0, text)
        version, position = game.version, game.position()
        with pytest.raises(PluginError, match="one score per team") as error:
            game.act(0, "meld 8")
        assert error.value.plugin == f"{NAME}.split"
        assert game.version == version and game.position() == position
    finally:
        cardcore.unregister("cardcore.rules", split.RULE.name)


def test_position_round_trip_with_a_known_and_a_hidden_copy() -> None:
    """CORE-POSITION-1 with two decks: seat 2 holds a hidden 8S and takes the pile with the
    other 8S in it, which everyone saw; the position reads back to the same views."""
    seat2 = "7D 7C 9D 9C 10D 10C JD JC QD QC 8S"
    game = new(["8S 4S 4C 5H 5C 6D 6S KH KD 2C JK", FILL1, seat2, FILL3], "4H 4D 5D KH KD")
    for seat, text in [
        (0, "draw"),
        (0, "discard 8S"),
        (1, "draw"),
        (1, "discard 9S"),
        (2, "pickup"),
    ]:
        game.act(seat, text)
    assert sorted(pile(game, "meld.0.9")) == ["9C", "9D", "9S"]  # type: ignore[type-var]
    assert pile(game, "hand.2", seat=2).count("8S") == 2
    assert set(pile(game, "hand.2", seat=1)) == {None}  # a hand shows only to its owner
    again = cardcore.new_game(NAME, 4, position=game.position(), seed=2)
    for seat in range(4):
        mine, theirs = game.view(seat), again.view(seat)
        assert mine["zones"] == theirs["zones"] and mine["table"] == theirs["table"]
        assert mine["legal"] == theirs["legal"]


def test_turn_based_seen_judges_against_the_current_state() -> None:
    """embedding.rst: in a turn-based game an action legal at ``seen`` but not now is
    illegal, citing the game's rule (not stale)."""
    hands = ["8H 8D 4S 4C 5H 5C 6D 6S KH 2C JK", FILL1, FILL2, FILL3]
    game = new(hands, "8C 4D 5D")
    assert "pickup" in legal(game, 0)
    game.act(0, "draw", seen=0)
    with pytest.raises(IllegalActionError, match="CANASTA-DRAW-1") as error:
        game.act(0, "pickup", seen=0)
    assert type(error.value) is IllegalActionError


def test_a_hand_every_seat_knows_lies_face_up() -> None:
    """game.rst: a hand shows only to its owner until every card of it is known to all."""
    game = cardcore.new_game(NAME, 4, seed=1)
    parts = game.position().split(" | ")
    i = next(k for k, part in enumerate(parts) if part.startswith("hand.1:"))
    cards = [re.sub(r"(@.*|!)$", "", c) for c in parts[i].split(": ", 1)[1].split()]
    parts[i] = "hand.1: " + " ".join(f"{c}!" for c in cards)
    again = cardcore.new_game(NAME, 4, position=" | ".join(parts), seed=1)
    assert sorted(pile(again, "hand.1", seat=3)) == sorted(cards)  # type: ignore[type-var]
    assert set(pile(game, "hand.1", seat=3)) == {None}


def test_host_end_names_the_leading_partnership() -> None:
    """CORE-END-1: the host's ``end`` settles by the game's ``standings``."""
    game = new(OUT_HANDS, OUT_TAIL)
    for text in [*OUT_PLAY, "meld 8"]:
        game.act(0, text)
    game.apply(cardcore.EndMatch())
    assert game.result is not None and game.result.reason == "ended"
    assert game.result.winners == (0, 2) and game.result.scores == (605.0, -320.0, 605.0, -320.0)


def test_rl_score_rewards_refused_without_payouts_or_encoding() -> None:
    """rl.rst: a game with neither its own encoding nor payouts has no score reward."""
    pytest.importorskip("numpy")
    from cardcore.rl import aec_env

    with pytest.raises(OptionError, match="no score reward"):
        aec_env(NAME, 4, rewards="score", options={"max_hands": 1}).reset(seed=1)


def test_simulate_counts_a_partnership_win_half_to_each_partner() -> None:
    """game.rst checklist: a win shared by k seats counts 1/k to each."""
    summary = cardcore.simulate(NAME, games=4, players=4, options={"max_hands": 1}, seed=3)
    assert summary.wins[0] == summary.wins[2] and summary.wins[1] == summary.wins[3]
    assert sum(summary.wins) == pytest.approx(4)


def test_rl_generic_env_pays_partners_alike() -> None:
    """rl.rst: a third-party game gets an environment with no extra code; its action
    space is the game's ``max_legal``; two of four tying for the win pay +1 / -1."""
    np = pytest.importorskip("numpy")
    from cardcore.rl import aec_env

    env = aec_env(NAME, 4, options={"max_hands": 1})
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["action_mask"].shape == (canasta.CanastaLogic.max_legal,)
        env.step(int(rng.choice(np.nonzero(obs["action_mask"])[0])))
    result = env.match.game.result
    assert result is not None and len(result.winners) in (2, 4)
    assert total["player_0"] == total["player_2"] and total["player_1"] == total["player_3"]
    assert sum(total.values()) == 0
    if len(result.winners) == 2:  # a tie of the teams makes every seat a winner: 0 each
        assert sorted(total.values()) == [-1.0, -1.0, 1.0, 1.0]


# ---------------------------------------------------------------- session takebacks

TAKEBACK_HANDS = [
    "8S 4S 4C 5H 5C 6D 6S KH KD 2C JK",
    FILL1,
    "7D 7C 9D 9C 10D 10C JD JC QD QC 8S",
    FILL3,
]
TAKEBACK_PLAY = [(0, "draw"), (0, "discard 8S"), (1, "draw"), (1, "discard 9S"), (2, "pickup")]


def takeback_reply(game: str, last: str) -> list[dict[str, object]]:
    """Seat 2 takes the pile (4H and a second 8S, both seen by every seat, join its
    hidden 8S), plays *last*, and asks to take it back: the messages seat 2 receives."""
    import json

    from cardcore.session import Session

    session = Session.create(game, 4, now=0.0, deck=stack(TAKEBACK_HANDS, "4H 4D 5D KH KD"), seed=5)
    for seat in range(4):
        session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0)
    for step, (seat, text) in enumerate([*TAKEBACK_PLAY, (2, last)]):
        act = {"type": "act", "action": text, "seen": session.game.version}
        out = session.handle(f"c{seat}", json.dumps(act), now=2.0 + step)
        assert not [o for o in out if o.message["type"] == "error"], text
    out = session.handle("c2", json.dumps({"type": "takeback", "op": "request"}), now=20.0)
    return [dict(o.message) for o in out if o.conn == "c2"]


def named_seats(message: str) -> list[str]:
    """The seats a takeback refusal names ("... revealed a card to seat 0, seat 1; ...")."""
    return re.findall(r"seat \d", message.split(" revealed a card to ", 1)[1].split(";", 1)[0])


def test_takeback_judged_by_what_the_seats_know() -> None:
    """session.rst, Takebacks: a draw from the face-down stock is final (seat 1 learned
    its cards), and the refusal names the seats that learned something."""
    out = takeback_reply(NAME, "discard 7D")  # a hidden card: seats 0, 1, 3 learn it
    assert out[0]["type"] == "error" and out[0]["code"] == "takeback-refused"
    assert {"seat 0", "seat 1", "seat 3"} <= set(named_seats(str(out[0]["message"])))


def test_takeback_of_a_discard_every_seat_knew_is_allowed() -> None:
    """session.rst: refused only if some seat's K(s) (cards it knows anywhere, per
    Zones.knows) gains a card, or an event names a card not in K_before(s). 4H was taken
    from the pile in view of all, so its discard teaches nobody anything."""
    out = takeback_reply(NAME, "discard 4H")
    assert (out[0]["type"], out[0].get("op")) == ("takeback", "requested"), out


def test_takeback_refusal_names_only_seats_that_learned() -> None:
    out = takeback_reply(NAME, "discard 7D")  # seat 2 held 7D: it learned nothing
    assert out[0]["code"] == "takeback-refused"
    assert named_seats(str(out[0]["message"])) == ["seat 0", "seat 1", "seat 3"]


def test_takeback_of_a_known_discard_without_its_event_is_allowed() -> None:
    """Control for the two xfails: the same game minus the CardDiscarded event takes the
    discard of 4H back, and names only seats 0, 1 and 3 for 7D."""
    from cardcore import CardDiscarded, GameInfo

    class Quiet(canasta.CanastaLogic):
        def apply(self, state, action, emit):  # type: ignore[no-untyped-def]
            quiet = (
                None
                if emit is None
                else (lambda e: None if isinstance(e, CardDiscarded) else emit(e))
            )
            super().apply(state, action, quiet)

    quiet = types.ModuleType("quiet_canasta")
    quiet.GAME = GameInfo(
        "quiet-canasta",
        "Canasta without discard events",
        4,
        4,
        options=canasta.GAME.options,
        fields=canasta.GAME.fields,
    )

    @hookimpl
    def create_logic(ruleset: cardcore.Ruleset) -> Quiet:
        return Quiet(ruleset)

    quiet.create_logic = create_logic
    quiet.build_deck, quiet.card_points = canasta.build_deck, canasta.card_points
    cardcore.register("cardcore.games", "quiet-canasta", quiet)
    try:
        out = takeback_reply("quiet-canasta", "discard 4H")
        assert (out[0]["type"], out[0].get("op")) == ("takeback", "requested")
        out = takeback_reply("quiet-canasta", "discard 7D")
        assert named_seats(str(out[0]["message"])) == ["seat 0", "seat 1", "seat 3"]
    finally:
        cardcore.unregister("cardcore.games", "quiet-canasta")


# ---------------------------------------------------------------- the testing kit


def test_conformance_kit_base_game() -> None:
    report = check_game(NAME, players=4, options={"max_hands": 2}, games=2, seed=0)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0
    assert "scores" not in report.skipped and "positions" not in report.skipped


def test_conformance_kit_every_configuration() -> None:
    configs = list(configurations(NAME))
    assert {tuple(c.rules) for c in configs} == {(), (RULE,)}
    for config in configs:
        kwargs = config.kwargs()
        kwargs["options"] = {**kwargs["options"], "max_hands": 1}
        report = check_game(config.game, games=2, seed=1, **kwargs)
        assert report.ok and report.vetoed > 0


def test_conformance_kit_house_rule_at_its_bounds() -> None:
    for minimum in (0, 200):
        report = check_game(
            NAME,
            players=4,
            rules=[RULE],
            options={"max_hands": 1, "initial_meld_min": minimum},
            games=1,
            seed=2,
        )
        assert report.ok
