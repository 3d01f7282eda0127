package whatwg

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/relurl/relurl/internal/ascii"
	"github.com/relurl/relurl/internal/nodeoracle"
	"github.com/relurl/relurl/webencoding"
)

func showPairs(q SearchParams) string {
	var b strings.Builder
	for name, value := range q.All() {
		fmt.Fprintf(&b, "[%q %q]", name, value)
	}
	return b.String()
}

func TestParseSearchParams(t *testing.T) {
	for _, tt := range []struct{ in, pairs, out string }{
		{"", "", ""},
		{"?", "", ""},
		{"?a=1&b=2", `["a" "1"]["b" "2"]`, "a=1&b=2"},
		{"a=1&a=2&&=&b", `["a" "1"]["a" "2"]["" ""]["b" ""]`, "a=1&a=2&=&b="},
		{"a+b=c+d%20e", `["a b" "c d e"]`, "a+b=c+d+e"},
		{"a=%zz&b=%4&c=%41%", `["a" "%zz"]["b" "%4"]["c" "A%"]`, "a=%25zz&b=%254&c=A%25"},
		{"a=b=c;d=e", `["a" "b=c;d=e"]`, "a=b%3Dc%3Bd%3De"},
		{"%FF=%C3%A9", "[\"\ufffd\" \"é\"]", "%EF%BF%BD=%C3%A9"},
		{"x=*-._~!'()", `["x" "*-._~!'()"]`, "x=*-._%7E%21%27%28%29"},
		{"q=a%26b%3Dc", `["q" "a&b=c"]`, "q=a%26b%3Dc"},
	} {
		q := ParseSearchParams(tt.in)
		if got := showPairs(q); got != tt.pairs {
			t.Errorf("ParseSearchParams(%q) = %s, want %s", tt.in, got, tt.pairs)
		}
		if got := q.String(); got != tt.out {
			t.Errorf("ParseSearchParams(%q).String() = %q, want %q", tt.in, got, tt.out)
		}
	}
}

func TestSearchParamsMethods(t *testing.T) {
	q := ParseSearchParams("b=1&a=2&b=3&c=4&b=5")
	if v, ok := q.Get("b"); v != "1" || !ok {
		t.Errorf("Get b = %q, %v", v, ok)
	}
	if _, ok := q.Get("z"); ok {
		t.Error("Get z found one")
	}
	if got := q.GetAll("b"); !slices.Equal(got, []string{"1", "3", "5"}) {
		t.Errorf("GetAll b = %q", got)
	}
	if !q.Has("c") || q.Has("z") || !q.HasValue("b", "3") || q.HasValue("b", "4") {
		t.Error("Has or HasValue wrong")
	}
	r := q.Clone()
	r.Set("b", "x")
	if got := r.String(); got != "b=x&a=2&c=4" {
		t.Errorf("Set b: %q", got)
	}
	if got := q.String(); got != "b=1&a=2&b=3&c=4&b=5" {
		t.Errorf("Set on a clone changed the original: %q", got)
	}
	r.Set("d", "y z")
	r.DeleteValue("a", "3")
	r.DeleteValue("a", "2")
	r.Append("a", "6")
	if got := r.String(); got != "b=x&c=4&d=y+z&a=6" {
		t.Errorf("after Set, DeleteValue, Append: %q", got)
	}
	r.Delete("c")
	r.Sort()
	if got := r.String(); got != "a=6&b=x&d=y+z" {
		t.Errorf("after Delete, Sort: %q", got)
	}
	s := ParseSearchParams("%EF%BF%BD=1&%F0%9F%98%80=2&z=3&a=4&z=5")
	s.Sort()
	if got := showPairs(s); got != "[\"a\" \"4\"][\"z\" \"3\"][\"z\" \"5\"][\"😀\" \"2\"][\"\ufffd\" \"1\"]" {
		t.Errorf("Sort by UTF-16 code units, stable: %s", got)
	}
	var empty SearchParams
	empty.Append("k", "v")
	if empty.Len() != 1 || empty.String() != "k=v" {
		t.Errorf("the zero SearchParams: %q", empty.String())
	}
}

