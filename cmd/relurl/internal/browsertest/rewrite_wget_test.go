package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relurl/relurl/internal/clitest"
)

// wgetFound is what TestRewriteAgainstWget finds of GNU Wget 1.21's -k
// (--convert-links) on testdata/hard: for each page, how many of its links
// no longer reach their target once wget's mirror is moved, and whether
// it changed bytes that are not link values. The README shows it; the test
// fails when wget's results change, so that it cannot go stale.
const wgetFound = `background.html: 0 links miss, other bytes changed: false
base-absolute.html: 0 links miss, other bytes changed: false
base-after.html: 1 links miss, other bytes changed: false
base-outside.html: 0 links miss, other bytes changed: false
base-relative.html: 0 links miss, other bytes changed: false
css.html: 1 links miss, other bytes changed: true
entities.html: 1 links miss, other bytes changed: false
hidden.html: 2 links miss, other bytes changed: true
late-meta.html: 0 links miss, other bytes changed: false
refresh-double.html: 1 links miss, other bytes changed: false
refresh-quotes.html: 1 links miss, other bytes changed: false
single-quotes.html: 1 links miss, other bytes changed: true
srcdoc.html: 5 links miss, other bytes changed: true
srcset-commas.html: 1 links miss, other bytes changed: false
tree-after-frameset.html: 0 links miss, other bytes changed: false
tree-base-elsewhere-in-svg.html: 0 links miss, other bytes changed: false
tree-base-in-foreignobject.html: 0 links miss, other bytes changed: false
tree-base-in-mi.html: 0 links miss, other bytes changed: false
tree-breakout-stays-in-point.html: 1 links miss, other bytes changed: true
tree-div-ends-svg.html: 0 links miss, other bytes changed: false
tree-form-in-svg.html: 1 links miss, other bytes changed: true
tree-foster-parented-base.html: 0 links miss, other bytes changed: false
tree-frameset-base.html: 1 links miss, other bytes changed: true
tree-frameset-too-late.html: 0 links miss, other bytes changed: false
tree-html-in-mathml.html: 0 links miss, other bytes changed: false
tree-raw-text-after-svg.html: 0 links miss, other bytes changed: false
tree-root-relative.html: 0 links miss, other bytes changed: false
tree-svg-after-html.html: 0 links miss, other bytes changed: false
tree-td-ends-math.html: 0 links miss, other bytes changed: false
tree-template-in-svg.html: 1 links miss, other bytes changed: false
unquoted.html: 2 links miss, other bytes changed: true
windows-1252.html: 1 links miss, other bytes changed: false
`

// TestRewriteAgainstWget moves testdata/hard (served as http://old.example/docs/)
// twice: as wget -r -k mirrors it, and as relurl rewrite -relative rewrites
// it; both are served under another prefix and read in Chromium, as
// TestRewriteHardCasesInChromium reads relurl's alone. relurl keeps every
// link; wget's failures are wgetWrong.
func TestRewriteAgainstWget(t *testing.T) {
	wget, err := exec.LookPath("wget")
	if err != nil {
		t.Skip("GNU wget is not installed (apt-get install wget)")
	}
	site := newBrowserSite(t)
	site.stubs = true
	const from = "http://old.example/docs/"
	dir := t.TempDir()
	tree := filepath.Join(dir, "site")
	os.MkdirAll(tree, 0o755)
	names := htmlFiles(t, filepath.Join("..", "..", "..", "..", "testdata", "hard", "docs"))
	index := "<!doctype html><title>index</title>\n"
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "testdata", "hard", "docs", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(tree, name), bytes.ReplaceAll(b, []byte("https://old.example/"), []byte("http://old.example/")), 0o644)
		index += fmt.Sprintf("<a href=%q>%s</a>\n", name, name)
	}
	os.WriteFile(filepath.Join(tree, "index.html"), []byte(index), 0o644)
	site.serve(from, tree)

	// wget's mirror, through the site as its proxy.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	mirror := filepath.Join(dir, "wget")
	cmd := exec.CommandContext(ctx, wget, "-r", "-l", "2", "-np", "-p", "-k", "-nH", "-P", mirror, "-e", "robots=off",
		"-e", "use_proxy=yes", "-e", "http_proxy="+site.plain.Listener.Addr().String(), from+"index.html")
	clitest.StopWithTest(cmd)
	// wget's exit status is 8 when any request got an error status, as
	// some of the links it misreads do.
	if out, err := cmd.CombinedOutput(); err != nil && cmd.ProcessState == nil {
		t.Fatalf("wget: %v\n%s", err, out)
	} else if !bytes.Contains(out, []byte("Converted links in")) {
		t.Fatalf("wget converted no links:\n%s", out)
	}
	rel := filepath.Join(dir, "relurl")
	check(t, relurlRun(t, nil, "rewrite", "-relative", from, "-map", tree+"="+from, "-o", rel, tree), "", "", 0)

	movedWget, movedRelurl := site.plain.URL+"/wget/docs/", site.plain.URL+"/relurl/docs/"
	site.serve(movedWget, filepath.Join(mirror, "docs"))
	site.serve(movedRelurl, rel)
	var pages []harnessPage
	for _, prefix := range []string{from, movedWget, movedRelurl} {
		for _, name := range names {
			pages = append(pages, harnessPage{URL: prefix + name, Refresh: strings.HasPrefix(name, "refresh")})
		}
	}
	got := site.load(pages)
	// wrong counts the links of the page name, moved to to, that Chromium
	// does not find where the original's are, moved. A mirror's dir/ may be
	// dir/index.html, the file it is saved as; and where the base is outside
	// the tree, a link into the tree may stay or move.
	wrong := func(to, name string) int {
		orig, moved := got[from+name], got[to+name]
		n := 0
		for j := range max(len(orig), len(moved)) {
			want, have := at(orig, j), at(moved, j)
			w := movedTo(want, from, to)
			ok := have == w || strings.HasSuffix(w, "/") && have == w+"index.html" ||
				have == want && (w == want || name == "base-outside.html" || name == "tree-base-elsewhere-in-svg.html")
			if !ok {
				n++
				t.Logf("%s%s: link %d: want %s, got %s", to, name, j+1, want, have)
			}
		}
		return n
	}
	type verdict struct {
		missed  int  // links that miss once moved
		damaged bool // bytes outside the links' values changed
	}
	found := map[string]verdict{}
	for _, name := range names {
		if n := wrong(movedRelurl, name); n > 0 {
			t.Errorf("relurl rewrite: %d links of %s miss once moved", n, name)
		}
		a, _ := os.ReadFile(filepath.Join(tree, name))
		b, _ := os.ReadFile(filepath.Join(rel, name))
		assertSameOutsideLinks(t, from+name, a, b)
		w, _ := os.ReadFile(filepath.Join(mirror, "docs", name))
		oa, na := outsideLinks(t, from+name, a)
		ow, nw := outsideLinks(t, from+name, w)
		if v := (verdict{wrong(movedWget, name), na != nw || !bytes.Equal(oa, ow)}); v != (verdict{}) {
			found[name] = v
		}
	}
	var table strings.Builder
	for _, name := range names {
		fmt.Fprintf(&table, "%s: %d links miss, other bytes changed: %v\n", name, found[name].missed, found[name].damaged)
	}
	t.Logf("wget -k, moved:\n%s", table.String())
	if table.String() != wgetFound {
		t.Errorf("wget -k no longer does what the README says:\n%s", table.String())
	}
}
