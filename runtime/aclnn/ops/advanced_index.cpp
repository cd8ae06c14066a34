// aclnnIndex (ops-nn index/index): PyTorch's advanced indexing, out = self[indices]. indices[i]
// (int32/int64, or null for a whole dimension) indexes dimension i; the given index tensors
// broadcast to one shape B, which replaces the indexed dimensions in out (in their place when
// they are adjacent, in front otherwise). Negative indices count from the end; an index
// outside its dimension gives 0 (the device raises an AI-core exception, not modelled). Bool
// index tensors are not supported (161002). Cost: the gathered elements and the indices read,
// out written.
#include <fmt/format.h>

#include "aclnnop/aclnn_index.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/gather_map_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/scatter_op.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"
#include "runtime/aclnn/ops/where_op.h"

namespace npusim::aclnn {
namespace {

const OpInfo kIndex{"aclnnIndex",
                    ExecUnit::kVector,
                    {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8,
                     ACL_UINT8, ACL_BOOL},
                    "out = self[indices] (advanced indexing)"};
const OpRegistrar kIndexRegistrar(kIndex);

class AdvancedIndexInstance : public OpInstanceBase<AdvancedIndexInstance> {
 public:
  std::vector<int> indexed;     // per self dimension: input number of its index tensor, or -1
  std::vector<int64_t> bshape;  // the index tensors' broadcast shape B
  size_t bfront = 0;            // where B sits in out's dimensions
  std::vector<int64_t> selfShape;

  rt::OpWork work() const override {
    TensorDesc gathered = inputs[0];
    gathered.shape = outputs[0].shape;
    std::vector<TensorDesc> reads{gathered};
    reads.insert(reads.end(), inputs.begin() + 1, inputs.end());
    return vectorTiles(VectorPass{&reads, &outputs[0], outputs[0].numel(), 0});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (out[0].numel() == 0) return;
    std::vector<std::vector<int64_t>> idx(in.size());
    for (size_t k = 1; k < in.size(); ++k) idx[k] = loadDense<int64_t>(broadcastView(in[k], bshape));
    const size_t bRank = bshape.size();
    const std::vector<int64_t>& os = out[0].shape;
    std::vector<int64_t> sources(static_cast<size_t>(out[0].numel()));
    std::vector<int64_t> pos(os.size(), 0);
    for (size_t e = 0; e < sources.size(); ++e) {
      // B's flat position and the positions of the whole dimensions, from out's coordinates.
      const std::vector<int64_t> bpos(pos.begin() + static_cast<int64_t>(bfront),
                                      pos.begin() + static_cast<int64_t>(bfront + bRank));
      const int64_t b = flatIndex(bpos, bshape);
      size_t free = 0;  // next out coordinate of a whole dimension
      int64_t f = 0;
      bool inside = true;
      for (size_t d = 0; d < selfShape.size(); ++d) {
        if (free == bfront) free += bRank;
        int64_t i;
        if (indexed[d] >= 0) {
          i = wrapIndex(idx[static_cast<size_t>(indexed[d])][static_cast<size_t>(b)], selfShape[d]);
          inside = inside && i >= 0;
        } else {
          i = pos[free++];
        }
        f = f * selfShape[d] + std::max<int64_t>(i, 0);
      }
      sources[e] = inside ? f : -1;
      for (size_t a = os.size(); a-- > 0;) {
        if (++pos[a] < os[a]) break;
        pos[a] = 0;
      }
    }
    MapInstance copy;  // the gather itself: out[e] = self.flat[sources[e]]
    copy.source = [&sources, &os](const std::vector<int64_t>& p) {
      return sources[static_cast<size_t>(flatIndex(p, os))];
    };
    copy.compute({in[0]}, out);
  }
};

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnIndexGetWorkspaceSize(const aclTensor* self, const aclTensorList* indices,
                                                  aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  const char* api = "aclnnIndexGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkMapArgs(api, kIndex, "self", self, "out", out);
  if (st != kSuccess || (st = checkNotNull(api, {{"indices", indices}})) != kSuccess) return st;
  const std::vector<int64_t> s = self->desc.shape;
  if (indices->items.size() > s.size())
    return fail(api, kErrParamInvalid,
                fmt::format("{} indices for {} dimensions", indices->items.size(), s.size()));
  auto inst = std::make_unique<AdvancedIndexInstance>();
  inst->name = "aclnnIndex";
  addInput(*inst, "self", self);
  inst->indexed.assign(s.size(), -1);
  inst->selfShape = s;
  std::vector<int64_t> b;
  size_t first = s.size(), last = 0, given = 0;
  for (size_t d = 0; d < indices->items.size(); ++d) {
    const aclTensor* t = indices->items[d];
    if (t == nullptr) continue;  // a whole dimension
    const std::string name = fmt::format("indices[{}]", d);
    if ((st = checkTensor(api, name.c_str(), t->desc)) != kSuccess) return st;
    if (t->desc.dtype != ACL_INT32 && t->desc.dtype != ACL_INT64) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} type {} is not supported (int32 or int64; bool masks are not)", name,
                              dtypeName(t->desc.dtype)));
    }
    std::vector<int64_t> joined;
    if (!broadcastShapes(b, t->desc.shape, &joined))
      return fail(
          api, kErrParamInvalid,
          fmt::format("{} shape {} does not broadcast with the others", name, shapeString(t->desc.shape)));
    b = joined;
    inst->indexed[d] = static_cast<int>(inst->inputs.size());
    addInput(*inst, "indices", t);
    first = std::min(first, d);
    last = d;
    ++given;
  }
  if (given == 0) return fail(api, kErrParamInvalid, "indices holds no index tensor");
  const bool adjacent = last - first + 1 == given;
  inst->bshape = b;
  inst->bfront = adjacent ? first : 0;
  std::vector<int64_t> shape;
  for (size_t d = 0; d < s.size(); ++d) {
    if (inst->indexed[d] < 0) shape.push_back(s[d]);
  }
  shape.insert(shape.begin() + static_cast<int64_t>(inst->bfront), b.begin(), b.end());
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  addOutput(*inst, "out", out);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Index)
