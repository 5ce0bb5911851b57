package experiments

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// Export is one scenario written out as an experiment file of a single
// cell: what a program that built a scenario (the live explorer) hands
// back to stormlab run. The file runs the scenario with exactly this seed
// (same_seed = true), so it reproduces a run made with model.RunPlan(plan,
// Seed, ...).
type Export struct {
	Name     string   // the experiment's name (its folder); "" = the file's name
	Title    string   // its title
	Question string   // what it asks, for report.md
	Comment  []string // lines written as # comments at the top of the file
	Seed     uint64   // the cell's seed, used as is
	Series   bool     // record the cell's per-second series (series.csv)
	// Figure, when not empty, asks for a series figure of that name, with
	// FigureTitle as its title.
	Figure, FigureTitle string
	// Scenario is written whole: every key that differs from its default,
	// every list entry, and each change with its settings as Set holds
	// them (Then is the loader's and is not written).
	Scenario model.Scenario
}

// lists are the scenario's lists of tables, written as [[scenario.X]]
// entries after the table's other keys, with the default of an entry.
var lists = []struct {
	key   string
	entry func() any
}{
	{"layer", func() any { return model.DefaultLayer() }},
	{"shape", func() any { return model.Point{} }},
	{"fault", func() any { return model.DefaultFault() }},
	{"graph.service", func() any { return model.DefaultService() }},
	{"graph.edge", func() any { return model.DefaultLayer() }},
	{"change", nil}, // written as at and set
}

// TOML writes the file. Parse reads it back into a grid of one cell whose
// scenario and seed are x's.
func (x *Export) TOML() ([]byte, error) {
	var b bytes.Buffer
	for _, c := range x.Comment {
		for _, line := range strings.Split(c, "\n") {
			b.WriteString(strings.TrimRight("# "+line, " ") + "\n")
		}
	}
	if len(x.Comment) > 0 {
		b.WriteString("\n")
	}
	if x.Name != "" {
		if !spec.ValidExperimentName(x.Name) {
			return nil, fmt.Errorf("%q cannot name an experiment: a name is %s", x.Name, spec.ExperimentNameRule)
		}
		line(&b, "name", x.Name)
	}
	if x.Title != "" {
		line(&b, "title", x.Title)
	}
	if x.Question != "" {
		line(&b, "question", x.Question)
	}
	if x.Seed > math.MaxInt64 {
		return nil, fmt.Errorf("seed %d is more than a TOML integer holds", x.Seed)
	}
	line(&b, "seed", int64(x.Seed))
	line(&b, "same_seed", true)
	if x.Series {
		line(&b, "series", true)
	}

	b.WriteString("\n[scenario]\n")
	defaults := map[string]any{}
	for _, s := range sweep.Values(model.Default()) {
		defaults[s.Path] = s.Value
	}
	for _, s := range sweep.Values(x.Scenario) {
		if inList(s.Path) {
			continue
		}
		if d, ok := defaults[s.Path]; ok && reflect.DeepEqual(d, s.Value) {
			continue
		}
		line(&b, s.Path, plain(s.Value))
	}
	for _, l := range lists {
		n := listAt(reflect.ValueOf(x.Scenario), l.key).Len()
		if l.key == "layer" && n == 0 {
			continue
		}
		for i := range n {
			fmt.Fprintf(&b, "\n[[scenario.%s]]\n", l.key)
			if l.entry == nil {
				c := x.Scenario.Change[i]
				line(&b, "at", c.At.String())
				line(&b, "set", c.Set)
				continue
			}
			entry := entryValues(l.key, l.entry())
			prefix := fmt.Sprintf("%s.%d.", l.key, i)
			for _, s := range sweep.Values(x.Scenario) {
				k, ok := strings.CutPrefix(s.Path, prefix)
				if !ok || reflect.DeepEqual(entry[k], s.Value) && !(l.key == "fault" && k == "kind") {
					continue
				}
				line(&b, k, plain(s.Value))
			}
		}
	}
	if x.Figure != "" {
		b.WriteString("\n[[figure]]\n")
		line(&b, "kind", "series")
		line(&b, "name", x.Figure)
		if x.FigureTitle != "" {
			line(&b, "title", x.FigureTitle)
		}
	}
	return b.Bytes(), nil
}

