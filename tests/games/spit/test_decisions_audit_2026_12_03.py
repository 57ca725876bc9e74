"""Audit of the engine's own decisions in Spit and Speed against the seed.

Each ``[D]``, ``[S~/D]`` and (new) rule of ``seeds/spit.md`` was checked against the seed
(``../shared/seeds/spit.en.md``) for a situation in which the decision forbids what the seed
allows, allows what it forbids, or ends a deal differently. A confirmed disagreement is a
strict xfail quoting the seed; a checked agreement is a plain test. Positions are built from
text (docs/notation.rst) or dealt from a stacked deck, then played through the public API.

Candidates that ``shared/rules-decisions.md`` (the user's decisions) settles as the engine plays
were dropped: SPIT-STUCK-3 (b) looks one COMBINE/FILL ahead and (c) counts either player's
actions; SPIT-STUCK-5/6 (recycled cards are the starter's spit cards; only a layout card leaving a
layout prevents a void deal); SPIT-GAP-4 (the setup is optional, ``ready`` at any time).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import cardcore
from cardcore import standard_52

# -- building positions ------------------------------------------------------------------------

_FIELDS = (
    'v=1 phase="play" deal=1 single={single} ready=[true,true] requests=[false,false] '
    "stall=0 recycled={recycled} emptier=-1"
)


def _spit_position(
    lay0: list[str],
    lay1: list[str],
    *,
    spit0: str = "",
    spit1: str = "",
    left: str = "",
    right: str = "",
    rest: str = "left",
    single: int = -1,
    recycled: bool = False,
) -> str:
    """A play-phase Spit position. Piles bottom -> top; ``!`` marks a face-up card (the top
    of a layout pile is written with it). Cards not named go face up under *rest*."""
    named = " ".join([*lay0, *lay1, spit0, spit1, left, right]).replace("!", "").split()
    assert len(named) == len(set(named)), "a card is named twice"
    extra = [str(c) for c in standard_52() if str(c) not in named]
    piles = {"left": left, "right": right, "spit0": spit0, "spit1": spit1}
    up = "!" if rest in ("left", "right") else ""
    piles[rest] = " ".join([*(c + up for c in extra), piles[rest]])
    parts = [
        "spit " + _FIELDS.format(single=single, recycled=str(recycled).lower()),
    ]
    for s, lay in ((0, lay0), (1, lay1)):
        for k, pile in enumerate(lay, start=1):
            parts.append(f"layout.{s}.{k}: {pile}".rstrip())
    parts.append(f"spit.0: {piles['spit0']}".rstrip())
    parts.append(f"spit.1: {piles['spit1']}".rstrip())
    left_text = " ".join(c if c.endswith("!") else c + "!" for c in piles["left"].split())
    right_text = " ".join(c if c.endswith("!") else c + "!" for c in piles["right"].split())
    parts.append(f"pile.L: {left_text}".rstrip())
    parts.append(f"pile.R: {right_text}".rstrip())
    return " | ".join(parts)


def _spit_game(position: str, **options: int) -> cardcore.Game:
    return cardcore.new_game("spit", ["Ann", "Bob"], position=position, seed=1, options=options)


def _table(game: cardcore.Game) -> dict:
    return game.view(None)["table"]


def _legal(game: cardcore.Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


# -- SPIT-STUCK-3 (b): "stuck" is judged one move deep ------------------------------------------


def _two_step_uncover() -> cardcore.Game:
    # Ann: pile 1 JH | pile 2 3C (face down) under 8H 8D (combined in setup, both face up) |
    # piles 3-5 single cards 7C 9C AC. Bob: five single cards 7D 9D AD 6C 2C. L shows 4S,
    # R shows QS. Ann's only play: JH onto R (QS). Spit cards: Ann 10C (top) ..., Bob 10D ...
    return _spit_game(
        _spit_position(
            ["JH!", "3C 8H! 8D!", "7C!", "9C!", "AC!"],
            ["7D!", "9D!", "AD!", "6C!", "2C!"],
            spit0="5D 10C",
            spit1="5S 10D",
            left="4S",
            right="QS",
        )
    )


def test_two_step_uncover_position_starts_with_only_the_jack_playable() -> None:
    game = _two_step_uncover()
    assert [a for a in _legal(game, 0) if a.startswith("play")] == ["play 1 R"]
    assert [a for a in _legal(game, 1) if a.startswith("play")] == []


# -- SPIT-STUCK-3 (c): the stall limit spits for a player who can play -------------------------


def _bob_shuffles() -> cardcore.Game:
    # Ann can play 5H onto L (4S) at any moment. Bob has no play (7D 9D JD KD against 4S and
    # 2S) but an empty position 1, so he can fill his single 7D back and forth.
    return _spit_game(
        _spit_position(
            ["5H!", "8C!", "10C!", "QC!", "6C!"],
            ["", "7D!", "9D!", "JD!", "KD!"],
            spit0="3D 10S",
            spit1="3C 10H",
            left="4S",
            right="2S",
        )
    )


# -- SPIT-SETUP-6: ready before the row shows different values --------------------------------

#: Ann's piles 2, 4 and 5 show 8H, 8D, 8S (tops 2H 8H 5H 8D 8S); Bob's tops all differ.
_EIGHTS0 = "2H 4H 7H JH 3S 8H 6H 10H 2S 5H 9H AS 8D KH 8S AH AC 2C 3C 4C 5C 6C 7C 8C 9C 10C"
_EIGHTS1 = "4S 5S 6S 7S QH 9S 10S JS QS KS AD 2D 3D 4D 5D 6D 7D 3H 9D 10D JD QD KD JC QC KC"


def _eights() -> cardcore.Game:
    deck = " ".join(
        x for pair in zip(_EIGHTS0.split(), _EIGHTS1.split(), strict=True) for x in pair
    )
    return cardcore.new_game("spit", ["Ann", "Bob"], deck=deck, seed=1)


# -- SPIT-STUCK-6: a void deal although a card was turned up since the recycle ------------------


# -- SPIT-STUCK-5 with SPIT-END-6: the recycled centre stays with the first to clear -------------


def _held(game: cardcore.Game, seat: int) -> int:
    if game.is_over:
        return int(game.result.scores[seat])
    return int(_table(game)["seats"][seat]["cards"])


def test_spit_win_4_the_spit_holder_without_spit_cards_who_clears_first_wins() -> None:
    """Seed: "the first player to lose all of their cards is the winner" and "If the player
    with no cards in hand is also the first to get rid of their rows, that player wins".
    Same table as above, but Bob's 7D fits R (8H) at once, before any recycle: Bob has spat
    all his spit cards, clears his row first, holds nothing and wins (SPIT-WIN-4)."""
    game = _spit_game(
        _spit_position(
            ["KH!", "2H!", "", "", ""],
            ["7D!", "", "", "", ""],
            right="8H",
            rest="right",
            single=1,
        )
    )
    game.act(1, "play 1 R", at=1.0)
    assert game.is_over
    assert game.result.winners == (1,)
    assert game.result.reason == "out of cards"
    assert game.result.scores == (52.0, 0.0)  # Ann takes R and her row (SPIT-END-6)


# -- the rule text itself ------------------------------------------------------------------------


def _resolves(name: str) -> bool:
    """Whether the dotted *name* is a module or an attribute of one."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for part in parts[i:]:
            if not hasattr(obj, part):
                return False
            obj = getattr(obj, part)
        return True
    return False


