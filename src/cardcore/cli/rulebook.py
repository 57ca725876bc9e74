"""A game's rule specification, as ``cardcore rules`` prints it (no rich).

A game ships its rules, each with its ID, as ``RULES.md`` in its package (a
game module ``pkg.sub.rules`` is looked up in ``pkg/sub/`` then ``pkg/``).
The file is found where the package lives (a wheel), or else among the files
its distribution installed (an editable install copies a file that the wheel
build maps into the package, such as hatch's ``force-include`` of
``seeds/golf.md`` as ``cardcore_golf/RULES.md``).

One file may cover several games: a level-2 heading naming the game
(``## Speed``) marks its part, shown after the file's opening paragraphs.
Opening paragraphs about where the rules came from are left out, and the tags
of the rules (``[S]``, ``[D]``...) are explained in plain words instead.
"""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import re
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["RULES_FILE", "TAGS", "find_rules", "game_part", "rule_entries"]

RULES_FILE = "RULES.md"
"""The name of the rules file in a game's package."""

TAGS = (
    "Tags: [S] stated in the source rules; [S~] our reading of an unclear passage; "
    "[D] our decision; [V] a house rule, off unless you name it (--rules); "
    "[ref] taken from a published reference (a rules site); "
    "two tags joined, [S/D], [S~/D], [V/D], [S/ref] or [ref/D], mean both: "
    "the rule states the first, the second settles what it leaves open; "
    "new after a tag marks a rule added later, where the source rules were silent."
)
"""What the tags of the rule specifications mean, in a player's words."""

_PROVENANCE = re.compile(r"\bseeds?\b(?!=)|rules-decisions|^(?:Tags|Source):", re.I | re.M)
_ID = r"([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)"
_RULE = re.compile(rf"^[-*]\s+\*\*{_ID}\*\*")
# A line that ends inside a rule ID ("... CORE-" then "DECK-3 ..."): Markdown would join the
# two halves with a space, so the rest of the ID is moved up onto the first line.
_BROKEN_ID = re.compile(
    r"\b([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-)\n([ \t>]*)([A-Z0-9]+(?:-[A-Z0-9]+)*)\b[ \t]*"
)


def _whole_ids(text: str) -> str:
    """*text* with no line break inside a rule ID: ``"CORE-\\n  DECK-3 keeps"`` becomes
    ``"CORE-DECK-3\\n  keeps"`` (the line break moves after the ID; a line left empty goes).

    >>> _whole_ids("limit; CORE-\\n  DECK-3 keeps it")
    'limit; CORE-DECK-3\\n  keeps it'
    """

    def mend(m: re.Match[str]) -> str:
        end = m.end()
        rest_empty = end >= len(m.string) or m.string[end] == "\n"
        return m.group(1) + m.group(3) + ("" if rest_empty else "\n" + m.group(2))

    return _BROKEN_ID.sub(mend, text)


_ROW = re.compile(rf"^\|\s*(?:\*\*)?{_ID}(?:\*\*)?\s*\|(.*?)\|?\s*$")


def find_rules(module: str | ModuleType) -> str | None:
    """Return the ``RULES.md`` text for the game whose entry point is *module*, or ``None``.

    A module's own ``RULES_MD`` (a str, the same markdown) comes first: a game that is one
    file, with no package to hold a ``RULES.md``, ships its rules that way.

    :param module: The game module (or the object its entry point names), or its dotted
        name (``"cardcore_spit.speed.rules"``).
        Pass the module itself for a game registered in place
        (:func:`cardcore.register`): its name may be in no ``sys.modules``, or name
        another module there.
    """
    if not isinstance(module, str):  # the loaded module (or the object an entry point names)
        own = getattr(module, "RULES_MD", None)
        name = getattr(module, "__name__", None)
        if isinstance(own, str) and own.strip():
            return str.__str__(own)
        if not isinstance(name, str):
            return None  # (an object with no name has no package to hold a RULES.md)
        module = name
    else:
        try:
            loaded = sys.modules.get(module) or importlib.import_module(module)
            own = getattr(loaded, "RULES_MD", None)
        except Exception:  # (a module that fails to import: its game fails to load, elsewhere)
            own = None
    if isinstance(own, str) and own.strip():
        return str.__str__(own)
    parts = module.split(".")
    for k in range(len(parts) - 1, 0, -1):
        package = ".".join(parts[:k])
        try:
            resource = importlib.resources.files(package) / RULES_FILE
            if resource.is_file():
                return resource.read_text(encoding="utf-8")
        except (ImportError, TypeError, OSError):
            pass
        installed = _installed(f"{package.replace('.', '/')}/{RULES_FILE}")
        if installed is not None:
            return installed
    return None


def _installed(relative: str) -> str | None:
    """The text of *relative* among the files a distribution installed, if any."""
    for dist in importlib.metadata.distributions():
        if relative not in (dist.read_text("RECORD") or ""):
            continue  # a cheap look before parsing the file list
        for file in dist.files or ():
            if file.as_posix() == relative:
                path = Path(str(dist.locate_file(file)))
                if path.is_file():
                    return path.read_text(encoding="utf-8")
    return None


def game_part(text: str, game: str) -> str:
    """*text* for *game*: its title, a legend of the tags, the opening words, then the rules.

    When a level-2 heading names *game* (``## Speed``), only that part follows
    the opening paragraphs; otherwise the whole file does.
    """
    lines = _whole_ids(text).splitlines()
    heads = [i for i, ln in enumerate(lines) if ln.startswith("## ")]
    first = heads[0] if heads else len(lines)
    title = [ln for ln in lines[:first] if ln.startswith("# ")]
    opening = "\n".join(ln for ln in lines[:first] if not ln.startswith("# "))
    kept = [p for p in re.split(r"\n\s*\n", opening) if p.strip() and not _PROVENANCE.search(p)]
    body = lines[first:]
    for n, i in enumerate(heads):
        if lines[i][3:].strip().lower() == game.lower():
            end = heads[n + 1] if n + 1 < len(heads) else len(lines)
            body = lines[i:end]
            others = [lines[j][3:].strip() for j in heads if j != i]
            body += ["", f"*The same rules file also has: {', '.join(others)}.*"]
            break
    out = [*title, ""]
    if re.search(r"`\[(?:S|S~|D|V|ref)[^\]]*\]`", "\n".join(body)):
        out += [TAGS, ""]
    for paragraph in kept:
        out += [paragraph.strip(), ""]
    return "\n".join(out + body).strip() + "\n"


def rule_entries(text: str) -> dict[str, str]:
    """Each rule of *text* by ID, as a Markdown bullet.

    A rule is a bullet starting with its ID in bold (``- **GOLF-GEN-1** ...``,
    continuation lines included) or a table row whose first cell is its ID.
    """
    rules: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in _whole_ids(text).splitlines():
        row = _ROW.match(line)
        if row:
            rules.setdefault(row.group(1), []).append(
                f"- **{row.group(1)}** {row.group(2).strip()}"
            )
            current = None
            continue
        m = _RULE.match(line)
        if m:
            current = rules.setdefault(m.group(1), [])
            current.append(line)
        elif current is not None and line.startswith("  ") and line.strip():
            current.append(line)
        else:
            current = None
    return {rule_id: "\n".join(body) for rule_id, body in rules.items()}
