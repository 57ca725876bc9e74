"""Mutation audit (2026-12-29): records, stored sessions, session settings, the terminal play.

Each test here was written against a hand-made mutant of ``cardcore.records``,
``cardcore.session.sqlite``, ``cardcore.session.store``, ``cardcore.session.config``
or ``cardcore.cli.realtime``/``render``/``play`` that the earlier tests let live:
it fails on that mutant and passes on the code as it is. Everything is seeded and
deterministic (the first legal action, fixed seeds), no timing is asserted.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator
from typing import Any

import pytest

from cardcore import load, new_game, replay
from cardcore.errors import CorruptStateError
from cardcore.records import MAX_BYTES, MAX_DEPTH


def _golf(actions: int = 4) -> Any:
    game = new_game("golf", ["a", "b"], seed=7)
    for _ in range(actions):
        game.apply(game.legal_actions(game.to_act[0])[0])
    return game


def _save() -> dict[str, Any]:
    return _golf().save()


def _nested(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


# -- records.py: the limits --------------------------------------------------------------------


def test_a_save_of_exactly_max_bytes_passes_the_size_limit() -> None:
    """MAX_BYTES is "the largest ... accepted": one of exactly that size is read (and then
    refused for what it says, not for its size); one byte more is too large."""
    exact = b" " * (MAX_BYTES - 2) + b"{}"
    with pytest.raises(CorruptStateError, match="no 'format' field"):
        load(exact)
    with pytest.raises(CorruptStateError, match="too large"):
        load(b" " + exact)


def test_nesting_of_exactly_max_depth_passes_the_depth_limit() -> None:
    """MAX_DEPTH is "the deepest nesting ... a save may hold": the top object is level 1."""
    with pytest.raises(CorruptStateError, match="no 'format' field"):
        load({"deep": _nested(MAX_DEPTH - 1)})
    with pytest.raises(CorruptStateError, match=f"nested deeper than {MAX_DEPTH} levels"):
        load({"deep": _nested(MAX_DEPTH)})


def test_an_action_with_a_seat_beyond_max_int_bits_is_refused_by_the_limits() -> None:
    """The fast path for ``[seat, notation, at]`` triples must still check the seat's size:
    the limits refuse the record before anything is replayed, naming the integer."""
    record = _save()["record"]
    record["actions"] = [[2**200, "flip 0", None]]
    with pytest.raises(CorruptStateError, match="integer of more than 128 bits"):
        replay(record)


# -- records.py: the fields, named when wrong --------------------------------------------------


def _record(**changes: Any) -> dict[str, Any]:
    record = copy.deepcopy(_save()["record"])
    record.update(changes)
    return record


def _bonus_record(**rule: Any) -> dict[str, Any]:
    game = new_game("golf", ["a", "b"], seed=7, rules=["golf.bonus-card"])
    game.apply(game.legal_actions(0)[0])
    record = game.record()
    record["rules"][0].update(rule)
    return record


def test_a_format_version_of_true_is_not_version_1() -> None:
    """``true`` is not the version 1 (``True == 1`` in Python): the record and the save say so."""
    with pytest.raises(CorruptStateError, match=r"not a cardcore record .*version True"):
        replay(_record(format_version=True))
    save = _save()
    save["format_version"] = True
    with pytest.raises(CorruptStateError, match=r"not a cardcore saved game .*version True"):
        load(save)


def test_a_record_without_its_format_version_names_that_field() -> None:
    record = _record()
    del record["format_version"]
    with pytest.raises(CorruptStateError, match="has no 'format_version' field"):
        replay(record)
    save = _save()
    del save["format_version"]
    with pytest.raises(CorruptStateError, match="has no 'format_version' field"):
        load(save)


def test_a_boolean_seed_is_refused_naming_the_seed() -> None:
    with pytest.raises(CorruptStateError, match="'seed' must be a whole number, not a boolean"):
        replay(_record(seed=True))


def test_an_overlong_game_version_is_refused_even_when_it_reads_as_a_release() -> None:
    """More than 64 characters is not a version, though ``0.1.1.1...`` matches the pattern
    and its major version is the installed one's."""
    long = "0." + "1." * 40 + "1"
    with pytest.raises(CorruptStateError, match="'game_version' must be a version"):
        replay(_record(game_version=long))


def test_players_that_are_not_names_are_refused_naming_the_field() -> None:
    with pytest.raises(CorruptStateError, match="'players' must list names"):
        replay(_record(players=[1, 2]))


def test_a_rule_entry_carrying_another_rules_id_is_refused() -> None:
    replay(_bonus_record())  # as written: sound
    with pytest.raises(CorruptStateError, match="carries the ID 'GOLF-SCORE-99'"):
        replay(_bonus_record(id="GOLF-SCORE-99"))


