#!/usr/bin/python3
"""The real cuzk-daemon on a unix socket in a temporary directory, driven by Python grpcio with
stubs generated at test time from proto/cuzk/v1/proving.proto: an independent client of the
cuzk.v1 API. One scenario per ctest (see SCENARIOS); each starts its own daemon(s) on the CPU
backend and stops them with SIGTERM, expecting exit code 0.

Usage: daemon_test.py SCENARIO --daemon BIN --cuzk BIN --proto DIR --fixtures DIR
       [--update-fixtures DIR]
Exit codes: 0 pass, 1 fail, 77 skip (this python has no grpcio / grpc_tools; with CI=true that
is a failure instead).
CUZK_DAEMON_TEST_LOGS=1 prints every daemon's log at the end (on failure the tails always are).
"""
import argparse
import base64
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import daemon_harness as h
from daemon_harness import (
    C1_NAME, GIB, HELD_IN_BATCH, KIB, MIB, REG_2KIB_V1, Daemon, Failure, await_final, check,
    check_completed, compile_proving_stubs, import_grpc, porep_request, prove_in_thread, queue,
    rpc_error, run_scenario, say, status_name, submissions, wait_for)
from scenarios_kinds import scenario_post, scenario_snap
from scenarios_recovery import scenario_faults, scenario_flood, scenario_restart


# ---------------------------------------------------------------------------------------------
# Scenarios


