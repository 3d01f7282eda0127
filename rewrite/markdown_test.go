package rewrite

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/relurl/relurl/links"
)

// TestMarkdown: every link of a Markdown document is rewritten, or none
// is and the error says which part could not be read; an empty
// destination gets its target between its delimiters, as href="" does;
// and a rewrite of the output changes nothing.
func TestMarkdown(t *testing.T) {
	const url = "http://e.example/d/e.md"
	for _, tt := range []struct {
		name, src, want, err string
	}{
		{"empty inline", "a [e]() b\n", "a [e](http://e.example/d/e.md) b\n", ""},
		{"empty in angle brackets", "[f](<>) c\n", "[f](<http://e.example/d/e.md>) c\n", ""},
		{"empty definition", "[g]: <>\n\nuse [g]\n", "[g]: <http://e.example/d/e.md>\n\nuse [g]\n", ""},
		{"empty image, nested brackets and a code span", "![]() [a [b] `]` c]()\n", "![](http://e.example/d/e.md) [a [b] `]` c](http://e.example/d/e.md)\n", ""},
		{"empty before a line break", "[y](\n<>)\n", "[y](\n<http://e.example/d/e.md>)\n", ""},
		{"a link beside them", "[p](p.html) []()\n", "[p](http://e.example/d/p.html) [](http://e.example/d/e.md)\n", ""},
		{"an empty destination whose place is not told", "[a <b title=\"]\">]() [p](p.html)\n", "", "line 1: a link with an empty destination"},
		{"a long line, read whole", "[p](p.html)\n" + strings.Repeat("x", 20000) + " [q](q.html)\n", "[p](http://e.example/d/p.html)\n" + strings.Repeat("x", 20000) + " [q](http://e.example/d/q.html)\n", ""},
		{"a long document, read whole", strings.Repeat("x\n", 3<<20) + "[p](p.html)\n", strings.Repeat("x\n", 3<<20) + "[p](http://e.example/d/p.html)\n", ""},
		// goldmark reads what the scanner leaves to it (here, for its
		// carriage returns) within its bounds.
		{"a line past goldmark's bound", "[p](p.html)\r\n" + strings.Repeat("x", 20000) + " [q](q.html)\r\n", "", "not read for links: a line longer than 16384 bytes"},
		{"text past goldmark's bound", strings.Repeat("[p](p.html) filler filler filler\r\n", 140000), "", "a Markdown document is read up to 4 MiB"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rw := Rewriter{Absolute: true}
			out, _, err := rw.Markdown([]byte(tt.src), url)
			if tt.err != "" {
				var partly *PartlyReadError
				var loss *links.Loss
				if !errors.As(err, &partly) || !errors.As(err, &loss) || !strings.Contains(err.Error(), tt.err) || !bytes.Equal(out, []byte(tt.src)) {
					t.Fatalf("err %v, output changed %v; want a *PartlyReadError saying %q and the document as it was", err, !bytes.Equal(out, []byte(tt.src)), tt.err)
				}
				return
			}
			if err != nil || string(out) != tt.want {
				t.Fatalf("got %q, %v\nwant %q", out, err, tt.want)
			}
			again, _, err := rw.Markdown(out, url)
			if err != nil || !bytes.Equal(again, out) {
				t.Errorf("rewriting the output again: %q, %v", again, err)
			}
		})
	}
}

// FuzzMarkdown: rewriting Markdown never panics; it either rewrites, and
// a rewrite of its output changes nothing, or fails and hands the
// document back as it was.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"a [e]() b\n", "[f](<>) c\n", "[g]: <>\n\nuse [g]\n", "![]() [a [b] `]` c]()\n", "[y](\n<>)\n",
		"[a <b title=\"]\">]() [p](p.html)\n", "- [x](../x.md#h)\n  > <https://e.example/a>\n", "[r]: r.md 'title'\n[t][r] <img src=i.png>\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		rw := Rewriter{Absolute: true}
		out, _, err := rw.Markdown([]byte(src), "http://e.example/d/e.md")
		if err != nil {
			if string(out) != src {
				t.Fatalf("%q: failed (%v) and changed the document", src, err)
			}
			return
		}
		again, _, err := rw.Markdown(out, "http://e.example/d/e.md")
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("%q rewritten is %q, and again %q, %v", src, out, again, err)
		}
	})
}
