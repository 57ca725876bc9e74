"""A plugin author writes three house rules with options of their own, from the docs only.

Each rule is a third-party plugin registered in place (``cardcore.register``) with its own
``RuleInfo(options=...)``, declared bounds included (docs/plugin-guide/house-rule.rst,
"A rule's own parameters"):

* ``tonk.high-stakes`` (XTONK-STAKES-1): a tonk-out pays ``tonk_multiple`` stakes (2..10)
  from each player instead of 2. Tonk's own hook ``tonk_out_units(new_spread)`` cannot read
  the option (docs/games/tonk.rst), so the rule wraps the core's ``score_round``, which gets
  the state and so ``state.options`` (the workaround).
* ``spit.climb-only`` (XSPIT-CLIMB-1): a card of rank ``climb_rank`` (1..13, default 1 = ace)
  is played only onto the rank just below it ("aces high": an ace only on a king, never on a
  two). Spit's ``spit_rank_gaps()`` takes no arguments, so the rule is a core
  ``forbid_action`` veto reading ``state.options``.
* ``golf.king-value`` (XGOLF-KING-1): kings score ``king_value`` (-5..13) points, through
  Golf's ``golf_score_table(options)`` hook, as docs/plugin-guide/house-rule.rst suggests.

Every position is stacked (``deck=``) or derived from one; seeds are fixed.
"""

from __future__ import annotations

import contextlib
import io
import json
import types
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

import cardcore
from cardcore import GameState, Option, RuleInfo, Veto, cli, hookimpl
from cardcore.testing import check_game
from cardcore_golf.rules import BASIC

# --------------------------------------------------------------------------- the rules

TONK_RULE = RuleInfo(
    id="XTONK-STAKES-1",
    name="tonk.high-stakes",
    game="tonk",
    summary="A tonk-out pays tonk_multiple stakes from each other player instead of 2",
    options=(
        Option(
            "tonk_multiple",
            default=3,
            minimum=2,
            maximum=10,
            doc="Stakes each other player pays a tonk-out",
            rule_id="XTONK-STAKES-1",
        ),
    ),
)


@hookimpl(wrapper=True)
def tonk_high_stakes(state: GameState, scores: Sequence[int]) -> Iterator[None]:
    """Scale a tonk-out's payout (2 stakes from each other seat) to tonk_multiple stakes.

    A tonk-out is the hand that ends with the player to act holding no card and every other
    seat paying exactly 2 stakes (a natural also pays 2 stakes but its holder keeps five cards;
    going out by discarding pays 1 stake).
    """
    inner = yield
    seat = state.turn
    stake = state.options["stake"]
    others = [s for s in range(state.players) if s != seat]
    if state.zones.count(state.zones.id(f"hand.{seat}")) or any(
        scores[s] != -2 * stake for s in others
    ):
        return inner
    multiple = state.options["tonk_multiple"]
    wanted = [
        multiple * stake * len(others) if s == seat else -multiple * stake
        for s in range(state.players)
    ]
    # keep whatever rules beneath changed (inner - scores), on top of the new amounts
    return [w + i - b for w, i, b in zip(wanted, inner, scores, strict=True)]


SPIT_RULE = RuleInfo(
    id="XSPIT-CLIMB-1",
    name="spit.climb-only",
    game="spit",
    summary="A card of rank climb_rank plays only onto the rank just below it (aces high)",
    options=(
        Option(
            "climb_rank",
            default=1,
            minimum=1,
            maximum=13,
            doc="The rank (1 = ace .. 13 = king) that only climbs",
            rule_id="XSPIT-CLIMB-1",
        ),
    ),
)


@hookimpl
def spit_climb_only(state: GameState, action: cardcore.Action) -> Veto | None:
    """Veto a play of the climbing rank onto anything but the rank just below it."""
    if action.verb != "play":
        return None
    zones = state.zones
    card = zones.top(zones.id(f"layout.{action.seat}.{action.pile + 1}"))
    pile = zones.top(zones.id("pile." + "LR"[action.target]))
    if card is None or pile is None or card.rank != state.options["climb_rank"]:
        return None
    if (card.rank - pile.rank) % 13 != 1:
        return Veto("XSPIT-CLIMB-1", f"rank {card.label} plays only onto the rank just below it")
    return None


