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
    game = cardcore.new_game("golf", 2, options=options, seed=1)
    for name, value in options.items():
        assert game.options[name] == value


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


# ---------------------------------------------------------------------------
# Tonk
# ---------------------------------------------------------------------------


def _tonk_deck(hands, up="KD", stock=""):
    """Deal one at a time from seat 0 (the last seat deals); then the upcard and the stock top."""
    split = [hand.split() for hand in hands]
    deck = [split[seat][i] for i in range(5) for seat in range(len(hands))]
    return " ".join([*deck, up, *stock.split()])


def _tonk(hands, stake=1, rules=(), up="KD", stock="", **options):
    return cardcore.new_game(
        "tonk",
        len(hands),
        deck=_tonk_deck(hands, up, stock),
        seed=1,
        rules=list(rules),
        options={"first_dealer": len(hands) - 1, "stake": stake, **options},
    )


# the page's "Worked payouts" table, with totals of five real cards in the same order relations
WORKED_DROPS = [
    (
        "lowest",
        ("AS AH 2S 2H 4D", "AD AC 3S 4S 5S", "2D 2C 3H 5H 6H"),
        [10, 14, 18],
        (2, -1, -1),
        "drop-won",
    ),
    (
        "caught",
        ("AS 2S 3H 7D 7C", "AH 2H 3S 4D 5C", "10S 10H 3D 4C 3C"),
        [20, 15, 30],
        (-2, 3, -1),
        "drop-caught",
    ),
    (
        "by both",
        ("AS 2S 3H 7D 7C", "AH 2H 3S 4D 5C", "10S 4C 2D AD AC"),
        [20, 15, 18],
        (-4, 3, 1),
        "drop-caught",
    ),
    (
        "tied P1",
        ("AS 2S 3H 4D 6C", "AH 2H 3S 4C 6D", "10S 10H 3D 4S 3C"),
        [16, 16, 30],
        (-2, 3, -1),
        "drop-caught",
    ),
    (
        "P1 P2 tie",
        ("AS 2S 3H 6D 7C", "AH 2H 3S 4D 4C", "AD AC 2D 5S 5H"),
        [19, 14, 14],
        (-4, 2, 2),
        "drop-caught",
    ),
]


@pytest.mark.parametrize(
    ("name", "hands", "totals", "units", "reason"), WORKED_DROPS, ids=[w[0] for w in WORKED_DROPS]
)
def test_tonk_worked_drop_payouts_at_stake_5(name, hands, totals, units, reason):
    game = _tonk(hands, stake=5)
    game.act(0, "drop")
    last = game.history(None)[-1]
    assert last["totals"] == totals
    assert game.result.reason == reason
    assert game.result.payouts == tuple(5 * u for u in units)
    assert game.result.scores == tuple(float(u) for u in units)  # payouts in stakes
    best = max(units)
    assert game.result.winners == tuple(s for s, u in enumerate(units) if u == best)
    assert all(shown for shown in game.view(2)["table"]["shown"])  # a drop shows every hand


def test_tonk_natural_pays_two_stakes_and_shows_only_its_hand():
    game = _tonk(("10S 10H 10D JC 9C", "AH 2H 3S 4D 4C", "AD AC 2D 5S 5H"), stake=5)
    assert game.result.reason == "natural"
    assert game.result.payouts == (20, -10, -10)
    assert game.view(1)["table"]["shown"] == [True, False, False]
    last = game.history(1)[-1]
    assert last["shown"][1:] == [None, None] and last["totals"][1:] == [None, None]


def test_tonk_void_deal_is_not_a_hand_and_shows_naturals_only():
    game = _tonk(("10S 10H 10D JC 9C", "JS QS KS 10C 9S", "AD AC 2D 5S 5H"), stake=5)
    assert game.result is None  # a void deal never ends a session (hands=1)
    table = game.view(2)["table"]
    assert table["hand_number"] == 1 and table["phase"] == "between"
    assert table["dealer"] == 0 and game.to_act == (0,)  # the deal passes left
    assert table["shown"] == [True, True, False]
    last = game.history(2)[-1]
    assert last["reason"] == "void" and last["amounts"] == [0, 0, 0]
    assert last["shown"][2] is None
    assert [str(a) for a in game.legal_actions(0)] == ["deal"]


