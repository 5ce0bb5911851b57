package experiments

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/stormlab/stormlab/model"
)

// Error is a problem with an experiment file, positioned where the file
// says it: "file:line:col: key: message". Line is 0 when the problem has no
// place in the file (a -set flag, a default).
type Error struct {
	File      string
	Line, Col int
	Key       string
	Msg       string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Col)
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return oneLine(b.String())
}

// oneLine escapes control characters (a key or value may hold a newline),
// so an error is always one line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

// shorthands are grid, policy and -set names for common scenario keys.
var shorthands = map[string]string{
	"blip":           "fault.0.length",
	"attempts":       "layer.*.attempts",
	"timeout":        "layer.*.timeout",
	"backoff.kind":   "layer.*.backoff.kind",
	"backoff.base":   "layer.*.backoff.base",
	"backoff.cap":    "layer.*.backoff.cap",
	"backoff.factor": "layer.*.backoff.factor",
	"backoff.jitter": "layer.*.backoff.jitter",
	"budget":         "budget.ratio",
}

// resolve turns a user-written scenario path into the path setPath takes.
func resolve(path string) string {
	if p, ok := shorthands[path]; ok {
		return p
	}
	return path
}

// topKeys are the keys an experiment file accepts at its top level.
var topKeys = []string{"name", "title", "question", "engine", "seed", "same_seed", "max_cells",
	"scenario", "policy", "grid", "cell", "series", "figure", "findings", "tolerance"}

// Load reads, validates and expands one experiment file. sets are -set flags
// (PATH=VALUE, PATH a dotted key of the file) applied over it.
func Load(file string, sets []string) (*Experiment, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	return Parse(file, src, sets)
}

// Parse is Load for a file already read.
func Parse(file string, src []byte, sets []string) (*Experiment, error) {
	e := &Experiment{
		File:     file,
		Name:     strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)),
		MaxCells: DefaultMaxCells,
		Base:     model.Default(),
		sets:     map[string]bool{},
	}
	var tree map[string]any
	if _, err := toml.Decode(string(src), &tree); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line, col := lineCol(src, pe.Position.Start)
			if line == 0 {
				line, col = pe.Position.Line, pe.Position.Col
			}
			return nil, &Error{File: file, Line: line, Col: col, Msg: pe.Message}
		}
		return nil, &Error{File: file, Msg: err.Error()}
	}
	e.pos = keyPositions(src)
	for _, s := range sets {
		if err := e.applySet(tree, s); err != nil {
			return nil, err
		}
	}
	if err := e.interpret(tree); err != nil {
		return nil, err
	}
	return e, nil
}

// lineCol turns a byte offset into a 1-based line and rune column; an error
// at a line's end is reported on that line. It returns 0, 0 for an offset
// outside src.
func lineCol(src []byte, off int) (line, col int) {
	if off < 0 || off > len(src) {
		return 0, 0
	}
	before := src[:off]
	nl := bytes.LastIndexByte(before, '\n')
	return bytes.Count(before, []byte("\n")) + 1, utf8.RuneCount(before[nl+1:]) + 1
}

// applySet writes one PATH=VALUE flag into the decoded file. VALUE is read
// as a TOML value (80, 0.1, true, [1, 2], {from = 1, to = 3, step = 1}) and
// as a plain string when it is not one ("30s", "fifo").
func (e *Experiment) applySet(tree map[string]any, flag string) error {
	path, raw, ok := strings.Cut(flag, "=")
	path = strings.TrimSpace(path)
	if !ok || path == "" {
		return &Error{File: e.File, Key: "-set " + flag, Msg: "want PATH=VALUE, for example -set scenario.load=80 or -set grid.blip=30s"}
	}
	var v any = strings.TrimSpace(raw)
	var probe map[string]any
	if _, err := toml.Decode("v = "+raw, &probe); err == nil {
		v = probe["v"]
	}
	segs := strings.Split(path, ".")
	if !contains(topKeys, segs[0]) {
		segs = append([]string{"scenario"}, segs...) // a bare scenario key
	}
	e.sets[strings.Join(segs, ".")] = true
	node := any(tree)
	for i, s := range segs[:len(segs)-1] {
		switch n := node.(type) {
		case map[string]any:
			next, ok := n[s]
			if !ok {
				next = map[string]any{}
				n[s] = next
			}
			node = next
		case []map[string]any:
			j, err := strconv.Atoi(s)
			if err != nil || j < 0 || j >= len(n) {
				return &Error{File: e.File, Key: "-set " + path, Msg: fmt.Sprintf("%s has entries 0..%d", strings.Join(segs[:i], "."), len(n)-1)}
			}
			node = n[j]
		default:
			return &Error{File: e.File, Key: "-set " + path, Msg: strings.Join(segs[:i], ".") + " is a single value, not a table"}
		}
	}
	m, ok := node.(map[string]any)
	if !ok {
		return &Error{File: e.File, Key: "-set " + path, Msg: strings.Join(segs[:len(segs)-1], ".") + " is not a table"}
	}
	m[segs[len(segs)-1]] = v
	return nil
}

