"""Draws offline/style.json in MapLibre Native (PyPI's mapli) with nothing served, and the same
style with its basemap read from the source archive instead of the pack, and compares them.

    render_pack.py STYLE SOURCE_URL OUT_FOLDER ZOOM VIEWS

VIEWS views (512×512, pixel ratio 1) centred on points spread evenly along the route (the style's
own route line). For each, how many pixels within 1.5 km of the centre (inside the 2 km corridor;
at most 200 pixels) differ between the two, and how many show the basemap (not the style's background);
both PNGs are written. Prints one JSON report.
"""
import json
import math
import os
import sys

os.environ.setdefault("EGL_PLATFORM", "surfaceless")

import mapli  # noqa: E402
import numpy  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render_corridor import decode_png  # noqa: E402


def main():
    style_path, source_url, out, zoom, views = sys.argv[1:]
    with open(style_path) as f:
        style = json.load(f)
    line = [point for stage in style["sources"]["markerpaint-route"]["data"]["geometry"]["coordinates"] for point in stage]
    count = int(views)
    points = [line[index * (len(line) - 1) // max(count - 1, 1)] for index in range(count)]
    rows, columns = numpy.mgrid[0:512, 0:512]
    twin = json.loads(json.dumps(style))
    for source in twin["sources"].values():
        if "/offline/basemap-" in source.get("url", ""):
            source["url"] = source_url
    twin_path = os.path.join(out, "twin-style.json")
    with open(twin_path, "w") as f:
        json.dump(twin, f)
    pool = mapli.RenderPool(workers=1)
    pool.register_style("pack", path=style_path)
    pool.register_style("source", path=twin_path)
    background = numpy.array(list(bytes.fromhex(next(
        (layer["paint"]["background-color"].lstrip("#") for layer in style["layers"] if layer["type"] == "background"), "f2efe9"))))
    report = []
    for index, (lon, lat) in enumerate(points):
        metres_per_pixel = 40075016.686 * math.cos(math.radians(lat)) / (512 * 2 ** float(zoom))
        radius = min(200, 1500 / metres_per_pixel)
        centre = (rows - 255.5) ** 2 + (columns - 255.5) ** 2 <= radius ** 2
        images = {}
        for name in ("pack", "source"):
            png = pool.render(name, lon=lon, lat=lat, zoom=float(zoom), width=512, height=512, pixel_ratio=1)
            with open(os.path.join(out, f"{name}-{index}.png"), "wb") as f:
                f.write(png)
            images[name] = decode_png(png).reshape(512, 512, 4)
        differing = int((numpy.any(images["pack"] != images["source"], axis=2) & centre).sum())
        basemap = int((numpy.any(numpy.abs(images["pack"][:, :, :3].astype(int) - background) > 8, axis=2) & centre).sum())
        report.append({"point": [lon, lat], "differing": differing, "basemap": basemap, "compared": int(centre.sum())})
    print(json.dumps(report))


if __name__ == "__main__":
    main()
