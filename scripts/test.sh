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

python3 -m ruff check skyline tests e2e scripts web
python3 -m mypy  # skyline/ and web/, configured in pyproject.toml [tool.mypy]
# The page's JavaScript: type-checked from its JSDoc (tsconfig.json) and linted
# (biome.json), with node_modules as package-lock.json says (npm ci, as the build does).
python3 -c 'import sys; sys.path.insert(0, "scripts"); import build; build.ensure_node_modules()'
npx --no-install tsc --noEmit -p .
npx --no-install biome lint --error-on-warnings web
if [ $# -gt 0 ]; then
  # some tests only (e2e/conftest.py builds dist/ once and serves it on 127.0.0.1)
  exec python3 -m pytest -q -p no:cacheprovider "$@"
fi
# Every test. The site is built once first (npm ci, wheel, dist/); then two queues run
# side by side on the 2 cores: the engine's tests (CPU-bound, one core) followed by the
# longest whole-game browser files, and the rest of e2e/ (which mostly waits for the
# page). Each queue is its own pytest session with its own server, browser and temp
# folder; the WebKit/Firefox set and the fault log stay in one queue each.
python3 scripts/build.py
LATE=(e2e/test_scoreboard_and_seats_in_view.py e2e/test_tutorial_walkthrough.py
      e2e/test_table_review_page.py e2e/test_games.py e2e/test_every_engine.py
      e2e/test_board_update.py)
ignore=()
for f in "${LATE[@]}"; do ignore+=("--ignore=$f"); done
late_log=$(mktemp)
late_tmp=$(mktemp -d)
main_tmp=$(mktemp -d)
(
  unit_rc=0
  python3 -m pytest -q -p no:cacheprovider --basetemp="$late_tmp/unit" tests || unit_rc=$?
  late_rc=0
  SKYLINE_NO_BUILD=1 python3 -m pytest -q -p no:cacheprovider --basetemp="$late_tmp/e2e" \
    "${LATE[@]}" || late_rc=$?
  echo "tests/: exit $unit_rc; the long e2e files: exit $late_rc"
  [ "$unit_rc" -eq 0 ] && [ "$late_rc" -eq 0 ]
) >"$late_log" 2>&1 &
late=$!
e2e_rc=0
SKYLINE_NO_BUILD=1 python3 -m pytest -q -p no:cacheprovider --basetemp="$main_tmp" e2e \
  "${ignore[@]}" || e2e_rc=$?
late_rc=0
wait "$late" || late_rc=$?
echo "--- tests/, then ${LATE[*]} (run beside the rest of e2e/) ---"
cat "$late_log"
rm -rf "$late_log" "$late_tmp" "$main_tmp"
echo "e2e/ (the rest): exit $e2e_rc; the other queue: exit $late_rc"
[ "$e2e_rc" -eq 0 ] && [ "$late_rc" -eq 0 ]