// interpret fills the experiment from the decoded file.
func (e *Experiment) interpret(tree map[string]any) error {
	for _, k := range sortedKeys(tree) {
		if !contains(topKeys, k) {
			return e.errorf(k, "unknown key; an experiment file accepts %s", strings.Join(topKeys, ", "))
		}
	}
	var err error
	str := func(key string, dst *string) {
		if v, ok := tree[key]; ok && err == nil {
			s, ok := v.(string)
			if !ok {
				err = e.errorf(key, "wants a string, got %s", describe(v))
			}
			*dst = s
		}
	}
	str("name", &e.Name)
	str("title", &e.Title)
	str("question", &e.Question)
	if err != nil {
		return err
	}
	if !validName(e.Name) {
		return e.errorf("name", "%q cannot name a folder under reports/; use letters, digits, '-' and '_'", e.Name)
	}
	if v, ok := tree["seed"]; ok {
		n, ok := v.(int64)
		if !ok || n < 0 {
			return e.errorf("seed", "wants a whole number ≥ 0, got %s", describe(v))
		}
		e.Seed = uint64(n)
	}
	if v, ok := tree["same_seed"]; ok {
		b, ok := v.(bool)
		if !ok {
			return e.errorf("same_seed", "wants true or false, got %s", describe(v))
		}
		e.SameSeed = b
	}
	if v, ok := tree["max_cells"]; ok {
		n, ok := v.(int64)
		if !ok || n < 1 || n > 1_000_000 {
			return e.errorf("max_cells", "wants a whole number between 1 and 1,000,000, got %s", describe(v))
		}
		e.MaxCells = int(n)
	}

	// The base scenario: defaults, the engine, then [scenario].
	if v, ok := tree["engine"]; ok {
		if err := setPath(&e.Base, "engine", v); err != nil {
			return e.errorAt("engine", "engine", err, "")
		}
	}
	if v, ok := tree["scenario"]; ok {
		m, ok := v.(map[string]any)
		if !ok {
			return e.errorf("scenario", "wants a table ([scenario]), got %s", describe(v))
		}
		for _, o := range e.overrides("scenario", m) {
			if err := setPath(&e.Base, o.Path, o.Value); err != nil {
				return e.errorAt(o.Key, o.Path, err, "")
			}
		}
	}
	if err := e.loadPolicies(tree["policy"]); err != nil {
		return err
	}
	if err := e.loadGrid(tree["grid"]); err != nil {
		return err
	}
	if err := e.loadSeries(tree["series"]); err != nil {
		return err
	}
	if err := e.loadFigures(tree["figure"]); err != nil {
		return err
	}
	if err := e.loadTolerance(tree["tolerance"]); err != nil {
		return err
	}
	if n := e.Size(); n > e.MaxCells {
		var dims []string
		for _, a := range e.Axes {
			dims = append(dims, fmt.Sprintf("%s (%d)", a.Name, len(a.Values)))
		}
		return e.errorf("grid", "%s expand to %d cells, more than max_cells = %d; use coarser steps or raise max_cells",
			strings.Join(dims, " × "), n, e.MaxCells)
	}
	if e.cells, err = e.expand(); err != nil {
		return err
	}
	if err := e.loadExtraCells(tree["cell"]); err != nil {
		return err
	}
	return e.loadFindings(tree["findings"])
}

// overrides flattens a table of scenario keys into single assignments: whole
// lists of tables first (they replace a list), then every other value in the
// order the file writes them.
func (e *Experiment) overrides(prefix string, m map[string]any) []Override {
	var lists, leaves []Override
	var walk func(path string, v any)
	walk = func(path string, v any) {
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
			for _, k := range sortedKeys(sub) {
				walk(join(path, k), sub[k])
			}
			return
		}
		o := Override{Path: resolve(path), Value: v, Key: join(prefix, path)}
		if _, ok := listOfTables(v); ok && isList(v) {
			lists = append(lists, o)
		} else {
			leaves = append(leaves, o)
		}
	}
	for _, k := range sortedKeys(m) {
		walk(k, m[k])
	}
	sort.SliceStable(leaves, func(i, j int) bool { return e.before(leaves[i].Key, leaves[j].Key) })
	return append(lists, leaves...)
}

