"""Fix review 15: a clock passed as at= cools the published legal set; history's refusal of a
bad since cites no rule; every Tonk discard is read as known to all."""

from __future__ import annotations

import decimal
import math
import random

import pytest

import cardcore
from cardcore import CardcoreError, IllegalActionError
from cardcore.search import sample_position
from cardcore.zones import ALL
from cardcore_tonk.state import DISCARD

# -- 1. a clock passed as at= ----------------------------------------------------------------


def _tonk(seed: int = 5) -> cardcore.Game:
    return cardcore.new_game("tonk", 3, seed=seed)


def _spit(seed: int = 1) -> cardcore.Game:
    return cardcore.new_game("spit", 2, seed=seed)


def _fresh_legal(game: cardcore.Game) -> list[tuple]:
    again = cardcore.replay(game.record())
    return [again.legal_actions(s) for s in range(len(game.players))]


def _probe(game: cardcore.Game, out: list) -> None:
    for q in range(len(game.players)):
        try:
            game.legal_actions(q)
            out.append((q, "answered"))
        except CardcoreError:
            out.append((q, "refused"))


@pytest.mark.parametrize("make", [_tonk, _spit], ids=["tonk", "spit"])
@pytest.mark.parametrize("how", ["apply", "act"])
def test_clock_calling_back_legal_actions_is_refused_for_every_seat(make, how):
    game = make()
    seat = game.to_act[0]
    action = game.legal_actions(seat)[0]
    before = game.save()
    calls: list = []

    def clock() -> float:
        _probe(game, calls)
        return 1.0

    # the clock's call back raises; the clock lets it through, so apply/act raises it
    def strict_clock() -> float:
        game.legal_actions(seat)
        return 1.0

    with pytest.raises(CardcoreError):
        if how == "apply":
            game.apply(action, at=strict_clock)
        else:
            game.act(seat, str(action), at=strict_clock)
    assert game.save() == before
    assert list(game.legal_actions(s) for s in range(len(game.players))) == _fresh_legal(game)
    # a clock that swallows the refusals: every seat refused, the action applied at its time
    if how == "apply":
        game.apply(action, at=clock)
    else:
        game.act(seat, str(action), at=clock)
    assert calls == [(q, "refused") for q in range(len(game.players))]
    assert game.version == 1
    assert game.record()["actions"][0][2] == 1.0


class _Boom(Exception):
    pass


@pytest.mark.parametrize("make", [_tonk, _spit], ids=["tonk", "spit"])
@pytest.mark.parametrize(
    "clock",
    [
        pytest.param(lambda: (_ for _ in ()).throw(_Boom()), id="raises"),
        pytest.param(lambda: math.nan, id="nan"),
        pytest.param(lambda: "soon", id="text"),
        pytest.param(lambda: True, id="bool"),
        pytest.param(lambda: 1e300, id="huge"),
    ],
)
@pytest.mark.parametrize("how", ["apply", "act"])
def test_failed_clock_changes_nothing_and_legal_actions_still_right(make, clock, how):
    game = make()
    seat = game.to_act[0]
    action = game.legal_actions(seat)[0]
    before = game.save()
    with pytest.raises((_Boom, IllegalActionError)) as info:
        if how == "apply":
            game.apply(action, at=clock)
        else:
            game.act(seat, str(action), at=clock)
    if isinstance(info.value, IllegalActionError):
        assert info.value.rule_id == "CORE-RECORD-1"
    assert game.save() == before
    assert game.version == 0
    assert [game.legal_actions(s) for s in range(len(game.players))] == _fresh_legal(game)
    # and the game goes on: the same action applies with a good clock, recording its time
    game.apply(action, at=lambda: 2.5)
    assert game.version == 1
    assert game.record()["actions"][0][2] == 2.5


