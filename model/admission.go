package model

import (
	"math"
	"sync"
)

// admission is what a dependency with a waiting room (a queue server, a
// worker pool's room) does as it takes its next calls: which of them it
// sheds, answering them at once with an error instead of serving them,
// because they waited too long, and whether it takes the newest first. A
// kind is a file of its own (admission_*.go) and an entry in
// admissionKinds; dependency.admission picks one.
//
// Waits are whole ticks: a call that arrived in tick a and is taken in
// tick t waited t − a ticks, so a limit shorter than a tick sheds every
// call that waited one.
//
// Both methods are told since, the tick the room last went from empty to
// holding calls: it has held calls ever since.
type admission interface {
	// cutoff is the longest wait, in ticks, a call taken now may have had
	// and still be served (never: no limit).
	cutoff(now, since int64) int64
	// newestFirst reports whether the room serves its newest calls first
	// now, whatever its queue says.
	newestFirst(now, since int64) bool
}

// admissionKind is one registered admission rule: its Kind and what makes
// it from its parameters at tps ticks a second.
type admissionKind struct {
	Kind
	make func(params any, tps float64) admission
}

func (k admissionKind) info() Kind { return k.Kind }

// admissionKinds is the registry of admission rules.
var admissionKinds = sync.OnceValue(func() []admissionKind {
	return []admissionKind{
		noAdmissionKind(),
		queueTimeoutKind(),
		codelKind(),
		adaptiveLIFOKind(),
	}
})

// Admission is a dependency's admission rule (dependency.admission): a kind
// and its keys.
type Admission struct {
	Kind string `toml:"kind" doc:"none (the default), or one of the admission rules below"`
	// Params are the kind's keys: a value of its parameter struct; nil for
	// none (and, before Resolve, for a kind whose defaults stand).
	Params any `toml:"-"`
}

// lookupAdmission finds an admission rule by name; "" is none.
func lookupAdmission(name string) (admissionKind, bool) {
	if name == "" {
		name = "none"
	}
	for _, k := range admissionKinds() {
		if k.Name == name {
			return k, true
		}
	}
	return admissionKind{}, false
}

// TableKind, SetTableKind, TableParams and SetTableParams make an
// admission rule a KindTable.
func (v *Admission) TableKind() string { return v.Kind }

func (v *Admission) SetTableKind(name string) error {
	k, ok := lookupAdmission(name)
	if !ok {
		return checkKind("dependency.admission.kind", name, kindsOf(admissionKinds()))
	}
	if name != v.Kind || v.Params == nil {
		v.Kind, v.Params = name, k.Params
	}
	return nil
}

func (v *Admission) TableParams() any {
	if v.Params == nil {
		if k, ok := lookupAdmission(v.Kind); ok {
			return k.Params
		}
	}
	return v.Params
}

func (v *Admission) SetTableParams(p any) { v.Params = p }

func (v *Admission) TableKinds() []Kind { return kindsOf(admissionKinds()) }

// validateKind refuses a rule the registry does not hold.
func (v *Admission) validateKind() *FieldError {
	if v.Kind == "" {
		return nil
	}
	return checkKind("dependency.admission.kind", v.Kind, kindsOf(admissionKinds()))
}

// validate checks the rule's parameters are the rule's, within their ranges.
func (v *Admission) validate() *FieldError {
	k, _ := lookupAdmission(v.Kind)
	return paramsOf("dependency.admission", k.Kind, v.TableParams())
}

// on reports whether v is a rule other than none.
func (v *Admission) on() bool { return v.Kind != "" && v.Kind != "none" }

// rule makes the admission v names at tps ticks a second; nil for none.
func (v *Admission) rule(tps float64) admission {
	if !v.on() {
		return nil
	}
	k, _ := lookupAdmission(v.Kind)
	return k.make(v.TableParams(), tps)
}

// waitTicks is the longest whole number of ticks at tps a second whose
// wait is within limit seconds.
func waitTicks(limit, tps float64) int64 {
	return int64(math.Floor(limit*tps + 1e-9))
}
