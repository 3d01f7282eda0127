#!/usr/bin/env bash
# relurl links over wget's crawl (13.6 MB, 215,993 links) in each output
# format, at -j 1 and on every core, as whole processes in interleaved
# rounds (bench/interleave: medians, the smallest ratio, the load), -tsv
# the yardstick: -json, -format arrow (each to a pipe, as to a reader)
# and -format parquet (to a file on tmpfs). Then the sizes of the
# outputs: Parquet against the gzip'd TSV and JSON.
#
#   bash bench/tables.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
crawl=$(realpath ../shared/data/warc/docs-crawl.warc.gz)
tmp=$(mktemp -d)
out=$(mktemp -d -p /dev/shm)
trap 'rm -rf "$tmp" "$out"' EXIT
go build -o "$tmp/relurl" ./cmd/relurl
go build -o "$tmp/interleave" ./bench/interleave
r=$tmp/relurl
for j in 1 "$(nproc)"; do
  echo "== -j $j"
  "$tmp/interleave" -rounds "$rounds" \
    "tsv=$r links -j $j -tsv $crawl 2>/dev/null | cat >/dev/null" \
    "json=$r links -j $j -json $crawl 2>/dev/null | cat >/dev/null" \
    "arrow=$r links -j $j -format arrow $crawl 2>/dev/null | cat >/dev/null" \
    "parquet=$r links -j $j -format parquet -o $out/links.parquet $crawl 2>/dev/null"
done
"$r" links -tsv "$crawl" 2>/dev/null | gzip -6 > "$out/links.tsv.gz"
"$r" links -json "$crawl" 2>/dev/null | gzip -6 > "$out/links.json.gz"
"$r" links -format arrow "$crawl" 2>/dev/null > "$out/links.arrow"
ls -l "$out" | awk 'NR > 1 {printf "%-16s %10d bytes\n", $9, $5}'
