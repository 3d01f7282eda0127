#!/usr/bin/env bash
# relurl against the Python stack crawl users run today, on the same WARC,
# in the same run: FastWARC's record reading against relurl's (go test
# -bench Reader ./warc), and FastWARC + selectolax + urljoin link
# extraction against relurl links. Installs the Python side, pinned, into
# bench/.venv-python (PyPI): bench/warc-python/requirements.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
archive=$(realpath "${1:-../shared/data/warc/docs-crawl.warc.gz}")
venv=bench/.venv-python
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check -r bench/warc-python/requirements.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/relurl" ./cmd/relurl
echo "== relurl's record reading (warc.Reader, docs-crawl.warc.gz, 71.5 MB of records), gzip members inflated one at a time and on 2 cores, 10 interleaved rounds:"
go test -run '^$' -bench 'Reader$' -count 10 ./warc | awk '
  /^BenchmarkReader\/Inflaters=1/ { one[++n1] = $3 }
  /^BenchmarkReader\/Inflaters=2/ { two[++n2] = $3; r = one[n2] / $3; if (lo == "" || r < lo) lo = r }
  function median(a, n,   i, j, t) {
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END {
    m1 = median(one, n1); m2 = median(two, n2)
    printf "Inflaters=1 %.1f ms, Inflaters=2 %.1f ms: %.2fx (median), %.2fx in the slowest round\n", m1 / 1e6, m2 / 1e6, m1 / m2, lo
  }'
echo "== the Python stack and relurl links:"
"$venv/bin/python" bench/warc-python/compare.py "$tmp/relurl" "$archive" 5
