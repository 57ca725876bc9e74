"""Review of 10f3757: house rules declare parameters of their own (``RuleInfo.options``).

Claims that hold pass; each fault found is an ``xfail(strict=True)`` asserting the right
behaviour. Test rules and test games are registered for one test and unregistered after.
"""

from __future__ import annotations

import json
import types
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

import cardcore
from cardcore import (
    CardcoreError,
    CorruptStateError,
    GameState,
    Option,
    OptionError,
    PluginError,
    RuleInfo,
    hookimpl,
)
from cardcore.cli import main as cli_main
from cardcore.cli.args import parse_options
from cardcore.session import GameSetup, Hub, SQLiteStore
from cardcore.testing import configurations

CAP = "golf.review-round-cap"
CAP_OPT = Option("round_cap", default=10, minimum=0, maximum=100, doc="most points a round")


@hookimpl
def score_round(state: GameState, scores: Sequence[int]) -> list[int]:
    """Cut each seat's round score to the cap (reads the rule's own option)."""
    cap = state.options["round_cap"]
    return [min(s, cap) for s in scores]


@hookimpl(specname="score_round")
def _reads_cap(state: GameState, scores: Sequence[int]) -> list[int]:
    """Reads the option ``cap`` (a number caps the scores; a word leaves them)."""
    cap = state.options["cap"]
    return [min(s, cap) for s in scores] if isinstance(cap, int) else list(scores)


def _rule(
    name: str,
    *options: Option,
    rule_id: str = "REV-CAP-1",
    game: str = "golf",
    hook: Any = score_round,
    **kw: Any,
) -> types.ModuleType:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id=rule_id, name=name, game=game, summary="capped", options=options, **kw
    )
    module.score_round = hook  # type: ignore[attr-defined]
    return module


@pytest.fixture
def cap() -> Iterator[str]:
    cardcore.register("cardcore.rules", CAP, _rule(CAP, CAP_OPT))
    yield CAP
    cardcore.unregister("cardcore.rules", CAP)


def _random2() -> list[Any]:
    return [cardcore.RandomAgent(1), cardcore.RandomAgent(2)]


def _golf_copy(name: str, default_rules: tuple[str, ...]) -> types.ModuleType:
    """Golf under another name, with *default_rules* switched on by default."""
    import cardcore_golf.rules as golf_rules

    module = types.ModuleType(f"{name}_rules")
    for key, value in vars(golf_rules).items():
        if not key.startswith("__"):
            setattr(module, key, value)
    module.GAME = attrs.evolve(golf_rules.GAME, name=name, default_rules=default_rules)  # type: ignore[attr-defined]
    return module


@pytest.fixture
def golfd() -> Iterator[str]:
    """Golf with a default rule, ``golfd.cap``, that declares ``round_cap``."""
    cardcore.register("cardcore.games", "golfd", _golf_copy("golfd", ("golfd.cap",)))
    cardcore.register(
        "cardcore.rules", "golfd.cap", _rule("golfd.cap", CAP_OPT, rule_id="GD-CAP-1", game="golfd")
    )
    yield "golfd"
    cardcore.unregister("cardcore.rules", "golfd.cap")
    cardcore.unregister("cardcore.games", "golfd")


@hookimpl(wrapper=True)
def _more_decks(players: int, options: Mapping[str, Any]) -> Any:
    deck = yield
    return tuple(deck) * (1 + options["extra_decks"])


@pytest.fixture
def golfe() -> Iterator[str]:
    """Golf with a default rule whose own option sizes the deck (read in ``build_deck``)."""
    cardcore.register("cardcore.games", "golfe", _golf_copy("golfe", ("golfe.more",)))
    module = types.ModuleType("golfe_more")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="GE-MORE-1",
        name="golfe.more",
        game="golfe",
        summary="more decks",
        options=(Option("extra_decks", default=1, minimum=0, maximum=2, doc="extra decks"),),
    )
    module.build_deck = _more_decks  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "golfe.more", module)
    yield "golfe"
    cardcore.unregister("cardcore.rules", "golfe.more")
    cardcore.unregister("cardcore.games", "golfe")


