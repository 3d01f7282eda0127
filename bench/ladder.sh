#!/usr/bin/env bash
# The ladder of HTML engines on the 1,699 pages of ../shared/data, one core,
# in memory, MB/s, in interleaved rounds (each round runs every rung once):
# bytes.IndexByte finding every "<" (the floor of any tokenizer), htmltok,
# golang.org/x/net/html's tokenizer (the same loop: every token, each start
# tag's name and attributes: go test -bench Tokenize ./htmltok),
# links.Extractor now and at commit OLD (default 63ab8d1, the last on x/net's
# tokenizer: go test -bench 'Links$' ./links, built from git history in a
# temporary worktree), and selectolax (Lexbor, C) parsing each page and
# reading every href and src, from PyPI into bench/.venv-python, as
# bench/warc-python.sh installs it. Prints each rung's median, its ratio to
# x/net's tokenizer, the smallest such ratio over the rounds, and the
# Extractor's against its old self.
#
#   bash bench/ladder.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
old=${OLD:-63ab8d1}
venv=bench/.venv-python
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check -r bench/warc-python/requirements.txt
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/old" 2>/dev/null; rm -rf "$tmp"' EXIT
git worktree add -q --detach "$tmp/old" "$old"
ln -s "$(realpath ../shared)" "$tmp/shared" # the old tree's ../shared
go test -c -o "$tmp/htmltok.test" ./htmltok
go test -c -o "$tmp/links.test" ./links
(cd "$tmp/old" && go test -c -o "$tmp/links-old.test" ./links)
data=$(realpath ../shared/data)
echo "load average before: $(cut -d' ' -f1 /proc/loadavg)"
for r in $(seq "$rounds"); do
  (cd htmltok && "$tmp/htmltok.test" -test.run '^$' -test.bench Tokenize -test.benchtime 5x) |
    awk '/^Benchmark/ {split($1, n, "/"); sub(/-[0-9]+$/, "", n[2]); print n[2], $5}'
  (cd links && "$tmp/links.test" -test.run '^$' -test.bench 'Links$' -test.benchtime 5x) |
    awk '/^Benchmark/ {print "links.Extractor", $5}'
  (cd "$tmp/old/links" && "$tmp/links-old.test" -test.run '^$' -test.bench 'Links$' -test.benchtime 3x) |
    awk -v old="$old" '/^Benchmark/ {print "links.Extractor@" old, $5}'
  "$venv/bin/python" bench/warc-python/ladder.py "$data" 1
done > "$tmp/rounds.txt"
echo "load average after: $(cut -d' ' -f1 /proc/loadavg); $rounds interleaved rounds"
awk '
  { v[$1] = v[$1] " " $2; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } ; round[$1, ++k[$1]] = $2 }
  function median(s,   a, m, i, j, t) {
    m = split(s, a, " ")
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
  }
  END {
    x = median(v["x-net-html"])
    printf "%-32s %10s %10s %12s\n", "", "MB/s", "vs x/net", "min vs x/net"
    for (i = 1; i <= n; i++) {
      name = order[i]; lo = 1e9
      for (j = 1; j <= k[name]; j++) { r = round[name, j] / round["x-net-html", j]; if (r < lo) lo = r }
      printf "%-32s %10.1f %9.2fx %11.2fx\n", name, median(v[name]), median(v[name]) / x, lo
      if (name ~ /@/) old = name
    }
    lo = 1e9
    for (j = 1; j <= k[old]; j++) { r = round["links.Extractor", j] / round[old, j]; if (r < lo) lo = r }
    printf "links.Extractor is %.2fx %s (median), %.2fx in the slowest round\n", median(v["links.Extractor"]) / median(v[old]), old, lo
  }' "$tmp/rounds.txt"
