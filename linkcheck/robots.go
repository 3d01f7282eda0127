package linkcheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/relurl/relurl/source"
	"github.com/temoto/robotstxt"
)

// robotsCache asks each origin's robots.txt once, for the pages a crawl
// reads, as RFC 9309 (the Robots Exclusion Protocol) has a crawler do.
type robotsCache struct {
	c      *checker
	ignore bool
	mu     sync.Mutex
	hosts  map[string]*robotsEntry
}

type robotsEntry struct {
	once  sync.Once
	group *robotstxt.Group      // nil: every page is allowed
	data  *robotstxt.RobotsData // nil when no robots.txt was read
	// deny, when set, says why every page of the origin is disallowed:
	// its robots.txt could not be reached.
	deny string
	// cut, when set, says that its robots.txt was longer than a crawler
	// reads: the rules past the bound were not applied.
	cut string
}

// robotsAgent is the token relurl's User-Agent is matched by in
// robots.txt.
const robotsAgent = "relurl-check"

// RFC 9309's numbers: a crawler follows at least five redirects to a
// robots.txt, and reads at least 500 kibibytes of it.
const (
	robotsRedirects = 5
	robotsMaxSize   = 500 << 10
)

func (rc *robotsCache) entry(ctx context.Context, u *url.URL) *robotsEntry {
	origin := u.Scheme + "://" + u.Host
	rc.mu.Lock()
	e := rc.hosts[origin]
	if e == nil {
		e = &robotsEntry{}
		rc.hosts[origin] = e
	}
	rc.mu.Unlock()
	e.once.Do(func() { rc.fetch(ctx, origin, e) })
	return e
}

// fetch reads origin's robots.txt into e, as RFC 9309, Section 2.3.1
// says: its redirects followed, five at most (2.3.1.2); an answer 4xx
// ("unavailable") allows every page (2.3.1.3); 5xx, 429, a network error
// or a time-out ("unreachable") disallows every page (2.3.1.4), after
// the retries of Options.Retry. The whole fetch, retries and body
// included, takes at most Options.Timeout: a server that sends a byte a
// second does not hold the crawl.
func (rc *robotsCache) fetch(ctx context.Context, origin string, e *robotsEntry) {
	ctx, cancel := context.WithTimeout(ctx, rc.c.o.Timeout)
	defer cancel()
	u := origin + "/robots.txt"
	unreachable := func(why string) {
		e.deny = fmt.Sprintf("%s %s: the site's pages are not read, as RFC 9309 has a crawler do when robots.txt cannot be reached (-ignore-robots reads them)", u, why)
	}
	for hops := 0; ; hops++ {
		resp, err := rc.c.do(ctx, http.MethodGet, u)
		if err != nil {
			if ctx.Err() != nil {
				err = fmt.Errorf("no whole answer within %v", rc.c.o.Timeout)
			}
			var status interface{ HTTPStatus() int }
			if errors.As(err, &status) && status.HTTPStatus() >= 400 && status.HTTPStatus() < 500 && status.HTTPStatus() != http.StatusTooManyRequests {
				return // unavailable: no rules
			}
			unreachable(err.Error())
			return
		}
		code := resp.StatusCode
		switch {
		case code >= 300 && code < 400 && resp.Header.Get("Location") != "":
			resp.Body.Close()
			next, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
			if err != nil || source.CheckRedirectScheme(u, next) != nil || hops == robotsRedirects {
				return // a redirect that cannot be followed: unavailable, no rules
			}
			u = next.String()
			continue
		case code >= 500:
			resp.Body.Close()
			unreachable(resp.Status)
			return
		case code >= 300:
			resp.Body.Close()
			return // unavailable: no rules
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, robotsMaxSize+1))
		resp.Body.Close()
		if err != nil {
			if ctx.Err() != nil {
				err = fmt.Errorf("no whole answer within %v", rc.c.o.Timeout)
			}
			unreachable(err.Error())
			return
		}
		if len(body) > robotsMaxSize {
			// Read to the bound, a line cut there is no rule: the
			// rules are those of the whole lines before it.
			body = body[:bytes.LastIndexByte(body[:robotsMaxSize], '\n')+1]
			e.cut = fmt.Sprintf("%s is longer than the %d KiB that RFC 9309 has a crawler read: the rules of its first %d bytes (its whole lines) apply, the rest were not read", u, robotsMaxSize>>10, len(body))
		}
		if data, err := robotstxt.FromBytes(body); err == nil {
			e.data, e.group = data, data.FindGroup(robotsAgent)
		}
		return
	}
}

// denied returns, for each origin whose robots.txt could not be reached,
// why its pages were not read, and for each whose robots.txt was cut, that
// its rules were read in part.
func (rc *robotsCache) denied() []error {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var errs []error
	for _, e := range rc.hosts {
		if e.deny != "" {
			errs = append(errs, errors.New(e.deny))
		}
		if e.cut != "" {
			errs = append(errs, errors.New(e.cut))
		}
	}
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return errs
}

// allowed reports whether robots.txt lets relurl read u, and if not why,
// and whether that is because it could not be reached.
func (rc *robotsCache) allowed(ctx context.Context, u string) (ok bool, why string, unreachable bool) {
	p, err := url.Parse(u)
	if rc.ignore || err != nil || (p.Scheme != "http" && p.Scheme != "https") {
		return true, "", false
	}
	e := rc.entry(ctx, p)
	switch {
	case e.deny != "":
		return false, e.deny, true
	case e.group != nil && !e.group.Test(p.RequestURI()):
		return false, "robots.txt disallows it", false
	}
	return true, "", false
}
