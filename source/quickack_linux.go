package source

import (
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// quickAck returns c acknowledging what it reads at once: Linux leaves
// quick-acknowledgement mode by itself, so it is asked for again after
// each read, which also sends an acknowledgement the kernel delayed.
func quickAck(c net.Conn) net.Conn {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return c
	}
	return &quickAckConn{TCPConn: tc, raw: raw}
}

type quickAckConn struct {
	*net.TCPConn
	raw syscall.RawConn
}

func (c *quickAckConn) Read(p []byte) (int, error) {
	n, err := c.TCPConn.Read(p)
	if n > 0 {
		c.raw.Control(func(fd uintptr) {
			unix.SetsockoptInt(int(fd), unix.IPPROTO_TCP, unix.TCP_QUICKACK, 1)
		})
	}
	return n, err
}
