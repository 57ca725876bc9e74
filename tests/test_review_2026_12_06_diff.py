"""Review of the changes 7c3f24a..HEAD (2026-12-06): the core's Result check, hands known
to all shown in views, Tonk's natural and stock-out ``draw``, Game copy/pickle,
``dealing.gather``, simulate's inferred seats, web lobby names.

Strict xfails mark bugs found; the other tests pin behaviour the diff introduced.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import types
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import ALL, GameInfo, Result, Visibility, hookimpl
from cardcore.dealing import gather
from cardcore.search.sampling import deal_view, sample_position, view_config
from tests.conftest import register_test_plugins
from tests.plugins import drawgame
from tests.plugins.drawgame import DrawLogic

register_test_plugins()

ROOT = Path(__file__).resolve().parent.parent


# A Golf save written by 7c3f24a (golf 0.2.0, no max_turns), in its round's final turns:
# its state holds turns=1, counted as the old code counted the turns that could end a round.
OLD_GOLF_SAVE = (
    '{"format":"cardcore-save","format_version":3,"record":{"format":"cardcore-record","f'
    'ormat_version":3,"game":"golf","game_version":"0.2.0","rules":[],"without":[],"optio'
    'ns":{"layout":6,"rounds":null,"points_limit":null,"max_turns":null,"dealer":null},"p'
    'layers":["Player 1","Player 2"],"seed":2,"deck":null,"position":null,"actions":[[0,"'
    'flip 0",null],[0,"flip 1",null],[1,"flip 0",null],[1,"flip 3",null],[0,"draw",null],'
    '[0,"replace 5",null],[1,"take",null],[1,"replace 2",null],[0,"draw",null],[0,"replac'
    'e 4",null],[1,"draw",null],[1,"replace 4",null],[0,"draw",null],[0,"replace 3",null]'
    ',[1,"take",null],[1,"replace 5",null],[0,"take",null],[0,"replace 4",null],[1,"take"'
    ',null],[1,"replace 4",null],[0,"take",null],[0,"replace 0",null],[1,"draw",null],[1,'
    '"replace 2",null],[0,"take",null],[0,"replace 2",null]],"result":null,"truncated":fa'
    'lse},"version":26,"state":{"draws":1,"is_over":false,"players":2,"result":null,"to_a'
    'ct":[1],"zones":{"stock":{"cards":["QC","10C","AC","QS","3H","3C","KH","4S","7D","5D'
    '","9C","10D","5S","6C","5C","2D","8H","QD","KD","QH","9H","2S","5H","AD","JH","7C","'
    '8D","6H","4C","9D","4D","10S","3S","JD"],"seen":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0'
    ',0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]},"discard":{"cards":["8C","JS","AH","KC","6S","10H'
    '"],"seen":[-1,-1,-1,-1,-1,-1]},"held":{"cards":[],"seen":[]},"grid.0":{"cards":["JC"'
    ',"KS","2C","8S","3D","AS"],"seen":[-1,-1,-1,-1,-1,-1]},"grid.1":{"cards":["4H","7H",'
    '"6D","9S","2H","7S"],"seen":[-1,0,-1,-1,-1,-1]}},"dealer":1,"down":[0,1],"ender":0,"'
    'final_left":1,"legal":["draw","take"],"past":[],"phase":1,"plan":"<RoundPlan GOLF6 p'
    'layers=2>","round":1,"setup_done":0,"setup_left":0,"sheet":{"rounds":[],"totals":[0,'
    '0]},"slots":[null,null],"turn":1,"turns":1},"config":{"options":{"layout":6,"rounds"'
    ':null,"points_limit":null,"max_turns":null,"dealer":null},"rules":[],"players":["Pla'
    'yer 1","Player 2"]}}'
)


# A Tonk save written by 7c3f24a (tonk 0.4.0): seeds/tonk/natural-then-deal.json's session after
# the natural and the next deal; its past hand holds every hand shown, as TONK-49-1 read then.
OLD_TONK_NATURAL_SAVE = (
    '{"format":"cardcore-save","format_version":3,"record":{"format":"cardcore-record","f'
    'ormat_version":2,"game":"tonk","game_version":"0.4.0","rules":[{"name":"tonk.natural'
    '-49-50","id":"TONK-49-1","version":"0.1.0"},{"name":"tonk.quiet-round-any-turns","id'
    '":"TONK-VAR-6","version":"0.1.0"},{"name":"tonk.void-deal-counts","id":"TONK-VAR-7",'
    '"version":"0.1.0"}],"without":[],"options":{"max_players":3,"stake":1,"hands":2,"fir'
    'st_dealer":0},"players":["Ann","Bob","Cy"],"seed":7,"deck":["2S","JD","5C","3S","QD"'
    ',"6C","4S","KD","7C","5S","10D","8C","6S","9D","KC","7D"],"position":null,"actions":'
    '[[1,"deal",null]],"result":null,"truncated":false},"version":1,"state":{"draws":2,"i'
    's_over":false,"players":3,"result":null,"to_act":[2],"zones":{"stock":{"cards":["2H"'
    ',"5H","QH","7C","8D","KD","9D","AS","6D","9S","AH","4C","KS","2S","3S","10D","JS","3'
    'C","7S","3D","QD","10H","2C","9H","JH","7D","5C","8S","4S","6H","8C","5D","10S","QC"'
    ',"4H","QS"],"seen":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,'
    '0,0,0,0]},"discard":{"cards":["KC"],"seen":[-1]},"hand.0":{"cards":["AD","6C","8H","'
    '4D","9C"],"seen":[0,0,0,0,0]},"hand.1":{"cards":["KH","6S","5S","JD","2D"],"seen":[0'
    ',0,0,0,0]},"hand.2":{"cards":["10C","JC","7H","AC","3H"],"seen":[0,0,0,0,0]},"spread'
    's":{"cards":[],"seen":[]}},"cut":[],"dealer":1,"hand_no":1,"hands":2,"ledger":{"entr'
    'ies":[["natural",[-2,-2,4]]],"totals":[-2,-2,4]},"melds":[],"next_deals":[],"owners"'
    ':[],"past":[[1,0,"natural",2,[-2,-2,4],[-2,-2,4],[["5C","6C","7C","8C","KC"],["2S","'
    '3S","4S","5S","6S"],["JD","QD","KD","10D","9D"]]]],"phase":0,"quiet_turns":0,"spread'
    '_made":false,"stake":1,"taken":-1,"targets":[],"touched":false,"turn":2,"was_hit":0}'
    ',"config":{"options":{"max_players":3,"stake":1,"hands":2,"first_dealer":0},"rules":'
    '["tonk.natural-49-50","tonk.quiet-round-any-turns","tonk.void-deal-counts"],"players'
    '":["Ann","Bob","Cy"]}}'
)


# -- helpers -------------------------------------------------------------------------------


def _game_module(name: str, logic: type) -> types.ModuleType:
    module = types.ModuleType(f"tests.review_2026_12_06.{name}")
    info = GameInfo(
        name, "review test game", 2, 4, options=drawgame.GAME.options, fields=drawgame.GAME.fields
    )

    @hookimpl
    def create_logic(ruleset: cardcore.Ruleset) -> Any:
        return logic(ruleset)

    @hookimpl(trylast=True)
    def card_points(card: cardcore.Card) -> int:
        return min(int(card.rank), 10)

    vars(module).update(GAME=info, create_logic=create_logic, card_points=card_points)
    return module


class _EndsKeepingTurn(DrawLogic):
    """Ends with a bad result (winner seat 7, NaN scores) but leaves ``to_act`` set."""

    def apply(self, state: Any, action: Any, emit: Any) -> None:
        super().apply(state, action, emit)
        if state.is_over:
            state.result = Result((7,), (float("nan"),) * state.players, None, "x")
            state.to_act = (0,)


class _EndsBadWinner(DrawLogic):
    """Ends properly (to_act empty) but names seat 7 as the winner."""

    def apply(self, state: Any, action: Any, emit: Any) -> None:
        super().apply(state, action, emit)
        if state.is_over:
            state.result = Result((7,), state.result.scores, None, "x")


@pytest.fixture
def registered() -> Iterator[Callable[[str, type], str]]:
    """Register faulty test games for one test, and unregister them after it (so no other
    test that walks every installed game meets them)."""
    names: list[str] = []

    def register(name: str, logic: type) -> str:
        cardcore.register("cardcore.games", name, _game_module(name, logic))
        names.append(name)
        return name

    yield register
    for name in names:
        cardcore.unregister("cardcore.games", name)


def _play_to_end(game: cardcore.Game, limit: int = 5000) -> None:
    for _ in range(limit):
        if game.is_over:
            return
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[0])


def _tonk_after_drop() -> cardcore.Game:
    """A three-hand Tonk session right after the first hand ended by a drop (hands face up)."""
    game = cardcore.new_game("tonk", 3, seed=1, options={"hands": 3})
    game.act(game.to_act[0], "drop")
    assert not game.is_over and [str(a) for a in game.legal_actions(game.to_act[0])] == ["deal"]
    return game


def _hands(view: dict[str, Any]) -> dict[str, list[str | None]]:
    return {z["name"]: z["cards"] for z in view["zones"] if z["name"].startswith("hand")}


def _all_cards(game: cardcore.Game) -> Counter[str]:
    return Counter(str(c) for pile in game.state.zones.cards for c in pile)


# -- the core's Result check -----------------------------------------------------------------


@pytest.mark.parametrize("how", ["apply", "act"])
def test_a_bad_result_is_refused_even_when_the_ending_game_leaves_to_act_set(
    how: str, registered: Callable[[str, type], str]
) -> None:
    """The changelog: the core checks the Result a game sets when it ends (winners are seats,
    finite scores). A game that ends (is_over, result) but forgets to empty ``to_act`` gets
    its result through unchecked (Game.apply checks only when to_act is empty, _bound.commit
    only when it is empty or out of range): seat 7 wins a 2-seat game with NaN scores."""
    name = registered(f"review-ends-keeping-turn-{how}", _EndsKeepingTurn)
    game = cardcore.new_game(name, 2, seed=1)
    with pytest.raises(cardcore.PluginError):
        for _ in range(5000):
            if game.is_over:
                break
            seat = game.to_act[0]
            action = game.legal_actions(seat)[0]
            if how == "apply":
                game.apply(action)
            else:
                game.act(seat, str(action))
    assert not game.is_over, game.result


def test_a_bad_winner_is_refused_and_the_game_put_back(
    registered: Callable[[str, type], str],
) -> None:
    game = cardcore.new_game(registered("review-ends-bad-winner", _EndsBadWinner), 2, seed=1)
    with pytest.raises(cardcore.PluginError, match="winners"):
        _play_to_end(game)
    assert not game.is_over and game.result is None
    before = game.save()
    with pytest.raises(cardcore.PluginError):
        game.apply(game.legal_actions(game.to_act[0])[0])
    assert game.save() == before


def test_old_saves_and_records_still_load_and_pickle() -> None:
    """Records and saves written before the diff (tests/core/data) load, and a loaded game
    pickles through its save (Game.__reduce__) to the same save."""
    data = ROOT / "tests" / "core" / "data"
    files = sorted(data.glob("*_save.json")) + sorted(data.glob("*_record.json"))
    assert files
    for path in files:
        text = path.read_text()
        game = cardcore.load(text) if path.name.endswith("_save.json") else cardcore.replay(text)
        back = pickle.loads(pickle.dumps(game))
        assert back.save() == game.save(), path.name
        assert back.result == game.result, path.name


# -- a hand known to all ---------------------------------------------------------------------


def test_tonk_hands_shown_after_a_drop_show_to_every_seat_and_spectators() -> None:
    game = _tonk_after_drop()
    mine = {f"hand.{s}": _hands(game.view(s))[f"hand.{s}"] for s in range(3)}
    for seat in (0, 1, 2, None):
        assert _hands(game.view(seat)) == mine


def test_a_position_sampled_from_a_view_keeps_a_face_up_hand_face_up() -> None:
    """A sampled position must agree with the view it was sampled from. After a Tonk drop,
    seat 0's view shows every hand; deal_view (and so sample_position, the ISMCTS-on-a-view
    path) marks hand.1 and hand.2 known to their owners only, so the sampled game hides
    cards the seat saw (docs of deal_view: "every card of a hand to its owner")."""
    game = _tonk_after_drop()
    view = game.view(0)
    zones = deal_view(view, view_config(view).deck(), random.Random(0))
    names = [spec.name for spec in zones.layout.specs]
    assert zones.show(names.index("hand.1"), 0) == _hands(view)["hand.1"]
    sampled = cardcore.new_game(
        "tonk", 3, options={"hands": 3}, position=sample_position(view, random.Random(0))
    )
    assert _hands(sampled.view(0)) == _hands(view)


def test_a_position_round_trip_keeps_the_face_up_hands() -> None:
    game = _tonk_after_drop()
    twin = cardcore.new_game("tonk", 3, options={"hands": 3}, position=game.position())
    for seat in (0, 1, None):
        assert _hands(twin.view(seat)) == _hands(game.view(seat))


def test_a_partly_known_hand_stays_hidden() -> None:
    """One card of a hand known to all must not turn the rest face up."""
    game = cardcore.new_game("tonk", 3, seed=4)
    zones = game.state.zones.clone()
    z = [s.name for s in zones.layout.specs].index("hand.1")
    zones.seen[z][0] = ALL
    assert zones.show(z, 0) == [None] * len(zones.cards[z])
    assert not zones.is_visible(z, 1, 0) and not zones.is_visible(z, 1, None)
    zones.seen[z] = [ALL] * len(zones.cards[z])
    shown = zones.show(z, None)  # face up: every seat sees it, sorted (not as it was drawn)
    assert sorted(shown) == sorted(c.text for c in zones.cards[z]) and shown == zones.show(z, 1)


@pytest.mark.parametrize(
    ("name", "players", "rules"),
    [
        ("gofish", 3, ()),
        ("tonk", 3, ()),
        ("tonk", 2, ("tonk.stock-out-discard-only",)),
        ("golf", 2, ()),
    ],
)
def test_no_hand_turns_face_up_during_ordinary_play(
    name: str, players: int, rules: tuple[str, ...]
) -> None:
    """Mid-game no opponent hand shows in a seat's view unless the game turned it face up
    (Tonk between hands); a random play-through of each game finds none."""
    for seed in range(3):
        game = cardcore.new_game(name, players, seed=seed, rules=rules)
        rng = random.Random(seed)
        for _ in range(300):
            if game.is_over:
                break
            z = game.state.zones
            for i, spec in enumerate(z.layout.specs):
                if spec.visibility is Visibility.OWNER and spec.owner is not None:
                    other = (spec.owner + 1) % players
                    assert z.show(i, other) == [None] * len(z.cards[i]), (name, game.version)
            seat = game.to_act[0]
            game.apply(rng.choice(game.legal_actions(seat)))


# -- Tonk ------------------------------------------------------------------------------------


def test_tonk_natural_shows_only_its_holders_hand() -> None:
    """TONK-49-1 (seed: the holder "must declare it and show their cards")."""
    data = json.loads((ROOT / "seeds" / "tonk" / "natural-then-deal.json").read_text())
    record = {k: v for k, v in data.items() if k not in ("expected", "comment")}
    record["actions"] = []
    record["game_version"] = cardcore.game_info("tonk").version  # as played today (TONK-VAR-8)
    game = cardcore.replay(record)
    spectator = _hands(game.view(None))
    assert spectator["hand.0"] == [None] * 5 and spectator["hand.1"] == [None] * 5
    assert None not in spectator["hand.2"]
    assert _hands(game.view(0))["hand.1"] == [None] * 5
    entry = game.history(None)[-1]
    assert entry["reason"] == "natural" and entry["shown"][:2] == [None, None]
    assert entry["totals"][:2] == [None, None] and entry["totals"][2] == 49


def test_tonk_stock_out_discard_only_draw_ends_the_hand_with_every_card_kept() -> None:
    """TONK-VAR-5 / TONK-GAP-3: with the stock out, ``draw`` asks for it and ends the hand as
    TONK-STOCK-2; every hand is shown; no card is lost."""
    for seed in range(30):
        game = cardcore.new_game(
            "tonk", 2, seed=seed, rules=("tonk.stock-out-discard-only",), options={"hands": 2}
        )
        rng = random.Random(seed)
        for _ in range(2000):
            if game.is_over:
                break
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            texts = [str(a) for a in legal]
            if not game.state.zones.cards[0] and "draw" in texts:
                before = _all_cards(game)
                game.act(seat, "draw")
                entry = game.history(None)[-1]
                assert entry["reason"] == "stock-out" and None not in entry["shown"]
                assert _all_cards(game) == before
                for s in (0, 1, None):
                    assert all(None not in cards for cards in _hands(game.view(s)).values())
                return
            game.apply(rng.choice([a for a in legal if str(a) != "drop"] or legal))
    pytest.fail("no turn began with the stock out")


# -- dealing.gather --------------------------------------------------------------------------


def test_gather_puts_every_card_on_the_stock_forgotten() -> None:
    game = _tonk_after_drop()
    state = game.state.clone()
    zones = state.zones
    cards = Counter(str(c) for pile in zones.cards for c in pile)
    gather(state, 0)
    assert Counter(str(c) for c in zones.cards[0]) == cards
    assert all(not pile for pile in zones.cards[1:]) and all(not m for m in zones.seen[1:])
    assert zones.seen[0] == [0] * len(zones.cards[0])


# -- Game copy and pickle --------------------------------------------------------------------


def test_pickle_of_a_truncated_game_stays_truncated() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    for _ in range(3):
        game.apply(game.legal_actions(game.to_act[0])[0])
    game.truncate()
    back = pickle.loads(pickle.dumps(game))
    assert back.is_over and back.result == game.result and back.result.reason == "truncated"
    assert back.save() == game.save()


def test_pickle_of_a_real_time_game_keeps_its_times() -> None:
    game = cardcore.new_game("spit", 2, seed=1)
    rng = random.Random(2)
    for i in range(10):
        if game.is_over:
            break
        legal = game.legal_actions(game.to_act[0])
        if legal:
            game.apply(rng.choice(legal), at=float(i))
    back = pickle.loads(pickle.dumps(game))
    assert back.record_entries() == game.record_entries() and back.save() == game.save()


def test_pickle_of_a_game_from_a_position() -> None:
    start = cardcore.new_game("tonk", 3, seed=9)
    game = cardcore.new_game("tonk", 3, position=start.position())
    game.apply(game.legal_actions(game.to_act[0])[0])
    back = pickle.loads(pickle.dumps(game))
    assert back.position() == game.position() and back.save() == game.save()


def test_deepcopy_keeps_shared_identity() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    pair = copy.deepcopy([game, game])
    assert pair[0] is pair[1] and pair[0] is not game


# -- simulate's seats ------------------------------------------------------------------------


def test_simulate_seats_as_many_as_a_lineup_names() -> None:
    summary = cardcore.simulate("golf", games=2, agents="random,random,random", seed=3)
    assert summary.players == 3 and len(summary.mean_scores) == 3
    summary = cardcore.simulate("golf", games=2, agents=["random"] * 3, seed=3)
    assert summary.players == 3


def test_simulate_chunks_give_the_same_summary() -> None:
    a = cardcore.simulate("golf", games=7, players=2, seed=5, chunk=1)
    b = cardcore.simulate("golf", games=7, players=2, seed=5, chunk=3)
    c = cardcore.simulate("golf", games=7, players=2, seed=5, chunk=100)
    assert a == b == c and a.games == 7


# -- web lobby names -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["\u200b", "\u200f", "\u3164", "\u2800", "\ufeff"])
def test_a_lobby_name_that_shows_as_nothing_is_refused(name: str) -> None:
    """Changelog: "a lobby seat name of spaces only, or holding a control character or a
    direction override, is refused" (names that would show as another). A name made of a
    zero-width space, a right-to-left mark, a Hangul filler or a Braille blank shows as
    nothing (or as "" next to another name) and is accepted."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from cardcore.web import WebServer
    from tests.web.helpers import TestClient, create_app

    server = WebServer(None, bot_delay=0.0)
    with TestClient(create_app(server)) as client:
        r = client.post("/api/sessions", json={"game": "golf", "seats": [{"name": name}, {}]})
        assert r.status_code == 400 and "name" in r.json()["error"], r.text


