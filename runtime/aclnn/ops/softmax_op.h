#pragma once
// aclnnSoftmax and aclnnLogSoftmax: shared phase 1, kernel (fp32 arithmetic, max-subtracted)
// and cost (three vector passes over the data: max, exp-and-sum, scale).
#include <cstdint>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

// In place over `rows` x `n` x `inner` values (softmax along the middle dimension).
void softmaxRows(float* v, int64_t rows, int64_t n, int64_t inner, bool log);

int32_t buildSoftmax(const char* api, const char* opName, const OpInfo& info, bool log, const aclTensor* self,
                     int64_t dim, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace npusim::aclnn
