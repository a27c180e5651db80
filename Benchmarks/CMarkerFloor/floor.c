#include "CMarkerFloor.h"

#include <fcntl.h>
#include <libdeflate.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct floor_state {
    cairo_surface_t *canvas;
    cairo_t *cr;
    struct libdeflate_compressor *compressor;
    uint8_t *scanlines, *zlib, *png;
    uint8_t unpremultiplied[256 * 256];
    size_t scanlines_size, zlib_size, png_size;
};

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void *grow(uint8_t **buffer, size_t *size, size_t needed) {
    if (*size >= needed) return *buffer;
    free(*buffer);
    *buffer = malloc(needed);
    *size = *buffer ? needed : 0;
    return *buffer;
}

floor_state *floor_new(int level) {
    floor_state *state = calloc(1, sizeof *state);
    if (!state) return NULL;
    // By table, Cairo's rounding: row alpha, column premultiplied value.
    for (int alpha = 1; alpha < 256; alpha++)
        for (int value = 0; value <= alpha; value++)
            state->unpremultiplied[alpha << 8 | value] = (uint8_t)((value * 255 + alpha / 2) / alpha);
    state->compressor = libdeflate_alloc_compressor(level);
    if (!state->compressor) { free(state); return NULL; }
    return state;
}

void floor_free(floor_state *state) {
    if (!state) return;
    if (state->cr) cairo_destroy(state->cr);
    if (state->canvas) cairo_surface_destroy(state->canvas);
    libdeflate_free_compressor(state->compressor);
    free(state->scanlines);
    free(state->zlib);
    free(state->png);
    free(state);
}

static void source(cairo_t *cr, floor_colour c) { cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha); }

