"""selectolax (Lexbor, C) on the 1,699 pages of ../shared/data, in memory,
for bench/ladder.sh: each page parsed, and the href or src of every element
that has one read, as the Python stack finds links.

    python ladder.py DATA_DIR ROUNDS

Prints one line per round: "selectolax MB/s".
"""

from __future__ import annotations

import sys
import tarfile
import time

from selectolax.lexbor import LexborHTMLParser


def pages(data: str) -> list[bytes]:
    out = []
    for name in ("python3.11-doc-html.tar.gz", "postgresql-15-doc-html.tar.gz"):
        with tarfile.open(f"{data}/{name}") as tar:
            for member in tar:
                if member.isfile() and member.name.endswith(".html"):
                    f = tar.extractfile(member)
                    if f is not None:
                        out.append(f.read())
    return out


def main() -> None:
    data, rounds = sys.argv[1], int(sys.argv[2])
    docs = pages(data)
    size = sum(len(d) for d in docs)
    for _ in range(rounds):
        start = time.perf_counter()
        n = 0
        for d in docs:
            for el in LexborHTMLParser(d).css("[href],[src]"):
                a = el.attributes
                n += len(a.get("href") or a.get("src") or "")
        print(f"selectolax {size / (time.perf_counter() - start) / 1e6:.1f}", flush=True)


if __name__ == "__main__":
    main()
