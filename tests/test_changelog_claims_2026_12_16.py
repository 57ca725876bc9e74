"""Release-note check (2026-12-16): the "Unreleased" entries written on 2026-12-16, each claim
tried against the code, the docs pages and the tests they cite. Passing tests pin claims that
hold; a strict xfail marks a claim that does not (as worded)."""

from __future__ import annotations

import copy
import enum
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

import cardcore
from cardcore import ArgumentError, Card, Event, PluginError, RuleInfo, ViewField, hookimpl
from cardcore.testing import assert_view_known
from tests.plugins import bridge_2026_12_15 as mb

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
DECK = " ".join(str(c) for c in cardcore.decks(1))


def doc(name: str) -> str:
    return " ".join((DOCS / name).read_text(encoding="utf-8").split())


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", mb.NAME, mb)
    yield
    cardcore.unregister("cardcore.games", mb.NAME)


def bridge(name: str = mb.NAME) -> cardcore.Game:
    return cardcore.new_game(name, 4, seed=3, deck=DECK)


# --- every test file and script the entries cite exists ------------------------------------

CITED = [
    "tests/web/test_hostile_realtime_2026_12_16.py",
    "tests/test_pinochle_author_2026_12_16.py",
    "tests/rl/test_third_party_envs_2026_12_16.py",
    "tests/session/test_third_party_restart_2026_12_16.py",
    "tests/test_review_2026_12_16_late.py",
    "tests/web/test_browser_third_party_2026_12_16.py",
    "tests/test_ratscrew_author_2026_12_16.py",
    "tests/hardening/test_third_party_faults_2026_12_16.py",
    "tests/test_docs_claims_2026_12_16.py",
    "tests/test_spite_author_2026_12_16.py",
    "tests/test_review_2026_12_16.py",
    "tests/test_spades_author_2026_12_16.py",
    "benchmarks/ismcts_time.py",
]


@pytest.mark.parametrize("path", CITED)
def test_cited_file_exists(path: str) -> None:
    assert (ROOT / path).is_file()


# --- Zones: masks ----------------------------------------------------------------------------


def sizes(zones: Any) -> list[tuple[int, int]]:
    return [(len(c), len(s)) for c, s in zip(zones.cards, zones.seen, strict=True)]


@pytest.mark.parametrize("method", ["put", "move", "insert", "insert_bottom"])
def test_every_mask_method_refuses_a_non_int_on_every_pile_and_changes_nothing(
    method: str,
) -> None:
    game = bridge()
    zones = game.state.zones
    jk = Card.parse("JK")
    for z in range(len(zones.layout.specs)):  # NOBODY stock, EVERYONE trick, OWNER hands
        for bad in ("1", None, 1.0, b"1"):
            before = sizes(zones)
            call = {
                "put": lambda z=z, bad=bad: zones.put(z, jk, bad),
                "move": lambda z=z, bad=bad: zones.move(mb.hand(3), z, 0, mask=bad),
                "insert": lambda z=z, bad=bad: zones.insert(z, 0, jk, bad),
                "insert_bottom": lambda z=z, bad=bad: zones.insert_bottom(z, jk, bad),
            }[method]
            if method == "move" and bad is None:
                continue  # None keeps the card's mask: documented, not a bad mask
            with pytest.raises(ArgumentError, match="knowledge mask is an int"):
                call()
            assert sizes(zones) == before
    game.view(0)  # nothing stored that breaks a view later


class _Seats(enum.IntFlag):
    NORTH = 1
    WEST = 8


def test_an_intflag_mask_is_accepted_and_kept_as_a_plain_int() -> None:
    zones = bridge().state.zones
    zones.put(mb.STOCK, Card.parse("JK"), _Seats.NORTH | _Seats.WEST)
    zones.move(mb.hand(3), mb.STOCK, 0, mask=_Seats.WEST)
    zones.insert(mb.STOCK, 0, Card.parse("JK"), _Seats.NORTH)
    zones.insert_bottom(mb.STOCK, Card.parse("JK"), _Seats.NORTH)
    masks = [zones.seen[mb.STOCK][i] for i in (-2, -1, 0, 1)]
    assert masks == [9, 8, 1, 1]
    assert all(type(m) is int for m in masks)


