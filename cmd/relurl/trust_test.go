package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests attack the surfaces that write a user's files, read trees,
// crawl sites and claim success, with hostile trees and servers: each is a
// defect found on 8c59505 (docs/reliability.md lists them), and fails
// there.

// tree writes files (name → content) below a new directory; a content
// "-> TARGET" makes a symbolic link.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if target, ok := strings.CutPrefix(content, "-> "); ok {
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const oldPage = `<a href="https://old.example/docs/b.html">b</a>`

// TestRewriteSymlinks: a symbolic link is never written through, in the
// output directory or in the tree, and never followed out of the tree; a
// link in the tree is named, and -o copies it as a link.
func TestRewriteSymlinks(t *testing.T) {
	outside := tree(t, map[string]string{"victim.html": "precious", "secret/x.html": "secret"})
	site := tree(t, map[string]string{
		"a.html":      oldPage,
		"b.html":      "<p>b",
		"out.html":    "-> " + filepath.Join(outside, "victim.html"),
		"outdir":      "-> " + filepath.Join(outside, "secret"),
		"inside.html": "-> b.html",
	})
	flags := []string{"rewrite", "-relative", "https://old.example/docs/", "-map", site + "=https://old.example/docs/"}

	// An output directory that a tree shipped with links in it: the link
	// to the file outside is replaced, the directory outside is refused.
	out := tree(t, map[string]string{"a.html": "-> " + filepath.Join(outside, "victim.html"), "sub": "-> " + filepath.Join(outside, "secret")})
	os.Mkdir(filepath.Join(site, "sub"), 0o755)
	os.WriteFile(filepath.Join(site, "sub", "x.html"), []byte(oldPage), 0o644)
	r := relurlRun(t, nil, append(flags, "-o", out, site)...)
	if r.code != exitFailed || !strings.Contains(r.stderr, "sub is a symbolic link out of") {
		t.Errorf("-o into a directory with links out: exit %d\n%s", r.code, r.stderr)
	}
	if read(t, filepath.Join(outside, "victim.html")) != "precious" || read(t, filepath.Join(outside, "secret", "x.html")) != "secret" {
		t.Fatalf("a file outside both trees was written")
	}
	if got := read(t, filepath.Join(out, "a.html")); got != `<a href="b.html">b</a>` {
		t.Errorf("-o a.html: %q", got)
	}
	if info, _ := os.Lstat(filepath.Join(out, "a.html")); info.Mode()&fs.ModeSymlink != 0 {
		t.Errorf("-o wrote a.html through the link")
	}

	// The tree's own links: named, not followed, copied as links.
	os.Remove(filepath.Join(site, "sub", "x.html"))
	os.Remove(filepath.Join(site, "sub"))
	out2 := filepath.Join(t.TempDir(), "copy")
	r = relurlRun(t, nil, append(flags, "-o", out2, site)...)
	for _, name := range []string{"out.html", "outdir", "inside.html"} {
		if !strings.Contains(r.stderr, filepath.Join(site, name)+": a symbolic link to ") {
			t.Errorf("-o: the link %s not named:\n%s", name, r.stderr)
		}
		if target, err := os.Readlink(filepath.Join(out2, name)); err != nil || target == "" {
			t.Errorf("-o: the link %s not copied as a link: %v", name, err)
		}
	}
	if r.code != 0 {
		t.Errorf("-o with links in the tree: exit %d\n%s", r.code, r.stderr)
	}
	r = relurlRun(t, nil, append(flags, "-w", site)...)
	if r.code != 0 || read(t, filepath.Join(outside, "victim.html")) != "precious" || !strings.Contains(r.stderr, "not followed") {
		t.Errorf("-w with links in the tree: exit %d, victim %q\n%s", r.code, read(t, filepath.Join(outside, "victim.html")), r.stderr)
	}
	// A document named that is a link: -w replaces no link, and writes
	// through none.
	os.WriteFile(filepath.Join(outside, "victim.html"), []byte(oldPage), 0o644)
	r = relurlRun(t, nil, append(flags, "-map", outside+"=https://old.example/docs/", "-w", filepath.Join(site, "out.html"))...)
	if r.code != exitFailed || read(t, filepath.Join(outside, "victim.html")) != oldPage {
		t.Errorf("-w on a link: exit %d\n%s", r.code, r.stderr)
	}
}

