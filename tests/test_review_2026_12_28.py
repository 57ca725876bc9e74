"""Review of the changes of 2026-12-28 (``git diff 87ebc03..HEAD -- src docs``), outside the browser.

Passing tests pin the claims that hold as worded; strict xfails mark what does not:

* ``find_rules`` takes "the loaded module (or the object an entry point names)", and
  ``cardcore.register`` takes any object holding ``GAME`` (a ``SimpleNamespace``): such a
  game's ``cardcore rules`` fails with an ``AttributeError`` on ``__name__``, even with its
  own ``RULES_MD``.
* ``end_game`` refuses a ``True`` winner given in a list, but not one given by a generator
  (read once for the seats, so the bool check sees nothing), and takes scores that are
  texts (``["1", "2"]``) though its docstring says scores not of numbers are refused.
* The quota's ``check`` still iterates the live dict of sessions (``is_full`` and
  ``idle_sessions`` read a snapshot): a session made while it runs breaks it.

Games are dealt from fixed seeds; nothing here depends on a random deal or on time.
"""

from __future__ import annotations

import doctest
import types
from pathlib import Path
from typing import Any

import attrs
import pytest

import cardcore
from cardcore import ArgumentError, OtherGameRuleError, RuleConflictError, UnknownPluginError
from cardcore.cli import main as cli_main
from cardcore.cli.rulebook import find_rules
from cardcore.session.hub import Hub
from cardcore.turns import end_game
from cardcore.web._quota import Quota, ServerLimits

DOCS = Path(__file__).resolve().parent.parent / "docs"


# -- cardcore rules of a game registered in place ------------------------------------------


def test_find_rules_reads_rules_md_of_the_module_object_not_the_module_of_its_name() -> None:
    """The module object comes first: a module named like another one in ``sys.modules``
    (``json``) gives its own ``RULES_MD``, not the other's (none)."""
    module: Any = types.ModuleType("json")
    module.RULES_MD = "# Mine\n\nMY-RULE-1 the rule.\n"
    assert find_rules(module) == module.RULES_MD
    assert find_rules("json") is None  # by name: the real json module, which has none


def test_find_rules_takes_an_object_without_a_module_name() -> None:
    rules = "# Mine\n\nMY-RULE-1 the rule.\n"
    game: Any = types.SimpleNamespace(RULES_MD=rules)  # as cmd_rules passes it
    assert find_rules(game) == rules


def test_cli_rules_prints_the_rules_md_of_a_game_registered_as_a_namespace(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import cardcore_gofish.rules as gofish

    hooks = {k: v for k, v in vars(gofish).items() if not k.startswith("__")}
    hooks["GAME"] = attrs.evolve(gofish.GAME, name="nsfish")
    hooks["RULES_MD"] = "# Namespace Fish\n\nNSFISH-GEN-1 two players ask for ranks.\n"
    cardcore.register("cardcore.games", "nsfish", types.SimpleNamespace(**hooks))
    try:
        assert cardcore.new_game("nsfish", 2, seed=1).version == 0  # the game itself plays
        code = cli_main(["rules", "nsfish"])
    finally:
        cardcore.unregister("cardcore.games", "nsfish")
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "NSFISH-GEN-1" in out.out


# -- turns.end_game ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("winners", "payouts"),
    [([True], None), ([0], ["1", "-1"]), ([0], [1.5, -1.5]), ([0], [2.0, -2.0]), ((True,), None)],
)
def test_end_game_refuses_a_bool_seat_and_payouts_that_are_not_whole_numbers(
    winners: Any, payouts: Any
) -> None:
    """As the changelog says: refused with ArgumentError, and nothing changes."""
    state = cardcore.new_game("golf", 2, seed=1).state
    with pytest.raises(ArgumentError, match="end_game takes winners"):
        end_game(state, winners, [0.0, 1.0], "out", payouts=payouts)
    assert not state.is_over and state.result is None and state.to_act


def test_end_game_refuses_a_bool_seat_from_a_generator() -> None:
    state = cardcore.new_game("golf", 2, seed=1).state
    with pytest.raises(ArgumentError):
        winners: Any = (w for w in [True])
        end_game(state, winners, [0.0, 1.0], "out")
    assert not state.is_over


def test_end_game_refuses_scores_that_are_texts() -> None:
    state = cardcore.new_game("golf", 2, seed=1).state
    with pytest.raises(ArgumentError):
        scores: Any = ["1", "2"]
        end_game(state, [0], scores, "out")
    assert not state.is_over


