"""House-rule tests: each rule switched on (or off) changes exactly what it says."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from tests.games.tonk.helpers import NATURAL, hand, last_hand, pass_turn, tonk

import cardcore
from cardcore import IllegalActionError, TurnPassed
from cardcore_tonk.events import HandDealt, HandEnded

H20 = "10S 4H 3D 2C AS"
H15 = "5D 4C 3H 2D AD"
H30 = "10H 6S 7C 3C 4D"
N49 = "10C JH QD KC 9S"  # 10 + 10 + 10 + 10 + 9
N50 = "JD JS QS KS 10D"  # 5 x 10

HOUSE = {
    "tonk.natural-49-50": "TONK-49-1",
    "tonk.no-upcard": "TONK-VAR-1",
    "tonk.must-lay-down": "TONK-VAR-2",
    "tonk.double-needs-spread": "TONK-VAR-3",
    "tonk.hit-blocks-drop": "TONK-VAR-4",
    "tonk.stock-out-discard-only": "TONK-VAR-5",
    "tonk.quiet-round-any-turns": "TONK-VAR-6",
    "tonk.void-deal-counts": "TONK-VAR-7",
    "tonk.deal-shows-every-hand": "TONK-VAR-8",
}


def test_house_rules_are_installed_with_their_ids() -> None:
    assert set(cardcore.available_rules("tonk")) == set(HOUSE)
    for name, rule_id in HOUSE.items():
        info = cardcore.rule_info(name)
        assert (info.id, info.name, info.game) == (rule_id, name, "tonk")
    assert cardcore.game_info("tonk").default_rules == (NATURAL,)
    # every combination is allowed
    game = cardcore.new_game("tonk", 3, seed=2, rules=list(HOUSE))
    assert set(game.rules) == set(HOUSE)


def test_base_modules_do_not_name_house_rules() -> None:
    import cardcore_tonk

    root = Path(cardcore_tonk.__file__).parent
    words = set(HOUSE) | set(HOUSE.values()) | {"TONK-49-2", "TONK-49-3"}
    pattern = re.compile("|".join(re.escape(w) for w in sorted(words)))
    for path in root.glob("*.py"):
        text = path.read_text()
        assert not pattern.search(text), f"{path.name} names a house rule"


# --- TONK-49: natural tonk (a default rule) ------------------------------------------------


def test_tonk_49_1_natural_49_or_50_collects_double() -> None:
    for natural in (N49, N50):
        game = tonk([H20, natural, H30], natural=True)
        assert game.is_over  # the hand is not played
        assert game.result is not None
        assert game.result.reason == "natural"
        assert game.result.payouts == (-2, 4, -2)
    # the dealer is checked too (seat 2 deals here)
    game = tonk([H20, H15, N49], natural=True)
    assert game.result is not None and game.result.payouts == (-2, -2, 4)
    # without the default rule the hand is simply played
    base = tonk([H20, N49, H30])
    assert not base.is_over and base.to_act == (0,)


def test_tonk_49_1_natural_on_the_first_deal_reaches_new_game_subscribers() -> None:
    # the first hand is dealt inside new_game: subscribers given to it see every event
    events: list[cardcore.Event] = []
    mine: list[HandDealt] = []
    game = tonk(
        [H20, N49, H30],
        natural=True,
        hands=2,
        subscribers=[(cardcore.Event, events.append), (HandDealt, mine.append, 1)],
    )
    assert [type(e).__name__ for e in events] == [
        "GameStarted",
        "CardsDealt",
        "HandDealt",
        "HandDealt",
        "HandDealt",
        "HandEnded",
        "TurnPassed",
    ]
    ended = events[5]
    assert isinstance(ended, HandEnded)
    assert (ended.reason, ended.seat, ended.amounts) == ("natural", 1, (-2, 4, -2))
    assert ended.hand_totals == (None, 49, None)  # only the natural's holder shows (TONK-49-1)
    assert events[6] == TurnPassed(0)  # the next dealer (seat 0) is to deal
    assert game.to_act == (0,) and game.view(0)["table"]["phase"] == "between"
    # seat 1's redacted stream: its own cards, nobody else's
    assert [e.cards is not None for e in mine] == [False, True, False]
    # subscribing after new_game is too late for the first deal
    late: list[cardcore.Event] = []
    again = tonk([H20, N49, H30], natural=True, hands=2)
    again.events.subscribe(cardcore.Event, late.append)
    assert late == [] and again.view(0)["table"]["balances"] == [-2, 4, -2]


def test_tonk_49_2_two_naturals_void_hand_deal_passes() -> None:
    game = tonk([N49, N50, H30], natural=True, hands=2)
    table = game.view(0)["table"]
    last = last_hand(game, 0)
    assert last is not None
    assert last["reason"] == "void" and last["amounts"] == [0, 0, 0]
    assert last["shown"] is not None
    assert table["balances"] == [0, 0, 0]
    assert table["dealer"] == 0  # seat 2 dealt the void hand; the deal passed left
    assert table["hand_number"] == 1  # dealt again: not one of the session's two hands
    game.act(0, "deal")
    assert game.view(0)["table"]["hand_number"] == 1 and not game.is_over


def test_tonk_49_2_a_one_hand_session_never_ends_on_a_void_deal() -> None:
    game = tonk([N49, N50, H30], natural=True)  # hands=1
    assert not game.is_over and game.legal_actions(0)[0].verb == "deal"
    game.act(0, "deal")  # the hand dealt again, by the next dealer
    assert not game.is_over and game.view(0)["table"]["hand_sizes"] == [5, 5, 5]


def test_tonk_49_3_only_the_dealt_hand_counts() -> None:
    # P0 is dealt 40 and, after drawing KD and discarding AC, holds exactly 49
    game = tonk(["10S JH QD 9C AC", H15, H30], natural=True, stock="KD")
    game.act(0, "draw")
    game.act(0, "discard AC")
    assert game.view(0)["table"]["total"] == 49
    assert not game.is_over and game.to_act == (1,)
    assert last_hand(game, 0) is None


# --- variants ---------------------------------------------------------------------------------


def test_tonk_var_1_no_upcard() -> None:
    game = tonk([H20, H15, H30], upcard=None, stock="9D 8H", rules=["tonk.no-upcard"])
    table = game.view(0)["table"]
    assert (table["discard_top"], table["discard_count"]) == (None, 0)
    assert table["stock"] == 52 - 15
    assert [str(a) for a in game.legal_actions(0)] == ["drop", "draw"]
    with pytest.raises(IllegalActionError, match=r"\(TONK-TURN-3\)"):
        game.act(0, "take")
    game.act(0, "draw")
    game.act(0, "discard 9D")
    table = game.view(1)["table"]
    assert (table["discard_top"], table["discard_count"]) == ("9D", 1)
    # the natural check still runs after an upcard-less deal (TONK-GAP-13)
    nat = tonk([H20, N49, H30], upcard=None, rules=["tonk.no-upcard"], natural=True)
    assert nat.result is not None and nat.result.reason == "natural"


def test_tonk_var_2_spreads_must_be_laid_three_aces_may_stay() -> None:
    rules = ["tonk.must-lay-down"]
    game = tonk(["5H 6H 7H 9C KD", H15, H30], stock="2S", rules=rules)
    game.act(0, "draw")
    # only the spread, or a discard that breaks it up
    assert [str(a) for a in game.legal_actions(0)] == [
        "spread 5H 6H 7H",
        "discard 5H",
        "discard 6H",
        "discard 7H",
    ]
    with pytest.raises(IllegalActionError, match="TONK-VAR-2"):
        game.act(0, "discard 2S")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard 2S")
    # a book of three aces may be held
    aces = tonk(["AS AH AC 9C KD", "5D 4C 3H 2D 6D", H30], stock="2S", rules=rules)
    aces.act(0, "draw")
    aces.act(0, "discard 2S")
    assert hand(aces, 0) == ["AS", "AH", "AC", "9C", "KD"]
    # four aces may not
    four = tonk(["AS AH AC 9C KD", "5D 4C 3H 2D 6D", H30], stock="AD", rules=rules)
    four.act(0, "draw")
    with pytest.raises(IllegalActionError, match="TONK-VAR-2"):
        four.act(0, "discard 9C")
    # dropping is not restricted
    drop = tonk(["5H 6H 7H 9C KD", H15, H30], rules=rules)
    drop.act(0, "drop")
    assert drop.is_over
    # without the rule the spread may be kept
    base = tonk(["5H 6H 7H 9C KD", H15, H30], stock="2S")
    base.act(0, "draw")
    base.act(0, "discard 2S")


def test_tonk_var_3_double_only_with_a_new_spread() -> None:
    deck = (["2C 3C 4C 5C 6C", "KH KS 8D 8S 10D"], "JH QS 7C")

    def hits_only(rules: list[str]) -> tuple[int, ...] | None:
        game = tonk(deck[0], stock=deck[1], rules=rules)
        game.act(0, "draw")
        game.act(0, "spread 2C 3C 4C")
        game.act(0, "discard JH")
        game.act(1, "draw")
        game.act(1, "discard QS")
        game.act(0, "draw")
        for card in ("5C", "6C", "7C"):
            game.act(0, f"hit 1 {card}")
        assert game.result is not None and game.result.reason == "tonk-out"
        return game.result.payouts

    assert hits_only(["tonk.double-needs-spread"]) == (1, -1)
    assert hits_only([]) == (2, -2)
    # with a new spread in the going-out turn it still pays double
    game = tonk(["5H 6H 7H 9C 9D", H15, H30], stock="9S", rules=["tonk.double-needs-spread"])
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "spread 9S 9C 9D")
    assert game.result is not None and game.result.payouts == (4, -2, -2)


def test_tonk_var_4_hit_player_may_not_drop_next_turn() -> None:
    rules = ["tonk.hit-blocks-drop"]
    game = tonk(["5H 6H 7H KC QD", "4H 2S 9S KD 3D", H30], stock="AC JD JC 9H 10C", rules=rules)
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    game.act(1, "draw")  # JD
    game.act(1, "hit 1 4H")  # P1 hits P0's spread
    game.act(1, "discard JD")
    pass_turn(game, 2)
    assert "drop" not in [str(a) for a in game.legal_actions(0)]
    with pytest.raises(IllegalActionError, match="TONK-VAR-4"):
        game.act(0, "drop")
    pass_turn(game, 0)
    pass_turn(game, 1)
    pass_turn(game, 2)
    assert str(game.legal_actions(0)[0]) == "drop"  # only the next turn is blocked
    # without the rule the hit player may drop
    base = tonk(["5H 6H 7H KC QD", "4H 2S 9S KD 3D", H30], stock="AC JD JC", rules=[])
    base.act(0, "draw")
    base.act(0, "spread 5H 6H 7H")
    base.act(0, "discard KC")
    base.act(1, "draw")
    base.act(1, "hit 1 4H")
    base.act(1, "discard JD")
    pass_turn(base, 2)
    base.act(0, "drop")


def _stock_out_game(rules: list[str]) -> cardcore.Game:
    """Two players pass until the stock runs out; P0 lays 5H 6H 7H with the last stock card."""
    game = tonk(["5H 6H 7H KC QD", "4C 2S 9S KD 3D"], rules=rules)
    while True:
        seat = game.to_act[0]
        stock_left = game.view(None)["table"]["stock"]
        if stock_left == 1:
            assert seat == 0
            game.act(0, "draw")
            game.act(0, "spread 5H 6H 7H")
            drawn = game.state.zones.cards[2][-1]
            game.act(0, f"discard {drawn}" if str(drawn) not in ("KC", "QD") else "discard KC")
            return game
        pass_turn(game, seat)


def test_tonk_var_5_play_on_from_discards_until_a_quiet_round() -> None:
    base = _stock_out_game([])
    assert base.is_over and base.result is not None and base.result.reason == "stock-out"
    game = _stock_out_game(["tonk.stock-out-discard-only"])
    assert not game.is_over
    assert [str(a) for a in game.legal_actions(1)] == ["drop", "draw", "take"]
    game.act(1, "take")
    game.act(1, "discard 2S")  # quiet turn 1
    assert not game.is_over
    game.act(0, "take")
    game.act(
        0, "discard KC" if "KC" in hand(game, 0) else f"discard {hand(game, 0)[0]}"
    )  # quiet turn 2
    assert game.is_over
    assert game.result is not None and game.result.reason == "stock-out"


VAR5 = "tonk.stock-out-discard-only"
QUIET_ANY = "tonk.quiet-round-any-turns"
VOID_COUNTS = "tonk.void-deal-counts"


def _to_the_empty_stock(game: cardcore.Game) -> None:
    """Every turn draws and throws the drawn card away (quiet turns) until the stock is out."""
    while game.view(None)["table"]["stock"] > 0:
        pass_turn(game, game.to_act[0])


def test_tonk_var_5_a_quiet_round_counts_only_turns_from_the_discards() -> None:
    game = tonk([H20, H15, H30], rules=(VAR5,))
    _to_the_empty_stock(game)  # many quiet turns, all before the stock ran out
    assert not game.is_over and [str(a) for a in game.legal_actions(0)] == ["drop", "draw", "take"]
    for _ in range(3):  # a full round from the discards, no spread or hit: the hand ends
        seat = game.to_act[0]
        game.act(seat, "take")
        discard = next(a for a in game.legal_actions(seat) if a.verb == "discard")
        game.apply(discard)
    assert game.is_over and game.result.reason == "stock-out"


def test_tonk_var_6_counts_every_quiet_turn_as_before_0_4_0() -> None:
    game = tonk([H20, H15, H30], rules=(VAR5, QUIET_ANY))
    _to_the_empty_stock(game)
    assert game.is_over and game.result.reason == "stock-out"  # the quiet turns before counted


def test_tonk_var_7_a_void_deal_counts_as_before_0_4_0() -> None:
    game = tonk([N49, N50, H30], natural=True, rules=(VOID_COUNTS,))  # hands=1
    assert game.is_over and game.result.reason == "void"


@pytest.mark.parametrize(
    ("rules", "build"),
    [
        ((VAR5, QUIET_ANY), lambda rules: tonk([H20, H15, H30], rules=rules)),
        ((VOID_COUNTS,), lambda rules: tonk([N49, N50, H30], natural=True, hands=2, rules=rules)),
    ],
)
def test_records_of_tonk_0_3_replay_as_they_were_played(rules: tuple[str, ...], build: Any) -> None:
    """Records made before 0.4.0 name neither rule; their replay adds both (default_before)."""
    old = build(rules)
    if VAR5 in rules:
        _to_the_empty_stock(old)
    else:
        old.act(0, "deal")
    record = old.record()
    record["rules"] = [r for r in record["rules"] if r["name"] not in (QUIET_ANY, VOID_COUNTS)]
    record["game_version"] = "0.3.0"
    again = cardcore.replay(record)
    assert again.position() == old.position() and again.is_over == old.is_over
    assert {QUIET_ANY, VOID_COUNTS} <= set(again.rules)
    record["game_version"] = cardcore.game_info("tonk").version
    try:  # today's rules play it another way: refused, or another game
        differs = cardcore.replay(record).position() != old.position()
    except cardcore.CardcoreError:
        differs = True
    assert differs


@pytest.mark.parametrize("hands", [1, 2])
def test_tonk_49_2_the_position_after_a_void_deal_reads_back(hands: int) -> None:
    game = tonk([N49, N50, H30], natural=True, hands=hands)
    position = game.position()
    assert "played=0" in position and 'phase="between"' in position
    again = cardcore.new_game(
        "tonk", 3, position=position, seed=game.seed, options={"hands": hands}
    )
    assert again.position() == position
    game.act(0, "deal")
    again.act(0, "deal")
    assert again.position() == game.position()


def test_tonk_49_2_the_history_names_the_cut_s_dealer_after_a_void_deal() -> None:
    from tests.games.tonk.helpers import stacked

    cuts: list[cardcore.Event] = []
    game = cardcore.new_game(
        "tonk",
        3,
        deck=stacked([N49, N50, H30], "QC"),
        seed=3,
        options={"hands": 2},
        subscribers=[(cardcore.Event, cuts.append)],
    )
    cut = next(e for e in cuts if type(e).__name__ == "DealerCut")
    history = game.history(None)
    assert history[0]["kind"] == "cut" and history[0]["dealer"] == cut.dealer  # type: ignore[attr-defined]
    assert history[1]["reason"] == "void" and history[1]["dealer"] == cut.dealer  # type: ignore[attr-defined]


def test_tonk_var_8_a_natural_shows_every_hand_as_before_0_5_0() -> None:
    # seat 2 is dealt 49 (10H JH QH KH 9H): under TONK-VAR-8 every hand is shown, as Tonk did before 0.5.0;
    # without it only the natural's holder shows (TONK-49-1)
    def dealt(rules: tuple[str, ...]) -> dict[str, object]:
        game = cardcore.new_game(
            "tonk",
            3,
            rules=rules,
            options={"first_dealer": 0, "hands": 2},
            deck="2S 10H 5C 3S JH 6C 4S QH 7C 5S KH 8C 6S 9H KC QC",
            seed=1,
        )
        entry = game.history(None)[-1]
        assert entry["reason"] == "natural" and entry["seat"] == 2, entry
        return entry

    plain = dealt(())
    assert plain["shown"][0] is None and plain["shown"][1] is None and plain["totals"][2] == 49
    old = dealt(("tonk.deal-shows-every-hand",))
    assert None not in old["shown"] and old["totals"] == [36, 20, 49]
    assert cardcore.earlier_rules("tonk", "0.4.0") == ("tonk.deal-shows-every-hand",)
