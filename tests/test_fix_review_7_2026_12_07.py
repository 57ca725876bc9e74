"""A review of the seventh night's fixes (``git log dfec7880..``), by reading them.

simulate/compare (dask's ``KilledWorker``), an option's range in a type refusal, numpy
scores; the web server's make-room check (``Quota.admit``); the terminal's checks of bots
(``agents._checked_plan``, ``_own``); the testing kit (``notation_words``,
``hidden_in_message``, the probes' act closures, ``assert_view_known``).

Each bug found is a strict xfail naming its cause; each claim that holds is a passing
test. Everything runs in process, on clocks the tests move: no sleep synchronises anything.
"""

from __future__ import annotations

import contextlib
import enum
import io
import json
import random
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from attrs import frozen

import cardcore
from cardcore import Action, ArgumentError, CardcoreError, OptionError, ScoreSheet
from cardcore.agents import Plan, _checked_plan
from cardcore.errors import IllegalActionError, NotationError
from cardcore.simulate import _died, _lost_worker
from cardcore.testing import assert_view_known, assert_view_structure
from cardcore.testing._inputs import bad_inputs
from cardcore.testing._probes import hidden_in_message
from cardcore.testing._util import card_tokens, known_cards, notation_words

# -- simulate / compare: dask's KilledWorker, read by name --------------------------------


def _fake(module: str) -> type[Exception]:
    """A class named as dask's ``KilledWorker`` (dask is not installed here), in *module*."""
    return type("KilledWorker", (Exception,), {"__module__": module})


class _DyingExecutor:
    """An executor whose worker dies after *keep* chunks, raising *error*."""

    def __init__(self, error: BaseException, keep: int) -> None:
        self.error, self.keep = error, keep

    def map(self, fn: Callable[[Any], Any], chunks: Iterable[Any]) -> Iterator[Any]:
        for i, chunk in enumerate(list(chunks)):
            if i == self.keep:
                raise self.error
            yield fn(chunk)


def test_died_reads_killed_worker_by_its_name_and_dask_module() -> None:
    assert _died(_fake("distributed.scheduler")("task", "worker"))
    assert not _died(_fake("mylib.errors")("task"))  # another library's class of that name
    assert not _died(RuntimeError("KilledWorker"))


def test_simulate_a_killed_worker_is_a_cardcore_error_saying_what_came_back() -> None:
    error = _fake("distributed.scheduler")("task-1")
    with pytest.raises(CardcoreError) as err:
        cardcore.simulate("golf", games=8, chunk=4, executor=_DyingExecutor(error, 1))  # type: ignore[arg-type]
    assert "after 4 of 8 games" in str(err.value) and "KilledWorker" in str(err.value)
    assert err.value.__cause__ is error


@pytest.mark.parametrize("study", ["simulate", "compare"])
def test_other_errors_of_an_executor_pass_through_unchanged(study: str) -> None:
    """Only a worker's death is turned into a CardcoreError: any other error is the caller's."""
    for error in (ValueError("the caller's own"), _fake("mylib.errors")("not dask's")):
        executor = _DyingExecutor(error, 0)
        with pytest.raises(type(error)) as err:
            if study == "simulate":
                cardcore.simulate("golf", games=4, chunk=2, executor=executor)  # type: ignore[arg-type]
            else:
                cardcore.compare("golf", vs=["golf.hard"], games=4, chunk=2, executor=executor)  # type: ignore[arg-type]
        assert err.value is error


def test_a_worker_error_whose_text_fails_is_still_reported() -> None:
    class Unreadable(Exception):
        def __str__(self) -> str:
            raise AttributeError("no address")

    out = _lost_worker(Unreadable(), 3, 10)
    assert isinstance(out, CardcoreError)
    assert "after 3 of 10 games" in str(out) and "its message could not be read" in str(out)


# -- an option refused for its type names its range ---------------------------------------


def test_a_float_option_refused_for_its_type_names_its_range() -> None:
    share = cardcore.Option("share", 1.0, "a share", kind=float, minimum=0.5, maximum=2.0)
    with pytest.raises(OptionError, match=r"must be float, not 'x' \(from 0\.5 to 2\)$"):
        share.check("x")
    with pytest.raises(OptionError, match=r"must be float, not True \(from 0\.5 to 2\)$"):
        share.check(True)


def test_an_option_of_a_choice_or_a_number_still_says_both() -> None:
    """The ``kind=object`` message, rewritten through ``_bounds``, reads as before."""
    size = cardcore.Option(
        "size", "auto", "a size", kind=object, choices=("auto",), minimum=1, maximum=5
    )
    with pytest.raises(OptionError) as err:
        size.check("big")
    assert str(err.value) == "option 'size' must be 'auto' or a whole number from 1 to 5, not 'big'"
    low = cardcore.Option("n", 2, "n", kind=object, minimum=1)
    with pytest.raises(OptionError, match=r"must be a whole number at least 1, not 0$"):
        low.check(0)


# -- ScoreSheet: Python's own numbers ------------------------------------------------------