def test_a_rule_entry_with_an_overlong_version_is_refused() -> None:
    long = "0." + "1." * 40 + "1"
    with pytest.raises(CorruptStateError, match="must carry a version"):
        replay(_bonus_record(version=long))


def test_a_boolean_seat_in_an_action_is_refused_not_taken_for_seat_1() -> None:
    record = _save()["record"]
    assert record["actions"][2][0] == 1
    record["actions"][2][0] = True
    with pytest.raises(CorruptStateError, match="record action 2 must be \\[seat, notation, at\\]"):
        replay(record)


def test_a_boolean_time_in_an_action_is_refused() -> None:
    record = _save()["record"]
    record["actions"][0][2] = True
    with pytest.raises(CorruptStateError, match="record action 0 must be \\[seat, notation, at\\]"):
        replay(record)


def _finished_record() -> dict[str, Any]:
    from cardcore import RandomAgent

    game = new_game("golf", ["a", "b"], seed=7, options={"rounds": 1})
    agents = [RandomAgent(seed=1), RandomAgent(seed=2)]
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(agents[seat].choose(game.view(seat), game.legal_actions(seat)))
    assert game.result is not None and game.result.reason == "rounds"
    return game.record()


def test_a_finished_record_claiming_truncation_is_refused_for_that() -> None:
    record = _finished_record()
    replay(record)
    record["truncated"] = True
    with pytest.raises(
        CorruptStateError, match="says the game was truncated, but its actions end it"
    ):
        replay(record)


def test_a_finished_record_with_its_result_removed_is_refused() -> None:
    record = _finished_record()
    record["result"] = None
    with pytest.raises(
        CorruptStateError, match="holds no result, but its actions replay to a finished game"
    ):
        replay(record)


def test_a_save_whose_state_has_no_zones_is_refused_cleanly() -> None:
    save = _save()
    del save["state"]["zones"]
    with pytest.raises(CorruptStateError, match="no state snapshot with zones"):
        load(save)


def test_a_version_2_save_without_its_configuration_is_refused() -> None:
    """Only a version-1 save (cardcore 0.1) may lack ``config``."""
    save = _save()
    save["format_version"] = 2
    del save["config"]
    with pytest.raises(CorruptStateError, match="has no configuration"):
        load(save)


@pytest.mark.parametrize("record", [[], "text", 5])
def test_a_save_whose_record_is_not_an_object_is_refused_cleanly(record: Any) -> None:
    save = _save()
    save["record"] = record
    with pytest.raises(CorruptStateError, match="saved game has no record"):
        load(save)


@pytest.mark.parametrize("zone", [[], "AS", None])
def test_a_saved_zone_that_is_not_an_object_is_named(zone: Any) -> None:
    save = _save()
    save["state"]["zones"]["stock"] = zone
    with pytest.raises(CorruptStateError, match="saved zone 'stock' is malformed"):
        load(save)


def test_a_saved_version_must_be_a_whole_number_not_an_equal_float_or_boolean() -> None:
    save = _save()
    assert save["version"] == 4
    save["version"] = 4.0
    with pytest.raises(CorruptStateError, match=r"saved version 4\.0 does not match"):
        load(save)
    one = _golf(1).save()
    assert one["version"] == 1
    one["version"] = True
    with pytest.raises(CorruptStateError, match="saved version True does not match"):
        load(one)


def test_a_saved_count_written_as_a_float_is_not_the_count() -> None:
    """``_same``: ``6.0`` is not the count ``6`` (only an int may stand for a float)."""
    save = _save()
    assert save["config"]["options"]["layout"] == 6
    save["config"]["options"]["layout"] = 6.0
    with pytest.raises(CorruptStateError, match="saved options"):
        load(save)


# -- session/sqlite.py and session/store.py --------------------------------------------------


def _stored(sid: str = "s1", created: float = 1.0) -> Any:
    from cardcore.session.store import StoredSession

    return StoredSession(id=sid, status="waiting", created=created, meta={"k": 1})


def _batch(**kw: Any) -> Any:
    from cardcore.session.store import Batch

    return Batch(**{"status": "playing", "updated": 2.0, **kw})


def _stores(tmp_path: Any) -> list[Any]:
    from cardcore.session import SQLiteStore
    from cardcore.session.store import MemoryStore

    return [MemoryStore(), SQLiteStore(tmp_path / "s.db")]


def test_a_store_of_a_newer_schema_is_refused(tmp_path: Any) -> None:
    import sqlite3

    from cardcore.session import SQLiteStore
    from cardcore.session.sqlite import SCHEMA_VERSION, StoreError

    path = tmp_path / "newer.db"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match=f"newer schema \\({SCHEMA_VERSION + 1};"):
        SQLiteStore(path)


