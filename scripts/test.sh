#!/usr/bin/env bash
# Runs every test of the workspace (the README's second set-up command). A test that needs what
# this machine lacks (the public corpus beside the repository or named by IOCO_CORPUS,
# Chromium, python3 for the Python package's tests) is skipped and the skip recorded (crate
# ioco-testkit, scripts/test_python.sh); the summary at the end names every skipped test,
# grouped by reason. IOCO_NO_SKIP=1 (as in CI) makes such a skip a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
# where ioco-testkit records the skips (a relative CARGO_TARGET_DIR is from the workspace root)
skips="${CARGO_TARGET_DIR:-target}/test-skips.txt"
mkdir -p "$(dirname "$skips")"
: >"$skips"
cargo build --workspace --bins --quiet
status=0
cargo test --workspace --quiet --no-fail-fast "$@" || status=$?
# the ioco library without its feature `symbolic` needs no Z3 (#32): nothing of Z3 in its
# dependency tree, and it builds (its tests run with the workspace's, with the feature on)
if ! tree=$(cargo tree -p ioco --no-default-features); then
  echo "test.sh: cargo tree -p ioco --no-default-features failed" >&2
  status=1
elif grep -qi z3 <<<"$tree"; then
  echo "test.sh: the ioco crate without the feature \`symbolic\` still depends on Z3:" >&2
  cargo tree -p ioco --no-default-features -i z3 >&2 || true
  status=1
fi
cargo build -p ioco --no-default-features --quiet || status=$?
# the Python package (python/: its own cargo workspace, built by maturin) and its pytest tests
bash scripts/test_python.sh || status=$?
echo
if [[ -s "$skips" ]]; then
  echo "test.sh: $(wc -l <"$skips") test(s) or part(s) of tests skipped, by reason" \
    "(IOCO_NO_SKIP=1 makes a skip a failure):"
  LC_ALL=C sort -t $'\t' -k2,2 -k1,1 "$skips" | awk -F '\t' '
    !($2 in n) { order[++k] = $2 }
    { n[$2]++; tests[$2] = tests[$2] "\n    " $1 }
    END { for (i = 1; i <= k; i++) printf "  %d: %s%s\n", n[order[i]], order[i], tests[order[i]] }'
else
  echo "test.sh: no test skipped"
fi
exit "$status"
