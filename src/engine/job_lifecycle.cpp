#include "engine/job_lifecycle.hpp"

#include <stdexcept>
#include <string>

#include "engine/job.hpp"

namespace cuzk::engine {

// A switch with no default: -Wswitch (an error here) names an enumerator added without a name.
const char* job_stage_name(JobStage stage) {
  switch (stage) {
    case JobStage::kQueued:
      return "queued";
    case JobStage::kReleased:
      return "released";
    case JobStage::kPreparing:
      return "preparing";
    case JobStage::kPrepared:
      return "prepared";
    case JobStage::kCompleted:
      return "completed";
    case JobStage::kFailed:
      return "failed";
    case JobStage::kCancelled:
      return "cancelled";
  }
  return "unknown";
}

bool may_advance(JobStage from, JobStage to) {
  using S = JobStage;
  if (from == S::kCompleted || from == S::kFailed || from == S::kCancelled) return false;
  if (to == S::kFailed || to == S::kCancelled) return true;  // from any stage not final
  switch (from) {
    case S::kQueued:
      return to == S::kReleased;
    case S::kReleased:
      return to == S::kPreparing;
    case S::kPreparing:
      return to == S::kPrepared;
    case S::kPrepared:
      return to == S::kCompleted;
    default:
      return false;
  }
}

JobState public_state(JobStage stage) {
  switch (stage) {
    case JobStage::kQueued:
    case JobStage::kReleased:
      return JobState::kPending;
    case JobStage::kPreparing:
    case JobStage::kPrepared:
      return JobState::kRunning;
    case JobStage::kCompleted:
      return JobState::kCompleted;
    case JobStage::kFailed:
      return JobState::kFailed;
    case JobStage::kCancelled:
      return JobState::kCancelled;
  }
  return JobState::kPending;
}

// The inverse of public_state on the final states; both switches list every enumerator.
JobStage final_stage(JobState state) {
  switch (state) {
    case JobState::kCompleted:
      return JobStage::kCompleted;
    case JobState::kFailed:
      return JobStage::kFailed;
    case JobState::kCancelled:
      return JobStage::kCancelled;
    case JobState::kPending:
    case JobState::kRunning:
      break;
  }
  throw std::logic_error(std::string("no final stage for job state ") + job_state_name(state));
}

void advance(Job& job, JobStage to) {
  if (!may_advance(job.stage, to)) {
    throw std::logic_error("job " + job.id + " cannot move from " + job_stage_name(job.stage) +
                           " to " + job_stage_name(to));
  }
  job.stage = to;
  job.state = public_state(to);
}

}  // namespace cuzk::engine
