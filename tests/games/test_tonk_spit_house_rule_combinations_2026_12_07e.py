"""Tonk and Spit/Speed house rules in combination, and third-party rules on the games' own
hookspecs (review of 2026-12-07e).

Every expected result here is worked by hand from the seeds (``tonk.en.md``,
``spit.en.md``), ``rules-decisions.md`` and the pages ``docs/games/tonk.rst``,
``docs/games/spit.rst``, ``docs/plugin-guide/house-rule.rst``, ``hookspecs.rst`` and
``docs/hooks.rst``; the comments show the working.
"""

from __future__ import annotations

import itertools
import types
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from tests.games.spit.helpers import arrange, golden_game, held
from tests.games.tonk.helpers import NATURAL, last_hand, pass_turn, tonk

import cardcore
from cardcore import (
    IllegalActionError,
    NotationError,
    Option,
    OptionError,
    OtherGameRuleError,
    PluginError,
    RandomAgent,
    RuleInfo,
    hookimpl,
)
from cardcore_spit.actions import ClaimRule
from cardcore_tonk.melds import DealVerdict
from cardcore_tonk.position import stack_deals

# hands (five cards) and their Tonk totals (TONK-VAL-1: A=1, 2-10 face, J/Q/K=10)
H20 = "10S 4H 3D 2C AS"  # 10 + 4 + 3 + 2 + 1 = 20
H15 = "5D 4C 3H 2D AD"  # 5 + 4 + 3 + 2 + 1 = 15
H30 = "10H 6S 7C 3C 4D"  # 10 + 6 + 7 + 3 + 4 = 30
N49 = "10C JH QD KC 9S"  # 10 + 10 + 10 + 10 + 9 = 49: a natural (TONK-49-1)
N50 = "JD JS QS KS 10D"  # 5 x 10 = 50: a natural

NO_UPCARD = "tonk.no-upcard"
MUST_LAY = "tonk.must-lay-down"
DOUBLE_SPREAD = "tonk.double-needs-spread"
HIT_BLOCKS = "tonk.hit-blocks-drop"
VAR5 = "tonk.stock-out-discard-only"
QUIET_ANY = "tonk.quiet-round-any-turns"
VOID_COUNTS = "tonk.void-deal-counts"
SHOWS_ALL = "tonk.deal-shows-every-hand"

TONK_RULES = (
    SHOWS_ALL,
    DOUBLE_SPREAD,
    HIT_BLOCKS,
    MUST_LAY,
    NATURAL,
    NO_UPCARD,
    QUIET_ANY,
    VAR5,
    VOID_COUNTS,
)


# --- helpers ------------------------------------------------------------------------------


@contextmanager
def house_rule(
    name: str, rule_id: str, game: str, options: tuple[Option, ...] = (), **hooks: Any
) -> Iterator[str]:
    """A third-party house rule made from the hookspec pages alone, registered for the block."""
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(id=rule_id, name=name, game=game, summary="test rule", options=options)  # type: ignore[attr-defined]
    vars(module).update(hooks)
    cardcore.register("cardcore.rules", name, module)
    try:
        yield name
    finally:
        cardcore.unregister("cardcore.rules", name)


def every_card_once(game: cardcore.Game) -> bool:
    """Every one of the 52 cards lies in exactly one place."""
    cards = [str(c) for pile in game.state.zones.cards for c in pile]
    return len(cards) == 52 and Counter(cards) == Counter(str(c) for c in cardcore.standard_52())


def to_empty_stock(game: cardcore.Game) -> None:
    """Every turn draws and throws the drawn card away (no spread, no hit) until the stock is
    out; the dealt hands stay as dealt."""
    while game.view(None)["table"]["stock"] > 0 and not game.is_over:
        pass_turn(game, game.to_act[0])


# --- 1. Tonk house rules together -----------------------------------------------------------


def test_every_pair_of_tonk_rules_combines_in_either_order() -> None:
    # tonk.rst: "No two of them conflict: every combination is allowed"; house-rule.rst: the
    # order rules are listed in never matters (sorted by rule ID)
    assert set(cardcore.available_rules("tonk")) == set(TONK_RULES)
    for a, b in itertools.combinations(TONK_RULES, 2):
        one = cardcore.new_game("tonk", 3, rules=[a, b], seed=11)
        other = cardcore.new_game("tonk", 3, rules=[b, a], seed=11)
        assert one.rules == other.rules and {a, b} <= set(one.rules)
        assert one.position() == other.position()


def test_no_upcard_natural_and_deal_shows_every_hand_together() -> None:
    # seat 1 holds N49: a natural (TONK-49-1) also without an upcard (TONK-GAP-13). It collects
    # 2S from each other player: at S = 3, seat 1 +12, seats 0 and 2 -6 each. No upcard: the
    # discard pile is empty and the stock holds 52 - 15 = 37 cards.
    def dealt(rules: list[str]) -> cardcore.Game:
        return tonk([H20, N49, H30], upcard=None, natural=True, rules=rules, stake=3)

    plain = dealt([NO_UPCARD])
    shows = dealt([SHOWS_ALL, NO_UPCARD])
    backwards = dealt([NO_UPCARD, SHOWS_ALL])
    for game in (plain, shows, backwards):
        assert game.is_over and game.result.reason == "natural"
        assert game.result.payouts == (-6, 12, -6)
        table = game.view(None)["table"]
        assert (table["discard_count"], table["stock"]) == (0, 37)
    # only the holder shows (TONK-49-1) ... unless TONK-VAR-8 shows every hand
    assert last_hand(plain)["totals"] == [None, 49, None]

    # and the views agree: seat 0 sees seat 2's hand only when every hand is shown
    def seen_by_0(game: cardcore.Game) -> list[Any]:
        return next(z["cards"] for z in game.view(0)["zones"] if z["name"] == "hand.2")

    assert seen_by_0(plain) == [None] * 5
    assert seen_by_0(shows) == ["3C", "4D", "6S", "7C", "10H"]
    assert last_hand(shows)["totals"] == [20, 49, 30] == last_hand(backwards)["totals"]
    assert shows.position() == backwards.position()