GOLF_RULE = RuleInfo(
    id="XGOLF-KING-1",
    name="golf.king-value",
    game="golf",
    summary="Kings score king_value points",
    options=(
        Option(
            "king_value",
            default=-2,
            minimum=-5,
            maximum=13,
            doc="Points of a king",
            rule_id="XGOLF-KING-1",
        ),
    ),
)


@hookimpl
def golf_king_value(options: dict[str, object]) -> cardcore.ScoreTable:
    """BASIC with the kings at the rule's value."""
    return BASIC.replace({"K": options["king_value"]})


def _module(rule: RuleInfo, **hooks: object) -> types.ModuleType:
    module = types.ModuleType(rule.name.replace(".", "_").replace("-", "_"))
    module.RULE = rule
    vars(module).update(hooks)
    return module


RULES = {
    "tonk.high-stakes": _module(TONK_RULE, score_round=tonk_high_stakes),
    "spit.climb-only": _module(SPIT_RULE, forbid_action=spit_climb_only),
    "golf.king-value": _module(GOLF_RULE, golf_score_table=golf_king_value),
}


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    for name, module in RULES.items():
        cardcore.register("cardcore.rules", name, module)
    try:
        yield
    finally:
        for name in RULES:
            cardcore.unregister("cardcore.rules", name)


def _cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(args)
        except SystemExit as exc:  # argparse refusals
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


# --------------------------------------------------------------------------- Tonk

# seat 1 deals (first_dealer), so seat 0 gets the first card: 5H 6H 7H 8C 9C (35), seat 1
# 2S 3S 4D 6D 8S (23); upcard KD; seat 0 draws 10C and lays two runs: a tonk-out.
TONK_OUT_DECK = "5H 2S 6H 3S 7H 4D 8C 6D 9C 8S KD 10C QD AS"
TONK_OUT = ["draw", "spread 5H 6H 7H", "spread 8C 9C 10C"]


def _tonk(deck: str, moves: list[str], players: int = 2, **options: int) -> cardcore.Game:
    game = cardcore.new_game(
        "tonk",
        players,
        deck=deck,
        seed=1,
        rules=["tonk.high-stakes"],
        options={"first_dealer": players - 1, **options},
    )
    for text in moves:
        game.act(0, text)
    return game


def test_tonk_out_pays_the_rules_multiple() -> None:
    plain = cardcore.new_game("tonk", 2, deck=TONK_OUT_DECK, seed=1, options={"first_dealer": 1})
    for text in TONK_OUT:
        plain.act(0, text)
    assert (plain.result.reason, plain.result.payouts) == ("tonk-out", (2, -2))
    assert _tonk(TONK_OUT_DECK, TONK_OUT).result.payouts == (3, -3)  # the option's default
    game = _tonk(TONK_OUT_DECK, TONK_OUT, tonk_multiple=5, stake=3)
    assert (game.result.reason, game.result.payouts, game.result.scores) == (
        "tonk-out",
        (15, -15),
        (5.0, -5.0),
    )
    assert game.history(None)[-1]["amounts"] == [15, -15]
    assert _tonk(TONK_OUT_DECK, TONK_OUT, tonk_multiple=10).result.payouts == (10, -10)


def test_tonk_out_three_players_each_pays_the_multiple() -> None:
    # seat 2 deals; seat 0 holds 5H 6H 7H 8C 9C again and draws 10C
    deck = "5H 2S 3D 6H 4S 9D 7H 6S 10D 8C 8S JD 9C KS QD KD 10C QS AS"
    game = _tonk(deck, TONK_OUT, players=3, tonk_multiple=4, stake=2)
    assert (game.result.reason, game.result.payouts) == ("tonk-out", (16, -8, -8))


