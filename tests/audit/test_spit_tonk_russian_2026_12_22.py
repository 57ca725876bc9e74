"""Fidelity audit of Spit, Speed and Tonk against the user's original seed texts (2026-12-22).

The authority is the seed text itself, not the English working renderings:

* ``../shared/seeds/000_6d771d377e1aefe8.txt`` (Spit, with Speed) is in **Russian**;
* ``../shared/seeds/002_66a200852170e075.txt`` (Tonk) is in **Persian** (a machine
  translation of the gamerules.com page), not Russian.

Every test quotes the seed sentence it checks, with the auditor's own translation, and
is named after the rule ID of ``seeds/spit.md`` / ``seeds/tonk.md`` it exercises. Every
expected number was worked out by hand from the seed sentence before running the engine.
Where the engine follows a recorded reading of ``rules-decisions.md`` rather than the
literal seed, the test says so and pins the recorded reading (the argument against it is
in the audit report, not here). The audit found no engine behaviour that contradicts the
seed outside a recorded decision, so this file has no xfail. Only the public API is used; every game is stacked
(``deck=`` or ``position=``) with a fixed seed.
"""

from __future__ import annotations

import pytest

import cardcore

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL = [r + s for s in "SHDC" for r in RANKS]


# =========================================================================== helpers


def legal(game, seat):
    return [str(a) for a in game.legal_actions(seat)]


def table(game):
    return game.view(None)["table"]


def spit_position(lay0, lay1, spit0=(), spit1=(), left=(), right=(), single=-1):
    """A Spit play-phase position. Layouts, spit cards and piles are bottom -> top; the
    top card of every layout pile is face up. Cards not named lie at the bottom of L (in
    single-pile mode, at the bottom of the spit cards of seat *single*, who has them)."""
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
    rest = f"spit.{single}" if single >= 0 else "pile.L"
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


def spit(*args, **kw):
    return cardcore.new_game("spit", 2, position=spit_position(*args, **kw), seed=1)


def speed(hand0, hand1, stock0=(), stock1=(), side0=(), side1=(), left=(), right=(), **opts):
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
    deck = ALL + (["JK", "JK"] if opts.get("jokers") else [])
    used = [c for cards in zones.values() for c in cards]
    rest = list(deck)
    for c in used:
        rest.remove(c)
    zones["pile.L"][:0] = rest
    parts = ["speed v=1 requests=[false,false] recycled=false"]
    for name, cards in zones.items():
        if name.startswith("hand"):
            text = " ".join(f"{c}@{name[-1]}" for c in cards)
        elif name.startswith("pile"):
            text = " ".join(c + "!" for c in cards)
        else:
            text = " ".join(cards)
        parts.append(f"{name}: {text}".rstrip())
    return cardcore.new_game("speed", 2, position=" | ".join(parts), seed=1, options=opts)


def tonk_deck(hands, up, stock=(), dealer=0):
    """Top first: five rounds of one card each from the dealer's left, the upcard, stock."""
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    out = [hands[seat][r] for r in range(5) for seat in order]
    if up:
        out.append(up)
    out += list(stock)
    assert len(set(out)) == len(out)
    return " ".join(out + [c for c in ALL if c not in out])


def tonk(hands, up="8S", stock=(), dealer=0, stake=1, rules=()):
    opts = {"first_dealer": dealer, "stake": stake}
    deck = tonk_deck(hands, up, stock, dealer)
    return cardcore.new_game("tonk", len(hands), deck=deck, options=opts, seed=3, rules=list(rules))


def tonk_at(hands, stock, discard_top, dealer, turn, spreads=()):
    """A Tonk position at the start of *turn*'s turn; unnamed cards are buried discards.
    *spreads*: ``(cards, owner)`` pairs, in the order laid."""
    used = set(stock) | {discard_top} | {c for h in hands for c in h}
    used |= {c for cards, _ in spreads for c in cards}
    buried = [c for c in ALL if c not in used]
    zeros = ",".join(["0"] * len(hands))
    meta = ""
    if spreads:
        meta = " spreads=[" + ",".join(f"[{len(c)},{o}]" for c, o in spreads) + "]"
    parts = [
        f'tonk played=0 dealer={dealer} turn={turn} phase="start" balances=[{zeros}] '
        f"chance=1{meta}",
        "stock: " + " ".join(stock),
        "discard: " + " ".join([*buried, discard_top + "!"]),
        *(f"hand.{i}: " + " ".join(h) for i, h in enumerate(hands)),
        "spreads: " + " ".join(c for cards, _ in spreads for c in cards),
    ]
    return " | ".join(p.rstrip() for p in parts)


