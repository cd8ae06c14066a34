// Data queues (libacl_tdt_queue) between host threads of one process: buffers (data, a data length,
// a 96-byte user area, chains, shared references), queues of buffers with a depth, and routes that
// forward what is enqueued on a source queue to the destination queues bound to it. Enqueue on a full
// queue and dequeue on an empty one wait for the timeout (ms; -1 for ever, 0 not at all), then return
// ACL_ERROR_RT_QUEUE_FULL / ACL_ERROR_RT_QUEUE_EMPTY. Sharing a queue with another process
// (acltdtGrantQueue to a foreign pid) is refused: npusim simulates one process.
#include <unistd.h>

#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"
#include "runtime/errors.h"
#include "runtime/host_block.h"
#include "runtime/runtime.h"
#include "runtime/unsupported.h"

namespace {

constexpr size_t kUserDataBytes = 96;  // the private area every CANN queue buffer carries
constexpr uint32_t kDefaultDepth = 8;  // a stated choice: the depth when the attribute sets none

struct BufData {
  std::vector<unsigned char> bytes;
  size_t dataLen = 0;
  unsigned char user[kUserDataBytes] = {};
};

struct Buf {
  std::shared_ptr<BufData> d;  // shared by acltdtCopyBufRef copies
  std::vector<Buf*> chain;     // buffers appended to this head (owned by the program)
};

}  // namespace

struct tagMemQueueAttr {
  std::string name;
  uint32_t depth = kDefaultDepth;
};
struct acltdtQueueRoute {
  uint32_t src = 0, dst = 0;
  int32_t status = ACL_TDT_QUEUE_ROUTE_UNBIND;
};
struct acltdtQueueRouteList {
  std::vector<acltdtQueueRoute> routes;
};
struct acltdtQueueRouteQueryInfo {
  int32_t mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC;
  uint32_t src = 0, dst = 0;
};