def test_a_score_sheet_keeps_python_ints_and_refuses_numpy_bools() -> None:
    class Points(enum.IntEnum):
        THREE = 3

    sheet = ScoreSheet(2)
    sheet.add_round([Points.THREE, np.uint8(2)])
    assert [type(x) for x in sheet.rounds[0]] == [int, int] and sheet.totals == [3, 2]
    json.dumps(sheet.snapshot())  # JSON-ready
    with pytest.raises(ArgumentError):
        sheet.add_round([np.True_, 1])
    with pytest.raises(ArgumentError):
        sheet.add_round([np.float64("nan"), 1])
    assert len(sheet.rounds) == 1 and sheet.totals == [3, 2]  # a refused round adds nothing


# -- web: the make-room check --------------------------------------------------------------

PEOPLE = [{"name": "A"}, {"name": "B"}]


def _golf() -> dict[str, Any]:
    return {"game": "golf", "seats": PEOPLE}


@contextlib.contextmanager
def _server(**limits: Any) -> Iterator[tuple[Any, list[float]]]:
    pytest.importorskip("starlette")
    from cardcore.web import WebServer
    from cardcore.web.app import ServerLimits

    clock = [1000.0]
    server = WebServer(clock=lambda: clock[0], server_limits=ServerLimits(**limits), bot_delay=0.0)
    try:
        yield server, clock
    finally:
        server.store.close()


def test_admit_names_exactly_the_sessions_the_sweep_then_closes() -> None:
    with _server(max_sessions=3, idle_close=3600, idle_when_full=300) as (server, clock):
        seated = server.create(_golf(), client="ann")["session"]
        server.hub.handle("ann-tab", {"type": "join", "session": seated, "seat": 0}, clock[0])
        idle = [server.create(_golf(), client=c)["session"] for c in ("bob", "cy")]
        server.sweep()  # the first look: the two idle from now
        clock[0] += 301
        now, wait = clock[0], 300.0
        predicted = server.quota.admit(
            server.hub.sessions, server._bot_only(), "dee", False, now, wait
        )
        assert sorted(predicted) == sorted(idle)
        assert sorted(server.sweep(now, wait)) == sorted(idle)
        assert seated in server.hub.sessions


def test_a_request_let_in_on_a_full_server_closes_the_idle_games_only() -> None:
    with _server(max_sessions=2, max_per_client=1, idle_close=3600, idle_when_full=300) as (
        server,
        clock,
    ):
        ann = server.create(_golf(), client="ann")["session"]
        server.hub.handle("ann-tab", {"type": "join", "session": ann, "seat": 0}, clock[0])
        bob = server.create(_golf(), client="bob")["session"]
        server.sweep()
        clock[0] += 301
        new = server.create(_golf(), client="bob")["session"]  # Bob's idle game made room
        assert bob not in server.hub.sessions or server.hub.sessions[bob].phase == "closed"
        assert ann in server.hub.sessions and server.hub.sessions[ann].phase in (
            "waiting",
            "playing",
        )
        assert server.hub.sessions[new].phase == "waiting"


def test_a_request_refused_for_max_sessions_with_nobody_idle_closes_nothing() -> None:
    from cardcore.web.app import LimitError

    with _server(max_sessions=2, idle_close=3600, idle_when_full=300) as (server, clock):
        ids = [server.create(_golf(), client=c)["session"] for c in ("ann", "bob")]
        server.sweep()
        clock[0] += 299  # idle, but not for idle_when_full yet
        with pytest.raises(LimitError, match="holds 2 games"):
            server.create(_golf(), client="cy")
        assert all(server.hub.sessions[s].phase == "waiting" for s in ids)


# -- the terminal: bots checked as run_realtime checks them --------------------------------


def test_checked_plan_refuses_what_run_realtime_refuses() -> None:
    game = cardcore.new_game("spit", 2, seed=1)
    legal = game.legal_actions(0)
    mine = legal[0]
    agents = [object(), object()]
    assert _checked_plan(agents, 0, Plan(mine, 0.25), legal, 10.0) == (10.25, mine)
    assert _checked_plan(agents, 0, Plan(mine, -3.0), legal, 10.0) == (10.0, mine)  # never early
    for bad in (Plan(mine, float("nan")), Plan("play", 0.1), mine, object()):  # type: ignore[arg-type]
        with pytest.raises(CardcoreError, match="a plan is a Plan"):
            _checked_plan(agents, 0, bad, legal, 10.0)
    theirs = cardcore.Resign(1)
    with pytest.raises(IllegalActionError) as err:
        _checked_plan(agents, 0, Plan(theirs, 0.1), legal, 10.0)
    assert err.value.rule_id == "CORE-TURN-1"
    # one the game itself listed (by identity) is left to apply, which names the game
    assert _checked_plan(agents, 0, Plan(theirs, 0.1), [*legal, theirs], 10.0)[1] is theirs


class _ResignsForTheHuman:
    def __init__(self, seed: int = 0, **params: Any) -> None:
        pass

    def choose(self, view: object, legal: Any) -> Any:
        return cardcore.Resign(1)


