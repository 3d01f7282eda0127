// Package safefile writes a user's files as rsync and git do: whole or not
// at all, never through a symbolic link, never by truncating what is there.
//
// Every file is written under a hidden temporary name in the directory it
// belongs in (".NAME.relurl-*.tmp") and renamed over its final name once it
// is whole, so that a reader, a full disk, a crash or a kill finds either
// the old file or the new one, never a part of either. A symbolic link
// planted where a file is written is never followed to a file; only what
// is not a regular file (a device, a FIFO: /dev/null, /dev/stdout) is
// written in place, since it cannot be replaced without being destroyed.
// The temporary files of a process that is stopped by a signal are
// removed by Cleanup, which the command's signal handler calls.
//
// Create begins a new file or the replacement of one; Replace replaces a
// file that was read, after checking that nobody changed it meanwhile,
// that the user may write it, and that its owner, group and mode can be
// kept; CreateIn writes below a directory that it never leaves (package
// os's Root), for a copy of a tree.
package safefile

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// A File is a file being written. It appears under its name only when
// Commit succeeds; until then, and after Abort, nothing at the name has
// changed.
type File struct {
	f    *os.File
	root *os.Root // the directory the names are in
	own  bool     // root was opened here, and is closed with the file
	// inPlace is set for a file written where it is, not renamed over:
	// a device, a FIFO or a socket (see Create).
	inPlace bool
	tmp     string // the temporary file's name in root
	name    string // the final name in root
	path    string // the final path, for messages
	mode    fs.FileMode
	// owner, when set, is given to the file before it is renamed: the
	// owner and group of the file it replaces.
	owner *owner
	mu    sync.Mutex // Commit and Abort, which Cleanup may call from another goroutine
	done  bool
}

// Create begins writing the file at path. A regular file there keeps its
// mode (permissions, setuid, setgid, sticky) and, where the process may
// set them, its owner and group; a new file gets mode 0644.
//
// Only a regular file (or nothing) is ever replaced. What is at path, or
// what a symbolic link at path leads to, when it is not a regular file (a
// device such as /dev/null, a FIFO, a socket, a terminal, /dev/stdout) is
// written in place, as a shell's redirection and sort -o write it: it
// cannot be made whole or not at all, and replacing it would destroy it.
// A symbolic link to a regular file, or to nothing, is refused: replacing
// the link would destroy it and following it would write a file the path
// does not name, so the error asks for the file itself. A directory is
// refused.
func Create(path string) (*File, error) {
	if info, err := os.Lstat(path); err == nil {
		link := info.Mode()&fs.ModeSymlink != 0
		if link {
			info, err = os.Stat(path)
			if err != nil {
				return nil, fmt.Errorf("%s: a symbolic link to nothing: left as it is; name a file", path)
			}
		}
		switch {
		case info.IsDir():
			return nil, fmt.Errorf("%s: a directory, not a file", path)
		case !info.Mode().IsRegular():
			return openInPlace(path)
		case link:
			return nil, fmt.Errorf("%s: a symbolic link to a regular file: left as it is; name the file itself", path)
		}
	}
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	f, err := create(root, filepath.Base(path), path, 0o644)
	if err != nil {
		root.Close()
		return nil, err
	}
	f.own = true
	if info, err := root.Lstat(f.name); err == nil && info.Mode().IsRegular() {
		f.mode = keptMode(info)
		if o := ownerOf(info); o.check() == nil {
			f.owner = o // else the file becomes the user's, as cp's copy does
		}
	}
	return f, nil
}

// openInPlace opens what is not a regular file for writing where it is. A
// FIFO's open waits for its reader, as a shell's does.
func openInPlace(path string) (*File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	// Opening may have raced with a rename: what was opened must still be
	// no regular file, or it would be written over in place.
	if info, err := f.Stat(); err != nil || info.Mode().IsRegular() || info.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: changed while it was opened: left as it is", path)
	}
	return &File{f: f, path: path, inPlace: true}, nil
}

// CreateIn begins writing the file name below root (a slash-separated
// path within it), with mode, making the directories it needs. Neither
// the directories nor the file may be reached through a symbolic link
// that leads out of root.
func CreateIn(root *os.Root, name string, mode fs.FileMode) (*File, error) {
	name = filepath.Clean(filepath.FromSlash(name))
	if dir := filepath.Dir(name); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	return create(root, name, filepath.Join(root.Name(), name), mode)
}

