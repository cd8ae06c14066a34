// aclnnReduceSum (ops-math math/reduce_sum/docs/aclnnReduceSum.md): sums self over `dims`
// (every dimension when dims is empty) in type `dtype`, which must be out's type.
#include "runtime/aclnn/ops/reduce_sum.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <type_traits>

#include "aclnnop/aclnn_reduce_sum.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/strided_loop.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

const OpInfo kInfo{"aclnnReduceSum",
                   ExecUnit::kVector,
                   {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32,
                    ACL_INT64, ACL_BOOL},
                   "out = sum(self, dims)"};
const OpRegistrar kRegistrar(kInfo);

constexpr int64_t kChunk = 1024;

// Accumulators are fp64 for floating dtypes and int64 (wrapping) otherwise.
template <typename A>
void reduceAs(const HostTensor& self, const std::vector<bool>& reduce, bool keepDims, aclDataType dtype,
              const HostTensor& out) {
  const size_t r = self.shape.size();
  // Accumulator layout: row-major over the kept dimensions.
  std::vector<int64_t> keptShape;
  for (size_t d = 0; d < r; ++d) {
    if (!reduce[d]) keptShape.push_back(self.shape[d]);
  }
  const std::vector<int64_t> keptStrides = contiguousStrides(keptShape);
  int64_t accCount = 1;
  for (int64_t e : keptShape) accCount *= e;
  std::vector<A> acc(static_cast<size_t>(accCount), A(0));

  std::vector<int64_t> accByte(r, 0);
  for (size_t d = 0, k = 0; d < r; ++d) {
    if (!reduce[d]) accByte[d] = keptStrides[k++] * static_cast<int64_t>(sizeof(A));
  }
  std::array<std::vector<int64_t>, 2> strides = {
      broadcastByteStrides(self.shape, self.strides, dtypeSize(self.dtype), r), accByte};
  A buf[kChunk];
  forEachRow<2>(self.shape, strides, {self.data, reinterpret_cast<char*>(acc.data())},
                [&](const std::array<char*, 2>& p, int64_t n, const std::array<int64_t, 2>& s) {
                  for (int64_t done = 0; done < n; done += kChunk) {
                    const int64_t m = std::min(kChunk, n - done);
                    loadRow(self.dtype, p[0] + done * s[0], s[0], m, buf);
                    quantizeRow(dtype, buf, m);  // the cast of self to dtype
                    if constexpr (std::is_same_v<A, int64_t>) {
                      if (s[1] == 0) {
                        uint64_t sum = static_cast<uint64_t>(*reinterpret_cast<A*>(p[1]));
                        for (int64_t i = 0; i < m; ++i) sum += static_cast<uint64_t>(buf[i]);
                        *reinterpret_cast<A*>(p[1]) = static_cast<A>(sum);
                      } else {
                        A* a = reinterpret_cast<A*>(p[1] + done * s[1]);
                        const int64_t step = s[1] / static_cast<int64_t>(sizeof(A));
                        for (int64_t i = 0; i < m; ++i) {
                          a[i * step] = static_cast<A>(static_cast<uint64_t>(a[i * step]) +
                                                       static_cast<uint64_t>(buf[i]));
                        }
                      }
                    } else {
                      if (s[1] == 0) {
                        A sum = *reinterpret_cast<A*>(p[1]);
                        for (int64_t i = 0; i < m; ++i) sum += buf[i];
                        *reinterpret_cast<A*>(p[1]) = sum;
                      } else {
                        A* a = reinterpret_cast<A*>(p[1] + done * s[1]);
                        const int64_t step = s[1] / static_cast<int64_t>(sizeof(A));
                        for (int64_t i = 0; i < m; ++i) a[i * step] += buf[i];
                      }
                    }
                  }
                });

  // Write the accumulators to out (whose shape may keep reduced dims as 1).
  std::vector<int64_t> outAccStrides(out.shape.size(), 0);
  if (keepDims) {
    for (size_t d = 0, k = 0; d < r; ++d) {
      if (!reduce[d]) outAccStrides[d] = keptStrides[k++] * static_cast<int64_t>(sizeof(A));
    }
  } else {
    for (size_t k = 0; k < keptStrides.size(); ++k)
      outAccStrides[k] = keptStrides[k] * static_cast<int64_t>(sizeof(A));
  }
  std::array<std::vector<int64_t>, 2> outStrides = {
      broadcastByteStrides(out.shape, out.strides, dtypeSize(out.dtype), out.shape.size()), outAccStrides};
  forEachRow<2>(out.shape, outStrides, {out.data, reinterpret_cast<char*>(acc.data())},
                [&](const std::array<char*, 2>& p, int64_t n, const std::array<int64_t, 2>& s) {
                  for (int64_t done = 0; done < n; done += kChunk) {
                    const int64_t m = std::min(kChunk, n - done);
                    for (int64_t i = 0; i < m; ++i)
                      buf[i] = *reinterpret_cast<const A*>(p[1] + (done + i) * s[1]);
                    quantizeRow(dtype, buf, m);
                    storeRow(out.dtype, p[0] + done * s[0], s[0], m, buf);
                  }
                });
}

