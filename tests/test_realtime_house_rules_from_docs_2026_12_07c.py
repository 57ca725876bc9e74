"""House rules for Speed and Spit written from the docs alone (a new user's audit).

Three rules, each registered in-process with ``cardcore.register`` as
docs/plugin-guide/house-rule.rst shows, and always unregistered:

* SUITS-1 ``speed.suits-differ``: a card may not go onto a play pile whose top card
  has the same suit (a ``forbid_action`` veto; jokers have no suit and are never vetoed).
* PCAP-1 ``spit.pile-cap``: a spit pile that holds ``pile_cap`` cards takes no more
  plays (a veto steered by the rule's own bounded option).
* STATS-1 ``speed.play-stats``: an ``on_event`` listener counting each seat's plays.

Expected legal lists are derived by hand from seeds/spit.md (SPIT-MOVE-2/3/4,
SPIT-SETUP-1/4/7, SPEED-SETUP-3, SPEED-PLAY-1) and the stacked decks below.
"""

from __future__ import annotations

import contextlib
import re
import threading
import types
import warnings
from collections import Counter
from collections.abc import Iterator

import pytest

import cardcore
from cardcore import (
    CorruptStateError,
    IllegalActionError,
    Option,
    OptionError,
    PluginError,
    RuleConflictError,
    RuleInfo,
    StaleActionError,
    Veto,
    hookimpl,
)

# --------------------------------------------------------------------------- rules


@hookimpl
def suits_forbid_action(state, action):
    """SUITS-1: never a card onto a play pile topped by a card of its suit."""
    if action.verb != "play":
        return None
    pile = state.zones.id("pile." + "LR"[action.target])
    top = state.zones.top(pile)
    if top is None or top.is_joker or action.card.is_joker:
        return None
    if top.suit == action.card.suit:
        return Veto("SUITS-1", f"{action.card} may not go on {top}, a card of the same suit")
    return None


SUITS_RULE = RuleInfo(
    id="SUITS-1",
    name="speed.suits-differ",
    game="speed",
    summary="A card may not go onto a play pile whose top card has its suit",
)


@hookimpl
def cap_forbid_action(state, action):
    """PCAP-1: a spit pile holding pile_cap cards takes no more plays."""
    if action.verb != "play":
        return None
    cap = state.options["pile_cap"]
    pile = state.zones.id("pile." + "LR"[action.target])
    if len(state.zones.cards[pile]) >= cap:
        return Veto("PCAP-1", f"spit pile {'LR'[action.target]} already holds {cap} cards")
    return None


CAP_RULE = RuleInfo(
    id="PCAP-1",
    name="spit.pile-cap",
    game="spit",
    summary="A spit pile holding pile_cap cards takes no more plays",
    options=(
        Option(
            "pile_cap",
            default=26,
            minimum=2,
            maximum=52,
            rule_id="PCAP-1",
            doc="The most cards a spit pile holds before plays onto it stop",
        ),
    ),
)

PLAYS: Counter[int] = (
    Counter()
)  # STATS-1's statistics: plays per seat (module-level, as the docs' example)
EVENTS: Counter[str] = Counter()


@hookimpl
def stats_on_event(event):
    """STATS-1: count every applied play by seat, and every event by slug."""
    EVENTS[event.slug] += 1
    if event.slug == "action-applied" and event.action.startswith("play "):
        PLAYS[event.seat] += 1


STATS_RULE = RuleInfo(
    id="STATS-1", name="speed.play-stats", game="speed", summary="Count each seat's plays"
)


def _module(rule: RuleInfo, **hooks) -> types.ModuleType:
    module = types.ModuleType(rule.name.replace(".", "_").replace("-", "_"))
    module.RULE = rule
    vars(module).update(hooks)
    return module


@pytest.fixture
def registered():
    """Register modules by name for one test; always unregister them."""
    names: list[str] = []

    def register(rule: RuleInfo, **hooks) -> types.ModuleType:
        module = _module(rule, **hooks)
        cardcore.register("cardcore.rules", rule.name, module)
        names.append(rule.name)
        return module

    try:
        yield register
    finally:
        for name in reversed(names):
            cardcore.unregister("cardcore.rules", name)


