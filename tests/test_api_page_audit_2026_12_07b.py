"""Audit of docs/api.rst by a new user: the smaller public names, read against their docs.

Every expected value below is taken from docs/api.rst, the docstrings it pulls in with
autodoc, or docs/shared design; failing claims are strict xfails naming the bug.
"""

from __future__ import annotations

import importlib
import pathlib
import random
import re
from typing import ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    ALL,
    CHANCE,
    HOST,
    JOKER,
    STALE_WINDOW,
    VIEW_FORMAT,
    Action,
    ArgumentError,
    Card,
    CardcoreError,
    Chance,
    CorruptStateError,
    GameState,
    IllegalActionError,
    Layout,
    LazyView,
    Ledger,
    NotationError,
    OptionError,
    OtherGameRuleError,
    PluginError,
    Rank,
    Result,
    RuleConflictError,
    ScoreSheet,
    ScoreTable,
    SeatError,
    StaleActionError,
    Suit,
    UnknownPluginError,
    Visibility,
    Zones,
    ZoneSpec,
    dealing,
    decks,
    derive_rng,
    parse_cards,
    shuffle,
    standard_52,
    tricks,
    turns,
    with_jokers,
)
from cardcore.notation import DIGITS, ActionParser, parse_int
from cardcore.scoring import LedgerError

ROOT = pathlib.Path(__file__).resolve().parents[1]
API = (ROOT / "docs" / "api.rst").read_text(encoding="utf-8")
ALL_DOCS = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").rglob("*.rst"))


# --------------------------------------------------------------------------- names


def _documented_names() -> list[str]:
    """``cardcore.X`` targets of every autodoc directive on the page."""
    return re.findall(r"^\.\. auto(?:function|class|exception):: (cardcore\.[\w.]+)", API, re.M)


@pytest.mark.parametrize("dotted", _documented_names())
def test_every_autodoc_name_is_importable_where_the_page_says(dotted: str) -> None:
    module, _, name = dotted.rpartition(".")
    # "cardcore.simulate" is also a function name at the top (the page warns): take the module
    mod = importlib.import_module(module)
    if not hasattr(mod, name) and module == "cardcore":
        pytest.fail(f"{dotted} is not importable")
    assert hasattr(mod, name), dotted


def test_top_level_names_on_the_page_are_in_dunder_all() -> None:
    # "Everything below is importable from the top-level package ... and listed in
    # cardcore.__all__ (one exception, LedgerError, is marked)"
    top = [d.split(".", 1)[1] for d in _documented_names() if d.count(".") == 1]
    missing = sorted(n for n in top if n not in cardcore.__all__)
    assert missing == []
    assert "LedgerError" not in cardcore.__all__
    assert not hasattr(cardcore, "LedgerError")


@pytest.mark.parametrize(
    "name", ["VIEW_FORMAT", "STALE_WINDOW", "HOST", "JOKER", "CHANCE", "ALL", "FIELD_KINDS"]
)
def test_py_data_names_are_top_level(name: str) -> None:
    assert name in cardcore.__all__
    assert getattr(cardcore, name) is not None


def test_every_dunder_all_name_is_documented_on_the_page_or_a_linked_page() -> None:
    undocumented = []
    for name in cardcore.__all__:
        pattern = rf"(?:py:\w+:: |auto\w+:: |cardcore\.|~cardcore\.){re.escape(name)}\b"
        if not re.search(pattern, ALL_DOCS):
            undocumented.append(name)
    assert undocumented == []


def test_dunder_all_names_all_resolve() -> None:
    assert [n for n in cardcore.__all__ if not hasattr(cardcore, n)] == []


def test_documented_constant_values() -> None:
    from cardcore.deck import LEGACY_CHANCE, MAX_DECKS
    from cardcore.logic import DECK_CACHE
    from cardcore.records import RECORD_FORMAT, RECORD_VERSIONS, SAVE_FORMAT, SAVE_VERSIONS
    from cardcore.setup import MAX_PLAYERS
    from cardcore.simulate import MAX_GAMES

    assert cardcore.__version__ == "0.3.0"
    assert VIEW_FORMAT == "cardcore-view/2"
    assert STALE_WINDOW == 64
    assert HOST == -1
    assert ALL == -1
    assert CHANCE == 3 and LEGACY_CHANCE == 2
    assert MAX_DECKS == 10000 and MAX_PLAYERS == 64 and DECK_CACHE == 64
    assert MAX_GAMES == 10000000
    assert RECORD_FORMAT == ("cardcore-record", 3) and RECORD_VERSIONS == (1, 2, 3)
    assert SAVE_FORMAT == ("cardcore-save", 3) and SAVE_VERSIONS == (1, 2, 3)
    assert cardcore.FIELD_KINDS == (
        "int",
        "float",
        "str",
        "bool",
        "card",
        "cards",
        "seat",
        "choice",
        "per-seat",
        "json",
    )


def test_security_page_constants_match() -> None:
    # security.rst: "Action text: MAX_NOTATION (200) characters", MAX_TIME 1e15
    from cardcore.game import MAX_NOTATION, MAX_TIME

    assert MAX_NOTATION == 200
    assert MAX_TIME == 1e15


# --------------------------------------------------------------------------- cards


def test_card_parse_and_str_round_trip_every_card() -> None:
    for card in (*standard_52(), JOKER):
        assert Card.parse(str(card)) is card  # interned
        assert Card.parse(str(card).lower()) is card  # case-insensitive
        assert card.text == str(card)
        assert repr(card) == f"Card.parse({str(card)!r})"


