// p-norm distances between row sets (issue 28): aclnnCdist (ops-math math/cdist) and
// aclnnCdistBackward (math/cdist_grad, experimental/math/cdist_grad). x1 [..., P, M], x2 [..., R, M]
// (batch dims broadcast) give out [..., P, R] = (sum_k |x1[i,k] - x2[j,k]|^p)^(1/p); p = 0 counts
// the differing coordinates, p = inf takes the largest difference. The gradient with respect to
// x1 from its doc: sum_j grad[i,j] * diff * |diff|^(p-2) / cdist[i,j]^(p-1), diff = x1[i,k] -
// x2[j,k], 0 where cdist or (for p < 2) diff is 0; p = 1 gives sign(diff), p = inf sign(diff) where
// |diff| is the distance. compute_mode only picks the device's algorithm (all give these
// values). Computed in fp64, rounded once (fp32 for the 16-bit types). Cost: the operands read,
// out written, 3 vector passes per (i, j, k) term (subtract, power, accumulate).
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <vector>

#include "aclnnop/aclnn_cdist.h"
#include "aclnnop/aclnn_cdist_backward.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

class CdistInstance : public OpInstanceBase<CdistInstance> {
 public:
  double p = 2;
  bool backward = false;
  std::vector<int64_t> batch;  // the broadcast batch dims
  int64_t P = 0, R = 0, M = 0;

  rt::OpWork work() const override {
    const int64_t terms = outputs[0].numel() / (backward ? M : R) * R * M;
    return vectorTiles(VectorPass{&inputs, &outputs[0], std::max<int64_t>(terms, 1), 2});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (out[0].numel() == 0) return;
    int64_t B = 1;
    for (int64_t d : batch) B *= d;
    const auto shape = [&](int64_t a, int64_t b) {
      std::vector<int64_t> s = batch;
      s.push_back(a);
      s.push_back(b);
      return s;
    };
    const std::vector<double> x1 = loadWide(in[backward ? 1 : 0], shape(P, M));
    const std::vector<double> x2 = loadWide(in[backward ? 2 : 1], shape(R, M));
    std::vector<double> grad, dist;
    if (backward) {
      grad = loadWide(in[0], shape(P, R));
      dist = loadWide(in[3], shape(P, R));
    }
    std::vector<double> r(static_cast<size_t>(B * P * (backward ? M : R)), 0.0);
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t i = 0; i < P; ++i) {
        for (int64_t j = 0; j < R; ++j) {
          const double* u = &x1[static_cast<size_t>((b * P + i) * M)];
          const double* w = &x2[static_cast<size_t>((b * R + j) * M)];
          if (!backward) {
            r[static_cast<size_t>((b * P + i) * R + j)] = distance(u, w);
            continue;
          }
          const size_t ij = static_cast<size_t>((b * P + i) * R + j);
          double* g = &r[static_cast<size_t>((b * P + i) * M)];
          for (int64_t k = 0; k < M; ++k) g[k] += grad[ij] * partial(u[k] - w[k], dist[ij]);
        }
      }
    }
    storeRounded(out[0], r);
  }

 private:
  double distance(const double* u, const double* w) const {
    double s = 0;
    for (int64_t k = 0; k < M; ++k) {
      const double d = std::fabs(u[k] - w[k]);
      if (std::isinf(p))
        s = std::max(s, d);
      else if (p == 0)
        s += d != 0 ? 1 : 0;
      else
        s += std::pow(d, p);
    }
    return std::isinf(p) || p == 0 ? s : std::pow(s, 1 / p);
  }

  // d distance / d u_k for one pair, given diff = u_k - w_k and the pair's distance.
  double partial(double diff, double dist) const {
    if (p == 0 || dist == 0 || diff == 0) return 0;
    const double sign = diff > 0 ? 1 : -1;
    if (p == 1) return sign;
    if (std::isinf(p)) return std::fabs(diff) == dist ? sign : 0;
    return diff * std::pow(std::fabs(diff), p - 2) / std::pow(dist, p - 1);
  }
};

const OpInfo kCdist{"aclnnCdist",
                    ExecUnit::kVector,
                    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                    "out[i][j] = p-norm of x1[i] - x2[j]"};
const OpInfo kCdistBackward{"aclnnCdistBackward",
                            ExecUnit::kVector,
                            {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                            "out = d cdist / d x1, weighted by grad"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kCdist), OpRegistrar(kCdistBackward)};

