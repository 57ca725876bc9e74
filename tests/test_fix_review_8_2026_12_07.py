"""Review of the eighth night's fixes (``git log 4e03803a..fbe00792``): ISMCTS ``reaction=0``,
format-1 records holding a position, ``cardcore replay`` of truncated records and its notes,
``cardcore rules GAME id`` in any case, compare's deal digests, and the new doc sentences.

A strict xfail marks each claim found false; every other test is a claim that held.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import copy
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import cardcore
from cardcore import ArgumentError, CorruptStateError, Layout, OptionError, Zones, ZoneSpec
from cardcore.agents import RandomAgent, run_realtime
from cardcore.cli import commands
from cardcore.search import ISMCTSAgent
from cardcore.zones import ALL

CARD = re.compile(r"(?<![0-9A-Za-z])(?:(?:10|[2-9JQKA])[CDHS]|JK)(?![0-9A-Za-z])")


def _cli(*argv: str) -> tuple[int, str, str]:
    from cardcore import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _replay(
    path: Path,
    *,
    seat: int | None = None,
    at: int | None = None,
    final: bool = False,
    step: bool = False,
    answers: tuple[str, ...] = (),
) -> tuple[int, str]:
    """``cmd_replay`` with its own console and the answers to ``--step``'s prompts."""
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, force_terminal=False)
    args = argparse.Namespace(record=str(path), seat=seat, at=at, final=final, step=step)
    left = list(answers)

    def read(prompt: str) -> str:
        if not left:
            raise EOFError
        return left.pop(0)

    code = commands.cmd_replay(console, args, read)
    return code, out.getvalue()


# -- 1. ISMCTS reaction=0 ---------------------------------------------------------------------


def test_ismcts_reaction_zero_through_every_way_of_building_it() -> None:
    from cardcore.cli.play import make_agent

    game = cardcore.new_game("speed", 2, seed=5)
    legal = game.legal_actions(1)
    built = [
        cardcore.load_agent("ismcts:reaction=0,iterations=2,max_rollout=5"),
        cardcore.load_agent("ismcts", reaction=0, iterations=2, max_rollout=5),
        make_agent("ismcts:iterations=2,max_rollout=5", 9, 0.0),  # --bot-speed 0
        ISMCTSAgent(iterations=2, max_rollout=5, reaction=0.0),
    ]
    for agent in built:
        assert isinstance(agent, ISMCTSAgent) and agent.reaction == 0.0
        plan = agent.plan(game.view(1), legal, 0.0)
        assert plan is not None and plan.delay == 0.0 and plan.action in legal
    assert ISMCTSAgent().reaction == 0.5  # the default unchanged (no `or 0.0` taking None)
    with pytest.raises(OptionError):
        ISMCTSAgent(reaction=-0.1)
    with pytest.raises(OptionError):
        cardcore.load_agent("ismcts:reaction=61")


# -- 2. records: format 1 with a position ---------------------------------------------------


def test_a_format_1_record_or_save_holding_a_position_is_refused_and_without_one_replays() -> None:
    base = cardcore.new_game("golf", 2, seed=1)
    game = cardcore.new_game("golf", 2, position=base.position(), seed=2)
    game.apply(game.legal_actions(game.to_act[0])[0])
    rec = game.record()
    rec["format_version"] = 1
    for given in (rec, json.dumps(rec)):
        with pytest.raises(CorruptStateError, match="format version 1 holds a position"):
            cardcore.replay(given)
    save = game.save()
    save["record"]["format_version"] = 1
    with pytest.raises(CorruptStateError, match="format version 1 holds a position"):
        cardcore.load(save)
    save["record"]["format_version"] = 2  # security.rst: loads with that format's chance
    assert cardcore.load(save).view(None) == game.view(None)
    plain = base.record()
    plain["format_version"] = 1
    plain["position"] = None
    assert cardcore.replay(plain).record()["format_version"] == 2  # embedding.rst


