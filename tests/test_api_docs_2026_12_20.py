"""API reference review (2026-12-20), judged as python-chess's reference would be: every public
name documented once and findable, its docstring saying what it does, its parameters and
``:raises:`` true when tried with bad input, its examples running as shown.

Plain tests pin the claims that hold, with attention to the newest names (``turns.team``,
``turns.seats_from(skip=)``, ``tricks.following``/``trick_winner``, ``Session.cause``,
``rl.Encoding``'s ``progress_by_round``, the kit's ``check_game``/``check_positions``);
strict xfails show what is still wrong. Nothing here builds the Sphinx docs: the docs are read
as ``docs/*.rst`` text, and every game played is seeded (no test depends on a random deal).
"""

from __future__ import annotations

import doctest
import inspect
import re
from pathlib import Path

import numpy as np
import pytest

from cardcore import (
    ArgumentError,
    CardcoreError,
    GameState,
    Layout,
    OptionError,
    Suit,
    Visibility,
    Zones,
    ZoneSpec,
    dealing,
    parse_cards,
    positions,
    tricks,
    turns,
)
from cardcore import testing as kit
from cardcore.session import MemoryStore, Session, SessionConfig, SessionError, TimeControl

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _rst(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def _all_rst() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(DOCS.rglob("*.rst")))


def _state() -> GameState:
    layout = Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("discard", None, Visibility.TOP),
            ZoneSpec("hand.0", 0, Visibility.OWNER),
            ZoneSpec("hand.1", 1, Visibility.OWNER),
        ]
    )
    state = GameState(2, {}, Zones(layout))
    state.seed = 1
    dealing.fill_stock(state, 0, list(reversed(parse_cards("AS 2S 3S 4S 5S 6S"))))
    return state


# -- the docstrings' own examples -------------------------------------------------------


