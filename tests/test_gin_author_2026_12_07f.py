"""A new plugin author's Gin Rummy (tests/gin_game_2026_12_07f.py), used as an author and a
researcher would: views, events, persistence, the kit, bots, RL, house rules, hostile input."""

from __future__ import annotations

import contextlib
import json
import random
import sys
import types
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

import cardcore
from cardcore import (
    SPECTATOR,
    CardcoreError,
    Event,
    GameState,
    IllegalActionError,
    NotationError,
    PluginError,
    RuleInfo,
    hookimpl,
)
from cardcore.search import deal_view, default_position
from cardcore.testing import check_game, check_positions, configurations

sys.path.insert(0, str(Path(__file__).parent))
import gin_game_2026_12_07f as gin

NAME = gin.NAME

# seat 0: AS 2S 3S | 4H 5H 6H | 7D 8D 9D 10D, draws JD: gin after "knock JD"
# seat 1: KC QH JS 9C 8H 7S 6C 5D 4C 2H: no meld, deadwood 10+10+10+9+8+7+6+5+4+2 = 71
SEAT0 = ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "10D"]
SEAT1 = ["KC", "QH", "JS", "9C", "8H", "7S", "6C", "5D", "4C", "2H"]
UPCARD, NEXT = "3C", "JD"
GIN_DECK = " ".join([c for pair in zip(SEAT0, SEAT1, strict=True) for c in pair] + [UPCARD, NEXT])


def registered(group: str, name: str, module: Any) -> Iterator[None]:
    cardcore.register(group, name, module)
    try:
        yield
    finally:
        cardcore.unregister(group, name)


@pytest.fixture
def game_registered() -> Iterator[None]:
    yield from registered("cardcore.games", NAME, gin.module())


def rule_module(name: str, rule_id: str, **hooks: Any) -> types.ModuleType:
    mod = types.ModuleType(name.replace(".", "_"))
    mod.RULE = RuleInfo(id=rule_id, name=name, game=NAME, summary=name)  # type: ignore[attr-defined]
    for key, fn in hooks.items():
        setattr(mod, key, fn)
    return mod


def snapshot(game: cardcore.Game) -> tuple[Any, ...]:
    return (game.version, game.position(), json.dumps(game.record()), game.to_act)


# --- rules, stacked deck -----------------------------------------------------------------------


def test_gin_deal_1_views_hide_hand_and_stock_show_discard(game_registered: None) -> None:
    game = cardcore.new_game(NAME, 2, deck=GIN_DECK, seed=3)
    mine = game.view(0)["zones"]
    by = {z["name"]: z for z in mine}
    assert sorted(by["hand.0"]["cards"]) == sorted(SEAT0)
    assert by["hand.1"]["cards"] == [None] * 10
    assert by["stock"]["cards"] == [None] * 31
    assert by["discard"]["cards"] == [UPCARD]
    spectator = {z["name"]: z for z in game.view(None)["zones"]}
    assert spectator["hand.0"]["cards"] == [None] * 10 and spectator["discard"]["cards"] == [UPCARD]


def test_gin_score_2_gin_pays_deadwood_plus_25(game_registered: None) -> None:
    game = cardcore.new_game(NAME, 2, deck=GIN_DECK, seed=3)
    game.act(0, "draw")
    assert "knock JD" in game.view(0)["legal"]
    game.act(0, "knock JD")
    assert game.is_over and game.result is not None
    assert game.result.reason == "gin"
    assert game.result.scores == (71 + 25, 0) and game.result.winners == (0,)


def test_gin_discard_2_taken_card_cannot_go_back(game_registered: None) -> None:
    game = cardcore.new_game(NAME, 2, deck=GIN_DECK, seed=3)
    game.act(0, "take")
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="GIN-DISCARD-2"):
        game.act(0, f"discard {UPCARD}")
    assert snapshot(game) == before