# --- the bus -------------------------------------------------------------------------------


class _Redacted(Event):
    slug: ClassVar[str] = "redacted-changelog-1216"
    seat: int
    box: ClassVar[dict[str, Any]] = {}

    def for_seat(self, seat: Any) -> Any:
        self.box["bus"].unsubscribe(self.box["sub"])
        return self


def test_a_subscription_removed_while_its_copy_is_redacted_is_not_called() -> None:
    bus = cardcore.new_game("golf", 2, seed=5).events
    got: list[Event] = []
    _Redacted.box.update(bus=bus, sub=bus.subscribe(_Redacted, got.append, seat=0))
    batch: list[Event] = [_Redacted(1)]
    bus.deliver(bus.ticket(batch), batch)
    assert got == []


@pytest.mark.parametrize("drop", [False, True])
@pytest.mark.parametrize("seat", [None, 1])
def test_delivery_failure_handler_names_a_handler_that_unsubscribed_itself(
    drop: bool, seat: int | None
) -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    failures: list[Any] = []
    game.events.on_error = failures.append
    box: dict[str, Any] = {}

    def boom(event: Event) -> None:
        game.events.unsubscribe(box["sub"])
        raise RuntimeError("gone")

    box["sub"] = game.events.subscribe(Event, boom, seat=seat, drop_on_error=drop)
    game.apply(game.legal_actions(game.to_act[0])[0])
    assert [f.handler for f in failures] == [boom]


# --- house rules: namespace, forbid_action ---------------------------------------------------


def _innocent(state: Any, action: Any) -> None:
    return None


def test_a_namespace_house_rule_with_an_unmarked_hook_is_refused() -> None:
    def score_round(state: Any, scores: Any) -> Any:
        return [0] * len(scores)

    info = RuleInfo(id="GOLF-CLG-1", name="golf.clg-ns", game="golf", summary="x")
    ns = types.SimpleNamespace(
        RULE=info, forbid_action=hookimpl(_innocent), score_round=score_round
    )
    cardcore.register("cardcore.rules", "golf.clg-ns", ns)
    try:
        with pytest.raises(PluginError, match="without @hookimpl"):
            cardcore.new_game("golf", 2, seed=1, rules=["golf.clg-ns"])
    finally:
        cardcore.unregister("cardcore.rules", "golf.clg-ns")


def _veto_rule(name: str, rid: str, veto: Any) -> types.ModuleType:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(id=rid, game="golf", summary="veto", name=name)  # type: ignore[attr-defined]
    module.forbid_action = hookimpl(veto)  # type: ignore[attr-defined]
    return module


@pytest.fixture
def rules():
    names: list[str] = []

    def add(name: str, rid: str, veto: Any) -> str:
        cardcore.register("cardcore.rules", name, _veto_rule(name, rid, veto))
        names.append(name)
        return name

    yield add
    for name in names:
        cardcore.unregister("cardcore.rules", name)


def _moves(state: Any, action: Any) -> None:
    state.zones.move(0, 1)


def _adds(state: Any, action: Any) -> None:
    state.zones.put(0, Card.parse("JK"))


def _removes(state: Any, action: Any) -> None:
    state.zones.pop(0)


@pytest.mark.parametrize("veto", [_moves, _adds, _removes])
def test_a_veto_changing_a_pile_is_refused_by_name_and_the_game_restored(rules, veto) -> None:
    name = rules("golf.clg-veto", "GOLF-CLG-2", veto)
    game = cardcore.new_game("golf", 2, seed=5, rules=[name])
    before = game.state.snapshot()
    with pytest.raises(PluginError, match="moved, added or removed cards") as info:
        game.legal_actions(game.to_act[0])
    assert info.value.plugin == name and name in str(info.value)
    assert game.state.snapshot() == before and game.version == 0


