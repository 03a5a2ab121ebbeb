// The ops sg registers that TensorFlow marks NotDifferentiable (ops.NotDifferentiable in
// tensorflow/python/ops/*.py) and that no family gradient file covers: no gradient flows through
// them, and reaching one is not an error (an op with no registration at all is one, as
// TensorFlow's LookupError). Grouped by the TensorFlow file that declares them.
#include "core/gradients/grad_registry.h"

namespace sg {
namespace {

// tensorflow/python/ops/array_grad.py
SG_REGISTER_NO_GRADIENT("FakeQuantWithMinMaxArgsGradient");
SG_REGISTER_NO_GRADIENT("FakeQuantWithMinMaxVarsGradient");
SG_REGISTER_NO_GRADIENT("FakeQuantWithMinMaxVarsPerChannelGradient");
SG_REGISTER_NO_GRADIENT("ConcatOffset");
SG_REGISTER_NO_GRADIENT("InvertPermutation");

// tensorflow/python/ops/bitwise_ops.py
SG_REGISTER_NO_GRADIENT("BitwiseAnd");
SG_REGISTER_NO_GRADIENT("BitwiseOr");
SG_REGISTER_NO_GRADIENT("BitwiseXor");
SG_REGISTER_NO_GRADIENT("Invert");
SG_REGISTER_NO_GRADIENT("LeftShift");
SG_REGISTER_NO_GRADIENT("PopulationCount");
SG_REGISTER_NO_GRADIENT("RightShift");

// tensorflow/python/ops/ctc_ops.py
SG_REGISTER_NO_GRADIENT("CTCBeamSearchDecoder");
SG_REGISTER_NO_GRADIENT("CTCGreedyDecoder");

// tensorflow/python/ops/data_flow_grad.py
SG_REGISTER_NO_GRADIENT("DeleteSessionTensor");
SG_REGISTER_NO_GRADIENT("GetSessionHandle");
SG_REGISTER_NO_GRADIENT("GetSessionHandleV2");
SG_REGISTER_NO_GRADIENT("GetSessionTensor");
SG_REGISTER_NO_GRADIENT("QueueClose");
SG_REGISTER_NO_GRADIENT("QueueDequeue");
SG_REGISTER_NO_GRADIENT("QueueDequeueMany");
SG_REGISTER_NO_GRADIENT("QueueDequeueUpTo");
SG_REGISTER_NO_GRADIENT("QueueEnqueue");
SG_REGISTER_NO_GRADIENT("QueueEnqueueMany");
SG_REGISTER_NO_GRADIENT("QueueSize");
SG_REGISTER_NO_GRADIENT("Stack");
SG_REGISTER_NO_GRADIENT("StackClose");
SG_REGISTER_NO_GRADIENT("StackPop");
SG_REGISTER_NO_GRADIENT("StackPush");

// tensorflow/python/ops/list_ops.py
SG_REGISTER_NO_GRADIENT("TensorListConcatLists");
SG_REGISTER_NO_GRADIENT("TensorListElementShape");
SG_REGISTER_NO_GRADIENT("TensorListLength");
SG_REGISTER_NO_GRADIENT("TensorListPushBackBatch");

// tensorflow/python/ops/logging_ops.py
SG_REGISTER_NO_GRADIENT("HistogramSummary");
SG_REGISTER_NO_GRADIENT("MergeSummary");
SG_REGISTER_NO_GRADIENT("ScalarSummary");
SG_REGISTER_NO_GRADIENT("Timestamp");

// tensorflow/python/ops/lookup_grad.py
SG_REGISTER_NO_GRADIENT("HashTableV2");
SG_REGISTER_NO_GRADIENT("InitializeTableFromTextFileV2");
SG_REGISTER_NO_GRADIENT("InitializeTableV2");
SG_REGISTER_NO_GRADIENT("LookupTableFindV2");
SG_REGISTER_NO_GRADIENT("LookupTableInsertV2");
SG_REGISTER_NO_GRADIENT("LookupTableSizeV2");
SG_REGISTER_NO_GRADIENT("MutableHashTableV2");

// tensorflow/python/ops/math_grad.py
SG_REGISTER_NO_GRADIENT("ApproximateEqual");
SG_REGISTER_NO_GRADIENT("LinSpace");
SG_REGISTER_NO_GRADIENT("LogicalAnd");
SG_REGISTER_NO_GRADIENT("LogicalNot");
SG_REGISTER_NO_GRADIENT("LogicalOr");

// tensorflow/python/ops/parsing_grad.py
SG_REGISTER_NO_GRADIENT("DecodeRaw");

// tensorflow/python/ops/random_ops.py
SG_REGISTER_NO_GRADIENT("Multinomial");
SG_REGISTER_NO_GRADIENT("RandomShuffle");

// tensorflow/python/ops/stateless_random_ops.py
SG_REGISTER_NO_GRADIENT("StatelessMultinomial");
SG_REGISTER_NO_GRADIENT("StatelessRandomNormal");
SG_REGISTER_NO_GRADIENT("StatelessRandomNormalV2");
SG_REGISTER_NO_GRADIENT("StatelessRandomPoisson");
SG_REGISTER_NO_GRADIENT("StatelessRandomUniform");
SG_REGISTER_NO_GRADIENT("StatelessRandomUniformFullInt");
SG_REGISTER_NO_GRADIENT("StatelessRandomUniformFullIntV2");
SG_REGISTER_NO_GRADIENT("StatelessRandomUniformInt");
SG_REGISTER_NO_GRADIENT("StatelessRandomUniformIntV2");
SG_REGISTER_NO_GRADIENT("StatelessRandomUniformV2");
SG_REGISTER_NO_GRADIENT("StatelessTruncatedNormal");
SG_REGISTER_NO_GRADIENT("StatelessTruncatedNormalV2");

// tensorflow/python/ops/image_grad.py
SG_REGISTER_NO_GRADIENT("ResizeBilinearGrad");

// tensorflow/python/ops/ragged/ragged_math_ops.py
SG_REGISTER_NO_GRADIENT("RaggedRange");

// tensorflow/python/ops/state_grad.py
SG_REGISTER_NO_GRADIENT("ScatterAdd");
SG_REGISTER_NO_GRADIENT("ScatterDiv");
SG_REGISTER_NO_GRADIENT("ScatterMul");
SG_REGISTER_NO_GRADIENT("ScatterSub");

// tensorflow/python/ops/string_ops.py
SG_REGISTER_NO_GRADIENT("DecodeBase64");
SG_REGISTER_NO_GRADIENT("EncodeBase64");
SG_REGISTER_NO_GRADIENT("ReduceJoin");
SG_REGISTER_NO_GRADIENT("RegexReplace");
SG_REGISTER_NO_GRADIENT("StringJoin");
SG_REGISTER_NO_GRADIENT("StringSplit");
SG_REGISTER_NO_GRADIENT("StringToHashBucket");
SG_REGISTER_NO_GRADIENT("StringToHashBucketFast");
SG_REGISTER_NO_GRADIENT("StringToHashBucketStrong");

// tensorflow/python/ops/tensor_array_grad.py
SG_REGISTER_NO_GRADIENT("TensorArray");
SG_REGISTER_NO_GRADIENT("TensorArrayClose");
SG_REGISTER_NO_GRADIENT("TensorArrayCloseV2");
SG_REGISTER_NO_GRADIENT("TensorArrayCloseV3");
SG_REGISTER_NO_GRADIENT("TensorArrayGrad");
SG_REGISTER_NO_GRADIENT("TensorArrayGradV2");
SG_REGISTER_NO_GRADIENT("TensorArrayGradV3");
SG_REGISTER_NO_GRADIENT("TensorArrayGradWithShape");
SG_REGISTER_NO_GRADIENT("TensorArraySize");
SG_REGISTER_NO_GRADIENT("TensorArraySizeV2");
SG_REGISTER_NO_GRADIENT("TensorArraySizeV3");
SG_REGISTER_NO_GRADIENT("TensorArrayV2");
SG_REGISTER_NO_GRADIENT("TensorArrayV3");

}  // namespace
}  // namespace sg
