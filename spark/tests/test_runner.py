"""runner: relurl on one archive, without Spark."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pyarrow as pa

from relurl_spark import runner


def relurl_json(relurl: str, *args: str) -> list[dict]:
    out = subprocess.run([relurl, "links", "-json", "-j", "1", *args], capture_output=True, check=False).stdout
    return [json.loads(line) for line in out.splitlines()]


def test_links_as_relurl_prints_them(relurl: str, archives: Path) -> None:
    outcome: list[runner.Outcome] = []
    table = pa.Table.from_batches(list(runner.run(relurl, "part0.warc.gz", str(archives), (), None, outcome)), runner.LINK_SCHEMA)
    want = relurl_json(relurl, str(archives / "part0.warc.gz"))
    assert table.num_rows == len(want) > 1000
    assert outcome[0].exit_status == 0 and outcome[0].links == len(want) and outcome[0].error == ""
    got = table.to_pylist()
    for g, w in zip(got[:50], want[:50]):
        for k, v in w.items():
            assert g[k] == v, k


def test_damaged_and_missing(relurl: str, archives: Path) -> None:
    for name, says in [("damaged.warc.gz", "the file ends inside the record"), ("missing.warc.gz", "no such file or directory")]:
        outcome: list[runner.Outcome] = []
        links = sum(b.num_rows for b in runner.run(relurl, name, str(archives), (), None, outcome))
        o = outcome[0]
        assert o.failed and o.exit_status == 1 and not o.partial, o
        assert says in o.error and name in o.error, o.error
        assert name != "damaged.warc.gz" or links > 0  # what came before the damage


def test_lossy_archive_is_partial(relurl: str, archives: Path) -> None:
    # Read to the end, one corrupt record lost: relurl exits 1, and the
    # outcome is partial, with the count and the warning naming the offset.
    outcome: list[runner.Outcome] = []
    links = sum(b.num_rows for b in runner.run(relurl, "lossy.warc.gz", str(archives), (), None, outcome))
    o = outcome[0]
    assert o.exit_status == 1 and o.partial and (o.unreadable, o.cut) == (1, 0) and links == o.links > 0, o
    assert o.error.startswith("read in part: 1 records unreadable, 0 read in part\n"), o.error
    assert "lossy.warc.gz" in o.error and "WARC record at offset" in o.error, o.error
    whole: list[runner.Outcome] = []
    list(runner.run(relurl, "part0.warc.gz", str(archives), (), None, whole))
    assert not whole[0].partial and whole[0].error == ""


def test_relurl_that_cannot_start(archives: Path) -> None:
    outcome: list[runner.Outcome] = []
    assert list(runner.run("/nonexistent/relurl", "part0.warc.gz", str(archives), (), None, outcome)) == []
    assert outcome[0].exit_status == 127 and "cannot run relurl" in outcome[0].error


def test_environment(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.delenv("HOME", raising=False)
    env = runner.environment({"AWS_ACCESS_KEY_ID": "k"}, str(tmp_path))
    assert env["AWS_ACCESS_KEY_ID"] == "k" and env["TMPDIR"] == env["HOME"] == str(tmp_path) and env["PATH"]


def test_hostnames(relurl: str) -> None:
    urls = ["https://Schemers.ORG/x.html#%_sec_6.2", "mailto:a@b", "not a url", "http://[::1]:8080/", "https://bücher.example/"]
    assert runner.hostnames(relurl, urls) == ["schemers.org", None, None, "[::1]", "xn--bcher-kva.example"]
    assert runner.hostnames(relurl, []) == []


def test_in_task(relurl: str) -> None:
    with runner.in_task(relurl, {"AWS_REGION": "us-east-1"}) as (binary, env):
        tmpdir = env["TMPDIR"]
        assert binary == relurl and env["AWS_REGION"] == "us-east-1" and Path(tmpdir).is_dir()
    assert not Path(tmpdir).exists()


def test_schema_is_relurls(relurl: str, archives: Path, tmp_path: Path) -> None:
    """LINK_SCHEMA is the schema of relurl's Arrow stream, and its columns
    are the fields of relurl links -json: every field the crawl and a page
    of refused links give is one of them, and every column but the
    *_base64 ones (bytes that are not UTF-8, which package table's tests
    cover) is among those fields."""
    p = subprocess.run([relurl, "links", "-format", "arrow", str(archives / "part0.warc.gz")], capture_output=True, check=True)
    assert pa.ipc.open_stream(p.stdout).schema.equals(runner.LINK_SCHEMA)
    page = tmp_path / "refused.html"
    page.write_text('<a href="http://[::1">x</a>')
    keys: set[str] = set()
    for row in relurl_json(relurl, str(archives / "part0.warc.gz")) + relurl_json(relurl, "-spec", "whatwg", "-url", "http://a/", str(page)):
        keys |= row.keys()
    names = set(runner.LINK_SCHEMA.names)
    assert keys <= names, sorted(keys - names)
    assert names - keys == {"url_base64", "ref_base64"}, sorted(names - keys)


def test_long_link(relurl: str, long_link_archive: Path) -> None:
    """A link of 10 MB is a row like any other, not a failure."""
    outcome: list[runner.Outcome] = []
    table = pa.Table.from_batches(list(runner.run(relurl, str(long_link_archive), "", (), None, outcome)), runner.LINK_SCHEMA)
    assert outcome[0].exit_status == 0, outcome[0].error
    urls = table.column("url").to_pylist()
    assert [len(u) for u in urls] == [(10 << 20) + 22, len("http://example.org/next"), len("http://example.org/")]
    assert urls[1:] == ["http://example.org/next", "http://example.org/"]


def test_exit_status() -> None:
    """The job's exit status: 2 when relurl could not run somewhere, 1
    when no archive gave links, else 0 (failures/ names the others)."""
    from relurl_spark.links import exit_status

    # total, failed, of those partial, of those relurl could not run
    assert exit_status(7, 3, 1, 0) == 0  # some read: the failures are rows
    assert exit_status(2, 2, 1, 0) == 0  # one read in part gave links
    assert exit_status(2, 2, 0, 0) == 1  # none read
    assert exit_status(0, 0, 0, 0) == 1  # an empty manifest
    assert exit_status(3, 1, 0, 1) == 2  # relurl missing on an executor
