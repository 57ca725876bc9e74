"""Go Fish, the third-party game distribution in ``examples/go_fish`` (installed, not imported from the tree).

Every rule ID of ``examples/go_fish/RULES.md`` has a test named after it
(``GOFISH-ASK-1`` -> ``test_gofish_ask_1_...``). Positions set up each case
exactly (see :func:`setup`), so no test searches for a seed.
"""

from __future__ import annotations

import json
import re
import runpy
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import Event, IllegalActionError, NotationError, OptionError
from cardcore.testing import check_game

pytest.importorskip("cardcore_gofish", reason="install it first: pip install -e examples/go_fish")
from cardcore_gofish.actions import Ask
from cardcore_gofish.agents import GoFishBasicAgent

ROOT = Path(__file__).resolve().parents[1]
RANK_WORDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK = [f"{r}{s}" for s in "SHDC" for r in RANK_WORDS]


def setup(
    hands: list[str],
    *,
    stock: str = "",
    books: dict[int, str] | None = None,
    spare: int | None = None,
    turn: int = 0,
    asked: list[list[str]] | None = None,
) -> str:
    """Write a position: *hands* per seat, *stock* top first, *books* per seat.

    Cards not named go to the bottom of the stock, or with ``spare=seat`` every
    rank named nowhere goes to that seat's books (so the stock can be empty).
    """
    n = len(hands)
    laid = {s: text.split() for s, text in (books or {}).items()}
    named = (
        [c for h in hands for c in h.split()]
        + stock.split()
        + [c for b in laid.values() for c in b]
    )
    rest = [c for c in DECK if c not in named]
    if spare is not None:
        unseen = Counter(c[:-1] for c in rest)
        whole = [c for r in RANK_WORDS if unseen[r] == 4 for c in rest if c[:-1] == r]
        laid[spare] = laid.get(spare, []) + whole
        rest = [c for c in rest if c not in whole]
    masks = [sum(1 << RANK_WORDS.index(r) for r in ranks) for ranks in (asked or [[]] * n)]
    piles = [f"stock: {' '.join(rest + stock.split()[::-1])}"]
    piles += [f"hand.{s}: {hands[s]}" for s in range(n)]
    piles += [f"books.{s}: {' '.join(laid.get(s, []))}" for s in range(n)]
    head = f"gofish to_act=[{turn}] asked={json.dumps(masks, separators=(',', ':'))}"
    return " | ".join([head, *(p.rstrip() for p in piles)])


def start(hands: list[str], **kwargs: Any) -> cardcore.Game:
    return cardcore.new_game("gofish", len(hands), position=setup(hands, **kwargs), seed=1)


def hand(game: cardcore.Game, seat: int) -> list[str]:
    """Seat *seat*'s hand as the privileged spectator of the zones sees it (bottom to top)."""
    zones = game.state.zones
    return [str(c) for c in zones.cards[zones.id(f"hand.{seat}")]]


def pile(game: cardcore.Game, name: str) -> list[str]:
    zones = game.state.zones
    return [str(c) for c in zones.cards[zones.id(name)]]


def targets(game: cardcore.Game, seat: int) -> set[int]:
    return {a.target for a in game.legal_actions(seat) if isinstance(a, Ask)}


def watch(game: cardcore.Game, seat: int | str | None = None) -> list[dict[str, Any]]:
    box: list[dict[str, Any]] = []
    game.events.subscribe(Event, lambda e: box.append(e.to_json()), seat=seat)
    return box


# -- GOFISH-SEAT-1 ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 7])
def test_gofish_seat_1_two_to_six_players(players: int) -> None:
    with pytest.raises(OptionError, match="2 to 6 players"):
        cardcore.new_game("gofish", players, seed=1)
    for ok in (2, 6):
        assert len(cardcore.new_game("gofish", ok, seed=1).players) == ok


# -- GOFISH-DEAL-1 ------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "each"), [(2, 7), (3, 7), (4, 5), (5, 5), (6, 5)])
def test_gofish_deal_1_seven_cards_to_two_or_three_else_five(players: int, each: int) -> None:
    game = cardcore.new_game("gofish", players, seed=3)
    table = game.view(None)["table"]
    for s in range(players):
        assert len(hand(game, s)) + 4 * table["books"][s] == each
    assert table["stock"] == 52 - players * each
    assert game.to_act == (0,)


def test_gofish_deal_1_one_card_at_a_time_from_seat_0() -> None:
    game = cardcore.new_game("gofish", 2, deck="AS 2S 3S 4S 5S 6S", seed=1)
    assert hand(game, 0)[:3] == ["AS", "3S", "5S"]
    assert hand(game, 1)[:3] == ["2S", "4S", "6S"]


