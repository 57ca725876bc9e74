"""Review of ``git diff 0c1bc28..HEAD`` (2026-12-03 afternoon): Tonk TONK-TURN-5 (the taken
discard may be left alone when it can still hit), Golf removal under a choosing scorer
(``kept_keys``), Spit claim refusals, Tonk views after a void deal, and the session's timeout
that plays another action of the vetoed default's kind.

Each xfail names a defect found in review; the plain tests pin behaviour checked by hand.
"""

from __future__ import annotations

import importlib.util
import random
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import Card, IllegalActionError, OptionError, RuleInfo, hookimpl
from cardcore.session import Session, SessionConfig, TimeControl
from cardcore_golf.grids import GridShape, Scorer
from cardcore_tonk.melds import CARDS, DealVerdict, index_of
from tests.session.kit import CONNS, Table

ROOT = Path(__file__).resolve().parent.parent
NATURAL = "tonk.natural-49-50"

# --- Tonk positions ---------------------------------------------------------------------------


def tonk_position(
    hand0: str, hand1: str, spreads: list[tuple[str, int]], taken: str | None, *, laid: bool = False
) -> str:
    """A two-seat Tonk position, seat 0 in play (after its draw or take); every other card
    in the stock. *spreads* are ``(cards, owner)``, each card face up."""
    used = " ".join([hand0, hand1, *(s for s, _ in spreads)]).split()
    stock = [str(c) for c in CARDS if str(c) not in used]
    sizes = ",".join(f"[{len(s.split())},{owner}]" for s, owner in spreads)
    mine = " ".join(w + ("!" if w == taken else "") for w in hand0.split())
    table = " ".join(w + "!" for s, _ in spreads for w in s.split())
    fields = f"spreads=[{sizes}]"
    if taken is not None:
        fields += f' taken="{taken}"'
    if laid:
        fields += " laid=true touched=true"
    return (
        f'tonk played=0 dealer=1 turn=0 phase="play" balances=[0,0] chance=2 {fields} '
        f"| stock: {' '.join(stock)} | discard: | hand.0: {mine} | hand.1: {hand1} "
        f"| spreads: {table}"
    )


def tonk(*args: Any, rules: tuple[str, ...] = (), **kwargs: Any) -> cardcore.Game:
    return cardcore.new_game(
        "tonk",
        2,
        position=tonk_position(*args, **kwargs),
        seed=1,
        rules=rules,
        without=(NATURAL,),
    )


