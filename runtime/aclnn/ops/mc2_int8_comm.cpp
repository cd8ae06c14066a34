// aclnnQuantMatmulAllReduceV3's low-bit communication (docs/aclnnQuantMatmulAllReduceV3.md,
// case 3), replacing the fp16/bf16 AllReduce of the product mm (m, n) on R ranks:
//   q   = int8(mm / commQuantScale1)                      per channel, each rank
//   a2a = AlltoAll(q)                                     rank r receives every rank's rows block r
//   red = int8(sum over the R blocks * (scale1 / scale2))
//   out = AllGather(red) * commQuantScale2
// The conversions follow the kernels (op_kernel/matmul_all_reduce_quant_perchannel.h,
// _quant_reduce_sum.h, _dequant_perchannel.h): the quotient and the scaled sum are rounded to
// fp16, then to the nearest int8 (ties to even, saturated); the dequantised value is rounded once
// to the output type. Each conversion is a vector step with one streaming pass.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/float_bits.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/dense_kernel_op.h"
#include "runtime/aclnn/ops/mc2_op.h"

namespace npusim::aclnn {
namespace {

float scaleAt(const HostTensor& s, int64_t j) {
  const char* p = s.data + j * s.strides[0] * 2;
  uint16_t bits = 0;
  std::memcpy(&bits, p, 2);
  return s.dtype == ACL_BF16 ? bf16ToFloat(bits) : halfToFloat(bits);
}

// fp32 -> fp16 -> int8, each rounded to nearest even, the int8 saturated.
int8_t toInt8(float v) {
  const float h = halfToFloat(floatToHalf(v));
  return static_cast<int8_t>(std::clamp(std::nearbyint(h), -128.0f, 127.0f));
}

// The value of element i of a contiguous fp16/bf16 tensor.
float floatAt(const HostTensor& t, int64_t i) {
  uint16_t bits = 0;
  std::memcpy(&bits, t.data + i * 2, 2);
  return t.dtype == ACL_BF16 ? bf16ToFloat(bits) : halfToFloat(bits);
}

void storeFloat(const HostTensor& t, int64_t i, float v) {
  const uint16_t bits = t.dtype == ACL_BF16 ? floatToBf16(v) : floatToHalf(v);
  std::memcpy(t.data + i * 2, &bits, 2);
}

using Named = std::vector<std::pair<const char*, TensorDesc>>;

std::unique_ptr<DenseKernelInstance> step(const std::string& name, const Named& in, const Named& out,
                                          DenseKernelInstance::Kernel kernel) {
  auto k = std::make_unique<DenseKernelInstance>();
  k->name = name;
  for (const auto& [n, d] : in) k->inputs.push_back(d), k->inputNames.emplace_back(n);
  for (const auto& [n, d] : out) {
    k->outputs.push_back(d);
    k->outputNames.emplace_back(n);
    k->outputAlias.push_back(-1);
  }
  k->kernel = std::move(kernel);
  return k;
}

}  // namespace

int32_t mc2Int8AllReduce(const char* api, const std::string& name, Mc2Instance& inst, const aclTensor& mm,
                         const aclTensor& scale1, const aclTensor& scale2, const aclTensor& output,
                         uint32_t ranks,
                         const std::function<aclTensor(aclDataType, std::vector<int64_t>)>& alloc) {
  const int64_t m = mm.desc.shape[0], n = mm.desc.shape[1];
  if (m % ranks != 0) {
    return fail(
        api, kErrParamInvalid,
        fmt::format("with the int8 communication the {} rows must be a multiple of the {} ranks", m, ranks));
  }
  const int64_t block = m / ranks;
  const aclTensor q = alloc(ACL_INT8, {m, n}), received = alloc(ACL_INT8, {m, n}),
                  red = alloc(ACL_INT8, {block, n}), gathered = alloc(ACL_INT8, {m, n});
  Mc2Step quant;
  quant.op = step(name + " quant int8", {{"mm", mm.desc}, {"commQuantScale1", scale1.desc}}, {{"q", q.desc}},
                  [n](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
                    const int64_t total = in[0].numel();
                    for (int64_t i = 0; i < total; ++i) {
                      reinterpret_cast<int8_t*>(out[0].data)[i] =
                          toInt8(floatAt(in[0], i) / scaleAt(in[1], i % n));
                    }
                  });
  inst.steps.push_back(std::move(quant));
  inst.steps.push_back(mc2Collective(HCCL_CMD_ALLTOALL, mc2Address(q), mc2Address(received),
                                     static_cast<uint64_t>(block * n), ACL_INT8));
  Mc2Step reduce;
  reduce.op =
      step(name + " reduce int8",
           {{"received", received.desc}, {"commQuantScale1", scale1.desc}, {"commQuantScale2", scale2.desc}},
           {{"reduced", red.desc}},
           [n, ranks, block](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
             const auto* src = reinterpret_cast<const int8_t*>(in[0].data);
             for (int64_t i = 0; i < block * n; ++i) {
               float sum = 0;
               for (uint32_t r = 0; r < ranks; ++r) sum += static_cast<float>(src[r * block * n + i]);
               const float s = scaleAt(in[1], i % n) / scaleAt(in[2], i % n);
               reinterpret_cast<int8_t*>(out[0].data)[i] = toInt8(sum * s);
             }
           });
  inst.steps.push_back(std::move(reduce));
  inst.steps.push_back(mc2Collective(HCCL_CMD_ALLGATHER, mc2Address(red), mc2Address(gathered),
                                     static_cast<uint64_t>(block * n), ACL_INT8));
  Mc2Step dequant;
  dequant.op = step(name + " dequant", {{"gathered", gathered.desc}, {"commQuantScale2", scale2.desc}},
                    {{"output", output.desc}},
                    [n](const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
                      const auto* src = reinterpret_cast<const int8_t*>(in[0].data);
                      for (int64_t i = 0; i < in[0].numel(); ++i)
                        storeFloat(out[0], i, static_cast<float>(src[i]) * scaleAt(in[1], i % n));
                    });
  inst.steps.push_back(std::move(dequant));
  return kSuccess;
}

}  // namespace npusim::aclnn