@pytest.fixture
def suits(registered) -> Iterator[None]:
    registered(SUITS_RULE, forbid_action=suits_forbid_action)
    yield


@pytest.fixture
def pile_cap(registered) -> Iterator[None]:
    registered(CAP_RULE, forbid_action=cap_forbid_action)
    yield


@pytest.fixture
def stats(registered) -> Iterator[None]:
    registered(STATS_RULE, on_event=stats_on_event)
    PLAYS.clear()
    EVENTS.clear()
    yield


# --------------------------------------------------------------------------- decks

SIDES = "2S 3S 4S 7S 8S 2D 3D 7D 8D 9D"  # SPEED-SETUP-3: seat 0's five side cards, then seat 1's


def speed_deck(hand0: str, hand1: str) -> str:
    """Play piles JC (L) and 5D (R), the side cards, then the hands one card at a time."""
    cards = [c for pair in zip(hand0.split(), hand1.split(), strict=True) for c in pair]
    return " ".join(["JC", "5D", SIDES, *cards])


# Seat 0: 10C QD 4D 6S 2H; seat 1: KH KS 9H 9S 8H (none fits J or 5).
DECK_A = speed_deck("10C QD 4D 6S 2H", "KH KS 9H 9S 8H")
# Seat 0: QH JD 6S 2H 8H; seat 1: 10D KH KS 9H 9S.
DECK_B = speed_deck("QH JD 6S 2H 8H", "10D KH KS 9H 9S")

# docs/games/spit.rst's worked example (seeds/spit/first-deal.json): seat 0's tops
# 2H 3H 5H 8H QH with 4H under 3H, spit AH; seat 1's tops 4S 9S 2D 4D 5D, spit 6D.
SPIT_DECK = (
    "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
    "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
)


def spit_started(rules=(), options=None) -> cardcore.Game:
    game = cardcore.new_game("spit", 2, deck=SPIT_DECK, rules=rules, options=options, seed=1)
    game.act(0, "ready")
    game.act(1, "ready")
    return game


def snapshot(game: cardcore.Game):
    return game.version, game.position(), game.record()["actions"], game.view(0), game.view(1)


def race(game: cardcore.Game, moves: list[tuple[int, str]], seen: int) -> list[object]:
    """Apply *moves* from two threads at once, both on version *seen*."""
    barrier = threading.Barrier(len(moves))
    out: list[object] = [None] * len(moves)

    def run(i: int, seat: int, text: str) -> None:
        barrier.wait()
        try:
            out[i] = game.act(seat, text, seen=seen)
        except Exception as error:
            out[i] = error

    threads = [threading.Thread(target=run, args=(i, *m)) for i, m in enumerate(moves)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


# ============================================================== (a) SUITS-1, Speed


def test_suits_1_removes_same_suit_plays_from_legal(suits):
    # Without the rule: 10C and QD fit JC, 4D and 6S fit 5D (SPIT-MOVE-2), in hand order.
    plain = cardcore.new_game("speed", 2, deck=DECK_A, seed=5)
    assert plain.view(0)["legal"] == ["play 10C L", "play QD L", "play 4D R", "play 6S R", "stuck"]
    game = cardcore.new_game("speed", 2, deck=DECK_A, seed=5, rules=["speed.suits-differ"])
    # 10C on JC (clubs) and 4D on 5D (diamonds) go; QD on JC and 6S on 5D stay.
    assert game.view(0)["legal"] == ["play QD L", "play 6S R", "stuck"]
    assert game.view(1)["legal"] == ["stuck"]
    assert game.rules == ("speed.suits-differ",)


def test_suits_1_refusal_names_rule_and_changes_nothing(suits):
    game = cardcore.new_game("speed", 2, deck=DECK_A, seed=5, rules=["speed.suits-differ"])
    heard = []
    game.events.subscribe(cardcore.Event, heard.append)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"\(SUITS-1\)$"):
        game.act(0, "play 10C L", at=1.0)
    with pytest.raises(IllegalActionError, match=r"SUITS-1"):
        game.act(0, "play 4D R", at=1.0)
    assert snapshot(game) == before
    assert heard == []
    # The allowed play still goes, and the time 1.0 was not consumed by the refusals.
    game.act(0, "play QD L", at=1.0)
    assert game.view(None)["table"]["piles"]["L"][0] == "QD"