def legal(game: cardcore.Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def timed_out(game: str, position: str, *, fallback: str = "first", **kw: Any) -> Session:
    """A session of *position* whose seat to act runs out of time once."""
    session = Session.create(
        game,
        2,
        now=0.0,
        seed=1,
        position=position,
        config=SessionConfig(time=TimeControl(turn=5.0, fallback=fallback)),
        **kw,
    )
    t = Table(session)
    for seat in range(2):
        t.join(CONNS[seat], seat)
    t.tick(5.0)
    return session


def played(session: Session) -> list[str]:
    game = session.game
    assert game is not None
    return [str(a) for _, a, _ in game.record_entries()]


# --- Tonk: TONK-TURN-5, checked cases ---------------------------------------------------------


def test_tonk_turn_5_a_hit_that_makes_a_book_of_four_needs_another_spread_for_the_taken_card() -> (
    None
):
    # book 7S 7H 7D on the table; seat 0 holds 7C and the taken 9H. Hitting 7C makes a book of
    # four, which takes nothing: 9H could hit no spread, so the hit is refused (TONK-TURN-5)
    alone = tonk("7C 9H", "2S 3S 4S 5D KD", [("7S 7H 7D", 1)], "9H")
    assert legal(alone, 0) == ["discard 7C"]
    with pytest.raises(IllegalActionError, match=r"could hit no spread \(TONK-TURN-5\)"):
        alone.act(0, "hit 1 7C")
    # with a run 10H JH QH on the table 9H can still hit it: both hits, then a tonk-out
    game = tonk("7C 9H", "2S 3S 4S 5D KD", [("7S 7H 7D", 1), ("10H JH QH", 1)], "9H")
    assert legal(game, 0) == ["hit 1 7C", "hit 2 9H", "discard 7C"]
    game.act(0, "hit 1 7C")
    assert legal(game, 0) == ["hit 2 9H"]
    game.act(0, "hit 2 9H")
    assert game.result is not None and game.result.reason == "tonk-out"


def test_tonk_turn_5_the_taken_card_may_hit_only_the_run_the_other_card_grows() -> None:
    # run 5H 6H 7H; seat 0 holds 4H and the taken 3H: 3H hits nothing now, but once 4H has hit,
    # the run 4H..7H takes 3H, so the hit is legal and the turn ends in a tonk-out
    game = tonk("4H 3H", "2S 3S 4S 5D KD", [("5H 6H 7H", 1)], "3H")
    assert legal(game, 0) == ["hit 1 4H", "discard 4H"]
    game.act(0, "hit 1 4H")
    game.act(0, "hit 1 3H")
    assert game.result is not None and game.result.reason == "tonk-out"


def test_tonk_turn_5_a_book_of_four_spread_leaving_the_taken_card_needs_a_target() -> None:
    hand = "9S 9H 9D 9C 4D"
    four = "spread 9S 9H 9D 9C"
    assert four not in legal(tonk(hand, "2S 3S 5S 5D KD", [], "4D"), 0)
    game = tonk(hand, "2S 3S 5S 5D KD", [("AD 2D 3D", 1)], "4D")
    assert four in legal(game, 0)
    game.act(0, four)
    game.act(0, "hit 1 4D")
    assert game.result is not None and game.result.reason == "tonk-out"


def test_tonk_position_with_the_taken_card_left_to_hit_round_trips() -> None:
    game = tonk("8H", "2S 3S 4S 5D KD", [("5H 6H 7H", 0)], "8H", laid=True)
    assert legal(game, 0) == ["hit 1 8H"]
    again = cardcore.new_game("tonk", 2, position=game.position(), seed=1, without=(NATURAL,))
    assert legal(again, 0) == ["hit 1 8H"]


def test_tonk_position_with_a_stranded_taken_card_is_refused() -> None:
    with pytest.raises(OptionError):
        tonk("9C", "2S 3S 4S 5D KD", [("5H 6H 7H", 0)], "9C", laid=True)


def test_bare_tonk_loop_offers_the_spread_that_leaves_a_taken_card_able_to_hit() -> None:
    # seat 0 holds 4H..8H and takes the upcard 9H: laying 4H..8H leaves 9H, which hits that
    # run (TONK-TURN-5 allows it); the bare benchmark loop makes the same three choices
    spec = importlib.util.spec_from_file_location(
        "bench_bare_tonk_review_pm", ROOT / "benchmarks" / "bare_tonk.py"
    )
    assert spec is not None and spec.loader is not None
    bare_tonk = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bare_tonk)
    hands = [["4H", "5H", "6H", "7H", "8H"], ["2S", "3C", "9D", "JS", "QD"]]
    top = [hands[s][r] for r in range(5) for s in range(2)] + ["9H"]
    deck = top + [str(c) for c in CARDS if str(c) not in top]
    game = cardcore.new_game("tonk", 2, deck=" ".join(deck), seed=1, options={"first_dealer": 1})
    choices: list[float] = []
    for text in ["take", "spread 4H 5H 6H 7H 8H", "hit 1 9H"]:
        options = legal(game, 0)
        choices.append((options.index(text) + 0.5) / len(options))
        game.act(0, text)
    assert game.result is not None and game.result.reason == "tonk-out"
    ints = [index_of(Card.parse(w)) for w in reversed(deck)]  # the bare stock's top is its end

    def stacked(items: list[int], rand: Any) -> None:
        items[:] = ints

    picks, cut = iter(choices), iter([0.0, 0.999])  # the cut: seat 0 an ace, seat 1 a king
    bare = bare_tonk.play_hand(lambda: next(picks), 2, stacked, lambda: next(cut), drop=False)
    assert bare == (game.version, list(game.result.payouts)) == (3, [2, -2])


# --- Tonk: timeouts in the states the diff made reachable -------------------------------------


@pytest.mark.parametrize("fallback", ["resign", "wait"])
def test_tonk_timeout_plays_the_only_legal_hit_of_the_taken_card(fallback: str) -> None:
    position = tonk_position("8H", "2S 3S 4S 5D KD", [("5H 6H 7H", 0)], "8H", laid=True)
    session = timed_out("tonk", position, fallback=fallback, without=(NATURAL,))
    assert played(session) == ["hit 1 8H"]


def test_tonk_timeout_with_fallback_first_tonks_out_by_the_only_hit() -> None:
    position = tonk_position("8H", "2S 3S 4S 5D KD", [("5H 6H 7H", 0)], "8H", laid=True)
    session = timed_out("tonk", position, without=(NATURAL,))
    assert played(session) == ["hit 1 8H"]
    assert session.game is not None and session.game.result is not None
    assert session.game.result.reason == "tonk-out"


