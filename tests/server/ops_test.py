#!/usr/bin/python3
"""The standard gRPC surface of the real cuzk-daemon and daemons behind gRPC load balancing,
driven by Python grpcio: an independent client. The health and reflection stubs are generated at
test time from Debian's grpc-proto files (/usr/share/grpc-proto), the cuzk.v1 ones from
proto/cuzk/v1/proving.proto, so the daemon is checked against protos it was not built from.

Scenarios (one ctest each):
  health       grpc.health.v1.Health Check says SERVING for "" and cuzk.v1.ProvingEngine and
               NOT_FOUND for an unknown name; a Watch sees NOT_SERVING when SIGTERM starts the
               drain; reflection (what grpcurl / grpc_cli use) lists the services and serves the
               cuzk.v1 file, whose methods match proving.proto; with backend = "gpu" and
               no device the daemon stays up, NOT_SERVING, and refuses SubmitProof.
  two_daemons  two daemons on two loopback TCP ports, one client channel with gRPC's round_robin
               policy over both: 10 WinningPoSt jobs (Prove, Curio's call) spread over both; one
               daemon is killed mid-run; the jobs it held are resubmitted by request_id on the
               same channel and complete on the other; every proof verifies.

Usage: ops_test.py SCENARIO --daemon BIN --cuzk BIN --proto DIR --fixtures DIR
       [--grpc-proto DIR]
Exit codes: 0 pass, 1 fail, 77 skip (no grpcio / grpc_tools / grpc-proto files; with CI=true
that is a failure instead).
"""
import argparse
import json
import os
import signal
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_harness as dt  # noqa: E402  (its Daemon, check, say, post fixtures)

from daemon_harness import Failure, check, say  # noqa: E402

health_pb = health_grpc = refl_pb = refl_grpc = None  # set in main() once the stubs exist
ROUND_ROBIN = json.dumps({"loadBalancingConfig": [{"round_robin": {}}]})


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TcpDaemon(dt.Daemon):
    """A daemon listening on 127.0.0.1:port instead of a unix socket."""

    def __init__(self, ctx, name, port, config=""):
        self.port = port
        super().__init__(ctx, name, config=f'[daemon]\nlisten = "127.0.0.1:{port}"\n' + config)

    def start(self):
        # daemon_test's start, with a TCP target.
        self.log = open(self.log_path, "w")
        self.proc = dt.subprocess.Popen([self.ctx.daemon, "--config", self.config_path],
                                        stdout=self.log, stderr=dt.subprocess.STDOUT)
        self.channel = dt.grpc.insecure_channel(f"127.0.0.1:{self.port}")
        try:
            dt.grpc.channel_ready_future(self.channel).result(timeout=60)
        except dt.grpc.FutureTimeoutError:
            raise Failure(f"daemon did not come up (exit {self.proc.poll()}):\n{self.log_text()}")
        self.stub = dt.pbg.ProvingEngineStub(self.channel)
        say(f"daemon {self.proc.pid} up on 127.0.0.1:{self.port}")


def health_status(channel, service):
    r = health_grpc.HealthStub(channel).Check(health_pb.HealthCheckRequest(service=service),
                                              timeout=10)
    return health_pb.HealthCheckResponse.ServingStatus.Name(r.status)


def reflect(channel, **request):
    stub = refl_grpc.ServerReflectionStub(channel)
    replies = list(stub.ServerReflectionInfo(iter([refl_pb.ServerReflectionRequest(**request)]),
                                             timeout=10))
    check(len(replies) == 1, f"reflection answers {list(request)} once", str(replies))
    return replies[0]


