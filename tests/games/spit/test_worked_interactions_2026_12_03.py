"""Worked examples of Spit and Speed: rules, options and house rules together, long games.

Each case is worked out by hand from the seed (``../shared/seeds/spit.en.md``) and the
rule spec (``seeds/spit.md``) in the comments, on a stacked deck (``deck=``, top first),
and then played through the public API only: ``new_game``, ``act`` with ``at=``/``seen=``,
``legal_actions``, ``view``, ``result``.
"""

from __future__ import annotations

import pytest

import cardcore
from cardcore import IllegalActionError, NotationError, StaleActionError

# -- Spit decks ----------------------------------------------------------------------------

#: The deck of the Spit worked example (docs/games/spit.rst, docs/embedding.rst). Seat 0
#: (Ann) receives the even positions: layout, in the order received (SPIT-SETUP-7),
#: pile 1: 2H | pile 2: 4H 3H* | pile 3: 7H 6H 5H* | pile 4: JH 10H 9H 8H* |
#: pile 5: 3S 2S AS KH QH* (bottom -> top, * face up); spit cards AH (top) AC 2C .. 10C.
#: Seat 1 (Bob): tops 4S 9S KS 3D 5D; pile 4 = 7S JS AD 3D*, pile 5 = 8S QS 2D 4D 5D*;
#: spit cards 6D (top) 7D .. KD JC QC KC.
GOLDEN = (
    "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
    "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
)
#: Ann's whole layout onto L, in order: AH <- 2H 3H 4H 5H ... KH AS 2S 3S (15 plays).
ANN_RUN = ["play 1 L", "play 2 L", "play 2 L", *["play 3 L"] * 3, *["play 4 L"] * 4]
ANN_RUN += ["play 5 L"] * 5


def _interleave(seat0: str, seat1: str) -> str:
    a, b = seat0.split(), seat1.split()
    return " ".join(x for pair in zip(a, b, strict=True) for x in pair)


#: A deck for the Canfield layout (SPIT-SETUP-5): received cards 1-4 go to piles 1-4,
#: cards 5-15 to pile 5 (the 15th on top, face up), the 16th is the first spit card.
#: Ann: piles 2H | 3H | 4H | 5H | 3S 2S AS KH QH JH 10H 9H 8H 7H 6H*; spit AH, AC..10C.
#: Bob: piles 4S | 5S | 6S | 7S | 8S 9S 10S JS QS KS AD 2D 3D 4D 5D*; spit 6D, 7D..KD JC QC KC.
CANFIELD = _interleave(
    "2H 3H 4H 5H 3S 2S AS KH QH JH 10H 9H 8H 7H 6H AH AC 2C 3C 4C 5C 6C 7C 8C 9C 10C",
    "4S 5S 6S 7S 8S 9S 10S JS QS KS AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD JC QC KC",
)
#: Ann's whole Canfield layout onto L: AH <- 2H 3H 4H 5H 6H 7H ... KH AS 2S 3S.
CANFIELD_RUN = ["play 1 L", "play 2 L", "play 3 L", "play 4 L", *["play 5 L"] * 11]


def _started(
    deck: str, rules: tuple[str, ...] = (), seed: int = 3, **options: int
) -> cardcore.Game:
    game = cardcore.new_game(
        "spit", ["Ann", "Bob"], deck=deck, seed=seed, rules=list(rules), options=options
    )
    game.act(0, "ready")
    game.act(1, "ready")
    return game


def _table(game: cardcore.Game) -> dict:
    return game.view(None)["table"]