func isList(v any) bool {
	switch x := v.(type) {
	case []map[string]any:
		return true
	case []any:
		return len(x) > 0
	}
	return false
}

// before orders two keys by where the file writes them; keys that only a
// -set flag gave come last.
func (e *Experiment) before(a, b string) bool {
	pa, oka := e.pos[a]
	pb, okb := e.pos[b]
	switch {
	case oka && okb:
		return pa.Line < pb.Line || pa.Line == pb.Line && pa.Col < pb.Col
	case oka != okb:
		return oka
	}
	return false
}

func (e *Experiment) loadPolicies(v any) error {
	if v == nil {
		return nil
	}
	items, ok := listOfTables(v)
	if !ok {
		return e.errorf("policy", "wants [[policy]] entries, each with a name and scenario keys, got %s", describe(v))
	}
	var err error
	e.Policies, err = e.namedSets("policy", items)
	return err
}

// namedSets reads a list of tables, each a name and scenario keys: the
// [[policy]] entries or a [[grid.NAME]] axis.
func (e *Experiment) namedSets(key string, items []map[string]any) ([]Policy, error) {
	var sets []Policy
	seen := map[string]bool{}
	for i, m := range items {
		k := fmt.Sprintf("%s.%d", key, i)
		p, err := e.namedSet(k, m)
		if err != nil {
			return nil, err
		}
		if seen[p.Name] {
			return nil, e.errorf(k+".name", "%q is named twice", p.Name)
		}
		seen[p.Name] = true
		sets = append(sets, p)
	}
	return sets, nil
}

// namedSet reads one table of a name and scenario keys, written at key.
func (e *Experiment) namedSet(key string, m map[string]any) (Policy, error) {
	name, ok := m["name"].(string)
	if !ok || strings.TrimSpace(name) == "" {
		return Policy{}, e.errorf(key, "each entry needs a name = \"...\" beside its scenario keys")
	}
	rest := map[string]any{}
	for k, v := range m {
		if k != "name" {
			rest[k] = v
		}
	}
	p := Policy{Name: name, Overrides: e.overrides(key, rest)}
	// Check the keys now, on a scratch scenario, for a positioned error.
	scratch := cloneScenario(e.Base)
	for _, o := range p.Overrides {
		if err := setPath(&scratch, o.Path, o.Value); err != nil {
			return p, e.errorAt(o.Key, o.Path, err, "")
		}
	}
	return p, nil
}

func (e *Experiment) loadGrid(v any) error {
	var axes []Axis
	hasPolicy := false
	if v != nil {
		m, ok := v.(map[string]any)
		if !ok {
			return e.errorf("grid", "wants a table ([grid]) of axes, got %s", describe(v))
		}
		var walk func(path string, v any) error
		walk = func(path string, v any) error {
			if sub, ok := v.(map[string]any); ok && !isRange(sub) {
				for _, k := range sortedKeys(sub) {
					if err := walk(join(path, k), sub[k]); err != nil {
						return err
					}
				}
				return nil
			}
			ax, err := e.axis(path, v)
			if err != nil {
				return err
			}
			hasPolicy = hasPolicy || ax.Name == "policy"
			axes = append(axes, ax)
			return nil
		}
		for _, k := range sortedKeys(m) {
			if err := walk(k, m[k]); err != nil {
				return err
			}
		}
		sort.SliceStable(axes, func(i, j int) bool { return e.before(axes[i].Key, axes[j].Key) })
	}
	if len(e.Policies) > 0 && !hasPolicy {
		axes = append([]Axis{setAxis("policy", "policy", e.Policies)}, axes...)
	}
	e.Axes = axes
	return nil
}

// isRange reports whether a grid table is a {from, to, step} range.
func isRange(m map[string]any) bool {
	_, ok := m["from"]
	return ok
}

