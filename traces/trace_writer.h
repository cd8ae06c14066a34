#pragma once
// Streams a Chrome Trace Event JSON file ({"traceEvents":[...]}) that Perfetto and
// chrome://tracing open. Events are written as they become final, in a deterministic order
// chosen by the caller, so memory stays bounded and two identical runs give identical bytes.
//
// Layout conventions (see docs/trace.md): integer pids/tids named by "M" metadata events,
// "X" complete slices with fractional-microsecond ts/dur (ns resolution), "C" counters,
// v1 flow events ("s"/"f" with "bp":"e") bound to enclosing slices, "b"/"e" async slices
// for overlapping intervals (e.g. task queueing).
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "npusim/tick.h"

namespace npusim::trace {

enum class Level { Api = 0, Task = 1, Transaction = 2 };

// Builds the "args" object of one event. Keys are emitted in insertion order.
class Args {
 public:
  Args& add(std::string_view key, int64_t v);
  Args& add(std::string_view key, uint64_t v);
  Args& add(std::string_view key, int v) { return add(key, static_cast<int64_t>(v)); }
  Args& add(std::string_view key, unsigned v) { return add(key, static_cast<uint64_t>(v)); }
  Args& add(std::string_view key, double v);
  Args& add(std::string_view key, std::string_view v);
  Args& add(std::string_view key, const char* v) { return add(key, std::string_view(v)); }
  Args& add(std::string_view key, const std::string& v) { return add(key, std::string_view(v)); }
  Args& addHex(std::string_view key, uint64_t v);
  const std::string& json() const;  // "{...}"; "{}" when empty
  bool empty() const { return body_.empty(); }

 private:
  std::string body_;
  mutable std::string out_;
};

struct Track {
  int pid = 0;
  int tid = 0;
};

class TraceWriter {
 public:
  TraceWriter() = default;
  ~TraceWriter();  // closes the file if still open
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  // Opens `path` for writing; returns false (with a message in *err) if it cannot.
  bool open(const std::string& path, Level level, std::string* err = nullptr);
  bool enabled() const { return file_ != nullptr; }
  Level level() const { return level_; }
  bool wants(Level l) const { return file_ != nullptr && static_cast<int>(l) <= static_cast<int>(level_); }

  // Processes and threads get ids in call order (deterministic). sortIndex orders them in the UI.
  int process(std::string_view name, int sortIndex);
  Track thread(int pid, std::string_view name, int sortIndex);

  // Complete slice [start, start+dur). dur may be 0.
  void slice(Track t, std::string_view name, std::string_view cat, Tick start, Tick dur,
             const Args* args = nullptr);
  void instant(Track t, std::string_view name, std::string_view cat, Tick at, const Args* args = nullptr);
  // Instant event across the whole timeline of process `pid` (e.g. how the program ended).
  void globalInstant(std::string_view name, std::string_view cat, int pid, Tick at,
                     const Args* args = nullptr);
  // Counter sample: Perfetto shows one counter track per (pid, name).
  void counter(int pid, std::string_view name, Tick at, double value);
  // Async slice on its own lane (overlaps allowed), keyed by (cat, id).
  void asyncBegin(int pid, std::string_view name, std::string_view cat, uint64_t id, Tick at,
                  const Args* args = nullptr);
  void asyncEnd(int pid, std::string_view name, std::string_view cat, uint64_t id, Tick at);
  // Flow arrow: start inside a slice on `from` at time `at`, finish bound to the slice on `to`
  // that encloses `at2` (use the slice's start time).
  uint64_t newFlowId() { return ++lastFlow_; }
  void flowStart(Track from, uint64_t id, std::string_view name, Tick at);
  void flowEnd(Track to, uint64_t id, std::string_view name, Tick at);

  void flush();
  void close();  // writes the closing bracket; further calls are ignored
  // Every later timestamp is written `by` (whole nanoseconds) later: each simulation of a
  // process starts at time 0, and its events follow the previous one's in the one trace.
  void shiftTime(Tick by) { shiftNs_ += by / kNs; }

  uint64_t eventsWritten() const { return events_; }

 private:
  void begin(char ph, int pid, int tid, std::string_view name, std::string_view cat, Tick ts);
  void end(const Args* args);
  void writeBuffer();  // writes buf_ to the file and empties it
  std::FILE* file_ = nullptr;
  std::string path_;          // for error messages
  bool writeFailed_ = false;  // a write error is reported once
  Level level_ = Level::Task;
  int nextPid_ = 0;
  int nextTid_ = 0;
  uint64_t lastFlow_ = 0;
  uint64_t events_ = 0;
  uint64_t shiftNs_ = 0;
  std::string buf_;
  // Where the event being built starts in buf_, or npos between events: close() from a signal
  // handler that interrupted an event drops the half-built event so the file stays valid JSON.
  size_t openEvent_ = std::string::npos;
};

// Formats a Tick as microseconds with nanosecond resolution ("12.345"), as the JSON wants.
std::string formatUs(Tick t);

}  // namespace npusim::trace
