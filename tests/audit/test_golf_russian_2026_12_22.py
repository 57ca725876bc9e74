"""Fidelity audit of Golf against the user's original seed text (2026-12-22).

The brief calls the seed "Russian"; ``/work/shared/seeds/001_24cd4f87f60e63bc.txt`` is in fact
written in **Latvian** (a machine translation of the wikiHow guide "How to Play Golf (Card
Game)"). Every test below quotes the Latvian sentence it checks, with our own translation, and
works its expectation out by hand from that sentence, not from ``golf.en.md``.

All games use stacked decks (``deal`` below) and fixed options; no test depends on a random
deal. Rounds are ended either by play (final turns, knocks) or, where only the scoring of a dealt
layout is checked, by the turn cap ``max_turns=1`` (GOLF-CAP-1: the round is scored normally,
without an ender).

Positions are row-major, far row first: GOLF6 column c = positions c, c+3; GOLF8 c, c+4;
GOLF10 c, c+5; GOLF9 rows 0-2 / 3-5 / 6-8; GOLF4 TL 0, TR 1, BL 2, BR 3.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import cardcore
from cardcore import Game, IllegalActionError

# ---------------------------------------------------------------------------- helpers


def deal(grids: Sequence[str], upcard: str, stock: str = "", first: int = 0) -> str:
    """A deck (top first) that deals *grids* (one per seat, in position order) one card at a
    time clockwise from seat *first*, then turns *upcard*, then leaves *stock* on top."""
    rows = [g.split() for g in grids]
    n = len(rows)
    order = [(first + i) % n for i in range(n)]
    out = [rows[seat][pos] for pos in range(len(rows[0])) for seat in order]
    return " ".join([*out, upcard, *stock.split()])


def new(
    grids: Sequence[str],
    upcard: str,
    stock: str = "",
    *,
    layout: int | str = 6,
    rules: Sequence[str] = (),
    **options: object,
) -> Game:
    opts = {"rounds": 1, "layout": layout, **options}
    deck = deal(grids, upcard, stock)
    return cardcore.new_game("golf", len(grids), deck=deck, options=opts, rules=list(rules))


def run(game: Game, script: Sequence[tuple[int, str]]) -> None:
    for seat, text in script:
        game.act(seat, text)


def setup_flips(game: Game, per_seat: Sequence[str]) -> None:
    """Every seat in turn (seat 0 first, the default dealer being the last seat) makes the
    same initial actions, e.g. ``["flip 0", "flip 1"]``."""
    for seat in range(len(game.view(None)["players"])):
        for text in per_seat:
            game.act(seat, text)


def scored(
    grids: Sequence[str],
    *,
    layout: int | str = 6,
    rules: Sequence[str] = (),
    upcard: str = "",
    stock: str = "",
) -> list[int]:
    """Round scores of the dealt *grids* as they lie: the setup actions touch positions 0, 1
    (and 2 in GOLF9), then seat 0 draws and discards, and the turn cap ends the round."""
    game = new(grids, upcard, stock, layout=layout, rules=rules, max_turns=1)
    first = {"4": ["peek 0", "peek 1"], "4h": [], 9: ["flip 0", "flip 1", "flip 2"]}
    setup_flips(game, first.get(layout, ["flip 0", "flip 1"]))
    run(game, [(0, "draw"), (0, "discard")])
    last = game.history(None)[-1]
    assert last["ender"] is None
    return list(last["scores"])


def total_cards(game: Game, per_seat: int) -> int:
    table = game.view(0)["table"]
    return table["stock"] + table["discards"] + per_seat * len(table["grids"])


def jokers_in(game: Game) -> int:
    return game.position().count("JK")


# ------------------------------------------------------------- Part 1: 6-card rules


@pytest.mark.parametrize(
    ("layout", "per_seat"), [(6, 6), (8, 8), (9, 9), (10, 10)], ids=["6", "8", "9", "10"]
)
@pytest.mark.parametrize(("players", "decks"), [(2, 1), (3, 1), (4, 2), (7, 2), (8, 3), (9, 3)])
def test_golf_deck_1_four_or_more_two_decks_eight_or_more_three(
    layout: int, per_seat: int, players: int, decks: int
) -> None:
    # "Ja ir četri vai vairāk spēlētāji, sajauciet divus klājus kopā. Ja ir astoņi vai vairāk
    # spēlētāji, sajauciet trīs klājus kopā." = "If there are four or more players, shuffle two
    # decks together. If there are eight or more players, shuffle three decks together."
    # Part 4 ("8 vai 10", "9 kāršu golfs"): "Ievērojiet 6 kāršu golfa noteikumus".
    game = cardcore.new_game("golf", players, options={"layout": layout}, seed=1)
    assert total_cards(game, per_seat) == 52 * decks


def test_golf_deal_1_six_face_down_unknown_to_owner_and_upcard() -> None:
    # "Izdaliet sešas kārtis katram spēlētājam ar attēlu uz leju" = "Deal six cards face down to
    # each player"; "Tirgotājam jādod sev tikpat daudz karšu" = "the dealer gives himself as
    # many"; "Vēl neskatieties uz kartēm" = "do not look at the cards yet";
    # "Apgrieziet augšējo karti ar virspusi uz augšu blakus" = "turn the top card face up beside".
    game = new(["5C 6C 7C 8C 9C 10C", "AH 2H 3H 4H 5H 6H"], "KS", "QS")
    for seat in (0, 1):
        assert game.view(seat)["table"]["grids"] == [[None] * 6, [None] * 6]
    assert game.view(0)["table"]["discard"] == "KS"
    assert game.view(1)["table"]["dealer"] == 1  # the dealer (seat 1) has six cards too


def test_golf6_setup_2_turn_any_two_second_chosen_after_first() -> None:
    # "Katrs spēlētājs pagriež jebkuras divas kārtis savā režģī uz augšu. Jūs varat izvēlēties
    # otro pēc tam, kad esat pagriezis pirmo." = "Each player turns any two cards of their grid
    # face up. You may choose the second after you have turned the first."
    game = new(["5C 6C 7C 8C 9C 10C", "AH 2H 3H 4H 5H 6H"], "KS", "QS")
    game.act(0, "flip 5")
    assert game.view(0)["table"]["grids"][0] == [None] * 5 + ["10C"]
    assert game.view(0)["to_act"] == [0]  # the second card is chosen now, after seeing 10C
    game.act(0, "flip 2")
    assert game.view(1)["table"]["grids"][0] == [None, None, "7C", None, None, "10C"]
    assert game.view(1)["to_act"] == [1]
    with pytest.raises(IllegalActionError, match=r"\(GOLF-DEAL-4\)"):
        game.act(1, "draw")  # seat 1 turns its two cards before play starts


def test_golf_turn_1_2_draw_or_take_replace_face_down_card_face_up() -> None:
    # Step 8: "Jūs varat paņemt izmetumu kaudzes augšējo karti ... Pretējā gadījumā izvelciet
    # karti no izlozes kaudzes augšdaļas" = "You may take the top discard ... otherwise draw
    # from the top of the draw pile". Step 9: "Jūs varat nomainīt jebkuru karti neatkarīgi no
    # tā, vai tā ir uz augšu vai uz leju" = "you may replace any card, face up or face down";
    # the replaced card goes "ar attēlu uz augšu izmetumu kaudzē" = "face up onto the discard
    # pile"; the drawn card goes "vietā ar attēlu uz augšu" = "in its place, face up".
    game = new(["5C 6C 7C 8C 9C 10C", "AH 2H 3H 4H 5H 6H"], "KS", "QS")
    setup_flips(game, ["flip 0", "flip 1"])
    assert game.legal_actions(0) and [str(a) for a in game.legal_actions(0)] == ["draw", "take"]
    run(game, [(0, "draw"), (0, "replace 4")])  # 9C was face down and unseen
    table = game.view(1)["table"]
    assert table["grids"][0] == ["5C", "6C", None, None, "QS", None]
    assert table["discard"] == "9C"


def test_golf_turn_3_a_taken_discard_cannot_be_discarded() -> None:
    # "Jūs to nevarat izdarīt, ja izvilktā karte tikko nākusi no izmetumu kaudzes." = "You
    # cannot do this [discard it] if the drawn card has just come from the discard pile."
    game = new(["5C 6C 7C 8C 9C 10C", "AH 2H 3H 4H 5H 6H"], "KS", "QS")
    setup_flips(game, ["flip 0", "flip 1"])
    game.act(0, "take")
    assert "discard" not in [str(a) for a in game.legal_actions(0)]
    with pytest.raises(IllegalActionError, match=r"\(GOLF-TURN-3\)"):
        game.act(0, "discard")
    game.act(0, "replace 3")
    assert game.view(1)["table"]["grids"][0][3] == "KS"


def test_golf6_score_1_same_number_or_letter_in_a_column_cancels() -> None:
    # "Ja abām kolonnā esošajām kartītēm ir vienāds cipars vai burts (piemēram, karaliene virs
    # citas karalienes), tās viena otru atceļ un nav neko vērtas (nulle punktu)." = "If both
    # cards in a column have the same number or letter (e.g. a queen above another queen), they
    # cancel each other and are worth nothing (zero points)."
    # Seat 0: Q/Q column 0 -> 0; 10/J column 1 is not "the same letter" -> 20; 3 + 4 -> 27.
    # Seat 1: 10/10 column -> 0; 5/5 -> 0; A + 2 -> 3.
    assert scored(["QS JS 3S QH 10S 4S", "10H 5H AH 10D 5D 2H"]) == [27, 3]


def test_golf_score_1_basic_table() -> None:
    # "Pamata sistēma": A 1, 2-10 face value, "Džeks 10", "Karaliene 10", "Karalis 0 (nulle)".
    assert scored(["AS 2S 3S 4S 5S 6S", "7S 8S 9S 10S JS QS"]) == [21, 54]
    assert scored(["KS 2S 3S 4S 5S 6S", "7S 8S 9S 10S JS KH"]) == [20, 44]


def test_golf_score_2_harder_table() -> None:
    # "Grūtāka variācija": "Džeks 11", "Karaliene 12", "Karalis 13".
    rules = ["golf.hard"]
    assert scored(["AS 2S 3S 4S 5S 6S", "7S 8S 9S 10S JS QS"], rules=rules) == [21, 57]
    assert scored(["KS 2S 3S 4S 5S 6S", "7S 8S 9S 10S JS KH"], rules=rules) == [33, 58]
    # a column of kings still cancels ("vienāds ... burts"): 13 + 13 -> 0; 2 + 3 + 5 + 6 = 16
    assert scored(["KS 2S 3S KH 5S 6S", "7S 8S 9S 10S JS QS"], rules=rules) == [16, 57]


def test_golf_deck_4_two_jokers_per_52_card_deck() -> None:
    # "sajauciet 2 jokerus uz katru 52 kāršu klāju" = "shuffle in 2 jokers for every 52-card
    # deck".
    for players, decks in [(2, 1), (4, 2), (8, 3)]:
        game = cardcore.new_game("golf", players, rules=["golf.jokers"], seed=1)
        assert total_cards(game, 6) == 54 * decks
        assert jokers_in(game) == 2 * decks


def test_golf_score_4_5_joker_minus_two_and_joker_pair_from_minus_four_to_zero() -> None:
    # "Džokera jeb bonusa karte ir -2 (negatīvi divi) punktu vērtībā" = "a joker or bonus card
    # is worth -2 (minus two)"; "Džokeru pāris ... atceļ viens otru tāpat kā parastie pāri,
    # palielinot jūsu rezultātu no -4 līdz 0" = "a pair of jokers cancels like normal pairs,
    # raising your score from -4 to 0".
    rules = ["golf.jokers"]
    # seat 0: joker column pair -> 0 + 3 + 4 + 6 + 7 = 20; seat 1: 2 + 3 + ... + 7 = 27
    assert scored(["JK 3S 4S JK 6S 7S", "2H 3H 4H 5H 6H 7H"], rules=rules) == [20, 27]
    # one joker alone: -2 + 3 + 4 + 8 + 6 + 7 = 26; seat 1: joker -2 + 3..7 = 23
    assert scored(["JK 3S 4S 8S 6S 7S", "JK 3H 4H 5H 6H 7H"], rules=rules) == [26, 23]


def test_golf_score_8_bonus_twos() -> None:
    # "norādiet konkrētu karti par "bonusa karti" (parasti Twos ...)" = "name a particular card
    # the bonus card (usually the twos ...)"; bonus card -2; a pair of bonus cards cancels.
    rules = ["golf.bonus-twos"]
    # seat 0: 2/2 column -> 0, + 3 + 4 + 6 + 7 = 20; seat 1: -2 + 3 + 4 + 5 + 6 + 7 = 23
    assert scored(["2S 3S 4S 2H 6S 7S", "2D 3H 4H 5H 6H 7H"], rules=rules) == [20, 23]


def test_golf_score_9_one_eyed_jacks() -> None:
    # "... vai "one eyed Jacks"" : the one-eyed jacks (JH, JS) are the bonus cards, -2 each.
    rules = ["golf.one-eyed-jacks"]
    # seat 0: JH/JS column -> 0, + 3 + 4 + 6 + 7 = 20; seat 1: JD is two-eyed, 10 + 25 = 35
    assert scored(["JH 3S 4S JS 6S 7S", "JD 3H 4H 5H 6H 7H"], rules=rules) == [20, 35]


# Three players, GOLF6: seat 0 replaces its last face-down card on its 4th turn; seats 1 and 2
# then take one final turn each (seat 1 replaces a face-down card in it), and the round ends.
THREE = ["5C 6C 7C 8C 9C 10C", "AH 2H 3H 4H 5H 6H", "7D 8D 9D 10D JD QD"]
THREE_STOCK = "KH 2S 3S KD 4S 5S KC 6S 7S AC 2C 8S"
THREE_SCRIPT = [
    (0, "draw"), (0, "replace 2"), (1, "draw"), (1, "discard"), (2, "draw"), (2, "discard"),
    (0, "draw"), (0, "replace 3"), (1, "draw"), (1, "discard"), (2, "draw"), (2, "discard"),
    (0, "draw"), (0, "replace 4"), (1, "draw"), (1, "discard"), (2, "draw"), (2, "discard"),
    (0, "draw"), (0, "replace 5"),
]  # fmt: skip


def test_golf6_end_1_last_face_down_replaced_each_other_player_one_final_turn() -> None:
    # Step 11: "Tiklīdz kāds nomainīs savu pēdējo kārti uz leju, viens otrs spēlētājs arī ...
    # veiks pēdējo apgriezienu pulksteņrādītāja virzienā." = "As soon as someone replaces their
    # last face-down card, each other player also ... takes a last turn, clockwise."
    # Step 12: "Pagaidiet, līdz pēdējais spēlētājs uzņemsies savu kārtu, un pēc tam apgrieziet
    # visas ... kārtis" = "wait until the last player has taken their turn, then turn all cards
    # face up".
    game = new(THREE, "KS", THREE_STOCK)
    setup_flips(game, ["flip 0", "flip 1"])
    run(game, THREE_SCRIPT)
    assert game.view(1)["to_act"] == [1]
    assert game.view(1)["table"]["final_turns_left"] == 2
    # seat 1 still does not see its own face-down cards during its final turn
    assert game.view(1)["table"]["grids"][1] == ["AH", "2H", None, None, None, None]
    run(game, [(1, "draw"), (1, "replace 2")])  # 2C over the unseen 3H
    assert game.view(2)["to_act"] == [2]
    assert not game.is_over
    run(game, [(2, "draw"), (2, "discard")])
    assert game.is_over  # seat 0 takes no further turn
    last = game.history(None)[-1]
    assert last["ender"] == 0
    # seat 0: 5 + 6 + K 0 / K 0 + K 0 + A 1 = 12; seat 1: 1 + 2 + 2 / 4 + 5 + 6 = 20;
    # seat 2: 7 + 8 + 9 / 10 + 10 + 10 = 54
    assert last["grids"][0] == ["5C", "6C", "KH", "KD", "KC", "AC"]
    assert last["scores"] == [12, 20, 54]


# Two players, GOLF6: seat 0 completes with 45 points, seat 1 (one final turn) has 21.
TWO = ["5C 6C 7C 8C 9C 10C", "AH 2H 3H 4H 5H 6H"]
TWO_STOCK = "9S 2S 8S 3S 7S 4S QS 5S"
TWO_SCRIPT = [
    (0, "draw"), (0, "replace 2"), (1, "draw"), (1, "discard"),
    (0, "draw"), (0, "replace 3"), (1, "draw"), (1, "discard"),
    (0, "draw"), (0, "replace 4"), (1, "draw"), (1, "discard"),
    (0, "draw"), (0, "replace 5"), (1, "draw"), (1, "discard"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        ([], [45, 21]),
        # "Spēlētājs, kurš beidz spēli ("pieklauvējot" vai pagriežot pēdējo kārti uz augšu),
        # iegūst 10 punktus. nē ir zemākais punktu skaits šajā kārtā." = "The player who ends
        # the game (by "knocking" or by turning the last card face up) gets 10 points [if he
        # does]n't have the lowest score in this round."
        (["golf.ender-penalty-10"], [55, 21]),
        # "... šis spēlētājs iegūst punktu skaitu, kas vienāds ar spēlētāju, kurš to izdarīja"
        # = "that player gets a number of points equal to [that of] the player who did".
        (["golf.ender-penalty-lowest"], [66, 21]),
    ],
    ids=["none", "A", "B"],
)
def test_golf_pen_1_ender_by_turning_last_card_face_up(
    rules: list[str], expected: list[int]
) -> None:
    game = new(TWO, "KS", TWO_STOCK, rules=rules)
    setup_flips(game, ["flip 0", "flip 1"])
    run(game, TWO_SCRIPT)
    last = game.history(None)[-1]
    # seat 0: 5 + 6 + 9 / 8 + 7 + Q 10 = 45; seat 1: 1 + 2 + 3 + 4 + 5 + 6 = 21
    assert last["ender"] == 0
    assert last["scores"] == expected


def test_golf6_var_1_final_turns_only_from_the_draw_pile() -> None:
    # "Pēdējo pagriezienu laikā spēlētāji var zīmēt tikai no izlozes kaudzes augšdaļas, nevis
    # izmest." = "During the last turns players may draw only from the top of the draw pile,
    # not the discard [pile]."
    game = new(TWO, "KS", TWO_STOCK, rules=["golf.final-stock-only"])
    setup_flips(game, ["flip 0", "flip 1"])
    run(game, TWO_SCRIPT[:-2])
    assert [str(a) for a in game.legal_actions(1)] == ["draw"]
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-VAR-1\)"):
        game.act(1, "take")
    # without the variant the final turn may take the discard
    plain = new(TWO, "KS", TWO_STOCK)
    setup_flips(plain, ["flip 0", "flip 1"])
    run(plain, TWO_SCRIPT[:-2])
    assert [str(a) for a in plain.legal_actions(1)] == ["draw", "take"]


def test_golf6_score_2_cancelled_column_to_the_bottom_not_the_top() -> None:
    # "Ja vēlaties, varat paņemt slejas, kuras ir atceltas, un novietot tās izmetumu kaudzes
    # apakšā (NAV augšpusē)." = "If you like, you may take the cancelled columns and put them at
    # the bottom of the discard pile (NOT on top)."
    game = new(
        ["QS 2S 3S 4S 5S 6S", "7S 8S 9S 10S JS 4D"], "KS", "QH", rules=["golf.remove-columns"]
    )
    setup_flips(game, ["flip 0", "flip 1"])
    run(game, [(0, "draw"), (0, "replace 3")])  # QH over 4S: Q/Q column
    table = game.view(1)["table"]
    assert table["discard"] == "4S"  # the replaced card stays on top
    assert table["discards"] == 4  # KS, 4S and the two queens underneath
    assert table["grids"][0][0] == "--" and table["grids"][0][3] == "--"


def test_golf_deal_3_left_of_dealer_first_and_deal_passes_left() -> None:
    # Step 7: "Dīlera kreisajā pusē esošais spēlētājs veic pirmo pagriezienu" = "the player on
    # the dealer's left moves first". Step 13: "Tas, kurš pēdējā kārtā sēdēja pa kreisi no
    # dīlera, ir šīs kārtas jaunais dīleris. Persona, kas sēž pa kreisi no pašreizējā dīlera,
    # vienmēr iet pirmajā kārtā." = "Whoever sat left of the dealer in the last round is this
    # round's new dealer. The person left of the current dealer always goes first."
    game = cardcore.new_game("golf", 3, options={"rounds": 3, "max_turns": 1}, seed=5)
    for dealer, first in [(2, 0), (0, 1), (1, 2)]:
        table = game.view(None)["table"]
        assert (table["dealer"], game.view(None)["to_act"]) == (dealer, [first])
        for k in range(3):
            seat = (first + k) % 3
            run(game, [(seat, "flip 0"), (seat, "flip 1")])
        assert game.view(None)["to_act"] == [first]
        run(game, [(first, "draw"), (first, "discard")])
    assert game.is_over


def test_golf_game_1_nine_rounds_when_nothing_else_is_agreed() -> None:
    # "Jūs spēlējat 9 raundus, 18 raundus vai kādu citu skaitli" = "you play 9 rounds, 18
    # rounds or another agreed number" (engine default: 9).
    game = cardcore.new_game("golf", 2, options={"max_turns": 1}, seed=2)
    rounds = 0
    while not game.is_over:
        first = game.view(None)["to_act"][0]
        for k in range(2):
            seat = (first + k) % 2
            run(game, [(seat, "flip 0"), (seat, "flip 1")])
        run(game, [(first, "draw"), (first, "discard")])
        rounds += 1
    assert rounds == 9


def test_golf_game_1_a_player_reaches_the_points_limit() -> None:
    # "Spēlētājs sasniedz 100 punktus, 200 punktus vai kādu citu skaitli" = "a player reaches
    # 100 points, 200 points or another agreed number": reaching it exactly ends the match.
    deck = deal(["AS 2S 3S 4S 5S 6S", "7S 8S 9S 10S JS QS"], "KS", "KH")
    game = cardcore.new_game(
        "golf", 2, deck=deck, options={"points_limit": 54, "max_turns": 1, "rounds": None}
    )
    setup_flips(game, ["flip 0", "flip 1"])
    run(game, [(0, "draw"), (0, "discard")])
    assert game.is_over
    # "Tas, kuram ir viszemākais kopējais punktu skaits, uzvar" = "lowest total wins"
    assert game.result.scores == (21.0, 54.0) and game.result.winners == (0,)


def test_golf_game_2_tied_players_share_the_glory() -> None:
    # "Ja divi spēlētāji ir neizšķirti, ļaujiet viņiem dalīties krāšņumā" = "if two players are
    # tied, let them share the glory".
    deck = deal(["AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"], "KS", "KH")
    game = cardcore.new_game("golf", 2, deck=deck, options={"rounds": 1, "max_turns": 1})
    setup_flips(game, ["flip 0", "flip 1"])
    run(game, [(0, "draw"), (0, "discard")])
    assert game.result.scores == (21.0, 21.0) and game.result.winners == (0, 1)


# ------------------------------------------------------- Part 2: 4-card face-down rules


@pytest.mark.parametrize("layout", ["4", "4h"])
@pytest.mark.parametrize(("players", "decks"), [(2, 1), (7, 1), (8, 2), (9, 2)])
def test_golf_deck_2_four_card_two_decks_from_eight(layout: str, players: int, decks: int) -> None:
    # "Ja jums ir 8 vai vairāk spēlētāju, sajauciet divus klājus kopā." = "If you have 8 or more
    # players, shuffle two decks together."
    game = cardcore.new_game("golf", players, options={"layout": layout}, seed=1)
    assert total_cards(game, 4) == 52 * decks


def test_golf4_setup_2_peek_any_two_privately() -> None:
    # "Katrs spēlētājs pieskata jebkuras divas kārtis savā režģī. Neļaujiet kādam citam redzēt"
    # = "Each player peeks at any two cards of their grid. Do not let anyone else see them."
    game = new(["9S 5S 3S KS", "6H 4H 2H KH"], "AC", "QD", layout="4")
    run(game, [(0, "peek 0"), (0, "peek 3")])
    assert game.view(0)["table"]["grids"][0] == ["9S", None, None, "KS"]
    assert game.view(1)["table"]["grids"][0] == [None] * 4


def test_golf4_turn_2_drawn_card_placed_face_down_replaced_card_face_up() -> None:
    # Step 7: "Paņemiet no sava tīkla karti ... ievietojiet to ar attēlu uz augšu izmetumu
    # kaudzē" = "put the replaced card face up on the discard pile"; "Novietojiet tikko
    # uzzīmēto karti ar seju uz leju" = "put the card you just drew face down"; step 6: "Ja tas
    # nāca no zīmēšanas kaudzes ar seju uz leju, neļaujiet to redzēt nevienam citam" = "if it
    # came face down from the draw pile, let nobody else see it".
    game = new(["9S 5S 3S KS", "6H 4H 2H KH"], "AC", "QD", layout="4")
    setup_flips(game, ["peek 2", "peek 3"])
    game.act(0, "draw")
    assert game.view(0)["table"]["held"]["card"] == "QD"
    assert game.view(1)["table"]["held"]["card"] is None
    game.act(0, "replace 1")
    assert game.view(1)["table"]["discard"] == "5S"
    assert game.view(1)["table"]["grids"][0] == [None] * 4
    assert game.view(0)["table"]["grids"][0] == [None, "QD", "3S", "KS"]


def test_golf4_knock_1_2_scrooge_knocks_others_one_last_turn_no_second_knock() -> None:
    # Step 9: "Tā vietā, lai paņemtu savu parasto pagriezienu, ikviens var pieklauvēt pie galda
    # ... Šis spēlētājs izlaiž savu kārtu, un viens otrs spēlētājs veic pēdējo kārtu. Tad kārta
    # beidzas. Jūs nevarat klauvēt pēc tam, kad kāds jau ir pieklauvējis" = "Instead of their
    # normal turn anyone may knock ... That player skips their turn and each other player takes
    # a last turn. Then the round ends. You cannot knock after someone has already knocked."
    game = new(["9S 5S 3S KS", "6H 4H 2H KH", "7C 8C 10C QC"], "AC", "QD JD", layout="4")
    setup_flips(game, ["peek 2", "peek 3"])
    game.act(0, "knock")
    assert game.view(0)["to_act"] == [1]
    assert "knock" not in [str(a) for a in game.legal_actions(1)]
    run(game, [(1, "draw"), (1, "discard")])
    assert "knock" not in [str(a) for a in game.legal_actions(2)]
    run(game, [(2, "draw"), (2, "discard")])
    assert game.is_over
    last = game.history(None)[-1]
    # seat 0: 9 + 5 + 3 + 0 = 17; seat 1: 6 + 4 + 2 + 0 = 12; seat 2: 7 + 8 + 10 + 10 = 35
    assert last["ender"] == 0 and last["scores"] == [17, 12, 35]


@pytest.mark.parametrize(
    ("marley", "rules", "expected"),
    [
        # "Skrūdžam ir 17 punkti, bet Mārlijam - 12 ... Skrūdžs ... pieskaita Mārlija 12
        # punktus savējiem. Galīgie rezultāti ir Scrooge 29 un Mārlijs 12" = "Scrooge has 17,
        # Marley 12 ... Scrooge adds Marley's 12 points to his own. Final scores Scrooge 29,
        # Marley 12."
        ("6H 4H 2H KH", ["golf.ender-penalty-lowest"], [29, 12]),
        ("6H 4H 2H KH", ["golf.ender-penalty-10"], [27, 12]),
        # "Ja spēlētājam, kurš beidza spēli, šajā kārtā nav viszemākā punktu skaita" = "if the
        # ender does not have the lowest score in this round": tied at 17, he has it.
        ("6H 4H 7H KH", ["golf.ender-penalty-lowest"], [17, 17]),
        ("6H 4H 7H KH", ["golf.ender-penalty-10"], [17, 17]),
        # Scrooge lowest: no penalty
        ("6H 4H 8H KH", ["golf.ender-penalty-10"], [17, 18]),
    ],
    ids=["B-example", "A", "B-tie", "A-tie", "A-lowest"],
)
def test_golf_pen_2_3_scrooge_and_marley(
    marley: str, rules: list[str], expected: list[int]
) -> None:
    game = new(["9S 5S 3S KS", marley], "AC", "QD", layout="4", rules=rules)
    setup_flips(game, ["peek 2", "peek 3"])
    run(game, [(0, "knock"), (1, "draw"), (1, "discard")])
    last = game.history(None)[-1]
    assert last["ender"] == 0 and last["scores"] == expected


@pytest.mark.parametrize(
    ("grids", "rules", "expected"),
    [
        # "Vienas un tās pašas kartes pāris vienā rindā vai kolonnā ir nulles punktu vērts." =
        # "A pair of the same card in one row or column is worth zero."
        # row pair 5/5 + 7 + 8 = 15; column pair 9/9 + 7 + 8 = 15
        (["5S 5H 7S 8S", "9S 7H 9H 8H"], [], [15, 15]),
        # diagonal is neither row nor column: 5+7+8+5 = 25 and 9+7+8+9 = 33
        (["5S 7S 8S 5H", "9S 7H 8H 9H"], [], [25, 33]),
        # "Arī pāri pāri viens otram pa diagonāli tiek atcelti." = "Pairs diagonally across from
        # each other also cancel."
        (["5S 7S 8S 5H", "9S 7H 8H 9H"], ["golf.diagonal-pairs"], [15, 15]),
        # "Ja jums ir trīs vienādi, tikai divi no tiem tiks atcelti. Trešais joprojām būs tā
        # ierastās vērtības vērts." = "three of a kind: only two cancel; the third keeps its
        # usual value": 5 + 8 = 13 and 5 + K 0 = 5... (second seat: 9 9 / 9 K -> 9)
        (["5S 5H 5D 8S", "9S 9H 9D KS"], [], [13, 9]),
        # "Ja jums ir četri vienādi, viss jūsu režģis ir nulles punktu vērts." = "four of a
        # kind: your whole grid is worth zero"; two different pairs in rows: 0 too
        (["5S 5H 5D 5C", "7S 7H 8S 8H"], [], [0, 0]),
        (["KS KH KD KC", "7S 7H 8S 8H"], ["golf.hard"], [0, 0]),
        # "Pāri vispār neatceļ." = "Pairs do not cancel at all."
        (["5S 5H 5D 5C", "7S 7H 8S 8H"], ["golf.no-cancelling"], [20, 30]),
    ],
    ids=["row-col", "diagonal", "diagonal-var", "three", "four", "four-hard", "no-cancel"],
)
def test_golf4_score_1_2_3_rows_columns_three_and_four_of_a_kind(
    grids: list[str], rules: list[str], expected: list[int]
) -> None:
    assert scored(grids, layout="4", rules=rules, upcard="AC", stock="QD") == expected


def test_golf4_var_4_peek_only_the_two_nearest() -> None:
    # "Jūs varat ielūkoties tikai divās sev tuvākajās kartītēs." = "You may peek only at the two
    # cards nearest to you."
    game = new(["9S 5S 3S KS", "6H 4H 2H KH"], "AC", "QD", layout="4", rules=["golf.peek-nearest"])
    assert [str(a) for a in game.legal_actions(0)] == ["peek 2", "peek 3"]
    with pytest.raises(IllegalActionError, match=r"\(GOLF4-VAR-4\)"):
        game.act(0, "peek 0")


def test_golf4_var_3_final_turns_after_a_knock_only_from_the_draw_pile() -> None:
    # "Pēdējo pagriezienu laikā spēlētāji var izdarīt tikai no izlozes kaudzes augšdaļas." =
    # "During the last turns players may [draw] only from the top of the draw pile."
    game = new(
        ["9S 5S 3S KS", "6H 4H 2H KH"],
        "AC",
        "QD",
        layout="4",
        rules=["golf.knock-final-stock-only"],
    )
    setup_flips(game, ["peek 2", "peek 3"])
    game.act(0, "knock")
    assert [str(a) for a in game.legal_actions(1)] == ["draw"]


# ------------------------------------------------------------- Part 4: variations


def test_golf4h_1_2_any_two_equal_cards_cancel_no_positions_hand_visible() -> None:
    # "Spēlētāji jebkurā laikā var apskatīt visas kārtis savā rokā." = "Players may look at all
    # the cards in their hand at any time." "Visas divas kārtis tiek atceltas, ja tām ir vienāda
    # vērtība. Jūsu rokā nav "režģa stāvokļa"." = "Any two cards cancel if they have the same
    # value. There is no 'grid position' in your hand."
    game = new(["5S 7S 8S 5H", "9S 7H 8H 9H"], "AC", "QD", layout="4h")
    assert game.view(0)["table"]["grids"] == [["5S", "7S", "8S", "5H"], [None] * 4]
    # the "diagonal" slots 0 and 3 cancel in a hand: 7 + 8 = 15 each
    assert scored(["5S 7S 8S 5H", "9S 7H 8H 9H"], layout="4h", upcard="AC", stock="QD") == [
        15,
        15,
    ]


def test_golf9_1_2_three_face_up_and_only_line_triples_cancel() -> None:
    # Part 4 step 3: "Katrs spēlētājs spēles sākumā atver 3 kārtis, nevis 2." = "each player
    # turns 3 cards face up at the start instead of 2". "Spēlētājs var atcelt kārtis tikai tad,
    # ja tajā pašā rindā vai kolonnā ir trīs vienādas." = "cards cancel only when there are
    # three of a kind in the same row or column."
    game = new(["5S 5H 5D 7S 8S 9S 7H 2S 3S", "4C 6C 6D 4D 10C 6H 4H JC QC"], "AC", "QD", layout=9)
    run(game, [(0, "flip 0"), (0, "flip 4")])
    assert game.view(0)["to_act"] == [0]  # a third card is still to be turned
    # seat 0: row 0 triple -> 0; the 7/7 column pair does not cancel: 7+8+9+7+2+3 = 36
    # seat 1: column 0 triple of 4s -> 0; three 6s not in one line: 6+6+10+6+10+10 = 48
    grids = ["5S 5H 5D 7S 8S 9S 7H 2S 3S", "4C 6C 6D 4D 10C 6H 4H JC QC"]
    assert scored(grids, layout=9, upcard="AC", stock="QD") == [36, 48]


def test_golf8_1_four_by_two_and_five_by_two_column_pairs() -> None:
    # "Ievērojiet 6 kāršu golfa noteikumus, bet katram spēlētājam piešķiriet 4x2 vai 5x2
    # režģi." = "Follow the 6-card rules, but give each player a 4x2 or 5x2 grid."
    # GOLF8 seat 0: column 0 = 5S/5H -> 0; 6+7+8+9+10+10 = 50. Seat 1: no pairs: 1+2+3+4+6+7+8+9.
    g8 = ["5S 6S 7S 8S 5H 9S 10S JS", "AH 2H 3H 4H 6H 7H 8H 9H"]
    assert scored(g8, layout=8, upcard="AC", stock="QD") == [50, 40]
    # GOLF10 seat 0: column 4 = QS/QH -> 0; 1..4 + 6..9 = 40. Seat 1: A..5 + 6..10 = 55.
    g10 = ["AS 2S 3S 4S QS 6S 7S 8S 9S QH", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H"]
    assert scored(g10, layout=10, upcard="AC", stock="QD") == [40, 55]


def test_golf6_var_2_two_equal_cards_anywhere_cancel() -> None:
    # "Divas vienas un tās pašas kartes vietas izkārtojumā tiek atceltas, nevis tikai vienā
    # kolonnā." = "Two of the same card anywhere in the layout cancel, not only in one column."
    grids = ["5S 6S 5H 7S 8S 9S", "AH 2H 3H 4H 6H 7H"]
    assert scored(grids) == [40, 23]
    assert scored(grids, rules=["golf.pairs-anywhere"]) == [30, 23]


@pytest.mark.parametrize(
    ("mine", "expected"),
    [("5S 5H 2S 5D 5C 3S", [5, 33]), ("5S 2S 5H 5D 3S 5C", [5, 23])],
    ids=["adjacent", "not-adjacent"],
)
def test_golf6_var_3_two_adjacent_columns_of_four_others_plus_ten(
    mine: str, expected: list[int]
) -> None:
    # "Ja jums blakus ir divas kolonnas ar četrām vienas un tās pašas kartes kartēm, tās tiek
    # atceltas līdz nullei, un viens otram spēlētājam šajā kārtā tiek pievienoti 10 punkti." =
    # "If you have two columns next to each other with four of the same card, they cancel to
    # zero, and each other player gets 10 points added this round."
    other = "AH 2H 3H 4H 6H 7H"  # 23
    assert scored([mine, other], rules=["golf.four-of-a-kind-columns"]) == expected


@pytest.mark.parametrize(
    ("rule", "second_ok", "second_bad"),
    [
        ("golf.reveal-same-column", "flip 3", "flip 1"),
        ("golf.reveal-different-columns", "flip 1", "flip 3"),
    ],
)
def test_golf6_setup_3_4_first_two_in_one_column_or_in_different_columns(
    rule: str, second_ok: str, second_bad: str
) -> None:
    # "Pārslēdzot pirmās divas kārtis, tām ir jāatrodas vienā slejā vai dažādās slejās." =
    # "When turning the first two cards, they must be in one column or in different columns"
    # (two alternative house rules).
    game = new(TWO, "KS", TWO_STOCK, rules=[rule])
    game.act(0, "flip 0")
    with pytest.raises(IllegalActionError):
        game.act(0, second_bad)
    game.act(0, second_ok)


def test_golf_gen_1_two_or_more_players() -> None:
    # "... ko var spēlēt kopā ar diviem vai vairākiem cilvēkiem" = "which can be played by two
    # or more people"; Part 2: "var spēlēt ar 2 vai vairāk spēlētājiem".
    with pytest.raises(cardcore.OptionError, match=r"\(CORE-SEAT-2\)"):
        cardcore.new_game("golf", 1)
    for layout in (6, "4", "4h", 9):
        assert not cardcore.new_game("golf", 2, options={"layout": layout}, seed=1).is_over


def test_golf_turn_2_any_card_face_up_or_down_may_be_replaced() -> None:
    # "Jūs varat nomainīt jebkuru karti neatkarīgi no tā, vai tā ir uz augšu vai uz leju." =
    # "You may replace any card, whether it is face up or face down."
    game = new(TWO, "KS", TWO_STOCK)
    setup_flips(game, ["flip 0", "flip 1"])
    game.act(0, "draw")
    assert [str(a) for a in game.legal_actions(0)] == [f"replace {p}" for p in range(6)] + [
        "discard"
    ]
    game.act(0, "replace 0")  # the face-up 5C goes face up onto the discard pile
    assert game.view(1)["table"]["grids"][0][0] == "9S"
    assert game.view(1)["table"]["discard"] == "5C"


def test_golf4_setup_2_two_different_cards() -> None:
    # "jebkuras divas kārtis" = "any two cards": the second peek is at another card.
    game = new(["9S 5S 3S KS", "6H 4H 2H KH"], "AC", "QD", layout="4")
    game.act(0, "peek 0")
    assert [str(a) for a in game.legal_actions(0)] == ["peek 1", "peek 2", "peek 3"]


def test_golf_score_5_joker_pair_cancels_only_like_a_normal_pair_in_golf4() -> None:
    # "Džokeru pāris ... atceļ viens otru tāpat kā parastie pāri" = "a pair of jokers cancels
    # just like normal pairs": in GOLF4 only in one row or column (Part 2 step 8).
    rules = ["golf.jokers"]
    # diagonal jokers: -2 + 7 + 8 - 2 = 11; column jokers: 0 + 7 + 8 = 15; seat 1: 9+7+8+2 = 26
    diag = scored(["JK 7S 8S JK", "9S 7H 8H 2H"], layout="4", rules=rules, upcard="AC", stock="QD")
    col = scored(["JK 7S JK 8S", "9S 7H 8H 2H"], layout="4", rules=rules, upcard="AC", stock="QD")
    assert (diag, col) == ([11, 26], [15, 26])


def test_golf_pen_3_three_players_ender_adds_the_lowest_players_points() -> None:
    # "... šis spēlētājs iegūst punktu skaitu, kas vienāds ar spēlētāju, kurš to izdarīja" =
    # "that player gets points equal to the player who did [have the lowest score]".
    game = new(
        ["9S 5S 3S KS", "6H 4H 2H KH", "7C 8C QC KC"],
        "AC",
        "QD JD",
        layout="4",
        rules=["golf.ender-penalty-lowest"],
    )
    setup_flips(game, ["peek 2", "peek 3"])
    run(game, [(0, "knock"), (1, "draw"), (1, "discard"), (2, "draw"), (2, "discard")])
    # seat 0: 17 + 12 (seat 1, the lowest) = 29; seat 2: 7 + 8 + 10 + 0 = 25
    assert game.history(None)[-1]["scores"] == [29, 12, 25]


def test_golf9_4_triple_may_go_to_the_bottom_of_the_discard_pile() -> None:
    # "Kad viņi to dara, viņi var noņemt šīs 3 kārtis un novietot tās izmetumu kaudzes apakšā
    # (NAV augšpusē)." = "When they do, they may remove these 3 cards and put them at the bottom
    # of the discard pile (NOT on top)."
    game = new(
        ["5S 5H 5D 7S 8S 9S 7H 2S 3S", "4C 6C 6D 4D 10C 6H AH JC QC"],
        "AC",
        "4H",
        layout=9,
        rules=["golf.remove-triples"],
    )
    setup_flips(game, ["flip 0", "flip 1", "flip 2"])  # seat 0 turns up the row of fives
    table = game.view(1)["table"]
    assert table["grids"][0][:3] == ["--", "--", "--"]
    assert (table["discard"], table["discards"]) == ("AC", 4)  # the upcard stays on top


@pytest.mark.parametrize("layout", [6, 8, 9, 10, "4", "4h"])
def test_golf_score_3_either_system_with_any_variation(layout: int | str) -> None:
    # "Jūs varat izmantot katru vērtēšanas sistēmu jebkurai spēles variācijai" = "you can use
    # either scoring system with any variation of the game"; jokers too ("Šim neobligātajam
    # variantam" = "for this optional variant").
    for rules in (["golf.hard"], ["golf.hard", "golf.jokers"]):
        game = cardcore.new_game("golf", 2, options={"layout": layout}, rules=rules, seed=1)
        assert set(game.view(0)["rules"]) == set(rules)
