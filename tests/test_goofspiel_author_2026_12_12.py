"""Goofspiel written from cardcore's docs by a first-time plugin author, and tried as a user.

The game (``tests/plugins/goofspiel_2026_12_12.py``) is registered in place with
``cardcore.register`` (docs/plugin-guide/entry-points.rst, "Without installing"); one test
per rule ID, the conformance kit, the built-in agents, persistence, a session and the RL
environment. The key property: a seat's bid stays hidden from every other seat until all
bids are in and revealed.
"""

from __future__ import annotations

import json
import re
import types
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import CardMoved, Emit, Event, IllegalActionError, NotationError, hookimpl
from cardcore.testing import check_game
from tests.plugins import goofspiel_2026_12_12 as goof

NAME, CARRY = goof.NAME, goof.CARRY_NAME
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, goof)
    cardcore.register("cardcore.rules", CARRY, goof.CARRY)
    extra: list[str] = []
    yield extra
    for name in extra:
        cardcore.unregister("cardcore.games", name)
    cardcore.unregister("cardcore.rules", CARRY)
    cardcore.unregister("cardcore.games", NAME)


def variant(registered: list[str], name: str, logic_cls: type) -> str:
    """Register a variant of the game (another logic) under *name*."""
    module = types.ModuleType(name.replace("-", "_"))
    module.GAME = goof.GameInfo(
        name,
        "Goofspiel variant",
        2,
        4,
        version="1.0.0",
        hookspecs=goof.SPECS,
        fields=goof.GAME.fields,
    )

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return logic_cls(ruleset)

    module.create_logic = create_logic
    module.build_deck = goof.build_deck
    module.goofspiel_carry_ties = goof.goofspiel_carry_ties
    cardcore.register("cardcore.games", name, module)
    registered.append(name)
    return name


def suit_cards(suit: str, order: list[str] | None = None) -> list[str]:
    return [r + suit for r in (order or RANKS)]


def stacked(spades: list[str], hearts: list[str], diamonds: list[str]) -> str:
    """A two-seat deck, top first: the new_state scans it bottom to top."""
    return " ".join(spades + hearts + diamonds)


def hand(game: cardcore.Game, seat: int) -> list[str]:
    return game.view(seat)["zones"][goof.hand(seat)]["cards"]


def card_re(suit: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![0-9A-Z])(10|[2-9AJQK]){suit}(?![A-Z0-9])")


class _SentCards:
    """A suit's cards named in a session's message text: its words that read as cards, so a
    random token or session id that happens to hold ``5H`` is no card (the test was flaky)."""

    def __init__(self, suit: str) -> None:
        self.pattern = card_re(suit)

    def search(self, text: str) -> bool:
        from cardcore.session.patch import card_words

        return any(self.pattern.fullmatch(w) for w in card_words(json.loads(text)))


# -- rules ------------------------------------------------------------------------------------


def test_goof_seat_1_two_to_four_players():
    for players in (2, 3, 4):
        assert cardcore.new_game(NAME, players, seed=1).to_act == tuple(range(players))
    for players in (1, 5):
        with pytest.raises(cardcore.OptionError, match="CORE-SEAT-2"):
            cardcore.new_game(NAME, players, seed=1)


def test_goof_deal_1_one_suit_each_and_a_face_up_diamond():
    game = cardcore.new_game(NAME, 3, seed=4)
    for seat, suit in enumerate("SHC"):
        assert sorted(hand(game, seat)) == sorted(suit_cards(suit))
    prize = game.view(None)["zones"][goof.PRIZE]["cards"]
    assert len(prize) == 1 and prize[0].endswith("D")
    assert game.view(None)["zones"][goof.STOCK]["count"] == 12
    assert game.view(0)["table"]["pot"] == RANKS.index(prize[0][:-1]) + 1


