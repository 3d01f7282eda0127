package linkcheck

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/relurl/relurl/internal/capped"
)

// The bounds of the sitemaps protocol (sitemaps.org): a sitemap or a
// sitemap index holds at most 50,000 URLs and 50 MB, uncompressed.
const (
	sitemapMaxURLs = 50_000
	sitemapMaxSize = 50 << 20
)

// SitemapCounts say what a crawl did with the sitemaps of its starts.
type SitemapCounts struct {
	Read    int // sitemaps and sitemap indexes read
	Partly  int // of them, read in part: past 50 MB or 50,000 URLs, or stopped at MaxPages
	NotRead int // listed but not read: MaxPages was reached first
	Failed  int // could not be read; the crawl's Errors say why
	URLs    int // page URLs listed in the sitemaps read
	// OutOfScope counts the listed URLs outside the scope, which are not
	// read; PastLimit those past a sitemap's 50,000, which are not taken.
	OutOfScope, PastLimit int
}

func (c *SitemapCounts) add(d SitemapCounts) {
	c.Read += d.Read
	c.Partly += d.Partly
	c.NotRead += d.NotRead
	c.Failed += d.Failed
	c.URLs += d.URLs
	c.OutOfScope += d.OutOfScope
	c.PastLimit += d.PastLimit
}

// sitemapPages reads the sitemaps of start: those its robots.txt names,
// else /sitemap.xml; a sitemap index is followed one level down, as the
// protocol has it. Each page URL listed is handed to add with the sitemap
// and where in it the URL is, and add reports whether it is in scope; once
// full reports that no more pages will be read, reading stops and what is
// left is counted. A sitemap is streamed, gzip or not, and read up to the
// protocol's bounds. A sitemap that cannot be read is an error in errs; no
// sitemap at all is one too.
func (rc *robotsCache) sitemapPages(ctx context.Context, start string, add func(sitemap, u string, line, col int) bool, full func() bool, errs *[]error) SitemapCounts {
	var n SitemapCounts
	p, err := url.Parse(start)
	if err != nil {
		return n
	}
	type sitemap struct {
		loc   string
		index bool // named by an index: not an index itself
	}
	var maps []sitemap
	if e := rc.entry(ctx, p); e.data != nil {
		for _, m := range e.data.Sitemaps {
			maps = append(maps, sitemap{loc: m})
		}
	}
	fallback := len(maps) == 0
	if fallback {
		maps = []sitemap{{loc: p.Scheme + "://" + p.Host + "/sitemap.xml"}}
	}
	for i := 0; i < len(maps); i++ {
		if full() {
			n.NotRead += len(maps) - i
			break
		}
		sm := maps[i]
		var children []string
		listed := 0
		read, err := rc.sitemap(ctx, sm.loc, func(loc string, isIndex bool, line, col int) bool {
			switch {
			case isIndex && sm.index:
				return true // an index in an index: the protocol has none
			case isIndex:
				children = append(children, loc)
				return len(children) < sitemapMaxURLs
			}
			if listed++; listed > sitemapMaxURLs {
				n.PastLimit++
				return true
			}
			n.URLs++
			if !add(sm.loc, loc, line, col) {
				n.OutOfScope++
			}
			return !full()
		})
		switch {
		case err != nil && fallback && i == 0 && errors.Is(err, errNoSitemap):
			*errs = append(*errs, fmt.Errorf("%s: 404 Not Found: the site has no sitemap there, and robots.txt names none", sm.loc))
			n.Failed++
			return n
		case errors.Is(err, errStopped):
			n.Partly++
		case err != nil && !read:
			*errs = append(*errs, fmt.Errorf("sitemap %s: %w", sm.loc, err))
			n.Failed++
			continue
		case err != nil:
			*errs = append(*errs, fmt.Errorf("sitemap %s: %w: the URLs before it are taken", sm.loc, err))
			n.Partly++
		}
		n.Read++
		for _, c := range children {
			maps = append(maps, sitemap{loc: c, index: true})
		}
	}
	return n
}

var errNoSitemap = errors.New("404 Not Found")

// errStopped is the error of a sitemap whose reading was stopped by its
// reader: a bound, or no more pages to read.
var errStopped = errors.New("stopped")

// sitemap streams the sitemap or sitemap index at loc, handing each <loc>
// of a <url> or <sitemap> to each, with the line and column where it
// starts, until each returns false. read reports whether any of it was
// read; err says why not all of it was.
func (rc *robotsCache) sitemap(ctx context.Context, loc string, each func(loc string, index bool, line, col int) bool) (read bool, err error) {
	resp, err := rc.c.do(ctx, http.MethodGet, loc)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return false, errNoSitemap
	case resp.StatusCode != http.StatusOK:
		return false, errors.New(resp.Status)
	}
	var r io.Reader = bufio.NewReader(resp.Body)
	if magic, _ := r.(*bufio.Reader).Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		// sitemap.xml.gz; a Content-Encoding: gzip the transport removed.
		gz, err := gzip.NewReader(r)
		if err != nil {
			return false, err
		}
		r = gz
	}
	limited := capped.New(r, sitemapMaxSize)
	d := xml.NewDecoder(limited)
	var (
		path      []string // the elements open: urlset, url, loc
		text      strings.Builder
		urls      int
		line, col int // where the <loc> read starts
	)
	for {
		l, c := d.InputPos() // where the next token starts
		tok, err := d.Token()
		if err == io.EOF {
			if limited.Over {
				return true, fmt.Errorf("longer than %d MB, the protocol's bound: read in part", sitemapMaxSize>>20)
			}
			return true, nil
		}
		if err != nil {
			if limited.Over {
				return true, fmt.Errorf("longer than %d MB, the protocol's bound: read in part", sitemapMaxSize>>20)
			}
			return urls > 0, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			path = append(path, t.Name.Local)
			text.Reset()
			line, col = l, c
		case xml.CharData:
			if len(path) == 3 && path[2] == "loc" && text.Len() < 64<<10 {
				text.Write(t)
			}
		case xml.EndElement:
			if len(path) == 3 && path[2] == "loc" && (path[1] == "url" || path[1] == "sitemap") {
				urls++
				if !each(strings.TrimSpace(text.String()), path[1] == "sitemap", line, col) {
					return true, errStopped
				}
			}
			path = path[:max(len(path)-1, 0)]
		}
	}
}
