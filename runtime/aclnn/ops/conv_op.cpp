// The convolution engine: geometry and parameter checks, the three loops over the
// small/big relation (conv_op.h), the task's kernel and its cube cost.
#include "runtime/aclnn/ops/conv_op.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/float_bits.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/element_convert.h"
#include "runtime/aclnn/ops/matmul_tiling.h"
#include "runtime/aclnn/ops/tensor_io.h"
#include "runtime/aclnn/ops/vector_tiling.h"

namespace npusim::aclnn {

namespace {

// One tap of the relation: small position a (flat), kernel tap k (flat), big position x (flat);
// taps landing in the padding are left out (they multiply zeros).
struct Tap {
  int64_t a, k, x;
};

std::vector<Tap> tapsOf(const ConvGeometry& g) {
  std::vector<Tap> taps;
  const auto& s = g.small;
  const auto& K = g.kernel;
  int64_t a = 0;
  for (int64_t a0 = 0; a0 < s[0]; ++a0) {
    for (int64_t a1 = 0; a1 < s[1]; ++a1) {
      for (int64_t a2 = 0; a2 < s[2]; ++a2, ++a) {
        int64_t k = 0;
        for (int64_t k0 = 0; k0 < K[0]; ++k0) {
          for (int64_t k1 = 0; k1 < K[1]; ++k1) {
            for (int64_t k2 = 0; k2 < K[2]; ++k2, ++k) {
              const int64_t x0 = a0 * g.stride[0] - g.padLo[0] + k0 * g.dilation[0];
              const int64_t x1 = a1 * g.stride[1] - g.padLo[1] + k1 * g.dilation[1];
              const int64_t x2 = a2 * g.stride[2] - g.padLo[2] + k2 * g.dilation[2];
              if (x0 < 0 || x0 >= g.big[0] || x1 < 0 || x1 >= g.big[1] || x2 < 0 || x2 >= g.big[2]) continue;
              taps.push_back({a, k, (x0 * g.big[1] + x1) * g.big[2] + x2});
            }
          }
        }
      }
    }
  }
  return taps;
}

// The operand as the cube multiplies it (cubeMathType's rounding), row-major.
std::vector<float> loadOperand(const HostTensor& t, CubeInput in) {
  std::vector<float> v = loadDense<float>(t);
  const auto n = static_cast<int64_t>(v.size());
  switch (in) {
    case CubeInput::kF32:
      break;
    case CubeInput::kHf32:
      for (float& x : v) x = roundToHf32(x);
      break;
    case CubeInput::kF16:
      quantizeRow(ACL_FLOAT16, v.data(), n);
      break;
    case CubeInput::kBf16:
      quantizeRow(ACL_BF16, v.data(), n);
      break;
  }
  return v;
}

// Rounds the fp32 accumulators to what the cube writes, then stores them in out's type.
void storeResult(const MatmulSpec& spec, std::vector<float>& v, const HostTensor& out) {
  quantizeRow(spec.resultType, v.data(), static_cast<int64_t>(v.size()));
  storeDense(out, v.data());
}

uint64_t bytesOf(const TensorDesc& d) { return static_cast<uint64_t>(d.numel()) * d.elementSize(); }

uint64_t baseOf(const TensorDesc& d) { return d.data + static_cast<uint64_t>(d.offset) * d.elementSize(); }

// One product of the convolution as the cube runs it (an implicit GEMM): groups independent
// M x N results over a K loop, reading `readBytes` from HBM (its two operands, once: the
// blocks' reuse of them hits L1/L2) and writing the result.
struct CubeJob {
  int64_t M, N, K;
  uint64_t readBytes, readAddr;
  const TensorDesc* result;
};

}  // namespace

namespace {

// Element offsets of one (batch, small channel) pair: its small row, the first big channel of
// its group, its weight row.
struct RowPair {
  int64_t small, big, weight;
};

// Calls body(pair, taps) for every batch and small channel, in that order.
template <typename Body>
void forEachRow(const ConvGeometry& g, Body&& body) {
  const int64_t sPerG = g.smallCh / g.groups, bPerG = g.bigCh / g.groups;
  if (sPerG == 0 || bPerG == 0) return;
  const std::vector<Tap> taps = tapsOf(g);
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t cs = 0; cs < g.smallCh; ++cs) {
      body(RowPair{(n * g.smallCh + cs) * g.smallSize(), (n * g.bigCh + (cs / sPerG) * bPerG) * g.bigSize(),
                   cs * bPerG * g.kernelSize()},
           taps);
    }
  }
}

}  // namespace