# -- GOFISH-ASK-1, GOFISH-ASK-2 --------------------------------------------------------------------


def test_gofish_ask_1_only_a_rank_you_hold() -> None:
    game = start(["QS 5H", "QH 9C", "2D"])
    assert [str(a) for a in game.legal_actions(0)] == ["ask 1 5", "ask 1 Q", "ask 2 5", "ask 2 Q"]
    with pytest.raises(IllegalActionError, match=r"rank it holds, not 'K' \(GOFISH-ASK-1\)$"):
        game.act(0, "ask 1 K")
    with pytest.raises(IllegalActionError, match=r"GOFISH-ASK-1\)$"):
        game.act(0, "ask 1 Z")  # well-formed (a word), but no rank
    for text in ("ask", "ask 1", "ask one Q", "ask 1 Q Q", "ask ² Q", "fish 1 Q"):
        with pytest.raises(NotationError):
            game.act(0, text)
    assert game.version == 0


def test_gofish_ask_1_notation_reads_back_case_insensitive() -> None:
    game = start(["QS 5H", "QH 9C"])
    action = game.legal_actions(0)[1]
    assert action == Ask(0, 1, "Q") and str(action) == "ask 1 Q"
    game.act(0, "ASK 1 q")
    assert hand(game, 0) == ["QS", "5H", "QH"]


def test_gofish_ask_2_another_seat_that_holds_cards() -> None:
    game = start(["QS 5H", "", "QH 5C QD QC 5S 5D"], spare=2)  # seat 1 is out, the stock empty
    assert targets(game, 0) == {2}
    for text in ("ask 1 Q", "ask 0 Q", "ask 3 Q"):
        with pytest.raises(IllegalActionError, match=r"another seat with cards.*\(GOFISH-ASK-2\)$"):
            game.act(0, text)


# -- GOFISH-GIVE-1 --------------------------------------------------------------------------------


def test_gofish_give_1_every_card_of_the_rank_and_ask_again() -> None:
    game = start(["QS 5H", "QH 9C QD"])
    spy = watch(game, 1)
    game.act(0, "ask 1 Q")
    assert sorted(hand(game, 0)) == ["5H", "QD", "QH", "QS"]
    assert hand(game, 1) == ["9C"]
    assert game.to_act == (0,)  # the asker goes again
    moved = [e for e in spy if e["event"] == "card-moved"]
    assert sorted(e["card"] for e in moved) == ["QD", "QH"]  # shown to everyone
    zones = game.state.zones
    z = zones.id("hand.0")
    known = [str(c) for i, c in enumerate(zones.cards[z]) if zones.knows(z, i, 1)]
    assert sorted(known) == ["QD", "QH"]  # seat 1 knows where they went, not the rest


# -- GOFISH-FISH-1 --------------------------------------------------------------------------------


def test_gofish_fish_1_go_fish_draws_in_secret_and_the_turn_passes() -> None:
    game = start(["QS 5H", "9C 2D"], stock="7H 8H")
    seen_by_1 = watch(game, 1)
    seen_by_0 = watch(game, 0)
    game.act(0, "ask 1 Q")
    assert hand(game, 0) == ["QS", "5H", "7H"]
    assert game.to_act == (1,)
    assert [e["card"] for e in seen_by_1 if e["event"] == "card-drawn"] == [None]
    assert [e["card"] for e in seen_by_0 if e["event"] == "card-drawn"] == ["7H"]
    assert "7H" not in json.dumps(game.view(1))


def test_gofish_fish_1_drawing_the_rank_asked_for_shows_it_and_goes_again() -> None:
    game = start(["QS 5H", "9C 2D"], stock="QH 8H")
    seen_by_1 = watch(game, 1)
    game.act(0, "ask 1 Q")
    assert game.to_act == (0,)
    assert [e["card"] for e in seen_by_1 if e["event"] == "card-drawn"] == ["QH"]
    zones = game.state.zones
    assert zones.knows(zones.id("hand.0"), -1, 1)  # shown: seat 1 knows where it is


def test_gofish_fish_1_with_an_empty_stock_the_turn_just_passes() -> None:
    game = start(["QS 5H", "9C 9D 9H", "9S QH QD QC 5S 5D 5C"], spare=2)
    assert game.view(0)["table"]["stock"] == 0
    before = hand(game, 0)
    game.act(0, "ask 1 Q")
    assert hand(game, 0) == before and game.to_act == (1,)


# -- GOFISH-TURN-1 --------------------------------------------------------------------------------


