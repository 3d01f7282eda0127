package links

// SrcsetURLs returns the URLs of the image candidates in the value of a
// srcset attribute, in order, as the HTML standard's "parse a srcset
// attribute" algorithm finds them: candidates are separated by commas, each
// a URL and optional descriptors ("2x", "640w"); a URL ends at white space,
// and commas that end it are not part of it. Descriptors are skipped, with
// commas inside parentheses. The URLs are sub-slices of v.
func SrcsetURLs(v []byte) [][]byte {
	var urls [][]byte
	i := 0
	for {
		for i < len(v) && (isSpace(v[i]) || v[i] == ',') {
			i++
		}
		if i == len(v) {
			return urls
		}
		start := i
		for i < len(v) && !isSpace(v[i]) {
			i++
		}
		url := v[start:i]
		if n := len(url); url[n-1] == ',' {
			for n > 0 && url[n-1] == ',' {
				n--
			}
			urls = append(urls, url[:n])
			continue
		}
		urls = append(urls, url)
		// Descriptors, up to a comma outside parentheses.
		for depth := 0; i < len(v); i++ {
			if c := v[i]; c == '(' {
				depth++
			} else if c == ')' && depth > 0 {
				depth--
			} else if c == ',' && depth == 0 {
				i++
				break
			}
		}
	}
}

// isSpace reports whether c is ASCII white space as HTML defines it.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}
