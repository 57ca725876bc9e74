"""Every option at its declared bounds and edges, and house rules in threes, 2026-12-31.

The options and their bounds are read from the public declarations (``cardcore.game_info``,
``cardcore.rule_info``: ``Option.minimum``/``maximum``/``choices``/``nullable``, the games'
``min_players``/``max_players``), so a game or rule that adds an option is swept too; one test
pins the declarations the docs state (docs/games/*.rst option tables) so a silent change to a
bound shows up here.

For each game, at its fewest and most seats (Tonk's 4 only with ``max_players=4``):

1. each option at its minimum, its maximum, each choice, ``None`` where nullable, the bounds the
   docs name (Golf's ``dealer`` as the last seat), then all at their minimum, all at their
   maximum: ``new_game`` accepts it, the game holds the value, deals every card once and
   every seat's view is JSON (``cardcore.jsonable`` / ``json.dumps``);
2. a value just outside each bound (and a non-choice, a seat past the last) is an
   ``OptionError`` naming the option, the options given are not changed and the next game of
   the same seed is dealt as before; the same through the command line (exit 1, no traceback)
   and the web server (HTTP 400 ``{"error": ...}`` naming the option);
3. random legal games to the end through ``play`` / the real-time runner's virtual clock
   (``run_realtime``), bounded by ``logic.action_bound``, checking after every action that
   every card is in exactly one place (``cardcore.testing.assert_conserved``) and that the
   views of sampled seats show no card they do not know now
   (``cardcore.testing.assert_view_known``), that each seat's own events serialise; at the
   end: save -> load and record -> replay give the same views and result, Tonk's payouts sum
   to zero and equal the session balances;
4. house rules three at a time (every compatible Tonk and Spit triple, a deterministic sample
   of Golf's, each at a layout all three serve) and rules with options at their bounds, through
   the conformance kit (``cardcore.testing.check_game``: conservation, views, events,
   persistence, rejections, ...).

The wide sweep (every Golf triple, every option bound at 2 and 64 seats with two kit games each:
1,167 configurations) was run outside the suite; this file keeps a deterministic subset of it
that runs in well under a minute per worker.

Findings, fixed since (sections 6 and 7): a Tonk position read with another stake (balances
not multiples of it, TONK-STAKE-1) was accepted; Spit's action bound (SPIT-CAP-1) was a fixed
20,000 actions, which random games at ``stall_limit=1`` ran past. A third (Speed side piles of
another ``side_pile``) was judged no bug: a recycle refills side piles (section 6).
"""

from __future__ import annotations

import contextlib
import copy
import io
import itertools
import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import cardcore
from cardcore import Game, OptionError
from cardcore.testing import assert_conserved, assert_view_known, check_game

THIRD_PARTY = {"golf.snowman"}
#: the built-in games (other suites register test games for a while: left out here)
GAMES = ("golf", "tonk", "spit", "speed", "gofish")
GOLF_LAYOUTS: tuple[Any, ...] = (6, 8, 9, 10, 4, "4h")


def _rules(game: str) -> list[str]:
    return [r for r in cardcore.available_rules(game) if r not in THIRD_PARTY]


def _seat_counts(game: str) -> list[tuple[int, dict[str, Any]]]:
    """The fewest and the most seats, each with the options that allow it."""
    info = cardcore.game_info(game)
    if game == "tonk":  # TONK-GEN-1: 2 to 3 players, 4 with max_players=4
        return [(2, {}), (3, {}), (4, {"max_players": 4})]
    counts = sorted({info.min_players, info.max_players})
    return [(n, {}) for n in counts]


def _option_values(option: cardcore.Option, players: int) -> list[Any]:
    """Every value at an edge of *option*'s declaration, for *players* seats."""
    values: list[Any] = []
    if option.choices:
        values += list(option.choices)
    if option.minimum is not None:
        values.append(option.minimum)
    if option.maximum is not None:
        values.append(option.maximum)
    if option.nullable:
        values.append(None)
    if option.name in ("dealer", "first_dealer"):  # a seat: the docs' bound is the last seat
        values = [v for v in values if not isinstance(v, int) or v < players]
        values.append(players - 1)
    if option.name == "max_players":  # it must allow the seats asked for (TONK-GEN-1)
        values = [v for v in values if v >= players]
    if option.choices and option.minimum is not None:  # choices win over a wider range
        values = [v for v in values if v in option.choices or v is None]
    out: list[Any] = []
    for v in values:
        if not any(type(v) is type(w) and v == w for w in out):
            out.append(v)
    return out


def _extreme(game: str, players: int, which: str) -> dict[str, Any]:
    """Every option of *game* at its minimum (or maximum) allowed for *players* seats."""
    out: dict[str, Any] = {}
    for option in cardcore.game_info(game).options:
        values = [v for v in _option_values(option, players) if isinstance(v, int)]
        if values:
            out[option.name] = min(values) if which == "min" else max(values)
    return out


def _option_cases() -> Iterator[tuple[str, int, str, Any]]:
    for game in GAMES:
        for players, _base in _seat_counts(game):
            for option in cardcore.game_info(game).options:
                for value in _option_values(option, players):
                    yield game, players, option.name, value


def _views_json(game: Game, seats: Any = None) -> None:
    seats = range(len(game.players)) if seats is None else seats
    for seat in [*seats, None]:
        view = game.view(seat)
        text = json.dumps(view, allow_nan=False)
        assert json.loads(text) == json.loads(json.dumps(cardcore.jsonable(view)))


# -- 0. the declarations swept are the documented ones ------------------------------------------


