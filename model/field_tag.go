package model

import (
	"reflect"
	"strings"
	"sync"
)

// fieldTag is what validation reads from one field's struct tags: its TOML
// key, the engines that read it (the engines tag) and the words it allows
// (the oneof tag, see choices.go).
type fieldTag struct {
	key        string // "" for a field without a key of its own
	engines    string
	hasEngines bool
	oneof      string
	hasOneof   bool
}

// scenarioTags holds the parsed tags of every struct type a scenario (and a
// kind's parameters) holds, read once per process and never written after:
// every run validates its scenario, and parsing the same tags on each of
// validation's walks was most of what resolving a scenario cost.
var scenarioTags = sync.OnceValue(func() map[reflect.Type][]fieldTag {
	m := map[reflect.Type][]fieldTag{}
	var add func(t reflect.Type)
	add = func(t reflect.Type) {
		for t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if _, seen := m[t]; seen || t.Kind() != reflect.Struct {
			return
		}
		m[t] = readTags(t)
		for i := 0; i < t.NumField(); i++ {
			add(t.Field(i).Type)
		}
	}
	add(reflect.TypeFor[Scenario]())
	for _, f := range Families() {
		for _, k := range f.Kinds {
			if k.Params != nil {
				add(reflect.TypeOf(k.Params))
			}
		}
	}
	return m
})

// tagsOf returns the tags of the struct type t's fields, by field index.
func tagsOf(t reflect.Type) []fieldTag {
	if ts, ok := scenarioTags()[t]; ok {
		return ts
	}
	return readTags(t)
}

// readTags parses the tags of the struct type t's fields.
func readTags(t reflect.Type) []fieldTag {
	out := make([]fieldTag, t.NumField())
	for i := range out {
		f := t.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if key == "-" || !f.IsExported() {
			key = ""
		}
		out[i].key = key
		out[i].engines, out[i].hasEngines = f.Tag.Lookup("engines")
		out[i].oneof, out[i].hasOneof = f.Tag.Lookup("oneof")
	}
	return out
}
