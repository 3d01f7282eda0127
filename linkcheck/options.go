package linkcheck

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"
)

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