def test_a_save_relabelled_as_tonk_0_4_9_loads_with_the_rule_keeping_its_defaults() -> None:
    """security.rst: a Tonk 0.4.9 game plays by ``tonk.deal-shows-every-hand``."""
    save = cardcore.new_game("tonk", 2, seed=1).save()
    save["record"]["game_version"] = "0.4.9"
    loaded = cardcore.load(save)
    assert "tonk.deal-shows-every-hand" in [r["name"] for r in loaded.record()["rules"]]


# -- 3. cardcore replay: truncated records, notes; cardcore rules ------------------------------


@pytest.fixture
def truncated(tmp_path: Path) -> Path:
    game = cardcore.new_game("golf", 2, seed=1)
    for _ in range(3):
        game.apply(game.legal_actions(game.to_act[0])[0])
    game.truncate()
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(game.record()))
    return path


def test_replay_of_a_truncated_record_ends_over_only_after_its_last_action(truncated: Path) -> None:
    code, out = _replay(truncated)
    lines = out.rstrip().splitlines()  # the last table ends with the result (said once)
    assert code == 0 and lines[-1].endswith("╯") and out.count("game over") == 1
    assert any("game over (truncated); no winner" in line for line in lines[-4:])
    for at, over in ((3, True), (2, False), (0, False)):
        code, out = _replay(truncated, at=at)
        assert code == 0 and ("phase: over" in out) is over
    code, out = _replay(truncated, final=True)
    assert "phase: over" in out
    code, out = _replay(truncated, step=True, answers=("", "q"))  # quit before the second
    assert code == 0 and "#1 " in out and "#2 " not in out
    assert "game over" not in out and "phase: over" not in out
    code, out = _replay(truncated, step=True, answers=("", "", ""))  # all three stepped
    assert "game over (truncated)" in out
    code, out = _replay(truncated, step=True)  # EOF at the first prompt
    assert "#1 " not in out and "game over" not in out


def test_replay_of_a_truncated_record_with_no_actions_is_over(tmp_path: Path) -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    game.truncate()
    path = tmp_path / "zero.json"
    path.write_text(json.dumps(game.record()))
    for kwargs in ({}, {"final": True}, {"at": 0}):
        code, out = _replay(path, **kwargs)  # type: ignore[arg-type]
        assert code == 0 and "phase: over" in out


def test_a_record_ended_by_its_rules_but_marked_truncated_is_refused(tmp_path: Path) -> None:
    game = cardcore.new_game("golf", 2, seed=1, options={"rounds": 1})
    cardcore.play(game, [RandomAgent(1), RandomAgent(2)])
    assert game.is_over and game.result is not None and game.result.reason != "truncated"
    rec = game.record()
    path = tmp_path / "ended.json"
    path.write_text(json.dumps(rec))
    code, out = _replay(path)
    assert code == 0 and "game over" in out
    rec["truncated"] = True
    path.write_text(json.dumps(rec))
    with pytest.raises(CorruptStateError, match="end it by the rules"):
        _replay(path)


@pytest.mark.parametrize(("name", "seed", "most"), [("spit", 5, 90), ("speed", 5, 250)])
def test_replay_notes_show_no_card_the_seat_or_a_spectator_cannot_see(
    tmp_path: Path, name: str, seed: int, most: int
) -> None:
    game = cardcore.new_game(name, 2, seed=seed)
    run_realtime(
        game,
        [RandomAgent(1, reaction=0.3), RandomAgent(2, reaction=0.3)],
        seed=seed,
        max_actions=most,
    )
    rec = game.record()
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(rec))
    said = cards = 0
    for seat in (None, 0, 1):
        code, out = _replay(path, seat=seat)
        assert code == 0
        lines = out.splitlines()
        where = {
            int(m.group(1)): k for k, line in enumerate(lines) if (m := re.match(r"#(\d+) ", line))
        }
        empty = {k: v for k, v in rec.items() if k not in ("actions", "result", "truncated")}
        step = cardcore.replay({**empty, "actions": []})
        for i, (who, notation, at) in enumerate(rec["actions"], 1):
            step.act(who, notation, at=at)
            view = json.dumps(step.view(seat))
            k = where[i] + 1
            while not lines[k].startswith("╭"):
                said += 1
                for card in CARD.findall(lines[k]):
                    cards += 1
                    assert f'"{card}"' in view, (seat, i, lines[k])
                k += 1
    assert said > 0 and cards > 0  # the notes, and cards in them, were read at all


