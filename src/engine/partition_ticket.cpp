#include "engine/partition_ticket.hpp"

#include <utility>

namespace cuzk::engine {

PartitionTicket::PartitionTicket(std::shared_ptr<Job> job, unsigned index,
                                 size_t* synthesizing_total)
    : job_(std::move(job)),
      index_(index),
      synthesizing_total_(synthesizing_total),
      synthesizing_(true) {
  ++job_->in_flight;
  ++job_->synthesizing;
  if (synthesizing_total_ != nullptr) ++*synthesizing_total_;
}

PartitionTicket::PartitionTicket(PartitionTicket&& o) noexcept
    : job_(std::move(o.job_)),
      index_(o.index_),
      synthesizing_total_(o.synthesizing_total_),
      synthesizing_(std::exchange(o.synthesizing_, false)),
      memory_(std::move(o.memory_)) {}

PartitionTicket& PartitionTicket::operator=(PartitionTicket&& o) noexcept {
  if (this != &o) {
    job_ = std::move(o.job_);
    index_ = o.index_;
    synthesizing_total_ = o.synthesizing_total_;
    synthesizing_ = std::exchange(o.synthesizing_, false);
    memory_ = std::move(o.memory_);
  }
  return *this;
}

void PartitionTicket::synthesized() {
  if (!synthesizing_) return;
  synthesizing_ = false;
  --job_->synthesizing;
  if (synthesizing_total_ != nullptr) --*synthesizing_total_;
}

void PartitionTicket::leave() {
  if (!job_) return;
  synthesized();
  memory_.reset();
  const std::shared_ptr<Job> job = std::move(job_);
  job_.reset();
  if (--job->in_flight == 0 && is_final(job->state)) job->release_resources();
}

}  // namespace cuzk::engine
