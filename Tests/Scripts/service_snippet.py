"""Runs the service snippets of docs/service.md in MapLibre GL JS, in headless Chromium, against a running service.

    python3 service_snippet.py SERVICE_URL ROUTE_FILE MODE SCREENSHOT

MODE is `sprite` (the document's sprite array, layers and data), `resolver` (`?sprites=false`, each
icon fetched by its id in `styleimagemissing`), `signed` (a service with a signing key: each icon
fetched by the signed URL its document gives) or `none` (`?sprites=false` and no resolver: the
control, which must show no marker). Prints, as JSON, the zoom, the labels of the markers the map
rendered and the document's features (label and zooms), and writes a screenshot.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gl_js_snippet import run_page  # noqa: E402

# The snippets of docs/service.md, as they are there but for `ROUTE` (the route file's text) and `SERVICE`.
SPRITE = """
map.on("load", async () => {
  const response = await fetch(`${SERVICE}/v1/routes?themes=day,night`, { method: "POST", body: ROUTE });
  const ride = await response.json();
  for (const sheet of ride.sprite) map.addSprite(sheet.id, new URL(sheet.url, SERVICE).href);
  // A route's pins and callouts are not on the sheets: the document gives their URLs.
  map.on("styleimagemissing", async ({ id }) => {
    const images = ride.images[id];
    if (!images || !/^(pin|callout)-/.test(id)) return;
    const ratio = Math.min(3, Math.ceil(window.devicePixelRatio));
    const image = images.find((candidate) => candidate.pixelRatio === ratio) ?? images[0];
    const loaded = await map.loadImage(new URL(image.url, SERVICE).href);
    if (!map.hasImage(id)) map.addImage(id, loaded.data, { pixelRatio: image.pixelRatio });
  });
  map.addSource("markerpaint-markers", { type: "geojson", data: ride });
  for (const layer of ride.layers) map.addLayer(layer);
  done(ride);
});
"""

RESOLVER = """
const markerpaintIcon = /^(start|distance|end|countdown|combined)-.+-(day|night)-[0-9a-f]{10}$/;
map.on("styleimagemissing", async ({ id }) => {
  if (!markerpaintIcon.test(id)) return;
  const ratio = Math.min(3, Math.ceil(window.devicePixelRatio));
  const image = await map.loadImage(`${SERVICE}/v1/icons/${id}${ratio > 1 ? `@${ratio}x` : ""}.png`);
  if (!map.hasImage(id)) map.addImage(id, image.data, { pixelRatio: ratio });
});
"""

WITHOUT_SPRITES = SPRITE.replace("?themes=day,night", "?themes=day,night&sprites=false")

SIGNED = """
map.on("load", async () => {
  const response = await fetch(`${SERVICE}/v1/routes?themes=day,night&sprites=false`, { method: "POST", body: ROUTE });
  const ride = await response.json();
  // A service with a signing key signs its icon URLs: they come in the document, one per id and ratio.
  map.on("styleimagemissing", async ({ id }) => {
    const images = ride.images[id];
    if (!images) return;
    const ratio = Math.min(3, Math.ceil(window.devicePixelRatio));
    const image = images.find((candidate) => candidate.pixelRatio === ratio) ?? images[0];
    const loaded = await map.loadImage(new URL(image.url, SERVICE).href);
    if (!map.hasImage(id)) map.addImage(id, loaded.data, { pixelRatio: image.pixelRatio });
  });
  map.addSource("markerpaint-markers", { type: "geojson", data: ride });
  for (const layer of ride.layers) map.addLayer(layer);
  done(ride);
});
"""


def main() -> None:
    service, route, mode, screenshot = sys.argv[1:]
    snippet = {"sprite": SPRITE, "resolver": RESOLVER + WITHOUT_SPRITES, "none": WITHOUT_SPRITES, "signed": SIGNED}[mode]
    script = f"""
// A failure ends the wait with what went wrong, rather than a timeout.
window.addEventListener("unhandledrejection", (event) => {{ window.result = {{ error: String(event.reason) }}; }});
const SERVICE = {json.dumps(service)};
const ROUTE = {json.dumps(open(route).read())};
const map = new maplibregl.Map({{ container: "map", fadeDuration: 0, center: [0, 0], zoom: 1, style: BACKGROUND }});
// Icons fetched on demand are counted while they load, so the page settles when the last has
// arrived, however slow a loaded machine makes them (not after a fixed wait).
let iconsLoading = 0;
const loadImage = map.loadImage.bind(map);
map.loadImage = async (url) => {{ iconsLoading += 1; try {{ return await loadImage(url); }} finally {{ iconsLoading -= 1; }} }};
// Once the document is in, fit the route and report what the map shows when it is idle.
function done(ride) {{
  const points = ride.features.map((feature) => feature.geometry.coordinates);
  const longitudes = points.map((point) => point[0]), latitudes = points.map((point) => point[1]);
  map.fitBounds([[Math.min(...longitudes), Math.min(...latitudes)], [Math.max(...longitudes), Math.max(...latitudes)]],
    {{ padding: 80, animate: false }});
  // Icons fetched on demand arrive after the first idle: once none is loading (and a moment has
  // passed for the map to ask for any it still misses), repaint and wait for idle again.
  const report = () => map.once("idle", () => {{
    window.result = {{
      zoom: map.getZoom(),
      labels: map.queryRenderedFeatures({{ layers: [ride.layers[0].id] }}).map((feature) => feature.properties.label),
      // The markers' features: a route's waypoints follow them as pins, in layers of their own.
      features: ride.features.filter((feature) => feature.properties.kind !== "pin")
        .map((feature) => ({{ label: feature.properties.label, zooms: feature.properties.zooms }})),
    }};
  }});
  let quiet = 0;
  const settle = () => {{
    quiet = iconsLoading === 0 ? quiet + 1 : 0;
    if (quiet < 5) return setTimeout(settle, 100);
    report();
    map.triggerRepaint();
  }};
  map.once("idle", settle);
}}
{snippet}"""
    result = run_page(script, screenshot)
    if "error" in result:
        sys.exit(f"service_snippet: the page failed: {result['error']}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
