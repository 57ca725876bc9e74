"""Helpers for the Spit and Speed tests: stacked decks and arranged tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import cardcore
from cardcore import ALL, Card, parse_cards, standard_52
from cardcore_spit.speed_table import SpeedLogic, SpeedState
from cardcore_spit.table import PLAY, SpitLogic, SpitState

#: The golden first deal, as each seat receives it (see seeds/spit/first-deal.json).
SEAT0 = "2H 4H 7H JH 3S 3H 6H 10H 2S 5H 9H AS 8H KH QH AH AC 2C 3C 4C 5C 6C 7C 8C 9C 10C"
SEAT1 = "4S 5S 6S 7S 8S 9S 10S JS QS KS AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD JC QC KC"


def interleave(seat0: str, seat1: str) -> str:
    """Return the top-first deck that deals *seat0* and *seat1* alternately (SPIT-SETUP-1)."""
    a, b = seat0.split(), seat1.split()
    out: list[str] = []
    for x, y in zip(a, b, strict=False):
        out += [x, y]
    return " ".join(out)


def golden_game(**kw: object) -> cardcore.Game:
    """The Spit game dealt from the golden deck."""
    return cardcore.new_game("spit", 2, deck=interleave(SEAT0, SEAT1), seed=5, **kw)  # type: ignore[arg-type]


def spit_state(game: cardcore.Game) -> tuple[SpitState, SpitLogic]:
    """The privileged state and logic of a Spit game."""
    state = game.state
    logic = game.logic
    assert isinstance(state, SpitState) and isinstance(logic, SpitLogic)
    return state, logic


def _fill(zones: cardcore.Zones, z: int, text: str, up_top: bool) -> list[Card]:
    cards: list[Card] = []
    masks: list[int] = []
    for word in text.split():
        up = word.startswith("+")
        cards.append(Card.parse(word.lstrip("+")))
        masks.append(ALL if up else 0)
    if cards and up_top:
        masks[-1] = ALL
    zones.cards[z] = cards
    zones.seen[z] = masks
    return cards


def arrange(
    game: cardcore.Game,
    lay0: Sequence[str],
    lay1: Sequence[str],
    *,
    spit0: str = "",
    spit1: str = "",
    left: str = "",
    right: str = "",
    rest: str = "spit1",
    single: int = -1,
) -> SpitState:
    """Put a Spit game into the play phase with these cards (piles bottom -> top).

    Layout piles are five strings; the top card is face up, the others face down
    unless written ``+5H``. Cards not named go under the pile named by *rest*
    (``spit0``, ``spit1``, ``left``, ``right``) so that all 52 stay on the table.
    Call before the game is asked anything.
    """
    state, logic = spit_state(game)
    zones = state.zones
    used: list[Card] = []
    for s, lay in ((0, lay0), (1, lay1)):
        padded = list(lay) + [""] * (5 - len(lay))
        for k in range(5):
            used += _fill(zones, logic.lay[s][k], padded[k], True)
    used += _fill(zones, logic.spit[0], spit0, False)
    used += _fill(zones, logic.spit[1], spit1, False)
    used += _fill(zones, logic.centre[0], left, True)
    used += _fill(zones, logic.centre[1], right, True)
    zones.seen[logic.centre[0]] = [ALL] * len(zones.cards[logic.centre[0]])
    zones.seen[logic.centre[1]] = [ALL] * len(zones.cards[logic.centre[1]])
    left_over = Counter(standard_52())
    left_over.subtract(used)
    assert all(v >= 0 for v in left_over.values()), "a card is named twice"
    extra = [c for c in standard_52() if left_over[c] > 0]
    target = {"spit0": logic.spit[0], "spit1": logic.spit[1], "left": logic.centre[0], "right": logic.centre[1]}[rest]
    mask = ALL if rest in ("left", "right") else 0
    zones.cards[target] = extra + zones.cards[target]
    zones.seen[target] = [mask] * len(extra) + zones.seen[target]
    state.phase = PLAY
    state.single = single
    state.ready = [True, True]
    state.requests = [False, False]
    state.stall = 0
    state.to_act = (0, 1)
    return state


def tops(game: cardcore.Game, seat: int) -> list[str | None]:
    """The face-up top card of each layout pile of *seat*."""
    state, logic = spit_state(game)
    return [str(state.zones.cards[z][-1]) if state.zones.cards[z] else None for z in logic.lay[seat]]


def centre(game: cardcore.Game) -> tuple[list[str], list[str]]:
    """The spit piles, bottom -> top."""
    state, logic = spit_state(game)
    return tuple([str(c) for c in state.zones.cards[z]] for z in logic.centre)  # type: ignore[return-value]


def held(game: cardcore.Game, seat: int) -> list[Card]:
    """Every card *seat* holds (layout + spit cards)."""
    state, logic = spit_state(game)
    out: list[Card] = []
    for z in (*logic.lay[seat], logic.spit[seat]):
        out += state.zones.cards[z]
    return out


def conserved(game: cardcore.Game, n: int = 52) -> bool:
    """Whether every card of the deck is on the table exactly once."""
    cards = Counter(game.state.zones.all_cards())
    deck = Counter(game.logic.deck(2, game.options))
    return cards == deck and sum(cards.values()) == n


def speed_arrange(
    game: cardcore.Game,
    hand0: str,
    hand1: str,
    *,
    stock0: str = "",
    stock1: str = "",
    side0: str = "",
    side1: str = "",
    left: str,
    right: str,
    rest: str = "left",
) -> SpeedState:
    """Put a Speed game into this position (piles bottom -> top; unnamed cards under *rest*)."""
    state = game.state
    logic = game.logic
    assert isinstance(state, SpeedState) and isinstance(logic, SpeedLogic)
    zones = state.zones
    used: list[Card] = []
    spec = [
        (logic.hand[0], hand0, 1),
        (logic.hand[1], hand1, 2),
        (logic.stock[0], stock0, 0),
        (logic.stock[1], stock1, 0),
        (logic.side[0], side0, 0),
        (logic.side[1], side1, 0),
        (logic.pile[0], left, ALL),
        (logic.pile[1], right, ALL),
    ]
    for z, text, mask in spec:
        cards = list(parse_cards(text))
        zones.cards[z] = cards
        zones.seen[z] = [mask] * len(cards)
        used += cards
    left_over = Counter(logic.deck(2, game.options))
    left_over.subtract(used)
    assert all(v >= 0 for v in left_over.values()), "a card is named twice"
    extra = [c for c, n in left_over.items() for _ in range(n)]
    target = logic.pile[0] if rest == "left" else logic.pile[1]
    zones.cards[target] = extra + zones.cards[target]
    zones.seen[target] = [ALL] * len(zones.cards[target])
    state.requests = [False, False]
    state.recycled = False
    state.to_act = (0, 1)
    return state
