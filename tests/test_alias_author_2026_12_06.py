"""A plugin author's walk through cardcore with ``Option(aliases=...)``, from the docs alone.

A small third-party game, Duel (each seat plays out a hand; the highest total wins, or
the lowest with ``mode=low``), declares a bounded ``hand_size`` and a ``mode`` with
choices, each with aliases; a house rule ``duel.double`` names option values in its
``applies``, some by alias. Both are built in place and registered by a fixture, then
driven through new_game, records/saves/positions, the testing kit, simulate/compare, the
command line, the web server, sessions and RL.

The independent expectation everywhere: an alias is read as the value it names
(docs/plugin-guide/game.rst: "texts read as the value they name ... so Game.options,
records and encodings hold one spelling of each configuration"; the changelog: "read as
that value wherever options are given (new_game, records, sessions, the web API, the
command line)").
"""

from __future__ import annotations

import contextlib
import io
import json
import types
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    Action,
    Card,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    OptionError,
    PluginError,
    RuleInfo,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    cli,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.turns import end_game, next_seat, winners_by

HAND = {"three": 3, "five": 5}
MODE = {"hi": "high", "lo": "low", "HIGH": "high"}


@frozen
class Play(Action):
    """Seat *seat* plays *card* from its hand (DUEL-PLAY-1)."""

    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


def _layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    played = [ZoneSpec(f"played.{s}", s, Visibility.EVERYONE) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), *hands, *played])


class DuelState(GameState):
    __slots__ = ()


class DuelLogic(GameLogic[DuelState, Play]):
    action_types = (Play,)
    position_fields = ("to_act",)
    max_legal = 5

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return players * 5 + 10

    def blank_state(self, players: int, options: Mapping[str, Any]) -> DuelState:
        return DuelState(players, options, Zones(_layout(players)))

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DuelState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, 0, cards)
        deal_round_robin(state, 0, [1 + s for s in range(players)], options["hand_size"])
        return state

    def legal_actions(self, state: DuelState, seat: int) -> tuple[Play, ...]:
        return tuple(Play(seat, c) for c in sorted(state.zones.cards[1 + seat], key=str))

    def rule_for(self, state: DuelState, action: Play) -> tuple[str, str]:
        return "DUEL-PLAY-1", f"seat {action.seat} may play a card it holds, not {action.card}"

    def apply(self, state: DuelState, action: Play, emit: Emit | None) -> None:
        seat, players, zones = action.seat, state.players, state.zones
        zones.move(1 + seat, 1 + players + seat, zones.cards[1 + seat].index(action.card))
        if all(not zones.cards[1 + s] for s in range(players)):  # DUEL-END-1
            totals = [
                sum(c.rank.value for c in zones.cards[1 + players + s]) for s in range(players)
            ]
            made = self.score_round(state, totals)
            low = state.options["mode"] == "low"
            end_game(state, winners_by(made, lowest=low), made, "all cards played")
        else:
            state.to_act = (next_seat(seat, players),)

    def table(self, state: DuelState, seat: int | None) -> dict[str, Any]:
        return {"left": [len(state.zones.cards[1 + s]) for s in range(state.players)]}


def make_game(hand_default: Any = 3, mode_default: Any = "high") -> types.ModuleType:
    module = types.ModuleType("duel_game")
    module.GAME = GameInfo(  # type: ignore[attr-defined]
        "duel",
        "Duel: play out your hand, highest (or lowest) total wins",
        2,
        4,
        version="1.0.0",
        options=(
            Option(
                "hand_size",
                default=hand_default,
                minimum=1,
                maximum=5,
                doc="Cards each",
                aliases=HAND,
            ),
            Option(
                "mode",
                default=mode_default,
                kind=str,
                choices=("high", "low"),
                doc="Who wins",
                aliases=MODE,
            ),
        ),
        fields=(ViewField("left", "per-seat", "Cards left in each hand.", of="int"),),
    )

    @hookimpl
    def create_logic(ruleset: Ruleset) -> DuelLogic:
        return DuelLogic(ruleset)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    return module