// plain writes a whole number held in a float64 key as the file would,
// without a decimal point (the loader takes either for a number key).
func plain(v any) any {
	if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return int64(f)
	}
	return v
}

// inList reports whether a scenario path lies in one of its lists.
func inList(path string) bool {
	for _, l := range lists {
		if strings.HasPrefix(path, l.key+".") {
			return true
		}
	}
	return false
}

// listAt finds, in the scenario sc, the list written at the dotted key.
func listAt(sc reflect.Value, key string) reflect.Value {
	v := sc
	for _, seg := range strings.Split(key, ".") {
		t, found := v.Type(), false
		for i := 0; i < t.NumField(); i++ {
			if k, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ","); k == seg {
				v, found = v.Field(i), true
				break
			}
		}
		if !found {
			panic("experiments: model.Scenario has no list " + key)
		}
	}
	return v
}

// entryValues are the keys of a default entry of the list at key, by
// their path within it.
func entryValues(key string, entry any) map[string]any {
	var sc model.Scenario
	list := listAt(reflect.ValueOf(&sc).Elem(), key)
	list.Set(reflect.Append(list, reflect.ValueOf(entry)))
	return within(sweep.Values(sc), key+".0.")
}

// within keeps the settings below prefix, keyed by the rest of their path.
func within(ss []model.Setting, prefix string) map[string]any {
	out := map[string]any{}
	for _, s := range ss {
		if k, ok := strings.CutPrefix(s.Path, prefix); ok {
			out[k] = s.Value
		}
	}
	return out
}

// TOMLAssign is the line key = value as an experiment file writes it: the
// key dotted where it has several parts, the value a string, bool, int,
// int64, float64 or a list or table of them (a model.Duration as its
// string). Programs that write experiment files use it, so that every
// file stormlab writes spells values one way.
func TOMLAssign(key string, v any) string {
	if d, ok := v.(model.Duration); ok {
		v = d.String()
	}
	var b bytes.Buffer
	line(&b, key, v)
	return strings.TrimSuffix(b.String(), "\n")
}

// line writes key = value, the key dotted where it has several parts.
func line(b *bytes.Buffer, key string, v any) {
	parts := strings.Split(key, ".")
	for i, p := range parts {
		parts[i] = tomlKey(p)
	}
	b.WriteString(strings.Join(parts, ".") + " = ")
	writeValue(b, v)
	b.WriteString("\n")
}

// writeValue writes a value of the generic form a file decodes to as TOML:
// a table inline, its keys sorted.
func writeValue(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case string:
		b.WriteString(tomlString(x))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case int:
		b.WriteString(strconv.Itoa(x))
	case float64:
		b.WriteString(tomlFloat(x))
	case []any:
		b.WriteString("[")
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, e)
		}
		b.WriteString("]")
	case []map[string]any:
		items := make([]any, len(x))
		for i := range x {
			items[i] = x[i]
		}
		writeValue(b, items)
	case map[string]any:
		b.WriteString("{")
		for i, k := range slices.Sorted(maps.Keys(x)) {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(" " + tomlKey(k) + " = ")
			writeValue(b, x[k])
		}
		if len(x) > 0 {
			b.WriteString(" ")
		}
		b.WriteString("}")
	default:
		// Not a value a file holds: written as a string, which the loader
		// then refuses with a message naming the key.
		b.WriteString(tomlString(fmt.Sprint(x)))
	}
}

// tomlKey writes a key bare when TOML allows it, else quoted.
func tomlKey(k string) string {
	if k != "" && strings.IndexFunc(k, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	}) < 0 {
		return k
	}
	return tomlString(k)
}

// tomlString writes a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlFloat writes a float so that it reads back as the same float: the
// shortest digits, with a decimal point when they would read as an integer.
func tomlFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}
