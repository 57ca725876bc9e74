"""Adversarial review of 1fa98d7a: the CLI drops a per-seat column with nothing to say, Golf's
``public`` only in the face-down layouts, ``load`` naming a save's record, the refusals of
``play``/``run_realtime``/``new_game`` (CORE-SEAT-2 naming the game's range), and spit.rst's
paragraph on vetoes.
"""

from __future__ import annotations

import copy
import random
import re
import types
import warnings
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import CardcoreError, CorruptStateError, OptionError, RuleInfo, Veto, hookimpl
from cardcore.search import sample_position, view_config

pytest.importorskip("rich")
from rich.console import Console

from cardcore.cli.render import render_view

ROOT = Path(__file__).resolve().parents[1]


def _text(view: dict[str, Any], schema: dict[str, Any], width: int = 80) -> str:
    console = Console(record=True, width=width, color_system=None)
    console.print(render_view(view, schema))
    return console.export_text()


def _header(text: str) -> str:
    """The grid's heading line (the one starting with 'seat: player')."""
    return next(line for line in text.splitlines() if "seat: player" in line)


# --------------------------------------------------------------------------- 1. render_view

NOTHING = (None, "", [], {})


def _per_seat(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in schema["fields"] if f["kind"] == "per-seat"]


def _games() -> list[cardcore.Game]:
    games = [cardcore.new_game("golf", 3, seed=5, options={"layout": lay}) for lay in (6, 8, 9, 10)]
    games += [cardcore.new_game("golf", 2, seed=5, options={"layout": lay}) for lay in ("4", "4h")]
    games += [
        cardcore.new_game("tonk", 3, seed=4),
        cardcore.new_game("spit", 2, seed=4),
        cardcore.new_game("speed", 2, seed=4),
        cardcore.new_game("gofish", 3, seed=4),
    ]
    return games


