"""Tonk's state: one session's table (mutable, slotted; only :class:`~cardcore_tonk.logic.TonkLogic` changes it).

Zones (ids are constants here, so the hot path indexes lists directly):
``stock`` (face down), ``discard`` (only the top shows), ``hand.<seat>`` (the
owner only) and ``spreads`` (face up: every spread on the table, one after the
other in the order laid; spread *k* is the slice given by the sizes in
:attr:`TonkState.melds`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple

from cardcore import Card, GameState, Ledger, Zones
from cardcore.dealing import gather
from cardcore_tonk.melds import Meld

__all__ = [
    "BETWEEN",
    "DISCARD",
    "HAND0",
    "OVER",
    "PHASES",
    "PLAY",
    "START",
    "STOCK",
    "PastHand",
    "TonkState",
]

START = 0
"""Phase: the turn has begun; the player may drop, draw or take."""
PLAY = 1
"""Phase: the player has drawn; spreads, hits, then a discard."""
OVER = 2
"""Phase: the session is over."""
BETWEEN = 3
"""Phase: a hand has ended; the next dealer is to ``deal`` (TONK-SESSION-3)."""
PHASES = ("start", "play", "over", "between")
"""The phases' names, by phase number (views and positions use the names)."""

STOCK = 0
"""Zone id of the stock."""
DISCARD = 1
"""Zone id of the discard pile."""
HAND0 = 2
"""Zone id of seat 0's hand; seat *s* holds ``HAND0 + s``, and ``HAND0 + players`` is the spreads."""


class PastHand(NamedTuple):
    """One finished hand, as :meth:`~cardcore_tonk.logic.TonkLogic.history` reports it.

    :param hand: Its number, from 1.
    :param dealer: The seat that dealt it.
    :param reason: How it ended (``"tonk-out"``, ``"out"``, ``"drop-won"``, ...).
    :param seat: The seat that went out or dropped, or ``None``.
    :param amounts: What each seat received (negative: paid), after ``score_round``.
    :param balances: The session's running balances after it.
    :param shown: Per seat, its cards if its hand was shown (TONK-VIEW-1; a deal judge
        names the hands it shows) or ``None``; ``None`` when no hand was shown.
    """

    hand: int
    dealer: int
    reason: str
    seat: int | None
    amounts: tuple[int, ...]
    balances: tuple[int, ...]
    shown: tuple[tuple[Card, ...] | None, ...] | None


class TonkState(GameState):
    """The table of one Tonk session.

    Public facts the house rules read: :attr:`was_hit`, :attr:`quiet_turns`,
    :attr:`spread_made`, :attr:`turn`, :attr:`phase`.
    """

    __slots__ = (
        "cut",
        "dealer",
        "hand_no",
        "hands",
        "last_deal",
        "last_shown",
        "ledger",
        "melds",
        "next_deals",
        "owners",
        "past",
        "phase",
        "quiet_turns",
        "spread_made",
        "stake",
        "taken",
        "targets",
        "touched",
        "turn",
        "was_hit",
    )
    _mutable: ClassVar[tuple[str, ...] | None] = (
        "zones",
        "melds",
        "owners",
        "targets",
        "ledger",
        "past",
    )

    def __init__(self, players: int, options: Mapping[str, Any], zones: Zones) -> None:
        super().__init__(players, options, zones)
        self.stake: int = options["stake"]
        """The stake S."""
        self.hands: int = options["hands"]
        """Hands in the session."""
        self.hand_no = 0
        """Hands finished so far (the current hand is number ``hand_no + 1``)."""
        self.dealer = 0
        """The dealer of the current hand."""
        self.turn = 0
        """The seat whose turn it is (between hands: the next dealer)."""
        self.phase = START
        """:data:`START`, :data:`PLAY`, :data:`BETWEEN` or :data:`OVER`."""
        self.taken = -1
        """Index of the discard taken this turn, or -1 (TONK-TURN-4)."""
        self.melds: list[Meld] = []
        """The spreads on the table, by number - 1."""
        self.owners: list[int] = []
        """The seat that laid each spread."""
        self.targets: list[tuple[int, ...]] = []
        """The card indices that may hit each spread."""
        self.spread_made = False
        """Whether the player to act laid a new spread this turn."""
        self.touched = False
        """Whether the player to act laid a spread or hit this turn."""
        self.quiet_turns = 0
        """Completed turns in a row played from the discard pile with the stock out, without a
        spread or a hit (a house rule may end the hand after a quiet round)."""
        self.was_hit = 0
        """Seat mask: seats one of whose spreads another player hit since their last turn began."""
        self.ledger = Ledger(players)
        """Running balances of the session."""
        self.past: list[PastHand] = []
        """The finished hands, oldest first (served by ``history``, never by the view)."""
        self.cut: tuple[tuple[str | None, ...], ...] = ()
        """The cut for the first dealer, round by round (TONK-DEALER-1); empty without a cut."""
        self.next_deals: tuple[tuple[Card, ...], ...] = ()
        """Stacked tops of the coming deals, top first (from a position; see :mod:`cardcore_tonk.position`)."""
        self.last_deal: tuple[int, int] | None = None
        """(hand number, dealer) of the last deal of a session that ended after it, read from a
        position (which holds no :attr:`past`); ``None`` otherwise."""
        self.last_shown: tuple[int, ...] | None = None
        """The seats whose hands the last hand's end turned face up, read from a position
        between hands or at the end (which holds no :attr:`past`); ``None`` otherwise."""

    def gather(self) -> None:
        """Collect every card into the stock and shuffle it for the next hand (TONK-SESSION-2).

        A stacked deal (:attr:`next_deals`) then goes on top, as ``deck=`` does.
        """
        gather(self, STOCK)
        stock = self.zones.cards[STOCK]
        if self.next_deals:
            top = self.next_deals[0]
            self.next_deals = self.next_deals[1:]
            wanted = {id(c) for c in top}
            rest = [c for c in stock if id(c) not in wanted]
            rest.extend(reversed(top))
            stock[:] = rest
        self.melds = []
        self.owners = []
        self.targets = []
        self.taken = -1
        self.spread_made = self.touched = False
        self.quiet_turns = 0
        self.was_hit = 0

    def snapshot(self) -> dict[str, Any]:
        """Every slot as JSON-ready data, ``last_deal`` and ``last_shown`` only when a position
        set them (so the saves written before they existed still match their replayed state)."""
        out = super().snapshot()
        if self.last_deal is None:
            del out["last_deal"]
        if self.last_shown is None:
            del out["last_shown"]
        return out

    def clone(self) -> TonkState:
        """Return an independent copy (a hand-written fast path of :meth:`GameState.clone`)."""
        new = object.__new__(TonkState)
        new.players = self.players
        new.options = self.options
        new.zones = self.zones.clone()
        new.to_act = self.to_act
        new.is_over = self.is_over
        new.result = self.result
        new.seed = self.seed
        new.draws = self.draws
        new.chance = self.chance
        new.stake = self.stake
        new.hands = self.hands
        new.hand_no = self.hand_no
        new.dealer = self.dealer
        new.turn = self.turn
        new.phase = self.phase
        new.taken = self.taken
        new.melds = self.melds[:]
        new.owners = self.owners[:]
        new.targets = self.targets[:]
        new.spread_made = self.spread_made
        new.touched = self.touched
        new.quiet_turns = self.quiet_turns
        new.was_hit = self.was_hit
        new.ledger = self.ledger.clone()
        new.past = self.past[:]
        new.cut = self.cut
        new.next_deals = self.next_deals
        new.last_deal = self.last_deal
        new.last_shown = self.last_shown
        return new
