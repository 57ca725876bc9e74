"""Review of ``git diff f9a1da7..HEAD -- src`` (audit 3: input checks in the core, search,
testing kit and web server).

Looked for: valid input now refused (real layouts, views of real games, the web server
built as the docs and tests build it, check_game as the docs show it, winners_by of numpy
or Fraction scores, a ledger posting of a tuple), fixes that stop short, the ISMCTS change
(``sample_of`` per iteration instead of ``sample_position``) and docstrings.

Bugs are strict xfails asserting the right behaviour; claims that hold are plain tests.
No network server is started (Starlette's TestClient only).
"""

from __future__ import annotations

import contextlib
import json
import math
import random
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import cardcore
from cardcore import Layout, Ledger, Visibility, Zones, ZoneSpec, new_game
from cardcore.agents import RandomAgent, play, run_realtime
from cardcore.errors import ArgumentError, CardcoreError, PluginError
from cardcore.scoring import LedgerError
from cardcore.search import ISMCTSAgent, sample_position
from cardcore.search import ismcts as ismcts_module
from cardcore.search.sampling import view_config
from cardcore.turns import winners_by

# -- (1) valid input still accepted ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [
        ("golf", 2, {}),
        ("golf", 8, {}),
        ("golf", 3, {"layout": "4h"}),
        ("golf", 3, {"layout": 9}),
        ("tonk", 3, {}),
        ("tonk", 4, {"max_players": 4}),
        ("spit", 2, {}),
        ("speed", 2, {"jokers": 2, "side_pile": 15}),
    ],
)
def test_real_games_layouts_and_views_still_accepted(name, players, options):
    """The built-in plugins' ZoneSpecs/Layouts build; a seat's and a spectator's view (also
    after a JSON round trip, as the web sends them) pass view_config and sample."""
    game = new_game(name, players, seed=3, options=options)
    assert len(game.state.zones.layout.specs) >= 3
    for seat in (0, None):
        view = game.view(seat)
        for v in (view, json.loads(json.dumps(view))):
            assert view_config(v).game == name
            text = sample_position(v, random.Random(1))
            assert text.startswith(name)


@pytest.mark.parametrize("name", ["golf", "spit"])
def test_finished_game_view_is_over_not_an_argument_error(name):
    game = new_game(name, 2, seed=2)
    agents = [RandomAgent(1), RandomAgent(2)]
    if name == "spit":
        run_realtime(game, agents, max_actions=20_000)
    else:
        play(game, agents, max_actions=20_000)
    assert game.is_over
    for seat in (0, None):
        view = game.view(seat)
        assert view_config(view).game == name  # a finished seat's or spectator's view
        with pytest.raises(CardcoreError, match="over") as err:
            sample_position(view, random.Random(1))
        assert not isinstance(err.value, ArgumentError)


def test_seat_view_with_seat_taken_out_is_refused():
    view = dict(new_game("golf", 2, seed=2).view(0))
    view["seat"] = None
    with pytest.raises(ArgumentError, match="legal actions"):
        view_config(view)


def test_ismcts_same_moves_as_with_sample_position(monkeypatch):
    """sample_of(view, config, rng) draws as sample_position(view, rng) did: the same
    agent seeds give the same moves and plans (turn-based and real-time)."""

    def run() -> list[str]:
        out = []
        game = new_game("golf", 2, seed=11)
        agents = [ISMCTSAgent(7, iterations=15), ISMCTSAgent(8, iterations=15, reuse=2)]
        for _ in range(8):
            seat = next(s for s in range(2) if game.legal_actions(s))
            action = agents[seat].choose(game.view(seat), game.legal_actions(seat))
            out.append(str(action))
            game.apply(action)
        game = new_game("speed", 2, seed=4)
        agent = ISMCTSAgent(3, iterations=10)
        for seat in (0, 1, 0, 1):
            plan = agent.plan(game.view(seat), game.legal_actions(seat), 0.0)
            out.append(f"{plan.action} {plan.delay!r}" if plan else "None")
        return out

    new = run()
    monkeypatch.setattr(
        ismcts_module, "sample_of", lambda view, config, rng: sample_position(view, rng)
    )
    assert run() == new


def test_webserver_built_as_docs_cli_and_tests_build_it(tmp_path):
    from starlette.testclient import TestClient

    from cardcore.session import Limits
    from cardcore.web import WebServer, create_app
    from cardcore.web.app import ServerLimits

    WebServer(":memory:")
    WebServer(str(tmp_path / "a.db"), bot_delay=0.05)
    WebServer(None, bot_delay=0.0, bot_pace=0.05, clock=lambda: 5.0)
    WebServer(
        limits=Limits(rate=1.0, burst=40, close_after=50),
        server_limits=ServerLimits(max_sessions=3, idle_close=0),
        bot_delay=60.0,
    )
    create_app(db=tmp_path / "b.db", bot_delay=0.0)
    server = WebServer(tmp_path / "c.db", bot_delay=0.0)  # a pathlib.Path
    with TestClient(create_app(server)) as client:
        assert client.get("/").status_code == 200