// axis reads one grid axis: a list, a single value or a range.
func (e *Experiment) axis(name string, v any) (Axis, error) {
	key := "grid." + name
	ax := Axis{Name: name, Key: key}
	if name == "policy" {
		if len(e.Policies) == 0 {
			return ax, e.errorf(key, "there are no [[policy]] entries to choose from")
		}
		all := setAxis("policy", "policy", e.Policies)
		var chosen []Policy
		for _, x := range listOf(v) {
			s, ok := x.(string)
			if !ok || !hasSet(e.Policies, s) {
				return ax, e.errorf(key, "%s is not a policy; the [[policy]] names are %s", describe(x), all.setNames())
			}
			chosen = append(chosen, *all.set(s))
		}
		return setAxis(name, key, chosen), nil
	}
	if items, ok := v.([]map[string]any); ok {
		sets, err := e.namedSets(key, items)
		if err != nil {
			return ax, err
		}
		return setAxis(name, key, sets), nil
	}
	ax.Path = resolve(name)
	t, err := fieldType(ax.Path)
	if err != nil {
		return ax, e.errorf(key, "%v", err)
	}
	ax.Duration = t == durationType
	var raws []any
	if m, ok := v.(map[string]any); ok {
		if raws, err = expandRange(m, t == durationType, e.MaxCells); err != nil {
			return ax, e.errorf(key, "%v", err)
		}
	} else {
		raws = listOf(v)
	}
	if len(raws) == 0 {
		return ax, e.errorf(key, "an axis needs at least one value")
	}
	for _, r := range raws {
		val, err := value(r, t)
		if err != nil {
			return ax, e.errorf(key, "%v", err)
		}
		ax.Values = append(ax.Values, val)
	}
	return ax, nil
}

// setAxis makes an axis of named sets.
func setAxis(name, key string, sets []Policy) Axis {
	ax := Axis{Name: name, Key: key, Sets: sets}
	if ax.Sets == nil {
		ax.Sets = []Policy{}
	}
	for _, p := range sets {
		ax.Values = append(ax.Values, Value{Text: p.Name, Raw: p.Name})
	}
	return ax
}

func hasSet(sets []Policy, name string) bool {
	for _, p := range sets {
		if p.Name == name {
			return true
		}
	}
	return false
}

func listOf(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case []map[string]any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = x[i]
		}
		return out
	}
	return []any{v}
}

// expandRange turns {from, to, step} into its values, from and to included.
func expandRange(m map[string]any, durations bool, limit int) ([]any, error) {
	for k := range m {
		if k != "from" && k != "to" && k != "step" {
			return nil, fmt.Errorf("a range takes from, to and step; %q is not one of them", k)
		}
	}
	num := func(k string) (float64, error) {
		v, ok := m[k]
		if !ok {
			return 0, fmt.Errorf("a range needs %s", k)
		}
		switch x := v.(type) {
		case int64:
			if durations {
				return float64(x), nil // seconds
			}
			return float64(x), nil
		case float64:
			return x, nil
		case string:
			d, err := model.ParseDuration(x)
			if err != nil {
				return 0, fmt.Errorf("%s: %v", k, err)
			}
			if !durations {
				return 0, fmt.Errorf("%s: this key wants numbers, got %q", k, x)
			}
			return d.Seconds(), nil
		}
		return 0, fmt.Errorf("%s wants a number or a duration, got %s", k, describe(v))
	}
	from, err := num("from")
	if err != nil {
		return nil, err
	}
	to, err := num("to")
	if err != nil {
		return nil, err
	}
	step, err := num("step")
	if err != nil {
		return nil, err
	}
	if !(step > 0) {
		return nil, fmt.Errorf("step must be > 0, got %v", step)
	}
	if to < from {
		return nil, fmt.Errorf("to (%v) is below from (%v)", to, from)
	}
	n := math.Floor((to-from)/step+1e-9) + 1
	if n > float64(limit) {
		return nil, fmt.Errorf("from %v to %v by %v is %.0f values, more than max_cells = %d", from, to, step, n, limit)
	}
	ints := !durations && isInt(m["from"]) && isInt(m["step"])
	out := make([]any, 0, int(n))
	for i := 0; i < int(n); i++ {
		x := from + float64(i)*step
		switch {
		case durations:
			out = append(out, model.Seconds(x).String())
		case ints:
			out = append(out, int64(math.Round(x)))
		default:
			out = append(out, roundDigits(x, 9))
		}
	}
	return out, nil
}

func isInt(v any) bool { _, ok := v.(int64); return ok }

func roundDigits(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}

// value makes an axis value from a decoded TOML value for a field of type t.
func value(r any, t reflect.Type) (Value, error) {
	v := Value{Raw: r}
	switch x := r.(type) {
	case int64:
		v.Text, v.Num, v.IsNum = strconv.FormatInt(x, 10), float64(x), true
		if t == durationType {
			v.Text = model.Seconds(float64(x)).String()
		}
	case float64:
		v.Text, v.Num, v.IsNum = strconv.FormatFloat(x, 'f', -1, 64), x, true
		if t == durationType {
			v.Text = model.Seconds(x).String()
		}
	case string:
		v.Text = x
		if t == durationType {
			d, err := model.ParseDuration(x)
			if err != nil {
				return v, err
			}
			v.Text, v.Num, v.IsNum = d.String(), d.Seconds(), true
		}
	case bool:
		v.Text = strconv.FormatBool(x)
	default:
		return v, fmt.Errorf("an axis value must be a number, a string or a boolean, got %s", describe(r))
	}
	return v, nil
}