def test_suits_1_action_made_stale_by_the_veto(suits):
    game = cardcore.new_game("speed", 2, deck=DECK_B, seed=5, rules=["speed.suits-differ"])
    seen = game.version
    assert "play 10D L" in game.view(1)["legal"]  # 10D on JC: adjacent, suits differ
    game.act(0, "play QH L", seen=seen)  # Q on J
    game.act(0, "play JD L")  # J on Q, diamonds on hearts
    # 10D fits JD by rank, but both are diamonds: legal at `seen`, forbidden now.
    before = snapshot(game)
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.act(1, "play 10D L", seen=seen)
    with pytest.raises(IllegalActionError, match=r"SUITS-1") as info:
        game.act(1, "play 10D L")  # without seen: judged now, the veto cited
    assert not isinstance(info.value, StaleActionError)
    assert snapshot(game) == before
    # Without the rule the same sequence applies the 10D.
    plain = cardcore.new_game("speed", 2, deck=DECK_B, seed=5)
    for seat, text in [(0, "play QH L"), (0, "play JD L"), (1, "play 10D L")]:
        plain.act(seat, text, seen=0 if seat == 1 else None)
    assert plain.view(None)["table"]["piles"]["L"][0] == "10D"


def test_suits_1_stale_seen_at_current_version_is_judged_now(suits):
    game = cardcore.new_game("speed", 2, deck=DECK_A, seed=5, rules=["speed.suits-differ"])
    # Seen at the current version, a vetoed play is illegal (never legal at seen).
    with pytest.raises(IllegalActionError, match="SUITS-1") as info:
        game.act(0, "play 10C L", seen=game.version)
    assert not isinstance(info.value, StaleActionError)


def test_suits_1_two_threads_race_one_wins(suits):
    game = cardcore.new_game("speed", 2, deck=DECK_B, seed=5, rules=["speed.suits-differ"])
    assert game.version == 0
    # Both fit JC; after either, the other no longer fits (Q/10 not adjacent).
    out = race(game, [(0, "play QH L"), (1, "play 10D L")], seen=0)
    applied = [o for o in out if not isinstance(o, Exception)]
    stale = [o for o in out if isinstance(o, StaleActionError)]
    assert len(applied) == 1 and len(stale) == 1, out
    assert game.version == 1
    assert len(game.record()["actions"]) == 1


def test_suits_1_record_and_save_replay_and_load(suits):
    game = cardcore.new_game("speed", 2, deck=DECK_B, seed=5, rules=["speed.suits-differ"])
    game.act(0, "play QH L", at=0.5)
    game.act(0, "play JD L", at=0.9)
    record, saved = game.record(), game.save()
    assert [r["name"] for r in record["rules"]] == ["speed.suits-differ"]
    again = cardcore.replay(record)
    assert again.position() == game.position()
    assert again.view(1)["legal"] == game.view(1)["legal"]
    assert "play 10D L" not in again.view(1)["legal"]  # the veto still applies after replay
    loaded = cardcore.load(saved)
    assert loaded.rules == ("speed.suits-differ",)
    with pytest.raises(IllegalActionError, match="SUITS-1"):
        loaded.act(1, "play 10D L")


