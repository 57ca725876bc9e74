"""Docs claims changed on 2026-12-22 (``git diff b163d15..HEAD -- docs seeds src plugins``).

Each test checks one claim of a changed passage (api.rst, the changelog's new Unreleased
entries, core-rules/seeds CORE-HIDDEN-2, embedding, spit, tonk, plugin guide, security,
session, and changed docstrings) by running the code. A claim found false is a strict
xfail asserting what the page says.
"""

from __future__ import annotations

import copy
import hashlib
import pickle
import random
import re
import subprocess
import sys
import types
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import RuleInfo, Veto, hookimpl
from cardcore.errors import ArgumentError, CorruptStateError, OptionError, PluginError
from cardcore.session import Hub, MemoryStore, Session, SQLiteStore, verify_bundle
from cardcore.session.protocol import ProtocolError, read_message

ROOT = Path(__file__).resolve().parents[1]
BIG = int("9" * 4000)


def _error(call: Any) -> Exception:
    try:
        call()
    except Exception as exc:
        return exc
    raise AssertionError("no error raised")


def _longest_run(text: str, char: str) -> int:
    return max((len(m) for m in re.findall(f"{re.escape(char)}+", text)), default=0)


def _random_play(game: cardcore.Game, rng: random.Random, limit: int = 5000) -> None:
    for _ in range(limit):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))


# -- api.rst: errors -------------------------------------------------------------------------


def test_api_history_since_minus_one_is_illegal_action_error_with_rule_id_none() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    exc = _error(lambda: game.history(0, since=-1))
    assert type(exc) is cardcore.IllegalActionError and exc.rule_id is None


@pytest.mark.parametrize(
    "call",
    [
        lambda: cardcore.new_game("golf", 2, seed=1).act(0, "z" * 10_000_000),
        lambda: cardcore.new_game("z" * 10_000_000, 2),
        lambda: cardcore.new_game("golf", 2, seed=1, rules=["z" * 10_000_000]),
        lambda: cardcore.new_game("golf", 2, seed=1, without=["z" * 10_000_000]),
        lambda: cardcore.new_game("golf", 2, seed=1, options={"z" * 10_000_000: 1}),
        lambda: cardcore.new_game("golf", 2, seed="z" * 10_000_000),
        lambda: cardcore.parse_cards("z" * 10_000_000),
    ],
    ids=["act", "game", "rule", "without", "option", "seed", "parse_cards"],
)
def test_api_a_10_mb_input_makes_a_short_message(call: Any) -> None:
    exc = _error(call)
    assert isinstance(exc, cardcore.CardcoreError)
    assert len(str(exc)) < 1000 and _longest_run(str(exc), "z") <= 80


def _golf_huge_position() -> None:
    from cardcore_golf.actions import Flip

    cardcore.new_game("golf", 2, seed=1).apply(Flip(0, BIG))


@pytest.mark.parametrize(
    "call",
    [
        lambda: cardcore.new_game("golf", 2, seed=1).act(0, "q" * 190),
        lambda: cardcore.new_game("tonk", 2, seed=1).act(1, "q" * 190),
        lambda: cardcore.new_game("spit", 2, seed=1).act(0, "q" * 190),
        lambda: cardcore.new_game("speed", 2, seed=1).act(0, "q" * 190),
        lambda: cardcore.new_game("gofish", 3, seed=1).act(0, "q" * 190),
        _golf_huge_position,
    ],
    ids=["golf", "tonk", "spit", "speed", "gofish-core-notation", "golf-huge-position"],
)
def test_api_messages_quote_action_text_to_200_and_a_reason_to_300(call: Any) -> None:
    # api.rst (reworded after this sweep): "a value to about 80 characters, action text to
    # the 200 the notation reads, a game's reason for a refusal to 300"
    text = str(_error(call))
    assert _longest_run(text, "q") <= 200 and _longest_run(text, "9") <= 300
    assert len(text) <= 2 * 200 + 300


# -- changelog: reasons cut to 300, action text to 80 ------------------------------------------


