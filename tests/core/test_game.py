from __future__ import annotations

import threading
from collections import Counter

import pytest
from tests.plugins.drawgame import Draw

import cardcore
import cardcore.testing
from cardcore import (
    SPECTATOR,
    ActionApplied,
    CardDrawn,
    CardMoved,
    CardRevealed,
    CardsDealt,
    Event,
    GameEnded,
    GameStarted,
    PluginError,
    RandomAgent,
    Resign,
)


def test_view_envelope(make_game) -> None:
    game = make_game("drawgame", 2)
    view = game.view(0)
    assert view["format"] == cardcore.VIEW_FORMAT
    assert set(view) == {
        "format", "game", "version", "seat", "players", "to_act", "is_over", "result", "rules",
        "options", "legal", "zones", "table",
    }  # fmt: skip
    assert [z["name"] for z in view["zones"]] == ["stock", "discard", "hand.0", "hand.1"]
    assert view["table"] == {"phase": "draw", "round": 1, "totals": [0, 0]}
    assert game.view_schema()["fields"][0]["name"] == "phase"
    assert view["game"] == "drawgame" and view["seat"] == 0 and view["version"] == 0
    assert "seed" not in repr(view).lower()
    assert game.view(None)["legal"] == []


def test_legal_actions_cached_and_interned(make_game) -> None:
    game = make_game("drawgame", 2)
    seat = game.to_act[0]
    assert game.legal_actions(seat) is game.legal_actions(seat)
    assert [str(a) for a in game.legal_actions(seat)] == ["draw", "take"]
    assert game.legal_actions(1 - seat) == ()


def test_events_full_and_redacted(make_game) -> None:
    game = make_game("drawgame", 2)
    seat = game.to_act[0]
    full: list[Event] = []
    mine: list[Event] = []
    theirs: list[Event] = []
    public: list[Event] = []
    game.events.subscribe(CardDrawn, full.append)
    game.events.subscribe(CardDrawn, mine.append, seat=seat)
    game.events.subscribe(CardDrawn, theirs.append, seat=1 - seat)
    game.events.subscribe(CardDrawn, public.append, seat=SPECTATOR)
    game.act(seat, "draw")
    zones = game.state.zones
    drawn = zones.cards[zones.id(f"hand.{seat}")][-1]
    assert full[0].card == drawn and mine[0].card == drawn  # type: ignore[attr-defined]
    assert theirs[0].card is None and public[0].card is None  # type: ignore[attr-defined]
    assert theirs[0].to_json()["card"] is None


def test_events_in_version_order_and_handler_may_apply(make_game) -> None:
    game = make_game("drawgame", 2)
    seen: list[int] = []

    def on_applied(event: ActionApplied) -> None:
        seen.append(event.version)
        if event.version == 1:  # apply from inside a handler: queued, no deadlock
            seat = game.to_act[0]
            game.apply(game.legal_actions(seat)[0])

    game.events.subscribe(ActionApplied, on_applied)
    game.act(game.to_act[0], "draw")
    assert seen == [1, 2] and game.version == 2


def test_unsubscribe_and_all_events(make_game) -> None:
    game = make_game("drawgame", 2)
    got: list[Event] = []
    sub = game.events.subscribe(Event, got.append)
    game.act(game.to_act[0], "draw")
    n = len(got)
    assert n >= 2
    game.events.unsubscribe(sub)
    assert not game.events.active
    seat = game.to_act[0]
    game.apply(game.legal_actions(seat)[0])
    assert len(got) == n
    with pytest.raises(TypeError):
        game.events.subscribe(int, got.append)  # type: ignore[arg-type]


def test_game_ended_event(make_game) -> None:
    game = make_game("drawgame", 2)
    ended: list[GameEnded] = []
    game.events.subscribe(GameEnded, ended.append)
    game.apply(Resign(1))
    assert ended and ended[0].winners == (0,) and ended[0].reason == "resigned"


def test_clone_independent_and_without_subscribers(make_game) -> None:
    game = make_game("drawgame", 2)
    got: list[Event] = []
    game.events.subscribe(Event, got.append)
    copy = game.clone()
    assert not copy.events.active
    seat = copy.to_act[0]
    copy.act(seat, "draw")
    assert game.version == 0 and copy.version == 1 and got == []
    assert game.state.zones.count(0) == copy.state.zones.count(0) + 1


def test_determinize_keeps_what_seat_knows(make_game) -> None:
    game = make_game("drawgame", 3)
    twin = game.determinize(0, seed=5)
    assert twin.view(0)["table"] == game.view(0)["table"]
    assert Counter(twin.state.zones.all_cards()) == Counter(game.state.zones.all_cards())
    assert twin.state.zones.cards != game.state.zones.cards
    with pytest.raises(cardcore.CardcoreError):
        twin.record()


