"""Test oracle for package markdown: renders Markdown as GitHub and MkDocs do.

For each Markdown file named on the command line it prints one JSON line:

- "links": every href of an <a> and src of an <img> that cmark-gfm (GitHub's
  renderer, PyPI's cmarkgfm, with GitHub's extensions, footnotes and raw HTML
  kept) writes for the file, in document order, as the attribute's value,
  but for the links between a footnote and its reference, which the
  renderer makes and no author writes;
- "headings": the text content of each heading (h1 to h6) cmark-gfm renders,
  which github-slugger turns into GitHub's anchors;
- "mkdocs": the ids Python-Markdown's toc extension (MkDocs's renderer) makes of
  those same texts, with its slugify and its rule for repeats. Python-Markdown
  parses Markdown its own way (not CommonMark), so its rendering of the same
  file may hold other headings: the rule is what is compared.
"""

from __future__ import annotations

import json
import sys
from html.parser import HTMLParser

import cmarkgfm  # type: ignore[import-untyped]  # no stubs published
from cmarkgfm.cmark import Options  # type: ignore[import-untyped]
from markdown.extensions.toc import slugify, unique


class Rendered(HTMLParser):
    """Collects the links and the headings' text of rendered HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.headings: list[str] = []
        self.ids: list[str] = []
        self._heading: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        footnote = "data-footnote-ref" in values or "data-footnote-backref" in values
        if tag == "a" and values.get("href") is not None and not footnote:
            self.links.append(values["href"] or "")
        if tag == "img" and values.get("src") is not None:
            self.links.append(values["src"] or "")
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._heading = []
            if values.get("id"):
                self.ids.append(values["id"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self._heading is not None:
            self.headings.append("".join(self._heading))
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self._heading.append(data)


def render(path: str) -> dict[str, object]:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    html = cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_FOOTNOTES)
    gfm = Rendered()
    gfm.feed(html)
    seen: set[str] = set()
    mkdocs = [unique(slugify(h, "-"), seen) for h in gfm.headings]
    return {"file": path, "links": gfm.links, "headings": gfm.headings, "mkdocs": mkdocs}


def main() -> None:
    for path in sys.argv[1:]:
        print(json.dumps(render(path), ensure_ascii=False))


if __name__ == "__main__":
    main()
