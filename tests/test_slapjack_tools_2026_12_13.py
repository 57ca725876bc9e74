"""Every cardcore tool on a third-party real-time game: Slapjack with two decks and jokers.

The game (tests/plugins/slapjack_2026_12_13.py) and its house rule ``doubles`` are registered
in place (docs/plugin-guide/entry-points.rst, "Without installing"), then driven through the
RL environments (docs/rl.rst), the search agents (docs/search-agents.rst), the house-rule lab
(docs/house-rule-study.rst), simulate and the CLI run in-process (docs/cli.rst) and the web
server (docs/web.rst), following only the docs. Games are short (``max_moves``).
"""

from __future__ import annotations

import io
import json
import random
import re
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import CardcoreError, IllegalActionError, OptionError, cli, decks
from cardcore.search import ISMCTSAgent, sample_position
from tests.plugins import slapjack_2026_12_13 as sj
from tests.plugins import slapjack_rules_2026_12_13 as house
from tests.test_slapjack_author_2026_12_13 import position

rl = pytest.importorskip("cardcore.rl")

NAME, DOUBLES = sj.NAME, house.NAME
SHOE = Counter(decks(2, jokers_per_deck=2))
CARD = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b|\bJK\b")
SHORT = {"max_moves": 60}


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, sj)
    cardcore.register("cardcore.rules", DOUBLES, house)
    yield
    cardcore.unregister("cardcore.rules", DOUBLES)
    cardcore.unregister("cardcore.games", NAME)


def seat_of(agent: str) -> int:
    return int(agent.rsplit("_", 1)[1])


def stack_planes(obs: np.ndarray, players: int) -> np.ndarray:
    """The generic encoding's card planes of the stack zones (two planes of 53 per zone,
    the pile's first): see GenericEncoding's docstring."""
    return obs[106 : 106 * (players + 1)]


