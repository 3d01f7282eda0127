"""The host graph of a link graph, in the format of Common Crawl's
cc-webgraph: the second step after links.py.

    spark-submit -m relurl_spark.hostgraph --links OUT/links --out OUT/hostgraph

It writes, below --out, gzip-compressed text files, as cc-webgraph's tools
read them:

- vertices/  ``id<TAB>reversed.host`` (``org.example.www``), one a host,
             ids dense from 0, in the order of the reversed hosts
- edges/     ``from_id<TAB>to_id``, one a pair of hosts linked, sorted by
             from_id then to_id, without duplicates or self-loops

A host is the hostname of a link's source and of its resolved URL, as
relurl parses them by the URL Standard (lower case, IDNA, IP addresses
normalised; ``relurl parse -spec whatwg``); links without a host on both
ends (unresolved, mailto:, data:) make no edge. IP addresses are reversed
like names, as a plain split at dots does.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pyarrow as pa

from relurl_spark import runner


@dataclass
class Hosts:
    """The mapInArrow function: each URL with its reversed hostname."""

    relurl: str

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        with runner.in_task(self.relurl, {}) as (relurl, env):
            for batch in batches:
                urls = batch.column("u").to_pylist()
                hosts = runner.hostnames(relurl, urls, env)
                rev = [".".join(reversed(h.split("."))) if h else None for h in hosts]
                yield pa.RecordBatch.from_pydict({"u": urls, "host": rev}, schema=HOSTS_SCHEMA)


HOSTS_SCHEMA = pa.schema([("u", pa.string()), ("host", pa.string())])


def build(links, relurl: str, partitions: int):  # noqa: ANN001, ANN201
    """The vertices (id, host) and edges (from_id, to_id) DataFrames of the
    links DataFrame (source and url columns)."""
    from pyspark.sql import functions as F
    from pyspark.sql.pandas.types import from_arrow_schema
    from pyspark.storagelevel import StorageLevel

    urls = links.select(F.explode(F.array("source", "url")).alias("u")).where("u IS NOT NULL").distinct()
    host_of = urls.mapInArrow(Hosts(relurl), from_arrow_schema(HOSTS_SCHEMA)).where("host IS NOT NULL")
    pairs = (
        links.join(host_of.withColumnRenamed("u", "source").withColumnRenamed("host", "src"), "source")
        .join(host_of.withColumnRenamed("u", "url").withColumnRenamed("host", "dst"), "url")
        .select("src", "dst")
        .where("src <> dst")
        .distinct()
        .persist(StorageLevel.DISK_ONLY)
    )
    hosts = pairs.select(F.col("src").alias("host")).union(pairs.select(F.col("dst").alias("host"))).distinct()
    n = max(partitions, 1)
    # Dense ids in host order, without collecting the hosts: sort by range,
    # count each partition, and number each row from its partition's start.
    ordered = hosts.repartitionByRange(n, "host").sortWithinPartitions("host")
    ordered = ordered.withColumn("part", F.spark_partition_id()).withColumn("seq", F.monotonically_increasing_id())
    ordered = ordered.persist(StorageLevel.DISK_ONLY)
    counts = sorted((r["part"], r["count"]) for r in ordered.groupBy("part").count().collect())
    starts, total = [], 0
    for part, count in counts:
        starts.append((part, total))
        total += count
    start_of = F.create_map(*[F.lit(x) for pair in starts for x in pair]) if starts else F.create_map()
    # monotonically_increasing_id is the partition number << 33 plus the
    # row's index in its partition.
    vertices = ordered.select(
        (start_of[F.col("part")] + F.col("seq") - F.shiftleft(F.col("part").cast("long"), 33)).alias("id"), "host"
    )
    ids = vertices.persist(StorageLevel.DISK_ONLY)
    edges = (
        pairs.join(ids.withColumnRenamed("id", "from_id").withColumnRenamed("host", "src"), "src")
        .join(ids.withColumnRenamed("id", "to_id").withColumnRenamed("host", "dst"), "dst")
        .select("from_id", "to_id")
        .orderBy("from_id", "to_id")
    )
    return ids.orderBy("id"), edges


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="relurl-spark-hostgraph", description=__doc__.split("\n\n")[0])
    p.add_argument("--links", required=True, help="the links/ table that relurl_spark.links wrote")
    p.add_argument("--out", required=True, help="the directory of vertices/ and edges/")
    p.add_argument("--relurl", default="relurl", help="relurl on the executors: a path, or the name of a file given to --files")
    p.add_argument("--partitions", type=int, default=0, help="partitions of the vertices (default: spark.sql.shuffle.partitions)")
    p.add_argument("--mode", default="errorifexists")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("relurl host graph").getOrCreate()
    partitions = args.partitions or int(spark.conf.get("spark.sql.shuffle.partitions"))
    vertices, edges = build(spark.read.parquet(args.links), args.relurl, partitions)
    opts = {"sep": "\t", "header": "false", "compression": "gzip"}
    vertices.write.mode(args.mode).options(**opts).csv(f"{args.out}/vertices")
    edges.write.mode(args.mode).options(**opts).csv(f"{args.out}/edges")
    print(f"relurl-spark-hostgraph: {vertices.count()} hosts, {edges.count()} edges", file=sys.stderr)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
