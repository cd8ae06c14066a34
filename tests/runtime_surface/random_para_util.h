#pragma once
// A random-number task's inline parameter (aclrtRandomParaInfo with isAddr 0), for the tests of
// aclrtRandomNumAsync and of its task update.
#include <cstring>

#include "acl/acl.h"

namespace npusim::test {

template <typename T>
void setValue(aclrtRandomParaInfo* p, T v) {
  std::memset(p, 0, sizeof *p);
  std::memcpy(p->valueOrAddr, &v, sizeof v);
  p->size = sizeof v;
}

}  // namespace npusim::test