def test_declared_option_bounds_are_the_documented_ones() -> None:
    """docs/games/golf.rst, tonk.rst, spit.rst (Speed too): the option tables."""

    def decl(game: str) -> dict[str, tuple[Any, ...]]:
        return {
            o.name: (o.default, o.minimum, o.maximum, o.nullable, tuple(o.choices or ()))
            for o in cardcore.game_info(game).options
        }

    golf = decl("golf")
    assert golf["rounds"][:4] == (None, 1, 100, True)
    assert golf["points_limit"][:4] == (None, 1, 1000, True)
    assert golf["max_turns"][:4] == (None, 1, 1000, True)
    assert golf["dealer"][:4] == (None, 0, 63, True) and golf["dealer"][4] == ("random",)
    assert set(golf["layout"][4]) >= {6, 8, 9, 10, 4, "4h"}
    tonk = decl("tonk")
    assert tonk["max_players"][:4] == (3, 2, 4, False)
    assert tonk["stake"][:4] == (1, 1, 1_000_000, False)
    assert tonk["hands"][:4] == (1, 1, 100_000, False)
    assert tonk["first_dealer"][:4] == (None, 0, 3, True)
    assert decl("spit")["stall_limit"][:4] == (20, 1, 1000, False)
    speed = decl("speed")
    assert speed["side_pile"][0] == 5 and speed["side_pile"][4] == (5, 15)
    assert speed["jokers"][0] == 0 and speed["jokers"][4] == (0, 2)
    assert decl("gofish") == {}
    seats = {
        g: (cardcore.game_info(g).min_players, cardcore.game_info(g).max_players)
        for g in ("golf", "tonk", "spit", "speed", "gofish")
    }
    assert seats == {
        "golf": (2, 64),
        "tonk": (2, 4),
        "spit": (2, 2),
        "speed": (2, 2),
        "gofish": (2, 6),
    }
    (bonus,) = cardcore.rule_info("golf.bonus-card").options
    assert bonus.name == "bonus_card" and bonus.default == "2" and len(bonus.choices or ()) == 65


# -- 1. every value at an edge is accepted --------------------------------------------------------


OPTION_CASES = list(_option_cases())


@pytest.mark.parametrize(
    ("game_name", "players", "name", "value"),
    OPTION_CASES,
    ids=[f"{g}-{n}p-{o}={v!r}" for g, n, o, v in OPTION_CASES],
)
def test_each_option_at_an_edge_is_accepted_and_deals_every_card_once(
    game_name: str, players: int, name: str, value: Any
) -> None:
    options = dict(dict(_seat_counts(game_name))[players])
    options[name] = value
    game = cardcore.new_game(game_name, players, options=options, seed=5)
    held = game.options[name]
    assert held == value or (value is None and name == "rounds"), (name, value, held)
    assert_conserved(game)
    # every seat's view (64 at most) serialises; the known-cards check on a few seats
    _views_json(game)
    for seat in sorted({0, players - 1}):
        assert_view_known(game, seat)
    assert any(game.legal_actions(seat) for seat in range(players))


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("which", ["min", "max"])
def test_all_options_at_their_minimum_or_maximum_at_each_seat_count(
    game_name: str, which: str
) -> None:
    for players, base in _seat_counts(game_name):
        options = {**base, **_extreme(game_name, players, which)}
        if game_name == "tonk" and which == "min":
            options["max_players"] = max(players, 2)
        game = cardcore.new_game(game_name, players, options=options, seed=1)
        for key, value in options.items():
            assert game.options[key] == value
        assert_conserved(game)
        _views_json(game, seats=[0, players - 1])


def test_golf_bonus_card_at_every_choice_edge() -> None:
    """The rule's option: a rank (``A``, ``K``, ``10``) or one card (``AS``, ``KC``, ``10H``)."""
    for value in ("A", "K", "10", "AS", "KC", "10H", "2"):
        game = cardcore.new_game(
            "golf", 2, rules=["golf.bonus-card"], seed=3, options={"bonus_card": value, "rounds": 1}
        )
        assert game.options["bonus_card"] == value
        assert_conserved(game)


# -- 2. just outside a bound: refused, naming the option, changing nothing ----------------------