# -- the docs example ---------------------------------------------------------------------------


def test_the_docs_example_gives_what_the_guide_shows(cap: str) -> None:
    game = cardcore.new_game("golf", 2, rules=[cap], seed=4, options={"rounds": 1, "round_cap": 3})
    assert (game.options["round_cap"], game.record()["options"]["round_cap"]) == (3, 3)
    assert cardcore.play(game, _random2()).scores == (3.0, 3.0)
    plain = cardcore.new_game("golf", 2, seed=4, options={"rounds": 1})
    assert cardcore.play(plain, _random2()).scores == (53.0, 8.0)  # each above 3: capped above
    with pytest.raises(OptionError) as err:
        cardcore.new_game("golf", 2, rules=[cap], options={"round_cap": 500})
    assert str(err.value) == (
        f"option 'round_cap' must be at most 100, not 500 (an option of house rule {cap!r})"
    )
    with pytest.raises(OptionError) as err:
        cardcore.new_game("golf", 2, options={"round_cap": 3})
    assert str(err.value) == (
        "game 'golf' has no option 'round_cap' (it accepts: dealer, layout, max_turns,"
        f" points_limit, rounds); house rule '{cap}' takes it: choose the rule"
        f" (rules=['{cap}']) to set it"
    )


# -- hostile inputs -----------------------------------------------------------------------------


@pytest.mark.parametrize("value", [[3], {"a": 1}, float("nan"), "3", None])
def test_odd_values_of_a_rule_option_are_an_option_error(cap: str, value: Any) -> None:
    with pytest.raises(OptionError, match="option 'round_cap' must be int"):
        cardcore.new_game("golf", 2, rules=[cap], options={"round_cap": value})


def test_a_non_text_option_name_is_refused_without_a_hint(cap: str) -> None:
    with pytest.raises(OptionError, match=r"has no option \('a',\)") as err:
        cardcore.new_game("golf", 2, rules=[cap], options={("a",): 3})
    assert "round_cap" in str(err.value) and "takes it" not in str(err.value)


def test_applies_naming_the_rules_own_option_is_refused_naming_the_rule() -> None:
    # applies is about the game's options (docs: "must be an option of the game")
    name = "golf.review-applies-own"
    own = Option("d", default=1, minimum=0, maximum=3)
    cardcore.register(
        "cardcore.rules", name, _rule(name, own, rule_id="REV-AP-1", applies={"d": (1,)})
    )
    try:
        with pytest.raises(
            PluginError, match="applies to option 'd', which 'golf' does not declare"
        ):
            cardcore.new_game("golf", 2, rules=[name])
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_a_default_rules_option_colliding_with_a_chosen_rules_is_refused(golfd: str) -> None:
    other = "golfd.other-cap"
    cardcore.register(
        "cardcore.rules", other, _rule(other, CAP_OPT, rule_id="GD-CAP-2", game=golfd)
    )
    try:
        with pytest.raises(PluginError, match="declares option 'round_cap', which house rule"):
            cardcore.new_game(golfd, 2, rules=[other])
        assert (
            cardcore.new_game(golfd, 2, rules=[other], without=["golfd.cap"]).options["round_cap"]
            == 10
        )
    finally:
        cardcore.unregister("cardcore.rules", other)


def test_a_rule_registered_again_with_another_default_is_read_afresh() -> None:
    cardcore.register("cardcore.rules", CAP, _rule(CAP, CAP_OPT))
    try:
        assert cardcore.new_game("golf", 2, rules=[CAP]).options["round_cap"] == 10
        cardcore.unregister("cardcore.rules", CAP)
        cardcore.register("cardcore.rules", CAP, _rule(CAP, attrs.evolve(CAP_OPT, default=5)))
        assert cardcore.new_game("golf", 2, rules=[CAP]).options["round_cap"] == 5
    finally:
        cardcore.unregister("cardcore.rules", CAP)