def test_goof_bid_1_every_seat_to_act_and_position_names_the_card():
    game = cardcore.new_game(NAME, 2, seed=9)
    assert game.to_act == (0, 1)
    mine = hand(game, 1)
    game.act(1, "bid 4")  # seat 1 first: any order (CORE-TURN-1)
    assert game.to_act == (0,)
    assert game.view(1)["zones"][goof.bid_pile(1)]["cards"] == [mine[4]]
    assert hand(game, 1) == mine[:4] + mine[5:]
    assert game.view(0)["zones"][goof.bid_pile(1)]["cards"] == [None]
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(1, "bid 0")  # already bid this round
    with pytest.raises(IllegalActionError, match="GOOF-BID-1"):
        game.act(0, "bid 13")
    with pytest.raises(NotationError):
        game.act(0, "bid KS")


def test_goof_reveal_1_highest_bid_wins_tie_discards():
    deck = stacked(suit_cards("S"), suit_cards("H"), suit_cards("D"))
    game = cardcore.new_game(NAME, 2, deck=deck, seed=1)
    # new_state scans the deck bottom to top, so each hand lists A..K top first; AD is up
    assert hand(game, 0) == suit_cards("S") and hand(game, 1) == suit_cards("H")
    assert game.view(0)["table"]["pot"] == 1
    game.act(0, "bid 0")
    game.act(1, "bid 0")  # AS against AH: a tie, the AD is discarded
    view = game.view(None)
    assert view["table"]["points"] == [0, 0]
    assert sorted(view["zones"][goof.DISCARD]["cards"]) == ["AD", "AH", "AS"]
    assert view["zones"][goof.PRIZE]["cards"] == ["2D"]
    game.act(0, "bid 0")  # 2S
    game.act(1, "bid 11")  # KH wins the 2D
    view = game.view(None)
    assert view["table"]["points"] == [0, 2]
    assert view["zones"][goof.won(1)]["cards"] == ["2D"]
    assert {"2S", "KH"} <= set(view["zones"][goof.DISCARD]["cards"])


def test_goof_reveal_1_bids_stay_hidden_until_all_are_in():
    game = cardcore.new_game(NAME, 3, seed=2)
    seen: dict[int, list[dict[str, Any]]] = {s: [] for s in range(3)}
    for s in range(3):
        game.events.subscribe(Event, lambda e, s=s: seen[s].append(e.to_json()), seat=s)
    game.act(0, "bid 0")
    game.act(2, "bid 0")
    spade = card_re("S")
    for other in (1, 2):
        assert not spade.search(json.dumps(seen[other])), seen[other]
        assert not spade.search(json.dumps(game.view(other)))
    assert spade.search(json.dumps(seen[0]))  # the bidder sees its own bid
    game.act(1, "bid 0")
    assert spade.search(json.dumps(seen[1]))  # revealed to all


def test_goof_end_1_thirteen_rounds_most_points_win():
    game = cardcore.new_game(NAME, 2, seed=11)
    result = cardcore.play(game, [cardcore.RandomAgent(seed=1), cardcore.RandomAgent(seed=2)])
    assert result.reason == "rounds" and game.version == 26
    points = [float(p) for p in game.view(None)["table"]["points"]]
    assert list(result.scores) == points and sum(points) <= 91
    best = max(points)
    assert result.winners == tuple(s for s, p in enumerate(points) if p == best)


def test_goof_carry_1_tied_prize_carries_over():
    deck = stacked(suit_cards("S"), suit_cards("H"), suit_cards("D"))
    game = cardcore.new_game(NAME, 2, deck=deck, rules=[CARRY], seed=1)
    assert game.rules == (CARRY,)
    game.act(0, "bid 0")
    game.act(1, "bid 0")  # AS against AH: the AD stays and the 2D joins it
    assert sorted(game.view(None)["zones"][goof.PRIZE]["cards"]) == ["2D", "AD"]
    assert game.view(0)["table"]["pot"] == 3
    game.act(0, "bid 11")  # KS
    game.act(1, "bid 0")  # 2H
    view = game.view(None)
    assert view["table"]["points"] == [3, 0] and view["zones"][goof.PRIZE]["cards"] == ["3D"]


def test_goof_carry_1_last_tie_goes_to_nobody():
    deck = stacked(suit_cards("S"), suit_cards("H"), suit_cards("D"))
    game = cardcore.new_game(NAME, 2, deck=deck, rules=[CARRY], seed=1)
    for _ in range(13):  # every round a tie: all prizes carry, the last tie discards them
        game.act(0, "bid 0")
        game.act(1, "bid 0")
    assert game.is_over and game.result.scores == (0.0, 0.0) and game.result.winners == (0, 1)
    assert len(game.view(None)["zones"][goof.DISCARD]["cards"]) == 39


