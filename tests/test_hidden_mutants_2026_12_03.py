"""Hidden information: tests that kill the leak mutants the other hidden-information tests let
survive (a mutation audit of views, events, zones, sessions, the web server and the RL envs).

Each test names the mutant it kills; every one asserts through the public API that a card
(or a version) a seat or a spectator may not know does not reach it.
"""

from __future__ import annotations

import json
import types
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import (
    ALL,
    SPECTATOR,
    Card,
    CardDrawn,
    Event,
    Layout,
    RuleInfo,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)

# -- zones: is_visible / knows ------------------------------------------------------------------


def _zones() -> Zones:
    return Zones(
        Layout.of(
            [
                ZoneSpec("hand.0", 0, Visibility.OWNER),
                ZoneSpec("hand.1", 1, Visibility.OWNER),
                ZoneSpec("stock", None, Visibility.NOBODY),
            ]
        )
    )


def test_a_hand_is_not_visible_to_a_spectator_or_another_seat() -> None:
    """Mutant zones.py is_visible: ``seat is not None and seat == owner`` -> ``seat is None or
    seat == owner`` (a spectator would see every hand, and so would know it)."""
    zones = _zones()
    zones.put(0, Card.parse("AS"))
    zones.put(0, Card.parse("KH"))
    for i in range(2):
        assert zones.is_visible(0, i, 0)
        assert not zones.is_visible(0, i, 1)
        assert not zones.is_visible(0, i, None)
        assert not zones.knows(0, i, None)
        assert not zones.knows(0, i, 1)
    assert zones.show(0, None) == [None, None]


def test_a_face_down_card_one_seat_saw_is_not_visible_to_the_others() -> None:
    """Mutant zones.py is_visible: ``mask == ALL`` -> ``mask != 0`` (a card one seat saw would be
    visible to every seat and to spectators)."""
    zones = _zones()
    zones.put(2, Card.parse("QD"), 1 << 1)  # seat 1 peeked at it
    zones.put(2, Card.parse("3C"))  # nobody saw it
    assert zones.is_visible(2, 0, 1) and zones.knows(2, 0, 1)
    for seat in (0, None):
        assert not zones.is_visible(2, 0, seat)
        assert not zones.knows(2, 0, seat)
    assert not any(zones.is_visible(2, 1, s) for s in (0, 1, None))
    assert zones.show(2, 0) == [None, None] and zones.show(2, 1) == [None, "QD"]
    zones.reveal(2, 0)
    assert zones.seen[2][0] == ALL and all(zones.is_visible(2, 0, s) for s in (0, 1, None))


def test_determinize_moves_a_card_only_another_seat_saw() -> None:
    """The same mutant seen through ``Game.determinize``: a card only seat 0 peeked at must be
    dealt anew in seat 1's worlds (else the world would tell seat 1 where it lies)."""
    game = cardcore.new_game("golf", 2, options={"layout": "4"}, seed=5)
    game.act(0, "peek 0")
    grid = next(z for z, s in enumerate(game.state.zones.layout.specs) if s.name == "grid.0")
    real = game.state.zones.cards[grid][0]
    moved = {game.determinize(1, seed).state.zones.cards[grid][0] != real for seed in range(12)}
    assert True in moved  # in some world of seat 1 another card lies there
    assert all(game.determinize(0, seed).state.zones.cards[grid][0] == real for seed in range(4))


# -- events: redaction when a plugin observes the game ------------------------------------------

_NAME = "golf.hears-every-event"


@pytest.fixture
def observed() -> Iterator[str]:
    """A Golf house rule with an ``on_event`` (the bus then delivers through its other path)."""
    module = types.ModuleType("hears_every_event")

    @hookimpl
    def on_event(event: Any) -> None:
        return None

    module.on_event = on_event  # type: ignore[attr-defined]
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="TEST-MUT-HID-1", name=_NAME, game="golf", summary="hears events"
    )
    cardcore.register("cardcore.rules", _NAME, module)
    try:
        yield _NAME
    finally:
        cardcore.unregister("cardcore.rules", _NAME)


def _to_draw(game: cardcore.Game) -> int:
    while True:
        seat = game.to_act[0]
        legal = [str(a) for a in game.legal_actions(seat)]
        if "draw" in legal:
            return seat
        game.act(seat, legal[0])


