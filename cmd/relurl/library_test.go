package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl/links"
)

// TestLibraryAsCommand holds the library's default to the command's: a
// zero links.Extractor gives, on the same document at the same URL, the
// links relurl links prints, every one resolved the same way (by the URL
// Standard, as a browser resolves). The first page is the trap the two
// once set a new user, when the library resolved by RFC 1808:
// "../../../../x.html" on https://example.org/docs/page.html is
// https://example.org/x.html from both.
func TestLibraryAsCommand(t *testing.T) {
	dir := t.TempDir()
	trap := filepath.Join(dir, "page.html")
	if err := os.WriteFile(trap, []byte(`<a href="../../../../x.html">x</a> <a href="a b?q=é#f">y</a> <img src="//cdn.example/i.png">`), 0o644); err != nil {
		t.Fatal(err)
	}
	pages := []struct{ file, url string }{{trap, "https://example.org/docs/page.html"}}
	hard := filepath.Join("..", "..", "testdata", "hard", "docs")
	names, err := filepath.Glob(filepath.Join(hard, "*.html"))
	if err != nil || len(names) < 20 {
		t.Fatalf("the pages of testdata/hard: %d, %v", len(names), err)
	}
	for _, name := range names {
		pages = append(pages, struct{ file, url string }{name, "https://old.example/docs/" + filepath.Base(name)})
	}
	for _, p := range pages {
		r := relurlRun(t, nil, "links", "-json", "-url", p.url, p.file)
		var command []string
		for line := range strings.Lines(r.stdout) {
			var l struct{ URL *string }
			if err := json.Unmarshal([]byte(line), &l); err != nil {
				t.Fatal(err)
			}
			if l.URL != nil {
				command = append(command, *l.URL)
			}
		}
		doc, err := os.ReadFile(p.file)
		if err != nil {
			t.Fatal(err)
		}
		var x links.Extractor
		var library []string
		for l, err := range x.Links(bytes.NewReader(doc), links.Doc{Format: links.FormatHTML, Base: links.Retrieved(p.url)}) {
			if err == nil && l.URL != nil {
				library = append(library, string(l.URL))
			}
		}
		if len(command) == 0 || !slices.Equal(library, command) {
			t.Errorf("%s: the zero links.Extractor and relurl links differ:\nlibrary: %q\ncommand: %q", p.file, library, command)
		}
		if p.file == trap && (len(library) == 0 || library[0] != "https://example.org/x.html") {
			t.Errorf("../../../../x.html on %s: %q, want https://example.org/x.html", p.url, library)
		}
	}
}
