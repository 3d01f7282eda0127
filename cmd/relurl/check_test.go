package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// checkSite is a loopback site with a broken link of every kind a checker
// must find, and links that look broken but are not.
func checkSite(t *testing.T) *httptest.Server {
	t.Helper()
	var busy atomic.Int32
	pages := map[string]string{
		// Links before the <base> resolve against it too; a <base> in
		// <svg> and a second one do not count.
		"/index.html": `<!doctype html><title>home</title>
<a href="guide.html">ok</a>
<a href="missing.html">404 under the base</a>
<svg><base href="/wrong/"></svg>
<base href="/docs/">
<base href="/other/">
<a href="guide.html#intro">fragment there</a>
<a href="guide.html#nope">fragment missing</a>
<a href="..\docs\guide.html">backslashes: fine by the URL Standard</a>
<a href="/r301">redirect chain</a> <a href="/loop1">redirect loop</a>
<a href="/gone">410</a> <a href="/err500">500</a> <a href="/busy">429 then 200</a>
<a href="/slow">too slow</a> <a href="/nohead">HEAD refused</a>
<a href="/huge#end">a huge page</a> <a href="legacy.html">windows-1252</a>
<a href="mailto:me@example.com">mail</a> <a href="javascript:void(0)">js</a>
<img src="img/logo.png"> <img src="img/none.png">`,
		"/docs/guide.html":   `<h1 id="intro">Guide</h1>`,
		"/docs/img/logo.png": "png",
		// A windows-1252 page whose link holds é: its path is UTF-8.
		"/docs/legacy.html":      "<meta charset=windows-1252><a href=\"caf\xe9.html\">caf\xe9</a><base href=\"data:,x\"><a href=\"guide.html\">data: base ignored</a>",
		"/docs/caf%C3%A9.html":   "<p>café",
		"/docs/legacy-base.html": "",
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.EscapedPath()]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if strings.HasSuffix(r.URL.Path, ".html") {
			w.Header().Set("Content-Type", "text/html")
		}
		fmt.Fprint(w, body)
	})
	mux.HandleFunc("/r301", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/r308", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/r308", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/r302", http.StatusPermanentRedirect)
	})
	mux.HandleFunc("/r302", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/docs/guide.html", http.StatusFound)
	})
	mux.HandleFunc("/loop1", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop2", http.StatusFound) })
	mux.HandleFunc("/loop2", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop1", http.StatusFound) })
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusGone) })
	mux.HandleFunc("/err500", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) })
	mux.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) {
		if busy.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/nohead", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		fmt.Fprint(w, "ok")
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, strings.Repeat("<p>filler</p>\n", 300_000)+`<p id="end">end`)
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// TestCheckSite checks the loopback site: every planted breakage found,
// nothing else, in a bounded time, with positions, and the exit status 2.
func TestCheckSite(t *testing.T) {
	s := checkSite(t)
	start := time.Now()
	r := relurlRun(t, nil, "check", "-json", "-timeout", "1s", "-retries", "2", "-retry-max-wait", "2s", s.URL+"/index.html", s.URL+"/docs/legacy.html")
	if elapsed := time.Since(start); elapsed > 30*time.Second {
		t.Errorf("the check took %v", elapsed)
	}
	if r.code != exitFound {
		t.Fatalf("exit %d, want %d; stderr %s", r.code, exitFound, r.stderr)
	}
	var broken, ok, skipped []string
	for line := range strings.Lines(r.stdout) {
		var l struct {
			URL, Ref, State, Error string
			Line, Column, Status   int
			Redirects              []string
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		switch l.State {
		case "broken":
			broken = append(broken, l.Ref)
		case "ok":
			ok = append(ok, l.Ref)
		case "skipped":
			skipped = append(skipped, l.Ref)
		}
		if l.Line == 0 {
			t.Errorf("%s: no line", l.Ref)
		}
		if l.Ref == "/r301" && len(l.Redirects) != 4 {
			t.Errorf("/r301: redirects %q", l.Redirects)
		}
	}
	slices.Sort(broken)
	slices.Sort(ok)
	wantBroken := []string{"/err500", "/gone", "/loop1", "/slow", "guide.html#nope", "img/none.png", "missing.html"}
	wantOK := []string{"..\\docs\\guide.html", "/busy", "/huge#end", "/nohead", "/r301", "caf\u00e9.html", "guide.html", "guide.html", "guide.html#intro", "img/logo.png", "legacy.html"}
	if !slices.Equal(broken, wantBroken) {
		t.Errorf("broken: %q\nwant    %q", broken, wantBroken)
	}
	if !slices.Equal(ok, wantOK) {
		t.Errorf("ok: %q\nwant %q", ok, wantOK)
	}
	if len(skipped) != 2 {
		t.Errorf("skipped: %q", skipped)
	}
	if !strings.Contains(r.stderr, "broken: 7 targets, 7 links; skipped: 2 links; excluded: 0 links") {
		t.Errorf("summary: %s", r.stderr)
	}

	// A permanent redirect is a link to fix, with -fail-permanent-redirects.
	r = relurlRun(t, nil, "check", "-fail-permanent-redirects", "-include", "r301", s.URL+"/index.html")
	if r.code != exitFound || !strings.Contains(r.stdout, s.URL+`/r301: moved permanently to `+s.URL+`/r308`) || !strings.Contains(r.stdout, `<a href="/r301">`) {
		t.Errorf("-fail-permanent-redirects: exit %d\n%s", r.code, r.stdout)
	}

	// By RFC 1808, the backslashes are a broken link: the URL Standard is
	// the default because browsers fetch by it.
	r = relurlRun(t, nil, "check", "-spec", "1808", "-elements", "a@href", "-include", `docs`, "-timeout", "1s", s.URL+"/index.html")
	if !strings.Contains(r.stdout, `..\docs\guide.html`) {
		t.Errorf("-spec 1808 does not report the backslashes:\n%s", r.stdout)
	}
}

// TestCheckText checks the report for people, -explain and markdown.
func TestCheckText(t *testing.T) {
	s := checkSite(t)
	r := relurlRun(t, nil, "check", "-explain", "-elements", "a@href", "-exclude", "slow|err500|loop|gone|busy|huge", s.URL+"/index.html")
	want := s.URL + "/docs/missing.html: 404 Not Found\n" +
		"  " + s.URL + "/index.html:3:1 <a href=\"missing.html\">\n" +
		"    base: " + s.URL + "/docs/, from the document's <base href> (3.1)\n"
	if !strings.HasPrefix(r.stdout, want) || r.code != exitFound {
		t.Errorf("exit %d, report:\n%s\nwant it to start with:\n%s", r.code, r.stdout, want)
	}
	if !strings.Contains(r.stdout, s.URL+"/docs/guide.html#nope: no element with id or name \"nope\"\n  "+s.URL+"/index.html:8:1 <a href=\"guide.html#nope\">\n") {
		t.Errorf("no fragment report:\n%s", r.stdout)
	}
	r = relurlRun(t, nil, "check", "-format", "markdown", "-elements", "a@href", "-exclude", "slow|err500|loop|gone|busy|huge", s.URL+"/index.html")
	if !strings.HasPrefix(r.stdout, "**2 broken links, 2 targets**\n\n| target | why | links | where |\n") {
		t.Errorf("markdown:\n%s", r.stdout)
	}
}

// TestCheckOffline checks a site on disk through -map and -offline, with
// a cache, an ignore file, and the exit statuses.
func TestCheckOffline(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	os.MkdirAll(filepath.Join(site, "docs"), 0o755)
	os.WriteFile(filepath.Join(site, "index.html"), []byte(`<base href="docs/"><a href="a.html#x">a</a> <a href="b.html">b</a> <a href="../">home</a> <a href="https://elsewhere.example/">out</a>`), 0o644)
	os.WriteFile(filepath.Join(site, "docs", "a.html"), []byte(`<a name="x">x</a>`), 0o644)
	r := relurlRun(t, nil, "check", "-offline", "-map", site+"=https://site.example/", site)
	check(t, r, "https://site.example/docs/b.html: no such file: "+filepath.Join(site, "docs", "b.html")+"\n  "+filepath.Join(site, "index.html")+":1:45 <a href=\"b.html\">\n",
		"relurl check: 2 documents, 4 links, 4 targets; broken: 1 target, 1 link; skipped: 0 links; excluded: 1 link\n", exitFound)

	os.WriteFile(filepath.Join(site, "docs", "b.html"), nil, 0o644)
	r = relurlRun(t, nil, "check", "-offline", "-map", site+"=https://site.example/", site)
	check(t, r, "", "relurl check: 3 documents, 4 links, 4 targets; broken: 0 targets, 0 links; skipped: 0 links; excluded: 1 link\n", 0)

	r = relurlRun(t, nil, "check", "-format", "pdf", site)
	check(t, r, "", "relurl check: -format \"pdf\": want text, markdown, github or junit\n…", exitUsage)
	r = relurlRun(t, nil, "check", filepath.Join(dir, "nothing.html"))
	check(t, r, "", "relurl check: open "+filepath.Join(dir, "nothing.html")+": no such file or directory\n…", 1)
}

// TestCheckMaxTime: links not checked when -max-time runs out are counted,
// not reported broken, and the exit status is 5.
func TestCheckMaxTime(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/page.html" {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<a href="/slow1">a</a> <a href="/slow2">b</a>`)
			return
		}
		// Far longer than the bound below, which has room for a busy
		// machine: only -max-time can end the run within it.
		select {
		case <-time.After(60 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer s.Close()
	start := time.Now()
	r := relurlRun(t, nil, "check", "-max-time", "300ms", s.URL+"/page.html")
	check(t, r, "", "relurl check: 1 document, 2 links, 2 targets; broken: 0 targets, 0 links; skipped: 0 links; excluded: 0 links\nrelurl check: 2 links not checked: -max-time ran out\n", exitTimeout)
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("-max-time 300ms took %v", d)
	}
}

// TestCrawlMaxTime: pages a crawl is reading when -max-time runs out are
// not checked, not broken ("context deadline exceeded" reported them
// broken).
func TestCrawlMaxTime(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<a href="/slow1.html">a</a> <a href="/slow2.html">b</a>`)
			return
		case "/robots.txt":
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush() // the page is being read when time runs out
		select {
		case <-time.After(3 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer s.Close()
	r := relurlRun(t, nil, "check", "-recursive", "-max-time", "500ms", s.URL+"/")
	check(t, r, "", "*relurl check: 2 links not checked: -max-time ran out\n", exitTimeout)
	if !strings.Contains(r.stderr, "broken: 0 targets") {
		t.Errorf("pages in flight reported broken: %s", r.stderr)
	}
}

// TestCheckCache: a second run takes http results from the cache.
func TestCheckCache(t *testing.T) {
	var hits atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/page.html" {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<a href="/a">a</a> <a href="/b">b</a>`)
		}
	}))
	defer s.Close()
	cache := filepath.Join(t.TempDir(), "cache")
	for i, wantHits := range []int32{3, 1} {
		hits.Store(0)
		r := relurlRun(t, nil, "check", "-json", "-cache", cache, s.URL+"/page.html")
		if r.code != 0 || hits.Load() != wantHits {
			t.Errorf("run %d: exit %d, %d requests, want %d; %s", i+1, r.code, hits.Load(), wantHits, r.stderr)
		}
		if i == 1 && strings.Count(r.stdout, `"cached":true`) != 2 {
			t.Errorf("run 2 did not use the cache:\n%s", r.stdout)
		}
	}
}

