// Cairo and Pango (through pangocairo), seen only by TaskWidgetRender. Linked through pkg-config.
// Also glibc's allocator settings (mallopt), which Swift's Glibc module does not import.
#include <cairo.h>
#include <pango/pangocairo.h>
#include <malloc.h>
