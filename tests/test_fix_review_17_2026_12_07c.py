"""Adversarial review of d1d4863a: Golf's ``public`` view field and its use in samples, the
event bus's ``wants_game_events`` for a GameStarted-only subscription, and the doc sentences
that commit added (events.rst, games/golf.rst, plugin-guide/game.rst).
"""

from __future__ import annotations

import json
import random
import types
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import (
    ActionApplied,
    CardcoreError,
    CardDrawn,
    CardsDealt,
    Event,
    GameEnded,
    GameStarted,
    PaymentsMade,
    RuleInfo,
)
from cardcore.search import sample_position, view_config

SEATS2 = (0, 1, None)


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _sample_game(view: dict[str, Any], seed: int) -> cardcore.Game:
    config = view_config(view)
    rng = random.Random(seed)
    return cardcore.new_game(
        config.game,
        config.players,
        rules=config.rules,
        without=config.without,
        options=config.options,
        position=sample_position(view, rng),
        seed=rng.getrandbits(32),
    )


def _step(game: cardcore.Game, rng: random.Random, *, take: bool = True) -> None:
    """One random legal action, taking the discard when it may (so GOLF4's case arises)."""
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    texts = [str(a) for a in legal]
    if take and "take" in texts and rng.random() < 0.6:
        game.act(seat, "take")
        return
    pick = [a for a in legal if str(a) != "knock"] or list(legal)
    if "knock" in texts and rng.random() < 0.05:
        game.act(seat, "knock")
        return
    game.apply(pick[rng.randrange(len(pick))])


def _known_to_all(views: dict[Any, dict[str, Any]]) -> list[list[int]]:
    """Derived from the grids alone: positions every seat and a spectator see a card at, in
    the face-down layouts (4, 4h); none in a face-up one, whose shown cards are all known."""
    grids = [v["table"]["grids"] for v in views.values()]
    out: list[list[int]] = []
    for owner in range(len(grids[0])):
        if next(iter(views.values()))["table"]["layout"] not in ("4", "4h"):
            out.append([])
            continue
        size = len(grids[0][owner])
        out.append([p for p in range(size) if all(g[owner][p] not in (None, "--") for g in grids)])
    return out


CONFIGS = [
    ("6", (), 1),
    ("6", ("golf.remove-columns",), 2),
    ("8", ("golf.remove-columns",), 3),
    ("10", (), 4),
    ("9", ("golf.remove-triples",), 0),
    ("4", (), 5),
    ("4", ("golf.peek-nearest",), 6),
    ("4h", (), 7),
]


# -- 1. the public field ------------------------------------------------------------------------


@pytest.mark.parametrize(("layout", "rules", "seed"), CONFIGS)
def test_public_is_seat_independent_and_exactly_the_cards_every_grid_shows(
    layout: str, rules: tuple[str, ...], seed: int
) -> None:
    game = cardcore.new_game(
        "golf", 2, rules=rules, options={"layout": layout, "rounds": 2}, seed=seed
    )
    rng = random.Random(seed)
    removed_seen = public_seen = 0
    for _ in range(600):
        views = {s: game.view(s) for s in SEATS2}
        publics = [v["table"]["public"] for v in views.values()]
        assert all(p == publics[0] for p in publics)
        assert publics[0] == _known_to_all(views)
        for owner, positions in enumerate(publics[0]):
            assert positions == sorted(set(positions))
            for s in SEATS2:
                grid = views[s]["table"]["grids"][owner]
                assert all(grid[p] not in (None, "--") for p in positions)
        removed_seen += any("--" in g for g in views[None]["table"]["grids"])
        public_seen += any(publics[0])
        if game.is_over:
            break
        _step(game, rng)
    assert game.is_over
    assert bool(public_seen) == (layout in ("4", "4h"))
    if rules and "remove" in rules[0]:
        assert removed_seen  # the seed makes some positions removed