def totals(game):
    return next(h for h in game.history(None) if h.get("kind") == "hand")["totals"]


# =========================================================================== Spit


def test_spit_gen_2_no_jokers_in_spit():
    """«в Spit джокеры удаляются из колоды» - "in Spit the jokers are removed from the
    deck": Spit has no joker option at all (Speed has one)."""
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game("spit", 2, options={"jokers": 2}, seed=1)


def test_spit_setup_1_2_3_whole_deck_five_piles_eleven_spit_cards():
    """«Вся колода делится между ними, и каждый игрок делает пять стопок ... Стопка 1:
    (0 карт рубашкой вверх), 1 карта ... Стопка 5: 4 карты рубашкой вверх, 1 карта»;
    «Одиннадцать оставшихся карт каждого игрока ... это сплюнутые карты».
    "The whole deck is divided between them; each makes five stacks: stack k has k-1
    face-down cards and one more card [face up: see SPIT-GAP-3] ... each player's eleven
    remaining cards are the spit cards." 26 = 15 + 11."""
    game = cardcore.new_game("spit", 2, deck=" ".join(ALL), seed=1)
    for seat in table(game)["seats"]:
        assert seat["cards"] == 26 and seat["spit_cards"] == 11
        assert [len(p) for p in seat["layout"]] == [1, 2, 3, 4, 5]
        # the top of each stack is shown, every card under it is hidden
        assert all(p[0] is not None and all(c is None for c in p[1:]) for p in seat["layout"])


@pytest.mark.parametrize("t", range(13))
def test_spit_move_2_3_4_consecutive_values_either_way_ace_next_to_king_and_two(t):
    """«5 можно положить на 4 или 6, но не на другую 5. Туз считается последовательным
    как для короля, так и для 2.» - "a 5 can go on a 4 or a 6 but not on another 5; the
    ace counts as consecutive to both the king and the 2". Suits play no part: the pile
    top is a spade, the layout cards hearts/diamonds. Pile 1 holds rank t-1, pile 2 t+1
    (both legal, wrapping round K-A), pile 3 rank t (illegal), piles 4/5 t+2 and t+6."""
    r = lambda k: RANKS[(t + k) % 13]  # noqa: E731
    lay0 = [[r(-1) + "H"], [r(1) + "H"], [r(0) + "D"], [r(2) + "H"], [r(6) + "H"]]
    lay1 = [[r(4) + "C"]]
    game = spit(lay0, lay1, left=[r(0) + "S"], right=[r(9) + "C"])
    plays = {a for a in legal(game, 0) if a.endswith(" L") and a.startswith("play")}
    assert plays == {"play 1 L", "play 2 L"}


def test_spit_move_7_card_under_a_played_card_is_turned_and_may_be_played():
    """«Когда используется открытая карта, можно перевернуть следующую карту под ней в ее
    стопке и затем сыграть.» - "when a face-up card is used, the next card under it in
    its stack may be turned over and then played". 5H goes on 4S; 6D under it turns up
    and goes on the 5H."""
    game = spit([["7C"], ["6D", "5H"]], [["KC"]], left=["4S"], right=["9D"])
    game.act(0, "play 2 L")
    assert table(game)["seats"][0]["layout"][1] == ["6D"]
    game.act(0, "play 2 L")
    assert table(game)["piles"]["L"][:3] == ["6D", "5H", "4S"]


def test_spit_move_6_empty_stack_takes_any_face_up_card_and_turns_the_next():
    """«Если стопка рядов пуста, игрок может переложить любую открытую карту в это
    пространство и перевернуть следующую карту.» - "if a stack of the row is empty, the
    player may move any face-up card into that space and turn over the next card"."""
    game = spit([[], ["2C", "JH"], ["QS"]], [["KC"]], left=["4S"], right=["9D"])
    game.act(0, "fill 2 1")
    lay = table(game)["seats"][0]["layout"]
    assert lay[0] == ["JH"] and lay[1] == ["2C"]


