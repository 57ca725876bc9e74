"""Independent rules audit of Spit and Speed (2026-12-09): rare situations.

Every expected value is worked out by hand from the seed (``../shared/seeds/spit.en.md``),
the rule IDs in ``seeds/spit.md`` and the decisions in ``../shared/rules-decisions.md``,
then the engine is driven to exactly that situation through the public API only
(``cardcore.new_game`` with ``deck=`` / ``position=`` / ``rules=`` / ``options=``,
``act``, ``legal_actions``, ``view``, ``result``).

Conventions: layouts, spit cards and centre piles in positions are written bottom -> top;
views list every pile top first. A stacked ``deck=`` is dealt alternately, top first,
seat 0 first; each player lays out the cards in the order received (SPIT-SETUP-7).
"""

from __future__ import annotations

import cardcore

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL = [r + s for s in "SHDC" for r in RANKS]


# --------------------------------------------------------------------------- helpers


def received(piles, spit_top_first, canfield=False):
    """The order a player receives cards so that the layout is ``piles`` (bottom -> top).

    Standard layout (SPIT-SETUP-4/7): row r puts one card on each pile k >= r. Canfield
    (SPIT-SETUP-5): cards 1-4 go to piles 1-4, cards 5-15 to pile 5. Then the spit cards,
    the first of them on top."""
    if canfield:
        laid = [piles[0][0], piles[1][0], piles[2][0], piles[3][0], *piles[4]]
    else:
        laid = [piles[k][r] for r in range(5) for k in range(r, 5)]
    return laid + list(spit_top_first)


def stacked(piles0, spit0, piles1, spit1, canfield=False):
    a = received(piles0, spit0, canfield)
    b = received(piles1, spit1, canfield)
    assert len(a) == len(b) == 26
    cards = [c for pair in zip(a, b, strict=True) for c in pair]
    assert sorted(cards) == sorted(ALL)
    return " ".join(cards)


def spit_position(lay0, lay1, spit0=(), spit1=(), left=(), right=(), rest="pile.L", single=-1):
    """A Spit play-phase position; every card not named lies at the bottom of zone *rest*."""
    zones = {}
    for seat, lay in ((0, lay0), (1, lay1)):
        for k in range(5):
            zones[f"layout.{seat}.{k + 1}"] = list(lay[k]) if k < len(lay) else []
    zones |= {
        "spit.0": list(spit0),
        "spit.1": list(spit1),
        "pile.L": list(left),
        "pile.R": list(right),
    }
    used = [c for cards in zones.values() for c in cards]
    assert len(set(used)) == len(used)
    zones[rest] = [c for c in ALL if c not in used] + zones[rest]
    parts = [
        f'spit v=1 phase="play" deal=1 single={single} ready=[true,true] '
        "requests=[false,false] stall=0 recycled=false emptier=-1"
    ]
    for name, cards in zones.items():
        if name.startswith("layout"):
            text = " ".join([*cards[:-1], cards[-1] + "!"]) if cards else ""
        elif name.startswith("pile"):
            text = " ".join(c + "!" for c in cards)
        else:
            text = " ".join(cards)
        parts.append(f"{name}: {text}".rstrip())
    return " | ".join(parts)


def spit(*args, rules=(), seed=1, options=None, **kw):
    return cardcore.new_game(
        "spit",
        2,
        position=spit_position(*args, **kw),
        seed=seed,
        rules=list(rules),
        options=options or {},
    )


def speed_position(hand0, hand1, stock0=(), stock1=(), side0=(), side1=(), left=(), right=()):
    """A Speed position; every card not named lies at the bottom of play pile L."""
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
    used = [c for cards in zones.values() for c in cards]
    assert len(set(used)) == len(used)
    zones["pile.L"][:0] = [c for c in ALL if c not in used]
    parts = ["speed v=1 requests=[false,false] recycled=false"]
    for name, cards in zones.items():
        if name.startswith("hand"):
            text = " ".join(f"{c}@{name[-1]}" for c in cards)
        elif name.startswith("pile"):
            text = " ".join(c + "!" for c in cards)
        else:
            text = " ".join(cards)
        parts.append(f"{name}: {text}".rstrip())
    return " | ".join(parts)


