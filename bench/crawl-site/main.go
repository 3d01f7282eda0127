// Command crawl-site serves a generated site on loopback for crawl
// benchmarks: -pages pages of -links links each, every page reachable
// from / (page i links to i+1, 2i+1 and 2i+2 among others), with planted
// breakage: every 500th page links to a missing page and to a fragment
// that is not there. It prints the site's URL, then serves until killed;
// -urls FILE writes every page's URL, one a line, for checkers that do
// not crawl.
//
//	crawl-site [-pages 10000] [-links 10] [-urls FILE]
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
)

func main() {
	pages := flag.Int("pages", 10000, "pages in the site")
	perPage := flag.Int("links", 10, "links on each page")
	urls := flag.String("urls", "", "write every page's URL to this `file`")
	flag.Parse()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	site := "http://" + ln.Addr().String()
	if *urls != "" {
		var b strings.Builder
		for i := range *pages {
			fmt.Fprintf(&b, "%s%s\n", site, path(i))
		}
		if err := os.WriteFile(*urls, []byte(b.String()), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(site + "/")
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nAllow: /\n")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		i, ok := pageOf(r.URL.Path, *pages)
		if !ok {
			w.Header().Set("LinkChecker", "allow")
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		// LinkChecker sends more than 10 requests a second to a host
		// only when the host says it may, so.
		w.Header().Set("LinkChecker", "allow")
		w.Write(page(i, *pages, *perPage))
	})
	log.Fatal(http.Serve(ln, mux))
}

// path is page i's path: / for the first.
func path(i int) string {
	if i == 0 {
		return "/"
	}
	return "/p/" + strconv.Itoa(i) + ".html"
}

func pageOf(p string, n int) (int, bool) {
	if p == "/" {
		return 0, true
	}
	s, ok := strings.CutPrefix(p, "/p/")
	if !ok {
		return 0, false
	}
	s, ok = strings.CutSuffix(s, ".html")
	i, err := strconv.Atoi(s)
	return i, ok && err == nil && i > 0 && i < n && strconv.Itoa(i) == s
}

// page is page i: its links, relative as a site's are, some with a
// fragment that is there.
func page(i, n, perPage int) []byte {
	b := fmt.Appendf(nil, "<!doctype html><title>page %d</title><h1 id=top>Page %d</h1><h2 id=s%d>Section</h2><ul>\n", i, i, i)
	targets := []int{(i + 1) % n, (2*i + 1) % n, (2*i + 2) % n}
	for k := len(targets); k < perPage; k++ {
		targets = append(targets, (i*7919+k*104729)%n)
	}
	for k, t := range targets[:perPage] {
		frag := ""
		if k%4 == 3 {
			frag = "#s" + strconv.Itoa(t)
		}
		href := path(t)
		if t != 0 {
			href = "/p/" + strconv.Itoa(t) + ".html"
			if i != 0 {
				href = strconv.Itoa(t) + ".html" // relative, from /p/
			}
		}
		b = fmt.Appendf(b, "<li><a href=\"%s%s\">to %d</a>\n", href, frag, t)
	}
	if i%500 == 250 { // the planted breakage
		b = fmt.Appendf(b, "<li><a href=\"/missing/%d.html\">missing</a>\n<li><a href=\"%s#nope\">no such fragment</a>\n", i, path((i+1)%n))
	}
	return append(b, "</ul>\n"...)
}
