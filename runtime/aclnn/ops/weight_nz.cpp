#include "runtime/aclnn/ops/weight_nz.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "runtime/aclnn/base/dtype.h"

namespace npusim::aclnn {

namespace {

constexpr int64_t kFractalRows = 16;
constexpr int64_t kFractalRowBytes = 32;

int64_t alignUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

}  // namespace

int64_t NzLayout::alignedRows() const { return alignUp(rows, kFractalRows); }
int64_t NzLayout::alignedCols() const { return alignUp(cols, c0); }

int64_t NzLayout::offset(int64_t b, int64_t r, int64_t c) const {
  return b * matrixNumel() + ((c / c0) * alignedRows() + r) * c0 + c % c0;
}

std::vector<int64_t> NzLayout::storageShape(const std::vector<int64_t>& batchDims) const {
  std::vector<int64_t> s = batchDims;
  s.insert(s.end(), {alignedCols() / c0, alignedRows() / kFractalRows, kFractalRows, c0});
  return s;
}

int64_t nzC0(aclDataType dt) {
  switch (dt) {
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT8:
    case ACL_FLOAT:
      return kFractalRowBytes / static_cast<int64_t>(dtypeSize(dt));
    default:
      return 0;
  }
}

std::string nzLayoutOf(const TensorDesc& view, NzLayout* layout) {
  const size_t r = view.rank();
  if (r < 2)
    return fmt::format("the weight must have at least 2 dimensions, but is {}", shapeString(view.shape));
  NzLayout l;
  l.c0 = nzC0(view.dtype);
  if (l.c0 == 0) return fmt::format("the weight's type {} has no NZ layout", dtypeName(view.dtype));
  const int64_t k = view.shape[r - 2], n = view.shape[r - 1];
  const std::vector<int64_t> dense = contiguousStrides(view.shape);
  std::vector<int64_t> swapped = dense;  // strides of a [.., N, K] matrix read as [.., K, N]
  swapped[r - 2] = 1;
  swapped[r - 1] = k;
  auto sameBatch = [&](const std::vector<int64_t>& s) {
    for (size_t i = 0; i + 2 < r; ++i) {
      if (view.shape[i] != 1 && view.strides[i] != s[i]) return false;
    }
    return true;
  };
  auto same = [&](int64_t a, int64_t b, int64_t extent) { return extent == 1 || a == b; };
  if (sameBatch(dense) && same(view.strides[r - 2], dense[r - 2], k) && same(view.strides[r - 1], 1, n)) {
    l.rows = k;
    l.cols = n;
  } else if (sameBatch(swapped) && same(view.strides[r - 2], 1, k) && same(view.strides[r - 1], k, n)) {
    l.rows = n;
    l.cols = k;
    l.transposed = true;
  } else {
    return fmt::format(
        "the weight view (shape {}, strides {}) is neither dense nor a transposed dense matrix",
        shapeString(view.shape), shapeString(view.strides));
  }
  l.batch = 1;
  for (size_t i = 0; i + 2 < r; ++i) l.batch *= view.shape[i];
  *layout = l;
  return {};
}

void denseToNz(const NzLayout& l, size_t es, const char* dense, char* nz) {
  std::memset(nz, 0, static_cast<size_t>(l.numel()) * es);
  for (int64_t b = 0; b < l.batch; ++b) {
    for (int64_t r = 0; r < l.rows; ++r) {
      for (int64_t c = 0; c < l.cols; c += l.c0) {
        const int64_t run = std::min(l.c0, l.cols - c);  // one fractal row: contiguous on both sides
        std::memcpy(nz + l.offset(b, r, c) * static_cast<int64_t>(es),
                    dense + ((b * l.rows + r) * l.cols + c) * static_cast<int64_t>(es),
                    static_cast<size_t>(run) * es);
      }
    }
  }
}

void nzToDense(const NzLayout& l, size_t es, const char* nz, char* dense) {
  for (int64_t b = 0; b < l.batch; ++b) {
    for (int64_t r = 0; r < l.rows; ++r) {
      for (int64_t c = 0; c < l.cols; c += l.c0) {
        const int64_t run = std::min(l.c0, l.cols - c);
        std::memcpy(dense + ((b * l.rows + r) * l.cols + c) * static_cast<int64_t>(es),
                    nz + l.offset(b, r, c) * static_cast<int64_t>(es), static_cast<size_t>(run) * es);
      }
    }
  }
}

std::string nzLayoutOfMatrices(const TensorDesc& w, int64_t batch, int64_t K, int64_t N, NzLayout* layout) {
  const int64_t c0 = nzC0(w.dtype);
  if (c0 == 0) return fmt::format("the weight's type {} has no NZ layout", dtypeName(w.dtype));
  std::vector<int64_t> logical = {K, N}, fractal = {N / c0, K / kFractalRows, kFractalRows, c0};
  if (w.rank() == 3 || w.rank() == 5) {
    logical.insert(logical.begin(), batch);
    fractal.insert(fractal.begin(), batch);
  }
  if (w.shape == logical) {
    const std::string bad = nzLayoutOf(w, layout);
    if (!bad.empty()) return bad;
    return layout->transposed ? "a transposed NZ weight is not supported" : "";
  }
  if (w.shape != fractal || N % c0 != 0 || K % kFractalRows != 0 || !w.isContiguous()) {
    return fmt::format("the NZ weight {} must be {} or the fractal view {}", shapeString(w.shape),
                       shapeString(logical), shapeString(fractal));
  }
  layout->batch = batch, layout->rows = K, layout->cols = N, layout->c0 = c0;
  layout->transposed = false;
  return "";
}

HostTensor denseWeightView(const HostTensor& stored, const TensorDesc& view, bool isNz, const NzLayout& l,
                           std::vector<char>* dense) {
  HostTensor w = stored;
  if (isNz) {  // back to the dense storage order the view's strides describe
    dense->resize(static_cast<size_t>(l.batch * l.rows * l.cols) * view.elementSize());
    nzToDense(l, view.elementSize(), stored.data, dense->data());
    w.data = dense->data();
  }
  w.dtype = view.dtype;
  w.shape = view.shape;
  w.strides = view.strides;
  return w;
}

TensorDesc nzStorageDesc(const TensorDesc& view, const NzLayout& l) {
  TensorDesc d;
  d.dtype = view.dtype;
  d.format = ACL_FORMAT_FRACTAL_NZ;
  d.shape = {l.numel()};
  d.strides = {1};
  d.offset = view.offset;
  d.storageShape = {view.offset + l.numel()};
  d.data = view.data;
  return d;
}

}  // namespace npusim::aclnn
