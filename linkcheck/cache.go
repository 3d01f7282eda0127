package linkcheck

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/relurl/relurl/internal/safefile"
	"github.com/relurl/relurl/source"
)

// A Cache keeps the results of http(s) targets between runs, in a file of
// JSON lines, so that a CI job run again checks only what changed or
// aged: a result older than MaxAge is checked again. Only definite
// results are kept: a link that works, and one broken by its status (404,
// 410, ...); a failure to connect or a timeout is checked every time.
//
// The file is input like any other, and may be damaged or written by
// something else: an entry whose state is not one Save writes, that lacks
// its URL or its time, or whose time is in the future, is not used (its
// target is checked again), and a file that is not JSON lines is named
// (Discarded) and rebuilt by Save.
type Cache struct {
	MaxAge time.Duration
	// Discarded says what of the file could not be read, and was left
	// out: nil when all of it was read.
	Discarded error
	path      string
	mu        sync.Mutex
	items     map[string]cached
}

type cached struct {
	URL     string    `json:"url"`
	Checked time.Time `json:"checked"`
	State   string    `json:"state"`
	Status  int       `json:"status"`
	Err     string    `json:"error,omitempty"`
}

// OpenCache reads the cache file path; a file that does not exist is an
// empty cache. An error is one of reading the file; what of it could not
// be understood is the Cache's Discarded.
func OpenCache(path string, maxAge time.Duration) (*Cache, error) {
	items, discarded, err := readCache(path)
	if err != nil {
		return nil, err
	}
	return &Cache{MaxAge: maxAge, Discarded: discarded, path: path, items: items}, nil
}

// readCache reads the items of a cache file, none if it does not exist.
// Reading stops at a line that is not an item's JSON, and the second
// error says where: the rest is discarded.
func readCache(path string) (items map[string]cached, discarded, err error) {
	items = map[string]cached{}
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		// A FIFO would hold the run until a writer came, a device
		// (/dev/zero) never end; and saving could not replace either.
		return nil, nil, fmt.Errorf("%s: not a regular file (%v): a cache is one", path, info.Mode().Type())
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return items, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var it cached
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			return items, fmt.Errorf("%s, line %d: not a cache entry (%v): it and the lines after it are discarded, and checked again", path, n, err), nil
		}
		items[it.URL] = it
	}
	if err := sc.Err(); err != nil {
		return items, fmt.Errorf("%s: %v: the rest is discarded, and checked again", path, err), nil
	}
	return items, nil, nil
}

// clockSkew is how far in the future an entry's time may be, written by
// a machine whose clock is a little ahead.
const clockSkew = 5 * time.Minute

// usable reports whether an entry can stand for a check made now.
func (it cached) usable(maxAge time.Duration) bool {
	age := time.Since(it.Checked)
	return it.URL != "" && !it.Checked.IsZero() && age >= -clockSkew && age <= maxAge &&
		(it.State == OK.String() || it.State == Broken.String()) && it.Status >= 0 && it.Status <= 999
}

func (c *Cache) get(u string) (Result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.items[u]
	if !ok || !it.usable(c.MaxAge) {
		return Result{}, false
	}
	r := Result{Status: it.Status}
	if it.Err != "" {
		r.Err = errors.New(it.Err) // kept as text
	}
	if it.State == Broken.String() {
		r.State = Broken
	}
	return r, true
}

func (c *Cache) put(u string, r Result) {
	if r.State == Broken && r.Status == 0 || r.State != OK && r.State != Broken || source.TransientStatus(r.Status) || r.Status >= 500 {
		return // not a definite result
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[u] = cached{URL: u, Checked: time.Now().UTC(), State: r.State.String(), Status: r.Status, Err: errText(r.Err)}
}

// Save writes the cache back to its file. Runs may share a file (CI jobs
// in parallel): Save holds a lock file beside it (FILE.lock) while it
// reads what is there now, keeps the newer result of each URL, and
// replaces the file whole by renaming a complete new one over it. So both
// runs' results are kept, and a reader never sees half a file.
func (c *Cache) Save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	unlock, err := lockFile(c.path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	onDisk, _, err := readCache(c.path)
	if err != nil {
		return err
	}
	for u, it := range onDisk {
		if mine, ok := c.items[u]; !ok || it.Checked.After(mine.Checked) {
			c.items[u] = it
		}
	}
	f, err := safefile.Create(c.path) // whole or not at all, its mode kept
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	urls := slices.Sorted(maps.Keys(c.items))
	for _, u := range urls {
		if it := c.items[u]; it.usable(c.MaxAge) {
			enc.Encode(it)
		}
	}
	if err := w.Flush(); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// lockWait is how long Save waits for another run's lock, and lockStale
// the age at which a lock is taken to be left by a run that died.
const (
	lockWait  = 30 * time.Second
	lockStale = 2 * time.Minute
)

// lockFile takes the lock file name, made with O_EXCL, which works on every
// system and file system, waiting for another holder; and returns what
// releases it.
func lockFile(name string) (func(), error) {
	deadline := time.Now().Add(lockWait)
	for {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(name) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if fi, err := os.Stat(name); err == nil && time.Since(fi.ModTime()) > lockStale {
			os.Remove(name)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: another run holds the lock for over %v (remove the file if no run is going on)", name, lockWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