// TestCheckHeadersAuthIgnore: -H and -auth reach the server, a
// User-Agent names relurl, and .relurlignore (or -ignore-file) excludes.
func TestCheckHeadersAuthIgnore(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page.html":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<a href="/private">p</a> <a href="/ignored/x">i</a>`)
		case "/private":
			user, pass, ok := r.BasicAuth()
			if !ok || user != "me" || pass != "secret" || r.Header.Get("X-Token") != "t 1" || !strings.HasPrefix(r.UserAgent(), "relurl-check/") {
				w.WriteHeader(http.StatusUnauthorized)
			}
		default:
			http.NotFound(w, r)
		}
	}))
	defer s.Close()
	host := strings.TrimPrefix(s.URL, "http://")
	ignore := filepath.Join(t.TempDir(), "ignore")
	os.WriteFile(ignore, []byte("# what not to check\n/ignored/\n"), 0o644)
	r := relurlRun(t, nil, "check", "-H", "X-Token: t 1", "-auth", host+"=me:secret", "-ignore-file", ignore, s.URL+"/page.html")
	check(t, r, "", "relurl check: 1 document, 2 links, 2 targets; broken: 0 targets, 0 links; skipped: 0 links; excluded: 1 link\n", 0)
	// Without them: the private page refuses, the ignored one is missing.
	r = relurlRun(t, nil, "check", "-ignore-file", filepath.Join(t.TempDir(), "none"), s.URL+"/page.html")
	check(t, r, "*", "relurl check: 1 document, 2 links, 2 targets; broken: 2 targets, 2 links; skipped: 0 links; excluded: 0 links\n", exitFound)
	os.WriteFile(ignore, []byte("(unclosed\n"), 0o644)
	r = relurlRun(t, nil, "check", "-ignore-file", ignore, s.URL+"/page.html")
	check(t, r, "", "relurl check: "+ignore+", line 1: error parsing regexp: missing closing ): `(unclosed`\n", 1)
}

