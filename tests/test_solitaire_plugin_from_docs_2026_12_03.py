"""A one-seat patience, Golf Solitaire, written from the plugin guide alone, and used as the
docs say users do: kit, agents, search, simulate/compare, save/load, positions, RL, session.

Rules (ids cited in the code):
GSOL-DEAL-1 seven face-up columns of five, the rest face down in the stock, one card turned up
GSOL-PLAY-1 move a column's top card onto the foundation if one rank higher or lower (no wrap)
GSOL-TURN-1 turn the next stock card onto the foundation
GSOL-END-1 columns empty: win; stock out and no move: loss; score = cards left in columns
"""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    Action,
    Card,
    CardDrawn,
    CardMoved,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    IllegalActionError,
    Layout,
    RuleInfo,
    Veto,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import fill_stock
from cardcore.turns import end_game

NAME = "golfsol-docs-1203"
RULE_NAME = f"{NAME}.stock-last"
STOCK, FOUNDATION = 0, 1
COLUMNS = 7


def column(i: int) -> int:
    return 2 + i


LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("foundation", None, Visibility.EVERYONE),
        *[ZoneSpec(f"col.{i}", None, Visibility.EVERYONE) for i in range(COLUMNS)],
    ]
)


@frozen
class Play(Action):
    """Move the top card of column *col* onto the foundation (GSOL-PLAY-1)."""

    col: int
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.col}"


@frozen
class Turn(Action):
    """Turn the next stock card onto the foundation (GSOL-TURN-1)."""

    verb: ClassVar[str] = "turn"

    def notation(self) -> str:
        return "turn"


class SolState(GameState):
    __slots__ = ()
    _mutable = ("zones",)


def adjacent(a: Card, b: Card) -> bool:
    return abs(int(a.rank) - int(b.rank)) == 1


class SolLogic(GameLogic[SolState, "Play | Turn"]):
    action_types = (Play, Turn)
    position_fields = ("to_act",)

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 200  # 35 plays + 16 turns at most

    def blank_state(self, players: int, options: Mapping[str, Any]) -> SolState:
        return SolState(players, options, Zones(LAYOUT))

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> SolState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        z = state.zones
        for _ in range(5):  # GSOL-DEAL-1
            for i in range(COLUMNS):
                z.move(STOCK, column(i), mask=cardcore.ALL)
        z.move(STOCK, FOUNDATION, mask=cardcore.ALL)
        if emit is not None:
            emit(CardsDealt((35,)))
        return state

    def _plays(self, state: SolState) -> list[int]:
        cards = state.zones.cards
        top = cards[FOUNDATION][-1]
        return [
            i for i in range(COLUMNS) if cards[column(i)] and adjacent(cards[column(i)][-1], top)
        ]

    def legal_actions(self, state: SolState, seat: int) -> tuple[Play | Turn, ...]:
        """Plays by column, then turn."""
        acts: list[Play | Turn] = [Play(seat, i) for i in self._plays(state)]
        if state.zones.cards[STOCK]:
            acts.append(Turn(seat))
        return tuple(acts)

    def rule_for(self, state: SolState, action: Play | Turn) -> tuple[str, str]:
        if isinstance(action, Turn):
            return "GSOL-TURN-1", "the stock is empty"
        return "GSOL-PLAY-1", f"column {action.col} has no card one rank from the foundation"

    def apply(self, state: SolState, action: Play | Turn, emit: Emit | None) -> None:
        z = state.zones
        if isinstance(action, Turn):
            card = z.move(STOCK, FOUNDATION, mask=cardcore.ALL)
            if emit is not None:
                emit(CardDrawn(0, "stock", card, visible_to=cardcore.ALL))
        else:
            card = z.move(column(action.col), FOUNDATION, mask=cardcore.ALL)
            if emit is not None:
                emit(CardMoved(0, f"col.{action.col}", "foundation", card))
        left = sum(len(z.cards[column(i)]) for i in range(COLUMNS))
        if left == 0:  # GSOL-END-1
            end_game(state, (0,), self.score_round(state, [0]), "columns cleared")
        elif not z.cards[STOCK] and not self._plays(state):
            end_game(state, (), self.score_round(state, [left]), "stock out, no move")

    def scores(self, state: SolState) -> tuple[float, ...]:
        return (float(sum(len(state.zones.cards[column(i)]) for i in range(COLUMNS))),)

    def utility(self, state: SolState) -> tuple[float, ...]:
        return (-self.scores(state)[0],)  # negated cards left, as Golf negates points

    def table(self, state: SolState, seat: int | None) -> dict[str, Any]:
        return {"stock": len(state.zones.cards[STOCK]), "left": self.scores(state)[0]}