def test_check_game_as_docs_show_it():
    from cardcore.testing import check_game

    report = check_game("golf", players=3, rules=["golf.jokers"], games=1, seed=0)
    assert report.failed == 0 and report.games == 1
    report = check_game("golf", games=1, checks="conservation", samples_per_game=0)
    assert report.checks == ("conservation",)


def test_winners_by_numpy_fraction_and_ledger_tuple():
    assert winners_by(np.array([3.0, 1.0, 1.0])) == (1, 2)
    assert winners_by(np.array([3, 1, 3]), lowest=False) == (0, 2)
    assert winners_by([Fraction(1, 3), Fraction(1, 3), 1]) == (0, 1)
    with pytest.raises(ArgumentError):
        winners_by(np.array([3.0, np.nan]))
    ledger = Ledger(2)
    ledger.post((5, -5), "tuple")
    ledger.post([10**15 - 5, -(10**15) + 5], "largest")
    with pytest.raises(LedgerError):
        ledger.post([10**15 + 1, -(10**15) - 1], "too large")
    assert ledger.totals == [10**15, -(10**15)]


def test_on_action_checked_before_first_move():
    game = new_game("golf", 2, seed=1)
    with pytest.raises(ArgumentError, match="on_action"):
        play(game, [RandomAgent(1), RandomAgent(2)], on_action=5)
    assert game.version == 0
    result = play(game, [RandomAgent(1), RandomAgent(2)], on_action=lambda *a: None, max_actions=5)
    assert result.reason == "truncated"


def test_unknown_pile_is_plugin_error_and_key_error():
    layout = Layout.of([ZoneSpec("a"), ZoneSpec("b", 0, Visibility.OWNER)])
    for bad in ("zz", None, ["a"]):
        with pytest.raises(PluginError) as err:
            Zones(layout).id(bad)
        assert isinstance(err.value, KeyError)
        assert "no pile" in str(err.value)
    assert Layout.of(s for s in [ZoneSpec("a")]).id("a") == 0  # a generator still works


# -- (1) regressions ------------------------------------------------------------------------


def test_plugin_typo_in_pile_name_still_names_the_plugin(monkeypatch):
    logic_class = type(new_game("golf", 2, seed=1).logic)
    original = logic_class.apply

    def typo(self, state, action, *args, **kwargs):
        state.zones.id("stok")
        return original(self, state, action, *args, **kwargs)

    monkeypatch.setattr(logic_class, "apply", typo)
    game = new_game("golf", 2, seed=1)
    with pytest.raises(PluginError) as err:
        game.apply(game.legal_actions(0)[0])
    assert err.value.plugin == "golf"
    assert "apply" in str(err.value)


def test_layout_of_accepts_dict_values():
    specs = {"stock": ZoneSpec("stock"), "hand.0": ZoneSpec("hand.0", 0, Visibility.OWNER)}
    assert Layout.of(specs.values()).id("hand.0") == 1


def test_webserver_accepts_bytes_db_path(tmp_path):
    from cardcore.session import SQLiteStore
    from cardcore.web import WebServer

    server = WebServer(bytes(tmp_path / "games.db"))
    try:
        assert isinstance(server.store, SQLiteStore)
        assert (tmp_path / "games.db").is_file()
    finally:
        server.store.close()


def test_webserver_numpy_int_bot_delay():
    from cardcore.web import WebServer

    assert WebServer(bot_delay=np.float64(1.0)).bot_delay == 1.0
    assert WebServer(bot_delay=np.int64(1)).bot_delay == 1.0


# -- (2) fixes that stop short --------------------------------------------------------------


@pytest.mark.parametrize("scores", [["3", "1"], [None], "ab", [1j, 2j], [], np.array([])])
def test_winners_by_refuses_non_numbers(scores):
    """Texts and None are no scores (refused since 396983a)."""
    with pytest.raises(ArgumentError):
        winners_by(scores)


@pytest.mark.parametrize(
    "scores",
    [[math.inf, -math.inf], [1e308, 1e308, -math.inf], np.array([np.inf, -np.inf])],
)
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_winners_by_infinite_scores(scores):
    assert winners_by(scores) == (len(scores) - 1,)


def test_winners_by_huge_int_with_float():
    assert winners_by([10**400, 1.0]) == (1,)


def test_winners_by_decimal_nan():
    with pytest.raises(ArgumentError):
        winners_by([Decimal("NaN"), Decimal(1)])


def test_ledger_totals_stay_writable():
    game = new_game("tonk", 2, seed=1)
    ledger = game.state.ledger
    for _ in range(2):
        with contextlib.suppress(LedgerError):
            ledger.post([10**15, -(10**15)], "big")
    assert max(map(abs, ledger.totals)) <= 10**15
    assert game.position().startswith("tonk")


def test_tell_refuses_bad_seat_on_public_card():
    zones = Zones(Layout.of([ZoneSpec("pile", None, Visibility.EVERYONE)]))
    zones.put(zones.id("pile"), cardcore.Card.parse("7H"))
    zones.reveal(zones.id("pile"), 0)
    with pytest.raises(ArgumentError):
        zones.tell(0, 0, "x")
