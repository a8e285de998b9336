#!/usr/bin/python3
"""cuzk-daemon as a drop-in for Curio's Rust cuzk daemon, driven by Python grpcio, cuzk-bench and
openssl. The facts it checks against are the Rust daemon's (Curio e0294b0, extern/cuzk:
cuzk-daemon/src/main.rs, cuzk-core/src/config.rs, cuzk.example.toml) and Curio's documentation
(documentation/en/experimental-features/cuzk-proving-daemon.md).

Scenarios (one ctest each):
  cli      --version on cuzk, cuzk-daemon and cuzk-bench; Curio's documented `cuzk --config F`
           starts the daemon with Curio's example config (its keys noted, none refused); `cuzk
           daemon --print-config` is cuzk-daemon's; the defaults without --config (socket
           /run/curio/cuzk.sock); an explicit missing --config is exit 2; --log-level, RUST_LOG
           above it, a bad RUST_LOG ignored with a note; -l is --listen as in the Rust daemon;
           log levels print as the config spells them (warn).
  socket   the socket's directory is created; [daemon] socket_mode / socket_group give the socket
           that mode and group; as root, another user in the group connects (cuzk-bench status
           as nobody) and one outside it gets "Permission denied".
  tls      a TCP listener with tls_cert, tls_key, client_ca (certificates made now by openssl,
           none committed): a client with a certificate of the right CA is served, one with
           another CA's and one with none are refused, a plaintext client too; cuzk-bench speaks
           it (--tls-ca, --tls-cert, --tls-key).
  health   without a usable GPU, backend auto proves on the CPU and every surface says
           "degraded" with the reason: the log (a warning), GetStatus (its health row),
           /metrics cuzk_health{state} and cuzk_build_info, /healthz, /status (with the Rust
           daemon's fields and its CORS header) and cuzk-bench status; a 32 GiB PoRep and its
           PreloadSRS are refused UNAVAILABLE (cpu_fallback_max_sector_size), and accepted with
           the limit 0; backend gpu without a GPU: not_serving, /healthz 503. A machine with a
           GPU checks "serving" instead.
  json_log with format = "json" every line on stderr is one JSON object, gRPC's own lines
           included (a bind failure gRPC reports itself).

Usage: dropin_test.py SCENARIO --daemon BIN --cuzk BIN --bench BIN --proto DIR --version V
Exit codes: 0 pass, 1 fail, 77 skip (no grpcio / openssl; with CI=true a failure instead).
"""
import argparse
import grp
import json
import os
import pwd
import re
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_harness as dt  # noqa: E402  (its Daemon, check, say)

from daemon_harness import Failure, check, say  # noqa: E402

SKIP = 77
REG_32GIB_V1_1 = 8  # StackedDrg32GiBV1_1

# Curio e0294b0 extern/cuzk/cuzk.example.toml, its keys and values (comments left out); listen
# and param_cache are replaced by the test's.
# Curio's example config as it ships (also daemon_config_test.cpp's oracle).
CURIO_EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                             "curio_cuzk.example.toml")


def curio_example(listen, params):
    """Curio's example with its listen address and parameter cache replaced."""
    text = open(CURIO_EXAMPLE).read()
    for key, value in (("listen", listen), ("param_cache", params)):
        text, n = re.subn(rf'^{key} = ".*"$', f'{key} = "{value}"', text, flags=re.M)
        check(n == 1, f"Curio's example has one {key} line")
    return text


def run(cmd, env=None, **kw):
    e = dict(os.environ)
    e.pop("RUST_LOG", None)
    e.update(env or {})
    return subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=120, **kw)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url):
    """(status, headers, body) of a GET; 4xx/5xx answers too."""
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


