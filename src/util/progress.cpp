#include "util/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace cuzk {

namespace {

// 1234567 -> "1.23 M"; below 10,000 the plain number.
std::string amount(double v) {
  char buf[32];
  if (v < 1e4) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else if (v < 1e6) {
    std::snprintf(buf, sizeof buf, "%.1f k", v / 1e3);
  } else if (v < 1e9) {
    std::snprintf(buf, sizeof buf, "%.2f M", v / 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f G", v / 1e9);
  }
  return buf;
}

std::string duration(double s) {
  char buf[32];
  if (s < 90) {
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  } else if (s < 5400) {
    std::snprintf(buf, sizeof buf, "%.0f min %02.0f s", std::floor(s / 60), std::fmod(s, 60));
  } else {
    std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
  }
  return buf;
}

}  // namespace

Progress::Progress(std::string phase, uint64_t total, std::string unit, std::FILE* out)
    : phase_(std::move(phase)),
      unit_(std::move(unit)),
      total_(total),
      out_(out),
      tty_(out != nullptr && ::isatty(::fileno(out)) == 1),
      start_(Clock::now()),
      last_print_(start_) {
  // A bar redraws often; a log gets a line every 5 s (CUZK_PROGRESS_SECONDS overrides).
  interval_s_ = tty_ ? 0.2 : 5.0;
  if (const char* e = std::getenv("CUZK_PROGRESS_SECONDS"); e != nullptr && *e != 0)
    interval_s_ = std::atof(e);
}

Progress::~Progress() {
  finish();
}

std::string Progress::format(const std::string& phase, uint64_t done, uint64_t total,
                             const std::string& unit, double elapsed_s, bool final, bool bar) {
  std::string line;
  if (bar && total != 0) {
    constexpr int kWidth = 24;
    const auto filled = static_cast<int>(kWidth * std::min(1.0, static_cast<double>(done) / total));
    line = "[" + std::string(filled, '#') + std::string(kWidth - filled, '.') + "] ";
  }
  line += phase + ": " + amount(static_cast<double>(done));
  if (total != 0) line += " / " + amount(static_cast<double>(total));
  line += " " + unit;
  if (total != 0) {
    char pct[16];
    std::snprintf(pct, sizeof pct, " (%.0f%%)", 100.0 * static_cast<double>(done) / total);
    line += pct;
  }
  const double rate = elapsed_s > 0 ? static_cast<double>(done) / elapsed_s : 0;
  if (rate > 0) {
    char slow[32];  // below 10 per second a whole number would read 0 (a partition every 10 s)
    std::snprintf(slow, sizeof slow, "%.2f", rate);
    line += ", " + (rate < 10 ? std::string(slow) : amount(rate)) + " " + unit + "/s";
  }
  if (final) {
    line += ", done in " + duration(elapsed_s);
  } else if (total != 0 && rate > 0 && done < total) {
    line += ", " + duration(static_cast<double>(total - done) / rate) + " left";
  }
  return line;
}

void Progress::print(bool final) {
  if (out_ == nullptr) return;
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  const std::string line = format(phase_, done_, total_, unit_, elapsed, final, tty_);
  if (tty_) {
    std::fprintf(out_, "\r\033[K%s%s", line.c_str(), final ? "\n" : "");
  } else {
    std::fprintf(out_, "%s\n", line.c_str());
  }
  std::fflush(out_);
}

void Progress::add(uint64_t n) {
  std::lock_guard lock(mu_);
  done_ += n;
  const auto now = Clock::now();
  if (std::chrono::duration<double>(now - last_print_).count() >= interval_s_) {
    last_print_ = now;
    print(false);
  }
}

void Progress::set_total(uint64_t total) {
  std::lock_guard lock(mu_);
  total_ = total;
}

void Progress::finish() {
  std::lock_guard lock(mu_);
  if (finished_) return;
  finished_ = true;
  print(true);
}

PhasedProgress::PhasedProgress(std::string unit, bool quiet, std::FILE* out)
    : unit_(std::move(unit)), out_(quiet ? nullptr : out) {}

void PhasedProgress::operator()(std::string_view phase, uint64_t done, uint64_t total) {
  std::lock_guard lock(mu_);
  if (current_ && (phase != phase_ || done < done_)) {
    current_->finish();
    current_.reset();
  }
  if (!current_) {
    if (done >= total && total != 0 && phase == phase_) return;  // this phase's end was printed
    phase_ = std::string(phase);
    done_ = 0;
    // A phase reported as 0/1 then 1/1 is one step, not one of the unit.
    current_ = std::make_unique<Progress>(phase_, total, total <= 1 ? "step" : unit_, out_);
  }
  current_->set_total(total);
  current_->add(done - done_);
  done_ = done;
  if (total != 0 && done >= total) {
    current_->finish();
    current_.reset();
  }
}

void PhasedProgress::finish() {
  std::lock_guard lock(mu_);
  if (current_) current_->finish();
  current_.reset();
}

}  // namespace cuzk
