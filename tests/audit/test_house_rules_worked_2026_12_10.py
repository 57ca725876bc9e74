"""Worked examples for the least-exercised house rules of Golf, Tonk, Spit and Speed
(rules audit, 2026-12-10).

Every expected value was worked out by hand from the seed texts (``../shared/seeds/*.en.md``)
and, where the seed is silent, the decisions of ``rules-decisions.md`` / the rule's printed
text (``cardcore rules GAME``), before the engine was run. The hand computation is written
next to each assertion. Only the public API is used (``cardcore.new_game`` with ``deck=`` or
``position=``, ``Game.act``, ``legal_actions``, ``history``, ``result``, ``view``).

Golf GOLF4 positions: TL 0, TR 1 / BL 2, BR 3 (rows 0-1 and 2-3, columns 0-2 and 1-3).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import cardcore
from cardcore import Game, IllegalActionError

# =========================================================================== Golf helpers


def _bare(token: str) -> str:
    return token.split("!")[0].split("@")[0]


def full_deck(players: int, options: dict[str, Any], rules: Sequence[str]) -> list[str]:
    """Every card of a game with this configuration (read from a fresh game's position)."""
    text = cardcore.new_game("golf", players, options=options, rules=list(rules), seed=1).position()
    cards: list[str] = []
    for segment in text.split(" | ")[1:]:
        cards += [_bare(t) for t in segment.partition(":")[2].split()]
    return cards


def golf_start(
    players: int,
    grids: Sequence[str],
    discard: str,
    stock: str = "",
    *,
    options: dict[str, Any] | None = None,
    rules: Sequence[str] = (),
) -> Game:
    """A Golf game in the draw phase of seat 0 (dealer = last seat).

    *grids*: per seat, cards in position order (``5H!`` face up, ``5H@1`` known to seat 1,
    bare = face down). *discard*: bottom to top, each marked ``!``. *stock*: top first; every
    other card of the deck lies under it.
    """
    options = {"rounds": 1, **(options or {})}
    deck = Counter(full_deck(players, options, rules))
    used = [_bare(t) for g in grids for t in g.split()]
    used += [_bare(t) for t in discard.split()] + stock.split()
    assert not Counter(used) - deck, Counter(used) - deck
    rest = sorted((deck - Counter(used)).elements())
    layout = options.get("layout", 6)
    fields = (
        f'golf layout="{layout}" round=1 dealer={players - 1}'
        ' turn=0 phase="draw" turns=0 ender=null final=null'
        f" totals={json.dumps([0] * players).replace(' ', '')}"
    )
    piles = [
        f"stock: {' '.join([*rest, *reversed(stock.split())])}",
        f"discard: {discard}",
        "held: ",
        *(f"grid.{seat}: {g}" for seat, g in enumerate(grids)),
    ]
    return cardcore.new_game(
        "golf",
        players,
        options=options,
        rules=list(rules),
        position=" | ".join([fields, *piles]),
        seed=5,
    )


def knock_round(
    grids: Sequence[str], rules: Sequence[str], layout: str = "4"
) -> tuple[int | None, list[int]]:
    """GOLF4 / GOLF4H: seat 0 knocks at once (GOLF4-KNOCK-1, -3); every other seat takes its
    one final turn by drawing a stock card (JC, JD, JS: none of them in any layout) and
    discarding it, so every layout is scored exactly as given. Returns (ender, round scores).
    """
    n = len(grids)
    if layout == "4h":  # four cards in hand: the owner knows them (GOLF4H-1)
        grids = [" ".join(f"{c}@{seat}" for c in g.split()) for seat, g in enumerate(grids)]
    stock = " ".join(["JC", "JD", "JS"][: n - 1])
    game = golf_start(n, grids, "QC!", stock, options={"layout": layout}, rules=rules)
    game.act(0, "knock")
    for seat in range(1, n):
        assert game.to_act == (seat,)
        game.act(seat, "draw")
        game.act(seat, "discard")
    assert game.is_over
    past = game.history(None)[-1]
    return past["ender"], past["scores"]


# =========================================================================== Golf: penalties

# Seed, Golf Part 3 Step 3 (penalties for ending the game early), second bullet:
# "If the player who ended the game does not have the lowest score in this round, that player
# gets a number of points equal to [the score of] the player who did. ... Scrooge has 17
# points and Marley has 12 ... The final scores are Scrooge 29 and Marley 12."

_SCROOGE = [
    "5H 3H 8H AH",  # rows 5/3, 8/A; cols 5/8, 3/A: no pair -> 5 + 3 + 8 + 1 = 17
    "2D 3D 6D AD",  # no pair -> 2 + 3 + 6 + 1 = 12
    "10S 9S QS 4S",  # no pair -> 10 + 9 + 10 + 4 = 33
]


@pytest.mark.parametrize(
    ("rule", "scrooge"),
    [
        ("golf.ender-penalty-lowest", 29),  # GOLF-PEN-3: 17 + max(12, 0) = 29 (seed's example)
        ("golf.ender-penalty-lowest-literal", 29),  # GOLF-PEN-5: 17 + 12 = 29
        ("golf.ender-penalty-10", 27),  # GOLF-PEN-2: 17 + 10 = 27
    ],
)
def test_golf4_seed_scrooge_marley_example_with_a_third_player(rule, scrooge):
    """The seed's own example (Scrooge knocks: 17 vs Marley 12 -> Scrooge 29), three seats.

    Seat 0 = Scrooge knocks; seat 1 = Marley (12, lowest); seat 2 has 33 and is not the ender,
    so it is never penalised. Marley's 12 is what Scrooge adds (the lowest, not seat 2's 33).
    """
    assert knock_round(_SCROOGE, [rule]) == (0, [scrooge, 12, 33])


@pytest.mark.parametrize(
    ("penalty", "ender"),
    [
        ((), 26),  # no penalty rule: 26
        (("golf.ender-penalty-lowest",), 26),  # GOLF-PEN-3: 26 + max(-1, 0) = 26
        (("golf.ender-penalty-lowest-literal",), 25),  # GOLF-PEN-5: 26 + (-1) = 25
        (("golf.ender-penalty-10",), 36),  # GOLF-PEN-2: 26 + 10 = 36
    ],
)
def test_golf4_bonus_twos_negative_lowest_literal_penalty_lowers_the_ender(penalty, ender):
    """``golf.bonus-twos`` (GOLF-SCORE-8, seed Part 3 Step 2: the Twos as bonus card, -2).

    Seat 0 knocks: 5H 6H / 7H 8H, no pair: 26. Seat 1: KD 2C / KS AC: column 0 K/K cancels
    (0), 2C = -2, AC = 1: -1, the lowest. Seat 0 is the ender and not lowest.
    The seed's literal Penalty B adds "a number of points equal to" the lowest score, -1
    (GOLF-PEN-5: 25); the engine's default reading adds max(-1, 0) = 0 (GOLF-PEN-3).
    """
    grids = ["5H 6H 7H 8H", "KD 2C KS AC"]
    assert knock_round(grids, ["golf.bonus-twos", *penalty]) == (0, [ender, -1])


@pytest.mark.parametrize(
    ("penalty", "ender"),
    [
        ((), 26),  # no penalty: 26
        (("golf.ender-penalty-ties",), 26),  # PEN-6 alone changes nothing
        (("golf.ender-penalty-10",), 26),  # a tie for lowest is not penalised (GOLF-PEN-4)
        (("golf.ender-penalty-10", "golf.ender-penalty-ties"), 36),  # 26 + 10
        (("golf.ender-penalty-lowest",), 26),  # tie not penalised
        (("golf.ender-penalty-lowest", "golf.ender-penalty-ties"), 52),  # 26 + max(26, 0)
        (("golf.ender-penalty-lowest-literal", "golf.ender-penalty-ties"), 52),  # 26 + 26
    ],
)
def test_golf4_ender_tied_for_lowest_pays_only_with_ties_rule(penalty, ender):
    """GOLF-PEN-6 (``golf.ender-penalty-ties``): an ender tied for the lowest round score pays
    the chosen penalty; without it a tie is not penalised (GOLF-PEN-4, GOLF-GAP-8).

    Seat 0 knocks with 5H 6H / 7H 8H = 26; seat 1 holds 5D 6D / 7D 8D = 26 (no pairs).
    """
    grids = ["5H 6H 7H 8H", "5D 6D 7D 8D"]
    assert knock_round(grids, penalty) == (0, [ender, 26])


@pytest.mark.parametrize(
    ("penalty", "ender"),
    [
        ("golf.ender-penalty-lowest", -1),  # -1 + max(-1, 0) = -1
        ("golf.ender-penalty-lowest-literal", -2),  # -1 + (-1) = -2: the "penalty" lowers it
        ("golf.ender-penalty-10", 9),  # -1 + 10 = 9
    ],
)
def test_golf4_ties_rule_with_a_negative_tied_lowest(penalty, ender):
    """``golf.bonus-twos`` + ``golf.ender-penalty-ties`` + a penalty rule.

    Seat 0 knocks with KD 2C / KS AC: K/K column cancels, -2 + 1 = -1. Seat 1 holds
    KH 2D / KC AD: also -1. The ender ties for lowest, so under GOLF-PEN-6 it pays.
    """
    grids = ["KD 2C KS AC", "KH 2D KC AD"]
    rules = ["golf.bonus-twos", "golf.ender-penalty-ties", penalty]
    assert knock_round(grids, rules) == (0, [ender, -1])


# =========================================================================== Golf: GOLF4 variants


@pytest.mark.parametrize(
    ("rules", "scores"),
    [
        ((), [3, 18]),  # 9H/9D row cancels: 1 + 2 = 3, lowest -> no penalty
        (("golf.ender-penalty-10",), [3, 18]),
        (("golf.no-cancelling",), [21, 18]),  # 9 + 9 + 1 + 2 = 21
        (("golf.no-cancelling", "golf.ender-penalty-10"), [31, 18]),  # 21 > 18 -> +10
    ],
)
def test_golf4_no_cancelling_turns_a_winning_knock_into_a_penalised_one(rules, scores):
    """GOLF4-VAR-2 (seed Part 4 Step 5: "Pairs do not cancel at all") with GOLF-PEN-2.

    Seat 0 knocks with 9H 9D / AS 2S (a row pair of 9s). Seat 1: 4C 5C / 3C 6C = 18.
    """
    assert knock_round(["9H 9D AS 2S", "4C 5C 3C 6C"], rules) == (0, scores)


@pytest.mark.parametrize("layout", ["4", "4h"])
@pytest.mark.parametrize(
    ("rules", "scores"),
    [
        ((), [0, 5]),  # four 7s: whole grid 0; K K K 5: two Ks cancel, K 0 + 5 = 5
        (("golf.hard",), [0, 18]),  # HARD: K 13 + 5 = 18
        (("golf.no-cancelling",), [28, 5]),  # 4 x 7 = 28; 0 + 0 + 0 + 5
        (("golf.no-cancelling", "golf.hard"), [28, 44]),  # 3 x 13 + 5 = 44
    ],
)
def test_golf4_four_and_three_of_a_kind_with_and_without_cancelling(layout, rules, scores):
    """GOLF4-SCORE-2/3 (seed Part 2 Step 8: three of a kind -> two cancel, the third scores;
    four of a kind -> whole grid 0), GOLF4H-2 for the hand, and GOLF4-VAR-2 switching it off
    (the rule applies to GOLF4 and GOLF4H). Seat 0 knocks and is lowest: no penalty anyway.
    """
    assert knock_round(["7H 7D 7S 7C", "KC KD KS 5C"], rules, layout) == (0, scores)


@pytest.mark.parametrize("layout", ["4", "4h"])
def test_golf4_knock_final_stock_only_refuses_the_discard_and_a_second_knock(layout):
    """GOLF4-VAR-3 (seed Part 4 Step 5: "During the last turns, players may only draw from the
    top of the draw pile") and GOLF4-KNOCK-2 ("You cannot knock after someone has already
    knocked"). Three seats; seat 0 knocks; seat 1 may only draw from the stock.
    """
    grids = _SCROOGE
    if layout == "4h":
        grids = [" ".join(f"{c}@{s}" for c in g.split()) for s, g in enumerate(grids)]
    game = golf_start(
        3, grids, "QC!", "JC JD", options={"layout": layout}, rules=["golf.knock-final-stock-only"]
    )
    game.act(0, "knock")
    assert game.to_act == (1,)
    assert [str(a) for a in game.legal_actions(1)] == ["draw"]
    with pytest.raises(IllegalActionError, match="GOLF4-VAR-3"):
        game.act(1, "take")
    with pytest.raises(IllegalActionError, match="GOLF4-KNOCK-2"):
        game.act(1, "knock")


# =========================================================================== Tonk helpers

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL = [r + s for s in "SHDC" for r in RANKS]


def tonk_deck(hands, up, stock=(), dealer=0):
    """A stacked Tonk deck, top first: five rounds of one card each from the dealer's left
    (TONK-DEAL-1), the upcard (TONK-DEAL-2), then the top of the stock."""
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    out = [hands[seat][r] for r in range(5) for seat in order]
    if up:
        out.append(up)
    out += list(stock)
    assert len(set(out)) == len(out)
    return out + [c for c in ALL if c not in out]


def tonk(dealt, up, stock=(), dealer=0, stake=1, rules=()):
    deck = " ".join(tonk_deck(dealt, up, stock, dealer))
    options = {"first_dealer": dealer, "stake": stake}
    return cardcore.new_game(
        "tonk", len(dealt), deck=deck, options=options, seed=3, rules=list(rules)
    )


def legal(game, seat):
    return [str(a) for a in game.legal_actions(seat)]


# =========================================================================== Tonk

# Dealt totals (no 49/50, TONK-49-1): seat 0 5+6+7+10+10 = 38; seat 1 8+9+9+3+4 = 33;
# seat 2 10+10+2+10+3 = 35.
_HIT_HANDS = [
    ["5H", "6H", "7H", "KC", "QC"],
    ["8H", "9D", "9S", "3C", "4D"],
    ["JD", "JH", "2D", "10D", "3S"],
]


@pytest.mark.parametrize("blocked", [False, True], ids=["base", "hit-blocks-drop"])
def test_tonk_hit_blocks_drop_for_one_turn_only_then_the_drop_wins(blocked):
    """TONK-VAR-4 (``tonk.hit-blocks-drop``), three players, dealer 2 -> seat 0 first.

    Round 1: seat 0 draws 2S, spreads 5H 6H 7H, discards KC (hand QC 2S = 12); seat 1 draws AS,
    hits 8H onto seat 0's run (TONK-HIT-1/2), discards 9D (9S 3C 4D AS = 17); seat 2 draws 4S,
    discards JD (JH 2D 10D 3S 4S = 29).
    Round 2, seat 0: its spread was hit by another player, so under the rule it may not drop
    now (refused, TONK-VAR-4); without the rule it drops: 12 < 17, 29 -> strictly lowest,
    S from each (TONK-DROP-2): (+2, -1, -1). Seats 1 and 2 were not hit: they may drop.
    Under the rule seat 0 draws 9C, discards QC (2S 9C = 11); seat 1 draws 5C, discards 9S
    (3C 4D AS 5C = 13); seat 2 draws 6C, discards JH (2D 10D 3S 4S 6C = 25).
    Round 3: the block has lapsed; seat 0 drops with 11 < 13, 25: (+2, -1, -1).
    """
    rules = ["tonk.hit-blocks-drop"] if blocked else []
    stock = ["2S", "AS", "4S", "9C", "5C", "6C"]
    game = tonk(_HIT_HANDS, up="KS", stock=stock, dealer=2, rules=rules)
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    game.act(1, "draw")
    game.act(1, "hit 1 8H")
    game.act(1, "discard 9D")
    game.act(2, "draw")
    game.act(2, "discard JD")
    if not blocked:
        assert "drop" in legal(game, 0)
        game.act(0, "drop")
        assert game.result.payouts == (2, -1, -1)
        return
    assert "drop" not in legal(game, 0)
    with pytest.raises(IllegalActionError, match="TONK-VAR-4"):
        game.act(0, "drop")
    game.act(0, "draw")
    game.act(0, "discard QC")
    assert "drop" in legal(game, 1)
    game.act(1, "draw")
    game.act(1, "discard 9S")
    assert "drop" in legal(game, 2)
    game.act(2, "draw")
    game.act(2, "discard JH")
    assert "drop" in legal(game, 0)
    game.act(0, "drop")
    assert game.is_over
    assert game.result.payouts == (2, -1, -1)


def test_tonk_hit_blocks_drop_ignores_a_hit_on_ones_own_spread():
    """TONK-VAR-4 blocks a player whose spread *another* player hit. Seat 0 draws 8H, spreads
    5H 6H 7H and hits its own run with 8H, discards KC; seats 1 and 2 draw and discard
    without touching it. Seat 0 may drop at the start of its next turn.
    """
    hands = [_HIT_HANDS[0], ["8C", "9D", "9S", "3C", "4D"], _HIT_HANDS[2]]
    game = tonk(hands, up="KS", stock=["8H", "AS", "4S"], dealer=2, rules=["tonk.hit-blocks-drop"])
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "hit 1 8H")
    game.act(0, "discard KC")
    game.act(1, "draw")
    game.act(1, "discard 9D")
    game.act(2, "draw")
    game.act(2, "discard JD")
    assert "drop" in legal(game, 0)