def _after_take(layout: str, taker: int = 0, seed: int = 3) -> cardcore.Game:
    game = cardcore.new_game("golf", 2, options={"layout": layout, "rounds": 1}, seed=seed)
    rng = random.Random(1)
    for _ in range(80):
        seat = game.to_act[0]
        legal = [str(a) for a in game.legal_actions(seat)]
        if seat == taker and "take" in legal:
            game.act(seat, "take")
            game.act(seat, "replace 0")
            return game
        pick = [a for a in legal if a not in ("knock", "take")] or legal
        game.act(seat, pick[rng.randrange(len(pick))])
    raise AssertionError("no take")


@pytest.mark.parametrize("layout", ["4", "4h"])
def test_public_survives_clone_save_load_replay_position_and_takeback(layout: str) -> None:
    game = _after_take(layout)
    want = {s: game.view(s) for s in SEATS2}
    assert want[0]["table"]["public"][0] == [0]
    assert want[1]["table"]["grids"][0][0] == want[0]["table"]["grids"][0][0]
    copies = [
        game.clone(),
        cardcore.load(game.save()),
        cardcore.replay(game.record()),
    ]
    for copy in copies:
        for s in SEATS2:
            assert copy.view(s)["table"] == want[s]["table"]
    pos = cardcore.new_game(
        "golf", 2, options={"layout": layout, "rounds": 1}, position=game.position()
    )
    for s in SEATS2:
        assert pos.view(s)["table"]["public"] == want[s]["table"]["public"]


def _full_deck(seed: int) -> list[str]:
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    deck = [r + s for s in "CDHS" for r in ranks]
    random.Random(seed).shuffle(deck)
    return deck


@pytest.mark.parametrize("layout", ["6", "9", "4", "4h"])
def test_twin_games_differing_in_hidden_cards_give_equal_views_and_observations(
    layout: str,
) -> None:
    pytest.importorskip("numpy")
    from cardcore.rl import observe

    deck = _full_deck(11)
    twin = list(deck)
    twin[-1], twin[-2] = twin[-2], twin[-1]  # the stock's bottom: nobody sees it for a while
    a = cardcore.new_game("golf", 2, options={"layout": layout, "rounds": 1}, deck=deck)
    b = cardcore.new_game("golf", 2, options={"layout": layout, "rounds": 1}, deck=twin)
    assert a.position() != b.position()
    rng = random.Random(5)
    for _ in range(14):
        for s in SEATS2:
            assert a.view(s) == b.view(s)
        for s in (0, 1):
            oa, ob = observe(a, s), observe(b, s)
            assert all((oa[k] == ob[k]).all() for k in oa)
        if a.is_over:
            break
        seat = a.to_act[0]
        legal = [str(x) for x in a.legal_actions(seat)]
        text = (
            "take" if "take" in legal and rng.random() < 0.6 else legal[rng.randrange(len(legal))]
        )
        if text == "knock":
            text = legal[0]
        a.act(seat, text)
        b.act(seat, text)


def _session_messages(deck: list[str], texts: list[tuple[int, str]]) -> dict[str, list[Any]]:
    from cardcore.session import Session

    session = Session.create("golf", ["A", "B"], now=0.0, deck=deck, options={"layout": "4"})
    out = []
    out += session.handle("a", '{"type": "join", "seat": 0}', now=1.0)
    out += session.handle("b", '{"type": "join", "seat": 1}', now=2.0)
    out += session.handle("w", '{"type": "watch"}', now=2.5)
    for i, (seat, text) in enumerate(texts):
        conn = "ab"[seat]
        msg = json.dumps({"type": "act", "action": text, "seen": i})
        got = session.handle(conn, msg, now=3.0 + i)
        assert all(o.message["type"] != "error" for o in got), got
        out += got
    kept: dict[str, list[Any]] = {"a": [], "b": [], "w": []}
    for o in out:
        m = o.message
        if m["type"] in ("view", "update"):
            kept[o.conn].append({k: m.get(k) for k in ("type", "version", "view", "events")})
    return kept