# -- the kit ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players,rules", [(2, []), (3, [CARRY]), (4, [])])
def test_conformance_kit(players, rules):
    report = check_game(NAME, players=players, rules=rules, games=2, seed=0)
    assert report.ok and report.leaks == 0 and report.cards_lost == 0
    assert "positions" not in report.skipped and "scores" not in report.skipped


class CardNotation(goof.GoofLogic):
    """A careless author's variant: the bid names its card (``bid KS``)."""

    def legal_actions(self, state, seat):
        n = len(state.zones.cards[goof.hand(seat)])
        return tuple(Named(seat, c) for c in reversed(state.zones.cards[goof.hand(seat)][:n]))

    def parse_action(self, state, seat, text):
        words = text.split()
        if len(words) == 2 and words[0].lower() == "bid":
            return Named(seat, cardcore.Card.parse(words[1]))
        raise NotationError(f"expected 'bid CARD', not {text!r} (GOOF-BID-1)")

    def apply(self, state, action, emit):
        cards = state.zones.cards[goof.hand(action.seat)]
        index = len(cards) - 1 - cards.index(action.card)
        super().apply(state, goof.bid(action.seat, index), emit)


@goof.frozen
class Named(goof.Action):
    card: cardcore.Card
    verb = "bid"

    def notation(self) -> str:
        return f"bid {self.card}"


def test_kit_catches_a_bid_named_by_its_card(registered):
    name = variant(registered, "goof-named-1212", CardNotation)
    report = check_game(name, players=2, games=1, seed=0, checks={"events"}, strict=False)
    assert not report.ok and report.leaks > 0
    assert any("name a position, not a hidden card" in f for f in report.failures)


class LeakyTable(goof.GoofLogic):
    """Leaks the highest bid so far as a number: no card text at all."""

    def table(self, state, seat):
        table = super().table(state, seat)
        bids = [
            goof.value(c) for s in range(state.players) for c in state.zones.cards[goof.bid_pile(s)]
        ]
        table["round"] = max(bids, default=0)
        return table


def test_kit_twins_catch_a_bid_leaked_as_a_number(registered):
    name = variant(registered, "goof-leaky-1212", LeakyTable)
    views = check_game(name, players=2, games=2, seed=0, checks={"views"}, strict=False)
    assert views.ok  # no card text: the views check alone cannot see it (as documented)
    report = check_game(name, players=2, games=2, seed=0, checks={"twins"}, strict=False)
    assert not report.ok and any("depends on cards hidden" in f for f in report.failures)


class LoudEvent(goof.GoofLogic):
    """Emits the bid's card to everyone (visible_to left at ALL)."""

    def apply(self, state, action, emit: Emit | None):
        def loud(event):
            if isinstance(event, CardMoved) and event.dst.startswith("bid."):
                event = CardMoved(event.seat, event.src, event.dst, event.card)
            emit(event)

        super().apply(state, action, loud if emit is not None else None)


def test_kit_catches_a_bid_event_shown_to_all(registered):
    name = variant(registered, "goof-loud-1212", LoudEvent)
    report = check_game(name, players=2, games=1, seed=0, checks={"events"}, strict=False)
    assert not report.ok and report.leaks > 0


# -- agents, persistence ----------------------------------------------------------------------


def test_random_and_ismcts_play_it():
    game = cardcore.new_game(NAME, 3, seed=5)
    bot = cardcore.load_agent("ismcts")(seed=1, iterations=10)
    result = cardcore.play(game, [bot, cardcore.RandomAgent(seed=2), cardcore.RandomAgent(seed=3)])
    assert game.is_over and result.reason == "rounds" and game.version == 39


