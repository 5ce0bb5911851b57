package model

import (
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// A family of kinds is a key of the scenario that picks one of several
// rules for a part — budget.kind, layer.N.breaker.kind, dependency.queue —
// and the kinds it may pick. Each family has one registry: a list of Kind
// entries in the file of its part (budgetKinds in budget.go, breakerKinds
// in breaker.go, ...). Every other list of kinds derives from the
// registries: the values Validate allows, the queue engine's support check,
// `stormlab keys` and the key reference in experiments/README.md, the explorer's form, and
// the tests' lists; a test fails when a list disagrees with its registry.

// EngineSet is the engines that model a kind or a key.
type EngineSet uint8

const (
	OnQueue      EngineSet = 1 << iota // the deterministic queue engine
	OnStochastic                       // the stochastic engine
	OnMarkov                           // the markov engine: the chain solved, not simulated
	OnBoth       = OnQueue | OnStochastic
	OnAll        = OnBoth | OnMarkov
)

// Engines lists the engines' names, as a file writes them, in EngineSet's
// order.
func Engines() []string { return []string{"queue", "stochastic", "markov"} }

// Has reports whether the engine named engine ("queue", "stochastic",
// "markov") is in the set.
func (e EngineSet) Has(engine string) bool {
	for i, name := range Engines() {
		if name == engine {
			return e&(1<<i) != 0
		}
	}
	return false
}

// Quoted names the engines as a file writes them, quoted and joined by
// " or ": "stochastic", "queue" or "stochastic".
func (e EngineSet) Quoted() string {
	var names []string
	for _, name := range Engines() {
		if e.Has(name) {
			names = append(names, strconv.Quote(name))
		}
	}
	return strings.Join(names, " or ")
}

// String names the engines: "both engines" (queue and stochastic), "every
// engine", or their names joined by " or ": "stochastic", "queue or
// markov".
func (e EngineSet) String() string {
	switch e {
	case OnBoth:
		return "both engines"
	case OnAll:
		return "every engine"
	}
	var names []string
	for _, name := range Engines() {
		if e.Has(name) {
			names = append(names, name)
		}
	}
	if names == nil {
		return "no engine"
	}
	return strings.Join(names, " or ")
}

// Kind is one registered kind of a family: its name as a file writes it,
// what it does in one line, the engines that model it, and its own keys.
// A kind with keys of its own has a parameter struct (Params, a struct value
// holding the kind's defaults, whose toml and doc tags name and describe
// its keys and whose bounds method declares their ranges) and may have a
// check of the rules they follow beyond their ranges; a kind whose keys
// are those of a table all the family's kinds share (a fault's capacity, a
// backoff's base) names the ones it reads in Reads.
type Kind struct {
	Name    string
	Doc     string
	Engines EngineSet
	Params  any
	Reads   []string
	// PickedBy says what picks the kind when its family's key cannot name
	// it ("capacity = 0 and latency_slope > 0" for the latency server);
	// empty for a kind the key names.
	PickedBy string
	// check, when set, refuses parameters (Params' type) that break the
	// kind's own rules beyond their ranges, naming the key alone
	// ("percent_can_retry"); Validate adds the table's path.
	check func(params any) *FieldError
}

// Family is one registry of kinds.
type Family struct {
	Name string // what the kinds are: "retry budget"
	// Key is the key that picks the kind, N standing for a list's index:
	// "budget.kind", "layer.N.breaker.kind".
	Key   string
	Kinds []Kind
	// picks, when set, says which kind a scenario picks where its key is
	// not the only thing that does (capacity = 0 with latency_slope > 0
	// picks the latency server); nil for a family its key alone picks.
	picks func(s *Scenario) []chosenKind
}

// Families lists every family of kinds the model registers, in the order
// of the scenario's keys. The list is built once and shared: read it, do
// not change it.
func Families() []Family { return families() }

// families builds Families' list, once per process.
var families = sync.OnceValue(func() []Family {
	return []Family{
		{Name: "arrivals", Key: "arrivals", Kinds: arrivalKinds()},
		{Name: "backoff", Key: "layer.N.backoff.kind", Kinds: backoffKinds()},
		{Name: "jitter", Key: "layer.N.backoff.jitter", Kinds: jitterKinds()},
		{Name: "circuit breaker", Key: "layer.N.breaker.kind", Kinds: kindsOf(breakerKinds())},
		{Name: "concurrency limiter", Key: "layer.N.limiter.kind", Kinds: kindsOf(limiterKinds())},
		{Name: "retry budget", Key: "budget.kind", Kinds: kindsOf(budgetKinds())},
		{Name: "dependency", Key: "dependency.queue", Kinds: kindsOf(serverKinds()), picks: pickedServer},
		{Name: "service time", Key: "dependency.service.kind", Kinds: kindsOf(serviceKinds())},
		{Name: "admission rule", Key: "dependency.admission.kind", Kinds: kindsOf(admissionKinds())},
		{Name: "network delay", Key: "dependency.network.kind", Kinds: networkKinds()},
		{Name: "fault", Key: "fault.N.kind", Kinds: faultKinds()},
		{Name: "health rule", Key: "health.rule", Kinds: healthRules()},
	}
})

// FamilyOf finds a family by the key that picks its kind ("budget.kind",
// "layer.2.breaker.kind": any index matches N).
func FamilyOf(key string) (Family, bool) {
	for _, f := range Families() {
		if keyMatches(f.Key, key) {
			return f, true
		}
	}
	return Family{}, false
}

// keyMatches reports whether key is pattern with each N an index.
func keyMatches(pattern, key string) bool {
	ps, ks := strings.Split(pattern, "."), strings.Split(key, ".")
	if len(ps) != len(ks) {
		return false
	}
	for i := range ps {
		if ps[i] != ks[i] && !(ps[i] == "N" && isIndex(ks[i])) {
			return false
		}
	}
	return true
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Names lists the family's kind names, in registry order.
func (f Family) Names() []string {
	out := make([]string, len(f.Kinds))
	for i, k := range f.Kinds {
		out[i] = k.Name
	}
	return out
}

// Values lists the names the family's key takes: its kinds but those
// something else picks (PickedBy).
func (f Family) Values() []string {
	var out []string
	for _, k := range named(f.Kinds) {
		out = append(out, k.Name)
	}
	return out
}

// named keeps the kinds a family's key names.
func named(kinds []Kind) []Kind {
	var out []Kind
	for _, k := range kinds {
		if k.PickedBy == "" {
			out = append(out, k)
		}
	}
	return out
}

// Lookup finds a kind of the family by name.
func (f Family) Lookup(name string) (Kind, bool) {
	for _, k := range f.Kinds {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// Keys lists a kind's own keys: its parameter struct's toml keys, or
// Reads.
func (k Kind) Keys() []string {
	if k.Params == nil {
		return k.Reads
	}
	var out []string
	t := reflect.TypeOf(k.Params)
	for i := 0; i < t.NumField(); i++ {
		if key, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ","); key != "" && key != "-" {
			out = append(out, key)
		}
	}
	return out
}

// registered is a registry entry that carries a Kind: budgetKind,
// breakerKind and serverKind add what the engines need to make them.
type registered interface{ info() Kind }

// info lets a plain list of Kinds stand for a registry (checkKind, kindsOf).
func (k Kind) info() Kind { return k }

// kindsOf lists the Kind of each entry of a registry.
func kindsOf[E registered](entries []E) []Kind {
	out := make([]Kind, len(entries))
	for i, e := range entries {
		out[i] = e.info()
	}
	return out
}

// checkKind refuses a value of a family's key that names no kind of its
// registry entries; it lists the names only for the error, as every run
// validates its scenario.
func checkKind[E registered](path, value string, entries []E) *FieldError {
	for _, e := range entries {
		if e.info().Name == value {
			return nil
		}
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.info().Name
	}
	return oneOf(path, value, names...)
}

// KindTable is a table of scenario keys whose kind owns its keys beside
// the ones every kind shares: a retry budget, a circuit breaker. Its keys
// are its fields (kind, and the shared ones) and the fields of its kind's
// parameter struct, held as a value. The code that reads and writes the
// scenario by its keys (assignment by path, the key lists, the ranges, the
// export) reaches the parameters through this interface; each table's
// methods hand its fields to its family's kindTable (kind_table.go), which
// holds the rules they follow.
type KindTable interface {
	TableKind() string
	// SetTableKind switches the table to the kind named, with that kind's
	// default parameters (a table of that kind already keeps its own); an
	// unknown name is refused.
	SetTableKind(name string) error
	// TableParams is the kind's parameters, a struct value; nil for a kind
	// without keys of its own.
	TableParams() any
	SetTableParams(p any)
	// TableKinds is the family's registry.
	TableKinds() []Kind
}