class ToolboxDaemon(dt.Daemon):
    """Started the way Curio's documentation starts the Rust daemon: `cuzk --config F`."""

    def start(self):
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([self.ctx.cuzk, "--config", self.config_path],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        self.channel = dt.grpc.insecure_channel("unix://" + self.sock)
        try:
            dt.grpc.channel_ready_future(self.channel).result(timeout=60)
        except dt.grpc.FutureTimeoutError:
            raise Failure(f"daemon did not come up (exit {self.proc.poll()}):\n{self.log_text()}")
        self.stub = dt.pbg.ProvingEngineStub(self.channel)
        say(f"`cuzk --config` daemon {self.proc.pid} up on unix://{self.sock}")


def print_config(ctx, *args, env=None):
    r = run([ctx.daemon, *args, "--print-config"], env=env)
    check(r.returncode == 0, f"cuzk-daemon {' '.join(args)} --print-config: exit 0",
          r.stdout + r.stderr)
    return r.stdout


def scenario_cli(ctx):
    for prog in (ctx.daemon, ctx.cuzk, ctx.bench):
        r = run([prog, "--version"])
        check(r.returncode == 0 and r.stdout.strip() == ctx.version,
              f"{os.path.basename(prog)} --version prints {ctx.version}", r.stdout + r.stderr)
    r = run([ctx.cuzk, "daemon", "--version"])
    check(r.returncode == 0 and r.stdout.strip() == ctx.version,
          "cuzk daemon --version is cuzk-daemon's", r.stdout + r.stderr)

    # Curio's documented command line and example config.
    params = os.path.join(ctx.tmp, "params")
    os.makedirs(params)
    d = ToolboxDaemon(ctx, "curio-example")
    with open(d.config_path, "w") as f:
        f.write(curio_example("unix://" + d.sock, params))
    d.stop()
    d.start()
    st = d.stub.GetStatus(dt.pb.GetStatusRequest(), timeout=10)
    check(st.uptime_seconds >= 0, "`cuzk --config <Curio's example>`: the daemon answers GetStatus")
    log = d.log_text()
    for key in ("[gpus] gpu_threads", "[gpus] gpu_workers_per_device = 2",
                "[memory] eviction_min_idle"):
        check("event=config_note" in log and key in log,
              f"Curio's example: {key} is noted at start (level=warn)")
    check("level=warn " in log and "level=warning" not in log,
          "log lines name the level as the config does (warn, not warning)")
    d.stop_ok()

    same = [run([ctx.daemon, "--config", d.config_path, "--print-config"]),
            run([ctx.cuzk, "daemon", "--config", d.config_path, "--print-config"]),
            run([ctx.cuzk, "--config", d.config_path, "--print-config"])]
    check(all(r.returncode == 0 for r in same) and same[0].stdout == same[1].stdout ==
          same[2].stdout, "cuzk daemon / cuzk --config print cuzk-daemon's configuration")

    # No --config: /data/zk/cuzk.toml when it exists (the Rust daemon's default), else defaults.
    if os.path.exists("/data/zk/cuzk.toml"):
        say("note: /data/zk/cuzk.toml exists here; the default-path check reads it")
        out = print_config(ctx)
        check("(from /data/zk/cuzk.toml;" in out, "without --config: /data/zk/cuzk.toml is read")
    else:
        out = print_config(ctx, env={"FIL_PROOFS_PARAMETER_CACHE": ""})
        check("(from no /data/zk/cuzk.toml: every default;" in out and
              "listen = 'unix:///run/curio/cuzk.sock'" in out and
              "param_cache = '/var/tmp/filecoin-proof-parameters'" in out,
              "without --config and /data/zk/cuzk.toml: the defaults, socket "
              "/run/curio/cuzk.sock, parameters /var/tmp/filecoin-proof-parameters", out)
    r = run([ctx.daemon, "--config", os.path.join(ctx.tmp, "none.toml")])
    check(r.returncode == 2 and "none.toml: cannot open" in r.stderr,
          "an explicit --config that does not exist: exit 2 naming it", r.stderr)

    cfg = os.path.join(ctx.tmp, "levels.toml")
    with open(cfg, "w") as f:
        f.write('[logging]\nlevel = "info"\n')
    out = print_config(ctx, "--config", cfg, "--log-level", "debug")
    check("level = 'debug'" in out, "--log-level debug overrides [logging] level")
    out = print_config(ctx, "--config", cfg, "--log-level", "debug", env={"RUST_LOG": "warning"})
    check("level = 'warn'" in out, "RUST_LOG=warning overrides --log-level (the Rust daemon's "
          "order) and is the config's warn")
    out = print_config(ctx, "--config", cfg, env={"RUST_LOG": "info,cuzk_core=trace"})
    check("level = 'info'" in out and "# note: RUST_LOG: per-target levels (cuzk_core=trace)" in out,
          "RUST_LOG with per-target directives: its bare level, the targets noted", out)
    out = print_config(ctx, "--config", cfg, env={"RUST_LOG": "loud"})
    check("level = 'info'" in out and "# note: RUST_LOG ignored" in out,
          "a RUST_LOG that names no level is ignored with a note (tracing ignores it too)")
    r = run([ctx.daemon, "--config", cfg, "--log-level", "loud", "--print-config"])
    check(r.returncode == 2 and "--log-level" in r.stderr, "a bad --log-level: exit 2", r.stderr)
    out = print_config(ctx, "--config", cfg, "-l", "127.0.0.1:9820")
    check("listen = '127.0.0.1:9820'" in out, "-l is --listen, as in the Rust daemon")


def scenario_socket(ctx):
    root = os.geteuid() == 0
    # As root: a group that is not root's (Debian's nogroup, nobody's own group), so the chown
    # is real; otherwise the user's own group.
    group = "nogroup" if root else grp.getgrgid(os.getegid()).gr_name
    nested = os.path.join(ctx.tmp, "run", "curio")
    sock = os.path.join(nested, "cuzk.sock")
    d = dt.Daemon(ctx, "socket", socket_path=sock,
                  config=f'[daemon]\nsocket_mode = "0660"\nsocket_group = "{group}"\n')
    check(os.path.isdir(nested), f"the socket's directory {nested} was created")
    st = os.stat(sock)
    check(stat.S_IMODE(st.st_mode) == 0o660, "socket mode 0660 ([daemon] socket_mode)",
          oct(stat.S_IMODE(st.st_mode)))
    check(st.st_gid == grp.getgrnam(group).gr_gid, f"socket group {group} ([daemon] socket_group)")

    # A second daemon, default mode 0600.
    closed_sock = os.path.join(ctx.tmp, "closed", "cuzk.sock")
    closed = dt.Daemon(ctx, "closed", socket_path=closed_sock)
    check(stat.S_IMODE(os.stat(closed_sock).st_mode) == 0o600, "default socket mode 0600")
    if not root:
        if os.environ.get("CI") == "true":
            raise Failure("CI=true and not root: the other-user connection cannot be checked")
        say("SKIPPED PART: not root, so no other user's connection is tried")
    else:
        for p in (ctx.tmp, os.path.dirname(nested), nested, os.path.dirname(closed_sock)):
            os.chmod(p, 0o755)  # the test's own directories: let nobody reach the sockets
        nobody = pwd.getpwnam("nobody")
        check(nobody.pw_gid == grp.getgrnam("nogroup").gr_gid, "nobody's group is nogroup")
        r = run(["runuser", "-u", "nobody", "--", ctx.bench, "--addr", "unix://" + sock,
                 "--timeout-s", "20", "status"])
        check(r.returncode == 0 and "health:" in r.stdout,
              "user nobody (in nogroup) reaches the 0660 nogroup socket", r.stdout + r.stderr)
        r = run(["runuser", "-u", "nobody", "--", ctx.bench, "--addr", "unix://" + closed_sock,
                 "--timeout-s", "20", "status"])
        check(r.returncode == 3 and "Permission denied" in r.stderr,
              "user nobody cannot use the 0600 socket: exit 3, Permission denied",
              r.stdout + r.stderr)
    cfg = os.path.join(ctx.tmp, "badgroup.toml")
    with open(cfg, "w") as f:
        f.write(f'[daemon]\nlisten = "unix://{ctx.tmp}/bad.sock"\nsocket_group = "no-such-group-x"\n')
    r = run([ctx.daemon, "--config", cfg])
    check(r.returncode == 1 and "socket_group \\\"no-such-group-x\\\": no such group" in r.stderr,
          "an unknown socket_group: exit 1 naming it", r.stderr[-600:])
    closed.stop_ok()
    d.stop_ok()


def openssl(*args, cwd):
    r = subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise Failure(f"openssl {' '.join(args)}: {r.stderr}")


def make_certificates(dirname):
    """Two CAs; the daemon's certificate (for 127.0.0.1) and a client's from the first, a
    client's from the second. EC P-256 keys, made now, removed with the test's directory."""
    os.makedirs(dirname)
    for ca in ("ca", "other-ca"):
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-keyout", f"{ca}.key", "-out", f"{ca}.pem", "-days", "1",
                "-subj", f"/CN=cuzk test {ca}", cwd=dirname)
    for name, ca, ext in (("server", "ca", "subjectAltName=IP:127.0.0.1,DNS:localhost"),
                          ("client", "ca", "extendedKeyUsage=clientAuth"),
                          ("stranger", "other-ca", "extendedKeyUsage=clientAuth")):
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN=cuzk {name}",
                cwd=dirname)
        with open(os.path.join(dirname, f"{name}.ext"), "w") as f:
            f.write(ext + "\n")
        openssl("x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key",
                "-CAcreateserial", "-out", f"{name}.pem", "-days", "1", "-extfile", f"{name}.ext",
                cwd=dirname)
    return {n: os.path.join(dirname, n) for n in ("ca", "other-ca", "server", "client", "stranger")}


