"""Runs the tap-to-open snippet of docs/routes.md on a route folder in MapLibre GL JS, in headless
Chromium, tapping a pin and then the map with real mouse events.

    python3 gl_js_tap.py OUT_FOLDER PIN SCREENSHOT

Loads the folder's style.json as docs/routes.md does, centres the map on waypoint PIN at zoom 17,
and taps its pin's circle, then an empty spot, then the pin again. Prints, as JSON, after each tap
the callout layer's filter and the pins whose callouts the map rendered
(`queryRenderedFeatures`), and writes a screenshot after the last tap.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gl_js_snippet import run_page  # noqa: E402

# The snippets of docs/routes.md, as they are there: the style's markers and pins on the map, and a
# tap on a pin opening its callout.
LOAD = """
map.on("load", async () => {
  const ride = await (await fetch(STYLE_URL)).json();
  for (const sprite of ride.sprite) map.addSprite(sprite.id, sprite.url);
  map.addSource("markerpaint-markers", ride.sources["markerpaint-markers"]);
  for (const layer of ride.layers) map.addLayer(layer);
  map.once("idle", () => { window.ready = true; });
});
"""

TAP = """
const pinLayers = ["markerpaint-pins-day", "markerpaint-pins-night"];
const calloutLayers = ["markerpaint-callouts-day", "markerpaint-callouts-night"];
map.on("click", (event) => {
  const [pin] = map.queryRenderedFeatures(event.point, { layers: pinLayers });
  for (const layer of calloutLayers) map.setFilter(layer, ["==", ["get", "pin"], pin ? pin.properties.pin : 0]);
});
"""

# What the map shows once idle: the callout layer's filter and the callouts drawn.
SHOWN = """new Promise((done) => map.once("idle", () => done({
  filter: map.getFilter("markerpaint-callouts-day"),
  callouts: map.queryRenderedFeatures({ layers: ["markerpaint-callouts-day"] }).map((feature) => feature.properties.pin),
}))) """


def main() -> None:
    out, pin, screenshot = sys.argv[1:]
    features = json.load(open(os.path.join(out, "markers.geojson")))["features"]
    target = next(f for f in features if f["properties"].get("pin") == int(pin))
    script = f"""
const STYLE_URL = {json.dumps("file://" + os.path.abspath(os.path.join(out, "style.json")))};
const map = new maplibregl.Map({{
  container: "map", fadeDuration: 0, center: {json.dumps(target["geometry"]["coordinates"])}, zoom: 17, style: BACKGROUND,
}});
{LOAD}
{TAP}"""
    states = []

    def evaluate(call, expression):
        value = call("Runtime.evaluate", awaitPromise=True, returnByValue=True, expression=expression)
        if "exceptionDetails" in value:
            raise RuntimeError(value["exceptionDetails"].get("exception", {}).get("description", "the page failed"))
        return value["result"]["value"]

    def prepare(call):
        evaluate(call, "new Promise((done) => { const poll = () => window.ready ? done(true) : setTimeout(poll, 50); poll(); })")
        size = evaluate(call, "[innerWidth, innerHeight]")
        # The pin's circle, 20 points above its tip at the centre; then a spot far from it.
        for dx, dy in [(0, -20), (-300, 200), (0, -20)]:
            x, y = size[0] / 2 + dx, size[1] / 2 + dy
            for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
                call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="none" if kind == "mouseMoved" else "left",
                     clickCount=0 if kind == "mouseMoved" else 1)
            states.append(evaluate(call, SHOWN))
        evaluate(call, "window.result = true")

    run_page(script, screenshot, prepare=prepare)
    print(json.dumps(states))


if __name__ == "__main__":
    main()