def test_session_messages_of_twin_games_are_equal_and_carry_public() -> None:
    deck = _full_deck(13)
    twin = list(deck)
    twin[-1], twin[-2] = twin[-2], twin[-1]
    # a script legal in both twins (the same visible cards): found on a plain game
    probe = cardcore.new_game("golf", 2, options={"layout": "4"}, deck=deck)
    script: list[tuple[int, str]] = []
    rng = random.Random(2)
    for _ in range(12):
        seat = probe.to_act[0]
        legal = [str(x) for x in probe.legal_actions(seat)]
        text = "take" if "take" in legal else legal[rng.randrange(len(legal))]
        if text == "knock":
            text = legal[0]
        probe.act(seat, text)
        script.append((seat, text))
    assert any(probe.view(None)["table"]["public"])
    a = _session_messages(deck, script)
    b = _session_messages(twin, script)
    assert a == b
    last = [m for m in a["w"] if m["view"] is not None]
    assert last  # the spectator's whole view holds the field
    assert "public" in last[0]["view"]["table"]


# -- 2. samples ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("layout", "rules", "seed"), CONFIGS)
def test_samples_reproduce_the_view_in_every_phase(
    layout: str, rules: tuple[str, ...], seed: int
) -> None:
    game = cardcore.new_game(
        "golf", 2, rules=rules, options={"layout": layout, "rounds": 2}, seed=seed
    )
    rng = random.Random(seed)
    phases = set()
    for step in range(400):
        if game.is_over:
            break
        if step % 4 == 0 or game.view(None)["table"]["phase"] != "draw":
            for s in SEATS2:
                view = _json(game.view(s))
                phases.add(view["table"]["phase"])
                sample = _sample_game(view, step)
                got = _json(sample.view(s))
                assert got["table"] == view["table"]
                assert got["zones"] == view["zones"]
                for other in (0, 1):
                    assert sample.view(other)["table"]["public"] == view["table"]["public"]
        _step(game, rng)
    assert {"draw", "place"} <= phases


@pytest.mark.parametrize("layout", ["4", "4h"])
def test_sample_keeps_taken_discard_public_and_view_without_field_still_samples(
    layout: str,
) -> None:
    game = _after_take(layout)
    view = _json(game.view(0))
    for seed in range(4):
        sample = _sample_game(view, seed)
        assert sample.view(0)["table"] == view["table"]
        assert sample.view(1)["table"]["grids"][0][0] == view["table"]["grids"][0][0]
    old = _json(game.view(0))
    del old["table"]["public"]
    sample = _sample_game(old, 1)
    got = _json(sample.view(0))
    assert got["zones"] == old["zones"]
    assert {k: v for k, v in got["table"].items() if k != "public"} == old["table"]


HOSTILE = [
    "x",
    {"0": [0]},
    [[0], [], []],
    [[0]],
    [[True], []],
    [[2**70], []],
    [[-1], []],
    [[0.0], []],
    [["0"], []],
    [[[0]], []],
    [[None], []],
    [[0], [0]],  # another seat's hidden card
    "own-hidden",  # the seat's own hidden card: filled in below
    [(0,), []],
]


@pytest.mark.parametrize("bad", HOSTILE, ids=[str(i) for i in range(len(HOSTILE))])
def test_malformed_public_is_a_clear_cardcore_error(bad: Any) -> None:
    game = _after_take("4")
    view = _json(game.view(0))
    grid = view["table"]["grids"][0]
    if bad == "own-hidden":
        hidden = [p for p, c in enumerate(grid) if c is None]
        assert hidden
        bad = [[hidden[0]], []]
    view["table"]["public"] = bad
    with pytest.raises(CardcoreError, match="public"):
        sample_position(view, random.Random(1))


