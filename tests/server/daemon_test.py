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
import threading
import time
import urllib.error
import urllib.request

SKIP = 77
KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30
REG_2KIB_V1 = 0     # StackedDrg2KiBV1
REG_2KIB_V1_1 = 5   # StackedDrg2KiBV1_1, what `cuzk seal --sector-size 2KiB` makes
C1_NAME = "s-t01000-1-c1.json"
# A job held pending by the batch collector (a batch of 8 that waits 10 minutes) until it is
# cancelled or a shutdown (finish) releases it: how a test keeps a job in flight for as long as
# it needs, whatever the machine's speed.
HELD_IN_BATCH = """
    [scheduler]
    max_batch_size = 8
    max_batch_wait_ms = 600000
    """

pb = pbg = grpc = None  # set in main() once the stubs exist


class Failure(Exception):
    pass


T0 = time.monotonic()


def say(msg):
    print(f"[{time.monotonic() - T0:7.1f} s] {msg}", flush=True)


def check(cond, what, detail=""):
    if not cond:
        raise Failure(what + (f": {detail}" if detail else ""))
    say(f"ok   {what}")


def rpc_error(fn, *args, **kw):
    """The grpc.RpcError a call raises (None when it succeeds)."""
    try:
        fn(*args, **kw)
    except grpc.RpcError as e:
        return e
    return None


