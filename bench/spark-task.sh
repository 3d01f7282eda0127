#!/usr/bin/env bash
# relurl inside a Spark task against relurl alone, on the same archive, in
# the same run: the Spark job (spark/jobs/links.py, local[2]) times each
# archive's relurl subprocess (the archives table's seconds, not the JVM's
# start), and the same relurl links -j 1 -json runs alone. Prints the
# medians of 5 and the ratio of MB/s. Needs spark/.venv (bash spark/test.sh
# makes it) and Java 17.
set -euo pipefail
cd "$(dirname "$0")/.."
archive=$(realpath "${1:-../shared/data/warc/docs-crawl.warc.gz}")
venv=spark/.venv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/relurl" ./cmd/relurl
(cd spark && "$PWD/.venv/bin/python" -m zipfile -c "$tmp/relurl_spark.zip" relurl_spark)
spark_home=$("$venv/bin/python" -c 'import pyspark, os; print(os.path.dirname(pyspark.__file__))')
printf '%s\n' "$archive" "$archive" "$archive" "$archive" "$archive" > "$tmp/manifest"
SPARK_HOME=$spark_home SPARK_LOCAL_IP=127.0.0.1 "$spark_home/bin/spark-submit" --master 'local[1]' \
  --conf spark.pyspark.python="$PWD/$venv/bin/python" --conf spark.ui.enabled=false \
  --py-files "$tmp/relurl_spark.zip" --files "$tmp/relurl" \
  spark/jobs/links.py --manifest "$tmp/manifest" --out "$tmp/out" --relurl relurl --partitions 1 2>/dev/null
"$venv/bin/python" - "$tmp/relurl" "$archive" "$tmp/out/archives" <<'PY'
import statistics, subprocess, sys, time
import pyarrow.parquet as pq
relurl, archive, table = sys.argv[1:]
size = __import__("os").path.getsize(archive) / 1e6
task = statistics.median(r["seconds"] for r in pq.read_table(table).to_pylist())
alone = []
for _ in range(5):
    start = time.perf_counter()
    subprocess.run([relurl, "links", "-json", "-j", "1", archive], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    alone.append(time.perf_counter() - start)
alone = statistics.median(alone)
print(f"relurl links -j 1 -json alone:   {alone*1000:7.1f} ms, {size/alone:6.1f} MB/s of archive")
print(f"the same in a Spark task:        {task*1000:7.1f} ms, {size/task:6.1f} MB/s of archive")
print(f"the task keeps {alone/task*100:.0f}% of relurl's MB/s")
PY
