"""Review of 26605f3..HEAD (2026-12-14, night): a truncated game keeps truncate()'s result
(records, saves, pickles, clones, the action bound, old record formats), the positions
check's seat rotation and advice, dealing's shared hand checks, the host seat's hint, and
the docs claims of 6f1ccc5 (on_error, timeouts without a session, whitespace and ASCII in
action text, cards/seen parallel lists, the spectator stream, position marks,
reproducible samples)."""

from __future__ import annotations

import copy
import json
import logging
import pickle
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import SPECTATOR, CardDrawn, PluginError, dealing
from cardcore.errors import (
    ArgumentError,
    CardcoreError,
    CorruptStateError,
    IllegalActionError,
    NotationError,
    SeatError,
)
from cardcore.events import DeliveryFailure
from cardcore.search import sample_position
from cardcore.testing import check_positions
from tests.audit.test_core_mutants_2026_12_14 import _module, _take_turns
from tests.plugins import drawgame

DATA = Path(__file__).parent / "core" / "data"

# --------------------------------------------------------------------------- test games


class _Short(drawgame.DrawLogic):
    """The draw game with an action bound of 6: the core ends it as truncated there."""

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 6


class _ShortWiper(_Short):
    """The short draw game whose view wipes the state's result, then raises."""

    fail = False

    def table(self, state: Any, seat: int | None) -> dict[str, Any]:
        if type(self).fail:
            state.result = None
            state.is_over = False
            raise RuntimeError("table broke")
        return super().table(state, seat)


@pytest.fixture
def games() -> Iterator[None]:
    made = [("nr-short", _Short), ("nr-wiper", _ShortWiper)]
    for name, logic in made:
        cardcore.register("cardcore.games", name, _module(name, logic))
    yield
    _ShortWiper.fail = False
    for name, _ in made:
        cardcore.unregister("cardcore.games", name)


def _truncated_golf() -> cardcore.Game:
    game = cardcore.new_game("golf", 2, seed=3)
    for _ in range(6):
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[0])
    game.truncate()
    assert game.result is not None and game.result.reason == "truncated"
    return game


# --------------------------------------------------------------------------- truncation


def test_truncate_keeps_its_result_through_every_copy_and_restore() -> None:
    game = _truncated_golf()
    result = game.result
    rec = game.record()
    assert rec["truncated"] is True and rec["result"]["reason"] == "truncated"
    json.dumps(rec)  # the record holds a bool, not the Result
    copies = [
        cardcore.replay(rec),
        cardcore.load(game.save()),
        cardcore.load(json.dumps(game.save())),
        pickle.loads(pickle.dumps(game)),
        game.clone(),
        copy.deepcopy(game),
        copy.copy(game),
    ]
    for other in copies:
        assert other.is_over and other.to_act == ()
        assert other.result == result
        assert other.record()["truncated"] is True
        assert cardcore.replay(other.record()).result == result


def test_a_truncated_game_refuses_resign_end_and_a_second_truncate_changes_nothing() -> None:
    game = _truncated_golf()
    result, version, rec = game.result, game.version, game.record()
    for seat, text in ((0, "resign"), (1, "resign"), (cardcore.HOST, "end")):
        with pytest.raises(IllegalActionError, match="CORE-OVER-1"):
            game.act(seat, text)
    game.truncate()
    assert game.version == version and game.result == result and game.record() == rec


def test_the_action_bound_ends_the_game_truncated_and_restores_keep_it(games: None) -> None:
    game = cardcore.new_game("nr-short", 2, seed=1)
    _take_turns(game, 10)
    assert game.version == 6 and game.is_over
    assert game.result is not None and game.result.reason == "truncated"
    rec = game.record()
    assert rec["truncated"] is True
    for other in (cardcore.replay(rec), cardcore.load(game.save()), game.clone()):
        assert other.result == game.result and other.version == 6
        with pytest.raises(IllegalActionError):
            other.act(0, "resign")


