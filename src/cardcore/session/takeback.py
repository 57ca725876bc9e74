"""Takebacks: when the last action of a turn-based game may be taken back.

A seat may ask to take back the last action if it made it; every other seat
must agree. The session then rebuilds the game from its record without that
action (the same seed, so every shuffle comes out the same), and every seat
gets a fresh view.

**The rule.** A takeback is allowed only while no seat has learned anything
from the action. Precisely: let *before* be the game rebuilt without the
action and *after* the game with it. For every seat *s*, and for a spectator,
let *K(s)* be the multiset of cards *s* knows anywhere on the table (every
card of every pile that :meth:`cardcore.Zones.knows` says *s* knows: it may
see it, or saw it where it lies). The takeback is refused if, for some *s*,

* *K_after(s)* holds a card *K_before(s)* does not (a card drawn, turned up,
  discarded face up from a hand, shown at the end of a round ...), or
* an event of the action, in *s*'s redacted copy, names a card that is not in
  *K_before(s)* (a card shown and hidden again within the action; a card several
  events name counts once; card words are read in their notation, ``7H``, so the
  word "as" in a note is no ace), or
* an event turns up a card (a :class:`~cardcore.CardRevealed`, or a game's own kind
  of it) unless, before, *s* knew that very card at that place (the place is read
  before the action, a negative index from the top; a place the judge cannot find,
  as a game's own pile name, counts as unknown): with several decks, another copy
  *s* knows elsewhere does not make it known, or
* the action drew on chance (:meth:`cardcore.GameState.rng`: a stock rebuilt and
  shuffled, a new deal) and an event names a card to *s*: where it came from was an
  order nobody knew, and the same seed would deal it again after a takeback.

So drawing from a face-down stock, revealing or discarding a card from a hand
is final; taking the face-up discard, or moving only cards every seat already
knew, may be taken back. The game must also be turn-based and not over.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from cardcore.cards import Card
from cardcore.events import SPECTATOR, ActionApplied, CardRevealed, Event
from cardcore.game import Game
from cardcore.session._flow import Conn, Flow
from cardcore.session.patch import card_words
from cardcore.session.protocol import ProtocolError

__all__ = ["TakebackFlow", "known_cards", "learned", "probe"]


def known_cards(game: Game, seat: int | None) -> Counter[str]:
    """The multiset *K(seat)* of cards *seat* knows on the table (``None``: a spectator)."""
    zones = game.state.zones
    knows = zones.knows
    out: Counter[str] = Counter()
    for z, pile in enumerate(zones.cards):
        for i, card in enumerate(pile):
            if knows(z, i, seat):
                out[str(card)] += 1
    return out


def learned(before: Game, after: Game, events: Sequence[Event]) -> dict[int | None, list[str]]:
    """Per seat (and ``None``, a spectator), the cards it learned from the action that turned
    *before* into *after*, whose full events were *events* (empty lists: nothing learned)."""
    out: dict[int | None, list[str]] = {}
    seats: list[int | None] = [*range(len(before.players)), None]
    chance = getattr(after.state, "draws", 0) != getattr(before.state, "draws", 0)
    for seat in seats:
        old = known_cards(before, seat)
        new = known_cards(after, seat)
        gained = new - old
        shown: Counter[str] = Counter()  # the cards the events name, each card once
        fresh: Counter[str] = Counter()  # the cards shown from places the seat did not know
        for event in events:
            copy = event.for_seat(SPECTATOR if seat is None else seat)
            named = Counter(w for w in card_words(copy.to_json()) if _NOTATION[w])
            shown |= named  # (a move and its note: one card)
            if isinstance(copy, CardRevealed):
                if copy.card is not None and not _known_there(before, copy, seat):
                    fresh[str(copy.card)] += 1
            elif chance and type(copy) is not ActionApplied:
                fresh |= named
        gained.update(shown - old - gained)
        gained |= fresh
        out[seat] = sorted(gained.elements())
    return out


class _Notation(dict[str, bool]):
    """Whether a word (one :func:`card_words` gives) is a card in its own notation, ``7H``
    (not ``7h``, nor the word "as"): the words of an event that name a card."""

    def __missing__(self, word: str) -> bool:
        canonical = str(Card.parse(word)) == word
        if len(self) < 4096:
            self[word] = canonical
        return canonical


_NOTATION = _Notation()


def _known_there(before: Game, event: CardRevealed, seat: int | None) -> bool:
    """Whether, before the action, *seat* knew the card *event* turns up at its place."""
    zones = before.state.zones
    z = zones.layout.index.get(event.zone) if type(event.zone) is str else None
    i = event.index
    if z is None or type(i) is not int:
        return False  # (a place the judge cannot find: unknown, so learned)
    pile = zones.cards[z]
    if i < 0:
        i += len(pile)
    return 0 <= i < len(pile) and pile[i] == event.card and zones.knows(z, i, seat)


def probe(before: Game, seat: int, text: str, at: float | None) -> tuple[Game, list[Event]]:
    """Apply the action (*seat*, *text*) to a clone of *before*; return the clone and its full events."""
    after = before.clone()
    events: list[Event] = []
    collect: Callable[[Any], object] = events.append
    after.events.subscribe(Event, collect)
    after.act(seat, text, at=at)
    return after, events


class TakebackFlow(Flow):
    """A session's takebacks: requests, answers, and the swap (see the module docstring)."""

    def _takeback(self, c: Conn, op: str, now: float) -> None:
        seat = self._seat_of(c, "take actions back")
        pending = self.takeback
        if op == "request":
            self._request_takeback(seat, now)
            return
        if pending is None:
            raise ProtocolError("takeback-refused", "no takeback is pending")
        if seat == pending["by"]:
            raise ProtocolError(
                "takeback-refused", "the seat that asked cannot answer its own request"
            )
        if op == "decline":
            self._takeback_end("declined", seat, f"seat {seat} declined")
            return
        if seat in pending["accepted"]:  # nothing new to tell anybody
            raise ProtocolError("takeback-refused", f"seat {seat} has accepted this takeback already")
        pending["accepted"].append(seat)
        self._dirty = True
        if len(pending["accepted"]) + 1 >= self.players:
            self._grant(now)
        else:
            self._emit_takeback("accepted", seat)

    def _request_takeback(self, seat: int, now: float) -> None:
        def refuse(why: str) -> ProtocolError:
            return ProtocolError("takeback-refused", why)

        if not self.config.takebacks:
            raise refuse("this session allows no takebacks")
        if self.realtime:
            raise refuse("takebacks are for turn-based games")
        game = self._playing()
        if self.takeback is not None:
            raise refuse("a takeback is pending already")
        last_seat, text, judged = self._judge(game)
        if last_seat is None:
            raise refuse("there is no action to take back")
        if last_seat != seat:
            raise refuse(
                f"only the seat that made the last action (seat {last_seat}) may ask to take it back"
            )
        if isinstance(judged, str):
            raise refuse(judged)
        before: Game = judged
        self.takeback = {
            "by": seat,
            "version": game.version,
            "action": text,
            "accepted": [],
            "deadline": now + self.config.takeback_timeout,
        }
        self.takeback_prev = before
        self._dirty = True
        if self.players == 1:
            self._grant(now)
        else:
            self._emit_takeback("requested", seat)

    def _judge(self, game: Game) -> tuple[int | None, str, Game | str]:
        """The last action's seat and text, and why it cannot be taken back or the game without it.

        Worked out once per game version and kept: a request asked again (refused, or
        declined and asked again) costs nothing. The verdict is judged on the copy of the
        game taken just before the action, not on a replay of the record from the deal;
        only a takeback that is allowed replays the record (once), to swap it in.
        """
        version = game.version
        kept = self.verdict
        if kept is not None and kept[0] is game and kept[1] == version:
            return kept[2], kept[3], kept[4]
        entries = game.record_entries()
        if not entries:
            return None, "", ""
        last_seat, last, at = entries[-1]
        text = str(last)

        def rebuilt() -> Game:
            return self._rebuild([(s, str(a), t) for s, a, t in entries[:-1]])

        copy = self.before
        fresh = copy is not None and copy[0] is game and copy[1] == version - 1
        prior = copy[2] if copy is not None and fresh else rebuilt()
        after, events = probe(prior, last_seat, text, at)
        told = [s for s, cards in learned(prior, after, events).items() if cards]
        judged: Game | str
        if told:
            who = ", ".join("a spectator" if s is None else f"seat {s}" for s in told)
            judged = f"{text!r} revealed a card to {who}; what a seat has seen cannot be taken back"
        else:  # the copy has no listeners: swap in a game rebuilt from the record
            judged = rebuilt() if fresh else prior
        self.verdict = (game, version, last_seat, text, judged)
        return last_seat, text, judged

    def _rebuild(self, rows: Sequence[tuple[int, str, float | None]]) -> Game:
        fair = self.fair
        seed = fair.seed if fair is not None else (self.seed or 0)
        game = self.setup.build(seed, rows, self._listeners(), chance=self.chance)
        self._clear_events()
        return game

    def _emit_takeback(self, op: str, seat: int) -> None:
        pending = self.takeback
        if pending is None:  # pragma: no cover
            return
        for s, stream in enumerate(self.streams):
            told = self.takeback_for(s) or pending  # (its text hidden from a seat not shown it)
            self._emit(
                stream,
                {
                    "type": "takeback",
                    "n": 0,
                    "op": op,
                    "seat": seat,
                    "by": pending["by"],
                    "version": pending["version"],
                    "action": told["action"],
                    "accepted": list(pending["accepted"]),
                    "deadline": pending["deadline"],
                },
            )

    def _grant(self, now: float) -> None:
        prev = self.takeback_prev
        pending = self.takeback
        if pending is None:  # pragma: no cover
            return
        if prev is None:  # after a restart: rebuild it
            entries = self.game.record_entries() if self.game is not None else []
            prev = self._rebuild([(s, str(a), t) for s, a, t in entries[:-1]])
        self._take_back(prev, now)
