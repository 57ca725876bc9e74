"""Differential audit of Tonk (2026-12-06): an independent model played in lockstep.

The model below is written from the rule text only (``seeds/tonk.md``,
``shared/seeds/tonk.en.md``, ``shared/rules-decisions.md`` section 3 and
``docs/games/tonk.rst``), not from the plugin's code.  Every game is dealt from
decks the test pins: the first hand by ``deck=`` (direct mode) or, for sessions
and void deals, every deal by a position's ``next`` field (``stack_deals``),
starting from a ``between`` position so that the first deal is an action too.

At every decision the engine's legal action texts must equal the model's (as a
set, and in the documented TONK-LEGAL-1 order); the same random action is
applied to both; at each hand end the reason, the seat, the amounts, the
balances, the totals and the shown hands are compared; at the end
``game.result``.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

import cardcore
from cardcore_tonk.position import stack_deals

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "SHDC"
FULL = [r + s for s in SUITS for r in RANKS]

NATURAL = "tonk.natural-49-50"
NO_UPCARD = "tonk.no-upcard"
MUST_LAY = "tonk.must-lay-down"
DOUBLE_SPREAD = "tonk.double-needs-spread"
HIT_BLOCKS = "tonk.hit-blocks-drop"
DISCARD_ONLY = "tonk.stock-out-discard-only"
QUIET_ANY = "tonk.quiet-round-any-turns"
VOID_COUNTS = "tonk.void-deal-counts"
SHOWS_EVERY = "tonk.deal-shows-every-hand"


# ---------------------------------------------------------------- cards


def rank(card: str) -> int:
    return RANKS.index(card[:-1]) + 1


def suit(card: str) -> str:
    return card[-1]


def value(card: str) -> int:
    return min(rank(card), 10)


def ckey(card: str) -> tuple[int, int]:
    """TONK-LEGAL-1: cards ordered by rank, then suit S-H-D-C."""
    return rank(card), SUITS.index(suit(card))


def total(cards: list[str]) -> int:
    return sum(value(c) for c in cards)


def is_book(cards: list[str]) -> bool:  # TONK-SPREAD-1
    return len(cards) in (3, 4) and len({rank(c) for c in cards}) == 1


def is_run(cards: list[str]) -> bool:  # TONK-SPREAD-2, ace low only
    if len(cards) < 3 or len({suit(c) for c in cards}) != 1:
        return False
    rs = sorted(rank(c) for c in cards)
    return all(b == a + 1 for a, b in itertools.pairwise(rs))


def is_spread(cards: list[str]) -> bool:
    return is_book(cards) or is_run(cards)


def can_hit(spread: list[str], card: str) -> bool:  # TONK-HIT-1
    return is_spread([*spread, card])


def holds_spread(hand: list[str]) -> bool:
    """TONK-VAR-2: the hand holds a book or run other than exactly three aces."""
    for k in range(3, len(hand) + 1):
        for sub in itertools.combinations(hand, k):
            cards = list(sub)
            if not is_spread(cards):
                continue
            if len(cards) == 3 and all(rank(c) == 1 for c in cards):
                continue
            return True
    return False


def fmt(cards: list[str]) -> str:
    return " ".join(sorted(cards, key=ckey))


# ---------------------------------------------------------------- the model


@dataclass
class Model:
    n: int
    rules: frozenset[str]
    stake: int = 1
    hands: int = 1
    decks: list[list[str]] = field(default_factory=list)  # decks still to deal
    dealer: int = 0
    played: int = 0
    balances: list[int] = field(default_factory=list)
    phase: str = "between"  # between, start, play, over
    turn: int = 0
    hand: list[list[str]] = field(default_factory=list)
    stock: list[str] = field(default_factory=list)  # top first
    discard: list[str] = field(default_factory=list)  # top last
    spreads: list[tuple[list[str], int]] = field(default_factory=list)
    taken: str | None = None
    new_spread: bool = False
    blocked: set[int] = field(default_factory=set)
    quiet: int = 0
    touched: bool = False
    from_discards: bool = False
    known: list[set[str]] = field(default_factory=list)  # taken cards still held
    ended: list[dict[str, Any]] = field(default_factory=list)
    last_reason: str | None = None

    def __post_init__(self) -> None:
        self.balances = [0] * self.n

    # -- dealing
    def deal(self) -> None:
        deck = self.decks.pop(0)
        n = self.n
        self.hand = [[] for _ in range(n)]
        for i in range(5 * n):  # TONK-DEAL-1: one at a time, left of dealer first
            self.hand[(self.dealer + 1 + i) % n].append(deck[i])
        rest = deck[5 * n :]
        if NO_UPCARD in self.rules:  # TONK-VAR-1
            self.discard = []
        else:  # TONK-DEAL-2
            self.discard = [rest[0]]
            rest = rest[1:]
        self.stock = list(rest)
        self.spreads = []
        self.known = [set() for _ in range(n)]
        self.taken = None
        self.new_spread = False
        self.blocked = set()
        self.quiet = 0
        self.turn = (self.dealer + 1) % n  # TONK-TURN-1
        self.phase = "start"
        if NATURAL in self.rules:
            nats = [s for s in range(n) if total(self.hand[s]) in (49, 50)]
            if len(nats) == 1:  # TONK-49-1
                w = nats[0]
                amounts = [-2 * self.stake] * n
                amounts[w] = 2 * self.stake * (n - 1)
                shown = list(range(n)) if SHOWS_EVERY in self.rules else [w]
                self.end("natural", w, amounts, shown, with_totals=False)
                return
            if len(nats) > 1:  # TONK-49-2
                shown = list(range(n)) if SHOWS_EVERY in self.rules else nats
                self.end("void", None, [0] * n, shown, with_totals=False)
                return
        self.begin_turn()

    # -- turn structure
    def stock_out_ends(self) -> bool:
        if DISCARD_ONLY not in self.rules:
            return True  # TONK-STOCK-1
        # TONK-VAR-5 / VAR-6
        return self.quiet >= self.n or not self.discard

    def begin_turn(self) -> None:
        self.phase = "start"
        self.taken = None
        self.new_spread = False
        self.touched = False
        self.from_discards = not self.stock
        if not self.stock and self.stock_out_ends():
            self.stock_out()

    def stock_out(self) -> None:  # TONK-STOCK-2
        tots = [total(h) for h in self.hand]
        low = min(tots)
        lows = [s for s in range(self.n) if tots[s] == low]
        amounts = [0] * self.n
        for w in lows:
            for s in range(self.n):
                if s not in lows:
                    amounts[w] += self.stake
                    amounts[s] -= self.stake
        self.end("stock-out", None, amounts, list(range(self.n)))

    def drop(self, d: int) -> None:  # TONK-DROP-1..5
        tots = [total(h) for h in self.hand]
        others = [s for s in range(self.n) if s != d]
        amounts = [0] * self.n
        S = self.stake
        if all(tots[d] < tots[o] for o in others):
            for o in others:
                amounts[o] -= S
                amounts[d] += S
            reason = "drop-won"
        else:
            reason = "drop-caught"
            for o in others:
                if tots[o] <= tots[d]:
                    amounts[d] -= 2 * S
                    amounts[o] += 2 * S
            low = min(tots[o] for o in others)
            lows = [o for o in others if tots[o] == low]
            for w in lows:
                for o in others:
                    if o not in lows:
                        amounts[o] -= S
                        amounts[w] += S
        self.end(reason, d, amounts, list(range(self.n)))

    def end(
        self,
        reason: str,
        seat: int | None,
        amounts: list[int],
        shown: list[int],
        with_totals: bool = True,
    ) -> None:
        assert sum(amounts) == 0
        void = reason == "void"
        counts = not void or VOID_COUNTS in self.rules
        self.balances = [b + a for b, a in zip(self.balances, amounts, strict=True)]
        self.ended.append(
            {
                "reason": reason,
                "seat": seat,
                "amounts": amounts,
                "balances": list(self.balances),
                "shown": [
                    sorted(self.hand[s], key=ckey) if s in shown else None for s in range(self.n)
                ],
                "totals": [total(self.hand[s]) if s in shown else None for s in range(self.n)],
                "dealer": self.dealer,
            }
        )
        self.last_reason = reason
        if counts:
            self.played += 1
        self.dealer = (self.dealer + 1) % self.n  # TONK-DEALER-2
        if self.played >= self.hands:
            self.phase = "over"
        else:
            self.phase = "between"

    # -- legal actions
    def to_act(self) -> int | None:
        if self.phase == "over":
            return None
        if self.phase == "between":
            return self.dealer
        return self.turn

    def legal(self) -> list[tuple[tuple[Any, ...], str]]:
        """(order key, text) for every legal action."""
        out: list[tuple[tuple[Any, ...], str]] = []
        if self.phase == "between":
            return [((0,), "deal")]
        if self.phase == "over":
            return []
        s = self.turn
        hand = self.hand[s]
        if self.phase == "start":
            if not (HIT_BLOCKS in self.rules and s in self.blocked):
                out.append(((0,), "drop"))
            if self.stock or DISCARD_ONLY in self.rules:
                out.append(((1,), "draw"))
            if self.discard:
                out.append(((2,), "take"))
            return out
        # play: spreads, hits, discards
        for k in range(3, len(hand) + 1):
            for sub in itertools.combinations(hand, k):
                cards = list(sub)
                if not is_spread(cards):
                    continue
                rest = [c for c in hand if c not in cards]
                if not self.turn5_ok(rest, [*self.spreads_cards(), cards]):
                    continue
                if is_book(cards):
                    key: tuple[Any, ...] = (10, 0, rank(cards[0]))
                else:
                    key = (
                        10,
                        1,
                        SUITS.index(suit(cards[0])),
                        min(rank(c) for c in cards),
                        len(cards),
                    )
                out.append((key, "spread " + fmt(cards)))
        for i, (sp, _owner) in enumerate(self.spreads):
            for c in hand:
                if not can_hit(sp, c):
                    continue
                rest = [x for x in hand if x != c]
                after = self.spreads_cards()
                after[i] = after[i] + [c]
                if not self.turn5_ok(rest, after):
                    continue
                out.append(((20, i, ckey(c)), f"hit {i + 1} {c}"))
        for c in hand:
            if c == self.taken:  # TONK-TURN-4
                continue
            rest = [x for x in hand if x != c]
            if MUST_LAY in self.rules and holds_spread(rest):  # TONK-VAR-2
                continue
            out.append(((30, ckey(c)), f"discard {c}"))
        return out

    def spreads_cards(self) -> list[list[str]]:
        return [list(sp) for sp, _ in self.spreads]

    def turn5_ok(self, rest: list[str], spreads: list[list[str]]) -> bool:
        """TONK-TURN-5: never leave the taken card alone unless it can hit."""
        if rest == [self.taken] and self.taken is not None:
            return any(can_hit(sp, self.taken) for sp in spreads)
        return True

    # -- transitions
    def apply(self, text: str) -> None:
        words = text.split()
        s = self.turn
        if words[0] == "deal":
            self.deal()
            return
        if words[0] == "drop":
            self.drop(s)
            return
        if words[0] in ("draw", "take"):
            self.blocked.discard(s)
            if words[0] == "draw" and not self.stock:  # TONK-VAR-5: asks for the stock
                self.stock_out()
                return
            if words[0] == "draw":
                self.hand[s].append(self.stock.pop(0))
            else:
                card = self.discard.pop()
                self.hand[s].append(card)
                self.taken = card
                self.known[s].add(card)
            self.phase = "play"
            return
        hand = self.hand[s]
        if words[0] == "spread":
            cards = words[1:]
            for c in cards:
                hand.remove(c)
                self.known[s].discard(c)
            self.spreads.append((cards, s))
            self.new_spread = True
            self.touched = True
        elif words[0] == "hit":
            i = int(words[1]) - 1
            c = words[2]
            hand.remove(c)
            self.known[s].discard(c)
            self.spreads[i][0].append(c)
            owner = self.spreads[i][1]
            if owner != s:
                self.blocked.add(owner)  # TONK-VAR-4
            self.touched = True
        elif words[0] == "discard":
            c = words[1]
            hand.remove(c)
            self.known[s].discard(c)
            self.discard.append(c)
            if not hand:  # TONK-OUT-2
                amounts = [-self.stake] * self.n
                amounts[s] = self.stake * (self.n - 1)
                self.end("out", s, amounts, [])
                return
            if self.touched:
                self.quiet = 0
            elif self.from_discards or QUIET_ANY in self.rules:
                self.quiet += 1
            self.turn = (s + 1) % self.n
            self.begin_turn()
            return
        else:  # pragma: no cover
            raise AssertionError(text)
        if not hand:  # TONK-OUT-1, TONK-VAR-3
            units = 2
            if DOUBLE_SPREAD in self.rules and not self.new_spread:
                units = 1
            amounts = [-units * self.stake] * self.n
            amounts[s] = units * self.stake * (self.n - 1)
            self.end("tonk-out", s, amounts, [])


# ---------------------------------------------------------------- the runner


def make_deck(rng: random.Random, n: int, natural_p: float = 0.0) -> list[str]:
    deck = FULL[:]
    rng.shuffle(deck)
    if rng.random() < natural_p:
        # stack one or two naturals (seat positions are deal-order slots)
        slots = rng.sample(range(n), 2 if rng.random() < 0.4 else 1)
        tens = [c for c in deck if value(c) == 10]
        nines = [c for c in deck if rank(c) == 9]
        rng.shuffle(tens)
        rng.shuffle(nines)
        want: list[list[str]] = []
        for _ in slots:
            if rng.random() < 0.5:
                want.append([tens.pop() for _ in range(5)])
            else:
                want.append([tens.pop() for _ in range(4)] + [nines.pop()])
        for slot, cards in zip(slots, want, strict=True):
            for j, c in enumerate(cards):
                pos = slot + j * n
                k = deck.index(c)
                deck[pos], deck[k] = deck[k], deck[pos]
    return deck


def start_game(
    n: int,
    rules: frozenset[str],
    options: dict[str, Any],
    decks: list[list[str]],
    first_dealer: int,
    seed: int,
    direct: bool,
) -> Any:
    extra = sorted(rules - {NATURAL})
    without = () if NATURAL in rules else (NATURAL,)
    if direct:
        opts = dict(options, first_dealer=first_dealer)
        return cardcore.new_game(
            "tonk",
            n,
            rules=extra,
            without=without,
            options=opts,
            seed=seed,
            deck=" ".join(decks[0]),
        )
    # a ``between`` position whose next deal is the first hand, by first_dealer
    tmpl = cardcore.new_game(
        "tonk",
        n,
        without=(NATURAL,),
        options={
            **options,
            "hands": max(2, options["hands"]),
            "first_dealer": (first_dealer - 1) % n,
        },
        seed=seed,
        deck=" ".join(FULL),
    )
    tmpl.act((first_dealer) % n, "drop")
    pos = tmpl.position()
    assert 'phase="between"' in pos
    pos = re.sub(r"played=\d+", "played=0", pos, count=1)
    pos = re.sub(r"balances=\[[^\]]*\]", "balances=[" + ",".join(["0"] * n) + "]", pos, count=1)
    assert f" dealer={first_dealer} " in pos
    pos = stack_deals(pos, [" ".join(d) for d in decks])
    return cardcore.new_game(
        "tonk", n, rules=extra, without=without, options=options, position=pos, seed=seed
    )


def choose(rng: random.Random, texts: list[str], drop_p: float, take_p: float, dry: bool) -> str:
    """A random policy biased towards long hands, spreads and hits."""
    if texts == ["deal"]:
        return "deal"
    if "drop" in texts and rng.random() < drop_p:
        return "drop"
    starts = [t for t in texts if t in ("draw", "take")]
    if starts:
        if len(starts) == 2 and rng.random() < (0.9 if dry else take_p):
            return "take"
        return starts[0] if len(starts) == 1 else "draw"
    plays = [t for t in texts if t.startswith(("spread", "hit"))]
    if plays and rng.random() < 0.8:
        return rng.choice(plays)
    discards = [t for t in texts if t.startswith("discard")]
    return rng.choice(discards or texts)


STATS = {"games": 0, "decisions": 0, "hands": 0}


def play(
    seed: int,
    n: int,
    rules: frozenset[str],
    stake: int = 1,
    hands: int = 1,
    natural_p: float = 0.0,
    drop_p: float = 0.04,
    take_p: float = 0.35,
    direct: bool | None = None,
    reload_p: float = 0.0,
    replay: bool = False,
    events: bool = False,
) -> tuple[Model, Any]:
    rng = random.Random(seed)
    first_dealer = rng.randrange(n)
    decks = [make_deck(rng, n, natural_p) for _ in range(hands + 6)]
    if direct is None:
        direct = rng.random() < 0.5
    model = Model(n=n, rules=rules, stake=stake, hands=hands, decks=list(decks))
    model.dealer = first_dealer
    if direct:
        model.deal()
        if model.phase == "between":  # a void deal would be re-dealt by chance
            direct = False
            model = Model(n=n, rules=rules, stake=stake, hands=hands, decks=list(decks))
            model.dealer = first_dealer
    options = {"stake": stake, "hands": hands}
    if n == 4:
        options["max_players"] = 4
    game = start_game(n, rules, options, decks[:hands], first_dealer, seed, direct)
    if direct:
        model.decks = []
    streams: dict[int, list[Any]] = {}
    if events and not direct:  # the first deal is an action: every event is seen
        for v in [*range(n), cardcore.SPECTATOR]:
            streams[v] = []
            game.events.subscribe(cardcore.Event, streams[v].append, seat=v)
        reload_p = 0.0
    seen = 0  # hand entries compared
    base = 0  # model.ended index of the game's first history entry
    for _step in range(3000):
        hist = [h for h in game.history(None) if h.get("kind") == "hand"]
        while base + len(hist) > seen:
            compare_hand(model, hist[seen - base], seen)
            seen += 1
        if (
            model.phase == "between"
            and model.ended
            and model.ended[-1]["reason"] == "void"
            and VOID_COUNTS not in rules
        ):
            # a void deal's re-deal is chance; the position's ``next`` holds at
            # most the hands still to play, so stack the model's decks again
            pos = game.position()
            pos = stack_deals(pos, [" ".join(d) for d in model.decks[: hands - model.played]])
            extra = sorted(rules - {NATURAL})
            without = () if NATURAL in rules else (NATURAL,)
            game = cardcore.new_game(
                "tonk",
                n,
                rules=extra,
                without=without,
                options=options,
                position=pos,
                seed=seed,
            )
            base = seen
        who = model.to_act()
        assert game.is_over == (who is None), (game.to_act, model.phase)
        if who is None:
            break
        assert tuple(game.to_act) == (who,)
        eng = [str(a) for a in game.legal_actions(who)]
        mine = model.legal()
        assert sorted(eng) == sorted(t for _, t in mine), (
            f"seed {seed}: legal sets differ\nengine: {eng}\nmodel: "
            f"{[t for _, t in mine]}\nhand {model.hand[who]} spreads {model.spreads}"
        )
        keys = dict((t, k) for k, t in mine)
        order = [keys[t] for t in eng]
        assert order == sorted(order), f"TONK-LEGAL-1 order: {eng}"
        if reload_p and rng.random() < reload_p:
            # the state must survive a clone, a save and a position unchanged
            how = rng.choice(("clone", "save", "position"))
            if how == "clone":
                game = game.clone()
            elif how == "save":
                game = cardcore.load(game.save())
            else:
                extra = sorted(rules - {NATURAL})
                without = () if NATURAL in rules else (NATURAL,)
                game = cardcore.new_game(
                    "tonk",
                    n,
                    rules=extra,
                    without=without,
                    options=game.options if direct else options,
                    position=game.position(),
                    seed=seed,
                )
                base = seen
            STATS["reloads"] = STATS.get("reloads", 0) + 1
        check_view(game, model, who)
        if rng.random() < 0.15:
            probe_illegal(game, model, who, set(eng), rng)
        text = choose(rng, eng, drop_p, take_p, not model.stock)
        STATS["decisions"] += 1
        game.act(who, restyle(text, rng))
        if text == "deal" and direct:
            # TONK-SESSION-2: a later hand of a ``deck=`` game is shuffled by
            # chance; read the dealt pack back from the position (piles bottom
            # to top) and let the model deal it by its own rules
            model.decks.insert(0, dealt_pack(game.position(), model))
        before = len(model.ended)
        model.apply(text)
        for v, got in streams.items():
            check_events(model, who, text, v, got, before)
            got.clear()
    else:  # pragma: no cover
        raise AssertionError("game did not end")
    hist = [h for h in game.history(None) if h.get("kind") == "hand"]
    while base + len(hist) > seen:
        compare_hand(model, hist[seen - base], seen)
        seen += 1
    assert seen == len(model.ended), (seen, [e["reason"] for e in model.ended])
    res = game.result
    assert res is not None
    assert res.reason == model.last_reason
    assert list(res.payouts) == model.balances
    assert list(res.scores) == [b / stake for b in model.balances]
    best = max(model.balances)
    assert list(res.winners) == [s for s in range(n) if model.balances[s] == best]
    if replay:
        again = cardcore.replay(game.record())
        assert again.result == res
        assert again.view(None) == game.view(None)
    STATS["games"] += 1
    STATS["hands"] += len(model.ended)
    return model, game


def compare_hand(model: Model, eng: dict[str, Any], i: int) -> None:
    mine = model.ended[i]
    assert eng["reason"] == mine["reason"], (eng, mine)
    assert list(eng["amounts"]) == mine["amounts"], (eng, mine)
    assert list(eng["balances"]) == mine["balances"], (eng, mine)
    if mine["seat"] is not None:
        assert eng["seat"] == mine["seat"], (eng, mine)
    raw = eng["shown"] if eng["shown"] is not None else [None] * model.n
    shown = [sorted(h, key=ckey) if h is not None else None for h in raw]
    assert shown == mine["shown"], (eng, mine)
    if "totals" in eng and mine["reason"] in ("drop-won", "drop-caught", "stock-out"):
        assert list(eng["totals"]) == mine["totals"], (eng, mine)


def restyle(text: str, rng: random.Random) -> str:
    """TONK-NOTE-1: spread cards in any order, case and extra spaces ignored."""
    words = text.split()
    if words[0] == "spread" and rng.random() < 0.5:
        cards = words[1:]
        rng.shuffle(cards)
        words = ["spread", *cards]
    if rng.random() < 0.2:
        return "  ".join(w.lower() for w in words)
    return " ".join(words)


def rng_bit(model: Model) -> bool:
    """Alternate a seat's view and the spectator's, deterministically."""
    return sum(len(h) for h in model.hand) % 2 == 0


def check_view(game: Any, model: Model, who: int) -> None:
    mine = game.view(who)
    assert mine["legal"] == [str(a) for a in game.legal_actions(who)]
    table = mine["table"]
    if model.hand:
        assert table["hand_sizes"] == [len(h) for h in model.hand]
    assert table["balances"] == model.balances
    if model.phase in ("start", "play"):
        assert sorted(table["hand"], key=ckey) == sorted(model.hand[who], key=ckey)
        assert table["stock"] == len(model.stock)
        assert table["discard_count"] == len(model.discard)
        assert table["discard_top"] == (model.discard[-1] if model.discard else None)
        assert table["taken"] == model.taken
        assert table["dealer"] == model.dealer and table["turn"] == model.turn
        spreads = [sorted(sp["cards"], key=ckey) for sp in table["spreads"]]
        assert spreads == [sorted(sp, key=ckey) for sp, _ in model.spreads]
        assert table["shown"] == [False] * model.n
        # TONK-VIEW-1: another seat's hand shows only when every card is known
        if model.phase == "play":
            viewer = (who + 1) % model.n if rng_bit(model) else None
            view = game.view(viewer)
            assert view["legal"] == []
            zones = {z["name"]: z for z in view["zones"]}
            assert zones["stock"]["cards"] == [None] * len(model.stock)
            cards = zones[f"hand.{who}"]["cards"]
            if set(model.hand[who]) <= model.known[who]:
                assert sorted(cards, key=ckey) == sorted(model.hand[who], key=ckey)
            else:
                assert cards == [None] * len(model.hand[who])
            disc = zones["discard"]["cards"]
            # TONK-DISC-1: only the top (listed first) shows
            assert disc == model.discard[-1:] + [None] * (len(model.discard) - 1)
        # TONK-49-2: a void deal keeps the hand's number
        assert table["hand_number"] == model.played + 1
    elif model.ended:
        # TONK-VIEW-1: the finished hand's shown hands stay face up until the deal
        last = model.ended[-1]
        assert table["shown"] == [h is not None for h in last["shown"]]
        viewer = (who + 1) % model.n if rng_bit(model) else None
        zones = {z["name"]: z for z in game.view(viewer)["zones"]}
        for s in range(model.n):
            if s == viewer:
                continue
            cards = zones[f"hand.{s}"]["cards"]
            hand = sorted(model.hand[s], key=ckey)
            if last["shown"][s] is not None or set(hand) <= model.known[s]:
                assert sorted(cards, key=ckey) == hand, (s, cards, last)
            else:
                assert cards == [None] * len(hand), (s, cards, last)


def probe_illegal(game: Any, model: Model, who: int, legal: set[str], rng: random.Random) -> None:
    """A well-formed action outside the legal set raises IllegalActionError."""
    hand = model.hand[who] if model.hand else []
    cands = ["deal", "drop", "draw", "take"]
    cands += [f"discard {c}" for c in hand]
    cands += [f"hit {len(model.spreads) + 1} {c}" for c in hand[:1]]
    if len(hand) >= 3:
        cands.append("spread " + fmt(rng.sample(hand, 3)))
    bad = [t for t in cands if t not in legal]
    if not bad:
        return
    text = rng.choice(bad)
    version = game.version
    with pytest.raises(cardcore.IllegalActionError):
        game.act(who, text)
    assert game.version == version


# ---------------------------------------------------------------- lockstep sweeps

SINGLES = [
    NO_UPCARD,
    MUST_LAY,
    DOUBLE_SPREAD,
    HIT_BLOCKS,
    DISCARD_ONLY,
    QUIET_ANY,
    VOID_COUNTS,
    SHOWS_EVERY,
]
CONFIGS: list[frozenset[str]] = [
    frozenset({NATURAL}),
    frozenset(),
    *[frozenset({NATURAL, r}) for r in SINGLES],
    frozenset({NATURAL, DISCARD_ONLY, QUIET_ANY}),
    frozenset({NATURAL, DISCARD_ONLY, HIT_BLOCKS}),
    frozenset({NATURAL, DISCARD_ONLY, MUST_LAY}),
    frozenset({NATURAL, NO_UPCARD, DISCARD_ONLY}),
    frozenset({NATURAL, MUST_LAY, DOUBLE_SPREAD}),
    frozenset({NATURAL, VOID_COUNTS, SHOWS_EVERY}),
    frozenset({NATURAL, NO_UPCARD, HIT_BLOCKS}),
    frozenset({MUST_LAY, HIT_BLOCKS}),
    frozenset({DISCARD_ONLY, QUIET_ANY, DOUBLE_SPREAD}),
    frozenset({NATURAL, VOID_COUNTS, NO_UPCARD, MUST_LAY}),
]


def _name(rules: frozenset[str]) -> str:
    if not rules:
        return "no-natural"
    return "+".join(sorted(r.split(".")[1] for r in rules))


@pytest.mark.parametrize("rules", CONFIGS, ids=[_name(r) for r in CONFIGS])
def test_lockstep_sweep(rules: frozenset[str]) -> None:
    """Legal sets, order, views, hand ends, payouts and results agree."""
    before = dict(STATS)
    reasons: set[str] = set()
    for k in range(12):
        seed = sum(map(ord, _name(rules))) * 100 + k
        model, _game = play(
            seed,
            n=2 + k % 3,
            rules=rules,
            stake=(1, 2, 5, 1_000_000)[k % 4],
            hands=1 + (k * 5) % 4,
            natural_p=0.25 if NATURAL in rules else 0.15,
            drop_p=(0.01, 0.05, 0.2)[k % 3],
            take_p=(0.3, 0.6)[k % 2],
            reload_p=0.03,
            replay=k % 4 == 1,
            events=k % 4 == 2,
        )
        reasons |= {e["reason"] for e in model.ended}
    assert STATS["games"] - before["games"] == 12
    assert STATS["decisions"] - before["decisions"] > 300
    assert len(reasons) >= 3, reasons


# ---------------------------------------------------------------- crafted hands


def stacked(n: int, dealer: int, hands: list[list[str]], top: list[str]) -> str:
    """A deck (top first) dealing ``hands[s]`` to seat s, then ``top`` (upcard, stock)."""
    deck: list[str] = [""] * (5 * n)
    for i in range(5 * n):
        seat = (dealer + 1 + i) % n
        deck[i] = hands[seat][i // n]
    used = set(deck) | set(top)
    assert len(used) == 5 * n + len(top)
    rest = [c for c in FULL if c not in used]
    return " ".join(deck + top + rest)


def crafted(
    n: int,
    hands: list[list[str]],
    top: list[str],
    stake: int = 1,
    rules: tuple[str, ...] = (),
    without: tuple[str, ...] = (),
) -> Any:
    dealer = n - 1  # seat 0 plays first
    options: dict[str, Any] = {"first_dealer": dealer, "stake": stake}
    return cardcore.new_game(
        "tonk",
        n,
        rules=rules,
        without=without,
        options=options,
        seed=3,
        deck=stacked(n, dealer, hands, top),
    )


def hand_of(total_: int, avoid: set[str]) -> list[str]:
    """Five cards with no book or run, totalling ``total_`` (searched from FULL)."""
    pool = [c for c in FULL if c not in avoid]
    rng = random.Random(total_)
    for _ in range(20000):
        cards = rng.sample(pool, 5)
        if total(cards) == total_ and not holds_spread(cards):
            return cards
    raise AssertionError(total_)


# The worked payouts of seeds/tonk.md (stake 1, seats P0 P1 P2), P0 drops at once.
# Five dealt cards cannot total 3, so each row's totals are replaced by totals in
# the same order relations (the payouts depend on nothing else).
DROP_TABLE = [
    ((3, 7, 9), (20, 30, 40), "drop-won", (2, -1, -1)),
    ((10, 5, 20), (30, 20, 40), "drop-caught", (-2, 3, -1)),
    ((10, 5, 8), (40, 20, 30), "drop-caught", (-4, 3, 1)),
    ((6, 6, 20), (30, 30, 40), "drop-caught", (-2, 3, -1)),
    ((9, 4, 4), (40, 20, 20), "drop-caught", (-4, 2, 2)),
]


@pytest.mark.parametrize("stake", [1, 7])
@pytest.mark.parametrize(("row", "totals", "reason", "payouts"), DROP_TABLE)
def test_worked_drop_payouts(
    row: tuple[int, int, int],
    totals: tuple[int, int, int],
    reason: str,
    payouts: tuple[int, ...],
    stake: int,
) -> None:
    """TONK-DROP-2..5 worked rows, scaled by the stake (TONK-STAKE-1)."""
    used: set[str] = set()
    hands = []
    for t in totals:
        h = hand_of(t, used)
        used |= set(h)
        hands.append(h)
    game = crafted(3, hands, [c for c in FULL if c not in used][:1], stake=stake)
    assert not game.is_over
    game.act(0, "drop")
    res = game.result
    assert res.reason == reason
    assert res.payouts == tuple(p * stake for p in payouts)
    assert res.scores == tuple(float(p) for p in payouts)
    assert game.history(None)[-1]["totals"] == list(totals)


def test_natural_pays_double_from_every_seat() -> None:
    """TONK-49-1 worked row: natural 49/50 to P0 -> (+4, -2, -2), times the stake."""
    hands = [["10S", "JS", "QS", "KD", "9H"], ["2C", "3D", "5H", "7S", "9C"]]
    hands.append(["AS", "4D", "6C", "8H", "10C"])
    game = crafted(3, hands, ["2H"], stake=3)
    assert game.result.reason == "natural"
    assert game.result.payouts == (12, -6, -6)


def test_natural_off_plays_the_hand() -> None:
    """Without tonk.natural-49-50 a dealt 49 is an ordinary hand."""
    hands = [["10S", "JS", "QS", "KD", "9H"], ["2C", "3D", "5H", "7S", "9C"]]
    hands.append(["AS", "4D", "6C", "8H", "10C"])
    game = crafted(3, hands, ["2H"], without=(NATURAL,))
    assert not game.is_over
    assert [str(a) for a in game.legal_actions(0)] == ["drop", "draw", "take"]


def test_taken_card_alone_may_stay_when_it_can_hit() -> None:
    """TONK-TURN-5: spreading 2H-6H after taking 7H leaves 7H, which can hit the run."""
    hands = [["2H", "3H", "4H", "5H", "6H"], ["9C", "JD", "KS", "4C", "8D"]]
    game = crafted(2, hands, ["7H", "QC"])
    game.act(0, "take")
    legal = {str(a) for a in game.legal_actions(0)}
    assert "spread 2H 3H 4H 5H 6H" in legal  # 7H could then hit
    assert "spread 2H 3H 4H 5H 6H 7H" in legal  # empties the hand
    game.act(0, "spread 2H 3H 4H 5H 6H")
    assert [str(a) for a in game.legal_actions(0)] == ["hit 1 7H"]
    game.act(0, "hit 1 7H")
    assert game.result.reason == "tonk-out"
    assert game.result.payouts == (2, -2)


def test_taken_card_alone_is_refused_when_it_cannot_hit() -> None:
    """TONK-TURN-5: spreading all five after taking KS would strand KS."""
    hands = [["2H", "3H", "4H", "5H", "6H"], ["9C", "JD", "KD", "4C", "8D"]]
    game = crafted(2, hands, ["KS", "QC"])
    game.act(0, "take")
    legal = {str(a) for a in game.legal_actions(0)}
    assert "spread 2H 3H 4H 5H 6H" not in legal
    assert "spread 2H 3H 4H 5H" in legal
    with pytest.raises(cardcore.IllegalActionError):
        game.act(0, "spread 6H 5H 4H 3H 2H")


@pytest.mark.parametrize(("rules", "units"), [((), 2), ((DOUBLE_SPREAD,), 1)])
def test_tonk_out_by_hits_alone(rules: tuple[str, ...], units: int) -> None:
    """TONK-OUT-1 pays 2S; TONK-VAR-3 pays S when the hand empties by hits alone."""
    hands = [["2H", "3H", "4H", "5H", "9C"], ["JD", "KS", "4C", "8D", "QC"]]
    game = crafted(2, hands, ["10S", "6H", "8S", "7H"], stake=5, rules=rules)
    for text in ["draw", "spread 2H 3H 4H", "discard 9C"]:
        game.act(0, text)
    game.act(1, "draw")
    game.act(1, "discard 8S")
    game.act(0, "draw")
    for text in ["hit 1 5H", "hit 1 6H", "hit 1 7H"]:
        game.act(0, text)
    assert game.result.reason == "tonk-out"
    assert game.result.payouts == (5 * units, -5 * units)


@pytest.mark.parametrize("rules", [(), (DOUBLE_SPREAD,)])
def test_tonk_out_with_a_new_spread_pays_double(rules: tuple[str, ...]) -> None:
    """TONK-VAR-3: a new spread this turn keeps the 2S tonk-out."""
    hands = [["2H", "3H", "4H", "5H", "9C"], ["JD", "KS", "4C", "8D", "QC"]]
    game = crafted(2, hands, ["10S", "6H", "8S", "7H"], stake=5, rules=rules)
    for text in ["draw", "spread 2H 3H 4H", "discard 9C"]:
        game.act(0, text)
    game.act(1, "draw")
    game.act(1, "discard 8S")
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    assert game.result.payouts == (10, -10)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_dealer_cut_highest_rank_deals(n: int) -> None:
    """TONK-DEALER-1: the last cut round's highest rank (K high, A low) deals."""
    order = {r: i for i, r in enumerate(RANKS)}
    ties = 0
    for seed in range(60):
        options = {"max_players": 4}
        game = cardcore.new_game("tonk", n, seed=seed, without=(NATURAL,), options=options)
        cut = game.history(None)[0]
        assert cut["kind"] == "cut"
        rounds = cut["rounds"]
        for earlier in rounds[:-1]:  # every earlier round tied for highest
            ranks = [order[r] for r in earlier if r is not None]
            assert ranks.count(max(ranks)) >= 2
        last = [order[r] if r is not None else -1 for r in rounds[-1]]
        assert last.count(max(last)) == 1
        assert cut["dealer"] == last.index(max(last))
        assert game.view(None)["table"]["dealer"] == cut["dealer"]
        assert game.to_act == ((cut["dealer"] + 1) % n,)
        ties += len(rounds) > 1
    assert ties > 0  # a tie for highest was cut again at least once


