"""Hidden-information audit of the 2026-12-18 changes (``git diff 91a0cda..HEAD``).

Surfaces checked, as a seat trying to learn more than it has seen would read them:

* Tonk's view field ``shown`` and the position field ``shown`` / state ``last_shown``
  between hands and at the end: views, positions read back, twins (two games a seat cannot
  tell apart) and search samples (``sample_position`` / ``position_from_view``);
* ``tonk_out_units`` reading options: a refused answer at a tonk-out tells no seat a card;
* the session's losing on time: which seat a forfeit spares is a function of what every
  seat sees, and tied clocks are ordered by a draw from the game's seed alone (in a fair
  deal: verifiable from the revealed seed, never from the cards);
* the web layer: ``GET /api/sessions/{id}`` (bot seat ``link``, ``time.forfeit``) names no
  card, every frame passes the watchdog.

Every strict xfail would be a bug; every other test is a claim that held when run.
Everything is seeded or a stacked deck.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

import cardcore
from cardcore import Game, Resign
from cardcore.search import sample_position
from cardcore.session import MemoryStore, Session, SessionConfig, TimeControl, verify_bundle
from cardcore.session._timeouts import nothing_now as _nothing_now
from cardcore.session.clocks import _draw
from cardcore.session.patch import card_words
from tests.session.kit import Table, messages, table
from tests.test_hidden_info_2026_12_07 import hidden_swap, play, view_problems
from tests.test_review_2026_12_18 import _deck_for, _public_hand_after_a_tonk_out

TONK = [
    (2, {"hands": 3}, ()),
    (3, {"hands": 3}, ()),
    (2, {"hands": 3}, ("tonk.natural-49-50",)),
    (3, {"hands": 2}, ("tonk.deal-shows-every-hand",)),
]
TONK_IDS = [f"{n}-{'+'.join(r) or 'plain'}" for n, _, r in TONK]


def _between(n: int, options: dict[str, Any], rules: tuple[str, ...], seed: int) -> list[Game]:
    """Clones of a seeded random Tonk game at each point between hands or at its end."""
    out = []
    for game in play("tonk", n, options, rules, seed, limit=250):
        if game.view(None)["table"]["phase"] in ("between", "over"):
            out.append(game.clone())
    return out


def _natural() -> Game:
    """Seat 0 holds a natural (TONK-NAT): its hand shows, seat 1's stays hidden."""
    return cardcore.new_game(
        "tonk",
        2,
        deck=_deck_for(["KS KH KD KC QS", "2C 3D 4H 5S 7C"], 1, "9H", "AD 2D"),
        seed=3,
        rules=["tonk.natural-49-50"],
        options={"first_dealer": 1, "hands": 2},
    )


def test_tonk_a_natural_and_a_tonk_out_leave_hidden_hands_hidden_in_twins_and_samples() -> None:
    """The two ends that leave some hand hidden between hands: twins read alike, samples of
    twins are equal, the sample's view is the seat's view, and the hidden cards vary."""
    rng = random.Random(1)
    twins = 0
    for game, rules in (
        (_natural(), ["tonk.natural-49-50"]),
        (_public_hand_after_a_tonk_out(), []),
    ):
        for seat in (0, 1):
            view = game.view(seat)
            assert view_problems(game, seat) == []
            twin = hidden_swap(game, seat, rng)  # (None: all it has not seen lies in the stock)
            if twin is not None:
                twins += 1
                assert twin.view(seat) == view
                again = sample_position(twin.view(seat), random.Random(0))
                assert again == sample_position(view, random.Random(0))
            texts = {sample_position(view, random.Random(k)) for k in range(4)}
            assert len(texts) > 1
            for text in texts:
                sample = cardcore.new_game(
                    "tonk", 2, position=text, seed=1, rules=rules, options={"hands": 2}
                )
                assert sample.view(seat)["table"] == view["table"]
                assert sample.view(seat)["zones"] == view["zones"]
    assert twins >= 1  # seat 0 of the natural: seat 1's hidden hand and the stock


# -- Tonk: shown, positions and samples --------------------------------------------------------


