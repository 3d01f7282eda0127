// Package htmltok is the tokenization stage of the HTML Living Standard
// (section 13.2.5, "Tokenization"): bytes in, tokens with their byte
// spans out. It knows nothing of URLs, links or the tree; it is the room at
// the bottom that package links is built on.
//
// # Tokens and spans
//
// Next reads the next token: text, a start or end tag, a comment or a
// DOCTYPE. Every token knows where it is in the input: Span gives its
// bytes' offsets, and each attribute of a tag gives those of its name and
// of its value, without the quotes, and which quote it had. So a tool can
// rewrite a value in place, and leave every other byte as it was:
//
//	z := htmltok.New(r)
//	for z.Next() != htmltok.ErrorToken {
//		if a, ok := z.Attr("href"); ok {
//			fmt.Println(a.ValueSpan, string(a.Value))
//		}
//	}
//	if err := z.Err(); err != io.EOF { ... }
//
// # Exact, and lazy
//
// The tokenizer follows the standard's states, character references (with
// the attribute-value rule for legacy references without ";"), NUL and
// end of input as the standard says, and is held to the html5lib-tests
// tokenizer suite. What it does not do eagerly is decode: a tag is scanned
// once to find its end and the spans of its attributes, and a name or a
// value is decoded (lower case, character references, U+FFFD for NUL, line
// breaks normalized) only when asked for. A value with nothing to decode
// is a sub-slice of the input, so looking at a tag's attributes allocates
// nothing; text is passed over with bytes.IndexByte.
//
// # What the tree builder decides
//
// The tokenizer's state after a start tag is chosen by the tree builder.
// By default the tokenizer does what the tree builder does for HTML
// elements: after <title> and <textarea> it reads RCDATA; after <style>,
// <xmp>, <iframe>, <noembed>, <noframes> and <noscript> (scripting
// enabled, as in browsers), RAWTEXT; after <script>, script data; after
// <plaintext>, PLAINTEXT, whether the tag was self-closing or not (the
// standard ignores "/>" on those). Inside <svg> and <math> none of that
// applies and <![CDATA[ ]]> sections are read: a caller that follows the
// tree says so with SetForeign, after the start tag and before the next
// call of Next. SetState and SetLastStartTag set the state outright, as
// the html5lib tests do. A caller that wants only tags for a while (links
// outside an anchor) says so with SkipDataText: text in the data state is
// then passed over, not handed out.
//
// # Streaming
//
// Input is read as needed into a buffer that holds the current token;
// text is handed out in pieces when it runs past the buffer, so memory is
// bounded by the longest tag, comment or RCDATA/RAWTEXT element (and by
// SetMaxToken, past which a token is an error naming its byte offset), not
// by the input. Slices from a token are valid until the next call of Next,
// except those of LargeValue bytes or more, which the tokenizer never
// writes over (a caller may keep them).
//
// Parse errors are not reported: the standard says how to recover from each,
// and the tokens are what it says they are.
package htmltok
