"""Cheat written from cardcore's docs by a first-time plugin author (2026-12-14).

The game (``tests/plugins/cheat_2026_12_14.py``) and its house rule
(``tests/plugins/cheat_rules_2026_12_14.py``, ``max_cards`` through the game's own hookspec)
are registered in place with ``cardcore.register`` (docs/plugin-guide/entry-points.rst,
"Without installing"). One test per rule ID, the conformance kit, hidden information over
views, events, errors, legal text, RL observations and session messages, replay, clone, and
the house rule with its option.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import cardcore
from cardcore import IllegalActionError, NotationError, OptionError, decks
from cardcore.testing import assert_conserved, assert_view_known, check_game, configurations
from tests.plugins import cheat_2026_12_14 as ch
from tests.plugins import cheat_rules_2026_12_14 as house

NAME, MAXC = ch.NAME, house.NAME
CARD_WORD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([SHDC])(?![A-Za-z0-9])")


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, ch)
    cardcore.register("cardcore.rules", MAXC, house)
    yield
    cardcore.unregister("cardcore.rules", MAXC)
    cardcore.unregister("cardcore.games", NAME)


def cards_in(text: Any) -> set[str]:
    """Every card word in *text* (JSON-dumped if not a string)."""
    if not isinstance(text, str):
        text = json.dumps(text)
    return {a + b for a, b in CARD_WORD.findall(text)}


def stacked(players: int, hands: dict[int, list[str]]) -> list[str]:
    """A deck (top first) dealing each seat of *hands* the given cards first (dealt in order,
    so the first listed ends at the bottom of the hand); the rest fill in."""
    rest = [str(c) for c in decks(1)]
    for cards in hands.values():
        for c in cards:
            rest.remove(c)
    queues = {s: list(hands.get(s, [])) for s in range(players)}
    out = []
    for i in range(52):
        q = queues[i % players]
        out.append(q.pop(0) if q else rest.pop(0))
    return out


def new(players: int = 3, hands: dict[int, list[str]] | None = None, **kw: Any) -> cardcore.Game:
    return cardcore.new_game(NAME, players, deck=stacked(players, hands or {}), seed=11, **kw)


def pos_of(game: cardcore.Game, seat: int, card: str) -> int:
    return ch.hand_of(game, seat).index(card)


def lay(game: cardcore.Game, seat: int, *cards: str, claim: bool = True) -> None:
    for c in cards:
        game.act(seat, f"lay {pos_of(game, seat, c)}")
    if claim and game.state.phase == "play":
        game.act(seat, "claim")


def frozen(game: cardcore.Game) -> tuple[Any, ...]:
    return game.position(), game.version, json.dumps(game.record(), sort_keys=True)


# --- the conformance kit -----------------------------------------------------------------


@pytest.mark.parametrize(("players", "rules"), [(3, []), (5, [MAXC])])
def test_conformance_kit(players, rules):
    report = check_game(
        NAME, players=players, rules=rules, games=3, seed=0, options={"max_turns": 25}
    )
    assert report.cards_lost == 0 and report.leaks == 0 and report.failed == 0
    assert not report.skipped and report.twins > 0 and report.positions > 0


def test_kit_configurations_include_the_house_rule():
    found = list(configurations(NAME))
    assert any(MAXC in tuple(getattr(c, "rules", ()) or ()) for c in found), found


# --- rules, one test per ID --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 6])
def test_cheat_seat_1_three_to_five(players):
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, players, seed=1)


@pytest.mark.parametrize(
    ("players", "sizes"), [(3, [18, 17, 17]), (4, [13] * 4), (5, [11, 11, 10, 10, 10])]
)
def test_cheat_deal_1_whole_deck_dealt(players, sizes):
    game = cardcore.new_game(NAME, players, seed=3)
    assert [len(ch.hand_of(game, s)) for s in range(players)] == sizes
    assert ch.centre_of(game) == [] and game.to_act == (0,)
    assert_conserved(game)


def test_cheat_deal_1_stacked_deck_goes_round_from_seat_0():
    game = new(3, {0: ["AS", "AH"], 1: ["KD"]})
    assert ch.hand_of(game, 0)[-2:] == ["AH", "AS"]  # dealt first, so at the bottom
    assert ch.hand_of(game, 1)[-1] == "KD"


def test_cheat_rank_1_rank_goes_up_and_wraps():
    game = cardcore.new_game(NAME, 3, seed=2)
    seen = []
    for _ in range(14):
        seat = game.to_act[0]
        seen.append(game.view(seat)["table"]["rank"])
        game.act(seat, "lay 0")
        game.act(seat, "claim")
        for other in list(game.to_act):
            game.act(other, "pass")
    assert seen == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def test_cheat_play_1_legal_actions_and_claim_needs_a_card():
    game = new()
    legal = game.view(0)["legal"]
    assert legal == [f"lay {p}" for p in range(18)]
    with pytest.raises(IllegalActionError, match=r"\(CHEAT-PLAY-1\)$"):
        game.act(0, "claim")
    with pytest.raises(IllegalActionError, match=r"\(CHEAT-PLAY-1\)$"):
        game.act(0, "lay 18")
    game.act(0, "lay 3")
    assert game.view(0)["legal"][-1] == "claim" and len(game.view(0)["legal"]) == 18


def test_cheat_play_1_fourth_card_claims_at_once():
    game = new()
    for _ in range(4):
        game.act(0, "lay 0")
    assert game.state.phase == "doubt" and game.to_act == (1, 2)
    assert game.view(1)["table"]["laid"] == 4


def test_cheat_play_1_wrong_phase_and_turn_refused():
    game = new()
    with pytest.raises(IllegalActionError, match=r"\(CHEAT-PLAY-1\)$"):
        game.act(0, "doubt")
    with pytest.raises(IllegalActionError, match=r"\(CORE-TURN-1\)$"):
        game.act(1, "lay 0")
    with pytest.raises(NotationError):
        game.act(0, "lay two")


def test_cheat_doubt_1_claimer_and_passed_seat_wait():
    game = new()
    game.act(0, "lay 0")
    game.act(0, "claim")
    with pytest.raises(IllegalActionError, match=r"\(CHEAT-DOUBT-1\)$"):
        game.act(0, "doubt")
    game.act(2, "pass")  # seats answer in any order
    before = frozen(game)
    with pytest.raises(IllegalActionError, match=r"\(CHEAT-DOUBT-1\)$"):
        game.act(2, "doubt")
    assert frozen(game) == before
    assert game.to_act == (1,) and game.view(1)["table"]["passed"] == [False, False, True]


def test_cheat_doubt_1_all_pass_next_turn():
    game = new()
    lay(game, 0, ch.hand_of(game, 0)[0])
    game.act(1, "pass")
    game.act(2, "pass")
    table = game.view(1)["table"]
    assert game.to_act == (1,) and table["rank"] == "2" and table["pile_count"] == 1


def test_cheat_doubt_2_lie_caught_liar_takes_the_pile():
    game = new(3, {0: ["AS", "KH"], 1: ["2C"]})
    lay(game, 0, "AS")  # honest ace
    game.act(1, "pass")
    game.act(2, "pass")
    lay(game, 1, "2C")  # honest two
    game.act(0, "pass")
    game.act(2, "pass")
    before = len(ch.hand_of(game, 2))
    liar = next(c for c in ch.hand_of(game, 2) if not c.startswith("3"))
    lay(game, 2, liar)  # claims a 3: a lie
    game.act(0, "doubt")
    assert len(ch.hand_of(game, 2)) == before + 2
    assert {"AS", "2C", liar} <= set(ch.hand_of(game, 2))
    assert ch.centre_of(game) == []
    assert game.view(1)["table"]["revealed"] == [liar]
    assert game.to_act == (0,) and game.view(0)["table"]["rank"] == "4"


def test_cheat_doubt_2_honest_claim_doubter_takes_the_pile():
    game = new(3, {0: ["AS", "AH"]})
    lay(game, 0, "AS", "AH")
    before = len(ch.hand_of(game, 2))
    game.act(2, "doubt")
    assert len(ch.hand_of(game, 2)) == before + 2 and {"AS", "AH"} <= set(ch.hand_of(game, 2))
    assert sorted(game.view(1)["table"]["revealed"]) == ["AH", "AS"]
    assert game.to_act == (1,)


def _near_empty(seat0: list[str], rank: int = 0) -> cardcore.Game:
    """Seat 0 holding only *seat0*, to play rank *rank*; the rest split between seats 1, 2."""
    rest = [str(c) for c in decks(1) if str(c) not in seat0]
    pos = (
        f'{NAME} to_act=[0] phase="play" turn=0 rank={rank} laid=0 passed=[false,false,false]'
        f" turns=0 revealed=[] | centre: | hand.0: {' '.join(seat0)}"
        f" | hand.1: {' '.join(rest[:24])} | hand.2: {' '.join(rest[24:])}"
    )
    return cardcore.new_game(NAME, 3, position=pos, seed=4)


def test_cheat_win_1_empty_hand_after_all_pass_wins():
    game = _near_empty(["5D"])
    game.act(0, "lay 0")  # the last card claims at once (lie: 5 for A)
    assert not game.is_over and game.state.phase == "doubt"
    game.act(1, "pass")
    game.act(2, "pass")
    assert game.is_over and game.result.winners == (0,)


def test_cheat_win_1_honest_last_card_survives_a_doubt():
    game = _near_empty(["AD"])
    game.act(0, "lay 0")
    game.act(1, "doubt")
    assert game.is_over and game.result.winners == (0,)
    assert game.result.scores[1] == 25


def test_cheat_win_1_lie_caught_on_last_card_goes_on():
    game = _near_empty(["5D"])
    game.act(0, "lay 0")
    game.act(2, "doubt")
    assert not game.is_over and ch.hand_of(game, 0) == ["5D"] and game.to_act == (1,)


def test_cheat_cap_1_fewest_cards_win():
    game = cardcore.new_game(NAME, 3, seed=5, options={"max_turns": 2})
    for _ in range(2):
        seat = game.to_act[0]
        for _ in range(3):
            game.act(seat, "lay 0")
        game.act(seat, "claim")
        for other in list(game.to_act):
            game.act(other, "pass")
    assert game.is_over and game.result.reason == "turn cap"
    assert game.result.scores == (15.0, 14.0, 17.0) and game.result.winners == (1,)


@pytest.mark.parametrize("bad", [0, 5001, "10", 2.5, None])
def test_cheat_cap_1_bad_max_turns_refused(bad):
    with pytest.raises(OptionError, match="max_turns"):
        cardcore.new_game(NAME, 3, options={"max_turns": bad})


def test_cheat_cap_1_action_bound_follows_the_option():
    game = cardcore.new_game(NAME, 4, seed=1, options={"max_turns": 10})
    assert game.logic.action_bound(4, game.options) >= 10 * 9


# --- hidden information (CHEAT-KNOW-1) ---------------------------------------------------


def _stream(game: cardcore.Game, seat: int | None) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    game.events.subscribe(cardcore.Event, lambda e: got.append(e.to_json()), seat=seat)
    return got


def test_cheat_know_1_laid_cards_hidden_everywhere():
    game = new(3, {0: ["AS", "7H"]})
    streams = {s: _stream(game, s) for s in (0, 1, 2, cardcore.SPECTATOR)}
    lay(game, 0, "AS", "7H")
    for seat in (1, 2, None):
        view = game.view(seat)
        assert not {"AS", "7H"} & cards_in(view), seat
        assert_view_known(game, seat) if seat is not None else None
    for seat in (1, 2, cardcore.SPECTATOR):
        assert not {"AS", "7H"} & cards_in(streams[seat]), seat
    assert {"AS", "7H"} <= cards_in(streams[0])  # the layer sees its own cards move
    assert game.view(0)["zones"][0]["cards"].count(None) == 0  # and knows them in the centre
    assert game.view(1)["zones"][0]["cards"] == [None, None]
    assert not cards_in(game.view(1)["legal"]) and not cards_in(game.record()["actions"])
    with pytest.raises(IllegalActionError) as err:
        game.act(0, "lay 0")
    assert not cards_in(str(err.value))


def test_cheat_know_1_taken_pile_only_revealed_cards_public():
    game = new(3, {0: ["AS", "9C"], 1: ["2C", "8D"]})
    lay(game, 0, "AS", "9C")  # a lie among honest: 9C is not an ace
    game.act(1, "pass")
    game.act(2, "pass")
    watch = _stream(game, 2)
    lay(game, 1, "8D")  # a lie
    game.act(0, "doubt")
    # seat 1 takes AS 9C (unrevealed) and 8D (revealed)
    assert {"AS", "9C", "8D"} <= set(ch.hand_of(game, 1))
    assert "8D" in cards_in(watch) and not {"AS", "9C"} & cards_in(watch)
    assert not {"AS", "9C"} & cards_in(game.view(2))
    assert game.view(2)["table"]["revealed"] == ["8D"]
    # seat 0 laid AS and 9C: its stream may name them, and its view shows no hand.1 card
    assert game.view(0)["zones"][2]["cards"].count(None) == len(ch.hand_of(game, 1))
    # (assert_view_known would object to the table's `revealed` 8D: it counts only where a
    # card lies now, and the shuffle made its place unknown; check_views accepts it.)


def test_cheat_know_1_positions_of_taken_cards_are_shuffled():
    """After taking the pile the taker's hand is shuffled: the revealed card's position is
    known to nobody but the taker, so `lay p` names no known card."""
    game = new(3, {1: ["8D"]})
    lay(game, 0, ch.hand_of(game, 0)[0])
    game.act(1, "pass")
    game.act(2, "pass")
    lay(game, 1, "8D")
    game.act(0, "doubt")
    z = game.state.zones
    h = z.id("hand.1")
    assert all(not z.knows(h, i, 0) and not z.knows(h, i, 2) for i in range(z.count(h)))


def test_cheat_know_1_rl_observation_same_in_determinized_twin():
    from cardcore.rl import observe

    game = new(3, {0: ["AS", "7H"]})
    lay(game, 0, "AS", "7H")
    for seat in (1, 2):
        twin = game.determinize(seat, 99)
        assert ch.hand_of(twin, 0) != ch.hand_of(game, 0) or ch.centre_of(twin) != ch.centre_of(
            game
        )
        a, b = observe(game, seat), observe(twin, seat)
        assert (a["observation"] == b["observation"]).all() and (
            a["action_mask"] == b["action_mask"]
        ).all()


def test_cheat_know_1_session_messages_hide_laid_cards():
    from cardcore.session import Session

    deck = stacked(3, {0: ["AS", "7H"]})
    session = Session.create(NAME, ["Ann", "Bob", "Cy"], now=0.0, seed=5, deck=deck)
    out = []
    for i, conn in enumerate(("ann", "bob", "cy")):
        out += session.handle(conn, json.dumps({"type": "join", "seat": i}), now=1.0 + i)
    version = session.game.version
    hand0 = ch.hand_of(session.game, 0)
    for card in ("AS", "7H"):
        msg = {"type": "act", "action": f"lay {hand0.index(card)}", "seen": version}
        out += session.handle("ann", json.dumps(msg), now=5.0)
        version = session.game.version
        hand0 = ch.hand_of(session.game, 0)
    out += session.handle(
        "ann", json.dumps({"type": "act", "action": "claim", "seen": version}), now=6.0
    )
    assert session.game.state.phase == "doubt"
    # a welcome's session id and token are random text that may spell a card: not read
    others = [
        {k: v for k, v in o.message.items() if k not in ("session", "token")}
        for o in out
        if o.conn in ("bob", "cy")
    ]
    assert others and not {"AS", "7H"} & cards_in(others)
    mine = [o.message for o in out if o.conn == "ann"]
    assert {"AS", "7H"} <= cards_in(mine)


# --- replay, clone, positions -------------------------------------------------------------


def _played(seed: int = 8, **kw: Any) -> cardcore.Game:
    game = cardcore.new_game(NAME, 4, seed=seed, options={"max_turns": 40}, **kw)
    cardcore.play(game, [cardcore.RandomAgent(seed + i) for i in range(4)])
    return game


def test_replay_of_record_rebuilds_the_game():
    game = _played()
    again = cardcore.replay(json.loads(json.dumps(game.record())))
    assert again.position() == game.position() and again.result == game.result
    loaded = cardcore.load(json.dumps(game.save()))
    assert loaded.position() == game.position()


def test_clone_is_independent():
    game = new()
    twin = game.clone()
    twin.act(0, "lay 0")
    assert game.version == 0 and twin.version == 1
    assert len(ch.hand_of(game, 0)) == 18 and len(ch.hand_of(twin, 0)) == 17


def test_position_round_trip_and_refusal():
    game = new()
    lay(game, 0, ch.hand_of(game, 0)[0])
    again = cardcore.new_game(NAME, 3, position=game.position(), seed=1)
    strip = lambda v: {k: x for k, x in v.items() if k != "version"}  # noqa: E731
    assert strip(again.view(1)) == strip(game.view(1)) and again.to_act == (1, 2)
    bad = game.position().replace('phase="doubt"', 'phase="bid"')
    with pytest.raises(OptionError, match="phase"):
        cardcore.new_game(NAME, 3, position=bad, seed=1)


# --- the house rule: max_cards (CHEATMAX-1) ----------------------------------------------


def test_cheatmax_1_one_card_claims_at_once():
    game = new(rules=[MAXC], options={"max_cards": 1})
    assert game.options["max_cards"] == 1 and game.record()["options"]["max_cards"] == 1
    assert game.view(2)["options"]["max_cards"] == 1
    game.act(0, "lay 5")
    assert game.state.phase == "doubt" and game.view(1)["table"]["laid"] == 1


def test_cheatmax_1_default_is_two():
    game = new(rules=[MAXC])
    game.act(0, "lay 0")
    assert game.view(0)["legal"][-1] == "claim"
    game.act(0, "lay 0")
    assert game.state.phase == "doubt"


def test_cheatmax_1_without_the_rule_four_cards():
    game = new()
    for _ in range(3):
        game.act(0, "lay 0")
    assert game.state.phase == "play"


@pytest.mark.parametrize("bad", [0, 5, -1, "2", 2.5, None])
def test_cheatmax_1_bad_values_refused(bad):
    with pytest.raises(OptionError, match="max_cards") as err:
        new(rules=[MAXC], options={"max_cards": bad})
    assert str(err.value).endswith("(CHEATMAX-1)")


def test_cheatmax_1_bool_value_refused():
    with pytest.raises(OptionError, match="max_cards"):
        new(rules=[MAXC], options={"max_cards": True})


def test_cheatmax_1_option_without_rule_refused_naming_it():
    with pytest.raises(OptionError, match=re.escape(MAXC)):
        new(options={"max_cards": 2})


def test_cheatmax_1_rule_by_id_and_listing():
    game = new(rules=["CHEATMAX-1"], options={"max_cards": 3})
    assert game.rules == (MAXC,)
    info = cardcore.rule_info(MAXC)
    assert [o.name for o in info.options] == ["max_cards"]


def test_cheatmax_1_random_games_never_lay_more_than_the_cap():
    game = cardcore.new_game(
        NAME, 3, rules=[MAXC], options={"max_cards": 3, "max_turns": 30}, seed=4
    )
    laid = []

    def watch(g: cardcore.Game, action: Any) -> None:
        laid.append(g.state.laid)

    cardcore.play(game, [cardcore.RandomAgent(i) for i in range(3)], on_action=watch)
    assert max(laid) == 3 and game.is_over