// fieldType is the Go type of the scenario field at a setPath path.
func fieldType(path string) (reflect.Type, error) {
	t := reflect.TypeFor[model.Scenario]()
	segs := strings.Split(path, ".")
	for i, s := range segs {
		switch t.Kind() {
		case reflect.Slice:
			if _, err := strconv.Atoi(s); err != nil && s != "*" {
				return nil, fmt.Errorf("%s is a list; name an entry by its index", strings.Join(segs[:i], "."))
			}
			t = t.Elem()
			continue
		case reflect.Struct:
			if t != durationType {
				f, ok := structField(t, s)
				if !ok {
					return nil, fmt.Errorf("unknown key %q; %s", strings.Join(segs[:i+1], "."), allowedKeys(t, strings.Join(segs[:i], ".")))
				}
				t = f.Type
				continue
			}
		}
		return nil, fmt.Errorf("%s is a single value and has no key %q", strings.Join(segs[:i], "."), s)
	}
	return t, nil
}

func structField(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		if tomlKey(t.Field(i)) == key {
			return t.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

func (e *Experiment) loadSeries(v any) error {
	switch x := v.(type) {
	case nil:
	case bool:
		e.Series.All = x
	case map[string]any:
		e.Series.Match = map[string][]string{}
		for _, k := range sortedKeys(x) {
			if _, ok := e.Axis(k); !ok {
				return e.errorf("series."+k, "is not a grid axis; the axes are %s", e.axisNames())
			}
			for _, r := range listOf(x[k]) {
				val, err := value(r, nil)
				if err != nil {
					return e.errorf("series."+k, "%v", err)
				}
				e.Series.Match[k] = append(e.Series.Match[k], val.Text)
			}
		}
	default:
		return e.errorf("series", "wants true (every cell), or a table of axis = value(s), got %s", describe(v))
	}
	return nil
}

func (e *Experiment) axisNames() string {
	var names []string
	for _, a := range e.Axes {
		names = append(names, a.Name)
	}
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

var figureKeys = []string{"kind", "name", "title", "x", "y", "panel", "line", "metric", "rule_of_thumb", "range", "only"}

func (e *Experiment) loadFigures(v any) (err error) {
	if v == nil {
		return nil
	}
	items, ok := listOfTables(v)
	if !ok {
		return e.errorf("figure", "wants [[figure]] entries, got %s", describe(v))
	}
	names := map[string]bool{}
	for i, m := range items {
		key := fmt.Sprintf("figure.%d", i)
		f := Figure{Metric: "recovery_s"}
		for _, k := range sortedKeys(m) {
			kk := key + "." + k
			if !contains(figureKeys, k) {
				return e.errorf(kk, "unknown key; a [[figure]] accepts %s", strings.Join(figureKeys, ", "))
			}
			if k == "only" {
				if f.Only, err = e.figureOnly(kk, m[k]); err != nil {
					return err
				}
				continue
			}
			if k == "range" {
				if f.Range, err = e.figureRange(kk, m[k]); err != nil {
					return err
				}
				continue
			}
			if k == "rule_of_thumb" {
				b, ok := m[k].(bool)
				if !ok {
					return e.errorf(kk, "wants true or false, got %s", describe(m[k]))
				}
				f.RuleOfThumb = b
				continue
			}
			s, ok := m[k].(string)
			if !ok {
				return e.errorf(kk, "wants a string, got %s", describe(m[k]))
			}
			*map[string]*string{"kind": &f.Kind, "name": &f.Name, "title": &f.Title, "x": &f.X, "y": &f.Y,
				"panel": &f.Panel, "line": &f.Line, "metric": &f.Metric}[k] = s
		}
		need := map[string][]string{"phase": {"x", "y"}, "lines": {"x", "line"}, "bars": {"x"}, "series": nil}
		req, ok := need[f.Kind]
		if !ok {
			return e.errorf(key+".kind", "%q is not a figure kind; use phase, lines, bars or series", f.Kind)
		}
		for _, r := range req {
			if m[r] == nil {
				return e.errorf(key, "a %s figure needs %s = \"<grid axis>\"", f.Kind, r)
			}
		}
		for k, a := range map[string]string{"x": f.X, "y": f.Y, "panel": f.Panel, "line": f.Line} {
			if a == "" {
				continue
			}
			ax, ok := e.Axis(a)
			if !ok {
				return e.errorf(key+"."+k, "%q is not a grid axis; the axes are %s", a, e.axisNames())
			}
			if (k == "x" && f.Kind != "bars" || k == "y") && !ax.Values[0].IsNum {
				return e.errorf(key+"."+k, "axis %q is not numeric", a)
			}
		}
		if _, ok := model.LookupMetric(f.Metric); !ok {
			return e.errorf(key+".metric", "%q is not a results.csv column; use one of %s", f.Metric, metricNames())
		}
		if f.Name == "" {
			f.Name = strings.Join(nonEmpty(f.Kind, f.X, f.Y), "-")
			if f.Kind == "lines" {
				f.Name = strings.Join(nonEmpty(f.Kind, f.Metric, f.X), "-")
			}
		}
		if !validName(f.Name) || names[f.Name] {
			return e.errorf(key+".name", "%q is not a usable, unique file name", f.Name)
		}
		names[f.Name] = true
		e.Figures = append(e.Figures, f)
	}
	return nil
}

// loadExtraCells reads the [[cell]] entries: single cells run after the
// grid's product, each giving a value for every axis. For an axis of named
// sets the value is a set's name, or a table { name = ..., keys... } that
// defines a set for this cell alone.
func (e *Experiment) loadExtraCells(v any) error {
	if v == nil {
		return nil
	}
	items, ok := listOfTables(v)
	if !ok {
		return e.errorf("cell", "wants [[cell]] entries, each with a value for every grid axis, got %s", describe(v))
	}
	if len(e.cells)+len(items) > e.MaxCells {
		return e.errorf("cell", "%d grid cells and %d [[cell]] entries are more than max_cells = %d", len(e.cells), len(items), e.MaxCells)
	}
	labels := map[string]bool{}
	for i := range e.cells {
		labels[e.cells[i].Label()] = true
	}
	for i, m := range items {
		key := fmt.Sprintf("cell.%d", i)
		for k := range m {
			if _, ok := e.Axis(k); !ok {
				return e.errorf(key+"."+k, "is not a grid axis; the axes are %s", e.axisNames())
			}
		}
		axes := make([]Axis, len(e.Axes))
		vals := make([]Value, len(e.Axes))
		for a, ax := range e.Axes {
			axes[a] = ax
			raw, ok := m[ax.Name]
			k := key + "." + ax.Name
			if !ok {
				return e.errorf(key, "a [[cell]] needs a value for every grid axis; %s is missing", ax.Name)
			}
			switch {
			case ax.Sets != nil:
				if t, ok := raw.(map[string]any); ok {
					p, err := e.namedSet(k, t)
					if err != nil {
						return err
					}
					axes[a].Sets = []Policy{p}
					vals[a] = Value{Text: p.Name, Raw: p.Name}
				} else if name, ok := raw.(string); ok && hasSet(ax.Sets, name) {
					vals[a] = Value{Text: name, Raw: name}
				} else {
					return e.errorf(k, "%s is not one of %s, nor a table { name = ..., keys... }", describe(raw), ax.setNames())
				}
			default:
				t, _ := fieldType(ax.Path)
				val, err := value(raw, t)
				if err != nil {
					return e.errorf(k, "%v", err)
				}
				vals[a] = val
			}
		}
		c, err := e.build(len(e.cells), vals, axes)
		if err != nil {
			return err
		}
		if labels[c.Label()] {
			return e.errorf(key, "cell %s is already in the grid", c.Label())
		}
		labels[c.Label()] = true
		e.cells = append(e.cells, c)
	}
	return nil
}

// loadFindings reads the findings = ["...", ...] templates and resolves
// every reference to a cell and a column.
func (e *Experiment) loadFindings(v any) error {
	if v == nil {
		return nil
	}
	for i, x := range listOf(v) {
		key := fmt.Sprintf("findings.%d", i)
		text, ok := x.(string)
		if !ok {
			return e.errorf(key, "wants a string, got %s", describe(x))
		}
		f, err := e.parseFinding(text)
		if err != nil {
			return e.errorf(key, "%v", err)
		}
		e.Findings = append(e.Findings, f)
	}
	return nil
}

// parseFinding splits a finding template into text and references.
func (e *Experiment) parseFinding(text string) (Finding, error) {
	var f Finding
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			f.Parts = append(f.Parts, FindingPart{Text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '{' && strings.HasPrefix(text[i:], "{{"), c == '}' && strings.HasPrefix(text[i:], "}}"):
			lit.WriteByte(c)
			i++
		case c == '}':
			return f, fmt.Errorf("a } without its {; write }} for a literal brace")
		case c == '{':
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				return f, fmt.Errorf("a { without its }; write {{ for a literal brace")
			}
			ref, err := e.parseRef(text[i+1 : i+end])
			if err != nil {
				return f, err
			}
			flush()
			f.Parts = append(f.Parts, ref)
			i += end
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return f, nil
}

// parseRef reads "column[v1; v2]%.2f".
func (e *Experiment) parseRef(s string) (FindingPart, error) {
	open, close := strings.IndexByte(s, '['), strings.LastIndexByte(s, ']')
	if open < 0 || close < open {
		return FindingPart{}, fmt.Errorf("{%s}: write {column[value; value]} with one value per axis (%s)", s, e.axisNames())
	}
	part := FindingPart{Column: strings.TrimSpace(s[:open]), Format: strings.TrimSpace(s[close+1:])}
	if _, ok := model.LookupMetric(part.Column); !ok {
		return part, fmt.Errorf("{%s}: %q is not a results.csv column; use one of %s", s, part.Column, metricNames())
	}
	if f := part.Format; f != "" && f != "pct" && (!strings.HasPrefix(f, "%") || strings.Count(f, "%") != 1) {
		return part, fmt.Errorf("{%s}: the format %q is neither one Go verb such as %%.2f nor pct", s, part.Format)
	}
	var want []string
	if inner := strings.TrimSpace(s[open+1 : close]); inner != "" {
		for _, v := range strings.Split(inner, ";") {
			want = append(want, strings.TrimSpace(v))
		}
	}
	if len(want) != len(e.Axes) {
		return part, fmt.Errorf("{%s}: %d values for %d axes (%s)", s, len(want), len(e.Axes), e.axisNames())
	}
	for i := range e.cells {
		match := true
		for a, p := range e.cells[i].Params {
			match = match && p.Text == want[a]
		}
		if match {
			part.Cell = i
			return part, nil
		}
	}
	return part, fmt.Errorf("{%s}: no cell has the values %s", s, strings.Join(want, "; "))
}

// figureOnly reads a figure's only table: axis = value or [values].
func (e *Experiment) figureOnly(key string, v any) (map[string][]string, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, e.errorf(key, "wants a table of axis = value or [values], got %s", describe(v))
	}
	out := map[string][]string{}
	for _, axis := range sortedKeys(m) {
		ax, ok := e.Axis(axis)
		if !ok {
			return nil, e.errorf(key+"."+axis, "is not a grid axis; the axes are %s", e.axisNames())
		}
		for _, r := range listOf(m[axis]) {
			val, err := value(r, nil)
			found := false
			for _, av := range ax.Values {
				found = found || err == nil && (av.Text == val.Text || av.IsNum && val.IsNum && av.Num == val.Num)
				if found {
					val = av
					break
				}
			}
			if !found {
				return nil, e.errorf(key+"."+axis, "%s is not a value of axis %s", describe(r), axis)
			}
			out[axis] = append(out[axis], val.Text)
		}
	}
	return out, nil
}

// figureRange reads a figure's range table: axis = [min, max], numbers or
// durations.
func (e *Experiment) figureRange(key string, v any) (map[string][2]float64, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, e.errorf(key, "wants a table of axis = [min, max], got %s", describe(v))
	}
	out := map[string][2]float64{}
	for _, axis := range sortedKeys(m) {
		k := key + "." + axis
		ax, ok := e.Axis(axis)
		if !ok || !ax.Values[0].IsNum {
			return nil, e.errorf(k, "%q is not a numeric grid axis; the axes are %s", axis, e.axisNames())
		}
		bounds := listOf(m[axis])
		if len(bounds) != 2 {
			return nil, e.errorf(k, "wants [min, max], got %s", describe(m[axis]))
		}
		var r [2]float64
		for i, b := range bounds {
			var t reflect.Type
			if ax.Duration {
				t = durationType
			}
			val, err := value(b, t)
			if err != nil || !val.IsNum {
				return nil, e.errorf(k, "wants [min, max] as numbers or durations, got %s", describe(b))
			}
			r[i] = val.Num
		}
		if r[1] < r[0] {
			return nil, e.errorf(k, "max %v is below min %v", r[1], r[0])
		}
		out[axis] = r
	}
	return out, nil
}

func (e *Experiment) loadTolerance(v any) error {
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return e.errorf("tolerance", "wants a table of column = { abs = ..., rel = ... }, got %s", describe(v))
	}
	e.Tolerance = map[string]Tolerance{}
	for _, col := range sortedKeys(m) {
		key := "tolerance." + col
		if _, ok := model.LookupMetric(col); !ok {
			return e.errorf(key, "is not a results.csv column; use one of %s", metricNames())
		}
		t, ok := m[col].(map[string]any)
		if !ok {
			return e.errorf(key, "wants { abs = ..., rel = ... }, got %s", describe(m[col]))
		}
		var tol Tolerance
		for _, k := range sortedKeys(t) {
			var x float64
			switch n := t[k].(type) {
			case int64:
				x = float64(n)
			case float64:
				x = n
			default:
				return e.errorf(key+"."+k, "wants a number ≥ 0, got %s", describe(t[k]))
			}
			if x < 0 {
				return e.errorf(key+"."+k, "wants a number ≥ 0, got %v", x)
			}
			switch k {
			case "abs":
				tol.Abs = x
			case "rel":
				tol.Rel = x
			default:
				return e.errorf(key+"."+k, "unknown key; a tolerance accepts abs and rel")
			}
		}
		e.Tolerance[col] = tol
	}
	return nil
}

func metricNames() string {
	var names []string
	for _, m := range model.MetricList() {
		names = append(names, m.Name)
	}
	return strings.Join(names, ", ")
}

// errorf makes an Error positioned at the file key (dotted, from the top).
func (e *Experiment) errorf(key, format string, args ...any) *Error {
	err := &Error{File: e.File, Key: key, Msg: fmt.Sprintf(format, args...)}
	e.locate(err, key)
	return err
}

// errorAt turns an error from setPath or model.Check into an Error at the
// file key that caused it, an assignment to the scenario path set. An error
// deeper inside the assigned value (a key of a [[scenario.layer]] entry) is
// placed at that key. context names the cell or policy, if any.
func (e *Experiment) errorAt(key, set string, err error, context string) error {
	msg := err.Error()
	if p, ok := isKeyError(err); ok {
		msg = strings.TrimPrefix(msg, p+": ")
		switch {
		case strings.HasPrefix(p, set+"."):
			key += p[len(set):]
		case p != set && !covers(set, p):
			msg = "scenario." + p + " " + msg
		}
	}
	if context != "" {
		msg += " (" + context + ")"
	}
	out := &Error{File: e.File, Key: key, Msg: msg}
	e.locate(out, key)
	return out
}

// cellError positions a model.Check error of a cell: at the grid axis or
// named set that set the key, else at the key in [scenario].
func (e *Experiment) cellError(c *Cell, axes []Axis, err error) error {
	p, ok := isKeyError(err)
	if !ok {
		return &Error{File: e.File, Msg: err.Error() + " (cell " + c.Label() + ")"}
	}
	for i := len(axes) - 1; i >= 0; i-- {
		ax := &axes[i]
		if ax.Sets == nil && covers(ax.Path, p) {
			return e.errorAt(ax.Key, ax.Path, err, "cell "+c.Label())
		}
		if ax.Sets != nil {
			v, _ := c.Get(ax.Name)
			for _, o := range ax.set(v.Text).Overrides {
				if covers(o.Path, p) {
					return e.errorAt(o.Key, o.Path, err, ax.Name+" "+v.Text)
				}
			}
		}
	}
	ctx := ""
	if len(c.Params) > 0 {
		ctx = "cell " + c.Label()
	}
	return e.errorAt("scenario."+p, p, err, ctx)
}

// covers reports whether setting path set means key.
func covers(set, key string) bool {
	a, b := strings.Split(set, "."), strings.Split(key, ".")
	for i := range a {
		if i >= len(b) {
			return true
		}
		if a[i] != b[i] && a[i] != "*" {
			return false
		}
	}
	return true
}

// locate fills in where the key is written, or the nearest enclosing key
// that is; a key a -set flag gave is reported as such.
func (e *Experiment) locate(err *Error, key string) {
	for k := key; k != ""; {
		if e.sets[k] {
			err.Key = "-set " + key
			return
		}
		if p, ok := e.pos[k]; ok {
			err.Line, err.Col = p.Line, p.Col
			return
		}
		i := strings.LastIndex(k, ".")
		if i < 0 {
			break
		}
		k = k[:i]
	}
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

func validName(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return s != "." && s != ".."
}