def test_spit_stuck_1_2_both_choose_not_to_play_each_spits_onto_own_pile():
    """«Если ход игры достигает точки, где оба игрока застряли или решили не играть карту,
    оба игрока снова одновременно говорят «плюнь» и каждый игрок переворачивает свою
    верхнюю карту плюнь лицом вверх, помещая ее в одну из стопок» - "if both are stuck
    or decide not to play a card, both say spit and each turns their top spit card face
    up onto one of the spit piles". Both could play (5H on 4S, KC on QD) yet both ask:
    each spit card goes on the spitter's home pile (SPIT-STUCK-2, recorded SPIT-GAP-5)."""
    game = spit(
        [["5H"], ["9C"]],
        [["KC"], ["8D"]],
        spit0=["2S", "7S"],
        spit1=["2D", "10D"],
        left=["4S"],
        right=["QD"],
    )
    game.act(0, "spit")
    assert table(game)["piles"]["L"][0] == "4S"  # one request changes nothing
    game.act(1, "spit")
    t = table(game)
    assert t["piles"]["L"][:2] == ["7S", "4S"] and t["piles"]["R"][:2] == ["10D", "QD"]
    assert [s["spit_cards"] for s in t["seats"]] == [1, 1]


@pytest.mark.parametrize(("slapper", "pile", "cards"), [(1, "R", [48, 4]), (0, "R", [3, 49])])
def test_spit_end_2_4_first_slap_takes_slapped_pile_other_takes_other(slapper, pile, cards):
    """«Тот, кто шлепнет первым, получает шлепок по стопке, а другой игрок забирает другую
    стопку плевков ... Эти карты добавляются к оставшимся картам плевков игрока» - "whoever
    slaps first gets the slapped pile, the other player takes the other spit pile; these
    cards are added to the player's remaining spit cards" (and, recorded SPIT-GAP-10, to
    the remaining layout cards). Seat 0 plays its last card 5H onto L (L = 46 cards, R =
    JD). Seat 0 has 2 spit cards; seat 1 has 1 spit card and 2 layout cards.
    Seat 1 slaps R: seat 0 gets L + 2 = 48, seat 1 gets 1 + 1 + 2 = 4 (single-pile next).
    Seat 0 slaps R: seat 0 gets 1 + 2 = 3, seat 1 gets 46 + 1 + 2 = 49. A second slap is
    refused: the first decides."""
    game = spit(
        [["5H"]],
        [["KS"], ["QS"]],
        spit0=["2C", "3C"],
        spit1=["2D"],
        left=["9C", "4C"],
        right=["JD"],
    )
    game.act(0, "play 1 L")
    assert sorted(legal(game, 1)) == ["slap L", "slap R"]
    game.act(slapper, f"slap {pile}")
    t = table(game)
    assert t["deal"] == 2 and [s["cards"] for s in t["seats"]] == cards
    assert t["mode"] == "single-pile"  # one player now has 15 cards or fewer
    with pytest.raises((cardcore.IllegalActionError, cardcore.StaleActionError)):
        game.act(1 - slapper, "slap L")


def test_spit_end_5_6_win_1_player_without_spit_cards_empties_first_and_wins():
    """«Когда один игрок начинает с пятнадцатью картами или меньше, будет только одна
    стопка для плевков» and «Если игрок без карточек в руке также первым избавляется от
    своих рядов, он выигрывает игру.» - "when one player starts with fifteen cards or
    fewer there is only one spit pile"; "if the player with no cards in hand is also the
    first to get rid of their rows, they win the game"."""
    game = spit(
        [["5H"]],
        [["KC"], ["9D", "QC"]],
        spit1=["AD", "3D", "4D"],
        right=["2S", "3S", "4S"],
        single=1,
    )
    assert table(game)["mode"] == "single-pile"
    game.act(0, "play 1 R")
    assert game.is_over and game.result.winners == (0,)


def test_spit_end_6_win_2_opponent_empties_first_takes_nothing_game_continues():
    """«первый игрок, который избавится от своих рядов, не берет ничего из центра.
    Соперник забирает стопку для плевков и свои карты стола.» ... «Если его противник
    первым избавляется от своего стола, игра продолжается.» - "the first to get rid of
    their rows takes nothing from the centre; the opponent takes the spit pile and their
    own table cards ... if [the small player's] opponent clears their table first, the game
    continues". Seat 1 (the player with spit cards) empties first and takes nothing; seat 0
    takes R (2S 3S 4S 3H 2H) and its own layout (5H 7C): 7 cards; seat 1 keeps only its
    own spit cards, 52 - 7 = 45.
    """
    game = spit(
        [["5H"], ["7C"]],
        [["3H"], ["2H"]],
        spit1=["AD", "3D", "4D"],
        right=["2S", "3S", "4S"],
        single=1,
    )
    game.act(1, "play 1 R")
    game.act(1, "play 2 R")
    assert not game.is_over
    t = table(game)
    assert t["deal"] == 2 and [s["cards"] for s in t["seats"]] == [7, 45]


