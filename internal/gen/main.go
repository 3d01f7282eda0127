// Command gen writes the Unicode tables of package internal/uts46 from the
// Unicode Character Database, so that relurl's IDNA follows the Unicode
// version the URL Standard uses today rather than the one Go's own tables
// were built from.
//
// Run it from the repository's root with the two folders of one Unicode
// version, as unicode.org publishes them (Public/17.0.0/ucd and
// Public/17.0.0/idna, or unicode-org/unicodetools' unicodetools/data/ucd/17.0.0
// and unicodetools/data/idna/17.0.0):
//
//	go run ./internal/gen -ucd DIR -idna DIR
//
// It reads IdnaMappingTable.txt (UTS #46 section 5, "IDNA Mapping Table"),
// UnicodeData.txt (canonical decompositions), DerivedNormalizationProps.txt
// (Full_Composition_Exclusion, NFC_Quick_Check), and from extracted/ DerivedBidiClass.txt,
// DerivedJoiningType.txt, DerivedGeneralCategory.txt and
// DerivedCombiningClass.txt. It refuses files of different versions. The
// tables it writes are the only source of internal/uts46/tables.go: nobody
// edits that file by hand.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/relurl/relurl/internal/safefile"
)

const maxRune = 0x10FFFF

// sumLabel begins the generated file's last line, its checksum.
const sumLabel = "SHA-256 of the lines above:"

func main() {
	ucd := flag.String("ucd", "", "folder of the Unicode Character Database (UnicodeData.txt, extracted/...)")
	idna := flag.String("idna", "", "folder of UTS #46's data (IdnaMappingTable.txt)")
	out := flag.String("o", "internal/uts46/tables.go", "file to write")
	flag.Parse()
	if *ucd == "" || *idna == "" {
		log.Fatal("gen: both -ucd and -idna are needed")
	}
	g := &generator{}
	g.read(filepath.Join(*idna, "IdnaMappingTable.txt"), g.idnaLine)
	g.read(filepath.Join(*ucd, "UnicodeData.txt"), g.unicodeDataLine)
	g.read(filepath.Join(*ucd, "DerivedNormalizationProps.txt"), g.normLine)
	g.read(filepath.Join(*ucd, "extracted", "DerivedBidiClass.txt"), g.valueLine("Bidi_Class", bidiClasses, &g.bidi))
	g.read(filepath.Join(*ucd, "extracted", "DerivedJoiningType.txt"), g.valueLine("Joining_Type", joiningTypes, &g.joining))
	g.read(filepath.Join(*ucd, "extracted", "DerivedGeneralCategory.txt"), g.categoryLine)
	g.read(filepath.Join(*ucd, "extracted", "DerivedCombiningClass.txt"), g.cccLine)
	src, err := format.Source(g.write())
	if err != nil {
		log.Fatalf("gen: formatting the tables: %v", err)
	}
	// The last line is the SHA-256 of all before it, which a test of
	// package uts46 checks: a table edited by hand fails it.
	src = fmt.Appendf(src, "\n// %s %x\n", sumLabel, sha256.Sum256(src))
	if err := safefile.WriteFile(*out, src); err != nil {
		log.Fatal(err)
	}
}

// statuses are the IDNA status values, in the order the tables number
// them; the generated file names each statusValid, statusMapped, ...
var statuses = []string{"valid", "mapped", "deviation", "disallowed", "ignored"}

var statusMapped = uint32(slices.Index(statuses, "mapped"))

// bidiClasses are the Bidi_Class values in the order the tables number
// them; the generated file names each bidiL, bidiR, ...
var bidiClasses = []string{"L", "R", "AL", "EN", "ES", "ET", "AN", "CS", "NSM", "BN",
	"B", "S", "WS", "ON", "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}

// joiningTypes are the Joining_Type values in the order the tables number
// them (the generated file names each joinU, joinC, ...); U, Non_Joining,
// is the default.
var joiningTypes = []string{"U", "C", "D", "L", "R", "T"}

type generator struct {
	version string
	file    string
	line    int
	sources []string // each file read, with its SHA-256

	status   [maxRune + 1]uint32
	mapping  [maxRune + 1]string
	decomp   map[rune][]rune   // canonical, one level
	fce      map[rune]bool     // Full_Composition_Exclusion
	nfcMaybe [maxRune + 1]bool // NFC_Quick_Check is No or Maybe
	bidi     [maxRune + 1]uint32
	joining  [maxRune + 1]uint32
	mark     [maxRune + 1]bool
	ccc      [maxRune + 1]uint32
}

var versionLine = regexp.MustCompile(`^# (?:Version: |[A-Za-z]+-)(\d+\.\d+\.\d+)`)

// read calls each for every data line of a UCD file, with its code point
// range and its fields, and checks that every file is of one version.
func (g *generator) read(path string, each func(lo, hi rune, f []string)) {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	g.sources = append(g.sources, fmt.Sprintf("%x  %s", sha256.Sum256(data), filepath.Base(path)))
	g.file, g.line = path, 0
	version := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		g.line++
		text := sc.Text()
		if m := versionLine.FindStringSubmatch(text); m != nil && version == "" {
			version = m[1]
		}
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		f := strings.Split(text, ";")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		lo, hi := g.codePoints(f[0])
		each(lo, hi, f)
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	// UnicodeData.txt says no version inside; the others must agree.
	if filepath.Base(path) != "UnicodeData.txt" {
		switch {
		case version == "":
			g.fail("no version line")
		case g.version == "":
			g.version = version
		case g.version != version:
			g.fail("version %s, where the files before are %s", version, g.version)
		}
	}
}

func (g *generator) fail(format string, args ...any) {
	log.Fatalf("gen: %s:%d: %s", g.file, g.line, fmt.Sprintf(format, args...))
}

func (g *generator) codePoints(s string) (lo, hi rune) {
	a, b, isRange := strings.Cut(s, "..")
	lo = g.hex(a)
	hi = lo
	if isRange {
		hi = g.hex(b)
	}
	if lo > hi || hi > maxRune {
		g.fail("bad code point range %q", s)
	}
	return lo, hi
}

func (g *generator) hex(s string) rune {
	n, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		g.fail("bad code point %q", s)
	}
	return rune(n)
}

