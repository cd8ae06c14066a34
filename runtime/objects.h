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
};

enum class EventKind { Plain, WithFlag, Ex };

struct Event {
  int device = 0;
  EventKind kind = EventKind::Plain;
  uint32_t flags = 0;
  std::shared_ptr<sched::HwEvent> hw = std::make_shared<sched::HwEvent>();
};

}  // namespace npusim::rt
