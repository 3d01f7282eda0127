package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/clitest"
)

// These tests run relurl links over many documents at once, as a crawler's
// author does: trees of pages, manifests, WARC archives, every core.

// writeTree writes files (name → content) below a new directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLinksManyDocuments(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"site/b/page.html":     `<a href="x.html">`,
		"served/p.php":         `<?php echo 1 ?><a href="php">`,
		"served/index":         `<!doctype html><a href="i">`,
		"served/passwd":        "root:x:0:0:root:/root:/bin/bash\n",
		"served/a.gif":         "GIF89a\x00",
		"site/a.htm":           `<a href="../up.html"><img src="i.png">`,
		"site/notes.rst":       "not a page",
		"site/c/mail.eml":      "Content-Type: text/html\r\n\r\n<a href=\"m\">",
		"site/d e/space.xhtml": `<a href="s">`,
		"other.html":           `<a href="http://abs.example/">`,
	})
	site, other := filepath.Join(dir, "site"), filepath.Join(dir, "other.html")
	os.MkdirAll(filepath.Join(dir, "empty"), 0o755)
	manifest := filepath.Join(dir, "manifest.txt")
	os.WriteFile(manifest, []byte(other+"\n\n"+filepath.Join(site, "a.htm")+"\n"), 0o644)
	const m = "https://ex.org/docs/"
	runCLITests(t, []cliTest{
		{"a directory, in lexical order, mapped to a URL", "", []string{"links", "-map", site + "=" + m, "-tsv", site},
			m + "a.htm\thttps://ex.org/up.html\n" + m + "a.htm\t" + m + "i.png\n" +
				m + "b/page.html\t" + m + "b/x.html\n" + m + "c/mail.eml\t" + m + "c/m\n" + m + "d%20e/space.xhtml\t" + m + "d%20e/s\n",
			"relurl links: 4 documents, 5 links, 0.0 MB; skipped, giving no links: .rst 1\n", 0},
		{"files and a directory", "", []string{"links", "-map", site + "=" + m, other, site},
			"http://abs.example/\nhttps://ex.org/up.html\n" + m + "i.png\n" + m + "b/x.html\n" + m + "c/m\n" + m + "d%20e/s\n",
			"relurl links: 5 documents, 6 links, 0.0 MB; skipped, giving no links: .rst 1\n", 0},
		{"a failed document, and the others", "", []string{"links", "-map", site + "=" + m, filepath.Join(dir, "missing.html"), other},
			"http://abs.example/\n", "relurl links: open " + filepath.Join(dir, "missing.html") + ": no such file or directory\n" +
				"relurl links: warning: -map " + site + "=" + m + ": no input is below " + site + "\n" +
				"relurl links: 1 document, 1 link, 0.0 MB, 1 failed\n", 1},
		{"a flag after a document", "", []string{"links", other, "-tsv"}, "file://" + filepath.ToSlash(other) + "\thttp://abs.example/\n", "", 0},
		{"-- before a document that starts with -", "", []string{"links", "--", "-json"}, "", "relurl links: open -json: no such file or directory\n…", 1},
		{"a file that is no document: reported, counted, exit 1", "", []string{"links", filepath.Join(site, "notes.rst")}, "",
			"relurl links: " + filepath.Join(site, "notes.rst") + ": not a document relurl reads (HTML, a MIME message, a WARC archive, Markdown, text, a sitemap or a feed), by its name or its first bytes (\"not a page\"): no links\n", 1},
		{"an empty directory", "", []string{"links", filepath.Join(dir, "empty")}, "", "relurl links: " + filepath.Join(dir, "empty") + ": an empty directory: no documents\n", 1},
		{"pages a server makes, and files without an extension, by their content", "", []string{"links", "-tsv", "-map", filepath.Join(dir, "served") + "=https://s.example/", filepath.Join(dir, "served")},
			"https://s.example/index\thttps://s.example/i\nhttps://s.example/p.php\thttps://s.example/php\n",
			"relurl links: 2 documents, 2 links, 0.0 MB; skipped, giving no links: .gif 1, no extension 1\n", 0},
		{"-file-urls: a file's own URL", "", []string{"links", "-file-urls", filepath.Join(site, "a.htm")},
			"file://" + filepath.ToSlash(dir) + "/up.html\nfile://" + filepath.ToSlash(site) + "/i.png\n", "", 0},
		{"-file-urls under a -map: the map's", "", []string{"links", "-file-urls", "-map", site + "=" + m, filepath.Join(site, "a.htm")},
			"https://ex.org/up.html\n" + m + "i.png\n", "", 0},
		{"a -map no input is below", "", []string{"links", "-map", filepath.Join(dir, "nope") + "=" + m, other},
			"http://abs.example/\n", "relurl links: warning: -map " + filepath.Join(dir, "nope") + "=" + m + ": no input is below " + filepath.Join(dir, "nope") + "\n", 0},
		{"a flag after a document, with a value", "", []string{"base", other, "--spec=whatwg", "-json"}, "{\"part\":null,\"base\":\"file://" + filepath.ToSlash(other) + "\",\"base_from\":\"retrieval\",\"source\":\"file://" + filepath.ToSlash(other) + "\"}\n", "", 0},
		{"-files FILE", "", []string{"links", "-map", site + "=" + m, "-files", manifest},
			"http://abs.example/\nhttps://ex.org/up.html\n" + m + "i.png\n", "relurl links: 2 documents, 3 links, 0.0 MB\n", 0},
		{"-files -", other + "\n", []string{"links", "-files", "-"}, "http://abs.example/\n", "", 0},
		{"-files - and -", "", []string{"links", "-files", "-", "-"}, "", "relurl links: -files - and the DOCUMENT - both want standard input…", 2},
		{"-url with many", "", []string{"links", "-url", "http://u/", other, other}, "", "relurl links: -url is for a single file…", 2},
		{"-map not a URL", "", []string{"links", "-map", "site=docs", other}, "", "relurl links: invalid value \"site=docs\" for flag -map…", 2},
		{"-j 0", "", []string{"links", "-j", "0", other}, "", "relurl links: -j 0: want at least 1…", 2},
		{"base of many", "", []string{"base", "-map", site + "=" + m, site},
			m + "a.htm\t" + m + "a.htm\tretrieval\n" + m + "b/page.html\t" + m + "b/page.html\tretrieval\n" +
				m + "c/mail.eml\t" + m + "c/mail.eml\tretrieval\n" + m + "d%20e/space.xhtml\t" + m + "d%20e/space.xhtml\tretrieval\n", "*", 0},
	})

	r := relurlRun(t, nil, "links", "-json", other, filepath.Join(site, "b", "page.html"))
	var sources []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var l struct{ Source string }
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		sources = append(sources, l.Source)
	}
	if want := []string{"file://" + filepath.ToSlash(other), "file://" + filepath.ToSlash(filepath.Join(site, "b", "page.html"))}; !slices.Equal(sources, want) {
		t.Errorf("sources %q, want the files' file: URLs %q", sources, want)
	}
}

