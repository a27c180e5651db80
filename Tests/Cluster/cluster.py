"""Three markerpaint-serve instances behind nginx on loopback, checked as an operator would.

    python3 Tests/Cluster/cluster.py MARKERPAINT_SERVE LOAD_SECONDS

Tests/Cluster/run calls it; see there for what it shows. Prints one line per figure and `ok` or
`FAIL: ...` per check; exits 1 if any check failed.
"""

import http.client
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
failures = []


def check(condition, what):
    print(("ok: " if condition else "FAIL: ") + what, flush=True)
    if not condition:
        failures.append(what)


class Instance:
    """One markerpaint-serve, its port and its log."""

    def __init__(self, binary, folder, name, key_file, port=0):
        self.binary, self.folder, self.name, self.key_file = binary, folder, name, key_file
        self.port = port
        self.start()

    def start(self):
        self.log_path = os.path.join(self.folder, f"{self.name}-{int(time.time() * 1000)}.log")
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [self.binary, "--host", "127.0.0.1", "--port", str(self.port), "--signing-key-file", self.key_file,
             "--trusted-proxy", "127.0.0.1", "--threads", "1", "--log-level", "info"],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if not match:
            raise RuntimeError(f"{self.name} did not start: {line!r}")
        self.port = int(match.group(1))

    def requests_logged(self):
        """Requests this instance has logged since it last started."""
        with open(self.log_path) as log:
            return sum(1 for line in log if re.search(r" info markerpaint\.serve : .*\] (GET|HEAD|POST) /", line))

    def draws(self):
        status, _, body = get(self.port, "/metrics")
        match = re.search(r"^markerpaint_render_duration_seconds_count(?:\{[^}]*\})? (\d+)", body.decode(), re.M)
        return int(match.group(1)) if match else 0


def request(port, method, path, body=None, headers=None, timeout=60):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def get(port, path, headers=None):
    return request(port, "GET", path, headers=headers)


def nginx_config(folder, instances, port):
    """deploy/nginx/markerpaint.conf with this run's servers, cache path, log and port, inside a main file."""
    with open(os.path.join(ROOT, "deploy/nginx/markerpaint.conf")) as file:
        site = file.read()
    servers = "".join(f"    server 127.0.0.1:{i.port} max_fails=2 fail_timeout=5s;\n" for i in instances)
    site, count = re.subn(r"(    server 127\.0\.0\.1:808\d [^\n]*\n)+", servers, site)
    assert count == 1, "the upstream's server lines were not found"
    replacements = [
        ("/var/cache/nginx/markerpaint", os.path.join(folder, "cache")),
        ("/var/log/nginx/markerpaint.log", os.path.join(folder, "access.log")),
        ("listen 80;", f"listen 127.0.0.1:{port};"),
    ]
    for old, new in replacements:
        assert old in site, f"{old} not in the nginx configuration"
        site = site.replace(old, new)
    with open(os.path.join(folder, "markerpaint.conf"), "w") as file:
        file.write(site)
    main = f"""
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    client_body_temp_path {folder}/temp/body;
    proxy_temp_path {folder}/temp/proxy;
    fastcgi_temp_path {folder}/temp/fastcgi;
    uwsgi_temp_path {folder}/temp/uwsgi;
    scgi_temp_path {folder}/temp/scgi;
    include {folder}/markerpaint.conf;
}}
"""
    path = os.path.join(folder, "nginx.conf")
    with open(path, "w") as file:
        file.write(main)
    return path


