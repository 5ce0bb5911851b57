package sweep

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/agnivade/levenshtein"

	"github.com/stormlab/stormlab/model"
)

// Key describes one scenario key: its dotted path, its value (or default)
// and meaning, as the struct tags of model.Scenario state them, and, for a
// number, its unit and the values it takes, as its kind declares them.
type Key struct {
	Path  string
	Value string
	Unit  string
	Range string // "0 to 1e+09", "0s to 24h"; per kind where they differ: "1 to 1e+09 (token_bucket); 0.001 to 1000 (grpc)"
	Doc   string
	// Type is what the key takes, as a form asks for it: number, whole,
	// duration, text or bool.
	Type string
	// Choices are the words a text key takes: the kinds of the family it
	// picks from, or its field's oneof list; nil for free text.
	Choices []string
	// Ranges are the declared ranges Range writes, one per kind that
	// declares its own.
	Ranges []model.KeyRange
}

// Keys lists every key of sc in declaration order, list entries by index:
// the paths Assign takes, with their values.
func Keys(sc model.Scenario) []Key {
	declared, _ := model.Ranges(&sc)
	ranges := map[string][]model.KeyRange{}
	for _, r := range declared {
		ranges[r.Path] = append(ranges[r.Path], r)
	}
	var out []Key
	var walk func(v reflect.Value, f reflect.StructField, path string)
	walk = func(v reflect.Value, f reflect.StructField, path string) {
		switch {
		case v.Type() == durationType:
		case v.Kind() == reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if k := tomlKey(v.Type().Field(i)); k != "" {
					walk(v.Field(i), v.Type().Field(i), join(path, k))
				}
			}
			if pv, ok := kindParams(v); ok {
				for i := 0; i < pv.NumField(); i++ {
					if k := tomlKey(pv.Type().Field(i)); k != "" {
						walk(pv.Field(i), pv.Type().Field(i), join(path, k))
					}
				}
			}
			return
		case v.Kind() == reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), f, join(path, strconv.Itoa(i)))
			}
			return
		}
		unit, text := rangeText(ranges[path])
		out = append(out, Key{Path: path, Value: format(v), Unit: unit, Range: text, Doc: keyDoc(path, f, v),
			Type: keyType(v, ranges[path]), Choices: choices(path, f), Ranges: ranges[path]})
	}
	walk(reflect.ValueOf(sc), reflect.StructField{}, "")
	return out
}

// keyDoc is a key's meaning: its doc tag, which says for a key only one
// engine reads so; for a key that picks a kind, the kind it holds (v), with
// its doc from the registry.
func keyDoc(path string, f reflect.StructField, v reflect.Value) string {
	doc := f.Tag.Get("doc")
	if fam, ok := model.FamilyOf(path); ok && v.Kind() == reflect.String {
		if k, ok := fam.Lookup(v.String()); ok {
			doc = "the " + fam.Name + ": " + k.Name + " — " + k.Doc
		}
	}
	if e := f.Tag.Get("engines"); strings.Contains(e, ",") {
		doc = strings.ReplaceAll(e, ",", " and ") + " engines only: " + doc
	} else if e != "" {
		doc = e + " engine only: " + doc
	}
	return doc
}

// keyType is what a key holding v takes: duration, bool, text, whole (an
// integer, or a number its ranges declare whole) or number.
func keyType(v reflect.Value, rs []model.KeyRange) string {
	switch {
	case v.Type() == durationType:
		return "duration"
	case v.Kind() == reflect.Bool:
		return "bool"
	case v.Kind() == reflect.String:
		return "text"
	case v.CanInt() || v.CanUint():
		return "whole"
	}
	for _, r := range rs {
		if !r.Whole {
			return "number"
		}
	}
	if len(rs) > 0 {
		return "whole"
	}
	return "number"
}

// choices are the words the key at path, of field f, takes: its family's
// kinds from their registry, or the field's oneof list.
func choices(path string, f reflect.StructField) []string {
	if fam, ok := model.FamilyOf(path); ok {
		return fam.Values()
	}
	return model.Choices(f)
}

// familyDoc is the meaning of a key that picks a kind of fam: every kind,
// each with its doc, from the registry.
func familyDoc(fam model.Family) string {
	var kinds []string
	for _, k := range fam.Kinds {
		kinds = append(kinds, k.Name+" — "+k.Doc)
	}
	return "the " + fam.Name + ", one of: " + strings.Join(kinds, "; ")
}

// Reference lists every key a scenario has, with its default: list entries
// appear once, as "layer.N.attempts"; the keys of a table with a kind once
// for every kind's parameters, their meaning and default given per kind
// where kinds differ.
func Reference() []Key {
	sc := referenceScenario()
	var out []Key
	seen := map[string]int{}
	add := func(k Key) {
		k.Path = pattern(k.Path)
		if fam, ok := model.FamilyOf(k.Path); ok {
			k.Doc = familyDoc(fam)
		}
		if i, ok := seen[k.Path]; ok {
			out[i] = merge(out[i], k)
			return
		}
		seen[k.Path] = len(out)
		out = append(out, k)
	}
	for _, k := range Keys(sc) {
		add(k)
	}
	for _, v := range kindVariants(sc) {
		for _, k := range Keys(v.sc) {
			if strings.HasPrefix(k.Path, v.table+".") && !slices.Contains(v.shared, strings.TrimPrefix(k.Path, v.table+".")) {
				k.Doc = v.kind + ": " + k.Doc
				k.Value += " (" + v.kind + ")"
				add(k)
			}
		}
	}
	return tablesTogether(out)
}

