package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
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
	t.Parallel() // a long test: beside the others, on a machine of few cores (see TestMain)
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

// TestRewriteJobs: -o and -w write the same files, with the same modes,
// and say the same, whether one file is read, rewritten and written at a
// time or four.
func TestRewriteJobs(t *testing.T) {
	tree := func(dir string) {
		for i := range 60 {
			sub := filepath.Join(dir, fmt.Sprintf("d%d", i%4), fmt.Sprintf("e%d", i%3))
			os.MkdirAll(sub, 0o755)
			name := filepath.Join(sub, fmt.Sprintf("p%02d", i))
			os.WriteFile(name+".html", fmt.Appendf(nil, `<a href="https://old.example/d%d/x.html">x</a><img src="/d1/e2/i.png">`, i%4), 0o640)
			os.WriteFile(name+".css", []byte(`a{background:url(https://old.example/d0/e0/i.png)}`), 0o644)
			os.WriteFile(name+".png", []byte{byte(i)}, 0o600)
		}
		os.Symlink("d0", filepath.Join(dir, "link"))
	}
	// contents lists each file below dir with its mode and bytes (a link
	// with its target).
	contents := func(dir string) string {
		var b strings.Builder
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			info, _ := os.Lstat(path)
			rel, _ := filepath.Rel(dir, path)
			switch {
			case d.Type()&fs.ModeSymlink != 0:
				target, _ := os.Readlink(path)
				fmt.Fprintf(&b, "%s -> %s\n", rel, target)
			case !d.IsDir():
				data, _ := os.ReadFile(path)
				fmt.Fprintf(&b, "%s %v %q\n", rel, info.Mode(), data)
			}
			return nil
		})
		return b.String()
	}
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src")
	tree(src)
	run := func(jobs string, args ...string) result {
		return relurlRun(t, nil, append([]string{"rewrite", "-j", jobs, "-relative", "https://old.example/", "-map", src + "=https://old.example/"}, args...)...)
	}
	one, four := run("1", "-o", filepath.Join(tmp, "o1"), src), run("4", "-o", filepath.Join(tmp, "o4"), src)
	if one.code != 0 || one.stdout != four.stdout || one.stderr != four.stderr || four.code != one.code {
		t.Errorf("-o -j 1: exit %d, %q, %q; -j 4: exit %d, %q, %q", one.code, one.stdout, one.stderr, four.code, four.stdout, four.stderr)
	}
	got1, got4 := contents(filepath.Join(tmp, "o1")), contents(filepath.Join(tmp, "o4"))
	if got1 != got4 || !strings.Contains(got1, `d1/e1/p01.html -rw-r----- "<a href=\"../x.html\">x</a><img src=\"../e2/i.png\">"`) || strings.Count(got1, "\n") != 181 {
		t.Errorf("-o -j 1 and -j 4 differ, or are not as rewritten:\n%s", got1)
	}
	// In place: two copies of the tree, rewritten by -w.
	for _, jobs := range []string{"1", "4"} {
		dir := filepath.Join(tmp, "w"+jobs)
		tree(dir)
		r := relurlRun(t, nil, "rewrite", "-j", jobs, "-relative", "https://old.example/", "-map", dir+"=https://old.example/", "-w", dir)
		if r.code != 0 || r.stdout != "" {
			t.Errorf("-w -j %s: exit %d, %q, %q", jobs, r.code, r.stdout, r.stderr)
		}
	}
	if w1, w4 := contents(filepath.Join(tmp, "w1")), contents(filepath.Join(tmp, "w4")); w1 != w4 || w1 != got1 {
		t.Errorf("-w -j 1 and -j 4 differ, or from -o:\n%s\n%s", w1, w4)
	}
}

