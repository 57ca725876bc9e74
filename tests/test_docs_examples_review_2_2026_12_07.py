"""A new user's read of docs/embedding.rst and docs/games/spit.rst (Spit and Speed).

Each test checks one stated behaviour; claims that do not hold are strict xfails.
"""

from __future__ import annotations

import json
import threading

import pytest

import cardcore
from cardcore_spit.actions import Play

DECK = (
    "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
    "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
)
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def started_spit(**kwargs):
    game = cardcore.new_game("spit", ["Ann", "Bob"], deck=DECK, seed=2, **kwargs)
    game.act(0, "ready")
    game.act(1, "ready")
    return game


def snapshot(game):
    return (game.version, json.dumps(game.save(), sort_keys=True), json.dumps(game.record()))


# --- embedding.rst: rejected actions change nothing ---------------------------------


@pytest.mark.parametrize(
    ("seat", "text", "error"),
    [
        (1, "play 3 L", cardcore.StaleActionError),  # stale after Ann's play
        (0, "play 5 L", cardcore.IllegalActionError),  # never legal
        (0, "fly away", cardcore.NotationError),
    ],
)
def test_rejected_spit_action_changes_nothing(seat, text, error):
    game = started_spit()
    game.act(0, "play 1 L", at=1.0, seen=2)
    events = []
    game.events.subscribe(cardcore.Event, events.append)
    before = snapshot(game)
    with pytest.raises(error):
        game.act(seat, text, at=2.0, seen=2)
    assert snapshot(game) == before
    assert events == []


def test_illegal_error_message_ends_with_rule_id():
    game = started_spit()
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(0, "play 5 L")
    assert info.value.rule_id
    assert str(info.value).endswith(f"({info.value.rule_id})")


def test_stale_is_illegal_subclass_and_never_legal_is_not_stale():
    assert issubclass(cardcore.StaleActionError, cardcore.IllegalActionError)
    game = started_spit()
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(0, "play 5 L", seen=2)
    assert not isinstance(info.value, cardcore.StaleActionError)


def test_reads_do_not_count_as_seen():
    """Reading views/legal/history never records a 'seen': without seen= judge now only."""
    game = started_spit()
    game.view(1)
    game.legal_actions(1)
    game.history(1)
    game.act(0, "play 1 L")
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(1, "play 3 L")
    assert not isinstance(info.value, cardcore.StaleActionError)


def test_legal_now_is_applied_whatever_changed_since_seen():
    game = started_spit()
    game.act(0, "play 1 L", seen=2)
    # Bob's 'play 3 R'? find any action legal now for seat 1 and send it with old seen
    legal = [str(a) for a in game.legal_actions(1)]
    text = next(t for t in legal if t.startswith("play"))
    game.act(1, text, seen=2)
    assert game.version == 4


def test_seen_outside_stale_window_refused_core_rt_3():
    game = started_spit()
    with pytest.raises(cardcore.CardcoreError) as info:
        game.act(0, "play 1 L", seen=game.version + 1)
    assert "CORE-RT-3" in str(info.value)
    # an old seen beyond the window
    game2 = started_spit()
    v0 = game2.version
    while game2.version - v0 <= cardcore.STALE_WINDOW and not game2.is_over:
        seat = game2.to_act[0]
        game2.apply(game2.legal_actions(seat)[0])
    before = snapshot(game2)
    with pytest.raises(cardcore.CardcoreError) as info:
        game2.act(game2.to_act[0], str(game2.legal_actions(game2.to_act[0])[0]), seen=v0)
    assert "CORE-RT-3" in str(info.value)
    assert snapshot(game2) == before


def test_at_earlier_than_last_refused_core_record_1_nothing_applied():
    game = started_spit()
    game.act(0, "play 1 L", at=5.0)
    before = snapshot(game)
    with pytest.raises(cardcore.CardcoreError) as info:
        game.act(0, "play 2 L", at=4.0)
    assert "CORE-RECORD-1" in str(info.value)
    assert snapshot(game) == before


def test_clock_callable_is_read_and_recorded():
    game = started_spit()
    game.act(0, "play 1 L", at=lambda: 7.5)
    assert game.record()["actions"][-1] == [0, "play 1 L", 7.5]


def test_clock_exception_reaches_caller_as_is():
    game = started_spit()

    class Boom(Exception):
        pass

    def clock():
        raise Boom("tick")

    before = snapshot(game)
    with pytest.raises(Boom):
        game.act(0, "play 1 L", at=clock)
    assert snapshot(game) == before