def test_card_parse_examples_from_docstring() -> None:
    assert str(Card.parse("10H")) == "10H"
    assert Card.parse("as") == Card.parse("AS")
    assert str(Card.parse("jk")) == "JK"
    assert Card.parse("JK") is JOKER
    assert JOKER.is_joker and JOKER.suit is None and JOKER.rank is Rank.JOKER
    assert JOKER.label == "JK"
    c = Card.parse("QS")
    assert c.rank is Rank.QUEEN and c.suit is Suit.SPADES and not c.is_joker
    assert c.label == "Q"


@pytest.mark.parametrize("bad", ["", "1H", "11H", "ZZ", "10X", "J K", "Qſ", "10HH", "²H"])
def test_card_parse_bad_text_is_notation_error_citing_core_notation_2(bad: str) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(bad)
    assert info.value.rule_id == "CORE-NOTATION-2"
    assert isinstance(info.value, CardcoreError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize("bad", [None, 10, b"AS", ["AS"]])
def test_card_parse_non_text_is_notation_error(bad: object) -> None:
    with pytest.raises(NotationError):
        Card.parse(bad)  # type: ignore[arg-type]


def test_card_parse_huge_text_makes_a_short_message() -> None:
    with pytest.raises(NotationError) as info:
        Card.parse("X" * 1_000_000)
    assert len(str(info.value)) < 400


def test_card_direct_construction_checked() -> None:
    assert Card(Rank.KING, Suit.HEARTS) == Card.parse("KH")
    for rank, suit in [
        (13, Suit.HEARTS),
        (Rank.KING, "H"),
        (Rank.KING, None),
        (Rank.JOKER, Suit.SPADES),
    ]:
        with pytest.raises(ArgumentError):
            Card(rank, suit)  # type: ignore[arg-type]


def test_card_equality_and_hash_across_decks_and_frozen() -> None:
    two = decks(2)
    assert two[0] == two[52] and hash(two[0]) == hash(two[52])
    assert len(set(decks(2, jokers_per_deck=2))) == 53
    assert Card.parse("AS") != Card.parse("AH")
    with pytest.raises(AttributeError):
        Card.parse("AS").rank = Rank.TWO  # type: ignore[misc]


def test_rank_and_suit_members() -> None:
    assert int(Rank.QUEEN) == 12 and Rank.JOKER == 0 and Rank.ACE == 1
    assert Rank.QUEEN > Rank.JACK and Rank.KING - Rank.ACE == 12
    assert [r.label for r in Rank] == ["JK", "A", *map(str, range(2, 11)), "J", "Q", "K"]
    assert [s.letter for s in Suit] == ["S", "H", "D", "C"]
    assert [s for s in Suit if s.is_red] == [Suit.HEARTS, Suit.DIAMONDS]


def test_parse_cards_docstring_examples_and_errors() -> None:
    assert [str(c) for c in parse_cards("5H, 9C JK")] == ["5H", "9C", "JK"]
    assert [str(c) for c in parse_cards("AS 2d JK")] == ["AS", "2D", "JK"]
    assert parse_cards(["5H", Card.parse("9C")]) == (Card.parse("5H"), Card.parse("9C"))
    assert isinstance(parse_cards(""), tuple) and parse_cards("") == ()
    with pytest.raises(NotationError, match="ZZ"):
        parse_cards("AS ZZ QQ")
    for bad in (5, b"AS", {"AS": 1}):
        with pytest.raises(ArgumentError):
            parse_cards(bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- decks and chance


def test_standard_52_order() -> None:
    cards = standard_52()
    assert isinstance(cards, tuple) and len(cards) == 52 and len(set(cards)) == 52
    assert (str(cards[0]), str(cards[-1])) == ("AS", "KC")
    expected = [r.label + s.letter for s in Suit for r in Rank if r is not Rank.JOKER]
    assert [str(c) for c in cards] == expected


def test_decks_and_with_jokers() -> None:
    two = decks(2, jokers_per_deck=2)
    assert len(two) == 108
    assert two[52:54] == (JOKER, JOKER) and two[54] == Card.parse("AS")
    assert decks(0) == ()
    assert with_jokers(standard_52()) == (*standard_52(), JOKER, JOKER)
    assert with_jokers([Card.parse("AS")], 0) == (Card.parse("AS"),)
    for bad in (-1, 10_001, 1.0, True):
        with pytest.raises(ArgumentError):
            decks(bad)  # type: ignore[arg-type]
        with pytest.raises(ArgumentError):
            with_jokers(standard_52(), bad)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="parse_cards"):
        with_jokers("AS KH")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        with_jokers(["AS"])  # type: ignore[list-item]


def test_chance_is_a_pure_function_of_seed_and_counter() -> None:
    a, b, c = Chance(7, 0), Chance(7, 0), Chance(7, 1)
    xs = [a.random() for _ in range(5)]
    assert xs == [b.random() for _ in range(5)]
    assert xs != [c.random() for _ in range(5)]
    assert all(0.0 <= x < 1.0 for x in xs)


def test_chance_methods_ranges_and_errors() -> None:
    ch = Chance(1, 2)
    assert all(3 <= ch.randrange(3, 9) < 9 for _ in range(50))
    assert all(0 <= ch.randrange(4) < 4 for _ in range(50))
    assert all(1 <= ch.randint(1, 3) <= 3 for _ in range(50))
    assert ch.getrandbits(0) == 0 and 0 <= ch.getrandbits(70) < 2**70
    sample = ch.sample(range(10), 4)
    assert len(sample) == 4 and len(set(sample)) == 4 and set(sample) <= set(range(10))
    assert ch.choice("abc") in "abc"
    with pytest.raises(ValueError):
        ch.randrange(5, 5)
    with pytest.raises(ValueError):
        ch.sample([1, 2], 3)
    with pytest.raises(ValueError):
        ch.getrandbits(-1)
    with pytest.raises(IndexError):
        ch.choice([])
    with pytest.raises(ArgumentError):
        ch.randrange(1.5)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        ch.choice({1, 2})  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        ch.shuffle((1, 2, 3))  # type: ignore[arg-type]
    for seed, counter in ((True, 0), (1.0, 0), (0, None)):
        with pytest.raises(ArgumentError):
            Chance(seed, counter)  # type: ignore[arg-type]
        with pytest.raises(ArgumentError):
            derive_rng(seed, counter)  # type: ignore[arg-type]


def test_shuffle_is_a_permutation_deterministic_per_generator() -> None:
    deck1, deck2 = list(standard_52()), list(standard_52())
    shuffle(deck1, Chance(5, 0))
    shuffle(deck2, Chance(5, 0))
    assert deck1 == deck2 and sorted(map(str, deck1)) == sorted(map(str, standard_52()))
    assert deck1 != list(standard_52())
    legacy1, legacy2 = list(standard_52()), list(standard_52())
    shuffle(legacy1, derive_rng(5, 0))
    shuffle(legacy2, derive_rng(5, 0))
    assert legacy1 == legacy2 and isinstance(derive_rng(5, 0), random.Random)
    with pytest.raises(ArgumentError):
        shuffle(list(standard_52()), 5)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        shuffle(list(standard_52()), None)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        shuffle(standard_52(), derive_rng(5, 0))  # type: ignore[arg-type]


def test_generator_and_chance_version() -> None:
    from cardcore.deck import LEGACY_CHANCE, chance_version, generator

    assert chance_version() == CHANCE
    assert type(generator(1, 2)) is Chance
    assert isinstance(generator(1, 2, LEGACY_CHANCE), random.Random)
    assert generator(1, 2, LEGACY_CHANCE).random() == derive_rng(1, 2).random()
    with pytest.raises(ArgumentError):
        generator(1, 2, 1)


# --------------------------------------------------------------------------- zones


def _layout() -> Layout:
    return Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("discard", None, Visibility.TOP),
            ZoneSpec("hand.0", 0, Visibility.OWNER),
            ZoneSpec("hand.1", 1, Visibility.OWNER),
        ]
    )


