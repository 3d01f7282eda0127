package htmltok

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"
	"unicode/utf8"
)

// html5libDir holds the html5lib-tests tokenizer suite, vendored in the
// module's testdata with its licence and provenance (its README.md), so
// that a clone holds the tokenizer to it anywhere.
const html5libDir = "../testdata/html5lib-tests/tokenizer"

type html5libCase struct {
	Description   string
	Input         string
	Output        []json.RawMessage
	InitialStates []string
	LastStartTag  string
	DoubleEscaped bool
}

var states = map[string]State{
	"Data state": Data, "PLAINTEXT state": PLAINTEXT, "RCDATA state": RCDATA,
	"RAWTEXT state": RAWTEXT, "Script data state": ScriptData, "CDATA section state": CDATASection,
}

// TestHTML5Lib runs every case of the html5lib-tests tokenizer suite, in
// each of its initial states, and compares the tokens. Parse errors are
// not compared: the tokenizer does not report them. Cases whose input or
// output holds a lone surrogate are counted apart: UTF-8, which the
// tokenizer reads, cannot hold one.
func TestHTML5Lib(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(html5libDir, "*.test"))
	if len(files) == 0 {
		t.Fatalf("no html5lib-tests in %s", html5libDir)
	}
	var cases, runs, passed, surrogates int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var suite struct{ Tests []html5libCase }
		if err := json.Unmarshal(data, &suite); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range suite.Tests {
			cases++
			input := c.Input
			if c.DoubleEscaped {
				input = unescape(input)
			}
			if hasSurrogate(input) || c.DoubleEscaped && hasSurrogate(unescape(joinRaw(c.Output))) {
				surrogates++
				continue
			}
			want := expected(t, c)
			initial := c.InitialStates
			if len(initial) == 0 {
				initial = []string{"Data state"}
			}
			for _, s := range initial {
				runs++
				// In memory, and streamed a byte at a time: every token
				// then runs past the input read.
				got := tokenize(NewBytes([]byte(input)), states[s], c.LastStartTag)
				streamed := tokenize(New(iotest.OneByteReader(strings.NewReader(input))), states[s], c.LastStartTag)
				if reflect.DeepEqual(got, want) && reflect.DeepEqual(streamed, want) {
					passed++
					continue
				}
				t.Errorf("%s: %s (%s): %q\n got %q\n streamed %q\nwant %q", filepath.Base(f), c.Description, s, input, got, streamed, want)
			}
		}
	}
	t.Logf("html5lib-tests: %d cases: %d run (%d runs in their initial states, %d passed); %d with a lone surrogate not run", cases, cases-surrogates, runs, passed, surrogates)
	if cases < 6800 {
		t.Errorf("only %d cases found", cases)
	}
}

// tokenize gives the tokens of input as html5lib writes them, adjacent
// characters joined.
func tokenize(z *Tokenizer, s State, last string) []any {
	z.SetStateByName(false)
	z.SetState(s)
	z.SetLastStartTag(last)
	var out []any
	for {
		k := z.Next()
		switch k {
		case ErrorToken:
			return out
		case TextToken:
			if n := len(out); n > 0 {
				if prev, ok := out[n-1].([]any); ok && prev[0] == "Character" {
					prev[1] = prev[1].(string) + string(z.Text())
					continue
				}
			}
			out = append(out, []any{"Character", string(z.Text())})
		case CommentToken:
			out = append(out, []any{"Comment", string(z.Text())})
		case EndTagToken:
			out = append(out, []any{"EndTag", string(z.Name())})
		case StartTagToken:
			attrs := map[string]any{}
			for _, a := range z.Attrs(nil) {
				attrs[string(a.Name)] = string(a.Value)
			}
			tok := []any{"StartTag", string(z.Name()), attrs}
			if z.SelfClosing() {
				tok = append(tok, true)
			}
			out = append(out, tok)
		case DoctypeToken:
			name, public, system, quirks := z.Doctype()
			str := func(b []byte) any {
				if b == nil {
					return nil
				}
				return string(b)
			}
			out = append(out, []any{"DOCTYPE", str(name), str(public), str(system), !quirks})
		}
	}
}

// expected decodes a case's output as tokenize gives it.
func expected(t *testing.T, c html5libCase) []any {
	var out []any
	for _, raw := range c.Output {
		var tok []any
		if err := json.Unmarshal(raw, &tok); err != nil {
			t.Fatal(err)
		}
		if c.DoubleEscaped {
			for i, v := range tok {
				if s, ok := v.(string); ok {
					tok[i] = unescape(s)
				}
			}
		}
		if tok[0] == "StartTag" && len(tok) == 4 && tok[3] == false {
			tok = tok[:3]
		}
		if tok[0] == "Character" && len(out) > 0 {
			if prev := out[len(out)-1].([]any); prev[0] == "Character" {
				prev[1] = prev[1].(string) + tok[1].(string)
				continue
			}
		}
		out = append(out, tok)
	}
	return out
}

var escape = regexp.MustCompile(`\\u[dD][89abAB][0-9A-Fa-f]{2}\\u[dD][c-fC-F][0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}`)

// unescape undoes a doubleEscaped case's "\uXXXX", keeping lone
// surrogates visible to hasSurrogate as WTF-8.
func unescape(s string) string {
	return escape.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.ParseUint(m[2:6], 16, 32)
		if len(m) == 12 { // a surrogate pair
			lo, _ := strconv.ParseUint(m[8:], 16, 32)
			return string(utf16.DecodeRune(rune(n), rune(lo)))
		}
		if n >= 0xD800 && n <= 0xDFFF {
			return "\x00SURROGATE\x00"
		}
		return string(rune(n))
	})
}

func hasSurrogate(s string) bool {
	return strings.Contains(s, "\x00SURROGATE\x00") || !utf8.ValidString(s)
}

func joinRaw(r []json.RawMessage) string {
	var b strings.Builder
	for _, m := range r {
		b.Write(m)
	}
	return b.String()
}
