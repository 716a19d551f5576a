#!/usr/bin/env bash
# Run bgcheck over this machine's whole standard library: a crash test on real code.
#
# Prints the number of files, the findings per code, the files reported as BG000
# (not analysed) with their reason, and the time taken. Fails (exit 1) if bgcheck
# exits 2 (usage, configuration or internal error) or prints invalid JSON.
#
# Usage: scripts/check_stdlib.sh [PYTHON]   (default: python3)
#   BGCHECK=path/to/bgcheck   the bgcheck to run (default: bgcheck on PATH)
#   BGCHECK_ARGS="--jobs 1"   extra options for `bgcheck check`
set -euo pipefail

python="${1:-python3}"
bgcheck="${BGCHECK:-bgcheck}"
stdlib="$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')"
out="$(mktemp)"
err="$(mktemp)"
config_dir="$(mktemp -d)"
trap 'rm -f "$out" "$err"; rm -rf "$config_dir"' EXIT

echo "stdlib: $stdlib ($("$python" --version 2>&1)); $("$bgcheck" --version)"
start=$(date +%s.%N)
status=0
# An empty bgcheck.toml pins the default settings: no pyproject.toml above the stdlib can change them.
: > "$config_dir/bgcheck.toml"
# --no-cache: time the real work, and write nothing next to the stdlib.
# shellcheck disable=SC2086
(cd "$stdlib" && "$bgcheck" check . --format json --exit-zero --no-cache --config "$config_dir/bgcheck.toml" ${BGCHECK_ARGS:-}) \
    >"$out" 2>"$err" || status=$?
end=$(date +%s.%N)

if [ -s "$err" ]; then
    echo "--- stderr:"
    cat "$err"
fi
if [ "$status" -ne 0 ]; then
    echo "FAIL: bgcheck exited $status" >&2
    exit 1
fi

"$python" - "$out" <<'PY'
import json
import sys
from collections import Counter

try:
    with open(sys.argv[1], encoding="utf-8") as f:
        document = json.load(f)
except ValueError as exc:
    print(f"FAIL: the output is not JSON: {exc}", file=sys.stderr)
    sys.exit(1)
summary = document["summary"]
diagnostics = document["diagnostics"]
print(f"files checked: {summary['files_checked']}")
print(f"findings: {summary['total']} ({summary['errors']} errors, {summary['warnings']} warnings, {summary['infos']} infos)")
for code, n in sorted(summary["by_code"].items()):
    print(f"  {code}  {n:6d}")
not_analysed = [d for d in diagnostics if d["code"] == "BG000"]
print(f"BG000 files: {len(not_analysed)}")
for d in not_analysed:
    print(f"  {d['path']}:{d['line']}:{d['column']}: {d['message']}")
by_dir = Counter(d["path"].split("/")[0] for d in diagnostics if d["code"] != "BG000")
print("findings by top-level folder (most first):")
for folder, n in by_dir.most_common(15):
    print(f"  {n:6d}  {folder}")
PY
"$python" -c "import sys; print(f'time: {float(sys.argv[2]) - float(sys.argv[1]):.1f} s')" "$start" "$end"
