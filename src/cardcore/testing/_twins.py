"""Does ``determinize`` deal its world from what the seat knows only, and deal it at all?

:func:`cardcore.testing._probes.check_twin` compares a game with a world the plugin's
own ``determinize`` dealt: it checks that world, not the hook. Here the hook itself:

* one seed must give one world from two games the seat cannot tell apart (the game, and
  a world the hook dealt from it): a hook shuffling the hidden cards where they lie fails
  (a caller choosing the seed could undo that shuffle and find every card);
* a pile whose order is part of the game (a stock: ``Visibility.NOBODY``, or
  ``ordered``) holding two different cards hidden from the seat, whose swap the seat
  cannot see (its view, its history and the game's ``check_position`` stay as they were),
  must be re-dealt by some of :data:`SEEDS` seeds: a hook that re-deals nothing fails.

Which cards an unordered hand holds is not judged: a seat may deduce them from the rules
(every card of a suit is dealt to one seat), which the kit cannot read, so a hook keeping
the opponents' real hands in place passes it. A game whose seat knows the order of cards
its zones' masks call hidden marks them known: the kit cannot read that from the rules.
"""

from __future__ import annotations

from cardcore._driver import COLD
from cardcore._worlds import _refused
from cardcore.game import Game
from cardcore.testing._report import Report
from cardcore.zones import Visibility

__all__ = ["SEEDS", "check_world"]

SEEDS = 16
"""Seeds the kit deals worlds with before it says a pile's hidden cards are never re-dealt
(a fair re-deal of two cards keeps them in place for all with odds of 1 in 65,536)."""


def check_world(report: Report, game: Game, seat: int) -> None:
    """Check ``game.determinize(seat, ...)`` as the module docstring says (its seeds come
    from the version and seat: the kit's own generator is left alone)."""
    first = game.version * 7919 + seat * 131 + 1
    worlds = [game.determinize(seat, first + k) for k in range(SEEDS)]
    again = worlds[0].determinize(seat, first + SEEDS).state.zones.cards
    if game.determinize(seat, first + SEEDS).state.zones.cards != again:
        report.leaks += 1
        report.fail(
            f"determinize({seat}) at version {game.version} gives two worlds for one seed from"
            f" two games seat {seat} cannot tell apart (the game and a world it dealt): its"
            " world depends on where the hidden cards lie (sort them before shuffling)"
        )
        return
    cards = game.state.zones.cards
    specs = game.state.zones.layout.specs
    for z, pile in enumerate(cards):
        if not (specs[z].ordered or specs[z].visibility is Visibility.NOBODY):
            continue  # a hand: which cards it holds the seat may deduce (the kit cannot tell)
        if any(w.state.zones.cards[z] != pile for w in worlds):
            continue  # re-dealt
        pair = _hidden_pair(game, seat, z)
        if pair is not None and _unseen_swap(game, seat, z, pair):
            report.leaks += 1
            report.fail(
                f"determinize({seat}) at version {game.version} never re-dealt pile {z}"
                f" ({game.state.zones.layout.specs[z].name}) in {SEEDS} worlds, though it holds"
                f" cards hidden from seat {seat} whose places the seat cannot tell: every"
                " world shows the seat where they really are"
            )
            return


def _hidden_pair(game: Game, seat: int, z: int) -> tuple[int, int] | None:
    """Two places of pile *z* hidden from *seat* that hold different cards, if any."""
    zones = game.state.zones
    pile = zones.cards[z]
    hidden = [i for i in range(len(pile)) if not zones.knows(z, i, seat)]
    for j in hidden[1:]:
        if pile[j] != pile[hidden[0]]:
            return hidden[0], j
    return None


def _unseen_swap(game: Game, seat: int, z: int, pair: tuple[int, int]) -> bool:
    """Whether swapping the cards at *pair* of pile *z* leaves all *seat* can tell the same."""
    twin = game.clone()
    pile = twin.state.zones.cards[z]
    i, j = pair
    pile[i], pile[j] = pile[j], pile[i]
    twin._legal_v = -1  # its state changed under it: nothing cached stands
    twin._hot = COLD
    try:
        return (
            twin.view(seat) == game.view(seat)
            and twin.history(seat) == game.history(seat)
            and _refused(twin) == _refused(game)
        )
    except Exception:  # the game reads the swapped world as impossible: the seat may know
        return False
