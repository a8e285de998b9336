#include "engine/metrics.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace cuzk::engine {

namespace {

// A switch with no default: -Wswitch (an error here) names an enumerator added without a name.
const char* type_name(Metrics::Type t) {
  switch (t) {
    case Metrics::Type::kCounter:
      return "counter";
    case Metrics::Type::kGauge:
      return "gauge";
    case Metrics::Type::kHistogram:
      return "histogram";
  }
  return "untyped";
}

std::string number(double v) {
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (std::isnan(v)) return "NaN";
  char buf[40];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.9g", v);
  }
  return buf;
}

std::string label_text(const Labels& labels, const std::string& extra_key = "",
                       const std::string& extra_value = "") {
  if (labels.empty() && extra_key.empty()) return "";
  std::string s = "{";
  bool first = true;
  for (const auto& [k, v] : labels) {
    if (!first) s += ",";
    s += k + "=\"" + Metrics::escape(v) + "\"";
    first = false;
  }
  if (!extra_key.empty()) {
    if (!first) s += ",";
    s += extra_key + "=\"" + extra_value + "\"";
  }
  return s + "}";
}

}  // namespace

std::string Metrics::escape(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

void Metrics::declare(const std::string& name, const std::string& help, Type type,
                      std::vector<double> buckets) {
  std::lock_guard<std::mutex> lock(mu_);
  if (families_.count(name) != 0) throw std::logic_error("metric declared twice: " + name);
  Family f;
  f.help = help;
  f.type = type;
  f.buckets = std::move(buckets);
  families_.emplace(name, std::move(f));
  order_.push_back(name);
}

Metrics::Family& Metrics::family(const std::string& name) {
  auto it = families_.find(name);
  if (it == families_.end()) throw std::logic_error("metric not declared: " + name);
  return it->second;
}

void Metrics::add(const std::string& name, const Labels& labels, double value) {
  std::lock_guard<std::mutex> lock(mu_);
  family(name).values[labels] += value;
}

void Metrics::set(const std::string& name, const Labels& labels, double value) {
  std::lock_guard<std::mutex> lock(mu_);
  family(name).values[labels] = value;
}

void Metrics::observe(const std::string& name, const Labels& labels, double value) {
  std::lock_guard<std::mutex> lock(mu_);
  Family& f = family(name);
  Histogram& h = f.histograms[labels];
  if (h.counts.empty()) h.counts.assign(f.buckets.size(), 0);
  for (size_t i = 0; i < f.buckets.size(); ++i) {
    if (value <= f.buckets[i]) {
      ++h.counts[i];
      break;
    }
  }
  ++h.count;
  h.sum += value;
}

std::string Metrics::render() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  for (const std::string& name : order_) {
    const Family& f = families_.at(name);
    out += "# HELP " + name + " " + f.help + "\n";
    out += "# TYPE " + name + " " + type_name(f.type) + "\n";
    if (f.type != Type::kHistogram) {
      for (const auto& [labels, v] : f.values)
        out += name + label_text(labels) + " " + number(v) + "\n";
      continue;
    }
    for (const auto& [labels, h] : f.histograms) {
      uint64_t cumulative = 0;
      for (size_t i = 0; i < f.buckets.size(); ++i) {
        cumulative += h.counts[i];
        out += name + "_bucket" + label_text(labels, "le", number(f.buckets[i])) + " " +
               number(static_cast<double>(cumulative)) + "\n";
      }
      out += name + "_bucket" + label_text(labels, "le", "+Inf") + " " +
             number(static_cast<double>(h.count)) + "\n";
      out += name + "_sum" + label_text(labels) + " " + number(h.sum) + "\n";
      out +=
          name + "_count" + label_text(labels) + " " + number(static_cast<double>(h.count)) + "\n";
    }
  }
  return out;
}

}  // namespace cuzk::engine
