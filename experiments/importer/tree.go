package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stormlab/stormlab/experiments"
	"go.yaml.in/yaml/v3"
)

// nodeKind is what a node holds.
type nodeKind uint8

const (
	scalarNode nodeKind = iota
	mapNode
	listNode
)

// node is one value of a configuration file — a mapping, a list or a
// scalar — with where the file writes it and where it sits in the file's
// tree, so that every key the importer writes and every field it leaves
// out can name its source.
type node struct {
	kind      nodeKind
	file      string // the file it is written in, as the user named it
	line, col int    // where the field is written: its key in a mapping, else the value
	parent    *node
	name      string   // the key it is written under, as written; "" for a list item or a root
	index     int      // its place in its list; -1 otherwise
	keys      []string // a mapping's keys, as written
	items     []*node  // a mapping's values (in the order of keys) or a list's items
	value     string   // a scalar as written
	tag       string   // a scalar's type as YAML reads it: !!str, !!int, !!float, !!bool, !!null
}

// path is the node's place as the file spells it:
// methodConfig[0].retryPolicy.maxAttempts.
func (n *node) path() string {
	if n.parent == nil {
		return ""
	}
	if n.index >= 0 {
		return n.parent.path() + "[" + strconv.Itoa(n.index) + "]"
	}
	return joinPath(n.parent.path(), n.name)
}

// child is the value of a mapping's field whose key, in the format's
// spelling, is name; nil when there is none.
func (n *node) child(name string, canon func(string) string) *node {
	if n == nil || n.kind != mapNode {
		return nil
	}
	for i, k := range n.keys {
		if canon(k) == name {
			return n.items[i]
		}
	}
	return nil
}

// leaves lists the scalars under n (n itself when it is one), and the
// empty mappings and lists, in file order.
func (n *node) leaves() []*node {
	if n.kind == scalarNode || len(n.items) == 0 {
		return []*node{n}
	}
	var out []*node
	for _, c := range n.items {
		out = append(out, c.leaves()...)
	}
	return out
}

// short is the node's value as a comment may quote it: a scalar as
// written (cut at 60 characters), "" for a mapping or a list.
func (n *node) short() string {
	if n.kind != scalarNode {
		return ""
	}
	v := n.value
	if n.tag == "!!str" {
		if utf8.RuneCountInString(v) > 60 {
			v = string([]rune(v)[:57]) + "..."
		}
		return strconv.Quote(v)
	}
	return v
}

// yamlLine finds the line yaml.v3 names in its errors.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parseTree reads a YAML or JSON file into one tree per document (a JSON
// file is one). JSON is checked first by encoding/json, whose errors carry
// an exact offset; yaml.v3 then reads either, keeping every value's line
// and column. A key written twice in a mapping is an error, as a proto
// JSON parser or the Kubernetes API server makes it.
func parseTree(file string, data []byte) ([]*node, error) {
	if t := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				line, col := lineCol(data, int(se.Offset)-1) // Offset is just past the byte at fault
				return nil, &experiments.Error{File: file, Line: line, Col: col, Msg: "not valid JSON: " + se.Error()}
			}
			return nil, &experiments.Error{File: file, Msg: "not valid JSON: " + err.Error()}
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []*node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
				line, _ := strconv.Atoi(m[1])
				return nil, &experiments.Error{File: file, Line: line, Msg: "not valid YAML: " + m[2]}
			}
			return nil, &experiments.Error{File: file, Msg: "not valid YAML or JSON: " + strings.TrimPrefix(err.Error(), "yaml: ")}
		}
		if len(doc.Content) == 0 || doc.Content[0].Tag == "!!null" {
			continue // an empty document between two ---
		}
		root, err := convert(file, doc.Content[0], nil, "", -1, doc.Content[0].Line, doc.Content[0].Column)
		if err != nil {
			return nil, err
		}
		out = append(out, root)
	}
	return out, nil
}

// convert turns a yaml.v3 node into a node; line and col are where the
// field is written (its key, for a mapping's value).
func convert(file string, y *yaml.Node, parent *node, name string, index, line, col int) (*node, error) {
	for y.Kind == yaml.AliasNode {
		y = y.Alias
	}
	n := &node{file: file, parent: parent, name: name, index: index, line: line, col: col}
	switch y.Kind {
	case yaml.MappingNode:
		n.kind = mapNode
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(y.Content); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				return nil, &experiments.Error{File: file, Line: k.Line, Col: k.Column, Key: n.path(), Msg: "a key must be a plain name"}
			}
			if k.Value == "<<" {
				return nil, &experiments.Error{File: file, Line: k.Line, Col: k.Column, Key: n.path(), Msg: "YAML merge keys (<<) are not read; write the fields out"}
			}
			if prev, ok := seen[k.Value]; ok {
				return nil, &experiments.Error{File: file, Line: k.Line, Col: k.Column, Key: joinPath(n.path(), k.Value),
					Msg: fmt.Sprintf("given twice (first at line %d)", prev.Line)}
			}
			seen[k.Value] = k
			c, err := convert(file, v, n, k.Value, -1, k.Line, k.Column)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k.Value)
			n.items = append(n.items, c)
		}
	case yaml.SequenceNode:
		n.kind = listNode
		for i, v := range y.Content {
			c, err := convert(file, v, n, "", i, v.Line, v.Column)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, c)
		}
	default:
		n.kind = scalarNode
		n.value, n.tag = y.Value, y.ShortTag()
	}
	return n, nil
}

// joinPath appends a key to a path.
func joinPath(up, name string) string {
	if up == "" {
		return name
	}
	return up + "." + name
}

// lineCol turns a byte offset into a 1-based line and rune column.
func lineCol(src []byte, off int) (line, col int) {
	off = max(0, min(off, len(src)))
	before := src[:off]
	nl := bytes.LastIndexByte(before, '\n')
	return bytes.Count(before, []byte("\n")) + 1, utf8.RuneCount(before[nl+1:]) + 1
}
