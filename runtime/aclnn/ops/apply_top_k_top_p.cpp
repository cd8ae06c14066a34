// aclnnApplyTopKTopP (ops-nn index/apply_top_k_top_p_with_sorted): the sampling filter of its
// doc. Each row of logits [B, V] is ordered ascending (stably); values below the k[b]-th
// largest become -inf; the softmax of what is left is summed from the smallest probability up
// and the positions whose running sum is at most 1 - p[b] become -inf too (the largest always
// stays); the row goes back to its original order. A null p or k skips that filter. Computed
// in fp64 and rounded once to out's type. Cost: logits, p and k read, out written, the sort and
// softmax as 4 vector passes.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "aclnnop/aclnn_apply_top_k_top_p.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

// The doc: logits, p and out BFLOAT16, FLOAT16, FLOAT32; k INT32.
const OpInfo kInfo{"aclnnApplyTopKTopP",
                   ExecUnit::kVector,
                   {ACL_BF16, ACL_FLOAT16, ACL_FLOAT},
                   "out = logits with the values outside top-k and top-p set to -inf"};
const OpRegistrar kRegistrar(kInfo);

class TopKTopPInstance : public OpInstanceBase<TopKTopPInstance> {
 public:
  int pInput = -1, kInput = -1;

  rt::OpWork work() const override {
    return vectorTiles(VectorPass{&inputs, &outputs[0], outputs[0].numel(), 3});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const std::vector<double> x = loadDense<double>(in[0]);
    const std::vector<double> p =
        pInput >= 0 ? loadDense<double>(in[static_cast<size_t>(pInput)]) : std::vector<double>();
    const std::vector<int64_t> k =
        kInput >= 0 ? loadDense<int64_t>(in[static_cast<size_t>(kInput)]) : std::vector<int64_t>();
    const int64_t rows = in[0].shape[0], v = in[0].shape[1];
    const double ninf = -std::numeric_limits<double>::infinity();
    std::vector<double> y(x.size());
    std::vector<int64_t> order(static_cast<size_t>(v));
    std::vector<double> sorted(static_cast<size_t>(v));
    for (int64_t b = 0; b < rows; ++b) {
      const double* row = x.data() + b * v;
      std::iota(order.begin(), order.end(), int64_t{0});
      std::stable_sort(order.begin(), order.end(), [row](int64_t i, int64_t j) { return row[i] < row[j]; });
      for (int64_t i = 0; i < v; ++i) sorted[static_cast<size_t>(i)] = row[order[static_cast<size_t>(i)]];
      if (!k.empty()) {
        const int64_t kb = std::clamp<int64_t>(k[static_cast<size_t>(b)], 1, v);
        const double threshold = sorted[static_cast<size_t>(v - kb)];
        for (double& s : sorted) {
          if (s < threshold) s = ninf;
        }
      }
      if (!p.empty()) {
        const double top = sorted.back();  // the largest: the softmax's shift
        std::vector<double> e(static_cast<size_t>(v));
        double sum = 0;
        for (int64_t i = 0; i < v; ++i)
          sum += (e[static_cast<size_t>(i)] = std::exp(sorted[static_cast<size_t>(i)] - top));
        double running = 0;
        for (int64_t i = 0; i + 1 < v; ++i) {  // the last (largest) always stays
          running += e[static_cast<size_t>(i)] / sum;
          if (running <= 1 - p[static_cast<size_t>(b)]) sorted[static_cast<size_t>(i)] = ninf;
        }
      }
      for (int64_t i = 0; i < v; ++i)
        y[static_cast<size_t>(b * v + order[static_cast<size_t>(i)])] = sorted[static_cast<size_t>(i)];
    }
    storeDense(out[0], y.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnApplyTopKTopPGetWorkspaceSize(const aclTensor* logits, const aclTensor* p,
                                                          const aclTensor* k, aclTensor* out,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  using namespace npusim::aclnn;
  const char* api = "aclnnApplyTopKTopPGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"logits", logits}, {"out", out}});
  if (st != kSuccess) return st;
  if (p == nullptr && k == nullptr) return checkNotNull(api, {{"p", p}, {"k", k}});
  for (auto [name, t] : {std::pair{"logits", logits}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kInfo)) != kSuccess) return st;
  }
  if (out->desc.dtype != logits->desc.dtype)
    return fail(api, kErrParamInvalid,
                fmt::format("out type must equal logits type {}", dtypeName(logits->desc.dtype)));
  if (logits->desc.rank() != 2) return fail(api, kErrParamInvalid, "logits must be 2-D [batch, vocabulary]");
  if ((st = checkShape(api, "out", out->desc.shape, logits->desc.shape)) != kSuccess) return st;
  const int64_t rows = logits->desc.shape[0];
  auto inst = std::make_unique<TopKTopPInstance>();
  inst->name = "aclnnApplyTopKTopP";
  addInput(*inst, "logits", logits);
  if (p != nullptr) {
    if ((st = checkTensor(api, "p", p->desc)) != kSuccess) return st;
    if (p->desc.dtype != logits->desc.dtype)
      return fail(api, kErrParamInvalid,
                  fmt::format("p type must equal logits type {}", dtypeName(logits->desc.dtype)));
    if ((st = checkShape(api, "p", p->desc.shape, {rows})) != kSuccess) return st;
    inst->pInput = static_cast<int>(inst->inputs.size());
    addInput(*inst, "p", p);
  }
  if (k != nullptr) {
    if ((st = checkTensor(api, "k", k->desc)) != kSuccess) return st;
    if (k->desc.dtype != ACL_INT32)
      return fail(api, kErrParamInvalid,
                  fmt::format("k type must be int32, not {}", dtypeName(k->desc.dtype)));
    if ((st = checkShape(api, "k", k->desc.shape, {rows})) != kSuccess) return st;
    inst->kInput = static_cast<int>(inst->inputs.size());
    addInput(*inst, "k", k);
  }
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(ApplyTopKTopP)
