// TensorFlow's functions built from C (TF_GraphToFunction, TF_GraphCopyFunction, ...) and while
// loops built from C (TF_NewWhile...) over sg's SG_ twins (c_api.h, "Functions built from C",
// "While loops built from C"): a TF_Function* is the SG_Function* of the same object, so each
// function only converts its handles and delegates.
#include "c_api/dropin/tf_handles.h"

using sg::dropin::ToSg;
using sg::dropin::ToTf;
using sg::dropin::ToTfValue;

extern "C" {

TF_Function* TF_GraphToFunction(const TF_Graph* fn_body, const char* fn_name,
                                unsigned char append_hash_to_fn_name, int num_opers,
                                const TF_Operation* const* opers, int ninputs,
                                const TF_Output* inputs, int noutputs, const TF_Output* outputs,
                                const char* const* output_names, const TF_FunctionOptions* opts,
                                const char* description, TF_Status* status) {
  return ToTf(SG_GraphToFunction(ToSg(fn_body), fn_name, append_hash_to_fn_name, num_opers,
                                 ToSg(opers), ninputs, ToSg(inputs), noutputs, ToSg(outputs),
                                 output_names, ToSg(opts), description, ToSg(status)));
}

TF_Function* TF_GraphToFunctionWithControlOutputs(
    const TF_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names,
    int ncontrol_outputs, const TF_Operation* const* control_outputs,
    const char* const* control_output_names, const TF_FunctionOptions* opts,
    const char* description, TF_Status* status) {
  return ToTf(SG_GraphToFunctionWithControlOutputs(
      ToSg(fn_body), fn_name, append_hash_to_fn_name, num_opers, ToSg(opers), ninputs,
      ToSg(inputs), noutputs, ToSg(outputs), output_names, ncontrol_outputs,
      ToSg(control_outputs), control_output_names, ToSg(opts), description, ToSg(status)));
}

const char* TF_FunctionName(TF_Function* func) { return SG_FunctionName(ToSg(func)); }

void TF_FunctionToFunctionDef(TF_Function* func, TF_Buffer* output_func_def, TF_Status* status) {
  SG_FunctionToFunctionDef(ToSg(func), ToSg(output_func_def), ToSg(status));
}

TF_Function* TF_FunctionImportFunctionDef(const void* proto, size_t proto_len,
                                          TF_Status* status) {
  return ToTf(SG_FunctionImportFunctionDef(proto, proto_len, ToSg(status)));
}

void TF_FunctionSetAttrValueProto(TF_Function* func, const char* attr_name, const void* proto,
                                  size_t proto_len, TF_Status* status) {
  SG_FunctionSetAttrValueProto(ToSg(func), attr_name, proto, proto_len, ToSg(status));
}

void TF_FunctionGetAttrValueProto(TF_Function* func, const char* attr_name,
                                  TF_Buffer* output_attr_value, TF_Status* status) {
  SG_FunctionGetAttrValueProto(ToSg(func), attr_name, ToSg(output_attr_value), ToSg(status));
}

void TF_DeleteFunction(TF_Function* func) { SG_DeleteFunction(ToSg(func)); }

void TF_GraphCopyFunction(TF_Graph* g, const TF_Function* func, const TF_Function* grad,
                          TF_Status* status) {
  SG_GraphCopyFunction(ToSg(g), ToSg(func), ToSg(grad), ToSg(status));
}

int TF_GraphNumFunctions(TF_Graph* g) { return SG_GraphNumFunctions(ToSg(g)); }

int TF_GraphGetFunctions(TF_Graph* g, TF_Function** funcs, int max_func, TF_Status* status) {
  return SG_GraphGetFunctions(ToSg(g), ToSg(funcs), max_func, ToSg(status));
}

void TF_GraphRemoveFunction(TF_Graph* g, const char* func_name, TF_Status* status) {
  SG_GraphRemoveFunction(ToSg(g), func_name, ToSg(status));
}

// ---- While loops built from C (c_api.h): TF_WhileParams is laid out as SG_WhileParams -------

TF_WhileParams TF_NewWhile(TF_Graph* g, TF_Output* inputs, int ninputs, TF_Status* status) {
  const SG_WhileParams p = SG_NewWhile(ToSg(g), ToSg(inputs), ninputs, ToSg(status));
  TF_WhileParams params = {p.ninputs,
                           ToTf(p.cond_graph),
                           ToTf(p.cond_inputs),
                           ToTfValue(p.cond_output),
                           ToTf(p.body_graph),
                           ToTf(p.body_inputs),
                           reinterpret_cast<TF_Output*>(p.body_outputs),
                           p.name};
  return params;
}

void TF_FinishWhile(const TF_WhileParams* params, TF_Status* status, TF_Output* outputs) {
  SG_FinishWhile(reinterpret_cast<const SG_WhileParams*>(params), ToSg(status), ToSg(outputs));
}

void TF_AbortWhile(const TF_WhileParams* params) {
  SG_AbortWhile(reinterpret_cast<const SG_WhileParams*>(params));
}

}  // extern "C"