def test_public_naming_a_removed_position_is_refused() -> None:
    game = cardcore.new_game(
        "golf", 2, rules=("golf.remove-columns",), options={"layout": "6", "rounds": 2}, seed=2
    )
    rng = random.Random(2)
    for _ in range(400):
        table = game.view(0)["table"]
        removed = [
            (o, p) for o, g in enumerate(table["grids"]) for p, c in enumerate(g) if c == "--"
        ]
        if removed and not game.is_over:
            break
        _step(game, rng)
    assert removed
    view = _json(game.view(0))
    owner, pos = removed[0]
    view["table"]["public"][owner] = [*view["table"]["public"][owner], pos]
    with pytest.raises(CardcoreError, match="public"):
        sample_position(view, random.Random(1))


def test_duplicate_public_positions_are_refused_or_reproduced() -> None:
    game = _after_take("4")
    view = _json(game.view(0))
    view["table"]["public"] = [[0, 0], []]
    try:
        sample = _sample_game(view, 1)
    except CardcoreError:
        return
    assert _json(sample.view(0))["table"] == view["table"]


def test_public_naming_a_face_up_card_is_refused_or_reproduced() -> None:
    game = cardcore.new_game("golf", 2, seed=3)
    for text in ("flip 0", "flip 3", "flip 1", "flip 4"):
        game.act(game.to_act[0], text)
    view = _json(game.view(0))
    assert view["table"]["public"] == [[], []]  # a face-up layout: the grids say it all
    for bad in ([[0], []], [[0, 3], [1, 4]]):
        view["table"]["public"] = bad
        try:
            sample = _sample_game(view, 1)
        except CardcoreError:
            continue
        assert _json(sample.view(0))["table"] == view["table"]


def test_public_omitting_a_card_of_anothers_face_down_layout_is_refused() -> None:
    game = _after_take("4", taker=1)
    view = _json(game.view(0))
    assert view["table"]["public"][1] == [0]
    view["table"]["public"] = [view["table"]["public"][0], []]
    with pytest.raises(CardcoreError, match="not a golf view: 'public'"):
        sample_position(view, random.Random(1))


# -- 3. the bus ---------------------------------------------------------------------------------


def _drive(game: cardcore.Game, rng: random.Random, n: int, per_step: Any = None) -> None:
    for i in range(n):
        if game.is_over:
            return
        legal = [a for s in range(len(game.players)) for a in game.legal_actions(s)]
        if not legal:
            return
        legal = [a for a in legal if str(a) != "drop"] or legal  # Tonk: play on a while
        if per_step is not None:
            per_step(i)
        game.apply(legal[rng.randrange(len(legal))])


GAMES = [("golf", 2, 1), ("tonk", 3, 4), ("spit", 2, 5), ("speed", 2, 5)]


@pytest.mark.parametrize(("name", "players", "seed"), GAMES)
def test_game_started_plus_a_game_type_gets_what_an_event_subscriber_gets(
    name: str, players: int, seed: int
) -> None:
    ref: list[Event] = []
    g = cardcore.new_game(name, players, seed=seed, subscribers=[(Event, ref.append)])
    _drive(g, random.Random(1), 150)
    dealt = [e for e in ref if isinstance(e, CardsDealt)]
    assert dealt
    a: list[Event] = []
    b: list[Event] = []
    g2 = cardcore.new_game(
        name, players, seed=seed, subscribers=[(GameStarted, a.append), (CardsDealt, b.append)]
    )
    assert g2.events.wants_game_events
    _drive(g2, random.Random(1), 150)
    assert a == [e for e in ref if isinstance(e, GameStarted)] and len(a) == 1
    assert b == dealt