def test_suits_1_record_fails_clearly_once_unregistered():
    cardcore.register(
        "cardcore.rules",
        "speed.suits-differ",
        _module(SUITS_RULE, forbid_action=suits_forbid_action),
    )
    try:
        game = cardcore.new_game("speed", 2, deck=DECK_B, seed=5, rules=["speed.suits-differ"])
        game.act(0, "play QH L", at=0.5)
        record, saved = game.record(), game.save()
    finally:
        cardcore.unregister("cardcore.rules", "speed.suits-differ")
    with pytest.raises(CorruptStateError, match=re.escape("speed.suits-differ")):
        cardcore.replay(record)
    with pytest.raises(CorruptStateError, match=re.escape("speed.suits-differ")):
        cardcore.load(saved)


def test_suits_1_unregistered_save_error_names_a_saved_game():
    cardcore.register(
        "cardcore.rules",
        "speed.suits-differ",
        _module(SUITS_RULE, forbid_action=suits_forbid_action),
    )
    try:
        saved = cardcore.new_game(
            "speed", 2, deck=DECK_B, seed=5, rules=["speed.suits-differ"]
        ).save()
    finally:
        cardcore.unregister("cardcore.rules", "speed.suits-differ")
    with pytest.raises(CorruptStateError) as info:
        cardcore.load(saved)
    assert str(info.value).startswith("saved game's record needs house rule 'speed.suits-differ'")


def test_suits_1_clone_and_determinize_keep_the_veto(suits):
    game = cardcore.new_game("speed", 2, deck=DECK_A, seed=5, rules=["speed.suits-differ"])
    twin = game.clone()
    assert twin.rules == game.rules
    assert twin.view(0)["legal"] == ["play QD L", "play 6S R", "stuck"]
    with pytest.raises(IllegalActionError, match="SUITS-1"):
        twin.act(0, "play 10C L")
    world = game.determinize(0, seed=3)
    assert world.view(0) == game.view(0)
    assert world.view(0)["legal"] == ["play QD L", "play 6S R", "stuck"]


def test_suits_1_check_game_passes(suits):
    from cardcore.testing import check_game

    report = check_game("speed", rules=["speed.suits-differ"], games=1, samples_per_game=3)
    assert report.ok
    assert "scores" in report.skipped  # Speed scores no rounds


def test_suits_1_simulate_runs_with_the_rule(registered):
    vetoed: list[str] = []

    @hookimpl
    def spy(state, action):
        veto = suits_forbid_action(state, action)
        if veto is not None:
            vetoed.append(str(action))
        return veto

    registered(SUITS_RULE, forbid_action=spy)
    summary = cardcore.simulate("speed", games=3, rules=["speed.suits-differ"], seed=1)
    assert summary.games == 3 and summary.truncated == 0
    assert vetoed  # the rule was consulted and vetoed something in the simulated games
    assert all(text.startswith("play ") for text in vetoed)


def test_speed_score_round_rule_changes_nothing_silently(registered):
    # house-rule.rst: a score_round rule changes nothing in Speed or Spit, no error, no warning.
    @hookimpl
    def score_round(state, scores):
        raise AssertionError("Speed never scores a round")

    registered(
        RuleInfo(id="DOCS-SR-1", name="speed.loser-pays", game="speed", summary="x"),
        score_round=score_round,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        game = cardcore.new_game("speed", 2, rules=["speed.loser-pays"], seed=2)
    plain = cardcore.new_game("speed", 2, seed=2)
    a = cardcore.simulate("speed", games=2, rules=["speed.loser-pays"], seed=4)
    b = cardcore.simulate("speed", games=2, seed=4)
    assert (a.wins, a.mean_scores) == (b.wins, b.mean_scores)
    assert game.position() == plain.position()


# ============================================================== (b) PCAP-1, Spit


def test_pcap_1_cap_stops_plays_onto_a_full_pile(pile_cap):
    plain = spit_started()
    assert plain.view(0)["legal"] == ["play 1 L", "play 3 R", "spit"]
    game = spit_started(["spit.pile-cap"], {"pile_cap": 2})
    assert game.view(0)["legal"] == ["play 1 L", "play 3 R", "spit"]  # L holds 1 (AH)
    game.act(0, "play 1 L")  # 2H on AH: L holds 2
    # 3H (pile 2) fits 2H by rank, but L is full; 5H still goes onto 6D; pile 1 is empty.
    legal = game.view(0)["legal"]
    assert "play 2 L" not in legal and legal[0] == "play 3 R"
    plain.act(0, "play 1 L")
    assert "play 2 L" in plain.view(0)["legal"]
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"\(PCAP-1\)$"):
        game.act(0, "play 2 L")
    assert snapshot(game) == before