# -- records, saves, sessions -------------------------------------------------------------------


def _played_record(rule: str) -> dict[str, Any]:
    game = cardcore.new_game("golf", 2, rules=[rule], options={"rounds": 1, "round_cap": 3}, seed=4)
    cardcore.play(game, _random2())
    return json.loads(json.dumps(game.record()))


def test_a_record_tampered_around_the_rule_option_is_corrupt_not_a_crash(cap: str) -> None:
    record = _played_record(cap)
    assert cardcore.replay(record).options["round_cap"] == 3
    no_rule = json.loads(json.dumps(record))
    no_rule["rules"] = []  # the rule removed, its option kept
    with pytest.raises(CorruptStateError, match=f"no option 'round_cap'.*house rule '{cap}'"):
        cardcore.replay(no_rule)
    no_option = json.loads(json.dumps(record))
    del no_option["options"]["round_cap"]  # the default (10) replays to other scores
    with pytest.raises(CorruptStateError):
        cardcore.replay(no_option)
    for odd in ([1], {"a": 1}):
        bad = json.loads(json.dumps(record))
        bad["options"]["round_cap"] = odd
        with pytest.raises(CorruptStateError, match="option 'round_cap' must be int"):
            cardcore.replay(bad)


def test_a_save_whose_rule_was_uninstalled_is_refused_naming_the_rule() -> None:
    cardcore.register("cardcore.rules", CAP, _rule(CAP, CAP_OPT))
    game = cardcore.new_game("golf", 2, rules=[CAP], options={"round_cap": 4}, seed=1)
    saved = game.save()
    cardcore.unregister("cardcore.rules", CAP)
    with pytest.raises(CorruptStateError, match=f"needs house rule '{CAP}'"):
        cardcore.load(saved)
    cardcore.register("cardcore.rules", CAP, _rule(CAP, CAP_OPT))
    try:
        assert cardcore.load(saved).options["round_cap"] == 4
    finally:
        cardcore.unregister("cardcore.rules", CAP)


def test_a_stored_session_keeps_the_rule_option_across_a_restart(cap: str, tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    hub = Hub(SQLiteStore(path))
    session = hub.create("golf", 2, now=0.0, seed=1, rules=[cap], options={"round_cap": 3})
    for seat in (0, 1):
        hub.handle(
            f"c{seat}", json.dumps({"type": "join", "seat": seat, "session": session.id}), 0.0
        )
    assert session.game is not None and session.game.options["round_cap"] == 3
    again = Hub(SQLiteStore(path))
    assert again.resume_all(now=1.0) == []
    resumed = again.sessions[session.id]
    assert resumed.game is not None and resumed.game.options["round_cap"] == 3
    assert resumed.setup.to_json()["options"]["round_cap"] == 3


def _session_without_its_rule(path: Path, join: bool) -> tuple[str, str]:
    """A stored session of the rule (its game started when *join*), then the rule uninstalled."""
    cardcore.register("cardcore.rules", CAP, _rule(CAP, CAP_OPT))
    try:
        hub = Hub(SQLiteStore(path))
        sid = hub.create("golf", 2, now=0.0, seed=1, rules=[CAP], options={"round_cap": 3}).id
        for seat in (0, 1) if join else ():
            hub.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat, "session": sid}), 0.0)
        plain = hub.create("golf", 2, now=0.0, seed=2).id
    finally:
        cardcore.unregister("cardcore.rules", CAP)
    return sid, plain


def test_a_started_stored_session_whose_rule_is_gone_fails_alone(tmp_path: Path) -> None:
    sid, plain = _session_without_its_rule(tmp_path / "s.db", join=True)
    again = Hub(SQLiteStore(tmp_path / "s.db"))
    assert again.resume_all(now=1.0) == [sid]
    assert plain in again.sessions


