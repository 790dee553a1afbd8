"""One timed simulation (cost probe): probe.py NAME NODES ENV=VAL[,ENV=VAL] TIMEOUT -- bench args...
Runs papcoll_tools.sim.run.simulate (which kills the simulation's process group on timeout), with
--stack-size=1024 and the big-simulation lock from 1024 ranks; writes OUT/NAME.out/.err and appends a line
to OUT/probes.txt."""
import fcntl, os, sys, time
sys.path.insert(0, "/work/main/tools")
from papcoll_tools.sim import run
OUT = os.environ.get("PROBE_OUT", "/tmp/ch2/probe")
name, nodes, envs, timeout = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
args = sys.argv[sys.argv.index("--") + 1:]
env = dict(kv.split("=", 1) for kv in envs.split(",") if kv)
world = nodes * 32
spec = f"cluster:{nodes}x32,preset=gemini"
kw = {"stack_kib": 1024}
lock = open("/tmp/papcoll_bigsim.lock", "a") if world >= 1024 else None
if lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
t0 = time.time()
o = run.simulate(spec, None, None, "/tmp/ch2/bin/papcoll-bench-smpi", args, env=env, timeout=timeout, **kw)
if lock:
    fcntl.flock(lock, fcntl.LOCK_UN)
with open(f"{OUT}/{name}.out", "w") as f:
    f.write(o.stdout)
with open(f"{OUT}/{name}.err", "w") as f:
    f.write(o.stderr)
line = (f"{name}: {spec} ranks={world} env={envs} args={' '.join(args)} rc={o.returncode} wall_s={o.wall_s:.1f} "
        f"cpu_s={o.cpu_s:.1f} maxrss_mb={o.maxrss_kb/1024:.0f} timeout={timeout:.0f} started={time.strftime('%H:%M:%S', time.gmtime(t0))}Z")
with open(f"{OUT}/probes.txt", "a") as f:
    f.write(line + "\n")
print(line)
