#pragma once
// The convolution engine (aclnnConvolution, aclnnConvolutionBackward, aclnnConvTbc,
// aclnnConvDepthwise2d and their variants): 1-D, 2-D and 3-D, groups (depthwise included),
// stride, padding, dilation, transposed with outputPadding, bias.
//
// A convolution and its transpose relate the same two tensors: a "small" one, position a, and a
// "big" one, position x = a * stride - padLo + k * dilation for each kernel tap k. A plain
// convolution reads big (its input) and writes small (its output); a transposed one reads small
// and writes big. The weight is always [smallChannels, bigChannels / groups, kernel...]. Three
// loops over that relation give every product the family needs:
//   gather:  small[n, cs, a] = sum over (cb, k) of big[n, cb', x] * w[cs, cb, k]
//   scatter: big[n, cb', x] += small[n, cs, a] * w[cs, cb, k]
//   weight:  w[cs, cb, k] = sum over (n, a) of small[n, cs, a] * big[n, cb', x]
// with cb' = group(cs) * bigChannels / groups + cb.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/base/tensor.h"
#include "runtime/aclnn/ops/matmul.h"

namespace npusim::aclnn {

// The types every convolution entry point takes (fp32 accumulation inside).
inline const std::vector<aclDataType> kConvTypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

struct ConvGeometry {
  int64_t batch = 0, groups = 1;
  int64_t smallCh = 0, bigCh = 0;
  // Spatial sizes padded to three dimensions with 1 (a 1-D convolution uses the last one).
  std::array<int64_t, 3> small{1, 1, 1}, big{1, 1, 1}, kernel{1, 1, 1};
  std::array<int64_t, 3> stride{1, 1, 1}, padLo{0, 0, 0}, dilation{1, 1, 1};
  int64_t smallSize() const { return small[0] * small[1] * small[2]; }
  int64_t bigSize() const { return big[0] * big[1] * big[2]; }
  int64_t kernelSize() const { return kernel[0] * kernel[1] * kernel[2]; }
};

// Dense row-major buffers: small [batch, smallCh, small...], big [batch, bigCh, big...],
// w [smallCh, bigCh / groups, kernel...]. Products and sums in T (float: the cube's fp32
// accumulator; double: exact integer sums for the quantised forms), taps in a fixed order.
template <typename T>
void convGather(const ConvGeometry& g, const T* big, const T* w, T* small);
template <typename T>
void convScatter(const ConvGeometry& g, const T* small, const T* w, T* big);
template <typename T>
void convWeight(const ConvGeometry& g, const T* small, const T* big, T* w);

// The arguments of aclnnConvolution after the entry point has mapped its own (ConvTbc's pad,
// Depthwise2d's kernelSize) onto them. padHi is the padding after the data (equal to padLo
// unless the caller gave asymmetric padding).
struct ConvParams {
  std::vector<int64_t> stride, padLo, padHi, dilation, outputPadding;
  bool transposed = false;
  int64_t groups = 1;
};

// Checks the parameters against input and weight (ranks, channels, groups, lengths and ranges
// of stride/padding/dilation/outputPadding, the padded input not smaller than the dilated
// kernel) and derives the geometry and the output shape. 161002 with a message on failure.
int32_t convGeometryFor(const char* api, const TensorDesc& input, const TensorDesc& weight,
                        const ConvParams& p, ConvGeometry* g, std::vector<int64_t>* outShape);

// Reads an aclIntArray argument of a convolution: `n` values, or `alt` values if alt > 0
// (padding's asymmetric forms). 161002 naming it otherwise.
int32_t convIntArray(const char* api, const char* name, const aclIntArray* a, size_t n, size_t alt,
                     std::vector<int64_t>* out);

// Reads aclnnConvolution's array arguments for `dims` spatial dimensions: stride and dilation
// one value per dimension; padding one per dimension, or [before, after] pairs for 1-D and
// [top, bottom, left, right] for 2-D (non-transposed); outputPadding one per dimension, read
// only when transposed (null allowed otherwise). 161001/161002 on failure.
int32_t convParamsFrom(const char* api, size_t dims, const aclIntArray* stride, const aclIntArray* padding,
                       const aclIntArray* dilation, bool transposed, const aclIntArray* outputPadding,
                       int64_t groups, ConvParams* p);

// The view of a 3-D tensor with its dimensions taken in `order` (no copy): ConvTbc's
// time-major [T, B, C] tensors as [B, C, T].
aclTensor convPermuted(const aclTensor& t, std::array<size_t, 3> order);

// The cube precision of a convolution: as aclnnMatmul (fp32 with ALLOW_FP32_DOWN_PRECISION or
// USE_HF32 in HF32, fp16/bf16 as they are, USE_FP16 in fp16), cubeMathType 0..3 only, and
// USE_FP16 refused for bf16 (aclnnConvolution.md, constraints). 161002 on failure.
int32_t convSpecFor(const char* api, aclDataType promoted, int8_t cubeMathType, MatmulSpec* spec);

// What a convolution task computes; its tensors are views (possibly permuted, as ConvTbc's).
class ConvInstance : public OpInstanceBase<ConvInstance> {
 public:
  ConvGeometry geo;
  bool transposed = false;
  MatmulSpec spec;
  bool backward = false;
  // Forward: inputs {input, weight, bias?}, outputs {output}.
  bool hasBias = false;
  // aclnnQuantConvolution: int8 operands, inputs {input, weight, scale, bias?}; exact integer
  // sums, then sum * scale[c] + bias[c] in fp32, rounded once to output's type.
  bool quant = false;
  // Backward: inputs {gradOutput, input, weight}; the index in outputs of each gradient, -1 if
  // outputMask leaves it out.
  int gradInput = -1, gradWeight = -1, gradBias = -1;

  rt::OpWork work() const override;
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override;
};

}  // namespace npusim::aclnn