@pytest.mark.parametrize("with_observer", [False, True])
def test_a_stock_draw_is_redacted_for_other_seats_and_spectators(
    observed: str, with_observer: bool
) -> None:
    """Mutant _bus.py _deliver (the path taken when a plugin's ``on_event`` listens): the
    ``for_seat`` copy skipped for ``seat=SPECTATOR`` (or for every seat)."""
    rules = [observed] if with_observer else []
    game = cardcore.new_game("golf", 2, rules=rules, options={"rounds": 1}, seed=7)
    actor = _to_draw(game)
    other = 1 - actor
    got: dict[object, list[Event]] = {actor: [], other: [], SPECTATOR: []}
    for who, sink in got.items():
        game.events.subscribe(CardDrawn, sink.append, seat=who)  # type: ignore[arg-type]
    game.act(actor, "draw")
    drawn = game.view(actor)["table"]["held"]["card"]
    assert drawn is not None
    assert [e.card for e in got[actor]] == [Card.parse(drawn)]  # type: ignore[attr-defined]
    assert [e.card for e in got[other]] == [None]  # type: ignore[attr-defined]
    assert [e.card for e in got[SPECTATOR]] == [None]  # type: ignore[attr-defined]
    assert drawn not in str([e.to_json() for e in got[other] + got[SPECTATOR]])


# -- sessions: a spectator who joins late sees the delayed game ---------------------------------


def test_a_spectator_joining_mid_game_gets_the_delayed_view() -> None:
    """Mutant session/_flow.py _view_message: ``self.spec.view`` -> ``self._spec_now`` (a
    spectator joining would see the live game, not the game ``spectator_delay`` actions late)."""
    from tests.session.kit import table

    t = table("golf", spectator_delay=3)
    for _ in range(2):
        game = t.session.game
        assert game is not None
        seat = game.to_act[0]
        t.act("ab"[seat], str(game.legal_actions(seat)[0]), 0.5)
    assert t.session.game is not None and t.session.game.version == 2
    replies = t.send("w2", {"type": "watch"})
    views = [r for r in replies if r["type"] == "view"]
    assert [v["version"] for v in views] == [0]
    assert views[0]["view"]["version"] == 0
    assert views[0]["view"] == t.mirrors["w"].view  # what the first spectator sees too


# -- web: no replay of a game still being played ------------------------------------------------


def test_the_web_replay_is_refused_while_the_game_is_played() -> None:
    """Mutant web/app.py api_replay: the ``phase not in ("over", "closed")`` check dropped (a
    replay would show anybody the live game, beating the spectators' delay)."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from tests.web.helpers import Player, create, serve

    seats = [{"name": "Ann"}, {"name": "Bob"}]
    with serve() as (client, server, _):
        sid = create(client, "golf", seats, options={"rounds": 1})["session"]
        with client.websocket_connect("/ws") as ws0, client.websocket_connect("/ws") as ws1:
            for seat, ws in enumerate((ws0, ws1)):
                player = Player(ws)
                player.send({"type": "join", "session": sid, "seat": seat})
                player.until("welcome")
            assert server.hub.sessions[sid].phase == "playing"
            for step in (0, 1):
                r = client.get(f"/api/sessions/{sid}/replay/{step}")
                assert r.status_code == 409, r.text
            assert client.get(f"/api/sessions/{sid}/record").status_code == 409


# -- RL: each agent observes its own seat --------------------------------------------------------


def _hand_planes(obs: Any) -> set[str]:
    """The cards of Tonk's hand planes (the first 52 entries, by ``cardcore_tonk`` card index)."""
    from cardcore_tonk.melds import CARDS

    return {str(CARDS[i]) for i in range(52) if obs[i] > 0}


def test_aec_observe_gives_each_agent_its_own_hand() -> None:
    """Mutant rl/aec.py observe: the observation of the seat to act returned for every agent
    (an agent not to act would observe another seat's hidden hand)."""
    pytest.importorskip("pettingzoo")
    from cardcore.rl import aec_env

    env = aec_env("tonk", 2, options={"hands": 1})
    env.reset(seed=3)
    hands = [_hand_planes(env.observe(a)["observation"]) for a in env.possible_agents]
    assert all(len(h) == 5 for h in hands), hands
    assert not hands[0] & hands[1]  # two hands never share a card: each agent sees its own


def test_gym_render_shows_the_learners_view() -> None:
    """Mutant rl/seat.py render: another seat's view rendered (its hidden hand in the text)."""
    pytest.importorskip("gymnasium")
    from cardcore.rl import gym_env

    env = gym_env("tonk", 2, seat=1, opponents="random", options={"hands": 1}, render_mode="ansi")
    obs, _ = env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str)
    assert "· seat 1 (" in text.splitlines()[0] and "seat 0 (" not in text
    hand = next(line for line in text.splitlines() if line.strip().startswith("hand:"))
    mine = _hand_planes(obs["observation"] if isinstance(obs, dict) else obs)
    assert len(mine) == 5 and all(repr(c) in hand for c in mine), (mine, hand)


# -- Speed: the deal tells each player its own hand only -----------------------------------------


