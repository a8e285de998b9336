#include "util/fault_injector.hpp"

#include <charconv>
#include <limits>

namespace cuzk {

namespace {

constexpr const char* kSiteNames[kFaultSiteCount] = {"gpu-alloc", "gpu-launch",    "gpu-copy",
                                                     "prove",     "corrupt-proof", "hold-prove"};
constexpr const char* kSyntax =
    "want SITE:N, SITE:N-M or SITE:N+ joined by ',' (N from 1; SITE one of gpu-alloc, "
    "gpu-launch, gpu-copy, prove, corrupt-proof, hold-prove)";

thread_local FaultInjector* t_current = nullptr;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

bool parse_count(std::string_view s, uint64_t* out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size() && *out >= 1;
}

FaultRule parse_rule(std::string_view text) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument("fault plan: \"" + std::string(text) + "\": " + why + "; " +
                                 kSyntax);
  };
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) throw bad("no ':'");
  const std::string_view site = trim(text.substr(0, colon));
  std::string_view count = trim(text.substr(colon + 1));
  FaultRule rule;
  bool known = false;
  for (size_t i = 0; i < kFaultSiteCount; ++i) {
    if (site == kSiteNames[i]) {
      rule.site = static_cast<FaultSite>(i);
      known = true;
    }
  }
  if (!known) throw bad("unknown site \"" + std::string(site) + "\"");
  if (!count.empty() && count.back() == '+') {
    if (!parse_count(count.substr(0, count.size() - 1), &rule.first)) throw bad("bad count");
    rule.last = std::numeric_limits<uint64_t>::max();
    return rule;
  }
  const size_t dash = count.find('-');
  if (dash == std::string_view::npos) {
    if (!parse_count(count, &rule.first)) throw bad("bad count");
    rule.last = rule.first;
    return rule;
  }
  if (!parse_count(count.substr(0, dash), &rule.first) ||
      !parse_count(count.substr(dash + 1), &rule.last) || rule.last < rule.first) {
    throw bad("bad range");
  }
  return rule;
}

}  // namespace

const char* fault_site_name(FaultSite site) {
  return kSiteNames[static_cast<size_t>(site)];
}

std::vector<FaultRule> parse_fault_plan(std::string_view plan) {
  std::vector<FaultRule> rules;
  if (trim(plan).empty()) return rules;
  for (;;) {
    const size_t comma = plan.find(',');
    rules.push_back(parse_rule(trim(plan.substr(0, comma))));
    if (comma == std::string_view::npos) break;
    plan.remove_prefix(comma + 1);
  }
  return rules;
}

bool FaultInjector::armed(FaultSite site) const {
  for (const FaultRule& r : rules_)
    if (r.site == site) return true;
  return false;
}

std::optional<uint64_t> FaultInjector::hit(FaultSite site) {
  const uint64_t n = ++seen_[index(site)];
  for (const FaultRule& r : rules_) {
    if (r.site == site && n >= r.first && n <= r.last) {
      ++fired_[index(site)];
      return n;
    }
  }
  return std::nullopt;
}

FaultInjector* FaultInjector::current() {
  return t_current;
}

FaultInjector::Scope::Scope(FaultInjector* injector) : previous_(t_current) {
  t_current = injector;
}

FaultInjector::Scope::~Scope() {
  t_current = previous_;
}

}  // namespace cuzk
