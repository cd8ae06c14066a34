#include "runtime/aclnn/ops/matmul_geometry.h"

#include <fmt/format.h>

#include "runtime/aclnn/base/tensor.h"
#include "runtime/aclnn/ops/op_checks.h"

namespace npusim::aclnn {

namespace {

std::vector<int64_t> batchOf(const std::vector<int64_t>& s) {
  return s.size() > 2 ? std::vector<int64_t>(s.begin(), s.end() - 2) : std::vector<int64_t>{};
}

}  // namespace

std::string matmulOutShape(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                           std::vector<int64_t>* out) {
  if (a.empty() || b.empty()) return "matmul needs operands with at least one dimension";
  const int64_t ka = a.back();
  const int64_t kb = b.size() == 1 ? b[0] : b[b.size() - 2];
  if (ka != kb) {
    return fmt::format("the K dimensions differ: self {} has K={}, mat2 {} has K={}", shapeString(a), ka,
                       shapeString(b), kb);
  }
  std::vector<int64_t> batch;
  if (!broadcastShapes(batchOf(a), batchOf(b), &batch)) {
    return fmt::format("the batch dimensions of self {} and mat2 {} are not broadcastable", shapeString(a),
                       shapeString(b));
  }
  std::vector<int64_t> s = batch;
  if (a.size() >= 2) s.push_back(a[a.size() - 2]);
  if (b.size() >= 2) s.push_back(b.back());
  *out = std::move(s);
  return {};
}

bool matmulGeometry(const std::vector<int64_t>& aShape, const std::vector<int64_t>& aStrides,
                    const std::vector<int64_t>& bShape, const std::vector<int64_t>& bStrides,
                    const std::vector<int64_t>& outStrides, MatmulGeometry* g) {
  std::vector<int64_t> outShape;
  if (!matmulOutShape(aShape, bShape, &outShape).empty()) return false;
  const bool aVec = aShape.size() == 1, bVec = bShape.size() == 1;
  g->outShape = outShape;
  g->K = aShape.back();
  g->M = aVec ? 1 : aShape[aShape.size() - 2];
  g->N = bVec ? 1 : bShape.back();
  g->aSk = aStrides.back();
  g->aSm = aVec ? 0 : aStrides[aShape.size() - 2];
  g->bSk = bVec ? bStrides[0] : bStrides[bShape.size() - 2];
  g->bSn = bVec ? 0 : bStrides.back();
  // Out dims: batch..., [M if self is a matrix], [N if mat2 is a matrix].
  const size_t outRank = outShape.size();
  size_t nb = outRank - (aVec ? 0 : 1) - (bVec ? 0 : 1);
  g->cSm = aVec ? 0 : outStrides[nb];
  g->cSn = bVec ? 0 : outStrides[outRank - 1];

  const std::vector<int64_t> batch(outShape.begin(), outShape.begin() + static_cast<int64_t>(nb));
  int64_t count = 1;
  for (int64_t d : batch) count *= d;
  g->batch = count;
  g->aOff.assign(static_cast<size_t>(count), 0);
  g->bOff.assign(static_cast<size_t>(count), 0);
  g->cOff.assign(static_cast<size_t>(count), 0);
  // Batch strides aligned to the output batch (0 where an operand is broadcast).
  auto aligned = [nb](const std::vector<int64_t>& shape, const std::vector<int64_t>& strides) {
    std::vector<int64_t> s(nb, 0);
    const size_t ob = shape.size() > 2 ? shape.size() - 2 : 0;
    for (size_t i = 0; i < ob; ++i) s[nb - ob + i] = shape[i] == 1 ? 0 : strides[i];
    return s;
  };
  const std::vector<int64_t> as = aligned(aShape, aStrides), bs = aligned(bShape, bStrides);
  std::vector<int64_t> idx(nb, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t ao = 0, bo = 0, co = 0;
    for (size_t d = 0; d < nb; ++d) {
      ao += idx[d] * as[d];
      bo += idx[d] * bs[d];
      co += idx[d] * outStrides[d];
    }
    g->aOff[static_cast<size_t>(i)] = ao;
    g->bOff[static_cast<size_t>(i)] = bo;
    g->cOff[static_cast<size_t>(i)] = co;
    for (size_t d = nb; d-- > 0;) {
      if (++idx[d] < batch[d]) break;
      idx[d] = 0;
    }
  }
  return true;
}

}  // namespace npusim::aclnn
