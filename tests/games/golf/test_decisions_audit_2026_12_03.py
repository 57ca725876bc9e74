"""Golf: an audit of the engine's own decisions against the seed, 2026-12-03.

Every ``[D]``, ``[S~/D]`` and **new** rule of ``seeds/golf.md`` was played against the seed
(``shared/seeds/golf.en.md``, the authority) and ``shared/rules-decisions.md``. A strict xfail
marks a situation where a decision forbids something the seed allows, scores otherwise than the
seed, or goes beyond its own stated reason; its docstring quotes the seed. The plain tests pin
decisions checked and found to agree with the seed.

Candidate disagreements settled by ``shared/rules-decisions.md`` (the user's decisions) were
dropped: a removing rule removes at once when on (GOLF6-SCORE-2, GOLF9-4), so a removed group can
no longer be broken for a lower score (jokers) nor complete a crossing line (two decks);
GOLF-CAP-1 ends the round "as in GOLF-STOCK-1" even after a knock; GOLF6-VAR-3 pays at most once
per player; GOLF-DECK-3's stock guard. The timeout under a setup veto is fixed in the session
(tests/session/test_timers.py): the game's default stays its own legal set, as documented.

Public API only: ``cardcore.new_game(..., deck=..., options=..., rules=...)``, ``act``,
``legal_actions``, ``view``, ``history``, ``is_over``, ``to_act`` (and ``game.logic`` /
``game.state`` for the host's timeout hook). Decks are stacked top first with ``deck()``: card
``k`` goes to the seat ``k`` places left of the dealer (GOLF-DEAL-1), position ``k // N``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cardcore
from cardcore import Game

# --- helpers ----------------------------------------------------------------------------------


def deck(grids: Sequence[str], upcard: str = "", stock: str = "") -> str:
    """Deal *grids* (one per seat, row-major) from the default dealer (the last seat)."""
    rows = [g.split() for g in grids]
    n = len(rows)
    dealt = [rows[k][pos] for pos in range(len(rows[0])) for k in range(n)]
    return " ".join([*dealt, *upcard.split(), *stock.split()])


def new(
    grids: Sequence[str],
    upcard: str,
    stock: str = "",
    *,
    rules: Sequence[str] = (),
    **options: Any,
) -> Game:
    options.setdefault("rounds", 1)
    return cardcore.new_game(
        "golf",
        len(grids),
        rules=list(rules),
        options=options,
        deck=deck(grids, upcard, stock),
        seed=3,
    )


def run(game: Game, script: str) -> None:
    """Act ``"seat: text; seat: text; ..."`` in order."""
    for step in script.split(";"):
        seat, text = step.split(":")
        game.act(int(seat), text.strip())


def legal(game: Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def last_round(game: Game) -> dict[str, Any]:
    found: dict[str, Any] = game.history(None)[-1]
    return found


def cards_in_play(game: Game) -> int:
    table = game.view(None)["table"]
    return int(table["stock"] + table["discards"] + sum(len(g) for g in table["grids"]))


# --- GOLF9-4 with GOLF9-3: a removed triple takes a crossing line's card with it ------------------

# Four players: GOLF-DECK-1 gives two decks, so five 5s fit. Seat 0 flips 0, 1, 3 (three 5s:
# row 0 and column 0 each two thirds done), then places 5C at 2 (row 0 complete) and 5S at 6
# (column 0 complete). The round is capped after seat 0's second turn (GOLF-CAP-1, no ender).
# Without removal (GOLF9-3) row 0 and column 0 both cancel: 3S 4S 7S 8S = 22.
NINE_GRIDS = [
    "5S 5H 2S 5D 3S 4S 6S 7S 8S",
    "AH 2H 3H 4H 6H 7H 8H 9H 10H",
    "AD 2D 3D 4D 6D 7D 8D 9D 10D",
    "AC 2C 3C 4C 6C 7C 8C 9C 10C",
]
NINE_SCRIPT = (
    "0: f 0; 0: f 1; 0: f 3; 1: f 0; 1: f 1; 1: f 2; 2: f 0; 2: f 1; 2: f 2; 3: f 0; 3: f 1;"
    " 3: f 2; 0: d; 0: r 2; 1: d; 1: x; 2: d; 2: x; 3: d; 3: x; 0: d; 0: r 6"
)


def _nine(rules: Sequence[str]) -> Game:
    game = new(NINE_GRIDS, "KS", "5C 9H 9D 9C 5S", rules=rules, layout=9, max_turns=5)
    run(game, NINE_SCRIPT)
    assert game.is_over
    return game


def test_golf9_3_a_row_and_a_column_sharing_a_corner_both_cancel() -> None:
    """GOLF9-3 (checked, agrees): "A player can cancel cards only when there are three of a
    kind in the same row or column" -- row 0 and column 0 are each such a line."""
    game = _nine([])
    assert last_round(game)["grids"][0] == ["5S", "5H", "5C", "5D", "3S", "4S", "5S", "7S", "8S"]
    assert last_round(game)["scores"][0] == 22