def legal(game, seat):
    return [str(a) for a in game.legal_actions(seat)]


def table(game):
    return game.view(None)["table"]


def tops(game, seat):
    return [p[0] if p else None for p in table(game)["seats"][seat]["layout"]]


# --------------------------------------------------------------------------- Spit: the start


def test_spit_start_spit_repeats_inside_the_second_ready_when_nobody_can_play():
    """SPIT-START-1, SPIT-STUCK-1/2/3(b).

    Ann's tops 7H 8H 9H 10H JH, Bob's 7S 8S 9S 10S JS: five different ranks each, no
    space, so no combine and no fill (SPIT-MOVE-5/6). Both ready: Ann turns 2H onto L,
    Bob 3S onto R (SPIT-START-1). A 7..J fits neither a 2 (A/3) nor a 3 (2/4)
    (SPIT-MOVE-2/3), so nobody can progress and both spit at once onto their own pile
    (SPIT-STUCK-2/3 b), inside the same ``ready``: Ann 6H on L, Bob 2S on R. A 7 fits the
    6H, so play resumes: L = 6H 2H, R = 2S 3S (top first), 9 spit cards each, and each
    may play their 7 onto L."""
    p0 = [["7H"], ["QH", "8H"], ["QD", "KD", "9H"], ["AD", "2D", "3D", "10H"]]
    p0 += [["4D", "5D", "6D", "7D", "JH"]]
    p1 = [["7S"], ["QS", "8S"], ["QC", "KC", "9S"], ["AC", "2C", "3C", "10S"]]
    p1 += [["4C", "5C", "6C", "7C", "JS"]]
    s0 = ["2H", "6H", "AH", "3H", "4H", "5H", "KH", "KS", "8D", "9D", "10D"]
    s1 = ["3S", "2S", "AS", "4S", "5S", "6S", "8C", "9C", "10C", "JC", "JD"]
    game = cardcore.new_game("spit", ["Ann", "Bob"], deck=stacked(p0, s0, p1, s1), seed=1)
    assert legal(game, 0) == ["ready"] and legal(game, 1) == ["ready"]
    game.act(0, "ready")
    assert table(game)["piles"] == {"L": None, "R": None}  # one ready starts nothing
    game.act(1, "ready")
    t = table(game)
    assert t["phase"] == "play"
    assert t["piles"] == {"L": ["6H", "2H"], "R": ["2S", "3S"]}
    assert [s["spit_cards"] for s in t["seats"]] == [9, 9]
    assert legal(game, 0) == ["play 1 L", "spit"]
    assert legal(game, 1) == ["play 1 L", "spit"]


# --------------------------------------------------------------------------- Spit: setup


SETUP_P0 = [
    ["7H"],
    ["9C", "7S"],
    ["6S", "2C", "9H"],
    ["AC", "3C", "4C", "KD"],
    ["5C", "6C", "9S", "KC", "5H"],
]
SETUP_S0 = ["AH", "2H", "3H", "4H", "6H", "8H", "10H", "JH", "QH", "KH", "AS"]
SETUP_P1 = [
    ["2S"],
    ["8C", "3S"],
    ["10C", "JC", "4S"],
    ["QC", "AD", "2D", "5S"],
    ["3D", "4D", "5D", "6D", "8S"],
]
SETUP_S1 = ["7D", "8D", "9D", "10D", "JD", "QD", "7C", "10S", "JS", "QS", "KS"]


