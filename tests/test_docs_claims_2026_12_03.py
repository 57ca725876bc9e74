"""Claims of the reference pages checked against the library (review of 2026-12-03).

Pages: docs/api.rst, events.rst, core-rules.rst, hooks.rst, notation.rst, agents.rst,
search-agents.rst, embedding.rst and games/*.rst. A claim found false is an
``xfail(strict=True)`` test that asserts what the page says.
"""

from __future__ import annotations

import logging
import types
from collections.abc import Iterator

import pytest

import cardcore
from cardcore import (
    CardcoreError,
    Event,
    Layout,
    OptionError,
    RandomAgent,
    RuleInfo,
    ZoneSpec,
    hookimpl,
    new_game,
    play,
)

_REGISTERED: list[str] = []


@pytest.fixture(autouse=True)
def _unregister() -> Iterator[None]:
    yield
    while _REGISTERED:
        cardcore.unregister("cardcore.rules", _REGISTERED.pop())


def _house_rule(rule: RuleInfo, **hooks: object) -> None:
    module = types.ModuleType(rule.name.replace(".", "_").replace("-", "_"))
    module.RULE = rule  # type: ignore[attr-defined]
    vars(module).update(hooks)
    cardcore.register("cardcore.rules", rule.name, module)
    _REGISTERED.append(rule.name)


# --- api.rst, Errors ---------------------------------------------------------------------


def test_player_count_errors_carry_their_rule_id() -> None:
    """api.rst, Errors: an error a rule forbids ends with the rule's ID and carries it as
    ``rule_id``; a player count outside Tonk's range is refused citing TONK-GEN-1."""
    for players in (1, 5):
        with pytest.raises(OptionError) as caught:
            new_game("tonk", players, seed=1)
        assert caught.value.rule_id == "TONK-GEN-1"
        assert str(caught.value).endswith("(TONK-GEN-1)")


@pytest.mark.xfail(
    strict=True,
    reason="docs/api.rst says a rule's error carries its ID as rule_id, but new_game('tonk', 4) "
    "cites TONK-GEN-1 in its text with rule_id None (1 or 5 players carry it)",
)
def test_four_tonk_players_without_the_option_carry_the_rule_id() -> None:
    with pytest.raises(OptionError) as caught:
        new_game("tonk", 4, seed=1)
    assert "TONK-GEN-1" in str(caught.value)
    assert caught.value.rule_id == "TONK-GEN-1"


@pytest.mark.xfail(
    strict=True,
    reason="docs/api.rst says every error derives from CardcoreError, but Layout.of with two "
    "piles of one name raises a bare ValueError",
)
def test_a_layout_with_duplicate_pile_names_raises_a_cardcore_error() -> None:
    with pytest.raises(CardcoreError):
        Layout.of([ZoneSpec("stock"), ZoneSpec("stock")])


@pytest.mark.xfail(
    strict=True,
    reason="api.rst (RuleInfo.describe_applies) says it says in words where a rule applies "
    "('layout 6, 8'), but Golf's rules read 'layout 6, 8, 9, 10, 6, 8, 9, 10'",
)
def test_describe_applies_names_each_layout_once() -> None:
    words = cardcore.rule_info("golf.no-final-turns").describe_applies()
    assert words == "layout 6, 8, 9, 10"


@pytest.mark.xfail(
    strict=True,
    reason="api.rst (with_jokers) says it returns cards followed by n jokers, but "
    "with_jokers('AS', 1) returns ('A', 'S', JK): text is split into characters",
)
def test_with_jokers_refuses_text_instead_of_cards() -> None:
    try:
        cards = cardcore.with_jokers("AS", 1)  # type: ignore[arg-type]
    except CardcoreError:
        return
    assert all(isinstance(card, cardcore.Card) for card in cards)


# --- events.rst ----------------------------------------------------------------------------


@pytest.mark.xfail(
    strict=True,
    reason="docs/events.rst says game events' slugs are prefixed with the game's name so slugs "
    "never clash, but Tonk's and Spit's are not ('hand-ended', 'deal-ended')",
)
def test_built_in_game_event_slugs_carry_their_game_prefix() -> None:
    import cardcore_golf.events
    import cardcore_spit.events
    import cardcore_tonk.events

    unprefixed = [
        getattr(module, name).slug
        for module, prefix in (
            (cardcore_golf.events, "golf-"),
            (cardcore_tonk.events, "tonk-"),
            (cardcore_spit.events, ("spit-", "speed-")),
        )
        for name in module.__all__
        if not getattr(module, name).slug.startswith(prefix)
    ]
    assert unprefixed == []


# --- hooks.rst -----------------------------------------------------------------------------


@pytest.mark.xfail(
    strict=True,
    reason="docs/hooks.rst says a failing on_event gets a WARNING with the count when the game "
    "ends, but none is logged when it failed once",
)
def test_a_single_on_event_failure_is_counted_when_the_game_ends(
    caplog: pytest.LogCaptureFixture,
) -> None:
    @hookimpl
    def on_event(event: Event) -> None:
        if event.slug == "game-started":
            raise RuntimeError("once")

    _house_rule(
        RuleInfo(id="DOCS-ONCE-1", name="golf.fails-once", game="golf", summary="Fails once"),
        on_event=on_event,
    )
    caplog.set_level(logging.DEBUG, logger="cardcore.events")
    game = new_game("golf", 2, rules=["golf.fails-once"], options={"rounds": 1}, seed=1)
    play(game, [RandomAgent(1), RandomAgent(2)])
    assert game.is_over
    records = [r for r in caplog.records if r.name == "cardcore.events"]
    assert any(r.levelno == logging.ERROR for r in records)  # the first failure, logged
    assert any(r.levelno == logging.WARNING for r in records)  # the count at the game's end