def test_tonk_void_deal_counts_rule_ends_one_hand_session():
    game = _tonk(
        ("10S 10H 10D JC 9C", "JS QS KS 10C 9S", "AD AC 2D 5S 5H"), rules=["tonk.void-deal-counts"]
    )
    assert game.result is not None and game.result.reason == "void"
    assert game.result.payouts == (0, 0, 0)


def test_tonk_deal_shows_every_hand_rule():
    game = _tonk(
        ("10S 10H 10D JC 9C", "AH 2H 3S 4D 4C", "AD AC 2D 5S 5H"),
        rules=["tonk.deal-shows-every-hand"],
    )
    assert game.view(1)["table"]["shown"] == [True, True, True]


@pytest.mark.parametrize(
    ("options", "rule"),
    [
        ({"stake": 0}, "TONK-STAKE-1"),
        ({"stake": 1_000_001}, "TONK-STAKE-1"),
        ({"hands": 0}, "TONK-SESSION-1"),
        ({"hands": 100_001}, "TONK-SESSION-1"),
        ({"max_players": 5}, "TONK-GEN-1"),
        ({"max_players": 1}, "TONK-GEN-1"),
    ],
)
def test_tonk_option_bounds(options, rule):
    with pytest.raises(cardcore.OptionError, match=rule):
        cardcore.new_game("tonk", 2, options=options)


def test_tonk_max_players_names_option():
    with pytest.raises(cardcore.OptionError, match="max_players"):
        cardcore.new_game("tonk", 4)
    with pytest.raises(cardcore.OptionError, match="max_players"):
        cardcore.new_game("tonk", 3, options={"max_players": 2})
    game = cardcore.new_game(
        "tonk", 4, options={"max_players": 4, "stake": 1_000_000, "hands": 100_000}, seed=2
    )
    assert game.view(0)["table"]["hand_sizes"] == [5, 5, 5, 5]


def test_tonk_errors_do_not_reveal_who_holds_a_card():
    game = _tonk(("AS 2S 3H 6D 7C", "AH 2H 3S 4D 4C", "AD AC 2D 5S 5H"), stock="9H")
    game.act(0, "draw")
    with pytest.raises(cardcore.IllegalActionError, match=r"\(TONK-TURN-3\)") as other:
        game.act(0, "discard 4D")  # in seat 1's hand
    with pytest.raises(cardcore.IllegalActionError, match=r"\(TONK-TURN-3\)") as stock:
        game.act(0, "discard 9C")  # in the stock
    assert str(other.value).replace("4D", "X") == str(stock.value).replace("9C", "X")


# seat 0: a dealt book of nines and 2C 3C; seat 1: a club run 4C 5C 6C
HITS = ("9D 9S 9H 2C 3C", "4C 5C 6C KD KS")


def _tonk_hits(rules=(), stake=1):
    game = _tonk(HITS, stake=stake, rules=rules, up="QH", stock="KC 8D 7C 10D")
    for seat, text in [(0, "draw"), (0, "spread 9D 9S 9H"), (0, "discard KC")]:
        game.act(seat, text)
    for seat, text in [(1, "draw"), (1, "spread 4C 5C 6C"), (1, "discard 8D"), (0, "draw")]:
        game.act(seat, text)
    return game


@pytest.mark.parametrize(("rules", "units"), [((), 2), (("tonk.double-needs-spread",), 1)])
def test_tonk_tonk_out_by_hits_only(rules, units):
    game = _tonk_hits(rules, stake=3)
    for text in ["hit 2 7C", "hit 2 3C", "hit 2 2C"]:
        game.act(0, text)
    assert game.result.reason == "tonk-out"
    assert game.result.payouts == (3 * units, -3 * units)
    assert game.view(1)["table"]["shown"] == [False, False]  # a tonk-out shows no hand


def test_tonk_hit_blocks_drop_next_turn():
    game = _tonk_hits(["tonk.hit-blocks-drop"])
    game.act(0, "hit 2 7C")
    game.act(0, "discard 2C")
    assert "drop" not in [str(a) for a in game.legal_actions(1)]
    with pytest.raises(cardcore.IllegalActionError, match="TONK-VAR-4"):
        game.act(1, "drop")


def test_tonk_hit_does_not_block_drop_by_default():
    game = _tonk_hits()
    game.act(0, "hit 2 7C")
    game.act(0, "discard 2C")
    assert "drop" in [str(a) for a in game.legal_actions(1)]