# =========================================================================== Speed


@pytest.mark.parametrize(("side", "stock"), [(5, 15), (15, 5)])
def test_speed_setup_2_3_side_piles_five_give_twenty_fifteen_give_ten(side, stock):
    """«Если во внешних стопках посередине пять карт, каждому игроку раздается по двадцать
    карт, а если карт пятнадцать, раздается по десять.» ... «В Speed у каждого игрока есть
    одна стопка запаса лицом вниз и рука из пяти карт.» - "if the outer middle piles hold
    five cards each player is dealt twenty, if fifteen, ten"; "in Speed each player has one
    face-down stock and a hand of five". 20 = 5 + 15, 10 = 5 + 5."""
    game = cardcore.new_game("speed", 2, deck=" ".join(ALL), options={"side_pile": side}, seed=1)
    for seat in game.view(0)["table"]["seats"]:
        assert (len(seat["hand"]), seat["stock"], seat["side"]) == (5, stock, side)


def test_speed_setup_2_ten_card_side_piles_are_refused_as_recorded():
    """«две из которых содержат по пять или десять карт» - "two of which hold five or ten
    cards": read as a slip for fifteen (recorded SPIT-GAP-17: 2 + 2x10 + 2x20 > 52)."""
    with pytest.raises(cardcore.OptionError, match=r"\(SPEED-SETUP-2\)"):
        cardcore.new_game("speed", 2, options={"side_pile": 10}, seed=1)


def test_speed_gen_1_jokers_are_wild():
    """«Speed позволяет игрокам использовать джокеров в качестве диких карт» - "Speed lets
    players use jokers as wild cards": a joker goes on either pile (A, K) and any card
    goes on it."""
    game = speed(
        ["JK", "9C", "9D", "9H", "9S"],
        ["5C", "5D", "5H", "5S", "JC"],
        stock0=["KD", "6D"],
        stock1=["QD"],
        side0=["JD"],
        side1=["4D"],
        left=["AC"],
        right=["KH"],
        jokers=2,
    )
    assert "play JK L" in legal(game, 0) and "play JK R" in legal(game, 0)
    game.act(0, "play JK R")
    assert "play 5C R" in legal(game, 1) and "play JC R" in legal(game, 1)


# =========================================================================== Tonk

D8 = ["AS", "AH", "AD", "2S", "3S"]  # 8
O35 = ["4H", "5H", "7D", "9C", "KC"]  # 35
O29 = ["2H", "3D", "6C", "8S", "QD"]  # 29
O26 = ["2H", "3D", "8S", "9D", "4S"]  # 26
N50 = ["KS", "KH", "QD", "JC", "10S"]  # 50
N49 = ["KS", "KH", "QH", "JC", "9S"]  # 49


@pytest.mark.parametrize(("n", "ok"), [(1, False), (2, True), (3, True), (4, False)])
def test_tonk_gen_1_two_to_three_players(n, ok):
    """«تعداد بازیکنان: 2-3 بازیکن» - "number of players: 2-3" (4 only by option)."""
    if ok:
        assert len(cardcore.new_game("tonk", n, seed=1).view(0)["table"]["hand"]) == 5
    else:
        with pytest.raises(cardcore.OptionError):
            cardcore.new_game("tonk", n, seed=1)


def test_tonk_deal_1_2_five_each_from_dealers_left_then_upcard_rest_is_stock():
    """«فروشنده به هر بازیکن پنج کارت را یکی در یک زمان، از سمت چپ آنها میدهد. پس از
    اینکه هر بازیکن پنج کارت داشته باشد، کارت بالایی روی عرشه برگردانده میشود تا توده
    حذف ایجاد شود. عرشه باقی مانده سهام است.» - "the dealer gives each player five cards
    one at a time, from their left; then the top card is turned to start the discard pile;
    the rest of the deck is the stock". Dealer seat 2: the deck's first card goes to seat 0."""
    deck = " ".join(ALL)  # AS 2S 3S ... top first
    game = cardcore.new_game("tonk", 3, deck=deck, options={"first_dealer": 2}, seed=1)
    assert sorted(game.view(0)["table"]["hand"]) == sorted(["AS", "4S", "7S", "10S", "KS"])
    assert sorted(game.view(2)["table"]["hand"]) == sorted(["3S", "6S", "9S", "QS", "2H"])
    t = game.view(0)["table"]
    assert t["stock"] == 52 - 15 - 1 and t["discard_count"] == 1
    assert game.to_act == (0,)  # «بازی با بازیکن سمت چپ فروشنده شروع می شود»


