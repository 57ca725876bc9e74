"""Scopa written from cardcore's docs by a first-time plugin author (2026-12-14).

The game (``tests/plugins/scopa_2026_12_14.py``: 2 players or 4 in partnerships, a 40-card
deck, forced equal-value captures, sum captures with a choice, scopas, the last capturer's
sweep, round scoring and a match to ``target``) and its house rule
(``tests/plugins/scopa_rules_2026_12_14.py``: a scopa is worth ``scopa_value`` points, an
option of the rule's own, through the game's own hookspec) are registered in place with
``cardcore.register`` (docs/plugin-guide/entry-points.rst, "Without installing").
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections import Counter

import pytest

import cardcore
from cardcore import Event, IllegalActionError, NotationError, OptionError
from cardcore.testing import assert_conserved, assert_view_known, check_game
from tests.plugins import scopa_2026_12_14 as sc
from tests.plugins import scopa_rules_2026_12_14 as house

NAME, RICH = sc.NAME, house.NAME
DECK = [f"{r}{s}" for s in "SHDC" for r in sc.RANKS]


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, sc)
    cardcore.register("cardcore.rules", RICH, house)
    yield
    cardcore.unregister("cardcore.rules", RICH)
    cardcore.unregister("cardcore.games", NAME)


def position(
    hands: list[list[str]],
    table: list[str],
    *,
    stock: list[str] | None = None,
    taken: list[list[str]] | None = None,
    to_act: int = 0,
    dealer: int | None = None,
    scopas: list[int] | None = None,
    scores: list[int] | None = None,
    last_capture: int | None = None,
    spare_to: int = 0,
) -> str:
    """A position: hands and table as given; the deck's other cards go to *stock* (default),
    or, when *stock* is given, every card left over goes to ``taken.<spare_to>``."""
    players = len(hands)
    taken = taken or [[] for _ in range(players)]
    rest = Counter(DECK)
    for card in (
        [c for h in hands for c in h] + table + (stock or []) + [c for t in taken for c in t]
    ):
        rest[card] -= 1
        assert rest[card] >= 0, card
    spare = [c for c in DECK if rest[c]]
    if stock is None:
        stock = spare
    else:
        taken = [t + spare if s == spare_to else t for s, t in enumerate(taken)]
    fields = {
        "to_act": [to_act],
        "dealer": players - 1 if dealer is None else dealer,
        "round_no": 1,
        "scopas": scopas or [0] * players,
        "scores": scores or [0] * players,
        "last_capture": last_capture,
    }
    head = (
        NAME
        + " "
        + " ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in fields.items())
    )
    piles = [("stock", [f"{c}" for c in stock]), ("table", [f"{c}!" for c in table])]
    piles += [(f"hand.{s}", [f"{c}@{s}" for c in h]) for s, h in enumerate(hands)]
    piles += [(f"taken.{s}", [f"{c}!" for c in t]) for s, t in enumerate(taken)]
    return " | ".join([head, *(f"{name}: {' '.join(cards)}".rstrip() for name, cards in piles)])


def start(text: str, players: int = 2, **kwargs) -> cardcore.Game:
    return cardcore.new_game(NAME, players, position=text, seed=3, **kwargs)


def pile(game: cardcore.Game, name: str, seat: int | None = None) -> list[str | None]:
    for zone in game.view(seat)["zones"]:
        if zone["name"] == name:
            return zone["cards"]
    raise KeyError(name)


# -- the testing kit (docs/testing-kit.rst) ----------------------------------------------------


def test_conformance_kit_two_players():
    report = check_game(NAME, players=2, games=3, seed=0, options={"target": 4})
    assert report.ok and report.cards_lost == 0 and report.leaks == 0 and report.games == 3
    assert report.skipped == {}


def test_conformance_kit_partnership_with_house_rule():
    report = check_game(
        NAME, players=4, rules=[RICH], games=2, seed=1, options={"target": 4, "scopa_value": 3}
    )
    assert report.ok and report.cards_lost == 0 and report.leaks == 0


def test_deck_is_forty_cards_without_eights_nines_tens():
    game = cardcore.new_game(NAME, 2, seed=1)
    deck = game.logic.deck(2, game.options)
    assert len(deck) == 40 and len(set(deck)) == 40
    assert not {c.label for c in deck} & {"8", "9", "10"}


# -- rules --------------------------------------------------------------------------------------


def test_scopa_deal_1_three_each_four_on_table():
    game = cardcore.new_game(NAME, 2, seed=5)
    view = game.view(0)
    assert len(pile(game, "table")) == 4 and all(pile(game, "table"))
    assert len(pile(game, "hand.0", 0)) == 3 and pile(game, "hand.1", 0) == [None] * 3
    assert view["table"]["stock"] == 30 and view["to_act"] == [0]  # dealer 1, seat 0 leads
    assert_conserved(game)


def test_scopa_capture_1_equal_value_is_forced_with_a_choice():
    game = start(position([["5S", "KS", "AS"], ["2S", "3S", "4S"]], ["5H", "5C", "2D", "3D"]))
    legal = game.view(0)["legal"]
    assert [t for t in legal if t.startswith("play 5S")] == ["play 5S 5C", "play 5S 5H"]
    with pytest.raises(IllegalActionError, match="SCOPA-CAPTURE-1"):
        game.act(0, "play 5S 2D 3D")
    with pytest.raises(IllegalActionError, match="SCOPA-CAPTURE-1"):
        game.act(0, "play 5S")
    game.act(0, "play 5S 5C")
    assert pile(game, "table") == ["3D", "2D", "5H"]  # top first
    assert sorted(pile(game, "taken.0")) == ["5C", "5S"]
    assert game.view(0)["table"]["last_capture"] == 0


def test_scopa_capture_2_sum_capture_with_a_choice_in_any_order():
    game = start(position([["7S", "KS", "AS"], ["2S", "3S", "4S"]], ["2H", "5C", "3D", "4H"]))
    sevens = [t for t in game.view(0)["legal"] if t.startswith("play 7S")]
    assert sevens == ["play 7S 2H 5C", "play 7S 3D 4H"]
    with pytest.raises(IllegalActionError, match="SCOPA-CAPTURE-2"):
        game.act(0, "play 7S 2H 3D")  # sums to 5
    action = game.act(0, "PLAY 7s 4h 3d")  # any order, any case
    assert str(action) == "play 7S 3D 4H"
    assert sorted(pile(game, "table")) == ["2H", "5C"]


def test_scopa_capture_3_no_capture_card_stays_and_capture_cannot_be_refused():
    game = start(position([["KS", "2S", "AS"], ["2C", "3S", "4S"]], ["2H", "JC", "QD"]))
    assert game.view(0)["legal"] == ["play AS", "play 2S 2H", "play KS 2H JC"]
    with pytest.raises(IllegalActionError, match="SCOPA-CAPTURE-1"):
        game.act(0, "play 2S")  # 2H must be taken
    with pytest.raises(IllegalActionError, match="SCOPA-CAPTURE-3"):
        game.act(0, "play KS")  # KS can take 2H JC
    game.act(0, "play AS")
    assert pile(game, "table")[0] == "AS" and game.to_act == (1,)


def test_scopa_scopa_1_clearing_the_table_scores_a_scopa():
    game = start(position([["7S", "KS", "AS"], ["2S", "3S", "4S"]], ["3H", "4D"]))
    seen: list[dict] = []
    game.events.subscribe(Event, lambda e: seen.append(e.to_json()), seat=1)
    game.act(0, "play 7S 3H 4D")
    assert pile(game, "table") == [] and game.view(1)["table"]["scopas"] == [1, 0]
    assert {"event": "scopa-2026-12-14-scopa", "seat": 0} in seen


def test_scopa_scopa_1_no_scopa_on_the_last_play_and_round_scores():
    # stock empty; last two cards; seat 1's last play clears the table: no scopa
    diamonds = [c for c in DECK if c.endswith("D") and c != "4D"]
    game = start(
        position(
            [["7S"], ["2S"]],
            ["3H", "4D", "2C"],
            stock=[],
            taken=[[*diamonds, "7H", "7C"], []],
            scopas=[1, 0],
            scores=[0, 0],
            spare_to=1,
        )
    )
    game.act(0, "play 7S 3H 4D")
    game.act(1, "play 2S 2C")
    (past,) = game.history()
    # cards: seat 1 (26 v 14); coins, 7D and sevens: seat 0; plus seat 0's earlier scopa
    assert past["captured"] == [14, 26] and past["scopas"] == [1, 0]
    assert past["points"] == [4, 1]
    assert game.view(0)["table"]["scores"] == [4, 1] and game.view(0)["table"]["round"] == 2
    assert game.view(0)["table"]["stock"] == 30  # round 2 dealt


def test_scopa_last_1_last_capturer_takes_the_table():
    game = start(position([["7S"], ["2S"]], ["3H", "4D", "JC"], stock=[]))
    game.act(0, "play 7S 3H 4D")
    game.act(1, "play 2S")  # no capture: it stays
    (past,) = game.history()
    before = 40 - 5  # every other card was already in taken.0
    assert past["captured"] == [before + 3 + 2, 0]


def test_scopa_deal_2_three_more_each_when_hands_are_empty():
    game = start(position([["AS"], ["2S"]], ["KH"]))
    stock = game.view(0)["table"]["stock"]
    game.act(0, "play AS")
    game.act(1, "play 2S")
    assert game.view(0)["table"]["stock"] == stock - 6
    assert len(pile(game, "hand.0", 0)) == 3 and len(pile(game, "hand.1", 1)) == 3
    assert game.to_act == (0,)


def test_scopa_match_1_target_reached_ends_the_match():
    diamonds = [c for c in DECK if c.endswith("D") and c != "4D"]
    text = position(
        [["7S"], ["2S"]],
        ["3H", "4D", "2C"],
        stock=[],
        taken=[[*diamonds, "7H", "7C"], []],
        scores=[9, 10],
        spare_to=1,
    )
    game = start(text)
    game.act(0, "play 7S 3H 4D")
    game.act(1, "play 2S 2C")
    assert game.is_over and game.result.winners == (0,) and game.result.scores == (12.0, 11.0)


def test_scopa_match_1_tie_at_the_top_plays_on():
    text = position([["7S"], ["2S"]], ["3H", "4D", "2C"], stock=[], scores=[10, 10])
    game = start(text)  # seat 0 holds every other card: cards, coins, 7D, sevens -> 4 for seat 0
    game.act(0, "play 7S 3H 4D")
    game.act(1, "play 2S 2C")
    assert game.is_over and game.result.winners == (0,)
    tie = start(position([["7S"], ["2S"]], ["3H", "4D", "2C"], stock=[], scores=[7, 11]))
    tie.act(0, "play 7S 3H 4D")
    tie.act(1, "play 2S 2C")  # seat 0 makes 4, seat 1 none: 11 all
    assert not tie.is_over and tie.view(0)["table"]["scores"] == [11, 11]
    assert tie.view(0)["table"]["round"] == 2


def test_scopa_seat_1_partnerships_score_alike_and_three_players_refused():
    game = cardcore.new_game(NAME, 4, seed=2, options={"target": 3})
    result = cardcore.play(game, [cardcore.RandomAgent(s) for s in range(4)])
    assert result.scores[0] == result.scores[2] and result.scores[1] == result.scores[3]
    assert set(result.winners) in ({0, 2}, {1, 3})
    with pytest.raises(OptionError, match="SCOPA-SEAT-1"):
        cardcore.new_game(NAME, 3, seed=1)


def test_random_matches_end_by_target():
    for seed in range(3):
        game = cardcore.new_game(NAME, 2, seed=seed)
        result = cardcore.play(game, [cardcore.RandomAgent(seed), cardcore.RandomAgent(seed + 9)])
        assert result.reason == "target reached" and max(result.scores) >= 11
        assert len(game.history()) >= 2


# -- hidden information ---------------------------------------------------------------------------


def test_hands_and_stock_hidden_in_views_and_events():
    game = cardcore.new_game(NAME, 2, seed=11)
    assert pile(game, "hand.1", 0) == [None] * 3 and set(pile(game, "stock", 0)) == {None}
    assert pile(game, "hand.0", None) == [None] * 3  # spectator
    seen: list[dict] = []
    game.events.subscribe(Event, lambda e: seen.append(e.to_json()), seat=1)
    hand0 = pile(game, "hand.0", 0)
    while game.to_act == (0,) or len(seen) < 30:
        seat = game.to_act[0]
        game.act(seat, game.view(seat)["legal"][0])
        if game.view(0)["table"]["stock"] < 20:
            break
    assert_view_known(game, 1)
    # seat 1 never receives a card of seat 0's hand before it is played
    text = json.dumps(seen)
    played = {w for e in seen if e["event"] == "action-applied" for w in e["action"].split()}
    assert all(card in played or card not in text for card in hand0 if card)


def test_refusals_name_no_hidden_card():
    game = start(position([["5S", "KS", "AS"], ["2S", "3S", "4S"]], ["5H", "5C", "2D", "3D"]))
    for seat, text in [(1, "play 2S"), (1, "play 5S 5H"), (0, "play 2S")]:
        with pytest.raises(IllegalActionError) as err:
            game.act(seat, text)
        message = str(err.value)
        hidden = {"5S", "KS", "AS"} if seat == 1 else {"2S", "3S", "4S"}
        named = set(text.split()[1:])
        assert not {c for c in hidden - named if c in message.split() or f"{c}," in message}, (
            message
        )


def test_rl_generic_encoding_ignores_the_opponents_hand():
    rl = pytest.importorskip("cardcore.rl")
    a = start(position([["5S", "KS", "AS"], ["2S", "3S", "4S"]], ["5H", "5C", "2D", "3D"]))
    b = start(position([["5S", "KS", "AS"], ["6S", "6H", "6C"]], ["5H", "5C", "2D", "3D"]))
    enc = rl.encoding_for(a)
    assert enc.observe(a.view(0)) == enc.observe(b.view(0))
    assert enc.observe(a.view(1)) != enc.observe(b.view(1))


# -- notation --------------------------------------------------------------------------------------


def test_notation_round_trip_of_every_legal_action():
    game = start(position([["7S", "5S", "AS"], ["2S", "3S", "4S"]], ["2H", "5C", "3D", "4H", "AD"]))
    for text in game.view(0)["legal"]:
        clone = game.clone()
        assert str(clone.act(0, text.upper())) == text


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("play", "SCOPA-NOTE-1"),
        ("take 7S", "SCOPA-NOTE-1"),
        ("play 7X", "SCOPA-NOTE-1"),
        ("play 8H", "SCOPA-DECK-1"),
        ("play JK", "SCOPA-DECK-1"),
        ("play 7S 3D 3D", "SCOPA-NOTE-1"),
        ("", "SCOPA-NOTE-1"),
    ],
)
def test_malformed_text_is_a_notation_error_citing_a_rule(text, rule):
    game = cardcore.new_game(NAME, 2, seed=4)
    before = game.position()
    with pytest.raises(NotationError, match=rule):
        game.act(0, text)
    assert game.position() == before and game.version == 0


def test_overlong_text_is_refused_unread():
    game = cardcore.new_game(NAME, 2, seed=4)
    with pytest.raises(NotationError):
        game.act(0, "play " + "7S " * 100)


# -- records, saves, clones, positions --------------------------------------------------------


def played(seed: int = 6, moves: int = 50) -> cardcore.Game:
    game = cardcore.new_game(NAME, 2, seed=seed, options={"target": 5})
    agents = [cardcore.RandomAgent(1), cardcore.RandomAgent(2)]
    for _ in range(moves):
        if game.is_over:
            break
        seat = game.to_act[0]
        game.act(seat, str(agents[seat].choose(game.view(seat), game.legal_actions(seat))))
    return game


def test_record_replays_and_save_loads():
    game = played()
    again = cardcore.replay(json.loads(json.dumps(game.record())))
    assert again.position() == game.position() and again.version == game.version
    loaded = cardcore.load(json.dumps(game.save()))
    assert loaded.view(0) == game.view(0) and loaded.history() == game.history()


def test_clone_is_independent():
    game = played(moves=20)
    clone = game.clone()
    seat = clone.to_act[0]
    clone.act(seat, clone.view(seat)["legal"][0])
    assert clone.version == game.version + 1 and clone.position() != game.position()


def test_position_round_trip_keeps_last_capture_and_scores():
    text = position(
        [["7S", "KS"], ["2S", "3S"]], ["3H"], scopas=[1, 2], scores=[3, 4], last_capture=1
    )
    game = start(text)
    assert game.view(0)["table"]["last_capture"] == 1 and game.view(0)["table"]["scores"] == [3, 4]
    assert start(game.position()).position() == game.position()
    with pytest.raises(OptionError, match="hand holds 0 to 3"):
        start(position([["7S", "KS", "AS", "2S"], ["3S"]], ["3H"]))


# -- CLI -------------------------------------------------------------------------------------------


def test_cli_simulate_and_rules_of_a_registered_game():
    from cardcore import cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["rules", NAME]) == 0
    assert "SCOPA-CAPTURE-1" in out.getvalue()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = cli.main(
            [
                "simulate",
                NAME,
                "-p",
                "2",
                "--games",
                "2",
                "-o",
                "target=3",
                "--quiet",
                "--json",
                os.devnull,
            ]
        )
    assert code == 0
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = cli.main(["simulate", NAME, "-p", "2", "--games", "1", "-o", "target=0", "--quiet"])
    assert code == 2 and "target" in err.getvalue()


# -- the house rule and options ------------------------------------------------------------------


def test_scopa_var_1_scopa_worth_the_rules_value():
    text = position([["7S"], ["2S"]], ["3H", "4D", "2C"], stock=[], scopas=[2, 1])
    game = start(text, rules=[RICH], options={"scopa_value": 3})
    game.act(0, "play 7S 3H 4D")
    game.act(1, "play 2S 2C")
    (past,) = game.history()
    assert past["points"] == [4 + 6, 3]
    assert game.record()["options"]["scopa_value"] == 3 and game.rules == (RICH,)
    plain = start(text)
    plain.act(0, "play 7S 3H 4D")
    plain.act(1, "play 2S 2C")
    assert plain.history()[0]["points"] == [4 + 2, 1]


def test_house_rule_option_defaults_and_is_listed():
    game = cardcore.new_game(NAME, 2, rules=[RICH], seed=1)
    assert game.options == {"target": 11, "scopa_value": 2}
    assert RICH in cardcore.available_rules(NAME)
    assert cardcore.new_game(NAME, 2, rules=["SCOPA-VAR-1"], seed=1).rules == (RICH,)


@pytest.mark.parametrize(
    ("rules", "options", "match"),
    [
        ([RICH], {"scopa_value": 9}, "at most 5"),
        ([RICH], {"scopa_value": 0}, "at least 1"),
        ([RICH], {"scopa_value": "2"}, "scopa_value"),
        ([], {"scopa_value": 2}, "choose the rule"),
        ([], {"target": 0}, "at least 1"),
        ([], {"target": 100}, "at most 99"),
        ([], {"target": 2.5}, "target"),
        ([], {"trget": 11}, "no option 'trget'"),
    ],
)
def test_bad_option_values_are_refused_clearly(rules, options, match):
    with pytest.raises(OptionError, match=match):
        cardcore.new_game(NAME, 2, rules=rules, options=options, seed=1)


def test_bool_is_not_a_whole_number_option():
    with pytest.raises(OptionError, match="target"):
        cardcore.new_game(NAME, 2, options={"target": True}, seed=1)


def test_action_types_with_a_card_tuple_field_is_refused_at_new_game():
    """docs/plugin-guide/game.rst: the default parser reads int, str and Card fields; a class
    it cannot read in ``action_types`` is a PluginError from new_game, before the deal."""
    import types

    from cardcore import PluginError, hookimpl

    class Listed(sc.ScopaLogic):
        action_types = (sc.Play,)

    @hookimpl
    def create_logic(ruleset):
        return Listed(ruleset)

    module = types.ModuleType("scopa_listed")
    module.GAME, module.build_deck = sc.GAME, sc.build_deck
    module.scopa_sweep_points, module.create_logic = sc.scopa_sweep_points, create_logic
    cardcore.register("cardcore.games", NAME, module)
    try:
        with pytest.raises(PluginError, match=r"Play\.taken"):
            cardcore.new_game(NAME, 2, seed=1)
    finally:
        cardcore.unregister("cardcore.games", NAME)  # puts the real game back
    assert cardcore.new_game(NAME, 2, seed=1).view(0)["legal"]


def test_configurations_respect_the_seat_range_and_the_rule():
    from cardcore.testing import configurations

    chosen = list(configurations(NAME))
    assert {c.players for c in chosen} == {2, 4}
    assert {c.rules for c in chosen} == {(), (RICH,)}