def test_pcap_1_option_bounds_defaults_and_records(pile_cap):
    game = cardcore.new_game("spit", 2, rules=["spit.pile-cap"], seed=1)
    assert game.options["pile_cap"] == 26
    game = cardcore.new_game("spit", 2, rules=["spit.pile-cap"], options={"pile_cap": 7}, seed=1)
    assert game.record()["options"]["pile_cap"] == 7
    assert cardcore.replay(game.record()).options["pile_cap"] == 7
    assert cardcore.load(game.save()).options["pile_cap"] == 7
    for bad in (1, 53, 2.5, "3", True, None):
        with pytest.raises(OptionError, match=r"pile_cap.*\(PCAP-1\)$"):
            cardcore.new_game("spit", 2, rules=["spit.pile-cap"], options={"pile_cap": bad})
    with pytest.raises(OptionError, match=r"spit\.pile-cap"):
        cardcore.new_game("spit", 2, options={"pile_cap": 3})


def test_pcap_1_stale_when_the_cap_is_reached(pile_cap):
    # Seat 1's tops: 4S 9S KS 3D 5D (SPIT-SETUP-4/7); seat 0's pile 3 is 5H over 6H over 7H.
    game = spit_started(["spit.pile-cap"], {"pile_cap": 3})
    seen = game.version
    assert "play 5 R" in game.view(1)["legal"]  # 5D on 6D
    game.act(0, "play 3 R")  # 5H on 6D; 6H turns up
    game.act(0, "play 3 R")  # 6H on 5H: R = 6D 5H 6H, full at 3
    before = snapshot(game)
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.act(1, "play 5 R", seen=seen)  # 5D fits 6H by rank, legal at seen
    with pytest.raises(IllegalActionError, match="PCAP-1"):
        game.act(1, "play 5 R")
    assert snapshot(game) == before
    plain = spit_started()
    plain.act(0, "play 3 R")
    plain.act(0, "play 3 R")
    plain.act(1, "play 5 R", seen=seen)  # without the cap the late 5D lands on 6H
    assert plain.view(None)["table"]["piles"]["R"][0] == "5D"


def test_pcap_1_same_version_race_between_seats(pile_cap):
    game = spit_started(["spit.pile-cap"], {"pile_cap": 2})
    seen = game.version
    # 2H (seat 0) and KS (seat 1, pile 3) both fit AH (ranks wrap); neither fits the other.
    out = race(game, [(0, "play 1 L"), (1, "play 3 L")], seen=seen)
    assert sum(isinstance(o, StaleActionError) for o in out) == 1, out
    assert game.version == seen + 1


def test_pcap_1_record_replays_and_fails_clearly_when_unregistered():
    cardcore.register(
        "cardcore.rules", "spit.pile-cap", _module(CAP_RULE, forbid_action=cap_forbid_action)
    )
    try:
        game = spit_started(["spit.pile-cap"], {"pile_cap": 2})
        game.act(0, "play 1 L", at=1.0)
        record, saved = game.record(), game.save()
        again = cardcore.replay(record)
        assert again.position() == game.position()
        assert cardcore.load(saved).view(0)["legal"] == game.view(0)["legal"]
        twin = game.clone()
        with pytest.raises(IllegalActionError, match="PCAP-1"):
            twin.act(0, "play 2 L")
        assert game.determinize(1, seed=2).view(1)["legal"] == game.view(1)["legal"]
    finally:
        cardcore.unregister("cardcore.rules", "spit.pile-cap")
    with pytest.raises(CorruptStateError, match=re.escape("spit.pile-cap")):
        cardcore.replay(record)
    with pytest.raises(CorruptStateError, match=re.escape("spit.pile-cap")):
        cardcore.load(saved)


