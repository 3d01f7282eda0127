"""Fixtures: relurl built from this checkout, wget's crawl split into
archives, and the servers that hold them (HTTP and S3 on loopback)."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import socket
import subprocess
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

SPARK_DIR = Path(__file__).resolve().parent.parent
REPO = SPARK_DIR.parent
CRAWL = REPO.parent / "shared" / "data" / "warc" / "docs-crawl.warc.gz"
S3_KEY, S3_SECRET = "relurl-test-key", "relurl-test-secret"


def in_ci() -> bool:
    return os.environ.get("CI", "") != ""


def need(what: str, how: str) -> None:
    """Skips for a missing tool, but fails in CI, where .ci/run installs it."""
    if in_ci():
        pytest.fail(f"CI needs {what}: {how}")
    pytest.skip(f"no {what}: {how}")


@pytest.fixture(scope="session")
def relurl(tmp_path_factory: pytest.TempPathFactory) -> str:
    """relurl, built from this checkout."""
    out = tmp_path_factory.mktemp("bin") / "relurl"
    subprocess.run(["go", "build", "-o", str(out), "./cmd/relurl"], cwd=REPO, check=True)
    return str(out)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen | None = None, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"exited with status {proc.returncode} before listening on {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {seconds}s")


def gzip_members(data: bytes) -> list[bytes]:
    """The gzip members of a .warc.gz, each a record."""
    members, start = [], 0
    while start < len(data):
        d = zlib.decompressobj(31)
        d.decompress(data[start:])
        end = len(data) - len(d.unused_data)
        members.append(data[start:end])
        start = end
    return members


@pytest.fixture(scope="session")
def archives(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """wget's crawl of the 1,699 pages split into four archives at record
    boundaries (part0..part3.warc.gz), plus damaged.warc.gz: part 3 cut in
    the middle of a record, and lossy.warc.gz: 40 records of part 0 with a
    corrupt gzip member among them (read to the end, one record lost)."""
    if not CRAWL.exists():
        pytest.skip(f"no shared data ({CRAWL})")
    members = gzip_members(CRAWL.read_bytes())
    d = tmp_path_factory.mktemp("archives")
    q = len(members) // 4
    parts = [members[:q], members[q : 2 * q], members[2 * q : 3 * q], members[3 * q :]]
    for i, p in enumerate(parts):
        (d / f"part{i}.warc.gz").write_bytes(b"".join(p))
    whole = b"".join(parts[3])
    (d / "damaged.warc.gz").write_bytes(whole[: len(whole) // 2 + 7])
    corrupt = parts[0][0][:10] + bytes([0xFF, 0x00, 0x13]) * 50
    (d / "lossy.warc.gz").write_bytes(b"".join([*parts[0][:20], corrupt, *parts[0][20:40]]))
    return d


@pytest.fixture(scope="session")
def http_server(archives: Path) -> Iterator[str]:
    """The archives over HTTP on loopback."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(archives))
    handler.log_message = lambda *a, **k: None  # type: ignore[method-assign]
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()


@pytest.fixture(scope="session")
def s3_server(archives: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """versitygw on loopback over a directory whose bucket crawl holds
    part2.warc.gz (.ci/install-versitygw builds it; RELURL_VERSITYGW names it)."""
    binary = os.environ.get("RELURL_VERSITYGW") or shutil.which("versitygw")
    if not binary:
        need("versitygw", "run `bash .ci/install-versitygw` and set RELURL_VERSITYGW to the path it prints")
    root = tmp_path_factory.mktemp("s3")
    (root / "crawl").mkdir()
    shutil.copy(archives / "part2.warc.gz", root / "crawl" / "part2.warc.gz")
    (root / "crawl" / "part2.warc.gz.paths").write_text("part2.warc.gz\n")
    port = free_port()
    proc = subprocess.Popen(
        [binary, "--port", f"127.0.0.1:{port}", "--access", S3_KEY, "--secret", S3_SECRET, "--quiet", "posix", str(root)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, proc, 20)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def manifest(archives: Path, http_server: str, s3_server: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A manifest of every kind of line (a relative path, an http URL, an
    s3:// URL, an absolute path, a damaged, a lossy and a missing archive), gzip
    compressed, and the prefix for its relative lines."""
    import gzip

    lines = [
        "part0.warc.gz",
        f"{http_server}/part1.warc.gz",
        "s3://crawl/part2.warc.gz",
        str(archives / "part3.warc.gz"),
        "damaged.warc.gz",
        "lossy.warc.gz",
        "missing.warc.gz",
    ]
    path = tmp_path_factory.mktemp("manifest") / "warc.paths.gz"
    with gzip.open(path, "wt") as f:
        f.write("\n".join(lines) + "\n")
    return path, str(archives) + "/"


@pytest.fixture(scope="session")
def s3_env(s3_server: str) -> dict[str, str]:
    """What relurl needs to read the S3 server: the driver has it, the
    cluster's workers do not, and the job must pass it on."""
    return {
        "AWS_ACCESS_KEY_ID": S3_KEY,
        "AWS_SECRET_ACCESS_KEY": S3_SECRET,
        "AWS_ENDPOINT_URL": s3_server,
        "AWS_EC2_METADATA_DISABLED": "true",
    }


def warc_response(uri: str, html: bytes) -> bytes:
    """One WARC response record of an HTML page, as its own gzip member."""
    import gzip
    import uuid

    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + str(len(html)).encode() + b"\r\n\r\n" + html
    head = (
        "WARC/1.1\r\nWARC-Type: response\r\n"
        f"WARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\nWARC-Date: 2026-11-25T00:00:00Z\r\n"
        f"WARC-Target-URI: {uri}\r\nContent-Type: application/http;msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    return gzip.compress(head + http + b"\r\n\r\n")


@pytest.fixture(scope="session")
def long_link_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive of two pages: one whose <img src> is a data: URL of 10 MB,
    one with an ordinary link."""
    data = b"data:image/png;base64," + b"A" * (10 << 20)
    path = tmp_path_factory.mktemp("long") / "long.warc.gz"
    path.write_bytes(
        warc_response("http://example.org/long", b'<img src="' + data + b'"><a href="next">next</a>')
        + warc_response("http://example.org/short", b'<a href="/">home</a>')
    )
    return path