def test_changelog_golf_refusal_of_a_4000_digit_position_is_cut_to_300() -> None:
    exc = _error(_golf_huge_position)
    assert exc.rule_id == "GOLF-TURN-4"  # type: ignore[attr-defined]
    assert len(str(exc)) <= 300 + len(" (GOLF-TURN-4)")


def test_changelog_out_of_turn_action_text_is_cut_to_80() -> None:
    from cardcore_golf.actions import Flip

    game = cardcore.new_game("golf", 2, seed=1)
    exc = _error(lambda: game.apply(Flip(1, BIG)))
    assert exc.rule_id == "CORE-TURN-1"  # type: ignore[attr-defined]
    assert _longest_run(str(exc), "9") < 80


def test_changelog_a_house_rule_veto_reason_is_cut_to_300_and_the_text_to_80() -> None:
    from cardcore_golf.actions import Flip

    mod = types.ModuleType("golf.docs-long-veto")
    mod.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="DOCS-VETO-1", name="golf.docs-long-veto", game="golf", summary="docs: long veto"
    )

    def forbid_action(state: Any, action: Any) -> Veto | None:
        return Veto("DOCS-VETO-1", "no flip: " + "w" * 2000) if action.verb == "flip" else None

    mod.forbid_action = hookimpl(forbid_action)  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "golf.docs-long-veto", mod)
    try:
        game = cardcore.new_game("golf", 2, seed=1, rules=["golf.docs-long-veto"])
        text = str(_error(lambda: game.apply(Flip(0, BIG))))
    finally:
        cardcore.unregister("cardcore.rules", "golf.docs-long-veto")
    assert text.endswith("(DOCS-VETO-1)")
    assert _longest_run(text, "w") < 300 and _longest_run(text, "9") < 80


# -- GameState: copy, deepcopy, pickle (changelog, GameState docstring) ------------------------


@pytest.mark.parametrize(("name", "players"), [("golf", 2), ("tonk", 3), ("gofish", 3)])
def test_copy_is_shallow_deepcopy_is_a_clone_pickle_refused(name: str, players: int) -> None:
    game = cardcore.new_game(name, players, seed=2)
    state = game.state
    shallow = copy.copy(state)
    assert shallow is not state and shallow.zones is state.zones  # sharing the piles
    deep = copy.deepcopy(state)
    assert type(deep) is type(state) and deep.zones is not state.zones
    assert deep.snapshot() == state.snapshot()
    with pytest.raises(
        TypeError, match=r"pickle its Game \(kept as its save\(\)\), or clone\(\) it"
    ):
        pickle.dumps(state)
    again = pickle.loads(pickle.dumps(game))  # the Game pickles, as its save()
    assert again.state.snapshot() == state.snapshot() and again.record() == game.record()


def test_a_hand_written_clone_on_copy_copy_does_not_recurse() -> None:
    game = cardcore.new_game("golf", 2, seed=3)

    def clone(self: Any) -> Any:
        new = copy.copy(self)
        new.zones = self.zones.clone()
        return new

    sub = type("DocsHandCloned", (type(game.state),), {"__slots__": (), "clone": clone})
    state = game.state.clone()
    state.__class__ = sub
    twin = copy.deepcopy(state)
    assert twin.zones is not state.zones and twin.snapshot() == state.snapshot()


# -- parse_cards, failing iterables, players, observe, reset -----------------------------------


def test_parse_cards_reads_lazily_and_stops_at_the_first_bad_item() -> None:
    read: list[int] = []

    def items() -> Iterator[str]:
        yield "5H"
        yield "zz"
        for k in range(100):
            read.append(k)
            yield "6H"

    with pytest.raises(cardcore.NotationError):
        cardcore.parse_cards(items())
    assert read == []


class _NoIter:
    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("no iter")


def _failing() -> Iterator[str]:
    yield "5H"
    raise RuntimeError("boom")