@pytest.mark.parametrize("module", [turns, tricks, positions])
def test_docstring_examples_of_the_building_blocks_run_as_shown(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0


def test_api_rst_documents_turns_and_tricks_with_their_members() -> None:
    api = _rst("api.rst")
    for module in ("cardcore.turns", "cardcore.tricks"):
        assert re.search(rf"^\.\. automodule:: {re.escape(module)}\n   :members:", api, re.M)
    assert {"team", "seats_from"} <= set(turns.__all__)
    assert {"following", "trick_winner"} <= set(tricks.__all__)


# -- turns.team, turns.seats_from(skip=), next_seat -------------------------------------


def test_team_answers_as_documented() -> None:
    assert turns.team(1, 4) == (1, 3)
    assert turns.team(0, 6, teams=3) == (0, 3)
    assert turns.team(0, 4, teams=4) == (0,)  # every seat its own team


@pytest.mark.parametrize(
    ("seat", "players", "teams"),
    [
        (4, 4, 2),
        (-1, 4, 2),
        ("0", 4, 2),
        (True, 4, 2),
        (0, 4, 3),
        (0, 4, 0),
        (0, 4, 2.0),
        (0, 0, 1),
    ],
)
def test_team_refuses_what_its_raises_lists(seat: object, players: object, teams: object) -> None:
    with pytest.raises(ArgumentError):
        turns.team(seat, players, teams=teams)  # type: ignore[arg-type]


def test_seats_from_skip_as_documented() -> None:
    assert turns.seats_from(2, 4) == (2, 3, 0, 1)
    assert turns.seats_from(3, 4, skip={1}) == (3, 0, 2)
    assert turns.seats_from(3, 4, skip=np.array([1])) == (3, 0, 2)  # numpy seats taken
    assert turns.seats_from(3, 4, direction=-1, skip=(2,)) == (3, 1, 0)
    assert turns.seats_from(3, 4, skip={0, 1, 2, 3}) == ()  # "Every seat skipped: ()"


@pytest.mark.parametrize("skip", [5, None, "1", {5}, [True], {1.0}, np.array(1), iter([1])])
def test_seats_from_and_next_seat_refuse_a_skip_of_non_seats(skip: object) -> None:
    with pytest.raises(ArgumentError):
        turns.seats_from(3, 4, skip=skip)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        turns.next_seat(3, 4, skip=skip)  # type: ignore[arg-type]


def test_next_seat_raises_value_error_when_every_seat_is_skipped() -> None:
    with pytest.raises(ValueError, match="every seat of 4 is skipped"):
        turns.next_seat(0, 4, skip={0, 1, 2, 3})
    with pytest.raises(ArgumentError):
        turns.next_seat(0, 4, direction=0)


def test_trick_winner_index_maps_to_a_seat_through_seats_from() -> None:
    """api.rst: seat 1 sits out, 3 led, then 0 and 2; the ace (index 1) is seat 0's."""
    order = turns.seats_from(3, 4, skip={1})
    assert order[tricks.trick_winner(parse_cards("10H AH KH"))] == 0


def test_winners_by_a_mapping_is_refused_or_read_by_its_values() -> None:
    """``winners_by({0: 5, 1: 3})`` answers ``(0,)``: ``min`` and ``enumerate`` walk the keys,
    so the seat with the higher score wins. The docstring promises ``ArgumentError`` for
    scores that are not numbers per seat."""
    try:
        answer = turns.winners_by({0: 5, 1: 3})  # type: ignore[arg-type]
    except ArgumentError:
        return
    assert answer == (1,)


# -- tricks.following / trick_winner ----------------------------------------------------


def test_following_as_documented() -> None:
    hand = parse_cards("KH 2S 9H JK")
    assert [str(c) for c in tricks.following(hand, Suit.HEARTS)] == ["KH", "9H"]
    assert len(tricks.following(hand, Suit.CLUBS)) == 4
    # suit_of "is not called on a lead" (but checked for being callable)
    assert len(tricks.following(hand, None, suit_of=lambda c: 1 / 0)) == 4
    with pytest.raises(ArgumentError):
        tricks.following(hand, None, suit_of=5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "call",
    [
        lambda: tricks.following(set(parse_cards("KH 2S")), Suit.HEARTS),
        lambda: tricks.following("KH 2S", Suit.HEARTS),
        lambda: tricks.following([None], Suit.HEARTS),
        lambda: tricks.following(parse_cards("KH"), "H"),
        lambda: tricks.following(parse_cards("KH"), Suit.HEARTS, suit_of=lambda c: 1 / 0),
        lambda: tricks.following(parse_cards("KH"), Suit.HEARTS, suit_of=lambda c: "H"),
        lambda: tricks.trick_winner([]),
        lambda: tricks.trick_winner(None),
        lambda: tricks.trick_winner(parse_cards("QD 3C"), trump="S"),
        lambda: tricks.trick_winner(parse_cards("QD 3C"), order=5),
        lambda: tricks.trick_winner(parse_cards("QD 3D"), order=lambda c: 1.5),
        lambda: tricks.trick_winner(parse_cards("QD 3D"), order=lambda c: True),
        lambda: tricks.trick_winner(parse_cards("QD 3D"), order=lambda c: 1 / 0),
        lambda: tricks.trick_winner(parse_cards("QD 3D"), order=int),
        lambda: tricks.trick_winner(parse_cards("QD 3D"), suit_of=lambda c: 1 / 0),
    ],
)
def test_tricks_refuse_bad_input_with_argument_error(call: object) -> None:
    with pytest.raises(ArgumentError):
        call()  # type: ignore[operator]


def test_trick_winner_examples_and_jokers() -> None:
    assert tricks.trick_winner(parse_cards("10H AH 2S KH")) == 1
    assert tricks.trick_winner(parse_cards("10H AH 2S KH"), trump=Suit.SPADES) == 2
    assert tricks.trick_winner(parse_cards("QD QD 3C")) == 0
    assert tricks.trick_winner(parse_cards("3D JK 5D")) == 2  # a joker neither follows
    assert tricks.trick_winner(parse_cards("JK 3D JK")) == 0  # a joker lead: jokers follow


def test_trick_winner_order_without_strength_for_a_card_played() -> None:
    """``:raises ArgumentError: ... order ... gives a card that could win (of the suit led,
    or a trump) no whole-number strength``: a card off the suit led, not a trump, needs no
    strength; one that could win does."""
    from cardcore import Rank

    assert tricks.trick_winner(parse_cards("QD 3C"), order={Rank(12): 5}) == 0
    for plays, trump, card in (
        ("QD 3D", None, "3D"),
        ("3D QD", None, "3D"),
        ("QD 3S", Suit.SPADES, "3S"),
    ):
        with pytest.raises(ArgumentError, match=f"gives card {card} no whole-number strength"):
            tricks.trick_winner(parse_cards(plays), order={Rank(12): 5}, trump=trump)


# -- Session.cause ----------------------------------------------------------------------


def _timed_session(store: MemoryStore | None = None) -> Session:
    session = Session.create(
        "golf",
        ["Ann", "Bob"],
        now=0.0,
        seed=7,
        config=SessionConfig(time=TimeControl(turn=10.0)),
        store=store,
        session_id="api-docs" if store is not None else None,
    )
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    session.handle("ann", '{"type": "act", "action": "flip 0", "seen": 0}', now=3.0)
    session.tick(13.5)  # Bob's turn clock (10 s from 3.0) ran out once
    return session


def test_session_cause_names_player_timeout_and_host_across_a_resume() -> None:
    store = MemoryStore()
    session = _timed_session(store)
    assert session.game is not None and session.game.version == 2
    assert [session.cause(v) for v in (1, 2)] == ["player", "timeout"]
    resumed = Session.resume(store, "api-docs", now=20.0)
    assert [resumed.cause(v) for v in (1, 2)] == ["player", "timeout"]
    session.end(14.0)
    assert session.cause(3) == "host"


def test_session_cause_names_the_game_clock() -> None:
    session = Session.create(
        "tonk", ["A", "B"], now=0.0, seed=3, config=SessionConfig(time=TimeControl(total=5.0))
    )
    session.handle("a", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("b", '{"type": "join", "seat": 1}', now=1.0)
    session.tick(10.0)
    assert session.game is not None and session.game.is_over
    assert session.cause(session.game.version) == "clock"


@pytest.mark.parametrize("version", [0, -1, 3, "1", 1.0, True, None, np.int64(1), 2**70])
def test_session_cause_raises_session_error_for_a_version_no_action_made(version: object) -> None:
    session = _timed_session()
    with pytest.raises(SessionError, match="no action made version"):
        session.cause(version)  # type: ignore[arg-type]


def test_session_cause_before_the_game_starts_raises_session_error() -> None:
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    with pytest.raises(SessionError):
        session.cause(1)


def test_session_rst_documents_cause() -> None:
    text = _rst("session.rst")
    assert ".. autoclass:: cardcore.session.Session" in text
    members = re.search(r"autoclass:: cardcore\.session\.Session\n(.*?)\n\n", text, re.S)
    assert members is not None and "cause" in members.group(1)


# -- rl.Encoding, progress_by_round -------------------------------------------------------


def test_encoding_documents_progress_by_round_and_golf_and_tonk_declare_it() -> None:
    from cardcore.rl import Encoding
    from cardcore_golf.encoding import GolfEncoding
    from cardcore_tonk.encoding import TonkEncoding

    assert "progress_by_round = True" in (inspect.getdoc(Encoding) or "")
    assert GolfEncoding.progress_by_round is True
    assert TonkEncoding.progress_by_round is True
    assert "progress_by_round = True" in _rst("rl.rst")


def _module_in_effect(rst: str, line_no: int) -> str | None:
    """The Python module Sphinx has in effect at *line_no* of *rst* (automodule sets it too)."""
    module = None
    for line in rst.splitlines()[:line_no]:
        m = re.match(r"\.\. (?:automodule|py:module|py:currentmodule)::\s*(\S+)", line)
        if m:
            module = None if m.group(1) == "None" else m.group(1)
    return module


def test_rl_constants_are_indexed_under_their_own_names() -> None:
    """``.. automodule:: cardcore_spit.speed.encoding`` leaves that module current, so the
    later ``.. py:data:: cardcore.rl.DEFAULT_MAX_LEGAL`` is prefixed with it: the general
    index and search show ``cardcore_spit.speed.encoding.cardcore.rl.DEFAULT_MAX_LEGAL``."""
    rst = _rst("rl.rst")
    lines = rst.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"\.\. py:data::\s*(\S+)", line)
        if not m:
            continue
        module = _module_in_effect(rst, i)
        name = m.group(1)
        full = f"{module}.{name}" if module else name  # as Sphinx names it (no stripping)
        assert full == "cardcore.rl." + name.rsplit(".", 1)[-1], full


# -- the testing kit ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"checks": []}, OptionError),
        ({"checks": ["nope"]}, OptionError),
        ({"games": 0}, OptionError),
        ({"games": 1.5}, OptionError),
        ({"sample": 2}, OptionError),
        ({"seed": -1}, OptionError),
        ({"full_every": 0}, OptionError),
        ({"samples_per_game": -1}, OptionError),
        ({"options": 5}, OptionError),
        ({"rules": "golf.hard"}, ArgumentError),
        ({"rules": 5}, ArgumentError),
    ],
)
def test_check_game_refuses_its_own_bad_arguments_before_playing(
    kwargs: dict[str, object], error: type[Exception]
) -> None:
    with pytest.raises(error):
        kit.check_game("golf", **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"games": 0}, OptionError),
        ({"sample": "x"}, OptionError),
        ({"rules": "golf.hard"}, ArgumentError),
        ({"players": 99}, OptionError),
    ],
)
def test_check_positions_refuses_bad_arguments(
    kwargs: dict[str, object], error: type[Exception]
) -> None:
    with pytest.raises(error):
        kit.check_positions("golf", **kwargs)  # type: ignore[arg-type]


