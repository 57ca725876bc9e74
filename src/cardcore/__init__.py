"""cardcore: an embeddable card-game engine.

>>> import cardcore
>>> card = cardcore.Card.parse("10H")
>>> str(card), card.rank.label, card.suit.letter
('10H', '10', 'H')
"""

from __future__ import annotations

# the building blocks games use, reachable as cardcore.dealing, cardcore.tricks, cardcore.turns
from cardcore import dealing as dealing
from cardcore import tricks as tricks
from cardcore import turns as turns
from cardcore._earlier import earlier_rules
from cardcore._markers import hookimpl, hookspec
from cardcore.actions import HOST, Action, EndMatch, Resign
from cardcore.agents import Agent, LazyView, Plan, RandomAgent, RealtimeAgent, play, run_realtime
from cardcore.cards import JOKER, Card, Rank, Suit, parse_cards
from cardcore.compare import Comparison, compare
from cardcore.deck import CHANCE, Chance, decks, derive_rng, shuffle, standard_52, with_jokers
from cardcore.errors import (
    ArgumentError,
    CardcoreError,
    CorruptStateError,
    IllegalActionError,
    NotationError,
    OptionError,
    OtherGameRuleError,
    PluginError,
    PluginWarning,
    RuleConflictError,
    SeatError,
    StaleActionError,
    StalledGameError,
    UnknownPluginError,
)
from cardcore.events import (
    SPECTATOR,
    ActionApplied,
    CardDiscarded,
    CardDrawn,
    CardMoved,
    CardRevealed,
    CardsDealt,
    DeliveryFailure,
    Event,
    EventBus,
    GameEnded,
    GameStarted,
    PaymentsMade,
    RoundScored,
    Shuffled,
    Subscription,
    TurnPassed,
    jsonable,
)
from cardcore.game import STALE_WINDOW, VIEW_FORMAT, Game
from cardcore.info import FIELD_KINDS, GameInfo, Option, RuleInfo, Veto, ViewField
from cardcore.logic import Emit, GameLogic
from cardcore.plugins import (
    Ruleset,
    agent_parameters,
    available_agents,
    available_games,
    available_rules,
    game_info,
    get_ruleset,
    load_agent,
    parse_agent_spec,
    register,
    rule_info,
    split_agent_specs,
    unregister,
)
from cardcore.records import load, replay
from cardcore.scoring import Ledger, ScoreSheet, ScoreTable
from cardcore.setup import new_game
from cardcore.simulate import Summary, simulate
from cardcore.state import GameState, Result
from cardcore.zones import ALL, Layout, Visibility, Zones, ZoneSpec

__version__ = "0.3.0"

__all__ = [
    "ALL",
    "CHANCE",
    "FIELD_KINDS",
    "HOST",
    "JOKER",
    "SPECTATOR",
    "STALE_WINDOW",
    "VIEW_FORMAT",
    "Action",
    "ActionApplied",
    "Agent",
    "ArgumentError",
    "Card",
    "CardDiscarded",
    "CardDrawn",
    "CardMoved",
    "CardRevealed",
    "CardcoreError",
    "CardsDealt",
    "Chance",
    "Comparison",
    "CorruptStateError",
    "DeliveryFailure",
    "Emit",
    "EndMatch",
    "Event",
    "EventBus",
    "Game",
    "GameEnded",
    "GameInfo",
    "GameLogic",
    "GameStarted",
    "GameState",
    "IllegalActionError",
    "Layout",
    "LazyView",
    "Ledger",
    "NotationError",
    "Option",
    "OptionError",
    "OtherGameRuleError",
    "PaymentsMade",
    "Plan",
    "PluginError",
    "PluginWarning",
    "RandomAgent",
    "Rank",
    "RealtimeAgent",
    "Resign",
    "Result",
    "RoundScored",
    "RuleConflictError",
    "RuleInfo",
    "Ruleset",
    "ScoreSheet",
    "ScoreTable",
    "SeatError",
    "Shuffled",
    "StaleActionError",
    "StalledGameError",
    "Subscription",
    "Suit",
    "Summary",
    "TurnPassed",
    "UnknownPluginError",
    "Veto",
    "ViewField",
    "Visibility",
    "ZoneSpec",
    "Zones",
    "__version__",
    "agent_parameters",
    "available_agents",
    "available_games",
    "available_rules",
    "compare",
    "decks",
    "derive_rng",
    "earlier_rules",
    "game_info",
    "get_ruleset",
    "hookimpl",
    "hookspec",
    "jsonable",
    "load",
    "load_agent",
    "new_game",
    "parse_agent_spec",
    "parse_cards",
    "play",
    "register",
    "replay",
    "rule_info",
    "run_realtime",
    "shuffle",
    "simulate",
    "split_agent_specs",
    "standard_52",
    "unregister",
    "with_jokers",
]
