package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestAction runs the GitHub Action's step (action.yml, whose one step is
// .github/action/check.sh) as a runner would: with the environment GitHub
// sets, against a release served on loopback as GitHub serves one (the
// archive for the runner, checksums.txt, and /latest redirecting to the
// tag), in a repository whose docs have a broken link and a root-relative
// one. It checks the annotations, the job summary, the exit status with
// fail true and false, and that an archive its checksum does not match is
// never run.
func TestAction(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("the action's test runs the Linux archive")
	}
	yml, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"using: composite", `run: bash "$GITHUB_ACTION_PATH/.github/action/check.sh"`,
		"INPUT_ARGS: ${{ inputs.args }}", "INPUT_VERSION: ${{ inputs.version }}", "INPUT_FAIL: ${{ inputs.fail }}", "INPUT_RELEASE_URL: ${{ inputs.release-url }}"} {
		if !bytes.Contains(yml, []byte(want)) {
			t.Errorf("action.yml has no %q", want)
		}
	}
	script, _ := filepath.Abs("../../.github/action/check.sh")

	// The release: relurl_9.9.9_linux_ARCH.tar.gz, holding this build.
	bin, err := os.ReadFile(relurlBin)
	if err != nil {
		t.Fatal(err)
	}
	archive := fmt.Sprintf("relurl_9.9.9_linux_%s.tar.gz", runtime.GOARCH)
	var tgz bytes.Buffer
	zw := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: "relurl", Mode: 0o755, Size: int64(len(bin))})
	tw.Write(bin)
	tw.Close()
	zw.Close()
	files := map[string][]byte{archive: tgz.Bytes()}
	files["checksums.txt"] = fmt.Appendf(nil, "%x  %s\n", sha256.Sum256(files[archive]), archive)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/releases/latest":
			http.Redirect(w, r, "/releases/tag/v9.9.9", http.StatusFound)
		case r.URL.Path == "/releases/tag/v9.9.9":
			fmt.Fprint(w, "the release page")
		case strings.HasPrefix(r.URL.Path, "/releases/download/v9.9.9/"):
			b, ok := files[strings.TrimPrefix(r.URL.Path, "/releases/download/v9.9.9/")]
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Write(b)
		default:
			http.NotFound(w, r)
		}
	}))
	defer s.Close()

	// The repository: a broken link, and a link from the root.
	ws := tree(t, map[string]string{
		".git/HEAD":      "ref: refs/heads/main\n",
		"README.md":      "# Docs\n\nSee [the guide](/docs/guide.md) and [gone](docs/gone.md).\n",
		"docs/guide.md":  "# Guide\n\nBack to [the top](../README.md).\n",
		".gitignore":     "",
		"docs/.keep.txt": "",
	})
	arch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	run := func(t *testing.T, fail string) (stdout, summary string, code int) {
		t.Helper()
		tmp := t.TempDir()
		summaryPath := filepath.Join(tmp, "summary.md")
		cmd := exec.Command("bash", script)
		cmd.Env = append(os.Environ(), "RUNNER_OS=Linux", "RUNNER_ARCH="+arch, "RUNNER_TEMP="+tmp,
			"GITHUB_WORKSPACE="+ws, "GITHUB_STEP_SUMMARY="+summaryPath, "GITHUB_ACTION_PATH="+filepath.Dir(filepath.Dir(filepath.Dir(script))),
			"INPUT_ARGS=-offline .", "INPUT_VERSION=latest", "INPUT_FAIL="+fail, "INPUT_RELEASE_URL="+s.URL+"/releases/download")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		cmd.Run()
		b, _ := os.ReadFile(summaryPath)
		t.Logf("stderr: %s", errOut.String())
		return out.String(), string(b), cmd.ProcessState.ExitCode()
	}

	t.Run("fail", func(t *testing.T) {
		stdout, summary, code := run(t, "true")
		if code != exitFound {
			t.Errorf("exit %d, want %d (findings)", code, exitFound)
		}
		if !strings.Contains(stdout, "relurl: relurl v") && !strings.Contains(stdout, "relurl: relurl ") {
			t.Errorf("no version line: %q", stdout)
		}
		if !strings.Contains(stdout, "::error file=README.md,line=3") || !strings.Contains(stdout, "docs/gone.md") {
			t.Errorf("no annotation of the broken link on README.md's line 3:\n%s", stdout)
		}
		if strings.Contains(stdout, "guide.md") {
			t.Errorf("the link from the root, /docs/guide.md, was reported: GitHub finds it in the repository:\n%s", stdout)
		}
		if !strings.Contains(summary, "docs/gone.md") || !strings.Contains(summary, "|") {
			t.Errorf("the job summary has no table of the broken target:\n%s", summary)
		}
	})
	t.Run("report only", func(t *testing.T) {
		if _, _, code := run(t, "false"); code != 0 {
			t.Errorf("exit %d with fail false, want 0", code)
		}
	})
	t.Run("a tampered archive is never run", func(t *testing.T) {
		good := files[archive]
		files[archive] = append(bytes.Clone(good), 0)
		defer func() { files[archive] = good }()
		stdout, _, code := run(t, "false")
		if code == 0 || !strings.Contains(stdout, "does not match the release's checksums.txt") || strings.Contains(stdout, "::error file=") {
			t.Errorf("exit %d, stdout %q", code, stdout)
		}
	})
}