def _legal(game: cardcore.Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def _sizes(game: cardcore.Game, seat: int) -> tuple[list[int], int]:
    """(layout pile sizes, spit cards) of *seat* from a spectator's view."""
    s = _table(game)["seats"][seat]
    return [len(p) for p in s["layout"]], s["spit_cards"]


def _hidden(game: cardcore.Game, seat: int) -> list[int]:
    return [p.count(None) for p in _table(game)["seats"][seat]["layout"]]


def _refused(game: cardcore.Game, seat: int, text: str, error: type = IllegalActionError, **kw):
    """Apply *text*, expect *error*, check that nothing changed; return the error."""
    before = (game.version, game.view(None), game.view(0), game.view(1))
    with pytest.raises(error) as info:
        game.act(seat, text, **kw)
    assert (game.version, game.view(None), game.view(0), game.view(1)) == before
    return info.value


def _ann_runs_out(game: cardcore.Game, run: list[str], t: float = 1.0) -> float:
    for text in run:
        game.act(0, text, at=t)
        t += 0.25
    return t


def _drive(game: cardcore.Game, mover: int, limit: int = 3000) -> None:
    """*mover* plays greedily (a play, else ``spit``, else a combine or fill); the other seat
    never plays, it only asks for a spit (playing is never compulsory, SPIT-MOVE-11).
    Stops when the deal in progress ends (a new deal, a claim, or the end of the game)."""
    deal = _table(game)["deal"]
    idle = 1 - mover
    for _ in range(limit):
        table = _table(game)
        if game.is_over or table["deal"] != deal or table["phase"] == "claim":
            return
        if "spit" in _legal(game, idle):
            game.act(idle, "spit")
            continue
        legal = _legal(game, mover)
        plays = [a for a in legal if a.startswith("play")]
        if plays:
            game.act(mover, plays[0])
        elif "spit" in legal:
            game.act(mover, "spit")
        else:
            assert legal, "a settled play phase always offers the mover something"
            game.act(mover, legal[0])
    raise AssertionError("the deal did not end")


# -- Spit: a whole game, deal by deal --------------------------------------------------------


def test_spit_long_path_slap_the_small_pile_then_a_single_pile_deal_is_won() -> None:
    # Deal 1 (two piles). Ready: Ann spits AH onto L, Bob 6D onto R (SPIT-START-1). Ann
    # plays her 15 layout cards onto L one by one (ranks wrap at K-A-2, SPIT-MOVE-3); she
    # always has a play, so no spit comes between. Her layout is empty: the deal ends
    # (SPIT-END-1), L holds AH + 15 = 16 cards, R holds 6D only; only slaps are legal.
    game = _started(GOLDEN)
    t = _ann_runs_out(game, ANN_RUN)
    table = _table(game)
    assert table["phase"] == "claim" and table["emptier"] == 0
    assert len(table["piles"]["L"]) == 16 and table["piles"]["R"] == ["6D"]
    assert table["piles"]["L"][0] == "3S" and table["piles"]["L"][-1] == "AH"
    assert _legal(game, 0) == ["slap L", "slap R"] == _legal(game, 1)
    # Both slap at once, Ann's arrives first: she takes R (1 card), Bob takes L (16).
    # Ann: 10 spit cards + 1 = 11; Bob: 15 layout + 10 spit + 16 = 41 (SPIT-END-2/4).
    v = game.version
    game.act(0, "slap R", at=t, seen=v)
    err = _refused(game, 1, "slap L", StaleActionError, at=t + 0.01, seen=v)
    assert "CORE-RT-1" in str(err)
    # Deal 2: Ann holds 11 <= 15 cards: single-pile mode (SPIT-END-5). Her 11 cards are laid
    # row by row [1,2,3,3,2] with no spit cards (SPIT-SETUP-4); Bob lays 15 and keeps 26.
    table = _table(game)
    assert (table["deal"], table["phase"], table["mode"]) == (2, "setup", "single-pile")
    assert _sizes(game, 0) == ([1, 2, 3, 3, 2], 0)
    assert _hidden(game, 0) == [0, 1, 2, 2, 1]
    assert _sizes(game, 1) == ([1, 2, 3, 4, 5], 26)
    assert [s["cards"] for s in table["seats"]] == [11, 41]
    game.act(0, "ready")
    game.act(1, "ready")
    # Only Bob has spit cards: he alone turns one, onto his home pile R (SPIT-START-2).
    table = _table(game)
    assert table["piles"]["L"] is None and len(table["piles"]["R"]) == 1
    assert table["seats"][1]["spit_cards"] == 25
    assert not any(a.endswith(" L") for a in _legal(game, 0) + _legal(game, 1))
    err = _refused(game, 0, "play 1 L")
    assert "SPIT-START-2" in str(err)
    # Ann plays, Bob only asks for spits. Ann, without spit cards, empties her layout
    # first in single-pile mode: she holds nothing and wins the game (SPIT-WIN-1).
    _drive(game, mover=0)
    assert game.is_over
    assert game.result.winners == (0,)
    assert game.result.reason == "out of cards"
    assert game.result.scores == (0.0, 52.0)
    assert _table(game)["phase"] == "over" and game.to_act == ()
    _refused(game, 1, "spit")


def test_spit_long_path_single_pile_deal_won_by_the_spit_holder_goes_on() -> None:
    # As above to deal 2 (Ann 11 cards, no spit cards; Bob 41). Now Ann never plays and
    # Bob plays his layout out first. SPIT-END-6: Bob takes nothing; Ann takes the spit
    # pile R and her own 11 layout cards; Bob keeps his remaining spit cards. SPIT-WIN-2:
    # the game goes on with deal 3.
    game = _started(GOLDEN)
    t = _ann_runs_out(game, ANN_RUN)
    game.act(0, "slap R", at=t)
    game.act(0, "ready")
    game.act(1, "ready")
    # Bob greedily; stop just before his last layout card goes
    _drive_until_one_card_left(game, seat=1)
    table = _table(game)
    r = len(table["piles"]["R"])
    bob_spit = table["seats"][1]["spit_cards"]
    assert table["seats"][0]["cards"] == 11  # Ann never played
    last = [a for a in _legal(game, 1) if a.startswith("play")]
    game.act(1, last[0])
    table = _table(game)
    assert not game.is_over
    assert (table["deal"], table["phase"]) == (3, "setup")
    # Ann: her 11 + the spit pile with Bob's last card on it; Bob: his spit cards only.
    assert [s["cards"] for s in table["seats"]] == [11 + r + 1, bob_spit]
    assert table["mode"] == ("single-pile" if bob_spit <= 15 else "two-pile")
    # with this seed: R held 10 cards, Bob 30 spit cards (recycles gave R back to him):
    # Ann 22 = 15 laid out + 7 spit cards, Bob 30 = 15 + 15; two piles again.
    assert (r, bob_spit) == (10, 30)
    assert _sizes(game, 0) == ([1, 2, 3, 4, 5], 7) and _sizes(game, 1) == ([1, 2, 3, 4, 5], 15)


def _drive_until_one_card_left(game: cardcore.Game, seat: int, limit: int = 3000) -> None:
    """Like :func:`_drive`, but stop when *seat* has one layout card left and can play it."""
    idle = 1 - seat
    for _ in range(limit):
        layout = _table(game)["seats"][seat]["layout"]
        legal = _legal(game, seat)
        plays = [a for a in legal if a.startswith("play")]
        if sum(len(p) for p in layout) == 1 and plays:
            return
        if "spit" in _legal(game, idle):
            game.act(idle, "spit")
        elif plays:
            game.act(seat, plays[0])
        elif "spit" in legal:
            game.act(seat, "spit")
        else:
            game.act(seat, legal[0])
    raise AssertionError("no last card")


# -- Spit: house rules together --------------------------------------------------------------


def test_spit_canfield_chooser_fifteen_cards_exactly_make_a_single_pile_deal() -> None:
    # Canfield layout (SPIT-SETUP-5): Ann 2H|3H|4H|5H|..6H*, Bob 4S|5S|6S|7S|..5D*; L=AH, R=6D.
    # Bob plays 5D, 4D, 3D, 2D from pile 5 onto R (each uncovers the next, SPIT-MOVE-7):
    # R = 6D 5D 4D 3D 2D (5 cards), AD now tops his pile 5. Ann then plays her 15 cards
    # onto L (2H..5H from piles 1-4, then 6H..KH AS 2S 3S from pile 5): L = 16 cards.
    game = _started(CANFIELD, ("spit.canfield", "spit.chooser"))
    t = 1.0
    for _ in range(4):
        game.act(1, "play 5 R", at=t)
        t += 0.1
    assert _table(game)["piles"]["R"] == ["2D", "3D", "4D", "5D", "6D"]
    assert _table(game)["seats"][1]["layout"][4][0] == "AD"
    t = _ann_runs_out(game, CANFIELD_RUN, t)
    # SPIT-END-3: only the emptier claims, with "choose"; the word "slap" does not exist.
    assert game.to_act == (0,) and _legal(game, 1) == []
    assert _legal(game, 0) == ["choose L", "choose R"]
    err = _refused(game, 0, "slap R", NotationError)
    assert "choose L|R" in str(err)
    _refused(game, 1, "choose L")
    # Ann chooses R (5 cards): Ann 10 spit + 5 = 15; Bob 11 layout + 10 spit + 16 = 37.
    game.act(0, "choose R", at=t)
    table = _table(game)
    # 15 cards: a full layout but no spit card, so single-pile mode (SPIT-END-5, 15
    # included); Canfield shape 1,1,1,1,11 with ten face down under pile 5's top.
    assert (table["deal"], table["mode"]) == (2, "single-pile")
    assert [s["cards"] for s in table["seats"]] == [15, 37]
    assert _sizes(game, 0) == ([1, 1, 1, 1, 11], 0) and _hidden(game, 0) == [0, 0, 0, 0, 10]
    assert _sizes(game, 1) == ([1, 1, 1, 1, 11], 22)
    game.act(0, "ready")
    game.act(1, "ready")
    table = _table(game)
    assert table["piles"]["L"] is None and len(table["piles"]["R"]) == 1
    assert table["seats"][1]["spit_cards"] == 21
    # Ann plays, Bob only asks for spits: Ann, without spit cards, empties first and wins at
    # once; single-pile mode has no claim, with or without spit.chooser (SPIT-END-6, WIN-1).
    _drive(game, mover=0)
    assert game.is_over and game.result.winners == (0,)
    assert game.result.scores == (0.0, 52.0)


def test_spit_canfield_chooser_eleven_cards_laid_four_singles_and_seven() -> None:
    # Bob idles; Ann empties (as above, L = 16, R = 6D) and chooses R: Ann 11 cards, Bob 41.
    # Canfield with fewer than 15 (SPIT-SETUP-5): piles 1-4 one card each, pile 5 the
    # other 7 (6 face down + 1 up). Bob 41: 1,1,1,1,11 and 26 spit cards.
    game = _started(CANFIELD, ("spit.canfield", "spit.chooser"))
    _ann_runs_out(game, CANFIELD_RUN)
    assert len(_table(game)["piles"]["L"]) == 16
    game.act(0, "choose R")
    assert _table(game)["mode"] == "single-pile"
    assert _sizes(game, 0) == ([1, 1, 1, 1, 7], 0) and _hidden(game, 0) == [0, 0, 0, 0, 6]
    assert _sizes(game, 1) == ([1, 1, 1, 1, 11], 26)


def test_spit_canfield_chooser_choosing_the_big_pile_evens_the_counts() -> None:
    # Ann chooses L (16): Ann 10 + 16 = 26, Bob 15 + 10 + 1 = 26: two piles again, Canfield.
    game = _started(CANFIELD, ("spit.canfield", "spit.chooser"))
    _ann_runs_out(game, CANFIELD_RUN)
    game.act(0, "choose L")
    table = _table(game)
    assert (table["deal"], table["mode"]) == (2, "two-pile")
    assert _sizes(game, 0) == ([1, 1, 1, 1, 11], 11) == _sizes(game, 1)
    # a second claim of the same deal is refused, naming the rule, changing nothing
    err = _refused(game, 0, "choose R")
    assert "SPIT-RT-3" in str(err) or "SPIT-END-3" in str(err)


def test_spit_chooser_the_opponents_choice_is_refused_naming_spit_end_3() -> None:
    game = _started(CANFIELD, ("spit.canfield", "spit.chooser"))
    _ann_runs_out(game, CANFIELD_RUN)
    err = _refused(game, 1, "choose L")
    assert "SPIT-END-3" in str(err)


@pytest.mark.parametrize(
    ("rules", "ann", "bob"),
    [
        # tops Ann 2H 3H 4H 5H 6H, Bob 4S 5S 6S 7S 5D; L = AH, R = 6D
        (
            ("spit.canfield", "spit.chooser"),
            ["play 1 L", "play 4 R", "spit"],
            ["play 2 R", "play 4 R", "play 5 R", "combine 2 5", "combine 5 2", "spit"],
        ),
        # SPIT-MOVE-12 adds 6H (Ann's pile 5) and 6S (Bob's pile 3) onto 6D
        (
            ("spit.canfield", "spit.chooser", "spit.same-rank"),
            ["play 1 L", "play 4 R", "play 5 R", "spit"],
            ["play 2 R", "play 3 R", "play 4 R", "play 5 R", "combine 2 5", "combine 5 2", "spit"],
        ),
    ],
)
def test_spit_three_house_rules_together_offer_exactly_these_moves(
    rules: tuple[str, ...], ann: list[str], bob: list[str]
) -> None:
    game = _started(CANFIELD, rules)
    assert _table(game)["piles"] == {"L": ["AH"], "R": ["6D"]}
    assert _legal(game, 0) == ann and _legal(game, 1) == bob
    if "spit.same-rank" in rules:
        game.act(1, "play 3 R")  # 6S on 6D
        assert _table(game)["piles"]["R"] == ["6S", "6D"]
        # Ann's 6H now goes on 6S too; her 5H still fits; 7 would too
        assert "play 5 R" in _legal(game, 0) and "play 4 R" in _legal(game, 0)
    else:
        err = _refused(game, 0, "play 5 R")
        assert "SPIT-MOVE-4" in str(err)


# -- Spit: refusals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "text", "rule"),
    [
        (0, "play 2 L", "SPIT-MOVE-2"),  # 3H on AH: not adjacent
        (0, "play 3 R", "SPIT-MOVE-4"),  # 5H on 5D (Bob plays 5D onto 6D first)
        (1, "play 1 L", "SPIT-MOVE-2"),  # 4S on AH
        (0, "combine 1 2", "SPIT-MOVE-5"),  # 2H onto 3H: different ranks
        (0, "fill 1 2", "SPIT-MOVE-6"),  # pile 2 is not empty
        (0, "ready", "SPIT-SETUP-6"),  # play has begun
        (0, "slap L", "SPIT-RT-3"),  # no deal has ended
    ],
)
def test_spit_refusals_name_the_rule_and_change_nothing(seat: int, text: str, rule: str) -> None:
    game = _started(GOLDEN)
    if text == "play 3 R":  # make an equal-rank case: Bob's 5D onto 6D, then Ann's 5H onto 5D
        game.act(1, "play 5 R")
    err = _refused(game, seat, text)
    assert f"({rule})" in str(err)


