"""Search agents that see only their seat's view, and the samplers they play out.

:class:`ISMCTSAgent` (entry point ``ismcts``) searches from positions sampled
consistently with its view (:func:`sample_position`); it works with every
installed game and house rule that has a position notation. See
:doc:`/search-agents` for how samples are drawn and what a game may add.
"""

from __future__ import annotations

from cardcore.search.ismcts import ISMCTSAgent
from cardcore.search.sampling import (
    ViewConfig,
    deal_view,
    default_position,
    sample_position,
    view_config,
)

__all__ = [
    "ISMCTSAgent",
    "ViewConfig",
    "deal_view",
    "default_position",
    "sample_position",
    "view_config",
]
