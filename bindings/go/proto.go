package sg

import (
	"fmt"
	"sort"
)

// Protobuf wire format by hand, for the typed options and RunMetadata: the binding has no
// protobuf dependency. Writers emit fields in the order called (callers use field-number order,
// as protobuf's serializers do); readers skip fields they do not know.

const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

type protoWriter struct{ b []byte }

func (w *protoWriter) rawVarint(v uint64) {
	for v >= 0x80 {
		w.b = append(w.b, byte(v)|0x80)
		v >>= 7
	}
	w.b = append(w.b, byte(v))
}

// varint writes an int32/int64/bool/enum field; negative values take ten bytes.
func (w *protoWriter) varint(field int, v int64) {
	w.rawVarint(uint64(field)<<3 | wireVarint)
	w.rawVarint(uint64(v))
}

func (w *protoWriter) bytes(field int, v []byte) {
	w.rawVarint(uint64(field)<<3 | wireBytes)
	w.rawVarint(uint64(len(v)))
	w.b = append(w.b, v...)
}

type protoReader struct {
	what string
	b    []byte
	pos  int
	wire int
	err  error
}

func (r *protoReader) fail(why string) {
	if r.err == nil {
		r.err = newError(InvalidArgument, fmt.Sprintf("malformed %s at byte %d: %s", r.what, r.pos, why))
	}
	r.pos = len(r.b)
}

func (r *protoReader) rawVarint() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		if r.pos >= len(r.b) {
			r.fail("truncated varint")
			return 0
		}
		c := r.b[r.pos]
		r.pos++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	r.fail("varint longer than ten bytes")
	return 0
}

// next returns the next field's number, or 0 at the end (or after an error).
func (r *protoReader) next() int {
	if r.err != nil || r.pos >= len(r.b) {
		return 0
	}
	tag := r.rawVarint()
	r.wire = int(tag & 7)
	field := int(tag >> 3)
	if r.err == nil && field <= 0 {
		r.fail(fmt.Sprintf("field number %d", field))
		return 0
	}
	return field
}

func (r *protoReader) int64() int64 {
	if r.wire != wireVarint {
		r.fail(fmt.Sprintf("wire type %d, expected a varint", r.wire))
		return 0
	}
	return int64(r.rawVarint())
}

func (r *protoReader) bytes() []byte {
	if r.wire != wireBytes {
		r.fail(fmt.Sprintf("wire type %d, expected length-delimited", r.wire))
		return nil
	}
	n := r.rawVarint()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)-r.pos) {
		r.fail(fmt.Sprintf("length %d past the end", n))
		return nil
	}
	v := r.b[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return v
}

// message returns a reader of the embedded message in the current field; its errors are
// reported through this reader's err when done (see sub).
func (r *protoReader) message(what string) *protoReader {
	return &protoReader{what: what, b: r.bytes()}
}

func (r *protoReader) skip() {
	switch r.wire {
	case wireVarint:
		r.rawVarint()
	case wireFixed64, wireFixed32:
		n := 8
		if r.wire == wireFixed32 {
			n = 4
		}
		if n > len(r.b)-r.pos {
			r.fail("field past the end")
			return
		}
		r.pos += n
	case wireBytes:
		r.bytes()
	default:
		r.fail(fmt.Sprintf("wire type %d", r.wire))
	}
}

// join keeps the first error of an embedded message's reader in r.
func (r *protoReader) join(sub *protoReader) {
	if sub.err != nil && r.err == nil {
		r.err = sub.err
	}
}

func sortedKeys(m map[string]int32) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
