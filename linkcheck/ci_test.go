package linkcheck

import "testing"

// TestGitHubEscapes: a workflow command's message and property values are
// escaped as GitHub's toolkit escapes them.
func TestGitHubEscapes(t *testing.T) {
	if got := ghProperty("a:b,c%d\ne"); got != "a%3Ab%2Cc%25d%0Ae" {
		t.Errorf("ghProperty: %q", got)
	}
	if got := ghMessage("a:b,c%d\r\ne"); got != "a:b,c%25d%0D%0Ae" {
		t.Errorf("ghMessage: %q", got)
	}
}
