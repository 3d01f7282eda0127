//go:build unix

package safefile

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// owner is the owner and group of a file being replaced.
type owner struct{ uid, gid int }

// ownerOf returns the owner of the file info describes, nil when the
// process's own files get them anyway.
func ownerOf(info fs.FileInfo) *owner {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid() {
		return nil
	}
	return &owner{int(st.Uid), int(st.Gid)}
}

// check reports whether the owner and group can be given to a new file:
// only the superuser gives a file away, and others set only a group they
// are in.
func (o *owner) check() error {
	if o == nil || os.Geteuid() == 0 {
		return nil
	}
	if o.uid != os.Geteuid() {
		return fmt.Errorf("owned by user %d: replacing it would make it this user's (%d): left as it is", o.uid, os.Geteuid())
	}
	groups, _ := os.Getgroups()
	for _, g := range append(groups, os.Getegid()) {
		if g == o.gid {
			return nil
		}
	}
	return fmt.Errorf("of group %d, which this user is not in: replacing it would change its group: left as it is", o.gid)
}

// give gives the file f the owner and group.
func (o *owner) give(f *os.File) error {
	if o == nil {
		return nil
	}
	return f.Chown(o.uid, o.gid)
}

// mayWrite reports whether the process may write the file at path, as
// access(2) says, which counts the superuser's rights too.
func mayWrite(path string) error {
	return unix.Access(path, unix.W_OK)
}