def test_creating_an_id_twice_is_a_key_error_and_the_store_stays_usable(tmp_path: Any) -> None:
    for store in _stores(tmp_path):
        store.create(_stored())
        with pytest.raises(KeyError):
            store.create(_stored())
        store.commit("s1", _batch(actions=[(0, 0, "flip 0", None)]))  # not left in a transaction
        loaded = store.load("s1")
        assert loaded.status == "playing" and loaded.actions == [(0, "flip 0", None)]
        assert loaded.meta == {"k": 1}
        store.close()


def test_actions_written_again_from_an_index_replace_the_tail(tmp_path: Any) -> None:
    for store in _stores(tmp_path):
        store.create(_stored())
        store.commit("s1", _batch(actions=[(0, 0, "a", None), (1, 1, "b", 1.5), (2, 0, "c", None)]))
        store.commit("s1", _batch(actions=[(1, 1, "x", None)]))
        assert store.load("s1").actions == [(0, "a", None), (1, "x", None)]
        store.commit("s1", _batch(keep_actions=1))
        assert store.load("s1").actions == [(0, "a", None)]
        store.close()


def test_prune_deletes_exactly_the_messages_numbered_below(tmp_path: Any) -> None:
    for store in _stores(tmp_path):
        store.create(_stored())
        store.commit("s1", _batch(messages=[("p0", n, f"m{n}") for n in range(5)]))
        store.commit("s1", _batch(prune={"p0": 3}))
        assert store.load("s1").messages == {"p0": [(3, "m3"), (4, "m4")]}
        store.close()


def test_session_ids_are_oldest_first_not_by_id(tmp_path: Any) -> None:
    for store in _stores(tmp_path):
        store.create(_stored("b", created=1.0))
        store.create(_stored("a", created=2.0))
        store.create(_stored("c", created=0.5))
        assert store.session_ids() == ["c", "b", "a"]
        store.close()


def test_a_stored_meta_that_is_not_json_is_a_store_error(tmp_path: Any) -> None:
    import sqlite3

    from cardcore.session import SQLiteStore
    from cardcore.session.sqlite import StoreError

    path = tmp_path / "s.db"
    store = SQLiteStore(path)
    store.create(_stored())
    store.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE sessions SET meta = '{not json' WHERE id = 's1'")
    db.commit()
    db.close()
    store = SQLiteStore(path)
    with pytest.raises(StoreError, match="cannot read session 's1'"):
        store.load("s1")
    store.close()


def test_a_session_loaded_then_changed_by_another_writer_is_not_overwritten(tmp_path: Any) -> None:
    """The mark is taken on load: a store that only read the session must still refuse to
    commit over another writer's change (one game, one writer)."""
    from cardcore.session import SQLiteStore
    from cardcore.session.sqlite import StoreError

    path = tmp_path / "s.db"
    first = SQLiteStore(path)
    first.create(_stored())
    first.close()
    reader, writer = SQLiteStore(path), SQLiteStore(path)
    reader.load("s1")
    writer.load("s1")
    writer.commit("s1", _batch(actions=[(0, 0, "a", None)]))
    with pytest.raises(StoreError, match="another writer changed it"):
        reader.commit("s1", _batch(actions=[(0, 1, "b", None)]))
    assert writer.load("s1").actions == [(0, "a", None)]
    reader.close()
    writer.close()


def test_a_replaced_store_file_is_not_written(tmp_path: Any) -> None:
    import os

    from cardcore.session import SQLiteStore
    from cardcore.session.sqlite import StoreError

    path = tmp_path / "s.db"
    store = SQLiteStore(path)
    store.create(_stored())
    other = SQLiteStore(tmp_path / "other.db")
    other.create(_stored())
    other.close()
    os.replace(tmp_path / "other.db", path)
    with pytest.raises(StoreError, match="deleted or replaced"):
        store.commit("s1", _batch())
    store.close()


def test_merged_batches_keep_old_actions_below_the_cut_and_the_lower_cut() -> None:
    from cardcore.session.store import merged

    old = _batch(
        keep_actions=5,
        actions=[(3, 0, "a", None), (4, 1, "b", None)],
        prune={"p": 4},
        meta={"m": 1},
    )
    new = _batch(keep_actions=4, actions=[(4, 0, "c", None)], prune={"p": 2}, meta=None)
    both = merged(old, new)
    assert both.keep_actions == 4
    assert both.actions == [(3, 0, "a", None), (4, 0, "c", None)]
    assert both.prune == {"p": 4}
    assert both.meta == {"m": 1}
    newer = merged(old, _batch(meta={"m": 2}))
    assert newer.meta == {"m": 2}  # the later meta replaces the earlier