def test_tonk_out_by_discarding_and_natural_are_left_alone() -> None:
    # seat 0: 5H..9H, draws KC, lays the run and discards KC: out by discarding, 1 stake
    deck = "5H 2S 6H 3S 7H 4D 8H 6D 9H 8S QD KC AS"
    out = _tonk(deck, ["draw", "spread 5H 6H 7H 8H 9H", "discard KC"], tonk_multiple=7)
    assert (out.result.reason, out.result.payouts) == ("out", (1, -1))
    # seat 0 is dealt KH QH JH 10H 9H = 49: a natural pays 2 stakes, not the multiple
    natural = _tonk("KH 2S QH 3S JH 4D 10H 6D 9H 8S QD KC AS", [], tonk_multiple=7)
    assert (natural.result.reason, natural.result.payouts) == ("natural", (2, -2))


def test_tonk_rule_option_bounds_and_unknown_names_are_refused() -> None:
    for value, bound in [(11, "at most 10, not 11"), (1, "at least 2, not 1")]:
        with pytest.raises(cardcore.OptionError) as info:
            cardcore.new_game(
                "tonk", 2, rules=["tonk.high-stakes"], options={"tonk_multiple": value}
            )
        assert "'tonk_multiple'" in str(info.value) and bound in str(info.value)
        assert str(info.value).endswith("(XTONK-STAKES-1)")
    with pytest.raises(cardcore.OptionError, match="has no option 'tonk_multipel'"):
        cardcore.new_game("tonk", 2, rules=["tonk.high-stakes"], options={"tonk_multipel": 3})
    with pytest.raises(cardcore.OptionError, match=r"house rule 'tonk\.high-stakes' takes it"):
        cardcore.new_game("tonk", 2, options={"tonk_multiple": 3})


def test_rule_option_bound_error_names_the_rule_without_rule_id() -> None:
    rule = RuleInfo(
        id="XTONK-NORID-1",
        name="tonk.no-rule-id",
        game="tonk",
        summary="An option declared as in house-rule.rst's example",
        options=(Option("norid_multiple", default=3, minimum=2, maximum=10),),
    )
    cardcore.register("cardcore.rules", rule.name, _module(rule, score_round=tonk_high_stakes))
    try:
        with pytest.raises(cardcore.OptionError) as info:
            cardcore.new_game("tonk", 2, rules=[rule.name], options={"norid_multiple": 11})
        assert "at most 10" in str(info.value)
        assert rule.name in str(info.value) or rule.id in str(info.value)
    finally:
        cardcore.unregister("cardcore.rules", rule.name)


def _units_rule(hook: object) -> str:
    rule = RuleInfo(
        id="XTONK-UNITS-1",
        name="tonk.units-by-option",
        game="tonk",
        summary="tonk_out_units read from an option",
        options=(Option("units", default=5, minimum=2, maximum=10, rule_id="XTONK-UNITS-1"),),
    )
    cardcore.register("cardcore.rules", rule.name, _module(rule, tonk_out_units=hook))
    return rule.name


def test_tonk_out_units_asking_for_what_it_is_not_given_is_refused_clearly() -> None:
    """(Written when tonk_out_units took no options; they are given since this review.)"""

    @hookimpl
    def tonk_out_units(new_spread: bool, state: object) -> int:
        return 3

    name = _units_rule(tonk_out_units)
    try:
        with pytest.raises(cardcore.PluginError) as info:
            cardcore.new_game("tonk", 2, rules=[name])
        text = str(info.value)
        assert "'tonk.units-by-option'" in text and "has no argument 'state'" in text
        assert "it offers: new_spread, options" in text
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_tonk_out_units_can_read_a_rule_option() -> None:
    @hookimpl
    def tonk_out_units(new_spread: bool, options: dict[str, int]) -> int:
        return options["units"]

    name = _units_rule(tonk_out_units)
    try:
        game = cardcore.new_game(
            "tonk",
            2,
            deck=TONK_OUT_DECK,
            seed=1,
            rules=[name],
            options={"first_dealer": 1, "units": 7},
        )
        for text in TONK_OUT:
            game.act(0, text)
        assert game.result.payouts == (7, -7)
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_tonk_rule_record_save_and_position_replay() -> None:
    game = _tonk(TONK_OUT_DECK, TONK_OUT, tonk_multiple=6)
    record = game.record()
    assert record["options"]["tonk_multiple"] == 6
    assert {r["name"] for r in record["rules"]} == {"tonk.high-stakes", "tonk.natural-49-50"}
    assert cardcore.replay(json.dumps(record)).result == game.result
    assert cardcore.load(json.dumps(game.save())).result == game.result
    # a position before the tonk-out, read back with the same options, pays the same
    start = _tonk(TONK_OUT_DECK, ["draw", "spread 5H 6H 7H"], tonk_multiple=6)
    again = cardcore.new_game(
        "tonk",
        2,
        rules=["tonk.high-stakes"],
        position=start.position(),
        options=dict(start.options),
        seed=9,
    )
    again.act(0, "spread 8C 9C 10C")
    assert again.result.payouts == (6, -6)


