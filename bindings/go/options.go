package sg

import "fmt"

// ConfigProto's field numbers (TensorFlow's config.proto).
const (
	configDeviceCount          = 1
	configIntraOpThreads       = 2
	configInterOpThreads       = 5
	configAllowSoftPlacement   = 7
	configLogDevicePlacement   = 8
	configOperationTimeoutInMs = 11
)

// SessionOptions configure NewSession and LoadSavedModel: the target, and a ConfigProto made of
// the typed fields below over the serialized Config.
//
// The typed fields have the meaning of TensorFlow's ConfigProto fields of the same names. As
// proto3 does, a field at its zero value is not written, and so does not override Config. The
// encoded ConfigProto (ConfigProto) is Config followed by the non-zero typed fields in
// field-number order; protobuf parses concatenated messages as one, a later field winning, so a
// typed field overrides the same field of Config.
type SessionOptions struct {
	// Target is "" for this process or "grpc://host:port" for a cluster.
	Target string
	// Config is a serialized ConfigProto (nil: the default) that the typed fields override.
	Config []byte

	// IntraOpParallelismThreads: threads one kernel may use (0: sg picks the number of cores).
	IntraOpParallelismThreads int32
	// InterOpParallelismThreads: threads running kernels side by side (0: sg picks; negative:
	// each step runs in its caller's thread).
	InterOpParallelismThreads int32
	// OperationTimeoutInMs: a step longer than this fails with DeadlineExceeded (0: none).
	OperationTimeoutInMs int64
	// DeviceCount: at most this many devices of each type, e.g. {"CPU": 2}.
	DeviceCount map[string]int32
	// AllowSoftPlacement: a node asking for a device that is absent runs elsewhere.
	AllowSoftPlacement bool
	// LogDevicePlacement: log each node's device when a step is placed.
	LogDevicePlacement bool
}

// ConfigProto returns the serialized ConfigProto these options give a session (see the type's
// comment). InvalidArgument for a negative thread count (intra-op), timeout or device count, or
// an empty device type.
func (o *SessionOptions) ConfigProto() ([]byte, error) {
	if o.IntraOpParallelismThreads < 0 {
		return nil, newError(InvalidArgument, fmt.Sprintf("IntraOpParallelismThreads %d < 0", o.IntraOpParallelismThreads))
	}
	if o.OperationTimeoutInMs < 0 {
		return nil, newError(InvalidArgument, fmt.Sprintf("OperationTimeoutInMs %d < 0", o.OperationTimeoutInMs))
	}
	w := protoWriter{b: append([]byte(nil), o.Config...)}
	for _, k := range sortedKeys(o.DeviceCount) {
		n := o.DeviceCount[k]
		if k == "" || n < 0 {
			return nil, newError(InvalidArgument, fmt.Sprintf("DeviceCount[%q] = %d: empty type or negative count", k, n))
		}
		var e protoWriter // a map entry: key = 1, value = 2
		e.bytes(1, []byte(k))
		if n != 0 {
			e.varint(2, int64(n))
		}
		w.bytes(configDeviceCount, e.b)
	}
	if o.IntraOpParallelismThreads != 0 {
		w.varint(configIntraOpThreads, int64(o.IntraOpParallelismThreads))
	}
	if o.InterOpParallelismThreads != 0 {
		w.varint(configInterOpThreads, int64(o.InterOpParallelismThreads))
	}
	if o.AllowSoftPlacement {
		w.varint(configAllowSoftPlacement, 1)
	}
	if o.LogDevicePlacement {
		w.varint(configLogDevicePlacement, 1)
	}
	if o.OperationTimeoutInMs != 0 {
		w.varint(configOperationTimeoutInMs, o.OperationTimeoutInMs)
	}
	return w.b, nil
}

// TraceLevel is RunOptions.TraceLevel: how much a step records in its RunMetadata. sg records
// the same for every level above NoTrace.
type TraceLevel int32

// The trace levels, numbered as TensorFlow's.
const (
	NoTrace       TraceLevel = 0
	SoftwareTrace TraceLevel = 1
	HardwareTrace TraceLevel = 2
	FullTrace     TraceLevel = 3
)

// RunOptions are the options of one run (RunWithOptions), as TensorFlow's RunOptions. Zero
// values are TensorFlow's defaults.
type RunOptions struct {
	// TraceLevel above NoTrace fills RunMetadata.StepStats.
	TraceLevel TraceLevel
	// TimeoutInMs: the step fails with DeadlineExceeded past it (0: the session's timeout).
	TimeoutInMs int64
	// OutputPartitionGraphs fills RunMetadata.PartitionGraphs.
	OutputPartitionGraphs bool
}

// Bytes returns the serialized RunOptions (fields in field-number order, zero values left out).
func (o *RunOptions) Bytes() []byte {
	var w protoWriter
	if o.TraceLevel != NoTrace {
		w.varint(1, int64(o.TraceLevel))
	}
	if o.TimeoutInMs != 0 {
		w.varint(2, o.TimeoutInMs)
	}
	if o.OutputPartitionGraphs {
		w.varint(5, 1)
	}
	return w.b
}
