"""Durak as a third-party plugin registered in place, tested as the plugin guide says.

One test per rule ID of ``RULES_MD`` (``DURAK-BEAT-1`` -> ``test_durak_beat_1_...``)
from stacked decks or positions, the conformance kit, whole games with the built-in
agents, hidden information, save/load, positions, replay, the CLI through
``cardcore.cli.main``, the AEC environment and a session.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import CardDrawn, Event, IllegalActionError, NotationError, OptionError
from cardcore.testing import check_game, configurations
from tests.plugins import durak_2026_12_17 as durak

NAME = "durak"
CARD_WORD = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")


@pytest.fixture
def game_registered() -> Iterator[None]:
    cardcore.register("cardcore.games", NAME, durak)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.games", NAME)


pytestmark = pytest.mark.usefixtures("game_registered")


def all_cards(size: int = 36) -> list[str]:
    return [str(c) for c in durak.build_deck(2, {"deck": size})]


def stacked(
    hands: list[list[str]], stock: list[str] = (), trump: str = "6S", size: int = 36
) -> str:  # type: ignore[assignment]
    """A deck, top first: the hands dealt one card at a time, then *stock* from its top, the
    cards not named, and the trump card last (the bottom of the stock)."""
    dealt = [hands[s][k] for k in range(6) for s in range(len(hands))]
    named = [*dealt, *stock, trump]
    assert len(set(named)) == len(named)
    rest = [c for c in all_cards(size) if c not in named]
    return " ".join([*dealt, *stock, *rest, trump])


def position(
    hands: list[list[str]],
    stock: list[str] = (),  # type: ignore[assignment]
    trump: str = "6S",
    attacker: int = 0,
    defender: int = 1,
) -> str:
    """A position before a lead; *stock* bottom first; every other card discarded (seen by all)."""
    players = len(hands)
    held = [c for h in hands for c in h] + list(stock)
    discard = [c for c in all_cards() if c not in held]
    fields = (
        f"durak to_act=[{attacker}] attacker={attacker} defender={defender} taken=false "
        f"passed={json.dumps([False] * players)} covered=[-1,-1,-1,-1,-1,-1] "
        f'trump="{trump[-1]}" trump_card="{trump}"'
    ).replace(", ", ",")
    marks = ["!" if c == trump else "" for c in stock]
    piles = [
        "stock: " + " ".join(c + m for c, m in zip(stock, marks, strict=True)),
        "discard: " + " ".join(c + "!" for c in discard),
        "attacks: ",
        "defences: ",
        *[f"hand.{s}: " + " ".join(f"{c}@{s}" for c in hands[s]) for s in range(players)],
    ]
    return " | ".join([fields, *[p.rstrip() for p in piles]])


H3 = [
    ["7H", "7C", "9S", "QD", "KD", "AC"],
    ["8H", "10H", "JS", "QC", "6D", "9D"],
    ["7S", "8C", "JH", "KH", "6C", "10C"],
]


def three(**kwargs: Any) -> cardcore.Game:
    return cardcore.new_game(NAME, 3, deck=stacked(H3, ["AH", "AS", "AD", "KS"]), seed=1, **kwargs)


def hand_of(game: cardcore.Game, seat: int) -> list[str]:
    zone = next(z for z in game.view(seat)["zones"] if z["name"] == f"hand.{seat}")
    return sorted(zone["cards"])


# -- one test per rule ID --------------------------------------------------------------


def test_durak_seat_1_two_to_four_players() -> None:
    for players in (2, 3, 4):
        assert len(cardcore.new_game(NAME, players, seed=1).players) == players
    for players in (1, 5):
        with pytest.raises(OptionError, match="CORE-SEAT-2"):
            cardcore.new_game(NAME, players, seed=1)


def test_durak_deck_1_deck_sizes_and_ace_high() -> None:
    assert (
        len(cardcore.new_game(NAME, 2, seed=1).logic.deck(2, {"deck": 36, "max_attacks": 6})) == 36
    )
    game = cardcore.new_game(NAME, 4, options={"deck": 52}, seed=1)
    assert len(game.logic.deck(4, game.options)) == 52 and game.view(None)["table"]["stock"] == 28
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, 2, options={"deck": 40}, seed=1)
    hands = [["KD", "7C", "8C", "9C", "10C", "JC"], ["AD", "6D", "7D", "8D", "9D", "10D"]]
    game = cardcore.new_game(NAME, 2, deck=stacked(hands), seed=1)
    game.act(0, "attack KD")
    assert "beat KD AD" in game.view(1)["legal"]  # the ace beats the king
    game.act(1, "beat KD AD")
    assert game.view(1)["table"]["pairs"] == [["KD", "AD"]]


def test_durak_deal_1_six_each_trump_turned_at_the_bottom() -> None:
    game = three()
    for seat in range(3):
        assert hand_of(game, seat) == sorted(H3[seat])
    for seat in (0, 1, 2, None):
        view = game.view(seat)
        stock = next(z for z in view["zones"] if z["name"] == "stock")
        assert stock["cards"][-1] == "6S" and stock["cards"][:-1] == [None] * 17  # top first
        assert view["table"]["trump"] == "S" and view["table"]["trump_card"] == "6S"


def test_durak_lead_1_only_the_attacker_leads() -> None:
    game = three()
    assert game.to_act == (0,)
    assert game.legal_actions(1) == () and game.legal_actions(2) == ()
    with pytest.raises(IllegalActionError, match=r"DURAK-LEAD-1\)$"):
        game.act(2, "attack 7S")
    with pytest.raises(IllegalActionError, match=r"DURAK-LEAD-1\)$"):
        game.act(0, "pass")
    with pytest.raises(IllegalActionError, match=r"DURAK-LEAD-1\)$"):
        game.act(0, "attack 8H")  # not in seat 0's hand
    game.act(0, "attack QD")  # any card leads
    assert game.view(0)["table"]["pairs"] == [["QD", None]]


def test_durak_beat_1_higher_of_the_suit_or_any_trump() -> None:
    game = three()
    game.act(0, "attack 7H")
    game.act(2, "attack 7S")
    game.act(0, "attack 7C")
    for bad in ("beat 7C 6D", "beat 7S 8H", "beat 7H 6D", "beat 8H 10H"):
        with pytest.raises(IllegalActionError, match=r"DURAK-BEAT-1\)$"):
            game.act(1, bad)
    with pytest.raises(IllegalActionError, match=r"DURAK-BEAT-1\)$"):
        game.act(0, "beat 7H 9S")  # only the defender beats
    legal = game.view(1)["legal"]
    assert {
        "beat 7H 8H",
        "beat 7H 10H",
        "beat 7H JS",
        "beat 7S JS",
        "beat 7C QC",
        "beat 7C JS",
    } <= set(legal)
    assert legal[-1] == "take"
    game = three()
    game.act(0, "attack QD")
    with pytest.raises(IllegalActionError, match=r"DURAK-BEAT-1\)$"):
        game.act(1, "beat QD 9D")  # lower card of the suit


def test_durak_throw_1_ranks_on_the_table_by_any_attacker() -> None:
    game = three()
    game.act(0, "attack 7H")
    assert game.view(2)["legal"] == ["attack 7S", "pass"]
    with pytest.raises(IllegalActionError, match=r"DURAK-THROW-1\)$"):
        game.act(2, "attack 8C")  # no 8 on the table yet
    with pytest.raises(IllegalActionError, match=r"DURAK-THROW-1\)$"):
        game.act(1, "attack 8H")  # the defender does not attack
    game.act(1, "beat 7H 8H")
    assert "attack 8C" in game.view(2)["legal"]  # the defence card's rank is on the table
    game.act(2, "attack 8C")


def test_durak_throw_2_at_most_max_attacks_and_the_defenders_hand() -> None:
    game = three(options={"max_attacks": 2})
    game.act(0, "attack 7H")
    game.act(2, "attack 7S")
    assert game.to_act == (1,)  # no room: only the defender acts
    with pytest.raises(IllegalActionError, match=r"DURAK-THROW-2\)$"):
        game.act(0, "attack 7C")
    for bad in (0, 7):
        with pytest.raises(OptionError):
            cardcore.new_game(NAME, 3, options={"max_attacks": bad}, seed=1)
    game = cardcore.new_game(NAME, 2, position=position([["7H", "7C"], ["8H"]]), seed=1)
    game.act(0, "attack 7H")
    assert game.to_act == (1,) and game.legal_actions(0) == ()
    with pytest.raises(IllegalActionError, match=r"DURAK-THROW-2\)$"):
        game.act(0, "attack 7C")  # the defender holds one card: one unbeaten attack


def test_durak_turn_1_simultaneous_bout_in_any_order() -> None:
    game = three()
    game.act(0, "attack 7H")
    assert game.to_act == (0, 1, 2)  # several seats at once in a turn-based game
    game.act(2, "attack 7S")  # the last seat first
    game.act(0, "attack 7C")
    game.act(2, "pass")
    assert game.to_act == (0, 1)
    with pytest.raises(IllegalActionError, match=r"DURAK-TURN-1\)$") as info:
        game.act(2, "pass")  # passed: waits, by the game's own rule
    assert info.value.rule_id == "DURAK-TURN-1"
    with pytest.raises(IllegalActionError, match=r"DURAK-TURN-1\)$"):
        game.act(1, "pass")  # the defender beats or takes
    game.act(1, "beat 7H 8H")
    assert game.to_act == (0, 1, 2)  # the beat cancels the passes


def test_durak_take_1_defender_takes_attackers_may_still_throw() -> None:
    game = three()
    game.act(0, "attack 7H")
    game.act(1, "take")
    assert game.to_act == (0, 2)
    with pytest.raises(IllegalActionError, match=r"DURAK-TAKE-1\)$"):
        game.act(1, "beat 7H 8H")
    with pytest.raises(IllegalActionError, match=r"DURAK-TAKE-1\)$"):
        game.act(2, "take")
    game.act(2, "attack 7S")
    game.act(0, "pass")
    game.act(2, "pass")
    assert hand_of(game, 1) == sorted([*H3[1], "7H", "7S"])
    hand1 = game.position().split("| hand.1: ")[1].split(" |")[0].split()
    assert {"7H!", "7S!"} <= set(hand1)  # the taken cards stay known to all (DURAK-KNOW-1)


def test_durak_bito_1_beaten_table_is_discarded() -> None:
    game = three()
    game.act(0, "attack 7H")
    game.act(1, "beat 7H 8H")
    game.act(0, "pass")
    assert game.view(None)["table"]["pairs"] == [["7H", "8H"]]  # seat 2 has not passed yet
    game.act(2, "pass")
    view = game.view(None)
    discard = next(z for z in view["zones"] if z["name"] == "discard")
    assert sorted(discard["cards"]) == ["7H", "8H"] and view["table"]["pairs"] == []


def test_durak_draw_1_attacker_first_defender_last() -> None:
    game = three()
    drawn: list[tuple[int, str]] = []
    game.events.subscribe(CardDrawn, lambda e: drawn.append((e.seat, str(e.card))))
    game.act(0, "attack 7H")
    game.act(2, "attack 7S")
    game.act(1, "beat 7H 8H")
    game.act(1, "beat 7S JS")
    game.act(0, "pass")
    game.act(2, "pass")
    assert drawn == [(0, "AH"), (2, "AS"), (1, "AD"), (1, "KS")]
    for seat in range(3):
        assert len(hand_of(game, seat)) == 6


def test_durak_draw_1_the_trump_card_is_drawn_last_and_stays_public() -> None:
    game = cardcore.new_game(
        NAME, 2, position=position([["7H"], ["8H", "QD"]], stock=["6S", "9C"]), seed=1
    )
    public: list[dict[str, Any]] = []
    game.events.subscribe(CardDrawn, lambda e: public.append(e.to_json()), seat=cardcore.SPECTATOR)
    game.act(0, "attack 7H")
    game.act(1, "beat 7H 8H")
    assert [(e["seat"], e["card"]) for e in public] == [(0, None), (0, "6S")]
    assert hand_of(game, 0) == ["6S", "9C"]


def test_durak_next_1_after_bito_the_defender_attacks() -> None:
    game = three()
    game.act(0, "attack 7H")
    game.act(1, "beat 7H 8H")
    game.act(0, "pass")
    game.act(2, "pass")
    table = game.view(None)["table"]
    assert (table["attacker"], table["defender"], game.to_act) == (1, 2, (1,))


def test_durak_next_1_after_a_take_the_next_seat_attacks() -> None:
    game = three()
    game.act(0, "attack 7H")
    game.act(1, "take")
    game.act(0, "pass")
    game.act(2, "pass")
    table = game.view(None)["table"]
    assert (table["attacker"], table["defender"], game.to_act) == (2, 0, (2,))


def test_durak_out_1_a_player_leaves_mid_game() -> None:
    game = cardcore.new_game(
        NAME, 3, position=position([["7H"], ["8H", "9C"], ["10D", "JD"]]), seed=1
    )
    game.act(0, "attack 7H")
    assert game.to_act == (1, 2)  # seat 0 holds nothing to throw in
    game.act(2, "pass")
    game.act(1, "beat 7H 8H")
    game.act(2, "pass")
    assert not game.is_over and game.to_act == (1,)
    assert game.legal_actions(0) == ()
    with pytest.raises(IllegalActionError, match=r"DURAK-OUT-1\)$"):
        game.act(0, "pass")
    table = game.view(None)["table"]
    assert (table["attacker"], table["defender"]) == (1, 2)  # seat 0 is skipped
    game.act(1, "attack 9C")
    assert game.to_act == (2,) and game.view(2)["legal"] == ["take"]
    game.act(2, "take")
    assert game.result.winners == (0, 1) and game.result.scores == (0, 0, -1)
    assert game.result.reason == "fool"


def test_durak_end_1_the_last_holder_is_the_fool() -> None:
    game = cardcore.new_game(NAME, 2, position=position([["7H"], ["8H", "9C"]]), seed=1)
    game.act(0, "attack 7H")
    game.act(1, "beat 7H 8H")
    assert game.is_over and game.result.winners == (0,) and game.result.scores == (0, -1)


def test_durak_end_1_two_players_out_at_once_is_a_draw() -> None:
    game = cardcore.new_game(
        NAME, 3, position=position([["7H"], ["8H"], []], attacker=0, defender=1), seed=1
    )
    game.act(0, "attack 7H")
    game.act(1, "beat 7H 8H")
    assert game.is_over and game.result.reason == "draw"
    assert game.result.winners == (0, 1, 2) and game.result.scores == (0, 0, 0)


def test_durak_know_1_hands_and_stock_never_leak() -> None:
    game = cardcore.new_game(NAME, 3, seed=11)
    deck = set(all_cards())
    streams: dict[Any, list[str]] = {s: [] for s in (0, 1, 2, cardcore.SPECTATOR)}
    for s in streams:
        game.events.subscribe(
            Event, lambda e, s=s: streams[s].append(json.dumps(e.to_json())), seat=s
        )
    public = {game.view(None)["table"]["trump_card"]}
    held: dict[int, set[str]] = {s: set(hand_of(game, s)) for s in range(3)}
    rng = random.Random(3)
    while not game.is_over:
        for seat in (0, 1, 2, None):
            known = public | (held[seat] if seat is not None else set())
            key = cardcore.SPECTATOR if seat is None else seat
            text = json.dumps(game.view(seat)) + "".join(streams[key])
            leaked = set(CARD_WORD.findall(text)) & (deck - known)
            assert not leaked, (seat, game.version, leaked)
            if seat is not None and seat not in game.to_act:
                with pytest.raises(IllegalActionError) as info:
                    game.act(seat, "take")
                assert not set(CARD_WORD.findall(str(info.value))) & (deck - known)
        seat = game.to_act[0]
        action = rng.choice(game.legal_actions(seat))
        game.apply(action)
        for pile in game.view(None)["zones"]:
            if pile["name"] in ("attacks", "defences"):
                public |= {c for c in pile["cards"] if c}
        for s in range(3):
            held[s] |= set(hand_of(game, s))
        streams = {k: [] for k in streams}  # checked; keep the next action's events only
    assert game.view(None)["table"]["trump_card"] in json.dumps(game.view(None))


def test_durak_note_1_notation_reads_back() -> None:
    game = three()
    assert str(game.act(0, "  ATTACK   7h ")) == "attack 7H"
    assert str(game.act(1, "beat 7h 8H")) == "beat 7H 8H"
    with pytest.raises(NotationError, match=r"CORE-NOTATION-1\)$"):
        game.act(2, "attack")
    with pytest.raises(NotationError, match=r"CORE-NOTATION-2\)$"):
        game.act(2, "attack 1H")


def test_every_rule_id_has_a_test() -> None:
    ids = re.findall(r"^\| (DURAK-[A-Z]+-\d+) \|", durak.RULES_MD, re.M)
    names = {n for n in globals() if n.startswith("test_")}
    assert len(ids) == 16
    for rule in ids:
        prefix = "test_" + rule.lower().replace("-", "_") + "_"
        assert any(n.startswith(prefix) for n in names), rule


# -- the conformance kit, agents, persistence -------------------------------------------


def test_conformance_kit_on_chosen_configurations() -> None:
    configs = list(configurations(NAME))
    assert {c.kwargs()["players"] for c in configs} == {2, 4}
    assert {"deck": 52} in [c.kwargs()["options"] for c in configs]
    for config in configs:
        report = check_game(config.game, games=1, seed=5, **config.kwargs())
        assert report.ok and report.cards_lost == 0 and report.leaks == 0 and not report.skipped


def test_conformance_kit_three_seats_one_attack_per_bout() -> None:
    report = check_game(NAME, players=3, options={"max_attacks": 1}, games=1, seed=2)
    assert report.ok and report.truncated == 0


def test_whole_games_with_random_and_ismcts() -> None:
    for players in (2, 3, 4):
        game = cardcore.new_game(NAME, players, seed=40 + players)
        result = cardcore.play(game, [cardcore.RandomAgent(seed=s) for s in range(players)])
        assert game.is_over and result.reason in ("fool", "draw")
        assert len(result.winners) >= players - 1
    ismcts = cardcore.load_agent("ismcts")(seed=1, iterations=8)
    game = cardcore.new_game(NAME, 2, seed=3)
    result = cardcore.play(game, [ismcts, cardcore.RandomAgent(seed=2)])
    assert game.is_over and result.reason in ("fool", "draw")


def test_save_load_replay_and_position_round_trip() -> None:
    game = cardcore.new_game(NAME, 3, seed=9)
    rng = random.Random(9)
    for _ in range(25):
        game.apply(rng.choice(game.legal_actions(game.to_act[-1])))
    loaded = cardcore.load(json.dumps(game.save()))
    replayed = cardcore.replay(game.record())
    again = cardcore.new_game(NAME, 3, position=game.position(), seed=1)
    for seat in (0, 1, 2, None):
        view = game.view(seat)
        assert loaded.view(seat) == view and replayed.view(seat) == view
        assert {**again.view(seat), "version": 0} == {**view, "version": 0}
    assert again.to_act == game.to_act and len(game.to_act) >= 1


def test_cli_simulate_and_rules_through_main(capsys: pytest.CaptureFixture[str]) -> None:
    from cardcore import cli

    assert (
        cli.main(
            ["simulate", NAME, "--players", "3", "--games", "3", "--quiet", "--json", os.devnull]
        )
        == 0
    )
    capsys.readouterr()
    assert cli.main(["rules", NAME, "DURAK-TAKE-1"]) == 0
    out = capsys.readouterr().out
    assert "DURAK-TAKE-1" in out and "DURAK-BEAT-1" not in out


def test_aec_env_selects_only_seats_that_may_act() -> None:
    from cardcore.rl import aec_env

    env = aec_env(NAME, 4)
    env.reset(seed=4)
    rng = random.Random(4)
    several = out_seen = 0
    while env.agents:
        agent = env.agent_selection
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        game = env.match.game
        seat = int(agent.split("_")[1])
        assert seat in game.to_act and obs["action_mask"].any()
        several += len(game.to_act) > 1
        out = [
            s for s in range(4) if not hand_of(game, s) and not game.view(None)["table"]["stock"]
        ]
        for s in out:  # a seat knocked out stays among the agents, not terminated (rl.rst)
            assert f"player_{s}" in env.agents and not env.terminations[f"player_{s}"]
        out_seen += bool(out)
        env.step(rng.choice(list(obs["action_mask"].nonzero()[0])))
    assert several > 0 and out_seen > 0


def test_session_simultaneous_throw_ins_on_one_view() -> None:
    from cardcore.session import Session

    session = Session.create(
        NAME, ["A", "B", "C"], now=0.0, deck=stacked(H3, ["AH", "AS", "AD", "KS"]), seed=1
    )
    for seat in range(3):
        session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0)
    out = session.handle(
        "c0", json.dumps({"type": "act", "action": "attack 7H", "seen": 0}), now=2.0
    )
    assert all(o.message.get("type") != "error" for o in out)
    out = session.handle(
        "c2", json.dumps({"type": "act", "action": "attack 7S", "seen": 1}), now=3.0
    )
    assert all(o.message.get("type") != "error" for o in out)
    # seat 0 acts on the view it was shown before seat 2's throw-in: the table it sees changed
    out = session.handle("c0", json.dumps({"type": "act", "action": "pass", "seen": 1}), now=4.0)
    assert [o.message["code"] for o in out if o.message.get("type") == "error"] == ["stale"]
    out = session.handle("c0", json.dumps({"type": "act", "action": "pass", "seen": 2}), now=5.0)
    assert all(o.message.get("type") != "error" for o in out)
