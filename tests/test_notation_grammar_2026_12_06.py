"""Notation audit: every game's text notation against its documented grammar.

The grammar below is written from the documentation only (docs/notation.rst,
docs/core-rules.rst CORE-NOTATION-1/2, docs/games/{golf,tonk,spit}.rst with
GOLF-NOTE-1, TONK-NOTE-1, SPIT-NOTE-1, SPEED-NOTE-1, ``Card.parse`` and
``cardcore.notation.parse_int`` docstrings, the actions modules' docstrings):

* a text longer than 200 characters, or not ASCII, is malformed (CORE-NOTATION-1);
* words are separated by spaces or tabs, any number of them, extra spaces and
  tabs around the text are ignored, case does not matter;
* a number is ASCII digits 0-9, no sign (``parse_int``); leading zeros are not
  documented either way (a doc gap: such texts are only checked to be read as
  the same number, or refused as malformed);
* a card is rank ``A 2 .. 10 J Q K`` then suit ``S H D C``, or ``JK`` (CORE-NOTATION-2);
* Golf: ``draw|d``, ``take|t``, ``replace|r POS``, ``discard|x``, ``flip|f POS``,
  ``peek|p POS``, ``knock|k``; a position outside the layout is not documented
  as malformed or illegal (either error is accepted);
* Tonk: ``drop``, ``draw``, ``take``, ``deal``, ``spread <cards>`` in any order,
  ``hit N <card>``, ``discard <card>`` (no short forms);
* Spit: ``play K L|R``, ``combine J I``, ``fill J I`` (piles 1..5, J != I),
  ``ready``, ``spit``, ``slap L|R`` (``choose L|R`` under ``spit.chooser``
  instead of ``slap``);
* Speed: ``play <card> L|R``, ``stuck``;
* every game: ``resign`` from a seat, ``end`` from the host (seat -1).

Each text is tried on a clone: malformed text must raise NotationError, a
well-formed action must be applied when legal (its ``str`` the canonical text)
and otherwise raise IllegalActionError; no other exception is allowed.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Callable, Iterable

import pytest

import cardcore
from cardcore import Card, IllegalActionError, NotationError

HOST = cardcore.HOST

MALFORMED = "malformed"
EITHER = "either"  # not documented as malformed or as illegal: both errors are fine
UNSURE = "unsure"  # the docs do not say whether it is read: not checked

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
SEPARATORS = " \t"

# ---------------------------------------------------------------------------
# The documented grammar
# ---------------------------------------------------------------------------


def words_of(text: str) -> list[str] | str:
    """Split *text* as CORE-NOTATION-1 says, or say why it is not read."""
    if len(text) > 200:
        return MALFORMED
    if not text.isascii():
        return MALFORMED
    if any(ch in text for ch in "\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85"):
        # "spaces or tabs" (notation.rst) / "spaces" (core-rules.rst): other
        # ASCII whitespace is not covered by the docs.
        return UNSURE
    words = [w for w in re.split(r"[ \t]+", text) if w]
    return [w.lower() for w in words]


def doc_int(word: str) -> int | str:
    if not re.fullmatch(r"[0-9]+", word):
        return MALFORMED
    if len(word) > 1 and word[0] == "0":
        return UNSURE
    return int(word)


def doc_card(word: str) -> str | None:
    """The canonical code of a card word, or None when it is not a card."""
    up = word.upper()
    if up == "JK":
        return "JK"
    for rank in RANKS:
        for suit in SUITS:
            if up == rank + suit:
                return up
    return None


def _merge(*parts: int | str) -> str | None:
    """UNSURE if any part is UNSURE, MALFORMED if any part malformed, else None."""
    if any(p == UNSURE for p in parts):
        return UNSURE
    if any(p == MALFORMED for p in parts):
        return MALFORMED
    return None


def golf_grammar(text: str, size: int) -> str:
    words = words_of(text)
    if isinstance(words, str):
        return words
    plain = {"draw": "draw", "d": "draw", "take": "take", "t": "take", "discard": "discard"}
    plain.update({"x": "discard", "knock": "knock", "k": "knock", "resign": "resign", "end": "end"})
    posed = {"replace": "replace", "r": "replace", "flip": "flip", "f": "flip"}
    posed.update({"peek": "peek", "p": "peek"})
    if len(words) == 1 and words[0] in plain:
        return plain[words[0]]
    if len(words) == 2 and words[0] in posed:
        pos = doc_int(words[1])
        bad = _merge(pos)
        if bad:
            return bad
        text = f"{posed[words[0]]} {pos}"
        return text if isinstance(pos, int) and pos < size else EITHER
    return MALFORMED


def tonk_grammar(text: str) -> str:
    words = words_of(text)
    if isinstance(words, str):
        return words
    if any(doc_card(word) == "JK" for word in words[1:]):
        return EITHER  # Tonk has no jokers (TONK-GEN-2): not said whether JK is a card here
    if len(words) == 1 and words[0] in ("drop", "draw", "take", "deal", "resign", "end"):
        return words[0]
    if len(words) == 2 and words[0] == "discard":
        card = doc_card(words[1])
        return f"discard {card}" if card else MALFORMED
    if len(words) == 3 and words[0] == "hit":
        n = doc_int(words[1])
        card = doc_card(words[2])
        bad = _merge(n, card if card else MALFORMED)
        if bad:
            return bad
        if n == 0:
            return EITHER  # spreads count from 1: not said whether 0 is malformed or illegal
        return f"hit {n} {card}"
    if len(words) >= 2 and words[0] == "spread":
        cards = [doc_card(w) for w in words[1:]]
        if None in cards:
            return MALFORMED
        if len(cards) < 3 or len(set(cards)) < len(cards):
            return EITHER  # not said whether a 2-card or repeated-card spread is malformed
        return "spread " + " ".join(sorted(cards, key=tonk_order))  # type: ignore[arg-type]
    return MALFORMED


def tonk_order(code: str) -> tuple[int, int]:
    if code == "JK":
        return (99, 99)
    return (RANKS.index(code[:-1]), SUITS.index(code[-1]))


def spit_grammar(text: str, chooser: bool) -> str:
    words = words_of(text)
    if isinstance(words, str):
        return words
    if len(words) == 1 and words[0] in ("ready", "spit", "resign", "end"):
        return words[0]
    sides = {"l": "L", "r": "R"}
    claim = "choose" if chooser else "slap"
    if len(words) == 2 and words[0] == claim and words[1] in sides:
        return f"{claim} {sides[words[1]]}"
    if len(words) == 3 and words[0] == "play" and words[2] in sides:
        k = doc_int(words[1])
        bad = _merge(k)
        if bad:
            return bad
        return f"play {k} {sides[words[2]]}" if 1 <= k <= 5 else MALFORMED  # type: ignore[operator]
    if len(words) == 3 and words[0] in ("combine", "fill"):
        j, i = doc_int(words[1]), doc_int(words[2])
        bad = _merge(j, i)
        if bad:
            return bad
        if not (1 <= j <= 5 and 1 <= i <= 5) or j == i:  # type: ignore[operator]
            return MALFORMED
        return f"{words[0]} {j} {i}"
    return MALFORMED


def speed_grammar(text: str) -> str:
    words = words_of(text)
    if isinstance(words, str):
        return words
    if len(words) == 1 and words[0] in ("stuck", "resign", "end"):
        return words[0]
    if len(words) == 3 and words[0] == "play" and words[2] in ("l", "r"):
        card = doc_card(words[1])
        return f"play {card} {words[2].upper()}" if card else MALFORMED
    return MALFORMED


# ---------------------------------------------------------------------------
# Checking texts against the engine
# ---------------------------------------------------------------------------


def outcome(game: cardcore.Game, seat: int, text: str) -> str:
    """What the engine does with *text*: the action's str, or an error class name."""
    clone = game.clone()
    version = clone.version
    try:
        action = clone.act(seat, text)
    except (NotationError, IllegalActionError) as error:
        # api.rst "Errors": the message ends with the rule's ID, carried as rule_id;
        # embedding.rst: a rejected action changes nothing (its version here)
        name = "NotationError" if isinstance(error, NotationError) else "IllegalActionError"
        if not error.rule_id or not str(error).endswith(f"({error.rule_id})"):
            return f"{name} without its rule: {error!s}"
        if clone.version != version:
            return f"{name} changed the game"
        return name
    except Exception as error:
        return f"other:{type(error).__name__}"
    recorded = clone.record()["actions"][-1][1]
    if recorded != str(action):
        return f"recorded:{recorded!r}"
    return "ok:" + str(action)