def test_tonk_rule_conforms() -> None:
    report = check_game(
        "tonk", rules=["tonk.high-stakes"], options={"tonk_multiple": 7}, games=4, seed=3
    )
    assert report.cards_lost == 0 and report.leaks == 0 and not report.failures


def test_tonk_rule_on_the_command_line(tmp_path: Path) -> None:
    code, out, _ = _cli(["rules", "tonk", "tonk.high-stakes"])
    assert code == 0 and "XTONK-STAKES-1" in out and "-o tonk_multiple=3 (2 to 10)" in out
    code, out, _ = _cli(["rules", "tonk"])
    assert code == 0 and "tonk.high-stakes" in out and "tonk_multiple" in out
    summary = tmp_path / "tonk.json"
    code, _, _ = _cli(
        [
            "simulate",
            "tonk",
            "--rules",
            "tonk.high-stakes",
            "-o",
            "tonk_multiple=5",
            "--games",
            "6",
            "--quiet",
            "--json",
            str(summary),
        ]
    )
    data = json.loads(summary.read_text())
    assert code == 0 and data["rules"] == ["tonk.high-stakes"]
    assert data["options"]["tonk_multiple"] == 5
    code, out, _ = _cli(
        ["compare", "tonk", "--rules", "tonk.high-stakes", "-o", "tonk_multiple=10", "--games", "4"]
    )
    assert code == 0 and "options tonk_multiple=10" in out
    code, _, err = _cli(
        [
            "simulate",
            "tonk",
            "--rules",
            "tonk.high-stakes",
            "-o",
            "tonk_multiple=11",
            "--games",
            "2",
        ]
    )
    assert code == 2 and "must be at most 10, not 11 (XTONK-STAKES-1)" in err
    code, _, err = _cli(
        ["simulate", "tonk", "--rules", "tonk.high-stakes", "-o", "tonk_multipel=5", "--games", "2"]
    )
    assert code == 2 and "no option 'tonk_multipel'" in err
    code, _, err = _cli(["simulate", "tonk", "-o", "tonk_multiple=5", "--games", "2"])
    assert code == 2 and "--rules tonk.high-stakes" in err


def test_tonk_rule_record_verifies_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "tonk.json"
    path.write_text(json.dumps(_tonk(TONK_OUT_DECK, TONK_OUT, tonk_multiple=4).record()))
    code, out, _ = _cli(["verify", str(path)])
    assert code == 0 and "tonk-out" in out


# --------------------------------------------------------------------------- Spit

# The worked example's deck (docs/games/spit.rst) with AH and 2H swapped (seat 0's pile 1 is
# AH, its first spit card 2H) and 6D and KD swapped (seat 1's first spit card is KD): after
# both are ready, L = 2H, R = KD and seat 0's tops are AH 3H 5H 8H QH.
SPIT_DECK = (
    "AH 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D 8H 3D KH 4D "
    "QH 5D 2H KD AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C 6D 8C JC 9C QC 10C KC"
)


