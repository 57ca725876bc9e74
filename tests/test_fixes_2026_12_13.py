"""Fixes of 2026-12-13: findings of the Slapjack author, the diff review and the rule-options user."""

from __future__ import annotations

import json
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import cardcore
from cardcore import cli
from cardcore.testing import check_game
from tests.plugins import slapjack_2026_12_13 as sj


@pytest.fixture
def slapjack() -> Iterator[str]:
    cardcore.register("cardcore.games", sj.NAME, sj)
    yield sj.NAME
    cardcore.unregister("cardcore.games", sj.NAME)


def test_the_kits_veto_check_runs_on_a_game_of_two_notations(slapjack: str) -> None:
    # "flip" and "slap": the first salt of each game's walk vetoed neither, and the check
    # was skipped; a walk that vetoed nothing now draws another salt
    report = check_game(slapjack, players=2, games=2, seed=2)
    assert report.ok, report.failures
    assert "vetoes" not in report.skipped
    assert report.vetoed > 0


def test_cli_workers_register_again_what_this_process_registered(
    slapjack: str, tmp_path: Path
) -> None:
    """``--workers`` starts fresh processes: each registers the game again from its module,
    so the summary matches the one played in this process."""
    base = ["simulate", slapjack, "-p", "2", "-n", "6", "-q", "-o", "max_moves=30"]
    here, there = tmp_path / "here.json", tmp_path / "there.json"
    assert cli.main([*base, "--json", str(here)]) == 0
    assert cli.main([*base, "-w", "2", "--json", str(there)]) == 0
    a, b = json.loads(here.read_text()), json.loads(there.read_text())
    assert a["games"] == b["games"] == 6
    assert (a["wins"], a["reasons"]) == (b["wins"], b["reasons"])


def test_cli_workers_refuse_a_game_no_worker_can_import(
    capsys: pytest.CaptureFixture[str],
) -> None:
    built = types.ModuleType("built_in_place")  # no module a worker could import
    vars(built).update({k: v for k, v in vars(sj).items() if not k.startswith("__")})
    cardcore.register("cardcore.games", sj.NAME, built)
    try:
        rc = cli.main(["simulate", sj.NAME, "-p", "2", "-n", "2", "-q", "-w", "2"])
    finally:
        cardcore.unregister("cardcore.games", sj.NAME)
    err = capsys.readouterr().err
    assert rc == 2
    assert f"game {sj.NAME!r} was registered in this process" in err and "--workers" in err


def test_a_long_records_count_check_reads_its_rules_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The cheap count check of a long record bounds it with the options of its house
    rules too (a rule's own option may lengthen the game), as ``replay`` does after."""
    from cardcore import Option, RuleInfo
    from cardcore.plugins import get_ruleset

    rule = types.ModuleType("fixes13_long")
    rule.RULE = RuleInfo(  # type: ignore[attr-defined]
        "FIX13-LONG-1",
        "golf.fixes13-long",
        "golf",
        "a game as long as its own option says",
        options=(Option("fixes13_long", default=0, kind=int, minimum=0, maximum=10**7),),
    )
    logic = type(get_ruleset("golf").logic)
    monkeypatch.setattr(
        logic, "action_bound", lambda self, players, options: options.get("fixes13_long", 0) or 10
    )
    cardcore.register("cardcore.rules", "golf.fixes13-long", rule)
    try:
        game = cardcore.new_game("golf", 2, rules=["golf.fixes13-long"], seed=1,
                                 options={"fixes13_long": 10**6})  # fmt: skip
        record = game.record()
        record["actions"] = [[0, "draw", None]] * 5000  # long, and wrong at its second action
        with pytest.raises(cardcore.CorruptStateError) as caught:
            cardcore.replay(record)
        assert "more than the game's bound" not in str(caught.value)
        record["options"]["fixes13_long"] = 100  # the rule's bound is below the count now
        with pytest.raises(cardcore.CorruptStateError, match="more than the game's bound 100"):
            cardcore.replay(record)
    finally:
        cardcore.unregister("cardcore.rules", "golf.fixes13-long")
