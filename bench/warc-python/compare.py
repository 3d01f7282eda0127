"""relurl against the Python stack crawl users run today (FastWARC to read
WARC, selectolax's Lexbor parser for HTML, urllib.parse.urljoin with the
<head>'s base, as cc-pyspark extracts links), on the same WARC, in the same
run. (Resiliparse's HTMLTree was tried first: iterating the elements of a
page takes time quadratic in their number, minutes for this archive.)

    python compare.py RELURL ARCHIVE.warc.gz [RUNS]

Prints the median wall time of RUNS passes (default 5) of each, and the
records per second: every WARC record of the archive, read or extracted.
"""

from __future__ import annotations

import io
import os
import statistics
import subprocess
import sys
import time
import zlib
from urllib.parse import urljoin

from fastwarc.warc import ArchiveIterator, WarcRecordType
from resiliparse.parse.http import iterate_http_chunks
from selectolax.lexbor import LexborHTMLParser


def read_records(path: str) -> int:
    """Every record, its whole block read: FastWARC's plain reading."""
    n = 0
    with open(path, "rb") as f:
        for rec in ArchiveIterator(f, parse_http=False):
            rec.reader.read()
            n += 1
    return n


def payload(rec) -> bytes:  # noqa: ANN001
    body = rec.reader.read()
    h = rec.http_headers
    if h.get("Transfer-Encoding", "").lower() == "chunked":
        body = b"".join(iterate_http_chunks(io.BytesIO(body)))
    coding = h.get("Content-Encoding", "").lower()
    if coding in ("gzip", "x-gzip"):
        body = zlib.decompress(body, 47)
    elif coding == "deflate":
        body = zlib.decompress(body)
    return body


def extract_links(path: str) -> tuple[int, int]:
    """The links of every HTML response and redirect, resolved against the
    <head>'s <base href> or the target URI."""
    records = links = 0
    with open(path, "rb") as f:
        for rec in ArchiveIterator(f, parse_http=True):
            records += 1
            if rec.record_type != WarcRecordType.response:
                continue
            target = rec.headers.get("WARC-Target-URI", "").strip("<>")
            location = rec.http_headers.get("Location")
            if location:
                urljoin(target, location.strip())
                links += 1
                continue
            if "html" not in (rec.http_content_type or "text/html"):
                continue
            tree = LexborHTMLParser(payload(rec))
            base = target
            b = tree.css_first("head base[href]")
            if b is not None:
                base = urljoin(target, (b.attributes.get("href") or "").strip())
            for el in tree.css("[href],[src]"):
                a = el.attributes
                urljoin(base, (a.get("href") or a.get("src") or "").strip())
                links += 1
    return records, links


def main() -> None:
    relurl, path = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    records = read_records(path)
    _, py_links = extract_links(path)
    out = subprocess.run([relurl, "links", "-j", "1", "-tsv", path], capture_output=True, check=True).stdout

    def relurl_links(j: str):  # noqa: ANN202
        cmd = [relurl, "links", "-j", j, "-tsv", path]
        return lambda: subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)

    sides = [
        ("FastWARC, records read", lambda: read_records(path), None),
        ("FastWARC + selectolax + urljoin, links", lambda: extract_links(path), py_links),
        ("relurl links -j 1 -tsv, links", relurl_links("1"), out.count(b"\n")),
        ("relurl links -j 2 -tsv, links", relurl_links("2"), out.count(b"\n")),
    ]
    # Interleaved rounds: each round runs every side once, so that a change
    # in the machine's load falls on all of them alike.
    times: list[list[float]] = [[] for _ in sides]
    load_before = os.getloadavg()[0]
    for _ in range(runs):
        for i, (_, f, _) in enumerate(sides):
            start = time.perf_counter()
            f()
            times[i].append(time.perf_counter() - start)
    load_after = os.getloadavg()[0]
    print(f"{records} records, {runs} interleaved rounds; load average before {load_before:.2f}, after {load_after:.2f}")
    medians = [statistics.median(t) for t in times]
    for (name, _, n), t in zip(sides, medians):
        line = f"{name:45s} {t * 1000:9.1f} ms  {records / t:10.0f} records/s"
        print(line + (f"  ({n} links)" if n is not None else ""))
    for k in (2, 3):
        ratios = [p / r for p, r in zip(times[1], times[k])]
        print(f"{sides[k][0].split(',')[0]}: {medians[1] / medians[k]:.1f}x the records/s of the Python stack"
              f" (median), {min(ratios):.1f}x in the slowest round")


if __name__ == "__main__":
    main()