def test_a_failing_view_that_reopens_a_game_truncated_at_its_bound_keeps_the_result(
    games: None,
) -> None:
    game = cardcore.new_game("nr-wiper", 2, seed=1)
    _take_turns(game, 10)
    result = game.result
    assert result is not None and result.reason == "truncated"
    copy_ = game.clone()
    _ShortWiper.fail = True
    for g in (game, copy_):
        with pytest.raises(PluginError, match="table broke"):
            g.view(0)
    _ShortWiper.fail = False
    for g in (game, copy_):
        assert g.is_over and g.to_act == () and g.result == result
        assert all(g.legal_actions(s) == () for s in range(2))
        assert cardcore.load(g.save()).result == result


def test_a_version_2_record_marked_truncated_replays_truncated() -> None:
    rec = json.loads((DATA / "golf_v2_record.json").read_text())
    assert rec["format_version"] == 2
    cut = dict(rec, actions=rec["actions"][:5], result=None, truncated=False)
    open_game = cardcore.replay(cut)
    assert not open_game.is_over
    open_game.truncate()
    expected = open_game.result
    assert expected is not None
    marked = dict(cut, truncated=True, result=expected.to_json())
    game = cardcore.replay(marked)
    assert game.is_over and game.result == expected and game.version == 5
    again = game.record()
    assert again["truncated"] is True
    assert cardcore.replay(again).result == expected
    assert cardcore.load(game.save()).result == expected


def test_old_untruncated_data_still_loads() -> None:
    for name in ("golf_v1_save.json", "golf_v2_save.json"):
        game = cardcore.load((DATA / name).read_text())
        assert game.record()["truncated"] is False
    for name in ("golf_v2_record.json", "spit_v2_record.json", "tonk_v2_record.json"):
        rec = json.loads((DATA / name).read_text())
        assert cardcore.replay(rec).record()["truncated"] is False


@pytest.mark.parametrize("bad", [1, 0, "true", None, [True]])
def test_a_record_whose_truncated_field_is_no_bool_is_refused(bad: Any) -> None:
    rec = _truncated_golf().record()
    rec["truncated"] = bad
    with pytest.raises(CorruptStateError, match="'truncated' must be true or false"):
        cardcore.replay(rec)


def test_a_record_claiming_truncation_of_a_game_ended_by_its_rules_is_refused() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    seat = game.to_act[0]
    game.act(seat, "resign")
    rec = dict(game.record(), truncated=True)
    with pytest.raises(CorruptStateError, match="end it by the rules"):
        cardcore.replay(rec)


# --------------------------------------------------------------------------- positions check


def test_the_positions_check_passes_shipped_and_test_games() -> None:
    from tests.plugins import cheat_2026_12_14 as ch
    from tests.plugins import goofspiel_2026_12_12 as goof
    from tests.plugins import oldmaid_2026_12_14 as om

    mods = [ch, goof, om]
    for mod in mods:
        cardcore.register("cardcore.games", mod.NAME, mod)
    try:
        for name in ("golf", "spit", "speed", "tonk", "gofish", *(m.NAME for m in mods)):
            report = check_positions(name, games=2, seed=3, strict=False)
            assert report.failures == [], (name, report.failures)
            assert report.positions > 0, name
    finally:
        for mod in mods:
            cardcore.unregister("cardcore.games", mod.NAME)


def test_the_positions_check_samples_both_seats_of_a_real_time_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import cardcore.search.sampling as sampling

    seats: list[Any] = []
    real = sampling.sample_position

    def spy(view: Mapping[str, Any], rng: random.Random) -> str:
        seats.append(view["seat"])
        return real(view, rng)

    monkeypatch.setattr(sampling, "sample_position", spy)
    report = check_positions("speed", games=2, seed=3, strict=False)
    assert report.failures == []
    assert {0, 1} <= set(seats)


# --------------------------------------------------------------------------- dealing