@pytest.mark.parametrize("bad", [_NoIter, _failing])
@pytest.mark.parametrize("what", ["cards", "rules", "without", "subscribers"])
def test_a_failing_iterable_is_an_argument_error(what: str, bad: Any) -> None:
    if what == "cards":
        exc = _error(lambda: cardcore.parse_cards(bad()))
    else:
        exc = _error(lambda: cardcore.new_game("golf", 2, seed=1, **{what: bad()}))
    assert type(exc) is ArgumentError and str(exc).startswith(f"{what}: reading it failed")


def test_players_list_holding_an_array_is_an_option_error() -> None:
    for players in (["Ann", np.array([1, 2])], [np.array(["a", "b"]), "Bob"]):
        exc = _error(lambda p=players: cardcore.new_game("golf", p, seed=1))
        assert type(exc) is OptionError


def test_observe_names_what_a_non_encoding_lacks() -> None:
    from cardcore import rl

    game = cardcore.new_game("golf", 2, seed=1)
    exc = _error(lambda: rl.observe(game, 0, "x"))  # type: ignore[arg-type]
    assert type(exc) is ArgumentError and "it has no 'planes'" in str(exc)
    assert "AttributeError" not in str(exc)


class _Unreadable(Mapping[str, Any]):
    def __init__(self, keys: list[str], fail: str) -> None:
        self.keys_, self.fail = keys, fail

    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("no get")

    def __iter__(self) -> Iterator[str]:
        if self.fail == "iter":
            raise RuntimeError("no iter")
        return iter(self.keys_)

    def __len__(self) -> int:
        if self.fail == "len":
            raise RuntimeError("no len")
        return len(self.keys_)


@pytest.mark.parametrize("builder", ["aec_env", "gym_env", "vector_env"])
@pytest.mark.parametrize("fail", ["len", "iter", "get"])
def test_reset_with_an_unreadable_mapping_is_an_option_error(builder: str, fail: str) -> None:
    from cardcore import rl

    env = (
        rl.vector_env("golf", 2, 2) if builder == "vector_env" else getattr(rl, builder)("golf", 2)
    )
    options = _Unreadable(["max_turns"], fail)
    with pytest.raises(OptionError, match="reset's options could not be read"):
        env.reset(seed=1, options=options)


# -- long inputs cut short; JSON kinds; deep JSON ---------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: cardcore.load_agent("random:" + "k" * 100_000 + "=1"),
        lambda: cardcore.parse_agent_spec("k" * 100_000 + "=,"),
        lambda: cardcore.parse_agent_spec("random:" + "k" * 100_000),
        lambda: cardcore.parse_agent_spec("random:" + "k" * 100_000 + "=1," + "k" * 100_000 + "=2"),
    ],
    ids=["parameter", "spec-name", "spec-part", "given-twice"],
)
def test_agent_specs_and_parameters_are_cut_short(call: Any) -> None:
    exc = _error(call)
    assert type(exc) is OptionError and len(str(exc)) < 400


def test_a_tampered_save_version_is_cut_short() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    save = copy.deepcopy(game.save())
    save["version"] = "v" * 100_000
    exc = _error(lambda: cardcore.load(save))
    assert type(exc) is CorruptStateError and len(str(exc)) < 200


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        ("null", "null"),
        ("[1]", "an array"),
        ('"x"', "text"),
        ("2.5", "a number"),
        ("true", "a boolean"),
    ],
)
def test_json_kinds_are_named_as_json_names_them(raw: str, kind: str) -> None:
    assert str(_error(lambda: cardcore.replay(raw))) == f"record must be a JSON object, not {kind}"
    assert (
        str(_error(lambda: cardcore.load(raw))) == f"saved game must be a JSON object, not {kind}"
    )
    exc = _error(lambda: read_message(raw, 10**6))
    assert type(exc) is ProtocolError and str(exc) == f"a message is a JSON object, not {kind}"
    bundle = _error(lambda: verify_bundle(__import__("json").loads(raw)))
    assert str(bundle) == f"a fair-deal bundle is a JSON object, not {kind}"


def test_deep_json_is_nested_too_deeply_to_read() -> None:
    deep = "[" * 50_000 + "]" * 50_000
    assert str(_error(lambda: cardcore.replay(deep))) == "record is nested too deeply to read"
    assert str(_error(lambda: cardcore.load(deep))) == "saved game is nested too deeply to read"
    assert str(_error(lambda: read_message(deep, 10**6))).endswith("is nested too deeply to read")


