package lines

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll returns the lines of in, as a Reader with the given limit and Cut
// give them, with "!" and the error in place of a line that is too long.
func readAll(t *testing.T, in io.Reader, max int) []string {
	t.Helper()
	r := NewReader(in, max)
	var got []string
	n := 0 // the number of the line last seen
	for {
		chunk, err := r.Next()
		if err == io.EOF {
			return got
		}
		var tooLong *TooLongError
		if errors.As(err, &tooLong) {
			got = append(got, "!"+err.Error())
			if n++; tooLong.Line != n || r.Line() != n {
				t.Errorf("TooLongError.Line = %d, Line() = %d, want %d", tooLong.Line, r.Line(), n)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if r.Line() != n+strings.Count(string(chunk), "\n")+boolInt(len(chunk) > 0 && chunk[len(chunk)-1] != '\n') {
			t.Errorf("Line() = %d after a chunk of %q that follows line %d", r.Line(), chunk, n)
		}
		for len(chunk) > 0 {
			var line []byte
			line, chunk = Cut(chunk)
			if n++; len(line) > max {
				// Reading does not look inside chunks: the caller does.
				got = append(got, "!"+(&TooLongError{Line: n, Max: max}).Error())
				continue
			}
			got = append(got, string(line))
		}
	}
}

var tests = []struct {
	in   string
	want []string
}{
	{"", nil},
	{"\n", []string{""}},
	{"a\nb\n", []string{"a", "b"}},
	{"a\r\nb\r\n", []string{"a", "b"}},
	{"a\nb", []string{"a", "b"}}, // no final newline
	{"a\r\n\r\nb", []string{"a", "", "b"}},
	{"a\rb\n", []string{"a\rb"}}, // a lone CR is not an end of line
	{"12345\n123456\nx\n", []string{"12345", "!line 2: longer than 5 bytes, skipped", "x"}},
	{"12345\r\n", []string{"12345"}}, // the limit excludes the end of line
	{strings.Repeat("x", 30) + "\nok", []string{"!line 1: longer than 5 bytes, skipped", "ok"}},
	{"ok\n" + strings.Repeat("x", 3*chunkSize) + "\nok2\n", []string{"ok", "!line 2: longer than 5 bytes, skipped", "ok2"}},
	{strings.Repeat("y", 100), []string{"!line 1: longer than 5 bytes, skipped"}},
	{"\ufeffab\n\ufeffc\n", []string{"ab", "\ufeffc"}}, // a byte order mark at the start only is skipped
	{"\ufeff", nil},
}

func TestReader(t *testing.T) {
	for _, tt := range tests {
		for name, in := range map[string]io.Reader{
			"whole":    strings.NewReader(tt.in),
			"bytewise": iotest.OneByteReader(strings.NewReader(tt.in)),
		} {
			got := readAll(t, in, 5)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("%s: lines of %.40q = %q, want %q", name, tt.in, got, tt.want)
			}
		}
	}
}

// TestReaderLongLines: lines up to the limit come through whole, however
// they straddle the reads, and memory stays near the limit.
func TestReaderLongLines(t *testing.T) {
	const max = 3 * chunkSize
	long := strings.Repeat("a", max)
	in := long + "\r\n" + "b\n" + long + "a\n" + long
	r := NewReader(strings.NewReader(in), max)
	got := readAll(t, strings.NewReader(in), max)
	want := []string{long, "b", "!line 3: longer than 196608 bytes, skipped", long}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: got %.30q (%d bytes), want %.30q", i+1, got[i], len(got[i]), want[i])
		}
	}
	for {
		if _, err := r.Next(); err == io.EOF {
			break
		}
	}
	if cap(r.buf) > 2*max+chunkSize {
		t.Errorf("buffer grew to %d bytes for lines of %d", cap(r.buf), max)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestReaderError(t *testing.T) {
	fail := errors.New("disk on fire")
	r := NewReader(io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(fail)), 10)
	chunk, err := r.Next()
	if string(chunk) != "a\n" || err != nil {
		t.Fatalf("Next() = %q, %v", chunk, err)
	}
	if chunk, err = r.Next(); string(chunk) != "b" || err != nil {
		t.Fatalf("Next() = %q, %v; want the rest before the error", chunk, err)
	}
	if _, err = r.Next(); err != fail {
		t.Fatalf("Next() error = %v, want %v", err, fail)
	}
}

// FuzzReader: the lines of any input, read in chunks and cut, are the
// input's lines, and none is longer than the limit unless reported.
func FuzzReader(f *testing.F) {
	for _, tt := range tests {
		f.Add(tt.in, 5)
	}
	f.Add("a\r\nb\nc", 1)
	f.Add("\ufeffa\nb", 3)
	f.Fuzz(func(t *testing.T, in string, max int) {
		max = 1 + max&0xff
		got := readAll(t, strings.NewReader(in), max)
		in = strings.TrimPrefix(in, "\ufeff") // a byte order mark is not part of the first line
		want := strings.Split(strings.TrimSuffix(in, "\n"), "\n")
		if in == "" {
			want = nil
		}
		if len(got) != len(want) {
			t.Fatalf("%d lines, want %d: %q", len(got), len(want), got)
		}
		for i, w := range want {
			w = strings.TrimSuffix(w, "\r")
			if len(w) > max {
				if !strings.HasPrefix(got[i], "!") {
					t.Fatalf("line %d of %d bytes not reported as too long", i+1, len(w))
				}
			} else if got[i] != w {
				t.Fatalf("line %d = %q, want %q", i+1, got[i], w)
			}
		}
	})
}