namespace {

using npusim::rt::ApiCall;
using npusim::rt::setRecentError;

struct Queue {
  std::string name;
  uint32_t depth = kDefaultDepth;
  std::deque<Buf*> items;
  npusim::Tick lastEnqueue = 0;
};

struct Queues {
  std::map<uint32_t, Queue> byId;
  uint32_t next = 0;
  std::set<std::pair<uint32_t, uint32_t>> bound;  // (src, dst) routes in force
};
Queues& queues() {
  static auto* q = new Queues;  // guarded by the runtime lock (every queue call is an ApiCall)
  return *q;
}

// Queues and routes end with the simulation, with the buffers still queued; ids go on counting,
// so an old queue's id is refused rather than naming a new queue.
[[maybe_unused]] const bool kForgottenAtEnd = (npusim::rt::Runtime::onSimulationEnd([] {
                                                 Queues& qs = queues();
                                                 for (auto& q : qs.byId)
                                                   for (Buf* b : q.second.items) delete b;
                                                 qs.byId.clear();
                                                 qs.bound.clear();
                                               }),
                                               true);

Queue* queueOf(ApiCall& api, uint32_t qid) {
  auto it = queues().byId.find(qid);
  if (it == queues().byId.end()) {
    api.fail(ACL_ERROR_INVALID_QUEUE_ID, "queue {} does not exist", qid);
    return nullptr;
  }
  return &it->second;
}

Buf* bufOf(acltdtBuf b) { return static_cast<Buf*>(b); }

// The queues a buffer enqueued on `qid` lands in: the destinations of its bound routes, else itself.
std::vector<uint32_t> targets(uint32_t qid) {
  std::vector<uint32_t> out;
  for (const auto& [s, d] : queues().bound)
    if (s == qid && queues().byId.count(d)) out.push_back(d);
  if (out.empty()) out.push_back(qid);
  return out;
}

aclError enqueue(ApiCall& api, uint32_t qid, Buf* buf, int32_t timeout) {
  if (!queueOf(api, qid)) return ACL_ERROR_INVALID_QUEUE_ID;
  std::vector<uint32_t> to = targets(qid);
  auto roomy = [&] {
    for (uint32_t q : to) {
      auto it = queues().byId.find(q);
      if (it != queues().byId.end() && it->second.items.size() >= it->second.depth) return false;
    }
    return true;
  };
  if (aclError e = npusim::rt::blockUntil(api, timeout, roomy, ACL_ERROR_RT_QUEUE_FULL))
    return api.fail(e, "queue {} stayed full for {} ms", qid, timeout);
  for (size_t i = 0; i < to.size(); ++i) {
    auto it = queues().byId.find(to[i]);
    if (it == queues().byId.end()) continue;
    // Several destinations each get a reference to the same data.
    Buf* b = i == 0 ? buf : new Buf{buf->d, {}};
    it->second.items.push_back(b);
    it->second.lastEnqueue = api.th->clock;
  }
  return api.done();
}

aclError dequeue(ApiCall& api, uint32_t qid, Buf** out, int32_t timeout) {
  Queue* q = queueOf(api, qid);
  if (!q) return ACL_ERROR_INVALID_QUEUE_ID;
  if (aclError e = npusim::rt::blockUntil(
          api, timeout, [&] { return !queues().byId.count(qid) || !queues().byId[qid].items.empty(); },
          ACL_ERROR_RT_QUEUE_EMPTY))
    return api.fail(e, "queue {} stayed empty for {} ms", qid, timeout);
  q = queueOf(api, qid);
  if (!q) return ACL_ERROR_INVALID_QUEUE_ID;
  api.th->clock = std::max(api.th->clock, q->lastEnqueue);
  *out = q->items.front();
  q->items.pop_front();
  return api.done();
}

aclError routeParam(const char* api, size_t len, size_t* ret, void* param, const void* value, size_t size) {
  if (!param || len < size) return setRecentError(api, "param is NULL or len is too small");
  std::memcpy(param, value, size);
  if (ret) *ret = size;
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

// ---- buffers ---------------------------------------------------------------------------------------

aclError acltdtAllocBuf(size_t size, uint32_t type, acltdtBuf* buf) {
  if (!buf || type > ACL_TDT_DVPP_MEM)
    return setRecentError("acltdtAllocBuf", "buf is NULL or type is unknown");
  auto* b = new Buf{std::make_shared<BufData>(), {}};
  b->d->bytes.resize(size);
  b->d->dataLen = size;
  *buf = b;
  return ACL_SUCCESS;
}

aclError acltdtFreeBuf(acltdtBuf buf) {
  if (!buf) return setRecentError("acltdtFreeBuf", "buf is NULL");
  delete bufOf(buf);
  return ACL_SUCCESS;
}

aclError acltdtGetBufData(const acltdtBuf buf, void** dataPtr, size_t* size) {
  if (!buf || !dataPtr || !size) return setRecentError("acltdtGetBufData", "NULL argument");
  *dataPtr = bufOf(buf)->d->bytes.data();
  *size = bufOf(buf)->d->bytes.size();
  return ACL_SUCCESS;
}

aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len) {
  if (!buf || len > bufOf(buf)->d->bytes.size())
    return setRecentError("acltdtSetBufDataLen", "buf is NULL or len exceeds the buffer");
  bufOf(buf)->d->dataLen = len;
  return ACL_SUCCESS;
}

aclError acltdtGetBufDataLen(acltdtBuf buf, size_t* len) {
  if (!buf || !len) return setRecentError("acltdtGetBufDataLen", "NULL argument");
  *len = bufOf(buf)->d->dataLen;
  return ACL_SUCCESS;
}

aclError acltdtAppendBufChain(acltdtBuf headBuf, acltdtBuf buf) {
  if (!headBuf || !buf || headBuf == buf)
    return setRecentError("acltdtAppendBufChain", "NULL or identical buffers");
  bufOf(headBuf)->chain.push_back(bufOf(buf));
  return ACL_SUCCESS;
}

aclError acltdtGetBufChainNum(acltdtBuf headBuf, uint32_t* num) {
  if (!headBuf || !num) return setRecentError("acltdtGetBufChainNum", "NULL argument");
  *num = static_cast<uint32_t>(bufOf(headBuf)->chain.size() + 1);  // the head counts
  return ACL_SUCCESS;
}

aclError acltdtGetBufFromChain(acltdtBuf headBuf, uint32_t index, acltdtBuf* buf) {
  if (!headBuf || !buf || index > bufOf(headBuf)->chain.size())
    return setRecentError("acltdtGetBufFromChain", "NULL argument or index out of range");
  *buf = index == 0 ? headBuf : bufOf(headBuf)->chain[index - 1];
  return ACL_SUCCESS;
}

aclError acltdtGetBufUserData(const acltdtBuf buf, void* dataPtr, size_t size, size_t offset) {
  if (!buf || !dataPtr || offset + size > kUserDataBytes)
    return setRecentError("acltdtGetBufUserData", "NULL argument or outside the 96-byte user area");
  std::memcpy(dataPtr, bufOf(buf)->d->user + offset, size);
  return ACL_SUCCESS;
}

aclError acltdtSetBufUserData(acltdtBuf buf, const void* dataPtr, size_t size, size_t offset) {
  if (!buf || !dataPtr || offset + size > kUserDataBytes)
    return setRecentError("acltdtSetBufUserData", "NULL argument or outside the 96-byte user area");
  std::memcpy(bufOf(buf)->d->user + offset, dataPtr, size);
  return ACL_SUCCESS;
}

aclError acltdtCopyBufRef(const acltdtBuf buf, acltdtBuf* newBuf) {
  if (!buf || !newBuf) return setRecentError("acltdtCopyBufRef", "NULL argument");
  *newBuf = new Buf{bufOf(buf)->d, {}};
  return ACL_SUCCESS;
}

// ---- queue attributes ---------------------------------------------------------------------------

acltdtQueueAttr* acltdtCreateQueueAttr() { return new tagMemQueueAttr; }

aclError acltdtDestroyQueueAttr(const acltdtQueueAttr* attr) {
  if (!attr) return setRecentError("acltdtDestroyQueueAttr", "attr is NULL");
  delete attr;
  return ACL_SUCCESS;
}

aclError acltdtSetQueueAttr(acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len, const void* param) {
  if (!attr || !param) return setRecentError("acltdtSetQueueAttr", "NULL argument");
  if (type == ACL_TDT_QUEUE_NAME_PTR && len >= sizeof(char*)) {
    const char* name = *static_cast<char* const*>(param);
    if (!name || std::strlen(name) >= 128)
      return setRecentError("acltdtSetQueueAttr", "name is NULL or too long");
    attr->name = name;
    return ACL_SUCCESS;
  }
  if (type == ACL_TDT_QUEUE_DEPTH_UINT32 && len >= sizeof(uint32_t)) {
    uint32_t depth;
    std::memcpy(&depth, param, sizeof depth);
    if (depth < 2) return setRecentError("acltdtSetQueueAttr", "depth must be at least 2");
    attr->depth = depth;
    return ACL_SUCCESS;
  }
  return setRecentError("acltdtSetQueueAttr", "unknown attribute or len too small");
}

aclError acltdtGetQueueAttr(const acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len,
                            size_t* paramRetSize, void* param) {
  if (!attr || !paramRetSize) return setRecentError("acltdtGetQueueAttr", "NULL argument");
  if (type == ACL_TDT_QUEUE_NAME_PTR) {
    const char* name = attr->name.c_str();
    return routeParam("acltdtGetQueueAttr", len, paramRetSize, param, &name, sizeof name);
  }
  if (type == ACL_TDT_QUEUE_DEPTH_UINT32)
    return routeParam("acltdtGetQueueAttr", len, paramRetSize, param, &attr->depth, sizeof attr->depth);
  return setRecentError("acltdtGetQueueAttr", "unknown attribute");
}

// ---- queues ----------------------------------------------------------------------------------------

aclError acltdtCreateQueue(const acltdtQueueAttr* attr, uint32_t* qid) {
  ApiCall api("acltdtCreateQueue");
  if (!api.ok()) return api.notReady();
  if (!attr || !qid) return api.fail(ACL_ERROR_INVALID_PARAM, "attr or qid is NULL");
  uint32_t id = ++queues().next;
  queues().byId[id] = Queue{attr->name, attr->depth, {}, 0};
  *qid = id;
  return api.done();
}

aclError acltdtDestroyQueue(uint32_t qid) {
  ApiCall api("acltdtDestroyQueue");
  if (!api.ok()) return api.notReady();
  Queue* q = queueOf(api, qid);
  if (!q) return ACL_ERROR_INVALID_QUEUE_ID;
  for (Buf* b : q->items) delete b;  // buffers still queued belong to the queue
  queues().byId.erase(qid);
  for (auto it = queues().bound.begin(); it != queues().bound.end();)
    it = it->first == qid || it->second == qid ? queues().bound.erase(it) : std::next(it);
  api.rt.cv.notify_all();
  return api.done();
}

aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf, int32_t timeout) {
  ApiCall api("acltdtEnqueue");
  if (!api.ok()) return api.notReady();
  if (!buf || timeout < -1) return api.fail(ACL_ERROR_INVALID_PARAM, "buf is NULL or timeout < -1");
  return enqueue(api, qid, bufOf(buf), timeout);
}

