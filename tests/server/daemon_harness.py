"""What the Python tests of the real cuzk-daemon share (daemon_test.py, daemon_input_test.py,
dropin_test.py, ops_test.py, status_page_test.py): the daemon as a process (Daemon), checks that
say what passed, requests and proof checks of each kind, the grpcio import and the stubs compiled
from proto/cuzk/v1/proving.proto at test time, and the scenario runner (daemons killed, their
logs on failure). grpc, pb and pbg are this module's once import_grpc and compile_proving_stubs
have run.
"""
import argparse
import base64
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

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
