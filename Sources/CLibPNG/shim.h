// libpng and zlib, for TaskWidgetRender's fast PNG encoder (and the tests' decoder).
#include <png.h>
#include <zlib.h>