def test_a_waiting_stored_session_whose_rule_is_gone_is_refused_clearly(tmp_path: Path) -> None:
    sid, _ = _session_without_its_rule(tmp_path / "s.db", join=False)
    again = Hub(SQLiteStore(tmp_path / "s.db"))
    if again.resume_all(now=1.0) == [sid]:
        return  # refused at the restart, naming the session: fine
    out = []
    for seat in (0, 1):
        out += again.handle(
            f"c{seat}", json.dumps({"type": "join", "seat": seat, "session": sid}), 2.0
        )
    codes = [o.message.get("code") for o in out if o.message.get("type") == "error"]
    assert "internal" not in codes, codes


def test_a_setup_without_its_default_rule_drops_the_rules_option(golfd: str) -> None:
    on = GameSetup(game=golfd, players=("a", "b")).to_json()["options"]
    off = GameSetup(game=golfd, players=("a", "b"), without=("golfd.cap",)).to_json()["options"]
    assert on["round_cap"] == 10 and "round_cap" not in off
    with pytest.raises(OptionError, match="no option 'round_cap'"):
        GameSetup(
            game=golfd, players=("a", "b"), without=("golfd.cap",), options={"round_cap": 3}
        ).build(seed=1)


def test_a_default_rules_option_is_resolved_recorded_and_replayed(golfd: str) -> None:
    assert cardcore.new_game(golfd, 2, seed=1).options["round_cap"] == 10
    assert "round_cap" not in cardcore.new_game(golfd, 2, seed=1, without=["golfd.cap"]).options
    game = cardcore.new_game(golfd, 2, seed=1, options={"round_cap": 3, "rounds": 1})
    result = cardcore.play(game, _random2())
    record = json.loads(json.dumps(game.record()))
    assert record["options"]["round_cap"] == 3 and max(result.scores) <= 3
    assert cardcore.replay(record).result == result


# -- RL, web ------------------------------------------------------------------------------------


def test_gym_env_takes_a_rule_option_and_refuses_it_at_reset(cap: str) -> None:
    pytest.importorskip("gymnasium")
    from cardcore.rl import gym_env

    env = gym_env("golf", players=2, rules=[cap], options={"round_cap": 3})
    env.reset(seed=1)
    assert env.runner.config.option_names >= {"round_cap", "layout"}
    assert env.runner.match.game.options["round_cap"] == 3
    with pytest.raises(OptionError, match=r"options=\{\.\.\.\}"):
        env.reset(seed=1, options={"round_cap": 4})
    with pytest.raises(OptionError, match=f"house rule '{cap}' takes it"):
        gym_env("golf", players=2, options={"round_cap": 3})


def test_the_web_server_creates_and_describes_a_session_with_a_rule_option(cap: str) -> None:
    pytest.importorskip("starlette")
    from tests.web.helpers import serve

    with serve() as (client, _, _):
        request = {"game": "golf", "seats": [{"name": "A"}, {"name": "B"}], "rules": [cap]}
        made = client.post("/api/sessions", json={**request, "options": {"round_cap": 4}})
        assert made.status_code == 201, made.text
        assert made.json()["options"]["round_cap"] == 4
        refused = client.post(
            "/api/sessions", json={**request, "rules": [], "options": {"round_cap": 4}}
        )
        assert refused.status_code >= 400 and "takes it" in refused.json()["error"]


# -- command line -------------------------------------------------------------------------------


def test_cardcore_rules_for_one_rule_shows_its_option(
    cap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["rules", "golf", cap]) == 0
    assert "-o round_cap=10 (0 to 100): most points a round" in capsys.readouterr().out


def test_cardcore_list_shows_a_default_rules_option(
    golfd: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "240")
    assert cli_main(["list", golfd]) == 0
    out = capsys.readouterr().out
    assert "on by default" in out and "-o round_cap=10 (0 to 100)" in out


CAP_A, CAP_B = "golf.review-cap-words", "golf.review-cap-number"


