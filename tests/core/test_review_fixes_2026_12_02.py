"""What a new user's walkthrough found (2 December 2026): a search sampling a finished game,
a bool for an option of any other value, and ``python -m cardcore``."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest

import cardcore
from cardcore import CardcoreError, OptionError
from cardcore.search import sample_position


@pytest.mark.parametrize("name", ["golf", "tonk"])
def test_sampling_a_finished_games_view_says_the_game_is_over(name: str) -> None:
    game = cardcore.new_game(name, 2, seed=1, options={"rounds": 1} if name == "golf" else {})
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert game.is_over
    with pytest.raises(CardcoreError, match="is over: there is nothing to sample"):
        sample_position(game.view(0), random.Random(1))


def test_a_bool_for_golfs_dealer_says_what_the_option_takes() -> None:
    with pytest.raises(
        OptionError,
        match=r"option 'dealer' must be 'random' or a whole number from 0 to 63, not True",
    ):
        cardcore.new_game("golf", 2, options={"dealer": True})
    with pytest.raises(OptionError, match=r"^option 'x' \(a thing\) does not take True$"):
        cardcore.Option("x", None, "a thing", kind=object, nullable=True).check(True)


def test_python_dash_m_cardcore_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardcore", "list"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "golf" in done.stdout and "tonk" in done.stdout


def test_simulate_seats_the_fewest_players_the_game_takes_by_default() -> None:
    """A game of three or more seats simulated without ``players`` (it asked for 2)."""
    import types

    import attrs
    import cardcore_gofish.rules as gofish

    module = types.ModuleType("threes")
    module.GAME = attrs.evolve(gofish.GAME, name="threes", min_players=3)  # type: ignore[attr-defined]
    for hook in ("create_logic", "build_deck"):
        if hasattr(gofish, hook):
            setattr(module, hook, getattr(gofish, hook))
    cardcore.register("cardcore.games", "threes", module)
    try:
        summary = cardcore.simulate("threes", games=2)
        assert summary.players == 3 and summary.games == 2
        assert cardcore.simulate("golf", games=1).players == 2
    finally:
        cardcore.unregister("cardcore.games", "threes")


class _Crasher:
    """An agent with a bug: it reads a key the view does not have."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: dict[str, object], legal: list[object]) -> object:
        return view["no such key"]


def test_simulate_names_the_seat_whose_agent_failed() -> None:
    cardcore.register("cardcore.agents", "crasher-1202", _Crasher)
    try:
        with pytest.raises(CardcoreError, match=r"the agent of seat 1 \(crasher-1202\) failed"):
            cardcore.simulate("golf", games=1, agents=["random", "crasher-1202"])
    finally:
        cardcore.unregister("cardcore.agents", "crasher-1202")


def _rule(name: str, game: str, **hooks: Any) -> str:
    import types

    from cardcore import RuleInfo

    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(id=name.upper(), name=name, game=game, summary="a test rule")  # type: ignore[attr-defined]
    vars(module).update(hooks)
    cardcore.register("cardcore.rules", name, module)
    return name


def test_of_two_forbid_action_wrappers_the_outermost_is_blamed_for_no_list() -> None:
    from cardcore import hookimpl

    @hookimpl(wrapper=True)
    def fine(state: Any, action: Any) -> Any:
        return (yield)

    @hookimpl(wrapper=True)
    def broken(state: Any, action: Any) -> Any:
        yield
        return None

    good = _rule("golf.fine-wrapper-1202", "golf", forbid_action=fine)
    bad = _rule(
        "golf.broken-wrapper-1202", "golf", forbid_action=broken
    )  # registered last: outermost
    try:
        game = cardcore.new_game("golf", 2, rules=[good, bad], seed=3)
        with pytest.raises(
            cardcore.PluginError, match="it must return a list of Vetoes"
        ) as failure:
            game.legal_actions(0)
        assert failure.value.plugin == bad
    finally:
        cardcore.unregister("cardcore.rules", good)
        cardcore.unregister("cardcore.rules", bad)


def test_a_re_deal_with_equal_copies_of_the_cards_is_accepted() -> None:
    from cardcore import Card, hookimpl

    @hookimpl
    def determinize(state: Any, seat: int, rng: Any) -> bool:
        for pile in state.zones.cards:  # the same cards, as new objects (a copy, a pickle)
            pile[:] = [Card.parse(str(c)) for c in pile]
        return True

    name = _rule("golf.copying-redeal-1202", "golf", determinize=determinize)
    try:
        game = cardcore.new_game("golf", 2, rules=[name], seed=3)
        world = game.determinize(0, 5)
        assert sorted(map(str, world.state.zones.cards[0])) == sorted(
            map(str, game.state.zones.cards[0])
        )
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_an_option_of_any_value_without_a_doc_refuses_a_bool_plainly() -> None:
    from cardcore import Option

    with pytest.raises(OptionError, match=r"^option 'x' does not take True$"):
        Option("x", None, kind=object, nullable=True).check(True)


