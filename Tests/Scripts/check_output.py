"""Checks a `markerpaint route` folder in MapLibre Native: style.json as it is (and with the other
theme's layer shown), every marker rendered at zoom 22 centred where MapLibre places it, compared
with its own PNG. Prints counts; exits 1 on any difference. Needs mapli, numpy, pillow.

    python3 check_output.py OUT_FOLDER
"""
import io, json, math, os, sys, time
os.environ.setdefault("EGL_PLATFORM", "surfaceless")
import mapli, numpy as np
from PIL import Image

from render_style import as_placed  # beside this script: where MapLibre places a point

out = sys.argv[1]
size = 256
style = json.load(open(f"{out}/style.json"))
features = json.load(open(f"{out}/markers.geojson"))["features"]
manifest = json.load(open(f"{out}/manifest.json"))
files = {(i["sprite"], i["scale"]): i for i in manifest["images"]}

themes = [l["id"].removeprefix("markerpaint-markers-") for l in style["layers"]]
bad = checked = 0
start = time.time()
for theme in themes:
    shown = json.loads(json.dumps(style))
    for layer in shown["layers"]:
        layer["layout"]["visibility"] = "visible" if layer["id"] == f"markerpaint-markers-{theme}" else "none"
    pool = mapli.RenderPool(workers=2)
    pool.register_style("s", json=shown)
    for ratio in (1, 2):
        for feature in features:
            icon = feature["properties"]["icon"][theme]
            image = files[(icon, ratio)]
            expected = np.asarray(Image.open(f"{out}/{image['file']}").convert("RGBA")).astype(int)
            lon, lat = as_placed(*feature["geometry"]["coordinates"])
            png = pool.render("s", lon=lon, lat=lat, zoom=22, width=size, height=size, pixel_ratio=ratio)
            got = np.asarray(Image.open(io.BytesIO(png)).convert("RGBA")).astype(int)
            c = size * ratio // 2
            left, top = c - image["anchor"]["x"], c - image["anchor"]["y"]
            h, w = expected.shape[:2]
            region = got[top:top + h, left:left + w]
            outside = got.copy(); outside[top:top + h, left:left + w] = 0
            checked += 1
            if region.shape != expected.shape or np.abs(region - expected).max() > 1 or outside[..., 3].any():
                bad += 1
                if bad <= 5: print("DIFF", theme, ratio, image["file"], file=sys.stderr)
print(f"{checked} marker renders compared ({len(features)} markers x {len(themes)} themes x 2 ratios), {bad} differ, {time.time() - start:.0f} s")
sys.exit(1 if bad else 0)
