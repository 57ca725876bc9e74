"""Independent review of multi-hand Tonk sessions (seeds/tonk.md: TONK-SESSION-*,
TONK-DEALER-*, TONK-49-2, TONK-VIEW-1, TONK-NOTE-2), 2026-12-07."""

from __future__ import annotations

import random
import re

import pytest

import cardcore
from cardcore import IllegalActionError, OptionError
from cardcore_tonk.position import stack_deals

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}
NATURAL_49 = ["10S", "JS", "QS", "KS", "9S"]  # 10+10+10+10+9 = 49 (TONK-VAL-1)
NATURAL_50 = ["10H", "JH", "QH", "KH", "10D"]  # 50
LOW = ["AC", "2C", "3D", "4S", "6C"]  # 16, no natural
HIGH = ["KS", "KH", "QS", "9D", "8D"]  # 47, no natural


def _rank(label: str) -> int:
    return RANKS.get(label, 0) or int(label)


def _opts(n: int, hands: int, **more):
    o = {"hands": hands, **more}
    if n == 4:
        o["max_players"] = 4
    return o


def deck_for(dealer: int, n: int, by_seat: dict[int, list[str]], upcard: str = "5H") -> list[str]:
    """A deck (top first) dealing by_seat[s] to seat s (TONK-DEAL-1: five each, one at a
    time, from the dealer's left), the others from unused cards, then the upcard."""
    used = {c for h in by_seat.values() for c in h} | {upcard}
    spare = [c for c in _all_cards() if c not in used]
    hands = {s: list(by_seat.get(s) or [spare.pop() for _ in range(5)]) for s in range(n)}
    out: list[str] = []
    for i in range(5):
        for j in range(n):
            out.append(hands[(dealer + 1 + j) % n][i])
    return [*out, upcard]