def test_pcap_1_check_game_and_simulate(pile_cap):
    from cardcore.testing import check_game

    report = check_game("spit", rules=["spit.pile-cap"], games=1, samples_per_game=2)
    assert report.ok
    summary = cardcore.simulate(
        "spit",
        games=1,
        rules=["spit.pile-cap"],
        options={"pile_cap": 26},
        agents="spit-greedy",
        seed=2,
    )
    assert summary.games == 1 and summary.truncated == 0


# ============================================================== (c) STATS-1, Speed observer


def test_stats_1_counts_plays_and_is_hushed_on_copies(stats):
    from cardcore_spit.agents import SpitGreedyAgent

    game = cardcore.new_game("speed", 2, rules=["speed.play-stats"], seed=11)
    cardcore.run_realtime(game, [SpitGreedyAgent(seed=1), SpitGreedyAgent(seed=2)], seed=11)
    expected = Counter(
        seat for seat, text, _ in game.record()["actions"] if text.startswith("play ")
    )
    assert expected == PLAYS and sum(expected.values()) > 0
    assert EVENTS["action-applied"] == game.version
    assert EVENTS["game-started"] == 1 and EVENTS["game-ended"] == 1
    heard = (Counter(PLAYS), Counter(EVENTS))
    cardcore.replay(game.record())
    assert heard == (PLAYS, EVENTS)  # replays are hushed


def test_stats_1_load_is_hushed_then_play_is_heard(stats):
    game = cardcore.new_game("speed", 2, deck=DECK_A, seed=5, rules=["speed.play-stats"])
    game.act(0, "play QD L")
    assert Counter({0: 1}) == PLAYS
    clone = game.clone()
    loaded = cardcore.load(game.save())
    assert Counter({0: 1}) == PLAYS
    clone.act(0, clone.view(0)["legal"][0])  # a clone is hushed
    assert Counter({0: 1}) == PLAYS
    text = loaded.view(0)["legal"][0]
    assert text.startswith("play ")
    loaded.act(0, text)  # what is played after a load is heard
    assert Counter({0: 2}) == PLAYS


def test_stats_1_refused_action_publishes_nothing(stats, suits):
    game = cardcore.new_game(
        "speed", 2, deck=DECK_A, seed=5, rules=["speed.play-stats", "speed.suits-differ"]
    )
    assert game.rules == (
        "speed.play-stats",
        "speed.suits-differ",
    )  # sorted by rule ID: STATS-1 < SUITS-1
    before = Counter(EVENTS)
    with pytest.raises(IllegalActionError, match="SUITS-1"):
        game.act(0, "play 10C L")
    assert before == EVENTS and not PLAYS


def test_stats_1_on_event_wrapper_is_refused(registered):
    @hookimpl(wrapper=True)
    def on_event(event):
        return (yield)

    registered(
        RuleInfo(id="STATS-2", name="speed.wrapped-stats", game="speed", summary="x"),
        on_event=on_event,
    )
    with pytest.raises(PluginError, match=re.escape("speed.wrapped-stats")):
        cardcore.new_game("speed", 2, rules=["speed.wrapped-stats"], seed=1)


# ============================================================== conflicts, requires, mistakes


def test_conflicts_and_requires(registered, suits):
    registered(
        RuleInfo(
            id="SAME-1", name="speed.suits-match", game="speed", summary="x", conflicts=("SUITS-1",)
        ),
        forbid_action=suits_forbid_action,
    )
    registered(
        RuleInfo(
            id="NEEDS-1",
            name="speed.needs-suits",
            game="speed",
            summary="x",
            requires=("speed.suits-differ",),
        ),
        forbid_action=suits_forbid_action,
    )
    with pytest.raises(RuleConflictError, match=r"SAME-1.*SUITS-1|SUITS-1.*SAME-1"):
        cardcore.new_game("speed", 2, rules=["speed.suits-differ", "speed.suits-match"])
    with pytest.raises(RuleConflictError):
        cardcore.new_game("speed", 2, rules=["speed.needs-suits"])
    game = cardcore.new_game("speed", 2, rules=["speed.needs-suits", "SUITS-1"], seed=1)
    assert set(game.rules) == {"speed.needs-suits", "speed.suits-differ"}


