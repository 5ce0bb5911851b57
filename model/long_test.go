package model

import "testing"

// long skips t under the race detector. It marks a test that runs the
// model for long in its own goroutine (a queueing law, a golden file, a
// property over many scenarios): the model starts no goroutine, so the
// detector can find a race only on what tests share, the kind registries,
// which the short tests read side by side under it too, while it slows
// the model about tenfold. make test runs this package a second time
// without the detector, where these tests run.
func long(t *testing.T) {
	t.Helper()
	if raceDetector {
		t.Skip("a long run in one goroutine: make test runs it without the race detector")
	}
}
