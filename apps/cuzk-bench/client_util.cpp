#include "client_util.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>

#include "filecoin/registered_proof.hpp"
#include "post/vanilla/post_files.hpp"
#include "util/text.hpp"

namespace cuzk::bench {
namespace {

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && ascii_lower(s.substr(0, prefix.size())) == prefix;
}

void check_port(std::string_view port, std::string_view address) {
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc() || end != port.data() + port.size() || value == 0 ||
      value > 65535) {
    throw std::invalid_argument("address \"" + std::string(address) +
                                "\": expected host:port with a port in 1..65535");
  }
}

// A decimal number at the start of `text` (std::from_chars for double: no locale, no "inf").
double leading_number(std::string_view& text, std::string_view what) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || !std::isfinite(value)) {
    throw std::invalid_argument("\"" + std::string(what) + "\": expected a number");
  }
  text.remove_prefix(static_cast<size_t>(end - text.data()));
  return value;
}

std::chrono::nanoseconds unit_length(std::string_view unit, std::string_view what) {
  using namespace std::chrono;
  const std::string u = ascii_lower(unit);
  if (u == "ms") return milliseconds(1);
  if (u.empty() || u == "s" || u == "sec") return seconds(1);
  if (u == "m" || u == "min") return minutes(1);
  if (u == "h") return hours(1);
  throw std::invalid_argument("\"" + std::string(what) + "\": unknown unit \"" + std::string(unit) +
                              "\" (ms, s, m, h)");
}

std::chrono::nanoseconds scaled(double count, std::chrono::nanoseconds unit,
                                std::string_view what) {
  const double ns = count * static_cast<double>(unit.count());
  if (!(ns >= 1) || ns > 1e18) {
    throw std::invalid_argument("\"" + std::string(what) + "\": must be positive (at most ~30 y)");
  }
  return std::chrono::nanoseconds(static_cast<int64_t>(std::llround(ns)));
}

}  // namespace

std::string normalize_address(std::string_view address) {
  std::string_view a = trim_space(address);
  if (a.empty()) throw std::invalid_argument("empty daemon address");
  const std::string shown(a);
  if (starts_with_ci(a, "https://")) {
    throw std::invalid_argument("address \"" + shown +
                                "\": give host:port, and --tls-ca (with --tls-cert and --tls-key "
                                "for a daemon that asks for client certificates) for TLS");
  }
  if (starts_with_ci(a, "unix://")) {
    const std::string_view path = a.substr(7);
    if (path.size() < 2 || path.front() != '/') {
      throw std::invalid_argument("address \"" + shown +
                                  "\": expected unix:///absolute/path or unix:relative/path");
    }
    return "unix://" + std::string(path);
  }
  if (starts_with_ci(a, "unix:")) {
    const std::string_view path = a.substr(5);
    if (path.empty()) throw std::invalid_argument("address \"" + shown + "\": empty socket path");
    return path.front() == '/' ? "unix://" + std::string(path) : "unix:" + std::string(path);
  }
  if (starts_with_ci(a, "unix-abstract:") || starts_with_ci(a, "dns:") ||
      starts_with_ci(a, "ipv4:") || starts_with_ci(a, "ipv6:")) {
    return std::string(a);
  }
  if (a.front() == '/') return "unix://" + std::string(a);
  if (a.starts_with("./") || a.starts_with("../")) return "unix:" + std::string(a);
  if (starts_with_ci(a, "http://")) a.remove_prefix(7);
  if (starts_with_ci(a, "tcp://")) a.remove_prefix(6);
  if (a.ends_with('/')) a.remove_suffix(1);
  // host:port, the host possibly a bracketed IPv6 literal.
  size_t colon;
  if (a.starts_with('[')) {
    const size_t close = a.find(']');
    if (close == std::string_view::npos || close + 1 >= a.size() || a[close + 1] != ':') {
      throw std::invalid_argument("address \"" + shown + "\": expected [ipv6]:port");
    }
    colon = close + 1;
  } else {
    colon = a.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || a.find(':') != colon ||
        a.find('/') != std::string_view::npos) {
      throw std::invalid_argument("address \"" + shown +
                                  "\": expected unix:///path, unix:path or host:port");
    }
  }
  check_port(a.substr(colon + 1), shown);
  return std::string(a);
}

std::chrono::nanoseconds parse_duration(std::string_view text) {
  std::string_view t = trim_space(text);
  const double n = leading_number(t, text);
  return scaled(n, unit_length(trim_space(t), text), text);
}

std::chrono::nanoseconds Rate::interval() const {
  return std::chrono::nanoseconds(
      static_cast<int64_t>(std::llround(static_cast<double>(period.count()) / count)));
}

Rate parse_rate(std::string_view text) {
  const std::string_view t = trim_space(text);
  const size_t slash = t.find('/');
  if (slash == std::string_view::npos) {
    throw std::invalid_argument("rate \"" + std::string(text) +
                                "\": expected COUNT/PERIOD, e.g. 1/30s or 2/1m");
  }
  std::string_view count_text = trim_space(t.substr(0, slash));
  Rate r;
  r.count = leading_number(count_text, text);
  if (!count_text.empty() || !(r.count > 0)) {
    throw std::invalid_argument("rate \"" + std::string(text) + "\": COUNT must be a number > 0");
  }
  std::string_view period = trim_space(t.substr(slash + 1));
  // "10/h": the period's number is optional.
  if (!period.empty() && std::isalpha(static_cast<unsigned char>(period.front()))) {
    r.period = unit_length(period, text);
  } else {
    r.period = parse_duration(period);
  }
  if (r.interval().count() <= 0) {
    throw std::invalid_argument("rate \"" + std::string(text) + "\": too fast");
  }
  return r;
}