// x1 [..., P, M] and x2 [..., R, M] of one type, rank 2 to 8, p >= 0 (inf allowed); fills the
// batch and sizes of inst.
int32_t checkPair(const char* api, const OpInfo& info, const aclTensor* x1, const aclTensor* x2, float p,
                  CdistInstance* inst) {
  int32_t st = kSuccess;
  for (auto [name, t] : {std::pair{"x1", x1}, {"x2", x2}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, info)) != kSuccess) return st;
    if (t->desc.shape.size() < 2) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} {} must have at least 2 dims", name, shapeString(t->desc.shape)));
    }
  }
  const auto& s1 = x1->desc.shape;
  const auto& s2 = x2->desc.shape;
  if (x1->desc.dtype != x2->desc.dtype || s1.back() != s2.back()) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("x1 {} {} and x2 {} {} must have one type and one last dimension", shapeString(s1),
                    dtypeName(x1->desc.dtype), shapeString(s2), dtypeName(x2->desc.dtype)));
  }
  if (!(p >= 0)) return fail(api, kErrParamInvalid, fmt::format("p {} is negative or nan", p));
  const std::vector<int64_t> b1(s1.begin(), s1.end() - 2), b2(s2.begin(), s2.end() - 2);
  if (!broadcastShapes(b1, b2, &inst->batch)) {
    return fail(api, kErrParamInvalid,
                fmt::format("the batch dims of x1 {} and x2 {} are not broadcastable", shapeString(s1),
                            shapeString(s2)));
  }
  inst->P = s1[s1.size() - 2];
  inst->R = s2[s2.size() - 2];
  inst->M = s1.back();
  inst->p = p;
  return kSuccess;
}

std::vector<int64_t> withLast2(std::vector<int64_t> batch, int64_t a, int64_t b) {
  batch.push_back(a);
  batch.push_back(b);
  return batch;
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnCdistGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, float p,
                                                  int64_t compute_mode, aclTensor* out, uint64_t* ws,
                                                  aclOpExecutor** ex) {
  const char* api = "aclnnCdistGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x1", x1}, {"x2", x2}, {"out", out}});
  if (st != kSuccess) return st;
  auto inst = std::make_unique<CdistInstance>();
  if ((st = checkPair(api, kCdist, x1, x2, p, inst.get())) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if (out->desc.dtype != x1->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("out of type {} must have x1's type", dtypeName(out->desc.dtype)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, withLast2(inst->batch, inst->P, inst->R))) != kSuccess)
    return st;
  inst->name = "aclnnCdist";
  inst->attrs = fmt::format("p={}, compute_mode={}", p, compute_mode);
  addInput(*inst, "x1", x1);
  addInput(*inst, "x2", x2);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(Cdist)

extern "C" aclnnStatus aclnnCdistBackwardGetWorkspaceSize(const aclTensor* grad, const aclTensor* x1,
                                                          const aclTensor* x2, const aclTensor* cdist,
                                                          float p, aclTensor* out, uint64_t* ws,
                                                          aclOpExecutor** ex) {
  const char* api = "aclnnCdistBackwardGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"grad", grad}, {"x1", x1}, {"x2", x2}, {"cdist", cdist}, {"out", out}});
  if (st != kSuccess) return st;
  auto inst = std::make_unique<CdistInstance>();
  if ((st = checkPair(api, kCdistBackward, x1, x2, p, inst.get())) != kSuccess) return st;
  const std::vector<int64_t> pr = withLast2(inst->batch, inst->P, inst->R);
  for (auto [name, t] : {std::pair{"grad", grad}, {"cdist", cdist}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if (t->desc.dtype != x1->desc.dtype) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} of type {} must have x1's type {}", name, dtypeName(t->desc.dtype),
                              dtypeName(x1->desc.dtype)));
    }
  }
  if ((st = checkShape(api, "grad", grad->desc.shape, pr)) != kSuccess) return st;
  if ((st = checkShape(api, "cdist", cdist->desc.shape, pr)) != kSuccess) return st;
  if ((st = checkShape(api, "out", out->desc.shape, withLast2(inst->batch, inst->P, inst->M))) != kSuccess)
    return st;
  inst->name = "aclnnCdistBackward";
  inst->backward = true;
  inst->attrs = fmt::format("p={}", p);
  addInput(*inst, "grad", grad);
  addInput(*inst, "x1", x1);
  addInput(*inst, "x2", x2);
  addInput(*inst, "cdist", cdist);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}
NPUSIM_ACLNN_PHASE2(CdistBackward)
