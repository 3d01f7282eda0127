"""The job on a real Spark standalone cluster (a master and a worker on
127.0.0.1, started here from PySpark's own jars) and on local[2], over
archives as local files, over HTTP, from S3, damaged, lossy and missing."""

from __future__ import annotations

import collections
import gzip
import json
import os
import shutil
import signal
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


def stop(proc: subprocess.Popen, seconds: float = 30) -> None:
    """Ends a daemon: SIGTERM, then SIGKILL if it has not ended in time."""
    proc.terminate()
    try:
        proc.wait(seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


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
                stop(p)
        master_log.close()


@pytest.fixture(scope="session")
def package(tmp_path_factory: pytest.TempPathFactory) -> str:
    """relurl_spark as a zip for --py-files, as a real cluster needs it."""
    path = tmp_path_factory.mktemp("py") / "relurl_spark.zip"
    with zipfile.ZipFile(path, "w") as z:
        for f in (SPARK_DIR / "relurl_spark").glob("*.py"):
            z.write(f, f"relurl_spark/{f.name}")
    return str(path)


def submit(master: str, job: str, args: list[str], env: dict[str, str], files: list[str], py_files: str = "",
           status: int = 0) -> subprocess.CompletedProcess:
    """spark-submit of a job, as the README gives it: no --py-files (the
    job ships its package itself) unless py_files names one."""
    cmd = [
        str(SPARK_HOME / "bin" / "spark-submit"), "--master", master,
        "--conf", f"spark.pyspark.python={sys.executable}",
        "--conf", "spark.ui.enabled=false",
        "--conf", "spark.driver.host=127.0.0.1",
        "--conf", "spark.driver.bindAddress=127.0.0.1",
        "--conf", "spark.sql.shuffle.partitions=4",
    ]
    if py_files:
        cmd += ["--py-files", py_files]
    if files:
        cmd += ["--files", ",".join(files)]
    cmd += [str(SPARK_DIR / "jobs" / job), *args]
    p = subprocess.run(cmd, env={**java_env(), **env}, capture_output=True, timeout=600)
    assert p.returncode == status, (p.stdout.decode(errors="replace")[-2000:]
                                    + "\n".join(ln for ln in p.stderr.decode(errors="replace").splitlines() if " INFO " not in ln)[-8000:])
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
    # On the cluster the package goes as --py-files too, as older recipes
    # give it: shipped twice, it is the same.
    p = submit(master, "links.py", ["--manifest", str(path), "--prefix", prefix, "--out", str(out), "--relurl", "relurl"],
               s3_env, [relurl], package if where == "standalone" else "")
    # --log-level WARN (the default) keeps Spark's INFO lines out once the
    # session starts; there were about 450.
    info = [ln for ln in p.stderr.decode(errors="replace").splitlines() if " INFO " in ln]
    assert len(info) < 60, len(info)

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
           {}, [relurl])
    # The crawl's pages are at 127.0.0.1, an IP address, which Common
    # Crawl's graphs leave out: --raw-hosts keeps every hostname.
    submit(cluster, "hostgraph.py", ["--links", str(tmp_path / "out" / "links"), "--out", str(tmp_path / "graph"), "--relurl", "relurl",
                                     "--raw-hosts"], {}, [relurl])

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


def test_relurl_that_cannot_run(relurl: str, archives: Path, tmp_path: Path) -> None:
    """A relurl that is not there: every archive a failure (status 127),
    and the job exits 2, not 0."""
    manifest = tmp_path / "m.txt"
    manifest.write_text("part0.warc.gz\npart1.warc.gz\n")
    p = submit("local[2]", "links.py", ["--manifest", str(manifest), "--prefix", str(archives), "--out", str(tmp_path / "out"),
                                       "--relurl", "/nonexistent/relurl"], {}, [], status=2)
    # spark-submit sends the Python driver's standard error to its output.
    assert "relurl could not run on the executors: cannot run relurl (/nonexistent/relurl)" in p.stdout.decode(), p.stdout[-2000:]
    failures = pq.read_table(tmp_path / "out" / "failures").to_pylist()
    assert sorted((f["archive"], f["exit_status"]) for f in failures) == [("part0.warc.gz", 127), ("part1.warc.gz", 127)]


