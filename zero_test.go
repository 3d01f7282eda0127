package relurl

import (
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/zerotest"
)

// TestZeroValues calls every exported method of every exported type of the
// package on its zero value (and on a pointer to one), with zero values
// for its arguments: none may panic, as none of net/netip's does. A zero
// WebURL is the empty URL: it has no parts.
func TestZeroValues(t *testing.T) {
	calls := zerotest.Check(t, BaseURL{}, Form(0), Part{}, Resolver{}, SchemeCategory(0), SearchParams{}, SetError{}, Spec(0),
		Step{}, SyntaxError{}, Trace{}, URL{}, ValidationError{}, WebURL{})
	t.Logf("%d methods called on zero values", calls)

	// The zero WebURL has no parts at all.
	var u WebURL
	_, hasQuery := u.Query()
	_, hasFragment := u.Fragment()
	if u.IsValid() || hasQuery || hasFragment || u.Port() != "" || u.Href() != "" || u.Scheme() != "" {
		t.Errorf("the zero WebURL: valid %v, query %v, fragment %v, port %q", u.IsValid(), hasQuery, hasFragment, u.Port())
	}
	if p, _ := ParseWeb("http://h/"); !p.IsValid() {
		t.Error("a parsed URL is not valid")
	}
}

// The search parameters a URL returns are read without a variable, and a
// validation error is an error as a value.
func TestValuesInUse(t *testing.T) {
	u, _ := ParseWeb("http://h/?q=a+b")
	if q, _ := u.SearchParams().Get("q"); q != "a b" {
		t.Errorf("u.SearchParams().Get(\"q\") = %q", q)
	}
	_, errs, _ := CheckWeb("http://h/%zz", nil)
	var err error = errs[0]
	if !strings.HasPrefix(err.Error(), "offset 9: invalid-URL-unit (") {
		t.Errorf("ValidationError as an error: %v", err)
	}
}

// MustParseWeb gives the URL, or panics; a WebURL is written and read back
// as text.
func TestMustParseWebAndText(t *testing.T) {
	u := MustParseWeb("HTTP://H/a b")
	if u.Href() != "http://h/a%20b" {
		t.Errorf("MustParseWeb: %q", u.Href())
	}
	b, _ := u.AppendText([]byte("url: "))
	var back WebURL
	if string(b) != "url: http://h/a%20b" || back.UnmarshalText(b[len("url: "):]) != nil || back != u {
		t.Errorf("AppendText %q, read back %v", b, back)
	}
	defer func() {
		if recover() == nil {
			t.Error("MustParseWeb of no URL does not panic")
		}
	}()
	MustParseWeb("no url")
}
