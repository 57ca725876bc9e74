"""Host code: start, read, act, record, replay, save, clone and position a game."""

from __future__ import annotations

import json
from collections.abc import Sequence

import cardcore
from cardcore import (
    Action,
    CardcoreError,
    Game,
    IllegalActionError,
    NotationError,
    OptionError,
    Result,
    StaleActionError,
)


def start_golf(seed: int = 7) -> Game:
    """One seeded round of Golf between Ann and Bob (as in the tutorial)."""
    return cardcore.new_game("golf", ["Ann", "Bob"], options={"rounds": 1}, seed=seed)


def legal_texts(game: Game, seat: int) -> list[str]:
    """The seat's legal actions in notation, from the action objects (typed)."""
    return [str(action) for action in game.legal_actions(seat)]


def first_legal(game: Game) -> Action | None:
    """Apply the first legal action of the first seat to act, if any."""
    if game.is_over or not game.to_act:
        return None
    seat: int = game.to_act[0]
    actions: tuple[Action, ...] = game.legal_actions(seat)
    game.apply(actions[0], at=None, seen=game.version)
    return actions[0]


def try_act(game: Game, seat: int, text: str) -> str | None:
    """Act in text notation; return the rule ID of a refusal, else ``None``."""
    try:
        action: Action = game.act(seat, text)
    except StaleActionError as error:
        return error.rule_id
    except IllegalActionError as error:
        return error.rule_id
    except NotationError as error:
        return error.rule_id
    assert action.seat == seat
    return None


def tutorial_round() -> Result:
    """The tutorial, typed: flips, a draw, a replace, then two random agents finish."""
    game = start_golf()
    for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 0"), (1, "flip 3")]:
        game.act(seat, text)
    drawn = game.act(0, "draw")
    assert str(drawn) == "draw" and drawn.notation() == "draw"
    game.act(0, "replace 1")
    assert try_act(game, 0, "draw") == "CORE-TURN-1"
    result = cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    winners: tuple[int, ...] = result.winners
    scores: tuple[float, ...] = result.scores
    payouts: tuple[int, ...] | None = result.payouts
    reason: str = result.reason
    assert reason == "rounds" and len(scores) == 2 and payouts is None and winners
    assert game.result == result
    return result


def record_and_replay(game: Game) -> Game:
    """Record, replay (from data and from JSON text), save and load."""
    record = game.record()
    again = cardcore.replay(record)
    from_text = cardcore.replay(json.dumps(record))
    assert again.version == from_text.version == game.version
    saved = game.save()
    loaded = cardcore.load(json.dumps(saved))
    assert loaded.version == game.version
    entries: list[tuple[int, Action, float | None]] = game.record_entries()
    assert len(entries) == game.version
    return again


def branch(game: Game) -> tuple[Game, Game]:
    """A clone and a determinized copy for look-ahead."""
    copy = game.clone()
    seat = game.to_act[0] if game.to_act else 0
    twin = game.determinize(seat, seed=1)
    return copy, twin


def from_position(game: Game, seed: int = 5) -> Game:
    """Start a game at another game's position (same options)."""
    here: str = game.position()
    there = cardcore.new_game(game.name, list(game.players), position=here, seed=seed)
    assert there.version == 0
    return there


def read_views(game: Game) -> None:
    """Views, the spectator view, the schema and history (their values are JSON data)."""
    view = game.view(0)
    spectator = game.view(None)
    watcher = game.view(cardcore.SPECTATOR)
    assert spectator == watcher and view["format"] == cardcore.VIEW_FORMAT
    schema = game.view_schema()
    assert sorted(schema) == ["fields", "game", "zones"]
    rounds = game.history(0, since=0)
    assert isinstance(rounds, list)


def stacked_spit() -> Game:
    """A stacked deck: text, or a sequence of cards and card codes (top first)."""
    deck: Sequence[str | cardcore.Card] = [*cardcore.standard_52()]
    game = cardcore.new_game("spit", ["Ann", "Bob"], deck=deck, seed=2)
    game.act(0, "ready")
    game.act(1, "ready")
    return game


def resign_and_end(game: Game) -> str:
    """Any seat may resign; the host (seat HOST) may end the match."""
    if game.is_over:
        raise CardcoreError("game over")
    game.apply(cardcore.Resign(game.to_act[0]))
    result = game.result
    assert result is not None
    return result.reason


def host_end(game: Game) -> None:
    """The host stops the match."""
    game.apply(cardcore.EndMatch(cardcore.HOST))


def catalogue() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Installed games and Golf's rules; info about one of each."""
    games = cardcore.available_games()
    rules = cardcore.available_rules("golf")
    info = cardcore.game_info("golf")
    assert info.min_players <= info.max_players
    rule = cardcore.rule_info("golf.jokers")
    assert rule.game == "golf" and isinstance(rule.id, str)
    return games, rules


def refused_option() -> str:
    """A bad option is an OptionError."""
    try:
        cardcore.new_game("golf", 2, options={"rounds": -1})
    except OptionError as error:
        return str(error)
    return ""