GAME = GameInfo(
    NAME,
    "Golf Solitaire: clear seven columns onto the foundation, one rank up or down",
    1,
    1,
    version="1.0.0",
    fields=(
        ViewField("stock", "int", "Cards left in the stock."),
        ViewField("left", "float", "Cards left in the columns."),
    ),
)


@hookimpl
def create_logic(ruleset: cardcore.Ruleset) -> SolLogic:
    return SolLogic(ruleset)


# a house rule as a veto: you may turn the stock only when no column card plays
@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    if action.verb == "turn":
        z = state.zones.cards
        top = z[FOUNDATION][-1]
        if any(z[column(i)] and adjacent(z[column(i)][-1], top) for i in range(COLUMNS)):
            return Veto("GSOL-HOUSE-1", "play a column card before turning the stock")
    return None


game_module = types.ModuleType("golfsol_docs")
game_module.GAME = GAME  # type: ignore[attr-defined]
game_module.create_logic = create_logic  # type: ignore[attr-defined]
rule_module = types.ModuleType("golfsol_docs_rule")
rule_module.RULE = RuleInfo(  # type: ignore[attr-defined]
    id="GSOL-HOUSE-1", name=RULE_NAME, game=NAME, summary="Turn only when stuck"
)
rule_module.forbid_action = forbid_action  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    cardcore.register("cardcore.games", NAME, game_module)
    cardcore.register("cardcore.rules", RULE_NAME, rule_module)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.rules", RULE_NAME)
        cardcore.unregister("cardcore.games", NAME)


def play_out(game: cardcore.Game) -> None:
    while not game.is_over:
        game.apply(game.legal_actions(0)[0])


def won_position() -> str:
    """One column card left, one rank from the foundation's top, one card in the stock."""
    rest = [str(c) for c in cardcore.standard_52() if str(c) not in ("5H", "6H", "9C")]
    piles = "".join(f" | col.{i}:" for i in range(1, COLUMNS))
    foundation = " ".join(f"{c}!" for c in rest)
    return f"{NAME} to_act=[0] | stock: 9C | foundation: {foundation} 5H! | col.0: 6H!{piles}"


def stock_cards(game: cardcore.Game) -> list[str]:
    """The stock's cards, read from the position (which shows every card)."""
    text = game.position().split("| stock:")[1].split("|")[0]
    return text.split()


def test_new_game_one_seat_plays_to_an_end() -> None:
    game = cardcore.new_game(NAME, 1, seed=3)
    assert game.to_act == (0,)
    assert game.view(0)["table"] == {"stock": 16, "left": 35.0}
    play_out(game)
    assert game.result is not None
    assert len(game.result.scores) == 1


def test_gsol_end_1_cleared_columns_win_with_score_zero() -> None:
    game = cardcore.new_game(NAME, 1, position=won_position(), seed=1)
    assert game.view(0)["legal"] == ["play 0", "turn"]
    game.act(0, "play 0")
    assert game.is_over
    assert game.result == cardcore.Result((0,), (0.0,), None, "columns cleared")


def test_gsol_play_1_not_adjacent_is_illegal_and_changes_nothing() -> None:
    game = cardcore.new_game(NAME, 1, position=won_position(), seed=1)
    before = game.position()
    game.act(0, "turn")  # 9C onto 5H: 6H no longer plays, the stock is out: a loss
    assert game.result is not None and game.result.winners == ()
    assert game.result.scores == (1.0,)
    again = cardcore.new_game(NAME, 1, position=before, seed=1)
    with pytest.raises(IllegalActionError, match="GSOL-PLAY-1"):
        again.act(0, "play 3")
    assert again.position() == before


