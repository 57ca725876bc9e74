"""Hearts (4 seats, simultaneous passing) written from cardcore's docs by a first-time author.

The game (``tests/plugins/hearts_2026_12_13.py``) and its moon house rule
(``tests/plugins/hearts_moon_2026_12_13.py``) are registered in place with
``cardcore.register`` (docs/plugin-guide/testing.rst). The key property: a seat's pass
stays hidden from every other seat until all four have chosen, and after the exchange
only the giver and the receiver know the passed cards.
"""

from __future__ import annotations

import json
import random
import re
import types
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import cardcore
from cardcore import Event, IllegalActionError, NotationError, OptionError, standard_52
from cardcore.testing import check_game, configurations
from tests.plugins import hearts_2026_12_13 as hearts
from tests.plugins import hearts_moon_2026_12_13 as moon

NAME, MOON = hearts.NAME, moon.NAME
FAST = {"points_limit": 10}  # one or two hands: keeps the file quick


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, hearts)
    cardcore.register("cardcore.rules", MOON, moon)
    yield
    cardcore.unregister("cardcore.rules", MOON)
    cardcore.unregister("cardcore.games", NAME)


def card_re(card: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![0-9A-Z]){re.escape(card)}(?![A-Z0-9])")


def names(text: str, cards: list[str]) -> list[str]:
    # long runs of word characters (a session's random tokens and ids) are no card: one
    # holding "a5Hb" would otherwise read as 5H (2026-12-13, a flaky match)
    text = re.sub(r"[A-Za-z0-9_\-]{16,}", " ", text)
    return [c for c in cards if card_re(c).search(text)]


def hand_of(game: cardcore.Game, seat: int) -> list[str]:
    """The seat's hand as its own view lists it, top first."""
    return game.view(seat)["zones"][hearts.hand(seat)]["cards"]


def snapshot(game: cardcore.Game) -> tuple[Any, ...]:
    return game.position(), game.version, json.dumps(game.record(), sort_keys=True)


def refused(game: cardcore.Game, seat: int, text: str, error: type[Exception], rule: str) -> str:
    before = snapshot(game)
    with pytest.raises(error) as info:
        game.act(seat, text)
    message = str(info.value)
    assert message.endswith(f"({rule})"), message
    assert snapshot(game) == before
    return message


def walk_until(pred: Callable[[cardcore.Game], bool], seeds: range = range(200)) -> cardcore.Game:
    """Play random games until *pred* holds of the game (before an action)."""
    for seed in seeds:
        game = cardcore.new_game(NAME, 4, seed=seed, options={"points_limit": 30})
        rng = random.Random(seed)
        while not game.is_over:
            if pred(game):
                return game
            seat = game.to_act[0]
            game.act(seat, str(rng.choice(game.legal_actions(seat))))
    raise AssertionError("no game reached the situation")


def pass_all(game: cardcore.Game, choice: dict[int, str] | None = None) -> dict[int, list[str]]:
    """Every seat passes (positions 0 1 2 unless *choice* says); returns the cards each passed."""
    given = {}
    for seat in (3, 1, 2, 0):
        text = (choice or {}).get(seat, "pass 0 1 2")
        positions = [int(w) for w in text.split()[1:]]
        hand = hand_of(game, seat)
        given[seat] = [hand[p] for p in positions]
        game.act(seat, text)
    return given


# -- the conformance kit ---------------------------------------------------------------------


@pytest.mark.parametrize("config", range(3))
def test_conformance_kit(config: int) -> None:
    configs = list(configurations(NAME))
    assert len(configs) == 3  # plain, moon add26, moon subtract26
    chosen = configs[config]
    kwargs = chosen.kwargs()
    kwargs["options"] = {**kwargs["options"], **FAST}
    report = check_game(chosen.game, games=1, seed=config, **kwargs)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0
    assert report.skipped == {}, report.skipped


# -- random games to the end -----------------------------------------------------------------


