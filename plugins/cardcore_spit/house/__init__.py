"""Spit's and Speed's house rules, one plugin module each (enabled by entry-point name)."""

from __future__ import annotations
