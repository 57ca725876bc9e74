"""The reinforcement-learning tests need the ``rl`` extra (pettingzoo, gymnasium, numpy)."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

with warnings.catch_warnings():  # pettingzoo.test imports its deprecated module aliases
    warnings.simplefilter("ignore", DeprecationWarning)
    import pettingzoo.test  # noqa: F401
