#!/usr/bin/env bash
# The project's one test command: installs everything it needs on a fresh
# machine (pip packages, npm packages via the build, Debian's browsers: chromium,
# firefox-esr, and WebKitGTK's WebDriver with its MiniBrowser under Xvfb), then lints,
# type-checks and runs every test: engine unit/property tests and the e2e suite
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

python3 -m ruff check skyline tests e2e scripts web
python3 -m mypy  # skyline/ and web/, configured in pyproject.toml [tool.mypy]
if [ $# -gt 0 ]; then
  # some tests only (e2e/conftest.py builds dist/ once and serves it on 127.0.0.1)
  exec python3 -m pytest -q -p no:cacheprovider "$@"
fi
# Every test. The site is built once first (npm ci, wheel, dist/); then the engine's
# tests (CPU-bound, one core) run beside the browser tests (which mostly wait for the
# page): the same tests in about two thirds of the time on 2 cores.
python3 scripts/build.py
unit_log=$(mktemp)
python3 -m pytest -q -p no:cacheprovider tests >"$unit_log" 2>&1 &
unit=$!
e2e_rc=0
SKYLINE_NO_BUILD=1 python3 -m pytest -q -p no:cacheprovider e2e || e2e_rc=$?
unit_rc=0
wait "$unit" || unit_rc=$?
echo "--- tests/ (run beside e2e/) ---"
cat "$unit_log"
rm -f "$unit_log"
echo "tests/: exit $unit_rc; e2e/: exit $e2e_rc"
[ "$unit_rc" -eq 0 ] && [ "$e2e_rc" -eq 0 ]