func create(root *os.Root, name, path string, mode fs.FileMode) (*File, error) {
	// The file is made and registered under pendingMu, so that Cleanup
	// either finds it or stops it from being made.
	pendingMu.Lock()
	defer pendingMu.Unlock()
	if stopped {
		return nil, ErrStopped
	}
	var random [6]byte
	for range 100 {
		rand.Read(random[:])
		tmp := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".relurl-"+hex.EncodeToString(random[:])+".tmp")
		f, err := root.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		sf := &File{f: f, root: root, tmp: tmp, name: name, path: path, mode: mode}
		pending[sf] = struct{}{}
		return sf, nil
	}
	return nil, fmt.Errorf("%s: no free temporary name beside it", path)
}

// Name is the file's final path.
func (f *File) Name() string { return f.path }

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) { return f.f.Write(p) }

// Commit gives the file its name: it is flushed to the disk, given its
// mode (and owner), and renamed over the name. On an error nothing at the
// name has changed, and the temporary file is gone.
func (f *File) Commit() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done {
		return errors.New("safefile: " + f.path + ": already committed or aborted")
	}
	if f.inPlace {
		f.done = true
		return f.f.Close()
	}
	err := f.f.Sync()
	if err == nil && f.owner != nil {
		err = f.owner.give(f.f)
	}
	if err == nil {
		err = f.f.Chmod(f.mode)
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = f.root.Rename(f.tmp, f.name)
	}
	if err != nil {
		f.root.Remove(f.tmp)
	}
	f.finish()
	return err
}

// Abort removes the temporary file and leaves the name as it was. It may
// be called after Commit, which makes it do nothing.
func (f *File) Abort() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done {
		return
	}
	f.f.Close()
	if f.inPlace {
		f.done = true // what was written to a device stays written
		return
	}
	f.root.Remove(f.tmp)
	f.finish()
}

func (f *File) finish() {
	f.done = true
	pendingMu.Lock()
	delete(pending, f)
	pendingMu.Unlock()
	if f.own {
		f.root.Close()
	}
}

// WriteFile writes data to the file at path, whole or not at all, as
// Create and Commit do.
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// ErrChanged is the error of Replace when the file changed after it was
// read: writing would lose what was written meanwhile.
var ErrChanged = errors.New("it changed since it was read: left as it is")

// Replace replaces the file at path, read as old when its information was
// info, with data. It refuses, leaving the file as it is, when the file is
// no longer the one read (ErrChanged: another file, a changed size,
// modification time or content), when it is a symbolic link or not a
// regular file, when it is read-only or the user may not write it (a
// rename in a writable directory could replace it all the same), and when
// its owner, group or extended attributes (ACLs, SELinux labels, on Linux)
// could not be kept. The file's mode is kept.
func Replace(path string, old, data []byte, info fs.FileInfo) error {
	if info.Mode()&fs.ModeSymlink != 0 || !info.Mode().IsRegular() {
		return errors.New("not a regular file: left as it is")
	}
	if info.Mode().Perm()&0o200 == 0 {
		return errors.New("read-only: left as it is")
	}
	if err := mayWrite(path); err != nil {
		return fmt.Errorf("not writable by this user (%v): left as it is", err)
	}
	if err := unchanged(path, old, info); err != nil {
		return err
	}
	f, err := Create(path)
	if err != nil {
		return err
	}
	f.mode, f.owner = keptMode(info), ownerOf(info)
	if err := f.owner.check(); err != nil {
		f.Abort()
		return err
	}
	if err := copyXattrs(path, f.f); err != nil {
		f.Abort()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	// Once more just before the rename: the window in which a change is
	// lost is the rename itself.
	if err := unchanged(path, old, info); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// unchanged reports ErrChanged unless the file at path is still the one
// read: the same file, size, modification time and content.
func unchanged(path string, old []byte, info fs.FileInfo) error {
	now, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !os.SameFile(now, info) || now.Size() != info.Size() || !now.ModTime().Equal(info.ModTime()) || now.Mode() != info.Mode() {
		return ErrChanged
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.Equal(data, old) {
		return ErrChanged
	}
	return nil
}

// keptMode is the mode a replacement takes from the file it replaces.
func keptMode(info fs.FileInfo) fs.FileMode {
	return info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

// pending holds the files begun and neither committed nor aborted; once
// stopped, no file is begun.
var (
	pendingMu sync.Mutex
	pending   = map[*File]struct{}{}
	stopped   bool
)

// ErrStopped is the error of a file begun after Cleanup.
var ErrStopped = errors.New("safefile: stopping: no file is written")

// Cleanup removes the temporary files of every File neither committed nor
// aborted, and makes every File begun after it fail with ErrStopped: a
// command stopped by a signal calls it on its way out, while its other
// goroutines may still be writing.
func Cleanup() {
	pendingMu.Lock()
	stopped = true
	files := make([]*File, 0, len(pending))
	for f := range pending {
		files = append(files, f)
	}
	pendingMu.Unlock()
	for _, f := range files {
		f.Abort() // takes f.mu, which finish holds before pendingMu
	}
}
