#!/usr/bin/env bash
# Compares relurl's WHATWG URL parser with Node's URL (the ada C++ parser),
# per pair, on the 207,861 page/href pairs of
# ../shared/data/doc-links.tsv.gz: new URL(href, page).href in a Node loop,
# timed in the process after the data is read, beside the Go benchmarks of
# the same work (the page parsed once per page; and again for each pair, as
# new URL does with a string base). Then both as whole filters, when
# hyperfine is installed. Run by hand; it needs node.
#
#   bash bench/whatwg-node.sh
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data/doc-links.tsv.gz
[ -f "$data" ] || { echo "bench/whatwg-node.sh: $data is missing" >&2; exit 1; }
command -v node >/dev/null || { echo "bench/whatwg-node.sh: node is not installed" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gzip -dc "$data" > "$tmp/pairs.tsv"
echo "node $(node --version) (ada $(node -p process.versions.ada)), $(wc -l < "$tmp/pairs.tsv") pairs"

cat > "$tmp/loop.js" <<'JS'
const lines = require("fs").readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean);
const bases = [], refs = [];
for (const l of lines) { const t = l.indexOf("\t"); bases.push(l.slice(0, t)); refs.push(l.slice(t + 1)); }
let n = 0;
const run = () => { for (let i = 0; i < refs.length; i++) n += new URL(refs[i], bases[i]).href.length; };
for (let w = 0; w < 3; w++) run(); // warm up the JIT
const times = [];
for (let r = 0; r < 10; r++) {
  const t0 = process.hrtime.bigint(); run(); const t1 = process.hrtime.bigint();
  times.push(Number(t1 - t0) / refs.length);
}
times.sort((a, b) => a - b);
console.log(`node new URL(href, page).href: ${((times[4] + times[5]) / 2).toFixed(1)} ns/pair (median of 10 passes)`);
JS
node "$tmp/loop.js" "$tmp/pairs.tsv"

echo "go test -bench (median of -count 10):"
go test -run '^$' -bench 'BaseURLAppendResolve/spec=whatwg$|WebAppendResolve$' -count 10 . |
  awk '/^Benchmark/ { name = $1; sub(/-[0-9]+$/, "", name); print name, $3 }' | sort -k1,1 -k2,2n |
  awk '{ v[$1] = v[$1] " " $2; n[$1]++ }
       END { for (b in v) { split(substr(v[b], 2), x, " "); k = n[b]
             printf "  %s: %.1f ns/pair\n", b, (x[int((k+1)/2)] + x[int(k/2)+1]) / 2 } }'

cat > "$tmp/filter.js" <<'JS'
const rl = require("readline").createInterface({input: process.stdin});
const out = [];
rl.on("line", l => { const t = l.indexOf("\t"); try { out.push(new URL(l.slice(t + 1), l.slice(0, t)).href); } catch (e) { out.push(""); } });
rl.on("close", () => process.stdout.write(out.join("\n") + "\n"));
JS
go build -o "$tmp/relurl" ./cmd/relurl
if command -v hyperfine >/dev/null; then
  hyperfine --warmup 2 --runs 10 \
    "$tmp/relurl resolve -spec whatwg -pairs < $tmp/pairs.tsv > /dev/null" \
    "node $tmp/filter.js < $tmp/pairs.tsv > /dev/null"
fi