// TestLinksWARC reads WARC archives: each link of a record carries where
// the record is; a malformed record is a warning naming the file and the
// offset; a truncated archive is an error after the links before the cut.
func TestLinksWARC(t *testing.T) {
	const dir = "../../../shared/data/warc/"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no shared data (%v)", err)
	}
	r := relurlRun(t, nil, "links", "-json", dir+"example.warc.gz")
	check(t, r, "*", "relurl links: 1 document (a WARC record), 1 link, 0.0 MB; skipped, giving no links: request 2, revisit 1, warcinfo 2\n", 0)
	var l map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &l); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"url": "http://www.iana.org/domains/example", "source": "http://example.com/", "base_from": "retrieval",
		"status": 200.0, "warc_filename": dir + "example.warc.gz", "warc_record_offset": 784.0, "warc_record_length": 1228.0,
		"warc_record_id": "<urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>", "warc_date": "2017-03-06T04:02:06Z", "truncated": nil,
	}
	for k, v := range want {
		if l[k] != v {
			t.Errorf("%s = %#v, want %#v", k, l[k], v)
		}
	}

	runCLITests(t, []cliTest{
		{"a malformed record", "", []string{"links", dir + "example-trunc.warc"}, "http://www.iana.org/domains/example\n",
			"relurl links: warning: http://example.com/: " + dir + "example-trunc.warc, WARC record at offset 1197: unexpected EOF\n" +
				"relurl links: warning: " + dir + "example-trunc.warc: WARC record at offset 2560: \"\\x00\\x00\" is not a version line (WARC/1.1)\n" +
				"relurl links: 1 document (a WARC record), 1 link, 0.0 MB; lost: 1 unreadable, 1 read in part; skipped, giving no links: request 1, warcinfo 2\n", 1},
		{"wget's brackets, a resource record", "", []string{"links", "-tsv", dir + "example-wget-bad-target-uri.warc.gz"},
			"http://example.com/\thttp://www.iana.org/domains/example\n", "*", 0},
	})

	// A truncated archive: the links before the cut, then an error.
	whole, err := os.ReadFile(dir + "example.warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.warc.gz")
	os.WriteFile(cut, whole[:2100], 0o644)
	r = relurlRun(t, nil, "links", cut)
	check(t, r, "http://www.iana.org/domains/example\n", "relurl links: "+cut+": WARC record at offset 2012: the file ends inside the record: unexpected EOF\n…", 1)
}