def test_realtime_clock_earlier_than_last_refused_and_nothing_changes():
    game = _spit()
    seat = game.to_act[0]
    game.apply(game.legal_actions(seat)[0], at=lambda: 10.0)
    other = game.to_act[-1]
    acts = game.legal_actions(other)
    before = game.save()
    with pytest.raises(IllegalActionError) as info:
        game.apply(acts[0], at=lambda: 9.0)
    assert info.value.rule_id == "CORE-RECORD-1"
    assert game.save() == before
    assert [game.legal_actions(s) for s in range(2)] == _fresh_legal(game)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -1e16, "1", True, None.__class__])
@pytest.mark.parametrize("how", ["apply", "act"])
def test_numeric_bad_at_keeps_cached_legal_set(bad, how):
    game = _tonk()
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    assert game.legal_actions(seat) is legal  # published
    with pytest.raises(IllegalActionError):
        if how == "apply":
            game.apply(legal[0], at=bad)
        else:
            game.act(seat, str(legal[0]), at=bad)
    assert game.legal_actions(seat) is legal


def test_clock_time_recorded_and_hot_path_still_taken():
    game = _tonk()
    for t in (1.0, 2.0, 3.0):
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        action = next(a for a in legal if type(a).__name__ != "Drop")
        game.apply(action, at=lambda t=t: t)
    assert [a[2] for a in game.record()["actions"]] == [1.0, 2.0, 3.0]
    again = cardcore.replay(game.record())
    assert again.save() == game.save()


def test_clock_returning_hostile_number_calling_back_is_refused():
    game = _tonk()
    calls: list = []

    class D(decimal.Decimal):
        def __float__(self):
            _probe(game, calls)
            return 4.0

    seat = game.to_act[0]
    game.apply(game.legal_actions(seat)[1], at=lambda: D(4))
    assert calls == [(q, "refused") for q in range(3)]
    assert game.record()["actions"][0][2] == 4.0


@pytest.mark.parametrize("how", ["apply", "act"])
def test_number_at_whose_float_calls_back_is_refused_for_every_seat(how):
    game = _tonk()
    calls: list = []

    class D(decimal.Decimal):
        def __float__(self):
            _probe(game, calls)
            return 4.0

    seat = game.to_act[0]
    action = game.legal_actions(seat)[1]
    if how == "apply":
        game.apply(action, at=D(4))
    else:
        game.act(seat, str(action), at=D(4))
    assert calls == [(q, "refused") for q in range(3)]


# -- 2. history's since -----------------------------------------------------------------------


class _Reprs:
    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


_ODD = [
    -1,
    -(10**400),
    True,
    False,
    1.0,
    "0",
    None,
    [],
    _Reprs("(CORE-TURN-1)"),
    _Reprs("x (TONK-DROP-3)"),
    _Reprs("(GOLF-SCORE-5, CORE-END-1)  "),
    _Reprs("(SPIT-START-1/2)"),
    decimal.Decimal(1),
    type("IntLike", (), {"__index__": lambda self: 1, "__repr__": lambda self: "(CORE-X-1)"})(),
]


@pytest.mark.parametrize("since", _ODD, ids=range(len(_ODD)))
def test_history_bad_since_cites_no_rule(since):
    game = _tonk()
    with pytest.raises(IllegalActionError) as info:
        game.history(None, since)
    assert info.value.rule_id is None
    assert str(info.value).endswith("is not a round number from 0")


def test_history_negative_int_subclass_cites_no_rule():
    class Hostile(int):
        def __repr__(self):
            return "(CORE-TURN-1)"

    game = _tonk()
    with pytest.raises(IllegalActionError) as info:
        game.history(0, Hostile(-3))
    assert info.value.rule_id is None
    assert game.history(0, Hostile(0)) == game.history(0, 0)


