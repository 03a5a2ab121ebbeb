package sg

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"sync"
	"unsafe"

	"sg.invalid/go/internal/capi"
)

// DataType is an element type, numbered as TensorFlow's DataType.
type DataType int

// The dtypes.
const (
	Float      DataType = 1
	Double     DataType = 2
	Int32      DataType = 3
	Uint8      DataType = 4
	Int16      DataType = 5
	Int8       DataType = 6
	String     DataType = 7
	Complex64  DataType = 8
	Int64      DataType = 9
	Bool       DataType = 10
	Qint8      DataType = 11
	Quint8     DataType = 12
	Qint32     DataType = 13
	Bfloat16   DataType = 14
	Qint16     DataType = 15
	Quint16    DataType = 16
	Uint16     DataType = 17
	Complex128 DataType = 18
	Half       DataType = 19
	Resource   DataType = 20
	Variant    DataType = 21
	Uint32     DataType = 22
	Uint64     DataType = 23
)

// The Go element type of each dtype (Half and Bfloat16 as their uint16 bits; the quantized
// types as their integer storage).
var goTypes = map[DataType]reflect.Type{
	Float: reflect.TypeOf(float32(0)), Double: reflect.TypeOf(float64(0)),
	Int32: reflect.TypeOf(int32(0)), Uint8: reflect.TypeOf(uint8(0)), Int16: reflect.TypeOf(int16(0)),
	Int8: reflect.TypeOf(int8(0)), String: reflect.TypeOf(""), Complex64: reflect.TypeOf(complex64(0)),
	Int64: reflect.TypeOf(int64(0)), Bool: reflect.TypeOf(false), Qint8: reflect.TypeOf(int8(0)),
	Quint8: reflect.TypeOf(uint8(0)), Qint32: reflect.TypeOf(int32(0)), Bfloat16: reflect.TypeOf(uint16(0)),
	Qint16: reflect.TypeOf(int16(0)), Quint16: reflect.TypeOf(uint16(0)), Uint16: reflect.TypeOf(uint16(0)),
	Complex128: reflect.TypeOf(complex128(0)), Half: reflect.TypeOf(uint16(0)),
	Uint32: reflect.TypeOf(uint32(0)), Uint64: reflect.TypeOf(uint64(0)),
}

// The dtype NewTensor picks for each Go element kind.
var kindTypes = map[reflect.Kind]DataType{
	reflect.Float32: Float, reflect.Float64: Double, reflect.Int32: Int32, reflect.Uint8: Uint8,
	reflect.Int16: Int16, reflect.Int8: Int8, reflect.String: String, reflect.Complex64: Complex64,
	reflect.Int64: Int64, reflect.Bool: Bool, reflect.Uint16: Uint16, reflect.Complex128: Complex128,
	reflect.Uint32: Uint32, reflect.Uint64: Uint64,
}

// Tensor is a typed, shaped block of native memory.
//
// The creator (or the receiver of Session.Run's results) closes it; a finalizer frees a
// forgotten one. Reads may run concurrently; Close must not race other calls.
type Tensor struct {
	mu    sync.Mutex
	c     capi.Struct_SS_SG_Tensor
	dtype DataType
	shape []int64
}

func newTensorFromHandle(c capi.Struct_SS_SG_Tensor) *Tensor {
	t := &Tensor{c: c, dtype: DataType(capi.SG_TensorType(c))}
	t.shape = make([]int64, capi.SG_NumDims(c))
	for i := range t.shape {
		t.shape[i] = capi.SG_Dim(c, i)
	}
	runtime.SetFinalizer(t, (*Tensor).finalize)
	return t
}

// NewTensor makes a tensor holding value: a scalar, or a (nested) slice or array of float32,
// float64, int8..int64, uint8..uint64, bool, string or complex64/128. The dtype follows the Go
// type (int and uint are not accepted: their size is the platform's). Ragged slices are an error.
func NewTensor(value any) (*Tensor, error) {
	v := reflect.ValueOf(value)
	if !v.IsValid() {
		return nil, newError(InvalidArgument, "cannot make a tensor of nil")
	}
	shape, elem, err := shapeOf(v)
	if err != nil {
		return nil, err
	}
	dtype, ok := kindTypes[elem.Kind()]
	if !ok {
		return nil, newError(InvalidArgument, fmt.Sprintf("no sg dtype holds %s values (use a sized type such as int32 or int64)", elem))
	}
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	var c capi.Struct_SS_SG_Tensor
	if dtype == String {
		if c, err = newStringTensor(v, shape, n); err != nil {
			return nil, err
		}
	} else {
		nbytes := n * int64(elem.Size())
		c = capi.SG_AllocateTensor(capi.Enum_SS_SG_DataType(dtype), shape, nbytes)
		if c == nil || c.Swigcptr() == 0 {
			return nil, newError(InvalidArgument, fmt.Sprintf(
				"cannot allocate a %d tensor of shape %v (%d bytes)", dtype, shape, nbytes))
		}
		if data := capi.Sgb_TensorView(c); len(data) > 0 {
			fill(v, len(shape), data, elem)
		}
	}
	t := &Tensor{c: c, dtype: dtype, shape: shape}
	runtime.SetFinalizer(t, (*Tensor).finalize)
	return t, nil
}

