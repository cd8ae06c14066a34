// aclnnInverse (ops-nn index/matrix_inverse): the inverse of every square matrix in the last two
// dimensions of self, by Gauss-Jordan elimination with partial pivoting in fp64, rounded once
// to out's type. A singular matrix gives inf/nan entries (the pivot is zero), as a division by
// zero on the device would; the simulator does not raise the device's error. Cost: self read
// and out written once, and about 2 n^3 multiply-adds per matrix in the vector cores (counted
// as vector passes over the matrix's bytes).
#include <fmt/format.h>

#include <cmath>

#include "aclnnop/aclnn_inverse.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/gather_map_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

// aclnnInverse.md: FLOAT, FLOAT16, DOUBLE.
const OpInfo kInverse{
    "aclnnInverse", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE}, "out = self^-1"};
const OpRegistrar kInverseRegistrar(kInverse);

class InverseInstance : public OpInstanceBase<InverseInstance> {
 public:
  int64_t n = 0;

  rt::OpWork work() const override {
    // Each of the n elimination steps sweeps the whole n x 2n augmented matrix once.
    VectorPass p{&inputs, &outputs[0], outputs[0].numel(),
                 static_cast<int>(std::min<int64_t>(2 * n, 1 << 20))};
    return vectorTiles(p);
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    std::vector<double> a = loadDense<double>(in[0]);
    const int64_t batch = n == 0 ? 0 : static_cast<int64_t>(a.size()) / (n * n);
    std::vector<double> y(a.size());
    std::vector<double> m(static_cast<size_t>(n * 2 * n));
    for (int64_t b = 0; b < batch; ++b) {
      const double* src = a.data() + b * n * n;
      for (int64_t r = 0; r < n; ++r) {  // [A | I]
        for (int64_t c = 0; c < 2 * n; ++c)
          m[static_cast<size_t>(r * 2 * n + c)] = c < n ? src[r * n + c] : (c - n == r ? 1.0 : 0.0);
      }
      for (int64_t col = 0; col < n; ++col) {
        int64_t pivot = col;  // the largest magnitude below the diagonal
        for (int64_t r = col + 1; r < n; ++r) {
          if (std::fabs(m[static_cast<size_t>(r * 2 * n + col)]) >
              std::fabs(m[static_cast<size_t>(pivot * 2 * n + col)]))
            pivot = r;
        }
        if (pivot != col) {
          for (int64_t c = 0; c < 2 * n; ++c)
            std::swap(m[static_cast<size_t>(pivot * 2 * n + c)], m[static_cast<size_t>(col * 2 * n + c)]);
        }
        const double p = m[static_cast<size_t>(col * 2 * n + col)];
        for (int64_t c = 0; c < 2 * n; ++c) m[static_cast<size_t>(col * 2 * n + c)] /= p;
        for (int64_t r = 0; r < n; ++r) {
          if (r == col) continue;
          const double f = m[static_cast<size_t>(r * 2 * n + col)];
          if (f == 0) continue;
          for (int64_t c = 0; c < 2 * n; ++c)
            m[static_cast<size_t>(r * 2 * n + c)] -= f * m[static_cast<size_t>(col * 2 * n + c)];
        }
      }
      for (int64_t r = 0; r < n; ++r) {
        for (int64_t c = 0; c < n; ++c)
          y[static_cast<size_t>(b * n * n + r * n + c)] = m[static_cast<size_t>(r * 2 * n + n + c)];
      }
    }
    storeDense(out[0], y.data());
  }
};

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnInverseGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnInverseGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkMapArgs(api, kInverse, "self", self, "out", out);
  if (st != kSuccess) return st;
  const std::vector<int64_t>& s = self->desc.shape;
  if (s.size() < 2 || s[s.size() - 1] != s[s.size() - 2])
    return fail(api, kErrParamInvalid, fmt::format("self {} must end in a square matrix", shapeString(s)));
  if (self->desc.numel() == 0) return fail(api, kErrParamInvalid, "self must not be empty");
  if ((st = checkShape(api, "out", out->desc.shape, s)) != kSuccess) return st;
  auto inst = std::make_unique<InverseInstance>();
  inst->name = "aclnnInverse";
  inst->n = s.back();
  addInput(*inst, "self", self);
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Inverse)
