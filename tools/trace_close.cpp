#include "tools/trace_close.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace npusim::cli {

namespace {
const std::string kHeader = "{\"traceEvents\":[\n";
const std::string kFooter = "\n],\"displayTimeUnit\":\"ns\"}\n";
}  // namespace

TraceState closeTrace(const std::string& path, const std::string& why) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size < kHeader.size()) return TraceState::Missing;
  std::ifstream in(path, std::ios::binary);
  std::string head(kHeader.size(), '\0'), tail(kFooter.size(), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  if (head != kHeader) return TraceState::Missing;
  if (size >= kHeader.size() + kFooter.size()) {
    in.seekg(static_cast<std::streamoff>(size - kFooter.size()));
    in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
    if (tail == kFooter) return TraceState::Complete;
  }
  // Left open: read it whole (only a run that ended abnormally gets here).
  in.clear();
  in.seekg(0);
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  in.close();
  // One event per line: keep the lines that are whole events.
  size_t keep = kHeader.size();
  std::string lastTs;
  for (size_t pos = kHeader.size(); pos < text.size();) {
    size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    if (!line.empty() && line.back() == ',') line.pop_back();
    auto ev = nlohmann::json::parse(line, nullptr, false);
    if (ev.is_discarded() || !ev.is_object()) break;
    if (ev.contains("ts")) lastTs = ev["ts"].dump();
    keep = nl == std::string::npos ? text.size() : nl;
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  text.resize(keep);
  if (!text.empty() && text.back() == ',') text.pop_back();
  std::string note = fmt::format(
      "{{\"ph\":\"i\",\"pid\":0,\"s\":\"g\",\"ts\":{},\"name\":\"trace cut: {}\",\"cat\":\"abnormal_end\"}}",
      lastTs.empty() ? "0" : lastTs, why);
  text += (keep == kHeader.size() ? "" : ",\n") + note + kFooter;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return out ? TraceState::Closed : TraceState::Missing;
}

}  // namespace npusim::cli
