"""``python -m cardcore``: the command-line tool, as the ``cardcore`` command runs it."""

from cardcore.cli import main

raise SystemExit(main())