def test_memory_store_closing_a_dropped_session_changes_nothing() -> None:
    from cardcore.session.store import MemoryStore

    store = MemoryStore(keep_closed=0)
    store.create(_stored())
    store.commit("s1", _batch(status="closed"))
    assert store.load("s1") is None
    store.commit("s1", _batch(status="closed"))  # again: nothing, no KeyError
    with pytest.raises(KeyError):
        store.commit("s1", _batch(status="playing"))


def test_memory_store_keeps_exactly_keep_closed_closed_sessions() -> None:
    from cardcore.errors import ArgumentError
    from cardcore.session.store import MemoryStore

    store = MemoryStore(keep_closed=1)
    for sid in ("a", "b"):
        store.create(_stored(sid))
        store.commit(sid, _batch(status="closed"))
    assert store.load("a") is None and store.load("b") is not None
    MemoryStore(keep_closed=0)
    with pytest.raises(ArgumentError, match="keep_closed"):
        MemoryStore(keep_closed=-1)


def test_memory_store_load_is_a_copy() -> None:
    from cardcore.session.store import MemoryStore

    store = MemoryStore()
    store.create(_stored())
    loaded = store.load("s1")
    loaded.meta["k"] = 99
    loaded.actions.append((0, "x", None))
    again = store.load("s1")
    assert again.meta == {"k": 1} and again.actions == []


# -- session/config.py: settings and their bounds ----------------------------------------------


@pytest.mark.parametrize(
    ("make", "named"),
    [
        (lambda c: c.TimeControl(turn=0), "turn must be a positive number"),
        (lambda c: c.TimeControl(total=0.0), "total must be a positive number"),
        (lambda c: c.TimeControl(max_steps=True), "max_steps must be an integer"),
        (lambda c: c.TimeControl(max_steps=0), "max_steps must be an integer of at least 1"),
        (lambda c: c.TimeControl(forfeit=1), "forfeit must be True or False"),
        (lambda c: c.Limits(max_message=63), "max_message must be an integer of at least 64"),
        (lambda c: c.Limits(burst=True), "burst must be an integer"),
        (lambda c: c.SessionConfig(resync_keep=0), "resync_keep must be an integer of at least 1"),
        (lambda c: c.SessionConfig(resync_keep=c.MAX_KEEP + 1), "at most 1,000,000"),
        (lambda c: c.SessionConfig(spectators=1), "spectators must be True or False"),
        (lambda c: c.SessionConfig(time={}), "time must be a TimeControl, not dict"),
        (lambda c: c.SessionConfig(limits=None), "limits must be a Limits, not NoneType"),
        (lambda c: c.SessionConfig(seat_entropy=True), "seat_entropy needs fair=True"),
        (lambda c: c.SessionConfig.from_data({"bogus": 1}), "no field 'bogus' in session settings"),
        (lambda c: c.SessionConfig.from_data({"time": {"turns": 5}}), "no field 'turns' in time"),
        (lambda c: c.GameSetup(game="golf", players=("a", "b"), position=5), "as text"),
        (lambda c: c.GameSetup.from_data({"game": "golf"}), "names its game and its players"),
        (
            lambda c: c.GameSetup(game="golf", players=("a", "b")).build(7, chance=1),
            "chance must be 3",
        ),
        (
            lambda c: c.GameSetup(game="golf", players=("a", "b")).build(7, chance=True),
            "chance must be",
        ),
    ],
)
def test_hostile_settings_are_refused_by_name(make: Any, named: str) -> None:
    from cardcore.errors import OptionError
    from cardcore.session import config

    with pytest.raises(OptionError, match=named):
        make(config)


def test_the_bounds_themselves_are_accepted() -> None:
    from cardcore.session import config

    assert config.Limits(max_message=64).max_message == 64
    assert config.SessionConfig(resync_keep=config.MAX_KEEP).resync_keep == config.MAX_KEEP
    assert config.SessionConfig(resync_keep=1, spectator_delay=0).resync_keep == 1
    assert config.TimeControl(max_steps=1, turn=0.001).max_steps == 1
    assert config.SessionConfig.from_data({}) == config.SessionConfig()


def test_stored_actions_that_are_not_triples_are_corrupt_not_a_raw_error() -> None:
    from cardcore.session.config import GameSetup

    setup = GameSetup(game="golf", players=("a", "b"))
    for actions in ([(0, "flip 0")], [(0, "flip 0", None, 1)], "abc", [5]):
        with pytest.raises(CorruptStateError, match="stored actions must be"):
            setup.build(7, actions=actions)


def test_an_option_default_of_an_earlier_version_applies_strictly_before_it() -> None:
    """Tonk's ``max_players`` was 4 before 0.3.0: a setup written by 0.2.9 gets 4, one written
    by 0.3.0 the current default."""
    from cardcore.session.config import GameSetup

    def options(version: str) -> dict[str, Any]:
        return dict(
            GameSetup.from_data(
                {"game": "tonk", "players": ["a", "b"], "game_version": version}
            ).options
        )

    assert options("0.2.9") == {"max_players": 4}
    assert options("0.3.0") == {}