@pytest.mark.parametrize("rules", [(), ("tonk.double-needs-spread",)])
def test_tonk_out_by_two_hits_and_a_new_book_pays_double_under_double_needs_spread(rules):
    """TONK-VAR-3 (seed Variations: double "if they make a new spread and get rid of all their
    cards without discarding"; only S if they "merely hit"). Three players, stake S = 3,
    dealer 2 -> seat 0 first.

    Seat 0 draws 2S, spreads 5H 6H 7H, discards KC. Seat 1 (8H 9C 9D 9S 4H = 39) draws 9H,
    hits 8H and 4H onto seat 0's run (4-5-6-7-8 of hearts), then lays the new book
    9C 9D 9S 9H: its hand is empty without a discard and it made a new spread, so it is a
    tonk-out worth 2S = 6 from each other player in both rule sets (TONK-OUT-1, GAP-7):
    (-6, +12, -6).
    """
    hands = [_HIT_HANDS[0], ["8H", "9C", "9D", "9S", "4H"], _HIT_HANDS[2]]
    game = tonk(hands, up="KS", stock=["2S", "9H"], dealer=2, stake=3, rules=rules)
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    game.act(1, "draw")
    game.act(1, "hit 1 8H")
    game.act(1, "hit 1 4H")
    game.act(1, "spread 9C 9D 9S 9H")
    assert game.is_over
    assert game.result.reason == "tonk-out"
    assert game.result.payouts == (-6, 12, -6)


