#include "traces/trace_writer.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <iterator>

namespace npusim::trace {
namespace {

// The buffer is written out once it holds this much, which bounds memory and keeps fwrite calls large.
constexpr size_t kFlushBytes = 1 << 20;

// Appends `s` as a JSON string literal. Control characters are escaped, and bytes that are not
// valid UTF-8 become U+FFFD so that strict parsers (and Perfetto) accept every trace we write.
void appendJsonString(std::string& out, std::string_view s) {
  out.push_back('"');
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        default:
          if (c < 0x20) {
            fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned>(c));
          } else {
            out.push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    // Multi-byte sequence: accept only well-formed UTF-8 (no overlongs, surrogates or > U+10FFFF).
    size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    }
    bool ok = len != 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; ++k) {
      const unsigned char b = p[i + k];
      ok = (k == 1) ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
    }
    if (ok) {
      out.append(s.data() + i, len);
      i += len;
    } else {
      out += "\\ufffd";
      ++i;
    }
  }
  out.push_back('"');
}

// JSON has no NaN or infinity; fmt's "{}" is the shortest round-trip form, so output is exact
// and identical on every run.
void appendDouble(std::string& out, double v) {
  if (std::isfinite(v)) {
    fmt::format_to(std::back_inserter(out), "{}", v);
  } else {
    out += "null";
  }
}

// Microseconds with three decimals from whole nanoseconds.
void appendUsFromNs(std::string& out, uint64_t ns) {
  fmt::format_to(std::back_inserter(out), "{}.{:03}", ns / 1000, ns % 1000);
}

}  // namespace

std::string formatUs(Tick t) {
  std::string s;
  appendUsFromNs(s, t / kNs);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Args

namespace {
void appendKey(std::string& body, std::string_view key) {
  if (!body.empty()) body.push_back(',');
  appendJsonString(body, key);
  body.push_back(':');
}
}  // namespace

Args& Args::add(std::string_view key, int64_t v) {
  appendKey(body_, key);
  fmt::format_to(std::back_inserter(body_), "{}", v);
  return *this;
}

Args& Args::add(std::string_view key, uint64_t v) {
  appendKey(body_, key);
  fmt::format_to(std::back_inserter(body_), "{}", v);
  return *this;
}

Args& Args::add(std::string_view key, double v) {
  appendKey(body_, key);
  appendDouble(body_, v);
  return *this;
}

Args& Args::add(std::string_view key, std::string_view v) {
  appendKey(body_, key);
  appendJsonString(body_, v);
  return *this;
}

// Hex values are strings: JSON numbers lose precision above 2^53 and addresses read better in hex.
Args& Args::addHex(std::string_view key, uint64_t v) {
  appendKey(body_, key);
  fmt::format_to(std::back_inserter(body_), "\"0x{:x}\"", v);
  return *this;
}

const std::string& Args::json() const {
  out_.clear();
  out_.reserve(body_.size() + 2);
  out_.push_back('{');
  out_ += body_;
  out_.push_back('}');
  return out_;
}

// ---------------------------------------------------------------------------------------------
// TraceWriter

TraceWriter::~TraceWriter() { close(); }

bool TraceWriter::open(const std::string& path, Level level, std::string* err) {
  close();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    if (err != nullptr)
      *err = fmt::format("cannot open trace file '{}' for writing: {}", path, std::strerror(errno));
    return false;
  }
  // Unbuffered: the file only ever receives whole batches of whole events, so a run that is
  // killed leaves a file that ends at an event boundary (npusim run then closes it).
  std::setvbuf(f, nullptr, _IONBF, 0);
  file_ = f;
  path_ = path;
  writeFailed_ = false;
  level_ = level;
  nextPid_ = 0;
  nextTid_ = 0;
  lastFlow_ = 0;
  events_ = 0;
  buf_.clear();
  buf_.reserve(kFlushBytes + 4096);
  buf_ += "{\"traceEvents\":[\n";
  return true;
}

// Pids and tids come from one sequence (nextPid_ + nextTid_ grows by one per call), so no tid
// equals any pid: Perfetto gives events without a tid (counters, async slices) tid = pid and
// keys threads by tid, so a clash would merge or split tracks.
int TraceWriter::process(std::string_view name, int sortIndex) {
  ++nextPid_;
  const int pid = nextPid_ + nextTid_;
  if (file_ == nullptr) return pid;
  begin('M', pid, -1, "process_name", {}, kTickMax);
  buf_ += ",\"args\":{\"name\":";
  appendJsonString(buf_, name);
  buf_ += "}";
  end(nullptr);
  begin('M', pid, -1, "process_sort_index", {}, kTickMax);
  fmt::format_to(std::back_inserter(buf_), ",\"args\":{{\"sort_index\":{}}}", sortIndex);
  end(nullptr);
  return pid;
}

Track TraceWriter::thread(int pid, std::string_view name, int sortIndex) {
  ++nextTid_;
  const Track t{pid, nextPid_ + nextTid_};
  if (file_ == nullptr) return t;
  begin('M', t.pid, t.tid, "thread_name", {}, kTickMax);
  buf_ += ",\"args\":{\"name\":";
  appendJsonString(buf_, name);
  buf_ += "}";
  end(nullptr);
  begin('M', t.pid, t.tid, "thread_sort_index", {}, kTickMax);
  fmt::format_to(std::back_inserter(buf_), ",\"args\":{{\"sort_index\":{}}}", sortIndex);
  end(nullptr);
  return t;
}