def test_hrt_end_1_random_games_end_lowest_wins_cards_conserved() -> None:
    deck = Counter(map(str, standard_52()))
    for seed in range(3):
        scored: list[Any] = []
        game = cardcore.new_game(
            NAME,
            ["A", "B", "C", "D"],
            seed=seed,
            subscribers=[(cardcore.RoundScored, scored.append, None)],
        )
        result = cardcore.play(game, [cardcore.RandomAgent(seed * 4 + i) for i in range(4)])
        assert result.reason == "points limit"
        totals = [int(s) for s in result.scores]
        assert max(totals) >= 100
        assert set(result.winners) == {s for s in range(4) if totals[s] == min(totals)}
        assert all(sum(e.scores) == 26 for e in scored)  # HRT-SCORE-1, no moon rule
        assert list(scored[-1].totals) == totals
        assert Counter(map(str, game.state.zones.all_cards())) == deck
        assert game.version <= game.logic.action_bound(4, game.options)


def test_hrt_deal_1_thirteen_each_and_passing_phase() -> None:
    game = cardcore.new_game(NAME, 4, seed=5)
    assert game.to_act == (0, 1, 2, 3)
    for seat in range(4):
        assert len(hand_of(game, seat)) == 13
        assert len(game.view(seat)["legal"]) == 286
        assert game.view(seat)["table"]["phase"] == "pass"
    assert game.view(0)["table"]["direction"] == "left"


# -- the passing phase -----------------------------------------------------------------------


def test_hrt_pass_3_exchange_left_then_2c_leads() -> None:
    game = cardcore.new_game(NAME, 4, seed=11)
    before = {s: hand_of(game, s) for s in range(4)}
    given = pass_all(game)
    for giver, cards in given.items():
        receiver = (giver + 1) % 4
        assert set(cards) <= set(hand_of(game, receiver))
        assert not set(cards) & set(hand_of(game, giver))
        assert len(hand_of(game, receiver)) == 13
        assert set(before[giver]) - set(cards) <= set(hand_of(game, giver))
    leader = next(s for s in range(4) if "2C" in hand_of(game, s))
    assert game.to_act == (leader,)
    assert game.view(leader)["legal"] == ["play 2C"]  # HRT-LEAD-1
    assert game.view(0)["table"]["leader"] == leader


def test_hrt_pass_3_directions_rotate() -> None:
    offsets = []
    game = cardcore.new_game(NAME, 4, seed=2, options={"points_limit": 500})
    rng = random.Random(2)
    while len(offsets) < 5:
        table = game.view(0)["table"]
        if table["phase"] == "pass" and game.to_act == (0, 1, 2, 3):
            given = pass_all(game)
            receiver = next(r for r in range(4) if set(given[0]) <= set(hand_of(game, r)))
            offsets.append((table["direction"], receiver))
            continue
        if (
            table["phase"] == "play"
            and game.view(0)["table"]["hand_no"] % 4 == 3
            and len(offsets) == 3
        ):
            offsets.append(("none", None))  # a hand without passing: straight to the play
        seat = game.to_act[0]
        game.act(seat, str(rng.choice(game.legal_actions(seat))))
    assert offsets[:3] == [("left", 1), ("right", 3), ("across", 2)]
    assert offsets[3] == ("none", None)
    assert offsets[4] == ("left", 1)


def test_hrt_pass_2_pass_hidden_from_other_seats() -> None:
    streams: dict[Any, list[dict[str, Any]]] = {s: [] for s in (0, 1, 2, 3, cardcore.SPECTATOR)}
    subs = [(Event, (lambda e, s=s: streams[s].append(e.to_json())), s) for s in streams]
    game = cardcore.new_game(NAME, 4, seed=21, subscribers=subs)
    chosen = hand_of(game, 1)[4:7]
    game.act(1, "pass 4 5 6")
    assert game.to_act == (0, 2, 3)
    assert set(game.view(1)["zones"][hearts.pending(1)]["cards"]) == set(chosen)
    for seat in (0, 2, 3, None):
        view = game.view(seat)
        assert view["zones"][hearts.pending(1)]["cards"] == [None, None, None]
        assert names(json.dumps(view), chosen) == []
    for seat in (0, 2, 3, cardcore.SPECTATOR):
        text = json.dumps(streams[seat])
        assert names(text, chosen) == [], seat
    assert sorted(names(json.dumps(streams[1]), chosen)) == sorted(chosen)
    # passing twice: refused citing the game's own waiting rule, naming no card
    message = refused(game, 1, "pass 0 1 2", IllegalActionError, "HRT-PASS-2")
    assert names(message, [str(c) for c in standard_52()]) == []
    # the other seats' views say only that seat 1 has passed
    assert game.view(0)["table"]["passed"] == [False, True, False, False]


