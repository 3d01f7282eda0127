package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/parquet-go/parquet-go"

	"github.com/relurl/relurl/table"
)

// TestLinksArrow: relurl links -format arrow over wget's crawl holds, row
// for row and column for column, what -json prints; the Parquet file and
// its parts hold as many rows.
func TestLinksArrow(t *testing.T) {
	t.Parallel() // a long test: beside the others, on a machine of few cores (see TestMain)
	if _, err := os.Stat(docsCrawl); err != nil {
		t.Skipf("no shared data (%v)", err)
	}
	jsonOut, err := exec.Command(relurlBin, "links", "-json", docsCrawl).Output()
	if err != nil {
		t.Fatal(err)
	}
	var want []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(jsonOut))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var m map[string]any
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		if err := d.Decode(&m); err != nil {
			t.Fatal(err)
		}
		for k, v := range m {
			if v == nil {
				delete(m, k)
			}
		}
		want = append(want, m)
	}

	arrowOut, err := exec.Command(relurlBin, "links", "-format", "arrow", docsCrawl).Output()
	if err != nil {
		t.Fatal(err)
	}
	rd, err := ipc.NewReader(bytes.NewReader(arrowOut))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Release()
	if !rd.Schema().Equal(table.Schema) {
		t.Fatalf("schema %s", rd.Schema())
	}
	n := 0
	for rd.Next() {
		rec := rd.RecordBatch()
		for i := range int(rec.NumRows()) {
			got := map[string]any{}
			for c, f := range rec.Schema().Fields() {
				col := rec.Column(c)
				if col.IsNull(i) {
					continue
				}
				switch col := col.(type) {
				case *array.String:
					got[f.Name] = col.Value(i)
				default:
					got[f.Name] = json.Number(col.ValueStr(i))
				}
			}
			if n < len(want) && !reflect.DeepEqual(got, want[n]) {
				t.Fatalf("row %d:\n got %v\nwant %v", n, got, want[n])
			}
			n++
		}
	}
	if n != len(want) || n < 200_000 {
		t.Fatalf("%d rows, want %d (over 200,000)", n, len(want))
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "links.parquet")
	check(t, relurlRun(t, nil, "links", "-format", "parquet", "-o", file, docsCrawl), "", "*warcinfo 1\n", 0)
	if rows := parquetRows(t, file); rows != int64(n) {
		t.Errorf("the Parquet file has %d rows, want %d", rows, n)
	}
	// Row groups are encoded at once, on every core, and written in order:
	// the file is the one a single worker makes.
	one := filepath.Join(dir, "one.parquet")
	check(t, relurlRun(t, nil, "links", "-j", "1", "-format", "parquet", "-o", one, docsCrawl), "", "*warcinfo 1\n", 0)
	four := filepath.Join(dir, "four.parquet")
	check(t, relurlRun(t, nil, "links", "-j", "4", "-format", "parquet", "-o", four, docsCrawl), "", "*warcinfo 1\n", 0)
	a, errA := os.ReadFile(one)
	b, errB := os.ReadFile(four)
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Errorf("-j 1 and -j 4 write different Parquet files: %d and %d bytes (%v, %v)", len(a), len(b), errA, errB)
	}
	parts := filepath.Join(dir, "parts")
	check(t, relurlRun(t, nil, "links", "-format", "parquet", "-part-rows", "100000", "-o", parts, docsCrawl), "", "*warcinfo 1\n", 0)
	if _, err := os.Stat(filepath.Join(parts, "_SUCCESS")); err != nil {
		t.Errorf("the parts have no _SUCCESS marker: %v", err)
	}
	names, _ := filepath.Glob(filepath.Join(parts, "part-*"))
	var total int64
	for _, p := range names {
		rows := parquetRows(t, p)
		if rows > 100_000 {
			t.Errorf("%s: %d rows, over -part-rows", p, rows)
		}
		total += rows
	}
	if len(names) != 3 || total != int64(n) {
		t.Errorf("parts %v hold %d rows, want 3 parts of %d", names, total, n)
	}
}

func parquetRows(t *testing.T, path string) int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return pf.NumRows()
}