func TestSearchParamsEncoding(t *testing.T) {
	enc, _, _ := webencoding.Get("windows-1252")
	q := ParseSearchParams("")
	q.Append("name", "café € \u2212")
	if got := string(q.AppendEncoded(nil, enc)); got != "name=caf%E9+%80+%26%238722%3B" {
		t.Errorf("windows-1252: %q", got)
	}
}

// TestURLEncodedParserData runs web-platform-tests'
// url/resources/urlencoded-parser-data.json (commit d1655f3, kept in
// testdata/wpt): the pairs new URLSearchParams(input) holds.
func TestURLEncodedParserData(t *testing.T) {
	data, err := os.ReadFile("../testdata/wpt/urlencoded-parser-data.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Input  string
		Output [][2]string
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	passed := 0
	for _, c := range cases {
		q := ParseSearchParams(c.Input)
		got := [][2]string{}
		for n, v := range q.All() {
			got = append(got, [2]string{n, v})
		}
		if !slices.Equal(got, c.Output) {
			t.Errorf("%q: %q, want %q", c.Input, got, c.Output)
			continue
		}
		passed++
	}
	t.Logf("urlencoded-parser-data.json: %d of %d cases pass", passed, len(cases))
}

// A URL's searchParams reads its query as it is: a "?" it starts with is
// a name's (urltestdata.json's "??a=b&c=d"), where the URLSearchParams
// constructor, ParseSearchParams, drops one.
func TestSearchParamsOfURL(t *testing.T) {
	u, _ := Parse("http://h/??a=b&c=d")
	q := u.SearchParams()
	if got := q.String(); got != "%3Fa=b&c=d" {
		t.Errorf("searchParams of ??a=b&c=d: %q, want %%3Fa=b&c=d", got)
	}
	if got := ParseSearchParams("??a=b"); got.String() != "%3Fa=b" {
		t.Errorf("ParseSearchParams(??a=b): %q, one ? dropped", got.String())
	}
}

func TestWithSearchParams(t *testing.T) {
	for _, tt := range []struct{ href, want string }{
		{"http://h/p?a=1&b=2#f", "http://h/p?b=3&c=d+e#f"},
		{"sc:opaque?x", "sc:opaque?b=3&c=d+e"},
	} {
		u, _ := Parse(tt.href)
		q := u.SearchParams()
		q.Set("b", "3")
		q.Delete("a")
		q.Delete("x")
		q.Append("c", "d e")
		if got := u.WithSearchParams(q).Href(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.href, got, tt.want)
		}
	}
	u, _ := Parse("http://h/p?x#f")
	if got := u.WithSearchParams(SearchParams{}).Href(); got != "http://h/p#f" {
		t.Errorf("emptied: %q (no query at all)", got)
	}
}

// searchParamsScript writes, for each query on its standard input (a JSON
// string a line), a JSON array: the pairs of new URLSearchParams(query),
// its toString(), and its toString() after sort(). It answers each line as
// it comes, so that a fuzz target can ask it one query at a time.
const searchParamsScript = `
const rl = require("readline").createInterface({input: process.stdin});
rl.on("line", line => {
  const q = new URLSearchParams(JSON.parse(line));
  const pairs = [...q];
  const s = q.toString();
  q.sort();
  process.stdout.write(JSON.stringify([pairs, s, q.toString()]) + "\n");
});
`

// differsFromNode compares relurl's parse of query with node's answer
// (a line of searchParamsScript): the pairs, the serialization and the
// sorted serialization. It returns what differs, or "".
func differsFromNode(query string, line []byte) string {
	var want []json.RawMessage
	if err := json.Unmarshal(line, &want); err != nil || len(want) != 3 {
		return fmt.Sprintf("node's answer %q: %v", line, err)
	}
	q := ParseSearchParams(query)
	gotPairs := [][2]string{}
	for n, v := range q.All() {
		gotPairs = append(gotPairs, [2]string{n, v})
	}
	var wantPairs [][2]string
	var wantString, wantSorted string
	json.Unmarshal(want[0], &wantPairs)
	json.Unmarshal(want[1], &wantString)
	json.Unmarshal(want[2], &wantSorted)
	s := q.String()
	q.Sort()
	switch {
	case len(gotPairs) != len(wantPairs) || len(gotPairs) > 0 && !slices.Equal(gotPairs, wantPairs):
		return fmt.Sprintf("%q: pairs %q, Node %q", query, gotPairs, wantPairs)
	case s != wantString:
		return fmt.Sprintf("%q: %q, Node %q", query, s, wantString)
	case q.String() != wantSorted:
		return fmt.Sprintf("%q sorted: %q, Node %q", query, q.String(), wantSorted)
	}
	return ""
}