@pytest.fixture
def two_caps() -> Iterator[None]:
    """Two alternative rules (they conflict) that each take an option named ``cap``."""
    words = Option("cap", default="low", kind=str, choices=("low", "high"))
    number = Option("cap", default=10, minimum=0, maximum=100)
    cardcore.register(
        "cardcore.rules",
        CAP_A,
        _rule(CAP_A, words, rule_id="REV-A-1", conflicts=(CAP_B,), hook=_reads_cap),
    )
    cardcore.register(
        "cardcore.rules",
        CAP_B,
        _rule(CAP_B, number, rule_id="REV-B-1", conflicts=(CAP_A,), hook=_reads_cap),
    )
    yield
    cardcore.unregister("cardcore.rules", CAP_B)
    cardcore.unregister("cardcore.rules", CAP_A)


def test_two_alternative_rules_may_share_an_option_name_in_the_api(two_caps: None) -> None:
    game = cardcore.new_game("golf", 2, rules=[CAP_B], options={"cap": 7, "rounds": 1}, seed=4)
    assert max(cardcore.play(game, _random2()).scores) <= 7
    assert (
        cardcore.new_game("golf", 2, rules=[CAP_A], options={"cap": "high"}).options["cap"]
        == "high"
    )


def test_the_command_line_reads_an_option_as_the_chosen_rule_declares_it(
    two_caps: None, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["simulate", "golf", "--games", "1", "--players", "2", "-o", "rounds=1"]
    assert cli_main([*args, "--rules", CAP_A, "-o", "cap=high"]) == 0, capsys.readouterr().err


# -- compare (the house-rule lab) ---------------------------------------------------------------


def test_compare_carries_rule_options_when_each_side_is_given_its_own(cap: str) -> None:
    result = cardcore.compare(
        "golf", rules=[cap], options={"round_cap": 3, "rounds": 1}, vs_options={"rounds": 1},
        games=2, skill=None,
    )  # fmt: skip
    assert result.a.options == {"round_cap": 3, "rounds": 1} and result.b.options == {"rounds": 1}


def test_compare_a_rule_with_its_option_against_the_base_game(cap: str) -> None:
    # as compare("golf", rules=["golf.jokers"]) asks what jokers do, this asks what a cap of 3 does
    result = cardcore.compare(
        "golf", rules=[cap], options={"round_cap": 3, "rounds": 1}, games=2, skill=None
    )
    assert result.a.options["round_cap"] == 3 and "round_cap" not in result.b.options


def test_cli_compare_a_rule_with_its_option_against_the_base_game(
    cap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["compare", "golf", "--rules", cap, "-o", "round_cap=3", "-o", "rounds=1"]
    assert cli_main([*args, "--games", "2", "--skill", "none"]) == 0, capsys.readouterr().err


# -- default rules with options -----------------------------------------------------------------


def test_an_option_of_a_switched_off_default_rule_says_it_is_switched_off(golfd: str) -> None:
    with pytest.raises(OptionError) as err:
        cardcore.new_game(golfd, 2, without=["golfd.cap"], options={"round_cap": 3})
    text = str(err.value)
    assert "golfd.cap" in text
    assert "without" in text or "switched off" in text, text


def test_the_advice_of_that_hint_is_refused(golfd: str) -> None:
    # following "choose the rule (rules=['golfd.cap'])" while switching it off does not work
    with pytest.raises(CardcoreError, match="both asked for and switched off"):
        cardcore.new_game(
            golfd, 2, rules=["golfd.cap"], without=["golfd.cap"], options={"round_cap": 3}
        )


def test_a_game_whose_default_rule_reads_its_option_in_the_deck_starts_at_every_seat_count(
    golfe: str,
) -> None:
    for players in (2, 4, 8, 64):
        cardcore.new_game(golfe, players, seed=1)
    game = cardcore.new_game(golfe, 2, seed=1)
    assert len(game.logic.deck(2, game.options)) == 2 * len(
        cardcore.new_game("golf", 2).logic.deck(2, {})
    )


def test_cardcore_list_counts_the_seats_of_a_game_whose_default_rule_has_options(
    golfe: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "240")
    assert cli_main(["list", golfe]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if f" {golfe} " in line)
    assert "2-64" in row and "by option" not in row, row


def test_the_kit_checks_every_seat_count_of_a_game_whose_default_rule_has_options(
    golfe: str,
) -> None:
    golf = [c.players for c in configurations("golf") if not (c.options or c.rules or c.without)]
    mine = [c.players for c in configurations(golfe) if not (c.options or c.rules or c.without)]
    assert golf == [2, 4, 8] and mine == golf


def test_the_kit_checks_each_choice_of_a_default_rules_option() -> None:
    choice = Option("round_cap", default=10, choices=(5, 10, 20))
    cardcore.register("cardcore.games", "golfc", _golf_copy("golfc", ("golfc.cap",)))
    cardcore.register(
        "cardcore.rules", "golfc.cap", _rule("golfc.cap", choice, rule_id="GC-CAP-1", game="golfc")
    )
    try:
        chosen = {c.options for c in configurations("golfc")}
        assert (("round_cap", 5),) in chosen and (("round_cap", 20),) in chosen
    finally:
        cardcore.unregister("cardcore.rules", "golfc.cap")
        cardcore.unregister("cardcore.games", "golfc")


# -- built-in games unaffected ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
def test_built_in_games_resolve_as_their_declarations_do(name: str) -> None:
    info = cardcore.game_info(name)
    ruleset = cardcore.get_ruleset(name)
    assert ruleset.options == info.options  # a rule's own options join only when it is chosen
    own = {r: cardcore.rule_info(r).options for r in cardcore.available_rules(name)}
    assert {r for r, o in own.items() if o} <= {"golf.bonus-card"}  # GOLF-SCORE-10's bonus_card
    if name == "golf":
        assert [o.name for o in own["golf.bonus-card"]] == ["bonus_card"]
    assert dict(ruleset.resolve_options(None)) == dict(info.resolve_options(None))
    players = info.min_players if info.min_players > 1 else 2
    assert dict(cardcore.new_game(name, players, seed=1).options) == dict(
        info.resolve_options(None)
    )


def test_tonks_first_dealer_refusal_cites_its_rule() -> None:
    with pytest.raises(OptionError, match=r"seat from 0 to 1, not 3 \(TONK-DEALER-1\)"):
        cardcore.new_game("tonk", 2, options={"first_dealer": 3})


def test_an_unknown_golf_option_names_no_rule_without_rule_options_installed() -> None:
    with pytest.raises(OptionError) as err:
        cardcore.new_game("golf", 2, options={"layuot": 6})
    assert str(err.value).endswith("(it accepts: dealer, layout, max_turns, points_limit, rounds)")


def test_parse_options_reads_a_rule_option_before_the_rule_is_chosen(cap: str) -> None:
    assert parse_options("golf", ["round_cap=7", "rounds=2"]) == {"round_cap": 7, "rounds": 2}


# -- a rule option of unhashable values ---------------------------------------------------------


@pytest.mark.parametrize(
    "option",
    [
        Option("cap", default=[1], kind=object, doc="a list"),
        Option("cap", default=[1], kind=object, choices=([1], [2]), doc="lists"),
    ],
    ids=["default", "choices"],
)
def test_a_rule_option_with_a_list_value_is_refused_naming_the_rule(option: Option) -> None:
    """An option's values must be hashable (options are looked up and compared as keys): a
    list is refused when the rule is declared, naming the rule, the option and its ID, so
    nothing downstream (a game, the web lobby) ever meets one."""
    with pytest.raises(PluginError) as err:
        _rule("golf.review-odd", option, rule_id="REV-ODD-1", hook=_reads_cap)
    text = str(err.value)
    assert "'golf.review-odd'" in text and "option 'cap'" in text
    assert "cannot be hashed (REV-ODD-1)" in text
