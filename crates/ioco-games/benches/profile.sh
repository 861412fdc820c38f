#!/bin/bash
# Load-independent profile of the games benchmark: instructions, D1 misses and LL misses per
# transition of the attractor and joker solvers only (callgrind --toggle-collect), with a
# simulated 48 KiB D1 and a 2 MiB last level (the per-core L2 of the machine measured; its big
# shared L3 is not simulated).
#
# Usage: crates/ioco-games/benches/profile.sh [OUTDIR] [SIZES...]
#   (build first: cargo bench -p ioco-games --bench games --no-run; needs valgrind)
# One run per cell (--reps=1), so compulsory misses of the solver's fresh arrays are included.
set -eu
OUT=${1:-/tmp/ioco-games-profile}
shift || true
SIZES=${*:-1000 10000 100000 1000000}
BIN=$(ls -t "${CARGO_TARGET_DIR:-target}"/release/deps/games-* | grep -v '\.d$' | head -1)
mkdir -p "$OUT"
printf "%-8s %-8s %-3s %-6s %8s %8s %8s %8s\n" size targets as phase Ir/t D1mis/t LLmis/t trans
for n in $SIZES; do for w in local uniform; do for a in ie nd; do for p in attr joker; do
  f=$OUT/$n.$w.$a.$p
  valgrind --tool=callgrind --cache-sim=yes --D1=49152,12,64 --LL=2097152,16,64 \
    --toggle-collect='ioco_games::attractor::attractor' \
    --toggle-collect='ioco_games::joker::joker_game' \
    --callgrind-out-file="$f.out" "$BIN" --only="$n" --window=$w --assume=$a --phase=$p \
    --reps=1 >"$f.txt" 2>"$f.err"
  m=$(awk -v A=$a '((A=="ie" && $4=="input-eager")||(A=="nd" && $4=="nondeterministic")) {print $3}' "$f.txt")
  # summary events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
  grep '^summary:' "$f.out" | cut -d' ' -f2- | awk -v n=$n -v w=$w -v a=$a -v p=$p -v m=$m \
    '{printf "%-8s %-8s %-3s %-6s %8.1f %8.2f %8.2f %8d\n", n,w,a,p,$1/m,($5+$6)/m,($8+$9)/m,m}'
done; done; done; done
