#pragma once
// The compression windows of aclnnNsaCompress, shared with its gradient: checks input [T, N, D]
// and weight [compressBlockSize, N] against the documented limits and lists the first token of
// every window (compressBlockSize tokens every compressStride while they fit in a sequence).
#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"

namespace npusim::aclnn {

int32_t nsaWindows(const char* api, const aclTensor* input, const aclTensor* weight,
                   const aclIntArray* seqLens, const char* layout, int64_t block, int64_t stride,
                   int64_t seqLenType, std::vector<int64_t>* starts);

}  // namespace npusim::aclnn
