#pragma once
// Progress of a sweep: a redrawn bar on a terminal, one line per finished point otherwise (logs
// and CI output stay readable).
#include <chrono>
#include <cstdio>
#include <string>

namespace npusim::cli {

class Progress {
 public:
  Progress(size_t total, FILE* out);
  // A point started or finished; `line` describes a finished point.
  void update(size_t running);
  void finished(const std::string& line, bool failed, size_t running);
  void done();

 private:
  void draw(size_t running);
  double elapsed() const;
  size_t total_;
  size_t done_ = 0, failed_ = 0;
  FILE* out_;
  bool tty_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace npusim::cli