def test_rules_finds_a_house_rule_by_its_id_in_any_case() -> None:
    for typed in ("golf-score-4", "Golf-Score-4", "GOLF-SCORE-4"):
        code, out, _ = _cli("rules", "golf", typed)
        assert code == 0 and "golf.jokers" in out
    code, out, err = _cli("rules", "tonk", "golf-score-4")
    assert code != 0 and "belongs to 'golf'" in out + err


# -- 4. compare: deal digests -----------------------------------------------------------------

_DIGESTS = """
import json
from cardcore.compare._run import Config, run_one
out = []
for name, rules in (("golf", ("golf.jokers",)), ("golf", ()), ("speed", ()), ("tonk", ())):
    cfg = Config("A", rules, (), {}, ("random",) * 2)
    out += [run_one((name, 2, cfg, 0, False, 7, i, None, None)).deal for i in range(2)]
print(json.dumps(out))
"""


def test_the_deal_digest_is_the_same_whatever_the_hash_seed() -> None:
    seen = set()
    for hashseed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        done = subprocess.run(
            [sys.executable, "-c", _DIGESTS],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        digests = json.loads(done.stdout)
        assert len(set(digests)) == len(digests)  # jokers or not, each deal its own
        seen.add(tuple(digests))
    assert len(seen) == 1


def test_compare_in_worker_processes_judges_the_deals_as_in_process() -> None:
    kwargs: dict[str, Any] = {
        "players": 2,
        "games": 8,
        "seed": 2,
        "skill": None,
        "options": {"first_dealer": 1},
        "vs_options": {},
    }
    here = cardcore.compare("tonk", **kwargs)
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        there = cardcore.compare("tonk", executor=pool, chunk=2, **kwargs)
    assert (there.same_deals, there.deals) == (here.same_deals, here.deals)
    assert "in 1 of 8 games" in here.deals
    jokers = cardcore.compare("golf", players=2, games=2, seed=1, skill=None, rules=["golf.jokers"])
    assert not jokers.same_deals and "the decks differ" in jokers.deals


def test_compare_says_in_how_many_of_the_studys_games_with_skill_probes_on() -> None:
    """house-rule-study.rst: ``deals`` says in how many games the deals differ. The study
    plays 8 games a side; with the skill probe on it says "2 of 16" (``_deals`` counts
    the probe games of side B, dealt as the study's own from the same seeds)."""
    kwargs: dict[str, Any] = {
        "players": 2,
        "games": 8,
        "seed": 2,
        "options": {"first_dealer": 1},
        "vs_options": {},
    }
    off = cardcore.compare("tonk", skill=None, **kwargs)
    on = cardcore.compare("tonk", skill=("random", "random"), **kwargs)
    assert "in 1 of 8 games" in off.deals
    assert on.deals == off.deals


def test_compare_names_the_argument_of_an_unknown_agent() -> None:
    from cardcore import UnknownPluginError

    with pytest.raises(UnknownPluginError, match=r"^configuration B's agents: "):
        cardcore.compare("golf", players=2, games=2, vs_agents="nope")


def test_cardcore_compare_names_the_option_of_an_unknown_agent() -> None:
    """The changelog: an unknown agent says which argument named it. The command line's own
    check (``check_agent_specs``) says only "no agent called 'nope'" for ``--vs-agents``."""
    code, out, err = _cli("compare", "golf", "--games", "2", "--vs-agents", "nope")
    assert code != 0 and "no agent called 'nope'" in out + err
    assert "--vs-agents: no agent called 'nope'" in out + err


# -- 5. the docs' new sentences ---------------------------------------------------------------


def _zones() -> Zones:
    return Zones(Layout.of([ZoneSpec("a"), ZoneSpec("b")]))


def test_a_spectator_knows_only_a_card_whose_mask_is_all() -> None:
    """zones.py / api.rst: a mask of every seat (0b1111) or all but one (~1) tells a
    spectator nothing; a seat reads its own bit."""
    card = cardcore.parse_cards("7H")[0]
    for mask, spectator in ((ALL, ["7H"]), (0b1111, [None]), (~1, [None])):
        zones = _zones()
        zones.put(0, card, mask)
        assert zones.show(0, None) == spectator
        assert zones.show(0, 1) == ["7H"]
    assert zones.show(0, 0) == [None]  # ~1: not seat 0


def test_a_seat_reads_only_its_own_bit_and_a_spectator_only_all() -> None:
    """zones.py / api.rst (as corrected by this review): a seat reads only its own bit; a
    spectator knows only a card whose mask is exactly ``ALL`` (``ALL`` less bit 5 hides it)."""
    card = cardcore.parse_cards("7H")[0]
    for mask, spectator in ((ALL, ["7H"]), (ALL & ~(1 << 5), [None])):
        zones = _zones()
        zones.put(0, card, mask)
        assert zones.show(0, None) == spectator
        assert [zones.show(0, s) for s in range(4)] == [["7H"]] * 4


def test_zones_index_piles_as_a_list_does() -> None:
    """api.rst (as corrected by this review): Zones takes a NumPy pile id, as a list index;
    a NumPy knowledge mask is refused."""
    import numpy as np

    card = cardcore.parse_cards("7H")[0]
    zones = _zones()
    zones.put(np.int64(1), card)  # type: ignore[arg-type]
    assert zones.cards == [[], [card]]
    with pytest.raises(ArgumentError, match="knowledge mask"):
        zones.put(0, card, np.int64(1))  # type: ignore[arg-type]
    assert zones.cards == [[], [card]]


def test_building_blocks_refuse_numpy_counts_and_piles() -> None:
    import numpy as np

    from cardcore import dealing, turns

    state = cardcore.new_game("golf", 2, seed=1).state
    with pytest.raises(ArgumentError):
        dealing.deal_round_robin(state, 0, [1, 2], np.int64(1))  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        dealing.draw_card(state, np.int64(0), 1)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        turns.next_seat(1, np.int64(4))  # type: ignore[arg-type]


def test_golf_bonus_card_rule_takes_its_own_option() -> None:
    """seeds/golf.md and compare's docstring: ``golf.bonus-card`` takes ``bonus_card``
    (GOLF-SCORE-10), and B drops an option only A's house rules take."""
    from cardcore.plugins import rule_info

    info = rule_info("golf.bonus-card")
    assert info.id == "GOLF-SCORE-10"
    assert "bonus_card" in [getattr(o, "name", o) for o in info.options]
    done = cardcore.compare(
        "golf",
        players=2,
        games=2,
        seed=1,
        skill=None,
        rules=["golf.bonus-card"],
        options={"bonus_card": "Q"},
    )
    assert dict(done.a.options) == {"bonus_card": "Q"} and dict(done.b.options) == {}


def test_a_field_no_format_has_is_ignored_by_the_replay_command(tmp_path: Path) -> None:
    rec = copy.deepcopy(cardcore.new_game("golf", 2, seed=1).record())
    rec["tool_note"] = {"x": 1}
    path = tmp_path / "extra.json"
    path.write_text(json.dumps(rec))
    code, out = _replay(path, final=True)
    assert code == 0 and "golf" in out