@pytest.mark.parametrize(
    ("msg", "rule"),
    [
        ("no (CORE-TURN-1)", "CORE-TURN-1"),
        ("run (SPIT-START-1/2)", "SPIT-START-1"),
        ("list (TONK-SPREAD-1, TONK-SPREAD-2)  ", "TONK-SPREAD-1"),
        ("(CORE-TURN-1) not at end", None),
        ("plain", None),
    ],
)
def test_illegal_action_error_still_reads_cited_id(msg, rule):
    assert IllegalActionError(msg).rule_id == rule
    assert IllegalActionError(msg, rule_id="X-Y-1").rule_id == "X-Y-1"


# -- 3. Tonk discards read as known to all ----------------------------------------------------

_STOCK = (
    "2S 3S 4C AH 4H 7C 2H 8H QC 4D 5H 4S 5S 8S 6D 5C 6H JD JC 3C 8D 10D AC 10H 6C 6S 2D 3H"
    " 2C 8C JS 7D KD 9D"
)
_POS = (
    'tonk played=0 dealer=0 turn=1 phase="play" balances=[0,0,0] chance=2'
    " | stock: {stock} | discard: JH{a} 9C{b} QS{c} | hand.0: KC 10C 3D QD QH"
    " | hand.1: 10S KS 7S AS 5D | hand.2: 9H 7H AD KH 9S | spreads:"
)
_MARKS = [
    ("", "", ""),
    ("@0", "@0.1", "!"),
    ("!", "!", "!"),
    ("@1", "", "@2.0.1"),
    ("@0.1.2", "@2", ""),
]


def _pos(marks, stock=_STOCK) -> str:
    return _POS.format(stock=stock, a=marks[0], b=marks[1], c=marks[2])


def _views(game):
    return [game.view(s) for s in (0, 1, 2, None)]


@pytest.mark.parametrize("marks", _MARKS, ids=[",".join(m) or "none" for m in _MARKS])
def test_discards_any_marks_read_write_back_known_views_same(marks):
    ref = cardcore.new_game("tonk", 3, position=_pos(("!", "!", "!")), seed=3)
    game = cardcore.new_game("tonk", 3, position=_pos(marks), seed=3)
    written = game.logic.write_position(game.state)
    assert "| discard: JH! 9C! QS! |" in written
    assert written == ref.logic.write_position(ref.state)
    assert _views(game) == _views(ref)
    assert list(game.state.zones.seen[DISCARD]) == [ALL] * 3
    assert _views(cardcore.new_game("tonk", 3, position=written, seed=3)) == _views(game)


@pytest.mark.parametrize("mark", ["!", "@0", "@1.2", "@2"])
def test_stock_still_refused_if_any_card_known(mark):
    stock = _STOCK.split()
    stock[5] += mark
    with pytest.raises(CardcoreError):
        cardcore.new_game("tonk", 3, position=_pos(("", "", ""), " ".join(stock)), seed=3)


def test_unmarked_hands_seen_by_owner_only():
    game = cardcore.new_game("tonk", 3, position=_pos(("", "", "")), seed=3)
    for viewer in (0, 1, 2, None):
        zones = {z["name"]: z for z in game.view(viewer)["zones"]}
        for owner in range(3):
            cards = zones[f"hand.{owner}"]["cards"]
            if viewer == owner:
                assert None not in cards and len(cards) == 5
            else:
                assert cards == [None] * len(cards)


def _pile(game, name, viewer=None):
    return next(z for z in game.view(viewer)["zones"] if z["name"] == name)["cards"]


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_determinize_keeps_unmarked_discards(seat):
    game = cardcore.new_game("tonk", 3, position=_pos(("", "@0", "")), seed=3)
    want = list(game.state.zones.cards[DISCARD])
    mine = _pile(game, f"hand.{seat}", seat)
    for seed in range(6):
        world = game.determinize(seat, seed)
        assert list(world.state.zones.cards[DISCARD]) == want
        assert list(world.state.zones.seen[DISCARD]) == [ALL] * 3
        assert _pile(world, f"hand.{seat}", seat) == mine


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_sampled_positions_keep_unmarked_discards(seat):
    game = cardcore.new_game("tonk", 3, position=_pos(("", "", "@1")), seed=3)
    want = list(game.state.zones.cards[DISCARD])
    for seed in range(4):
        text = sample_position(game.view(seat), random.Random(seed))
        world = cardcore.new_game("tonk", 3, position=text, seed=seed)
        # the view shows only the top discard (TONK views: "only the top one shows"), so a
        # sample keeps the top and the count; every discard of the sample reads as known
        got = list(world.state.zones.cards[DISCARD])
        assert got[-1] == want[-1] and len(got) == len(want)
        assert list(world.state.zones.seen[DISCARD]) == [ALL] * len(want)


