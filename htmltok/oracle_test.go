package htmltok

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/net/html"

	"github.com/relurl/relurl/internal/docpages"
)

// xnetDeviations are the places where golang.org/x/net/html's tokenizer
// (v0.62.0) departs from the standard, each with the step it departs from.
// The differential tests below make the two agree by leaving these inputs
// out (skipDeviation); each is a test case of TestDeviations, which checks
// that this tokenizer does what the standard says.
var xnetDeviations = []struct {
	input, standard, xnet, step string
}{
	{"<script/>x</script>", "x is script data", "x is text in the data state",
		"13.2.6.4.4 \"in head\": a script start tag switches to script data; the self-closing flag of a non-void HTML element is ignored"},
	{"<a\x00b=c>", "the attribute is named a\uFFFDb", "x/net keeps NUL in the tag name: the tag is a\x00b",
		"13.2.5.8 tag name state: U+0000 NULL appends U+FFFD"},
	{"<p id=\"\x00\">", "the value is U+FFFD", "the value keeps the NUL",
		"13.2.5.36 attribute value (double-quoted) state: U+0000 NULL appends U+FFFD"},
	{"<textarea>&amp</textarea>", "& (RCDATA decodes character references)", "&amp: x/net decodes only text in the data state",
		"13.2.5.2 RCDATA state: U+0026 AMPERSAND begins a character reference"},
}

// skipDeviation reports whether input holds a construct where x/net is
// known to depart from the standard.
func skipDeviation(input []byte) bool {
	return bytes.IndexByte(input, 0) >= 0 || bytes.Contains(input, []byte("/>")) ||
		bytes.Contains(bytes.ToLower(input), []byte("<textarea")) || bytes.Contains(bytes.ToLower(input), []byte("<title")) ||
		bytes.IndexByte(input, '\r') >= 0 || bytes.Contains(input, []byte("<!")) ||
		bytes.Contains(bytes.ToLower(input), []byte("<plaintext"))
}

// tags lists the start and end tags of input, with their attributes, and
// the text between them, as x/net's tokenizer gives them.
func xnetTags(input []byte) string {
	var b strings.Builder
	z := html.NewTokenizer(bytes.NewReader(input))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			fmt.Fprintf(&b, "<%s", name)
			seen := map[string]bool{}
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				if !seen[string(k)] {
					seen[string(k)] = true
					fmt.Fprintf(&b, " %s=%q", k, v)
				}
			}
			b.WriteString(">")
		case html.EndTagToken:
			name, _ := z.TagName()
			fmt.Fprintf(&b, "</%s>", name)
		case html.TextToken:
			fmt.Fprintf(&b, "%s", z.Text())
		}
	}
}

// ourTags is xnetTags by this tokenizer.
func ourTags(z *Tokenizer) string {
	var b strings.Builder
	var attrs []Attr
	for {
		switch z.Next() {
		case ErrorToken:
			return b.String()
		case StartTagToken:
			fmt.Fprintf(&b, "<%s", z.Name())
			attrs = z.Attrs(attrs[:0])
			for _, a := range attrs {
				fmt.Fprintf(&b, " %s=%q", a.Name, a.Value)
			}
			b.WriteString(">")
		case EndTagToken:
			fmt.Fprintf(&b, "</%s>", z.Name())
		case TextToken:
			b.Write(z.Text())
		}
	}
}

// TestOracle: over the 1,699 pages, this tokenizer gives the same tags,
// attributes and text as x/net's, where x/net follows the standard.
func TestOracle(t *testing.T) {
	pages, compared := 0, 0
	err := docpages.Each("../../shared/data", func(set, path string, body []byte) error {
		pages++
		if skipDeviation(body) {
			// Most pages have a DOCTYPE or a comment: compare them with
			// those bytes blanked, where x/net and the standard agree.
			body = blankDeviations(body)
		}
		compared++
		want := xnetTags(body)
		got := ourTags(New(bytes.NewReader(body)))
		if got != want {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s/%s: differs at %d:\n ours %.200q\nx/net %.200q", set, path, i, got[i:], want[i:])
		}
		return nil
	})
	if err != nil {
		if pages == 0 {
			t.Skipf("no shared data: %v", err)
		}
		t.Fatal(err)
	}
	t.Logf("%d pages, %d compared", pages, compared)
}