def play_aec(env: Any, seed: int, pick: random.Random) -> tuple[list[Any], dict[str, float]]:
    env.reset(seed=seed)
    taken, returns = [], Counter()
    for agent in env.agent_iter(max_iter=2000):
        obs, reward, term, trunc, _info = env.last()
        returns[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        seat = seat_of(agent)
        legal = env.match.game.legal_actions(seat)
        mask = obs["action_mask"]
        # positional space: index i is the i-th legal action, in the game's order
        assert mask.dtype == np.int8 and list(np.flatnonzero(mask)) == list(range(len(legal)))
        game = env.match.game
        assert not stack_planes(obs["observation"], game.state.players).any()
        i = pick.randrange(len(legal))
        taken.append((seat, str(legal[i].notation() if hasattr(legal[i], "notation") else i)))
        env.step(i)
    return taken, dict(returns)


# --- 1. RL environments ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", [(), (DOUBLES,)])
def test_aec_env_masks_match_legal_actions_and_win_rewards_are_zero_sum(rules: tuple) -> None:
    env = rl.aec_env(NAME, 2, rules=rules, options=SHORT)
    taken, returns = play_aec(env, 3, random.Random(1))
    result = env.match.game.result
    assert result is not None and taken
    assert sum(returns.values()) == pytest.approx(0.0)
    for seat in range(2):
        expected = 1.0 if seat in result.winners else -1.0
        if len(result.winners) == 2:
            expected = 0.0
        assert returns[f"player_{seat}"] == pytest.approx(expected)


def test_aec_env_seed_reproduces_the_game() -> None:
    a = play_aec(rl.aec_env(NAME, 3, options=SHORT), 11, random.Random(4))
    b = play_aec(rl.aec_env(NAME, 3, options=SHORT), 11, random.Random(4))
    assert a == b and a[0]


def test_observations_never_show_a_stack_card_even_to_its_owner() -> None:
    """A stack's planes are empty for every seat; twins re-dealt from a seat's view
    (Game.determinize) give that seat the same observation and mask."""
    for players in (2, 4):
        game = cardcore.new_game(NAME, players, options=SHORT, seed=8)
        enc = rl.encoding_for(game)
        checked = {"n": 0}

        def on_action(
            game: cardcore.Game, action: Any, now: float, enc: Any = enc, checked: Any = checked
        ) -> None:
            if game.is_over or checked["n"] >= 25:
                return
            checked["n"] += 1
            for seat in range(game.state.players):
                obs = rl.observe(game, seat, enc)
                assert not stack_planes(obs["observation"], game.state.players).any()
                twin = game.determinize(seat, seed=checked["n"])
                other = rl.observe(twin, seat, enc)
                assert np.array_equal(obs["observation"], other["observation"])
                assert np.array_equal(obs["action_mask"], other["action_mask"])

        agents = [cardcore.RandomAgent(s) for s in range(players)]
        cardcore.run_realtime(game, agents, seed=2, on_action=on_action)
        assert checked["n"] == 25


def test_jokers_and_the_two_copies_of_a_card_share_one_index() -> None:
    game = cardcore.new_game(NAME, 2, position=position([["JK"], ["7H"]], pile=["7H"]), seed=1)
    enc = rl.encoding_for(game)
    assert len(enc.card_index) == 53 and "JK" in enc.card_index and enc.deck_size == 108
    before = rl.observe(game, 1, enc)["observation"]
    pile_plane = before[:53]
    assert pile_plane[enc.card_index["7H"]] == 1 and pile_plane.sum() == 1
    game.act(0, "flip")
    obs = rl.observe(game, 1, enc)["observation"]
    assert obs[53 + enc.card_index["JK"]] == 1  # the pile's top: the joker
    assert obs[:53][enc.card_index["7H"]] == 0  # buried under a TOP pile: not shown


def test_bad_aec_action_is_refused_and_changes_nothing() -> None:
    env = rl.aec_env(NAME, 2, options=SHORT)
    env.reset(seed=5)
    before = (env.agent_selection, env.match.game.position(), env.match.game.version)
    obs = env.last()[0]
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for action in (bad, 64, -1, 0.0, True, "flip"):
        with pytest.raises(IllegalActionError):
            env.step(action)
        assert (env.agent_selection, env.match.game.position(), env.match.game.version) == before


def test_gym_and_vector_envs_play_slapjack_with_the_house_rule_option() -> None:
    env = rl.gym_env(NAME, 2, rules=[DOUBLES], options={"doubles_gap": 2, **SHORT})
    obs, _info = env.reset(seed=2)
    assert env.runner.match.game.options["doubles_gap"] == 2
    total, done = 0.0, False
    for _ in range(500):
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, term, trunc, _info = env.step(int(legal[-1]))
        total += reward
        if term or trunc:
            done = True
            break
    assert done and total in (-1.0, 0.0, 1.0)
    envs = rl.vector_env(NAME, 2, players=2, options=SHORT)
    obs, _infos = envs.reset(seed=1)
    assert obs["observation"].shape == (2, 388) and obs["action_mask"].shape == (2, 64)
    for _ in range(30):
        actions = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
        obs, *_ = envs.step(actions)
        for k in range(2):
            assert not stack_planes(obs["observation"][k], 2).any()
    with pytest.raises(IllegalActionError):
        envs.step([63, 63])


def test_config_checks_the_rules_option_and_score_rewards() -> None:
    config = rl.Config(NAME, 3, rules=[DOUBLES], options={"doubles_gap": 2})
    assert config.bound == 1501
    with pytest.raises(OptionError, match="doubles_gap"):
        rl.Config(NAME, 2, options={"doubles_gap": 2})
    with pytest.raises(OptionError):
        rl.aec_env(NAME, 2, rewards="score")


# --- 2. search agents -----------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "options"), [((), {}), ((DOUBLES,), {"doubles_gap": 2})])
def test_samples_keep_the_108_card_shoe_and_only_the_view(rules: tuple, options: dict) -> None:
    game = cardcore.new_game(NAME, 2, rules=rules, options={**options, **SHORT}, seed=4)
    samples = {"n": 0}

    def on_action(game: cardcore.Game, action: Any, now: float) -> None:
        if game.is_over or game.version % 5:
            return
        for seat in range(2):
            view = game.view(seat)
            text = sample_position(view, random.Random(7))
            world = cardcore.new_game(
                NAME, 2, rules=rules, options={**options, **SHORT}, position=text, seed=1
            )
            assert Counter(world.state.zones.all_cards()) == SHOE
            assert world.view(seat)["table"] == view["table"]
            assert world.view(seat)["legal"] == view["legal"]
            # a function of the view alone: a twin the seat cannot tell apart samples alike
            twin = game.determinize(seat, seed=game.version)
            assert sample_position(twin.view(seat), random.Random(7)) == text
            samples["n"] += 1

    cardcore.run_realtime(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], seed=1,
                          on_action=on_action)  # fmt: skip
    assert samples["n"] >= 10


