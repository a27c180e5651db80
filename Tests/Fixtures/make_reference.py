#!/usr/bin/env python3
"""Reference values for the route tests, computed independently of the Swift code.

Produced with:

    python3 -m pip install geographiclib==2.1
    python3 Tests/Fixtures/make_reference.py

(the committed output: Python 3.11.7, geographiclib 2.1). It runs from any directory: paths are
taken from this file's location, and the GPS tracks from <repository>/../shared/routes.

It writes, next to itself:

* reference.json        - expected lengths, marker positions and geodesic solutions;
* two-stages.geojson    - a FeatureCollection "Day 1" / "Day 2" whose stages are 75 km and
                          123 km long, built with geographiclib's Direct;
* antimeridian.geojson  - a short line that crosses longitude ±180;
* half-the-world.geojson - two antipodal points on the equator, whose geodesic crosses a pole.

GPX files are read with xml.etree (not the Swift parser) and turned into stages by the rules of
the route batch mode: each <trk> is a stage of its <trkseg>s in order, each <rte> a stage of its
<rtept>s, <wpt> ignored, and stages with fewer than 2 distinct points dropped. Every length is the
sum (math.fsum) of geographiclib's Geodesic.WGS84.Inverse over the segments. A marker at distance d
lies in the segment whose cumulative distances bracket d (zero-length segments never do), at
Direct(segment start, Inverse azimuth of the segment, d - distance to the segment start).
"""

import bisect
import json
import math
import pathlib
import xml.etree.ElementTree as ElementTree

import geographiclib
from geographiclib.geodesic import Geodesic

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
SHARED_ROUTES = REPO.parent / "shared" / "routes"
WGS84 = Geodesic.WGS84
UNITS = {"km": 1000.0, "mi": 1609.344, "nmi": 1852.0}
# A distance marker this close to a stage's end (or its start, counting across stages) is left out.
COINCIDENCE = 1e-6


def local(tag):
    return tag.rsplit("}", 1)[-1]


def gpx_stages(path):
    """[(name, [(lat, lon), ...])] for each trk and rte, in document order, before dropping."""
    root = ElementTree.parse(path).getroot()
    stages = []
    for child in root:
        kind = local(child.tag)
        if kind not in ("trk", "rte"):
            continue
        name = None
        points = []
        for element in child:
            tag = local(element.tag)
            if tag == "name" and element.text and element.text.strip():
                name = element.text.strip()
            elif kind == "trk" and tag == "trkseg":
                points += [(float(p.get("lat")), float(p.get("lon"))) for p in element if local(p.tag) == "trkpt"]
            elif kind == "rte" and tag == "rtept":
                points.append((float(element.get("lat")), float(element.get("lon"))))
        stages.append((name, points))
    return stages


def kept(stages):
    return [(name, points) for name, points in stages if len(set(points)) >= 2]


def cumulative(points):
    steps = [WGS84.Inverse(*a, *b)["s12"] for a, b in zip(points, points[1:])]
    return [math.fsum(steps[:i]) for i in range(len(points))]


def point_at(points, distances, d):
    i = bisect.bisect_right(distances, d) - 1
    (lat1, lon1), (lat2, lon2) = points[i], points[i + 1]
    offset = d - distances[i]
    if offset == 0:
        return lat1, lon1
    azimuth = WGS84.Inverse(lat1, lon1, lat2, lon2)["azi1"]
    solution = WGS84.Direct(lat1, lon1, azimuth, offset)
    return solution["lat2"], solution["lon2"]


def route_reference(label, stages, nominal=None, sample=None):
    """Lengths and distance markers; with `sample`, only markers at multiples of it and each stage's last."""
    measured = [(name, points, cumulative(points)) for name, points in stages]
    entry = {
        "path": label,
        "stages": [
            {"name": name, "points": len(points), "length": distances[-1]}
            for name, points, distances in measured
        ],
        "markers": [],
    }
    if sample:
        entry["sample"] = sample
    if nominal:
        for stage, length in zip(entry["stages"], nominal):
            stage["nominal"] = length
    for unit, metres in UNITS.items():
        for running in (False, True):
            before = 0.0
            for number, (name, points, distances) in enumerate(measured, start=1):
                length = distances[-1]
                count = max(1, math.floor(before / metres))
                while count * metres - before <= COINCIDENCE:
                    count += 1
                last = count
                while last * metres - before < length - COINCIDENCE:
                    last += 1
                for count in range(count, last):
                    if sample and count % sample != 0 and count != last - 1:
                        continue
                    latitude, longitude = point_at(points, distances, count * metres - before)
                    entry["markers"].append({
                        "unit": unit, "cumulative": running, "stage": number, "distance": count,
                        "latitude": latitude, "longitude": longitude,
                    })
                if running:
                    before += length
    return entry


def walk(start, legs):
    """Points from `start` along (azimuth, metres) legs, each leg one geodesic segment."""
    points = [start]
    for azimuth, metres in legs:
        solution = WGS84.Direct(*points[-1], azimuth, metres)
        points.append((solution["lat2"], solution["lon2"]))
    return points


ABOUT = (f"Generated by Tests/Fixtures/make_reference.py with geographiclib "
         f"{geographiclib.__version__}; do not edit, run the script again.")


def feature_collection(features):
    return {
        "type": "FeatureCollection",
        "about": ABOUT,
        "features": [
            {
                "type": "Feature",
                "properties": {"name": name},
                "geometry": {"type": "LineString", "coordinates": [[lon, lat] for lat, lon in points]},
            }
            for name, points in features
        ],
    }


def write_json(name, value):
    # repr-exact floats: json writes the shortest text that reads back as the same double.
    (HERE / name).write_text(json.dumps(value, indent=1, allow_nan=False) + "\n")