# =========================================================================== Spit helpers


def spit_position(lay0, lay1, spit0=(), spit1=(), left=(), right=(), rest="L", single=-1):
    """A Spit position in play: layouts as piles bottom -> top (top face up), spit cards and
    centre piles bottom -> top; every card not named lies under ``rest``."""
    zones = {}
    for seat, lay in ((0, lay0), (1, lay1)):
        for k in range(5):
            zones[f"layout.{seat}.{k + 1}"] = list(lay[k]) if k < len(lay) else []
    zones |= {
        "spit.0": list(spit0),
        "spit.1": list(spit1),
        "pile.L": list(left),
        "pile.R": list(right),
    }
    used = [c for cards in zones.values() for c in cards]
    assert len(set(used)) == len(used)
    key = {"L": "pile.L", "R": "pile.R", "0": "spit.0", "1": "spit.1"}[rest]
    zones[key] = [c for c in ALL if c not in used] + zones[key]
    head = (
        f'spit v=1 phase="play" deal=1 single={single} ready=[true,true] '
        "requests=[false,false] stall=0 recycled=false emptier=-1"
    )
    parts = [head]
    for name, cards in zones.items():
        if name.startswith("layout"):
            text = " ".join([*cards[:-1], cards[-1] + "!"]) if cards else ""
        elif name.startswith("pile"):
            text = " ".join(c + "!" for c in cards)
        else:
            text = " ".join(cards)
        parts.append(f"{name}: {text}".rstrip())
    return " | ".join(parts)


