/* The frozen layout of the C API's value structs, checked at compile time by every file that
 * includes this (tests/abi/header_c99.c as C99, header_cxx11.cc as C++11, old_client.c against
 * the baseline header). These structs are passed by value and in caller-allocated arrays, so a
 * changed size or member offset breaks every compiled client even when no symbol changes.
 *
 * The pins live here rather than in c_api.h so that a client's compiler never evaluates them; a
 * layout change fails sg's own build (these are part of `all`) and the ABI dump test.
 * Pointer-sized members are written in terms of sizeof(void*), and the LP64 numbers (x86-64,
 * aarch64) are pinned outright as well. */
#ifndef SG_TESTS_ABI_LAYOUT_H_
#define SG_TESTS_ABI_LAYOUT_H_

#include <stddef.h>

#if defined(__cplusplus)
#define SG_PIN(cond, name) static_assert(cond, #name)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define SG_PIN(cond, name) _Static_assert(cond, #name)
#else /* C99: an array of negative size is a compile error. */
#define SG_PIN(cond, name) typedef char sg_pin_##name[(cond) ? 1 : -1]
#endif

/* SG_Output and SG_Input: {SG_Operation* oper; int index;} plus tail padding. */
SG_PIN(offsetof(SG_Output, oper) == 0, output_oper_offset);
SG_PIN(offsetof(SG_Output, index) == sizeof(void*), output_index_offset);
SG_PIN(sizeof(SG_Output) == 2 * sizeof(void*), output_size);
SG_PIN(offsetof(SG_Input, oper) == 0, input_oper_offset);
SG_PIN(offsetof(SG_Input, index) == sizeof(void*), input_index_offset);
SG_PIN(sizeof(SG_Input) == 2 * sizeof(void*), input_size);

/* SG_Buffer: {const void* data; size_t length; void (*data_deallocator)(void*, size_t);}. */
SG_PIN(offsetof(SG_Buffer, data) == 0, buffer_data_offset);
SG_PIN(offsetof(SG_Buffer, length) == sizeof(void*), buffer_length_offset);
SG_PIN(offsetof(SG_Buffer, data_deallocator) == sizeof(void*) + sizeof(size_t),
       buffer_deallocator_offset);
SG_PIN(sizeof(SG_Buffer) == 2 * sizeof(void*) + sizeof(size_t), buffer_size);

#if defined(__LP64__)
SG_PIN(sizeof(SG_Output) == 16 && offsetof(SG_Output, index) == 8, output_lp64);
SG_PIN(sizeof(SG_Input) == 16 && offsetof(SG_Input, index) == 8, input_lp64);
SG_PIN(sizeof(SG_Buffer) == 24 && offsetof(SG_Buffer, length) == 8 &&
           offsetof(SG_Buffer, data_deallocator) == 16,
       buffer_lp64);
#endif

/* SG_TString: TensorFlow's TF_TString, 24 bytes aligned as a pointer, the union's members at
 * TensorFlow's offsets (the small string's size byte first, its bytes right after). */
struct sg_tstring_in_struct {
  char c;
  SG_TString t;
};
SG_PIN(sizeof(SG_TString) == 24, tstring_size);
SG_PIN(offsetof(struct sg_tstring_in_struct, t) == sizeof(void*), tstring_alignment);
SG_PIN(offsetof(SG_TString, u) == 0 && offsetof(SG_TString_Small, size) == 0 &&
           offsetof(SG_TString_Small, str) == 1 && sizeof(SG_TString_Small) == 24,
       tstring_small);
SG_PIN(offsetof(SG_TString_Large, size) == 0 && offsetof(SG_TString_Large, cap) == sizeof(size_t) &&
           offsetof(SG_TString_Large, ptr) == 2 * sizeof(size_t),
       tstring_large);
SG_PIN(offsetof(SG_TString_Offset, size) == 0 && offsetof(SG_TString_Offset, offset) == 4 &&
           offsetof(SG_TString_Offset, count) == 8 && sizeof(SG_TString_Offset) == 12,
       tstring_offset);
SG_PIN(offsetof(SG_TString_View, size) == 0 && offsetof(SG_TString_View, ptr) == sizeof(size_t) &&
           offsetof(SG_TString_View, owner_ref) == sizeof(size_t) + sizeof(void*),
       tstring_view);
SG_PIN(sizeof(SG_TString_Raw) == 24 && SG_TSTRING_SMALL_CAPACITY == 22, tstring_raw);
SG_PIN(offsetof(SG_TStringOwner, ref) == 0 && offsetof(SG_TStringOwner, unref) == sizeof(void*) &&
           offsetof(SG_TStringOwner, obj) == 2 * sizeof(void*),
       tstring_owner);
SG_PIN(SG_TSTR_SMALL == 0 && SG_TSTR_LARGE == 1 && SG_TSTR_OFFSET == 2 && SG_TSTR_VIEW == 3 &&
           SG_TSTR_TYPE_MASK == 3,
       tstring_types);
SG_PIN(SG_STRING_LAYOUT_ENCODED == 0 && SG_STRING_LAYOUT_TSTRING == 1, string_layouts);
#if defined(__LP64__)
SG_PIN(offsetof(SG_TString_Large, ptr) == 16 && offsetof(SG_TString_View, owner_ref) == 16,
       tstring_lp64);
#endif

/* SG_WhileParams (TensorFlow's TF_WhileParams): {const int ninputs; SG_Graph* cond_graph;
 * const SG_Output* cond_inputs; SG_Output cond_output; SG_Graph* body_graph;
 * const SG_Output* body_inputs; SG_Output* body_outputs; const char* name;}. Newer than the
 * baseline header old_client.c compiles against, which defines SG_ABI_LAYOUT_BASELINE (drop the
 * guard once scripts/refresh-abi-baseline.sh has copied a header that has it). */
#if !defined(SG_ABI_LAYOUT_BASELINE)
SG_PIN(offsetof(SG_WhileParams, ninputs) == 0 &&
           offsetof(SG_WhileParams, cond_graph) == sizeof(void*) &&
           offsetof(SG_WhileParams, cond_inputs) == 2 * sizeof(void*) &&
           offsetof(SG_WhileParams, cond_output) == 3 * sizeof(void*) &&
           offsetof(SG_WhileParams, body_graph) == 3 * sizeof(void*) + sizeof(SG_Output) &&
           offsetof(SG_WhileParams, body_inputs) == 4 * sizeof(void*) + sizeof(SG_Output) &&
           offsetof(SG_WhileParams, body_outputs) == 5 * sizeof(void*) + sizeof(SG_Output) &&
           offsetof(SG_WhileParams, name) == 6 * sizeof(void*) + sizeof(SG_Output) &&
           sizeof(SG_WhileParams) == 7 * sizeof(void*) + sizeof(SG_Output),
       while_params);
#if defined(__LP64__)
SG_PIN(sizeof(SG_WhileParams) == 72 && offsetof(SG_WhileParams, cond_output) == 24 &&
           offsetof(SG_WhileParams, name) == 64,
       while_params_lp64);
#endif
#endif

/* Enums cross the ABI as int-sized values with fixed numbers. */
SG_PIN(sizeof(SG_Code) == sizeof(int) && sizeof(SG_DataType) == sizeof(int), enum_size);
SG_PIN(SG_OK == 0 && SG_UNAUTHENTICATED == 16, code_values);
SG_PIN(SG_FLOAT == 1 && SG_STRING == 7 && SG_UINT64 == 23, dtype_values);

#endif /* SG_TESTS_ABI_LAYOUT_H_ */