def test_no_upcard_with_the_natural_on_and_no_natural_dealt_starts_from_the_stock() -> None:
    # no 49/50 dealt (20, 15, 30): the hand is played; with no upcard the first player may only
    # drop or draw (TONK-VAR-1), and the pile starts with their discard
    game = tonk(
        [H20, H15, H30], upcard=None, stock="9D", natural=True, rules=[NO_UPCARD, DOUBLE_SPREAD]
    )
    assert [str(a) for a in game.legal_actions(0)] == ["drop", "draw"]
    game.act(0, "draw")
    game.act(0, "discard 9D")
    table = game.view(1)["table"]
    assert (table["discard_top"], table["discard_count"]) == ("9D", 1)


TONK_OUT_DECK = (["2C 3C 4C 5C 6C", "KH KS 8D 8S 10D"], "JH QS 7C")


def _tonk_out(rules: list[str], *, by_hits: bool, **options: Any) -> cardcore.Game:
    """Seat 0 lays 2C 3C 4C, later draws 7C and empties the hand with 5C 6C 7C: by three hits
    on its own run, or as a new run."""
    game = tonk(TONK_OUT_DECK[0], stock=TONK_OUT_DECK[1], rules=rules, **options)
    game.act(0, "draw")  # JH
    game.act(0, "spread 2C 3C 4C")
    game.act(0, "discard JH")
    game.act(1, "draw")  # QS
    game.act(1, "discard QS")
    game.act(0, "draw")  # 7C
    if by_hits:
        for card in ("5C", "6C", "7C"):
            game.act(0, f"hit 1 {card}")
    else:
        game.act(0, "spread 5C 6C 7C")
    return game


@pytest.mark.parametrize("order", [1, -1])
def test_double_needs_spread_must_lay_down_and_hit_blocks_drop_together(order: int) -> None:
    rules = [DOUBLE_SPREAD, MUST_LAY, HIT_BLOCKS][::order]
    # TONK-VAR-2: after drawing JH seat 0 holds 2C 3C 4C 5C 6C JH; a discard may not keep a
    # spread: JH keeps 2C-6C, 2C keeps 3C-6C, 3C keeps 4C-6C, 5C keeps 2C-4C, 6C keeps 2C-5C;
    # only 4C splits the run into 2C 3C and 5C 6C
    game = tonk(TONK_OUT_DECK[0], stock=TONK_OUT_DECK[1], rules=rules)
    game.act(0, "draw")
    assert [str(a) for a in game.legal_actions(0) if a.verb == "discard"] == ["discard 4C"]
    # TONK-VAR-3 at S = 3: out by hits alone pays S (3), with a new spread 2S (6)
    hits = _tonk_out(rules, by_hits=True, stake=3)
    assert hits.result.reason == "tonk-out" and hits.result.payouts == (3, -3)
    spread = _tonk_out(rules, by_hits=False, stake=3)
    assert spread.result.reason == "tonk-out" and spread.result.payouts == (6, -6)


@pytest.mark.parametrize("extra", [[], [NO_UPCARD], [NATURAL, NO_UPCARD]])
def test_stock_out_discard_only_with_quiet_round_any_turns(extra: list[str]) -> None:
    # seat 0 holds 20, seat 1 holds 15 and every turn draws and throws away the drawn card.
    # TONK-VAR-6: every one of those turns is quiet, so when the stock runs out a full quiet
    # round (2 turns) is already behind: the hand ends at once as TONK-STOCK-2; seat 1 (15) is
    # lowest and collects S = 2 from seat 0
    natural = NATURAL in extra
    extra = [r for r in extra if r != NATURAL]
    upcard = None if NO_UPCARD in extra else "QC"
    game = tonk(
        [H20, H15], upcard=upcard, natural=natural, rules=[QUIET_ANY, VAR5, *extra], stake=2
    )
    to_empty_stock(game)
    assert game.is_over and game.result.reason == "stock-out"
    assert game.result.payouts == (-2, 2)
    # without TONK-VAR-6 only turns from the discards count (TONK-VAR-5): play goes on, and
    # asking for the empty stock ends the hand the same way
    plain = tonk([H20, H15], upcard=upcard, natural=natural, rules=[VAR5, *extra], stake=2)
    to_empty_stock(plain)
    seat = plain.to_act[0]
    assert not plain.is_over and [str(a) for a in plain.legal_actions(seat)] == [
        "drop",
        "draw",
        "take",
    ]
    plain.act(seat, "draw")
    assert plain.result.reason == "stock-out" and plain.result.payouts == (-2, 2)


