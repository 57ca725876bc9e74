"""Third-party games (Spades, Spite and Malice, Egyptian Ratscrew, in ``tests/plugins``)
behind a :class:`~cardcore.session.Hub` backed by a SQLite file, audited as a game-server
operator would (2026-12-16): a restart mid-game resumes every session (versions, views,
tokens, streams, cards), a tampered store is refused whole, fair deals commit before the
deal and the reveal proves it across restarts, concurrent real-time slaps, and resyncs that
carry exactly the missed messages and no card a seat may not know.

Every game is dealt from a fixed seed (or a fair deal whose cards no check depends on) and
driven on a virtual clock; every outbound message goes through the session kit's leak check.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore.session import (
    CorruptSessionError,
    Hub,
    Session,
    SessionConfig,
    SQLiteStore,
    verify_bundle,
)
from cardcore.session.patch import card_words
from tests.plugins import ratscrew_2026_12_16 as rs
from tests.plugins import spades_2026_12_16 as sp
from tests.plugins import spite_2026_12_16 as si
from tests.session.kit import Table

GAMES = (sp, si, rs)
SPADES, SPITE, RATS = sp.NAME, si.NAME, rs.NAME
PLAYERS = {SPADES: 4, SPITE: 2, RATS: 2}
OPTIONS: dict[str, dict[str, Any]] = {SPADES: {}, SPITE: {"payoff": 6}, RATS: {}}
SEEDS = {SPADES: 3, SPITE: 3, RATS: 3}
CONNS = "abcd"
STREAM = ("lobby", "view", "update", "takeback", "reveal")


@pytest.fixture(autouse=True)
def registered():
    for module in GAMES:
        cardcore.register("cardcore.games", module.NAME, module)
    yield
    for module in GAMES:
        cardcore.unregister("cardcore.games", module.NAME)


# -- driving ----------------------------------------------------------------------------------


def rank(code: str) -> str:
    return code[:-1]


def next_move(name: str, game: cardcore.Game) -> tuple[int, str]:
    """A deterministic move: Spades seat 0 bids blind nil, the others look and bid 3, then the
    first legal card; Spite the first legal action; Ratscrew a valid slap if any, else the
    flip (or take) of the seat whose turn it is."""
    if name == RATS:
        center = next(z["cards"] for z in game.view(None)["zones"] if z["name"] == "center")
        if len(center) >= 2 and (
            rank(center[0]) == rank(center[1])
            or (len(center) >= 3 and rank(center[0]) == rank(center[2]))
        ):
            return 0, f"slap {center[0]}"
        turn = game.view(None)["table"]["turn"]
        return turn, str(game.legal_actions(turn)[0])
    seat = game.to_act[0]
    legal = [str(a) for a in game.legal_actions(seat)]
    if name == SPADES:
        if "blind" in legal:
            return seat, "blind" if seat == 0 else "look"
        if "bid 3" in legal:
            return seat, "bid 3"
    return seat, legal[0]


def drive(t: Table, name: str, steps: int) -> None:
    for _ in range(steps):
        game = t.session.game
        assert game is not None
        if game.is_over:
            return
        seat, action = next_move(name, game)
        replies = t.act(CONNS[seat], action, dt=1.0)
        assert not t.errors(replies), (name, action, replies)


def numbered(t: Table, conn: str, start: int = 0) -> list[dict[str, Any]]:
    """The numbered stream messages sent to *conn* (from outbound index *start*)."""
    out = []
    for o in t.outbound[start:]:
        if o.conn == conn:
            message = json.loads(o.text)
            if message["type"] in STREAM:
                out.append(message)
    return out


def assert_contiguous(messages: list[dict[str, Any]], after: int) -> None:
    """Numbers go on from *after* one by one; only a resync view may repeat the current one."""
    last = after
    for m in messages:
        if m["type"] == "view" and m.get("reason") == "resync":
            assert m["n"] in (last, last + 1), (m["n"], last)
        else:
            assert m["n"] == last + 1, f"gap or duplicate: {m['n']} after {last}"
        last = m["n"]


def cards_of(game: cardcore.Game) -> Counter[str]:
    return Counter(str(c) for c in game.state.zones.all_cards())


def sql(path: Path, query: str, *args: Any) -> list[Any]:
    db = sqlite3.connect(path, isolation_level=None)
    try:
        return db.execute(query, args).fetchall()
    finally:
        db.close()


def open_tables(path: Path, config: SessionConfig | None = None) -> tuple[Hub, dict[str, Table]]:
    """A hub on *path* with one session of each game, every seat joined, seat 1 twice
    (``b`` and ``b2``) and a spectator ``w``."""
    hub = Hub(SQLiteStore(path))
    tables = {}
    for name in (SPADES, SPITE, RATS):
        session = hub.create(
            name,
            PLAYERS[name],
            now=0.0,
            seed=SEEDS[name],
            options=OPTIONS[name],
            session_id=name,
            config=config or SessionConfig(),
        )
        t = Table(session)
        for seat in range(PLAYERS[name]):
            t.join(CONNS[seat], seat)
        t.send("b2", {"type": "join", "seat": 1, "token": t.mirrors["b"].token})
        t.send("w", {"type": "watch"})
        tables[name] = t
    return hub, tables


def restart(hub: Hub, path: Path, tables: dict[str, Table], now: float) -> Hub:
    assert hub.store is not None
    hub.store.close()
    fresh = Hub(SQLiteStore(path))
    assert fresh.resume_all(now) == []
    for name, t in tables.items():
        t.now = now
        t.restart(fresh.sessions[name])
    return fresh


# -- (1) + (5): a restart mid-game, and resyncs -------------------------------------------------


MID = {SPADES: 5, SPITE: 14, RATS: 20}
"""Actions before the restart: Spades mid-bidding (seat 0 blind, seat 3 not yet looked)."""


def test_a_hub_restart_resumes_every_third_party_game_exactly(tmp_path: Path) -> None:
    path = tmp_path / "hub.db"
    hub, tables = open_tables(path)
    dropped_at: dict[str, int] = {}
    for name, t in tables.items():
        drive(t, name, MID[name] - 3)
        dropped_at[name] = t.mirrors["b2"].last
        t.disconnect("b2")  # a dropped connection: it misses the next actions and the restart
        drive(t, name, 3)
    before = {}
    for name, t in tables.items():
        game = t.session.game
        assert game is not None and not game.is_over
        before[name] = (
            game.version,
            game.save(),
            [game.view(s) for s in [*range(PLAYERS[name]), None]],
            cards_of(game),
            {c: t.mirrors[c].last for c in [*CONNS[: PLAYERS[name]], "w"]},
            len(t.outbound),
        )
    # Spades: seat 3 has not looked, so its hand is hidden from it (blind nil by seat 0 too)
    spades = tables[SPADES].session.game
    assert spades is not None and spades.view(3)["legal"] == ["look", "blind"]
    hidden = {str(c) for c in spades.state.zones.cards[sp.unseen(3)]}
    assert len(hidden) == 13

    hub = restart(hub, path, tables, now=500.0)
    resyncs: list[str] = []

    for name, t in tables.items():
        version, save, views, cards, lasts, mark = before[name]
        game = t.session.game
        assert game is not None
        assert game.version == version
        assert game.save() == save
        assert [game.view(s) for s in [*range(PLAYERS[name]), None]] == views
        assert cards_of(game) == cards
        assert sum(cards.values()) == (104 if name == SPITE else 52)
        # every token still opens its seat; the stream goes on from the client's last number
        for seat in range(PLAYERS[name]):
            conn = CONNS[seat]
            replies = t.join(conn, seat)
            assert replies[0]["type"] == "welcome" and not t.errors(replies), replies
            assert "token" not in replies[0]  # shown once, at the claim
        t.send("w", {"type": "watch", "last": lasts["w"]})
        for conn, last in lasts.items():
            assert_contiguous(numbered(t, conn, mark), last)
        # the dropped connection gets exactly what it missed: the very texts seat 1's
        # connected ``b`` was sent, nothing before and nothing after
        got = t.join("b2", 1, last=dropped_at[name], token=t.mirrors["b"].token)
        assert got[0]["type"] == "welcome" and not t.errors(got)
        resent = [m for m in got if m["type"] in STREAM]
        sent_to_b = [m for m in numbered(t, "b") if m["n"] > dropped_at[name]]
        sent_to_b = [
            m for m in sent_to_b if not (m["type"] == "view" and m.get("reason") == "resync")
        ]
        if resent and resent[0]["type"] == "view":  # a fresh view when that is shorter
            game = t.session.game
            assert game is not None
            assert [(m["reason"], m["n"], m["version"]) for m in resent] == [
                ("resync", t.mirrors["b"].last, game.version)
            ]
            assert len(json.dumps(resent)) <= len(json.dumps(sent_to_b))
            resyncs.append(name)
        else:
            assert resent == sent_to_b
            assert_contiguous(resent, dropped_at[name])
        assert t.mirrors["b2"].view == t.mirrors["b"].view
        # a wrong token opens nothing
        bad = t.send("x", {"type": "join", "seat": 0, "token": "A" * 43})
        assert t.errors(bad) == ["bad-token"]

    assert SPADES not in resyncs  # its few missed updates are resent as they were
    # the games go on, every stream without a gap or a duplicate
    marks = {name: len(t.outbound) for name, t in tables.items()}
    lasts = {
        name: {c: t.mirrors[c].last for c in [*CONNS[: PLAYERS[name]], "b2", "w"]}
        for name, t in tables.items()
    }
    for name, t in tables.items():
        drive(t, name, 12)
        for conn, last in lasts[name].items():
            sent = numbered(t, conn, marks[name])
            assert sent, conn
            assert_contiguous(sent, last)
        game = t.session.game
        assert game is not None and sum(cards_of(game).values()) == (104 if name == SPITE else 52)

    # Spades: no message to seat 3 named a card of its hand before it looked
    t = tables[SPADES]
    seen_by_3: set[str] = set()
    for o in t.outbound:
        if o.conn == "d":
            message = json.loads(o.text)
            if message["type"] == "update" and message["action"]["text"] == "look":
                break
            seen_by_3 |= set(card_words(message))
    assert not seen_by_3 & hidden


def test_a_blind_nil_bidder_stays_blind_until_it_declares_across_a_restart(tmp_path: Path) -> None:
    """Seat 0 bids first; before its ``blind`` nothing sent to it names a card of its hand."""
    path = tmp_path / "hub.db"
    hub, tables = open_tables(path)
    t = tables[SPADES]
    game = t.session.game
    assert game is not None and game.view(0)["legal"] == ["look", "blind"]
    mine = {str(c) for c in game.state.zones.cards[sp.unseen(0)]}
    sent = [json.loads(o.text) for o in t.outbound if o.conn == "a"]
    hub = restart(hub, path, tables, now=100.0)
    mark = len(t.outbound)
    t.join("a", 0)
    sent += [json.loads(o.text) for o in t.outbound[mark:] if o.conn == "a"]
    assert all(not set(card_words(m)) & mine for m in sent)
    mark = len(t.outbound)
    t.act("a", "blind", dt=1.0)
    game = t.session.game
    assert game is not None and {str(c) for c in game.state.zones.cards[sp.hand(0)]} == mine
    shown = set(card_words([json.loads(o.text) for o in t.outbound[mark:] if o.conn == "a"]))
    assert mine <= shown  # once declared it sees its cards; the others never do
    for conn in "bcdw":
        assert (
            not set(card_words([json.loads(o.text) for o in t.outbound if o.conn == conn])) & mine
        )


def test_spite_payoff_cards_under_the_top_reach_nobody_until_turned(tmp_path: Path) -> None:
    """Two decks repeat codes, so beyond the kit's leak check: every rebuilt view (each
    connection's, across a restart) shows a payoff pile's top card alone."""
    path = tmp_path / "hub.db"
    hub, tables = open_tables(path)
    t = tables[SPITE]
    drive(t, SPITE, 10)
    hub = restart(hub, path, tables, now=300.0)
    for seat in (0, 1):
        t.join(CONNS[seat], seat)
    drive(t, SPITE, 10)
    for conn, mirror in t.mirrors.items():
        if mirror.view is None:
            continue
        for zone in mirror.view["zones"]:
            if zone["name"].startswith("payoff."):
                assert all(c is None for c in zone["cards"][1:]), (conn, zone)
                assert zone["count"] == 0 or zone["cards"][0] is not None
    assert t.leaks.checked > 50


# -- (2): a tampered store --------------------------------------------------------------------


def _meta_edit(key: str):
    def edit(path: Path, name: str) -> None:
        meta = json.loads(sql(path, "SELECT meta FROM sessions WHERE id = ?", name)[0][0])
        if key == "version":
            meta["integrity"]["actions"] += 1
        elif key == "stream":
            meta["streams"]["seat.0"] += 1
        elif key == "players":
            meta["setup"]["players"] = list(reversed(meta["setup"]["players"]))
        sql(path, "UPDATE sessions SET meta = ? WHERE id = ?", json.dumps(meta), name)

    return edit


def _card_edit(path: Path, name: str) -> None:
    """A card named by an action row (Spite's ``discard <card> <d>``) changed to another."""
    idx, notation = sql(
        path,
        "SELECT idx, notation FROM actions WHERE session = ? AND notation LIKE 'discard %' ORDER BY idx",
        name,
    )[0]
    words = notation.split()
    words[1] = "KS" if words[1] != "KS" else "QS"
    sql(
        path,
        "UPDATE actions SET notation = ? WHERE session = ? AND idx = ?",
        " ".join(words),
        name,
        idx,
    )


def _token_edit(path: Path, name: str) -> None:
    sql(path, "UPDATE tokens SET digest = ? WHERE session = ? AND seat = 1", "0" * 64, name)


def _record_edit(path: Path, name: str) -> None:
    sql(
        path,
        "DELETE FROM actions WHERE session = ? AND idx = (SELECT MAX(idx) FROM actions WHERE session = ?)",
        name,
        name,
    )


TAMPER = {
    "card": _card_edit,
    "version": _meta_edit("version"),
    "stream-number": _meta_edit("stream"),
    "players": _meta_edit("players"),
    "token": _token_edit,
    "record": _record_edit,
}


@pytest.mark.parametrize("what", sorted(TAMPER))
def test_a_tampered_session_is_refused_whole_and_the_others_resume(
    what: str, tmp_path: Path
) -> None:
    path = tmp_path / "hub.db"
    hub, tables = open_tables(path)
    for name, t in tables.items():
        drive(t, name, MID[name])
    versions = {name: t.session.game.version for name, t in tables.items() if t.session.game}
    assert hub.store is not None
    hub.store.close()
    TAMPER[what](path, SPITE)
    dump = [
        sql(path, f"SELECT * FROM {table} ORDER BY 1, 2")
        for table in ("sessions", "actions", "tokens", "messages")
    ]
    with pytest.raises(CorruptSessionError, match=repr(SPITE)) as info:
        Session.resume(SQLiteStore(path), SPITE, now=100.0)
    assert "differ" in str(info.value) or "committed" in str(info.value)
    fresh = Hub(SQLiteStore(path))
    assert fresh.resume_all(100.0) == [SPITE]
    assert SPITE not in fresh.sessions  # never half loaded
    for name in (SPADES, RATS):
        game = fresh.sessions[name].game
        assert game is not None and game.version == versions[name]
    out = fresh.handle("z", json.dumps({"type": "join", "session": SPITE, "seat": 0}), now=101.0)
    assert [o.message.get("code") for o in out] == ["no-session"]
    assert fresh.store is not None
    fresh.store.close()
    assert dump == [
        sql(path, f"SELECT * FROM {table} ORDER BY 1, 2")
        for table in ("sessions", "actions", "tokens", "messages")
    ]


def test_swapped_stream_rows_never_show_a_seat_another_seats_hand(tmp_path: Path) -> None:
    """Seat 0's and seat 1's last kept messages swapped in the store: the session resumes, the
    swapped rows are never resent (the leak check would catch seat 0's hand sent to seat 1)."""
    path = tmp_path / "hub.db"
    hub, tables = open_tables(path)
    t = tables[SPITE]
    drive(t, SPITE, 4)
    last = t.mirrors["b"].last
    drive(t, SPITE, 4)
    assert hub.store is not None
    hub.store.close()
    rows = {
        s: sql(
            path,
            "SELECT n, body FROM messages WHERE session = ? AND stream = ? ORDER BY n DESC LIMIT 1",
            SPITE,
            s,
        )[0]
        for s in ("seat.0", "seat.1")
    }
    for s, other in (("seat.0", "seat.1"), ("seat.1", "seat.0")):
        sql(
            path,
            "UPDATE messages SET body = ? WHERE session = ? AND stream = ? AND n = ?",
            rows[other][1],
            SPITE,
            s,
            rows[s][0],
        )
    fresh = Hub(SQLiteStore(path))
    assert fresh.resume_all(200.0) == []
    t.now = 200.0
    t.restart(fresh.sessions[SPITE])
    got = t.join("b2", 1, last=last, token=t.mirrors["b"].token)
    assert got[0]["type"] == "welcome"
    game = t.session.game
    assert game is not None and t.mirrors["b2"].view == game.view(1)


# -- (3): fair deals --------------------------------------------------------------------------


def test_a_fair_deal_commits_before_the_deal_and_the_reveal_proves_it_across_restarts(
    tmp_path: Path,
) -> None:
    path = tmp_path / "fair.db"
    config = SessionConfig(fair=True, seat_entropy=True)
    hub = Hub(SQLiteStore(path))
    session = hub.create(SPITE, 2, now=0.0, options={"payoff": 6}, session_id="fair", config=config)
    t = Table(session)
    commitment = session.commitment
    assert isinstance(commitment, str) and len(commitment) == 64
    first = t.join("a", 0, entropy="ann's dice")
    assert [m["type"] for m in first][:2] == ["welcome", "lobby"]
    assert first[0]["commitment"] == commitment and first[1]["commitment"] == commitment
    assert session.game is None or session.phase == "waiting"
    # a restart before the deal keeps the commitment and the entropy sent
    hub.store.close()  # type: ignore[union-attr]
    hub = Hub(SQLiteStore(path))
    assert hub.resume_all(10.0) == []
    t.now = 10.0
    t.restart(hub.sessions["fair"])
    assert t.session.commitment == commitment
    again = t.join("a", 0)
    assert again[0]["commitment"] == commitment
    second = t.join("b", 1, entropy="bob's coin")
    assert second[0]["commitment"] == commitment
    views = [m for m in second if m["type"] == "view"]
    assert views and views[0]["reason"] == "start"
    # every commitment was sent before the first view, and no view before the last entropy
    kinds = [(o.conn, o.message["type"]) for o in t.outbound]
    assert kinds.index(("a", "welcome")) < kinds.index(("a", "view"))
    drive(t, SPITE, 6)
    assert t.session.game is not None
    mid_record = t.session.game.record()
    hub.store.close()  # type: ignore[union-attr]
    hub = Hub(SQLiteStore(path))
    assert hub.resume_all(50.0) == []
    t.now = 50.0
    t.restart(hub.sessions["fair"])
    t.join("a", 0)
    t.join("b", 1)
    drive(t, SPITE, 4)
    out = t.session.end(60.0)
    t._take(out, None)
    reveals = [json.loads(o.text) for o in out if json.loads(o.text).get("type") == "reveal"]
    bundles = [m["bundle"] for m in reveals] + [
        json.loads(o.text)["reveal"] for o in out if json.loads(o.text).get("reveal")
    ]
    assert bundles and all(b == bundles[0] for b in bundles)
    bundle = bundles[0]
    assert bundle["commitment"] == commitment
    assert bundle["entropy"] == ["ann's dice", "bob's coin"]
    server_seed, salt = bytes.fromhex(bundle["server_seed"]), bytes.fromhex(bundle["salt"])
    assert (
        hashlib.sha256(b"cardcore-fair/2\0" + bytes([3]) + server_seed + salt).hexdigest()
        == commitment
    )
    h = hashlib.sha256(b"cardcore-seed/1\0" + server_seed)
    for e in bundle["entropy"]:
        data = e.encode()
        h.update(len(data).to_bytes(4, "big") + data)
    assert int.from_bytes(h.digest()[:16], "big") == bundle["seed"]
    report = verify_bundle(bundle, commitment=commitment)
    assert report.seed == bundle["seed"] and report.actions == len(bundle["record"]["actions"])
    assert mid_record is not None
    assert bundle["record"]["actions"][: len(mid_record["actions"])] == mid_record["actions"]
    # the reveal proves the deal: a game from the seed and the record is the game that was played
    replayed = cardcore.replay(bundle["record"])
    game = t.session.game
    assert game is not None and replayed.save() == game.save()
    assert bundle["record"]["seed"] == bundle["seed"]
    tampered = dict(bundle, entropy=["ann's dice", "bob's coin!"])
    with pytest.raises(cardcore.CardcoreError):
        verify_bundle(tampered, commitment=commitment)


# -- (4): real-time slaps ---------------------------------------------------------------------


def test_two_ratscrew_seats_slap_the_same_pile_one_wins_the_other_is_stale(tmp_path: Path) -> None:
    path = tmp_path / "hub.db"
    hub, tables = open_tables(path)
    t = tables[RATS]
    # flip (seeded deal) until the center shows a valid pattern
    for _ in range(60):
        game = t.session.game
        assert game is not None
        seat, action = next_move(RATS, game)
        if action.startswith("slap"):
            break
        assert not t.errors(t.act(CONNS[seat], action, dt=1.0))
    else:
        pytest.fail("no slap within 60 flips of seed 3")
    game = t.session.game
    assert game is not None
    version = game.version
    top = action.split()[1]
    assert t.mirrors["a"].version == t.mirrors["b"].version == version
    won = t.send("a", {"type": "act", "action": f"slap {top}", "seen": version}, dt=0.01)
    lost = t.send("b", {"type": "act", "action": f"slap {top}", "seen": version}, dt=0.0)
    assert [r["type"] for r in won] == ["update", "ok"]
    assert t.errors(lost) == ["stale"]
    error = next(r for r in lost if r["type"] == "error")
    assert error["rule"] == "CORE-RT-1" and error["version"] == version + 1
    assert f"'slap {top}' was legal at version {version}" in error["message"]
    game = t.session.game
    assert game is not None and game.version == version + 1
    for conn, seat in (("a", 0), ("b", 1), ("b2", 1)):
        assert t.mirrors[conn].version == version + 1
        assert t.mirrors[conn].view == game.view(seat)
    for conn in ("a", "b"):
        updates = [
            m for m in numbered(t, conn) if m["type"] == "update" and m["version"] == version + 1
        ]
        assert len(updates) == 1 and updates[0]["action"]["seat"] == 0
    # the same slap sent again on the new view: the pile is gone, so it is illegal
    again = t.send("b", {"type": "act", "action": f"slap {top}", "seen": version + 1})
    assert t.errors(again) == ["illegal"]
    assert game.version == version + 1
    # a restart right after the race resumes the winner's pile and the same numbers
    counts = Counter({s: z["count"] for s, z in enumerate(game.view(None)["zones"][1:])})
    hub = restart(hub, path, tables, now=900.0)
    game = t.session.game
    assert game is not None and game.version == version + 1
    assert Counter({s: z["count"] for s, z in enumerate(game.view(None)["zones"][1:])}) == counts
    for seat in (0, 1):
        assert t.errors(t.join(CONNS[seat], seat)) == []


def test_turn_clocks_resume_with_the_time_they_had_left(tmp_path: Path) -> None:
    """``restart="pause"``: downtime is never charged (Spades/Spite turns, Ratscrew idle)."""
    from cardcore.session import TimeControl

    path = tmp_path / "hub.db"
    hub, tables = open_tables(path, SessionConfig(time=TimeControl(turn=10)))
    left = {}
    for name, t in tables.items():
        drive(t, name, 4)
        deadline = t.session.next_deadline()
        assert deadline is not None
        left[name] = deadline - t.now
    hub = restart(hub, path, tables, now=500.0)
    for name, t in tables.items():
        assert t.session.next_deadline() == pytest.approx(500.0 + left[name])
    assert hub.tick(500.0 + min(left.values()) - 0.5) == []
