package check

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"
)

// A Cache keeps the results of http(s) targets between runs, in a file of
// JSON lines, so that a CI job run again checks only what changed or
// aged: a result older than MaxAge is checked again. Only definite
// results are kept: a link that works, and one broken by its status (404,
// 410, ...); a failure to connect or a timeout is checked every time.
type Cache struct {
	MaxAge time.Duration
	path   string
	mu     sync.Mutex
	items  map[string]cached
}

type cached struct {
	URL     string    `json:"url"`
	Checked time.Time `json:"checked"`
	State   string    `json:"state"`
	Status  int       `json:"status"`
	Err     string    `json:"error,omitempty"`
}

// OpenCache reads the cache file path; a file that does not exist is an
// empty cache.
func OpenCache(path string, maxAge time.Duration) (*Cache, error) {
	c := &Cache{MaxAge: maxAge, path: path, items: map[string]cached{}}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var it cached
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			return nil, fmt.Errorf("%s, line %d: %v", path, n, err)
		}
		c.items[it.URL] = it
	}
	return c, sc.Err()
}

func (c *Cache) get(u string) (Result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.items[u]
	if !ok || time.Since(it.Checked) > c.MaxAge {
		return Result{}, false
	}
	r := Result{Status: it.Status, Err: it.Err}
	if it.State == Broken.String() {
		r.State = Broken
	}
	return r, true
}

func (c *Cache) put(u string, r Result) {
	if r.State == Broken && r.Status == 0 || r.State != OK && r.State != Broken || r.Status == 429 || r.Status >= 500 {
		return // not a definite result
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[u] = cached{URL: u, Checked: time.Now().UTC(), State: r.State.String(), Status: r.Status, Err: r.Err}
}

// Save writes the cache back to its file, replacing it whole.
func (c *Cache) Save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	tmp := c.path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, it := range c.items {
		if time.Since(it.Checked) <= c.MaxAge {
			enc.Encode(it)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, c.path)
}
