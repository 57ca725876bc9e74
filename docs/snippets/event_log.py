"""A plugin for ``drawgame`` that logs every event (observe, never decide)."""

from __future__ import annotations

import logging

from cardcore import Event, RuleInfo, hookimpl

RULE = RuleInfo(
    id="DOCS-LOG-1", name="drawgame.event-log", game="drawgame", summary="Log every event"
)

log = logging.getLogger("cardcore.example.events")


@hookimpl
def on_event(event: Event) -> None:
    """Log the full event as JSON-ready data (plugins see every card: keep logs private)."""
    log.info("%s", event.to_json())
