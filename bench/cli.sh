#!/usr/bin/env bash
# Compares "relurl resolve -pairs" with the same filter written with net/url
# (bench/neturl-resolve), as whole processes, on the 207,861 page/href pairs
# of ../shared/data/doc-links.tsv.gz. Uses hyperfine when it is installed
# (apt-get install hyperfine), else the shell's time over a few runs.
#
#   bash bench/cli.sh
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data/doc-links.tsv.gz
[ -f "$data" ] || { echo "bench/cli.sh: $data is missing" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/relurl" ./cmd/relurl
go build -o "$tmp/neturl-resolve" ./bench/neturl-resolve
gzip -dc "$data" > "$tmp/pairs.tsv"
echo "input: $(wc -l < "$tmp/pairs.tsv") pairs, $(wc -c < "$tmp/pairs.tsv") bytes"

if command -v hyperfine >/dev/null; then
  hyperfine --warmup 2 --runs 20 \
    "$tmp/relurl resolve -pairs < $tmp/pairs.tsv > /dev/null" \
    "$tmp/relurl resolve -rfc 3986 -pairs < $tmp/pairs.tsv > /dev/null" \
    "$tmp/neturl-resolve < $tmp/pairs.tsv > /dev/null"
else
  for cmd in "$tmp/relurl resolve -pairs" "$tmp/relurl resolve -rfc 3986 -pairs" "$tmp/neturl-resolve"; do
    echo "$cmd"
    for _ in 1 2 3 4 5; do
      /usr/bin/time -f "  %e s, %M KiB max RSS" $cmd < "$tmp/pairs.tsv" > /dev/null
    done
  done
fi