def test_tonk_must_lay_down_refuses_keeping_book_but_allows_three_aces():
    game = _tonk(
        ("9D 9S 9H 2C 4C", "4S 5S 6D KD KS"), rules=["tonk.must-lay-down"], up="QH", stock="KC"
    )
    game.act(0, "draw")
    with pytest.raises(cardcore.IllegalActionError, match="TONK-VAR-2"):
        game.act(0, "discard KC")
    aces = _tonk(
        ("AD AS AH 2C 4C", "4S 5S 6D KD KS"), rules=["tonk.must-lay-down"], up="QH", stock="KC"
    )
    aces.act(0, "draw")
    aces.act(0, "discard KC")
    assert aces.view(0)["table"]["hand"] == ["AS", "AH", "AD", "2C", "4C"]


def test_tonk_no_upcard_first_player_must_draw():
    game = _tonk(("AS 2S 3H 6D 7C", "AH 2H 3S 4D 4C"), rules=["tonk.no-upcard"])
    table = game.view(0)["table"]
    assert table["discard_top"] is None and table["discard_count"] == 0
    assert [str(a) for a in game.legal_actions(0)] == ["drop", "draw"]


def _play_out_stock(game):
    """Every seat draws and discards the card it drew, until the hand ends."""
    while game.result is None:
        seat = game.to_act[0]
        before = set(game.view(seat)["table"]["hand"])
        game.act(seat, "draw")
        (new,) = set(game.view(seat)["table"]["hand"]) - before
        game.act(seat, f"discard {new}")


def test_tonk_stock_exhausted_tied_lowest_each_collect():
    # TONK-STOCK-2 and the table's "stock exhausted" row: totals 19, 14, 14 -> -2, +1, +1
    game = _tonk(("AS 2S 3H 6D 7C", "AH 2H 3S 4D 4C", "AD AC 2D 5S 5H"), stake=2)
    _play_out_stock(game)
    assert game.result.reason == "stock-out"
    assert game.result.payouts == (-4, 2, 2)
    assert game.history(None)[-1]["totals"] == [19, 14, 14]
    assert game.view(0)["table"]["stock"] == 0
    assert all(game.view(0)["table"]["shown"])


def test_tonk_stock_exhausted_two_player_tie_pays_nothing():
    game = _tonk(("AS 2S 3H 4D 6C", "AH 2H 3S 4C 6D"))
    _play_out_stock(game)
    assert game.result.reason == "stock-out"
    assert game.result.payouts == (0, 0)
    assert game.result.winners == (0, 1)


# ---------------------------------------------------------------------------
# Spit and Speed
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "rule"),
    [
        ({"side_pile": 10}, "SPEED-SETUP-2"),
        ({"jokers": 1}, "SPEED-GEN-2"),
        ({"side_pile": 0}, "SPEED-SETUP-2"),
    ],
)
def test_speed_option_values(options, rule):
    with pytest.raises(cardcore.OptionError, match=rule):
        cardcore.new_game("speed", 2, options=options)


@pytest.mark.parametrize(
    ("options", "stock", "side"),
    [
        ({}, 15, 5),
        ({"side_pile": 15}, 5, 15),
        ({"jokers": 2}, 16, 5),
        ({"jokers": 2, "side_pile": 15}, 6, 15),
    ],
)
def test_speed_deal_sizes(options, stock, side):
    game = cardcore.new_game("speed", 2, options=options, seed=4)
    for seat in game.view(None)["table"]["seats"]:
        assert (len(seat["hand"]), seat["stock"], seat["side"]) == (5, stock, side)


def test_speed_view_hides_other_hand_and_error_reveals_nothing():
    game = cardcore.new_game("speed", 2, seed=3)
    mine = game.view(0)["table"]["seats"][0]["hand"]
    assert all(card is not None for card in mine)
    assert game.view(1)["table"]["seats"][0]["hand"] == [None] * 5
    assert game.view(None)["table"]["seats"][0]["hand"] == [None] * 5
    # seat 1 naming a card of seat 0's hand gets the same answer as for a card nobody holds
    held = mine[0]
    with pytest.raises(cardcore.IllegalActionError, match=r"\(SPEED-PLAY-1\)") as info:
        game.act(1, f"play {held} L")
    assert "seat 0" not in str(info.value) and "seat 1's hand" in str(info.value)


@pytest.mark.parametrize("value", [0, -1, True])
def test_spit_stall_limit_bounds(value):
    with pytest.raises(cardcore.OptionError, match="SPIT-STUCK-3"):
        cardcore.new_game("spit", 2, options={"stall_limit": value})


