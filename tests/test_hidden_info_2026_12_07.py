"""Hidden-information audit after the 2026-12-07 changes to how hands show.

Every surface a seat (or a spectator) reads is checked against the true state:
views (zones, table, legal), history, per-seat event streams, error messages,
RL observations and masks, search agents' sampled positions and the web
server's WebSocket frames. A shown card must be one the seat knows
(``Zones.knows``); a face-up hand must not show the order it was drawn in; and
what the rules make public must be shown.

A "twin" of a game is a copy in which two cards the seat does not know swap
places: the seat cannot tell the two apart, so nothing it reads may differ.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import SPECTATOR, Card, Event, Game
from cardcore.cards import Suit
from cardcore.search import ISMCTSAgent, sample_position
from cardcore.zones import ALL, Visibility

DOCS = Path(__file__).resolve().parents[1] / "docs"
CARD_RE = re.compile(r"(?<![0-9A-Z])(?:10|[2-9AJQK])[SHDC](?![0-9A-Z])|(?<![A-Z])JK(?![A-Z])")

# (game, players, options, rules): every game, every Golf layout, Tonk with house rules
CONFIGS: list[tuple[str, int, dict[str, Any], tuple[str, ...]]] = [
    *[("golf", 2, {"layout": lay, "rounds": 2}, ()) for lay in (6, 8, 9, 10, "4", "4h")],
    ("golf", 3, {"layout": "4h", "rounds": 2}, ("golf.jokers",)),
    ("golf", 3, {"layout": "4", "rounds": 2}, ("golf.peek-nearest",)),
    ("spit", 2, {}, ()),
    ("speed", 2, {}, ()),
    ("tonk", 3, {"hands": 4}, ()),
    ("tonk", 2, {"hands": 4}, ("tonk.deal-shows-every-hand",)),
    ("tonk", 3, {"hands": 3}, ("tonk.no-upcard", "tonk.hit-blocks-drop", "tonk.must-lay-down")),
    ("tonk", 3, {"hands": 3}, ("tonk.deal-shows-every-hand", "tonk.stock-out-discard-only")),
    ("tonk", 3, {"hands": 3}, ("tonk.void-deal-counts", "tonk.double-needs-spread")),
    ("golf", 2, {"layout": 6, "rounds": 2}, ("golf.remove-columns",)),
    ("golf", 2, {"layout": 9, "rounds": 2}, ("golf.remove-triples", "golf.reveal-same-column")),
    ("spit", 2, {}, ("spit.canfield",)),
    ("spit", 2, {}, ("spit.chooser", "spit.same-rank")),
    ("speed", 2, {}, ("speed.stuck-on-request",)),
]
IDS = [f"{g}-{n}-{o.get('layout', '')}-{'+'.join(r)}" for g, n, o, r in CONFIGS]
SUITS = list(Suit)


def _by_rank(card: Card) -> tuple[int, int]:
    return (int(card.rank), -1 if card.suit is None else SUITS.index(card.suit))


def is_card(text: Any) -> bool:
    if not isinstance(text, str) or not CARD_RE.fullmatch(text):
        return False
    try:
        return Card.parse(text).text == text
    except cardcore.CardcoreError:
        return False


def cards_in(obj: Any) -> list[str]:
    """Every card named anywhere in *obj* (Card objects, card texts, nested containers)."""
    if isinstance(obj, Card):
        return [obj.text]
    if isinstance(obj, str):
        return [obj] if is_card(obj) else []
    if isinstance(obj, dict):
        return [c for v in obj.values() for c in cards_in(v)]
    if isinstance(obj, (list, tuple)):
        return [c for v in obj for c in cards_in(v)]
    return []


def known(game: Game, seat: int | None) -> set[str]:
    """The cards *seat* knows where they lie now (``None``: a spectator)."""
    zones = game.state.zones
    return {
        c.text
        for z, pile in enumerate(zones.cards)
        for i, c in enumerate(pile)
        if zones.knows(z, i, seat)
    }


def play(
    name: str,
    players: int,
    options: dict[str, Any],
    rules: tuple[str, ...],
    seed: int,
    *,
    limit: int = 300,
    subscribers: tuple[Any, ...] = (),
) -> Iterator[Game]:
    """Yield a seeded random game after the deal and after each action."""
    game = cardcore.new_game(
        name, players, rules=rules, options=options, seed=seed, subscribers=subscribers
    )
    rng = random.Random(seed)
    yield game
    for _ in range(limit):
        if game.is_over:
            return
        seat = rng.choice(game.to_act)
        legal = game.legal_actions(seat)
        if legal:
            game.apply(rng.choice(legal))
            yield game


def view_problems(game: Game, seat: int | None) -> list[tuple[Any, ...]]:
    """What *seat*'s view shows that it may not know, or shows in a telling order."""
    problems: list[tuple[Any, ...]] = []
    view = game.view(seat)
    zones = game.state.zones
    kn = known(game, seat)
    for z, (entry, spec) in enumerate(zip(view["zones"], zones.layout.specs, strict=True)):
        pile, masks, shown = zones.cards[z], zones.seen[z], entry["cards"]
        if spec.visibility is Visibility.OWNER and pile and masks.count(ALL) == len(pile):
            ordered = reversed(pile) if spec.ordered else sorted(pile, key=_by_rank)
            if shown != [c.text for c in ordered]:
                problems.append(("face-up hand order", spec.name, shown))
            continue
        if (
            spec.visibility is Visibility.OWNER
            and not spec.ordered
            and seat != spec.owner
            and any(shown)
        ):
            problems.append(("hand shown", spec.name, shown))
        for k, (text, card) in enumerate(zip(shown, reversed(pile), strict=True)):
            if text is not None and (
                text != card.text or not zones.knows(z, len(pile) - 1 - k, seat)
            ):
                problems.append(("zone", spec.name, text))
    problems += [("table", c) for c in cards_in(view["table"]) if c not in kn]
    problems += [("legal", c) for c in cards_in(view["legal"]) if c not in kn]
    return problems