def test_void_deal_counts_with_deal_shows_every_hand() -> None:
    # N49 and N50 dealt: two naturals void the hand (TONK-49-2); under TONK-VAR-7 it is one of
    # the session's hands, so a one-hand session ends on it, nobody paid
    for rules, totals in (
        ([VOID_COUNTS, SHOWS_ALL], [49, 50, 30]),  # TONK-VAR-8: every hand shows
        ([SHOWS_ALL, VOID_COUNTS], [49, 50, 30]),
        ([VOID_COUNTS], [49, 50, None]),  # the naturals' hands only
    ):
        game = tonk([N49, N50, H30], natural=True, rules=rules)
        assert game.is_over and game.result.reason == "void"
        assert game.result.payouts == (0, 0, 0)
        assert last_hand(game)["totals"] == totals


@pytest.mark.parametrize("counts", [True, False])
def test_void_deal_then_a_stacked_natural_with_void_deal_counts(counts: bool) -> None:
    # two-hand session: deal 1 (dealer 2) is void; dealer 0 then deals, seat 1 first, and seat 1
    # holds N49: a natural, 2S from each (-2, +4, -2). With TONK-VAR-7 that was hand 2 of 2 and
    # the session is over; without it, the void deal was not a hand, so one hand is to come.
    rules = [SHOWS_ALL, VOID_COUNTS] if counts else [SHOWS_ALL]
    game = tonk([N49, N50, H30], natural=True, rules=rules, hands=2)
    assert not game.is_over and last_hand(game)["reason"] == "void"
    s1, s2, s0 = N49.split(), H30.split(), H20.split()
    deal = " ".join(x for r in range(5) for x in (s1[r], s2[r], s0[r])) + " QC"
    position = stack_deals(game.position(), [deal])
    again = cardcore.new_game(
        "tonk", 3, rules=game.rules, options=dict(game.options), position=position, seed=1
    )
    again.act(0, "deal")
    entry = last_hand(again)
    assert (entry["reason"], entry["seat"], entry["totals"]) == ("natural", 1, [20, 49, 30])
    assert again.is_over is counts
    if counts:
        assert again.result.payouts == (-2, 4, -2)
    else:
        assert again.view(None)["table"]["balances"] == [-2, 4, -2]


def test_every_tonk_rule_at_once_plays_the_same_in_any_order_and_replays() -> None:
    # the configuration is the rules sorted by ID: listing order changes nothing, and a
    # record, a save, a position and a clone all reproduce the game
    def played(rules: tuple[str, ...]) -> cardcore.Game:
        game = cardcore.new_game("tonk", 3, rules=rules, options={"hands": 3, "stake": 2}, seed=23)
        cardcore.play(game, [RandomAgent(1), RandomAgent(2), RandomAgent(3)])
        return game

    one = played(TONK_RULES)
    other = played(TONK_RULES[::-1])
    assert one.rules == other.rules
    assert one.record()["actions"] == other.record()["actions"]
    assert one.result == other.result
    assert sum(one.result.payouts) == 0 and all(p % 2 == 0 for p in one.result.payouts)
    assert cardcore.replay(one.record()).position() == one.position()
    loaded = cardcore.load(one.save())
    assert loaded.rules == one.rules and loaded.position() == one.position()


def test_tonk_options_are_bounded_with_rules_combined() -> None:
    rules = [VAR5, QUIET_ANY, NO_UPCARD]
    for bad in (
        {"stake": 0},
        {"stake": 1_000_001},
        {"hands": 0},
        {"hands": 100_001},
        {"max_players": 5},
    ):
        with pytest.raises(OptionError):
            cardcore.new_game("tonk", 2, rules=rules, options=bad, seed=1)


def test_a_mid_hand_save_with_stock_out_rules_restores_and_plays_on_the_same() -> None:
    # TONK-VAR-5 play with the stock out: a save, a record, a clone and a position all keep the
    # quiet-round count; the next quiet turn from the discards ends the hand in each (2 players)
    game = tonk([H20, H15], rules=[VAR5, NO_UPCARD], upcard=None, stake=2)
    to_empty_stock(game)
    seat = game.to_act[0]
    game.act(seat, "take")
    game.apply(next(a for a in game.legal_actions(seat) if a.verb == "discard"))
    assert not game.is_over  # one quiet turn of two
    copies = [
        cardcore.load(game.save()),
        cardcore.replay(game.record()),
        game.clone(),
        cardcore.new_game(
            "tonk",
            2,
            rules=game.rules,
            options=dict(game.options),
            position=game.position(),
            seed=9,
        ),
    ]
    start = game.position()
    endings = []
    for copy in [game, *copies]:
        assert copy.position() == start
        seat = copy.to_act[0]
        copy.act(seat, "take")
        copy.apply(next(a for a in copy.legal_actions(seat) if a.verb == "discard"))
        assert copy.is_over and copy.result.reason == "stock-out"
        endings.append(copy.result.payouts)
    assert len(set(endings)) == 1


# --- 2. Spit and Speed house rules together -------------------------------------------------

SPIT_RULES = ("spit.canfield", "spit.chooser", "spit.same-rank")


def _plays(game: cardcore.Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat) if a.verb == "play"]


def _started(rules: tuple[str, ...]) -> cardcore.Game:
    game = golden_game(rules)
    game.act(0, "ready")
    game.act(1, "ready")
    return game


