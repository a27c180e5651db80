/// The preview page: one self-contained file, no network and no library, so it opens from the
/// output folder as a `file://` page. The data goes where `__DATA__` stands.
///
/// It draws the route and its markers in Web Mercator with MapLibre's zoom numbers (the world is
/// 512·2^z pixels wide), shows a marker only at the integer zooms its `zooms` list (as the style's
/// filter does), uses each marker's @2x or 1x PNG by the screen's pixel ratio with its anchor on the
/// point, and keeps theme, zoom, centre and bearing in the address (`#z=16&lon=…&lat=…&theme=night&b=45`).
/// Turned (a bearing other than 0, as a course-up map turns), the route turns while the pictures stay
/// upright, and the markers show from their `minzoomTurned`, as `--placement course-up` styles do.
/// With an offline pack it draws the corridor and, at the map's zoom, the pack's tiles, with their
/// count against the bounding box's; with a raster PMTiles pack, the pack's own tiles under them (read
/// with byte ranges when the folder is served over http(s), else from the file the reader opens or
/// drops on the page, since a `file://` page cannot read the files beside it).
/// `#state` holds what is drawn, as JSON, for tests and for anyone curious.
enum PreviewTemplate {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>markerpaint preview</title>
        <style>
        html, body { margin: 0; height: 100%; overflow: hidden; font: 13px/1.3 system-ui, sans-serif; }
        canvas { display: block; width: 100%; height: 100%; cursor: grab; touch-action: none; }
        #bar { position: absolute; top: 10px; left: 10px; display: flex; gap: 10px; align-items: center; padding: 6px 10px;
          border-radius: 6px; background: rgba(255,255,255,0.92); color: rgb(35,35,35); box-shadow: 0 1px 3px rgba(0,0,0,0.3); }
        body.night #bar { background: rgba(35,35,35,0.92); color: #fff; }
        #bar button { font: inherit; min-width: 2em; }
        #state, #pack-file { display: none; }
        </style>
        </head>
        <body>
        <canvas id="map"></canvas>
        <div id="bar">
          <strong id="title"></strong>
          <span id="zoom"></span>
          <span id="count"></span>
          <span id="offline"></span>
          <button id="pack" hidden title="Open the offline pack (offline/basemap-….pmtiles) to draw its tiles"></button>
          <input id="pack-file" type="file" accept=".pmtiles">
          <button id="out" title="Zoom out (-)">−</button>
          <button id="in" title="Zoom in (+)">+</button>
          <button id="theme" title="Switch theme (t)"></button>
          <button id="turn" title="Turn the map 15° (r; R back, n north up)">↻</button>
        </div>
        <pre id="state"></pre>
        <script id="data" type="application/json">__DATA__</script>
        <script>
        "use strict";
        const data = JSON.parse(document.getElementById("data").textContent);
        const canvas = document.getElementById("map");
        const context = canvas.getContext("2d");
        const tile = 512;
        const maximumZoom = 22;
        const project = (lon, lat) => {
          const sin = Math.sin(lat * Math.PI / 180);
          return [(lon + 180) / 360, 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)];
        };
        const unproject = ([x, y]) => [x * 360 - 180, Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180 / Math.PI];
        // Starts, ends and combined markers over distance markers, as the style's symbol-sort-key has it.
        const markers = data.markers.map((marker) => ({ ...marker, world: project(marker.lon, marker.lat) }))
          .sort((a, b) => a.top - b.top);
        const pins = (data.pins ?? []).map((pin) => ({ ...pin, world: project(pin.lon, pin.lat) }));
        const stages = data.stages.map((stage) => stage.map(([lon, lat]) => project(lon, lat)));
        // A corridor ring across the antimeridian is drawn where the route is: its longitudes unwrapped.
        const corridor = (data.offline?.corridor ?? []).map((polygon) => polygon.map((ring) => ring.map(([lon, lat]) => project(lon, lat))));
        const params = new URLSearchParams(location.hash.slice(1));
        let theme = data.themes.includes(params.get("theme")) ? params.get("theme") : data.themes[0];
        let zoom = 0;
        let centre = [0.5, 0.5];
        // Degrees the map is turned: the direction at the top of the page, clockwise from north.
        let bearing = ((Number(params.get("b")) || 0) % 360 + 360) % 360;
        // The pin whose callout is open (0: none), as the style's callout filter selects it.
        let selected = Number(params.get("pin")) || 0;
        // Where each pin shown was drawn, for taps: [pin, left, top, right, bottom] in page pixels.
        let pinBoxes = [];
        // A screen offset from the centre, turned by `degrees` (the map's bearing to draw, minus it to undo).
        const turn = ([dx, dy], degrees) => {
          const radians = degrees * Math.PI / 180, sine = Math.sin(radians), cosine = Math.cos(radians);
          return [dx * cosine + dy * sine, -dx * sine + dy * cosine];
        };

        (function fit() {
          let [minX, minY, maxX, maxY] = [1, 1, 0, 0];
          const points = stages.flat().concat(markers.map((marker) => marker.world));
          for (const [x, y] of points) {
            minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
          }
          if (points.length === 0) return;
          centre = [(minX + maxX) / 2, (minY + maxY) / 2];
          const width = Math.max(1, innerWidth - 160), height = Math.max(1, innerHeight - 160);
          const span = Math.max((maxX - minX) * tile / width, (maxY - minY) * tile / height, 1e-12);
          zoom = Math.log2(1 / span);
        })();
        if (params.has("z")) zoom = Number(params.get("z"));
        if (params.has("lon") && params.has("lat")) centre = project(Number(params.get("lon")), Number(params.get("lat")));
        zoom = Math.min(maximumZoom, Math.max(0, Number.isFinite(zoom) ? zoom : 0));

        const images = new Map();
        function image(file) {
          let loaded = images.get(file);
          if (!loaded) {
            loaded = new Image();
            loaded.onload = () => requestAnimationFrame(draw);
            loaded.src = file;
            images.set(file, loaded);
          }
          return loaded;
        }

        // The offline pack's basemap: a PMTiles v3 archive of raster tiles, read by byte ranges.
        const basemapInfo = data.offline?.basemap ?? null;
        const basemap = { reader: null, source: "none", error: null, tiles: new Map() };
        const readBlob = (blob) => (offset, length) => blob.slice(offset, offset + length).arrayBuffer().then((buffer) => new Uint8Array(buffer));
        async function readURL(url) {
          // A server that ignores Range (python3 -m http.server) answers 200: then the whole file is read once.
          const first = await fetch(url, { headers: { Range: "bytes=0-126" } });
          if (first.status === 200) return readBlob(await first.blob());
          if (first.status !== 206) throw new Error(`${url} answered ${first.status}`);
          return async (offset, length) => {
            const response = await fetch(url, { headers: { Range: `bytes=${offset}-${offset + length - 1}` } });
            if (response.status !== 206) throw new Error(`${url} answered ${response.status} for a byte range`);
            return new Uint8Array(await response.arrayBuffer());
          };
        }
        async function inflate(bytes, compression) {
          if (compression === 0 || compression === 1) return bytes;
          if (compression !== 2) throw new Error(`compression ${compression} is not read here`);
          const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
          return new Uint8Array(await new Response(stream).arrayBuffer());
        }
        function directory(bytes) {
          let at = 0;
          const varint = () => {
            let value = 0, scale = 1;
            for (;;) {
              if (at >= bytes.length || scale > 2 ** 56) throw new Error("a broken directory");
              const byte = bytes[at++];
              value += (byte & 0x7f) * scale;
              if (byte < 0x80) return value;
              scale *= 128;
            }
          };
          const count = varint();
          if (count > bytes.length) throw new Error("a broken directory");
          const entries = [];
          let id = 0;
          for (let i = 0; i < count; i++) { id += varint(); entries.push({ id, run: 0, length: 0, offset: 0 }); }
          for (const entry of entries) entry.run = varint();
          for (const entry of entries) entry.length = varint();
          entries.forEach((entry, i) => {
            const value = varint();
            entry.offset = value === 0 && i > 0 ? entries[i - 1].offset + entries[i - 1].length : value - 1;
          });
          return entries;
        }
        // Tiles of every lower zoom, then the Hilbert curve's index at this one.
        function tileID(z, x, y) {
          let id = (4 ** z - 1) / 3;
          for (let side = 2 ** (z - 1); side >= 1; side /= 2) {
            const rx = (x & side) ? 1 : 0, ry = (y & side) ? 1 : 0;
            id += side * side * ((3 * rx) ^ ry);
            if (ry === 0) [x, y] = rx ? [side - 1 - y, side - 1 - x] : [y, x];
          }
          return id;
        }
        async function openPack(read) {
          const head = await read(0, 127);
          if (head.length < 127 || String.fromCharCode(...head.subarray(0, 7)) !== "PMTiles" || head[7] !== 3) throw new Error("not a PMTiles v3 archive");
          const view = new DataView(head.buffer, head.byteOffset, 127);
          const at = (offset) => Number(view.getBigUint64(offset, true));
          const header = { root: [at(8), at(16)], leaves: at(40), data: at(56), internal: head[97], compression: head[98] };
          const directories = new Map();
          const list = (offset, length) => {
            if (!directories.has(offset)) directories.set(offset, read(offset, length).then((bytes) => inflate(bytes, header.internal)).then(directory));
            return directories.get(offset);
          };
          // The tile's bytes, or null where the pack has none (the source lacked it).
          return async (z, x, y) => {
            const id = tileID(z, x, y);
            let [offset, length] = header.root;
            for (let depth = 0; depth < 4; depth++) {
              const entries = await list(offset, length);
              let low = 0, high = entries.length - 1, found = -1;
              while (low <= high) {
                const middle = (low + high) >> 1;
                if (entries[middle].id <= id) { found = middle; low = middle + 1; } else high = middle - 1;
              }
              if (found < 0) return null;
              const entry = entries[found];
              if (entry.run === 0) { [offset, length] = [header.leaves + entry.offset, entry.length]; continue; }
              if (id >= entry.id + entry.run) return null;
              return inflate(await read(header.data + entry.offset, entry.length), header.compression);
            }
            return null;
          };
        }
        function usePack(read, source) {
          basemap.tiles.clear();
          basemap.error = null;
          basemap.source = source;
          basemap.reader = openPack(read).catch((error) => { basemap.error = String(error.message ?? error); basemap.reader = null; draw(); });
          draw();
        }
        function basemapTile(z, x, y) {
          const key = `${z}/${x}/${y}`;
          if (!basemap.tiles.has(key)) {
            basemap.tiles.set(key, { state: "loading" });
            basemap.reader.then((tileAt) => tileAt?.(z, x, y))
              .then((bytes) => bytes ? createImageBitmap(new Blob([bytes])) : null)
              .then((bitmap) => basemap.tiles.set(key, bitmap ? { state: "drawn", bitmap } : { state: "absent" }))
              .catch(() => basemap.tiles.set(key, { state: "broken" }))
              .finally(() => requestAnimationFrame(draw));
          }
          return basemap.tiles.get(key);
        }
        const packButton = document.getElementById("pack");
        const packFile = document.getElementById("pack-file");
        packButton.onclick = () => packFile.click();
        packFile.onchange = () => { if (packFile.files[0]) usePack(readBlob(packFile.files[0]), "file"); };
        canvas.addEventListener("dragover", (event) => event.preventDefault());
        canvas.addEventListener("drop", (event) => {
          event.preventDefault();
          const file = event.dataTransfer.files[0];
          if (file && basemapInfo) usePack(readBlob(file), "file");
        });
        if (basemapInfo?.format === "pmtiles" && basemapInfo.raster) {
          if (location.protocol === "http:" || location.protocol === "https:") {
            readURL(basemapInfo.file).then((read) => usePack(read, "http"), (error) => { basemap.error = String(error.message ?? error); draw(); });
          }
        }

        function draw() {
          const dpr = window.devicePixelRatio || 1;
          const ratio = dpr >= 1.5 ? 2 : 1;
          canvas.width = Math.round(innerWidth * dpr);
          canvas.height = Math.round(innerHeight * dpr);
          context.setTransform(dpr, 0, 0, dpr, 0, 0);
          document.body.className = theme;
          const night = theme === "night";
          context.fillStyle = night ? "#1f2226" : "#f2efe9";
          context.fillRect(0, 0, innerWidth, innerHeight);
          const scale = tile * 2 ** zoom;
          // Tiles, corridor and route are drawn north up on a canvas turned about the centre;
          // markers are placed at their turned points, upright.
          const screen = ([x, y]) => [(x - centre[0]) * scale + innerWidth / 2, (y - centre[1]) * scale + innerHeight / 2];
          const turned = (point) => {
            const [x, y] = screen(point);
            const [dx, dy] = turn([x - innerWidth / 2, y - innerHeight / 2], bearing);
            return [dx + innerWidth / 2, dy + innerHeight / 2];
          };
          // Turned, anything within the page's half-diagonal of the centre may show.
          const reach = bearing === 0 ? 0 : Math.hypot(innerWidth, innerHeight) / 2 - Math.min(innerWidth, innerHeight) / 2;
          context.save();
          if (bearing !== 0) {
            context.translate(innerWidth / 2, innerHeight / 2);
            context.rotate(-bearing * Math.PI / 180);
            context.translate(-innerWidth / 2, -innerHeight / 2);
          }

          // The offline pack under the route: the tiles of this zoom, then the corridor.
          let offline = null;
          if (data.offline) {
            const levels = data.offline.levels;
            const level = levels.find((l) => l.zoom === Math.min(levels.at(-1).zoom, Math.max(levels[0].zoom, Math.floor(zoom + 1e-9))));
            const size = scale / 2 ** level.tileZoom;
            context.fillStyle = night ? "rgba(255,196,0,0.16)" : "rgba(230,120,0,0.14)";
            context.strokeStyle = night ? "rgba(255,196,0,0.55)" : "rgba(200,90,0,0.5)";
            context.lineWidth = 1;
            let drawn = 0;
            const pictures = { drawn: 0, loading: 0, absent: 0, broken: 0 };
            for (const [y, first, last] of level.runs) {
              const [left, top] = screen([first / 2 ** level.tileZoom, y / 2 ** level.tileZoom]);
              if (top > innerHeight + reach || top + size < -reach) continue;
              for (let x = first; x <= last; x++) {
                const l = left + (x - first) * size;
                if (l > innerWidth + reach || l + size < -reach) continue;
                const picture = basemap.reader ? basemapTile(level.tileZoom, x, y) : null;
                if (picture) pictures[picture.state]++;
                if (picture?.state === "drawn") {
                  context.drawImage(picture.bitmap, l, top, size, size);
                } else {
                  context.fillRect(l, top, size, size);
                  if (size >= 6) context.strokeRect(l + 0.5, top + 0.5, size - 1, size - 1);
                }
                drawn++;
              }
            }
            context.strokeStyle = night ? "rgba(120,220,140,0.9)" : "rgba(20,140,60,0.9)";
            context.lineWidth = 2;
            for (const polygon of corridor) {
              context.beginPath();
              for (const ring of polygon) {
                ring.forEach((point, index) => {
                  const [x, y] = screen(point);
                  if (index === 0) context.moveTo(x, y); else context.lineTo(x, y);
                });
                context.closePath();
              }
              context.stroke();
            }
            offline = { zoom: level.zoom, tileZoom: level.tileZoom, tiles: level.count, box: level.boxCount, drawn,
              basemap: basemapInfo ? { source: basemap.source, error: basemap.error, ...pictures } : null };
          }

          context.lineWidth = 4;
          context.lineJoin = context.lineCap = "round";
          context.strokeStyle = night ? "#4f9dff" : "#2f6fdb";
          for (const stage of stages) {
            context.beginPath();
            stage.forEach((point, index) => {
              const [x, y] = screen(point);
              if (index === 0) context.moveTo(x, y); else context.lineTo(x, y);
            });
            context.stroke();
          }
          context.restore();

          // The style's filter is evaluated at integer zooms; turned, from minzoomTurned.
          const filterZoom = Math.floor(zoom + 1e-9);
          // A picture with its anchor `lift` points above (x, y), in whole device pixels so that it is
          // drawn as sharp as its PNG; @2x on a high-density screen, 1x elsewhere, else the largest.
          const drawPicture = (id, x, y, lift = 0) => {
            const scales = data.icons[id];
            const icon = scales[ratio] ?? scales[Object.keys(scales).sort().at(-1)];
            const picture = image(icon.file);
            const left = Math.round((x - icon.anchorX / icon.scale) * dpr) / dpr;
            const top = Math.round((y - lift - icon.anchorY / icon.scale) * dpr) / dpr;
            if (picture.complete && picture.naturalWidth > 0) context.drawImage(picture, left, top, icon.width / icon.scale, icon.height / icon.scale);
          };
          const shown = [];
          for (const marker of markers) {
            if (bearing === 0 ? !marker.zooms.includes(filterZoom) : marker.turned > filterZoom) continue;
            const [x, y] = turned(marker.world);
            if (x < -400 || y < -400 || x > innerWidth + 400 || y > innerHeight + 400) continue;
            drawPicture(marker.icon[theme], x, y);
            shown.push(marker.label);
          }

          // Pins over the markers, and the open callout over everything, its tail's tip the pin's
          // height and 2 points above the point (as the style's callout layer draws it).
          const shownPins = [];
          pinBoxes = [];
          for (const pin of pins) {
            if (bearing === 0 ? !pin.zooms.includes(filterZoom) : pin.turned > filterZoom) continue;
            const [x, y] = turned(pin.world);
            if (x < -400 || y < -400 || x > innerWidth + 400 || y > innerHeight + 400) continue;
            // The tap target is the teardrop, not its shadow: 24 × 32 above the tip.
            drawPicture(pin.icon[theme], x, y);
            pinBoxes.push([pin.pin, x - 12, y - 32, x + 12, y]);
            shownPins.push(pin.pin);
          }
          const open = pins.find((pin) => pin.pin === selected);
          if (open) drawPicture(open.callout[theme], ...turned(open.world), data.calloutLift);

          document.getElementById("title").textContent = data.title;
          document.getElementById("zoom").textContent = `zoom ${zoom.toFixed(2)} (markers of zoom ${filterZoom}`
            + (bearing === 0 ? ")" : `, turned ${bearing}°: minzoomTurned)`);
          document.getElementById("count").textContent = `${shown.length} of ${markers.length} markers`
            + (pins.length ? `, ${shownPins.length} of ${pins.length} pins` : "");
          document.getElementById("offline").textContent = offline
            ? `offline: ${offline.tiles.toLocaleString("en")} tiles at zoom ${offline.zoom} (the box: ${offline.box.toLocaleString("en")})`
              + (basemap.error ? ` · the pack: ${basemap.error}` : "") : "";
          // A file:// page cannot read the pack beside it: the reader opens it (or drops it on the map).
          const drawable = basemapInfo?.format === "pmtiles" && basemapInfo.raster;
          packButton.hidden = !basemapInfo || basemap.source === "http";
          packButton.disabled = !drawable;
          packButton.textContent = !basemapInfo ? "" : !drawable
            ? `${basemapInfo.format === "pmtiles" ? "vector" : "MBTiles"} pack: open offline/style.json in MapLibre`
            : basemap.source === "file" ? "another pack…" : `open ${basemapInfo.file}`;
          const switcher = document.getElementById("theme");
          switcher.hidden = data.themes.length < 2;
          switcher.textContent = data.themes[(data.themes.indexOf(theme) + 1) % data.themes.length] ?? "";
          document.getElementById("state").textContent = JSON.stringify({ theme, zoom, filterZoom, bearing, shown, pins: shownPins, selected, offline });
          const [lon, lat] = unproject(centre);
          history.replaceState(null, "", `#z=${zoom.toFixed(2)}&lon=${lon.toFixed(6)}&lat=${lat.toFixed(6)}&theme=${theme}`
            + (bearing ? `&b=${bearing}` : "") + (selected ? `&pin=${selected}` : ""));
        }

        function zoomBy(delta, [px, py] = [innerWidth / 2, innerHeight / 2]) {
          const before = tile * 2 ** zoom;
          const [ox, oy] = turn([px - innerWidth / 2, py - innerHeight / 2], -bearing);
          const anchor = [centre[0] + ox / before, centre[1] + oy / before];
          zoom = Math.min(maximumZoom, Math.max(0, zoom + delta));
          const after = tile * 2 ** zoom;
          centre = [anchor[0] - ox / after, anchor[1] - oy / after];
          draw();
        }
        canvas.addEventListener("wheel", (event) => {
          event.preventDefault();
          zoomBy(-event.deltaY / 300, [event.clientX, event.clientY]);
        }, { passive: false });
        let drag = null;
        // A tap (a press that barely moves) on a pin opens its callout; anywhere else closes it.
        let press = null;
        canvas.addEventListener("pointerdown", (event) => {
          drag = [event.clientX, event.clientY];
          press = [event.clientX, event.clientY];
          canvas.setPointerCapture(event.pointerId);
        });
        canvas.addEventListener("pointerup", (event) => {
          drag = null;
          if (!press || Math.hypot(event.clientX - press[0], event.clientY - press[1]) > 4) return;
          const [x, y] = [event.clientX, event.clientY];
          // The last drawn is on top.
          const hit = pinBoxes.findLast(([, left, top, right, bottom]) => x >= left && x <= right && y >= top && y <= bottom);
          selected = hit ? hit[0] : 0;
          draw();
        });
        canvas.addEventListener("pointermove", (event) => {
          if (!drag) return;
          const scale = tile * 2 ** zoom;
          const [dx, dy] = turn([event.clientX - drag[0], event.clientY - drag[1]], -bearing);
          centre = [centre[0] - dx / scale, centre[1] - dy / scale];
          drag = [event.clientX, event.clientY];
          draw();
        });
        document.getElementById("in").onclick = () => zoomBy(1);
        document.getElementById("out").onclick = () => zoomBy(-1);
        document.getElementById("theme").onclick = () => {
          theme = data.themes[(data.themes.indexOf(theme) + 1) % data.themes.length];
          draw();
        };
        const turnBy = (degrees) => { bearing = ((bearing + degrees) % 360 + 360) % 360; draw(); };
        document.getElementById("turn").onclick = () => turnBy(15);
        addEventListener("keydown", (event) => {
          if (event.key === "r") turnBy(15);
          if (event.key === "R") turnBy(-15);
          if (event.key === "n") turnBy(-bearing);
          if (event.key === "+" || event.key === "=") zoomBy(1);
          if (event.key === "-") zoomBy(-1);
          if (event.key === "t") document.getElementById("theme").click();
        });
        addEventListener("resize", draw);
        draw();
        </script>
        </body>
        </html>

        """#
}