def test_nothing_read(relurl: str, archives: Path, tmp_path: Path) -> None:
    """Every archive missing: exit 1, with the failures written."""
    manifest = tmp_path / "m.txt"
    manifest.write_text("missing.warc.gz\n")
    p = submit("local[2]", "links.py", ["--manifest", str(manifest), "--prefix", str(archives), "--out", str(tmp_path / "out"),
                                       "--relurl", "relurl"], {}, [relurl], status=1)
    assert "no archive could be read" in p.stdout.decode(), p.stdout[-2000:]
    assert [f["archive"] for f in pq.read_table(tmp_path / "out" / "failures").to_pylist()] == ["missing.warc.gz"]


def test_remote_manifests(relurl: str, archives: Path, http_server: str, s3_server: str, s3_env: dict[str, str], tmp_path: Path) -> None:
    """Manifests where relurl reads archives: over HTTP (gzip) and from S3,
    read on the driver by relurl; and as a Hadoop path (file://), read by
    Spark. Orc output, with --output-compression."""
    (archives / "remote.paths.gz").write_bytes(gzip.compress(b"part0.warc.gz\npart1.warc.gz\n"))
    cases = [
        (f"{http_server}/remote.paths.gz", ["part0.warc.gz", "part1.warc.gz"]),
        ("s3://crawl/part2.warc.gz.paths", ["part2.warc.gz"]),
        (f"file://{archives}/remote.paths.gz", ["part0.warc.gz", "part1.warc.gz"]),
    ]
    for i, (manifest, want) in enumerate(cases):
        out = tmp_path / f"out{i}"
        args = ["--manifest", manifest, "--prefix", str(archives) + "/", "--out", str(out), "--relurl", "relurl", "--ship", relurl]
        if i == 2:
            args += ["--output-format", "orc", "--output-compression", "snappy", "--num-input-partitions", "1"]
        submit("local[2]", "links.py", args, s3_env, [])
        fmt = "orc" if i == 2 else "parquet"
        got = spark_rows(out / "archives", fmt)
        assert sorted(r["archive"] for r in got) == want and all(r["exit_status"] == 0 for r in got), got
    # --num-input-partitions 1 (cc-pyspark's name): one task, one part file.
    assert len(list((tmp_path / "out2" / "archives").glob("part-*.orc"))) == 1

    # A manifest that cannot be read stops the job before any task: exit 1,
    # with relurl's reason.
    p = submit("local[2]", "links.py", ["--manifest", f"{http_server}/none.paths.gz", "--out", str(tmp_path / "none"),
                                       "--ship", relurl], {}, [], status=1)
    assert "cannot read the manifest" in p.stdout.decode() and "404" in p.stdout.decode(), p.stdout[-2000:]


def spark_rows(directory: Path, fmt: str) -> list[dict]:
    import pyarrow.orc as orc

    if fmt == "parquet":
        return pq.read_table(directory).to_pylist()
    rows: list[dict] = []
    for part in sorted(directory.glob("part-*.orc")):
        rows += orc.read_table(part).to_pylist()
    return rows


def test_long_link_job(relurl: str, long_link_archive: Path, tmp_path: Path) -> None:
    """A link of 10 MB is a row of links/, not a failed job."""
    manifest = tmp_path / "m.txt"
    manifest.write_text(str(long_link_archive) + "\n")
    submit("local[2]", "links.py", ["--manifest", str(manifest), "--out", str(tmp_path / "out"), "--relurl", "relurl"], {}, [relurl])
    urls = sorted(len(u) for u in pq.read_table(tmp_path / "out" / "links").column("url").to_pylist())
    assert urls == sorted([(10 << 20) + 22, len("http://example.org/next"), len("http://example.org/")])
    assert pq.read_table(tmp_path / "out" / "failures").num_rows == 0


