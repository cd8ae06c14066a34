#pragma once
// The index/scatter engine: out starts as self (or zeros), then every update, at a position
// `pos` of the update space, is combined into out at a destination computed from pos and the
// index values (aclnnScatter*, IndexAdd, IndexCopy, IndexFill, ScatterNd*, TfScatterAdd,
// InplacePut). The update value is src at pos (times alpha) or a scalar. Destinations outside
// out are skipped (the device raises an AI-core exception; the simulator does not model it).
// Cost: self, index and src read once, out written once, one vector pass.
#include <cstdint>
#include <functional>
#include <vector>

#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/ops/op_define.h"

namespace npusim::aclnn {

enum class ScatterReduce { kNone, kAdd, kMul, kMax, kMin, kMean };

// Flat row-major index into out of the update at `pos`, or -1 to skip it; `index` is the index
// tensor's values in row-major order.
using ScatterDest =
    std::function<int64_t(const std::vector<int64_t>& pos, const std::vector<int64_t>& index)>;

class ScatterInstance : public OpInstanceBase<ScatterInstance> {
 public:
  std::vector<int64_t> updateShape;
  ScatterDest dest;
  int selfInput = 0;               // -1: out starts at zero
  int indexInput = 1;              // -1: hostIndex
  std::vector<int64_t> hostIndex;  // indices given on the host (aclIntArray)
  int srcInput = 2;                // -1: scalar; else src is read at pos (src's own shape)
  ScalarValue scalar;
  double alpha = 1;
  ScatterReduce reduce = ScatterReduce::kNone;
  bool includeSelf = true;  // false: the first update of a position replaces self's value
  // When set, an update is divided by how often its index value, index[frequencyOf(pos)], occurs
  // in the index tensor (the embedding gradients' scaleGradByFreq).
  std::function<int64_t(const std::vector<int64_t>& pos)> frequencyOf;

  rt::OpWork work() const override;
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override;
};

// Wraps an index into [0, n) (negative counts from the end); -1 when outside [-n, n).
inline int64_t wrapIndex(int64_t i, int64_t n) { return i < -n || i >= n ? -1 : (i < 0 ? i + n : i); }

}  // namespace npusim::aclnn
