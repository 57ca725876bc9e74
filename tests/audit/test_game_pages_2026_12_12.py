"""Audit of docs/games/{golf,tonk,spit}.rst against the engine and the seed rules (2026-12-12).

Every test builds its position from a stacked ``deck=`` and checks one claim of a game page.
"""

import itertools

import pytest

import cardcore

# ---------------------------------------------------------------------------
# Golf
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "rule"),
    [
        ({"rounds": 0}, "GOLF-GAME-1"),
        ({"rounds": 101}, "GOLF-GAME-1"),
        ({"points_limit": 0}, "GOLF-GAME-1"),
        ({"points_limit": 1001}, "GOLF-GAME-1"),
        ({"max_turns": 0}, "GOLF-CAP-1"),
        ({"max_turns": 1001}, "GOLF-CAP-1"),
        ({"dealer": 2}, "GOLF-DEAL-3"),
    ],
)
def test_golf_option_out_of_bounds_is_refused_citing_rule(options, rule):
    with pytest.raises(cardcore.OptionError, match=rule):
        cardcore.new_game("golf", 2, options=options)


@pytest.mark.parametrize(
    "options",
    [
        {"rounds": 1},
        {"rounds": 100},
        {"points_limit": 1000},
        {"max_turns": 1000},
        {"dealer": "random"},
    ],
)
def test_golf_option_at_bound_is_accepted(options):
    cardcore.new_game("golf", 2, options=options, seed=1)


GOLF_LAYOUTS = [6, 8, 9, 10, "4", "4h"]
# the "layouts" column of the page's house-rule table
GOLF_RULE_LAYOUTS = {
    "golf.bonus-twos": GOLF_LAYOUTS,
    "golf.diagonal-pairs": ["4"],
    "golf.ender-penalty-10": GOLF_LAYOUTS,
    "golf.ender-penalty-lowest": GOLF_LAYOUTS,
    "golf.ender-penalty-lowest-literal": GOLF_LAYOUTS,
    "golf.ender-penalty-ties": GOLF_LAYOUTS,
    "golf.final-stock-only": [6, 8, 9, 10],
    "golf.four-of-a-kind-columns": [6, 8, 10],
    "golf.hard": GOLF_LAYOUTS,
    "golf.jokers": GOLF_LAYOUTS,
    "golf.knock-final-stock-only": ["4", "4h"],
    "golf.no-cancelling": ["4", "4h"],
    "golf.no-final-turns": [6, 8, 9, 10],
    "golf.one-eyed-jacks": GOLF_LAYOUTS,
    "golf.pairs-anywhere": [6, 8, 10],
    "golf.peek-nearest": ["4"],
    "golf.remove-columns": [6, 8, 10],
    "golf.remove-triples": [9],
    "golf.reveal-different-columns": [6, 8, 9, 10],
    "golf.reveal-same-column": [6, 8, 9, 10],
}
# the "conflicts with" column
GOLF_CONFLICTS = {
    frozenset(p)
    for p in [
        ("golf.bonus-twos", "golf.jokers"),
        ("golf.bonus-twos", "golf.one-eyed-jacks"),
        ("golf.jokers", "golf.one-eyed-jacks"),
        ("golf.diagonal-pairs", "golf.no-cancelling"),
        ("golf.ender-penalty-10", "golf.ender-penalty-lowest"),
        ("golf.ender-penalty-10", "golf.ender-penalty-lowest-literal"),
        ("golf.ender-penalty-lowest", "golf.ender-penalty-lowest-literal"),
        ("golf.final-stock-only", "golf.no-final-turns"),
        ("golf.four-of-a-kind-columns", "golf.remove-columns"),
        ("golf.reveal-different-columns", "golf.reveal-same-column"),
    ]
}


@pytest.mark.parametrize("rule", sorted(GOLF_RULE_LAYOUTS))
def test_golf_house_rule_layouts_match_table(rule):
    for layout in GOLF_LAYOUTS:
        if layout in GOLF_RULE_LAYOUTS[rule]:
            cardcore.new_game("golf", 2, rules=[rule], options={"layout": layout}, seed=1)
        else:
            with pytest.raises(cardcore.OptionError, match=r"\(GOLF"):
                cardcore.new_game("golf", 2, rules=[rule], options={"layout": layout}, seed=1)


