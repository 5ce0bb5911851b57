package lab

import (
	"context"
	"encoding/binary"
	"fmt"
	"strconv"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// hopMethod is the one RPC of the lab: every layer's service and the
// dependency answer it, so a layer's client calls the service below it the
// same way whatever that is.
const hopMethod = "/stormlab.lab.Hop/Call"

// note is what a call carries down the chain: the user request it serves,
// the client that sent it, whether the request is flaky (its first tries
// at the dependency fail), the request's deadline (Unix nanoseconds; 0
// for none), which a layer that does not cancel abandoned work still
// honours, and the tick the call is due at the server it is sent to: the
// tick the model has it arrive in (−1: not known, as for the tries of
// gRPC's own retries, which all carry the first's body). Encoded in the
// call's 29-byte body.
type note struct {
	Request  uint64
	Client   int32
	Flaky    bool
	Deadline int64
	Due      int64
}

// noteLen is the length of an encoded note.
const noteLen = 29

// frame is a call's body and its answer's: raw bytes, marshalled by
// rawCodec. There is no protobuf in the lab: the service is defined by
// hand (hopService) and its messages are these bytes.
type frame []byte

func (n note) frame() frame {
	b := make(frame, noteLen)
	binary.LittleEndian.PutUint64(b, n.Request)
	binary.LittleEndian.PutUint32(b[8:], uint32(n.Client))
	if n.Flaky {
		b[12] = 1
	}
	binary.LittleEndian.PutUint64(b[13:], uint64(n.Deadline))
	binary.LittleEndian.PutUint64(b[21:], uint64(n.Due))
	return b
}

func readNote(b frame) (note, error) {
	if len(b) != noteLen {
		return note{}, fmt.Errorf("lab: a call's body is %d bytes, got %d", noteLen, len(b))
	}
	return note{Request: binary.LittleEndian.Uint64(b), Client: int32(binary.LittleEndian.Uint32(b[8:])), Flaky: b[12] == 1,
		Deadline: int64(binary.LittleEndian.Uint64(b[13:])), Due: int64(binary.LittleEndian.Uint64(b[21:]))}, nil
}

// rawCodec is gRPC's codec for frames, forced on the lab's servers and
// client connections (grpc.ForceServerCodec, grpc.ForceCodec) rather than
// registered process-wide.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) {
	f, ok := v.(*frame)
	if !ok {
		return nil, fmt.Errorf("lab: cannot marshal %T", v)
	}
	return *f, nil
}

func (rawCodec) Unmarshal(data []byte, v any) error {
	f, ok := v.(*frame)
	if !ok {
		return fmt.Errorf("lab: cannot unmarshal into %T", v)
	}
	*f = append((*f)[:0], data...)
	return nil
}

func (rawCodec) Name() string { return "stormlab-lab" }

// hopServer answers a hop's calls: a layer's service or the dependency.
// Besides the answer, call gives the tick the answer is due at the caller:
// the tick the model has it seen in (−1: no answer, the caller has gone).
type hopServer interface {
	call(ctx context.Context, n note) (due int64, err error)
}

// dueKey is the trailer that carries an answer's due tick to the caller.
const dueKey = "stormlab-due"

// dueOf reads an answer's due tick from its trailer: −1 when there is none
// (an answer the caller did not wait for, or a try gRPC itself gave up).
func dueOf(trailer metadata.MD) int64 {
	if v := trailer.Get(dueKey); len(v) == 1 {
		if t, err := strconv.ParseInt(v[0], 10, 64); err == nil {
			return t
		}
	}
	return -1
}

// hopService describes the hop service by hand, as protoc would from a
// one-method .proto.
func hopService() *grpc.ServiceDesc {
	return &grpc.ServiceDesc{
		ServiceName: "stormlab.lab.Hop",
		HandlerType: (*hopServer)(nil),
		Methods: []grpc.MethodDesc{{
			MethodName: "Call",
			Handler: func(srv any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
				var in frame
				if err := dec(&in); err != nil {
					return nil, err
				}
				n, err := readNote(in)
				if err != nil {
					return nil, err
				}
				due, err := srv.(hopServer).call(ctx, n)
				if due >= 0 {
					grpc.SetTrailer(ctx, metadata.Pairs(dueKey, strconv.FormatInt(due, 10)))
				}
				if err != nil {
					return nil, err
				}
				out := frame{}
				return &out, nil
			},
		}},
		Metadata: "stormlab/lab/hop",
	}
}