// TestCheckRetriesDefault: a target that stays unavailable is tried 3 more
// times by default (not the 8 an archive gets), and -retries says otherwise.
func TestCheckRetriesDefault(t *testing.T) {
	var tries atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/page.html" {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<a href="/down">d</a>`)
			return
		}
		tries.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer s.Close()
	for _, tt := range []struct {
		args []string
		want int32
	}{{nil, 4}, {[]string{"-retries", "1"}, 2}} {
		tries.Store(0)
		r := relurlRun(t, nil, append(append([]string{"check"}, tt.args...), s.URL+"/page.html")...)
		if r.code != exitFound || tries.Load() != tt.want {
			t.Errorf("%v: exit %d, %d requests, want %d", tt.args, r.code, tries.Load(), tt.want)
		}
	}
}

// TestCheckHostilePage: a page on the web, or a record of an archive,
// that links to local files, sets a file: base, links out of a -map
// root, or redirects to file:, learns nothing of the machine from the
// report, and costs no waiting.
func TestCheckHostilePage(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.html")
	os.WriteFile(secret, []byte(`<p id="token">`), 0o644)
	root := filepath.Join(dir, "site")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "index.html"), []byte(`<a href="/..%2fsecret.html">out</a> <a href="/">in</a>`), 0o644)
	fileURL := "file://" + filepath.ToSlash(secret)
	page := `<a href="` + fileURL + `#token">a file</a>
<a href="` + fileURL + `x">none</a>
<a href="/tofile">redirect</a>
<a href="/hop0">five hops</a>`
	mux := http.NewServeMux()
	mux.HandleFunc("/page.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, page)
	})
	mux.HandleFunc("/based.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<base href="file://`+filepath.ToSlash(dir)+`/"><a href="secret.html#token">x</a>`)
	})
	mux.Handle("/tofile", http.RedirectHandler(fileURL, http.StatusFound))
	for i := range 5 {
		mux.Handle(fmt.Sprintf("/hop%d", i), http.RedirectHandler(fmt.Sprintf("/hop%d", i+1), http.StatusFound))
	}
	mux.HandleFunc("/hop5", func(w http.ResponseWriter, r *http.Request) {})
	s := httptest.NewServer(mux)
	defer s.Close()

	start := time.Now()
	r := relurlRun(t, nil, "check", "-json", "-max-redirects", "3", s.URL+"/page.html", s.URL+"/based.html")
	states := map[string]string{}
	for line := range strings.Lines(r.stdout) {
		var l struct{ Ref, State, Error string }
		json.Unmarshal([]byte(line), &l)
		states[l.Ref] = l.State + ": " + l.Error
		if strings.Contains(l.Error, "no such file") || strings.Contains(l.Error, "token") {
			t.Errorf("the report tells of a local file: %s", line)
		}
	}
	want := map[string]string{
		fileURL + "#token":  "skipped: a file: link in a document that is not a local file is not checked: a browser never lets a web page reach local files",
		fileURL + "x":       "skipped: a file: link in a document that is not a local file is not checked: a browser never lets a web page reach local files",
		"secret.html#token": "skipped: a file: link in a document that is not a local file is not checked: a browser never lets a web page reach local files",
		"/tofile":           "broken: " + s.URL + "/tofile redirects to " + fileURL + ": refused, a redirect is followed only to http and https",
		"/hop0":             "broken: more than 3 redirects",
	}
	for ref, w := range want {
		if states[ref] != w {
			t.Errorf("%s: %s\nwant %s", ref, states[ref], w)
		}
	}
	if r.code != exitFound {
		t.Errorf("exit %d, want %d", r.code, exitFound)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}

	// A local tree under -map: a link out of the root by %2f is not looked
	// up, and neither is the secret beside the root.
	r = relurlRun(t, nil, "check", "-offline", "-json", "-map", root+"=https://site.example/", root)
	if !strings.Contains(r.stdout, `"ref":"/..%2fsecret.html"`) || !strings.Contains(r.stdout, "its path leaves the mapped directory") || r.code != exitFound {
		t.Errorf("-map and ..%%2f: exit %d\n%s", r.code, r.stdout)
	}
}

