"""Fixes of the 2026-12-07 (second) session, each test checked to fail on the code before it."""

from __future__ import annotations

import cardcore
from cardcore.search import ISMCTSAgent


def test_ismcts_reaction_zero_plays_at_once_as_its_bounds_say() -> None:
    """``parameter_bounds`` say ``reaction`` is in [0, 60]: 0 (``--bot-speed 0``) plays at once."""
    assert ISMCTSAgent.parameter_bounds["reaction"][0] == 0.0
    agent = cardcore.load_agent("ismcts:reaction=0,iterations=2,max_rollout=5")
    assert isinstance(agent, ISMCTSAgent) and agent.reaction == 0.0
    game = cardcore.new_game("speed", 2, seed=3)
    seat = 0
    legal = game.legal_actions(seat)
    plan = agent.plan(game.view(seat), legal, 0.0)
    assert plan is not None and plan.delay == 0.0 and plan.action in legal
    assert "reaction=0.0" in repr(agent)


def test_a_field_no_format_has_is_ignored_by_load_and_replay_and_not_saved_again() -> None:
    """embedding.rst: a key a tool added to a record or save is ignored; the next save drops it."""
    game = cardcore.new_game("golf", 2, seed=1)
    save = game.save()
    save["note"] = "x"
    save["record"]["note"] = 1
    save["config"]["extra"] = 2
    loaded = cardcore.load(save)
    assert loaded.view(0) == game.view(0)
    again = loaded.save()
    assert "note" not in again and "note" not in again["record"] and "extra" not in again["config"]
    record = game.record()
    record["zzz"] = 1
    assert cardcore.replay(record).view(None) == game.view(None)


def test_building_blocks_take_python_ints_and_scores_of_any_real_type() -> None:
    """api.rst (building blocks): pile ids, seats and masks are ints, a NumPy integer refused;
    scores may be NumPy's numbers."""
    import enum

    import numpy as np
    import pytest

    from cardcore import ArgumentError, Layout, ScoreSheet, Zones, ZoneSpec, parse_cards, turns

    with pytest.raises(ArgumentError, match="seat must be an int"):
        turns.next_seat(np.int64(1), 4)
    zones = Zones(Layout.of([ZoneSpec("a")]))
    card = parse_cards("7H")[0]
    with pytest.raises(ArgumentError, match="knowledge mask"):
        zones.put(0, card, np.int64(1))
    assert zones.cards == [[]]

    class Seats(enum.IntFlag):
        FIRST = 1

    zones.put(0, card, Seats.FIRST)
    assert type(zones.seen[0][0]) is int and zones.show(0, 0) == ["7H"]
    assert turns.winners_by([np.int64(3), np.float64(1.5)]) == (1,)
    sheet = ScoreSheet(2)
    sheet.add_round([np.int64(2), np.float64(1.5)])
    assert [type(t) for t in sheet.totals] == [int, float]


def _cli(*argv: str) -> tuple[int, str]:
    import contextlib
    import io

    from cardcore import cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = cli.main(list(argv))
    return code, out.getvalue()