def test_golf_house_rule_conflicts_match_table():
    found = set()
    for a, b in itertools.combinations(sorted(GOLF_RULE_LAYOUTS), 2):
        common = [x for x in GOLF_RULE_LAYOUTS[a] if x in GOLF_RULE_LAYOUTS[b]]
        if not common:
            continue
        try:
            cardcore.new_game("golf", 2, rules=[a, b], options={"layout": common[0]}, seed=1)
        except cardcore.RuleConflictError:
            found.add(frozenset((a, b)))
    assert found == GOLF_CONFLICTS


def _golf4(seat0, seat1, rules=(), up="9C", stock="4D 4S 4H", players=2):
    """GOLF4, two players, default dealer (seat 1): seat 0 knocks on its first turn, seat 1 draws and discards."""
    deck = []
    for x, y in zip(seat0.split(), seat1.split(), strict=True):
        deck += [x, y]
    deck = " ".join([*deck, up, stock])
    game = cardcore.new_game(
        "golf", 2, rules=list(rules), options={"layout": "4", "rounds": 1}, deck=deck, seed=1
    )
    for seat in (0, 1):
        game.act(seat, "peek 0")
        game.act(seat, "peek 1")
    game.act(0, "knock")
    game.act(1, "draw")
    game.act(1, "discard")
    return game


JOKER_LOW = (
    "5H 6H 7H 8H",
    "JK KH KD KC",
)  # ender 26; seat 1: JK -2, three kings: two cancel, one scores 0


@pytest.mark.parametrize(
    ("rule", "ender"),
    [
        ("golf.ender-penalty-10", 36),  # GOLF-PEN-2: +10
        ("golf.ender-penalty-lowest", 26),  # GOLF-PEN-3: + max(-2, 0)
        ("golf.ender-penalty-lowest-literal", 24),  # GOLF-PEN-5: + (-2)
    ],
)
def test_golf_ender_penalties_with_negative_lowest(rule, ender):
    game = _golf4(*JOKER_LOW, rules=["golf.jokers", rule])
    last = game.history(None)[-1]
    assert last["ender"] == 0
    assert last["scores"] == [ender, -2]
    assert game.result.winners == (1,)


def test_golf_four_card_three_of_a_kind_and_no_penalty_without_rule():
    game = _golf4(*JOKER_LOW, rules=["golf.jokers"])
    assert game.history(None)[-1]["scores"] == [26, -2]


@pytest.mark.parametrize(
    ("rules", "scores"),
    [
        (["golf.ender-penalty-10"], [26, 26]),  # GOLF-PEN-4: a tie for lowest is not penalised
        (["golf.ender-penalty-10", "golf.ender-penalty-ties"], [36, 26]),  # GOLF-PEN-6: ties pay
        (["golf.ender-penalty-ties"], [26, 26]),  # ties alone changes nothing
    ],
)
def test_golf_ender_tie_penalty(rules, scores):
    game = _golf4("5H 6H 7H 8H", "5S 6S 7S 8S", rules=rules)
    assert game.history(None)[-1]["scores"] == scores
    assert game.result.winners == ((0, 1) if scores[0] == scores[1] else (1,))


def test_golf_ties_with_penalty_lowest_adds_lowest_on_tie():
    # GOLF-PEN-6 with GOLF-PEN-3: the tied ender pays + max(lowest, 0) = 26
    game = _golf4(
        "5H 6H 7H 8H", "5S 6S 7S 8S", rules=["golf.ender-penalty-lowest", "golf.ender-penalty-ties"]
    )
    assert game.history(None)[-1]["scores"] == [52, 26]


def test_golf_four_card_four_of_a_kind_scores_zero_and_hard_table():
    # GOLF4-SCORE-3 and GOLF-SCORE-2 (HARD: J 11 Q 12 K 13)
    game = _golf4("QH QS QD QC", "JS KS AS 2S", rules=["golf.hard"])
    assert game.history(None)[-1]["scores"] == [0, 11 + 13 + 1 + 2]


def test_golf_four_card_diagonal_pair_only_with_rule():
    # grid 0 1 / 2 3: 5H at 0 and 5S at 3 are diagonal; they cancel only under GOLF4-VAR-1
    plain = _golf4("5H 6H 7H 5S", "KS KH AS 2S")
    diag = _golf4("5H 6H 7H 5S", "KS KH AS 2S", rules=["golf.diagonal-pairs"])
    assert plain.history(None)[-1]["scores"][0] == 23
    assert diag.history(None)[-1]["scores"][0] == 13


