#!/usr/bin/env bash
# Writes cmd/relurl/default.pgo, the CPU profile that "go build" uses to
# optimize relurl (profile-guided optimization: go.dev/doc/pgo), from the
# runs relurl's users pay for, each profiled by RELURL_CPUPROFILE and the
# profiles merged: links over the 1,699 pages as files (with one worker,
# whose files are read on the other core, and with the default, a worker
# on each core, which reads its own) and over wget's crawl as one WARC,
# check of the Rust book's Markdown, and resolve of the 207,861 page/href
# pairs. The profile is of a build without PGO, as Go advises; run it
# again when the hot paths change (a stale profile costs only the gain).
#
#   bash bench/pgo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -pgo=off -o "$tmp/relurl" ./cmd/relurl
mkdir -p "$tmp/pages/python" "$tmp/pages/postgresql" "$tmp/book"
tar -xzf "$data/python3.11-doc-html.tar.gz" -C "$tmp/pages/python" --strip-components=1
tar -xzf "$data/postgresql-15-doc-html.tar.gz" -C "$tmp/pages/postgresql" --strip-components=1
tar -xzf "$data/markdown/rust-book-src.tar.gz" -C "$tmp/book"
gzip -dc "$data/doc-links.tsv.gz" > "$tmp/pairs.tsv"
n=0
profile() { # runs relurl with its arguments, profiled, output dropped
  n=$((n + 1))
  RELURL_CPUPROFILE="$tmp/$n.prof" "$tmp/relurl" "$@" > /dev/null 2>&1 || true
}
for _ in 1 2 3 4 5 6; do
  profile links -j 1 -tsv -map "$tmp/pages=https://docs.example/" "$tmp/pages"
done
for _ in 1 2 3; do
  profile links -tsv -map "$tmp/pages=https://docs.example/" "$tmp/pages"
done
for _ in 1 2 3; do
  profile links -j 1 -tsv "$data/warc/docs-crawl.warc.gz"
done
for _ in 1 2 3 4 5 6; do
  profile check -offline "$tmp/book/src"
done
RELURL_CPUPROFILE="$tmp/resolve.prof" "$tmp/relurl" resolve -pairs < "$tmp/pairs.tsv" > /dev/null
profiles=("$tmp"/*.prof)
go tool pprof -proto "${profiles[@]}" > cmd/relurl/default.pgo
echo "cmd/relurl/default.pgo: ${#profiles[@]} runs profiled, $(wc -c < cmd/relurl/default.pgo) bytes"
