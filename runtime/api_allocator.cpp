// ACL entry points: user allocators (aclrtAllocator*). A descriptor collects the user's allocator
// object and callbacks; registering it on a stream copies them, so the descriptor may be
// destroyed afterwards, and a later registration on the same stream replaces the earlier one.
// The runtime calls the allocator for operator workspace (runtime/op_launch.cpp).
#include <memory>
#include <set>

#include "acl/acl.h"
#include "runtime/runtime.h"
#include "runtime/user_allocator.h"

using npusim::rt::ApiCall;
using npusim::rt::Stream;
using npusim::rt::UserAllocator;

namespace {

std::set<UserAllocator*>& descriptors() {
  static auto* s = new std::set<UserAllocator*>();
  return *s;
}

template <typename F>
aclError setField(const char* name, aclrtAllocatorDesc desc, bool valueNull, F&& set) {
  ApiCall api(name);
  auto* d = static_cast<UserAllocator*>(desc);
  if (!d || !descriptors().count(d))
    return api.fail(ACL_ERROR_INVALID_PARAM, "allocatorDesc is not a live descriptor");
  if (valueNull) return api.fail(ACL_ERROR_INVALID_PARAM, "the value to set is NULL");
  set(*d);
  return api.done();
}

}  // namespace

extern "C" {

aclrtAllocatorDesc aclrtAllocatorCreateDesc(void) {
  ApiCall api("aclrtAllocatorCreateDesc");
  auto* d = new UserAllocator();
  d->desc = d;
  descriptors().insert(d);
  return d;
}

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc) {
  ApiCall api("aclrtAllocatorDestroyDesc");
  auto* d = static_cast<UserAllocator*>(allocatorDesc);
  if (!d || !descriptors().erase(d))
    return api.fail(ACL_ERROR_INVALID_PARAM, "allocatorDesc is not a live descriptor");
  delete d;  // registrations hold their own copy
  return api.done();
}

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator) {
  return setField("aclrtAllocatorSetObjToDesc", allocatorDesc, !allocator,
                  [&](UserAllocator& d) { d.obj = allocator; });
}

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocFunc func) {
  return setField("aclrtAllocatorSetAllocFuncToDesc", allocatorDesc, !func,
                  [&](UserAllocator& d) { d.alloc = func; });
}

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorFreeFunc func) {
  return setField("aclrtAllocatorSetFreeFuncToDesc", allocatorDesc, !func,
                  [&](UserAllocator& d) { d.free = func; });
}

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                aclrtAllocatorAllocAdviseFunc func) {
  return setField("aclrtAllocatorSetAllocAdviseFuncToDesc", allocatorDesc, !func,
                  [&](UserAllocator& d) { d.advise = func; });
}

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                     aclrtAllocatorGetAddrFromBlockFunc func) {
  return setField("aclrtAllocatorSetGetAddrFromBlockFuncToDesc", allocatorDesc, !func,
                  [&](UserAllocator& d) { d.addrOf = func; });
}

aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc) {
  ApiCall api("aclrtAllocatorRegister");
  if (!api.ok()) return api.notReady();
  if (!stream)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "stream is NULL (an allocator is registered on a created stream)");
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  auto* d = static_cast<UserAllocator*>(allocatorDesc);
  if (!d || !descriptors().count(d))
    return api.fail(ACL_ERROR_INVALID_PARAM, "allocatorDesc is not a live descriptor");
  if (!d->obj || !d->alloc || !d->free || !d->addrOf)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "the descriptor needs an allocator object and its alloc, free and get-address functions");
  s->allocator = std::make_shared<UserAllocator>(*d);
  api.args.add("stream", s->hw->id);
  return api.done();
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc* allocatorDesc,
                                   aclrtAllocator* allocator, aclrtAllocatorAllocFunc* allocFunc,
                                   aclrtAllocatorFreeFunc* freeFunc,
                                   aclrtAllocatorAllocAdviseFunc* allocAdviseFunc,
                                   aclrtAllocatorGetAddrFromBlockFunc* getAddrFromBlockFunc) {
  ApiCall api("aclrtAllocatorGetByStream");
  if (!api.ok()) return api.notReady();
  if (!stream) return api.fail(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  if (!s->allocator)
    return api.fail(ACL_ERROR_INVALID_PARAM, "no allocator is registered on stream {}", s->hw->id);
  const UserAllocator& a = *s->allocator;
  if (allocatorDesc) *allocatorDesc = a.desc;
  if (allocator) *allocator = a.obj;
  if (allocFunc) *allocFunc = a.alloc;
  if (freeFunc) *freeFunc = a.free;
  if (allocAdviseFunc) *allocAdviseFunc = a.advise;
  if (getAddrFromBlockFunc) *getAddrFromBlockFunc = a.addrOf;
  return api.done();
}

aclError aclrtAllocatorUnregister(aclrtStream stream) {
  ApiCall api("aclrtAllocatorUnregister");
  if (!api.ok()) return api.notReady();
  if (!stream) return api.fail(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  aclError err;
  Stream* s = api.stream(stream, &err);
  if (!s) return err;
  s->allocator.reset();
  return api.done();
}

}  // extern "C"