def test_clock_non_time_refused_naming_clock():
    game = started_spit()
    before = snapshot(game)
    with pytest.raises(cardcore.CardcoreError) as info:
        game.act(0, "play 1 L", at=lambda: "noon")
    assert "CORE-RECORD-1" in str(info.value)
    assert "clock" in str(info.value).lower()
    assert snapshot(game) == before


def test_clock_is_read_under_the_lock():
    game = started_spit()
    seen_locked = []

    def clock():
        # another thread trying to apply must block while the clock runs
        result = {}

        def other():
            try:
                game.act(1, "play 3 R")
            except cardcore.CardcoreError as error:
                result["e"] = error
            result["done"] = True

        t = threading.Thread(target=other)
        t.start()
        t.join(0.2)
        seen_locked.append(t.is_alive())
        clock.thread = t
        return 1.0

    game.act(0, "play 1 L", at=clock)
    clock.thread.join()
    assert seen_locked == [True]


# --- threads and handlers -------------------------------------------------------------


def test_handler_calling_apply_is_queued_and_events_in_version_order():
    game = started_spit()
    versions = []
    fired = []

    def handler(event):
        versions.append(game.version)
        if not fired:
            fired.append(True)
            game.act(0, "play 2 L")

    game.events.subscribe(cardcore.Event, handler)
    game.act(0, "play 1 L")
    assert game.version == 4
    assert versions == sorted(versions)
    assert [str(a) for a in game.record()["actions"][-2:]] == [
        str([0, "play 1 L", None]),
        str([0, "play 2 L", None]),
    ]


def test_raising_handler_costs_others_nothing_and_on_error_called():
    game = started_spit()
    got, failures = [], []

    def bad(event):
        raise ConnectionError("gone")

    game.events.subscribe(cardcore.Event, bad, drop_on_error=True)
    game.events.subscribe(cardcore.Event, got.append)
    game.events.on_error = failures.append
    game.act(0, "play 1 L")
    n = len(got)
    assert n >= 1
    assert len(failures) == 1  # dropped after its first failure
    game.act(0, "play 2 L")
    assert len(got) > n
    assert len(failures) == 1


def test_clone_has_no_subscribers_and_is_independent():
    game = started_spit()
    got = []
    game.events.subscribe(cardcore.Event, got.append)
    game.events.on_error = lambda f: None
    branch = game.clone()
    branch.act(0, "play 1 L")
    assert got == []
    assert game.version == 2 and branch.version == 3
    assert branch.events.on_error is None


def test_subscribers_at_new_game_receive_first_deal():
    log = []
    cardcore.new_game("spit", 2, deck=DECK, subscribers=[(cardcore.Event, log.append)])
    assert log and log[0].slug == "game-started"


# --- saving, loading, records --------------------------------------------------------


def test_save_load_roundtrip_and_tamper_refused():
    game = started_spit()
    game.act(0, "play 1 L", at=1.0)
    data = json.loads(json.dumps(game.save()))
    again = cardcore.load(data)
    assert again.view(None) == game.view(None) and again.version == game.version
    data2 = json.loads(json.dumps(game.save()))
    data2["record"]["actions"][-1][1] = "play 2 L"
    with pytest.raises(cardcore.CorruptStateError):
        cardcore.load(data2)


def test_unknown_record_key_is_ignored_on_load():
    game = started_spit()
    record = game.record()
    record["note"] = "added by a tool"
    assert cardcore.replay(record).view(None) == game.view(None)
    data = game.save()
    data["note"] = "x"
    assert cardcore.load(data).version == game.version


def test_record_format_and_actions_shape():
    game = started_spit()
    game.act(0, "play 1 L", at=1.2)
    record = game.record()
    assert record["format_version"] == 3 and record["game"] == "spit"
    assert record["actions"][-1] == [0, "play 1 L", 1.2]
    assert record["seed"] == 2


def test_replay_rebuilds_same_events():
    a = []
    game = cardcore.new_game("spit", 2, deck=DECK, seed=2, subscribers=[(cardcore.Event, a.append)])
    for seat, text in [(0, "ready"), (1, "ready"), (0, "play 1 L"), (0, "play 2 L")]:
        game.act(seat, text)
    b = []
    again = cardcore.new_game(
        "spit", 2, deck=DECK, seed=2, subscribers=[(cardcore.Event, b.append)]
    )
    for seat, text, at in game.record()["actions"]:
        again.act(seat, text, at=at)
    assert [e.to_json() for e in a] == [e.to_json() for e in b]
    assert cardcore.replay(game.record()).view(None) == game.view(None)


def test_resign_recorded_and_result():
    game = started_spit()
    game.act(1, "resign")
    assert game.is_over and game.result.reason == "resigned"
    assert game.result.winners == (0,)
    assert game.record()["actions"][-1][:2] == [1, "resign"]