def test_golf_no_cancelling_four_of_a_kind_scores_full():
    game = _golf4("3H 3S 3D 3C", "KS KH AS 2S", rules=["golf.no-cancelling"])
    assert game.history(None)[-1]["scores"][0] == 12


def test_golf4_knock_final_stock_only_forbids_take():
    deck = "5H 5S 6H 6S 7H 7S 8H 8S 9C 4D 4S 4H"
    game = cardcore.new_game(
        "golf",
        2,
        rules=["golf.knock-final-stock-only"],
        options={"layout": "4", "rounds": 1},
        deck=deck,
    )
    for seat in (0, 1):
        game.act(seat, "peek 0")
        game.act(seat, "peek 1")
    game.act(0, "knock")
    assert [str(a) for a in game.legal_actions(1)] == ["draw"]
    with pytest.raises(cardcore.IllegalActionError, match="GOLF4-VAR-3"):
        game.act(1, "take")


def test_golf4_view_hides_unpeeked_and_others_cards():
    deck = "5H 5S 6H 6S 7H 7S 8H 8S 9C 4D 4S 4H"
    game = cardcore.new_game("golf", 2, options={"layout": "4", "rounds": 1}, deck=deck)
    game.act(0, "peek 0")
    game.act(0, "peek 3")
    assert game.view(0)["table"]["grids"] == [["5H", None, None, "8H"], [None] * 4]
    assert game.view(1)["table"]["grids"] == [[None] * 4, [None] * 4]
    assert game.view(None)["table"]["grids"] == [[None] * 4, [None] * 4]


def test_golf4_error_for_second_knock_does_not_reveal_cards():
    deck = "5H 5S 6H 6S 7H 7S 8H 8S 9C 4D 4S 4H"
    game = cardcore.new_game("golf", 2, options={"layout": "4", "rounds": 1}, deck=deck)
    for seat in (0, 1):
        game.act(seat, "peek 0")
        game.act(seat, "peek 1")
    game.act(0, "knock")
    with pytest.raises(cardcore.IllegalActionError, match="GOLF4-KNOCK-2") as info:
        game.act(1, "knock")
    for card in ("5H", "6H", "7H", "8H", "5S", "6S", "7S", "8S", "4D"):
        assert card not in str(info.value)


def _golf6_two(seat0, seat1, up, stock, rules=(), **options):
    deck = []
    for x, y in zip(seat0.split(), seat1.split(), strict=True):
        deck += [x, y]
    deck = " ".join([*deck, up, stock])
    return cardcore.new_game(
        "golf", 2, rules=list(rules), options={"rounds": 1, **options}, deck=deck, seed=3
    )


def test_golf_max_turns_ends_round_without_ender_or_penalty():
    # GOLF-CAP-1 / GOLF-PEN-1: a round cut by the cap has no ender, so no penalty
    game = _golf6_two(
        "7H 9C KD 4S 2D QH",
        "3C 8D JS 3D 10H 6S",
        "5C",
        "7D KS 9H QS AH 2C",
        rules=["golf.ender-penalty-10"],
        max_turns=2,
    )
    for seat, text in [(0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 3")]:
        game.act(seat, text)
    game.act(0, "draw")
    game.act(0, "discard")
    assert game.result is None
    game.act(1, "draw")
    game.act(1, "discard")
    last = game.history(None)[-1]
    assert last["ender"] is None
    # Ann: 7H 9C KD / 4S 2D QH -> 7+9+0+4+2+10 = 32; Bob: the 3s cancel, 8+10+10+6 = 34
    assert last["scores"] == [32, 34]
    assert game.result.winners == (0,)


def test_golf_points_limit_ends_match_after_round():
    # GOLF-GAME-1: points_limit 30 (rounds 5); Bob's 34 ends the match after round 1
    game = _golf6_two(
        "7H 9C KD 4S 2D QH",
        "3C 8D JS 3D 10H 6S",
        "5C",
        "7D KS 9H QS AH 2C",
        points_limit=30,
        max_turns=2,
        rounds=5,
    )
    for seat, text in [(0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 3")]:
        game.act(seat, text)
    for seat in (0, 1):
        game.act(seat, "draw")
        game.act(seat, "discard")
    assert game.result is not None
    assert game.result.scores == (32.0, 34.0)
