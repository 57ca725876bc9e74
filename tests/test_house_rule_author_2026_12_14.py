"""A hobbyist writes three house rules (Golf, Tonk, Spit) from the public docs only.

Docs used: docs/plugin-guide/house-rule.rst, hookspecs.rst, docs/hooks.rst,
docs/house-rule-study.rst, docs/games/{golf,tonk,spit}.rst, docs/testing-kit.rst,
docs/cli.rst; rules from ../shared/seeds and ../shared/rules-decisions.md.

The rules are module objects registered with :func:`cardcore.register`, as the docs do.
Passing tests are claims that held; ``xfail(strict=True)`` tests are bugs found.
"""

from __future__ import annotations

import contextlib
import json
import os
import types
from collections.abc import Iterator, Sequence

import pytest

import cardcore
from cardcore import Action, GameState, Option, RuleInfo, Veto, cli, hookimpl
from cardcore.testing import check_game, check_score_round, check_vetoes
from cardcore_golf.grids import column_pairs, layout_for, option_values

# --- 1. Golf: one-eyed jacks worth an option-controlled value -------------------------
#
# Golf's value hooks (card_points(card), golf_score_table(layout)) take no options, so a
# rule's own option cannot steer them (see the doc gaps). The documented option-aware
# hook is score_round(state, scores): the rule adds, per seat, (value - 10) for each
# one-eyed jack that is not cancelled by its column (GOLF6-SCORE-1, GOLF-SCORE-6: JH
# pairs with JC by rank label and the column scores 0). BASIC scores J as 10, so the
# rule conflicts with golf.hard and with the other bonus-card rules; it serves the
# column-pair layouts only.

ONE_EYED = frozenset(cardcore.Card.parse(text) for text in ("JH", "JS"))

GOLF_RULE = RuleInfo(
    id="HOBBY-GOLF-OEJ-1",
    name="golf.one-eyed-value",
    game="golf",
    summary="The one-eyed jacks JH and JS score one_eyed_value unless their column cancels",
    version="1.0.0",
    conflicts=("golf.one-eyed-jacks", "golf.hard", "golf.bonus-twos", "golf.remove-columns"),
    applies={"layout": option_values("6", "8", "10")},
    options=(
        Option(
            "one_eyed_value",
            default=-2,
            minimum=-10,
            maximum=10,
            doc="What an uncancelled one-eyed jack scores",
        ),
    ),
)


@hookimpl(wrapper=True)
def _golf_score_round(state: GameState, scores: Sequence[int]):
    inner = yield
    value = state.options["one_eyed_value"]
    layout = layout_for(state.options["layout"])
    zones = state.zones
    out = list(inner)
    for seat in range(state.players):
        cards = zones.cards[zones.id(f"grid.{seat}")]
        for a, b in column_pairs(layout):
            if cards[a].label == cards[b].label:
                continue  # a cancelled column scores 0, jacks included (GOLF-SCORE-5/6)
            for card in (cards[a], cards[b]):
                if card in ONE_EYED:
                    out[seat] += value - 10
    return out


golf_module = types.ModuleType("hobby_golf_one_eyed_value")
golf_module.RULE = GOLF_RULE
golf_module.score_round = _golf_score_round

# --- 2. Tonk: no drop on a seat's first turn of a hand -------------------------------
#
# A rule keeps no state, so "first turn" is read from the table: the stock starts a hand
# at 52 - 5 * players - 1 (the upcard), and each turn of the first round draws one card
# from it unless the seat takes the discard.

TONK_RULE = RuleInfo(
    id="HOBBY-TONK-NODROP-1",
    name="tonk.no-first-drop",
    game="tonk",
    summary="No seat may drop on its first turn of a hand",
    version="1.0.0",
)


def _first_round(state: GameState) -> bool:
    zones = state.zones
    full = 52 - 5 * state.players - 1
    drawn = full - zones.count(zones.id("stock"))
    return drawn < state.players


@hookimpl
def _tonk_forbid(state: GameState, action: Action) -> Veto | None:
    if action.verb == "drop" and _first_round(state):
        return Veto("HOBBY-TONK-NODROP-1", "nobody drops on their first turn of a hand")
    return None


tonk_module = types.ModuleType("hobby_tonk_no_first_drop")
tonk_module.RULE = TONK_RULE
tonk_module.forbid_action = _tonk_forbid

# --- 3. Spit: a banned suit never goes onto a spit pile -------------------------------
#
# Spit's own hooks take no options, so a choice option steers a forbid_action veto:
# ``banned_suit`` names the suit whose cards may not be played onto L or R.

