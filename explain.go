package relurl

import (
	"fmt"
	"strings"

	"github.com/relurl/relurl/rfc1808"
	"github.com/relurl/relurl/whatwg"
)

// A Trace tells how a resolution went, step by step, in the words of the
// standard that defines it: an RFC's steps, or the URL Standard's parser
// states. Explain makes one.
//
// Explain is written for clarity, not speed: it carries out each step as
// the RFC states it, with string rewrites where the RFC describes string
// rewrites (Section 4, Step 6 of RFC 1808; Section 5.2.4 of RFC 3986), so it
// also serves as the reference the fast resolvers are tested against.
type Trace struct {
	Spec   Spec   `json:"spec"`
	Base   []Part `json:"base"` // the base's components, as the RFC splits them
	Ref    []Part `json:"ref"`  // the reference's
	Steps  []Step `json:"steps"`
	Result string `json:"result"`
	// Error is why the WHATWG URL parser returned failure, if it did; then
	// Result is "".
	Error string `json:"error,omitempty"`
}

// A Step is one step of the algorithm and what it did.
type Step struct {
	Step string `json:"step"`           // "1", "2a", "6c", "5.2.2", "5.2.4 C", …
	Text string `json:"text"`           // what it did, in the RFC's terms
	Path string `json:"path,omitempty"` // for path rewrites, the path after this step
}

// String gives the trace as text, one step a line.
func (t Trace) String() string {
	var b strings.Builder
	parts := func(ps []Part) string {
		var s []string
		for _, p := range ps {
			s = append(s, fmt.Sprintf("%s %q", p.Name, p.Value))
		}
		if len(s) == 0 {
			return "(nothing)"
		}
		return strings.Join(s, ", ")
	}
	switch t.Spec {
	case WHATWG:
		fmt.Fprintf(&b, "%s; the base parsed as\n  base       %s\nand the reference parsed against it, by the basic URL parser:\n", t.Spec, parts(t.Base))
	case RFC3986:
		fmt.Fprintf(&b, "%s; split by Appendix B:\n  base       %s\n  reference  %s\n", t.Spec, parts(t.Base), parts(t.Ref))
	default:
		fmt.Fprintf(&b, "%s; split by Section 2.4:\n  base       %s\n  reference  %s\n", t.Spec, parts(t.Base), parts(t.Ref))
	}
	width := 9 // the width of "result: " and of every RFC step
	for _, s := range t.Steps {
		width = max(width, len(s.Step)+1)
	}
	for _, s := range t.Steps {
		fmt.Fprintf(&b, "%-*s %s\n", width, s.Step+":", s.Text)
	}
	if t.Error != "" {
		fmt.Fprintf(&b, "%-*s %s\n", width, "failure:", t.Error)
	} else {
		fmt.Fprintf(&b, "%-*s %s\n", width, "result:", t.Result)
	}
	return b.String()
}

func (t *Trace) step(step, format string, args ...any) {
	t.Steps = append(t.Steps, Step{Step: step, Text: fmt.Sprintf(format, args...)})
}

func (t *Trace) pathStep(step, path, format string, args ...any) {
	t.Steps = append(t.Steps, Step{Step: step, Text: fmt.Sprintf(format, args...), Path: path})
}