def test_check_game_unknown_game_is_unknown_plugin_error() -> None:
    from cardcore import UnknownPluginError

    with pytest.raises(UnknownPluginError):
        kit.check_positions("nosuchgame", games=1)


@pytest.mark.parametrize(
    "name", sorted(n for n in kit.__all__ if n.startswith("check_") and n != "check_game")
)
def test_per_check_functions_take_the_keywords_they_document(name: str) -> None:
    """``Takes the keyword arguments of check_game (not *checks*, *full_every*)``; yet
    ``check_positions("golf", samples_per_game=1)`` raises ``TypeError: unexpected keyword``.
    Every keyword of ``check_game`` a check leaves out must be named in that sentence."""
    check = getattr(kit, name)
    doc = " ".join((inspect.getdoc(check) or "").split())
    left_out = set(inspect.signature(kit.check_game).parameters) - set(
        inspect.signature(check).parameters
    )
    m = re.search(r"Takes the keyword arguments of :func:`check_game` \(not ([^)]*)\)", doc)
    assert m is not None
    named = set(re.findall(r"\*(\w+)\*", m.group(1)))
    assert left_out <= named, sorted(left_out - named)


# -- dealing, turns.end_game / reveal_all, positions ----------------------------------------


def test_dealing_refuses_bad_piles_and_counts() -> None:
    with pytest.raises(ArgumentError):
        dealing.fill_stock(_state(), 9, [])
    with pytest.raises(ArgumentError):
        dealing.deal_round_robin(_state(), 0, [2, 3], -1)
    with pytest.raises(CardcoreError, match="cannot deal 10 cards"):
        dealing.deal_round_robin(_state(), 0, [2, 3], 10)
    with pytest.raises(ArgumentError):
        dealing.deal_all(_state(), 0, [0])
    with pytest.raises(ArgumentError):
        dealing.draw_card(_state(), 0, 9)


