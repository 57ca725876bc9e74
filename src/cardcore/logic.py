"""The interface a game implements: :class:`GameLogic`.

One logic object serves every game of one configuration, so it keeps no
per-game state: everything that changes lives in the :class:`GameState` it is
handed. The core's :class:`~cardcore.Game` does the rest (turn and seat
checks, stale detection, locking, records, events, views' envelope).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from cardcore import _blame
from cardcore._text import shown
from cardcore.actions import Action
from cardcore.cards import Card
from cardcore.errors import CardcoreError, NotationError, OptionError, PluginError
from cardcore.events import Event
from cardcore.notation import ActionParser
from cardcore.positions import MAX_FIELD_INT, check, read_field, read_result, writable
from cardcore.positions import fair_ints as _fair
from cardcore.positions import read_position as read_piles
from cardcore.positions import write_position as write_piles
from cardcore.state import GameState, Result
from cardcore.zones import Zones

if TYPE_CHECKING:
    from cardcore.plugins import Ruleset

__all__ = ["DECK_CACHE", "A", "Emit", "GameLogic", "S"]

Emit = Callable[[Event], None]
"""The event sink handed to :meth:`GameLogic.apply`; ``None`` when nobody listens."""

S = TypeVar("S", bound=GameState)
"""The state type of a game (a :class:`GameState` subclass)."""
A = TypeVar("A", bound=Action)
"""The action type of a game (an :class:`Action` subclass, or a union of them)."""
_Kind = TypeVar("_Kind", int, bool)  # what checked_answer returns: the kind asked for

DECK_CACHE = 64
"""How many distinct decks (per player count and options) one configuration remembers."""


class GameLogic(Generic[S, A]):
    """Base class of a game's rules engine, generic over its state and action types.

    Override the methods marked *required*. ``class GolfLogic(GameLogic[GolfState,
    GolfAction])`` gives every method the game's own types, so a game needs no
    ``isinstance`` narrowing and type-checks under ``mypy --strict``.

    :param ruleset: The configuration this logic serves. Resolve the hooks you
        need here, once, with :meth:`cardcore.Ruleset.resolve`.
    """

    action_types: ClassVar[tuple[type[Action], ...]] = ()
    """The game's action classes, for the default notation parser (see :meth:`parse_action`)."""
    position_fields: ClassVar[tuple[str, ...]] = ()
    """The state slots the default position notation writes (see :meth:`read_position`)."""
    rl_encoding: ClassVar[type[Any] | None] = None
    """The game's own :mod:`cardcore.rl` encoding (fixed action indices, observation), a class
    called as ``rl_encoding(logic, players, options)``; ``None``: the generic one (see ``docs/rl.rst``)."""
    max_legal: ClassVar[int | None] = None
    """The most legal actions a seat can have at once: the size of :mod:`cardcore.rl`'s generic
    action space (the i-th legal action); ``None``: 64, any further ones left out."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        """The configuration (game + house rules) this logic serves."""
        self.info = ruleset.game
        """The game's :class:`~cardcore.GameInfo`."""
        self._decks: dict[Any, tuple[Card, ...]] = {}
        self._parser: ActionParser | None = None
        self._build_deck = ruleset.resolve("build_deck")
        self._adjust = ruleset.score_round

    # -- set-up ---------------------------------------------------------------------------

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        """Raise :class:`OptionError` if *players* seats with *options* cannot play.

        The default checks the game's declared seat range.
        """
        info = self.info
        self.check_players(info.name, players, info.min_players, info.max_players)

    def deck(self, players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
        """Return every card in play (a multiset); default: the ``build_deck`` hook, cached.

        At most :data:`DECK_CACHE` decks are remembered per configuration (the
        oldest is dropped), so options of many distinct values cost no memory.
        """
        try:
            key: Any = (players, tuple(options.items()))
            return self._decks[key]
        except KeyError:
            pass
        except TypeError:  # an unhashable option value: not cached
            key = None
        answer = (
            None if self._build_deck is None else self._build_deck(players=players, options=options)
        )
        if answer is None:
            msg = f"no plugin of {self.info.name!r} answered build_deck"
            raise PluginError(msg, plugin=self.info.name)
        cards = tuple(answer) if isinstance(answer, list | tuple) else ()
        if not cards or not all(type(c) is Card for c in cards):  # blame the rule that answered
            bad = next((c for c in cards if type(c) is not Card), answer)
            names = ", ".join(self._implementers("build_deck"))
            msg = f"build_deck ({names}) answered {shown(bad)} among its cards: it must answer a non-empty list of cardcore.Card"
            asked = {"players": players, "options": options}
            raise PluginError(msg, plugin=self.refused_answer("build_deck", answer, "", asked=asked).plugin)
        if key is not None:
            if len(self._decks) >= DECK_CACHE:
                del self._decks[next(iter(self._decks))]
            self._decks[key] = cards
        return cards

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        """*Required.* The most actions a game may take: one that reaches it without ending
        by its rules ends there as ``"truncated"`` (CORE-BOUND-1). A whole number of at least
        1; generous, for a record holding more actions is refused unread."""
        raise NotImplementedError

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> S:
        """*Required.* Deal a new game from *cards* (bottom to top: ``cards[-1]`` is dealt first).

        *seed* is the game's seed: set ``state.seed = seed`` before any later
        shuffle through ``state.rng()``. Build the deal's events only if *emit*
        is not ``None`` (subscribers given to :func:`cardcore.new_game` receive
        them, so every event of a game reaches them, the first deal's included).
        """
        raise NotImplementedError

    # -- play -----------------------------------------------------------------------------

    def legal_actions(self, state: S, seat: int) -> tuple[A, ...]:
        """*Required.* The actions *seat* may take now, in a stable documented order.

        Return ``()`` for a seat that may not act. The core caches the answer
        per state version and removes what a house rule's ``forbid_action``
        vetoes, so the game lists its own rules' actions only.
        """
        raise NotImplementedError

    def apply(self, state: S, action: A, emit: Emit | None) -> None:
        """*Required.* Apply a legal *action* to *state* (the core checked legality).

        Set ``state.to_act``, and when the game ends ``state.is_over`` and
        ``state.result``. Build events only if *emit* is not ``None``. Must not
        fail half way: do every check before the first change.
        """
        raise NotImplementedError

    def is_legal(self, state: S, action: A) -> bool:
        """Whether *action* is one of ``legal_actions(state, action.seat)`` now.

        *Optional* fast path for apply and replay: a game may answer without
        building the whole legal set (its answer must equal the default's for
        every state and action). Without one, the core decides by the legal set
        (once per version) and applies the legal action equal to the one given,
        so a hand-built copy holding ``True`` for ``1`` is never recorded as
        such; a game's own check should refuse fields of another type, as the
        built-in games do. House rules' ``forbid_action`` vetoes are not the
        game's business: the core checks them apart.
        """
        return action in self.legal_actions(state, action.seat)

    def parse_action(self, state: S, seat: int, text: str) -> A:
        """Turn *text* into an action of *seat* or raise :class:`NotationError`.

        The default matches *text* (case- and space-insensitive) against the notation of
        the seat's legal actions. A game that lists its action classes in :attr:`action_types`
        gets the rest from :class:`~cardcore.notation.ActionParser`: malformed text raises
        :class:`NotationError`, and a well-formed action that is not legal is returned for
        the core to reject with :class:`~cardcore.IllegalActionError`. (A game reading verbs
        of its own first names them in its own error: the parser's names these types' only.)
        """
        wanted = " ".join(text.split()).lower()
        for action in self.legal_actions(state, seat):
            if str(action).lower() == wanted:
                return action
        parser = self._parser
        if parser is None and self.action_types:
            parser = self._parser = ActionParser(self.action_types)
        if parser is not None:
            parsed: A = parser.parse(seat, text)  # type: ignore[assignment]
            return parsed
        msg = f"not an action of {self.info.name} for seat {seat} now: {text!r} (CORE-NOTATION-1)"
        raise NotationError(msg)

    def rule_for(self, state: S, action: A) -> tuple[str, str]:
        """Return ``(rule_id, reason)`` for an *action* that is not legal in *state*.

        Games override it to cite their own rules; the default cites CORE-LEGAL-1.
        """
        return "CORE-LEGAL-1", f"{str(action)!r} is not a legal action for seat {action.seat} now"

    def waiting_rule(self, state: S, action: A) -> tuple[str, str] | None:
        """Return ``(rule_id, reason)`` for an *action* of a seat not in ``state.to_act``,
        when a rule of the game's own says why that seat waits; ``None``: the core's CORE-TURN-1.

        Optional, for a seat that waits by a game's rule rather than for its turn (a
        real-time seat that is ready and waits for the others, or whose opponent chooses).
        Only the *seat* is known not to act: answer from the state, not the action's legality.
        """
        return None

    def default_action(self, state: S, seat: int) -> A | None:
        """The action a host plays for *seat* when its time runs out, or ``None`` (no default).

        Optional; :mod:`cardcore.session` calls it on a timeout, again while the
        seat stays to act in a turn-based game, so a game can finish a turn in
        a few safe steps. Decide from what *seat* may know, and answer one of
        ``legal_actions(state, seat)``. The default answers ``None``: the session's
        fallback decides; a real-time game that implements it answers ``None`` for
        "nothing now".
        """
        return None

    # -- positions --------------------------------------------------------------------------

    def blank_state(self, players: int, options: Mapping[str, Any]) -> S:
        """An empty table: every pile laid out and empty, every slot at its default.

        Implementing it gives the game the default position notation (see
        :meth:`read_position`); ``new_state`` can start from it too. The
        defaults tell the notation what each field of :attr:`position_fields`
        holds: ``[0, 0]`` a list of two ints (one per seat), ``()`` a tuple of
        any length. The default raises :class:`CardcoreError`.
        """
        msg = f"{self.info.name} has no position notation (no blank_state, no write_position)"
        raise CardcoreError(msg)

    def has_positions(self) -> bool:
        """Whether the game has a position notation: its own, or the default one."""
        cls = type(self)
        return (
            cls.write_position is not GameLogic.write_position
            or cls.blank_state is not GameLogic.blank_state
        )

    def write_position(self, state: S) -> str:
        """Write *state* in the game's position notation (privileged: every card, who knows it).

        The default notation (for a game that implements :meth:`blank_state`)
        writes the game's name, each slot of :attr:`position_fields` as compact
        JSON, ``result`` once the game is over, then every pile with who knows
        each card (:func:`cardcore.positions.write_position`)::

            gofish to_act=[0] asked=[0,2048] | stock: 5H 9C ... | hand.0: AS@0 ... | books.0:

        A game with other needs overrides this and :meth:`read_position`,
        with the building blocks of :mod:`cardcore.positions`. Without either,
        it raises :class:`CardcoreError`.
        """
        if type(self).blank_state is GameLogic.blank_state:
            msg = f"{self.info.name} has no position notation"
            raise CardcoreError(msg)
        fields = {name: getattr(state, name) for name in self.position_fields}
        for name, value in fields.items():  # what read_field takes back, else unreadable text
            if not (writable(value) or (type(value) in (list, tuple) and all(map(writable, value)))):
                msg = f"{self.info.name}: position field {name!r} holds {shown(value, 60)}; the default notation writes ints and numbers (finite, at most 10**15 in size), strings, bools, nulls and flat lists of them"
                raise PluginError(msg, plugin=self.info.name)
        if state.result is not None:
            fields["result"] = state.result.to_json()
        return write_piles(self.info.name, fields, state.zones)

    def read_position(self, text: str, players: int, options: Mapping[str, Any]) -> S:
        """Read a position written by :meth:`write_position` into a new state.

        Validate it completely (every card exactly once, counts the rules allow,
        a seat to act) and raise :class:`~cardcore.OptionError` naming what is wrong.

        The default notation starts from :meth:`blank_state`, places every card
        of :meth:`deck` (each exactly once), and sets each field of
        :attr:`position_fields` the text names (one left out keeps its blank
        value), checked against the blank value with
        :func:`cardcore.positions.read_field`: the same JSON type, a per-seat
        list as long, tuples restored as tuples. A ``result`` field (see
        :meth:`cardcore.Result.to_json`) marks a finished game. Nothing else
        is derived. The core then checks ``to_act``: distinct seats, none
        once the game is over, at least one while it is on; and last calls
        :meth:`check_position` for the game's own rules.
        """
        if type(self).blank_state is GameLogic.blank_state:
            msg = f"{self.info.name} has no position notation, so it cannot start from a position"
            raise OptionError(msg)
        state = self.blank_state(players, options)
        deck = self.deck(players, options)
        fields, state.zones = read_piles(text, self.info.name, state.zones.layout, deck, players)
        for name in self.position_fields:
            if name in fields:
                setattr(state, name, read_field(name, fields.pop(name), getattr(state, name)))
        if "result" in fields:
            state.result = read_result(fields.pop("result"), players)
            state.is_over = True
        if fields:
            known = ", ".join(self.position_fields) or "none"
            check(False, "unknown fields {} ({} has: {})", list(fields), self.info.name, known)
        to_act = state.to_act
        seats = all(type(s) is int and 0 <= s < players for s in to_act)
        check(
            seats and len(set(to_act)) == len(to_act),
            "to_act must hold distinct seats of a {}-player game, not {}",
            players,
            list(to_act),
        )
        if state.is_over:
            check(not to_act, "the game is over (result), so nobody may act, not {}", list(to_act))
        else:
            check(to_act, "nobody is to act: to_act must name a seat while the game is on")
        self.check_position(state)
        return state

    def check_position(self, state: S) -> None:
        """Refuse a position the game's rules do not allow (for the default notation).

        Called last by the default :meth:`read_position`, after the core's
        checks (cards, fields, ``to_act``). Raise :class:`~cardcore.OptionError`
        naming what is wrong; :func:`cardcore.positions.check` is handy. The
        default accepts everything.
        """

    # -- search agents (optional) -----------------------------------------------------------

    def sample_position(self, view: Mapping[str, Any], rng: random.Random) -> str | None:
        """Return a position drawn at random among those consistent with *view*, or ``None``.

        Search agents (:class:`cardcore.search.ISMCTSAgent`) call it once per
        sample; they hold only a seat's view, never the state. Implement it when
        a seat can infer more than the view's piles show (a card known to lie in
        some hand). ``None`` (the default) lets the search deal the hidden cards
        at random from the unseen ones (:func:`cardcore.search.deal_view`) and
        write the position with :meth:`position_from_view`.
        """
        return None

    def position_from_view(self, view: Mapping[str, Any], zones: Zones) -> str | None:
        """Write a position that agrees with *view*, its hidden cards already dealt into *zones*.

        *zones* has the game's layout: every card the seat sees lies where it
        lies, every hidden place holds a card drawn from those the seat has not
        seen, and the knowledge marks are :func:`cardcore.search.deal_view`'s
        guesses (adjust what the notation needs). Add the game's fields, read
        from the view, and return the text. ``None`` (the default) lets the
        search write the core's default notation, for a game that has one
        (:meth:`blank_state`): ``to_act`` from the view, every other field of
        :attr:`position_fields` from the view's ``table`` when it holds one of
        that name and type, else its blank value.
        """
        return None

    def rounds_played(self, state: S) -> int:
        """How many rounds (or hands) have ended in *state*: it never decreases, and a round
        ended without a score (a dead hand) counts.

        Search rollouts stop when it grows (the end of the current round), and
        ``cardcore.compare`` counts a game's length in rounds with it. Default: the entries
        of :meth:`history` (a game whose history is dear to build counts them itself)."""
        return len(self.history(state, None, 0))

    def utility(self, state: S) -> tuple[float, ...]:
        """How well each seat stands in *state*, higher is better, in the game's own unit.

        Search rollouts are scored with it at the end of a round. Default: the
        winners of a finished game share 1, otherwise the leaders
        (:meth:`standings`) do; games with scores override it (negated points
        in Golf, the balances in Tonk).
        """
        result = state.result
        best = self.standings(state) if result is None else result.winners
        share = 1.0 / len(best) if best else 0.0
        return tuple(share if s in best else 0.0 for s in range(state.players))

    def rollout_action(
        self, state: S, seat: int, legal: Sequence[A], rng: random.Random
    ) -> A | None:
        """Pick *seat*'s action among *legal* in a search rollout, or ``None`` for a random one.

        Called on every step of a rollout, so keep it cheap; read *state* with
        *seat*'s knowledge only (its hand, cards known to it) to keep the
        rollouts honest. The default returns ``None``: a uniformly random action.
        """
        return None

    # -- views ----------------------------------------------------------------------------

    def table(self, state: S, seat: int | None) -> dict[str, Any]:
        """*Required.* The game's own part of a view: JSON-ready, only what *seat* may know.

        *seat* ``None`` is a spectator. Use :meth:`cardcore.Zones.show` so hidden
        cards come out as ``None``. Its keys are the fields the game declares in
        ``GameInfo.fields``. Past rounds belong in :meth:`history`, not here, so a
        view costs the same late in a match as early.
        """
        raise NotImplementedError

    def history(self, state: S, seat: int | None, since: int) -> list[dict[str, Any]]:
        """Past rounds or hands from number *since* (from 0), as *seat* may see them.

        JSON-ready, oldest first. Default: none.
        """
        return []

    def scores(self, state: S) -> tuple[float, ...]:
        """The current score per seat (used when a game stops early). Default: zeros."""
        return tuple(0.0 for _ in range(state.players))

    def payouts(self, state: S) -> tuple[int, ...] | None:
        """The current net payouts per seat, or ``None`` for games without stakes.

        What is settled, and public: ``rewards="score"`` pays its changes to every seat.
        """
        return None

    # -- the core's cross-cutting rules ------------------------------------------------------

    def score_round(self, state: S, scores: Sequence[int]) -> tuple[int, ...]:
        """Return this round's (or hand's) *scores* after the house rules' ``score_round``.

        Every game calls it once per scored round or hand, with that round's
        contribution in the game's own unit (points in Golf, the amounts paid in
        Tonk: multiples of the stake, ``[5, -5]`` for a won drop at stake 5),
        before adding it to any total. The core checks the answer: one integer
        per seat and, for a game declared ``zero_sum``, a zero sum.

        :raises PluginError: A rule answered something else.
        """
        if not _fair(scores, state.players):  # the game's own scores (and its rules' answers)
            rules = ", ".join(self.ruleset.rule_names) or "none"
            msg = (
                f"{self.info.name!r} scored a round {shown(scores)}: one integer per seat"
                f" ({state.players}), each at most {MAX_FIELD_INT:.0e} in size (house rules: {rules})"
            )
            raise PluginError(msg, plugin=self.info.name)
        if self.info.zero_sum and sum(scores) != 0:  # the game's own, before any rule's
            msg = f"{self.info.name!r} scored a round {shown(list(scores))} summing to {sum(scores)}, though it is declared zero_sum"
            raise PluginError(msg, plugin=self.info.name)
        adjust = self._adjust
        if adjust is None:
            return tuple(scores)
        answer = adjust(state=state, scores=tuple(scores))
        if answer is None:
            return tuple(scores)
        asked = {"state": state, "scores": tuple(scores)}  # to find the rule that answered
        if not _fair(answer, state.players):
            what = f"must answer one integer per seat ({state.players}), each at most {MAX_FIELD_INT:.0e} in size, not {shown(answer)}"
            raise self._refused_score(answer, what, asked)
        out = tuple(answer)
        if self.info.zero_sum and sum(out) != 0:
            what = f"broke the zero sum of {self.info.name!r}: {shown(list(out))} sums to {shown(sum(out))}"
            raise self._refused_score(answer, what, asked)
        return out

    def _refused_score(self, answer: Any, what: str, asked: Mapping[str, Any]) -> PluginError:
        plugin, names = self.refused_answer("score_round", answer, "", asked=asked).plugin, self._implementers("score_round")
        who = repr(plugin) if plugin else f"one of {', '.join(map(repr, names))}"  # alike answers
        listed = f" (implemented by {', '.join(names)})" if len(names) > 1 else ""
        return _blame.refusal(f"score_round of {who} {what}{listed}", plugin or "")

    def checked_answer(
        self, hook: str, value: Any, kind: type[_Kind],
        asked: Mapping[str, Any] | None = None,
    ) -> _Kind:
        """Return *value*, a hook's answer, if it is of *kind*; else raise naming the plugins.

        ``int``: an int (not a bool) at most ``10**15`` in size; ``bool``: ``True`` or
        ``False``. A game calls it where it reads a number or a flag a house rule may
        answer, so a rule answering ``2.5``, ``"3"`` or ``"no"`` is refused by name
        instead of being coerced. *asked*: the hook's arguments, as for :meth:`refused_answer`.

        :raises PluginError: Naming the plugins that implement *hook*, house rules first.
        """
        if kind is bool:
            ok = value is True or value is False
        else:
            ok = isinstance(value, int) and not isinstance(value, bool)
            ok = ok and -MAX_FIELD_INT <= value <= MAX_FIELD_INT
        if ok:
            return cast(_Kind, value)
        what = "True or False" if kind is bool else f"an int at most {MAX_FIELD_INT:.0e} in size"
        raise self.refused_answer(hook, value, what, asked=asked)

    def refused_answer(
        self, hook: str, value: Any, wanted: str, by: Callable[..., Any] | None = None,
        asked: Mapping[str, Any] | None = None,
    ) -> PluginError:
        """The error for hook *hook* answering *value* where it must answer *wanted*.

        It names the plugins that implement the hook, house rules first, and blames the one
        whose implementation gave the answer (asked again with the arguments *asked*); *by*,
        the function that made *value*, handed over by a hook (as Tonk's ``tonk_deal_judge``),
        blames the plugin whose implementation hands it over. When the answers of several
        are alike it, none is blamed (``plugin`` is ``None``).
        """
        names = self._implementers(hook)
        msg = f"{hook} ({', '.join(names)}) answered {shown(value)}: it must answer {wanted}"
        hc = getattr(self.ruleset.pm.hook, hook, None) if len(names) > 1 else None
        answer = value if by is None else by
        blamed = None if hc is None else _blame.gave(self.ruleset, hook, answer)
        if blamed is None and hc is not None:  # (no rule's last answer: ask them again)
            blamed = _blame.answerer(hc, answer, asked or {})
        if blamed:  # of several implementations, the one that gave it
            msg += f" (the answer of {blamed!r})"
        return _blame.refusal(msg, names[0] if blamed is None else blamed)

    def _implementers(self, hook: str) -> list[str]:
        hc = getattr(self.ruleset.pm.hook, hook, None)
        impls = [] if hc is None else hc.get_hookimpls()
        return list(dict.fromkeys(i.plugin_name for i in reversed(impls))) or [self.info.name]

    def require_deck(self, players: int, options: Mapping[str, Any], cards: Sequence[Card]) -> None:
        """Refuse a deck (``build_deck``'s answer, house rules included) that is not *cards*.

        For a game whose logic is built for one deck (Tonk's hands are bit masks over
        52 cards): call it from :meth:`validate`, so another deck is refused by name
        before the deal instead of breaking play, saves or replays later.

        :raises PluginError: Naming the plugins that answer ``build_deck``.
        """
        deck = self.deck(players, options)
        if len(deck) == len(cards) and Counter(deck) == Counter(cards):
            return
        names = self._implementers("build_deck")
        msg = (
            f"build_deck ({', '.join(names)}) answered {len(deck)} cards:"
            f" {self.info.name} plays with exactly its {len(cards)} cards with these options"
        )
        raise PluginError(msg, plugin=names[0])

    def require_cards(self, players: int, options: Mapping[str, Any], least: int) -> None:
        """Refuse a deck (``build_deck``'s answer, house rules included) of fewer than *least*
        cards: for a game that deals a fixed number (Golf's grids and upcard), call it from
        :meth:`validate`, so a short deck is refused by name instead of failing mid-deal.

        :raises PluginError: Naming the plugins that answer ``build_deck``.
        """
        deck = self.deck(players, options)
        if len(deck) >= least:
            return
        names = self._implementers("build_deck")
        msg = (
            f"build_deck ({', '.join(names)}) answered {len(deck)} cards: {self.info.name}"
            f" needs at least {least} for {players} player{'s' * (players != 1)} with these options"
        )
        raise PluginError(msg, plugin=names[0])

    def standings(self, state: S) -> tuple[int, ...]:
        """The seats that lead now (used by :meth:`end_match`). Default: every seat."""
        return tuple(range(state.players))

    # -- early ends -------------------------------------------------------------------------

    def resign(self, state: S, seat: int) -> None:
        """End the game because *seat* resigned; by default every other seat wins."""
        state.is_over = True
        state.to_act = ()
        winners = tuple(s for s in range(state.players) if s != seat)
        state.result = Result(winners, self.scores(state), self.payouts(state), "resigned")

    def end_match(self, state: S) -> None:
        """End the game because the host stopped it; the leaders (:meth:`standings`) win."""
        state.is_over = True
        state.to_act = ()
        state.result = Result(
            self.standings(state), self.scores(state), self.payouts(state), "ended"
        )

    # -- helpers for subclasses -----------------------------------------------------------------

    @staticmethod
    def parse_error(text: str, expected: str, rule_id: str = "CORE-NOTATION-1") -> NotationError:
        """Build the standard :class:`NotationError` for malformed *text*."""
        return NotationError(f"cannot read {text!r}: expected {expected} ({rule_id})")

    @staticmethod
    def check_players(name: str, players: int, low: int, high: int) -> None:
        """Raise :class:`OptionError` unless ``low <= players <= high``."""
        if not low <= players <= high:
            count = f"exactly {low}" if low == high else f"{low} to {high}"
            msg = f"{name} takes {count} player{'s' * (high != 1)}, not {players} (CORE-SEAT-2)"
            raise OptionError(msg)

    @staticmethod
    def seats_in_order(first: int, players: int) -> Sequence[int]:
        """Seats clockwise starting at *first*."""
        return [(first + i) % players for i in range(players)]

