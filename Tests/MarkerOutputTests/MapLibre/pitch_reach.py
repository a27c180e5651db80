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
import struct
import sys
import tempfile
import zlib

os.environ.setdefault("EGL_PLATFORM", "surfaceless")

import mapli  # noqa: E402


def alphas(png: bytes):
    """The alpha channel of an 8-bit RGBA PNG (what mapli writes), row by row."""
    at, width, height, data = 8, 0, 0, b""
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        body = png[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour == 6, "an 8-bit RGBA PNG"
        elif kind == b"IDAT":
            data += body
        at += 12 + length
    raw = zlib.decompress(data)
    stride = width * 4
    previous = bytearray(stride)
    rows = []
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - 4] if x >= 4 else 0
            up = previous[x]
            corner = previous[x - 4] if x >= 4 else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(line[3::4])
        previous = line
    return rows


def main() -> None:
    style_path, point, zooms, bearings, pitches, *rest = sys.argv[1:]
    size = int(rest[0]) if rest else 768
    lon, lat = (float(value) for value in point.split(","))
    style = json.load(open(style_path))
    for layer in style["layers"]:
        if layer.get("type") == "symbol":
            layer.setdefault("paint", {})["icon-opacity"] = 0.5
            layer.setdefault("layout", {})["visibility"] = "visible" if layer is style["layers"][0] else "none"
    work = tempfile.mkdtemp()
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
                    rows = alphas(png)
                    over = sum(1 for row in rows for alpha in row if alpha > 178)
                    drawn += sum(1 for row in rows for alpha in row if alpha > 100)
                    total += over
                    if over and (worst is None or over > worst["pixels"]):
                        worst = {"zoom": zoom, "bearing": bearing, "pixels": over}
            report[str(pitch)] = {"pixels": total, "drawn": drawn, "worst": worst}
    finally:
        os.remove(halved)
        os.rmdir(work)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
