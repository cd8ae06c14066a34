#pragma once
// Cumulative operators along one dimension (aclnnCumsum, aclnnCumprod, aclnnCummax, aclnnCummin;
// issue 28): out[..., i, ...] = the running sum / product / maximum / minimum of self[..., 0..i, ...]
// (or of i..n-1 when reversed, excluding element i itself when exclusive), with the position of
// the running extremum for cummax/cummin. The engine owns the checks (dim in range, shapes, types),
// strided views, empty tensors, the compute type and the cost model.
#include <cstdint>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

enum class ScanKind { kSum, kProd, kMax, kMin };

struct ScanArgs {
  ScanArgs(const char* api_, const char* opName_, const OpInfo* info_, ScanKind kind_, const aclTensor* self_,
           int64_t dim_, const aclTensor* out_, const aclTensor* indices_ = nullptr, bool exclusive_ = false,
           bool reverse_ = false, bool inplace_ = false)
      : api(api_),
        opName(opName_),
        info(info_),
        kind(kind_),
        self(self_),
        dim(dim_),
        out(out_),
        indices(indices_),
        exclusive(exclusive_),
        reverse(reverse_),
        inplace(inplace_) {}

  const char* api;     // phase-1 name for messages
  const char* opName;  // phase-2 name
  const OpInfo* info;  // accepted types of self and values
  ScanKind kind;
  const aclTensor* self;
  int64_t dim;               // may be negative (counted from the end)
  const aclTensor* out;      // the values (self's shape)
  const aclTensor* indices;  // cummax/cummin: int32 or int64, self's shape
  bool exclusive;            // out[i] leaves element i out (sum: 0 first, prod: 1 first)
  bool reverse;              // runs from the last element to the first
  bool inplace;              // out is self
};

// Phase 1: checks, then an executor scanning self along dim. Sums and products accumulate in
// fp64 and round once to out's type (as the device's fp32 accumulation, without its rounding of
// each partial sum); integers wrap at out's width. Maximum and minimum: NaN wins and stays.
int32_t buildScan(const ScanArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace npusim::aclnn