@pytest.mark.parametrize(("n", "options", "rules"), TONK, ids=TONK_IDS)
def test_tonk_between_hands_views_samples_and_twins_leak_nothing(
    n: int, options: dict[str, Any], rules: tuple[str, ...]
) -> None:
    """Between hands a seat's view, its samples and the samples' own views show only what
    it knows; a twin (two cards it has not seen swapped) reads and samples alike; ``shown``
    in a sample names only hands every seat knows, and the sample's table equals the view's."""
    rng = random.Random(5)
    checked = 0
    for k, game in enumerate(_between(n, options, rules, 7) + _between(n, options, rules, 8)):
        if k % 2:
            continue
        for seat in [*range(n), None]:
            assert view_problems(game, seat) == [], (seat, game.version)
        for seat in range(n):
            view = game.view(seat)
            twin = hidden_swap(game, seat, rng)
            if twin is not None:
                assert twin.view(seat) == view
                assert twin.history(seat) == game.history(seat)
            if game.is_over:  # (a finished game has nothing to sample for)
                continue
            text = sample_position(view, random.Random(k))
            if twin is not None:
                assert sample_position(twin.view(seat), random.Random(k)) == text
            sample = cardcore.new_game(
                "tonk", n, position=text, seed=3, rules=list(rules), options=options
            )
            assert sample.view(seat)["table"] == view["table"]
            assert sample.view(seat)["zones"] == view["zones"]
            zones = sample.state.zones
            for s in sample.state.last_shown or ():  # (read() refuses otherwise; checked again)
                hand = next(i for i, sp in enumerate(zones.layout.specs) if sp.name == f"hand.{s}")
                assert all(
                    zones.knows(hand, i, other)
                    for other in range(n)
                    for i in range(len(zones.cards[hand]))
                )
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize(("n", "options", "rules"), TONK[:2], ids=TONK_IDS[:2])
def test_tonk_positions_between_hands_read_back_and_twins_stay_twins(
    n: int, options: dict[str, Any], rules: tuple[str, ...]
) -> None:
    """A position read back gives every seat the view's ``shown`` and zones; the positions of
    twins read back as twins (``last_shown`` carries nothing the seat has not seen)."""
    rng = random.Random(9)
    games = _between(n, options, rules, 7)
    assert games
    for game in games[:6]:
        copy = cardcore.new_game("tonk", n, position=game.position(), seed=1, options=options)
        for seat in [*range(n), None]:
            assert copy.view(seat)["table"]["shown"] == game.view(seat)["table"]["shown"]
            assert copy.view(seat)["zones"] == game.view(seat)["zones"]
        for seat in range(n):
            twin = hidden_swap(game, seat, rng)
            if twin is None:
                continue
            back = cardcore.new_game("tonk", n, position=twin.position(), seed=1, options=options)
            assert back.view(seat)["table"] == copy.view(seat)["table"]
            assert back.view(seat)["zones"] == copy.view(seat)["zones"]


def test_tonk_after_a_tonk_out_a_sample_keeps_the_public_hand_and_hides_the_rest() -> None:
    """After a tonk-out seat 1's hand of a taken card shows (known to all) with shown false;
    seat 0's sample keeps that card and draws the rest from what seat 0 has not seen."""
    game = _public_hand_after_a_tonk_out()
    view = game.view(0)
    assert view["table"]["shown"] == [False, False]
    worlds = set()
    for k in range(6):
        text = sample_position(view, random.Random(k))
        assert re.search(r" shown=\[\] ", text.split("|", 1)[0]), text  # names no hand
        sample = cardcore.new_game("tonk", 2, position=text, seed=2, options={"hands": 2})
        assert sample.view(0)["table"] == view["table"]
        assert sample.view(0)["zones"] == view["zones"]
        worlds.add(sample.position())
    assert len(worlds) > 1  # the hidden places are drawn, not copied from the truth


def test_tonk_a_position_naming_a_hidden_hand_shown_is_refused_without_its_cards() -> None:
    """position.py: ``shown`` may name only hands known to all; the refusal names a seat,
    never the cards of the hand that is not known."""
    game = _natural()
    zones = game.state.zones
    hand = zones.layout.index["hand.1"]
    hidden = [(1, [c.text for c in zones.cards[hand]])]
    assert not any(zones.knows(hand, i, 0) for i in range(len(zones.cards[hand])))
    text = re.sub(r" shown=\[[0-9,]*\]", "", game.position())
    bad = text.replace(' phase="between"', ' phase="between" shown=[0,1]', 1)
    assert bad != text
    with pytest.raises(cardcore.CardcoreError) as info:
        cardcore.new_game("tonk", 2, position=bad, seed=1, options={"hands": 2})
    message = str(info.value)
    assert f"seat {hidden[0][0]}" in message and "known to all" in message
    assert not set(card_words(message)) & set(hidden[0][1]), message


# -- tonk_out_units with options ----------------------------------------------------------------


def test_a_refused_tonk_out_units_answer_tells_no_seat_a_card() -> None:
    """A house rule's answer refused under the game's options at a tonk-out: the acting seat
    hears an internal error naming the plugin, the other seat hears nothing, no card named."""
    from tests.test_review_2026_12_18_late import RULES, TONK_OUT_DECK

    for name, module in RULES.items():
        cardcore.register("cardcore.rules", name, module)
    try:
        session = Session.create(
            "tonk",
            2,
            now=0.0,
            seed=1,
            deck=TONK_OUT_DECK,
            rules=["tonk.rev-units"],
            options={"first_dealer": 1, "units": 9},
            store=MemoryStore(),
            session_id="hidden-audit",
        )
        t = Table(session)  # (its leak check reads every message)
        t.join("a", 0)
        t.join("b", 1)
        t.act("a", "draw")
        t.act("a", "spread 5H 6H 7H")
        before = len(t.outbound)
        replies = t.act("a", "spread 8C 9C 10C")
        assert t.errors(replies) == ["internal"]
        late = t.outbound[before:]
        assert messages(late, "b") == []
        for m in messages(late, "a"):
            assert list(card_words(m.get("message", ""))) == [], m
        assert session.game is not None and not session.game.is_over
    finally:
        for name in RULES:
            cardcore.unregister("cardcore.rules", name)