def hidden_swap(game: Game, seat: int | None, rng: random.Random) -> Game | None:
    """A twin of *game*: two distinct cards *seat* does not know swapped (None if none)."""
    zones = game.state.zones
    places = [
        (z, i)
        for z, pile in enumerate(zones.cards)
        for i in range(len(pile))
        if not zones.knows(z, i, seat)
    ]
    rng.shuffle(places)
    for a in places:
        for b in places:
            ca, cb = zones.cards[a[0]][a[1]], zones.cards[b[0]][b[1]]
            if a[0] != b[0] and ca.text != cb.text:
                twin = game.clone()
                tz = twin.state.zones.cards
                tz[a[0]][a[1]], tz[b[0]][b[1]] = cb, ca
                return twin
    return None


def seats(game: Game) -> list[int | None]:
    return [None, *range(len(game.players))]


# -- views ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players", "options", "rules"), CONFIGS, ids=IDS)
def test_every_view_shows_only_known_cards_and_face_up_hands_sorted(
    name: str, players: int, options: dict[str, Any], rules: tuple[str, ...]
) -> None:
    """CORE-HIDDEN-1: "A seat's view and its event stream never hold a card that seat has
    not legitimately seen; a spectator's hold only public cards." Visibility.OWNER: a hand
    known to all "then every seat sees it, sorted by rank and suit (not in the order it was
    drawn), unless its ZoneSpec is ``ordered``"."""
    problems = []
    faceup = 0
    for seed in range(4):
        for game in play(name, players, options, rules, seed):
            zones = game.state.zones
            faceup += sum(
                1
                for z, s in enumerate(zones.layout.specs)
                if s.visibility is Visibility.OWNER
                and zones.cards[z]
                and zones.seen[z].count(ALL) == len(zones.cards[z])
            )
            for seat in seats(game):
                problems += [(seed, game.version, seat, *p) for p in view_problems(game, seat)]
    assert problems == []
    if name == "tonk":  # a drop or the stock out: hands turned face up
        assert faceup > 0


