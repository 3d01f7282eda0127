"""Running relurl on one archive, and reading the links it writes as Arrow.

This module knows nothing of Spark: it starts ``relurl links -format arrow
-j 1`` on one archive, reads the Arrow IPC stream it writes with
``pyarrow.ipc.open_stream`` (record batches as relurl built them: nothing
is parsed here, and no link is too long to read), and reports how it
ended. The Spark job (``links.py``) calls it inside each task.
"""

from __future__ import annotations

import contextlib
import io
import os
import queue
import re
import shutil
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.ipc
import pyarrow.json as pajson

# The columns of a link: relurl's links table (package table, the fields of
# relurl links -json), which its Arrow stream carries; the tests check that
# the two agree. The job adds archive, the manifest line the link came from.
LINK_SCHEMA = pa.schema(
    [
        ("url", pa.string()),
        ("url_base64", pa.string()),
        ("error", pa.string()),
        ("ref", pa.string()),
        ("ref_base64", pa.string()),
        ("base", pa.string()),
        ("base_from", pa.string()),
        ("element", pa.string()),
        ("attribute", pa.string()),
        ("rel", pa.string()),
        ("text", pa.string()),
        ("part", pa.string()),
        ("source", pa.string()),
        ("status", pa.int32()),
        ("warc_filename", pa.string()),
        ("warc_record_offset", pa.int64()),
        ("warc_record_length", pa.int64()),
        ("warc_record_id", pa.string()),
        ("warc_date", pa.string()),
        ("truncated", pa.string()),
    ]
)

# How many record batches (each at most 64Ki rows or 32 MiB of values) wait
# between the thread that reads relurl's stream and the task; how much of
# relurl's standard error is kept to name a failure.
QUEUED = 4
_NOT_ERROR = re.compile(r"relurl links: (warning: |\d+ )")
# The summary's count of losses: records and parts that gave none of their
# links, or some of them (relurl exits 1 then, and says why in warnings).
_LOST = re.compile(r"; lost: (\d+) unreadable, (\d+) read in part")
STDERR_TAIL = 16 << 10


@dataclass
class Outcome:
    """How relurl ended on one archive."""

    archive: str
    exit_status: int
    links: int = 0
    seconds: float = 0.0
    stderr: str = ""
    warnings: int = 0
    errors: list[str] = field(default_factory=list)
    # Records (or MIME parts) that gave no links, and those that gave only
    # some, as relurl's summary counts them.
    unreadable: int = 0
    cut: int = 0
    lost: list[str] = field(default_factory=list)  # the warnings that say what

    @property
    def failed(self) -> bool:
        return self.exit_status != 0

    @property
    def partial(self) -> bool:
        """Read to the end, but some records were lost: the only reason
        relurl exited 1 is the losses its summary counts."""
        return self.exit_status == 1 and not self.errors and self.unreadable + self.cut > 0

    @property
    def error(self) -> str:
        """What went wrong: relurl's error lines; for a partial archive,
        the losses counted and the warnings naming them; else the exit
        status."""
        if self.errors:
            return "\n".join(self.errors)
        if self.partial:
            return "\n".join([f"read in part: {self.unreadable} records unreadable, {self.cut} read in part", *self.lost[:20]])
        if self.failed:
            return f"relurl exited with status {self.exit_status}"
        return ""


def command(relurl: str, archive: str, prefix: str, extra: Sequence[str]) -> list[str]:
    """The relurl command line for one archive: the archive comes on
    standard input as a one-line manifest, so that relurl itself joins it
    to the prefix, the same way as for a whole manifest."""
    args = [relurl, "links", "-format", "arrow", "-j", "1", "-files", "-"]
    if prefix:
        args += ["-prefix", prefix]
    return args + list(extra)


