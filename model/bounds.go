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
// per struct (Bounds, in the file of the part that reads the keys) or, for a
// budget, a table per kind. A range is wide enough for every experiment and
// realistic use, and narrow enough that no value in it overflows a count or
// a tick, or is lost to float precision: Validate refuses anything outside
// it, `stormlab keys` prints it, and a test runs every key at both ends.
type Range struct {
	Min, Max float64
	Unit     string
}

// Bound is the range of one key of a table, named by its TOML key. A table
// with a kind (a budget, a breaker, a fault) may declare a key's range for
// one kind: the key is then read, and checked, under that kind only.
type Bound struct {
	Key  string
	Kind string // the table's kind the range is for; "" for every kind
	Range
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
// numeric keys.
type bounded interface {
	bounds() []Bound
}

// kinded is a table whose keys depend on its kind.
type kinded interface {
	kind() string
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

// Ranges lists the declared range of every numeric key of sc, in the order
// of the scenario's fields, list entries by index, a key of a table with a
// kind once for every kind that reads it. Undeclared lists the numeric keys
// that have no range.
func Ranges(sc *Scenario) (ranges []KeyRange, undeclared []string) {
	walkRanges(reflect.ValueOf(sc).Elem(), "", true, func(path string, r *KeyRange, _ reflect.Value) {
		if r == nil {
			undeclared = append(undeclared, path)
			return
		}
		ranges = append(ranges, *r)
	})
	return ranges, undeclared
}

// checkRanges refuses the first numeric key of s outside its range. In a
// table with a kind, the keys its kind does not read are not looked at.
func (s *Scenario) checkRanges() *FieldError {
	var first *FieldError
	walkRanges(reflect.ValueOf(s).Elem(), "", false, func(path string, r *KeyRange, v reflect.Value) {
		if first != nil || r == nil {
			return
		}
		var x float64
		var got string
		switch {
		case r.Duration:
			d := v.Interface().(Duration)
			x, got = d.Seconds(), d.String()
		case v.CanInt():
			x, got = float64(v.Int()), strconv.FormatInt(v.Int(), 10)
		default:
			x, got = v.Float(), strconv.FormatFloat(v.Float(), 'g', -1, 64)
		}
		if x >= r.Min && x <= r.Max { // NaN is in no range
			return
		}
		msg := "must be " + r.Text()
		if r.Kind != "" {
			msg += " (kind = " + strconv.Quote(r.Kind) + ")"
		}
		first = bad(path, "%s, got %s", msg, got)
	})
	return first
}

// walkRanges calls fn with the path, the declared range (nil when there is
// none) and the value of every numeric key of the table v, written at
// path, and of the tables and lists inside it, in field order: the range
// for the table's kind, or, with allKinds, one call for each kind's.
func walkRanges(v reflect.Value, path string, allKinds bool, fn func(string, *KeyRange, reflect.Value)) {
	t := v.Type()
	durationType := reflect.TypeFor[Duration]()
	var bounds []Bound
	if b, ok := v.Interface().(bounded); ok {
		bounds = b.bounds()
	}
	kind := ""
	if k, ok := v.Interface().(kinded); ok {
		kind = k.kind()
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if key == "" || key == "-" || !f.IsExported() {
			continue
		}
		p := key
		if path != "" {
			p = path + "." + key
		}
		fv := v.Field(i)
		switch {
		case f.Type == durationType || fv.Kind() == reflect.Float64 || fv.CanInt():
			declared := false
			for _, b := range bounds {
				if b.Key != key {
					continue
				}
				declared = true
				if allKinds || b.Kind == "" || b.Kind == kind {
					fn(p, &KeyRange{Path: p, Kind: b.Kind, Duration: f.Type == durationType, Whole: fv.CanInt() && f.Type != durationType, Range: b.Range}, fv)
				}
			}
			if !declared {
				fn(p, nil, fv)
			}
		case fv.Kind() == reflect.Struct:
			walkRanges(fv, p, allKinds, fn)
		case fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.Struct:
			for j := 0; j < fv.Len(); j++ {
				walkRanges(fv.Index(j), p+"."+strconv.Itoa(j), allKinds, fn)
			}
		}
	}
}
