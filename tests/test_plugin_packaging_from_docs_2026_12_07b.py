"""A new user packages a game and a house rule as installable distributions, following
docs/plugin-guide/{index,entry-points,migration,game}.rst alone, and checks their claims.

hatchling is not installed (and there is no network), so no wheel can be built: each
distribution is laid out as pip would install it -- the package plus a
``<name>-<version>.dist-info`` with ``METADATA`` and ``entry_points.txt`` -- in a temporary
site directory put on ``PYTHONPATH`` of a child process (entry points are read once per
process, so an installed plugin is only seen by a fresh interpreter). One child process
runs every probe once per module and reports JSON; the tests read its answers.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import cardcore

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "plugin-guide"

# --- the distributions -----------------------------------------------------------------

KINGS = '''\
"""TPDRAW-VAR-1: kings score 0; tpdraw's own default before 1.1.0."""
from cardcore import Card, RuleInfo, hookimpl

RULE = RuleInfo("TPDRAW-VAR-1", "tpdraw.kings-free", "tpdraw", "kings score 0",
                version="1.0.0", default_before="1.1.0")


@hookimpl
def card_points(card: Card) -> int | None:
    return 0 if card.label == "K" else None
'''

MULTI = '''\
"""TPDRAW-VAR-3: tpdraw's default in matches (rounds 2 or 3) before 1.1.0."""
from cardcore import Card, RuleInfo, hookimpl

RULE = RuleInfo("TPDRAW-VAR-3", "tpdraw.multi", "tpdraw", "only in matches", version="1.0.0",
                default_before="1.1.0", applies={"rounds": (2, 3)})


@hookimpl
def card_points(card: Card) -> int | None:
    return None
'''

FUTURE = """\
from cardcore import RuleInfo

RULE = RuleInfo("TPDRAW-VAR-2", "tpdraw.future", "tpdraw", "a default the game has not reached",
                version="1.0.0", default_before="2.0.0")
"""

OUTSIDER = """\
from cardcore import RuleInfo

RULE = RuleInfo("TPOUT-1", "tpdraw.outsider", "tpdraw", "from another package",
                version="1.0.0", default_before="1.1.0")
"""

TWIN = """\
from cardcore import RuleInfo

RULE = RuleInfo("TWIN-1", "tpdraw.twin-{x}", "tpdraw", "one ID, two rules", version="1.0.0")
"""

WRONG_NAME = """\
from cardcore import RuleInfo

RULE = RuleInfo("WRONG-1", "golf.right-name", "golf", "declared under another name")
"""

AGENT = '''\
class FirstAgent:
    """Plays the first legal action."""

    def __init__(self, seed=None):
        self.seed = seed

    def act(self, view, legal):
        return legal[0]