// plantedTree writes a small site with planted breakage: a missing page
// and a missing fragment in index.html, and in docs/guide.html, reached
// only through index.html, a link out of the site's root.
func plantedTree(t *testing.T) string {
	site := t.TempDir()
	os.MkdirAll(filepath.Join(site, "docs"), 0o755)
	os.WriteFile(filepath.Join(site, "index.html"), []byte(`<a href="docs/guide.html">g</a> <a href="docs/guide.html#install">i</a>
<a href="docs/gone.html">gone</a> <a href="docs/guide.html#nowhere">n</a>
`), 0o644)
	os.WriteFile(filepath.Join(site, "docs", "guide.html"), []byte(`<h2 id=install>Install</h2> <a href="../index.html">home</a>
<a href="/docs/guide.html">root-relative</a> <a href="/">root</a> <a href="/../../etc/passwd">out</a>
`), 0o644)
	return site
}

// TestCheckLocalSite checks a tree of files as a new user does, with no
// flags: each file's base is its file: URL, so that only the planted
// breakage is reported; -root makes the tree a site's root, so that links
// to /docs/ are its files, and no link reaches outside it.
func TestCheckLocalSite(t *testing.T) {
	site := plantedTree(t)
	doc := func(name string) string { return "file://" + filepath.ToSlash(filepath.Join(site, name)) }

	// No flags: the relative links resolve as a browser opening the files
	// resolves them; root-relative ones point at the machine's root, where
	// /etc/passwd is, and / has no index.html.
	r := relurlRun(t, nil, "check", "-offline", "-json", site)
	var broken []string
	for line := range strings.Lines(r.stdout) {
		var l struct{ URL, State string }
		json.Unmarshal([]byte(line), &l)
		if l.State == "broken" {
			broken = append(broken, l.URL)
		}
	}
	want := []string{"file:///", "file:///docs/guide.html", doc("docs/gone.html"), doc("docs/guide.html") + "#nowhere"}
	slices.Sort(broken)
	if r.code != exitFound || !slices.Equal(broken, want) {
		t.Errorf("no flags: exit %d, broken %q, want %q", r.code, broken, want)
	}
	if strings.Contains(r.stderr, "hint") {
		t.Errorf("a hint with every link resolved: %s", r.stderr)
	}

	// -root: the tree is the site; /etc/passwd is the site's, not the
	// machine's.
	r = relurlRun(t, nil, "check", "-offline", "-root", site, site)
	wantText := "file:///etc/passwd: no such file: " + filepath.Join(site, "etc", "passwd") + "\n" +
		"  " + filepath.Join(site, "docs", "guide.html") + ":2:67 <a href=\"/../../etc/passwd\">\n" +
		"file:///docs/gone.html: no such file: " + filepath.Join(site, "docs", "gone.html") + "\n" +
		"  " + filepath.Join(site, "index.html") + ":2:1 <a href=\"docs/gone.html\">\n" +
		"file:///docs/guide.html#nowhere: no element with id or name \"nowhere\"\n" +
		"  " + filepath.Join(site, "index.html") + ":2:35 <a href=\"docs/guide.html#nowhere\">\n"
	check(t, r, wantText, "relurl check: 2 documents, 8 links, 7 targets; broken: 3 targets, 3 links; skipped: 0 links; excluded: 0 links\n", exitFound)

	// A document with no base at all (standard input without -url): the
	// summary says how to give it one.
	r = relurlRun(t, in(`<a href="x.html">x</a>`), "check", "-offline", "-")
	check(t, r, "*", "relurl check: 1 document, 1 link, 0 targets; broken: 0 targets, 1 link; skipped: 0 links; excluded: 0 links\n"+
		"relurl check: hint: 1 link could not be resolved, for want of a base URL: give the documents one with -map DIR=URL, -url URL or -root DIR\n", exitFound)
}

