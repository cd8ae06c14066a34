// aclnnWeightQuantBatchMatmul (ops-nn matmul/weight_quant_batch_matmul/docs): the first, deprecated
// weight-only quantised matmul, out = x1 @ mat2 + bias for x1 fp16 [m, k] and x2 int8 [k, n]
// (2-D; transposeX1 / transposeX2 read them transposed), bias fp32 [n] (cast to fp16 first), out
// fp16. mat2 comes from x2 by one of two paths, chosen by m as the library does:
// - m > 64 (vector unit): mat2 = fp16(fp16((x2 + antiquantOffset) · antiquantScale) + addOffset) ·
//   mulScale, the first step in fp32, each later step rounded to fp16; addOffset / mulScale fp16,
//   optional, broadcast against x2 as stored ([1], [n], [1, n]; [n, 1] when transposed);
// - m <= 64 (fixpipe): mat2 = fp16((x2 + deqOffset) · deqScale), deqOffset int32 and deqScale the
//   uint64 of aclnnTransQuantParam ([1] or [n] values), the integer sum exact; diagonalMatrix (int8
//   [32, 32], the identity the cube multiplies x2 by to bring it to the fixpipe) is required but
//   not read.
// The product is an fp16 matmul with fp32 accumulation and one rounding of out. Cost: the fp16
// matmul tiling with x2 read at one byte per element, the dequantised weight through the vector
// unit once, the parameters read once (int8_matmul.h weightOnlyQuantWork).
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <vector>

#include "aclnnop/aclnn_weight_quant_batch_matmul.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/int8_matmul.h"
#include "runtime/aclnn/ops/matmul.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/quant_param.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

float toF16(float v) {
  quantizeRow(ACL_FLOAT16, &v, 1);
  return v;
}

const OpInfo kInfo{"aclnnWeightQuantBatchMatmul",
                   ExecUnit::kCube,
                   {ACL_FLOAT16, ACL_INT8, ACL_FLOAT, ACL_INT32, ACL_UINT64},
                   "out = x1 @ dequant(x2) + bias (addOffset/mulScale for m > 64, deqOffset/deqScale else)"};
const OpRegistrar kRegistrar(kInfo);

constexpr int64_t kFixpipeMaxM = 64;  // the library's M_THRESHOLD: m <= 64 dequantises on the fixpipe

// A parameter broadcast against x2 as stored: rows x cols of its last two dimensions (rows 1 for 1-D).
struct ParamLayout {
  int input = -1;
  int64_t rows = 1, cols = 1;
};

// inputs: x1 ([m, k] view), x2 ([k, n] view), then the parameters named by the layouts.
class WeightQuantV1Instance : public OpInstanceBase<WeightQuantV1Instance> {
 public:
  bool fixpipe = false, transposeX2 = false;
  float antiquantScale = 1, antiquantOffset = 0;
  ParamLayout addOffset, mulScale, deqOffset, deqScale, bias;

  rt::OpWork work() const override {
    return weightOnlyQuantWork(inputs[0], inputs[1], outputs[0], paramBytes(inputs, 2));
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    const int64_t k = inputs[1].shape[0], n = inputs[1].shape[1];
    if (out[0].numel() == 0) return;
    const std::vector<int64_t> w = loadDense<int64_t>(in[1]);
    auto values = [&](const ParamLayout& p) {
      return p.input >= 0 ? loadDense<double>(in[static_cast<size_t>(p.input)]) : std::vector<double>{};
    };
    const std::vector<double> add = values(addOffset), mul = values(mulScale), dOff = values(deqOffset),
                              b = values(bias);
    std::vector<int64_t> dScale;  // the 64-bit parameters, bit for bit
    if (deqScale.input >= 0) dScale = loadDense<int64_t>(in[static_cast<size_t>(deqScale.input)]);
    std::vector<float> mat2(static_cast<size_t>(k * n));
    for (int64_t q = 0; q < k; ++q) {
      for (int64_t j = 0; j < n; ++j) {
        const int64_t x = w[static_cast<size_t>(q * n + j)];
        float v;
        if (fixpipe) {
          const auto s = static_cast<uint64_t>(dScale[perN(deqScale, j)]);
          v = static_cast<float>(x + static_cast<int64_t>(dOff[perN(deqOffset, j)])) * quantParamScale(s);
        } else {
          v = static_cast<float>(x);
          if (std::fabs(antiquantOffset) > std::numeric_limits<float>::epsilon()) v += antiquantOffset;
          if (std::fabs(antiquantScale - 1.0f) > std::numeric_limits<float>::epsilon()) v *= antiquantScale;
          v = toF16(v);
          if (!add.empty()) v = toF16(v + static_cast<float>(add[at(addOffset, q, j)]));
          if (!mul.empty()) v = v * static_cast<float>(mul[at(mulScale, q, j)]);
        }
        mat2[static_cast<size_t>(q * n + j)] = toF16(v);
      }
    }
    std::vector<float> y(static_cast<size_t>(out[0].numel()));
    matmulKernel(MatmulSpec{CubeInput::kF16, ACL_FLOAT}, in[0], hostTensor(ACL_FLOAT, {k, n}, mat2.data()),
                 hostTensor(ACL_FLOAT, out[0].shape, y.data()));
    if (!b.empty()) {
      for (size_t i = 0; i < y.size(); ++i)
        y[i] += toF16(static_cast<float>(b[perN(bias, static_cast<int64_t>(i) % n)]));
    }
    storeDense(out[0], y.data());
  }

