#!/usr/bin/env bash
# Times "relurl links" over a corpus, as whole processes: the 1,699 pages
# of ../shared/data as a tree of files (-j 1 and -j 2, against
# bench/htmlparse-links, the yardstick: html.Parse and net/url, one page
# after another), and wget's crawl of them as one WARC. Needs hyperfine
# (apt-get install hyperfine) and GNU time for the peak memory.
#
#   bash bench/corpus.sh
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in hyperfine /usr/bin/time; do
  if ! command -v "$tool" >/dev/null; then
    echo "bench/corpus.sh needs $tool: apt-get install hyperfine time" >&2
    exit 1
  fi
done
data=../shared/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/relurl" ./cmd/relurl
go build -o "$tmp/htmlparse-links" ./bench/htmlparse-links
mkdir -p "$tmp/pages/python" "$tmp/pages/postgresql"
tar -xzf "$data/python3.11-doc-html.tar.gz" -C "$tmp/pages/python" --strip-components=1
tar -xzf "$data/postgresql-15-doc-html.tar.gz" -C "$tmp/pages/postgresql" --strip-components=1
pages=$tmp/pages
echo "pages: $(find "$pages" -name '*.html' | wc -l) files, $(du -sb "$pages" | cut -f1) bytes"

hyperfine --warmup 1 --runs 10 \
  "$tmp/relurl links -tsv -j 2 -map $pages=https://docs.example/ $pages > /dev/null" \
  "$tmp/relurl links -tsv -j 1 -map $pages=https://docs.example/ $pages > /dev/null" \
  "$tmp/htmlparse-links $pages https://docs.example/ > /dev/null" \
  "$tmp/relurl links -tsv -j 2 $data/warc/docs-crawl.warc.gz > /dev/null" \
  "$tmp/relurl links -tsv -j 1 $data/warc/docs-crawl.warc.gz > /dev/null"

echo "links: $("$tmp/relurl" links -tsv -map "$pages=https://docs.example/" "$pages" 2>/dev/null | wc -l) from the pages," \
  "$("$tmp/relurl" links -tsv "$data/warc/docs-crawl.warc.gz" 2>/dev/null | wc -l) from the WARC"
/usr/bin/time -f "peak RSS, -j 2 over the pages: %M KiB" "$tmp/relurl" links -tsv -j 2 -map "$pages=https://docs.example/" "$pages" > /dev/null 2> >(grep peak >&2)
