"""Review of the night's changes, ``git diff 3113d63..HEAD -- src plugins examples``
(2026-12-07): determinize, ordered owner piles, sampled positions, per-seat clocks,
records and saves (kind for kind, rule-entry IDs and versions), the study arguments
shared by ``simulate`` and ``compare``, ``Summary``'s NaN and the CLI.

Plain tests pin behaviour the changes introduced or must keep; strict xfails show a
bug the changes introduced (or left where the changelog says it is fixed).
"""

from __future__ import annotations

import io
import json
import math
import pickle
import random
import re
import types
import warnings
from contextlib import redirect_stderr, redirect_stdout
from types import MappingProxyType
from typing import Any

import pytest

import cardcore
from cardcore import CorruptStateError, RuleInfo, records
from cardcore.search.sampling import sample_position
from cardcore.session import Session, SessionConfig, TimeControl
from cardcore.session.clocks import Clocks

# --------------------------------------------------------------------------- helpers


def _play(
    name: str, players: int, steps: int, *, seed: int = 5, options: Any = None
) -> cardcore.Game:
    """A game played *steps* random legal actions from a fixed seed (times 1 s apart in real time)."""
    game = cardcore.new_game(name, players, seed=seed, options=options)
    rng = random.Random(1)
    realtime = cardcore.game_info(name).realtime
    t = 0.0
    for _ in range(steps):
        if game.is_over:
            break
        if realtime:
            choices = [a for s in range(players) for a in game.legal_actions(s)]
        else:
            choices = list(game.legal_actions(game.to_act[0]))
        if not choices:
            break
        t += 1.0
        if realtime:
            game.apply(rng.choice(choices), at=t)
        else:
            game.apply(rng.choice(choices))
    return game


def _js_json(data: Any) -> str:
    """*data* as JSON the way JavaScript's ``JSON.stringify`` writes it: ``3.0`` as ``3``."""
    return re.sub(r"(?<![\w.])(-?\d+)\.0(?![\d.eE])", r"\1", json.dumps(data))


def _register_rule(version: str) -> str:
    """Register a do-nothing Golf house rule declared with *version*; return its name."""
    name = "golf.review-version"
    module = types.ModuleType("review_version_rule")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="GOLF-REVIEW-1", name=name, game="golf", summary="review: a version", version=version
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a rule without hooks warns (PluginWarning)
        cardcore.register("cardcore.rules", name, module)
    return name


# --------------------------------------------------------------------------- determinize


DETERMINIZE_CASES = [
    ("golf", 2, None, 3),
    ("golf", 3, {"layout": "4h"}, 2),
    ("golf", 6, None, 2),  # two decks: every card twice
    ("tonk", 2, None, 0),
    ("speed", 2, {"jokers": 2}, 0),  # jokers sort first
]


@pytest.mark.parametrize(("name", "players", "options", "moves"), DETERMINIZE_CASES)
def test_determinized_world_does_not_depend_on_where_the_hidden_cards_lie(
    name: str, players: int, options: Any, moves: int
) -> None:
    """hookspecs.determinize: "Put the hidden cards in an order of their own (sorted)
    before shuffling them: the caller chose the seed, and a shuffle of the cards as they
    lie could be undone to find where each one really is." Two games that seat 0 cannot
    tell apart (sampled from its view) determinize with one seed to the same world,
    with jokers and with two decks too."""
    game = cardcore.new_game(name, players, seed=4, options=options)
    rng = random.Random(0)
    for _ in range(moves):
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    view = game.view(0)
    twins = [
        cardcore.new_game(
            name, players, position=sample_position(view, random.Random(k)), options=options
        )
        for k in (1, 2)
    ]
    assert twins[0].state.zones.cards != twins[1].state.zones.cards  # they differ in hiding
    worlds = [t.determinize(0, 7) for t in twins]
    assert worlds[0].state.zones.cards == worlds[1].state.zones.cards
    for twin, world in zip(twins, worlds, strict=True):
        # still consistent: the seat sees the same table, and every card is still there
        assert world.view(0) == twin.view(0)
        assert sorted(map(str, world.state.zones.all_cards())) == sorted(
            map(str, twin.state.zones.all_cards())
        )


# --------------------------------------------------------------------------- ordered piles


def _golf_4h_after_taken_discard() -> tuple[cardcore.Game, str]:
    """Golf 4h: seat 0 takes the face-up discard into the first place of its hand."""
    game = cardcore.new_game("golf", 2, seed=3, options={"layout": "4h"})
    taken = game.view(1)["table"]["discard"]
    game.act(0, "take")
    game.act(0, "replace 0")  # the first place (the notation counts from 0)
    return game, taken


