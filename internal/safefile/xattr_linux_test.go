package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// Replace keeps a file's extended attributes (rewrite -w dropped them):
// a user attribute here, as ACLs and SELinux labels are kept.
func TestReplaceKeepsXattrs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "page.html")
	os.WriteFile(path, []byte("old"), 0o644)
	if err := unix.Setxattr(path, "user.relurl.test", []byte("kept"), 0); err != nil {
		if errors.Is(err, unix.ENOTSUP) {
			t.Skipf("the temporary directory's file system has no user attributes: %v", err)
		}
		t.Fatal(err)
	}
	info, _ := os.Lstat(path)
	if err := Replace(path, []byte("old"), []byte("new"), info); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "new" {
		t.Fatalf("not replaced: %q", data)
	}
	buf := make([]byte, 64)
	n, err := unix.Getxattr(path, "user.relurl.test", buf)
	if err != nil || string(buf[:n]) != "kept" {
		t.Errorf("the attribute after Replace: %q, %v", buf[:max(n, 0)], err)
	}
}