def test_cardcore_play_a_bot_resigning_for_the_human_stops_and_keeps_the_game(
    tmp_path: Path,
) -> None:
    cardcore.register("cardcore.agents", "review7-resigns", _ResignsForTheHuman)
    path = tmp_path / "game.json"
    old = sys.stdin
    sys.stdin = io.StringIO("1\n" * 40)
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli_main(
                ["play", "golf", "-p", "2", "--seat", "1", "--agent", "review7-resigns",
                 "--seed", "1", "--record", str(path)]
            )  # fmt: skip
    finally:
        sys.stdin = old
        cardcore.unregister("cardcore.agents", "review7-resigns")
    assert code == 1, (out.getvalue(), err.getvalue())
    assert "CORE-TURN-1" in err.getvalue()
    game = cardcore.replay(json.loads(path.read_text(encoding="utf-8")))
    assert not game.is_over and game.version == 0  # the human was not resigned


def cli_main(argv: list[str]) -> int:
    from cardcore import cli

    return cli.main(argv)


# -- the testing kit -----------------------------------------------------------------------


@frozen
class Say(Action):
    """Words said at the table (a str field of free text)."""

    words: str
    verb: ClassVar[str] = "say"

    def notation(self) -> str:
        return f"say {self.words}"


@frozen
class Cached(Action):
    """An action keeping its own notation in a private field."""

    _text: str
    verb: ClassVar[str] = "bid"

    def notation(self) -> str:
        return self._text


@frozen
class Bid(Action):
    level: int
    strain: str
    verb: ClassVar[str] = "bid"

    def notation(self) -> str:
        return f"{self.level}{self.strain}"


def test_a_card_held_whole_as_text_is_a_card_and_a_bid_stays_notation() -> None:
    assert notation_words(Say(0, "7H")) == set()  # a card's text held whole: that card
    assert notation_words(Bid(0, 2, "H")) == {"2H"}  # a level and a strain: the notation
    # a text passed in is a field like any other, private name or not (held whole: a card);
    # only the core's own cache of the notation (``_text``, init=False) is not read
    assert notation_words(Cached(0, "2H")) == set()
    bid = Bid(0, 2, "H")
    str(bid)  # fills the cache
    assert notation_words(bid) == {"2H"}


def test_a_card_word_inside_free_text_is_not_a_card_held_whole() -> None:
    assert notation_words(Say(0, "I bid 2H")) == {"2H"}


def _hidden_card(game: cardcore.Game, seat: int) -> str:
    every = {str(c) for pile in game.state.zones.cards for c in pile}
    return sorted(every - known_cards(game.state, seat))[0]


def test_a_parse_refusal_naming_a_hidden_card_is_a_leak_for_the_sender() -> None:
    game = cardcore.new_game("golf", 2, seed=3)
    card = _hidden_card(game, 0)
    exc = NotationError(f"cannot read 'zz': did you mean {card}?")

    def differs(other: cardcore.Game) -> object:
        raise NotationError("cannot read 'zz': did you mean something else?")

    def same(other: cardcore.Game) -> object:
        raise NotationError(str(exc))

    def accepted(other: cardcore.Game) -> object:
        return None

    assert card in (hidden_in_message(game, exc, 0, "zz") or "")  # no twin to ask: a leak
    assert card in (hidden_in_message(game, exc, 0, "zz", differs) or "")
    assert card in (hidden_in_message(game, exc, 0, "zz", accepted) or "")
    assert hidden_in_message(game, exc, 0, "zz", same) is None  # fixed text
    assert hidden_in_message(game, exc, 0, f"play {card}") is None  # its own text named it
    for nobody in (None, True, 2, -1, "0"):
        assert hidden_in_message(game, exc, nobody, "zz") is None


def test_the_probes_texts_refused_in_correct_games_report_no_leak() -> None:
    """The act closures carry seat, text and again; a correct game's refusals of them (Spit
    names its face-up cards, Tonk and Golf none) are not read as leaks."""
    named = 0
    for name in ("spit", "tonk", "golf"):
        game, rng = cardcore.new_game(name, 2, seed=4), random.Random(2)
        for step in range(12):
            for label, call, _ in bad_inputs(game, random.Random(step), {}, name == "spit"):
                if not hasattr(call, "again"):
                    continue
                assert hasattr(call, "seat") and hasattr(call, "text"), label
                try:
                    call()
                except CardcoreError as exc:
                    named += bool(card_tokens(str(exc)))
                    seat, text, again = call.seat, call.text, call.again  # type: ignore[attr-defined]
                    assert hidden_in_message(game, exc, seat, text, again) is None, label
            acts = [a for s in game.to_act for a in game.legal_actions(s)]
            if game.is_over or not acts:
                break
            game.apply(rng.choice(acts))
    assert named  # some refusal named a card: the check was exercised


def test_view_assertions_refuse_what_is_no_game() -> None:
    for check in (assert_view_known, assert_view_structure):
        with pytest.raises(ArgumentError, match="takes a Game"):
            check({"state": None}, 0)  # type: ignore[arg-type]