def _spit(rules: list[str], **options: int) -> cardcore.Game:
    game = cardcore.new_game("spit", ["Ann", "Bob"], deck=SPIT_DECK, rules=rules, options=options)
    game.act(0, "ready")
    game.act(1, "ready")
    assert game.view(None)["table"]["piles"] == {"L": ["2H"], "R": ["KD"]}
    return game


def test_spit_aces_climb_only_onto_kings() -> None:
    base = ["play 1 L", "play 1 R", "play 2 L", "play 5 R", "spit"]
    assert _spit([]).view(0)["legal"] == base
    game = _spit(["spit.climb-only"])  # climb_rank 1: the ace
    assert game.view(0)["legal"] == ["play 1 R", "play 2 L", "play 5 R", "spit"]
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(0, "play 1 L")  # AH onto 2H
    assert str(info.value).endswith("(XSPIT-CLIMB-1)")
    game.act(0, "play 1 R", at=1.0)  # AH onto KD
    assert game.view(None)["table"]["piles"]["R"] == ["AH", "KD"]


def test_spit_climb_rank_option_picks_the_rank() -> None:
    queens = _spit(["spit.climb-only"], climb_rank=12)  # QH may not go down onto KD
    assert queens.view(0)["legal"] == ["play 1 L", "play 1 R", "play 2 L", "spit"]
    threes = _spit(["spit.climb-only"], climb_rank=3)  # 3H onto 2H climbs: still legal
    assert threes.view(0)["legal"] == ["play 1 L", "play 1 R", "play 2 L", "play 5 R", "spit"]
    for value, bound in [(14, "at most 13, not 14"), (0, "at least 1, not 0")]:
        with pytest.raises(cardcore.OptionError) as info:
            cardcore.new_game("spit", 2, rules=["spit.climb-only"], options={"climb_rank": value})
        assert bound in str(info.value) and "(XSPIT-CLIMB-1)" in str(info.value)
    with pytest.raises(cardcore.OptionError, match="has no option 'climb_rnak'"):
        cardcore.new_game("spit", 2, rules=["spit.climb-only"], options={"climb_rnak": 2})


def test_spit_rule_record_save_and_position_replay() -> None:
    game = _spit(["spit.climb-only"], climb_rank=12)
    game.act(0, "play 1 R", at=1.0)
    record = game.record()
    assert record["options"]["climb_rank"] == 12
    assert cardcore.replay(json.dumps(record)).view(None) == game.view(None)
    assert cardcore.load(json.dumps(game.save())).view(None) == game.view(None)
    copy = cardcore.new_game(
        "spit",
        2,
        rules=["spit.climb-only"],
        position=game.position(),
        options={"climb_rank": 12},
        seed=4,
    )
    assert copy.view(0)["legal"] == game.view(0)["legal"]


def test_spit_rule_conforms() -> None:
    report = check_game(
        "spit", rules=["spit.climb-only"], options={"climb_rank": 1}, games=2, seed=3
    )
    assert report.cards_lost == 0 and report.leaks == 0 and not report.failures


def test_spit_rule_on_the_command_line() -> None:
    code, out, _ = _cli(["rules", "spit", "XSPIT-CLIMB-1"])
    assert code == 0 and "spit.climb-only" in out and "-o climb_rank=1 (1 to 13)" in out
    code, _, _ = _cli(
        [
            "simulate",
            "spit",
            "--rules",
            "spit.climb-only",
            "-o",
            "climb_rank=13",
            "--games",
            "2",
            "--quiet",
            "--json",
            "-",
        ]
    )
    assert code == 0
    code, out, _ = _cli(
        ["compare", "spit", "--rules", "spit.climb-only", "-o", "climb_rank=13", "--games", "2"]
    )
    assert code == 0 and "options climb_rank=13" in out
    code, _, err = _cli(
        ["simulate", "spit", "--rules", "spit.climb-only", "-o", "climb_rank=14", "--games", "2"]
    )
    assert code == 2 and "at most 13, not 14 (XSPIT-CLIMB-1)" in err


# --------------------------------------------------------------------------- Golf