def test_golf_4h_taken_discard_shows_in_its_place_to_every_seat() -> None:
    """ZoneSpec.ordered: "an OWNER pile then shows every card known to all in its place".
    Golf 4h: seat 0 takes the public discard into its first place; seat 1 and a spectator see it
    there (as the table's ``grids`` says), and nothing else of seat 0's hand."""
    game, taken = _golf_4h_after_taken_discard()
    assert isinstance(taken, str)
    for seat in (1, None):
        view = game.view(seat)
        grid = next(z for z in view["zones"] if z["name"] == "grid.0")
        assert grid["cards"] == [None, None, None, taken]  # top first: the first place is last
        assert view["table"]["grids"][0] == [taken, None, None, None]
    own = next(z for z in game.view(0)["zones"] if z["name"] == "grid.0")
    assert own["cards"][-1] == taken and None not in own["cards"]


def test_sampled_golf_4h_position_reproduces_the_view() -> None:
    """sampling.deal_view: "every card of a hand to its owner (to all when the view shows
    another seat's hand ...)". A position sampled from seat 1's view (seat 0's taken
    discard showing) reads back and shows seat 1 exactly that view."""
    game, _ = _golf_4h_after_taken_discard()
    view = game.view(1)
    for k in range(3):
        sampled = cardcore.new_game(
            "golf", 2, position=sample_position(view, random.Random(k)), options={"layout": "4h"}
        )
        again = sampled.view(1)
        assert again["zones"] == view["zones"]
        assert again["table"] == view["table"]


# --------------------------------------------------------------------------- clocks

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [r + s for s in "SHDC" for r in RANKS]


def _speed_position(hand1: list[str], buried: str) -> str:
    """Seat 1 has declared stuck; seat 0 can play 6S on 7S; *buried* lies in seat 1's stock."""
    zones = {
        "hand.0": ["6S", "5S", "5H", "5D", "5C"],
        "hand.1": hand1,
        "stock.0": ["10D"],
        "stock.1": [buried, "8D"],
        "side.0": ["3D", "KC"],
        "side.1": ["7C", "QD"],
        "pile.L": ["2H", "QS"],
        "pile.R": ["7S"],
    }
    unused = list(DECK)
    for cards in zones.values():
        for card in cards:
            unused.remove(card)
    zones["pile.L"][:0] = unused
    parts = ["speed v=1 requests=[false,true] recycled=false"]
    for name, cards in zones.items():
        if name.startswith("hand"):
            text = " ".join(f"{c}@{name[-1]}" for c in cards)
        elif name.startswith("pile"):
            text = " ".join(c + "!" for c in cards)
        else:
            text = " ".join(cards)
        parts.append(f"{name}: {text}".rstrip())
    return " | ".join(parts)


def _speed_session_messages(hand1: list[str], buried: str) -> list[dict[str, Any]]:
    """Every message seat 0 gets: joining, after its own play, and on reconnecting."""
    session = Session.create(
        "speed",
        ["Ann", "Bob"],
        now=0.0,
        seed=3,
        position=_speed_position(hand1, buried),
        config=SessionConfig(time=TimeControl(turn=5.0)),
    )
    out = session.handle("ann", '{"type": "join", "seat": 0}', now=0.0)
    out += session.handle("bob", '{"type": "join", "seat": 1}', now=0.0)
    mine = [o.message for o in out if o.conn == "ann"]
    token = next(m["token"] for m in mine if m["type"] == "welcome")
    version = [m for m in mine if m["type"] == "view"][-1]["version"]
    act = {"type": "act", "action": "play 6S R", "seen": version}
    out = session.handle("ann", json.dumps(act), now=1.0)
    mine += [o.message for o in out if o.conn == "ann"]
    back = {"type": "join", "seat": 0, "token": token}  # a new connection, no "last": a view
    out = session.handle("ann-again", json.dumps(back), now=2.0)
    mine += [o.message for o in out if o.conn == "ann-again"]
    return mine


def test_realtime_session_messages_show_a_seat_only_its_own_idle_clock() -> None:
    """docs/session.rst: "A seat's messages show only its own idle clock: whether another
    seat's runs would tell whether its hidden cards can play." Seat 0's join view, the
    update after its play and the view it gets on reconnecting name seat 0's clock only,
    and they read the same whether or not seat 1's hidden hand holds a card that fits."""
    a = _speed_session_messages(["7H", "9D", "9C", "9S", "4H"], "2C")
    b = _speed_session_messages(["2C", "9D", "9C", "9S", "4H"], "7H")
    clocks_a = [m["clocks"] for m in a if "clocks" in m]
    clocks_b = [m["clocks"] for m in b if "clocks" in m]
    kinds = [m["type"] for m in a if "clocks" in m]
    assert "update" in kinds and kinds.count("view") >= 2  # join, play, reconnect
    assert clocks_a == clocks_b
    for clocks in clocks_a:
        assert set(clocks["turn"]) <= {"0"}
    assert clocks_a[-1]["turn"] == {"0": 6.0}  # reconnected: its own clock, as it runs


