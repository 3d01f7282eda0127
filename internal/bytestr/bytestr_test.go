package bytestr

import "testing"

func TestTransient(t *testing.T) {
	b := []byte("http://a/b")
	if s := Transient(b); s != "http://a/b" {
		t.Errorf("Transient = %q", s)
	}
	if s := Transient(nil); s != "" {
		t.Errorf("Transient(nil) = %q", s)
	}
	if n := testing.AllocsPerRun(100, func() { _ = Transient(b) }); n != 0 {
		t.Errorf("Transient allocates %v times", n)
	}
}