def scenario_health(ctx):
    d = dt.Daemon(ctx, "health")
    for name in ("", "cuzk.v1.ProvingEngine"):
        s = health_status(d.channel, name)
        check(s == "SERVING", f"Health.Check({name!r}): SERVING", s)
    e = dt.rpc_error(health_status, d.channel, "no.such.Service")
    check(e is not None and e.code() == dt.grpc.StatusCode.NOT_FOUND,
          "Health.Check of an unknown service: NOT_FOUND", str(e))
    check("event=health" in d.log_text() and "status=SERVING" in d.log_text(),
          "the log says the daemon is SERVING")

    # Reflection: the services, then the cuzk.v1 file, compared with proving.proto as
    # grpc_tools compiled it (method names and their request / response types).
    r = reflect(d.channel, list_services="")
    names = {s.name for s in r.list_services_response.service}
    for want in ("cuzk.v1.ProvingEngine", "grpc.health.v1.Health",
                 "grpc.reflection.v1alpha.ServerReflection"):
        check(want in names, f"reflection lists {want}", str(sorted(names)))
    r = reflect(d.channel, file_containing_symbol="cuzk.v1.ProvingEngine")
    from google.protobuf import descriptor_pb2
    files = [descriptor_pb2.FileDescriptorProto.FromString(b)
             for b in r.file_descriptor_response.file_descriptor_proto]
    served = {f.name: f for f in files}
    check("cuzk/v1/proving.proto" in served, "reflection serves cuzk/v1/proving.proto",
          str(list(served)))
    f = served["cuzk/v1/proving.proto"]
    check(f.package == "cuzk.v1", "its package is cuzk.v1", f.package)
    got = {m.name: (m.input_type, m.output_type) for s in f.service for m in s.method}
    want = {m.name: ("." + m.input_type.full_name, "." + m.output_type.full_name)
            for m in dt.pb.DESCRIPTOR.services_by_name["ProvingEngine"].methods}
    check(got == want and len(want) == 8,
          f"its ProvingEngine methods match proving.proto ({len(want)})", f"{got} vs {want}")
    r = reflect(d.channel, file_containing_symbol="cuzk.v1.NoSuchThing")
    check(r.error_response.error_code == dt.grpc.StatusCode.NOT_FOUND.value[0],
          "reflection of an unknown symbol: NOT_FOUND", str(r))

    # Drain: a Watch stream sees SERVING, then NOT_SERVING as soon as SIGTERM arrives.
    seen = []
    watch = health_grpc.HealthStub(d.channel).Watch(
        health_pb.HealthCheckRequest(service="cuzk.v1.ProvingEngine"), timeout=60)

    def follow():
        try:
            for u in watch:
                seen.append(health_pb.HealthCheckResponse.ServingStatus.Name(u.status))
        except dt.grpc.RpcError:
            pass  # the server closes the stream when it stops

    t = threading.Thread(target=follow)
    t.start()
    dt.wait_for("the first Watch update", lambda: seen, timeout=10)
    check(seen == ["SERVING"], "Health.Watch starts with SERVING", str(seen))
    d.proc.send_signal(signal.SIGTERM)
    t.join(30)
    check(seen[:2] == ["SERVING", "NOT_SERVING"],
          "Health.Watch: NOT_SERVING once SIGTERM starts the drain", str(seen))
    rc = d.proc.wait(timeout=60)
    check(rc == 0, "the daemon exits 0", f"exit {rc}")
    d.log.close()

    # backend = "gpu" where no device is usable: the daemon stays up (load balancers and the
    # operator can ask it why) and refuses work; with a device it serves.
    g = dt.Daemon(ctx, "health-gpu", config='[gpus]\nbackend = "gpu"\n')
    st = g.stub.GetStatus(dt.pb.GetStatusRequest(), timeout=10)
    s = health_status(g.channel, "cuzk.v1.ProvingEngine")
    if st.gpus:
        check(s == "SERVING", f"backend gpu with {len(st.gpus)} device(s): SERVING", s)
    else:
        check(s == "NOT_SERVING", "backend gpu and no device: the daemon is up, NOT_SERVING", s)
        req = dt.pb.SubmitProofRequest(request_id="no-gpu", proof_kind=dt.pb.POREP_SEAL_COMMIT,
                                       sector_size=2 * dt.KIB, registered_proof=dt.REG_2KIB_V1_1,
                                       vanilla_proof=b"{}")
        e = dt.rpc_error(g.stub.SubmitProof, req, timeout=30)
        check(e is not None and e.code() == dt.grpc.StatusCode.UNAVAILABLE and
              "no prover" in e.details() and "CUDA" in e.details(),
              "SubmitProof without a device: UNAVAILABLE, naming the reason",
              str(e and (e.code(), e.details())))
        log = g.log_text()
        check("status=NOT_SERVING" in log and "CUDA" in log,
              "the log says NOT_SERVING and why", log[-2000:])
    g.stop_ok()