@pytest.fixture(scope="session")
def connect_server(cluster: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Spark Connect server on loopback, running its jobs on the
    standalone cluster (the server's jar comes with PySpark)."""
    port = free_port()
    logs = tmp_path_factory.mktemp("connect")
    log = open(logs / "connect.log", "wb")
    proc = subprocess.Popen(
        [str(SPARK_HOME / "bin" / "spark-submit"), "--master", cluster,
         "--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
         "--conf", f"spark.connect.grpc.binding.port={port}",
         "--conf", "spark.connect.grpc.binding.address=127.0.0.1",
         "--conf", f"spark.pyspark.python={sys.executable}",
         "--conf", f"spark.executorEnv.PYSPARK_PYTHON={sys.executable}",
         "--conf", "spark.ui.enabled=false",
         "--conf", "spark.driver.host=127.0.0.1",
         "--conf", "spark.driver.bindAddress=127.0.0.1",
         "--conf", "spark.sql.shuffle.partitions=4",
         "spark-internal"],
        env={**java_env(), "PYSPARK_PYTHON": sys.executable}, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(port, proc, 120)
        yield f"sc://127.0.0.1:{port}"
    finally:
        stop(proc)
        log.close()


def test_spark_connect(connect_server: str, relurl: str, archives: Path, tmp_path: Path) -> None:
    """The job as a Spark Connect client: plain python, --remote, --ship;
    the package and the binary go as artifacts. Its links equal a single
    relurl run's."""
    manifest = tmp_path / "m.txt"
    manifest.write_text("part0.warc.gz\nmissing.warc.gz\n")
    out = tmp_path / "out"
    p = subprocess.run(
        [sys.executable, str(SPARK_DIR / "jobs" / "links.py"), "--remote", connect_server, "--ship", relurl,
         "--manifest", str(manifest), "--prefix", str(archives) + "/", "--out", str(out)],
        env={**java_env(), "PYTHONPATH": ""}, capture_output=True, timeout=600, cwd=tmp_path,
    )
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-6000:]
    want, _ = single_run(relurl, manifest, str(archives) + "/", {})
    assert multiset(pq.read_table(out / "links").to_pylist()) == multiset(want)
    assert [f["archive"] for f in pq.read_table(out / "failures").to_pylist()] == ["missing.warc.gz"]


def test_readme_recipe(tmp_path: Path) -> None:
    """The README's recipe, word for word, from a checkout's root: a master
    and a worker started as it says, then the links and host graph jobs."""
    text = (SPARK_DIR / "README.md").read_text()
    recipe = text.split("<!-- the recipe -->\n```sh\n", 1)[1].split("```", 1)[0]
    # A checkout of links to this one, with ../shared beside it, so that
    # what the recipe writes goes to the test's directory.
    root = tmp_path / "main"
    root.mkdir()
    for entry in SPARK_DIR.parent.iterdir():
        if entry.name not in ("relurl", "out", "master.log", "worker.log", "warc.paths"):
            (root / entry.name).symlink_to(entry)
    (tmp_path / "shared").symlink_to(SPARK_DIR.parent.parent / "shared")
    env = {k: v for k, v in os.environ.items() if k not in ("SPARK_HOME", "PYSPARK_PYTHON", "VIRTUAL_ENV")}
    # The recipe's daemons run in the background: in a process group of
    # their own, ended whatever happens.
    proc = subprocess.Popen(["bash", "-euo", "pipefail", "-c", recipe], cwd=root, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=1200)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert proc.returncode == 0, stderr.decode(errors="replace")[-6000:]
    rows = pq.read_table(root / "out" / "links").num_rows
    assert rows > 200_000
    edges, vertices = read_tsv(root / "out" / "hostgraph" / "edges"), read_tsv(root / "out" / "hostgraph" / "vertices")
    assert len(edges) > 10
    assert stdout.decode().split()[-2:] == [f"arcs={len(edges)}", f"nodes={len(vertices)}"], stdout[-2000:]
    # CGO_ENABLED=0: no program interpreter (PT_INTERP), no libc to match
    # on the executors.
    assert not elf_interpreter(root / "relurl")


def elf_interpreter(path: Path) -> bool:
    """Whether the ELF executable at path names a program interpreter: a
    dynamically linked binary does."""
    import struct

    head = path.read_bytes()[:1 << 16]
    phoff = struct.unpack_from("<Q", head, 0x20)[0]
    phentsize, phnum = struct.unpack_from("<HH", head, 0x36)
    return any(struct.unpack_from("<I", head, phoff + i * phentsize)[0] == 3 for i in range(phnum))
