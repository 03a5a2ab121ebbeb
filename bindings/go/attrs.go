package sg

import (
	"fmt"
	"runtime"

	"sg.invalid/go/internal/capi"
)

// AttrType is the kind of value an attr holds (TensorFlow's TF_AttrType numbers).
type AttrType int

// The attr kinds.
const (
	AttrTypeString      AttrType = 0
	AttrTypeInt         AttrType = 1
	AttrTypeFloat       AttrType = 2
	AttrTypeBool        AttrType = 3
	AttrTypeType        AttrType = 4
	AttrTypeShape       AttrType = 5
	AttrTypeTensor      AttrType = 6
	AttrTypePlaceholder AttrType = 7
	AttrTypeFunc        AttrType = 8
)

// AttrMetadata describes an attr, as TensorFlow's TF_AttrMetadata.
type AttrMetadata struct {
	IsList bool
	// ListSize is the number of values of a list, -1 for a single value.
	ListSize int64
	// Type is the kind of each value (for an empty list, the kind the OpDef declares).
	Type AttrType
	// TotalSize is, for a string, its length in bytes (list: the sum); for a shape, its rank (-1
	// unknown; list: the sum of the known ranks); -1 for the other kinds.
	TotalSize int64
}

// AttrMetadata describes attr name of the operation. NotFound when it has no such attr.
func (op *Operation) AttrMetadata(name string) (AttrMetadata, error) {
	if _, err := op.g.acquire(); err != nil {
		return AttrMetadata{}, err
	}
	defer op.g.release()
	return op.attrMetadata(name)
}

func (op *Operation) attrMetadata(name string) (AttrMetadata, error) {
	m := make([]int64, 4)
	var err error
	capi.Sgb_OperationGetAttrMetadata(op.c, name, m, &err)
	if err != nil {
		return AttrMetadata{}, fromStatus(err)
	}
	return AttrMetadata{IsList: m[0] != 0, ListSize: m[1], Type: AttrType(m[2]), TotalSize: m[3]}, nil
}

// Attr returns the value of attr name, as TensorFlow's Go (*Operation).Attr: by the attr's kind
// a string, []string, int64, []int64, float32, []float32, bool, []bool, DataType, []DataType,
// Shape, []Shape, *Tensor or []*Tensor (tensors are new; the caller closes them). An empty list
// comes back as an empty slice of the kind the OpDef declares.
//
// Errors: NotFound when the operation has no such attr; Unimplemented for func and placeholder
// attrs; FailedPrecondition once the graph is closed. Threads: safe.
func (op *Operation) Attr(name string) (interface{}, error) {
	if _, err := op.g.acquire(); err != nil {
		return nil, err
	}
	defer op.g.release()
	defer runtime.KeepAlive(op)
	m, err := op.attrMetadata(name)
	if err != nil {
		return nil, err
	}
	n := m.ListSize
	if n < 0 {
		n = 0
	}
	c := op.c
	switch m.Type {
	case AttrTypeString:
		if !m.IsList {
			buf := capi.Sgb_OperationGetAttrString(c, name, &err)
			if err != nil {
				return nil, fromStatus(err)
			}
			defer capi.SG_DeleteBuffer(buf)
			return string(capi.Sgb_BufferView(buf)), nil
		}
		lengths := make([]int64, n)
		buf := capi.Sgb_OperationGetAttrStringList(c, name, lengths, &err)
		if err != nil {
			return nil, fromStatus(err)
		}
		defer capi.SG_DeleteBuffer(buf)
		all := capi.Sgb_BufferView(buf)
		out := make([]string, n)
		at := int64(0)
		for i, l := range lengths {
			out[i] = string(all[at : at+l])
			at += l
		}
		return out, nil
	case AttrTypeInt:
		if !m.IsList {
			v := capi.Sgb_OperationGetAttrInt(c, name, &err)
			return v, fromStatus(err)
		}
		v := make([]int64, n)
		capi.Sgb_OperationGetAttrIntList(c, name, v, &err)
		return v, fromStatus(err)
	case AttrTypeFloat:
		if !m.IsList {
			v := capi.Sgb_OperationGetAttrFloat(c, name, &err)
			return v, fromStatus(err)
		}
		v := make([]float32, n)
		capi.Sgb_OperationGetAttrFloatList(c, name, v, &err)
		return v, fromStatus(err)
	case AttrTypeBool:
		if !m.IsList {
			v := capi.Sgb_OperationGetAttrBool(c, name, &err)
			return v != 0, fromStatus(err)
		}
		raw := make([]int64, n)
		capi.Sgb_OperationGetAttrBoolList(c, name, raw, &err)
		v := make([]bool, n)
		for i, b := range raw {
			v[i] = b != 0
		}
		return v, fromStatus(err)
	case AttrTypeType:
		if !m.IsList {
			v := capi.Sgb_OperationGetAttrType(c, name, &err)
			return DataType(v), fromStatus(err)
		}
		raw := make([]int64, n)
		capi.Sgb_OperationGetAttrTypeList(c, name, raw, &err)
		v := make([]DataType, n)
		for i, t := range raw {
			v[i] = DataType(t)
		}
		return v, fromStatus(err)
	case AttrTypeShape:
		if !m.IsList {
			if m.TotalSize < 0 {
				return Shape{UnknownRank: true}, nil
			}
			dims := make([]int64, m.TotalSize)
			capi.Sgb_OperationGetAttrShape(c, name, dims, &err)
			return Shape{Dims: dims}, fromStatus(err)
		}
		ranks := make([]int64, n)
		total := m.TotalSize
		if total < 0 {
			total = 0
		}
		dims := make([]int64, total)
		capi.Sgb_OperationGetAttrShapeList(c, name, ranks, dims, &err)
		if err != nil {
			return nil, fromStatus(err)
		}
		shapes := make([]Shape, n)
		at := int64(0)
		for i, r := range ranks {
			if r < 0 {
				shapes[i] = Shape{UnknownRank: true}
				continue
			}
			shapes[i] = Shape{Dims: append([]int64{}, dims[at:at+r]...)}
			at += r
		}
		return shapes, nil
	case AttrTypeTensor:
		if !m.IsList {
			t := capi.Sgb_OperationGetAttrTensor(c, name, &err)
			if err != nil {
				return nil, fromStatus(err)
			}
			return newTensorFromHandle(t), nil
		}
		handles := make([]int64, n)
		capi.Sgb_OperationGetAttrTensorList(c, name, handles, &err)
		if err != nil {
			return nil, fromStatus(err)
		}
		return tensorsFromHandles(handles), nil
	default:
		return nil, newError(Unimplemented, fmt.Sprintf("attr '%s' of operation '%s' is of kind %d, which Attr does not read", name, capi.SG_OperationName(c), m.Type))
	}
}