def test_zones_doctest_and_knowledge() -> None:
    zones = Zones(Layout.of([ZoneSpec("stock"), ZoneSpec("hand.0", 0, Visibility.OWNER)]))
    for text in ("5H", "9C", "KD"):
        zones.put(zones.id("stock"), Card.parse(text))
    assert str(zones.move(zones.id("stock"), zones.id("hand.0"))) == "KD"
    assert zones.seen == [[0, 0], [1]]
    assert zones.show(1, 0) == ["KD"] and zones.show(1, 1) == [None]
    assert zones.count(0) == 2 and zones.top(0) == Card.parse("9C") and zones.top(1) is not None
    assert [str(c) for c in zones.all_cards()] == ["5H", "9C", "KD"]


def test_zones_visibility_rules() -> None:
    zones = Zones(_layout())
    zones.put(1, Card.parse("2S"))
    zones.put(1, Card.parse("3S"))
    assert zones.seen[1] == [ALL, ALL]  # a card put on a TOP pile is known to all
    assert zones.show(1, None) == ["3S", None]  # only the top shows
    assert zones.knows(1, 0, None)
    zones.put(0, Card.parse("4S"))
    assert zones.show(0, 0) == [None] and not zones.is_visible(0, 0, None)
    assert zones.tell(0, 0, 1) == Card.parse("4S")
    assert zones.show(0, 1) == ["4S"] and zones.show(0, 0) == [None]
    assert zones.show(0, None) == [None]  # a spectator knows only ALL masks
    zones.forget(0)
    assert zones.show(0, 1) == [None]
    zones.reveal(0)
    assert zones.show(0, None) == ["4S"]
    with pytest.raises(ArgumentError):
        zones.put(0, Card.parse("5S"), mask="1")  # type: ignore[arg-type]
    assert zones.count(0) == 1
    with pytest.raises(ArgumentError):
        zones.tell(0, 0, 64)


def test_owner_hand_turned_face_up_shows_sorted_to_all() -> None:
    zones = Zones(_layout())
    for text in ("KH", "2C", "JK"):
        zones.put(2, Card.parse(text), ALL)
    # Visibility.OWNER: once every card is known to all, shown sorted by rank and suit
    assert zones.show(2, 1) == ["JK", "2C", "KH"]


def test_layout_errors_and_clone() -> None:
    with pytest.raises(PluginError):
        Layout.of([ZoneSpec("a"), ZoneSpec("a")])
    with pytest.raises(ValueError):
        Layout.of([ZoneSpec("a"), ZoneSpec("a")])
    with pytest.raises(PluginError):
        ZoneSpec("h", 0, "owner")  # type: ignore[arg-type]
    with pytest.raises(PluginError):
        ZoneSpec("")
    with pytest.raises(PluginError):
        ZoneSpec("h", 64)
    zones = Zones(_layout())
    with pytest.raises(KeyError):
        zones.id("nope")
    with pytest.raises(PluginError):
        zones.id("nope")
    zones.put(0, Card.parse("AS"))
    copy = zones.clone()
    copy.put(0, Card.parse("2S"))
    assert zones.count(0) == 1 and copy.layout is zones.layout


