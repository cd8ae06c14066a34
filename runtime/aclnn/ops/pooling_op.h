#pragma once
// The pooling engine (aclnnAvgPool2d/3d, aclnnMaxPool2dWithIndices, aclnnAdaptive*Pool*, their
// backward forms, ...): a window slides over the trailing 2 or 3 dims of a [N,] C, [D,] H, W
// tensor; max pooling keeps the largest value (NaN wins, the first one on ties) and its index
// flattened over the input's pooled dims (h * W + w, or (d * H + h) * W + w), average pooling
// divides the window's sum by its size (with or without the padding, or an override).
// Regular windows start at o * stride - padBegin and take kernel positions dilation apart;
// adaptive windows cover [floor(o * in / out), ceil((o + 1) * in / out)). Gradients scatter
// gradOutput back: to the recorded index (max) or evenly over the window (avg). The engine owns
// the geometry checks, out shapes and the cost model (self or gradOutput read once, the outs
// written once, one vector pass per window element that overlaps another window).
#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

enum class PoolMode { kMax, kAvg };

struct PoolSpec {
  int dims = 2;           // pooled trailing dimensions: 2 (H, W) or 3 (D, H, W)
  bool adaptive = false;  // windows from the out size instead of kernel/stride/padding
  std::vector<int64_t> kernel, stride, padBegin, padEnd, dilation;  // per pooled dim (regular)
  bool ceilMode = false;
  bool countIncludePad = true;  // avg: padded positions count in the divisor
  int64_t divisorOverride = 0;  // avg: divide by this instead when non-zero
  // avg with padding counted: the divisor is the whole kernel even where a ceil-mode window
  // runs past the end padding (AveragePoolingGrad's definition), not the padded window's size.
  bool wholeKernelDivisor = false;
  std::vector<int64_t> outSize;  // per pooled dim; given for adaptive, computed for regular
};

// Expands a per-dim array given as 1 value (all dims) or `dims` values; 161002 otherwise
// (or when a value is out of [minValue, ...)). `fallback` stands in for an absent or empty array.
int32_t poolArray(const char* api, const char* name, const aclIntArray* a, int dims, int64_t minValue,
                  const std::vector<int64_t>& fallback, std::vector<int64_t>* out);

// Out sizes of a regular pool over `in` (the pooled dims): floor or ceil of
// (in + padBegin + padEnd - dilation (kernel - 1) - 1) / stride + 1, a last window that would
// start in the end padding dropped in ceil mode. 161002 for padding above half the kernel or an
// empty out.
int32_t poolOutSize(const char* api, const std::vector<int64_t>& in, PoolSpec* spec);

struct PoolTensors {
  const aclTensor* self = nullptr;        // forward input, or the backward's original input
  const aclTensor* out = nullptr;         // forward: pooled values
  const aclTensor* indices = nullptr;     // max: forward out / backward in (null for avg)
  const aclTensor* gradOutput = nullptr;  // backward only
  const aclTensor* gradInput = nullptr;   // backward only
  const char* selfName = "self";
  const char* outName = "out";
  const char* indicesName = "indices";
  const char* gradOutputName = "gradOutput";
  const char* gradInputName = "gradInput";
};

// Phase 1: checks the tensors against the spec (self [N,] C, spatial...; outs of self's
// leading dims and spec.outSize; indices int32/int64), then the executor. Regular specs must
// have passed poolOutSize; adaptive ones carry outSize. `backward` selects the gradient.
int32_t buildPool(const OpInfo& info, const char* api, PoolMode mode, bool backward, const PoolSpec& spec,
                  const PoolTensors& t, const std::string& attrs, uint64_t* workspaceSize,
                  aclOpExecutor** executor);

}  // namespace npusim::aclnn
