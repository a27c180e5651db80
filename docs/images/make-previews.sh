#!/usr/bin/env bash
# Makes the before/after previews docs/routes.md and the README show: korita-zbevnica.gpx's preview
# page (index.html) in headless Chromium at three zooms, with the app's zoom table (--zooms table)
# and placed on the map (the default); korita turned 45° (minzoomTurned); and a 2,000 km line along
# 45°N at zooms 5, 7 and 9, its distance markers in even steps.
#   docs/images/make-previews.sh [MARKERPAINT]   (default .build/debug/markerpaint)
set -euo pipefail
cd "$(dirname "$0")/../.."
markerpaint=${1:-.build/debug/markerpaint}
route=../shared/routes/korita-zbevnica.gpx
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$markerpaint" route "$route" --themes day --out "$work/fit" >/dev/null
"$markerpaint" route "$route" --themes day --out "$work/table" --zooms table >/dev/null
# zoom, longitude and latitude of each view: the whole route; the first stage's loop; the last two stages.
views=("10 14.0872 45.4300" "12 14.1557 45.3800" "13 14.0185 45.4590")
for view in "${views[@]}"; do
  read -r zoom lon lat <<<"$view"
  for rule in table fit; do
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000 \
      --window-size=480,320 --force-device-scale-factor=2 --screenshot="docs/images/preview-korita-$rule-z$zoom.png" \
      "file://$work/$rule/index.html#z=$zoom&lon=$lon&lat=$lat&theme=day" 2>/dev/null
  done
done
shot() {  # shot NAME URL
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000 \
    --window-size=480,320 --force-device-scale-factor=2 --screenshot="docs/images/$1.png" "$2" 2>/dev/null
}
shot preview-korita-turned-z12 "file://$work/fit/index.html#z=12&lon=14.1557&lat=45.3800&theme=day&b=45"
# The line the placement tests use: 2,000 km east along 45°N, a point every 500 m, gently winding.
python3 -c '
import json, math, sys
points, longitude = [], 0.0
for index in range(4001):
    latitude = 45 + 0.05 * math.sin(index / 200)
    points.append([longitude, latitude])
    longitude += 500 / (111320 * math.cos(math.radians(latitude)))
json.dump({"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": points}}, open(sys.argv[1], "w"))
' "$work/long.geojson"
"$markerpaint" route "$work/long.geojson" --themes day --out "$work/long" >/dev/null
for view in "5 10.5 45.0" "7 3.0 45.0" "9 1.0 45.0"; do
  read -r zoom lon lat <<<"$view"
  shot "preview-long-z$zoom" "file://$work/long/index.html#z=$zoom&lon=$lon&lat=$lat&theme=day"
done
ls -l docs/images/preview-*.png
