"""Meta-tests: every public name, hook, event and rule is documented and tested.

These read the code, the rule specs (``seeds/*.md``), the docs sources and the
test sources, and fail with the list of what is missing:

* a public name of ``cardcore.__all__`` without an entry in the docs;
* a core hook without ``.. hook::`` and ``.. autofunction::`` in ``docs/hooks.rst``,
  or without a test ``test_hook_<name>`` under ``tests/``;
* an event class without an entry in ``docs/events.rst``;
* a rule ID of ``seeds/*.md`` without a test named after it
  (``GOLF-SCORE-6`` -> ``test_golf_score_6_...`` or exactly ``test_golf_score_6``);
* a base-game module (any module of ``plugins/cardcore_<game>/`` outside
  ``house/``) that mentions a house rule's ID or entry-point name;
* a module of ``src/`` or ``plugins/`` over 600 lines, a ``# type: ignore`` in
  ``plugins/``, a game package without the common module names (Speed's
  subpackage included), a package ``__init__`` holding more than its docstring
  and version, a game reusing a core public name, a plugin importing deep core
  modules, and game test helpers outside ``tests/games/<game>/helpers.py``.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from functools import cache
from pathlib import Path
from types import ModuleType

import cardcore
from cardcore import Event, RuleInfo
from cardcore import hookspecs as core_hookspecs

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TESTS = ROOT / "tests"
PLUGINS = ROOT / "plugins"

RULE_ITEM = re.compile(r"^\s*[-*]\s+\*\*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\*\*", re.M)


@cache
def _docs_text() -> dict[str, str]:
    return {
        str(p.relative_to(DOCS)): p.read_text(encoding="utf-8")
        for p in DOCS.rglob("*.rst")
        if "_build" not in p.parts
    }


@cache
def _test_names() -> frozenset[str]:
    names: set[str] = set()
    for path in TESTS.rglob("*.py"):
        names.update(
            re.findall(r"^\s*(?:async\s+)?def\s+(test_\w+)", path.read_text(encoding="utf-8"), re.M)
        )
    return frozenset(names)


def _core_hooks() -> list[str]:
    return sorted(n for n in core_hookspecs.__all__ if n != "hookspec")


def _game_packages() -> list[Path]:
    return sorted(p for p in PLUGINS.glob("cardcore_*") if (p / "__init__.py").is_file())


def _modules(package: Path) -> list[ModuleType]:
    pkg = importlib.import_module(package.name)
    out = [pkg]
    for info in pkgutil.walk_packages(pkg.__path__, prefix=f"{package.name}."):
        out.append(importlib.import_module(info.name))
    return out


# -- public names ------------------------------------------------------------------------


def test_every_public_name_is_documented() -> None:
    text = "\n".join(_docs_text().values())
    missing = []
    for name in cardcore.__all__:
        pattern = (
            rf"^\s*\.\.\s+(?:auto\w+|py:\w+)::\s+(?:cardcore\.)?{re.escape(name)}(?:\(.*\))?\s*$"
        )
        if not re.search(pattern, text, re.M):
            missing.append(name)
    assert not missing, f"public names without a docs entry (api.rst or events.rst): {missing}"


def test_every_testing_kit_name_is_documented() -> None:
    import cardcore.testing

    page = _docs_text()["plugin-guide/testing.rst"]
    missing = [
        name
        for name in cardcore.testing.__all__
        if not re.search(
            rf"^\.\.\s+(?:auto\w+|py:\w+)::\s+(?:cardcore\.testing\.)?{name}\s*$", page, re.M
        )
    ]
    assert not missing, (
        f"cardcore.testing names without an entry in docs/plugin-guide/testing.rst: {missing}"
    )


# -- hooks --------------------------------------------------------------------------------


def test_every_core_hook_is_documented_in_hooks_rst() -> None:
    page = _docs_text()["hooks.rst"]
    missing = [
        name
        for name in _core_hooks()
        if not re.search(rf"^\.\. hook:: {name}\s*$", page, re.M)
        or not re.search(rf"^\.\. autofunction:: cardcore\.hookspecs\.{name}\s*$", page, re.M)
    ]
    assert not missing, (
        f"hooks without '.. hook::' + '.. autofunction::' in docs/hooks.rst: {missing}"
    )


def test_every_core_hook_has_a_test() -> None:
    missing = [name for name in _core_hooks() if f"test_hook_{name}" not in _test_names()]
    assert not missing, f"hooks without a test named test_hook_<name> under tests/: {missing}"


# -- events -------------------------------------------------------------------------------


def test_every_core_event_is_in_events_rst() -> None:
    page = _docs_text()["events.rst"]
    events = [
        name
        for name in cardcore.events.__all__
        if isinstance(getattr(cardcore.events, name), type)
        and issubclass(getattr(cardcore.events, name), Event)
    ]
    assert "Event" in events and "CardDrawn" in events
    missing = []
    for name in events:
        cls = getattr(cardcore.events, name)
        entry = re.search(rf"^(?:\s*)\.\. autoclass:: cardcore\.{name}\s*$", page, re.M)
        slug_ok = name == "Event" or f"``{cls.slug}``" in page
        if entry is None or not slug_ok:
            missing.append(f"{name} ({cls.slug})")
    assert not missing, (
        f"core events without an autoclass entry and slug in docs/events.rst: {missing}"
    )


def test_every_game_event_is_in_events_rst() -> None:
    page = _docs_text()["events.rst"]
    catalogued = set(re.findall(r"^\.\. event-catalogue:: (\S+)\s*$", page, re.M))
    missing = []
    for package in _game_packages():
        for module in _modules(package):
            for name, obj in vars(module).items():
                if not (
                    isinstance(obj, type)
                    and issubclass(obj, Event)
                    and obj.__module__ == module.__name__
                ):
                    continue
                if module.__name__ not in catalogued:
                    missing.append(f"{module.__name__}.{name}: module not in an event-catalogue")
                elif name not in getattr(module, "__all__", ()):
                    missing.append(f"{module.__name__}.{name}: not in the module's __all__")
    assert not missing, f"game events not listed in docs/events.rst: {missing}"


# -- rule IDs -----------------------------------------------------------------------------


def _rule_ids() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in sorted((ROOT / "seeds").glob("*.md")):
        out[path.name] = RULE_ITEM.findall(path.read_text(encoding="utf-8"))
    return out


def _test_prefix(rule_id: str) -> str:
    return "test_" + rule_id.lower().replace("-", "_")


def test_rule_ids_are_found_in_the_seeds() -> None:
    ids = _rule_ids()
    assert "core.md" in ids and len(ids["core.md"]) >= 10
    every = [i for found in ids.values() for i in found]
    duplicates = sorted({i for i in every if every.count(i) > 1})
    assert not duplicates, f"rule IDs defined twice in seeds/*.md: {duplicates}"


def test_every_rule_id_has_a_test_named_after_it() -> None:
    names = _test_names()
    missing: dict[str, list[str]] = {}
    for spec, ids in _rule_ids().items():
        for rule_id in ids:
            prefix = _test_prefix(rule_id)
            if not any(n == prefix or n.startswith(prefix + "_") for n in names):
                missing.setdefault(spec, []).append(rule_id)
    report = "; ".join(f"{spec}: {', '.join(ids)}" for spec, ids in missing.items())
    assert not missing, f"rule IDs without a test named test_<id>_...: {report}"


# -- house rules stay out of the base game ------------------------------------------------


def _house_rules(package: Path) -> list[RuleInfo]:
    house = package / "house"
    rules = []
    for path in sorted(house.glob("*.py")):
        if path.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package.name}.house.{path.stem}")
        rule = getattr(module, "RULE", None)
        assert isinstance(rule, RuleInfo), (
            f"{package.name}/house/{path.name} has no RULE = RuleInfo(...)"
        )
        rules.append(rule)
    return rules


def _mentions(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w-])", text) is not None


def test_base_game_modules_do_not_mention_house_rules() -> None:
    problems = []
    for package in _game_packages():
        rules = _house_rules(package)
        for path in sorted(package.rglob("*.py")):
            rel = path.relative_to(package)
            if rel.parts[0] == "house":
                continue
            text = path.read_text(encoding="utf-8")
            # A game may switch a house rule on by default: GameInfo(default_rules=("tonk.natural-49-50",))
            text = re.sub(r"default_rules\s*=\s*\([^)]*\)", "default_rules=()", text)
            for rule in rules:
                for word in (rule.id, rule.name):
                    if _mentions(text, word):
                        problems.append(f"{package.name}/{rel} mentions {word!r}")
    assert not problems, "base-game modules mention house rules: " + "; ".join(problems)


def test_meta_checks_can_fail() -> None:
    """The patterns above really match what they look for."""
    assert _test_prefix("GOLF-SCORE-6") == "test_golf_score_6"
    assert _test_prefix("GOLF9-4") == "test_golf9_4"
    assert _mentions("see GOLF-SCORE-4 here", "GOLF-SCORE-4")
    assert not _mentions("see GOLF-SCORE-40 here", "GOLF-SCORE-4")
    assert _mentions('rules=["golf.jokers"]', "golf.jokers")
    assert not _mentions("golf.jokers-extra", "golf.jokers")
    assert RULE_ITEM.findall("- **CORE-SEAT-1** A seat ...\n  - **GOLF4H-1** x") == [
        "CORE-SEAT-1",
        "GOLF4H-1",
    ]


# -- one shape for every game, small modules ----------------------------------------------

MAX_LINES = 600
"""No module in ``src/`` or ``plugins/`` may be longer (``wc -l``)."""

GAME_MODULES = frozenset(
    {
        "rules",
        "hookspecs",
        "actions",
        "events",
        "state",
        "logic",
        "views",
        "position",
        "agents",
        "encoding",  # the learning environments' fixed action set and planes (cardcore.rl)
        "search",  # positions sampled from a seat's view (cardcore.search)
        "timeouts",  # the default action when a seat's clock runs out (cardcore.session)
    }
)
"""The modules every game package has, with the same roles (``house/`` besides)."""

SPEED_MODULES = frozenset({"rules", "actions", "state", "logic", "views", "position"})
"""The modules Speed (``cardcore_spit/speed/``) has: those it needs beyond Spit's."""