def test_draw_card_refuses_a_discard_that_is_no_pile_at_once() -> None:
    """``:raises ArgumentError: *stock*, *dst* or *discard* is not a pile``; with cards in the
    stock, ``draw_card(state, 0, 2, discard=9)`` draws, and the bad pile id surfaces only when
    the stock runs out, perhaps many games later."""
    with pytest.raises(ArgumentError):
        dealing.draw_card(_state(), 0, 2, discard=9)


@pytest.mark.parametrize("zones", [[9], 5])
def test_reveal_all_refuses_bad_zones(zones: object) -> None:
    with pytest.raises(CardcoreError):
        turns.reveal_all(_state(), zones)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "args",
    [
        {"winners": 5, "scores": [1, 2]},
        {"winners": [0], "scores": ["a", 1]},
        {"winners": [0], "scores": None},
        {"winners": [0], "scores": [1, 2], "payouts": 5},
    ],
)
def test_end_game_refuses_bad_arguments_with_a_cardcore_error(args: dict[str, object]) -> None:
    """``end_game(state, 5, [1, 2], "x")`` raises ``TypeError: 'int' object is not iterable``,
    ``scores=["a", 1]`` a ``ValueError`` from ``float``; its siblings (``winners_by``,
    ``team``, ``seats_from``) refuse bad input with ``ArgumentError``."""
    with pytest.raises(CardcoreError):
        turns.end_game(_state(), reason="x", **args)  # type: ignore[arg-type]


