"""Independent rules audit of Speed (2026-12-07).

Worked examples built by hand from the seed (``/work/shared/seeds/spit.en.md``: the
Speed paragraphs), the decisions in ``rules-decisions.md`` (SPEED-*, and SPIT-MOVE-2/3/4,
SPIT-RT-1/2 which Speed shares) and the user docs (``docs/games/spit.rst``), then played
through the public API only: ``cardcore.new_game`` (``deck=`` / ``position=``),
``legal_actions``, ``act``/``apply`` with ``at=``/``seen=``, ``view``, ``result``,
``save``/``load``, ``record``/``replay``, ``determinize``, event subscriptions and
``cardcore.run_realtime``.

Positions are written bottom -> top (the position notation); views list piles top first.
"""

from __future__ import annotations

import re

import pytest

import cardcore
from cardcore import Card
from cardcore.agents import Plan
from cardcore_spit.speed.actions import PlayCard

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL = [r + s for s in "SHDC" for r in RANKS]


# --------------------------------------------------------------------------- helpers


def position(
    hand0,
    hand1,
    stock0=(),
    stock1=(),
    side0=(),
    side1=(),
    left=(),
    right=(),
    rest="L",
    jokers=0,
    requests="[false,false]",
    recycled="false",
):
    """A Speed position; stocks, side piles and play piles bottom -> top; every card
    not named lies at the bottom of play pile *rest*."""
    zones = {
        "hand.0": list(hand0),
        "hand.1": list(hand1),
        "stock.0": list(stock0),
        "stock.1": list(stock1),
        "side.0": list(side0),
        "side.1": list(side1),
        "pile.L": list(left),
        "pile.R": list(right),
    }
    unused = ALL + ["JK"] * jokers
    for cards in zones.values():
        for c in cards:
            unused.remove(c)
    zones["pile." + rest][:0] = unused
    parts = [f"speed v=1 requests={requests} recycled={recycled}"]
    for name, cards in zones.items():
        if name.startswith("hand"):
            text = " ".join(f"{c}@{name[-1]}" for c in cards)
        elif name.startswith("pile"):
            text = " ".join(c + "!" for c in cards)
        else:
            text = " ".join(cards)
        parts.append(f"{name}: {text}".rstrip())
    return " | ".join(parts)


def speed(*args, jokers=0, seed=1, rules=(), subscribers=(), **kw):
    options = {"jokers": jokers} if jokers else {}
    return cardcore.new_game(
        "speed",
        2,
        position=position(*args, jokers=jokers, **kw),
        seed=seed,
        options=options,
        rules=list(rules),
        subscribers=list(subscribers),
    )


def legal(game, seat):
    return [str(a) for a in game.legal_actions(seat)]


def table(game, seat=None):
    return game.view(seat)["table"]


def tops(game):
    piles = table(game)["piles"]
    return piles["L"][0], piles["R"][0]


def zone(text, name):
    """The cards of zone *name* in a position text, bottom -> top."""
    for part in text.split(" | "):
        if part.startswith(name + ":"):
            return [re.sub(r"[!@].*$", "", c) for c in part[len(name) + 1 :].split()]
    raise AssertionError(name)


# A table where seat 0 can play 6S on R (7S), seat 1 8H on R and JC on L (QS); both
# stocks hold one card, both side piles two (top: KC, QD).
BASE = {
    "hand0": ["6S", "5S", "5H", "5D", "5C"],
    "hand1": ["8H", "9H", "9D", "9C", "JC"],
    "stock0": ["10D"],
    "stock1": ["8D"],
    "side0": ["3D", "KC"],
    "side1": ["7C", "QD"],
    "left": ["2H", "QS"],
    "right": ["7S"],
}


def base(**kw):
    args = dict(BASE)
    args.update(kw)
    return speed(
        args.pop("hand0"),
        args.pop("hand1"),
        **args,
    )


# --------------------------------------------------------------------------- the deal


def stacked_deck():
    """Top first: L, R, seat 0's side pile (first dealt ends on top), seat 1's side
    pile, then 40 cards alternately seat 0, seat 1 (SPEED-SETUP-3)."""
    piles = ["KS", "2D"]
    side0 = ["3C", "4C", "5C", "6C", "7C"]
    side1 = ["8C", "9C", "10C", "JC", "QC"]
    used = set(piles + side0 + side1)
    rest = [c for c in ALL if c not in used]
    assert len(rest) == 40
    p0, p1 = rest[0::2], rest[1::2]
    return piles + side0 + side1 + rest, side0, side1, p0, p1


