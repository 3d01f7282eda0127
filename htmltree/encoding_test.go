package htmltree

import (
	"strings"
	"testing"

	"golang.org/x/net/html/charset"

	"github.com/relurl/relurl/internal/docpages"
)

// TestEncoding: the standard's steps in their order, and the prescan told
// from the fallback whatever the encoding a <meta> declares (windows-1252
// itself, and the labels that are windows-1252, which the fallback also
// answers).
func TestEncoding(t *testing.T) {
	long := strings.Repeat("<p>text</p>\n", 100) // past the prescan's 1024 bytes
	for _, tt := range []struct {
		name, doc, contentType, want string
		decoded                      bool // a decoder is returned: the bytes are not read as they are
	}{
		{"nothing declared, ASCII", "<p>x", "", "windows-1252", false},
		{"nothing declared, UTF-8", "<p>caf\u00e9.", "", "utf-8", false},
		{"nothing declared, not UTF-8", "<p>caf\xe9", "", "windows-1252", true},
		{"meta charset utf-8", `<meta charset="utf-8"><p>caf`, "", "utf-8", false},
		{"meta charset windows-1252, ASCII", `<meta charset="windows-1252"><p>x`, "", "windows-1252", true},
		{"meta charset latin1 is windows-1252", `<meta charset="latin1"><p>x`, "", "windows-1252", true},
		{"meta http-equiv", `<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2">`, "", "iso-8859-2", true},
		{"x-user-defined is windows-1252", `<meta charset="x-user-defined">`, "", "windows-1252", true},
		{"the Content-Type over the meta", `<meta charset="utf-8">`, "text/html; charset=koi8-r", "koi8-r", true},
		{"a byte order mark over both", "\xef\xbb\xbf<meta charset=koi8-r>", "text/html; charset=koi8-r", "utf-8", false},
		{"a meta in the head, past 1024 bytes", "<title>" + long + "</title><meta charset=koi8-r>", "", "koi8-r", true},
		{"a meta past the head", "<body>" + long + "<meta charset=koi8-r>", "", "windows-1252", false},
	} {
		enc, name := Encoding([]byte(tt.doc), tt.contentType)
		if name != tt.want || (enc != nil) != tt.decoded {
			t.Errorf("%s: %s, decoder %v; want %s, %v", tt.name, name, enc != nil, tt.want, tt.decoded)
		}
	}
}

// encodingLongWay is what Encoding asked before earlyDeclaration: the
// prescan of 1024 bytes, and prescanned's probes.
func encodingLongWay(prefix []byte, contentType string) (name string, certain, declared bool) {
	_, name, certain = charset.DetermineEncoding(prefix, contentType)
	return name, certain, certain || prescanned(prefix)
}