def test_turn_based_clocks_show_every_seat_and_realtime_ones_only_the_seat() -> None:
    """clocks.Clocks.public: "In real time a seat sees only its own idle clock"; turn-based
    clocks follow ``to_act``, which is public, so every seat sees them."""
    turn = Clocks(TimeControl(turn=5.0), realtime=False)
    turn.start((1,), 0.0)
    assert turn.public(0) == {"turn": {"1": 5.0}, "total": None}
    live = Clocks(TimeControl(turn=5.0, total=60.0), realtime=True)
    live.start((0, 1), 0.0)
    assert live.public(0) == {"turn": {"0": 5.0}, "total": 60.0}
    assert live.public(1) == {"turn": {"1": 5.0}, "total": 60.0}


# --------------------------------------------------------------------------- records and saves


@pytest.mark.parametrize(("name", "players"), [("golf", 2), ("spit", 2), ("speed", 2), ("tonk", 3)])
def test_a_save_written_by_javascript_json_still_loads(name: str, players: int) -> None:
    """records._same: "only an integral number a JSON writer wrote without its ``.0`` (as
    JavaScript does) may stand for a float". A save and a record whose floats (times,
    scores, payouts) went through such a writer load and replay."""
    game = _play(name, players, 2000, seed=11)
    text = _js_json(game.save())
    assert text != json.dumps(game.save())  # the writer did drop some ".0"
    loaded = records.load(text)
    assert loaded.version == game.version
    assert records.replay(_js_json(game.record())).version == game.version


def test_a_save_given_as_a_read_only_mapping_loads() -> None:
    """changelog: "a record or save given as a mapping of the caller's own is read once as
    plain data"."""
    game = _play("golf", 2, 12)
    save = game.save()
    wrapped = MappingProxyType({**save, "record": MappingProxyType(save["record"])})
    assert records.load(wrapped).version == game.version


def test_a_save_whose_version_is_a_float_or_whose_state_says_true_for_1_is_refused() -> None:
    """changelog: "a save's state, configuration, result and version must match kind for
    kind (``true`` is not ``1``, ``6.0`` is not the count ``6``)"."""
    game = _play("golf", 2, 12)
    save = json.loads(json.dumps(game.save()))
    bad = {**save, "version": float(save["version"])}
    with pytest.raises(CorruptStateError, match="version"):
        records.load(bad)
    text = json.dumps(save)
    flipped = text.replace('"version": 12', '"version": true', 1)
    assert flipped != text
    with pytest.raises(CorruptStateError):
        records.load(flipped)


@pytest.mark.parametrize("version", ["1.0.0rc1", "0.1.0.dev3", "0.0.0"])
def test_a_record_made_with_a_prerelease_house_rule_replays(version: str) -> None:
    """docs/plugin-guide/entry-points.rst: "Records store every plugin's version; loading a
    record or saved game made with another major version raises CorruptStateError". A
    rule declared at a pre-release version (``__version__`` is free text) makes records
    that the same installation must replay and load."""
    name = _register_rule(version)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a rule without hooks warns (PluginWarning)
            game = cardcore.new_game("golf", 2, seed=3, rules=[name])
        game.act(0, str(game.legal_actions(0)[0]))
        assert records.replay(json.dumps(game.record())).version == game.version
        assert records.load(json.dumps(game.save())).version == game.version
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_a_record_of_a_prerelease_game_version_replays() -> None:
    """docs/plugin-guide/entry-points.rst: only "another major version raises
    CorruptStateError"; a record made by a pre-release of the same major version replays
    (as it did before the change)."""
    game = cardcore.new_game("golf", 2, seed=3)
    record = game.record()
    record["game_version"] += ".dev1"
    assert records.replay(record).version == game.version


def test_a_record_rule_entry_with_another_rules_id_is_refused_naming_the_rule() -> None:
    """changelog: "a record's rule entries must carry their rule's ID"."""
    game = cardcore.new_game("golf", 2, seed=3, rules=["golf.jokers"])
    record = game.record()
    record["rules"][0]["id"] = "GOLF-SCORE-2"
    with pytest.raises(CorruptStateError, match=r"golf\.jokers.*GOLF-SCORE-4"):
        records.replay(record)


# --------------------------------------------------------------------------- studies