def _outside_cases() -> list[tuple[str, int, dict[str, Any], str]]:
    cases: list[tuple[str, int, dict[str, Any], str]] = []
    for game in GAMES:
        for players, base in _seat_counts(game):
            for o in cardcore.game_info(game).options:
                bad: list[Any] = []
                if o.minimum is not None:
                    bad.append(o.minimum - 1)
                if o.maximum is not None:
                    bad.append(o.maximum + 1)
                if o.choices:
                    bad += ["bogus"]
                    ints = [c for c in o.choices if type(c) is int]
                    if ints:
                        bad += [max(ints) + 1, min(ints) - 1]
                        if len(ints) == 2:  # inside the declared range, not a choice
                            bad.append((ints[0] + ints[1]) // 2)
                if not o.nullable:
                    bad.append(None)
                if o.name in ("dealer", "first_dealer"):
                    bad.append(players)
                if o.name == "max_players":
                    bad.append(players - 1) if players > 2 else None
                bad += [True, 1.5]
                for value in bad:
                    if o.choices and value in o.choices:
                        continue
                    cases.append((game, players, {**base, o.name: value}, o.name))
    # the rule's option
    for value in ("q", "1", "11", "JK", "", " 2", 2, None):
        cases.append(("golf", 2, {"bonus_card": value}, "bonus_card"))
    return cases


OUTSIDE = _outside_cases()


def _first_deal(game_name: str, players: int, rules: list[str]) -> Any:
    game = cardcore.new_game(
        game_name,
        players,
        rules=rules,
        seed=9,
        options=dict(dict(_seat_counts(game_name))[players]),
    )
    return game.view(None), [game.view(s) for s in range(min(players, 4))]


@pytest.mark.parametrize(
    ("game_name", "players", "options", "name"),
    OUTSIDE,
    ids=[f"{g}-{n}p-{o}" for g, n, o, _ in OUTSIDE],
)
def test_just_outside_a_bound_is_an_option_error_naming_the_option(
    game_name: str, players: int, options: dict[str, Any], name: str
) -> None:
    rules = ["golf.bonus-card"] if name == "bonus_card" else []
    given = copy.deepcopy(options)
    before = _first_deal(game_name, players, rules)
    games_before = cardcore.available_games()
    with pytest.raises(OptionError) as refused:
        cardcore.new_game(game_name, players, rules=rules, options=options, seed=9)
    assert name in str(refused.value)
    assert options == given  # the mapping given is not changed
    assert cardcore.available_games() == games_before
    assert _first_deal(game_name, players, rules) == before  # the next game is dealt as before


@pytest.mark.parametrize("game_name", GAMES)
def test_a_seat_count_just_outside_the_range_is_refused(game_name: str) -> None:
    info = cardcore.game_info(game_name)
    for players in (info.min_players - 1, info.max_players + 1):
        with pytest.raises(OptionError) as refused:
            cardcore.new_game(
                game_name,
                players,
                seed=1,
                options={"max_players": 4} if game_name == "tonk" else None,
            )
        assert str(players) in str(refused.value)
    if game_name == "tonk":  # the seats past max_players name the option (TONK-GEN-1)
        with pytest.raises(OptionError, match="max_players"):
            cardcore.new_game("tonk", 3, seed=1, options={"max_players": 2})
        with pytest.raises(OptionError, match="max_players"):
            cardcore.new_game("tonk", 4, seed=1)


def _cli(args: list[str]) -> tuple[int, str]:
    from cardcore.cli import main as cli_main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli_main(args)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
    return int(code or 0), out.getvalue() + err.getvalue()


@pytest.mark.parametrize(
    ("game_name", "option", "bad", "good"),
    [
        ("golf", "rounds", "101", "100"),
        ("golf", "rounds", "0", "1"),
        ("golf", "points_limit", "1001", "1000"),
        ("golf", "max_turns", "0", "1"),
        ("golf", "dealer", "2", "1"),
        ("tonk", "stake", "1000001", "1000000"),
        ("tonk", "hands", "0", "1"),
        ("tonk", "first_dealer", "2", "1"),
        ("spit", "stall_limit", "1001", "1000"),
        ("speed", "side_pile", "10", "15"),
    ],
)
def test_the_command_line_refuses_just_outside_and_plays_at_the_bound(
    game_name: str, option: str, bad: str, good: str
) -> None:
    extra = ["-o", "max_players=2"] if game_name == "tonk" else []
    if game_name == "golf" and option != "rounds":
        extra = ["-o", "rounds=1"]
    base = ["simulate", game_name, "--games", "1", "--players", "2", "--quiet", *extra]
    code, text = _cli([*base, "-o", f"{option}={bad}"])
    assert code == 2 and option in text and "Traceback" not in text, (
        text
    )  # cli.rst: 2 for a bad option
    code, text = _cli([*base, "-o", f"{option}={good}"])
    assert code == 0 and "Traceback" not in text, text


def test_the_web_server_refuses_just_outside_and_accepts_the_bound() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from tests.web.helpers import serve

    cases = [
        ("golf", 2, {"rounds": 101}, {"rounds": 100}, "rounds"),
        ("golf", 2, {"dealer": 2}, {"dealer": 1}, "dealer"),
        ("golf", 2, {"max_turns": 0}, {"max_turns": 1}, "max_turns"),
        ("tonk", 4, {"max_players": 3}, {"max_players": 4}, "max_players"),
        ("tonk", 2, {"stake": 1_000_001}, {"stake": 1_000_000}, "stake"),
        ("spit", 2, {"stall_limit": 0}, {"stall_limit": 1}, "stall_limit"),
        ("speed", 2, {"jokers": 1}, {"jokers": 2}, "jokers"),
    ]
    with serve(None) as (client, _server, _dog):
        for game, seats, bad, good, name in cases:
            body = {"game": game, "seats": [{"name": f"P{i}"} for i in range(seats)]}
            refused = client.post("/api/sessions", json={**body, "options": bad})
            assert refused.status_code == 400, refused.text
            assert name in refused.json()["error"]
            made = client.post("/api/sessions", json={**body, "options": good})
            assert made.status_code == 201, made.text


# -- 3. random legal games to the end at the bounds, checked after every action -----------------


class _SeatEvents:
    """Every event each seat (and the spectator) receives, as JSON."""

    def __init__(self, game: Game, seats: list[int | None]) -> None:
        self.count = 0
        for seat in seats:
            game.events.subscribe(cardcore.Event, self._take, seat=seat)

    def _take(self, event: Any) -> None:
        json.dumps(cardcore.jsonable(event), allow_nan=False)
        self.count += 1


def _sampled_seats(players: int, step: int) -> list[int]:
    if players <= 6:
        return list(range(players))
    return sorted({step % players, (step * 7 + 3) % players, players - 1})


def _check_now(game: Game, step: int) -> None:
    """Conservation after every action; the views after each of the first 300 actions, then
    after every 25th (long real-time games run to thousands of actions)."""
    assert_conserved(game)
    if step > 300 and step % 25:
        return
    for seat in _sampled_seats(len(game.players), step):
        assert_view_known(game, seat)
        json.dumps(game.view(seat), allow_nan=False)
    assert_view_known(game, None)


def _play_checked(game: Game, seed: int, *, max_actions: int | None = None) -> int:
    """Random legal play to the end (or *max_actions*), every action checked; returns actions."""
    bound = game.logic.action_bound(len(game.players), game.options)
    assert isinstance(bound, int) and bound > 0
    limit = bound if max_actions is None else min(bound, max_actions)
    steps = [0]

    def after(g: Game, *_: Any) -> None:
        steps[0] += 1
        _check_now(g, steps[0])

    _check_now(game, 0)
    agents = [cardcore.RandomAgent(seed=seed * 100 + s) for s in range(len(game.players))]
    if cardcore.game_info(game.name).realtime:
        cardcore.run_realtime(game, agents, seed=seed, max_actions=limit, on_action=after)
    else:
        cardcore.play(game, agents, max_actions=limit, on_action=after)
    assert game.is_over
    return steps[0]


def _round_trips(game: Game) -> None:
    loaded = cardcore.load(json.loads(json.dumps(game.save())))
    replayed = cardcore.replay(json.loads(json.dumps(game.record())))
    for other in (loaded, replayed):
        assert other.is_over == game.is_over
        assert other.result == game.result
        for seat in [*_sampled_seats(len(game.players), 1), None]:
            assert other.view(seat) == game.view(seat)
        assert other.history(None) == game.history(None)
        assert_conserved(other)


def _sums(game: Game) -> None:
    result = game.result
    assert result is not None
    assert len(result.scores) == len(game.players)
    if game.name == "tonk" and result.reason != "truncated":
        assert result.payouts is not None and sum(result.payouts) == 0
        assert list(result.payouts) == game.view(None)["table"]["balances"]
        stake = game.options["stake"]
        assert all(p % stake == 0 for p in result.payouts)  # TONK-STAKE-1
        assert [p / stake for p in result.payouts] == list(result.scores)


PLAYOUTS: list[tuple[str, int, dict[str, Any], tuple[str, ...], int | None]] = []
for _lay in GOLF_LAYOUTS:
    PLAYOUTS.append(("golf", 2, {"layout": _lay, **_extreme("golf", 2, "min")}, (), None))
    PLAYOUTS.append(
        ("golf", 2, {"layout": _lay, "rounds": 1, "dealer": 1, "max_turns": 1000}, (), None)
    )
PLAYOUTS += [
    ("golf", 2, {"layout": 6, **_extreme("golf", 2, "max")}, (), None),  # 100 rounds
    ("golf", 2, {"layout": "4h", "points_limit": 1000}, (), None),  # no round cap
    ("golf", 2, {"layout": "4", "points_limit": 1000, "rounds": 100}, ("golf.jokers",), None),
    ("golf", 64, {"layout": 6, "rounds": 1, "dealer": 63}, (), None),
    ("golf", 64, {"layout": "4h", **_extreme("golf", 64, "min")}, (), None),
    (
        "golf",
        64,
        {"layout": 10, "rounds": 1, "max_turns": 1000, "dealer": "random"},
        ("golf.jokers", "golf.hard", "golf.four-of-a-kind-columns"),
        None,
    ),
    ("tonk", 2, {"max_players": 2, "stake": 1, "hands": 1, "first_dealer": 0}, (), None),
    ("tonk", 4, {"max_players": 4, "stake": 1_000_000, "hands": 20, "first_dealer": 3}, (), None),
    (
        "tonk",
        3,
        {"stake": 1_000_000, "hands": 10},
        ("tonk.must-lay-down", "tonk.no-upcard", "tonk.void-deal-counts"),
        None,
    ),
    ("tonk", 2, {"max_players": 4, "hands": 100_000, "stake": 1_000_000}, (), 600),
    ("spit", 2, {"stall_limit": 1}, (), 3000),  # checked to 3,000 actions (seed 21 ends later)
    ("spit", 2, {"stall_limit": 1000}, ("spit.canfield", "spit.chooser", "spit.same-rank"), None),
    ("speed", 2, {"side_pile": 5, "jokers": 0}, (), None),
    ("speed", 2, {"side_pile": 15, "jokers": 2}, ("speed.stuck-on-request",), None),
    ("gofish", 2, {}, (), None),
    ("gofish", 6, {}, (), None),
]


@pytest.mark.parametrize(
    ("game_name", "players", "options", "rules", "max_actions"),
    PLAYOUTS,
    ids=[f"{g}-{n}p-{o}-{'+'.join(r)}" for g, n, o, r, _ in PLAYOUTS],
)
def test_random_games_at_the_bounds_stay_conserved_hidden_and_replay(
    game_name: str,
    players: int,
    options: dict[str, Any],
    rules: tuple[str, ...],
    max_actions: int | None,
) -> None:
    game = cardcore.new_game(game_name, players, rules=list(rules), options=options, seed=21)
    events = _SeatEvents(game, [0, players - 1, None])
    steps = _play_checked(game, seed=21, max_actions=max_actions)
    assert events.count > 0 and steps > 0
    if max_actions is None:
        assert game.result is not None and game.result.reason != "truncated", game.result
    _sums(game)
    _round_trips(game)
    _views_json(game, seats=_sampled_seats(players, 2))


def test_tonk_at_the_largest_hands_progresses_and_its_bound_is_finite() -> None:
    """hands=100,000 cannot be played out in a test: a bounded run moves through hands and
    the session keeps a zero sum of balances at every point."""
    game = cardcore.new_game("tonk", 3, options={"hands": 100_000, "stake": 1_000_000}, seed=4)
    assert game.logic.action_bound(3, game.options) == 2000 * 100_000
    agents = [cardcore.RandomAgent(seed=s) for s in range(3)]
    cardcore.play(game, agents, max_actions=2000)
    table = game.view(None)["table"]
    assert table["hand_number"] > 5 and sum(table["balances"]) == 0
    assert game.result is not None and game.result.reason == "truncated"
    _round_trips(game)


def test_spit_at_stall_limit_one_ends_within_its_action_bound() -> None:
    """SPIT-STUCK-3 at its minimum: every action that moves no card onto a spit pile brings a
    spit. Found by this sweep: random games then balance the cards between the two players deal
    after deal, and 12 of 20 seeds (0 of 20 at stall_limit 2, 3 or 20) ran to the action bound
    as it was (SPIT-CAP-1, a fixed 20,000 actions, about 130 deals) and ended as "truncated"
    (the kit counts that as a failure: section 7); the bound now grows by 20 // stall_limit
    (400,000 at 1). They do end (no loop), with every card in place."""
    reasons = []
    for seed in (1, 21):
        game = cardcore.new_game("spit", 2, options={"stall_limit": 1}, seed=seed)
        agents = [cardcore.RandomAgent(seed=seed * 100 + s) for s in range(2)]
        result = cardcore.run_realtime(game, agents, seed=seed)
        assert len(game.record()["actions"]) <= game.logic.action_bound(2, game.options)
        assert_conserved(game)
        reasons.append(result.reason)
    assert reasons[0] in ("truncated", "out of cards") and reasons[1] == "out of cards"


def test_golf_max_turns_one_ends_each_round_after_one_turn() -> None:
    """GOLF-CAP-1 at its minimum: each round ends after one turn (setup excluded), no ender."""
    game = cardcore.new_game("golf", 2, options={"rounds": 5, "max_turns": 1}, seed=2)
    cardcore.play(game, [cardcore.RandomAgent(seed=s) for s in range(2)])
    rounds = game.history(None)
    assert len(rounds) == 5
    assert game.result is not None and game.result.reason != "truncated"


def test_golf_points_limit_one_ends_after_the_first_round() -> None:
    """GOLF-GAME-1 at its minimum: a total reaching 1 ends the match at the end of that round
    (a round where every total stays below 1, possible with negative cards, plays on)."""
    for seed in range(4):
        game = cardcore.new_game("golf", 2, options={"points_limit": 1}, seed=seed)
        cardcore.play(game, [cardcore.RandomAgent(seed=s) for s in range(2)])
        assert game.result is not None and game.result.reason != "truncated"
        totals = game.view(None)["table"]["totals"]
        assert max(totals) >= 1 and len(game.history(None)) >= 1


# -- 4. house rules three at a time, and rules with options at their bounds (the kit) ----------


def _conflicting(a: str, b: str) -> bool:
    return b in cardcore.rule_info(a).conflicts or a in cardcore.rule_info(b).conflicts


def _serves(rule: str, layout: Any) -> bool:
    return all(layout in values for values in cardcore.rule_info(rule).applies.values())


def _golf_triples() -> list[tuple[tuple[str, ...], Any]]:
    out: list[tuple[tuple[str, ...], Any]] = []
    for tri in itertools.combinations(_rules("golf"), 3):
        if any(_conflicting(a, b) for a, b in itertools.combinations(tri, 2)):
            continue
        layouts = [lay for lay in GOLF_LAYOUTS if all(_serves(r, lay) for r in tri)]
        if layouts:
            out.append((tri, layouts[sum(map(len, tri)) % len(layouts)]))
    return out


GOLF_TRIPLES = _golf_triples()
#: a deterministic sample: every 23rd triple (the sweep outside the suite ran them all)
GOLF_TRIPLE_SAMPLE = GOLF_TRIPLES[::23]
KIT_CHECKS = {
    "bound",
    "conservation",
    "views",
    "events",
    "persistence",
    "rejections",
    "clone",
    "notation",
}


def _kit(
    game: str,
    players: int,
    rules: Any,
    options: Mapping[str, Any],
    games: int = 1,
    checks: Any = KIT_CHECKS,
    seed: int = 7,
) -> None:
    report = check_game(
        game,
        players=players,
        rules=list(rules),
        options=dict(options),
        games=games,
        seed=seed,
        checks=checks,
        strict=False,
    )
    assert not report.failures, report.summary()
    assert report.raw == 0 and report.cards_lost == 0 and report.leaks == 0
    assert report.truncated == 0, report.summary()


def test_golf_triples_are_counted() -> None:
    assert len(GOLF_TRIPLES) > 300 and len(GOLF_TRIPLE_SAMPLE) >= 14


@pytest.mark.parametrize(
    ("rules", "layout"),
    GOLF_TRIPLE_SAMPLE,
    ids=[f"{'+'.join(t)}@{lay}" for t, lay in GOLF_TRIPLE_SAMPLE],
)
def test_golf_house_rules_three_at_a_time(rules: tuple[str, ...], layout: Any) -> None:
    _kit("golf", 2, rules, {"layout": layout, "rounds": 2})


TONK_TRIPLES = list(itertools.combinations(_rules("tonk"), 3))


@pytest.mark.parametrize("rules", TONK_TRIPLES[::4], ids="+".join)
def test_tonk_house_rules_three_at_a_time_at_four_seats_and_the_largest_stake(
    rules: tuple[str, ...],
) -> None:
    _kit("tonk", 4, rules, {"max_players": 4, "stake": 1_000_000, "hands": 2, "first_dealer": 3})


@pytest.mark.parametrize("limit", [1, 1000])
def test_spit_all_three_house_rules_at_the_stall_limit_bounds(limit: int) -> None:
    _kit("spit", 2, _rules("spit"), {"stall_limit": limit}, seed=6)  # (a short game at 1)


@pytest.mark.parametrize("which", ["min", "max"])
def test_every_golf_rule_with_every_option_at_its_bound(which: str) -> None:
    for rule in _rules("golf"):
        layouts = [lay for lay in GOLF_LAYOUTS if _serves(rule, lay)]
        opts: dict[str, Any] = (
            {"rounds": 1, "points_limit": 1, "max_turns": 1, "dealer": 0}
            if which == "min"
            else {"rounds": 2, "points_limit": 1000, "max_turns": 1000, "dealer": 1}
        )
        _kit(
            "golf",
            2,
            [rule],
            {"layout": layouts[-1], **opts},
            checks={"bound", "conservation", "views", "persistence"},
        )


def test_every_tonk_rule_at_two_seats_with_options_at_their_bounds() -> None:
    for rule in _rules("tonk"):
        for opts in (
            {"max_players": 2, "stake": 1, "hands": 1, "first_dealer": 0},
            {"max_players": 4, "stake": 1_000_000, "hands": 4, "first_dealer": 1},
        ):
            _kit("tonk", 2, [rule], opts, checks={"bound", "conservation", "views", "persistence"})


@pytest.mark.parametrize(("side", "jokers"), [(5, 0), (5, 2), (15, 0), (15, 2)])
def test_speed_at_each_side_pile_and_joker_choice_with_its_rule(side: int, jokers: int) -> None:
    _kit("speed", 2, ["speed.stuck-on-request"], {"side_pile": side, "jokers": jokers})


def test_golf_at_sixty_four_seats_through_the_kit() -> None:
    _kit(
        "golf",
        64,
        (),
        {"layout": "4h", "rounds": 1, "dealer": 63},
        checks={"bound", "conservation", "views", "persistence"},
    )


# -- 5. the rules an option governs, played at its bounds ----------------------------------------


def _golf_rounds_played(
    options: dict[str, Any], players: int, seed: int, rules: tuple[str, ...] = ()
) -> tuple[Game, list[list[str]]]:
    """Play Golf at random; return the game and each round's turn-starting verbs."""
    game = cardcore.new_game("golf", players, rules=list(rules), options=options, seed=seed)
    rounds: list[list[str]] = [[]]
    seen_round = [1]

    def after(g: Game, action: Any) -> None:
        verb = str(action).split()[0]
        if verb in ("draw", "take", "knock"):
            rounds[-1].append(verb)
        table = g.view(None)["table"]
        if table["round"] != seen_round[0]:
            seen_round[0] = table["round"]
            rounds.append([])

    cardcore.play(
        game, [cardcore.RandomAgent(seed=seed + s) for s in range(players)], on_action=after
    )
    return game, [r for r in rounds if r]


@pytest.mark.parametrize("layout", GOLF_LAYOUTS)
def test_golf_max_turns_at_one_gives_every_round_one_turn_and_no_ender(layout: Any) -> None:
    """GOLF-CAP-1 at its minimum: one turn (a knock counts; setup does not) per round, and a
    round the cap cuts short has no ender."""
    game, rounds = _golf_rounds_played({"layout": layout, "rounds": 4, "max_turns": 1}, 3, 5)
    history = game.history(None)
    assert len(history) == 4 and len(rounds) == 4
    for played, row in zip(rounds, history, strict=True):
        assert len(played) == 1, (layout, rounds)
        assert row["ender"] is None or played == ["knock"], row


@pytest.mark.parametrize("layout", [6, "4h"])
def test_golf_max_turns_at_its_maximum_never_cuts_a_random_round(layout: Any) -> None:
    game, rounds = _golf_rounds_played({"layout": layout, "rounds": 3, "max_turns": 1000}, 2, 8)
    assert len(game.history(None)) == 3
    assert all(len(r) < 1000 for r in rounds)
    assert all(row["ender"] is not None for row in game.history(None))


@pytest.mark.parametrize(("limit", "seeds"), [(1, range(6)), (1000, range(2))])
def test_golf_points_limit_at_its_bounds_ends_at_the_first_round_reaching_it(
    limit: int, seeds: range
) -> None:
    """GOLF-GAME-1: the match ends at the end of the round in which a total reaches the limit,
    and not before (no round cap once a limit is set)."""
    for seed in seeds:
        game, _ = _golf_rounds_played({"layout": "4h", "points_limit": limit}, 2, seed)
        totals = [row["totals"] for row in game.history(None)]
        assert max(totals[-1]) >= limit
        assert all(max(t) < limit for t in totals[:-1])
        assert game.result is not None and game.result.reason != "truncated"


@pytest.mark.parametrize("rounds", [1, 100])
def test_golf_rounds_at_its_bounds_plays_exactly_that_many_rounds(rounds: int) -> None:
    game, _ = _golf_rounds_played({"layout": "4h", "rounds": rounds}, 2, 3)
    assert len(game.history(None)) == rounds
    assert game.result is not None and game.result.reason != "truncated"


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (2, 1), (64, 0), (64, 63), (64, 31)])
def test_golf_dealer_at_its_bounds_deals_and_the_seat_to_its_left_starts(
    players: int, dealer: int
) -> None:
    """GOLF-DEAL-3/4: the first dealer is the option; the player left of the dealer acts first
    (setup too), and the deal passes left each round."""
    for layout in (6, "4h"):
        game = cardcore.new_game(
            "golf", players, options={"layout": layout, "dealer": dealer, "rounds": 2}, seed=4
        )
        assert game.view(None)["table"]["dealer"] == dealer
        assert game.to_act == ((dealer + 1) % players,)


