package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/relurl/relurl/internal/clitest"
)

// A browserSite serves trees of documents to headless Chromium at the URLs
// they have on the web (https://docs.python.org/3.11/ and the like, which
// Chromium is told to find on loopback, and nothing else beyond it; and to
// a crawler that takes it for its HTTP proxy) or on a loopback origin of
// its own, and reads, for each document, the URLs of
// its links as Chromium resolves them: each is loaded in an iframe of a
// harness page on its origin, which runs collect (browser_test.go) on it
// and posts the result back.
type browserSite struct {
	t          *testing.T
	chromium   string
	tls, plain *httptest.Server
	trees      []servedTree
	// stubs makes a missing file under a tree a stub page, for a crawler
	// to fetch: the targets of links exist.
	stubs bool
	// emptySheets serves each style sheet of the trees empty: collect
	// reads <style> and style attributes, not the sheets a page links
	// to, which Chromium would fetch and parse for each page.
	emptySheets bool
	// noScripts serves the trees' pages with a Content-Security-Policy
	// that runs none of their scripts. The parser still parses as with
	// scripting on (<noscript> is raw text, as relurl reads it), but the
	// pages' own scripts, which take most of Chromium's time on the
	// 1,699 pages and change no link of the markup, do not run.
	noScripts bool

	mu      sync.Mutex
	lists   map[string][]harnessPage // by origin: what its harness loads
	results map[string][]string      // by page URL
	done    map[string]chan struct{} // by origin: closed when its harness ends
}

// A servedTree is the directory whose files a URL prefix serves.
type servedTree struct{ prefix, dir string }

// A harnessPage is one page the harness loads. A page with Refresh set
// reports where its meta refresh took the iframe, not its links.
type harnessPage struct {
	URL     string `json:"url"`
	Refresh bool   `json:"refresh"`
}

// newBrowserSite starts the site's two servers, an HTTPS one for the
// https: hosts of the web and a plain one, 127.0.0.1 itself, for http:
// hosts and as a proxy. It skips the test
// when Debian's chromium package is not installed.
func newBrowserSite(t *testing.T) *browserSite {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("headless Chromium is not installed (apt-get install chromium)")
	}
	s := &browserSite{t: t, chromium: chromium, lists: map[string][]harnessPage{}, results: map[string][]string{}, done: map[string]chan struct{}{}}
	s.tls = httptest.NewUnstartedServer(s)
	// Chromium closes connections it opened ahead; the handshakes it
	// leaves are not the test's failures.
	s.tls.Config.ErrorLog = log.New(io.Discard, "", 0)
	s.tls.StartTLS()
	s.plain = httptest.NewServer(s)
	t.Cleanup(s.tls.Close)
	t.Cleanup(s.plain.Close)
	return s
}

// serve makes the URL prefix (an https: one on any host, or one under
// s.plain.URL) serve the files below dir.
func (s *browserSite) serve(prefix, dir string) {
	s.trees = append(s.trees, servedTree{prefix, dir})
}

// harnessJS loads each page of the origin's list in an iframe and posts
// what collect gives for it, or, for a page with a meta refresh, the URL
// its iframe went to.
const harnessJS = `(async () => {
  const pages = await (await fetch("/__pages")).json();
  let next = 0;
  const worker = async () => {
    // Hidden, the page is parsed and its style sheets read, but not laid
    // out: links do not need it.
    const f = document.createElement("iframe");
    f.style.display = "none";
    document.body.append(f);
    while (next < pages.length) {
      const p = pages[next++];
      await new Promise(done => { f.onload = done; f.src = p.url; });
      let urls;
      if (p.refresh) {
        for (let i = 0; i < 100 && f.contentWindow.location.href === p.url; i++) await new Promise(r => setTimeout(r, 50));
        urls = ["refresh: " + f.contentWindow.location.href];
      } else {
        const d = f.contentDocument;
        // A template's contents are a document fragment; a script that
        // uses them puts a copy in the document, where its links resolve.
        // (An SVG <template> is no template: it has no contents.)
        try {
          for (const t of d.querySelectorAll("template")) if (t.content) d.body.append(d.importNode(t.content, true));
          urls = collect(d);
        } catch (e) { urls = ["error: " + e]; }
      }
      await fetch("/__result", {method: "POST", body: JSON.stringify({page: p.url, urls})});
    }
  };
  // Eight pages at a time: a page's load waits on its requests more than
  // on the cores.
  await Promise.all(Array.from({length: 8}, worker));
  await fetch("/__done");
})();`