def test_a_veto_failing_while_apply_publishes_the_next_legal_actions(rules) -> None:
    """security.rst: the action stays applied, the hook's change undone, and the failure
    reaches the caller when the legal actions are asked."""
    armed: dict[str, Any] = {}

    def later(state: Any, action: Any) -> None:
        if armed and state.zones.seen != armed["seen"]:
            state.zones.move(0, 1)

    name = rules("golf.clg-later", "GOLF-CLG-3", later)
    game = cardcore.new_game("golf", 2, seed=5, rules=[name])
    action = game.legal_actions(game.to_act[0])[0]
    armed["seen"] = copy.deepcopy(game.state.zones.seen)
    game.apply(action)
    assert game.version == 1
    after = game.state.snapshot()
    with pytest.raises(PluginError, match="moved, added or removed cards"):
        game.legal_actions(game.to_act[0])
    assert game.state.snapshot() == after


def test_a_veto_that_swaps_cards_keeping_pile_sizes_is_not_seen_as_documented(rules) -> None:
    """hooks.rst (reworded after this audit): only pile sizes are compared, so a swap that
    keeps every size passes unseen (the kit's contract check finds a veto changing state)."""

    swapped: list[int] = []

    def swap(state: Any, action: Any) -> None:
        if not swapped:  # once (an even number of these swaps puts the cards back)
            swapped.append(1)
            state.zones.move(0, 1)  # the stock's top onto the discard
            state.zones.move(1, 0, 0)  # the discard's old card onto the stock

    name = rules("golf.clg-swap", "GOLF-CLG-4", swap)
    game = cardcore.new_game("golf", 2, seed=5, rules=[name])
    piles = [list(p) for p in game.state.zones.cards]
    game.legal_actions(game.to_act[0])  # not refused
    assert [list(p) for p in game.state.zones.cards] != piles  # the limit the docs now state


def test_a_veto_that_moves_a_card_beside_another_rules_veto_names_the_culprit(rules) -> None:
    """Each plain veto checks the pile sizes around its own call, so the error names the
    rule whose veto moved the card, not every rule implementing the hook."""
    ok = rules("golf.clg-innocent", "GOLF-CLG-5", _innocent)
    bad = rules("golf.clg-mover", "GOLF-CLG-6", _moves)
    game = cardcore.new_game("golf", 2, seed=5, rules=[ok, bad])
    saved = game.save()
    with pytest.raises(PluginError, match="moved, added or removed cards") as info:
        game.legal_actions(game.to_act[0])
    assert info.value.plugin == bad and ok not in str(info.value)
    assert game.save() == saved


def test_the_spite_test_plugin_blames_its_rules_garbage_on_that_rule() -> None:
    text = (ROOT / "tests/plugins/spite_2026_12_16.py").read_text(encoding="utf-8")
    assert "refused_answer" in text


# --- the kit: words of the actions listed now -----------------------------------------------


class _Lowest(mb.BridgeLogic):
    def table(self, state: mb.BridgeState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        a = self.auction(state)
        r = 0 if a.level is None or a.strain is None else mb.bid_rank(a.level, a.strain) + 1
        out["lowest"] = None if r >= 35 else f"{1 + r // 5}{mb.STRAINS[r % 5]}"
        return out


def test_the_kit_excuses_a_word_of_an_action_listed_now_in_every_seats_view() -> None:
    name = "mb-lowest-changelog-1216"
    module = types.ModuleType(name.replace("-", "_"))
    field = ViewField("lowest", "str", "The cheapest bid still open", nullable=True)
    module.GAME = attrs.evolve(mb.GAME, name=name, fields=(*mb.GAME.fields, field))  # type: ignore[attr-defined]
    module.create_logic = hookimpl(lambda ruleset: _Lowest(ruleset))  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", name, module)
    try:
        game = bridge(name)
        game.act(0, "1NT")
        assert game.view(0)["table"]["lowest"] == "2C"
        for seat in range(4):
            assert_view_known(game, seat)
    finally:
        cardcore.unregister("cardcore.games", name)


# --- a read's SeatError --------------------------------------------------------------------


@pytest.mark.parametrize("read", ["view", "history"])
@pytest.mark.parametrize("bad", [-1, 4, "x"])
def test_a_reads_seat_error_names_none_and_spectator(read: str, bad: Any) -> None:
    game = bridge()
    with pytest.raises(cardcore.SeatError, match="None or 'spectator' \\(SPECTATOR\\)"):
        getattr(game, read)(bad)
    assert game.view(cardcore.SPECTATOR) == game.view(None)


# --- typing: Suit.value ----------------------------------------------------------------------


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy not installed")
def test_suit_value_types_as_str_under_mypy_strict(tmp_path: Path) -> None:
    src = tmp_path / "plugin_text.py"
    src.write_text(
        "from cardcore import Card, Suit\n\n\n"
        "def letter(suit: Suit) -> str:\n    return suit.value\n\n\n"
        "def of_card(card: Card) -> str:\n"
        "    assert card.suit is not None  # a joker has no suit\n"
        "    return card.suit.value\n",
        encoding="utf-8",
    )
    cmd = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "c"), str(src)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stdout + out.stderr


