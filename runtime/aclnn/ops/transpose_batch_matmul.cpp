// aclnnTransposeBatchMatMul / aclnnTransposeBatchMatMulWeightNz (ops-nn
// matmul/transpose_batch_mat_mul/docs/aclnnTransposeBatchMatMul.md): 3-D x1 read as
// x1.permute(permX1) = [B, M, K] (permX1 [0, 1, 2] or [1, 0, 2]), x2 as x2.permute(permX2) =
// [B, K, N] ([0, 1, 2] or [0, 2, 1]), y = x1' @ x2' written as y.permute(permY) = [M, B, N]
// (permY [1, 0, 2]); batchSplitFactor f > 1 writes out [f, M, B·N/f], out[s, m, j] being
// y[s·B/f + j / N, m, j % N]. All permutations are strided views (no copies) on the matmul
// engine. bias is reserved (must be null); scale (int8 out) is not modelled: 161002.
#include <fmt/format.h>

#include <vector>

#include "aclnnop/aclnn_transpose_batch_mat_mul.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{"aclnnTransposeBatchMatMul",
                   ExecUnit::kCube,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                   "out = (x1.permute(permX1) @ x2.permute(permX2)).permute(permY)"};
const OpInfo kInfoNz{"aclnnTransposeBatchMatMulWeightNz",
                     ExecUnit::kCube,
                     {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                     "out = (x1.permute(permX1) @ x2.permute(permX2)).permute(permY), x2 in FRACTAL_NZ"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kInfo), OpRegistrar(kInfoNz)};

bool isPerm(const aclIntArray* p, std::initializer_list<int64_t> v) {
  return p->values == std::vector<int64_t>(v);
}

// `t` (3-D) with dimensions 0 and 1 swapped when `swap`, dimensions 1 and 2 when `swapLast`.
aclTensor permuted(const aclTensor& t, bool swap, bool swapLast) {
  aclTensor v{t.desc};
  auto& d = v.desc;
  if (swap) {
    std::swap(d.shape[0], d.shape[1]);
    std::swap(d.strides[0], d.strides[1]);
  }
  if (swapLast) {
    std::swap(d.shape[1], d.shape[2]);
    std::swap(d.strides[1], d.strides[2]);
  }
  return v;
}

// [B, r, c] read as [f, B / f, r, c].
void splitBatch(TensorDesc& d, int64_t f) {
  const int64_t sb = d.strides[0];
  d.shape = {f, d.shape[0] / f, d.shape[1], d.shape[2]};
  d.strides = {sb * d.shape[1], sb, d.strides[1], d.strides[2]};
}

int32_t build(const OpInfo& info, bool nz, const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
              const aclTensor* scale, const aclIntArray* permX1, const aclIntArray* permX2,
              const aclIntArray* permY, int8_t cubeMathType, int32_t batchSplitFactor, aclTensor* out,
              uint64_t* workspaceSize, aclOpExecutor** executor) {
  const std::string apiName = info.name + "GetWorkspaceSize";
  const char* api = apiName.c_str();
  int32_t st = checkNotNull(
      api, {{"x1", x1}, {"x2", x2}, {"permX1", permX1}, {"permX2", permX2}, {"permY", permY}, {"out", out}});
  if (st != kSuccess) return st;
  if (bias != nullptr) return fail(api, kErrParamInvalid, "bias is a reserved parameter and must be nullptr");
  if (scale != nullptr) {
    return fail(api, kErrParamInvalid, "scale (int8 output quantisation) is not supported by the simulator");
  }
  for (const auto& [name, t] :
       {std::pair{"x1", x1}, std::pair{"x2", x2}, std::pair<const char*, const aclTensor*>{"out", out}}) {
    if (t->desc.rank() != 3) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} must be 3-dimensional, but is {}", name, shapeString(t->desc.shape)));
    }
  }
  const bool swap1 = isPerm(permX1, {1, 0, 2});
  if (!swap1 && !isPerm(permX1, {0, 1, 2})) {
    return fail(api, kErrParamInvalid,
                fmt::format("permX1 must be [0, 1, 2] or [1, 0, 2], but is {}", shapeString(permX1->values)));
  }
  const bool swap2 = isPerm(permX2, {0, 2, 1});
  if (!swap2 && !isPerm(permX2, {0, 1, 2})) {
    return fail(api, kErrParamInvalid,
                fmt::format("permX2 must be [0, 1, 2] or [0, 2, 1], but is {}", shapeString(permX2->values)));
  }
  if (!isPerm(permY, {1, 0, 2})) {
    return fail(api, kErrParamInvalid,
                fmt::format("permY must be [1, 0, 2], but is {}", shapeString(permY->values)));
  }
  if (cubeMathType < 0 || cubeMathType > 3) {
    return fail(api, kErrParamInvalid,
                fmt::format("cubeMathType must be 0 to 3, but is {}", static_cast<int>(cubeMathType)));
  }
  aclTensor a = permuted(*x1, swap1, false), b = permuted(*x2, false, swap2);
  const int64_t batch = a.desc.shape[0], m = a.desc.shape[1], n = b.desc.shape[2];
  if (b.desc.shape[0] != batch || b.desc.shape[1] != a.desc.shape[2]) {
    return fail(api, kErrParamInvalid,
                fmt::format("x1 read as {} and x2 read as {} do not multiply", shapeString(a.desc.shape),
                            shapeString(b.desc.shape)));
  }
  const int64_t f = batchSplitFactor;
  if (f < 1 || batch % f != 0) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("batchSplitFactor must divide the batch {} and be at least 1, but is {}", batch, f));
  }
  const std::vector<int64_t> want =
      f == 1 ? std::vector<int64_t>{m, batch, n} : std::vector<int64_t>{f, m, batch * n / f};
  if ((st = checkShape(api, "out", out->desc.shape, want)) != kSuccess) return st;
  // y [B, M, N] as a view of out: y[b, m, n] = out[m, b, n], or out[b / Bf, m, (b % Bf) * N + n].
  aclTensor y{out->desc};
  if (f == 1) {
    y = permuted(*out, true, false);
  } else {
    const auto& s = out->desc.strides;
    y.desc.shape = {f, batch / f, m, n};
    y.desc.strides = {s[0], n * s[2], s[1], s[2]};
    splitBatch(a.desc, f);
    splitBatch(b.desc, f);
  }
  return buildMatmul({api, info.name.c_str(), &info, 0, nz}, &a, &b, &y, cubeMathType, workspaceSize,
                     executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" {

aclnnStatus aclnnTransposeBatchMatMulGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                      const aclTensor* bias, const aclTensor* scale,
                                                      const aclIntArray* permX1, const aclIntArray* permX2,
                                                      const aclIntArray* permY, int8_t cubeMathType,
                                                      const int32_t batchSplitFactor, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(npusim::aclnn::kInfo, false, x1, x2, bias, scale, permX1, permX2, permY,
                              cubeMathType, batchSplitFactor, out, workspaceSize, executor);
}

aclnnStatus aclnnTransposeBatchMatMulWeightNzGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* bias, const aclTensor* scale,
    const aclIntArray* permX1, const aclIntArray* permX2, const aclIntArray* permY, int8_t cubeMathType,
    const int32_t batchSplitFactor, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(npusim::aclnn::kInfoNz, true, x1, x2, bias, scale, permX1, permX2, permY,
                              cubeMathType, batchSplitFactor, out, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(TransposeBatchMatMul)
NPUSIM_ACLNN_PHASE2(TransposeBatchMatMulWeightNz)