# --------------------------------------------------------------------------- scoring


def test_score_table_docstring_examples() -> None:
    table = ScoreTable.from_ranks({"A": 1, "K": 0, "JK": -2}, default=10)
    assert (table[Card.parse("KH")], table[Card.parse("QS")], table[Card.parse("JK")]) == (
        0,
        10,
        -2,
    )
    assert table.replace({"JH": -2})[Card.parse("JH")] == -2
    assert table.replace({"JH": -2})[Card.parse("JS")] == 10  # only the exact card
    assert table[Card.parse("JH")] == 10  # replace returns a copy
    t = ScoreTable.from_points(
        lambda c: 5 if c.rank.label == "K" else None, [Card.parse("KH"), Card.parse("2S")]
    )
    assert t[Card.parse("KH")] == 5 and t[Card.parse("2S")] == 0


def test_score_table_lookups_defaults_and_total() -> None:
    unscored = ScoreTable.from_ranks({"A": 1})
    with pytest.raises(KeyError):
        unscored[Card.parse("2S")]
    assert ScoreTable.from_ranks({}, default=3).total(parse_cards("AS KH JK")) == 9
    face = ScoreTable.face_values(jack=11, queen=12, king=13, joker=50)
    assert face.total(parse_cards("AS 10D JC QC KC JK")) == 1 + 10 + 11 + 12 + 13 + 50
    assert (
        ScoreTable.from_points(lambda c: None, parse_cards("AS AS"), default=7)[Card.parse("AS")]
        == 7
    )
    d = ScoreTable.from_ranks({"a": 1, Rank.KING: 0, "jk": -2}).as_dict()
    assert d == {"JK": -2, "A": 1, "K": 0}


def test_score_table_bad_arguments() -> None:
    with pytest.raises(ArgumentError):
        ScoreTable.from_ranks([("A", 1)])  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        ScoreTable.from_ranks({"Z": 1})
    with pytest.raises(ArgumentError):
        ScoreTable.from_ranks({"A": 1.5})  # type: ignore[dict-item]
    with pytest.raises(ArgumentError):
        ScoreTable.from_ranks({"A": True})
    with pytest.raises(ArgumentError):
        ScoreTable.from_points(lambda c: "5", [Card.parse("AS")])  # type: ignore[arg-type,return-value]
    with pytest.raises(ArgumentError):
        ScoreTable.from_points(lambda c: 1, ["AS"])  # type: ignore[list-item]
    with pytest.raises(ArgumentError):
        ScoreTable.from_points(lambda c: 1, 5)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        ScoreTable.from_ranks({}, default=0).replace({"ZZ": 1})
    with pytest.raises(ArgumentError):
        ScoreTable.from_ranks({}, default=0).replace({"A": 1.0})  # type: ignore[dict-item]
    with pytest.raises(ArgumentError):
        ScoreTable.from_ranks({}, default=0)["KH"]  # type: ignore[index]


def test_score_table_lookup_by_unhashable_non_card_rank_table() -> None:
    table = ScoreTable.from_ranks({}, default=0)
    with pytest.raises(ArgumentError):
        table[["KH"]]  # type: ignore[index]


def test_score_table_lookup_by_unhashable_non_card_card_table() -> None:
    table = ScoreTable.from_points(lambda c: 5, [Card.parse("KH")])
    with pytest.raises(ArgumentError):
        table[["KH"]]  # type: ignore[index]


def test_score_sheet_docstring_and_errors() -> None:
    sheet = ScoreSheet(2)
    sheet.add_round([11, 4])
    sheet.add_round([3, 9])
    assert (sheet.totals, len(sheet.rounds)) == ([14, 13], 2)
    assert sheet.snapshot() == {"rounds": [[11, 4], [3, 9]], "totals": [14, 13]}
    copy = sheet.clone()
    copy.add_round([1, 1])
    assert sheet.totals == [14, 13]
    for bad in ([1], [1, True], [1, float("nan")], "12", [1, "2"]):
        with pytest.raises(ArgumentError):
            sheet.add_round(bad)  # type: ignore[arg-type]
    assert sheet.totals == [14, 13] and len(sheet.rounds) == 2
    for players in (0, 65, 2.0):
        with pytest.raises(ArgumentError):
            ScoreSheet(players)  # type: ignore[arg-type]


def test_ledger_docstring_and_zero_sum() -> None:
    ledger = Ledger(3)
    ledger.post([4, -2, -2], "out")
    ledger.pay(payer=1, payee=2, amount=1, reason="side bet")
    assert (ledger.totals, sum(ledger.totals)) == ([4, -3, -1], 0)
    assert ledger.snapshot() == {
        "entries": [["out", [4, -2, -2]], ["side bet", [0, -1, 1]]],
        "totals": [4, -3, -1],
    }
    ledger.pay(payer=0, payee=1, amount=0, reason="nothing")  # "at least 0"
    copy = ledger.clone()
    copy.post([1, -1, 0], "x")
    assert ledger.totals == [4, -3, -1]