def test_core_resign_1_single_seat_resigns_and_nobody_wins() -> None:
    game = cardcore.new_game(NAME, 1, seed=5)
    game.act(0, "resign")
    assert game.is_over
    assert game.result is not None
    assert game.result.winners == ()  # every *other* seat wins: there is none
    assert game.result.scores == (35.0,)
    assert game.result.reason == "resigned"


def test_conformance_kit_passes_every_check_but_scores() -> None:
    from cardcore.testing import ALL_CHECKS, check_game

    report = check_game(NAME, players=1, games=2, checks=ALL_CHECKS - {"scores"})
    assert report.ok and report.cards_lost == 0 and report.leaks == 0


def test_conformance_kit_with_the_veto_house_rule() -> None:
    from cardcore.testing import ALL_CHECKS, check_game

    checks = ALL_CHECKS - {"scores"}
    assert check_game(NAME, players=1, rules=[RULE_NAME], games=2, checks=checks).ok


def test_conformance_kit_scores_check_on_a_one_seat_game() -> None:
    from cardcore.testing import check_game

    assert check_game(NAME, players=1, games=1, checks={"scores"}, strict=False).ok


def test_house_rule_veto_removes_turn_while_a_column_card_plays() -> None:
    game = cardcore.new_game(NAME, 1, position=won_position(), seed=1, rules=[RULE_NAME])
    assert game.view(0)["legal"] == ["play 0"]
    with pytest.raises(IllegalActionError, match="GSOL-HOUSE-1"):
        game.act(0, "turn")


def test_views_and_events_never_show_the_stock() -> None:
    seen: dict[object, list[str]] = {0: [], cardcore.SPECTATOR: []}
    game = cardcore.new_game(NAME, 1, seed=11)
    for who, texts in seen.items():
        game.events.subscribe(
            cardcore.Event, lambda e, t=texts: t.append(str(e.to_json())), seat=who
        )
    for _ in range(3):
        game.act(0, "turn")
    hidden = stock_cards(game)
    assert len(hidden) == 13
    for who in (0, None):
        view = game.view(who)
        assert view["zones"][STOCK]["cards"] == [None] * 13
        shown = {c for z in view["zones"] for c in z["cards"] if c}
        assert not shown & set(hidden)
    for texts in seen.values():
        words = " ".join(texts).replace("'", " ").split()
        assert len(texts) >= 6 and not set(words) & set(hidden)


def test_determinize_keeps_the_view_and_redeals_the_stock() -> None:
    game = cardcore.new_game(NAME, 1, seed=11)
    twin = game.determinize(0, seed=3)
    assert twin.view(0) == game.view(0)
    assert sorted(stock_cards(twin)) == sorted(stock_cards(game))
    assert stock_cards(twin) != stock_cards(game)


def test_clone_save_load_record_replay_and_position() -> None:
    game = cardcore.new_game(NAME, 1, seed=2)
    for _ in range(4):
        game.apply(game.legal_actions(0)[-1])
    clone = game.clone()
    clone.act(0, "resign")
    assert not game.is_over
    assert cardcore.load(game.save()).position() == game.position()
    assert cardcore.replay(game.record()).position() == game.position()
    again = cardcore.new_game(NAME, 1, position=game.position(), seed=9)
    assert again.view(0)["zones"] == game.view(0)["zones"]


def test_simulate_defaults_to_the_one_seat() -> None:
    summary = cardcore.simulate(NAME, games=3, seed=1)
    assert summary.players == 1 and summary.games == 3
    assert summary.truncated == 0 and len(summary.mean_scores) == 1


def test_ismcts_beats_random_over_the_hidden_stock() -> None:
    random_play = cardcore.simulate(NAME, games=4, seed=1)
    search = cardcore.simulate(NAME, games=4, seed=1, agents=["ismcts:iterations=60"])
    assert search.mean_scores[0] + 5 < random_play.mean_scores[0]  # fewer cards left