def expected(game: cardcore.Game, seat: int, verdict: str) -> set[str] | None:
    """The outcomes the docs allow for a text the grammar judged *verdict*."""
    if verdict == UNSURE:
        return None
    if verdict == MALFORMED:
        # the host may only send ``end``: Game.act documents SeatError (an
        # IllegalActionError) for a seat that is not one, whatever the text
        return {"NotationError", "IllegalActionError"} if seat == HOST else {"NotationError"}
    if verdict == EITHER:
        return {"NotationError", "IllegalActionError"}
    if game.is_over:
        return {"IllegalActionError"}  # CORE-OVER-1: every action is rejected
    if verdict == "resign":
        return {"IllegalActionError"} if seat == HOST else {"ok:resign"}
    if verdict == "end":
        return {"ok:end"} if seat == HOST else {"IllegalActionError"}
    if seat != HOST and verdict in {str(a) for a in game.legal_actions(seat)}:
        return {"ok:" + verdict}
    return {"IllegalActionError"}


def mismatches(
    game: cardcore.Game, seats: Iterable[int], texts: Iterable[str], grammar: Callable[[str], str]
) -> list[tuple[int, str, str, str]]:
    found = []
    for seat in seats:
        for text in texts:
            allowed = expected(game, seat, grammar(text))
            if allowed is None:
                continue
            got = outcome(game, seat, text)
            if got not in allowed:
                found.append((seat, text, grammar(text), got))
    return found