@pytest.mark.parametrize(("name", "players", "options", "rules"), CONFIGS[::2], ids=IDS[::2])
def test_a_seat_cannot_tell_twins_apart_in_views_legal_or_rl(
    name: str, players: int, options: dict[str, Any], rules: tuple[str, ...]
) -> None:
    """rl/encoding: "An encoding reads only the seat's view, never the state, so two states
    the seat cannot tell apart encode alike"; CORE-HIDDEN-1 for views and legal actions:
    swapping two cards the seat does not know changes nothing it reads."""
    from cardcore.rl import Observer, encoding_for

    rng = random.Random(5)
    checked = 0
    for game in play(name, players, options, rules, 11, limit=120):
        if game.version % 6 or game.is_over:
            continue
        observer = Observer(encoding_for(game))
        for seat in seats(game):
            twin = hidden_swap(game, seat, rng)
            if twin is None:
                continue
            checked += 1
            assert twin.view(seat) == game.view(seat), (seat, game.version)
            assert twin.history(seat) == game.history(seat)
            if seat is None:
                continue
            legal = game.legal_actions(seat)
            assert [str(a) for a in twin.legal_actions(seat)] == [str(a) for a in legal]
            obs, mask, _ = observer.arrays(game, seat, legal)
            obs2, mask2, _ = observer.arrays(twin, seat, twin.legal_actions(seat))
            assert (obs == obs2).all() and (mask == mask2).all()
    assert checked > 3


def test_face_up_hand_shows_the_same_whatever_order_it_was_drawn_in() -> None:
    """Visibility.OWNER: a hand known to all shows "sorted by rank and suit (not in the
    order it was drawn)" to every seat, its owner included; Tonk after a drop."""
    checked = 0
    for seed in range(40):
        game = cardcore.new_game("tonk", 3, options={"hands": 2}, seed=seed)
        if game.view(None)["table"]["phase"] != "start":
            continue
        game.act(game.to_act[0], "drop")
        twin = game.clone()
        for z, spec in enumerate(twin.state.zones.layout.specs):
            if spec.name.startswith("hand."):
                twin.state.zones.cards[z].reverse()
                twin.state.zones.cards[z][:2] = twin.state.zones.cards[z][1::-1]
        for seat in seats(game):
            assert twin.view(seat)["zones"] == game.view(seat)["zones"]
            for zone in game.view(seat)["zones"]:
                if zone["name"].startswith("hand."):
                    cards = [Card.parse(c) for c in zone["cards"]]
                    assert cards == sorted(cards, key=_by_rank)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_golf_4h_face_up_hand_keeps_its_positions() -> None:
    """ZoneSpec.ordered: "an OWNER pile turned face up then shows in its own order, not
    sorted" (Golf 4h's hand slots keep their number, GOLF-4H)."""
    game = cardcore.new_game("golf", 2, options={"layout": "4h", "rounds": 1}, seed=3)
    zones = game.state.zones
    z = zones.id("grid.1")
    assert zones.layout.specs[z].ordered
    zones.seen[z] = [ALL] * len(zones.cards[z])  # every card known to all
    want = [c.text for c in reversed(zones.cards[z])]
    for seat in seats(game):
        shown = next(p for p in game.view(seat)["zones"] if p["name"] == "grid.1")["cards"]
        assert shown == want
        assert game.view(seat)["table"]["grids"][1] == want[::-1]


def test_golf_4h_taken_discard_shows_in_the_zones_as_in_the_table() -> None:
    """GOLF4-TURN-3 (rules decisions): "a discard taken into a grid is public knowledge of
    that position"; web docs: "Every game is drawn from the declared view structure: the
    view's zones ... and the fields"."""
    found = 0
    for seed in range(10):
        for game in play("golf", 2, {"layout": "4h", "rounds": 1}, (), seed):
            zones = game.state.zones
            z = zones.id("grid.1")
            masks = zones.seen[z]
            if ALL in masks and masks.count(ALL) < len(masks):
                view = game.view(0)
                table = view["table"]["grids"][1]
                shown = next(p for p in view["zones"] if p["name"] == "grid.1")["cards"]
                assert table != [None] * len(table)  # the table shows the taken card
                found += 1
                assert shown[::-1] == table
        if found:
            break
    assert found


