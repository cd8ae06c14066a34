#include "runtime/aclnn/ops/index_op.h"

#include <fmt/format.h>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

template <typename T>
void gatherAs(const IndexInstance& op, const HostTensor& self, const HostTensor& index,
              const HostTensor& out) {
  const std::vector<T> x = loadDense<T>(self);
  const std::vector<int64_t> idx = loadDense<int64_t>(index);
  const size_t d = static_cast<size_t>(op.dim);
  const int64_t n = self.shape.empty() ? 1 : self.shape[d];
  std::vector<T> y(static_cast<size_t>(out.numel()), T(0));
  if (!op.elementwise) {                     // out[o, k, i] = self[o, index[k], i]
    const bool scalar = self.shape.empty();  // a 0-d self acts as shape [1]
    const int64_t outer = scalar ? 1 : dimProduct(self.shape, 0, d);
    const int64_t inner = scalar ? 1 : dimProduct(self.shape, d + 1, self.shape.size());
    const auto k = static_cast<int64_t>(idx.size());
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t j = 0; j < k; ++j) {
        int64_t s = idx[static_cast<size_t>(j)];
        if (op.wrapNegative && s < 0) s += n;
        if (s < 0 || s >= n) continue;
        std::copy_n(x.begin() + (o * n + s) * inner, inner, y.begin() + (o * k + j) * inner);
      }
    }
  } else {  // out[..., j, ...] = self[..., index[..., j, ...], ...] (same position elsewhere)
    const size_t r = out.shape.size();
    const std::vector<int64_t> selfStride = contiguousStrides(self.shape);
    std::vector<int64_t> pos(r, 0);
    for (size_t e = 0; e < y.size(); ++e) {
      const int64_t s = idx[e];
      if (s >= 0 && s < n) {
        int64_t src = 0;
        for (size_t a = 0; a < r; ++a) src += (a == d ? s : pos[a]) * selfStride[a];
        y[e] = x[static_cast<size_t>(src)];
      }
      for (size_t a = r; a-- > 0;) {
        if (++pos[a] < out.shape[a]) break;
        pos[a] = 0;
      }
    }
  }
  storeDense(out, y.data());
}

}  // namespace

rt::OpWork IndexInstance::work() const {
  // Reads: one self element per out element (gathered rows, at self's address) and the index,
  // which is per element for Gather but per slice for IndexSelect / Embedding (then it does
  // not set the tile size).
  TensorDesc gathered = inputs[0];
  gathered.shape = outputs[0].shape;
  std::vector<TensorDesc> reads{gathered};
  VectorPass p{&reads, &outputs[0], outputs[0].numel(), 0};
  if (elementwise)
    reads.push_back(inputs[1]);
  else
    p.extraReadBytes = static_cast<uint64_t>(inputs[1].numel()) * inputs[1].elementSize();
  return vectorTiles(p);
}

void IndexInstance::compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const {
  if (out[0].numel() == 0) return;
  if (isIntegral(in[0].dtype, true))
    gatherAs<int64_t>(*this, in[0], in[1], out[0]);
  else
    gatherAs<double>(*this, in[0], in[1], out[0]);
}

int32_t checkIndexArgs(const char* api, const OpInfo& info, const char* selfName, const aclTensor* self,
                       const char* indexName, const aclTensor* index, const aclTensor* out) {
  int32_t st = checkNotNull(api, {{selfName, self}, {indexName, index}, {"out", out}});
  if (st != kSuccess) return st;
  for (auto [name, t] : {std::pair{selfName, self}, {indexName, index}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
  }
  if ((st = checkDtype(api, selfName, self->desc.dtype, info)) != kSuccess) return st;
  if (index->desc.dtype != ACL_INT32 && index->desc.dtype != ACL_INT64) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("{} type must be int32 or int64, but is {}", indexName, dtypeName(index->desc.dtype)));
  }
  if (out->desc.dtype != self->desc.dtype) {
    return fail(api, kErrParamInvalid,
                fmt::format("out type {} must equal {} type {}", dtypeName(out->desc.dtype), selfName,
                            dtypeName(self->desc.dtype)));
  }
  return kSuccess;
}

int32_t checkIndexArgsAlongDim(const char* api, const OpInfo& info, const aclTensor* self,
                               const aclTensor* index, const aclTensor* out, int64_t dim, int64_t* d) {
  const int32_t st = checkIndexArgs(api, info, "self", self, "index", index, out);
  if (st != kSuccess) return st;
  const size_t rank = self->desc.rank();
  *d = wrapDim(dim, std::max<size_t>(rank, 1));
  if (*d < 0)
    return fail(api, kErrParamInvalid, fmt::format("dim {} is out of range for {} dimensions", dim, rank));
  return kSuccess;
}

std::unique_ptr<IndexInstance> makeIndexInstance(const std::string& name, int64_t dim, const char* sourceName,
                                                 const aclTensor* source, const char* indexName,
                                                 const aclTensor* index, const char* outName,
                                                 const aclTensor* out) {
  auto inst = std::make_unique<IndexInstance>();
  inst->name = name;
  inst->dim = dim;
  addInput(*inst, sourceName, source);
  addInput(*inst, indexName, index);
  addOutput(*inst, outName, out);
  return inst;
}

}  // namespace npusim::aclnn
