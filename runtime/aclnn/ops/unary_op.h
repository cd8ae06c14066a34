#pragma once
// Elementwise operators of one tensor (aclnnExp, aclnnSilu, aclnnAbs, ...): a definition with
// the element function per compute type, and macros that generate the operator's C entry
// points. An elementwise operator is then a dozen lines: its OpInfo, its functions, the macros.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

// Host scalars of the operators that take them (aclnnLeakyRelu's slope, aclnnClamp's bounds, ...).
using UnaryParams = std::array<double, 4>;

struct UnaryDef {
  const OpInfo* info;              // name and accepted element types (self and out)
  void (*f32)(float*, int64_t);    // in place over n values (fp16/bf16/fp32, and integers if no i64)
  void (*f64)(double*, int64_t);   // fp64 (nullptr: computed through f32)
  void (*i64)(int64_t*, int64_t);  // integers (nullptr: integers are computed as fp32)
  int passes = 1;                  // vector instructions per element (cost model)
  // Accepted out types when they are not self's (predicates writing bool, e.g. aclnnIsFinite):
  // the result, 1 or 0, is written in any of them. nullptr: out takes info's types, cast from self.
  const std::vector<aclDataType>* outTypes = nullptr;
  // Operators with scalars: out = withParams(x, params), computed in fp64 and rounded to fp32
  // (fp64 for fp64 operands); f32/f64/i64 are then unused.
  double (*withParams)(double x, const UnaryParams& p) = nullptr;
  // Bool self, values 0 or 1, when it differs from i64 (aclnnBitwiseNot is logical on bool).
  void (*boolFn)(int64_t*, int64_t) = nullptr;
};

// Phase 1: self and out of accepted types, out of self's shape; self's type must be castable
// to out's (integer self with a float-only function needs a floating out).
int32_t buildUnary(const UnaryDef& d, const char* api, const char* opName, const aclTensor* self,
                   const aclTensor* out, bool inplace, uint64_t* workspaceSize, aclOpExecutor** executor,
                   const UnaryParams& params = {}, const std::string& attrs = "");

// Applies the definition's function element by element (out may alias self).
void unaryKernel(const UnaryDef& d, const HostTensor& self, const HostTensor& out,
                 const UnaryParams& params = {});

}  // namespace npusim::aclnn

// aclnn<Name>GetWorkspaceSize(self, out, ...) and aclnn<Name>; OutT: out's declared type (a few
// public headers declare `const aclTensor* out`).
#define NPUSIM_ACLNN_UNARY_AS(Name, def, OutT)                                                               \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, OutT* out,                     \
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {  \
    return npusim::aclnn::buildUnary(def, "aclnn" #Name "GetWorkspaceSize", "aclnn" #Name, self, out, false, \
                                     workspaceSize, executor);                                               \
  }                                                                                                          \
  NPUSIM_ACLNN_PHASE2(Name)
#define NPUSIM_ACLNN_UNARY(Name, def) NPUSIM_ACLNN_UNARY_AS(Name, def, aclTensor)

// aclnnInplace<Name>GetWorkspaceSize(selfRef, ...) and aclnnInplace<Name>; RefT as OutT above.
#define NPUSIM_ACLNN_UNARY_INPLACE_AS(Name, def, RefT)                                                   \
  extern "C" aclnnStatus aclnnInplace##Name##GetWorkspaceSize(RefT* selfRef, uint64_t* workspaceSize,    \
                                                              aclOpExecutor** executor) {                \
    return npusim::aclnn::buildUnary(def, "aclnnInplace" #Name "GetWorkspaceSize", "aclnnInplace" #Name, \
                                     selfRef, selfRef, true, workspaceSize, executor);                   \
  }                                                                                                      \
  NPUSIM_ACLNN_PHASE2(Inplace##Name)
#define NPUSIM_ACLNN_UNARY_INPLACE(Name, def) NPUSIM_ACLNN_UNARY_INPLACE_AS(Name, def, aclTensor)