# -- Tonk's showings ------------------------------------------------------------------------


def _natural_seed() -> int:
    for seed in range(1000):
        game = cardcore.new_game("tonk", 3, options={"hands": 2}, seed=seed)
        if len(game.history(None)) > 1 and game.history(None)[1]["reason"] == "natural":
            return seed
    raise AssertionError("no natural in 1000 deals")


@pytest.mark.parametrize("every", [False, True], ids=["holder-only", "deal-shows-every-hand"])
def test_tonk_natural_shows_only_the_holders_hand(every: bool) -> None:
    """TONK-49-1: "any player whose five cards total exactly 49 or 50 shows them (only
    theirs: the other hands stay hidden)"; TONK-VAR-8 (``tonk.deal-shows-every-hand``):
    "a natural or a void deal shows every hand". Views, history and events agree."""
    seed = _natural_seed()
    streams: dict[Any, list[Event]] = {s: [] for s in (0, 1, 2, SPECTATOR)}
    rules = ("tonk.deal-shows-every-hand",) if every else ()
    game = cardcore.new_game(
        "tonk",
        3,
        options={"hands": 2},
        rules=rules,
        seed=seed,
        subscribers=[(Event, streams[s].append, s) for s in streams],
    )
    entry = game.history(None)[1]
    holder = entry["seat"]
    for seat in seats(game):
        hands = [p["cards"] for p in game.view(seat)["zones"] if p["name"].startswith("hand.")]
        for owner, cards in enumerate(hands):
            if every or owner in (holder, seat):
                assert None not in cards
            else:
                assert cards == [None] * 5, (seat, owner)
        assert game.history(seat)[1] == entry
    assert (entry["shown"][1 - holder] is None) is not every
    for seat, events in streams.items():
        ended = [e.to_json() for e in events if e.slug.endswith("hand-ended")]
        assert [e["shown"] for e in ended] == [entry["shown"]], seat
    game.act(game.to_act[0], "deal")
    for seat in seats(game):
        for p in game.view(seat)["zones"]:
            if p["name"].startswith("hand.") and int(p["name"][5:]) != seat:
                assert set(p["cards"]) == {None}


def test_tonk_void_deal_shows_only_the_naturals() -> None:
    """TONK-49-2: "If two or more players hold 49 or 50, the hand is void: no payments, the
    naturals' hands are shown (the others are not)"."""
    top = [
        "10S",
        "10H",
        "2C",
        "JS",
        "JH",
        "3C",
        "QS",
        "QH",
        "4C",
        "KS",
        "KH",
        "5C",
        "10C",
        "10D",
        "6C",
    ]
    rest = [
        f"{r}{s}"
        for s in "SHDC"
        for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    ]
    deck = " ".join(top + [c for c in rest if c not in top])
    game = cardcore.new_game("tonk", 3, options={"hands": 2, "first_dealer": 0}, deck=deck, seed=1)
    entry = game.history(None)[-1]
    assert entry["reason"] == "void" and entry["shown"][0] is None
    for seat in seats(game):
        hands = [p["cards"] for p in game.view(seat)["zones"] if p["name"].startswith("hand.")]
        assert hands[1] == entry["shown"][1] and hands[2] == entry["shown"][2]
        assert (None in hands[0]) is (seat != 0)


