package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/markdown"
)

// markdownTree unpacks the Rust book's Markdown (../shared/data) into a
// new directory, with the hard cases of package markdown beside its
// chapters, and returns the directory of the Markdown (src/).
func markdownTree(t *testing.T) string {
	t.Helper()
	book := "../../../shared/data/markdown/rust-book-src.tar.gz"
	if _, err := os.Stat(book); err != nil {
		t.Skipf("no shared data: %v", err)
	}
	dir := t.TempDir()
	if out, err := exec.Command("tar", "-xzf", book, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v %s", err, out)
	}
	src := filepath.Join(dir, "src")
	hard, _ := filepath.Glob("../../markdown/testdata/hard/*.md")
	for _, f := range hard {
		data, _ := os.ReadFile(f)
		os.WriteFile(filepath.Join(src, filepath.Base(f)), data, 0o644)
	}
	return src
}

// renderedLinks renders each Markdown file below dir as GitHub does
// (cmark-gfm, through package markdown's oracle.py) and returns, by path
// below dir, the hrefs and srcs of its page, in order.
func renderedLinks(t *testing.T, dir string) map[string][]string {
	t.Helper()
	python := os.Getenv("RELURL_MARKDOWN_PYTHON")
	if python == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI needs cmarkgfm: .ci/run installs it and sets RELURL_MARKDOWN_PYTHON")
		}
		python = "python3"
		if exec.Command(python, "-c", "import cmarkgfm, markdown").Run() != nil {
			t.Skip("cmarkgfm is not installed (pip install -r markdown/testdata/requirements.txt)")
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	out, err := exec.Command(python, append([]string{"../../markdown/testdata/oracle.py"}, files...)...).Output()
	if err != nil {
		t.Fatalf("oracle.py: %v", err)
	}
	links := map[string][]string{}
	for line := range bytes.Lines(out) {
		var r struct {
			File  string
			Links []string
		}
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, r.File)
		links[rel] = r.Links
	}
	return links
}

// TestRewriteMarkdownRendered moves a tree of Markdown, the Rust book and
// the hard cases, to another prefix, and proves it by rendering: each
// original and moved file rendered by cmark-gfm, GitHub's renderer, every
// rendered href and src of the moved page, resolved against its new URL,
// is the original's, resolved against its old URL, moved by the prefix;
// and every byte outside the links' destinations is the original's.
func TestRewriteMarkdownRendered(t *testing.T) {
	src := markdownTree(t)
	const old, new = "https://old.example/book/", "https://new.example/docs/book/"
	for _, tt := range []struct {
		flags  []string
		to     string // where the tree is served once rewritten
		at     int    // links written anew, at least
		linked int    // links rendered, at least
	}{
		{[]string{"-move", old + "=" + new}, new, 40, 500},
		{[]string{"-relative", old}, old, 10, 500},
	} {
		t.Run(strings.Join(tt.flags, " "), func(t *testing.T) { rewriteMarkdownRendered(t, src, old, tt.to, tt.flags, tt.at, tt.linked) })
	}
}

