#include "runtime/aclnn/ops/reduce_op.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

template <typename T>
bool isNan(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  return false;
}

template <typename T>
void reduceAs(const ReduceInstance& op, const HostTensor& self, const HostTensor& out) {
  std::vector<T> x = loadDense<T>(self);
  quantizeRow(op.calcType, x.data(), static_cast<int64_t>(x.size()));
  std::vector<int64_t> group, pos;
  groupIndex(self.shape, op.reduce, &group, &pos);
  const auto groups = static_cast<size_t>(out.numel());
  switch (op.kind) {
    case ReduceKind::kMean: {
      std::vector<double> sum(groups, 0.0);
      for (size_t i = 0; i < x.size(); ++i) sum[static_cast<size_t>(group[i])] += static_cast<double>(x[i]);
      const double count = groups == 0 ? 1.0 : static_cast<double>(x.size()) / static_cast<double>(groups);
      for (double& s : sum) s /= count;  // an empty reduction gives 0/0 = NaN, as torch
      return storeDense(out, sum.data());
    }
    case ReduceKind::kMax:
    case ReduceKind::kArgMax: {
      std::vector<T> best(groups);
      std::vector<int64_t> at(groups, -1);
      for (size_t i = 0; i < x.size(); ++i) {
        const auto g = static_cast<size_t>(group[i]);
        // The first NaN wins, then the first maximum.
        if (at[g] < 0 || (!isNan(best[g]) && (isNan(x[i]) || x[i] > best[g]))) {
          best[g] = x[i];
          at[g] = pos[i];
        }
      }
      if (op.kind == ReduceKind::kMax) return storeDense(out, best.data());
      return storeDense(out, at.data());
    }
  }
}

}  // namespace

void groupIndex(const std::vector<int64_t>& shape, const std::vector<bool>& reduce,
                std::vector<int64_t>* group, std::vector<int64_t>* pos) {
  const size_t r = shape.size();
  std::vector<int64_t> keptStride(r, 0), redStride(r, 0);
  int64_t k = 1, q = 1;
  for (size_t d = r; d-- > 0;) {
    if (reduce[d]) {
      redStride[d] = q;
      q *= shape[d];
    } else {
      keptStride[d] = k;
      k *= shape[d];
    }
  }
  const int64_t n = dimProduct(shape, 0, r);
  group->assign(static_cast<size_t>(n), 0);
  pos->assign(static_cast<size_t>(n), 0);
  std::vector<int64_t> idx(r, 0);
  int64_t g = 0, p = 0;
  for (int64_t i = 0; i < n; ++i) {
    (*group)[static_cast<size_t>(i)] = g;
    (*pos)[static_cast<size_t>(i)] = p;
    for (size_t d = r; d-- > 0;) {  // odometer step, keeping g and p current
      g += keptStride[d];
      p += redStride[d];
      if (++idx[d] < shape[d]) break;
      g -= keptStride[d] * shape[d];
      p -= redStride[d] * shape[d];
      idx[d] = 0;
    }
  }
}

int32_t reduceDims(const char* api, const std::vector<int64_t>& shape, const std::vector<int64_t>& dims,
                   bool keepDims, std::vector<bool>* reduce, std::vector<int64_t>* outShape) {
  const size_t rank = shape.size();
  const int64_t range = std::max<int64_t>(1, static_cast<int64_t>(rank));  // a 0-d tensor accepts dim 0 / -1
  reduce->assign(rank, dims.empty());
  std::vector<bool> seen(static_cast<size_t>(range), false);
  for (int64_t d : dims) {
    if (d < -range || d >= range) {
      return fail(api, kErrParamInvalid,
                  fmt::format("dim {} is out of range [{}, {}]", d, -range, range - 1));
    }
    const size_t p = static_cast<size_t>(d < 0 ? d + range : d);
    if (seen[p]) return fail(api, kErrParamInvalid, fmt::format("dim {} appears more than once in dims", p));
    seen[p] = true;
    if (p < rank) (*reduce)[p] = true;
  }
  outShape->clear();
  for (size_t d = 0; d < rank; ++d) {
    if (!(*reduce)[d])
      outShape->push_back(shape[d]);
    else if (keepDims)
      outShape->push_back(1);
  }
  return kSuccess;
}

rt::OpWork ReduceInstance::work() const {
  const int casts = inputs[0].dtype != calcType && isFloating(calcType) ? 1 : 0;
  return vectorTiles(VectorPass{&inputs, &outputs[0], inputs[0].numel(), passes + casts});
}

void ReduceInstance::compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const {
  if (out[0].numel() == 0) return;
  if (calcFor(calcType) == Calc::kI64)
    reduceAs<int64_t>(*this, in[0], out[0]);
  else
    reduceAs<double>(*this, in[0], out[0]);
}

int32_t buildReduce(const ReduceApi& a, const aclTensor* self, const std::vector<int64_t>& dims,
                    bool keepDims, aclDataType calcType, const aclTensor* out, std::string attrs,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  int32_t st = checkTensor(a.api, "self", self->desc);
  if (st != kSuccess) return st;
  if ((st = checkTensor(a.api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(a.api, "self", self->desc.dtype, *a.info)) != kSuccess) return st;
  std::vector<bool> reduce;
  std::vector<int64_t> expect;
  if ((st = reduceDims(a.api, self->desc.shape, dims, keepDims, &reduce, &expect)) != kSuccess) return st;
  if ((st = checkShape(a.api, "out", out->desc.shape, expect)) != kSuccess) return st;
  if (a.kind != ReduceKind::kMean && self->desc.numel() == 0 && out->desc.numel() > 0) {
    return fail(a.api, kErrParamInvalid,
                fmt::format("self shape {} has an empty reduced dimension", shapeString(self->desc.shape)));
  }
  auto inst = std::make_unique<ReduceInstance>();
  inst->name = a.opName;
  inst->kind = a.kind;
  inst->reduce = reduce;
  inst->calcType = calcType;
  inst->passes = a.passes;
  inst->attrs = std::move(attrs);
  addInput(*inst, "self", self);
  addOutput(*inst, "out", out);
  return makeExecutor(a.api, std::move(inst), workspaceSize, executor);
}

}  // namespace npusim::aclnn
