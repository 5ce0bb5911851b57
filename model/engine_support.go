package model

import (
	"reflect"
	"strconv"
	"strings"
)

// chosenKind is a kind a scenario picks: the key that picks it, its family
// and its registry entry.
type chosenKind struct {
	path   string
	family string
	kind   Kind
}

// chosenKinds lists the kinds s picks, family by family: the value of each
// family's key (every entry's, for a key of a list's entries), as the
// family's picks says where something else picks too. An empty value (no
// breaker, the default health rule) picks nothing.
func (s *Scenario) chosenKinds() []chosenKind {
	var out []chosenKind
	for _, fam := range Families() {
		if fam.picks != nil {
			out = append(out, fam.picks(s)...)
			continue
		}
		valuesAt(reflect.ValueOf(s).Elem(), strings.Split(fam.Key, "."), "", func(path, name string) {
			if k, ok := fam.Lookup(name); ok {
				out = append(out, chosenKind{path, fam.Name, k})
			}
		})
	}
	return out
}

// valuesAt calls found with every string at the key pattern segs (N for
// each entry of a list) below the table v at path.
func valuesAt(v reflect.Value, segs []string, path string, found func(path, value string)) {
	if len(segs) == 0 {
		if v.Kind() == reflect.String {
			found(path, v.String())
		}
		return
	}
	if segs[0] == "N" && v.Kind() == reflect.Slice {
		for i := 0; i < v.Len(); i++ {
			valuesAt(v.Index(i), segs[1:], joinKey(path, strconv.Itoa(i)), found)
		}
		return
	}
	if v.Kind() != reflect.Struct {
		return
	}
	for i, tag := range tagsOf(v.Type()) {
		if tag.key == segs[0] {
			valuesAt(v.Field(i), segs[1:], joinKey(path, tag.key), found)
			return
		}
	}
}

// modelled refuses the first thing s asks for that engine does not model:
// a kind its registry entry does not list the engine for, or a key tagged
// engines:"stochastic" (the keys only that engine reads) set to anything
// but its zero value; nil when the engine models everything s asks for.
func (s *Scenario) modelled(engine string) *FieldError {
	for _, c := range s.chosenKinds() {
		if !c.kind.Engines.Has(engine) {
			return bad(c.path, "%q (a %s) needs engine = %s; the %s engine does not model it", c.kind.Name, c.family, c.kind.Engines.Quoted(), engine)
		}
	}
	return keysModelled(reflect.ValueOf(s).Elem(), "", engine)
}

// keysModelled walks the table v at path for a key set that engine does
// not read.
func keysModelled(v reflect.Value, path, engine string) *FieldError {
	t := v.Type()
	for i, tag := range tagsOf(t) {
		key := tag.key
		if key == "" {
			continue
		}
		fv := v.Field(i)
		if tag.hasEngines && !strings.Contains(tag.engines, engine) && !fv.IsZero() {
			return bad(joinKey(path, key), "needs engine = %q; the %s engine does not model it", tag.engines, engine)
		}
		switch {
		case fv.Type() == reflect.TypeFor[Duration]():
		case fv.Kind() == reflect.Struct:
			if e := keysModelled(fv, joinKey(path, key), engine); e != nil {
				return e
			}
		case fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.Struct:
			for j := 0; j < fv.Len(); j++ {
				if e := keysModelled(fv.Index(j), joinKey(path, key)+"."+strconv.Itoa(j), engine); e != nil {
					return e
				}
			}
		}
	}
	return nil
}