@pytest.mark.parametrize(
    "amounts",
    [[1, -1], [1, 0, 0], [1.0, -1.0, 0], [True, -1, 0], (10**15 + 1, -(10**15) - 1, 0), "abc"],
)
def test_ledger_post_refuses_and_changes_nothing(amounts: object) -> None:
    ledger = Ledger(3)
    with pytest.raises(LedgerError) as info:
        ledger.post(amounts, "r")  # type: ignore[arg-type]
    assert isinstance(info.value, CardcoreError) and isinstance(info.value, ValueError)
    assert ledger.totals == [0, 0, 0] and ledger.entries == []


def test_ledger_pay_refusals() -> None:
    ledger = Ledger(2)
    for kwargs in (
        {"payer": 0, "payee": 0, "amount": 1},
        {"payer": 0, "payee": 2, "amount": 1},
        {"payer": 0, "payee": 1, "amount": -1},
        {"payer": 0, "payee": 1, "amount": 1.0},
    ):
        with pytest.raises(LedgerError):
            ledger.pay(reason="r", **kwargs)  # type: ignore[arg-type]
    assert ledger.totals == [0, 0]
    with pytest.raises(LedgerError):
        ledger.post([0, 0], 5)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- turns and tricks


def test_turns_doctests() -> None:
    assert (turns.next_seat(3, 4), turns.next_seat(0, 4, skip={1, 2}), turns.seats_from(2, 4)) == (
        0,
        3,
        (2, 3, 0, 1),
    )
    assert turns.next_seat(0, 4, direction=-1) == 3
    assert (turns.winners_by([3, 1, 1]), turns.winners_by([3, 1, 3], lowest=False)) == (
        (1, 2),
        (0, 2),
    )
    assert turns.seats_from(3, 4, skip={1}) == (3, 0, 2)
    assert (turns.team(1, 4), turns.team(0, 6, teams=3)) == ((1, 3), (0, 3))
    assert turns.team(0, 4) == (0, 2)
    assert turns.seats_from(0, 3, skip={0, 1, 2}) == ()  # "Every seat skipped: ()"


def test_turns_errors() -> None:
    with pytest.raises(ValueError):
        turns.next_seat(0, 2, skip={0, 1})
    for call in (
        lambda: turns.next_seat(4, 4),
        lambda: turns.next_seat(0, 65),
        lambda: turns.next_seat(0, 4, direction=2),
        lambda: turns.next_seat(0, 4, skip="1"),
        lambda: turns.next_seat(0, 4, skip={4}),
        lambda: turns.next_seat(0.0, 4),
        lambda: turns.team(0, 4, teams=3),
        lambda: turns.team(0, 4, teams=0),
        lambda: turns.winners_by([]),
        lambda: turns.winners_by([1, float("nan")]),
        lambda: turns.winners_by(["a", "b"]),
        lambda: turns.winners_by({0: 1}),
    ):
        with pytest.raises(ArgumentError):
            call()


def _state() -> GameState:
    return GameState(2, {}, Zones(_layout()))


def test_end_game_sets_everything_together_and_refuses_bad_payouts() -> None:
    state = _state()
    state.zones.put(2, Card.parse("AS"))
    for bad in ([True, 0], ["1", 0], [1.5, 0]):
        with pytest.raises(ArgumentError):
            turns.end_game(state, [0], [1, 2], "out", payouts=bad)
    assert not state.is_over and state.result is None and state.zones.seen[2] != [ALL]
    result = turns.end_game(state, [0], [1, 2], "out", payouts=[3, -3])
    assert result == Result((0,), (1.0, 2.0), (3, -3), "out")
    assert state.result is result and state.is_over and state.to_act == ()
    assert state.zones.seen[2] == [ALL]  # revealed by default
    assert result.to_json() == {
        "winners": [0],
        "scores": [1.0, 2.0],
        "payouts": [3, -3],
        "reason": "out",
    }


def test_result_is_frozen() -> None:
    result = Result((0,), (1.0,), None, "out")
    with pytest.raises(AttributeError):
        result.reason = "x"  # type: ignore[misc]
    assert result.to_json()["payouts"] is None


def test_tricks_doctests() -> None:
    hand = parse_cards("KH 2S 9H JK")
    assert [str(c) for c in tricks.following(hand, Suit.HEARTS)] == ["KH", "9H"]
    assert len(tricks.following(hand, Suit.CLUBS)) == 4
    assert tricks.following(hand, None) == hand
    assert tricks.trick_winner(parse_cards("10H AH 2S KH")) == 1
    assert tricks.trick_winner(parse_cards("10H AH 2S KH"), trump=Suit.SPADES) == 2
    assert tricks.trick_winner(parse_cards("QD QD 3C")) == 0
    plays, leader = parse_cards("10H AH 2S KH"), 3
    assert (leader + tricks.trick_winner(plays, trump=Suit.SPADES)) % 4 == 1
    order = turns.seats_from(3, 4, skip={1})
    assert order[tricks.trick_winner(parse_cards("10H AH KH"))] == 0


