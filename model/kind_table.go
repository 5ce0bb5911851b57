package model

import "reflect"

// kindTable is a family of kinds as a table that picks one of them reads
// it — a retry budget, a circuit breaker, a concurrency limiter, a
// service-time law, an admission rule — with the one copy of the rules
// every such table follows: what an empty kind stands for, that a table
// without parameters has its kind's defaults, that switching kind resets
// them, and the checks Validate makes of a table's kind and parameters. E
// is the type of the family's registry entries (budgetKind, breakerKind,
// ...). A table keeps its kind and parameters in fields of its own (Kind,
// Params), so that a file and a Go literal write them as they write its
// other keys; its KindTable methods and its family's code hand those
// fields to the family's kindTable (budgetTable, breakerTable, ...), which
// keeps nothing else.
type kindTable[E registered] struct {
	kinds func() []E // the family's registry
	// unset is the kind an empty name stands for; "" when a table must
	// name its kind.
	unset string
}

// lookup finds a kind of the family by name.
func (f kindTable[E]) lookup(name string) (E, bool) {
	if name == "" {
		name = f.unset
	}
	for _, e := range f.kinds() {
		if e.info().Name == name {
			return e, true
		}
	}
	var none E
	return none, false
}

// infos lists the Kind of each registry entry.
func (f kindTable[E]) infos() []Kind { return kindsOf(f.kinds()) }

// params is a table's parameters: params, or the defaults of its kind when
// it holds none (a kind a file named without setting any of its keys).
func (f kindTable[E]) params(kind string, params any) any {
	if params == nil {
		if k, ok := f.lookup(kind); ok {
			return k.info().Params
		}
	}
	return params
}

// setKind switches a table's kind (*kind, *params) to the kind named, with
// that kind's default parameters; a table of that kind keeps its own. An
// unknown name is refused and changes nothing.
func (f kindTable[E]) setKind(kind *string, params *any, name string) error {
	k, ok := f.lookup(name)
	if !ok {
		return checkKind("kind", name, f.kinds())
	}
	if name != *kind || *params == nil {
		*kind, *params = name, k.info().Params
	}
	return nil
}

// checkKind refuses a kind the registry does not hold; table is the
// table's path ("budget", "layer.0.breaker").
func (f kindTable[E]) checkKind(table, kind string) *FieldError {
	if _, ok := f.lookup(kind); ok {
		return nil
	}
	return checkKind(table+".kind", kind, f.kinds())
}

// checkParams refuses parameters that are not those of the table's kind
// (a known one), and what the kind's own check refuses beyond their
// ranges.
func (f kindTable[E]) checkParams(table, kind string, params any) *FieldError {
	k, _ := f.lookup(kind)
	info := k.info()
	p := f.params(kind, params)
	if e := paramsOf(table, info, p); e != nil {
		return e
	}
	if info.check != nil {
		if e := info.check(p); e != nil {
			e.Path = table + "." + e.Path
			return e
		}
	}
	return nil
}

// check is checkKind, then checkParams.
func (f kindTable[E]) check(table, kind string, params any) *FieldError {
	if e := f.checkKind(table, kind); e != nil {
		return e
	}
	return f.checkParams(table, kind, params)
}

// paramsOf checks that p holds the parameters of kind k (a table whose kind
// changed keeps no other kind's); path names the table.
func paramsOf(path string, k Kind, p any) *FieldError {
	switch {
	case k.Params == nil && p == nil:
		return nil
	case k.Params == nil || p == nil || reflect.TypeOf(p) != reflect.TypeOf(k.Params):
		return bad(path, "holds the keys of another kind than %q (internal: %T)", k.Name, p)
	}
	return nil
}
