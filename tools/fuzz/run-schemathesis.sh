#!/usr/bin/env bash
# The fuzz run of qrelay's REST API: Schemathesis, every check, over every operation of
# /openapi.json, three times: with QRELAY_API_TOKEN, without a token, and with
# QRELAY_API_READ_TOKEN when it is set. It changes what it reaches (imports, publishes,
# blocks, bonuses on the bundled marketplace): run it against a throwaway data directory,
# never a server that holds real work. Not part of `npm test` (it needs pip).
#
#   tools/fuzz/run-schemathesis.sh [BASE_URL]        (default http://127.0.0.1:8080)
#
# Environment: QRELAY_API_TOKEN (default: the file data/api-token that `npm start` writes),
# QRELAY_API_READ_TOKEN, FUZZ_EXAMPLES (examples per operation, 50), FUZZ_SEED (38),
# FUZZ_WORKERS (2), FUZZ_REPORT_DIR (reports, default a new temporary directory),
# SCHEMATHESIS_VENV (where Schemathesis is installed, default ~/.cache/qrelay-schemathesis),
# FUZZ_PYTHON (the Python that makes it, default python3; 3.12 or later: under 3.11.7
# Hypothesis's lambda descriptions can fail with "AST constructor recursion depth mismatch").
# Exit status 0 when no run found a failure.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
base="${1:-http://127.0.0.1:8080}"
base="${base%/}"
token="${QRELAY_API_TOKEN:-}"
if [[ -z "$token" && -f data/api-token ]]; then token="$(tr -d '[:space:]' < data/api-token)"; fi
if [[ -z "$token" ]]; then
  echo "run-schemathesis.sh: set QRELAY_API_TOKEN to the server's token (or run from the directory whose data/api-token it uses)" >&2
  exit 2
fi
venv="${SCHEMATHESIS_VENV:-$HOME/.cache/qrelay-schemathesis}"
if [[ ! -x "$venv/bin/schemathesis" ]] || ! cmp -s "$here/requirements.txt" "$venv/requirements.txt"; then
  echo "installing Schemathesis into $venv (tools/fuzz/requirements.txt)"
  "${FUZZ_PYTHON:-python3}" -m venv "$venv"
  "$venv/bin/pip" install --quiet -r "$here/requirements.txt"
  cp "$here/requirements.txt" "$venv/requirements.txt"
fi
reports="${FUZZ_REPORT_DIR:-$(mktemp -d -t qrelay-fuzz-XXXXXX)}"
mkdir -p "$reports"
config="$reports/schemathesis.toml"
"$venv/bin/python" "$here/known-ids.py" "$base" "$token" "$config"

export SCHEMATHESIS_HOOKS="$here/hooks.py"
failed=()
run() {
  local name="$1"
  shift
  echo "== $name: $reports/$name.log"
  if "$venv/bin/schemathesis" --config-file "$config" run "$base/openapi.json" --checks all \
    --max-examples "${FUZZ_EXAMPLES:-50}" --seed "${FUZZ_SEED:-38}" --workers "${FUZZ_WORKERS:-2}" \
    --request-timeout 60 --report json --report-dir "$reports/$name" "$@" > "$reports/$name.log" 2>&1; then
    :
  else
    failed+=("$name")
  fi
  sed -n '/^=* SUMMARY =*$/,$p' "$reports/$name.log"
}
run with-token -H "Authorization: Bearer $token"
run without-token
if [[ -n "${QRELAY_API_READ_TOKEN:-}" ]]; then run read-token -H "Authorization: Bearer $QRELAY_API_READ_TOKEN"; fi

if ((${#failed[@]} > 0)); then
  echo "run-schemathesis.sh: failures in: ${failed[*]} (the logs in $reports say which operation and check, with a curl line to reproduce)" >&2
  exit 1
fi
echo "run-schemathesis.sh: no failure; reports in $reports"
