"""Review of 5d23518..HEAD (2026-12-06, b): Tonk's stacked ``next`` deals past the hands to
come, and Golf's citation of the house rule that removed a position.

Each bug found is pinned by a strict xfail that passes once it is fixed; each claim that
held by a passing test.
"""

from __future__ import annotations

import json
import types
from typing import Any

import pytest

import cardcore
from cardcore.positions import MAX_POSITION
from cardcore.session import FairDealError, Session, SessionConfig
from cardcore_golf.actions import Replace
from cardcore_tonk.position import stack_deals
from cardcore_tonk.state import HAND0

_PACK = [
    f"{r}{s}"
    for s in "SHDC"
    for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
]
# a full pack, top first: KC QC ... (clubs high to low, then diamonds ...): no seat's five
# cards of it total 49 or 50, so the natural rule never settles or voids its deal
_TOP = _PACK[::-1]


# -- Tonk ------------------------------------------------------------------------------------


def _between(**kwargs: Any) -> str:
    """The position between hand 1 and hand 2 (the last) of a two-hand session (seed 4:
    seat 1 drops at once, ending hand 1)."""
    game = cardcore.new_game("tonk", 3, options={"hands": 2}, seed=4, **kwargs)
    game.act(1, "drop")
    assert game.position().split(" | ")[0].count('phase="between"') == 1
    return game.position()


def _last_hand_with_unused_deals() -> cardcore.Game:
    """Three deals stacked between hands (legal: a void deal could be dealt again), the
    last hand dealt from the first: two stacked deals are left that will never be dealt."""
    position = stack_deals(_between(), [_TOP] * 3)
    game = cardcore.new_game("tonk", 3, options={"hands": 2}, seed=4, position=position)
    game.act(game.to_act[0], "deal")
    assert not game.is_over and game.view(0)["table"]["hand_number"] == 2
    return game


def test_tonk_position_with_unused_stacked_deals_reads_back() -> None:
    """Game.position() must start a game from here (TONK-NOTE-2, CORE position contract,
    the testing kit's check_position): also after the re-deal allowance was used."""
    game = _last_hand_with_unused_deals()
    again = cardcore.new_game("tonk", 3, options={"hands": 2}, seed=4, position=game.position())
    assert again.view(0)["table"] == game.view(0)["table"]
    assert again.legal_actions(game.to_act[0]) == game.legal_actions(game.to_act[0])


def test_tonk_unused_stacked_deals_survive_save_replay_and_clone() -> None:
    """save/load, record/replay and clone restart from the start position plus actions (or
    copy the state), and the restored game writes the same text; the two deals left in the
    last hand can never be dealt, so the position leaves them out (it could not be read
    back with them: no deal is to come)."""
    game = _last_hand_with_unused_deals()
    text = game.position()
    assert "next=" not in text.split(" | ")[0]
    loaded = cardcore.load(json.loads(json.dumps(game.save())))
    replayed = cardcore.replay(json.loads(json.dumps(game.record())))
    assert loaded.position() == replayed.position() == game.clone().position() == text


def test_tonk_stacked_deal_is_dealt_in_order() -> None:
    """The first stacked list lies on top of the gathered pack: the dealt hands are its cards,
    one at a time from the dealer's left (TONK-DEAL-1), so hand j holds _TOP[j::3][:5]."""
    game = _last_hand_with_unused_deals()
    dealer = game.view(0)["table"]["dealer"]
    hands = [[str(c) for c in game.state.zones.cards[HAND0 + s]] for s in range(3)]
    for j in range(3):
        seat = (dealer + 1 + j) % 3
        assert sorted(hands[seat]) == sorted(_TOP[j:15:3])


class _Judge:
    """A third-party deal judge that never settles a hand."""

    RULE = cardcore.RuleInfo(
        id="RVB-JUDGE-1", name="rvb.judge", game="tonk", summary="judges nothing"
    )

    @staticmethod
    @cardcore.hookimpl
    def tonk_deal_judge() -> Any:
        return lambda hands, points: None


