// The C surface markerpaint draws with: Cairo and Pango for pixels, text and SVG/PDF.
#ifndef MARKERPAINT_CPANGOCAIRO_SHIM_H
#define MARKERPAINT_CPANGOCAIRO_SHIM_H
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>
#include <fontconfig/fontconfig.h>

#endif
