#!/usr/bin/env bash
# The browser tests' Chromium: Debian's package (never Playwright's download).
# Installs it with apt-get when missing; under CI=true a browser that cannot be
# installed fails the run (the tests themselves fail too, they never skip there).
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  if command -v apt-get >/dev/null; then
    apt-get update -qq && apt-get install -y -qq chromium
  fi
fi
if [ ! -x /usr/bin/chromium ]; then
  echo "no /usr/bin/chromium and it could not be installed" >&2
  [ "${CI:-}" = "true" ] && exit 1
  exit 0
fi
/usr/bin/chromium --version