class Daemon:
    """One cuzk-daemon with its own directory, socket, config and log."""

    def __init__(self, ctx, name, config="", fmt="text", socket_path=None):
        self.ctx = ctx
        self.dir = tempfile.mkdtemp(prefix=f"cuzk-{name}-", dir=ctx.tmp)
        self.sock = socket_path or os.path.join(self.dir, "cuzk.sock")
        self.config_path = os.path.join(self.dir, "cuzk.toml")
        self.log_path = os.path.join(self.dir, "daemon.log")
        defaults = {
            "daemon": {"listen": f'"unix://{self.sock}"', "shutdown_timeout_s": "300"},
            # The fixtures' 2 KiB test parameters are marked insecure: allowed here, visibly.
            "srs": {"param_cache": f'"{ctx.params}"', "allow_insecure_params": "true"},
            "gpus": {"backend": '"cpu"'},
            "memory": {"total_budget": '"8GiB"'},
            "logging": {"level": '"debug"', "format": f'"{fmt}"'},
        }
        with open(self.config_path, "w") as f:
            f.write(merge_toml(defaults, config))
        self.proc = None
        ctx.daemons.append(self)
        self.start()

    def start(self):
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([self.ctx.daemon, "--config", self.config_path],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        self.channel = grpc.insecure_channel(
            "unix://" + self.sock,
            options=[("grpc.max_send_message_length", 1 << 30),
                     ("grpc.max_receive_message_length", 1 << 30)])
        try:
            grpc.channel_ready_future(self.channel).result(timeout=60)
        except grpc.FutureTimeoutError:
            raise Failure(f"daemon did not come up (exit {self.proc.poll()}):\n{self.log_text()}")
        self.stub = pbg.ProvingEngineStub(self.channel)
        say(f"daemon {self.proc.pid} up on unix://{self.sock}")

    def log_text(self):
        with open(self.log_path) as f:
            return f.read()

    def proc_status(self, key):
        """VmRSS / VmHWM in bytes from /proc/<pid>/status."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * KIB
        raise Failure(f"no {key} in /proc/{self.proc.pid}/status")

    def stop(self, timeout=300):
        """SIGTERM, then the exit code (killed and a failure after `timeout` seconds)."""
        self.channel.close()
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Failure(f"daemon ignored SIGTERM for {timeout} s:\n{self.log_text()[-3000:]}")
        self.log.close()
        return rc

    def stop_ok(self, timeout=300):
        t = time.monotonic()
        rc = self.stop(timeout)
        check(rc == 0, f"SIGTERM: daemon exits 0 ({time.monotonic() - t:.1f} s)",
              f"exit {rc}\n{self.log_text()[-3000:]}")
        check(not os.path.exists(self.sock), "socket file removed at exit")

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def merge_toml(defaults, extra):
    """`defaults` (section -> key -> TOML value text) overridden by `extra` (TOML text with
    [section] headers and key = value lines)."""
    sections = {s: dict(kv) for s, kv in defaults.items()}
    current = None
    for line in extra.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = line.strip("[]")
            sections.setdefault(current, {})
        else:
            k, v = (p.strip() for p in line.split("=", 1))
            sections[current][k] = v
    out = []
    for s, kv in sections.items():
        out.append(f"[{s}]")
        out += [f"{k} = {v}" for k, v in kv.items()]
        out.append("")
    return "\n".join(out)


def porep_request(ctx, request_id="", **over):
    fields = dict(request_id=request_id, proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2 * KIB,
                  registered_proof=REG_2KIB_V1_1, vanilla_proof=ctx.c1_bytes, sector_number=1,
                  miner_id=1000)
    fields.update(over)
    return pb.SubmitProofRequest(**fields)


def await_final(stub, job_id, timeout_s=600):
    return stub.AwaitProof(pb.AwaitProofRequest(job_id=job_id, timeout_ms=timeout_s * 1000),
                           timeout=timeout_s + 30)


def status_name(r):
    return pb.AwaitProofResponse.Status.Name(r.status)


def verify_proof(ctx, proof, label):
    path = os.path.join(ctx.tmp, f"proof-{label}.bin")
    with open(path, "wb") as f:
        f.write(proof)
    out = subprocess.run([ctx.cuzk, "porep", "verify", "--c1", ctx.c1, "--params", ctx.params,
                          "--allow-insecure-params", "--proof", path],
                         capture_output=True, text=True)
    check(out.returncode == 0 and "OK" in out.stdout,
          f"{label}: the proof verifies with `cuzk porep verify`", out.stdout + out.stderr)


def check_completed(ctx, r, label):
    check(status_name(r) == "COMPLETED", f"{label}: COMPLETED",
          f"{status_name(r)} {r.error_message!r}")
    check(len(r.proof) == 192, f"{label}: one 192-byte partition proof", f"{len(r.proof)} bytes")
    check(r.synthesis_ms > 0 and r.gpu_compute_ms > 0 and
          r.total_ms >= max(r.synthesis_ms, r.gpu_compute_ms, r.queue_wait_ms),
          f"{label}: timings (queue {r.queue_wait_ms}, srs {r.srs_load_ms}, synthesis "
          f"{r.synthesis_ms}, prove {r.gpu_compute_ms}, total {r.total_ms} ms)")
    verify_proof(ctx, r.proof, label)


def wait_for(what, pred, timeout=60, interval=0.1):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(interval)
    raise Failure(f"timed out waiting for {what}")


def queue(stub, kind="porep"):
    for q in stub.GetStatus(pb.GetStatusRequest()).queues:
        if q.proof_kind == kind:
            return q.pending, q.in_progress
    return 0, 0


def submissions(d, request_id):
    """(job_id, duplicate) of each job_submitted line the daemon logged for `request_id`: a
    Prove or SubmitProof handler has taken the request once its line is there."""
    out = []
    for line in d.log_text().splitlines():
        if "event=job_submitted " in line and f" request_id={request_id} " in line:
            fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
            out.append((fields["job_id"], fields["duplicate"] == "true"))
    return out


def held_proves(stub):
    """Partition proves held by the hold-prove fault so far (the engine's metric)."""
    for line in stub.GetMetrics(pb.GetMetricsRequest()).prometheus_text.splitlines():
        if line.startswith('cuzk_faults_injected_total{site="hold-prove"} '):
            return int(float(line.split()[1]))
    return 0


def prove_in_thread(d, request, result):
    """Prove(request) in a thread, its answer (or RpcError) into result['r'] / result['e']; returns
    once the handler has taken the request (its job_submitted line is logged)."""
    before = len(submissions(d, request.request_id))

    def run():
        try:
            result["r"] = d.stub.Prove(pb.ProveRequest(submit=request), timeout=900).result
        except grpc.RpcError as e:
            result["e"] = e

    t = threading.Thread(target=run)
    t.start()
    wait_for("the Prove handler", lambda: len(submissions(d, request.request_id)) > before,
             timeout=120)
    return t


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

    st = d.stub.GetStatus(pb.GetStatusRequest())
    # Idle, only the engine's share for queued payloads (1/16 of the budget) is reserved.
    check(st.pinned_memory_limit_bytes == 3 * GIB and st.pinned_memory_bytes == 3 * GIB // 16 and
          st.total_proofs_completed == 0, "GetStatus: budget 3 GiB, only the payload share in use",
          str(st))
    text = d.stub.GetMetrics(pb.GetMetricsRequest()).prometheus_text
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

    e = rpc_error(d.stub.AwaitProof, pb.AwaitProofRequest(job_id="job-nope", timeout_ms=100))
    check(e is not None and e.code() == grpc.StatusCode.NOT_FOUND and "job-nope" in e.details(),
          "AwaitProof of an unknown id: NOT_FOUND naming it", str(e))
    e = rpc_error(d.stub.CancelProof, pb.CancelProofRequest(job_id="job-nope"))
    check(e is not None and e.code() == grpc.StatusCode.NOT_FOUND and "job-nope" in e.details(),
          "CancelProof of an unknown id: NOT_FOUND", str(e))
    e = rpc_error(d.stub.PreloadSRS, pb.PreloadSrsRequest(circuit_id="porep-7x"))
    check(e is not None and e.code() == grpc.StatusCode.INVALID_ARGUMENT and
          "unknown circuit id" in e.details(), "PreloadSRS porep-7x: INVALID_ARGUMENT", str(e))
    e = rpc_error(d.stub.PreloadSRS, pb.PreloadSrsRequest(circuit_id="porep-2k"))
    check(e is not None and e.code() == grpc.StatusCode.NOT_FOUND and
          ".params is missing" in e.details(),
          "PreloadSRS porep-2k without parameter files: NOT_FOUND naming the file", str(e))
    e = rpc_error(d.stub.EvictSRS, pb.EvictSrsRequest(circuit_id="bogus"))
    check(e is not None and e.code() == grpc.StatusCode.INVALID_ARGUMENT,
          "EvictSRS bogus: INVALID_ARGUMENT", str(e))
    r = d.stub.EvictSRS(pb.EvictSrsRequest(circuit_id="porep-2k"))
    check(not r.was_loaded and r.freed_bytes == 0, "EvictSRS porep-2k (not loaded): no-op")

    second = subprocess.run([ctx.daemon, "--config", d.config_path], capture_output=True,
                            text=True, timeout=60)
    check(second.returncode == 1 and f"another cuzk-daemon is using {sock}" in second.stderr,
          "a second daemon on the live socket exits 1 and says why",
          f"exit {second.returncode}: {second.stderr[-500:]}")
    check(stat.S_ISSOCK(os.stat(sock).st_mode), "... and leaves the first one's socket alone")
    check(d.stub.GetStatus(pb.GetStatusRequest()) is not None, "first daemon still serves")

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
        with grpc.insecure_channel(f"127.0.0.1:{tcp_port}") as ch:
            st = pbg.ProvingEngineStub(ch).GetStatus(pb.GetStatusRequest(), timeout=10)
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
        ("an empty SubmitProof", pb.SubmitProofRequest(), "proof_kind"),
        ("unknown proof kind 7", porep_request(ctx, "r-kind", proof_kind=7), "proof kind 7"),
        ("PROOF_KIND_UNSPECIFIED",
         porep_request(ctx, "r-unspec", proof_kind=pb.PROOF_KIND_UNSPECIFIED), "proof_kind"),
        ("priority 2^31-1", porep_request(ctx, "r-prio", priority=2**31 - 1), "priority"),
        ("priority -1", porep_request(ctx, "r-neg", priority=-1), "priority"),
        ("no vanilla proof at all", porep_request(ctx, "r-none", vanilla_proof=b""),
         "vanilla_proof"),
    ]
    for label, request, expect in refused:
        e = rpc_error(d.stub.SubmitProof, request)
        check(e is not None and e.code() == grpc.StatusCode.INVALID_ARGUMENT and
              expect in e.details(), f"{label}: INVALID_ARGUMENT naming {expect!r}", str(e))
    st = d.stub.GetStatus(pb.GetStatusRequest())
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
        ("SNAP_DEALS_UPDATE with a PoRep payload", dict(proof_kind=pb.SNAP_DEALS_UPDATE),
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
    st = d.stub.GetStatus(pb.GetStatusRequest())
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
    check(m.stub.GetStatus(pb.GetStatusRequest()) is not None, "daemon still serves")
    m.stop_ok()

    # The fixtures' parameters are marked insecure: a daemon not told to allow them refuses them.
    strict = Daemon(ctx, "strict", config="[srs]\nallow_insecure_params = false")
    r = await_final(strict.stub, strict.stub.SubmitProof(porep_request(ctx, "strict")).job_id, 120)
    check(status_name(r) == "FAILED" and "INSECURE" in r.error_message and
          "allow_insecure_params" in r.error_message and not r.proof,
          "marked test parameters without allow_insecure_params: FAILED saying so",
          f"{status_name(r)} {r.error_message!r}")
    e = rpc_error(strict.stub.PreloadSRS, pb.PreloadSrsRequest(circuit_id="porep-2k"))
    check(e is not None and e.code() == grpc.StatusCode.FAILED_PRECONDITION and
          "INSECURE" in e.details(), "... and PreloadSRS: FAILED_PRECONDITION", str(e))
    check(not any(s.tier in (0, 1) for s in strict.stub.GetStatus(pb.GetStatusRequest()).loaded_srs
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
    r = d.stub.AwaitProof(pb.AwaitProofRequest(job_id=a, timeout_ms=500))
    took = time.monotonic() - t
    check(status_name(r) == "TIMEOUT" and r.job_id == a and took >= 0.5,
          f"AwaitProof timeout_ms=500 -> TIMEOUT after {took:.2f} s", status_name(r))
    check(queue(d.stub) == (1, 0), "GetStatus: one porep job pending", str(queue(d.stub)))
    c = d.stub.CancelProof(pb.CancelProofRequest(job_id=a))
    r = await_final(d.stub, a, 10)
    check(not c.was_running and status_name(r) == "CANCELLED",
          "cancel a pending job: was_running false, then CANCELLED", status_name(r))
    b = d.stub.SubmitProof(porep_request(ctx, "p-b")).job_id
    c2 = d.stub.SubmitProof(porep_request(ctx, "p-c")).job_id
    d.stub.CancelProof(pb.CancelProofRequest(job_id=b))
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
    r = d.stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-2k"), timeout=300)
    check(not r.already_loaded and r.load_time_ms > 0,
          f"PreloadSRS porep-2k loads ({r.load_time_ms} ms)")
    r = d.stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-2k"))
    check(r.already_loaded, "PreloadSRS again: already loaded")
    srs = {s.circuit_id: s for s in d.stub.GetStatus(pb.GetStatusRequest()).loaded_srs}
    check("porep-2k" in srs and srs["porep-2k"].size_bytes > 0 and
          srs["porep-2k"].tier == pb.SRSStatus.WARM,
          "GetStatus lists porep-2k WARM with its size", str(srs))

    t = time.monotonic()
    r = d.stub.Prove(pb.ProveRequest(submit=porep_request(ctx, "prove-1")), timeout=600).result
    say(f"Prove took {time.monotonic() - t:.1f} s")
    check_completed(ctx, r, "Prove")
    check(r.srs_load_ms < 1000, "preloaded parameters: srs_load_ms ~ 0", str(r.srs_load_ms))
    st = d.stub.GetStatus(pb.GetStatusRequest())
    check(st.total_proofs_completed == 1 and st.pinned_memory_bytes <= st.pinned_memory_limit_bytes,
          "GetStatus: 1 completed, memory in use within the budget", str(st))
    text = d.stub.GetMetrics(pb.GetMetricsRequest()).prometheus_text
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
    req = pb.ProveRequest(submit=porep_request(ctx, "gone-1"))
    e = rpc_error(d.stub.Prove, req, timeout=3)
    check(e is not None and e.code() == grpc.StatusCode.DEADLINE_EXCEEDED,
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
        e = rpc_error(d.stub.SubmitProof, pb.SubmitProofRequest(
            request_id=f"late-{len(refused)}", proof_kind=pb.WINNING_POST, sector_size=2 * KIB,
            vanilla_proofs=[b"nope"]))
        refused.append(e)
        return e is not None
    wait_for("a submission to be refused", late_refused, timeout=120)
    e = refused[-1]
    check(e.code() == grpc.StatusCode.UNAVAILABLE and "shutting down" in e.details(),
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
                st = d.stub.GetStatus(pb.GetStatusRequest())
                in_use.append((st.pinned_memory_bytes, st.pinned_memory_limit_bytes))
                time.sleep(0.1)
        except (Failure, OSError, grpc.RpcError):
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
    cancels = {j: d.stub.CancelProof(pb.CancelProofRequest(job_id=j)) for j in ids}
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
    text = d.stub.GetMetrics(pb.GetMetricsRequest()).prometheus_text
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
    check(lost is not None and lost.code() == grpc.StatusCode.NOT_FOUND and
          "unknown job id" in lost.details(),
          "the job that was in memory is unknown to the new daemon (NOT_FOUND)", str(lost))
    dup = again.stub.SubmitProof(porep_request(ctx, ids[left[1]], vanilla_proof=big), timeout=120)
    check(dup.job_id == left[1], "resubmitting a resumed request_id returns its job",
          f"{dup.job_id} vs {left[1]}")
    check_completed(ctx, await_final(again.stub, left[0]), f"resumed {left[0]}")
    for j in left[1:]:  # one proof is enough: the others are cancelled (~25 s each)
        again.stub.CancelProof(pb.CancelProofRequest(job_id=j))
        check(status_name(await_final(again.stub, j, 60)) in ("CANCELLED", "COMPLETED"),
              f"{j} ends")
    # A job cancelled while being prepared lets go of its file when the preparation returns.
    wait_for("the spool to empty",
             lambda: not [f for f in os.listdir(spool) if f.endswith(".payload")], timeout=120)
    say("ok   the spool is empty")
    again.stop_ok()


def load_post(ctx, which):
    """The vanilla proofs and verify info make_fixtures.sh made with `cuzk post vanilla`."""
    base = os.path.join(ctx.post, which)
    with open(base + ".json") as f:
        proofs = [base64.b64decode(p) for p in json.load(f)]
    with open(base + ".pub.json") as f:
        pub = json.load(f)
    return argparse.Namespace(proofs=proofs, pub=base + ".pub.json",
                              randomness=base64.b64decode(pub["Randomness"]),
                              registered=pub["Proofs"][0]["PoStProof"], prover=pub["Prover"])


def post_request(v, kind, request_id="", **over):
    winning = kind == "winning"
    fields = dict(request_id=request_id,
                  proof_kind=pb.WINNING_POST if winning else pb.WINDOW_POST_PARTITION,
                  sector_size=2 * KIB, registered_proof=v.registered,
                  priority=pb.CRITICAL if winning else pb.HIGH, vanilla_proofs=v.proofs,
                  miner_id=v.prover, randomness=v.randomness, partition_index=0)
    fields.update(over)
    return pb.SubmitProofRequest(**fields)


def snap_request(ctx, request_id="", **over):
    """A SNAP_DEALS_UPDATE request as Curio's ProveUpdateCuzk sends it: the update vanilla file's
    partition proofs (bincode) and raw 32-byte commitments."""
    v = ctx.snap
    fields = dict(request_id=request_id, proof_kind=pb.SNAP_DEALS_UPDATE,
                  sector_size=v["sector_size"], registered_proof=v["registered_proof"],
                  priority=pb.NORMAL,
                  vanilla_proofs=[base64.b64decode(p) for p in v["vanilla_proofs"]],
                  sector_number=2, miner_id=1000, comm_r_old=bytes.fromhex(v["comm_r_old"]),
                  comm_r_new=bytes.fromhex(v["comm_r_new"]),
                  comm_d_new=bytes.fromhex(v["comm_d_new"]))
    fields.update(over)
    return pb.SubmitProofRequest(**fields)


def check_post_proof(ctx, r, v, label):
    check(status_name(r) == "COMPLETED", f"{label}: COMPLETED",
          f"{status_name(r)} {r.error_message!r}")
    check(len(r.proof) == 192, f"{label}: one 192-byte proof", f"{len(r.proof)} bytes")
    check(r.synthesis_ms > 0 and r.gpu_compute_ms > 0,
          f"{label}: timings (queue {r.queue_wait_ms}, srs {r.srs_load_ms}, synthesis "
          f"{r.synthesis_ms}, prove {r.gpu_compute_ms}, total {r.total_ms} ms)")
    path = os.path.join(ctx.tmp, f"proof-{label}.bin")
    with open(path, "wb") as f:
        f.write(r.proof)
    out = subprocess.run([ctx.cuzk, "post", "verify", "--public", v.pub, "--proof-file", path,
                          "--params", ctx.post_params, "--allow-insecure-params"],
                         capture_output=True, text=True)
    check(out.returncode == 0 and "OK" in out.stdout,
          f"{label}: the proof verifies with `cuzk post verify`", out.stdout + out.stderr)


def scenario_post(ctx):
    """WinningPoSt (CRITICAL) and a WindowPoSt partition (HIGH, Curio's request id with spaces
    and brackets) of sealed 2 KiB sectors: COMPLETED, the proofs verify; bad vanilla proofs,
    wrong sector counts, randomness that is not a field element, a partition index out of range
    and a registered proof of the other kind FAIL with their reason while the daemon keeps
    serving; status and metrics by kind."""
    d = Daemon(ctx, "post", config=f'[srs]\nparam_cache = "{ctx.post_params}"')
    win, wdp = load_post(ctx, "winning"), load_post(ctx, "window")
    check(len(win.proofs) == 1 and len(wdp.proofs) == 2 and win.registered == 0 and
          wdp.registered == 10, "fixtures: Winning 2 KiB V1 of 1 sector, Window 2 KiB V1_2 of 2")
    wd_id = "wdpost-1000-0-[5 5 5 5 5 5 5 5]"  # as WindowPoStCuzk formats randomness[:8]
    jw = d.stub.SubmitProof(post_request(win, "winning", "winpost-1000-0505050505050505")).job_id
    jd = d.stub.SubmitProof(post_request(wdp, "window", wd_id)).job_id
    again = d.stub.SubmitProof(post_request(wdp, "window", wd_id)).job_id
    check(again == jd, "resubmitting Curio's request id returns the same job", f"{jd} {again}")
    check_post_proof(ctx, await_final(d.stub, jw), win, "WinningPoSt")
    check_post_proof(ctx, await_final(d.stub, jd), wdp, "WindowPoSt")

    tampered = [bytearray(p) for p in wdp.proofs]
    tampered[1][100] ^= 1  # inside sector 2's first inclusion proof
    cases = [
        ("tampered vanilla proof", "window", dict(vanilla_proofs=[bytes(p) for p in tampered]),
         "vanilla proof refused: slot 1: PoSt sector 2"),
        ("truncated vanilla proof", "winning", dict(vanilla_proofs=[win.proofs[0][:-1]]),
         "vanilla proof 0 is malformed"),
        ("two sectors for WinningPoSt", "winning", dict(vanilla_proofs=wdp.proofs),
         "2 vanilla proofs: a winning PoSt takes exactly 1"),
        ("three sectors from the deadline's last 2 KiB partition", "window",
         dict(vanilla_proofs=wdp.proofs + wdp.proofs[:1], partition_index=2999),
         "sectors 2-2 (partition 3000): partition_index 3000 out of range"),
        ("randomness of 31 bytes", "window", dict(randomness=wdp.randomness[:31]),
         "randomness must be 32 bytes, got 31"),
        ("randomness >= p", "winning", dict(randomness=b"\xff" * 32),
         "is not a valid field element"),
        ("partition index 3000", "window", dict(partition_index=3000),
         "partition_index 3000 out of range"),
        ("WinningPoSt partition 1", "winning", dict(partition_index=1),
         "a winning PoSt has one partition"),
        ("a Window proof type on WINNING_POST", "winning", dict(registered_proof=10),
         "is not a winning PoSt proof"),
        ("sector size vs registered proof", "window", dict(sector_size=8 * MIB),
         "sector_size 8388608 does not match registered proof StackedDrgWindow2KiBV1_2"),
    ]
    for label, kind, over, expect in cases:
        v = win if kind == "winning" else wdp
        r = await_final(d.stub, d.stub.SubmitProof(post_request(v, kind, **over)).job_id, 120)
        check(status_name(r) == "FAILED" and expect in r.error_message and not r.proof,
              f"{label}: FAILED with {expect!r}", f"{status_name(r)} {r.error_message!r}")
    # A request with no vanilla proof at all is refused by the call itself (no job is made).
    try:
        d.stub.SubmitProof(post_request(wdp, "window", vanilla_proofs=[]))
        check(False, "no vanilla proofs: INVALID_ARGUMENT", "the call succeeded")
    except grpc.RpcError as e:
        check(e.code() == grpc.StatusCode.INVALID_ARGUMENT and "no vanilla_proof" in e.details(),
              "no vanilla proofs: INVALID_ARGUMENT, no job", f"{e.code()} {e.details()!r}")
    # Still serving: a short (padded) partition of sector 2 alone.
    short = argparse.Namespace(**vars(wdp))
    short.proofs = wdp.proofs[1:]
    r = await_final(d.stub, d.stub.SubmitProof(post_request(short, "window")).job_id)
    check(status_name(r) == "COMPLETED" and len(r.proof) == 192,
          "after the failures, a padded one-sector partition COMPLETED",
          f"{status_name(r)} {r.error_message!r}")
    st = d.stub.GetStatus(pb.GetStatusRequest())
    srs = {s.circuit_id for s in st.loaded_srs}
    check(st.total_proofs_completed == 3 and st.total_proofs_failed == len(cases) and
          {"winning-2k", "wpost-2k"} <= srs,
          "GetStatus: 3 completed, the failures counted, winning-2k and wpost-2k loaded", str(st))
    text = d.stub.GetMetrics(pb.GetMetricsRequest()).prometheus_text
    for line in ('cuzk_proofs_total{kind="winning",outcome="completed"} 1',
                 'cuzk_proofs_total{kind="wpost",outcome="completed"} 2',
                 'cuzk_partitions_total{kind="wpost"} 2',
                 'cuzk_queue_jobs{kind="winning",state="pending"} 0'):
        check(line in text, f"GetMetrics: {line}")
    d.stop_ok()
    log = d.log_text()
    check(f"request_id={wd_id}" in log or f'request_id="{wd_id}"' in log,
          "the job log names Curio's request id", log[-2000:])


def scenario_snap(ctx):
    """SNAP_DEALS_UPDATE: bad inputs (a CID instead of a raw commitment, a partition count that
    does not match, undecodable or tampered vanilla proofs, a sector size that does not fit) FAIL
    with the reason while the daemon keeps serving; then one Prove of a real 2 KiB update:
    COMPLETED, one 192-byte proof that `cuzk update verify` accepts, counted as kind snap."""
    if ctx.snap is None:
        raise Failure("no update fixtures (pass --update-fixtures)")
    d = Daemon(ctx, "snap", config=f'[srs]\nparam_cache = "{ctx.snap_params}"')
    proofs = [base64.b64decode(p) for p in ctx.snap["vanilla_proofs"]]
    tampered = bytearray(proofs[0])
    tampered[0] ^= 1  # comm_c
    cid_prefix = bytes([0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20])
    cases = [
        ("comm_r_old as a CID", dict(comm_r_old=cid_prefix + bytes.fromhex(ctx.snap["comm_r_old"])),
         "comm_r_old is 40 bytes (a raw 32-byte commitment is expected, not a CID)"),
        ("two partition proofs for one partition", dict(vanilla_proofs=proofs * 2),
         "2 vanilla_proofs, a StackedDrg2KiBV1 update has 1 partitions"),
        ("truncated partition proof", dict(vanilla_proofs=[proofs[0][:100]]),
         "vanilla_proofs[0] is not a bincode PartitionProof"),
        ("tampered partition proof", dict(vanilla_proofs=[bytes(tampered)]),
         "vanilla proofs refused before proving: update partition 0: comm_r_old != H(comm_c"),
        ("sector size vs registered proof", dict(sector_size=8 * MIB),
         "sector_size 8388608 does not match registered update proof StackedDrg2KiBV1"),
        ("unknown registered update proof", dict(registered_proof=9),
         "unknown registered update proof id 9"),
    ]
    for i, (label, over, expect) in enumerate(cases):
        job = d.stub.SubmitProof(snap_request(ctx, f"snap-bad-{i}", **over)).job_id
        r = await_final(d.stub, job, 120)
        check(status_name(r) == "FAILED" and expect in r.error_message and not r.proof,
              f"{label}: FAILED with {expect!r}", f"{status_name(r)} {r.error_message!r}")
    check(d.stub.GetStatus(pb.GetStatusRequest()).total_proofs_failed == len(cases),
          "the daemon still serves and counts the failed jobs")

    t = time.monotonic()
    r = d.stub.Prove(pb.ProveRequest(submit=snap_request(ctx, "snap-1")), timeout=600).result
    say(f"Prove (SNAP_DEALS_UPDATE) took {time.monotonic() - t:.1f} s")
    check(status_name(r) == "COMPLETED", "update Prove: COMPLETED",
          f"{status_name(r)} {r.error_message!r}")
    check(len(r.proof) == 192, "one 192-byte partition proof", f"{len(r.proof)} bytes")
    check(r.synthesis_ms > 0 and r.gpu_compute_ms > 0,
          f"timings (synthesis {r.synthesis_ms}, prove {r.gpu_compute_ms}, total {r.total_ms} ms)")
    path = os.path.join(ctx.tmp, "snap-proof.bin")
    with open(path, "wb") as f:
        f.write(r.proof)
    out = subprocess.run([ctx.cuzk, "update", "verify", "--vanilla", ctx.snap_vanilla, "--params",
                          ctx.snap_params, "--allow-insecure-params", "--proof", path],
                         capture_output=True, text=True)
    check(out.returncode == 0 and "OK: update proof verifies" in out.stdout,
          "the proof verifies with `cuzk update verify`", out.stdout + out.stderr)
    text = d.stub.GetMetrics(pb.GetMetricsRequest()).prometheus_text
    check('cuzk_proofs_total{kind="snap",outcome="completed"} 1' in text,
          "GetMetrics counts the completed snap proof")
    d.stop_ok()


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


def missing_tool(what):
    """An external check that cannot run: a failure under CI=true (exit 1), else a skip (77)."""
    ci = os.environ.get("CI") == "true"
    print(("FAIL: CI=true and " if ci else "SKIP: ") + what, flush=True)
    return 1 if ci else SKIP


def import_grpc():
    """(grpc, grpc_tools.protoc), or (None, exit code) when python3-grpcio or grpc-tools is missing
    (missing_tool: the independent client must run in CI). Sets this module's grpc."""
    global grpc
    try:
        import grpc as grpc_module
        from grpc_tools import protoc
    except ImportError as e:
        return None, missing_tool(f"{sys.executable} has no grpcio / grpc_tools ({e}); install "
                                  "python3-grpcio python3-grpc-tools")
    grpc = grpc_module
    return grpc_module, protoc


def compile_proving_stubs(protoc, proto, stubs):
    """cuzk/v1/proving.proto (under `proto`) compiled into the folder `stubs`, put on sys.path,
    and this module's pb and pbg set; False, said, when protoc fails."""
    global pb, pbg
    os.makedirs(stubs, exist_ok=True)
    rc = protoc.main(["protoc", f"-I{proto}", f"--python_out={stubs}", f"--grpc_python_out={stubs}",
                      os.path.join(proto, "cuzk/v1/proving.proto")])
    if rc != 0:
        print(f"FAIL: grpc_tools.protoc exited {rc}", flush=True)
        return False
    sys.path.insert(0, stubs)
    from cuzk.v1 import proving_pb2, proving_pb2_grpc
    pb, pbg = proving_pb2, proving_pb2_grpc
    return True


def run_scenario(label, run, ctx):
    """run() with every daemon of ctx.daemons killed afterwards, their logs printed when it fails
    (whole, always, with CUZK_DAEMON_TEST_LOGS set); the test's exit code."""
    try:
        run()
    except Failure as e:
        print(f"FAIL: {e}", flush=True)
        for d in ctx.daemons:
            if d.proc is not None:
                print(f"--- log of daemon {d.proc.pid} (last 4000 bytes)")
                print(d.log_text()[-4000:])
        return 1
    finally:
        for d in ctx.daemons:
            d.kill()
            if os.environ.get("CUZK_DAEMON_TEST_LOGS") and d.proc is not None:
                print(f"--- log of daemon {d.proc.pid}\n{d.log_text()}")
    print(f"PASS {label} ({time.monotonic() - T0:.1f} s)", flush=True)
    return 0


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
            f"{grpc.__version__}, protobuf {protobuf_version} ({api_implementation.Type()})")
        return run_scenario(args.scenario, lambda: SCENARIOS[args.scenario](ctx), ctx)


if __name__ == "__main__":
    sys.exit(main())
