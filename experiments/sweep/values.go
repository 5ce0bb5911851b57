package sweep

import (
	"reflect"
	"strconv"

	"github.com/stormlab/stormlab/model"
)

// Values lists every key of sc in declaration order, list entries by index,
// with its value in the generic form a file decodes to and Assign takes:
// int64, float64, bool, string, a duration as its string ("500ms"), and a
// change's settings as the table they were written as. Assigning each of
// them, in order, to a scenario with lists of the same lengths gives sc
// back; it is Keys with values a program can write or compare rather than
// text to print.
func Values(sc model.Scenario) []model.Setting {
	var out []model.Setting
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch {
		case v.Type() == durationType:
			out = append(out, model.Setting{Path: path, Value: v.Interface().(model.Duration).String()})
			return
		case v.Kind() == reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if k := tomlKey(v.Type().Field(i)); k != "" {
					walk(v.Field(i), join(path, k))
				}
			}
			if pv, ok := kindParams(v); ok {
				walk(pv, path)
			}
			return
		case v.Kind() == reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), join(path, strconv.Itoa(i)))
			}
			return
		}
		out = append(out, model.Setting{Path: path, Value: generic(v)})
	}
	walk(reflect.ValueOf(sc), "")
	return out
}

// kindParams is the parameters of v's kind, when v is a table with a kind
// whose kind has any.
func kindParams(v reflect.Value) (reflect.Value, bool) {
	kt, ok := asKindTable(v)
	if !ok || kt.TableParams() == nil {
		return reflect.Value{}, false
	}
	return reflect.ValueOf(kt.TableParams()), true
}

// asKindTable is v as a table with a kind, when it is one (a copy when v
// cannot be addressed).
func asKindTable(v reflect.Value) (model.KindTable, bool) {
	if v.Kind() != reflect.Struct {
		return nil, false
	}
	if !v.CanAddr() {
		cp := reflect.New(v.Type())
		cp.Elem().Set(v)
		v = cp.Elem()
	}
	kt, ok := v.Addr().Interface().(model.KindTable)
	return kt, ok
}

// generic is a scalar or a table of the scenario as a file decodes it.
func generic(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Float64, reflect.Float32:
		return v.Float()
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Int16, reflect.Int8:
		return v.Int()
	case reflect.Bool:
		return v.Bool()
	case reflect.String:
		return v.String()
	}
	return v.Interface()
}
