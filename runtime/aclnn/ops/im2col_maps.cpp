// Sliding-window layouts on the gather-map engine (gather_map_op.h): aclnnIm2col (ops-math
// conversion/im2col, experimental/conversion/im2col), the experimental aclnnIm2Col and
// aclnnCol2Im (experimental/conversion/im2_col, col2_im) and aclnnUnfoldGrad
// (conversion/unfold_grad). im2col is torch.nn.functional.unfold: out[n, (c*kh + i)*kw + j, l]
// = x[n, c, oh*sh - ph + i*dh, ow*sw - pw + j*dw] with l = oh*OW + ow, zero outside x; col2im
// is its adjoint (the windows summed back), UnfoldGrad that of Tensor.unfold(dim, size, step).
#include <fmt/format.h>

#include "aclnnop/aclnn_col2_im.h"
#include "aclnnop/aclnn_im2_col.h"
#include "aclnnop/aclnn_im2col.h"
#include "aclnnop/aclnn_unfold_grad.h"
#include "runtime/aclnn/base/arrays.h"
#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/error.h"
#include "runtime/aclnn/base/status.h"
#include "runtime/aclnn/ops/gather_map_op.h"
#include "runtime/aclnn/ops/op_checks.h"
#include "runtime/aclnn/ops/tensor_io.h"