# ---------------------------------------------------------------------------
# Candidate texts
# ---------------------------------------------------------------------------

LOOKALIKE = {
    "a": "\u0430",
    "e": "\u0435",
    "o": "\u043e",
    "p": "\u0440",
    "c": "\u0441",
    "k": "\u043a",
}
UNICODE_SPACES = ["\u00a0", "\u2003", "\u3000", "\u2009", "\u200b", "\u202f"]
FOREIGN_DIGITS = {"arabic": "\u0660", "fullwidth": "\uff10", "devanagari": "\u0966"}


def digit_variants(word: str) -> list[str]:
    out = []
    if word.isdigit():
        out += ["0" + word, "+" + word, "-" + word, word + ".0", " " + word]
        for zero in FOREIGN_DIGITS.values():
            out.append("".join(chr(ord(zero) + int(d)) for d in word))
        out.append("\u00b2" if word == "2" else word + "\u00b2")
    return out


def card_variants(word: str) -> list[str]:
    if doc_card(word) is None:
        return []
    rank, suit = (word[:-1], word[-1]) if word != "JK" else ("J", "K")
    out = [word.lower(), word.capitalize(), rank + " " + suit, rank + suit.lower()]
    if word == "JK":
        out += ["jk", "Jk", "Joker", "joker", "JOKER", "J K", "JKR", "0K"]
    elif rank == "10":
        out += [
            "TH".replace("H", suit),
            "T" + suit.lower(),
            "1 0" + suit,
            "010" + suit,
            "0" + suit,
            "1" + suit,
        ]
    else:
        out += ["0" + word, word + word[-1], rank + "X", "1" + suit if rank == "A" else "11" + suit]
        out.append("\uff21" + suit if rank == "A" else rank + "\uff28")
    return out


def variants(canonical: str) -> list[str]:
    """Systematic spellings of *canonical*, each judged by the grammar."""
    words = canonical.split()
    out = [canonical, canonical.upper(), canonical.lower(), canonical.title(), canonical.swapcase()]
    out += ["  " + canonical, canonical + "  ", "\t" + canonical + "\t", " \t ".join(words)]
    out += ["   ".join(words), canonical + "\n", "\n" + canonical, canonical.replace(" ", "\n")]
    out += [canonical.replace(" ", "\r\n"), canonical + "\x0b", canonical + "\x0c"]
    for space in UNICODE_SPACES:
        out += [space.join(words), canonical + space]
    for plain, fake in LOOKALIKE.items():
        if plain in canonical:
            out.append(canonical.replace(plain, fake, 1))
    out += ["\uff44" + canonical[1:]]  # fullwidth first letter
    out += [canonical + " 1", canonical + " x", words[0], " ".join(words[:-1]) + words[-1]]
    out += [canonical * 2, canonical + " " + canonical, canonical.replace(" ", ""), canonical[:-1]]
    out += [canonical.replace(" ", "\t"), canonical.replace(" ", "\t\t ")]
    verb, rest = words[0], words[1:]
    for short in sorted({verb[0], verb[:2], verb[:3], verb[:-1], verb + "s", verb[0].upper()}):
        out.append(" ".join([short, *rest]))  # other short forms than the documented ones
    for index, word in enumerate(words):
        for alt in digit_variants(word) + card_variants(word):
            out.append(" ".join([*words[:index], alt, *words[index + 1 :]]))
    return out


TOKENS = ["draw", "d", "take", "t", "replace", "r", "discard", "x", "flip", "f", "peek", "p"]
TOKENS += ["knock", "k", "resign", "end", "drop", "deal", "spread", "hit", "play", "combine"]
TOKENS += ["fill", "ready", "spit", "slap", "choose", "stuck", "L", "R", "l", "0", "1", "2"]
TOKENS += ["3", "5", "6", "9", "10", "-1", "01", "7H", "10h", "JK", "jk", "QS", "AS", "TH"]
TOKENS += ["1H", "", ",", "5H,", "\t", "  "]


def junk(rng: random.Random, count: int) -> list[str]:
    out = []
    for _ in range(count):
        n = rng.randint(0, 5)
        out.append(" ".join(rng.choice(TOKENS) for _ in range(n)))
    out += ["", " ", "\t", "x" * 201, "draw" + " " * 197, " " * 201 + "draw", "draw" + " " * 196]
    return out


# ---------------------------------------------------------------------------
# Game states (fixed seeds)
# ---------------------------------------------------------------------------

ALL_CARDS = [rank + suit for rank in RANKS for suit in SUITS]