def inverse_case(name, lat1, lon1, lat2, lon2):
    solution = WGS84.Inverse(lat1, lon1, lat2, lon2)
    return {
        "name": name, "lat1": lat1, "lon1": lon1, "lat2": lat2, "lon2": lon2,
        "distance": solution["s12"], "azimuth1": solution["azi1"], "azimuth2": solution["azi2"],
    }


def direct_case(name, lat1, lon1, azimuth, distance):
    solution = WGS84.Direct(lat1, lon1, azimuth, distance)
    return {
        "name": name, "lat1": lat1, "lon1": lon1, "azimuth": azimuth, "distance": distance,
        "lat2": solution["lat2"], "lon2": solution["lon2"],
    }


def main():
    routes = []
    for file in ["korita-zbevnica.gpx", "cerknicko-jezero.gpx", "Mojstrovka.gpx", "route.gpx",
                 "track-with-empty-segment.gpx"]:
        stages = kept(gpx_stages(SHARED_ROUTES / file))
        routes.append(route_reference(f"../shared/routes/{file}", stages))

    # Day 1 and Day 2 of 75 km and 123 km: Day 2 starts where Day 1 ends.
    day1 = walk((46.0514, 14.5060), [(45, 20000), (80, 17500), (120, 25000), (60, 12500)])
    day2 = walk(day1[-1], [(200, 30000), (250, 40000), (170, 33000), (300, 20000)])
    write_json("two-stages.geojson", feature_collection([("Day 1", day1), ("Day 2", day2)]))
    routes.append(route_reference("Tests/Fixtures/two-stages.geojson",
                                  [("Day 1", day1), ("Day 2", day2)], nominal=[75000, 123000]))

    # Across the antimeridian near Fiji, about 4.5 km long.
    crossing = [(-16.80, 179.985), (-16.79, -179.995), (-16.78, -179.98)]
    write_json("antimeridian.geojson",
               {"type": "LineString", "about": ABOUT, "coordinates": [[lon, lat] for lat, lon in crossing]})
    routes.append(route_reference("Tests/Fixtures/antimeridian.geojson", [(None, crossing)]))

    # Half the world along the equator: an antipodal pair, whose geodesic runs over a pole.
    half = [(0.0, 0.0), (0.0, 180.0)]
    write_json("half-the-world.geojson",
               {"type": "LineString", "about": ABOUT, "coordinates": [[lon, lat] for lat, lon in half]})
    routes.append(route_reference("Tests/Fixtures/half-the-world.geojson", [(None, half)], sample=1000))

    inverse = [
        inverse_case("coincident", 46.05, 14.5, 46.05, 14.5),
        inverse_case("one metre", 46.05, 14.5, 46.050009, 14.5),
        inverse_case("track step", 45.380593557, 14.144484317, 45.3807, 14.1446),
        inverse_case("10 km", 46.05, 14.5, 46.12, 14.59),
        inverse_case("1000 km", 40.0, -3.7, 48.85, 2.35),
        inverse_case("10000 km", 51.5, -0.12, -33.9, 18.4),
        inverse_case("19000 km", 40.0, 0.0, -39.0, 170.0),
        inverse_case("equator", 0.0, 0.0, 0.0, 10.0),
        inverse_case("equator 179 degrees", 0.0, 0.0, 0.0, 179.0),
        inverse_case("meridian", 10.0, 20.0, 50.0, 20.0),
        inverse_case("over the north pole", 89.0, 0.0, 89.0, 180.0),
        inverse_case("from the north pole", 90.0, 0.0, 80.0, 30.0),
        inverse_case("pole to pole", 90.0, 0.0, -90.0, 0.0),
        inverse_case("antimeridian on the equator", 0.0, 179.99, 0.0, -179.99),
        inverse_case("antimeridian westwards", 60.0, -179.5, 61.0, 179.5),
        inverse_case("near antipodal", 0.0, 0.0, 0.5, 179.7),
        inverse_case("near antipodal off the equator", 10.0, 0.0, -10.2, 179.8),
        inverse_case("antipodal", 30.0, 0.0, -30.0, 180.0),
        inverse_case("antipodal on the equator", 0.0, 0.0, 0.0, 180.0),
        inverse_case("antipodal on the equator, west", 0.0, 45.0, 0.0, -135.0),
        inverse_case("antipodal, southern start", -45.0, 100.0, 45.0, -80.0),
        inverse_case("a millidegree from antipodal", 0.0, 0.0, 0.001, 179.999),
        inverse_case("nearly antipodal on the equator", 0.0, 0.0, 0.0, 179.5),
        inverse_case("equator 179.9 degrees", 0.0, 0.0, 0.0, 179.9),
    ]
    direct = [
        direct_case("zero distance", 46.05, 14.5, 30.0, 0.0),
        direct_case("10 km north-east", 46.05, 14.5, 45.0, 10000.0),
        direct_case("across the antimeridian", -16.8, 179.99, 90.0, 5000.0),
        direct_case("westwards across the antimeridian", 60.0, -179.99, -80.0, 3000.0),
        direct_case("over the north pole", 89.9, 10.0, 0.0, 50000.0),
        direct_case("along the equator", 0.0, 10.0, 90.0, 1000000.0),
        direct_case("south-west 5000 km", 51.5, -0.12, 225.0, 5000000.0),
        direct_case("backwards", 46.05, 14.5, 45.0, -10000.0),
    ]

    write_json("reference.json", {
        "about": ABOUT,
        "command": "python3 -m pip install geographiclib==2.1 && python3 Tests/Fixtures/make_reference.py",
        "geographiclib": geographiclib.__version__,
        "routes": routes,
        "inverse": inverse,
        "direct": direct,
    })


if __name__ == "__main__":
    main()
