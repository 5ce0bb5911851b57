package pipeline

import (
	"path/filepath"
	"strings"
)

// createCommand is the command that writes an experiment's first baseline
// under dir.
func createCommand(dir, file string) string {
	if filepath.Clean(dir) == DefaultOut {
		return "stormlab run " + ShellQuote(file)
	}
	return "stormlab run -out " + ShellQuote(dir) + " " + ShellQuote(file)
}

// ShellQuote quotes s for sh when it holds anything but plain characters,
// for the commands a report or a message shows.
func ShellQuote(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
