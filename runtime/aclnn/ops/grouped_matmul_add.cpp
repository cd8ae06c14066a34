// aclnnGroupedMatmulAdd (ops-transformer gmm/grouped_matmul_add README and op definition): the
// weight-gradient form of the grouped matmul, grouped along K (group_type 2): for each group g of
// rows [k0, k1) of x [K, M] (transpose_x: x holds x^T) and weight [K, N] (groupList: cumulative
// ends), y[g] += x[k0:k1]^T · weight[k0:k1], y [G * M, N] fp32 updated in place. x and weight
// fp16 or bf16 (products in fp32). Other transposes and group types are refused (161002).
// Cost: the cube tiling of a batched matmul of G groups of M x N x ceil(K / G), plus one read of y.
#include <fmt/format.h>

#include <algorithm>

#include "aclnnop/aclnn_grouped_matmul_add.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/gemm.h"
#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/aclnn/ops/matmul_tiling.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpRegistrar kInfo({"aclnnGroupedMatmulAdd",
                         ExecUnit::kCube,
                         {ACL_FLOAT16, ACL_BF16, ACL_FLOAT},
                         "y[g] += x[k in g]^T · weight[k in g]"});

class GroupedMatmulAddInstance : public OpInstanceBase<GroupedMatmulAddInstance> {
 public:
  int64_t K = 0, M = 0, N = 0, G = 0;

  rt::OpWork work() const override {
    const int64_t kg = (K + G - 1) / G;
    MatmulGeometry g;
    g.M = M;
    g.N = N;
    g.K = kg;
    g.batch = G;
    g.aSm = 1, g.aSk = M, g.bSk = N, g.bSn = 1, g.cSm = N, g.cSn = 1;
    for (int64_t e = 0; e < G; ++e) {
      g.aOff.push_back(std::min(e * kg, std::max<int64_t>(K - kg, 0)) * M);
      g.bOff.push_back(std::min(e * kg, std::max<int64_t>(K - kg, 0)) * N);
      g.cOff.push_back(e * M * N);
    }
    const MatmulTiling t = planMatmul(G, M, N, kg, 2, rt::coreRates().cubeCores);
    auto base = [](const TensorDesc& d) {
      return d.data + static_cast<uint64_t>(d.offset) * d.elementSize();
    };
    rt::OpWork w =
        matmulWork(t, g, MatmulAddressing{base(inputs[0]), base(inputs[1]), base(outputs[0]), 2, 2, 4, 1});
    // y is read back to be accumulated into (applied as each block leaves L0C).
    const uint64_t yBytes = static_cast<uint64_t>(outputs[0].numel()) * 4;
    for (size_t i = 0; i < w.tiles.size(); ++i) w.tiles[i].readBytes += shareOf(yBytes, i, w.tiles.size());
    return w;
  }

  // in: x, weight, groupList, y; out: y (the same tensor).
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<float> x = loadDense<float>(in[0]), w = loadDense<float>(in[1]);
    const std::vector<int64_t> ends = loadDense<int64_t>(in[2]);
    std::vector<float> y = loadDense<float>(out[0]);
    std::vector<float> xt, part(static_cast<size_t>(M * N));
    int64_t k0 = 0;
    for (int64_t g = 0; g < G; ++g) {
      const int64_t k1 = std::clamp<int64_t>(g < static_cast<int64_t>(ends.size()) ? ends[g] : k0, k0, K);
      const int64_t kk = k1 - k0;
      if (kk > 0) {
        xt.assign(static_cast<size_t>(M * kk), 0.0f);  // x[k0:k1]^T as M x kk
        for (int64_t k = 0; k < kk; ++k) {
          for (int64_t m = 0; m < M; ++m) xt[m * kk + k] = x[(k0 + k) * M + m];
        }
        gemmF32(M, N, kk, xt.data(), kk, w.data() + k0 * N, N, part.data(), N);
        for (int64_t i = 0; i < M * N; ++i) y[g * M * N + i] += part[i];
      }
      k0 = k1;
    }
    storeDense(out[0], y.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnGroupedMatmulAddGetWorkspaceSize(const aclTensor* x, const aclTensor* weight,
                                                             const aclTensor* groupList, aclTensor* yRef,
                                                             bool transposeX, bool transposeWeight,
                                                             int64_t groupType, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnGroupedMatmulAddGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st;
  if ((st = checkArg(api, "x", x, {ACL_FLOAT16, ACL_BF16}, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "weight", weight, {x->desc.dtype}, 2)) != kSuccess) return st;
  if ((st = checkArg(api, "groupList", groupList, {ACL_INT64}, 1)) != kSuccess) return st;
  if ((st = checkArg(api, "yRef", yRef, {ACL_FLOAT}, 2)) != kSuccess) return st;
  if ((st = require(
           api, transposeX && !transposeWeight && groupType == 2,
           "only transpose_x true, transpose_weight false and group_type 2 (split along K) are supported")) !=
      kSuccess) {
    return st;
  }
  const int64_t K = x->desc.shape[0], M = x->desc.shape[1], N = weight->desc.shape[1],
                G = groupList->desc.shape[0];
  if ((st = require(api, weight->desc.shape[0] == K && G > 0,
                    fmt::format("weight {} must be [{}, N]", shapeString(weight->desc.shape), K))) !=
      kSuccess) {
    return st;
  }
  if ((st = checkShape(api, "yRef", yRef->desc.shape, {G * M, N})) != kSuccess) return st;
  auto inst = std::make_unique<GroupedMatmulAddInstance>();
  inst->name = "aclnnGroupedMatmulAdd";
  inst->K = K;
  inst->M = M;
  inst->N = N;
  inst->G = G;
  addInput(*inst, "x", x);
  addInput(*inst, "weight", weight);
  addInput(*inst, "groupList", groupList);
  addInput(*inst, "yRef", yRef);
  addOutput(*inst, "yRef", yRef, 3);
  inst->attrs = fmt::format("groups={}", G);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(GroupedMatmulAdd)