def scenario_tls(ctx):
    if shutil.which("openssl") is None:
        raise Failure("openssl not found (Debian package openssl)")
    c = make_certificates(os.path.join(ctx.tmp, "pki"))
    port = free_port()
    config = (f'[daemon]\nlisten = "127.0.0.1:{port}"\ntls_cert = "{c["server"]}.pem"\n'
              f'tls_key = "{c["server"]}.key"\nclient_ca = "{c["ca"]}.pem"\n')
    d = dt.Daemon.__new__(dt.Daemon)
    d.ctx, d.sock = ctx, None
    d.dir = tempfile.mkdtemp(prefix="cuzk-tls-", dir=ctx.tmp)
    d.config_path = os.path.join(d.dir, "cuzk.toml")
    d.log_path = os.path.join(d.dir, "daemon.log")
    with open(d.config_path, "w") as f:
        f.write(dt.merge_toml({"gpus": {"backend": '"cpu"'}, "memory": {"total_budget": '"8GiB"'},
                               "srs": {"param_cache": f'"{ctx.tmp}"'}}, config))
    d.log = open(d.log_path, "w")
    d.proc = subprocess.Popen([ctx.daemon, "--config", d.config_path], stdout=d.log,
                              stderr=subprocess.STDOUT)
    ctx.daemons.append(d)
    dt.wait_for("the daemon listening", lambda: "event=daemon_listening" in d.log_text() or
                d.proc.poll() is not None, timeout=60)
    check(d.proc.poll() is None, "the TLS daemon is up", d.log_text())
    check("tls=\"client certificates required\"" in d.log_text(),
          "its start line says client certificates are required")
    check("event=listen_unauthenticated" not in d.log_text(),
          "no 'unauthenticated' warning for a TCP port with client certificates")

    def read(path):
        with open(path, "rb") as f:
            return f.read()

    def status_with(client):
        creds = dt.grpc.ssl_channel_credentials(
            root_certificates=read(c["ca"] + ".pem"),
            private_key=read(client + ".key") if client else None,
            certificate_chain=read(client + ".pem") if client else None)
        ch = dt.grpc.secure_channel(f"127.0.0.1:{port}", creds)
        try:
            return dt.pbg.ProvingEngineStub(ch).GetStatus(dt.pb.GetStatusRequest(), timeout=10)
        finally:
            ch.close()

    st = status_with(c["client"])
    check(st.uptime_seconds >= 0, "grpcio with a certificate of the right CA: GetStatus served")
    for who, client in (("another CA's certificate", c["stranger"]), ("no certificate", None)):
        e = dt.rpc_error(status_with, client)
        check(e is not None and e.code() == dt.grpc.StatusCode.UNAVAILABLE,
              f"grpcio with {who}: refused in the handshake (UNAVAILABLE)", str(e))
    plain = dt.grpc.insecure_channel(f"127.0.0.1:{port}")
    e = dt.rpc_error(dt.pbg.ProvingEngineStub(plain).GetStatus, dt.pb.GetStatusRequest(),
                     timeout=10)
    plain.close()
    check(e is not None and e.code() == dt.grpc.StatusCode.UNAVAILABLE,
          "a plaintext client: refused", str(e))

    base = [ctx.bench, "--addr", f"127.0.0.1:{port}", "--timeout-s", "20"]
    r = run(base + ["--tls-ca", c["ca"] + ".pem", "--tls-cert", c["client"] + ".pem",
                    "--tls-key", c["client"] + ".key", "status"])
    check(r.returncode == 0 and "health:" in r.stdout,
          "cuzk-bench --tls-ca/--tls-cert/--tls-key status: served", r.stdout + r.stderr)
    r = run(base + ["status", "--tls-ca", c["ca"] + ".pem", "--tls-cert", c["stranger"] + ".pem",
                    "--tls-key", c["stranger"] + ".key"])
    check(r.returncode == 3, "cuzk-bench with another CA's certificate: exit 3",
          r.stdout + r.stderr)
    r = run(base + ["status", "--tls-ca", c["ca"] + ".pem"])
    check(r.returncode == 3, "cuzk-bench with no certificate: exit 3", r.stdout + r.stderr)
    r = run(base + ["status"])
    check(r.returncode == 3, "cuzk-bench in plaintext: exit 3", r.stdout + r.stderr)
    d.proc.send_signal(dt.signal.SIGTERM)
    check(d.proc.wait(timeout=120) == 0, "SIGTERM: the TLS daemon exits 0")
    d.log.close()