# --- GOLF6-SCORE-2: a removed negative pair can no longer be broken ------------------------------

# Seat 0: JK KC AC / JK KS AD, flips 0 and 3 (the jokers: column 0 cancels, -4 -> 0, GOLF-SCORE-5).
# Every column cancels: 0. It then draws KH: replacing a joker (JK over KH) gives -2 + 0 = -2, the
# lowest this layout can reach. Under golf.remove-columns the joker column went at the setup.
JOKER_GRIDS = ["JK KC AC JK KS AD", "2H 3H 4H 6H 7H 8H"]


def _jokers(rules: Sequence[str]) -> Game:
    game = new(JOKER_GRIDS, "QS", "KH", rules=["golf.jokers", *rules], max_turns=1)
    run(game, "0: f 0; 0: f 3; 1: f 0; 1: f 3; 0: d")
    return game


def test_golf_score_5_breaking_a_joker_pair_with_a_king_scores_minus_two() -> None:
    """GOLF-SCORE-5 (checked, agrees): a joker pair cancels "raising your score from -4 to 0";
    "You may replace any card, whether it is face up or face down" -- a king over one joker
    leaves the other scoring -2."""
    game = _jokers([])
    game.act(0, "replace 0")
    assert last_round(game)["scores"][0] == -2


# --- GOLF-DECK-3: decks added past the seed's own counts -----------------------------------------


def test_golf_deck_4_jokers_join_the_seed_count_of_decks() -> None:
    """GOLF-DECK-4 (checked, agrees with the seed's count): 21 GOLF4 players with jokers play
    the seed's two decks plus four jokers."""
    game = cardcore.new_game("golf", 21, options={"layout": "4"}, rules=["golf.jokers"], seed=1)
    assert cards_in_play(game) == 108


# --- GOLF-CAP-1: the cap cuts the final turns a knock has already promised ------------------------


# --- GOLF6-VAR-3: two distinct four-of-a-kinds in GOLF8 ------------------------------------------


# --- the host's timeout action under house-rule vetoes -------------------------------------------


# --- GOLF-DEAL-3 / GOLF-DEAL-4: the first dealer, the setup order and the deal passing left ------


def test_golf_deal_3_random_dealer_then_the_deal_passes_left() -> None:
    """GOLF-DEAL-3 (checked, agrees): "choose one at random"; "Whoever sat to the dealer's left
    in the last round is the new dealer ... The person sitting to the left of the current dealer
    always goes first" -- the setup (GOLF-DEAL-4) and the first turn start there each round."""
    game = cardcore.new_game(
        "golf", 3, options={"layout": "4h", "rounds": 2, "dealer": "random"}, seed=5
    )
    first = game.view(None)["table"]
    dealer = first["dealer"]
    assert first["turn"] == (dealer + 1) % 3
    game.act((dealer + 1) % 3, "knock")
    for seat in ((dealer + 2) % 3, dealer):
        run(game, f"{seat}: d; {seat}: x")
    second = game.view(None)["table"]
    assert (second["round"], second["dealer"], second["turn"]) == (
        2,
        (dealer + 1) % 3,
        (dealer + 2) % 3,
    )
    assert last_round(game)["ender"] == (dealer + 1) % 3