def random_states(
    game: cardcore.Game, seed: int, steps: int, every: int, avoid: tuple[str, ...] = ()
) -> list[cardcore.Game]:
    """Snapshots of *game* every *every* actions of a seeded random playout."""
    rng = random.Random(seed)
    out = []
    for step in range(steps):
        if game.is_over:
            break
        seats = [seat for seat in game.to_act if game.legal_actions(seat)]
        if not seats:
            break
        if step % every == 0:
            out.append(game.clone())
        seat = rng.choice(seats)
        legal = [str(a) for a in game.legal_actions(seat)]
        preferred = [text for text in legal if text.split()[0] not in avoid] or legal
        game.act(seat, rng.choice(preferred))
    out.append(game.clone())
    return out


def all_seats(game: cardcore.Game) -> list[int]:
    return [*range(len(game.players)), HOST]


def candidates(game: cardcore.Game, seat: int, extra: list[str], rng: random.Random) -> list[str]:
    texts: list[str] = []
    legal = [str(a) for a in game.legal_actions(seat)] if seat != HOST else []
    for text in [*legal, "resign", "end", *extra]:
        texts += variants(text)
    return texts + junk(rng, 25)


def check_states(
    states: list[cardcore.Game],
    grammar: Callable[[str], str],
    extra: Callable[[cardcore.Game, int, random.Random], list[str]],
    seed: int,
) -> list[tuple[int, str, str, str]]:
    rng = random.Random(seed)
    found = []
    for game in states:
        for seat in all_seats(game):
            texts = candidates(game, seat, extra(game, seat, rng), rng)
            found += mismatches(game, [seat], texts, grammar)
    return found


# ---------------------------------------------------------------------------
# Card.parse and parse_cards
# ---------------------------------------------------------------------------


def card_verdict(text: str) -> str | None:
    """The card Card.parse must read from *text*, MALFORMED, or None (not documented)."""
    if not text.isascii():
        return MALFORMED  # CORE-NOTATION-2: anything else raises NotationError
    stripped = text.strip(" \t")
    if any(ch.isspace() for ch in stripped):
        words = stripped.split()
        if len(words) == 1 and doc_card(words[0]):
            return None  # a newline or other control space around the card: not documented
        return MALFORMED  # a card is one word: "10 H", "1 0H" are not cards
    return doc_card(stripped) or MALFORMED


def card_texts() -> list[str]:
    texts = []
    for code in [*ALL_CARDS, "JK"]:
        texts += [code, code.lower(), " " + code.lower() + " ", "\t" + code, code + "\n"]
        texts += [*card_variants(code), code + "\xa0", "\u2003" + code, code + ","]
    rng = random.Random(2026)
    pool = "AJQKTSHDCX0123456789 jkqsh+-,\t\u0660\uff11"
    texts += ["".join(rng.choice(pool) for _ in range(rng.randint(0, 4))) for _ in range(400)]
    return texts


def test_card_parse_accepts_exactly_the_documented_cards() -> None:
    wrong = []
    for text in card_texts():
        verdict = card_verdict(text)
        if verdict is None:
            continue
        try:
            got = str(Card.parse(text))
        except NotationError:
            got = MALFORMED
        except Exception as error:
            got = f"other:{type(error).__name__}"
        if got != verdict:
            wrong.append((text, verdict, got))
    assert wrong == []


@pytest.mark.parametrize("value", [None, 10, b"AS", ["AS"], 1.5])
def test_card_parse_non_text_raises_notation_error(value: object) -> None:
    with pytest.raises(NotationError):
        Card.parse(value)  # type: ignore[arg-type]


def test_parse_cards_documented_examples() -> None:
    assert [str(c) for c in cardcore.parse_cards("10h, jk AS")] == ["10H", "JK", "AS"]
    assert [str(c) for c in cardcore.parse_cards("5H, 9C JK")] == ["5H", "9C", "JK"]
    assert [str(c) for c in cardcore.parse_cards(["5H", Card.parse("9C")])] == ["5H", "9C"]
    for bad in ["5H TH", "5H 1 0H", "Joker 5H", "5H 0H", "5H,11H"]:
        with pytest.raises(NotationError):
            cardcore.parse_cards(bad)


# ---------------------------------------------------------------------------
# Golf (GOLF-NOTE-1)
# ---------------------------------------------------------------------------

GOLF_SIZES: dict[object, int] = {6: 6, 8: 8, 9: 9, 10: 10, 4: 4, "4h": 4}


def golf_extra(game: cardcore.Game, seat: int, rng: random.Random) -> list[str]:
    size = GOLF_SIZES[game.options["layout"]]
    texts = ["d", "t", "x", "k", "knock", "discard", "take", "draw", "drop", "stuck"]
    texts += [
        f"{verb} {rng.randrange(size + 3)}" for verb in ("r", "f", "p", "replace", "flip", "peek")
    ]
    return [*texts, f"flip {size}", f"r {size - 1}", "flip", "r"]


@pytest.mark.parametrize("layout", [6, 8, 9, 10, 4, "4h"])
def test_golf_notation_matches_documented_grammar(layout: object) -> None:
    size = GOLF_SIZES[layout]
    game = cardcore.new_game("golf", 3, seed=11, options={"layout": layout, "rounds": 2})
    states = random_states(game, seed=5, steps=70, every=9)
    found = check_states(states, lambda text: golf_grammar(text, size), golf_extra, seed=3)
    assert found == []


