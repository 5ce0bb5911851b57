package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/stormlab/stormlab/experiments"
)

// fieldError is an error as the page shows it, next to the field it
// concerns: the request's name for the field ("seed", "pause_at", a
// fault's "length", a change's "budget.max_tokens" or "layer.*.attempts";
// empty when the error concerns no one field) and one sentence without the
// file, line, key or Go type the page never showed.
type fieldError struct {
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// pageError is err as the page shows it.
func pageError(err error) fieldError {
	var ie *inputError
	var le *experiments.Error
	switch {
	case errors.As(err, &ie):
		return fieldError{ie.field, ie.says}
	case errors.As(err, &le):
		return fieldError{fileField(le.Key), le.Msg}
	}
	return fieldError{Message: err.Error()}
}

// indexed matches the start of a key of the run's file inside one of its
// lists: scenario.change.3., scenario.fault.0.
var indexed = regexp.MustCompile(`^scenario\.(change|fault)\.\d+\.?`)

// fileField is the request field a key of the run's file comes from: a
// change's key (scenario.change.N.set.K: K), a fault's (scenario.fault.N.K:
// K, the fault being the one just sent), the chain's depth
// (scenario.layer: layers), else the key below [scenario].
func fileField(key string) string {
	if m := indexed.FindStringSubmatch(key); m != nil {
		rest := key[len(m[0]):]
		if m[1] == "change" {
			k, _ := strings.CutPrefix(rest, "set.")
			if k == "set" {
				return ""
			}
			return k
		}
		return rest
	}
	key = strings.TrimPrefix(key, "scenario.")
	if key == "layer" {
		return "layers"
	}
	return key
}

// typeError is a JSON value of the wrong type for its field, in words.
func typeError(te *json.UnmarshalTypeError) error {
	want := "must be " + typeWords(te.Type, te.Field)
	got := strings.TrimPrefix(te.Value, "number ")
	switch te.Value {
	case "string":
		got = "text"
	case "bool":
		got = "true or false"
	case "object", "array":
		got = "a list"
	}
	return badField(te.Field, "%s, got %s", want, got)
}

// typeWords says what a value of type t is, for the field named.
func typeWords(t reflect.Type, field string) string {
	switch t.Kind() {
	case reflect.Float64, reflect.Float32:
		if field == "pause_at" {
			return "a second of the run (a number; 0 clears it)"
		}
		return "a number"
	case reflect.Uint64, reflect.Uint32, reflect.Uint, reflect.Int, reflect.Int64, reflect.Int32:
		if field == "seed" {
			return fmt.Sprintf("a whole number from 0 to %d", uint64(maxSeed))
		}
		if field == "layers" {
			return fmt.Sprintf("a whole number from 1 to %d", maxLayers)
		}
		return "a whole number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "text"
	case reflect.Map:
		return `keys and their values, e.g. {"load": 50}`
	}
	return "of another kind"
}
