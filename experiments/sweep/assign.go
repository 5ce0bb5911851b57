package sweep

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/model"
)

// This file maps dotted paths onto model.Scenario by reflection, so a base
// scenario, a named set, a grid axis and a one-off override all change a
// scenario the same way, with the same checks. A path names a key by the
// toml tags of model.Scenario: "load", "dependency.capacity",
// "layer.0.timeout"; a "*" segment stands for every entry of a list.

var durationType = reflect.TypeFor[model.Duration]()

// KeyError is a problem with the value at one dotted path.
type KeyError struct {
	Path string // dotted path below the scenario
	Msg  string
}

func (e *KeyError) Error() string { return e.Path + ": " + e.Msg }

// KeyPath reports whether err is a problem with one scenario key (a
// *KeyError from Assign, or a *model.FieldError from validation), and which.
func KeyPath(err error) (path string, ok bool) {
	var ke *KeyError
	if errors.As(err, &ke) {
		return ke.Path, true
	}
	var fe *model.FieldError
	if errors.As(err, &fe) {
		return fe.Path, true
	}
	return "", false
}

// Assign sets the scenario key at path to v, a value in the generic form a
// file decodes to: int64, float64, string, bool, []any, map[string]any or
// []map[string]any. Numbers convert where that is lossless, durations are
// strings ("30s") or seconds; a table sets the keys it holds, a list of
// tables replaces a list. An index equal to a list's length appends an
// entry holding that list's defaults. The error is a *KeyError.
func Assign(sc *model.Scenario, path string, v any) error {
	return set(reflect.ValueOf(sc).Elem(), strings.Split(path, "."), 0, v)
}

// set walks path[i:] from dst and assigns v at its end.
func set(dst reflect.Value, path []string, i int, v any) error {
	here := strings.Join(path[:i], ".")
	if i == len(path) {
		return assign(dst, v, here)
	}
	seg := path[i]
	switch dst.Kind() {
	case reflect.Struct:
		if dst.Type() == durationType {
			break
		}
		if kt, ok := dst.Addr().Interface().(model.KindTable); ok {
			return setKindKey(dst, kt, path, i, v)
		}
		f, ok := fieldByKey(dst, seg)
		if !ok {
			return &KeyError{Path: strings.Join(path[:i+1], "."), Msg: "unknown key" + DidYouMean(seg, fieldKeys(dst.Type())) + "; " + allowedKeys(dst.Type(), here)}
		}
		return set(f, path, i+1, v)
	case reflect.Slice:
		if seg == "*" {
			for j := 0; j < dst.Len(); j++ {
				if err := set(dst.Index(j), path, i+1, v); err != nil {
					return err
				}
			}
			return nil
		}
		j, err := strconv.Atoi(seg)
		if err != nil || j < 0 || j > dst.Len() {
			return &KeyError{Path: strings.Join(path[:i+1], "."),
				Msg: fmt.Sprintf("%s has entries 0..%d; name one of them, or %d to add one", here, dst.Len()-1, dst.Len())}
		}
		if j == dst.Len() {
			dst.Set(reflect.Append(dst, defaultElem(dst.Type().Elem())))
		}
		return set(dst.Index(j), path, i+1, v)
	}
	return &KeyError{Path: strings.Join(path[:i+1], "."), Msg: fmt.Sprintf("%s is a single value and has no key %q", here, seg)}
}