def test_tonk_next_stacking_follows_judges_and_void_counting() -> None:
    """More deals than hands to come while some deal judge is on and void deals do not count
    (the natural rule, or a third party's judge alone); capped at one per hand otherwise."""
    module = types.ModuleType("rvb_judge")
    module.RULE = _Judge.RULE  # type: ignore[attr-defined]
    module.tonk_deal_judge = _Judge.tonk_deal_judge  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "rvb.judge", module)
    try:
        cases: list[tuple[dict[str, Any], bool]] = [
            ({}, True),
            ({"without": ["tonk.natural-49-50"]}, False),
            ({"rules": ["tonk.void-deal-counts"]}, False),
            ({"without": ["tonk.natural-49-50"], "rules": ["rvb.judge"]}, True),
            ({"rules": ["rvb.judge", "tonk.void-deal-counts"]}, False),
        ]
        for how, many in cases:
            position = stack_deals(_between(**how), [_TOP] * 2)

            def make(p: str, h: dict[str, Any] = how) -> cardcore.Game:
                return cardcore.new_game("tonk", 3, options={"hands": 2}, seed=4, position=p, **h)

            if many:
                assert make(position).position() == position, how
            else:
                with pytest.raises(cardcore.OptionError, match="at most 1 coming deals"):
                    make(position)
            assert make(stack_deals(_between(**how), [_TOP])).version == 0
    finally:
        cardcore.unregister("cardcore.rules", "rvb.judge")


def test_tonk_hostile_next_is_bounded_by_the_position_size() -> None:
    """'The text's own size bounds them': a position over MAX_POSITION characters is refused
    before any field is read, so a huge 'next' costs at most that much."""
    base = _between()
    room = (MAX_POSITION - len(base)) // 3  # "[]," per empty deal
    fits = stack_deals(base, [[]] * (room - 20))
    assert len(fits) <= MAX_POSITION
    game = cardcore.new_game("tonk", 3, options={"hands": 2}, seed=4, position=fits)
    assert game.position() == fits
    too_big = stack_deals(base, [[]] * (room + 20))
    assert len(too_big) > MAX_POSITION
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game("tonk", 3, options={"hands": 2}, seed=4, position=too_big)


def test_tonk_fair_session_refuses_a_stacked_position() -> None:
    """A fair-deal session never starts from a position, so 'next' cannot stack its deals."""
    position = stack_deals(_between(), [_TOP] * 3)
    with pytest.raises(FairDealError):
        Session.create(
            "tonk",
            3,
            now=0.0,
            options={"hands": 2},
            position=position,
            config=SessionConfig(fair=True),
        )


def test_tonk_determinized_world_does_not_foretell_a_stacked_deal() -> None:
    """Game.determinize: 'every later chance event of the clone comes from seed ... so the
    clone cannot foretell the real game's future'. With 'next' stacked, the clone's next deal
    gives every seat exactly the real game's cards (15 cards: chance alone would not)."""
    position = stack_deals(_between(), [_TOP] * 3)
    game = cardcore.new_game("tonk", 3, options={"hands": 2}, seed=4, position=position)
    world = game.determinize(0, 99)
    seat = game.to_act[0]
    game.act(seat, "deal")
    world.act(seat, "deal")
    real = [sorted(map(str, game.state.zones.cards[HAND0 + s])) for s in range(3)]
    seen = [sorted(map(str, world.state.zones.cards[HAND0 + s])) for s in range(3)]
    assert [real[s] for s in (1, 2)] != [seen[s] for s in (1, 2)]


# -- Golf ------------------------------------------------------------------------------------


def _rule(rule_id: str, groups: Any) -> types.ModuleType:
    """A third-party Golf house rule removing *groups* of layout 6."""
    module = types.ModuleType(f"rvb_{rule_id.lower().replace('-', '_')}")

    @cardcore.hookimpl
    def golf_removable_groups(layout: Any) -> Any:
        return groups if layout.key == "6" else None

    module.golf_removable_groups = golf_removable_groups  # type: ignore[attr-defined]
    module.RULE = cardcore.RuleInfo(  # type: ignore[attr-defined]
        id=rule_id,
        name=f"rvb.{rule_id.lower()}",
        game="golf",
        summary="removes groups",
        applies={"layout": (6,)},
    )
    return module


def _column_removed(rules: list[str]) -> cardcore.Game:
    """Seat 0's column 0 (5C at 0, 5D at 3) cancelled face up and removed; seat 0 drew."""
    probe = cardcore.new_game("golf", 2, options={"layout": 6}, deck=" ".join(_PACK))
    grid = probe.state.zones.cards[probe.state.plan.grid[0]]  # type: ignore[attr-defined]
    deck = list(_PACK)
    for pos, want in ((0, "5C"), (3, "5D")):
        i, j = deck.index(str(grid[pos])), deck.index(want)
        deck[i], deck[j] = deck[j], deck[i]
    game = cardcore.new_game("golf", 2, rules=rules, options={"layout": 6}, deck=" ".join(deck))
    for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 1"), (1, "flip 2"), (0, "draw")]:
        game.act(seat, text)
    assert "replace 0" not in [str(a) for a in game.legal_actions(0)]
    assert "removed=[[0,3],[]]" in game.position()
    return game