def test_gin_draw_1_stock_down_to_two_is_a_draw(game_registered: None) -> None:
    game = cardcore.new_game(NAME, 2, seed=5)
    while not game.is_over:  # never knock: draw and throw the drawn card's neighbour
        seat = game.to_act[0]
        game.act(seat, "draw")
        game.apply(next(a for a in game.legal_actions(seat) if isinstance(a, gin.Discard)))
    assert game.result is not None and game.result.reason == "draw"
    assert len(game.position().split("stock:")[1].split("|")[0].split()) == 2


# --- hidden information in events and history ---------------------------------------------------


def test_per_seat_events_hide_stock_draw_but_show_take(game_registered: None) -> None:
    streams: dict[Any, list[dict[str, Any]]] = {0: [], 1: [], SPECTATOR: []}
    subs = [(Event, streams[s].append, s) for s in streams]
    game = cardcore.new_game(NAME, 2, deck=GIN_DECK, seed=3, subscribers=subs)
    game.act(0, "draw")
    game.act(0, "discard 10D")
    game.act(1, "take")
    drawn = {s: [e.to_json() for e in streams[s] if e.slug == "card-drawn"] for s in streams}  # type: ignore[attr-defined]
    assert (
        drawn[0][0]["card"] == NEXT
        and drawn[1][0]["card"] is None
        and drawn[SPECTATOR][0]["card"] is None
    )
    assert all(
        d[1]["card"] == "10D" for d in drawn.values()
    )  # a take from the discard pile is public


def test_history_is_json_for_each_seat(game_registered: None) -> None:
    game = cardcore.new_game(NAME, 2, deck=GIN_DECK, seed=3)
    game.act(0, "draw")
    game.act(0, "knock JD")
    for seat in (0, 1, None):
        json.dumps(game.history(seat))


# --- persistence, clone -------------------------------------------------------------------------