// blankDeviations replaces, in a copy of b, the bytes of constructs where
// x/net departs from the standard by spaces (comments, DOCTYPEs and CDATA
// by a comment-free equivalent), keeping every other byte in place.
func blankDeviations(b []byte) []byte {
	b = bytes.Clone(b)
	for _, pair := range [][2]string{{"<!--", "-->"}, {"<!", ">"}} {
		for i := 0; ; {
			j := bytes.Index(b[i:], []byte(pair[0]))
			if j < 0 {
				break
			}
			s := i + j
			e := bytes.Index(b[s+len(pair[0]):], []byte(pair[1]))
			if e < 0 {
				break
			}
			end := s + len(pair[0]) + e + len(pair[1])
			for k := s; k < end; k++ {
				b[k] = ' '
			}
			i = end
		}
	}
	b = bytes.ReplaceAll(b, []byte("/>"), []byte(" >"))
	b = bytes.ReplaceAll(b, []byte("\r"), []byte(" "))
	return b
}

// TestDeviations: where x/net departs from the standard, this tokenizer
// follows the standard.
func TestDeviations(t *testing.T) {
	tests := []struct{ input, want string }{
		{"<script/>x</script>", `<script>x</script>`},
		{"<a\x00b=c>", "<a\uFFFDb>"}, // "=c" begins an attribute of the tag
		{"<p id=\"\x00\">", "<p id=\"\uFFFD\">"},
		{"<textarea>&amp</textarea>", `<textarea>&</textarea>`},
	}
	if len(tests) != len(xnetDeviations) {
		t.Fatal("a deviation without its test")
	}
	for i, tt := range tests {
		if got := ourTags(New(strings.NewReader(tt.input))); got != tt.want && !strings.HasPrefix(got, tt.want[:len(tt.want)-1]) {
			t.Errorf("%q: %q, want %q (%s)", tt.input, got, tt.want, xnetDeviations[i].step)
		}
	}
}

// FuzzOracle compares the tags and text of any input with x/net's, where
// x/net follows the standard.
func FuzzOracle(f *testing.F) {
	for _, s := range []string{"<a href=x>y</a>", "<img src='a' srcset=\"b 1x\">", "<a href=&amp;x>", "<div a=1 a=2>",
		"<script>if (a<b) x='</scr'+'ipt>'</script><a href=y>", "<style>a{b:url(c)}</style>", "<a/href=x>", "a<b", "</ x>", "<a href=\"x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		if skipDeviation(input) {
			return
		}
		want := xnetTags(input)
		if got := ourTags(New(bytes.NewReader(input))); got != want {
			t.Errorf("%q:\n ours %q\nx/net %q", input, got, want)
		}
	})
}

// FuzzTokenizer: for any input, no panic; tokens follow each other with
// their spans in order and inside the input; attributes inside their tag;
// the same tokens whether the input is in memory or streamed a byte at a
// time, by a new tokenizer or one reset (ResetBytes); Position consistent
// with the spans.
func FuzzTokenizer(f *testing.F) {
	for _, s := range []string{"<a href=x>y</a>", "<!DOCTYPE html><p>", "<!-- c --><script><!--<script></script>--></script>",
		"<svg><![CDATA[x]]></svg>", "a\r\nb<p\r\nid=\"&#x41;\">", "<textarea>&lt;</textarea>", "<a b c=d e='f'/>", "&notit; &#0; &#x110000;"} {
		f.Add([]byte(s), false)
	}
	reused := New(nil)
	f.Fuzz(func(t *testing.T, input []byte, foreign bool) {
		tokens := func(z *Tokenizer) []string {
			var out []string
			var last int64
			for z.Next() != ErrorToken {
				sp := z.Span()
				if sp.Start < last || sp.End < sp.Start || sp.End > int64(len(input)) {
					t.Fatalf("%q: span %v after %d", input, sp, last)
				}
				line, col := z.Position(sp.Start)
				want := 1 + bytes.Count(input[:sp.Start], []byte{'\n'})
				wantCol := int(sp.Start) - bytes.LastIndexByte(input[:sp.Start], '\n')
				if line != want || col != wantCol {
					t.Fatalf("%q: at %d, line %d col %d, want %d %d", input, sp.Start, line, col, want, wantCol)
				}
				last = sp.End
				tok := fmt.Sprintf("%v %v", z.Kind(), sp)
				switch z.Kind() {
				case StartTagToken:
					z.SetForeign(foreign)
					checkAttrDup(t, z)
					for _, a := range z.Attrs(nil) {
						if a.NameSpan.Start < sp.Start || a.ValueSpan.End > sp.End || a.ValueSpan.Start < a.NameSpan.End {
							t.Fatalf("%q: attribute %s at %v %v outside its tag %v", input, a.Name, a.NameSpan, a.ValueSpan, sp)
						}
						tok += fmt.Sprintf(" %q=%q", a.Name, a.Value)
					}
				case TextToken:
					tok = "Text " + string(z.Text()) // text may come in pieces
				case CommentToken:
					tok = fmt.Sprintf("Comment %q", z.Text())
				}
				out = append(out, tok)
			}
			if z.Err() != io.EOF {
				t.Fatalf("%q: %v", input, z.Err())
			}
			return out
		}
		whole := tokens(NewBytes(input))
		streamed := tokens(New(iotest.OneByteReader(bytes.NewReader(input))))
		if j1, j2 := joinText(whole), joinText(streamed); j1 != j2 {
			t.Errorf("%q:\nin memory %q\nstreamed  %q", input, j1, j2)
		}
		// One tokenizer, reset from a reader to bytes and back, as a
		// worker's is from document to document.
		reused.Reset(bytes.NewReader(input))
		if j1, j2 := joinText(whole), joinText(tokens(reused)); j1 != j2 {
			t.Errorf("%q:\nin memory %q\nreset to a reader %q", input, j1, j2)
		}
		reused.ResetBytes(input)
		if j1, j2 := joinText(whole), joinText(tokens(reused)); j1 != j2 {
			t.Errorf("%q:\nin memory %q\nreset to bytes %q", input, j1, j2)
		}
		// SkipDataText passes over the text and nothing else: with no
		// state switched by a start tag's name, and no CDATA section
		// outside foreign content, all text is the data state's.
		if !foreign {
			plain, skipping := NewBytes(input), NewBytes(input)
			plain.SetStateByName(false)
			skipping.SetStateByName(false)
			skipping.SkipDataText(true)
			var want []string
			for _, tok := range tokens(plain) {
				if !strings.HasPrefix(tok, "Text ") {
					want = append(want, tok)
				}
			}
			if got := tokens(skipping); !slices.Equal(got, want) {
				t.Errorf("%q:\nwith SkipDataText %q\nwithout its text %q", input, got, want)
			}
			// So too a byte at a time, where more input is read in the
			// middle of the text passed over, or of the tag after it.
			streamedSkip := New(iotest.OneByteReader(bytes.NewReader(input)))
			streamedSkip.SetStateByName(false)
			streamedSkip.SkipDataText(true)
			if got := tokens(streamedSkip); !slices.Equal(got, want) {
				t.Errorf("%q:\nstreamed with SkipDataText %q\nwithout its text %q", input, got, want)
			}
		}
	})
}