@pytest.mark.parametrize(("rules", "options"), [((), {}), ((DOUBLES,), {"doubles_gap": 2})])
def test_ismcts_plays_two_seat_slapjack(rules: tuple, options: dict) -> None:
    game = cardcore.new_game(NAME, 2, rules=rules, options={**options, "max_moves": 40}, seed=6)
    bot = ISMCTSAgent(seed=1, iterations=8, max_rollout=15)
    result = cardcore.run_realtime(game, [bot, cardcore.RandomAgent(2)], seed=1)
    assert game.is_over and result.reason in ("move cap", "last seat in")


def test_ismcts_after_a_seat_is_out_refuses_clearly_plugin_table_shape() -> None:
    """The plugin's fault, not cardcore's: its table shows ``out`` as bools while its position
    field holds 0/1, so the generic sampler (docs/search-agents.rst, layer 3: a field is read
    from the table only when it fits) keeps the blank ``out`` and the sample is inconsistent.
    cardcore says so clearly, as documented."""
    pos = position([["4D", "JH"], ["3C"], []], pile=["8S"], turn=0)
    game = cardcore.new_game(NAME, 3, position=pos, seed=2)
    game.act(0, "flip")
    game.act(1, "slap")  # seat 2 is out
    game.act(1, "flip")
    assert game.state.out == [0, 0, 1] and len(game.legal_actions(0)) == 2
    with pytest.raises(CardcoreError, match=r"cannot sample a position of 'slapjack-2026-12-13'"):
        ISMCTSAgent(seed=1, iterations=5).plan(game.view(0), game.legal_actions(0), 0.0)


# --- 3. the house-rule lab ------------------------------------------------------------------


def test_compare_doubles_reports_and_options_reach_b() -> None:
    base = {"max_moves": 200}
    a = cardcore.compare(NAME, rules=[DOUBLES], options={"doubles_gap": 2, **base}, games=6, seed=1)
    assert a.a.rules == (DOUBLES,) and a.b.rules == ()
    assert a.a.options == {"doubles_gap": 2, **base} and a.b.options == base
    assert a.same_deals and "duplicate deals" in a.deals
    b = cardcore.compare(NAME, vs=[DOUBLES], vs_options={"doubles_gap": 2, **base}, options=base,
                         games=6, seed=1)  # fmt: skip
    assert b.b.options == {"doubles_gap": 2, **base}
    # B with the rule and gap 2 plays exactly what A played with them, on the same seeds
    assert b.b.seat_wins == a.a.seat_wins and b.b.actions == a.a.actions
    assert b.b.spread == a.a.spread and b.a.spread == a.b.spread
    gap1 = cardcore.compare(NAME, vs=[DOUBLES], vs_options={"doubles_gap": 1, **base},
                            options=base, games=6, seed=1)  # fmt: skip
    assert (gap1.b.actions, gap1.b.spread) != (b.b.actions, b.b.spread)
    text = str(b.table())
    assert "doubles_gap=2" in text and "duplicate deals" in text
    for kw, where in [({"options": {"doubles_gap": 2}}, "rules="), ({"vs_options": {"doubles_gap": 2}}, "vs=")]:  # fmt: skip
        with pytest.raises(OptionError, match=re.escape(where)):
            cardcore.compare(NAME, games=2, **kw)
    with pytest.raises(OptionError, match="at most 2"):
        cardcore.compare(NAME, vs=[DOUBLES], vs_options={"doubles_gap": 3}, games=2)