def test_cli_verify_and_replay_name_json_kinds_and_depth(tmp_path: Path) -> None:
    null, deep = tmp_path / "null.json", tmp_path / "deep.json"
    null.write_text("null")
    deep.write_text("[" * 50_000 + "]" * 50_000)
    outs = {}
    for command, path in [("verify", null), ("replay", deep)]:
        run = subprocess.run(
            [sys.executable, "-m", "cardcore.cli", command, str(path)],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
            check=False,
        )
        outs[command] = run.stdout + run.stderr
    assert "holds null, not a fair-deal bundle or a record" in outs["verify"]
    assert "record is nested too deeply to read" in outs["replay"]
    assert "NoneType" not in outs["verify"] and "recursion" not in outs["replay"]


@pytest.mark.parametrize(
    ("key", "value", "said"),
    [
        ("actions", {}, "record field 'actions' must be an array, not an object"),
        ("seed", "x", "record field 'seed' must be a whole number, not text"),
        ("game", 5, "record field 'game' must be text, not a number"),
        ("options", [1], "record field 'options' must be an object, not an array"),
    ],
)
def test_a_record_field_of_the_wrong_kind_is_named_in_json_words(
    key: str, value: Any, said: str
) -> None:
    record = copy.deepcopy(cardcore.new_game("golf", 2, seed=1).record())
    record[key] = value
    assert str(_error(lambda: cardcore.replay(record))).startswith(said)


def test_session_messages_say_an_before_a_vowel() -> None:
    assert "an 'act' message needs the field 'action'" in str(
        _error(lambda: read_message('{"type": "act", "seen": 1}', 10**6))
    )
    assert "in an 'entropy' message" in str(
        _error(lambda: read_message('{"type": "entropy", "value": "x", "q": 1}', 10**6))
    )
    assert "a 'join' message needs" in str(_error(lambda: read_message('{"type": "join"}', 10**6)))


# -- MemoryStore (changelog, MemoryStore/Hub/commit docstrings) --------------------------------


def test_memory_store_keeps_the_last_16_closed_and_every_open_session() -> None:
    store = MemoryStore()
    assert store.keep_closed == 16
    hub = Hub(store)
    hub.create("golf", 2, now=0.0, seed=1, session_id="open")
    for k in range(20):
        hub.create("golf", 2, now=1.0, seed=k, session_id=f"done{k}")
        hub.close(f"done{k}", 2.0 + k)
    kept = [k for k in range(20) if store.load(f"done{k}") is not None]
    assert kept == list(range(4, 20))  # the oldest dropped first
    assert store.load("done19").status == "closed"  # type: ignore[union-attr]
    assert store.load("open") is not None and store.session_ids() == ["open"]


def test_memory_store_frees_a_dropped_id_and_sqlite_refuses_a_used_one() -> None:
    store = MemoryStore(keep_closed=1)
    for k in range(2):
        Session.create("golf", 2, now=0.0, seed=1, store=store, session_id=f"s{k}").close(1.0)
    assert Session.create("golf", 2, now=2.0, seed=1, store=store, session_id="s0").id == "s0"
    with pytest.raises(cardcore.CardcoreError):
        Session.create("golf", 2, now=2.0, seed=1, store=store, session_id="s1")
    sql = SQLiteStore(":memory:")
    try:
        Session.create("golf", 2, now=0.0, seed=1, store=sql, session_id="a").close(1.0)
        with pytest.raises(cardcore.CardcoreError):
            Session.create("golf", 2, now=2.0, seed=1, store=sql, session_id="a")
        assert sql.load("a").status == "closed"  # type: ignore[union-attr]
    finally:
        sql.close()


@pytest.mark.parametrize("bad", [-1, 1.0, True, "3", None])
def test_memory_store_keep_closed_must_be_a_whole_number_from_0(bad: Any) -> None:
    with pytest.raises(ArgumentError, match="keep_closed is a whole number from 0"):
        MemoryStore(bad)


