package sg

// RunMetadata is a typed view of a serialized TensorFlow RunMetadata (config.proto), read by hand
// from the wire format: the step statistics of a traced run (step_stats.proto) and the partition
// graphs. Fields sg does not fill are zero; fields this view does not name are skipped.
type RunMetadata struct {
	// StepStats has one entry per device that ran nodes (empty without a trace level).
	StepStats []DeviceStepStats
	// PartitionGraphs are serialized GraphDefs, with RunOptions.OutputPartitionGraphs.
	PartitionGraphs [][]byte
}

// DeviceStepStats is what ran on one device.
type DeviceStepStats struct {
	// Device is the full name, e.g. "/job:localhost/replica:0/task:0/device:CPU:0".
	Device    string
	NodeStats []NodeExecStats
	// ThreadNames maps thread ids to names, where the runtime named its threads.
	ThreadNames map[uint32]string
}

// NodeExecStats is one node's run. AllStartMicros counts from the Unix epoch; the Rel times
// from AllStartMicros.
type NodeExecStats struct {
	NodeName string
	// TimelineLabel is "name = Op(inputs...)".
	TimelineLabel    string
	AllStartMicros   int64
	OpStartRelMicros int64
	OpEndRelMicros   int64
	AllEndRelMicros  int64
	ScheduledMicros  int64
	AllStartNanos    int64
	OpStartRelNanos  int64
	OpEndRelNanos    int64
	AllEndRelNanos   int64
	// ThreadID is the thread that ran the kernel.
	ThreadID uint32
	Outputs  []NodeOutput
	Memory   []AllocatorMemoryUsed
	// TempMemorySize and PersistentMemorySize are MemoryStats' scratch and kept bytes.
	TempMemorySize       int64
	PersistentMemorySize int64
}

// OpType is the op type taken from the timeline label ("" when it has none).
func (n *NodeExecStats) OpType() string {
	l := n.TimelineLabel
	for i := 0; i+3 <= len(l); i++ {
		if l[i:i+3] == " = " {
			for j := i + 3; j < len(l); j++ {
				if l[j] == '(' {
					return l[i+3 : j]
				}
			}
			return ""
		}
	}
	return ""
}

// NodeOutput describes one output tensor of a node.
type NodeOutput struct {
	Slot     int32
	DataType DataType
	// Shape of the tensor (UnknownRank when not recorded so).
	Shape          Shape
	RequestedBytes int64
	AllocatedBytes int64
	AllocatorName  string
}

// AllocatorMemoryUsed is one allocator's use by one node.
type AllocatorMemoryUsed struct {
	AllocatorName       string
	TotalBytes          int64
	PeakBytes           int64
	LiveBytes           int64
	AllocatorBytesInUse int64
}

