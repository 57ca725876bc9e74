"""A Golf player tries the two new house rules end to end (2026-12-23).

``golf.bonus-card`` (GOLF-SCORE-10, option ``bonus_card``) and ``golf.hand-same-value``
(GOLF4H-VAR-1), as a player meets them: ``cardcore rules``/``list``, ``cardcore play`` with
piped input, ``cardcore compare``, the web lobby's HTTP API and pages, and finished rounds
checked by hand from stacked decks (``deck=``) and fixed seeds. Strict xfails mark what a
player finds wrong today: the terminal screen and the web page never say which card is the
bonus card, and the terminal's title cuts off the second house rule's name.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.games.golf.helpers import round_scores, stack

import cardcore

BONUS = "golf.bonus-card"
SAME = "golf.hand-same-value"
CLI = [sys.executable, "-m", "cardcore.cli"]


def _cli(args: list[str], stdin: str = "", columns: int = 100) -> str:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NO_COLOR", "FORCE_COLOR", "CARDCORE_TRACEBACK", "PYTHONIOENCODING")
    }
    env.update({"COLUMNS": str(columns), "PYTHONUTF8": "1", "LC_ALL": "C.UTF-8"})
    done = subprocess.run(
        [*CLI, *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=30,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


# Seed 22, 4 cards in hand: Player 1 holds QD 2C 3C 6C, knocks at once; the random bot's final
# turn leaves it 10D KC JH 8C (checked on the screen below).
PLAY_4H = ["play", "golf", "-o", "layout=4h", "-o", "rounds=1", "--seed", "22", "--no-record"]


def _finish_4h(*rules: str, bonus: str = "Q", columns: int = 100) -> str:
    args = [*PLAY_4H, "--rules", ",".join(rules), "-o", f"bonus_card={bonus}"]
    return _cli(args, stdin="k\n", columns=columns)


# --- finished rounds checked by hand ---------------------------------------------------------


def _knock_round(grids: list[str], rules: list[str], **options: Any) -> cardcore.Game:
    """A 4h round from a stacked deck: seat 0 knocks, seat 1 draws 2C and lets it go."""
    deck = stack(grids, "9S", "2C 3D 4H 5S")
    opts = {"layout": "4h", "rounds": 1, **options}
    game = cardcore.new_game("golf", 2, rules=rules, options=opts, deck=deck, seed=1)
    for seat, text in [(0, "knock"), (1, "draw"), (1, "discard")]:
        game.act(seat, text)
    assert game.is_over
    return game


@pytest.mark.parametrize(
    ("grids", "rules", "bonus", "expected"),
    [
        # bonus rank Q, same value: the two queens (-2 each) cancel, so do JD and 10C (10 each)
        (["QH QS JD 10C", "QD 10H 5C 5D"], [BONUS, SAME], "Q", [0, -2 + 10]),
        # the same hands by rank (GOLF4H-2): JD and 10C score, the bonus QD alone is -2
        (["QH QS JD 10C", "QD 10H 5C 5D"], [BONUS], "Q", [20, -2 + 10]),
        # one card named (QH): it cancels only with another -2 under same value; QS pairs JD,
        # and Bob's QD (10, not named) pairs 10H
        (["QH QS JD 5C", "QD 10H 5H 7D"], [BONUS, SAME], "QH", [-2 + 5, 5 + 7]),
        # by rank QH still pairs with QS (GOLF-SCORE-6), QD keeps its 10 and pairs nothing
        (["QH QS JD 5C", "QD 10H 5H 7D"], [BONUS], "QH", [10 + 5, 10 + 10 + 5 + 7]),
        # HARD with the kings named: K is -2, not 13; J 11 and Q 12 do not share a value
        (["KH JS QD 3C", "KD KS 6H 6D"], [BONUS, SAME, "golf.hard"], "K", [-2 + 11 + 12 + 3, 0]),
    ],
)
def test_a_knocked_4h_round_scores_as_worked_by_hand(
    grids: list[str], rules: list[str], bonus: str, expected: list[int]
) -> None:
    game = _knock_round(grids, rules, bonus_card=bonus)
    past = game.history(None)[-1]
    assert past["grids"][0] == grids[0].split()
    assert past["scores"] == expected
    assert game.result is not None and list(game.result.scores) == expected


def test_the_seed_bonus_pair_cancels_to_zero_not_minus_four_in_a_column() -> None:
    """Seed: "A pair of jokers or bonus cards cancel each other out just like normal pairs,
    raising your score from -4 to 0"; a lone named card scores -2 (GOLF-SCORE-10)."""
    grids = ["QH 9C QD QS 5D 4H", "3C 8D JS 3D 10H 6S"]  # QH over QS cancels; QD alone
    deck = stack(grids, "KS", "2C 3H")
    opts = {"rounds": 1, "bonus_card": "Q"}
    game = cardcore.new_game("golf", 2, rules=[BONUS], options=opts, deck=deck, seed=1)
    assert round_scores(game, -1) == [0 + 9 + 5 - 2 + 4, 3 + 8 + 10 + 3 + 10 + 6 - 3 - 3]