def test_spit_setup_combine_leaves_a_space_fill_uncovers_and_combines_chain():
    """SPIT-SETUP-6 with SPIT-MOVE-5/6/7: the seed's setup "continues until each row shows
    five different values"; a space may be filled with a face-up card, turning up the next.

    Ann's piles (bottom -> top): 7H | 9C* 7S | 6S* 2C* 9H | AC* 3C* 4C* KD |
    5C* 6C* 9S* KC* 5H (* face down). Tops 7H 7S 9H KD 5H: the two sevens match.
    1. ``combine 1 2``: 7H onto 7S; pile 1 is empty, nothing turned up.
    2. ``fill 5 1``: 5H into the space; pile 5 turns up KC, which matches KD.
    3. ``combine 5 4``: KC onto KD; pile 5 turns up 9S, which matches 9H.
    4. ``combine 3 5``: 9H onto 9S; pile 3 turns up 2C.
    Tops now 5H 7H 2C KC 9H: five different values, no space, so only ``ready`` remains.
    Views, top first: [5H] [7H 7S ?] [2C ?] [KC KD ? ? ?] [9H 9S ? ?]; still 26 cards and
    11 spit cards; after both are ready each has turned one spit card (SPIT-START-1)."""
    game = cardcore.new_game(
        "spit",
        ["Ann", "Bob"],
        deck=stacked(SETUP_P0, SETUP_S0, SETUP_P1, SETUP_S1),
        seed=1,
    )
    assert tops(game, 0) == ["7H", "7S", "9H", "KD", "5H"]
    assert sorted(legal(game, 0)) == ["combine 1 2", "combine 2 1", "ready"]
    game.act(0, "combine 1 2")
    assert tops(game, 0) == [None, "7H", "9H", "KD", "5H"]
    assert "fill 5 1" in legal(game, 0)
    assert not [a for a in legal(game, 0) if a.startswith("play")]
    game.act(0, "fill 5 1")
    assert tops(game, 0) == ["5H", "7H", "9H", "KD", "KC"]
    game.act(0, "combine 5 4")
    assert tops(game, 0) == ["5H", "7H", "9H", "KC", "9S"]
    game.act(0, "combine 3 5")
    seat = table(game)["seats"][0]
    assert seat["layout"] == [
        ["5H"],
        ["7H", "7S", None],
        ["2C", None],
        ["KC", "KD", None, None, None],
        ["9H", "9S", None, None],
    ]
    assert seat["cards"] == 26 and seat["spit_cards"] == 11
    assert legal(game, 0) == ["ready"]
    game.act(0, "ready")
    game.act(1, "ready")
    t = table(game)
    assert t["piles"] == {"L": ["AH"], "R": ["7D"]}
    assert [s["spit_cards"] for s in t["seats"]] == [10, 10]


def test_spit_canfield_setup_combine_then_fill_from_the_tall_pile():
    """SPIT-SETUP-5 (``spit.canfield``) with SPIT-SETUP-6 and SPIT-MOVE-5/6/7.

    Canfield layout: cards 1-4 single face-up piles, cards 5-15 pile 5 (ten face down
    under the 15th). Ann: 7H | 7S | 9C | JD | 3S 4S 6S 10S QS KS AD 2D 3D 9D 2H.
    1. ``combine 1 2``: 7H onto 7S; pile 1 is a space.
    2. ``fill 5 1``: 2H into it; pile 5 turns up 9D (nine face down remain), which
       matches pile 3's 9C.
    Tops 2H 7H 9C JD 9D; Ann may now combine 3 5 or 5 3; Bob's row is untouched."""
    p0 = [["7H"], ["7S"], ["9C"], ["JD"]]
    p0 += [["3S", "4S", "6S", "10S", "QS", "KS", "AD", "2D", "3D", "9D", "2H"]]
    s0 = ["AH", "3H", "4H", "5H", "6H", "8H", "9H", "10H", "JH", "QH", "KH"]
    p1 = [["2S"], ["5S"], ["8S"], ["JS"]]
    p1 += [["4D", "5D", "6D", "7D", "8D", "AC", "2C", "3C", "4C", "5C", "6C"]]
    s1 = ["7C", "8C", "10C", "JC", "QC", "KC", "10D", "QD", "KD", "9S", "AS"]
    game = cardcore.new_game(
        "spit",
        ["Ann", "Bob"],
        deck=stacked(p0, s0, p1, s1, canfield=True),
        rules=["spit.canfield"],
        seed=1,
    )
    assert tops(game, 0) == ["7H", "7S", "9C", "JD", "2H"]
    assert [len(p) for p in table(game)["seats"][0]["layout"]] == [1, 1, 1, 1, 11]
    game.act(0, "combine 1 2")
    game.act(0, "fill 5 1")
    layout = table(game)["seats"][0]["layout"]
    assert [p[0] if p else None for p in layout] == ["2H", "7H", "9C", "JD", "9D"]
    assert layout[1] == ["7H", "7S"]
    assert layout[4] == ["9D"] + [None] * 9
    assert {"combine 3 5", "combine 5 3", "ready"} <= set(legal(game, 0))
    assert tops(game, 1) == ["2S", "5S", "8S", "JS", "6C"]