// TestRewriteOutputDirectory: -o refuses the tree itself, a directory
// inside it (whose copies the next run would copy again) and one that holds
// it; a run that fails midway leaves no empty or partial file under a
// final name.
func TestRewriteOutputDirectory(t *testing.T) {
	site := tree(t, map[string]string{"a.html": oldPage, "docs/b.html": oldPage})
	flags := []string{"rewrite", "-absolute", "-map", site + "=https://old.example/docs/"}
	for _, out := range []string{site, site + "/", filepath.Join(site, "copy"), filepath.Join(site, "docs"), filepath.Dir(site)} {
		r := relurlRun(t, nil, append(flags, "-o", out, site)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "-o "+out+": ") {
			t.Errorf("-o %s: exit %d, %s", out, r.code, r.stderr)
		}
	}
	if entries, _ := os.ReadDir(site); len(entries) != 2 || read(t, filepath.Join(site, "a.html")) != oldPage {
		t.Errorf("the tree changed: %v", entries)
	}
	// A file named that is below -o: its copy would be itself.
	r := relurlRun(t, nil, "rewrite", "-absolute", "-url", "https://old.example/docs/a.html", "-o", site, filepath.Join(site, "a.html"))
	if r.code != exitFailed || read(t, filepath.Join(site, "a.html")) != oldPage {
		t.Errorf("-o over the file itself: exit %d, %s", r.code, r.stderr)
	}
}

// TestRewriteKilled: a rewrite killed midway leaves every document whole,
// the old one or the new one, and one stopped by SIGTERM leaves no
// temporary file either.
func TestRewriteKilled(t *testing.T) {
	files := map[string]string{}
	page := strings.Repeat(oldPage+"\n", 20000) // about a megabyte a page
	for i := range 40 {
		files[fmt.Sprintf("p%02d.html", i)] = page
	}
	want := strings.Repeat(`<a href="b.html">b</a>`+"\n", 20000)
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		for round := range 3 {
			site := tree(t, files)
			cmd := exec.Command(relurlBin, "rewrite", "-j", "1", "-map", site+"=https://old.example/docs/", "-relative", "https://old.example/docs/", "-w", site)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(30+40*round) * time.Millisecond)
			cmd.Process.Signal(sig)
			cmd.Wait()
			for name := range files {
				if got := read(t, filepath.Join(site, name)); got != page && got != want {
					t.Fatalf("%v, round %d: %s is neither the old page nor the new one: %d bytes", sig, round, name, len(got))
				}
			}
			if sig == syscall.SIGTERM {
				if tmp, _ := filepath.Glob(filepath.Join(site, ".*")); len(tmp) > 0 {
					t.Errorf("SIGTERM left %q", tmp)
				}
			}
		}
	}
}

// TestRewriteReplaceRefused: -w leaves a read-only document as it is, and,
// as another user, one that is not theirs to write or whose owner a
// rename would change. Run as the superuser, which can act as another.
func TestRewriteReplaceRefused(t *testing.T) {
	const oldPage = `<a href="b.html">b</a>` // -absolute changes it
	site := tree(t, map[string]string{"ro.html": oldPage, "theirs.html": oldPage, "ours.html": oldPage})
	os.Chmod(filepath.Join(site, "ro.html"), 0o444)
	flags := []string{"rewrite", "-absolute", "-map", site + "=https://old.example/docs/", "-w"}
	r := relurlRun(t, nil, append(flags, filepath.Join(site, "ro.html"))...)
	if r.code != exitFailed || !strings.Contains(r.stderr, "read-only: left as it is") || read(t, filepath.Join(site, "ro.html")) != oldPage {
		t.Errorf("a read-only file: exit %d, %s", r.code, r.stderr)
	}
	if os.Geteuid() != 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("CI runs as root, to act as another user here")
		}
		t.Skip("not the superuser: cannot act as another user")
	}
	// Another user needs to reach the binary and the tree: both in a
	// directory anybody may enter. The tree's directory is anybody's to
	// write; theirs.html is root's, 0644; ours.html is nobody's (65534),
	// and root keeps its owner.
	shared, err := os.MkdirTemp("", "relurl-other-user")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(shared)
	os.Chmod(shared, 0o755)
	bin := filepath.Join(shared, "relurl")
	if data, err := os.ReadFile(relurlBin); err != nil || os.WriteFile(bin, data, 0o755) != nil {
		t.Fatal(err)
	}
	site = filepath.Join(shared, "site")
	os.Mkdir(site, 0o777)
	os.Chmod(site, 0o777)
	for _, name := range []string{"theirs.html", "ours.html"} {
		os.WriteFile(filepath.Join(site, name), []byte(oldPage), 0o644)
	}
	flags = []string{"rewrite", "-absolute", "-map", site + "=https://old.example/docs/", "-w"}
	os.Chown(filepath.Join(site, "ours.html"), 65534, 65534)
	cmd := exec.Command(bin, append(flags, filepath.Join(site, "theirs.html"))...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Run()
	info, _ := os.Stat(filepath.Join(site, "theirs.html"))
	if cmd.ProcessState.ExitCode() != exitFailed || !strings.Contains(stderr.String(), "not writable by this user") || info.Sys().(*syscall.Stat_t).Uid != 0 || read(t, filepath.Join(site, "theirs.html")) != oldPage {
		t.Errorf("another user's file: exit %d, %s", cmd.ProcessState.ExitCode(), stderr.String())
	}
	r = relurlRun(t, nil, append(flags, filepath.Join(site, "ours.html"))...)
	info, _ = os.Stat(filepath.Join(site, "ours.html"))
	if r.code != 0 || info.Sys().(*syscall.Stat_t).Uid != 65534 || read(t, filepath.Join(site, "ours.html")) == oldPage {
		t.Errorf("the superuser rewriting nobody's file: exit %d, owner %d, %s", r.code, info.Sys().(*syscall.Stat_t).Uid, r.stderr)
	}
}

