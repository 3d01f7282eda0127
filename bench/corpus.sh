#!/usr/bin/env bash
# Times "relurl links" over a corpus, as whole processes, in interleaved
# rounds (bench/interleave: medians, the smallest ratio, the load): the
# 1,699 pages of ../shared/data as a tree of files, -j 1 and -j 2, against
# two yardsticks, bench/xnet-tokenize (golang.org/x/net/html's tokenizer
# alone over the same files: what any extractor on it costs at least) and
# bench/htmlparse-links (html.Parse and net/url, as Go crawlers do it); then
# wget's crawl of them as one WARC, -j 1 and -j 2. Needs GNU time for the
# peak memory.
#
#   bash bench/corpus.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
if ! command -v /usr/bin/time >/dev/null; then
  echo "bench/corpus.sh needs GNU time: apt-get install time" >&2
  exit 1
fi
data=../shared/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/relurl" ./cmd/relurl
go build -o "$tmp/htmlparse-links" ./bench/htmlparse-links
go build -o "$tmp/xnet-tokenize" ./bench/xnet-tokenize
go build -o "$tmp/interleave" ./bench/interleave
mkdir -p "$tmp/pages/python" "$tmp/pages/postgresql"
tar -xzf "$data/python3.11-doc-html.tar.gz" -C "$tmp/pages/python" --strip-components=1
tar -xzf "$data/postgresql-15-doc-html.tar.gz" -C "$tmp/pages/postgresql" --strip-components=1
pages=$tmp/pages
warc=$data/warc/docs-crawl.warc.gz
echo "pages: $(find "$pages" -name '*.html' | wc -l) files, $(du -sb "$pages" | cut -f1) bytes"

echo "== the pages as files"
"$tmp/interleave" -rounds "$rounds" \
  "xnet-tokenize=$tmp/xnet-tokenize $pages" \
  "relurl links -tsv -j 1=$tmp/relurl links -tsv -j 1 -map $pages=https://docs.example/ $pages" \
  "relurl links -tsv -j 2=$tmp/relurl links -tsv -j 2 -map $pages=https://docs.example/ $pages" \
  "htmlparse-links=$tmp/htmlparse-links $pages https://docs.example/"
echo "== the crawl as one WARC"
"$tmp/interleave" -rounds "$rounds" \
  "relurl links -tsv -j 1=$tmp/relurl links -tsv -j 1 $warc" \
  "relurl links -tsv -j 2=$tmp/relurl links -tsv -j 2 $warc"

echo "links: $("$tmp/relurl" links -tsv -map "$pages=https://docs.example/" "$pages" 2>/dev/null | wc -l) from the pages," \
  "$("$tmp/relurl" links -tsv "$warc" 2>/dev/null | wc -l) from the WARC"
/usr/bin/time -f "peak RSS, -j 2 over the pages: %M KiB" "$tmp/relurl" links -tsv -j 2 -map "$pages=https://docs.example/" "$pages" > /dev/null 2> >(grep peak >&2)
/usr/bin/time -f "peak RSS, -j 2 over the WARC: %M KiB" "$tmp/relurl" links -tsv -j 2 "$warc" > /dev/null 2> >(grep peak >&2)
