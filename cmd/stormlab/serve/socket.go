package serve

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/coder/websocket"
)

// socket is a stream's events over a WebSocket, each a JSON document
// {"event": name, "data": ...}: the page's transport. A browser opens at
// most six HTTP/1.1 connections to a host, which six event streams would
// fill, leaving a seventh tab without even its page; WebSockets are not
// counted among them, so every tab streams.
type socket struct {
	c   *websocket.Conn
	ctx context.Context // ends when the page closes the socket
}

// socketMessage is one event as the page reads it.
type socketMessage struct {
	Event string `json:"event"`
	Data  any    `json:"data"`
}

// send writes one event. A page that stops reading for 30 s is let go.
func (s *socket) send(e event) error {
	data, err := json.Marshal(socketMessage{e.Name, e.Data})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
	defer cancel()
	return s.c.Write(ctx, websocket.MessageText, data)
}

// ping checks that the page is still there.
func (s *socket) ping() error {
	ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
	defer cancel()
	return s.c.Ping(ctx)
}

// socketEvents streams the run to its page over a WebSocket. The page
// sends nothing; its closing the socket ends the stream.
func (s *Server) socketEvents(w http.ResponseWriter, r *http.Request, run *run) {
	// Handler has checked the Host and the Origin.
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 10)
	ctx := c.CloseRead(s.ctx)
	err = run.stream(ctx, &socket{c: c, ctx: ctx})
	switch {
	case err == nil && run.isClosed():
		err = &goneError{"this run has ended"}
	case err == nil:
		// Another page of the run took its stream over.
		_ = c.Close(websocket.StatusNormalClosure, "")
		return
	}
	_ = c.Close(websocket.StatusGoingAway, clip(err.Error(), 120))
}
