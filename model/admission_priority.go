package model

// priorityClasses serves a waiting room's first tries before its retries:
// calls sent by no retry anywhere on their way from the user request wait
// in one room, retries in another, and the server takes from the second
// only what the first leaves of its capacity, each room in the order its
// queue says. A retry then waits behind every new request, so a storm of
// retries cannot starve the requests that started it. It is criticality
// as "Handling Overload" (Google's "Site Reliability Engineering", chapter
// 21) describes it, the server keeping its capacity for the higher class,
// with the classes a server can tell apart from the headers retrying
// clients send (gRPC's grpc-previous-rpc-attempts, after gRFC A6; Envoy's
// x-envoy-attempt-count).
type priorityClasses struct{}

func priorityAdmissionKind() admissionKind {
	return admissionKind{Kind: Kind{Name: "priority", Doc: "priority classes: first tries are served before retries, which take only the capacity first tries leave", Engines: OnStochastic},
		make: func(any, int64) admitter { return priorityClasses{} }}
}

func (priorityClasses) limit(int64, int64) int64 { return never }

func (priorityClasses) newestFirst(_, _ int64, lifo bool) bool { return lifo }

// retriesApart reports that the room keeps retries in a room of their own.
func (priorityClasses) retriesApart() bool { return true }