def test_a_face_up_hand_does_not_show_the_order_its_cards_were_drawn_in() -> None:
    """Seat 1 draws a card from the stock (its CardDrawn shows only to seat 1); after a drop
    the hands are face up in every view, listed top first as the pile lies: the card seat 1
    drew sits first, so seat 0 learns which card that was. The history and HandEnded list
    the same hands sorted (cardcore_tonk.views._hand_entry); the views should not say more
    than they do (design: hidden information never leaks, views included)."""
    game = cardcore.new_game("tonk", 3, seed=2, options={"hands": 3})
    drawn: dict[int, str] = {}
    for _ in range(3):  # seats 0, 1, 2 each draw from the stock, then discard a dealt card
        seat = game.to_act[0]
        before = set(_hands(game.view(seat))[f"hand.{seat}"])
        game.act(seat, "draw")
        (new,) = set(_hands(game.view(seat))[f"hand.{seat}"]) - before
        drawn[seat] = str(new)
        discard = next(
            a
            for a in game.legal_actions(seat)
            if str(a).startswith("discard") and str(a) != f"discard {new}"
        )
        game.apply(discard)
    assert game.to_act == (0,)
    game.act(0, "drop")
    assert game.history(None)[-1]["reason"].startswith("drop")
    for other in (1, 2):
        shown = _hands(game.view(0))[f"hand.{other}"]
        assert None not in shown and drawn[other] in shown
        order = [c for c in game.history(0)[-1]["shown"][other]]
        assert shown in (order, order[::-1]), (shown, order, drawn[other])


