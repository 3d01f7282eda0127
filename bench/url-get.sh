#!/usr/bin/env bash
# Times "relurl url -get '{host}'" over the 48,010 web URLs of
# ../shared/data/urls-kasztp.txt, one process reading standard input,
# against its yardsticks in the same run: a Node script doing the same with
# new URL in a loop (bench/url-get-node.js), and a Go filter with net/url
# (bench/neturl-host). Then search parameters: the Go benchmark of
# SearchParams against net/url's ParseQuery and Encode, and Node's
# URLSearchParams on the same queries. Needs hyperfine and node. (relurl
# exits 1: some of the URLs do not parse, and it says which.)
#
#   bash bench/url-get.sh
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data/urls-kasztp.txt
[ -f "$data" ] || { echo "bench/url-get.sh: $data is missing" >&2; exit 1; }
for tool in hyperfine node; do
  command -v "$tool" >/dev/null || { echo "bench/url-get.sh needs $tool (apt-get install hyperfine nodejs)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/relurl" ./cmd/relurl
go build -o "$tmp/neturl-host" ./bench/neturl-host
echo "$(wc -l < "$data") URLs; node $(node --version)"
hyperfine -i --warmup 2 --runs 20 --export-json "$tmp/url.json" \
  "$tmp/relurl url -get {host} < $data > /dev/null" \
  "node bench/url-get-node.js $data > /dev/null" \
  "$tmp/neturl-host < $data > /dev/null" > /dev/null
node -e '
const r = require(process.argv[1]).results;
for (const x of r) console.log(`${(x.median * 1000).toFixed(1)} ms median  ${x.command.replace(/\S*\/(relurl|neturl-host)/, "$1")}`);
' "$tmp/url.json"

echo "search params, parse and serialize, per query (go test -bench, median of -count 10):"
go test -run '^$' -bench 'BenchmarkSearchParams' -count 10 . | node -e '
const t = {};
for (const l of require("fs").readFileSync(0, "utf8").split("\n")) {
  const f = l.split(/\s+/);
  if (f[0].startsWith("Benchmark")) (t[f[0]] ??= []).push(parseFloat(f[2]));
}
for (const [k, v] of Object.entries(t)) { v.sort((a, b) => a - b); console.log(`  ${k} ${((v[4] + v[5]) / 2).toFixed(1)} ns`); }
'
node bench/searchparams-node.js "$data"