def test_tricks_jokers_order_and_suit_of() -> None:
    # a joker lead makes every joker a follower; a joker never trumps
    assert tricks.trick_winner(parse_cards("JK AS JK")) == 0
    assert tricks.trick_winner(parse_cards("2H JK"), trump=Suit.SPADES) == 0
    assert tricks.ACE_HIGH[Rank.ACE] == 14 and tricks.ACE_HIGH[Rank.JOKER] == 0
    assert tricks.trick_winner(parse_cards("AH 2H"), order=lambda c: int(c.rank)) == 1
    left_bower = Card.parse("JC")
    suit_of = lambda c: Suit.SPADES if c == left_bower else c.suit  # noqa: E731
    assert tricks.following(parse_cards("JC 2H"), Suit.SPADES, suit_of=suit_of) == (left_bower,)
    for call in (
        lambda: tricks.trick_winner(()),
        lambda: tricks.trick_winner(set(parse_cards("AH"))),
        lambda: tricks.trick_winner(parse_cards("AH"), trump="S"),
        lambda: tricks.trick_winner(parse_cards("AH"), order=5),
        lambda: tricks.trick_winner(parse_cards("AH 2H"), order={}),
        lambda: tricks.following("AH", None),
        lambda: tricks.following(parse_cards("AH"), "H"),
        lambda: tricks.following(parse_cards("AH"), Suit.HEARTS, suit_of=lambda c: "H"),
    ):
        with pytest.raises(ArgumentError):
            call()


# --------------------------------------------------------------------------- dealing


def test_dealing_doctests() -> None:
    layout = _layout()
    state = GameState(2, {}, Zones(layout))
    dealing.fill_stock(state, 0, list(reversed(parse_cards("AS 2S 3S 4S 5S 6S"))))
    dealing.deal_round_robin(state, 0, [2, 3], 2)
    assert [[str(c) for c in pile] for pile in state.zones.cards] == [
        ["6S", "5S"],
        [],
        ["AS", "3S"],
        ["2S", "4S"],
    ]
    assert (state.zones.show(2, 0), state.zones.show(2, 1)) == (["3S", "AS"], [None, None])
    rest = GameState(2, {}, Zones(layout))
    dealing.fill_stock(rest, 0, list(reversed(parse_cards("AS 2S 3S 4S 5S"))))
    dealing.deal_all(rest, 0, [2, 3], first=1)
    assert [[str(c) for c in pile] for pile in rest.zones.cards] == [
        [],
        [],
        ["2S", "4S"],
        ["AS", "3S", "5S"],
    ]


def test_deal_all_52_to_three_hands() -> None:
    layout = Layout.of(
        [ZoneSpec("stock"), *(ZoneSpec(f"hand.{i}", i, Visibility.OWNER) for i in range(3))]
    )
    state = GameState(3, {}, Zones(layout))
    dealing.fill_stock(state, 0, list(standard_52()))
    dealing.deal_all(state, 0, [1, 2, 3])
    assert [len(p) for p in state.zones.cards] == [0, 18, 17, 17]


def test_deal_round_robin_first_minus_one_and_errors() -> None:
    state = _state()
    dealing.fill_stock(state, 0, list(reversed(parse_cards("AS 2S 3S 4S"))))
    dealing.deal_round_robin(state, 0, [2, 3], 1, first=-1)  # -1 is the last hand
    assert state.zones.cards[3] == [Card.parse("AS")] and state.zones.cards[2] == [Card.parse("2S")]
    with pytest.raises(CardcoreError):
        dealing.deal_round_robin(state, 0, [2, 3], 2)  # 2 left, 4 needed
    assert state.zones.count(0) == 2  # nothing dealt
    for call in (
        lambda: dealing.deal_round_robin(state, 0, [0, 2], 1),
        lambda: dealing.deal_round_robin(state, 0, [2], -1),
        lambda: dealing.deal_round_robin(state, 0, [2], 1.0),
        lambda: dealing.deal_round_robin(state, 0, [9], 1),
        lambda: dealing.deal_round_robin(state, 0, [2], 1, first=0.0),
        lambda: dealing.deal_all(state, 0, []),
        lambda: dealing.fill_stock(state, 0, []),  # holds cards already
        lambda: dealing.fill_stock(_state(), 0, "AS 2S"),
    ):
        with pytest.raises(ArgumentError):
            call()
    assert state.zones.count(0) == 2


def test_draw_card_and_rebuild_stock() -> None:
    state = _state()
    state.seed = 3
    for text in ("AS", "2S", "3S"):
        state.zones.put(1, Card.parse(text))
    assert dealing.draw_card(state, 0, 2) is None  # empty stock, no discard given
    card = dealing.draw_card(state, 0, 2, discard=1)
    assert card in (Card.parse("AS"), Card.parse("2S"))
    assert state.zones.cards[1] == [Card.parse("3S")]  # the top discard stays
    assert state.zones.count(0) == 1 and state.zones.seen[0] == [0]
    assert dealing.rebuild_stock(state, 0, 1) == 0  # only the top left
    assert dealing.rebuild_stock(state, 0, 1, keep_top=False) == 1
    with pytest.raises(ArgumentError):
        dealing.rebuild_stock(state, 1, 1)
    with pytest.raises(ArgumentError):
        dealing.draw_card(state, 0, 9)


def test_gather_puts_everything_on_the_stock_unknown() -> None:
    state = _state()
    state.seed = 1
    dealing.fill_stock(state, 0, list(standard_52()[:6]))
    dealing.deal_round_robin(state, 0, [2, 3], 2)
    state.zones.move(0, 1)
    dealing.gather(state, 0)
    assert [len(p) for p in state.zones.cards] == [6, 0, 0, 0]
    assert sorted(map(str, state.zones.cards[0])) == sorted(map(str, standard_52()[:6]))
    assert state.zones.seen[0] == [0] * 6  # nobody knows where any card is


