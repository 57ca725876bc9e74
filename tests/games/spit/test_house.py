"""House-rule tests: spit.chooser (SPIT-END-3), spit.canfield (SPIT-SETUP-5), spit.same-rank (SPIT-MOVE-12)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.games.spit.helpers import SEAT0, SEAT1, arrange, centre, held, interleave, spit_state

import cardcore
from cardcore import ALL, IllegalActionError, NotationError
from cardcore_spit.actions import Claim
from cardcore_spit.house.canfield import canfield_order

PACKAGE = Path(__file__).resolve().parents[3] / "plugins" / "cardcore_spit"
HOUSE = {"SPIT-END-3": "spit.chooser", "SPIT-SETUP-5": "spit.canfield", "SPIT-MOVE-12": "spit.same-rank"}


def golden(rules: list[str]) -> cardcore.Game:
    return cardcore.new_game("spit", 2, deck=interleave(SEAT0, SEAT1), seed=5, rules=rules)


def finish_deal(game: cardcore.Game) -> None:
    game.act(0, "ready")
    game.act(1, "ready")
    for pile, times in ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5)):
        for _ in range(times):
            game.act(0, f"play {pile} L")


def test_spit_end_3_chooser_emptier_chooses() -> None:
    game = golden(["spit.chooser"])
    finish_deal(game)
    assert game.to_act == (0,)
    assert [str(a) for a in game.legal_actions(0)] == ["choose L", "choose R"]
    assert game.legal_actions(1) == ()
    with pytest.raises(NotationError):
        game.act(0, "slap R")
    with pytest.raises(IllegalActionError, match=r"\(SPIT-END-3\)"):
        game.act(1, "choose R")
    game.act(0, "choose R")  # seat 0 takes the 1-card pile, seat 1 the 16 cards of L
    assert len(held(game, 0)) == 10 + 1 and len(held(game, 1)) == 25 + 16


def test_spit_end_3_base_game_has_no_choose() -> None:
    game = golden([])
    finish_deal(game)
    with pytest.raises(NotationError):
        game.act(0, "choose L")
    assert all(isinstance(a, Claim) and str(a).startswith("slap") for a in game.legal_actions(1))


def test_spit_setup_5_canfield_layout() -> None:
    game = golden(["spit.canfield"])
    state, logic = spit_state(game)
    assert [state.zones.count(z) for z in logic.lay[0]] == [1, 1, 1, 1, 11]
    assert state.zones.count(logic.spit[0]) == 11
    z5 = logic.lay[0][4]
    assert state.zones.seen[z5][-1] == ALL and all(m == 0 for m in state.zones.seen[z5][:-1])
    # received cards 1-4 go to piles 1-4, cards 5-15 to pile 5 (the 15th on top)
    assert [str(state.zones.cards[z][-1]) for z in logic.lay[0][:4]] == SEAT0.split()[:4]
    assert str(state.zones.cards[z5][-1]) == SEAT0.split()[14]


@pytest.mark.parametrize(("n", "sizes"), [(3, (1, 1, 1, 0, 0)), (4, (1, 1, 1, 1, 0)), (9, (1, 1, 1, 1, 5)),
                                          (15, (1, 1, 1, 1, 11)), (30, (1, 1, 1, 1, 11))])
def test_spit_setup_5_canfield_below_15(n: int, sizes: tuple[int, ...]) -> None:
    order = canfield_order(n)
    assert tuple(order.count(k) for k in range(5)) == sizes


def test_spit_move_12_same_rank_allowed_only_with_the_rule() -> None:
    for rules, allowed in (([], False), (["spit.same-rank"], True)):
        game = cardcore.new_game("spit", 2, seed=1, rules=rules)
        game = arrange(game, ["5S", "9C", "KD", "2C", "7H"], ["QC", "QD", "QH", "QS", "JC"], left="5D", right="3H")
        assert ("play 1 L" in {str(a) for a in game.legal_actions(0)}) is allowed
        if allowed:
            game.act(0, "play 1 L")
            assert centre(game)[0][-1] == "5S"
            assert "play 4 R" in {str(a) for a in game.legal_actions(0)}  # still adjacency too


def test_house_rules_registered_with_rule_info() -> None:
    assert set(cardcore.available_rules("spit")) >= set(HOUSE.values())
    for rule_id, name in HOUSE.items():
        info = cardcore.rule_info(name)
        assert info.id == rule_id and info.game == "spit" and info.name == name
    game = cardcore.new_game("spit", 2, seed=1, rules=list(HOUSE.values()))
    assert set(game.rules) == set(HOUSE.values())
    with pytest.raises(cardcore.RuleConflictError):
        cardcore.new_game("speed", 2, seed=1, rules=["spit.chooser"])


def test_base_game_modules_never_name_a_house_rule() -> None:
    words = [*HOUSE, *HOUSE.values(), "chooser", "canfield", "same_rank", "same-rank"]
    pattern = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    paths = [*PACKAGE.glob("*.py"), *PACKAGE.glob("speed/*.py")]
    assert len(paths) > 10
    for path in paths:
        found = pattern.findall(path.read_text())
        assert not found, (path.name, found)