def test_closing_again_after_the_store_dropped_the_session_changes_nothing() -> None:
    store = MemoryStore(keep_closed=0)
    session = Session.create("golf", 2, now=0.0, seed=1, store=store, session_id="x")
    session.close(1.0)
    session.close(2.0)
    assert session.store_error is None and store.load("x") is None


# -- Golf interning (changelog, GolfAction docstring) ------------------------------------------


def test_golf_interns_only_seats_and_positions_below_64() -> None:
    from cardcore_golf.actions import _INTERNED, Flip, Replace

    assert Replace(0, 3) is Replace(0, 3) and Flip(63, 63) is Flip(63, 63)
    assert Flip(0, 64) is not Flip(0, 64) and Flip(64, 0) is not Flip(64, 0)
    size = len(_INTERNED)
    for k in range(50):
        Flip(0, 10**6 + k)
    assert len(_INTERNED) == size
    assert cardcore.game_info("golf").max_players <= 64  # seats 0..63: every seat below 64


# -- upgrade entry ---------------------------------------------------------------------------


def test_verdict_names_moved_to_answers() -> None:
    import cardcore_tonk.answers as answers
    import cardcore_tonk.melds as melds

    assert hasattr(answers, "VERDICT") and hasattr(answers, "usable_verdict")
    assert not hasattr(melds, "VERDICT") and not hasattr(melds, "usable_verdict")


def test_a_bad_deal_verdict_is_a_plugin_error_naming_the_rule() -> None:
    from cardcore_tonk.melds import DealVerdict

    mod = types.ModuleType("tonk.docs-bad-judge")
    mod.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="DOCS-JUDGE-1", name="tonk.docs-bad-judge", game="tonk", summary="docs: bad judge"
    )

    def judge(hands: Any, points: Any) -> DealVerdict:
        return DealVerdict("fee", None, (1, 1))  # does not sum to zero

    mod.tonk_deal_judge = hookimpl(lambda: judge)  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "tonk.docs-bad-judge", mod)
    try:
        exc = _error(lambda: cardcore.new_game("tonk", 2, seed=1, rules=["tonk.docs-bad-judge"]))
    finally:
        cardcore.unregister("cardcore.rules", "tonk.docs-bad-judge")
    assert type(exc) is PluginError and "tonk.docs-bad-judge" in str(exc)


def test_commitment_of_and_fair_deal_default_to_chance_and_none_is_format_1() -> None:
    from cardcore.session.fair import BUNDLE_FORMAT, FairDeal, commitment_of

    seed, salt = bytes(range(32)), bytes(range(16))
    v2 = hashlib.sha256(b"cardcore-fair/2\0" + bytes([cardcore.CHANCE]) + seed + salt).hexdigest()
    v1 = hashlib.sha256(b"cardcore-fair/1\0" + seed + salt).hexdigest()
    assert commitment_of(seed, salt) == v2 and commitment_of(seed, salt, None) == v1
    deal = FairDeal(seed, salt, [None, None])
    assert deal.chance == cardcore.CHANCE and deal.commitment == v2 and deal.format == 2
    old = FairDeal(seed, salt, [None, None], chance=None)
    assert old.format == 1 and old.commitment == v1
    assert BUNDLE_FORMAT == ("cardcore-fair-deal", 2)
    page = (ROOT / "docs" / "session.rst").read_text()
    for name in ("fair.commitment_of", "fair.seed_of", "fair.FairDeal", "fair.BUNDLE_FORMAT"):
        assert f"cardcore.session.{name}" in page


def test_score_sheet_wrong_length_escapes_except_value_error() -> None:
    sheet = cardcore.ScoreSheet(2)
    exc = _error(lambda: sheet.add_round([1, 2, 3]))
    assert isinstance(exc, TypeError) and not isinstance(exc, ValueError)
    assert type(exc) is ArgumentError


# -- events: Tonk cards-dealt, turn-passed ------------------------------------------------------


