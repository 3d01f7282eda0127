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
reading the Arrow stream it writes (relurl links -format arrow). It writes,
below --out (Parquet by default; --output-format, --output-compression):

- links/     one row per link: LINK_SCHEMA of runner.py, plus archive
- archives/  one row per archive: archive, exit_status, links, warnings,
             unreadable, cut, partial, seconds, error
- failures/  the archives relurl could not read whole: archive,
             exit_status, partial, unreadable, cut, error (the links it
             gave are in links/). partial is true when relurl read the
             archive to its end but lost records: unreadable gave none of
             their links, cut only some.

Only the DataFrame API is used (mapInArrow), so the job runs where there
are no RDDs as well: with --remote sc://HOST:PORT on Spark Connect, it
ships its own package and --ship's relurl as artifacts.

It exits 0 when some archive gave links (failures/ lists the others), 1
when none did, and 2 when relurl could not run on the executors.
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
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
            cols.append(pa.repeat(pa.scalar(kind, pa.string()), n))
        elif f.name == "archive":
            cols.append(pa.repeat(pa.scalar(archive, pa.string()), n))
        elif f.name in runner.LINK_SCHEMA.names:
            cols.append(links.column(f.name))
        else:
            cols.append(pa.nulls(n, f.type))
    return pa.RecordBatch.from_arrays(cols, schema=ROW_SCHEMA)


# Manifests that Spark reads itself (its Hadoop file systems, spread over
# the cluster, gzip by the name's extension), as cc-pyspark reads them; any
# other manifest (a local file, http(s)://, s3://) relurl reads on the
# driver, as it reads archives.
HADOOP_SCHEMES = ("s3a://", "s3n://", "hdfs://", "gs://", "abfs://", "abfss://", "wasb://", "wasbs://", "file://", "viewfs://")


def read_manifest(spark, manifest: str, relurl: str | None):  # noqa: ANN001, ANN201 (pyspark types)
    """The archives of a manifest, one row each, as its lines are written
    (relurl joins them to --prefix in each task). A Hadoop path (s3a://,
    hdfs://, ...) is read by Spark; a local file, plain or gzip, here; any
    other (http(s)://, s3://, a .zst file) by relurl on the driver (relurl
    links -files MANIFEST -list-files), with relurl's retries."""
    if manifest.startswith(HADOOP_SCHEMES):
        lines = spark.read.text(manifest).withColumnRenamed("value", "archive")
        return lines.selectExpr("trim(archive) AS archive").where("archive <> ''")
    if "://" not in manifest and not manifest.endswith(".zst"):
        with open(manifest, "rb") as f:
            gz = f.read(2) == b"\x1f\x8b"
        with (gzip.open if gz else open)(manifest, "rt", encoding="utf-8-sig") as f:
            names = [line.strip() for line in f if line.strip()]
    else:
        if relurl is None:
            raise ManifestError(f"cannot read the manifest {manifest}: no relurl on the driver (give --ship PATH, or --relurl with a path)")
        try:
            p = subprocess.run([relurl, "links", "-files", manifest, "-list-files"], capture_output=True)
        except OSError as e:
            raise ManifestError(f"cannot read the manifest {manifest}: cannot run relurl ({relurl}): {e}") from e
        if p.returncode != 0:
            raise ManifestError(f"cannot read the manifest {manifest}: {p.stderr.decode(errors='replace').strip()}")
        names = [line.strip() for line in p.stdout.decode("utf-8").splitlines() if line.strip()]
    return spark.createDataFrame([(n,) for n in names], "archive string")


class ManifestError(Exception):
    """The manifest could not be read: the job exits 1 with it."""


def driver_relurl(relurl: str, ship: str | None) -> str | None:
    """The relurl the driver can run: --ship's, a path given as --relurl,
    the file spark-submit --files shipped, or one on the PATH."""
    if ship:
        return ship
    if os.sep in relurl:
        return relurl
    try:
        from pyspark import SparkFiles

        shipped = SparkFiles.get(relurl)
        if os.path.exists(shipped):
            if not os.access(shipped, os.X_OK):
                os.chmod(shipped, os.stat(shipped).st_mode | 0o100)
            return shipped
    except Exception:  # noqa: BLE001 (no SparkContext: Spark Connect)
        pass
    return shutil.which(relurl)


# The exit statuses of the job.
EXIT_OK = 0
EXIT_NOTHING_READ = 1  # no archive was read, whole or in part (or none was listed)
EXIT_NO_RELURL = 2  # relurl could not run on an executor (status 126 or 127)