def spit(*args, rules=(), **kw):
    return cardcore.new_game(
        "spit", 2, position=spit_position(*args, **kw), seed=1, rules=list(rules)
    )


def table(game):
    return game.view(None)["table"]


# =========================================================================== Spit / Speed


@pytest.mark.parametrize("same_rank", [False, True], ids=["base", "same-rank"])
def test_spit_same_rank_play_prevents_the_automatic_spit(same_rank):
    """SPIT-MOVE-12 (``spit.same-rank``) against SPIT-MOVE-4 and SPIT-STUCK-1/2/3.

    Seat 0 layout 5H, 5C; seat 1 layout 8C, 8D; centre L = 4S (seat 0's home), R = JD (seat
    1's); spit cards seat 0 9S under 6D, seat 1 9D under 3C. Seat 0 plays 5H on 4S.
    Base: 5C fits neither 5H (equal rank, seed: "not on another 5") nor JD; 8C/8D fit neither
    5 nor J: both stuck -> both spit onto their home piles: L top 6D, R top 3C, one spit card
    each; seat 0 can then play 5C on 6D.
    Same-rank: 5C may go on 5H, so nobody is stuck: no spit, L top 5H, R top JD, two spit
    cards each, and ``play 2 L`` is legal.
    Piles in ``view`` are listed top first.
    """
    rules = ["spit.same-rank"] if same_rank else []
    game = spit(
        [["5H"], ["5C"]],
        [["8C"], ["8D"]],
        spit0=["9S", "6D"],
        spit1=["9D", "3C"],
        left=["4S"],
        right=["JD"],
        rules=rules,
    )
    game.act(0, "play 1 L")
    t = table(game)
    tops = (t["piles"]["L"][0], t["piles"]["R"][0])
    counts = [s["spit_cards"] for s in t["seats"]]
    if same_rank:
        assert (tops, counts) == (("5H", "JD"), [2, 2])
    else:
        assert (tops, counts) == (("6D", "3C"), [1, 1])
    assert "play 2 L" in legal(game, 0)


