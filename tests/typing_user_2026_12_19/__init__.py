"""User code written against cardcore's documented API under ``mypy --strict`` (2026-12-19).

The modules beside this one are ordinary typed user code and must type-check cleanly;
``findings/`` holds one small file per typing problem found, each showing the error (or
the missing error). ``tests/test_typed_user_2026_12_19.py`` runs mypy on them.
"""
