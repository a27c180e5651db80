// The benchmark's floor: the same Cairo drawing, unpremultiply, libdeflate and file write a
// marker costs, made from C with nothing in between, so the Swift path can be compared with it.
#ifndef MARKERPAINT_CMARKERFLOOR_H
#define MARKERPAINT_CMARKERFLOOR_H
#include <cairo.h>
#include <stddef.h>
#include <stdint.h>

typedef struct { double x, y, width, height; } floor_rect;
typedef struct { double red, green, blue, alpha; } floor_colour;

/// One run of glyphs in one Cairo font, positioned in label space (points).
typedef struct {
    cairo_scaled_font_t *font;
    const cairo_glyph_t *glyphs;
    int count;
} floor_glyph_run;

/// A label: its top-left corner in pixels, the scale to points, and its runs.
typedef struct {
    double x, y, scale;
    const floor_glyph_run *runs;
    int run_count;
} floor_label;

/// An icon: 0 play triangle, 1 checkered flag.
typedef struct { int kind; floor_rect rect; } floor_icon;

/// Every Cairo call one marker's drawing makes, as data.
typedef struct {
    int width, height;
    double scale;
    cairo_surface_t *shadow_mask;
    /// The marker's kept background (shadow, pill, dot) to copy, or NULL to paint it.
    cairo_surface_t *background;
    floor_colour shadow, pill_fill, pill_border, label, dot_fill, dot_border;
    floor_rect pill;
    double corner_radius, border_width;
    double dot_x, dot_y, dot_radius;
    const floor_rect *dividers;
    int divider_count;
    const floor_label *labels;
    int label_count;
    const floor_icon *icons;
    int icon_count;
} floor_marker;

/// Per-step times of one marker, in nanoseconds.
typedef struct { double draw, unpremultiply, deflate, frame; } floor_times;

typedef struct floor_state floor_state;

floor_state *floor_new(int level);
void floor_free(floor_state *state);

/// Draws `marker`, unpremultiplies it into grey+alpha scanlines, deflates them and frames the
/// PNG (CRCs included). Returns the PNG's length (its bytes at `*png`, valid until the next
/// call), or -1.
long floor_encode(floor_state *state, const floor_marker *marker, floor_times *times, const uint8_t **png);

/// Writes `length` bytes as a new file `name` in the folder `directory`: open, write, close.
int floor_write(int directory, const char *name, const uint8_t *bytes, size_t length);

#endif