@pytest.mark.parametrize("rules", [(), ("spit.chooser",)])
def test_spit_chooser_has_nothing_to_choose_in_single_pile_mode(rules):
    """SPIT-END-3 (``spit.chooser``) with SPIT-END-5/6 and SPIT-WIN-1/2.

    Single-pile deal: seat 0 has no spit cards (layout 5H, 7C); seat 1 has layout 3H, 2H and
    45 spit cards; only pile R (2S 3S 4S, top 4S). Seat 1 plays 3H then 2H and empties first:
    it "takes nothing from the centre" and keeps its 45 spit cards; seat 0 takes the spit pile
    (5 cards) and its own table cards (2): 7. No choice is offered; the next deal is again
    single-pile (7 <= 15) and starts with the ready phase.
    Second case: seat 0 (no spit cards) plays its only card 5H on 4S first -> it wins.
    """
    game = spit(
        [["5H"], ["7C"]],
        [["3H"], ["2H"]],
        spit1=["AD", "3D", "4D"],
        right=["2S", "3S", "4S"],
        rest="1",
        single=1,
        rules=rules,
    )
    game.act(1, "play 1 R")
    game.act(1, "play 2 R")
    t = table(game)
    assert [s["cards"] for s in t["seats"]] == [7, 45]
    assert (t["deal"], t["mode"]) == (2, "single-pile")
    assert legal(game, 0) == legal(game, 1) == ["ready"]

    game = spit(
        [["5H"]],
        [["KC"], ["9D", "QC"]],
        spit1=["AD", "3D", "4D"],
        right=["2S", "3S", "4S"],
        rest="1",
        single=1,
        rules=rules,
    )
    game.act(0, "play 1 R")
    assert game.is_over
    assert game.result.winners == (0,)


