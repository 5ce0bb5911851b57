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

// chosenKinds lists the kinds s picks, in the order of its keys.
func (s *Scenario) chosenKinds() []chosenKind {
	var out []chosenKind
	add := func(path, family, name string, kinds []Kind) {
		for _, k := range kinds {
			if k.Name == name {
				out = append(out, chosenKind{path, family, k})
			}
		}
	}
	add("arrivals", "arrivals", s.Arrivals, arrivalKinds())
	for i, l := range s.Layer {
		p := indexed("layer", i)
		add(p+"backoff.kind", "backoff", l.Backoff.Kind, backoffKinds())
		add(p+"backoff.jitter", "jitter", l.Backoff.Jitter, jitterKinds())
		if l.Breaker.Kind != "" {
			add(p+"breaker.kind", "circuit breaker", l.Breaker.Kind, kindsOf(breakerKinds()))
		}
	}
	add("budget.kind", "retry budget", s.Budget.Kind, kindsOf(budgetKinds()))
	if d := s.Dependency; d.Capacity == 0 && d.LatencySlope > 0 {
		add("dependency.latency_slope", "dependency", "latency", kindsOf(serverKinds()))
	} else {
		add("dependency.queue", "dependency", d.Queue, queueNames())
	}
	add("dependency.network.kind", "network delay", s.Dependency.Network.Kind, networkKinds())
	for i, f := range s.Fault {
		add(indexed("fault", i)+"kind", "fault", f.Kind, faultKinds())
	}
	if s.Health.Rule != "" {
		add("health.rule", "health rule", s.Health.Rule, healthRules())
	}
	return out
}

// modelled refuses the first thing s asks for that engine does not model:
// a kind its registry entry does not list the engine for, or a key tagged
// engines:"stochastic" (the keys only that engine reads) set to anything
// but its zero value; nil when the engine models everything s asks for.
func (s *Scenario) modelled(engine string) *FieldError {
	for _, c := range s.chosenKinds() {
		if !c.kind.Engines.Has(engine) {
			return bad(c.path, "%q (a %s) needs engine = %q; the %s engine does not model it", c.kind.Name, c.family, c.kind.Engines.String(), engine)
		}
	}
	return keysModelled(reflect.ValueOf(s).Elem(), "", engine)
}

// keysModelled walks the table v at path for a key set that engine does
// not read.
func keysModelled(v reflect.Value, path, engine string) *FieldError {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if key == "" || key == "-" {
			continue
		}
		p := joinKey(path, key)
		fv := v.Field(i)
		if e, ok := f.Tag.Lookup("engines"); ok && !strings.Contains(e, engine) && !fv.IsZero() {
			return bad(p, "needs engine = %q; the %s engine does not model it", e, engine)
		}
		switch {
		case f.Type == reflect.TypeFor[Duration]():
		case fv.Kind() == reflect.Struct:
			if e := keysModelled(fv, p, engine); e != nil {
				return e
			}
		case fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.Struct:
			for j := 0; j < fv.Len(); j++ {
				if e := keysModelled(fv.Index(j), p+"."+strconv.Itoa(j), engine); e != nil {
					return e
				}
			}
		}
	}
	return nil
}