// fullDisk mounts a tmpfs of size bytes, for a disk that fills up; only
// the superuser can. CI runs as root.
func fullDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI mounts a tmpfs as root for a full disk: %v %s", err, out)
		}
		t.Skipf("no tmpfs to fill (not the superuser?): %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}

// TestFullDisk: on a disk that fills up, no file is left empty or partial
// under its final name, the originals rewritten in place included, and
// the error names the file.
func TestFullDisk(t *testing.T) {
	disk := fullDisk(t, "600k")
	files := map[string]string{}
	page := strings.Repeat(`<a href="/docs/b.html">b</a>`+"\n", 4000) // 112 KB
	for i := range 8 {
		files[fmt.Sprintf("p%d.html", i)] = page
	}
	// -w with most of the disk taken by the tree itself.
	site := filepath.Join(disk, "site")
	os.Mkdir(site, 0o755)
	for i := range 4 {
		os.WriteFile(filepath.Join(site, fmt.Sprintf("p%d.html", i)), []byte(page), 0o644)
	}
	filler := filepath.Join(disk, "filler")
	os.WriteFile(filler, make([]byte, 100<<10), 0o644)
	r := relurlRun(t, nil, "rewrite", "-absolute", "-map", site+"=https://old.example/docs/", "-w", site)
	if r.code != exitFailed || !strings.Contains(r.stderr, "no space left on device") {
		t.Errorf("-w on a full disk: exit %d, %s", r.code, r.stderr)
	}
	for i := range 4 {
		if got := read(t, filepath.Join(site, fmt.Sprintf("p%d.html", i))); got != page && !strings.HasPrefix(got, `<a href="https://old.example/docs/b.html">`) {
			t.Errorf("p%d.html is neither old nor new: %d bytes", i, len(got))
		}
	}
	// -o into the full disk: what could not be written is not there.
	src := tree(t, files)
	out := filepath.Join(disk, "copy")
	r = relurlRun(t, nil, "rewrite", "-absolute", "-map", src+"=https://old.example/docs/", "-o", out, src)
	if r.code != exitFailed || !strings.Contains(r.stderr, "no space left on device") {
		t.Errorf("-o on a full disk: exit %d, %s", r.code, r.stderr)
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if got := read(t, filepath.Join(out, e.Name())); !strings.HasPrefix(e.Name(), ".") && (len(got) == 0 || !strings.HasSuffix(got, "</a>\n")) {
			t.Errorf("-o left %s of %d bytes", e.Name(), len(got))
		}
	}
	// links -o FILE, Parquet and JSON: the file named in the error, and
	// nothing under the name.
	// The disk full to its last byte: every write of the file fails.
	os.RemoveAll(out)
	os.RemoveAll(site)
	f, _ := os.OpenFile(filler, os.O_WRONLY|os.O_APPEND, 0)
	for {
		if _, err := f.Write(make([]byte, 4096)); err != nil {
			break
		}
	}
	f.Close()
	for _, format := range []string{"json", "parquet", "arrow"} {
		file := filepath.Join(disk, "links."+format)
		r := relurlRun(t, nil, "links", "-format", format, "-o", file, src)
		if r.code != exitWrite || !strings.Contains(r.stderr, file) || !strings.Contains(r.stderr, "no space left on device") {
			t.Errorf("links -format %s -o on a full disk: exit %d, %s", format, r.code, r.stderr)
		}
		if _, err := os.Stat(file); err == nil {
			t.Errorf("links -format %s: a partial %s is under its name", format, file)
		}
	}
	if hidden, _ := filepath.Glob(filepath.Join(disk, ".*")); len(hidden) > 0 {
		t.Errorf("temporary files left: %q", hidden)
	}
}

// TestTablesKilled: a table stopped midway leaves no shorter file under
// its name, and a directory of parts has no _SUCCESS marker though it has
// parts; SIGTERM leaves no temporary file. The run is held midway by its
// manifest, -files on a pipe that stays open after one archive.
func TestTablesKilled(t *testing.T) {
	warc, err := filepath.Abs("../../../shared/data/warc/docs-crawl.warc.gz")
	if _, serr := os.Stat(warc); err != nil || serr != nil {
		t.Skip("no shared data")
	}
	for _, tt := range []struct {
		args []string
		sig  syscall.Signal
	}{
		{[]string{"-format", "arrow", "-o", "links.arrow"}, syscall.SIGKILL},
		{[]string{"-format", "parquet", "-o", "links.parquet"}, syscall.SIGTERM},
		{[]string{"-format", "parquet", "-part-rows", "20000", "-o", "parts"}, syscall.SIGKILL},
		{[]string{"-format", "parquet", "-part-rows", "20000", "-o", "parts"}, syscall.SIGTERM},
		{[]string{"-json", "-o", "links.json"}, syscall.SIGTERM},
	} {
		dir := t.TempDir()
		out := filepath.Join(dir, tt.args[len(tt.args)-1])
		cmd := exec.Command(relurlBin, append(append([]string{"links", "-j", "1"}, tt.args...), "-files", "-")...)
		cmd.Dir = dir
		stdin, _ := cmd.StdinPipe()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(stdin, warc)
		// The archive read: its rows written, or its parts.
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			if parts, _ := filepath.Glob(filepath.Join(out, "part-0000[1-9].parquet")); len(parts) > 0 && tt.args[len(tt.args)-1] == "parts" {
				break
			}
			if hidden, _ := filepath.Glob(filepath.Join(dir, ".links.*")); len(hidden) > 0 && tt.args[len(tt.args)-1] != "parts" {
				if info, err := os.Stat(hidden[0]); err == nil && info.Size() > 1<<20 {
					break
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		cmd.Process.Signal(tt.sig)
		cmd.Wait()
		stdin.Close()
		if tt.args[len(tt.args)-1] == "parts" {
			parts, _ := filepath.Glob(filepath.Join(out, "part-*.parquet"))
			if _, err := os.Stat(filepath.Join(out, "_SUCCESS")); err == nil || len(parts) == 0 {
				t.Errorf("%v, %v: %d parts and a _SUCCESS marker (%v); want the parts and no marker", tt.args, tt.sig, len(parts), err)
			}
		} else if _, err := os.Stat(out); err == nil {
			t.Errorf("%v, %v: a shorter %s under its name", tt.args, tt.sig, out)
		}
		if hidden, _ := filepath.Glob(filepath.Join(dir, ".*")); len(hidden) > 0 && tt.sig == syscall.SIGTERM {
			t.Errorf("%v, SIGTERM: left %q", tt.args, hidden)
		}
		if hidden, _ := filepath.Glob(filepath.Join(out, ".*")); len(hidden) > 0 && tt.sig == syscall.SIGTERM {
			t.Errorf("%v, SIGTERM: left %q", tt.args, hidden)
		}
	}
}

// TestPathForms: a path means the same written relative, with "./", with
// a trailing slash or absolute, in -root, -map, -o, -files and the
// documents given: "check -offline -root python python" reported every
// link of the Python docs broken, the root made absolute and the
// documents not.
func TestPathForms(t *testing.T) {
	wd, _ := os.Getwd()
	forms := func(rel string) []string {
		return []string{rel, "./" + rel, rel + "/", filepath.Join(wd, rel)}
	}
	site := filepath.Join("..", "..", "testdata", "site")
	const wantBroken = "broken: 2 targets, 2 links;"
	for _, root := range forms(site) {
		for _, doc := range forms(site) {
			r := relurlRun(t, nil, "check", "-offline", "-root", root, doc)
			if r.code != exitFound || !strings.Contains(r.stderr, wantBroken) {
				t.Errorf("check -root %s %s: exit %d, %s", root, doc, r.code, r.stderr)
			}
			r = relurlRun(t, nil, "check", "-offline", "-map", root+"=https://site.example/", doc)
			if r.code != exitFound || !strings.Contains(r.stderr, wantBroken) || !strings.Contains(r.stdout, "https://site.example/docs/faq.html") {
				t.Errorf("check -map %s %s: exit %d, %s%s", root, doc, r.code, r.stdout, r.stderr)
			}
			r = relurlRun(t, nil, "rewrite", "-absolute", "-map", root+"=https://site.example/", "-l", doc)
			if r.code != 0 || strings.Contains(r.stderr, "no Map") {
				t.Errorf("rewrite -map %s %s: exit %d, %s", root, doc, r.code, r.stderr)
			}
		}
	}
	// -files, its lines relative to the current directory, and -o.
	list := filepath.Join(t.TempDir(), "list")
	os.WriteFile(list, []byte("./"+site+"/index.html\n"+filepath.Join(wd, site, "docs", "guide.html")+"\n"), 0o644)
	for _, root := range forms(site) {
		r := relurlRun(t, nil, "links", "-tsv", "-map", root+"=https://site.example/", "-files", list)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "https://site.example/index.html\t") || !strings.Contains(r.stdout, "https://site.example/docs/guide.html\t") {
			t.Errorf("links -map %s -files: exit %d, %s%s", root, r.code, r.stdout, r.stderr)
		}
	}
	// Each form of a path to a directory of its own, relative to the
	// current directory (the absolute form is the last).
	for i := range 4 {
		out, err := filepath.Rel(wd, filepath.Join(t.TempDir(), "out"))
		if err != nil {
			t.Fatal(err)
		}
		out = forms(out)[i]
		r := relurlRun(t, nil, "rewrite", "-absolute", "-map", site+"=https://site.example/", "-o", out, site)
		if r.code != 0 || !strings.Contains(read(t, filepath.Join(out, "index.html")), "https://site.example/docs/faq.html") {
			t.Errorf("rewrite -o %s: exit %d, %s", out, r.code, r.stderr)
		}
	}
}

// TestNothingRead: a run that reads no document is no success: a tree of
// images, data and reStructuredText; a file that is none of the formats
// relurl reads. It says what it skipped.
func TestNothingRead(t *testing.T) {
	docs := tree(t, map[string]string{"index.rst": "`a <b.rst>`_\n", "b.rst": "b", "data.json": `{"u": "https://a.example/"}`, "img.png": "\x89PNG"})
	for _, tt := range []struct {
		args []string
		said string
	}{
		{[]string{"check", "-offline", docs}, "relurl check: no document read, so no link was checked: skipped 2 .rst, 1 .json, 1 .png"},
		{[]string{"links", docs}, "relurl links: no document read"},
		{[]string{"base", docs}, "relurl base: no document read: skipped 2 .rst, 1 .json, 1 .png"},
		{[]string{"rewrite", "-absolute", "-map", docs + "=https://a.example/", "-l", docs}, "relurl rewrite: no document rewritten: its documents are HTML (.html, .htm, .xhtml), Markdown (.md, .markdown) and CSS (.css); it met 2 .rst, 1 .json, 1 .png"},
		{[]string{"links", filepath.Join(docs, "index.rst")}, "index.rst: not a document relurl reads"},
		{[]string{"check", "-offline", filepath.Join(docs, "data.json")}, "data.json: not a document relurl reads"},
		{[]string{"rewrite", "-relative", "https://a.example/", "-l", docs}, "give the documents their URL"},
	} {
		r := relurlRun(t, nil, tt.args...)
		if r.code == 0 || !strings.Contains(r.stderr, tt.said) {
			t.Errorf("%v: exit %d, stderr %s\nwant it to say %s", tt.args, r.code, r.stderr, tt.said)
		}
	}
	// url without a URL: one made of the -set parts, or nothing done.
	check(t, relurlRun(t, in(""), "url", "-set", "host=example.com", "-set", "path=/x"), "http://example.com/x\n", "", 0)
	check(t, relurlRun(t, in(""), "url", "-set", "path=/x"), "", "relurl url: no URL: none was given (as an argument, or with -files or -), and -set gives no host to make one of\n", exitFailed)
}

// TestRewriteListNames: -l quotes a name that holds a control byte as git
// does, so that a newline in a name never reads as two names; -z writes
// them as they are, each ended by a NUL.
func TestRewriteListNames(t *testing.T) {
	const oldPage = `<a href="b.html">b</a>` // -absolute changes it
	site := tree(t, map[string]string{"two\nlines.html": oldPage, "plain.html": oldPage, `quote".html`: oldPage})
	flags := []string{"rewrite", "-absolute", "-map", site + "=https://old.example/docs/"}
	r := relurlRun(t, nil, append(flags, "-l", site)...)
	want := filepath.Join(site, "plain.html") + "\n\"" + site + `/quote\".html"` + "\n\"" + site + `/two\nlines.html"` + "\n"
	check(t, r, want, "", 0)
	r = relurlRun(t, nil, append(flags, "-l", "-z", site)...)
	names := strings.Split(strings.TrimSuffix(r.stdout, "\x00"), "\x00")
	if !slices.Equal(names, []string{filepath.Join(site, "plain.html"), filepath.Join(site, `quote".html`), filepath.Join(site, "two\nlines.html")}) {
		t.Errorf("-z: %q", r.stdout)
	}
}

// TestRefusedAtOnce: a connection refused fails at once, as wget and curl
// fail (it was retried for 18 to 30 s), unless -retry-refused.
func TestRefusedAtOnce(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	start := time.Now()
	r := relurlRun(t, nil, "links", "HTTP://"+addr+"/x")
	if took := time.Since(start); took > 5*time.Second || r.code != exitFailed || !strings.Contains(r.stderr, "connection refused") {
		t.Errorf("a refused connection: exit %d after %v, %s", r.code, took, r.stderr)
	}
	r = relurlRun(t, nil, "links", "-retry-refused", "-retries", "2", "-retry-max-wait", "2s", "http://"+addr+"/x")
	if r.code != exitFailed || !strings.Contains(r.stderr, "(3 tries)") {
		t.Errorf("-retry-refused: exit %d, %s", r.code, r.stderr)
	}
}

// TestCheckCacheHostile: the cache is untrusted input. An entry of a state
// relurl never writes reads as a miss, not as "ok"; a file that is not
// JSON lines is named and rebuilt; -recursive saves it; its mode is kept.
func TestCheckCacheHostile(t *testing.T) {
	// /gone is out of the crawl's scope, /docs/: checked, not read.
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt", "/gone":
			http.NotFound(w, r)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<a href="/gone">g</a>`)
		}
	}))
	defer s.Close()
	cache := filepath.Join(t.TempDir(), "cache")
	now := time.Now().UTC().Format(time.RFC3339)
	os.WriteFile(cache, []byte(`{"url":"`+s.URL+`/gone","checked":"`+now+`","state":"fine","status":404}`+"\n"), 0o600)
	os.Chmod(cache, 0o640)
	r := relurlRun(t, nil, "check", "-cache", cache, s.URL+"/")
	if r.code != exitFound || strings.Contains(r.stderr, "warning") {
		t.Errorf("an entry of an unknown state taken for a result: exit %d, %s", r.code, r.stderr)
	}
	if info, _ := os.Stat(cache); info.Mode().Perm() != 0o640 {
		t.Errorf("the cache's mode became %v", info.Mode().Perm())
	}
	os.WriteFile(cache, []byte("garbage\n"), 0o640)
	r = relurlRun(t, nil, "check", "-recursive", "-cache", cache, s.URL+"/docs/")
	if r.code != exitFound || !strings.Contains(r.stderr, "relurl check: warning: -cache: "+cache+", line 1: not a cache entry") {
		t.Errorf("a corrupt cache: exit %d, %s", r.code, r.stderr)
	}
	if got := read(t, cache); !strings.Contains(got, `"state":"broken","status":404`) || strings.Contains(got, "garbage") {
		t.Errorf("-recursive did not save the cache, rebuilt:\n%s", got)
	}
}

// TestReportAtScale: a broken target linked from many pages is reported
// once, with the first links, how many more, and on how many pages; the
// summary gives each number its unit.
func TestReportAtScale(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("p%02d.html", i)] = `<link rel=stylesheet href="_static/gone.css"><a href="_static/gone.css">x</a> <a href="missing.html">m</a>`
	}
	site := tree(t, files)
	r := relurlRun(t, nil, "check", "-offline", "-map", site+"=https://s.example/", site)
	want := "https://s.example/_static/gone.css: no such file: " + filepath.Join(site, "_static", "gone.css") + "\n" +
		"  " + filepath.Join(site, "p00.html") + ":1:1 <link href=\"_static/gone.css\">\n" +
		"  " + filepath.Join(site, "p00.html") + ":1:46 <a href=\"_static/gone.css\">\n" +
		"  " + filepath.Join(site, "p01.html") + ":1:1 <link href=\"_static/gone.css\">\n" +
		"  " + filepath.Join(site, "p01.html") + ":1:46 <a href=\"_static/gone.css\">\n" +
		"  " + filepath.Join(site, "p02.html") + ":1:1 <link href=\"_static/gone.css\">\n" +
		"  … and 75 more links, on 40 pages in all (-json lists every one)\n" +
		"https://s.example/missing.html: no such file: " + filepath.Join(site, "missing.html") + "\n"
	check(t, r, want+"…", "relurl check: 40 documents, 120 links, 2 targets; broken: 2 targets, 120 links; skipped: 0 links; excluded: 0 links\n", exitFound)
}

// TestCrawlMemory: a crawl's memory does not grow with the links it finds.
// A calendar that never ends (each day links to the next day, month and
// year, and to 25 pages of the site) read to the default -max-pages,
// 100,000 pages and 3 million links, took 2.5 GB when every link was kept
// until the end; an index of 100 sitemaps of 7.5 MiB each, with
// -max-pages 50, took 1.4 GB. Both stay under 300 MB, measured as peak RSS.
func TestCrawlMemory(t *testing.T) {
	t.Parallel() // a long test: beside the others, on a machine of few cores (see TestMain)
	if testing.Short() {
		t.Skip("a crawl of 100,000 pages")
	}
	calendar := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var day int
		if _, err := fmt.Sscanf(r.URL.Path, "/cal/%d", &day); err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<title>day %d</title><a href=/cal/%d>prev</a> <a href=/cal/%d>next</a> <a href=/cal/%d>prev month</a> <a href=/cal/%d>next month</a> <a href=/cal/%d>next year</a>\n",
			day, day-1, day+1, day-30, day+30, day+365)
		for i := range 25 {
			fmt.Fprintf(w, "<a href=\"/about/section-%d.html\">section %d</a>\n", i, i)
		}
	}))
	defer calendar.Close()
	start := time.Now()
	var out countingWriter
	code, maxRSS, stderr := relurlMeasured(t, nil, &out, "check", "-recursive", "-json", calendar.URL+"/cal/0")
	t.Logf("the calendar: %d links, peak RSS %d KiB, %v", out.lines, maxRSS, time.Since(start).Round(time.Millisecond))
	if code != exitFound || out.lines != 3_000_000 || !strings.Contains(stderr, "relurl check: 100000 documents, 3000000 links") {
		t.Errorf("exit %d, %d links, %s", code, out.lines, stderr)
	}
	if maxRSS > 300<<10 {
		t.Errorf("the calendar: peak RSS %d KiB, over 300 MB", maxRSS)
	}

	// 100 sitemaps of 7.5 MiB, 50,000 URLs each, 2 MB on the wire.
	entry := func(w *bytes.Buffer, host string, i int) {
		fmt.Fprintf(w, "<url><loc>http://%s/page/%08d/with/a/long/path/to/fill/the/sitemap/like/real/ones/do.html</loc><lastmod>2026-11-26</lastmod></url>\n", host, i)
	}
	var gzipped []byte
	sitemaps := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			fmt.Fprintf(w, "Sitemap: http://%s/index.xml\n", r.Host)
		case r.URL.Path == "/index.xml":
			fmt.Fprint(w, "<sitemapindex>")
			for i := range 100 {
				fmt.Fprintf(w, "<sitemap><loc>http://%s/sitemap-%d.xml.gz</loc></sitemap>", r.Host, i)
			}
			fmt.Fprint(w, "</sitemapindex>")
		case strings.HasPrefix(r.URL.Path, "/sitemap-"):
			if gzipped == nil {
				var b bytes.Buffer
				b.WriteString("<urlset>\n")
				for i := range 50_000 {
					entry(&b, r.Host, i)
				}
				b.WriteString("</urlset>\n")
				var z bytes.Buffer
				gz := gzip.NewWriter(&z)
				gz.Write(b.Bytes())
				gz.Close()
				gzipped = z.Bytes()
			}
			w.Write(gzipped)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<p>a page")
		}
	}))
	defer sitemaps.Close()
	code, maxRSS, stderr = relurlMeasured(t, nil, &out, "check", "-recursive", "-sitemap", "-max-pages", "50", sitemaps.URL+"/")
	t.Logf("the sitemaps: peak RSS %d KiB; %s", maxRSS, stderr)
	if code != 0 || !strings.Contains(stderr, "99 not read for -max-pages") {
		t.Errorf("exit %d, %s", code, stderr)
	}
	if maxRSS > 300<<10 {
		t.Errorf("the sitemaps: peak RSS %d KiB, over 300 MB", maxRSS)
	}
}

// TestExitStatusTable runs each command into each row of the table that
// relurl help prints: the same number means the same thing everywhere.
func TestExitStatusTable(t *testing.T) {
	r := relurlRun(t, nil, "help")
	for _, row := range []string{"0  success", "1  failure", "2  usage error", "3  the output could not be written", "4  findings", "5  time-out"} {
		if !strings.Contains(r.stdout, row) {
			t.Errorf("relurl help has no row %q", row)
		}
	}
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/page.html" {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<a href="/slow">s</a>`)
			return
		}
		select {
		case <-time.After(3 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	doc := "../../testdata/documents/rfc1808-appendix.html"
	missing := filepath.Join(t.TempDir(), "missing.html")
	site := "../../testdata/site"
	for _, tt := range []struct {
		code int
		args []string
	}{
		{exitOK, []string{"links", doc}},
		{exitOK, []string{"base", doc}},
		{exitOK, []string{"resolve", "http://a/b", "c"}},
		{exitOK, []string{"validate", "http://a/b"}},
		{exitOK, []string{"url", "http://a/b"}},
		{exitOK, []string{"check", "-offline", doc}},
		{exitFailed, []string{"links", missing}},
		{exitFailed, []string{"base", missing}},
		{exitFailed, []string{"check", "-offline", missing}},
		{exitFailed, []string{"rewrite", "-absolute", "-url", "http://a/", missing}},
		{exitFailed, []string{"url", "not a url"}},
		{exitFailed, []string{"parse", "-spec", "whatwg", "http://[x"}},
		{exitFailed, []string{"relative", "-spec", "whatwg", "http://a/", "HTTP://A/"}},
		{exitFailed, []string{"explain", "-spec", "whatwg", "http://a/", "http://[x"}},
		{exitUsage, []string{"links", "-no-such-flag", doc}},
		{exitUsage, []string{"check", "-format", "pdf", doc}},
		{exitUsage, []string{"rewrite", doc}},
		{exitUsage, []string{"validate"}},
		{exitUsage, []string{"url", "-json", "-get", "{host}", "http://a/"}},
		{exitFound, []string{"check", "-offline", "-map", site + "=https://site.example/", site}},
		{exitFound, []string{"validate", "http://a/b c"}},
		{exitTimeout, []string{"check", "-max-time", "300ms", slow.URL + "/page.html"}},
	} {
		if r := relurlRun(t, nil, tt.args...); r.code != tt.code {
			t.Errorf("relurl %q: exit %d, want %d (%s)", tt.args, r.code, tt.code, r.stderr)
		}
	}
	// 3, whatever else: covered for every command by TestWriteErrors.
}

// TestProgressInLogs: a long run whose standard error is a log, not a
// terminal, writes a line of progress now and then (check's every 10
// seconds), and none on a quick run; a terminal gets its line rewritten.
func TestProgressInLogs(t *testing.T) {
	var log bytes.Buffer
	e := &env{stderr: &log}
	p := e.newProgress().logEvery("check", 20*time.Millisecond)
	text := func(float64) string { return "3 of 9 targets checked" }
	p.update(text)
	if log.Len() != 0 {
		t.Errorf("a line before the interval: %q", log.String())
	}
	time.Sleep(30 * time.Millisecond)
	p.update(text)
	p.update(text)
	if got := log.String(); got != "relurl check: progress: 3 of 9 targets checked\n" {
		t.Errorf("the log has %q", got)
	}
	log.Reset()
	e.newProgress().update(text) // without logEvery: nothing in a log
	time.Sleep(30 * time.Millisecond)
	if log.Len() != 0 {
		t.Errorf("a progress line in a log without logEvery: %q", log.String())
	}
}