# --------------------------------------------------------------------------- notation


@frozen
class Ask(Action):
    target: int
    rank: str
    verb: ClassVar[str] = "ask"

    def notation(self) -> str:
        return f"ask {self.target} {self.rank}"


@frozen
class Knock(Action):
    verb: ClassVar[str] = "knock"


def test_action_parser_docstring_examples() -> None:
    parser = ActionParser([Ask, Knock])
    assert parser.parse(0, "ask 1 Q") == Ask(0, 1, "Q")
    assert parser.parse(0, "ASK 1 q").rank == "q"  # a str field is passed on as written
    assert parser.parse(0, "KNOCK") == Knock(0)
    assert str(parser.parse(2, "ask 1 Q")) == "ask 1 Q"
    assert set(parser.verbs) == {"ask", "knock"}
    for text in ("", "fold", "ask 1", "ask x Q", "ask ² Q", 5):
        with pytest.raises(NotationError) as info:
            parser.parse(0, text)  # type: ignore[arg-type]
        assert info.value.rule_id == "CORE-NOTATION-1"
    with pytest.raises(ArgumentError):
        parser.parse(-1, "knock")


def test_action_parser_refuses_bad_classes() -> None:
    class Plain(Action):
        pass

    @frozen
    class NoVerb(Action):
        pass

    @frozen
    class Other(Action):
        verb: ClassVar[str] = "KNOCK"

    for types in ([Plain], [NoVerb], [Knock, Other], [int]):
        with pytest.raises(TypeError):
            ActionParser(types)  # type: ignore[list-item]


def test_parse_int() -> None:
    assert parse_int("0") == 0 and parse_int("9" * DIGITS) == 10**DIGITS - 1
    for bad in ("²", "٣", "-1", "+1", "", " 1", "9" * (DIGITS + 1), 1):
        with pytest.raises(NotationError) as info:
            parse_int(bad)  # type: ignore[arg-type]
        assert info.value.rule_id == "CORE-NOTATION-1"
        assert len(str(info.value)) < 300


@pytest.mark.parametrize("text", ["ask 1 " + "Q " * 50_000, "x" * 100_000])
def test_action_parser_message_is_cut_short(text: str) -> None:
    parser = ActionParser([Ask, Knock])
    with pytest.raises(NotationError) as info:
        parser.parse(0, text)
    assert len(str(info.value)) < 1000


# --------------------------------------------------------------------------- positions


def test_positions_doctest_round_trip() -> None:
    from cardcore.positions import read_position, write_position

    layout = _layout()
    state = GameState(2, {}, Zones(layout))
    dealing.fill_stock(state, 0, list(reversed(parse_cards("AS 2S 3S 4S 5S 6S"))))
    dealing.deal_round_robin(state, 0, [2, 3], 2)
    assert state.zones.tell(0, -1, 1) == Card.parse("5S")
    text = write_position("demo", {"turn": 0}, state.zones)
    assert text == "demo turn=0 | stock: 6S 5S@1 | discard: | hand.0: AS@0 3S@0 | hand.1: 2S@1 4S@1"
    deck = parse_cards("AS 2S 3S 4S 5S 6S")
    fields, zones = read_position(text, "demo", layout, deck, 2)
    assert (
        fields == {"turn": 0}
        and zones.cards == state.zones.cards
        and zones.seen == state.zones.seen
    )
    with pytest.raises(OptionError) as info:
        read_position(text.replace("6S ", ""), "demo", layout, deck, 2)
    assert info.value.rule_id == "CORE-POSITION-1"
    assert "missing ['6S']" in str(info.value)


def test_positions_helpers() -> None:
    from cardcore.positions import check, read_field, read_result, refused, writable

    assert refused("hand.0 must hold 5 cards").rule_id == "CORE-POSITION-1"
    assert refused("stuck (SPEED-STUCK-1)").rule_id == "SPEED-STUCK-1"
    long = refused("x" * 10_000 + " (SPEED-STUCK-1)")
    assert long.rule_id == "SPEED-STUCK-1" and len(str(long)) <= 400 + len("bad position: ")
    check(True, "never {}", 1)
    with pytest.raises(OptionError, match=r"hand\.1 is empty") as info:
        check(False, "hand.{} is empty", 1)
    assert info.value.rule_id == "CORE-POSITION-1"
    assert read_field("x", 3, 1.0) == 3.0 and type(read_field("x", 3, 1.0)) is float
    assert read_field("x", [1, 2], (0, 0)) == (1, 2)
    assert read_field("to_act", [1], (0, 0)) == (1,)
    assert read_field("x", "s", None) == "s"
    for value, default in ((True, 0), ("1", 0), (10**16, 0), ([1], (0, 0))):
        with pytest.raises(OptionError):
            read_field("x", value, default)
    with pytest.raises(TypeError):
        read_field("x", 1, object())
    assert writable(True) and writable(None) and writable(10**15) and not writable(10**15 + 1)
    assert not writable([1]) and not writable(float("inf"))
    json = {"winners": [1], "scores": [1, 2.5], "payouts": None, "reason": "out"}
    assert read_result(json, 2) == Result((1,), (1.0, 2.5), None, "out")
    for bad in ({**json, "winners": [1, 1]}, {**json, "scores": [1]}, {**json, "extra": 1}):
        with pytest.raises(OptionError):
            read_result(bad, 2)


# --------------------------------------------------------------------------- errors


