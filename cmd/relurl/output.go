package main

import (
	"cmp"
	"fmt"
	"io"

	"github.com/relurl/relurl/internal/safefile"
	"github.com/relurl/relurl/table"
)

// output is where a command's output goes: standard output, a file (-o),
// or a table.Writer in front of either for -format arrow and parquet.
type output struct {
	env   *env // the command's env with stdout replaced
	close func() error
	held  int64 // the memory it holds beside the documents: a table's batches
}

// openOutput opens the output of format at path ("" for standard output);
// with partRows, path is a directory of Parquet part files.
func openOutput(e *env, path, format string, partRows int64) (*output, error) {
	if path == "" && format != "arrow" && format != "parquet" {
		return &output{env: e, close: func() error { return nil }}, nil
	}
	redirected := *e
	redirected.stdoutIsTTY = false
	o := &output{env: &redirected}
	var dst io.Writer = e.stdout
	// closeFile ends the file of -o: committed, or with failed not nil
	// removed.
	closeFile := func(failed error) error { return failed }
	if path != "" && format != "parquet" {
		// Whole or not at all, as a Parquet file is: a run that fails or
		// is stopped leaves no shorter file under the name.
		f, err := safefile.Create(path)
		if err != nil {
			return nil, err
		}
		w := &fileWriter{f: f}
		dst, closeFile = w, w.close
	}
	if format == "arrow" || format == "parquet" {
		o.held = table.WriterMemory
	}
	switch format {
	case "arrow":
		w := table.NewArrow(dst)
		redirected.stdout = w
		o.close = func() error { return closeFile(w.Close()) }
	case "parquet":
		var w *table.Writer
		var err error
		if path != "" {
			w, err = table.CreateParquet(path, partRows)
		} else {
			w = table.NewParquet(dst)
		}
		if err != nil {
			return nil, err
		}
		redirected.stdout = w
		o.close = w.Close
	default:
		redirected.stdout = dst
		o.close = func() error { return closeFile(nil) }
	}
	return o, nil
}

// fileWriter writes to a file of -o, keeping the first error, which its
// close reports with the file's name.
type fileWriter struct {
	f   *safefile.File
	err error
}

func (w *fileWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.f.Write(p)
	w.err = err
	return n, err
}

// close commits the file, or removes it when writing it failed or failed
// is not nil (the table written to it could not be ended).
func (w *fileWriter) close(failed error) error {
	err := cmp.Or(w.err, failed)
	if err == nil {
		err = w.f.Commit()
	} else {
		w.f.Abort()
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", w.f.Name(), err)
	}
	return nil
}
