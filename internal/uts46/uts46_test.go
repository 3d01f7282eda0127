package uts46

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestIdnaTestV2 runs Unicode's conformance cases for UTS #46
// (IdnaTestV2.txt of UnicodeVersion, gzipped) twice: with every check on,
// and with the URL Standard's lenient options, which ignore the status
// codes of the checks they leave off. Transitional cases are not run.
func TestIdnaTestV2(t *testing.T) {
	f, err := os.Open("testdata/IdnaTestV2.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	version := regexp.MustCompile(`^# Version: (\S+)`)
	sc := bufio.NewScanner(z)
	cases, line := 0, 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if m := version.FindStringSubmatch(text); m != nil && m[1] != UnicodeVersion {
			t.Fatalf("IdnaTestV2.txt is of Unicode %s, the tables of %s", m[1], UnicodeVersion)
		}
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		c := strings.Split(text, ";")
		blank := make([]bool, len(c))
		for i := range c {
			c[i] = strings.TrimSpace(c[i])
			blank[i] = c[i] == ""
			c[i] = unescape(t, c[i])
		}
		source, toUnicode, uStatus, toASCII, aStatus := c[0], c[1], c[2], c[3], c[4]
		if blank[1] {
			toUnicode = source
		}
		if blank[3] {
			toASCII = toUnicode
		}
		if blank[4] {
			aStatus = uStatus
		}
		for _, p := range []struct {
			name   string
			o      Options
			ignore []string
		}{
			{"strict", Strict, []string{"X4_2"}},
			{"lenient", Options{}, []string{"X4_2", "V2", "V3", "U1", "A4_1", "A4_2"}},
		} {
			uWant, aWant := errs(uStatus, append(p.ignore, "A4_1", "A4_2")), errs(aStatus, p.ignore)
			u, err := ToUnicode(source, p.o)
			switch {
			case uWant && err == nil:
				t.Errorf("line %d %s: ToUnicode(%+q) = %+q, want %s", line, p.name, source, u, uStatus)
			case !uWant && err != nil:
				t.Errorf("line %d %s: ToUnicode(%+q): %v, want %+q", line, p.name, source, err, toUnicode)
			case !uWant && u != toUnicode:
				t.Errorf("line %d %s: ToUnicode(%+q) = %+q, want %+q", line, p.name, source, u, toUnicode)
			}
			a, err := ToASCII(source, p.o)
			switch {
			case aWant && err == nil:
				t.Errorf("line %d %s: ToASCII(%+q) = %+q, want %s", line, p.name, source, a, aStatus)
			case !aWant && err != nil:
				t.Errorf("line %d %s: ToASCII(%+q): %v, want %+q", line, p.name, source, err, toASCII)
			case !aWant && a != toASCII:
				t.Errorf("line %d %s: ToASCII(%+q) = %+q, want %+q", line, p.name, source, a, toASCII)
			}
		}
		cases++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("IdnaTestV2.txt (Unicode %s): %d cases, each ToUnicode and ToASCII, strict and lenient", UnicodeVersion, cases)
}

// errs reports whether a status column, such as "[B5, V6]", holds a code
// the options do not ignore.
func errs(status string, ignore []string) bool {
	status = strings.Trim(status, "[]")
	for _, code := range strings.Split(status, ",") {
		code = strings.TrimSpace(code)
		if code == "" {
			continue
		}
		ignored := false
		for _, ig := range ignore {
			ignored = ignored || code == ig || ig[0] == code[0] && len(ig) == 1
		}
		if !ignored {
			return true
		}
	}
	return false
}

var escape = regexp.MustCompile(`\\u([0-9A-Fa-f]{4})|\\x\{([0-9A-Fa-f]+)\}`)

// unescape reads a column's \uXXXX and \x{XXXX} escapes and its "" for the
// empty string.
func unescape(t *testing.T, s string) string {
	if s == `""` {
		return ""
	}
	return escape.ReplaceAllStringFunc(s, func(e string) string {
		m := escape.FindStringSubmatch(e)
		n, err := strconv.ParseUint(m[1]+m[2], 16, 32)
		if err != nil {
			t.Fatal(err)
		}
		return string(rune(n))
	})
}

// FuzzToASCII holds ToASCII and ToUnicode to what UTS #46 promises of them
// on any input: no panic; a result in ASCII that ToASCII keeps as it is;
// and ToUnicode of it that converts back to it, with no error.
func FuzzToASCII(f *testing.F) {
	for _, s := range []string{"Bücher.example", "xn--bcher-kva.example", "FAẞ.de", "١٢٣.com",
		"a\u200cb", "\u0627\u200c\u0628", "xn--", "xn--a-.b", "ｗｗｗ.example", "a.b.c.d.", "\ufdfa"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, strict bool) {
		o := Options{}
		if strict {
			o = Strict
		}
		a, err := ToASCII(s, o)
		u, uerr := ToUnicode(s, o)
		if err != nil {
			return
		}
		if uerr != nil {
			t.Fatalf("ToASCII(%+q) = %+q, but ToUnicode fails: %v", s, a, uerr)
		}
		for i := 0; i < len(a); i++ {
			if a[i] >= 0x80 {
				t.Fatalf("ToASCII(%+q) = %+q, not ASCII", s, a)
			}
		}
		if again, err := ToASCII(a, o); err != nil || again != a {
			t.Fatalf("ToASCII(%+q) = %+q, and again %+q, %v", s, a, again, err)
		}
		if back, err := ToASCII(u, o); err != nil || back != a {
			t.Fatalf("ToASCII(%+q) = %+q, but of its ToUnicode %+q: %+q, %v", s, a, u, back, err)
		}
	})
}

// TestTablesUnedited checks the checksum ./internal/gen writes as the last
// line of tables.go: the tables are what it generated, untouched since.
// To regenerate them, see ./internal/gen.
func TestTablesUnedited(t *testing.T) {
	data, err := os.ReadFile("tables.go")
	if err != nil {
		t.Fatal(err)
	}
	body, last, _ := strings.Cut(string(data), "\n// SHA-256 of the lines above: ")
	want := strings.TrimSpace(last)
	if got := fmt.Sprintf("%x", sha256.Sum256([]byte(body))); got != want {
		t.Errorf("tables.go's content has SHA-256 %s, its last line says %q: it was edited by hand", got, want)
	}
}