def test_every_spit_rule_combination_is_allowed_in_any_order() -> None:
    assert set(cardcore.available_rules("spit")) == set(SPIT_RULES)
    assert cardcore.available_rules("speed") == ("speed.stuck-on-request",)
    for k in (2, 3):
        for combo in itertools.combinations(SPIT_RULES, k):
            games = [golden_game(order) for order in itertools.permutations(combo)]
            assert len({g.rules for g in games}) == 1
            assert len({g.position() for g in games}) == 1


def test_canfield_with_same_rank_on_the_golden_deal() -> None:
    # SPIT-SETUP-5/7: each seat lays its first four cards on piles 1-4 and the next eleven on
    # pile 5 (the 15th on top); the 16th card starts its spit pile. Seat 0: 2H 4H 7H JH, pile 5
    # QH; L = AH. Seat 1: 4S 5S 6S 7S, pile 5 5D; R = 6D.
    for rules in (("spit.canfield", "spit.same-rank"), ("spit.same-rank", "spit.canfield")):
        game = _started(rules)
        assert game.view(None)["table"]["piles"] == {"L": ["AH"], "R": ["6D"]}
        # seat 0 on A: 2H (one up); on 6: 7H (one up); nothing of rank A or 6 for same-rank
        assert _plays(game, 0) == ["play 1 L", "play 3 R"]
        # seat 1 on 6: 5S, 7S, 5D (one off) and 6S (same rank, SPIT-MOVE-12); nothing fits A
        assert _plays(game, 1) == ["play 2 R", "play 3 R", "play 4 R", "play 5 R"]
    base = _started(("spit.canfield",))
    assert _plays(base, 1) == ["play 2 R", "play 4 R", "play 5 R"]  # 6 on 6 refused (SPIT-MOVE-4)


@pytest.mark.parametrize(
    ("rules", "sizes0", "sizes1", "word"),
    [
        # seat 0 ends with 3 (L) + 5 spit cards = 8; seat 1 the other 44
        ((), [1, 2, 2, 2, 1], [1, 2, 3, 4, 5], "slap"),  # SPIT-SETUP-4 rows for 8; full layout
        (("spit.chooser",), [1, 2, 2, 2, 1], [1, 2, 3, 4, 5], "choose"),
        (
            ("spit.chooser", "spit.canfield"),
            [1, 1, 1, 1, 4],
            [1, 1, 1, 1, 11],
            "choose",
        ),  # SPIT-SETUP-5
        (
            ("spit.canfield", "spit.chooser", "spit.same-rank"),
            [1, 1, 1, 1, 4],
            [1, 1, 1, 1, 11],
            "choose",
        ),
    ],
)
def test_chooser_and_canfield_at_the_end_of_a_deal(
    rules: tuple[str, ...], sizes0: list[int], sizes1: list[int], word: str
) -> None:
    # seat 0's layout is 9H alone with five spit cards; L = KD 8C, R = 5S. 9H onto 8C empties
    # seat 0's layout (SPIT-END-1). Under spit.chooser only seat 0 claims (SPIT-END-3), else both
    # may slap (SPIT-END-2). Seat 0 takes L (KD 8C 9H): 3 + 5 = 8 cards <= 15, so the next deal
    # is single-pile (SPIT-END-5); seat 1 takes R and keeps its own cards: 52 - 8 = 44.
    game = arrange(
        golden_game(rules),
        ["9H"],
        ["2D", "3D", "4D", "5D", "6D"],
        spit0="2C 3C 4C 5C 7C",
        left="KD 8C",
        right="5S",
    )
    game.act(0, "play 1 L")
    assert [str(a) for a in game.legal_actions(0)] == [f"{word} L", f"{word} R"]
    assert [str(a) for a in game.legal_actions(1)] == (
        [] if word == "choose" else ["slap L", "slap R"]
    )
    other = "slap" if word == "choose" else "choose"
    with pytest.raises(NotationError):
        game.act(0, f"{other} L")
    if word == "choose":
        with pytest.raises(IllegalActionError, match="SPIT-END-3"):
            game.apply(game.logic.claims[1][0])
    game.act(0, f"{word} L")
    table = game.view(None)["table"]
    assert (table["mode"], table["deal"]) == ("single-pile", 2)
    assert [len(p) for p in table["seats"][0]["layout"]] == sizes0
    assert [len(p) for p in table["seats"][1]["layout"]] == sizes1
    assert (len(held(game, 0)), len(held(game, 1))) == (8, 44)
    assert every_card_once(game)
    again = cardcore.replay(game.record())
    assert again.position() == game.position()
    assert cardcore.load(game.save()).position() == game.position()


def test_spit_rules_are_refused_for_speed_and_speed_rules_for_spit() -> None:
    with pytest.raises(OtherGameRuleError, match=r"'spit\.same-rank'.*SPIT-MOVE-12"):
        cardcore.new_game("speed", 2, rules=["speed.stuck-on-request", "spit.same-rank"], seed=1)
    with pytest.raises(OtherGameRuleError, match=r"'speed\.stuck-on-request'.*SPEED-STUCK-4"):
        cardcore.new_game("spit", 2, rules=["spit.canfield", "speed.stuck-on-request"], seed=1)


