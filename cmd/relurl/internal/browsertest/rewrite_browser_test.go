package browsertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/htmltree"
	"github.com/relurl/relurl/links"
)

// TestRewriteInChromium moves the 1,699 pages as RFC 1808 means: each tree
// is rewritten with -relative its own URL, then served on loopback under
// another prefix, and on another scheme (http:, not https:); in headless
// Chromium the links of every moved page (each property collect reads) are
// the links relurl finds in the page at its real URL, moved by the same
// prefix: zero differences. That holds relurl's reading of the 1,699 pages
// to Chromium's and its rewrite to the browser at once, with one load of
// each page (loading the originals too, to compare Chromium with itself,
// took twice as long and proved less). Each list is compared sorted, as in
// TestHardCasesLinksInChromium. The bytes outside the values of the links
// are the original's.
func TestRewriteInChromium(t *testing.T) {
	// Parallel: the package's shorter tests run beside it, two at a
	// time (-parallel is GOMAXPROCS).
	t.Parallel()
	if testing.Short() {
		t.Skip("the 1,699 pages in Chromium")
	}
	site := newBrowserSite(t)
	site.emptySheets = true
	site.noScripts = true
	pages := docPages(t)
	rel := filepath.Join(t.TempDir(), "rel")
	sets := []struct{ name, url string }{
		{"python", "https://docs.python.org/3.11/"},
		{"postgresql", "https://www.postgresql.org/docs/15/"},
	}
	args := []string{"rewrite"}
	maps := []string{"links", "-json", "-template"}
	for _, set := range sets {
		args = append(args, "-relative", set.url, "-map", filepath.Join(pages, set.name)+"="+set.url)
		maps = append(maps, "-map", filepath.Join(pages, set.name)+"="+set.url)
	}
	check(t, relurlRun(t, nil, append(args, "-o", rel, pages)...), "", "", 0)
	r := relurlRun(t, nil, append(maps, pages)...)
	check(t, r, "*", "relurl links: 1699 documents, …", 0)
	ours := map[string][]string{} // by page URL
	for line := range strings.Lines(r.Stdout) {
		var l struct{ URL, Source string }
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("relurl links -json: %v: %s", err, line)
		}
		ours[l.Source] = append(ours[l.Source], l.URL)
	}

	// Each tree moves to an origin of its own, so that Chromium gives
	// each a renderer, and a core.
	var orig, moved []harnessPage
	move := map[string]string{}
	for i, set := range sets {
		to := site.plain.URL + "/mirror/" + set.name + "/"
		if i == 1 {
			to = strings.Replace(to, "127.0.0.1", "localhost", 1)
		}
		move[set.url] = to
		site.serve(to, filepath.Join(rel, set.name))
		for _, path := range htmlFiles(t, filepath.Join(pages, set.name)) {
			orig = append(orig, harnessPage{URL: set.url + path})
			moved = append(moved, harnessPage{URL: to + path})
		}
	}
	loaded := site.load(moved)

	links, differ := 0, 0
	for i, p := range orig {
		want := slices.Clone(ours[p.URL])
		for j := range want {
			for from, to := range move {
				want[j] = movedTo(want[j], from, to)
			}
		}
		got := slices.Clone(loaded[moved[i].URL])
		slices.Sort(want)
		slices.Sort(got)
		links += len(got)
		if !slices.Equal(got, want) {
			differ++
			if differ <= 10 {
				t.Errorf("%s moved: Chromium's links differ from relurl's of the original, moved:\n%s", p.URL, lineDiff(want, got, "relurl", "Chromium"))
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d pages differ", differ, len(orig))
	}
	t.Logf("%d pages, %d links in Chromium, each relurl's of the original, moved", len(orig), links)

	// The bytes outside the links' values are the original's.
	for _, set := range sets {
		for _, path := range htmlFiles(t, filepath.Join(pages, set.name)) {
			a, _ := os.ReadFile(filepath.Join(pages, set.name, path))
			b, _ := os.ReadFile(filepath.Join(rel, set.name, path))
			assertSameOutsideLinks(t, set.url+path, a, b)
		}
	}
}

// htmlFiles returns the paths, slash-separated, of the .html files below
// dir.
func htmlFiles(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".html") {
			rel, _ := filepath.Rel(dir, path)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// movedTo returns u, a link's URL as collect gives it (or "refresh: URL",
// where a meta refresh went), as it must be once the tree at the URL
// prefix from is at to.
func movedTo(u, from, to string) string {
	refresh, url := "", u
	if rest, ok := strings.CutPrefix(u, "refresh: "); ok {
		refresh, url = "refresh: ", rest
	}
	if rest, ok := strings.CutPrefix(url, from); ok {
		return refresh + to + rest
	}
	return u
}

// lineDiff shows two lists of URLs side by side where they differ.
func lineDiff(want, got []string, wantName, gotName string) string {
	var b strings.Builder
	width := max(len(wantName), len(gotName))
	for i := range max(len(want), len(got)) {
		if w, g := at(want, i), at(got, i); w != g {
			fmt.Fprintf(&b, "  link %d: %-*s %s\n           %-*s %s\n", i+1, width, wantName, w, width, gotName, g)
		}
	}
	return b.String()
}

// at returns list[i], or "(none)" past its end.
func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return "(none)"
}

// assertSameOutsideLinks fails the test unless the documents a and b,
// found by package links at url, are the same but for the values that
// hold links (an attribute's value and its quotes, a CSS url() or string
// token in a <style>): the
// same bytes between them, and as many of them.
func assertSameOutsideLinks(t *testing.T, url string, a, b []byte) {
	t.Helper()
	oa, na := outsideLinks(t, url, a)
	ob, nb := outsideLinks(t, url, b)
	if na != nb || !bytes.Equal(oa, ob) {
		i := 0
		for i < min(len(oa), len(ob)) && oa[i] == ob[i] {
			i++
		}
		t.Errorf("%s: the bytes outside the links differ (%d values and %d), first at %q and %q", url, na, nb,
			oa[max(0, i-40):min(len(oa), i+40)], ob[max(0, i-40):min(len(ob), i+40)])
	}
}

// outsideLinks returns doc, decoded to UTF-8 as package links reads it,
// with each value that holds links (an iframe's srcdoc among them) cut out
// and a NUL byte in its place, and the number of such values.
func outsideLinks(t *testing.T, url string, doc []byte) ([]byte, int) {
	t.Helper()
	text := doc
	if enc, _ := htmltree.Encoding(doc, ""); enc != nil {
		var err error
		if text, err = enc.NewDecoder().Bytes(doc); err != nil {
			t.Fatalf("%s: %v", url, err)
		}
	}
	type cut struct{ start, end int }
	var cuts []cut
	x := &links.Extractor{Options: links.Options{Sites: true, Template: true, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}}
	add := func(s links.Site) {
		c := cut{int(s.Value.Start), int(s.Value.End)}
		switch {
		case s.Style && len(s.Decoded) == c.end-c.start:
			c = cut{c.start + s.Ref[0], c.start + s.Ref[1]}
		case s.Quote != 0:
			c = cut{c.start - 1, c.end + 1} // a value's quotes are its own: one may gain them
		}
		cuts = append(cuts, c)
	}
	h := &links.Handler{
		Link: func(l *links.Link) error { add(l.Site); return nil },
		// An iframe's srcdoc is a value that holds links.
		Srcdoc: func(s links.Site, _ links.Base) error { add(s); return nil },
	}
	if err := x.Extract(bytes.NewReader(doc), links.Doc{Format: links.FormatHTML, Base: links.Retrieved(url)}, h); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	// A <base> that waited for its table's end comes after the links in
	// it; a value with several links (srcset, CSS) comes once a link.
	slices.SortFunc(cuts, func(a, b cut) int { return a.start - b.start })
	cuts = slices.Compact(cuts)
	var out []byte
	at := 0
	for _, c := range cuts {
		out = append(append(out, text[at:c.start]...), 0)
		at = c.end
	}
	return append(out, text[at:]...), len(cuts)
}

// TestRewriteHardCasesInChromium moves testdata/hard, a page for each rule
// that tools moving sites get wrong, as TestRewriteInChromium moves the
// 1,699 pages: rewritten with -relative (and again with -drop-base too),
// served under another prefix, each link in Chromium where the original's
// is, moved, and the bytes outside the links' values the original's. A
// meta refresh is followed by Chromium itself. The pages whose base is
// outside the tree cannot move without -drop-base: a link into the tree
// has no relative reference from that base, and stays where it was (one
// of them has its <base> in an SVG <foreignObject>, where it counts).
func TestRewriteHardCasesInChromium(t *testing.T) {
	site := newBrowserSite(t)
	const from = "https://old.example/docs/"
	hard := filepath.Join("..", "..", "..", "..", "testdata", "hard", "docs")
	names := htmlFiles(t, hard)
	site.serve(from, hard)
	var orig []harnessPage
	for _, name := range names {
		orig = append(orig, harnessPage{URL: from + name, Refresh: strings.HasPrefix(name, "refresh")})
	}
	before := site.load(orig)

	for _, variant := range [][]string{{"-relative", from}, {"-relative", from, "-drop-base"}} {
		t.Run(strings.Join(variant, " "), func(t *testing.T) {
			site.t = t
			dir := filepath.Join(t.TempDir(), "docs")
			args := append([]string{"rewrite"}, variant...)
			check(t, relurlRun(t, nil, append(args, "-map", hard+"="+from, "-o", dir, hard)...), "", "*", 0)
			// Idempotent: the copy, at the same URLs, changes no more.
			check(t, relurlRun(t, nil, append(args, "-map", dir+"="+from, "-l", dir)...), "", "*", 0)
			to := site.plain.URL + "/" + strings.Join(variant[2:], "") + "moved/docs/"
			site.serve(to, dir)
			var moved []harnessPage
			for _, p := range orig {
				moved = append(moved, harnessPage{URL: to + strings.TrimPrefix(p.URL, from), Refresh: p.Refresh})
			}
			after := site.load(moved)
			for i, p := range orig {
				name := strings.TrimPrefix(p.URL, from)
				want := slices.Clone(before[p.URL])
				for j, u := range want {
					outside := name == "base-outside.html" || name == "tree-base-elsewhere-in-svg.html"
					if stays := outside && len(variant) == 2; !stays {
						want[j] = movedTo(u, from, to)
					}
				}
				if got := after[moved[i].URL]; !slices.Equal(got, want) {
					t.Errorf("%s moved: Chromium's links differ from the original's, moved:\n%s", name, lineDiff(want, got, "original", "moved"))
				}
				a, _ := os.ReadFile(filepath.Join(hard, name))
				b, _ := os.ReadFile(filepath.Join(dir, name))
				if len(variant) == 2 {
					assertSameOutsideLinks(t, p.URL, a, b)
				}
			}
		})
	}
}

// TestHardCasesLinksInChromium reads each page of testdata/hard with relurl
// links (-spec whatwg, -template, since the harness puts a copy of each
// template's contents in the document) and loads it in Chromium: the two
// give the same links. The tree-*.html pages hold the tree builder's rules
// a tokenizer alone gets wrong: a <base> in an HTML integration point, the
// end tags and start tags that end foreign content, HTML inside MathML,
// script and textarea after an unclosed <svg>, the first <base> in tree
// order when foster parenting moves one before its table, framesets. The
// harness lists links in tree order, relurl in the order of the tags
// (which foster parenting may differ from), so each list is compared
// sorted. A page with a meta refresh is TestRewriteHardCasesInChromium's,
// and srcset-commas.html too: the harness splits a srcset at its commas,
// a stand-in for HTML's algorithm (TestSrcsetURLs holds relurl to WPT's).
func TestHardCasesLinksInChromium(t *testing.T) {
	t.Parallel()
	site := newBrowserSite(t)
	const from = "https://old.example/docs/"
	hard := filepath.Join("..", "..", "..", "..", "testdata", "hard", "docs")
	site.serve(from, hard)
	var pages []harnessPage
	for _, name := range htmlFiles(t, hard) {
		if !strings.HasPrefix(name, "refresh") && name != "srcset-commas.html" {
			pages = append(pages, harnessPage{URL: from + name})
		}
	}
	browser := site.load(pages)
	for _, p := range pages {
		name := strings.TrimPrefix(p.URL, from)
		r := relurlRun(t, nil, "links", "-spec", "whatwg", "-template", "-url", p.URL, filepath.Join(hard, name))
		check(t, r, "*", "*", 0)
		ours := strings.Fields(r.Stdout)
		want := slices.Clone(browser[p.URL])
		slices.Sort(ours)
		slices.Sort(want)
		if !slices.Equal(ours, want) {
			t.Errorf("%s: relurl links and Chromium differ:\n%s", name, lineDiff(want, ours, "Chromium", "relurl"))
		}
	}
}
