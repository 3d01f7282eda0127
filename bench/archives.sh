#!/usr/bin/env bash
# relurl links over many archives at once (issue "every core"): eight
# copies of docs-crawl.warc.gz, read with -j 1 and with -j N, in interleaved
# rounds (bench/interleave: medians, the smallest ratio, the load); then
# runs at -j N under a CPU profile (RELURL_CPUPROFILE), whose samples
# carry their goroutine's stage (read: the inputs' readers; inflate: the
# gzip inflaters and zstd decoders; work: extraction; write: the ordered
# output; encode: a table's batches), to give the CPU seconds of each
# stage, the serial share (read and write, one goroutine per archive and
# per run) and what Amdahl's law predicts of 4, 8 and 16 cores from it:
# for -tsv and -format parquet over the 8 archives, and for one archive
# rewritten as .warc.zst (bench/warc-zstd), -j 1 against -j N first.
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
# stages ARGS...: one run of relurl links ARGS at -j N under a CPU profile,
# and the CPU seconds of each stage, the serial share (the single
# goroutines: read, one per input, and write) and Amdahl's predictions.
stages() {
  RELURL_CPUPROFILE="$tmp/cpu.out" "$tmp/relurl" links -j "$jobs" "$@" > /dev/null 2>&1
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
}
echo "== CPU by stage, -tsv over the 8 archives at -j $jobs (one profiled run):"
stages -tsv "$tmp"/crawl-*.warc.gz
echo "== CPU by stage, -format parquet over the 8 archives at -j $jobs (encode: the row groups' columns):"
stages -format parquet -o "$tmp/links.parquet" "$tmp"/crawl-*.warc.gz
go run ./bench/warc-zstd "$archive" "$tmp/crawl.warc.zst"
echo "== one archive as .warc.zst (a frame a record, a dictionary), -tsv, -j 1 against -j $jobs, $rounds interleaved rounds:"
"$tmp/interleave" -rounds "$rounds" \
  "j1=$tmp/relurl links -tsv -j 1 $tmp/crawl.warc.zst > /dev/null 2>&1" \
  "j$jobs=$tmp/relurl links -tsv -j $jobs $tmp/crawl.warc.zst > /dev/null 2>&1"
echo "== CPU by stage, -tsv over the .warc.zst at -j $jobs (inflate: its frames):"
stages -tsv "$tmp/crawl.warc.zst"
