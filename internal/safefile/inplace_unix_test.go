//go:build unix

package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// What is not a regular file is written in place, never replaced: a FIFO
// (its reader gets the bytes), a link to one, a device node (as root).
func TestNotRegularWrittenInPlace(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(fifo, link)
	for _, path := range []string{fifo, link} {
		got := make(chan string)
		go func() {
			data, _ := os.ReadFile(fifo)
			got <- string(data)
		}()
		if err := WriteFile(path, []byte("through the pipe")); err != nil {
			t.Fatal(err)
		}
		if s := <-got; s != "through the pipe" {
			t.Errorf("%s: the reader got %q", path, s)
		}
		if info, _ := os.Lstat(fifo); info.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("%s: the FIFO was replaced: %v", path, info.Mode())
		}
	}
	if info, _ := os.Lstat(link); info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link to the FIFO was replaced")
	}
	// A device node: the null device, made here so that the real /dev is
	// never at stake.
	null := filepath.Join(dir, "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		if os.Geteuid() == 0 {
			t.Fatal(err)
		}
		t.Logf("no device node made (not root): %v", err)
		return
	}
	if err := WriteFile(null, []byte("gone")); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Lstat(null); info.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("the device node was replaced: %v", info.Mode())
	}
	if err := WriteFile(dir, []byte("x")); err == nil {
		t.Errorf("a directory was written")
	}
}
