//go:build !unix

package corpus

import "os"

// A rawFile is an open file of the inputs (see openfile_unix.go).
type rawFile struct{ *os.File }

// openFile opens a file to read.
func openFile(path string) (*rawFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &rawFile{f}, nil
}

// size returns the size of f by fstat, and whether it is a regular file.
func (f *rawFile) size() (int64, bool) {
	fi, err := f.Stat()
	if err != nil {
		return 0, false
	}
	return fi.Size(), fi.Mode().IsRegular()
}