def test_ismcts_on_unmarked_position_plays_legal_deterministically():
    game = cardcore.new_game("tonk", 3, position=_pos(("", "", "")), seed=3)
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    picks = [
        cardcore.load_agent("ismcts", seed=7, iterations=12).choose(game.view(seat), legal)
        for _ in range(2)
    ]
    assert picks[0] in legal and picks[0] == picks[1]


def test_save_load_replay_round_trip_unmarked_position():
    text = _pos(("", "", ""))
    game = cardcore.new_game("tonk", 3, position=text, seed=3)
    assert game.record()["position"] == text
    for _ in range(6):
        if game.is_over:
            break
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[-1])
    rec = game.record()
    assert rec["position"] == text
    again = cardcore.replay(rec)
    assert again.save() == game.save()
    assert _views(again) == _views(game)
    loaded = cardcore.load(game.save())
    assert loaded.save() == game.save()
    assert loaded.record() == rec
    assert _views(loaded) == _views(game)


# -- more: the clock's game answers afterwards; sibling refusals citing an argument's repr ---


@pytest.mark.parametrize("make", [_tonk, _spit], ids=["tonk", "spit"])
def test_after_clock_refusals_the_game_answers_as_a_replay_and_caches_again(make):
    game = make()
    events: list = []
    sub = game.events.subscribe(cardcore.Event, events.append)
    try:
        _act_clocks(game, events)
    finally:
        game.events.unsubscribe(sub)


def _act_clocks(game, events):
    for _ in range(4):
        if game.is_over or not game.to_act:
            break
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        action = next(a for a in legal if type(a).__name__ != "Drop")
        seen = len(events)
        with pytest.raises(IllegalActionError):
            game.act(seat, str(action), at=lambda: math.inf)
        assert len(events) == seen  # a refused act delivers nothing
        game.act(seat, str(action), at=lambda v=game.version: 10.0 + v)
        assert [game.legal_actions(s) for s in range(len(game.players))] == _fresh_legal(game)
    assert game.version == 4 and events
    assert [a[2] for a in game.record()["actions"]] == [10.0 + v for v in range(game.version)]
    for s in game.to_act:
        assert game.legal_actions(s) is game.legal_actions(s)


class _CitesRule:
    def __repr__(self) -> str:
        return "(CORE-END-1)"


def test_determinize_bad_seed_cites_no_rule():
    game = _tonk()
    with pytest.raises(CardcoreError) as info:
        game.determinize(0, _CitesRule())
    assert info.value.rule_id is None


def test_new_game_bad_seed_cites_no_rule():
    with pytest.raises(CardcoreError) as info:
        cardcore.new_game("tonk", 3, seed=_CitesRule())
    assert info.value.rule_id is None


@pytest.mark.parametrize("mark", ["@7", "@", "@-1", "@x", "!!"])
def test_malformed_discard_marks_still_refused(mark):
    with pytest.raises(cardcore.OptionError) as info:
        cardcore.new_game("tonk", 3, position=_pos((mark, "", "")), seed=3)
    assert info.value.rule_id == "CORE-POSITION-1"


def test_position_of_unmarked_discards_writes_them_known():
    game = cardcore.new_game("tonk", 3, position=_pos(("", "", "")), seed=3)
    assert game.position() == _pos(("!", "!", "!"))
    assert game.clone().position() == game.position()