@pytest.mark.parametrize(("players", "first"), [(2, 0), (2, 1), (3, 2), (4, 3), (4, 0)])
def test_tonk_first_dealer_and_hands_at_their_bounds(players: int, first: int) -> None:
    """TONK-DEALER-1/2, TONK-SESSION-1: the option's seat deals the first hand, the seat to its
    left moves first, the deal passes left, and the session is exactly ``hands`` hands (a void
    deal is dealt again and is not one of them)."""
    options = {"max_players": 4, "first_dealer": first, "hands": 6, "stake": 1_000_000}
    game = cardcore.new_game("tonk", players, options=options, seed=first + 10 * players)
    table = game.view(None)["table"]
    if table["phase"] == "start":
        assert table["dealer"] == first and game.to_act == ((first + 1) % players,)
    else:  # a natural (TONK-49-1) settled the first hand at the deal: the next dealer deals
        assert table["phase"] == "between" and table["dealer"] == (first + 1) % players
    cardcore.play(game, [cardcore.RandomAgent(seed=s) for s in range(players)])
    hands = [row for row in game.history(None) if row.get("kind") == "hand"]
    counted = [row for row in hands if row.get("reason") != "void"]
    assert len({row["hand"] for row in counted}) == 6
    assert hands[0]["dealer"] == first
    assert game.result is not None and sum(game.result.payouts or ()) == 0
    assert all(a % 1_000_000 == 0 for row in hands for a in row["amounts"])