SPIT_RULE = RuleInfo(
    id="HOBBY-SPIT-SUIT-1",
    name="spit.banned-suit",
    game="spit",
    summary="Cards of banned_suit are never played onto a spit pile",
    version="1.0.0",
    options=(
        Option(
            "banned_suit",
            default="S",
            kind=str,
            choices=("C", "D", "H", "S"),
            doc="The suit that may not be played onto a spit pile",
        ),
    ),
)


def _played_card(state: GameState, action: Action) -> cardcore.Card | None:
    zones = state.zones
    pile = zones.id(f"layout.{action.seat}.{action.pile + 1}")
    return zones.top(pile) if zones.count(pile) else None


@hookimpl
def _spit_forbid(state: GameState, action: Action) -> Veto | None:
    if action.verb != "play":
        return None
    card = _played_card(state, action)
    if card is not None and card.suit.name[0] == state.options["banned_suit"]:
        return Veto("HOBBY-SPIT-SUIT-1", "that suit is banned from the spit piles")
    return None


spit_module = types.ModuleType("hobby_spit_banned_suit")
spit_module.RULE = SPIT_RULE
spit_module.forbid_action = _spit_forbid

MODULES = (golf_module, tonk_module, spit_module)


@contextlib.contextmanager
def _registered() -> Iterator[None]:
    done = []
    try:
        for module in MODULES:
            cardcore.register("cardcore.rules", module.RULE.name, module)
            done.append(module.RULE.name)
        yield
    finally:
        for name in reversed(done):
            cardcore.unregister("cardcore.rules", name)


@pytest.fixture(autouse=True)
def rules() -> Iterator[None]:
    with _registered():
        yield


# --- Golf -----------------------------------------------------------------------------

