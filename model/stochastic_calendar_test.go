package model

import (
	"reflect"
	"testing"
)

// TestEventAssign: assign copies every field of an event, so a field added
// to event and forgotten there fails here.
func TestEventAssign(t *testing.T) {
	var ev event
	v := reflect.ValueOf(&ev).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Pointer:
			f = reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem()
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem().SetInt(int64(i + 1))
		case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem().SetUint(uint64(i + 1))
		default:
			t.Fatalf("event.%s: a field of kind %v this test does not fill", v.Type().Field(i).Name, f.Kind())
		}
	}
	var e event
	e.assign(&ev)
	if e != ev {
		t.Errorf("assign copied %+v, want %+v", e, ev)
	}
}
