package whatwg

import (
	"errors"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/zerotest"
)

// TestZeroValues calls every exported method of every exported type of the
// package on its zero value (and on a pointer to one), with zero values
// for its arguments: none may panic, as none of net/netip's does. A zero
// URL is the empty URL: it has no parts.
func TestZeroValues(t *testing.T) {
	calls := zerotest.Check(t, SearchParams{}, SetError{}, URL{}, ValidationError{})
	t.Logf("%d methods called on zero values", calls)

	var u URL
	_, hasQuery := u.Query()
	_, hasFragment := u.Fragment()
	if u.IsValid() || hasQuery || hasFragment || u.Port() != "" || u.Href() != "" || u.Scheme() != "" {
		t.Errorf("the zero URL: valid %v, query %v, fragment %v, port %q", u.IsValid(), hasQuery, hasFragment, u.Port())
	}
	if p, _ := Parse("http://h/"); !p.IsValid() {
		t.Error("a parsed URL is not valid")
	}

	// Every setter but href refuses the zero URL, which is no URL: a
	// pathname alone would make an href "/p" with no scheme.
	for _, setter := range []string{"protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"} {
		for _, value := range []string{"", "x", "/p"} {
			got, err := u.With(setter, value)
			var se *SetError
			if !errors.As(err, &se) || se.Setter != setter || got.IsValid() {
				t.Errorf("the zero URL's %s setter with %q: %q, %v; want the zero URL and a *SetError", setter, value, got.Href(), err)
			}
		}
	}
	if got, err := u.With("href", "http://h/p"); err != nil || got.Href() != "http://h/p" {
		t.Errorf("the zero URL's href setter: %q, %v", got.Href(), err)
	}
	if got := u.WithSearchParams(ParseSearchParams("a=b")); got.IsValid() {
		t.Errorf("the zero URL with search params: %q, want the zero URL", got.Href())
	}

	// The zero URL round-trips through text, as a parsed one does.
	text, err := u.MarshalText()
	back := MustParse("http://overwritten/")
	if err != nil || back.UnmarshalText(text) != nil || back != u {
		t.Errorf("the zero URL as text: %q, %v, read back as %q", text, err, back.Href())
	}
}

// The search parameters a URL returns are read without a variable, and a
// validation error is an error as a value.
func TestValuesInUse(t *testing.T) {
	u, _ := Parse("http://h/?q=a+b")
	if q, _ := u.SearchParams().Get("q"); q != "a b" {
		t.Errorf("u.SearchParams().Get(\"q\") = %q", q)
	}
	_, errs, _ := Check("http://h/%zz", nil)
	var err error = errs[0]
	if !strings.HasPrefix(err.Error(), "offset 9: invalid-URL-unit (") {
		t.Errorf("ValidationError as an error: %v", err)
	}
}

// MustParse gives the URL, or panics; a URL is written and read back
// as text.
func TestMustParseAndText(t *testing.T) {
	u := MustParse("HTTP://H/a b")
	if u.Href() != "http://h/a%20b" {
		t.Errorf("MustParse: %q", u.Href())
	}
	b, _ := u.AppendText([]byte("url: "))
	var back URL
	if string(b) != "url: http://h/a%20b" || back.UnmarshalText(b[len("url: "):]) != nil || back != u {
		t.Errorf("AppendText %q, read back %v", b, back)
	}
	defer func() {
		if recover() == nil {
			t.Error("MustParse of no URL does not panic")
		}
	}()
	MustParse("no url")
}