BUILDING_BLOCKS = (
    "cardcore.turns",
    "cardcore.dealing",
    "cardcore.notation",
    "cardcore.positions",
    "cardcore.testing",
)
"""The core modules a plugin may import besides ``cardcore`` itself."""


def _source_modules() -> list[Path]:
    return sorted(
        p
        for root in (ROOT / "src", PLUGINS)
        for p in root.rglob("*.py")
        if "__pycache__" not in p.parts
    )


def _line_count(path: Path) -> int:
    return len(path.read_bytes().splitlines())


def test_no_module_over_600_lines() -> None:
    long = {
        str(p.relative_to(ROOT)): n for p in _source_modules() if (n := _line_count(p)) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines (split them): {long}"


def test_no_type_ignore_in_plugins() -> None:
    found = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in sorted(PLUGINS.rglob("*.py"))
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"#\s*type:\s*ignore", line)
    ]
    assert not found, f"'# type: ignore' in plugins (type the game instead): {found}"


def _module_names(package: Path) -> set[str]:
    return {p.stem for p in package.glob("*.py") if p.stem != "__init__"}


def test_every_game_package_has_the_same_module_names() -> None:
    problems = []
    packages = _game_packages()
    assert {p.name for p in packages} >= {"cardcore_golf", "cardcore_tonk", "cardcore_spit"}
    for package in packages:
        missing = sorted(GAME_MODULES - _module_names(package))
        if missing:
            problems.append(f"{package.name} lacks {missing}")
        if not (package / "house" / "__init__.py").is_file():
            problems.append(f"{package.name} has no house/ package")
    speed = PLUGINS / "cardcore_spit" / "speed"
    if not (speed / "__init__.py").is_file():
        problems.append("Speed is not the subpackage cardcore_spit/speed/")
    else:
        missing = sorted(SPEED_MODULES - _module_names(speed))
        if missing:
            problems.append(f"cardcore_spit/speed lacks {missing}")
        extra = sorted(_module_names(speed) - GAME_MODULES)
        if extra:
            problems.append(f"cardcore_spit/speed has modules no game package has: {extra}")
    assert not problems, "; ".join(problems)


