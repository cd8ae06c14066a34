// aclnnMatmul (ops-nn matmul/mat_mul_v3/docs/aclnnMatmul.md): out = self @ mat2 for operands of
// 1 to 8 dimensions with broadcast batch dimensions; fp32, fp16, bf16; cubeMathType 0..4.
#include "runtime/aclnn/ops/matmul.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_matmul.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/executor.h"
#include "runtime/aclnn/base/float_bits.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/copy_op.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/gemm.h"
#include "runtime/aclnn/ops/matmul_geometry.h"
#include "runtime/aclnn/ops/matmul_tiling.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"
#include "runtime/aclnn/ops/weight_nz.h"

namespace npusim::aclnn {

namespace {

const OpInfo kInfo{"aclnnMatmul", ExecUnit::kCube, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, "out = self @ mat2"};
const OpRegistrar kRegistrar(kInfo);

// A2/A3 accept up to 8 dimensions (ops-nn aclnn_matmul.cpp GetMaxSupportMatmulDims).
constexpr size_t kMaxMatmulDims = 8;

void roundInputs(CubeInput in, float* v, int64_t n) {
  switch (in) {
    case CubeInput::kF32:
      return;
    case CubeInput::kHf32:
      for (int64_t i = 0; i < n; ++i) v[i] = roundToHf32(v[i]);
      return;
    case CubeInput::kF16:
      quantizeRow(ACL_FLOAT16, v, n);
      return;
    case CubeInput::kBf16:
      quantizeRow(ACL_BF16, v, n);
      return;
  }
}

// Copies a rows x cols matrix (element strides rs, cs) into a dense fp32 buffer.
void pack(const HostTensor& t, int64_t off, int64_t rows, int64_t cols, int64_t rs, int64_t cs, CubeInput in,
          float* dst) {
  const int64_t es = static_cast<int64_t>(dtypeSize(t.dtype));
  for (int64_t r = 0; r < rows; ++r) {
    loadRow(t.dtype, t.data + (off + r * rs) * es, cs * es, cols, dst + r * cols);
    roundInputs(in, dst + r * cols, cols);
  }
}

class MatmulInstance : public OpInstanceBase<MatmulInstance> {
 public:
  MatmulSpec spec;
  int8_t cubeMathType = 0;
  bool hasAdd = false;  // inputs[2] is Addmm's `self`, scaled by beta and added
  double beta = 1, alpha = 1;
  MatmulEpilogue epilogue = MatmulEpilogue::kNone;
  bool mat2Nz = false;  // inputs[1] is the whole NZ storage of the weight view mat2View
  TensorDesc mat2View;
  NzLayout nz;
  bool sumBatch = false;  // out [M, N] = sum over b of self[b] @ mat2[b]

  rt::OpWork work() const override {
    MatmulGeometry g;
    const TensorDesc& b = mat2Nz ? mat2View : inputs[1];
    // Summed batches write the same out block: charged as B products storing to one address
    // range (the device accumulates in L0C, so the repeated stores overestimate its writes).
    std::vector<int64_t> cStrides = outputs[0].strides;
    if (sumBatch) cStrides.insert(cStrides.begin(), 0);
    matmulGeometry(inputs[0].shape, inputs[0].strides, b.shape, b.strides, cStrides, &g);
    const int64_t inEs = (spec.input == CubeInput::kF16 || spec.input == CubeInput::kBf16) ? 2 : 4;
    const MatmulTiling t = planMatmul(g.batch, g.M, g.N, g.K, inEs, rt::coreRates().cubeCores);
    auto base = [](const TensorDesc& d) {
      return d.data + static_cast<uint64_t>(d.offset) * d.elementSize();
    };
    // The cube's K step is 32 bytes: 16 fp16/bf16 values but 8 fp32 values, so true fp32 takes
    // two fp16 MAC slots per MAC. HF32 is counted at the fp16 rate.
    const uint64_t factor = spec.input == CubeInput::kF32 ? 2 : 1;
    rt::OpWork w = matmulWork(t, g,
                              MatmulAddressing{base(inputs[0]), base(inputs[1]), base(outputs[0]),
                                               static_cast<int64_t>(inputs[0].elementSize()),
                                               static_cast<int64_t>(inputs[1].elementSize()),
                                               static_cast<int64_t>(outputs[0].elementSize()), factor});
    if (hasAdd) {
      // beta * self + alpha * C is applied as each output block leaves L0C (fixpipe), so it
      // costs the reads of self, shared over the blocks.
      const uint64_t bytes = static_cast<uint64_t>(inputs[2].numel()) * inputs[2].elementSize();
      for (size_t i = 0; i < w.tiles.size(); ++i) w.tiles[i].readBytes += shareOf(bytes, i, w.tiles.size());
    }
    // An activation passes each output block once through the vector unit on its way out.
    if (epilogue != MatmulEpilogue::kNone) {
      for (auto& tile : w.tiles) tile.vectorBytes += tile.writeBytes;
    }
    return w;
  }

  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override {
    if (mat2Nz) {
      // Back to the weight's dense storage order, which the view's strides describe.
      std::vector<char> dense(static_cast<size_t>(nz.batch * nz.rows * nz.cols) * dtypeSize(mat2View.dtype));
      nzToDense(nz, dtypeSize(mat2View.dtype), in[1].data, dense.data());
      std::vector<HostTensor> ins = in;
      ins[1].shape = mat2View.shape;
      ins[1].strides = mat2View.strides;
      ins[1].data = dense.data();
      return computeDense(ins, out);
    }
    computeDense(in, out);
  }