// TestSearchParamsAgainstNode parses the query of each of the 48,010 web
// URLs, and hostile queries, with relurl and with Node's URLSearchParams,
// and compares the pairs, the serialization and the sorted serialization.
// It skips without node.
func TestSearchParamsAgainstNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	queries := []string{"", "?", "??a=b", "&&", "=", "a", "a=", "=b", "+", "%", "%%", "%2", "%zz", "%FF", "%FE%FF", "%E2%82", "%E2%82x%F0%9F", "%C3", "%C3%A9", "%F0%9F%98%80",
		"a=1;b=2", "a=b=c", "é=ü", "😀", "\uFFFF=x", "\t=\n", "a\x00b", "~!*'()", "%7E", "z&a&\uFFFD&😀&\u00e9&Z"}
	if data, err := os.ReadFile("../../shared/data/urls-kasztp.txt"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if _, q, ok := strings.Cut(line, "?"); ok {
				q, _, _ = strings.Cut(q, "#")
				queries = append(queries, q)
			}
		}
	}
	inputs := make([]any, len(queries))
	for i, q := range queries {
		inputs[i] = q
	}
	lines := nodeoracle.Run(t, node, searchParamsScript, inputs, time.Minute)
	agree := 0
	for i, line := range lines {
		if d := differsFromNode(queries[i], line); d != "" {
			t.Error(d)
			continue
		}
		agree++
	}
	t.Logf("search params: %d / %d queries agree with Node's URLSearchParams (pairs, toString, sort)", agree, len(queries))
}

// nodeMangles reports whether Node 20's URLSearchParams may read a name or
// value of query otherwise than the Standard and browsers do: one with
// characters beyond ASCII and percent-encoded bytes that are not UTF-8, or
// a "%" without two hex digits after it, where Node decodes again byte by
// byte and loses those characters ("%80ڙ": Node "\uFFFD\uFFFD", Chromium
// 156 and relurl "\uFFFDڙ", as TestParseSearchParamsBrowser holds;
// "%00գ%" and "%+00գ": Node "\x00c%" and "% 00c"). Node keeps some of
// these ("%zzé"); they are left out all the same.
func nodeMangles(query string) bool {
	for pair := range strings.SplitSeq(query, "&") {
		for _, part := range strings.SplitN(pair, "=", 2) {
			if !strings.Contains(part, "%") || strings.IndexFunc(part, func(r rune) bool { return r >= utf8.RuneSelf }) < 0 {
				continue
			}
			escapes, malformed := false, false
			for i := range len(part) {
				if part[i] == '%' {
					ok := i+2 < len(part) && ascii.IsHex(part[i+1]) && ascii.IsHex(part[i+2])
					escapes, malformed = escapes || ok, malformed || !ok
				}
			}
			if malformed || escapes && !utf8.ValidString(PercentDecode(part)) {
				return true
			}
		}
	}
	return false
}

// TestParseSearchParamsBrowser: where Node 20 departs from the Standard,
// relurl gives what Chromium 156 gives.
func TestParseSearchParamsBrowser(t *testing.T) {
	q := ParseSearchParams("%80\u0699=%zz\u00e9")
	if got := showPairs(q); got != showPairs(SearchParams{list: []queryPair{{"\uFFFD\u0699", "%zz\u00e9"}}}) {
		t.Errorf("got %s", got)
	}
	if !nodeMangles("%80\u0699") || !nodeMangles("%00\u0563%") || !nodeMangles("%+00\u0563") || nodeMangles("%C3%A9\u00e9") || nodeMangles("%80=\u00e9") {
		t.Error("nodeMangles")
	}
}

