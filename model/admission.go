package model

import "sync"

// admitter is an admission rule of a waiting room (dependency.admission):
// which calls it sheds instead of serving, and in which order it serves.
// Each rule is a file of its own (admission_*.go) and an entry of
// admissionKinds. Times are in ticks; empty is the last tick the room was
// empty (when it was, or when a call arrived to find it so).
type admitter interface {
	// limit is the most ticks a call may have waited when the room takes
	// it at tick now; a call that waited longer is shed: answered at once
	// with an error, which its caller may retry.
	limit(now, empty int64) int64
	// newestFirst reports whether the room serves newest first at tick
	// now; lifo is what dependency.queue says.
	newestFirst(now, empty int64, lifo bool) bool
}

// admissionKind is one registered admission rule: its Kind and what makes
// it from its parameters (Params' type) and the tick, in nanoseconds.
type admissionKind struct {
	Kind
	make func(params any, tickNs int64) admitter // nil for none
}

func (k admissionKind) info() Kind { return k.Kind }

// admissionKinds is the registry of admission rules.
var admissionKinds = sync.OnceValue(func() []admissionKind {
	return []admissionKind{
		{Kind: Kind{Name: "none", Doc: "every call waits until it is served (or its caller's work is dropped: drop_expired)", Engines: OnAll}},
		queueTimeAdmissionKind(),
		codelAdmissionKind(),
		adaptiveLIFOAdmissionKind(),
		priorityAdmissionKind(),
	}
})

// Admission is the dependency's admission rule for its waiting room
// (dependency.admission): its kind and, for a rule with keys of its own,
// their values. It acts where calls wait: a fifo or lifo capacity server
// and a worker pool's waiting room.
type Admission struct {
	Kind string `toml:"kind" doc:"none (the default), or one of the admission rules below"`
	// Params are the kind's keys: a value of its parameter struct; nil for
	// none (and, before Resolve, for a kind whose defaults stand).
	Params any `toml:"-"`
}

// admissionTable is the admission rules as an Admission picks one; no kind
// is none.
func admissionTable() kindTable[admissionKind] {
	return kindTable[admissionKind]{kinds: admissionKinds, unset: "none"}
}

// TableKind, SetTableKind, TableParams, SetTableParams and TableKinds make
// an admission rule a KindTable.
func (v *Admission) TableKind() string { return v.Kind }
func (v *Admission) SetTableKind(name string) error {
	return admissionTable().setKind(&v.Kind, &v.Params, name)
}
func (v *Admission) TableParams() any     { return admissionTable().params(v.Kind, v.Params) }
func (v *Admission) SetTableParams(p any) { v.Params = p }
func (v *Admission) TableKinds() []Kind   { return admissionTable().infos() }

// on reports whether v sheds or reorders anything.
func (v *Admission) on() bool { return v.Kind != "" && v.Kind != "none" }

// admitter makes the rule v names for ticks of tickNs nanoseconds; nil for
// none.
func (v *Admission) admitter(tickNs int64) admitter {
	k, _ := admissionTable().lookup(v.Kind)
	if k.make == nil {
		return nil
	}
	return k.make(v.TableParams(), tickNs)
}

// spanTicks is d in whole ticks of tickNs nanoseconds, rounded to the
// nearest.
func spanTicks(d Duration, tickNs int64) int64 { return (int64(d) + tickNs/2) / tickNs }