def test_spit_a_second_spit_request_and_a_play_from_an_empty_pile_are_refused() -> None:
    game = _started(GOLDEN)
    game.act(0, "play 1 L")  # 2H on AH: pile 1 is now empty
    err = _refused(game, 0, "play 1 L")
    assert "(SPIT-MOVE-2)" in str(err) and "empty" in str(err)
    game.act(0, "spit")
    err = _refused(game, 0, "spit")
    assert "(SPIT-STUCK-3)" in str(err)
    # Bob has not asked: no spit yet; Ann's request stands; Bob's request makes both spit
    assert _table(game)["piles"] == {"L": ["2H", "AH"], "R": ["6D"]}
    game.act(1, "spit")
    assert _table(game)["piles"] == {"L": ["AC", "2H", "AH"], "R": ["7D", "6D"]}


def _single_pile_deal_two() -> cardcore.Game:
    """Deal 2 of the golden deck in play: Ann 11 cards (no spit cards), Bob 41; only R."""
    game = _started(GOLDEN)
    t = _ann_runs_out(game, ANN_RUN)
    game.act(0, "slap R", at=t)
    game.act(0, "ready")
    game.act(1, "ready")
    return game


def test_spit_slap_in_a_single_pile_deal_is_refused_with_a_true_reason() -> None:
    game = _single_pile_deal_two()
    assert _table(game)["mode"] == "single-pile"
    err = _refused(game, 0, "slap R")
    assert "claimed already" not in str(err)