def test_golf_short_forms_mean_the_long_forms() -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    for short, long in [("f 0", "flip 0"), ("F\t2", "flip 2")]:
        assert str(game.clone().act(0, short)) == long
    for text in ["flip 0", "flip 1"]:
        game.act(0, text)
    for text in ["flip 0", "flip 1"]:
        game.act(1, text)
    seat = game.to_act[0]
    assert str(game.clone().act(seat, "D")) == "draw"
    assert str(game.clone().act(seat, " t ")) == "take"
    held = game.clone()
    held.act(seat, "d")
    assert str(held.clone().act(seat, "X")) == "discard"
    assert str(held.clone().act(seat, "r 5")) == "replace 5"


# ---------------------------------------------------------------------------
# Tonk (TONK-NOTE-1)
# ---------------------------------------------------------------------------

WORKED_DECK = "5H 4H 10H 6H 9S 6S 7H 9D 7C KC 9C 3C 2D QD 4D 8S AC 3S"
WORKED_SCRIPT = [
    (0, "draw"),
    (0, "spread 7H 6H 5H"),
    (0, "discard KC"),
    (1, "draw"),
    (1, "spread 9S 9D 9C"),
    (1, "hit 1 4H"),
    (1, "discard QD"),
    (2, "take"),
    (2, "discard 10H"),
    (0, "drop"),
]
# two players, seat 1 dealing: seat 0 gets 5H 6H 7H 8H 9S, seat 1 2C 2D 2S 3C KD,
# the upcard QC; seat 0 draws 10D, seat 1 draws 2H
RUN_DECK = "5H 2C 6H 2D 7H 2S 8H 3C 9S KD QC 10D 2H 4H 4S 4D"
RUN_SCRIPT = [(0, "draw"), (0, "spread 8h 6H 7h 5H"), (0, "discard 10D"), (1, "draw")]
RUN_SCRIPT += [(1, "spread 2c 2h 2S"), (1, "hit 2 2d"), (1, "discard KD")]


def scripted(game: cardcore.Game, script: list[tuple[int, str]]) -> list[cardcore.Game]:
    out = [game.clone()]
    for seat, text in script:
        game.act(seat, text)
        out.append(game.clone())
    return out


def tonk_extra(game: cardcore.Game, seat: int, rng: random.Random) -> list[str]:
    texts = []
    if seat != HOST:
        for action in game.legal_actions(seat):
            words = str(action).split()
            if words[0] == "spread":
                cards = words[1:]
                for _ in range(4):
                    rng.shuffle(cards)
                    texts.append("spread " + " ".join(cards))
                texts.append("spread " + ", ".join(cards))
    cards = rng.sample(ALL_CARDS, 6)
    texts += [
        "spread " + " ".join(cards[:3]),
        "spread " + " ".join(cards[:4]),
        "spread " + cards[0],
    ]
    texts += ["spread " + " ".join(cards[:2]), "spread", f"spread {cards[0]} {cards[0]} {cards[1]}"]
    texts += [f"hit 1 {cards[0]}", f"hit 0 {cards[1]}", f"hit 2 {cards[2]}", f"hit -1 {cards[2]}"]
    texts += [f"hit {cards[3]} 1", "hit 1", f"hit 1 {cards[4]} {cards[5]}", "discard"]
    texts += [f"discard {c}" for c in cards[:3]] + ["discard JK", "d", "t", "x", "k", "r 1", "deal"]
    return texts


def test_tonk_notation_matches_documented_grammar_worked_hand() -> None:
    game = cardcore.new_game(
        "tonk", 3, deck=WORKED_DECK, seed=7, options={"first_dealer": 2, "hands": 2}
    )
    assert check_states(scripted(game, WORKED_SCRIPT), tonk_grammar, tonk_extra, seed=1) == []


def test_tonk_notation_matches_documented_grammar_runs_and_books() -> None:
    game = cardcore.new_game("tonk", 2, deck=RUN_DECK, seed=3, options={"first_dealer": 1})
    assert check_states(scripted(game, RUN_SCRIPT), tonk_grammar, tonk_extra, seed=2) == []


def test_tonk_notation_matches_documented_grammar_random_hands() -> None:
    states = []
    for seed in (1, 2):
        game = cardcore.new_game("tonk", 2, seed=seed, options={"hands": 3})
        states += random_states(game, seed=seed, steps=40, every=8, avoid=("drop",))
    assert check_states(states, tonk_grammar, tonk_extra, seed=4) == []


def test_tonk_spread_in_any_order_is_the_sorted_spread() -> None:
    import itertools

    game = cardcore.new_game("tonk", 2, deck=RUN_DECK, seed=3, options={"first_dealer": 1})
    game.act(0, "draw")
    for cards in itertools.permutations(["5h", "6H", "7H", "8h"]):
        assert str(game.clone().act(0, "spread " + " ".join(cards))) == "spread 5H 6H 7H 8H"
    game.act(0, "spread 5H 6H 7H 8H")
    game.act(0, "discard 10D")
    game.act(1, "draw")
    for cards in itertools.permutations(["2C", "2h", "2D", "2s"]):
        assert str(game.clone().act(1, "spread\t" + "  ".join(cards))) == "spread 2S 2H 2D 2C"