def test_cli_compare_in_process(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cmp.json"
    args = ["compare", NAME, "--rules", DOUBLES, "-o", "doubles_gap=2", "-o", "max_moves=100"]
    assert cli.main([*args, "--games", "4", "-q", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["a"]["options"] == {"doubles_gap": 2, "max_moves": 100}
    assert data["b"]["options"] == {"max_moves": 100} and data["games"] == 4
    capsys.readouterr()
    assert cli.main(["compare", NAME, "--vs-option", "doubles_gap=2", "--games", "2", "-q"]) == 2
    err = capsys.readouterr().err
    assert "configuration B" in err and f"--vs {DOUBLES}" in err


# --- 4. simulate and the CLI ----------------------------------------------------------------


def test_simulate_python_in_process_and_with_two_forked_workers() -> None:
    kw = {"games": 4, "players": 2, "seed": 1, "options": SHORT, "rules": [DOUBLES]}
    alone = cardcore.simulate(NAME, **kw)
    with ProcessPoolExecutor(2) as pool:  # fork on Linux: the registration is inherited
        pooled = cardcore.simulate(NAME, executor=pool, **kw)
    assert alone.to_json() == pooled.to_json() and alone.games == 4


def test_cli_simulate_in_process_matches_python(tmp_path: Any) -> None:
    out = tmp_path / "sim.json"
    args = ["simulate", NAME, "-p", "2", "-n", "4", "-s", "1", "-q", "-o", "max_moves=60"]
    assert cli.main([*args, "-r", DOUBLES, "-o", "doubles_gap=2", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    expected = cardcore.simulate(NAME, games=4, players=2, seed=1, rules=[DOUBLES],
                                 options={"max_moves": 60, "doubles_gap": 2})  # fmt: skip
    assert data["wins"] == list(expected.wins) and data["options"]["doubles_gap"] == 2


def test_cli_simulate_workers_with_a_registered_game_says_why(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["simulate", NAME, "-p", "2", "-n", "2", "-q", "-w", "2", "-o", "max_moves=20"]
    rc = cli.main([*args, "--json", str(tmp_path / "w.json")])
    err = capsys.readouterr().err
    assert rc == 0, err  # the workers register the game again from its module (2026-12-13)


def test_cli_list_rules_and_play_in_process(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli.main(["list", NAME]) == 0
    out = capsys.readouterr().out
    assert "max_moves" in out and DOUBLES in out and "doubles_gap" in out
    assert cli.main(["rules", NAME, DOUBLES]) == 0
    assert "SLAP-HOUSE-1" in capsys.readouterr().out
    record = tmp_path / "play.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("flip\n"))
    args = ["play", NAME, "-s", "3", "-o", "max_moves=10", "--bot-speed", "0.01"]
    assert cli.main([*args, "-r", DOUBLES, "-o", "doubles_gap=2", "--record", str(record)]) == 0
    data = json.loads(record.read_text())
    assert data["options"] == {"max_moves": 10, "doubles_gap": 2}
    assert data["actions"][0][:2] == [0, "flip"]
    shown = capsys.readouterr().out
    assert "54 face down" in shown and "legal: #1 flip" in shown


# --- 5. the web server ----------------------------------------------------------------------


def test_web_session_with_a_bot_and_a_spectator_never_sends_a_stack_card() -> None:
    pytest.importorskip("starlette")
    from tests.web.helpers import Player, create, serve

    frames: list[str] = []
    with serve() as (client, server, dog):
        server.host.observers.append(lambda out: frames.append(out.text))
        seats = [{"name": "Ann"}, {"name": "Bot", "agent": "random", "params": {"seed": 3}}]
        made = create(client, NAME, seats, options={"max_moves": 40, "doubles_gap": 2},
                      rules=[DOUBLES])  # fmt: skip
        sid = made["session"]
        with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as spec_ws:
            spectator = Player(spec_ws)
            spectator.send({"type": "watch", "session": sid})
            assert spectator.until("welcome")["role"] == "spectator"
            ann = Player(ws)
            ann.send({"type": "join", "session": sid, "seat": 0})
            ann.until("welcome")
            for _ in range(3000):
                view = ann.mirror.view
                if view is not None and view["is_over"]:
                    break
                if view is not None and 0 in view["to_act"] and view["legal"]:
                    ann.send(
                        {"type": "act", "action": view["legal"][0], "seen": ann.mirror.version}
                    )
                    reply = ann.recv()
                    while reply["type"] not in ("ok", "error"):
                        reply = ann.recv()
                else:
                    ann.recv()
            assert ann.view["is_over"]
            while spectator.mirror.view is None or not spectator.mirror.view["is_over"]:
                spectator.recv()
        record = client.get(f"/api/sessions/{sid}/record").json()
    assert dog.frames > 20
    # which card names had been public (on the pile) after each version
    game = cardcore.new_game(NAME, 2, rules=[DOUBLES], options=record["options"],
                             seed=record["seed"])  # fmt: skip
    public, upto = set(), [set()]
    for seat, text, *_ in record["actions"]:
        game.act(seat, text)
        public |= {str(c) for c in game.state.zones.cards[sj.PILE]}
        upto.append(set(public))
    final = len(record["actions"])
    assert game.position() == cardcore.replay(record).position() and final <= 40
    assert len(SHOE) - len(public) > 5  # some cards never left the stacks
    checked = 0
    for text in frames:
        message = json.loads(text)
        version = message.get("version", message.get("last"))
        if version is None or version >= final:  # at the end the whole deal is public
            continue
        words = re.sub(r"[A-Za-z0-9_\-]{16,}", " ", text)  # random tokens and ids: no card
        leaked = set(CARD.findall(words)) - upto[version]
        assert not leaked, (message["type"], version, leaked)
        checked += 1
    assert checked > 20