def test_spit_slap_before_the_second_deal_ends_is_refused_with_a_true_reason() -> None:
    game = _started(GOLDEN)
    t = _ann_runs_out(game, ANN_RUN)
    game.act(0, "slap L", at=t)  # Ann 10 + 16 = 26, Bob 26: two piles again
    game.act(0, "ready")
    game.act(1, "ready")
    assert _table(game)["mode"] == "two-pile" and _table(game)["phase"] == "play"
    err = _refused(game, 1, "slap R")
    assert "claimed already" not in str(err)


def test_spit_stall_limit_two_counts_moves_that_uncover_nothing() -> None:
    # stall_limit=2, nobody asks: 2 actions in a row that put no card on a spit pile and
    # turn nothing up make the spit (SPIT-STUCK-3 c), though plays are open.
    # Ann: 2H on AH (play, counter 0, pile 1 empty); fill 2 1: 3H into the space, 4H turned
    # up (progress, 0); 3H on 2H (play, 0, pile 1 empty again); fill 2 1: 4H, pile 2's only
    # card, into the space (nothing turned up: 1); fill 1 2: back (2) -> both spit: Ann's AC
    # onto L, Bob's 7D onto R; the counter restarts.
    game = _started(GOLDEN, stall_limit=2)
    game.act(0, "play 1 L")
    game.act(0, "fill 2 1")
    assert _table(game)["stall"] == 0
    assert _table(game)["seats"][0]["layout"][:2] == [["3H"], ["4H"]]
    game.act(0, "play 1 L")
    game.act(0, "fill 2 1")
    assert _table(game)["stall"] == 1
    assert _table(game)["piles"] == {"L": ["3H", "2H", "AH"], "R": ["6D"]}
    game.act(0, "fill 1 2")
    assert _table(game)["piles"] == {"L": ["AC", "3H", "2H", "AH"], "R": ["7D", "6D"]}
    assert _table(game)["stall"] == 0
    assert _sizes(game, 0) == ([0, 1, 3, 4, 5], 9) and _sizes(game, 1) == ([1, 2, 3, 4, 5], 9)


