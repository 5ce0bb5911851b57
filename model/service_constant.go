package model

// constantService is the service time of today's capacity and latency
// servers: every call takes the dependency's latency.
type constantService struct{ d float64 }

func constantServiceKind() serviceKind {
	return serviceKind{Kind: Kind{Name: "constant", Doc: "every call takes dependency.latency", Engines: OnAll},
		make: func(_ any, latency float64) serviceLaw { return constantService{latency} }}
}

func (c constantService) survival(x float64) float64 {
	if x < c.d {
		return 1
	}
	return 0
}

func (c constantService) upper(float64) float64 { return c.d }
func (c constantService) mean() float64         { return c.d }
func (c constantService) at() float64           { return c.d }