std::vector<std::chrono::nanoseconds> submission_offsets(const Rate& rate,
                                                         std::chrono::nanoseconds duration) {
  std::vector<std::chrono::nanoseconds> out;
  const double step = static_cast<double>(rate.period.count()) / rate.count;
  // Multiples of the exact step, not a running sum, so rounding does not accumulate.
  for (uint64_t i = 0;; ++i) {
    const auto at =
        std::chrono::nanoseconds(static_cast<int64_t>(std::llround(static_cast<double>(i) * step)));
    if (at >= duration) break;
    out.push_back(at);
  }
  return out;
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) throw std::invalid_argument("percentile of no values");
  if (!(p >= 0 && p <= 100)) throw std::invalid_argument("percentile outside [0, 100]");
  std::sort(values.begin(), values.end());
  const double rank = std::ceil(p / 100.0 * static_cast<double>(values.size()));
  const size_t index = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return values[std::min(index, values.size() - 1)];
}

LatencySummary summarize_latencies(const std::vector<double>& values) {
  LatencySummary s;
  if (values.empty()) return s;
  s.count = values.size();
  s.p50 = percentile(values, 50);
  s.p90 = percentile(values, 90);
  s.p99 = percentile(values, 99);
  s.max = *std::max_element(values.begin(), values.end());
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  return s;
}

std::string hex_encode(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

std::vector<uint8_t> hex_decode(std::string_view text) {
  std::string_view t = trim_space(text);
  if (starts_with_ci(t, "0x")) t.remove_prefix(2);
  if (t.size() % 2 != 0) throw std::invalid_argument("hex: odd number of digits");
  const auto digit = [&](char c) -> uint8_t {
    if (c >= '0' && c <= '9') return static_cast<uint8_t>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<uint8_t>(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') return static_cast<uint8_t>(c - 'A' + 10);
    throw std::invalid_argument(std::string("hex: bad digit '") + c + "'");
  };
  std::vector<uint8_t> out(t.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<uint8_t>(digit(t[2 * i]) << 4 | digit(t[2 * i + 1]));
  }
  return out;
}

std::string format_bytes(uint64_t bytes) {
  static constexpr std::array<const char*, 5> kUnits{"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes) / 1024.0;
  size_t unit = 0;
  while (v >= 1024.0 && unit + 1 < kUnits.size()) {
    v /= 1024.0;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %s", v, kUnits[unit]);
  return buf;
}

ProofKindArg parse_proof_kind(std::string_view name) {
  const std::string n = ascii_lower(trim_space(name));
  if (n == "porep" || n == "porep-c2" || n == "seal-commit") return ProofKindArg::kPoRep;
  if (n == "snap" || n == "snap-deals" || n == "update") return ProofKindArg::kSnapDeals;
  if (n == "wpost" || n == "window-post" || n == "windowpost") return ProofKindArg::kWindowPoSt;
  if (n == "winning" || n == "winning-post" || n == "winningpost") {
    return ProofKindArg::kWinningPoSt;
  }
  throw std::invalid_argument("unknown proof type \"" + std::string(name) +
                              "\" (porep, snap, wpost, winning)");
}

std::string_view proof_kind_name(ProofKindArg kind) {
  switch (kind) {
    case ProofKindArg::kPoRep:
      return "porep";
    case ProofKindArg::kSnapDeals:
      return "snap";
    case ProofKindArg::kWindowPoSt:
      return "wpost";
    case ProofKindArg::kWinningPoSt:
      return "winning";
  }
  return "?";
}

uint64_t default_registered_proof(ProofKindArg kind) {
  switch (kind) {
    case ProofKindArg::kPoRep:
      return static_cast<uint64_t>(filecoin::RegisteredSealProof::kStackedDrg32GiBV1_1);
    case ProofKindArg::kSnapDeals:
      return 3;
    case ProofKindArg::kWindowPoSt:
      return 13;
    case ProofKindArg::kWinningPoSt:
      return 3;
  }
  return 0;
}

uint64_t registered_proof_sector_size(ProofKindArg kind, uint64_t id) {
  switch (kind) {
    case ProofKindArg::kPoRep:
      return filecoin::seal_proof_info(filecoin::seal_proof_from_id(id)).sector_size;
    case ProofKindArg::kSnapDeals: {
      // RegisteredUpdateProof StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1 = 0..4.
      static constexpr std::array<uint64_t, 5> kSizes{2ull << 10, 8ull << 20, 512ull << 20,
                                                      32ull << 30, 64ull << 30};
      if (id >= kSizes.size()) {
        throw std::invalid_argument("unknown registered update proof id " + std::to_string(id));
      }
      return kSizes[id];
    }
    case ProofKindArg::kWindowPoSt:
    case ProofKindArg::kWinningPoSt: {
      if (id >= filecoin::kPoStProofCount) {
        throw std::invalid_argument("unknown registered PoSt proof id " + std::to_string(id));
      }
      const filecoin::PoStProofInfo& info = filecoin::post_proof_info(static_cast<uint32_t>(id));
      const bool winning = kind == ProofKindArg::kWinningPoSt;
      if ((info.kind == filecoin::PoStKind::kWinning) != winning) {
        throw std::invalid_argument("registered PoSt proof " + std::to_string(id) + " (" +
                                    std::string(info.name) + ") is not a " +
                                    (winning ? "Winning" : "Window") + "PoSt proof");
      }
      return info.sector_size;
    }
  }
  throw std::invalid_argument("unknown proof kind");
}

std::vector<std::string> parse_vanilla_proofs(std::string_view file_bytes) {
  std::vector<std::string> out;
  for (const std::vector<uint8_t>& p : filecoin::parse_vanilla_proofs(file_bytes))
    out.emplace_back(p.begin(), p.end());
  return out;
}

}  // namespace cuzk::bench
