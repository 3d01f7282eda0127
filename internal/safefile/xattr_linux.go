package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// copyXattrs gives f the extended attributes of the file at path (ACLs,
// SELinux labels, user attributes), which a file renamed over it would
// otherwise drop. A file system without them has none to keep; one that
// cannot be given is an error, and the file is left as it is.
func copyXattrs(path string, f *os.File) error {
	names, err := xattrNames(path)
	if err != nil {
		if errors.Is(err, unix.ENOTSUP) {
			return nil
		}
		return fmt.Errorf("reading its extended attributes: %w", err)
	}
	for _, name := range names {
		value, err := xattrValue(path, name)
		if err != nil {
			return fmt.Errorf("reading its extended attribute %s: %w", name, err)
		}
		if err := unix.Fsetxattr(int(f.Fd()), name, value, 0); err != nil {
			return fmt.Errorf("its extended attribute %s could not be kept (%w): left as it is", name, err)
		}
	}
	return nil
}

// xattrNames lists the names of path's extended attributes, the link's
// own if it is one.
func xattrNames(path string) ([]string, error) {
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Llistxattr(path, buf)
		if errors.Is(err, unix.ERANGE) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var names []string
		for _, name := range bytes.Split(buf[:n], []byte{0}) {
			if len(name) > 0 {
				names = append(names, string(name))
			}
		}
		return names, nil
	}
}

func xattrValue(path, name string) ([]byte, error) {
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Lgetxattr(path, name, buf)
		if errors.Is(err, unix.ERANGE) {
			continue
		}
		return buf[:max(n, 0)], err
	}
}
