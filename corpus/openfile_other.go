//go:build !unix

package corpus

import "os"

// openFile opens a file to read (see openfile_unix.go).
func openFile(path string) (*os.File, error) { return os.Open(path) }