  void computeDense(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const {
    if (!hasAdd && epilogue == MatmulEpilogue::kNone && !sumBatch) {
      return matmulKernel(spec, in[0], in[1], out[0]);
    }
    // The product in fp32 (rounded to the cube's result type), self broadcast to out's shape,
    // then beta * self + alpha * product and the activation in fp32, rounded once to out's
    // type. beta = 0 ignores self.
    const auto n = static_cast<size_t>(out[0].numel());
    std::vector<float> c(n), add(n, 0.0f);
    if (sumBatch) {
      // The batch products accumulate in fp32 and are rounded once.
      const int64_t batch = in[0].shape[0] == 1 ? in[1].shape[0] : in[0].shape[0];  // broadcast
      std::vector<float> all(static_cast<size_t>(batch) * n);
      MatmulSpec fp32Result = spec;
      fp32Result.resultType = ACL_FLOAT;
      std::vector<int64_t> shape = out[0].shape;
      shape.insert(shape.begin(), batch);
      matmulKernel(fp32Result, in[0], in[1], hostTensor(ACL_FLOAT, shape, all.data()));
      for (int64_t bi = 0; bi < batch; ++bi) {
        for (size_t i = 0; i < n; ++i) c[i] += all[static_cast<size_t>(bi) * n + i];
      }
      quantizeRow(spec.resultType, c.data(), static_cast<int64_t>(n));
    } else {
      matmulKernel(spec, in[0], in[1], hostTensor(ACL_FLOAT, out[0].shape, c.data()));
    }
    if (hasAdd) {
      if (beta != 0) copyView(in[2], hostTensor(ACL_FLOAT, out[0].shape, add.data()));
      const auto b = static_cast<float>(beta), a = static_cast<float>(alpha);
      for (size_t i = 0; i < n; ++i) c[i] = (beta != 0 ? b * add[i] : 0.0f) + a * c[i];
    }
    if (epilogue == MatmulEpilogue::kGeluTanh) {
      const float k = 0.7978845608028654f;  // sqrt(2 / pi)
      for (float& x : c) x = 0.5f * x * (1.0f + std::tanh(k * (x + 0.044715f * x * x * x)));
    }
    quantizeRow(spec.resultType, c.data(), static_cast<int64_t>(n));
    storeDense(out[0], c.data());
  }
};

// Addmm's `self`: an accepted type, broadcastable to the product's shape.
int32_t checkAddTerm(const char* api, const OpInfo& info, const AddTerm& t,
                     const std::vector<int64_t>& outShape) {
  int32_t st = checkTensor(api, "self", t.add->desc);
  if (st != kSuccess) return st;
  if ((st = checkDtype(api, "self", t.add->desc.dtype, info)) != kSuccess) return st;
  std::vector<int64_t> b;
  if (!broadcastShapes(t.add->desc.shape, outShape, &b) || b != outShape) {
    return fail(api, kErrParamInvalid,
                fmt::format("self shape {} cannot be broadcast to the product's shape {}",
                            shapeString(t.add->desc.shape), shapeString(outShape)));
  }
  return kSuccess;
}

}  // namespace

int32_t buildMatmul(const MatmulApi& a, const aclTensor* self, const aclTensor* mat2, const aclTensor* out,
                    int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor,
                    const AddTerm* addTerm, MatmulEpilogue epilogue) {
  const char* api = a.api;
  const OpInfo& info = a.info != nullptr ? *a.info : kInfo;
  rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"self", self}, {"mat2", mat2}, {"out", out}});
  if (st != kSuccess) return st;
  if ((st = checkTensor(api, "self", self->desc, kMaxMatmulDims)) != kSuccess) return st;
  if ((st = checkTensor(api, "mat2", mat2->desc, kMaxMatmulDims)) != kSuccess) return st;
  if ((st = checkTensor(api, "out", out->desc, kMaxMatmulDims)) != kSuccess) return st;
  if ((st = checkDtype(api, "self", self->desc.dtype, info)) != kSuccess) return st;
  if ((st = checkDtype(api, "mat2", mat2->desc.dtype, info)) != kSuccess) return st;
  if ((st = checkDtype(api, "out", out->desc.dtype, info)) != kSuccess) return st;
  // On Atlas A2 bf16 does not combine with fp16 or fp32 (aclnnMatmul.md, Constraints).
  auto mixesBf16 = [](aclDataType x, aclDataType y) { return (x == ACL_BF16) != (y == ACL_BF16); };
  if (mixesBf16(self->desc.dtype, mat2->desc.dtype)) {
    return fail(api, kErrParamInvalid,
                fmt::format("self type {} and mat2 type {} cannot be promoted (bf16 only pairs with bf16)",
                            dtypeName(self->desc.dtype), dtypeName(mat2->desc.dtype)));
  }
  const aclDataType promoted = promoteTypes(self->desc.dtype, mat2->desc.dtype);
  if (mixesBf16(promoted, out->desc.dtype)) {
    return fail(api, kErrParamInvalid,
                fmt::format("the computed type {} cannot be converted to out's type {}", dtypeName(promoted),
                            dtypeName(out->desc.dtype)));
  }
  if (cubeMathType < kKeepDtype || cubeMathType > kUseFp32Add) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("cubeMathType must be 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), 2 (USE_FP16), "
                    "3 (USE_HF32) or 4 (USE_FP32_ADD), but is {}",
                    static_cast<int>(cubeMathType)));
  }
  if (self->desc.rank() == 0 || mat2->desc.rank() == 0) {
    return fail(api, kErrParamInvalid,
                fmt::format("matmul does not take 0-dimensional operands (self {}, mat2 {})",
                            shapeString(self->desc.shape), shapeString(mat2->desc.shape)));
  }
  if (a.rank != 0 && (self->desc.rank() != a.rank || mat2->desc.rank() != a.rank)) {
    return fail(api, kErrParamInvalid,
                fmt::format("self and mat2 must be {}-dimensional, but are {} and {}", a.rank,
                            shapeString(self->desc.shape), shapeString(mat2->desc.shape)));
  }
  std::vector<int64_t> shape;
  std::string why = matmulOutShape(self->desc.shape, mat2->desc.shape, &shape);
  if (!why.empty()) return fail(api, kErrParamInvalid, why);
  if (a.sumBatch) shape.erase(shape.begin());  // the (broadcast) batch is summed away
  if ((st = checkShape(api, "out", out->desc.shape, shape)) != kSuccess) return st;
  if (addTerm != nullptr && (st = checkAddTerm(api, info, *addTerm, shape)) != kSuccess) return st;
  const bool nz = mat2->desc.format == ACL_FORMAT_FRACTAL_NZ;
  if (a.mat2Nz && !nz) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("mat2 must be in FRACTAL_NZ format (converted by aclnnTransMatmulWeight), but is {}",
                    static_cast<int>(mat2->desc.format)));
  }
  NzLayout layout;
  if (nz) {
    const std::string bad = nzLayoutOf(mat2->desc, &layout);
    if (!bad.empty()) return fail(api, kErrParamInvalid, "mat2: " + bad);
  }

  auto inst = std::make_unique<MatmulInstance>();
  inst->name = a.opName;
  inst->inputs = {self->desc, mat2->desc};
  inst->inputNames = {"self", "mat2"};
  inst->outputs = {out->desc};
  inst->outputNames = {"out"};
  inst->outputAlias = {-1};
  if (nz) {
    inst->mat2Nz = true;
    inst->mat2View = mat2->desc;
    inst->nz = layout;
    inst->inputs[1] = nzStorageDesc(mat2->desc, layout);
  }
  inst->sumBatch = a.sumBatch;
  inst->cubeMathType = cubeMathType;
  // A dot product of two vectors runs on the vector unit; cubeMathType has no effect there.
  const bool dot = self->desc.rank() == 1 && mat2->desc.rank() == 1;
  inst->spec = matmulSpecFor(promoted, dot ? static_cast<int8_t>(kKeepDtype) : cubeMathType);
  inst->attrs = fmt::format("cubeMathType={}", static_cast<int>(cubeMathType));
  inst->epilogue = epilogue;
  if (epilogue == MatmulEpilogue::kGeluTanh) inst->attrs += ", activation=gelu_tanh";
  if (addTerm != nullptr) {
    inst->hasAdd = true;
    inst->beta = addTerm->beta;
    inst->alpha = addTerm->alpha;
    inst->inputs.push_back(addTerm->add->desc);
    inst->inputNames.emplace_back(addTerm->inplace ? "selfRef" : "self");
    if (addTerm->inplace) inst->outputAlias = {2};
    inst->attrs += fmt::format(", beta={}, alpha={}", addTerm->beta, addTerm->alpha);
  }
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