def _golf_state() -> tuple[Any, int, list[int]]:
    state = cardcore.new_game("golf", 2, seed=1).state.clone()
    sizes = [len(c) for c in state.zones.cards]
    stock = sizes.index(max(sizes))
    others = [i for i in range(len(sizes)) if i != stock]
    return state, stock, others[:2]


@pytest.mark.parametrize(
    ("hands", "count", "first", "match"),
    [
        ("stock-in", 1, 0, "cannot be one of the hands"),
        ("12", 1, 0, "hands must be a list"),
        (b"\x01", 1, 0, "hands must be a list"),
        ("gen", 1, 0, "hands must be a list"),
        ([True], 1, 0, "each hand must be a pile id"),
        ([999], 1, 0, "each hand must be a pile id"),
        ([-1], 1, 0, "each hand must be a pile id"),
        ("ok", -1, 0, "count must be a whole number"),
        ("ok", 1.0, 0, "count must be a whole number"),
        ("ok", 1, True, "first must be an int"),
        ("ok", 1, 0.0, "first must be an int"),
    ],
)
def test_deal_round_robin_refuses_bad_hands_and_deals_nothing(
    hands: Any, count: Any, first: Any, match: str
) -> None:
    state, stock, ok = _golf_state()
    if hands == "stock-in":
        hands = [ok[0], stock]
    elif hands == "gen":
        hands = iter(ok)
    elif hands == "ok":
        hands = ok
    before = copy.deepcopy((state.zones.cards, state.zones.seen))
    with pytest.raises(ArgumentError, match=match):
        dealing.deal_round_robin(state, stock, hands, count, first=first)
    assert (state.zones.cards, state.zones.seen) == before


def test_deal_round_robin_and_deal_all_refuse_the_stock_alike() -> None:
    state, stock, _ok = _golf_state()
    msgs = []
    for call in (
        lambda: dealing.deal_round_robin(state, stock, [stock], 0),
        lambda: dealing.deal_all(state, stock, range(stock, stock + 1)),
    ):
        with pytest.raises(ArgumentError) as err:
            call()
        msgs.append(str(err.value))
    assert msgs[0] == msgs[1] == f"the stock (pile {stock}) cannot be one of the hands"


def test_deal_round_robin_first_minus_one_is_the_last_hand() -> None:
    state, stock, (a, b) = _golf_state()
    top = state.zones.cards[stock][-1]
    had = len(state.zones.cards[a]), len(state.zones.cards[b])
    dealing.deal_round_robin(state, stock, range(a, a + 1) if b != a + 1 else [a, b], 1, first=-1)
    hands = [a] if b != a + 1 else [a, b]
    assert state.zones.cards[hands[-1]][-1] == top
    assert sum(map(len, (state.zones.cards[a], state.zones.cards[b]))) == sum(had) + len(hands)


# --------------------------------------------------------------------------- host hint


def test_the_host_seat_is_told_it_may_only_send_end() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(SeatError, match=r"-1, the host, may only send 'end'") as err:
        game.act(cardcore.HOST, "resign")
    assert err.value.rule_id == "CORE-SEAT-1"
    for seat in (-2, 2, True, -1.0, "-1"):
        with pytest.raises(SeatError) as err:
            game.act(seat, "resign")
        assert "host" not in str(err.value)
    assert game.version == 0 and not game.is_over
    game.act(cardcore.HOST, "\tEND ")
    assert game.is_over and game.result is not None and game.result.reason == "ended"


# --------------------------------------------------------------------------- docs: embedding


