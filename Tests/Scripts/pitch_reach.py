"""How far a course-up style's map can pitch before its markers' pictures meet, in MapLibre Native.

    python3 pitch_reach.py STYLE LON,LAT ZOOMS BEARINGS PITCHES [SIZE]

ZOOMS, BEARINGS and PITCHES are comma-separated. Renders STYLE (markerpaint's style.json: markers
only, on a transparent map) with every marker layer at icon-opacity 0.5, so a pixel where two
pictures' opaque pixels lie over each other has an alpha of 0.75 where one picture alone has 0.5
(its soft shadow under another adds far less). Prints, as JSON, for each pitch the pixels over
0.7 summed over zooms and bearings, the pixels drawn at all, and the worst view.
"""
import json
import os
import sys

os.environ.setdefault("EGL_PLATFORM", "surfaceless")

import mapli  # noqa: E402
from png_pixels import decode_png  # noqa: E402


def main() -> None:
    style_path, point, zooms, bearings, pitches, *rest = sys.argv[1:]
    size = int(rest[0]) if rest else 768
    lon, lat = (float(value) for value in point.split(","))
    style = json.load(open(style_path))
    for layer in style["layers"]:
        if layer.get("type") == "symbol":
            layer.setdefault("paint", {})["icon-opacity"] = 0.5
            layer.setdefault("layout", {})["visibility"] = "visible" if layer is style["layers"][0] else "none"
    halved = os.path.join(os.path.dirname(os.path.abspath(style_path)), ".pitch-style.json")
    with open(halved, "w") as file:
        json.dump(style, file)
    pool = mapli.RenderPool(workers=1)
    pool.register_style("style", path=halved)
    report = {}
    try:
        for pitch in (float(p) for p in pitches.split(",")):
            total, drawn, worst = 0, 0, None
            for zoom in (float(z) for z in zooms.split(",")):
                for bearing in (float(b) for b in bearings.split(",")):
                    png = pool.render("style", lon=lon, lat=lat, zoom=zoom, width=size, height=size, bearing=bearing, pitch=pitch)
                    alpha = decode_png(png)[:, :, 3]
                    over = int((alpha > 178).sum())
                    drawn += int((alpha > 100).sum())
                    total += over
                    if over and (worst is None or over > worst["pixels"]):
                        worst = {"zoom": zoom, "bearing": bearing, "pixels": over}
            report[str(pitch)] = {"pixels": total, "drawn": drawn, "worst": worst}
    finally:
        os.remove(halved)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