# --- the CLI in a narrow terminal ------------------------------------------------------------


def _cli(columns: int, *args: str) -> str:
    exe = shutil.which("cardcore") or ""
    cmd = [exe, *args] if exe else [sys.executable, "-m", "cardcore", *args]
    env = {**os.environ, "COLUMNS": str(columns)}
    return subprocess.run(
        cmd, capture_output=True, text=True, env=env, timeout=60, check=True
    ).stdout


def test_cardcore_list_under_100_columns_lists_one_under_another() -> None:
    narrow = _cli(50, "list").split("agent")[0]  # games and house rules (not agents)
    assert "┳" not in narrow  # no column of a side-by-side table
    assert re.search(r"│ golf \(2-64 players, turn-based\)\s*│", narrow)
    assert "golf house rules" in narrow and "│ golf.bonus-twos GOLF-SCORE-8" in narrow
    assert "┳" not in _cli(99, "list").split("agent")[0]
    assert "┳" in _cli(100, "list")  # side by side from 100 columns


def test_cardcore_rules_under_100_columns_lists_options_and_rules_one_under_another() -> None:
    narrow = _cli(50, "rules", "golf")
    assert "┳" not in narrow
    assert "│ layout=6" in narrow and "│ golf.bonus-twos GOLF-SCORE-8" in narrow
    assert "┳" in _cli(120, "rules", "golf")


# --- the browser page (read, not run) --------------------------------------------------------

PLAY = (ROOT / "src/cardcore/web/static/play.js").read_text(encoding="utf-8")


def test_play_js_names_who_the_table_waits_for_after_core_turn_1() -> None:
    assert 'rule === "CORE-TURN-1"' in PLAY
    assert '" Waiting for " + names.join(", ")' in PLAY
    assert "+ waiting(m.rule)" in PLAY  # appended at the end of the "Not allowed" line


def test_play_js_generic_layout_and_fields() -> None:
    assert '" · top first"' in PLAY
    assert 'f.kind === "seat"' in PLAY and 'name(value) + " (seat " + value + ")"' in PLAY
    assert 'f.kind === "per-seat"' in PLAY and "value.map((x, s) => name(s)" in PLAY
    assert 'm.code === "notation") say("Cannot read — "' in PLAY


# --- benchmarks --------------------------------------------------------------------------------


def test_ismcts_time_exists_and_prints(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("ismcts_time", ROOT / "benchmarks/ismcts_time.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--iterations", "3", "--positions", "1", "--games", "golf"]) == 0
    out = capsys.readouterr().out
    assert any(line.split()[:1] == ["golf"] for line in out.splitlines())


def test_bare_loops_write_fisher_yates_out() -> None:
    assert "Fisher-Yates" in (ROOT / "benchmarks/bare_golf.py").read_text(encoding="utf-8")
    assert "Fisher-Yates" in (ROOT / "benchmarks/bare_tonk.py").read_text(encoding="utf-8")


def test_simulate_chunk_50_and_run_py_cuts_8() -> None:
    import inspect

    from cardcore import simulate as sim_module

    assert "chunk: int = 50" in inspect.getsource(sim_module)
    assert "games // 8" in (ROOT / "benchmarks/run.py").read_text(encoding="utf-8")