def health_row(stub):
    rows = [q.proof_kind for q in stub.GetStatus(dt.pb.GetStatusRequest(), timeout=10).queues
            if q.proof_kind.startswith("health: ")]
    if len(rows) != 1:
        raise Failure(f"GetStatus has {len(rows)} health rows")
    return rows[0][len("health: "):]


def metric(text, series):
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.split()[-1])
    raise Failure(f"/metrics has no {series}")


def porep_32g(request_id):
    # The circuit (porep-32g) comes from registered_proof alone: refused before any payload is
    # read, so none is sent.
    return dt.pb.SubmitProofRequest(request_id=request_id, proof_kind=dt.pb.POREP_SEAL_COMMIT,
                                    sector_size=32 << 30, registered_proof=REG_32GIB_V1_1,
                                    vanilla_proof=b"{}", sector_number=1, miner_id=1000)


def scenario_health(ctx):
    port = free_port()
    d = dt.Daemon(ctx, "auto", config=f'[daemon]\nstatus_listen = "{port}"\n'
                                      '[gpus]\nbackend = "auto"\n')
    base = f"http://127.0.0.1:{port}"  # a port alone binds the loopback interface
    gpus = d.stub.GetStatus(dt.pb.GetStatusRequest(), timeout=10).gpus
    want = "serving" if len(gpus) > 0 else "degraded"
    say(f"{len(gpus)} GPU(s) here: backend auto should be {want}")
    row = health_row(d.stub)
    check(row.split(":")[0] == want, f"GetStatus health row: {row}")
    code, headers, body = http_get(base + "/healthz")
    check(code == 200 and body.strip() == row, f"/healthz: 200 {body.strip()!r}")
    code, headers, body = http_get(base + "/status")
    s = json.loads(body)
    check(code == 200 and headers.get("Access-Control-Allow-Origin") == "*",
          "/status: 200 with Access-Control-Allow-Origin: * (as the Rust daemon sends it)")
    check(s["health"]["state"] == want and (want == "serving") == (s["health"]["reason"] == ""),
          f"/status health: {s['health']}")
    for k in ("uptime_secs", "memory", "synthesis", "pipelines", "gpu_workers", "allocations",
              "counters", "buffers"):
        check(k in s, f"/status has the Rust daemon's {k}")
    m = http_get(base + "/metrics")[2]
    check(metric(m, f'cuzk_health{{state="{want}"}}') == 1 and
          sum(metric(m, f'cuzk_health{{state="{x}"}}')
              for x in ("serving", "degraded", "not_serving")) == 1,
          f"/metrics: cuzk_health{{state=\"{want}\"}} 1, the others 0")
    check(f'cuzk_build_info{{version="{ctx.version}",' in m, "/metrics: cuzk_build_info")
    r = run([ctx.bench, "--addr", "unix://" + d.sock, "status"])
    check(r.returncode == 0 and f"health: {row}\n" in r.stdout,
          "cuzk-bench status prints the health", r.stdout)
    if want == "degraded":
        log = d.log_text()
        check("level=warn event=cpu_fallback" in log and
              "level=warn event=health status=SERVING state=degraded" in log,
              "the log warns: cpu_fallback, health degraded (gRPC health stays SERVING)")
        check("cpu_fallback_max_sector_size" in row, "the reason names the size limit's key")
        e = dt.rpc_error(d.stub.SubmitProof, porep_32g("big-1"), timeout=10)
        check(e is not None and e.code() == dt.grpc.StatusCode.UNAVAILABLE and
              "porep-32g refused" in e.details(),
              "a 32 GiB PoRep on the CPU fallback: UNAVAILABLE naming the reason", str(e))
        e = dt.rpc_error(d.stub.PreloadSRS, dt.pb.PreloadSrsRequest(circuit_id="porep-32g"),
                         timeout=10)
        check(e is not None and e.code() == dt.grpc.StatusCode.UNAVAILABLE,
              "PreloadSRS porep-32g on the CPU fallback: UNAVAILABLE", str(e))
    d.stop_ok()

    if want == "degraded":
        d = dt.Daemon(ctx, "nolimit", config='[gpus]\nbackend = "auto"\n'
                                             'cpu_fallback_max_sector_size = 0\n')
        job = d.stub.SubmitProof(porep_32g("big-2"), timeout=10).job_id
        r = dt.await_final(d.stub, job, 120)
        check(dt.status_name(r) == "FAILED" and "refused" not in r.error_message,
              "with cpu_fallback_max_sector_size = 0 the 32 GiB job is taken (and fails on its "
              "payload, not refused)", r.error_message)
        d.stop_ok()

        port = free_port()
        d = dt.Daemon(ctx, "gpu", config=f'[daemon]\nstatus_listen = "{port}"\n'
                                         '[gpus]\nbackend = "gpu"\n')
        base = f"http://127.0.0.1:{port}"
        row = health_row(d.stub)
        check(row.startswith("not_serving: "), f"backend gpu without a GPU: {row}")
        code, _, body = http_get(base + "/healthz")
        check(code == 503 and body.strip() == row, f"/healthz: 503 {body.strip()!r}")
        m = http_get(base + "/metrics")[2]
        check(metric(m, 'cuzk_health{state="not_serving"}') == 1, "/metrics: not_serving 1")
        d.stop_ok()