def test_record_replay_and_save_load_round_trip():
    game = cardcore.new_game(NAME, 2, rules=[CARRY], seed=21)
    agents = [cardcore.RandomAgent(seed=1), cardcore.RandomAgent(seed=2)]
    for _ in range(9):  # part way, mid-round (an odd version: one bid in)
        seat = game.to_act[0]
        game.apply(agents[seat].choose(game.view(seat), game.legal_actions(seat)))
    loaded = cardcore.load(json.dumps(game.save()))
    assert loaded.position() == game.position() and loaded.to_act == game.to_act
    replayed = cardcore.replay(json.dumps(game.record()))
    assert replayed.position() == game.position()
    for seat in (None, 0, 1):
        assert loaded.view(seat) == game.view(seat) == replayed.view(seat)
    cardcore.play(game, agents)
    assert cardcore.replay(json.dumps(game.record())).result == game.result


def test_position_round_trip_keeps_hidden_bid():
    game = cardcore.new_game(NAME, 2, seed=3)
    game.act(0, "bid 5")
    again = cardcore.new_game(NAME, 2, position=game.position(), seed=9)
    assert again.to_act == (1,)
    for seat in (None, 0, 1):
        assert again.view(seat)["zones"] == game.view(seat)["zones"]


# -- session ----------------------------------------------------------------------------------


def test_session_never_sends_an_unrevealed_bid_to_the_other_seat():
    from cardcore.session import Session

    session = Session.create(NAME, ["Ann", "Bob"], now=0.0, seed=7)
    sent: dict[str, list[str]] = {"ann": [], "bob": []}

    def record(out):
        for o in out:
            sent[o.conn].append(o.text)
        return out

    record(session.handle("ann", '{"type": "join", "seat": 0}', now=1.0))
    record(session.handle("bob", '{"type": "join", "seat": 1}', now=2.0))
    spade, heart = _SentCards("S"), _SentCards("H")
    now = 3.0
    version = 0
    for _ in range(3):
        before = {c: len(t) for c, t in sent.items()}
        out = record(
            session.handle(
                "ann", json.dumps({"type": "act", "action": "bid 0", "seen": version}), now=now
            )
        )
        version += 1
        assert not any(spade.search(t) for t in sent["bob"][before["bob"] :])
        assert not any(heart.search(t) for t in sent["ann"]) or version > 1
        out = record(
            session.handle(
                "bob", json.dumps({"type": "act", "action": "bid 0", "seen": version}), now=now + 1
            )
        )
        assert any(o.message["type"] == "ok" for o in out)
        version += 1
        now += 2
    # the reveals did reach each seat: the test can see a card when one is sent
    assert any(spade.search(t) for t in sent["bob"]) and any(heart.search(t) for t in sent["ann"])


def test_session_simultaneous_bids_on_the_same_view_both_accepted():
    from cardcore.session import Session

    session = Session.create(NAME, ["Ann", "Bob"], now=0.0, seed=7)
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    session.handle("ann", '{"type": "act", "action": "bid 0", "seen": 0}', now=3.0)
    out = session.handle("bob", '{"type": "act", "action": "bid 0", "seen": 0}', now=3.1)
    assert [o.message["type"] for o in out if o.conn == "bob"][-1:] != ["error"]


# -- RL ---------------------------------------------------------------------------------------


def test_rl_observation_hides_the_other_bid():
    from cardcore.rl import aec_env, observe

    order = suit_cards("S")
    a = stacked(order, suit_cards("H"), suit_cards("D"))
    b = stacked(order[::-1], suit_cards("H"), suit_cards("D"))
    games = [cardcore.new_game(NAME, 2, deck=d, seed=1) for d in (a, b)]
    for game in games:
        game.act(0, "bid 0")  # a different spade in each game
    assert hand(games[0], 0) != hand(games[1], 0)
    one = [observe(g, 1) for g in games]
    assert np.array_equal(one[0]["observation"], one[1]["observation"])
    zero = [observe(g, 0) for g in games]
    assert not np.array_equal(zero[0]["observation"], zero[1]["observation"])

    env = aec_env(NAME, 2)
    env.reset(seed=3)
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(obs["action_mask"].nonzero()[0][-1]))
        steps += 1
    assert steps == 26 and env.match.game.is_over


# -- session: more of the key property, and simultaneous play -----------------------------------


def joined(name: str = NAME, **kwargs: Any) -> Any:
    from cardcore.session import Session

    session = Session.create(name, ["Ann", "Bob"], now=0.0, seed=7, **kwargs)
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=1.0)
    return session