def test_replay_prints_the_games_notes_of_what_no_action_names(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """cli.rst: ``cardcore replay`` says the game's own steps (Spit's start spit) after the
    action that led to them, as ``cardcore play`` does; ``--at`` and ``--final`` print none."""
    import json

    monkeypatch.setenv("COLUMNS", "160")
    game = cardcore.new_game("spit", 2, seed=4)
    game.act(0, "ready", at=0.5)
    game.act(1, "ready", at=0.7)
    game.apply(game.legal_actions(0)[0], at=1.0)
    path = tmp_path / "spit.json"
    path.write_text(json.dumps(game.record()))
    for seat in ((), ("--seat", "1")):
        code, out = _cli("replay", str(path), *seat)
        assert code == 0
        lines = out.splitlines()
        said = [
            i for i, line in enumerate(lines) if "Both players are ready: deal 1 starts" in line
        ]
        second = next(i for i, line in enumerate(lines) if line.startswith("#2 "))
        assert said and said[0] == second + 1  # after the second "ready", before its table
    code, out = _cli("replay", str(path), "--final")
    assert code == 0 and "Both players are ready" not in out


def test_compare_judges_duplicate_deals_from_every_game_it_plays() -> None:
    """house-rule-study.rst: "the same deal" is judged from every pile right after the deal,
    for the games played (Tonk's first_dealer=1 against the cut deals some seeds alike)."""
    some = cardcore.compare(
        "tonk", players=2, games=8, seed=2, skill=None, options={"first_dealer": 1}, vs_options={}
    )
    assert not some.same_deals
    words = some.deals.split("dealt differently in ")[1].split(" games")[0]
    differ, of = (int(w) for w in words.split(" of "))
    assert of == 8 and 0 < differ < 8
    from cardcore.simulate import _seed_of

    seed = _seed_of(3, 0)  # the one game of the study below is dealt alike by A and B
    a = cardcore.new_game("tonk", 2, seed=seed, options={"first_dealer": 1})
    b = cardcore.new_game("tonk", 2, seed=seed)
    assert a.state.zones.cards == b.state.zones.cards
    one = cardcore.compare(
        "tonk", players=2, games=1, seed=3, skill=None, options={"first_dealer": 1}, vs_options={}
    )
    assert one.same_deals and "duplicate deals" in one.deals


def test_compare_names_the_argument_an_unknown_agent_came_from() -> None:
    import pytest

    from cardcore import UnknownPluginError

    for kwargs, where in (
        ({"agents": "nope"}, "configuration A's agents: "),
        ({"vs_agents": "nope"}, "configuration B's agents: "),
        ({"skill": ("nope", "random")}, "skill: "),
    ):
        with pytest.raises(UnknownPluginError) as caught:
            cardcore.compare("golf", players=2, games=2, **kwargs)  # type: ignore[arg-type]
        assert str(caught.value).startswith(where + "no agent called 'nope'")


def test_json_to_stdout_whose_reader_left_ends_quietly_with_status_1() -> None:
    """cli.rst: a reader that leaves early ends the command quietly with status 1 (the JSON of
    ``--json -`` said ``error: [Errno 32] Broken pipe``)."""
    import subprocess
    import sys

    for command in (
        ["simulate", "tonk", "--games", "3", "--json", "-", "-q"],
        ["compare", "golf", "--games", "2", "-o", "rounds=1", "--skill", "none", "--json", "-"],
    ):
        proc = subprocess.Popen(
            [sys.executable, "-m", "cardcore", *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
        )
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader leaves before the command has written a byte
        err = proc.stderr.read().decode("utf-8", "replace")
        assert proc.wait(timeout=120) == 1, err
        assert "error" not in err and "Broken pipe" not in err and "Traceback" not in err


def test_full_replay_of_a_truncated_record_draws_its_last_table_over(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """cli.rst: a truncated record ends over after its last action: the last table the full
    replay draws is the one ``--final`` draws (over), not a game still in play."""
    import json

    monkeypatch.setenv("COLUMNS", "160")
    game = cardcore.new_game("golf", 2, seed=7, options={"rounds": 1})
    for _ in range(10):
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[0])
    game.truncate()
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(game.record()))
    code, final = _cli("replay", str(path), "--final")
    assert code == 0
    table = final.split("after action 10:\n", 1)[1].strip()
    code, full = _cli("replay", str(path))
    assert code == 0
    last = full.split("\n#10 ", 1)[1].split("\n", 1)[1]
    assert last.strip().startswith(table)
    assert "phase: over" in table or "over" in table.lower()


def test_an_unknown_flag_close_to_one_the_command_takes_is_suggested() -> None:
    import contextlib
    import io

    from cardcore import cli

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = cli.main(["compare", "tonk", "--options", "first_dealer=1"])
    assert code == 2
    assert err.getvalue() == (
        "error: unrecognized arguments: --options first_dealer=1; did you mean --option?"
        " (see cardcore compare --help)\n"
    )
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["simulate", "golf", "--zzz"]) == 2
    assert "did you mean" not in err.getvalue()