def test_hrt_pass_3_after_exchange_only_giver_and_receiver_know() -> None:
    streams: dict[Any, list[dict[str, Any]]] = {s: [] for s in (0, 1, 2, 3, cardcore.SPECTATOR)}
    subs = [(Event, (lambda e, s=s: streams[s].append(e.to_json())), s) for s in streams]
    game = cardcore.new_game(NAME, 4, seed=8, subscribers=subs)
    given = pass_all(game)
    z = game.state.zones
    for giver, cards in given.items():
        receiver = (giver + 1) % 4
        pile = z.cards[hearts.hand(receiver)]
        for card in cards:
            if card == "2C":
                continue  # the opening lead is announced to all (HRT-LEAD-1)
            i = [str(c) for c in pile].index(card)
            knowers = {s for s in range(4) if z.knows(hearts.hand(receiver), i, s)}
            assert knowers == {giver, receiver}, (card, knowers)
            assert not z.knows(hearts.hand(receiver), i, None)
        others = [s for s in range(4) if s not in (giver, receiver)]
        secret = [c for c in cards if c != "2C"]
        for seat in others:
            assert names(json.dumps(game.view(seat)), secret) == []
            assert names(json.dumps(streams[seat]), secret) == []
        assert names(json.dumps(streams[cardcore.SPECTATOR]), secret) == []
        assert sorted(game.view(giver)["table"]["given"]) == sorted(secret)
        assert sorted(names(json.dumps(streams[giver]), secret)) == sorted(secret)
        assert sorted(names(json.dumps(streams[receiver]), secret)) == sorted(secret)


# -- refusals --------------------------------------------------------------------------------


def test_hrt_pass_1_bad_passes_refused_and_change_nothing() -> None:
    game = cardcore.new_game(NAME, 4, seed=4)
    game.act(2, "pass 0 1 2")
    # two or four cards: the notation has three positions
    for text in ("pass 0 1", "pass 0 1 2 3", "pass"):
        before = snapshot(game)
        with pytest.raises(NotationError):
            game.act(0, text)
        assert snapshot(game) == before
    # a card not held (position 13 of 13), a card twice, unordered
    for text in ("pass 0 1 13", "pass 1 1 2", "pass 2 1 0"):
        message = refused(game, 0, text, IllegalActionError, "HRT-PASS-1")
        assert "three distinct cards" in message
    # passing twice
    refused(game, 2, "pass 3 4 5", IllegalActionError, "HRT-PASS-2")
    # playing during the passing phase
    card = hand_of(game, 0)[0]
    refused(game, 0, f"play {card}", IllegalActionError, "HRT-PASS-1")


def test_hrt_pass_4_no_pass_in_the_play() -> None:
    game = cardcore.new_game(NAME, 4, seed=4)
    pass_all(game)
    leader = game.to_act[0]
    refused(game, leader, "pass 0 1 2", IllegalActionError, "HRT-PASS-4")


def test_hrt_lead_1_first_lead_must_be_2c() -> None:
    game = cardcore.new_game(NAME, 4, seed=6)
    pass_all(game)
    leader = game.to_act[0]
    other = next(c for c in hand_of(game, leader) if c != "2C")
    refused(game, leader, f"play {other}", IllegalActionError, "HRT-LEAD-1")


def _state(game: cardcore.Game) -> Any:
    return game.state


