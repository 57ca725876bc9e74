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


def test_four_tonk_players_without_the_option_carry_the_rule_id() -> None:
    with pytest.raises(OptionError) as caught:
        new_game("tonk", 4, seed=1)
    assert "TONK-GEN-1" in str(caught.value)
    assert caught.value.rule_id == "TONK-GEN-1"


def test_a_layout_with_duplicate_pile_names_raises_a_cardcore_error() -> None:
    with pytest.raises(CardcoreError):
        Layout.of([ZoneSpec("stock"), ZoneSpec("stock")])


def test_describe_applies_names_each_layout_once() -> None:
    words = cardcore.rule_info("golf.no-final-turns").describe_applies()
    assert words == "layout 6, 8, 9, 10"


def test_with_jokers_refuses_text_instead_of_cards() -> None:
    try:
        cards = cardcore.with_jokers("AS", 1)  # type: ignore[arg-type]
    except CardcoreError:
        return
    assert all(isinstance(card, cardcore.Card) for card in cards)


# --- events.rst ----------------------------------------------------------------------------


def test_built_in_game_event_slugs_never_clash_with_the_core_s() -> None:
    """events.rst, ``slug``: a game's slugs differ from the core events' and from each other
    (nothing checks it); a new game prefixes them with its name, as Golf does, while Tonk's
    and Spit's keep their plain slugs. Until 2026-12-03 the page said every game's slugs
    carry its prefix "so slugs never clash"."""
    import cardcore.events
    import cardcore_golf.events
    import cardcore_spit.events
    import cardcore_tonk.events

    def slugs(module: types.ModuleType) -> list[str]:
        classes = [getattr(module, name) for name in module.__all__]
        return [c.slug for c in classes if isinstance(c, type) and issubclass(c, Event)]

    core = slugs(cardcore.events)
    assert "payments-made" in core and len(set(core)) == len(core)
    games = {
        "golf": slugs(cardcore_golf.events),
        "tonk": slugs(cardcore_tonk.events),
        "spit": slugs(cardcore_spit.events),
    }
    for game, own in games.items():
        assert own and len(set(own)) == len(own), game
        assert not set(own) & set(core), game
    assert all(slug.startswith("golf-") for slug in games["golf"])
    assert {"hand-ended", "card-spat"} <= {*games["tonk"], *games["spit"]}


# --- hooks.rst -----------------------------------------------------------------------------


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


def test_house_rules_answer_in_rule_id_order_whatever_order_they_are_listed() -> None:
    """hooks.rst: the house rules are registered "sorted by rule ID, so the order in which a
    user lists rules never matters"; pluggy asks the one registered last first."""
    for rule_id, name, points in (
        ("DOCS-B-1", "tonk.aaa-queens", 1),
        ("DOCS-A-1", "tonk.zzz-q", 2),
    ):

        @hookimpl
        def card_points(card: cardcore.Card, points: int = points) -> int | None:
            return points if card.label == "Q" else None

        _house_rule(
            RuleInfo(id=rule_id, name=name, game="tonk", summary="Queens"),
            card_points=card_points,
        )
    queen = cardcore.Card.parse("QH")
    answers = {
        cardcore.get_ruleset("tonk", rules).resolve("card_points")(card=queen)  # type: ignore[misc]
        for rules in (["tonk.aaa-queens", "tonk.zzz-q"], ["tonk.zzz-q", "tonk.aaa-queens"])
    }
    assert answers == {1}  # DOCS-B-1 sorts last, so it is asked first, in both listings
    game = new_game("tonk", 2, rules=["tonk.zzz-q", "tonk.aaa-queens"], seed=1)
    assert game.rules == ("tonk.zzz-q", "tonk.aaa-queens", "tonk.natural-49-50")


# --- games/tonk.rst ------------------------------------------------------------------------


def test_tonk_stake_and_hand_count_bounds_are_the_documented_ones() -> None:
    """games/tonk.rst, Options: ``stake`` is from 1 to 1,000,000 and ``hands``
    from 1 to 100,000 (until 2026-12-03 the page said "a positive integer" and gave no bound);
    the bounds on the page are the options' own, and both ends are kept."""
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "docs" / "games" / "tonk.rst"
    text = " ".join(page.read_text(encoding="utf-8").split())
    bounds = {o.name: o for o in cardcore.game_info("tonk").options}
    for name in ("stake", "hands"):
        low, high = bounds[name].minimum, bounds[name].maximum
        assert low is not None and high is not None
        assert f"from {int(low):,} to {int(high):,}" in text, name
    stake, hands = int(bounds["stake"].maximum or 0), int(bounds["hands"].maximum or 0)
    game = new_game("tonk", 2, options={"stake": stake, "hands": hands}, seed=1)
    assert game.options["stake"] == stake
    for options in ({"stake": stake + 1}, {"hands": hands + 1}, {"stake": 0}, {"hands": 0}):
        with pytest.raises(OptionError):
            new_game("tonk", 2, options=options, seed=1)


def test_an_int_option_s_bound_is_written_as_a_whole_number() -> None:
    with pytest.raises(OptionError) as caught:
        new_game("tonk", 2, options={"stake": 1_000_001}, seed=1)
    assert "1000000" in str(caught.value)