def test_speed_deal_order_of_a_stacked_deck():
    """SPEED-SETUP-1/3: "two play piles (L for seat 0, R for seat 1), one face-down card
    each, turned up at the start, and two side piles"; "Each player holds a private hand
    of 5 and a face-down stock of the rest ... the first dealt [side card] is the top ...
    each player's first 5 cards are the hand, the rest the stock (the first received on
    top)"."""
    deck, side0, side1, p0, p1 = stacked_deck()
    game = cardcore.new_game("speed", ["Ann", "Bob"], deck=" ".join(deck), seed=1)
    view = table(game, None)
    assert view["piles"] == {"L": ["KS"], "R": ["2D"]}
    assert [(s["stock"], s["side"]) for s in view["seats"]] == [(15, 5), (15, 5)]
    assert sorted(table(game, 0)["seats"][0]["hand"]) == sorted(p0[:5])
    assert sorted(table(game, 1)["seats"][1]["hand"]) == sorted(p1[:5])
    text = game.position()
    assert zone(text, "side.0") == side0[::-1]  # bottom -> top: 3C on top
    assert zone(text, "side.1") == side1[::-1]
    assert zone(text, "stock.0") == p0[5:][::-1]  # p0[5] on top
    assert zone(text, "stock.1") == p1[5:][::-1]


def test_speed_first_play_refills_from_the_top_of_own_stock():
    """SPEED-PLAY-2: "A hand below 5 cards is refilled to 5 from the owner's stock at
    once (inside the same apply) while the stock lasts." The stacked deal gives seat 0
    AS 3S 5S 7S 9S and JS on top of its stock; L = KS, R = 2D."""
    deck, _, _, p0, _p1 = stacked_deck()
    assert p0[:6] == ["AS", "3S", "5S", "7S", "9S", "JS"]
    game = cardcore.new_game("speed", 2, deck=" ".join(deck), seed=1)
    # A on K and on 2 (SPIT-MOVE-3), 3 on 2; seat 1 (2S 4S 6S 8S 10S) has no play
    assert legal(game, 0) == ["play AS L", "play AS R", "play 3S R", "stuck"]
    assert legal(game, 1) == ["stuck"]
    game.act(0, "play 3S R", at=1.0)
    seat0 = table(game, 0)["seats"][0]
    assert sorted(seat0["hand"]) == sorted(["AS", "5S", "7S", "9S", "JS"])
    assert seat0["stock"] == 14
    assert table(game, None)["seats"][1]["stock"] == 15  # the other's stock untouched
    assert legal(game, 1) == ["play 2S R", "play 4S R", "stuck"]


@pytest.mark.parametrize(
    ("options", "each"),
    [({}, 20), ({"side_pile": 15}, 10), ({"jokers": 2}, 21), ({"jokers": 2, "side_pile": 15}, 11)],
)
def test_speed_cards_dealt_event_counts_each_players_own_cards(options, each):
    """Seed: "If the outer piles in the middle hold five cards, each player is dealt twenty
    cards; if they hold fifteen, each player is dealt ten" (SPEED-SETUP-2; with jokers 21 =
    5 + 16 and 11 = 5 + 6, SPEED-SETUP-3). The side piles are centre piles (SPEED-SETUP-1),
    so the public ``cards-dealt`` event should count 20/10 (21/11) per seat, as Spit's
    counts the 26 cards each player holds."""
    heard = []
    game = cardcore.new_game(
        "speed",
        2,
        options=options,
        seed=3,
        subscribers=[(cardcore.CardsDealt, heard.append, cardcore.SPECTATOR)],
    )
    held = [len(s["hand"]) + s["stock"] for s in table(game)["seats"]]
    assert held == [each, each]  # the deal itself is right
    assert [e.counts for e in heard] == [(each, each)]


def test_speed_options_outside_the_seed_are_refused():
    """SPEED-SETUP-2 / SPIT-GAP-17: side piles 5 or 15 ("ten" read as a slip);
    SPEED-GEN-2: jokers 0 or 2; SPEED-GEN-1: exactly two players."""
    for options, players in [({"side_pile": 10}, 2), ({"jokers": 1}, 2), ({}, 3), ({}, 1)]:
        with pytest.raises(cardcore.OptionError):
            cardcore.new_game("speed", players, options=options, seed=1)


