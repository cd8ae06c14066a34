#pragma once
// Operators that read self at positions given by an index tensor (aclnnIndexSelect,
// aclnnEmbedding, aclnnGather). inputs = {self, index}, outputs = {out}. An index outside
// [0, size) yields 0 in out (the device raises an AI-core exception; the simulator does not
// model it). Cost: the index and the gathered elements are read, out is written, one vector
// pass for the address computation.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/aclnn/base/op_instance.h"
#include "runtime/aclnn/ops/op_define.h"
#include "runtime/aclnn/ops/registry.h"

namespace npusim::aclnn {

class IndexInstance : public OpInstanceBase<IndexInstance> {
 public:
  bool elementwise = false;  // false: whole slices along dim (IndexSelect); true: torch.gather
  int64_t dim = 0;
  bool wrapNegative = false;  // an index in [-size, 0) counts from the end (GatherV2, Take)

  rt::OpWork work() const override;
  void compute(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) const override;
};

// The checks every gather shares: no null, valid tensors, self of an accepted type, an int32 /
// int64 index, out of self's type. Names are the operator's (self/weight, index/indices).
int32_t checkIndexArgs(const char* api, const OpInfo& info, const char* selfName, const aclTensor* self,
                       const char* indexName, const aclTensor* index, const aclTensor* out);

// checkIndexArgs for a gather along `dim` of self (named "self" and "index"), then `dim`
// wrapped into self's rank in *d, or the documented error when it is out of range.
int32_t checkIndexArgsAlongDim(const char* api, const OpInfo& info, const aclTensor* self,
                               const aclTensor* index, const aclTensor* out, int64_t dim, int64_t* d);

// A gather named `name` along `dim`: input 0 the source, input 1 the index, output 0 out, each
// under the operator's own name; the caller sets the mode (elementwise, wrapNegative) and views.
std::unique_ptr<IndexInstance> makeIndexInstance(const std::string& name, int64_t dim, const char* sourceName,
                                                 const aclTensor* source, const char* indexName,
                                                 const aclTensor* index, const char* outName,
                                                 const aclTensor* out);

}  // namespace npusim::aclnn