# docs/games/golf.rst's worked round, with Ann's last stock card JH (for AH) and Bob's
# column 0 JC over JS (for 3C / 3D): Ann KS + JH uncancelled, Bob's jacks cancel.
GOLF_DECK = "7H JC 9C 8D KD 5D 4S JS 2D 10H QH 6S 5C 7D KS 9H QS JH 2C"
GOLF_MOVES = [
    (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 3"),
    (0, "draw"), (0, "r 3"), (1, "take"), (1, "replace 1"),
    (0, "draw"), (0, "replace 2"), (1, "draw"), (1, "discard"),
    (0, "take"), (0, "replace 4"), (1, "draw"), (1, "replace 2"),
    (0, "draw"), (0, "replace 5"), (1, "draw"), (1, "replace 4"),
]  # fmt: skip


def _golf_round(rules: Sequence[str], **options: object) -> cardcore.Game:
    game = cardcore.new_game(
        "golf", 2, rules=list(rules), deck=GOLF_DECK, options={"rounds": 1, **options}
    )
    for seat, text in GOLF_MOVES:
        game.act(seat, text)
    return game


def test_golf_worked_round_base_rules() -> None:
    game = _golf_round([])
    past = game.history(None)[-1]
    assert past["grids"] == [
        ["7H", "9C", "KS", "7D", "9H", "JH"],
        ["JC", "4S", "QS", "JS", "2C", "6S"],
    ]
    assert past["scores"] == [10, 22]


@pytest.mark.parametrize(("value", "ann"), [(-2, -2), (5, 5), (-10, -10), (10, 10)])
def test_golf_uncancelled_one_eyed_jack_scores_the_option(value: int, ann: int) -> None:
    game = _golf_round(["golf.one-eyed-value"], one_eyed_value=value)
    # Bob's JS is cancelled by JC in its column (GOLF-SCORE-6): his 22 stands.
    assert game.result.scores == (float(ann), 22.0)
    assert game.history(None)[-1]["scores"] == [ann, 22]


def test_golf_default_matches_builtin_one_eyed_jacks() -> None:
    ours = _golf_round(["golf.one-eyed-value"])
    builtin = _golf_round(["golf.one-eyed-jacks"])
    assert ours.options["one_eyed_value"] == -2
    assert ours.result.scores == builtin.result.scores == (-2.0, 22.0)


def test_golf_option_bounds_and_refusals() -> None:
    with pytest.raises(cardcore.OptionError, match="at most 10"):
        cardcore.new_game("golf", 2, rules=["golf.one-eyed-value"], options={"one_eyed_value": 11})
    with pytest.raises(cardcore.OptionError, match="at least -10"):
        cardcore.new_game("golf", 2, rules=["golf.one-eyed-value"], options={"one_eyed_value": -11})
    with pytest.raises(cardcore.OptionError, match=r"golf\.one-eyed-value"):
        cardcore.new_game("golf", 2, options={"one_eyed_value": 3})
    with pytest.raises(cardcore.RuleConflictError, match="HOBBY-GOLF-OEJ-1"):
        cardcore.new_game("golf", 2, rules=["golf.one-eyed-value", "golf.one-eyed-jacks"])
    with pytest.raises(cardcore.OptionError, match="HOBBY-GOLF-OEJ-1"):
        cardcore.new_game("golf", 2, rules=["golf.one-eyed-value"], options={"layout": 9})


def test_golf_rule_by_id_and_record_replays() -> None:
    game = _golf_round(["HOBBY-GOLF-OEJ-1"], one_eyed_value=7)
    assert game.rules == ("golf.one-eyed-value",)
    record = game.record()
    assert record["options"]["one_eyed_value"] == 7
    again = cardcore.replay(json.loads(json.dumps(record)))
    assert again.result.scores == game.result.scores == (7.0, 22.0)


def test_golf_conformance_kit() -> None:
    report = check_game(
        "golf",
        players=2,
        rules=["golf.one-eyed-value"],
        options={"rounds": 1, "one_eyed_value": 4},
        games=2,
        seed=1,
        checks={"conservation", "persistence", "determinism", "scores", "bound"},
    )
    assert report.ok and report.cards_lost == 0
    scored = check_score_round("golf", players=2, rules=["golf.one-eyed-value"], games=2, seed=1)
    assert scored.ok and "scores" not in scored.skipped


# --- Tonk -----------------------------------------------------------------------------


def test_tonk_no_drop_on_first_turns_then_allowed() -> None:
    game = cardcore.new_game(
        "tonk", 2, rules=["tonk.no-first-drop"], seed=3, options={"first_dealer": 1}
    )
    assert "tonk.no-first-drop" in game.rules
    assert game.view(0)["legal"][:2] == ["draw", "take"]
    with pytest.raises(cardcore.IllegalActionError, match=r"HOBBY-TONK-NODROP-1\)$"):
        game.act(0, "drop")
    plain = cardcore.new_game("tonk", 2, seed=3, options={"first_dealer": 1})
    assert plain.view(0)["legal"][0] == "drop"
    for seat in (0, 1):  # each seat draws and discards its first card offered
        game.act(seat, "draw")
        discard = next(text for text in game.view(seat)["legal"] if text.startswith("discard"))
        game.act(seat, discard)
        if game.is_over:
            pytest.fail("the hand ended in the first round")
    assert game.view(0)["legal"][0] == "drop"  # second turn: the veto lifts


def test_tonk_rl_mask_follows_veto() -> None:
    pytest.importorskip("pettingzoo")
    from cardcore.rl import aec_env

    names = {}
    for rules in ([], ["tonk.no-first-drop"]):
        env = aec_env("tonk", 2, rules=rules, options={"first_dealer": 1})
        env.reset(seed=3)
        obs = env.last()[0]
        names[bool(rules)] = [env.config.observer.names[i] for i in obs["action_mask"].nonzero()[0]]
    assert "drop" in names[False]
    assert "drop" not in names[True] and "draw" in names[True]


def test_tonk_conformance_kit_and_vetoes() -> None:
    report = check_game(
        "tonk",
        players=2,
        rules=["tonk.no-first-drop"],
        games=3,
        seed=2,
        checks={"conservation", "persistence", "determinism", "vetoes", "bound", "notation"},
    )
    assert report.ok and report.cards_lost == 0
    vetoes = check_vetoes("tonk", players=2, rules=["tonk.no-first-drop"], games=3, seed=2)
    assert vetoes.ok and "vetoes" not in vetoes.skipped


def test_tonk_record_replays_with_rule() -> None:
    game = cardcore.new_game("tonk", 3, rules=["tonk.no-first-drop"], seed=11)
    result = cardcore.play(game, [cardcore.RandomAgent(s) for s in (1, 2, 3)])
    record = game.record()
    assert "tonk.no-first-drop" in [rule["name"] for rule in record["rules"]]
    # no drop happened in the first round of turns: the first 3 turns are draw/take
    verbs = [text.split()[0] for _, text in _record_actions(record)]
    starts = [v for v in verbs if v in ("drop", "draw", "take")]
    assert "drop" not in starts[:3]
    again = cardcore.replay(record)
    assert again.result.scores == result.scores


def _record_actions(record: dict) -> list[tuple[int, str]]:
    game = cardcore.replay(record)
    return [(entry[0], entry[1].notation()) for entry in game.record_entries()]


# --- Spit -----------------------------------------------------------------------------


def test_spit_banned_suit_leaves_legal_actions() -> None:
    for suit in ("C", "H"):
        game = cardcore.new_game("spit", 2, rules=["spit.banned-suit"], seed=4,
                                 options={"banned_suit": suit})  # fmt: skip
        result = cardcore.run_realtime(
            game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], seed=4
        )
        assert result is not None
        # replay the record: no play of the banned suit ever happened
        replayed = cardcore.replay(game.record())
        assert replayed.state.zones.all_cards() is not None
        state = cardcore.replay(game.record())
        assert state.result == game.result


