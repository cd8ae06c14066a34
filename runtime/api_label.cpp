// ACL entry points: labels (aclrtCreateLabel, aclrtSetLabel, aclrtCreateLabelList,
// aclrtSwitchLabelByIndex and their destroy calls) in models built stream by stream.
//
// aclrtSetLabel marks a position in a bound stream's task list; aclrtSwitchLabelByIndex is a task
// that, when it runs, reads a uint32 index from device memory (an index past the list means its
// last label) and jumps to that label: the tasks between the switch and the label do not run and
// the stream goes on from the label. npusim models forward jumps within one stream (the label set
// after the switch on the same stream); aclmdlRIBuildEnd refuses a model whose switch could reach
// a label elsewhere, naming it.
#include <algorithm>
#include <cstring>
#include <memory>
#include <set>
#include <vector>

#include "acl/acl.h"
#include "models/sched/hw_stream.h"
#include "models/sched/task.h"
#include "runtime/capture.h"
#include "runtime/runtime.h"

using npusim::rt::ApiCall;
using npusim::rt::CaptureModel;
using npusim::rt::Stream;

namespace {

struct Label {
  const CaptureModel* model = nullptr;  // where it was set (nullptr: not yet)
  int lane = -1;
  size_t index = 0;  // position in the lane's task list
};

struct LabelList {
  std::vector<std::shared_ptr<Label>> labels;
};

struct Labels {
  std::set<Label*> live;  // handles the program holds, with their owners below
  std::vector<std::shared_ptr<Label>> owned;
  std::set<LabelList*> lists;
};

Labels& labels() {
  static auto* l = new Labels();  // read until the process ends
  return *l;
}

// Labels are set in models of one simulation: aclFinalize forgets them (recorded switches hold
// their own references, released with their models).
[[maybe_unused]] const bool kForgottenAtEnd = (npusim::rt::Runtime::onSimulationEnd([] {
                                                 Labels& ls = labels();
                                                 for (LabelList* list : ls.lists) delete list;
                                                 ls = Labels();
                                               }),
                                               true);

std::shared_ptr<Label> find(aclrtLabel handle) {
  for (const auto& l : labels().owned)
    if (l.get() == handle) return l;
  return nullptr;
}

// The stream, when it is bound to a model being built.
Stream* buildingStream(ApiCall& api, aclrtStream handle, aclError* err) {
  if (!handle) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM, "stream is NULL");
    return nullptr;
  }
  Stream* s = api.stream(handle, err);
  if (!s) return nullptr;
  if (!s->capture || !s->capture->built || s->capture->state != CaptureModel::State::Building) {
    *err = api.fail(ACL_ERROR_INVALID_PARAM,
                    "labels work in a model being built: bind stream {} with aclmdlRIBindStream first",
                    s->hw->id);
    return nullptr;
  }
  return s;
}

}  // namespace

extern "C" {

aclError aclrtCreateLabel(aclrtLabel* label) {
  ApiCall api("aclrtCreateLabel");
  if (!api.ok()) return api.notReady();
  if (!label) return api.fail(ACL_ERROR_INVALID_PARAM, "label is NULL");
  auto l = std::make_shared<Label>();
  labels().live.insert(l.get());
  labels().owned.push_back(l);
  *label = l.get();
  return api.done();
}

aclError aclrtDestroyLabel(aclrtLabel label) {
  ApiCall api("aclrtDestroyLabel");
  if (!api.ok()) return api.notReady();
  Labels& ls = labels();
  if (!label || !ls.live.erase(static_cast<Label*>(label)))
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not a live label", label);
  // Lists and recorded switches that refer to it keep it alive.
  ls.owned.erase(
      std::find_if(ls.owned.begin(), ls.owned.end(), [&](const auto& l) { return l.get() == label; }));
  return api.done();
}

aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream) {
  ApiCall api("aclrtSetLabel");
  if (!api.ok()) return api.notReady();
  aclError err;
  std::shared_ptr<Label> l = label ? find(label) : nullptr;
  if (!l) return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not a live label", label);
  if (l->model) return api.fail(ACL_ERROR_INVALID_PARAM, "the label is already set");
  Stream* s = buildingStream(api, stream, &err);
  if (!s) return err;
  npusim::sched::Task t;
  t.kind = npusim::sched::TaskKind::Marker;
  t.label = "Label";
  l->index = npusim::rt::appendToLane(api, s, std::move(t));
  l->model = s->capture;
  l->lane = s->captureLane;
  api.args.add("stream", s->hw->id);
  return api.done();
}

