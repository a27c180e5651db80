// The naive single-marker program markerpaint's start-to-exit time is compared with: the same
// end marker (`markerpaint --distance 123 --end --dark`, @2x) drawn the straightforward way in C
// (a Pango layout for the label, a Gaussian-blurred shadow, cairo_surface_write_to_png), written
// to the path given, which it prints. Usage: naive-marker OUT.png
#include <cairo.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void rounded(cairo_t *cr, double x, double y, double w, double h, double r) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}

/// A separable Gaussian blur of an A8 surface, σ in pixels, three σ each side.
static void blur(cairo_surface_t *surface, double sigma) {
    cairo_surface_flush(surface);
    int w = cairo_image_surface_get_width(surface), h = cairo_image_surface_get_height(surface);
    int stride = cairo_image_surface_get_stride(surface), radius = (int)ceil(3 * sigma);
    unsigned char *data = cairo_image_surface_get_data(surface);
    double *kernel = malloc(sizeof(double) * (2 * radius + 1)), sum = 0;
    for (int i = -radius; i <= radius; i++) sum += kernel[i + radius] = exp(-(double)(i * i) / (2 * sigma * sigma));
    for (int i = 0; i <= 2 * radius; i++) kernel[i] /= sum;
    double *tmp = calloc((size_t)w * h, sizeof(double));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double v = 0;
            for (int k = -radius; k <= radius; k++)
                if (x + k >= 0 && x + k < w) v += kernel[k + radius] * data[y * stride + x + k];
            tmp[y * w + x] = v;
        }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double v = 0;
            for (int k = -radius; k <= radius; k++)
                if (y + k >= 0 && y + k < h) v += kernel[k + radius] * tmp[(y + k) * w + x];
            data[y * stride + x] = (unsigned char)fmin(255, v + 0.5);
        }
    free(tmp);
    free(kernel);
    cairo_surface_mark_dirty(surface);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: naive-marker OUT.png\n");
        return 2;
    }
    const double s = 2;
    // The label, laid out by Pango: "123" in Inter Medium 12pt, then "km" at 7pt raised 2.5pt.
    PangoFontMap *map = pango_cairo_font_map_get_default();
    PangoContext *context = pango_font_map_create_context(map);
    PangoLayout *layout = pango_layout_new(context);
    pango_layout_set_text(layout, "123km", -1);
    PangoAttrList *attributes = pango_attr_list_new();
    PangoFontDescription *number = pango_font_description_from_string("Inter Medium");
    pango_font_description_set_absolute_size(number, 12 * PANGO_SCALE);
    PangoFontDescription *unit = pango_font_description_copy(number);
    pango_font_description_set_absolute_size(unit, 7 * PANGO_SCALE);
    PangoAttribute *a = pango_attr_font_desc_new(number);
    a->start_index = 0, a->end_index = 3;
    pango_attr_list_insert(attributes, a);
    a = pango_attr_font_desc_new(unit);
    a->start_index = 3, a->end_index = 5;
    pango_attr_list_insert(attributes, a);
    a = pango_attr_rise_new((int)(2.5 * PANGO_SCALE));
    a->start_index = 3, a->end_index = 5;
    pango_attr_list_insert(attributes, a);
    pango_layout_set_attributes(layout, attributes);
    PangoRectangle logical;
    pango_layout_get_extents(layout, NULL, &logical);
    double textWidth = (double)logical.width / PANGO_SCALE, textHeight = (double)logical.height / PANGO_SCALE;

    double content = textWidth + 2 + 7;  // label, gap, flag
    int pillWidth = (int)ceil(fmax(28, content + 8) * s);
    pillWidth += pillWidth % 2;
    double pillHeight = 20 * s, left = 5 * s, top = 4 * s;
    int width = pillWidth + (int)(2 * left), height = (int)(top + (19 + 6 + 6) * s);

    // The shadow: pill and dot, 1pt lower, blurred with σ 1.5pt.
    cairo_surface_t *shadow = cairo_image_surface_create(CAIRO_FORMAT_A8, width, height);
    cairo_t *sc = cairo_create(shadow);
    rounded(sc, left, top + s, pillWidth, pillHeight, 3 * s);
    cairo_new_sub_path(sc);
    cairo_arc(sc, left + pillWidth / 2, top + 22 * s + s, 3 * s, 0, 2 * M_PI);
    cairo_fill(sc);
    cairo_destroy(sc);
    blur(shadow, 1.5 * s);

    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgba(cr, 0, 0, 0, 0.30);
    cairo_mask_surface(cr, shadow, 0, 0);
    rounded(cr, left, top, pillWidth, pillHeight, 3 * s);
    cairo_set_source_rgba(cr, 35 / 255.0, 35 / 255.0, 35 / 255.0, 0.85);
    cairo_fill(cr);
    rounded(cr, left + s / 2, top + s / 2, pillWidth - s, pillHeight - s, 3 * s - s / 2);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.30);
    cairo_set_line_width(cr, s);
    cairo_stroke(cr);
    cairo_new_sub_path(cr);
    cairo_arc(cr, left + pillWidth / 2, top + 22 * s, 3 * s, 0, 2 * M_PI);
    cairo_set_source_rgba(cr, 35 / 255.0, 35 / 255.0, 35 / 255.0, 0.90);
    cairo_fill_preserve(cr);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.30);
    cairo_stroke(cr);

    double x = round(left + (pillWidth - content * s) / 2), y = round(top + (pillHeight - textHeight * s) / 2);
    cairo_save(cr);
    cairo_translate(cr, x, y);
    cairo_scale(cr, s, s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    pango_cairo_update_layout(cr, layout);
    pango_cairo_show_layout(cr, layout);
    cairo_restore(cr);
    double flagX = round(x + (textWidth + 2) * s), flagY = round(top + 6 * s);
    cairo_rectangle(cr, flagX, flagY, s, 8 * s);
    cairo_fill(cr);
    for (int row = 0; row < 2; row++)
        for (int column = 0; column < 3; column++) {
            cairo_rectangle(cr, flagX + s + column * 2 * s, flagY + row * 2 * s, 2 * s, 2 * s);
            cairo_set_source_rgba(cr, 1, 1, 1, (row + column) % 2 ? 0.3 : 1);
            cairo_fill(cr);
        }

    cairo_status_t status = cairo_surface_write_to_png(surface, argv[1]);
    if (status != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "naive-marker: %s\n", cairo_status_to_string(status));
        return 1;
    }
    printf("%s\n", argv[1]);
    return 0;
}