# docs/games/golf.rst's worked round: Ann ends with 7H 9C KS / 7D 9H AH (7s and 9s cancel,
# K + A left), Bob with 3C 4S QS / 3D 2C 6S (22, no king).
GOLF_DECK = "7H 3C 9C 8D KD JS 4S 3D 2D 10H QH 6S 5C 7D KS 9H QS AH 2C"
GOLF_MOVES = [
    (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 3"), (0, "draw"), (0, "r 3"),
    (1, "take"), (1, "replace 1"), (0, "draw"), (0, "replace 2"), (1, "draw"), (1, "discard"),
    (0, "take"), (0, "replace 4"), (1, "draw"), (1, "replace 2"), (0, "draw"), (0, "replace 5"),
    (1, "draw"), (1, "replace 4"),
]  # fmt: skip


def _golf(rules: list[str], **options: int) -> cardcore.Game:
    game = cardcore.new_game(
        "golf", ["Ann", "Bob"], deck=GOLF_DECK, rules=rules, options={"rounds": 1, **options}
    )
    for seat, text in GOLF_MOVES:
        game.act(seat, text)
    return game


def test_golf_kings_score_the_option() -> None:
    assert _golf([]).result.scores == (1.0, 22.0)  # K 0 + A 1
    assert _golf(["golf.king-value"]).result.scores == (-1.0, 22.0)  # default -2
    five, minus = (
        _golf(["golf.king-value"], king_value=5),
        _golf(["golf.king-value"], king_value=-5),
    )
    assert five.history(None)[-1]["scores"] == [6, 22]
    assert minus.result.scores == (-4.0, 22.0)
    assert five.logic is minus.logic  # one configuration, each game its own option
    assert _golf(["golf.king-value"], king_value=13).result.winners == (0,)


def test_golf_rule_bounds_replay_and_conformance() -> None:
    for value, bound in [(14, "at most 13, not 14"), (-6, "at least -5, not -6")]:
        with pytest.raises(cardcore.OptionError) as info:
            cardcore.new_game("golf", 2, rules=["golf.king-value"], options={"king_value": value})
        assert bound in str(info.value) and "(XGOLF-KING-1)" in str(info.value)
    with pytest.raises(cardcore.OptionError, match="has no option 'kings_value'"):
        cardcore.new_game("golf", 2, rules=["golf.king-value"], options={"kings_value": 1})
    game = _golf(["golf.king-value"], king_value=7)
    record = game.record()
    assert record["options"]["king_value"] == 7
    assert cardcore.replay(json.dumps(record)).result == game.result
    assert cardcore.load(json.dumps(game.save())).result == game.result
    report = check_game(
        "golf", rules=["golf.king-value"], options={"king_value": 9, "rounds": 1}, games=3, seed=3
    )
    assert report.cards_lost == 0 and report.leaks == 0 and not report.failures


def test_golf_rule_on_the_command_line() -> None:
    code, out, _ = _cli(["rules", "golf", "golf.king-value"])
    assert code == 0 and "XGOLF-KING-1" in out and "-o king_value=-2 (-5 to 13)" in out
    code, out, _ = _cli(
        [
            "simulate",
            "golf",
            "--rules",
            "golf.king-value",
            "-o",
            "king_value=-5",
            "-o",
            "rounds=1",
            "--games",
            "4",
            "--quiet",
            "--json",
            "-",
        ]
    )
    assert code == 0 and '"king_value": -5' in out
    code, out, _ = _cli(
        [
            "compare",
            "golf",
            "--rules",
            "golf.king-value",
            "-o",
            "king_value=13",
            "-o",
            "rounds=1",
            "--games",
            "6",
        ]
    )
    assert code == 0 and "options" in out and "king_value=13" in out
    code, _, err = _cli(
        ["simulate", "golf", "--rules", "golf.king-value", "-o", "king_value=-6", "--games", "2"]
    )
    assert code == 2 and "at least -5, not -6 (XGOLF-KING-1)" in err


# --------------------------------------------------------------------------- docs


def test_score_round_docstring_agrees_that_tonk_passes_money() -> None:
    assert "stakes in Tonk" not in (cardcore.hookspecs.score_round.__doc__ or "")
