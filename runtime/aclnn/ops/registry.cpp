#include "runtime/aclnn/ops/registry.h"

#include <algorithm>

#include "runtime/aclnn/base/dtype.h"

namespace npusim::aclnn {

bool OpInfo::accepts(aclDataType dt) const {
  return std::find(dtypes.begin(), dtypes.end(), dt) != dtypes.end();
}

std::string OpInfo::dtypeList() const {
  std::string s;
  for (aclDataType dt : dtypes) {
    if (!s.empty()) s += ", ";
    s += dtypeName(dt);
  }
  return s;
}

OpRegistry& OpRegistry::instance() {
  static OpRegistry* r = new OpRegistry;  // registrars run during static initialisation
  return *r;
}

void OpRegistry::add(const OpInfo& info) {
  auto it = std::find_if(ops_.begin(), ops_.end(), [&](const OpInfo& o) { return o.name == info.name; });
  if (it != ops_.end())
    *it = info;
  else
    ops_.push_back(info);
}

const OpInfo* OpRegistry::find(const std::string& name) const {
  for (const OpInfo& o : ops_) {
    if (o.name == name) return &o;
  }
  return nullptr;
}

std::vector<const OpInfo*> OpRegistry::all() const {
  std::vector<const OpInfo*> v;
  for (const OpInfo& o : ops_) v.push_back(&o);
  return v;
}

}  // namespace npusim::aclnn
