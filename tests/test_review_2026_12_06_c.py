"""Review of ca1ab15 680180b fec7930 d6f122f 2f53a63 b114b7c (run_realtime's clamp of an old
kept plan's ``seen``, compare's reasons on both sides, and the docs those commits changed).

The run_realtime clamp and compare's reasons held; two claims of docs/session.rst did not
(entropy of another value after the deal, ``requested``'s ``seat``): the page was corrected,
and those tests now pin the corrected text.
"""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
import cardcore.agents as agents_module
from cardcore import (
    Action,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Plan,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.compare import _summary
from cardcore.compare._run import GameRecord
from cardcore.deck import derive_rng
from cardcore.turns import end_game, winners_by

# ---------------------------------------------------------------------------------------
# A tiny real-time game: 90 prizes to grab (any seat), and one private step per seat.


@frozen
class Grab(Action):
    n: int
    verb: ClassVar[str] = "grab"

    def notation(self) -> str:
        return f"grab {self.n}"


@frozen
class Step(Action):
    k: int
    verb: ClassVar[str] = "step"

    def notation(self) -> str:
        return f"step {self.k}"


class RvState(GameState):
    __slots__ = ("prize", "steps")
    prize: int
    steps: list[int]


class RvLogic(GameLogic[RvState, Grab | Step]):
    action_types = (Grab, Step)
    position_fields = ("to_act", "prize", "steps")
    grabs = 90

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 1000

    def blank_state(self, players: int, options: Mapping[str, Any]) -> RvState:
        state = RvState(
            players, options, Zones(Layout.of([ZoneSpec("stock", None, Visibility.NOBODY)]))
        )
        state.prize = 0
        state.steps = [0] * players
        return state

    def new_state(
        self, players: int, options: Mapping[str, Any], cards: list[Any], seed: int, emit: Any
    ) -> RvState:
        state = self.blank_state(players, options)
        state.seed = seed
        for card in cards:
            state.zones.put(0, card)
        state.to_act = tuple(range(players))
        return state

    def legal_actions(self, state: RvState, seat: int) -> tuple[Grab | Step, ...]:
        grab = (Grab(seat, state.prize),) if state.prize < self.grabs else ()
        step = (Step(seat, 0),) if state.steps[seat] < 1 else ()
        return grab + step

    def rule_for(self, state: RvState, action: Grab | Step) -> tuple[str, str]:
        if isinstance(action, Grab):
            return "RV-GRAB-1", "a grab names the prize up"
        return "RV-STEP-1", "one step per seat"

    def apply(self, state: RvState, action: Grab | Step, emit: Any) -> None:
        if isinstance(action, Grab):
            state.prize += 1
        else:
            state.steps[action.seat] += 1
        if state.prize >= self.grabs and all(state.steps):
            end_game(state, tuple(range(state.players)), self.scores(state), "all done")

    def scores(self, state: RvState) -> tuple[float, ...]:
        return tuple(float(s) for s in state.steps)

    def standings(self, state: RvState) -> tuple[int, ...]:
        return winners_by(self.scores(state), lowest=False)

    def table(self, state: RvState, seat: int | None) -> dict[str, Any]:
        return {"prize": state.prize}


@pytest.fixture(scope="module", autouse=True)
def _rv_game() -> Iterator[None]:
    module = types.ModuleType("rvtap")
    module.GAME = GameInfo("rvtap", "prizes", 2, 2, realtime=True, version="1.0.0")  # type: ignore[attr-defined]
    module.create_logic = hookimpl(lambda ruleset: RvLogic(ruleset))  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "rvtap", module)
    yield
    cardcore.unregister("cardcore.games", "rvtap")


class Prefer:
    """Plans the first legal action starting with *verb* (else the first), after *delay*."""

    def __init__(self, verb: str, delay: float) -> None:
        self.verb, self.delay = verb, delay

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        if not legal:
            return None
        liked = [a for a in legal if a.notation().startswith(self.verb)] or list(legal)
        return Plan(liked[0], self.delay)


@pytest.fixture
def sends(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int | None, bool, str]]:
    """Every apply: (version before, seen, legal now for its seat, outcome)."""
    log: list[tuple[int, int | None, bool, str]] = []
    orig = cardcore.Game.apply

    def apply(self: cardcore.Game, action: Action, *, at: Any = None, seen: Any = None) -> None:
        v, legal = self.version, action in self.legal_actions(action.seat)
        try:
            orig(self, action, at=at, seen=seen)
        except cardcore.IllegalActionError as exc:
            log.append((v, seen, legal, type(exc).__name__))
            raise
        log.append((v, seen, legal, "ok"))

    monkeypatch.setattr(cardcore.Game, "apply", apply)
    return log