@pytest.mark.parametrize("name", ["spit", "speed"])
@pytest.mark.parametrize("players", [1, 3])
def test_spit_and_speed_take_exactly_two(name, players):
    with pytest.raises(cardcore.OptionError, match=r"\(CORE-SEAT-2\)"):
        cardcore.new_game(name, players)


def test_spit_canfield_layout_shape():
    game = cardcore.new_game("spit", 2, rules=["spit.canfield"], seed=3)
    seat = game.view(0)["table"]["seats"][0]
    assert [len(p) for p in seat["layout"]] == [1, 1, 1, 1, 11]
    assert seat["layout"][4][1:] == [None] * 10 and seat["layout"][4][0] is not None
    assert seat["spit_cards"] == 11


def test_spit_layout_shape_and_hidden_cards():
    game = cardcore.new_game("spit", 2, seed=3)
    for viewer in (0, 1, None):
        layout = game.view(viewer)["table"]["seats"][0]["layout"]
        assert [len(p) for p in layout] == [1, 2, 3, 4, 5]
        assert all(p[0] is not None and all(c is None for c in p[1:]) for p in layout)


# ---------------------------------------------------------------------------
# Golf scoring house rules (GOLF6, a one-turn cap ends the round after seat 0's turn)
# ---------------------------------------------------------------------------


def _golf6_capped(seat0, seat1, rules=(), max_turns=1):
    game = _golf6_two(seat0, seat1, "9C", "QD KC KH", rules=rules, max_turns=max_turns)
    for seat in (0, 1):
        game.act(seat, "flip 0")
        game.act(seat, "flip 3")
    game.act(0, "draw")
    game.act(0, "discard")
    return game


@pytest.mark.parametrize(
    ("seat0", "rules", "scores"),
    [
        # GOLF6-VAR-3: two adjacent columns of fives score 0, the other player gets +10 (23 + 10)
        ("5H 5S 2C 5D 5C 3C", ["golf.four-of-a-kind-columns"], [5, 33]),
        ("5H 5S 2C 5D 5C 3C", ["golf.four-of-a-kind-columns", "golf.pairs-anywhere"], [5, 33]),
        ("5H 5S 2C 5D 5C 3C", [], [5, 23]),
        # GOLF-SCORE-9: JH scores -2 alone, and pairs with JC by rank (GOLF-SCORE-6)
        ("JH 7D 2C 4C 8C 3C", ["golf.one-eyed-jacks"], [22, 23]),
        ("JH 7D 2C JC 8C 3C", ["golf.one-eyed-jacks"], [20, 23]),
        # GOLF-SCORE-8 + GOLF-SCORE-5: a column of twos cancels to 0, a lone 2 scores -2 (seat 1: 2S)
        ("2H 7D 2C 2D 8C 3C", ["golf.bonus-twos"], [16, 19]),
    ],
)
def test_golf6_scoring_house_rules(seat0, rules, scores):
    game = _golf6_capped(seat0, "AS 2S 3S 4H 6S 7S", rules)
    assert game.history(None)[-1]["scores"] == scores


def test_golf_remove_columns_shows_removed_positions():
    game = _golf6_capped(
        "5H 7D 2C 5D 8C 3C", "AS 6D 3S 4H 6S 7S", ["golf.remove-columns"], max_turns=5
    )
    table = game.view(1)["table"]
    assert table["grids"][0] == ["--", None, None, "--", None, None]
    assert table["discards"] == 4  # upcard, the removed pair, seat 0's discard
    game.act(1, "draw")
    game.act(1, "discard")
    game.act(0, "draw")
    assert "replace 0" not in [str(a) for a in game.legal_actions(0)]
    with pytest.raises(cardcore.IllegalActionError, match=r"\(GOLF6-SCORE-2\)"):
        game.act(0, "replace 3")


def test_golf_notation_case_spaces_and_errors():
    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(cardcore.NotationError, match="GOLF-NOTE-1"):
        game.act(0, "flip -1")
    with pytest.raises(cardcore.IllegalActionError, match="GOLF6-KNOCK-1"):
        game.act(0, "knock")
    with pytest.raises(cardcore.IllegalActionError, match="GOLF6-SETUP-2"):
        game.act(0, "peek 0")
    game.act(0, "  FLIP   0 ")
    assert game.view(0)["table"]["grids"][0][0] is not None