def test_a_setup_whose_rules_are_not_names_is_read_and_refused_when_built() -> None:
    """Odd rows (unhashable rule entries) are left to ``build``, which names them: no raw TypeError."""
    from cardcore.errors import CardcoreError
    from cardcore.session.config import GameSetup

    setup = GameSetup.from_data(
        {"game": "golf", "players": ["a", "b"], "rules": [[1]], "game_version": "0.1.0"}
    )
    with pytest.raises(CardcoreError, match="named by text"):
        setup.build(7)


# -- cli/render.py --------------------------------------------------------------------------


def _plain(renderable: Any, width: int = 160) -> str:
    from io import StringIO

    from rich.console import Console

    out = StringIO()
    Console(file=out, width=width, color_system=None).print(renderable)
    return out.getvalue()


def test_a_pile_of_exactly_max_cards_is_drawn_whole_and_one_more_is_counted() -> None:
    from cardcore.cli.render import MAX_CARDS, _cards

    cards = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]
    cards += ["AH", "2H", "3H", "4H"]
    assert "more" not in _cards(cards[:MAX_CARDS])
    assert _cards(cards[: MAX_CARDS + 1]).endswith("[dim]+1 more[/]")


def test_seat_numbers_out_of_range_or_booleans_are_not_names() -> None:
    from cardcore.cli.render import _field_markup, value_markup

    players = ["Ann", "Bob"]
    assert value_markup({"seat": 1}, players) == "seat: Bob"
    assert value_markup({"seat": 2}, players) == "seat: 2"  # no IndexError, no name
    assert _field_markup("seat", True, players, None) == "yes"  # a boolean is no seat
    assert _field_markup("seat", 1, players, None) == "Bob"


def test_a_pile_seen_only_in_part_counts_its_hidden_tail() -> None:
    from cardcore.cli.render import _zone_markup

    assert _zone_markup({"count": 3, "cards": []}) == "[dim]3 face down[/]"
    assert _zone_markup({"count": 2, "cards": ["AS", None]}).endswith("[dim]+1 face down[/]")
    shown = _zone_markup({"count": 2, "cards": ["AS", None], "visibility": "top"})
    assert shown.endswith("[dim]+1 below[/]")


def test_a_piles_name_loses_its_owner_seat_only() -> None:
    from cardcore.cli.render import _split_name

    assert _split_name("layout.1.3", 1) == ("layout", "3")
    assert _split_name("hand.1", 1) == ("hand", "")
    assert _split_name("stock", None) == ("stock", "")


def _view(seat: int, table: dict[str, Any], zones: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "game": "demo",
        "version": 3,
        "seat": seat,
        "players": ["Ann", "Bob"],
        "to_act": [seat],
        "table": table,
        "zones": zones,
    }


def test_a_per_seat_field_shorter_than_the_seats_draws_a_dash_not_an_index_error() -> None:
    from cardcore.cli.render import render_view

    schema = {"fields": [{"name": "bids", "kind": "per-seat", "of": "int"}]}
    text = _plain(render_view(_view(0, {"bids": [4]}, []), schema))
    assert "Ann" in text and "Bob" in text and "-" in text


def test_the_viewers_own_sorted_hand_is_drawn_in_their_row_only() -> None:
    """Rule (c): the viewer's own pile as the game presents it goes in the viewer's row;
    the other seat's row shows that seat's pile (face down), never the viewer's cards."""
    from cardcore.cli.render import render_view

    zones = [
        {"name": "hand.0", "owner": 0, "count": 2, "cards": ["QH", "KH"], "visibility": "owner"},
        {"name": "hand.1", "owner": 1, "count": 2, "cards": [None, None], "visibility": "owner"},
    ]
    schema = {"fields": [{"name": "hand", "kind": "cards"}]}
    text = _plain(render_view(_view(0, {"hand": ["QH", "KH"]}, zones), schema))
    ann = next(line for line in text.splitlines() if "0: Ann" in line)
    bob = next(line for line in text.splitlines() if "1: Bob" in line)
    assert "QH" in ann and "KH" in ann
    assert "QH" not in bob and "KH" not in bob and "2 face down" in bob


def test_another_seats_long_face_up_pile_is_cut_at_max_cards_the_viewers_is_not() -> None:
    from cardcore.cli.render import render_view

    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    cards = [r + "S" for r in ranks] + [r + "C" for r in ranks[:7]]  # 20 cards
    zones = [
        {"name": "pile.0", "owner": 0, "count": 20, "cards": cards, "visibility": "everyone"},
        {"name": "pile.1", "owner": 1, "count": 20, "cards": cards, "visibility": "everyone"},
    ]
    text = _plain(render_view(_view(0, {}, zones), {"fields": []}), width=300)
    assert text.count("+4 more") == 1