namespace npusim::aclnn {
namespace {

// aclnnIm2col.md: INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, UINT64, BFLOAT16, FLOAT16,
// FLOAT, DOUBLE, BOOL, COMPLEX64 (elements move as bytes); UnfoldGrad: FLOAT, FLOAT16, BFLOAT16.
const OpInfo kIm2col{"aclnnIm2col",
                     ExecUnit::kVector,
                     {ACL_INT8, ACL_UINT8, ACL_INT16, ACL_UINT16, ACL_INT32, ACL_UINT32, ACL_INT64,
                      ACL_UINT64, ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BOOL, ACL_COMPLEX64},
                     "out = unfold(self, kernel, dilation, padding, stride)"};
const OpRegistrar kIm2colRegistrar(kIm2col);
const OpInfo kIm2Col{"aclnnIm2Col",
                     ExecUnit::kVector,
                     {ACL_FLOAT, ACL_FLOAT16},
                     "z = unfold(x, kernel, dilation, pad, stride)"};
const OpRegistrar kIm2ColRegistrar(kIm2Col);
const OpInfo kCol2Im{
    "aclnnCol2Im", ExecUnit::kVector, {ACL_FLOAT, ACL_FLOAT16}, "x = fold(col): windows summed back"};
const OpRegistrar kCol2ImRegistrar(kCol2Im);
const OpInfo kUnfoldGrad{"aclnnUnfoldGrad",
                         ExecUnit::kVector,
                         {ACL_FLOAT, ACL_FLOAT16, ACL_BF16},
                         "gradIn[.., w*step + k, ..] += gradOut[.., w, .., k]"};
const OpRegistrar kUnfoldGradRegistrar(kUnfoldGrad);

// The window geometry: kernel, dilation, padding, stride (height, width), image H x W.
struct Window {
  int64_t kh, kw, dh, dw, ph, pw, sh, sw, h, w;
  int64_t outH() const { return (h + 2 * ph - dh * (kh - 1) - 1) / sh + 1; }
  int64_t outW() const { return (w + 2 * pw - dw * (kw - 1) - 1) / sw + 1; }
  bool valid() const {
    return kh > 0 && kw > 0 && dh > 0 && dw > 0 && sh > 0 && sw > 0 && ph >= 0 && pw >= 0 && outH() > 0 &&
           outW() > 0;
  }
  // Flat index in one [H, W] image of column row `r` (c*kh*kw + i*kw + j, c dropped) and
  // position l, or -1 in the padding.
  int64_t pixel(int64_t r, int64_t l) const {
    const int64_t i = r / kw % kh, j = r % kw, oh = l / outW(), ow = l % outW();
    const int64_t y = oh * sh - ph + i * dh, x = ow * sw - pw + j * dw;
    return y < 0 || y >= h || x < 0 || x >= w ? -1 : y * w + x;
  }
};

// col position (n, c*kh*kw + ..., l) <-> image element (n, c, y, x); batch `n` may be absent.
int64_t imageIndex(const Window& g, int64_t n, int64_t row, int64_t l, int64_t channels) {
  const int64_t p = g.pixel(row, l);
  if (p < 0) return -1;
  const int64_t c = row / (g.kh * g.kw);
  return (n * channels + c) * g.h * g.w + p;
}

// x [N, C, H, W] or [C, H, W] -> out [N, C*kh*kw, L] or [C*kh*kw, L], or the adjoint.
int32_t im2col(const char* api, const OpInfo& info, const aclTensor* image, const Window& g0,
               const aclTensor* col, bool adjoint, uint64_t* workspaceSize, aclOpExecutor** executor) {
  npusim::rt::chargeOpPrepare(api);
  const aclTensor* in = adjoint ? col : image;
  const aclTensor* out = adjoint ? image : col;
  int32_t st = checkMapArgs(api, info, adjoint ? "col" : "self", in, "out", out);
  if (st != kSuccess) return st;
  const std::vector<int64_t> is = image->desc.shape;
  if (is.size() != 3 && is.size() != 4)
    return fail(api, kErrParamInvalid,
                fmt::format("the image must have 3 or 4 dimensions, not {}", is.size()));
  const bool batched = is.size() == 4;
  const int64_t n = batched ? is[0] : 1, c = is[is.size() - 3];
  Window g = g0;
  g.h = is[is.size() - 2];
  g.w = is.back();
  if (!g.valid())
    return fail(api, kErrParamInvalid, "the kernel, dilation, padding and stride leave no window");
  const int64_t rows = c * g.kh * g.kw, l = g.outH() * g.outW();
  const std::vector<int64_t> cs = batched ? std::vector<int64_t>{n, rows, l} : std::vector<int64_t>{rows, l};
  if ((st = checkShape(api, adjoint ? "col" : "out", col->desc.shape, cs)) != kSuccess) return st;
  auto map = [g, batched, c](const std::vector<int64_t>& p) {
    return batched ? imageIndex(g, p[0], p[1], p[2], c) : imageIndex(g, 0, p[0], p[1], c);
  };
  auto inst = newMap(info.name.c_str(), {{adjoint ? "col" : "self", in}}, "out", out, map);
  inst->accumulate = adjoint;
  inst->attrs = fmt::format("kernel=[{},{}] dilation=[{},{}] padding=[{},{}] stride=[{},{}]", g.kh, g.kw,
                            g.dh, g.dw, g.ph, g.pw, g.sh, g.sw);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}

// A 1- or 2-value array as (height, width).
bool pair(const aclIntArray* a, int64_t* hv, int64_t* wv) {
  if (a == nullptr || a->values.empty() || a->values.size() > 2) return false;
  *hv = a->values[0];
  *wv = a->values.size() == 2 ? a->values[1] : a->values[0];
  return true;
}

}  // namespace
}  // namespace npusim::aclnn

using namespace npusim::aclnn;

extern "C" aclnnStatus aclnnIm2colGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                   const aclIntArray* dilation, const aclIntArray* padding,
                                                   const aclIntArray* stride, const aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnIm2colGetWorkspaceSize";
  const int32_t st = checkNotNull(
      api, {{"kernelSize", kernelSize}, {"dilation", dilation}, {"padding", padding}, {"stride", stride}});
  if (st != kSuccess) return st;
  Window g{};
  if (!pair(kernelSize, &g.kh, &g.kw) || !pair(dilation, &g.dh, &g.dw) || !pair(padding, &g.ph, &g.pw) ||
      !pair(stride, &g.sh, &g.sw)) {
    return fail(api, kErrParamInvalid, "kernelSize, dilation, padding and stride take 1 or 2 values");
  }
  return im2col(api, kIm2col, self, g, out, false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Im2col)

