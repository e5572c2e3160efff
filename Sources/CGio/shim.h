// GLib, GObject and GIO (GDBus), seen only by TaskWidgetNotify. Linked through pkg-config.
//
// A few GLib conveniences are macros that Swift cannot import (casts, variadic functions); the
// static inline functions below stand in for the ones the Swift side needs. Nothing to compile.
#ifndef CGIO_SHIM_H
#define CGIO_SHIM_H

#include <gio/gio.h>

/// `G_VARIANT_TYPE(string)`: a GVariant type string used as a `const GVariantType *`.
static inline const GVariantType *cgio_variant_type(const char *type_string) {
    return (const GVariantType *)type_string;
}

/// `G_IO_ERROR`: the error domain of GIO's local errors (cancelled, timed out, closed...).
static inline GQuark cgio_io_error_quark(void) { return G_IO_ERROR; }

/// `G_DBUS_ERROR`: the error domain of well-known D-Bus errors.
static inline GQuark cgio_dbus_error_quark(void) { return G_DBUS_ERROR; }

/// `G_OBJECT(connection)` for `g_signal_connect_data`, which takes a `gpointer` instance.
static inline gpointer cgio_object(GDBusConnection *connection) { return (gpointer)connection; }

#endif
