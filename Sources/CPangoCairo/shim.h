// Cairo and Pango (through pangocairo), seen only by TaskWidgetRender. Linked through pkg-config,
// and fontconfig with Pango's font map on it (the widgets' own font set) through the module map.
// Also glibc's allocator settings (mallopt), which Swift's Glibc module does not import.
#include <cairo.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
#include <malloc.h>
