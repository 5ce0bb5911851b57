package model

import (
	"reflect"
	"strings"
)

// A key that takes one of a few words (budget.scope, breaker.placement, a
// ratio budget's count) declares them in its field's oneof tag, comma
// separated: `oneof:"chain,layer,client,dependency"`. A leading comma lets
// the key be empty, which stands for the default its doc names
// (`oneof:",sent,granted"`). Validate refuses any other value, naming the
// ones allowed; the key reference and the explorer's form take the list from
// the same tag. A key that picks a kind of a family (budget.kind) has no
// tag: its registry is the list.

// Choices returns the words a string field's oneof tag allows (the empty
// one, when allowed, left out), and nil for a field without one.
func Choices(f reflect.StructField) []string {
	tag, ok := f.Tag.Lookup("oneof")
	if !ok {
		return nil
	}
	return strings.Split(strings.TrimPrefix(tag, ","), ",")
}

// allows reports whether the oneof tag lists word (the empty word when
// the tag starts with a comma); it reads the tag in place, as Validate asks
// it of every run.
func allows(tag, word string) bool {
	for {
		w, rest, more := strings.Cut(tag, ",")
		if w == word {
			return true
		}
		if !more {
			return false
		}
		tag = rest
	}
}

// choiceIn refuses the first string field of the table v (a struct,
// reached by the field indexes at) whose value its oneof tag does not allow.
func choiceIn(v reflect.Value, at []int) *FieldError {
	for i, tag := range tagsOf(v.Type()) {
		if !tag.hasOneof || v.Field(i).Kind() != reflect.String {
			continue
		}
		got := v.Field(i).String()
		if got == "" && strings.HasPrefix(tag.oneof, ",") {
			continue
		}
		if !allows(tag.oneof, got) {
			return oneOf(keyPath(at, tag.key), got, Choices(v.Type().Field(i))...)
		}
	}
	return nil
}