def test_gofish_turn_1_passes_left_to_the_next_seat_holding_cards() -> None:
    hands = ["QS 5H", "", "9C 2D QD", "QH QC 5S 5D 5C 9S 9D 9H 2S 2H 2C"]
    game = start(hands, spare=3)  # the stock is empty: seat 1 is out
    game.act(0, "ask 2 5")
    assert game.to_act == (2,)
    game.act(2, "ask 0 9")
    assert game.to_act == (3,)
    game.act(3, "ask 0 2")
    assert game.to_act == (0,)


# -- GOFISH-BOOK-1 --------------------------------------------------------------------------------


def test_gofish_book_1_four_of_a_rank_are_laid_down_at_once() -> None:
    game = start(["QS QH QD 5H", "QC 9C"])
    spy = watch(game, 1)
    game.act(0, "ask 1 Q")
    assert hand(game, 0) == ["5H"]
    assert sorted(pile(game, "books.0")) == ["QC", "QD", "QH", "QS"]
    assert game.view(1)["table"]["books"] == [1, 0]
    assert [e["dst"] for e in spy if e["event"] == "card-moved"][-4:] == ["books.0"] * 4


def test_gofish_book_1_a_book_dealt_is_laid_down_before_the_first_ask() -> None:
    game = cardcore.new_game("gofish", 2, deck="AS 2S AH 2H AD 2D AC", seed=1)
    assert sorted(pile(game, "books.0")) == ["AC", "AD", "AH", "AS"]
    assert len(hand(game, 0)) == 3 and game.view(0)["table"]["books"] == [1, 0]


def test_gofish_book_1_a_lucky_draw_can_complete_a_book() -> None:
    game = start(["QS QH QD 5H", "9C"], stock="QC")
    game.act(0, "ask 1 Q")
    assert len(pile(game, "books.0")) == 4 and game.to_act == (0,)


# -- GOFISH-EMPTY-1 -------------------------------------------------------------------------------


def test_gofish_empty_1_a_seat_left_without_cards_draws_one_at_once() -> None:
    game = start(["QS 5H", "QH QD"], stock="7C 8C")
    seen_by_0 = watch(game, 0)
    game.act(0, "ask 1 Q")
    assert hand(game, 1) == ["7C"]  # drawn at once, seen by its owner only
    assert [e["card"] for e in seen_by_0 if e["event"] == "card-drawn"] == [None]
    game.act(0, "ask 1 5")  # seat 1 holds cards again, so it can be asked
    assert game.to_act == (1,)


def test_gofish_empty_1_the_asker_refills_after_laying_down_its_last_cards() -> None:
    game = start(["QS QH QD", "QC 9C"], stock="7C 8C")
    game.act(0, "ask 1 Q")
    assert hand(game, 0) == ["7C"] and game.to_act == (0,)


def test_gofish_empty_1_with_an_empty_stock_the_seat_is_out() -> None:
    game = start(["QS 5H", "QH", "QD QC 9S", "5S 5D 5C 9D 9H 9C"], spare=3)
    game.act(0, "ask 1 Q")
    assert hand(game, 1) == []
    assert targets(game, 0) == {2, 3}  # seat 1 cannot be asked
    game.act(0, "ask 2 5")  # go fish, nothing to draw
    assert game.to_act == (2,)  # seat 1 is skipped


# -- GOFISH-END-1 ---------------------------------------------------------------------------------


def test_gofish_end_1_all_books_down_most_books_wins() -> None:
    game = start(["QS QH QD", "QC"], spare=0)  # seat 0 holds the other twelve books
    ended = watch(game)
    game.act(0, "ask 1 Q")
    assert game.is_over and game.to_act == ()
    assert game.result is not None
    assert game.result.winners == (0,) and game.result.scores == (13.0, 0.0)
    assert game.result.reason == "all books made"
    assert ended[-1]["event"] == "game-ended"
    again = cardcore.new_game("gofish", 2, position=game.position(), seed=2)  # the end reads back
    assert again.is_over and again.result == game.result
    assert comparable(again, None) == comparable(game, None)


def test_gofish_end_1_ties_share_the_win() -> None:
    def books(ranks: tuple[str, ...]) -> str:
        return " ".join(f"{r}{suit}" for r in ranks for suit in "SHDC")

    laid = {0: books(RANK_WORDS[1:6]), 1: books(RANK_WORDS[6:12]), 2: books(RANK_WORDS[12:])}
    game = start(["AS AH AD", "AC", ""], books=laid)  # 5, 6 and 1 books; seat 2 is out
    game.act(0, "ask 1 A")
    assert game.result is not None
    assert game.result.scores == (6.0, 6.0, 1.0) and game.result.winners == (0, 1)


