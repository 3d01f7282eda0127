package check

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// AddHeader adds a header to send with every request, given as "Name:
// value", as curl's -H takes it.
func (o *Options) AddHeader(line string) error {
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

// AddAuth adds basic authentication for a host, given as
// "HOST=USER:PASSWORD".
func (o *Options) AddAuth(spec string) error {
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

// CompilePatterns compiles regular expressions for Options.Include and
// Options.Exclude.
func CompilePatterns(patterns []string) ([]*regexp.Regexp, error) {
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

// ReadIgnoreFile reads the patterns of an ignore file (.relurlignore), one
// regular expression a line, "#" starting a comment line; a file that does
// not exist holds none. An error names the file and the line.
func ReadIgnoreFile(name string) ([]*regexp.Regexp, error) {
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var res []*regexp.Regexp
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		re, err := regexp.Compile(line)
		if err != nil {
			return nil, fmt.Errorf("%s, line %d: %v", name, n, err)
		}
		res = append(res, re)
	}
	return res, sc.Err()
}

// ParseAge parses the age of a cached result (OpenCache's maxAge): a Go
// duration, or days with "d" ("1d", "1.5d").
func ParseAge(s string) (time.Duration, error) {
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