@pytest.mark.parametrize("seats", [[{"name": "Ann"}, {"name": "Ann"}], [{"name": "Player 2"}, {}]])
def test_lobby_names_that_show_as_another_seat_are_refused(seats: list[dict[str, str]]) -> None:
    """docs/web.rst: a refused name "would show as another name"; the commit: "lobby names
    that would show as another are refused". Two seats shown as "Ann", or seat 0 named
    "Player 2" beside seat 1's default "Player 2", are accepted."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from cardcore.web import WebServer
    from tests.web.helpers import TestClient, create_app

    server = WebServer(None, bot_delay=0.0)
    with TestClient(create_app(server)) as client:
        r = client.post("/api/sessions", json={"game": "golf", "seats": seats})
        assert r.status_code == 400 and "name" in r.json()["error"], r.text


def test_golf_ender_penalty_variants() -> None:
    """GOLF-PEN-4/5/6: who pays, and the literal penalty B lowering the ender's score."""
    from cardcore_golf.grids import LAYOUTS, ender_pays
    from cardcore_golf.house import ender_penalty_lowest, ender_penalty_lowest_literal

    assert ender_pays([5, -3], 0, False) and not ender_pays([-3, 5], 0, False)
    assert not ender_pays([4, 4, 9], 0, False) and ender_pays([4, 4, 9], 0, True)
    assert not ender_pays([3, 4, 4], 0, True)  # alone lowest never pays
    shape = LAYOUTS["6"]
    assert ender_penalty_lowest.golf_ender_penalty(shape, (5, -3), 0, True) == 0
    assert ender_penalty_lowest_literal.golf_ender_penalty(shape, (5, -3), 0, True) == -3
    assert ender_penalty_lowest_literal.golf_ender_penalty(shape, (5, -3), 0, False) == 0