def test_tonk_hands_shown_at_a_drop_stay_face_up_until_the_next_deal() -> None:
    """TONK-VIEW-1: "When a hand ends by a drop or stock exhaustion, every hand is turned
    face up ... A hand turned face up shows in every view until the next deal"."""
    checked = 0
    for seed in range(30):
        game = cardcore.new_game("tonk", 3, options={"hands": 2}, seed=seed)
        if game.view(None)["table"]["phase"] != "start":
            continue
        game.act(game.to_act[0], "drop")
        truth = [
            sorted(game.state.zones.cards[game.state.zones.id(f"hand.{s}")], key=_by_rank)
            for s in range(3)
        ]
        for seat in seats(game):
            shown = [p["cards"] for p in game.view(seat)["zones"] if p["name"].startswith("hand.")]
            assert shown == [[c.text for c in h] for h in truth]
        game.act(game.to_act[0], "deal")
        for seat in seats(game):
            for p in game.view(seat)["zones"]:
                if p["name"].startswith("hand.") and p["name"] != f"hand.{seat}":
                    assert set(p["cards"]) == {None}
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_tonk_taken_discard_is_known_to_all_and_shown_while_taken() -> None:
    """Tonk docs: "A card taken from the discard pile is known to everybody (``taken``)"."""
    checked = 0
    for seed in range(20):
        game = cardcore.new_game("tonk", 3, options={"hands": 1}, seed=seed)
        if game.view(None)["table"]["phase"] != "start":
            continue
        top = game.view(None)["table"]["discard_top"]
        seat = game.to_act[0]
        game.act(seat, "take")
        for s in seats(game):
            assert game.view(s)["table"]["taken"] == top
            assert top in known(game, s)
        checked += 1
    assert checked > 5


# -- history and events ---------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players", "options", "rules"), CONFIGS, ids=IDS)
def test_event_streams_and_history_carry_only_known_cards(
    name: str, players: int, options: dict[str, Any], rules: tuple[str, ...]
) -> None:
    """Events: "Subscribing with ``seat=`` delivers that seat's redacted copies ...
    SPECTATOR delivers the public stream" (CORE-HIDDEN-1). Every card an event gives a
    seat is one it knew before the action, knows after it, or that the action made public
    in the history (a round's revealed layouts, a hand's shown hands)."""
    streams: dict[Any, list[Event]] = {s: [] for s in [*range(players), SPECTATOR]}
    subs = tuple((Event, streams[s].append, s) for s in streams)
    problems = []
    for seed in range(3):
        for lst in streams.values():
            lst.clear()
        before: dict[Any, set[str]] = {}
        hist_len: dict[Any, int] = {}
        for game in play(name, players, options, rules, seed, subscribers=subs):
            public = [game.history(s) for s in seats(game)]
            if name in ("golf", "tonk"):  # "every seat (and a spectator) sees the same"
                assert all(h == public[0] for h in public)
            for s, events in streams.items():
                who = None if s == SPECTATOR else s
                now = known(game, who)
                hist = game.history(who)
                grew = len(hist) != hist_len.get(s, 0)
                allowed = before.get(s, set()) | now | set(cards_in(hist))
                for e in events:
                    if grew and e.slug == "card-discarded":
                        continue  # the round's last discard: public, then gathered at once
                    problems += [
                        (seed, game.version, s, e) for c in cards_in(e.fields()) if c not in allowed
                    ]
                events.clear()
                before[s], hist_len[s] = now, len(hist)
    assert problems == []


# -- error messages -------------------------------------------------------------------------

WORDS = (
    "draw", "take", "discard", "knock", "replace 0", "flip 1", "peek 2", "play 1 L", "spit",
    "stuck", "ready", "fill 1 2", "deal", "drop", "hit 1 AS", "spread AS 2S 3S", "slap L",
)  # fmt: skip


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("golf", {"layout": "4"}),
        ("golf", {"layout": "4h"}),
        ("spit", {}),
        ("speed", {}),
        ("tonk", {"hands": 3}),
    ],
)
def test_error_messages_name_no_hidden_card(name: str, options: dict[str, Any]) -> None:
    """Embedding docs: a rejected action's message "ends with the ID of the rule that
    forbids it"; CORE-HIDDEN-1: it may name no card the acting seat has not seen (other
    than those it typed), e.g. no hidden hand card and no stock card."""
    problems = []
    for game in play(name, 2 if name != "tonk" else 3, options, (), 4, limit=150):
        if game.version % 5 or game.is_over:
            continue
        texts = set(WORDS)
        for s in range(len(game.players)):
            texts |= {str(a) for a in game.legal_actions(s)}
        for seat in range(len(game.players)):
            kn = known(game, seat)
            for text in sorted(texts):
                try:
                    game.clone().act(seat, text)
                except cardcore.CardcoreError as error:
                    leaked = [
                        c for c in CARD_RE.findall(str(error)) if c not in kn and c not in text
                    ]
                    if leaked:
                        problems.append((game.version, seat, text, str(error)))
    assert problems == []