def test_on_error_set_on_a_running_game_gets_the_failure_others_still_hear(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    game.apply(game.legal_actions(game.to_act[0])[0])  # running
    failures: list[DeliveryFailure] = []
    game.events.on_error = failures.append
    heard: list[Any] = []
    dropped_calls: list[Any] = []

    def broken(event: Any) -> None:
        raise ConnectionError("gone")

    def dropped(event: Any) -> None:
        dropped_calls.append(event)
        raise ConnectionError("gone too")

    game.events.subscribe(cardcore.Event, broken)
    game.events.subscribe(cardcore.Event, dropped, drop_on_error=True)
    game.events.subscribe(cardcore.Event, heard.append)
    with caplog.at_level(logging.ERROR, logger="cardcore.events"):
        for _ in range(3):
            game.apply(game.legal_actions(game.to_act[0])[0])
    assert len(heard) >= 3
    assert len(dropped_calls) == 1  # removed after its first failure
    assert failures and all(isinstance(f, DeliveryFailure) for f in failures)
    assert sum(isinstance(f.error, ConnectionError) for f in failures) == len(failures)
    assert any("ConnectionError" in r.getMessage() for r in caplog.records)


def test_timeouts_without_a_session_golf_flips_one_card_at_a_time_tonk_draws_then_discards() -> (
    None
):
    golf = cardcore.new_game("golf", 2, seed=4)
    seat = golf.to_act[0]
    for _ in range(2):
        action = golf.logic.default_action(golf.state, seat)
        assert action in golf.legal_actions(seat)
        assert str(action).startswith("flip ")
        golf.apply(action)
    tonk = cardcore.new_game("tonk", 2, seed=4)
    seat = tonk.to_act[0]
    verbs = []
    while tonk.to_act == (seat,):
        action = tonk.logic.default_action(tonk.state, seat)
        assert action in tonk.legal_actions(seat)
        verbs.append(str(action).split()[0])
        tonk.apply(action)
    assert verbs == ["draw", "discard"]


def test_a_game_without_a_default_answers_none(games: None) -> None:
    game = cardcore.new_game("nr-short", 2, seed=1)
    assert game.logic.default_action(game.state, game.to_act[0]) is None


# --------------------------------------------------------------------------- docs: notation


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "gofish"])
def test_words_separated_by_any_spaces_or_tabs_read_the_same(name: str) -> None:
    game = cardcore.new_game(name, 3 if name == "gofish" else 2, seed=5)
    checked = 0
    for _ in range(40):
        if game.is_over:
            break
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        many = [a for a in legal if len(str(a).split()) > 1]
        calm = [a for a in legal if str(a) not in ("drop", "resign", "knock")]
        action = (many or calm or list(legal))[0]
        text = str(action)
        if len(text.split()) > 1:
            odd = " \t ".join(w.upper() for w in text.split()) + "\t"
            twin = game.clone()
            assert twin.act(seat, "\t" + odd) == action
            checked += 1
        game.apply(action)
    assert checked > 0


@pytest.mark.parametrize(
    "text",
    ["flip\u00a01", "flip \uff11", "FLIP 1\u3000", "\u0192lip 1", "flip 1\u200b"],
)
def test_non_ascii_action_text_is_refused_and_normalising_spaces_helps(text: str) -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    seat = game.to_act[0]
    assert "flip 1" in {str(a) for a in game.legal_actions(seat)}
    with pytest.raises(NotationError, match="ASCII"):
        game.act(seat, text)
    assert game.version == 0
    if text in ("flip\u00a01", "FLIP 1\u3000"):
        assert (
            game.clone().act(seat, " ".join(text.split()))
            == game.legal_actions(seat)[[str(a) for a in game.legal_actions(seat)].index("flip 1")]
        )


def test_look_alikes_that_case_folding_would_turn_into_letters_are_refused() -> None:
    game = cardcore.new_game("tonk", 2, seed=4)
    seat = game.to_act[0]
    for text in ("\u0280esign", "re\u017fign", "dra\u1e98", "\u212aS"):
        with pytest.raises(NotationError):
            game.act(seat, text)
    with pytest.raises(NotationError):
        game.act(cardcore.HOST, "\u0435nd")  # Cyrillic e
    assert game.version == 0 and not game.is_over


# --------------------------------------------------------------------------- docs: plugin guide


