"""daemon_test.py's scenarios of load and recovery: a flood of submissions against the queue's
bounds, injected faults (retried, or failing the job with its reason), and a daemon restarted over
its spooled jobs.
Run through daemon_test.py (one ctest per scenario), which imports them.
"""
import os
import subprocess
import threading
import time

import daemon_harness as h
from daemon_harness import (  # the helpers these scenarios use
    Daemon, Failure, GIB, KIB, MIB, await_final, check, check_completed, held_proves,
    porep_request, queue, rpc_error, say, status_name, wait_for)


def scenario_flood(ctx):
    """200 SubmitProof calls at once against a small memory budget, every partition prove held
    ([faults] inject = "hold-prove:1+"): the daemon's resident memory stays under budget +
    baseline while the first jobs sit in the pipeline; then all are cancelled and every one ends
    CANCELLED (none can complete: no check counts on a proof taking long)."""
    budget = 3 * GIB
    d = Daemon(ctx, "flood", config='[memory]\ntotal_budget = "3GiB"\n'
                                    '[faults]\ninject = "hold-prove:1+"')
    idle = d.proc_status("VmRSS")
    n = 200
    # Payloads wait outside the budget until their job is prepared: each pending job holds
    # its C1 bytes. 256 MiB for thread stacks, allocator slack and gRPC buffers.
    baseline = idle + n * len(ctx.c1_bytes) + 256 * MIB
    say(f"idle RSS {idle / MIB:.0f} MiB; limit = budget {budget / GIB:.0f} GiB + baseline "
        f"{baseline / MIB:.0f} MiB (idle + {n} x {len(ctx.c1_bytes) / KIB:.0f} KiB payload "
        f"+ 256 MiB)")
    samples, in_use = [], []
    stop = threading.Event()

    def sample():
        try:
            while not stop.is_set():
                samples.append(d.proc_status("VmRSS"))
                st = d.stub.GetStatus(h.pb.GetStatusRequest())
                in_use.append((st.pinned_memory_bytes, st.pinned_memory_limit_bytes))
                time.sleep(0.1)
        except (Failure, OSError, h.grpc.RpcError):
            pass  # the daemon went away: the main thread reports why

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    t = time.monotonic()
    futures = [d.stub.SubmitProof.future(porep_request(ctx, f"flood-{i}")) for i in range(n)]
    ids = [f.result(timeout=120).job_id for f in futures]
    check(len(set(ids)) == n, f"{n} SubmitProof calls -> {n} distinct job ids "
          f"({time.monotonic() - t:.1f} s)")
    # The parameters loaded and the first partition synthesized: the prover holds it, the
    # pipeline behind it is full.
    wait_for("a partition to reach the prover", lambda: held_proves(d.stub) >= 1, timeout=600)
    pending, running = queue(d.stub)
    say(f"a prove is held: {pending} pending, {running} in progress")
    t = time.monotonic()
    cancels = {j: d.stub.CancelProof(h.pb.CancelProofRequest(job_id=j)) for j in ids}
    finals = {j: status_name(await_final(d.stub, j, 60)) for j in ids}
    counts = {s: list(finals.values()).count(s) for s in set(finals.values())}
    check(all(f == "CANCELLED" for f in finals.values()) and
          sum(c.was_running for c in cancels.values()) >= 1,
          f"all {n} cancelled ({sum(c.was_running for c in cancels.values())} while running) and "
          f"CANCELLED ({time.monotonic() - t:.1f} s)", str(counts))
    stop.set()
    sampler.join()
    hwm = d.proc_status("VmHWM")
    peak = max(samples)
    say(f"RSS: {len(samples)} samples, max {peak / MIB:.0f} MiB, VmHWM {hwm / MIB:.0f} MiB; "
        f"engine memory in use max {max(u for u, _ in in_use) / MIB:.0f} MiB")
    check(all(u <= lim for u, lim in in_use), "memory in use never above the budget")
    check(peak <= budget + baseline and hwm <= budget + baseline,
          f"RSS (max {peak / MIB:.0f} MiB, VmHWM {hwm / MIB:.0f} MiB) <= budget + baseline "
          f"({(budget + baseline) / MIB:.0f} MiB)")
    check(queue(d.stub) == (0, 0), "queues empty")
    d.stop_ok()