def test_speed_nobody_can_play_at_the_deal_turns_side_cards_at_once():
    """SPEED-STUCK-1: "Both are stuck when neither hand holds a card that fits either play
    pile (the game sees it at once, inside the apply that caused it, or at the deal)".
    L = 5H, R = 5D; the hands hold only 9s, Js and Ks; seat 0's side top is 4S, seat 1's 10S."""
    piles = ["5H", "5D"]
    side0 = ["4S", "2C", "2D", "2H", "2S"]
    side1 = ["10S", "3C", "3D", "3H", "3S"]
    hands = ["9S", "9H", "9D", "9C", "KS", "KH", "KD", "KC", "JS", "JH"]  # alternately
    deck = piles + side0 + side1 + hands
    game = cardcore.new_game("speed", 2, deck=" ".join(deck), seed=5)
    view = table(game)
    assert view["piles"]["L"] == ["4S", "5H"]  # seat 0's side card onto its own pile
    assert view["piles"]["R"] == ["10S", "5D"]
    assert [s["side"] for s in view["seats"]] == [4, 4]
    assert sorted(table(game, 1)["seats"][1]["hand"]) == sorted(["9H", "9C", "KH", "KC", "JH"])
    assert "play 9H R" in legal(game, 1)  # 9 on 10


# --------------------------------------------------------------------------- plays


def test_speed_adjacency_wraps_ignores_suit_and_refuses_equal_rank():
    """SPIT-MOVE-2/3/4 (SPEED-PLAY-1 uses them): "one above or one below ... Suits do not
    matter"; "the ace is next to both the 2 and the king"; "a 5 may not go on a 5". L = KH,
    R = 2C; seat 0 holds AS 2H KD QC 7S; seat 1 holds 3H 4H 5H 6H 8H."""
    game = speed(
        ["AS", "2H", "KD", "QC", "7S"], ["3H", "4H", "5H", "6H", "8H"], left=["KH"], right=["2C"]
    )
    assert legal(game, 0) == ["play AS L", "play AS R", "play QC L", "stuck"]
    assert legal(game, 1) == ["play 3H R", "stuck"]
    for seat, text, rule in [
        (0, "play KD L", "SPIT-MOVE-4"),
        (0, "play 2H R", "SPIT-MOVE-4"),
        (0, "play 7S L", "SPIT-MOVE-2"),
    ]:
        before = game.position()
        with pytest.raises(cardcore.IllegalActionError) as err:
            game.act(seat, text)
        assert err.value.rule_id == rule
        assert game.position() == before and game.version == 0


def test_speed_jokers_are_wild_and_two_jokers_give_one_play_per_pile():
    """SPEED-PLAY-3: "A joker may be played on any card, and any card on a joker."
    SPEED-GEN-1: jokers only with the option. Seat 0 holds both jokers; legal actions list
    each play once ("plays in hand order, each onto L then R")."""
    game = speed(
        ["JK", "5S", "JK", "5H", "5D"],
        ["9H", "9D", "9C", "9S", "KC"],
        left=["2H"],
        right=["7S"],
        jokers=2,
    )
    assert legal(game, 0) == ["play JK L", "play JK R", "stuck"]
    game.act(0, "play JK R")
    assert table(game, 0)["seats"][0]["hand"].count("JK") == 1
    # any card on the joker: seat 1's 9s and K, seat 0's 5s
    assert legal(game, 1) == [
        "play 9H R",
        "play 9D R",
        "play 9C R",
        "play 9S R",
        "play KC R",
        "stuck",
    ]
    game.act(1, "play KC R")
    assert tops(game) == ("2H", "KC")


def test_speed_contested_pile_later_play_revalidated_stale_or_still_legal():
    """SPIT-GAP-2 / SPIT-RT-1: "the later action is re-validated against the new top; it
    may still be legal (6 -> 7 then 8 is legal; 6 -> 7 then 5 is STALE)". R = 7S, L = QS:
    seat 0 plays 6S on R; seat 1's 8H on R, seen before, is now stale and changes nothing;
    its JC on L, seen at the same version, still fits and is applied."""
    game = base()
    v = game.version
    game.act(0, "play 6S R", at=1.0, seen=v)
    before = game.position()
    with pytest.raises(cardcore.StaleActionError):
        game.act(1, "play 8H R", at=1.0, seen=v)
    assert game.position() == before and game.version == v + 1
    game.act(1, "play JC L", at=1.0, seen=v)  # still legal: applied
    assert tops(game) == ("JC", "6S")


def test_speed_contested_pile_second_play_still_fits_the_new_top():
    """SPIT-GAP-2: "6 -> 7 then 8 is legal"; CORE-RT-1: "An action legal now is applied
    whatever seen says". R = 6D; seat 0 plays 7S on it; seat 1, acting on the version
    before, plays 6H onto the 7S: legal now, so applied."""
    game = speed(
        ["7S", "5S", "5H", "5D", "5C"], ["6H", "9H", "9D", "9C", "KC"], left=["2C"], right=["6D"]
    )
    v = game.version
    assert "play 6H R" not in legal(game, 1)
    game.act(0, "play 7S R", at=1.0, seen=v)
    game.act(1, "play 6H R", at=1.0, seen=v)  # not legal at v, legal now
    assert tops(game) == ("2C", "6H")


