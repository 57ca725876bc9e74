"""An encoding's ``action_indices`` answer is checked as the protocol's docstring says:
each an index (an int or a numpy integer, never a float, which numpy's ``put`` would read
as the int it equals) and no two legal actions on one index (one of them would be out of
reach); a wrong answer is the encoding's :class:`~cardcore.PluginError`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

from cardcore import PluginError

pytest.importorskip("pettingzoo")

from cardcore.rl import aec_env

GOLF1 = {"rounds": 1}


def _answering(monkeypatch: pytest.MonkeyPatch, change: Any) -> Any:
    """Golf's AEC environment whose encoding's indices pass through *change* first."""
    from cardcore_golf.encoding import GolfEncoding
    from cardcore_golf.logic import GolfLogic

    class Changed(GolfEncoding):
        def action_indices(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Sequence[Any]:
            return change(list(super().action_indices(view, legal)))

    monkeypatch.setattr(GolfLogic, "rl_encoding", Changed)
    env = aec_env("golf", 2, options=GOLF1)
    env.reset(seed=1)
    return env


@pytest.mark.parametrize(
    "change",
    [
        lambda ix: [float(i) for i in ix],
        lambda ix: [np.float64(i) for i in ix],
        lambda ix: [str(i) for i in ix],
    ],
    ids=["float", "numpy float", "text"],
)
def test_an_index_that_is_no_int_is_the_encodings_error(
    monkeypatch: pytest.MonkeyPatch, change: Any
) -> None:
    env = _answering(monkeypatch, change)
    with pytest.raises(PluginError, match="action_indices"):
        env.last()


def test_two_legal_actions_on_one_index_is_the_encodings_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = _answering(monkeypatch, lambda ix: [ix[0], *ix[:-1]] if len(ix) > 1 else ix)
    with pytest.raises(PluginError, match="for both"):
        env.last()


def test_numpy_integer_indices_are_indices(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = aec_env("golf", 2, options=GOLF1)
    plain.reset(seed=1)
    env = _answering(monkeypatch, lambda ix: [np.int64(i) for i in ix])
    assert (env.last()[0]["action_mask"] == plain.last()[0]["action_mask"]).all()
    assert env.last()[0]["action_mask"].sum() >= 2