aclError acltdtDequeue(uint32_t qid, acltdtBuf* buf, int32_t timeout) {
  ApiCall api("acltdtDequeue");
  if (!api.ok()) return api.notReady();
  if (!buf || timeout < -1) return api.fail(ACL_ERROR_INVALID_PARAM, "buf is NULL or timeout < -1");
  Buf* b = nullptr;
  if (aclError e = dequeue(api, qid, &b, timeout)) return e;
  *buf = b;
  return ACL_SUCCESS;
}

aclError acltdtEnqueueData(uint32_t qid, const void* data, size_t dataSize, const void* userData,
                           size_t userDataSize, int32_t timeout, uint32_t rsv) {
  ApiCall api("acltdtEnqueueData");
  if (!api.ok()) return api.notReady();
  if ((!data && dataSize) || (!userData && userDataSize) || userDataSize > kUserDataBytes || timeout < -1)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "NULL data with a size, user data over 96 bytes, or timeout < -1");
  auto* b = new Buf{std::make_shared<BufData>(), {}};
  b->d->bytes.assign(static_cast<const unsigned char*>(data),
                     static_cast<const unsigned char*>(data) + dataSize);
  b->d->dataLen = dataSize;
  if (userDataSize) std::memcpy(b->d->user, userData, userDataSize);
  aclError e = enqueue(api, qid, b, timeout);
  if (e) delete b;
  return e;
}

