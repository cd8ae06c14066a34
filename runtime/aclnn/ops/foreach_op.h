#pragma once
// The foreach engine (aclnnForeach*, ops-nn foreach/): one operator walks lists of tensors and
// applies the same element function to the i-th tensor of each list, with a scalar that is the
// same for every entry or one per entry. An operator is then its definition (accepted types,
// the function, the vector passes) and the arguments its entry point received; the engine owns
// the list checks, strided views, the scalars' sources and the cost model: one launch whose
// tiles are those of every entry's elementwise pass, which is why the fused foreach operators
// exist (one kernel over the whole list instead of one per tensor).
#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

// Where the scalar of the element function comes from.
enum class ForeachScalar {
  kNone,
  kTensor,          // a device tensor of one element, read when the operator runs
  kTensorPerEntry,  // a device tensor of one element per list entry (the *ScalarList forms)
  kHost,            // an aclScalar
  kHostList,        // an aclScalarList, one per entry
};

// What the operator does with each entry.
enum class ForeachMode {
  kElementwise,  // out_i = f(x1_i, x2_i, x3_i, s_i) element by element
  kNorm,         // out_i = (sum |x_i|^p)^(1/p), p the scalar (one element per entry)
  kUnscale,      // x_i *= invScale in place; foundInf = 1 if any element is inf or nan
};

struct ForeachDef {
  const OpInfo* info;  // name and the accepted element types of the tensors in the lists
  int lists = 1;       // tensor lists read per element (1 to 3)
  // Floating types: computed in fp64 and rounded once to fp32 (fp16/bf16 results are then
  // rounded when stored, as the kernels compute them in fp32).
  double (*f)(double a, double b, double c, double s) = nullptr;
  // Integer types (two's-complement wrap-around); nullptr: computed through f and truncated.
  int64_t (*fi)(int64_t a, int64_t b, int64_t c, int64_t s) = nullptr;
  int passes = 1;                        // vector instructions per element (cost model)
  std::vector<aclDataType> scalarTypes;  // accepted types of the scalar (empty: no scalar)
  bool scalarFollowsX = true;            // a floating x takes a floating scalar, an integer x an integer
  bool readsX = true;                    // false: out is written without reading x (ForeachZeroInplace)
  ForeachMode mode = ForeachMode::kElementwise;
};

// The arguments of one call. x[k] are the lists read (nullptr past def.lists); out is x[0]
// for the in-place operators.
struct ForeachArgs {
  const aclTensorList* x[3] = {nullptr, nullptr, nullptr};
  const char* xNames[3] = {"x1", "x2", "x3"};
  const aclTensorList* out = nullptr;
  bool inplace = false;
  ForeachScalar scalarKind = ForeachScalar::kNone;
  const char* scalarName = "scalar";
  const aclTensor* scalarTensor = nullptr;
  const aclScalar* scalar = nullptr;
  const aclScalarList* scalarList = nullptr;
  const aclTensor* extraOut = nullptr;  // kUnscale: foundInf
};

// Phase 1: the lists non-null, of one length, their tensors non-null, of one accepted type
// and of the first list's shapes; the scalar of an accepted type and count.
int32_t buildForeach(const ForeachDef& d, const char* api, const char* opName, const ForeachArgs& a,
                     uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace npusim::aclnn