def scenario_two_daemons(ctx):
    win = dt.load_post(ctx, "winning")
    post = f'[srs]\nparam_cache = "{ctx.post_params}"\n'
    ports = [free_port(), free_port()]
    # a proves its first job and holds every later one at the prover (hold-prove): it dies
    # holding jobs however fast this machine proves.
    a = TcpDaemon(ctx, "a", ports[0], post + '[faults]\ninject = "hold-prove:2+"\n')
    b = TcpDaemon(ctx, "b", ports[1], post)
    target = f"ipv4:127.0.0.1:{ports[0]},127.0.0.1:{ports[1]}"
    channel = dt.grpc.insecure_channel(target, options=[("grpc.service_config", ROUND_ROBIN)])
    dt.grpc.channel_ready_future(channel).result(timeout=30)
    time.sleep(0.5)  # both subchannels connect (loopback), so the first picks alternate
    stub = dt.pbg.ProvingEngineStub(channel)
    say(f"client: {target} with round_robin")

    n_jobs = 10
    results, attempts = {}, {}

    def prove(rid):
        # What a client does when its daemon dies under it: the same request again (Curio's
        # request ids are stable per task), which round_robin sends to a live daemon.
        for attempt in range(1, 6):
            attempts[rid] = attempt
            try:
                r = stub.Prove(dt.pb.ProveRequest(submit=dt.post_request(win, "winning", rid)),
                               timeout=300)
                results[rid] = r.result
                return
            except dt.grpc.RpcError as e:
                if e.code() != dt.grpc.StatusCode.UNAVAILABLE:
                    results[rid] = e
                    return
                time.sleep(0.2)

    def jobs_seen(d):
        st = d.stub.GetStatus(dt.pb.GetStatusRequest())
        held = sum(q.pending + q.in_progress for q in st.queues)
        return st.total_proofs_completed, held

    rids = [f"winpost-rr-{i}" for i in range(n_jobs)]
    threads = [threading.Thread(target=prove, args=(rid,)) for rid in rids]
    for t in threads:
        t.start()
    spread = {}

    def all_placed():
        spread.update(a=jobs_seen(a), b=jobs_seen(b))
        return sum(c + h for c, h in spread.values()) == n_jobs

    dt.wait_for("all 10 jobs placed on the two daemons", all_placed, timeout=60, interval=0.05)
    share = {k: c + h for k, (c, h) in spread.items()}
    check(min(share.values()) >= 3, f"round_robin spreads the jobs: {share}", str(spread))

    # Kill a while it has finished some and still holds some.
    dt.wait_for("daemon a to finish a job", lambda: jobs_seen(a)[0] >= 1, timeout=120,
                interval=0.05)
    done_a, held_a = jobs_seen(a)
    a.proc.send_signal(signal.SIGKILL)
    a.proc.wait()
    a.log.close()
    say(f"daemon a killed with {done_a} done and {held_a} held")
    check(held_a >= 1, "daemon a held unfinished jobs when it died", f"{done_a} done")

    for t in threads:
        t.join(300)
    check(len(results) == n_jobs, "every Prove call returned", str(sorted(results)))
    bad = {rid: str(r) for rid, r in results.items()
           if isinstance(r, Exception) or dt.status_name(r) != "COMPLETED"}
    check(not bad, "all 10 jobs COMPLETED", str(bad))
    retried = sorted(rid for rid, n in attempts.items() if n > 1)
    check(len(retried) >= held_a, f"the {held_a} jobs a held were resubmitted: {retried}")
    done_b, held_b = jobs_seen(b)
    check(held_b == 0 and done_b >= share["b"] + held_a and done_b + done_a >= n_jobs,
          f"daemon b proved its own {share['b']} and the {len(retried)} resubmitted "
          f"({done_b} completed)", f"a {done_a} done, b {done_b} done {held_b} held")
    for rid in rids:
        dt.check_post_proof(ctx, results[rid], win, rid)
    b.stop_ok()