# -- Real time: stale versus time order -------------------------------------------------------


def test_spit_time_order_and_stale_checks_together() -> None:
    # Both see version 2 (L = AH): Ann's 2H and Bob's KS both fit. Ann's arrives first at
    # t=2.0. Bob's KS, stamped later, is stale (legal at 2, not now: L shows 2H); stamped
    # earlier than 2.0 it is refused for its time (CORE-RECORD-1). A refused action, even
    # one stamped t=9.0, records nothing, so Bob's 5D on 6D at t=2.5 is accepted.
    game = _started(GOLDEN)
    v = game.version
    assert "play 3 L" in _legal(game, 1)
    game.act(0, "play 1 L", at=2.0, seen=v)
    err = _refused(game, 1, "play 3 L", StaleActionError, at=5.0, seen=v)
    assert "(CORE-RT-1)" in str(err)
    err = _refused(game, 1, "play 3 L", at=1.5, seen=v)
    assert "(CORE-RECORD-1)" in str(err)
    err = _refused(game, 1, "play 1 L", at=9.0)  # 4S on 2H: never legal
    assert "(SPIT-MOVE-2)" in str(err)
    game.act(1, "play 5 R", at=2.5, seen=v)  # 5D on 6D: still legal, as at version 2
    assert game.record()["actions"][2:] == [[0, "play 1 L", 2.0], [1, "play 5 R", 2.5]]
    assert _table(game)["piles"] == {"L": ["2H", "AH"], "R": ["5D", "6D"]}
    assert _table(game)["seats"][1]["layout"][4] == ["4D", None, None, None]