func (s *browserSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	origin := scheme + "://" + r.Host
	switch r.URL.Path {
	case "/__harness":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!doctype html><title>harness</title><body><script>"+collectJS+"\n"+harnessJS+"</script>")
		return
	case "/__pages":
		s.mu.Lock()
		defer s.mu.Unlock()
		json.NewEncoder(w).Encode(s.lists[origin])
		return
	case "/__result":
		var res struct {
			Page string
			URLs []string
		}
		if err := json.NewDecoder(r.Body).Decode(&res); err != nil {
			s.t.Errorf("the harness posted a result that is not JSON: %v", err)
		}
		s.mu.Lock()
		s.results[res.Page] = res.URLs
		s.mu.Unlock()
		return
	case "/__done":
		s.mu.Lock()
		close(s.done[origin])
		s.mu.Unlock()
		return
	}
	u := origin + r.URL.Path
	for _, tree := range s.trees {
		if rest, ok := strings.CutPrefix(u, tree.prefix); ok {
			b, err := os.ReadFile(filepath.Join(tree.dir, filepath.FromSlash(rest)))
			if err != nil {
				break
			}
			if s.emptySheets && strings.HasSuffix(rest, ".css") {
				b = nil
			}
			// No charset: each document's own <meta> says it, as it
			// says it to relurl.
			if strings.HasSuffix(rest, ".css") {
				// A page's style sheets are the site's: fetched and
				// parsed once, not for each page.
				w.Header().Set("Cache-Control", "max-age=3600")
				w.Header().Set("Content-Type", "text/css")
			} else {
				w.Header().Set("Content-Type", "text/html")
				if s.noScripts {
					w.Header().Set("Content-Security-Policy", "script-src 'none'")
				}
			}
			w.Write(b)
			return
		}
	}
	if s.stubs && s.under(u) {
		io.WriteString(w, "<!doctype html><title>stub</title>")
		return
	}
	http.NotFound(w, r)
}

// under reports whether u is under one of the served trees.
func (s *browserSite) under(u string) bool {
	for _, tree := range s.trees {
		if strings.HasPrefix(u, tree.prefix) {
			return true
		}
	}
	return false
}

// run runs one Chromium on the harness of origin until the harness ends,
// and returns what went wrong, if anything.
func (s *browserSite) run(origin string, rules []string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--ignore-certificate-errors", "--host-resolver-rules="+strings.Join(rules, ", "),
		"--blink-settings=imagesEnabled=false", // an image's URL is its src: nothing to fetch
		"--user-data-dir="+s.t.TempDir(), origin+"/__harness")
	cmd.Stderr = io.Discard
	clitest.StopWithTest(cmd)
	if err := cmd.Start(); err != nil {
		return "chromium: " + err.Error()
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	s.mu.Lock()
	done := s.done[origin]
	s.mu.Unlock()
	defer func() {
		cancel()
		<-exited
	}()
	select {
	case <-done:
		return ""
	case err := <-exited:
		return fmt.Sprintf("chromium ended before the harness at %s did: %v", origin, err)
	case <-ctx.Done():
		return "the harness at " + origin + " did not end in 10 minutes"
	}
}

// isLoopback reports whether host (with its port) names this machine.
func isLoopback(host string) bool {
	return strings.HasPrefix(host, "127.0.0.1:") || strings.HasPrefix(host, "localhost:")
}

// load has Chromium load each page, an instance of it for each origin
// (whose pages share one renderer process, and so one core), one for each
// core at a time, and returns the URLs of each page's links as Chromium
// resolved them, by page URL.
func (s *browserSite) load(pages []harnessPage) map[string][]string {
	s.t.Helper()
	var origins []string
	s.mu.Lock()
	clear(s.lists)
	for _, p := range pages {
		i := strings.Index(p.URL, "://")
		origin := p.URL[:i+3+strings.IndexByte(p.URL[i+3:], '/')]
		if s.lists[origin] == nil {
			origins = append(origins, origin)
			s.done[origin] = make(chan struct{})
		}
		s.lists[origin] = append(s.lists[origin], p)
	}
	s.mu.Unlock()
	// Every host of the web Chromium is sent to is this site's server;
	// any other host is not found, so that nothing leaves the machine,
	// whatever the pages load.
	var rules []string
	for _, tree := range s.trees {
		scheme, host, _ := strings.Cut(tree.prefix, "://")
		host = host[:strings.IndexByte(host, '/')]
		switch {
		case scheme == "https":
			rules = append(rules, "MAP "+host+" "+s.tls.Listener.Addr().String())
		case !isLoopback(host):
			rules = append(rules, "MAP "+host+" "+s.plain.Listener.Addr().String())
		}
	}
	rules = append(rules, "MAP * ~NOTFOUND", "EXCLUDE 127.0.0.1", "EXCLUDE localhost")
	errs := make(chan string, len(origins))
	cores := make(chan struct{}, len(origins))
	var wg sync.WaitGroup
	for _, origin := range origins {
		wg.Go(func() {
			cores <- struct{}{}
			defer func() { <-cores }()
			if err := s.run(origin, rules); err != "" {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		s.t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string][]string, len(pages))
	for _, p := range pages {
		urls, ok := s.results[p.URL]
		if !ok {
			s.t.Fatalf("the harness gave nothing for %s", p.URL)
		}
		out[p.URL] = urls
	}
	return out
}
