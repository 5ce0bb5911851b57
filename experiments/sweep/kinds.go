package sweep

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/model"
)

// KindKeys is one kind of a family, from its registry, with the keys a
// table of that kind reads: what a form offers once the kind is picked.
type KindKeys struct {
	Name     string
	Doc      string
	Engines  model.EngineSet
	PickedBy string // what picks it where the family's key cannot name it
	// Keys are the kind's keys, their paths below the family's table
	// ("ratio", "scope", "shape.N.at"), their defaults the kind's own.
	Keys []Key
}

// Table is the path of the table whose kind fam's key picks, N standing for
// a list's index: "budget", "layer.N.breaker", "dependency"; "" when the key
// is one of [scenario]'s own (arrivals).
func Table(fam model.Family) string {
	i := strings.LastIndexByte(fam.Key, '.')
	if i < 0 {
		return ""
	}
	return fam.Key[:i]
}

// KindsOf lists fam's kinds, each with its keys. A table whose kinds own
// their keys (a budget, a breaker) gives a kind with parameters the table's
// shared keys and its own, with its defaults, and a kind without (none) no
// keys; a family whose kinds share their table's keys gives each kind the
// ones its registry entry says it reads.
func KindsOf(fam model.Family) []KindKeys {
	base := referenceScenario()
	table := concrete(Table(fam))
	kindKey := fam.Key[strings.LastIndexByte(fam.Key, '.')+1:]
	out := make([]KindKeys, 0, len(fam.Kinds))
	for _, k := range fam.Kinds {
		kk := KindKeys{Name: k.Name, Doc: k.Doc, Engines: k.Engines, PickedBy: k.PickedBy}
		sc := Clone(base)
		if kt, ok := kindTableAt(&sc, table); ok {
			if k.Params != nil && kt.SetTableKind(k.Name) == nil {
				kk.Keys = below(Keys(sc), table, func(rel string) bool { return rel != kindKey })
			}
		} else {
			kk.Keys = below(Keys(base), table, func(rel string) bool {
				for _, r := range k.Reads {
					if rel == r || strings.HasPrefix(rel, r+".") {
						return true
					}
				}
				return false
			})
		}
		for i := range kk.Keys {
			kk.Keys[i].Ranges = ofKind(kk.Keys[i].Ranges, k.Name)
			_, kk.Keys[i].Range = rangeText(kk.Keys[i].Ranges)
		}
		out = append(out, kk)
	}
	return out
}

// referenceScenario is the default scenario with one of every list's
// entries, so that the keys of a list's entries are keys too.
func referenceScenario() model.Scenario {
	sc := model.Default()
	sc.Fault = []model.Fault{model.DefaultFault()}
	sc.Change = []model.Change{{}}
	sc.Shape = []model.Point{{}} // no shape by default; its entries' keys still are keys
	return sc
}

// pattern is a key's path with each list index N: "shape.N.at".
func pattern(path string) string {
	segs := strings.Split(path, ".")
	for i, s := range segs {
		if _, err := strconv.Atoi(s); err == nil {
			segs[i] = "N"
		}
	}
	return strings.Join(segs, ".")
}

// concrete is a key pattern with each N the first entry: "layer.0.breaker".
func concrete(pattern string) string {
	segs := strings.Split(pattern, ".")
	for i, s := range segs {
		if s == "N" {
			segs[i] = "0"
		}
	}
	return strings.Join(segs, ".")
}

// below keeps the keys under table whose path below it passes keep, their
// paths made relative to it.
func below(keys []Key, table string, keep func(rel string) bool) []Key {
	var out []Key
	for _, k := range keys {
		rel := k.Path
		if table != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(k.Path, table+"."); !ok {
				continue
			}
		}
		if keep(rel) {
			k.Path = pattern(rel)
			out = append(out, k)
		}
	}
	return out
}

// ofKind keeps the ranges declared for every kind or for kind.
func ofKind(rs []model.KeyRange, kind string) []model.KeyRange {
	var out []model.KeyRange
	for _, r := range rs {
		if r.Kind == "" || r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

// kindTableAt is the table at path in sc when it is a table whose kind owns
// its keys.
func kindTableAt(sc *model.Scenario, path string) (model.KindTable, bool) {
	v := reflect.ValueOf(sc).Elem()
	if path == "" {
		return nil, false
	}
	for _, seg := range strings.Split(path, ".") {
		switch v.Kind() {
		case reflect.Slice:
			i, err := strconv.Atoi(seg)
			if err != nil || i >= v.Len() {
				return nil, false
			}
			v = v.Index(i)
		case reflect.Struct:
			f, ok := fieldByKey(v, seg)
			if !ok {
				return nil, false
			}
			v = f
		default:
			return nil, false
		}
	}
	if v.Kind() != reflect.Struct || !v.CanAddr() {
		return nil, false
	}
	kt, ok := v.Addr().Interface().(model.KindTable)
	return kt, ok
}