def test_history_since_refused_without_a_seat_rule() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(cardcore.IllegalActionError, match="since") as info:
        game.history(since=-1)
    assert info.value.rule_id is None


def _fixed(summary: Any) -> tuple[Any, ...]:
    """A compare summary without its timings (they differ run to run)."""
    s = summary
    return (s.games, s.agents, s.seat_wins, s.actions, s.rounds, s.spread, s.reasons, s.skill)


def test_compare_chunk_ranges_give_the_same_study() -> None:
    """compare's chunks now name a range of games (task, stop): every chunk size plays the
    same games, the skill probe's included, as one chunk does."""
    runs = [
        cardcore.compare("golf", games=5, seed=2, chunk=c, skill="auto", vs=["golf.jokers"])
        for c in (1, 2, 5)
    ]
    first = (_fixed(runs[0].a), _fixed(runs[0].b))
    assert all((_fixed(r.a), _fixed(r.b)) == first for r in runs[1:])
    assert runs[0].a.games == 5


def test_compare_seats_as_many_as_a_lineup_names() -> None:
    result = cardcore.compare("golf", games=2, agents="random,random,random", skill=None)
    assert result.a.agents == ("random",) * 3 and result.b.agents == ("random",) * 3


def test_an_old_golf_save_in_its_final_turns_still_loads() -> None:
    """2732664 says "saves made before every turn was counted still load"; GolfState.snapshot
    now writes turns=0 without a cap, but the old code counted, without a cap too, the turns
    that could end a round (the final turns), and saved that count. Every such save (every
    finished uncapped Golf game, every save in final turns) fails load() with
    CorruptStateError "saved state does not match the state its record replays to", though
    its record replays (the only difference is ``turns``)."""
    data = json.loads("".join(OLD_GOLF_SAVE))
    assert data["state"]["turns"] == 1 and data["record"]["options"]["max_turns"] is None
    replayed = cardcore.replay(data["record"])  # the record itself is sound
    assert replayed.version == data["version"]
    game = cardcore.load(data)
    assert game.version == data["version"] and game.position() == replayed.position()


