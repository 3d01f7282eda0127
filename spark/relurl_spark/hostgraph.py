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
normalised; ``relurl parse -spec whatwg``), then made a node as Common
Crawl's host graphs make them (cc-pyspark's host links, which cc-webgraph
reads): see graph_host. Links without such a host at either end
(unresolved, mailto:, data:, an IP address) make no edge. --raw-hosts
keeps every hostname as relurl gives it, reversed at its dots.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pyarrow as pa

from relurl_spark import runner


# A label of a host name as cc-pyspark accepts it: letters, digits,
# hyphens and (relaxed) underscores, at most 63, neither end a hyphen.
_LABEL = re.compile(r"[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?")
_IPV4 = re.compile(r"\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}")


def graph_host(hostname: str | None, raw: bool = False) -> str | None:
    """The node of a hostname (relurl's: lower case, IDNA applied) in the
    host graph, reversed at its dots (www.example.com -> com.example), or
    None when it is no node. As cc-pyspark's host links, which Common
    Crawl's graphs are made of: an IP address is no node, nor is a name of
    one label (localhost) or with a label that is not a host name's (empty
    as in a..b, over 63 bytes, a hyphen at an end, any other character), or
    longer than 253 bytes; a trailing dot is dropped (example.com. is
    example.com); and a leading www. label is dropped when two or more
    labels remain, so www.example.com and example.com are one node. With
    raw, every hostname is a node, only reversed."""
    if not hostname:
        return None
    if raw:
        return ".".join(reversed(hostname.split(".")))
    host = hostname[:-1] if hostname.endswith(".") else hostname
    if not host or len(host) > 253 or host.startswith("[") or _IPV4.fullmatch(host):
        return None
    labels = host.split(".")
    if len(labels) < 2 or not all(_LABEL.fullmatch(label) for label in labels):
        return None
    if labels[0] == "www" and len(labels) > 2:
        labels = labels[1:]
    return ".".join(reversed(labels))


@dataclass
class Hosts:
    """The mapInArrow function: each URL with its node in the host graph."""

    relurl: str
    raw: bool = False

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        with runner.in_task(self.relurl, {}) as (relurl, env):
            for batch in batches:
                urls = batch.column("u").to_pylist()
                hosts = [graph_host(h, self.raw) for h in runner.hostnames(relurl, urls, env)]
                yield pa.RecordBatch.from_pydict({"u": urls, "host": hosts}, schema=HOSTS_SCHEMA)


HOSTS_SCHEMA = pa.schema([("u", pa.string()), ("host", pa.string())])


def build(links, relurl: str, partitions: int, raw: bool = False):  # noqa: ANN001, ANN201
    """The vertices (id, host) and edges (from_id, to_id) DataFrames of the
    links DataFrame (source and url columns)."""
    from pyspark.sql import functions as F
    from pyspark.sql.pandas.types import from_arrow_schema
    from pyspark.storagelevel import StorageLevel

    urls = links.select(F.explode(F.array("source", "url")).alias("u")).where("u IS NOT NULL").distinct()
    host_of = urls.mapInArrow(Hosts(relurl, raw), from_arrow_schema(HOSTS_SCHEMA)).where("host IS NOT NULL")
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
    p.add_argument("--raw-hosts", action="store_true", help="make every hostname a node, as relurl gives it (default: as Common Crawl's graphs, see graph_host)")
    p.add_argument("--mode", default="error", help="what to do when a table exists: the DataFrame writer's save mode (default error)")
    p.add_argument("--log-level", default="WARN", help="Spark's log level once the job runs (default WARN)")
    p.add_argument("--remote", default=os.environ.get("SPARK_REMOTE"), help="a Spark Connect server, sc://HOST:PORT (default $SPARK_REMOTE)")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    from relurl_spark.links import session

    spark = session(args, "relurl host graph")
    partitions = args.partitions or int(spark.conf.get("spark.sql.shuffle.partitions"))
    vertices, edges = build(spark.read.parquet(args.links), args.relurl, partitions, args.raw_hosts)
    opts = {"sep": "\t", "header": "false", "compression": "gzip"}
    vertices.write.mode(args.mode).options(**opts).csv(f"{args.out}/vertices")
    edges.write.mode(args.mode).options(**opts).csv(f"{args.out}/edges")
    print(f"relurl-spark-hostgraph: {vertices.count()} hosts, {edges.count()} edges", file=sys.stderr)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