def test_tonk_timeout_under_must_lay_down_discards_the_highest_legal_card() -> None:
    # AS 2S 3S 4S KD after a draw: KD, AS and 4S would leave a run in hand (TONK-VAR-2)
    position = tonk_position("AS 2S 3S 4S KD", "5D 6C 8H 9C QS", [], None)
    game = cardcore.new_game(
        "tonk", 2, position=position, seed=1, rules=("tonk.must-lay-down",), without=(NATURAL,)
    )
    assert [a for a in legal(game, 0) if a.startswith("discard")] == ["discard 2S", "discard 3S"]
    session = timed_out(
        "tonk", position, rules=("tonk.must-lay-down",), without=(NATURAL,), fallback="wait"
    )
    assert played(session) == ["discard 3S"]


def test_session_docs_tell_what_a_vetoed_default_plays() -> None:
    text = (ROOT / "docs" / "session.rst").read_text()
    assert "same kind" in text


# --- Tonk: the view after a void deal, through a position ------------------------------------


def _void_second_deal() -> types.ModuleType:
    """A throw-away Tonk house rule whose judge voids the session's second deal."""
    calls: list[int] = []

    def judge(hands: Sequence[Sequence[int]], points: Sequence[int]) -> DealVerdict | None:
        calls.append(1)
        void = DealVerdict("void", None, (0,) * len(hands), redeal=True)
        return void if len(calls) == 2 else None

    @hookimpl
    def tonk_deal_judge() -> Callable[..., DealVerdict | None]:
        return judge

    module = types.ModuleType("review_afternoon_void_second")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="REVIEW-PM-VOID", name="tonk.review-pm-void", game="tonk", summary="deal 2 is void"
    )
    module.tonk_deal_judge = tonk_deal_judge  # type: ignore[attr-defined]
    return module


def test_tonk_view_after_a_void_deal_survives_a_position_round_trip() -> None:
    name = "tonk.review-pm-void"
    cardcore.register("cardcore.rules", name, _void_second_deal())
    try:
        game = cardcore.new_game("tonk", 2, seed=4, rules=[name], options={"hands": 3})
        rng = random.Random(0)
        while not any(h.get("reason") == "void" for h in game.history(0)):
            game.apply(rng.choice(game.legal_actions(game.to_act[0])))
        game.act(game.to_act[0], "resign")
        hands = [(h["hand"], h["dealer"]) for h in game.history(0) if h["kind"] == "hand"]
        assert hands == [(1, 0), (2, 1)]  # hand 1 by seat 0, then a void deal by seat 1
        table = game.view(0)["table"]
        assert (table["hand_number"], table["dealer"]) == (2, 1)
        again = cardcore.new_game(
            "tonk", 2, position=game.position(), seed=1, rules=[name], options={"hands": 3}
        )
        read = again.view(0)["table"]
    finally:
        cardcore.unregister("cardcore.rules", name)
    assert (read["hand_number"], read["dealer"]) in hands


# --- Spit: claim refusals ----------------------------------------------------------------------

#: The golden Spit deck (docs/games/spit.rst): Ann (seat 0) can play her whole layout onto L.
GOLDEN = (
    "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
    "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
)
ANN_RUN = ["play 1 L", "play 2 L", "play 2 L", *["play 3 L"] * 3, *["play 4 L"] * 4]
ANN_RUN += ["play 5 L"] * 5


def _spit_table(game: cardcore.Game) -> dict[str, Any]:
    return game.view(None)["table"]


def _single_pile_deal_ended_by_bob() -> cardcore.Game:
    """Deal 2 is single-pile (Ann 11 cards, Bob 41); Bob empties his layout first (SPIT-END-6),
    so deal 3 is in its setup and no claim was ever made for deal 2."""
    game = cardcore.new_game("spit", ["Ann", "Bob"], deck=GOLDEN, seed=3)
    game.act(0, "ready")
    game.act(1, "ready")
    t = 1.0
    for text in ANN_RUN:
        game.act(0, text, at=t)
        t += 0.25
    game.act(0, "slap R", at=t)
    game.act(0, "ready")
    game.act(1, "ready")
    assert _spit_table(game)["mode"] == "single-pile"
    for _ in range(3000):  # Bob plays greedily, Ann only asks for spits
        table = _spit_table(game)
        if game.is_over or table["deal"] != 2:
            break
        if "spit" in legal(game, 0):
            game.act(0, "spit")
            continue
        options = legal(game, 1)
        plays = [a for a in options if a.startswith("play")]
        game.act(1, plays[0] if plays else "spit" if "spit" in options else options[0])
    return game


def test_spit_slap_after_a_single_pile_deal_is_not_called_claimed_already() -> None:
    game = _single_pile_deal_ended_by_bob()
    assert not game.is_over
    assert (_spit_table(game)["deal"], _spit_table(game)["phase"]) == (3, "setup")
    with pytest.raises(IllegalActionError) as info:
        game.act(1, "slap R")
    assert "claimed already" not in str(info.value)