def test_tonk_49_1_natural_fifty_collects_double_stake_from_each():
    """«اگر دست بازیکن در ابتدا به49 یا 50 امتیاز ... دست بازی نمی شود و بازیکنی که تونک
    دارد از هر بازیکن دو برابر سهم دریافت می کند.» - "if a player's hand initially totals
    49 or 50 ... the hand is not played and the tonk holder receives double the stake
    from each player". Three players, stake 5: (+20, -10, -10)."""
    game = tonk([N50, D8, O35], up="2D", dealer=2, stake=5)
    assert game.is_over and game.result.reason == "natural"
    assert game.result.payouts == (20, -10, -10)


def test_tonk_49_1_natural_forty_nine_two_players():
    """Same sentence, 49 (K K Q J 9), two players, stake 3: (-6, +6)."""
    game = tonk([D8, N49], up="2D", dealer=1, stake=3)
    assert game.is_over and game.result.payouts == (-6, 6)


def test_tonk_49_2_two_naturals_nobody_paid_new_hand_dealt():
    """«اگر بیش از یک بازیکن با دست مجموعاً 49 یا 50 امتیاز داشته باشد مساوی است.
    هیچکدام پرداخت نمیشوند، همه کارتها جمعآوری میشوند، به هم میریزند، و یک دست جدید
    پخش میشود.» - "if more than one player totals 49 or 50 it is a tie: nobody is paid,
    all cards are gathered, shuffled and a new hand dealt"."""
    n49 = ["KD", "KC", "QC", "JD", "9D"]
    game = tonk([N50, n49, D8], up="2H", dealer=2)
    assert not game.is_over
    t = game.view(0)["table"]
    assert len(t["hand"]) == 5 and t["stock"] == 52 - 16
    assert list(t["balances"]) == [0, 0, 0]


def test_tonk_49_3_fifty_reached_later_is_not_a_tonk():
    """«پس از شروع بازی، تلاش برای کسب 49 یا 50 امتیاز فایده ای ندارد» - "once play has
    begun there is no point trying for 49 or 50". Seat 0 starts a later turn holding 50:
    nothing happens; dropping with 50 is simply caught by the lower 8."""
    game = cardcore.new_game("tonk", 2, position=tonk_at([N50, D8], ["2C"], "2D", 1, 0), seed=1)
    assert not game.is_over
    game.act(0, "drop")
    assert game.result.reason == "drop-caught" and game.result.payouts == (-2, 2)


def test_tonk_turn_2_drop_only_at_the_start_of_the_turn():
    """«می توانید بازی را در ابتدا با قرار دادن تمام کارت های خود رو به بالا روی میز به
    پایان برسانید» - "you can end the game at the start [of your turn] by laying all
    your cards face up": after drawing, dropping is not offered."""
    game = tonk([D8, O35], up="2D", stock=["QH"], dealer=1)
    assert legal(game, 0)[:3] == ["drop", "draw", "take"]
    game.act(0, "draw")
    assert "drop" not in legal(game, 0)
    with pytest.raises(cardcore.IllegalActionError, match=r"\(TONK-TURN-2\)"):
        game.act(0, "drop")


def test_tonk_spread_2_run_of_one_suit_ace_low_only():
    """«Runs از سه یا چند کارت به ترتیب از یک لباس تشکیل شده است. به عنوان مثال، (بیل)
    A-2-3-4. آس به عنوان کارت کم به حساب می آید.» - "runs are three or more cards in
    sequence of one suit, e.g. (spades) A-2-3-4; the ace counts low"."""
    game = tonk([["AS", "2S", "3S", "QH", "KH"], O35], up="2D", stock=["4S", "AH"], dealer=1)
    game.act(0, "draw")
    assert "spread AS 2S 3S 4S" in legal(game, 0)
    game.act(0, "discard QH")
    game.act(1, "draw")
    game.act(1, "discard AH")
    game.act(0, "take")
    assert not any(a.startswith("spread") and "AH" in a for a in legal(game, 0))  # Q-K-A