# -- GOFISH-KNOW-1 --------------------------------------------------------------------------------


def test_gofish_know_1_an_ask_tells_everyone_the_asker_holds_the_rank() -> None:
    game = start(["QS 5H", "9C 2D 9H"], stock="7H 8H 3C")
    game.act(0, "ask 1 Q")  # go fish
    assert game.view(1)["table"]["asked"] == [["Q"], []]
    game.act(1, "ask 0 9")  # go fish again
    assert game.view(None)["table"]["asked"] == [["Q"], ["9"]]


def test_gofish_know_1_handing_a_rank_over_clears_the_memory() -> None:
    game = start(["QS 5H", "QH 2D"], asked=[[], ["Q"]])
    game.act(0, "ask 1 Q")  # seat 1 hands its queen over: nobody thinks it holds one now
    assert game.view(0)["table"]["asked"] == [["Q"], []]


def test_gofish_know_1_a_book_clears_the_memory() -> None:
    game = start(["QS QH QD 5H", "QC 9C"], asked=[["Q"], []])
    game.act(0, "ask 1 Q")
    assert game.view(0)["table"]["asked"] == [[], []]


# -- positions ---------------------------------------------------------------------------------------


def play_random(game: cardcore.Game, actions: int, seed: int) -> list[tuple[int, str]]:
    agent = cardcore.RandomAgent(seed)
    done: list[tuple[int, str]] = []
    while not game.is_over and len(done) < actions:
        seat = game.to_act[0]
        action = agent.choose(game.view(seat), game.legal_actions(seat))
        game.apply(action)
        done.append((seat, str(action)))
    return done


def comparable(game: cardcore.Game, seat: int | None) -> dict[str, Any]:
    view = game.view(seat)
    del view["version"]
    return view


@pytest.mark.parametrize("players", [2, 3, 6])
def test_position_reproduces_a_mid_game_position(players: int) -> None:
    game = cardcore.new_game("gofish", players, seed=11)
    play_random(game, 15, seed=5)
    assert not game.is_over
    again = cardcore.new_game("gofish", players, position=game.position(), seed=1)
    assert again.position() == game.position()
    for seat in [*range(players), None]:
        assert comparable(again, seat) == comparable(game, seat)
        if seat is not None:
            assert again.legal_actions(seat) == game.legal_actions(seat)
    # no chance after the deal: the same actions play the same game to its end
    rest = play_random(game, 10_000, seed=6)
    for seat, text in rest:
        again.act(seat, text)
    assert again.result == game.result


def test_position_writes_every_card_with_who_knows_it() -> None:
    game = start(["QS 5H", "QH 9C"], stock="7H")
    game.act(0, "ask 1 Q")
    text = game.position()
    assert text.startswith("gofish to_act=[0] asked=[2048,0] | stock: ")
    assert "QH!" in text  # handed over face up: everyone knows where it is


RESULT = 'result={"winners":[0],"scores":[1.0,0.0],"payouts":null,"reason":"x"}'
"""A finished game's ``result`` field (the core's default notation writes it at the end)."""


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "to_act=[0]",
            "to_act=[2]",
            r"to_act must hold distinct seats of a 2-player game, not \[2\]",
        ),
        ("to_act=[0]", 'to_act=["x"]', "to_act must hold distinct seats"),
        ("to_act=[0]", "to_act=0", "field 'to_act' must be a list"),
        ("to_act=[0]", "to_act=[]", "nobody is to act"),
        ("to_act=[0]", "to_act=[0,1]", r"to_act must be one seat holding cards, not \[0, 1\]"),
        ("to_act=[0]", "turn=0", r"unknown fields \['turn'\] \(gofish has: to_act, asked\)"),
        ("asked=[0,0]", "asked=[0]", r"field 'asked' must be a list of 2 ints, not \[0\]"),
        ("asked=[0,0]", "asked=[true,0]", "field 'asked' must be a list of 2 ints"),
        ("asked=[0,0]", "asked=[8192,0]", r"asked\[0\] must name ranks"),
        ("asked=[0,0]", "asked=[4,0]", r"asked\[0\] must name ranks"),
        ("asked=[0,0]", f"asked=[0,0] {RESULT}", r"the game is over \(result\), so nobody may act"),
        ("hand.0: QS 5H", "hand.0: QS", "every card must be placed exactly once"),
    ],
)
def test_position_refuses_what_the_rules_do_not_allow(old: str, new: str, message: str) -> None:
    text = setup(["QS 5H", "9C"])
    cardcore.new_game("gofish", 2, position=text, seed=1)  # the original is fine
    with pytest.raises(OptionError, match=message):
        cardcore.new_game("gofish", 2, position=text.replace(old, new, 1), seed=1)


