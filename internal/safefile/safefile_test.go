package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// files lists the names in dir, hidden ones too.
func files(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestCreateCommitAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("half"))
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the name exists before Commit: %v", err)
	}
	f.Abort()
	if got := files(t, dir); len(got) != 0 {
		t.Fatalf("after Abort the directory holds %q", got)
	}

	if err := WriteFile(path, []byte("whole")); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o644 {
		t.Errorf("a new file's mode is %v, want 0644", info.Mode().Perm())
	}
	os.Chmod(path, 0o640)
	if err := WriteFile(path, []byte("again")); err != nil {
		t.Fatal(err)
	}
	info, _ = os.Stat(path)
	data, _ := os.ReadFile(path)
	if info.Mode().Perm() != 0o640 || string(data) != "again" {
		t.Errorf("replaced: mode %v, data %q; want 0640, again", info.Mode().Perm(), data)
	}
	if got := files(t, dir); len(got) != 1 {
		t.Errorf("the directory holds %q, want the file alone", got)
	}
}

// A symbolic link to a regular file where a file is written is refused,
// never followed and never replaced: the file it points to, outside, keeps
// its bytes, and the link stays.
func TestNeverThroughSymlink(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "victim")
	os.WriteFile(victim, []byte("precious"), 0o644)
	link := filepath.Join(dir, "page.html")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(link, []byte("page"))
	if err == nil || !strings.Contains(err.Error(), "a symbolic link to a regular file") {
		t.Errorf("WriteFile through a link: %v, want a refusal", err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "precious" {
		t.Errorf("the link's target was written: %q", data)
	}
	if info, _ := os.Lstat(link); info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced")
	}
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(outside, "none"), dangling)
	if err := WriteFile(dangling, []byte("page")); err == nil {
		t.Errorf("WriteFile through a link to nothing succeeded")
	}
	if _, err := os.Stat(filepath.Join(outside, "none")); err == nil {
		t.Errorf("a file was made where a dangling link points")
	}

	// Below a root, a directory that is a link out of it is refused.
	os.Symlink(outside, filepath.Join(dir, "sub"))
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if f, err := CreateIn(root, "sub/victim", 0o644); err == nil {
		f.Write([]byte("x"))
		err = f.Commit()
		if err == nil {
			t.Fatalf("CreateIn wrote through a link out of the root")
		}
	}
	if data, _ := os.ReadFile(victim); string(data) != "precious" {
		t.Errorf("the link's target was written: %q", data)
	}
	f, err := CreateIn(root, "a/b/c.html", 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("c"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(filepath.Join(dir, "a/b/c.html")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("CreateIn's file: %v, %v", info, err)
	}
}

func TestReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "page.html")
	os.WriteFile(path, []byte("old"), 0o664)
	os.Chmod(path, 0o664) // past the umask
	read := func() ([]byte, os.FileInfo) {
		info, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		return data, info
	}

	old, info := read()
	if err := Replace(path, old, []byte("new"), info); err != nil {
		t.Fatal(err)
	}
	if data, info := read(); string(data) != "new" || info.Mode().Perm() != 0o664 {
		t.Errorf("replaced: %q, mode %v", data, info.Mode().Perm())
	}

	// Changed after it was read, even keeping its size and time: refused.
	old, info = read()
	os.WriteFile(path, []byte("NEW"), 0o664)
	os.Chtimes(path, info.ModTime(), info.ModTime())
	if err := Replace(path, old, []byte("lost"), info); !errors.Is(err, ErrChanged) {
		t.Errorf("a changed file: %v, want ErrChanged", err)
	}
	os.WriteFile(path, []byte("newer, longer"), 0o664)
	if err := Replace(path, old, []byte("lost"), info); !errors.Is(err, ErrChanged) {
		t.Errorf("a changed file: %v, want ErrChanged", err)
	}
	if data, _ := read(); string(data) != "newer, longer" {
		t.Errorf("the change was lost: %q", data)
	}

	// Read-only: refused, even for the superuser.
	os.Chmod(path, 0o444)
	old, info = read()
	if err := Replace(path, old, []byte("x"), info); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("a read-only file: %v", err)
	}
	if got := files(t, dir); len(got) != 1 {
		t.Errorf("the directory holds %q", got)
	}
}

func TestCleanup(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a", "b"} {
		f, err := Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte("partial"))
	}
	if got := files(t, dir); len(got) != 2 {
		t.Fatalf("two files begun: %q", got)
	}
	t.Cleanup(func() { // the package's other tests write files again
		pendingMu.Lock()
		stopped = false
		pendingMu.Unlock()
	})
	Cleanup()
	if got := files(t, dir); len(got) != 0 {
		t.Errorf("after Cleanup the directory holds %q", got)
	}
	// A file begun after Cleanup, by a goroutine still at work when the
	// signal came, is never made.
	if _, err := Create(filepath.Join(dir, "c")); !errors.Is(err, ErrStopped) {
		t.Errorf("Create after Cleanup: %v, want ErrStopped", err)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Errorf("after Cleanup and a Create the directory holds %q", got)
	}
}
