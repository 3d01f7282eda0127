package main

import (
	"errors"
	"io"
	"os"

	"github.com/relurl/relurl/table"
)

// output is where a command's output goes: standard output, a file (-o),
// or a table.Writer in front of either for -format arrow and parquet.
type output struct {
	env   *env // the command's env with stdout replaced
	close func() error
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
	var closeFile func() error = func() error { return nil }
	if path != "" && format != "parquet" {
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		dst, closeFile = f, f.Close
	}
	switch format {
	case "arrow":
		w := table.NewArrow(dst)
		redirected.stdout = w
		o.close = func() error { return errors.Join(w.Close(), closeFile()) }
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
		o.close = closeFile
	}
	return o, nil
}