def test_speed_equal_times_are_broken_by_a_seeded_draw_not_by_seat():
    """SPIT-RT-2 (Speed: SPEED-PLAY-1 "real-time model SPIT-RT-1"): "equal t are ordered by
    a seeded random draw (not by seat, which would favour seat 0)". Both seats plan a 6 onto
    R = 7S at the same time; only one lands."""

    class OntoR:
        def plan(self, view, legal, now):
            for action in legal:
                if str(action).endswith(" R"):
                    return Plan(action, 1.0)
            return None

    firsts = []
    for seed in range(12):
        game = speed(
            ["6H", "5S", "5H", "5D", "5C"],
            ["6D", "9H", "9D", "9C", "JC"],
            stock0=["10D"],
            stock1=["8D"],
            left=["2H", "QS"],
            right=["7S"],
        )
        cardcore.run_realtime(game, [OntoR(), OntoR()], seed=seed, max_actions=1)
        firsts.append(game.record()["actions"][0][0])
    assert set(firsts) == {0, 1}
    again = []
    for seed in range(12):
        game = speed(
            ["6H", "5S", "5H", "5D", "5C"],
            ["6D", "9H", "9D", "9C", "JC"],
            stock0=["10D"],
            stock1=["8D"],
            left=["2H", "QS"],
            right=["7S"],
        )
        cardcore.run_realtime(game, [OntoR(), OntoR()], seed=seed, max_actions=1)
        again.append(game.record()["actions"][0][0])
    assert again == firsts


# --------------------------------------------------------------------------- stuck


def test_speed_both_declare_stuck_turns_side_cards_and_repeats_while_nobody_can_play():
    """SPEED-STUCK-1: "each player turns the top card of their own side pile onto their own
    play pile ... or when both have declared stuck; any play clears the declarations. The
    turns repeat while both are still stuck." Seat 1 plays JC on QS (refill 8D); both
    declare stuck; KC and QD turn; nobody fits K/Q, so 3D and 7C turn as well."""
    game = base()
    game.act(0, "stuck", at=0.1)
    assert [s["requested"] for s in table(game, 1)["seats"]] == [True, False]
    assert legal(game, 0) == ["play 6S R"]  # declared: may still play, not declare again
    before = game.position()
    with pytest.raises(cardcore.IllegalActionError, match=r"\(SPEED-STUCK-1\)") as err:
        game.act(0, "stuck", at=0.2)
    assert err.value.rule_id == "SPEED-STUCK-1" and game.position() == before
    game.act(1, "play JC L", at=0.3)
    assert [s["requested"] for s in table(game)["seats"]] == [False, False]
    game.act(0, "stuck", at=0.4)
    game.act(1, "stuck", at=0.5)
    view = table(game)
    assert view["piles"]["L"][:3] == ["3D", "KC", "JC"]
    assert view["piles"]["R"][:3] == ["7C", "QD", "7S"]
    assert [s["side"] for s in view["seats"]] == [0, 0]
    assert [s["requested"] for s in view["seats"]] == [False, False]
    assert legal(game, 0) == ["play 6S R", "stuck"]
    assert legal(game, 1) == ["play 8H R", "play 8D R", "stuck"]


def test_speed_one_empty_side_pile_only_the_other_turns():
    """SPEED-STUCK-3: "A player whose side pile is empty turns nothing"."""
    game = base(side0=[], side1=["7C", "QD"], left=["2H", "3D", "KC", "QS"])
    game.act(0, "stuck")
    game.act(1, "stuck")
    assert tops(game) == ("QS", "QD")
    assert [s["side"] for s in table(game)["seats"]] == [0, 1]


RECYCLE_REST = [r + s for r in ["3", "4", "6", "8", "10"] for s in "SHDC"]


