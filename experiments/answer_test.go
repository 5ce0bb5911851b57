package experiments

import (
	"strings"
	"testing"
)

// TestAnswerInput: answer is a finding template (or a list of them); a bad
// one is refused at its key.
func TestAnswerInput(t *testing.T) {
	e := mustParse(t, "answer = [\"Calls: {calls[60]}.\", \"Second.\"]\n[grid]\nload = [60]\n")
	if len(e.Answer) != 2 || e.Answer[0].Parts[1].Column != "calls" {
		t.Errorf("answer %+v", e.Answer)
	}
	for _, c := range []struct{ src, want string }{
		{"answer = 3\n", "x.toml:1:1: answer.0: wants a string, or a table { text = \"...\", holds = [...] }, got the number 3"},
		{"answer = [{ holds = [\"calls[60] > 1\"] }]\n[grid]\nload = [60]\n", "answer.0: needs text = \"...\", the sentence"},
		{"answer = [{ text = \"x\", hold = [] }]\n[grid]\nload = [60]\n", "answer.0.hold: unknown key"},
		{"answer = [\"{calls[70]}\"]\n[grid]\nload = [60]\n", "answer.0: {calls[70]}: no cell has the values 70"},
	} {
		if _, err := Parse("x.toml", []byte(c.src), nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}