class ReduceSumInstance : public OpInstanceBase<ReduceSumInstance> {
 public:
  std::vector<bool> reduce;
  bool keepDims = false;
  aclDataType dtype = ACL_FLOAT;

  rt::OpWork work() const override {
    const int casts = inputs[0].dtype != dtype ? 1 : 0;
    return vectorTiles(VectorPass{&inputs, &outputs[0], inputs[0].numel(), casts});
  }
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    reduceSumKernel(in[0], reduce, keepDims, dtype, out[0]);
  }
};

int32_t build(const aclTensor* self, const aclIntArray* dims, bool keepDims, aclDataType dtype,
              aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnReduceSumGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"dims", dims}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "self", self->desc)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, kInfo)) != kSuccess) return st;
  if ((st = checkDtype(api, "out", out->desc.dtype, kInfo)) != kSuccess) return st;
  if ((st = checkDtype(api, "dtype", dtype, kInfo)) != kSuccess) return st;
  if (out->desc.dtype != dtype) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("dtype {} must equal out's type {}", dtypeName(dtype), dtypeName(out->desc.dtype)));
  }
  const size_t rank = self->desc.rank();
  const int64_t range = std::max<int64_t>(1, static_cast<int64_t>(rank));  // a 0-d tensor accepts dim 0 / -1
  std::vector<bool> reduce(rank, dims->values.empty());
  std::vector<bool> seen(static_cast<size_t>(range), false);
  for (int64_t d : dims->values) {
    if (d < -range || d >= range) {
      return fail(api, kErrParamInvalid,
                  fmt::format("dim {} is out of range [{}, {}]", d, -range, range - 1));
    }
    const size_t pos = static_cast<size_t>(d < 0 ? d + range : d);
    if (seen[pos])
      return fail(api, kErrParamInvalid, fmt::format("dim {} appears more than once in dims", pos));
    seen[pos] = true;
    if (pos < rank) reduce[pos] = true;
  }
  std::vector<int64_t> expect;
  for (size_t d = 0; d < rank; ++d) {
    if (!reduce[d])
      expect.push_back(self->desc.shape[d]);
    else if (keepDims)
      expect.push_back(1);
  }
  if ((st = checkShape(api, "out", out->desc.shape, expect)) != kSuccess) return st;

  auto inst = std::make_unique<ReduceSumInstance>();
  inst->name = "aclnnReduceSum";
  inst->inputs = {self->desc};
  inst->inputNames = {"self"};
  inst->outputs = {out->desc};
  inst->outputNames = {"out"};
  inst->outputAlias = {-1};
  inst->reduce = reduce;
  inst->keepDims = keepDims;
  inst->dtype = dtype;
  inst->attrs =
      fmt::format("dims={}, keepDims={}, dtype={}", shapeString(dims->values), keepDims, dtypeName(dtype));
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace

void reduceSumKernel(const HostTensor& self, const std::vector<bool>& reduce, bool keepDims,
                     aclDataType dtype, const HostTensor& out) {
  if (out.numel() == 0) return;
  if (calcFor(dtype) == Calc::kI64)
    reduceAs<int64_t>(self, reduce, keepDims, dtype, out);
  else
    reduceAs<double>(self, reduce, keepDims, dtype, out);
}

}  // namespace npusim::aclnn

extern "C" {

aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, bool keepDims,
                                           aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return npusim::aclnn::build(self, dims, keepDims, dtype, out, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(ReduceSum)