def test_speed_recycle_then_stalemate_fewer_cards_wins():
    """SPEED-STUCK-2: "each play pile except its top card is shuffled and becomes the side
    pile of the same player"; SPEED-END-2: "if ... a second recycle is due without any card
    played since the previous one, the game ends: the player holding fewer cards (hand +
    stock) wins". Seat 0 ends with 5 + 10 = 15 cards, seat 1 with 5 + 12 = 17."""
    heard = []
    game = speed(
        ["2S", "5S", "5H", "5D", "5C"],
        ["7S", "7H", "7D", "7C", "9S"],
        stock0=[*RECYCLE_REST[:10], "9H"],
        stock1=[*RECYCLE_REST[10:], "9D", "9C"],
        left=["AS"],
        right=["QH", "KH", "JS"],
        seed=11,
        subscribers=[(cardcore.Event, heard.append, cardcore.SPECTATOR)],
    )
    assert legal(game, 0) == ["play 2S L", "stuck"] and legal(game, 1) == ["stuck"]
    game.act(0, "play 2S L")
    assert game.is_over
    assert game.result.winners == (0,)
    assert game.result.scores == (15.0, 17.0)
    assert game.result.reason == "stalemate"
    kinds = [e.to_json()["event"] for e in heard]
    recycled = [e.to_json() for e in heard if e.to_json()["event"] == "centre-recycled"]
    assert recycled == [
        {"event": "centre-recycled", "counts": [16, 2]}
    ]  # L: 15 unnamed + AS + 2S, less its top; R: 3 - 1
    spat = [e.to_json() for e in heard if e.to_json()["event"] == "card-spat"]
    assert len(spat) == 18  # every recycled card turned, each onto its own pile
    assert all(e["pile"] == ("L" if e["seat"] == 0 else "R") for e in spat)
    assert kinds[-1] == "game-ended"
    assert game.legal_actions(0) == () and game.legal_actions(1) == ()


def test_speed_stalemate_with_equal_counts_is_a_draw():
    """SPEED-END-2: "equal counts are a draw (both seats in winners)"."""
    game = speed(
        ["2S", "5S", "5H", "5D", "5C"],
        ["7S", "7H", "7D", "7C", "9S"],
        stock0=[*RECYCLE_REST[:11], "9H"],
        stock1=[*RECYCLE_REST[11:], "9D", "9C"],
        left=["AS"],
        right=["QH", "KH", "JS"],
    )
    game.act(0, "play 2S L")
    assert game.result.winners == (0, 1)
    assert game.result.scores == (16.0, 16.0)


def test_speed_stuck_on_request_recycle_keeps_tops_and_hands_under_cards_to_the_starter():
    """SPEED-STUCK-4 (``speed.stuck-on-request``): "no automatic detection; only both
    declarations turn the side cards". SPEED-STUCK-2: the cards under each play pile's top
    become that player's side pile; then each turns one (SPEED-STUCK-1)."""
    game = speed(
        ["2S", "5S", "5H", "5D", "5C"],
        ["7S", "7H", "7D", "7C", "9S"],
        stock0=[*RECYCLE_REST[:10], "9H"],
        stock1=[*RECYCLE_REST[10:], "9D", "9C"],
        left=["AS"],
        right=["QH", "KH", "JS"],
        rules=["speed.stuck-on-request"],
    )
    under_l = set(table(game)["piles"]["L"])  # 16 cards; 2S goes on top
    game.act(0, "play 2S L")
    assert not game.is_over and legal(game, 0) == ["stuck"] and legal(game, 1) == ["stuck"]
    assert game.to_act == (0, 1)
    game.act(0, "stuck")
    game.act(1, "stuck")
    view = table(game)
    assert view["piles"]["L"][1] == "2S" and view["piles"]["L"][0] in under_l
    assert view["piles"]["R"][1] == "JS" and view["piles"]["R"][0] in {"QH", "KH"}
    assert [s["side"] for s in view["seats"]] == [15, 1]  # 16 - 1 turned, 2 - 1 turned
    assert "recycled=true" in game.position()


def test_speed_empty_hand_and_stock_wins_and_the_others_late_play_is_stale():
    """SPEED-END-1: "The first player with an empty hand and an empty stock wins."
    CORE-RT-1: an action overtaken by one that ended the game is stale, not CORE-OVER-1."""
    game = speed(["4S"], ["6H", "9H", "9D", "9C", "JC"], stock1=["8D"], left=["3H"], right=["5C"])
    v = game.version
    game.act(0, "play 4S R", at=1.0)
    assert game.result.winners == (0,)
    assert game.result.reason == "out of cards"
    assert game.result.scores == (0.0, 6.0)
    assert game.to_act == ()
    with pytest.raises(cardcore.StaleActionError):
        game.act(1, "play 6H R", at=1.0, seen=v)
    with pytest.raises(cardcore.IllegalActionError, match=r"\(CORE-OVER-1\)"):
        game.act(1, "stuck")
    assert game.version == v + 1


def test_speed_resign_the_other_seat_wins():
    """Core ``resign`` in a real-time game: the other seat wins."""
    game = base()
    game.act(1, "resign")
    assert game.result.winners == (0,)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "text",
    [
        "play 7H M",
        "play 1H L",
        "play TH L",
        "play",
        "stuck now",
        "",
        "play AS L R",
        "spit",
        "play 1 L",
        "slap L",
    ],
)
def test_speed_malformed_notation_is_a_notation_error_and_changes_nothing(text):
    """SPEED-NOTE-1: "Notation: play <card> L|R ..., stuck, resign. Malformed text raises
    NotationError." """
    game = base()
    before = game.position()
    with pytest.raises(cardcore.NotationError):
        game.act(0, text)
    assert game.position() == before and game.version == 0


