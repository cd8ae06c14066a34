#pragma once
// aclTensor: a host-side descriptor of a (possibly strided) view over device memory.
// TensorDesc is the value type operators copy into their executors.
#include <cstdint>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"

namespace npusim::aclnn {

struct TensorDesc {
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_ND;
  std::vector<int64_t> shape;         // view shape
  std::vector<int64_t> strides;       // view strides in elements
  int64_t offset = 0;                 // view offset in elements from `data`
  std::vector<int64_t> storageShape;  // shape of the underlying storage
  uint64_t data = 0;                  // device address of the storage

  size_t rank() const { return shape.size(); }
  int64_t numel() const;
  bool isContiguous() const;  // row-major dense view (offset may be non-zero)
  size_t elementSize() const;
  // Element offsets (relative to `data`, including `offset`) of the lowest and highest
  // element the view touches. Only meaningful when numel() > 0.
  void elementSpan(int64_t* lo, int64_t* hi) const;
  uint64_t storageNumel() const;
  // "[4,2] fp32" (shape and dtype), for messages and trace arguments.
  std::string brief() const;
};

std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& shape);
std::string shapeString(const std::vector<int64_t>& shape);

}  // namespace npusim::aclnn

struct aclTensor {
  npusim::aclnn::TensorDesc desc;
};
