"""The printed Golf rules (``cardcore rules golf``): what the renderer makes of seeds/golf.md."""

from __future__ import annotations

import re

import pytest

from cardcore import cli
from cardcore.cli.rulebook import find_rules, game_part, rule_entries

_ID_START = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-$")


def test_no_line_of_the_golf_rules_ends_inside_a_rule_id() -> None:
    text = find_rules("cardcore_golf.rules")
    assert text is not None
    broken = [line for line in text.splitlines() if _ID_START.search(line)]
    assert not broken, broken


@pytest.mark.parametrize(
    "text",
    [
        "- **X-GEN-3** see X-\n  DECK-3 keeps it\n",
        "- **X-GEN-3** see X-DECK-\n  3 keeps it\n",
        "- **X-GEN-3** see X-\n  DECK-3\n  keeps it\n",
    ],
    ids=["break-after-prefix", "break-before-number", "id-alone-on-its-line"],
)
def test_the_renderer_never_joins_a_rule_id_with_a_space(text: str) -> None:
    shown = " ".join(game_part("# Rules\n\n## Common\n\n" + text, "x").split())
    assert "see X-DECK-3 keeps it" in shown
    assert " ".join(rule_entries(text)["X-GEN-3"].split()).endswith("see X-DECK-3 keeps it")


def test_the_renderer_leaves_other_hyphens_at_line_ends_alone() -> None:
    text = "- **X-GEN-1** a well-\n  known word, and 2-\n  3 decks\n"
    assert rule_entries(text)["X-GEN-1"] == text.rstrip("\n")


def test_printed_golf_rules_name_golf_deck_3_whole(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "golf", "GOLF-GEN-3"]) == 0
    assert "GOLF-DECK-3 keeps the stock" in " ".join(capsys.readouterr().out.split())


def test_the_golf_options_table_states_each_options_bounds() -> None:
    from cardcore_golf.rules import GAME

    text = find_rules("cardcore_golf.rules")
    assert text is not None
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)`\s*\|([^|]*)\|", text, re.M)}
    bounded = [o for o in GAME.options if o.maximum is not None and o.name != "dealer"]
    assert {o.name for o in bounded} == {"rounds", "points_limit", "max_turns"}
    for option in bounded:
        assert f"{option.minimum}-{option.maximum}" in rows[option.name], option.name


def test_golf_score_2_is_tagged_as_stated_in_the_seed() -> None:
    # rules-decisions: GOLF-SCORE-2 [S] (the seed's second scoring system), off unless chosen
    entry = rule_entries(find_rules("cardcore_golf.rules") or "")["GOLF-SCORE-2"]
    assert "`[S]`" in entry and "golf.hard" in entry


def test_golf_pen_3_summary_states_the_floor_at_zero() -> None:
    from cardcore_golf.house.ender_penalty_lowest import RULE

    assert "max(lowest score, 0)" in RULE.summary
