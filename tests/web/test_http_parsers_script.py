"""benchmarks/http_parsers.py at a tiny size: the script behind web.rst's h11 figure runs.

Not a timed test: it checks that both parsers served the requests and the figures are
well formed, never how fast either is.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("httptools")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "http_parsers.py"


def test_both_parsers_serve_the_apps_plain_http() -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--rounds", "1", "--seconds", "0.3", "--connections", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result = json.loads(out.stdout)
    for parser in ("h11", "httptools"):
        figures = result[parser]
        assert figures["min"] <= figures["median"] <= figures["max"]
        assert figures["median"] > 0, parser
    assert result["h11/httptools"] == round(
        result["h11"]["median"] / result["httptools"]["median"], 3
    )


def test_the_web_page_cites_the_script() -> None:
    page = (SCRIPT.parents[1] / "docs" / "web.rst").read_text(encoding="utf-8")
    assert "benchmarks/http_parsers.py" in page