// assign stores a value in dst, converting where it is lossless.
func assign(dst reflect.Value, v any, path string) error {
	fail := func(format string, args ...any) error {
		return &KeyError{Path: path, Msg: fmt.Sprintf(format, args...)}
	}
	if dst.Type() == durationType {
		var d model.Duration
		switch x := v.(type) {
		case string:
			var err error
			if d, err = model.ParseDuration(x); err != nil {
				return fail("%v", err)
			}
		case int64, float64:
			var err error
			if d, err = model.DurationOf(Float(x)); err != nil {
				return fail("%v", err)
			}
		default:
			return fail("wants a duration like \"30s\", got %s", Describe(v))
		}
		dst.Set(reflect.ValueOf(d))
		return nil
	}
	switch dst.Kind() {
	case reflect.Float64:
		switch x := v.(type) {
		case float64:
			dst.SetFloat(x)
		case int64:
			dst.SetFloat(float64(x))
		default:
			return fail("wants a number, got %s", Describe(v))
		}
	case reflect.Int, reflect.Int64:
		switch x := v.(type) {
		case int64:
			dst.SetInt(x)
		case float64:
			if x != math.Trunc(x) || math.Abs(x) > 1e15 {
				return fail("wants a whole number, got %v", x)
			}
			dst.SetInt(int64(x))
		default:
			return fail("wants a whole number, got %s", Describe(v))
		}
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return fail("wants true or false, got %s", Describe(v))
		}
		dst.SetBool(b)
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return fail("wants a string, got %s", Describe(v))
		}
		dst.SetString(s)
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return fail("is a table (%s); give it as { key = value, ... }, got %s", allowedKeys(dst.Type(), path), Describe(v))
		}
		for _, k := range kindFirst(m) {
			if err := set(dst, append(splitPath(path), k), len(splitPath(path)), m[k]); err != nil {
				return err
			}
		}
	case reflect.Slice:
		items, ok := Tables(v)
		if !ok {
			return fail("is a list of tables ([[...]] entries), got %s", Describe(v))
		}
		fresh := reflect.MakeSlice(dst.Type(), 0, len(items))
		for range items {
			fresh = reflect.Append(fresh, defaultElem(dst.Type().Elem()))
		}
		dst.Set(fresh)
		for j, m := range items {
			if err := assign(dst.Index(j), m, path+"."+strconv.Itoa(j)); err != nil {
				return err
			}
		}
	case reflect.Map: // a change's settings, kept as written
		m, ok := v.(map[string]any)
		if !ok {
			return fail("is a table of keys and values, { \"layer.0.attempts\" = 1, ... }, got %s", Describe(v))
		}
		dst.Set(reflect.ValueOf(m))
	default:
		return fail("cannot be set (internal: %s)", dst.Kind())
	}
	return nil
}

// kindFirst lists a table's keys sorted, "kind" first: a table with a kind
// takes its kind's defaults when the kind is set, and the other keys then
// override them.
func kindFirst(m map[string]any) []string {
	keys := slices.Sorted(maps.Keys(m))
	if i := slices.Index(keys, "kind"); i > 0 {
		keys = append([]string{"kind"}, slices.Delete(keys, i, i+1)...)
	}
	return keys
}

// setKindKey sets key path[i] (and below) of dst, a table whose kind owns
// its other keys: kind switches it to that kind's defaults; a key of its
// own is set as a field; any other key is one of its kind's parameters,
// set on a copy of them (a scenario copied before shares none).
func setKindKey(dst reflect.Value, kt model.KindTable, path []string, i int, v any) error {
	here, seg := strings.Join(path[:i], "."), path[i]
	at := strings.Join(path[:i+1], ".")
	if seg == "kind" {
		if i+1 != len(path) {
			return &KeyError{Path: at, Msg: "is a single value and has no key " + strconv.Quote(path[i+1])}
		}
		name, ok := v.(string)
		if !ok {
			return &KeyError{Path: at, Msg: "wants a string, got " + Describe(v)}
		}
		if err := kt.SetTableKind(name); err != nil {
			var fe *model.FieldError
			if errors.As(err, &fe) {
				return &KeyError{Path: at, Msg: fe.Msg}
			}
			return &KeyError{Path: at, Msg: err.Error()}
		}
		return nil
	}
	if f, ok := fieldByKey(dst, seg); ok {
		return set(f, path, i+1, v)
	}
	params := kt.TableParams()
	var pv reflect.Value
	if params != nil {
		pv = reflect.New(reflect.TypeOf(params)).Elem()
		pv.Set(reflect.ValueOf(params))
	}
	f, ok := reflect.Value{}, false
	if params != nil {
		f, ok = fieldByKey(pv, seg)
	}
	if !ok {
		keys := kindTableKeys(dst, kt)
		return &KeyError{Path: at, Msg: fmt.Sprintf("%s of kind %q has no key %q%s; it takes %s (set its kind first to use another kind's keys)",
			tableName(here), kt.TableKind(), seg, DidYouMean(seg, keys), strings.Join(keys, ", "))}
	}
	if err := set(f, path, i+1, v); err != nil {
		return err
	}
	kt.SetTableParams(pv.Interface())
	return nil
}

