#!/usr/bin/env bash
# Go benchmarks at commit OLD and at the working tree, interleaved: each
# round runs every benchmark on the old side, then the new, so that a
# change in the machine's load falls on both alike. Prints each
# benchmark's median ns/op on each side, new/old, and the smallest and
# largest such ratio over the rounds. A refactoring that promises "no
# slower" is measured so (the house issue asks for within 3%).
#
#   bash bench/before-after.sh OLD [ROUNDS]
#
# The benchmarks are those of the three hot paths: resolution by each
# standard (the root package), the HTML tokenizer, and link extraction.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1
rounds=${2:-7}
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/old" 2>/dev/null; rm -rf "$tmp"' EXIT
git worktree add -q --detach "$tmp/old" "$old"
ln -s "$(realpath ../shared)" "$tmp/shared" # the old tree's ../shared
# package:benchmark regexp; BENCHES (space-separated) names others.
benches=(".:^Benchmark(AppendResolve|AppendResolve3986|WebAppendResolve|BaseURLAppendResolve|ParseWeb)$"
  "htmltok:^BenchmarkTokenize$/htmltok" "links:^BenchmarkLinks$")
[ -n "${BENCHES:-}" ] && read -ra benches <<< "$BENCHES"
for side in old new; do
  root=.
  [ "$side" = old ] && root=$tmp/old
  for b in "${benches[@]}"; do
    pkg=${b%%:*}
    (cd "$root" && go test -c -o "$tmp/$side-${pkg//\//_}.test" "./$pkg")
  done
done
echo "load average before: $(cut -d' ' -f1 /proc/loadavg)"
for r in $(seq "$rounds"); do
  for b in "${benches[@]}"; do
    pkg=${b%%:*} re=${b#*:}
    for side in old new; do
      root=.
      [ "$side" = old ] && root=$tmp/old
      (cd "$root/$pkg" && "$tmp/$side-${pkg//\//_}.test" -test.run '^$' -test.bench "$re" -test.benchtime 1s) |
        awk -v side="$side" -v r="$r" '/^Benchmark/ {sub(/-[0-9]+$/, "", $1); print r, side, $1, $3}'
    done
  done
done > "$tmp/rounds.txt"
echo "load average after: $(cut -d' ' -f1 /proc/loadavg)"
awk '
  { t[$3, $2, $1] = $4; names[$3] = 1; if ($1 > n) n = $1 }
  function median(a, k,   i, j, x) { # a[1..k], sorted in place
    for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  END {
    for (b in names) {
      lo = 1e9; hi = 0
      for (r = 1; r <= n; r++) {
        o[r] = t[b, "old", r]; w[r] = t[b, "new", r]; q = w[r] / o[r]
        if (q < lo) lo = q; if (q > hi) hi = q
      }
      mo = median(o, n); mw = median(w, n)
      printf "%-42s %12.0f %12.0f %8.3f %8.3f %8.3f\n", b, mo, mw, mw / mo, lo, hi
    }
  }' "$tmp/rounds.txt" | sort | sed "1i $(printf '%-42s %12s %12s %8s %8s %8s' benchmark 'old ns/op' 'new ns/op' new/old min max)"
