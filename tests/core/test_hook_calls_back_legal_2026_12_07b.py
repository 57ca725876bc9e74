"""A house rule's hook that calls back into its own game's ``legal_actions`` while
``apply`` runs is refused (hooks.rst), as a call back to ``view`` is: it used to get the
legal set published before the action (read without the lock) and the game went on.
Every path into the game's logic is covered: the published action (``apply``'s fast
path), an action judged against a ``seen`` version, and action text through ``act``."""

from __future__ import annotations

import random
import types

import pytest

import cardcore
from cardcore import PluginError, RuleInfo, hookimpl

RULE = RuleInfo(id="CALLBACK-1", name="golf.calls-back", game="golf", summary="Calls back")


@pytest.fixture
def game_and_seat():
    holder: dict[str, object] = {}

    @hookimpl
    def score_round(state, scores):
        holder["game"].legal_actions(holder["seat"])  # type: ignore[attr-defined]

    module = types.ModuleType("golf_calls_back")
    module.RULE = RULE  # type: ignore[attr-defined]
    module.score_round = score_round  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", RULE.name, module)
    try:
        game = cardcore.new_game("golf", 2, rules=[RULE.name], options={"rounds": 1}, seed=5)
        holder["game"] = game
        yield game, holder
    finally:
        cardcore.unregister("cardcore.rules", RULE.name)


@pytest.mark.parametrize("how", ["published", "seen", "act"])
def test_a_hook_calling_legal_actions_inside_apply_is_refused_and_changes_nothing(
    game_and_seat, how
) -> None:
    game, holder = game_and_seat
    rng = random.Random(5)
    with pytest.raises(PluginError, match=r"golf\.calls-back") as caught:
        while not game.is_over:
            seat = holder["seat"] = game.to_act[0]
            legal = game.legal_actions(seat)  # published for this version and seat
            action = rng.choice(legal)
            saved, version = game.save(), game.version
            if how == "published":
                game.apply(action)
            elif how == "seen":
                game.apply(action, seen=game.version)
            else:
                game.act(seat, str(action))
    assert "never calls back into its own game" in str(caught.value.__cause__ or caught.value)
    assert game.save() == saved and game.version == version
    assert not game.is_over
    assert game.legal_actions(seat) == legal  # the game goes on as before


def test_legal_actions_outside_a_hook_still_answers_from_the_published_set() -> None:
    game = cardcore.new_game("golf", 2, options={"rounds": 1}, seed=5)
    seat = game.to_act[0]
    assert game.legal_actions(seat) is game.legal_actions(seat)