// TestCheckGitHubFormat: -format github puts an ::error workflow command
// at each broken link's file, line and column, escaped as GitHub's toolkit
// escapes them.
func TestCheckGitHubFormat(t *testing.T) {
	site := filepath.Join("..", "..", "testdata", "site")
	r := relurlRun(t, nil, "check", "-offline", "-format", "github", "-map", site+"=https://site.example/", site)
	page := filepath.ToSlash(filepath.Join(site, "index.html"))
	want := "::error file=" + page + ",line=3,col=37,title=broken link::guide.html#install (https://site.example/docs/guide.html#install): no element with id or name \"install\"\n" +
		"::error file=" + page + ",line=4,col=1,title=broken link::faq.html (https://site.example/docs/faq.html): no such file: " + filepath.Join(site, "docs", "faq.html") + "\n"
	check(t, r, want, "*", exitFound)
}

// TestCheckJUnitFormat reads -format junit back with junitparser, the
// Python library test reporters use: its suites, counts and failures are
// the check's. .ci/run installs it (RELURL_JUNITPARSER_PYTHON); elsewhere
// the test looks for it in python3, and skips without.
func TestCheckJUnitFormat(t *testing.T) {
	python := os.Getenv("RELURL_JUNITPARSER_PYTHON")
	if python == "" {
		python = "python3"
		if exec.Command(python, "-c", "import junitparser").Run() != nil {
			t.Skip("junitparser is not installed (pip install junitparser)")
		}
	}
	site := filepath.Join("..", "..", "testdata", "site")
	r := relurlRun(t, nil, "check", "-offline", "-format", "junit", "-map", site+"=https://site.example/", site)
	if r.code != exitFound {
		t.Fatalf("exit %d, %s", r.code, r.stderr)
	}
	path := filepath.Join(t.TempDir(), "report.xml")
	os.WriteFile(path, []byte(r.stdout), 0o644)
	const read = `
import sys
from junitparser import JUnitXml, Failure, Skipped
xml = JUnitXml.fromfile(sys.argv[1])
print(xml.tests, xml.failures, xml.errors, xml.skipped)
for suite in xml:
    print(suite.name, suite.tests, suite.failures, suite.errors, suite.skipped)
    for case in suite:
        for result in case.result:
            kind = "failure" if isinstance(result, Failure) else "skipped" if isinstance(result, Skipped) else type(result).__name__
            print(" ", case.name, kind, result.message)
`
	out, err := exec.Command(python, "-c", read, path).CombinedOutput()
	want := `6 2 0 1
https://site.example/docs/guide.html 1 0 0 0
https://site.example/index.html 5 2 0 1
  3:37 <a href="guide.html#install"> failure no element with id or name "install"
  4:1 <a href="faq.html"> failure no such file: ` + filepath.Join(site, "docs", "faq.html") + `
  6:1 <a href="mailto:team@site.example"> skipped mailto: links are not checked
`
	if err != nil || string(out) != want {
		t.Errorf("junitparser read:\n%s(%v)\nwant:\n%s", out, err, want)
	}
}