static void rounded(cairo_t *cr, floor_rect r, double radius) {
    double x1 = r.x + r.width, y1 = r.y + r.height;
    radius = fmin(radius, fmin(r.width / 2, r.height / 2));
    cairo_new_sub_path(cr);
    cairo_arc(cr, x1 - radius, r.y + radius, radius, -M_PI / 2, 0);
    cairo_arc(cr, x1 - radius, y1 - radius, radius, 0, M_PI / 2);
    cairo_arc(cr, r.x + radius, y1 - radius, radius, M_PI / 2, M_PI);
    cairo_arc(cr, r.x + radius, r.y + radius, radius, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}

static void draw_background(cairo_t *cr, const floor_marker *m) {
    cairo_new_path(cr);
    cairo_save(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
    cairo_paint(cr);
    cairo_restore(cr);
    source(cr, m->shadow);
    cairo_mask_surface(cr, m->shadow_mask, 0, 0);

    double b = m->border_width;
    rounded(cr, m->pill, m->corner_radius);
    source(cr, m->pill_fill);
    cairo_fill(cr);
    floor_rect inner = { m->pill.x + b / 2, m->pill.y + b / 2, m->pill.width - b, m->pill.height - b };
    rounded(cr, inner, m->corner_radius - b / 2);
    source(cr, m->pill_border);
    cairo_set_line_width(cr, b);
    cairo_stroke(cr);

    cairo_new_sub_path(cr);
    cairo_arc(cr, m->dot_x, m->dot_y, m->dot_radius, 0, 2 * M_PI);
    cairo_close_path(cr);
    source(cr, m->dot_fill);
    cairo_fill(cr);
    cairo_new_sub_path(cr);
    cairo_arc(cr, m->dot_x, m->dot_y, m->dot_radius - b / 2, 0, 2 * M_PI);
    cairo_close_path(cr);
    source(cr, m->dot_border);
    cairo_set_line_width(cr, b);
    cairo_stroke(cr);
}

/// The kept background's pixels copied onto the canvas, as markerpaint's renderer copies them.
static void copy_background(cairo_t *cr, const floor_marker *m) {
    cairo_surface_t *canvas = cairo_get_target(cr);
    cairo_surface_flush(m->background);
    cairo_surface_flush(canvas);
    memcpy(cairo_image_surface_get_data(canvas), cairo_image_surface_get_data(m->background),
           (size_t)cairo_image_surface_get_stride(canvas) * (size_t)m->height);
    cairo_surface_mark_dirty(canvas);
}

static void draw_foreground(cairo_t *cr, const floor_marker *m) {
    cairo_new_path(cr);
    if (m->divider_count > 0) {
        for (int i = 0; i < m->divider_count; i++) {
            floor_rect d = m->dividers[i];
            cairo_rectangle(cr, d.x, d.y, d.width, d.height);
        }
        source(cr, m->pill_border);
        cairo_fill(cr);
    }

    for (int i = 0; i < m->label_count; i++) {
        const floor_label *label = &m->labels[i];
        cairo_save(cr);
        cairo_translate(cr, label->x, label->y);
        cairo_scale(cr, label->scale, label->scale);
        source(cr, m->label);
        for (int r = 0; r < label->run_count; r++) {
            cairo_set_scaled_font(cr, label->runs[r].font);
            cairo_show_glyphs(cr, label->runs[r].glyphs, label->runs[r].count);
        }
        cairo_restore(cr);
    }

    for (int i = 0; i < m->icon_count; i++) {
        floor_rect r = m->icons[i].rect;
        source(cr, m->label);
        if (m->icons[i].kind == 0) {
            cairo_new_sub_path(cr);
            cairo_move_to(cr, r.x, r.y);
            cairo_line_to(cr, r.x + r.width, r.y + r.height / 2);
            cairo_line_to(cr, r.x, r.y + r.height);
            cairo_close_path(cr);
            cairo_fill(cr);
        } else {
            double s = m->scale, square = 2 * s;
            cairo_rectangle(cr, r.x, r.y, s, r.height);
            cairo_fill(cr);
            for (int row = 0; row < 2; row++) {
                for (int column = 0; column < 3; column++) {
                    cairo_rectangle(cr, r.x + s + column * square, r.y + row * square, square, square);
                    floor_colour c = m->label;
                    if ((row + column) % 2) c.alpha *= 0.3;
                    source(cr, c);
                    cairo_fill(cr);
                }
            }
        }
    }
    cairo_surface_flush(cairo_get_target(cr));
}

static void put32(uint8_t *p, uint32_t v) {
    p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}

long floor_encode(floor_state *s, const floor_marker *m, floor_times *times, const uint8_t **png) {
    double t0 = now_ns();
    if (!s->canvas || cairo_image_surface_get_width(s->canvas) != m->width || cairo_image_surface_get_height(s->canvas) != m->height) {
        if (s->cr) cairo_destroy(s->cr);
        if (s->canvas) cairo_surface_destroy(s->canvas);
        s->canvas = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, m->width, m->height);
        s->cr = cairo_create(s->canvas);
    }
    if (m->background) copy_background(s->cr, m);
    else draw_background(s->cr, m);
    draw_foreground(s->cr, m);
    if (cairo_status(s->cr) != CAIRO_STATUS_SUCCESS) return -1;
    double t1 = now_ns();

    // Grey+alpha with Cairo's rounding, every built-in theme's marker being grey.
    size_t row_bytes = 2 * (size_t)m->width, raw = (row_bytes + 1) * (size_t)m->height;
    if (!grow(&s->scanlines, &s->scanlines_size, raw)) return -1;
    const uint8_t *data = cairo_image_surface_get_data(s->canvas);
    int stride = cairo_image_surface_get_stride(s->canvas);
    for (int y = 0; y < m->height; y++) {
        const uint32_t *in = (const uint32_t *)(data + (size_t)y * stride);
        uint8_t *out = s->scanlines + (size_t)y * (row_bytes + 1);
        *out++ = 0;
        for (int x = 0; x < m->width; x++) {
            uint32_t pixel = in[x];
            out[2 * x] = s->unpremultiplied[(pixel >> 24) << 8 | (pixel & 0xFF)];
            out[2 * x + 1] = (uint8_t)(pixel >> 24);
        }
    }
    double t2 = now_ns();

    size_t bound = libdeflate_zlib_compress_bound(s->compressor, raw);
    if (!grow(&s->zlib, &s->zlib_size, bound)) return -1;
    size_t size = libdeflate_zlib_compress(s->compressor, s->scanlines, raw, s->zlib, bound);
    if (size == 0) return -1;
    double t3 = now_ns();

    size_t total = 8 + 25 + 12 + size + 12;
    if (!grow(&s->png, &s->png_size, total)) return -1;
    uint8_t *p = s->png;
    memcpy(p, "\x89PNG\r\n\x1a\n", 8);
    put32(p + 8, 13);
    memcpy(p + 12, "IHDR", 4);
    put32(p + 16, (uint32_t)m->width);
    put32(p + 20, (uint32_t)m->height);
    p[24] = 8; p[25] = 4; p[26] = 0; p[27] = 0; p[28] = 0;
    put32(p + 29, libdeflate_crc32(0, p + 12, 17));
    put32(p + 33, (uint32_t)size);
    memcpy(p + 37, "IDAT", 4);
    memcpy(p + 41, s->zlib, size);
    put32(p + 41 + size, libdeflate_crc32(0, p + 37, size + 4));
    memcpy(p + 45 + size, "\0\0\0\0IEND\xae\x42\x60\x82", 12);
    double t4 = now_ns();

    times->draw += t1 - t0;
    times->unpremultiply += t2 - t1;
    times->deflate += t3 - t2;
    times->frame += t4 - t3;
    *png = s->png;
    return (long)total;
}

int floor_write(int directory, const char *name, const uint8_t *bytes, size_t length) {
    int fd = openat(directory, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    ssize_t written = write(fd, bytes, length);
    int closed = close(fd);
    return written == (ssize_t)length && closed == 0 ? 0 : -1;
}