// searchParamsNode is one node running searchParamsScript for the fuzz
// target, started on its first input; it ends with the test process, whose
// end closes its standard input.
var searchParamsNode struct {
	once sync.Once
	in   io.Writer
	out  *bufio.Reader
	err  error
}

// FuzzSearchParamsNode: relurl's URLSearchParams and Node's agree on any
// query (valid UTF-8, as a JavaScript string is; percent-encoded bytes
// are any): the pairs, the serialization and the sorted serialization.
func FuzzSearchParamsNode(f *testing.F) {
	for _, s := range []string{"a=1&b=2", "??a=b", "%FE%FF=%E2%82x", "a+b=%zz&=&c", "x=~!*'()&z&\u00e9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, query string) {
		if !utf8.ValidString(query) {
			t.Skip("not a JavaScript string")
		}
		if nodeMangles(query) {
			t.Skip("Node's own departure from the Standard")
		}
		n := &searchParamsNode
		n.once.Do(func() {
			node, err := exec.LookPath("node")
			if err != nil {
				n.err = err
				return
			}
			cmd := exec.Command(node, "-e", searchParamsScript)
			in, err := cmd.StdinPipe()
			if err != nil {
				n.err = err
				return
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				n.err = err
				return
			}
			n.in, n.out, n.err = in, bufio.NewReader(out), cmd.Start()
		})
		if n.err != nil {
			t.Skipf("no node to compare with: %v", n.err)
		}
		line, _ := json.Marshal(query)
		if _, err := n.in.Write(append(line, '\n')); err != nil {
			t.Fatalf("node: %v", err)
		}
		answer, err := n.out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("node: %v", err)
		}
		if d := differsFromNode(query, answer); d != "" {
			t.Fatal(d)
		}
	})
}

// FuzzSearchParams: what String writes parses back to the same pairs.
func FuzzSearchParams(f *testing.F) {
	for _, s := range []string{"a=1&b=2", "a+b=%zz&=&c", "%FF%C3%A9=😀", "x=~!*'()"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, query string) {
		q := ParseSearchParams(query)
		back := ParseSearchParams(q.String())
		if showPairs(back) != showPairs(q) {
			t.Fatalf("%q: %s, serialized %q, parses to %s", query, showPairs(q), q.String(), showPairs(back))
		}
		q.Sort()
	})
}

func ExampleSearchParams() {
	u, _ := Parse("https://example.com/search?q=url+standard&lang=en&q=rfc%201808")
	q := u.SearchParams()
	fmt.Println(q.GetAll("q"))
	q.Set("lang", "fr")
	q.Append("page", "2")
	q.Sort()
	fmt.Println(u.WithSearchParams(q))
	// net/url.Values loses the order and encodes otherwise:
	v, _ := url.ParseQuery("b=~&a=*")
	w := ParseSearchParams("b=~&a=*")
	fmt.Println(v.Encode(), w.String())
	// Output:
	// [url standard rfc 1808]
	// https://example.com/search?lang=fr&page=2&q=url+standard&q=rfc+1808
	// a=%2A&b=~ b=%7E&a=*
}

// realQueries returns the queries of the 48,010 web URLs of the shared
// data, or skips.
func realQueries(tb testing.TB) []string {
	data, err := os.ReadFile("../../shared/data/urls-kasztp.txt")
	if err != nil {
		tb.Skipf("no shared data (%v)", err)
	}
	var queries []string
	for _, line := range strings.Split(string(data), "\n") {
		if _, q, ok := strings.Cut(line, "?"); ok {
			q, _, _ = strings.Cut(q, "#")
			queries = append(queries, q)
		}
	}
	return queries
}

// BenchmarkSearchParams parses and serializes the 2,357 real queries of
// the web URLs, with SearchParams and with net/url's ParseQuery and
// Values.Encode, the yardstick; bench/searchparams.sh runs Node's
// URLSearchParams on the same queries beside it. ns/op is per query.
func BenchmarkSearchParams(b *testing.B) {
	queries := realQueries(b)
	b.Run("relurl", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			q := ParseSearchParams(queries[i%len(queries)])
			_ = q.String()
		}
	})
	b.Run("net-url", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			v, _ := url.ParseQuery(queries[i%len(queries)])
			_ = v.Encode()
		}
	})
}
