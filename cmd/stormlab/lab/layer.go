package lab

import (
	"context"
	"time"
)

// layer is one service of the chain between the edge and the dependency:
// a real gRPC server whose handler makes the layer's call to the hop below
// with its client's policies. When the scenario cancels abandoned work
// (cancel_abandoned), the call below runs on the handler's context, so that
// gRPC cancels it when the caller above gives up and sends the caller's
// deadline down, as gRPC propagates deadlines. Otherwise the call below
// goes on after the caller above has gone, as the model's abandoned
// subtree does, bounded only by the user request's deadline, if any.
type layer struct {
	below  *caller
	cancel bool
}

func (l *layer) call(ctx context.Context, n note) (int64, error) {
	l.below.k.crossed(n.Due)
	if !l.cancel {
		ctx = context.WithoutCancel(ctx)
		if n.Deadline != 0 {
			var stop context.CancelFunc
			ctx, stop = context.WithDeadline(ctx, time.Unix(0, n.Deadline))
			defer stop()
		}
	}
	due, err := l.below.call(ctx, n)
	if err != nil {
		return due, passUp(ctx, err)
	}
	return due, nil
}
