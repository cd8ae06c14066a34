#pragma once
// Cube work of a matmul whose rows are split into expert groups (x [M, K] by weight [E, K, N]
// into y [M, N]): grouped matmul and the operators built on it (FFN, finalize routing). The
// group sizes are device data the launch does not see; the cost is a batched matmul of
// G = min(E, M) groups of ceil(M / G) rows: the even split a balanced router gives, and with
// fewer rows than experts (decoding) at most M experts' weights are read.
#include <cstdint>

#include "runtime/aclnn/base/tensor.h"
#include "runtime/op_launch.h"

namespace npusim::aclnn {

struct GroupedMatmulCost {
  int64_t M = 0, K = 0, N = 0, E = 1;
  const TensorDesc* x = nullptr;       // the activations (their element size and address)
  const TensorDesc* weight = nullptr;  // [E, K, N]
  const TensorDesc* y = nullptr;       // where the products are written
  int64_t weightEs = 0;                // bytes per weight element as read; 0: the weight's type
};

rt::OpWork groupedMatmulWork(const GroupedMatmulCost& c);

// The host computes int8 products in fp32 over chunks of this many K: every partial sum of
// int8 x int8 products stays exact (1024 * 128 * 128 = 2^24), and the chunks add up in double.
constexpr int64_t kExactInt8K = 1024;

}  // namespace npusim::aclnn
