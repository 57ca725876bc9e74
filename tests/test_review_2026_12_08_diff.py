"""Review of the day's changes, ``git diff 4df10d7..HEAD -- src plugins docs``
(2026-12-08): version checks in ``earlier_rules``, player names without control
characters, records refusing a nulled result, Tonk's ``shown`` field, ASCII-digit CLI
numbers and ``--agents`` checks, and the web lobby's bots built with fresh seeds.

Plain tests pin behaviour the changes must keep; strict xfails show a bug the
changes introduced (or a call site of the same pattern they left behind).
"""

from __future__ import annotations

import json
import re
import types
from pathlib import Path

import attrs
import pytest

import cardcore
from cardcore import ArgumentError, OptionError, earlier_rules, parse_agent_spec
from cardcore.cli.args import build_parser
from tests.plugins import drawgame

DATA = Path(__file__).resolve().parent / "core" / "data"

# --------------------------------------------------------------------------- holds


def test_records_and_saves_made_before_today_still_load() -> None:
    """The nulled-result, name and version checks leave every stored record loading."""
    files = sorted(DATA.glob("*.json"))
    assert len(files) >= 12
    for path in files:
        data = json.loads(path.read_text())
        game = cardcore.load(data) if "_save" in path.name else cardcore.replay(data)
        assert game.name == data.get("game", data.get("record", {}).get("game")), path.name


def test_earlier_rules_takes_pep440_prereleases_and_refuses_prose() -> None:
    for version, plain in (
        ("0.2.0rc1", "0.2.0"),
        ("0.1.0.dev1", "0.1.0"),
        ("0.1.0.post2", "0.1.0"),
    ):
        assert earlier_rules("golf", version) == earlier_rules("golf", plain), version
    with pytest.raises(ArgumentError, match="version such as"):
        earlier_rules("golf", "latest")


def test_cli_negative_and_spaced_seeds_still_parse() -> None:
    parser = build_parser()
    for argv in (["--seed", "-1"], ["--seed=-1"], ["-s", " -1 "]):
        assert parser.parse_args(["simulate", "golf", *argv]).seed == -1
    with pytest.raises(SystemExit):
        parser.parse_args(["simulate", "golf", "--seed", "\u0663"])  # Arabic-Indic 3


def test_lobby_bots_without_a_seed_get_distinct_fresh_seeds() -> None:
    pytest.importorskip("starlette")
    from cardcore.plugins import game_info
    from cardcore.web._bots import seat_agent

    info = game_info("golf")
    _, first = seat_agent(0, "random", {}, info)
    _, second = seat_agent(1, "random", {}, info)
    assert first["seed"] != second["seed"]
    _, given = seat_agent(1, "golf-greedy:seed=3", {}, info)
    assert given == {}  # the spec's seed is kept, no fresh one added
    with pytest.raises(OptionError, match="seat 1"):
        seat_agent(1, "random:seed=x", {}, info)


# --------------------------------------------------------------------------- findings


def test_game_with_a_ten_digit_version_part_replays_its_own_record() -> None:
    module = types.ModuleType("calvergame")
    vars(module).update(
        GAME=attrs.evolve(drawgame.GAME, name="calvergame", version="2026120801.0.0"),
        create_logic=drawgame.create_logic,
        card_points=drawgame.card_points,
    )
    cardcore.register("cardcore.games", "calvergame", module)
    try:
        game = cardcore.new_game("calvergame", 2, seed=1)
        assert cardcore.replay(game.record()).version == game.version
    finally:
        cardcore.unregister("cardcore.games", "calvergame")


def test_stored_session_and_record_with_a_tab_in_a_name_are_refused_clearly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A name with a control character is refused from now on, on replay and resume too
    (changelog: the web lobby never allowed one; such data is refused in words, not lost
    silently)."""
    import cardcore.setup as setup
    from cardcore.session import MemoryStore, Session

    store = MemoryStore()
    with monkeypatch.context() as patch:  # as yesterday's code accepted the name
        patch.setattr(setup, "_UNSHOWN", re.compile("(?!x)x"))
        session = Session.create("golf", ["Ann\tLee", "Bob"], now=0.0, seed=5, store=store)
        record = cardcore.new_game("golf", ["Ann\tLee", "Bob"], seed=5).record()
        for seat in (0, 1):
            session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0)
        assert session.phase == "playing"
    with pytest.raises(cardcore.CardcoreError, match="no control character"):
        Session.resume(store, session.id, now=2.0)
    with pytest.raises(cardcore.CorruptStateError, match="no control character"):
        cardcore.replay(record)


_TONK_MOVES = [
    (0, "draw"), (0, "discard QC"), (1, "draw"), (1, "discard 2S"), (0, "draw"),
    (0, "discard 4H"), (1, "draw"), (1, "discard 5C"), (0, "draw"), (0, "discard 2H"),
    (1, "take"), (1, "discard 4D"), (0, "draw"), (0, "spread 10S 10D 10C"),
    (0, "discard AS"), (1, "draw"), (1, "discard 3C"), (0, "take"), (0, "hit 1 10H"),
    (0, "discard JH"),
]  # fmt: skip


def test_tonk_shown_is_false_mid_hand_when_no_hand_was_turned_face_up() -> None:
    game = cardcore.new_game("tonk", 2, seed=192)
    for seat, text in _TONK_MOVES:
        game.act(seat, text)
    table = game.view(None)["table"]
    assert table["phase"] == "start"  # the hand goes on: nothing was turned face up
    assert table["shown"] == [False, False]


def test_agent_spec_numbers_are_ascii_digits_like_cli_numbers() -> None:
    for text in ("\u0663", "1_0", "\uff12"):
        try:
            _, params = parse_agent_spec(f"random:seed={text}")
        except OptionError:
            continue
        assert not isinstance(params["seed"], int), (text, params)


def test_compare_agents_refuses_an_empty_name_like_simulate() -> None:
    from cardcore.cli.args import UsageError
    from cardcore.cli.compare import parse_agents

    with pytest.raises(SystemExit):
        build_parser().parse_args(["simulate", "golf", "--agents", "random,,random"])
    with pytest.raises(UsageError):
        parse_agents("random,,random", None, "--agents")
