// aclnnEinsum (ops-nn matmul/batch_mat_mul_v3/docs/aclnnEinsum.md): the two equations the public
// operator registers, all three tensors of one type (fp16, fp32, int16, uint16, int32, uint32,
// int64, uint64), no empty tensors:
//   "abcd,abced->abce": output[a,b,c,e] = sum_d tensors[0][a,b,c,d] * tensors[1][a,b,c,e,d]
//   "a,b->ab":          output[a,b] = tensors[0][a] * tensors[1][b]
// Floats multiply and accumulate in fp32 and round once; integers in int64 with the type's
// wrap-around. Cost: both inputs read, the output written, a multiply and a reduction pass.
#include <fmt/format.h>

#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_einsum.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {
namespace {

const OpInfo kInfo{
    "aclnnEinsum",
    ExecUnit::kVector,
    {ACL_FLOAT16, ACL_FLOAT, ACL_INT16, ACL_UINT16, ACL_INT32, ACL_UINT32, ACL_INT64, ACL_UINT64},
    "output = einsum(equation, tensors[0], tensors[1])"};
const OpRegistrar kRegistrar(kInfo);

constexpr const char* kBatchedRowDot = "abcd,abced->abce";
constexpr const char* kOuter = "a,b->ab";

class EinsumInstance : public OpInstanceBase<EinsumInstance> {
 public:
  bool outer = false;

  rt::OpWork work() const override {
    const int64_t space = outer ? outputs[0].numel() : inputs[1].numel();
    return vectorTiles(VectorPass{&inputs, &outputs[0], space, outer ? 0 : 1});
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (calcFor(out[0].dtype) == Calc::kI64) return run<int64_t>(in, out[0]);
    run<float>(in, out[0]);
  }

 private:
  template <typename T>
  void run(const std::vector<HostTensor>& in, const HostTensor& out) const {
    const std::vector<T> x = loadDense<T>(in[0]), y = loadDense<T>(in[1]);
    std::vector<T> r(static_cast<size_t>(out.numel()), T(0));
    if (outer) {
      const size_t nb = y.size();
      for (size_t i = 0; i < x.size(); ++i) {
        for (size_t j = 0; j < nb; ++j) r[i * nb + j] = mul(x[i], y[j]);
      }
    } else {
      const auto d = static_cast<size_t>(in[0].shape[3]), e = static_cast<size_t>(in[1].shape[3]);
      const size_t rows = x.size() / d;
      for (size_t i = 0; i < rows; ++i) {
        for (size_t j = 0; j < e; ++j) {
          T acc = T(0);
          for (size_t k = 0; k < d; ++k) acc = add(acc, mul(x[i * d + k], y[(i * e + j) * d + k]));
          r[i * e + j] = acc;
        }
      }
    }
    storeDense(out, r.data());
  }
  // Integer products and sums wrap (two's complement) instead of overflowing.
  static int64_t mul(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  }
  static int64_t add(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  }
  static float mul(float a, float b) { return a * b; }
  static float add(float a, float b) { return a + b; }
};

int32_t build(const aclTensorList* tensors, const char* equation, aclTensor* output, uint64_t* workspaceSize,
              aclOpExecutor** executor) {
  const char* api = "aclnnEinsumGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"tensors", tensors}, {"equation", equation}, {"output", output}});
  if (st != kSuccess) return st;
  if (tensors->items.size() != 2) {
    return fail(api, kErrParamInvalid,
                fmt::format("tensors must hold 2 tensors, but holds {}", tensors->items.size()));
  }
  const aclTensor* x = tensors->items[0];
  const aclTensor* y = tensors->items[1];
  if ((st = checkNotNull(api, {{"tensors[0]", x}, {"tensors[1]", y}})) != kSuccess) return st;
  const std::string eq(equation);
  const bool outer = eq == kOuter;
  if (!outer && eq != kBatchedRowDot) {
    return fail(api, kErrParamInvalid,
                fmt::format("equation \"{}\" is not supported; expected \"{}\" or \"{}\"", eq, kBatchedRowDot,
                            kOuter));
  }
  const std::pair<const char*, const aclTensor*> all[] = {
      {"tensors[0]", x}, {"tensors[1]", y}, {"output", output}};
  for (const auto& [name, t] : all) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if ((st = checkDtype(api, name, t->desc.dtype, kInfo)) != kSuccess) return st;
    if (t->desc.numel() == 0) return fail(api, kErrParamInvalid, fmt::format("{} must not be empty", name));
    if (t->desc.dtype != x->desc.dtype) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} has type {}, but tensors[0] has {}: all must be one type", name,
                              dtypeName(t->desc.dtype), dtypeName(x->desc.dtype)));
    }
  }
  const auto& a = x->desc.shape;
  const auto& b = y->desc.shape;
  std::vector<int64_t> want;
  if (outer) {
    if (a.size() != 1 || b.size() != 1) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("\"{}\" takes two 1-D tensors, not {} and {}", eq, shapeString(a), shapeString(b)));
    }
    want = {a[0], b[0]};
  } else {
    if (a.size() != 4 || b.size() != 5 || a[0] != b[0] || a[1] != b[1] || a[2] != b[2] || a[3] != b[4]) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("\"{}\" takes a 4-D and a 5-D tensor sharing dimensions a, b, c and d, not {} and {}",
                      eq, shapeString(a), shapeString(b)));
    }
    want = {a[0], a[1], a[2], b[3]};
  }
  if ((st = checkShape(api, "output", output->desc.shape, want)) != kSuccess) return st;
  auto inst = std::make_unique<EinsumInstance>();
  inst->name = "aclnnEinsum";
  inst->outer = outer;
  inst->inputs = {x->desc, y->desc};
  inst->inputNames = {"tensors[0]", "tensors[1]"};
  inst->outputs = {output->desc};
  inst->outputNames = {"output"};
  inst->outputAlias = {-1};
  inst->attrs = fmt::format("equation={}", eq);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnEinsumGetWorkspaceSize(const aclTensorList* tensors, const char* equation,
                                                   aclTensor* output, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return npusim::aclnn::build(tensors, equation, output, workspaceSize, executor);
}

NPUSIM_ACLNN_PHASE2(Einsum)