def free_port():
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    binary, seconds = sys.argv[1], float(sys.argv[2])
    folder = tempfile.mkdtemp(prefix="markerpaint-cluster-")
    os.chmod(folder, 0o755)
    for sub in ["cache", "temp"]:
        os.makedirs(os.path.join(folder, sub))
        os.chmod(os.path.join(folder, sub), 0o777)
    key_file = os.path.join(folder, "signing-keys")
    with open(key_file, "w") as file:
        file.write(secrets.token_hex(32) + "\n")
    os.chmod(key_file, 0o600)
    instances = [Instance(binary, folder, f"instance-{n}", key_file) for n in range(1, 4)]
    port = free_port()
    config = nginx_config(folder, instances, port)
    test = subprocess.run([NGINX, "-t", "-p", folder, "-c", config], capture_output=True, text=True)
    check(test.returncode == 0, f"nginx -t accepts deploy/nginx/markerpaint.conf ({test.stderr.strip().splitlines()[-1]})")
    nginx = subprocess.Popen([NGINX, "-p", folder, "-c", config], stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            if get(port, "/healthz")[0] == 200:
                break
        except OSError:
            time.sleep(0.1)
    print(f"3 instances on ports {[i.port for i in instances]}, nginx on {port}, one signing key; working in {folder}")
    try:
        run(instances, port, seconds, folder)
    finally:
        nginx.send_signal(signal.SIGQUIT)
        for instance in instances:
            if instance.process.poll() is None:
                instance.process.kill()
        nginx.wait(timeout=10)
    if failures:
        print(f"{len(failures)} checks failed")
        sys.exit(1)
    shutil.rmtree(folder, ignore_errors=True)
    print("all checks passed")


def run(instances, port, seconds, folder):
    with open(os.path.join(ROOT, "../shared/routes/korita-zbevnica.gpx"), "rb") as file:
        route = file.read()

    # A route document through nginx: its URLs are signed, and every instance serves every one alike.
    status, headers, body = request(port, "POST", "/v1/routes?themes=day,night", body=route)
    check(status == 200, f"POST /v1/routes through nginx answers 200 (got {status})")
    document = json.loads(body)
    urls = sorted({image["url"] for images in document["images"].values() for image in images})
    urls += sorted(sheet["url"] + ending for sheet in document["sprite"] for ending in [".json", ".png", "@2x.json", "@2x.png"])
    signed = [url for url in urls if re.match(r"^/v1/(icons|sprites|pictures)/[A-Za-z0-9_-]{22}/", url)]
    check(len(signed) == len(urls) and len(urls) > 50, f"all {len(urls)} URLs of the document are signed")
    same = 0
    for url in urls:
        answers = [get(instance.port, url) for instance in instances]
        statuses = {answer[0] for answer in answers}
        bodies = {answer[2] for answer in answers}
        tags = {answer[1].get("ETag") for answer in answers}
        if statuses == {200} and len(bodies) == 1 and len(tags) == 1:
            same += 1
    check(same == len(urls), f"each of {len(urls)} signed URLs: 200 from all 3 instances, byte-identical, one ETag ({same} of {len(urls)})")

    # Forged and unsigned URLs: a 403 from every instance, and nothing drawn.
    first = urls[0]
    forged = [
        re.sub(r"/[A-Za-z0-9_-]{22}/", "/AAAAAAAAAAAAAAAAAAAAAA/", first),
        re.sub(r"/[A-Za-z0-9_-]{22}/", "/", first),
        "/v1/sprites/AAAAAAAAAAAAAAAAAAAAAA/day_km_d1-1000-0123456789@2x.png",
        "/v1/sprites/day_km_d1-1000-0123456789@2x.png",
        "/v1/images/end-777km-night@3x-0123456789.png",
    ]
    refused, drew = 0, 0
    for instance in instances:
        before = instance.draws()
        for url in forged:
            status = get(instance.port, url)[0]
            refused += status == 403
        drew += instance.draws() - before
    check(refused == len(forged) * 3 and drew == 0,
          f"{len(forged)} forged or unsigned URLs on each instance: {refused} of {len(forged) * 3} refused with 403, {drew} images drawn")

    # Repeats of immutable URLs are nginx's to answer.
    logged_before = sum(i.requests_logged() for i in instances)
    for _ in range(3):
        for url in urls:
            get(port, url)
    logged_after = sum(i.requests_logged() for i in instances)
    with open(os.path.join(folder, "access.log")) as log:
        statuses = [m.group(1) for m in re.finditer(r"cache=(\S+)", log.read())]
    hits = statuses.count("HIT")
    cached = [s for s in statuses if s != "-"]
    ratio = hits / len(cached) if cached else 0
    print(f"nginx cache: {hits} HIT of {len(cached)} cacheable requests ({ratio:.1%}); "
          f"the instances saw {logged_after - logged_before} of the last {3 * len(urls)}")
    check(logged_after - logged_before <= len(urls), "after its first answer, nginx answered every repeat from its cache")

    # Load through nginx (GETs that reach the instances: markers asked for by query); kill -9 one
    # instance in the middle, restart it, and see it take requests again.
    results = {"ok": 0, "failed": 0, "latencies": []}
    lock = threading.Lock()
    stop = threading.Event()

    def worker(offset):
        # 20 requests a second each, 80 in all: under nginx's 100 a second per client (this script is
        # one client), over a few dozen markers, so the instances' own limits are not what is tested.
        distance = offset
        while not stop.is_set():
            distance += 4
            started = time.monotonic()
            try:
                status, _, _ = get(port, f"/v1/marker.png?distance={distance % 64}&theme=night")
            except OSError:
                status = 0
            elapsed = time.monotonic() - started
            with lock:
                results["ok" if status == 200 else "failed"] += 1
                results["latencies"].append(elapsed)
                if status != 200:
                    results.setdefault("statuses", []).append(status)
            time.sleep(max(0, 0.05 - elapsed))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    victim = instances[1]
    time.sleep(seconds * 0.2)
    victim.process.kill()
    victim.process.wait()
    killed_at = time.monotonic()
    print(f"kill -9 of {victim.name} (port {victim.port}) under load")
    time.sleep(seconds * 0.2)
    victim.start()
    print(f"{victim.name} restarted on port {victim.port} after {time.monotonic() - killed_at:.1f} s")
    time.sleep(seconds * 0.6)
    stop.set()
    for thread in threads:
        thread.join()
    latencies = sorted(results["latencies"])
    p99 = latencies[int(len(latencies) * 0.99)] if latencies else 0
    print(f"load through nginx: {results['ok'] + results['failed']} requests in {seconds:.0f} s, {results['failed']} failed "
          f"{results.get('statuses', [])[:5]}, p99 {p99 * 1000:.0f} ms")
    with open(os.path.join(folder, "access.log")) as log:
        retried = sum(1 for line in log if "/v1/marker.png" in line and re.search(r"upstream=\S+, ", line))
    print(f"nginx retried {retried} of them on another instance")
    check(results["failed"] == 0 and results["ok"] > 40 * seconds and retried > 0,
          f"kill -9 of an instance under load lost no request ({results['failed']} failed; {retried} retried elsewhere)")
    rejoined = victim.requests_logged()
    check(rejoined > 0, f"the restarted instance took requests again ({rejoined} since its restart)")

    # SIGTERM drains: a route request in flight on an instance finishes, and the instance exits 0.
    drained = instances[2]
    big = large_route(60_000)
    outcome = {}

    def slow_request():
        try:
            outcome["status"] = request(drained.port, "POST", "/v1/routes?themes=day&sprites=false", body=big)[0]
        except OSError as error:
            outcome["status"] = str(error)

    client = threading.Thread(target=slow_request)
    client.start()
    time.sleep(0.3)
    drained.process.send_signal(signal.SIGTERM)
    client.join(timeout=60)
    code = drained.process.wait(timeout=30)
    check(outcome.get("status") == 200 and code == 0,
          f"SIGTERM while a route was in flight: it was answered {outcome.get('status')}, the instance exited {code}")


def large_route(points):
    text = ['{"type":"LineString","coordinates":[']
    text.append(",".join(f"[{14 + i * 1e-5:.6f},{46 + (i % 500) * 1e-5:.6f}]" for i in range(points)))
    text.append("]}")
    return "".join(text).encode()


if __name__ == "__main__":
    main()