def test_position_building_blocks_refuse_bad_input_as_documented() -> None:
    zones = _state().zones
    with pytest.raises(OptionError):
        positions.write_position("a b", {}, zones)
    with pytest.raises(OptionError):
        positions.write_position("demo", {"x": float("nan")}, zones)
    with pytest.raises(ArgumentError):
        positions.read_position("demo |", "demo", None, [], 2)  # type: ignore[arg-type]
    with pytest.raises(OptionError):
        positions.read_result(None, 2)


def test_write_position_refuses_zones_that_are_no_zones() -> None:
    with pytest.raises(CardcoreError):
        positions.write_position("demo", {}, None)  # type: ignore[arg-type]


def test_refused_of_a_non_text_message() -> None:
    error = positions.refused(5)  # type: ignore[arg-type]
    assert isinstance(error, OptionError)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 10**16, 1e300])
def test_writable_agrees_with_write_position(value: object) -> None:
    """``writable`` is what ``GameLogic.write_position`` checks a field with, to blame the
    game (``PluginError``); a field it passes that ``write_position`` then refuses reaches
    the host as an ``OptionError`` "bad position" (CORE-POSITION-1) instead."""
    zones = _state().zones
    try:
        positions.write_position("demo", {"x": value}, zones)
        written = True
    except OptionError:
        written = False
    assert positions.writable(value) is written


# -- names in the API reference -----------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["cardcore.web.WebServer", "cardcore.web.create_app", "cardcore.deck.generator"]
)
def test_public_name_has_an_api_entry(name: str) -> None:
    """In ``__all__`` of their modules, yet only named in prose (``web.rst``) or nowhere:
    no ``autoclass``/``autofunction``/``py:`` directive, so nothing in the index or search."""
    module, short = name.rsplit(".", 1)
    text = _all_rst()
    pattern = rf"^\s*\.\. (?:auto\w+|py:\w+)::\s*(?:{re.escape(name)}|{re.escape(module)}\.\w+\.{short})\b"
    current = (
        rf"py:currentmodule:: {re.escape(module)}\n(?:.*\n)*?\.\. (?:auto\w+|py:\w+)::\s*{short}\b"
    )
    assert re.search(pattern, text, re.M) or re.search(current, text)


def test_documented_public_names_have_entries() -> None:
    """A sample that holds: each of these has a directive of its own."""
    text = _all_rst()
    for directive in (
        ".. autoclass:: cardcore.rl.Encoding",
        ".. autoclass:: cardcore.session.Session",
        ".. autofunction:: cardcore.agents.check_agent",
        ".. autofunction:: cardcore.deck.chance_version",
        ".. automodule:: cardcore.dealing",
        ".. automodule:: cardcore.positions",
    ):
        assert directive in text