// ParseRunMetadata reads a serialized RunMetadata (empty: an empty one). InvalidArgument naming
// the message and the byte offset when the bytes are not wire format.
func ParseRunMetadata(b []byte) (*RunMetadata, error) {
	md := &RunMetadata{}
	r := &protoReader{what: "RunMetadata", b: b}
	for f := r.next(); f != 0; f = r.next() {
		switch f {
		case 1:
			s := r.message("StepStats")
			for g := s.next(); g != 0; g = s.next() {
				if g == 1 {
					d := s.message("DeviceStepStats")
					md.StepStats = append(md.StepStats, readDeviceStepStats(d))
					s.join(d)
				} else {
					s.skip()
				}
			}
			r.join(s)
		case 3:
			md.PartitionGraphs = append(md.PartitionGraphs, append([]byte{}, r.bytes()...))
		default:
			r.skip()
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return md, nil
}

func readDeviceStepStats(r *protoReader) DeviceStepStats {
	d := DeviceStepStats{ThreadNames: map[uint32]string{}}
	for f := r.next(); f != 0; f = r.next() {
		switch f {
		case 1:
			d.Device = string(r.bytes())
		case 2:
			n := r.message("NodeExecStats")
			d.NodeStats = append(d.NodeStats, readNodeExecStats(n))
			r.join(n)
		case 3:
			e := r.message("DeviceStepStats.thread_names")
			var key uint32
			var value string
			for g := e.next(); g != 0; g = e.next() {
				switch g {
				case 1:
					key = uint32(e.int64())
				case 2:
					value = string(e.bytes())
				default:
					e.skip()
				}
			}
			r.join(e)
			d.ThreadNames[key] = value
		default:
			r.skip()
		}
	}
	return d
}

func readNodeExecStats(r *protoReader) NodeExecStats {
	var n NodeExecStats
	for f := r.next(); f != 0; f = r.next() {
		switch f {
		case 1:
			n.NodeName = string(r.bytes())
		case 2:
			n.AllStartMicros = r.int64()
		case 3:
			n.OpStartRelMicros = r.int64()
		case 4:
			n.OpEndRelMicros = r.int64()
		case 5:
			n.AllEndRelMicros = r.int64()
		case 6:
			m := r.message("AllocatorMemoryUsed")
			n.Memory = append(n.Memory, readAllocatorMemoryUsed(m))
			r.join(m)
		case 7:
			o := r.message("NodeOutput")
			n.Outputs = append(n.Outputs, readNodeOutput(o))
			r.join(o)
		case 8:
			n.TimelineLabel = string(r.bytes())
		case 9:
			n.ScheduledMicros = r.int64()
		case 10:
			n.ThreadID = uint32(r.int64())
		case 12:
			m := r.message("MemoryStats")
			for g := m.next(); g != 0; g = m.next() {
				switch g {
				case 1:
					n.TempMemorySize = m.int64()
				case 3:
					n.PersistentMemorySize = m.int64()
				default:
					m.skip()
				}
			}
			r.join(m)
		case 13:
			n.AllStartNanos = r.int64()
		case 14:
			n.OpStartRelNanos = r.int64()
		case 15:
			n.OpEndRelNanos = r.int64()
		case 16:
			n.AllEndRelNanos = r.int64()
		default:
			r.skip()
		}
	}
	return n
}

func readNodeOutput(r *protoReader) NodeOutput {
	var o NodeOutput
	for f := r.next(); f != 0; f = r.next() {
		switch f {
		case 1:
			o.Slot = int32(r.int64())
		case 3:
			d := r.message("TensorDescription")
			for g := d.next(); g != 0; g = d.next() {
				switch g {
				case 1:
					o.DataType = DataType(d.int64())
				case 2:
					s := d.message("TensorShapeProto")
					o.Shape = readShape(s)
					d.join(s)
				case 4:
					a := d.message("AllocationDescription")
					for h := a.next(); h != 0; h = a.next() {
						switch h {
						case 1:
							o.RequestedBytes = a.int64()
						case 2:
							o.AllocatedBytes = a.int64()
						case 3:
							o.AllocatorName = string(a.bytes())
						default:
							a.skip()
						}
					}
					d.join(a)
				default:
					d.skip()
				}
			}
			r.join(d)
		default:
			r.skip()
		}
	}
	return o
}

// readShape reads a TensorShapeProto: dim = 2 (Dim {size = 1}), unknown_rank = 3.
func readShape(r *protoReader) Shape {
	s := Shape{Dims: []int64{}}
	for f := r.next(); f != 0; f = r.next() {
		switch f {
		case 2:
			dim := r.message("TensorShapeProto.Dim")
			var size int64
			for g := dim.next(); g != 0; g = dim.next() {
				if g == 1 {
					size = dim.int64()
				} else {
					dim.skip()
				}
			}
			r.join(dim)
			s.Dims = append(s.Dims, size)
		case 3:
			s.UnknownRank = r.int64() != 0
		default:
			r.skip()
		}
	}
	if s.UnknownRank {
		s.Dims = nil
	}
	return s
}

func readAllocatorMemoryUsed(r *protoReader) AllocatorMemoryUsed {
	var m AllocatorMemoryUsed
	for f := r.next(); f != 0; f = r.next() {
		switch f {
		case 1:
			m.AllocatorName = string(r.bytes())
		case 2:
			m.TotalBytes = r.int64()
		case 3:
			m.PeakBytes = r.int64()
		case 4:
			m.LiveBytes = r.int64()
		case 5:
			m.AllocatorBytesInUse = r.int64()
		default:
			r.skip()
		}
	}
	return m
}