@pytest.mark.parametrize("limit", [1, 2, 1000])
def test_spit_stall_counter_never_reaches_the_limit(limit: int) -> None:
    """SPIT-STUCK-3: at ``stall_limit`` actions in a row without progress a spit comes inside
    ``apply``, so the counter a view shows stays below the limit after every action."""
    game = cardcore.new_game("spit", 2, options={"stall_limit": limit}, seed=21)
    stalls: list[int] = []

    def after(g: Game, *_: Any) -> None:
        stalls.append(g.view(None)["table"]["stall"])

    agents = [cardcore.RandomAgent(seed=2100 + s) for s in range(2)]
    cardcore.run_realtime(game, agents, seed=21, max_actions=4000, on_action=after)
    assert stalls and max(stalls) < limit
    if limit > 1:
        assert max(stalls) > 0


@pytest.mark.parametrize(("side", "jokers"), [(5, 0), (5, 2), (15, 0), (15, 2)])
def test_speed_deal_sizes_at_each_choice(side: int, jokers: int) -> None:
    """SPEED-SETUP-2/3: side piles of ``side_pile``, a hand of 5 and the rest as stock (15 or
    5; with jokers 16 or 6); the two play piles take one card each."""
    game = cardcore.new_game("speed", 2, options={"side_pile": side, "jokers": jokers}, seed=6)
    counts = {z["name"]: z["count"] for z in game.view(None)["zones"]}
    stock = (20 if side == 5 else 10) - 5 + jokers // 2
    assert counts == {
        "hand.0": 5,
        "hand.1": 5,
        "stock.0": stock,
        "stock.1": stock,
        "side.0": side,
        "side.1": side,
        "pile.L": 1,
        "pile.R": 1,
    }