def test_helpers_of_a_game_package_are_named_for_what_they_hold() -> None:
    vague = {"game", "table", "util", "utils", "helpers", "common", "misc", "agent", "core"}
    found = [
        f"{package.name}/{name}.py"
        for package in [*_game_packages(), PLUGINS / "cardcore_spit" / "speed"]
        for name in sorted(_module_names(package) & vague)
    ]
    assert not found, f"modules with a vague or old name (one shape: see style.md): {found}"


def _top_level_names(tree: ast.Module) -> dict[str, ast.stmt]:
    out: dict[str, ast.stmt] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            out[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
    return out


def test_game_package_init_holds_a_docstring_and_version_only() -> None:
    problems = []
    for package in [*_game_packages(), PLUGINS / "cardcore_spit" / "speed"]:
        tree = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
        body = [
            n for n in tree.body if not (isinstance(n, ast.ImportFrom) and n.module == "__future__")
        ]
        if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)):
            problems.append(f"{package.name}/__init__.py has no docstring")
        names = [set(_top_level_names(ast.Module([n], []))) for n in body[1:]]
        extra = [n for n in names if not n or not n <= {"__version__", "__all__"}]
        if extra:
            problems.append(
                f"{package.relative_to(PLUGINS)}/__init__.py holds more than __version__"
            )
    assert not problems, "; ".join(problems)