void TraceWriter::slice(Track t, std::string_view name, std::string_view cat, Tick start, Tick dur,
                        const Args* args) {
  if (file_ == nullptr) return;
  begin('X', t.pid, t.tid, name, cat, start);
  // dur is the difference of the truncated end and start, not the truncated duration: slices
  // nested in picoseconds then stay nested in nanoseconds.
  const Tick endNs = (dur > kTickMax - start ? kTickMax : start + dur) / kNs;
  buf_ += ",\"dur\":";
  appendUsFromNs(buf_, endNs - start / kNs);
  end(args);
}

void TraceWriter::instant(Track t, std::string_view name, std::string_view cat, Tick at, const Args* args) {
  if (file_ == nullptr) return;
  begin('i', t.pid, t.tid, name, cat, at);
  buf_ += ",\"s\":\"t\"";
  end(args);
}

void TraceWriter::globalInstant(std::string_view name, std::string_view cat, int pid, Tick at,
                                const Args* args) {
  if (file_ == nullptr) return;
  begin('i', pid, -1, name, cat, at);
  buf_ += ",\"s\":\"p\"";
  end(args);
}

void TraceWriter::counter(int pid, std::string_view name, Tick at, double value) {
  if (file_ == nullptr) return;
  begin('C', pid, -1, name, {}, at);
  buf_ += ",\"args\":{\"value\":";
  appendDouble(buf_, value);
  buf_ += "}";
  end(nullptr);
}

// Async ids are process-local ("id2":{"local":...}): Perfetto then puts the async track inside the
// process, where a plain "id" would make it a global track outside every process.
void TraceWriter::asyncBegin(int pid, std::string_view name, std::string_view cat, uint64_t id, Tick at,
                             const Args* args) {
  if (file_ == nullptr) return;
  begin('b', pid, -1, name, cat, at);
  fmt::format_to(std::back_inserter(buf_), ",\"id2\":{{\"local\":\"0x{:x}\"}}", id);
  end(args);
}

void TraceWriter::asyncEnd(int pid, std::string_view name, std::string_view cat, uint64_t id, Tick at) {
  if (file_ == nullptr) return;
  begin('e', pid, -1, name, cat, at);
  fmt::format_to(std::back_inserter(buf_), ",\"id2\":{{\"local\":\"0x{:x}\"}}", id);
  end(nullptr);
}

void TraceWriter::flowStart(Track from, uint64_t id, std::string_view name, Tick at) {
  if (file_ == nullptr) return;
  begin('s', from.pid, from.tid, name, "flow", at);
  fmt::format_to(std::back_inserter(buf_), ",\"id\":{}", id);
  end(nullptr);
}

void TraceWriter::flowEnd(Track to, uint64_t id, std::string_view name, Tick at) {
  if (file_ == nullptr) return;
  begin('f', to.pid, to.tid, name, "flow", at);
  fmt::format_to(std::back_inserter(buf_), ",\"id\":{},\"bp\":\"e\"", id);
  end(nullptr);
}

// Every event starts with the same fields in the same order; tid < 0 and ts == kTickMax mean
// "absent", empty cat is omitted.
void TraceWriter::begin(char ph, int pid, int tid, std::string_view name, std::string_view cat, Tick ts) {
  // An event still open here was interrupted by a signal handler that writes the final events
  // (runtime/abnormal_end.cpp); the program ends after it, so drop the half-built event.
  if (openEvent_ != std::string::npos && openEvent_ <= buf_.size()) buf_.resize(openEvent_);
  openEvent_ = buf_.size();
  if (events_ != 0) buf_ += ",\n";
  fmt::format_to(std::back_inserter(buf_), "{{\"ph\":\"{}\",\"pid\":{}", ph, pid);
  if (tid >= 0) fmt::format_to(std::back_inserter(buf_), ",\"tid\":{}", tid);
  if (ts != kTickMax) {
    buf_ += ",\"ts\":";
    appendUsFromNs(buf_, ts / kNs + shiftNs_);
  }
  buf_ += ",\"name\":";
  appendJsonString(buf_, name);
  if (!cat.empty()) {
    buf_ += ",\"cat\":";
    appendJsonString(buf_, cat);
  }
}

void TraceWriter::end(const Args* args) {
  if (args != nullptr && !args->empty()) {
    buf_ += ",\"args\":";
    buf_ += args->json();
  }
  buf_.push_back('}');
  ++events_;
  openEvent_ = std::string::npos;
  if (buf_.size() >= kFlushBytes) writeBuffer();
}

void TraceWriter::writeBuffer() {
  if (file_ == nullptr || buf_.empty()) return;
  if (std::fwrite(buf_.data(), 1, buf_.size(), file_) != buf_.size() && !writeFailed_) {
    writeFailed_ = true;
    fmt::print(stderr, "npusim: writing trace file '{}' failed: {}\n", path_, std::strerror(errno));
  }
  buf_.clear();
}

void TraceWriter::flush() {
  if (file_ == nullptr) return;
  writeBuffer();
  std::fflush(file_);
}

void TraceWriter::close() {
  if (file_ == nullptr) return;
  if (openEvent_ != std::string::npos && openEvent_ <= buf_.size()) buf_.resize(openEvent_);
  openEvent_ = std::string::npos;
  buf_ += "\n],\"displayTimeUnit\":\"ns\"}\n";
  writeBuffer();
  if (std::fclose(file_) != 0 && !writeFailed_) {
    writeFailed_ = true;
    fmt::print(stderr, "npusim: closing trace file '{}' failed: {}\n", path_, std::strerror(errno));
  }
  file_ = nullptr;
  std::string().swap(buf_);  // give the buffer's memory back
}

}  // namespace npusim::trace