def scenario_json_log(ctx):
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        cfg = os.path.join(ctx.tmp, "json.toml")
        with open(cfg, "w") as f:
            f.write(f'[daemon]\nlisten = "127.0.0.1:{port}"\n[logging]\nformat = "json"\n'
                    f'[srs]\nparam_cache = "{ctx.tmp}"\n[gpus]\nbackend = "cpu"\n')
        r = run([ctx.daemon, "--config", cfg])
    check(r.returncode == 1, "a daemon on a port in use: exit 1", r.stderr[-800:])
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    objs = []
    for ln in lines:
        try:
            objs.append(json.loads(ln))
        except json.JSONDecodeError:
            raise Failure(f"a stderr line is not JSON: {ln!r}")
    check(len(objs) >= 3, f"every stderr line is a JSON object ({len(objs)} lines)")
    g = [o for o in objs if o.get("event") == "grpc"]
    check(g and g[0]["level"] == "error" and "Address already in use" in g[0]["message"] and
          g[0]["file"] and isinstance(g[0]["line"], int),
          "gRPC's own bind error is a JSON line: event grpc, level error, message, file, line",
          json.dumps(g))
    check(any(o.get("event") == "listen_failed" for o in objs), "then listen_failed")


SCENARIOS = {"cli": scenario_cli, "socket": scenario_socket, "tls": scenario_tls,
             "health": scenario_health, "json_log": scenario_json_log}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", choices=sorted(SCENARIOS))
    ap.add_argument("--daemon", required=True)
    ap.add_argument("--cuzk", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--proto", required=True)
    ap.add_argument("--version", required=True, help="the project's version (CMake)")
    args = ap.parse_args()
    grpc, protoc = dt.import_grpc()
    if grpc is None:
        return protoc  # the exit code
    with tempfile.TemporaryDirectory(prefix="cuzk-dropin-test-") as tmp:
        if not dt.compile_proving_stubs(protoc, args.proto, os.path.join(tmp, "stubs")):
            return 1
        params = os.path.join(tmp, "no-params")
        os.mkdir(params)
        ctx = argparse.Namespace(daemon=args.daemon, cuzk=args.cuzk, bench=args.bench, tmp=tmp,
                                 daemons=[], params=params, version=args.version)
        say(f"scenario {args.scenario}: grpcio {grpc.__version__}")
        return dt.run_scenario(args.scenario, lambda: SCENARIOS[args.scenario](ctx), ctx)


if __name__ == "__main__":
    sys.exit(main())
