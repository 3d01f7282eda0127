package htmltree

import (
	"fmt"
	"slices"
	"strings"

	"github.com/relurl/relurl/htmltok"
)

// dom is a Sink that builds the tree, for the tests: a DOM of its own,
// dumped as html5lib-tests write their expected trees.
type dom struct {
	z     *htmltok.Tokenizer
	nodes map[Node]*domNode
	root  *domNode
	// popped counts each element's Pop: the Sink's contract is one each.
	popped map[Node]int
}

type domNode struct {
	kind     byte // 'd' document, 'e' element, 't' text, 'c' comment, '!' doctype, 'f' template contents
	ns       Namespace
	name     string // an element's name, a text's or comment's data, a DOCTYPE's dump
	attrs    []domAttr
	children []*domNode
	parent   *domNode
	contents *domNode
}

type domAttr struct{ name, value string }

func newDOM(z *htmltok.Tokenizer) *dom {
	root := &domNode{kind: 'd'}
	return &dom{z: z, nodes: map[Node]*domNode{Document: root}, root: root, popped: map[Node]int{}}
}

func (d *dom) Element(n Node, ns Namespace, name string, how Origin, from Node) {
	e := &domNode{kind: 'e', ns: ns, name: name}
	switch how {
	case FromToken:
		for _, a := range d.z.Attrs(nil) {
			e.attrs = append(e.attrs, domAttr{adjustAttr(ns, string(a.Name)), string(a.Value)})
		}
	case Cloned:
		e.attrs = slices.Clone(d.nodes[from].attrs)
	}
	d.nodes[n] = e
}

func (d *dom) Contents(t, contents Node) {
	c := &domNode{kind: 'f'}
	d.nodes[t].contents = c
	d.nodes[contents] = c
}

func (d *dom) insert(parent *domNode, n *domNode, before Node) {
	if n.parent != nil {
		d.detach(n)
	}
	n.parent = parent
	i := len(parent.children)
	if before != None {
		i = slices.Index(parent.children, d.nodes[before])
		if i < 0 {
			panic("before is not a child of parent")
		}
	}
	parent.children = slices.Insert(parent.children, i, n)
}

func (d *dom) detach(n *domNode) {
	p := n.parent
	i := slices.Index(p.children, n)
	p.children = slices.Delete(p.children, i, i+1)
	n.parent = nil
}

func (d *dom) Insert(parent, n, before Node) { d.insert(d.nodes[parent], d.nodes[n], before) }

func (d *dom) Text(parent Node, text []byte, before Node) {
	p := d.nodes[parent]
	i := len(p.children)
	if before != None {
		i = slices.Index(p.children, d.nodes[before])
	}
	if i > 0 && p.children[i-1].kind == 't' {
		p.children[i-1].name += string(text)
		return
	}
	d.insert(p, &domNode{kind: 't', name: string(text)}, before)
}

func (d *dom) Comment(parent Node, data []byte, before Node) {
	d.insert(d.nodes[parent], &domNode{kind: 'c', name: string(data)}, before)
}

func (d *dom) Doctype() {
	name, public, system, _ := d.z.Doctype()
	s := "<!DOCTYPE " + string(name)
	if public != nil || system != nil {
		s += fmt.Sprintf(` "%s" "%s"`, public, system)
	}
	d.insert(d.root, &domNode{kind: '!', name: s + ">"}, None)
}

func (d *dom) Remove(n Node) { d.detach(d.nodes[n]) }

func (d *dom) MoveChildren(from, to Node) {
	f, t := d.nodes[from], d.nodes[to]
	for _, c := range f.children {
		c.parent = t
	}
	t.children = append(t.children, f.children...)
	f.children = nil
}

func (d *dom) AddAttributes(n Node) {
	e := d.nodes[n]
	for _, a := range d.z.Attrs(nil) {
		name := string(a.Name)
		if !slices.ContainsFunc(e.attrs, func(x domAttr) bool { return x.name == name }) {
			e.attrs = append(e.attrs, domAttr{name, string(a.Value)})
		}
	}
}

