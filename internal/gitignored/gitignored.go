// Package gitignored tells which files of a tree git ignores: those its
// .gitignore files, .git/info/exclude and the user's excludes file leave
// out, as "git status" does. It asks git itself, the reference for those
// rules, rather than reading the files again; and where a work tree has
// its top (TopLevel).
package gitignored

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// In returns what reports whether a path below dir is ignored by git: a
// file git would not track, or one below such a directory. Outside a git
// work tree, or without git, nothing is ignored, and ok is false.
func In(dir string) (ignored func(path string) bool, ok bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return func(string) bool { return false }, false
	}
	if _, inTree := TopLevel(abs); !inTree && os.Getenv("GIT_DIR") == "" {
		// Not in a work tree (unless GIT_DIR names one elsewhere): git
		// has nothing to say, and starting it would cost a few
		// milliseconds of a run that may take ten.
		return func(string) bool { return false }, false
	}
	cmd := exec.Command("git", "-C", abs, "ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z", ".")
	out, err := cmd.Output()
	if err != nil {
		return func(string) bool { return false }, false
	}
	set := map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			set[filepath.Join(abs, filepath.FromSlash(strings.TrimSuffix(string(p), "/")))] = true
		}
	}
	return func(path string) bool {
		p, err := filepath.Abs(path)
		if err != nil {
			return false
		}
		for ; len(p) >= len(abs); p = filepath.Dir(p) {
			if set[p] {
				return true
			}
			if filepath.Dir(p) == p {
				break
			}
		}
		return false
	}, true
}

// TopLevel returns the top of the git work tree that holds path (a file
// or a directory): the nearest directory above it, or it, with a .git
// (a directory, or the file of a linked work tree or a submodule).
// Outside a work tree it returns false. It reads the file system alone,
// as git does to find its top, with no git installed.
func TopLevel(path string) (string, bool) {
	p, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil {
			return p, true
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", false
		}
		p = parent
	}
}
