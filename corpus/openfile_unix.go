//go:build unix

package corpus

import (
	"io"
	"os"
	"syscall"
)

// A rawFile is an open file of the inputs, read by system calls alone:
// os.File's own work for each file it opens (an fcntl, the runtime
// poller's look at it, a cleanup to register) costs as much as reading
// one of a docs tree's pages of a few KiB. It is closed once.
type rawFile struct {
	fd   int
	name string
}

// openFile opens a file to read.
func openFile(path string) (*rawFile, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return &rawFile{fd, path}, nil
	}
}

func (f *rawFile) Read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(f.fd, b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: f.name, Err: err}
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// ReadAt reads at off by pread, which leaves the offset Read reads at
// where it was.
func (f *rawFile) ReadAt(b []byte, off int64) (int, error) {
	for {
		n, err := syscall.Pread(f.fd, b, off)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: f.name, Err: err}
		case n < len(b):
			return n, io.EOF
		}
		return n, nil
	}
}

func (f *rawFile) Close() error {
	if f.fd < 0 {
		return os.ErrClosed
	}
	fd := f.fd
	f.fd = -1
	if err := syscall.Close(fd); err != nil {
		return &os.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}

// size returns the size of f by fstat, and whether it is a regular file.
func (f *rawFile) size() (int64, bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(f.fd, &st)
		if err == syscall.EINTR {
			continue
		}
		return st.Size, err == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG
	}
}
