"""The pluggy markers of project ``cardcore`` (a leaf module, so nothing imports in a circle)."""

from __future__ import annotations

import pluggy

__all__ = ["hookimpl", "hookspec"]

hookspec = pluggy.HookspecMarker("cardcore")
"""Marker for hook specifications (games use it for their own hookspecs)."""

hookimpl = pluggy.HookimplMarker("cardcore")
"""Marker for hook implementations: ``@hookimpl`` (``tryfirst``, ``trylast``, ``wrapper``, ``optionalhook``)."""
