"""A hostile, stateful fuzzer of the whole Game API (review of 5 December 2026).

One hypothesis ``RuleBasedStateMachine`` drives Golf (every layout), Tonk, Spit and
Speed, with random house-rule combinations and option values (at and beyond their
declared bounds), through random interleavings of legal actions, illegal and forged
actions, hostile ``act`` text, clones, saves and loads (tampered and signed ones too),
records and replays, views of every seat, ``seen=``/``at=`` in real time, resignations
and the host's end of the match. After every step it checks the engine's promises:
only ``CardcoreError`` reaches a caller, a refused call changes nothing, every card
is in exactly one place, views never show another seat's hidden card, the legal
actions are accepted, a replay of the record is the same game, clones are
independent, and every seat's subscriber hears every action although another
subscriber raises.

Each example notes its configuration and seed (``note``), so a failing example
prints them; the ``ci`` profile is derandomized, so a failure repeats.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import cardcore
from cardcore import (
    ALL,
    ActionApplied,
    ArgumentError,
    CardcoreError,
    CorruptStateError,
    EndMatch,
    Event,
    Resign,
    Visibility,
)
from cardcore.testing._util import (
    card_tokens,
    conservation_problem,
    fingerprint,
    known_cards,
    message_problem,
)

try:
    from cardcore.rl import observe
except ImportError:  # pragma: no cover - the rl extra is not installed
    observe = None

GOLF_LAYOUTS = (6, 8, 9, 10, "4", "4h")
REALTIME = ("spit", "speed")
KEY = b"the host's secret"
MAX_TIME = 1e15


# -- configurations -------------------------------------------------------------------------


def _rule_sets(name: str) -> list[str]:
    return list(cardcore.available_rules(name))


def _conflicts(rule: str) -> set[str]:
    info = cardcore.rule_info(rule)
    return set(getattr(info, "conflicts", ()) or ())


def _pick_rules(name: str, rng: random.Random) -> list[str]:
    """A random set of house rules of *name* without declared conflicts."""
    chosen: list[str] = []
    for rule_name in rng.sample(_rule_sets(name), k=rng.randint(0, min(4, len(_rule_sets(name))))):
        if any(rule_name in _conflicts(c) or c in _conflicts(rule_name) for c in chosen):
            continue
        chosen.append(rule_name)
    return sorted(chosen)


def _options(name: str, layout: Any, rng: random.Random) -> dict[str, Any]:
    """Options that keep a game short (within the declared bounds)."""
    if name == "golf":
        opts: dict[str, Any] = {"layout": layout, "rounds": rng.choice([1, 1, 2])}
        if rng.random() < 0.3:
            opts["max_turns"] = rng.choice([1, 2, 5])
        if rng.random() < 0.3:
            opts["dealer"] = rng.choice(["random", 0, 1])
        if rng.random() < 0.2:
            opts["points_limit"] = rng.choice([1, 20, 1000])
        return opts
    if name == "tonk":
        opts = {"hands": rng.choice([1, 3, 5]), "stake": rng.choice([1, 7, 1_000_000])}
        if rng.random() < 0.3:
            opts["first_dealer"] = rng.choice([0, 1])
        return opts
    if name == "spit":
        return {"stall_limit": rng.choice([1, 2, 20, 1000])}
    return {"side_pile": rng.choice([5, 15]), "jokers": rng.choice([0, 2])}


def _players(name: str, rng: random.Random) -> int:
    if name == "golf":
        return rng.choice([2, 2, 3, 4, 6])
    if name == "tonk":
        return rng.choice([2, 3, 4])
    return 2


HOSTILE_VALUES: tuple[Any, ...] = (
    0,
    -1,
    1,
    2,
    3,
    4,
    5,
    15,
    63,
    64,
    100,
    101,
    1000,
    1001,
    1_000_000,
    1_000_001,
    100_000,
    100_001,
    2**64,
    10**400,
    -(10**400),
    True,
    False,
    1.0,
    2.5,
    float("nan"),
    float("inf"),
    "1",
    "4H",
    "random",
    "",
    None,
    [1],
    {"a": 1},
)


def _declared(name: str) -> dict[str, cardcore.Option]:
    return {o.name: o for o in cardcore.game_info(name).options}


def _within(option: cardcore.Option, value: Any) -> bool:
    """Whether *value* is one the option declares (choices, bounds, None when nullable)."""
    if value is None:
        return bool(option.nullable)
    if option.choices and value in option.choices and type(value) in (int, str):
        return True
    if type(value) is int and option.minimum is not None and option.maximum is not None:
        return option.minimum <= value <= option.maximum
    return False


# -- hostile inputs -------------------------------------------------------------------------

NEAR_MISS = (
    "flip",
    "flip -1",
    "flip 99",
    "flip 1.5",
    "flip 0x1",
    "flip ０",
    "flip ²",
    "replace",
    "replace 1 2",
    "peek 9",
    "draw draw",
    "take\x00",
    "discard 10h",
    "discard 1H",
    "discard 11H",
    "discard JK",
    "spread",
    "spread AS 2S",
    "spread AS AS AS",
    "hit 0 5H",
    "hit -1 5H",
    "hit 99 5H",
    "drop now",
    "play 1 L",
    "play 6 L",
    "play 0 R",
    "play 1 M",
    "play 1 l",
    "play 3D L",
    "play JK R",
    "play 3d r",
    "play 1D L",
    "combine 1 2",
    "combine 2 2",
    "fill 1 9",
    "ready",
    "spit",
    "slap L",
    "slap X",
    "choose R",
    "stuck",
    "knock",
    "resign now",
    "end",
    " END ",
    "resign",
    "\tresign\n",
    "RESIGN",
    "r\u00e9sign",
    "\u202eflip 1",
    "flip\u00a01",
    "flip\u20091",
    "ﬂip 1",
    "flip 1" + "\u0301",
    "\x1b[31mdraw",
    "draw\r\n",
    "",
    " ",
    "x" * 199,
    "x" * 200,
    "x" * 201,
    "flip " + "9" * 5000,
    "discard " + "🂡",
    "play 10S L " * 30,
)


def _hostile_text(data: st.DataObject, legal_texts: list[str]) -> str:
    choice = data.draw(st.integers(0, 4), label="text kind")
    if choice == 0:
        return data.draw(st.sampled_from(NEAR_MISS), label="near miss")
    if choice == 1:
        return data.draw(st.text(max_size=30), label="random text")
    if choice == 2 and legal_texts:
        base = data.draw(st.sampled_from(legal_texts), label="legal base")
        how = data.draw(st.integers(0, 6), label="mangle")
        if how == 0:
            return base + " extra"
        if how == 1:
            return base.replace(" ", "  ")
        if how == 2:
            return base.upper()
        if how == 3:
            return base[:-1]
        if how == 4:
            return base + "\x00"
        if how == 5:
            return base.replace("0", "０").replace("1", "１")
        return " " + base + " "
    if choice == 3:
        return data.draw(
            st.text(
                st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=150, max_size=260
            ),
            label="long text",
        )
    return data.draw(
        st.text(st.characters(categories=["Cc", "Cf", "Zs", "Nd", "No", "Lu"]), max_size=12),
        label="control text",
    )


HOSTILE_FIELDS: tuple[Any, ...] = (
    -1,
    99,
    10**30,
    10**5000,
    1.0,
    float("nan"),
    float("inf"),
    -0.0,
    True,
    "0",
    "L",
    None,
    (),
    [0],
    {"x": 1},
    object(),
)


def _r(value: Any) -> str:
    """A short repr (an int too long to print is shown by its size)."""
    if isinstance(value, int) and value.bit_length() > 200:
        return f"<int of {value.bit_length()} bits>"
    try:
        text = repr(value)
    except Exception:
        text = object.__repr__(value)
    return text if len(text) <= 80 else text[:77] + "..."


# -- checks -----------------------------------------------------------------------------------


def _no_raw(what: str, call: Callable[[], Any]) -> tuple[Any, CardcoreError | None]:
    """Run *call*; a CardcoreError is returned (checked for a message), anything else fails."""
    try:
        return call(), None
    except CardcoreError as exc:
        problem = message_problem(exc)
        assert problem is None or "period" in problem, f"{what}: {problem}"
        assert str(exc).strip(), f"{what}: {type(exc).__name__} with an empty message"
        return None, exc
    except RecursionError as exc:  # pragma: no cover - reported as a failure
        pytest.fail(f"{what}: raw RecursionError escaped: {exc!r}"[:400])
    except Exception as exc:  # pragma: no cover - the failure looked for
        pytest.fail(f"{what}: raw {type(exc).__name__} escaped: {exc!r}"[:400])


def _leaks(game: cardcore.Game, seat: int | None, view: dict[str, Any]) -> list[str]:
    """Say which cards *view* shows that *seat* may not know (empty if none)."""
    state = game.state
    zones = state.zones
    problems = []
    for z, shown in enumerate(view["zones"]):
        pile = zones.cards[z]
        assert shown["count"] == len(pile), (
            f"zone {shown['name']}: count {shown['count']} != {len(pile)}"
        )
        spec = zones.layout.specs[z]
        masks = zones.seen[z]
        if (
            spec.visibility is Visibility.OWNER
            and not spec.ordered
            and masks.count(ALL) == len(pile)
        ):
            # a hand turned face up shows sorted, not in its drawn order (zones.Visibility.OWNER)
            if sorted(map(str, shown["cards"])) != sorted(map(str, pile)):
                problems.append(f"{shown['name']} shows {shown['cards']}, not its cards")
            continue
        # a view lists each pile top first (embedding.rst), the state bottom to top
        for k, card in enumerate(shown["cards"]):
            i = len(pile) - 1 - k
            if card is None:
                continue
            if card != str(pile[i]):
                problems.append(f"{shown['name']}[{i}] shows {card}, the card there is {pile[i]}")
            elif not zones.knows(z, i, seat):
                problems.append(f"{shown['name']}[{i}] shows {card}, unknown to seat {seat}")
    allowed = known_cards(state, seat)
    extra = card_tokens({k: v for k, v in view.items() if k not in ("zones", "options")}) - allowed
    if extra:
        problems.append(f"the view's table/legal show {sorted(extra)} unknown to seat {seat}")
    return problems


def _consistent(game: cardcore.Game, what: str) -> None:
    problem = conservation_problem(game, None)
    assert problem is None, f"{what}: {problem}"
    assert game.version == len(game.record_entries()), f"{what}: version != record length"
    assert tuple(game.to_act) == tuple(game.state.to_act), f"{what}: to_act out of step"
    assert game.is_over == game.state.is_over, f"{what}: is_over out of step"


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.append((*prefix, k))
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.append((*prefix, i))
            out.extend(_paths(v, (*prefix, i)))
    return out


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        data = data[p]
    return data


def _set(data: Any, path: tuple[Any, ...], value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value


def _tamper(data: dict[str, Any], rng: random.Random, other: dict[str, Any] | None) -> str:
    """Change *data* in one way; return what was done."""
    kind = rng.randrange(8)
    state_cards = [
        p
        for p in _paths(data)
        if len(p) >= 2 and p[-2] == "cards" and isinstance(_get(data, p), str)
    ]
    if kind == 0 and len(state_cards) >= 2:  # swap two cards
        a, b = rng.sample(state_cards, 2)
        va, vb = _get(data, a), _get(data, b)
        _set(data, a, vb)
        _set(data, b, va)
        return f"swapped {a} and {b}"
    if kind == 1 and len(state_cards) >= 2:  # duplicate a card
        a, b = rng.sample(state_cards, 2)
        _set(data, b, _get(data, a))
        return f"duplicated {a} over {b}"
    if kind == 2:  # truncate the actions
        rec = data.get("record", data)
        if isinstance(rec.get("actions"), list) and rec["actions"]:
            rec["actions"] = rec["actions"][: rng.randrange(len(rec["actions"]))]
            return "truncated the actions"
    if kind == 3 and other is not None:  # another game's part
        part = rng.choice(
            [k for k in data if k in other and k not in ("format", "format_version")] or ["x"]
        )
        if part in other:
            data[part] = copy.deepcopy(other[part])
            return f"took {part!r} from another game"
    if kind == 4:  # truncated JSON text is refused as a whole
        return "truncated text"
    paths = [p for p in _paths(data) if not isinstance(_get(data, p), (dict, list))]
    if not paths:
        return "nothing"
    path = rng.choice(paths)
    old = _get(data, path)
    if isinstance(old, bool):
        new: Any = not old
    elif isinstance(old, int):
        new = old + rng.choice([-1, 1, 2**70])
    elif isinstance(old, float):
        new = old + 1.5
    elif isinstance(old, str):
        new = rng.choice([old[:-1], old + "x", old.upper(), old.lower(), "10H", "JK"])
    else:
        new = rng.choice([0, "x", False])
    _set(data, path, new)
    return f"{path}: {old!r} -> {new!r}"


# -- the machine ------------------------------------------------------------------------------


class GameFuzz(RuleBasedStateMachine):
    """Random interleavings of every public call on one game (and its clones)."""

    game: cardcore.Game

    def __init__(self) -> None:
        super().__init__()
        self.clones: list[tuple[cardcore.Game, Any]] = []
        self.heard: dict[int | str, list[int]] = {}
        self.known: dict[int | str, set[str]] = {}
        self.leaked: list[str] = []
        self.suspects: dict[int | str, list[str]] = {}
        self.reshuffled: dict[int | str, bool] = {}
        self.shown: dict[int | str, set[str]] = {}
        self.whole_game_heard = False
        self.events_heard = 0
        self.rounds: dict[int | str, int] = {}
        self.round_ended: dict[int | str, bool] = {}
        self.subscribed_at = 0
        self.clock = 0.0
        self.other_actions: list[cardcore.Action] = []
        self.other_save: dict[str, Any] | None = None

    # -- set-up ----------------------------------------------------------------------------

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(["tonk", "spit", "speed", "golf"]), label="game")
        layout = (
            data.draw(st.sampled_from(GOLF_LAYOUTS), label="layout") if name == "golf" else None
        )
        seed = data.draw(st.integers(0, 2**64), label="seed")
        rng = random.Random(seed)
        players = _players(name, rng)
        rules = _pick_rules(name, rng)
        options = _options(name, layout, rng)
        if name == "tonk" and players == 4:
            options["max_players"] = 4
        if name == "golf" and rng.random() < 0.3:  # the same layout spelled another way
            options["layout"] = {6: "6", 8: "8", 9: "9", 10: "10", "4": 4, "4h": "4H"}[layout]
        game = None
        while game is None:
            note(f"new_game({name!r}, {players}, rules={rules}, options={options}, seed={seed})")
            game, err = _no_raw(
                "new_game",
                lambda rules=rules: cardcore.new_game(
                    name, players, rules=rules, options=options, seed=seed
                ),
            )
            if err is not None:  # a house rule that does not apply to these options
                assert rules, f"a valid configuration was refused: {err}"
                named = [r for r in rules if r in str(err)]
                rules = [r for r in rules if r not in named] if named else rules[:-1]
        start = data.draw(st.sampled_from(["seed", "deck", "position"]), label="start")
        if start == "deck":  # a stacked deck: the game's whole deck in a seeded order
            cards = [str(c) for c in game.logic.deck(len(game.players), game.options)]
            rng.shuffle(cards)
            cards = cards[: rng.randint(1, len(cards))]
            note(f"deck={' '.join(cards)!r}")
            stacked, err = _no_raw(
                "new_game(deck=)",
                lambda: cardcore.new_game(
                    name, players, rules=rules, options=options, seed=seed, deck=" ".join(cards)
                ),
            )
            assert err is None, f"a stacked deck of the game's own cards was refused: {err}"
            game = stacked
        elif start == "position":  # a position reached by random play
            for _ in range(rng.randint(0, 40)):
                if game.is_over:
                    break
                seat = rng.choice(game.to_act)
                legal = game.legal_actions(seat)
                if legal:
                    game.apply(rng.choice(legal))
            if game.logic.has_positions() and not game.is_over:
                text = game.position()
                note(f"position={text!r}")
                placed, err = _no_raw(
                    "new_game(position=)",
                    lambda: cardcore.new_game(
                        name, players, rules=rules, options=options, seed=seed + 1, position=text
                    ),
                )
                assert err is None, f"a position the game wrote was refused: {err}"
                assert placed.state.zones.cards == game.state.zones.cards, (
                    "the position moved cards"
                )
                assert placed.state.zones.seen == game.state.zones.seen, (
                    "the position changed who knows what"
                )
                game = placed
            else:
                game = cardcore.new_game(name, players, rules=rules, options=options, seed=seed)
        self.game = game
        # a second game of another kind: its actions and its save are hostile input here
        other_name = "tonk" if name != "tonk" else "golf"
        other = cardcore.new_game(other_name, 2, seed=seed % 1000)
        for _ in range(3):
            if other.is_over:
                break
            seat = other.to_act[0]
            acts = other.legal_actions(seat)
            self.other_actions.extend(acts)
            other.apply(acts[0])
        self.other_save = other.save()
        self._subscribe()

    def _subscribe(self) -> None:
        """Every seat's subscriber hears every action, though an earlier subscriber raises."""
        game = self.game
        game.events.subscribe(Event, self._raiser, seat=0)
        for s in [*range(len(game.players)), cardcore.SPECTATOR]:
            self.heard[s] = []
            self.shown[s] = set()
            self.known[s] = known_cards(game.state, None if s == cardcore.SPECTATOR else s)
            self.rounds[s] = game.logic.rounds_played(game.state)
            self.round_ended[s] = False
            game.events.subscribe(Event, self._hearer(s), seat=s)
        self.subscribed_at = game.version
        self.whole_game_heard = game.version == 0

    @staticmethod
    def _raiser(event: Event) -> None:
        raise RuntimeError("a dropped connection")

    def _hearer(self, seat: int | str) -> Callable[[Event], None]:
        """A seat's subscriber: counts the actions and notes any card it may not know."""
        who = None if seat == cardcore.SPECTATOR else seat

        def hear(event: Event) -> None:
            game = self.game
            self.events_heard += 1
            if isinstance(event, ActionApplied):
                self._flush(seat)
                self.heard[seat].append(event.version)
                rounds = game.logic.rounds_played(game.state)
                # a round (deal, hand) that ended in this action showed its cards, then
                # dealt them again: what was shown is not where it lies now
                self.round_ended[seat] = rounds != self.rounds[seat] or game.is_over
                self.rounds[seat] = rounds
            # what the seat knows once the action is applied, or knew before
            known = self.known[seat] = self.known[seat] | known_cards(game.state, who)
            tokens = card_tokens(event.to_json())
            self.shown[seat] |= tokens
            shown = tokens - known
            if shown and self.round_ended[seat]:
                # a round that ended here showed its cards: the seat's history of it holds them
                last = max(0, self.rounds[seat] - 1)
                shown -= card_tokens(game.history(who, since=last))
            if any(word in event.slug for word in ("recycl", "shuffl", "void", "deal-")):
                self.reshuffled[seat] = True  # what this action showed may be face down again
            if shown:
                self.suspects[seat].append(
                    f"seat {seat} got {event!r} at v{self.game.version}: {sorted(shown)}"
                )

        return hear

    def _flush(self, seat: int | str) -> None:
        """Judge the last batch a seat heard: a card it showed that the seat knows neither
        before nor after is a leak, unless the batch shuffled shown cards face down again
        (a Spit centre recycle after a spit, a Golf stock rebuilt)."""
        if not self.reshuffled.get(seat):
            self.leaked.extend(self.suspects.get(seat, ()))
        self.suspects[seat] = []
        self.reshuffled[seat] = False

    @property
    def realtime(self) -> bool:
        return self.game.name in REALTIME

    def _stamp(self, data: st.DataObject) -> float | None:
        if not self.realtime:
            return data.draw(st.sampled_from([None, None, 0.0, 12.5]), label="at")
        self.clock = min(
            self.clock + data.draw(st.floats(0, 3, allow_nan=False), label="dt"), MAX_TIME
        )
        return self.clock

    # -- refused calls change nothing -------------------------------------------------------

    def _refused_or_applied(
        self,
        what: str,
        call: Callable[[], Any],
        may_apply: bool,
        allowed_cards: set[str] | None = None,
    ) -> CardcoreError | None:
        """Run a call that should be refused (or, if *may_apply*, may apply one action)."""
        game = self.game
        before = fingerprint(game)
        version = game.version
        heard = self.events_heard
        _, err = _no_raw(what, call)
        if err is not None:
            after = fingerprint(game)
            assert after == before, f"{what} was refused ({err}) but changed the game"
            assert self.events_heard == heard, (
                f"{what} was refused ({err}) but events were delivered"
            )
            if allowed_cards is not None:
                seat_known = allowed_cards
                leaked = card_tokens(str(err)) - seat_known
                assert not leaked, f"{what}: the error {str(err)!r} shows {sorted(leaked)}"
            return err
        assert may_apply, f"{what} was accepted"
        assert game.version == version + 1, (
            f"{what} accepted but the version went {version}->{game.version}"
        )
        return None

    # -- legal play ------------------------------------------------------------------------

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def play_legal(self, data: st.DataObject) -> None:
        game = self.game
        seat = data.draw(st.sampled_from(game.to_act), label="seat")
        legal = game.legal_actions(seat)
        if not legal:
            assert self.realtime, f"seat {seat} is to act in a turn-based game with no legal action"
            return
        action = data.draw(st.sampled_from(legal), label="action")
        how = data.draw(st.sampled_from(["apply", "act", "act-noisy"]), label="how")
        at = self._stamp(data)
        seen = game.version if data.draw(st.booleans(), label="seen?") else None
        version = game.version
        note(f"play {how} seat={seat} {str(action)!r} at={at} seen={seen} (v{version})")
        if how == "apply":
            _, err = _no_raw("apply legal", lambda: game.apply(action, at=at, seen=seen))
        else:
            text = str(action)
            if how == "act-noisy":
                text = "  " + text.upper().replace(" ", "   ") + "\t"
            _, err = _no_raw("act legal", lambda: game.act(seat, text, at=at, seen=seen))
        assert err is None, f"the legal action {str(action)!r} of seat {seat} was refused: {err}"
        assert game.version == version + 1
        _consistent(game, f"after {action}")

    @precondition(lambda self: not self.game.is_over)
    @rule(steps=st.integers(1, 60), seed=st.integers(0, 2**32))
    def play_many(self, steps: int, seed: int) -> None:
        """Random legal play, to reach deeper states (round ends, reshuffles, claims)."""
        game = self.game
        rng = random.Random(seed)
        note(f"play_many({steps}, seed={seed}) from v{game.version}")
        for _ in range(steps):
            if game.is_over:
                break
            seat = rng.choice(game.to_act)
            legal = game.legal_actions(seat)
            if not legal:
                continue
            action = rng.choice(legal)
            at = None
            if self.realtime:
                self.clock = min(self.clock + rng.random(), MAX_TIME)
                at = self.clock
            _, err = _no_raw("play_many", lambda a=action, t=at: game.apply(a, at=t))
            assert err is None, f"legal {str(action)!r} of seat {seat} refused: {err}"
        _consistent(game, "after play_many")

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def every_legal_action_is_accepted(self, data: st.DataObject) -> None:
        game = self.game
        for seat in game.to_act:
            legal = game.legal_actions(seat)
            for action in legal[:6]:
                world = game.clone()
                _, err = _no_raw("clone apply", lambda w=world, a=action: w.apply(a))
                assert err is None, f"legal {str(action)!r} of seat {seat} refused: {err}"
                text_world = game.clone()
                _, err = _no_raw(
                    "clone act", lambda w=text_world, a=action, s=seat: w.act(s, str(a))
                )
                assert err is None, f"legal text {str(action)!r} of seat {seat} refused: {err}"
                assert fingerprint(world) == fingerprint(text_world), (
                    f"apply and act of {action} differ"
                )

    # -- illegal and forged actions --------------------------------------------------------

    def _forged(self, data: st.DataObject) -> tuple[str, Any, bool]:
        """A hostile action object: (description, action, whether it could be legal)."""
        game = self.game
        all_legal = [a for s in range(len(game.players)) for a in game.legal_actions(s)]
        kind = data.draw(st.integers(0, 7), label="forgery")
        if kind == 0 and all_legal:  # another seat's legal action under a wrong seat
            base = data.draw(st.sampled_from(all_legal), label="base")
            seat = data.draw(st.sampled_from([-1, -2, len(game.players), 99]), label="bad seat")
            try:
                forged = attrs.evolve(base, seat=seat)
            except Exception:
                forged = base
            return f"{base} as seat {_r(seat)}", forged, forged is base
        if kind == 1 and self.other_actions:
            act = data.draw(st.sampled_from(self.other_actions), label="other game's action")
            return f"another game's {type(act).__module__}.{act}", act, False
        if kind == 2 and all_legal:  # a legal action's fields with hostile types
            base = data.draw(st.sampled_from(all_legal), label="base")
            names = [f.name for f in attrs.fields(type(base)) if f.init and f.name != "seat"]
            if not names:
                names = ["seat"]
            field_name = data.draw(st.sampled_from(names), label="field")
            value = data.draw(st.sampled_from(HOSTILE_FIELDS), label="value")
            try:
                forged = attrs.evolve(base, **{field_name: value})
            except Exception:
                return "unbuildable", base, True
            could = forged == base and type(value) is type(getattr(base, field_name))
            return f"{base} with {field_name}={_r(value)}", forged, could or forged == base
        if kind == 3 and all_legal:  # a subclass of a legal action's class
            base = data.draw(st.sampled_from(all_legal), label="base")
            sub = attrs.frozen(type("Sub" + type(base).__name__, (type(base),), {}))
            values = {f.name: getattr(base, f.name) for f in attrs.fields(type(base)) if f.init}
            return f"subclass of {base}", sub(**values), False
        if kind == 4:
            return (
                "Resign of a bad seat",
                Resign(data.draw(st.sampled_from(HOSTILE_FIELDS), label="seat")),
                False,
            )
        if kind == 5:
            seat = data.draw(st.sampled_from([0, 1, -2, None, True]), label="host seat")
            return f"EndMatch({seat!r})", EndMatch(seat), False
        if kind == 6:
            return (
                "not an action",
                data.draw(
                    st.sampled_from(["draw", 3, None, object(), cardcore.Action]), label="thing"
                ),
                False,
            )
        # a turn-based legal action of a seat not to act
        if not self.realtime and all_legal:
            waiting = [s for s in range(len(game.players)) if s not in game.to_act]
            if waiting:
                seat = data.draw(st.sampled_from(waiting), label="waiting seat")
                base = game.legal_actions(game.to_act[0])[0]
                try:
                    return f"{base} by waiting seat {seat}", attrs.evolve(base, seat=seat), False
                except Exception:
                    pass
        return "bare Action", cardcore.Action(0), False

    @rule(data=st.data())
    def apply_forged(self, data: st.DataObject) -> None:
        game = self.game
        what, action, could = self._forged(data)
        at = self._stamp(data)
        note(f"apply forged: {what} at={at}")
        legal_before = [a for s in range(len(game.players)) for a in game.legal_actions(s)]
        err = self._refused_or_applied(
            f"apply({what})", lambda: game.apply(action, at=at), may_apply=True
        )
        if err is None:
            assert could or action in legal_before, f"the forged {what} was applied"
            _consistent(game, f"after forged {what}")

    @rule(data=st.data())
    def act_hostile_text(self, data: st.DataObject) -> None:
        game = self.game
        legal_texts = [str(a) for s in range(len(game.players)) for a in game.legal_actions(s)]
        text = _hostile_text(data, legal_texts)
        seat = data.draw(
            st.one_of(
                st.sampled_from(range(len(game.players))),
                st.sampled_from(HOSTILE_FIELDS),
                st.just(cardcore.HOST),
            ),
            label="seat",
        )
        at = self._stamp(data)
        seen = data.draw(
            st.sampled_from([None, game.version, game.version - 1, -1, 10**9]), label="seen"
        )
        note(f"act({_r(seat)}, {_r(text)}, at={at}, seen={_r(seen)})")
        words = text.strip().lower()
        valid_seat = type(seat) is int and 0 <= seat < len(game.players)
        legal_lower = {str(a).lower() for a in game.legal_actions(seat)} if valid_seat else set()
        may = valid_seat and (words == "resign" or " ".join(text.split()).lower() in legal_lower)
        may = may or (type(seat) is int and seat == cardcore.HOST and words == "end")
        allowed = known_cards(game.state, seat if valid_seat else None) | card_tokens(text)
        allowed |= card_tokens(text.upper())
        self._refused_or_applied(
            f"act({_r(seat)}, {text[:40]!r})",
            lambda: game.act(seat, text, at=at, seen=seen),
            may_apply=may,
            allowed_cards=allowed,
        )
        _consistent(game, "after hostile act")

    @precondition(lambda self: REALTIME and self.game.name in REALTIME and not self.game.is_over)
    @rule(data=st.data())
    def realtime_seen_and_at(self, data: st.DataObject) -> None:
        game = self.game
        seat = data.draw(st.sampled_from(game.to_act), label="seat")
        legal = game.legal_actions(seat)
        entries = game.record_entries()
        pool = list(legal) + [e[1] for e in entries[-10:] if e[0] == seat]
        if not pool:
            return
        action = data.draw(st.sampled_from(pool), label="action")
        seen = data.draw(
            st.one_of(
                st.integers(game.version - 70, game.version + 2),
                st.sampled_from([None, -1, 2**70, 1.0, float("nan"), "3", True]),
            ),
            label="seen",
        )
        at = data.draw(
            st.one_of(
                st.just(self.clock),
                st.floats(allow_nan=True, allow_infinity=True),
                st.sampled_from([self.clock - 1, 1e15, 1e15 + 1, -1e15, time_clock(self.clock)]),
            ),
            label="at",
        )
        note(f"realtime apply {action} seen={_r(seen)} at={_r(at)} (v{game.version})")
        version = game.version
        _, err = _no_raw("realtime apply", lambda: game.apply(action, at=at, seen=seen))
        if err is None:
            assert action in legal, f"{action} applied though not legal now"
            assert game.version == version + 1
            last = game.record_entries()[-1][2]
            if last is not None:
                self.clock = max(self.clock, last)
        else:
            assert game.version == version

    @precondition(lambda self: self.game.name in REALTIME and not self.game.is_over)
    @rule(data=st.data())
    def copies_judge_seen_alike(self, data: st.DataObject) -> None:
        """A clone, a loaded save and a replayed record judge a ``seen`` as the game does."""
        game = self.game
        if game.version == 0:
            return
        entries = game.record_entries()
        pool = [e[1] for e in entries[-12:] if e[1].seat in game.to_act]
        pool += [a for s in game.to_act for a in game.legal_actions(s)]
        if not pool:
            return
        action = data.draw(st.sampled_from(pool), label="action")
        seen = data.draw(st.integers(max(0, game.version - 12), game.version), label="seen")
        at = min(self.clock + 1, MAX_TIME)
        copies = {
            "clone": game.clone(),
            "load": cardcore.load(game.save()),
            "replay": cardcore.replay(game.record()),
            "clone of a clone": game.clone().clone(),
        }
        outcomes = {}
        for what, world in copies.items():
            _, err = _no_raw(what, lambda w=world: w.apply(action, at=at, seen=seen))
            outcomes[what] = type(err).__name__ if err is not None else "applied"
        _, err = _no_raw("the game", lambda: game.apply(action, at=at, seen=seen))
        outcomes["the game"] = type(err).__name__ if err is not None else "applied"
        self.clock = at
        note(f"{action} seen={seen}: {outcomes}")
        assert len(set(outcomes.values())) == 1, f"{action} seen={seen}: {outcomes}"

    @rule(data=st.data())
    def adopt_a_copy(self, data: st.DataObject) -> None:
        """Go on with a clone, a loaded save or a replayed record in the game's place."""
        game = self.game
        how = data.draw(
            st.sampled_from(["clone", "load", "load-signed", "replay", "load-text"]), label="adopt"
        )
        if how == "clone":
            copy_ = game.clone()
        elif how == "load":
            copy_ = cardcore.load(game.save())
        elif how == "load-signed":
            copy_ = cardcore.load(game.save(key=KEY), key=KEY)
        elif how == "load-text":
            copy_ = cardcore.load(json.dumps(game.save()).encode())
        else:
            copy_ = cardcore.replay(game.record())
        assert fingerprint(copy_) == fingerprint(game), f"the {how} copy differs"
        note(f"adopted a {how} copy at v{game.version}")
        self.game = copy_
        self._subscribe()

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def truncate(self, data: st.DataObject) -> None:
        if data.draw(st.integers(0, 24), label="truncate now?") != 0:
            return
        game = self.game
        game.truncate()
        assert game.is_over and game.result is not None
        note(f"truncated at v{game.version}")
        for again in (cardcore.load(game.save()), cardcore.replay(game.record())):
            assert fingerprint(again) == fingerprint(game), (
                "a truncated game saves or replays differently"
            )
            assert again.result == game.result

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data(), raise_after=st.booleans())
    def subscriber_acts_or_interrupts(self, data: st.DataObject, raise_after: bool) -> None:
        """A host handler that applies an action from inside the delivery (queued behind
        the current events), or raises a BaseException: the action stands, nobody loses
        an event."""
        game = self.game
        seat = data.draw(st.sampled_from(game.to_act), label="seat")
        legal = game.legal_actions(seat)
        if not legal:
            return
        first = data.draw(st.sampled_from(legal), label="first")
        pick = data.draw(st.integers(0, 1000), label="pick")
        done: list[str] = []

        def handler(event: Event) -> None:
            if done or not isinstance(event, ActionApplied):
                return
            done.append("once")
            if raise_after:
                raise Interrupt("a BaseException from a handler")
            inner = game.to_act
            if not inner:
                return
            actions = game.legal_actions(inner[pick % len(inner)])
            if actions:
                _, err = _no_raw(
                    "apply from a handler",
                    lambda: game.apply(actions[pick % len(actions)], at=self._at()),
                )
                assert err is None, f"a legal action applied from a handler was refused: {err}"

        sub = game.events.subscribe(Event, handler)
        version = game.version
        note(f"handler {'raises' if raise_after else 'acts'} after {first} (v{version})")
        try:
            game.apply(first, at=self._at())
        except Interrupt:
            assert raise_after
        finally:
            game.events.unsubscribe(sub)
        assert game.version >= version + 1, "the action was not applied"
        _consistent(game, "after a handler acted")

    def _at(self) -> float | None:
        if not self.realtime:
            return None
        self.clock = min(self.clock + 0.5, MAX_TIME)
        return self.clock

    # -- resign, end -------------------------------------------------------------------------

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def resign_or_end(self, data: st.DataObject) -> None:
        if data.draw(st.integers(0, 24), label="end now?") != 0:
            return
        game = self.game
        if data.draw(st.booleans(), label="resign?"):
            seat = data.draw(st.sampled_from(range(len(game.players))), label="seat")
            note(f"resign seat {seat}")
            _, err = _no_raw("resign", lambda: game.act(seat, "resign", at=self._stamp(data)))
        else:
            note("host ends the match")
            _, err = _no_raw("end", lambda: game.act(cardcore.HOST, "end", at=self._stamp(data)))
        assert err is None, f"resign/end refused: {err}"
        assert game.is_over and game.result is not None
        _consistent(game, "after the end")

    @precondition(lambda self: self.game.is_over)
    @rule(data=st.data())
    def finished_game_refuses(self, data: st.DataObject) -> None:
        game = self.game
        seat = data.draw(st.sampled_from(range(len(game.players))), label="seat")
        text = data.draw(
            st.sampled_from(["resign", "draw", "ready", "stuck", "flip 0"]), label="text"
        )
        self._refused_or_applied(
            f"act on a finished game {text!r}", lambda: game.act(seat, text), False
        )
        self._refused_or_applied("end twice", lambda: game.act(cardcore.HOST, "end"), False)
        self._refused_or_applied("resign object", lambda: game.apply(Resign(seat)), False)

    # -- clones --------------------------------------------------------------------------------

    @precondition(lambda self: len(self.clones) < 3)
    @rule()
    def clone(self) -> None:
        world = self.game.clone()
        assert fingerprint(world) == fingerprint(self.game), "a clone differs from its game"
        self.clones.append((world, fingerprint(world)))

    @precondition(lambda self: bool(self.clones))
    @rule(data=st.data())
    def play_a_clone(self, data: st.DataObject) -> None:
        index = data.draw(st.integers(0, len(self.clones) - 1), label="clone")
        world, _ = self.clones[index]
        if world.is_over:
            return
        before = fingerprint(self.game)
        heard = {s: list(v) for s, v in self.heard.items()}
        seat = data.draw(st.sampled_from(world.to_act), label="seat")
        legal = world.legal_actions(seat)
        if not legal:
            return
        world.apply(data.draw(st.sampled_from(legal), label="action"))
        _consistent(world, "a clone")
        assert fingerprint(self.game) == before, "playing a clone changed its game"
        assert self.heard == heard, "the game's subscribers heard a clone's action"
        self.clones[index] = (world, fingerprint(world))

    # -- saves and records ------------------------------------------------------------------------

    @rule(signed=st.booleans())
    def save_and_load(self, signed: bool) -> None:
        game = self.game
        before = fingerprint(game)
        data = game.save(key=KEY) if signed else game.save()
        text = json.dumps(data)
        assert fingerprint(game) == before, "save changed the game"
        for source in (data, text, text.encode()):
            loaded, err = _no_raw(
                "load", lambda s=source: cardcore.load(s, key=KEY if signed else None)
            )
            assert err is None, f"a fresh save was refused: {err}"
            assert fingerprint(loaded) == before, "load(save()) is another game"
        if signed:
            for key in (b"another key", "the host's secret ", b""):
                _, err = _no_raw("load wrong key", lambda k=key: cardcore.load(data, key=k))
                # (an empty key signs for nobody: the caller's ArgumentError, as save(key=b""))
                wanted = ArgumentError if key == b"" else CorruptStateError
                assert isinstance(err, wanted), (
                    f"a save signed with another key loaded ({err})"
                )
        else:
            _, err = _no_raw("load unsigned with key", lambda: cardcore.load(data, key=KEY))
            assert isinstance(err, CorruptStateError), "an unsigned save loaded under key="

    @rule()
    def record_and_replay(self) -> None:
        game = self.game
        before = fingerprint(game)
        rec = game.record()
        again, err = _no_raw("replay", lambda: cardcore.replay(json.dumps(rec)))
        assert err is None, f"replay of a fresh record refused: {err}"
        assert fingerprint(again) == before, "replay(record()) is another game"
        signed = game.record(key=KEY)
        _, err = _no_raw("replay wrong key", lambda: cardcore.replay(signed, key=b"other"))
        assert isinstance(err, CorruptStateError)

    @rule(data=st.data(), which=st.sampled_from(["save", "record", "signed-save"]))
    def tampered(self, data: st.DataObject, which: str) -> None:
        game = self.game
        seed = data.draw(st.integers(0, 2**32), label="tamper seed")
        rng = random.Random(seed)
        if which == "record":
            original = game.record()
        elif which == "save":
            original = game.save()
        else:
            original = game.save(key=KEY)
        changed = json.loads(json.dumps(original))
        other = self.other_save if which != "record" else (self.other_save or {}).get("record")
        what = _tamper(changed, rng, other)
        note(f"tampered {which} (seed {seed}): {what}")
        if what == "truncated text":
            text = json.dumps(changed)
            text = text[: rng.randrange(1, len(text))]
            loader = cardcore.replay if which == "record" else cardcore.load
            _, err = _no_raw("truncated", lambda: loader(text))
            assert isinstance(err, CorruptStateError), f"truncated JSON text: {err!r}"
            return
        if which == "record":
            loaded, err = _no_raw("replay tampered", lambda: cardcore.replay(changed))
        elif which == "save":
            loaded, err = _no_raw("load tampered", lambda: cardcore.load(changed))
        else:
            loaded, err = _no_raw("load tampered signed", lambda: cardcore.load(changed, key=KEY))
            if changed != original:
                assert err is not None, f"a changed signed save loaded ({what})"
        if err is not None:
            assert isinstance(err, (CorruptStateError, cardcore.PluginError)), f"{what}: {err!r}"
            return
        # loaded: it must be a game the engine could have played
        _consistent(loaded, f"a tampered {which} that loaded ({what})")
        again = cardcore.replay(loaded.record())
        assert fingerprint(again) == fingerprint(loaded), (
            f"the loaded tampered {which} is not its record's game"
        )

    # -- views ------------------------------------------------------------------------------------

    @rule(data=st.data())
    def views_hide_what_they_must(self, data: st.DataObject) -> None:
        game = self.game
        before = fingerprint(game)
        for seat in [None, *range(len(game.players))]:
            view = game.view(seat)
            json.dumps(view)
            problems = _leaks(game, seat, view)
            assert not problems, f"view({seat}) at v{game.version}: {problems[:3]}"
            if seat is not None:
                assert view["legal"] == [str(a) for a in game.legal_actions(seat)], (
                    "legal differs from view"
                )
                hist = game.history(seat)
                json.dumps(hist)
                if self.whole_game_heard:  # the past holds only what the seat was shown
                    seen = self.known[seat] | self.shown[seat] | known_cards(game.state, seat)
                    extra = card_tokens(hist) - seen
                    assert not extra, (
                        f"history({seat}) shows {sorted(extra)}, never shown to seat {seat}"
                    )
        assert fingerprint(game) == before, "a read changed the game"

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def determinized_world_looks_the_same(self, data: st.DataObject) -> None:
        game = self.game
        seat = data.draw(st.sampled_from(range(len(game.players))), label="seat")
        seed = data.draw(st.integers(0, 2**32), label="world seed")
        world = game.determinize(seat, seed)
        _consistent(world, "a determinized world")
        mine, theirs = game.view(seat), world.view(seat)
        assert mine == theirs, (
            f"seat {seat}'s view differs in a world consistent with it (seed {seed})"
        )
        assert game.history(seat) == world.history(seat), (
            f"seat {seat}'s history differs in a world"
        )
        if observe is not None:  # the RL encoding holds only what the seat may see
            ours, other = observe(game, seat), observe(world, seat)
            for part in ("observation", "action_mask"):
                assert (ours[part] == other[part]).all(), (
                    f"the RL {part} of seat {seat} tells worlds apart"
                )

    @rule(data=st.data())
    def hostile_new_game(self, data: st.DataObject) -> None:
        name = self.game.name
        declared = _declared(name)
        option = data.draw(st.sampled_from(sorted(declared)), label="option")
        value = data.draw(st.sampled_from(HOSTILE_VALUES), label="value")
        note(f"new_game({name!r}, options={{{option!r}: {_r(value)}}})")
        started, err = _no_raw(
            "new_game hostile option",
            lambda: cardcore.new_game(name, 2, options={option: value}, seed=3),
        )
        if err is not None:
            assert option in str(err), f"the error does not name {option!r}: {err}"
            return
        resolved = started.options[option]
        assert _within(declared[option], resolved) or _within(declared[option], value), (
            f"{option}={_r(value)} accepted as {_r(resolved)}, outside what {name} declares"
        )
        json.dumps(started.save())

    # -- invariants ---------------------------------------------------------------------------

    @invariant()
    def cards_conserved_and_counters_in_step(self) -> None:
        if hasattr(self, "game"):
            _consistent(self.game, "the game")

    @invariant()
    def clones_are_independent(self) -> None:
        for world, print_ in self.clones:
            assert fingerprint(world) == print_, "a clone changed without being played"

    @invariant()
    def no_event_shows_a_hidden_card(self) -> None:
        for seat in list(self.suspects):
            self._flush(seat)
        assert not self.leaked, self.leaked[:3]

    @invariant()
    def every_seat_hears_every_action(self) -> None:
        if not hasattr(self, "game"):
            return
        want = list(range(self.subscribed_at + 1, self.game.version + 1))
        for seat, heard in self.heard.items():
            assert heard == want, (
                f"seat {seat} heard versions {heard[-5:]}, want up to {self.game.version}"
            )


