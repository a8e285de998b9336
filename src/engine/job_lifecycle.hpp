// A job's life as one state machine: the stages a job goes through in the engine, the moves
// allowed between them, and the public state (JobState) each stage shows a client. Every change
// of a job's stage goes through advance(), which refuses a move the table does not allow.
//
//   kQueued ──> kReleased ──> kPreparing ──> kPrepared ──> kCompleted
//      │            │              │              │
//      └────────────┴──────────────┴──────────────┴──────> kFailed | kCancelled
//
//   kQueued     submitted, waiting in the scheduler for its batch to be released;
//   kReleased   released with its batch, waiting for a preparer;
//   kPreparing  its payload parsed and its parameters loaded (a preparer or a synthesis worker);
//   kPrepared   its partitions handed out to synthesis and the provers;
//   final       kCompleted (every partition proved), kFailed or kCancelled: nothing moves on.
#pragma once

#include "engine/types.hpp"

namespace cuzk::engine {

enum class JobStage { kQueued, kReleased, kPreparing, kPrepared, kCompleted, kFailed, kCancelled };

const char* job_stage_name(JobStage stage);

// Whether a job in `from` may move to `to` (the diagram above).
bool may_advance(JobStage from, JobStage to);

// What a client sees: queued and released jobs are pending, preparing and prepared ones running.
JobState public_state(JobStage stage);

// The final stage of a final public state (kCompleted, kFailed, kCancelled); std::logic_error
// for kPending or kRunning.
JobStage final_stage(JobState state);

struct Job;

// Moves `job` to `to`, keeping job.state its public_state; std::logic_error naming both stages
// when the move is not allowed (an engine bug, never a client's). Caller holds the engine's mutex.
void advance(Job& job, JobStage to);

}  // namespace cuzk::engine