template <typename T>
void convGather(const ConvGeometry& g, const T* big, const T* w, T* small) {
  const int64_t bPerG = g.bigCh / g.groups, B = g.bigSize(), KV = g.kernelSize();
  std::fill(small, small + g.batch * g.smallCh * g.smallSize(), T(0));
  forEachRow(g, [&](const RowPair& r, const std::vector<Tap>& taps) {
    for (const Tap& t : taps) {
      for (int64_t cb = 0; cb < bPerG; ++cb)
        small[r.small + t.a] += big[r.big + cb * B + t.x] * w[r.weight + cb * KV + t.k];
    }
  });
}

template <typename T>
void convScatter(const ConvGeometry& g, const T* small, const T* w, T* big) {
  const int64_t bPerG = g.bigCh / g.groups, B = g.bigSize(), KV = g.kernelSize();
  std::fill(big, big + g.batch * g.bigCh * B, T(0));
  forEachRow(g, [&](const RowPair& r, const std::vector<Tap>& taps) {
    for (const Tap& t : taps) {
      for (int64_t cb = 0; cb < bPerG; ++cb)
        big[r.big + cb * B + t.x] += small[r.small + t.a] * w[r.weight + cb * KV + t.k];
    }
  });
}

template <typename T>
void convWeight(const ConvGeometry& g, const T* small, const T* big, T* w) {
  const int64_t bPerG = g.bigCh / g.groups, B = g.bigSize(), KV = g.kernelSize();
  std::fill(w, w + g.smallCh * bPerG * KV, T(0));
  forEachRow(g, [&](const RowPair& r, const std::vector<Tap>& taps) {
    for (const Tap& t : taps) {
      for (int64_t cb = 0; cb < bPerG; ++cb)
        w[r.weight + cb * KV + t.k] += small[r.small + t.a] * big[r.big + cb * B + t.x];
    }
  });
}

template void convGather<float>(const ConvGeometry&, const float*, const float*, float*);
template void convGather<double>(const ConvGeometry&, const double*, const double*, double*);
template void convScatter<float>(const ConvGeometry&, const float*, const float*, float*);
template void convWeight<float>(const ConvGeometry&, const float*, const float*, float*);

int32_t convIntArray(const char* api, const char* name, const aclIntArray* a, size_t n, size_t alt,
                     std::vector<int64_t>* out) {
  if (a == nullptr) return fail(api, kErrParamNullptr, fmt::format("{} is a null pointer", name));
  if (a->values.size() != n && (alt == 0 || a->values.size() != alt)) {
    return fail(
        api, kErrParamInvalid,
        alt == 0 ? fmt::format("{} must have {} values (one per spatial dimension), but has {}", name, n,
                               a->values.size())
                 : fmt::format("{} must have {} or {} values, but has {}", name, n, alt, a->values.size()));
  }
  *out = a->values;
  return kSuccess;
}

aclTensor convPermuted(const aclTensor& t, std::array<size_t, 3> order) {
  aclTensor v{t.desc};
  for (size_t i = 0; i < 3; ++i) {
    v.desc.shape[i] = t.desc.shape[order[i]];
    v.desc.strides[i] = t.desc.strides[order[i]];
  }
  return v;
}