@pytest.mark.parametrize(("name", "players", "seed"), GAMES)
def test_subscribe_unsubscribe_sequences_get_each_action_s_events(
    name: str, players: int, seed: int
) -> None:
    # reference: every action's batch, from an Event subscriber
    ref: list[Event] = []
    marks: list[int] = []
    g = cardcore.new_game(name, players, seed=seed, subscribers=[(Event, ref.append)])
    _drive(g, random.Random(1), 60, lambda i: marks.append(len(ref)))
    marks.append(len(ref))
    batches = [ref[marks[i] : marks[i + 1]] for i in range(len(marks) - 1)]
    game_types = [type(e) for e in ref if type(e) not in (GameStarted, ActionApplied, GameEnded)]
    kind = max(sorted(set(game_types), key=lambda t: t.__name__), key=game_types.count)

    got: dict[str, list[Event]] = {"gs": [], "aa": [], "k": [], "ev": []}
    subs: dict[str, Any] = {}
    plan = {  # step -> (subscribe?, key, type)
        1: (True, "aa", ActionApplied),
        3: (True, "k", kind),
        6: (False, "aa", None),
        8: (True, "ev", Event),
        10: (False, "k", None),
        12: (False, "ev", None),
        14: (True, "k", kind),
    }
    active: set[str] = {"gs"}
    expected: dict[str, list[Event]] = {k: [] for k in got}
    types_of = {"aa": ActionApplied, "k": kind, "ev": Event, "gs": GameStarted}
    g2: list[cardcore.Game] = []

    def per_step(i: int) -> None:
        if i in plan:
            on, key, typ = plan[i]
            if on:
                subs[key] = g2[0].events.subscribe(typ, got[key].append)
                active.add(key)
            else:
                g2[0].events.unsubscribe(subs.pop(key))
                active.discard(key)
        if i < len(batches):
            for key in active:
                expected[key] += [e for e in batches[i] if isinstance(e, types_of[key])]

    g2.append(
        cardcore.new_game(name, players, seed=seed, subscribers=[(GameStarted, got["gs"].append)])
    )
    expected["gs"] = [e for e in ref if isinstance(e, GameStarted)]
    assert not g2[0].events.wants_game_events
    _drive(g2[0], random.Random(1), 60, per_step)
    assert got == expected
    assert got["k"]


@pytest.mark.parametrize(("name", "players", "seed"), GAMES)
def test_seat_redacted_subscriptions_with_game_started(name: str, players: int, seed: int) -> None:
    ref: list[Event] = []
    g = cardcore.new_game(name, players, seed=seed, subscribers=[(Event, ref.append, 1)])
    _drive(g, random.Random(2), 80)
    a: list[Event] = []
    b: list[Event] = []
    g2 = cardcore.new_game(
        name, players, seed=seed, subscribers=[(GameStarted, a.append, 1), (Event, b.append, 1)]
    )
    _drive(g2, random.Random(2), 80)
    assert b == ref
    assert a == [e for e in ref if isinstance(e, GameStarted)]
    c: list[Event] = []
    g3 = cardcore.new_game(
        name,
        players,
        seed=seed,
        subscribers=[(GameStarted, a.append, 0), (CardsDealt, c.append, 1)],
    )
    _drive(g3, random.Random(2), 80)
    assert c == [e for e in ref if isinstance(e, CardsDealt)]


def test_clone_subscribed_to_game_started_then_a_game_type_later() -> None:
    base = cardcore.new_game("golf", 2, seed=4)
    _drive(base, random.Random(3), 6)
    ref_clone = base.clone()
    ref: list[Event] = []
    ref_clone.events.subscribe(Event, ref.append)
    _drive(ref_clone, random.Random(9), 30)
    clone = base.clone()
    gs: list[Event] = []
    drawn: list[Event] = []
    clone.events.subscribe(GameStarted, gs.append)
    assert not clone.events.wants_game_events
    clone.events.subscribe(CardDrawn, drawn.append)
    assert clone.events.wants_game_events
    _drive(clone, random.Random(9), 30)
    assert gs == []
    assert drawn == [e for e in ref if isinstance(e, CardDrawn)] and drawn


