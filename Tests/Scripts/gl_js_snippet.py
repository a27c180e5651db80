"""Runs the MapLibre GL JS snippet of docs/routes.md on a route folder, in headless Chromium.

    python3 gl_js_snippet.py OUT_FOLDER SCREENSHOT

MapLibre GL JS comes from PyPI's `maplibre` package (which bundles maplibre-gl.js) and Chromium
from Debian; the page is driven over the DevTools protocol (`websocket-client`) until the map is
idle. Prints, as JSON, the zoom and the labels of the markers the map rendered
(`queryRenderedFeatures`), and writes a screenshot.
"""

import base64
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket

SNIPPET = """
map.on("load", async () => {
  const ride = await (await fetch(STYLE_URL)).json();
  for (const sprite of ride.sprite) map.addSprite(sprite.id, sprite.url);
  map.addSource("markerpaint-markers", ride.sources["markerpaint-markers"]);
  for (const layer of ride.layers) map.addLayer(layer);
  map.once("idle", () => {
    window.result = {
      zoom: map.getZoom(),
      labels: map.queryRenderedFeatures({ layers: [ride.layers[0].id] }).map((feature) => feature.properties.label),
    };
  });
});
"""


def main() -> None:
    out, screenshot = sys.argv[1:]
    points = [f["geometry"]["coordinates"] for f in json.load(open(os.path.join(out, "markers.geojson")))["features"]]
    bounds = [[min(p[0] for p in points), min(p[1] for p in points)], [max(p[0] for p in points), max(p[1] for p in points)]]
    script = f"""
const STYLE_URL = {json.dumps("file://" + os.path.abspath(os.path.join(out, "style.json")))};
const map = new maplibregl.Map({{
  container: "map", fadeDuration: 0, bounds: {json.dumps(bounds)}, fitBoundsOptions: {{ padding: 80 }}, style: BACKGROUND,
}});
{SNIPPET}"""
    print(json.dumps(run_page(script, screenshot)))


# A plain background for the map, so only the markers differ between screenshots.
BACKGROUND_STYLE = """const BACKGROUND = {
  version: 8, sources: {}, layers: [{ id: "land", type: "background", paint: { "background-color": "#e0dfdb" } }],
};"""


def run_page(script: str, screenshot: str, prepare=None) -> dict:
    """Runs `script` in a full-window page that has MapLibre GL JS (as `maplibregl`) and `BACKGROUND`,
    until it sets `window.result` (after `prepare(call)`, if given, has driven it); returns that and
    writes a screenshot."""
    spec = importlib.util.find_spec("maplibre")
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"{os.path.basename(sys.argv[0])}: PyPI's maplibre package (MapLibre GL JS) is not installed")
    work = tempfile.mkdtemp()
    try:
        shutil.copy(os.path.join(spec.submodule_search_locations[0], "srcjs", "maplibre-gl.js"), work)
        page = f"""<!doctype html><html><head><meta charset="utf-8"><script src="maplibre-gl.js"></script>
<style>html, body, #map {{ margin: 0; width: 100%; height: 100%; }}</style></head>
<body><div id="map"></div><script>
{BACKGROUND_STYLE}
{script}
</script></body></html>"""
        with open(os.path.join(work, "index.html"), "w") as file:
            file.write(page)
        return run(f"file://{work}/index.html", screenshot, work, prepare=prepare)
    finally:
        shutil.rmtree(work, ignore_errors=True)


# Waits for the page to set `window.result` and gives it.
MAP_RESULT = ("new Promise((done, fail) => { const started = Date.now(); const poll = () => window.result ? done(window.result)"
              " : Date.now() - started > 90000 ? fail(new Error('the map never became idle')) : setTimeout(poll, 100); poll(); })")


def run(url: str, screenshot: str, work: str, wait: str = MAP_RESULT, window: str = "800,600", prepare=None) -> dict:
    """Opens `url` in headless Chromium driven over DevTools, calls `prepare(call)` if given, awaits
    the promise `wait` evaluates to, writes a screenshot and returns what the promise gave."""
    chromium = subprocess.Popen(
        ["chromium", "--headless", "--no-sandbox", "--allow-file-access-from-files", "--use-angle=swiftshader",
         "--enable-unsafe-swiftshader", "--hide-scrollbars", f"--window-size={window}", "--remote-debugging-port=0",
         f"--user-data-dir={work}/profile", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = os.path.join(work, "profile", "DevToolsActivePort")
        deadline = time.time() + 30
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if time.time() > deadline:
                raise RuntimeError("Chromium did not open its DevTools port")
            time.sleep(0.1)
        port = open(port_file).read().split()[0]
        pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json"))
        socket = websocket.create_connection(next(p for p in pages if p["type"] == "page")["webSocketDebuggerUrl"], timeout=120)
        sequence = 0
        # What the page said went wrong (console errors, uncaught exceptions), for a failure's message.
        complaints = []

        def call(method: str, **params):
            nonlocal sequence
            sequence += 1
            socket.send(json.dumps({"id": sequence, "method": method, "params": params}))
            while True:
                message = json.loads(socket.recv())
                if message.get("method") == "Runtime.exceptionThrown":
                    complaints.append(message["params"]["exceptionDetails"].get("exception", {}).get("description", "an exception"))
                elif message.get("method") == "Runtime.consoleAPICalled" and message["params"]["type"] in ("error", "warning"):
                    complaints.append(" ".join(str(arg.get("value", arg.get("description", ""))) for arg in message["params"]["args"]))
                elif message.get("method") == "Log.entryAdded" and message["params"]["entry"]["level"] in ("error", "warning"):
                    complaints.append(message["params"]["entry"]["text"])
                if message.get("id") == sequence:
                    if "error" in message:
                        raise RuntimeError(f"{method}: {message['error']}")
                    return message["result"]

        call("Page.enable")
        call("Runtime.enable")
        call("Log.enable")
        call("Page.navigate", url=url)
        if prepare:
            prepare(call)
        waited = call("Runtime.evaluate", awaitPromise=True, returnByValue=True, expression=wait)
        if "exceptionDetails" in waited:
            failure = waited["exceptionDetails"].get("exception", {}).get("description", "the page failed")
            raise RuntimeError("; ".join([failure] + complaints[:10]))
        with open(screenshot, "wb") as file:
            file.write(base64.b64decode(call("Page.captureScreenshot", format="png")["data"]))
        return waited["result"]["value"]
    finally:
        chromium.kill()
        chromium.wait()


if __name__ == "__main__":
    main()