func rewriteMarkdownRendered(t *testing.T, src, old, new string, flags []string, atLeast, linked int) {
	moved := filepath.Join(t.TempDir(), "moved")
	r := relurlRun(t, nil, append(append([]string{"rewrite", "-markdown", "github", "-map", src + "=" + old}, flags...), "-o", moved, src)...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	before, after := renderedLinks(t, src), renderedLinks(t, moved)
	resolve := func(base, ref string) string {
		u, err := relurl.Resolver{Spec: relurl.WHATWG}.Resolve(base, ref)
		if err != nil {
			return "error: " + err.Error()
		}
		return u
	}
	found, changed := 0, 0
	for name, refs := range before {
		got := after[name]
		if len(got) != len(refs) {
			t.Errorf("%s: %d links rendered, %d after the move", name, len(refs), len(got))
			continue
		}
		for i, ref := range refs {
			want := resolve(old+name, ref)
			if rest, ok := strings.CutPrefix(want, old); ok {
				want = new + rest
			}
			if g := resolve(new+name, got[i]); g != want {
				t.Errorf("%s: link %d, %q, reaches %s after the move, want %s (as %q)", name, i, ref, g, want, got[i])
			}
			found++
			if got[i] != ref {
				changed++
			}
		}
		// Every byte outside the destinations is the original's.
		orig, _ := os.ReadFile(filepath.Join(src, name))
		rewritten, _ := os.ReadFile(filepath.Join(moved, name))
		if a, b := outsideDestinations(orig), outsideDestinations(rewritten); !slices.Equal(a, b) {
			t.Errorf("%s: text outside the destinations changed", name)
		}
	}
	if found < linked || changed < atLeast {
		t.Errorf("%d links rendered, %d changed: the trees are not what was meant", found, changed)
	}
	t.Logf("%d files, %d links rendered by cmark-gfm, %d written anew, each reaching its target", len(before), found, changed)

	// Again: nothing changes.
	r = relurlRun(t, nil, append(append([]string{"rewrite", "-markdown", "github", "-map", moved + "=" + new}, flags...), "-l", moved)...)
	check(t, r, "", "", 0)
}

// outsideDestinations returns the pieces of a Markdown document between
// the values that hold its links: its destinations (an angle-bracketed
// one with its brackets) and its HTML's attribute values.
func outsideDestinations(src []byte) []string {
	var parts []string
	at := 0
	x := &links.Extractor{Options: links.Options{Sites: true, Dialect: markdown.GitHub}}
	x.Extract(bytes.NewReader(src), links.Doc{Format: links.FormatMarkdown, Base: links.Retrieved("https://x.example/")}, &links.Handler{Link: func(l *links.Link) error {
		start, end := int(l.Site.Value.Start), int(l.Site.Value.End)
		if l.Site.Quote == '<' {
			start, end = start-1, end+1
		}
		if start >= at {
			parts = append(parts, string(src[at:start]))
			at = end
		}
		return nil
	}})
	return append(parts, string(src[at:]))
}

// TestCheckRustBook checks the Rust book's Markdown as mdBook publishes it
// (its .html links are its .md files, its fragments mdBook's anchors) and
// as GitHub shows it, with breakage planted: exactly the planted links are
// reported, none of the book's own (mdBook's rendering of the unplanted
// book, checked as HTML, has none broken either: bench/markdown.sh), and
// an unused reference definition, which no page shows, is skipped.
func TestCheckRustBook(t *testing.T) {
	src := markdownTree(t)
	for _, name := range []string{"headings.md", "links.md", "lists.md", "moving.md"} {
		os.Remove(filepath.Join(src, name))
	}
	planted := "\n\n## Planted\n\n" +
		"[a missing chapter](ch99-missing.html), [a wrong fragment](ch04-01-what-is-ownership.html#no-such-heading),\n" +
		"[a right one, with code in the heading](ch08-02-strings.html#appending-with-push_str-or-push),\n" +
		"![a missing image](img/missing.png), [this page's wrong fragment](#nope), [this page's](#planted),\n" +
		"[punctuation](ch03-05-control-flow.html#streamlining-conditional-loops-with-while),\n" +
		"[another case, which no browser finds](ch03-05-control-flow.html#Streamlining-Conditional-Loops-With-While).\n"
	chapter := filepath.Join(src, "ch01-02-hello-world.md")
	data, _ := os.ReadFile(chapter)
	os.WriteFile(chapter, append(data, planted...), 0o644)

	r := relurlRun(t, nil, "check", "-offline", "-json", "-markdown", "mdbook", "-map", src+"=https://doc.rust-lang.org/book/", src)
	var broken []string
	skipped := 0
	for line := range strings.Lines(r.stdout) {
		var l struct{ Ref, State, Markdown string }
		json.Unmarshal([]byte(line), &l)
		switch l.State {
		case "broken":
			broken = append(broken, l.Ref)
		case "skipped":
			if l.Markdown == "definition" {
				skipped++
			}
		}
	}
	slices.Sort(broken)
	want := []string{"#nope", "ch03-05-control-flow.html#Streamlining-Conditional-Loops-With-While", "ch04-01-what-is-ownership.html#no-such-heading", "ch99-missing.html", "img/missing.png"}
	if r.code != exitFound || !slices.Equal(broken, want) || skipped == 0 {
		t.Errorf("mdbook: exit %d, broken %q, want %q; %d unused definitions skipped\n%s", r.code, broken, want, skipped, r.stderr)
	}
	// Auto: a book.toml beside src says mdBook.
	os.WriteFile(filepath.Join(filepath.Dir(src), "book.toml"), []byte("[book]\n"), 0o644)
	r = relurlRun(t, nil, "check", "-offline", "-map", src+"=https://doc.rust-lang.org/book/", src)
	if r.code != exitFound || !strings.Contains(r.stderr, "broken: 5 targets, 5 links") {
		t.Errorf("a book.toml: exit %d, %s", r.code, r.stderr)
	}
	// GitHub's reading of the same tree: its .html links are broken, as
	// they are on github.com; a heading fragment into a .md file is not.
	os.WriteFile(chapter, append(data, "[by GitHub's anchors](ch08-02-strings.md#appending-with-push_str-or-push) [not](ch08-02-strings.md#nope)\n"+
		"[in any case, as GitHub's page finds it](ch08-02-strings.md#Appending-With-PUSH_STR-or-push)\n"...), 0o644)
	r = relurlRun(t, nil, "check", "-offline", "-json", "-markdown", "github", "-elements", "a@href", "-map", src+"=https://doc.rust-lang.org/book/", chapter)
	if !strings.Contains(r.stdout, `"ref":"ch08-02-strings.md#appending-with-push_str-or-push",`) ||
		strings.Contains(r.stdout, `"ref":"ch08-02-strings.md#appending-with-push_str-or-push","base":"https://doc.rust-lang.org/book/ch01-02-hello-world.md","base_from":"retrieval","element":"a","attribute":"href","markdown":"link","state":"broken"`) ||
		!strings.Contains(r.stdout, `no heading with the anchor \"nope\" (by the github slug rule), nor an element with that id or name`) ||
		!strings.Contains(r.stdout, `"ref":"ch08-02-strings.md#Appending-With-PUSH_STR-or-push","base":"https://doc.rust-lang.org/book/ch01-02-hello-world.md","base_from":"retrieval","element":"a","attribute":"href","markdown":"link","state":"ok"`) {
		t.Errorf("github:\n%s", r.stdout)
	}
}

// TestCheckRepository: "relurl check ." in a repository reads its Markdown
// and HTML, not .git, node_modules or what .gitignore ignores; -format
// github puts each broken link on its line of the Markdown source.
func TestCheckRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := tree(t, map[string]string{
		".gitignore":                 "build/\n",
		"README.md":                  "# Project\n\nSee [the guide](docs/guide.md#install) and [gone](docs/gone.md).\n",
		"docs/guide.md":              "# Guide\n\n## Install\n",
		"docs/index.html":            `<a href="guide.md#nowhere">x</a>`,
		"node_modules/dep/README.md": "[broken](nope.md)",
		"build/out.md":               "[broken](nope.md)",
		"notes.txt":                  "https://example.com/ is fine, and so is file.txt\n",
		"docs/root.md":               "[from the repository's root](/docs/guide.md#install) [not there](/guide.md)\n",
		"docs/feed.xml":              `<feed xmlns="http://www.w3.org/2005/Atom"><link href="guide.md"/><link href="missing.xml"/></feed>`,
	})
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	cmd := exec.Command(relurlBin, "check", "-offline", "-format", "github", "-root", ".", ".")
	cmd.Dir = repo
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Run()
	want := "::error file=README.md,line=3,col=51,title=broken link::docs/gone.md (file:///docs/gone.md): no such file: docs/gone.md\n" +
		"::error file=docs/feed.xml,line=1,col=66,title=broken link::missing.xml (file:///docs/missing.xml): no such file: docs/missing.xml\n" +
		"::error file=docs/index.html,line=1,col=1,title=broken link::guide.md#nowhere (file:///docs/guide.md#nowhere): no heading with the anchor \"nowhere\" (by the github slug rule), nor an element with that id or name\n" +
		"::error file=docs/root.md,line=1,col=66,title=broken link::/guide.md (file:///guide.md): no such file: guide.md\n"
	if cmd.ProcessState.ExitCode() != exitFound || stdout.String() != want || !strings.Contains(stderr.String(), "relurl check: 6 documents, 8 links") {
		t.Errorf("exit %d\n%s%s\nwant\n%s", cmd.ProcessState.ExitCode(), stdout.String(), stderr.String(), want)
	}
}

