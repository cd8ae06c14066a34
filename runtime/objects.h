#pragma once
// The runtime objects behind the opaque ACL handles: contexts, streams and events.
#include <cstdint>
#include <memory>
#include <set>

#include "acl/acl.h"
#include "models/sched/hw_event.h"
#include "models/sched/hw_stream.h"

namespace npusim::rt {

struct Stream;
struct CaptureModel;  // runtime/capture.h

struct Context {
  int device = 0;
  bool isDefault = false;
  Stream* defaultStream = nullptr;
  std::set<Stream*> streams;  // explicit streams created in this context
};

struct Stream {
  int device = 0;
  Context* ctx = nullptr;
  bool isDefault = false;
  uint32_t flags = 0;
  uint32_t priority = 0;
  sched::HwStream* hw = nullptr;
  // Stream capture (runtime/capture.h): the model this stream's tasks are recorded into, and
  // the stream's lane in it (0 = the origin stream passed to aclmdlRICaptureBegin).
  CaptureModel* capture = nullptr;
  int captureLane = -1;
  // runtime/api_stream_props.cpp: overflow detection switch and core limits (0 = the device's).
  uint32_t overflowSwitch = 0;
  uint32_t userTag = 0;           // aclrtSetStreamAttribute: ACL_STREAM_ATTR_USER_CUSTOM_TAG
  uint32_t cacheOpInfo = 0;       // ... ACL_STREAM_ATTR_CACHE_OP_INFO switch (aclrtCacheLastTaskOpInfo)
  uint32_t resLimit[2] = {0, 0};  // aclrtDevResLimitType: cube, vector
  bool stopped = false;           // aclrtStreamStop: later synchronisations fail (507000)
  // runtime/api_allocator.cpp: the user allocator registered on this stream (or null).
  std::shared_ptr<struct UserAllocator> allocator;
};

enum class EventKind { Plain, WithFlag, Ex };

struct Event {
  uint32_t id = 0;  // aclrtGetEventId: creation order in the process, from 0
  int device = 0;
  EventKind kind = EventKind::Plain;
  uint32_t flags = 0;
  std::shared_ptr<sched::HwEvent> hw = std::make_shared<sched::HwEvent>();
  // Set while the event's latest record was captured (runtime/capture.h): the model and the
  // event's slot among the model's private events.
  CaptureModel* capture = nullptr;
  int captureSlot = -1;
};

}  // namespace npusim::rt
