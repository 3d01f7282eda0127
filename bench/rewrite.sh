#!/usr/bin/env bash
# Times "relurl rewrite -relative" over the 1,699 pages of ../shared/data,
# each tree with its real URL, as whole processes writing a copy of the
# trees into a directory on tmpfs (/dev/shm: this machine's disk takes a
# second to create 1,699 files, whatever writes them), in interleaved
# rounds (bench/interleave: medians, the smallest ratio, the load), beside
# "cp -r" of the same trees to the same place: the floor of any tool that
# writes a copy. Then GNU wget's -k (--convert-links), the step wget runs
# over a mirror once its crawl is done: wget crawls the trees from a
# loopback server (python3 -m http.server) and reports the time of its
# convert step alone, in rounds that alternate with relurl -j 1.
#
#   bash bench/rewrite.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
data=../shared/data
tmp=$(mktemp -d)
out=$(mktemp -d -p /dev/shm)
server=
trap '[ -n "$server" ] && kill "$server"; rm -rf "$tmp" "$out"' EXIT
go build -o "$tmp/relurl" ./cmd/relurl
go build -o "$tmp/interleave" ./bench/interleave
mkdir -p "$tmp/pages/python" "$tmp/pages/postgresql"
tar -xzf "$data/python3.11-doc-html.tar.gz" -C "$tmp/pages/python" --strip-components=1
tar -xzf "$data/postgresql-15-doc-html.tar.gz" -C "$tmp/pages/postgresql" --strip-components=1
pages=$tmp/pages
bytes=$(du -sb "$pages" | cut -f1)
echo "pages: $(find "$pages" -name '*.html' | wc -l) files, $bytes bytes"
py=https://docs.python.org/3.11/ pg=https://www.postgresql.org/docs/15/
rewrite="$tmp/relurl rewrite -relative $py -map $pages/python=$py -relative $pg -map $pages/postgresql=$pg"

echo "== a rewritten copy of the trees, on tmpfs"
"$tmp/interleave" -rounds "$rounds" \
  "cp -r=rm -rf $out/cp && cp -r $pages $out/cp" \
  "relurl rewrite -j 1=rm -rf $out/j1 && $rewrite -j 1 -o $out/j1 $pages" \
  "relurl rewrite -j 2=rm -rf $out/j2 && $rewrite -j 2 -o $out/j2 $pages"
"$tmp/relurl" rewrite -relative $py -map "$pages/python=$py" -relative $pg -map "$pages/postgresql=$pg" -l "$pages" | wc -l |
  xargs printf 'documents that change: %s\n'

echo "== wget -k's convert step, alternating with relurl rewrite -j 1"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$pages" "$port" >/dev/null 2>&1 &
server=$!
for _ in $(seq 50); do
  python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break
  sleep 0.1
done
wget_times=() relurl_times=()
for round in $(seq 3); do
  rm -rf "$out/wget"
  line=$(timeout 600 wget -r -l inf -np -nH -k -P "$out/wget" -e robots=off \
    "http://127.0.0.1:$port/python/index.html" "http://127.0.0.1:$port/postgresql/index.html" 2>&1 |
    grep '^Converted links in' || true)
  [ -n "$line" ] || { echo "wget converted nothing" >&2; exit 1; }
  wget_times+=("$(echo "$line" | sed 's/.* in \([0-9.]*\) seconds.*/\1/')")
  rm -rf "$out/j1"
  start=$(date +%s.%N)
  $rewrite -j 1 -o "$out/j1" "$pages"
  relurl_times+=("$(echo "$(date +%s.%N) - $start" | bc)")
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
converted=$(find "$out/wget" -name '*.html' -print0 | du -cb --files0-from=- | tail -1 | cut -f1)
echo "$line"
printf 'wget -k convert step: median %s s over %s bytes (%s MB/s)\n' "$(median "${wget_times[@]}")" "$converted" \
  "$(echo "scale=1; $converted / $(median "${wget_times[@]}") / 1000000" | bc)"
printf 'relurl rewrite -j 1, whole process: median %s s over %s bytes (%s MB/s)\n' "$(median "${relurl_times[@]}")" "$bytes" \
  "$(echo "scale=1; $bytes / $(median "${relurl_times[@]}") / 1000000" | bc)"