def test_plugin_error_restores_game(make_game) -> None:
    game = make_game("drawgame", 2, rules=["drawgame.boom"], deck="AS 2S 3S 4S 5S 6S 7S")
    agents = [RandomAgent(1), RandomAgent(2)]
    with pytest.raises(PluginError) as info:
        cardcore.play(game, agents)
    assert info.value.plugin == "drawgame.boom"
    version = game.version
    before = game.state.snapshot()
    reference = cardcore.replay(game.record())
    assert reference.state.snapshot() == before and reference.version == version
    assert not game.is_over


def test_threads_apply_atomically(make_game) -> None:
    game = make_game("racegame", 2)
    deck = Counter(game.logic.deck(2, game.options))
    errors: list[BaseException] = []

    def worker(seat: int) -> None:
        agent = RandomAgent(seat)
        for _ in range(200):
            if game.is_over:
                return
            legal = game.legal_actions(seat)
            if not legal:
                continue
            try:
                game.apply(agent.choose({}, legal))
            except cardcore.IllegalActionError:
                pass
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

    threads = [threading.Thread(target=worker, args=(s,)) for s in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert Counter(game.state.zones.all_cards()) == deck
    again = cardcore.replay(game.record())
    assert again.state.snapshot() == game.state.snapshot()


def test_record_holds_rules_and_versions(make_game) -> None:
    game = make_game("drawgame", 2, rules=["drawgame.kings-free"])
    game.act(game.to_act[0], "draw")
    rec = game.record()
    assert rec["rules"] == [{"name": "drawgame.kings-free", "id": "DRAW-VAR-1", "version": "0.1.0"}]
    assert rec["actions"][0][1] == "draw" and rec["game"] == "drawgame"


def test_new_game_deck_partial_and_bad(make_game) -> None:
    game = make_game("drawgame", 2, deck="KH QH")
    zones = game.state.zones
    assert str(zones.cards[zones.id("hand.0")][0]) == "KH"
    assert str(zones.cards[zones.id("hand.1")][0]) == "QH"
    with pytest.raises(cardcore.OptionError, match="deck="):
        make_game("drawgame", 2, deck="KH KH")
    with pytest.raises(cardcore.NotationError):
        make_game("drawgame", 2, deck="KH XX")


def test_new_game_bad_arguments() -> None:
    with pytest.raises(cardcore.OptionError, match="no option 'layout'"):
        cardcore.new_game("drawgame", 2, options={"layout": 6})
    with pytest.raises(cardcore.OptionError, match="at most 5"):
        cardcore.new_game("drawgame", 2, options={"rounds": 9})
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game("drawgame", "two")  # type: ignore[arg-type]
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game("drawgame", 2, seed="x")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cardcore.new_game("drawgame", 2, rules="drawgame.kings-free")


def test_seed_none_draws_a_seed() -> None:
    a = cardcore.new_game("drawgame", 2)
    b = cardcore.new_game("drawgame", 2)
    assert a.seed != b.seed
    assert cardcore.replay(a.record()).state.snapshot() == a.state.snapshot()


def test_draw_action_repr_and_seat(make_game) -> None:
    game = make_game("drawgame", 2)
    seat = game.to_act[0]
    action = game.act(seat, "draw")
    assert action == Draw(seat) and str(action) == "draw"


def test_game_events_not_built_for_action_log_only(make_game, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    game = make_game("drawgame", 2)
    built: list[object] = []
    original = game.logic.apply

    def spy(state, action, emit):  # type: ignore[no-untyped-def]
        built.append(emit)
        return original(state, action, emit)

    monkeypatch.setattr(game, "_logic_apply", spy)  # the hot path
    monkeypatch.setattr(game.logic, "apply", spy)  # the validated path
    log: list[ActionApplied] = []
    game.events.subscribe(ActionApplied, log.append)
    game.act(game.to_act[0], "draw")
    assert built == [None] and [e.action for e in log] == ["draw"]
    game.events.subscribe(CardDrawn, log.append)
    seat = game.to_act[0]
    game.apply(game.legal_actions(seat)[0])
    assert built[-1] is not None


def test_clone_shares_record_until_either_side_acts(make_game) -> None:
    game = make_game("drawgame", 2)
    seat = game.to_act[0]
    game.act(seat, "draw")
    copy = game.clone()
    game.apply(game.legal_actions(seat)[0])
    assert len(game.record()["actions"]) == 2 and len(copy.record()["actions"]) == 1
    copy.apply(copy.legal_actions(seat)[-1])
    assert game.record()["actions"][1] != copy.record()["actions"][1]
    assert cardcore.replay(copy.record()).state.snapshot() == copy.state.snapshot()
    assert cardcore.replay(game.record()).state.snapshot() == game.state.snapshot()


def test_subscribers_given_to_new_game_receive_the_first_deal() -> None:
    everything: list[Event] = []
    seat0: list[Event] = []
    game = cardcore.new_game(
        "drawgame",
        2,
        seed=3,
        subscribers=[(Event, everything.append), (CardRevealed, seat0.append, 0)],
    )
    assert [type(e) for e in everything] == [GameStarted, CardsDealt, CardRevealed]
    assert everything[0] == GameStarted("drawgame", ("Player 1", "Player 2"))
    assert everything[1] == CardsDealt((3, 3))
    top = game.state.zones.cards[game.state.zones.id("discard")][-1]
    assert everything[2].card == top and seat0 == [everything[2]]
    game.act(game.to_act[0], "draw")
    assert isinstance(everything[-1], CardDrawn) and isinstance(everything[-2], ActionApplied)


def test_subscribers_of_a_real_time_game_see_its_automatic_first_moves() -> None:
    got: list[Event] = []
    deck = "2S 2H 3H 3D 4D 4C 5C 5S 6S 6H 9C 10C 7C"  # both hands 2-6; centre 9C, then 10C, 7C
    game = cardcore.new_game("racegame", 2, deck=deck, seed=1, subscribers=[(Event, got.append)])
    assert [e.slug for e in got] == ["game-started", "cards-dealt", "card-moved", "card-moved"]
    assert got[-1] == CardMoved(None, "stock", "centre", cardcore.Card.parse("7C"))
    assert game.state.zones.top(game.state.zones.id("centre")) == cardcore.Card.parse("7C")


def test_new_game_subscribers_only_for_the_action_log_build_no_game_events() -> None:
    log: list[ActionApplied] = []
    game = cardcore.new_game("drawgame", 2, seed=3, subscribers=[(ActionApplied, log.append)])
    assert not game.events.wants_game_events
    game.act(game.to_act[0], "draw")
    assert [e.action for e in log] == ["draw"]
    with pytest.raises(TypeError, match="subscribers take"):
        cardcore.new_game("drawgame", 2, subscribers=[Event])  # type: ignore[list-item]


def test_legal_actions_and_history_of_a_bad_seat_raise(make_game) -> None:
    game = make_game("drawgame", 2)
    for seat in (-1, 2, True, "0", None, 1.0):
        with pytest.raises(cardcore.IllegalActionError, match="CORE-SEAT-1"):
            game.legal_actions(seat)  # type: ignore[arg-type]
    for seat in (-1, 2, True):
        with pytest.raises(cardcore.IllegalActionError, match="CORE-SEAT-1"):
            game.history(seat)
    with pytest.raises(cardcore.IllegalActionError):
        game.history(0, since=-1)
    assert game.legal_actions(1 - game.to_act[0]) == ()  # a real seat that may not act: empty


def test_view_schema_declares_zones_and_fields(make_game) -> None:
    game = make_game("drawgame", 3)
    schema = game.view_schema()
    assert schema["game"] == "drawgame"
    assert [z["name"] for z in schema["zones"]] == [
        "stock",
        "discard",
        "hand.0",
        "hand.1",
        "hand.2",
    ]
    assert schema["zones"][2] == {"name": "hand.0", "owner": 0, "visibility": "owner"}
    fields = {f["name"]: f for f in schema["fields"]}
    assert set(fields) == set(game.view(0)["table"])
    assert fields["totals"]["kind"] == "per-seat" and fields["totals"]["of"] == "int"
    for seat in (0, 1, 2, None):
        cardcore.testing.assert_view_structure(game, seat)


def test_history_keeps_past_rounds_out_of_the_view(make_game) -> None:
    game = make_game("drawgame", 2, options={"rounds": 3})
    agents = [RandomAgent(1), RandomAgent(2)]
    sizes = []
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(agents[seat].choose({}, game.legal_actions(seat)))
        sizes.append(len(str(game.view(0))))
    past = game.history(0)
    assert [h["round"] for h in past] == [1, 2, 3]
    assert game.history(0, since=2) == past[2:] and game.history(None, since=5) == []
    assert sum(h["scores"][0] for h in past) == game.view(0)["table"]["totals"][0]
    assert max(sizes) < 2 * min(sizes)  # a view does not grow with the rounds played
