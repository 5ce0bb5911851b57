package sweep

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/model"
)

// TestRegistriesAgree checks every list of kinds that derives from the
// model's registries against them: the values a key that picks a kind
// accepts and the message refusing another, both engines' support check,
// the key reference, each kind's keys, and the words of a key with a oneof
// list. A kind added to a registry is found in all of them; one missing
// from any fails here.
func TestRegistriesAgree(t *testing.T) {
	ref := map[string]Key{}
	for _, k := range Reference() {
		ref[k.Path] = k
	}
	for _, fam := range model.Families() {
		key := concrete(fam.Key)
		// A name no kind has is refused with every kind's name.
		sc := referenceScenario()
		err := Assign(&sc, key, "no-such-kind")
		if err == nil {
			err = sc.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), strings.Join(fam.Values(), ", ")) {
			t.Errorf("%s = \"no-such-kind\": %v; want the registry's kinds, %s", fam.Key, err, strings.Join(fam.Values(), ", "))
		}
		if r, ok := ref[fam.Key]; !ok || r.Type != "text" || strings.Join(r.Choices, ",") != strings.Join(fam.Values(), ",") {
			t.Errorf("the key reference's %s offers %v, the registry %v", fam.Key, r.Choices, fam.Values())
		}
		for _, k := range KindsOf(fam) {
			if !strings.Contains(ref[fam.Key].Doc, k.Name+" — "+k.Doc) {
				t.Errorf("the key reference's %s does not describe %s", fam.Key, k.Name)
			}
			kind, _ := fam.Lookup(k.Name)
			if got, want := len(k.Keys), len(kind.Keys()); got < want {
				t.Errorf("%s = %s: %d keys found, its registry entry names %d (%v)", fam.Key, k.Name, got, want, kind.Keys())
			}
			for _, kk := range k.Keys {
				path := kk.Path
				if tb := Table(fam); tb != "" {
					path = tb + "." + path
				}
				if _, ok := ref[path]; !ok {
					t.Errorf("%s = %s reads %s, which the key reference lacks", fam.Key, k.Name, path)
				}
			}
			if k.PickedBy != "" {
				continue // not named by the family's key: see model's TestPickedBy
			}
			for _, engine := range []string{"queue", "stochastic"} {
				err := pickOn(t, fam, k, engine)
				refused := err != nil && strings.Contains(err.Error(), "("+"a "+fam.Name+") needs engine")
				switch has := k.Engines.Has(engine); {
				case has && err != nil:
					t.Errorf("%s = %s on the %s engine, which models it (%s): %v", fam.Key, k.Name, engine, k.Engines, err)
				case !has && !refused:
					t.Errorf("%s = %s on the %s engine, which does not model it (%s): %v; want it refused by name", fam.Key, k.Name, engine, k.Engines, err)
				}
			}
		}
	}
	// A key with a oneof list takes its words and refuses any other,
	// naming them.
	for _, k := range ref {
		if k.Type != "text" || k.Choices == nil {
			continue
		}
		if _, ok := model.FamilyOf(k.Path); ok {
			continue
		}
		sc := referenceScenario()
		sc.Engine = "stochastic" // models every kind
		path := concrete(k.Path)
		if tb, _, ok := strings.Cut(k.Path, "."); ok && tb == "budget" {
			// The budget's own keys are its kind's: pick one that has it.
			for _, bk := range KindsOf(mustFamily(t, "budget.kind")) {
				for _, kk := range bk.Keys {
					if "budget."+kk.Path == k.Path {
						if err := Assign(&sc, "budget.kind", bk.Name); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
		}
		for _, word := range k.Choices {
			c := Clone(sc)
			if err := Assign(&c, path, word); err != nil {
				t.Errorf("%s = %q: %v", k.Path, word, err)
				continue
			}
			if err := c.Validate(); err != nil && strings.HasPrefix(err.Error(), path+":") {
				t.Errorf("%s = %q, one of its words, is refused: %v", k.Path, word, err)
			}
		}
		c := Clone(sc)
		err := Assign(&c, path, "no-such-word")
		if err == nil {
			err = c.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), strings.Join(k.Choices, ", ")) {
			t.Errorf("%s = \"no-such-word\": %v; want its words, %s", k.Path, err, strings.Join(k.Choices, ", "))
		}
	}
}

// pickOn picks kind k of fam in the reference scenario on engine, with the
// kind's keys at their defaults (at the bottom of their range, a whole
// second for a duration, where a default is outside it), and resolves it.
func pickOn(t *testing.T, fam model.Family, k KindKeys, engine string) error {
	t.Helper()
	sc := model.Default()
	sc.Fault = []model.Fault{model.DefaultFault()}
	sc.Fault[0].Start, sc.Fault[0].Length = model.Seconds(10), model.Seconds(10)
	sc.Engine = engine
	sc.Tick = model.Seconds(1)
	if err := Assign(&sc, concrete(fam.Key), k.Name); err != nil {
		return err
	}
	for _, kk := range k.Keys {
		if strings.HasPrefix(kk.Path, "shape.") {
			continue // a load shape is a list of points; none is needed
		}
		path := concrete(kk.Path)
		if tb := Table(fam); tb != "" {
			path = concrete(tb) + "." + path
		}
		if kk.Path == "clients" {
			kk.Value = "1" // closed and burst arrivals need a client, a rule beyond the range
		}
		if v, ok := inRange(kk); ok {
			if err := Assign(&sc, path, v); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
	}
	if err := sc.Validate(); err != nil {
		return err
	}
	_, err := sc.Resolve()
	return err
}

// inRange is a number or duration key's default, or the bottom of its
// range (at least a second for a duration) where the default is outside.
func inRange(k Key) (any, bool) {
	switch k.Type {
	case "number", "whole":
		x, err := strconv.ParseFloat(k.Value, 64)
		if err != nil {
			return nil, false
		}
		for _, r := range k.Ranges {
			x = max(x, r.Min)
		}
		if k.Type == "whole" {
			return int64(x), true
		}
		return x, true
	case "duration":
		d, err := model.ParseDuration(k.Value)
		if err != nil {
			return nil, false
		}
		for _, r := range k.Ranges {
			if d.Seconds() < r.Min {
				d = max(model.Seconds(r.Min), model.Seconds(1))
			}
		}
		return d.String(), true
	}
	return nil, false
}

func mustFamily(t *testing.T, key string) model.Family {
	t.Helper()
	f, ok := model.FamilyOf(key)
	if !ok {
		t.Fatalf("no family picks %s", key)
	}
	return f
}