# ---------------------------------------------------------------------------
# Spit (SPIT-NOTE-1) and Speed (SPEED-NOTE-1)
# ---------------------------------------------------------------------------

SPIT_EXTRA = ["play 1 L", "play 5 R", "play 0 L", "play 6 R", "combine 1 1", "combine 1 2"]
SPIT_EXTRA += ["fill 5 1", "fill 3 3", "slap L", "slap r", "choose L", "choose R", "ready", "spit"]
SPIT_EXTRA += ["play 1 M", "play L 1", "combine 0 1", "fill 1 6", "stuck", "play 1", "slap"]


def spit_extra(game: cardcore.Game, seat: int, rng: random.Random) -> list[str]:
    return [
        *SPIT_EXTRA,
        f"combine {rng.randint(1, 5)} {rng.randint(1, 5)}",
        f"play {rng.randint(0, 9)} R",
    ]


def speed_extra(game: cardcore.Game, seat: int, rng: random.Random) -> list[str]:
    cards = rng.sample([*ALL_CARDS, "JK"], 4)
    texts = [f"play {card} {rng.choice('LR')}" for card in cards]
    return [
        *texts,
        "play JK L",
        "play jk r",
        "stuck",
        "play 1 L",
        "ready",
        "spit",
        "play 10H",
        "play TH L",
    ]


def deal_end(rules: list[str], seed: int) -> cardcore.Game:
    """A Spit game played (seeded) until a claim (slap or choose) is legal."""
    game = cardcore.new_game("spit", 2, seed=seed, rules=rules)
    rng = random.Random(seed)
    for _ in range(3000):
        seats = [seat for seat in game.to_act if game.legal_actions(seat)]
        legal = {seat: [str(a) for a in game.legal_actions(seat)] for seat in seats}
        if any(text.split()[0] in ("slap", "choose") for texts in legal.values() for text in texts):
            return game
        seat = rng.choice(seats)
        plays = [text for text in legal[seat] if text.startswith("play")]
        game.act(seat, rng.choice(plays if plays and rng.random() < 0.8 else legal[seat]))
    raise AssertionError("no end of deal reached")


def single_pile_states(rules: list[str], seed: int, count: int) -> list[cardcore.Game]:
    """States of a seeded Spit game (plays preferred) in single-pile mode."""
    game = cardcore.new_game("spit", 2, seed=seed, rules=rules)
    rng = random.Random(seed)
    out: list[cardcore.Game] = []
    for step in range(3000):
        seats = [seat for seat in game.to_act if game.legal_actions(seat)]
        if game.is_over or not seats or len(out) >= count:
            break
        if game.view(0)["table"]["mode"] == "single-pile" and step % 5 == 0:
            out.append(game.clone())
        seat = rng.choice(seats)
        legal = [str(a) for a in game.legal_actions(seat)]
        plays = [text for text in legal if text.startswith("play")]
        game.act(seat, rng.choice(plays if plays and rng.random() < 0.9 else legal))
    return out


@pytest.mark.parametrize("chooser", [False, True])
def test_spit_notation_matches_documented_grammar(chooser: bool) -> None:
    rules = ["spit.chooser"] if chooser else []
    game = cardcore.new_game("spit", 2, seed=21 + chooser, rules=rules)
    states = random_states(game, seed=8, steps=400, every=60)
    states += [deal_end(rules, seed) for seed in (0, 1)]
    claims = {
        str(a).split()[0]
        for state in states[-2:]
        for s in state.to_act
        for a in state.legal_actions(s)
    }
    assert claims & {"slap", "choose"} == {"choose" if chooser else "slap"}
    single = single_pile_states(rules, seed=1, count=4)
    assert len(single) == 4 and all(
        state.view(0)["table"]["piles"]["R"] is None for state in single[1:]
    )
    states += single
    found = check_states(states, lambda text: spit_grammar(text, chooser), spit_extra, seed=6)
    assert found == []


@pytest.mark.parametrize("options", [{}, {"jokers": 2}, {"side_pile": 15, "jokers": 2}])
def test_speed_notation_matches_documented_grammar(options: dict[str, int]) -> None:
    game = cardcore.new_game("speed", 2, seed=31, options=options)
    states = random_states(game, seed=9, steps=300, every=40)
    assert check_states(states, speed_grammar, speed_extra, seed=7) == []


def test_speed_documented_legal_list_and_joker_play() -> None:
    game = cardcore.new_game("speed", 2, seed=11)
    assert game.view(0)["legal"] == ["play KD R", "play 2C L", "play 2C R", "stuck"]
    assert str(game.clone().act(0, "  PLAY\tkd  r ")) == "play KD R"
    with pytest.raises(IllegalActionError):
        game.clone().act(0, "play JK L")  # well-formed (SPEED-NOTE-1), no joker in hand
    with pytest.raises(NotationError):
        game.clone().act(0, "play K D R")


