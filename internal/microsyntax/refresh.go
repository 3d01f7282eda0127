package microsyntax

// Refresh returns the URL that the content of a <meta
// http-equiv=refresh> names, by the HTML standard's "shared declarative
// refresh steps": a time (digits and dots), then ";" or "," or white space,
// then the URL, written "url=..." or alone, quoted or not. It reports false
// when the content is not a refresh, or names no URL (a refresh of the
// document itself).
func Refresh(content []byte) ([]byte, bool) {
	in, pos := content, 0
	skipSpace := func() {
		for pos < len(in) && isASCIISpace(in[pos]) {
			pos++
		}
	}
	skipSpace()
	start := pos
	for pos < len(in) && '0' <= in[pos] && in[pos] <= '9' {
		pos++
	}
	if pos == start && (pos == len(in) || in[pos] != '.') {
		return nil, false
	}
	for pos < len(in) && ('0' <= in[pos] && in[pos] <= '9' || in[pos] == '.') {
		pos++
	}
	if pos < len(in) {
		if c := in[pos]; c != ';' && c != ',' && !isASCIISpace(c) {
			return nil, false
		}
		skipSpace()
		if pos < len(in) && (in[pos] == ';' || in[pos] == ',') {
			pos++
		}
		skipSpace()
	}
	if pos == len(in) {
		return nil, false
	}
	url := in[pos:]
	// "url" and "=" may come first; if they do not, the rest is the URL,
	// quoted or not.
	matched := func(c byte) bool {
		if pos < len(in) && in[pos]|0x20 == c {
			pos++
			return true
		}
		return false
	}
	if matched('u') {
		if !matched('r') || !matched('l') {
			return url, true
		}
		skipSpace()
		if pos == len(in) || in[pos] != '=' {
			return url, true
		}
		pos++
		skipSpace()
	}
	// "Skip quotes".
	var quote byte
	if pos < len(in) && (in[pos] == '\'' || in[pos] == '"') {
		quote = in[pos]
		pos++
	}
	url = in[pos:]
	if quote != 0 {
		for i, c := range url {
			if c == quote {
				url = url[:i]
				break
			}
		}
	}
	return url, true
}

func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}
