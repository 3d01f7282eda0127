#!/usr/bin/env bash
# relurl links over many archives at once (issue "every core"): eight
# copies of docs-crawl.warc.gz, read with -j 1 and with -j N, in interleaved
# rounds (bench/interleave: medians, the smallest ratio, the load); then
# one run at -j N under a CPU profile (RELURL_CPUPROFILE), whose samples
# carry their goroutine's stage (read: the inputs' readers; inflate: the
# gzip inflaters; work: extraction; write: the ordered output), to give
# the CPU seconds of each stage, the serial share (read and write, one
# goroutine per archive and per run) and what Amdahl's law predicts of 4,
# 8 and 16 cores from it.
#
#   bash bench/archives.sh [N] [ROUNDS]     (N: the cores to use, default all)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${1:-$(nproc)}
rounds=${2:-5}
archive=$(realpath ../shared/data/warc/docs-crawl.warc.gz)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -o "$tmp/relurl" ./cmd/relurl
go build -o "$tmp/interleave" ./bench/interleave
for i in 1 2 3 4 5 6 7 8; do cp "$archive" "$tmp/crawl-$i.warc.gz"; done
echo "== relurl links -tsv over 8 archives ($(du -ch "$tmp"/crawl-*.warc.gz | tail -1 | cut -f1) gzip), -j 1 against -j $jobs, $rounds interleaved rounds:"
"$tmp/interleave" -rounds "$rounds" \
  "j1=$tmp/relurl links -tsv -j 1 $tmp/crawl-*.warc.gz > /dev/null 2>&1" \
  "j$jobs=$tmp/relurl links -tsv -j $jobs $tmp/crawl-*.warc.gz > /dev/null 2>&1"
echo "== CPU by stage at -j $jobs (one profiled run):"
RELURL_CPUPROFILE="$tmp/cpu.out" "$tmp/relurl" links -tsv -j "$jobs" "$tmp"/crawl-*.warc.gz > /dev/null 2>&1
go tool pprof -tags "$tmp/relurl" "$tmp/cpu.out" 2>/dev/null | awk '
  /^ *stage:/ { on = 1; next }
  on && /%\)/ {
    v = $1; unit = v; sub(/[0-9.]+/, "", unit); sub(/[a-z]+$/, "", v)
    s = (unit == "ms") ? v / 1000 : v
    name = $NF; t[name] = s; total += s
  }
  END {
    for (n in t) printf "  %-8s %6.2f s  %5.1f%%\n", n, t[n], 100 * t[n] / total
    serial = (t["read"] + t["write"]) / total
    printf "  serial (read + write): %.1f%% of %.2f s of CPU\n", 100 * serial, total
    for (n = 4; n <= 16; n *= 2) printf "  Amdahl: %d cores at most %.1fx one\n", n, 1 / (serial + (1 - serial) / n)
  }'