# ---------------------------------------------------------------------------
# Core: resign, end, length, non-text
# ---------------------------------------------------------------------------

GAMES: list[tuple[str, dict[str, object]]] = [
    ("golf", {}),
    ("tonk", {}),
    ("spit", {}),
    ("speed", {}),
]


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_core_actions_and_length_limit(name: str, options: dict[str, object]) -> None:
    game = cardcore.new_game(name, 2, seed=4, options=options)
    for seat in range(2):
        assert str(game.clone().act(seat, " RESIGN\t")) == "resign"
        with pytest.raises(IllegalActionError):
            game.clone().act(seat, "end")  # only the host may end (CORE-END-1)
    assert str(game.clone().act(HOST, "End ")) == "end"
    for text in ["resign now", "resign 0", "re sign", "\u0440esign", "resign\u00a0", "end\u3000"]:
        with pytest.raises(NotationError):
            game.clone().act(0, text)
    assert str(game.clone().act(0, "resign" + " " * 194)) == "resign"  # 200 characters
    for text in ["resign" + " " * 195, " " * 195 + "resign", "x" * 10_000]:
        with pytest.raises(NotationError):
            game.clone().act(0, text)  # longer than 200: rejected unread
    over = game.clone()
    over.act(HOST, "end")
    for seat, text in [(0, "resign"), (1, "resign"), (HOST, "end")]:
        with pytest.raises(IllegalActionError):
            over.act(seat, text)  # CORE-OVER-1


@pytest.mark.parametrize("value", [None, b"resign", 7, ["resign"], 2.5])
def test_act_with_non_text_raises_notation_error(value: object) -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    with pytest.raises(NotationError):
        game.act(0, value)  # type: ignore[arg-type]
    assert game.version == 0


# ---------------------------------------------------------------------------
# Texts the documentation leaves open (doc gaps): checked for consistency only
# ---------------------------------------------------------------------------


def test_leading_zeros_if_read_mean_the_same_number() -> None:
    """Leading zeros are not documented; where a game reads them, they keep the number."""
    golf = cardcore.new_game("golf", 2, seed=5)
    for text, meant in [("flip 01", "flip 1"), ("f 005", "flip 5"), ("flip 00", "flip 0")]:
        with contextlib.suppress(NotationError):
            assert str(golf.clone().act(0, text)) == meant
    spit = cardcore.new_game("spit", 2, seed=3)
    legal = [str(a) for a in spit.legal_actions(0)]
    for text in legal:
        words = text.split()
        padded = " ".join("0" + w if w.isdigit() else w for w in words)
        with contextlib.suppress(NotationError):
            assert str(spit.clone().act(0, padded)) == text


def test_other_ascii_whitespace_is_a_separator_or_malformed() -> None:
    """Only spaces and tabs are documented separators; any other ASCII space either
    separates words the same way or is refused as malformed, never read otherwise."""
    game = cardcore.new_game("golf", 2, seed=5)
    for space in "\n\r\x0b\x0c\x1c\x1d\x1e\x1f":
        for text in [f"flip{space}3", f"flip 3{space}", f"{space}flip 3"]:
            with contextlib.suppress(NotationError):
                assert str(game.clone().act(0, text)) == "flip 3"


# ---------------------------------------------------------------------------
# What the texts mean (the tables' "meaning" columns), read from the views
# ---------------------------------------------------------------------------


def spelled(text: str, rng: random.Random) -> str:
    """*text* in a random documented spelling: case, spaces and tabs."""
    words = [rng.choice([w, w.lower(), w.upper(), w.swapcase()]) for w in text.split()]
    return (
        rng.choice(["", " ", "\t"])
        + rng.choice([" ", "  ", "\t", " \t"]).join(words)
        + rng.choice(["", " "])
    )


@pytest.mark.parametrize("layout", [6, 4, "4h", 9])
def test_golf_replace_and_flip_put_the_card_at_the_documented_position(layout: object) -> None:
    rng = random.Random(12)
    game = cardcore.new_game("golf", 2, seed=13, options={"layout": layout, "rounds": 1})
    checked = 0
    for state in random_states(game, seed=14, steps=60, every=3, avoid=("knock",)):
        seat = state.to_act[0] if state.to_act and not state.is_over else None
        if seat is None:
            continue
        before = state.view(seat)["table"]
        for action in state.legal_actions(seat):
            verb, *rest = str(action).split()
            if verb not in ("replace", "flip", "peek"):
                continue
            pos = int(rest[0])
            short = {"replace": "r", "flip": "f", "peek": "p"}[verb]
            clone = state.clone()
            clone.act(seat, spelled(f"{rng.choice([verb, short])} {pos}", rng))
            after = clone.view(seat)["table"]
            if after["round"] != before["round"] or clone.is_over:
                continue
            grid = after["grids"][seat]
            if verb == "replace":
                assert grid[pos] == before["held"]["card"], (str(action), before, after)
            else:
                assert before["grids"][seat][pos] is None and grid[pos] is not None
                assert [i for i, c in enumerate(grid) if c != before["grids"][seat][i]] == [pos]
            checked += 1
    assert checked > 10