def test_per_seat_mappings_leave_out_keys_of_piles_drawn_in_their_own_column() -> None:
    from cardcore.cli.render import render_view

    zones = [
        {"name": "hand.0", "owner": 0, "count": 1, "cards": ["QH"], "visibility": "owner"},
        {"name": "hand.1", "owner": 1, "count": 1, "cards": [None], "visibility": "owner"},
    ]
    table = {"info": [{"hand": ["QH"], "score": 3}, {"hand": None, "score": 5}]}
    schema = {"fields": [{"name": "info", "kind": "per-seat", "of": "json"}]}
    text = _plain(render_view(_view(0, table, zones), schema))
    assert "score: 3" in text and "score: 5" in text
    assert "hand:" not in text


def test_a_single_winner_is_a_winner_and_history_keeps_only_the_last() -> None:
    from cardcore.cli.render import render_history, render_result

    result = {"winners": [1], "scores": [3, 5], "reason": "rounds"}
    assert "winner: Bob" in render_result(result, ["Ann", "Bob"])
    both = {"winners": [0, 1], "scores": [3, 3], "reason": "rounds"}
    assert "winners: Ann and Bob" in render_result(both, ["Ann", "Bob"])
    history = [{"round": 1}, {"round": 2}, {"round": 3}]
    text = render_history(history, ["Ann", "Bob"], last=1)
    assert text.count("earlier") == 1 and "(3 of 3)" in text


_CARD_WORD = r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[SHDC](?![0-9A-Za-z])"


@pytest.mark.parametrize(("name", "steps"), [("golf", 5), ("spit", 6), ("tonk", 3), ("speed", 4)])
def test_the_terminal_screen_draws_no_card_its_seat_cannot_see(name: str, steps: int) -> None:
    """Every card word on a seat's screen is a card its view shows (hidden ones are ``##``)."""
    import json
    import re

    from cardcore.cli.screen import Screen

    game = new_game(name, ["Ann", "Bob"], seed=11)
    for _ in range(steps):
        if game.is_over:
            break
        seat = next(s for s in range(2) if game.legal_actions(s))
        game.apply(game.legal_actions(seat)[0])
    for seat in range(2):
        view = game.view(seat)
        visible = set(re.findall(_CARD_WORD, json.dumps(view)))
        drawn = set(re.findall(_CARD_WORD, _plain(Screen(game, seat).draw(view), width=200)))
        assert drawn <= visible, (seat, drawn - visible)
        assert drawn, "the screen shows some card"


# -- cli/realtime.py ------------------------------------------------------------------------


def _collision() -> tuple[Any, Any, Any]:
    """A Speed game (seed searched from 0, deterministic) where seat 1's action makes seat 0's
    legal action illegal: ``(game, mine, theirs)``."""
    for seed in range(40):
        game = new_game("speed", ["Me", "Bot"], seed=seed)
        for _ in range(30):
            for mine in game.legal_actions(0):
                for theirs in game.legal_actions(1):
                    trial = game.clone()
                    trial.apply(theirs)
                    if mine not in trial.legal_actions(0) and str(mine) != "resign":
                        return game, mine, theirs
            if game.is_over:
                break
            seat = 0 if game.legal_actions(0) else 1
            if not game.legal_actions(seat):
                break
            game.apply(game.legal_actions(seat)[0])
    raise AssertionError("no colliding actions found")  # pragma: no cover


@contextlib.contextmanager
def _session(game: Any, agents: Any = (None, None)) -> Iterator[tuple[Any, Any]]:
    from io import StringIO

    from rich.console import Console

    from cardcore.agents import lend_views
    from cardcore.cli.realtime import _Realtime

    out = StringIO()
    console = Console(file=out, width=200, color_system=None)
    with lend_views(game) as views:
        yield _Realtime(console, game, 0, list(agents), views, 0.01), out


def _keys(*chunks: Any) -> Any:
    """A ``keys`` callable giving *chunks* in turn (a callable chunk is run, then gives "")."""
    queue = list(chunks)

    def keys() -> str:
        chunk = queue.pop(0) if queue else "\x04"
        return chunk() if callable(chunk) else chunk

    return keys


def test_a_line_is_judged_on_the_table_of_its_first_key() -> None:
    """Keys typed after a bot moved (and the table was drawn again) still belong to the line
    begun on the earlier table: the move is too late, not illegal."""
    game, mine, theirs = _collision()
    with _session(game) as (session, out):
        session.redraw()
        text = str(mine)

        def bot_moves() -> str:
            game.apply(theirs, seen=game.version)
            session.redraw()  # as the loop does after every change
            return text[1:] + "\r"

        session.read_keys(_keys(text[0], bot_moves, "\x04"))
    said = out.getvalue()
    assert "too late:" in said and "illegal:" not in said


