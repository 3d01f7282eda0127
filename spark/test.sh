#!/usr/bin/env bash
# Installs the Spark job's pinned requirements into a virtual environment
# (spark/.venv, made once) and runs its tests with pytest: the runner, the
# job on a standalone master and worker started on 127.0.0.1 and on
# local[2], the host graph. The S3 tests want versitygw: RELURL_VERSITYGW
# names it (.ci/install-versitygw builds it); Spark wants Java 17.
set -euo pipefail
cd "$(dirname "$0")"
venv="${RELURL_SPARK_VENV:-$PWD/.venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --disable-pip-version-check -r requirements.txt
"$venv/bin/pip" install -q --disable-pip-version-check --no-deps -e .
exec "$venv/bin/python" -m pytest -q -rs "$@"
