package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/corpus"
	"github.com/relurl/relurl/internal/jsonline"
	"github.com/relurl/relurl/internal/textsafe"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/table"
)

const linksHelp = `
Links prints the links of documents, resolved as a browser fetches them
(by the WHATWG URL Standard; -spec 1808 by RFC 1808, Section 4, -spec 3986
by RFC 3986) against each document's base URL, established by the layers
of RFC 1808, Section 3:

  3.1  a base in the document: HTML's <base href>, a message's
       "Base: <URL:...>" header, or its successors Content-Base and (in MIME
       parts) Content-Location;
  3.2  the base of the entity the document is part of: a MIME part takes its
       enclosing multipart's or message's, recursively;
  3.3  the URL it was retrieved by: the last URL after redirects when relurl
       fetches it, a WARC record's target, -map for the files of a
       directory, -url for one file or standard input, else a file's own
       file:// URL, as a browser opening it has, and as check has it
       (-file-urls=false: none);
  3.4  none: absolute links are printed, relative ones counted as unresolved.

By the URL Standard, a <base href> is parsed against the document's URL, as
HTML does, and one the URL parser refuses is ignored with a warning; a link
the parser refuses (a bad host or port) is not printed but counted on
standard error, and in JSON has url null and "error" saying why. The query
of a special URL is encoded in the document's encoding (windows-1252,
Shift_JIS, ...), as a browser does, a character it lacks sent as "&#N;";
paths, fragments and other URLs' queries are UTF-8.

A DOCUMENT is a file, a directory, - for standard input, an http or https
URL to fetch, or s3://BUCKET/KEY (any argument "SCHEME://..." is a URL;
other schemes are refused); -files FILE reads more, one a line, from a
file, - or a URL, compressed with gzip or zstd or not, each relative line
joined to -prefix (-list-files prints them so, and reads none). A
directory is read recursively in lexical order, and its files count by
extension (.html .htm .xhtml .eml .mht .mhtml .mime .warc .warc.gz
.warc.zst .md .markdown .txt .xml .xml.gz .rss .atom), or by content for
.php .shtml .asp .aspx .jsp .cgi and files without one; the others are
skipped and counted. A document is HTML, a MIME message (e-mail, MHTML)
whose HTML parts give links, Markdown (its links, images, reference
definitions, autolinks and HTML; -markdown names its renderer), plain
text (its URLs), a sitemap or an RSS or Atom feed (their URLs, each
resolved against its xml:base, base_from xml-base), or a WARC web
archive, whatever its name, when its first bytes are "WARC/"
(compressed with gzip or zstd, one record a member or frame, or not): each
response record (its HTTP header, then its HTML), each HTML resource record
and each redirect (its Location, element "http") gives links. -type forces
a type; else a file's extension, then its first bytes, decide.
HTML is decoded to UTF-8 by its byte order mark, charset or <meta charset>
(in its head, within 256 KiB).
A document that is none of these (binary data, /etc/passwd) is an error,
counted, and so is an empty directory.

URLs and S3 objects are streamed. A transient failure (a connection reset
or cut, no progress for -timeout, 408, 429, 5xx) is retried up to -retries
times with growing waits, and a broken connection is resumed with a Range
request at the byte where it broke, so each record is read exactly once.
S3 credentials come from the AWS SDK's chain (environment, ~/.aws,
AWS_PROFILE, instance roles); AWS_ENDPOINT_URL or -s3-endpoint names an
S3-compatible store, -s3-no-sign-request reads a public bucket.

Documents are read -j at a time (default: every core) and printed in input
order. Links are printed one per line, control bytes percent-encoded; with
-tsv as "SOURCE<TAB>URL", the edges of a link graph; with -fields the
columns named, tab-separated, of each resolved link: any of the JSON
fields below (source, url, ref, base, base_from, element, attribute, part,
rel, text, status, error, warc_filename, warc_record_offset,
warc_record_length, warc_record_id, warc_date), host (with its port),
domain (the registrable domain, by the Public Suffix List) and surt (the
SURT key of CDX indexes). With -json,
one object per line: url (null if unresolved), error (with -spec whatwg,
why the URL parser refused the link; absent otherwise), ref (the
attribute's value as written), base, base_from (html-base, base-header,
content-base, content-location, xml-base, encapsulating, retrieval or
none), element, attribute, rel (the rel tokens of a, area and link, lower
case), text (an <a>'s text, white space collapsed, at most 256 bytes),
part (the MIME part's path, such as "1.2"; "srcdoc" for the document of
an <iframe srcdoc>, read after the page's links; or null), source (the
document's retrieval URL, else its file name), status (HTTP); for a WARC
record warc_filename, warc_record_offset and warc_record_length (its
bytes in the file as stored), warc_record_id, warc_date and truncated;
url_base64 and
ref_base64 hold the exact bytes of a value that is not valid UTF-8.
-format arrow writes the same rows as an Arrow IPC stream (pyarrow's
ipc.open_stream, DuckDB, Polars and Spark read it from a pipe), and
-format parquet as a Parquet file, compressed with zstd, dictionary-encoded
where values repeat (source, base, element); both in batches of 65,536
rows, so memory stays bounded. -o FILE writes the output there instead of
standard output (a Parquet file appears once whole); with -part-rows N, -o
names a directory of part files (part-00000.parquet, ...) of at most N rows
each, as Spark writes a table.
-no-fragment drops the #fragment of each URL, -unique prints each URL once
per document, and -scope internal (or external) keeps the links to the
document's own site (or the others): same registrable domain, else same
host, as its retrieval URL; unresolved links are outside every scope.

The URL Standard (the default, as for check and rewrite) gives the URLs a
browser fetches, normalised ("http://a/"): the choice for a crawler's link
graph. By RFC 1808 (-spec 1808), a URL is resolved as written: "http://a"
keeps its empty path, and "http://a" and "http://a/" are two URLs; a
relative <base href> is resolved against the retrieval URL, with a warning.

Elements read (-elements chooses among them, by name, or by
ELEMENT@ATTRIBUTE for one attribute: -elements a@href,img):
a, area (href, ping); link (href, imagesrcset); img (src, srcset); input
(src of type=image, formaction of a submit); button (formaction of a
submit); meta (content of http-equiv=refresh: its URL); script, iframe,
frame, embed, source, audio, video, track (src); source (srcset); video
(poster); form (action); blockquote, q, del, ins (cite); object (data);
body, table, thead, tbody, tfoot, tr, td, th (background); inside <svg>,
a and image (href, else xlink:href); style, CSS: each url()
and @import of a <style> element (attribute "") or of any element's style
attribute (attribute style); and http, a redirect's Location. srcset,
imagesrcset and ping give a link for each URL they list. As in a browser,
a value loses its tabs and newlines and its leading and trailing spaces
and controls; the first <base href> counts, unless it fails to parse or is
data: or javascript:, which leaves the document its own URL; a <base>
inside <svg>, <math> or <template> does not count; an empty form action
submits to the document's URL; an <a> inside <math> and a <frame> outside
<frameset> are no links; and links inside <template> are skipped
(-template reads them).

Problems that leave the rest readable are warnings on standard error: a
relative <base href> (by an RFC), a part that cannot be decoded or whose
header is unreadable (the next part is read), a missing closing boundary,
a message with no HTML part, a response that is not HTML, a malformed WARC
record (with its file and offset; the next record is read). A document
that fails is reported with its name, after its links until then, and the
others go on: a failed fetch, a non-2xx answer, too many redirects, a
timeout, a connection closed early (after its retries), nesting deeper
than -max-depth, a document over -max-size, a WARC file cut short or not a
WARC though named one; the exit status is then 1. A record's warnings name
the archive and the record's offset. Bad flag values exit 2. A run of more
than one document ends with a summary.

Examples:

  $ relurl links testdata/documents/rfc1808-appendix.html
  http://www.ics.uci.edu/Test/a/x

  $ relurl links -url https://example.org/docs/ page.html
  $ relurl links -tsv -map docs=https://docs.python.org/3.11/ docs > graph.tsv
  $ relurl links -json crawl.warc.gz | jq -r 'select(.element=="img") | .url'
  $ relurl links -format parquet -o links.parquet crawl.warc.gz
  $ relurl links -fields source,url,rel,surt -unique crawl.warc.gz
  $ relurl links -scope external -tsv testdata/documents/*.html
  $ relurl links -spec 1808 -tsv testdata/documents/*.html
  $ find archive -name '*.warc.gz' | relurl links -tsv -files - > edges.tsv
  $ relurl links -json -prefix s3://commoncrawl/ -files warc.paths.gz
  $ relurl links https://www.example.org/
`

