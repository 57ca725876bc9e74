"""The checker of one configuration: plays seeded games and runs the enabled checks on them."""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cardcore.actions import Action
from cardcore.agents import play, run_realtime
from cardcore.errors import CardcoreError
from cardcore.events import SPECTATOR, Event, Shuffled
from cardcore.game import Game
from cardcore.plugins import game_info
from cardcore.setup import Listener, new_game
from cardcore.testing._agents import SpyAgent
from cardcore.testing._contract import CALLER_ERRORS, Contract, explain
from cardcore.testing._faults import RaisingSubscriber, quiet_delivery_log
from cardcore.testing._probes import (
    check_clone,
    check_persistence,
    check_position,
    check_reads,
    check_rejections,
    check_twin,
    has_positions,
)
from cardcore.testing._report import Abort, Report
from cardcore.testing._structure import view_problems
from cardcore.testing._util import (
    Fingerprint,
    card_tokens,
    conservation_problem,
    contains_seed,
    fingerprint,
    game_seed,
    game_words,
    known_by,
    known_cards,
    legal_words,
    notation_words,
    seed_in_text,
    view_leaks,
)

__all__ = ["Checker", "Known"]

Known = dict[int | None, set[str]]
"""Per seat (``None``: the spectator), every card text it has legitimately seen so far."""