# --- Spit page ------------------------------------------------------------------------


def test_spit_options_defaults_and_bounds():
    assert cardcore.new_game("spit", 2, seed=1).options == {"stall_limit": 20}
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game("spit", 2, seed=1, options={"stall_limit": 0})
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game("spit", 2, seed=1, options={"nope": 1})


@pytest.mark.parametrize(
    ("limit", "bound"), [(20, 20000), (11, 20000), (10, 40000), (7, 40000), (1, 400000)]
)
def test_spit_cap_1_action_bound(limit, bound):
    game = cardcore.new_game("spit", 2, seed=1, options={"stall_limit": limit})
    assert game.logic.action_bound(2, game.options) == bound


def test_speed_options_defaults_and_bounds():
    assert cardcore.new_game("speed", 2, seed=1).options == {"side_pile": 5, "jokers": 0}
    for bad in ({"side_pile": 10}, {"jokers": 1}):
        with pytest.raises(cardcore.OptionError):
            cardcore.new_game("speed", 2, seed=1, options=bad)
    game = cardcore.new_game("speed", 2, seed=1)
    assert game.logic.action_bound(2, game.options) == 10000


@pytest.mark.parametrize(
    ("options", "stock", "side"),
    [
        ({}, 15, 5),
        ({"side_pile": 15}, 5, 15),
        ({"jokers": 2}, 16, 5),
        ({"side_pile": 15, "jokers": 2}, 6, 15),
    ],
)
def test_speed_deal_sizes(options, stock, side):
    game = cardcore.new_game("speed", 2, seed=3, options=options)
    zones = {z["name"]: z["count"] for z in game.view(None)["zones"]}
    assert zones["hand.0"] == zones["hand.1"] == 5
    assert zones["stock.0"] == zones["stock.1"] == stock
    assert zones["side.0"] == zones["side.1"] == side


def test_spit_stacked_deck_even_positions_to_seat_0():
    """SPIT-SETUP-1/4/7: seat 0 gets even positions, laid row by row; tops are cards 1, 6, 10, 13, 15."""
    game = cardcore.new_game("spit", 2, deck=DECK, seed=2)
    mine = DECK.split()[0::2]
    tops = [pile[0] for pile in game.view(0)["table"]["seats"][0]["layout"]]
    assert tops == [mine[0], mine[5], mine[9], mine[12], mine[14]]
    sizes = [len(pile) for pile in game.view(0)["table"]["seats"][0]["layout"]]
    assert sizes == [1, 2, 3, 4, 5]


def test_spit_worked_example_legal_order_and_spit_cards():
    game = started_spit()
    assert game.view(None)["table"]["piles"] == {"L": ["AH"], "R": ["6D"]}
    assert [str(a) for a in game.legal_actions(0)] == ["play 1 L", "play 3 R", "spit"]
    assert game.to_act == (0, 1)


def test_spit_notation_case_insensitive_and_spaces():
    game = started_spit()
    game.act(0, "  PLAY   1   l ")
    assert game.record()["actions"][-1][1] == "play 1 L"


@pytest.mark.parametrize("text", ["combine 2 2", "fill 3 3", "choose L", "play 6 L", "play 0 L"])
def test_spit_bad_notation_raises_notation_error(text):
    game = started_spit()
    with pytest.raises(cardcore.NotationError):
        game.act(0, text)


@pytest.mark.parametrize("action", [Play(0, -1, 0), Play(0, True, 0), Play(0, 2.0, 0)])
def test_malformed_action_object_refused_core_action_1(action):
    game = started_spit()
    before = snapshot(game)
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.apply(action)
    assert info.value.rule_id == "CORE-ACTION-1"
    with pytest.raises(cardcore.NotationError):
        str(action)
    assert snapshot(game) == before


def test_hand_built_equal_action_accepted():
    game = started_spit()
    game.apply(Play(0, 0, 0))
    assert game.version == 3


def test_spit_equal_ranks_not_adjacent_and_wrap():
    # worked example: AH on L; 2H (pile 1) plays, KS (Bob pile 3) plays by wrap
    game = started_spit()
    assert "play 3 L" in [str(a) for a in game.legal_actions(1)]
    # SPIT-MOVE-4: no 6 onto 6D (Bob pile 1 top is 4S? check: nothing of rank 6 listed on R)
    layout0 = [p[0] for p in game.view(0)["table"]["seats"][0]["layout"]]
    for i, top in enumerate(layout0, start=1):
        legal = f"play {i} R" in [str(a) for a in game.legal_actions(0)]
        gap = (RANKS.index(top[:-1]) - RANKS.index("6")) % 13
        assert legal == (gap in (1, 12))


