"""The job on a real Spark standalone cluster (a master and a worker on
127.0.0.1, started here from PySpark's own jars) and on local[2], over
archives as local files, over HTTP, from S3, damaged, lossy and missing."""

from __future__ import annotations

import collections
import gzip
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pyarrow.parquet as pq
import pyspark
import pytest

from conftest import SPARK_DIR, free_port, need, wait_for_port

SPARK_HOME = Path(pyspark.__file__).resolve().parent
KEY = ("source", "url", "ref", "element", "attribute", "warc_filename", "warc_record_offset", "warc_record_length", "status", "warc_date")


def java_env() -> dict[str, str]:
    """A bare environment, as daemons on a cluster have: no AWS variables."""
    if shutil.which("java") is None:
        need("Java 17", "apt-get install openjdk-17-jre-headless")
    # Every daemon and the driver on loopback, whatever the host's name
    # resolves to.
    env = {"PATH": os.environ["PATH"], "SPARK_HOME": str(SPARK_HOME), "HOME": os.environ.get("HOME", "/tmp"), "SPARK_LOCAL_IP": "127.0.0.1"}
    if "JAVA_HOME" in os.environ:
        env["JAVA_HOME"] = os.environ["JAVA_HOME"]
    return env


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Spark standalone master and one worker (2 cores) on loopback."""
    env = java_env()
    logs = tmp_path_factory.mktemp("spark-logs")
    port = free_port()
    spark_class = str(SPARK_HOME / "bin" / "spark-class")
    master_log = open(logs / "master.log", "wb")
    master = subprocess.Popen(
        [spark_class, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port), "--webui-port", str(free_port())],
        env=env, stdout=master_log, stderr=subprocess.STDOUT,
    )
    worker = None
    try:
        wait_for_port(port, master, 90)
        url = f"spark://127.0.0.1:{port}"
        worker = subprocess.Popen(
            [spark_class, "org.apache.spark.deploy.worker.Worker", url, "--host", "127.0.0.1", "--cores", "2", "--memory", "2g",
             "--webui-port", str(free_port()), "--work-dir", str(tmp_path_factory.mktemp("spark-work"))],
            env=env, stdout=open(logs / "worker.log", "wb"), stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 90
        while b"Registering worker" not in (logs / "master.log").read_bytes():
            if time.monotonic() > deadline or worker.poll() is not None:
                raise RuntimeError("the worker did not register:\n" + (logs / "worker.log").read_text(errors="replace"))
            time.sleep(0.2)
        yield url
    finally:
        for p in (worker, master):
            if p is not None:
                p.terminate()
                try:
                    p.wait(20)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        master_log.close()


@pytest.fixture(scope="session")
def package(tmp_path_factory: pytest.TempPathFactory) -> str:
    """relurl_spark as a zip for --py-files, as a real cluster needs it."""
    path = tmp_path_factory.mktemp("py") / "relurl_spark.zip"
    with zipfile.ZipFile(path, "w") as z:
        for f in (SPARK_DIR / "relurl_spark").glob("*.py"):
            z.write(f, f"relurl_spark/{f.name}")
    return str(path)


def submit(master: str, job: str, args: list[str], env: dict[str, str], files: list[str], py_files: str) -> subprocess.CompletedProcess:
    cmd = [
        str(SPARK_HOME / "bin" / "spark-submit"), "--master", master,
        "--conf", f"spark.pyspark.python={sys.executable}",
        "--conf", "spark.ui.enabled=false",
        "--conf", "spark.driver.host=127.0.0.1",
        "--conf", "spark.driver.bindAddress=127.0.0.1",
        "--conf", "spark.sql.shuffle.partitions=4",
        "--py-files", py_files,
    ]
    if files:
        cmd += ["--files", ",".join(files)]
    cmd += [str(SPARK_DIR / "jobs" / job), *args]
    p = subprocess.run(cmd, env={**java_env(), **env}, capture_output=True, timeout=600)
    assert p.returncode == 0, "\n".join(ln for ln in p.stderr.decode(errors="replace").splitlines() if " INFO " not in ln)[-8000:]
    return p


def single_run(relurl: str, manifest: Path, prefix: str, env: dict[str, str]) -> tuple[list[dict], int]:
    """relurl links -json over the same manifest in one process."""
    p = subprocess.run([relurl, "links", "-json", "-j", "1", "-prefix", prefix, "-files", str(manifest)],
                       capture_output=True, env={**os.environ, **env}, timeout=600)
    return [json.loads(line) for line in p.stdout.splitlines()], p.returncode


def multiset(rows: list[dict]) -> collections.Counter:
    return collections.Counter(tuple(r.get(k) for k in KEY) for r in rows)


@pytest.mark.parametrize("where", ["standalone", "local[2]"])
def test_links_job(where: str, request: pytest.FixtureRequest, relurl: str, manifest: tuple[Path, str],
                   s3_env: dict[str, str], package: str, tmp_path: Path) -> None:
    master = request.getfixturevalue("cluster") if where == "standalone" else "local[2]"
    path, prefix = manifest
    out = tmp_path / "out"
    submit(master, "links.py", ["--manifest", str(path), "--prefix", prefix, "--out", str(out), "--relurl", "relurl"],
           s3_env, [relurl], package)

    links = pq.read_table(out / "links").to_pylist()
    want, status = single_run(relurl, path, prefix, s3_env)
    assert status == 1  # a damaged, a lossy and a missing archive
    assert len(want) > 150_000
    got, expected = multiset(links), multiset(want)
    assert got == expected, (sum((got - expected).values()), sum((expected - got).values()))

    failures = pq.read_table(out / "failures").to_pylist()
    assert sorted(f["archive"] for f in failures) == ["damaged.warc.gz", "lossy.warc.gz", "missing.warc.gz"]
    for f in failures:
        assert f["exit_status"] == 1 and f["archive"] in f["error"], f
        # Read to its end with one record lost: partial, with the count.
        assert f["partial"] == (f["archive"] == "lossy.warc.gz"), f
        assert (f["unreadable"], f["cut"]) == ((1, 0) if f["partial"] else (0, 0)), f
    archives = pq.read_table(out / "archives").to_pylist()
    assert len(archives) == 7 and sum(a["links"] for a in archives) == len(want)


def reversed_host(url: str | None) -> str | None:
    try:
        host = urlsplit(url).hostname if url else None
    except ValueError:
        return None
    return ".".join(reversed(host.split("."))) if host else None


def read_tsv(directory: Path) -> list[list[str]]:
    rows = []
    for part in sorted(directory.glob("part-*.gz")):
        with gzip.open(part, "rt") as f:
            rows += [line.rstrip("\n").split("\t") for line in f]
    return rows


def test_host_graph(cluster: str, relurl: str, archives: Path, package: str, tmp_path: Path) -> None:
    """links then hostgraph on the cluster: dense ids in host order, edges
    sorted and unique, the host pairs of the links."""
    manifest = tmp_path / "m.txt"
    manifest.write_text("part0.warc.gz\npart1.warc.gz\n")
    submit(cluster, "links.py", ["--manifest", str(manifest), "--prefix", str(archives), "--out", str(tmp_path / "out"), "--relurl", "relurl"],
           {}, [relurl], package)
    submit(cluster, "hostgraph.py", ["--links", str(tmp_path / "out" / "links"), "--out", str(tmp_path / "graph"), "--relurl", "relurl"],
           {}, [relurl], package)

    vertices = read_tsv(tmp_path / "graph" / "vertices")
    edges = [(int(a), int(b)) for a, b in read_tsv(tmp_path / "graph" / "edges")]
    ids = [int(v[0]) for v in vertices]
    hosts = [v[1] for v in vertices]
    assert ids == list(range(len(ids))) and hosts == sorted(hosts) and len(set(hosts)) == len(hosts)
    assert edges == sorted(set(edges)) and all(a != b for a, b in edges)

    rows = pq.read_table(tmp_path / "out" / "links").to_pylist()
    pairs = {(reversed_host(r["source"]), reversed_host(r["url"])) for r in rows}
    pairs = {(a, b) for a, b in pairs if a and b and a != b}
    got = {(hosts[a], hosts[b]) for a, b in edges}
    assert got == pairs, (sorted(got - pairs)[:5], sorted(pairs - got)[:5])
    assert len(edges) > 10

    # The WebGraph recipe of the README: the graph compressed as a BVGraph.
    if shutil.which("mvn") is None:
        need("Maven", "apt-get install maven (WebGraph comes from Maven Central)")
    p = subprocess.run(["bash", str(SPARK_DIR / "webgraph" / "webgraph.sh"), str(tmp_path / "graph"), str(tmp_path / "bv")],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout.split() == [f"arcs={len(edges)}", f"nodes={len(vertices)}"], p.stdout
