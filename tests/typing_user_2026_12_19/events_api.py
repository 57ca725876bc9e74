"""Event subscribers: every core event type, per-seat streams, a game's own event."""

from __future__ import annotations

import logging
from typing import ClassVar

import cardcore
from cardcore import (
    ALL,
    SPECTATOR,
    ActionApplied,
    Card,
    CardDiscarded,
    CardDrawn,
    CardMoved,
    CardRevealed,
    CardsDealt,
    DeliveryFailure,
    Event,
    Game,
    GameEnded,
    GameStarted,
    PaymentsMade,
    RoundScored,
    Shuffled,
    Subscription,
    TurnPassed,
)

log = logging.getLogger(__name__)


class Tally:
    """Typed handlers, one per core event type, reading each event's fields."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def started(self, event: GameStarted) -> None:
        self.lines.append(f"{event.game}: {', '.join(event.players)}")

    def applied(self, event: ActionApplied) -> None:
        at = "-" if event.at is None else f"{event.at:.2f}"
        self.lines.append(f"v{event.version} seat {event.seat}: {event.action} at {at}")

    def ended(self, event: GameEnded) -> None:
        total: float = sum(event.scores)
        self.lines.append(f"{event.reason}: {list(event.winners)} {total} {event.payouts}")

    def dealt(self, event: CardsDealt) -> None:
        self.lines.append(f"dealt {sum(event.counts)}")

    def shuffled(self, event: Shuffled) -> None:
        self.lines.append(f"shuffled {event.zone} ({event.count})")

    def drawn(self, event: CardDrawn) -> None:
        card: Card | None = event.card
        self.lines.append(f"{event.seat} drew {card or '?'} from {event.source}")

    def discarded(self, event: CardDiscarded) -> None:
        self.lines.append(f"{event.seat} discarded {event.card.label}")

    def revealed(self, event: CardRevealed) -> None:
        self.lines.append(f"{event.zone}[{event.index}] = {event.card}")

    def moved(self, event: CardMoved) -> None:
        self.lines.append(f"{event.src} -> {event.dst}: {event.card}")

    def turn(self, event: TurnPassed) -> None:
        self.lines.append(f"turn {event.seat}")

    def scored(self, event: RoundScored) -> None:
        self.lines.append(f"round {event.round}: {event.scores} {event.totals}")

    def paid(self, event: PaymentsMade) -> None:
        self.lines.append(f"{event.reason}: {event.amounts} {event.totals}")

    def any_event(self, event: Event) -> None:
        self.lines.append(f"{event.slug} {event.to_json()}")


def subscribe_all(game: Game, tally: Tally, seat: int | str | None = None) -> list[Subscription]:
    """Subscribe each handler to its event type (``seat=None``: the host's full stream)."""
    bus = game.events
    subs = [
        bus.subscribe(GameStarted, tally.started, seat),
        bus.subscribe(ActionApplied, tally.applied, seat),
        bus.subscribe(GameEnded, tally.ended, seat),
        bus.subscribe(CardsDealt, tally.dealt, seat),
        bus.subscribe(Shuffled, tally.shuffled, seat),
        bus.subscribe(CardDrawn, tally.drawn, seat),
        bus.subscribe(CardDiscarded, tally.discarded, seat),
        bus.subscribe(CardRevealed, tally.revealed, seat),
        bus.subscribe(CardMoved, tally.moved, seat),
        bus.subscribe(TurnPassed, tally.turn, seat),
        bus.subscribe(RoundScored, tally.scored, seat),
        bus.subscribe(PaymentsMade, tally.paid, seat, drop_on_error=True),
    ]
    return subs


def per_seat_streams() -> dict[str, list[CardDrawn]]:
    """The events page's example: host, Ann and Bob each see their copy of a draw."""
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
    seen: dict[str, list[CardDrawn]] = {"host": [], "Ann": [], "Bob": []}
    game.events.subscribe(CardDrawn, seen["host"].append)
    game.events.subscribe(CardDrawn, seen["Ann"].append, seat=0)
    game.events.subscribe(CardDrawn, seen["Bob"].append, seat=1)
    for seat, text in [(0, "flip 0"), (0, "flip 4"), (1, "flip 1"), (1, "flip 5"), (0, "draw")]:
        game.act(seat, text)
    assert [e.card is None for e in seen["host"] + seen["Ann"] + seen["Bob"]] == [
        False,
        False,
        True,
    ]
    return seen


def report(failure: DeliveryFailure) -> None:
    """A host's on_error: log which handler failed on which event."""
    log.warning(
        "delivery of %s failed: %r (dropped: %s)",
        failure.event.slug,
        failure.error,
        failure.dropped,
    )


def from_first_card() -> list[Event]:
    """Subscribers passed to new_game get every event from the first card."""
    got: list[Event] = []
    tally = Tally()
    game = cardcore.new_game(
        "golf",
        ["Ann", "Bob"],
        seed=7,
        subscribers=[
            (Event, got.append, 1),
            (CardsDealt, tally.dealt),
            (Event, tally.any_event, SPECTATOR),
        ],
    )
    game.events.on_error = report
    sub = game.events.subscribe(Event, tally.any_event, seat=SPECTATOR)
    game.events.unsubscribe(sub)
    assert [event.slug for event in got] == [
        "game-started",
        "cards-dealt",
        "card-revealed",
        "turn-passed",
    ]
    return got


class CardPlaced(Event):
    """Seat *seat* put *card* face down at position *pos* of its grid (events page)."""

    slug: ClassVar[str] = "docs-card-placed"
    secret: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    pos: int
    card: Card | None
    visible_to: int = ALL


def own_event() -> CardPlaced:
    """Build, redact and serialise a game's own event."""
    event = CardPlaced(0, 3, Card.parse("7H"), visible_to=1 << 0)
    hidden: CardPlaced = event.for_seat(1)
    assert hidden.card is None and event.pos == 3
    assert event.for_seat(SPECTATOR).fields()["visible_to"] == 1
    assert event.to_json()["event"] == "docs-card-placed"
    return event