# -- loops over the sessions, with a session made while they run ---------------------------


class _Growing:
    """A session whose ``phase`` (and deadline) makes another session in the same dict the
    first time it is read: as another thread's ``hub.create`` between two steps of a loop."""

    def __init__(self, sessions: dict[str, Any], sid: str) -> None:
        self.sessions = sessions
        self.id = sid
        self.conns: dict[str, Any] = {}
        self._grown = False

    def _grow(self) -> None:
        if not self._grown:
            self._grown = True
            self.sessions["made-meanwhile-" + self.id] = _Still(self.id + "-2")

    @property
    def phase(self) -> str:
        self._grow()
        return "playing"

    def next_deadline(self) -> float | None:
        self._grow()
        return 5.0


class _Still:
    def __init__(self, sid: str) -> None:
        self.id = sid
        self.phase = "playing"
        self.conns: dict[str, Any] = {}

    def next_deadline(self) -> float | None:
        return None


def _growing_sessions() -> dict[str, Any]:
    sessions: dict[str, Any] = {}
    sessions["a"] = _Growing(sessions, "a")
    sessions["b"] = _Still("b")
    return sessions


def test_hub_and_quota_loops_read_a_snapshot_of_the_sessions() -> None:
    """``Hub.next_deadline``, ``Quota.is_full`` and ``Quota.idle_sessions`` (changed here)
    survive a session made while they loop."""
    hub = Hub()
    hub.sessions = _growing_sessions()
    assert hub.next_deadline() == 5.0
    quota = Quota(ServerLimits(max_sessions=10))
    assert quota.is_full(_growing_sessions()) is False
    assert quota.idle_sessions(_growing_sessions(), [], now=0.0, wait=60.0) == []


def test_quota_check_reads_a_snapshot_of_the_sessions() -> None:
    quota = Quota(ServerLimits(max_sessions=10))
    quota.check(_growing_sessions(), [], "127.0.0.1", bots=False)


# -- agents.py docstring: RealtimeAgent.plan's empty legal --------------------------------


def test_a_speed_seat_that_said_it_is_stuck_is_to_act_with_no_legal_action() -> None:
    """``RealtimeAgent.plan``'s docstring: legal is empty when the seat is in ``to_act`` but
    may do nothing now (Speed, once it has said it is stuck). Speed dealt from seed 1."""
    game = cardcore.new_game("speed", 2, seed=1)
    for _ in range(60):  # seat 0 plays its first card that fits until only "stuck" is left
        texts = [str(a) for a in game.legal_actions(0)]
        if texts == ["stuck"] or game.is_over:
            break
        game.apply(next(a for a in game.legal_actions(0) if str(a) != "stuck"))
    assert [str(a) for a in game.legal_actions(0)] == ["stuck"]
    game.act(0, "stuck")
    assert 0 in game.to_act and list(game.legal_actions(0)) == []


# -- the docs' claims ---------------------------------------------------------------------


def _doctest_block(page: Path, name: str) -> str:
    text = page.read_text(encoding="utf-8")
    body = text[text.index(f".. doctest:: {name}") :].split("\n\n", 1)[1]
    lines = []
    for line in body.splitlines():
        if line and not line.startswith("   "):
            break
        lines.append(line[3:])
    return "\n".join(lines)


def test_game_rst_parse_action_example_runs_as_written() -> None:
    source = _doctest_block(DOCS / "plugin-guide" / "game.rst", "eights")
    assert 'parse_action(1, "play 8H X")' in source
    test = doctest.DocTestParser().get_doctest(source, {}, "eights", "game.rst", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_game_rst_a_bad_card_in_the_example_is_core_notation_2() -> None:
    with pytest.raises(cardcore.NotationError, match=r"CORE-NOTATION-2"):
        cardcore.Card.parse("ZZ")


def test_load_agent_returns_a_class_for_a_bare_name_and_an_agent_for_a_spec() -> None:
    assert isinstance(cardcore.load_agent("gofish-basic"), type)
    agent = cardcore.load_agent("ismcts:iterations=30,seed=1")
    assert not isinstance(agent, type) and hasattr(agent, "choose")


def test_house_rule_rst_a_rule_of_another_game_is_other_game_rule_error() -> None:
    with pytest.raises(OtherGameRuleError) as caught:
        cardcore.new_game("golf", 2, rules=["tonk.deal-shows-every-hand"])
    assert isinstance(caught.value, UnknownPluginError)
    assert isinstance(caught.value, RuleConflictError)
