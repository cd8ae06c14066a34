#pragma once
// aclnnMatmul's numerics and functional kernel (exposed for tests on host buffers).
#include <cstdint>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/base/tensor.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

// cubeMathType values (aclnnMatmul docs).
enum CubeMathType : int8_t {
  kKeepDtype = 0,
  kAllowFp32DownPrecision = 1,
  kUseFp16 = 2,
  kUseHf32 = 3,
  kUseFp32Add = 4,
};

// Precision of the operands as the cube multiplies them.
enum class CubeInput { kF32, kHf32, kF16, kBf16 };

struct MatmulSpec {
  CubeInput input = CubeInput::kF32;
  aclDataType resultType = ACL_FLOAT;  // what the cube writes before the cast to out's type
};

// Atlas A2 behaviour (ops-nn cube_util.cpp, aclnnMatmul.md): fp32 with ALLOW_FP32_DOWN_PRECISION
// or USE_HF32 runs in HF32; USE_FP16 runs in fp16 (also for bf16 inputs); USE_HF32 on
// fp16/bf16 and USE_FP32_ADD change nothing numerically.
MatmulSpec matmulSpecFor(aclDataType promoted, int8_t cubeMathType);

// out = self @ mat2: operands rounded to spec.input, fp32 products and accumulation, result
// rounded to spec.resultType and then converted to out's type.
void matmulKernel(const MatmulSpec& spec, const HostTensor& self, const HostTensor& mat2,
                  const HostTensor& out);

// Phase 1 of the matmul family (aclnnMatmul, aclnnMm, aclnnBatchMatMul): checks, then a cube
// operator with the L2-aware tiling. `rank` 0 accepts 1-8 dimensions (torch.matmul rules);
// otherwise both operands must have exactly `rank` dimensions. `info` null: aclnnMatmul's.
struct MatmulApi {
  const char* api;     // "aclnnMmGetWorkspaceSize"
  const char* opName;  // "aclnnMm"
  const OpInfo* info;
  size_t rank;
  // The *WeightNz forms: mat2 must be in FRACTAL_NZ (weight_nz.h). Any matmul reads an NZ mat2.
  bool mat2Nz = false;
  // aclnnAddbmm: 3-D operands whose products are summed over the batch into a 2-D out.
  bool sumBatch = false;
};
// aclnnAddmm's extra term: out = beta * add + alpha * (self @ mat2), `add` broadcast to out.
struct AddTerm {
  const aclTensor* add;
  double beta, alpha;
  bool inplace;  // out is `add` (aclnnInplaceAddmm)
};
// The view of a 2-D tensor with its two dimensions swapped (no copy: the cube's loads read either
// layout), for operators with transposed operands (aclnnGemm's transA/transB, weight [N, K]).
aclTensor transposedView(const aclTensor& t);

// An activation applied to each output element after the add term, before the final rounding
// (fused operators such as aclnnFusedMatmulGelu); it runs on the vector unit.
enum class MatmulEpilogue { kNone, kGeluTanh };
int32_t buildMatmul(const MatmulApi& a, const aclTensor* self, const aclTensor* mat2, const aclTensor* out,
                    int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor,
                    const AddTerm* addTerm = nullptr, MatmulEpilogue epilogue = MatmulEpilogue::kNone);

}  // namespace npusim::aclnn
