#!/usr/bin/env bash
# Runs every test of the workspace (the README's second set-up command).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --workspace --bins --quiet
cargo test --workspace --quiet --no-fail-fast "$@"
