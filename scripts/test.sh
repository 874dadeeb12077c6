#!/usr/bin/env bash
# The project's one test command: installs everything it needs on a fresh
# machine (pip packages, npm packages via the build, Debian's browsers: chromium,
# firefox-esr, and WebKitGTK's WebDriver with its MiniBrowser under Xvfb), then lints,
# type-checks (Python and JS) and runs every test: engine unit/property tests and the e2e suite
# (Playwright in Chromium, and the cross-engine set in Chromium, Firefox and WebKit).
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null; then SUDO="sudo"; fi
MISSING=()
[ -x /usr/bin/chromium ] || MISSING+=(chromium)
[ -x /usr/bin/firefox-esr ] || MISSING+=(firefox-esr)
[ -x /usr/bin/WebKitWebDriver ] || MISSING+=(webkit2gtk-driver) # brings the MiniBrowser
[ -x /usr/bin/Xvfb ] || MISSING+=(xvfb)
if [ ${#MISSING[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${MISSING[@]}" >/dev/null
fi

python3 -m pip install -q --disable-pip-version-check -e ".[test]"

# The Python checks run beside npm ci and the build (each of them mostly one core).
checks=$(mktemp)
( python3 -m ruff check skyline tests e2e scripts web &&
  python3 -m mypy ) >"$checks" 2>&1 &  # mypy: skyline/ and web/, pyproject.toml [tool.mypy]
checks_pid=$!
finish_checks() {
  local rc=0
  wait "$checks_pid" || rc=$?
  cat "$checks"
  rm -f "$checks"
  return "$rc"
}
# The page's JavaScript: type-checked from its JSDoc (tsconfig.json) and linted
# (biome.json), with node_modules as package-lock.json says (npm ci, as the build does).
python3 -c 'import sys; sys.path.insert(0, "scripts"); import build; build.ensure_node_modules()'
npx --no-install tsc --noEmit -p .
npx --no-install biome lint --error-on-warnings web
if [ $# -gt 0 ]; then
  finish_checks
  # some tests only (e2e/conftest.py builds dist/ once and serves it on 127.0.0.1)
  exec python3 -m pytest -q -p no:cacheprovider "$@"
fi
# Every test, in one pytest session spread by pytest-xdist over three worker processes
# on the 2 cores (a browser test mostly waits for its page, a CPython test never waits):
# --dist loadgroup keeps the tests that run in order in one browser on one worker (one
# engine's visit in e2e/test_every_engine.py) and hands out the rest one test at a time,
# the longest files first (e2e/conftest.py). The site is built once first (npm ci,
# wheel, dist/); pytest-xdist's controller serves it for every worker, and each worker
# has its own browser and temporary folder.
python3 scripts/build.py
finish_checks
tmp=$(mktemp -d)
rc=0
SKYLINE_NO_BUILD=1 python3 -m pytest -q -p no:cacheprovider --basetemp="$tmp" \
  -n 3 --dist loadgroup --durations=15 tests e2e || rc=$?
rm -rf "$tmp"
exit "$rc"
