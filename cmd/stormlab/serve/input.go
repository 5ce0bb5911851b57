package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

// maxBody caps a request's body.
const maxBody = 64 << 10

// decode reads a request's JSON body into dst strictly: one document, no
// unknown field, at most maxBody bytes. Numbers inside free-form values
// (a change's keys) come out as int64 when whole, else float64: the forms
// a TOML file decodes to.
func decode(r *http.Request, dst any) error {
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return badInput("the request's body is over %d bytes", maxBody)
		}
		return badInput("reading the request: %v", err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	d.UseNumber()
	if err := d.Decode(dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return typeError(te)
		}
		return badInput("malformed JSON: %v", err)
	}
	if d.More() {
		return badInput("malformed JSON: more than one document")
	}
	return nil
}

// tomlValue turns a decoded JSON value into the form a TOML file decodes
// to: json.Number as int64 or float64, tables and lists inside.
func tomlValue(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		if !strings.ContainsAny(x.String(), ".eE") {
			if n, err := x.Int64(); err == nil {
				return n, nil
			}
		}
		f, err := x.Float64()
		if err != nil {
			return nil, badInput("%s is not a number a file can hold", x)
		}
		return f, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			t, err := tomlValue(e)
			if err != nil {
				return nil, err
			}
			out[k] = t
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			t, err := tomlValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = t
		}
		return out, nil
	case nil:
		return nil, badInput("null is not a value a file can hold")
	}
	return v, nil
}