// explain1808 is RFC 1808, Section 4, step by step, with the decisions
// documented on URL.AppendResolve.
func explain1808(base, ref string) Trace {
	b, e := rfc1808.Split(base), rfc1808.Split(ref)
	t := Trace{Spec: RFC1808, Base: parts1808(b), Ref: parts1808(e)}
	bo, eo := ends1808Of(b), ends1808Of(e)
	done := func(result string) Trace {
		t.Result = result
		return t
	}

	if base == "" {
		t.step("1", "the base URL is empty (Section 3.4): the reference is taken as an absolute URL, unchanged")
		return done(ref)
	}
	t.step("1", "the base URL is %q", base)
	if ref == "" {
		t.step("2a", "the reference is empty: it inherits the entire base URL, fragment included")
		return done(base)
	}
	if e.HasScheme() {
		t.step("2b", "the reference starts with the scheme %q: it is an absolute URL, unchanged", e.Scheme())
		return done(ref)
	}
	var r strings.Builder // the result, from Step 2c on
	if b.HasScheme() {
		t.step("2c", "the reference inherits the base's scheme %q", b.Scheme())
	} else {
		t.step("2c", "the base has no scheme to inherit; nor will the result")
	}
	r.WriteString(base[:bo.scheme])

	if e.NetLoc() != "" {
		t.step("3", "the reference's net_loc %q is non-empty: skip to Step 7", e.NetLoc())
		r.WriteString(ref)
		return done(t.recombined(r.String()))
	}
	switch {
	case !b.HasNetLoc():
		t.step("3", "the reference's net_loc is empty, and the base has none to inherit")
	case e.HasNetLoc():
		t.step("3", "the reference's net_loc is present but empty: it inherits the base's, %q", b.NetLoc())
	default:
		t.step("3", "the reference has no net_loc: it inherits the base's, %q", b.NetLoc())
	}
	r.WriteString(base[bo.scheme:bo.netLoc])

	if e.AbsPath() {
		t.step("4", "the reference's path %q is preceded by \"/\": it is not relative; skip to Step 7", "/"+e.Path())
		r.WriteString(ref[eo.netLoc:])
		return done(t.recombined(r.String()))
	}
	t.step("4", "the reference's path is not preceded by \"/\"")

	if e.Path() == "" {
		t.step("5", "the reference's path is empty: it inherits the base's path %q", base[bo.netLoc:bo.path])
		r.WriteString(base[bo.netLoc:bo.path])
		if e.Params() != "" {
			t.step("5a", "the reference's params %q are non-empty: skip to Step 7", e.Params())
			r.WriteString(ref[eo.path:])
			return done(t.recombined(r.String()))
		}
		t.step("5a", "the reference's params are empty or absent: it inherits the base's%s", quotedOrNone(b.Params(), b.HasParams()))
		r.WriteString(base[bo.path:bo.params])
		if e.Query() != "" {
			t.step("5b", "the reference's query %q is non-empty: skip to Step 7", e.Query())
			r.WriteString(ref[eo.params:])
			return done(t.recombined(r.String()))
		}
		t.step("5b", "the reference's query is empty or absent: it inherits the base's%s; skip to Step 7", quotedOrNone(b.Query(), b.HasQuery()))
		r.WriteString(base[bo.params:bo.query])
		r.WriteString(ref[eo.query:])
		return done(t.recombined(r.String()))
	}

	if b.AbsPath() || b.HasNetLoc() {
		r.WriteString("/")
	}
	r.WriteString(t.step6(b.Path(), e.Path(), b.HasNetLoc() && !b.AbsPath()))
	r.WriteString(ref[eo.path:])
	return done(t.recombined(r.String()))
}

func quotedOrNone(s string, ok bool) string {
	if !ok {
		return " (none)"
	}
	return fmt.Sprintf(", %q", s)
}

func (t *Trace) recombined(result string) string {
	t.step("7", "the components are recombined: %q", result)
	return result
}

