"""President written from cardcore's docs by a first-time plugin author (2026-12-15).

The game (``tests/plugins/president_2026_12_15.py``) and its house rule Revolution
(``tests/plugins/president_rules_2026_12_15.py``, through the game's own hookspec) are
registered in place with ``cardcore.register``. Tables are set up with stacked decks
(``deck=``) or positions (docs/notation.rst), never a random deal.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import cardcore
from cardcore import Event, IllegalActionError, NotationError, OptionError, decks
from cardcore.testing import assert_conserved, check_game
from tests.plugins import president_2026_12_15 as pr
from tests.plugins import president_rules_2026_12_15 as rev

NAME, REV = pr.NAME, rev.NAME
CARD_WORD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([SHDC])(?![A-Za-z0-9])")


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, pr)
    cardcore.register("cardcore.rules", REV, rev)
    yield
    cardcore.unregister("cardcore.rules", REV)
    cardcore.unregister("cardcore.games", NAME)


def cards_in(text: Any) -> set[str]:
    if not isinstance(text, str):
        text = json.dumps(text)
    return {a + b for a, b in CARD_WORD.findall(text)}


def stacked(players: int, hands: dict[int, list[str]]) -> list[str]:
    """A deck (top first) dealing each seat of *hands* those cards first; the rest fill in."""
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


def new(players: int = 4, hands: dict[int, list[str]] | None = None, **kw: Any) -> cardcore.Game:
    kw.setdefault("options", {"rounds": 1})
    return cardcore.new_game(NAME, players, deck=stacked(players, hands or {}), seed=11, **kw)


def position(fields: dict[str, Any], piles: dict[str, list[str]], players: int = 4) -> str:
    """A position: every card not named in *piles* goes to the discard (public)."""
    base = {
        "phase": "play",
        "round": 1,
        "count": 0,
        "top": -1,
        "last": -1,
        "passes": 0,
        "finished": [],
        "prev": [],
        "totals": [0] * players,
        "reversed": False,
        "gives": [0] * players,
    }
    base.update(fields)
    head = " ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in base.items())
    named = {c.split("@")[0].rstrip("!") for cards in piles.values() for c in cards}
    discard = [f"{c}!" for c in map(str, decks(1)) if c not in named]
    order = ["stock", "table", "discard"] + [f"hand.{s}" for s in range(players)]
    full = {"discard": discard, **piles}
    parts = [f"{NAME} {head}"] + [f"{z}: {' '.join(full.get(z, []))}".rstrip() for z in order]
    return " | ".join(parts)


def mine(seat: int, cards: str) -> list[str]:
    return [f"{c}@{seat}" for c in cards.split()]


def frozen(game: cardcore.Game) -> tuple[Any, ...]:
    return game.position(), game.version, json.dumps(game.record(), sort_keys=True)


def events_for(game: cardcore.Game, seat: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    game.events.subscribe(Event, lambda e: out.append(e.to_json()), seat=seat)
    return out


# A trick table: 4 seats, seat 0 leads. Seat 0: 5C 5D 9C; seat 1: 6C 6D 3S; seat 2: 7C 7H KS;
# seat 3: 4C 4D 8S 8H.
TRICK = position(
    {"to_act": [0]},
    {
        "hand.0": mine(0, "9C 5D 5C"),
        "hand.1": mine(1, "3S 6D 6C"),
        "hand.2": mine(2, "KS 7H 7C"),
        "hand.3": mine(3, "8H 8S 4D 4C"),
    },
)


def trick_game() -> cardcore.Game:
    return cardcore.new_game(NAME, 4, position=TRICK, seed=5, options={"rounds": 1})


# --- the conformance kit -----------------------------------------------------------------


@pytest.mark.parametrize(("players", "rules"), [(4, []), (6, [REV])])
def test_conformance_kit(players, rules):
    report = check_game(NAME, players=players, rules=rules, games=2, seed=0, options={"rounds": 2})
    assert report.cards_lost == 0 and report.leaks == 0 and report.failed == 0
    assert not report.skipped and report.twins > 0 and report.positions > 0
    assert report.scored > 0 and report.bad_inputs == report.rejected > 0


# --- seats, options, deal ------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 7])
def test_pres_seat_1_four_to_six(players):
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, players, seed=1)


@pytest.mark.parametrize("rounds", [0, 11, "3"])
def test_pres_match_1_rounds_bounded(rounds):
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, 4, seed=1, options={"rounds": rounds})


@pytest.mark.parametrize(("players", "sizes"), [(5, [11, 11, 10, 10, 10]), (6, [9] * 4 + [8] * 2)])
def test_pres_deal_1_whole_deck_uneven(players, sizes):
    game = new(players, {0: ["3C"]})
    assert [len(pr.hand_of(game, s)) for s in range(players)] == sizes
    assert pr.hand_of(game, 0)[-1] == "3C" and game.to_act == (0,)
    assert_conserved(game)


# --- notation -------------------------------------------------------------------------------


def test_pres_note_1_multi_card_text_sorted_and_read_in_any_order():
    game = trick_game()
    assert game.view(0)["legal"] == ["play 5C", "play 5D", "play 5C 5D", "play 9C"]
    action = game.act(0, "  PLAY 5d   5c ")
    assert str(action) == "play 5C 5D"
    assert game.record()["actions"][-1][:2] == [0, "play 5C 5D"]
    assert game.view(1)["legal"] == ["play 6C 6D", "pass"]
    assert game.view(None)["zones"][1]["cards"] == ["5D", "5C"]


HOSTILE = [
    (1, "play 6C 6D", IllegalActionError, "CORE-TURN-1"),  # out of turn
    (0, "play 5C 9C", IllegalActionError, "PRES-LEAD-1"),  # mixed ranks
    (0, "play 2S", IllegalActionError, "PRES-LEAD-1"),  # not in hand
    (0, "pass", IllegalActionError, "PRES-LEAD-1"),  # a leader may not pass
    (0, "play 5C 5C", NotationError, "PRES-NOTE-1"),  # a card twice
    (0, "play 5C 5D 5H 5S 9C", NotationError, "PRES-NOTE-1"),  # five cards
    (0, "play", NotationError, "PRES-NOTE-1"),
    (0, "play 1C", NotationError, "CORE-NOTATION-2"),
    (0, "give x", NotationError, "CORE-NOTATION-1"),
    (0, "give 0", IllegalActionError, "PRES-EXCH-2"),  # no exchange now
    (0, "throw 5C", NotationError, "PRES-NOTE-1"),
]


@pytest.mark.parametrize(("seat", "text", "error", "rule"), HOSTILE)
def test_hostile_caller_gets_a_clear_error_and_nothing_changes(seat, text, error, rule):
    game = trick_game()
    before = frozen(game)
    with pytest.raises(error) as info:
        game.act(seat, text)
    assert str(info.value).endswith(f"({rule})"), str(info.value)
    assert frozen(game) == before


def test_pres_follow_1_fewer_cards_or_lower_rank_refused():
    game = trick_game()
    game.act(0, "play 5C 5D")
    before = frozen(game)
    for text, rule in [("play 3S", "PRES-FOLLOW-1"), ("play 6C", "PRES-FOLLOW-1")]:
        with pytest.raises(IllegalActionError, match=rf"\({rule}\)$"):
            game.act(1, text)
    assert frozen(game) == before


# --- tricks, passing, going out --------------------------------------------------------------


def test_pres_pass_1_a_pass_does_not_shut_a_seat_out():
    game = trick_game()
    game.act(0, "play 5C")
    game.act(1, "pass")  # seat 1 passes ...
    game.act(2, "play 7C")
    game.act(3, "play 8S")
    game.act(0, "play 9C")
    assert game.view(1)["legal"] == ["pass"] and game.to_act == (1,)
    game.act(1, "pass")
    game.act(2, "play KS")  # ... and seat 2 passed nowhere; order goes round again
    assert game.to_act == (3,)


def test_pres_trick_1_all_others_pass_last_player_leads():
    game = trick_game()
    game.act(0, "play 5C 5D")
    game.act(1, "play 6C 6D")
    seen = events_for(game, 3)
    for s in (2, 3, 0):
        game.act(s, "pass")
    assert game.to_act == (1,) and game.view(1)["table"]["count"] == 0
    assert "pass" not in game.view(1)["legal"]
    assert {"event": "president-trick-cleared", "leader": 1} in seen
    assert game.view(None)["zones"][1]["cards"] == []


def test_pres_out_1_a_seat_out_is_skipped_and_the_lead_passes_on():
    game = trick_game()
    game.act(0, "play 5C 5D")
    game.act(1, "play 6C 6D")
    game.act(2, "play 7C 7H")
    game.act(3, "play 8S 8H")
    game.act(0, "pass")
    game.act(1, "pass")
    game.act(2, "pass")  # seat 3 leads
    game.act(3, "play 4C 4D")  # seat 3 is out: first, President
    assert game.view(None)["table"]["finished"] == [3] and game.to_act == (0,)
    for s in (0, 1, 2):
        game.act(s, "pass")  # all still in pass after the out seat's play: next still in leads
    assert game.to_act == (0,)
    with pytest.raises(IllegalActionError, match=r"\(PRES-OUT-1\)$"):
        game.act(3, "pass")


def test_pres_out_1_round_ends_when_one_seat_holds_cards():
    pos = position(
        {"to_act": [2], "finished": [0, 1]},
        {"hand.2": mine(2, "2S"), "hand.3": mine(3, "3C 4C")},
    )
    game = cardcore.new_game(NAME, 4, position=pos, seed=1, options={"rounds": 1})
    game.act(2, "play 2S")
    assert game.is_over and game.result.reason == "rounds"
    assert game.result.scores == (3.0, 2.0, 1.0, 0.0) and game.result.winners == (0,)
    assert game.result.payouts is None


def test_pres_match_1_ties_share_the_win():
    pos = position(
        {
            "to_act": [2],
            "finished": [0, 1],
            "round": 2,
            "totals": [0, 1, 2, 3],
            "prev": [3, 2, 1, 0],
        },
        {"hand.2": mine(2, "2S"), "hand.3": mine(3, "3C 4C")},
    )
    game = cardcore.new_game(NAME, 4, position=pos, seed=1, options={"rounds": 2})
    game.act(2, "play 2S")
    assert game.result.winners == (0, 1, 2, 3) and game.result.scores == (3.0,) * 4


# --- the exchange ----------------------------------------------------------------------------

EXCH_HANDS = {
    "hand.0": [*mine(0, "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"), "2S@0.3", "2H@0.3"],
    "hand.1": [*mine(1, "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2D"), "AS@1.2"],
    "hand.2": mine(2, "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"),
    "hand.3": mine(3, "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2C"),
}
EXCH = position(
    {
        "to_act": [0, 1],
        "phase": "exchange",
        "round": 2,
        "prev": [0, 1, 2, 3],
        "gives": [2, 1, 0, 0],
    },
    EXCH_HANDS,
)


def exch_game() -> cardcore.Game:
    return cardcore.new_game(NAME, 4, position=EXCH, seed=2, options={"rounds": 2})


def test_pres_exch_2_president_and_vice_give_back_at_once_in_any_order():
    game = exch_game()
    assert game.to_act == (0, 1)
    assert game.view(0)["legal"][:2] == ["give 0", "give 1"] and len(game.view(0)["legal"]) == 14
    assert game.view(2)["legal"] == [] and game.view(3)["legal"] == []
    game.act(1, "give 0")  # the Vice first
    assert game.to_act == (0,)
    with pytest.raises(IllegalActionError, match=r"\(PRES-EXCH-2\)$"):
        game.act(1, "give 0")
    with pytest.raises(IllegalActionError, match=r"\(PRES-EXCH-2\)$"):
        game.act(3, "play 3S")
    game.act(0, "give 0")
    game.act(0, "give 0")
    assert game.to_act == (3,) and game.view(3)["table"]["phase"] == "play"  # PRES-LEAD-2
    assert [len(pr.hand_of(game, s)) for s in range(4)] == [12, 13, 13, 14]
    assert_conserved(game)


def test_pres_exch_2_only_the_two_seats_see_the_exchanged_cards():
    game = exch_game()
    streams = {s: events_for(game, s) for s in (0, 1, 2, 3)}
    spectator = events_for(game, cardcore.SPECTATOR)
    given = pr.hand_of(game, 0)[:2]
    game.act(0, "give 0")
    game.act(0, "give 0")
    vice_gave = pr.hand_of(game, 1)[0]
    game.act(1, "give 0")
    assert set(given) <= cards_in(streams[3]) and set(given) <= set(pr.hand_of(game, 3))
    assert vice_gave in cards_in(streams[2]) and vice_gave in pr.hand_of(game, 2)
    assert not set(given) & cards_in(streams[1]) and not set(given) & cards_in(streams[2])
    assert vice_gave not in cards_in(streams[0]) | cards_in(streams[3])
    assert not cards_in(spectator)
    for seat in (None, 1, 2):
        view = game.view(seat)
        assert not set(given) & cards_in([z for z in view["zones"] if z["name"] != f"hand.{seat}"])
        assert not set(given) & cards_in(view["table"])


def test_pres_exch_1_scum_gives_two_best_at_the_new_deal():
    pos = position(
        {"to_act": [2], "finished": [0, 1]},
        {"hand.2": mine(2, "2S"), "hand.3": mine(3, "3C 4C")},
    )
    game = cardcore.new_game(NAME, 4, position=pos, seed=1, options={"rounds": 2})
    host = events_for(game, None)
    game.act(2, "play 2S")
    moved = [e for e in host if e["event"] == "card-moved" and e["src"] == "hand.3"]
    assert [e["dst"] for e in moved] == ["hand.0", "hand.0"]
    gifts = [e["card"] for e in moved]
    keep = [cardcore.Card.parse(c) for c in pr.hand_of(game, 3)]
    assert min(pr.power(cardcore.Card.parse(c)) for c in gifts) >= max(map(pr.power, keep))
    assert game.to_act == (0, 1) and game.view(0)["table"]["titles"][3] == "Scum"
    vice = [e for e in host if e["event"] == "card-moved" and e["src"] == "hand.2"][1:]
    assert [e["dst"] for e in vice] == ["hand.1"]


# --- records, saves, clones -----------------------------------------------------------------


def played(seed: int = 4, rounds: int = 2) -> cardcore.Game:
    game = cardcore.new_game(NAME, 4, seed=seed, options={"rounds": rounds})
    cardcore.play(game, [cardcore.RandomAgent(s) for s in range(4)])
    return game


def test_record_replay_and_save_load_round_trip():
    game = played()
    assert game.is_over
    again = cardcore.replay(json.loads(json.dumps(game.record())))
    loaded = cardcore.load(json.dumps(game.save()))
    for other in (again, loaded):
        assert other.position() == game.position() and other.result == game.result
        assert all(other.view(s) == game.view(s) for s in range(4))


def test_clone_is_independent():
    game = exch_game()
    twin = game.clone()
    twin.act(0, "give 0")
    assert game.version + 1 == twin.version and pr.hand_of(game, 0) != pr.hand_of(twin, 0)
    assert game.position() == exch_game().position() and game.to_act == (0, 1)


# --- agents and RL --------------------------------------------------------------------------


def test_search_agent_plays_president():
    from cardcore.search import ISMCTSAgent

    game = cardcore.new_game(NAME, 4, seed=9, options={"rounds": 1})
    bots = [ISMCTSAgent(seed=1, iterations=4, max_rollout=40)] + [
        cardcore.RandomAgent(s) for s in (2, 3, 4)
    ]
    result = cardcore.play(game, bots)
    assert result.reason == "rounds"


def test_rl_environment_for_a_third_party_game():
    pytest.importorskip("pettingzoo")
    from cardcore.rl import aec_env

    env = aec_env(NAME, 4, options={"rounds": 1})
    env.reset(seed=7)
    obs, _reward, _terminated, _truncated, _info = env.last()
    assert obs["action_mask"].shape == (64,)
    names = [env.config.observer.names[i] for i in obs["action_mask"].nonzero()[0]]
    legal = env.match.game.view(0)["legal"]  # docs/rl.rst: index i is the i-th legal action
    assert names == [f"legal[{i}]" for i in range(len(legal))] and legal[0].startswith("play ")
    env.step(int(obs["action_mask"].nonzero()[0][0]))
    assert env.match.game.version == 1


# --- Revolution -------------------------------------------------------------------------------


def test_presrev_1_four_of_a_kind_reverses_the_order():
    pos = position(
        {"to_act": [0]},
        {
            "hand.0": mine(0, "3C 9S 9H 9D 9C"),
            "hand.1": mine(1, "4C 2C"),
            "hand.2": mine(2, "5C"),
            "hand.3": mine(3, "6C"),
        },
    )
    plain = cardcore.new_game(NAME, 4, position=pos, seed=1, options={"rounds": 1})
    game = cardcore.new_game(NAME, 4, position=pos, seed=1, rules=[REV], options={"rounds": 1})
    for g in (plain, game):
        g.act(0, "play 9C 9D 9H 9S")
        for s in (1, 2, 3):
            g.act(s, "pass")
    assert game.view(0)["table"]["reversed"] and not plain.view(0)["table"]["reversed"]
    game.act(0, "play 3C")  # the lowest card, now the highest... 0 is out
    plain.act(0, "play 3C")
    assert game.view(1)["legal"] == ["pass"]
    assert plain.view(1)["legal"] == ["play 4C", "play 2C", "pass"]