// kindTableKeys lists the keys a table with a kind takes now: its own and
// its kind's.
func kindTableKeys(dst reflect.Value, kt model.KindTable) []string {
	keys := fieldKeys(dst.Type())
	if p := kt.TableParams(); p != nil {
		keys = append(keys, fieldKeys(reflect.TypeOf(p))...)
	}
	return keys
}

// tableName is how a message names the table at path.
func tableName(path string) string {
	if path == "" {
		return "[scenario]"
	}
	return "scenario." + path
}

func splitPath(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(p, ".")
}

// Tables accepts the shapes a list of tables decodes to: []map[string]any,
// or []any whose every element is a map[string]any (a list written inline,
// [{ ... }, { ... }]).
func Tables(v any) ([]map[string]any, bool) {
	switch x := v.(type) {
	case []map[string]any:
		return x, true
	case []any:
		out := make([]map[string]any, len(x))
		for i, e := range x {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, false
			}
			out[i] = m
		}
		return out, true
	}
	return nil, false
}

// defaultElem is the value a new list entry starts from.
func defaultElem(t reflect.Type) reflect.Value {
	switch t {
	case reflect.TypeFor[model.Layer]():
		return reflect.ValueOf(model.DefaultLayer())
	case reflect.TypeFor[model.Fault]():
		return reflect.ValueOf(model.DefaultFault())
	case reflect.TypeFor[model.GraphService]():
		return reflect.ValueOf(model.DefaultService())
	}
	return reflect.New(t).Elem()
}

// IsDuration checks that path names one scenario key (an index or "*" for
// a list entry) and reports whether that key is a duration.
func IsDuration(path string) (bool, error) {
	t, err := typeAt(path)
	return t == durationType, err
}

// typeAt checks that path names one scenario key (an index or "*" for a
// list entry) and returns the key's type.
func typeAt(path string) (reflect.Type, error) {
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
					if pt, found := kindParamType(t, s); found {
						t = pt
						continue
					}
					return nil, fmt.Errorf("unknown key %q%s; %s", strings.Join(segs[:i+1], "."), DidYouMean(s, fieldKeys(t)), allowedKeys(t, strings.Join(segs[:i], ".")))
				}
				t = f.Type
				continue
			}
		}
		return nil, fmt.Errorf("%s is a single value and has no key %q", strings.Join(segs[:i], "."), s)
	}
	return t, nil
}

// kindParamType is the type of key in the parameters of some kind of the
// table type t, when t is a table with a kind (the key's type is the same
// in every kind that has it).
func kindParamType(t reflect.Type, key string) (reflect.Type, bool) {
	kt, ok := reflect.New(t).Interface().(model.KindTable)
	if !ok {
		return nil, false
	}
	for _, k := range kt.TableKinds() {
		if k.Params == nil {
			continue
		}
		if f, ok := structField(reflect.TypeOf(k.Params), key); ok {
			return f.Type, true
		}
	}
	return nil, false
}

func structField(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		if tomlKey(t.Field(i)) == key {
			return t.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

// fieldByKey finds the struct field whose toml tag is key.
func fieldByKey(v reflect.Value, key string) (reflect.Value, bool) {
	f, ok := structField(v.Type(), key)
	if !ok {
		return reflect.Value{}, false
	}
	return v.FieldByIndex(f.Index), true
}

func tomlKey(f reflect.StructField) string {
	k, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	if k == "-" || !f.IsExported() {
		return ""
	}
	return k
}

// fieldKeys lists the keys a table of type t accepts.
func fieldKeys(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		if k := tomlKey(t.Field(i)); k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

// allowedKeys lists the keys a table accepts, for error messages.
func allowedKeys(t reflect.Type, table string) string {
	where := "[scenario]"
	if table != "" {
		where = "scenario." + table
	}
	return where + " accepts " + strings.Join(fieldKeys(t), ", ")
}

// Describe names a value's type for an error message: "the number 3",
// "\"fast\"", "a table", "a list".
func Describe(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case int64, float64:
		return fmt.Sprintf("the number %v", x)
	case bool:
		return fmt.Sprintf("%v", x)
	case map[string]any:
		return "a table"
	case []any, []map[string]any:
		return "a list"
	}
	return fmt.Sprintf("a %T", v)
}