def test_speed_worlds_of_one_seat_deal_the_other_hand_anew() -> None:
    """Mutant cardcore_spit/speed/logic.py deal: a hand's knowledge ``1 << s`` -> both seats'
    (the other seat would "know" the hand: its determinized worlds and search samples would
    hold the real opponent hand)."""
    game = cardcore.new_game("speed", 2, seed=4)
    specs = game.state.zones.layout.specs
    hand = {s.owner: z for z, s in enumerate(specs) if s.name.startswith("hand.")}
    for seat in (0, 1):
        other = hand[1 - seat]
        real = sorted(c.text for c in game.state.zones.cards[other])
        worlds = [game.determinize(seat, seed).state.zones.cards for seed in range(6)]
        assert any(sorted(c.text for c in w[other]) != real for w in worlds), seat
        own = sorted(c.text for c in game.state.zones.cards[hand[seat]])
        assert all(sorted(c.text for c in w[hand[seat]]) == own for w in worlds)


def test_the_web_never_shows_a_session_seed_before_the_end() -> None:
    """Mutant web/app.py describe: the session's ``seed`` added to what the lobby shows (the
    seed deals the whole deck: every hidden card)."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from tests.web.helpers import Player, create, serve

    seats = [{"name": "Ann"}, {"name": "Bob"}]
    with serve() as (client, server, _):
        made = create(client, "golf", seats, options={"rounds": 1})
        sid = made["session"]
        session = server.hub.sessions[sid]
        secret = str(session.seed if session.fair is None else session.fair.seed)
        assert len(secret) > 6
        texts = [
            str(made),
            client.get(f"/api/sessions/{sid}").text,
            client.get("/api/sessions").text,
        ]
        with client.websocket_connect("/ws") as ws:
            player = Player(ws)
            player.send({"type": "join", "session": sid, "seat": 0})
            texts.append(str(player.until("welcome")))
            texts.append(client.get(f"/api/sessions/{sid}").text)
        assert session.phase != "over"
        assert not [t for t in texts if secret in t]


def test_a_fair_deal_bundle_is_kept_until_the_game_is_over() -> None:
    """Mutant session/_flow.py fair_bundle: the ``phase != "over"`` check dropped (the bundle
    holds the seed: every hidden card); a resync view must carry no ``reveal`` either."""
    from tests.session.kit import table

    t = table("golf", fair=True, options={"rounds": 1})
    game = t.session.game
    assert game is not None and t.session.phase == "playing"
    seat = game.to_act[0]
    t.act("ab"[seat], str(game.legal_actions(seat)[0]), 0.5)
    assert t.session.fair_bundle() is None
    token = t.mirrors["a"].token
    replies = t.send("a2", {"type": "join", "seat": 0, "token": token})  # a second window
    views = [r for r in replies if r["type"] == "view"]
    assert views and all(r.get("reveal") is None for r in views)
    assert not [o for o in t.outbound if o.message["type"] == "reveal" or "bundle" in o.text]


# -- errors: an action out of turn ---------------------------------------------------------------


def test_an_action_out_of_turn_names_no_card_of_the_seat_to_act() -> None:
    """Mutant _driver.py CORE-TURN-1: the message lists what the seat to act may do (in Tonk
    its discards: its hidden hand)."""
    import re

    game = cardcore.new_game("tonk", 3, options={"hands": 1}, seed=2)
    actor = game.to_act[0]
    game.act(actor, "draw")
    hand = game.view(actor)["table"]["hand"]
    assert any(str(a).startswith("discard") for a in game.legal_actions(actor))
    for other in range(3):
        if other == actor:
            continue
        seen = str(game.view(other))
        for text in ("draw", "drop", f"discard {hand[0]}", "spread AS 2S 3S"):
            with pytest.raises(cardcore.IllegalActionError) as caught:
                game.act(other, text)
            message = str(caught.value)
            assert "CORE-TURN-1" in message or "TONK-" in message
            named = set(re.findall(r"\b(?:10|[2-9AJQK])[SHDC]\b", message))
            leaked = {c for c in named if c not in text and c not in seen}
            assert not leaked, (other, text, message)


def test_a_spectators_view_lists_no_legal_action() -> None:
    """Mutant _views.py make_view: a spectator's ``legal`` filled with the seat to act's (in
    Tonk its discards name its hidden hand)."""
    game = cardcore.new_game("tonk", 3, options={"hands": 1}, seed=2)
    actor = game.to_act[0]
    game.act(actor, "draw")
    view = game.view(None)
    assert view["legal"] == [] and view["table"]["hand"] == []
    hidden = set(game.view(actor)["table"]["hand"]) - {view["table"]["discard_top"]}
    assert hidden and not [c for c in hidden if c in str(view)]


def test_a_seat_not_to_act_sees_no_legal_action_of_another() -> None:
    """Mutant _views.py make_view: a seat not to act given the seat to act's ``legal``."""
    game = cardcore.new_game("tonk", 3, options={"hands": 1}, seed=2)
    actor = game.to_act[0]
    game.act(actor, "draw")
    mine = game.view(actor)
    assert any(a.startswith("discard") for a in mine["legal"])
    hidden = set(mine["table"]["hand"]) - {mine["table"]["discard_top"]}
    for other in range(3):
        if other != actor:
            view = game.view(other)
            assert view["legal"] == []
            assert not [c for c in hidden if c in str(view)], other


