package htmltree_test

import (
	"fmt"
	"strings"

	"github.com/relurl/relurl/htmltok"
	"github.com/relurl/relurl/htmltree"
)

// elements is a Sink that prints each element the tree builder inserts,
// with its namespace and its depth in the tree.
type elements struct {
	depth map[htmltree.Node]int
	ns    map[htmltree.Node]htmltree.Namespace
	name  map[htmltree.Node]string
}

func (e *elements) Element(n htmltree.Node, ns htmltree.Namespace, name string, _ htmltree.Origin, _ htmltree.Node) {
	e.ns[n], e.name[n] = ns, name
}

func (e *elements) Insert(parent, n, _ htmltree.Node) {
	e.depth[n] = e.depth[parent] + 1
	fmt.Printf("%s%s %s\n", strings.Repeat("  ", e.depth[parent]), e.ns[n], e.name[n])
}

func (*elements) Contents(_, _ htmltree.Node)                   {}
func (*elements) Text(htmltree.Node, []byte, htmltree.Node)     {}
func (*elements) Comment(htmltree.Node, []byte, htmltree.Node)  {}
func (*elements) Doctype()                                      {}
func (*elements) Remove(htmltree.Node)                          {}
func (*elements) MoveChildren(_, _ htmltree.Node)               {}
func (*elements) AddAttributes(htmltree.Node)                   {}
func (*elements) Pop(htmltree.Node, htmltree.Namespace, string) {}

// A <base> in SVG's <foreignObject> is HTML's, and the document's base; a
// </div> ends the <svg> it holds, so the <script> after it is HTML's, and
// its text no markup.
func Example() {
	page := `<div><svg><foreignObject><base href="/b/"></foreignObject><a href=x></a></div><script>"<a href=y>"</script>`
	sink := &elements{map[htmltree.Node]int{}, map[htmltree.Node]htmltree.Namespace{}, map[htmltree.Node]string{}}
	if err := htmltree.New(htmltok.NewBytes([]byte(page)), sink).Run(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// html html
	//   html head
	//   html body
	//     html div
	//       svg svg
	//         svg foreignObject
	//           html base
	//         svg a
	//     html script
}
