#include "tools/progress.h"

#include <fmt/format.h>
#include <unistd.h>

namespace npusim::cli {

Progress::Progress(size_t total, FILE* out)
    : total_(total), out_(out), tty_(isatty(fileno(out)) != 0), start_(std::chrono::steady_clock::now()) {}

double Progress::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::draw(size_t running) {
  constexpr size_t kWidth = 30;
  size_t filled = total_ ? kWidth * done_ / total_ : kWidth;
  std::string bar = std::string(filled, '#') + std::string(kWidth - filled, '.');
  std::fprintf(out_, "\r\x1b[K[%s] %zu/%zu points, %zu running, %zu failed, %.1f s", bar.c_str(), done_,
               total_, running, failed_, elapsed());
  std::fflush(out_);
}

void Progress::update(size_t running) {
  if (tty_) draw(running);
}

void Progress::finished(const std::string& line, bool failed, size_t running) {
  ++done_;
  if (failed) ++failed_;
  if (tty_) {
    // Finished points scroll above the bar; the bar is redrawn below them.
    std::fprintf(out_, "\r\x1b[K%s\n", line.c_str());
    draw(running);
  } else {
    std::fprintf(out_, "[%zu/%zu] %s\n", done_, total_, line.c_str());
    std::fflush(out_);
  }
}

void Progress::done() {
  if (tty_) std::fprintf(out_, "\n");
  std::fprintf(out_, "%zu points in %.1f s, %zu failed\n", done_, elapsed(), failed_);
  std::fflush(out_);
}

}  // namespace npusim::cli