const baseHelp = `
Base prints the base URL that RFC 1808, Section 3 establishes for each
document, and the layer that set it (html-base, base-header, content-base,
content-location, encapsulating, retrieval or none), as "BASE<TAB>LAYER";
for a MIME message, a line "PART<TAB>BASE<TAB>LAYER" for each HTML part.
By the URL Standard (the default; -spec 1808 or 3986 for an RFC's), a
<base href> is parsed against the document's URL as HTML does, so the base
is the one a browser holds.
With many documents (or a WARC) each line starts with the document's source
and a tab. DOCUMENT and the flags are those of relurl links.

Examples:

  $ relurl base testdata/documents/rfc1808-appendix.html
  http://www.ics.uci.edu/Test/a/b/c	html-base
`

func runLinks(e *env, args []string) int {
	fs := flag.NewFlagSet("links", flag.ContinueOnError)
	var d docFlags
	d.register(fs)
	asJSON := fs.Bool("json", false, "print one JSON object per link (-format json)")
	asTSV := fs.Bool("tsv", false, "print \"SOURCE<TAB>URL\" for each resolved link (-format tsv)")
	format := fs.String("format", "", "the output's `format`: text, tsv, json, arrow or parquet")
	outPath := fs.String("o", "", "write the output to `FILE` (with -part-rows, a directory of part files)")
	listFiles := fs.Bool("list-files", false, "print the inputs of -files, one a line, and read none of them")
	partRows := fs.Int64("part-rows", 0, "with -format parquet, make -o a directory of parts of at most `N` rows")
	r := specFlags(fs)
	documentSpec(fs, &r.Spec)
	fieldList := fs.String("fields", "", "print these `columns` of each resolved link, tab-separated (see above)")
	elements := fs.String("elements", "", "read only these `elements` or ELEMENT@ATTRIBUTEs (default all)")
	template := fs.Bool("template", false, "read the links inside <template>, which browsers keep out of the document")
	var edges table.Filter
	fs.BoolVar(&edges.NoFragment, "no-fragment", false, "print URLs without their #fragment")
	fs.BoolVar(&edges.Unique, "unique", false, "print each URL once per document: one edge per source and target")
	scope := fs.String("scope", "", "print only `internal` links (to the document's own site) or external ones")
	if code, ok := d.parse(e, fs, args, linksHelp); !ok {
		return code
	}
	if code, ok := e.checkSpec("links", r); !ok {
		return code
	}
	if *listFiles {
		if d.files == "" || fs.NArg() > 0 {
			return e.usageError("links", "-list-files lists the lines of -files FILE, and nothing else")
		}
		return d.listFiles(e, "links")
	}
	if n := countTrue(*asJSON, *asTSV, *fieldList != "", *format != ""); n > 1 {
		return e.usageError("links", "-format, -json, -tsv and -fields exclude each other")
	}
	switch *format {
	case "", "text":
	case "json":
		*asJSON = true
	case "tsv":
		*asTSV = true
	case "arrow", "parquet":
		if *outPath == "" && e.stdoutIsTTY {
			return e.usageError("links", "-format %s is binary: give -o FILE, or send standard output to a file or a pipe", *format)
		}
	default:
		return e.usageError("links", "-format %q: want text, tsv, json, arrow or parquet", *format)
	}
	asTable := *format == "arrow" || *format == "parquet"
	if *partRows < 0 || *partRows > 0 && (*format != "parquet" || *outPath == "") {
		return e.usageError("links", "-part-rows wants -format parquet, -o DIR and a number of rows above 0")
	}
	var err error
	if edges.Scope, err = table.ParseScope(*scope); err != nil {
		return e.usageError("links", "-%v", err)
	}
	only, err := links.ParseOnly(*elements)
	if err != nil {
		return e.usageError("links", "-elements: %v", err)
	}
	var fields []string
	if *fieldList != "" {
		if fields, err = parseFields(*fieldList); err != nil {
			return e.usageError("links", "-fields: %v", err)
		}
	}
	pr := &linkPrinter{json: *asJSON, tsv: *asTSV, table: asTable, fields: fields, edges: edges}
	// An anchor's text costs its links a wait until its end: only when
	// it is printed.
	text := *asJSON || asTable || slices.Contains(fields, "text")
	dialect := d.dialect.of(fs.Args())
	extract := links.Options{MaxDepth: d.maxDepth, Resolver: r, Template: *template, Only: only, Text: text, Dialect: dialect}
	out, err := openOutput(e, *outPath, *format, *partRows)
	if err != nil {
		fmt.Fprintf(e.stderr, "relurl links: %v\n", err)
		return exitWrite
	}
	d.outputMemory = out.held
	status, stats := d.run(out.env, "links", fs.Args(), extract, pr.docLinks, nil)
	if err := out.close(); err != nil {
		fmt.Fprintf(e.stderr, "relurl links: %v\n", printable(err.Error()))
		status = exitWrite
	}
	pr.summary(e, stats)
	if stats.Documents == 0 {
		// Nothing read is not a success: a tree of Markdown, an image.
		// The summary above says what was skipped; a failure, why.
		if stats.Failed == 0 {
			fmt.Fprintf(e.stderr, "relurl links: no document read\n")
		}
		status = worse(status, exitFailed)
	}
	return status
}

