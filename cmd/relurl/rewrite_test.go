package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRewritePages: the 1,699 pages with their real URLs, every link made
// absolute, then relative again, keep every link's target (the TSV of
// their resolved links is byte for byte the original's); rewriting the
// result once more changes nothing; and the Python tree moved to another
// prefix has the original's links, moved by the same prefix.
func TestRewritePages(t *testing.T) {
	t.Parallel() // a long test: beside the others, on a machine of few cores (see TestRewriteInChromium)
	if testing.Short() {
		t.Skip("the 1,699 pages")
	}
	pages := docPages(t)
	tmp := t.TempDir()
	const py, pg = "https://docs.python.org/3.11/", "https://www.postgresql.org/docs/15/"
	maps := func(dir string) []string {
		return []string{"-map", filepath.Join(dir, "python") + "=" + py, "-map", filepath.Join(dir, "postgresql") + "=" + pg}
	}
	tsv := func(dir string, extra ...string) string {
		r := relurlRun(t, nil, append(append(append([]string{"links", "-tsv", "-spec", "whatwg"}, extra...), maps(dir)...), dir)...)
		if r.code != 0 {
			t.Fatalf("links %s: exit %d, %s", dir, r.code, r.stderr)
		}
		return r.stdout
	}
	abs, rel := filepath.Join(tmp, "abs"), filepath.Join(tmp, "rel")
	args := func(a ...string) []string { return append([]string{"rewrite"}, a...) }
	check(t, relurlRun(t, nil, append(append(args("-absolute"), maps(pages)...), "-o", abs, pages)...), "", "", 0)
	check(t, relurlRun(t, nil, append(append(args("-relative", py, "-relative", pg), maps(abs)...), "-o", rel, abs)...), "", "", 0)
	want := tsv(pages)
	if got := tsv(abs); got != want {
		t.Error("the links of the pages made absolute are not the pages' links")
	}
	if got := tsv(rel); got != want {
		t.Error("the links of the pages made relative again are not the pages' links")
	}
	check(t, relurlRun(t, nil, append(append(args("-relative", py, "-relative", pg), maps(rel)...), "-l", rel)...), "", "", 0)

	// The Python tree moved: its links are the original ones, moved.
	const mirror = "https://mirror.example/py/"
	moved := filepath.Join(tmp, "moved")
	check(t, relurlRun(t, nil, "rewrite", "-move", py+"="+mirror, "-map", filepath.Join(pages, "python")+"="+py, "-o", moved, filepath.Join(pages, "python")), "", "", 0)
	r := relurlRun(t, nil, "links", "-tsv", "-spec", "whatwg", "-map", moved+"="+mirror, moved)
	var wantMoved []string
	for _, line := range strings.SplitAfter(tsv(pages, "-no-fragment"), "\n") {
		if strings.HasPrefix(line, py) {
			wantMoved = append(wantMoved, strings.ReplaceAll(line, py, mirror))
		}
	}
	gotMoved := relurlRun(t, nil, "links", "-tsv", "-spec", "whatwg", "-no-fragment", "-map", moved+"="+mirror, moved).stdout
	if r.code != 0 || gotMoved != strings.Join(wantMoved, "") {
		t.Errorf("the moved tree's links are not the original's, moved (exit %d)", r.code)
	}
}

// TestRewriteFiles: the output modes on a small tree: -w in place with
// the file's permissions, -d, -l, -o with the other files copied, stdout
// for one document, and a document that fails beside good ones.
func TestRewriteFiles(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	os.MkdirAll(filepath.Join(site, "guide"), 0o755)
	page := `<base href="https://old.example/docs/"><a href='https://old.example/docs/api/z.html'>z</a>` + "\n"
	os.WriteFile(filepath.Join(site, "guide", "x.html"), []byte(page), 0o640)
	os.WriteFile(filepath.Join(site, "logo.png"), []byte("\x89PNG"), 0o644)
	os.WriteFile(filepath.Join(site, "same.html"), []byte(`<a href="api/z.html">z</a>`), 0o644)
	want := `<base href="../"><a href='api/z.html'>z</a>` + "\n"
	flags := []string{"rewrite", "-relative", "https://old.example/docs/", "-map", site + "=https://old.example/docs/"}
	run := func(args ...string) result {
		return relurlRun(t, nil, append(append([]string{}, flags...), args...)...)
	}

	check(t, run(filepath.Join(site, "guide", "x.html")), want, "", 0)
	check(t, run("-l", site), filepath.Join(site, "guide", "x.html")+"\n", "", 0)
	check(t, run("-d", site), "--- a/"+filepath.ToSlash(filepath.Join(site, "guide", "x.html"))+"…", "", 0)
	out := filepath.Join(dir, "out")
	check(t, run("-o", out, site), "", "", 0)
	for name, content := range map[string]string{"guide/x.html": want, "logo.png": "\x89PNG", "same.html": `<a href="api/z.html">z</a>`} {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(b) != content {
			t.Errorf("-o: %s holds %q (%v)", name, b, err)
		}
	}
	check(t, run("-w", site), "", "", 0)
	path := filepath.Join(site, "guide", "x.html")
	if b, _ := os.ReadFile(path); string(b) != want {
		t.Errorf("-w wrote %q", b)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("-w: mode %v, want 0640", info.Mode().Perm())
	}
	check(t, run("-l", site), "", "", 0) // idempotent

	// A document that cannot be read is named; the others are done.
	missing := filepath.Join(site, "missing.html")
	check(t, run("-l", missing, site), "", "relurl rewrite: stat "+missing+": no such file or directory\n", 1)
	check(t, relurlRun(t, nil, "rewrite", site), "", "relurl rewrite: say what to do: -relative SCOPE, -absolute, -move OLD=NEW or -drop-base…", 2)
	check(t, run(site), "", "relurl rewrite: more than one document: give -w, -d, -l or -o DIR…", 2)

	// Standard input is one document, a filter: rewritten to standard
	// output, shown by -l, never written back.
	stdin := `<a href="https://old.example/docs/api/z.html">z</a>`
	check(t, relurlRun(t, in(stdin), "rewrite", "-relative", "https://old.example/docs/", "-url", "https://old.example/docs/x.html", "-"), `<a href="api/z.html">z</a>`, "", 0)
	check(t, relurlRun(t, in(stdin), "rewrite", "-relative", "https://old.example/docs/", "-url", "https://old.example/docs/x.html", "-l", "-"), "-\n", "", 0)
	check(t, relurlRun(t, in(stdin), "rewrite", "-absolute", "-url", "https://old.example/docs/x.html", "-w", "-"), "", `relurl rewrite: "-", standard input, is one document, rewritten to standard output: not with other documents, -w or -o…`, 2)
}
