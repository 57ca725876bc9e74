"""Differential review of the example plugin Go Fish (``examples/go_fish``, game ``gofish``).

An independent model of Go Fish, written from ``examples/go_fish/RULES.md``,
its README, ``docs/plugin-guide/game.rst`` and the module docstrings (not from
the logic's bodies), is played in lockstep with the engine on stacked decks
(``deck=``, top first): legal sets in the documented order, every seat's and a
spectator's view, every seat's event stream, refusals and the result.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardcore
from cardcore import SPECTATOR, IllegalActionError, NotationError

pytest.importorskip("cardcore_gofish")

GAME = "gofish"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "SHDC"
FULL_DECK = [r + s for s in SUITS for r in RANKS]


def rank(card: str) -> str:
    return card[:-1]


def by_rank(ranks: Any) -> list[str]:
    return sorted(ranks, key=RANKS.index)


class Model:
    """Go Fish as RULES.md documents it (GOFISH-*)."""

    def __init__(self, players: int, deck: list[str]) -> None:
        assert sorted(deck) == sorted(FULL_DECK)
        self.n = players
        size = 7 if players <= 3 else 5  # GOFISH-DEAL-1
        self.hands: list[list[str]] = [[] for _ in range(players)]
        for i in range(size * players):  # one card at a time, seat 0 first
            self.hands[i % players].append(deck[i])
        self.stock = list(deck[size * players :])  # stock[0] is its top
        self.books: list[list[str]] = [[] for _ in range(players)]
        self.public: set[str] = set()
        self.asked: list[set[str]] = [set() for _ in range(players)]
        self.known: list[set[str]] = [set(h) for h in self.hands]
        self.turn: int | None = 0
        self.over = False
        self.draws: list[tuple[int, str]] = []  # (seat, card) of the last step
        self.shown: list[str] = []
        for seat in range(players):
            self.settle(seat)

    def draw(self, seat: int) -> str:
        card = self.stock.pop(0)
        self.hands[seat].append(card)
        self.known[seat].add(card)
        self.draws.append((seat, card))
        return card

    def settle(self, seat: int) -> None:
        """GOFISH-BOOK-1 then GOFISH-EMPTY-1."""
        while True:
            for r in RANKS:
                cards = [c for c in self.hands[seat] if rank(c) == r]
                if len(cards) == 4:
                    for c in cards:
                        self.hands[seat].remove(c)
                    self.books[seat].extend(cards)
                    self.public.update(cards)
                    self.asked[seat].discard(r)  # the rank left the hand
            if not self.hands[seat] and self.stock:
                self.draw(seat)
                continue
            return

    def holders(self) -> list[int]:
        return [s for s in range(self.n) if self.hands[s]]

    def legal(self, seat: int) -> list[str]:
        if self.over or seat != self.turn:
            return []
        ranks = by_rank({rank(c) for c in self.hands[seat]})
        targets = [t for t in range(self.n) if t != seat and self.hands[t]]
        return [f"ask {t} {r}" for t in targets for r in ranks]  # by target, then rank

    def apply(self, seat: int, text: str) -> None:
        assert text in self.legal(seat)
        _, t, r = text.split()
        target = int(t)
        self.draws, self.shown = [], []
        self.asked[seat].add(r)  # GOFISH-KNOW-1
        got = [c for c in self.hands[target] if rank(c) == r]
        again = False
        if got:  # GOFISH-GIVE-1
            for c in got:
                self.hands[target].remove(c)
                self.hands[seat].append(c)
            self.public.update(got)
            self.shown = got
            self.asked[target].discard(r)  # the rank left that hand (GOFISH-KNOW-1)
            again = True
        elif self.stock:  # GOFISH-FISH-1
            card = self.draw(seat)
            if rank(card) == r:
                self.public.add(card)
                again = True
        # Both hands are settled; the docs do not say in which order when both
        # are left empty at once and the stock is short: the engine refills the
        # asked seat first (a doc gap, see the report), and so does the model.
        self.settle(target)
        self.settle(seat)
        for s in range(self.n):
            self.known[s] |= self.public
        if sum(len(b) for b in self.books) == 52:  # GOFISH-END-1
            self.over = True
            self.turn = None
            return
        if again and self.hands[seat]:
            self.turn = seat
            return
        for step in range(1, self.n + 1):  # GOFISH-TURN-1
            nxt = (seat + step) % self.n
            if self.hands[nxt]:
                self.turn = nxt
                return
        raise AssertionError("nobody holds cards")

    def scores(self) -> list[int]:
        return [len(b) // 4 for b in self.books]

    def winners(self) -> tuple[int, ...]:
        best = max(self.scores())
        return tuple(s for s, v in enumerate(self.scores()) if v == best)


def stacked(seed: int) -> list[str]:
    deck = list(FULL_DECK)
    random.Random(seed).shuffle(deck)
    return deck


def zone(view: dict[str, Any], name: str) -> dict[str, Any]:
    (found,) = [z for z in view["zones"] if z["name"] == name]
    return found


def expected_hand(model: Model, owner: int, seat: int | None) -> list[str | None]:
    hand = model.hands[owner]
    if seat == owner or all(c in model.public for c in hand):
        return sorted(hand)
    return [None] * len(hand)


def compare_view(game: cardcore.Game, model: Model, seat: int | None) -> None:
    view = game.view(SPECTATOR if seat is None else seat)
    where = f"seat {seat} at version {view['version']}"
    assert view["is_over"] == model.over, where
    assert view["to_act"] == ([] if model.over else [model.turn]), where
    assert view["legal"] == ([] if seat is None else model.legal(seat)), where
    stock = zone(view, "stock")
    assert stock["count"] == len(model.stock), where
    assert stock["cards"] == [None] * len(model.stock), where
    for s in range(model.n):
        hand = zone(view, f"hand.{s}")
        assert hand["count"] == len(model.hands[s]), where
        shown = hand["cards"]
        want = expected_hand(model, s, seat)
        assert (sorted(shown) if None not in shown else shown) == want, (where, s)
        books = zone(view, f"books.{s}")
        assert sorted(books["cards"]) == sorted(model.books[s]), where
    table = view["table"]
    assert table["stock"] == len(model.stock), where
    assert table["books"] == model.scores(), where
    assert [set(a) for a in table["asked"]] == model.asked, where


def event_cards(event: dict[str, Any]) -> list[str]:
    cards = []
    for key in ("card", "cards"):
        value = event.get(key)
        if isinstance(value, str):
            cards.append(value)
        elif isinstance(value, list):
            cards.extend(c for c in value if isinstance(c, str))
    return cards


def lockstep(players: int, seed: int, check_refusals: bool = True) -> tuple[cardcore.Game, Model]:
    deck = stacked(seed)
    model = Model(players, deck)
    streams: dict[Any, list[dict[str, Any]]] = {}
    subs = []
    for s in [*range(players), SPECTATOR, None]:
        streams[s] = []
        subs.append((cardcore.Event, (lambda e, k=s: streams[k].append(e.to_json())), s))
    game = cardcore.new_game(GAME, players, deck=" ".join(deck), seed=seed, subscribers=subs)
    rng = random.Random(seed * 7 + players)
    steps = 0
    while True:
        for s in [*range(players), None]:
            compare_view(game, model, s)
        if model.over:
            break
        seat = model.turn
        assert seat is not None
        legal = model.legal(seat)
        assert [a.notation() for a in game.legal_actions(seat)] == legal
        if check_refusals:
            refusals(game, model, seat)
        for stream in streams.values():
            stream.clear()
        text = rng.choice(legal)
        turn_before = seat
        model.apply(seat, text)
        game.act(seat, text)
        steps += 1
        assert steps < 1000
        check_events(streams, model, seat, text, turn_before)
    result = game.result
    assert result is not None
    assert tuple(result.winners) == model.winners()
    assert list(result.scores) == model.scores()
    return game, model


def check_events(
    streams: dict[Any, list[dict[str, Any]]], model: Model, seat: int, text: str, turn_before: int
) -> None:
    host = streams[None]
    assert host[0]["event"] == "action-applied" and host[0]["action"] == text
    draws = [(e["seat"], e["card"]) for e in host if e["event"] == "card-drawn"]
    assert draws == model.draws, text
    handed = [e["card"] for e in host if e["event"] == "card-moved" and e["dst"] == f"hand.{seat}"]
    assert sorted(handed) == sorted(model.shown), text
    passes = [e["seat"] for e in host if e["event"] == "turn-passed"]
    if model.over or model.turn == turn_before:
        assert passes == [], text
    else:
        assert passes == [model.turn], text
    ended = [e for e in host if e["event"] == "game-ended"]
    assert len(ended) == (1 if model.over else 0)
    for s in range(model.n):
        # a seat sees each draw of its own, no card it does not know
        for e in streams[s]:
            for c in event_cards(e):
                assert c in model.known[s], (s, e)
        own = [e["card"] for e in streams[s] if e["event"] == "card-drawn" and e["seat"] == s]
        assert own == [c for who, c in model.draws if who == s]
        assert len(streams[s]) == len(host)
    for e in streams[SPECTATOR]:
        for c in event_cards(e):
            assert c in model.public, e


def refusals(game: cardcore.Game, model: Model, seat: int) -> None:
    version = game.version
    held = {rank(c) for c in model.hands[seat]}
    some = by_rank(held)[0]
    with pytest.raises(IllegalActionError, match="GOFISH-ASK-2"):
        game.act(seat, f"ask {seat} {some}")
    for t in range(model.n):
        if t != seat and not model.hands[t]:  # a player who is out (GOFISH-EMPTY-1)
            with pytest.raises(IllegalActionError, match="GOFISH-ASK-2"):
                game.act(seat, f"ask {t} {some}")
    other = next(t for t in range(model.n) if t != seat and model.hands[t])
    missing = [r for r in RANKS if r not in held]
    if missing:
        with pytest.raises(IllegalActionError, match="GOFISH-ASK-1"):
            game.act(seat, f"ask {other} {missing[0]}")
    waiting = (seat + 1) % model.n
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(waiting, f"ask {seat} {some}")
    assert game.version == version


# (2, 12): a seat hands over its asked rank and refills with a card of it, unseen by the
# others (GOFISH-KNOW-1 clears the rank); (3, 27): the asker lays a book and the asked seat
# is emptied by the same ask, with one card left in the stock.
CASES = [(p, s) for p in range(2, 7) for s in range(1, 9)] + [(2, 12), (3, 27), (2, 33)]


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_lockstep_with_model(players: int, seed: int) -> None:
    game, model = lockstep(players, seed)
    assert game.is_over and model.over


# --- positions, records and saves -----------------------------------------------------------


def parse_position(text: str) -> tuple[dict[str, str], dict[str, list[str]]]:
    head, *piles = text.split(" | ")
    fields = dict(part.split("=", 1) for part in head.split()[1:])
    sections = {}
    for pile in piles:
        name, _, cards = pile.partition(":")
        sections[name.strip()] = cards.split()
    return fields, sections


def check_position_text(text: str, model: Model) -> None:
    """The default notation (README "Position notation"), from the model alone."""
    fields, piles = parse_position(text)
    assert text.startswith("gofish ")
    assert fields["to_act"] == ("[]" if model.over else f"[{model.turn}]")
    masks = [sum(1 << RANKS.index(r) for r in asked) for asked in model.asked]
    assert fields["asked"] == "[" + ",".join(map(str, masks)) + "]"
    assert piles["stock"] == list(reversed(model.stock))  # bottom to top, no one knows them
    for s in range(model.n):
        want = sorted(c + ("!" if c in model.public else f"@{s}") for c in model.hands[s])
        assert sorted(piles[f"hand.{s}"]) == want
        assert sorted(piles[f"books.{s}"]) == sorted(c + "!" for c in model.books[s])


def same_views(a: cardcore.Game, b: cardcore.Game, players: int) -> None:
    for s in [*range(players), SPECTATOR]:
        va, vb = a.view(s), b.view(s)
        for key in ("to_act", "is_over", "result", "legal", "zones", "table"):
            assert va[key] == vb[key], (s, key)


@pytest.mark.parametrize(("players", "seed"), [(2, 12), (3, 27), (4, 5), (6, 8)])
def test_positions_records_and_saves_round_trip(players: int, seed: int) -> None:
    deck = stacked(seed)
    model = Model(players, deck)
    game = cardcore.new_game(GAME, players, deck=" ".join(deck), seed=seed)
    rng = random.Random(seed)
    step = 0
    while True:
        if step % 9 == 0 or model.over:
            text = game.position()
            check_position_text(text, model)
            again = cardcore.new_game(GAME, players, position=text, seed=seed + 1)
            same_views(game, again, players)
            assert again.position() == text
            same_views(game, cardcore.replay(game.record()), players)
            same_views(game, cardcore.load(game.save()), players)
        if model.over:
            break
        seat = model.turn
        assert seat is not None
        text_action = rng.choice(model.legal(seat))
        game.act(seat, text_action)
        model.apply(seat, text_action)
        step += 1
    over = cardcore.new_game(GAME, players, position=game.position(), seed=1)
    assert over.is_over and over.result == game.result


# --- notation and refusals --------------------------------------------------------------------


def test_doc_worked_example_deal_and_first_asks() -> None:
    """The deal of docs/plugin-guide/game.rst, from the model (GOFISH-DEAL-1, -GIVE-1, -FISH-1)."""
    top = [
        "QS",
        "QD",
        "10H",
        "QH",
        "5S",
        "5C",
        "5H",
        "8C",
        "AS",
        "9C",
        "3H",
        "9D",
        "2D",
        "JC",
        "2C",
        "7S",
        "4D",
        "8H",
        "KD",
        "6S",
        "JS",
        "7H",
    ]
    rest = [c for c in FULL_DECK if c not in top]
    random.Random(0).shuffle(rest)
    deck = top + rest
    model = Model(3, deck)
    game = cardcore.new_game(GAME, ["Ann", "Bob", "Cy"], deck=" ".join(deck), seed=1)
    for text in ("ask 1 Q", "ask 2 Q"):
        for s in (0, 1, 2, None):
            compare_view(game, model, s)
        model.apply(0, text)
        game.act(0, text)
    assert model.turn == 1 and model.asked[0] == {"Q"}
    for s in (0, 1, 2, None):
        compare_view(game, model, s)


def test_word_that_is_not_a_rank_is_refused_and_changes_nothing() -> None:
    """GOFISH-ASK-1: ``ask <seat> <rank>``, the rank a word of A 2 ... 10 J Q K."""
    game = cardcore.new_game(GAME, 3, seed=1)
    before = game.position()
    for text in ("ask 1 X", "ask 1 T", "ask 1 1", "ask 1 11", "ask 1 Queen"):
        with pytest.raises((IllegalActionError, NotationError)):
            game.act(0, text)
    with pytest.raises(NotationError):
        game.act(0, "ask one Q")
    with pytest.raises(IllegalActionError, match="GOFISH-ASK-2"):
        game.act(0, "ask 7 " + game.view(0)["legal"][0].split()[2])
    assert game.position() == before and game.version == 0


def test_action_bound_is_the_documented_one() -> None:
    game = cardcore.new_game(GAME, 3, seed=1)
    assert game.logic.action_bound(3, {}) == 1000  # README: an action bound of 1000


# --- conformance kit and the generic RL encoding ---------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (4, 1), (6, 4)])
def test_conformance_kit(players: int, seed: int) -> None:
    from cardcore.testing import check_game

    report = check_game(GAME, players=players, games=2, seed=seed)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0
    assert report.games == 2 and report.skipped == {}


def test_generic_rl_encoding_plays_go_fish() -> None:
    rl = pytest.importorskip("cardcore.rl")
    import warnings

    env = rl.aec_env(GAME, 6)
    assert type(env.config.observer.encoding).__name__ == "GenericEncoding"
    env.reset(seed=3)
    rng = random.Random(3)
    sizes = set()
    steps = 0
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        while env.agents:
            obs, _, term, trunc, _ = env.last()
            game = env.match.game
            if term or trunc:
                env.step(None)
                continue
            seat = int(env.agent_selection.split("_")[1])
            legal = [a.notation() for a in game.legal_actions(seat)]
            mask = obs["action_mask"]
            assert len(mask) == 65  # max_legal: 13 ranks of each of five others
            assert list(mask[: len(legal)]) == [1] * len(legal) and mask[len(legal) :].sum() == 0
            sizes.add(obs["observation"].shape)
            i = rng.randrange(len(legal))
            env.step(i)
            steps += 1
            assert game.record_entries()[-1][1].notation() == legal[i]
    assert len(sizes) == 1 and steps > 0


# --- determinize and the position checks -----------------------------------------------------


def test_determinize_keeps_asks_and_known_cards() -> None:
    """rules.determinize: each hand still holds what it asked for and no book (GOFISH-KNOW-1)."""
    checked = 0
    for seed in (4, 9):
        deck = stacked(seed)
        model = Model(4, deck)
        game = cardcore.new_game(GAME, 4, deck=" ".join(deck), seed=seed)
        rng = random.Random(seed)
        while not model.over:
            seat = model.turn
            assert seat is not None
            if any(model.asked):
                for sample in range(3):
                    twin = game.determinize(seat, sample)
                    fields, piles = parse_position(twin.position())
                    assert fields["asked"] == parse_position(game.position())[0]["asked"]
                    for s in range(4):
                        cards = [c.split("@")[0].rstrip("!") for c in piles[f"hand.{s}"]]
                        assert len(cards) == len(model.hands[s])
                        held = [rank(c) for c in cards]
                        assert model.asked[s] <= set(held), (s, model.asked[s], cards)
                        assert all(held.count(r) < 4 for r in held)
                        for c in model.hands[s]:
                            if c in model.public or s == seat:
                                assert c in cards
                    assert twin.view(seat)["zones"] == game.view(seat)["zones"]
                    checked += 1
            text = rng.choice(model.legal(seat))
            model.apply(seat, text)
            game.act(seat, text)
    assert checked > 20


def edit(text: str, pile: str, cards: list[str]) -> str:
    head, *piles = text.split(" | ")
    out = [head]
    for p in piles:
        name = p.partition(":")[0].strip()
        out.append(f"{name}: " + " ".join(cards) if name == pile else p)
    return " | ".join(out)


def test_check_position_refuses_what_the_readme_lists() -> None:
    """README "Position notation": the game's own checks of a position read back."""
    deck = stacked(5)
    model = Model(3, deck)
    game = cardcore.new_game(GAME, 3, deck=" ".join(deck), seed=5)
    text = game.position()
    cardcore.new_game(GAME, 3, position=text, seed=0)  # the untouched position reads
    _, piles = parse_position(text)
    h0, h1 = piles["hand.0"], piles["hand.1"]
    bad = []
    # the seat to act holds no cards: move hand.0 into hand.1
    bad.append(edit(edit(text, "hand.1", h1 + h0), "hand.0", []))
    # an empty hand while the stock has cards (hand.1 into hand.2)
    bad.append(edit(edit(text, "hand.2", piles["hand.2"] + h1), "hand.1", []))
    # a book that is not four of one rank
    bad.append(edit(edit(text, "books.0", h0[:4]), "hand.0", h0[4:]))
    # asked names a rank not held by seat 0
    missing = next(r for r in RANKS if r not in {rank(c) for c in model.hands[0]})
    mask = 1 << RANKS.index(missing)
    bad.append(text.replace("asked=[0,0,0]", f"asked=[{mask},0,0]"))
    # a hand holding four of a rank: give seat 0 a whole rank from elsewhere
    r = rank(model.hands[0][0])
    four = [c for c in FULL_DECK if rank(c) == r]
    moved = {}
    for name, cards in piles.items():
        moved[name] = [c for c in cards if rank(c.split("@")[0].rstrip("!")) != r]
    forged = text
    for name, cards in moved.items():
        forged = edit(forged, name, cards + ([f"{c}@0" for c in four] if name == "hand.0" else []))
    bad.append(forged)
    why = ["to_act", "GOFISH-EMPTY-1", "GOFISH-BOOK-1", "GOFISH-KNOW-1", "GOFISH-BOOK-1"]
    for text_bad, rule in zip(bad, why, strict=True):
        with pytest.raises(cardcore.OptionError, match=rule):
            cardcore.new_game(GAME, 3, position=text_bad, seed=0)


def test_a_hand_known_to_all_shows_to_every_seat() -> None:
    """Core rule (game.rst, Applying an action): a hand every card of which is known to all
    lies face up; random games rarely reach it, so it is set up from a position."""
    game = cardcore.new_game(GAME, 3, seed=5)
    text = game.position()
    _, piles = parse_position(text)
    hand = [c.split("@")[0] for c in piles["hand.1"]]
    shown = cardcore.new_game(
        GAME, 3, position=edit(text, "hand.1", [c + "!" for c in hand]), seed=0
    )
    for seat in (0, 2, SPECTATOR):
        assert sorted(zone(shown.view(seat), "hand.1")["cards"]) == sorted(hand)
        other = 0 if seat == 2 else 2  # a hand still hidden from this viewer
        hidden = zone(shown.view(seat), f"hand.{other}")["cards"]
        assert hidden == [None] * len(piles[f"hand.{other}"])