def test_hrt_follow_1_must_follow_suit() -> None:
    def can_revoke(game: cardcore.Game) -> bool:
        st = _state(game)
        trick = st.zones.cards[hearts.TRICK]
        if st.phase != "play" or not trick:
            return False
        hand = st.zones.cards[hearts.hand(game.to_act[0])]
        return any(c.suit == trick[0].suit for c in hand) and any(
            c.suit != trick[0].suit for c in hand
        )

    game = walk_until(can_revoke)
    seat = game.to_act[0]
    lead = game.state.zones.cards[hearts.TRICK][0].suit
    off = next(str(c) for c in game.state.zones.cards[hearts.hand(seat)] if c.suit != lead)
    message = refused(game, seat, f"play {off}", IllegalActionError, "HRT-FOLLOW-1")
    assert "follow" in message


def test_hrt_lead_2_hearts_not_led_unbroken() -> None:
    def may_lead_heart(game: cardcore.Game) -> bool:
        st = _state(game)
        if st.phase != "play" or st.zones.cards[hearts.TRICK] or st.broken:
            return False
        if all(not st.zones.cards[hearts.taken(s)] for s in range(4)):
            return False
        hand = st.zones.cards[hearts.hand(game.to_act[0])]
        return any(hearts.is_heart(c) for c in hand) and any(not hearts.is_heart(c) for c in hand)

    game = walk_until(may_lead_heart)
    seat = game.to_act[0]
    heart = next(str(c) for c in game.state.zones.cards[hearts.hand(seat)] if hearts.is_heart(c))
    assert f"play {heart}" not in game.view(seat)["legal"]
    refused(game, seat, f"play {heart}", IllegalActionError, "HRT-LEAD-2")


def test_hrt_lead_2_only_hearts_may_be_led() -> None:
    def only_hearts(game: cardcore.Game) -> bool:
        st = _state(game)
        if st.phase != "play" or st.zones.cards[hearts.TRICK] or st.broken:
            return False
        hand = st.zones.cards[hearts.hand(game.to_act[0])]
        return bool(hand) and all(hearts.is_heart(c) for c in hand)

    game = walk_until(only_hearts, range(13, 14))  # seed 13's random play gets there
    seat = game.to_act[0]
    assert len(game.view(seat)["legal"]) == len(hand_of(game, seat))


def test_hrt_first_1_no_points_on_first_trick() -> None:
    def can_dump(game: cardcore.Game) -> bool:
        st = _state(game)
        trick = st.zones.cards[hearts.TRICK]
        if (
            st.phase != "play"
            or not trick
            or any(st.zones.cards[hearts.taken(s)] for s in range(4))
        ):
            return False
        hand = st.zones.cards[hearts.hand(game.to_act[0])]
        if any(c.suit == trick[0].suit for c in hand):
            return False
        return any(hearts.points(c) for c in hand) and any(not hearts.points(c) for c in hand)

    game = walk_until(can_dump)
    seat = game.to_act[0]
    dump = next(str(c) for c in game.state.zones.cards[hearts.hand(seat)] if hearts.points(c))
    refused(game, seat, f"play {dump}", IllegalActionError, "HRT-FIRST-1")


def test_hrt_play_1_card_not_held() -> None:
    game = cardcore.new_game(NAME, 4, seed=6)
    pass_all(game)
    leader = game.to_act[0]
    elsewhere = hand_of(game, (leader + 1) % 4)[0]
    message = refused(game, leader, f"play {elsewhere}", IllegalActionError, "HRT-PLAY-1")
    assert names(message, [str(c) for c in standard_52()]) == [elsewhere]


def test_options_declared_bounds_and_rule_option() -> None:
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, 4, options={"points_limit": 5})
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, 4, options={"points_limit": 501})
    with pytest.raises(OptionError, match=r"hearts-1213\.moon"):
        cardcore.new_game(NAME, 4, options={"moon_mode": "add26"})
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, 4, rules=[MOON], options={"moon_mode": "double"})
    with pytest.raises(cardcore.CardcoreError):
        cardcore.new_game(NAME, 3)
    game = cardcore.new_game(NAME, 4, rules=[MOON], seed=1)
    assert game.options["moon_mode"] == "add26"
    assert game.record()["options"]["moon_mode"] == "add26"