def test_cards_and_seen_are_parallel_lists_a_card_may_be_slipped_in_anywhere() -> None:
    game = cardcore.new_game("gofish", 3, seed=2)
    state = game.state.clone()
    zones = state.zones
    stock, hand0 = 0, 1
    assert all(len(c) == len(s) for c, s in zip(zones.cards, zones.seen, strict=True))
    card = zones.cards[stock].pop(0)
    mask = zones.seen[stock].pop(0)
    zones.cards[hand0].insert(2, card)
    zones.seen[hand0].insert(2, mask | 1 << 2)  # seat 2 saw it go in
    again = cardcore.new_game("gofish", 3, position=game.logic.write_position(state), seed=1)
    assert again.state.zones.cards[hand0][2] == card
    assert again.state.zones.seen[hand0][2] == mask | 1 << 2
    assert len(again.state.zones.cards[hand0]) == len(game.state.zones.cards[hand0]) + 1


def test_position_marks_mean_what_the_guide_says() -> None:
    game = cardcore.new_game("gofish", 3, seed=2)
    text = game.position()
    assert "hand.0: " in text and "@0 " in text  # AS@0: seat 0 knows its hand
    # (a hand's card: Go Fish refuses a stock card anyone knows, since 2026-12-06)
    first = text.split("hand.1: ")[1].split(" |")[0].split()[0]
    assert first.endswith("@1")
    bare = first[:-2]
    both = cardcore.new_game(
        "gofish", 3, position=text.replace(f"hand.1: {first}", f"hand.1: {bare}@0.2", 1), seed=1
    )
    assert both.state.zones.seen[2][0] == 0b101
    everyone = cardcore.new_game(
        "gofish", 3, position=text.replace(f"hand.1: {first}", f"hand.1: {bare}!", 1), seed=1
    )
    assert all(everyone.state.zones.seen[2][0] >> s & 1 for s in range(3))
    assert game.state.zones.seen[0][0] == 0  # a bare card (the stock's): nobody
    assert everyone.position() == text.replace(f"hand.1: {first}", f"hand.1: {bare}!", 1)


def test_spectator_stream_is_blanked_and_the_host_stream_is_whole() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    while len(game.legal_actions(game.to_act[0])) and "draw" not in {
        str(a) for a in game.legal_actions(game.to_act[0])
    }:
        game.apply(game.logic.default_action(game.state, game.to_act[0]))
    drawer = game.to_act[0]
    got: dict[Any, list[Any]] = {SPECTATOR: [], None: [], drawer: [], 1 - drawer: []}
    for seat, sink in got.items():
        game.events.subscribe(CardDrawn, sink.append, seat=seat)
    game.act(drawer, "draw")
    assert all(len(v) == 1 for v in got.values()), got
    card = got[None][0].card
    assert card is not None and got[drawer][0].card == card
    assert got[SPECTATOR][0].card is None and got[1 - drawer][0].card is None


def test_position_from_view_gets_no_generator_and_samples_are_reproducible() -> None:
    import inspect

    for name in ("gofish", "golf", "tonk"):
        game = cardcore.new_game(name, 3 if name == "gofish" else 2, seed=6)
        for _ in range(4):
            legal = game.legal_actions(game.to_act[0])
            game.apply(next(a for a in legal if str(a) not in ("drop", "knock")))
        assert not game.is_over
        params = list(inspect.signature(game.logic.position_from_view).parameters)
        assert params == ["view", "zones"], name
        view = game.view(game.to_act[0])
        first = sample_position(view, random.Random(9))
        assert sample_position(view, random.Random(9)) == first
        assert (
            cardcore.new_game(name, len(game.players), position=first, seed=1).view(game.to_act[0])[
                "zones"
            ]
            == view["zones"]
        )


def test_a_bad_rng_for_sampling_is_a_clear_error() -> None:
    game = cardcore.new_game("gofish", 3, seed=6)
    with pytest.raises(ArgumentError, match=r"random\.Random"):
        sample_position(game.view(0), 9)  # type: ignore[arg-type]
    with pytest.raises(CardcoreError):
        sample_position({"game": "gofish"}, random.Random(1))
