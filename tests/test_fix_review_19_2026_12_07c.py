"""Adversarial review of the day's changes to src/ and plugins/ (cb4b6bdb..15089392): Golf's
``public`` view field and its reader in the search, the event bus's ``wants_game_events``
flag, the CLI renderer dropping empty per-seat columns, ``load``'s messages and rule IDs,
the refusals of ``play``/``run_realtime``/``new_game``/``simulate``/``cardcore play``, and
the web server's seat-count check.
"""

from __future__ import annotations

import copy
import random
import warnings
from typing import Any

import pytest

import cardcore
from cardcore import (
    ActionApplied,
    CardcoreError,
    CorruptStateError,
    Event,
    GameEnded,
    GameStarted,
    OptionError,
    PluginError,
)
from cardcore.search import sample_position, view_config

# --------------------------------------------------------------------------- helpers


def _golf4_after_take(layout: str = "4") -> cardcore.Game:
    """Peeks, then the first seat to move takes the discard into position 0."""
    game = cardcore.new_game("golf", 2, seed=3, options={"layout": layout})
    for _ in range(12):
        seat = game.to_act[0]
        texts = [str(a) for a in game.legal_actions(seat)]
        if "replace 0" in texts:
            game.act(seat, "replace 0")
            return game
        game.act(seat, "take" if "take" in texts else texts[0])
    raise AssertionError("no take happened")