int32_t convParamsFrom(const char* api, size_t dims, const aclIntArray* stride, const aclIntArray* padding,
                       const aclIntArray* dilation, bool transposed, const aclIntArray* outputPadding,
                       int64_t groups, ConvParams* p) {
  ConvParams r;
  r.transposed = transposed;
  r.groups = groups;
  int32_t st = convIntArray(api, "stride", stride, dims, 0, &r.stride);
  if (st != kSuccess) return st;
  if ((st = convIntArray(api, "dilation", dilation, dims, 0, &r.dilation)) != kSuccess) return st;
  std::vector<int64_t> pad;
  const size_t pairs = (!transposed && dims <= 2) ? 2 * dims : 0;
  if ((st = convIntArray(api, "padding", padding, dims, pairs, &pad)) != kSuccess) return st;
  if (pad.size() == dims) {
    r.padLo = r.padHi = pad;
  } else {
    for (size_t i = 0; i < dims; ++i) {
      r.padLo.push_back(pad[2 * i]);
      r.padHi.push_back(pad[2 * i + 1]);
    }
  }
  if (transposed) {
    if ((st = convIntArray(api, "outputPadding", outputPadding, dims, 0, &r.outputPadding)) != kSuccess)
      return st;
  } else {
    r.outputPadding.assign(dims, 0);
  }
  *p = r;
  return kSuccess;
}

int32_t convSpecFor(const char* api, aclDataType promoted, int8_t cubeMathType, MatmulSpec* spec) {
  if (cubeMathType < kKeepDtype || cubeMathType > kUseHf32) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("cubeMathType must be 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), 2 (USE_FP16) "
                    "or 3 (USE_HF32), but is {}",
                    static_cast<int>(cubeMathType)));
  }
  if (cubeMathType == kUseFp16 && promoted == ACL_BF16) {
    return fail(api, kErrParamInvalid, "cubeMathType 2 (USE_FP16) does not take bf16 operands");
  }
  *spec = matmulSpecFor(promoted, cubeMathType);
  return kSuccess;
}

int32_t convGeometryFor(const char* api, const TensorDesc& input, const TensorDesc& weight,
                        const ConvParams& p, ConvGeometry* g, std::vector<int64_t>* outShape) {
  const size_t rank = input.rank();
  if (rank < 3 || rank > 5) {
    return fail(api, kErrParamInvalid,
                fmt::format("input must have 3 to 5 dimensions (NCL, NCHW, NCDHW), but is {}",
                            shapeString(input.shape)));
  }
  if (weight.rank() != rank) {
    return fail(api, kErrParamInvalid,
                fmt::format("weight {} must have as many dimensions as input {}", shapeString(weight.shape),
                            shapeString(input.shape)));
  }
  const size_t dims = rank - 2;
  if (p.groups < 1 || p.groups > 65535) {
    return fail(api, kErrParamInvalid, fmt::format("groups must be in [1, 65535], but is {}", p.groups));
  }
  for (size_t i = 0; i < dims; ++i) {
    if (p.stride[i] < 1 || p.dilation[i] < 1) {
      return fail(api, kErrParamInvalid,
                  fmt::format("stride and dilation must be positive, but are {} and {}",
                              shapeString(p.stride), shapeString(p.dilation)));
    }
    if (p.padLo[i] < 0 || p.padHi[i] < 0) {
      return fail(api, kErrParamInvalid,
                  fmt::format("padding must not be negative, but is {}/{}", shapeString(p.padLo),
                              shapeString(p.padHi)));
    }
  }
  const int64_t inC = input.shape[1];
  ConvGeometry r;
  r.batch = input.shape[0];
  r.groups = p.groups;
  const size_t off = 3 - dims;  // spatial dimensions fill the last slots
  for (size_t i = 0; i < dims; ++i) {
    r.kernel[off + i] = weight.shape[2 + i];
    r.stride[off + i] = p.stride[i];
    r.padLo[off + i] = p.padLo[i];
    r.dilation[off + i] = p.dilation[i];
  }
  std::vector<int64_t> shape{r.batch, 0};
  if (!p.transposed) {
    // weight [Cout, Cin / groups, k...]
    if (inC != p.groups * weight.shape[1] || weight.shape[0] % p.groups != 0) {
      return fail(
          api, kErrParamInvalid,
          fmt::format("input channels {} must equal groups {} x weight.shape[1] {}, and weight.shape[0] "
                      "{} must be a multiple of groups",
                      inC, p.groups, weight.shape[1], weight.shape[0]));
    }
    r.smallCh = weight.shape[0];
    r.bigCh = inC;
    shape[1] = r.smallCh;
    for (size_t i = 0; i < dims; ++i) {
      const int64_t padded = input.shape[2 + i] + p.padLo[i] + p.padHi[i];
      const int64_t span = p.dilation[i] * (weight.shape[2 + i] - 1) + 1;
      if (padded < span) {
        return fail(
            api, kErrParamInvalid,
            fmt::format("the padded input size {} of spatial dimension {} is smaller than the dilated "
                        "kernel size {}",
                        padded, i, span));
      }
      r.big[off + i] = input.shape[2 + i];
      r.small[off + i] = (padded - span) / p.stride[i] + 1;
      shape.push_back(r.small[off + i]);
    }
  } else {
    // weight [Cin, Cout / groups, k...]
    if (inC != weight.shape[0] || weight.shape[0] % p.groups != 0) {
      return fail(api, kErrParamInvalid,
                  fmt::format("transposed: input channels {} must equal weight.shape[0] {}, a multiple of "
                              "groups {}",
                              inC, weight.shape[0], p.groups));
    }
    r.smallCh = inC;
    r.bigCh = weight.shape[1] * p.groups;
    shape[1] = r.bigCh;
    for (size_t i = 0; i < dims; ++i) {
      if (p.padLo[i] != p.padHi[i]) {
        return fail(api, kErrParamInvalid, "a transposed convolution takes symmetric padding only");
      }
      const int64_t op = p.outputPadding[i];
      if (op < 0 || (op >= p.stride[i] && op >= p.dilation[i])) {
        return fail(
            api, kErrParamInvalid,
            fmt::format("outputPadding {} must be non-negative and smaller than stride {} or dilation {}",
                        shapeString(p.outputPadding), shapeString(p.stride), shapeString(p.dilation)));
      }
      const int64_t outSize = (input.shape[2 + i] - 1) * p.stride[i] - 2 * p.padLo[i] +
                              p.dilation[i] * (weight.shape[2 + i] - 1) + op + 1;
      if (outSize < 0 || (outSize == 0 && input.shape[2 + i] > 0)) {
        return fail(
            api, kErrParamInvalid,
            fmt::format("the transposed output size of spatial dimension {} would be {}", i, outSize));
      }
      r.small[off + i] = input.shape[2 + i];
      r.big[off + i] = outSize;
      shape.push_back(outSize);
    }
  }
  *g = r;
  *outShape = shape;
  return kSuccess;
}