# --------------------------------------------------------------------------- Spit: stuck


def test_spit_a_player_without_spit_cards_may_still_call_spit_and_only_the_other_spits():
    """Seed: "If ... both players are stuck or choose not to play, both players again say
    'spit'"; SPIT-STUCK-3(a), SPIT-STUCK-4, SPIT-MOVE-11.

    Ann: 5H | 9C, no spit cards; Bob: KC | QC, spit cards AD 3D (3D on top); L = 4S,
    R = 7D. Ann could play 5H on 4S but chooses not to: she says ``spit``, and so does
    Bob (who cannot play). Both requests are out, so the spit is due; Ann has no spit
    card and turns nothing, Bob turns 3D onto his own pile R. L stays 4S; spit cards
    0 and 1; the requests are used up."""
    game = spit(
        [["5H"], ["9C"]],
        [["KC"], ["QC"]],
        spit1=["AD", "3D"],
        left=["4S"],
        right=["7D"],
    )
    assert "play 1 L" in legal(game, 0) and "spit" in legal(game, 0)
    game.act(0, "spit")
    assert table(game)["piles"]["R"] == ["7D"]  # one request alone spits nothing
    game.act(1, "spit")
    t = table(game)
    assert t["piles"]["R"] == ["3D", "7D"]
    assert t["piles"]["L"][0] == "4S" and len(t["piles"]["L"]) == 52 - 4 - 2 - 1
    assert [s["spit_cards"] for s in t["seats"]] == [0, 1]
    assert [s["requested"] for s in t["seats"]] == [False, False]


def test_spit_recycle_when_one_centre_pile_is_only_its_top_card():
    """SPIT-STUCK-3(b), SPIT-STUCK-4, SPIT-STUCK-5.

    Nobody has spit cards. L = KS alone; R holds 43 cards, 6D on top; Bob's pile 2 is
    3H* under 7C. Bob plays 7C on 6D and turns up 3H. Now Ann's 5H 9C and Bob's 10C 3H JC
    2C 4C fit neither K (Q/A) nor 7 (6/8); no combine (all ranks differ); Ann's only fills
    move single cards (uncover nothing) and Bob has no space: a spit is due with no spit
    cards, so the centre is recycled. L keeps KS and yields nothing: Ann gets no spit
    card and spits nothing, L stays [KS]. R keeps 7C (now its bottom card) and the 43
    cards under it become Bob's spit cards; Bob alone spits onto R until a top fits
    somebody: spat = len(R) - 1 >= 1, Bob's spit cards 43 - spat, Ann's 0."""
    game = spit(
        [["5H"], ["9C"]],
        [["10C"], ["3H", "7C"], ["JC"], ["2C"], ["4C"]],
        left=["KS"],
        right=["6D"],
        rest="pile.R",
    )
    assert len(table(game)["piles"]["R"]) == 43
    game.act(1, "play 2 R")
    t = table(game)
    assert t["piles"]["L"] == ["KS"]
    assert t["piles"]["R"][-1] == "7C"
    spat = len(t["piles"]["R"]) - 1
    assert spat >= 1
    assert [s["spit_cards"] for s in t["seats"]] == [0, 43 - spat]
    assert tops(game, 1)[1] == "3H"
    assert t["phase"] == "play" and t["deal"] == 1
    assert any(a.startswith("play") for seat in (0, 1) for a in legal(game, seat))


