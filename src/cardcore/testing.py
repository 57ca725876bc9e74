"""The conformance kit: checks a game plugin's author runs from their own tests.

Every check plays seeded random games of one configuration (a game, its
house rules and options) through the public API and returns a small
:class:`Report`; on the first failures it raises :class:`AssertionError` with
a clear message (pass ``strict=False`` to collect failures instead).

>>> from cardcore.testing import check_game
>>> report = check_game("mygame", players=2, games=5)  # doctest: +SKIP
>>> report.cards_lost, report.leaks  # doctest: +SKIP
(0, 0)

What is checked (see :doc:`testing-kit` for the details):

* random playouts end within the game's declared ``action_bound``;
* every card is in exactly one place after every action (the multiset of
  ``state.zones.all_cards()`` equals ``logic.deck(players, options)``);
* views and per-seat events show a seat only cards it knows, per the zones'
  knowledge masks, and never the seed; a twin of the game that differs only in
  what is hidden from a seat (:meth:`cardcore.Game.determinize`) gives that seat
  the same view and the same events until it learns a new card;
* agents receive a read-only view mapping, never the game or its state;
* illegal, out-of-turn, wrong-seat, malformed and unknown-card inputs raise
  the documented errors and change nothing (state, version, events, record);
* :meth:`~cardcore.Game.clone` is independent of its original;
* save -> load and record -> replay rebuild the same states and events;
* the same seed gives the same game.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from attrs import define, field

from cardcore._testing_inputs import bad_inputs
from cardcore._testing_util import (
    card_tokens,
    contains_seed,
    fingerprint,
    game_seed,
    known_by,
    known_cards,
    multiset,
    seed_in_text,
)
from cardcore.actions import Action
from cardcore.agents import Plan, RandomAgent, play, run_realtime
from cardcore.errors import CardcoreError
from cardcore.events import SPECTATOR, Event
from cardcore.game import Game
from cardcore.setup import new_game
from cardcore.plugins import game_info
from cardcore.records import load, replay
from cardcore.state import GameState
from cardcore.zones import Zones

__all__ = [
    "ALL_CHECKS",
    "Report",
    "SpyAgent",
    "assert_conserved",
    "assert_view_known",
    "check_agents",
    "check_bounds",
    "check_clone",
    "check_conservation",
    "check_determinism",
    "check_game",
    "check_persistence",
    "check_rejections",
    "check_views",
]

ALL_CHECKS = frozenset(
    {
        "bound",
        "conservation",
        "views",
        "events",
        "twins",
        "agents",
        "rejections",
        "clone",
        "persistence",
        "determinism",
    }
)
"""The names of every check :func:`check_game` runs."""

MAX_FAILURES = 20
"""How many failure messages a :class:`Report` keeps (the counters keep counting)."""


@define
class Report:
    """What a check did and found.

    :param game: The game's name.
    :param players: Seats per game.
    :param rules: The house rules asked for.
    :param options: The options given.
    :param games: Games played.
    :param actions: Actions applied in those games (twins and clones not counted).
    :param truncated: Games that reached the declared action bound.
    :param bad_inputs: Hostile inputs tried (illegal, out of turn, wrong seat, malformed...).
    :param rejected: Those rejected with a documented error and no change.
    :param cards_lost: Checks that found the cards on the table differ from the deck.
    :param leaks: Views, events or twins that showed a seat something it may not know.
    :param views: Views and event streams checked for leaks.
    :param twins: Determinized twins compared.
    :param reloads: Save -> load and record -> replay round trips compared.
    :param checks: The names of the checks run.
    :param failures: The first failure messages (at most :data:`MAX_FAILURES`).
    :param failed: How many failures there were in all.
    """

    game: str
    players: int = 0
    rules: tuple[str, ...] = ()
    options: dict[str, Any] = field(factory=dict)
    games: int = 0
    actions: int = 0
    truncated: int = 0
    bad_inputs: int = 0
    rejected: int = 0
    cards_lost: int = 0
    leaks: int = 0
    views: int = 0
    twins: int = 0
    reloads: int = 0
    checks: tuple[str, ...] = ()
    failures: list[str] = field(factory=list)
    failed: int = 0

    @property
    def ok(self) -> bool:
        """Whether no check failed."""
        return self.failed == 0

    def fail(self, message: str) -> None:
        """Record one failure."""
        self.failed += 1
        if len(self.failures) < MAX_FAILURES:
            self.failures.append(message)

    def merge(self, other: Report) -> Report:
        """Add *other*'s counters and failures to this report and return it."""
        for name in (
            "games",
            "actions",
            "truncated",
            "bad_inputs",
            "rejected",
            "cards_lost",
            "leaks",
            "views",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.twins += other.twins
        self.reloads += other.reloads
        self.checks = tuple(sorted(set(self.checks) | set(other.checks)))
        for msg in other.failures:
            if len(self.failures) < MAX_FAILURES:
                self.failures.append(msg)
        self.failed += other.failed
        return self

    def raise_if_failed(self) -> None:
        """Raise :class:`AssertionError` listing the failures, if any."""
        if self.failed:
            head = f"{self.failed} conformance failure(s) in {self.label()}:"
            raise AssertionError("\n  ".join([head, *self.failures]))

    def label(self) -> str:
        """Return ``game players=N rules=[...] options={...}`` for messages."""
        return f"{self.game} players={self.players} rules={list(self.rules)} options={self.options}"

    def summary(self) -> str:
        """Return the counters on one line."""
        return (
            f"{self.label()}: games={self.games} actions={self.actions} truncated={self.truncated}"
            f" bad_inputs={self.bad_inputs} rejected={self.rejected} cards_lost={self.cards_lost}"
            f" leaks={self.leaks} views={self.views} twins={self.twins} reloads={self.reloads}"
            f" failed={self.failed}"
        )


class _Abort(Exception):
    """Stop checking the current game (it was changed by an input that should have been rejected)."""


# -- single-game assertions -------------------------------------------------------------------


def assert_conserved(game: Game) -> None:
    """Raise :class:`AssertionError` unless the cards on the table are exactly the game's deck.

    :param game: Any game; its privileged state is read.
    """
    problem = _conservation_problem(game, None)
    if problem is not None:
        raise AssertionError(problem)


def assert_view_known(game: Game, seat: int | None) -> None:
    """Raise :class:`AssertionError` if *seat*'s view shows a card it does not know now.

    Only knowledge of where cards lie *now* counts; games that show history (a
    previous round's grids) should use :func:`check_views`, which tracks what
    each seat has ever seen.

    :param seat: A seat, or ``None`` for the spectator view.
    """
    view = game.view(seat)
    extra = card_tokens(view["table"]) - known_cards(game.state, seat)
    if extra:
        msg = f"view of seat {seat} shows cards it does not know: {sorted(extra)!r}"
        raise AssertionError(msg)


def _conservation_problem(game: Game, deck: Counter[int] | None) -> str | None:
    state = game.state
    cards = list(state.zones.all_cards())
    full = game.logic.deck(len(game.players), game.options)
    if deck is not None and Counter(map(id, cards)) == deck:
        return None
    have, want = multiset(cards), multiset(full)
    if have == want:
        return None
    missing = sorted((want - have).elements())
    extra = sorted((have - want).elements())
    return f"cards not conserved at version {game.version}: missing {missing!r}, extra {extra!r}"


# -- agents ------------------------------------------------------------------------------------


class SpyAgent:
    """A random agent that checks it is only ever handed a view, never the game or its state.

    :param seat: The seat it plays.
    :param seed: Seed of its choices.
    :param report: Where failures go.
    :param look: Materialise and inspect the view on every 10th call (else every 200th).
    :param pool: A set that collects every legal action it is offered (for hostile inputs).
    :param secret: The game's seed, which no view may contain.
    """

    def __init__(
        self,
        seat: int,
        seed: int,
        report: Report,
        *,
        look: bool = True,
        pool: set[Action] | None = None,
        secret: int | None = None,
    ) -> None:
        self.seat = seat
        self.inner = RandomAgent(seed, reaction=0.3, spread=0.5)
        self.report = report
        self.look = look
        self.pool = pool
        self.secret = secret
        self.calls = 0

    def _inspect(self, view: Any, legal: Sequence[Action]) -> None:
        self.calls += 1
        report = self.report
        if isinstance(view, Game | GameState | Zones) or not isinstance(view, Mapping):
            report.fail(
                f"agent of seat {self.seat} was handed {type(view).__name__}, not a view mapping"
            )
            return
        if self.pool is not None:
            self.pool.update(legal)
        for action in legal:
            if not isinstance(action, Action) or action.seat != self.seat:
                report.fail(
                    f"agent of seat {self.seat} was offered {action!r}, not an action of its own seat"
                )
                return
        if self.calls % (10 if self.look else 200) != 1:
            return
        data = dict(view)
        try:
            json.dumps(data)
        except (TypeError, ValueError) as exc:
            report.fail(f"view handed to seat {self.seat} is not JSON-ready: {exc}")
        if data.get("seat") != self.seat:
            report.fail(
                f"agent of seat {self.seat} was handed the view of seat {data.get('seat')!r}"
            )
        if self.secret is not None:
            where = contains_seed(data, self.secret)
            if where is not None:
                report.leaks += 1
                report.fail(f"view handed to seat {self.seat} carries the seed at {where}")

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Check the arguments, then pick a random legal action."""
        self._inspect(view, legal)
        if not legal:
            self.report.fail(
                f"seat {self.seat} is to act but has no legal action (the game is stuck)"
            )
            raise _Abort
        return self.inner.choose(view, legal)

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        """Check the arguments, then plan a random legal action (real-time games)."""
        self._inspect(view, legal)
        return self.inner.plan(view, legal, now)


# -- the checker of one configuration ---------------------------------------------------------


class _Checker:
    """Plays and checks games of one configuration; fills one :class:`Report`."""

    def __init__(
        self,
        name: str,
        players: int,
        rules: tuple[str, ...],
        without: tuple[str, ...],
        options: Mapping[str, Any] | None,
        checks: frozenset[str],
        report: Report,
        sample: float,
        full_every: int,
        max_samples: int = 12,
        event_actions: int = 1500,
    ) -> None:
        self.max_samples = max_samples
        self.event_actions = event_actions
        self.name = name
        self.players = players
        self.rules = rules
        self.without = without
        self.options = dict(options or {})
        self.checks = checks
        self.report = report
        self.sample = sample
        self.full_every = max(1, full_every)
        self.realtime = game_info(name).realtime

    def new(self, seed: int) -> Game:
        return new_game(
            self.name,
            self.players,
            rules=self.rules,
            without=self.without,
            options=self.options,
            seed=seed,
        )

    # one game ----------------------------------------------------------------------------------

    def play(self, index: int, base_seed: int) -> tuple[Game, list[dict[str, Any]]]:
        """Play game *index* with every enabled check; return it and its host event stream."""
        report = self.report
        checks = self.checks
        seed = game_seed(base_seed, index)
        game = self.new(seed)
        full = index % self.full_every == 0
        rng = random.Random(seed ^ 0x5EED)
        n = len(game.players)
        pool: set[Action] = set()
        agents = [
            SpyAgent(s, seed + s, report, look=full and "agents" in checks, pool=pool, secret=seed)
            for s in range(n)
        ]
        deck_ids = Counter(map(id, game.logic.deck(n, game.options)))
        host: list[dict[str, Any]] = []
        seat_events: dict[int | str, list[Event]] = {}
        ever: dict[int | None, set[str]] = {}
        watch_events = full and "events" in checks
        if full and ("persistence" in checks or "determinism" in checks or "events" in checks):
            game.events.subscribe(Event, lambda e: host.append(e.to_json()))
        if watch_events:
            for s in [*range(n), SPECTATOR]:
                box: list[Event] = []
                seat_events[s] = box
                game.events.subscribe(Event, box.append, seat=s)
            for s2 in [*range(n), None]:
                ever[s2] = known_cards(game.state, s2)
            self._check_views(game, ever, seed)
        pending: list[tuple[Game, Any]] = []
        midpoint = rng.randrange(1, 40)
        budget = [self.max_samples]
        draws = [game.state.draws]

        def after(g: Game, action: Action, *_: Any) -> None:
            report.actions += 1
            if "conservation" in checks:
                problem = _conservation_problem(g, deck_ids)
                if problem is not None:
                    report.cards_lost += 1
                    report.fail(f"after {str(action)!r}: {problem}")
                    raise _Abort
            for c, fp in pending:
                if fingerprint(c) != fp:
                    report.fail(
                        f"a clone changed when its original applied {str(action)!r} (version {g.version})"
                    )
            pending.clear()
            if watch_events and g.version <= self.event_actions:
                redeal = g.state.draws != draws[0]
                draws[0] = g.state.draws
                now = known_by(g.state, [*range(n), None])
                for s2 in [*range(n), None]:
                    ever[s2] |= now[s2]
                    if (
                        redeal
                    ):  # cards shown and reshuffled inside one action: trust the game (see docs)
                        ever[s2] |= card_tokens(g.view(s2)["table"])
                        box = seat_events[SPECTATOR if s2 is None else s2]
                        ever[s2] |= card_tokens([e.to_json() for e in box])
                self._check_events(g, seat_events, ever, seed)
            if not full or budget[0] <= 0 or rng.random() >= self.sample:
                return
            budget[0] -= 1
            if "views" in checks:
                self._check_views(
                    g, ever if watch_events and g.version <= self.event_actions else None, seed
                )
            if "twins" in checks:
                self._check_twin(g, rng)
            if "rejections" in checks:
                self._check_rejections(g, rng, pool, host)
            if "clone" in checks:
                self._check_clone(g, rng, pending)
            if "persistence" in checks and g.version == midpoint:
                self._check_persistence(g, host)

        try:
            if self.realtime:
                run_realtime(game, agents, seed=seed, on_action=after)
            else:
                play(game, agents, on_action=after)
        except _Abort:
            report.games += 1
            return game, host
        except CardcoreError as exc:
            report.games += 1
            report.fail(f"game {index} (seed {seed}) raised {type(exc).__name__}: {exc}")
            return game, host
        report.games += 1
        result = game.result
        if result is not None and result.reason == "truncated" and "bound" in checks:
            report.truncated += 1
            bound = game.logic.action_bound(n, game.options)
            report.fail(
                f"game {index} (seed {seed}) did not end within its declared bound of {bound} actions"
            )
        if full and "rejections" in checks:
            self._check_rejections(game, rng, pool, host)  # a finished game accepts nothing
        if full and "persistence" in checks:
            self._check_persistence(game, host)
        return game, host

    # the checks ----------------------------------------------------------------------------

    def _check_views(self, game: Game, ever: dict[int | None, set[str]] | None, seed: int) -> None:
        report = self.report
        state = game.state
        for seat in [*range(len(game.players)), None]:
            view = game.view(seat)
            report.views += 1
            allowed = (
                known_cards(state, seat) if ever is None else ever[seat] | known_cards(state, seat)
            )
            extra = card_tokens(view["table"]) - allowed
            if extra:
                report.leaks += 1
                who = "the spectator" if seat is None else f"seat {seat}"
                report.fail(
                    f"view of {who} at version {game.version} shows cards it does not know: {sorted(extra)!r}"
                )
            where = contains_seed(view, seed)
            if where is not None:
                report.leaks += 1
                report.fail(f"view of seat {seat} carries the seed at {where}")
            try:
                json.dumps(view)
            except (TypeError, ValueError) as exc:
                report.fail(f"view of seat {seat} is not JSON-ready: {exc}")

    def _check_events(
        self,
        game: Game,
        boxes: dict[int | str, list[Event]],
        ever: dict[int | None, set[str]],
        seed: int,
    ) -> None:
        report = self.report
        for key, box in boxes.items():
            if not box:
                continue
            seat = None if key == SPECTATOR else key
            allowed = ever[seat if isinstance(seat, int) else None]
            text = json.dumps([e.to_json() for e in box], default=str)
            report.views += 1
            extra = card_tokens(text) - allowed
            if extra:
                report.leaks += 1
                slugs = [e.slug for e in box]
                report.fail(
                    f"events {slugs!r} sent to seat {key} show cards it does not know: {sorted(extra)!r}"
                )
            where = seed_in_text(text, seed)
            if where is not None:
                report.leaks += 1
                report.fail(f"events sent to seat {key} carry the seed ({where})")
            box.clear()

    def _check_twin(self, game: Game, rng: random.Random) -> None:
        report = self.report
        seat = rng.randrange(len(game.players))
        a = game.clone()
        b = game.determinize(seat, rng.getrandbits(31))
        report.twins += 1
        problem = _conservation_problem(b, None)
        za, zb = a.state.zones, b.state.zones
        moved = [
            (z, i)
            for z in range(len(za.cards))
            for i in range(len(za.cards[z]))
            if za.knows(z, i, seat) and (len(zb.cards[z]) <= i or zb.cards[z][i] != za.cards[z][i])
        ]
        if problem is not None or moved:
            report.fail(
                f"determinize({seat}) at version {game.version} is not a consistent twin: {problem or moved!r}"
            )
            return
        for who in (seat, None):
            if a.view(who) != b.view(who):
                report.leaks += 1
                report.fail(
                    f"view of {'the spectator' if who is None else f'seat {who}'} at version {game.version}"
                    f" depends on cards hidden from seat {seat}"
                )
                return
        for _ in range(3):
            if a.is_over or not a.to_act:
                return
            actor = rng.choice(a.to_act)
            legal = a.legal_actions(actor)
            if not legal:
                return
            action = rng.choice(legal)
            if action not in b.legal_actions(actor):
                if actor == seat:
                    report.leaks += 1
                    report.fail(
                        f"seat {seat}'s legal actions depend on cards hidden from it ({str(action)!r})"
                    )
                return
            before_a, before_b = _known_multiset(a.state, seat), _known_multiset(b.state, seat)
            ea: list[Event] = []
            eb: list[Event] = []
            a.events.subscribe(Event, ea.append, seat=seat)
            b.events.subscribe(Event, eb.append, seat=seat)
            draws = a.state.draws
            a.apply(action)
            b.apply(action)
            if (
                _known_multiset(a.state, seat) - before_a
                or _known_multiset(b.state, seat) - before_b
            ):
                return  # the seat learned a card: the two worlds may now differ for it
            if a.state.draws != draws:
                return  # a new deal or reshuffle: what was shown before it is no longer tracked
            ja = [e.to_json() for e in ea]
            jb = [e.to_json() for e in eb]
            if ja != jb:
                report.leaks += 1
                report.fail(
                    f"events sent to seat {seat} for {str(action)!r} depend on cards hidden from it: {ja!r} != {jb!r}"
                )
                return
            if a.view(seat) != b.view(seat):
                report.leaks += 1
                report.fail(
                    f"view of seat {seat} after {str(action)!r} depends on cards hidden from it"
                )
                return

    def _check_rejections(
        self, game: Game, rng: random.Random, pool: set[Action], host: list[Any]
    ) -> None:
        report = self.report
        for label, call, allowed in bad_inputs(game, rng, pool, self.realtime):
            before = fingerprint(game)
            n_events = len(host)
            report.bad_inputs += 1
            try:
                call()
            except allowed as exc:
                problem = _message_problem(exc)
                if problem is not None:
                    report.fail(f"{label}: {problem}")
                if fingerprint(game) != before or len(host) != n_events:
                    report.fail(f"{label} was rejected ({type(exc).__name__}) but changed the game")
                    raise _Abort from None
                report.rejected += 1
            except Exception as exc:
                report.fail(f"{label} raised {type(exc).__name__} ({exc}), not {_names(allowed)}")
                if fingerprint(game) != before:
                    raise _Abort from None
            else:
                report.fail(f"{label} was accepted at version {before[1]}")
                raise _Abort

    def _check_clone(self, game: Game, rng: random.Random, pending: list[tuple[Game, Any]]) -> None:
        report = self.report
        before = fingerprint(game)
        c = game.clone()
        if fingerprint(c) != before:
            report.fail(f"clone at version {game.version} differs from its original")
            return
        if (
            c.state is game.state
            or c.state.zones is game.state.zones
            or any(x is y for x, y in zip(c.state.zones.cards, game.state.zones.cards, strict=True))
        ):
            report.fail("clone shares its state or piles with its original")
            return
        for seat in c.to_act:
            legal = c.legal_actions(seat)
            if legal:
                c.apply(rng.choice(legal))
                break
        if fingerprint(game) != before:
            report.fail(f"applying an action to a clone changed its original (version {before[1]})")
            raise _Abort
        pending.append((c, fingerprint(c)))

    def _check_persistence(self, game: Game, host: list[dict[str, Any]]) -> None:
        report = self.report
        report.reloads += 1
        want = fingerprint(game)
        seats = [*range(len(game.players)), None]
        views = [game.view(s) for s in seats]
        text = json.dumps(game.save())
        try:
            loaded = load(text)
        except CardcoreError as exc:
            report.fail(f"save -> load failed at version {game.version}: {exc}")
            return
        if fingerprint(loaded) != want or [loaded.view(s) for s in seats] != views:
            report.fail(f"save -> load at version {game.version} does not rebuild the same game")
        record = game.record()
        try:
            fresh = replay(json.dumps(dict(record, actions=[], result=None)))
            seen: list[dict[str, Any]] = []
            if host:
                fresh.events.subscribe(Event, lambda e: seen.append(e.to_json()))
            for seat, text_, at in record["actions"]:
                fresh.act(seat, text_, at=at)
        except CardcoreError as exc:
            report.fail(f"record -> replay failed at version {game.version}: {exc}")
            return
        if fingerprint(fresh) != want or [fresh.view(s) for s in seats] != views:
            report.fail(
                f"record -> replay at version {game.version} does not rebuild the same game"
            )
        if host and seen != host:
            report.fail(f"record -> replay at version {game.version} publishes different events")


def _known_multiset(state: GameState, seat: int) -> Counter[str]:
    """Count the card texts *seat* knows where they lie now."""
    zones = state.zones
    out: Counter[str] = Counter()
    for z, pile in enumerate(zones.cards):
        for i in range(len(pile)):
            if zones.knows(z, i, seat):
                out[str(pile[i])] += 1
    return out


def _names(kinds: tuple[type[BaseException], ...]) -> str:
    return " or ".join(k.__name__ for k in kinds)


def _message_problem(exc: BaseException) -> str | None:
    msg = str(exc)
    if not msg:
        return f"{type(exc).__name__} has an empty message"
    if msg.endswith("."):
        return f"error message ends with a period: {msg!r}"
    rule_id = getattr(exc, "rule_id", None)
    if rule_id is not None and not msg.endswith(f"({rule_id})"):
        return f"error message does not end with its rule ID ({rule_id}): {msg!r}"
    return None


# -- public checks ----------------------------------------------------------------------------


def _run(
    name: str,
    checks: Iterable[str],
    *,
    players: int | None,
    rules: Sequence[str],
    without: Sequence[str],
    options: Mapping[str, Any] | None,
    games: int,
    seed: int,
    sample: float,
    full_every: int,
    strict: bool,
    samples_per_game: int = 12,
) -> Report:
    info = game_info(name)
    n = info.min_players if players is None else players
    chosen = frozenset(checks)
    unknown = chosen - ALL_CHECKS
    if unknown:
        msg = f"unknown checks {sorted(unknown)!r} (known: {sorted(ALL_CHECKS)!r})"
        raise ValueError(msg)
    report = Report(name, n, tuple(rules), dict(options or {}), checks=tuple(sorted(chosen)))
    checker = _Checker(
        name,
        n,
        tuple(rules),
        tuple(without),
        options,
        chosen,
        report,
        sample,
        full_every,
        samples_per_game,
    )
    first: tuple[Game, list[dict[str, Any]]] | None = None
    for i in range(games):
        failed = report.failed
        got = checker.play(i, seed)
        if i == 0 and report.failed == failed:
            first = got
    if "determinism" in chosen and games > 0:
        plain = frozenset({"determinism"})
        if first is None:  # game 0 failed a check: compare two plain plays instead
            first = _Checker(
                name, n, tuple(rules), tuple(without), options, plain, Report(name), 0.0, 1
            ).play(0, seed)
        game1, host1 = first
        game2, host2 = _Checker(
            name, n, tuple(rules), tuple(without), options, plain, Report(name), 0.0, 1
        ).play(0, seed)
        if [(s, str(a)) for s, a, _ in game1.record_entries()] != [
            (s, str(a)) for s, a, _ in game2.record_entries()
        ]:
            report.fail(f"the same seed gave two different games of {name}")
        elif fingerprint(game1) != fingerprint(game2) or (host1 and host2 and host1 != host2):
            report.fail(f"the same seed and actions gave different states or events in {name}")
    if strict:
        report.raise_if_failed()
    return report


def check_game(
    name: str,
    *,
    players: int | None = None,
    rules: Sequence[str] = (),
    without: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    games: int = 20,
    seed: int = 0,
    sample: float = 0.25,
    full_every: int = 1,
    checks: Iterable[str] = ALL_CHECKS,
    strict: bool = True,
    samples_per_game: int = 12,
) -> Report:
    """Run every conformance check on *games* seeded random games of one configuration.

    :param name: The game (any installed or registered game).
    :param players: Seats per game; default the game's minimum.
    :param rules: House rules to add.
    :param without: Default rules to switch off.
    :param options: Options for :func:`cardcore.new_game`.
    :param games: How many games to play.
    :param seed: The seed of the whole check (game *i* gets its own large seed).
    :param sample: Share of actions after which the costly checks run (views,
        twins, hostile inputs, clones).
    :param full_every: Run the costly checks on every n-th game only (long runs);
        conservation, bounds and the agents' type checks run on every game.
    :param samples_per_game: At most this many sampled points per game get the costly checks.
    :param checks: A subset of :data:`ALL_CHECKS`.
    :param strict: Raise on failure; with ``False`` the report only counts.
    :returns: The :class:`Report`.
    :raises AssertionError: If a check failed (and *strict*).
    """
    return _run(
        name, checks, players=players, rules=rules, without=without, options=options, games=games,
        seed=seed, sample=sample, full_every=full_every, strict=strict, samples_per_game=samples_per_game,
    )  # fmt: skip


def _single(check: str, doc: str) -> Callable[..., Report]:
    def run(
        name: str,
        *,
        players: int | None = None,
        rules: Sequence[str] = (),
        without: Sequence[str] = (),
        options: Mapping[str, Any] | None = None,
        games: int = 10,
        seed: int = 0,
        sample: float = 0.5,
        strict: bool = True,
    ) -> Report:
        return _run(
            name, _NEEDS[check], players=players, rules=rules, without=without, options=options,
            games=games, seed=seed, sample=sample, full_every=1, strict=strict,
        )  # fmt: skip

    run.__name__ = run.__qualname__ = f"check_{check}"
    run.__doc__ = doc + _COMMON
    return run


_COMMON = """

    Takes the keyword arguments of :func:`check_game` (not *checks*, *full_every*).

    :returns: The :class:`Report`.
    :raises AssertionError: If the check failed (and *strict*).
    """

_NEEDS: dict[str, frozenset[str]] = {
    "bounds": frozenset({"bound"}),
    "conservation": frozenset({"conservation"}),
    "views": frozenset({"views", "events", "twins"}),
    "agents": frozenset({"agents"}),
    "rejections": frozenset({"rejections"}),
    "clone": frozenset({"clone"}),
    "persistence": frozenset({"persistence"}),
    "determinism": frozenset({"determinism"}),
}

check_bounds = _single("bounds", "Check that random playouts end within ``logic.action_bound``.")
check_conservation = _single(
    "conservation",
    "Check that after every action the cards on the table are exactly the game's deck.",
)
check_views = _single(
    "views",
    "Check views and per-seat events for leaks: only known cards, no seed, and twins that differ"
    " only in hidden cards look the same to the seat.",
)
check_agents = _single(
    "agents", "Check that agents are only ever handed their own seat's view and legal actions."
)
check_rejections = _single(
    "rejections",
    "Check that illegal, out-of-turn, wrong-seat, malformed and unknown-card inputs raise the"
    " documented errors and change nothing.",
)
check_clone = _single(
    "clone", "Check that :meth:`cardcore.Game.clone` is independent of its original."
)
check_persistence = _single(
    "persistence",
    "Check that save -> load and record -> replay rebuild the same states and events.",
)
check_determinism = _single(
    "determinism", "Check that the same seed gives the same game and events."
)