def test_spit_claim_race_times_equal_first_arrival_wins() -> None:
    # Both slap at the same stamp; Bob's arrives first and takes R (1 card); Ann's slap
    # of L (seen before Bob's) is stale. Bob: 15 + 10 + 1 = 26, Ann: 10 + 16 = 26.
    game = _started(GOLDEN)
    t = _ann_runs_out(game, ANN_RUN)
    v = game.version
    game.act(1, "slap R", at=t, seen=v)
    _refused(game, 0, "slap L", StaleActionError, at=t, seen=v)
    table = _table(game)
    assert (table["deal"], table["mode"]) == (2, "two-pile")
    assert [s["cards"] for s in table["seats"]] == [26, 26]
    assert _sizes(game, 0) == ([1, 2, 3, 4, 5], 11) == _sizes(game, 1)


# -- Speed ---------------------------------------------------------------------------------------

_FACE = [
    f"{r}{s}"
    for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    for s in "CDHS"
]


def _speed_deck(piles: str, side0: list[str], side1: list[str], ann: str, bob: list[str]) -> str:
    """Top-first Speed deck (SPEED-SETUP-3): play piles, side piles, then alternately."""
    a = ann.split()
    return " ".join(
        [*piles.split(), *side0, *side1, *(x for p in zip(a, bob, strict=True) for x in p)]
    )


def test_speed_side_fifteen_with_jokers_a_whole_game_with_a_joker_in_the_middle() -> None:
    # side_pile=15, jokers=2: 54 cards = 2 play cards + 2 x 15 side + 2 x 11 (5 hand + 6
    # stock). Ann receives 3H 4H 5H 6H 7H (hand) then 8H 9H JK 10H JH QH (stock, 8H on top).
    # L = 2C, R = 2D. Ann plays 3H..7H onto L, each refilled from the stock (SPEED-PLAY-2):
    # hand 8H 9H JK 10H JH, stock QH; 8H (refill QH), 9H; QH does not fit 9H nor 2D; the
    # joker goes on 9H, QH on the joker (SPEED-PLAY-3), then JH, 10H: hand and stock empty,
    # Ann wins (SPEED-END-1) holding 0 against Bob's 11.
    ann = "3H 4H 5H 6H 7H 8H 9H JK 10H JH QH"
    used = {"2C", "2D", *ann.split()}
    rest = [c for c in _FACE if c not in used] + ["JK"]
    side0, side1, bob = rest[:15], rest[15:30], rest[30:]
    assert len(bob) == 11
    deck = _speed_deck("2C 2D", side0, side1, ann, bob)
    game = cardcore.new_game(
        "speed", ["Ann", "Bob"], deck=deck, seed=2, options={"side_pile": 15, "jokers": 2}
    )
    table = game.view(0)["table"]
    assert table["piles"] == {"L": ["2C"], "R": ["2D"]}
    assert sorted(table["seats"][0]["hand"]) == sorted(["3H", "4H", "5H", "6H", "7H"])
    assert [(s["stock"], s["side"]) for s in table["seats"]] == [(6, 15), (6, 15)]
    t = 1.0
    for card in ["3H", "4H", "5H", "6H", "7H", "8H", "9H"]:
        game.act(0, f"play {card} L", at=t)
        t += 0.5
    assert sorted(game.view(0)["table"]["seats"][0]["hand"]) == sorted(["JK", "10H", "JH", "QH"])
    assert game.view(0)["table"]["seats"][0]["stock"] == 0
    err = _refused(game, 0, "play QH L")
    assert "(SPIT-MOVE-2)" in str(err)
    game.act(0, "play JK L", at=t)
    assert "play QH L" in _legal(game, 0)
    for card in ("QH", "JH"):
        game.act(0, f"play {card} L", at=t)
    assert not game.is_over
    game.act(0, "play 10H L", at=t)
    assert game.is_over
    assert game.result.winners == (0,) and game.result.reason == "out of cards"
    assert game.result.scores == (0.0, 11.0)
    assert game.view(None)["table"]["piles"]["L"][:4] == ["10H", "JH", "QH", "JK"]


def _blocked_speed_deck() -> str:
    # Play piles and both side piles: the 32 cards of ranks 2-9. Hands: only A, 10, J, Q, K
    # (Ann KC KD KH KS QC, Bob QD QH QS JC JD), stocks the other A/10/J cards. Every card
    # that can reach a play pile is a 2-9, never next to a hand card: nobody can ever play.
    low = [f"{r}{s}" for r in "23456789" for s in "CDHS"]
    ann = "KC KD KH KS QC AC AD AH AS 10C"
    bob = ["QD", "QH", "QS", "JC", "JD", "10H", "10S", "JH", "JS", "10D"]
    return _speed_deck(" ".join(low[:2]), low[2:17], low[17:32], ann, bob)


