// Cairo and Pango (through pangocairo), seen only by TaskWidgetRender. Linked through pkg-config.
#include <cairo.h>
#include <pango/pangocairo.h>