def test_error_hierarchy() -> None:
    assert issubclass(NotationError, CardcoreError) and issubclass(NotationError, ValueError)
    assert issubclass(StaleActionError, IllegalActionError) and issubclass(
        SeatError, IllegalActionError
    )
    assert issubclass(ArgumentError, TypeError)
    assert issubclass(OtherGameRuleError, UnknownPluginError)
    assert issubclass(OtherGameRuleError, RuleConflictError)
    assert issubclass(UnknownPluginError, LookupError)
    assert issubclass(CorruptStateError, ValueError)
    assert issubclass(cardcore.StalledGameError, RuntimeError)
    assert issubclass(cardcore.PluginWarning, UserWarning)
    assert issubclass(LedgerError, CardcoreError) and issubclass(LedgerError, ValueError)
    for name in cardcore.__all__:
        obj = getattr(cardcore, name)
        if (
            isinstance(obj, type)
            and issubclass(obj, Exception)
            and obj is not cardcore.PluginWarning
        ):
            assert issubclass(obj, CardcoreError), name


def test_rule_id_parsed_from_message_end() -> None:
    assert CardcoreError("x (CORE-NOTATION-2)").rule_id == "CORE-NOTATION-2"
    assert CardcoreError("x (SPIT-START-1/2)").rule_id == "SPIT-START-1"
    assert CardcoreError("x (TONK-SPREAD-1, TONK-SPREAD-2)").rule_id == "TONK-SPREAD-1"
    assert CardcoreError("x (CORE-TURN-1) later").rule_id is None
    assert CardcoreError("x").rule_id is None and CardcoreError().rule_id is None
    assert OptionError("bad (GOLF-CAP-1)").rule_id == "GOLF-CAP-1"


def test_documented_error_attributes() -> None:
    act = Knock(0)
    err = IllegalActionError("not your turn (CORE-TURN-1)", action=act, rule_id="CORE-TURN-1")
    assert err.action is act and err.rule_id == "CORE-TURN-1"
    stale = StaleActionError("gone (SPIT-RT-1)", action="play", rule_id="SPIT-RT-1")
    assert stale.action == "play" and isinstance(stale, IllegalActionError)
    perr = PluginError("boom", plugin="golf.jokers")
    assert perr.plugin == "golf.jokers" and PluginError("boom").plugin is None


def test_illegal_action_error_rule_id_from_message() -> None:
    assert IllegalActionError("not your turn (CORE-TURN-1)").rule_id == "CORE-TURN-1"


def test_seat_error_from_a_game_carries_core_seat_1() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(SeatError) as info:
        game.legal_actions(5)
    assert info.value.rule_id == "CORE-SEAT-1"
    with pytest.raises(IllegalActionError) as hist:
        game.history(since=-1)
    assert hist.value.rule_id is None


# --------------------------------------------------------------------------- plugins lookups


def test_available_games_and_rules_sorted_tuples() -> None:
    games = cardcore.available_games()
    assert list(games) == sorted(games) and {"golf", "tonk", "spit", "speed"} <= set(games)
    for game in ("golf", "tonk"):
        rules = cardcore.available_rules(game)
        assert list(rules) == sorted(rules) and all(r.startswith(game + ".") for r in rules)
    with pytest.raises(UnknownPluginError) as info:
        cardcore.available_rules("no-such-game")
    assert info.value.rule_id is None


def test_earlier_rules_docstring() -> None:
    assert cardcore.earlier_rules("speed", "0.2.0") == ("speed.stuck-on-request",)
    assert cardcore.earlier_rules("speed", "0.3.0") == ()
    # a pre-release orders just before its release
    assert cardcore.earlier_rules("speed", "0.3.0a1") == ("speed.stuck-on-request",)
    with pytest.raises(UnknownPluginError):
        cardcore.earlier_rules("no-such-game", "0.1")
    for version in ("0.5A1", "0.5-rc1", 1):
        with pytest.raises(ArgumentError):
            cardcore.earlier_rules("speed", version)  # type: ignore[arg-type]


def test_get_ruleset_cached_and_resolve() -> None:
    a = cardcore.get_ruleset("golf")
    assert a is cardcore.get_ruleset("golf")
    with pytest.raises(PluginError):
        a.resolve("no_such_hook")
    with pytest.raises(UnknownPluginError) as info:
        cardcore.get_ruleset("no-such-game")
    assert info.value.rule_id is None
    with pytest.raises(UnknownPluginError):
        cardcore.get_ruleset("golf", rules=["golf.no-such-rule"])
    with pytest.raises(RuleConflictError):
        cardcore.get_ruleset("golf", rules=["tonk.must-lay-down"])


def test_lazy_view_wraps_a_mapping_read_only() -> None:
    view = LazyView({"a": 1, "b": [2]})
    assert view["a"] == 1 and len(view) == 2 and dict(view) == {"a": 1, "b": [2]}
    with pytest.raises(TypeError):
        view["a"] = 2  # type: ignore[index]


def test_jsonable_doc() -> None:
    data = cardcore.jsonable(
        {"c": Card.parse("10H"), 1: (1, 2), "s": {3, 1}, "r": Result((0,), (1.0,), None, "x")}
    )
    assert data == {
        "c": "10H",
        "1": [1, 2],
        "s": [1, 3],
        "r": {"winners": [0], "scores": [1.0], "payouts": None, "reason": "x"},
    }
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(ArgumentError):
        cardcore.jsonable(loop)
    with pytest.raises(ArgumentError):
        cardcore.jsonable(10**5000)