rt::OpWork ConvInstance::work() const {
  const ConvGeometry& g = geo;
  const int64_t sPerG = g.smallCh / g.groups, bPerG = g.bigCh / g.groups, KV = g.kernelSize();
  const int64_t smallRows = g.batch * g.smallSize(), bigRows = g.batch * g.bigSize();
  // gather: small [rows x smallCh/g] over K = bigCh/g * taps; scatter (computed as the
  // convolution onto big): big [rows x bigCh/g] over K = smallCh/g * taps; weight:
  // [smallCh/g x bigCh/g * taps] over K = batch * small positions.
  auto gather = [&](const TensorDesc& bigT, const TensorDesc& out) {
    return CubeJob{smallRows,    sPerG, bPerG * KV, bytesOf(bigT) + bytesOf(inputs[backward ? 2 : 1]),
                   baseOf(bigT), &out};
  };
  auto scatter = [&](const TensorDesc& smallT, const TensorDesc& out) {
    return CubeJob{bigRows,        bPerG, sPerG * KV, bytesOf(smallT) + bytesOf(inputs[backward ? 2 : 1]),
                   baseOf(smallT), &out};
  };
  std::vector<CubeJob> jobs;
  const TensorDesc* biasRead = nullptr;  // the tensor gradBias sums
  if (!backward) {
    jobs.push_back(transposed ? scatter(inputs[0], outputs[0]) : gather(inputs[0], outputs[0]));
    for (size_t i = 2; i < inputs.size(); ++i) jobs.back().readBytes += bytesOf(inputs[i]);  // bias, scale
  } else {
    const TensorDesc& smallT = transposed ? inputs[1] : inputs[0];
    const TensorDesc& bigT = transposed ? inputs[0] : inputs[1];
    if (gradInput >= 0) {
      const TensorDesc& out = outputs[static_cast<size_t>(gradInput)];
      jobs.push_back(transposed ? gather(bigT, out) : scatter(smallT, out));
    }
    if (gradWeight >= 0) {
      jobs.push_back(CubeJob{sPerG, bPerG * KV, smallRows, bytesOf(smallT) + bytesOf(bigT), baseOf(smallT),
                             &outputs[static_cast<size_t>(gradWeight)]});
    }
    if (gradBias >= 0) biasRead = &inputs[0];
  }
  const int64_t inEs = quant ? 1 : (spec.input == CubeInput::kF16 || spec.input == CubeInput::kBf16) ? 2 : 4;
  // True fp32 takes two fp16 MAC slots per MAC (the cube's 32-byte K step), as in the matmul
  // engine; int8 runs at twice the fp16 rate (16 x 32 x 16 per cycle).
  const uint64_t factor = !quant && spec.input == CubeInput::kF32 ? 2 : 1;
  rt::OpWork w;
  w.cube = true;
  if (quant) w.cubeMacsPerCycleScale = 2;
  for (const CubeJob& j : jobs) {
    if (j.M <= 0 || j.N <= 0) continue;
    // L0C holds a 128 x 256 fp32 block. A result narrower than 256 columns (few output
    // channels, as in a network's first layers) fills it with taller blocks: the tiling plans
    // `r` row groups side by side (logical row i, column c is result row i * r + c / N, column
    // c % N), so a block covers up to 128 * r rows of the N columns.
    const int64_t r = j.N >= 256 ? 1 : std::max<int64_t>(1, 256 / ((j.N + 15) / 16 * 16));
    const int64_t rows = (j.M + r - 1) / r;
    const MatmulTiling t =
        planMatmul(g.groups, rows, j.N * r, std::max<int64_t>(j.K, 0), inEs, rt::coreRates().cubeCores);
    const uint64_t outEs = j.result->elementSize();
    uint64_t written = 0;
    for (size_t i = 0; i < t.blocks.size(); ++i) {
      const MatmulBlock& b = t.blocks[i];
      // Result elements of the block: logical rows [m0, m1) of each column that map to a real row.
      uint64_t elems = 0;
      for (int64_t c = b.n0; c < b.n1; ++c) {
        const int64_t slot = c / j.N, realRows = (j.M - slot + r - 1) / r;  // rows i with i * r + slot < M
        elems += static_cast<uint64_t>(std::max<int64_t>(0, std::min(b.m1, realRows) - b.m0));
      }
      rt::TileWork tw;
      tw.cubeMacs = elems * static_cast<uint64_t>(std::max<int64_t>(j.K, 0)) * factor;
      tw.readAddr = j.readAddr;
      tw.readBytes = shareOf(j.readBytes, i, t.blocks.size());
      tw.writeAddr = baseOf(*j.result) + written;
      tw.writeBytes = elems * outEs;
      written += tw.writeBytes;
      w.tiles.push_back(tw);
    }
  }
  if (biasRead != nullptr) {
    const TensorDesc& out = outputs[static_cast<size_t>(gradBias)];
    if (w.tiles.empty()) {
      // Only the bias gradient: a reduction on the vector cores.
      const std::vector<TensorDesc> ins{*biasRead};
      return vectorTiles(VectorPass{&ins, &out, biasRead->numel()});
    }
    // Summed by the vector units next to the cube work, re-reading gradOutput.
    for (size_t i = 0; i < w.tiles.size(); ++i) {
      w.tiles[i].readBytes += shareOf(bytesOf(*biasRead), i, w.tiles.size());
      w.tiles[i].vectorBytes += shareOf(bytesOf(*biasRead), i, w.tiles.size());
      w.tiles[i].writeBytes += shareOf(bytesOf(out), i, w.tiles.size());
    }
  }
  return w;
}

