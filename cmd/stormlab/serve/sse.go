package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// sse writes Server-Sent Events to a page: each event a name and a JSON
// document, flushed at once.
type sse struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// newSSE starts an event stream on w.
func newSSE(w http.ResponseWriter) *sse {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	return &sse{w: w, rc: http.NewResponseController(w)}
}

// send writes one event. A page that stops reading for 30 s is let go.
func (s *sse) send(e event) error {
	data, err := json.Marshal(e.Data)
	if err != nil {
		return err
	}
	_ = s.rc.SetWriteDeadline(time.Now().Add(30 * time.Second))
	if _, err := fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", e.Name, data); err != nil {
		return err
	}
	return s.rc.Flush()
}

// ping writes a comment, which the page ignores.
func (s *sse) ping() error {
	_ = s.rc.SetWriteDeadline(time.Now().Add(30 * time.Second))
	if _, err := fmt.Fprint(s.w, ": ping\n\n"); err != nil {
		return err
	}
	return s.rc.Flush()
}

// event is one message to a page.
type event struct {
	Name string // state, rows, end, around, problem
	Data any
}
