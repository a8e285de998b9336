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

import daemon_test as dt
from daemon_test import Failure, check, rpc_error, say

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


SCENARIOS = {
    "config": scenario_config,
    "status_port": scenario_status_port,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", choices=sorted(SCENARIOS))
    ap.add_argument("--daemon", required=True)
    ap.add_argument("--cuzk", required=True)
    ap.add_argument("--proto", required=True, help="the folder holding cuzk/v1/proving.proto")
    args = ap.parse_args()
    try:
        import grpc
        from grpc_tools import protoc
    except ImportError as e:
        if os.environ.get("CI") == "true":
            print(f"FAIL: CI=true and {sys.executable} has no grpcio / grpc_tools ({e})")
            return 1
        print(f"SKIP: {sys.executable} has no grpcio / grpc_tools ({e})")
        return dt.SKIP
    dt.grpc = grpc
    with tempfile.TemporaryDirectory(prefix="cuzk-input-test-") as tmp:
        stubs = os.path.join(tmp, "stubs")
        os.mkdir(stubs)
        if protoc.main(["protoc", f"-I{args.proto}", f"--python_out={stubs}",
                        f"--grpc_python_out={stubs}",
                        os.path.join(args.proto, "cuzk/v1/proving.proto")]) != 0:
            print("FAIL: grpc_tools.protoc")
            return 1
        sys.path.insert(0, stubs)
        from cuzk.v1 import proving_pb2, proving_pb2_grpc
        dt.pb, dt.pbg = proving_pb2, proving_pb2_grpc
        # No proof is made: the parameter directory need not exist.
        ctx = argparse.Namespace(daemon=args.daemon, cuzk=args.cuzk, tmp=tmp, daemons=[],
                                 params=os.path.join(tmp, "no-params"), c1_bytes=b"")
        say(f"scenario {args.scenario}")
        try:
            SCENARIOS[args.scenario](ctx)
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
        print(f"PASS {args.scenario} ({time.monotonic() - dt.T0:.1f} s)", flush=True)
        return 0


if __name__ == "__main__":
    sys.exit(main())