@pytest.fixture
def observer() -> Iterator[tuple[str, list[Event]]]:
    name = "golf.review17-observer"
    seen: list[Event] = []
    module = types.ModuleType("review17_observer")
    module.RULE = RuleInfo(id="GOLF-R17-1", name=name, game="golf", summary="observes")  # type: ignore[attr-defined]

    @cardcore.hookimpl
    def on_event(event: Any) -> None:
        seen.append(event)

    module.on_event = on_event  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", name, module)
    try:
        yield name, seen
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_observer_with_game_started_subscription_gets_every_event(
    observer: tuple[str, list[Event]],
) -> None:
    name, seen = observer
    ref: list[Event] = []
    g = cardcore.new_game("golf", 2, seed=6, subscribers=[(Event, ref.append)])
    _drive(g, random.Random(4), 40)
    gs: list[Event] = []
    g2 = cardcore.new_game("golf", 2, rules=[name], seed=6, subscribers=[(GameStarted, gs.append)])
    assert g2.events.wants_game_events
    _drive(g2, random.Random(4), 40)
    assert [type(e) for e in seen] == [type(e) for e in ref]
    assert [e for e in seen if not isinstance(e, GameStarted | ActionApplied)] == [
        e for e in ref if not isinstance(e, GameStarted | ActionApplied)
    ]
    assert gs == [e for e in ref if isinstance(e, GameStarted)]


def test_game_started_only_game_then_event_subscription_gets_every_later_batch() -> None:
    """events.rst: the game's own events are built while anything subscribes to another type
    than the core's three; a GameStarted-only game subscribed to Event later loses nothing."""
    started: list[Event] = []
    g = cardcore.new_game("golf", 2, seed=3, subscribers=[(GameStarted, started.append)])
    assert len(started) == 1 and not g.events.wants_game_events
    got: list[Event] = []
    g.events.subscribe(Event, got.append)
    ref: list[Event] = []
    r = cardcore.new_game("golf", 2, seed=3, subscribers=[(Event, ref.append)])
    deal = len(ref)
    _drive(g, random.Random(1), 25)
    _drive(r, random.Random(1), 25)
    assert got == ref[deal:] and got


def test_flags_for_game_started_and_a_type_golf_never_publishes() -> None:
    g = cardcore.new_game("golf", 2, seed=3)
    bus = g.events
    s1 = bus.subscribe(GameStarted, lambda e: None)
    assert bus.active and not bus.wants_game_events
    assert not bus.wants_applied and not bus.wants_ended
    got: list[Event] = []
    s2 = bus.subscribe(PaymentsMade, got.append)
    assert bus.wants_game_events  # one flag: costs as much as Event
    _drive(g, random.Random(1), 200)
    assert got == []  # only the handlers of a type are called with it
    bus.unsubscribe(s2)
    assert not bus.wants_game_events
    bus.unsubscribe(s1)
    assert not bus.active


# -- 4. the plugin guide's new sentences ---------------------------------------------------------


def test_default_parser_refusal_names_only_action_types_verbs() -> None:
    game = cardcore.new_game("gofish", 3, seed=3)
    assert len(game.logic.action_types) == 1  # Ask, read by the default parser as "ask"
    with pytest.raises(cardcore.NotationError) as info:
        game.act(game.to_act[0], "frobnicate 3")
    text = str(info.value)
    assert "(expected one of: ask)" in text


def test_turn_based_stale_seen_for_another_seats_turn_is_core_turn_1() -> None:
    game = cardcore.new_game("golf", 2, seed=3)
    game.act(0, "flip 0")
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(1, "flip 0", seen=0)  # stale, and not seat 1's turn
    assert info.value.rule_id == "CORE-TURN-1"
    assert not isinstance(info.value, cardcore.StaleActionError)


def test_documented_public_submodules_import() -> None:
    import importlib

    for mod in ("dealing", "turns", "notation", "positions", "testing", "search"):
        assert importlib.import_module(f"cardcore.{mod}")