def test_one_game_summary_has_nan_spread_null_json_and_a_dash_in_the_table() -> None:
    """Summary.sd_scores: "not a number (``math.nan``; ``null`` in to_json) over one game";
    docs/cli.rst: "It is strict JSON: an undefined standard deviation (one game) is null"."""
    from cardcore.cli import main

    summary = cardcore.simulate("tonk", games=1, players=2, seed=1)
    assert all(math.isnan(v) for v in summary.sd_scores)
    assert summary.sd_payouts is not None and all(math.isnan(v) for v in summary.sd_payouts)
    data = summary.to_json()
    assert data["sd_scores"] == [None, None] and data["sd_payouts"] == [None, None]
    json.dumps(data, allow_nan=False)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(["simulate", "tonk", "--games", "1", "--players", "2", "--json", "-", "-q"])
    assert status == 0
    printed = json.loads(out.getvalue())
    assert printed["sd_scores"] == [None, None] and printed["without"] == []
    assert "–" in err.getvalue() and "nan" not in err.getvalue() and "1 game," in err.getvalue()


def test_one_game_summary_is_equal_to_itself_after_pickling() -> None:
    """docs/cli.rst: "the same seed gives the same summary whatever runs it: this process,
    any number of worker processes, or dask" (summaries are compared with ==)."""
    summary = cardcore.simulate("golf", games=1, players=2, seed=1)
    assert summary == cardcore.simulate("golf", games=1, players=2, seed=1)
    assert pickle.loads(pickle.dumps(summary)) == summary


def test_simulate_and_compare_refuse_a_count_beyond_any_game_alike() -> None:
    """changelog: "simulate and compare refuse a player count beyond any game in the game's
    own words ... and word each refusal alike"."""
    from cardcore.compare import compare

    messages = []
    for study in (cardcore.simulate, compare):
        with pytest.raises(cardcore.OptionError) as info:
            study("golf", games=1, players=100)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "golf takes" in messages[0] and "CORE-SEAT-2" in messages[0]


def test_compare_names_rules_by_name_once_each() -> None:
    """ConfigSummary.rules: "named as Game.rules names them (by name, not rule ID; each once,
    sorted by rule ID)": ``golf.hard`` and ``GOLF-SCORE-2`` are one configuration."""
    from cardcore.compare import compare

    result = compare(
        "golf",
        rules=["GOLF-SCORE-2", "golf.hard"],
        vs=["golf.hard"],
        games=1,
        players=2,
        skill=None,
    )
    game = cardcore.new_game("golf", 2, rules=["GOLF-SCORE-2"], seed=0)
    assert result.a.rules == result.b.rules == tuple(game.rules) == ("golf.hard",)


@pytest.mark.parametrize(
    "rules", [{"golf.jokers": False}, b"golf.jokers"], ids=["mapping", "bytes"]
)
def test_compare_refuses_rules_given_as_a_mapping_or_bytes_as_simulate_does(rules: Any) -> None:
    """changelog: "``rules`` given as a mapping or bytes ... are refused
    (``{"golf.jokers": False}`` turned jokers on)"; "simulate and compare ... word each
    refusal alike"."""
    from cardcore.compare import compare

    with pytest.raises(cardcore.ArgumentError) as sim:
        cardcore.simulate("golf", games=1, players=2, rules=rules)
    with pytest.raises(cardcore.ArgumentError) as cmp:
        compare("golf", games=1, players=2, rules=rules, skill=None)
    assert str(cmp.value) == str(sim.value)


def test_cli_unknown_option_names_its_subcommands_help() -> None:
    """changelog: "``cardcore COMMAND ... --bogus`` points to ``cardcore COMMAND --help``"."""
    from cardcore.cli import main

    for command in ("simulate", "sim"):
        err = io.StringIO()
        with redirect_stderr(err), redirect_stdout(io.StringIO()):
            status = main([command, "golf", "--bogus"])
        assert status == 2
        assert "unrecognized arguments: --bogus" in err.getvalue()
        assert "cardcore simulate --help" in err.getvalue()


def test_house_rule_study_example_prints_no_nan_over_one_game(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """changelog: "Summary.sd_scores and sd_payouts over one game are math.nan (null in
    JSON, "–" in the table) instead of 0.0": every place that prints a Summary's spread
    says it is undefined, not "nan"."""
    import runpy
    from pathlib import Path

    pytest.importorskip("matplotlib")

    example = Path(__file__).resolve().parent.parent / "examples" / "house_rule_study.py"
    plot = tmp_path / "study.png"
    monkeypatch.setattr("sys.argv", [str(example), str(plot), "--games", "1", "--players", "2"])
    runpy.run_path(str(example), run_name="__main__")
    out = capsys.readouterr().out
    assert "golf.hard" in out and plot.exists()
    assert "nan" not in out
