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
echo "== relurl's record reading (warc.Reader, docs-crawl.warc.gz, 71.5 MB of records), median of 5:"
go test -run '^$' -bench 'Reader$' -count 5 ./warc | grep Benchmark | sort -k3 -n | sed -n 3p
echo "== the Python stack and relurl links:"
"$venv/bin/python" bench/warc-python/compare.py "$tmp/relurl" "$archive" 5