def test_spit_void_single_pile_deal_gives_the_small_players_played_card_to_the_starter():
    """SPIT-START-2, SPIT-STUCK-3(c)/4/5/6 in single-pile mode (SPIT-END-5).

    Single pile R started by Bob, who has no spit cards left; R holds 34 cards, 4S on
    top. Ann holds 5H | 9C | KD, no spit cards. Bob's 15-card row shows QC JC 10C 2C 8C.
    ``stall_limit`` 1: every action that puts no card on the pile and turns up nothing
    forces a spit (SPIT-STUCK-3 c). Ann plays 5H on 4S (R: 35 cards), then only moves
    her single cards between spaces (``fill``), never playing. Spits are due; nobody
    has spit cards: recycle (R keeps 5H, the 34 under it go to Bob, the starter), Bob
    alone spits them one by one; when they are gone a second recycle is due with no
    layout card played since the first, so the deal is void (SPIT-STUCK-6): each
    gathers own layout, spit cards and home pile. Ann: 9C KD = 2 cards; Bob: 15 + R (35)
    = 50, Ann's 5H included. New setup phase, single-pile again, Bob's pile: Ann lays
    [1, 1, 0, 0, 0] and no spit cards, Bob 15 + 35."""
    bob = [
        ["QC"],
        ["AS", "JC"],
        ["2S", "3S", "10C"],
        ["5S", "6S", "7S", "2C"],
        ["8S", "9S", "10S", "JS", "8C"],
    ]
    game = spit(
        [["5H"], ["9C"], ["KD"]],
        bob,
        right=["4S"],
        rest="pile.R",
        single=1,
        options={"stall_limit": 1},
    )
    assert table(game)["mode"] == "single-pile"
    assert len(table(game)["piles"]["R"]) == 34
    game.act(0, "play 1 R")
    assert len(table(game)["piles"]["R"]) >= 2  # 5H stays the bottom after the recycle
    for _ in range(200):
        if table(game)["phase"] != "play":
            break
        fills = [a for a in legal(game, 0) if a.startswith("fill")]
        game.act(0, fills[0])
    t = table(game)
    assert t["phase"] == "setup"
    assert t["mode"] == "single-pile"
    assert [s["cards"] for s in t["seats"]] == [2, 50]
    assert [s["spit_cards"] for s in t["seats"]] == [0, 35]
    assert [len(p) for p in t["seats"][0]["layout"]] == [1, 1, 0, 0, 0]
    assert sorted(p[0] for p in t["seats"][0]["layout"] if p) == ["9C", "KD"]
    assert [len(p) for p in t["seats"][1]["layout"]] == [1, 2, 3, 4, 5]
    game.act(0, "ready")
    game.act(1, "ready")
    t = table(game)
    # Only Bob turns spit cards: the start card, and more if nobody can play on it.
    assert t["piles"]["L"] is None and len(t["piles"]["R"]) >= 1
    assert [s["spit_cards"] for s in t["seats"]] == [0, 35 - len(t["piles"]["R"])]


# --------------------------------------------------------------------------- Spit: deal and game end


def test_spit_single_pile_roles_swap_when_the_starter_empties_with_few_spit_cards():
    """SPIT-END-5/6, SPIT-START-2, SPIT-WIN-2, SPIT-SETUP-4.

    Single pile R started by Bob. Bob: 3H | 2H and 10 spit cards; Ann (no spit cards):
    5H | 7C and every other card lies in R under 2S 3S 4S. Bob plays 3H on 4S and 2H on
    3H: his row is empty first, so he takes nothing from the centre and keeps his 10 spit
    cards (SPIT-END-6); the game goes on (SPIT-WIN-2). Ann takes R and her own row:
    52 - 10 = 42. Next deal Bob starts with 10 <= 15 cards: single-pile again, but now
    Ann is the one with spit cards, so she starts the only pile, L (SPIT-START-2). Bob
    lays out 10 cards as [1, 2, 3, 2, 2] with no spit cards; Ann 15 + 27."""
    spit1 = ["4C", "5C", "6C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"]
    game = spit(
        [["5H"], ["7C"]],
        [["3H"], ["2H"]],
        spit1=spit1,
        right=["2S", "3S", "4S"],
        rest="pile.R",
        single=1,
    )
    game.act(1, "play 1 R")
    game.act(1, "play 2 R")
    assert not game.is_over
    t = table(game)
    assert t["deal"] == 2 and t["mode"] == "single-pile" and t["phase"] == "setup"
    assert [s["cards"] for s in t["seats"]] == [42, 10]
    assert [s["spit_cards"] for s in t["seats"]] == [27, 0]
    assert [len(p) for p in t["seats"][1]["layout"]] == [1, 2, 3, 2, 2]
    assert [len(p) for p in t["seats"][0]["layout"]] == [1, 2, 3, 4, 5]
    game.act(0, "ready")
    game.act(1, "ready")
    t = table(game)
    assert t["piles"]["R"] is None and len(t["piles"]["L"]) >= 1
    assert not [a for a in legal(game, 1) if a.endswith(" R")]