# --- the terminal ----------------------------------------------------------------------------


def test_rules_and_list_explain_the_option_with_an_example() -> None:
    rule = _cli(["rules", "golf", BONUS], columns=200)
    assert "-o bonus_card=2" in rule and "('QH')" in rule and "GOLF-SCORE-10" in rule
    listed = _cli(["list", "golf"], columns=200)
    row = next(line for line in listed.splitlines() if SAME in line)
    assert "GOLF4H-VAR-1" in row and "only with layout 4h" in row
    assert "-o bonus_card=2" in listed


def test_play_shows_the_round_scores_a_player_can_check_by_hand() -> None:
    """QD is the bonus card (-2): 9 = -2 + 2 + 3 + 6; the bot's 10D KC JH 8C: 28 by rank,
    8 under same value (10D and JH are both worth 10)."""
    out = _finish_4h(BONUS)
    assert "0:QD  1:2C  2:3C  3:6C" in out and "0:10D 1:KC  2:JH  3:8C" in out
    assert "scores: Player 1: 9, random 2: 28" in out
    both = _finish_4h(BONUS, SAME)
    assert "scores: Player 1: 9, random 2: 8" in both


def test_play_screen_names_the_bonus_card() -> None:
    out = _finish_4h(BONUS)
    assert re.search(r"bonus[ _]card\s*[:=]\s*Q\b", out), out[-1500:]


def test_play_screen_names_every_house_rule_at_80_columns() -> None:
    out = _finish_4h(BONUS, SAME, columns=80)
    assert SAME in out


def test_compare_drops_the_rules_own_option_from_the_base_game() -> None:
    args = ["compare", "golf", "--rules", BONUS, "-o", "bonus_card=Q", "-o", "rounds=1"]
    out = _cli([*args, "--games", "4", "--workers", "1", "--seed", "3"], columns=200)
    assert "A: golf.bonus-card; agents golf-greedy; options bonus_card=Q, rounds=1" in out
    assert "B: (base game); agents golf-greedy; options rounds=1" in out


# --- the web lobby ---------------------------------------------------------------------------


def test_lobby_api_takes_the_rule_and_its_option_and_refuses_it_alone() -> None:
    from tests.web.helpers import serve

    seats = [{"name": "Ann"}, {"name": "Bot", "agent": "golf-greedy", "params": {"seed": 1}}]
    with serve() as (client, _server, _dog):
        games = client.get("/api/games").json()
        golf = next(g for g in games if g["name"] == "golf")
        rule = next(r for r in golf["rules"] if r["name"] == BONUS)
        assert [(o["name"], o["default"]) for o in rule["options"]] == [("bonus_card", "2")]
        body = {"game": "golf", "seats": seats, "rules": [BONUS]}
        made = client.post("/api/sessions", json={**body, "options": {"bonus_card": "Q"}})
        assert made.status_code == 201 and made.json()["options"]["bonus_card"] == "Q"
        bad = client.post("/api/sessions", json={**body, "options": {"bonus_card": "JK"}})
        assert bad.status_code == 400 and "GOLF-SCORE-10" in bad.json()["error"]
        alone = client.post(
            "/api/sessions", json={**body, "rules": [], "options": {"bonus_card": "Q"}}
        )
        assert alone.status_code == 400 and BONUS in alone.json()["error"]


