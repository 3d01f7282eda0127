// Package api holds relurl's exported API, as the Go project keeps its
// api/go1.*.txt: relurl.txt lists every exported name of every library
// package, with its signature, one a line. TestAPI fails when the packages
// and the list part: a change to the API is a change to this file too, made
// on purpose (go test ./api -update writes it), so that v1 stays v1.
package api

import (
	"bytes"
	"flag"
	"go/ast"
	"go/build"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write relurl.txt from the packages")

// libraries are the packages whose API is kept: every one but the
// command, the benchmarks and the internal ones.
func libraries(t *testing.T) []string {
	var dirs []string
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		switch d.Name() {
		case "cmd", "bench", "internal", "testdata", "api", ".git", ".ci", "docs", "spark":
			if path != ".." {
				return filepath.SkipDir
			}
		}
		if strings.HasPrefix(d.Name(), ".") && path != ".." {
			return filepath.SkipDir
		}
		files, _ := filepath.Glob(filepath.Join(path, "*.go"))
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				dirs = append(dirs, path)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// listing returns the API lines of the package in dir.
func listing(t *testing.T, dir string) []string {
	fset := token.NewFileSet()
	// The package's files for this platform, as the go command chooses
	// them (build tags and file names), without its tests.
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]struct{ Files []*ast.File }{}
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		p := pkgs[f.Name.Name]
		p.Files = append(p.Files, f)
		pkgs[f.Name.Name] = p
	}
	var lines []string
	show := func(n ast.Node) string {
		var b bytes.Buffer
		printer.Fprint(&b, fset, n)
		return strings.Join(strings.Fields(b.String()), " ")
	}
	for name, pkg := range pkgs {
		prefix := "pkg " + name + ", "
		for _, f := range pkg.Files {
			for _, decl := range f.Decls {
				switch d := decl.(type) {
				case *ast.FuncDecl:
					if !d.Name.IsExported() {
						continue
					}
					sig := show(d.Type)
					if d.Recv != nil {
						recv := show(d.Recv.List[0].Type)
						base := strings.TrimLeft(strings.SplitN(recv, "[", 2)[0], "*")
						if !ast.IsExported(base) {
							continue
						}
						lines = append(lines, prefix+"method ("+recv+") "+d.Name.Name+strings.TrimPrefix(sig, "func"))
						continue
					}
					lines = append(lines, prefix+"func "+d.Name.Name+strings.TrimPrefix(sig, "func"))
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						switch s := spec.(type) {
						case *ast.TypeSpec:
							if !s.Name.IsExported() {
								continue
							}
							switch ty := s.Type.(type) {
							case *ast.StructType:
								lines = append(lines, prefix+"type "+s.Name.Name+" struct")
								for _, field := range ty.Fields.List {
									for _, n := range field.Names {
										if n.IsExported() {
											lines = append(lines, prefix+"type "+s.Name.Name+" struct, "+n.Name+" "+show(field.Type))
										}
									}
									if len(field.Names) == 0 {
										lines = append(lines, prefix+"type "+s.Name.Name+" struct, embedded "+show(field.Type))
									}
								}
							case *ast.InterfaceType:
								lines = append(lines, prefix+"type "+s.Name.Name+" interface")
								for _, m := range ty.Methods.List {
									for _, n := range m.Names {
										lines = append(lines, prefix+"type "+s.Name.Name+" interface, "+n.Name+strings.TrimPrefix(show(m.Type), "func"))
									}
								}
							default:
								lines = append(lines, prefix+"type "+s.Name.Name+" "+show(s.Type))
							}
						case *ast.ValueSpec:
							kind := "var "
							if d.Tok == token.CONST {
								kind = "const "
							}
							for _, n := range s.Names {
								if n.IsExported() {
									lines = append(lines, prefix+kind+n.Name)
								}
							}
						}
					}
				}
			}
		}
	}
	return lines
}

// TestAPI compares the exported API with relurl.txt.
func TestAPI(t *testing.T) {
	var lines []string
	for _, dir := range libraries(t) {
		lines = append(lines, listing(t, dir)...)
	}
	slices.Sort(lines)
	got := strings.Join(lines, "\n") + "\n"
	if *update {
		if err := os.WriteFile("relurl.txt", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile("relurl.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got == string(want) {
		t.Logf("%d exported names, as api/relurl.txt lists them", len(lines))
		return
	}
	wantLines := strings.Split(strings.TrimSuffix(string(want), "\n"), "\n")
	for _, l := range lines {
		if !slices.Contains(wantLines, l) {
			t.Errorf("added, not in relurl.txt: %s", l)
		}
	}
	for _, l := range wantLines {
		if !slices.Contains(lines, l) {
			t.Errorf("gone, still in relurl.txt: %s", l)
		}
	}
	t.Log("a change to the API is a change to api/relurl.txt: go test ./api -update writes it")
}

// TestLayers holds the layers the packages are in: where bytes come from
// (source, warc, and HTTP), formats and standards, links over them, and
// the tools over links. A package below may not import one above: links
// knows no transport, table no corpus, and links exports no more than a
// room of its size should (its 45 names: types, constants, functions and
// methods).
func TestLayers(t *testing.T) {
	forbidden := map[string][]string{
		"links":  {"net/http", "github.com/relurl/relurl/warc", "github.com/relurl/relurl/source", "github.com/relurl/relurl/corpus"},
		"table":  {"github.com/relurl/relurl/corpus"},
		"xmldoc": {"github.com/relurl/relurl"},
		"whatwg": {"github.com/relurl/relurl"},
	}
	for pkg, imports := range forbidden {
		bp, err := build.ImportDir(filepath.Join("..", pkg), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range imports {
			if slices.Contains(bp.Imports, imp) {
				t.Errorf("package %s imports %s, a layer above it or beside it", pkg, imp)
			}
		}
	}
	names := 0
	for _, l := range listing(t, filepath.Join("..", "links")) {
		if !strings.Contains(l, " struct, ") { // a field is part of its type
			names++
		}
	}
	if names > 45 {
		t.Errorf("package links exports %d names, more than 45", names)
	}
}
