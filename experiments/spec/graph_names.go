package spec

// GraphNames are a service graph's names as its file writes them, in file
// order: what the words for a search over a graph key need
// (graph.service.N names service N, graph.edge.N the call of edge N).
type GraphNames struct {
	Services []string
	// Edges are each edge's caller and the service it calls; the caller
	// of an entry point is "" (the users).
	Edges []Edge
}

// Edge is a call of a service graph: the caller's name ("" for the users)
// and the called service's.
type Edge struct{ From, To string }