// linkPrinter prints each link of a document in the format asked for, in
// the workers, and counts the links left unresolved and those the URL
// parser refused.
type linkPrinter struct {
	json, tsv, table    bool
	fields              []string // -fields
	edges               table.Filter
	unresolved, refused atomic.Int64
}

// docLinks returns what prints the links of doc.
func (p *linkPrinter) docLinks(doc *corpus.Doc) func(*links.Link, *corpus.Output) {
	de := p.edges.Doc(doc.URL)
	rows := table.NewRows(table.Doc{Source: doc.Source, Status: doc.Status, Archive: doc.Name, Record: doc.Record})
	return func(l *links.Link, out *corpus.Output) {
		switch {
		case l.Err != nil:
			p.refused.Add(1)
			if !p.json && !p.table {
				out.Err = fmt.Appendf(out.Err, "relurl links: %s: <%s %s=%q>: %s\n", printable(doc.Source), l.Element, l.Attribute, l.Ref, printable(l.Err.Error()))
			}
		case l.URL == nil:
			p.unresolved.Add(1)
		}
		u, ok := de.URL(l)
		switch {
		case !ok:
		case p.json:
			out.Out = rows.AppendJSON(out.Out, l, u)
		case p.table:
			out.Out = rows.AppendLink(out.Out, l, u)
		case u == nil:
		case p.fields != nil:
			out.Out = rows.AppendTSV(out.Out, p.fields, l, u)
		case p.tsv:
			out.Out = append(append(out.Out, rows.EscapedSource()...), '\t')
			start := len(out.Out)
			out.Out = textsafe.EndURLLine(append(out.Out, u...), start)
		default:
			start := len(out.Out)
			out.Out = textsafe.EndURLLine(append(out.Out, u...), start)
		}
	}
}

