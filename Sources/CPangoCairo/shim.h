// The C surface markerpaint draws and encodes with: Cairo and Pango for pixels, text and SVG/PDF,
// libspng to decode PNGs bit-exactly, libdeflate for the fast PNG encoder.
#ifndef MARKERPAINT_CPANGOCAIRO_SHIM_H
#define MARKERPAINT_CPANGOCAIRO_SHIM_H
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>
#include <fontconfig/fontconfig.h>
#include <spng.h>
#include <libdeflate.h>

#endif