 private:
  // The element of `p` for weight row q (k) and column j (n): x2 is stored [n, k] when transposed.
  size_t at(const ParamLayout& p, int64_t q, int64_t j) const {
    const int64_t r = transposeX2 ? j : q, c = transposeX2 ? q : j;
    return static_cast<size_t>((p.rows == 1 ? 0 : r) * p.cols + (p.cols == 1 ? 0 : c));
  }
  // The element of a [1] or [n] parameter for column j.
  static size_t perN(const ParamLayout& p, int64_t j) { return static_cast<size_t>(p.cols == 1 ? 0 : j); }
};

int32_t build(const aclTensor* x1, const aclTensor* x2, const aclTensor* diagonalMatrix,
              const aclTensor* deqOffset, const aclTensor* deqScale, const aclTensor* addOffset,
              const aclTensor* mulScale, const aclTensor* bias, bool transposeX1, bool transposeX2,
              float antiquantScale, float antiquantOffset, const aclTensor* out, uint64_t* workspaceSize,
              aclOpExecutor** executor) {
  const char* api = "aclnnWeightQuantBatchMatmulGetWorkspaceSize";
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"x1", x1}, {"x2", x2}, {"out", out}});
  if (st != kSuccess) return st;
  for (const auto& [name, t] :
       {std::pair<const char*, const aclTensor*>{"x1", x1}, {"x2", x2}, {"out", out}}) {
    if ((st = checkTensor(api, name, t->desc)) != kSuccess) return st;
    if (t->desc.rank() != 2) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} must be 2-dimensional (no batch axis), but is {}", name, t->desc.brief()));
    }
  }
  if (x1->desc.dtype != ACL_FLOAT16 || x2->desc.dtype != ACL_INT8 || out->desc.dtype != ACL_FLOAT16) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("x1, x2 and out must be fp16, int8 and fp16, but are {}, {} and {}",
                    dtypeName(x1->desc.dtype), dtypeName(x2->desc.dtype), dtypeName(out->desc.dtype)));
  }
  const TensorDesc a = transposeX1 ? swapLastTwo(x1->desc) : x1->desc;
  const TensorDesc b = transposeX2 ? swapLastTwo(x2->desc) : x2->desc;
  const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  if (b.shape[0] != k) {
    return fail(api, kErrParamInvalid,
                fmt::format("x1 read as {} and x2 read as {} have different k", shapeString(a.shape),
                            shapeString(b.shape)));
  }
  if ((st = checkShape(api, "out", out->desc.shape, {m, n})) != kSuccess) return st;
  const bool fixpipe = m <= kFixpipeMaxM;
  if (fixpipe) {
    st = checkNotNull(api,
                      {{"diagonalMatrix", diagonalMatrix}, {"deqOffset", deqOffset}, {"deqScale", deqScale}});
    if (st != kSuccess) return st;
  }
  auto inst = std::make_unique<WeightQuantV1Instance>();
  inst->fixpipe = fixpipe;
  inst->transposeX2 = transposeX2;
  inst->antiquantScale = antiquantScale;
  inst->antiquantOffset = antiquantOffset;
  inst->name = kInfo.name;
  inst->inputs = {a, b};
  inst->inputNames = {"x1", "x2"};
  // Adds parameter t of type dt; perWeight: broadcast against x2 as stored, else [1] or [n] values.
  auto param = [&](const char* name, const aclTensor* t, aclDataType dt, bool perWeight, ParamLayout* p) {
    if (t == nullptr) return kSuccess;
    int32_t s = checkTensor(api, name, t->desc);
    if (s != kSuccess) return s;
    const std::vector<int64_t>& sh = t->desc.shape;
    const int64_t rows = sh.size() == 2 ? sh[0] : 1, cols = sh.empty() ? 1 : sh.back();
    const int64_t storedRows = x2->desc.shape[0], storedCols = x2->desc.shape[1];
    const bool ok = perWeight
                        ? sh.size() <= 2 && (rows == 1 || rows == storedRows) &&
                              (cols == 1 || cols == storedCols) && !sh.empty()
                        : sh.size() <= 2 && !sh.empty() && (t->desc.numel() == 1 || t->desc.numel() == n) &&
                              (cols == 1 || cols == n);
    if (t->desc.dtype != dt || !ok) {
      return fail(api, kErrParamInvalid,
                  fmt::format("{} must be {} and {}, but is {}", name, dtypeName(dt),
                              perWeight ? fmt::format("broadcast to x2's stored shape {}",
                                                      shapeString(x2->desc.shape))
                                        : fmt::format("hold 1 or n = {} values", n),
                              t->desc.brief()));
    }
    p->input = static_cast<int>(inst->inputs.size());
    // [n, 1] per-column values are indexed like [n]: one value per n whatever the layout.
    p->rows = perWeight ? rows : 1;
    p->cols = perWeight ? cols : t->desc.numel();
    addInput(*inst, name, t);
    return kSuccess;
  };
  if (fixpipe) {
    if ((st = checkTensor(api, "diagonalMatrix", diagonalMatrix->desc)) != kSuccess) return st;
    if (diagonalMatrix->desc.dtype != ACL_INT8 ||
        diagonalMatrix->desc.shape != std::vector<int64_t>{32, 32}) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("diagonalMatrix must be int8 [32, 32], but is {}", diagonalMatrix->desc.brief()));
    }
    if ((st = param("deqOffset", deqOffset, ACL_INT32, false, &inst->deqOffset)) != kSuccess) return st;
    if ((st = param("deqScale", deqScale, ACL_UINT64, false, &inst->deqScale)) != kSuccess) return st;
  } else {
    if ((st = param("addOffset", addOffset, ACL_FLOAT16, true, &inst->addOffset)) != kSuccess) return st;
    if ((st = param("mulScale", mulScale, ACL_FLOAT16, true, &inst->mulScale)) != kSuccess) return st;
  }
  if ((st = param("bias", bias, ACL_FLOAT, false, &inst->bias)) != kSuccess) return st;
  inst->outputs = {out->desc};
  inst->outputNames = {"out"};
  inst->outputAlias = {-1};
  inst->attrs =
      fmt::format("transposeX1={}, transposeX2={}, antiquantScale={}, antiquantOffset={}, path={}",
                  transposeX1, transposeX2, antiquantScale, antiquantOffset, fixpipe ? "fixpipe" : "vector");
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

}  // namespace
}  // namespace npusim::aclnn

extern "C" aclnnStatus aclnnWeightQuantBatchMatmulGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* diagonalMatrix, const aclTensor* deqOffset,
    const aclTensor* deqScale, const aclTensor* addOffset, const aclTensor* mulScale, const aclTensor* bias,
    bool transposeX1, bool transposeX2, float antiquantScale, float antiquantOffset, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return npusim::aclnn::build(x1, x2, diagonalMatrix, deqOffset, deqScale, addOffset, mulScale, bias,
                              transposeX1, transposeX2, antiquantScale, antiquantOffset, out, workspaceSize,
                              executor);
}

NPUSIM_ACLNN_PHASE2(WeightQuantBatchMatmul)