// TestCheckCrawl serves the planted tree over loopback and checks it as a
// site: -recursive finds what the start page alone does not lead to (the
// link out of the root in docs/guide.html), each page is read once, and
// what robots.txt disallows is left alone.
func TestCheckCrawl(t *testing.T) {
	site := plantedTree(t)
	os.WriteFile(filepath.Join(site, "robots.txt"), []byte("User-agent: *\nDisallow: /private/\n"), 0o644)
	os.MkdirAll(filepath.Join(site, "private"), 0o755)
	os.WriteFile(filepath.Join(site, "private", "index.html"), []byte(`<a href="nowhere.html">x</a>`), 0o644)
	os.WriteFile(filepath.Join(site, "docs", "more.html"), []byte(`<a href="../private/">private</a>`), 0o644)
	os.WriteFile(filepath.Join(site, "index.html"), append(must(os.ReadFile(filepath.Join(site, "index.html"))), `<a href="docs/more.html">more</a>`...), 0o644)
	var mu sync.Mutex
	gets := map[string]int{}
	files := http.FileServer(http.Dir(site))
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			mu.Lock()
			gets[r.URL.Path]++
			mu.Unlock()
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)

	// The start page alone: its two broken links.
	r := relurlRun(t, nil, "check", s.URL+"/index.html")
	check(t, r, "*", "relurl check: 1 document, 5 links, 5 targets; broken: 2 targets, 2 links; skipped: 0 links; excluded: 0 links\n", exitFound)
	clear(gets)

	// The site: the third, found in a page the start links to; the private
	// page checked by nobody, as robots.txt asks; /index.html, which the
	// server redirects to /, not read again.
	r = relurlRun(t, nil, "check", "-recursive", s.URL+"/")
	want := s.URL + "/docs/gone.html: 404 Not Found\n" +
		"  " + s.URL + "/:2:1 <a href=\"docs/gone.html\">\n" +
		s.URL + "/docs/guide.html#nowhere: no element with id or name \"nowhere\"\n" +
		"  " + s.URL + "/:2:35 <a href=\"docs/guide.html#nowhere\">\n" +
		s.URL + "/etc/passwd: 404 Not Found\n" +
		"  " + s.URL + "/docs/guide.html:2:67 <a href=\"/../../etc/passwd\">\n"
	check(t, r, want, "relurl check: 3 documents, 10 links, 9 targets; broken: 3 targets, 3 links; skipped: 0 links; excluded: 1 link\n", exitFound)
	for path, n := range gets {
		if n != 1 && path != "/robots.txt" {
			t.Errorf("GET %s: %d times", path, n)
		}
	}
	if gets["/private/"] != 0 {
		t.Error("robots.txt's Disallow was not honoured")
	}

	// -ignore-robots reads it; -crawl-depth 1 stops before docs/'s pages'
	// links; a start that is not a URL is a usage error.
	r = relurlRun(t, nil, "check", "-recursive", "-ignore-robots", s.URL+"/")
	check(t, r, "*", "relurl check: 4 documents, 11 links, 10 targets; broken: 4 targets, 4 links; skipped: 0 links; excluded: 0 links\n", exitFound)
	r = relurlRun(t, nil, "check", "-recursive", "-crawl-depth", "1", "-ignore-robots", s.URL+"/")
	check(t, r, "*", "relurl check: 3 pages in scope checked but not read: -crawl-depth or -max-pages\n"+
		"relurl check: 3 documents, 10 links, 9 targets; broken: 3 targets, 3 links; skipped: 0 links; excluded: 0 links\n", exitFound)
	// -scope narrows what is read to /private/, which the start does not
	// link to (the start is read whatever its scope), so guide.html's
	// breakage goes unseen;
	// -max-pages 1 reads the start alone and says what it left.
	r = relurlRun(t, nil, "check", "-recursive", "-ignore-robots", "-scope", s.URL+"/private/", s.URL+"/")
	check(t, r, "*", "relurl check: 1 document, 5 links, 5 targets; broken: 2 targets, 2 links; skipped: 0 links; excluded: 0 links\n", exitFound)
	r = relurlRun(t, nil, "check", "-recursive", "-max-pages", "1", s.URL+"/")
	check(t, r, "*", "relurl check: 3 pages in scope checked but not read: -crawl-depth or -max-pages\n"+
		"relurl check: 1 document, 5 links, 5 targets; broken: 2 targets, 2 links; skipped: 0 links; excluded: 0 links\n", exitFound)

	// -sitemap: a page no link leads to, listed in /sitemap.xml, is read,
	// and its broken link found.
	os.WriteFile(filepath.Join(site, "orphan.html"), []byte(`<a href="lost.html">lost</a>`), 0o644)
	os.WriteFile(filepath.Join(site, "sitemap.xml"), []byte(`<urlset><url><loc>`+s.URL+`/orphan.html</loc></url></urlset>`), 0o644)
	r = relurlRun(t, nil, "check", "-recursive", "-sitemap", "-json", s.URL+"/")
	if r.code != exitFound || !strings.Contains(r.stdout, `"url":"`+s.URL+`/lost.html"`) {
		t.Errorf("-sitemap: exit %d, the orphan's link not reported:\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = relurlRun(t, nil, "check", "-sitemap", s.URL+"/")
	if r.code != exitUsage || !strings.Contains(r.stderr, "-sitemap: only with -recursive") {
		t.Errorf("-sitemap alone: exit %d, %s", r.code, r.stderr)
	}
	r = relurlRun(t, nil, "check", "-recursive", site)
	if r.code != exitUsage || !strings.Contains(r.stderr, "-recursive crawls a site from its http or https URLs") {
		t.Errorf("-recursive DIR: exit %d, %s", r.code, r.stderr)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestCheckRepositoryTop: in a git repository, a root-relative link is the
// repository's file, as GitHub renders it (it read /sig-list.md against
// the file system's root), and check says which top it used; -root
// chooses another.
func TestCheckRepositoryTop(t *testing.T) {
	repo := tree(t, map[string]string{
		".git/HEAD":       "ref: refs/heads/main\n",
		"sig-list.md":     "# SIGs\n",
		"docs/README.md":  "See [the list](/sig-list.md) and [the guide](/docs/guide.md).\n",
		"docs/guide.md":   "# Guide\n",
		"docs/other/x.md": "[up](/sig-list.md)\n",
	})
	r := relurlRun(t, nil, "check", "-offline", filepath.Join(repo, "docs"))
	check(t, r, "", "relurl check: root-relative links resolve against the repository's top, "+repo+", as GitHub renders them (-root DIR for another)\n"+
		"relurl check: 3 documents, 3 links, 2 targets; broken: 0 targets, 0 links; skipped: 0 links; excluded: 0 links\n", exitOK)
	r = relurlRun(t, nil, "check", "-offline", "-root", filepath.Join(repo, "docs"), filepath.Join(repo, "docs"))
	if r.code != exitFound || strings.Contains(r.stderr, "repository's top") {
		t.Errorf("-root docs: exit %d, stderr %q; want the links to /sig-list.md broken under docs", r.code, r.stderr)
	}
}
