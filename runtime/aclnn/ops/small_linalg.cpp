// Factorisations of batches of small square matrices (issue 28): aclnnLinalgCholesky (ops-math
// math/cholesky: self = L L^T, out = L, or U = L^T when upper) and aclnnLogdet (math/logdet:
// ln(det self); -inf where the determinant is 0, nan where it is negative). Each matrix is the
// last two dims [n, n] of self; computed in fp64 (LU with partial pivoting for the determinant)
// and rounded once. A matrix that is not positive definite gives nan from the first failing
// column on (the device reports no error either). Cost: self read and out written once, n vector
// passes per element (n column steps, each one multiply-add sweep).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "aclnnop/aclnn_linalg_cholesky.h"
#include "aclnnop/aclnn_logdet.h"
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

// L of a (n x n, row-major, symmetric: its lower triangle is read); upper: L^T.
void cholesky(const double* a, int64_t n, bool upper, double* out) {
  std::vector<double> l(static_cast<size_t>(n * n), 0.0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int64_t j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (int64_t k = 0; k < j; ++k)
      d -= l[static_cast<size_t>(j * n + k)] * l[static_cast<size_t>(j * n + k)];
    const double ljj = d > 0 ? std::sqrt(d) : nan;
    l[static_cast<size_t>(j * n + j)] = ljj;
    for (int64_t i = j + 1; i < n; ++i) {
      double s = a[i * n + j];
      for (int64_t k = 0; k < j; ++k)
        s -= l[static_cast<size_t>(i * n + k)] * l[static_cast<size_t>(j * n + k)];
      l[static_cast<size_t>(i * n + j)] = s / ljj;
    }
  }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      out[i * n + j] = upper ? l[static_cast<size_t>(j * n + i)] : l[static_cast<size_t>(i * n + j)];
}

// ln(det a) by LU with partial pivoting (a is n x n, copied).
double logdet(const double* a, int64_t n) {
  std::vector<double> m(a, a + n * n);
  double logAbs = 0;
  bool negative = false;
  for (int64_t c = 0; c < n; ++c) {
    int64_t p = c;
    for (int64_t r = c + 1; r < n; ++r)
      if (std::fabs(m[static_cast<size_t>(r * n + c)]) > std::fabs(m[static_cast<size_t>(p * n + c)])) p = r;
    const double pivot = m[static_cast<size_t>(p * n + c)];
    if (pivot == 0) return -std::numeric_limits<double>::infinity();
    if (std::isnan(pivot)) return pivot;
    if (p != c) {
      for (int64_t k = 0; k < n; ++k)
        std::swap(m[static_cast<size_t>(p * n + k)], m[static_cast<size_t>(c * n + k)]);
      negative = !negative;
    }
    negative = negative != (pivot < 0);
    logAbs += std::log(std::fabs(pivot));
    for (int64_t r = c + 1; r < n; ++r) {
      const double f = m[static_cast<size_t>(r * n + c)] / pivot;
      for (int64_t k = c; k < n; ++k)
        m[static_cast<size_t>(r * n + k)] -= f * m[static_cast<size_t>(c * n + k)];
    }
  }
  return negative ? std::numeric_limits<double>::quiet_NaN() : logAbs;
}

class SmallLinalgInstance : public OpInstanceBase<SmallLinalgInstance> {
 public:
  bool isLogdet = false, upper = false;

  rt::OpWork work() const override {
    const int64_t n = inputs[0].shape.empty() ? 1 : inputs[0].shape.back();
    return vectorTiles(
        VectorPass{&inputs, &outputs[0], inputs[0].numel(), static_cast<int>(std::max<int64_t>(n, 1))});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const HostTensor& self = in[0];
    if (self.numel() == 0) return;
    const int64_t n = self.shape.back(), batches = self.numel() / (n * n);
    const std::vector<double> a = loadWide(self, self.shape);
    std::vector<double> r(static_cast<size_t>(isLogdet ? batches : self.numel()));
    for (int64_t b = 0; b < batches; ++b) {
      const double* m = &a[static_cast<size_t>(b * n * n)];
      if (isLogdet)
        r[static_cast<size_t>(b)] = logdet(m, n);
      else
        cholesky(m, n, upper, &r[static_cast<size_t>(b * n * n)]);
    }
    storeRounded(out[0], r);
  }
};

const OpInfo kCholesky{"aclnnLinalgCholesky",
                       ExecUnit::kVector,
                       {ACL_FLOAT, ACL_BF16},
                       "out = L with self = L L^T (U = L^T when upper)"};
const OpInfo kLogdet{"aclnnLogdet", ExecUnit::kVector, {ACL_FLOAT, ACL_DOUBLE}, "out = ln(det(self))"};
const OpRegistrar kRegistrars[] = {OpRegistrar(kCholesky), OpRegistrar(kLogdet)};

// self [..., n, n] (rank 2 to 8) of an accepted type, out of self's type and `outShape`.
int32_t build(const OpInfo& info, const char* api, const aclTensor* self, const aclTensor* out, bool isLogdet,
              bool upper, uint64_t* ws, aclOpExecutor** ex) {
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, info)) != kSuccess) return st;
  const auto& s = self->desc.shape;
  if (s.size() < 2 || s[s.size() - 1] != s[s.size() - 2]) {
    return fail(api, kErrParamInvalid,
                fmt::format("self {} is not a batch of square matrices", shapeString(s)));
  }
  if (out->desc.dtype != self->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("out of type {} must have self's type {}", dtypeName(out->desc.dtype),
                            dtypeName(self->desc.dtype)));
  }
  const std::vector<int64_t> outShape = isLogdet ? std::vector<int64_t>(s.begin(), s.end() - 2) : s;
  if ((st = checkShape(api, "out", out->desc.shape, outShape)) != kSuccess) return st;
  auto inst = std::make_unique<SmallLinalgInstance>();
  inst->name = info.name;
  inst->isLogdet = isLogdet;
  inst->upper = upper;
  if (!isLogdet) inst->attrs = fmt::format("upper={}", upper);
  addInput(*inst, "self", self);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), ws, ex);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnLinalgCholeskyGetWorkspaceSize(const aclTensor* self, bool upper, aclTensor* out,
                                                           uint64_t* ws, aclOpExecutor** ex) {
  return npusim::aclnn::build(npusim::aclnn::kCholesky, "aclnnLinalgCholeskyGetWorkspaceSize", self, out,
                              false, upper, ws, ex);
}
NPUSIM_ACLNN_PHASE2(LinalgCholesky)

extern "C" aclnnStatus aclnnLogdetGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* ws,
                                                   aclOpExecutor** ex) {
  return npusim::aclnn::build(npusim::aclnn::kLogdet, "aclnnLogdetGetWorkspaceSize", self, out, true, false,
                              ws, ex);
}
NPUSIM_ACLNN_PHASE2(Logdet)
