"""Search tests: the ``ismcts`` agent is registered here too, in case the entry point is not installed."""

from __future__ import annotations

import cardcore
from cardcore.search import ISMCTSAgent

if "ismcts" not in cardcore.available_agents():
    cardcore.register("cardcore.agents", "ismcts", ISMCTSAgent)