func (d *dom) Pop(n Node, ns Namespace, name string) {
	if e := d.nodes[n]; e == nil || e.kind != 'e' || e.ns != ns || e.name != name {
		panic(fmt.Sprintf("Pop(%d, %v, %q) of another node", n, ns, name))
	}
	d.popped[n]++
}

// unpopped names the elements that were not popped once each.
func (d *dom) unpopped() []string {
	var bad []string
	for n, e := range d.nodes {
		if e.kind == 'e' && d.popped[n] != 1 {
			bad = append(bad, fmt.Sprintf("<%s> (%d) popped %d times", e.name, n, d.popped[n]))
		}
	}
	return bad
}

// dump writes the tree as html5lib-tests' "#document" section has it.
func (d *dom) dump() string {
	var sb strings.Builder
	var walk func(n *domNode, depth int)
	walk = func(n *domNode, depth int) {
		for _, c := range n.children {
			indent := "| " + strings.Repeat("  ", depth)
			switch c.kind {
			case 't':
				fmt.Fprintf(&sb, "%s\"%s\"\n", indent, c.name)
			case 'c':
				fmt.Fprintf(&sb, "%s<!-- %s -->\n", indent, c.name)
			case '!':
				fmt.Fprintf(&sb, "%s%s\n", indent, c.name)
			case 'e':
				name := c.name
				if c.ns != HTML {
					name = c.ns.String() + " " + name
				}
				fmt.Fprintf(&sb, "%s<%s>\n", indent, name)
				attrs := slices.Clone(c.attrs)
				slices.SortFunc(attrs, func(a, b domAttr) int { return strings.Compare(a.name, b.name) })
				for _, a := range attrs {
					fmt.Fprintf(&sb, "%s  %s=\"%s\"\n", indent, a.name, a.value)
				}
				if c.contents != nil {
					fmt.Fprintf(&sb, "%s  content\n", indent)
					walk(c.contents, depth+2)
				}
				walk(c, depth+1)
			}
		}
	}
	walk(d.root, 0)
	return sb.String()
}

// adjustAttr is an attribute's name as the DOM has it on an element of
// ns: "adjust SVG attributes", "adjust MathML attributes" and "adjust
// foreign attributes" (13.2.6.5), written as html5lib-tests dump them.
func adjustAttr(ns Namespace, name string) string {
	if ns == HTML {
		return name
	}
	if ns == MathML && name == "definitionurl" {
		return "definitionURL"
	}
	if ns == SVG {
		if n, ok := svgAttrs[name]; ok {
			return n
		}
	}
	switch name {
	case "xlink:actuate", "xlink:arcrole", "xlink:href", "xlink:role", "xlink:show", "xlink:title",
		"xlink:type", "xml:lang", "xml:space", "xmlns:xlink":
		return strings.Replace(name, ":", " ", 1)
	}
	return name
}

var svgAttrs = func() map[string]string {
	m := map[string]string{}
	for _, n := range strings.Fields(`attributeName attributeType baseFrequency baseProfile calcMode
		clipPathUnits diffuseConstant edgeMode filterUnits glyphRef gradientTransform gradientUnits
		kernelMatrix kernelUnitLength keyPoints keySplines keyTimes lengthAdjust limitingConeAngle
		markerHeight markerUnits markerWidth maskContentUnits maskUnits numOctaves pathLength
		patternContentUnits patternTransform patternUnits pointsAtX pointsAtY pointsAtZ preserveAlpha
		preserveAspectRatio primitiveUnits refX refY repeatCount repeatDur requiredExtensions
		requiredFeatures specularConstant specularExponent spreadMethod startOffset stdDeviation
		stitchTiles surfaceScale systemLanguage tableValues targetX targetY textLength viewBox
		viewTarget xChannelSelector yChannelSelector zoomAndPan`) {
		m[strings.ToLower(n)] = n
	}
	return m
}()
