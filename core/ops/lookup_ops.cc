// Lookup tables (TensorFlow's lookup_ops): HashTableV2 (filled once by an initializer) and
// MutableHashTableV2, resources named by DT_RESOURCE handles in the session's ResourceMgr, and the
// ops that fill, query and dump them.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

absl::Status ScalarInputs(InferenceContext* c, std::initializer_list<int> inputs) {
  for (int i : inputs) {
    PartialTensorShape unused;
    if (!c->WithRank(i, 0, &unused).ok()) {
      return c->Error("input ", i, " must be a scalar, got shape ", c->input(i).DebugString());
    }
  }
  return absl::OkStatus();
}

absl::Status HandleOnly(InferenceContext* c) { return ScalarInputs(c, {0}); }

}  // namespace

// A table filled once (InitializeTableV2, InitializeTableFromTextFileV2 or LookupTableImportV2).
// Its name: shared_name, else the node's name when use_node_name_sharing, else one of its own.
REGISTER_OP("HashTableV2")
    .Output("table_handle: resource")
    .Attr("container: string = ''")
    .Attr("shared_name: string = ''")
    .Attr("use_node_name_sharing: bool = false")
    .Attr("key_dtype: type")
    .Attr("value_dtype: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

// A table that LookupTableInsertV2 / RemoveV2 / ImportV2 change at any time.
REGISTER_OP("MutableHashTableV2")
    .Output("table_handle: resource")
    .Attr("container: string = ''")
    .Attr("shared_name: string = ''")
    .Attr("use_node_name_sharing: bool = false")
    .Attr("key_dtype: type")
    .Attr("value_dtype: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

// keys and values: vectors of one length.
REGISTER_OP("InitializeTableV2")
    .Input("table_handle: resource")
    .Input("keys: Tkey")
    .Input("values: Tval")
    .Attr("Tkey: type")
    .Attr("Tval: type")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) -> absl::Status {
      SG_RETURN_IF_ERROR(HandleOnly(c));
      PartialTensorShape keys;
      SG_RETURN_IF_ERROR(c->WithRank(1, 1, &keys));
      if (!keys.IsCompatibleWith(c->input(2))) {
        return c->Error("keys and values must have one shape, got ", keys.DebugString(),
                        " and ", c->input(2).DebugString());
      }
      return absl::OkStatus();
    });

// One entry per line of a text file: key and value are the whole line (-2), the line number plus
// `offset` (-1) or a column split at `delimiter` (>= 0); vocab_size (-1: all) lines are read.
REGISTER_OP("InitializeTableFromTextFileV2")
    .Input("table_handle: resource")
    .Input("filename: string")
    .Attr("key_index: int >= -2")
    .Attr("value_index: int >= -2")
    .Attr("vocab_size: int >= -1 = -1")
    .Attr("delimiter: string = '\t'")
    .Attr("offset: int = 0")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) { return ScalarInputs(c, {0, 1}); });

// values[...] = table[keys[...]], or default_value where absent: a scalar, or one per key (a
// MutableHashTableV2 uses each; a HashTableV2 the first for all, as TensorFlow).
REGISTER_OP("LookupTableFindV2")
    .Input("table_handle: resource")
    .Input("keys: Tin")
    .Input("default_value: Tout")
    .Output("values: Tout")
    .Attr("Tin: type")
    .Attr("Tout: type")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) -> absl::Status {
      SG_RETURN_IF_ERROR(HandleOnly(c));
      c->set_output(0, PartialTensorShape());
      return absl::OkStatus();
    });

REGISTER_OP("LookupTableInsertV2")
    .Input("table_handle: resource")
    .Input("keys: Tin")
    .Input("values: Tout")
    .Attr("Tin: type")
    .Attr("Tout: type")
    .SetIsStateful()
    .SetShapeFn(HandleOnly);

REGISTER_OP("LookupTableRemoveV2")
    .Input("table_handle: resource")
    .Input("keys: Tin")
    .Attr("Tin: type")
    .SetIsStateful()
    .SetShapeFn(HandleOnly);

REGISTER_OP("LookupTableSizeV2")
    .Input("table_handle: resource")
    .Output("size: int64")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) -> absl::Status {
      SG_RETURN_IF_ERROR(HandleOnly(c));
      c->set_output(0, PartialTensorShape::Scalar());
      return absl::OkStatus();
    });

// Every entry: keys [n] and values [n] (sg orders them by key).
REGISTER_OP("LookupTableExportV2")
    .Input("table_handle: resource")
    .Output("keys: Tkeys")
    .Output("values: Tvalues")
    .Attr("Tkeys: type")
    .Attr("Tvalues: type")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) -> absl::Status {
      SG_RETURN_IF_ERROR(HandleOnly(c));
      c->set_output(0, PartialTensorShape({-1}));
      c->set_output(1, PartialTensorShape());
      return absl::OkStatus();
    });

// Replaces the table's entries (a HashTableV2: initializes it, as InitializeTableV2).
REGISTER_OP("LookupTableImportV2")
    .Input("table_handle: resource")
    .Input("keys: Tin")
    .Input("values: Tout")
    .Attr("Tin: type")
    .Attr("Tout: type")
    .SetIsStateful()
    .SetShapeFn(HandleOnly);

}  // namespace sg