// summary says on standard error what the run left unresolved or refused
// (the JSON and the tables say it in their rows), and what it read.
func (p *linkPrinter) summary(e *env, stats corpus.Stats) {
	if n := p.unresolved.Load(); n > 0 && !p.json && !p.table {
		if stats.Documents+stats.Failed > 1 {
			fmt.Fprintf(e.stderr, "relurl links: %s left unresolved: their documents have no base URL (give -map)\n", count(int(n), "relative link"))
		} else {
			fmt.Fprintf(e.stderr, "relurl links: %s left unresolved: the document has no base URL (give -url)\n", count(int(n), "relative link"))
		}
	}
	if n := p.refused.Load(); n > 0 && !p.json && !p.table {
		fmt.Fprintf(e.stderr, "relurl links: %s the URL parser refuses, as a browser would\n", count(int(n), "link"))
	}
	if stats.Documents+stats.Failed > 1 || stats.Records > 0 || len(stats.Skipped) > 0 {
		fmt.Fprintf(e.stderr, "relurl links: %s\n", &stats)
	}
}

func countTrue(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// parseFields parses -fields: table.TSVColumns, comma-separated, in any
// order and case.
func parseFields(list string) ([]string, error) {
	var fields []string
	for _, f := range strings.Split(list, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if !slices.Contains(table.TSVColumns, f) {
			return nil, fmt.Errorf("%q is not one of %s", f, strings.Join(table.TSVColumns, ","))
		}
		fields = append(fields, f)
	}
	return fields, nil
}

func runBase(e *env, args []string) int {
	fs := flag.NewFlagSet("base", flag.ContinueOnError)
	var d docFlags
	d.register(fs)
	asJSON := fs.Bool("json", false, "print one JSON object per document or HTML part")
	var spec relurl.Spec
	specFlag(fs, &spec)
	documentSpec(fs, &spec)
	if code, ok := d.parse(e, fs, args, baseHelp); !ok {
		return code
	}
	many := len(fs.Args()) > 1 || d.files != "" || len(fs.Args()) == 1 && isDir(fs.Arg(0))
	printBase := func(doc *corpus.Doc, part string, b links.Base, out *corpus.Output) {
		if *asJSON {
			out.Out = jsonline.Append(out.Out, baseObject(doc, part, b))
			return
		}
		if many || doc.Record != nil {
			start := len(out.Out)
			out.Out = append(textsafe.EscapeControls(append(out.Out, doc.Source...), start), '\t')
		}
		u := printable(b.URL)
		if b.From == links.FromNone {
			u = "(none)"
		}
		if part != "" {
			out.Out = fmt.Appendf(out.Out, "%s\t", part)
		}
		out.Out = fmt.Appendf(out.Out, "%s\t%s\n", u, b.From)
	}
	dialect := d.dialect.of(fs.Args())
	status, stats := d.run(e, "base", fs.Args(), links.Options{MaxDepth: d.maxDepth, Resolver: &relurl.Resolver{Spec: spec}, Dialect: dialect}, nil, printBase)
	if stats.Documents == 0 {
		if stats.Failed == 0 {
			fmt.Fprintf(e.stderr, "relurl base: no document read%s\n", skippedNote(stats))
		}
		status = worse(status, exitFailed)
	}
	return status
}

// baseObject returns what the JSON line of a document's base holds.
func baseObject(doc *corpus.Doc, part string, b links.Base) any {
	type baseJ struct {
		Part     *string `json:"part"`
		Base     *string `json:"base"`
		BaseFrom string  `json:"base_from"`
		Source   string  `json:"source"`
	}
	j := baseJ{BaseFrom: b.From.String(), Source: doc.Source}
	if part != "" {
		j.Part = &part
	}
	if b.From != links.FromNone {
		j.Base = &b.URL
	}
	return j
}
