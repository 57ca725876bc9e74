"""``cardcore.web``: the session layer behind HTTP and WebSocket, and a browser client.

:func:`create_app` builds a Starlette application: a lobby (``/``) to create
a game, a page per game (``/play/{session}``) to play it or watch it, the
session protocol over one WebSocket (``/ws``), and the record of a finished
game (``/api/sessions/{id}/record``). ``cardcore serve`` runs it with uvicorn.
The client is static HTML, CSS and JavaScript shipped in this package: no
build step, nothing fetched from another site. Needs the ``web`` extra.
See ``docs/web.rst``.
"""

from __future__ import annotations

try:  # the web extra: a missing package is named with the extra that brings it
    import starlette  # noqa: F401
except ImportError as exc:
    _msg = (
        "cardcore.web needs the web extra (starlette, uvicorn): pip install 'cardcore[web]'"
        f" (in a checkout: pip install -e '.[web]'); {exc}"
    )
    _kind = ModuleNotFoundError if isinstance(exc, ModuleNotFoundError) else ImportError
    raise _kind(_msg, name=exc.name) from exc  # (pytest.importorskip skips on the first)

from cardcore.web.app import WebServer, create_app

__all__ = ["WebServer", "create_app"]
