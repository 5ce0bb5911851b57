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
			return
		case v.Kind() == reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), f, join(path, strconv.Itoa(i)))
			}
			return
		}
		unit, text := rangeText(ranges[path])
		out = append(out, Key{Path: path, Value: format(v), Unit: unit, Range: text, Doc: f.Tag.Get("doc")})
	}
	walk(reflect.ValueOf(sc), reflect.StructField{}, "")
	return out
}

// Reference lists every key a scenario has, with its default: list entries
// appear once, as "layer.N.attempts".
func Reference() []Key {
	sc := model.Default()
	sc.Fault = []model.Fault{model.DefaultFault()}
	sc.Change = []model.Change{{}}
	sc.Shape = []model.Point{{}} // no shape by default; its entries' keys still are keys
	var out []Key
	seen := map[string]bool{}
	for _, k := range Keys(sc) {
		segs := strings.Split(k.Path, ".")
		for i, s := range segs {
			if _, err := strconv.Atoi(s); err == nil {
				segs[i] = "N"
			}
		}
		k.Path = strings.Join(segs, ".")
		if !seen[k.Path] {
			seen[k.Path] = true
			out = append(out, k)
		}
	}
	return out
}

// Differs lists the keys of sc whose value differs from base.
func Differs(sc, base model.Scenario) []Key {
	// A layer the base lacks is compared with a default layer, so only
	// what its entry sets stands out.
	base.Layer = append([]model.Layer(nil), base.Layer...)
	for len(base.Layer) < len(sc.Layer) {
		base.Layer = append(base.Layer, model.DefaultLayer())
	}
	had := map[string]string{}
	for _, k := range Keys(base) {
		had[k.Path] = k.Value
	}
	var out []Key
	for _, k := range Keys(sc) {
		if v, ok := had[k.Path]; !ok || v != k.Value {
			out = append(out, k)
		}
	}
	return out
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