// step6 merges the paths (without the base's leading "/") and rewrites the
// result with the string pattern matches 6a to 6d, exactly as the RFC words
// them, recording each.
func (t *Trace) step6(basePath, refPath string, slashAdded bool) string {
	path := basePath[:strings.LastIndex(basePath, "/")+1] + refPath
	note := ""
	if slashAdded {
		note = ` (the base has a net_loc and no path: its path is taken as "/")`
	}
	t.pathStep("6", path, "the last segment of the base's path %q is removed and the reference's path %q appended: %q%s", basePath, refPath, path, note)

	// isStart reports whether a complete segment may begin at i.
	isStart := func(p string, i int) bool { return i == 0 || p[i-1] == '/' }
	report := func(step, what, before, after string) {
		if before == after {
			t.pathStep(step, after, "%s: none", what)
		} else {
			t.pathStep(step, after, "%s: %q becomes %q", what, before, after)
		}
	}

	// 6a: all occurrences of "./" where "." is a complete path segment.
	before := path
	for i := 0; i+2 <= len(path); {
		if path[i:i+2] == "./" && isStart(path, i) {
			path = path[:i] + path[i+2:]
			continue
		}
		i++
	}
	report("6a", `all "./" segments removed`, before, path)

	// 6b: a trailing "." that is a complete path segment.
	before = path
	if strings.HasSuffix(path, ".") && isStart(path, len(path)-1) {
		path = path[:len(path)-1]
	}
	report("6b", `a final "." removed`, before, path)

	// 6c: the leftmost "<segment>/../", segment not "..", again and again.
	for {
		found := false
		for i := 0; i < len(path) && !found; i++ {
			if !isStart(path, i) {
				continue
			}
			j := strings.Index(path[i:], "/")
			if j < 0 {
				break
			}
			if seg := path[i : i+j]; seg != ".." && strings.HasPrefix(path[i+j:], "/../") {
				before = path
				path = path[:i] + path[i+j+4:]
				found = true
				t.pathStep("6c", path, "%q removed: %q becomes %q", seg+"/../", before, path)
			}
		}
		if !found {
			break
		}
	}
	if n := len(t.Steps); t.Steps[n-1].Step != "6c" {
		t.pathStep("6c", path, `no "<segment>/../" to remove`)
	}

	// 6d: a trailing "<segment>/..", segment not "..", once.
	before = path
	if rest, ok := strings.CutSuffix(path, "/.."); ok {
		i := strings.LastIndex(rest, "/") + 1
		if rest[i:] != ".." {
			path = path[:i]
		}
	}
	report("6d", `a final "<segment>/.." removed`, before, path)
	return path
}

// explain3986 is RFC 3986, Section 5.2.2, as its pseudocode reads.
func explain3986(base, ref string, nonStrict bool) Trace {
	B, R := split3986(base), split3986(ref)
	t := Trace{Spec: RFC3986, Base: B.parts(), Ref: R.parts()}
	var T components3986

	if nonStrict && R.hasScheme && strings.EqualFold(R.scheme, B.scheme) && B.hasScheme {
		t.step("5.2.2", "non-strict: the reference's scheme %q is the base's: it is ignored", R.scheme)
		R.scheme, R.hasScheme = "", false
	}
	switch {
	case R.hasScheme:
		t.step("5.2.2", "the reference has a scheme, %q: it is the target, with dot segments removed from its path", R.scheme)
		T = R
		T.path = t.removeDotSegments(R.path)
	case R.hasAuthority:
		t.step("5.2.2", "the reference has an authority, %q: the target takes it, its path and query, and the base's scheme", R.authority)
		T = R
		T.path = t.removeDotSegments(R.path)
		T.scheme, T.hasScheme = B.scheme, B.hasScheme
	case R.path == "":
		T = R
		T.scheme, T.hasScheme, T.authority, T.hasAuthority, T.path = B.scheme, B.hasScheme, B.authority, B.hasAuthority, B.path
		if R.hasQuery {
			t.step("5.2.2", "the reference's path is empty: the target takes the base's path %q, and the reference's query %q, defined", B.path, R.query)
		} else {
			T.query, T.hasQuery = B.query, B.hasQuery
			t.step("5.2.2", "the reference's path is empty and its query undefined: the target takes the base's path %q and query%s", B.path, quotedOrNone(B.query, B.hasQuery))
		}
	default:
		T = R
		T.scheme, T.hasScheme, T.authority, T.hasAuthority = B.scheme, B.hasScheme, B.authority, B.hasAuthority
		if strings.HasPrefix(R.path, "/") {
			t.step("5.2.2", "the reference's path %q is absolute: the target takes it, with the base's scheme and authority", R.path)
			T.path = t.removeDotSegments(R.path)
		} else {
			t.step("5.2.2", "the reference's path %q is relative: it is merged with the base's, and the target takes the base's scheme and authority", R.path)
			var merged string
			if B.hasAuthority && B.path == "" {
				merged = "/" + R.path
				t.pathStep("5.2.3", merged, "merge: the base has an authority and an empty path: %q", merged)
			} else {
				merged = B.path[:strings.LastIndex(B.path, "/")+1] + R.path
				t.pathStep("5.2.3", merged, "merge: the base's path %q up to its last \"/\", then the reference's path %q: %q", B.path, R.path, merged)
			}
			T.path = t.removeDotSegments(merged)
		}
	}
	T.fragment, T.hasFragment = R.fragment, R.hasFragment
	t.Result = T.String()
	t.step("5.3", "the components are recomposed: %q", t.Result)
	return t
}