func TestLinksFormat(t *testing.T) {
	const page = "../../testdata/documents/rfc1808-appendix.html"
	jsonOut := relurlRun(t, nil, "links", "-json", page)
	check(t, relurlRun(t, nil, "links", "-format", "json", page), jsonOut.stdout, "", 0)
	tsvOut := relurlRun(t, nil, "links", "-tsv", page)
	check(t, relurlRun(t, nil, "links", "-format", "tsv", page), tsvOut.stdout, "", 0)

	// Parquet to a pipe: written from start to end, no seeking.
	pq := relurlRun(t, nil, "links", "-format", "parquet", page)
	if pq.code != 0 || !strings.HasPrefix(pq.stdout, "PAR1") || !strings.HasSuffix(pq.stdout, "PAR1") {
		t.Errorf("-format parquet to a pipe: exit %d, %d bytes, %q", pq.code, len(pq.stdout), pq.stderr)
	}
	if f, err := parquet.OpenFile(strings.NewReader(pq.stdout), int64(len(pq.stdout))); err != nil || f.NumRows() != int64(strings.Count(jsonOut.stdout, "\n")) {
		t.Errorf("-format parquet to a pipe: %v", err)
	}

	out := filepath.Join(t.TempDir(), "links.tsv")
	check(t, relurlRun(t, nil, "links", "-tsv", "-o", out, page), "", "", 0)
	if b, _ := os.ReadFile(out); string(b) != tsvOut.stdout {
		t.Errorf("-o %s holds %q, want %q", out, b, tsvOut.stdout)
	}

	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"-format", "csv"}, `-format "csv": want text, tsv, json, arrow or parquet`},
		{[]string{"-format", "arrow", "-json"}, "-format, -json, -tsv and -fields exclude each other"},
		{[]string{"-format", "arrow", "-part-rows", "10", "-o", "x"}, "-part-rows wants -format parquet, -o DIR and a number of rows above 0"},
		{[]string{"-format", "parquet", "-part-rows", "10"}, "-part-rows wants -format parquet, -o DIR and a number of rows above 0"},
	} {
		r := relurlRun(t, nil, append(append([]string{"links"}, c.args...), page)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.says) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", c.args, r.code, r.stderr, c.says)
		}
	}
	r := relurlRun(t, nil, "links", "-format", "parquet", "-o", filepath.Join(t.TempDir(), "no", "such", "dir", "x.parquet"), page)
	if r.code != exitWrite || !strings.Contains(r.stderr, "no/such/dir") {
		t.Errorf("an -o that cannot be made: exit %d, %q", r.code, r.stderr)
	}
}

// TestLinksListFiles: -list-files prints a manifest's inputs as relurl
// reads them (gzip undone, relative lines joined to -prefix, blank lines
// skipped) and reads none.
func TestLinksListFiles(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "warc.paths.gz")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("crawl/a.warc.gz\n\nhttp://127.0.0.1:1/b.warc.gz\n"))
	zw.Close()
	os.WriteFile(manifest, gz.Bytes(), 0o644)
	check(t, relurlRun(t, nil, "links", "-files", manifest, "-list-files"), "crawl/a.warc.gz\nhttp://127.0.0.1:1/b.warc.gz\n", "", 0)
	check(t, relurlRun(t, nil, "links", "-files", manifest, "-prefix", "s3://commoncrawl/", "-list-files"),
		"s3://commoncrawl/crawl/a.warc.gz\nhttp://127.0.0.1:1/b.warc.gz\n", "", 0)
	check(t, relurlRun(t, nil, "links", "-files", filepath.Join(dir, "none"), "-list-files"), "", "relurl links: -files: open …", 1)
	check(t, relurlRun(t, nil, "links", "-list-files", "x.html"), "", "relurl links: -list-files lists the lines of -files FILE, and nothing else…", 2)
}

// TestLinksBinaryOnTerminal: -format arrow and parquet refuse a terminal
// (here one that script(1) makes) and write to /dev/null, a character
// device that is no terminal.
func TestLinksBinaryOnTerminal(t *testing.T) {
	const page = "../../testdata/documents/rfc1808-appendix.html"
	scriptCmd, err := exec.LookPath("script")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI needs script(1), Debian's bsdutils, which every Debian has")
		}
		t.Skip("no script(1) to give relurl a terminal (bsdutils)")
	}
	for _, format := range []string{"arrow", "parquet"} {
		out, err := exec.Command(scriptCmd, "-qec", relurlBin+" links -format "+format+" "+page, "/dev/null").CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), "-format "+format+" is binary: give -o FILE") {
			t.Errorf("-format %s on a terminal: %v, %q", format, err, out)
		}
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(relurlBin, "links", "-format", format, page)
		cmd.Stdout = null
		err = cmd.Run()
		null.Close()
		if err != nil {
			t.Errorf("-format %s > /dev/null: %v", format, err)
		}
	}
}