def _all_cards() -> list[str]:
    return [r + s for s in "SHDC" for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"]]


def pile_cards(game) -> list[str]:
    """Every card in every pile, read from the position text (privileged)."""
    out = []
    for part in game.position().split(" | ")[1:]:
        _, _, cards = part.partition(":")
        out += [re.match(r"(10|[2-9AJQK])[SHDC]", w).group(0) for w in cards.split()]
    return out


def check_invariants(game) -> None:
    cards = pile_cards(game)
    assert len(cards) == 52 and set(cards) == set(_all_cards())
    bal = game.view(None)["table"]["balances"]
    assert sum(bal) == 0


def play_random(game, rng, stop=None, hook=None):
    while not game.is_over:
        if stop is not None and stop(game):
            return
        seat = game.to_act[0]
        acts = game.legal_actions(seat)
        if hook is not None:
            hook(game, seat)
        game.apply(rng.choice(acts))
        check_invariants(game)


def to_between(game, rng):
    play_random(game, rng, stop=lambda g: g.view(None)["table"]["phase"] == "between")
    assert game.view(None)["table"]["phase"] == "between"


# ---------------------------------------------------------------- the 'deal' action


@pytest.mark.parametrize("n", [2, 3, 4])
def test_between_only_next_dealer_deals_and_everything_else_changes_nothing(n):
    game = cardcore.new_game("tonk", n, options=_opts(n, 3, first_dealer=0), seed=21)
    first = game.to_act[0]
    assert first == 1  # TONK-TURN-1: left of the dealer moves first
    game.act(first, "drop")  # ends hand 1 at once (TONK-TURN-2)
    t = game.view(None)["table"]
    assert t["phase"] == "between"
    assert game.to_act == (1,)  # TONK-DEALER-2: dealer 0 -> seat 1 deals hand 2
    assert [str(a) for a in game.legal_actions(1)] == ["deal"]  # TONK-SESSION-3
    before = (game.version, game.position(), game.record(), [game.view(s) for s in range(n)])
    for seat in range(n):
        if seat != 1:
            assert game.legal_actions(seat) == () or list(game.legal_actions(seat)) == []
            with pytest.raises(IllegalActionError):
                game.act(seat, "deal")
        for text in ("drop", "draw", "take", "discard 5H", "spread AS 2S 3S", "hit 1 AS"):
            with pytest.raises(IllegalActionError):
                game.act(seat, text)
    after = (game.version, game.position(), game.record(), [game.view(s) for s in range(n)])
    assert after == before
    game.act(1, "deal")
    t = game.view(None)["table"]
    assert t["phase"] == "start" and t["hand_number"] == 2 and t["dealer"] == 1
    assert game.to_act == (2 % n,)


def test_last_hand_needs_no_deal():
    game = cardcore.new_game("tonk", 3, options={"hands": 2, "first_dealer": 2}, seed=5)
    game.act(0, "drop")
    game.act(0, "deal")  # dealer 2 -> 0
    game.act(1, "drop")
    assert game.is_over and game.to_act == ()
    assert [h["dealer"] for h in game.history(0)] == [2, 0]


# ---------------------------------------------------------------- dealer passing, cut


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_dealer_passes_left_each_hand_and_cut_chooses_the_first(n, seed):
    game = cardcore.new_game("tonk", n, options=_opts(n, 6), seed=seed)
    hist = game.history(0)
    cut = hist[0]
    assert cut["kind"] == "cut"
    # TONK-DEALER-1: every round seat order; highest (K high, A low) deals; ties draw again
    live = set(range(n))
    for rnd in cut["rounds"]:
        assert [s for s in range(n) if rnd[s] is not None] == sorted(live)
        best = max(_rank(rnd[s]) for s in live)
        live = {s for s in live if _rank(rnd[s]) == best}
    assert len(live) == 1
    first = live.pop()
    assert cut["dealer"] == first
    assert game.view(None)["table"]["dealer"] == first
    play_random(game, random.Random(seed))
    hands = [h for h in game.history(0) if h["kind"] == "hand"]
    assert [h["dealer"] for h in hands] == [(first + k) % n for k in range(len(hands))]
    assert [h["hand"] for h in hands if h["reason"] != "void"] == list(range(1, 7))


def test_cut_with_a_tie_draws_again_among_the_tied():
    for seed in range(200):
        game = cardcore.new_game("tonk", 4, options=_opts(4, 1), seed=seed)
        rounds = game.history(0)[0]["rounds"]
        if len(rounds) > 1:
            break
    else:
        pytest.fail("no tied cut in 200 seeds")
    best = max(_rank(r) for r in rounds[0])
    tied = [s for s in range(4) if _rank(rounds[0][s]) == best]
    assert [s for s in range(4) if rounds[1][s] is not None] == tied
    assert len(tied) >= 2


# ---------------------------------------------------------------- void deals


def test_void_deal_is_not_a_hand_and_passes_the_deal_hiding_the_other_hand():
    n = 3
    deck = deck_for(0, n, {1: NATURAL_49, 2: NATURAL_50, 0: LOW})
    game = cardcore.new_game("tonk", n, options={"hands": 1, "first_dealer": 0}, deck=deck, seed=4)
    # TONK-49-2: void, not a hand: a one-hand session goes on, dealer passes left
    assert not game.is_over
    t = game.view(0)["table"]
    assert t["phase"] == "between" and t["balances"] == [0, 0, 0]
    assert t["hand_number"] == 1 and game.to_act == (1,)
    assert "played=0" in game.position()
    entry = game.history(0)[-1]
    assert entry["reason"] == "void" and entry["hand"] == 1 and entry["dealer"] == 0
    assert entry["amounts"] == [0, 0, 0]
    assert entry["shown"][0] is None and entry["totals"][0] is None
    assert entry["shown"][1] == sorted(NATURAL_49, key=_key)
    assert entry["totals"][1:] == [49, 50]
    for s in (1, 2):  # seat 0's hand never shown: others see its size only
        assert game.history(s) == game.history(0)
        zone = game.view(s)["zones"][2]
        assert zone["name"] == "hand.0" and zone["cards"] == [None] * 5
        assert game.view(s)["table"]["shown"] == [False, True, True]
    game.act(1, "deal")
    t = game.view(0)["table"]
    assert t["hand_number"] == 1 and t["dealer"] == 1 and game.to_act == (2,)
    game.act(2, "drop")
    assert game.is_over
    hands = game.history(0)
    assert [(h["hand"], h["dealer"]) for h in hands] == [(1, 0), (1, 1)]
    assert game.result.reason in ("drop-won", "drop-caught")


def _key(text: str):
    return (_rank(text[:-1]), "SHDC".index(text[-1]))


def test_void_then_stacked_redeal_via_next_and_position_round_trip():
    n = 2
    deck = deck_for(0, n, {0: NATURAL_49, 1: NATURAL_50})
    game = cardcore.new_game("tonk", n, options={"hands": 2, "first_dealer": 0}, deck=deck, seed=8)
    pos = game.position()
    assert 'phase="between"' in pos
    # the re-deal stacked: dealer is 1 now, so seat 0 is dealt first
    redeal = deck_for(1, n, {0: NATURAL_50, 1: LOW})
    stacked = stack_deals(pos, [redeal])
    g2 = cardcore.new_game(
        "tonk", n, options={"hands": 2, "first_dealer": 0}, position=stacked, seed=8
    )
    assert g2.view(1)["table"] == game.view(1)["table"]
    g2.act(1, "deal")
    # a natural to seat 0 (TONK-49-1): 2S from the other seat; hand 1 done, hand 2 next
    t = g2.view(1)["table"]
    assert t["balances"] == [2, -2] and t["phase"] == "between" and t["hand_number"] == 2
    entry = g2.history(1)[-1]
    assert entry["reason"] == "natural" and entry["shown"][1] is None and entry["dealer"] == 1
    assert g2.view(1)["zones"][2]["cards"] != [None] * 5  # its own
    assert g2.view(0)["zones"][3]["cards"] == [None] * 5  # seat 1's hand stays hidden
    assert g2.to_act == (0,)


# ---------------------------------------------------------------- history / balances


@pytest.mark.parametrize("n", [2, 3, 4])
def test_history_and_balances_carry_across_hands(n):
    game = cardcore.new_game("tonk", n, options=_opts(n, 5, stake=3), seed=40 + n)
    rng = random.Random(n)
    held = {}

    def remember(g, seat):
        held.update({s: sorted(g.view(s)["table"]["hand"], key=_key) for s in range(n)})

    play_random(game, rng, hook=remember)
    hist = [h for h in game.history(0) if h["kind"] == "hand"]
    running = [0] * n
    for h in hist:
        assert sum(h["amounts"]) == 0 and all(a % 3 == 0 for a in h["amounts"])
        running = [a + b for a, b in zip(running, h["amounts"], strict=True)]
        assert h["balances"] == running
        if h["reason"] in ("out", "tonk-out"):
            assert h["shown"] is None and h["totals"] is None
        if h["reason"] in ("drop-won", "drop-caught", "stock-out"):
            assert all(x is not None for x in h["shown"])
    for s in range(n):
        assert game.history(s) == game.history(None) == game.history(0)
    assert game.view(0)["table"]["balances"] == running
    res = game.result
    assert list(res.payouts) == running
    assert list(res.scores) == [r / 3 for r in running]
    assert set(res.winners) == {s for s in range(n) if running[s] == max(running)}
    assert res.reason == hist[-1]["reason"]


def test_winners_tie_on_equal_highest_balance():
    # 2 seats, 2 hands: seat 1 drops on hand 1, seat 0 drops on hand 2; with stacked
    # low hands each drop wins S (TONK-DROP-2): balances 0,0, both win
    d1 = deck_for(0, 2, {1: LOW, 0: HIGH})
    game = cardcore.new_game("tonk", 2, options={"hands": 2, "first_dealer": 0}, deck=d1, seed=1)
    pos = stack_deals(game.position(), [deck_for(1, 2, {0: LOW, 1: HIGH})])
    game = cardcore.new_game(
        "tonk", 2, options={"hands": 2, "first_dealer": 0}, position=pos, seed=1
    )
    game.act(1, "drop")
    assert game.view(0)["table"]["balances"] == [-1, 1]
    game.act(1, "deal")
    game.act(0, "drop")
    assert game.is_over
    assert game.result.payouts == (0, 0)
    assert set(game.result.winners) == {0, 1}
    assert game.result.reason == "drop-won"


# ---------------------------------------------------------------- positions, saves, replay


def _snap(game):
    n = len(game.players)
    return (
        game.position(),
        [game.view(s)["table"] for s in range(n)],
        [list(map(str, game.legal_actions(s))) for s in range(n)],
    )


@pytest.mark.parametrize("n", [2, 3, 4])
def test_round_trips_between_hands_and_mid_later_hand(n):
    opts = _opts(n, 4)
    game = cardcore.new_game("tonk", n, options=opts, seed=77)
    rng = random.Random(5)
    to_between(game, rng)
    game.act(game.to_act[0], "deal")
    to_between(game, rng)  # between hand 2 and 3
    checkpoints = []
    # between
    checkpoints.append(game.clone())
    game.act(game.to_act[0], "deal")
    seat = game.to_act[0]
    game.act(seat, "draw")  # mid-hand of hand 3
    checkpoints.append(game.clone())
    for g in checkpoints:
        hist = g.history(0)
        loaded = cardcore.load(g.save())
        replayed = cardcore.replay(g.record())
        from_pos = cardcore.new_game("tonk", n, options=opts, position=g.position(), seed=77)
        for other in (loaded, replayed, from_pos):
            assert _snap(other) == _snap(g)
        assert loaded.history(0) == hist and replayed.history(0) == hist
        # continuing the same way gives the same states (same seed, chance counter)
        r1, r2, r3 = random.Random(9), random.Random(9), random.Random(9)
        for other, r in ((g, r1), (loaded, r2), (from_pos, r3)):
            play_random(other, r)
        assert loaded.result == g.result
        assert from_pos.result.reason == g.result.reason
        # the position game knows no finished hands before it, but the balances carry on
        assert from_pos.result.payouts == g.result.payouts


# ---------------------------------------------------------------- long random sessions


@pytest.mark.parametrize(("n", "seed"), [(2, 101), (3, 202), (4, 303), (3, 404)])
def test_long_random_sessions_keep_cards_and_zero_sum(n, seed):
    game = cardcore.new_game("tonk", n, options=_opts(n, 10, stake=2), seed=seed)
    check_invariants(game)
    play_random(game, random.Random(seed))
    hands = [h for h in game.history(0) if h["kind"] == "hand" and h["reason"] != "void"]
    assert len(hands) == 10 and game.result.reason == hands[-1]["reason"]


def test_simulate_multi_hand_sessions_sum_to_zero():
    s = cardcore.simulate("tonk", games=6, players=3, options={"hands": 4}, seed=3)
    assert s.games == 6 and s.truncated == 0
    assert abs(sum(s.mean_payouts)) < 1e-9
    s4 = cardcore.simulate(
        "tonk", games=3, players=4, options={"hands": 3, "max_players": 4}, seed=3
    )
    assert abs(sum(s4.mean_payouts)) < 1e-9
    again = cardcore.simulate("tonk", games=6, players=3, options={"hands": 4}, seed=3)
    assert again == s


@pytest.mark.parametrize("bad", [0, -1, 100_001, 1.5, True, "3"])
def test_hands_bounds_refused(bad):
    with pytest.raises(OptionError, match="hands"):
        cardcore.new_game("tonk", 2, options={"hands": bad}, seed=1)


@pytest.mark.parametrize("ok", [1, 100_000])
def test_hands_bounds_accepted(ok):
    game = cardcore.new_game("tonk", 2, options={"hands": ok}, seed=1)
    assert game.view(0)["table"]["hands"] == ok


def _expected_amounts(h, n, stake):
    """Amounts derived from seeds/tonk.md for one history entry."""
    seat, totals, reason = h["seat"], h["totals"], h["reason"]
    out = [0] * n
    if reason in ("tonk-out", "natural", "out"):
        units = 1 if reason == "out" else 2
        for s in range(n):
            if s != seat:
                out[s] -= units * stake
                out[seat] += units * stake
        return out
    if reason == "void":
        return out
    if reason == "stock-out":  # TONK-STOCK-2
        low = min(totals)
        tied = [s for s in range(n) if totals[s] == low]
        for w in tied:
            for s in range(n):
                if s not in tied:
                    out[s] -= stake
                    out[w] += stake
        return out
    others = [s for s in range(n) if s != seat]
    if all(totals[seat] < totals[s] for s in others):  # TONK-DROP-2
        assert reason == "drop-won"
        for s in others:
            out[s] -= stake
            out[seat] += stake
        return out
    assert reason == "drop-caught"
    for s in others:  # TONK-DROP-3
        if totals[s] <= totals[seat]:
            out[seat] -= 2 * stake
            out[s] += 2 * stake
    low = min(totals[s] for s in others)  # TONK-DROP-4/5
    lowest = [s for s in others if totals[s] == low]
    for w in lowest:
        for s in others:
            if s not in lowest:
                out[s] -= stake
                out[w] += stake
    return out


@pytest.mark.parametrize(("n", "seed"), [(2, 7), (3, 8), (4, 9)])
def test_each_past_hand_pays_as_the_rules_and_shows_the_hands_held(n, seed):
    stake = 2
    game = cardcore.new_game("tonk", n, options=_opts(n, 10, stake=stake), seed=seed)
    held: dict[int, list[str]] = {}

    def remember(g, seat):
        held.clear()
        held.update({s: sorted(g.view(s)["table"]["hand"], key=_key) for s in range(n)})

    seen_hands = 0

    def check_new(g):
        nonlocal seen_hands
        hs = [h for h in g.history(0) if h["kind"] == "hand"]
        for h in hs[seen_hands:]:
            assert h["amounts"] == _expected_amounts(h, n, stake)
            if h["reason"].startswith("drop"):
                # what was shown is exactly what each seat held when the drop came
                assert h["shown"] == [held[s] for s in range(n)]
                assert h["totals"] == [
                    sum(min(_rank(c[:-1]), 10) for c in held[s]) for s in range(n)
                ]
        seen_hands = len(hs)

    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act[0]
        remember(game, seat)
        game.apply(rng.choice(game.legal_actions(seat)))
        check_new(game)
    assert seen_hands >= 10


def test_resign_and_end_between_hands_pay_the_balances_so_far():
    game = cardcore.new_game("tonk", 3, options={"hands": 3, "first_dealer": 0}, seed=21)
    game.act(1, "drop")
    bal = game.view(0)["table"]["balances"]
    assert sum(bal) == 0 and game.view(0)["table"]["phase"] == "between"
    resigned = game.clone()
    resigned.apply(cardcore.Resign(2))  # not the seat to act: resigning is always allowed
    assert list(resigned.result.payouts) == bal and resigned.result.reason == "resigned"
    assert set(resigned.result.winners) == {0, 1}
    ended = game.clone()
    ended.apply(cardcore.EndMatch())
    assert list(ended.result.payouts) == bal and ended.result.reason == "ended"
    assert set(ended.result.winners) == {s for s in range(3) if bal[s] == max(bal)}
    assert game.to_act == (1,) and not game.is_over  # the clones left the game alone