# --------------------------------------------------------------------------- Speed


def test_speed_refill_stops_with_the_stock_and_the_last_card_wins_without_a_side_turn():
    """SPEED-PLAY-1/2, SPEED-END-1, SPEED-STUCK-1.

    Ann: hand 5H 6H 7H 8H 9H, stock JH 10H (10H on top); Bob: hand KC KD KS 2C 2D, which
    never fits L (4..J) nor R (7C); side piles 3 cards each; L = 4S.
    Ann plays 5H: hand 4 -> refill 10H (stock 1). 6H: refill JH (stock 0). Then 7H, 8H,
    9H, 10H, JH with no refill: hand 4, 3, 2, 1, 0. After JH her hand and stock are
    empty: she wins at once (SPEED-END-1). Nobody can play then, but the game is over:
    no side card turns (side piles still 3 and 3, R still 7C), and Bob may do nothing."""
    game = cardcore.new_game(
        "speed",
        2,
        position=speed_position(
            ["5H", "6H", "7H", "8H", "9H"],
            ["KC", "KD", "KS", "2C", "2D"],
            stock0=["JH", "10H"],
            side0=["3C", "4C", "5C"],
            side1=["3D", "4D", "5D"],
            left=["4S"],
            right=["7C"],
        ),
        seed=1,
    )
    counts = []
    for i, card in enumerate(["5H", "6H", "7H", "8H", "9H", "10H", "JH"]):
        game.act(0, f"play {card} L", at=1.0 + i)
        seat = game.view(0)["table"]["seats"][0]
        counts.append((len(seat["hand"]), seat["stock"]))
        if i == 0:
            assert "10H" in seat["hand"] and "JH" not in seat["hand"]
        if i == 1:
            assert "JH" in seat["hand"]
    assert counts == [(5, 1), (5, 0), (4, 0), (3, 0), (2, 0), (1, 0), (0, 0)]
    assert game.is_over
    assert game.result.winners == (0,)
    t = game.view(None)["table"]
    assert t["piles"]["L"][0] == "JH"
    assert t["piles"]["R"] == ["7C"]
    assert [s["side"] for s in t["seats"]] == [3, 3]
    assert legal(game, 1) == []


def test_spit_a_request_survives_the_requesters_own_uncovering_combine():
    """SPIT-STUCK-1/3(a), SPIT-MOVE-5/7: "a card reaching a spit pile clears all requests"
    (seeds/spit.md SPIT-STUCK-3); a combine reaches no spit pile.

    Ann: 9H | 5D* 9C | JH | 2H | KS, spit cards AC 3C (3C on top); Bob: KC | QC | JC |
    10C | 9S, spit cards 3D on top of the other 36 cards; L = 6S, R = 6D; nobody can
    play. Ann says ``spit`` (Bob has not yet),
    then combines 9C onto 9H, which turns up 5D (a card that fits both sixes): no spit is
    due by (b) any more, but her request stands. Bob says ``spit``: both requests are
    out, so both spit onto their own piles: L = 3C 6S, R = 3D 6D (top first); spit
    cards 1 and 36; the requests are used up."""
    game = spit(
        [["9H"], ["5D", "9C"], ["JH"], ["2H"], ["KS"]],
        [["KC"], ["QC"], ["JC"], ["10C"], ["9S"]],
        spit0=["AC", "3C"],
        spit1=["3D"],
        left=["6S"],
        right=["6D"],
        rest="spit.1",
    )
    assert [s["spit_cards"] for s in table(game)["seats"]] == [2, 37]
    game.act(0, "spit")
    game.act(0, "combine 2 1")
    assert table(game)["seats"][0]["requested"] is True
    assert table(game)["piles"] == {"L": ["6S"], "R": ["6D"]}
    game.act(1, "spit")
    t = table(game)
    assert t["piles"] == {"L": ["3C", "6S"], "R": ["3D", "6D"]}
    assert [s["spit_cards"] for s in t["seats"]] == [1, 36]
    assert [s["requested"] for s in t["seats"]] == [False, False]
