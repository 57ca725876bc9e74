"""Review of 52460a2..HEAD: the real-time plugin page (docs/plugin-guide/realtime.rst) tried
as a plugin author would, its claims checked against behaviour.

The page's ``.. testcode:: slapjack`` blocks are read from the page and run as one module
(registered in process with :func:`cardcore.register`, as the page shows); every deal here
is stacked (``deck=``) or seeded, so no assertion depends on a random deal.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import textwrap
import types
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import SPECTATOR, Card, Event
from cardcore.testing import check_game

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "plugin-guide" / "realtime.rst"
NAME = "slapjack"
RANKS = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
FULL_DECK = Counter(f"{rank}{suit}" for rank in RANKS for suit in "CDHS")


def _blocks() -> list[str]:
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    blocks: list[str] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == f".. testcode:: {NAME}":
            body: list[str] = []
            i += 1
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("   ")):
                body.append(lines[i])
                i += 1
            blocks.append(textwrap.dedent("\n".join(body)))
        else:
            i += 1
    return blocks


def _load() -> types.ModuleType:
    module = types.ModuleType("slapjack_review_2026_12_30")
    exec(compile("\n\n".join(_blocks()), str(PAGE), "exec"), module.__dict__)
    return module


SLAP = _load()


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    cardcore.register("cardcore.games", NAME, SLAP)
    yield
    cardcore.unregister("cardcore.games", NAME)


def _cards(game: cardcore.Game) -> Counter[str]:
    return Counter(str(card) for card in game.state.zones.all_cards())


def _raced() -> cardcore.Game:
    game = cardcore.new_game(NAME, ["Ann", "Bob"], deck="5C JH", seed=1)
    game.act(0, "flip", at=0.5)
    game.act(1, "flip", at=1.0)
    game.act(0, "slap JH", at=1.3, seen=2)
    return game


def _stacks_hidden(view: dict[str, Any]) -> bool:
    return all(set(z["cards"]) <= {None} for z in view["zones"][1:])


# --- the page's code is one module a reader can save ----------------------------------------


def test_the_blocks_joined_are_one_importable_module_with_the_documented_names() -> None:
    assert len(_blocks()) == 5
    for name in ("GAME", "create_logic", "Flip", "Slap", "SlapjackLogic", "Slapper"):
        assert hasattr(SLAP, name), name
    assert SLAP.GAME.name == NAME and SLAP.GAME.realtime
    assert isinstance(SLAP.Slapper(0.2), cardcore.RealtimeAgent)


# --- who may act; stale, illegal, CORE-RECORD-1 -------------------------------------------


def test_every_seat_in_to_act_only_the_turn_flips_nobody_slaps_before_a_jack() -> None:
    game = cardcore.new_game(NAME, ["Ann", "Bob"], deck="5C JH", seed=1)
    assert game.to_act == (0, 1)
    assert (game.view(0)["legal"], game.view(1)["legal"]) == (["flip"], [])
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(1, "flip")
    assert info.value.rule_id == "SLAP-FLIP-1"
    assert not isinstance(info.value, cardcore.StaleActionError)


def test_the_race_stale_then_illegal_then_an_earlier_stamp_refused_nothing_changed() -> None:
    game = _raced()
    before = (game.position(), game.version, game.record())
    with pytest.raises(cardcore.StaleActionError) as stale:
        game.act(1, "slap JH", at=1.35, seen=2)
    assert stale.value.rule_id == "CORE-RT-1"
    with pytest.raises(cardcore.IllegalActionError) as bad:
        game.act(1, "slap 5C", at=1.4, seen=2)
    assert not isinstance(bad.value, cardcore.StaleActionError)
    assert bad.value.rule_id == "SLAP-SLAP-1"
    with pytest.raises(cardcore.IllegalActionError) as early:
        game.act(0, "flip", at=1.2)
    assert early.value.rule_id == "CORE-RECORD-1"
    assert (game.position(), game.version, game.record()) == before
    assert game.record()["actions"] == [[0, "flip", 0.5], [1, "flip", 1.0], [0, "slap JH", 1.3]]
    assert game.view(None)["table"] == {"turn": 0, "counts": [27, 25]}
    assert _cards(game) == FULL_DECK


# --- the rules as written: the slap, the slapper flips next, out seats, the winner ----------


def test_the_slap_puts_the_pile_under_the_slappers_stack_and_the_slapper_flips_next() -> None:
    # three seats, a stacked deck: seat 0 flips 5C, seat 1 2D, seat 2 JH; seat 1 slaps
    game = cardcore.new_game(NAME, 3, deck="5C 2D JH 9S", seed=4)
    for seat in (0, 1, 2):
        game.act(seat, "flip")
    assert game.view(None)["table"]["turn"] == 0
    top_before = game.state.zones.cards[SLAP.stack(1)][-1]  # seat 1's next card to flip
    game.act(1, "slap JH")
    zones = game.state.zones
    assert Counter(map(str, zones.cards[SLAP.stack(1)][:3])) == Counter(["5C", "2D", "JH"])
    assert zones.cards[SLAP.stack(1)][-1] == top_before  # under the stack, not on it
    assert set(zones.seen[SLAP.stack(1)][:3]) == {0}  # face down: nobody knows them
    assert zones.cards[SLAP.PILE] == []
    assert game.view(None)["table"] == {"turn": 1, "counts": [17, 19, 16]}  # SLAP-SLAP-1
    assert (game.view(0)["legal"], game.view(1)["legal"]) == ([], ["flip"])
    assert _cards(game) == FULL_DECK


def _until_out_with_a_jack_on_top(seed: int) -> tuple[cardcore.Game, int] | None:
    """Seat 1 slaps every jack while three are in, the turn's seat flips; stop once a seat
    is out, the game goes on and a jack is on top."""
    game = cardcore.new_game(NAME, 3, seed=seed)
    while not game.is_over:
        pile = game.view(None)["zones"][0]["cards"]
        if len(game.to_act) == 2 and pile and pile[0].startswith("J"):
            return game, ({0, 1, 2} - set(game.to_act)).pop()
        legal = [str(a) for a in game.legal_actions(1)]
        slap = next((text for text in legal if text.startswith("slap")), None)
        if slap is not None and len(game.to_act) == 3:
            game.act(1, slap)
        else:
            game.act(game.view(None)["table"]["turn"], "flip")
    return None


def test_a_seat_out_of_cards_may_not_slap_a_jack_on_top() -> None:
    found = _until_out_with_a_jack_on_top(3)
    assert found is not None
    game, out = found
    jack = game.view(None)["zones"][0]["cards"][0]
    assert game.view(None)["table"]["counts"][out] == 0 and not game.is_over
    assert game.view(out)["legal"] == [] and game.legal_actions(out) == ()
    assert f"slap {jack}" in game.view(game.to_act[0])["legal"]  # the others may
    before = (game.position(), game.version)
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(out, f"slap {jack}")
    assert info.value.rule_id == "SLAP-OUT-1"
    assert (game.position(), game.version) == before


def test_the_seat_flipping_its_last_card_is_out_and_the_last_seat_in_wins() -> None:
    # two seats of 26; nobody slaps: seat 0 flips its 26th card at the 51st flip
    game = cardcore.new_game(NAME, 2, deck="5C 6C", seed=9)
    flips = 0
    while not game.is_over:
        game.act(game.view(None)["table"]["turn"], "flip")
        flips += 1
    assert flips == 51
    assert game.result is not None
    assert game.result.winners == (1,) and game.result.reason == "last seat in"
    assert game.result.scores == (0.0, 1.0) and game.to_act == ()


def _a_won_jack_back_on_top() -> tuple[cardcore.Game, int, Card, int]:
    """Two seats, seeded slappers (random.Random(0)) slap each jack, the turn's seat flips
    otherwise; stop when a jack won earlier is on top again within STALE_WINDOW versions of
    the view its losing seat slapped on: (game, loser, jack, that view's version)."""
    game = cardcore.new_game(NAME, 2, seed=0)
    rng = random.Random(0)
    won: list[tuple[int, Card, int]] = []  # (seen version, jack, the seat that lost it)
    while not game.is_over and game.version < 400:
        top = game.state.zones.top(SLAP.PILE)
        if top is not None and str(top).startswith("J"):
            for seen, jack, loser in won:
                recent = game.version - seen < cardcore.STALE_WINDOW
                if jack == top and recent and loser in game.to_act:
                    return game, loser, jack, seen
            seat = rng.choice(game.to_act)
            won.append((game.version, top, 1 - seat))
            game.act(seat, f"slap {top}")
        else:
            game.act(game.view(None)["table"]["turn"], "flip")
    raise AssertionError("no won jack came back on top")


def test_a_slap_made_on_a_view_of_a_jack_won_since_is_applied_when_it_is_back() -> None:
    """The page (as corrected after this review): a late ``slap JH`` is stale until that
    same jack is on top again; then it is legal, and applied (legality alone decides)."""
    game, loser, jack, seen = _a_won_jack_back_on_top()
    assert game.version - seen > 2  # the jack was won and went round the slapper's stack
    before = game.version
    assert game.act(loser, f"slap {jack}", seen=seen).seat == loser
    assert game.version == before + 1
    assert "until that same jack" in " ".join(PAGE.read_text().split())


# --- the virtual clock: the page's narrative ----------------------------------------------


def test_ann_wins_every_jack_bob_runs_out_every_card_kept_times_in_order() -> None:
    game = _raced()
    slaps: list[int] = []
    sizes: list[int] = []

    def watch(game: cardcore.Game, action: cardcore.Action, at: float) -> None:
        if isinstance(action, SLAP.Slap):
            slaps.append(action.seat)
        sizes.append(sum(z["count"] for z in game.view(None)["zones"]))

    result = cardcore.run_realtime(
        game, [SLAP.Slapper(0.2), SLAP.Slapper(0.3)], seed=1, on_action=watch
    )
    assert slaps and set(slaps) == {0}  # "wins every jack"
    assert (result.winners, result.scores, result.reason) == ((0,), (44.0, 0.0), "last seat in")
    assert game.view(None)["zones"][0]["count"] == 8 and set(sizes) == {52}
    assert _cards(game) == FULL_DECK
    times = [at for _, _, at in game.record()["actions"]]
    assert times == sorted(times) and times[3] >= 1.3  # carried on from 1.3 s
    assert cardcore.replay(game.record()).position() == game.position()


def test_three_seats_to_act_shrinks_and_the_quickest_wins() -> None:
    three = cardcore.new_game(NAME, 3, seed=2)
    seen: list[tuple[int, ...]] = []
    result = cardcore.run_realtime(
        three,
        [SLAP.Slapper(0.3), SLAP.Slapper(0.2), SLAP.Slapper(0.4)],
        seed=2,
        on_action=lambda game, action, at: seen.append(game.to_act),
    )
    assert list(dict.fromkeys(seen)) == [(0, 1, 2), (0, 1), ()]
    assert (result.winners, result.reason) == ((1,), "last seat in")


# --- hidden information: views and every seat's event stream ------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_no_stack_card_in_any_seats_view_or_events_while_the_game_runs(players: int) -> None:
    carded: dict[object, list[tuple[str, str]]] = {}
    game: cardcore.Game | None = None

    def listener(who: object) -> Any:
        def got(event: Event) -> None:
            for field, value in event.fields().items():
                if isinstance(value, Card):
                    assert game is not None
                    # a card a seat is told of is the one just turned face up on the pile
                    top = game.state.zones.top(SLAP.PILE)
                    ok = event.slug == "card-moved" and event.dst == "pile" and value == top
                    carded.setdefault(who, []).append((event.slug, field))
                    assert ok or game.is_over, (who, event)

        return got

    viewers: list[object] = [*range(players), SPECTATOR]
    subs = [(Event, listener(who), who) for who in viewers]
    game = cardcore.new_game(NAME, players, seed=11, subscribers=subs)
    agents = [SLAP.Slapper(0.2 + 0.05 * s) for s in range(players)]
    views = 0

    def watch(g: cardcore.Game, action: cardcore.Action, at: float) -> None:
        nonlocal views
        if g.is_over:
            return
        for seat in [*range(players), None]:
            assert _stacks_hidden(g.view(seat)), (seat, g.version)
            views += 1

    result = cardcore.run_realtime(game, agents, seed=11, on_action=watch)
    assert result.reason == "last seat in" and views > 50
    assert set(carded) == set(viewers)  # every stream saw the flipped cards, and only them
    assert _cards(game) == FULL_DECK


def test_at_the_end_the_stacks_are_shown_the_page_does_not_say_so() -> None:
    # SLAP-DEAL-1 says nobody sees a stack's cards; end_game's default reveal shows them
    game = _raced()
    cardcore.run_realtime(game, [SLAP.Slapper(0.2), SLAP.Slapper(0.3)], seed=1)
    assert game.is_over
    assert not _stacks_hidden(game.view(1))


# --- the kit, the command, the web server -------------------------------------------------


def test_the_kit_as_the_page_calls_it() -> None:
    report = check_game(NAME, players=3, games=2)
    assert (report.ok, report.cards_lost, report.leaks) == (True, 0, 0), report
    assert sorted(report.skipped) == ["scores"]


def test_the_command_lists_and_simulates_it_in_the_registering_process() -> None:
    from cardcore.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(
            ["simulate", NAME, "-n", "2", "-q", "--seed", "1", "--players", "3", "--json", "-"]
        )
    assert status == 0
    summary = json.loads(out.getvalue())
    assert (summary["game"], summary["games"], summary["players"]) == (NAME, 2, 3)
    assert summary["reasons"] == {"last seat in": 2} and sum(summary["wins"]) == 2


def test_the_web_server_lists_serves_and_plays_it_to_the_end_without_leaks() -> None:
    pytest.importorskip("starlette")
    from tests.web.helpers import Player, create, serve

    with serve() as (client, server, dog):
        games = {g["name"]: g for g in client.get("/api/games").json()}
        assert games[NAME]["realtime"] is True
        seats = [{"name": "Ann"}, {"name": "Bot", "agent": "random", "params": {"seed": 1}}]
        sid = create(client, NAME, seats)["session"]
        with client.websocket_connect("/ws") as ws:
            ann = Player(ws)
            ann.send({"type": "join", "session": sid, "seat": 0})
            for _ in range(5000):
                message = ann.recv()
                view = ann.mirror.view
                if view is None:
                    continue
                if view["is_over"]:
                    break
                assert _stacks_hidden(view)
                if message["type"] in ("view", "update", "error") and view["legal"]:
                    act = {"type": "act", "action": view["legal"][-1], "seen": ann.mirror.version}
                    ann.send(act)
            assert ann.view["is_over"]
        game = server.hub.sessions[sid].game
        assert game is not None and game.result is not None
        assert game.result.reason == "last seat in" and _cards(game) == FULL_DECK
        assert dog.frames > 10  # every frame went through the session kit's leak check
