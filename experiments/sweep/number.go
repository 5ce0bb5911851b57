package sweep

import (
	"fmt"
	"reflect"
)

// NumberKind is what kind of number a scenario key holds.
type NumberKind uint8

const (
	NotNumber NumberKind = iota // a string, a boolean, a table or a list
	Real                        // a float64: load, capacity, factor
	Whole                       // an integer: attempts, replicates
	Span                        // a duration: fault.0.length, tick
)

// NumberAt checks that path names one scenario key and says what kind of
// number it holds, for a search that moves the key along a line of values.
func NumberAt(path string) (NumberKind, error) {
	t, err := typeAt(path)
	if err != nil {
		return NotNumber, err
	}
	switch {
	case t == durationType:
		return Span, nil
	case t.Kind() == reflect.Float64:
		return Real, nil
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		return Whole, nil
	}
	return NotNumber, fmt.Errorf("%s is not a number (it holds %s)", path, kindText(t))
}

// kindText names a key's type in a message.
func kindText(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list"
	case reflect.Struct:
		return "a table"
	}
	return t.String()
}
