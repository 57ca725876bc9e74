#!/usr/bin/env bash
# Every example of the docs, run from built wheels instead of the checkout.
#
# The README's install is editable, so the rest of CI imports cardcore from
# src/ and plugins/, and would not notice an example that only runs in a
# checkout (one importing tests or docs, a file the wheel does not ship). Here
# cardcore, examples/go_fish and examples/third_party_plugin are built as
# wheels and installed into a virtual environment of their own; then
#   * Sphinx runs every doctest of the docs (``-b doctest``, warnings are
#     errors) in a process that may import nothing from the checkout: the docs'
#     conf.py puts src/, plugins/ and the checkout on sys.path, and a guard
#     resolves every top-level import outside them (a module found only in the
#     checkout fails with ModuleNotFoundError);
#   * the example scripts the docs show run with ``python -I`` (no script
#     folder, no user site, no PYTHONPATH);
#   * the command line answers from the wheel (its rules text included).
# Usage: bash .ci/wheel_docs.sh (from anywhere; about a minute).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)
start=$(date +%s)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
py="$work/venv/bin/python"
if python3 -m pip --version > /dev/null 2>&1; then  # the caller's pip serves the new venv
  python3 -m venv --without-pip "$work/venv"
  pip=(python3 -m pip --python "$py")
else
  python3 -m venv "$work/venv"
  pip=("$py" -m pip)
fi

echo "== wheels: cardcore, examples/go_fish, examples/third_party_plugin"
"${pip[@]}" install -q hatchling "sphinx>=7.2" "rich>=13"  # no theme: no HTML built here
"${pip[@]}" wheel -q --no-deps --no-build-isolation -w "$work/dist" \
  . ./examples/go_fish ./examples/third_party_plugin
core=$(ls "$work"/dist/cardcore-[0-9]*.whl)
"${pip[@]}" install -q "$core[cli,rl]" "$work"/dist/cardcore_*.whl  # rl: the learning page runs its examples

cat > "$work/outside.py" <<'EOF'
"""Run Sphinx with every top-level import resolved outside the checkout (argv[1])."""

import importlib.abc
import importlib.machinery
import os
import sys

CHECKOUT = os.path.realpath(sys.argv[1])


def inside(entry: str) -> bool:
    path = os.path.realpath(entry or os.getcwd())
    return path == CHECKOUT or path.startswith(CHECKOUT + os.sep)


class OutsideTheCheckout(importlib.abc.MetaPathFinder):
    """Find top-level modules on sys.path without the checkout's folders (submodules
    follow their package's own path, which is then outside too)."""

    def find_spec(self, name, path=None, target=None):
        if path is not None:
            return None
        outside = [p for p in sys.path if not inside(p)]
        spec = importlib.machinery.PathFinder.find_spec(name, outside, target)
        if spec is None:
            checkout = [p for p in sys.path if inside(p)]
            if importlib.machinery.PathFinder.find_spec(name, checkout, target) is not None:
                msg = f"{name!r} is only in the checkout, not in an installed package"
                raise ModuleNotFoundError(msg, name=name)
        return spec


finders = sys.meta_path
finders.insert(finders.index(importlib.machinery.PathFinder), OutsideTheCheckout())

from sphinx.cmd.build import main  # noqa: E402

code = main(sys.argv[2:])
import cardcore  # noqa: E402

assert not inside(cardcore.__file__), cardcore.__file__
sys.exit(code)
EOF

echo "   ($(($(date +%s) - start)) s)"
echo "== the docs' doctests, from the wheels"
(cd "$work" && "$py" outside.py "$root" -W --keep-going -q -b doctest "$root/docs" "$work/doctest") || {
  cat "$work/doctest/output.txt" 2>/dev/null | tail -60
  exit 1
}
sed -n '/^Doctest summary/,$p' "$work/doctest/output.txt" | sed -n '3,4p'
grep -qE "^ +0 failures in tests" "$work/doctest/output.txt"

echo "   ($(($(date +%s) - start)) s)"
echo "== the example scripts the docs show, from the wheels"
(
  cd "$work"
  "$py" -I "$root/examples/quickstart.py" > quickstart.txt
  grep -q "^winners:" quickstart.txt
  "$py" -I "$root/examples/turn_based_server.py" "$work/saves" > server.txt
  "$py" -I "$root/examples/realtime_threads.py" > realtime.txt
)

echo "   ($(($(date +%s) - start)) s)"
echo "== the command line, from the wheels"
(
  cd "$work"
  export COLUMNS=120
  venv/bin/cardcore list > list.txt
  grep -q "gofish" list.txt && grep -q "golf.snowman\|snowman" list.txt
  for game in golf tonk spit speed; do
    venv/bin/cardcore rules "$game" > "rules-$game.txt"
    grep -qE "^ *• [A-Z]+-[A-Z]+-[0-9]+" "rules-$game.txt" || {
      echo "cardcore rules $game printed no rule with an ID (is RULES.md in the wheel?)" >&2
      exit 1
    }
  done
  venv/bin/cardcore rules golf GOLF-SCORE-6 | grep -q "GOLF-SCORE-6"
)

echo "   ($(($(date +%s) - start)) s)"
echo "== wheel docs finished in $(($(date +%s) - start)) s"