@pytest.mark.parametrize("jokers", [False, True])
def test_golf_deck_count_at_every_seat_count_up_to_the_largest(jokers: bool) -> None:
    """GOLF-DECK-1/2/3/4 from 2 to 64 seats: 1/2/3 decks (GOLF4/4H: 1/2), then one more at a
    time while the stock left after the deal and the upcard would hold fewer cards than there
    are players; 2 jokers per deck with ``golf.jokers``."""
    cards = {6: 6, 8: 8, 9: 9, 10: 10, "4": 4, "4h": 4}
    per = 54 if jokers else 52
    for layout, dealt in cards.items():
        for n in (*range(2, 12), 15, 16, 17, 20, 24, 25, 31, 32, 33, 40, 47, 48, 49, 63, 64):
            game = cardcore.new_game(
                "golf",
                n,
                rules=["golf.jokers"] if jokers else [],
                options={"layout": layout, "rounds": 1},
                seed=1,
            )
            decks = (
                (1 if n <= 7 else 2)
                if layout in ("4", "4h")
                else (1 if n <= 3 else 2 if n <= 7 else 3)
            )
            while decks * per - n * dealt - 1 < n:
                decks += 1
            assert len(game.logic.deck(n, game.options)) == decks * per, (layout, n)
            assert game.view(None)["table"]["stock"] >= n