def scenario_basic(ctx):
    """Socket mode and stale-socket handling, status/metrics (gRPC and HTTP), JSON logs, unknown
    ids, SRS calls with bad ids / missing files, a second daemon on a live socket, bad config,
    --print-config, SIGTERM when idle."""
    sock_dir = tempfile.mkdtemp(prefix="cuzk-sock-", dir=ctx.tmp)
    sock = os.path.join(sock_dir, "cuzk.sock")
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(sock)  # a socket file nobody listens on, as a crashed daemon leaves it
    stale.close()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    d = Daemon(ctx, "basic", socket_path=sock, fmt="json", config=f"""
        [daemon]
        status_listen = "127.0.0.1:{port}"
        [srs]
        param_cache = "{ctx.tmp}/no-such-dir"
        [memory]
        total_budget = "3GiB"
        """)
    check(stat.S_ISSOCK(os.stat(sock).st_mode), "stale socket file replaced by a live one")
    mode = stat.S_IMODE(os.stat(sock).st_mode)
    check(mode == 0o600, "socket mode 0600", oct(mode))

    st = d.stub.GetStatus(h.pb.GetStatusRequest())
    # Idle, only the engine's share for queued payloads (1/16 of the budget) is reserved.
    check(st.pinned_memory_limit_bytes == 3 * GIB and st.pinned_memory_bytes == 3 * GIB // 16 and
          st.total_proofs_completed == 0, "GetStatus: budget 3 GiB, only the payload share in use",
          str(st))
    text = d.stub.GetMetrics(h.pb.GetMetricsRequest()).prometheus_text
    check("cuzk_memory_budget_bytes 3221225472" in text and "# TYPE" in text,
          "GetMetrics: Prometheus text with the budget", text[:500])

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        body = r.read().decode()
        check(r.status == 200 and r.headers["Content-Type"].startswith("text/plain") and
              "cuzk_uptime_seconds" in body, "HTTP GET /metrics on status_listen")
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/nope", timeout=10)
        raise Failure("HTTP GET /nope did not fail")
    except urllib.error.HTTPError as e:
        check(e.code == 404, "HTTP GET /nope: 404")

    e = rpc_error(d.stub.AwaitProof, h.pb.AwaitProofRequest(job_id="job-nope", timeout_ms=100))
    check(e is not None and e.code() == h.grpc.StatusCode.NOT_FOUND and "job-nope" in e.details(),
          "AwaitProof of an unknown id: NOT_FOUND naming it", str(e))
    e = rpc_error(d.stub.CancelProof, h.pb.CancelProofRequest(job_id="job-nope"))
    check(e is not None and e.code() == h.grpc.StatusCode.NOT_FOUND and "job-nope" in e.details(),
          "CancelProof of an unknown id: NOT_FOUND", str(e))
    e = rpc_error(d.stub.PreloadSRS, h.pb.PreloadSrsRequest(circuit_id="porep-7x"))
    check(e is not None and e.code() == h.grpc.StatusCode.INVALID_ARGUMENT and
          "unknown circuit id" in e.details(), "PreloadSRS porep-7x: INVALID_ARGUMENT", str(e))
    e = rpc_error(d.stub.PreloadSRS, h.pb.PreloadSrsRequest(circuit_id="porep-2k"))
    check(e is not None and e.code() == h.grpc.StatusCode.NOT_FOUND and
          ".params is missing" in e.details(),
          "PreloadSRS porep-2k without parameter files: NOT_FOUND naming the file", str(e))
    e = rpc_error(d.stub.EvictSRS, h.pb.EvictSrsRequest(circuit_id="bogus"))
    check(e is not None and e.code() == h.grpc.StatusCode.INVALID_ARGUMENT,
          "EvictSRS bogus: INVALID_ARGUMENT", str(e))
    r = d.stub.EvictSRS(h.pb.EvictSrsRequest(circuit_id="porep-2k"))
    check(not r.was_loaded and r.freed_bytes == 0, "EvictSRS porep-2k (not loaded): no-op")

    second = subprocess.run([ctx.daemon, "--config", d.config_path], capture_output=True,
                            text=True, timeout=60)
    check(second.returncode == 1 and f"another cuzk-daemon is using {sock}" in second.stderr,
          "a second daemon on the live socket exits 1 and says why",
          f"exit {second.returncode}: {second.stderr[-500:]}")
    check(stat.S_ISSOCK(os.stat(sock).st_mode), "... and leaves the first one's socket alone")
    check(d.stub.GetStatus(h.pb.GetStatusRequest()) is not None, "first daemon still serves")

    printed = subprocess.run([ctx.daemon, "--config", d.config_path, "--print-config",
                              "--listen", "127.0.0.1:0"], capture_output=True, text=True)
    check(printed.returncode == 0 and "total_budget = 3221225472" in printed.stdout and
          "listen = '127.0.0.1:0'" in printed.stdout,
          "--print-config shows the effective values (--listen overrides)", printed.stdout)
    tcp_log, tcp_config = os.path.join(d.dir, "tcp.log"), os.path.join(d.dir, "tcp.toml")
    with open(tcp_config, "w") as f:
        f.write('[gpus]\nbackend = "cpu"\n[memory]\ntotal_budget = "3GiB"\n'
                '[logging]\nformat = "json"\n')
    with open(tcp_log, "w") as log:
        tcp = subprocess.Popen([ctx.daemon, "--config", tcp_config, "--listen", "127.0.0.1:0"],
                               stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for("the TCP daemon's port", lambda: '"daemon_listening"' in open(tcp_log).read())
        line = [line for line in open(tcp_log) if '"daemon_listening"' in line][0]
        tcp_port = json.loads(line)["port"]
        with h.grpc.insecure_channel(f"127.0.0.1:{tcp_port}") as ch:
            st = h.pbg.ProvingEngineStub(ch).GetStatus(h.pb.GetStatusRequest(), timeout=10)
        check(tcp_port > 0 and st.pinned_memory_limit_bytes == 3 * GIB,
              f"--listen 127.0.0.1:0: serves on TCP port {tcp_port}")
    finally:
        tcp.send_signal(signal.SIGINT)
        check(tcp.wait(timeout=60) == 0, "SIGINT: exits 0")
    bad = os.path.join(d.dir, "bad.toml")
    with open(bad, "w") as f:
        f.write('[scheduler]\nmax_batch_size = "four"\n')
    out = subprocess.run([ctx.daemon, "--config", bad], capture_output=True, text=True)
    check(out.returncode == 2 and "bad.toml:2: [scheduler] max_batch_size" in out.stderr,
          "a wrong type in the config: exit 2 naming file, line and key", out.stderr)
    d.stop_ok()
    events = []
    for line in d.log_text().splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            raise Failure(f"log line is not JSON: {line!r}")
    names = [e.get("event") for e in events]
    check(all("ts" in e and "level" in e for e in events) and "daemon_listening" in names and
          "shutdown_started" in names and names[-1] == "daemon_stopped",
          "JSON log: one object per line, start and stop events", str(names))


def scenario_errors(ctx):
    """Bad inputs FAIL with a clear error_message and the daemon keeps serving; idempotent
    resubmission; missing parameters."""
    d = Daemon(ctx, "errors")
    wrapper = json.loads(ctx.c1_bytes)
    inner = json.loads(base64.b64decode(wrapper["Phase1Out"]))
    p = inner["vanilla_proofs"]["StackedDrg2KiBV1"][0][1]
    p["replica_column_proofs"]["exp_parents"][3]["column"]["rows"][1][0] ^= 1
    wrapper["Phase1Out"] = base64.b64encode(json.dumps(inner).encode()).decode()
    tampered = json.dumps(wrapper).encode()

    # Refused at the door (INVALID_ARGUMENT, no job id, nothing counted): what no proof kind
    # could serve.
    refused = [
        ("an empty SubmitProof", h.pb.SubmitProofRequest(), "proof_kind"),
        ("unknown proof kind 7", porep_request(ctx, "r-kind", proof_kind=7), "proof kind 7"),
        ("PROOF_KIND_UNSPECIFIED",
         porep_request(ctx, "r-unspec", proof_kind=h.pb.PROOF_KIND_UNSPECIFIED), "proof_kind"),
        ("priority 2^31-1", porep_request(ctx, "r-prio", priority=2**31 - 1), "priority"),
        ("priority -1", porep_request(ctx, "r-neg", priority=-1), "priority"),
        ("no vanilla proof at all", porep_request(ctx, "r-none", vanilla_proof=b""),
         "vanilla_proof"),
    ]
    for label, request, expect in refused:
        e = rpc_error(d.stub.SubmitProof, request)
        check(e is not None and e.code() == h.grpc.StatusCode.INVALID_ARGUMENT and
              expect in e.details(), f"{label}: INVALID_ARGUMENT naming {expect!r}", str(e))
    st = d.stub.GetStatus(h.pb.GetStatusRequest())
    check(st.total_proofs_failed == 0 and sum(q.pending + q.in_progress for q in st.queues) == 0,
          "... and no job was made for any of them", str(st))

    # Payloads whose error quotes bytes that are not UTF-8: the reason still reaches the client
    # (protobuf cannot serialize a string field that is not valid UTF-8).
    not_utf8 = b'{"registered_proof":"\xff\xfe\xc3(","vanilla_proofs":{}}'
    deep = b"[" * (8 * MIB)  # 8 MiB of nesting: refused by depth, not parsed into a tree
    wrapped_bad_b64 = json.dumps({"SectorNum": 1, "SectorSize": 2048,
                                  "Phase1Out": "AA\u00e9"}).encode()
    cases = [
        ("malformed JSON", dict(vanilla_proof=b"{not json"), "malformed C1 output"),
        ("SNAP_DEALS_UPDATE with a PoRep payload", dict(proof_kind=h.pb.SNAP_DEALS_UPDATE),
         "unknown registered update proof id 5"),
        ("sector size vs registered proof", dict(sector_size=8 * MIB),
         "sector_size 8388608 does not match registered proof StackedDrg2KiBV1_1"),
        ("registered proof vs the C1", dict(registered_proof=REG_2KIB_V1),
         "the request names StackedDrg2KiBV1, the C1 output is StackedDrg2KiBV1_1"),
        ("unknown registered proof", dict(registered_proof=99),
         "unknown registered seal proof id 99"),
        ("sector number vs the C1 wrapper", dict(sector_number=7), "SectorNum 1"),
        ("tampered C1 (one column bit)", dict(vanilla_proof=tampered), "partition 0"),
        ("bytes that are not UTF-8 in the C1", dict(vanilla_proof=not_utf8), "malformed C1"),
        ("base64 with a non-ASCII symbol", dict(vanilla_proof=wrapped_bad_b64), "base64"),
        ("8 MiB of nested arrays", dict(vanilla_proof=deep), "nested deeper than"),
    ]
    hwm_before = 0
    for i, (label, over, expect) in enumerate(cases):
        if i == len(cases) - 1:  # the parameters are loaded by now: what the last payload adds
            hwm_before = d.proc_status("VmHWM")
        job = d.stub.SubmitProof(porep_request(ctx, f"bad-{i}", **over)).job_id
        r = await_final(d.stub, job, 120)
        check(status_name(r) == "FAILED" and expect in r.error_message and not r.proof,
              f"{label}: FAILED with {expect!r}", f"{status_name(r)} {r.error_message!r}")
    growth = d.proc_status("VmHWM") - hwm_before
    check(growth < 128 * MIB, f"peak RSS grew {growth / MIB:.0f} MiB for 8 MiB of nesting (refused "
          "by depth; parsed into a tree it took ~50x its size)")
    st = d.stub.GetStatus(h.pb.GetStatusRequest())
    check(st.total_proofs_failed == len(cases) and st.total_proofs_completed == 0,
          f"GetStatus counts {len(cases)} failed jobs", str(st))

    a = d.stub.SubmitProof(porep_request(ctx, "same", vanilla_proof=b"nope")).job_id
    b = d.stub.SubmitProof(porep_request(ctx, "same", vanilla_proof=b"nope")).job_id
    c = d.stub.SubmitProof(porep_request(ctx, "other", vanilla_proof=b"nope")).job_id
    check(a == b and a != c, "same request_id -> same job id; another -> a new one",
          f"{a} {b} {c}")
    check(status_name(await_final(d.stub, a, 60)) == "FAILED", "... and it is the same job")
    d.stop_ok()

    m = Daemon(ctx, "noparams", config=f'[srs]\nparam_cache = "{ctx.tmp}/missing-params"')
    r = await_final(m.stub, m.stub.SubmitProof(porep_request(ctx, "np")).job_id, 60)
    check(status_name(r) == "FAILED" and ".params is missing" in r.error_message,
          "missing parameter directory: FAILED naming the file", r.error_message)
    check(m.stub.GetStatus(h.pb.GetStatusRequest()) is not None, "daemon still serves")
    m.stop_ok()

    # The fixtures' parameters are marked insecure: a daemon not told to allow them refuses them.
    strict = Daemon(ctx, "strict", config="[srs]\nallow_insecure_params = false")
    r = await_final(strict.stub, strict.stub.SubmitProof(porep_request(ctx, "strict")).job_id, 120)
    check(status_name(r) == "FAILED" and "INSECURE" in r.error_message and
          "allow_insecure_params" in r.error_message and not r.proof,
          "marked test parameters without allow_insecure_params: FAILED saying so",
          f"{status_name(r)} {r.error_message!r}")
    e = rpc_error(strict.stub.PreloadSRS, h.pb.PreloadSrsRequest(circuit_id="porep-2k"))
    check(e is not None and e.code() == h.grpc.StatusCode.FAILED_PRECONDITION and
          "INSECURE" in e.details(), "... and PreloadSRS: FAILED_PRECONDITION", str(e))
    check(not any(s.tier in (0, 1) for s in strict.stub.GetStatus(h.pb.GetStatusRequest()).loaded_srs
                  if s.size_bytes > 0), "... nothing loaded")
    strict.stop_ok()


def scenario_pending(ctx):
    """Jobs held pending by the batch collector: AwaitProof TIMEOUT, cancel of pending jobs,
    shutdown = "cancel" cancels what is left and tells its waiting client; shutdown = "finish"
    past shutdown_timeout_s cancels too."""
    d = Daemon(ctx, "pending", config="""
        [daemon]
        shutdown = "cancel"
        [scheduler]
        max_batch_size = 8
        max_batch_wait_ms = 600000
        """)
    a = d.stub.SubmitProof(porep_request(ctx, "p-a")).job_id
    t = time.monotonic()
    r = d.stub.AwaitProof(h.pb.AwaitProofRequest(job_id=a, timeout_ms=500))
    took = time.monotonic() - t
    check(status_name(r) == "TIMEOUT" and r.job_id == a and took >= 0.5,
          f"AwaitProof timeout_ms=500 -> TIMEOUT after {took:.2f} s", status_name(r))
    check(queue(d.stub) == (1, 0), "GetStatus: one porep job pending", str(queue(d.stub)))
    c = d.stub.CancelProof(h.pb.CancelProofRequest(job_id=a))
    r = await_final(d.stub, a, 10)
    check(not c.was_running and status_name(r) == "CANCELLED",
          "cancel a pending job: was_running false, then CANCELLED", status_name(r))
    b = d.stub.SubmitProof(porep_request(ctx, "p-b")).job_id
    c2 = d.stub.SubmitProof(porep_request(ctx, "p-c")).job_id
    d.stub.CancelProof(h.pb.CancelProofRequest(job_id=b))
    again = d.stub.SubmitProof(porep_request(ctx, "p-b")).job_id
    check(again == b and status_name(await_final(d.stub, b, 10)) == "CANCELLED",
          "resubmitting a cancelled request_id returns the cancelled job")
    check(queue(d.stub) == (1, 0), "the other job is still pending")

    result = {}
    waiter = prove_in_thread(d, porep_request(ctx, "p-c"), result)  # waits on job c2
    d.proc.send_signal(signal.SIGTERM)
    waiter.join(120)
    r = result.get("r")
    check(r is not None and r.job_id == c2 and status_name(r) == "CANCELLED" and
          "shutting down" in r.error_message,
          "SIGTERM with shutdown=cancel: the waiting client gets CANCELLED",
          str(r and (status_name(r), r.error_message)) + str(result.get("e")))
    d.stop_ok()

    # shutdown = "finish" releases the pending job, whose prove is then held (hold-prove:
    # it cannot complete, however fast this machine is); shutdown_timeout_s = 1 cancels it.
    f = Daemon(ctx, "escalate", config="""
        [daemon]
        shutdown_timeout_s = 1
        [scheduler]
        max_batch_size = 8
        max_batch_wait_ms = 600000
        [faults]
        inject = "hold-prove:1"
        """)
    job = f.stub.SubmitProof(porep_request(ctx, "e-1")).job_id
    result = {}
    waiter = prove_in_thread(f, porep_request(ctx, "e-1"), result)
    f.proc.send_signal(signal.SIGTERM)
    waiter.join(300)
    r = result.get("r")
    check(r is None or r.job_id == job, "the Prove waited on the submitted job")
    check(r is not None and status_name(r) == "CANCELLED",
          "shutdown=finish past shutdown_timeout_s: the job is cancelled, its client told",
          str(r and (status_name(r), r.error_message)))
    rc = f.proc.wait(timeout=300)
    f.log.close()
    check(rc == 0 and "event=shutdown_escalated reason=timeout cancelled_jobs=1" in f.log_text(),
          "... logged as shutdown_escalated; exit 0", f"exit {rc}")


def scenario_prove(ctx):
    """PreloadSRS, then one Prove: COMPLETED, timings, the proof verifies; counters, metrics and
    the job's log lines."""
    d = Daemon(ctx, "prove")
    r = d.stub.PreloadSRS(h.pb.PreloadSrsRequest(circuit_id="porep-2k"), timeout=300)
    check(not r.already_loaded and r.load_time_ms > 0,
          f"PreloadSRS porep-2k loads ({r.load_time_ms} ms)")
    r = d.stub.PreloadSRS(h.pb.PreloadSrsRequest(circuit_id="porep-2k"))
    check(r.already_loaded, "PreloadSRS again: already loaded")
    srs = {s.circuit_id: s for s in d.stub.GetStatus(h.pb.GetStatusRequest()).loaded_srs}
    check("porep-2k" in srs and srs["porep-2k"].size_bytes > 0 and
          srs["porep-2k"].tier == h.pb.SRSStatus.WARM,
          "GetStatus lists porep-2k WARM with its size", str(srs))

    t = time.monotonic()
    r = d.stub.Prove(h.pb.ProveRequest(submit=porep_request(ctx, "prove-1")), timeout=600).result
    say(f"Prove took {time.monotonic() - t:.1f} s")
    check_completed(ctx, r, "Prove")
    check(r.srs_load_ms < 1000, "preloaded parameters: srs_load_ms ~ 0", str(r.srs_load_ms))
    st = d.stub.GetStatus(h.pb.GetStatusRequest())
    check(st.total_proofs_completed == 1 and st.pinned_memory_bytes <= st.pinned_memory_limit_bytes,
          "GetStatus: 1 completed, memory in use within the budget", str(st))
    text = d.stub.GetMetrics(h.pb.GetMetricsRequest()).prometheus_text
    check('cuzk_proofs_total{kind="porep",outcome="completed"} 1' in text,
          "GetMetrics counts the completed proof")
    d.stop_ok()
    log = d.log_text()
    job = r.job_id
    check(f"event=job_submitted job_id={job} request_id=prove-1 kind=porep" in log and
          f"event=job_finished job_id={job} kind=porep state=completed" in log,
          "text log: job_submitted and job_finished lines with key=value fields", log[-2000:])


def scenario_disconnect(ctx):
    """Clients that go away mid-Prove (deadline, explicit cancel): the daemon keeps serving, the
    job stays in flight, and a resubmission of the request_id gets that job and its result. The
    job is held pending by the batch collector until SIGTERM (shutdown = "finish") releases it,
    so no check depends on how long a proof takes."""
    d = Daemon(ctx, "disconnect", config=HELD_IN_BATCH)
    req = h.pb.ProveRequest(submit=porep_request(ctx, "gone-1"))
    e = rpc_error(d.stub.Prove, req, timeout=3)
    check(e is not None and e.code() == h.grpc.StatusCode.DEADLINE_EXCEEDED,
          "Prove with a 3 s deadline: DEADLINE_EXCEEDED at the client", str(e))
    first = submissions(d, "gone-1")
    check(len(first) == 1 and not first[0][1], "... its job was made", str(first))
    job = first[0][0]
    fut = d.stub.Prove.future(req)
    wait_for("the second Prove's handler", lambda: len(submissions(d, "gone-1")) == 2)
    fut.cancel()
    check(fut.cancelled(), "a second Prove of the same request, cancelled by the client")
    wait_for("two client_gone log lines", lambda: d.log_text().count("event=client_gone") >= 2)
    check(d.log_text().count("event=client_gone") == 2,
          "the daemon noticed both departures (two client_gone lines)")
    check(queue(d.stub) == (1, 0), "GetStatus answers: the one job is still in flight (pending)",
          str(queue(d.stub)))
    j2 = d.stub.SubmitProof(porep_request(ctx, "gone-1")).job_id
    check(j2 == job, "resubmitting request_id gone-1 returns its job id", f"{job} {j2}")
    result = {}
    waiter = prove_in_thread(d, porep_request(ctx, "gone-1"), result)
    d.proc.send_signal(signal.SIGTERM)  # releases the held batch: the job is proved
    waiter.join(900)
    check("r" in result and result["r"].job_id == job, "a third Prove waits on that job",
          str(result.get("e")))
    check_completed(ctx, result["r"], "the abandoned job")
    rc = d.proc.wait(timeout=300)
    d.log.close()
    check(rc == 0 and "event=daemon_stopped completed=1 failed=0 cancelled=0" in d.log_text(),
          "exactly one proof was made; exit 0", f"exit {rc}\n{d.log_text()[-1500:]}")


def scenario_sigterm(ctx):
    """SIGTERM with a job in flight (shutdown = finish): new submissions get UNAVAILABLE, the
    waiting client gets COMPLETED with a valid proof, then the daemon exits 0. The job is held
    pending by the batch collector until the signal releases it."""
    d = Daemon(ctx, "sigterm", config=HELD_IN_BATCH)
    job = d.stub.SubmitProof(porep_request(ctx, "term-1")).job_id
    result = {}
    waiter = prove_in_thread(d, porep_request(ctx, "term-1"), result)
    check(queue(d.stub) == (1, 0), "one job in flight, a client waiting on it")
    d.proc.send_signal(signal.SIGTERM)
    say("SIGTERM sent with the job in flight")

    # A submission racing the signal may still be taken (it fails at once: no payload); once the
    # engine stops accepting, each is refused.
    refused = []

    def late_refused():
        e = rpc_error(d.stub.SubmitProof, h.pb.SubmitProofRequest(
            request_id=f"late-{len(refused)}", proof_kind=h.pb.WINNING_POST, sector_size=2 * KIB,
            vanilla_proofs=[b"nope"]))
        refused.append(e)
        return e is not None
    wait_for("a submission to be refused", late_refused, timeout=120)
    e = refused[-1]
    check(e.code() == h.grpc.StatusCode.UNAVAILABLE and "shutting down" in e.details(),
          f"SubmitProof while shutting down: UNAVAILABLE (after {len(refused) - 1} taken)", str(e))
    waiter.join(900)
    check("r" in result and result["r"].job_id == job, "the waiting Prove returned",
          str(result.get("e")))
    check_completed(ctx, result["r"], "job in flight at SIGTERM")
    rc = d.proc.wait(timeout=300)
    check(rc == 0, "daemon exits 0 after finishing the job", f"exit {rc}")
    d.log.close()
    check(not os.path.exists(d.sock), "socket file removed")
    log = d.log_text()
    order = [log.find(s) for s in ("event=shutdown_started", f"event=job_finished job_id={job}",
                                   "event=engine_stopped", "event=daemon_stopped")]
    check(all(i >= 0 for i in order) and order == sorted(order),
          "log: shutdown_started, job_finished, engine_stopped, daemon_stopped in order")


SCENARIOS = {
    "basic": scenario_basic,
    "faults": scenario_faults,
    "restart": scenario_restart,
    "errors": scenario_errors,
    "pending": scenario_pending,
    "prove": scenario_prove,
    "disconnect": scenario_disconnect,
    "sigterm": scenario_sigterm,
    "flood": scenario_flood,
    "post": scenario_post,
    "snap": scenario_snap,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", choices=sorted(SCENARIOS))
    ap.add_argument("--daemon", required=True)
    ap.add_argument("--cuzk", required=True)
    ap.add_argument("--proto", required=True, help="the folder holding cuzk/v1/proving.proto")
    ap.add_argument("--fixtures", required=True,
                    help="params/, c1/, post-params/ and post/ from make_fixtures.sh")
    ap.add_argument("--update-fixtures",
                    help="params/ and vanilla.json from tests/update/update_fixtures.sh")
    args = ap.parse_args()
    client, protoc = import_grpc()
    if client is None:
        return protoc  # the exit code

    with tempfile.TemporaryDirectory(prefix="cuzk-daemon-test-") as tmp:
        if not compile_proving_stubs(protoc, args.proto, os.path.join(tmp, "stubs")):
            return 1

        ctx = argparse.Namespace(daemon=args.daemon, cuzk=args.cuzk, tmp=tmp, daemons=[],
                                 params=os.path.join(args.fixtures, "params"),
                                 c1=os.path.join(args.fixtures, "c1", C1_NAME),
                                 post=os.path.join(args.fixtures, "post"),
                                 post_params=os.path.join(args.fixtures, "post-params"))
        ctx.c1_bytes = open(ctx.c1, "rb").read() if os.path.exists(ctx.c1) else b""
        ctx.snap = ctx.snap_params = ctx.snap_vanilla = None
        if args.update_fixtures:
            ctx.snap_params = os.path.join(args.update_fixtures, "params")
            ctx.snap_vanilla = os.path.join(args.update_fixtures, "vanilla.json")
            # Only the snap scenario requires update_inputs (CMake): a file made by that fixture
            # is read where it is there, so any other scenario runs alone (ctest -R).
            if os.path.exists(ctx.snap_vanilla):
                ctx.snap = json.load(open(ctx.snap_vanilla))
        from google.protobuf import __version__ as protobuf_version
        from google.protobuf.internal import api_implementation
        say(f"scenario {args.scenario}: python {sys.version.split()[0]}, grpcio "
            f"{h.grpc.__version__}, protobuf {protobuf_version} ({api_implementation.Type()})")
        return run_scenario(args.scenario, lambda: SCENARIOS[args.scenario](ctx), ctx)


if __name__ == "__main__":
    sys.exit(main())
