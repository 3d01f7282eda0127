"""The link graph of WARC archives, as Parquet: relurl on every archive of a
manifest, in Spark tasks.

    spark-submit --master spark://HOST:7077 --files /path/to/relurl \\
        -m relurl_spark.links ...   (or the path of this file)
        --manifest warc.paths.gz --prefix https://data.commoncrawl.org/ \\
        --out s3a://bucket/links/

The job reads the manifest (one archive a line: a path, an http(s) URL or
s3://BUCKET/KEY, relative lines joined to --prefix by relurl), spreads the
archives over tasks, and in each task runs one relurl process at a time,
one per archive, with -j 1 (one core per task, as Spark counts them),
reading its -json output. It writes, below --out:

- links/     one row per link: LINK_SCHEMA of runner.py, plus archive
- archives/  one row per archive: archive, exit_status, links, warnings,
             unreadable, cut, partial, seconds, error
- failures/  the archives relurl could not read whole: archive,
             exit_status, partial, unreadable, cut, error (the links it
             gave are in links/). partial is true when relurl read the
             archive to its end but lost records: unreadable gave none of
             their links, cut only some.

Only the DataFrame API is used (mapInArrow), so the job runs where there
are no RDDs (Spark Connect, serverless platforms) as well.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import pyarrow as pa

from relurl_spark import runner

# The rows mapInArrow yields: a link (kind "link"), or an archive's outcome
# (kind "archive"); the job splits them into the tables.
ARCHIVE_FIELDS = [
    ("exit_status", pa.int32()),
    ("links", pa.int64()),
    ("warnings", pa.int32()),
    ("unreadable", pa.int32()),
    ("cut", pa.int32()),
    ("partial", pa.bool_()),
    ("seconds", pa.float64()),
    ("archive_error", pa.string()),
]
ROW_SCHEMA = pa.schema([("kind", pa.string()), ("archive", pa.string()), *runner.LINK_SCHEMA, *ARCHIVE_FIELDS])

# Passed from the driver's environment to relurl by default: what the AWS
# SDK's credential chain and endpoint settings read.
DEFAULT_PASSED = (
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_PROFILE",
    "AWS_ENDPOINT_URL",
    "AWS_ENDPOINT_URL_S3",
    "AWS_EC2_METADATA_DISABLED",
)


@dataclass
class Task:
    """What each task needs, shipped from the driver with the function."""

    relurl: str  # a path on the executors, or the name of a file shipped with --files
    prefix: str = ""
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        with runner.in_task(self.relurl, self.env) as (relurl, env):
            for batch in batches:
                for archive in batch.column("archive").to_pylist():
                    yield from self.one(relurl, archive, env)

    def one(self, relurl: str, archive: str, env: dict[str, str]) -> Iterator[pa.RecordBatch]:
        outcomes: list[runner.Outcome] = []
        for links in runner.run(relurl, archive, self.prefix, self.args, env, outcomes):
            yield widen(links, "link", archive)
        o = outcomes[0]
        row: dict[str, list] = {f.name: [None] for f in ROW_SCHEMA}
        row |= {
            "kind": ["archive"],
            "archive": [archive],
            "exit_status": [o.exit_status],
            "links": [o.links],
            "warnings": [o.warnings],
            "unreadable": [o.unreadable],
            "cut": [o.cut],
            "partial": [o.partial],
            "seconds": [o.seconds],
            "archive_error": [o.error or None],
        }
        yield pa.RecordBatch.from_pydict(row, schema=ROW_SCHEMA)


def widen(links: pa.RecordBatch, kind: str, archive: str) -> pa.RecordBatch:
    """A batch of links as ROW_SCHEMA rows."""
    n = links.num_rows
    cols: list[pa.Array] = []
    for f in ROW_SCHEMA:
        if f.name == "kind":
            cols.append(pa.array([kind] * n, pa.string()))
        elif f.name == "archive":
            cols.append(pa.array([archive] * n, pa.string()))
        elif f.name in runner.LINK_SCHEMA.names:
            cols.append(links.column(f.name))
        else:
            cols.append(pa.nulls(n, f.type))
    return pa.RecordBatch.from_arrays(cols, schema=ROW_SCHEMA)


def read_manifest(spark, manifest: str):  # noqa: ANN001, ANN201 (pyspark types)
    """The archives of a local manifest (gzip or not), one row each. A
    manifest in S3 or over HTTP: fetch it with relurl's -files, or give
    Spark's own path (spark.read.text reads s3a:// and gzip)."""
    import gzip

    opener = gzip.open if manifest.endswith(".gz") else open
    with opener(manifest, "rt", encoding="utf-8-sig") as f:
        names = [line.strip() for line in f if line.strip()]
    return spark.createDataFrame([(n,) for n in names], "archive string")


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="relurl-spark-links", description=__doc__.split("\n\n")[0])
    p.add_argument("--manifest", required=True, help="archives, one a line: paths, http(s) URLs, s3:// (gzip or not)")
    p.add_argument("--prefix", default="", help="joined to each relative line by relurl's -prefix")
    p.add_argument("--out", required=True, help="the directory of the links/, archives/ and failures/ tables")
    p.add_argument("--relurl", default="relurl", help="relurl on the executors: a path, or the name of a file given to --files (default relurl)")
    p.add_argument("--ship", help="a local relurl binary to ship to the executors (SparkContext.addFile), instead of --files")
    p.add_argument("--partitions", type=int, default=0, help="tasks to spread the archives over (default: one per archive, at most 10,000)")
    p.add_argument("--pass-env", action="append", default=[], metavar="NAME", help="also pass this variable of the driver's environment to relurl")
    p.add_argument("--relurl-arg", action="append", default=[], metavar="ARG", help="an argument for relurl links, such as -spec=whatwg (repeatable)")
    p.add_argument("--mode", default="errorifexists", help="the DataFrame writer's save mode (default errorifexists)")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from pyspark.sql import SparkSession
    from pyspark.sql.pandas.types import from_arrow_schema
    from pyspark.storagelevel import StorageLevel

    spark = SparkSession.builder.appName("relurl links").getOrCreate()
    relurl = args.relurl
    if args.ship:
        spark.sparkContext.addFile(args.ship)
        relurl = os.path.basename(args.ship)
    passed = {k: os.environ[k] for k in (*DEFAULT_PASSED, *args.pass_env) if k in os.environ}
    task = Task(relurl=relurl, prefix=args.prefix, args=args.relurl_arg, env=passed)

    archives = read_manifest(spark, args.manifest)
    n = args.partitions or min(max(archives.count(), 1), 10_000)
    rows = archives.repartition(n).mapInArrow(task, from_arrow_schema(ROW_SCHEMA)).persist(StorageLevel.DISK_ONLY)
    try:
        link_cols = ["archive", *runner.LINK_SCHEMA.names]
        rows.where("kind = 'link'").select(*link_cols).write.mode(args.mode).parquet(os.path.join(args.out, "links"))
        outcomes = rows.where("kind = 'archive'").selectExpr(
            "archive", "exit_status", "links", "warnings", "unreadable", "cut", "partial", "seconds", "archive_error AS error"
        )
        outcomes.write.mode(args.mode).parquet(os.path.join(args.out, "archives"))
        failures = outcomes.where("exit_status <> 0").select("archive", "exit_status", "partial", "unreadable", "cut", "error")
        failures.write.mode(args.mode).parquet(os.path.join(args.out, "failures"))
        failed = failures.count()
        partial = failures.where("partial").count()
    finally:
        rows.unpersist()
    total = archives.count()
    print(f"relurl-spark-links: {total} archives, {total - failed} read whole, {partial} read in part, {failed - partial} failed", file=sys.stderr)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