// tablesTogether moves every key after the last key before it of the same
// table (a kind's parameters beside the keys its table shares).
func tablesTogether(keys []Key) []Key {
	table := func(p string) string {
		if i := strings.LastIndexByte(p, '.'); i >= 0 {
			return p[:i]
		}
		return ""
	}
	var out []Key
	for _, k := range keys {
		at := len(out)
		for i := len(out) - 1; i >= 0; i-- {
			if t := table(k.Path); t != "" && table(out[i].Path) == t {
				at = i + 1
				break
			}
		}
		out = slices.Insert(out, at, k)
	}
	return out
}

// merge joins the reference entries of a key several kinds have: their
// meanings and defaults side by side.
func merge(a, b Key) Key {
	if !strings.Contains(a.Doc, b.Doc) {
		a.Doc += "; " + b.Doc
	}
	if !strings.Contains(a.Value, b.Value) {
		a.Value += ", " + b.Value
	}
	a.Ranges = slices.Clip(a.Ranges)
	for _, r := range b.Ranges {
		if !slices.Contains(a.Ranges, r) {
			a.Ranges = append(a.Ranges, r)
		}
	}
	return a
}

// kindVariant is the default scenario with one table switched to a kind.
type kindVariant struct {
	sc     model.Scenario
	table  string   // the table's path, "budget"
	kind   string   // its kind
	shared []string // the table's own keys, which every kind has
}

// kindVariants is the default scenario once for each kind with parameters
// of each family whose table's kind owns its keys (its budget, its first
// layer's breaker).
func kindVariants(base model.Scenario) []kindVariant {
	var out []kindVariant
	for _, fam := range model.Families() {
		table := concrete(Table(fam))
		for _, k := range fam.Kinds {
			if k.Params == nil {
				continue
			}
			sc := Clone(base)
			kt, ok := kindTableAt(&sc, table)
			if !ok || kt.SetTableKind(k.Name) != nil {
				continue
			}
			out = append(out, kindVariant{sc: sc, table: table, kind: k.Name, shared: fieldKeys(reflect.TypeOf(kt).Elem())})
		}
	}
	return out
}

// Differs lists the keys of sc whose value differs from base. In a list
// entry base lacks, a key that takes one of a few words and is left empty
// (which stands for the default its doc names) is not listed.
func Differs(sc, base model.Scenario) []Key {
	// A layer, or a graph's service or edge, the base lacks is compared
	// with a default one, so only what its entry sets stands out.
	base.Layer = padded(base.Layer, len(sc.Layer), model.DefaultLayer())
	base.Graph.Service = padded(base.Graph.Service, len(sc.Graph.Service), model.DefaultService())
	base.Graph.Edge = padded(base.Graph.Edge, len(sc.Graph.Edge), model.DefaultLayer())
	had := map[string]string{}
	for _, k := range Keys(base) {
		had[k.Path] = k.Value
	}
	var out []Key
	for _, k := range Keys(sc) {
		v, ok := had[k.Path]
		if !ok && k.Value == `""` {
			continue // a word or name left empty in an entry the base lacks (a fault's in_service or service): it stands for its default
		}
		if !ok || v != k.Value {
			out = append(out, k)
		}
	}
	return out
}

// padded is a copy of list with def appended until it has n entries.
func padded[T any](list []T, n int, def T) []T {
	list = append([]T(nil), list...)
	for len(list) < n {
		list = append(list, def)
	}
	return list
}

// rangeText writes a key's ranges, one per kind that reads it, kinds with
// the same range together, and its unit.
func rangeText(rs []model.KeyRange) (unit, text string) {
	var parts []string
	var kinds [][]string
	for _, r := range rs {
		unit = r.Unit
		t := r.Ends()
		i := slices.Index(parts, t)
		if i < 0 {
			parts, kinds = append(parts, t), append(kinds, nil)
			i = len(parts) - 1
		}
		if r.Kind != "" {
			kinds[i] = append(kinds[i], r.Kind)
		}
	}
	for i := range parts {
		if len(kinds[i]) > 0 {
			parts[i] += " (" + strings.Join(kinds[i], ", ") + ")"
		}
	}
	return unit, strings.Join(parts, "; ")
}

func format(v reflect.Value) string {
	if v.Type() == durationType {
		return v.Interface().(model.Duration).String()
	}
	switch v.Kind() {
	case reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'f', -1, 64)
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Map:
		if v.Len() == 0 {
			return "{}"
		}
	}
	return fmt.Sprint(v.Interface())
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// DidYouMean is " (did you mean "x"?)" for the candidate nearest to word by
// edit distance, when it is near enough to be a slip (one edit in a word of
// up to three letters, else two or a third of its letters, as a swap of two
// letters takes two); "" otherwise.
func DidYouMean(word string, candidates []string) string {
	limit := max(2, len(word)/3)
	if len(word) <= 3 {
		limit = 1
	}
	best, dist := "", limit+1
	for _, c := range candidates {
		if d := levenshtein.ComputeDistance(strings.ToLower(word), strings.ToLower(c)); d < dist {
			best, dist = c, d
		}
	}
	if best == "" || best == word {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