def speed_position(hand0, hand1, side0, side1, left, right):
    """A Speed position with empty stocks; side and play piles bottom -> top; every card not
    named lies under ``left``."""
    zones = {
        "hand.0": list(hand0),
        "hand.1": list(hand1),
        "stock.0": [],
        "stock.1": [],
        "side.0": list(side0),
        "side.1": list(side1),
        "pile.L": list(left),
        "pile.R": list(right),
    }
    used = [c for cards in zones.values() for c in cards]
    zones["pile.L"][:0] = [c for c in ALL if c not in used]
    parts = ["speed v=1 requests=[false,false] recycled=false"]
    for name, cards in zones.items():
        if name.startswith("hand"):
            text = " ".join(f"{c}@{name[-1]}" for c in cards)
        elif name.startswith("pile"):
            text = " ".join(c + "!" for c in cards)
        else:
            text = " ".join(cards)
        parts.append(f"{name}: {text}".rstrip())
    return " | ".join(parts)


@pytest.mark.parametrize("on_request", [False, True], ids=["automatic", "stuck-on-request"])
def test_speed_side_cards_turn_automatically_or_only_on_two_requests(on_request):
    """SPEED-STUCK-1 vs SPEED-STUCK-4 (``speed.stuck-on-request``).

    Hands: seat 0 5H 9C, seat 1 8C 3D (stocks empty). Play piles L 4S, R JD; side piles seat 0
    KH under 6D, seat 1 KS under 10D. Seat 0 plays 5H on 4S. Now 9C fits neither 5H nor JD,
    8C and 3D neither: both stuck.
    Automatic: each turns its side top onto its own play pile at once: L 6D, R 10D (one side
    card left each) and seat 0 may play 9C on 10D.
    On request: nothing turns (L 5H, R JD); seat 0 may only declare ``stuck``; after one
    declaration still nothing; after both, L 6D and R 10D as above.
    """
    rules = ["speed.stuck-on-request"] if on_request else []
    position = speed_position(
        ["5H", "9C"], ["8C", "3D"], ["KH", "6D"], ["KS", "10D"], ["4S"], ["JD"]
    )
    game = cardcore.new_game("speed", 2, position=position, seed=1, rules=rules)
    game.act(0, "play 5H L")

    def tops():
        t = table(game)
        return t["piles"]["L"][0], t["piles"]["R"][0], [s["side"] for s in t["seats"]]

    if on_request:
        assert tops() == ("5H", "JD", [2, 2])
        assert legal(game, 0) == ["stuck"]
        game.act(0, "stuck")
        assert tops() == ("5H", "JD", [2, 2])
        game.act(1, "stuck")
    assert tops() == ("6D", "10D", [1, 1])
    assert "play 9C R" in legal(game, 0)
