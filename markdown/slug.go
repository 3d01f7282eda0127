package markdown

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/relurl/relurl/htmltok"
)

// Anchors returns the ids a page rendered from the document has, which a
// fragment can name: each heading's, its own ({#id}) or its text's slug by
// the dialect (Slugger), and the id of every element and the name of every
// <a> of its raw HTML. GitHub prefixes the ids of a README's HTML with
// "user-content-", and its page finds "#x" at "user-content-x" all the
// same.
func (doc *Document) Anchors(d Dialect) []string {
	s := NewSlugger(d)
	var ids []string
	for _, h := range doc.Headings {
		if h.ID != "" {
			ids = append(ids, h.ID)
			continue
		}
		ids = append(ids, s.Slug(h.Text))
	}
	if len(doc.HTML) > 0 {
		z := htmltok.NewBytes(doc.Shadow())
		for {
			switch z.Next() {
			case htmltok.ErrorToken:
				return ids // at the end, or at an error the tokenizer stops at
			case htmltok.StartTagToken:
				if a, ok := z.Attr("id"); ok {
					ids = append(ids, string(a.Value))
				}
				if string(z.Name()) == "a" {
					if a, ok := z.Attr("name"); ok {
						ids = append(ids, string(a.Value))
					}
				}
			}
		}
	}
	return ids
}

// A Slugger makes the anchors of a page's headings, in order, as a
// dialect's renderer makes them: each heading's slug, made unique on the
// page.
type Slugger struct {
	d    Dialect
	seen map[string]int
}

// NewSlugger returns a Slugger for one page.
func NewSlugger(d Dialect) *Slugger { return &Slugger{d: d, seen: map[string]int{}} }

// Slug returns the anchor of the next heading, whose text is text.
//
//   - GitHub, as npm's github-slugger makes it (the rule of remark and
//     Docusaurus, and github.com's): the text in lower case, every
//     character removed but letters, marks, decimal and letter numbers,
//     connector punctuation ("_"), "-" and the space, each space made
//     "-"; a slug seen before gets "-1", "-2", … (Go's Unicode tables,
//     15.0, may know a letter that github-slugger's, older, removes.)
//   - MkDocs, as Python-Markdown's toc extension makes it: the text
//     decomposed (NFKD) and made ASCII, everything but letters, digits,
//     "_", "-" and white space removed, trimmed, in lower case, each run
//     of "-" and white space made one "-"; a slug seen before, or empty,
//     gets "_1", "_2", ….
//   - MdBook, as mdBook 0.5 makes it: the text (its runs of "-" made
//     dashes by mdBook's smart punctuation, see Parse) trimmed, in lower
//     case, letters, digits, "_" and "-" kept, each white space made "-",
//     everything else removed; a slug seen before gets "-1", "-2", ….
func (s *Slugger) Slug(text string) string {
	if s.seen == nil {
		s.seen = map[string]int{} // the zero Slugger is GitHub's, for one page
	}
	switch s.d {
	case MkDocs:
		return s.uniqueMkDocs(slugMkDocs(text))
	case MdBook:
		return s.uniqueDash(slugMdBook(text), false)
	}
	return s.uniqueDash(slugGitHub(text), true)
}

// uniqueDash makes slug unique with "-1", "-2", …. github-slugger counts
// the repeats of each original slug (so "a", "a", "a-1" give "a", "a-1",
// "a-1-1"); mdBook tries each number until one is free.
func (s *Slugger) uniqueDash(slug string, counting bool) string {
	result := slug
	if counting {
		for {
			if _, ok := s.seen[result]; !ok {
				break
			}
			s.seen[slug]++
			result = slug + "-" + strconv.Itoa(s.seen[slug])
		}
		s.seen[result] = 0
		return result
	}
	for n := 1; ; n++ {
		if _, ok := s.seen[result]; !ok {
			break
		}
		result = fmt.Sprintf("%s-%d", slug, n)
	}
	s.seen[result] = 0
	return result
}

// idCount is Python-Markdown's "_N" at the end of an id.
var idCount = regexp.MustCompile(`^(.*)_([0-9]+)$`)

// uniqueMkDocs makes slug unique as Python-Markdown's toc does: an id
// seen before, or empty, gets "_1", or its "_N" made "_N+1".
func (s *Slugger) uniqueMkDocs(id string) string {
	for {
		if _, ok := s.seen[id]; !ok && id != "" {
			break
		}
		if m := idCount.FindStringSubmatch(id); m != nil {
			n, _ := strconv.Atoi(m[2])
			id = fmt.Sprintf("%s_%d", m[1], n+1)
		} else {
			id += "_1"
		}
	}
	s.seen[id] = 0
	return id
}

func slugGitHub(text string) string {
	var b strings.Builder
	for _, r := range lowerJS(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || unicode.In(r, unicode.L, unicode.M, unicode.Nd, unicode.Nl, unicode.Pc, unicode.Other_Alphabetic):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func slugMkDocs(text string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(text) {
		switch {
		case r >= 0x80:
			// Encoded to ASCII, ignoring what is not.
		case r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsSpace(r):
			b.WriteRune(r)
		}
	}
	kept := strings.ToLower(strings.TrimSpace(b.String()))
	var out strings.Builder
	sep := false
	for _, r := range kept {
		if r == '-' || unicode.IsSpace(r) {
			sep = true
			continue
		}
		if sep {
			out.WriteByte('-')
			sep = false
		}
		out.WriteRune(r)
	}
	if sep {
		out.WriteByte('-')
	}
	return out.String()
}

func slugMdBook(text string) string {
	var b strings.Builder
	for _, r := range lowerJS(strings.TrimSpace(text)) { // Rust's to_lowercase: Unicode's full mappings too
		switch {
		case unicode.IsLetter(r) || unicode.Is(unicode.Other_Alphabetic, r) || unicode.IsNumber(r) || r == '_' || r == '-':
			b.WriteRune(r)
		case unicode.IsSpace(r):
			b.WriteByte('-')
		}
	}
	// Empty, the anchor is "" (href="#"), and a repeat "-1": mdBook 0.5.4
	// renders it so; its next release is to say "section" instead.
	return b.String()
}

// lowerJS returns s in lower case as JavaScript's toLowerCase makes it,
// which github-slugger calls: Unicode's full mappings, which Go's simple
// ones differ from in two cases: "İ" is "i" and a combining dot above,
// and a capital sigma at the end of a word is the final sigma "ς".
func lowerJS(s string) string {
	if !strings.ContainsAny(s, "\u0130\u03a3") {
		return strings.ToLower(s)
	}
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		switch {
		case r == '\u0130':
			b.WriteString("i\u0307")
		case r == '\u03a3' && finalSigma(rs, i):
			b.WriteRune('\u03c2')
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma reports whether the capital sigma at rs[i] ends a word:
// a cased letter before it, none after it (Unicode's Final_Sigma, case
// ignorable characters between skipped).
func finalSigma(rs []rune, i int) bool {
	cased := func(r rune) bool { return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) }
	ignorable := func(r rune) bool {
		return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk) || r == '\'' || r == '.' || r == ':'
	}
	j := i - 1
	for j >= 0 && ignorable(rs[j]) {
		j--
	}
	if j < 0 || !cased(rs[j]) {
		return false
	}
	k := i + 1
	for k < len(rs) && ignorable(rs[k]) {
		k++
	}
	return k == len(rs) || !cased(rs[k])
}