def test_tonk_every_deal_publishes_cards_dealt_five_a_seat_then_hand_dealt() -> None:
    events: list[cardcore.Event] = []
    game = cardcore.new_game(
        "tonk", 3, seed=11, options={"hands": 3}, subscribers=[(cardcore.Event, events.append)]
    )
    _random_play(game, random.Random(7))
    names = [e.to_json()["event"] for e in events]
    deals = [i for i, n in enumerate(names) if n == "cards-dealt"]
    assert len(deals) == names.count("hand-dealt") // 3 >= 2
    for i in deals:
        assert events[i].to_json()["counts"] == [5, 5, 5]
        assert names[i + 1 : i + 4] == ["hand-dealt"] * 3


@pytest.mark.parametrize(
    ("name", "players", "options", "seed"),
    [
        ("golf", 2, {"rounds": 2}, 1),
        ("tonk", 3, {"hands": 5}, 3),
        ("gofish", 3, {}, 3),
        ("gofish", 4, {}, 4),
    ],
)
def test_turn_based_games_publish_turn_passed_when_the_turn_moves(
    name: str, players: int, options: dict[str, Any], seed: int
) -> None:
    events: list[cardcore.Event] = []
    game = cardcore.new_game(
        name, players, seed=seed, options=options, subscribers=[(cardcore.Event, events.append)]
    )
    rng = random.Random(seed)
    moves = 0
    while not game.is_over:
        before, n = game.to_act, len(events)
        game.apply(rng.choice(game.legal_actions(before[0])))
        told = [e for e in events[n:] if isinstance(e, cardcore.TurnPassed)]
        if not game.is_over and len(game.to_act) == 1 and game.to_act[0] not in before:
            moves += 1
            assert [e.seat for e in told] == list(game.to_act)
    assert moves > 5


def test_plugin_guide_go_fish_event_list_ends_with_turn_passed() -> None:
    deck = "QS QD 10H QH 5S 5C 5H 8C AS 9C 3H 9D 2D JC 2C 7S 4D 8H KD 6S JS 7H"
    game = cardcore.new_game("gofish", ["Ann", "Bob", "Cy"], deck=deck, seed=1)
    seen: list[dict[str, Any]] = []
    game.events.subscribe(cardcore.Event, lambda e: seen.append(e.to_json()), seat=2)
    game.act(0, "ask 1 Q")
    game.act(0, "ask 2 Q")
    assert [e["event"] for e in seen] == [
        "action-applied",
        "card-moved",
        "action-applied",
        "card-drawn",
        "turn-passed",
    ]
    assert seen[-1] == {"event": "turn-passed", "seat": 1}
    assert game.to_act == (1,)


def test_plugin_guide_go_fish_line_counts() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "go_fish" / "count_lines.py")],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    page = (ROOT / "docs" / "plugin-guide" / "game.rst").read_text(encoding="utf-8")
    said = re.search(r"needs (\d+) lines of code for the game and (\d+) for its agent", page)
    assert said is not None  # the page's numbers are the script's
    assert re.search(rf"^\s*{said[1]}\s+game code", run.stdout, re.M)
    assert re.search(rf"^\s*{said[2]}\s+agents\.py", run.stdout, re.M)


# -- spit.rst: no history --------------------------------------------------------------------


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_spit_and_speed_keep_no_history(name: str) -> None:
    events: list[cardcore.Event] = []
    game = cardcore.new_game(name, 2, seed=4, subscribers=[(cardcore.Event, events.append)])
    rng = random.Random(2)
    for step in range(3000):
        if game.is_over:
            break
        seats = [s for s in game.to_act if game.legal_actions(s)]
        seat = rng.choice(seats)
        game.apply(rng.choice(game.legal_actions(seat)))
        if step % 100 == 0:
            assert game.history(0) == [] and game.history(1) == [] and game.history(None) == []
    assert game.history(0) == [] and game.history(None) == []
    names = {e.to_json()["event"] for e in events}
    assert "round-scored" not in names
    if name == "spit":
        assert "deal-ended" in names
        table = game.view(0)["table"]
        assert isinstance(table["deal"], int) and all("cards" in s for s in table["seats"])