def test_session_hides_an_action_text_that_names_a_hidden_card(registered):
    name = variant(registered, "goof-named-1212", CardNotation)
    session = joined(name)
    text = session.game.view(0)["legal"][0]  # 'bid <spade>'
    out = session.handle("ann", json.dumps({"type": "act", "action": text, "seen": 0}), now=2.0)
    to_bob = [o for o in out if o.conn == "bob"]
    to_ann = [o for o in out if o.conn == "ann"]
    assert to_bob and not any(_SentCards("S").search(o.text) for o in to_bob)
    assert to_bob[0].message["action"]["text"] is None
    assert to_ann[0].message["action"]["text"] == text  # its own seat sees it


def test_session_takeback_of_an_unrevealed_bid_allowed_a_revealing_one_refused():
    session = joined()
    session.handle("ann", '{"type": "act", "action": "bid 3", "seen": 0}', now=2.0)
    session.handle("ann", '{"type": "takeback", "op": "request"}', now=2.5)
    session.handle("bob", '{"type": "takeback", "op": "accept"}', now=3.0)
    assert session.game.version == 0 and session.game.to_act == (0, 1)  # nobody learned it
    session.handle("ann", '{"type": "act", "action": "bid 3", "seen": 0}', now=4.0)
    session.handle("bob", '{"type": "act", "action": "bid 3", "seen": 1}', now=5.0)
    out = session.handle("bob", '{"type": "takeback", "op": "request"}', now=5.5)
    error = [o for o in out if o.conn == "bob"][-1]
    assert error.message["type"] == "error" and "cannot be taken back" in error.message["message"]
    assert not _SentCards("[SHD]").search(error.text)  # names the seats, never the cards
    assert session.game.version == 2


def test_session_both_clocks_run_and_time_out_in_a_simultaneous_round():
    from cardcore.session import SessionConfig, TimeControl

    session = joined(config=SessionConfig(time=TimeControl(turn=5.0)))
    session.handle("ann", '{"type": "act", "action": "bid 0", "seen": 0}', now=2.0)
    assert session.next_deadline() == 6.0  # Bob's clock, from the deal at 1.0
    out = session.tick(6.0)
    causes = [
        o.message["action"]["cause"]
        for o in out
        if o.conn == "ann" and o.message["type"] == "update"
    ]
    assert causes[:1] == ["timeout"] and session.game.version >= 2


def test_session_new_round_gives_the_last_bidder_a_fresh_clock():
    from cardcore.session import SessionConfig, TimeControl

    session = joined(config=SessionConfig(time=TimeControl(turn=5.0)))
    session.handle("ann", '{"type": "act", "action": "bid 0", "seen": 0}', now=2.0)
    session.handle("bob", '{"type": "act", "action": "bid 0", "seen": 1}', now=5.9)
    assert session.game.version == 2 and session.game.to_act == (0, 1)  # round 2 began at 5.9
    out = session.tick(6.0)  # Bob has had 0.1 s of round 2
    assert not [o for o in out if o.message.get("type") == "update"]
    assert session.game.version == 2


def test_determinize_keeps_each_seat_in_its_suit():
    game = cardcore.new_game(NAME, 3, seed=3)
    game.act(1, "bid 2")
    twin = game.determinize(0, 5)
    assert twin.view(0) == game.view(0)
    for seat, suit in ((1, "H"), (2, "C")):
        cards = twin.view(seat)["zones"][goof.hand(seat)]["cards"]
        cards += twin.view(seat)["zones"][goof.bid_pile(seat)]["cards"]
        assert sorted(cards) == sorted(suit_cards(suit))
    assert game.determinize(0, 6).view(1) != game.view(1)  # hidden cards did move


def test_ismcts_beats_random():
    from cardcore.search import ISMCTSAgent

    margin = 0.0
    for i in range(3):
        game = cardcore.new_game(NAME, 2, seed=100 + i)
        result = cardcore.play(
            game, [ISMCTSAgent(seed=i, iterations=40), cardcore.RandomAgent(seed=i)]
        )
        margin += result.scores[0] - result.scores[1]
    assert margin > 0