def test_combined_spit_rules_replay_save_and_clone() -> None:
    from tests.games.spit.helpers import walk

    for order in (SPIT_RULES, SPIT_RULES[::-1]):
        game = walk(cardcore.new_game("spit", 2, rules=order, seed=31), 120, seed=4)
        assert every_card_once(game)
        assert cardcore.replay(game.record()).position() == game.position()
        assert cardcore.load(game.save()).position() == game.position()
        assert game.clone().position() == game.position()
    with pytest.raises(OptionError):
        cardcore.new_game("spit", 2, rules=SPIT_RULES, options={"stall_limit": 0}, seed=1)


# --- 3. Third-party rules on the games' own hookspecs ---------------------------------------


def _stock_rule(ends: Callable[[Any], Any]) -> Callable[[], Any]:
    @hookimpl
    def tonk_hand_ends_on_empty_stock() -> Any:
        return ends

    return tonk_hand_ends_on_empty_stock


def _at_the_last_discard(rules: list[str]) -> tuple[cardcore.Game, Any]:
    """Two players pass until seat 0 has drawn the last stock card; return the game and the
    discard that will start seat 1's turn with the stock out."""
    game = tonk([H20, H15], rules=rules)
    while game.view(None)["table"]["stock"] > 1:
        pass_turn(game, game.to_act[0])
    seat = game.to_act[0]
    game.act(seat, "draw")
    return game, next(a for a in game.legal_actions(seat) if a.verb == "discard")


@pytest.mark.parametrize(
    "ends",
    [
        pytest.param(lambda state: (_ for _ in ()).throw(LookupError("oracle down")), id="raises"),
        pytest.param(lambda state: "yes", id="text"),
        pytest.param(lambda state: 1, id="one"),
        pytest.param(lambda state: None, id="none"),
    ],
)
def test_a_third_party_stock_function_failing_in_play_is_its_own_plugin_error(ends: Any) -> None:
    # the rule's ID sorts after TONK-VAR-5, so its answer is the one used (hooks.rst); a call
    # that raises or answers no bool is the rule's PluginError, the game as it was
    with house_rule(
        "tonk.zz-stock", "ZZ-STOCK-1", "tonk", tonk_hand_ends_on_empty_stock=_stock_rule(ends)
    ) as name:
        game, discard = _at_the_last_discard([name, VAR5])
        before = (game.position(), game.version, game.record(), game.view(0), game.view(1))
        with pytest.raises(PluginError) as failure:
            game.apply(discard)
        assert failure.value.plugin == name
        assert name in str(failure.value)
        assert (game.position(), game.version, game.record(), game.view(0), game.view(1)) == before
        assert every_card_once(game)


@pytest.mark.parametrize(("rule_id", "mine_wins"), [("ZZ-NEVER-1", True), ("AA-NEVER-1", False)])
def test_which_stock_answer_wins_follows_the_rule_ids(rule_id: str, mine_wins: bool) -> None:
    # hooks.rst: of two rules answering a firstresult hook, the one whose ID sorts last is asked
    # first. "Never ends" (always False) against TONK-VAR-5: after two quiet turns from the
    # discards (2 players) TONK-VAR-5 ends the hand; the never-ending rule plays on.
    with house_rule(
        "tonk.never-ends",
        rule_id,
        "tonk",
        tonk_hand_ends_on_empty_stock=_stock_rule(lambda state: False),
    ) as name:
        game = tonk([H20, H15], rules=[VAR5, name])
        to_empty_stock(game)
        for _ in range(2):
            seat = game.to_act[0]
            game.act(seat, "take")
            game.apply(next(a for a in game.legal_actions(seat) if a.verb == "discard"))
        assert game.is_over is not mine_wins
        if mine_wins:  # asking for the empty stock still ends it (hookspec: draw is legal)
            seat = game.to_act[0]
            assert [str(a) for a in game.legal_actions(seat)] == ["drop", "draw", "take"]
            game.act(seat, "draw")
            assert game.is_over and game.result.reason == "stock-out"


def _wrapping_rule(mode: str) -> Callable[..., Any]:
    """hooks.rst's post-processing mechanism: a wrapper around TONK-VAR-5's answer."""

    @hookimpl(wrapper=True)
    def tonk_hand_ends_on_empty_stock() -> Any:
        inner = yield

        def ends(state: Any) -> Any:
            if mode == "raise":
                raise LookupError("wrapped oracle down")
            if mode == "text":
                return "maybe"
            return inner(state) or state.quiet_turns >= 1  # half a quiet round is enough

        return ends

    return tonk_hand_ends_on_empty_stock


def test_a_wrapper_around_stock_out_discard_only_takes_effect_and_a_wrong_answer_names_it() -> None:
    # the wrapper ends the hand after one quiet turn from the discards instead of a full round
    with house_rule(
        "tonk.wrap-stock", "ZZ-WRAP-1", "tonk", tonk_hand_ends_on_empty_stock=_wrapping_rule("ok")
    ) as name:
        game, discard = _at_the_last_discard([name, VAR5])
        game.apply(discard)
        seat = game.to_act[0]
        assert [str(a) for a in game.legal_actions(seat)] == ["drop", "draw", "take"]
        game.act(seat, "take")
        game.apply(next(a for a in game.legal_actions(seat) if a.verb == "discard"))
        assert game.is_over and game.result.reason == "stock-out"
    with house_rule(
        "tonk.wrap-stock", "ZZ-WRAP-1", "tonk", tonk_hand_ends_on_empty_stock=_wrapping_rule("text")
    ) as name:
        game, discard = _at_the_last_discard([name, VAR5])
        before = (game.position(), game.version, game.record())
        with pytest.raises(PluginError) as failure:
            game.apply(discard)
        assert failure.value.plugin == name
        assert (game.position(), game.version, game.record()) == before


