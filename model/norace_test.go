//go:build !race

package model

// raceOn says the tests run under the race detector (go test -race).
const raceOn = false