@pytest.mark.parametrize(
    ("name", "players", "texts"),
    [
        ("tonk", 3, ("discard {}", "hit 1 {}", "spread {} 2C 3C")),
        ("speed", 2, ("play {} L", "play {} R")),
    ],
)
def test_an_unseen_card_is_refused_alike_wherever_it_lies(
    name: str, players: int, texts: tuple[str, ...]
) -> None:
    """CORE-HIDDEN-1: an illegal move naming a card the seat has not seen must be refused
    with the same words whether that card lies in another hand or in the stock, so the
    message tells the seat nothing about where it is."""
    deck = sorted(
        {c.text for c in cardcore.new_game(name, players, seed=0).state.zones.all_cards()}
    )
    differ = []
    for game in play(name, players, {}, (), 9, limit=60):
        if game.version % 4 or game.is_over:
            continue
        for seat in range(players):
            kn = known(game, seat)
            for pattern in texts:
                messages = set()
                for card in deck:
                    if card in kn or card in ("2C", "3C"):
                        continue
                    text = pattern.format(card)
                    try:
                        game.clone().act(seat, text)
                        messages.add("applied")
                    except cardcore.CardcoreError as error:
                        words = str(error).replace(card, "<card>").replace("'", " ").split()
                        messages.add(" ".join(sorted(words)))  # a spread is written sorted
                if len(messages) > 1:
                    differ.append((game.version, seat, pattern, sorted(messages)))
    assert differ == []


