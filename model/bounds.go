package model

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Range is the values a numeric scenario key accepts, both ends included,
// and the unit they are in; a duration's ends are in seconds and it has no
// unit of its own. Every numeric key declares one beside its kind: a table
// per struct (its bounds method, in the file of the part that reads the
// keys) or, for a budget, a table per kind. A range is wide enough for
// every experiment and realistic use, and narrow enough that no value in it
// overflows a count or a tick, or is lost to float precision: Validate
// refuses anything outside it, `stormlab keys` prints it, and TestBounds
// runs every key at both ends.
type Range struct {
	Min, Max float64
	Unit     string
}

// Bound is the range of one key of a table, named by its TOML key. A table
// with a kind (a budget, a breaker, a backoff, a fault) may declare a key's
// range for one kind: the key is then read, and checked, under that kind
// only.
type Bound struct {
	Key  string
	Kind string // the table's kind the range is for; "" for every kind
	Range
	At any // where the key's value is in the table: *float64, *int, *int64 or *Duration
}

// value is the bound key's value, a duration in seconds.
func (b *Bound) value() float64 {
	switch x := b.At.(type) {
	case *float64:
		return *x
	case *int:
		return float64(*x)
	case *int64:
		return float64(*x)
	case *Duration:
		return x.Seconds()
	}
	return math.NaN()
}

// span is the range of a duration key, from lo to hi.
func span(lo, hi Duration) Range { return Range{Min: lo.Seconds(), Max: hi.Seconds()} }

// Spans the keys' ranges share.
const (
	// LongestRun is the longest run, and the latest moment anything in one
	// can happen: a year.
	LongestRun = Duration(8760 * time.Hour)
	// LongestWait is the longest span a caller waits or a policy counts
	// over: a timeout, a backoff, a breaker's window, a deadline.
	LongestWait = Duration(24 * time.Hour)
)

// bounded is a table of scenario keys that declares the ranges of its
// numeric keys (every kind's, for a table with a kind).
type bounded interface {
	bounds(dst []Bound) []Bound // appends them to dst
}

// kinded is a table whose keys depend on its kind.
type kinded interface {
	kind() string
}

// kindBounded is a table with a kind that gives one kind's ranges without
// the others'.
type kindBounded interface {
	kindBounds(kind string, dst []Bound) []Bound
}

// KeyRange is the declared range of one numeric scenario key.
type KeyRange struct {
	Path string // dotted below [scenario]: "dependency.capacity", "layer.0.timeout"
	// Kind is the kind of its table the range is declared for (a key
	// several kinds read has a range for each); "" for every kind.
	Kind     string
	Duration bool // the key is a duration; Min and Max are seconds
	Whole    bool // the key takes whole numbers
	Range
}

// Text is the range as a message or the key reference writes it: "a number
// from 0 to 1e+09 calls/s", "a duration from 0s to 24h".
func (k KeyRange) Text() string {
	switch {
	case k.Duration:
		return "a duration from " + k.Ends()
	case k.Unit != "":
		return "a " + k.number() + " from " + k.Ends() + " " + k.Unit
	}
	return "a " + k.number() + " from " + k.Ends()
}

// Ends writes the range's ends, without the unit: "0 to 1e+09", "0s to 24h".
func (k KeyRange) Ends() string { return k.end(k.Min) + " to " + k.end(k.Max) }

func (k KeyRange) number() string {
	if k.Whole {
		return "whole number"
	}
	return "number"
}