def played(seed: int, actions: int = 30) -> cardcore.Game:
    game = cardcore.new_game(NAME, 2, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    return game


def test_save_load_replay_record_rebuild_same_game(game_registered: None) -> None:
    game = played(11)
    loaded = cardcore.load(json.dumps(game.save()))
    replayed = cardcore.replay(json.loads(json.dumps(game.record())))
    for other in (loaded, replayed):
        assert other.position() == game.position() and other.version == game.version
        assert all(other.view(s) == game.view(s) for s in (0, 1, None))
    assert game.record()["game"] == NAME


def test_clone_is_independent(game_registered: None) -> None:
    game = played(12, actions=10)
    twin = game.clone()
    before = game.position()
    seat = twin.to_act[0]
    twin.apply(twin.legal_actions(seat)[0])
    assert game.position() == before and twin.version == game.version + 1


# --- the conformance kit ------------------------------------------------------------------------


def test_kit_passes_on_gin(game_registered: None) -> None:
    report = check_game(NAME, players=2, games=2, seed=1)
    assert report.ok and report.leaks == 0 and report.cards_lost == 0 and report.skipped == {}


class LeakyLogic(gin.GinLogic):
    def table(self, state: gin.GinState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        other = 1 if seat == 0 else 0
        out["taken"] = str(state.zones.cards[gin.hand(other)][0])  # the opponent's card
        return out


def test_kit_catches_view_leaking_opponent_hand() -> None:
    mod = gin.module()

    @hookimpl
    def create_logic(ruleset: cardcore.Ruleset) -> gin.GinLogic:
        return LeakyLogic(ruleset)

    mod.create_logic = create_logic  # type: ignore[attr-defined]
    for _ in registered("cardcore.games", NAME, mod):
        report = check_game(NAME, players=2, games=1, seed=1, strict=False, checks={"views"})
        assert not report.ok and report.leaks > 0


# --- bots and RL --------------------------------------------------------------------------------


def test_random_agents_play_whole_games(game_registered: None) -> None:
    reasons = set()
    for seed in range(3):
        game = cardcore.new_game(NAME, 2, seed=seed)
        result = cardcore.play(game, [cardcore.RandomAgent(seed), cardcore.RandomAgent(seed + 9)])
        reasons.add(result.reason)
        assert result.reason in {"gin", "knock", "undercut", "draw"}


def test_ismcts_plays_a_whole_game(game_registered: None) -> None:
    from cardcore.search import ISMCTSAgent

    game = cardcore.new_game(NAME, 2, seed=4)
    bot = ISMCTSAgent(seed=1, iterations=3, max_rollout=6)
    result = cardcore.play(game, [bot, cardcore.RandomAgent(2)])
    assert result.reason in {"gin", "knock", "undercut", "draw"}


def test_rl_aec_env_plays_third_party_game(game_registered: None) -> None:
    rl = pytest.importorskip("cardcore.rl")
    env = rl.aec_env(NAME, 2)
    env.reset(seed=3)
    obs, *_ = env.last()
    # rl.rst: a game without an encoding gets a positional space, index i = i-th legal action
    assert list(obs["action_mask"].nonzero()[0]) == list(
        range(len(env.match.game.view(0)["legal"]))
    )
    assert obs["action_mask"].shape == (gin.GinLogic.max_legal,)
    steps = 0
    while env.agents and steps < 400:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
        else:
            env.step(int(obs["action_mask"].nonzero()[0][0]))
        steps += 1
    assert not env.agents


# --- house rules --------------------------------------------------------------------------------


def test_house_rule_gin_bonus_20_through_game_hookspec(game_registered: None) -> None:
    @hookimpl
    def gin_bonus() -> int:
        return 20

    mod = rule_module(f"{NAME}.bonus20", "GIN-HOUSE-1", gin_bonus=gin_bonus)
    for _ in registered("cardcore.rules", f"{NAME}.bonus20", mod):
        game = cardcore.new_game(NAME, 2, deck=GIN_DECK, seed=3, rules=[f"{NAME}.bonus20"])
        game.act(0, "draw")
        game.act(0, "knock JD")
        assert game.result is not None and game.result.scores == (71 + 20, 0)


def test_house_rule_score_round_core_hook(game_registered: None) -> None:
    @hookimpl
    def score_round(state: GameState, scores: Sequence[int]) -> list[int]:
        return [2 * s for s in scores]

    mod = rule_module(f"{NAME}.double", "GIN-HOUSE-2", score_round=score_round)
    for _ in registered("cardcore.rules", f"{NAME}.double", mod):
        game = cardcore.new_game(NAME, 2, deck=GIN_DECK, seed=3, rules=[f"{NAME}.double"])
        game.act(0, "draw")
        game.act(0, "knock JD")
        assert game.result is not None and game.result.scores == (2 * 96, 0)


def test_house_rule_bonus_answering_float_is_refused_by_name(game_registered: None) -> None:
    @hookimpl
    def gin_bonus() -> float:
        return 2.5

    mod = rule_module(f"{NAME}.bad", "GIN-HOUSE-3", gin_bonus=gin_bonus)
    for _ in registered("cardcore.rules", f"{NAME}.bad", mod):
        with pytest.raises(PluginError, match="bad"):
            cardcore.new_game(NAME, 2, seed=3, rules=[f"{NAME}.bad"])


def test_house_rule_with_wrong_hook_arguments_refused(game_registered: None) -> None:
    @hookimpl
    def gin_bonus(points: int) -> int:
        return points

    mod = rule_module(f"{NAME}.args", "GIN-HOUSE-4", gin_bonus=gin_bonus)
    for _ in registered("cardcore.rules", f"{NAME}.args", mod):
        with pytest.raises(PluginError, match="args"):
            cardcore.new_game(NAME, 2, seed=3, rules=[f"{NAME}.args"])


def test_resolve_misspelled_game_hook_suggests(game_registered: None) -> None:
    ruleset = cardcore.get_ruleset(NAME)
    with pytest.raises(PluginError, match="gin_bonus"):
        ruleset.resolve("gin_bonsu")


def test_game_name_mismatch_is_plugin_error() -> None:
    with pytest.raises(PluginError):
        cardcore.register("cardcore.games", "gin-other-name-07f", gin.module())
        cardcore.new_game("gin-other-name-07f", 2, seed=1)
    with contextlib.suppress(CardcoreError):
        cardcore.unregister("cardcore.games", "gin-other-name-07f")


# --- hostile input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "text", "error", "rule"),
    [
        (0, "discard", NotationError, "CORE-NOTATION"),
        (0, "discard 1H", NotationError, "CORE-NOTATION-2"),
        (0, "discard 9C extra", NotationError, "CORE-NOTATION"),
        (0, "fold", NotationError, "CORE-NOTATION"),
        (0, "x" * 250, NotationError, "CORE-NOTATION"),
        (0, "discard ９C", NotationError, "CORE-NOTATION"),
        (1, "draw", IllegalActionError, "CORE-TURN-1"),
        (0, "discard AS", IllegalActionError, "GIN-TURN-1"),
        (0, "knock JK", IllegalActionError, "GIN-TURN-1"),
        (5, "draw", CardcoreError, "CORE-SEAT"),
    ],
)
def test_hostile_input_changes_nothing(
    game_registered: None, seat: int, text: str, error: type[Exception], rule: str
) -> None:
    game = cardcore.new_game(NAME, 2, deck=GIN_DECK, seed=3)
    events: list[Event] = []
    game.events.subscribe(Event, events.append)
    before = snapshot(game)
    with pytest.raises(error, match=rule):
        game.act(seat, text)
    assert snapshot(game) == before and events == []


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("discard KC", "GIN-DISCARD-1"),
        ("discard JK", "GIN-DISCARD-1"),
        ("knock 4H", "GIN-KNOCK-1"),
        ("take", "GIN-TURN-1"),
    ],
)
def test_illegal_discards_name_their_rule_and_no_hidden_card(
    game_registered: None, text: str, rule: str
) -> None:
    game = cardcore.new_game(NAME, 2, deck=GIN_DECK, seed=3)
    game.act(0, "draw")
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=rule) as info:
        game.act(0, text)
    assert snapshot(game) == before
    hidden = set(SEAT1) - set(text.split())
    assert not any(card in str(info.value).split() for card in hidden)