aclError acltdtDequeueData(uint32_t qid, void* data, size_t dataSize, size_t* retDataSize, void* userData,
                           size_t userDataSize, int32_t timeout) {
  ApiCall api("acltdtDequeueData");
  if (!api.ok()) return api.notReady();
  if (!data || !retDataSize || (!userData && userDataSize) || userDataSize > kUserDataBytes || timeout < -1)
    return api.fail(ACL_ERROR_INVALID_PARAM,
                    "NULL data/retDataSize, user data over 96 bytes, or timeout < -1");
  Queue* q = queueOf(api, qid);
  if (!q) return ACL_ERROR_INVALID_QUEUE_ID;
  if (!q->items.empty() && q->items.front()->d->dataLen > dataSize)
    return api.fail(ACL_ERROR_INVALID_PARAM, "dataSize {} is smaller than the queued data ({} bytes)",
                    dataSize, q->items.front()->d->dataLen);
  Buf* b = nullptr;
  if (aclError e = dequeue(api, qid, &b, timeout)) return e;
  size_t n = std::min(b->d->dataLen, dataSize);
  std::memcpy(data, b->d->bytes.data(), n);
  *retDataSize = n;
  if (userDataSize) std::memcpy(userData, b->d->user, userDataSize);
  delete b;
  return ACL_SUCCESS;
}

aclError acltdtGrantQueue(uint32_t qid, int32_t pid, uint32_t permission, int32_t timeout) {
  ApiCall api("acltdtGrantQueue");
  if (!api.ok()) return api.notReady();
  if (!queueOf(api, qid)) return ACL_ERROR_INVALID_QUEUE_ID;
  if (pid == static_cast<int32_t>(getpid())) return api.done();  // this process has every permission
  const std::string other = fmt::format("pid {} is another process", pid);
  return api.done(npusim::rt::refuseCrossProcess("acltdtGrantQueue", other.c_str()));
}

aclError acltdtAttachQueue(uint32_t qid, int32_t timeout, uint32_t* permission) {
  ApiCall api("acltdtAttachQueue");
  if (!api.ok()) return api.notReady();
  if (!permission) return api.fail(ACL_ERROR_INVALID_PARAM, "permission is NULL");
  if (!queueOf(api, qid)) return ACL_ERROR_INVALID_QUEUE_ID;
  *permission =
      ACL_TDT_QUEUE_PERMISSION_MANAGE | ACL_TDT_QUEUE_PERMISSION_DEQUEUE | ACL_TDT_QUEUE_PERMISSION_ENQUEUE;
  return api.done();
}

// ---- routes ----------------------------------------------------------------------------------------

acltdtQueueRoute* acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId) {
  return new acltdtQueueRoute{srcId, dstId, ACL_TDT_QUEUE_ROUTE_UNBIND};
}

aclError acltdtDestroyQueueRoute(const acltdtQueueRoute* route) {
  if (!route) return setRecentError("acltdtDestroyQueueRoute", "route is NULL");
  delete route;
  return ACL_SUCCESS;
}

aclError acltdtGetQueueRouteParam(const acltdtQueueRoute* route, acltdtQueueRouteParamType type, size_t len,
                                  size_t* paramRetSize, void* param) {
  if (!route) return setRecentError("acltdtGetQueueRouteParam", "route is NULL");
  switch (type) {
    case ACL_TDT_QUEUE_ROUTE_SRC_UINT32:
      return routeParam("acltdtGetQueueRouteParam", len, paramRetSize, param, &route->src, sizeof route->src);
    case ACL_TDT_QUEUE_ROUTE_DST_UINT32:
      return routeParam("acltdtGetQueueRouteParam", len, paramRetSize, param, &route->dst, sizeof route->dst);
    case ACL_TDT_QUEUE_ROUTE_STATUS_INT32:
      return routeParam("acltdtGetQueueRouteParam", len, paramRetSize, param, &route->status,
                        sizeof route->status);
  }
  return setRecentError("acltdtGetQueueRouteParam", "unknown parameter type");
}