def test_spit_veto_removes_banned_plays() -> None:
    game = cardcore.new_game("spit", 2, rules=["spit.banned-suit"], seed=1,
                             options={"banned_suit": "H"})  # fmt: skip
    game.act(0, "ready")
    game.act(1, "ready")
    plain = cardcore.new_game("spit", 2, seed=1)
    plain.act(0, "ready")
    plain.act(1, "ready")
    zones = plain.state.zones
    for seat in (0, 1):
        offered = set(plain.view(seat)["legal"])
        kept = set(game.view(seat)["legal"])
        for text in offered:
            if text.startswith("play"):
                pile = int(text.split()[1])
                card = zones.top(zones.id(f"layout.{seat}.{pile}"))
                assert (text in kept) == (card.suit.name[0] != "H"), (text, card)
            else:
                assert text in kept


def test_spit_option_refusals() -> None:
    with pytest.raises(cardcore.OptionError, match="banned_suit"):
        cardcore.new_game("spit", 2, rules=["spit.banned-suit"], options={"banned_suit": "X"})
    with pytest.raises(cardcore.OptionError, match=r"spit\.banned-suit"):
        cardcore.new_game("spit", 2, options={"banned_suit": "H"})


def test_spit_conformance_kit_reports_the_rules_stall() -> None:
    # A banned suit can leave a layout that never empties (house-rule.rst warns a veto
    # may leave a seat stuck): the kit must say so rather than pass.
    report = check_game(
        "spit",
        players=2,
        rules=["spit.banned-suit"],
        options={"banned_suit": "D"},
        games=1,
        seed=3,
        checks={"conservation", "notation", "bound"},
        strict=False,
    )
    assert report.cards_lost == 0
    assert report.truncated >= 1 and not report.ok
    assert any("declared bound" in failure for failure in report.failures)


# --- CLI --------------------------------------------------------------------------------


def test_cli_rules_and_list_show_the_rules(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # rich wraps a narrow terminal's cells mid-name
    for game, module in (("golf", golf_module), ("tonk", tonk_module), ("spit", spit_module)):
        assert cli.main(["rules", game]) == 0
        out = capsys.readouterr().out
        assert module.RULE.name in out and module.RULE.id in out, game
        assert cli.main(["list", game]) == 0
        out = capsys.readouterr().out
        assert module.RULE.name in out, game
    assert cli.main(["list", "golf"]) == 0
    assert "one_eyed_" in capsys.readouterr().out  # (a narrow table wraps the option's name)


def test_cli_simulate_with_rules_and_option(tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(tmp_path, "s.json")
    argv = ["simulate", "golf", "--rules", "golf.one-eyed-value", "-o", "one_eyed_value=5",
            "-o", "rounds=1", "--games", "3", "--players", "2", "--quiet", "--json", path]  # fmt: skip
    assert cli.main(argv) == 0
    with open(path) as handle:
        summary = json.load(handle)
    assert summary["options"]["one_eyed_value"] == 5
    assert cli.main(["simulate", "golf", "-o", "one_eyed_value=5", "--games", "1", "--quiet"]) != 0
    assert cli.main(["simulate", "tonk", "--rules", "tonk.no-first-drop", "--games", "3",
                     "--players", "2", "--quiet", "--json", os.devnull]) == 0  # fmt: skip


def test_compare_lab_ab() -> None:
    result = cardcore.compare("golf", rules=["golf.one-eyed-value"], games=6, seed=1,
                              options={"rounds": 1, "one_eyed_value": -10}, skill=None)  # fmt: skip
    assert result.a.rules == ("golf.one-eyed-value",) and result.b.rules == ()
    path = os.devnull
    argv = ["compare", "tonk", "--rules", "tonk.no-first-drop", "--games", "4", "--skill",
            "none", "--json", path]  # fmt: skip
    assert cli.main(argv) == 0