class Interrupt(BaseException):
    """A BaseException a handler raises (not KeyboardInterrupt, which pytest would act on)."""


def time_clock(now: float) -> Callable[[], float]:
    """A clock (a function of no arguments) that answers *now*."""
    return lambda: now


GameFuzz.TestCase.settings = settings(
    max_examples=150,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_game_api_stateful = GameFuzz.TestCase


@pytest.mark.parametrize("name", REALTIME)
@pytest.mark.parametrize("seed", [0, 3])
def test_copies_judge_seen_at_the_window_edge_as_the_game_does(name: str, seed: int) -> None:
    """Deep in a real-time game (past a checkpoint), a clone, a loaded save and a replayed
    record judge ``seen`` at and around the STALE_WINDOW edge exactly as the game does."""
    depth = 150 if name == "spit" else 68  # Speed games are short
    for attempt in range(seed, seed + 50):  # the first seed whose game lasts that long
        game = cardcore.new_game(name, 2, seed=attempt)
        rng = random.Random(attempt)
        clock = 0.0
        while game.version < depth and not game.is_over:
            seat = rng.choice(game.to_act)
            legal = game.legal_actions(seat)
            if legal:
                clock += 0.25
                game.apply(rng.choice(legal), at=clock)
        if not game.is_over:
            break
    assert not game.is_over and game.version > cardcore.STALE_WINDOW + 2
    entries = game.record_entries()
    save, record = game.save(), game.record()
    edge = game.version - cardcore.STALE_WINDOW
    compared = 0
    for seen in (edge - 1, edge, edge + 1, edge + 2, game.version - 5, game.version - 1):
        for action in {e[1] for e in entries[max(0, seen - 2) : seen + 2]}:
            outcomes = {}
            for what in ("game", "clone", "load", "replay"):
                world = {
                    "game": game.clone,
                    "clone": lambda: game.clone().clone(),
                    "load": lambda: cardcore.load(save),
                    "replay": lambda: cardcore.replay(record),
                }[what]()
                _, err = _no_raw(
                    what, lambda w=world, a=action, s=seen: w.apply(a, at=clock + 1, seen=s)
                )
                outcomes[what] = type(err).__name__ if err is not None else "applied"
            assert len(set(outcomes.values())) == 1, (
                f"{action} seen={seen} at v{game.version}: {outcomes}"
            )
            compared += 1
    assert compared >= 10