def run(
    relurl: str,
    archive: str,
    prefix: str = "",
    extra: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    outcome: list[Outcome] | None = None,
) -> Iterator[pa.RecordBatch]:
    """Runs relurl on archive and yields its links as record batches of
    LINK_SCHEMA. When the batches are exhausted, the Outcome is appended to
    outcome. A relurl that cannot start is an Outcome too (status 127)."""
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            command(relurl, archive, prefix, extra),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env) if env is not None else None,
        )
    except OSError as e:
        if outcome is not None:
            outcome.append(Outcome(archive, 127, errors=[f"cannot run relurl ({relurl}): {e}"]))
        return
    assert proc.stdin and proc.stdout and proc.stderr
    proc.stdin.write(archive.encode() + b"\n")
    proc.stdin.close()

    tail = bytearray()

    def drain_stderr() -> None:
        assert proc.stderr
        for line in proc.stderr:
            tail.extend(line)
            if len(tail) > 2 * STDERR_TAIL:
                del tail[: len(tail) - STDERR_TAIL]

    batches: queue.Queue[pa.RecordBatch | Exception | None] = queue.Queue(maxsize=QUEUED)
    ended = [0.0]  # when relurl closed its output: its own wall time ends

    def read_stdout() -> None:
        # Reads while the task consumes (pyarrow reads without the GIL):
        # relurl never waits on a full pipe for long.
        assert proc.stdout
        try:
            with pa.ipc.open_stream(proc.stdout) as stream:
                if not stream.schema.equals(LINK_SCHEMA):
                    raise ValueError(f"relurl ({relurl}) writes links of another schema than this job's: {stream.schema}")
                for batch in stream:
                    batches.put(batch)
        except pa.ArrowInvalid as e:
            # An empty output: relurl could not run at all, and its exit
            # status and standard error say why. Anything else is a stream
            # cut short: an error of its own.
            if "Tried reading schema message, was null or length 0" not in str(e):
                batches.put(RuntimeError(f"relurl's Arrow stream is cut short: {e}"))
        except Exception as e:  # noqa: BLE001 (handed to the task)
            batches.put(e)
        finally:
            proc.stdout.read()  # whatever follows an error, so that relurl ends
            ended[0] = time.monotonic()
            batches.put(None)

    threads = [threading.Thread(target=drain_stderr, daemon=True), threading.Thread(target=read_stdout, daemon=True)]
    for t in threads:
        t.start()
    links = 0
    stream_errors: list[str] = []
    while (batch := batches.get()) is not None:
        if isinstance(batch, Exception):
            stream_errors.append(str(batch))
            continue
        links += batch.num_rows
        yield batch
    status = proc.wait()
    for t in threads:
        t.join()
    if outcome is not None:
        text = tail.decode("utf-8", "replace")
        lines = text.splitlines()
        # An error names a document; a warning, a summary or a count
        # ("1824 documents ...", "3 relative links left unresolved") does not.
        errors = [ln for ln in lines if ln.startswith("relurl links: ") and not _NOT_ERROR.match(ln)] + stream_errors
        warnings = [ln for ln in lines if ln.startswith("relurl links: warning: ")]
        lost = next((m for ln in reversed(lines) if (m := _LOST.search(ln))), None)
        outcome.append(
            Outcome(
                archive,
                status if status != 0 or not stream_errors else 1,
                links=links,
                seconds=ended[0] - start,
                stderr=text,
                warnings=len(warnings),
                errors=errors,
                unreadable=int(lost.group(1)) if lost else 0,
                cut=int(lost.group(2)) if lost else 0,
                lost=warnings,
            )
        )


def environment(passed: Mapping[str, str], tmpdir: str) -> dict[str, str]:
    """The environment relurl runs in inside a task: the task's own, which
    on a cluster may be nearly empty, then what the driver passed
    (credentials, endpoints), then what every program needs: a PATH, a
    HOME and a TMPDIR of the task's own."""
    env = dict(os.environ)
    env.update(passed)
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.setdefault("HOME", tmpdir)
    env["TMPDIR"] = tmpdir
    return env


@contextlib.contextmanager
def in_task(relurl: str, passed: Mapping[str, str]) -> Iterator[tuple[str, dict[str, str]]]:
    """What a task runs relurl with: the binary (see binary) and the
    environment (see environment), in a temporary directory of the task's
    own, removed at the end."""
    tmpdir = tempfile.mkdtemp(prefix="relurl-")
    try:
        yield binary(relurl, tmpdir), environment(passed, tmpdir)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def binary(relurl: str, tmpdir: str) -> str:
    """The relurl to run in a task: a path as given, else the file of that
    name Spark shipped (--files, SparkContext.addFile), made executable in a
    copy if it lost its mode on the way."""
    if os.path.isabs(relurl) or os.sep in relurl:
        return relurl
    from pyspark import SparkFiles

    path = SparkFiles.get(relurl)
    if not os.access(path, os.X_OK):
        copy = os.path.join(tmpdir, relurl)
        shutil.copyfile(path, copy)
        os.chmod(copy, os.stat(copy).st_mode | stat.S_IXUSR)
        path = copy
    return path


HOST_SCHEMA = pa.schema([("line", pa.int64()), ("hostname", pa.string())])


def hostnames(relurl: str, urls: list[str], env: Mapping[str, str] | None = None) -> list[str | None]:
    """The hostname of each URL as the URL Standard parses it (lower case,
    IDNA, IPv4 and IPv6 normalised), None where it has none or does not
    parse: relurl parse -spec whatwg -json, one line in, one line out."""
    if not urls:
        return []
    p = subprocess.run(
        [relurl, "parse", "-spec", "whatwg", "-json", "-"],
        input="\n".join(urls).encode() + b"\n",
        capture_output=True,
        env=dict(env) if env is not None else None,
    )
    if p.returncode not in (0, 1):  # 1: some URL did not parse
        raise RuntimeError(f"relurl parse exited with status {p.returncode}: {p.stderr.decode(errors='replace')[-2000:]}")
    opts = pajson.ParseOptions(explicit_schema=HOST_SCHEMA, unexpected_field_behavior="ignore")
    table = pajson.read_json(io.BytesIO(p.stdout), parse_options=opts)
    out: list[str | None] = [None] * len(urls)
    for line, host in zip(table.column("line").to_pylist(), table.column("hostname").to_pylist()):
        out[line - 1] = host or None
    return out
