#!/usr/bin/python3
"""What anyone who reaches the real cuzk-daemon can send it, and what its operator can get wrong,
with the outcome each must have (issue 29's probe cases): a clear error and a daemon that keeps
serving, never an abort, a hang or unbounded memory. No proof is made; no fixtures are needed.

Scenarios (one ctest each):
  config       TOML typos, files that are not configuration files, sizes that round to nothing:
               exit 2 naming the file (and line), with --print-config too; `cuzk porep verify
               --c1 /dev/zero` refused
  status_port  the HTTP port: a Range that overflows, thousands of ranges, too many or too large
               headers, HEAD, and clients that send a header byte now and then while /metrics
               is scraped
  requests     request_id idempotency against a different request, ids past the bound, unknown
               job ids, strings that are not UTF-8 (raw protobuf)
  signals      SIGPIPE, SIGHUP, two daemons on one socket path / TCP port / spool directory, a
               spool directory that cannot be used

Usage: daemon_input_test.py SCENARIO --daemon BIN --cuzk BIN --proto DIR
Exit codes: 0 pass, 1 fail, 77 skip (no grpcio / grpc_tools; with CI=true a failure instead).
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import daemon_harness as dt
from daemon_harness import Failure, check, rpc_error, say

KIB, MIB = dt.KIB, dt.MIB


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_daemon(ctx, *args, env=None):
    return subprocess.run([ctx.daemon, *args], capture_output=True, text=True, timeout=120,
                          env=env)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


# ---------------------------------------------------------------------------------------------


def scenario_config(ctx):
    """Each bad file: exit 2 (not 134, SIGABRT: the C++ runtime was linked statically beside
    toml++'s), one line on stderr naming the file and the line; the same with --print-config."""
    d = tempfile.mkdtemp(prefix="config-", dir=ctx.tmp)
    deep = "[gpus]\ndevices = " + "[" * 300 + "]" * 300 + "\n"
    dotted = "a" + ".a" * 100_000 + " = 1\n"  # toml++ recursed on this until the stack ran out
    cases = [
        ("unquoted listen", '[daemon]\nlisten = unix:///x\n', ":2:"),
        ("unterminated string", '[daemon]\nlisten = "unix:///x\n', ":2:"),
        ("integer 1_", "[scheduler]\nmax_batch_size = 1_\n", ":2:"),
        ("integer 0x", "[scheduler]\nmax_batch_size = 0x\n", ":2:"),
        ("integer above int64", "[daemon]\nshutdown_timeout_s = 99999999999999999999\n", ":2:"),
        ("invalid UTF-8", b'[daemon]\nlisten = "\xff\xfe"\n', ":2:"),
        ("arrays nested 300 deep", deep, ":2:"),
        ("a key nested 100,000 deep", dotted, ":1: more than 16 dots"),
        ('total_budget = "0.5"', '[memory]\ntotal_budget = "0.5"\n',
         ':2: [memory] total_budget: "0.5" is less than one byte'),
        ("total_budget of 4096 bytes", "[memory]\ntotal_budget = 4096\n",
         ':2: [memory] total_budget: must be "auto", 0 (no limit) or at least 64MiB'),
    ]
    for i, (label, text, expect) in enumerate(cases):
        path = write(os.path.join(d, f"bad-{i}.toml"), text)
        for extra in ([], ["--print-config"]):
            out = run_daemon(ctx, "--config", path, *extra)
            check(out.returncode == 2 and f"{path}{expect}" in out.stderr and
                  out.stderr.startswith("error: ") and out.stdout == "",
                  f"{label}{' (--print-config)' if extra else ''}: exit 2 naming "
                  f"{os.path.basename(path)}{expect}",
                  f"exit {out.returncode}: {out.stderr[-500:]!r}")

    big = write(os.path.join(d, "big.toml"), "# " + "x" * MIB + "\n")
    for label, path, expect in [
            ("/dev/zero", "/dev/zero", "/dev/zero: not a regular file (a device)"),
            ("a directory", d, f"{d}: is a directory, not a file"),
            ("a file past 1 MiB", big, f"{big}: larger than 1 MiB"),
            ("a missing file", os.path.join(d, "none.toml"), "cannot open")]:
        t = time.monotonic()
        out = run_daemon(ctx, "--config", path)
        check(out.returncode == 2 and expect in out.stderr,
              f"--config {label}: exit 2 without reading it ({time.monotonic() - t:.2f} s)",
              f"exit {out.returncode}: {out.stderr[-300:]!r}")

    # The CLI's input files are bounded the same way (porep verify read /dev/zero for ever).
    for args in (["porep", "verify", "--c1", "/dev/zero", "--proof", "/dev/null", "--params", d],
                 ["post", "verify", "--public", "/dev/zero", "--proof-file", "/dev/null",
                  "--params", d]):
        out = subprocess.run([ctx.cuzk, *args], capture_output=True, text=True, timeout=120)
        check(out.returncode == 2 and "/dev/zero: not a regular file (a device)" in out.stderr,
              f"cuzk {' '.join(args[:3])}: exit 2, refused unread",
              f"exit {out.returncode}: {out.stderr[-300:]!r}")


# ---------------------------------------------------------------------------------------------


def http(port, request, read_limit=64 * MIB):
    """The raw answer to `request` (bytes), read until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=120) as s:
        s.sendall(request.encode() if isinstance(request, str) else request)
        out = b""
        while len(out) < read_limit:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            out += chunk
        return out


def scrape(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=120) as r:
        return r.status, r.read().decode()


class Dribbler(threading.Thread):
    """A client that opens a connection, sends a request line, then one header byte every
    `every` seconds until the server closes it; then again, until stopped. It records the
    status line of each answer it got."""

    def __init__(self, port, every):
        super().__init__(daemon=True)
        self.port, self.every, self.stop, self.answers = port, every, threading.Event(), []

    def run(self):
        while not self.stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=30) as s:
                    s.sendall(b"GET /metrics HTTP/1.1\r\n")
                    s.settimeout(self.every)
                    while not self.stop.is_set():
                        try:
                            got = s.recv(4096)
                            self.answers.append(got.split(b"\r\n")[0].decode(errors="replace"))
                            break  # answered (408) or closed
                        except socket.timeout:
                            s.sendall(b"X")
            except OSError:
                time.sleep(self.every)


def scenario_status_port(ctx):
    """The status port under the probes of issue 29: the daemon stays up and /metrics keeps
    answering."""
    port = free_port()
    d = dt.Daemon(ctx, "http", config=f'[daemon]\nstatus_listen = "127.0.0.1:{port}"')

    def alive(what):
        check(d.proc.poll() is None and d.stub.GetStatus(dt.pb.GetStatusRequest()) is not None and
              scrape(port)[0] == 200, f"{what}: the daemon is up, gRPC and /metrics answer")

    for path in ("/metrics", "/nope"):
        r = http(port, f"GET {path} HTTP/1.1\r\nHost: x\r\nRange: bytes=0-99999999999999999999"
                       "\r\n\r\n")
        check(r.startswith(b"HTTP/1.1 416 "), f"Range past 2^63 on {path}: 416", repr(r[:200]))
        alive(f"after that Range on {path}")

    plain = http(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    body = plain.split(b"\r\n\r\n", 1)[1]
    many = ",".join(["0-"] * 2000)  # 2,000 whole-body ranges in a 6 KB header
    r = http(port, f"GET / HTTP/1.1\r\nHost: x\r\nRange: bytes={many}\r\n\r\n")
    head, _, got = r.partition(b"\r\n\r\n")
    check(r.startswith(b"HTTP/1.1 200 ") and got == body and b"multipart" not in head and
          len(body) > 1000,
          f"2,000 ranges: 200 with the whole {len(body)}-byte page once ({len(r)} bytes in all)",
          repr(head[:300]))
    check(b"Accept-Ranges: none" in http(port, "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n"),
          "HEAD says Accept-Ranges: none")

    lines = "".join(f"X-H{i}: {i}\r\n" for i in range(100))
    r = http(port, f"GET /metrics HTTP/1.1\r\nHost: x\r\n{lines}\r\n")
    check(r.startswith(b"HTTP/1.1 431 ") and b"header lines" in r, "100 header lines: 431",
          repr(r[:200]))
    r = http(port, "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + "y" * (20 * KIB) + "\r\n\r\n")
    check(r.startswith(b"HTTP/1.1 431 "), "a 20 KiB header: 431", repr(r[:200]))
    hwm = d.proc_status("VmHWM")
    with socket.create_connection(("127.0.0.1", port), timeout=120) as s:
        s.sendall(b"GET /metrics HTTP/1.1\r\nX-Endless: ")
        sent = 0
        try:
            while sent < 64 * MIB:  # a header that never ends: refused after 16 KiB
                s.sendall(b"z" * 65536)
                sent += 65536
        except OSError:
            pass
    check(sent < 64 * MIB, f"a header that never ends: the connection is dropped after "
          f"{sent / KIB:.0f} KiB sent")
    grew = d.proc_status("VmHWM") - hwm
    check(grew < 16 * MIB, f"... peak RSS grew {grew / KIB:.0f} KiB")
    alive("after the header probes")

    # Twelve clients, each sending a header byte every 0.2 s (a new connection when dropped),
    # against 8 workers: every request head must arrive within 5 s, so each is dropped with 408
    # and a scrape gets a worker behind them (before: each byte restarted httplib's 5 s read
    # timeout, and 4 such clients held all 4 workers for as long as they went on).
    dribblers = [Dribbler(port, 0.2) for _ in range(12)]
    for t in dribblers:
        t.start()
    dt.wait_for("every dribbler to be answered", lambda: all(t.answers for t in dribblers),
                timeout=300)
    for i in range(3):
        status, text = scrape(port)
        check(status == 200 and "cuzk_uptime_seconds" in text,
              f"scrape {i + 1} while 12 clients dribble: 200")
    for t in dribblers:
        t.stop.set()
    for t in dribblers:
        t.join(60)
    answers = {a for t in dribblers for a in t.answers}
    check(answers <= {"HTTP/1.1 408 Request Timeout", ""},
          f"every dribbling client was answered 408 (or closed): {sorted(answers)}")
    alive("after the dribblers")
    d.stop_ok()


# ---------------------------------------------------------------------------------------------


def raw_call(d, method, payload):
    """A unary call with a hand-made request body (bytes a generated stub would refuse to
    send); returns the grpc.RpcError or None."""
    call = d.channel.unary_unary(f"/cuzk.v1.ProvingEngine/{method}",
                                 request_serializer=None, response_deserializer=None)
    return rpc_error(call, payload, timeout=60)


def field(number, data):
    """A length-delimited protobuf field (wire type 2) with a one-byte length."""
    assert len(data) < 128
    return bytes([number << 3 | 2, len(data)]) + data


def scenario_requests(ctx):
    """request_id idempotency compares the request; ids are bounded and never echoed past the
    bound; unknown job ids are NOT_FOUND; strings that are not UTF-8 are INVALID_ARGUMENT."""
    d = dt.Daemon(ctx, "requests")
    pb = dt.pb
    porep = dict(proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2 * KIB,
                 registered_proof=dt.REG_2KIB_V1_1, vanilla_proof=b"nope")
    first = d.stub.SubmitProof(pb.SubmitProofRequest(request_id="same", **porep)).job_id
    again = d.stub.SubmitProof(pb.SubmitProofRequest(request_id="same", priority=pb.HIGH,
                                                     **porep)).job_id
    check(again == first, "the same request again (another priority): the same job")
    winning = pb.SubmitProofRequest(request_id="same", proof_kind=pb.WINNING_POST,
                                    sector_size=2 * KIB, vanilla_proofs=[b"nope"])
    other_payload = pb.SubmitProofRequest(request_id="same", **dict(porep, vanilla_proof=b"nope!"))
    for label, request in [("another proof kind", winning), ("another payload", other_payload)]:
        e = rpc_error(d.stub.SubmitProof, request)
        check(e is not None and e.code() == dt.grpc.StatusCode.ALREADY_EXISTS and
              first in e.details() and "new request_id" in e.details(),
              f"request_id 'same' with {label}: ALREADY_EXISTS naming {first}", str(e))

    log_before = os.path.getsize(d.log_path)
    for n, code in [(256, None), (257, "INVALID_ARGUMENT"), (16 * MIB, "INVALID_ARGUMENT")]:
        request = pb.SubmitProofRequest(request_id="i" * n, **porep)
        e = rpc_error(d.stub.SubmitProof, request, timeout=120)
        if code is None:
            check(e is None, f"a request_id of {n} bytes is taken", str(e))
        else:
            check(e is not None and e.code().name == code and
                  f"request_id is {n} bytes; ids are at most 256" in e.details() and
                  len(e.details()) < 200, f"a request_id of {n} bytes: {code}, not quoted back",
                  str(e)[:300])
    grew = os.path.getsize(d.log_path) - log_before
    check(grew < 8 * KIB, f"... the log grew {grew} bytes (a 16 MiB id was logged twice)")

    e = rpc_error(d.stub.AwaitProof, pb.AwaitProofRequest(job_id="job-nope", timeout_ms=100))
    check(e is not None and e.code() == dt.grpc.StatusCode.NOT_FOUND and "job-nope" in e.details(),
          "AwaitProof of an unknown id: NOT_FOUND (as CancelProof)", str(e))
    huge = "j" * MIB
    for label, call, request in [
            ("AwaitProof", d.stub.AwaitProof, pb.AwaitProofRequest(job_id=huge, timeout_ms=1)),
            ("CancelProof", d.stub.CancelProof, pb.CancelProofRequest(job_id=huge)),
            ("PreloadSRS", d.stub.PreloadSRS, pb.PreloadSrsRequest(circuit_id="c" * 64 * KIB)),
            ("EvictSRS", d.stub.EvictSRS, pb.EvictSrsRequest(circuit_id="c" * 64 * KIB))]:
        e = rpc_error(call, request, timeout=60)
        check(e is not None and e.code() == dt.grpc.StatusCode.INVALID_ARGUMENT and
              "ids are at most 256" in e.details() and len(e.details()) < 200,
              f"{label} with an id past 256 bytes: INVALID_ARGUMENT, not quoted back",
              str(e)[:300])

    not_utf8 = b"\xff\xfe"
    for method, payload in [
            ("SubmitProof", field(1, not_utf8) + bytes([2 << 3, 1]) + field(6, b"nope")),
            ("AwaitProof", field(1, not_utf8)),
            ("CancelProof", field(1, not_utf8)),
            ("PreloadSRS", field(1, not_utf8)),
            ("SubmitProof", b"\x0a\xff\xff\xff")]:  # a length past the end: not protobuf at all
        e = raw_call(d, method, payload)
        check(e is not None and e.code() == dt.grpc.StatusCode.INVALID_ARGUMENT and
              f"{method}: the request does not parse" in e.details() and "UTF-8" in e.details(),
              f"{method} with {payload[:6]!r}...: INVALID_ARGUMENT saying why", str(e))
    check(d.stub.GetStatus(pb.GetStatusRequest()) is not None, "the daemon still serves")
    d.stop_ok()


# ---------------------------------------------------------------------------------------------


def listening(log_path):
    with open(log_path) as f:
        return "daemon_listening" in f.read()


def scenario_signals(ctx):
    """SIGPIPE is ignored, SIGHUP drains as SIGTERM does (README); one socket path, one TCP port
    and one spool directory serve one daemon; a spool directory that cannot be used stops the
    start."""
    pb = dt.pb
    # SIGPIPE: the daemon's stderr is a pipe whose reader goes away, then it logs.
    sock = os.path.join(tempfile.mkdtemp(prefix="pipe-", dir=ctx.tmp), "cuzk.sock")
    cfg = write(os.path.join(ctx.tmp, "pipe.toml"),
                f'[daemon]\nlisten = "unix://{sock}"\n[gpus]\nbackend = "cpu"\n'
                f'[memory]\ntotal_budget = "3GiB"\n[srs]\nparam_cache = "{ctx.params}"\n')
    proc = subprocess.Popen([ctx.daemon, "--config", cfg], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    try:
        seen = b""
        while b"daemon_listening" not in seen:
            line = proc.stdout.readline()
            if not line:
                raise Failure(f"the daemon exited {proc.wait()} before listening: {seen!r}")
            seen += line
        proc.stdout.close()  # the reader goes away
        with dt.grpc.insecure_channel("unix://" + sock) as ch:
            stub = dt.pbg.ProvingEngineStub(ch)
            for i in range(3):  # job_submitted, job_finished: writes into the broken pipe
                job = stub.SubmitProof(pb.SubmitProofRequest(
                    request_id=f"pipe-{i}", proof_kind=pb.WINNING_POST, sector_size=2 * KIB,
                    vanilla_proofs=[b"nope"])).job_id
                r = dt.await_final(stub, job, 60)
            check(dt.status_name(r) == "FAILED" and proc.poll() is None and
                  stub.GetStatus(pb.GetStatusRequest()) is not None,
                  "logging into a pipe nobody reads: the daemon lives on (SIGPIPE ignored)",
                  f"exit {proc.poll()}")
        proc.send_signal(signal.SIGTERM)
        check(proc.wait(timeout=120) == 0, "... and exits 0 on SIGTERM")
    finally:
        if proc.poll() is None:
            proc.kill()

    # SIGHUP: the drain of SIGTERM (shutdown = "cancel": the held job's client is told).
    d = dt.Daemon(ctx, "hup", config="""
        [daemon]
        shutdown = "cancel"
        [scheduler]
        max_batch_size = 8
        max_batch_wait_ms = 600000
        """)
    job = d.stub.SubmitProof(pb.SubmitProofRequest(
        request_id="hup", proof_kind=pb.WINNING_POST, sector_size=2 * KIB,
        vanilla_proofs=[b"nope"])).job_id
    check(dt.queue(d.stub, "winning") == (1, 0), "a job held pending by the batch collector")
    d.proc.send_signal(signal.SIGHUP)
    rc = d.proc.wait(timeout=120)
    d.log.close()
    log = d.log_text()
    order = [log.find(s) for s in ("event=shutdown_started signal=SIGHUP mode=cancel",
                                   f"event=job_finished job_id={job}", "event=daemon_stopped")]
    check(rc == 0 and all(i >= 0 for i in order) and order == sorted(order) and
          "state=cancelled" in log, "SIGHUP drains as SIGTERM: shutdown_started, the held job "
          "cancelled, daemon_stopped; exit 0", f"exit {rc}\n{log[-1500:]}")

    # Two daemons started together on one socket path: one serves, the other says why.
    for trial in range(3):
        base = tempfile.mkdtemp(prefix=f"pair-{trial}-", dir=ctx.tmp)
        sock = os.path.join(base, "cuzk.sock")
        cfg = write(os.path.join(base, "cuzk.toml"),
                    f'[daemon]\nlisten = "unix://{sock}"\n[gpus]\nbackend = "cpu"\n'
                    f'[memory]\ntotal_budget = "3GiB"\n')
        logs = [open(os.path.join(base, f"d{i}.log"), "w") for i in range(2)]
        pair = [subprocess.Popen([ctx.daemon, "--config", cfg], stdout=logs[i],
                                 stderr=subprocess.STDOUT) for i in range(2)]
        try:
            dt.wait_for("one of the two to exit", lambda: any(p.poll() is not None for p in pair),
                        timeout=60)
            loser = 0 if pair[0].poll() is not None else 1
            winner = 1 - loser
            text = open(logs[loser].name).read()
            check(pair[loser].returncode == 1 and f"another cuzk-daemon is using {sock}" in text,
                  f"trial {trial}: the second daemon on {os.path.basename(sock)} exits 1 saying "
                  "another holds it", f"exit {pair[loser].returncode}: {text[-500:]}")
            dt.wait_for("the other to listen", lambda: listening(logs[winner].name), timeout=60)
            with dt.grpc.insecure_channel("unix://" + sock) as ch:
                st = dt.pbg.ProvingEngineStub(ch).GetStatus(pb.GetStatusRequest(), timeout=30)
            check(pair[winner].poll() is None and st is not None, "... and the first one serves")
            pair[winner].send_signal(signal.SIGTERM)
            check(pair[winner].wait(timeout=120) == 0, "... until SIGTERM (exit 0)")
        finally:
            for p in pair:
                if p.poll() is None:
                    p.kill()
            for f in logs:
                f.close()

    # One TCP port: gRPC's default SO_REUSEPORT let a second daemon bind it too.
    port = free_port()
    base = tempfile.mkdtemp(prefix="tcp-", dir=ctx.tmp)
    cfg = write(os.path.join(base, "cuzk.toml"),
                f'[daemon]\nlisten = "127.0.0.1:{port}"\n[gpus]\nbackend = "cpu"\n'
                f'[memory]\ntotal_budget = "3GiB"\n')
    with open(os.path.join(base, "first.log"), "w") as log:
        first = subprocess.Popen([ctx.daemon, "--config", cfg], stdout=log,
                                 stderr=subprocess.STDOUT)
    try:
        dt.wait_for("the first daemon to listen", lambda: listening(log.name), timeout=60)
        out = run_daemon(ctx, "--config", cfg)
        check(out.returncode == 1 and "listen_failed" in out.stderr,
              f"a second daemon on TCP port {port}: exit 1 (listen_failed)",
              f"exit {out.returncode}: {out.stderr[-500:]}")
        first.send_signal(signal.SIGTERM)
        check(first.wait(timeout=120) == 0, "the first one serves on, then exits 0 on SIGTERM")
    finally:
        if first.poll() is None:
            first.kill()

    # One spool directory: a second daemon on it refuses to start (it resumed and proved the
    # first one's queued jobs, whose clients got FAILED).
    spool = os.path.join(ctx.tmp, "shared-spool")
    a = dt.Daemon(ctx, "spool-a", config=f'[spool]\ndir = "{spool}"')
    b_dir = tempfile.mkdtemp(prefix="cuzk-spool-b-", dir=ctx.tmp)
    b_cfg = write(os.path.join(b_dir, "cuzk.toml"),
                  open(a.config_path).read().replace(a.sock, os.path.join(b_dir, "cuzk.sock")))
    out = run_daemon(ctx, "--config", b_cfg)
    check(out.returncode == 1 and f"[spool] dir {spool} is in use by another cuzk-daemon" in
          out.stderr, "a second daemon on the same spool directory: exit 1 saying so",
          f"exit {out.returncode}: {out.stderr[-500:]}")
    a.stop_ok()

    # A spool directory that cannot be used: an error at start, not jobs silently not resumed.
    not_dir = write(os.path.join(ctx.tmp, "spool-file"), "not a directory")
    unreadable = os.path.join(ctx.tmp, "spool-unreadable")
    os.mkdir(unreadable, 0o000)
    # Root reads any directory: run that daemon without CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH.
    wrap = (["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
            if os.geteuid() == 0 else [])
    for label, path, expect, prefix in [
            ("a file", not_dir, "cannot create it", []),
            ("a directory it may not read", unreadable, "cannot be read", wrap)]:
        base = tempfile.mkdtemp(prefix="spool-bad-", dir=ctx.tmp)
        os.chmod(base, 0o755)
        cfg = write(os.path.join(base, "cuzk.toml"),
                    f'[daemon]\nlisten = "unix://{base}/cuzk.sock"\n[gpus]\nbackend = "cpu"\n'
                    f'[memory]\ntotal_budget = "3GiB"\n[spool]\ndir = "{path}"\n')
        os.chmod(cfg, 0o644)
        out = subprocess.run([*prefix, ctx.daemon, "--config", cfg], capture_output=True,
                             text=True, timeout=120)
        check(out.returncode == 1 and "engine_failed" in out.stderr and
              f"[spool] dir {path}: {expect}" in out.stderr,
              f"[spool] dir is {label}: exit 1, engine_failed saying {expect!r}",
              f"exit {out.returncode}: {out.stderr[-500:]}")


SCENARIOS = {
    "config": scenario_config,
    "status_port": scenario_status_port,
    "requests": scenario_requests,
    "signals": scenario_signals,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", choices=sorted(SCENARIOS))
    ap.add_argument("--daemon", required=True)
    ap.add_argument("--cuzk", required=True)
    ap.add_argument("--proto", required=True, help="the folder holding cuzk/v1/proving.proto")
    args = ap.parse_args()
    client, protoc = dt.import_grpc()
    if client is None:
        return protoc  # the exit code
    with tempfile.TemporaryDirectory(prefix="cuzk-input-test-") as tmp:
        if not dt.compile_proving_stubs(protoc, args.proto, os.path.join(tmp, "stubs")):
            return 1
        # No proof is made: the parameter directory need not exist.
        ctx = argparse.Namespace(daemon=args.daemon, cuzk=args.cuzk, tmp=tmp, daemons=[],
                                 params=os.path.join(tmp, "no-params"), c1_bytes=b"")
        say(f"scenario {args.scenario}")
        return dt.run_scenario(args.scenario, lambda: SCENARIOS[args.scenario](ctx), ctx)


if __name__ == "__main__":
    sys.exit(main())