# -- search ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [
        ("golf", 2, {"layout": 6}),
        ("golf", 2, {"layout": "4"}),
        ("golf", 2, {"layout": "4h"}),
        ("spit", 2, {}),
        ("speed", 2, {}),
        ("tonk", 3, {"hands": 2}),
    ],
)
def test_sampled_positions_depend_on_the_view_alone(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """Search docs: "A search agent holds a seat's view and nothing else ... every hidden
    place is filled from the cards the seat has not seen": twins the seat cannot tell apart
    sample the same positions, and no sample's hidden cards copy the truth every time."""
    rng = random.Random(2)
    same_as_truth = samples = 0
    for game in play(name, players, options, (), 6, limit=80):
        if game.version % 4 or game.is_over:
            continue
        for seat in range(players):
            twin = hidden_swap(game, seat, rng)
            if twin is None:
                continue
            view = game.view(seat)
            assert twin.view(seat) == view
            a = sample_position(view, random.Random(game.version))
            b = sample_position(twin.view(seat), random.Random(game.version))
            assert a == b
            sampled = cardcore.new_game(name, players, options=options, position=a, seed=1)
            assert sampled.view(seat)["zones"] == view["zones"]
            samples += 1
            same_as_truth += sampled.position() == game.position()
    assert samples > 3 and same_as_truth < samples


def test_ismcts_chooses_alike_for_twins() -> None:
    """Search docs: "A search agent holds a seat's view and nothing else": its choice for
    two games the seat cannot tell apart is the same (seeded)."""
    game = cardcore.new_game("tonk", 3, options={"hands": 1}, seed=21)
    game.act(game.to_act[0], "draw")
    seat = game.to_act[0]
    twin = hidden_swap(game, seat, random.Random(1))
    assert twin is not None and twin.view(seat) == game.view(seat)
    picks = [
        str(ISMCTSAgent(3, iterations=40).choose(g.view(seat), g.legal_actions(seat)))
        for g in (game, twin)
    ]
    assert picks[0] == picks[1]


def test_sampled_position_keeps_another_seats_face_up_hand_face_up() -> None:
    """Search docs: a hand's cards are known "to all when the view shows another seat's
    whole hand: it lies face up" (Tonk after a drop)."""
    game = _dropped_tonk()
    view = game.view(0)
    sampled = cardcore.new_game(
        "tonk", 3, options={"hands": 2}, position=sample_position(view, random.Random(1)), seed=2
    )
    for other in (1, 2):  # seat 0's view of the sample is the real one
        assert sampled.view(0)["zones"] == view["zones"]
        shown = next(p for p in sampled.view(0)["zones"] if p["name"] == f"hand.{other}")
        assert None not in shown["cards"]


def _dropped_tonk() -> Game:
    for seed in range(30):
        game = cardcore.new_game("tonk", 3, options={"hands": 2}, seed=seed)
        if game.view(None)["table"]["phase"] == "start":
            game.act(game.to_act[0], "drop")
            return game
    raise AssertionError("no drop")


def test_sampled_position_keeps_the_viewers_own_face_up_hand_face_up() -> None:
    """Search docs: sampled positions are ones "the seat cannot tell apart from the real
    one"; Tonk: after a drop "every hand is turned face up", the viewer's own included,
    so every seat of the sample must see it as in the real game."""
    game = _dropped_tonk()
    view = game.view(0)
    sampled = cardcore.new_game(
        "tonk", 3, options={"hands": 2}, position=sample_position(view, random.Random(1)), seed=2
    )
    for other in (1, 2, None):
        mine = next(p for p in sampled.view(other)["zones"] if p["name"] == "hand.0")
        assert None not in mine["cards"]


@pytest.mark.parametrize(
    ("name", "options"), [("tonk", {}), ("golf", {"layout": 6}), ("spit", {}), ("speed", {})]
)
def test_a_determinized_world_does_not_give_the_hidden_cards_away(
    name: str, options: dict[str, Any]
) -> None:
    """Agents docs: "A search agent ... must not look at hidden cards, but it can ask the
    host for a determinization ... The agent may then play out the clone freely". The
    clone's hidden cards must not be a function of the true ones that the agent can undo."""
    from cardcore.deck import derive_rng, shuffle

    game = cardcore.new_game(name, 2, options=options, seed=4)
    zones = game.state.zones
    slots = [
        (z, i)
        for z, pile in enumerate(zones.cards)
        for i in range(len(pile))
        if not zones.knows(z, i, 0)
    ]
    world = game.determinize(0, 99)
    assert world.view(0) == game.view(0)
    order = list(range(len(slots)))
    shuffle(order, derive_rng(99, 0))  # the permutation the world was dealt with
    dealt = world.state.zones.cards
    guessed = {slots[order[j]]: dealt[z][i] for j, (z, i) in enumerate(slots)}
    truth = {(z, i): zones.cards[z][i] for z, i in slots}
    assert len(slots) > 30
    assert guessed != truth


def test_determinized_worlds_of_twins_are_alike() -> None:
    """Hookspec determinize: the re-deal "is consistent with all that the seat has seen";
    two games the seat cannot tell apart, determinized with one seed, give one world."""
    game = cardcore.new_game("tonk", 3, seed=8)
    twin = hidden_swap(game, 0, random.Random(3))
    assert twin is not None and twin.view(0) == game.view(0)
    assert twin.determinize(0, 5).position() == game.determinize(0, 5).position()


# -- the web server -------------------------------------------------------------------------


def test_web_frames_equal_the_games_views_at_their_version() -> None:
    """Web docs: spectators "never [see] a hidden card"; every view a seat's WebSocket
    receives is that seat's ``Game.view`` at that version (nothing more)."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from tests.web.helpers import Player, create, serve

    seats_ = [
        {"name": "Ann"},
        {"name": "Bo", "agent": "random", "params": {"seed": 1}},
        {"name": "Cy", "agent": "random", "params": {"seed": 2}},
    ]
    got: dict[Any, list[dict[str, Any]]] = {0: [], None: []}
    with serve() as (client, server, _dog):
        sid = create(client, "tonk", seats_, options={"hands": 3})["session"]
        with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as spec_ws:
            spectator = Player(spec_ws)
            spectator.send({"type": "watch", "session": sid})
            ann = Player(ws)
            ann.send({"type": "join", "session": sid, "seat": 0})
            ann.until("welcome")
            _record_views(ann, got[0])
            for _ in range(3000):
                if ann.mirror.view is not None and ann.view["is_over"]:
                    break
                if ann.mirror.view is not None and 0 in ann.view["to_act"] and ann.view["legal"]:
                    legal = ann.view["legal"]
                    ann.send({"type": "act", "action": legal[-1], "seen": ann.mirror.version})
                ann.recv()
                _record_views(ann, got[0])
            assert ann.view["is_over"]
            seed = str(server.hub.sessions[sid].game.seed)  # type: ignore[union-attr]
            assert seed not in json.dumps(ann.received)  # the seed deals every hidden card
            while spectator.mirror.view is None or not spectator.mirror.view["is_over"]:
                spectator.recv()
                _record_views(spectator, got[None])
        record = client.get(f"/api/sessions/{sid}/record").json()
    at = _views_by_version(record)
    for seat, views in got.items():
        assert views
        for view in views:
            assert view == at[view["version"]].view(seat), (seat, view["version"])


def _record_views(player: Any, into: list[dict[str, Any]]) -> None:
    view = player.mirror.view
    if view is not None and (not into or into[-1]["version"] != view["version"]):
        into.append(dict(view))


def _views_by_version(record: dict[str, Any]) -> dict[int, Game]:
    game = cardcore.new_game(
        record["game"],
        list(record["players"]),
        rules=[r["name"] if isinstance(r, dict) else r for r in record["rules"]],
        options=record["options"],
        seed=record["seed"],
    )
    out = {0: game.clone()}
    for seat, text, at in record["actions"]:
        game.act(seat, text, at=at)
        out[game.version] = game.clone()
    return out


# -- privileged surfaces --------------------------------------------------------------------


def test_docs_say_a_face_up_hand_shows_sorted() -> None:
    """Embedding docs: "``zones`` lists every pile ... its cards **top first**"; since the
    2026-12-07 change a face-up hand (Visibility.OWNER, every card known to all) shows
    "sorted by rank and suit", so a client reading ``cards[0]`` as the top is misled."""
    from cardcore.zones import Zones

    embedding = " ".join((DOCS / "embedding.rst").read_text().split())
    start = embedding.index("``zones`` lists every pile")
    paragraph = embedding[start : embedding.index("A client draws", start)]
    assert "sorted" in paragraph
    assert "sorted" in (Zones.show.__doc__ or "")


def test_docs_say_records_saves_positions_and_seeds_are_privileged() -> None:
    """Embedding docs: "Never send a client Game.state, a record, a saved game, a position
    ... or Game.seed: they hold every hidden card"; events: ``seat=None`` "delivers the full
    events and is privileged"."""
    embedding = " ".join((DOCS / "embedding.rst").read_text().split())
    events = " ".join((DOCS / "events.rst").read_text().split())
    assert "Never send a client :attr:`Game.state" in embedding
    for word in (
        "a record, a saved game, a position",
        ":attr:`Game.seed",
        "hold every hidden card",
    ):
        assert word in embedding
    assert "Records hold the seed: they are privileged" in embedding
    assert "A position is privileged, like a record" in embedding
    assert "``seat=None``, delivers the full events and is privileged" in events
    game = cardcore.new_game("tonk", 3, seed=2)
    hidden = [c.text for c in game.state.zones.cards[game.state.zones.id("hand.1")]]
    assert set(hidden) <= set(cards_in(game.save()))  # full information, by design
