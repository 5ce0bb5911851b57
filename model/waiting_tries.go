package model

// waitingTries is n instances of a layer's try waiting for a slot since
// tick since; the rest is what start was called with.
type waitingTries struct {
	parent                *group
	since, dl, arrived, n int64
	attempt, client, wait int32
	layer                 int8
	f                     startFlags
}
