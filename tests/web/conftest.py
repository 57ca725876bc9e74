"""The web tests need the ``web`` and ``web-test`` extras (the README's set-up installs them).

Without them, outside CI, the web tests are not collected and the test run's header
says why; in CI (``CI=true``) a missing extra fails loudly instead.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

_MISSING = [m for m in ("starlette", "httpx", "uvicorn") if importlib.util.find_spec(m) is None]
_NO_BROWSER = (
    importlib.util.find_spec("playwright") is None or not Path("/usr/bin/chromium").exists()
)

collect_ignore_glob: list[str] = []
if os.environ.get("CI") != "true":
    if _MISSING:
        collect_ignore_glob = ["test_*.py"]
    elif _NO_BROWSER:
        collect_ignore_glob = ["test_browser.py", "test_two_windows.py"]


def pytest_report_header() -> list[str]:
    if collect_ignore_glob == ["test_*.py"]:
        return [
            f"web tests not collected: missing {', '.join(_MISSING)} (the web and web-test extras)"
        ]
    if collect_ignore_glob:
        return ["browser tests not collected: no playwright, or no /usr/bin/chromium"]
    return []
