#pragma once
// The operator registry: one entry per aclnn operator, added by the operator's own file
// (a static OpRegistrar). It is the single source of each operator's accepted element types
// and execution unit, and lets tools and tests enumerate the operators.
#include <string>
#include <vector>

#include "acl/acl_base.h"

namespace npusim::aclnn {

enum class ExecUnit { kVector, kCube };

struct OpInfo {
  std::string name;  // phase-2 API name, e.g. "aclnnAdd"
  ExecUnit unit = ExecUnit::kVector;
  std::vector<aclDataType> dtypes;  // element types accepted for the tensor arguments
  std::string formula;              // one line, e.g. "out = self + alpha * other"

  bool accepts(aclDataType dt) const;
  std::string dtypeList() const;  // "fp32, fp16, ..." for messages
};

class OpRegistry {
 public:
  static OpRegistry& instance();
  void add(const OpInfo& info);
  const OpInfo* find(const std::string& name) const;
  std::vector<const OpInfo*> all() const;

 private:
  std::vector<OpInfo> ops_;
};

struct OpRegistrar {
  explicit OpRegistrar(const OpInfo& info) { OpRegistry::instance().add(info); }
};

}  // namespace npusim::aclnn
