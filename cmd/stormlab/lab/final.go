package lab

import (
	"context"
	"errors"
	"strconv"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// final is an answer no caller retries, as the model's fatal and pushback
// answers: on the wire, a non-retryable status (INVALID_ARGUMENT, a 4xx:
// fatal_share's errors), or UNAVAILABLE with gRPC's pushback trailer
// grpc-retry-pushback-ms set to −1, which tells a gRPC client not to retry
// (gRFC A6): the dependency's "overloaded, don't retry". A layer that gets
// one passes it on up, as the model's answer not to retry stays one on its
// way up.
type final struct {
	pushback bool
	err      error
}

func (f *final) Error() string { return f.err.Error() }
func (f *final) Unwrap() error { return f.err }

// finalNote is the report's note on how the lab answers not to retry.
const finalNote = "An answer not to retry is INVALID_ARGUMENT where the model's dependency answers a 4xx (its fatal share of the error answers), which neither failsafe-go's retry policy as the lab builds it nor gRPC's retryPolicy (retryableStatusCodes UNAVAILABLE) retries, and UNAVAILABLE with gRPC's grpc-retry-pushback-ms trailer at −1 where it pushes back, which gRPC's own retries honour and the lab's failsafe-go clients read; a layer passes either on up. gRPC's retry throttling takes a token for a call pushed back, where the model's grpc budget is not told of it, so the lab refuses pushback with the grpc budget"

// pushbackKey is gRPC's retry pushback trailer.
const pushbackKey = "grpc-retry-pushback-ms"

// fatal is the dependency's answer a retry cannot fix.
func fatal(why string) error { return status.Error(codes.InvalidArgument, why) }

// pushback answers a server's call with "overloaded, don't retry": the
// trailer set on its stream, and UNAVAILABLE.
func pushback(ctx context.Context, why string) error {
	grpc.SetTrailer(ctx, metadata.Pairs(pushbackKey, "-1"))
	return unavailable(why)
}

// finalOf reads a call's error and trailer: a *final for an answer not to
// retry, the error itself otherwise.
func finalOf(err error, trailer metadata.MD) error {
	if err == nil {
		return nil
	}
	if status.Code(err) == codes.InvalidArgument {
		return &final{err: err}
	}
	if v := trailer.Get(pushbackKey); len(v) == 1 {
		if ms, e := strconv.Atoi(v[0]); e != nil || ms < 0 {
			return &final{pushback: true, err: err}
		}
	}
	return err
}

// passUp is the answer a layer gives its caller when its call below
// failed: the same answer not to retry, or UNAVAILABLE.
func passUp(ctx context.Context, err error) error {
	var f *final
	switch {
	case !errors.As(err, &f):
		return unavailable("the call below failed")
	case f.pushback:
		return pushback(ctx, "the call below was pushed back")
	}
	return fatal("the call below failed for good")
}