@pytest.mark.parametrize(
    ("game_name", "bot", "seats", "options"),
    [
        ("golf", "golf-greedy", 2, {"layout": "4h", "rounds": 1, "max_turns": 1, "dealer": 0}),
        # short games: a person's connection is rate limited (web.rst), so no long match here
        ("golf", "golf-greedy", 3, {"layout": 10, "rounds": 2, "max_turns": 1, "dealer": 2}),
        (
            "tonk",
            "tonk-heuristic",
            4,
            {"max_players": 4, "stake": 1_000_000, "hands": 2, "first_dealer": 3},
        ),
    ],
)
def test_the_web_server_plays_a_game_at_the_bounds_to_its_record(
    game_name: str, bot: str, seats: int, options: dict[str, Any]
) -> None:
    """Through the server: a person at seat 0, bots elsewhere; the frames the person gets are
    JSON views of their seat, and the record the server gives replays to the same result."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from tests.web.helpers import Player, create, serve

    with serve(None) as (client, server, _dog):
        people = [{"name": "Ann"}] + [{"name": f"Bot{i}", "agent": bot} for i in range(1, seats)]
        made = create(client, game_name, people, options=options)
        assert all(made["options"][k] == v for k, v in options.items())
        sid = made["session"]
        with client.websocket_connect("/ws") as ws:
            ann = Player(ws)
            ann.send({"type": "join", "session": sid, "seat": 0})
            ann.until("welcome")
            view = ann.play_to_end(0, limit=20000)
        assert view["is_over"] and view["seat"] == 0
        record = client.get(f"/api/sessions/{sid}/record")
        assert record.status_code == 200
        game = cardcore.replay(record.json())
        assert game.is_over and game.result == server.hub.sessions[sid].game.result  # type: ignore[union-attr]
        assert game.view(0)["table"] == view["table"]
        assert_conserved(game)
        if game_name == "tonk":
            assert game.result is not None and sum(game.result.payouts or ()) == 0


# -- 6. findings: a position read with an option other than the one it was made under ----------
# Golf refuses every such mismatch (round past ``rounds``, ``turns`` past ``max_turns``, a total
# past ``points_limit``, another layout: CORE-POSITION-1). Two readers check less; the docs ask
# for "the same options" (tonk.rst), so these are gaps in the check, not misplays of a game made
# through the API.


def _random_actions(game: Game, count: int, seed: int) -> Game:
    """*count* random legal actions (not through ``play``, whose bound would end the game)."""
    rng = random.Random(seed)
    for _ in range(count):
        if game.is_over:
            break
        seat = rng.choice(list(game.to_act))
        legal = [a for a in game.legal_actions(seat) if not isinstance(a, cardcore.Resign)]
        game.apply(rng.choice(legal))
    return game


def test_tonk_position_balances_must_be_multiples_of_the_stake() -> None:
    game = cardcore.new_game("tonk", 3, options={"hands": 10, "stake": 1_000_000}, seed=1)
    _random_actions(game, 60, seed=1)
    assert not game.is_over and any(game.view(None)["table"]["balances"])
    text = game.position()
    # the same stake reads back; stake 7 does not divide the balances (multiples of 1,000,000)
    cardcore.new_game("tonk", 3, options={"hands": 10, "stake": 1_000_000}, position=text, seed=2)
    with pytest.raises(OptionError, match=r"stake|balances"):
        cardcore.new_game("tonk", 3, options={"hands": 10, "stake": 7}, position=text, seed=2)


def test_speed_position_side_piles_of_another_side_pile_option_are_a_reachable_position() -> None:
    """Not a bug (judged on review): a Speed side pile is refilled by a recycle (SPEED-STUCK-2:
    each play pile but its top card becomes its player's side pile), and ``recycled`` only
    says a recycle happened since the last play, so side piles of 15 are reachable in a
    ``side_pile=5`` game and the reader cannot refuse them. The stocks, which nothing refills,
    are checked against the option's deal sizes (SPEED-SETUP-3)."""
    game = cardcore.new_game("speed", 2, options={"side_pile": 15, "jokers": 0}, seed=1)
    read = cardcore.new_game(
        "speed", 2, options={"side_pile": 5, "jokers": 0}, position=game.position(), seed=2
    )
    sides = [z["count"] for z in read.view(None)["zones"] if z["name"].startswith("side")]
    assert sides == [15, 15]
    wide = cardcore.new_game("speed", 2, options={"side_pile": 5, "jokers": 0}, seed=1)
    with pytest.raises(OptionError, match="stock"):  # 15 stock cards > the 10 of side_pile=15
        cardcore.new_game(
            "speed", 2, options={"side_pile": 15, "jokers": 0}, position=wide.position(), seed=2
        )


# -- 7. finding: Spit at stall_limit=1 breaks the kit's bound contract -------------------------
# The wide sweep (outside the suite) ran 1,167 configurations through check_game; the only
# failures were Spit at stall_limit=1 (no rule, spit.canfield, spit.chooser): "did not end within
# its declared bound of 20000 actions". With 12 kit games per configuration: 4/12 (no rule),
# 2/12 (canfield), 2/12 (chooser) at stall_limit=1; 0/12 at 2, 20 and 1000 (one in four once at
# 2 with canfield, kit seed 11). The bound (SPIT-CAP-1) was a fixed 20,000 actions whatever the
# option (the option's declared minimum is 1); fixed: it is now 20,000 x (20 // stall_limit).

SPIT_LONG_SEEDS = (7,)  # kit seeds whose one game ran past 20,000 actions at stall_limit=1


@pytest.mark.parametrize("limit", [2, 20])
def test_spit_kit_bound_holds_for_those_seeds_at_larger_stall_limits(limit: int) -> None:
    for seed in SPIT_LONG_SEEDS:
        report = check_game(
            "spit",
            players=2,
            options={"stall_limit": limit},
            games=1,
            seed=seed,
            checks={"bound"},
            strict=False,
        )
        assert not report.failures and report.truncated == 0


def test_spit_kit_bound_holds_at_stall_limit_one() -> None:
    for seed in SPIT_LONG_SEEDS:
        report = check_game(
            "spit",
            players=2,
            options={"stall_limit": 1},
            games=1,
            seed=seed,
            checks={"bound"},
            strict=False,
        )
        assert not report.failures, report.failures
