package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFlagGrammar holds every command to one grammar: flags before the
// arguments and after them give the same output; "--" ends the flags, so
// that an argument may start with "-"; and "-" alone is standard input.
func TestFlagGrammar(t *testing.T) {
	for _, tt := range []struct {
		command    string
		flags      []string
		args       []string // the same arguments, or "-" and stdin
		stdin      string
		dashdash   []string // after "--": an argument that starts with "-"
		dashdashIs string   // what the command prints for it
	}{
		{"links", []string{"-tsv", "-url", "http://x/d/"}, []string{"-"}, "<a href=y>", nil, ""},
		{"base", []string{"-json", "-url", "http://x/d/"}, []string{"-"}, "<base href=/z/>", nil, ""},
		{"check", []string{"-offline", "-json", "-url", "http://x/d/"}, []string{"-"}, "<a href=y>", nil, ""},
		{"rewrite", []string{"-absolute", "-url", "http://x/d/"}, []string{"-"}, "<a href=y>", nil, ""},
		{"resolve", []string{"-spec", "whatwg"}, []string{"http://a/b/c", "../x"}, "", []string{"http://a/b/c", "-x"}, "http://a/b/-x\n"},
		{"resolve", []string{"-spec", "whatwg"}, []string{"http://a/b/c", "-"}, "../x\n", nil, ""},
		{"compare", []string{"-json"}, []string{"http://a/b/c", "../x"}, "", []string{"http://a/b/c", "-x"}, "*"},
		{"compare", []string{"-json"}, []string{"http://a/b/c", "-"}, "../x\n", nil, ""},
		{"relative", []string{"-spec", "3986"}, []string{"http://a/b/c", "http://a/x"}, "", nil, ""},
		{"relative", []string{"-spec", "3986"}, []string{"http://a/b/c", "-"}, "http://a/x\n", nil, ""},
		{"explain", []string{"-json"}, []string{"http://a/b/c", "../x"}, "", []string{"http://a/b/c", "-x"}, "*"},
		{"parse", []string{"-json"}, []string{"http://a/b"}, "", []string{"-x"}, "*"},
		{"parse", []string{"-json"}, []string{"-"}, "http://a/b\n", nil, ""},
		{"validate", []string{"-print-valid", "-spec", "3986"}, []string{"http://a/b"}, "", nil, ""},
		{"validate", []string{"-print-valid", "-spec", "3986"}, []string{"-"}, "http://a/b\n", nil, ""},
		{"url", []string{"-get", "{host}"}, []string{"http://a/b"}, "", nil, ""},
		{"url", []string{"-get", "{host}"}, []string{"-"}, "http://a/b\n", nil, ""},
	} {
		t.Run(tt.command, func(t *testing.T) {
			before := relurlRun(t, in(tt.stdin), slices.Concat([]string{tt.command}, tt.flags, tt.args)...)
			after := relurlRun(t, in(tt.stdin), slices.Concat([]string{tt.command}, tt.args, tt.flags)...)
			if before.stdout == "" || before.stderr != "" && before.code == exitUsage {
				t.Fatalf("relurl %s %q %q: exit %d, %q, %q", tt.command, tt.flags, tt.args, before.code, before.stdout, before.stderr)
			}
			if after.stdout != before.stdout || after.stderr != before.stderr || after.code != before.code {
				t.Errorf("flags after the arguments: %+v\nbefore them: %+v", after, before)
			}
			if tt.dashdash != nil {
				r := relurlRun(t, nil, slices.Concat([]string{tt.command}, tt.flags, []string{"--"}, tt.dashdash)...)
				if r.code == exitUsage || tt.dashdashIs != "*" && r.stdout != tt.dashdashIs {
					t.Errorf("after --: exit %d, %q, %q; want %q", r.code, r.stdout, r.stderr, tt.dashdashIs)
				}
			}
		})
	}
}

// TestErrorsNameTheirInput feeds each command, among good inputs, one it
// cannot read, one of binary bytes and one malformed, and checks that each
// complaint names its input (the file, or the line of standard input) and
// that the good ones are still done.
func TestErrorsNameTheirInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(content), 0o644)
		return path
	}
	good := write("good.html", `<a href="http://good.example/">`)
	missing := filepath.Join(dir, "missing.html")
	binary := write("binary.warc.gz", "\x00\x01\xfe\xff binary")
	malformed := write("malformed.eml", "# not a header\nmore\n\n<a href=x>")
	badEncoding := write("bad-encoding.html", "<meta charset=shift_jis><a href=\"http://good.example/x\">\x81\x20</a>")
	lines := "http://good.example/\n\x00\xff\nhttp://[bad/\n"
	for _, tt := range []struct {
		args   []string
		stdin  string
		stdout string   // a part of it: what the good input gave
		names  []string // each a part of standard error
	}{
		{[]string{"links", good, missing, binary, malformed, good}, "", "http://good.example/",
			[]string{missing + ": no such file", binary + ": not a WARC archive", malformed + ": reading message header"}},
		{[]string{"base", good, missing, binary, malformed}, "", good,
			[]string{missing + ": no such file", binary + ": not a WARC archive", malformed + ": reading message header"}},
		{[]string{"check", "-offline", good, missing, binary, malformed}, "", "",
			[]string{missing + ": no such file", binary + ": not a WARC archive", malformed + ": reading message header"}},
		{[]string{"rewrite", "-absolute", "-map", filepath.Dir(good) + "=https://d.example/", "-l", good, missing, badEncoding}, "", "",
			[]string{missing + ": no such file", badEncoding + ": its encoding, shift_jis"}},
		{[]string{"validate", "-"}, lines, "", []string{"line 2: ", "line 3: http://[bad/"}},
		{[]string{"url", "-"}, lines, "http://good.example/", []string{"relurl url: line 2: ", "relurl url: line 3: "}},
		{[]string{"parse", "-json", "-"}, lines, "http://good.example/", nil},
		{[]string{"resolve", "-spec", "whatwg", "http://a/b/c", "-"}, lines, "http://good.example/", []string{"relurl resolve: line 3: "}},
		{[]string{"relative", "-spec", "whatwg", "http://a/b/c", "-"}, lines, "//good.example/", []string{"relurl relative: line 2: ", "relurl relative: line 3: "}},
		{[]string{"compare", "http://a/b/c", "-"}, lines, "http://good.example/", nil},
	} {
		t.Run(tt.args[0], func(t *testing.T) {
			r := relurlRun(t, in(tt.stdin), tt.args...)
			if !strings.Contains(r.stdout, tt.stdout) {
				t.Errorf("relurl %q: stdout %q lacks %q", tt.args, r.stdout, tt.stdout)
			}
			for _, name := range tt.names {
				if !strings.Contains(r.stderr, name) {
					t.Errorf("relurl %q: stderr does not say %q:\n%s", tt.args, name, r.stderr)
				}
			}
			if r.code == exitOK && tt.names != nil {
				t.Errorf("relurl %q: exit 0", tt.args)
			}
		})
	}
}