@pytest.fixture(scope="module")
def web_base() -> Iterator[tuple[str, Any]]:
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no /usr/bin/chromium")
    pytest.importorskip("playwright.sync_api")
    uvicorn = pytest.importorskip("uvicorn")
    from cardcore.web import WebServer, create_app

    web = WebServer(None, bot_delay=0.0)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    srv = uvicorn.Server(uvicorn.Config(create_app(web), log_level="warning", lifespan="on"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}", web
    srv.should_exit = True
    thread.join(10)


CONTEXTS: list[Any] = []
HANDS = ["QH QS JD 10C", "QD 10H 5C 5D"]
"""By rank, bonus Q: Ann's queens cancel, JD + 10C = 20; Bob's QD -2 + 10H, fives cancel: 8."""


@pytest.fixture(scope="module")
def browser(web_base: tuple[str, Any]) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        found = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        yield found
        while CONTEXTS:
            CONTEXTS.pop().close()
        found.close()


def _seat_pages(browser: Any, web_base: tuple[str, Any]) -> list[Any]:
    """A 4h game from a stacked deck with the bonus card Q, made as the lobby makes one (two
    people, as tests/web/test_browser_player_2026_12_15.py does); both seat pages opened."""
    from cardcore.session import SessionConfig

    base, web = web_base
    session = web.hub.create(
        "golf",
        ["Ann", "Bob"],
        now=web.host.clock(),
        rules=[BONUS],
        options={"layout": "4h", "rounds": 1, "bonus_card": "Q"},
        deck=stack(HANDS, "9S", "2C 3D 4H 5S"),
        seed=1,
        config=SessionConfig(limits=web.limits, spectator_delay=0),
    )
    pages = []
    for seat in (0, 1):
        context = browser.new_context()
        CONTEXTS.append(context)
        page = context.new_page()
        page.goto(f"{base}/play/{session.id}#seat={seat}")
        pages.append(page)
    for page in pages:
        page.wait_for_function("() => window.cardcore.view !== null")
    return pages


def _click(pages: list[Any], seat: int, selector: str) -> None:
    before = pages[seat].evaluate("window.cardcore.view.version")
    pages[seat].click(selector)
    for page in pages:
        page.wait_for_function(
            f"() => window.cardcore.view.version > {before} || window.cardcore.view.is_over",
            timeout=10000,
        )


def test_lobby_page_offers_the_bonus_card_under_its_rule(
    web_base: tuple[str, Any], browser: Any
) -> None:
    context = browser.new_context()
    CONTEXTS.append(context)
    page = context.new_page()
    page.goto(web_base[0] + "/")
    page.wait_for_selector("#game option[value=golf]", state="attached")
    page.select_option("#game", "golf")
    box = page.locator('[data-option="bonus_card"][data-for-rule="golf.bonus-card"]')
    assert box.count() == 1
    assert json.loads(box.input_value()) == "2"


def test_seat_pages_show_the_final_scores_worked_by_hand(
    web_base: tuple[str, Any], browser: Any
) -> None:
    pages = _seat_pages(browser, web_base)
    _click(pages, 0, "button:has-text('knock')")
    _click(pages, 1, '.pile[data-pile="stock"].target')
    _click(pages, 1, '.pile[data-pile="discard"].target')
    for page in pages:
        view = page.evaluate("window.cardcore.view")
        assert view["is_over"] and view["result"]["scores"] == [20, 8]
        assert "scores: Ann 20, Bob 8" in page.inner_text("body")


def test_seat_page_names_the_house_rule(web_base: tuple[str, Any], browser: Any) -> None:
    pages = _seat_pages(browser, web_base)
    assert BONUS in pages[0].inner_text("body")