'''

EVIL = """\
from cardcore import RuleInfo

RULE = RuleInfo("EVIL-1", "nsdraw.evil", "nsdraw", "shipped by another distribution",
                version="1.0.0", default_before="1.1.0")
"""

TYPO = """\
from cardcore import RuleInfo, hookimpl

RULE = RuleInfo("TYPO-1", "golf.typo", "golf", "a misspelt hook")


@hookimpl
def forbid_actoin(state, seat, action):
    return None
"""

OPTIONAL = """\
from cardcore import RuleInfo, hookimpl

RULE = RuleInfo("OPT-1", "golf.optional", "golf", "a hook only some games declare")


@hookimpl(optionalhook=True)
def some_other_games_hook(state):
    return None
"""

BADSCORE = """\
from cardcore import RuleInfo, hookimpl

RULE = RuleInfo("BADSCORE-1", "tpdraw.badscore", "tpdraw", "answers one score too few")


@hookimpl
def score_round(state, scores):
    return list(scores)[:-1]
"""

ORPHAN = """\
from cardcore import RuleInfo

RULE = RuleInfo("ORPHAN-1", "chess.castle", "chess", "a rule for a game not installed")
"""

DUP = """\
from cardcore import RuleInfo

RULE = RuleInfo("DUP-{x}", "tpdraw.dup", "tpdraw", "first on sys.path wins", version="1.0.0")
"""

PROBE = r"""
import json, sys, traceback
import cardcore
from cardcore import CardcoreError

out = {}
def probe(key, fn):
    try:
        out[key] = {"ok": fn()}
    except Exception as exc:
        out[key] = {"error": type(exc).__name__, "text": str(exc)}

probe("games", lambda: list(cardcore.available_games()))
out["imported_at_start"] = [m for m in ("tp_draw.rules", "tp_broken.importerr") if m in sys.modules]
probe("golf_rules", lambda: list(cardcore.available_rules("golf")))
probe("tpdraw_rules", lambda: list(cardcore.available_rules("tpdraw")))
probe("snowman_info", lambda: [cardcore.rule_info("golf.snowman").id, cardcore.rule_info("golf.snowman").version])
probe("snowman_by_id", lambda: cardcore.rule_info("SNOWMAN-1").name)

def play_snowman():
    g = cardcore.new_game("golf", 4, rules=["golf.snowman"], seed=7)
    return [list(g.rules), g.record()["rules"]]
probe("snowman_game", play_snowman)

def play_tpdraw():
    g = cardcore.new_game("tpdraw", 2, seed=3)
    seat = g.to_act[0]
    g.apply(g.legal_actions(seat)[0])
    rec = g.record()
    return {"rules": list(g.rules), "version": g.version, "game": rec["game"],
            "game_version": rec["game_version"], "info_version": cardcore.game_info("tpdraw").version}
probe("tpdraw_game", play_tpdraw)
probe("tpdraw_by_id", lambda: list(cardcore.new_game("tpdraw", 2, rules=["TPDRAW-VAR-1"], seed=3).rules))

probe("earlier_100", lambda: list(cardcore.earlier_rules("tpdraw", "1.0.0")))
probe("earlier_110", lambda: list(cardcore.earlier_rules("tpdraw", "1.1.0")))
probe("earlier_120", lambda: list(cardcore.earlier_rules("tpdraw", "1.2.0")))

def old_record():
    g = cardcore.new_game("tpdraw", 2, options={"rounds": 2}, seed=3)
    for _ in range(3):
        seat = g.to_act[0]
        g.apply(g.legal_actions(seat)[0])
    rec = g.record()
    rec["game_version"] = "1.0.0"
    old = cardcore.replay(rec)
    now = cardcore.replay(g.record())
    data = g.save()
    data["record"]["game_version"] = "1.0.0"
    loaded = cardcore.load(data)
    return {"old": list(old.rules), "now": list(now.rules), "loaded": list(loaded.rules),
            "same_views": old.view(0)["table"]["phase"] == g.view(0)["table"]["phase"]}
probe("old_record", old_record)

def old_record_rounds1():
    g = cardcore.new_game("tpdraw", 2, seed=3)
    g.apply(g.legal_actions(g.to_act[0])[0])
    rec = g.record()
    rec["game_version"] = "1.0.0"
    return list(cardcore.replay(rec).rules)
probe("old_record_rounds1", old_record_rounds1)
probe("multi_applies", lambda: cardcore.new_game("tpdraw", 2, rules=["tpdraw.multi"], seed=1) and None)

def other_major():
    g = cardcore.new_game("tpdraw", 2, seed=3)
    rec = g.record()
    rec["game_version"] = "0.9.0"
    cardcore.replay(rec)
probe("other_major", other_major)

probe("import_error_game", lambda: cardcore.new_game("tpbroken-import", 2, seed=1) and None)
probe("import_error_info", lambda: cardcore.game_info("tpbroken-import") and None)
probe("no_game", lambda: cardcore.new_game("tpbroken-nogame", 2, seed=1) and None)
probe("no_game_info", lambda: cardcore.game_info("tpbroken-nogame") and None)
probe("import_error_rule", lambda: cardcore.rule_info("golf.broken-import") and None)
probe("wrong_name_rule", lambda: cardcore.rule_info("golf.wrong-name") and None)
probe("wrong_name_game", lambda: cardcore.new_game("golf", 2, rules=["golf.wrong-name"], seed=1) and None)
probe("no_rule", lambda: cardcore.rule_info("golf.norule") and None)
probe("unknown", lambda: cardcore.new_game("golf", 2, rules=["golf.nonesuch"], seed=1) and None)
probe("twin_by_id", lambda: cardcore.new_game("tpdraw", 2, rules=["TWIN-1"], seed=1) and None)
probe("twin_by_name", lambda: list(cardcore.new_game("tpdraw", 2, rules=["tpdraw.twin-a"], seed=1).rules))
probe("dup", lambda: cardcore.rule_info("tpdraw.dup").id)
probe("golf_after", lambda: cardcore.new_game("golf", 2, rules=["golf.jokers"], seed=1).rules)
probe("alias_game", lambda: cardcore.new_game("tpdraw-alias", 2, seed=1) and None)
probe("alias_info", lambda: cardcore.game_info("tpdraw-alias") and None)
probe("twins_both", lambda: cardcore.new_game("tpdraw", 2, rules=["tpdraw.twin-a", "tpdraw.twin-b"], seed=1) and None)
probe("typo", lambda: cardcore.new_game("golf", 2, rules=["golf.typo"], seed=1) and None)
probe("optional", lambda: list(cardcore.new_game("golf", 2, rules=["golf.optional"], seed=1).rules))
probe("prerelease", lambda: [list(cardcore.earlier_rules("tpdraw", v)) for v in ("1.1.0a1", "1.1.0.dev1", "1.0.9.post1", "1.1.0.post1")])

def badscore():
    g = cardcore.new_game("tpdraw", 2, rules=["tpdraw.badscore"], seed=3)
    for _ in range(500):
        if g.is_over:
            return "finished"
        g.apply(g.legal_actions(g.to_act[0])[0])
    return "not over"
probe("badscore", badscore)

def rule_major():
    g = cardcore.new_game("golf", 2, rules=["golf.snowman"], seed=7)
    rec = g.record()
    rec["rules"][0]["version"] = "2.0.0"
    cardcore.replay(rec)
probe("rule_major", rule_major)

def hidden():
    import cardcore_golf_snowman as module
    g = cardcore.new_game("golf", 2, rules=["golf.snowman"], seed=7)
    rec = g.record()
    cardcore.unregister("cardcore.rules", "golf.snowman")  # hides the installed one
    res = {}
    g.apply(g.legal_actions(g.to_act[0])[0])
    res["plays_on"] = g.version
    for key, fn in (("replay", lambda: cardcore.replay(rec)), ("new", lambda: cardcore.new_game("golf", 2, rules=["golf.snowman"], seed=7))):
        try:
            fn()
            res[key] = "ok"
        except Exception as exc:
            res[key] = [type(exc).__name__, "golf.snowman" in str(exc)]
    cardcore.register("cardcore.rules", "golf.snowman", module)
    res["back"] = list(cardcore.replay(rec).rules)
    cardcore.unregister("cardcore.rules", "golf.snowman")
    return res
probe("hidden", hidden)
probe("agents", lambda: list(cardcore.available_agents()))
probe("agent", lambda: [cardcore.load_agent("tpdraw-first").__name__, cardcore.load_agent("tpdraw-first", seed=3).seed])
probe("ns_rules", lambda: list(cardcore.available_rules("nsdraw")))
probe("ns_earlier", lambda: list(cardcore.earlier_rules("nsdraw", "1.0.0")))

def ns_old_record():
    g = cardcore.new_game("nsdraw", 2, seed=3)
    g.apply(g.legal_actions(g.to_act[0])[0])
    rec = g.record()
    rec["game_version"] = "1.0.0"
    return list(cardcore.replay(rec).rules)
probe("ns_old_record", ns_old_record)
print("@@JSON@@" + json.dumps(out, default=str))
"""


def _dist(site: Path, name: str, version: str, entry_points: str) -> None:
    info = site / f"{name}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))
    (info / "RECORD").write_text("")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two site directories (the first first on sys.path) holding the distributions."""
    first = tmp_path_factory.mktemp("site_a")
    second = tmp_path_factory.mktemp("site_b")
    # a game distribution: the test drawgame, published as "tpdraw" 1.2.0, with its house rules
    game_src = (ROOT / "tests" / "plugins" / "drawgame.py").read_text()
    game_src = game_src.replace(
        '    name="drawgame",\n', '    name="tpdraw",\n    version="1.2.0",\n', 1
    )
    assert 'name="tpdraw"' in game_src
    _write(first / "tp_draw" / "__init__.py", '__version__ = "1.2.0"\n')
    _write(first / "tp_draw" / "rules.py", game_src)
    _write(first / "tp_draw" / "house" / "__init__.py", "")
    _write(first / "tp_draw" / "house" / "kings.py", KINGS)
    _write(first / "tp_draw" / "house" / "future.py", FUTURE)
    _write(first / "tp_draw" / "house" / "multi.py", MULTI)
    _write(first / "tp_draw" / "agent.py", AGENT)
    # a game in a namespace package (no __init__.py in acmens), and a house rule that
    # another distribution ships into the same namespace
    ns_src = game_src.replace('name="tpdraw"', 'name="nsdraw"', 1)
    _write(first / "acmens" / "draw" / "__init__.py", "")
    _write(first / "acmens" / "draw" / "rules.py", ns_src)
    _dist(first, "acme_draw", "1.2.0", "[cardcore.games]\nnsdraw = acmens.draw.rules\n")
    _write(second / "acmens" / "evil.py", EVIL)
    _dist(second, "acme_evil", "0.1.0", "[cardcore.rules]\nnsdraw.evil = acmens.evil\n")
    _dist(
        first,
        "tp_draw",
        "1.2.0",
        """\
        [cardcore.games]
        tpdraw = tp_draw.rules

        [cardcore.rules]
        tpdraw.kings-free = tp_draw.house.kings
        tpdraw.future = tp_draw.house.future
        tpdraw.multi = tp_draw.house.multi

        [cardcore.agents]
        tpdraw-first = tp_draw.agent:FirstAgent
        """,
    )
    # the documented third-party house rule, its module copied as published
    snow = ROOT / "examples" / "third_party_plugin" / "cardcore_golf_snowman" / "__init__.py"
    _write(first / "cardcore_golf_snowman" / "__init__.py", snow.read_text())
    _dist(
        first,
        "cardcore_golf_snowman",
        "1.0.0",
        """\
        [cardcore.rules]
        golf.snowman = cardcore_golf_snowman
        """,
    )
    # broken and odd distributions
    _write(first / "tp_broken" / "__init__.py", "")
    _write(first / "tp_broken" / "importerr.py", "import no_such_module_for_cardcore_tests\n")
    _write(first / "tp_broken" / "nogame.py", '"""Neither GAME nor RULE."""\n')
    _write(first / "tp_broken" / "wrongname.py", WRONG_NAME)
    _write(first / "tp_broken" / "outsider.py", OUTSIDER)
    _write(first / "tp_broken" / "twin_a.py", TWIN.replace("{x}", "a"))
    _write(first / "tp_broken" / "twin_b.py", TWIN.replace("{x}", "b"))
    _write(first / "tp_broken" / "dup_a.py", DUP.replace("{x}", "A"))
    _write(first / "tp_broken" / "typo.py", TYPO)
    _write(first / "tp_broken" / "optional.py", OPTIONAL)
    _write(first / "tp_broken" / "badscore.py", BADSCORE)
    _write(first / "tp_broken" / "orphan.py", ORPHAN)
    _dist(
        first,
        "tp_broken",
        "0.1.0",
        """\
        [cardcore.games]
        tpbroken-import = tp_broken.importerr
        tpbroken-nogame = tp_broken.nogame
        tpdraw-alias = tp_draw.rules

        [cardcore.rules]
        golf.broken-import = tp_broken.importerr
        golf.wrong-name = tp_broken.wrongname
        golf.norule = tp_broken.nogame
        tpdraw.outsider = tp_broken.outsider
        tpdraw.twin-a = tp_broken.twin_a
        tpdraw.twin-b = tp_broken.twin_b
        tpdraw.dup = tp_broken.dup_a
        golf.typo = tp_broken.typo
        golf.optional = tp_broken.optional
        tpdraw.badscore = tp_broken.badscore
        chess.castle = tp_broken.orphan
        """,
    )
    _write(second / "tp_dup" / "__init__.py", "")
    _write(second / "tp_dup" / "dup_b.py", DUP.replace("{x}", "B"))
    _dist(
        second,
        "tp_dup",
        "0.1.0",
        """\
        [cardcore.rules]
        tpdraw.dup = tp_dup.dup_b
        """,
    )
    return [first, second]


def _env(sites: list[Path]) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(str(s) for s in sites)
    env["COLUMNS"] = "200"
    env.pop("PYTHONSTARTUP", None)
    return env


@pytest.fixture(scope="module")
def probed(sites: list[Path]) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE], env=_env(sites), capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.split("@@JSON@@", 1)[1])


@pytest.fixture(scope="module")
def listed(sites: list[Path]) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("cardcore")
    return subprocess.run(
        [str(exe), "list"], env=_env(sites), capture_output=True, text=True, timeout=60
    )


def ok(probed: dict[str, Any], key: str) -> Any:
    answer = probed[key]
    assert "ok" in answer, answer
    return answer["ok"]


# --- discovery --------------------------------------------------------------------------


def test_installed_game_is_listed_with_the_built_in_ones(probed: dict[str, Any]) -> None:
    games = ok(probed, "games")
    assert {"golf", "tonk", "spit", "speed", "tpdraw"} <= set(games)
    assert games == sorted(games)


def test_plugin_modules_are_not_imported_at_start_up(probed: dict[str, Any]) -> None:
    # "a plugin module is imported when first needed ..., never at start-up"
    assert probed["imported_at_start"] == []


def test_installed_house_rules_are_listed_per_game(probed: dict[str, Any]) -> None:
    golf = ok(probed, "golf_rules")
    assert "golf.snowman" in golf and "golf.jokers" in golf
    # a broken or misnamed rule costs the others nothing: it is just left out
    assert not {"golf.broken-import", "golf.wrong-name", "golf.norule"} & set(golf)
    tpdraw = ok(probed, "tpdraw_rules")
    assert {"tpdraw.kings-free", "tpdraw.twin-a", "tpdraw.twin-b"} <= set(tpdraw)


def test_third_party_rule_info_found_by_name_and_by_id(probed: dict[str, Any]) -> None:
    assert ok(probed, "snowman_info") == ["SNOWMAN-1", "1.0.0"]
    assert ok(probed, "snowman_by_id") == "golf.snowman"


def test_installed_rule_plays_and_is_recorded_with_its_version(probed: dict[str, Any]) -> None:
    rules, recorded = ok(probed, "snowman_game")
    assert rules == ["golf.snowman"]
    assert recorded == [{"name": "golf.snowman", "id": "SNOWMAN-1", "version": "1.0.0"}]


def test_installed_game_plays_and_records_its_name_and_version(probed: dict[str, Any]) -> None:
    got = ok(probed, "tpdraw_game")
    assert got["rules"] == []
    assert got["version"] == 1
    assert got["game"] == "tpdraw"
    assert got["game_version"] == got["info_version"] == "1.2.0"


def test_rule_named_by_its_id(probed: dict[str, Any]) -> None:
    assert ok(probed, "tpdraw_by_id") == ["tpdraw.kings-free"]


def test_built_in_games_unaffected_by_broken_neighbours(probed: dict[str, Any]) -> None:
    assert ok(probed, "golf_after") == ["golf.jokers"]


# --- broken plugins -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    [
        "import_error_game",
        "import_error_info",
        "no_game",
        "no_game_info",
        "import_error_rule",
        "no_rule",
    ],
)
def test_broken_plugin_raises_plugin_error(probed: dict[str, Any], key: str) -> None:
    # "a module without GAME or RULE, or one that fails to import, raises PluginError"
    assert probed[key].get("error") == "PluginError", probed[key]


def test_import_error_names_the_plugin(probed: dict[str, Any]) -> None:
    assert "tpbroken-import" in probed["import_error_game"]["text"]
    assert "no_such_module_for_cardcore_tests" in probed["import_error_game"]["text"]


@pytest.mark.parametrize("key", ["wrong_name_rule", "wrong_name_game"])
def test_rule_whose_names_differ_is_refused_on_first_load(probed: dict[str, Any], key: str) -> None:
    assert probed[key].get("error") == "PluginError", probed[key]
    assert "golf.wrong-name" in probed[key]["text"]


def test_unknown_name_lists_what_is_installed(probed: dict[str, Any]) -> None:
    answer = probed["unknown"]
    assert answer.get("error") == "UnknownPluginError", answer
    assert "golf.snowman" in answer["text"] and "golf.jokers" in answer["text"]


def test_rule_id_declared_twice_refused_by_id_but_each_name_works(probed: dict[str, Any]) -> None:
    assert probed["twin_by_id"].get("error") == "PluginError", probed["twin_by_id"]
    assert ok(probed, "twin_by_name") == ["tpdraw.twin-a"]


def test_entry_point_name_declared_twice_first_on_sys_path_wins(probed: dict[str, Any]) -> None:
    assert ok(probed, "dup") == "DUP-A"


# --- cardcore list ------------------------------------------------------------------------


def test_cardcore_list_shows_installed_game_and_rule(
    listed: subprocess.CompletedProcess[str],
) -> None:
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"\btpdraw\b", listed.stdout)
    assert "golf.snowman" in listed.stdout
    assert "tpdraw.kings-free" in listed.stdout
    assert "golf.jokers" in listed.stdout


def test_cardcore_list_names_broken_plugins_on_stderr(
    listed: subprocess.CompletedProcess[str],
) -> None:
    assert listed.returncode == 0
    for name in (
        "tpbroken-import",
        "tpbroken-nogame",
        "golf.broken-import",
        "golf.wrong-name",
        "golf.norule",
    ):
        assert name in listed.stderr, name
        assert not re.search(rf"(?m)^\W*{re.escape(name)}\b", listed.stdout), name


# --- versions: default_before, earlier_rules, older records --------------------------------


def test_earlier_rules_counts_own_package_rules_for_reached_versions(
    probed: dict[str, Any],
) -> None:
    # tpdraw.outsider (another package) and tpdraw.future (2.0.0, not reached) never count
    assert ok(probed, "earlier_100") == ["tpdraw.kings-free", "tpdraw.multi"]
    assert ok(probed, "earlier_110") == []
    assert ok(probed, "earlier_120") == []


def test_record_of_older_game_version_replays_with_the_rules_of_its_day(
    probed: dict[str, Any],
) -> None:
    got = ok(probed, "old_record")
    assert got["old"] == ["tpdraw.kings-free", "tpdraw.multi"]
    assert got["now"] == []
    assert got["loaded"] == ["tpdraw.kings-free", "tpdraw.multi"]
    assert got["same_views"]


def test_record_of_another_major_version_is_corrupt(probed: dict[str, Any]) -> None:
    assert probed["other_major"].get("error") == "CorruptStateError", probed["other_major"]


# --- the pages' examples --------------------------------------------------------------------


def _doctests(page: Path) -> str:
    """The text of every ``.. doctest::`` block of *page*, dedented, one after another."""
    out: list[str] = []
    lines = page.read_text().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith(".. doctest::"):
            i += 1
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("   ")):
                block.append(lines[i])
                i += 1
            out.append(textwrap.dedent("\n".join(block)))
        else:
            i += 1
    return "\n\n".join(out)


def _code_blocks(page: Path, lang: str = "python") -> list[str]:
    out: list[str] = []
    lines = page.read_text().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == f".. code-block:: {lang}":
            i += 1
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("   ")):
                block.append(lines[i])
                i += 1
            out.append(textwrap.dedent("\n".join(block)).strip())
        else:
            i += 1
    return out


@pytest.mark.parametrize("page", ["entry-points.rst", "migration.rst"])
def test_page_doctests_run_as_written(page: str) -> None:
    text = _doctests(DOCS / page)
    assert ">>>" in text
    test = doctest.DocTestParser().get_doctest(text, {}, page, str(DOCS / page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    try:
        runner.run(test, out=lambda s: None)
    finally:
        if "golf.snowman-here" in cardcore.plugins._entries()["cardcore.rules"]:
            cardcore.unregister("cardcore.rules", "golf.snowman-here")
    assert runner.failures == 0 and runner.tries > 0


def test_migration_gameinfo_example_builds() -> None:
    (block,) = [b for b in _code_blocks(DOCS / "migration.rst") if b.startswith("GAME = GameInfo(")]
    namespace: dict[str, Any] = {"GameInfo": cardcore.GameInfo, "ViewField": cardcore.ViewField}
    exec(block, namespace)
    game = namespace["GAME"]
    assert game.name == "mygame" and [f.name for f in game.fields] == ["turn", "totals"]


def test_entry_points_page_literalinclude_range_exists() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    start = text.index('[project.entry-points."cardcore.games"]')
    section = text[start : text.index("[tool.", start)]
    assert 'golf = "cardcore_golf.rules"' in section
    assert '"golf.jokers" = "cardcore_golf.house.jokers_minus_two"' in section
    assert '[project.entry-points."cardcore.agents"]' in section


def test_installed_names_equal_declared_names() -> None:
    # "The entry-point name and the declared name are one"
    for game in ("golf", "tonk", "spit", "speed"):
        assert cardcore.game_info(game).name == game
    for rule in cardcore.available_rules("golf"):
        assert cardcore.rule_info(rule).name == rule


def test_unregister_puts_the_installed_plugin_back() -> None:
    import types

    jokers = cardcore.rule_info("golf.jokers")
    fake = types.ModuleType("fake_jokers")
    fake.RULE = cardcore.RuleInfo(id="FAKE-1", name="golf.jokers", game="golf", summary="fake")  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "golf.jokers", fake)
    try:
        assert cardcore.rule_info("golf.jokers").id == "FAKE-1"
    finally:
        cardcore.unregister("cardcore.rules", "golf.jokers")
    assert cardcore.rule_info("golf.jokers") == jokers


@pytest.mark.parametrize("key", ["alias_game", "alias_info"])
def test_game_published_under_another_name_is_refused(probed: dict[str, Any], key: str) -> None:
    # game.rst: "a mismatch is a PluginError when the game is registered or first loaded"
    assert probed[key].get("error") == "PluginError", probed[key]
    assert "tpdraw-alias" in probed[key]["text"]


def test_choosing_both_rules_of_one_id_is_refused(probed: dict[str, Any]) -> None:
    assert probed["twins_both"].get("error") == "PluginError", probed["twins_both"]


def test_unknown_hook_name_is_refused_naming_the_closest(probed: dict[str, Any]) -> None:
    answer = probed["typo"]
    assert answer.get("error") == "PluginError", answer
    assert "forbid_actoin" in answer["text"] and "forbid_action" in answer["text"]


def test_optionalhook_unknown_to_the_game_is_accepted(probed: dict[str, Any]) -> None:
    assert ok(probed, "optional") == ["golf.optional"]


def test_earlier_rules_orders_pre_releases_before_their_release(probed: dict[str, Any]) -> None:
    assert ok(probed, "prerelease") == [["tpdraw.kings-free", "tpdraw.multi"]] * 3 + [[]]


def test_score_round_answer_of_wrong_length_is_a_plugin_error(probed: dict[str, Any]) -> None:
    answer = probed["badscore"]
    assert answer.get("error") == "PluginError", answer
    assert "tpdraw.badscore" in answer["text"]


def test_record_naming_another_major_rule_version_is_corrupt(probed: dict[str, Any]) -> None:
    assert probed["rule_major"].get("error") == "CorruptStateError", probed["rule_major"]


def test_removed_plugin_keeps_started_games_and_blocks_replay_until_back(
    probed: dict[str, Any],
) -> None:
    got = ok(probed, "hidden")
    assert got["plays_on"] == 1
    assert got["replay"] == ["CorruptStateError", True]
    assert got["new"][0] == "UnknownPluginError"
    assert got["back"] == ["golf.snowman"]


def test_cardcore_list_survives_a_rule_for_a_game_not_installed(
    listed: subprocess.CompletedProcess[str],
) -> None:
    assert listed.returncode == 0, listed.stderr
    assert "Traceback" not in listed.stderr


def test_installed_agent_is_listed_and_built_with_a_seed(probed: dict[str, Any]) -> None:
    assert "tpdraw-first" in ok(probed, "agents")
    assert ok(probed, "agent") == ["FirstAgent", 3]


def test_cardcore_list_shows_installed_agent(listed: subprocess.CompletedProcess[str]) -> None:
    assert "tpdraw-first" in listed.stdout
    assert "Plays the first legal action." in listed.stdout


def test_namespace_package_game_and_outside_rule_are_found(probed: dict[str, Any]) -> None:
    assert ok(probed, "ns_rules") == ["nsdraw.evil"]


def test_rule_from_another_distribution_in_a_namespace_package_is_not_the_games_own(
    probed: dict[str, Any],
) -> None:
    # RuleInfo.default_before: "only a rule shipped in the game's own package" counts;
    # acmens.evil is not in acmens.draw (the game's package) nor in its distribution
    assert ok(probed, "ns_earlier") == []
    assert ok(probed, "ns_old_record") == []


def test_option_default_before_written_as_an_alias_is_read_as_its_value() -> None:
    # game.rst: "a default (or default_before value) written as an alias is read as the value it names"
    option = cardcore.Option(
        "layout",
        "six",
        "grid",
        int,
        choices=(4, 6),
        aliases={"six": 6},
        default_before=("1.0.0", "six"),
    )
    assert option.default == 6
    assert option.default_before == ("1.0.0", 6)


def test_installed_rule_applicability_checked_and_listed(
    probed: dict[str, Any], listed: subprocess.CompletedProcess[str]
) -> None:
    # migration.rst: new_game refuses with an OptionError citing the rule ID; cardcore list shows it
    answer = probed["multi_applies"]
    assert answer.get("error") == "OptionError", answer
    assert "TPDRAW-VAR-3" in answer["text"]
    row = next(line for line in listed.stdout.splitlines() if "tpdraw.multi" in line)
    assert "rounds" in row and "2" in row and "3" in row


def test_old_record_outside_a_default_before_rules_applies_replays(probed: dict[str, Any]) -> None:
    # A 1.0.0 record of a 1-round game: tpdraw.multi (applies to rounds 2, 3) was never
    # in effect there, kings-free was; today the replay raises CorruptStateError instead
    assert ok(probed, "old_record_rounds1") == ["tpdraw.kings-free"]