def _refusal(game: cardcore.Game, text: str = "replace 0") -> cardcore.IllegalActionError:
    version, position = game.version, game.position()
    with pytest.raises(cardcore.IllegalActionError) as refused:
        game.act(0, text)
    assert game.version == version and game.position() == position  # nothing changed
    return refused.value


def test_golf_overlapping_removing_rules_cite_the_rule_that_removed() -> None:
    """Column (0, 3) was removed (5C 5D); row (0, 1, 2) was never complete. The refusal must
    cite GOLF6-SCORE-2 (removal_rule: 'the rule that removed a card from there'), in
    either order of the rules."""
    rows = _rule("RVB-ROWS-1", [(0, 1, 2), (3, 4, 5)])
    cardcore.register("cardcore.rules", rows.RULE.name, rows)
    try:
        for order in (
            ["golf.remove-columns", "rvb.rvb-rows-1"],
            ["rvb.rvb-rows-1", "golf.remove-columns"],
        ):
            assert _refusal(_column_removed(order)).rule_id == "GOLF6-SCORE-2"
    finally:
        cardcore.unregister("cardcore.rules", rows.RULE.name)


def test_golf_removed_position_citation_is_the_same_on_every_path() -> None:
    """Game.act, Game.apply and a game read from the position all refuse 'replace 0' citing
    GOLF6-SCORE-2, as exc.rule_id and at the message's end; the game is unchanged and the
    message names no card (the removed cards are public anyway)."""
    game = _column_removed(["golf.remove-columns"])
    by_text = _refusal(game)
    action = Replace(seat=0, pos=0)
    with pytest.raises(cardcore.IllegalActionError) as by_object:
        game.apply(action)
    read = cardcore.new_game(
        "golf", 2, rules=["golf.remove-columns"], options={"layout": 6}, position=game.position()
    )
    from_position = _refusal(read)
    for error in (by_text, by_object.value, from_position):
        assert error.rule_id == "GOLF6-SCORE-2"
        assert str(error).endswith("(GOLF6-SCORE-2)")
        assert "it was removed" in str(error)
        assert not any(card in str(error).split() for card in _PACK)
    # another position a column does not hold is refused by the layout check, unchanged
    assert _refusal(game, "replace 6").rule_id == "GOLF-TURN-4"


def test_golf_a_hookwrapper_removing_rule_is_not_run_by_the_citation() -> None:
    """A wrapper implementation of golf_removable_groups (a rule adjusting the others'
    answers) is not one rule's answer: asking for the citation must not run its body."""
    runs = [0]
    module = types.ModuleType("rvb_wrapper")

    @cardcore.hookimpl(wrapper=True)
    def golf_removable_groups(layout: Any) -> Any:
        runs[0] += 1
        return (yield)

    module.golf_removable_groups = golf_removable_groups  # type: ignore[attr-defined]
    module.RULE = cardcore.RuleInfo(  # type: ignore[attr-defined]
        id="RVB-WRAP-1", name="rvb.wrap", game="golf", summary="wraps"
    )
    cardcore.register("cardcore.rules", "rvb.wrap", module)
    try:
        game = _column_removed(["golf.remove-columns", "rvb.wrap"])
        before = runs[0]
        error = _refusal(game)
        assert error.rule_id == "GOLF6-SCORE-2"
        assert runs[0] == before
    finally:
        cardcore.unregister("cardcore.rules", "rvb.wrap")


# -- docs ------------------------------------------------------------------------------------


def test_spit_note_1_malformed_combine_fill_and_claim_words_are_notation_errors() -> None:
    """SPIT-NOTE-1 (new text): a combine or fill naming one pile twice, and the claim word of
    the other configuration, raise NotationError; the right word is read (and judged)."""
    plain = cardcore.new_game("spit", 2, seed=3)
    chooser = cardcore.new_game("spit", 2, seed=3, rules=["spit.chooser"])
    for game, text in [
        (plain, "combine 1 1"),
        (plain, "fill 2 2"),
        (plain, "choose L"),
        (chooser, "slap L"),
    ]:
        with pytest.raises(cardcore.NotationError):
            game.act(0, text)
    for game, text in [(plain, "slap L"), (chooser, "choose L"), (plain, "combine 1 2")]:
        with pytest.raises(cardcore.IllegalActionError):  # well formed, not legal now
            game.act(0, text)
