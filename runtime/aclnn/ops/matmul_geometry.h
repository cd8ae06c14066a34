#pragma once
// Shape rules of aclnnMatmul (torch.matmul): 1-D operands get a unit M or N dimension that is
// dropped from the result, leading (batch) dimensions broadcast. MatmulGeometry flattens a
// call into `batch` independent M x K by K x N products with element offsets and strides.
#include <cstdint>
#include <string>
#include <vector>

namespace npusim::aclnn {

struct MatmulGeometry {
  int64_t M = 0, N = 0, K = 0, batch = 0;
  std::vector<int64_t> outShape;          // shape of the result
  int64_t aSm = 0, aSk = 0;               // self strides along M and K (elements)
  int64_t bSk = 0, bSn = 0;               // mat2 strides along K and N
  int64_t cSm = 0, cSn = 0;               // out strides along M and N
  std::vector<int64_t> aOff, bOff, cOff;  // per batch: element offset of the matrix start
};

// Result shape of self @ mat2, or an error text (empty on success).
std::string matmulOutShape(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                           std::vector<int64_t>* out);

// Geometry for operands with the given shapes and element strides; out must have the result
// shape (checked by the caller). Returns false if the shapes do not multiply.
bool matmulGeometry(const std::vector<int64_t>& aShape, const std::vector<int64_t>& aStrides,
                    const std::vector<int64_t>& bShape, const std::vector<int64_t>& bStrides,
                    const std::vector<int64_t>& outStrides, MatmulGeometry* g);

}  // namespace npusim::aclnn
