"""Position-notation audit: does every game read exactly the positions its docs describe?

Expectations written from the documentation only (docs/notation.rst "Positions",
CORE-POSITION-1 in docs/core-rules.rst and seeds/core.md, the module docstrings of
``cardcore.positions``, ``cardcore_golf.position``, ``cardcore_tonk.position``,
``cardcore_spit.position``, ``cardcore_spit.speed.position``, TONK-NOTE-2, SPEED-NOTE-2
and the "Positions" sections of docs/games/*.rst):

* ``new_game(name, n, options=..., position=p, seed=...)`` of an engine-written ``p``
  writes ``p`` back and shows every seat (and a spectator) the same view, ``version``
  apart (the copy starts at 0), and the same legal actions (CORE-POSITION-1);
* card words are read in any case and separated by any whitespace (the ASCII whitespace
  ``str.split()`` takes, as notation.rst spells it out), written with single spaces and
  capitals;
* Tonk's optional fields (``spreads``, ``taken``, ``laid``, ``touched``, ``quiet``,
  ``hit``) and Golf's ``removed`` are written only when they differ from their
  defaults: written at their defaults they say the same thing;
* refused with ``OptionError`` citing CORE-POSITION-1 or the game's rule, never another
  exception: a card placed twice or not at all, an unknown pile or seat in a mark, a
  mark that is not nothing / ``!`` / ``@seats``, a field out of its documented range, an
  unknown or missing field, fields that contradict each other or the options, the wrong
  game's name, JSON values with spaces (fields are compact JSON, "no spaces"), a card word
  that is not ASCII;
* a refusal never names a hidden card other than the ones the bad text itself misplaces;
* Spit and Speed positions of a finished game (``phase="over"`` / ``over=true``) cannot be
  read back; a finished Tonk session's and Golf match's can (they carry ``result``);
* Tonk's ``chance`` field: "the same seed continues the same way".

Doc gaps (the docs do not say, so only "read the same or refused with OptionError" is
checked): field order, pile-section order, spaces around ``|``, non-ASCII whitespace
(a no-break space), a repeated seat in a mark (``@0.0``), and the maximum length of a
position (the code's ``cardcore.positions.MAX_POSITION``, 20,000 characters, appears in no
documentation page or docstring).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import cardcore
from cardcore import OptionError
from cardcore.positions import MAX_POSITION

CONFIGS: list[tuple[str, int, Any, int]] = [
    ("golf", 2, {"layout": 6}, 3),
    ("golf", 3, {"layout": 4}, 4),
    ("golf", 2, {"layout": "4h"}, 5),
    ("golf", 2, {"layout": 8}, 6),
    ("golf", 2, {"layout": 9}, 7),
    ("golf", 2, {"layout": 10}, 8),
    ("tonk", 2, {"hands": 3}, 9),
    ("tonk", 3, {"hands": 2}, 10),
    ("spit", 2, None, 11),
    ("speed", 2, None, 12),
]
IDS = [f"{name}{n}-{options}" for name, n, options, _ in CONFIGS]

CARD = re.compile(
    r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[SHDC](?![A-Za-z0-9])|(?<![A-Za-z0-9])JK(?![A-Za-z0-9])"
)
RULE_CITED = re.compile(r"\((?:CORE-POSITION-1|[A-Z0-9]+(?:-[A-Z0-9/]+)+)\)$")


def states(
    name: str, n: int, options: Any, seed: int, steps: int = 70, every: int = 10
) -> list[cardcore.Game]:
    """Snapshots of a seeded random playout (each a clone), the last one included."""
    game = cardcore.new_game(name, n, options=options, seed=seed)
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
        game.act(seat, rng.choice([t for t in legal if t != "drop"] or legal))  # longer Tonk hands
    out.append(game.clone())
    return out


_STATES: dict[int, list[cardcore.Game]] = {}


def config_states(index: int) -> list[cardcore.Game]:
    if index not in _STATES:
        name, n, options, seed = CONFIGS[index]
        every = 3 if name == "tonk" else 10
        _STATES[index] = [
            g for g in states(name, n, options, seed, every=every) if not _unreadable_over(g)
        ]
    return _STATES[index]


def _unreadable_over(game: cardcore.Game) -> bool:
    return game.is_over and game.name in ("spit", "speed")


def strip_version(view: Any) -> Any:
    if isinstance(view, dict):
        return {k: v for k, v in view.items() if k != "version"}
    return view


def assert_same_game(copy: cardcore.Game, game: cardcore.Game) -> None:
    for seat in [*range(len(game.players)), None]:
        assert strip_version(copy.view(seat)) == strip_version(game.view(seat)), seat
    for seat in range(len(game.players)):
        assert [str(a) for a in copy.legal_actions(seat)] == [
            str(a) for a in game.legal_actions(seat)
        ]
    assert copy.position() == game.position()


def start(index: int, text: str, seed: int = 1) -> cardcore.Game:
    name, n, options, _ = CONFIGS[index]
    return cardcore.new_game(name, n, options=options, position=text, seed=seed)


def split(text: str) -> tuple[list[str], list[tuple[str, list[str]]]]:
    head, *sections = text.split(" | ")
    piles = []
    for section in sections:
        pile, _, cards = section.partition(":")
        piles.append((pile.strip(), cards.split()))
    return head.split(), piles


def join(head: list[str], piles: list[tuple[str, list[str]]], sep: str = " ") -> str:
    return " | ".join(
        [" ".join(head), *(pile + ":" + "".join(sep + c for c in cards) for pile, cards in piles)]
    )


def hidden_cards(text: str) -> set[str]:
    """Cards that not everyone knows (no mark, or ``@seats``)."""
    _, piles = split(text)
    return {
        tok.split("@")[0].upper() for _, cards in piles for tok in cards if not tok.endswith("!")
    }


def assert_refused(
    index: int, text: str, original: str, allowed: frozenset[str] = frozenset()
) -> str:
    with pytest.raises(OptionError) as info:
        start(index, text)
    message = str(info.value)
    assert message.startswith("bad position"), message
    assert RULE_CITED.search(message), message
    named = set(CARD.findall(message))
    leaked = (named & hidden_cards(original)) - allowed
    assert not leaked, (message, leaked)
    return message


def accepted_same_or_refused(index: int, text: str, game: cardcore.Game) -> None:
    """For a rewrite the docs do not settle: read as the same game, or an OptionError."""
    try:
        copy = start(index, text)
    except OptionError as exc:
        assert RULE_CITED.search(str(exc)), str(exc)
        return
    assert_same_game(copy, game)


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_round_trip_same_text_views_and_legal_actions(index: int) -> None:
    games = config_states(index)
    assert len(games) >= 3
    for game in games:
        text = game.position()
        copy = start(index, text, seed=99)
        assert copy.position() == text
        assert copy.version == 0
        assert_same_game(copy, game)


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_tonk_same_seed_continues_the_same_way(seed: int) -> None:
    """TONK-NOTE-2: ``chance`` is the chance counter, so the same seed continues the same way:
    the game a position was written from and a game read from it with that game's seed
    deal the next hand alike."""
    game = cardcore.new_game("tonk", 2, seed=seed, options={"hands": 3})
    rng = random.Random(seed)
    deals = 0
    while not game.is_over:
        seat = next(s for s in game.to_act if game.legal_actions(s))
        legal = [str(a) for a in game.legal_actions(seat)]
        if legal == ["deal"]:
            copy = cardcore.new_game(
                "tonk", 2, seed=seed, options={"hands": 3}, position=game.position()
            )
            game.act(seat, "deal")
            copy.act(seat, "deal")
            assert copy.position() == game.position()
            assert_same_game(copy, game)
            deals += 1
        else:
            game.act(seat, rng.choice(legal))
    assert deals >= 1


@pytest.mark.parametrize("name", ["tonk", "golf"])
def test_finished_tonk_and_golf_positions_read_back(name: str) -> None:
    game = cardcore.new_game(name, 2, seed=3)
    game.act(0, "resign")
    assert game.is_over
    text = game.position()
    copy = cardcore.new_game(name, 2, position=text, seed=4)
    assert copy.is_over
    assert copy.position() == text


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_finished_spit_and_speed_positions_are_refused(name: str) -> None:
    game = cardcore.new_game(name, 2, seed=3)
    game.act(0, "resign")
    text = game.position()
    assert ('phase="over"' in text) if name == "spit" else ("over=true" in text)
    with pytest.raises(OptionError):
        cardcore.new_game(name, 2, position=text, seed=4)


# ---------------------------------------------------------------- equivalent rewrites

SEPARATORS = ["  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f", " \t\n "]


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_card_words_any_case_any_ascii_whitespace(index: int) -> None:
    for k, game in enumerate(config_states(index)):
        text = game.position()
        head, piles = split(text)
        sep = SEPARATORS[k % len(SEPARATORS)]
        lowered = [(pile, [c.lower() for c in cards]) for pile, cards in piles]
        copy = start(index, join(head, lowered, sep))
        assert copy.position() == text
        assert_same_game(copy, game)


TONK_DEFAULTS = ["spreads=[]", "taken=null", "laid=false", "touched=false", "quiet=0", "hit=[]"]


@pytest.mark.parametrize("index", [6, 7], ids=IDS[6:8])
def test_tonk_optional_fields_written_at_their_defaults(index: int) -> None:
    checked = 0
    for game in config_states(index):
        text = game.position()
        head, piles = split(text)
        for extra in TONK_DEFAULTS:
            if any(word.startswith(extra.split("=")[0] + "=") for word in head):
                continue
            copy = start(index, join([*head, extra], piles))
            assert copy.position() == text
            assert_same_game(copy, game)
            checked += 1
    assert checked


@pytest.mark.parametrize("index", [0, 1, 2], ids=IDS[:3])
def test_golf_removed_written_at_its_default(index: int) -> None:
    n = CONFIGS[index][1]
    for game in config_states(index):
        text = game.position()
        head, piles = split(text)
        if any(word.startswith("removed=") for word in head):
            continue
        empty = "removed=[" + ",".join(["[]"] * n) + "]"
        copy = start(index, join([*head, empty], piles))
        assert copy.position() == text
        assert_same_game(copy, game)


def undocumented_rewrites(text: str) -> list[str]:
    head, piles = split(text)
    sections = text.split(" | ")
    out = [
        join([head[0], *head[1:][::-1]], piles),  # field order
        join(head, piles[::-1]),  # pile order
        "|".join(sections),  # no spaces around |
        "  |\t".join(sections),  # other spacing around |
        text.replace(" ", "\xa0", 1),  # non-ASCII whitespace
    ]
    marked = re.sub(r"@(\d+)", r"@\1.\1", text, count=1)
    if marked != text:
        out.append(marked)  # a seat named twice in a mark
    return out


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_undocumented_rewrites_are_read_the_same_or_refused(index: int) -> None:
    for game in config_states(index)[::2]:
        for rewrite in undocumented_rewrites(game.position()):
            accepted_same_or_refused(index, rewrite, game)


# ---------------------------------------------------------------- refusals


def replace_field(head: list[str], key: str, value: str) -> list[str]:
    return [f"{key}={value}" if word.startswith(key + "=") else word for word in head]


def field_rewrites(name: str, n: int, head: list[str]) -> list[list[str]]:
    """Fields out of their documented range, or contradicting each other or the options."""
    keys = {word.split("=")[0] for word in head[1:]}
    out = [
        [*head, "foo=1"],  # unknown field
        [*head, head[1]],  # a field twice
        [head[0], *head[2:]],  # a field left out (the first is always written)
    ]
    if "turn" in keys:
        out += [
            replace_field(head, "turn", str(n)),
            replace_field(head, "turn", "-1"),
            replace_field(head, "turn", '"0"'),
        ]
    if "phase" in keys:
        out.append(replace_field(head, "phase", '"bogus"'))
    if name == "golf":
        other = '"9"' if 'layout="9"' not in head else '"6"'
        out += [
            replace_field(head, "layout", other),
            replace_field(head, "totals", "[" + ",".join(["0"] * (n + 1)) + "]"),
            replace_field(head, "dealer", str(n)),
            replace_field(head, "round", "0"),
        ]
    if name == "tonk":
        out += [
            replace_field(head, "balances", "[" + ",".join(["5"] + ["0"] * (n - 1)) + "]"),
            replace_field(head, "dealer", str(n)),
            replace_field(head, "played", "-1"),
            replace_field(head, "chance", "-1"),
        ]
    if name == "spit":
        out += [
            replace_field(head, "deal", "0"),
            replace_field(head, "single", "2"),
            replace_field(head, "ready", "[true]"),
            replace_field(head, "v", "2"),
        ]
    if name == "speed":
        out += [replace_field(head, "requests", "[false]"), replace_field(head, "v", "2")]
    return out


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_bad_fields_are_refused_without_naming_hidden_cards(index: int) -> None:
    name, n, _, _ = CONFIGS[index]
    for game in config_states(index)[::2]:
        text = game.position()
        head, piles = split(text)
        for bad in field_rewrites(name, n, head):
            assert_refused(index, join(bad, piles), text)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_frame_errors_are_refused(index: int) -> None:
    name, _, _, _ = CONFIGS[index]
    for game in config_states(index)[::2]:
        text = game.position()
        head, piles = split(text)
        other = "tonk" if name != "tonk" else "golf"
        bad_texts = [
            join([other, *head[1:]], piles),  # the wrong game's name
            text + " | bogus:",  # an unknown pile
            join(head, piles[:-1]) if not piles[-1][1] else join(head, piles[1:]),  # a pile missing
            text + " " * (MAX_POSITION + 1 - len(text)),  # over the length the code reads
        ]
        for field in head[1:]:
            value = field.split("=", 1)[1]
            if "," in value:
                bad_texts.append(
                    text.replace(field, field.replace(",", ", ", 1), 1)
                )  # JSON with a space
                break
        for bad in bad_texts:
            assert_refused(index, bad, text)


def card_rewrites(text: str) -> list[tuple[str, frozenset[str]]]:
    """(bad text, cards its refusal may name): a card twice, a card missing, bad marks."""
    head, piles = split(text)
    tokens = [(p, i, tok) for p, (_, cards) in enumerate(piles) for i, tok in enumerate(cards)]
    first_pile, first_i, first = tokens[0]
    last_pile, last_i, last = tokens[-1]
    a = first.split("@")[0].rstrip("!")
    b = last.split("@")[0].rstrip("!")

    def with_token(p: int, i: int, token: str | None) -> str:
        new = [(pile, list(cards)) for pile, cards in piles]
        if token is None:
            del new[p][1][i]
        else:
            new[p][1][i] = token
        return join(head, new)

    suffix = last[len(b) :]
    out = [
        (with_token(last_pile, last_i, a + suffix), frozenset({a, b})),  # a twice, b missing
        (with_token(last_pile, last_i, None), frozenset({b})),  # b missing
        (join(head, [*piles[:-1], (piles[-1][0], [*piles[-1][1], a])]), frozenset({a})),  # a twice
    ]
    for mark in ["@7", "@", "@x", "@-1", "?", "!!", "@0!", "!@0", "@ 0"]:
        out.append((with_token(first_pile, first_i, a + mark), frozenset({a})))
    out.append((with_token(first_pile, first_i, "1" + a), frozenset({a})))  # not a card
    out.append(
        (
            with_token(first_pile, first_i, a.replace(a[-1], chr(0xFF00 + ord(a[-1]) - 0x20))),
            frozenset({a}),
        )
    )
    return out


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_misplaced_cards_and_bad_marks_are_refused(index: int) -> None:
    for game in config_states(index)[::2]:
        text = game.position()
        for bad, allowed in card_rewrites(text):
            assert_refused(index, bad, text, allowed)


def test_card_twice_and_missing_messages_name_them() -> None:
    game = config_states(0)[1]
    text = game.position()
    head, piles = split(text)
    stock = dict(piles)["stock"]
    a, b = stock[0], stock[1]
    bad = join(
        head, [(p, [a if (p == "stock" and c == b) else c for c in cards]) for p, cards in piles]
    )
    message = assert_refused(0, bad, text, frozenset({a, b}))
    assert a in message and b in message
    assert "CORE-POSITION-1" in message


# ---------------------------------------------------------------- findings


@pytest.mark.parametrize("players", [2, 3])
def test_tonk_cut_must_choose_the_first_dealer_without_void_deals(players: int) -> None:
    """TONK-NOTE-2 / cardcore_tonk.position: ``cut`` "must choose the first dealer of the
    session". Without ``tonk.natural-49-50`` no deal can be void, so before any hand is
    played the first dealer is ``dealer``; a cut naming another seat contradicts it."""
    without = ["tonk.natural-49-50"]
    game = cardcore.new_game("tonk", players, seed=5, options={"hands": 3}, without=without)
    text = game.position()
    head, piles = split(text)
    assert "played=0" in head and 'phase="start"' in head
    dealer = int(next(w for w in head if w.startswith("dealer=")).split("=")[1])
    ranks = ['"2"'] * players
    ranks[(dealer + 1) % players] = '"K"'  # the cut chooses the seat after the dealer
    cut = "cut=[[" + ",".join(ranks) + "]]"
    bad = [w for w in head if not w.startswith("cut=")] + [cut]
    # the game it would make says the cut chose one seat while another deals hand 1
    with pytest.raises(OptionError):
        cardcore.new_game(
            "tonk",
            players,
            options={"hands": 3},
            without=without,
            position=join(bad, piles),
            seed=1,
        )


def test_speed_refusal_citing_its_own_rules_is_not_cited_as_core_position_1() -> None:
    """cardcore.positions.refused: an error cites CORE-POSITION-1 "unless msg ends citing a
    rule of its own". Speed's hand-size refusal ends citing two of its rules."""
    game = cardcore.new_game("speed", 2, seed=5)
    text = game.position()
    head, piles = split(text)
    table = dict(piles)
    moved = table["stock.0"][-1]
    bad_piles = [
        (
            p,
            [*cards[:-1]]
            if p == "stock.0"
            else ([*cards, moved + "@0"] if p == "hand.0" else cards),
        )
        for p, cards in piles
    ]
    with pytest.raises(OptionError) as info:
        cardcore.new_game("speed", 2, position=join(head, bad_piles), seed=1)
    message = str(info.value)
    assert "SPEED-" in message  # the reader cites Speed's own rules ...
    assert "CORE-POSITION-1" not in message  # ... so the core's rule is not added
    assert info.value.rule_id.startswith("SPEED-")