CARD = re.compile(r"^(10|[2-9AJQK])[SHDC]")


def dealt_pack(position: str, model: Model) -> list[str]:
    """The pack of a deal the engine just made, top first, from its position."""
    piles: dict[str, list[str]] = {}
    for part in position.split(" | ")[1:]:
        name, _, cards = part.partition(":")
        found = [CARD.match(w) for w in cards.split()]
        piles[name.strip()] = [m.group(0) for m in found if m]
    n = model.n
    dealer = model.dealer
    pack = []
    for i in range(5 * n):
        hand = piles[f"hand.{(dealer + 1 + i) % n}"]
        assert len(hand) == 5
        pack.append(hand[i // n])
    pack += piles["discard"][::-1] + piles["stock"][::-1]
    assert sorted(pack) == sorted(FULL)
    return pack


def test_must_lay_down_three_aces_may_stay_four_may_not() -> None:
    """TONK-VAR-2 / TONK-GAP-12: only a book of exactly three aces may be held."""
    hands = [["AS", "AH", "AD", "AC", "9C"], ["JD", "KS", "4C", "8D", "QC"]]
    game = crafted(2, hands, ["10S", "KH", "2D"], rules=(MUST_LAY,))
    game.act(0, "draw")  # KH
    legal = {str(a) for a in game.legal_actions(0)}
    assert "discard 9C" not in legal  # would keep a book of four aces
    assert "discard KH" not in legal
    assert {"discard AS", "discard AH", "discard AD", "discard AC"} <= legal
    game.act(0, "discard AC")
    game.act(1, "draw")  # 2D
    game.act(1, "discard 2D")
    assert "drop" in {str(a) for a in game.legal_actions(0)}  # drops unrestricted


@pytest.mark.parametrize(
    ("players", "options", "ok"),
    [
        (4, {}, False),  # TONK-GEN-1: max_players defaults to 3
        (4, {"max_players": 4}, True),
        (3, {"max_players": 2}, False),
        (2, {"stake": 0}, False),  # TONK-STAKE-1: 1 to 1,000,000
        (2, {"stake": 1_000_000}, True),
        (2, {"stake": 1_000_001}, False),
        (2, {"hands": 0}, False),  # TONK-SESSION-1: 1 to 100,000
        (2, {"hands": 100_000}, True),
        (2, {"hands": 100_001}, False),
    ],
)
def test_option_ranges(players: int, options: dict[str, int], ok: bool) -> None:
    if ok:
        game = cardcore.new_game("tonk", players, options=options, seed=1)
        assert len(game.players) == players
    else:
        with pytest.raises(cardcore.CardcoreError) as info:
            cardcore.new_game("tonk", players, options=options, seed=1)
        assert next(iter(options) if options else iter(["max_players"])) in str(info.value)


def test_taken_card_left_alone_after_a_hit_that_lets_it_hit() -> None:
    """TONK-TURN-5: 'could then hit' is judged after the hit (9H makes room for 10H)."""
    hands = [["5H", "6H", "7H", "8H", "KC"], ["10H", "JD", "4C", "8D", "QC"]]
    game = crafted(2, hands, ["3S", "9H", "2C"])
    for text in ["draw", "spread 5H 6H 7H", "hit 1 8H", "discard KC"]:
        game.act(0, text)
    game.act(1, "draw")  # 2C
    game.act(1, "discard 10H")
    game.act(0, "take")  # 10H; hand 9H 10H
    assert [str(a) for a in game.legal_actions(0)] == ["hit 1 9H", "discard 9H"]
    game.act(0, "hit 1 9H")
    assert [str(a) for a in game.legal_actions(0)] == ["hit 1 10H"]
    game.act(0, "hit 1 10H")
    assert (game.result.reason, game.result.payouts) == ("tonk-out", (2, -2))


def check_events(model: Model, actor: int, text: str, v: int, got: list[Any], before: int) -> None:
    """TONK-VIEW-1 for events: seat v's stream carries only what v may know."""
    for e in got:
        j = e.to_json()
        kind = j["event"]
        if kind == "card-drawn":
            if j["source"] == "stock":
                mine = model.hand[actor][-1] if v == actor else None
                assert j["card"] == mine, (v, j)
            else:
                assert j["card"] == model.taken, j
        elif kind == "hand-dealt":
            own = sorted(model.hand[j["seat"]], key=ckey) if v == j["seat"] else None
            cards = j["cards"]
            assert (sorted(cards, key=ckey) if cards is not None else None) == own, j
            upcard = None if NO_UPCARD in model.rules else model.discard[0]
            assert j["upcard"] == upcard, j
        elif kind == "hand-ended":
            mine = model.ended[-1]
            assert len(model.ended) == before + 1
            assert (j["reason"], j["amounts"], j["totals"]) == (
                mine["reason"],
                mine["amounts"],
                mine["balances"],
            ), j
            raw = j.get("shown") or [None] * model.n
            shown = [sorted(h, key=ckey) if h is not None else None for h in raw]
            assert shown == mine["shown"], j
        elif kind == "card-discarded":
            assert text.split()[0] == "discard" and j["card"] == text.split()[1]


def void_deck(n: int, dealer: int) -> list[str]:
    """A pack whose deal gives the first two seats dealt to 50 each (TONK-49-2)."""
    tens = [c for c in FULL if value(c) == 10]
    hands = [tens[:5], tens[5:10]] + [[] for _ in range(n - 2)]
    rest = [c for c in FULL if c not in tens[:10]]
    for s in range(2, n):
        hands[s] = rest[:5]
        rest = rest[5:]
    order = [(dealer + 1 + j) % n for j in range(n)]
    by_seat = {order[j]: hands[j] for j in range(n)}
    return stacked(n, dealer, [by_seat[s] for s in range(n)], []).split()


def test_void_deal_then_stacked_hand_lockstep() -> None:
    """TONK-49-2 in a one-hand session: the void deal is dealt again, keeps number 1."""
    deck = void_deck(3, 1)
    game = start_game(3, frozenset({NATURAL}), {"stake": 1, "hands": 1}, [deck], 1, 5, False)
    game.act(1, "deal")
    entry = game.history(None)[-1]
    assert entry["reason"] == "void" and entry["amounts"] == [0, 0, 0]
    assert game.to_act == (2,) and not game.is_over  # TONK-DEALER-2, then deal again
    assert [str(a) for a in game.legal_actions(2)] == ["deal"]
    assert game.view(0)["table"]["hand_number"] == 1


def test_next_can_stack_the_redeal_of_a_void_deal() -> None:
    """TONK-NOTE-2 + TONK-49-2: a void deal is a deal, so its re-deal is a coming deal."""
    deck = void_deck(3, 1)
    again = FULL[::-1]
    game = start_game(3, frozenset({NATURAL}), {"stake": 1, "hands": 1}, [deck, again], 1, 5, False)
    game.act(1, "deal")  # void (two naturals), the deal passes to seat 2
    game.act(2, "deal")  # dealt from the second stacked pack
    model = Model(n=3, rules=frozenset({NATURAL}), decks=[again])
    model.dealer = 2
    model.deal()
    assert game.view(0)["table"]["hand"] == sorted(model.hand[0], key=ckey)
    assert game.view(0)["table"]["discard_top"] == model.discard[-1]


def test_position_head_names_spreads_as_in_the_spec() -> None:
    """seeds/tonk.md TONK-NOTE-2: ``spreads`` = [size, owner] of each spread laid."""
    hands = [["2H", "3H", "4H", "5H", "6H"], ["9C", "JD", "KS", "4C", "8D"]]
    game = crafted(2, hands, ["7H", "QC"])
    game.act(0, "take")
    game.act(0, "spread 2H 3H 4H")
    head = game.position().split(" | ")[0].split()
    assert "spreads=[[3,0]]" in head
    assert 'taken="7H"' in head