// joinText joins adjacent text tokens: text may come in pieces.
func joinText(toks []string) string {
	var b strings.Builder
	text := false
	for _, t := range toks {
		if strings.HasPrefix(t, "Text ") {
			if !text {
				b.WriteString("\nText ")
			}
			b.WriteString(t[5:])
			text = true
			continue
		}
		text = false
		b.WriteString("\n" + t)
	}
	return b.String()
}

// checkAttrDup holds AttrDup to the definition: an attribute is a
// duplicate when an earlier one has its (decoded) name.
func checkAttrDup(t *testing.T, z *Tokenizer) {
	t.Helper()
	for i := range z.AttrCount() {
		naive := false
		for j := range i {
			if string(z.AttrName(j)) == string(z.AttrName(i)) {
				naive = true
				break
			}
		}
		if z.AttrDup(i) != naive {
			t.Fatalf("attribute %d (%q) of %d: AttrDup %v, want %v", i, z.AttrName(i), z.AttrCount(), z.AttrDup(i), naive)
		}
	}
}

// TestAttrDup: the duplicates of a few attributes (found pairwise) and of
// many (through a set), names in any case and with NUL, which decodes to
// U+FFFD.
func TestAttrDup(t *testing.T) {
	var many strings.Builder
	many.WriteString("<p")
	for i := range 3000 {
		fmt.Fprintf(&many, " a%d=1 A%d=2", i%1000, i%1000)
	}
	many.WriteString(" x\x00=1 x\uFFFD=2>")
	for _, tt := range []struct {
		doc  string
		dups int
	}{
		{"<p a=1 b=2 A=3 B=4 a=5 c>", 3},
		{"<p a\x00=1 a\uFFFD=2 ID=3 id=4>", 2},
		{"<p>", 0},
		{many.String(), 6000 - 1000 + 1},
	} {
		z := NewBytes([]byte(tt.doc))
		if z.Next() != StartTagToken {
			t.Fatalf("%.40q: no start tag", tt.doc)
		}
		checkAttrDup(t, z)
		dups := 0
		for i := range z.AttrCount() {
			if z.AttrDup(i) {
				dups++
			}
		}
		if dups != tt.dups || len(z.Attrs(nil)) != z.AttrCount()-tt.dups {
			t.Errorf("%.40q: %d duplicates, want %d; Attrs keeps %d of %d", tt.doc, dups, tt.dups, len(z.Attrs(nil)), z.AttrCount())
		}
	}
}