# --- Golf: removal under a choosing scorer -------------------------------------------------------

JACKS = ["golf.one-eyed-jacks", "golf.remove-columns"]


def _golf(grids: list[str], rules: list[str]) -> cardcore.Game:
    # two seats, seat 1 deals: seat 0 gets the first card of each position
    dealt = [grids[k % 2][pos] for pos in range(6) for k in range(2)]
    deck = " ".join(c for c in dealt) + " 9C AD"
    return cardcore.new_game("golf", 2, rules=rules, options={"rounds": 1}, deck=deck, seed=3)


def test_golf_position_with_a_kept_jack_column_face_up_round_trips() -> None:
    # pairs anywhere + one-eyed jacks: the face-up JH/JS column stays (GOLF6-SCORE-2), and the
    # position codec accepts it and reads it back unchanged
    rules = [*JACKS, "golf.pairs-anywhere"]
    game = _golf(
        [["JH", "5C", "JC", "JS", "6C", "7C"], ["2D", "3D", "4D", "5D", "6D", "7D"]], rules
    )
    game.act(0, "flip 0")
    game.act(0, "flip 3")
    assert game.view(0)["table"]["grids"][0][:4] == ["JH", None, None, "JS"]
    text = game.position()
    again = cardcore.new_game("golf", 2, rules=rules, options={"rounds": 1}, position=text, seed=3)
    assert again.position() == text


def test_golf_third_party_column_scorer_still_removes_a_jack_column() -> None:
    def golf_scorer(layout: GridShape) -> Scorer | None:
        cols = layout.cols

        def score(keys: Any, points: Any) -> int:
            total = 0
            for top in range(cols):
                if keys[top] is None or keys[top] != keys[top + cols]:
                    total += points[top] + points[top + cols]
            return total

        return score if layout.key == "6" else None

    name = "golf.test-review-plain-columns"
    module = types.ModuleType("golf_test_review_plain_columns")
    module.golf_scorer = hookimpl(golf_scorer)  # type: ignore[attr-defined]
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="GOLF-TEST-REVIEW", name=name, game="golf", summary="test only"
    )
    cardcore.register("cardcore.rules", name, module)
    try:
        game = _golf(
            [["JH", "5C", "JC", "JS", "6C", "7C"], ["2D", "3D", "4D", "5D", "6D", "7D"]],
            [*JACKS, name],
        )
        game.act(0, "flip 0")
        game.act(0, "flip 3")
        grid = game.view(0)["table"]["grids"][0]
    finally:
        cardcore.unregister("cardcore.rules", name)
    assert (grid[0], grid[3]) == ("--", "--")


def test_golf4_position_with_a_complete_known_removable_pair_is_refused() -> None:
    def golf_removable_groups(layout: GridShape) -> list[tuple[int, int]] | None:
        return [(0, 1), (2, 3)] if layout.key == "4" else None

    name = "golf.test-review-rows-of-four"
    module = types.ModuleType("golf_test_review_rows_of_four")
    module.golf_removable_groups = hookimpl(golf_removable_groups)  # type: ignore[attr-defined]
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="GOLF-TEST-REVIEW-4", name=name, game="golf", summary="test only"
    )
    options = {"layout": 4, "rounds": 1}
    stock = (
        "JH 6C 9H 3C 6S 8H QC 9S 9C AC 8D 5C 5S QD 6H QS 6D KH 3H KS AD 4S 3S 7H 5H JS 4H 8C "
        "KC 10S JC 3D QH AS 7S AH 2D KD 4D 7C 5D 4C 2H"
    )
    head = (
        'golf layout="4" round=1 dealer=1 turn=0 phase="draw" turns=0 ender=null final=null '
        f"totals=[0,0] | stock: {stock} | "
    )
    grid1 = "| held: | grid.1: JD@1 8S@1 9D 2S"
    cardcore.register("cardcore.rules", name, module)
    try:
        # the engine: seat 0 takes 10D and places it next to its known 10C: the pair goes
        game = cardcore.new_game(
            "golf",
            2,
            seed=3,
            rules=[name],
            options=options,
            position=head + f"discard: 10D! | grid.0: 10C! 7D! 2C 10H {grid1}",
        )
        game.act(0, "take")
        game.act(0, "replace 1")
        assert game.view(0)["table"]["grids"][0][:2] == ["--", "--"]
        # the same pair lying in the layout, as a position: should be refused
        with pytest.raises(OptionError):
            cardcore.new_game(
                "golf",
                2,
                seed=3,
                rules=[name],
                options=options,
                position=head + f"discard: 7D! | grid.0: 10C! 10D! 2C 10H {grid1}",
            )
    finally:
        cardcore.unregister("cardcore.rules", name)