def test_tonk_legal_actions_come_in_the_documented_order() -> None:
    """games/tonk.rst: "after drawing, new spreads (books by rank, then runs by suit S-H-D-C,
    lowest card, length), then hits (by spread number, then card), then discards (by card,
    rank then suit)"."""
    import random

    suits = "SHDC"

    def card_key(text: str) -> tuple[int, int]:
        card = cardcore.Card.parse(text)
        assert card.suit is not None
        return int(card.rank), suits.index(card.suit.letter)

    kinds = {"drop": 0, "draw": 1, "take": 2, "spread": 3, "hit": 4, "discard": 5, "deal": 6}
    checked = 0
    for seed in range(40):
        game = new_game("tonk", 2 + seed % 2, options={"hands": 2}, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act[0]
            legal = [str(a) for a in game.legal_actions(seat)]
            order = [kinds[text.split()[0]] for text in legal]
            assert order == sorted(order), legal
            spreads = [text.split()[1:] for text in legal if text.startswith("spread")]
            books = [s for s in spreads if len({cardcore.Card.parse(c).label for c in s}) == 1]
            runs = [s for s in spreads if s not in books]
            assert spreads == books + runs
            assert [card_key(b[0])[0] for b in books] == sorted(card_key(b[0])[0] for b in books)
            run_keys = [(card_key(r[0])[1], min(card_key(c)[0] for c in r), len(r)) for r in runs]
            assert run_keys == sorted(run_keys), runs
            hits = [
                (int(t.split()[1]), card_key(t.split()[2])) for t in legal if t.startswith("hit")
            ]
            assert hits == sorted(hits)
            discards = [card_key(t.split()[1]) for t in legal if t.startswith("discard")]
            assert discards == sorted(discards)
            checked += 1
            game.apply(rng.choice(game.legal_actions(seat)))
    assert checked > 200


# --- search-agents.rst, agent parameters ---------------------------------------------------


def test_spit_greedy_mean_is_the_mean_reaction_delay() -> None:
    """search-agents.rst: spit-greedy's ``mean`` (0.3 s) is the mean reaction, and the median
    is ``mean * exp(-sigma**2 / 2)``, about 0.28 s (the page said median until 2026-12-03)."""
    import math
    import statistics

    from cardcore_spit.agents import SpitGreedyAgent

    game = new_game("speed", 2, seed=11)
    view, legal = game.view(0), game.legal_actions(0)
    agent = SpitGreedyAgent(seed=1)
    delays = []
    for _ in range(4000):
        plan = agent.plan(view, legal, 0.0)
        assert plan is not None
        delays.append(plan.delay)
    assert abs(statistics.fmean(delays) - 0.3) < 0.01
    assert abs(statistics.median(delays) - 0.3 * math.exp(-(0.35**2) / 2)) < 0.01
    assert round(0.3 * math.exp(-(0.35**2) / 2), 2) == 0.28


def test_random_agent_reaction_is_the_median_delay() -> None:
    """search-agents.rst: ``random``'s ``reaction`` (0.5 s) and the RandomAgent docstring's
    "Median reaction time in seconds": half the planned delays fall below it."""
    import statistics

    game = new_game("speed", 2, seed=11)
    view, legal = game.view(0), game.legal_actions(0)
    agent = RandomAgent(1, reaction=0.3, spread=0.35)
    delays = []
    for _ in range(4000):
        plan = agent.plan(view, legal, 0.0)
        assert plan is not None
        delays.append(plan.delay)
    assert abs(statistics.median(delays) - 0.3) < 0.01


# --- names the pages point to, and public names they never mention ------------------------


def test_spit_auto_setup_is_where_the_page_says() -> None:
    """games/spit.rst, SPIT-SETUP-6: the helper is ``cardcore_spit.piles.auto_setup`` (the
    page said ``cardcore_spit.logic`` until 2026-12-03)."""
    import re
    from pathlib import Path

    import cardcore_spit.piles

    page = Path(__file__).resolve().parent.parent / "docs" / "games" / "spit.rst"
    named = re.findall(r"``(cardcore_spit\.\w+)\.auto_setup``", page.read_text(encoding="utf-8"))
    assert named == ["cardcore_spit.piles"]
    assert callable(getattr(cardcore_spit.piles, "auto_setup", None))


def test_spit_auto_setup_combines_the_smallest_matching_pile_and_never_fills() -> None:
    """games/spit.rst, SPIT-SETUP-6: "take the smallest pile j whose top rank equals the top
    rank of some pile i < j, move it onto the smallest such i, turn up what it uncovers;
    until all face-up tops differ. It never fills."""
    from cardcore_spit.piles import auto_setup

    piles, moves = auto_setup([[1, 5], [9], [2, 5], [9, 9], [7]])
    assert moves[0] == (2, 0)  # j = 2 (5 on 5), onto i = 0, not the 9s at j = 3
    # then the 9s twice (j = 3 onto i = 1), and pile 4 stays empty: nothing fills it
    assert piles == [[1, 5, 5], [9, 9, 9], [2], [], [7]]
    assert moves == [(2, 0), (3, 1), (3, 1)]
    emptied, _ = auto_setup([[3], [3], [4]])
    assert emptied == [[3, 3], [], [4]]


def test_every_public_name_of_the_subpackages_is_mentioned_in_the_docs() -> None:
    import importlib
    import re
    from pathlib import Path

    docs = Path(__file__).resolve().parent.parent / "docs"
    text = "\n".join(page.read_text(encoding="utf-8") for page in docs.rglob("*.rst"))
    missing = []
    for package in ("cli", "compare", "rl", "search", "session", "testing", "web"):
        module = importlib.import_module(f"cardcore.{package}")
        missing += [
            f"cardcore.{package}.{name}"
            for name in getattr(module, "__all__", ())
            if not re.search(rf"\b{re.escape(name)}\b", text)
        ]
    assert missing == []