def test_a_line_erased_to_nothing_starts_anew_on_the_table_then_shown() -> None:
    game, mine, theirs = _collision()
    with _session(game) as (session, out):
        session.redraw()

        def bot_moves() -> str:
            game.apply(theirs, seen=game.version)
            session.redraw()
            return "\x7f" + str(mine) + "\r"  # erase the first key, type the line anew

        session.read_keys(_keys("x", bot_moves, "\x04"))
    said = out.getvalue()
    assert "illegal:" in said and "too late:" not in said


def test_ctrl_d_on_a_line_with_text_does_not_leave() -> None:
    game = new_game("speed", ["Me", "Bot"], seed=1)
    seen_after: list[bool] = []
    with _session(game) as (session, _):

        def second() -> str:
            seen_after.append(session.stop.is_set())
            return "\x15\x04"  # Ctrl-U erases the line; Ctrl-D on the empty line leaves

        session.read_keys(_keys("ab\x04", second))
    assert seen_after == [False]
    assert session.outcome == "quit" and session.typed == ""


def test_an_escape_sequence_ends_at_any_final_byte_from_at_sign() -> None:
    """ESC [ @ is a whole sequence (its final byte is ``@``): the key after it is typed."""
    game = new_game("speed", ["Me", "Bot"], seed=1)
    typed: list[str] = []
    with _session(game) as (session, _):

        def look() -> str:
            typed.append(session.typed)
            return "\x15\x04"

        session.read_keys(_keys("\x1b[@x\x1b[1;5Cy\x1bOPz", look))
    assert typed == ["xyz"]


def test_lines_after_the_game_ended_are_not_acted_on() -> None:
    game = new_game("speed", ["Me", "Bot"], seed=1)
    with _session(game) as (session, out):
        session.redraw()
        session.read_lines(iter(["resign\n", "1\n", None]))
    assert game.is_over and session.outcome == "over" and not session.stop.is_set()
    assert "error" not in out.getvalue().split("you")[-1]


def test_help_in_line_mode_repeats_the_menu() -> None:
    from cardcore.cli.screen import legal_line

    game = new_game("speed", ["Me", "Bot"], seed=1)
    with _session(game) as (session, out):
        session.redraw()
        before = len(out.getvalue())
        assert session.handle("help")
    menu = _plain(legal_line(session.shown[1], 200))
    assert menu.strip() and menu.strip() in out.getvalue()[before:]


def test_a_plan_due_in_the_past_is_due_now() -> None:
    from cardcore.agents import Plan

    game = new_game("speed", ["Me", "Bot"], seed=1)

    class Eager:
        def plan(self, view: Any, legal: Any, now: float) -> Any:
            return Plan(legal[0], -100.0)

    with _session(game, (None, Eager())) as (session, _):
        session.replan(1)
    planned = session.plans[1]
    assert planned is not None and planned[0] >= 0.0


# -- cli/play.py ----------------------------------------------------------------------------


@pytest.mark.parametrize("seat", ["2", "-1"])
def test_play_refuses_a_seat_the_game_does_not_have(
    seat: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from cardcore import cli

    assert cli.main(["play", "golf", "--players", "2", "--seat", seat, "--no-record"]) == 2
    assert f"--seat must be 0 to 1, not {seat}" in capsys.readouterr().err


def test_a_record_never_overwrites_a_file_that_appeared_during_the_game(tmp_path: Any) -> None:
    from io import StringIO

    from rich.console import Console

    from cardcore.cli.play import _free_path, _save

    path = tmp_path / "rec.json"
    assert _free_path(str(path)) == str(path)
    path.write_text("theirs", encoding="utf-8")
    assert _free_path(str(path)) == str(tmp_path / "rec-2.json")
    out = StringIO()
    written = _save(
        Console(file=out, width=300, color_system=None), str(path), {"a": 1}, overwrite=False
    )
    assert written == str(tmp_path / "rec-2.json")
    assert path.read_text(encoding="utf-8") == "theirs"
    assert "appeared during the game" in out.getvalue()
    again = _save(Console(file=StringIO()), str(path), {"a": 2}, overwrite=True)
    assert again == str(path) and '"a": 2' in path.read_text(encoding="utf-8")


# -- stored sessions damaged in the file: real bugs found ----------------------------------


def _stored_session(path: Any) -> str:
    """A Golf session in the SQLite file *path*: both seats joined, one action played."""
    import json

    from cardcore.session import Session, SQLiteStore

    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=SQLiteStore(path))
    for seat in (0, 1):
        session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0)
    session.handle("c0", json.dumps({"type": "act", "action": "flip 0", "seen": 0}), now=2.0)
    assert session.game is not None and session.game.version == 1
    return str(session.id)


