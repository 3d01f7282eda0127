package linkcheck

import (
	"context"
	"fmt"
	"testing"
)

// A LinkSet gives back every link of its documents, in a report's order,
// whatever order they came in and however many chunks they filled.
func TestLinkSet(t *testing.T) {
	var set LinkSet
	defer set.Close()
	const n = 100_000 // about 3 MB encoded: several chunks
	a, b := set.Document(), set.Document()
	for i := range n {
		// a's links come in order, b's backwards (a late <base> holds
		// links back); each documents' a few at once.
		a.Add(Link{Source: "a.html", Line: 1 + i/100, Column: 1 + i%100, URL: fmt.Sprintf("https://x.example/%d", i%7), Ref: "r", Element: "a", Attribute: "href"})
		j := n - 1 - i
		b.Add(Link{Source: "b.html", Line: 1 + j/100, Column: 1 + j%100, URL: "https://x.example/b", Ref: fmt.Sprint(j), Element: "img", Attribute: "src"})
	}
	b.Close()
	a.Close()
	(&Checker{Options: Options{Offline: true}}).CheckSet(context.Background(), &set)
	i := 0
	for r := range set.Reports() {
		source, k := "a.html", i
		if i >= n {
			source, k = "b.html", i-n
		}
		if r.Source != source || r.Line != 1+k/100 || r.Column != 1+k%100 || source == "b.html" && r.Ref != fmt.Sprint(k) {
			t.Fatalf("report %d: %s:%d:%d %q, want %s:%d:%d", i, r.Source, r.Line, r.Column, r.Ref, source, 1+k/100, 1+k%100)
		}
		if r.State != Excluded {
			t.Fatalf("report %d: %v, want excluded (offline)", i, r.State)
		}
		i++
	}
	if i != 2*n || set.Err() != nil {
		t.Errorf("%d reports, want %d; err %v", i, 2*n, set.Err())
	}
}
