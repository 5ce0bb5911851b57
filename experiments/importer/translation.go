package importer

import (
	"slices"
	"strings"
)

// translation builds a Result from one format's documents: it makes the
// policies, records where every key comes from and every field stormlab
// does not model, and keeps count of the fields accounted for, so that
// account can name any field the translation did not read.
type translation struct {
	res     *Result
	format  Format
	seen    map[*node]bool
	anchors map[*node]string
}

func newTranslation(res *Result, f Format) *translation {
	return &translation{res: res, format: f, seen: map[*node]bool{}, anchors: map[*node]string{}}
}

// anchor names the table n as its format's documentation names it
// ("RetryPolicy", "Cluster"), so that the fields under it are named from
// there in the mapping: RetryPolicy.num_retries wherever the policy sits.
func (t *translation) anchor(n *node, name string) { t.anchors[n] = name }

// pattern is a node's row name in the format's Rules.
func (t *translation) pattern(n *node) string {
	if a, ok := t.anchors[n]; ok {
		return a
	}
	if n.parent == nil {
		return ""
	}
	up := t.pattern(n.parent)
	if n.index >= 0 {
		return up + "[]"
	}
	if up == "" {
		return t.format.canon(n.name)
	}
	return up + "." + t.format.canon(n.name)
}

// field describes n as a Field.
func (t *translation) field(n *node) Field {
	v := n.short()
	if t.format.Name == "aws" {
		v = "" // an AWS file may hold credentials: settings are named, never quoted
	}
	return Field{File: n.file, Line: n.line, Col: n.col, Path: n.path(), Pattern: t.pattern(n), Value: v}
}

// src is where a key's value comes from: a field the file writes, or a
// field of a table that the file leaves unset, whose default applies.
type src struct {
	n     *node
	unset string // the unset field's name in n; "" for n itself
}

// at is the field n.
func at(n *node) src { return src{n: n} }

// unsetIn is the field name of the table n, which the file does not write.
func unsetIn(n *node, name string) src { return src{n: n, unset: name} }

func (t *translation) fieldOf(s src) Field {
	f := t.field(s.n)
	if s.unset != "" {
		f.Path = joinPath(f.Path, s.unset)
		f.Pattern = joinPath(f.Pattern, s.unset)
		f.Value, f.Unset = "", true
	}
	return f
}

// policy starts a policy named name, made from the table n.
func (t *translation) policy(name string, n *node) *Policy {
	t.res.Policies = append(t.res.Policies, Policy{Name: name, From: t.field(n)})
	return &t.res.Policies[len(t.res.Policies)-1]
}

// set gives p the key with value v, following from the sources; says is
// how, and where the semantics differ.
func (t *translation) set(p *Policy, key string, v any, says string, from ...src) {
	k := Key{Key: key, Value: v, Says: says}
	for _, s := range from {
		k.From = append(k.From, t.fieldOf(s))
		if s.unset == "" {
			t.seen[s.n] = true
		}
	}
	p.Keys = append(p.Keys, k)
}

// leave names n as a field stormlab does not model, and why: in p, or in
// the import as a whole when p is nil.
func (t *translation) leave(p *Policy, n *node, why string) {
	f := t.field(n)
	f.Why = why
	t.seen[n] = true
	if p == nil {
		t.res.Unmodelled = append(t.res.Unmodelled, f)
		return
	}
	p.Unmodelled = append(p.Unmodelled, f)
}

// leaveUnset names a field that the table n does not write, whose default
// stormlab does not model, and why.
func (t *translation) leaveUnset(p *Policy, n *node, name, why string) {
	f := t.fieldOf(unsetIn(n, name))
	f.Why = why
	p.Unmodelled = append(p.Unmodelled, f)
}

// account names every field of the documents that the translation did
// not read, so that none is dropped silently. The tests hold the formats'
// examples to have none.
func (t *translation) account(docs []*node) {
	for _, d := range docs {
		for _, leaf := range d.leaves() {
			covered := false
			for n := leaf; n != nil && !covered; n = n.parent {
				covered = t.seen[n]
			}
			if !covered {
				t.leave(nil, leaf, unread)
			}
		}
	}
}

// unread is why account names a field.
const unread = "not read by stormlab import"

// rule finds the row of the format's Rules that names a field pattern.
func (f Format) rule(pattern string) (Rule, bool) {
	for _, r := range f.Rules {
		if r.Field == pattern {
			return r, true
		}
	}
	for _, r := range f.Rules {
		if table, ok := strings.CutSuffix(r.Field, ".*"); ok {
			if rest, ok := strings.CutPrefix(pattern, table+"."); ok && !strings.ContainsAny(rest, ".[") {
				return r, true
			}
		}
	}
	return Rule{}, false
}

// why is the Rules' reason for leaving a field out.
func (t *translation) why(n *node) string {
	if r, ok := t.format.rule(t.pattern(n)); ok {
		return r.Says
	}
	return unread
}

// leaveAll names every field of the table n that is not among keep as not
// modelled, each with its row's reason.
func (t *translation) leaveAll(p *Policy, n *node, keep ...string) {
	if n == nil || n.kind != mapNode {
		return
	}
	for i, k := range n.keys {
		if c := t.format.canon(k); !slices.Contains(keep, c) {
			t.leave(p, n.items[i], t.why(n.items[i]))
		}
	}
}