def test_spit_payouts_none_and_history_empty():
    game = started_spit()
    assert game.history(0) == []
    game.act(0, "resign")
    assert game.result.payouts is None


def test_spit_stall_limit_triggers_automatic_spit():
    """SPIT-STUCK-3 (c): stall_limit actions without progress spit automatically."""
    counts = {}
    for limit in (1, 20):
        game = cardcore.new_game(
            "spit", ["Ann", "Bob"], deck=DECK, seed=2, options={"stall_limit": limit}
        )
        game.act(0, "ready")
        game.act(1, "ready")
        game.act(0, "spit")  # one request only: (a) does not apply
        counts[limit] = {k: len(v) for k, v in game.view(None)["table"]["piles"].items()}
    assert counts == {1: {"L": 2, "R": 2}, 20: {"L": 1, "R": 1}}


def test_both_spit_requests_spit_at_once():
    game = started_spit()
    game.act(0, "spit")
    game.act(1, "spit")
    piles = game.view(None)["table"]["piles"]
    assert {k: len(v) for k, v in piles.items()} == {"L": 2, "R": 2}


# --- Speed ----------------------------------------------------------------------------


def speed_deck():
    cards = [f"{r}{s}" for s in "SHDC" for r in RANKS]
    return cards


def test_speed_stacked_deck_deal_order():
    """SPEED-SETUP-3: play-pile cards, side piles (first dealt on top), then alternate hands/stocks."""
    cards = speed_deck()
    game = cardcore.new_game(
        "speed", 2, deck=" ".join(cards), seed=1, rules=["speed.stuck-on-request"]
    )
    assert game.view(None)["table"]["piles"] == {"L": [cards[0]], "R": [cards[1]]}
    rest = cards[12:]
    hand0 = rest[0::2][:5]
    assert game.view(0)["zones"][0]["cards"] == list(reversed(hand0))  # view: newest first
    assert game.view(1)["zones"][1]["cards"] == list(reversed(rest[1::2][:5]))
    branch = game.clone()
    branch.act(0, "stuck")
    branch.act(1, "stuck")
    piles = branch.view(None)["table"]["piles"]
    assert (piles["L"][0], piles["R"][0]) == (cards[2], cards[7])  # the first dealt is the top
    game.act(0, f"play {hand0[0]} L")  # KS onto AS (wrap); refill from the stock top
    assert game.view(0)["zones"][0]["cards"][0] == rest[0::2][5]


def test_speed_legal_order_hand_order_L_then_R_then_stuck():
    game = cardcore.new_game("speed", 2, seed=1)
    hand = list(reversed(game.view(0)["zones"][0]["cards"]))
    legal = [str(a) for a in game.legal_actions(0)]
    assert legal[-1] == "stuck"
    expected = [f"play {c} {p}" for c in hand for p in "LR" if f"play {c} {p}" in legal]
    assert legal[:-1] == expected


def test_speed_refill_inside_apply():
    game = cardcore.new_game("speed", 2, seed=1)
    text = str(game.legal_actions(0)[0])
    game.act(0, text)
    zones = {z["name"]: z["count"] for z in game.view(0)["zones"]}
    assert zones["hand.0"] == 5 and zones["stock.0"] == 14


def test_speed_hidden_hands_in_views():
    game = cardcore.new_game("speed", 2, seed=1)
    zones = {z["name"]: z for z in game.view(1)["zones"]}
    assert set(zones["hand.0"]["cards"]) == {None} and zones["hand.0"]["count"] == 5
    assert None not in zones["hand.1"]["cards"]
    assert set(zones["stock.1"]["cards"]) == {None}
    assert zones["hand.0"]["visibility"] == "owner" and zones["side.0"]["visibility"] == "nobody"


def test_speed_both_stuck_turns_side_cards_under_house_rule():
    game = cardcore.new_game("speed", 2, seed=1, rules=["speed.stuck-on-request"])
    before = {k: len(v) for k, v in game.view(None)["table"]["piles"].items()}
    game.act(0, "stuck")
    assert {k: len(v) for k, v in game.view(None)["table"]["piles"].items()} == before
    game.act(1, "stuck")
    after = {k: len(v) for k, v in game.view(None)["table"]["piles"].items()}
    assert after == {k: n + 1 for k, n in before.items()}
    assert game.to_act == (0, 1)


def test_speed_payouts_none_history_empty():
    game = cardcore.new_game("speed", 2, seed=1)
    assert game.history(0) == []
    game.act(1, "resign")
    assert game.result.payouts is None and game.result.winners == (0,)
