#!/usr/bin/env bash
# Runs the Node, Python and Ruby clients' test suites (against the running service; Python and Ruby
# also run pure unit tests) and exits non-zero if any fails. Installs Ruby from Debian when absent.
#
#   PI_BASE_URL=http://127.0.0.1:3100/v1 PI_API_KEY=pi_… clients/run-tests.sh [node] [python] [ruby]
#
# PI_BASE_URL: the service's base URL (with /v1), its processors running (npm start runs them).
# PI_API_KEY:  an admin key of a project used only by this run (the suites share it and its
#              hourly request budget; together they send about 200 requests).
# NODE, PYTHON, RUBY: the interpreters (default node, python3, ruby).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${PYTHON:-python3}"
ruby="${RUBY:-ruby}"
node="${NODE:-node}"
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(node python ruby)

if [ -z "${PI_BASE_URL:-}" ] || [ -z "${PI_API_KEY:-}" ]; then
  echo "clients/run-tests.sh: set PI_BASE_URL (e.g. http://127.0.0.1:3100/v1) and PI_API_KEY (an admin key of a project used only by this run)" >&2
  exit 2
fi

# Fail once, clearly, rather than in every test when the service is not there.
if ! "$python" - "$PI_BASE_URL" <<'PY'
import sys, urllib.request
url = sys.argv[1].rstrip("/") + "/health"
try:
    urllib.request.urlopen(url, timeout=10).close()
except Exception as err:
    sys.exit(f"clients/run-tests.sh: the service does not answer at {url}: {err}")
PY
then
  exit 2
fi

passed=0
failed=0
status=0
summary=()

# The first number matching a sed expression in the last line of $log that matches $line, or 0.
number() {
  local n
  n=$(grep -E "$2" "$1" | tail -1 | sed -n "$3" | head -1)
  echo "${n:-0}"
}

# Adds a suite's counts (read from its runner's closing lines) to the totals.
count() {
  local name="$1" log="$2" code="$3" ran bad
  case "$name" in
    node)
      ran=$(number "$log" '^[^ ]+ tests [0-9]+$' 's/^[^ ]* tests \([0-9]*\)$/\1/p')
      bad=$(($(number "$log" '^[^ ]+ fail [0-9]+$' 's/^[^ ]* fail \([0-9]*\)$/\1/p') + $(number "$log" '^[^ ]+ cancelled [0-9]+$' 's/^[^ ]* cancelled \([0-9]*\)$/\1/p')))
      ;;
    python)
      ran=$(number "$log" '^Ran [0-9]+ tests? in' 's/^Ran \([0-9]*\).*/\1/p')
      bad=$(($(number "$log" '^FAILED \(' 's/.*failures=\([0-9]*\).*/\1/p') + $(number "$log" '^FAILED \(' 's/.*errors=\([0-9]*\).*/\1/p')))
      ;;
    ruby)
      local closing='^[0-9]+ runs, [0-9]+ assertions, '
      ran=$(number "$log" "$closing" 's/^\([0-9]*\) runs.*/\1/p')
      bad=$(($(number "$log" "$closing" 's/.* \([0-9]*\) failures.*/\1/p') + $(number "$log" "$closing" 's/.* \([0-9]*\) errors.*/\1/p')))
      ;;
  esac
  if [ "$code" -ne 0 ] && [ "$bad" -eq 0 ]; then
    bad=1 # it stopped before its runner could count (a syntax error, a missing interpreter)
  fi
  passed=$((passed + (ran > bad ? ran - bad : 0)))
  failed=$((failed + bad))
  summary+=("$(printf '%-7s %s (%d tests, %d failed)' "$name" "$([ "$code" -eq 0 ] && echo ok || echo FAILED)" "$ran" "$bad")")
}

# The tests import the built package (dist/) as an application does; tsx (the service's) runs them.
run_node() {
  (cd "$here/node" && "$node" --import tsx --test --test-reporter=spec --test-concurrency=1 test/*.test.ts)
}

run_python() {
  (cd "$here/python" && PYTHONPATH="$here/python" "$python" -m unittest -v tests.test_units tests.test_service)
}

run_ruby() {
  if ! command -v "$ruby" >/dev/null 2>&1 || ! "$ruby" -e 'require "minitest"' >/dev/null 2>&1; then
    "$here/ruby/script/install-ruby" || return 1
  fi
  (cd "$here/ruby" && "$ruby" -Ilib -Itest -e 'require "./test/units_test"; require "./test/service_test"' -- -v)
}

for suite in "${suites[@]}"; do
  case "$suite" in
    node | python | ruby) ;;
    *)
      echo "clients/run-tests.sh: unknown suite $suite (node, python or ruby)" >&2
      exit 2
      ;;
  esac
  echo "=== $suite client: $(date -u +%H:%M:%S) ==="
  log="$(mktemp)"
  "run_$suite" 2>&1 | tee "$log"
  code=${PIPESTATUS[0]}
  count "$suite" "$log" "$code"
  rm -f "$log"
  [ "$code" -ne 0 ] && status=1
  echo
done

echo "=== clients summary ==="
printf '%s\n' "${summary[@]}"
echo "clients: $passed passed, $failed failed"
exit "$status"