def test_an_old_tonk_save_past_a_natural_still_loads() -> None:
    """1708bcf changed what a natural shows (TONK-49-1: only the holder's hand) without a new
    tonk version: a save written yesterday by tonk 0.4.0 of a session that had a natural holds
    every hand in its past hand's ``shown``; load() replays the record with today's rule and
    refuses the save as corrupt ("saved state does not match"). An old save must load (or
    be refused naming the version change), and a changed replay needs a new game version."""
    data = json.loads("".join(OLD_TONK_NATURAL_SAVE))
    assert data["record"]["game_version"] == "0.4.0"
    replayed = cardcore.replay(data["record"])  # the record itself is sound
    assert replayed.version == data["version"]
    game = cardcore.load(data)
    assert game.version == data["version"]


def test_a_face_up_layout_held_in_hand_shows_in_its_positions() -> None:
    """A face-up hand shows sorted, but Golf's four-card layout held in hand ("4h") is a
    hand whose order is the game (replace position 2 means the third card): once the
    round ends and it lies face up, every view shows it position by position (ZoneSpec.ordered)."""
    game = cardcore.new_game(
        "golf", 4, rules=["golf.hard"], options={"layout": "4h", "rounds": 1}, seed=0
    )
    rng = random.Random(0)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    zones = game.state.zones
    for seat in range(4):
        z = zones.layout.id(f"grid.{seat}")
        truth = [c.text for c in reversed(zones.cards[z])]
        for viewer in (None, 0, 1, 2, 3):
            shown = next(e for e in game.view(viewer)["zones"] if e["name"] == f"grid.{seat}")
            assert shown["cards"] == truth, (seat, viewer)