class Checker:
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
        contract: Contract | None = None,
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
        self.contract = contract or Contract(report, self.realtime, "notation" in checks)
        self.sampled = 0
        """Sampled points reached, where the costly checks ran (0: they tested nothing)."""

    def new(self, seed: int, subscribers: Sequence[Listener] = ()) -> Game:
        return new_game(
            self.name,
            self.players,
            rules=self.rules,
            without=self.without,
            options=self.options,
            seed=seed,
            subscribers=subscribers,
        )

    def play(self, index: int, base_seed: int) -> tuple[Game, list[dict[str, Any]]] | None:
        """Play game *index* with every enabled check; return it and its host event stream.

        ``None`` when the game did not start (the failure is reported).
        """
        report = self.report
        checks = self.checks
        seed = game_seed(base_seed, index)
        full = index % self.full_every == 0
        n = self.players
        host: list[dict[str, Any]] = []
        seat_events: dict[int | str, list[Event]] = {}
        watch_events = full and "events" in checks
        # what each seat saw, tracked for the events and for histories (a "views" check)
        learn = full and ("events" in checks or "views" in checks)
        listeners: list[Listener] = []  # attached before the first card: every event is checked
        if full and ("persistence" in checks or "determinism" in checks or "events" in checks):
            listeners.append((Event, lambda e: host.append(e.to_json())))
        raising = RaisingSubscriber()  # a dropped connection: costs nobody an event
        if watch_events:
            listeners.append((Event, raising))
        if learn:
            for s in [*range(n), SPECTATOR]:
                box: list[Event] = []
                seat_events[s] = box
                listeners.append((Event, box.append, s))
        if watch_events:
            listeners.append((Event, raising, 0))
        contract = self.contract
        try:
            with quiet_delivery_log():
                game = self.new(seed, listeners)
        except CALLER_ERRORS:
            raise
        except Exception as exc:
            report.games += 1
            report.raw += not isinstance(exc, CardcoreError)
            report.fail(f"game {index} (seed {seed}) did not start: {explain(exc)}")
            return None
        raising.raised = 0  # the deal's failures went to the log (on_error is set now)
        game.events.on_error = raising.reported.append
        dealt = len(host)  # the first deal's events, which a replayed record does not publish
        rng = random.Random(seed ^ 0x5EED)
        pool: dict[Action, None] = {}  # an ordered set: the same hostile inputs in every process
        agents = [
            SpyAgent(
                s, seed + s, report, look=full, pool=pool, secret=seed, check="agents" in checks
            )
            for s in range(n)
        ]
        deck_ids: Counter[int] | None = None
        ever: Known = {}
        words: set[str] = set()  # the card-like words of the game's notation (bids) so far
        rounds = [0]
        pending: list[tuple[Game, Fingerprint]] = []
        midpoint = rng.randrange(1, 40)
        budget = [self.max_samples]
        late = random.Random(seed ^ 0x1A7E)  # one point in each doubling span from action 64
        due = [0, 64 + late.randrange(64)]  # (actions so far, the next such point)
        draws = [game.state.draws]
        positions = "positions" in checks and has_positions(game)

        def after(g: Game, action: Action, *_: Any) -> None:
            report.actions += 1
            if not contract.after_action(g, action):
                raise Abort
            if "conservation" in checks:
                problem = conservation_problem(g, deck_ids)
                if problem is not None:
                    report.cards_lost += 1
                    report.fail(f"after {str(action)!r}: {problem}")
                    raise Abort
            for c, fp in pending:
                if fingerprint(c) != fp:
                    report.fail(
                        f"a clone changed when its original applied {str(action)!r} (version {g.version})"
                    )
            pending.clear()
            if learn and g.version <= self.event_actions:
                words.update(notation_words(action))  # a bid "2H": the game's word, no card
                self._learn(g, ever, seat_events, rounds, draws)
                if watch_events:
                    self.check_events(seat_events, ever, seed, words)
                else:  # only learned from
                    for box in seat_events.values():
                        box.clear()
            elif learn:  # past event_actions: nothing reads them (a long game's memory)
                for box in seat_events.values():
                    box.clear()
            due[0] += 1
            if not full:
                return
            chosen = budget[0] > 0 and rng.random() < self.sample
            late_point = due[0] == due[1] and self.sample and self.max_samples
            if late_point:  # a long game's later phases are checked too
                span = 1 << due[0].bit_length()
                due[1] = span + late.randrange(span)
            elif not chosen:
                return
            budget[0] -= chosen
            self.sampled += 1
            if "views" in checks or "twins" in checks or "clone" in checks:
                check_reads(report, g)  # first: a read that writes confuses the checks below
            if "views" in checks:
                tracked = learn and g.version <= self.event_actions
                self.check_views(g, ever if tracked else None, seed, words if tracked else None)
            if "twins" in checks:
                check_twin(report, g, rng)
            if "rejections" in checks:
                check_rejections(report, g, rng, pool, host, self.realtime)
            if contract.notation:
                contract.check_notation(g)
            if "clone" in checks:
                check_clone(report, g, rng, pending)
            if positions:
                check_position(report, g, rng.getrandbits(40))
            if "persistence" in checks and g.version == midpoint:
                check_persistence(report, g, host[dealt:])

        try:
            deck_ids = Counter(map(id, game.logic.deck(n, game.options)))
            problem = conservation_problem(game, deck_ids) if "conservation" in checks else None
            if problem is not None:  # the dealt state too (a deal may end the game: a natural)
                report.cards_lost += 1
                report.fail(f"after the deal: {problem}")
                raise Abort
            if learn:
                for s2 in [*range(n), None]:
                    ever[s2] = known_cards(game.state, s2)
                _reshuffled_deal(game, ever, seat_events)
                if watch_events:
                    self.check_events(seat_events, ever, seed, words)
                else:
                    for box in seat_events.values():
                        box.clear()
                if "views" in checks:
                    self.check_views(game, ever, seed, words)
            with quiet_delivery_log():
                if self.realtime:
                    run_realtime(game, agents, seed=seed, on_action=after)
                else:
                    play(game, agents, on_action=after)
        except Abort:
            report.games += 1
            return game, host
        except Exception as exc:  # raw: an exception escaped the public API
            report.games += 1
            report.stopped += 1
            report.raw += not isinstance(exc, CardcoreError)
            report.fail(f"game {index} (seed {seed}) raised {explain(exc)}")
            contract.diagnose(game)
            return game, host
        report.games += 1
        problem = raising.problem() if watch_events else None
        if problem is not None:
            report.fail(f"game {index} (seed {seed}) with subscribers that raise: {problem}")
        result = game.result
        if result is not None and result.reason == "truncated" and "bound" in checks:
            report.truncated += 1
            bound = game.logic.action_bound(n, game.options)
            report.fail(
                f"game {index} (seed {seed}) did not end within its declared bound of {bound} actions"
            )
        if full and "rejections" in checks:
            with contextlib.suppress(Abort):  # (the failure is reported: the game is done)
                check_rejections(
                    report, game, rng, pool, host, self.realtime
                )  # a finished game accepts nothing
        if full and "persistence" in checks:
            check_persistence(report, game, host[dealt:])
        return game, host

    def _learn(
        self,
        game: Game,
        ever: Known,
        boxes: dict[int | str, list[Event]],
        rounds: list[int],
        draws: list[int],
    ) -> None:
        """Add what each seat may now know to *ever*.

        A new deal or reshuffle (a chance event inside the action) may show
        cards and mix them away in one action: then the seat's own events of
        that action and the history entries it added are taken as shown (the
        documented limit of the event and history checks).
        """
        redeal = game.state.draws != draws[0]
        draws[0] = game.state.draws
        n = len(game.players)
        now = known_by(game.state, [*range(n), None])
        for seat in [*range(n), None]:
            ever[seat] |= now[seat]
            if redeal:
                ever[seat] |= card_tokens(
                    [e.to_json() for e in boxes[SPECTATOR if seat is None else seat]]
                )
                ever[seat] |= card_tokens(game.history(seat, since=rounds[0]))
        if redeal:
            rounds[0] = len(game.history(None))

    # the checks ----------------------------------------------------------------------------

    def check_views(
        self, game: Game, ever: Known | None, seed: int, words: set[str] | None = None
    ) -> None:
        """Check every seat's view (table, zones) and, when *ever* is tracked, its history."""
        report = self.report
        state = game.state
        # not tracked action by action: read from the record; and the words of the actions
        # listed now (a table may name the cheapest bid still open)
        words = game_words(game) if words is None else words | legal_words(game)
        for seat in [*range(len(game.players)), None]:
            who = "the spectator" if seat is None else f"seat {seat}"
            view = game.view(seat)
            report.views += 1
            now = known_cards(state, seat)
            allowed = now if ever is None else ever[seat] | now
            extra = view_leaks(game, view, allowed, words)
            if extra:
                report.leaks += 1
                report.fail(
                    f"view of {who} at version {game.version} shows cards it does not know: {sorted(extra)!r}"
                )
            for problem in view_problems(game, view, seat):
                report.fail(f"at version {game.version}: {problem}")
            past = game.history(seat)
            if ever is not None:
                extra = card_tokens(past) - allowed - words
                if extra:
                    report.leaks += 1
                    report.fail(
                        f"history of {who} at version {game.version} shows cards it never saw: {sorted(extra)!r}"
                    )
            if past[1:] != game.history(seat, since=1):
                report.fail(f"history({seat}, since=1) is not history({seat})[1:]")
            for what, data in (("view", view), ("history", past)):
                where = contains_seed(data, seed)
                if where is not None:
                    report.leaks += 1
                    report.fail(f"{what} of {who} carries the seed at {where}")
                try:
                    json.dumps(data)
                except (TypeError, ValueError) as exc:
                    report.fail(f"{what} of {who} is not JSON-ready: {exc}")

    def check_events(
        self, boxes: dict[int | str, list[Event]], ever: Known, seed: int, words: set[str]
    ) -> None:
        """Check the per-seat event streams since the last call, then empty them."""
        report = self.report
        for key, box in boxes.items():
            if not box:
                continue
            seat = None if key == SPECTATOR else key
            allowed = ever[seat if isinstance(seat, int) else None] | words
            text = json.dumps([e.to_json() for e in box], default=str)
            report.views += 1
            extra = card_tokens(text) - allowed
            if extra:
                report.leaks += 1
                slugs = [e.slug for e in box]
                culprits = [
                    (e.slug, part)
                    for e in box
                    if card_tokens(part := json.dumps(e.to_json(), default=str)) & extra
                ]
                shown_in = "; ".join(f"{slug} {part[:160]}" for slug, part in culprits[:3])
                hint = (
                    " (an action's notation is public: name a position, not a hidden card)"
                    if any(slug == "action-applied" for slug, _ in culprits)
                    else ""
                )
                report.fail(
                    f"events {slugs!r} sent to seat {key} show cards it does not know:"
                    f" {sorted(extra)!r}, in {shown_in}{hint}"
                )
            where = seed_in_text(text, seed)
            if where is not None:
                report.leaks += 1
                report.fail(f"events sent to seat {key} carry the seed ({where})")
            box.clear()


def _reshuffled_deal(game: Game, ever: Known, boxes: dict[int | str, list[Event]]) -> None:
    """A deal that showed cards, then shuffled them away (a chance event of the game's own,
    ``state.draws``, and a :class:`~cardcore.Shuffled` after them): what each seat's events
    showed before the last ``Shuffled`` and now lies in a pile it names is taken as shown,
    the documented limit for such actions; a card still in sight is checked as any other."""
    if not game.state.draws:
        return
    zones = game.state.zones
    for seat in [*range(len(game.players)), None]:
        box = boxes[SPECTATOR if seat is None else seat]
        last = max((i for i, e in enumerate(box) if type(e) is Shuffled), default=0)
        if not last:
            continue
        mixed: set[str] = set()  # the cards now in the piles the deal shuffled
        for event in box:
            if type(event) is Shuffled and event.zone in zones.layout.index:
                mixed.update(map(str, zones.cards[zones.layout.index[event.zone]]))
        ever[seat] |= card_tokens([e.to_json() for e in box[:last]]) & mixed
