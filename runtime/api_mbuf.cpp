// ACL entry points: message buffers (aclrtAllocBuf and friends), the host-side buffers that data
// queues pass around. Each has a data area, a valid length within it, a 96-byte private user-data
// area, and may head a chain of buffers. aclrtCopyBufRef makes a second buffer on the same data
// (the data lives until its last buffer is freed); freeing a chain head frees the chain.
#include <cstring>
#include <memory>
#include <set>
#include <vector>

#include "acl/acl.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;

namespace {

constexpr size_t kUserDataBytes = 96;

struct Mbuf {
  std::shared_ptr<std::vector<uint8_t>> data;
  size_t length = 0;  // valid bytes
  uint8_t user[kUserDataBytes] = {};
  std::vector<Mbuf*> chain;  // buffers appended to this head
  bool inChain = false;      // appended to another head
};

std::set<Mbuf*>& live() {
  static auto* s = new std::set<Mbuf*>();  // read until the process ends
  return *s;
}

Mbuf* find(ApiCall& api, const void* handle, const char* what, aclError* err) {
  auto* b = static_cast<Mbuf*>(const_cast<void*>(handle));
  if (handle && live().count(b)) return b;
  *err = api.fail(ACL_ERROR_INVALID_PARAM, "{} {} is not a live buffer (aclrtAllocBuf)", what, handle);
  return nullptr;
}

void destroy(Mbuf* b) {
  for (Mbuf* c : b->chain) destroy(c);
  live().erase(b);
  delete b;
}

// The buffer and its user-data range [offset, offset+size), checked.
aclError userRange(ApiCall& api, const void* handle, const void* dataPtr, size_t size, size_t offset,
                   Mbuf** out) {
  aclError err;
  *out = find(api, handle, "buf", &err);
  if (!*out) return err;
  if (!dataPtr || size == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "dataPtr is NULL or size is 0");
  if (offset > kUserDataBytes || size > kUserDataBytes - offset)
    return api.fail(ACL_ERROR_INVALID_PARAM, "[{}, +{}) is outside the {}-byte user data", offset, size,
                    kUserDataBytes);
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtAllocBuf(aclrtMbuf* buf, size_t size) {
  ApiCall api("aclrtAllocBuf");
  if (!api.ok()) return api.notReady();
  if (!buf || size == 0) return api.fail(ACL_ERROR_INVALID_PARAM, "buf is NULL or size is 0");
  api.charge(api.rt.costs().alloc);
  auto* b = new Mbuf();
  b->data = std::make_shared<std::vector<uint8_t>>(size);
  live().insert(b);
  *buf = b;
  return api.done();
}

aclError aclrtFreeBuf(aclrtMbuf buf) {
  ApiCall api("aclrtFreeBuf");
  if (!api.ok()) return api.notReady();
  aclError err;
  Mbuf* b = find(api, buf, "buf", &err);
  if (!b) return err;
  if (b->inChain) return api.fail(ACL_ERROR_INVALID_PARAM, "{} is in a chain: free the chain's head", buf);
  api.charge(api.rt.costs().alloc);
  destroy(b);
  return api.done();
}

aclError aclrtGetBufData(const aclrtMbuf buf, void** dataPtr, size_t* size) {
  ApiCall api("aclrtGetBufData");
  if (!api.ok()) return api.notReady();
  aclError err;
  Mbuf* b = find(api, buf, "buf", &err);
  if (!b) return err;
  if (!dataPtr || !size) return api.fail(ACL_ERROR_INVALID_PARAM, "dataPtr or size is NULL");
  *dataPtr = b->data->data();
  *size = b->data->size();
  return api.done();
}

aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t* len) {
  ApiCall api("aclrtGetBufDataLen");
  if (!api.ok()) return api.notReady();
  aclError err;
  Mbuf* b = find(api, buf, "buf", &err);
  if (!b) return err;
  if (!len) return api.fail(ACL_ERROR_INVALID_PARAM, "len is NULL");
  *len = b->length;
  return api.done();
}

aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len) {
  ApiCall api("aclrtSetBufDataLen");
  if (!api.ok()) return api.notReady();
  aclError err;
  Mbuf* b = find(api, buf, "buf", &err);
  if (!b) return err;
  if (len > b->data->size())
    return api.fail(ACL_ERROR_INVALID_PARAM, "len {} exceeds the buffer's {} bytes", len, b->data->size());
  b->length = len;
  return api.done();
}

aclError aclrtGetBufUserData(const aclrtMbuf buf, void* dataPtr, size_t size, size_t offset) {
  ApiCall api("aclrtGetBufUserData");
  if (!api.ok()) return api.notReady();
  Mbuf* b;
  if (aclError e = userRange(api, buf, dataPtr, size, offset, &b)) return e;
  std::memcpy(dataPtr, b->user + offset, size);
  return api.done();
}

aclError aclrtSetBufUserData(aclrtMbuf buf, const void* dataPtr, size_t size, size_t offset) {
  ApiCall api("aclrtSetBufUserData");
  if (!api.ok()) return api.notReady();
  Mbuf* b;
  if (aclError e = userRange(api, buf, dataPtr, size, offset, &b)) return e;
  std::memcpy(b->user + offset, dataPtr, size);
  return api.done();
}

aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf* newBuf) {
  ApiCall api("aclrtCopyBufRef");
  if (!api.ok()) return api.notReady();
  aclError err;
  Mbuf* b = find(api, buf, "buf", &err);
  if (!b) return err;
  if (!newBuf) return api.fail(ACL_ERROR_INVALID_PARAM, "newBuf is NULL");
  auto* c = new Mbuf();
  c->data = b->data;  // the same bytes
  c->length = b->length;
  std::memcpy(c->user, b->user, kUserDataBytes);
  live().insert(c);
  *newBuf = c;
  return api.done();
}

aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf) {
  ApiCall api("aclrtAppendBufChain");
  if (!api.ok()) return api.notReady();
  aclError err;
  Mbuf* head = find(api, headBuf, "headBuf", &err);
  if (!head) return err;
  Mbuf* b = find(api, buf, "buf", &err);
  if (!b) return err;
  if (b == head || b->inChain || !b->chain.empty() || head->inChain)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "buf must be a single buffer outside any chain, headBuf a chain head");
  b->inChain = true;
  head->chain.push_back(b);
  return api.done();
}

aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t* num) {
  ApiCall api("aclrtGetBufChainNum");
  if (!api.ok()) return api.notReady();
  aclError err;
  Mbuf* head = find(api, headBuf, "headBuf", &err);
  if (!head) return err;
  if (!num) return api.fail(ACL_ERROR_INVALID_PARAM, "num is NULL");
  *num = static_cast<uint32_t>(head->chain.size() + 1);  // the head counts
  return api.done();
}

aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf* buf) {
  ApiCall api("aclrtGetBufFromChain");
  if (!api.ok()) return api.notReady();
  aclError err;
  Mbuf* head = find(api, headBuf, "headBuf", &err);
  if (!head) return err;
  if (!buf) return api.fail(ACL_ERROR_INVALID_PARAM, "buf is NULL");
  if (index > head->chain.size())
    return api.fail(ACL_ERROR_INVALID_PARAM, "index {} is past the chain's {} buffers", index,
                    head->chain.size() + 1);
  *buf = index == 0 ? head : head->chain[index - 1];
  return api.done();
}

}  // extern "C"