# ---------------------------------------------------------------------------------------
# 1. run_realtime


def test_old_kept_plan_is_sent_legal_and_applied_at_its_due_time(sends: list) -> None:
    game = cardcore.new_game("rvtap", 2, seed=1)
    cardcore.run_realtime(game, [Prefer("step", 10.0), Prefer("grab", 0.1)], seed=3)
    steps = [a for a in game.record()["actions"] if a[1] == "step 0" and a[0] == 0]
    assert steps[0][2] == pytest.approx(10.0)  # not refused and planned a delay later
    old = [s for s in sends if s[1] is not None and s[1] < s[0] - cardcore.STALE_WINDOW]
    assert old == []  # no send outside the window
    assert all(s[3] == "ok" and s[2] for s in sends)


def test_on_action_applying_actions_itself_never_makes_the_clamp_send_an_illegal_plan(
    sends: list,
) -> None:
    # on_action grabs for seat 1 too, and once takes seat 0's own step: its plan (made at
    # version 0, due at 10 s) is then overtaken and must be planned again, never sent.
    game = cardcore.new_game("rvtap", 2, seed=2)
    took = []

    def on_action(g: cardcore.Game, action: Action, at: float) -> None:
        if g.is_over:
            return
        mine = [a for a in g.legal_actions(1) if isinstance(a, Grab)]
        if mine:
            g.apply(mine[0], at=at)
        if g.version > 70 and not took and Step(0, 0) in g.legal_actions(0):
            took.append(g.version)
            g.apply(Step(0, 0), at=at)

    cardcore.run_realtime(
        game, [Prefer("step", 10.0), Prefer("grab", 0.1)], seed=5, on_action=on_action
    )
    assert took  # the step was taken by on_action, past the window of the slow plan (made at 0)
    assert took[0] > cardcore.STALE_WINDOW
    assert all(s[3] == "ok" and s[2] for s in sends)  # every apply legal, none refused
    assert [a[1] for a in game.record()["actions"]].count("step 0") == 2  # seat 1's and seat 0's


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_shipped_bots_records_unchanged_when_no_plan_is_that_old(
    name: str, sends: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardcore_spit.agents import SpitGreedyAgent, SpitHumanAgent

    def run(window: int, seed: int) -> tuple[list, cardcore.Result]:
        monkeypatch.setattr(agents_module, "STALE_WINDOW", window)
        game = cardcore.new_game(name, 2, seed=seed)
        bots = [SpitGreedyAgent(seed=seed), SpitHumanAgent(seed=seed + 1, mean=3.0)]
        result = cardcore.run_realtime(game, bots, seed=seed)
        return game.record()["actions"], result

    for seed in range(3):
        sends.clear()
        new = run(cardcore.STALE_WINDOW, seed)
        # a window no plan reaches: the runner as before ca1ab15 (it never clamps)
        old = run(10**18, seed)
        assert not [s for s in sends if s[1] is not None and s[1] < s[0] - cardcore.STALE_WINDOW]
        assert new[0] == old[0] and new[1] == old[1]


def test_spit_bot_plans_nothing_without_a_legal_action() -> None:
    from cardcore_spit.agents import SpitGreedyAgent, SpitHumanAgent

    game = cardcore.new_game("speed", 2, seed=1)
    for bot in (SpitGreedyAgent(seed=1), SpitHumanAgent(seed=1)):
        assert bot.plan(game.view(0), (), 0.0) is None


# ---------------------------------------------------------------------------------------
# 2. compare's reasons


def _rec(side: int, index: int, reason: str, probe: bool = False) -> GameRecord:
    return GameRecord(
        side, probe, index, index, 0 if probe else -1, 0, 0, (0,), (1.0, 2.0), reason, 10, 1,
        (0, 0), (0.0, 0.0), (0.0, 0.0), (1, 1),
    )  # fmt: skip


def test_summary_gives_every_reason_of_either_side_never_a_probes() -> None:
    from cardcore.compare import Config

    config = Config("A", (), (), {}, ("random", "random"))
    a = [_rec(0, 0, "x"), _rec(0, 1, "x"), _rec(0, 2, "probe-only", probe=True)]
    ends = frozenset(r.reason for r in [*a, _rec(1, 0, "y")] if not r.probe)
    s = _summary(config, 2, a, ends)
    assert set(s.reasons) == {"x", "y"}
    assert s.reasons["y"].mean == 0.0 and s.reasons["x"].mean == 1.0
    assert s.reasons["y"].n == 2


TONK = {
    "options": {"hands": 1},
    "vs_without": ["tonk.natural-49-50"],
    "agents": "random",
    "skill": None,
    "chunk": 50,
}


def test_one_sided_reason_in_both_sides_table_json_and_paired_diff() -> None:
    r = cardcore.compare("tonk", games=186, seed=1, **TONK)
    # the natural rule is switched off in B: a natural ends games of A only
    assert r.a.reasons["natural"].mean > 0
    assert r.b.reasons["natural"].mean == 0.0 and r.b.reasons["natural"].n == 186
    assert set(r.a.reasons) == set(r.b.reasons)
    data = r.to_json()
    assert set(data["a"]["reasons"]) == set(data["b"]["reasons"]) == set(r.a.reasons)
    shown = {row[0].removeprefix("ends: ") for row in r.rows() if row[0].startswith("ends: ")}
    assert shown == set(r.a.reasons)
    assert {k.removeprefix("reason:") for k in r.diff if k.startswith("reason:")} == shown
    text = r.table()
    assert "ends: natural" in text


def test_two_sided_reasons_and_probes_add_no_reason() -> None:
    r = cardcore.compare("golf", options={"rounds": 1}, games=4, seed=1, skill="auto")
    assert set(r.a.reasons) == set(r.b.reasons) == {"rounds"}
    assert {k for k in r.diff if k.startswith("reason:")} == {"reason:rounds"}


# ---------------------------------------------------------------------------------------
# 3. docs


def test_house_rule_study_seed_formulas_reproduce_the_games() -> None:
    r = cardcore.compare(
        "golf", options={"rounds": 1}, agents="random", games=3, seed=11, skill=None
    )
    from cardcore.plugins import load_agent

    actions, spreads = [], []
    for i in range(3):
        game_seed = int(derive_rng(11, i).random() * 2**62)
        game = cardcore.new_game("golf", 2, options={"rounds": 1}, seed=game_seed)
        seats = [
            load_agent("random")(seed=int(derive_rng(game_seed, 1000 + s).random() * 2**62))
            for s in range(2)
        ]
        # the line-up rotates, but with one agent everywhere the seats' agents are alike
        result = cardcore.play(game, seats)
        actions.append(len(game.record()["actions"]))
        spreads.append(max(result.scores) - min(result.scores))
    assert r.a.actions.mean == pytest.approx(sum(actions) / 3)
    assert r.a.spread.mean == pytest.approx(sum(spreads) / 3)


def test_go_fish_readme_first_legal_action_and_ranks_in_any_case() -> None:
    game = cardcore.new_game("gofish", 3, seed=1)
    assert game.view(0)["legal"][0] == "ask 1 4"
    game.act(0, "ASK 1 4".lower())
    other = cardcore.new_game("gofish", 3, seed=1)
    other.act(0, "ask 1 q")  # seat 0 holds queens; written in capitals
    assert other.record()["actions"][0][1] == "ask 1 Q"


def test_go_fish_ask_1_cited_before_ask_2() -> None:
    game = cardcore.new_game("gofish", 3, seed=1)  # seat 0 holds no 5
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(0, "ask 0 5")  # itself, and a rank it does not hold
    assert info.value.rule_id == "GOFISH-ASK-1"


def test_spit_note_1_malformed_words_are_notation_errors() -> None:
    plain = cardcore.new_game("spit", 2, seed=3)
    for text in ("combine 2 2", "fill 3 3", "choose L"):
        with pytest.raises(cardcore.NotationError):
            plain.act(0, text)
    chooser = cardcore.new_game("spit", 2, seed=3, rules=["spit.chooser"])
    with pytest.raises(cardcore.NotationError):
        chooser.act(0, "slap L")


def test_spit_legal_order_combines_and_fills_by_first_then_second_pile() -> None:
    from cardcore_spit.actions import Combine, Fill

    seen = 0
    for seed in range(30):
        game = cardcore.new_game("spit", 2, seed=seed)
        for seat in game.to_act:
            legal = game.legal_actions(seat)
            for kind in (Combine, Fill):
                keys = [
                    tuple(int(w) for w in str(a).split()[1:]) for a in legal if isinstance(a, kind)
                ]
                seen += len(keys) > 1
                assert keys == sorted(keys)
    assert seen  # some seat had two of a kind to order


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_spit_result_scores_count_cards_held_and_no_payouts(name: str) -> None:
    from cardcore_spit.agents import SpitGreedyAgent

    kinds = ("hand.", "stock.") if name == "speed" else ("layout.", "spit.")
    for seed in range(4, 8):
        game = cardcore.new_game(name, 2, seed=seed)
        bots = [SpitGreedyAgent(seed=1), SpitGreedyAgent(seed=2)]
        result = cardcore.run_realtime(game, bots, seed=seed)
        assert result.payouts is None
        zones = game.view(None)["zones"]
        held = [
            sum(z["count"] for z in zones if z["owner"] == s and z["name"].startswith(kinds))
            for s in range(2)
        ]
        assert list(result.scores) == held


def test_speed_two_jokers_in_hand_give_one_action_per_pile() -> None:
    cases = 0
    for seed in range(200):
        game = cardcore.new_game("speed", 2, seed=seed, options={"jokers": 2})
        for seat in (0, 1):
            hand = _hand(game, seat)
            if hand.count("JK") == 2:
                cases += 1
                texts = [str(a) for a in game.legal_actions(seat)]
                assert texts.count("play JK L") == texts.count("play JK R") == 1
    assert cases


def test_golf_layout_4_is_a_number() -> None:
    game = cardcore.new_game("golf", 2, seed=3, options={"layout": 4})
    assert game.options["layout"] == 4


def _hand(game: cardcore.Game, seat: int) -> list[str]:
    return next(z["cards"] for z in game.view(seat)["zones"] if z["name"] == f"hand.{seat}")


def _stock(game: cardcore.Game) -> int:
    return next(z["count"] for z in game.view(None)["zones"] if z["name"] == "stock")


def test_go_fish_asked_player_refills_first_when_one_ask_empties_both_hands() -> None:
    import random

    cases = 0
    for seed in range(200):
        game = cardcore.new_game("gofish", 3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act[0]
            action = rng.choice(game.legal_actions(seat))
            _, asked, rank = str(action).split()
            o = int(asked)
            mine, theirs, stock = _hand(game, seat), _hand(game, o), _stock(game)
            # the asked hand is all of that rank, and with the asker's it makes a book that
            # empties the asker's hand too
            both = (
                bool(theirs)
                and all(c[:-1] == rank for c in [*mine, *theirs])
                and len(mine) + len(theirs) == 4
            )
            game.apply(action)
            if both and stock == 1:  # one card left: the first to refill takes it
                cases += 1
                assert (len(_hand(game, o)), len(_hand(game, seat))) == (1, 0)
    assert cases  # the situation occurred


# -- session.rst ---------------------------------------------------------------------------


def _session(players: int = 2, **config: Any) -> Any:
    from cardcore.session import Session, SessionConfig

    names = ["Ann", "Bob", "Cy"][:players]
    session = Session.create("golf", names, now=0.0, seed=7, config=SessionConfig(**config))
    for seat in range(players):
        session.handle("abc"[seat], {"type": "join", "seat": seat}, 1.0 + seat)
    return session


OPENING = [("a", "flip 0"), ("a", "flip 1"), ("b", "flip 0"), ("b", "flip 1"), ("a", "take")]


def _play(session: Any, moves: list[tuple[str, str]]) -> float:
    t = 3.0
    for conn, text in moves:
        t += 1.0
        out = session.handle(conn, {"type": "act", "action": text, "seen": session.game.version}, t)
        assert [o.message["type"] for o in out if o.conn == conn][-1] == "ok"
    return t


def _takebacks(out: list[Any], conn: str = "a") -> list[dict[str, Any]]:
    return [o.message for o in out if o.conn == conn and o.message["type"] == "takeback"]


@pytest.mark.parametrize("how", ["decline", "act", "wait"])
def test_takeback_by_is_the_asker_and_seat_the_answerer_or_null(how: str) -> None:
    session = _session(takeback_timeout=5.0)
    t = _play(session, OPENING)
    session.handle("a", {"type": "takeback", "op": "request"}, t + 1)
    if how == "decline":
        out = session.handle("b", {"type": "takeback", "op": "decline"}, t + 2)
    elif how == "act":
        out = session.handle("a", {"type": "act", "action": "replace 0", "seen": 5}, t + 2)
    else:
        out = session.tick(t + 10)
    [end] = _takebacks(out, "b")
    assert end["by"] == 0
    assert end["seat"] == (1 if how == "decline" else None)


def test_takeback_two_seats_accept_sends_no_accepted_three_seats_do() -> None:
    two = _session()
    t = _play(two, OPENING)
    two.handle("a", {"type": "takeback", "op": "request"}, t + 1)
    out = two.handle("b", {"type": "takeback", "op": "accept"}, t + 2)
    assert not [m for c in "ab" for m in _takebacks(out, c)]
    assert {o.conn for o in out if o.message["type"] == "view"} == {"a", "b"}
    three = _session(3)
    moves = [
        ("a", "flip 0"), ("a", "flip 1"), ("b", "flip 0"), ("b", "flip 1"),
        ("c", "flip 0"), ("c", "flip 1"), ("a", "take"),
    ]  # fmt: skip
    t = _play(three, moves)
    three.handle("a", {"type": "takeback", "op": "request"}, t + 1)
    out = three.handle("b", {"type": "takeback", "op": "accept"}, t + 2)
    for conn in "abc":
        [msg] = _takebacks(out, conn)
        assert (msg["op"], msg["by"], msg["seat"]) == ("accepted", 0, 1)


def test_takeback_requested_names_the_asker_as_its_seat() -> None:
    """session.rst (as corrected after this review): ``seat`` is the seat the message is
    about, the asker on ``requested``; it also carries the action, who accepted and the
    deadline."""
    session = _session()
    t = _play(session, OPENING)
    out = session.handle("a", {"type": "takeback", "op": "request"}, t + 1)
    [msg] = _takebacks(out, "b")
    assert msg["op"] == "requested" and msg["by"] == 0
    assert msg["seat"] == 0
    assert msg["accepted"] == [] and isinstance(msg["action"], str) and msg["deadline"] > t


def test_takeback_refusal_quotes_the_requesters_own_action() -> None:
    from cardcore.session import Session

    session = Session.create("tonk", ["Ann", "Bob"], now=0.0, seed=7, options={"hands": 3})
    session.handle("a", {"type": "join", "seat": 0}, 1.0)
    session.handle("b", {"type": "join", "seat": 1}, 2.0)
    session.handle("a", {"type": "act", "action": "take", "seen": 0}, 3.0)
    discard = next(str(a) for a in session.game.legal_actions(0) if str(a).startswith("discard"))
    session.handle("a", {"type": "act", "action": discard, "seen": 1}, 4.0)
    [err] = session.handle("a", {"type": "takeback", "op": "request"}, 5.0)
    assert err.message["code"] == "takeback-refused"
    assert f"{discard!r} revealed a card to seat 1" in err.message["message"]


def test_seen_ahead_with_garbage_text_is_bad_message_and_in_the_window_notation() -> None:
    session = _session()
    ahead = session.handle("a", {"type": "act", "action": "zzz", "seen": 1}, 3.0)
    assert [o.message.get("code") for o in ahead if o.conn == "a"] == ["bad-message"]
    now = session.handle("a", {"type": "act", "action": "zzz", "seen": 0}, 3.5)
    assert [o.message.get("code") for o in now if o.conn == "a"] == ["notation"]


def test_update_events_leave_out_action_applied_which_is_the_action_field() -> None:
    session = _session()
    out = session.handle("a", {"type": "act", "action": "flip 0", "seen": 0}, 3.0)
    updates = [o.message for o in out if o.message["type"] == "update"]
    assert updates
    for msg in updates:
        assert all(e["event"] != "action-applied" for e in msg["events"])
        assert (msg["action"]["seat"], msg["action"]["text"]) == (0, "flip 0")


def _fair_dealt() -> Any:
    from cardcore.session import Session, SessionConfig

    config = SessionConfig(fair=True, seat_entropy=True)
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=None, config=config)
    session.handle("a", {"type": "join", "seat": 0}, 1.0)
    session.handle("b", {"type": "join", "seat": 1}, 2.0)
    session.handle("a", {"type": "entropy", "value": "abc"}, 3.0)
    session.handle("b", {"type": "entropy", "value": "def"}, 3.5)
    assert session.game is not None and session.game.version == 0  # dealt
    return session


def test_entropy_resent_after_the_deal_is_answered_ok_and_ignored() -> None:
    session = _fair_dealt()
    before = session.game.view(0)
    out = session.handle("a", {"type": "entropy", "value": "abc"}, 4.0)
    assert [o.message["type"] for o in out if o.conn == "a"] == ["ok"]
    assert session.game.view(0) == before


def test_entropy_of_another_value_after_the_deal_is_refused_and_changes_nothing() -> None:
    """session.rst (as corrected after this review): after the deal, another value is
    ``entropy-refused``; nothing changes."""
    session = _fair_dealt()
    before = session.game.view(0)
    out = session.handle("a", {"type": "entropy", "value": "something else"}, 4.0)
    assert session.game.view(0) == before
    assert [o.message.get("code") for o in out if o.conn == "a"] == ["entropy-refused"]


# -- compare: CLI and plot --------------------------------------------------------------


def test_cli_json_and_table_give_b_the_reason_only_a_saw() -> None:
    import contextlib
    import io
    import json

    from cardcore import cli

    args = ["compare", "tonk", "-o", "hands=1", "--vs-without", "tonk.natural-49-50"]
    args += ["--agents", "random", "--skill", "none", "--games", "186", "--seed", "1", "-q"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main([*args, "--json", "-"]) == 0
    data = json.loads(out.getvalue())
    assert set(data["a"]["reasons"]) == set(data["b"]["reasons"])
    natural = data["b"]["reasons"]["natural"]
    z2 = 1.959963984540054**2
    assert natural["mean"] == 0.0 and natural["n"] == 186
    assert natural["high"] == pytest.approx(z2 / (186 + z2))  # Wilson's upper end for 0 of n
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(args) == 0
    assert "ends: natural" in out.getvalue()


def test_plot_draws_every_reason_for_both_sides_with_b_zero_interval() -> None:
    pytest.importorskip("matplotlib")
    r = cardcore.compare("tonk", games=186, seed=1, **TONK)
    fig = r.plot()
    ax = next(a for a in fig.axes if a.get_title().startswith("end reasons"))
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == sorted(r.a.reasons) == sorted(r.b.reasons)
    bars = list(ax.patches)
    assert len(bars) == 2 * len(labels)  # one bar per side and reason


# -- GenericEncoding (rl/encoding.py) ----------------------------------------------------


def test_generic_encoding_planes_first_sorted_text_order_observer_first() -> None:
    np = pytest.importorskip("numpy")
    import cardcore.rl as rl

    game = cardcore.new_game("gofish", 3, seed=1)  # no encoding of its own
    enc = rl.encoding_for(game)
    assert isinstance(enc, rl.GenericEncoding)
    texts = sorted({str(c) for c in game.logic.deck(3, game.options)})
    assert list(enc.card_index) == texts and texts[0] == "10C"
    k = len(texts)
    for seat in (0, 1, 2):
        obs = rl.observe(game, seat)["observation"]
        hand = _hand(game, seat)
        want = np.zeros(k)
        for card in hand:
            want[texts.index(card)] += 1
        # the shared stock's plane and top plane (all hidden), then the observer's hand
        assert not obs[: 2 * k].any()
        assert (obs[2 * k : 3 * k] == want).all()
        top = np.zeros(k)
        top[texts.index(hand[0])] = 1
        assert (obs[3 * k : 4 * k] == top).all()
        # the last two scalars: may act now, game over
        assert list(obs[-2:]) == [float(seat in game.to_act), 0.0]


def test_go_fish_asked_memory_is_not_brought_back_by_a_later_draw() -> None:
    import random

    back = 0  # a forgotten rank held again without asking for it (the case the docs name)
    for seed in range(40):
        game = cardcore.new_game("gofish", 3, seed=seed)
        rng = random.Random(seed)
        memory: list[set[str]] = [set(), set(), set()]
        forgotten: list[set[str]] = [set(), set(), set()]
        while not game.is_over:
            seat = game.to_act[0]
            action = rng.choice(game.legal_actions(seat))
            rank = str(action).split()[2]
            game.apply(action)
            memory[seat].add(rank)
            forgotten[seat].discard(rank)
            for s in range(3):
                held = {c[:-1] for c in _hand(game, s)}
                forgotten[s] |= memory[s] - held
                memory[s] &= held
                back += len(forgotten[s] & held)
                assert sorted(game.view(None)["table"]["asked"][s]) == sorted(memory[s])
    assert back