def test_tonk_hit_adds_to_the_spread_with_that_number() -> None:
    game = cardcore.new_game("tonk", 2, deck=RUN_DECK, seed=3, options={"first_dealer": 1})
    for seat, text in RUN_SCRIPT[:-2]:
        game.act(seat, text)
    spreads = {s["number"]: s["cards"] for s in game.view(1)["table"]["spreads"]}
    assert spreads == {1: ["5H", "6H", "7H", "8H"], 2: ["2S", "2H", "2C"]}
    game.act(1, "HIT\t2 2d")
    spreads = {s["number"]: s["cards"] for s in game.view(1)["table"]["spreads"]}
    assert "2D" in spreads[2] and len(spreads[1]) == 4


def spit_moves(game: cardcore.Game, rng: random.Random) -> int:
    """Check every legal play/combine/fill of *game* moves the documented cards."""
    checked = 0
    for seat in game.to_act:
        before = game.view(seat)["table"]
        layout = [pile[0] if pile else None for pile in before["seats"][seat]["layout"]]
        for action in game.legal_actions(seat):
            verb, *args = str(action).split()
            if verb not in ("play", "combine", "fill"):
                continue
            clone = game.clone()
            clone.act(seat, spelled(str(action), rng))
            after = clone.view(seat)["table"]
            if after["deal"] != before["deal"] or clone.is_over:
                continue
            card = layout[int(args[0]) - 1]
            if verb == "play":  # onto spit pile L (seat 0's) or R (seat 1's); automatic
                # spits may cover it, so look among the cards added to that pile
                old, new = before["piles"][args[1]] or [], after["piles"][args[1]] or []
                assert new[len(new) - len(old) :] == old, (str(action), before, after)
                assert card in new[: len(new) - len(old)], (str(action), before, after)
            else:  # onto / into my pile I, numbered 1..5 from the left
                assert after["seats"][seat]["layout"][int(args[1]) - 1][0] == card, str(action)
            checked += 1
    return checked


def test_spit_piles_are_numbered_from_one_and_l_r_name_the_spit_piles() -> None:
    rng = random.Random(3)
    checked = 0
    for seed in (21, 22):
        game = cardcore.new_game("spit", 2, seed=seed)
        for state in random_states(game, seed=seed, steps=300, every=15):
            checked += spit_moves(state, rng)
    assert checked > 40


def test_speed_play_puts_that_card_on_that_pile() -> None:
    rng = random.Random(4)
    checked = 0
    for options in ({}, {"jokers": 2}):
        game = cardcore.new_game("speed", 2, seed=31, options=options)
        for state in random_states(game, seed=9, steps=200, every=10):
            for seat in state.to_act:
                for action in state.legal_actions(seat):
                    verb, *args = str(action).split()
                    if verb != "play":
                        continue
                    clone = state.clone()
                    clone.act(seat, spelled(str(action), rng))
                    if clone.is_over:
                        continue
                    assert args[0] in clone.view(seat)["table"]["piles"][args[1]][:3], str(action)
                    checked += 1
    assert checked > 20


def test_view_legal_lists_are_the_notation_of_the_legal_actions() -> None:
    game = cardcore.new_game(
        "tonk", 3, deck=WORKED_DECK, seed=7, options={"first_dealer": 2, "hands": 2}
    )
    states = scripted(game, WORKED_SCRIPT)
    states += random_states(cardcore.new_game("spit", 2, seed=2), seed=2, steps=200, every=25)
    states += random_states(cardcore.new_game("golf", 2, seed=2), seed=2, steps=60, every=10)
    for state in states:
        for seat in range(len(state.players)):
            legal = [str(a) for a in state.legal_actions(seat)]
            assert state.view(seat)["legal"] == legal
            for text in legal:
                assert str(state.clone().act(seat, text)) == text


def respelled_position(text: str, sep: str) -> str:
    """*text* with every card word lower-cased and separated by *sep* (notation.rst:
    card words are read in any case and separated by any whitespace)."""
    head, *sections = text.split(" | ")
    out = [head]
    for section in sections:
        name, _, cards = section.partition(":")
        out.append(name + ":" + "".join(sep + word.lower() for word in cards.split()))
    return " | ".join(out)


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
@pytest.mark.parametrize("sep", ["  ", "\t", " \t "])
def test_position_card_words_in_any_case_and_whitespace(name: str, sep: str) -> None:
    game = cardcore.new_game(name, 2, seed=8)
    states = random_states(game, seed=8, steps=12, every=6)
    for state in states[:-1]:
        text = state.position()
        copy = cardcore.new_game(name, 2, position=respelled_position(text, sep), seed=1)
        assert copy.position() == text
