// The engine's Prometheus metrics, rendered in the text exposition format (version 0.0.4):
// counters, gauges and histograms with labels, registered up front, updated under one mutex
// (updates are a few per partition, never on a hot path).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace cuzk::engine {

using Labels = std::vector<std::pair<std::string, std::string>>;

class Metrics {
 public:
  enum class Type { kCounter, kGauge, kHistogram };

  // Declares a family (name, help, type; histograms take their upper bucket bounds).
  void declare(const std::string& name, const std::string& help, Type type,
               std::vector<double> buckets = {});

  void add(const std::string& name, const Labels& labels, double value);      // counter/gauge
  void set(const std::string& name, const Labels& labels, double value);      // gauge
  void observe(const std::string& name, const Labels& labels, double value);  // histogram

  // All families in declaration order, series sorted by labels.
  std::string render() const;

  // Label values escaped as the format requires (backslash, double quote, newline).
  static std::string escape(const std::string& value);

 private:
  struct Histogram {
    std::vector<uint64_t> counts;  // per bucket, not cumulative
    uint64_t count = 0;
    double sum = 0;
  };
  struct Family {
    std::string help;
    Type type = Type::kCounter;
    std::vector<double> buckets;
    std::map<Labels, double> values;
    std::map<Labels, Histogram> histograms;
  };
  Family& family(const std::string& name);

  mutable std::mutex mu_;
  std::vector<std::string> order_;
  std::map<std::string, Family> families_;
};

}  // namespace cuzk::engine
