#include "runtime/aclnn/base/tensor.h"

#include <fmt/format.h>

#include <new>

#include "runtime/aclnn/base/dtype.h"
#include "runtime/aclnn/base/live_handles.h"
#include "runtime/aclnn/base/status.h"

namespace npusim::aclnn {

int64_t TensorDesc::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

bool TensorDesc::isContiguous() const {
  int64_t expect = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && strides[i] != expect) return false;
    expect *= shape[i];
  }
  return true;
}

size_t TensorDesc::elementSize() const { return dtypeSize(dtype); }

void TensorDesc::elementSpan(int64_t* lo, int64_t* hi) const {
  int64_t l = offset, h = offset;
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t reach = (shape[i] - 1) * strides[i];
    if (reach > 0)
      h += reach;
    else
      l += reach;
  }
  *lo = l;
  *hi = h;
}

uint64_t TensorDesc::storageNumel() const {
  uint64_t n = 1;
  for (int64_t d : storageShape) n *= static_cast<uint64_t>(d < 0 ? 0 : d);
  return n;
}

std::string TensorDesc::brief() const { return fmt::format("{} {}", shapeString(shape), dtypeName(dtype)); }

std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * (shape[i] > 0 ? shape[i] : 1);
  return s;
}

std::string shapeString(const std::vector<int64_t>& shape) {
  return fmt::format("[{}]", fmt::join(shape, ","));
}

namespace {

void fill(TensorDesc& d, const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
          const int64_t* stride, int64_t offset, aclFormat format, const int64_t* storageDims,
          uint64_t storageDimsNum, void* data) {
  d.dtype = dataType;
  d.format = format;
  d.shape.assign(viewDims, viewDims + viewDimsNum);
  // CANN accepts a NULL stride array; a dense row-major view is the only sensible reading.
  d.strides =
      stride != nullptr ? std::vector<int64_t>(stride, stride + viewDimsNum) : contiguousStrides(d.shape);
  d.offset = offset;
  d.storageShape.assign(storageDims, storageDims + storageDimsNum);
  d.data = reinterpret_cast<uint64_t>(data);
}

}  // namespace

}  // namespace npusim::aclnn

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t* stride, int64_t offset, aclFormat format,
                           const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData) {
  if ((viewDims == nullptr && viewDimsNum > 0) || (storageDims == nullptr && storageDimsNum > 0))
    return nullptr;
  auto* t = new (std::nothrow) aclTensor;
  if (t == nullptr) return nullptr;
  npusim::aclnn::fill(t->desc, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
                      storageDimsNum, tensorData);
  npusim::aclnn::liveTensors().add(t);
  return t;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  if (tensor == nullptr) return OK;
  if (!npusim::aclnn::liveTensors().remove(tensor))
    return npusim::aclnn::refuseDeadHandle("aclDestroyTensor", "aclTensor", tensor);
  delete tensor;
  return OK;
}

aclnnStatus aclInitTensor(aclTensor* tensor, const int64_t* viewDims, uint64_t viewDimsNum,
                          aclDataType dataType, const int64_t* stride, int64_t offset, aclFormat format,
                          const int64_t* storageDims, uint64_t storageDimsNum, void* tensorDataAddr) {
  if (tensor == nullptr) return npusim::aclnn::kErrParamNullptr;
  if ((viewDims == nullptr && viewDimsNum > 0) || (storageDims == nullptr && storageDimsNum > 0)) {
    return npusim::aclnn::kErrParamNullptr;
  }
  npusim::aclnn::fill(tensor->desc, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
                      storageDimsNum, tensorDataAddr);
  return OK;
}

namespace {

aclnnStatus copyOut(const std::vector<int64_t>& v, int64_t** out, uint64_t* num) {
  *num = v.size();
  *out = new (std::nothrow) int64_t[v.empty() ? 1 : v.size()];
  if (*out == nullptr) return npusim::aclnn::kErrInnerNullptr;
  for (size_t i = 0; i < v.size(); ++i) (*out)[i] = v[i];
  return OK;
}

}  // namespace

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
  if (tensor == nullptr || viewDims == nullptr || viewDimsNum == nullptr)
    return npusim::aclnn::kErrParamNullptr;
  return copyOut(tensor->desc.shape, viewDims, viewDimsNum);
}

aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims, uint64_t* storageDimsNum) {
  if (tensor == nullptr || storageDims == nullptr || storageDimsNum == nullptr) {
    return npusim::aclnn::kErrParamNullptr;
  }
  return copyOut(tensor->desc.storageShape, storageDims, storageDimsNum);
}

aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue, uint64_t* stridesNum) {
  if (tensor == nullptr || stridesValue == nullptr || stridesNum == nullptr)
    return npusim::aclnn::kErrParamNullptr;
  return copyOut(tensor->desc.strides, stridesValue, stridesNum);
}

aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
  if (tensor == nullptr || offset == nullptr) return npusim::aclnn::kErrParamNullptr;
  *offset = tensor->desc.offset;
  return OK;
}

aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
  if (tensor == nullptr || format == nullptr) return npusim::aclnn::kErrParamNullptr;
  *format = tensor->desc.format;
  return OK;
}

aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
  if (tensor == nullptr || dataType == nullptr) return npusim::aclnn::kErrParamNullptr;
  *dataType = tensor->desc.dtype;
  return OK;
}

aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr) {
  if (tensor == nullptr) return npusim::aclnn::kErrParamNullptr;
  tensor->desc.data = reinterpret_cast<uint64_t>(addr);
  return OK;
}

aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr) {
  if (tensor == nullptr || addr == nullptr) return npusim::aclnn::kErrParamNullptr;
  *addr = reinterpret_cast<void*>(tensor->desc.data);
  return OK;
}

}  // extern "C"
