package experiments

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/stormlab/stormlab/experiments/sweep"
)

// decodeTable decodes the table m, written at key, into dst: a pointer to a
// struct whose toml tags name the keys the table accepts (what names the
// table in messages: "a [[figure]]"). Each key goes through toml.Decode on
// its own, in sorted order, so that the problem reported is always the
// first: a key MetaData.Undecoded says dst has no field for, or a value its
// field's type refuses with a message of its own.
func (e *Experiment) decodeTable(key, what string, m map[string]any, dst any) error {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		var src bytes.Buffer
		if err := toml.NewEncoder(&src).Encode(map[string]any{k: m[k]}); err != nil {
			return e.errorf(join(key, k), "%v", err)
		}
		md, err := toml.Decode(src.String(), dst)
		if err != nil {
			var pe toml.ParseError
			if errors.As(err, &pe) && pe.LastKey != "" {
				return e.errorf(join(key, k), "%s", pe.Message)
			}
			return e.errorf(join(key, k), "%s", strings.TrimPrefix(err.Error(), "toml: "))
		}
		for _, u := range md.Undecoded() {
			if len(u) == 1 {
				return e.errorf(join(key, u[0]), "unknown key%s; %s accepts %s", sweep.DidYouMean(u[0], tableKeys(dst)), what, strings.Join(tableKeys(dst), ", "))
			}
		}
	}
	return nil
}

// tableKeys lists the keys a struct decodeTable fills accepts, in field order.
func tableKeys(dst any) []string {
	t := reflect.TypeOf(dst).Elem()
	keys := make([]string, 0, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		if k, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ","); k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

// The types below are the values of decoded tables: each refuses, with the
// message a user reads, what a key of its type cannot be.

// text is a string.
type text string

func (t *text) UnmarshalTOML(v any) error { return decodeAs((*string)(t), v, "a string") }

// flag is true or false.
type flag bool

func (f *flag) UnmarshalTOML(v any) error { return decodeAs((*bool)(f), v, "true or false") }

// decodeAs stores v in dst when it has dst's type; otherwise the error says
// what the key wants.
func decodeAs[T any](dst *T, v any, want string) error {
	x, ok := v.(T)
	if !ok {
		return fmt.Errorf("wants %s, got %s", want, sweep.Describe(v))
	}
	*dst = x
	return nil
}

// tablesAt reads the list of tables written at key, nil when there is
// none; want says what its entries are, for the message.
func (e *Experiment) tablesAt(key string, v any, want string) ([]map[string]any, error) {
	if v == nil {
		return nil, nil
	}
	items, ok := sweep.Tables(v)
	if !ok {
		return nil, e.errorf(key, "wants %s, got %s", want, sweep.Describe(v))
	}
	return items, nil
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}