def test_speed_notation_is_read_in_any_case_and_spacing():
    """SPIT-NOTE-1 / docs: "Text is read case-insensitively"."""
    game = base()
    game.act(0, "PLAY 6s   r")
    assert tops(game) == ("QS", "6S")
    assert game.record()["actions"][0][1] == "play 6S R"


@pytest.mark.parametrize(
    ("at", "why"),
    [
        (float("nan"), "finite"),
        (float("inf"), "finite"),
        (0.5, "earlier"),
        (True, "number"),
        ("3", "number"),
    ],
)
def test_speed_out_of_time_actions_are_refused_and_change_nothing(at, why):
    """CORE-RECORD-1 / SPIT-RT-1: "Each action may carry the time t ... recorded with it";
    "in real time, never less than the time of the action before"."""
    game = base()
    game.act(1, "stuck", at=1.0)
    before = game.position()
    with pytest.raises(cardcore.IllegalActionError, match=why):
        game.act(0, "play 6S R", at=at)
    assert game.position() == before and game.version == 1
    game.act(0, "play 6S R", at=1.0)  # an equal time is fine
    assert game.record()["actions"][-1][2] == 1.0


@pytest.mark.parametrize("seen", [5, -1, "x", True])
def test_speed_bad_seen_is_refused_and_changes_nothing(seen):
    """SPIT-RT-1 / CORE-RT-3: ``seen`` is a version the player saw, within the window."""
    game = base()
    with pytest.raises(cardcore.IllegalActionError, match=r"\(CORE-RT-3\)"):
        game.act(0, "play 6S R", seen=seen)
    assert game.version == 0


def test_speed_illegal_plays_name_the_rule_and_leak_no_hidden_card():
    """SPEED-PLAY-1 / SPIT-MOVE-2; SPEED-VIEW-1: a seat may not learn another's hand, stock
    or side cards. Seat 1 names cards of seat 0's hand, stock and side pile: each error
    says only that the named card is not in its own hand, naming no other card."""
    game = base()
    before = game.position()
    hidden = {"6S", "5S", "5H", "5D", "5C", "10D", "8D", "3D", "KC", "7C", "QD"}
    for card in ["6S", "10D", "KC", "3D", "JK"]:
        with pytest.raises(cardcore.IllegalActionError, match=r"\(SPEED-PLAY-1\)") as err:
            game.act(1, f"play {card} R")
        assert err.value.rule_id == "SPEED-PLAY-1"
        named = set(re.findall(r"\b(?:10|[2-9AJQK])[SHDC]\b", str(err.value)))
        assert named <= {card} and not (named - {card}) & hidden
    assert game.position() == before and game.version == 0


@pytest.mark.parametrize(
    "action",
    [PlayCard(0, Card.parse("6S"), -1), PlayCard(0, "6S", 1)],  # type: ignore[arg-type]
    ids=["target-minus-1", "card-as-str"],
)
def test_speed_malformed_action_objects_are_refused_with_a_true_reason(action):
    """CORE-ACTION-1 / docs: "an action that was never legal raises IllegalActionError citing
    the rule". Seat 0 holds 6S and R shows 7S, so "6S is not next to 7S" and "6S is not in
    seat 0's hand" are false; the error must not describe the legal ``play 6S R``."""
    game = base()
    before = game.position()
    with pytest.raises(cardcore.IllegalActionError, match=r"\(CORE-ACTION-1\)") as err:
        game.apply(action)
    assert game.position() == before
    message = str(err.value)
    assert "not next to 7S" not in message
    assert "not in seat 0's hand" not in message


# --------------------------------------------------------------------------- hidden info


def test_speed_views_show_a_hand_only_to_its_owner_and_no_stock_or_side_card():
    """SPEED-VIEW-1: "Hands are OWNER zones (the opponent sees the count); stocks and side
    piles are NOBODY"."""
    game = base()
    for seat in (None, 0, 1):
        view = game.view(seat)
        for s, entry in enumerate(view["table"]["seats"]):
            if s == seat:
                assert None not in entry["hand"] and len(entry["hand"]) == 5
            else:
                assert entry["hand"] == [None] * 5
        for z in view["zones"]:
            if z["name"].startswith(("stock", "side")) or (
                z["name"].startswith("hand") and z["name"] != f"hand.{seat}"
            ):
                assert set(z["cards"]) <= {None}, (seat, z["name"])
        assert view["legal"] == ([] if seat is None else legal(game, seat))


