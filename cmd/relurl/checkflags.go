package main

import (
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/relurl/relurl/linkcheck"
)

// The syntax of check's flags, read into linkcheck.Options.

// addHeader adds -H's header, "Name: value" as curl's -H takes it, to
// send with every request.
func addHeader(o *linkcheck.Options, line string) error {
	name, value, ok := strings.Cut(line, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return errors.New(`want "Name: value"`)
	}
	if o.Header == nil {
		o.Header = http.Header{}
	}
	o.Header.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	return nil
}

// addAuth adds -auth's basic authentication for a host, given as
// "HOST=USER:PASSWORD".
func addAuth(o *linkcheck.Options, spec string) error {
	host, cred, ok1 := strings.Cut(spec, "=")
	user, pass, ok2 := strings.Cut(cred, ":")
	if !ok1 || !ok2 || host == "" {
		return errors.New("want HOST=USER:PASSWORD")
	}
	if o.Auth == nil {
		o.Auth = map[string][2]string{}
	}
	o.Auth[host] = [2]string{user, pass}
	return nil
}

// compilePatterns compiles -include's and -exclude's regular expressions.
func compilePatterns(patterns []string) ([]*regexp.Regexp, error) {
	var res []*regexp.Regexp
	for _, p := range patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, err
		}
		res = append(res, re)
	}
	return res, nil
}

// parseAge parses -max-cache-age: a Go duration, or days with "d" ("1d",
// "1.5d").
func parseAge(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil || n < 0 {
			return 0, errors.New("want a duration such as 1d, 12h or 30m")
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, errors.New("want a duration such as 1d, 12h or 30m")
	}
	return d, nil
}