// TestRewriteSiteMoved: a site moved whole with -move: its pages, its
// sitemap and compressed sitemap, its feed and its robots.txt all point at
// the new host, and every other byte of them is as it was (976 sitemap
// URLs were left at the old host, exit 0, no word).
func TestRewriteSiteMoved(t *testing.T) {
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	io.WriteString(z, `<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://old.example/b.html</loc></url></urlset>
`)
	z.Close()
	site := tree(t, map[string]string{
		"index.html": `<a href="https://old.example/b.html">b</a>`,
		"b.html":     `<a href="index.html">home</a>`,
		"sitemap.xml": `<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <!-- every page -->
  <url><loc>https://old.example/index.html</loc><lastmod>2026-01-01</lastmod></url>
  <url><loc> https://old.example/b.html?a=1&amp;b=2 </loc></url>
</urlset>
`,
		"sitemap.xml.gz": gz.String(),
		"feed.atom": `<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom"><link rel='self' href = 'https://old.example/feed.atom'/><entry><link href="https://old.example/b.html"/></entry></feed>
`,
		"robots.txt": "User-agent: *\n# the old one: https://old.example/sitemap.xml\nSitemap: https://old.example/sitemap.xml\nSitemap: https://old.example/sitemap.xml.gz\n",
	})
	out := filepath.Join(t.TempDir(), "moved")
	r := relurlRun(t, nil, "rewrite", "-map", site+"=https://old.example/", "-move", "https://old.example/=https://new.example/", "-o", out, site)
	check(t, r, "", "", 0)
	for name, want := range map[string]string{
		"index.html": `<a href="b.html">b</a>`,
		"sitemap.xml": `<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <!-- every page -->
  <url><loc>https://new.example/index.html</loc><lastmod>2026-01-01</lastmod></url>
  <url><loc> https://new.example/b.html?a=1&amp;b=2 </loc></url>
</urlset>
`,
		"feed.atom": `<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom"><link rel='self' href = 'https://new.example/feed.atom'/><entry><link href="https://new.example/b.html"/></entry></feed>
`,
		"robots.txt": "User-agent: *\n# the old one: https://old.example/sitemap.xml\nSitemap: https://new.example/sitemap.xml\nSitemap: https://new.example/sitemap.xml.gz\n",
	} {
		if got := read(t, filepath.Join(out, name)); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
		}
	}
	f, err := os.Open(filepath.Join(out, "sitemap.xml.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(zr)
	if !strings.Contains(string(text), "<loc>https://new.example/b.html</loc>") || strings.Contains(string(text), "old.example") {
		t.Errorf("sitemap.xml.gz: %s", text)
	}
	// Nothing is left at the old host but robots.txt's comment, which
	// links reads as text.
	r = relurlRun(t, nil, "links", "-tsv", "-map", out+"=https://new.example/", out)
	if strings.Count(r.stdout, "https://old.example/") != 1 || !strings.Contains(r.stdout, "robots.txt\thttps://old.example/sitemap.xml\n") {
		t.Errorf("links still lead to the old host:\n%s", r.stdout)
	}
}

// TestRewriteMarkdownWhole runs rewrite -w as a user does on a tree of
// Markdown: a file with an empty destination is rewritten with the target
// between its delimiters; a file with a line of 20,000 bytes is rewritten
// whole; the same file with Windows line breaks, which goldmark reads,
// within its bound on lines, is left byte for byte as it was, named on
// standard error, and the run exits 1, while the other files are still
// rewritten.
func TestRewriteMarkdownWhole(t *testing.T) {
	long := "[p](p.md)\n" + strings.Repeat("x", 20000) + " [q](q.md)\n"
	crlf := strings.ReplaceAll(long, "\n", "\r\n")
	dir := tree(t, map[string]string{
		"empty.md": "a [e]() b\n\n[g]: <>\n\nuse [g]\n",
		"long.md":  long,
		"crlf.md":  crlf,
	})
	r := relurlRun(t, nil, "rewrite", "-w", "-absolute", "-map", dir+"=https://docs.example/", dir)
	check(t, r, "", "relurl rewrite: "+filepath.Join(dir, "crlf.md")+": not rewritten, for part of it was not read for links: the text at line 2 not read for links: a line longer than 16384 bytes…", 1)
	if got := read(t, filepath.Join(dir, "empty.md")); got != "a [e](https://docs.example/empty.md) b\n\n[g]: <https://docs.example/empty.md>\n\nuse [g]\n" {
		t.Errorf("empty.md rewritten as %q", got)
	}
	if got, want := read(t, filepath.Join(dir, "long.md")), "[p](https://docs.example/p.md)\n"+strings.Repeat("x", 20000)+" [q](https://docs.example/q.md)\n"; got != want {
		t.Errorf("long.md rewritten as %q...", got[:min(len(got), 60)])
	}
	if got := read(t, filepath.Join(dir, "crlf.md")); got != crlf {
		t.Errorf("crlf.md changed, %d bytes, though it was not rewritten", len(got))
	}
}
