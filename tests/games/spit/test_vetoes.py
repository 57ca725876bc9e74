"""A house rule implementing only the core's ``forbid_action`` changes Spit and Speed.

The core applies vetoes for every game: the vetoed actions leave ``legal_actions``
and ``act`` rejects them citing the veto's rule ID. The games' automatic steps
(spits, refills, recycles) are not seat actions and are never vetoed.
"""

from __future__ import annotations

import pytest
from tests.games.spit.helpers import (
    eights_game,
    golden_game,
    registered,
    speed_arrange,
    veto_rule,
)

import cardcore
from cardcore import IllegalActionError


def _verbs(game: cardcore.Game, seat: int) -> set[str]:
    return {str(a).split()[0] for a in game.legal_actions(seat)}


def test_veto_only_rule_removes_spit_setup_actions() -> None:
    base = eights_game()  # seat 0's piles 2, 4 and 5 show an 8 (stacked deck)
    assert {"combine", "ready"} <= _verbs(base, 0)
    with registered(veto_rule("test.spit-no-setup", "spit", ["combine", "ready"])) as name:
        game = eights_game(rules=[name])
        assert game.rules == (name,)
        for seat in (0, 1):
            assert not _verbs(game, seat) & {"combine", "ready"}
            assert _verbs(game, seat) <= {"fill"}
        for text in ("ready", "combine 2 5"):
            with pytest.raises(IllegalActionError, match=r"\(TEST-VETO-1\)") as info:
                game.act(0, text)
            assert info.value.rule_id == "TEST-VETO-1"
        assert game.version == 0
    # unregistered: the base game is untouched
    assert {"combine", "ready"} <= _verbs(eights_game(), 0)


def test_veto_only_rule_removes_spit_plays() -> None:
    base = golden_game()
    base.act(0, "ready")
    base.act(1, "ready")
    assert "play" in _verbs(base, 0)
    with registered(veto_rule("test.spit-no-play", "spit", ["play"])) as name:
        game = cardcore.new_game("spit", 2, position=base.position(), seed=1, rules=[name])
        for seat in (0, 1):
            assert "play" not in _verbs(game, seat) and "spit" in _verbs(game, seat)
        with pytest.raises(IllegalActionError, match=r"\(TEST-VETO-1\)") as info:
            game.act(0, "play 1 L")
        assert info.value.rule_id == "TEST-VETO-1"
        # the automatic spit is no seat action: asking for it still works
        game.act(0, "spit")
        game.act(1, "spit")
        assert game.view(None)["table"]["piles"]["L"][0] != "AH"


def test_veto_only_rule_removes_speed_plays() -> None:
    base = speed_arrange(cardcore.new_game("speed", 2, seed=1), "6H 2C QD 9C 9D", "3C 3D 3H 4S 8C",
                         side0="AD 7S", side1="AH 10D", left="5S", right="KH")
    assert "play" in _verbs(base, 0) and "play" in _verbs(base, 1)
    with registered(veto_rule("test.speed-no-play", "speed", ["play"])) as name:
        game = cardcore.new_game("speed", 2, position=base.position(), seed=1, rules=[name])
        for seat in (0, 1):
            assert [str(a) for a in game.legal_actions(seat)] == ["stuck"]
        with pytest.raises(IllegalActionError, match=r"\(TEST-VETO-1\)") as info:
            game.act(0, "play 6H L")
        assert info.value.rule_id == "TEST-VETO-1"
        fresh = cardcore.new_game("speed", 2, seed=3, rules=[name])
        assert all(str(a) == "stuck" for s in (0, 1) for a in fresh.legal_actions(s))
        # the side cards turned when both are stuck are an automatic step, never vetoed
        game.act(0, "stuck")
        game.act(1, "stuck")
        assert game.view(None)["table"]["piles"]["L"][0] == "7S"
