#pragma once
// Data movement as a map: every output element is a copy of one input element (or a fill
// value), chosen by a function of the output position. Pads, repeat, expand, roll, flip, stack,
// diag, eye and the like are each such a map; their gradients run the same map backwards,
// adding every input element into the output element it came from. inputs = the read tensors,
// outputs = {out}. Cost: the input elements the map touches are read once through MTE, out is
// written once, one vector pass for the address arithmetic. When every operand has out's type
// the elements move as bytes (so complex tensors too); otherwise values convert to out's type.
#include <cstdint>
#include <functional>
#include <vector>

#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/base/scalar.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

// Position (row-major coordinates) -> flat row-major index into the inputs' dense elements laid
// end to end (input 0 first) and then MapInstance::constants, or -1 for the fill value.
using SourceMap = std::function<int64_t(const std::vector<int64_t>& pos)>;

class MapInstance : public OpInstanceBase<MapInstance> {
 public:
  SourceMap source;
  ScalarValue fill;                    // written where the map gives -1 (zero unless set)
  std::vector<ScalarValue> constants;  // values the map can name after the input elements
  bool accumulate = false;    // backwards: out = 0, then out[source(p)] += inputs[0][p] for p in inputs[0]
  int64_t readElements = -1;  // input elements the map touches; -1: every input element

  rt::OpWork work() const override;
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override;
};

// A MapInstance reading `in` (names and tensors in order) and writing `out`.
std::unique_ptr<MapInstance> newMap(const char* opName,
                                    std::initializer_list<std::pair<const char*, const aclTensor*>> in,
                                    const char* outName, const aclTensor* out, SourceMap source);

// An int64 ScalarValue (the map's constants, e.g. Eye's 1).
ScalarValue int64Scalar(int64_t v);

// Flat row-major index of `pos` in a tensor of `shape`.
int64_t flatIndex(const std::vector<int64_t>& pos, const std::vector<int64_t>& shape);

// Checks shared by the maps that copy one tensor of an accepted type into an out of its type.
int32_t checkMapArgs(const char* api, const OpInfo& info, const char* selfName, const aclTensor* self,
                     const char* outName, const aclTensor* out);

}  // namespace npusim::aclnn