// end writes an end of the range.
func (k KeyRange) end(x float64) string {
	switch {
	case k.Duration:
		return Seconds(x).String()
	case k.Whole && math.Abs(x) < 1e18:
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// keyRange is b's range as a KeyRange (without its path).
func keyRange(b *Bound) KeyRange {
	r := KeyRange{Kind: b.Kind, Range: b.Range}
	switch b.At.(type) {
	case *Duration:
		r.Duration = true
	case *int, *int64:
		r.Whole = true
	}
	return r
}

// Ranges lists the declared range of every numeric key of sc, in the order
// of the scenario's fields, list entries by index, a key of a table with a
// kind once for every kind that reads it. Undeclared lists the numeric keys
// that have no range.
func Ranges(sc *Scenario) (ranges []KeyRange, undeclared []string) {
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		var bounds []Bound
		if b, ok := v.Addr().Interface().(bounded); ok {
			bounds = b.bounds(nil)
		}
		if kt, ok := v.Addr().Interface().(KindTable); ok {
			for _, k := range kt.TableKinds() {
				if k.Params == nil {
					continue
				}
				pv := reflect.New(reflect.TypeOf(k.Params)).Elem()
				pv.Set(reflect.ValueOf(k.Params))
				rs, un := paramRanges(pv, path, k.Name)
				ranges, undeclared = append(ranges, rs...), append(undeclared, un...)
			}
		}
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			key, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if key == "" || key == "-" || !f.IsExported() {
				continue
			}
			p := joinKey(path, key)
			fv := v.Field(i)
			switch {
			case f.Type == reflect.TypeFor[Duration]() || fv.Kind() == reflect.Float64 || fv.CanInt():
				declared := false
				for j := range bounds {
					if bounds[j].At == fv.Addr().Interface() {
						r := keyRange(&bounds[j])
						r.Path = p
						ranges = append(ranges, r)
						declared = true
					}
				}
				if !declared {
					undeclared = append(undeclared, p)
				}
			case fv.Kind() == reflect.Struct:
				walk(fv, p)
			case fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.Struct:
				for j := 0; j < fv.Len(); j++ {
					walk(fv.Index(j), joinKey(p, strconv.Itoa(j)))
				}
			}
		}
	}
	walk(reflect.ValueOf(sc).Elem(), "")
	return ranges, undeclared
}

// paramRanges lists the ranges of a kind's parameters (pv, addressable),
// each marked as the kind's, and the numeric parameters without one.
func paramRanges(pv reflect.Value, path, kind string) (ranges []KeyRange, undeclared []string) {
	var bounds []Bound
	if b, ok := pv.Addr().Interface().(bounded); ok {
		bounds = b.bounds(nil)
	}
	for i := 0; i < pv.NumField(); i++ {
		f := pv.Type().Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		fv := pv.Field(i)
		if key == "" || key == "-" || !(f.Type == reflect.TypeFor[Duration]() || fv.Kind() == reflect.Float64 || fv.CanInt()) {
			continue
		}
		declared := false
		for j := range bounds {
			if bounds[j].At == fv.Addr().Interface() {
				r := keyRange(&bounds[j])
				r.Path, r.Kind = joinKey(path, key), kind
				ranges = append(ranges, r)
				declared = true
			}
		}
		if !declared {
			undeclared = append(undeclared, joinKey(path, key)+" ("+kind+")")
		}
	}
	return ranges, undeclared
}