def test_mistake_rule_option_named_like_a_game_option(registered):
    bad = RuleInfo(
        id="PCAP-9",
        name="spit.bad-cap",
        game="spit",
        summary="x",
        options=(Option("stall_limit", default=5, minimum=1, maximum=9),),
    )
    registered(bad, forbid_action=cap_forbid_action)
    with pytest.raises(PluginError):
        cardcore.new_game("spit", 2, rules=["spit.bad-cap"], seed=1)


def test_mistakes_typo_unmarked_and_bad_veto(registered):
    @hookimpl
    def forbid_actoin(state, action):
        return None

    def forbid_action(state, action):  # no @hookimpl
        return None

    @hookimpl
    def empty_id(state, action):
        return Veto("", "no id") if action.verb == "play" else None

    registered(
        RuleInfo(id="TYPO-1", name="speed.typo", game="speed", summary="x"),
        forbid_actoin=forbid_actoin,
    )
    registered(
        RuleInfo(id="MARK-1", name="speed.unmarked", game="speed", summary="x"),
        forbid_action=forbid_action,
    )
    registered(
        RuleInfo(id="EMPTY-1", name="speed.empty-id", game="speed", summary="x"),
        forbid_action=empty_id,
    )
    with pytest.raises(PluginError, match="did you mean 'forbid_action'"):
        cardcore.new_game("speed", 2, rules=["speed.typo"])
    with pytest.raises(PluginError, match="without @hookimpl"):
        cardcore.new_game("speed", 2, rules=["speed.unmarked"])
    game = cardcore.new_game("speed", 2, deck=DECK_A, rules=["speed.empty-id"], seed=5)
    before = game.position()
    with pytest.raises(PluginError, match=re.escape("speed.empty-id")):
        game.legal_actions(0)
    assert game.position() == before


def test_mistake_name_mismatch_is_refused(registered):
    module = _module(
        RuleInfo(id="MIS-1", name="speed.other-name", game="speed", summary="x"),
        forbid_action=suits_forbid_action,
    )
    try:
        with pytest.raises(PluginError):
            cardcore.register("cardcore.rules", "speed.published-name", module)
            cardcore.new_game("speed", 2, rules=["speed.published-name"])
    finally:
        with contextlib.suppress(Exception):  # refused at register: nothing to remove
            cardcore.unregister("cardcore.rules", "speed.published-name")


def test_mistake_veto_that_moves_a_card_is_refused_and_restored(registered):
    @hookimpl
    def thief(state, action):
        pile = state.zones.id("pile.L")
        if action.verb == "play" and len(state.zones.cards[pile]) > 0:
            state.zones.cards[pile].pop()
        return None

    registered(
        RuleInfo(id="THIEF-1", name="speed.thief", game="speed", summary="x"), forbid_action=thief
    )
    game = cardcore.new_game("speed", 2, deck=DECK_A, rules=["speed.thief"], seed=5)
    before = game.position()
    with pytest.raises(PluginError, match=re.escape("speed.thief")):
        game.act(0, "play QD L")
    assert game.position() == before


def test_mistake_hook_calling_back_into_the_game(registered):
    holder: dict[str, cardcore.Game] = {}

    @hookimpl
    def reentrant(state, action):
        if "game" in holder:
            holder["game"].view(0)
        return None

    registered(
        RuleInfo(id="RE-1", name="speed.reentrant", game="speed", summary="x"),
        forbid_action=reentrant,
    )
    game = cardcore.new_game("speed", 2, deck=DECK_A, rules=["speed.reentrant"], seed=5)
    holder["game"] = game
    before = game.position()
    with pytest.raises(PluginError, match=re.escape("speed.reentrant")):
        game.act(0, "play QD L")
    assert game.position() == before
