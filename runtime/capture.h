#pragma once
// Stream capture (aclmdlRI, acl-api.md §5.1 and seed 004): between aclmdlRICaptureBegin and
// aclmdlRICaptureEnd the tasks issued to a capturing stream are recorded into a model instead
// of running. An event recorded on a capturing stream and waited on by another stream pulls
// that stream into the same capture (one lane per stream). End checks that every side stream
// returned to the origin stream through events, then turns the lanes into a
// sched::ModelGraph that aclmdlRIExecuteAsync replays on the device.
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "models/sched/model_graph.h"
#include "runtime/runtime.h"

namespace npusim::rt {

// One captured stream: its tasks in capture order.
struct CaptureLane {
  Stream* stream = nullptr;  // the user stream (only dereferenced while it captures)
  sched::HwStream* userHw = nullptr;
  int streamId = 0;
  std::vector<sched::ModelTask> tasks;
  // Built models (aclmdlRIBuildBegin): a lane bound without the head flag runs only once a task of
  // another lane activates it (aclrtActiveStream records `activationSlot`).
  bool head = true;
  int activationSlot = -1;
  bool activatedAlways = false;  // by aclrtActiveStream (not only by a conditional aclrtSwitchStream)
  bool endsModel = false;        // aclmdlRIEndTask
  long groupStart = -1;          // aclmdlRICaptureTaskGrpBegin: index of the open group's first task
};

// A user event as the model sees it: a private slot whose records are counted per replay.
struct CaptureEventSlot {
  Event* event = nullptr;  // identity only (the event may be destroyed meanwhile)
  uint64_t records = 0;    // records captured so far
  uint64_t resetBase = 0;  // records captured before the latest captured reset
  Event* user = nullptr;   // the event the capture recorded (kept after it ends: task parameters)
};

// The object behind an aclmdlRI handle.
struct CaptureModel {
  enum class State {
    Capturing,
    Invalidated,
    Building,
    Pending,
    Ready
  };  // Pending: a branch awaiting its capture
  int id = 0;
  int device = 0;
  State state = State::Capturing;
  aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
  HostThread* beginThread = nullptr;
  Context* ctx = nullptr;
  std::string invalidReason;       // why the capture was invalidated
  std::vector<CaptureLane> lanes;  // lane 0: the origin stream
  std::vector<CaptureEventSlot> events;
  int externals = 0;                         // external event tasks captured so far
  std::shared_ptr<sched::ModelGraph> graph;  // built by a successful End
  uint64_t runsIssued = 0;                   // aclmdlRIExecuteAsync calls so far
  bool built = false;                        // made by aclmdlRIBuildBegin/End, not by a capture
  std::vector<Stream*> bound;                // streams bound with aclmdlRIBindStream
  // Checks that only the finished build can make (labels set where their switches can reach
  // them): each returns why the model cannot be built, or an empty string.
  std::vector<std::function<std::string()>> buildChecks;
  // Run on the device at the start of every replay (a condition's default value), in order.
  std::vector<std::function<void()>> atStart;
  std::vector<CaptureModel*> branches;  // models of its conditional tasks (destroyed with it)
  std::string name;                     // aclmdlRISetName
  std::vector<std::pair<aclrtCallback, void*>> onDestroy;  // aclmdlRIDestroyRegisterCallback
};

// Runtime::launch hook: when `hw` belongs to a capturing stream, appends the task to the
// stream's lane (the host has already paid the launch cost) and returns true.
bool divertToCapture(HostThread& th, sched::HwStream* hw, std::unique_ptr<sched::Task>& t, uint64_t flow);

// Event calls that capture handles itself. Each returns true when the call was a capture
// call, with the API's result in *ret; false means "not capture business, proceed eagerly".
// `external` (ACL_EVENT_RECORD_EXTERNAL / _WAIT_EXTERNAL on a capturing stream): the task acts on
// the user's event at every replay instead of on a model-private slot, so the model can wait for
// work outside it and outside work can wait for a point inside it.
bool captureRecordEvent(ApiCall& api, Event* e, Stream* s, bool external, aclError* ret);
bool captureWaitEvent(ApiCall& api, Stream* s, Event* e, bool external, aclError* ret);
// The record indices / wait targets a new replay of `g` gives its external event tasks, in
// ModelTask::externalIndex order, counting its records as issued (for aclmdlRIExecuteAsync).
std::vector<uint64_t> resolveExternalEvents(const sched::ModelGraph& g);
bool captureResetEvent(ApiCall& api, Event* e, Stream* s, aclError* ret);

// The capture-mode rule for the unsafe synchronous calls (aclrtMemcpy, aclrtMemset,
// aclrtMemcpy2d, pageable async copies): ACL_SUCCESS when the calling thread may run one now,
// otherwise fails `api` with `code` (107030, or 107041 for a pageable async copy).
aclError checkUnsafeCall(ApiCall& api, aclError code);
// Whether any stream of `ctx` (nullptr: any context) is capturing.
bool anyStreamCapturing(const Context* ctx);

// Models built stream by stream (aclmdlRIBuildBegin .. BuildEnd, runtime/api_model_build.cpp):
// a bound stream diverts its tasks into its lane, as a capturing stream does.
CaptureModel* startBuild(ApiCall& api, Context* ctx);
void bindStream(CaptureModel& m, Stream* s, bool head);
// aclrtActiveStream inside a build: `s`'s lane records the activation of `active`'s lane. With
// `condition`, the activation is a builtin that records it only when condition() holds then.
void activateLane(ApiCall& api, Stream* active, Stream* s, std::function<bool()> condition = nullptr);
// Appends `t` to the lane of `s` (bound to a model being built); returns its index in the lane.
size_t appendToLane(ApiCall& api, Stream* s, sched::Task&& t);

// Task update (aclmdlRICaptureTaskUpdateBegin .. End, runtime/api_task_update.cpp): tasks launched
// on `hw` are collected into *into instead of running; nullptr stops collecting.
void divertForUpdate(sched::HwStream* hw, std::vector<std::unique_ptr<sched::Task>>* into);

// Ends the build: the bound streams stop diverting, the lanes become the replayable graph. Empty,
// or why the model cannot be built (it is left building).
std::string finishBuild(CaptureModel* m);

// Conditional tasks (runtime/api_cond.cpp): a branch model made by aclmdlRIAddCondTask, captured
// later with aclmdlRICaptureToModelRIBegin.
CaptureModel* newBranch(CaptureModel& parent);
void captureInto(ApiCall& api, Stream* s, CaptureModel* m, aclmdlRICaptureMode mode);

// Model lifetime, for api_capture.cpp.
CaptureModel* startCapture(ApiCall& api, Stream* origin, aclmdlRICaptureMode mode);
// Why End must refuse the capture as unjoined (empty when every side stream rejoined).
std::string unjoinedReason(const CaptureModel& m);
// Ends the capture: its streams and events leave capture. With `keep` the model becomes
// replayable (its lanes get hardware streams); otherwise it is deleted.
void finishCapture(CaptureModel* m, bool keep);
// Runtime::destroyStream hook (aclrtResetDevice / aclrtDestroyContext may destroy a capturing
// stream): the capture forgets the stream, and ends when it was the origin.
void captureStreamDestroyed(Stream* s);
void invalidateCapture(CaptureModel* m, const std::string& why);
CaptureModel* findModel(aclmdlRI handle);  // nullptr when not a live model
// The calling thread's last task when it went into a capture or build that is still open and no
// eager launch followed it (aclrtCacheLastTask*); nullptr otherwise. Sets *model and *lane.
sched::ModelTask* lastCapturedTask(const HostThread& th, CaptureModel** model, CaptureLane** lane);
// Every live model (aclmdlRIGetTasksByStream and the task queries look handles up in them).
std::vector<CaptureModel*> liveModels();

// A task template of a finished model by its handle (its address in its lane, as
// aclmdlRIGetTasksByStream gives it): the model, the lane and the position; `task` is null when the
// handle names no task.
struct ModelTaskRef {
  CaptureModel* model = nullptr;
  sched::ModelLane* lane = nullptr;
  size_t index = 0;
  sched::ModelTask* task = nullptr;
};
ModelTaskRef findModelTask(const void* handle);
void destroyModel(ApiCall& api, CaptureModel* m);
// aclmdlRIUpdate: kernel parameters set with aclmdlRITaskSetParams take effect
// (runtime/api_model_task_params.cpp).
void applyTaskParams(CaptureModel& m);

// aclmdlRIDebugJsonPrint / aclmdlRIDebugPrint bodies.
void writeModelJson(const CaptureModel& m, bool verbose, std::ostream& out);
void printModel(const CaptureModel& m, std::ostream& out);

}  // namespace npusim::rt
