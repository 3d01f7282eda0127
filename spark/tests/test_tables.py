"""relurl's Parquet and Arrow, read back by pyarrow and DuckDB: the same
rows as relurl links -json, on wget's crawl."""

from __future__ import annotations

import collections
import json
import subprocess
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import CRAWL
from relurl_spark import runner


@pytest.fixture(scope="module")
def crawl_json(relurl: str) -> list[dict]:
    if not CRAWL.exists():
        pytest.skip(f"no shared data ({CRAWL})")
    out = subprocess.run([relurl, "links", "-json", str(CRAWL)], capture_output=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        row = {name: None for name in runner.LINK_SCHEMA.names}
        row.update(json.loads(line))
        rows.append(row)
    assert len(rows) > 200_000
    return rows


def test_parquet_by_pyarrow_and_duckdb(relurl: str, crawl_json: list[dict], tmp_path: Path) -> None:
    path = tmp_path / "links.parquet"
    subprocess.run([relurl, "links", "-format", "parquet", "-o", str(path), str(CRAWL)], capture_output=True, check=True)
    table = pq.read_table(path)
    assert table.schema.equals(runner.LINK_SCHEMA), table.schema
    assert table.to_pylist() == crawl_json  # row for row, in order

    con = duckdb.connect()
    names = runner.LINK_SCHEMA.names
    got = con.execute(f"SELECT {', '.join(names)} FROM read_parquet('{path}')").fetchall()
    assert [dict(zip(names, row)) for row in got] == crawl_json

    # Dictionary encoding where values repeat, zstd throughout.
    meta = pq.ParquetFile(path).metadata
    columns = {meta.row_group(0).column(i).path_in_schema: meta.row_group(0).column(i) for i in range(meta.num_columns)}
    assert all(c.compression == "ZSTD" for c in columns.values())
    assert "RLE_DICTIONARY" in columns["source"].encodings and "RLE_DICTIONARY" not in columns["url"].encodings
    assert meta.num_row_groups == -(-len(crawl_json) // 65536)


def test_arrow_stream_by_pyarrow(relurl: str, crawl_json: list[dict]) -> None:
    p = subprocess.Popen([relurl, "links", "-format", "arrow", str(CRAWL)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert p.stdout
    with pa.ipc.open_stream(p.stdout) as stream:
        table = stream.read_all()
    assert p.wait() == 0
    assert table.schema.equals(runner.LINK_SCHEMA)
    assert table.to_pylist() == crawl_json


def test_parts(relurl: str, crawl_json: list[dict], tmp_path: Path) -> None:
    """A directory of parts is one table to its readers, in order."""
    out = tmp_path / "links"
    subprocess.run([relurl, "links", "-format", "parquet", "-part-rows", "50000", "-o", str(out), str(CRAWL)], capture_output=True, check=True)
    parts = sorted(out.glob("part-*.parquet"))
    assert len(parts) == -(-len(crawl_json) // 50000)
    assert all(pq.ParquetFile(p).metadata.num_rows <= 50000 for p in parts)
    con = duckdb.connect()
    counts = collections.Counter(r[0] for r in con.execute(f"SELECT element FROM read_parquet('{out}/*.parquet')").fetchall())
    assert counts == collections.Counter(r["element"] for r in crawl_json)
