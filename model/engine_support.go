package model

import (
	"reflect"
	"strings"
)

// chosenKind is a kind a scenario picks: the key that picks it, its family
// and its registry entry.
type chosenKind struct {
	path   string
	family string
	kind   Kind
}

// modelled refuses the first thing s asks for that engine does not model:
// a kind its registry entry does not list the engine for, or a key tagged
// engines:"stochastic" (the keys only that engine reads) set to anything
// but its zero value; nil when the engine models everything s asks for.
// The kinds s picks are, family by family, the value of each family's key
// (every entry's, for a key of a list's entries), as the family's picks
// says where something else picks too; an empty value (no breaker, the
// default health rule) picks nothing. Paths are written only for the
// error, as every run validates its scenario.
func (s *Scenario) modelled(engine string) *FieldError {
	root := reflect.ValueOf(s).Elem()
	at := make([]int, 0, 8)
	for _, fam := range Families() {
		if fam.picks != nil {
			for _, c := range fam.picks(s) {
				if !c.kind.Engines.Has(engine) {
					return unmodelled(c.path, c.family, c.kind, engine)
				}
			}
			continue
		}
		e := valuesAt(root, fam.Key, at, func(at []int, name string) *FieldError {
			if k, ok := fam.Lookup(name); ok && !k.Engines.Has(engine) {
				return unmodelled(keyPath(at, ""), fam.Name, k, engine)
			}
			return nil
		})
		if e != nil {
			return e
		}
	}
	return keysModelled(root, at, engine)
}

// unmodelled is the error for kind k of family, picked at path, which
// engine does not model.
func unmodelled(path, family string, k Kind, engine string) *FieldError {
	return bad(path, "%q (a %s) needs engine = %s; the %s engine does not model it", k.Name, family, k.Engines.Quoted(), engine)
}

// valuesAt calls found with every string at the dotted key pattern key (N
// for each entry of a list) below the table v reached by the field indexes
// at (as keyPath reads them), until found returns an error.
func valuesAt(v reflect.Value, key string, at []int, found func(at []int, value string) *FieldError) *FieldError {
	if key == "" {
		if v.Kind() == reflect.String {
			return found(at, v.String())
		}
		return nil
	}
	seg, rest, _ := strings.Cut(key, ".")
	if seg == "N" && v.Kind() == reflect.Slice {
		for i := 0; i < v.Len(); i++ {
			if e := valuesAt(v.Index(i), rest, append(at, -1-i), found); e != nil {
				return e
			}
		}
		return nil
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	for i, tag := range tagsOf(v.Type()) {
		if tag.key == seg {
			return valuesAt(v.Field(i), rest, append(at, i), found)
		}
	}
	return nil
}

// keysModelled walks the table v, reached by the field indexes at (as
// keyPath reads them), for a key set that engine does not read.
func keysModelled(v reflect.Value, at []int, engine string) *FieldError {
	t := v.Type()
	for i, tag := range tagsOf(t) {
		key := tag.key
		if key == "" {
			continue
		}
		fv := v.Field(i)
		if tag.hasEngines && !strings.Contains(tag.engines, engine) && !fv.IsZero() {
			return bad(keyPath(at, key), "needs engine = %q; the %s engine does not model it", tag.engines, engine)
		}
		switch {
		case fv.Type() == reflect.TypeFor[Duration]():
		case fv.Kind() == reflect.Struct:
			if e := keysModelled(fv, append(at, i), engine); e != nil {
				return e
			}
		case fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.Struct:
			for j := 0; j < fv.Len(); j++ {
				if e := keysModelled(fv.Index(j), append(at, i, -1-j), engine); e != nil {
					return e
				}
			}
		}
	}
	return nil
}
