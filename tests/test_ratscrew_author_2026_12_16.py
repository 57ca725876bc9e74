"""Egyptian Ratscrew, a real-time plugin written from the docs alone, and its author's tests.

The game (``tests/plugins/ratscrew_2026_12_16.py``, rules in its docstring) and its house
rule (``tests/plugins/ratscrew_rules_2026_12_16.py``, the top-bottom slap with a bounded
option) are registered in place with ``cardcore.register``. Rule tests start from
positions (every card placed), so none depends on a random deal.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cardcore
from cardcore import (
    SPECTATOR,
    Event,
    IllegalActionError,
    OptionError,
    Plan,
    StaleActionError,
)
from cardcore.testing import check_game
from tests.plugins import ratscrew_2026_12_16 as rs
from tests.plugins import ratscrew_rules_2026_12_16 as house

NAME, TOP_BOTTOM = rs.NAME, house.NAME
CODES = [
    f"{r}{s}"
    for s in "SHDC"
    for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
]


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, rs)
    cardcore.register("cardcore.rules", TOP_BOTTOM, house)
    yield
    cardcore.unregister("cardcore.rules", TOP_BOTTOM)
    cardcore.unregister("cardcore.games", NAME)


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def position(
    center: list[str],
    piles: list[list[str]],
    *,
    rest: str = "center",
    turn: int = 0,
    challenger: int | None = None,
    chances: int = 0,
    collect: bool = False,
    slapped_in: list[bool] | None = None,
) -> str:
    """A position: *center* bottom to top, each pile **top first** (the order of flips).
    The cards not named go face up under the center (``rest="center"``) or under the
    pile of seat ``int(rest)``."""
    players = len(piles)
    named = [*center, *(c for p in piles for c in p)]
    assert len(set(named)) == len(named)
    others = [c for c in CODES if c not in named]
    center, piles = list(center), [list(p) for p in piles]
    if rest == "center":
        center = others + center
    else:
        piles[int(rest)] += others
    slapped = slapped_in or [False] * players
    to_act = [s for s in range(players) if piles[s] or not slapped[s] or (collect and s == turn)]
    fields = (
        f"to_act={compact(to_act)} turn={turn} challenger={compact(challenger)} "
        f"chances={chances} collect={compact(collect)} slapped_in={compact(slapped)}"
    )
    zones = [f"center: {' '.join(c + '!' for c in center)}"]
    zones += [f"pile.{s}: {' '.join(reversed(p))}" for s, p in enumerate(piles)]
    return f"{NAME} {fields} | " + " | ".join(zones)


def new(pos: str, rules: list[str] = (), **options: Any) -> cardcore.Game:
    return cardcore.new_game(
        NAME,
        len(pos.split("slapped_in=")[1].split("]")[0].split(",")),
        position=pos,
        seed=3,
        rules=list(rules),
        options=options or None,
    )


def frozen(game: cardcore.Game) -> tuple[Any, ...]:
    return game.position(), game.version, json.dumps(game.record(), sort_keys=True)


def zone(view: dict[str, Any], name: str) -> list[str | None]:
    return next(z["cards"] for z in view["zones"] if z["name"] == name)


def table(game: cardcore.Game) -> dict[str, Any]:
    return game.view(None)["table"]


class Slapper:
    """Slaps a valid pattern after *slap* seconds, flips/takes after *flip* seconds, with a
    seeded jitter; never slaps falsely."""

    def __init__(self, seed: int, slap: float, flip: float = 0.5) -> None:
        self.rng, self.slap, self.flip = random.Random(seed), slap, flip

    def plan(self, view: dict[str, Any], legal: Any, now: float) -> Plan | None:
        slaps = [a for a in legal if a.verb == "slap"]
        if slaps and view["table"]["pattern"]:
            return Plan(slaps[0], self.slap + self.rng.random() * 0.2)
        turn = [a for a in legal if a.verb != "slap"]
        if turn:
            return Plan(turn[0], self.flip + self.rng.random() * 0.2)
        return None


# --- the conformance kit -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_kit(players: int) -> None:
    report = check_game(NAME, players=players, games=2, seed=players)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0 and report.truncated == 0


def test_conformance_kit_with_house_rule() -> None:
    report = check_game(NAME, players=3, rules=[TOP_BOTTOM], games=2, seed=11)
    assert report.ok and report.leaks == 0 and report.cards_lost == 0


# --- deal and hidden piles -----------------------------------------------------------------


def test_rats_deal_1_piles_are_hidden_from_everyone_owner_included() -> None:
    game = cardcore.new_game(NAME, 3, seed=8)
    view = game.view(0)
    assert [len(zone(view, f"pile.{s}")) for s in range(3)] == [18, 17, 17]
    for seat in (0, 1, 2, None):
        v = game.view(seat)
        assert all(c is None for s in range(3) for c in zone(v, f"pile.{s}"))
    assert game.view(0)["legal"] == ["flip"] and game.view(1)["legal"] == []
    assert table(game)["turn"] == 0 and game.to_act == (0, 1, 2)


def test_rats_flip_1_flip_is_turn_based_and_shows_the_card_to_all() -> None:
    game = new(position([], [["7H", "2C"], ["9S", "3D"]], rest="1"))
    before = frozen(game)
    with pytest.raises(IllegalActionError, match="RATS-TURN-1"):
        game.act(1, "flip")
    assert frozen(game) == before
    game.act(0, "flip")
    assert all(zone(game.view(s), "center") == ["7H"] for s in (0, 1, None))
    assert table(game)["turn"] == 1
    assert game.view(0)["legal"] == ["slap 7H"] and game.view(1)["legal"] == ["flip", "slap 7H"]


# --- slaps -------------------------------------------------------------------------------


def test_rats_slap_2_doubles_take_the_pile_face_down_and_forgotten() -> None:
    game = new(position(["5C", "9D"], [["4S", "2C"], ["9H", "3D"]], rest="1", turn=1))
    game.act(1, "flip")
    assert table(game)["pattern"] == "doubles"
    game.act(0, "slap 9H")
    view = game.view(0)
    assert zone(view, "center") == [] and len(zone(view, "pile.0")) == 2 + 3
    for seat in (0, 1, None):
        assert all(c is None for c in zone(game.view(seat), "pile.0"))
    assert table(game)["turn"] == 0  # the slapper flips next


def test_rats_slap_2_sandwich_is_valid_and_top_two_differ() -> None:
    game = new(position(["5C", "9D"], [["4S", "2C"], ["5H", "3D"]], rest="1", turn=1))
    game.act(1, "flip")
    assert table(game)["pattern"] == "sandwich"
    game.act(0, "slap 5H")
    assert len(zone(game.view(0), "pile.0")) == 5


def test_rats_slap_1_race_second_slap_is_stale_and_changes_nothing() -> None:
    game = new(position(["5C", "9D"], [["4S", "2C"], ["9H", "3D"], ["6S"]], rest="1", turn=1))
    game.act(1, "flip")
    seen = game.view(2)["version"]
    game.act(0, "slap 9H", at=1.0, seen=seen)
    before = frozen(game)
    with pytest.raises(StaleActionError, match="CORE-RT-1") as err:
        game.act(2, "slap 9H", at=1.01, seen=seen)
    assert "was legal at version" in str(err.value)
    assert frozen(game) == before
    # without seen= the same late slap is illegal, citing the game's rule
    with pytest.raises(IllegalActionError, match="RATS-SLAP-1"):
        game.act(2, "slap 9H")
    assert frozen(game) == before


def test_rats_slap_1_slap_on_a_covered_top_is_stale_not_a_false_slap() -> None:
    game = new(position(["5C", "9D"], [["4S", "2C"], ["9H", "3D"]], rest="1", turn=1))
    game.act(1, "flip")
    seen = game.view(1)["version"]
    game.act(0, "slap 9H", seen=seen)  # seat 0 takes, flips next
    game.act(0, "flip")
    before = frozen(game)
    with pytest.raises(StaleActionError):
        game.act(1, "slap 9H", seen=seen)  # meant for the old pile: no burn
    assert frozen(game) == before


def test_rats_slap_4_false_slap_burns_the_top_card_under_the_center() -> None:
    game = new(position(["5C", "9D"], [["4S", "2C"], ["8H", "3D"]], rest="1", turn=1))
    game.act(1, "flip")
    burned = []
    game.events.subscribe(rs.CardBurned, burned.append)
    game.act(0, "slap 8H")
    center = zone(game.view(1), "center")
    assert center[0] == "8H" and center[-1] == "4S"  # top first: 4S now lies at the bottom
    assert len(zone(game.view(0), "pile.0")) == 1
    assert table(game)["turn"] == 0  # the turn did not change
    assert [str(e.card) for e in burned] == ["4S"]


def test_rats_slap_1_wrong_top_is_illegal_and_names_only_public_cards() -> None:
    game = new(position(["5C", "9D"], [["4S", "2C"], ["8H", "3D"]], rest="1"))
    before = frozen(game)
    with pytest.raises(IllegalActionError, match="RATS-SLAP-1") as err:
        game.act(1, "slap KS")
    assert "9D" in str(err.value) and "4S" not in str(err.value) and "8H" not in str(err.value)
    assert frozen(game) == before


# --- face-card challenges ----------------------------------------------------------------


def test_rats_face_1_and_3_king_gives_three_chances_then_challenger_takes() -> None:
    game = new(position([], [["KS", "2C"], ["3H", "4D", "6C", "8S"]], rest="0"))
    game.act(0, "flip")
    assert table(game)["challenger"] == 0 and table(game)["chances"] == 3
    for _ in range(3):
        assert table(game)["turn"] == 1
        game.act(1, "flip")
    assert table(game)["collect"] and table(game)["turn"] == 0
    with pytest.raises(IllegalActionError, match="RATS-FACE-3"):
        game.act(0, "flip")
    with pytest.raises(IllegalActionError, match="RATS-FACE-3"):
        game.act(1, "take")
    assert game.view(0)["legal"] == ["take", "slap 6C"]
    held = len(zone(game.view(0), "pile.0"))
    game.act(0, "take")
    assert len(zone(game.view(0), "pile.0")) == held + 4 and table(game)["turn"] == 0


def test_rats_face_2_a_face_card_passes_the_challenge_on() -> None:
    game = new(position([], [["QS", "2C"], ["3H", "JD", "6C"]], rest="0"))
    game.act(0, "flip")  # queen: seat 1 has two chances
    game.act(1, "flip")
    game.act(1, "flip")  # jack: seat 0 must answer with one card
    t = table(game)
    assert (t["challenger"], t["chances"], t["turn"]) == (1, 1, 0)
    game.act(0, "flip")  # 2C, no face card
    assert table(game)["collect"] and table(game)["turn"] == 1


def test_rats_face_3_slaps_still_win_during_a_challenge() -> None:
    game = new(position(["4C"], [["KS", "2C"], ["3H", "KD", "9C"]], rest="0"))
    game.act(0, "flip")
    game.act(1, "flip")  # 3H
    game.act(1, "flip")  # KD: a challenge from seat 1 ... and KS-3H-KD is a sandwich
    assert table(game)["pattern"] == "sandwich"
    game.act(0, "slap KD")
    t = table(game)
    assert (t["challenger"], t["chances"], t["collect"], t["turn"]) == (None, 0, False, 0)


def test_rats_face_4_challenged_seat_running_out_loses_the_challenge() -> None:
    # seat 1 holds one card; seat 2 holds the rest
    game = new(position([], [["AS", "2C"], ["5H"], ["7D"]], rest="2"))
    game.act(0, "flip")
    game.act(1, "flip")
    t = table(game)
    assert t["collect"] and t["turn"] == 0 and 1 in game.to_act  # may still slap back in


# --- out, slap-in, the end ---------------------------------------------------------------


def test_rats_out_2_an_out_seat_slaps_back_in_once_and_cannot_burn() -> None:
    game = new(position(["5C", "9D"], [["4S", "9H"], []], rest="0"))
    assert game.to_act == (0, 1) and game.view(1)["legal"] == []
    before = frozen(game)
    with pytest.raises(IllegalActionError, match="RATS-OUT-2"):
        game.act(1, "slap 9D")  # a false slap: it has nothing to burn
    assert frozen(game) == before
    game.act(0, "flip")
    game.act(0, "flip")  # 9H on 4S on 9D: a sandwich
    assert game.view(1)["legal"] == ["slap 9H"]
    game.act(1, "slap 9H")
    assert table(game)["slapped_in"] == [False, True] and table(game)["turn"] == 1


def test_rats_out_3_out_for_good_leaves_to_act_and_is_refused() -> None:
    game = new(position([], [["6S", "2D"], [], ["3C"]], rest="0", slapped_in=[False, True, False]))
    assert game.to_act == (0, 2)
    with pytest.raises(IllegalActionError, match="RATS-OUT-3"):
        game.act(1, "flip")


def test_rats_win_1_last_seat_holding_cards_wins_with_every_card() -> None:
    game = new(position(["5C"], [["4S", "2D"], ["8C"]], rest="0", turn=1, slapped_in=[False, True]))
    game.act(1, "flip")
    assert game.is_over and game.result.winners == (0,)
    assert game.result.scores == (52.0, 0.0)


def test_rats_win_2_lone_holder_flips_out_while_a_seat_may_return() -> None:
    game = new(position(["5C"], [["4S", "7D"], []], rest="center"))
    game.act(0, "flip")
    assert not game.is_over and table(game)["turn"] == 0
    game.act(0, "flip")
    assert game.is_over and game.result.winners == (0,) and game.result.scores == (52.0, 0.0)


def test_rats_end_1_resignation_leaves_holders_as_winners() -> None:
    game = new(position([], [["4S"], [], ["7D"]], rest="2", slapped_in=[False, True, False]))
    game.act(0, "resign")
    assert game.result.winners == (2,)


# --- the house rule ----------------------------------------------------------------------


def test_rats_var_1_top_bottom_slap_with_bounded_option() -> None:
    only = position(["8C", "2D", "5S"], [["8H", "3C"], ["KD"]], rest="1")  # 8C at the bottom
    plain = new(only)
    plain.act(0, "flip")
    assert table(plain)["pattern"] is None
    game = new(only, [TOP_BOTTOM])
    assert game.options["top_bottom_min"] == 3
    game.act(0, "flip")
    assert table(game)["pattern"] == "top-bottom"
    bigger = new(only, [TOP_BOTTOM], top_bottom_min=5)
    bigger.act(0, "flip")
    assert table(bigger)["pattern"] is None
    for bad in (2, 53):
        with pytest.raises(OptionError):
            new(only, [TOP_BOTTOM], top_bottom_min=bad)
    with pytest.raises(OptionError, match="top-bottom"):
        new(only, top_bottom_min=4)


# --- real time: runner, determinism, records, leaks -----------------------------------------


def play(seed: int, players: int = 3, watch: list[Any] | None = None) -> cardcore.Game:
    game = cardcore.new_game(NAME, players, seed=seed)
    if watch is not None:
        for seat in [*range(players), SPECTATOR]:
            game.events.subscribe(
                Event, lambda e, s=seat: watch.append((s, e.to_json())), seat=seat
            )
    bots = [Slapper(s, slap=0.2 + 0.05 * s) for s in range(players)]

    def check_views(g: cardcore.Game, action: Any, at: float) -> None:
        for seat in [*range(players), None]:
            view = g.view(seat)
            assert all(c is None for s in range(players) for c in zone(view, f"pile.{s}"))

    cardcore.run_realtime(game, bots, seed=seed, on_action=check_views)
    return game


def test_run_realtime_is_deterministic_for_a_fixed_seed_and_replays() -> None:
    one, two = play(5), play(5)
    assert one.is_over and one.result.reason == "last seat holding cards"
    assert one.record() == two.record()
    assert sum(one.result.scores) == 52 and max(one.result.scores) == 52
    record = json.dumps(one.record())
    again = cardcore.replay(record)
    assert again.position() == one.position() and again.view(None) == one.view(None)
    assert cardcore.load(json.dumps(one.save())).version == one.version
    assert all(at is not None for _, _, at in one.record()["actions"])


def test_events_name_only_face_up_cards_and_taken_piles_name_none() -> None:
    watch: list[Any] = []
    game = play(7, players=2, watch=watch)
    streams: dict[Any, list[Any]] = {}
    for seat, event in watch:
        streams.setdefault(seat, []).append(event)
        if event["event"] == "card-moved":
            assert event["dst"] == "center" and event["card"] is not None
        elif event["event"] == "ratscrew-pile-taken":
            assert set(event) == {"event", "seat", "count", "how"}
        elif event["event"] == "cards-dealt":
            assert set(event) == {"event", "counts"}
    # nothing is private to one seat: every seat's stream is the public stream
    assert all(streams[s] == streams[SPECTATOR] for s in (0, 1))
    assert any(e["event"] == "ratscrew-pile-taken" for _, e in watch) and game.is_over
    texts = [json.dumps(e) for _, e in watch if e["event"] == "action-applied"]
    assert all('"flip"' in t or '"take"' in t or '"slap ' in t for t in texts)


def test_core_rt_1_stale_seen_is_judged_before_out_for_good() -> None:
    pos = position(
        ["9D"], [["4S", "2D"], ["8C"], ["5H"]], rest="0", turn=1, slapped_in=[False, True, False]
    )
    game = new(pos)
    seen = game.view(1)["version"]
    assert game.view(1)["legal"] == ["flip", "slap 9D"]
    game.act(1, "flip")  # its last card: seat 1 is out for good
    assert game.to_act == (0, 2)
    before = frozen(game)
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.act(1, "slap 9D", seen=seen)
    with pytest.raises(IllegalActionError, match="RATS-OUT-3"):
        game.act(1, "slap 8C", seen=seen)
    assert frozen(game) == before


def test_threads_racing_slaps_one_applied_one_stale() -> None:
    from concurrent.futures import ThreadPoolExecutor

    game = new(position(["5C", "9D"], [["4S", "2C"], ["9H", "3D"], ["6S"]], rest="1", turn=1))
    game.act(1, "flip")
    seen = game.version

    def send(seat: int) -> str:
        try:
            game.act(seat, "slap 9H", seen=seen)
            return "applied"
        except StaleActionError:
            return "stale"

    with ThreadPoolExecutor(2) as pool:
        outcomes = sorted(pool.map(send, [0, 2]))
    assert outcomes == ["applied", "stale"] and game.version == seen + 1
    assert zone(game.view(None), "center") == []
