"""Tonk's position notation: a session written out in one line and read back, validated.

A position is the generic text of :mod:`cardcore.positions` (piles bottom to
top, each card with who knows it) with Tonk's own fields first::

    tonk played=0 dealer=2 turn=0 phase="start" balances=[0,0,0] chance=2
         | stock: ... | discard: QC! | hand.0: 10S ... | hand.1: ... | hand.2: ... | spreads:

Always written: ``played`` hands finished (a void deal is not one); ``dealer`` of this hand (between
hands: of the next); ``turn`` the seat to act; ``phase`` ``"start"``,
``"play"``, ``"between"`` or ``"over"``; ``balances`` the session so far;
``chance`` the chance counter (so the same seed continues the same way).
Written only when they differ from their defaults: ``spreads`` (``[size,
owner]`` of each spread, in the order laid; their cards lie in the pile
``spreads`` one after the other), ``taken`` (the discard taken this turn),
``laid`` / ``touched`` (the player to act laid a spread / laid or hit this
turn), ``quiet`` (turns in a row played from the discards with the stock out,
without a spread or hit), ``hit`` (the seats
hit since their last turn began), ``result`` (``{"winners": [...],
"reason": ...}`` of a finished session) and, with it, ``last`` (``[hand, dealer]`` of
the session's last deal, a void one too, when it ended after that deal: the view
names it, and a position holds no finished hands to read it from; its dealer is the
seat before ``dealer``, TONK-DEALER-2). Between hands and at the end, ``shown``
lists the seats whose hands the last hand turned face up, when that is not
every hand known to all (after a tonk-out a hand of taken cards is known to
all but was not shown: ``shown=[]``); a seat it names holds cards known to all.
Every discard is read as known to all (each was laid face up), marked ``!`` or not;
a hand's cards need no mark for their owner (see :doc:`/notation`).

Two more optional fields stack what chance would otherwise decide, with no
option needed:

* ``cut=[["7","K","K"],[null,"3","9"]]``: the cut for the first dealer, round
  by round (TONK-DEALER-1); it must choose the first dealer of the session.
* ``next=[["AS","KD",...],[...]]``: the tops of the coming deals, one list
  per deal, top first, as ``deck=`` stacks the first deal: each ``deal``
  gathers and shuffles the pack and puts the next list on top.

So a whole session is stacked by a position of its first deal plus ``next``
(:func:`stack_deals` adds it to any position). A position holds no finished
hands (as FEN holds no move list): ``history`` of a game started from one
begins with its cut, if any, then the hands finished after it. Every position
has a seat to act, except a finished session's, which carries its ``result``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore import ALL, Card, NotationError, OptionError, Result
from cardcore.positions import read_position, refused, write_position
from cardcore_tonk.answers import always_ends
from cardcore_tonk.melds import CARDS, cut_dealer, hit_targets, index_of, meld_of
from cardcore_tonk.state import BETWEEN, DISCARD, HAND0, OVER, PHASES, PLAY, START, STOCK, TonkState
from cardcore_tonk.views import _face_up

if TYPE_CHECKING:
    from cardcore_tonk.logic import TonkLogic

__all__ = ["read", "stack_deals", "write"]

_PHASE = {name: i for i, name in enumerate(PHASES)}
_RANKS = {CARDS[4 * r].label: r + 1 for r in range(13)}  # "A" 1 ... "K" 13
_NAMES = ("played", "dealer", "turn", "phase", "balances", "chance")
_OPTIONAL: dict[str, Any] = {
    "spreads": [],
    "taken": None,
    "laid": False,
    "touched": False,
    "quiet": 0,
    "hit": [],
    "cut": None,
    "next": None,
    "result": None,
    "last": None,
    "shown": None,
}


def write(state: TonkState) -> str:
    """Return the position of *state* (privileged: every card, with who knows it)."""
    fields: dict[str, Any] = {
        "played": state.hand_no,
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": PHASES[state.phase],
        "balances": state.ledger.totals,
        "chance": state.draws,
    }
    # the optional fields only when they differ from their defaults (shorter, faster)
    if state.melds:
        fields["spreads"] = [[m.size, o] for m, o in zip(state.melds, state.owners, strict=True)]
    if state.phase == PLAY:  # a turn in play (a finished hand's last turn is not written)
        if state.taken >= 0:
            fields["taken"] = str(CARDS[state.taken])
        if state.touched:
            fields["laid"] = state.spread_made
            fields["touched"] = True
    if state.quiet_turns:
        fields["quiet"] = state.quiet_turns
    if state.was_hit:
        fields["hit"] = [s for s in range(state.players) if (state.was_hit >> s) & 1]
    if state.cut:
        fields["cut"] = state.cut
    if state.next_deals and _coming(state.hands, state.hand_no, state.phase):  # else never dealt
        fields["next"] = [[str(c) for c in deal] for deal in state.next_deals]
    result = state.result
    if state.is_over and result is not None:
        fields["result"] = {"winners": result.winners, "reason": result.reason}
        last = (state.past[-1].hand, state.past[-1].dealer) if state.past else state.last_deal
        if state.phase >= OVER and last is not None:  # the deal the view names (a void one too)
            fields["last"] = list(last)
    if state.phase >= OVER:  # the hands the last hand turned face up, where knowledge alone
        shown = _shown_seats(state)  # would say otherwise (a hand of taken cards, not shown)
        seen = state.zones.seen
        known = [s for s in range(state.players) if _face_up(seen[HAND0 + s])]
        if shown is not None and shown != known:
            fields["shown"] = shown
    return write_position("tonk", fields, state.zones)


def _shown_seats(state: TonkState) -> list[int] | None:
    """The seats whose hands the end of the last hand showed (``None``: not known here)."""
    if state.past:
        return [s for s, h in enumerate(state.past[-1].shown or ()) if h is not None]
    return None if state.last_shown is None else list(state.last_shown)


def stack_deals(position: str, deals: Sequence[str | Sequence[str]]) -> str:
    """Return *position* with the coming deals stacked: each a deck top, top first.

    >>> p = stack_deals("tonk played=0 | stock:", ["AS KD", ["2C"]])
    >>> p.split(" | ")[0]
    'tonk played=0 next=[["AS","KD"],["2C"]]'

    :param deals: One entry per coming deal: card text (``"AS KD ..."``) or a list of cards.
        A void deal and its re-deal are two deals: while a void deal is dealt
        again, the position may list more deals than hands to come; else one per hand.
    """
    head, sep, rest = position.partition(" | ")
    words = [w for w in head.split() if not w.startswith("next=")]
    tops = [d.split() if isinstance(d, str) else [str(c) for c in d] for d in deals]
    words.append("next=" + json.dumps(tops, separators=(",", ":")))
    return " ".join(words) + sep + rest


def _coming(hands: int, played: int, phase: int) -> int:
    """The hands still to be dealt: after *played*, and the one in play unless *phase* is
    between hands or over."""
    return hands - played - (0 if phase in (BETWEEN, OVER) else 1)


def _bad(msg: str) -> OptionError:
    return refused(msg)  # "bad position: ..." citing CORE-POSITION-1 (or its own rule)


def _int(fields: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value = fields[name]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _bool(fields: Mapping[str, Any], name: str) -> bool:
    value = fields[name]
    if not isinstance(value, bool):
        raise _bad(f"{name} must be true or false, not {value!r}")
    return value


def _seats(fields: Mapping[str, Any], name: str, players: int) -> list[int]:
    value = fields[name]
    if not isinstance(value, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players for s in value
    ):
        raise _bad(f"{name} must list seats from 0 to {players - 1}, not {value!r}")
    if len(set(value)) != len(value):  # (written once each: a repeat is a mistake)
        raise _bad(f"{name} names a seat twice: {value!r}")
    return value


def _cards(value: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise _bad(f"{what} must list cards, not {value!r}")
    try:
        parsed = [Card.parse(c) for c in value]
    except NotationError:
        parsed = []
    if len(parsed) != len(value) or any(c.suit is None for c in parsed):
        raise _bad(f"{what} holds something that is not a card of the 52: {value!r}")
    cards = tuple([CARDS[index_of(c)] for c in parsed])
    if len(set(cards)) != len(cards):
        raise _bad(f"{what} names a card twice: {value!r}")
    return cards


def _check_cut(cut: Any, players: int) -> tuple[tuple[str | None, ...], ...]:
    """Validate the rounds of a cut (TONK-DEALER-1); whether its dealer fits the position's
    is the reader's (while a void deal may pass the deal without a hand played, any seat
    may deal now)."""
    if not isinstance(cut, list) or not cut:
        raise _bad(f"cut must list rounds of ranks, not {cut!r}")
    contenders = set(range(players))
    used: Counter[str] = Counter()
    rows: list[tuple[str | None, ...]] = []
    for row in cut:
        if not isinstance(row, list) or len(row) != players:
            raise _bad(f"each round of the cut holds one rank or null per seat, not {row!r}")
        if len(contenders) == 1:
            raise _bad("the cut goes on after one seat was highest (TONK-DEALER-1)")
        drawn = {s for s, r in enumerate(row) if r is not None}
        if drawn != contenders or not all(
            r is None or (type(r) is str and r in _RANKS) for r in row
        ):
            raise _bad(
                f"cut round {row!r}: seats {sorted(contenders)} cut, each a rank A..K (TONK-DEALER-1)"
            )
        used.update(r for r in row if r is not None)
        best = max(_RANKS[r] for r in row if r is not None)
        contenders = {s for s in drawn if _RANKS[row[s]] == best}
        rows.append(tuple(row))
    if any(n > 4 for n in used.values()):
        raise _bad("the cut uses a rank more than four times (one pack)")
    if len(contenders) != 1:
        raise _bad("the cut must end with one seat alone highest (the first dealer)")
    return tuple(rows)


def read(logic: TonkLogic, text: str, players: int, options: Mapping[str, Any]) -> TonkState:
    """Read a position written by :func:`write` and validate it completely.

    :raises OptionError: Naming what is wrong: an unknown or missing field, a
        card placed twice or not at all, counts the rules do not allow, no seat to act.
    """
    layout = logic.layout(players)
    fields, zones = read_position(text, "tonk", layout, logic.deck(players, options), players)
    missing = [name for name in _NAMES if name not in fields]
    unknown = sorted(set(fields) - set(_NAMES) - set(_OPTIONAL))
    if missing or unknown:
        known = ", ".join([*_NAMES, *_OPTIONAL])
        raise _bad(f"fields missing {missing}, unknown {unknown} (fields: {known})")
    for name, default in _OPTIONAL.items():
        fields.setdefault(name, default)
    state = TonkState(players, options, zones)
    hands = state.hands
    phase_name = fields["phase"]
    if type(phase_name) is not str or phase_name not in _PHASE:  # (a list is unhashable)
        raise _bad(f"phase must be one of {list(_PHASE)}, not {phase_name!r}")
    phase = state.phase = _PHASE[phase_name]
    result = _result(fields.get("result"), players, phase)
    if phase == OVER:
        played = state.hand_no = _int(fields, "played", hands, hands)
    else:
        played = state.hand_no = _int(fields, "played", 0, hands - 1)  # 0 between: a void deal
    state.dealer = _int(fields, "dealer", 0, players - 1)
    state.turn = _int(fields, "turn", 0, players - 1)
    state.quiet_turns = _int(fields, "quiet", 0, 10**6)
    state.draws = _int(fields, "chance", 1, 10**9)
    state.spread_made = _bool(fields, "laid")
    state.touched = _bool(fields, "touched")
    if state.spread_made and not state.touched:
        raise _bad("laid=true needs touched=true (laying a spread touches the table)")
    for s in _seats(fields, "hit", players):
        state.was_hit |= 1 << s
    last = fields["last"]
    if last is not None:
        if result is None or phase < OVER:
            raise _bad("last names the last deal of a finished session (phase 'over' or 'between')")
        if not (isinstance(last, list) and len(last) == 2):
            raise _bad(f"last must be [hand, dealer], not {last!r}")
        pair = {"last's hand": last[0], "last's dealer": last[1]}  # the last hand, or a void deal
        low, high = max(played, 1), min(played + 1, hands)
        state.last_deal = (
            _int(pair, "last's hand", low, high),
            _int(pair, "last's dealer", 0, players - 1),
        )
        if state.last_deal[1] != (state.dealer - 1) % players:  # the deal passed left after it
            raise _bad(
                f"last names dealer {state.last_deal[1]}, but the next dealer is {state.dealer}:"
                f" the last deal was seat {(state.dealer - 1) % players}'s (TONK-DEALER-2)"
            )
    if fields["shown"] is not None:
        if phase < OVER:
            raise _bad("shown names the hands the last hand showed (phase 'over' or 'between')")
        state.last_shown = tuple(sorted(set(_seats(fields, "shown", players))))
        hidden = [s for s in state.last_shown if not _face_up(zones.seen[HAND0 + s], True)]
        if hidden:  # a hand turned face up is known to every seat, card by card
            raise _bad(f"shown names seat {hidden[0]}, whose hand is not known to all (mark its cards !)")
    # the cards: hands, spreads and what was taken
    if any(zones.seen[STOCK]):  # no play turns a stock card up or shows it to anyone
        raise _bad("stock cards are face down: nobody may know them")
    zones.seen[DISCARD] = [ALL] * len(zones.cards[DISCARD])  # each was laid face up, in sight
    # of all (TONK-DEAL-2, TONK-TURN-3), whatever the marks say (hand-written positions omit them)
    cards = zones.cards
    sizes = [len(cards[HAND0 + s]) for s in range(players)]
    most = [6 if phase == PLAY and s == state.turn else 5 for s in range(players)]
    least = 0 if phase in (BETWEEN, OVER) else 1
    if any(not least <= sizes[s] <= most[s] for s in range(players)):
        raise _bad(
            f"hands of {sizes} cards: each holds {least} to 5 (6 after drawing) (TONK-DEAL-1)"
        )
    spreads = fields["spreads"]
    if not (
        isinstance(spreads, list)
        and all(
            isinstance(sp, list)
            and len(sp) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in sp)
            and sp[0] >= 3
            and 0 <= sp[1] < players
            for sp in spreads
        )
        and sum(sp[0] for sp in spreads) == len(cards[HAND0 + players])
    ):
        raise _bad(
            f"spreads {spreads!r} must give each spread's [size (3 or more), owner],"
            " covering the cards of the spreads pile"
        )
    start = 0
    for width, _owner in spreads:
        meld = meld_of([index_of(c) for c in cards[HAND0 + players][start : start + width]])
        if meld is None:
            shown = " ".join(map(str, cards[HAND0 + players][start : start + width]))
            raise _bad(f"{shown!r} is not a book or a run (TONK-SPREAD-1, TONK-SPREAD-2)")
        state.melds.append(meld)
        state.targets.append(hit_targets(meld))
        start += width
    state.owners = [owner for _width, owner in spreads]
    taken = fields["taken"]
    if taken is not None:
        (card,) = _cards([taken], "taken")
        if phase != PLAY or (
            card not in cards[HAND0 + state.turn] and card not in cards[HAND0 + players]
        ):
            raise _bad(f"taken {taken!r} must be in the hand of the seat to act, or in a spread")
        state.taken = index_of(card)
        hand = cards[HAND0 + state.turn]
        if result is None and hand == [card] and not any(state.taken in t for t in state.targets):
            raise _bad(  # the seat could neither discard it nor hit with it: no legal action
                f"the seat to act holds only the taken {taken!r}, which hits no spread (TONK-TURN-5)"
            )
    if phase != PLAY and (state.touched or state.taken >= 0):
        raise _bad("laid, touched and taken describe a turn in play (phase 'play')")
    balances = fields["balances"]
    if not (
        isinstance(balances, list)
        and len(balances) == players
        and all(isinstance(b, int) and not isinstance(b, bool) for b in balances)
        and sum(balances) == 0
    ):
        raise _bad(f"balances must be one whole number per seat, summing to zero, not {balances!r}")
    # balances off the stake were made under another stake (a rule's score_round may pay off it)
    if logic.ruleset.score_round is None and any(b % state.stake for b in balances):
        raise _bad(f"balances must be multiples of the stake {state.stake}, not {balances!r} (TONK-STAKE-1)")
    if any(balances):
        state.ledger.post(balances, "position")
    # where the session stands
    if phase == BETWEEN and state.turn != state.dealer:
        raise _bad(
            "between hands the next dealer is to act: turn must equal dealer (TONK-SESSION-3)"
        )
    if result is None and phase == START and not cards[STOCK] and logic.ends_on_empty(state):
        raise _bad(
            "a turn cannot begin with an empty stock: the hand has ended (TONK-STOCK-1)"
            if logic.ends_on_empty is always_ends
            else "a turn cannot begin here with an empty stock: a house rule of the game's"
            " (tonk_hand_ends_on_empty_stock) says the hand has ended"
        )
    if fields["cut"] is not None:
        state.cut = _check_cut(fields["cut"], players)
        # the deal passes left after every deal; with no deal that is void (and not a hand),
        # the cut's dealer dealt the first hand, so the dealer now is that many seats on
        if not (logic.judges and not logic.void_counts):
            first = cut_dealer(state.cut)
            if (first + played) % players != state.dealer:
                raise _bad(
                    f"the cut chose seat {first} to deal first, so after {played} hands seat"
                    f" {(first + played) % players} deals, not {state.dealer} (TONK-DEALER-1/2)"
                )
    if fields["next"] is not None:
        deals = fields["next"]
        coming = _coming(hands, played, phase)
        # a void deal (a deal judge's redeal) is dealt again: its re-deal is a deal of its own, so
        # while one can happen any number may be stacked (the text's own size bounds them)
        redeals = bool(coming) and bool(logic.judges) and not logic.void_counts
        if not isinstance(deals, list) or (len(deals) > coming and not redeals):
            raise _bad(f"next must list at most {coming} coming deals, not {deals!r}")
        state.next_deals = tuple(_cards(d, f"next deal {i + 1}") for i, d in enumerate(deals))
    if result is None:
        state.to_act = (state.turn,)
    else:  # a finished session: by rule, a resignation, the host or a runner's cap
        winners, reason = result
        totals = state.ledger.totals
        payouts = tuple(totals)
        state.result = Result(winners, tuple(t / state.stake for t in totals), payouts, reason)
        state.is_over = True
    return state


def _result(value: Any, players: int, phase: int) -> tuple[tuple[int, ...], str] | None:
    """Validate the ``result`` field: present exactly when the session is over."""
    if value is None:
        if phase == OVER:
            raise _bad("a finished session (phase 'over') needs its result")
        return None
    if not (
        isinstance(value, dict)
        and set(value) == {"winners", "reason"}
        and isinstance(value["reason"], str)
        and isinstance(value["winners"], list)
        and all(isinstance(s, int) and not isinstance(s, bool) for s in value["winners"])
        and all(0 <= s < players for s in value["winners"])
        and len(set(value["winners"])) == len(value["winners"])
        and value["reason"]
    ):
        raise _bad(f"result must be {{winners: [distinct seats], reason: text}}, not {value!r}")
    if phase != OVER and value["reason"] not in ("resigned", "ended", "truncated"):
        raise _bad(f"a hand ending ({value['reason']!r}) finishes the session: phase 'over'")
    return tuple(value["winners"]), value["reason"]