def make_rule(
    name: str = "duel.double", applies: Mapping[str, Any] | None = None
) -> types.ModuleType:
    module = types.ModuleType("duel_double")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="DUEL-DOUBLE-1" if name == "duel.double" else "DUEL-LOWDOUBLE-1",
        name=name,
        game="duel",
        summary="Totals count double",
        version="1.0.0",
        applies={"mode": ("hi",), "hand_size": ("three", 5)} if applies is None else applies,
    )

    @hookimpl
    def score_round(state: GameState, scores: Sequence[int]) -> list[int]:
        return [2 * s for s in scores]

    module.score_round = score_round  # type: ignore[attr-defined]
    return module


@pytest.fixture
def duel() -> Iterator[None]:
    cardcore.register("cardcore.games", "duel", make_game())
    cardcore.register("cardcore.rules", "duel.double", make_rule())
    cardcore.register(
        "cardcore.rules", "duel.low-double", make_rule("duel.low-double", {"mode": ("lo",)})
    )
    try:
        yield
    finally:
        cardcore.unregister("cardcore.rules", "duel.low-double")
        cardcore.unregister("cardcore.rules", "duel.double")
        cardcore.unregister("cardcore.games", "duel")


def played_out(game: cardcore.Game, seed: int = 1) -> cardcore.Game:
    agent = cardcore.load_agent("random")
    cardcore.play(game, [agent(seed=seed + s) for s in range(len(game.players))])
    return game


