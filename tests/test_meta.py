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
  ``house/``) that mentions a house rule's ID or entry-point name.
"""

from __future__ import annotations

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
        pattern = rf"^\s*\.\.\s+(?:auto\w+|py:\w+)::\s+(?:cardcore\.)?{re.escape(name)}(?:\(.*\))?\s*$"
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