def test_position_refuses_a_seat_to_act_without_cards() -> None:
    with pytest.raises(OptionError, match=r"to_act must be one seat holding cards, not \[1\]"):
        start(["QS 5H", "", "QH 5C QD QC 5S 5D"], spare=2, turn=1)  # seat 1 is out


def test_position_refuses_books_in_hand_broken_books_and_empty_hands() -> None:
    with pytest.raises(
        OptionError, match=r"hand.0 holds a book it must lay down \(GOFISH-BOOK-1\)"
    ):
        start(["QS QH QD QC", "5H"])
    with pytest.raises(
        OptionError, match=r"books.0 must hold whole books of one rank \(GOFISH-BOOK-1\)"
    ):
        start(["QS 5H", "9C"], books={0: "2S 2H 2D 3C"})
    with pytest.raises(OptionError, match=r"hand.1 is empty, the stock not \(GOFISH-EMPTY-1\)"):
        start(["QS 5H", ""])


# -- the agent, the kit and the command line ---------------------------------------------------------


def test_basic_agent_asks_a_seat_known_to_hold_the_rank() -> None:
    game = start(["QS 5H 5D", "9C 2D", "QH 8C"], asked=[[], [], ["Q"]])
    agent = cardcore.load_agent("gofish-basic")(seed=1)
    assert str(agent.choose(game.view(0), game.legal_actions(0))) == "ask 2 Q"
    game = start(["QS 5H 5D", "9C 2D 3D", "QH 8C"])
    assert str(agent.choose(game.view(0), game.legal_actions(0))) == "ask 1 5"  # commonest, biggest


def test_basic_agent_beats_random_agents() -> None:
    assert isinstance(GoFishBasicAgent(1), cardcore.Agent)
    agents = ["gofish-basic", "random", "random"]
    summary = cardcore.simulate("gofish", games=60, players=3, agents=agents, seed=3)
    assert summary.truncated == 0
    assert summary.wins[0] > 0.5 * summary.games, summary.wins  # a random seat wins a third


@pytest.mark.parametrize("players", [2, 3, 6])
def test_conformance_kit(players: int) -> None:
    report = check_game("gofish", players=players, games=4, seed=players)
    assert report.games >= 4 and report.truncated == 0 and report.leaks == 0


def test_the_line_count_in_the_plugin_guide_is_current() -> None:
    counter = runpy.run_path(str(ROOT / "examples" / "go_fish" / "count_lines.py"))
    counts = counter["count"]()
    game = sum(n for name, n in counts.items() if name != "agents.py")
    page = (ROOT / "docs" / "plugin-guide" / "game.rst").read_text(encoding="utf-8")
    said = re.search(r"needs (\d+) lines of code for the game and (\d+) for its agent", page)
    assert said is not None
    assert (int(said[1]), int(said[2])) == (game, counts["agents.py"])


def test_every_rule_id_of_rules_md_has_a_test_named_after_it() -> None:
    text = (ROOT / "examples" / "go_fish" / "RULES.md").read_text(encoding="utf-8")
    ids = re.findall(r"^\| (GOFISH-[A-Z]+-\d+) \|", text, re.M)
    names = [n for n in globals() if n.startswith("test_")]
    missing = [
        i
        for i in ids
        if not any(n.startswith(f"test_{i.lower().replace('-', '_')}_") for n in names)
    ]
    assert len(ids) == 11 and not missing, missing


def test_gofish_know_1_search_samples_keep_what_the_asks_made_public() -> None:
    """A search agent's sample reads the table's asked words back as masks, and each seat
    holds a card of every rank it asked for and still holds (it was blank in every sample)."""
    import random

    from cardcore.search import sample_position

    checked = 0
    for seed in range(6):
        game = cardcore.new_game("gofish", 3, seed=seed)
        rng = random.Random(seed)
        for _ in range(30):
            if game.is_over:
                break
            seat = game.to_act[0]
            for k in range(3):
                try:
                    world = cardcore.new_game(
                        "gofish",
                        3,
                        position=sample_position(game.view(seat), random.Random(k)),
                        seed=1,
                    )
                except cardcore.OptionError:  # a sampled hand holding a whole book: drawn again
                    continue
                assert world.state.asked == game.state.asked
                checked += sum(map(bool, world.state.asked))
            game.apply(rng.choice(game.legal_actions(seat)))
    assert checked > 50
