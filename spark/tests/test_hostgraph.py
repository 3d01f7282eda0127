"""graph_host: hostnames made nodes as Common Crawl's host graphs make
them, over relurl's hostnames of hard URLs."""

from __future__ import annotations

import pytest

from relurl_spark import runner
from relurl_spark.hostgraph import graph_host

HARD = [
    # url, node by default, node with --raw-hosts
    ("https://www.example.com/", "com.example", "com.example.www"),
    ("https://example.com./", "com.example", ".com.example"),  # raw: a node of its own, as the issue found
    ("https://WWW.Example.COM.:443/x", "com.example", ".com.example.www"),
    ("http://www.com/", "com.www", "com.www"),  # www is the name itself: two labels stay
    ("http://www.www.example.org/", "org.example.www", "org.example.www.www"),
    ("http://shop.www.example.org/", "org.example.www.shop", "org.example.www.shop"),
    ("https://bücher.example/", "example.xn--bcher-kva", "example.xn--bcher-kva"),
    ("http://127.0.0.1:8000/", None, "1.0.0.127"),
    ("http://0x7f.1/", None, "1.0.0.127"),  # the URL Standard's IPv4: 127.0.0.1
    ("http://[::1]/", None, "[::1]"),
    ("http://localhost/", None, "localhost"),
    ("http://a..b/", None, "b..a"),
    ("http://-a.example/", None, "example.-a"),
    ("http://under_score.example/", "example.under_score", "example.under_score"),
    ("http://" + "a" * 64 + ".example/", None, "example." + "a" * 64),
    ("mailto:a@example.com", None, None),
    ("data:,x", None, None),
    ("not a url", None, None),
]


@pytest.mark.parametrize("raw", [False, True])
def test_hard_hosts(relurl: str, raw: bool) -> None:
    hosts = runner.hostnames(relurl, [u for u, _, _ in HARD])
    got = [graph_host(h, raw) for h in hosts]
    want = [r if raw else d for _, d, r in HARD]
    assert got == want, [(u, g, w) for (u, _, _), g, w in zip(HARD, got, want) if g != w]