// TestDocsCrawl runs the 1,824 responses of wget's crawl through the
// command: each link's warc_record_offset is the offset wget's CDX gives
// the record, and -j changes nothing.
func TestDocsCrawl(t *testing.T) {
	const archive = "../../../shared/data/warc/docs-crawl.warc.gz"
	cdx, err := os.ReadFile("../../../shared/data/warc/docs-crawl.cdx")
	if err != nil {
		t.Skipf("no shared data (%v)", err)
	}
	offsets := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(cdx)), "\n")[1:] {
		f := strings.Fields(line)
		offsets[f[10]], _ = strconv.Atoi(f[8])
	}
	r := relurlRun(t, nil, "links", "-json", "-j", "1", archive)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	records := map[string]bool{}
	redirects := 0
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var l struct {
			Element, Attribute string
			RecordID           string `json:"warc_record_id"`
			Offset             int    `json:"warc_record_offset"`
			Length             int    `json:"warc_record_length"`
			Status             int
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if off, ok := offsets[l.RecordID]; !ok || off != l.Offset || l.Length <= 0 {
			t.Fatalf("record %s at %d+%d, the CDX says %d", l.RecordID, l.Offset, l.Length, off)
		}
		records[l.RecordID] = true
		if l.Element == "http" {
			redirects++
			if l.Status != 301 && l.Status != 302 {
				t.Errorf("a Location link of a %d response", l.Status)
			}
		}
	}
	// 1,759 pages and 60 redirects; the 5 404 pages have no links.
	if len(records) != 1819 || redirects != 60 {
		t.Errorf("links from %d records, %d redirects", len(records), redirects)
	}
	if !strings.HasPrefix(r.stderr, "relurl links: 1824 documents (1824 of them WARC records)") {
		t.Errorf("summary %q", r.stderr)
	}
	if r2 := relurlRun(t, nil, "links", "-json", "-j", "4", archive); r2.stdout != r.stdout {
		t.Error("-j 4 gives other output than -j 1")
	}
}

// docPages writes the 1,699 pages of the shared tarballs once, as
// clitest.DocPages does, and returns their directory.
func docPages(t *testing.T) string { return clitest.DocPages(t, "../../../shared/data") }

// TestPartition is the contract that makes relurl correct on a cluster: a
// manifest split into K parts and run as K processes gives exactly the
// records (as a multiset) of one run over all, each with its source; and
// one run gives the same output whatever -j.
func TestPartition(t *testing.T) {
	t.Parallel() // a long test: beside the others, on a machine of few cores (see TestMain)
	if testing.Short() {
		t.Skip("the 1,699 pages")
	}
	dir := docPages(t)
	var names []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, path)
		}
		return nil
	})
	if len(names) != 1699 {
		t.Fatalf("%d pages", len(names))
	}
	manifest := strings.Join(names, "\n") + "\n"
	mapping := dir + "=https://docs.example/"
	whole := relurlRun(t, in(manifest), "links", "-json", "-map", mapping, "-j", "1", "-files", "-")
	if whole.code != 0 {
		t.Fatalf("exit %d: %s", whole.code, whole.stderr)
	}
	if r := relurlRun(t, in(manifest), "links", "-json", "-map", mapping, "-j", "4", "-files", "-"); r.stdout != whole.stdout {
		t.Error("-j 4 gives other output than -j 1")
	}
	const k = 3
	var parts []string
	for i := range k {
		var part strings.Builder
		for j := i; j < len(names); j += k {
			part.WriteString(names[j] + "\n")
		}
		r := relurlRun(t, in(part.String()), "links", "-json", "-map", mapping, "-files", "-")
		if r.code != 0 {
			t.Fatalf("part %d: exit %d: %s", i, r.code, r.stderr)
		}
		parts = append(parts, strings.Split(strings.TrimSpace(r.stdout), "\n")...)
	}
	all := strings.Split(strings.TrimSpace(whole.stdout), "\n")
	slices.Sort(all)
	slices.Sort(parts)
	if !slices.Equal(all, parts) {
		t.Errorf("%d records from one run, %d from %d parts, not the same", len(all), len(parts), k)
	}
	if !strings.Contains(all[0], `"source":"https://docs.example/`) {
		t.Errorf("a record without its source: %s", all[0])
	}
}

