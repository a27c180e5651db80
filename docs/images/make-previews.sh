#!/usr/bin/env bash
# Makes the before/after previews docs/routes.md and the README show: korita-zbevnica.gpx's preview
# page (index.html) in headless Chromium at three zooms, with the app's zoom table (--zooms table)
# and placed on the map (the default).
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
ls -l docs/images/preview-korita-*.png