// TestLinksOfFeedsSitemapsText reads a sitemap (plain and gzip), an index,
// RSS and Atom with nested xml:base, and plain text, through the command:
// every URL found, resolved.
func TestLinksOfFeedsSitemapsText(t *testing.T) {
	dir := t.TempDir()
	copyFile := func(name string) string {
		data, err := os.ReadFile("../../xmldoc/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o644)
		return path
	}
	sitemap := copyFile("sitemap.xml")
	atom := copyFile("atom.xml")
	data, _ := os.ReadFile(sitemap)
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write(data)
	z.Close()
	sitemapGz := filepath.Join(dir, "sitemap.xml.gz")
	os.WriteFile(sitemapGz, gz.Bytes(), 0o644)
	text := filepath.Join(dir, "urls.txt")
	os.WriteFile(text, []byte("https://a.example/one\nsee https://a.example/two, and (www.b.example/three).\n"), 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"links", "-tsv", "-url", "https://site.example/sitemap.xml", sitemap},
			"https://site.example/sitemap.xml\thttps://site.example/\nhttps://site.example/sitemap.xml\thttps://site.example/docs/a.html\nhttps://site.example/sitemap.xml\thttps://site.example/docs/b&c.html\n"},
		{[]string{"links", "-url", "https://site.example/sitemap.xml.gz", sitemapGz},
			"https://site.example/\nhttps://site.example/docs/a.html\nhttps://site.example/docs/b&c.html\n"},
		{[]string{"links", "-spec", "whatwg", "-fields", "element,attribute,base_from,url", "-url", "https://feeds.example/blog/atom.xml", atom},
			"link\thref\txml-base\thttps://blog.example/\n" +
				"link\thref\txml-base\thttps://blog.example/feed.xml\n" +
				"icon\t\txml-base\thttps://blog.example/favicon.ico\n" +
				"logo\t\txml-base\thttps://blog.example/img/logo.png\n" +
				"uri\t\txml-base\thttps://blog.example/about/ann.html\n" +
				"a\thref\txml-base\thttps://blog.example/posts/2026/title-link.html\n" +
				"link\thref\txml-base\thttps://blog.example/posts/2026/hello.html\n" +
				"link\thref\txml-base\thttps://blog.example/media/talk.mp3\n" +
				"a\thref\txml-base\thttps://blog.example/posts/2026/other.html\n" +
				"img\tsrc\txml-base\thttps://blog.example/img/x.png\n" +
				"link\thref\txml-base\thttps://other.example/deep/there.html\n" +
				"a\thref\txml-base\thttps://other.example/deep/inner/x.html\n" +
				"img\tsrc\txml-base\thttps://other.example/deep/inner/y.png\n" +
				"content\tsrc\txml-base\thttps://other.example/deep/media/body.html\n"},
		{[]string{"links", "-spec", "1808", "-url", "https://x.example/urls.txt", text},
			"https://a.example/one\nhttps://a.example/two\nhttp://www.b.example/three\n"},
		{[]string{"links", "-type", "text", "-url", "https://x.example/", "-"}, ""},
	} {
		r := relurlRun(t, in(""), tt.args...)
		if tt.want == "" {
			continue
		}
		check(t, r, tt.want, "", 0)
	}
	// Standard input read as text.
	r := relurlRun(t, in("https://a.example/x www.b.example"), "links", "-spec", "1808", "-type", "text", "-url", "https://x.example/", "-")
	check(t, r, "https://a.example/x\nhttp://www.b.example\n", "", 0) // RFC 1808 writes a URL as it is
	// A feed and Markdown over HTTP, by their Content-Type.
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/feed":
			w.Header().Set("Content-Type", "application/atom+xml")
			fmt.Fprint(w, `<feed xmlns="http://www.w3.org/2005/Atom"><link href="entry.html"/></feed>`)
		case "/README":
			w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
			fmt.Fprint(w, "[a](a.md) `[not](code.md)`")
		}
	}))
	defer s.Close()
	r = relurlRun(t, nil, "links", s.URL+"/feed", s.URL+"/README")
	check(t, r, s.URL+"/entry.html\n"+s.URL+"/a.md\n", "*", 0)
}

// TestREADMEActionsStep runs the command of the README's GitHub Actions
// step, as the workflow runs it, in a repository with a broken link: the
// annotation names the Markdown line, and the step fails.
func TestREADMEActionsStep(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const install = "go run github.com/relurl/relurl/cmd/relurl@latest"
	var command string
	for line := range strings.Lines(string(readme)) {
		if c, ok := strings.CutPrefix(strings.TrimSpace(line), "run: "+install); ok {
			command = relurlBin + c
		}
	}
	if command == "" {
		t.Fatalf("no step that runs %q in the README", install)
	}
	repo := tree(t, map[string]string{
		"README.md":     "# Tool\n\n[Usage](docs/usage.md#options), [missing](docs/missing.md)\n",
		"docs/usage.md": "# Usage\n\n## Options\n",
	})
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = repo
	out, _ := cmd.Output()
	want := "::error file=README.md,line=3,col=43,title=broken link::docs/missing.md (file:///docs/missing.md): no such file: docs/missing.md\n"
	if cmd.ProcessState.ExitCode() != exitFound || string(out) != want {
		t.Errorf("%s: exit %d\n%s\nwant\n%s", command, cmd.ProcessState.ExitCode(), out, want)
	}
}