func (g *generator) runes(s string) []rune {
	var r []rune
	for _, h := range strings.Fields(s) {
		r = append(r, g.hex(h))
	}
	return r
}

func (g *generator) idnaLine(lo, hi rune, f []string) {
	i := slices.Index(statuses, f[1])
	if i < 0 {
		g.fail("unknown status %q", f[1])
	}
	status := uint32(i)
	var mapping string
	if status == statusMapped {
		if len(f) < 3 {
			g.fail("a mapped code point without its mapping")
		}
		mapping = string(g.runes(f[2]))
	}
	for r := lo; r <= hi; r++ {
		g.status[r], g.mapping[r] = status, mapping
	}
}

func (g *generator) unicodeDataLine(lo, _ rune, f []string) {
	if g.decomp == nil {
		g.decomp = map[rune][]rune{}
	}
	if len(f) < 6 {
		g.fail("too few fields")
	}
	if d := f[5]; d != "" && d[0] != '<' {
		g.decomp[lo] = g.runes(d)
	}
}

func (g *generator) normLine(lo, hi rune, f []string) {
	if f[1] == "NFC_QC" {
		for r := lo; r <= hi; r++ {
			g.nfcMaybe[r] = true
		}
		return
	}
	if f[1] != "Full_Composition_Exclusion" {
		return
	}
	if g.fce == nil {
		g.fce = map[rune]bool{}
	}
	for r := lo; r <= hi; r++ {
		g.fce[r] = true
	}
}

// valueLine returns what reads a file of one enumerated property into
// dst: each value's number is its place in names.
func (g *generator) valueLine(property string, names []string, dst *[maxRune + 1]uint32) func(lo, hi rune, f []string) {
	return func(lo, hi rune, f []string) {
		i := slices.Index(names, f[1])
		if i < 0 {
			g.fail("unknown %s %q", property, f[1])
		}
		for r := lo; r <= hi; r++ {
			dst[r] = uint32(i)
		}
	}
}

func (g *generator) categoryLine(lo, hi rune, f []string) {
	for r := lo; r <= hi; r++ {
		g.mark[r] = f[1] == "Mn" || f[1] == "Mc" || f[1] == "Me"
	}
}

func (g *generator) cccLine(lo, hi rune, f []string) {
	n, err := strconv.ParseUint(f[1], 10, 8)
	if err != nil {
		g.fail("bad Canonical_Combining_Class %q", f[1])
	}
	for r := lo; r <= hi; r++ {
		g.ccc[r] = uint32(n)
	}
}

// fullDecomposition is r's canonical decomposition applied until nothing
// decomposes further.
func (g *generator) fullDecomposition(r rune) []rune {
	d, ok := g.decomp[r]
	if !ok {
		return []rune{r}
	}
	var out []rune
	for _, c := range d {
		out = append(out, g.fullDecomposition(c)...)
	}
	return out
}

// ranges turns a value per code point into the first code point of each
// run of equal values, and the run's value.
func ranges(value func(r rune) uint32) (starts, values []uint32) {
	for r := rune(0); r <= maxRune; r++ {
		v := value(r)
		if len(values) == 0 || values[len(values)-1] != v {
			starts = append(starts, uint32(r))
			values = append(values, v)
		}
	}
	return starts, values
}

// strs gathers strings into one, each string's place packed as offset<<8 |
// length.
type strs struct {
	all   strings.Builder
	place map[string]uint32
}

func (s *strs) add(str string) uint32 {
	if s.place == nil {
		s.place = map[string]uint32{}
	}
	if p, ok := s.place[str]; ok {
		return p
	}
	if len(str) > 0xff {
		log.Fatalf("gen: a string of %d bytes does not fit", len(str))
	}
	p := uint32(s.all.Len())<<8 | uint32(len(str))
	if p>>8 != uint32(s.all.Len()) {
		log.Fatal("gen: the strings do not fit 24 bits of offset")
	}
	s.all.WriteString(str)
	s.place[str] = p
	return p
}