acltdtQueueRouteList* acltdtCreateQueueRouteList() { return new acltdtQueueRouteList; }

aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList* routeList) {
  if (!routeList) return setRecentError("acltdtDestroyQueueRouteList", "routeList is NULL");
  delete routeList;
  return ACL_SUCCESS;
}

aclError acltdtAddQueueRoute(acltdtQueueRouteList* routeList, const acltdtQueueRoute* route) {
  if (!routeList || !route) return setRecentError("acltdtAddQueueRoute", "NULL argument");
  routeList->routes.push_back(*route);
  return ACL_SUCCESS;
}

aclError acltdtGetQueueRoute(const acltdtQueueRouteList* routeList, size_t index, acltdtQueueRoute* route) {
  if (!routeList || !route || index >= routeList->routes.size())
    return setRecentError("acltdtGetQueueRoute", "NULL argument or index out of range");
  *route = routeList->routes[index];
  return ACL_SUCCESS;
}

size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList* routeList) {
  return routeList ? routeList->routes.size() : 0;
}

acltdtQueueRouteQueryInfo* acltdtCreateQueueRouteQueryInfo() { return new acltdtQueueRouteQueryInfo; }

aclError acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo* info) {
  if (!info) return setRecentError("acltdtDestroyQueueRouteQueryInfo", "info is NULL");
  delete info;
  return ACL_SUCCESS;
}

aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo* param,
                                      acltdtQueueRouteQueryInfoParamType type, size_t len,
                                      const void* value) {
  if (!param || !value) return setRecentError("acltdtSetQueueRouteQueryInfo", "NULL argument");
  void* field = type == ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM       ? static_cast<void*>(&param->mode)
                : type == ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32 ? static_cast<void*>(&param->src)
                : type == ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32 ? static_cast<void*>(&param->dst)
                                                                  : nullptr;
  if (!field || len < sizeof(uint32_t))
    return setRecentError("acltdtSetQueueRouteQueryInfo", "bad type or len");
  std::memcpy(field, value, sizeof(uint32_t));
  return ACL_SUCCESS;
}

aclError acltdtBindQueueRoutes(acltdtQueueRouteList* qRouteList) {
  ApiCall api("acltdtBindQueueRoutes");
  if (!api.ok()) return api.notReady();
  if (!qRouteList) return api.fail(ACL_ERROR_INVALID_PARAM, "qRouteList is NULL");
  bool allBound = true;
  for (auto& r : qRouteList->routes) {
    bool ok = r.src != r.dst && queues().byId.count(r.src) && queues().byId.count(r.dst);
    if (ok) queues().bound.insert({r.src, r.dst});
    r.status = ok ? ACL_TDT_QUEUE_ROUTE_BIND : ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL;
    allBound &= ok;
  }
  if (!allBound)
    return api.fail(ACL_ERROR_INVALID_QUEUE_ID, "a route names a missing queue or joins a queue to itself");
  return api.done();
}

aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList* qRouteList) {
  ApiCall api("acltdtUnbindQueueRoutes");
  if (!api.ok()) return api.notReady();
  if (!qRouteList) return api.fail(ACL_ERROR_INVALID_PARAM, "qRouteList is NULL");
  for (auto& r : qRouteList->routes) {
    queues().bound.erase({r.src, r.dst});
    r.status = ACL_TDT_QUEUE_ROUTE_UNBIND;
  }
  return api.done();
}

aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo* queryInfo,
                                acltdtQueueRouteList* qRouteList) {
  ApiCall api("acltdtQueryQueueRoutes");
  if (!api.ok()) return api.notReady();
  if (!queryInfo || !qRouteList) return api.fail(ACL_ERROR_INVALID_PARAM, "NULL argument");
  for (const auto& [s, d] : queues().bound) {
    bool match = queryInfo->mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC   ? s == queryInfo->src
                 : queryInfo->mode == ACL_TDT_QUEUE_ROUTE_QUERY_DST ? d == queryInfo->dst
                 : queryInfo->mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST
                     ? s == queryInfo->src && d == queryInfo->dst
                     : false;
    if (match) qRouteList->routes.push_back({s, d, ACL_TDT_QUEUE_ROUTE_BIND});
  }
  return api.done();
}

}  // extern "C"
