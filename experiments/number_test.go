package experiments

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/experiments/tipping"
	"github.com/stormlab/stormlab/model"
)

// TestFileNumbersBounded: every number of an experiment file outside its
// scenario declares its range on its type, and the list of them is derived
// from the tables the loader decodes: a numeric field without a range fails
// the test. (A search's from, to and tolerance are values of the key it
// moves, checked against that key's range, or the range they span.) Each is
// read at both ends of its range and the experiment runs; a value past
// either end is refused with the range, at its line.
func TestFileNumbersBounded(t *testing.T) {
	const scenario = "[scenario]\ntick = \"1s\"\nduration = \"20s\"\nload = 50\nlayer = [{ attempts = 3 }]\nfault = [{ kind = \"outage\", start = \"5s\", length = \"3s\" }]\n"
	tables := []struct {
		typ  reflect.Type
		file func(key, value string) string // an experiment with key = value in the table
		path func(key string) string        // the key as the error names it
	}{
		{reflect.TypeFor[topLevel](),
			func(k, v string) string { return k + " = " + v + "\n" + scenario },
			func(k string) string { return k }},
		{reflect.TypeFor[tippingTable](),
			func(k, v string) string {
				return scenario + "[tipping]\nkey = \"blip\"\nfrom = \"0s\"\nto = \"6s\"\n" + k + " = " + v + "\n"
			},
			func(k string) string { return "tipping." + k }},
		{reflect.TypeFor[toleranceTable](),
			func(k, v string) string { return scenario + "[tolerance]\ncalls = { " + k + " = " + v + " }\n" },
			func(k string) string { return "tolerance.calls." + k }},
		// A window's from and to are spans of the run: model.Window
		// declares their range (TestWindowBounds).
		{reflect.TypeFor[windowTable](), nil, nil},
	}
	rangedType := reflect.TypeFor[ranged]()
	tested := 0
	for _, tb := range tables {
		for i := 0; i < tb.typ.NumField(); i++ {
			f := tb.typ.Field(i)
			key, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if !reflect.PointerTo(f.Type).Implements(rangedType) {
				switch f.Type.Kind() {
				case reflect.Int, reflect.Int64, reflect.Uint64, reflect.Float64:
					t.Errorf("%s.%s is a number without a declared range", tb.typ.Name(), key)
				}
				continue
			}
			if tb.file == nil {
				t.Errorf("%s.%s declares a range this test does not try", tb.typ.Name(), key)
				continue
			}
			r := reflect.New(f.Type).Interface().(ranged).bounds()
			for _, c := range []struct {
				x  float64
				ok bool
			}{{r.Min, true}, {r.Max, true}, {below(r), false}, {above(r), false}} {
				src := tb.file(key, number(r, c.x))
				e, err := Parse("x.toml", []byte(src), nil)
				switch {
				case c.ok && err != nil:
					t.Errorf("%s = %s, an end of its range, refused: %v", tb.path(key), number(r, c.x), err)
				case c.ok:
					if _, err := sweep.Run(context.Background(), e.Grid.Cells(), sweep.Options{Workers: 1}); err != nil {
						t.Errorf("%s = %s: %v", tb.path(key), number(r, c.x), err)
					}
					if _, err := tipping.Run(context.Background(), e.Grid, e.Tipping, tipping.Options{Workers: 1}); err != nil {
						t.Errorf("%s = %s: the search: %v", tb.path(key), number(r, c.x), err)
					}
				case err == nil:
					t.Errorf("%s = %s, outside its range, accepted", tb.path(key), number(r, c.x))
				default:
					got := strconv.FormatFloat(c.x, 'g', -1, 64)
					if r.Whole {
						got = number(r, c.x)
					}
					want := fmt.Sprintf("%s: must be %s, got %s", tb.path(key), r.Text(), got)
					if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "x.toml:") {
						t.Errorf("%s = %s: %v, want it to say %q at its line", tb.path(key), number(r, c.x), err, want)
					}
				}
			}
			tested++
		}
	}
	if tested < 5 {
		t.Errorf("%d ranged numbers found in the file's tables, want seed, max_cells, scan, abs and rel at least", tested)
	}
}

// number writes x as a file writes a value of a key with range r.
func number(r model.KeyRange, x float64) string {
	if r.Whole {
		return strconv.FormatInt(int64(x), 10)
	}
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// below and above are values just past the ends of r.
func below(r model.KeyRange) float64 {
	if r.Whole {
		return r.Min - 1
	}
	return r.Min - math.Max(1, math.Abs(r.Min))
}

func above(r model.KeyRange) float64 {
	if r.Whole {
		return r.Max + 1
	}
	return r.Max * 2
}
