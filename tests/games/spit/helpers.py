"""Helpers for the Spit and Speed tests: stacked decks, arranged tables and typed access."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import cardcore
from cardcore import ALL, Action, Card, Veto, parse_cards
from cardcore_spit.logic import SpitLogic
from cardcore_spit.speed.logic import SpeedLogic
from cardcore_spit.speed.state import SpeedState
from cardcore_spit.state import CENTRE, LAY, PLAY, SPIT, SpitState

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


def golden_game(rules: Sequence[str] = ()) -> cardcore.Game:
    """The Spit game dealt from the golden deck."""
    return cardcore.new_game("spit", 2, deck=interleave(SEAT0, SEAT1), seed=5, rules=rules)


#: The golden deal with three cards swapped each way so that seat 0's piles 2, 4 and 5 all
#: show an 8 (8H, 8D, 8S) and pile 1 and 3 show 2H and 5H: combines to make in setup.
#: Seat 1's tops (4S 9S KS 3D 5D) all differ.
EIGHTS0 = "2H 4H 7H JH 3S 8H 6H 10H 2S 5H 9H AS 8D KH 8S AH AC 2C 3C 4C 5C 6C 7C 8C 9C 10C"
EIGHTS1 = "4S 5S 6S 7S QH 9S 10S JS QS KS AD 2D 3D 4D 5D 6D 7D 3H 9D 10D JD QD KD JC QC KC"


def eights_game(rules: Sequence[str] = ()) -> cardcore.Game:
    """A Spit game in setup dealt from :data:`EIGHTS0` / :data:`EIGHTS1` (seed 1: no shuffle used)."""
    return cardcore.new_game("spit", 2, deck=interleave(EIGHTS0, EIGHTS1), seed=1, rules=rules)


def spit_state(game: cardcore.Game) -> tuple[SpitState, SpitLogic]:
    """The privileged state and logic of a Spit game."""
    state, logic = game.state, game.logic
    if not (isinstance(state, SpitState) and isinstance(logic, SpitLogic)):
        msg = f"not a Spit game: {game!r}"
        raise TypeError(msg)
    return state, logic


def speed_state(game: cardcore.Game) -> tuple[SpeedState, SpeedLogic]:
    """The privileged state and logic of a Speed game."""
    state, logic = game.state, game.logic
    if not (isinstance(state, SpeedState) and isinstance(logic, SpeedLogic)):
        msg = f"not a Speed game: {game!r}"
        raise TypeError(msg)
    return state, logic


def restart(game: cardcore.Game, seed: int = 1) -> cardcore.Game:
    """A new game of the same configuration started from *game*'s position (validated)."""
    return cardcore.new_game(
        game.name, game.players, rules=game.rules, options=dict(game.options),
        position=game.position(), seed=seed,
    )


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
) -> cardcore.Game:
    """Return a Spit game of *game*'s configuration in the play phase with these cards.

    Piles are bottom -> top. Layout piles are five strings; the top card is face
    up, the others face down unless written ``+5H``. Cards not named go under
    the pile named by *rest* (``spit0``, ``spit1``, ``left``, ``right``) so that
    all 52 stay on the table. The new game starts from the arranged position, so
    the position notation checks that the rules allow it.
    """
    state, _ = spit_state(game)
    zones = state.zones
    used: list[Card] = []
    for s, lay in ((0, lay0), (1, lay1)):
        padded = list(lay) + [""] * (5 - len(lay))
        for k in range(5):
            used += _fill(zones, LAY[s][k], padded[k], True)
    used += _fill(zones, SPIT[0], spit0, False)
    used += _fill(zones, SPIT[1], spit1, False)
    used += _fill(zones, CENTRE[0], left, True)
    used += _fill(zones, CENTRE[1], right, True)
    for z in CENTRE:
        zones.seen[z] = [ALL] * len(zones.cards[z])
    left_over = Counter(cardcore.standard_52())
    left_over.subtract(used)
    if any(v < 0 for v in left_over.values()):
        msg = "a card is named twice"
        raise ValueError(msg)
    extra = [c for c in cardcore.standard_52() if left_over[c] > 0]
    target = {"spit0": SPIT[0], "spit1": SPIT[1], "left": CENTRE[0], "right": CENTRE[1]}[rest]
    mask = ALL if rest in ("left", "right") else 0
    zones.cards[target] = extra + zones.cards[target]
    zones.seen[target] = [mask] * len(extra) + zones.seen[target]
    state.phase = PLAY
    state.single = single
    state.ready = [True, True]
    state.requests = [False, False]
    state.stall = 0
    return restart(game)


def tops(game: cardcore.Game, seat: int) -> list[str | None]:
    """The face-up top card of each layout pile of *seat*."""
    state, _ = spit_state(game)
    return [str(state.zones.cards[z][-1]) if state.zones.cards[z] else None for z in LAY[seat]]


def centre(game: cardcore.Game) -> tuple[list[str], list[str]]:
    """The spit piles, bottom -> top."""
    state, _ = spit_state(game)
    left, right = ([str(c) for c in state.zones.cards[z]] for z in CENTRE)
    return left, right


def held(game: cardcore.Game, seat: int) -> list[Card]:
    """Every card *seat* holds (layout + spit cards)."""
    state, _ = spit_state(game)
    out: list[Card] = []
    for z in (*LAY[seat], SPIT[seat]):
        out += state.zones.cards[z]
    return out


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
) -> cardcore.Game:
    """Return a Speed game of *game*'s configuration in this position.

    Piles are bottom -> top; unnamed cards go under *rest* (``left`` or ``right``).
    The new game starts from the arranged position (checked by the notation).
    """
    state, logic = speed_state(game)
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
    if any(v < 0 for v in left_over.values()):
        msg = "a card is named twice"
        raise ValueError(msg)
    extra = [c for c, n in left_over.items() for _ in range(n)]
    target = logic.pile[0] if rest == "left" else logic.pile[1]
    zones.cards[target] = extra + zones.cards[target]
    zones.seen[target] = [ALL] * len(zones.cards[target])
    state.requests = [False, False]
    state.recycled = False
    return restart(game)


def walk(game: cardcore.Game, steps: int, seed: int) -> cardcore.Game:
    """Apply up to *steps* random legal actions (any seat that has one) and return *game*."""
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        seats = [s for s in game.to_act if game.legal_actions(s)]
        if not seats:
            break
        game.apply(rng.choice(game.legal_actions(rng.choice(seats))))
    return game


def veto_rule(name: str, game: str, verbs: Sequence[str], rule_id: str = "TEST-VETO-1") -> ModuleType:
    """A house rule implementing only the core's ``forbid_action``: it vetoes every action of *verbs*."""
    module = ModuleType(f"test_veto_{name.replace('.', '_').replace('-', '_')}")
    words = tuple(verbs)

    @cardcore.hookimpl
    def forbid_action(state: Any, action: Action) -> Veto | None:
        if action.verb in words:
            return Veto(rule_id, f"{action.verb} is switched off by this table")
        return None

    info = cardcore.RuleInfo(id=rule_id, name=name, game=game, summary="test: vetoes " + ", ".join(words))
    vars(module).update(RULE=info, forbid_action=forbid_action)
    return module


@contextmanager
def registered(module: ModuleType) -> Iterator[str]:
    """Register a house-rule *module* for the duration of a ``with`` block; yield its name."""
    name: str = module.RULE.name
    cardcore.register("cardcore.rules", name, module)
    try:
        yield name
    finally:
        cardcore.unregister("cardcore.rules", name)
