package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// completionScript writes relurl's completion script for shell to a file,
// and returns its path.
func completionScript(t *testing.T, shell string) string {
	t.Helper()
	r := relurlRun(t, nil, "completion", shell)
	if r.code != 0 {
		t.Fatalf("relurl completion %s: exit %d, %s", shell, r.code, r.stderr)
	}
	path := filepath.Join(t.TempDir(), "relurl."+shell)
	os.WriteFile(path, []byte(r.stdout), 0o644)
	return path
}

// TestCompletionBash completes in a bash that sourced the script, as the
// TAB key does: a command's name, a flag's, a command for help.
func TestCompletionBash(t *testing.T) {
	script := completionScript(t, "bash")
	for _, tt := range []struct {
		words string // the command line, the word completed last
		want  string // what completes it, one a line
	}{
		{"relurl li", "links\n"},
		{"relurl links -ma", "-map\n-markdown\n-max-depth\n-max-redirects\n-max-size\n"},
		{"relurl rewrite -dr", "-drop-base\n"},
		{"relurl help rew", "rewrite\n"},
		{"relurl completion z", "zsh\n"},
	} {
		words := strings.Fields(tt.words)
		cmd := exec.Command("bash", "--norc", "-c", `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _relurl; printf '%s\n' "${COMPREPLY[@]}"`,
			"bash", script)
		cmd.Args = append(cmd.Args, words...)
		out, err := cmd.CombinedOutput()
		if err != nil || string(out) != tt.want {
			t.Errorf("%s<TAB>: %q (%v), want %q", tt.words, out, err, tt.want)
		}
	}
}

// TestCompletionFish completes with fish's own completer (complete -C),
// and TestCompletionZsh has zsh read the script and load it as compinit
// does. Both shells are installed by .ci/run; elsewhere they skip without.
func TestCompletionFish(t *testing.T) {
	fish, err := exec.LookPath("fish")
	if err != nil {
		t.Skip("fish is not installed (apt-get install fish)")
	}
	script := completionScript(t, "fish")
	for _, tt := range []struct{ line, want string }{
		{"relurl li", "links"},
		{"relurl links -ma", "-map"},
		{"relurl check -fo", "-format"},
	} {
		out, err := exec.Command(fish, "--no-config", "-c", `source $argv[1]; complete -C $argv[2]`, script, tt.line).CombinedOutput()
		if err != nil || !strings.Contains("\n"+string(out), "\n"+tt.want+"\t") && !strings.Contains("\n"+string(out), "\n"+tt.want+"\n") {
			t.Errorf("%s<TAB>: %q (%v), want %q", tt.line, out, err, tt.want)
		}
	}
}

func TestCompletionZsh(t *testing.T) {
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("zsh is not installed (apt-get install zsh)")
	}
	script := completionScript(t, "zsh")
	if out, err := exec.Command(zsh, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("zsh -n: %v\n%s", err, out)
	}
	// Loaded as compinit loads it: the script registers its function.
	dir := filepath.Dir(script)
	os.Rename(script, filepath.Join(dir, "_relurl"))
	out, err := exec.Command(zsh, "-f", "-c", `fpath=($1 $fpath); autoload -U compinit; compinit -u -D; print -r -- $_comps[relurl]`, "zsh", dir).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "_relurl" {
		t.Errorf("compinit: %q (%v), want _relurl", out, err)
	}
}

// TestManPage renders relurl help -man with man -l, warnings on: none may
// come, and every command and every flag of it is in the page.
func TestManPage(t *testing.T) {
	man, err := exec.LookPath("man")
	if err != nil {
		t.Skip("man is not installed (apt-get install man-db)")
	}
	r := relurlRun(t, nil, "help", "-man")
	path := filepath.Join(t.TempDir(), "relurl.1")
	os.WriteFile(path, []byte(r.stdout), 0o644)
	cmd := exec.Command(man, "--warnings", "-E", "UTF-8", "-l", path)
	cmd.Env = append(os.Environ(), "MANWIDTH=80", "MANPAGER=cat", "PAGER=cat")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("man -l: %v\n%s", err, stderr.String())
	}
	page := strings.ReplaceAll(string(out), "\u2010", "-") // groff's hyphen where it breaks a line
	for _, d := range describeCommands() {
		if !strings.Contains(page, "relurl "+d.name) {
			t.Errorf("the man page has no section for %s", d.name)
		}
		for _, f := range d.flags {
			if !strings.Contains(page, "-"+f.Name) {
				t.Errorf("the man page does not show %s's -%s", d.name, f.Name)
			}
		}
	}
}