# -- the moon house rule ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "raw", "expected"),
    [
        ("add26", [0, 26, 0, 0], [26, 0, 26, 26]),
        ("subtract26", [0, 26, 0, 0], [0, -26, 0, 0]),
        ("add26", [5, 13, 8, 0], [5, 13, 8, 0]),
        ("subtract26", [25, 1, 0, 0], [25, 1, 0, 0]),
    ],
)
def test_hrt_moon_1_score_round(mode: str, raw: list[int], expected: list[int]) -> None:
    state = types.SimpleNamespace(options={"moon_mode": mode})
    assert moon.score_round(state, raw) == expected


def test_hrt_moon_1_in_a_game_through_the_core() -> None:
    """The core runs the rule's score_round hook, with the rule's own option, for the game."""
    game = cardcore.new_game(NAME, 4, rules=[MOON], seed=3, options={"moon_mode": "subtract26"})
    base = game.logic
    st = game.state
    assert base.score_round(st, [0, 0, 26, 0]) == (0, 0, -26, 0)
    plain = cardcore.new_game(NAME, 4, seed=3)
    assert plain.logic.score_round(plain.state, [0, 0, 26, 0]) == (0, 0, 26, 0)


# -- saves, records, positions ---------------------------------------------------------------


def test_save_load_record_replay_mid_pass_and_at_end() -> None:
    game = cardcore.new_game(NAME, 4, seed=13)
    game.act(2, "pass 1 5 9")
    game.act(0, "pass 0 1 2")
    for copy in (cardcore.load(json.dumps(game.save())), cardcore.replay(game.record())):
        assert copy.to_act == (1, 3)
        for seat in (0, 1, 2, 3, None):
            assert copy.view(seat) == game.view(seat)
        copy.act(1, "pass 0 1 2")
        copy.act(3, "pass 0 1 2")
        assert copy.view(0)["table"]["phase"] == "play"
    cardcore.play(game, [cardcore.RandomAgent(i) for i in range(4)])
    again = cardcore.replay(game.record())
    assert again.result == game.result
    assert again.position() == game.position()
    loaded = cardcore.load(json.dumps(game.save()))
    assert loaded.result == game.result


def test_position_reads_back_mid_hand() -> None:
    game = cardcore.new_game(NAME, 4, seed=14)
    game.act(3, "pass 0 1 2")
    text = game.position()
    again = cardcore.new_game(NAME, 4, position=text, seed=1)
    for seat in range(4):
        assert again.view(seat)["legal"] == game.view(seat)["legal"]
        assert again.view(seat)["zones"] == game.view(seat)["zones"]


# -- sessions --------------------------------------------------------------------------------


def _joined(seed: int = 17) -> Any:
    from cardcore.session import Session

    session = Session.create(NAME, ["A", "B", "C", "D"], now=0.0, seed=seed)
    for seat in range(4):
        out = session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0 + seat)
        assert any(o.conn == f"c{seat}" and o.message["type"] == "welcome" for o in out)
    assert session.phase == "playing"
    return session


def _act(session: Any, seat: int, text: str, seen: int, now: float) -> list[Any]:
    msg = {"type": "act", "action": text, "seen": seen}
    return session.handle(f"c{seat}", json.dumps(msg), now=now)


def _reply(out: list[Any], seat: int) -> dict[str, Any]:
    return next(
        o.message for o in out if o.conn == f"c{seat}" and o.message["type"] in ("ok", "error")
    )


