#pragma once
// A user allocator registered on a stream (aclrtAllocatorRegister, runtime/api_allocator.cpp):
// the runtime asks it for the device workspace an operator needs when the program launches the
// operator without one, and gives the block back once the operator is enqueued (stream order
// keeps the block's next user behind it, as for a caching allocator).
#include <cstdint>

#include "acl/acl.h"

namespace npusim::rt {

struct UserAllocator {
  aclrtAllocatorDesc desc = nullptr;  // the descriptor registered (for aclrtAllocatorGetByStream)
  aclrtAllocator obj = nullptr;
  aclrtAllocatorAllocFunc alloc = nullptr;
  aclrtAllocatorFreeFunc free = nullptr;
  aclrtAllocatorAllocAdviseFunc advise = nullptr;
  aclrtAllocatorGetAddrFromBlockFunc addrOf = nullptr;
};

}  // namespace npusim::rt