SCENARIOS = {"health": scenario_health, "two_daemons": scenario_two_daemons}


def main():
    global health_pb, health_grpc, refl_pb, refl_grpc
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", choices=sorted(SCENARIOS))
    ap.add_argument("--daemon", required=True)
    ap.add_argument("--cuzk", required=True)
    ap.add_argument("--proto", required=True, help="the folder holding cuzk/v1/proving.proto")
    ap.add_argument("--fixtures", required=True, help="make_fixtures.sh's output")
    ap.add_argument("--grpc-proto", default="/usr/share/grpc-proto",
                    help="Debian's grpc-proto: grpc/health/v1, grpc/reflection/v1alpha")
    args = ap.parse_args()
    protos = [os.path.join(args.grpc_proto, p) for p in
              ("grpc/health/v1/health.proto", "grpc/reflection/v1alpha/reflection.proto")]
    try:
        import grpc
        from grpc_tools import protoc
        missing = [p for p in protos if not os.path.exists(p)]
        if missing:
            raise ImportError(f"{missing[0]} is missing (Debian package grpc-proto)")
    except ImportError as e:
        return dt.missing_tool(f"{e}; install python3-grpcio python3-grpc-tools grpc-proto")

    with tempfile.TemporaryDirectory(prefix="cuzk-ops-test-") as tmp:
        stubs = os.path.join(tmp, "stubs")
        os.mkdir(stubs)
        # grpc-proto's files sit under grpc/, which as a Python package would shadow grpcio's:
        # they are compiled from a copy under another folder name (the wire names stay).
        copies = os.path.join(tmp, "grpc-proto")
        for p in protos:
            family = os.path.basename(os.path.dirname(os.path.dirname(p)))  # health, reflection
            dst = os.path.join(copies, "std_" + family)
            os.makedirs(dst, exist_ok=True)
            with open(p) as src, open(os.path.join(dst, os.path.basename(p)), "w") as out:
                out.write(src.read())
        jobs = [(args.proto, os.path.join(args.proto, "cuzk/v1/proving.proto")),
                (copies, os.path.join(copies, "std_health", "health.proto")),
                (copies, os.path.join(copies, "std_reflection", "reflection.proto"))]
        for include, proto in jobs:
            rc = protoc.main(["protoc", f"-I{include}", f"--python_out={stubs}",
                              f"--grpc_python_out={stubs}", proto])
            if rc != 0:
                print(f"FAIL: grpc_tools.protoc {proto} exited {rc}")
                return 1
        sys.path.insert(0, stubs)
        from cuzk.v1 import proving_pb2, proving_pb2_grpc
        from std_health import health_pb2, health_pb2_grpc
        from std_reflection import reflection_pb2, reflection_pb2_grpc
        dt.pb, dt.pbg, dt.grpc = proving_pb2, proving_pb2_grpc, grpc
        health_pb, health_grpc = health_pb2, health_pb2_grpc
        refl_pb, refl_grpc = reflection_pb2, reflection_pb2_grpc

        ctx = argparse.Namespace(daemon=args.daemon, cuzk=args.cuzk, tmp=tmp, daemons=[],
                                 params=os.path.join(args.fixtures, "params"),
                                 post=os.path.join(args.fixtures, "post"),
                                 post_params=os.path.join(args.fixtures, "post-params"))
        say(f"scenario {args.scenario}: grpcio {grpc.__version__}")
        return dt.run_scenario(args.scenario, lambda: SCENARIOS[args.scenario](ctx), ctx)


if __name__ == "__main__":
    sys.exit(main())