def test_compare_a_house_rule_with_one_seat_named() -> None:
    comparison = cardcore.compare(NAME, rules=[RULE_NAME], players=1, games=4, skill=None)
    assert comparison.players == 1
    assert comparison.a.actions.mean != comparison.b.actions.mean


def test_compare_defaults_to_the_games_seats() -> None:
    comparison = cardcore.compare(NAME, rules=[RULE_NAME], games=2, skill=None)
    assert comparison.players == 1


def test_win_reward_pays_a_solitaire_win() -> None:
    from cardcore import rl

    assert rl.win_rewards([0], 1) == [1.0]


def test_gym_env_one_learner_no_opponents_plays_to_the_end() -> None:
    import numpy as np

    from cardcore import rl

    env = rl.gym_env(NAME)
    obs, info = env.reset(seed=1)
    total, done, steps = 0.0, False, 0
    while not done:
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, reward, terminated, truncated, info = env.step(action)
        total, done, steps = total + reward, terminated or truncated, steps + 1
    assert terminated and steps > 16
    assert "result" in info
    assert total == 0.0  # a loss pays 0 (a win +1: test_win_reward_pays_a_solitaire_win)


def test_gym_env_score_reward_is_refused_for_the_generic_encoding() -> None:
    from cardcore import OptionError, rl

    with pytest.raises(OptionError, match="no score reward"):
        rl.gym_env(NAME, rewards="score")


def test_aec_env_players_default_to_one_agent() -> None:
    from cardcore import rl

    env = rl.aec_env(NAME)
    env.reset(seed=1)
    assert env.possible_agents == ["player_0"]
    assert env.agent_selection == "player_0"


def test_cli_play_in_process(monkeypatch: pytest.MonkeyPatch, tmp_path: Any, capsys: Any) -> None:
    import io

    from cardcore import cli

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("turn\nplay 9\nresign\n"))
    assert cli.main(["play", NAME, "--seed", "7", "--no-record"]) == 0
    out = capsys.readouterr().out
    assert "GSOL-PLAY-1" in out and "no winner" in out
    assert list(tmp_path.iterdir()) == []


def test_session_one_seat_and_a_spectator() -> None:
    import json

    from cardcore.session import Session

    session = Session.create(NAME, ["Solo"], now=0.0, seed=7)
    session.handle("watcher", '{"type": "watch"}', now=0.5)
    session.handle("solo", '{"type": "join", "seat": 0}', now=1.0)
    assert session.phase == "playing"
    to_watcher: list[str] = []
    for n in range(4):
        msg = json.dumps({"type": "act", "action": "turn", "seen": n})
        out = session.handle("solo", msg, now=2.0 + n)
        assert any(o.conn == "solo" and o.message["type"] == "update" for o in out)
        to_watcher += [json.dumps(o.message) for o in out if o.conn == "watcher"]
    assert to_watcher  # two actions late, but shown
    stock = stock_cards(session.game)
    assert not any(card in text.replace('"', " ").split() for card in stock for text in to_watcher)


def test_cli_compare_defaults_to_the_one_seat(capsys: Any) -> None:
    from cardcore import cli

    assert cli.main(["compare", NAME, "--rules", RULE_NAME, "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "1 player, 2 games per configuration" in out


def test_host_end_makes_the_lone_seat_a_winner_by_default() -> None:
    # documented (CORE-END-1: standings default to every seat), but a solitaire stopped by the
    # host with every card still in the columns is reported as won unless it overrides standings
    game = cardcore.new_game(NAME, 1, seed=1)
    game.act(cardcore.HOST, "end")
    assert game.result == cardcore.Result((0,), (35.0,), None, "ended")


def test_aec_env_a_lost_solitaire_pays_zero_and_reports_the_result() -> None:
    import numpy as np

    from cardcore import rl

    env = rl.aec_env(NAME)
    env.reset(seed=1)
    last: tuple[float, dict[str, Any]] | None = None
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            last = (reward, info)
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert last is not None
    assert last[0] == 0.0
    assert last[1]["result"]["winners"] == [] and last[1]["result"]["scores"][0] > 0
