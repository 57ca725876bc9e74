"""Core rules whose named tests let a broken rule pass (a mutation audit of 2026-12-24).

Each test is named after the rule it guards (docs/core-rules.rst) and fails when that rule
breaks: the audit broke each rule in turn and ran only the tests named after it.
"""

from __future__ import annotations

import pytest

import cardcore
from cardcore import Card, IllegalActionError, NotationError


@pytest.mark.parametrize("text", ["TH", "1S", "Q\u017f", "10\uff28", "11D", "JKS"])
def test_core_notation_2_no_other_spelling_of_a_card(text: str) -> None:
    with pytest.raises(NotationError, match="CORE-NOTATION-2"):
        Card.parse(text)


def test_core_notation_1_non_ascii_action_text_is_rejected_unread() -> None:
    game = cardcore.new_game("golf", 2, seed=3)
    text = str(game.legal_actions(game.to_act[0])[0])
    with pytest.raises(NotationError, match=r"ASCII.*CORE-NOTATION-1"):
        game.act(game.to_act[0], text + "\u00e9")
    assert game.version == 0


def test_core_record_1_a_time_beyond_max_time_is_refused() -> None:
    game = cardcore.new_game("golf", 2, seed=3)
    seat = game.to_act[0]
    for at in (1e15 * 1.5, -2e15):
        with pytest.raises(IllegalActionError, match="CORE-RECORD-1"):
            game.apply(game.legal_actions(seat)[0], at=at)
    assert game.version == 0


@pytest.mark.parametrize(("name", "options"), [("golf", {"rounds": 3}), ("tonk", {"hands": 4})])
def test_core_end_1_the_host_ends_the_game_and_the_leaders_win(
    name: str, options: dict[str, int]
) -> None:
    game = cardcore.new_game(name, 3, seed=5, options=options)
    agent = cardcore.RandomAgent(seed=5)
    leaders = game.logic.standings(game.state)
    while len(leaders) == 3:  # until the standings tell the leaders apart
        seat = game.to_act[0]
        game.apply(agent.choose(game.view(seat), game.legal_actions(seat)))
        assert not game.is_over
        leaders = game.logic.standings(game.state)
    game.act(cardcore.HOST, "end")
    assert game.is_over and game.result is not None
    assert game.result.reason == "ended" and game.result.winners == leaders


def test_core_chance_1_a_record_of_format_2_deals_as_it_did() -> None:
    """Records of formats 1 and 2 shuffle as those releases did (a ``random.Random`` per
    chance event): each 0.2.0 record replays to the very position it was saved at."""
    from tests.test_compat_2026_12_21 import GAME_CASES, _game, _key, _same_position

    cases = [name for release, name in GAME_CASES if release == "v020"]
    assert len(cases) >= 6
    for name in cases:
        entry = _game("v020", name)
        assert entry["record"]["format_version"] == 2
        game = cardcore.replay(entry["record"], key=_key(entry))
        assert _same_position(game.position()) == _same_position(entry["position"]), name