def test_session_passes_any_order_on_one_view_then_stale() -> None:
    session = _joined()
    game = session.game
    v0 = game.version
    hands = {s: hand_of(game, s) for s in range(4)}
    sent: dict[int, list[str]] = {s: [] for s in range(4)}
    now = 10.0
    for seat in (2, 0, 3):  # every pass made on the view of version v0
        out = _act(session, seat, "pass 0 1 2", v0, now)
        now += 1
        assert _reply(out, seat)["type"] == "ok", _reply(out, seat)
        for o in out:
            sent[int(o.conn[1:])].append(json.dumps(o.message))
    # no pass reached another seat before the exchange
    for seat in range(4):
        for giver in (2, 0, 3):
            if giver != seat:
                assert names("".join(sent[seat]), hands[giver][:3]) == [], (seat, giver)
    assert game.to_act == (1,)
    # seat 2 passing again, on its old view: refused, nothing changes
    before = game.version
    out = _act(session, 2, "pass 3 4 5", v0, now)
    assert _reply(out, 2)["type"] == "error" and _reply(out, 2)["code"] in ("illegal", "stale")
    assert game.version == before
    # the last seat, also on the first view: accepted, ends the phase
    out = _act(session, 1, "pass 0 1 2", v0, now + 1)
    assert _reply(out, 1)["type"] == "ok"
    assert game.view(0)["table"]["phase"] == "play"
    # after the exchange, a pass made on the old view is stale for the seats that passed
    # before the last one (the exchange moved cards they see); the last passer's own retry is
    # refused too, but as illegal (see the xfail below)
    after = game.version
    for seat in (2, 0, 3):
        out = _act(session, seat, "pass 3 4 5", v0, now + 2 + seat)
        reply = _reply(out, seat)
        assert reply["type"] == "error" and reply["code"] == "stale", reply
    out = _act(session, 1, "pass 0 1 2", v0, now + 9)
    assert _reply(out, 1)["type"] == "error"
    assert game.version == after


def test_session_last_passer_retry_is_stale() -> None:
    session = _joined(seed=17)
    game = session.game
    v0 = game.version
    for i, seat in enumerate((0, 3, 1, 2)):
        assert _reply(_act(session, seat, "pass 0 1 2", v0, 10.0 + i), seat)["type"] == "ok"
    assert game.to_act == (2,)  # seat 2 ended the passing and leads the first trick
    reply = _reply(_act(session, 2, "pass 0 1 2", v0, 20.0), 2)
    assert reply["code"] == "stale", reply


def test_session_exchange_messages_show_cards_only_to_giver_and_receiver() -> None:
    session = _joined(seed=23)
    game = session.game
    v0 = game.version
    hands = {s: hand_of(game, s) for s in range(4)}
    texts: dict[int, str] = {s: "" for s in range(4)}
    for i, seat in enumerate((1, 3, 0, 2)):
        out = _act(session, seat, "pass 0 1 2", v0, 10.0 + i)
        for o in out:
            texts[int(o.conn[1:])] += json.dumps(o.message)
    assert game.view(0)["table"]["phase"] == "play"
    for giver in range(4):
        receiver = (giver + 1) % 4
        secret = [c for c in hands[giver][:3] if c != "2C"]
        for seat in range(4):
            shown = names(texts[seat], secret)
            if seat in (giver, receiver):
                assert sorted(shown) == sorted(secret), (giver, seat)
            else:
                assert shown == [], (giver, seat, shown)


# -- reinforcement learning ------------------------------------------------------------------


def test_rl_aec_env_plays_to_the_end() -> None:
    np = pytest.importorskip("numpy")
    from cardcore.rl import aec_env

    env = aec_env(NAME, 4, options=FAST)
    env.reset(seed=3)
    obs, *_ = env.last()
    assert obs["action_mask"].shape == (286,)
    assert int(obs["action_mask"].sum()) == 286
    rng = np.random.default_rng(0)
    steps = 0
    for _agent in env.agent_iter(max_iter=5000):
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    assert env.match.game.is_over
    assert env.match.game.result.reason == "points limit"
    assert steps == env.match.game.version


def test_rl_gym_env_one_seat_against_random() -> None:
    np = pytest.importorskip("numpy")
    from cardcore.rl import gym_env

    env = gym_env(NAME, 4, seat=1, options=FAST)
    obs, _info = env.reset(seed=5)
    rng = np.random.default_rng(1)
    terminated = truncated = False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
    assert terminated and not truncated
    result = info["result"]
    assert result["reason"] == "points limit"
    assert reward == (1.0 if 1 in result["winners"] else reward)
    assert max(result["scores"]) >= 10