// TestCorpusMemory: the 1,699 pages with -j 2 stay under 110 MB, the link
// graph streaming out as it is found. Their peak RSS is about 42 MB where
// the two workers take every core and read their own files, and 55 MB
// where a core is left to read them ahead on (it was 93 to 106 MB when
// the bound was set): the bound fails if memory grows with the pages.
func TestCorpusMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("the 1,699 pages")
	}
	dir := docPages(t)
	var out bytes.Buffer
	code, maxRSS, stderr := relurlMeasured(t, nil, &out, "links", "-tsv", "-j", "2", "-map", dir+"=https://docs.example/", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	edges := 0
	for sc := bufio.NewScanner(&out); sc.Scan(); {
		edges++
	}
	t.Logf("%d edges, peak RSS %d KiB", edges, maxRSS)
	if edges < 200000 || maxRSS > 110<<10 {
		t.Errorf("%d edges, peak RSS %d KiB", edges, maxRSS)
	}
}

// TestWgetWARC crawls a loopback site with GNU wget into a WARC, then reads
// it: each page's links are those relurl gives when it fetches the page
// itself, and the redirect is an edge.
func TestWgetWARC(t *testing.T) {
	wget, err := exec.LookPath("wget")
	if err != nil {
		t.Skip("no wget on this machine")
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/docs/a.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<base href="/docs/sub/"><a href="b.html">b</a><img srcset="i.png 1x, j.png 2x">`)
	})
	mux.HandleFunc("/docs/sub/b.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Transfer-Encoding", "chunked")
		io.WriteString(w, `<a href="../a.html">a</a>`)
	})
	mux.Handle("/old", http.RedirectHandler("/docs/a.html", http.StatusMovedPermanently))
	s := httptest.NewServer(mux)
	defer s.Close()

	dir := t.TempDir()
	cmd := exec.Command(wget, "--warc-file="+filepath.Join(dir, "crawl"), "--no-verbose", "--tries=1", "--timeout=5",
		"--delete-after", "-e", "robots=off", "-P", dir, s.URL+"/old", s.URL+"/docs/sub/b.html")
	clitest.StopWithTest(cmd)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("wget: %v\n%s", err, out)
	}
	r := relurlRun(t, nil, "links", "-spec", "1808", "-tsv", filepath.Join(dir, "crawl.warc.gz"))
	want := s.URL + "/old\t" + s.URL + "/docs/a.html\n" +
		s.URL + "/docs/a.html\t" + s.URL + "/docs/sub/b.html\n" +
		s.URL + "/docs/a.html\t" + s.URL + "/docs/sub/i.png\n" +
		s.URL + "/docs/a.html\t" + s.URL + "/docs/sub/j.png\n" +
		s.URL + "/docs/sub/b.html\t" + s.URL + "/docs/a.html\n"
	// The record's offset depends on the lengths of wget's dates and IDs.
	r.stderr = regexp.MustCompile(`crawl.warc.gz, WARC record at offset \d+: `).ReplaceAllString(r.stderr, "crawl.warc.gz, WARC record at offset N: ")
	check(t, r, want, "relurl links: warning: "+s.URL+"/docs/a.html: "+filepath.Join(dir, "crawl.warc.gz")+", WARC record at offset N: relative html-base \"/docs/sub/\" resolved against the retrieval base "+s.URL+"/docs/a.html\n"+
		"relurl links: 3 documents (3 of them WARC records), 5 links, 0.0 MB; skipped, giving no links: metadata 1, payload 2, request 3, warcinfo 1\n", 0)
	direct := relurlRun(t, nil, "links", "-spec", "1808", "-tsv", s.URL+"/docs/a.html", s.URL+"/docs/sub/b.html")
	if !strings.HasSuffix(r.stdout, direct.stdout) {
		t.Errorf("from the WARC:\n%s\nfetched:\n%s", r.stdout, direct.stdout)
	}
}

// TestGoldenOutput: the links of the 1,699 pages and of wget's crawl of
// them, and the positions check reports, are byte for byte what they were
// when the links were found with golang.org/x/net/html's tokenizer, before
// package htmltok replaced it (the sums were taken then).
func TestGoldenOutput(t *testing.T) {
	t.Parallel() // a long test: beside the others, on a machine of few cores (see TestMain)
	if testing.Short() {
		t.Skip("the 1,699 pages")
	}
	dir := docPages(t)
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	pages := relurlRun(t, nil, "links", "-spec", "1808", "-json", "-j", "2", "-map", dir+"=https://docs.example/", dir)
	crawl := relurlRun(t, nil, "links", "-spec", "1808", "-json", "-j", "2", docsCrawl)
	check := relurlRun(t, nil, "check", "-offline", "-json", "-map", dir+"=https://docs.example/", dir)
	var positions strings.Builder
	for line := range strings.Lines(check.stdout) {
		var l struct {
			Source, URL, Ref, State string
			Line, Column            int
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&positions, "%s %d:%d %s %s %s\n", l.Source, l.Line, l.Column, l.Ref, l.URL, l.State)
	}
	for _, tt := range []struct{ name, got, want string }{
		{"links -json over the pages", sum(pages.stdout), "e9848cc8f7b07394943d29ca5a0dc20e45857566a999c71ff39be04994711d3f"},
		{"links -json over the crawl", sum(crawl.stdout), "20746ab2633edc31708e8bef4ff295b91cf883eb178dc57d735d0769b12403b5"},
		{"check's positions over the pages", sum(positions.String()), "d407fbe3ddb5fab4f3bdeed9540e72eb61c152490f03ef707a984d6ab2f03428"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: sha256 %s, want %s", tt.name, tt.got, tt.want)
		}
	}
}

// TestLinksWorkersReadFiles: over a tree of pages as a user runs it, -j 1
// on two cores (a core left to read the files ahead on) and -j 2 and -j 4
// (the workers read their own, past the 256 left open at once) print the
// same links, in the same order, with the same summary: the tree's
// documents copied in, 300 small pages, a WARC archive among them read as
// one, and a file that is no document.
func TestLinksWorkersReadFiles(t *testing.T) {
	dir := t.TempDir()
	docs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "documents", "*.html"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("testdata/documents: %v", err)
	}
	for _, name := range docs {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, filepath.Base(name)), data, 0o644)
	}
	for i := range 300 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%03d.html", i)), fmt.Appendf(nil, `<a href="p%03d.html">next</a><img src=i%d.png>`, i+1, i), 0o644)
	}
	record := "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/x/\r\nContent-Type: text/html\r\nContent-Length: 15\r\n\r\n<a href=y.html>\r\n\r\n"
	os.WriteFile(filepath.Join(dir, "crawl.warc"), []byte(record), 0o644)
	// A WARC by its content alone, and a page whose first byte could
	// start one: each told apart as before once the walker's pread has
	// read its first bytes.
	os.WriteFile(filepath.Join(dir, "archive.html"), []byte(strings.ReplaceAll(record, "a.example", "b.example")), 0o644)
	os.WriteFile(filepath.Join(dir, "w.md"), []byte("Welcome: [next](p000.html)\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes"), []byte("no document"), 0o644)
	// The tree as users name it, relative to the working directory
	// (source.Map.Below compares the paths as written), and absolute.
	tree := filepath.Base(dir)
	run := func(jobs string) (string, string, int) {
		cmd := exec.Command(relurlBin, "links", "-tsv", "-j", jobs, "-map", tree+"=https://docs.example/", tree)
		cmd.Dir = filepath.Dir(dir)
		cmd.Env = append(os.Environ(), "GOMAXPROCS=2")
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if exit, ok := err.(*exec.ExitError); ok {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), code
	}
	out, errOut, code := run("1")
	if strings.Count(out, "\n") < 600 || !strings.Contains(out, "http://a.example/x/y.html") || !strings.Contains(out, "http://b.example/x/y.html") ||
		!strings.Contains(out, "https://docs.example/p300.html") || !strings.Contains(out, "https://docs.example/w.md\thttps://docs.example/p000.html") {
		t.Fatalf("-j 1: %d lines, exit %d: %.500s\n%s", strings.Count(out, "\n"), code, out, errOut)
	}
	abs := exec.Command(relurlBin, "links", "-tsv", "-j", "2", "-map", dir+"=https://docs.example/", dir)
	abs.Env = append(os.Environ(), "GOMAXPROCS=2")
	if o, _ := abs.Output(); string(o) != out {
		t.Errorf("the tree named by its absolute path gives other links than by its relative one: %d lines, %d", strings.Count(string(o), "\n"), strings.Count(out, "\n"))
	}
	for _, jobs := range []string{"2", "4"} {
		o, e, c := run(jobs)
		if o != out || e != errOut || c != code {
			t.Errorf("-j %s on 2 cores: %d lines, exit %d, %q; -j 1: %d lines, exit %d, %q",
				jobs, strings.Count(o, "\n"), c, e, strings.Count(out, "\n"), code, errOut)
		}
	}
}
