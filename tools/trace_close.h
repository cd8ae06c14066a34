#pragma once
// A trace left open by a program that was killed (SIGKILL, or a crash the runtime could not
// handle) ends at an event boundary (traces/trace_writer.cpp writes whole events). Closing it
// makes it load: cut anything after the last complete event, note the abnormal end, and add
// the closing bracket.
#include <string>

namespace npusim::cli {

enum class TraceState {
  Missing,   // no file, or not a trace npusim wrote
  Complete,  // closed by the runtime
  Closed,    // was open; closed now by closeTrace
};

// Checks `path` and closes it if it was left open; `why` names how the program ended.
TraceState closeTrace(const std::string& path, const std::string& why);

}  // namespace npusim::cli