# -- embedding.rst: nullable, choices --------------------------------------------------------


def test_view_schema_nullable_only_when_true_and_choice_lists_choices() -> None:
    from cardcore.info import ViewField
    from cardcore.testing._structure import kind_problem

    assert ViewField("x", "int", nullable=True).to_json()["nullable"] is True
    assert "nullable" not in ViewField("x", "int").to_json()
    assert ViewField("x", "choice", choices=("a", "b")).to_json()["choices"] == ["a", "b"]
    for name, players in [("golf", 2), ("tonk", 2), ("spit", 2)]:
        for field in cardcore.new_game(name, players, seed=1).view_schema()["fields"]:
            assert field.get("nullable", True) is True
    assert kind_problem("card", "", None, 2, ()) is None
    assert kind_problem("seat", "", None, 2, ()) is None


# -- CORE-HIDDEN-2 (core-rules, seeds, security, session's stale guard) ------------------------

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_DECK = [r + s for s in "CDHS" for r in _RANKS]


def _swap(cards: list[str], a: str, b: str) -> list[str]:
    out = list(cards)
    i, j = out.index(a), out.index(b)
    out[i], out[j] = out[j], out[i]
    return out


def _outcome(game: cardcore.Game, seat: int, text: str, seen: int | None) -> tuple[Any, ...]:
    twin = game.clone()
    try:
        twin.act(seat, text, seen=seen)
    except cardcore.CardcoreError as exc:
        return (type(exc).__name__, exc.rule_id, str(exc))
    return ("applied",)


@pytest.mark.parametrize("layout", [6, 8, 10])
def test_core_hidden_2_golf_refusals_alike_wherever_hidden_cards_lie(layout: int) -> None:
    options = {"layout": layout, "rounds": 1}
    one = cardcore.new_game("golf", 2, deck=" ".join(_DECK), seed=1, options=options)
    piles = dict(
        zip([z.name for z in one.state.zones.layout.specs], one.state.zones.cards, strict=True)
    )
    stock_top, stock_bottom = str(piles["stock"][-1]), str(piles["stock"][0])
    other = _swap(
        _swap(_DECK, stock_top, str(piles["grid.1"][0])), stock_bottom, str(piles["stock"][1])
    )
    two = cardcore.new_game("golf", 2, deck=" ".join(other), seed=1, options=options)
    assert one.state.snapshot() != two.state.snapshot() and one.view(0) == two.view(0)
    texts = ["draw", "take", "discard", "knock", "swap 1", "flip -1"]
    texts += [f"{verb} {k}" for verb in ("flip", "replace", "peek") for k in (0, 1, 5, 9, 12)]
    rng = random.Random(layout)
    compared = 0
    for _ in range(40):
        if one.is_over:
            break
        for seat in (0, 1):
            if one.view(seat) != two.view(seat):
                continue
            for text in texts:
                for seen in (None, one.version, max(0, one.version - 1), 0):
                    assert _outcome(one, seat, text, seen) == _outcome(two, seat, text, seen)
                    compared += 1
        seat = one.to_act[0]
        text = str(rng.choice(one.legal_actions(seat)))
        one.act(seat, text)
        two.act(seat, text)
    assert compared > 500


def test_changelog_oracle_sweep_covers_the_golf_layouts_it_names() -> None:
    from tests.hardening import test_error_oracles_2026_12_22 as sweep

    # the changelog (reworded after this sweep): "Golf's layouts 6, 9, 4 and 4h"
    swept = {str(o.get("layout", 6)).lower() for n, _, o, _ in sweep.CONFIGS if n == "golf"}
    assert {"6", "9", "4", "4h"} <= swept


def test_core_hidden_2_has_its_test_and_is_in_seeds_and_core_rules() -> None:
    tests = (ROOT / "tests" / "core" / "test_core_rules.py").read_text()
    assert "def test_core_hidden_2_" in tests
    for page in ("seeds/core.md", "docs/core-rules.rst"):
        assert "CORE-HIDDEN-2" in (ROOT / page).read_text()