// earlyCases are documents whose early declaration is found, or must not
// be believed: each is held to the long way by TestEarlyDeclaration and
// seeds FuzzEncoding.
var earlyCases = []string{
	`<!doctype html><html><head><meta charset="utf-8" />`,
	`<html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8" /><title>x</title>`,
	`<meta charset=koi8-r><p>caf`,
	`<meta charset="windows-1252">`,
	`<meta charset="latin1">`,
	`<meta charset="x-user-defined">`,
	`<meta charset="utf-16le">`,
	`<meta content="text/html; charset=koi8-r">`,
	`<meta content="a>b; charset=koi8-r" http-equiv=content-type>`,
	`<!-- <meta charset=koi8-r> --><meta charset=iso-8859-2>`,
	`<script><meta charset=koi8-r></script><meta charset=iso-8859-2>`,
	`<title><meta charset=koi8-r></title>`,
	`<meta charset=koi8-r`,
	`<meta charset="k\u212aoi8-r"><meta charset=utf-8>`,
	"<meta charset=\"utf-8\">\xe9",
	"\xef\xbb\xbf<meta charset=koi8-r>",
	`<meta charset=bogus><meta charset=koi8-r>`,
	`<meta charset=utf-8 charset=koi8-r>`,
	`<meta charset=&#x6b;oi8-r>`,
	strings.Repeat("x", 1000) + `<meta charset=koi8-r>`,
	strings.Repeat("x", 990) + `<meta charset=koi8-r>`,
	`<meta charset=utf-8/>`,
	`<meta charset="koi8-r"/>`,
	`<META CHARSET="KOI8-R">`,
	`<meta http-equiv=content-type content="text/html; charset=koi8-r">`,
	`<meta content='charset="koi8-r"' http-equiv="Content-Type">`,
	`<meta content="charset=koi8-r">`,
	`<meta charset="" charset=koi8-r><meta charset=iso-8859-2>`,
	`<meta charset=bogus content="charset=koi8-r" http-equiv=content-type>`,
	`<meta content="charset=koi8-r" charset=bogus http-equiv=content-type>`,
	`<meta http-equiv=refresh http-equiv=content-type content="charset=koi8-r">`,
	`<br/><meta charset=koi8-r>`,
	`<!--->x--><meta charset=koi8-r>`,
	`<!----!><meta charset=koi8-r>--><meta charset=iso-8859-2>`,
	`<!-- a -- b --><meta charset=koi8-r>`,
	`<a title='>'><meta charset=koi8-r>`,
	`</p x><meta charset=koi8-r>`,
	"<p\fclass=x><meta charset=koi8-r>",
	`<p class=a"b><meta charset=koi8-r>`,
	`<?xml version="1.0"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN" "x"><html xmlns="http://www.w3.org/1999/xhtml"><head><meta charset="utf-16">`,
	`<meta charset = koi8-r>`,
	`<meta charset=koi8-r;>`,
	`<meta http-equiv="content-type" content="text/html;charset=koi8-r;x">`,
	`<meta/charset=koi8-r>`,
	`<meta charset='koi8-r'x>`,
	`<h1 a=b><meta charset=koi8-r>`,
	`a < b <meta charset=koi8-r>`,
	`<meta charset="` + strings.Repeat(" ", 60) + `KOI8-R` + strings.Repeat(" ", 10) + `">`,
}

// checkEarly holds earlyDeclaration to the long way for doc, and checks
// that it leaves doc's bytes as they were; it reports whether the early
// way answered.
func checkEarly(t *testing.T, doc []byte, contentType string) bool {
	t.Helper()
	before := string(doc)
	defer func() {
		if string(doc) != before {
			t.Errorf("%.80q: the document's bytes were changed", before)
		}
	}()
	prefix := doc[:min(len(doc), 1024)]
	_, name, certain, declared := earlyDeclaration(prefix, contentType)
	if !declared {
		return false
	}
	wantName, wantCertain, wantDeclared := encodingLongWay(prefix, contentType)
	if name != wantName || certain != wantCertain || !wantDeclared {
		t.Errorf("%.80q, %q: early %s, certain %v; the long way %s, certain %v, declared %v",
			doc, contentType, name, certain, wantName, wantCertain, wantDeclared)
	}
	return true
}

// TestEarlyDeclaration holds earlyDeclaration to the long way on the
// cases above, with and without a Content-Type, and on every page of
// ../shared/data when it is there; and counts the pages it answers.
func TestEarlyDeclaration(t *testing.T) {
	check := func(doc []byte, contentType string) bool { return checkEarly(t, doc, contentType) }
	for _, doc := range earlyCases {
		for _, ct := range []string{"", "text/html", "text/html; charset=iso-8859-5", "text/html; charset=bogus"} {
			check([]byte(doc), ct)
		}
	}
	if !check([]byte(earlyCases[0]), "") || !check([]byte(earlyCases[1]), "") {
		t.Error("a page's usual declaration is not found early")
	}
	pages, early, quick := 0, 0, 0
	err := docpages.Each("../../shared/data", func(_, _ string, body []byte) error {
		pages++
		if check(body, "") {
			early++
		}
		if _, _, ok := quickPrescan(body[:min(len(body), probeLen)]); ok {
			quick++
		}
		return nil
	})
	if err != nil {
		t.Logf("no pages (%v); they come with the checkout's ../shared", err)
		return
	}
	t.Logf("%d of %d pages answered early, %d without x/net", early, pages, quick)
	if early < pages*9/10 || quick < pages*9/10 {
		t.Errorf("only %d of %d pages answered early, %d without x/net", early, pages, quick)
	}
}

// FuzzEncoding holds earlyDeclaration to the long way on every input it
// answers.
func FuzzEncoding(f *testing.F) {
	for _, doc := range earlyCases {
		f.Add(doc, "")
	}
	f.Add(earlyCases[0], "text/html; charset=koi8-r")
	f.Fuzz(func(t *testing.T, doc, contentType string) { checkEarly(t, []byte(doc), contentType) })
}
