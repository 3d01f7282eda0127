// Package capped reads at most a set number of bytes of a stream and
// tells whether the stream held more: the bound on a document, or on a
// payload once its content coding is removed (a few kilobytes may decode to
// gigabytes).
package capped

import "io"

// A Reader reads at most Max bytes of R.
type Reader struct {
	R    io.Reader
	Max  int64
	left int64
	// Over is set once a read at the bound finds that R held more: at the
	// bound exactly is not over it.
	Over bool
}

// New returns a Reader of at most max bytes of r.
func New(r io.Reader, max int64) *Reader { return &Reader{R: r, Max: max, left: max} }

// Read reads from R, and returns io.EOF at the bound.
func (c *Reader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		if n, _ := c.R.Read(one[:]); n > 0 {
			c.Over = true
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.R.Read(p)
	c.left -= int64(n)
	return n, err
}

// N returns how many bytes were read.
func (c *Reader) N() int64 { return c.Max - c.left }