def test_speed_side_fifteen_nobody_can_play_ends_in_a_drawn_stalemate_at_the_deal() -> None:
    # Detection on (default): at the deal nobody can play, so the side cards turn, 15
    # times; then both side piles are empty: recycle (each play pile under its top: 15
    # cards back to its side pile, SPEED-STUCK-2); 15 more turns; a second recycle due with
    # no play since: stalemate (SPEED-END-2). Both hold 10 (5 + 5): a draw.
    game = cardcore.new_game(
        "speed", ["Ann", "Bob"], deck=_blocked_speed_deck(), seed=4, options={"side_pile": 15}
    )
    assert game.is_over and game.version == 0
    assert game.result.winners == (0, 1) and game.result.reason == "stalemate"
    assert game.result.scores == (10.0, 10.0)
    piles = game.view(None)["table"]["piles"]
    assert len(piles["L"]) == 16 and len(piles["R"]) == 16


def test_speed_stuck_on_request_side_fifteen_thirty_one_pairs_of_declarations() -> None:
    # speed.stuck-on-request: nothing turns by itself. Each pair of "stuck" turns one side
    # card each: pairs 1-15 empty the side piles; pair 16 recycles (15 each) and turns one;
    # pairs 17-30 turn the other 14; pair 31 needs a second recycle with no play since:
    # stalemate, a draw. A lone declaration turns nothing; a second one is refused.
    game = cardcore.new_game(
        "speed",
        ["Ann", "Bob"],
        deck=_blocked_speed_deck(),
        seed=4,
        options={"side_pile": 15},
        rules=["speed.stuck-on-request"],
    )
    assert game.view(None)["table"]["piles"] == {"L": ["2C"], "R": ["2D"]}
    game.act(0, "stuck")
    assert game.view(None)["table"]["piles"] == {"L": ["2C"], "R": ["2D"]}
    err = _refused(game, 0, "stuck")
    assert "(SPEED-STUCK-1)" in str(err)
    game.act(1, "stuck")
    sides = [s["side"] for s in game.view(None)["table"]["seats"]]
    assert sides == [14, 14]
    for pair in range(2, 31):
        game.act(0, "stuck")
        game.act(1, "stuck")
        sides = [s["side"] for s in game.view(None)["table"]["seats"]]
        assert sides == ([15 - pair] * 2 if pair <= 15 else [30 - pair] * 2), pair
        assert not game.is_over
    game.act(0, "stuck")
    game.act(1, "stuck")
    assert game.is_over and game.result.winners == (0, 1) and game.result.reason == "stalemate"


def test_spit_rt_1_staleness_is_judged_by_legality_even_across_deals() -> None:
    # At version 2 Bob sees his 5D fit R = 6D and sends "play 5 R". Before it arrives Ann
    # plays out, slaps L (26/26), both lay out again (shuffled) and are ready: Bob's pile 5
    # now holds 8S and R shows 9D. SPIT-RT-1 judges staleness by legality alone (documented
    # in docs/embedding.rst): "play 5 R" is legal now, so it is applied (8S onto 9D).
    game = _started(GOLDEN, seed=1)
    v = game.version
    assert "play 5 R" in _legal(game, 1)  # 5D on 6D
    t = _ann_runs_out(game, ANN_RUN)
    game.act(0, "slap L", at=t)
    game.act(0, "ready")
    game.act(1, "ready")
    assert _table(game)["deal"] == 2 and _table(game)["piles"]["R"] == ["9D"]
    assert _table(game)["seats"][1]["layout"][4][0] == "8S" and "play 5 R" in _legal(game, 1)
    game.act(1, "play 5 R", seen=v)
    assert _table(game)["piles"]["R"] == ["8S", "9D"]  # top first


def _pile(cards: list[str]) -> str:
    """A layout pile in position notation: face down, the top face up (``!``)."""
    return " ".join(c + ("!" if i == len(cards) - 1 else "") for i, c in enumerate(cards))