def _advance(game: cardcore.Game, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over or not game.to_act:
            return
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        texts = [str(a) for a in legal]
        if "take" in texts:
            game.act(seat, "take")
            continue
        game.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("steps", [0, 7])
def test_every_per_seat_field_with_something_keeps_its_column(steps: int) -> None:
    """A per-seat field that says something for some seat is drawn (labelled in the heading);
    one with nothing for every seat is not, in every built-in game and the Go Fish example."""
    for game in _games():
        if game.name not in ("spit", "speed"):
            _advance(game, steps, 3)
        schema = game.view_schema()
        for seat in (*range(len(game.players)), None):
            view = game.view(seat)
            head = _header(_text(view, schema, width=200))
            for f in _per_seat(schema):
                values = view["table"].get(f["name"])
                if values is None:
                    continue
                label = f.get("label") or f["name"]
                says = any(v not in NOTHING for v in values)
                if says:
                    assert label in head, (game.name, seat, f["name"], values)
                elif f.get("of") != "card":
                    # (may still read as a part of another heading, such as "books (cards)")
                    assert not re.search(rf"(^|\s){re.escape(label)}(\s|$)", head), (
                        game.name,
                        f["name"],
                    )


def test_golf_face_up_layouts_draw_no_known_to_all_column() -> None:
    for lay in (6, 8, 9, 10):
        game = cardcore.new_game("golf", 2, seed=2, options={"layout": lay})
        _advance(game, 9, 1)
        for seat in (0, 1, None):
            view = game.view(seat)
            assert view["table"]["public"] == [[], []]
            assert "known to all" not in _text(view, game.view_schema())


def _golf4_after_take() -> cardcore.Game:
    game = cardcore.new_game("golf", 2, seed=3, options={"layout": "4"})
    for _ in range(6):  # peeks, then seat 0 takes the discard and places it at 0
        seat = game.to_act[0]
        texts = [str(a) for a in game.legal_actions(seat)]
        game.act(
            seat, "take" if "take" in texts else "replace 0" if "replace 0" in texts else texts[0]
        )
    return game


def test_golf4_after_take_shows_the_known_to_all_position_in_every_view() -> None:
    game = _golf4_after_take()
    taken = game.record()["actions"][-1]
    assert taken[1] == "replace 0"
    owner = taken[0]
    for seat in (0, 1, None):
        view = game.view(seat)
        assert view["table"]["public"][owner] == [0]
        text = _text(view, game.view_schema())
        assert "known to all" in _header(text)
        # the taken card is shown to every seat (it was the discard everybody saw)
        assert view["table"]["grids"][owner][0] is not None


def _schema(fields: list[dict[str, Any]]) -> dict[str, Any]:
    return {"game": "t", "zones": [], "fields": fields}


def _view(table: dict[str, Any], seat: int | None = 0) -> dict[str, Any]:
    return {
        "format": "cardcore-view/2",
        "game": "t",
        "version": 0,
        "seat": seat,
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


def _field(name: str, of: str, label: str) -> dict[str, Any]:
    return {"name": name, "kind": "per-seat", "of": of, "label": label, "doc": ""}


@pytest.mark.parametrize(
    ("of", "values", "shown"),
    [
        ("int", [0, 0], True),  # zero is a count, not nothing
        ("bool", [False, False], True),  # "no" is an answer
        ("int", [None, 3], True),  # one seat's value keeps the column
        ("str", ["", "x"], True),
        ("json", [[], [1]], True),
        ("json", [{}, {"a": 1}], True),
        ("str", ["", ""], False),
        ("json", [[], {}], False),
        ("int", [None, None], False),
    ],
)
def test_hand_declared_per_seat_fields(of: str, values: list[Any], shown: bool) -> None:
    schema = _schema([_field("thing", of, "thingy")])
    text = _text(_view({"thing": values}), schema)
    assert ("thingy" in _header(text)) is shown


def test_int_zero_and_false_read_in_their_cells() -> None:
    schema = _schema([_field("n", "int", "count"), _field("b", "bool", "flag")])
    text = _text(_view({"n": [0, 7], "b": [False, True]}), schema)
    ann = next(line for line in text.splitlines() if "0: Ann" in line)
    cells = ann.split("(you)", 1)[1].split()
    assert cells[:2] == ["0", "no"], ann


def test_none_for_one_seat_is_a_dash_beside_the_others_value() -> None:
    schema = _schema([_field("n", "int", "count")])
    text = _text(_view({"n": [None, 12]}), schema)
    ann = next(line for line in text.splitlines() if "0: Ann" in line)
    bob = next(line for line in text.splitlines() if "1: Bob" in line)
    assert ann.split("(you)", 1)[1].split()[0] == "-" and "12" in bob.split()


def test_per_seat_card_column_of_hidden_cards_is_kept() -> None:
    schema = _schema([_field("down", "card", "face-down card")])
    text = _text(_view({"down": [None, None]}), schema)
    assert "face-down card" in _header(text) and "##" in text


def test_per_seat_card_column_one_hidden_one_shown() -> None:
    schema = _schema([_field("down", "card", "face-down card")])
    text = _text(_view({"down": ["7H", None]}), schema)
    assert "face-down card" in _header(text) and "##" in text and "7H" in text


def test_nothing_hidden_appears_in_a_golf_view() -> None:
    """The rendered view of seat 1 shows no card seat 1 may not see (the other's peeks)."""
    game = _golf4_after_take()
    full = game.view(None)
    checked = 0
    for seat in (0, 1):
        view = game.view(seat)
        text = _text(view, game.view_schema())
        other = 1 - seat
        mine_known = {c for c in view["table"]["grids"][other] if c not in (None, "--")}
        # the other seat's peeked cards are not known to this seat: none may be drawn
        peeked = set(game.view(other)["table"]["grids"][other]) - mine_known - {None, "--"}
        checked += len(peeked)
        for card in peeked:
            assert not re.search(rf"(?<![0-9A-Z]){re.escape(card)}(?![0-9A-Z])", text), (seat, card)
        assert full["table"]["grids"]  # spectator view builds
    assert checked


@pytest.mark.parametrize("game_name", ["tonk", "golf"])
def test_own_row_keeps_seat_marker_and_you_with_a_long_name(game_name: str) -> None:
    long = "Bartholomew Longname-Fitzgerald"
    game = cardcore.new_game(game_name, [long, "Bo"], seed=6)
    text = _text(game.view(0), game.view_schema(), width=80)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "(you)" in text and "0:" in text and "1: Bo" in text


# --------------------------------------------------------------------------- 2. golf public


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


@pytest.mark.parametrize("layout", [6, 8, 9, 10, "4", "4h"])
def test_samples_keep_the_views_public_and_shown_cards(layout: Any) -> None:
    game = cardcore.new_game("golf", 2, seed=11, options={"layout": layout})
    _advance(game, 8, 2)
    for seat in (0, 1):
        view = game.view(seat)
        for s in range(3):
            twin = _sample(view, s).view(seat)
            assert twin["table"]["public"] == view["table"]["public"]
            assert twin["table"]["grids"] == view["table"]["grids"]


def test_face_up_public_names_nothing_and_non_empty_is_refused() -> None:
    game = cardcore.new_game("golf", 2, seed=11, options={"layout": 6})
    _advance(game, 6, 2)
    view = game.view(0)
    shown = [p for p, c in enumerate(view["table"]["grids"][1]) if c not in (None, "--")]
    assert shown  # the other seat has flipped something
    bad = copy.deepcopy(view)
    bad["table"]["public"][1] = shown
    with pytest.raises(CardcoreError, match="public"):
        sample_position(bad, random.Random(0))
    none = copy.deepcopy(view)
    none["table"]["public"] = None  # a view written before the field: still sampled
    sample_position(none, random.Random(0))


def test_golf4_malformed_public_refused() -> None:
    game = _golf4_after_take()
    owner = game.record()["actions"][-1][0]
    view = game.view(1 - owner)
    assert view["table"]["public"][owner] == [0]
    for public in (
        [[], []],  # drops the other's known card
        "x",
        [[0]],
        [[0, 0], [0]],
        [[True], [0]],
        [[3], [0]],  # not shown
    ):
        bad = copy.deepcopy(view)
        bad["table"]["public"] = public
        if public == [[], []] and owner == 1:
            bad["table"]["public"] = [[0], []]
        with pytest.raises(CardcoreError, match="golf view"):
            sample_position(bad, random.Random(0))


def test_golf_rst_sentence_on_public() -> None:
    text = " ".join((ROOT / "docs/games/golf.rst").read_text().split())
    assert "for every face-down layout (4, 4h), the positions whose card everybody knows" in text
    assert "empty in the face-up layouts" in text


# --------------------------------------------------------------------------- 3. load


def _golf_save() -> tuple[dict[str, Any], dict[str, Any]]:
    game = cardcore.new_game("golf", 2, seed=3)
    game.act(0, "flip 0")
    game.act(0, "flip 1")
    return game.save(), game.record()


MUTATIONS = {
    "illegal": lambda r: r["actions"].__setitem__(0, [0, "flip 9", None]),
    "seat": lambda r: r["actions"].__setitem__(0, [5, "flip 0", None]),
    "notation": lambda r: r["actions"].__setitem__(0, [0, "zzz", None]),
    "rule": lambda r: r["rules"].append({"name": "golf.nope", "version": "1.0"}),
    "game": lambda r: r.__setitem__("game", "nogame"),
    "option": lambda r: r["options"].__setitem__("layout", 7),
    "seed": lambda r: r.__setitem__("seed", -1),
    "actions": lambda r: r.__setitem__("actions", 5),
}


@pytest.mark.parametrize("kind", sorted(MUTATIONS))
def test_save_record_failures_say_saved_games_record(kind: str) -> None:
    save, record = _golf_save()
    MUTATIONS[kind](save["record"])
    MUTATIONS[kind](record)
    with pytest.raises(CorruptStateError) as by_replay:
        cardcore.replay(record)
    with pytest.raises(CorruptStateError) as by_load:
        cardcore.load(save)
    assert str(by_replay.value).startswith("record ")  # replay's message unchanged
    assert str(by_load.value) == "saved game's " + str(by_replay.value)
    assert by_load.value.rule_id == by_replay.value.rule_id


def test_rule_ids_of_replayed_actions_kept_in_load() -> None:
    save, _ = _golf_save()
    save["record"]["actions"][0] = [0, "flip 9", None]
    with pytest.raises(CorruptStateError) as info:
        cardcore.load(save)
    assert info.value.rule_id == "GOLF-TURN-4"


def test_save_with_bad_record_format_names_the_saved_game() -> None:
    save, _ = _golf_save()
    save["record"]["format_version"] = 99
    with pytest.raises(CorruptStateError, match="saved game"):
        cardcore.load(save)


def test_tonk_seat_count_rule_id_kept_by_load() -> None:
    game = cardcore.new_game("tonk", 3, seed=3)
    save = game.save()
    save["record"]["players"] = ["a", "b", "c", "d"]
    with pytest.raises(CorruptStateError) as info:
        cardcore.load(save)
    assert "TONK-GEN-1" in str(info.value)
    assert info.value.rule_id == "TONK-GEN-1"


# --------------------------------------------------------------------------- 4. refusals


class _TonkOnly:
    games = ("tonk",)

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]


def test_play_refuses_an_agent_of_other_games_with_option_error() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    before = game.version
    with pytest.raises(OptionError, match=r"seat 0 .*plays tonk, not 'golf'"):
        cardcore.play(game, [_TonkOnly(), _TonkOnly()])
    assert game.version == before


class _Idle:
    def plan(self, view: Any, legal: Any, now: Any) -> None:
        return None


@pytest.mark.parametrize("seed", [-1, -(2**70), True, False, 1.0, "1"])
def test_run_realtime_refuses_bad_seeds(seed: Any) -> None:
    game = cardcore.new_game("speed", 2, seed=1)
    with pytest.raises(OptionError, match="at least 0"):
        cardcore.run_realtime(game, [_Idle(), _Idle()], seed=seed)
    assert game.version == 0


class _Int(int):
    pass


@pytest.mark.parametrize(
    ("name", "n", "rng"),
    [
        ("golf", 0, "2 to 64 players"),
        ("golf", -1, "2 to 64 players"),
        ("golf", 65, "2 to 64 players"),
        ("golf", 10**40, "2 to 64 players"),
        ("golf", 1, "2 to 64 players"),
        ("spit", 0, "exactly 2 players"),
        ("speed", 65, "exactly 2 players"),
        ("gofish", 0, "2 to 6 players"),
        ("gofish", 9, "2 to 6 players"),
        ("tonk", 0, "2 to 4 players"),
    ],
)
def test_new_game_and_simulate_name_the_range(name: str, n: int, rng: str) -> None:
    for call in (
        lambda: cardcore.new_game(name, n, seed=1),
        lambda: cardcore.simulate(name, games=1, players=n, seed=1),
    ):
        with pytest.raises(OptionError) as info:
            call()
        text = str(info.value)
        assert text.startswith(f"{name} takes {rng}, not {str(int(n))[:20]}"), text
        assert text.endswith(" (CORE-SEAT-2)"), text
        assert info.value.rule_id == "CORE-SEAT-2"


def test_new_game_int_subclass_count_names_the_range() -> None:
    with pytest.raises(OptionError, match=r"^golf takes 2 to 64 players, not 0 \(CORE-SEAT-2\)$"):
        cardcore.new_game("golf", _Int(0), seed=1)
    assert len(cardcore.new_game("golf", _Int(3), seed=1).players) == 3


def test_simulate_int_subclass_count_names_the_range() -> None:
    with pytest.raises(OptionError, match=r"golf takes 2 to 64 players, not 0 \(CORE-SEAT-2\)$"):
        cardcore.simulate("golf", games=1, players=_Int(0), seed=1)


@pytest.mark.parametrize("n", [True, False])
def test_bool_counts_refused(n: bool) -> None:
    with pytest.raises(OptionError):
        cardcore.new_game("golf", n, seed=1)


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from cardcore.cli import main

    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out = capsys.readouterr()
    return code, out.out + out.err


def test_cli_play_one_player_names_golfs_range(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _cli(["play", "golf", "--players", "1"], capsys)
    assert code != 0 and "golf takes 2 to 64 players, not 1 (CORE-SEAT-2)" in out


def test_cli_play_too_many_players_names_the_games_range(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = _cli(["play", "speed", "--players", "65"], capsys)
    assert code != 0 and "speed takes exactly 2 players" in out


def _web_post(body: dict[str, Any]) -> Any:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from cardcore.web import WebServer, create_app

    server = WebServer(None, bot_delay=0.0)
    with TestClient(create_app(server), raise_server_exceptions=False) as client:
        return client.post("/api/sessions", json=body)


def test_web_new_game_two_seats_is_created() -> None:
    r = _web_post({"game": "golf", "seats": [{"name": "Ann"}, {"name": "Bea"}]})
    assert r.status_code == 201, r.text


@pytest.mark.parametrize("seats", [0, 1, 65])
def test_web_new_game_bad_seat_count_is_a_400(seats: int) -> None:
    r = _web_post({"game": "golf", "seats": [{"name": f"P{i}"} for i in range(seats)]})
    assert r.status_code == 400, r.text
    assert "CORE-SEAT-2" in r.text


# --------------------------------------------------------------------------- 5. vetoes


@hookimpl
def _no_play(state: Any, action: Any) -> Any:
    if action.verb != "play":
        return None
    left, right = state.zones.id("pile.L"), state.zones.id("pile.R")  # the names the doc gives
    assert left is not None and right is not None
    return Veto("NOPLAY-1", "no plays in this house")


def _with_veto(game: str) -> tuple[RuleInfo, types.ModuleType]:
    rule = RuleInfo(id="NOPLAY-1", name=f"{game}.no-plays-review18", game=game, summary="none")
    module = types.ModuleType(rule.name.replace(".", "_").replace("-", "_"))
    module.RULE = rule
    module.forbid_action = _no_play
    return rule, module


@pytest.fixture
def veto_rule():
    names: list[str] = []

    def register(game: str) -> str:
        rule, module = _with_veto(game)
        cardcore.register("cardcore.rules", rule.name, module)
        names.append(rule.name)
        return rule.name

    try:
        yield register
    finally:
        for name in names:
            cardcore.unregister("cardcore.rules", name)


def test_zone_names_in_the_paragraph_are_the_views() -> None:
    for game, names in (
        ("spit", ["pile.L", "pile.R", "layout.0.1", "layout.1.5", "spit.0", "spit.1"]),
        ("speed", ["pile.L", "pile.R", "hand.0", "stock.1", "side.0", "side.1"]),
    ):
        g = cardcore.new_game(game, 2, seed=2)
        zones = [z["name"] for z in g.view(0)["zones"]]
        assert set(names) <= set(zones)


def test_speed_veto_on_every_play_both_see_stuck_and_the_game_goes_on(veto_rule) -> None:
    name = veto_rule("speed")
    game = cardcore.new_game("speed", 2, rules=[name], seed=5)
    before = {k: list(v) for k, v in game.view(None)["table"]["piles"].items()}
    assert [str(a) for a in game.legal_actions(0)] == ["stuck"]
    assert [str(a) for a in game.legal_actions(1)] == ["stuck"]
    game.act(0, "stuck")
    game.act(1, "stuck")
    after = game.view(None)["table"]["piles"]
    # SPEED-STUCK-1: each turned a side card onto a pile, although every play is vetoed
    assert all(len(after[p]) == len(before[p]) + 1 for p in before)
    assert not game.is_over


def test_spit_veto_automatic_spit_ignores_the_veto(veto_rule) -> None:
    name = veto_rule("spit")
    game = cardcore.new_game("spit", 2, rules=[name], seed=5)
    game.act(0, "ready")
    game.act(1, "ready")
    piles = game.view(None)["table"]["piles"]
    assert all(len(v) == 1 for v in piles.values())  # the opening spit, the veto aside
    assert not any(str(a).startswith("play") for s in (0, 1) for a in game.legal_actions(s))
    assert all("spit" in [str(a) for a in game.legal_actions(s)] for s in (0, 1))
    game.act(0, "spit")
    game.act(1, "spit")
    after = game.view(None)["table"]["piles"]
    assert all(len(after[p]) == 2 for p in after)  # both requested: the spit came


def test_spit_rst_veto_paragraph_names_spits_request(veto_rule) -> None:
    name = veto_rule("spit")
    game = cardcore.new_game("spit", 2, rules=[name], seed=5)
    game.act(0, "ready")
    game.act(1, "ready")
    legal = {str(a) for s in (0, 1) for a in game.legal_actions(s)}
    assert "spit" in legal and "stuck" not in legal  # what Spit's seats see under the veto
    text = " ".join((ROOT / "docs/games/spit.rst").read_text().split())
    start = text.index("A house rule of your own that vetoes plays")
    para = text[start : text.index(".. _rule-spit-end-3:", start)]
    sentence = para[para.index("so when a veto bars") :].split(".")[0]
    assert "``spit``" in sentence, sentence
