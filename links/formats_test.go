package links

import (
	"fmt"
	"strings"
	"testing"

	"github.com/relurl/relurl/markdown"
)

// run extracts the links of doc with f, and returns them as
// "LINE:COLUMN URL" and the warnings.
func run(t *testing.T, f func(*Extractor, *strings.Reader, Base, *Handler) error, doc string) (got []string, warnings []string, ids []string) {
	t.Helper()
	x := &Extractor{Options: Options{Positions: true}}
	h := &Handler{
		Link: func(l *Link) error { got = append(got, fmt.Sprintf("%d:%d %s", l.Line, l.Column, l.URL)); return nil },
		Warn: func(err error) { warnings = append(warnings, err.Error()) },
		IDs:  func(found []string) { ids = found },
	}
	if err := f(x, strings.NewReader(doc), Retrieved("https://a.example/d/"), h); err != nil {
		t.Fatal(err)
	}
	return got, warnings, ids
}

func plainText(x *Extractor, r *strings.Reader, b Base, h *Handler) error {
	return x.Extract(r, Doc{Format: FormatText, Base: b}, h)
}
func markdownDoc(x *Extractor, r *strings.Reader, b Base, h *Handler) error {
	return x.Extract(r, Doc{Format: FormatMarkdown, Base: b}, h)
}

// TestPlainTextChunks: plain text is read a chunk of lines at a time, and
// every URL is found, at its line and column, across chunks; a line too
// long to read is skipped, and said.
func TestPlainTextChunks(t *testing.T) {
	var doc strings.Builder
	var want []string
	line := 1
	for doc.Len() < 3*textChunk {
		item := fmt.Sprintf("item %d: ", line)
		fmt.Fprintf(&doc, "%shttps://a.example/%d.\n", item, line)
		want = append(want, fmt.Sprintf("%d:%d https://a.example/%d", line, len(item)+1, line))
		line++
		if line == 20000 { // a line longer than a chunk, then one of MaxLine
			doc.WriteString(strings.Repeat("x ", textChunk) + "https://skipped.example/\n")
			doc.WriteString(strings.Repeat("y", markdown.MaxLine) + " https://skipped.example/\n")
			line += 2
		}
	}
	got, warnings, _ := run(t, plainText, doc.String())
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%d links, want %d", len(got), len(want))
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("link %d: %s, want %s", i, got[i], want[i])
			}
		}
	}
	if w := strings.Join(warnings, "\n"); w != "2 lines, the first line 20000, are longer than 16384 bytes: not read for links" {
		t.Errorf("warnings %q", w)
	}
}

// TestMarkdownBounds: package markdown's scanner reads a document whole,
// whatever its lines and size; what it leaves to goldmark (here, for its
// carriage returns) goldmark reads within bounds, and what goldmark would
// read in time or memory out of proportion is left out, and said: a line
// longer than MaxLine, a paragraph of more than MaxParagraph lines, what
// is past MaxSize. The links around are found; the anchors go to
// Handler.IDs.
func TestMarkdownBounds(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		doc := "# Title" + eol + eol + "[a](a.md)" + eol + eol + strings.Repeat("[x](<", markdown.MaxLine) + eol + eol +
			strings.Repeat("[r]: /r"+eol, markdown.MaxParagraph+1) + eol + "[b](b.md)" + eol
		got, warnings, ids := run(t, markdownDoc, doc)
		want := []string{"3:5 https://a.example/d/a.md", "10009:5 https://a.example/d/b.md"}
		wantWarnings := "2 pieces of text, the first at line 5, not read for links: a line longer than 16384 bytes, or a paragraph of more than 10000 lines (a Markdown parser takes time that grows with the square of their size)"
		if eol == "\n" {
			// Whole: every definition is a link (no link uses them).
			want = append(want[:1], "10009:5 https://a.example/d/b.md")
			wantWarnings = ""
			if len(got) != 2+markdown.MaxParagraph+1 {
				t.Errorf("%d links, want %d", len(got), 2+markdown.MaxParagraph+1)
			}
			got = []string{got[0], got[len(got)-1]}
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%q: links %q, want %q", eol, got, want)
		}
		if w := strings.Join(warnings, "\n"); w != wantWarnings {
			t.Errorf("%q: warnings %q, want %q", eol, w, wantWarnings)
		}
		if strings.Join(ids, " ") != "title" {
			t.Errorf("%q: ids %q", eol, ids)
		}
	}
	// Past MaxSize: whole, or for goldmark, what is left of the last line
	// and the one after are said.
	for _, eol := range []string{"\n", "\r\n"} {
		unit := "[a](a.md)" + eol + eol
		n := markdown.MaxSize / len(unit)
		got, warnings, _ := run(t, markdownDoc, strings.Repeat(unit, n+1))
		if eol == "\n" {
			if len(got) != n+1 || len(warnings) > 0 {
				t.Errorf("%d links, want %d; warnings %q", len(got), n+1, warnings)
			}
			continue
		}
		want := fmt.Sprintf("a Markdown document is read up to 4 MiB (its parser holds it whole, in about a hundred times its size): from line %d on, %d bytes give no links", 2*n+1, len(unit))
		if len(got) != n || len(warnings) != 1 || warnings[0] != want {
			t.Errorf("%d links, want %d; warnings %q, want %q", len(got), n, warnings, want)
		}
	}
}

// TestMarkdownHTMLIsUTF8: the raw HTML of a Markdown document is read as
// UTF-8, as the renderers write the page, whatever a <meta> in it
// declares: "café.html" is caf%C3%A9.html, not the windows-1252 reading
// of its bytes.
func TestMarkdownHTMLIsUTF8(t *testing.T) {
	got, warnings, _ := run(t, markdownDoc, "<meta charset=\"windows-1252\">\n\n<a href=\"caf\u00e9.html\">x</a> [y](d\u00e9j\u00e0.md)\n")
	want := []string{"3:1 https://a.example/d/caf%C3%A9.html", "3:32 https://a.example/d/d%C3%A9j%C3%A0.md"}
	if strings.Join(got, "|") != strings.Join(want, "|") || len(warnings) > 0 {
		t.Errorf("got %q, warnings %q; want %q", got, warnings, want)
	}
}

// TestLineCursor: the line and column of offsets told in order, out of
// order (a link's destination before its image's, which it holds), and
// back across lines.
func TestLineCursor(t *testing.T) {
	src := []byte("ab\ncde\n\nf")
	c := lineCursor{src: src, line: 1}
	for _, tt := range []struct{ off, line, col int }{
		{0, 1, 1}, {4, 2, 2}, {3, 2, 1}, {8, 4, 1}, {1, 1, 2}, {7, 3, 1}, {7, 3, 1}, {9, 4, 2},
	} {
		if line, col := c.position(tt.off); line != tt.line || col != tt.col {
			t.Errorf("offset %d: %d:%d, want %d:%d", tt.off, line, col, tt.line, tt.col)
		}
	}
}
