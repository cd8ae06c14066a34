#pragma once
// Elementwise operators of three or more tensors (aclnnAddcmul, aclnnAddcdiv, aclnnLerp,
// aclnnAddN, aclnnIsClose, ...; issue 28): out = f(x0, x1, ..., params) element by element over
// the broadcast of the operands, with host scalars as parameters. The engine owns the checks
// (null pointers, types, promotion, broadcasting), the in-place form, empty tensors, strided
// views, the compute type and the cost model; an operator is its definition and entry point.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "aclnn/acl_meta.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

// The operator's host scalars (addcmul's value, eltwise's coefficients, ...), as doubles.
using PointwiseParams = std::vector<double>;

struct TernaryDef {
  const OpInfo* info;  // name and accepted element types (operands and out)
  // One element: x[0..n) the operands' values there (in fp64), p the parameters.
  double (*f)(const double* x, size_t n, const PointwiseParams& p);
  int passes;  // vector instructions per element (cost model)
  // Predicates (aclnnIsClose): out is one of these types and gets 1 or 0. nullptr: out takes
  // one of info's types and the promoted type must cast to it.
  const std::vector<aclDataType>* outTypes = nullptr;
  bool sameTypes = false;  // every operand of the same type (the doc says "consistent with self")
};

struct TernaryArgs {
  TernaryArgs(const char* api_, const char* opName_,
              std::vector<std::pair<std::string, const aclTensor*>> xs_, const char* outName_,
              const aclTensor* out_, bool inplace_ = false, PointwiseParams params_ = {},
              std::string attrs_ = "")
      : api(api_),
        opName(opName_),
        xs(std::move(xs_)),
        outName(outName_),
        out(out_),
        inplace(inplace_),
        params(std::move(params_)),
        attrs(std::move(attrs_)) {}

  const char* api;                                           // phase-1 name for messages
  const char* opName;                                        // phase-2 name
  std::vector<std::pair<std::string, const aclTensor*>> xs;  // operands, named as in the header
  const char* outName;                                       // "out", or "selfRef" in place
  const aclTensor* out;                                      // xs[0] when in place
  bool inplace;                                              // out is xs[0]: shapes must match
  PointwiseParams params;                                    // the operator's scalars
  std::string attrs;                                         // shown in the trace
};

// Phase 1: checks, then an executor computing def over the operands. Operands promote to a
// common type that must be one of info's; fp16/bf16/fp32 compute in fp32 and round once, fp64
// in fp64, integers in fp64 (exact below 2^53) stored with truncation.
int32_t buildTernary(const TernaryDef& def, const TernaryArgs& args, uint64_t* workspaceSize,
                     aclOpExecutor** executor);

// A required host scalar as a double, or 161001 naming it (for the operators' entry points).
int32_t scalarParam(const char* api, const char* name, const aclScalar* s, double* v);

}  // namespace npusim::aclnn