def test_a_wrapper_s_stock_function_that_raises_is_blamed_on_the_wrapper() -> None:
    with house_rule(
        "tonk.wrap-stock",
        "ZZ-WRAP-1",
        "tonk",
        tonk_hand_ends_on_empty_stock=_wrapping_rule("raise"),
    ) as name:
        game, discard = _at_the_last_discard([name, VAR5])
        before = (game.position(), game.version, game.record())
        with pytest.raises(PluginError) as failure:
            game.apply(discard)
        assert (game.position(), game.version, game.record()) == before  # holds today
        assert every_card_once(game)
        assert (
            failure.value.plugin == name
        )  # today: 'tonk' ("plugin 'tonk' raised LookupError in apply")


def test_a_judge_added_by_a_wrapper_that_raises_is_blamed_on_the_wrapper() -> None:
    def judge(hands: Any, points: Any) -> None:
        raise LookupError("judge down")

    @hookimpl(wrapper=True)
    def tonk_deal_judge() -> Any:
        inner = yield  # a list hook: the list of the judges beneath
        return [judge, *inner]

    with house_rule("tonk.wrap-judge", "ZZ-WJ-1", "tonk", tonk_deal_judge=tonk_deal_judge) as name:
        with pytest.raises(PluginError) as failure:
            tonk([H20, H15], natural=True, rules=[name])
        assert failure.value.plugin == name


def test_a_judge_added_by_a_wrapper_takes_effect_before_the_natural() -> None:
    # the wrapper puts its judge first: seat 1's 15 is a 'low natural' (S = 2 from seat 0)
    @hookimpl(wrapper=True)
    def tonk_deal_judge() -> Any:
        inner = yield
        return [_low_judge, *inner]

    with house_rule("tonk.wrap-judge", "AA-WJ-2", "tonk", tonk_deal_judge=tonk_deal_judge) as name:
        game = tonk([N49, H15], natural=True, rules=[name], stake=2)
        assert (game.result.reason, game.result.payouts) == ("low", (-2, 2))


def _low_judge(hands: Any, points: Any) -> DealVerdict | None:
    """A 'low natural': the first seat dealt 15 or less collects 1 stake from each other seat."""
    n = len(hands)
    for seat, held_cards in enumerate(hands):
        if sum(points[i] for i in held_cards) <= 15:
            return DealVerdict(
                "low", seat, tuple(n - 1 if s == seat else -1 for s in range(n)), shown=(seat,)
            )
    return None


@hookimpl
def _judge_low() -> Any:
    return _low_judge


@pytest.mark.parametrize(("rule_id", "mine_first"), [("ZZ-LOW-1", True), ("AA-LOW-1", False)])
@pytest.mark.parametrize("shows", [False, True])
def test_a_third_party_deal_judge_beside_the_natural(
    rule_id: str, mine_first: bool, shows: bool
) -> None:
    # seat 0 holds N49 (a natural: 2S from each), seat 1 holds 15 (a 'low natural': S from
    # each). The judges are asked in the hook's order, the rule whose ID sorts last first.
    # At S = 2: low -> (-2, +4, -2); natural -> (+8, -4, -4).
    with house_rule("tonk.low", rule_id, "tonk", tonk_deal_judge=_judge_low) as name:
        rules = [name, SHOWS_ALL] if shows else [name]
        game = tonk([N49, H15, H30], natural=True, rules=rules, stake=2)
        if mine_first:
            assert (game.result.reason, game.result.payouts) == ("low", (-2, 4, -2))
            totals = [None, 15, None]
        else:
            assert (game.result.reason, game.result.payouts) == ("natural", (8, -4, -4))
            totals = [49, None, None]
        assert last_hand(game)["totals"] == ([49, 15, 30] if shows else totals)


def test_a_third_party_deal_judge_raising_on_a_later_deal_leaves_the_game_unchanged() -> None:
    # the judge fails only on a deal holding KS; the second deal is stacked to give seat 1 KS
    from cardcore_tonk.melds import CARDS

    def judge(hands: Any, points: Any) -> None:
        if "KS" in {str(CARDS[i]) for h in hands for i in h}:
            raise LookupError("judge down")
        return None

    @hookimpl
    def tonk_deal_judge() -> Any:
        return judge

    with house_rule("tonk.picky", "ZZ-PICKY-1", "tonk", tonk_deal_judge=tonk_deal_judge) as name:
        game = tonk([H20, H15], natural=True, rules=[name], hands=2)
        game.act(0, "drop")  # 20 against 15: caught (TONK-DROP-3), pays 2S; dealer 1 -> 0 next
        assert game.result is None and game.view(None)["table"]["balances"] == [-2, 2]
        position = stack_deals(game.position(), ["KS 2H 3H 4H 5H 6H 7H 8H 9H 10H QC"])
        game = cardcore.new_game(
            "tonk", 2, rules=game.rules, options=dict(game.options), position=position, seed=3
        )
        before = (game.position(), game.version, game.view(None))
        with pytest.raises(PluginError) as failure:
            game.act(0, "deal")  # seat 1, left of dealer 0, receives KS first
        assert failure.value.plugin == name and "LookupError" in str(failure.value)
        assert (game.position(), game.version, game.view(None)) == before
        assert every_card_once(game)