// removeDotSegments is Section 5.2.4 as written: an input and an output
// buffer, and rules A to E applied until the input is empty.
func (t *Trace) removeDotSegments(path string) string {
	in, out := path, ""
	for in != "" {
		var rule string
		switch {
		case strings.HasPrefix(in, "../"):
			rule, in = "A", in[3:]
		case strings.HasPrefix(in, "./"):
			rule, in = "A", in[2:]
		case strings.HasPrefix(in, "/./"):
			rule, in = "B", in[2:]
		case in == "/.":
			rule, in = "B", "/"
		case strings.HasPrefix(in, "/../"):
			rule, in = "C", in[3:]
			out = out[:max(0, strings.LastIndex(out, "/"))]
		case in == "/..":
			rule, in = "C", "/"
			out = out[:max(0, strings.LastIndex(out, "/"))]
		case in == "." || in == "..":
			rule, in = "D", ""
		default:
			rule = "E"
			n := strings.Index(in[1:], "/") + 1
			if n == 0 {
				n = len(in)
			}
			out, in = out+in[:n], in[n:]
		}
		t.pathStep("5.2.4 "+rule, out, "remove_dot_segments: output %q, input %q", out, in)
	}
	if path == out {
		// Collapse a rewrite that changed nothing into one line.
		n := len(t.Steps)
		for n > 0 && strings.HasPrefix(t.Steps[n-1].Step, "5.2.4") {
			n--
		}
		t.Steps = t.Steps[:n]
		t.pathStep("5.2.4", out, "remove_dot_segments: no dot segments in %q", path)
	}
	return out
}

// explainWeb parses base, then ref against it, by the WHATWG URL
// Standard's basic URL parser, and tells each step that changed something:
// the clean-up, the states that decide, the host's way through IPv4, IPv6
// or UTS #46, each percent-encoding, each dot segment, and each validation
// error with its offset in ref.
func explainWeb(base, ref string) Trace {
	t := Trace{Spec: WHATWG}
	b, err := whatwg.Parse(base)
	if err != nil {
		t.Error = "the base: " + err.Error()
		return t
	}
	t.Base = webParts(b)
	u, err := whatwg.Parser{Trace: func(s string) {
		step, text, _ := strings.Cut(s, ": ")
		t.step(step, "%s", text)
	}}.Parse(ref, &b)
	if err != nil {
		t.Error = err.Error()
		return t
	}
	t.Ref = webParts(u)
	t.Result = u.Href()
	return t
}

// webParts lists the components of a URL record that are not null.
func webParts(u whatwg.URL) []Part {
	ps := []Part{{"scheme", u.Scheme()}}
	if u.HasHost() {
		ps = addPart(ps, "username", u.Username(), u.Username() != "")
		ps = addPart(ps, "password", u.Password(), u.Password() != "")
		ps = append(ps, Part{"host", u.Hostname()})
		ps = addPart(ps, "port", u.Port(), u.Port() != "")
	}
	name := "path"
	if u.HasOpaquePath() {
		name = "opaque path"
	}
	ps = append(ps, Part{name, u.Pathname()})
	q, ok := u.Query()
	ps = addPart(ps, "query", q, ok)
	f, ok := u.Fragment()
	return addPart(ps, "fragment", f, ok)
}