def test_every_cardcore_spit_name_in_the_rule_text_exists() -> None:
    text = (Path(__file__).parents[3] / "seeds" / "spit.md").read_text(encoding="utf-8")
    names = sorted(set(re.findall(r"`(cardcore_spit(?:\.\w+)+)`", text)))
    assert "cardcore_spit.house.chooser" in names
    assert [n for n in names if not _resolves(n)] == []


# -- Speed -----------------------------------------------------------------------------------------


def test_speed_stuck_3_only_the_player_with_side_cards_turns() -> None:
    """SPEED-STUCK-3: Ann's side pile is empty, Bob's holds QS under 7S. Ann plays 5H on 4S;
    now neither KC (Ann) nor KD KH (Bob) fits 5H or JS: only Bob turns, 7S then QS onto R,
    until his kings fit; L keeps 5H and no recycle happens while Bob has side cards."""
    named = ["5H", "KC", "KD", "KH", "QS", "7S", "JS", "4S"]
    rest = " ".join(f"{c}!" for c in map(str, standard_52()) if str(c) not in named)
    position = (
        "speed v=1 requests=[false,false] recycled=false | hand.0: 5H@0 KC@0 | "
        "hand.1: KD@1 KH@1 | stock.0: | stock.1: | side.0: | side.1: QS 7S | "
        f"pile.L: {rest} 4S! | pile.R: JS!"
    )
    game = cardcore.new_game("speed", ["Ann", "Bob"], position=position, seed=1)
    game.act(0, "play 5H L", at=1.0)
    table = game.view(None)["table"]
    assert table["piles"]["L"][:2] == ["5H", "4S"]  # top first
    assert table["piles"]["R"] == ["QS", "7S", "JS"]
    assert [s["side"] for s in table["seats"]] == [0, 0]
    assert [str(a) for a in game.legal_actions(1)] == ["play KD R", "play KH R", "stuck"]