def scenario_faults(ctx):
    """Injected faults ([faults] inject) in a real daemon: a prove that fails for good fails its
    job naming the partition and every attempt's error; the next job, whose proof is corrupted
    once, is caught by self-verification, proved again and COMPLETED with a proof that `cuzk
    porep verify` accepts; the metrics count it all. CUZK_FAULT replaces the file's plan, and
    verify_proofs = false is a warning at start."""
    env = dict(os.environ, CUZK_FAULT="gpu-copy:2+")
    d = Daemon(ctx, "faults", config='[faults]\ninject = "prove:1-3,corrupt-proof:1"')
    printed = subprocess.run([ctx.daemon, "--config", d.config_path, "--print-config"],
                             capture_output=True, text=True, env=env)
    check(printed.returncode == 0 and "inject = 'gpu-copy:2+'" in printed.stdout,
          "CUZK_FAULT replaces [faults] inject", printed.stdout + printed.stderr)
    check("event=faults_injected" in d.log_text(), "the fault plan is a warning at start")
    bad = await_final(d.stub, d.stub.SubmitProof(porep_request(ctx, "fault-1")).job_id)
    why = bad.error_message
    check(status_name(bad) == "FAILED" and "partition 0 failed 3 times" in why and
          "[injected fault prove #1]" in why and "[injected fault prove #3]" in why,
          "a persistent fault: FAILED with the partition and each attempt's error", why)
    good = await_final(d.stub, d.stub.SubmitProof(porep_request(ctx, "fault-2")).job_id)
    check_completed(ctx, good, "the next job, its proof corrupted once")
    text = d.stub.GetMetrics(h.pb.GetMetricsRequest()).prometheus_text
    for series, value in [
            ('cuzk_partition_retries_total{kind="porep",reason="prove_error",target="same"}', 1),
            ('cuzk_partition_retries_total{kind="porep",reason="prove_error",target="cpu"}', 1),
            ('cuzk_partition_retries_total{kind="porep",reason="verify_failed",target="same"}', 1),
            ('cuzk_partition_verify_failures_total{kind="porep"}', 1),
            ('cuzk_partition_failures_total{kind="porep",reason="prove_error"}', 1),
            ('cuzk_faults_injected_total{site="prove"}', 3),
            ('cuzk_faults_injected_total{site="corrupt-proof"}', 1)]:
        check(f"{series} {value}\n" in text, f"metrics: {series} {value}",
              "\n".join(l for l in text.splitlines() if "partition_" in l or "faults" in l))
    d.stop_ok()
    quiet = Daemon(ctx, "noverify", config="[pipeline]\nverify_proofs = false")
    check("event=verify_proofs_off" in quiet.log_text(), "verify_proofs = false: a warning at start",
          quiet.log_text()[-2000:])
    quiet.stop_ok()


def scenario_restart(ctx):
    """kill -9 with jobs waiting in a configured spool; the daemon started next on it resumes
    them under their job ids and request ids (README, [spool] in cuzk.example.toml): the client
    awaiting an old id gets its proof, one resubmitting a request_id gets the same job; a job
    that was in memory is unknown to the new daemon."""
    spool = os.path.join(ctx.tmp, "restart-spool")
    config = f'[memory]\ntotal_budget = "3GiB"\n[spool]\ndir = "{spool}"'
    d = Daemon(ctx, "restart", config=config)
    # Payloads past the in-memory share (1/16 of the budget: 192 MiB) wait in the spool: the C1
    # padded with JSON whitespace to 200 MiB goes there; the first, plain job runs meanwhile.
    big = ctx.c1_bytes + b" " * (200 * MIB)
    running = d.stub.SubmitProof(porep_request(ctx, "restart-0")).job_id
    ids = {d.stub.SubmitProof(porep_request(ctx, f"restart-{i}", vanilla_proof=big),
                              timeout=120).job_id: f"restart-{i}" for i in (1, 2, 3)}
    d.kill()
    left = sorted((f[:-len(".payload")] for f in os.listdir(spool) if f.endswith(".payload")),
                  key=lambda j: int(j.rsplit("-", 1)[1]))
    check(len(left) >= 2 and all(j in ids for j in left),
          f"kill -9 left {len(left)} queued jobs in the spool", str(left))
    again = Daemon(ctx, "restarted", config=config)
    log = again.log_text()
    check(log.count("event=job_resumed") == len(left), f"the next daemon resumes all {len(left)}",
          log[-3000:])
    lost = rpc_error(await_final, again.stub, running, 30)
    check(lost is not None and lost.code() == h.grpc.StatusCode.NOT_FOUND and
          "unknown job id" in lost.details(),
          "the job that was in memory is unknown to the new daemon (NOT_FOUND)", str(lost))
    dup = again.stub.SubmitProof(porep_request(ctx, ids[left[1]], vanilla_proof=big), timeout=120)
    check(dup.job_id == left[1], "resubmitting a resumed request_id returns its job",
          f"{dup.job_id} vs {left[1]}")
    check_completed(ctx, await_final(again.stub, left[0]), f"resumed {left[0]}")
    for j in left[1:]:  # one proof is enough: the others are cancelled (~25 s each)
        again.stub.CancelProof(h.pb.CancelProofRequest(job_id=j))
        check(status_name(await_final(again.stub, j, 60)) in ("CANCELLED", "COMPLETED"),
              f"{j} ends")
    # A job cancelled while being prepared lets go of its file when the preparation returns.
    wait_for("the spool to empty",
             lambda: not [f for f in os.listdir(spool) if f.endswith(".payload")], timeout=120)
    say("ok   the spool is empty")
    again.stop_ok()
