package gitignored

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Outside a work tree, In reports nothing ignored, and ok false.
func TestIn(t *testing.T) {
	outside := t.TempDir()
	if ignored, ok := In(outside); ok || ignored(filepath.Join(outside, "x")) {
		t.Errorf("outside a work tree: ok %v", ok)
	}
	if _, ok := TopLevel(outside); ok {
		t.Errorf("TopLevel of %s: a work tree", outside)
	}
}

// In a work tree, In asks git what its .gitignore leaves out: a file, and
// whatever is below an ignored directory.
func TestInWorkTree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	for name, data := range map[string]string{".gitignore": "built/\n*.tmp\n", "doc.md": "", "x.tmp": "", "built/a.md": ""} {
		path := filepath.Join(repo, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ignored, ok := In(repo)
	if !ok {
		t.Fatal("in a work tree: ok false")
	}
	for name, want := range map[string]bool{"doc.md": false, "x.tmp": true, "built/a.md": true, "built": true} {
		if got := ignored(filepath.Join(repo, name)); got != want {
			t.Errorf("%s: ignored %v, want %v", name, got, want)
		}
	}
}
