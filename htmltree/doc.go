// Package htmltree is the tree construction stage of the HTML Living
// Standard (section 13.2.6, "Tree construction"), over the tokens of
// package htmltok: it decides which elements a document has, in which
// namespace, under which parent and in which order, as a browser's parser
// does, and tells a Sink so. It builds no DOM itself.
//
// # Why a stage without a tree
//
// What a link is depends on the tree, not on the tags: the first <base> is
// the first in tree order (a <base> in a table's row is moved before the
// table), a <base> under <svg> is not HTML's, a </div> ends <svg>, after
// which <script> is script again, and <frame> exists only in a <frameset>.
// A reader of links needs those decisions and little else, so Builder makes
// them and hands each one to a Sink, as html5ever's and lexbor's tree
// builders do: a new element, its insertion (before a sibling when it is
// foster-parented), text, comments, the moves of the adoption agency, an
// element leaving the stack of open elements. A Sink that wants a DOM
// builds one (the tests do, to hold the stage to html5lib-tests'
// tree-construction suite); one that wants links keeps a few flags.
//
//	b := htmltree.New(htmltok.NewBytes(page), sink)
//	if err := b.Run(); err != nil { ... }
//
// The Builder drives the tokenizer: it tells it the state in which an
// element's text is read and whether it is in foreign content. While a Sink
// method runs, the tokenizer's current token is the one being processed,
// so a Sink reads a start tag's attributes from it, and its spans.
//
// # What is left out
//
// The scripting flag is on, as in a browser: <noscript> is raw text. The
// fragment parsing algorithm (innerHTML) is not here: documents are parsed
// whole. Parse errors are not reported. Memory grows with the depth of the
// stack of open elements and the list of active formatting elements, not
// with the input's length, and MaxDepth bounds that depth.
package htmltree