def _edit(path: Any, query: str, *args: Any) -> None:
    import sqlite3

    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute(query, args)
    finally:
        db.close()


def _resume(path: Any, sid: str) -> Any:
    from cardcore.session import Session, SQLiteStore

    return Session.resume(SQLiteStore(path), sid, now=50.0)


def test_an_edited_action_seat_is_refused_naming_the_action_rows(tmp_path: Any) -> None:
    from cardcore.session import CorruptSessionError

    path = tmp_path / "s.db"
    sid = _stored_session(path)
    _edit(path, "UPDATE actions SET seat = 'x' WHERE session = ?", sid)
    with pytest.raises(CorruptSessionError, match="stored action rows"):
        _resume(path, sid)


def test_a_kept_message_that_is_not_json_costs_only_a_fresh_view(tmp_path: Any) -> None:
    path = tmp_path / "s.db"
    sid = _stored_session(path)
    _edit(path, "UPDATE messages SET body = '{' WHERE session = ?", sid)
    resumed = _resume(path, sid)
    assert resumed.game is not None and resumed.game.version == 1


def test_an_edited_action_time_is_refused_naming_the_action_rows(tmp_path: Any) -> None:
    from cardcore.session import CorruptSessionError

    path = tmp_path / "s.db"
    sid = _stored_session(path)
    _edit(path, "UPDATE actions SET at = 'zz' WHERE session = ?", sid)
    with pytest.raises(CorruptSessionError) as info:
        _resume(path, sid)
    assert "action" in str(info.value) and "meta" not in str(info.value)


def test_a_kept_message_stored_as_bytes_costs_only_a_fresh_view(tmp_path: Any) -> None:
    path = tmp_path / "s.db"
    sid = _stored_session(path)
    _edit(path, "UPDATE messages SET body = x'ff00' WHERE session = ?", sid)
    resumed = _resume(path, sid)
    assert resumed.game is not None and resumed.game.version == 1


def test_a_deeply_nested_stored_meta_is_a_store_error(tmp_path: Any) -> None:
    from cardcore.session import SQLiteStore
    from cardcore.session.sqlite import StoreError

    path = tmp_path / "s.db"
    store = SQLiteStore(path)
    store.create(_stored())
    store.close()
    _edit(path, "UPDATE sessions SET meta = ? WHERE id = 's1'", "[" * 100_000 + "]" * 100_000)
    store = SQLiteStore(path)
    try:
        with pytest.raises(StoreError, match="cannot read session 's1'"):
            store.load("s1")
    finally:
        store.close()


def test_a_summary_highlights_the_best_win_rate_and_none_over_no_games() -> None:
    from cardcore import Summary
    from cardcore.cli.render import render_summary

    def rates(games: int, wins: tuple[float, ...]) -> list[str]:
        summary = Summary(
            game="golf",
            games=games,
            players=2,
            agents=("random", "random"),
            wins=wins,
            mean_scores=(0.0, 0.0),
            sd_scores=(0.0, 0.0),
            mean_payouts=None,
            sd_payouts=None,
            mean_actions=0.0,
            truncated=0,
            reasons={},
        )
        return [str(c) for c in render_summary(summary).columns[3].cells]

    assert rates(4, (1.0, 3.0)) == ["25.0%", "[bold green]75.0%[/]"]
    assert rates(0, (0.0, 0.0)) == ["0.0%", "0.0%"]


def test_a_game_that_ended_is_over_even_when_ctrl_c_came_with_its_last_move() -> None:
    """``play_realtime`` returns "over" when the game ended, whatever else the human did."""
    game = new_game("speed", ["Me", "Bot"], seed=1)
    with _session(game) as (session, _):
        game.act(0, "resign")
        session.interrupted = True  # Ctrl-C pressed as the game ended
        assert session.loop(lambda: None) == "over"


def test_a_format_2_session_with_a_time_that_is_no_number_is_refused_naming_the_action_rows() -> (
    None
):
    """Sessions stored before the digests (format 2) have none to check, but a time that is no
    number is still refused as damaged action rows, not a raw ValueError."""
    from cardcore.errors import CorruptStateError
    from cardcore.session import _integrity
    from cardcore.session.store import StoredSession

    stored = StoredSession("s1", "playing", 0.0, {"format_version": 2}, [(0, "draw", "zz")], [], {})
    with pytest.raises(CorruptStateError, match="action rows"):
        _integrity.check(stored)
    fine = StoredSession("s1", "playing", 0.0, {"format_version": 2}, [(0, "draw", 1.5)], [], {})
    assert len(_integrity.check(fine)) == 2