func (g *generator) write() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by \"go run ./internal/gen\" from the Unicode Character Database %s. DO NOT EDIT.\n\n", g.version)
	fmt.Fprintf(&b, "// The files it read, by SHA-256:\n//\n")
	for _, src := range g.sources {
		fmt.Fprintf(&b, "//\t%s\n", src)
	}
	fmt.Fprintf(&b, "\npackage uts46\n\n")
	fmt.Fprintf(&b, "// UnicodeVersion is the version of Unicode the tables come from.\nconst UnicodeVersion = %q\n\n", g.version)
	writeNames(&b, "The IDNA status values of IdnaMappingTable.txt.", "status", statuses)
	writeNames(&b, "The Bidi_Class values.", "bidi", bidiClasses)
	writeNames(&b, "The Joining_Type values.", "join", joiningTypes)

	// Status and mapping, as in IdnaMappingTable.txt.
	var mappings strs
	starts, values := ranges(func(r rune) uint32 {
		v := g.status[r]
		if v == statusMapped {
			v |= mappings.add(g.mapping[r]) << 3
		}
		return v
	})
	writeUints(&b, "idnaStarts", "the first code point of each run with one IDNA status and mapping", starts)
	writeUints(&b, "idnaValues", "each run's status, and for a mapped run its mapping's offset<<8 | length in idnaMappings, shifted left by 3", values)
	fmt.Fprintf(&b, "// idnaMappings holds the mappings of IdnaMappingTable.txt in UTF-8.\nconst idnaMappings = %q\n\n", mappings.all.String())

	// Properties UTS #46's validity criteria ask for.
	starts, values = ranges(func(r rune) uint32 {
		v := g.bidi[r] | g.joining[r]<<5 | g.ccc[r]<<9
		if g.mark[r] {
			v |= 1 << 8
		}
		if g.nfcMaybe[r] {
			v |= 1 << 17
		}
		return v
	})
	writeUints(&b, "propStarts", "the first code point of each run with the same properties", starts)
	writeUints(&b, "propValues", "each run's Bidi_Class (5 bits), Joining_Type (3), General_Category=Mark (1), Canonical_Combining_Class (8), and NFC_Quick_Check not Yes (1)", values)

	// Canonical decompositions, fully applied, and the primary composites.
	var decomps strs
	var decompKeys, decompVals []uint32
	var compKeys []uint64
	var compVals []uint32
	keys := make([]rune, 0, len(g.decomp))
	for r := range g.decomp {
		keys = append(keys, r)
	}
	slices.Sort(keys)
	for _, r := range keys {
		decompKeys = append(decompKeys, uint32(r))
		decompVals = append(decompVals, decomps.add(string(g.fullDecomposition(r))))
		if d := g.decomp[r]; len(d) == 2 && !g.fce[r] {
			compKeys = append(compKeys, uint64(d[0])<<21|uint64(d[1]))
			compVals = append(compVals, uint32(r))
		}
	}
	order := make([]int, len(compKeys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if compKeys[a] < compKeys[b] {
			return -1
		}
		return 1
	})
	sortedKeys := make([]uint64, len(order))
	sortedVals := make([]uint32, len(order))
	for i, j := range order {
		sortedKeys[i], sortedVals[i] = compKeys[j], compVals[j]
	}
	writeUints(&b, "decompKeys", "the code points that have a canonical decomposition", decompKeys)
	writeUints(&b, "decompValues", "each one's full canonical decomposition, as offset<<8 | length in decompositions", decompVals)
	fmt.Fprintf(&b, "// decompositions holds the canonical decompositions in UTF-8.\nconst decompositions = %q\n\n", decomps.all.String())
	writeUints(&b, "compKeys", "the pairs that compose canonically, first<<21 | second", sortedKeys)
	writeUints(&b, "compValues", "what each pair composes to", sortedVals)
	if !utf8.ValidString(mappings.all.String() + decomps.all.String()) {
		log.Fatal("gen: a mapping is not valid UTF-8")
	}
	return b.Bytes()
}

// writeNames writes a constant for each of names, prefix and the name
// ("statusValid"), numbered from 0 in order.
func writeNames(b *bytes.Buffer, doc, prefix string, names []string) {
	fmt.Fprintf(b, "// %s\nconst (\n", doc)
	for i, name := range names {
		fmt.Fprintf(b, "\t%s%s = %d\n", prefix, strings.ToUpper(name[:1])+name[1:], i)
	}
	b.WriteString(")\n\n")
}

func writeUints[T uint32 | uint64](b *bytes.Buffer, name, doc string, v []T) {
	typ := "uint32"
	if _, wide := any(v).([]uint64); wide {
		typ = "uint64"
	}
	fmt.Fprintf(b, "// %s: %s.\nvar %s = [%d]%s{", name, doc, name, len(v), typ)
	for i, x := range v {
		if i%8 == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "%#x, ", x)
	}
	b.WriteString("\n}\n\n")
}