def test_a_third_party_deal_judge_answering_an_unbalanced_verdict_is_refused_by_name() -> None:
    @hookimpl
    def tonk_deal_judge() -> Any:
        return lambda hands, points: DealVerdict("low", 0, (1, 0))  # does not sum to zero

    with (
        house_rule(
            "tonk.unbalanced", "AA-UNBAL-1", "tonk", tonk_deal_judge=tonk_deal_judge
        ) as name,
        pytest.raises(PluginError) as failure,
    ):
        tonk([H20, H15], natural=True, rules=[name, SHOWS_ALL])
    assert failure.value.plugin == name


@hookimpl
def _multiple_units(new_spread: bool, options: Any) -> Any:
    """The rule's own option sets a tonk-out with a new spread; hits alone fall through."""
    multiple = options["tonk_multiple"]
    if multiple == 5:
        return "five"  # a wrong answer under one option value only
    return multiple if new_spread else None


MULTIPLE = (Option("tonk_multiple", default=3, minimum=1, maximum=5, doc="stakes for a tonk-out"),)


@pytest.mark.parametrize("order", [1, -1])
def test_a_third_party_out_units_with_an_option_beside_double_needs_spread(order: int) -> None:
    # ZZ-MULT-1 sorts after TONK-VAR-3: asked first. A new spread: its option (4) stakes; hits
    # alone: it answers None and TONK-VAR-3 answers S. At S = 2: (8, -8) and (2, -2).
    with house_rule(
        "tonk.multiple", "ZZ-MULT-1", "tonk", options=MULTIPLE, tonk_out_units=_multiple_units
    ) as name:
        rules = [name, DOUBLE_SPREAD][::order]
        spread = _tonk_out(rules, by_hits=False, stake=2, tonk_multiple=4)
        assert spread.result.payouts == (8, -8)
        hits = _tonk_out(rules, by_hits=True, stake=2, tonk_multiple=4)
        assert hits.result.payouts == (2, -2)
        again = cardcore.replay(spread.record())
        assert again.result.payouts == (8, -8) and again.options["tonk_multiple"] == 4
        # the option's bounds hold with the rules combined, and name the rule
        for bad in (0, 6, 2.5):
            with pytest.raises(OptionError, match=r"tonk\.multiple"):
                tonk(TONK_OUT_DECK[0], rules=rules, tonk_multiple=bad)
        # refused at the tonk-out under the one option value it answers wrongly, by name
        game = tonk(TONK_OUT_DECK[0], stock=TONK_OUT_DECK[1], rules=rules, tonk_multiple=5)
        for seat, text in [
            (0, "draw"),
            (0, "spread 2C 3C 4C"),
            (0, "discard JH"),
            (1, "draw"),
            (1, "discard QS"),
            (0, "draw"),
        ]:
            game.act(seat, text)
        before = (game.position(), game.version, game.record())
        with pytest.raises(PluginError) as failure:
            game.act(0, "spread 5C 6C 7C")
        assert failure.value.plugin == name
        assert (game.position(), game.version, game.record()) == before


def test_a_huge_out_units_answer_is_blamed_on_the_rule_that_gave_it() -> None:
    @hookimpl
    def tonk_out_units(new_spread: bool) -> int:
        return 10**15  # accepted by the game's int check (at most 1e15 in size)

    with house_rule("tonk.huge", "ZZ-HUGE-1", "tonk", tonk_out_units=tonk_out_units) as name:
        with pytest.raises(PluginError) as failure:  # at new_game or at the tonk-out
            game = tonk(
                ["5H 6H 7H 9C 9D", "KH KS 8D 8S 10D"], stock="9S", rules=[name], stake=1_000_000
            )
            game.act(0, "draw")
            game.act(0, "spread 5H 6H 7H")
            game.act(0, "spread 9S 9C 9D")  # a tonk-out: 1e15 stakes of 1e6 each
        assert failure.value.plugin == name


# --- Spit's hookspecs from a third party ----------------------------------------------------


@hookimpl
def _two_apart() -> list[int]:
    return [2, 11]  # (pile - card) mod 13: a card two below or two above the pile


@pytest.mark.parametrize("order", [1, -1])
def test_a_third_party_rank_gap_merges_with_same_rank_and_canfield(order: int) -> None:
    # spit_rank_gaps is merged: {1, 12} (the game) + {0} (same-rank) + {2, 11} (this rule).
    # Canfield golden deal (see above): L = A, R = 6.
    with house_rule("spit.two-apart", "ZZ-GAP-1", "spit", spit_rank_gaps=_two_apart) as name:
        game = _started(tuple([name, "spit.canfield", "spit.same-rank"][::order]))
        # seat 0 tops 2H 4H 7H JH QH: 2H on A (gap 12); 4H on 6 (gap 2); 7H on 6 (gap 12);
        # JH: A-J = 3, 6-J = 8, no; QH on A (1 - 12 = 2 mod 13)
        assert _plays(game, 0) == ["play 1 L", "play 2 R", "play 3 R", "play 5 L"]
        # seat 1 tops 4S 5S 6S 7S 5D: all onto 6 (gaps 2, 1, 0, 12, 1); none onto A
        assert _plays(game, 1) == ["play 1 R", "play 2 R", "play 3 R", "play 4 R", "play 5 R"]
        game.act(0, "play 5 L")  # QH onto AH: legal by this rule alone
        assert game.view(None)["table"]["piles"]["L"][0] == "QH"