aclTensor transposedView(const aclTensor& t) {
  aclTensor v{t.desc};
  std::swap(v.desc.shape[0], v.desc.shape[1]);
  std::swap(v.desc.strides[0], v.desc.strides[1]);
  return v;
}

MatmulSpec matmulSpecFor(aclDataType promoted, int8_t cubeMathType) {
  MatmulSpec s;
  if (cubeMathType == kUseFp16) {
    s.input = CubeInput::kF16;
    s.resultType = ACL_FLOAT16;
    return s;
  }
  switch (promoted) {
    case ACL_FLOAT16:
      s.input = CubeInput::kF16;
      s.resultType = ACL_FLOAT16;
      break;
    case ACL_BF16:
      s.input = CubeInput::kBf16;
      s.resultType = ACL_BF16;
      break;
    default:
      s.input = (cubeMathType == kAllowFp32DownPrecision || cubeMathType == kUseHf32) ? CubeInput::kHf32
                                                                                      : CubeInput::kF32;
      s.resultType = ACL_FLOAT;
      break;
  }
  return s;
}

void matmulKernel(const MatmulSpec& spec, const HostTensor& self, const HostTensor& mat2,
                  const HostTensor& out) {
  if (out.numel() == 0) return;
  MatmulGeometry g;
  if (!matmulGeometry(self.shape, self.strides, mat2.shape, mat2.strides, out.strides, &g)) return;
  std::vector<float> a(static_cast<size_t>(g.M * g.K)), b(static_cast<size_t>(g.K * g.N)),
      c(static_cast<size_t>(g.M * g.N));
  int64_t packedA = -1, packedB = -1;  // batch offsets currently packed (broadcast operands repeat)
  const int64_t outEs = static_cast<int64_t>(dtypeSize(out.dtype));
  for (int64_t i = 0; i < g.batch; ++i) {
    const size_t bi = static_cast<size_t>(i);
    if (g.aOff[bi] != packedA || i == 0) {
      pack(self, g.aOff[bi], g.M, g.K, g.aSm, g.aSk, spec.input, a.data());
      packedA = g.aOff[bi];
    }
    if (g.bOff[bi] != packedB || i == 0) {
      pack(mat2, g.bOff[bi], g.K, g.N, g.bSk, g.bSn, spec.input, b.data());
      packedB = g.bOff[bi];
    }
    gemmF32(g.M, g.N, g.K, a.data(), g.K, b.data(), g.N, c.data(), g.N);
    quantizeRow(spec.resultType, c.data(), g.M * g.N);
    for (int64_t m = 0; m < g.M; ++m) {
      storeRow(out.dtype, out.data + (g.cOff[bi] + m * g.cSm) * outEs, g.cSn * outEs, g.N,
               c.data() + m * g.N);
    }
  }
}

}  // namespace npusim::aclnn

extern "C" {

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                        int8_t cubeMathType, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
  return npusim::aclnn::buildMatmul({"aclnnMatmulGetWorkspaceSize", "aclnnMatmul", nullptr, 0}, self, mat2,
                                    out, cubeMathType, workspaceSize, executor);
}

}  // extern "C"

NPUSIM_ACLNN_PHASE2(Matmul)
