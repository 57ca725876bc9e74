"""Sphinx configuration for the cardcore documentation.

Build (warnings are errors)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html
    python -m sphinx -W --keep-going -b doctest docs docs/_build/doctest

``tests/test_docs.py`` runs both. There is no intersphinx (the build needs no
network), so references to the standard library and to pluggy are plain text.
"""

from __future__ import annotations

import doctest
import importlib
import sys
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

ROOT = Path(__file__).resolve().parent.parent
for sub in ("src", "plugins", "."):
    path = str(ROOT / sub)
    if path not in sys.path:
        sys.path.insert(0, path)

import cardcore  # noqa: E402

project = "cardcore"
author = "The cardcore developers"
copyright = "2026, The cardcore developers"
release = cardcore.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
]

exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
html_theme = "furo"
html_title = f"cardcore {release}"

# Every reference must resolve. Without intersphinx (no network), names of the
# standard library and of pluggy cannot resolve: those (and only those) are
# ignored, plus the private TypeVars of the generic signatures.
nitpicky = True
_EXTERNAL = "|".join(
    sorted({*sys.stdlib_module_names, "typing_extensions", "pluggy", "matplotlib", "starlette"})
)
nitpick_ignore_regex = [
    (r"py:(class|obj|data|exc|func|meth|mod|attr)", rf"({_EXTERNAL})(\..*)?"),
    (r"py:(class|obj)", r"cardcore\.(events\.E|deck\.T|logic\.([SA]|_Kind))"),
    (r"py:class", r"ModuleType"),
    (r"py:class", r"Figure"),  # matplotlib's (the plot extra), under TYPE_CHECKING
    # the web server's own limits and errors, described in web.rst's prose (Limits, Errors)
    (r"py:(class|meth|exc)", r"(cardcore\.web\._quota\.)?(ServerLimits(\.from_env)?|WebError)"),
]

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = False
add_module_names = False
python_use_unqualified_type_names = True

# Only ``.. doctest::`` blocks run here: the pages' examples. Docstring examples
# (plain ``>>>`` blocks pulled in by autodoc) need their module's globals and
# are run where they live, by pytest's doctest collection.
doctest_test_doctest_blocks = ""

# Exception messages are compared too (Sphinx's default ignores their text).
doctest_default_flags = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1

# Docstring examples in the API reference use the public names unqualified.
doctest_global_setup = """
import cardcore
from cardcore import *
"""


# -- the ``hook`` object type ------------------------------------------------------------


def _public_target(target: str) -> str | None:
    """Map ``cardcore.zones.ALL`` or a bare ``Ruleset`` to its documented public name."""
    parts = target.split(".")
    if parts[0] == "cardcore" and len(parts) >= 3 and parts[1] != "hookspecs":
        rest = parts[2:]
    elif parts[0] != "cardcore" and len(parts) <= 2:
        rest = parts
    else:
        return None
    if rest[0] in cardcore.__all__:
        return "cardcore." + ".".join(rest)
    return None


def _resolve_public(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.Element
) -> Any:
    """Resolve references to core submodules' names through their public re-export.

    The API reference documents every public name once, as ``cardcore.<name>``;
    docstrings and type hints inside the core often say ``cardcore.zones.ALL``
    or (for names imported only for type checking) a bare ``Ruleset``.
    """
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    objects = env.domains.python_domain.objects
    context = node.get("py:module") or ""
    package = context.split(".", 1)[0]
    if package and package != "cardcore" and not target.startswith("cardcore."):
        # In a game's docstrings a bare name is the game's own when the game has one
        # (a class of the game's own modules); only otherwise is it the core's (NotationError).
        tail = "." + target.rsplit(".", 1)[-1]
        if any(name.startswith(package + ".") and name.endswith(tail) for name in objects):
            return None
    public = _public_target(target)
    if public is None or public not in objects:
        # A bare name documented once under cardcore (``LedgerError``).
        tail = "." + target.rsplit(".", 1)[-1] if target.startswith("cardcore.") else "." + target
        matches = [name for name in objects if name.startswith("cardcore.") and name.endswith(tail)]
        if len(matches) != 1:
            return None
        public = matches[0]
    found = objects[public]
    return make_refnode(app.builder, node["refdoc"], found.docname, found.node_id, contnode, public)


class EventCatalogue(SphinxDirective):
    """``.. event-catalogue:: cardcore_golf.events`` lists a module's event classes by slug.

    Each class in the module's ``__all__`` that derives from :class:`cardcore.Event`
    gets its slug as a term and its autodoc entry (``:no-index:``: the class is
    indexed on its game's page). The list follows the code, so it is always whole.
    """

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        module = importlib.import_module(self.arguments[0])
        self.env.note_dependency(str(module.__file__))
        lines: list[str] = []
        for name in getattr(module, "__all__", ()):
            cls = getattr(module, name)
            if (
                isinstance(cls, type)
                and issubclass(cls, cardcore.Event)
                and cls.__module__ == module.__name__
            ):
                lines += [
                    f"``{cls.slug}``",
                    f"   .. autoclass:: {module.__name__}.{name}",
                    "      :no-index:",
                    "",
                ]
        if not lines:
            raise self.error(f"no event classes in {module.__name__}.__all__")
        container = nodes.container()
        self.state.nested_parse(
            StringList(lines, source=self.arguments[0]), self.content_offset, container
        )
        return list(container.children)


def _rst_text(text: str) -> str:
    """Escape *text* for a reST table cell (plain words, never markup)."""
    for char in ("\\", "*", "`", "|"):
        text = text.replace(char, "\\" + char)
    return text


class ViewFields(SphinxDirective):
    """``.. view-fields:: golf`` tabulates the fields a game declares for its view's ``table``.

    Read from ``GameInfo.fields`` (the same declarations :meth:`cardcore.Game.view_schema`
    serves), so the page always shows the fields the code declares.
    """

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        info = cardcore.game_info(self.arguments[0])
        if not info.fields:
            raise self.error(f"game {info.name!r} declares no view fields")
        lines = [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 18 14 18 50",
            "",
            "   * - key",
            "     - kind",
            "     - label",
            "     - meaning",
        ]
        for field in info.fields:
            data = field.to_json()
            kind = data["kind"] + (f" of {data['of']}" if data["of"] else "")
            lines += [
                f"   * - ``{data['name']}``",
                f"     - {kind}",
                f"     - {_rst_text(data['label'])}",
                f"     - {_rst_text(data['doc'])}",
            ]
        container = nodes.container()
        self.state.nested_parse(
            StringList(lines, source=f"view-fields {info.name}"), self.content_offset, container
        )
        return list(container.children)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the ``hook`` object type, the event catalogue, the view-field tables and the public-name resolver."""
    app.add_object_type(
        "hook",
        "hook",
        indextemplate="pair: %s; hook",
        objname="hook",
    )
    app.add_directive("event-catalogue", EventCatalogue)
    app.add_directive("view-fields", ViewFields)
    app.connect("missing-reference", _resolve_public)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