// shapeOf returns the dims of a nested slice/array value and its element type, checking that
// every row at a depth has the same length.
func shapeOf(v reflect.Value) ([]int64, reflect.Type, error) {
	var shape []int64
	t := v.Type()
	for t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	cur := v
	for cur.Kind() == reflect.Slice || cur.Kind() == reflect.Array {
		shape = append(shape, int64(cur.Len()))
		if cur.Len() == 0 {
			for tt := cur.Type().Elem(); tt.Kind() == reflect.Slice || tt.Kind() == reflect.Array; tt = tt.Elem() {
				shape = append(shape, 0)
			}
			break
		}
		cur = cur.Index(0)
	}
	if err := checkRagged(v, shape, 0, ""); err != nil {
		return nil, nil, err
	}
	return shape, t, nil
}

func checkRagged(v reflect.Value, shape []int64, depth int, path string) error {
	if depth == len(shape) {
		return nil
	}
	if int64(v.Len()) != shape[depth] {
		return newError(InvalidArgument, fmt.Sprintf("ragged slice: the row at %s has %d elements, the first row at that depth has %d",
			orTop(path), v.Len(), shape[depth]))
	}
	if depth+1 == len(shape) {
		return nil
	}
	for i := 0; i < v.Len(); i++ {
		if err := checkRagged(v.Index(i), shape, depth+1, fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	return nil
}

func orTop(path string) string {
	if path == "" {
		return "the top level"
	}
	return path
}

// walk calls f on every element, row-major.
func walk(v reflect.Value, rank int, f func(reflect.Value)) {
	if rank == 0 {
		f(v)
		return
	}
	for i := 0; i < v.Len(); i++ {
		walk(v.Index(i), rank-1, f)
	}
}

// fill copies the elements of v into data (native byte order): innermost slices of the dtype's
// own Go type in one copy, anything else element by element.
func fill(v reflect.Value, rank int, data []byte, elem reflect.Type) {
	size := int(elem.Size())
	at := 0
	var row func(v reflect.Value, rank int)
	row = func(v reflect.Value, rank int) {
		if rank == 1 && v.Kind() == reflect.Slice && v.Len() > 0 {
			n := v.Len() * size
			src := unsafe.Slice((*byte)(v.Index(0).Addr().UnsafePointer()), n)
			copy(data[at:at+n], src)
			at += n
			return
		}
		if rank == 0 {
			putScalar(v, data[at:at+size])
			at += size
			return
		}
		for i := 0; i < v.Len(); i++ {
			row(v.Index(i), rank-1)
		}
	}
	row(v, rank)
}

func putScalar(v reflect.Value, dst []byte) {
	p := unsafe.Pointer(&dst[0])
	switch v.Kind() {
	case reflect.Float32:
		*(*float32)(p) = float32(v.Float())
	case reflect.Float64:
		*(*float64)(p) = v.Float()
	case reflect.Int8:
		*(*int8)(p) = int8(v.Int())
	case reflect.Int16:
		*(*int16)(p) = int16(v.Int())
	case reflect.Int32:
		*(*int32)(p) = int32(v.Int())
	case reflect.Int64:
		*(*int64)(p) = v.Int()
	case reflect.Uint8:
		*(*uint8)(p) = uint8(v.Uint())
	case reflect.Uint16:
		*(*uint16)(p) = uint16(v.Uint())
	case reflect.Uint32:
		*(*uint32)(p) = uint32(v.Uint())
	case reflect.Uint64:
		*(*uint64)(p) = v.Uint()
	case reflect.Bool:
		*(*byte)(p) = boolByte(v.Bool())
	case reflect.Complex64:
		*(*complex64)(p) = complex64(v.Complex())
	case reflect.Complex128:
		*(*complex128)(p) = v.Complex()
	}
}

// newStringTensor makes a String tensor of the n strings of v through the C API
// (SG_NewStringTensor): their bytes laid end to end, since cgo cannot pass a []string to C.
func newStringTensor(v reflect.Value, shape []int64, n int64) (capi.Struct_SS_SG_Tensor, error) {
	if n > math.MaxInt32 { // the generated layer passes slice lengths as C ints
		return nil, newError(InvalidArgument,
			fmt.Sprintf("a String tensor of %d elements is too large", n))
	}
	var all []byte
	lengths := make([]int64, 0, n)
	walk(v, len(shape), func(e reflect.Value) {
		all = append(all, e.String()...)
		lengths = append(lengths, int64(e.Len()))
	})
	var err error
	c := capi.Sgb_NewStringTensor(shape, all, lengths, &err)
	if err != nil {
		return nil, fromStatus(err)
	}
	return c, nil
}

// stringElements reads the n elements of a String tensor through the C API (SG_StringTensorGet).
func stringElements(c capi.Struct_SS_SG_Tensor, n int64) ([]string, error) {
	out := make([]string, n)
	for i := range out {
		var err error
		b := capi.Sgb_StringTensorGet(c, int64(i), &err)
		if err != nil {
			return nil, fromStatus(err)
		}
		out[i] = string(b) // copies out of the tensor's memory
	}
	return out, nil
}

func (t *Tensor) handle() (capi.Struct_SS_SG_Tensor, error) {
	if t == nil {
		return nil, newError(InvalidArgument, "nil *Tensor")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.c == nil {
		return nil, newError(FailedPrecondition, "the Tensor is closed")
	}
	return t.c, nil
}

// DataType is the element type.
func (t *Tensor) DataType() DataType { return t.dtype }

// Shape is the dims (empty for a scalar).
func (t *Tensor) Shape() []int64 { return append([]int64(nil), t.shape...) }

// Value returns the contents as Go values: a scalar for rank 0, else nested slices of the
// dtype's Go type ([][]float32 for a FLOAT matrix). Half and Bfloat16 come as their uint16 bits.
func (t *Tensor) Value() (any, error) {
	c, err := t.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(t)
	elem, ok := goTypes[t.dtype]
	if !ok {
		return nil, newError(Unimplemented, fmt.Sprintf("%d tensors have no Go value", t.dtype))
	}
	n := int64(1)
	for _, d := range t.shape {
		n *= d
	}
	if t.dtype == String {
		strs, err := stringElements(c, n)
		if err != nil {
			return nil, err
		}
		i := 0
		return build(t.shape, elem, func(row reflect.Value) {
			for j := 0; j < row.Len(); j++ {
				row.Index(j).SetString(strs[i])
				i++
			}
		}).Interface(), nil
	}
	data := capi.Sgb_TensorView(c)
	at := 0
	size := int(elem.Size())
	return build(t.shape, elem, func(row reflect.Value) {
		nb := row.Len() * size
		if nb == 0 {
			return
		}
		dst := unsafe.Slice((*byte)(row.Index(0).Addr().UnsafePointer()), nb)
		copy(dst, data[at:at+nb])
		at += nb
	}).Interface(), nil
}

// build makes nested slices of the given shape and calls fill on each innermost slice, row-major
// (for a scalar, on a one-element slice whose element is returned).
func build(shape []int64, elem reflect.Type, fill func(row reflect.Value)) reflect.Value {
	if len(shape) == 0 {
		row := reflect.MakeSlice(reflect.SliceOf(elem), 1, 1)
		fill(row)
		return row.Index(0)
	}
	typ := elem
	for range shape {
		typ = reflect.SliceOf(typ)
	}
	var make1 func(typ reflect.Type, dims []int64) reflect.Value
	make1 = func(typ reflect.Type, dims []int64) reflect.Value {
		v := reflect.MakeSlice(typ, int(dims[0]), int(dims[0]))
		if len(dims) == 1 {
			fill(v)
			return v
		}
		for i := 0; i < v.Len(); i++ {
			v.Index(i).Set(make1(typ.Elem(), dims[1:]))
		}
		return v
	}
	return make1(typ, shape)
}

func (t *Tensor) finalize() { t.Close() }

// Close frees the native memory (idempotent).
func (t *Tensor) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.c != nil {
		capi.SG_DeleteTensor(t.c)
		t.c = nil
	}
	return nil
}