# --- docs pages say what the entries claim ------------------------------------------------

DOC_CLAIMS = [
    ("session.rst", "``seen`` outside :data:`~cardcore.STALE_WINDOW`, rule ``CORE-RT-3``"),
    ("session.rst", "Text is read as the game's parser reads it"),
    ("session.rst", "only ever get the game's own notation of what was played"),
    ("session.rst", "any ``last`` too high, never an error) gets a fresh ``view``"),
    ("session.rst", "one bucket per connection"),
    ("session.rst", "a second tab joining the seat with that token gets a ``welcome`` without it"),
    ("session.rst", "its text has fewer characters than the missed messages' texts together"),
    ("session.rst", "read as a big-endian integer"),
    ("session.rst", "the final ``view``'s ``reveal`` field carries the same bundle"),
    ("session.rst", "gives the record only once the game is over"),
    ("plugin-guide/game.rst", "move the copy the others know (one shown in a meld) first"),
    ("plugin-guide/game.rst", 'raise self.refused_answer("score_round", answer'),
    ("testing-kit.rst", "needs a cap of its own, an option such as ``max_hands``"),
    ("rl.rst", "nor has any game declared ``GameInfo(realtime=True)``"),
    ("rl.rst", "stays among ``env.agents``, never selected and not terminated"),
    ("rl.rst", "may even pass ``parallel_api_test``"),
    (
        "rl.rst",
        'gains one last index, ``"wait"``, set in the mask whenever any other index is',
    ),  # (was: "a policy cannot learn to wait", until wait=True)
    ("testing-kit.rst", "every open bid's word, in every seat's view"),
    ("web.rst", "each pile's cards top first"),
    ("web.rst", '``notation`` as "Cannot read"'),
    ("web.rst", "fields of kind ``seat`` and ``per-seat`` name the seats"),
    ("web.rst", "past rounds only up to the version they see"),
    ("plugin-guide/game.rst", "An ``ordered`` pile shows every seat where a card known to all"),
    ("plugin-guide/game.rst", "where ``slap 7H`` (the top it saw) is refused as stale"),
    ("plugin-guide/game.rst", "A real-time game with a part in turns"),
    ("plugin-guide/game.rst", "a game with no stock deals from one it empties"),
    ("plugin-guide/hookspecs.rst", "the resolved hook returns the list of every non-``None``"),
    ("notation.rst", 'json.dumps(value, separators=(",", ":"))'),
    ("performance.rst", "0.327x      0.185x      >= 0.30x   missed"),
    ("performance.rst", "0.172x      0.156x      >= 0.25x   missed"),
    ("performance.rst", "Issue 8 (0.1.0): targets, superseded"),
    ("performance.rst", "Since record format 3 each is a :class:`~cardcore.Chance` stream"),
    ("performance.rst", "(``simulate``'s own default is 50 games a chunk)"),
    ("search-agents.rst", "1.45-2.0 s in Spit"),
    ("search-agents.rst", "python benchmarks/ismcts_time.py"),
    ("agents.rst", "``max_actions``, as for :func:`~cardcore.play`, ends the game as"),
    ("plugin-guide/game.rst", "a pile of face-down cards under a face-up top is a ``NOBODY`` pile"),
    ("plugin-guide/game.rst", "A position holds the table, not the options"),
    ("hooks.rst", "``forbid_action`` (the size of every pile around each rule's own call"),
    ("security.rst", "a hook failing there leaves the action applied"),
    ("testing-kit.rst", "So is such a word of an action listed now"),
    ("testing-kit.rst", "A ``json`` field counts as of another kind"),
    ("plugin-guide/game.rst", "a key of rank and suit must mind a joker"),
    ("cli.rst", "narrower than 100 columns"),
]


@pytest.mark.parametrize(("page", "phrase"), DOC_CLAIMS)
def test_doc_page_says(page: str, phrase: str) -> None:
    assert " ".join(phrase.split()) in doc(page)


def test_compare_documents_agent_failure() -> None:
    from cardcore.compare import compare

    assert ":raises AgentFailure:" in (compare.__doc__ or "")