def test_tonk_hit_1_seed_example_four_of_clubs_on_five_six_seven():
    """«اگر اسپرد (باشگاه ها) 5-6-7 دارید و 4 کلوپ در دست دارید، می توانید آن را در طول
    نوبت خود (قبل از دور انداختن) به اسپرد اضافه کنید.» - "if you have a (clubs) 5-6-7
    spread and the 4 of clubs in hand, you may add it during your turn (before
    discarding)"."""
    game = tonk([["5C", "6C", "7C", "QH", "KH"], O35], up="2D", stock=["JS", "QS", "4C"], dealer=1)
    game.act(0, "draw")
    game.act(0, "spread 5C 6C 7C")
    game.act(0, "discard JS")
    game.act(1, "draw")
    game.act(1, "discard QS")
    game.act(0, "draw")
    game.act(0, "hit 1 4C")
    assert game.view(0)["table"]["spreads"][0]["cards"] == ["4C", "5C", "6C", "7C"]


def test_tonk_out_1_playing_all_cards_without_discarding_pays_double():
    """«اگر بازیکنی همه کارتهای خود را بازی کند. بدون دور انداختن ، این یک "tonk" است
    ... آنها دو برابر سهم از هر بازیکن دریافت می کنند.» - "if a player plays all their
    cards without discarding it is a tonk; they receive double the stake from each
    player". Three players, stake 2: (+8, -4, -4)."""
    game = tonk(
        [["5C", "6C", "7C", "QH", "QD"], O35, O26], up="2D", stock=["QC"], dealer=2, stake=2
    )
    game.act(0, "draw")
    game.act(0, "spread 5C 6C 7C")
    game.act(0, "spread QH QD QC")
    assert game.result.reason == "tonk-out" and game.result.payouts == (8, -4, -4)


def test_tonk_out_2_emptying_the_hand_by_the_discard_pays_the_stake():
    """«اگر بازیکنی پس از دور انداختن کارت هایش تمام شد، بازیکنی که دست خالی دارد، شرط
    اصلی را از هر بازیکن جمع می کند.» - "if a player runs out of cards after discarding,
    the player with the empty hand collects the basic stake from each player". Seat 0
    holds 3H QH QS, draws QC, lays Q-Q-Q, discards 3H. Three players, stake 2: (+4, -2, -2)."""
    pos = tonk_at([["3H", "QH", "QS"], O35, O29], ["QC"], "2D", 2, 0)
    game = cardcore.new_game("tonk", 3, position=pos, seed=1, options={"stake": 2})
    game.act(0, "draw")
    game.act(0, "spread QH QS QC")
    assert not game.is_over
    game.act(0, "discard 3H")
    assert game.result.reason == "out" and game.result.payouts == (4, -2, -2)


def test_tonk_drop_2_knocker_lowest_wins_the_stake_from_each():
    """«بازیکنی که ضربه می زند کمترین مجموع را دارد، آنها شرط اصلی را برنده می شوند.» -
    "the knocker has the lowest total: they win the basic stake" (the stake is "the amount
    each player pays to the winner"). 8 vs 35 vs 29, stake 3: (+6, -3, -3)."""
    game = tonk([D8, O35, O29], up="KD", dealer=2, stake=3)
    game.act(0, "drop")
    assert totals(game) == [8, 35, 29]
    assert game.result.reason == "drop-won" and game.result.payouts == (6, -3, -3)


def test_tonk_drop_3_4_caught_knocker_pays_double_to_equal_or_lower_recorded_reading():
    """«بازیکنی که ضربه می زند کمترین مجموع را ندارد، آنها به هر بازیکنی که دست مساوی یا
    کمتری داشته باشد دو برابر شرط می پردازند. همچنین، بازیکنی که در واقع کمترین دست را
    نگه داشته است، از هر بازیکن، شرط اولیه را دریافت می کند.» - "the knocker without the
    lowest total pays double the stake to every player with an equal or lower hand; also
    the player actually holding the lowest hand receives the basic stake from each
    player". Totals 9 (dropper), 9, 35; stake 2. Double to the equal 9: -4 / +4. The
    lowest (seat 1) gets S from seat 2. Literally "from each player" would add S from
    the dropper too: (-6, +8, -2); the recorded reading TONK-DROP-4 excludes the dropper:
    (-4, +6, -2). This pins the recorded reading (argued against in the report)."""
    h0 = ["AS", "AH", "2S", "2H", "3S"]
    h1 = ["AD", "AC", "2D", "2C", "3D"]
    game = tonk([h0, h1, ["4H", "5H", "6H", "JC", "JD"]], up="KD", dealer=2, stake=2)
    game.act(0, "drop")
    assert totals(game) == [9, 9, 35]
    assert game.result.reason == "drop-caught" and game.result.payouts == (-4, 6, -2)


