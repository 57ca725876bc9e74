"""Old Maid written from cardcore's docs by a first-time plugin author (2026-12-14).

The game (``tests/plugins/oldmaid_2026_12_14.py``) and its house rule
(``tests/plugins/oldmaid_rules_2026_12_14.py``, another rank's club taken out, option
``maid_rank``) are registered in place. One test per rule ID, the conformance kit, and the
hidden information of a blind draw: views, per-seat events, errors, RL observations,
records, sessions and search samples.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

import cardcore
from cardcore import Event, IllegalActionError, NotationError, OptionError
from cardcore.rl import observe
from cardcore.search import sample_position
from cardcore.session import Session
from cardcore.testing import assert_view_known, check_game
from tests.plugins import oldmaid_2026_12_14 as om
from tests.plugins import oldmaid_rules_2026_12_14 as house

NAME, ODD = om.NAME, house.NAME


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, om)
    cardcore.register("cardcore.rules", ODD, house)
    yield
    cardcore.unregister("cardcore.rules", ODD)
    cardcore.unregister("cardcore.games", NAME)


DECK = [str(c) for c in cardcore.decks(1) if str(c) != "QC"]


def position(hands: list[list[str]], to_act: int = 0) -> str:
    """A position: *hands* bottom to top (``"7H@0.1"`` marks allowed); the rest laid in pairs
    (by seat 0)."""
    held = [c.split("@")[0] for h in hands for c in h]
    rest = Counter(DECK) - Counter(held)
    assert sum(rest.values()) + len(held) == 51
    ranks: dict[str, list[str]] = {}
    for card in sorted(rest):
        ranks.setdefault(card[:-1], []).append(card)
    laid = [c for cs in ranks.values() for c in cs]
    assert all(len(cs) % 2 == 0 for cs in ranks.values()), ranks
    parts = [f"{NAME} to_act=[{to_act}]", "stock:"]
    for s, h in enumerate(hands):
        parts.append(f"hand.{s}: " + " ".join(c if "@" in c else f"{c}@{s}" for c in h))
    parts.append("pairs.0: " + " ".join(f"{c}!" for c in laid))
    parts += [f"pairs.{s}:" for s in range(1, len(hands))]
    return " | ".join(p.rstrip() for p in parts)


def stream(game, seat):
    seen: list[dict] = []
    game.events.subscribe(Event, lambda e: seen.append(e.to_json()), seat=seat)
    return seen


# --- the conformance kit --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_conformance_kit(players):
    report = check_game(NAME, players=players, games=3, seed=players)
    assert report.cards_lost == 0 and report.leaks == 0 and report.failures == []
    assert "positions" not in report.skipped and report.positions > 0 and report.twins > 0


def test_conformance_kit_house_rule():
    report = check_game(NAME, players=3, rules=[ODD], games=2, seed=5)
    assert report.ok and report.leaks == 0


# --- one test per rule -----------------------------------------------------------------


def test_oldmaid_seat_1_two_to_six():
    assert len(cardcore.new_game(NAME, 6, seed=1).players) == 6
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, 7, seed=1)
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, 1, seed=1)


def test_oldmaid_deck_1_no_queen_of_clubs():
    game = cardcore.new_game(NAME, 3, seed=1)
    deck = game.logic.deck(3, game.options)
    assert len(deck) == 51 and "QC" not in map(str, deck)
    assert sum(str(c).startswith("Q") for c in deck) == 3


def test_oldmaid_deal_1_all_dealt_from_seat_0():
    for players, sizes in [(2, [26, 25]), (4, [13, 13, 13, 12]), (5, [11, 10, 10, 10, 10])]:
        game = cardcore.new_game(NAME, players, seed=11)
        view = game.view(None)
        held = [z["count"] for z in view["zones"][1 : 1 + players]]
        laid = [z["count"] for z in view["zones"][1 + players :]]
        assert [h + p for h, p in zip(held, laid, strict=True)] == sizes
        assert view["zones"][0]["count"] == 0


def test_oldmaid_pair_1_pairs_laid_at_deal_top_two_of_three():
    # top first: seat 0 gets cards 0, 2, 4, ... and seat 1 cards 1, 3, ...
    order = ["7C", "AS", "7D", "2S", "7H"] + [
        c for c in DECK if c not in ("7C", "AS", "7D", "2S", "7H")
    ]
    game = cardcore.new_game(NAME, 2, deck=" ".join(order), seed=1)
    for seat in range(2):
        ranks = [c[:-1] for c in game.view(seat)["zones"][1 + seat]["cards"]]
        assert len(set(ranks)) == len(ranks)
    # 7C, 7D, 7H dealt to seat 0 first (bottom of its hand): the two nearest the top pair up
    pairs0 = game.view(None)["zones"][3]["cards"]
    assert all(p[:-1] == q[:-1] for p, q in zip(pairs0[::2], pairs0[1::2], strict=True))
    assert sum(c.startswith("7") for c in pairs0) == 2
    assert sum(c.startswith("7") for c in game.view(0)["zones"][1]["cards"]) == 1


def test_oldmaid_pair_1_drawn_match_laid_at_once():
    game = cardcore.new_game(NAME, 2, position=position([["5H", "9S"], ["5S", "QH", "9C"]]), seed=1)
    # seat 1's hand top first: 9C, QH, 5S; position 2 is 5S
    game.act(0, "draw 2")
    view = game.view(None)
    assert view["zones"][3]["cards"][:2] in (["5H", "5S"], ["5S", "5H"])
    assert game.view(0)["zones"][1]["cards"] == ["9S"]


def test_oldmaid_draw_1_position_counts_top_first():
    pos = position([["4D", "8C"], ["4C", "8D", "QH"]])
    for index, card in enumerate(["QH", "8D", "4C"]):
        game = cardcore.new_game(NAME, 2, position=pos, seed=1)
        game.act(0, f"draw {index}")
        assert (
            card in game.view(0)["zones"][1]["cards"]
            or card in game.view(None)["zones"][3]["cards"]
        )
    game = cardcore.new_game(NAME, 2, position=pos, seed=1)
    assert game.view(0)["legal"] == ["draw 0", "draw 1", "draw 2"]


def test_oldmaid_draw_1_refusals_name_no_card():
    game = cardcore.new_game(NAME, 3, seed=4)
    before = game.position()
    with pytest.raises(IllegalActionError, match="OLDMAID-DRAW-1") as err:
        game.act(0, "draw 40")
    assert not any(c in str(err.value) for c in DECK if len(c) > 1 and c in str(err.value).split())
    with pytest.raises(NotationError):
        game.act(0, "draw x")
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(1, "draw 0")
    assert game.position() == before


def test_oldmaid_draw_1_skips_seats_out():
    game = cardcore.new_game(NAME, 3, position=position([["3C", "QH"], [], ["3D"]]), seed=1)
    assert game.view(0)["table"]["target"] == 2 and game.view(0)["legal"] == ["draw 0"]


def test_oldmaid_know_1_holder_knows_drawn_card_third_seat_not():
    pos = position([["6C"], ["KH", "6D"], ["KS", "QH"]])
    game = cardcore.new_game(NAME, 3, position=pos, seed=2)
    streams = {s: stream(game, s) for s in (0, 1, 2, cardcore.SPECTATOR)}
    game.act(0, "draw 1")  # seat 1's hand top first: 6D, KH -> takes KH, no pair
    assert game.view(1)["table"]["known"] == [["KH"], [], []]
    assert game.view(2)["table"]["known"] == [[], [], []]
    assert game.view(None)["table"]["known"] == [[], [], []]
    drawn = {s: [e["card"] for e in streams[s] if e["event"] == "card-drawn"] for s in streams}
    assert drawn == {0: ["KH"], 1: ["KH"], 2: [None], cardcore.SPECTATOR: [None]}
    for seat in (0, 1, 2, None):
        assert_view_known(game, seat)
        assert "KH" not in json.dumps(game.view(2)) and "KH" not in json.dumps(game.view(None))
    game.act(1, "draw 1")  # seat 1 draws KS from seat 2 (top first QH, KS): seat 2 knows it
    assert game.view(1)["table"]["known"][0] == ["KH"]
    assert game.view(2)["table"]["known"] == [[], ["KS"], []]
    assert game.view(0)["table"]["known"] == [[], [], []]


def test_oldmaid_know_1_knowledge_ends_when_paired():
    pos = position([["6C"], ["KH", "6D"], ["KS", "QH"]])
    game = cardcore.new_game(NAME, 3, position=pos, seed=2)
    game.act(0, "draw 1")  # KH to seat 0
    game.act(1, "draw 0")  # seat 1 draws QH from seat 2 (top first QH, KS)
    hand0 = game.view(0)["zones"][1]["cards"]
    game.act(2, f"draw {hand0.index('KH')}")
    assert "KH" in game.view(None)["zones"][6]["cards"]
    assert game.view(1)["table"]["known"] == [[], [], []]


def test_oldmaid_mix_1_drawn_card_lands_at_random_place():
    pos = position([["2C", "3C", "4C", "5C", "6C"], ["2D", "3D", "4D", "5D", "6D", "QH"]])
    places = set()
    for seed in range(12):
        game = cardcore.new_game(NAME, 2, position=pos, seed=seed)
        game.act(0, "draw 0")  # QH
        places.add(game.view(0)["zones"][1]["cards"].index("QH"))
    assert len(places) >= 4


def test_oldmaid_turn_1_passes_left_over_empty_hands():
    pos = position([["9C"], ["9D", "QH"], ["5C"], ["5D"]])
    game = cardcore.new_game(NAME, 4, position=pos, seed=1)
    game.act(0, "draw 1")  # 9D: seat 0 pairs and is out
    assert game.to_act == (1,)
    assert game.view(1)["table"]["target"] == 2
    game.act(1, "draw 0")  # 5C: seat 2 out, no pair for seat 1
    assert game.to_act == (3,) and game.view(3)["table"]["target"] == 1


def test_oldmaid_end_1_last_holder_of_the_maid_loses():
    game = cardcore.new_game(NAME, 3, position=position([["8C"], ["8D", "QH"], []]), seed=1)
    game.act(0, "draw 1")  # 8D
    assert game.is_over and game.result.winners == (0, 2)
    assert game.result.scores == (0.0, 1.0, 0.0) and game.result.reason == "old maid"


def test_random_games_end_with_one_loser():
    for seed in range(6):
        players = 2 + seed % 5
        game = cardcore.new_game(NAME, players, seed=seed)
        result = cardcore.play(game, [cardcore.RandomAgent(s) for s in range(players)])
        assert len(result.winners) == players - 1 and result.reason == "old maid"


# --- hidden information beyond views -------------------------------------------------


def test_rl_observation_same_in_determinized_twin():
    game = cardcore.new_game(NAME, 3, seed=9)
    for _ in range(5):
        seat = game.to_act[0]
        game.act(seat, "draw 0")
    for seat in range(3):
        twin = game.determinize(seat, seed=3)
        assert twin.position() != game.position()
        assert np.array_equal(
            observe(game, seat)["observation"], observe(twin, seat)["observation"]
        )


def test_determinize_keeps_holders_knowledge_and_no_pairs():
    pos = position([["6C", "JS", "4H"], ["KH", "6D", "JH", "4C"], ["KS", "QH", "10C", "10D"][:2]])
    game = cardcore.new_game(NAME, 3, position=pos, seed=2)
    game.act(0, "draw 3")  # seat 1's top first: 4C 6D? -> position 3 is KH
    known = game.view(1)["table"]["known"]
    for seed in range(10):
        twin = game.determinize(1, seed=seed)
        assert twin.view(1)["table"]["known"] == known
        for s in range(3):
            ranks = [c[:-1] for c in twin.view(s)["zones"][1 + s]["cards"]]
            assert len(set(ranks)) == len(ranks)


def test_search_samples_keep_what_the_holder_knows():
    pos = position([["6C", "JS", "4H"], ["KH", "6D", "JH", "4C"], ["KS", "QH"]])
    game = cardcore.new_game(NAME, 3, position=pos, seed=2)
    game.act(0, "draw 3")  # KH to seat 0; seat 1 knows it
    view = game.view(1)
    assert view["table"]["known"][0] == ["KH"]
    for seed in range(8):
        sample = cardcore.new_game(
            NAME, 3, position=sample_position(view, random.Random(seed)), seed=1
        )
        seen = sample.view(1)
        assert {k: v for k, v in seen.items() if k != "version"} == {
            k: v for k, v in view.items() if k != "version"
        }


def test_record_and_replay_show_the_same_views():
    game = cardcore.new_game(NAME, 4, seed=21)
    cardcore.play(game, [cardcore.RandomAgent(s) for s in range(4)])
    again = cardcore.replay(json.loads(json.dumps(game.record())))
    assert again.position() == game.position()
    assert all(again.view(s) == game.view(s) for s in (0, 1, 2, 3, None))
    loaded = cardcore.load(json.dumps(game.save()))
    assert loaded.position() == game.position()


def test_clone_is_independent():
    game = cardcore.new_game(NAME, 3, seed=8)
    copy = game.clone()
    copy.act(copy.to_act[0], "draw 0")
    assert game.version == 0 and copy.version == 1
    assert game.position() != copy.position()


def test_session_update_hides_the_drawn_card_from_a_third_seat():
    pos = position([["6C"], ["KH", "6D"], ["KS", "QH"]])
    session = Session.create(NAME, ["A", "B", "C"], now=0.0, seed=7, position=pos)
    for s, conn in enumerate("abc"):
        session.handle(conn, json.dumps({"type": "join", "seat": s}), now=1.0 + s)
    out = session.handle("a", '{"type": "act", "action": "draw 1", "seen": 0}', now=5.0)
    by_conn: dict[str, str] = {}
    for o in out:
        by_conn[o.conn] = by_conn.get(o.conn, "") + json.dumps(o.message)
    assert "KH" in by_conn["a"] and "KH" in by_conn["b"]
    assert "KH" not in by_conn["c"]


# --- the house rule ------------------------------------------------------------------


def test_oldmaid_var_1_odd_rank_deck_and_option():
    game = cardcore.new_game(NAME, 2, rules=[ODD], seed=1)
    assert game.options["maid_rank"] == "J"
    deck = list(map(str, game.logic.deck(2, game.options)))
    assert "JC" not in deck and "QC" in deck and len(deck) == 51
    game = cardcore.new_game(NAME, 2, rules=[ODD], options={"maid_rank": "K"}, seed=1)
    assert "KC" not in map(str, game.logic.deck(2, game.options))
    result = cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    loser = next(s for s in range(2) if s not in result.winners)
    assert [c[:-1] for c in game.view(None)["zones"][1 + loser]["cards"]] == ["K"]
    assert game.record()["options"]["maid_rank"] == "K"


@pytest.mark.parametrize("bad", ["Q", "x", 5, None])
def test_oldmaid_var_1_bad_values_refused(bad):
    with pytest.raises(OptionError, match="maid_rank"):
        cardcore.new_game(NAME, 2, rules=[ODD], options={"maid_rank": bad}, seed=1)


def test_oldmaid_var_1_option_without_rule_names_the_rule():
    with pytest.raises(OptionError, match=ODD):
        cardcore.new_game(NAME, 2, options={"maid_rank": "K"}, seed=1)