# -- the session: forfeit, tied clocks, fair deals -----------------------------------------------


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_whether_forfeit_spares_a_seat_depends_only_on_what_every_seat_sees(name: str) -> None:
    """``forfeit`` spares a real-time seat whose game says it has nothing to do now: that
    answer (public through the resign or its absence) is the same for twins of any viewer."""
    rng = random.Random(4)
    compared = 0
    for game in play(name, 2, {}, (), 3, limit=120):
        if game.version % 6 or game.is_over:
            continue
        for viewer in (0, 1):
            other = 1 - viewer
            twin = hidden_swap(game, viewer, rng)
            if twin is None:
                continue
            assert twin.view(viewer) == game.view(viewer)
            assert _nothing_now(twin, other) == _nothing_now(game, other)
            compared += 1
    assert compared > 5


def _tied_order(session: Session, t: Table) -> list[int]:
    t.tick(5.0)  # both setup clocks started at the deal, so both run out at 5.0
    game = session.game
    assert game is not None
    return [s for s, _a, at in game.record_entries() if at == 5.0]


def test_a_fair_deals_tie_order_is_the_draw_from_the_revealed_seed_and_verifies() -> None:
    """In a fair deal two seats' clocks run out together: the order they are played in is
    the documented draw from the seed (so checkable once the seed is revealed), takes
    nothing from the game's chance (the bundle replays), and every message passes the kit."""
    t = table("spit", fair=True, time=TimeControl(turn=5.0))
    order = _tied_order(t.session, t)
    assert sorted(order) == [0, 1]
    t.act("a", "resign")
    bundle = t.session.fair_bundle()
    assert bundle is not None
    verify_bundle(bundle)
    seed = bundle["seed"]
    first = min((0, 1), key=lambda s: _draw(f"{seed!r}:{5.0!r}:{s}"))
    assert order[0] == first


def test_the_tie_order_does_not_depend_on_the_cards() -> None:
    """The draw reads the seed and the deadline only: two decks under one seed, one order
    (so the order can tell a seat nothing of the deal that the seed does not already fix)."""
    orders = []
    for deck in ("AS 2S 3S 4S 5S", "KD QD JD 10D 9D"):
        session = Session.create(
            "spit",
            2,
            now=0.0,
            seed=17,
            deck=deck,
            config=SessionConfig(time=TimeControl(turn=5.0)),
            store=MemoryStore(),
        )
        t = Table(session)
        t.join("a", 0)
        t.join("b", 1)
        orders.append(_tied_order(session, t))
    assert orders[0] == orders[1] and sorted(orders[0]) == [0, 1]


def test_with_forfeit_a_fair_tie_ends_the_game_and_the_reveal_comes_with_it() -> None:
    """With ``forfeit`` the first seat of a tie resigns and the game ends: the seats learn
    the tie's order in the same tick as the revealed seed, not before."""
    t = table("spit", fair=True, time=TimeControl(turn=5.0, forfeit=True))
    out = t.tick(5.0)
    game = t.session.game
    assert game is not None and game.is_over
    resigned = [s for s, a, _ in game.record_entries() if type(a) is Resign]
    assert len(resigned) == 1
    for conn in ("a", "b"):
        kinds = [m["type"] for m in messages(out, conn)]
        assert "update" in kinds
        assert "reveal" in kinds or any(
            m.get("reveal") is not None for m in messages(out, conn) if m["type"] == "view"
        ), kinds


# -- the web layer ------------------------------------------------------------------------------


def test_session_info_names_no_card_and_a_bots_seat_has_no_link() -> None:
    """``GET /api/sessions/{id}`` during a Tonk game with a bot: the bot's ``link`` is null,
    ``time`` carries ``forfeit``, and nothing in it (the session id aside) is a card word;
    every frame the server sends passes the watchdog."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from tests.web.helpers import Player, create, serve

    with serve() as (client, _server, dog):
        made = create(
            client,
            "tonk",
            [{"name": "Ann"}, {"name": "Bot", "agent": "random", "params": {"seed": 1}}],
            time={"turn": 600, "forfeit": True},
        )
        sid = made["session"]
        with client.websocket_connect("/ws") as ws:
            ann = Player(ws)
            ann.send({"type": "join", "session": sid, "seat": 0})
            ann.until("view")
            info = client.get(f"/api/sessions/{sid}")
            assert info.status_code == 200
            body = info.json()
            assert body["seats"][1]["link"] is None and body["seats"][0]["link"] is not None
            assert body["time"]["forfeit"] is True
            text = json.dumps(body).replace(sid, "")
            for seat in body["seats"]:
                for key in ("link", "token"):
                    if isinstance(seat.get(key), str):
                        text = text.replace(seat[key], "")
            assert list(card_words(json.loads(text))) == [], text
        assert dog.frames > 0