extern "C" aclnnStatus aclnnIm2ColGetWorkspaceSize(const aclTensor* x, int64_t kernelH, int64_t kernelW,
                                                   int64_t strideH, int64_t strideW, int64_t padH,
                                                   int64_t padW, int64_t dilationH, int64_t dilationW,
                                                   const aclTensor* z, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  const Window g{kernelH, kernelW, dilationH, dilationW, padH, padW, strideH, strideW, 0, 0};
  return im2col("aclnnIm2ColGetWorkspaceSize", kIm2Col, x, g, z, false, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Im2Col)

extern "C" aclnnStatus aclnnCol2ImGetWorkspaceSize(const aclTensor* col, int64_t outputH, int64_t outputW,
                                                   int64_t kernelH, int64_t kernelW, int64_t stride,
                                                   int64_t padding, int64_t dilation, const aclTensor* x,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnCol2ImGetWorkspaceSize";
  if (x != nullptr && x->desc.rank() >= 2 &&
      (x->desc.shape[x->desc.rank() - 2] != outputH || x->desc.shape.back() != outputW)) {
    return fail(api, kErrParamInvalid,
                fmt::format("x shape {} must end in [output_h, output_w] = [{}, {}]",
                            shapeString(x->desc.shape), outputH, outputW));
  }
  const Window g{kernelH, kernelW, dilation, dilation, padding, padding, stride, stride, 0, 0};
  return im2col(api, kCol2Im, x, g, col, true, workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(Col2Im)

extern "C" aclnnStatus aclnnUnfoldGradGetWorkspaceSize(const aclTensor* gradOut,
                                                       const aclIntArray* inputSizes, int64_t dim,
                                                       int64_t size, int64_t step, const aclTensor* gradIn,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnUnfoldGradGetWorkspaceSize";
  npusim::rt::chargeOpPrepare(api);
  int32_t st = checkNotNull(api, {{"inputSizes", inputSizes}});
  if (st != kSuccess ||
      (st = checkMapArgs(api, kUnfoldGrad, "gradOut", gradOut, "gradIn", gradIn)) != kSuccess)
    return st;
  const std::vector<int64_t> in = inputSizes->values;
  if ((st = checkShape(api, "gradIn", gradIn->desc.shape, in)) != kSuccess) return st;
  const int64_t d = wrapDim(dim, std::max<size_t>(in.size(), 1));
  if (d < 0 || size <= 0 || step <= 0 || (!in.empty() && size > in[static_cast<size_t>(d)])) {
    return fail(api, kErrParamInvalid,
                fmt::format("dim {}, size {} and step {} do not fit inputSizes {}", dim, size, step,
                            shapeString(in)));
  }
  const auto ud = static_cast<size_t>(d);
  std::vector<int64_t> gs = in.empty() ? std::vector<int64_t>{1} : in;
  gs[ud] = (gs[ud] - size) / step + 1;
  gs.push_back(size);
  if ((st = checkShape(api, "gradOut", gradOut->desc.shape, gs)) != kSuccess) return st;
  const std::vector<int64_t> is = in.empty() ? std::vector<int64_t>{1} : in;
  auto inst = newMap("aclnnUnfoldGrad", {{"gradOut", gradOut}}, "gradIn", gradIn,
                     [is, ud, step](const std::vector<int64_t>& p) {
                       std::vector<int64_t> q(p.begin(), p.end() - 1);
                       q[ud] = p[ud] * step + p.back();
                       return flatIndex(q, is);
                     });
  inst->accumulate = true;
  inst->attrs = fmt::format("dim={} size={} step={}", dim, size, step);
  return makeExecutor(api, std::move(inst), workspaceSize, executor);
}
NPUSIM_ACLNN_PHASE2(UnfoldGrad)
