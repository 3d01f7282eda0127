package main

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// trurlCase is one case of curl/trurl's tests.json, in the format its
// test.py reads: the arguments, and what trurl writes and exits with. An
// expected stdout is a string, or a list for --json's array; a stderr of
// true or false means something or nothing.
type trurlCase struct {
	Input struct {
		Arguments []string `json:"arguments"`
	} `json:"input"`
	Expected struct {
		Stdout     json.RawMessage `json:"stdout"`
		Stderr     json.RawMessage `json:"stderr"`
		Returncode int             `json:"returncode"`
	} `json:"expected"`
	Required []string `json:"required"`
	Excludes []string `json:"excludes"`
}

// TestTrurlSuite runs curl/trurl's own test suite (tests.json at commit
// f748e9b, kept as testdata/trurl-tests.json) against relurl url, through
// a translation layer that lives here and not in the command: each case's
// arguments follow "url"; its standard output must be trurl's exactly (a
// --json array as the objects of -json's lines, in order); its exit status
// must be success or failure as trurl's is (trurl numbers its own errors);
// its standard error must be empty or not as trurl's is. The five cases
// whose "excludes" name a feature of some trurl builds do not apply. Each
// case that fails is in trurlApart, with why; the test fails when another
// fails, or when one of them passes, so that the list stays true.
func TestTrurlSuite(t *testing.T) {
	data, err := os.ReadFile("../../testdata/trurl-tests.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []trurlCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	applied, passed := 0, 0
	var failed []string
	for _, c := range cases {
		if len(c.Excludes) > 0 {
			continue
		}
		applied++
		key := strings.Join(c.Input.Arguments, " ")
		why := trurlDiffers(t, c)
		reason, listed := trurlApart[key]
		switch {
		case why == "" && listed:
			t.Errorf("trurl case %q passes: take it off trurlApart (%s)", key, reason)
		case why == "":
			passed++
		case !listed:
			t.Errorf("trurl case %q: %s", key, why)
		default:
			failed = append(failed, reason)
		}
	}
	counts := map[string]int{}
	for _, r := range failed {
		kind, _, _ := strings.Cut(r, ":")
		counts[kind]++
	}
	var kinds []string
	for k, n := range counts {
		kinds = append(kinds, k+" "+strconv.Itoa(n))
	}
	sort.Strings(kinds)
	t.Logf("trurl's tests.json: %d of %d cases that apply pass; apart: %s", passed, applied, strings.Join(kinds, ", "))
}

// trurlDiffers runs one case and returns how relurl's answer differs from
// trurl's, or "".
func trurlDiffers(t *testing.T, c trurlCase) string {
	args := []string{"url"}
	for _, a := range c.Input.Arguments {
		// The suite's files, kept beside its tests.json.
		args = append(args, strings.Replace(a, "testfiles/", "../../testdata/trurl-testfiles/", 1))
	}
	r := relurlRun(t, nil, args...)
	var want any
	json.Unmarshal(c.Expected.Stdout, &want)
	var got any = r.stdout
	if _, isList := want.([]any); isList {
		list := []any{}
		dec := json.NewDecoder(strings.NewReader(r.stdout))
		for {
			var v any
			if err := dec.Decode(&v); err != nil {
				break
			}
			list = append(list, v)
		}
		got = list
	}
	var why []string
	if !reflect.DeepEqual(normalizeTrurl(got), normalizeTrurl(want)) {
		why = append(why, "stdout "+strconv.Quote(r.stdout)+", trurl "+string(c.Expected.Stdout))
	}
	if (r.code == 0) != (c.Expected.Returncode == 0) {
		why = append(why, "exit "+strconv.Itoa(r.code)+", trurl "+strconv.Itoa(c.Expected.Returncode)+" ("+strconv.Quote(r.stderr)+")")
	}
	var wantErr any
	json.Unmarshal(c.Expected.Stderr, &wantErr)
	wantSome := wantErr == true || wantErr != nil && wantErr != false && wantErr != ""
	if wantErr != nil && (r.stderr != "") != wantSome {
		why = append(why, "stderr "+strconv.Quote(r.stderr)+", trurl "+string(c.Expected.Stderr))
	}
	return strings.Join(why, "; ")
}

// normalizeTrurl makes JSON numbers and objects compare as values.
func normalizeTrurl(v any) any {
	b, _ := json.Marshal(v)
	var out any
	json.NewDecoder(bytes.NewReader(b)).Decode(&out)
	return out
}

// trurlApart lists the cases of trurl's suite that relurl url does not
// pass, by their arguments, each with its kind and why: "standard" where
// the URL Standard answers otherwise than libcurl's parser (relurl keeps
// the Standard's answer), "convention" where trurl's way of writing is its
// own, "missing" where relurl lacks what the case uses.
var trurlApart = map[string]string{
	"hp://example.com":                                                                                      "standard: a URL of a scheme the Standard does not know keeps its empty path (no \"/\")",
	"imap://curl.se:22/ -s port=143":                                                                        "standard: imap is not one of the Standard's special schemes, whose default ports it drops: it keeps the port set, 143, where trurl drops libcurl's default",
	"--url https://curl.se/%2e%61%13 --get {:path}":                                                         "standard: the Standard keeps percent-encoded bytes as written (%61 is not \"a\", %2e not \".\", %5D not %5d), where libcurl decodes the unreserved ones and lower-cases the rest",
	"--url https://curl.se?%2e%61%13 --get {:query}":                                                        "standard: the Standard keeps percent-encoded bytes as written (%61 is not \"a\", %2e not \".\", %5D not %5d), where libcurl decodes the unreserved ones and lower-cases the rest",
	"--url https://curl.se/#%2e%61%13 --get {:fragment}":                                                    "standard: the Standard keeps percent-encoded bytes as written (%61 is not \"a\", %2e not \".\", %5D not %5d), where libcurl decodes the unreserved ones and lower-cases the rest",
	"--url https://example.com/#%2e%61%13%Fa":                                                               "standard: the Standard keeps percent-encoded bytes as written (%61 is not \"a\", %2e not \".\", %5D not %5d), where libcurl decodes the unreserved ones and lower-cases the rest",
	"--url imap://hello:secret;crazy@curl.se/we/are.html --get {options}":                                   "standard: the URL Standard has no options (\";crazy\") or zone ID components",
	"--url https://[fe80::0000:20c:29ff:fe9c:409b%euth0]:8080/we/are.html --get {zoneid}":                   "standard: the Standard has no zone ID in an IPv6 address, and no options: the URL fails",
	"--url https://[fe80::0000:20c:29ff:fe9c:409b%eth0]:8080/we/are.html --get {zoneid}":                    "standard: the Standard has no zone ID in an IPv6 address, and no options: the URL fails",
	"--url https://curl.se/hello --set query=user=me":                                                       "standard: the Standard's search setter percent-encodes only what a query cannot hold (\"=\" stays), where trurl's \"=\" encodes the value whole",
	"--accept-space --url https://localhost/?with space":                                                    "standard: the URL parser writes a space in a query as %20; URLSearchParams as \"+\" only when it serializes pairs",
	"https://example.com?moo&search=hello --qtrim search":                                                   "standard: URLSearchParams writes a pair without a value as \"name=\", where trurl writes \"name\"",
	"https://example.com?search=hello&moo --qtrim search":                                                   "standard: URLSearchParams writes a pair without a value as \"name=\", where trurl writes \"name\"",
	"https://example.com?search=hello --qtrim search --append query=moo":                                    "standard: URLSearchParams writes a pair without a value as \"name=\", where trurl writes \"name\"",
	"https://hello:443/foo -s scheme=ftp":                                                                   "standard: changing the scheme drops a port that is the new scheme's default, by the Standard's setter",
	"--url https://EXAMPLE.com":                                                                             "standard: the Standard lower-cases a domain",
	"https://example.com?utm=tra%20cker:address%20=home:here=now:thisthen --sort-query --query-separator :": "standard: URLSearchParams writes a pair without a value as \"name=\", where trurl writes \"name\"",
	"https://curl.se?name=mr%00smith --get {query:name}":                                                    "convention: trurl writes a decoded NUL as \".\"; relurl percent-encodes control bytes in text output (%00), so that no input drives the terminal",
	"https://curl.se --iterate port=81 443 --iterate scheme=sftp moo":                                       "standard: the Standard's protocol setter does not turn a special scheme (https) into another kind (sftp, moo)",
	"https://curl.se --iterate port=81 443 --iterate scheme=sftp moo --iterate port=2 1":                    "convention: trurl refuses a component given twice (to -set and -iterate, two -set, two -get); relurl applies them in order",
	"https://example.com?utm=tra%20cker&address%20=home&here=now&thisthen --json":                           "standard: the URL keeps its query as written (%20, empty pairs); trurl rebuilds it from its pairs",
	"--json -s host=curl.se":                                                                                "convention: with -json and no URL, trurl writes [] and exits 7; relurl makes the URL of the -set parts, as without -json",
	"https://example.com?search=hello&utm_source=tracker&utm_block&testing --trim query=utm_* --json":       "standard: URLSearchParams writes a pair without a value as \"name=\", where trurl writes \"name\"",
	"imap://user:password;crazy@[ff00::1234%hello]:1234/path?a=b&c=d#fragment --json":                       "standard: the Standard has no zone ID in an IPv6 address, and no options: the URL fails",
	"localhost -s host=foo --iterate host=bar baz":                                                          "convention: trurl refuses a component given twice (to -set and -iterate, two -set, two -get); relurl applies them in order",
	"--verify -f testfiles/test0000.txt":                                                                    "convention: trurl skips a line over 4,094 bytes, its buffer (\"skipping long line\"), and goes on; relurl reads lines of up to a megabyte, and writes this one's URL too (the Standard bounds no host)",
	"--no-guess-scheme foo hi https://example.org hey git://curl.se":                                        "convention: a URL that fails gives an empty line (one line out per line in) and exit status 1; trurl writes nothing and forgives it (exit 0)",
	"-f testfiles/test0002.txt --json":                                                                      "convention: an empty -files leaves nothing to do, which is an error (exit status 1); trurl writes []",
	"--accept-space -s query:=x=10&x=2 3 localhost":                                                         "standard: the URL parser writes a space in a query as %20; URLSearchParams as \"+\" only when it serializes pairs",
	"-s scheme:=http -s host:=localhost -s path:=/ABC%5C%5C -s query:=a&b&a%26b":                            "standard: the Standard keeps percent-encoded bytes as written (%5C), where libcurl lower-cases the escape",
	"--url http://xn-----/ --as-idn":                                                                        "convention: trurl notes on standard error that \"xn-----\" does not convert to Unicode; relurl writes the host as it is, without a note",
	"--verify -f testfiles/test0000.txt --quiet":                                                            "convention: trurl skips a line over 4,094 bytes, its buffer (\"skipping long line\"), and goes on; relurl reads lines of up to a megabyte, and writes this one's URL too (the Standard bounds no host)",
	"http://test.org/?that=thing&key=foo --replace key":                                                     "standard: URLSearchParams writes a pair without a value as \"name=\", where trurl writes \"name\"",
	"example.com --append query=add --iterate scheme=http ftp":                                              "standard: URLSearchParams writes a pair without a value as \"name=\", where trurl writes \"name\"",
	"https://curl.se?name=mr%00smith --get {query}":                                                         "convention: trurl writes a decoded NUL as \".\"; relurl percent-encodes control bytes in text output (%00), so that no input drives the terminal",
	"https://curl.se?name=mr%00smith --get {strict:query}":                                                  "convention: {strict:} never fails here: relurl percent-encodes a decoded control byte instead of failing on it",
	"https://example.com/one/t%61o/%2F%42/":                                                                 "standard: the Standard keeps percent-encoded bytes as written (%61 is not \"a\", %2e not \".\", %5D not %5d), where libcurl decodes the unreserved ones and lower-cases the rest",
	"https://example.com/one/t%61o/%2F%42/ --append path=%61":                                               "standard: the Standard keeps percent-encoded bytes as written (%61 is not \"a\", %2e not \".\", %5D not %5d), where libcurl decodes the unreserved ones and lower-cases the rest",
	"https://ex%61mple.com/h%61s/?wh%61t":                                                                   "standard: the Standard keeps percent-encoded bytes as written (%61 is not \"a\", %2e not \".\", %5D not %5d), where libcurl decodes the unreserved ones and lower-cases the rest",
	"https://example.com/ --get {must:query}":                                                               "convention: a URL that fails ({must:} with no such part) gives an empty line and exit status 1; trurl writes nothing",
	"https://example.com/ --get {must:fragment}":                                                            "convention: a URL that fails ({must:} with no such part) gives an empty line and exit status 1; trurl writes nothing",
	"http://example.org/%18 --get {path}":                                                                   "convention: trurl writes a decoded control byte raw; relurl percent-encodes it in text output",
	"http://example.com/?a=%5D":                                                                             "standard: the Standard keeps percent-encoded bytes as written (%61 is not \"a\", %2e not \".\", %5D not %5d), where libcurl decodes the unreserved ones and lower-cases the rest",
	"http://example.com/?a=%5D&b=%5D":                                                                       "standard: the Standard keeps percent-encoded bytes as written (%61 is not \"a\", %2e not \".\", %5D not %5d), where libcurl decodes the unreserved ones and lower-cases the rest",
	"sftp://us%65r:pwd;giraffe@odd":                                                                         "standard: the Standard keeps the user information as written (%65 is not \"e\") and encodes \";\" in a password (%3B), where libcurl lower-cases the escape",
	"imap://us%65r:pwd;gir%41ffe@odd":                                                                       "standard: the Standard keeps the user information as written (%65 is not \"e\") and encodes \";\" in a password (%3B), where libcurl lower-cases the escape",
	"sftp://us%65r:pwd;giraffe@odd --get [:password]":                                                       "standard: the Standard keeps the user information as written (%65 is not \"e\") and encodes \";\" in a password (%3B), where libcurl lower-cases the escape",
	"sftp://odd --set port=144 --set port=145":                                                              "convention: trurl refuses a component given twice (to -set and -iterate, two -set, two -get); relurl applies them in order",
	"sftp://odd --get [port] --get {port}":                                                                  "convention: trurl refuses a component given twice (to -set and -iterate, two -set, two -get); relurl applies them in order",
	"e?e&&":                                                                                                 "standard: the URL keeps its query as written (%20, empty pairs); trurl rebuilds it from its pairs",
	"e?e&":                                                                                                  "standard: the URL keeps its query as written (%20, empty pairs); trurl rebuilds it from its pairs",
	"e?e&&&&&&&&&&&&&&&&&&&&&":                                                                              "standard: the URL keeps its query as written (%20, empty pairs); trurl rebuilds it from its pairs",
	"e?e&&&&&&&&&&a&&&&&&&&&&&":                                                                             "standard: the URL keeps its query as written (%20, empty pairs); trurl rebuilds it from its pairs",
	"-s path=\\\\ --json localhost":                                                                         "standard: in a special URL's path the Standard reads \"\\\\\" as \"/\"",
	"-s path=\\\\ -g {path}\\n{:path} --urlencode localhost":                                                "standard: in a special URL's path the Standard reads \"\\\\\" as \"/\"",
	"-s path=abc\\\\ -s query:=a&b&a%26b --urlencode --json localhost":                                      "standard: in a special URL's path the Standard reads \"\\\\\" as \"/\"",
	"-s path=\\\\ -g {path}\\n{:path} localhost":                                                            "standard: in a special URL's path the Standard reads \"\\\\\" as \"/\"",
}