def test_no_game_reuses_a_core_public_name() -> None:
    core = set(cardcore.__all__)
    found = []
    for path in sorted(PLUGINS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name, node in _top_level_names(tree).items():
            if name in core and not name.startswith("__"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} defines {name!r}")
    assert not found, f"game modules reuse core public names for something else: {found}"


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
    return out


def test_plugins_import_the_core_through_its_public_api() -> None:
    allowed = {"cardcore", *BUILDING_BLOCKS}
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted(PLUGINS.rglob("*.py"))
        for line, module in _imports(path)
        if (module == "cardcore" or module.startswith("cardcore.")) and module not in allowed
    ]
    assert not found, f"plugins import deep core modules (use `from cardcore import ...`): {found}"


def test_every_game_has_its_test_helpers_in_one_place() -> None:
    problems = []
    for tests in sorted((TESTS / "games").iterdir()):
        if not tests.is_dir() or tests.name.startswith(("_", ".")):
            continue
        if not (tests / "__init__.py").is_file():
            problems.append(f"tests/games/{tests.name} has no __init__.py")
        helpers = sorted(p.name for p in tests.glob("*kit.py") if not p.name.startswith("test_"))
        if helpers:
            problems.append(
                f"tests/games/{tests.name}: test helpers go in helpers.py, not {helpers}"
            )
        for path in sorted(tests.glob("*.py")):
            if re.search(
                r"^def (assert_conserved|_?conserved|_?check_conservation)\(",
                path.read_text(encoding="utf-8"),
                re.M,
            ):
                problems.append(
                    f"{path.relative_to(ROOT)} re-implements card conservation (use cardcore.testing)"
                )
    assert not problems, "; ".join(problems)


def test_the_core_has_one_json_helper() -> None:
    """``cardcore.jsonable`` is the core's only JSON conversion helper (``to_json`` methods aside)."""
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
        for path in sorted((ROOT / "src" / "cardcore").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef)
        and "json" in node.name.lower()
        and node.name not in ("to_json", "jsonable")
    ]
    assert not found, f"JSON helpers beside cardcore.jsonable: {found}"


def test_shape_checks_can_fail(tmp_path: Path) -> None:
    """The shape checks above really see what they look for."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from cardcore.game import Game\nimport cardcore.turns\nclass Layout:\n    pass\n"
    )
    assert _imports(bad) == [(1, "cardcore.game"), (2, "cardcore.turns")]
    assert set(_top_level_names(ast.parse(bad.read_text()))) == {"Layout"}
    assert _line_count(bad) == 4
    assert re.search(r"#\s*type:\s*ignore", "x = 1  # type: ignore[assignment]")