def test_speed_refill_draw_is_secret_to_the_other_seat_and_spectators():
    """SPEED-VIEW-1 / events: "Events that carry a hidden card ... a copy for a seat that may
    not see them has them blanked". Seat 0's refill (10D) reaches only seat 0; side cards
    turned face up reach everyone."""
    heard = {0: [], 1: [], "spectator": []}
    subs = [
        (cardcore.Event, heard[0].append, 0),
        (cardcore.Event, heard[1].append, 1),
        (cardcore.Event, heard["spectator"].append, cardcore.SPECTATOR),
    ]
    game = base(subscribers=subs)
    game.act(0, "play 6S R")
    game.act(0, "stuck")
    game.act(1, "stuck")
    for who, events in heard.items():
        texts = " ".join(str(e.to_json()) for e in events)
        assert ("10D" in texts) == (who == 0), who
        assert "KC" in texts and "QD" in texts  # the turned side cards are public
        assert "8D" not in texts and "3D" not in texts and "7C" not in texts


def test_speed_determinize_keeps_what_the_seat_knows():
    """SPEED-VIEW-1 with ``Game.determinize``: the seat's hand and the play piles stay; the
    other hand, stocks and side piles are re-dealt from cards the seat cannot see."""
    game = base()
    clone = game.determinize(0, seed=4)
    assert table(clone, 0)["piles"] == table(game, 0)["piles"]
    assert table(clone, 0)["seats"][0] == table(game, 0)["seats"][0]
    assert [(s["stock"], s["side"]) for s in table(clone)["seats"]] == [(1, 2), (1, 2)]
    seen = set(table(game, 0)["seats"][0]["hand"])
    text = clone.position()
    unseen = (
        zone(text, "hand.1")
        + zone(text, "stock.0")
        + zone(text, "stock.1")
        + zone(text, "side.0")
        + zone(text, "side.1")
    )
    assert not set(unseen) & seen
    assert sorted(unseen) == sorted(
        ["8H", "9H", "9D", "9C", "JC", "10D", "8D", "3D", "KC", "7C", "QD"]
    )


# --------------------------------------------------------------------------- records


def test_speed_save_load_and_replay_reproduce_the_recycle_shuffle():
    """SPIT-RT-1: "Replay applies the recorded actions in recorded order"; a save loads to
    the same game, future chance (the recycle's shuffle, SPEED-STUCK-2) included."""
    game = speed(
        ["2S", "5S", "5H", "5D", "5C"],
        ["7S", "7H", "7D", "7C", "9S"],
        stock0=[*RECYCLE_REST[:10], "9H"],
        stock1=[*RECYCLE_REST[10:], "9D", "9C"],
        left=["AS"],
        right=["QH", "KH", "JS"],
        seed=11,
        rules=["speed.stuck-on-request"],
    )
    saved = game.save()
    copy = cardcore.load(saved)
    for g in (game, copy):
        g.act(0, "play 2S L", at=0.5)
        g.act(0, "stuck", at=1.0)
        g.act(1, "stuck", at=1.5)
    assert copy.position() == game.position()
    again = cardcore.replay(game.record())
    assert again.position() == game.position()
    assert [a[2] for a in again.record()["actions"]] == [0.5, 1.0, 1.5]
    assert again.rules == game.rules


def test_speed_bots_conserve_every_card_and_the_winner_holds_none():
    """SPEED-END-1 and SPEED-PLAY-2 in play: 52 cards always on the table; a hand is short
    only when its stock is empty; the winner by "out of cards" holds nothing."""
    from cardcore_spit.agents import SpitGreedyAgent, SpitHumanAgent

    for seed in (1, 2, 3):
        game = cardcore.new_game("speed", 2, seed=seed)
        checks = []

        def on_action(g, action, at, checks=checks):
            t = g.view(None)["table"]
            total = sum(len(v) for v in t["piles"].values()) + sum(
                len(s["hand"]) + s["stock"] + s["side"] for s in t["seats"]
            )
            checks.append(
                total == 52 and all(len(s["hand"]) == 5 or s["stock"] == 0 for s in t["seats"])
            )

        result = cardcore.run_realtime(
            game,
            [SpitGreedyAgent(seed=seed), SpitHumanAgent(seed=seed + 7)],
            seed=seed,
            on_action=on_action,
        )
        assert checks and all(checks)
        if result.reason == "out of cards":
            (winner,) = result.winners
            assert result.scores[winner] == 0.0


# --------------------------------------------------------------------------- docs