def exit_status(total: int, failed: int, partial: int, cannot_run: int) -> int:
    """What the job exits with: 2 when relurl could not run somewhere, 1
    when no archive gave links (every one failed, or the manifest listed
    none), else 0 (failures/ says which archives failed)."""
    if cannot_run:
        return EXIT_NO_RELURL
    if total == 0 or failed - partial == total:
        return EXIT_NOTHING_READ
    return EXIT_OK


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="relurl-spark-links", description=__doc__.split("\n\n")[0])
    p.add_argument("--manifest", required=True,
                   help="archives, one a line (gzip, zstd or plain): a local file, http(s)://, s3:// (read by relurl) or a Hadoop path such as s3a:// or hdfs:// (read by Spark)")
    p.add_argument("--prefix", default="", help="joined to each relative line by relurl's -prefix")
    p.add_argument("--out", required=True, help="the directory of the links/, archives/ and failures/ tables")
    p.add_argument("--relurl", default="relurl", help="relurl on the executors: a path, or the name of a file given to --files (default relurl)")
    p.add_argument("--ship", help="a local relurl binary to ship to the executors (SparkContext.addFile, or Spark Connect's addArtifacts), instead of --files")
    p.add_argument("--num-input-partitions", "--partitions", dest="partitions", type=int, default=0,
                   help="tasks to spread the archives over (default: one per archive, at most 10,000)")
    p.add_argument("--pass-env", action="append", default=[], metavar="NAME", help="also pass this variable of the driver's environment to relurl")
    p.add_argument("--relurl-arg", action="append", default=[], metavar="ARG", help="an argument for relurl links, such as -spec=1808 (repeatable)")
    p.add_argument("--mode", default="error", choices=["error", "errorifexists", "overwrite", "append", "ignore"],
                   help="what to do when a table exists: the DataFrame writer's save mode (default error)")
    p.add_argument("--output-format", default="parquet", choices=["parquet", "orc", "json"], help="the tables' format (default parquet)")
    p.add_argument("--output-compression", default=None,
                   help="the tables' compression codec, as Spark names it (default zstd; gzip for json; none for none)")
    p.add_argument("--log-level", default="WARN", choices=["ALL", "DEBUG", "INFO", "WARN", "ERROR", "FATAL", "OFF"],
                   help="Spark's log level once the job runs (default WARN)")
    p.add_argument("--remote", default=os.environ.get("SPARK_REMOTE"),
                   help="a Spark Connect server, sc://HOST:PORT (default $SPARK_REMOTE); else the master spark-submit gives")
    return p.parse_args(argv)


def session(args: argparse.Namespace, name: str = "relurl links"):  # noqa: ANN201 (pyspark types)
    """The SparkSession: a Spark Connect client with --remote, else
    spark-submit's at --log-level. Either way this package goes to the
    executors as a zip of its Python files (no --py-files needed), and
    --ship's relurl as a file: SparkContext.addPyFile and addFile, or
    Spark Connect's addArtifacts, which has no SparkContext."""
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(name)
    remote = getattr(args, "remote", None)
    spark = builder.remote(remote).getOrCreate() if remote else builder.config("spark.log.level", args.log_level).getOrCreate()
    package = package_zip()
    ship = getattr(args, "ship", None)
    if remote:
        spark.addArtifacts(package, pyfile=True)
        if ship:
            spark.addArtifacts(ship, file=True)
    else:
        spark.sparkContext.addPyFile(package)
        if ship:
            spark.sparkContext.addFile(ship)
    return spark


def package_zip() -> str:
    """This package as a zip of its Python files: the zip it was imported
    from (--py-files), else one made in a new temporary directory."""
    here = os.path.dirname(os.path.abspath(__file__))
    if not os.path.isdir(here):
        archive, sep, _ = here.rpartition(".zip" + os.sep)
        if sep:
            return archive + ".zip"
    path = os.path.join(tempfile.mkdtemp(prefix="relurl-spark-"), "relurl_spark.zip")
    with zipfile.ZipFile(path, "w") as z:
        for name in sorted(os.listdir(here)):
            if name.endswith(".py"):
                z.write(os.path.join(here, name), f"relurl_spark/{name}")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from pyspark.sql.pandas.types import from_arrow_schema
    from pyspark.storagelevel import StorageLevel

    spark = session(args)
    relurl = os.path.basename(args.ship) if args.ship else args.relurl
    passed = {k: os.environ[k] for k in (*DEFAULT_PASSED, *args.pass_env) if k in os.environ}
    task = Task(relurl=relurl, prefix=args.prefix, args=args.relurl_arg, env=passed)

    try:
        archives = read_manifest(spark, args.manifest, driver_relurl(args.relurl, args.ship)).persist(StorageLevel.DISK_ONLY)
    except (ManifestError, OSError) as e:
        print(f"relurl-spark-links: {e}", file=sys.stderr)
        spark.stop()
        return EXIT_NOTHING_READ
    total = archives.count()
    n = args.partitions or min(max(total, 1), 10_000)
    rows = archives.repartition(n).mapInArrow(task, from_arrow_schema(ROW_SCHEMA)).persist(StorageLevel.DISK_ONLY)
    compression = args.output_compression or ("gzip" if args.output_format == "json" else "zstd")

    def write(df, name: str) -> None:  # noqa: ANN001
        df.write.mode(args.mode).format(args.output_format).option("compression", compression).save(os.path.join(args.out, name))

    try:
        link_cols = ["archive", *runner.LINK_SCHEMA.names]
        write(rows.where("kind = 'link'").select(*link_cols), "links")
        outcomes = rows.where("kind = 'archive'").selectExpr(
            "archive", "exit_status", "links", "warnings", "unreadable", "cut", "partial", "seconds", "archive_error AS error"
        )
        write(outcomes, "archives")
        failures = outcomes.where("exit_status <> 0").select("archive", "exit_status", "partial", "unreadable", "cut", "error")
        write(failures, "failures")
        counts = failures.selectExpr(
            "count(*) AS failed", "count_if(partial) AS partial", "count_if(exit_status IN (126, 127)) AS cannot_run",
            "first(CASE WHEN exit_status IN (126, 127) THEN error END, true) AS why",
        ).collect()[0]
    finally:
        rows.unpersist()
        archives.unpersist()
    failed, partial = counts["failed"], counts["partial"]
    print(f"relurl-spark-links: {total} archives, {total - failed} read whole, {partial} read in part, {failed - partial} failed", file=sys.stderr)
    status = exit_status(total, failed, partial, counts["cannot_run"])
    if status == EXIT_NO_RELURL:
        print(f"relurl-spark-links: relurl could not run on the executors: {counts['why']}", file=sys.stderr)
    elif status == EXIT_NOTHING_READ:
        print("relurl-spark-links: no archive could be read", file=sys.stderr)
    spark.stop()
    return status


if __name__ == "__main__":
    sys.exit(main())
