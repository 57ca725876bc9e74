"""``python -m cardcore.cli``: the ``cardcore`` command."""

from __future__ import annotations

import sys

from cardcore.cli import main

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