aclError aclrtCreateLabelList(aclrtLabel* labelArray, size_t num, aclrtLabelList* labelList) {
  ApiCall api("aclrtCreateLabelList");
  if (!api.ok()) return api.notReady();
  if (!labelArray || !labelList || num == 0)
    return api.fail(ACL_ERROR_INVALID_PARAM, "labels or labelList is NULL, or num is 0");
  auto* list = new LabelList();
  for (size_t i = 0; i < num; ++i) {
    std::shared_ptr<Label> l = find(labelArray[i]);
    if (!l) {
      delete list;
      return api.fail(ACL_ERROR_INVALID_PARAM, "labels[{}] ({}) is not a live label", i, labelArray[i]);
    }
    list->labels.push_back(std::move(l));
  }
  labels().lists.insert(list);
  *labelList = list;
  return api.done();
}

aclError aclrtDestroyLabelList(aclrtLabelList labelList) {
  ApiCall api("aclrtDestroyLabelList");
  if (!api.ok()) return api.notReady();
  auto* list = static_cast<LabelList*>(labelList);
  if (!list || !labels().lists.erase(list))
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not a live label list", labelList);
  delete list;
  return api.done();
}

aclError aclrtSwitchLabelByIndex(void* ptr, uint32_t maxValue, aclrtLabelList labelList, aclrtStream stream) {
  ApiCall api("aclrtSwitchLabelByIndex");
  if (!api.ok()) return api.notReady();
  aclError err;
  auto* list = static_cast<LabelList*>(labelList);
  if (!list || !labels().lists.count(list))
    return api.fail(ACL_ERROR_INVALID_PARAM, "{} is not a live label list", labelList);
  if (maxValue == 0 || maxValue > list->labels.size())
    return api.fail(ACL_ERROR_INVALID_PARAM, "maxValue {} must be 1 to the list's {} labels", maxValue,
                    list->labels.size());
  Stream* s = buildingStream(api, stream, &err);
  if (!s) return err;
  npusim::rt::PointerInfo info = api.rt.memory().classify(ptr);
  if (!ptr || info.kind != npusim::rt::PointerKind::Device || info.device != s->device ||
      !api.rt.memory().rangeInside(info, ptr, 4))
    return api.fail(ACL_ERROR_INVALID_PARAM, "ptr {} is not 4 bytes of device memory on device {}", ptr,
                    s->device);
  const uint8_t* index = static_cast<const uint8_t*>(api.rt.memory().hostView(info, ptr));
  std::vector<std::shared_ptr<Label>> targets(list->labels.begin(), list->labels.begin() + maxValue);
  CaptureModel* m = s->capture;
  const int lane = s->captureLane;
  const size_t at = m->lanes[static_cast<size_t>(lane)].tasks.size();  // the switch's own position
  // The jump skips the tasks between the switch and the label (both keep their distance in every replay).
  npusim::sched::Task t;
  t.kind = npusim::sched::TaskKind::Builtin;
  t.label = "SwitchLabel";
  t.run = [index, targets, at](npusim::sched::Task& self) {
    uint32_t i;
    std::memcpy(&i, index, 4);
    const Label& to = *targets[std::min<size_t>(i, targets.size() - 1)];
    self.stream->skipFrom = self.seq + 1;
    self.stream->skipTo = self.seq + (to.index - at) - 1;
  };
  npusim::rt::appendToLane(api, s, std::move(t));
  m->buildChecks.push_back([targets, m, lane, at, streamId = s->hw->id]() -> std::string {
    for (size_t k = 0; k < targets.size(); ++k) {
      const Label& l = *targets[k];
      if (l.model != m || l.lane != lane || l.index <= at)
        return fmt::format(
            "label {} of a switch on stream {} is not set after the switch on that stream (npusim models "
            "forward "
            "jumps within one stream)",
            k, streamId);
    }
    return {};
  });
  api.args.add("stream", s->hw->id).add("labels", static_cast<uint64_t>(maxValue));
  return api.done();
}

}  // extern "C"