def _play_random(game: cardcore.Game, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over or not game.to_act:
            return
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        game.apply(legal[rng.randrange(len(legal))])


def _sample(view: dict[str, Any], seed: int) -> cardcore.Game:
    config = view_config(view)
    rng = random.Random(seed)
    return cardcore.new_game(
        config.game,
        config.players,
        rules=config.rules,
        without=config.without,
        options=config.options,
        position=sample_position(view, rng),
        seed=rng.getrandbits(32),
    )


# --------------------------------------------------------------------------- 1. golf public


def test_huge_int_in_public_is_refused_as_the_views_error() -> None:
    game = _golf4_after_take()
    view = game.view(0)
    bad = copy.deepcopy(view)
    bad["table"]["public"][0] = [10**5000]
    with pytest.raises(CardcoreError, match="not a golf view") as err:
        sample_position(bad, random.Random(0))
    assert not isinstance(err.value, PluginError)


@pytest.mark.parametrize(
    "public",
    [
        [["0"], ["0"]],  # text, not positions
        ((0,), ()),  # not a list
        {0: [0]},
        [[-1], []],
        [[[0]], []],  # nested, unhashable
        [[0.0], []],
        [[0], [], []],  # a seat too many
    ],
)
def test_hostile_public_values_are_the_views_error(public: Any) -> None:
    game = _golf4_after_take()
    for seat in (0, 1):
        bad = copy.deepcopy(game.view(seat))
        bad["table"]["public"] = public
        with pytest.raises(CardcoreError, match="not a golf view") as err:
            sample_position(bad, random.Random(0))
        assert not isinstance(err.value, PluginError)


@pytest.mark.parametrize("layout", ["4", "4h"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_public_same_for_every_viewer_and_names_exactly_what_others_see(
    layout: str, seed: int
) -> None:
    """golf.rst: ``public`` is the same in every seat's view and a spectator's; in a face-down
    layout a card of another's layout is shown to a seat exactly when it is public (no peeked
    card of another seat leaks), and the public cards are shown in every view."""
    game = cardcore.new_game("golf", 3, seed=seed, options={"layout": layout})
    for step in range(40):
        if game.is_over:
            break
        views = {s: game.view(s) for s in (0, 1, 2, None)}
        publics = [v["table"]["public"] for v in views.values()]
        assert all(p == publics[0] for p in publics), step
        if views[0]["table"]["phase"] != "over":
            for seat in (0, 1, 2):
                grids = views[seat]["table"]["grids"]
                for owner, grid in enumerate(grids):
                    shown = [p for p, c in enumerate(grid) if c not in (None, "--")]
                    if owner != seat:
                        assert shown == publics[0][owner], (step, seat, owner)
                    else:
                        assert set(publics[0][owner]) <= set(shown)
        _play_random(game, 1, seed * 100 + step)


@pytest.mark.parametrize("layout", ["4", "4h"])
def test_sampled_worlds_keep_the_taken_discard_public(layout: str) -> None:
    game = _golf4_after_take(layout)
    owner = game.record()["actions"][-1][0]
    for seat in (0, 1):
        view = game.view(seat)
        assert 0 in view["table"]["public"][owner]
        for s in range(3):
            twin = _sample(view, s)
            assert twin.view(seat)["table"]["public"] == view["table"]["public"]
            assert twin.view(seat)["table"]["grids"] == view["table"]["grids"]


@pytest.mark.parametrize("layout", ["4", "4h"])
def test_whole_game_public_agrees_and_samples_keep_it(layout: str) -> None:
    """Through every round of a whole two-seat game: ``public`` is the same for every viewer,
    and a sample of either seat's view reads back the same ``public`` and ``grids``."""
    game = cardcore.new_game("golf", 2, seed=3, options={"layout": layout})
    rng = random.Random(3)
    rounds = set()
    for step in range(400):
        if game.is_over:
            break
        views = {s: game.view(s) for s in (0, 1, None)}
        rounds.add(views[0]["table"]["round"])
        assert views[0]["table"]["public"] == views[1]["table"]["public"]
        assert views[0]["table"]["public"] == views[None]["table"]["public"]
        if step % 9 == 0 and views[0]["table"]["phase"] != "over":
            for seat in (0, 1):
                twin = _sample(views[seat], step).view(seat)
                assert twin["table"]["public"] == views[seat]["table"]["public"], step
                assert twin["table"]["grids"] == views[seat]["table"]["grids"], step
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        game.apply(legal[rng.randrange(len(legal))])
    assert game.is_over and len(rounds) > 1


# --------------------------------------------------------------------------- 2. the bus flag


def test_game_started_alone_does_not_build_the_games_own_events() -> None:
    got: list[Event] = []
    game = cardcore.new_game("golf", 2, seed=4, subscribers=[(GameStarted, got.append)])
    assert [type(e) for e in got] == [GameStarted]
    assert game.events.wants_game_events is False
    game.act(0, "flip 0")
    assert [type(e) for e in got] == [GameStarted]


@pytest.mark.parametrize("kind", [GameStarted, ActionApplied, GameEnded])
def test_core_three_alone_keep_flag_off_and_any_other_turns_it_on(kind: type[Event]) -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    sub = game.events.subscribe(kind, lambda e: None)
    assert game.events.wants_game_events is False
    everything: list[Event] = []
    other = game.events.subscribe(Event, everything.append)
    try:
        assert game.events.wants_game_events is True
        game.act(0, "flip 0")
        own = [e for e in everything if type(e) not in (GameStarted, ActionApplied, GameEnded)]
        assert own  # the game's own events were built and delivered
    finally:
        game.events.unsubscribe(other)
        game.events.unsubscribe(sub)
    assert game.events.wants_game_events is False


def test_game_started_subscriber_events_equal_a_full_subscribers_started() -> None:
    only: list[Event] = []
    full: list[Event] = []
    cardcore.new_game("tonk", 2, seed=9, subscribers=[(GameStarted, only.append)])
    cardcore.new_game("tonk", 2, seed=9, subscribers=[(Event, full.append)])
    assert only == [e for e in full if isinstance(e, GameStarted)]


# --------------------------------------------------------------------------- 3. the renderer

pytest.importorskip("rich")
from rich.console import Console  # noqa: E402

from cardcore.cli.render import render_view  # noqa: E402


def _text(view: dict[str, Any], schema: dict[str, Any]) -> str:
    console = Console(record=True, width=200, color_system=None)
    console.print(render_view(view, schema))
    return console.export_text()


def _header(text: str) -> str:
    return next(line for line in text.splitlines() if "seat: player" in line)


def _view(table: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": "cardcore-view/2",
        "game": "t",
        "version": 0,
        "seat": 0,
        "players": ["Ann", "Bob"],
        "to_act": [0],
        "is_over": False,
        "result": None,
        "rules": [],
        "options": {},
        "legal": [],
        "table": table,
        "zones": [],
    }


def _schema(of: str) -> dict[str, Any]:
    field = {"name": "thing", "kind": "per-seat", "of": of, "label": "thingy", "doc": ""}
    return {"game": "t", "zones": [], "fields": [field]}


@pytest.mark.parametrize(
    ("of", "values", "drawn"),
    [
        ("card", [None, None], True),  # hidden cards say something (module docstring)
        ("card", ["", ""], False),
        ("cards", [None, None], False),  # None is "nothing" but in a card column
        ("json", [None, []], False),
        ("json", [[None], []], True),  # a list holding a hidden card is not empty
        ("int", [0, None], True),
        ("str", ["x", ""], True),
    ],
)
def test_per_seat_column_drawn_exactly_when_it_says_something(
    of: str, values: list[Any], drawn: bool
) -> None:
    head = _header(_text(_view({"thing": values}), _schema(of)))
    assert ("thingy" in head) is drawn


@pytest.mark.parametrize("values", ["abc", {"0": 1}, 7])
def test_per_seat_field_that_is_not_a_list_draws_dashes_not_an_exception(values: Any) -> None:
    text = _text(_view({"thing": values}), _schema("int"))
    assert "thingy" in _header(text)


def test_golf4_public_column_appears_only_once_something_is_public() -> None:
    game = cardcore.new_game("golf", 2, seed=3, options={"layout": "4"})
    schema = game.view_schema()
    assert game.view(0)["table"]["public"] == [[], []]
    assert "known to all" not in _header(_text(game.view(0), schema))
    game = _golf4_after_take()
    for seat in (0, 1, None):
        assert "known to all" in _header(_text(game.view(seat), game.view_schema()))


# --------------------------------------------------------------------------- 4. load


def _golf_save() -> dict[str, Any]:
    game = cardcore.new_game("golf", 2, seed=3)
    game.act(0, "flip 0")
    return game.save()


@pytest.mark.parametrize(
    ("mutate", "starts"),
    [
        (lambda r: r.__setitem__("format", "x"), "saved game's record: not a cardcore record"),
        (lambda r: r.pop("format"), "saved game's record: not a cardcore record"),
        (lambda r: r.__setitem__("players", ["A"]), "saved game's record cannot start its game"),
        (lambda r: r.__setitem__("game", 5), "saved game's record field 'game'"),
        (lambda r: r.__setitem__("result", {"x": 1}), "saved game's record result"),
    ],
)
def test_load_names_the_saved_games_record_and_replay_its_record(mutate: Any, starts: str) -> None:
    save = _golf_save()
    mutate(save["record"])
    with pytest.raises(CorruptStateError) as by_load:
        cardcore.load(save)
    assert str(by_load.value).startswith(starts)
    with pytest.raises(CorruptStateError) as by_replay:
        cardcore.replay(save["record"])
    # the same failure, the record's text after "record" kept whole
    tail = str(by_replay.value).removeprefix("record")
    assert str(by_load.value).endswith(tail)
    assert by_load.value.rule_id == by_replay.value.rule_id


def test_load_keeps_core_seat_2_of_a_one_player_record() -> None:
    save = _golf_save()
    save["record"]["players"] = ["A"]
    with pytest.raises(CorruptStateError) as err:
        cardcore.load(save)
    assert err.value.rule_id == "CORE-SEAT-2"
    assert "golf takes 2 to 64 players, not 1" in str(err.value)


def test_load_json_text_of_a_bad_record_says_saved_game() -> None:
    save = _golf_save()
    save["record"]["actions"][0] = [0, "flip 99", None]
    import json

    with pytest.raises(CorruptStateError, match=r"^saved game's record action 0"):
        cardcore.load(json.dumps(save))


# --------------------------------------------------------------------------- 5. refusals


class _Int(int):
    def __index__(self) -> int:
        raise RuntimeError("read me plainly")

    def __int__(self) -> int:
        raise RuntimeError("read me plainly")


@pytest.mark.parametrize(
    "n",
    [0, 65, 10**5000, -(10**5000), _Int(0), _Int(100)],
    ids=["0", "65", "huge", "-huge", "sub0", "sub100"],
)
def test_new_game_out_of_range_counts_name_the_games_range(n: int) -> None:
    info = cardcore.game_info("spit")
    assert (info.min_players, info.max_players) == (2, 2)
    with pytest.raises(OptionError, match=r"^spit takes exactly 2 players, not ") as err:
        cardcore.new_game("spit", n, seed=1)
    assert err.value.rule_id == "CORE-SEAT-2"


def test_new_game_int_subclass_in_range_is_read_plainly() -> None:
    game = cardcore.new_game("golf", _Int(3), seed=1)
    assert game.players == ("Player 1", "Player 2", "Player 3")


@pytest.mark.parametrize("n", [0, 65, _Int(100)])
def test_simulate_out_of_range_names_the_games_range(n: int) -> None:
    with pytest.raises(OptionError, match=r"spit takes exactly 2 players, not .*CORE-SEAT-2"):
        cardcore.simulate("spit", players=n, games=1, seed=1)


@pytest.mark.parametrize(
    "seed", [-1, -(10**5000), True, 1.0, "1"], ids=["-1", "-huge", "bool", "float", "str"]
)
def test_run_realtime_refuses_bad_seeds_before_any_move(seed: Any) -> None:
    game = cardcore.new_game("speed", 2, seed=1)
    agents = [cardcore.load_agent("random", seed=1), cardcore.load_agent("random", seed=2)]
    with pytest.raises(OptionError, match="seed must be a whole number of at least 0"):
        cardcore.run_realtime(game, agents, seed=seed)
    assert game.version == 0


def test_run_realtime_accepts_a_large_seed() -> None:
    game = cardcore.new_game("speed", 2, seed=1)
    agents = [cardcore.load_agent("random", seed=1), cardcore.load_agent("random", seed=2)]
    result = cardcore.run_realtime(game, agents, seed=2**200, max_actions=3)
    assert result is not None and game.version >= 1


def test_play_refuses_an_agent_of_other_games_before_any_move() -> None:
    class Picky:
        games = ("tonk",)

        def choose(self, view: Any, legal: Any) -> Any:
            return legal[0]

    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(OptionError, match=r"plays tonk, not 'golf'"):
        cardcore.play(game, [cardcore.load_agent("random", seed=1), Picky()])
    assert game.version == 0


# --------------------------------------------------------------------------- 6. the CLI


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from cardcore.cli import main

    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out = capsys.readouterr()
    return code, out.out + out.err


def test_cli_play_help_states_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _cli(["play", "--help"], capsys)
    text = " ".join(out.split())
    assert "play, the fewest the game takes" in text
    assert "simulate, 4 or the nearest count the game takes" in text


def test_cli_defaults_match_the_help() -> None:
    """play: the fewest; simulate: 4, or the nearest count the configuration takes."""
    from cardcore.simulate import seats_for

    for name in ("golf", "tonk", "spit", "gofish"):
        info = cardcore.game_info(name)
        assert seats_for(name, info.min_players) == info.min_players
        want = min(max(4, info.min_players), info.max_players)
        if name == "tonk":
            want = 3  # TONK-GEN-1: max_players defaults to 3
        assert seats_for(name, 4) == want


def test_cli_play_tonk_65_names_tonks_range(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _cli(["play", "tonk", "--players", "65"], capsys)
    assert code != 0 and "tonk takes 2 to 4 players, not 65 (CORE-SEAT-2)" in " ".join(out.split())


# --------------------------------------------------------------------------- 7. the web server


def _web_posts(bodies: list[Any]) -> list[Any]:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from cardcore.web import WebServer, create_app

    server = WebServer(None, bot_delay=0.0)
    out = []
    with TestClient(create_app(server), raise_server_exceptions=False) as client:
        for body in bodies:
            if isinstance(body, bytes):
                r = client.post(
                    "/api/sessions", content=body, headers={"content-type": "application/json"}
                )
            else:
                r = client.post("/api/sessions", json=body)
            out.append((r.status_code, r.json()))
    return out


def test_web_seat_counts_name_the_games_range() -> None:
    seats = [{"name": f"P{i}"} for i in range(65)]
    got = _web_posts(
        [
            {"game": "spit", "seats": seats[:3]},
            {"game": "spit", "seats": seats},
            {"game": "spit", "seats": []},
            {"game": "gofish", "seats": seats},
            {"game": "spit", "seats": seats[:2]},
            b'{"game": "spit", "seats": ' + b"9" * 5000 + b"}",
        ]
    )
    assert got[0] == (400, {"error": "spit takes exactly 2 players, not 3 (CORE-SEAT-2)"})
    assert got[1] == (400, {"error": "spit takes exactly 2 players, not 65 (CORE-SEAT-2)"})
    assert got[2] == (400, {"error": "spit takes exactly 2 players, not 0 (CORE-SEAT-2)"})
    assert got[3] == (400, {"error": "gofish takes 2 to 6 players, not 65 (CORE-SEAT-2)"})
    assert got[4][0] == 201
    assert got[5][0] == 400