def test_spit_win_4_the_spit_holder_out_of_spit_cards_empties_first_and_wins() -> None:
    # A single-pile deal 2 (position notation, docs/notation.rst): Bob (single=1) began with
    # spit cards but has spat them all; his layout is one 5C; R shows 4C over 35 cards. Ann
    # (no spit cards) holds a full layout of 15. Bob plays 5C onto R and empties first:
    # SPIT-END-6, he takes nothing; Ann takes R (37) and her 15 (that is 52). Bob holds
    # no card: he wins (SPIT-WIN-4), though the seed's SPIT-WIN-2 reads "the game goes on".
    full = [f"{r}{s}" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K") for s in "CDHS"]
    ann = [["KC"], ["7D", "KD"], ["7H", "7S", "KH"], ["8C", "8D", "8H", "KS"]]
    ann.append(["8S", "9C", "9D", "9H", "QC"])
    used = {c for p in ann for c in p} | {"5C", "4C"}
    right = [c for c in full if c not in used] + ["4C"]
    parts = [
        'spit v=1 phase="play" deal=2 single=1 ready=[true,true] requests=[false,false]'
        " stall=0 recycled=false emptier=-1",
        *(f"layout.0.{k + 1}: {_pile(p)}" for k, p in enumerate(ann)),
        "layout.1.1: 5C!",
        *(f"layout.1.{k}:" for k in range(2, 6)),
        "spit.0:",
        "spit.1:",
        "pile.L:",
        "pile.R: " + " ".join(c + "!" for c in right),
    ]
    game = cardcore.new_game("spit", ["Ann", "Bob"], position=" | ".join(parts), seed=1)
    assert _table(game)["mode"] == "single-pile" and len(_table(game)["piles"]["R"]) == 36
    assert _legal(game, 1)[0] == "play 1 R"
    game.act(1, "play 1 R")
    assert game.is_over
    assert game.result.winners == (1,) and game.result.reason == "out of cards"
    assert game.result.scores == (52.0, 0.0)


def test_spit_long_game_record_replays_to_the_same_table() -> None:
    # the whole game of the first test (two deals, slaps, spits, recycles) replays exactly
    import json

    game = _single_pile_deal_two()
    _drive(game, mover=0)
    assert game.is_over
    again = cardcore.replay(json.dumps(game.record()))
    assert again.view(None) == game.view(None) and again.result == game.result


@pytest.mark.parametrize(
    ("rules", "shape"),
    [(("spit.canfield",), [1, 1, 1, 1, 11]), ((), [1, 2, 3, 4, 5])],
)
def test_spit_stall_limit_after_a_recycle_voids_the_deal_and_relays_by_the_rules(
    rules: tuple[str, ...], shape: list[int]
) -> None:
    # Deal 3 in play, two piles, nobody has spit cards, a recycle came already and no layout
    # card reached a spit pile since (recycled=true), 19 actions without progress. Ann could
    # play 3C on L's 2D, but Bob's "fill 1 2" (JS into the space, nothing turned up) is the
    # 20th: a spit is due (SPIT-STUCK-3 c), nobody has spit cards, a second recycle is due
    # with no progress since: the deal is void (SPIT-STUCK-6). Ann gathers her 7 layout
    # cards and L (30): 37; Bob his 6 and R (9): 15. Deal 4 is laid out again: Bob holds
    # 15, so single-pile mode on Ann's L; 15 laid out by the layout rule in force.
    full = [f"{r}{s}" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K") for s in "CDHS"]
    ann = [["3C"], ["QS"], ["QH"], ["QD"], ["4C", "5C", "KC"]]
    bob = [["JS"], [], ["JH"], ["JD"], ["6C", "7C", "JC"]]
    used = {c for p in ann + bob for c in p} | {"2D", "8S"}
    rest = [c for c in full if c not in used]
    left, right = [*rest[:29], "2D"], [*rest[29:], "8S"]
    parts = [
        'spit v=1 phase="play" deal=3 single=-1 ready=[true,true] requests=[false,false]'
        " stall=19 recycled=true emptier=-1",
        *(f"layout.0.{k + 1}: {_pile(p)}" for k, p in enumerate(ann)),
        *(f"layout.1.{k + 1}: {_pile(p)}" for k, p in enumerate(bob)),
        "spit.0:",
        "spit.1:",
        "pile.L: " + " ".join(c + "!" for c in left),
        "pile.R: " + " ".join(c + "!" for c in right),
    ]
    game = cardcore.new_game(
        "spit", ["Ann", "Bob"], position=" | ".join(parts), seed=1, rules=list(rules)
    )
    assert "play 1 L" in _legal(game, 0) and "fill 1 2" in _legal(game, 1)
    game.act(1, "fill 1 2")
    table = _table(game)
    assert (table["deal"], table["phase"], table["mode"]) == (4, "setup", "single-pile")
    assert [s["cards"] for s in table["seats"]] == [37, 15]
    assert _sizes(game, 0) == (shape, 22) and _sizes(game, 1) == (shape, 0)
    game.act(0, "ready")
    game.act(1, "ready")
    table = _table(game)  # only Ann has spit cards: she starts L, the only pile (SPIT-START-2)
    assert table["piles"]["R"] is None and len(table["piles"]["L"]) == 1
    assert table["seats"][0]["spit_cards"] == 21
    assert not any(a.endswith(" R") for a in _legal(game, 0) + _legal(game, 1))


def test_spit_a_ready_seat_acting_again_in_setup_is_refused_naming_spit_setup_6() -> None:
    game = cardcore.new_game("spit", ["Ann", "Bob"], deck=GOLDEN, seed=3)
    game.act(0, "ready")
    assert game.to_act == (1,)
    err = _refused(game, 0, "ready")
    assert "SPIT-SETUP-6" in str(err)