# --- findings: search samples and the kit's positions check --------------------------------------


class UpperPhaseLogic(gin.GinLogic):
    """The table shows the slot ``phase`` in another form (upper case) than the state holds."""

    def table(self, state: gin.GinState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        out["phase"] = out["phase"].upper()
        return out


def test_kit_positions_message_names_slot_shown_in_another_form() -> None:
    mod = gin.module()
    fields = (
        gin.GAME.fields[0],
        cardcore.ViewField("phase", "choice", "draw or discard", choices=("DRAW", "DISCARD")),
        gin.GAME.fields[2],
    )
    mod.GAME = attrs.evolve(gin.GAME, fields=fields)  # type: ignore[attr-defined]

    @hookimpl
    def create_logic(ruleset: cardcore.Ruleset) -> gin.GinLogic:
        return UpperPhaseLogic(ruleset)

    mod.create_logic = create_logic  # type: ignore[attr-defined]
    for _ in registered("cardcore.games", NAME, mod):
        report = check_game(NAME, players=2, games=1, seed=1, strict=False, checks={"positions"})
        assert not report.ok  # holds today: the kit sees the refused samples
        message = str(next(iter(report.failures)))
        assert "'phase'" in message


def test_generic_sample_forgets_a_publicly_taken_discard(game_registered: None) -> None:
    """search-agents.rst, Samples: a card the seat knows in another's hand, not shown in the
    view, is dealt anywhere (documented limitation): 10D, taken face up by seat 1, lands in the
    stock or discard pile of seat 0's samples."""
    game = cardcore.new_game(NAME, 2, deck=GIN_DECK, seed=3)
    for seat, text in [(0, "draw"), (0, "discard 10D"), (1, "take"), (1, "discard KC")]:
        game.act(seat, text)
    logic = cardcore.get_ruleset(NAME).logic
    deck = logic.deck(2, game.options)
    places = set()
    for k in range(12):
        pos = default_position(logic, game.view(0), deal_view(game.view(0), deck, random.Random(k)))
        for part in pos.split("|")[1:]:
            pile, cards = part.split(":")
            if "10D" in (c.split("@")[0].rstrip("!") for c in cards.split()):
                places.add(pile.strip())
    assert places - {"hand.1"}  # seat 0 knows it is in hand.1, the samples put it elsewhere too


@pytest.mark.xfail(
    strict=True,
    reason="game.rst says the kit's positions check reports samples with 'a card the seat knows in "
    "another's hand dealt elsewhere'; a discard taken face up (mask ALL) into the opponent's hand is "
    "dealt into the stock in most samples, yet check_positions passes: it compares views only, and "
    "the view does not show the known card",
)
def test_kit_positions_reports_known_card_dealt_elsewhere(game_registered: None) -> None:
    report = check_positions(
        NAME, players=2, games=2, seed=4, sample=1.0, samples_per_game=40, strict=False
    )
    assert not report.ok


# --- more claims that hold ----------------------------------------------------------------------


def test_ismcts_same_seed_same_choice(game_registered: None) -> None:
    from cardcore.search import ISMCTSAgent

    game = cardcore.new_game(NAME, 2, deck=GIN_DECK, seed=3)
    game.act(0, "draw")
    picks = {
        str(
            ISMCTSAgent(seed=5, iterations=6, max_rollout=6).choose(
                game.view(0), game.legal_actions(0)
            )
        )
    }
    picks.add(
        str(
            ISMCTSAgent(seed=5, iterations=6, max_rollout=6).choose(
                game.view(0), game.legal_actions(0)
            )
        )
    )
    assert len(picks) == 1 and picks <= set(game.view(0)["legal"])


def test_kit_passes_with_registered_house_rule(game_registered: None) -> None:
    @hookimpl
    def gin_bonus() -> int:
        return 20

    mod = rule_module(f"{NAME}.kit20", "GIN-HOUSE-5", gin_bonus=gin_bonus)
    for _ in registered("cardcore.rules", f"{NAME}.kit20", mod):
        configs = [c.kwargs()["rules"] for c in configurations(NAME)]
        assert (f"{NAME}.kit20",) in configs
        assert check_game(NAME, players=2, rules=[f"{NAME}.kit20"], games=1, seed=2).ok


def test_session_sends_no_hidden_card(game_registered: None) -> None:
    from cardcore.session import Session

    session = Session.create(NAME, ["Ann", "Bob"], now=0.0, seed=7)
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    game, rng, now = session.game, random.Random(3), 3.0
    while not game.is_over:
        seat = game.to_act[0]
        ann_hidden = {
            str(c)
            for i, c in enumerate(game.state.zones.cards[gin.hand(0)])
            if not game.state.zones.knows(gin.hand(0), i, 1)
        }
        action = str(rng.choice(game.legal_actions(seat)))
        out = session.handle(
            ["ann", "bob"][seat],
            json.dumps({"type": "act", "action": action, "seen": game.version}),
            now=now,
        )
        now += 1
        assert all(o.message["type"] != "error" for o in out)
        for o in out:
            if o.conn == "bob" and not game.is_over:
                words = set(json.dumps(o.message).replace('"', " ").replace(",", " ").split())
                assert not words & (ann_hidden - {action.split()[-1]})
