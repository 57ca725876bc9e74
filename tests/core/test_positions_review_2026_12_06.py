"""Review by reading of positions, action notation, saved games and the CLI's replay/verify
(2026-12-06).

Each strict xfail pins a bug the review found (see its reason); every other test pins a claim
of the docs that held. Every game here is played from a fixed seed by a seeded
``random.Random``, so the file is deterministic.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import cardcore
from cardcore import CorruptStateError, IllegalActionError, NotationError, OptionError


def _played(name: str, players: int, seed: int, steps: int, **kw: object) -> cardcore.Game:
    """A game played at most *steps* actions, each a seeded random pick among every seat's
    legal actions."""
    rng = random.Random(seed)
    game = cardcore.new_game(name, players, seed=seed, **kw)
    for _ in range(steps):
        if game.is_over:
            break
        legal = [a for s in game.to_act for a in game.legal_actions(s)]
        game.apply(rng.choice(legal))
    return game


def _finished_golf() -> cardcore.Game:
    game = _played("golf", 2, 5, 500, options={"rounds": 1})
    assert game.is_over and game.result is not None and game.result.reason == "rounds"
    return game


def _move_first_card(text: str, source: str, target: str) -> str:
    """*text* with the bottom card of pile *source* moved to the bottom of pile *target*."""
    sections = text.split(" | ")
    names = [s.partition(":")[0] for s in sections]
    src, dst = names.index(source), names.index(target)
    name, _, rest = sections[src].partition(":")
    cards = rest.split()
    moved = cards.pop(0)
    sections[src] = f"{name}: {' '.join(cards)}"
    name, _, rest = sections[dst].partition(":")
    sections[dst] = f"{name}: {' '.join([moved, *rest.split()])}"
    return " | ".join(sections)


def _same_game(a: cardcore.Game, b: cardcore.Game) -> None:
    """CORE-POSITION-1: every seat (and a spectator) sees the same, version apart."""
    for seat in [None, *range(len(a.players))]:
        va, vb = a.view(seat), b.view(seat)
        va.pop("version"), vb.pop("version")
        assert va == vb, seat


# -- positions written by the engine read back -------------------------------------------------

ROUND_TRIPS = [
    ("golf", 2, {"options": {"layout": 6, "rounds": 2}}),
    ("golf", 3, {"options": {"layout": 4, "rounds": 2}}),
    ("golf", 2, {"options": {"layout": "4h", "rounds": 2}}),
    ("golf", 2, {"options": {"layout": 9, "rounds": 2}, "rules": ("golf.remove-triples",)}),
    ("golf", 2, {"options": {"layout": 8, "rounds": 2}, "rules": ("golf.jokers",)}),
    ("golf", 2, {"options": {"layout": 10, "rounds": 2}, "rules": ("golf.remove-columns",)}),
    ("tonk", 3, {"options": {"hands": 3}, "rules": ("tonk.natural-49-50",)}),
    ("tonk", 2, {"options": {"hands": 2}, "rules": ("tonk.stock-out-discard-only",)}),
    ("spit", 2, {"rules": ("spit.canfield",)}),
    ("spit", 2, {}),
    ("speed", 2, {"options": {"jokers": 2}}),
    ("gofish", 3, {}),
]


@pytest.mark.parametrize(("name", "players", "kw"), ROUND_TRIPS)
def test_positions_written_mid_game_read_back_to_the_same_game(
    name: str, players: int, kw: dict[str, object]
) -> None:
    if name == "gofish":
        pytest.importorskip("cardcore_gofish")
    rng = random.Random(3)
    game = cardcore.new_game(name, players, seed=3, **kw)
    checked = 0
    for i in range(240):
        if game.is_over:
            break
        if i % 5 == 0:
            text = game.position()
            copy = cardcore.new_game(name, players, position=text, seed=1, **kw)
            assert copy.position() == text
            _same_game(game, copy)
            checked += 1
        legal = [a for s in game.to_act for a in game.legal_actions(s)]
        game.apply(rng.choice(legal))
    assert checked >= 2


def test_a_finished_golf_match_reads_back_over_with_its_result() -> None:
    game = _finished_golf()
    copy = cardcore.new_game("golf", 2, position=game.position(), options={"rounds": 1})
    assert copy.is_over and copy.result == game.result
    _same_game(game, copy)


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_a_finished_spit_or_speed_game_is_refused_as_documented(name: str) -> None:
    # docs/games/spit.rst (SPEED-NOTE-2, cardcore_spit.position): "cannot be read back"
    game = _played(name, 2, 0, 6000)
    assert game.is_over
    with pytest.raises(OptionError, match="bad position"):
        cardcore.new_game(name, 2, position=game.position(), seed=1)


# -- positions that are wrong --------------------------------------------------------------------


def test_a_finished_golf_position_whose_grid_has_a_card_too_many_is_refused() -> None:
    text = _finished_golf().position()
    bad = _move_first_card(text, "stock", "grid.0")  # grid.0: 7 cards in a 6-card layout
    with pytest.raises(OptionError, match=r"grid\.0"):
        cardcore.new_game("golf", 2, position=bad, options={"rounds": 1})


def test_a_mid_game_golf_position_whose_grid_has_a_card_too_many_is_refused() -> None:
    text = _played("golf", 2, 5, 12, options={"rounds": 1}).position()
    bad = _move_first_card(text, "stock", "grid.0")
    with pytest.raises(OptionError, match=r"grid\.0 must hold 6 cards"):
        cardcore.new_game("golf", 2, position=bad, options={"rounds": 1})


def test_a_gofish_position_with_a_stock_card_known_to_a_seat_is_refused() -> None:
    pytest.importorskip("cardcore_gofish")
    text = cardcore.new_game("gofish", 3, seed=1).position()
    head, _, rest = text.partition(" | stock: ")
    first, _, tail = rest.partition(" ")
    bad = f"{head} | stock: {first}@2 {tail}"
    with pytest.raises(OptionError, match="stock"):
        cardcore.new_game("gofish", 3, position=bad, seed=2)


@pytest.mark.parametrize(
    ("name", "players", "kw"),
    [("golf", 2, {}), ("tonk", 3, {}), ("spit", 2, {}), ("speed", 2, {})],
)
def test_a_stock_card_marked_known_is_refused_in_the_built_in_games(
    name: str, players: int, kw: dict[str, object]
) -> None:
    text = _played(name, players, 2, 4, **kw).position()
    pile = {"golf": "stock", "tonk": "stock", "spit": "spit.0", "speed": "stock.0"}[name]
    head, sep, rest = text.partition(f" | {pile}: ")
    first, _, tail = rest.partition(" ")
    assert sep and "!" not in first and "@" not in first
    with pytest.raises(OptionError, match="bad position"):
        cardcore.new_game(name, players, position=f"{head}{sep}{first}@1 {tail}", seed=1, **kw)


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
def test_a_duplicated_or_missing_card_is_refused_naming_the_cards(name: str) -> None:
    game = _played(name, 2, 4, 3)
    text = game.position()
    sections = text.split(" | ")
    # the first non-empty pile's bottom card written twice, in place of another pile's bottom
    piles = [i for i, s in enumerate(sections[1:], 1) if s.partition(":")[2].split()]
    a, b = piles[0], piles[1]
    dup = sections[a].partition(":")[2].split()[0]
    name_b, _, rest_b = sections[b].partition(":")
    lost, *others = rest_b.split()
    sections[b] = f"{name_b}: {' '.join([dup, *others])}"
    with pytest.raises(OptionError, match=r"exactly once \(missing \[.*\], extra \[.*\]\)"):
        cardcore.new_game(name, 2, position=" | ".join(sections), seed=1)
    assert lost != dup


@pytest.mark.parametrize(
    "mangle",
    [
        lambda t: t.replace(" | ", " | nowhere: | ", 1),
        lambda t: t.replace("stock:", "stock :", 1) + " | stock:",
        lambda t: t.replace("stock: ", "stock: 2S@99 ", 1),
        lambda t: t.replace("stock: ", "stock: 2S@x ", 1),
        lambda t: t.replace("stock: ", "stock: 1H ", 1),
        lambda t: t.replace("turn=1", "turn=[", 1),
        lambda t: t.replace("turn=1", "turn=1e999", 1),
        lambda t: t.replace("turn=1", "turn=1 turn=1", 1),
        lambda t: t.replace("totals=[0,0]", "totals=[0,0,0]", 1),
        lambda t: t.replace('phase="draw"', 'phase=["draw"]', 1),
        lambda t: t.replace("golf", "golf\x00", 1),
        lambda t: t + " " * 20_001,
        lambda t: t.split(" | ")[0],
    ],
)
def test_hostile_golf_position_text_raises_option_error(mangle: object) -> None:
    text = _played("golf", 2, 5, 6).position()
    assert " turn=1 " in text and 'phase="draw"' in text and "totals=[0,0]" in text
    with pytest.raises(OptionError, match="bad position"):
        cardcore.new_game("golf", 2, position=mangle(text), seed=1)  # type: ignore[operator]


# -- action notation ------------------------------------------------------------------------------


def test_notation_claims_of_the_docs_hold() -> None:
    golf = cardcore.new_game("golf", 2, seed=5)
    assert str(golf.act(0, "flip 00")) == "flip 0"  # leading zeros read, recorded without
    assert golf.record()["actions"][-1][1] == "flip 0"
    with pytest.raises(IllegalActionError):
        golf.act(0, "flip 6")  # a number the words allow but the table lacks
    with pytest.raises(NotationError):
        golf.act(0, "flip " + "1" * 16)  # more than 15 digits: malformed
    with pytest.raises(NotationError):
        golf.act(0, "flip ²")
    with pytest.raises(NotationError):
        golf.act(0, "flip 1" + " " * 200)  # longer than 200 characters: rejected unread
    tonk = cardcore.new_game("tonk", 2, seed=11)
    with pytest.raises(NotationError):
        tonk.act(tonk.to_act[0], "hit 0 AS")
    spit = cardcore.new_game("spit", 2, seed=7)
    with pytest.raises(NotationError):
        spit.act(0, "play 6 L")
    assert golf.version == 1 and tonk.version == 0 and spit.version == 0


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
def test_hostile_action_text_raises_only_library_errors(name: str) -> None:
    words = ["draw", "flip", "hit", "play", "spread", "0", "-1", "1.0", "L", "AS", "JK", "1H",
             "\x00", "Ａ", "\u00a0", "٣", "10h", "|", "@0", "!"]  # fmt: skip
    rng = random.Random(8)
    game = _played(name, 2, 6, 5)
    before = game.position()
    for _ in range(300):
        text = " ".join(rng.choice(words) for _ in range(rng.randrange(4)))
        seat = rng.choice([0, 1, 2, -1])
        try:
            game.act(seat, text)
        except cardcore.CardcoreError:
            continue
        before = game.position()  # a legal action: the game moved on
    assert game.position() == before


# -- records and the CLI ---------------------------------------------------------------------------


def _record_file(tmp_path: Path, record: dict[str, object], name: str = "rec.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


def _truncated_record() -> dict[str, object]:
    game = cardcore.new_game("golf", 2, seed=3)
    agents = [cardcore.load_agent("random", seed=1), cardcore.load_agent("random", seed=2)]
    cardcore.play(game, agents, max_actions=5)
    record = game.record()
    assert record["truncated"] is True and game.result is not None
    assert cardcore.replay(record).result == game.result  # the library replays it
    return record


def test_cli_verify_accepts_a_truncated_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cardcore import cli

    assert cli.main(["verify", _record_file(tmp_path, _truncated_record())]) == 0
    assert "(truncated)" in capsys.readouterr().out


def test_cli_replay_shows_a_truncated_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("rich")
    from cardcore import cli

    path = _record_file(tmp_path, _truncated_record())
    status = cli.main(["replay", path, "--final"])
    assert status == 0, capsys.readouterr().err


def _tampered() -> list[tuple[str, dict[str, object]]]:
    game = _played("tonk", 3, 5, 12)
    record = game.record()
    actions = record["actions"]
    assert isinstance(actions, list) and len(actions) >= 3
    out = []
    swapped = json.loads(json.dumps(record))
    swapped["actions"][0], swapped["actions"][1] = actions[1], actions[0]
    out.append(("swapped actions", swapped))
    reseeded = json.loads(json.dumps(record))
    reseeded["seed"] = int(record["seed"]) + 1  # type: ignore[call-overload]
    out.append(("another seed", reseeded))
    positioned = json.loads(json.dumps(record))
    positioned["position"] = _played("tonk", 3, 2, 0).position().replace("@0", "@1", 1)
    out.append(("a bad position", positioned))
    result = json.loads(json.dumps(_played("tonk", 3, 2, 400).record()))
    assert result["result"] is not None
    result["result"]["winners"] = [w for w in range(3) if w not in result["result"]["winners"]]
    out.append(("an edited result", result))
    return out


@pytest.mark.parametrize("command", ["verify", "replay"])
def test_cli_refuses_tampered_records_naming_the_file_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    if command == "replay":
        pytest.importorskip("rich")
    from cardcore import cli

    for i, (what, record) in enumerate(_tampered()):
        with pytest.raises(CorruptStateError):
            cardcore.replay(record)
        path = _record_file(tmp_path, record, f"t{i}.json")
        assert (
            cli.main([command, path, "--final"] if command == "replay" else [command, path]) == 2
        ), what
        err = capsys.readouterr().err
        assert err.startswith("error: ") and f"t{i}.json" in err and "Traceback" not in err, what


@pytest.mark.parametrize(
    "text", ["", "[]", "{", '{"format": "cardcore-record"}', "null", "\ufeff{}"]
)
def test_cli_verify_refuses_unreadable_files_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    from cardcore import cli

    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    assert cli.main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "Traceback" not in err


def test_a_tampered_save_loads_nothing() -> None:
    game = _played("golf", 2, 5, 10)
    saved = game.save()
    saved = json.loads(json.dumps(saved))
    stock = saved["state"]["zones"]["stock"]["cards"]
    grid = saved["state"]["zones"]["grid.0"]["cards"]
    stock[0], grid[0] = grid[0], stock[0]  # a card swapped between the stock and a layout
    with pytest.raises(CorruptStateError):
        cardcore.load(saved)