def test_of_two_forbid_action_wrappers_the_one_that_raises_is_named() -> None:
    from cardcore import hookimpl

    @hookimpl(wrapper=True)
    def fine(state: Any, action: Any) -> Any:
        return (yield)

    @hookimpl(wrapper=True)
    def raising(state: Any, action: Any) -> Any:
        yield
        raise RuntimeError("the veto service is down")

    good = _rule("golf.fine-wrapper-1202b", "golf", forbid_action=fine)
    bad = _rule("golf.raising-wrapper-1202", "golf", forbid_action=raising)
    try:
        for order in ([good, bad], [bad, good]):
            game = cardcore.new_game("golf", 2, rules=order, seed=3)
            with pytest.raises(cardcore.PluginError, match="RuntimeError") as failure:
                game.legal_actions(0)
            assert failure.value.plugin == bad
    finally:
        cardcore.unregister("cardcore.rules", good)
        cardcore.unregister("cardcore.rules", bad)


@pytest.mark.parametrize("error", ["LedgerError", "CorruptStateError", "OptionError"])
def test_a_cardcore_error_raised_in_a_games_apply_is_its_plugin_error(error: str) -> None:
    """A stakes game's Ledger refusing its payments (a LedgerError) reached the host as it
    was, while a NotationError raised there was the game's PluginError."""
    import types

    import attrs
    import cardcore_gofish.logic as gofish_logic
    import cardcore_gofish.rules as gofish

    class Faulty(gofish_logic.GoFishLogic):
        def apply(self, state: Any, action: Any, emit: Any) -> None:
            super().apply(state, action, emit)
            import cardcore.scoring

            kind = getattr(cardcore, error, None) or getattr(cardcore.scoring, error)
            raise kind("the payments do not balance")

    module = types.ModuleType("faultyfish")
    module.GAME = attrs.evolve(gofish.GAME, name="faultyfish")  # type: ignore[attr-defined]
    module.create_logic = cardcore.hookimpl(lambda ruleset: Faulty(ruleset))  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "faultyfish", module)
    try:
        game = cardcore.new_game("faultyfish", 3, seed=1)
        before = game.save()
        seat = game.to_act[0]
        with pytest.raises(cardcore.PluginError, match=f"raised {error} in apply") as failure:
            game.apply(game.legal_actions(seat)[0])
        assert failure.value.plugin == "faultyfish" and game.save() == before
    finally:
        cardcore.unregister("cardcore.games", "faultyfish")


@pytest.mark.parametrize(
    "post",
    [
        lambda ledger: ledger.post([1.5, -1.5], "half"),
        lambda ledger: ledger.post([True, -1], "a bool"),
        lambda ledger: ledger.pay(payer=0, payee=1, amount=-2, reason="reversed"),
        lambda ledger: ledger.pay(payer=1, payee=1, amount=2, reason="to itself"),
        lambda ledger: ledger.pay(payer=0, payee=1, amount=1.0, reason="a float"),
        lambda ledger: ledger.pay(payer=0, payee=5, amount=1, reason="no such seat"),
    ],
    ids=["float", "bool", "negative", "itself", "float-pay", "no-seat"],
)
def test_the_ledger_takes_whole_numbers_between_two_seats_only(post: Any) -> None:
    from cardcore.scoring import Ledger, LedgerError

    ledger = Ledger(2)
    with pytest.raises(LedgerError):
        post(ledger)
    assert ledger.totals == [0, 0] and ledger.entries == []
    ledger.pay(payer=0, payee=1, amount=0, reason="nothing")  # zero is a payment of nothing
    assert ledger.totals == [0, 0]


def test_a_zero_sum_games_own_round_that_does_not_sum_to_zero_names_the_game() -> None:
    from cardcore import GameLogic, PluginError

    logic = cardcore.get_ruleset("tonk").logic
    state = cardcore.new_game("tonk", 2, seed=1).state
    assert logic.info.zero_sum
    with pytest.raises(
        PluginError, match="'tonk' scored a round \\[2, 0\\] summing to 2"
    ) as failure:
        GameLogic.score_round(logic, state, [2, 0])
    assert failure.value.plugin == "tonk"


def test_the_kit_says_why_scores_were_not_checked_when_every_game_failed() -> None:
    from cardcore import hookimpl
    from cardcore.testing import check_game

    @hookimpl
    def score_round(scores: Any) -> Any:
        raise RuntimeError("the scoring service is down")

    name = _rule("golf.failing-scores-1202", "golf", score_round=score_round)
    try:
        report = check_game("golf", players=2, rules=[name], games=2, strict=False)
    finally:
        cardcore.unregister("cardcore.rules", name)
    assert report.failures  # the rule raised at the first scored round: not "never called"
    assert report.skipped["scores"].startswith("no game reached a scored round before failing")


def test_the_command_line_reads_golfs_dealer_as_a_seat_or_random() -> None:
    from cardcore.cli.args import parse_options

    assert parse_options("golf", ["dealer=1"]) == {"dealer": 1}  # was the text '1', refused
    assert parse_options("golf", ["dealer=random"]) == {"dealer": "random"}
    assert parse_options("golf", ["dealer=none"]) == {"dealer": None}
    assert parse_options("golf", ["layout=4h"]) == {"layout": "4h"}  # no bounds: text as it was
    game = cardcore.new_game("golf", 2, options=parse_options("golf", ["dealer=1"]), seed=1)
    assert game.options["dealer"] == 1 and game.to_act == (0,)  # left of seat 1 moves first


def test_a_command_line_option_too_long_to_read_is_shown_cut() -> None:
    from cardcore.cli.args import parse_options

    with pytest.raises(OptionError, match=r"option 'dealer' must be first dealer") as failure:
        parse_options("golf", ["dealer=" + "9" * 5000])  # Python will not read 5000 digits
    assert len(str(failure.value)) < 300