func joinKey(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// checkTables walks the tables of s once for the first key whose value its
// oneof tag does not allow (choice, see choices.go) and the first numeric
// key outside its range (outside). In a table with a kind, the keys its
// kind does not read are not looked at. Validate refuses choice before
// anything else and outside after the engine's support, so the walk stops
// at the first choice and not at the first range. It reads the
// declarations of the tables it finds (looking at the scenario's fields
// only for the tables inside tables), once a run.
func (s *Scenario) checkTables() (choice, outside *FieldError) {
	buf := make([]Bound, 0, 16)
	s.eachTable(func(table reflect.Value, at []int, kind string) *FieldError {
		if choice = choiceIn(table, at); choice != nil {
			return choice
		}
		if outside == nil {
			buf, outside = rangeIn(table, at, kind, buf)
		}
		return nil
	})
	return choice, outside
}

// rangeIn refuses the first declared key of the table (reached by the
// field indexes at; a kind's parameters when kind is set) outside its
// range, and returns the declarations, read into buf.
func rangeIn(table reflect.Value, at []int, kind string, buf []Bound) ([]Bound, *FieldError) {
	buf, b := checkTable(table.Addr().Interface(), buf)
	switch {
	case b == nil:
		return buf, nil
	case kind != "":
		return buf, withKind(outOfRange(keyPath(at, b.Key), b), kind)
	}
	return buf, outOfRange(keyPath(at, b.Key), b)
}

// eachTable calls visit with every table of s, in the order of its keys,
// until one returns an error: each table with the field indexes that reach
// it from the scenario (a list entry's index j as −1−j), and after a table
// with a kind the kind's parameters (an addressable copy, at the same
// indexes, with the kind's name).
func (s *Scenario) eachTable(visit func(table reflect.Value, at []int, kind string) *FieldError) *FieldError {
	var walk func(v reflect.Value, at []int) *FieldError
	walk = func(v reflect.Value, at []int) *FieldError {
		if e := visit(v, at, ""); e != nil {
			return e
		}
		if kt, ok := v.Addr().Interface().(KindTable); ok {
			if p := kt.TableParams(); p != nil {
				pv := reflect.New(reflect.TypeOf(p)).Elem()
				pv.Set(reflect.ValueOf(p))
				if e := visit(pv, at, kt.TableKind()); e != nil {
					return e
				}
			}
		}
		for i := 0; i < v.NumField(); i++ {
			switch fv := v.Field(i); fv.Kind() {
			case reflect.Struct:
				if e := walk(fv, append(at, i)); e != nil {
					return e
				}
			case reflect.Slice:
				if fv.Type().Elem().Kind() != reflect.Struct {
					continue
				}
				for j := 0; j < fv.Len(); j++ {
					if e := walk(fv.Index(j), append(at, i, -1-j)); e != nil {
						return e
					}
				}
			}
		}
		return nil
	}
	return walk(reflect.ValueOf(s).Elem(), make([]int, 0, 8))
}

// checkTable returns the first declaration of table (a pointer to a
// struct) whose key is outside its range, nil when none is, and the
// declarations, read into buf.
func checkTable(table any, buf []Bound) ([]Bound, *Bound) {
	kind := ""
	if k, ok := table.(kinded); ok {
		kind = k.kind()
	}
	bounds := buf[:0]
	if b, ok := table.(kindBounded); ok {
		bounds = b.kindBounds(kind, bounds)
	} else if b, ok := table.(bounded); ok {
		bounds = b.bounds(bounds)
	}
	for i := range bounds {
		b := &bounds[i]
		if b.Kind != "" && b.Kind != kind {
			continue
		}
		if x := b.value(); !(x >= b.Min && x <= b.Max) { // NaN is in no range
			return bounds, b
		}
	}
	return bounds, nil
}

// withKind says in e's message which kind's range it is.
func withKind(e *FieldError, kind string) *FieldError {
	if i := strings.LastIndex(e.Msg, ", got "); i >= 0 {
		e.Msg = e.Msg[:i] + " (kind = " + strconv.Quote(kind) + ")" + e.Msg[i:]
	}
	return e
}

// outOfRange is the error for b's key, at path, outside its range.
func outOfRange(path string, b *Bound) *FieldError {
	r := keyRange(b)
	var got string
	switch x := b.At.(type) {
	case *Duration:
		got = x.String()
	case *int:
		got = strconv.Itoa(*x)
	case *int64:
		got = strconv.FormatInt(*x, 10)
	default:
		got = strconv.FormatFloat(b.value(), 'g', -1, 64)
	}
	msg := "must be " + r.Text()
	if r.Kind != "" {
		msg += " (kind = " + strconv.Quote(r.Kind) + ")"
	}
	return bad(path, "%s, got %s", msg, got)
}

// keyPath is the dotted path of key in the table reached by the field
// indexes at (see eachTable), and of that table itself for key "".
func keyPath(at []int, key string) string {
	t := reflect.TypeFor[Scenario]()
	var segs []string
	for _, i := range at {
		if i < 0 {
			segs = append(segs, strconv.Itoa(-1-i))
			t = t.Elem()
			continue
		}
		f := t.Field(i)
		k, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		segs = append(segs, k)
		t = f.Type
	}
	if key != "" {
		segs = append(segs, key)
	}
	return strings.Join(segs, ".")
}