def test_tonk_stock_1_2_stock_runs_out_lowest_collects_the_stake_from_each():
    """«اگر سهام تمام شود، بازیکنی که کمترین مبلغ را دارد، سهم اصلی را از هر بازیکن
    دریافت می کند.» - "if the stock runs out, the player with the lowest amount receives
    the basic stake from each player". 30, 41, 15 at stake 2: (-2, -2, +4)."""
    hands = [
        ["5H", "6H", "7H", "KC", "2D"],
        ["4H", "9S", "9D", "9C", "QD"],
        ["AS", "2S", "3C", "4D", "5C"],
    ]
    game = cardcore.new_game(
        "tonk", 3, position=tonk_at(hands, ["JC"], "8S", 2, 0), options={"stake": 2}, seed=1
    )
    game.act(0, "draw")
    game.act(0, "discard JC")
    assert game.result.reason == "stock-out" and totals(game) == [30, 41, 15]
    assert game.result.payouts == (-2, -2, 4)


def test_tonk_var_1_no_discard_pile_after_the_deal():
    """«بعد از معامله، شمع دور ریختنی تشکیل نمیشود، اولین بازیکن از استوک قرعه کشی میکند و
    انباشته دور انداختن با اولین دور انداختن او شروع میشود.» - "after the deal no discard
    pile is formed; the first player draws from the stock and the pile starts with their
    first discard"."""
    game = tonk([D8, O35], up="QC", dealer=1, rules=["tonk.no-upcard"])
    assert game.view(0)["table"]["discard_count"] == 0
    assert "take" not in legal(game, 0)
    game.act(0, "draw")
    game.act(0, "discard QC")
    assert game.view(1)["table"]["discard_count"] == 1


def test_tonk_var_2_spread_must_be_laid_down_except_three_aces():
    """«در صورت داشتن اسپرد، نگه داشتن اسپرد در دست غیرقانونی است ... یک استثنا وجود دارد
    که در آن ممکن است سه آس در دست نگه داشته شوند.» - "holding a spread in hand is
    illegal ... one exception: three aces may be kept in hand"."""
    hands = [["KS", "KH", "KD", "2C", "5D"], ["AS", "AH", "AD", "2S", "9C"]]
    game = tonk(hands, up="QC", stock=["9S", "JD"], dealer=1, rules=["tonk.must-lay-down"])
    game.act(0, "draw")
    with pytest.raises(cardcore.IllegalActionError, match=r"\(TONK-VAR-2\)"):
        game.act(0, "discard 9S")
    game.act(0, "spread KS KH KD")
    game.act(0, "discard 9S")
    game.act(1, "draw")
    game.act(1, "discard JD")
    assert game.to_act == (0,)


@pytest.mark.parametrize(("rules", "payout"), [((), 2), (("tonk.double-needs-spread",), 1)])
def test_tonk_var_3_out_by_hits_alone_pays_only_the_stake(rules, payout):
    """«تنها در صورتی میتواند سهام اصلی را برنده شود که فقط اسپرد را بزند و کارتهای بدون
    کارت تمام شود دور انداختن» - "[a player] can win only the basic stake if they merely hit
    spreads and run out of cards without discarding". Seat 0 holds 8H and draws 4H: hits
    both onto 5H-6H-7H (seat 1's), no new spread. Default: 2S; with the variant: S."""
    hands = [["8H"], ["2S", "3D", "KC"]]
    pos = tonk_at(hands, ["4H"], "9D", 1, 0, spreads=[(["5H", "6H", "7H"], 1)])
    game = cardcore.new_game("tonk", 2, position=pos, seed=1, rules=list(rules))
    game.act(0, "draw")
    game.act(0, "hit 1 4H")
    game.act(0, "hit 1 8H")
    assert game.result.reason == "tonk-out" and game.result.payouts == (payout, -payout)