def test_an_error_to_a_spectator_tells_the_delayed_version() -> None:
    """Mutant session/_flow.py _version_for: a spectator's error told the live version (how far
    the game went, beating ``spectator_delay``)."""
    from tests.session.kit import table

    t = table("golf", spectator_delay=3)
    for _ in range(2):
        game = t.session.game
        assert game is not None
        seat = game.to_act[0]
        t.act("ab"[seat], str(game.legal_actions(seat)[0]), 0.5)
    replies = t.send("w", {"type": "act", "action": "draw", "seen": 0})
    errors = [r for r in replies if r["type"] == "error"]
    assert [e["code"] for e in errors] == ["not-a-seat"]
    assert errors[0]["version"] == t.mirrors["w"].version == 0


# -- sessions: an action's text naming a card the others may not see ---------------------------

_BURY = "burygame-2026-12-03"


@pytest.fixture
def burygame() -> Iterator[str]:
    """The core's test draw game with a face-down discard pile and no discard event: the text
    ``discard XY`` names a card only its player knows."""
    import attrs

    from cardcore import CardDiscarded
    from tests.plugins import drawgame

    class BuryLogic(drawgame.DrawLogic):
        def __init__(self, ruleset: Any) -> None:
            super().__init__(ruleset)

            def layout(n: int) -> Layout:
                specs = [ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.NOBODY)]
                specs += [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(n)]
                return Layout.of(specs)

            self._layouts = {n: layout(n) for n in self._layouts}

        def legal_actions(self, state: Any, seat: int) -> Any:
            legal = super().legal_actions(state, seat)
            return tuple(a for a in legal if not isinstance(a, drawgame.Take))

        def apply(self, state: Any, action: Any, emit: Any) -> None:
            def quiet(event: Any) -> None:
                if not isinstance(event, CardDiscarded):
                    emit(event)

            super().apply(state, action, None if emit is None else quiet)

    @hookimpl
    def create_logic(ruleset: Any) -> BuryLogic:
        return BuryLogic(ruleset)

    module = types.ModuleType(_BURY)
    module.GAME = attrs.evolve(drawgame.GAME, name=_BURY, summary="discards lie face down")  # type: ignore[attr-defined]
    module.create_logic = create_logic  # type: ignore[attr-defined]
    module.card_points = drawgame.card_points  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", _BURY, module)
    try:
        yield _BURY
    finally:
        cardcore.unregister("cardcore.games", _BURY)


def test_an_action_text_naming_a_hidden_card_reaches_its_player_only(burygame: str) -> None:
    """Mutants session/_flow.py: ``may_show`` skipped for the seats' updates, or for the
    spectators' (``discard XY`` would tell the others the card buried face down)."""
    from tests.session.kit import table

    t = table(burygame, spectator_delay=0)
    game = t.session.game
    assert game is not None
    actor = game.to_act[0]
    me, other = "ab"[actor], "ab"[1 - actor]
    t.act(me, "draw", 0.5)
    text = str(game.legal_actions(actor)[0])
    card = text.split()[1]
    assert text.startswith("discard ") and not t.errors(t.act(me, text, 0.5))
    assert card not in str(game.view(1 - actor)) and card not in str(game.view(None))
    updates = {
        o.conn: o.message["action"]["text"]
        for o in t.outbound
        if o.message["type"] == "update" and o.message["version"] == game.version
    }
    assert updates == {me: text, other: None, "w": None}
    # the welcomes hold the session id and the seats' tokens: random text, which may spell the
    # card by chance (about 1 run in 50); every other field is checked
    random_ids = ("session", "token")
    said = {
        o.text: json.dumps({k: v for k, v in o.message.items() if k not in random_ids})
        for o in t.outbound
        if o.conn != me
    }
    assert not [text for text, checked in said.items() if card in checked]


def test_an_action_text_is_shown_only_when_every_card_it_names_is_known() -> None:
    """Mutant session/patch.py may_show: ``all`` -> ``any`` (a text naming one known card and
    one hidden card would be shown)."""
    from cardcore.session.patch import may_show

    old = {"zones": [{"cards": ["3H", None]}]}
    assert may_show("swap 3H", old, old)
    assert not may_show("swap 3H 4S", old, old)
    assert not may_show("swap 4S 3H", old, old, [{"event": "card-moved", "card": None}])
    assert may_show("swap 4S 3H", old, old, [{"event": "card-moved", "card": "4S"}])
