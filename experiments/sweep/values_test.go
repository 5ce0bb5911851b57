package sweep

import (
	"reflect"
	"testing"

	"github.com/stormlab/stormlab/model"
)

// TestValuesAssignBack: assigning every value Values lists, in order, to a
// default scenario with lists of the same lengths gives the scenario back.
func TestValuesAssignBack(t *testing.T) {
	sc := model.Default()
	sc.Engine = "stochastic"
	sc.Load = 42.5
	sc.Layers = 3
	sc.Layer = []model.Layer{model.DefaultLayer(), model.DefaultLayer()}
	sc.Layer[1].Attempts = 3
	sc.Layer[1].Backoff = model.Backoff{Kind: "exponential", Base: model.Seconds(0.25), Factor: 2, Cap: model.Seconds(2), Jitter: "full"}
	sc.Budget = model.Budget{Kind: "token_bucket", Scope: "chain", Params: model.TokenBucketParams{Ratio: 0.2, MaxTokens: 10, Deposit: "request"}}
	sc.Layer[0].Breaker.Kind, sc.Layer[0].Breaker.Params = "ratio", model.FailureRatioParams{Ratio: 0.3, MinCalls: 7, Window: model.Seconds(20)}
	sc.Fault = []model.Fault{{Kind: "spike", Start: model.Seconds(10), Length: model.Seconds(3), Factor: 2}}
	sc.Dependency.DropExpired = true

	back := model.Default()
	back.Layer = []model.Layer{model.DefaultLayer(), model.DefaultLayer()}
	back.Fault = []model.Fault{model.DefaultFault()}
	for _, s := range Values(sc) {
		if err := Assign(&back, s.Path, s.Value); err != nil {
			t.Fatalf("%s = %v: %v", s.Path, s.Value, err)
		}
	}
	if !reflect.DeepEqual(back, sc) {
		t.Errorf("assigned back\n got %+v\nwant %+v", back, sc)
	}
	for _, s := range Values(sc) {
		if s.Path == "layer.1.backoff.base" && s.Value != "250ms" {
			t.Errorf("a duration is its string: %#v", s.Value)
		}
		if s.Path == "layers" && s.Value != int64(3) {
			t.Errorf("an int is an int64: %#v", s.Value)
		}
	}
}