void ConvInstance::compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const {
  const ConvGeometry& g = geo;
  const int64_t bPerG = g.groups > 0 ? g.bigCh / g.groups : 0;
  const auto smallN = static_cast<size_t>(g.batch * g.smallCh * g.smallSize());
  const auto bigN = static_cast<size_t>(g.batch * g.bigCh * g.bigSize());
  const auto weightN = static_cast<size_t>(g.smallCh * bPerG * g.kernelSize());
  if (quant) {
    // int8 products summed exactly (the cube's int32 accumulator), dequantised in fp32.
    const std::vector<double> x = loadDense<double>(in[0]), w = loadDense<double>(in[1]);
    std::vector<double> acc(smallN);
    convGather(g, x.data(), w.data(), acc.data());
    const std::vector<float> scale = loadDense<float>(in[2]);
    const std::vector<float> bias =
        hasBias ? loadDense<float>(in[3]) : std::vector<float>(scale.size(), 0.0f);
    std::vector<float> y(smallN);
    const int64_t sp = g.smallSize();
    for (size_t i = 0; i < smallN; ++i) {
      const auto c = static_cast<size_t>((static_cast<int64_t>(i) / sp) % g.smallCh);
      y[i] = static_cast<float>(acc[i]) * scale[c] + bias[c];
    }
    return storeDense(out[0], y.data());
  }
  if (!backward) {
    const std::vector<float> x = loadOperand(in[0], spec.input);
    const std::vector<float> w = loadOperand(in[1], spec.input);
    std::vector<float> y(transposed ? bigN : smallN);
    if (transposed) {
      convScatter(g, x.data(), w.data(), y.data());
    } else {
      convGather(g, x.data(), w.data(), y.data());
    }
    if (hasBias) {
      // The bias joins the fp32 accumulator (aclnnConvolution.md: bias is converted to fp32).
      const std::vector<float> bias = loadDense<float>(in[2]);
      const int64_t ch = transposed ? g.bigCh : g.smallCh, sp = transposed ? g.bigSize() : g.smallSize();
      for (int64_t n = 0; n < g.batch; ++n) {
        for (int64_t c = 0; c < ch; ++c) {
          float* row = y.data() + (n * ch + c) * sp;
          for (int64_t i = 0; i < sp; ++i) row[i] += bias[static_cast<size_t>(c)];
        }
      }
    }
    return storeResult(spec, y, out[0]);
  }
  const std::vector<float> dy = loadOperand(in[0], spec.input);
  const std::vector<float> x = loadOperand(in[1], spec.input);
  const std::vector<float> w = loadOperand(in[2], spec.input);
  const std::vector<float>& smallV = transposed ? x : dy;
  const std::vector<float>& bigV = transposed ? dy : x;
  if (gradInput >= 0) {
    std::vector<float> dx(transposed ? smallN : bigN);
    if (transposed) {
      convGather(g, bigV.data(), w.data(), dx.data());
    } else {
      convScatter(g, smallV.data(), w.data(), dx.data());
    }
    storeResult(spec, dx, out[static_cast<size_t>(gradInput)]);
  }
  if (gradWeight >= 0) {
    std::vector<float> dw(weightN);
    convWeight(g, smallV.data(), bigV.data(), dw.data());
    storeResult(spec, dw, out[static_cast<size_t>(gradWeight)]);
  }
  if (gradBias >= 0) {
    // Sum of gradOutput (as stored, not cube-rounded) over batch and positions, in fp64 then
    // rounded once to gradBias's type.
    const std::vector<double> d = loadDense<double>(in[0]);
    const int64_t ch = transposed ? g.bigCh : g.smallCh, sp = transposed ? g.bigSize() : g.smallSize();
    std::vector<double> db(static_cast<size_t>(ch), 0.0);
    for (int64_t n = 0; n < g.batch; ++n) {
      for (int64_t c = 0; c < ch; ++c) {
        const double* row = d.data() + (n * ch + c) * sp;
        for (int64_t i = 0; i < sp; ++i) db[static_cast<size_t>(c)] += row[i];
      }
    }
    storeRounded(out[static_cast<size_t>(gradBias)], db);
  }
}

}  // namespace npusim::aclnn
