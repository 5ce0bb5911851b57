package sweep_test

import (
	"context"
	"fmt"
	"log"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// A grid built without any file: the 30-second blip under two policies,
// over two loads. One cell is built and run on its own, as a boundary
// search would, with the seed it has in the grid.
func ExampleGrid_Cell() {
	base := model.Default() // capacity 100/s, timeout 1 s, an hour
	base.Fault = []model.Fault{{Kind: "outage", Start: model.Seconds(60), Length: model.Seconds(30), Factor: 1}}
	load := sweep.Axis{Name: "load", Path: "load", Key: "load"}
	for _, l := range []int64{70, 90} {
		v, err := sweep.NewValue(l, false)
		if err != nil {
			log.Fatal(err)
		}
		load.Values = append(load.Values, v)
	}
	g := &sweep.Grid{Base: base, Seed: 1, Axes: []sweep.Axis{
		sweep.SetAxis("policy", "policy", []sweep.Set{
			{Name: "no retries", Overrides: []sweep.Override{{Path: "layer.*.attempts", Value: int64(1)}}},
			{Name: "27 attempts", Overrides: []sweep.Override{{Path: "layer.*.attempts", Value: int64(27)}}},
		}),
		load,
	}}
	c, err := g.Cell([]sweep.Value{g.Axes[0].Values[0], g.Axes[1].Values[0]}, nil)
	if err != nil {
		log.Fatal(err)
	}
	res, err := sweep.Run(context.Background(), []sweep.Cell{c}, sweep.Options{Workers: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d attempts per request, healthy queue up to %v calls\n", c.Label(), c.Plan.Allowed, c.Plan.Health.Limit)
	fmt.Printf("recovered %v, %v s after the fault\n", res[0].Recovered(), res[0].RecoveryS)
	// Output:
	// policy=no retries, load=70: 1 attempts per request, healthy queue up to 100 calls
	// recovered true, 66 s after the fault
}