@pytest.mark.parametrize("answer", [[13], [-1], ["12"], 5, [True]])
def test_a_wrong_rank_gap_is_refused_naming_the_third_party_rule(answer: Any) -> None:
    @hookimpl
    def spit_rank_gaps() -> Any:
        return answer

    for rule_id in ("AA-GAP-2", "ZZ-GAP-2"):
        with house_rule("spit.bad-gap", rule_id, "spit", spit_rank_gaps=spit_rank_gaps) as name:
            with pytest.raises(PluginError) as failure:
                golden_game((name, "spit.same-rank"))
            assert failure.value.plugin == name


def test_a_third_party_deal_order_wins_over_canfield_and_round_trips() -> None:
    # firstresult: ZZ-ORD-1 sorts after SPIT-SETUP-5 and is asked first. It deals pile 5,4,3,2
    # one card each and the other eleven onto pile 1: seat 0's received cards 2H 4H 7H JH go to
    # piles 5..2 and pile 1's top is the 15th card, QH
    @hookimpl
    def spit_deal_order(cards: int) -> tuple[int, ...]:
        n = min(cards, 15)
        return (4, 3, 2, 1, *([0] * 11))[:n]

    with house_rule("spit.reversed", "ZZ-ORD-1", "spit", spit_deal_order=spit_deal_order) as name:
        game = golden_game((name, "spit.canfield"))
        layout = game.view(None)["table"]["seats"][0]["layout"]
        assert [len(p) for p in layout] == [11, 1, 1, 1, 1]
        assert [p[0] for p in layout] == ["QH", "JH", "7H", "4H", "2H"]
        game.act(0, "ready")
        game.act(1, "ready")
        for copy in (cardcore.load(game.save()), cardcore.replay(game.record()), game.clone()):
            assert copy.position() == game.position()


@pytest.mark.parametrize(
    "order",
    [
        pytest.param(lambda n: (5,) * min(n, 15), id="pile-6"),
        pytest.param(lambda n: (-1,) * min(n, 15), id="pile-0"),
        pytest.param(lambda n: (0.0,) * min(n, 15), id="float"),
        pytest.param(lambda n: "abc", id="text"),
        pytest.param(lambda n: 1 // 0, id="raises"),
    ],
)
def test_a_wrong_deal_order_is_refused_naming_the_third_party_rule(order: Any) -> None:
    @hookimpl
    def spit_deal_order(cards: int) -> Any:
        return order(cards)

    with house_rule("spit.bad-order", "ZZ-ORD-2", "spit", spit_deal_order=spit_deal_order) as name:
        with pytest.raises(PluginError) as failure:
            golden_game((name, "spit.canfield"))
        assert failure.value.plugin == name


def test_a_third_party_claim_rule_beside_the_chooser() -> None:
    # firstresult: ZZ-GRAB-1 sorts after SPIT-END-3. 'grab', anyone may claim: a slap race
    # under another word; a claim rule of the wrong kind is refused by name
    grab = ClaimRule(word="grab", emptier_only=False, rule_id="ZZ-GRAB-1")

    @hookimpl
    def spit_claim_rule() -> Any:
        return grab

    with house_rule("spit.grab", "ZZ-GRAB-1", "spit", spit_claim_rule=spit_claim_rule) as name:
        game = arrange(
            golden_game((name, "spit.chooser")),
            ["9H"],
            ["2D", "3D", "4D", "5D", "6D"],
            spit0="2C 3C 4C 5C 7C",
            left="KD 8C",
            right="5S",
        )
        game.act(0, "play 1 L")
        assert [str(a) for a in game.legal_actions(1)] == ["grab L", "grab R"]
        game.act(1, "grab R")  # seat 1 takes R (5S); seat 0 gets L: 3 + 5 = 8 cards
        assert (len(held(game, 0)), len(held(game, 1))) == (8, 44)
        assert cardcore.replay(game.record()).position() == game.position()

    @hookimpl
    def wrong_claim_rule() -> Any:
        return "choose"

    with house_rule(
        "spit.wrong-claim", "ZZ-GRAB-2", "spit", spit_claim_rule=wrong_claim_rule
    ) as name:
        with pytest.raises(PluginError) as failure:
            golden_game((name, "spit.chooser"))
        assert failure.value.plugin == name


def test_a_third_party_speed_detection_beside_stuck_on_request() -> None:
    # speed_stuck_detection: firstresult. Sorting after SPEED-STUCK-4 the rule is asked first and
    # its answer that is not a bool is its own error; sorting before, stuck-on-request answers
    # False first and the rule is never asked
    @hookimpl
    def speed_stuck_detection() -> Any:
        return "no"

    with house_rule(
        "speed.odd-detect", "ZZ-DET-1", "speed", speed_stuck_detection=speed_stuck_detection
    ) as name:
        with pytest.raises(PluginError) as failure:
            cardcore.new_game("speed", 2, rules=[name, "speed.stuck-on-request"], seed=1)
        assert failure.value.plugin == name
    with house_rule(
        "speed.odd-detect", "AA-DET-1", "speed", speed_stuck_detection=speed_stuck_detection
    ) as name:
        game = cardcore.new_game("speed", 2, rules=["speed.stuck-on-request", name], seed=1)
        assert game.logic.detect is False
