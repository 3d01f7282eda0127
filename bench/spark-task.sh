#!/usr/bin/env bash
# relurl inside a Spark task against relurl alone, on the same archive, in
# the same run, interleaved: each of ROUNDS rounds (default 3) submits the
# Spark job (spark/jobs/links.py, local[1]) over the archive three times and
# takes each archive's relurl wall time in the task (the archives table's
# seconds: relurl writing its Arrow stream while the task hands the batches
# to Spark, not the JVM's start), then runs the same relurl links -j 1
# -format arrow alone three times. Prints the medians, the ratio of MB/s
# (the task's share of relurl alone), its minimum over the rounds, -json
# alone for the record, and the load. Needs spark/.venv (bash spark/test.sh
# makes it) and Java 17.
set -euo pipefail
cd "$(dirname "$0")/.."
archive=$(realpath "${1:-../shared/data/warc/docs-crawl.warc.gz}")
rounds=${ROUNDS:-3}
venv=spark/.venv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -o "$tmp/relurl" ./cmd/relurl
spark_home=$("$venv/bin/python" -c 'import pyspark, os; print(os.path.dirname(pyspark.__file__))')
printf '%s\n' "$archive" "$archive" "$archive" > "$tmp/manifest"
for r in $(seq "$rounds"); do
  SPARK_HOME=$spark_home SPARK_LOCAL_IP=127.0.0.1 "$spark_home/bin/spark-submit" --master 'local[1]' \
    --conf spark.pyspark.python="$PWD/$venv/bin/python" --conf spark.ui.enabled=false --files "$tmp/relurl" \
    spark/jobs/links.py --manifest "$tmp/manifest" --out "$tmp/out$r" --relurl relurl --partitions 1 >/dev/null 2>&1
  "$venv/bin/python" - "$tmp/relurl" "$archive" "$tmp/out$r/archives" "$tmp/times" <<'PY'
import json, os, subprocess, sys, time
import pyarrow.parquet as pq
relurl, archive, table, times = sys.argv[1:]
task = [r["seconds"] for r in pq.read_table(table).to_pylist()]
alone, js = [], []
for _ in range(3):
    for args, into in ((["-format", "arrow"], alone), (["-json"], js)):
        start = time.perf_counter()
        subprocess.run([relurl, "links", *args, "-j", "1", archive], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        into.append(time.perf_counter() - start)
with open(times, "a") as f:
    f.write(json.dumps({"task": task, "alone": alone, "json": js, "load": os.getloadavg()[0]}) + "\n")
PY
done
"$venv/bin/python" - "$archive" "$tmp/times" <<'PY'
import json, os, statistics, sys
archive, times = sys.argv[1:]
size = os.path.getsize(archive) / 1e6
rounds = [json.loads(line) for line in open(times)]
task = statistics.median(t for r in rounds for t in r["task"])
alone = statistics.median(t for r in rounds for t in r["alone"])
js = statistics.median(t for r in rounds for t in r["json"])
low = min(statistics.median(r["alone"]) / statistics.median(r["task"]) for r in rounds)
print(f"relurl links -j 1 -format arrow alone: {alone*1000:7.1f} ms, {size/alone:6.1f} MB/s of archive")
print(f"the same in a Spark task:              {task*1000:7.1f} ms, {size/task:6.1f} MB/s of archive")
print(f"relurl links -j 1 -json alone:         {js*1000:7.1f} ms, {size/js:6.1f} MB/s of archive")
loads = ", ".join("%.2f" % r["load"] for r in rounds)
print(f"the task keeps {alone/task*100:.0f}% of relurl's MB/s (lowest round {low*100:.0f}%); {len(rounds)} rounds, load {loads}")
PY