def run_cli(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = __import__("sys").stdin
    __import__("sys").stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(args)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        __import__("sys").stdin = old
    return code, out.getvalue(), err.getvalue()


# --- declaration -----------------------------------------------------------------------


def test_declaration_refuses_an_alias_the_option_takes_as_written() -> None:
    with pytest.raises(PluginError, match="refuses as written"):
        Option("mode", default="high", kind=str, choices=("high", "low"), aliases={"low": "high"})


def test_declaration_refuses_an_alias_naming_an_out_of_bounds_value() -> None:
    with pytest.raises(PluginError, match="at most 5"):
        Option("hand_size", default=3, minimum=1, maximum=5, aliases={"six": 6})


def test_option_check_reads_aliases_and_keeps_bounds() -> None:
    opt = Option("hand_size", default=3, minimum=1, maximum=5, aliases=HAND)
    assert opt.check("three") == 3 and opt.check("five") == 5
    with pytest.raises(OptionError):
        opt.check("four")  # not declared
    with pytest.raises(OptionError):
        opt.check(6)


def test_alias_default_is_refused_or_read_as_its_value() -> None:
    try:
        module = make_game(hand_default="three", mode_default="HIGH")
    except PluginError:
        return  # refused at declaration: also a fix
    cardcore.register("cardcore.games", "duel", module)
    try:
        game = cardcore.new_game("duel", 2, seed=1)
        assert dict(game.options) == {"hand_size": 3, "mode": "high"}
    finally:
        cardcore.unregister("cardcore.games", "duel")


# --- new_game with every spelling ------------------------------------------------------


@pytest.mark.parametrize(
    "given",
    [
        {},
        {"hand_size": "three"},
        {"hand_size": 3, "mode": "high"},
        {"mode": "hi"},
        {"mode": "HIGH"},
        {"hand_size": "three", "mode": "HIGH"},
    ],
)
def test_every_spelling_is_one_configuration(duel: None, given: dict[str, Any]) -> None:
    plain = cardcore.new_game("duel", 2, seed=5)
    game = cardcore.new_game("duel", 2, options=given, seed=5)
    assert dict(game.options) == {"hand_size": 3, "mode": "high"}
    assert game.record() == plain.record()
    assert game.view(0) == plain.view(0)
    assert len(game.view(0)["zones"][1]["cards"]) == 3


def test_low_aliases_deal_and_score_low(duel: None) -> None:
    game = played_out(
        cardcore.new_game("duel", 2, options={"mode": "lo", "hand_size": "five"}, seed=2)
    )
    assert dict(game.options) == {"hand_size": 5, "mode": "low"}
    assert game.result is not None and game.record()["options"] == {"hand_size": 5, "mode": "low"}
    scores = game.result.scores
    assert set(game.result.winners) == {s for s in range(2) if scores[s] == min(scores)}


def test_unknown_spelling_is_refused(duel: None) -> None:
    with pytest.raises(OptionError, match="mode"):
        cardcore.new_game("duel", 2, options={"mode": "High"}, seed=1)


# --- applies by alias --------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["hi", "high", "HIGH"])
@pytest.mark.parametrize("hand", ["three", 3, 5, "five"])
def test_applies_serves_every_spelling(duel: None, mode: str, hand: Any) -> None:
    options = {"mode": mode, "hand_size": hand}
    game = played_out(cardcore.new_game("duel", 2, rules=["duel.double"], options=options, seed=3))
    assert game.rules == ("duel.double",)
    assert game.result is not None and all(s % 2 == 0 for s in game.result.scores)


@pytest.mark.parametrize(
    "options", [{"mode": "lo"}, {"mode": "low"}, {"hand_size": 4}, {"hand_size": 1}]
)
def test_applies_refuses_other_values_citing_the_rule(duel: None, options: dict[str, Any]) -> None:
    with pytest.raises(OptionError, match=r"DUEL-DOUBLE-1\)$"):
        cardcore.new_game("duel", 2, rules=["duel.double"], options=options, seed=1)


def test_applies_naming_no_value_is_a_plugin_error(duel: None) -> None:
    cardcore.register("cardcore.rules", "duel.typo", make_rule("duel.typo", {"mode": ("middle",)}))
    try:
        with pytest.raises(PluginError, match=r"duel\.typo"):
            cardcore.new_game("duel", 2, rules=["duel.typo"], seed=1)
    finally:
        cardcore.unregister("cardcore.rules", "duel.typo")


# --- records, saves, positions -----------------------------------------------------------


def test_records_saves_positions_round_trip(duel: None) -> None:
    game = played_out(
        cardcore.new_game(
            "duel", 3, rules=["duel.double"], options={"mode": "hi", "hand_size": "three"}, seed=4
        )
    )
    record = json.loads(json.dumps(game.record()))
    assert record["options"] == {"hand_size": 3, "mode": "high"}
    assert cardcore.replay(record).record() == game.record()
    aliased = dict(
        record, options={"hand_size": "three", "mode": "HIGH"}
    )  # a record written with aliases
    again = cardcore.replay(aliased)
    assert (
        dict(again.options) == {"hand_size": 3, "mode": "high"} and again.record() == game.record()
    )
    loaded = cardcore.load(json.dumps(game.save()))
    assert loaded.record() == game.record() and dict(loaded.options) == dict(game.options)
    start = cardcore.new_game("duel", 2, options={"hand_size": "five"}, seed=8)
    start.act(0, start.view(0)["legal"][0])
    here = cardcore.new_game("duel", 2, options={"hand_size": 5}, position=start.position(), seed=9)
    assert here.view(1)["legal"] == start.view(1)["legal"] and dict(here.options) == dict(
        start.options
    )


# --- the testing kit ---------------------------------------------------------------------


def test_kit_reads_aliases_in_applies(duel: None) -> None:
    from cardcore.testing import applicable_options, configurations

    assert applicable_options("duel", ["duel.double"]) == {}  # the defaults serve it
    assert applicable_options("duel", ["duel.low-double"]) == {"mode": "low"}
    configs = list(configurations("duel"))
    low = [c for c in configs if c.rules == ("duel.low-double",)]
    assert len(low) == 1 and dict(low[0].options) == {"mode": "low"}
    assert any(c.rules == ("duel.double",) for c in configs)


def test_check_game_under_aliases(duel: None) -> None:
    from cardcore.testing import check_game

    check_game(
        "duel",
        players=2,
        rules=["duel.double"],
        options={"mode": "hi", "hand_size": "five"},
        games=2,
    )
    check_game("duel", players=2, rules=["duel.low-double"], options={"mode": "lo"}, games=2)


# --- simulate / compare ------------------------------------------------------------------


def test_simulate_and_compare_read_aliases(duel: None) -> None:
    a = cardcore.simulate(
        "duel", players=2, games=6, options={"mode": "lo", "hand_size": "five"}, seed=1
    )
    b = cardcore.simulate(
        "duel", players=2, games=6, options={"mode": "low", "hand_size": 5}, seed=1
    )
    assert a == b and a.mean_actions == 10
    c = cardcore.compare(
        "duel",
        players=2,
        games=4,
        rules=["duel.double"],
        options={"mode": "hi"},
        vs_options={"mode": "high"},
        seed=1,
    )
    assert c is not None


# --- the command line ----------------------------------------------------------------------


def test_cli_simulate_reads_choice_alias(duel: None, tmp_path: Any) -> None:
    out = tmp_path / "sim.json"
    args = [
        "simulate",
        "duel",
        "-o",
        "mode= hi",
        "--rules",
        "duel.double",
        "--games",
        "2",
        "--quiet",
    ]
    code, _, err = run_cli([*args, "--players", "2", "--json", str(out)])
    assert code == 0, err
    assert json.loads(out.read_text())["rules"] == ["duel.double"]


def test_cli_reads_a_text_alias_of_a_number_option(duel: None, tmp_path: Any) -> None:
    out = tmp_path / "sim.json"
    code, _, err = run_cli(
        ["simulate", "duel", "-o", "hand_size=three", "--games", "2", "--quiet", "--json", str(out)]
    )
    assert code == 0, err


def test_cli_simulate_summary_holds_one_spelling(duel: None, tmp_path: Any) -> None:
    out = tmp_path / "sim.json"
    code, _, err = run_cli(
        [
            "simulate",
            "duel",
            "-o",
            "mode=hi",
            "--players",
            "2",
            "--games",
            "2",
            "--quiet",
            "--json",
            str(out),
        ]
    )
    assert code == 0, err
    assert json.loads(out.read_text())["options"]["mode"] == "high"


def test_cli_play_records_the_one_spelling(duel: None, tmp_path: Any) -> None:
    record = tmp_path / "play.json"
    code, _, err = run_cli(
        ["play", "duel", "--seed", "1", "-o", "mode=lo", "--record", str(record)],
        stdin="#1\n#1\n#1\n",
    )
    assert code == 0, err
    data = json.loads(record.read_text())
    assert data["options"] == {"hand_size": 3, "mode": "low"}
    assert cardcore.replay(data).is_over


def test_cli_rules_shows_the_house_rule(duel: None) -> None:
    code, out, err = run_cli(["rules", "duel"])
    assert code == 0, err
    assert "duel.double" in out and "DUEL-DOUBLE-1" in out


# --- web, sessions, RL -------------------------------------------------------------------


def test_web_lists_and_creates_with_aliases(duel: None) -> None:
    from starlette.testclient import TestClient

    from cardcore.web import create_app

    with TestClient(create_app()) as client:
        games = client.get("/api/games").json()
        duel_info = next(
            g for g in (games["games"] if isinstance(games, dict) else games) if g["name"] == "duel"
        )
        assert {o["name"]: o["choices"] for o in duel_info["options"]}["mode"] == ["high", "low"]
        body = {
            "game": "duel",
            "seats": [
                {"agent": "random", "params": {"seed": 1}},
                {"agent": "random", "params": {"seed": 2}},
            ],
            "options": {"mode": "lo", "hand_size": "five"},
            "rules": [],
        }
        answer = client.post("/api/sessions", json=body)
        assert answer.status_code == 201, answer.text
        assert answer.json()["options"] == {"hand_size": 5, "mode": "low"}
        body["options"], body["rules"] = {"mode": "lo"}, ["duel.double"]
        refused = client.post("/api/sessions", json=body)
        assert refused.status_code == 400 and "DUEL-DOUBLE-1" in refused.json()["error"]


def test_hub_session_reads_aliases(duel: None) -> None:
    from cardcore.session import Hub

    hub = Hub()
    session = hub.create(
        "duel",
        2,
        now=0.0,
        rules=["duel.double"],
        options={"mode": "HIGH", "hand_size": "three"},
        seed=1,
    )
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    assert session.record() is None  # documented: only once over or closed
    session.close(now=3.0)
    record = session.record()
    assert record is not None and record["options"] == {"hand_size": 3, "mode": "high"}


def test_rl_env_is_one_configuration_for_every_spelling(duel: None) -> None:
    from cardcore.rl import aec_env

    envs = [
        aec_env("duel", 2, options=o)
        for o in ({"mode": "hi", "hand_size": "three"}, {"mode": "high", "hand_size": 3})
    ]
    for env in envs:
        env.reset(seed=3)
    assert envs[0].config.observer.names == envs[1].config.observer.names
    first = [env.observe(env.agent_selection) for env in envs]
    assert (first[0]["observation"] == first[1]["observation"]).all()
    assert (first[0]["action_mask"] == first[1]["action_mask"]).all()