def test_speed_legal_plays_follow_the_hand_order_the_docs_give():
    """docs/games/spit.rst: "Legal actions come in a stable order ... Speed: plays in the
    order the cards came into the hand (the first dealt first, a refill last) ... the
    reverse of a view, which lists the hand newest first". Every card of seat 0's hand fits
    R = joker. (The docs said only "in hand order", which a reader takes as the view's
    order; the legal order stays, as seeded games and the worked examples depend on it.)"""
    game = speed(
        ["2S", "5S", "7H", "9D", "KC"],
        ["9H", "9C", "9S", "3C", "3D"],
        stock0=["3H"],
        left=["4H"],
        right=["JK"],
        jokers=2,
    )
    hand = table(game, 0)["seats"][0]["hand"]
    plays = [a.split()[1] for a in legal(game, 0) if a.endswith(" R")]
    assert plays == hand[::-1] == ["2S", "5S", "7H", "9D", "KC"]  # as the position holds it
    game.act(0, "play 5S L")  # 5S leaves (onto 4H); the refill 3H comes into the hand last
    hand = table(game, 0)["seats"][0]["hand"]
    plays = [a.split()[1] for a in legal(game, 0) if a.endswith(" R")]
    assert plays == hand[::-1] == ["2S", "7H", "9D", "KC", "3H"]


def test_speed_second_recycle_without_a_play_ends_the_game_even_by_declarations():
    """SPEED-END-2 (docs, new): "if a recycle yields no cards, or a second recycle is due
    without any card played since the previous one, the game ends: the player holding fewer
    cards (hand + stock) wins". A position just after a recycle (``recycled=true``), side
    piles empty, seat 0 has declared stuck; seat 1 declares too: the game ends 16 v 17,
    though seat 0 still held a play (2S on AS): the declarations alone call the recycle."""
    game = speed(
        ["2S", "5S", "5H", "5D", "5C"],
        ["7S", "7H", "7D", "7C", "9S"],
        stock0=[*RECYCLE_REST[:10], "9H"],
        stock1=[*RECYCLE_REST[10:], "9D", "9C"],
        left=["AS"],
        right=["QH", "KH", "JS"],
        recycled="true",
        requests="[true,false]",
    )
    assert legal(game, 0) == ["play 2S L"]
    game.act(1, "stuck")
    assert game.result.reason == "stalemate"
    assert game.result.winners == (0,) and game.result.scores == (16.0, 17.0)


# --------------------------------------------------------------------------- sessions


def _first_view_clocks(hand1, buried, rules=()):
    """Seat 0's first ``view`` message in a Speed session with a 5 s idle clock, from a
    position in which seat 1 has declared stuck (public) and seat 0 can play 6S on 7S."""
    from cardcore.session import Session, SessionConfig, TimeControl

    text = position(
        ["6S", "5S", "5H", "5D", "5C"],
        hand1,
        stock0=["10D"],
        stock1=[buried, "8D"],  # the other heart lies hidden at the bottom of seat 1's stock
        side0=["3D", "KC"],
        side1=["7C", "QD"],
        left=["2H", "QS"],
        right=["7S"],
        requests="[false,true]",
    )
    session = Session.create(
        "speed",
        ["Ann", "Bob"],
        now=0.0,
        seed=3,
        position=text,
        rules=list(rules),
        config=SessionConfig(time=TimeControl(turn=5.0)),
    )
    out = session.handle("ann", '{"type": "join", "seat": 0}', now=0.0)
    out += session.handle("bob", '{"type": "join", "seat": 1}', now=0.0)
    views = [o.message for o in out if o.conn == "ann" and o.message["type"] == "view"]
    assert views
    return views[-1]["view"], views[-1]["clocks"]


@pytest.mark.parametrize(
    "rules", [(), ("speed.stuck-on-request",)], ids=["default", "stuck-on-request"]
)
def test_speed_session_clocks_do_not_tell_whether_the_other_hand_can_play(rules):
    """docs/games/spit.rst: "In Speed a seat whose hand holds no card that fits stays in
    to_act (to_act is public, and leaving it would tell the other player about a hidden
    hand)"; SPEED-STUCK-4: "neither to_act, the legal actions nor any event says anything
    about a hidden hand". Two tables that differ only in seat 1's hidden hand (8H fits R =
    7S; 9H does not) must look the same to seat 0, clocks included."""
    view_a, clocks_a = _first_view_clocks(["8H", "9D", "9C", "9S", "4H"], "9H", rules)
    view_b, clocks_b = _first_view_clocks(["9H", "9D", "9C", "9S", "4H"], "8H", rules)
    assert view_a == view_b  # the views themselves agree
    assert clocks_a == clocks_b
